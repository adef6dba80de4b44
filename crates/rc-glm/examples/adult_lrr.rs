//! Times LRR (and LR1) on a shared data set, default adult at
//! `λ0 = 0.005`, `λ1 = 0.001` (the setting of AIX360's examples), and
//! prints the model. The data directory is `$RC_DATA_DIR` or
//! `../shared/datasets`.
//!
//! ```text
//! cargo run -p rc-glm --release --example adult_lrr [-- DATASET [LAMBDA0 [METHODS]]]
//! ```
//!
//! `METHODS` is a comma-separated list of LR1, LRR, LR1N, LRRN (default
//! `LR1,LRR`). Regression data sets (e.g. abalone) get the linear-regression
//! versions and report the training R².

use std::time::Instant;

use rc_core::metrics::r2;
use rc_core::shared::{locate_data_dir, SharedData};
use rc_core::{Fit, Predict, Predictions};
use rc_glm::GlrmParams;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "adult".into());
    let lambda0: f64 = args.next().map_or(Ok(0.005), |s| s.parse())?;
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
            "{} λ0={lambda0}: fit {secs:.2} s, {} CG iterations, stop {:?}, {score}",
            params.name(),
            model.info().iterations,
            model.info().stop
        );
        println!("{model}");
    }
    Ok(())
}
