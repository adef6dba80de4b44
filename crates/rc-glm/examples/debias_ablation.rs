//! Ablation of the de-biasing refit: 10-fold CV (scikit-learn's
//! `StratifiedKFold(10, shuffle=True, random_state=25)`) of one GLRM
//! variant along the `paper002` `λ0` grid (extended down to 5e-5), with and without the
//! unregularised refit, printing the mean test Brier score, the mean number
//! of terms and the largest |coefficient| for each `λ0`. The data directory
//! is `$RC_DATA_DIR` or `../shared/datasets`.
//!
//! ```text
//! cargo run -p rc-glm --release --example debias_ablation [-- DATASET [METHOD]]
//! ```

use rc_glm::GlrmParams;
use rulecover_core::cv::sklearn_stratified_kfold;
use rulecover_core::metrics::brier;
use rulecover_core::shared::{locate_data_dir, SharedData};
use rulecover_core::{Predict, Predictions};

/// The `paper002` grid, extended below its smallest value 0.0005.
const GRID: &[f64] = &[
    0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001, 0.00005,
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "wdbc".into());
    let method = args.next().unwrap_or_else(|| "LRR".into());
    let dir = locate_data_dir(None)
        .map_err(|tried| format!("no data directory (looked in {tried:?}); set RC_DATA_DIR"))?;
    let data = SharedData::open(&dir)?.load(&name)?;
    let labels = data.labels()?;
    let folds = sklearn_stratified_kfold(&labels, 10, 25)?;
    let path: Vec<(f64, f64)> = GRID.iter().map(|&l| (l, 0.2 * l)).collect();
    println!(
        "{name} {method}: λ0, then for debias on / off: mean test Brier, mean terms, max |coef|"
    );
    let mut sums = vec![[0.0f64; 6]; GRID.len()];
    for fold in &folds {
        let train = data.subset(&fold.train)?;
        let test = data.subset(&fold.test)?;
        let y = test.labels()?;
        for (d, debias) in [true, false].into_iter().enumerate() {
            let params = match method.as_str() {
                "LR1" => GlrmParams::lr1(),
                "LR1N" => GlrmParams::lr1n(),
                "LRRN" => GlrmParams::lrrn(),
                _ => GlrmParams::lrr(),
            }
            .debias(debias);
            for (i, model) in params.fit_path(&train, &path)?.iter().enumerate() {
                let Predictions::Classes { n_classes, proba } = model.predict(&test)? else {
                    return Err("not a classification data set".into());
                };
                let max_coef = model
                    .terms()
                    .iter()
                    .map(|t| t.coef.abs())
                    .fold(0.0, f64::max);
                sums[i][3 * d] += brier(&y, &proba, n_classes)?;
                sums[i][3 * d + 1] += model.terms().len() as f64;
                sums[i][3 * d + 2] = sums[i][3 * d + 2].max(max_coef);
            }
        }
    }
    let k = folds.len() as f64;
    for (l, s) in GRID.iter().zip(&sums) {
        println!(
            "{l:<7} on  {:.4} {:6.1} {:9.3e}   off {:.4} {:6.1} {:9.3e}",
            s[0] / k,
            s[1] / k,
            s[2],
            s[3] / k,
            s[4] / k,
            s[5]
        );
    }
    Ok(())
}
