//! Shared helpers of rulecover's criterion benchmarks and timing examples:
//! finding the benchmark data directory, loading a data set one-hot encoded
//! with a fixed train/test split, generating large synthetic data, and
//! building the LPs the project solves ([`lp_problems`]); and what a
//! process used ([`process`]: peak memory, CPU seconds), which xtask's
//! scaling benchmark (`cargo xtask scaling`) measures its fits with.
//!
//! The data directory is `$RC_DATA_DIR` if set, else `../shared/datasets`
//! relative to the workspace root. When it is absent the benchmarks that
//! need it print a skip message and the rest still run.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod lp_problems;
pub mod process;

use std::path::PathBuf;

use rulecover_core::shared::{SharedData, DATA_DIR_ENV};
use rulecover_core::Dataset;

/// The workspace root (the parent of this crate's directory).
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(PathBuf::from).unwrap_or(here)
}

/// The benchmark data directory: `$RC_DATA_DIR`, else
/// `<workspace>/../shared/datasets`; `None` (with a message on stderr
/// saying where it looked) when neither holds a `manifest.json`.
pub fn data_dir() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(d) = std::env::var_os(DATA_DIR_ENV) {
        candidates.push(PathBuf::from(d));
    }
    candidates.push(workspace_root().join("..").join("shared").join("datasets"));
    for c in &candidates {
        if c.join("manifest.json").is_file() {
            return Some(c.clone());
        }
    }
    eprintln!(
        "benchmark data not found (looked in {}); set {DATA_DIR_ENV} to the shared datasets \
         directory to run the magic/adult benchmarks",
        candidates
            .iter()
            .map(|c| c.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    None
}

/// A data set from the shared directory, categorical features one-hot
/// encoded with every level kept (`pandas.get_dummies(drop_first=False)`;
/// a missing categorical value is a level of its own), split into train
/// (rows `i` with `i % 5 != 0`) and test (`i % 5 == 0`).
pub fn load_split(name: &str) -> Option<(Dataset, Dataset)> {
    let dir = data_dir()?;
    let loaded = SharedData::open(&dir).and_then(|s| s.load(name));
    let data = match loaded.and_then(|d| d.one_hot(false)) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipping '{name}': {e}");
            return None;
        }
    };
    Some(split(&data))
}

/// Train (`i % 5 != 0`) and test (`i % 5 == 0`) parts of `data`, each
/// copied into its own contiguous storage (as scikit-learn gets its own
/// arrays), so timings do not include gathering rows out of a view.
pub fn split(data: &Dataset) -> (Dataset, Dataset) {
    let n = data.n_rows();
    let train: Vec<usize> = (0..n).filter(|i| i % 5 != 0).collect();
    let test: Vec<usize> = (0..n).filter(|i| i % 5 == 0).collect();
    let own = |rows: &[usize]| {
        data.subset(rows)
            .and_then(|v| v.with_target(v.target_view()))
            .unwrap_or_else(|_| data.clone())
    };
    (own(&train), own(&test))
}

/// The generated benchmark data: Breiman's twonorm, `n` rows × 20 features.
pub fn generated(n: usize, seed: u64) -> Dataset {
    rulecover_core::generate::twonorm(n, seed)
}

/// Fraction of equal labels.
pub fn accuracy(a: &[usize], b: &[usize]) -> f64 {
    let same = a.iter().zip(b).filter(|(x, y)| x == y).count();
    same as f64 / a.len().max(1) as f64
}
