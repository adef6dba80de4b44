//! Fit and predict benchmarks of rc-tree's decision tree and random forest
//! (100 trees, sqrt features, unlimited depth) on magic and adult (read
//! from the shared data directory: `$RC_DATA_DIR` or
//! `<workspace>/../shared/datasets`; skipped with a message when absent)
//! and on generated data (twonorm, 100 000 rows × 20 features).
//!
//! Train/test split: rows `i % 5 != 0` / `i % 5 == 0`; adult is one-hot
//! encoded with every level kept. Run with
//! `cargo bench -p rc-benches --bench trees`; the scikit-learn side of the
//! comparison is `crates/rc-tree/bench/sklearn_compare.py`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use rc_tree::{DecisionTreeParams, RandomForestParams};
use rulecover_core::{Dataset, Fit, Predict};

fn data_sets() -> Vec<(String, Dataset, Dataset)> {
    let mut sets = Vec::new();
    for name in ["magic", "adult"] {
        match rc_benches::load_split(name) {
            Some((train, test)) => sets.push((name.to_string(), train, test)),
            None => eprintln!("skipping the '{name}' benchmarks: data set not available"),
        }
    }
    let (train, test) = rc_benches::split(&rc_benches::generated(100_000, 1));
    sets.push(("twonorm_100k_x20".to_string(), train, test));
    sets
}

fn trees(c: &mut Criterion) {
    let dt = DecisionTreeParams::classifier().seed(0);
    let rf = RandomForestParams::classifier().n_estimators(100).seed(0);
    let mut group = c.benchmark_group("trees");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for (name, train, test) in &data_sets() {
        group.bench_function(BenchmarkId::new("dt_fit", name), |b| {
            b.iter(|| dt.fit(train).expect("decision tree fit"))
        });
        let tree = dt.fit(train).expect("decision tree fit");
        group.bench_function(BenchmarkId::new("dt_predict", name), |b| {
            b.iter(|| tree.predict(test).expect("decision tree predict"))
        });
        group.bench_function(BenchmarkId::new("rf_fit", name), |b| {
            b.iter(|| rf.fit(train).expect("random forest fit"))
        });
        let forest = rf.fit(train).expect("random forest fit");
        group.bench_function(BenchmarkId::new("rf_predict", name), |b| {
            b.iter(|| forest.predict(test).expect("random forest predict"))
        });
    }
    group.finish();
}

criterion_group!(benches, trees);
criterion_main!(benches);
