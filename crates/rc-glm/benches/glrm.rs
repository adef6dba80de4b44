//! Criterion benchmarks of the GLRM pieces on generated data: the L1 GLM
//! solve, one heuristic pricing call, and a full LRR fit, for the logistic
//! and (on a generated regression target) the squared loss, whose master is
//! timed on the Gram-matrix solver (the default) and on the general
//! proximal-Newton solver in the same run.

use criterion::{criterion_group, criterion_main, Criterion};
use rc_glm::GlrmParams;
use rulecover_core::{generate, Dataset, Feature, Fit, Rng, Target};

/// `n` rows, 8 uniform features, a target with interactions and noise.
fn regression(n: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|_| (0..8).map(|_| rng.next_f64()).collect())
        .collect();
    let y = rows
        .iter()
        .map(|r| {
            (6.0 * r[0]).sin() + 2.0 * f64::from(u8::from(r[1] > 0.4 && r[2] < 0.7)) - r[3] * r[4]
                + 0.5 * rng.normal()
        })
        .collect();
    let features = (0..8).map(|j| Feature::numeric(format!("x{j}"))).collect();
    Dataset::from_rows("regression", features, &rows, Target::Real(y))
        .expect("generated rows are well formed")
}

fn bench(c: &mut Criterion) {
    let data = generate::twonorm(2000, 7);
    let mut g = c.benchmark_group("glrm");
    g.sample_size(10);
    g.bench_function("lr1_twonorm_2000", |b| {
        b.iter(|| GlrmParams::lr1().lambdas(0.005, 0.2).fit(&data).unwrap())
    });
    g.bench_function("lrr_twonorm_2000", |b| {
        b.iter(|| GlrmParams::lrr().lambdas(0.005, 0.2).fit(&data).unwrap())
    });
    let reg = regression(1500, 11);
    g.bench_function("lrr_regression_1500_l0.001", |b| {
        b.iter(|| GlrmParams::lrr().lambdas(0.001, 0.2).fit(&reg).unwrap())
    });
    g.bench_function("lrr_regression_1500_l0.001_general_solver", |b| {
        b.iter(|| {
            GlrmParams::lrr()
                .lambdas(0.001, 0.2)
                .gram_master(false)
                .fit(&reg)
                .unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
