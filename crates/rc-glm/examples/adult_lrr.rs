//! Times LRR (and LR1) on a shared data set, default adult at
//! `λ0 = 0.005`, `λ1 = 0.001` (the setting of AIX360's examples), and
//! prints the model. The data directory is `$RC_DATA_DIR` or
//! `../shared/datasets`.
//!
//! ```text
//! cargo run -p rc-glm --release --example adult_lrr [-- DATASET [LAMBDA0 [METHODS]]]
//! ```
//!
//! `LAMBDA0 = path` fits the `paper002` path (λ0 from 0.1 down to 0.0005,
//! warm-started, as the nested CV does) and prints one line per λ0.
//! `METHODS` is a comma-separated list of LR1, LRR, LR1N, LRRN (default
//! `LR1,LRR`). Regression data sets (e.g. abalone) get the linear-regression
//! versions and report the training R².

use std::time::Instant;

use rc_glm::GlrmParams;
use rulecover_core::metrics::r2;
use rulecover_core::shared::{locate_data_dir, SharedData};
use rulecover_core::{Fit, Predict, Predictions};

/// The `paper002` λ0 grid, in path order.
const PATH: &[f64] = &[0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "adult".into());
    let lambda_arg = args.next().unwrap_or_else(|| "0.005".into());
    let methods = args.next().unwrap_or_else(|| "LR1,LRR".into());
    let dir = locate_data_dir(None)
        .map_err(|tried| format!("no data directory (looked in {tried:?}); set RC_DATA_DIR"))?;
    let data = SharedData::open(&dir)?.load(&name)?;
    println!(
        "{name}: {} rows, {} features",
        data.n_rows(),
        data.n_features()
    );
    for method in methods.split(',') {
        let params = match method {
            "LR1" => GlrmParams::lr1(),
            "LRR" => GlrmParams::lrr(),
            "LR1N" => GlrmParams::lr1n(),
            "LRRN" => GlrmParams::lrrn(),
            other => return Err(format!("unknown method {other}").into()),
        };
        if lambda_arg == "path" {
            let path: Vec<(f64, f64)> = PATH.iter().map(|&l| (l, 0.2 * l)).collect();
            let t = Instant::now();
            let models = params.fit_path(&data, &path)?;
            for m in &models {
                let info = m.info();
                println!(
                    "{} λ0={}: {:.2} s, {} CG iterations, {} terms, working set {}, objective {:.9}",
                    params.name(),
                    info.lambda0,
                    info.time.as_secs_f64(),
                    info.iterations,
                    m.terms().len(),
                    info.working_set,
                    info.objective
                );
            }
            println!("path: {:.2} s", t.elapsed().as_secs_f64());
            continue;
        }
        let lambda0: f64 = lambda_arg.parse()?;
        let params = params.lambdas(lambda0, 0.2);
        let t = Instant::now();
        let model = params.fit(&data)?;
        let secs = t.elapsed().as_secs_f64();
        let pred = model.predict(&data)?;
        let y = data.target_values();
        // Brier score for two classes, R² for a real target.
        let score = match pred.positive_proba() {
            Some(p) => {
                let brier =
                    p.iter().zip(&y).map(|(p, y)| (p - y).powi(2)).sum::<f64>() / y.len() as f64;
                format!("train Brier {brier:.5}")
            }
            None => match &pred {
                Predictions::Values(v) => format!("train R² {:.5}", r2(&y, v)?),
                Predictions::Classes { .. } => String::new(),
            },
        };
        println!(
            "{} λ0={lambda0}: fit {secs:.2} s, {} CG iterations, stop {:?}, objective {:.9}, \
             KKT {:.1e}, {score}",
            params.name(),
            model.info().iterations,
            model.info().stop,
            model.info().objective,
            model.info().kkt_violation
        );
        println!("{model}");
    }
    Ok(())
}
