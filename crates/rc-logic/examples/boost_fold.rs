//! Learns RFGB (or bagging) on one fold of a BoostSRL data set and prints
//! the test metrics and timings — the command used for the side-by-side
//! comparison with BoostSRL in docs/PERFORMANCE.md.
//!
//! ```text
//! cargo run --release -p rc-logic --example boost_fold -- \
//!     ../shared/datasets/relational/uwcse/uwcse fold1 advisedby [--bagging] [--trees N] [--seed S] [--seeds K] [--depth D] [--all-matches] [--print] [--dump FILE]
//! ```
//! The dataset directory holds `background.txt` and `<fold>/{train,test}`;
//! pass `-` as the fold for data sets without folds. For cora's extra
//! targets the modes `samebib(+paper,+paper).` etc. are added.
//! `--all-matches` turns off BoostSRL's "enough different matches" rule
//! (`TreeParams::distinct_matches`).

use std::path::PathBuf;
use std::time::Instant;

use rc_logic::metrics::scores;
use rc_logic::{BaggingParams, BoostParams, Problem};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        return Err("usage: boost_fold DATASET_DIR FOLD|- TARGET [--bagging] [--trees N] [--seed S] [--print]".into());
    }
    let dir = PathBuf::from(&args[0]);
    let fold = &args[1];
    let target = &args[2];
    let bagging = args.iter().any(|a| a == "--bagging");
    let print = args.iter().any(|a| a == "--print");
    let distinct = !args.iter().any(|a| a == "--all-matches");
    let get = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let trees = get("--trees").unwrap_or(20) as usize;
    let seed = get("--seed").unwrap_or(25);
    let base = if fold == "-" {
        dir.clone()
    } else {
        dir.join(fold)
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
    let t0 = Instant::now();
    let problem = Problem::load(
        &dir.join("background.txt"),
        target,
        &base.join("train"),
        Some(&base.join("test")),
        &extra,
    )?;
    let load_s = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    // `--seeds K`: seed examples per node search (0 = exhaustive search).
    let n_seeds = get("--seeds").map(|k| (k > 0).then_some(k as usize));
    let model = if bagging {
        let mut p = BaggingParams::default().n_trees(trees).seed(seed);
        p.tree = p.tree.distinct_matches(distinct);
        if let Some(k) = n_seeds {
            p.tree = p.tree.n_seeds(k);
        }
        p.fit(&problem)?
    } else {
        let mut p = BoostParams::default().n_trees(trees).seed(seed);
        p.tree = p.tree.distinct_matches(distinct);
        if let Some(k) = n_seeds {
            p.tree = p.tree.n_seeds(k);
        }
        if let Some(d) = get("--depth") {
            p.tree = p.tree.max_depth(d as usize);
        }
        p.fit(&problem)?
    };
    let learn_s = t1.elapsed().as_secs_f64();
    let test = problem.test.as_ref().ok_or("no test split")?;
    let t2 = Instant::now();
    let p = model.predict_proba(test);
    let infer_s = t2.elapsed().as_secs_f64();
    let s = scores(&test.examples.labels01(), &p)?;
    if print {
        println!("{}", model.render());
    }
    // `--dump FILE`: one line per test example, `target(a, b) p label`
    // (the layout of BoostSRL's results_<target>.db plus the label).
    if let Some(i) = args.iter().position(|a| a == "--dump") {
        let path = args.get(i + 1).ok_or("--dump needs a file")?;
        let mut out = String::new();
        for (r, prob) in p.iter().enumerate() {
            let consts: Vec<&str> = test
                .examples
                .get(r)
                .iter()
                .map(|&c| problem.vocab.name(rc_logic::symbols::Sym(c)))
                .collect();
            out.push_str(&format!(
                "{target}({}) {prob} {}\n",
                consts.join(", "),
                u8::from(test.examples.labels[r])
            ));
        }
        std::fs::write(path, out)?;
    }
    println!(
        "{target} {fold}: train {} ex ({} pos), test {} ex ({} pos); load {load_s:.2}s learn {learn_s:.2}s infer {infer_s:.2}s; paths {} depth {}",
        problem.train.examples.len(),
        problem.train.examples.n_pos(),
        test.examples.len(),
        test.examples.n_pos(),
        model.n_paths(),
        model.max_depth()
    );
    println!(
        "AUC-ROC {:.6}  AUC-PR(DG) {:.6}  AUC-PR(trapz) {:.6}  CLL {:.6}",
        s.auc_roc.unwrap_or(f64::NAN),
        s.auc_pr.unwrap_or(f64::NAN),
        s.auc_pr_trapezoid.unwrap_or(f64::NAN),
        s.cll
    );
    Ok(())
}
