//! Criterion benchmarks of the GLRM pieces on generated data: the L1 GLM
//! solve, one heuristic pricing call, and a full LRR fit.

use criterion::{criterion_group, criterion_main, Criterion};
use rc_core::{generate, Fit};
use rc_glm::GlrmParams;

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
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
