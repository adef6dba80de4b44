//! MIRCO and the LPs the project solves, on real pools:
//!
//! * `mirco/greedy`: Chvátal's greedy with redundancy removal on the leaves
//!   of a 100-tree, depth-10 random forest routed through adult's
//!   training split (and a generated 20k-row set when data are absent);
//! * `lp/cover_relaxation`: the LP relaxation of MIRCO's set cover over a
//!   100-tree, depth-3 forest on 20k generated rows (`$RC_BENCH_LP_ROWS`),
//!   duals included (RCBoost's master problem);
//! * `lp/rux_master_dual_form`: RUX's master LP (3) (hinge rows, coverage
//!   rows, costs by normalised rule length) over the same forest and rows,
//!   in the dual form RUX solves, duals included;
//! * `lp_colgen/cover_10_rounds`: column generation on the cover
//!   relaxation: the pool added in 10 batches with a re-solve after each
//!   (warm starts matter here);
//! * `ip/set_cover`: the exact cover IP over a 10-tree, depth-3 forest on
//!   2k rows.
//!
//! Each LP/IP is solved by every backend of the build: minilp always, CBC
//! with feature `cbc`, HiGHS with feature `highs` (warm and cold in
//! `lp/colgen`): `cargo bench -p rc-benches --bench cover --features cbc,highs`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use rc_benches::lp_problems::{
    cover_costs, cover_relaxation, forest_pool, lp_backends, mip_backends, rux_master, set_cover_ip,
};
use rc_cover::{greedy_set_cover, Impurity, LpForm};
use rc_lp::{MipOptions, Model};

fn mirco(c: &mut Criterion) {
    let (name, train) = match rc_benches::load_split("adult") {
        Some((train, _)) => ("adult".to_string(), train),
        None => ("twonorm_20k".to_string(), rc_benches::generated(20_000, 3)),
    };
    let p = forest_pool(&train, 100, 10);
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

/// Rows of the generated data set of the LP benches: `$RC_BENCH_LP_ROWS`,
/// default 20,000. minilp needs minutes per 20k-row LP, so criterion's ten
/// samples take long; `cargo run --release -p rc-benches --example
/// lp_timing` times every backend once instead.
fn lp_rows() -> usize {
    std::env::var("RC_BENCH_LP_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
}

fn lps(c: &mut Criterion) {
    let train = rc_benches::generated(lp_rows(), 4);
    let p = forest_pool(&train, 100, 3);
    let costs = cover_costs(&p);
    let lp = cover_relaxation(&p);
    let rux = rux_master(&p, &train, LpForm::Dual);
    eprintln!(
        "lp/cover_relaxation: {} rows x {} columns; lp/rux_master: {} rows x {} columns",
        lp.num_rows(),
        lp.num_vars(),
        rux.num_rows(),
        rux.num_vars()
    );
    let mut group = c.benchmark_group("lp");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(20));
    for (name, solver) in lp_backends(true, false) {
        group.bench_function(format!("cover_relaxation/{name}"), |b| {
            b.iter(|| solver.solve_lp(&lp).expect("lp"))
        });
        group.bench_function(format!("rux_master_dual_form/{name}"), |b| {
            b.iter(|| solver.solve_lp(&rux).expect("lp"))
        });
    }
    group.finish();

    // Column generation: the master grows by a tenth of the pool per round.
    let colgen_solvers = lp_backends(true, true);
    let batches: Vec<Vec<usize>> = {
        let n = p.len();
        (0..10)
            .map(|k| (k * n / 10..(k + 1) * n / 10).collect())
            .collect()
    };
    let mut group = c.benchmark_group("lp_colgen");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(30));
    for (name, solver) in &colgen_solvers {
        group.bench_function(format!("cover_10_rounds/{name}"), |b| {
            b.iter(|| {
                let mut m = Model::minimize();
                let rows: Vec<_> = (0..train.n_rows())
                    .map(|_| m.add_ge(&[], 1.0).expect("row"))
                    .collect();
                let mut objective = 0.0;
                for batch in &batches {
                    for &j in batch {
                        let entries: Vec<_> = p
                            .coverage
                            .rows_of(j)
                            .iter()
                            .map(|&i| (rows[i as usize], 1.0))
                            .collect();
                        m.add_column(costs[j], (0.0, f64::INFINITY), &entries)
                            .expect("column");
                    }
                    objective = solver.solve_lp(&m).expect("lp").objective;
                }
                objective
            })
        });
    }
    group.finish();

    let small = rc_benches::generated(2_000, 5);
    let ip = set_cover_ip(&forest_pool(&small, 10, 3));
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
    for (name, solver) in mip_backends() {
        group.bench_function(format!("set_cover_2k/{name}"), |b| {
            b.iter(|| solver.solve_mip(&ip, &opts).expect("ip"))
        });
    }
    group.finish();
}

criterion_group!(benches, mirco, lps);
criterion_main!(benches);
