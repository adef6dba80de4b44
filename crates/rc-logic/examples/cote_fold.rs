//! Learns an ensemble on one fold, compresses it with SCoTE and ECoTE,
//! and prints sizes, test AUCs and times.
//!
//! ```text
//! cargo run --release -p rc-logic --example cote_fold -- \
//!     ../shared/datasets/relational/uwcse/uwcse fold1 advisedby [--bagging] [--full] [--print] [--max-clauses N]
//! ```
//! `RC_COTE_TRACE=1` prints the list size after each merged tree;
//! `--check-reference N` compares SCoTE's default merge with the
//! reference merge on the first N trees; `--no-scote` skips SCoTE.

use std::path::PathBuf;
use std::time::Instant;

use rc_logic::cote::{ecote, scote, EcoteParams, ScoteParams};
use rc_logic::metrics::scores;
use rc_logic::{BaggingParams, BoostParams, Problem};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        return Err(
            "usage: cote_fold DATASET_DIR FOLD|- TARGET [--bagging] [--full] [--print]".into(),
        );
    }
    let dir = PathBuf::from(&args[0]);
    let base = if args[1] == "-" {
        dir.clone()
    } else {
        dir.join(&args[1])
    };
    let extra = [
        "samebib(+paper,+paper).",
        "sametitle(+title,+title).",
        "samevenue(+venue,+venue).",
    ];
    let extra: Vec<&str> = if dir.to_string_lossy().contains("cora") {
        extra.to_vec()
    } else {
        Vec::new()
    };
    let problem = Problem::load(
        &dir.join("background.txt"),
        &args[2],
        &base.join("train"),
        Some(&base.join("test")),
        &extra,
    )?;
    let test = problem.test.as_ref().ok_or("no test split")?;
    let y = test.examples.labels01();
    let t = Instant::now();
    let model = if args.iter().any(|a| a == "--bagging") {
        BaggingParams::default().seed(25).fit(&problem)?
    } else {
        BoostParams::default().seed(25).fit(&problem)?
    };
    let s = scores(&y, &model.predict_proba(test))?;
    println!(
        "ensemble: {} paths, depth {}, naive {:.3e} clauses avg {:.2}; learn {:.2}s; ROC {:.4} PR {:.4}",
        model.n_paths(),
        model.max_path_literals(),
        model.naive_size(),
        model.naive_avg_length(),
        t.elapsed().as_secs_f64(),
        s.auc_roc.unwrap_or(f64::NAN),
        s.auc_pr.unwrap_or(f64::NAN)
    );
    // `--check-reference N`: the default (tuple) merge and the reference
    // merge must give the same list on the first N trees.
    if let Some(n) = args
        .iter()
        .position(|a| a == "--check-reference")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse::<usize>().ok())
    {
        let mut first = model.clone();
        first.trees.truncate(n);
        let t = Instant::now();
        let fast = scote(&first, &ScoteParams::default())?;
        let t_fast = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let reference = scote(&first, &ScoteParams::default().reference_merge(true))?;
        let t_ref = t.elapsed().as_secs_f64();
        println!(
            "first {n} trees: tuple merge {} clauses in {t_fast:.2}s, reference merge {} clauses in {t_ref:.2}s; identical lists: {}",
            fast.clauses,
            reference.clauses,
            fast.list.is_some() && fast.list == reference.list
        );
    }
    let full = args.iter().any(|a| a == "--full");
    if !args.iter().any(|a| a == "--no-scote") {
        // `--max-clauses N`: the SCoTE clause cap (default Caps' 50 M).
        let mut params = ScoteParams {
            full_check: full,
            ..ScoteParams::default()
        };
        if let Some(n) = args
            .iter()
            .position(|a| a == "--max-clauses")
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<usize>().ok())
        {
            params.caps.max_clauses = n;
        }
        let sc = scote(&model, &params)?;
        print!(
            "SCoTE: {} in {:.2}s, {} groups, {} clauses (peak {})",
            sc.status.name(),
            sc.seconds,
            sc.groups,
            sc.clauses,
            sc.peak_clauses
        );
        if let Some(l) = &sc.list {
            let s = scores(&y, &l.predict_proba(test))?;
            print!(
                ", avg {:.2}; ROC {:.4} PR {:.4}",
                l.avg_length(),
                s.auc_roc.unwrap_or(f64::NAN),
                s.auc_pr.unwrap_or(f64::NAN)
            );
        }
    }
    println!();
    let universe = problem.train.examples.subset(&model.training_rows);
    print!("(ECoTE universe: {} training examples) ", universe.len());
    let ec = ecote(
        &model,
        &problem.train.facts,
        &universe,
        &EcoteParams::default(),
    )?;
    print!(
        "ECoTE: {} in {:.2}s, {} clauses",
        ec.status.name(),
        ec.seconds,
        ec.clauses
    );
    if let Some(l) = &ec.list {
        let s = scores(&y, &l.predict_proba(test))?;
        print!(
            ", avg {:.2}; ROC {:.4} PR {:.4}",
            l.avg_length(),
            s.auc_roc.unwrap_or(f64::NAN),
            s.auc_pr.unwrap_or(f64::NAN)
        );
        if args.iter().any(|a| a == "--print") {
            println!("\n{}", l.render());
        }
    }
    println!();
    Ok(())
}
