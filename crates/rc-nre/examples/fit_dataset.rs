//! Fits NRE, its initial tree and the MLP on one benchmark data set and
//! prints their test errors on one stratified 5-fold split.
//!
//! ```text
//! cargo run --release -p rc-nre --example fit_dataset -- magic [depth] [fold] [hidden]
//! ```
//!
//! The data directory is `$RC_DATA_DIR` or `../shared/datasets` (run from
//! the workspace root); `twonorm` and `ring` are generated (7,400 rows).
//! Categorical columns are replaced by their level codes (as PMLB does).

use std::time::Instant;

use rc_nre::{ConstantFeatures, MlpParams, NreParams};
use rulecover_core::cv::sklearn_stratified_kfold;
use rulecover_core::shared::{locate_data_dir, SharedData};
use rulecover_core::{Dataset, Feature, FeatureKind, Fit, Predict};

fn load(name: &str) -> Result<Dataset, Box<dyn std::error::Error>> {
    match name {
        "twonorm" => return Ok(rulecover_core::generate::twonorm(7400, 1)),
        "ring" => return Ok(rulecover_core::generate::ringnorm(7400, 2)),
        _ => {}
    }
    let dir = locate_data_dir(None).map_err(|t| format!("no data directory (tried {t:?})"))?;
    let d = SharedData::open(&dir)?.load(name)?;
    // Level codes as numbers.
    let features: Vec<Feature> = d
        .features()
        .iter()
        .map(|f| match f.kind {
            FeatureKind::Categorical { .. } => Feature::numeric(f.name.clone()),
            _ => f.clone(),
        })
        .collect();
    let columns = (0..d.n_features())
        .map(|j| d.column(j).into_owned())
        .collect();
    Ok(Dataset::new(d.name(), features, columns, d.target_view())?)
}

fn error(pred: Vec<usize>, truth: &[usize]) -> f64 {
    100.0 * pred.iter().zip(truth).filter(|(p, t)| p != t).count() as f64 / truth.len() as f64
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("magic", String::as_str);
    let depth: usize = args.get(1).map_or(Ok(6), |s| s.parse())?;
    let fold: usize = args.get(2).map_or(Ok(0), |s| s.parse())?;
    let hidden: usize = args.get(3).map_or(Ok(0), |s| s.parse())?;
    let data = load(name)?;
    let folds = sklearn_stratified_kfold(&data.labels()?, 5, 25)?;
    let f = folds.get(fold).ok_or("fold out of range")?;
    let (train, test) = (data.subset(&f.train)?, data.subset(&f.test)?);
    let truth = test.labels()?;
    let env = |k: &str, d: f64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let params = NreParams::default()
        .batch_size(env("NRE_BATCH", 256.0) as usize)
        .patience(env("NRE_PATIENCE", 20.0) as usize)
        .max_epochs(env("NRE_EPOCHS", 200.0) as usize)
        .validation_fraction(env("NRE_VAL", 0.1))
        .learning_rate(env("NRE_LR", 0.01))
        .l2(env("NRE_L2", 0.0))
        .loss(
            [
                rc_nre::Loss::Logistic,
                rc_nre::Loss::Hinge,
                rc_nre::Loss::Squared,
            ][env("NRE_LOSS", 0.0) as usize],
        )
        .deep(env("NRE_DEEP", 0.0) > 0.0)
        .refit(env("NRE_REFIT", 1.0) > 0.0)
        .stop_on(if env("NRE_STOP_LOSS", 0.0) > 0.0 {
            rc_nre::StopOn::Loss
        } else {
            rc_nre::StopOn::Error
        })
        .max_depth(depth)
        .constant_features(ConstantFeatures::Ignore)
        .seed(25);
    let t = Instant::now();
    let model = params.fit(&train)?;
    let secs = t.elapsed().as_secs_f64();
    let tree_err = error(model.tree().predict_labels(&test)?, &truth);
    let nre_err = error(model.predict(&test)?.labels().ok_or("no labels")?, &truth);
    let h = model.history();
    println!(
        "{name} fold {fold} depth {depth}: tree {tree_err:.2}%  NRE {nre_err:.2}%  ({} rules, {} units, {} inputs; {} epochs, best {}, refit {:?}, val loss {:.4} -> {:.4}; {secs:.1} s)",
        model.network().n_rules(),
        model.network().n_units(),
        model.network().n_inputs(),
        h.epochs,
        h.best_epoch,
        h.refit_epochs,
        h.initial_val_loss.unwrap_or(f64::NAN),
        h.val_loss.get(h.best_epoch.saturating_sub(1)).copied().unwrap_or(f64::NAN),
    );
    // Test rows outside every rule's support (predicted by the prior).
    let s = model.supports(&test)?;
    let pred = model.predict_labels(&test)?;
    let outside: Vec<usize> = (0..test.n_rows())
        .filter(|&i| s.row(i).iter().all(|&v| v <= 0.0))
        .collect();
    let wrong_outside = outside.iter().filter(|&&i| pred[i] != truth[i]).count();
    println!(
        "  {} of {} test rows outside every support ({wrong_outside} of them misclassified)",
        outside.len(),
        test.n_rows()
    );
    if hidden > 0 {
        let t = Instant::now();
        let mlp = MlpParams::default()
            .hidden(hidden)
            .constant_features(ConstantFeatures::Ignore)
            .seed(25)
            .fit(&train)?;
        let err = error(mlp.predict(&test)?.labels().ok_or("no labels")?, &truth);
        println!(
            "  MLP h={hidden}: {err:.2}% ({} epochs, best {}; {:.1} s)",
            mlp.history().epochs,
            mlp.history().best_epoch,
            t.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
