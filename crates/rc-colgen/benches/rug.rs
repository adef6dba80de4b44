//! Criterion benchmarks of RUG on generated data: a full column-generation
//! run (depth-3 trees, 10 pricing rounds) with each LP backend of the build.

use criterion::{criterion_group, criterion_main, Criterion};
use rc_colgen::{RugParams, TreeOracle};
use rc_lp::{LpSolver, MinilpSolver};
use rulecover_core::generate;

fn bench(c: &mut Criterion) {
    let data = generate::twonorm(1000, 7);
    #[allow(unused_mut)]
    let mut solvers: Vec<(&str, Box<dyn LpSolver>)> =
        vec![("minilp", Box::new(MinilpSolver::new()))];
    #[cfg(feature = "cbc")]
    solvers.push(("cbc", Box::new(rc_lp::CbcSolver::new())));
    let params = RugParams::default().max_depth(3).max_rmp_calls(10).seed(1);
    let mut g = c.benchmark_group("rug");
    g.sample_size(10);
    for (name, solver) in &solvers {
        g.bench_function(format!("depth3_cap10_twonorm1000_{name}"), |b| {
            b.iter(|| {
                let mut oracle = TreeOracle::new(params.tree_params());
                params
                    .fit_with(&data, None, &mut oracle, solver.as_ref())
                    .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
