//! Times RuleFit on a shared data set with the Python benchmark's matched
//! settings (100 trees of mean size 4 on average, learning rate 0.01,
//! `λ0 = 0.001`, `λ1 = 0`; docs/PERFORMANCE.md, "Python: against aix360
//! and imodels") and prints a hash of each fitted model (its JSON and its
//! predictions on the training rows), so that two builds can be checked
//! for the same models. The data directory is `$RC_DATA_DIR` or
//! `../shared/datasets`.
//!
//! ```text
//! cargo run -p rc-glm --release --example rulefit_time [-- DATASET [REPEATS [N_THRESHOLDS [LAMBDA0]]]]
//! ```
//!
//! A large `LAMBDA0` (e.g. 1) leaves the L1 fit almost nothing to do, so a
//! profile shows the ensemble generation alone.

use std::time::Instant;

use rc_glm::{BinarizerParams, RuleFitParams};
use rulecover_core::shared::{locate_data_dir, SharedData};
use rulecover_core::{Fit, Predict, Predictions};

/// 64-bit FNV-1a.
fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "magic".into());
    let repeats: usize = args.next().map_or(Ok(3), |s| s.parse())?;
    let n_thresholds: usize = args.next().map_or(Ok(9), |s| s.parse())?;
    let lambda0: f64 = args.next().map_or(Ok(0.001), |s| s.parse())?;
    let dir = locate_data_dir(None)
        .map_err(|tried| format!("no data directory (looked in {tried:?}); set RC_DATA_DIR"))?;
    let data = SharedData::open(&dir)?.load(&name)?;
    println!(
        "{name}: {} rows, {} features",
        data.n_rows(),
        data.n_features()
    );
    let params = RuleFitParams::new()
        .tree_size(4)
        .max_rules(354)
        .learning_rate(0.01)
        .lambdas(lambda0, 0.0);
    let params = RuleFitParams {
        binarizer: BinarizerParams::default().n_thresholds(n_thresholds),
        ..params
    };
    for r in 0..repeats {
        let t = Instant::now();
        let model = match std::env::var("RULEFIT_PATH") {
            Ok(p) => {
                let mut path: Vec<(f64, f64)> = p
                    .split(',')
                    .map(|s| s.parse::<f64>().map(|l| (l, 0.0)))
                    .collect::<Result<_, _>>()?;
                path.push((lambda0, 0.0));
                let models = params.clone().seed(r as u64).fit_path(&data, &path)?;
                let times: Vec<String> = models
                    .iter()
                    .map(|m| format!("{:.3}", m.info().time.as_secs_f64()))
                    .collect();
                println!("path times {}", times.join(" "));
                models.into_iter().last().ok_or("empty path")?
            }
            Err(_) => params.clone().seed(r as u64).fit(&data)?,
        };
        let secs = t.elapsed().as_secs_f64();
        let json = serde_json::to_string(model.terms())?;
        let mut h = fnv(json.as_bytes(), 0xcbf2_9ce4_8422_2325);
        h = fnv(&model.intercept().to_bits().to_le_bytes(), h);
        let values = match model.predict(&data)? {
            Predictions::Classes { proba, .. } => proba,
            Predictions::Values(v) => v,
        };
        for v in values {
            h = fnv(&v.to_bits().to_le_bytes(), h);
        }
        println!(
            "seed {r}: {secs:.3} s, {} terms of {} candidates, hash {h:016x}",
            model.terms().len(),
            model.info().working_set
        );
    }
    Ok(())
}
