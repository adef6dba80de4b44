//! Small data sets and helpers shared by the tests.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use rulecover_core::{generate, Dataset, Feature, Predictions, Rng, Target};

/// 120 rows of twonorm (20 numeric features, two classes).
pub fn binary() -> Dataset {
    generate::twonorm(120, 3)
}

/// 120 rows, 3 numeric features, a real target with a step and a slope.
pub fn regression() -> Dataset {
    let mut rng = Rng::new(11);
    let rows: Vec<Vec<f64>> = (0..120)
        .map(|_| vec![rng.next_f64(), rng.next_f64(), rng.next_f64()])
        .collect();
    let y = rows
        .iter()
        .map(|r| {
            let step = if r[0] > 0.5 { 2.0 } else { 0.0 };
            step + r[1] + 0.1 * rng.next_f64()
        })
        .collect();
    Dataset::from_rows(
        "steps",
        vec![
            Feature::numeric("a"),
            Feature::numeric("b"),
            Feature::numeric("c"),
        ],
        &rows,
        Target::Real(y),
    )
    .expect("a valid data set")
}

/// The bits of every number a prediction holds.
pub fn bits(p: &Predictions) -> Vec<u64> {
    match p {
        Predictions::Classes { n_classes, proba } => std::iter::once(*n_classes as u64)
            .chain(proba.iter().map(|x| x.to_bits()))
            .collect(),
        Predictions::Values(v) => v.iter().map(|x| x.to_bits()).collect(),
    }
}

static DIRS: AtomicUsize = AtomicUsize::new(0);

/// A fresh empty folder under the system's temporary folder.
pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "rulecover-test-{tag}-{}-{}",
        std::process::id(),
        DIRS.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Small settings so that every fit takes well under a second in debug:
/// the method's smoke-run parameters ([`rulecover::MethodSpec::smoke`]).
pub fn small(id: &str) -> Vec<(&'static str, &'static str)> {
    rulecover::method(id)
        .unwrap_or_else(|e| panic!("{e}"))
        .spec()
        .smoke
        .to_vec()
}
