//! MIRCO and the LPs the project solves, on real pools:
//!
//! * `mirco/greedy`: Chvátal's greedy with redundancy removal on the leaves
//!   of a 100-tree, depth-10 random forest routed through adult's
//!   training split (and a generated 20k-row set when data are absent);
//! * `lp/cover_relaxation`: the LP relaxation of MIRCO's set cover over a
//!   100-tree, depth-3 forest on 20k generated rows, minilp vs CBC, duals
//!   included (RCBoost's master problem);
//! * `ip/set_cover`: the exact cover IP over a 10-tree, depth-3 forest on
//!   2k rows, minilp branch-and-bound vs CBC.
//!
//! Run with `cargo bench -p rc-benches --bench cover --features cbc` (CBC
//! rows need the feature; without it only minilp is measured).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use rc_core::{Dataset, Fit};
use rc_cover::exact::set_cover_model;
use rc_cover::{greedy_set_cover, Impurity, LabeledPool};
use rc_lp::{LpSolver, MinilpSolver, MipOptions, MipSolver};
use rc_tree::RandomForestParams;

fn pool(train: &Dataset, trees: usize, depth: usize) -> LabeledPool {
    let rf = RandomForestParams::classifier()
        .n_estimators(trees)
        .max_depth(depth)
        .seed(0)
        .fit(train)
        .expect("forest");
    LabeledPool::from_source(&rf, train).expect("pool")
}

fn mirco(c: &mut Criterion) {
    let (name, train) = match rc_benches::load_split("adult") {
        Some((train, _)) => ("adult".to_string(), train),
        None => ("twonorm_20k".to_string(), rc_benches::generated(20_000, 3)),
    };
    let p = pool(&train, 100, 10);
    let costs = p.costs(Impurity::Gini, 1.0);
    eprintln!(
        "mirco/greedy on {name}: {} rules, {} rows",
        p.len(),
        train.n_rows()
    );
    let mut group = c.benchmark_group("mirco");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(5));
    group.bench_function(format!("greedy/{name}/rf100_depth10"), |b| {
        b.iter(|| greedy_set_cover(&p.coverage, &costs).expect("cover"))
    });
    group.finish();
}

fn lps(c: &mut Criterion) {
    let train = rc_benches::generated(20_000, 4);
    let p = pool(&train, 100, 3);
    let costs = p.costs(Impurity::Gini, 1.0);
    let lp = set_cover_model(&p.coverage, &costs)
        .expect("model")
        .relaxation();
    eprintln!(
        "lp/cover_relaxation: {} rows x {} columns",
        lp.num_rows(),
        lp.num_vars()
    );
    let mut group = c.benchmark_group("lp");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("cover_relaxation_20k/minilp", |b| {
        b.iter(|| MinilpSolver::new().solve_lp(&lp).expect("lp"))
    });
    #[cfg(feature = "cbc")]
    group.bench_function("cover_relaxation_20k/cbc", |b| {
        b.iter(|| rc_lp::CbcSolver::new().solve_lp(&lp).expect("lp"))
    });
    group.finish();

    let small = rc_benches::generated(2_000, 5);
    let p = pool(&small, 10, 3);
    let costs = p.costs(Impurity::Gini, 1.0);
    let ip = set_cover_model(&p.coverage, &costs).expect("model");
    eprintln!(
        "ip/set_cover: {} rows x {} columns",
        ip.num_rows(),
        ip.num_vars()
    );
    let opts = MipOptions::default().with_time_limit(Duration::from_secs(60));
    let mut group = c.benchmark_group("ip");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("set_cover_2k/minilp_bnb", |b| {
        b.iter(|| MinilpSolver::new().solve_mip(&ip, &opts).expect("ip"))
    });
    #[cfg(feature = "cbc")]
    group.bench_function("set_cover_2k/cbc", |b| {
        b.iter(|| rc_lp::CbcSolver::new().solve_mip(&ip, &opts).expect("ip"))
    });
    group.finish();
}

criterion_group!(benches, mirco, lps);
criterion_main!(benches);
