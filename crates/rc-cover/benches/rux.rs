//! Criterion benchmarks of RUX on generated data: one master LP (3) over a
//! random forest's leaves, in the primal and the dual form, with each LP
//! backend of the build.

use criterion::{criterion_group, criterion_main, Criterion};
use rc_cover::{LpForm, RuxParams};
use rc_lp::{LpSolver, MinilpSolver};
use rc_tree::RandomForestParams;
use rulecover_core::{generate, Fit};

fn bench(c: &mut Criterion) {
    let data = generate::twonorm(1000, 7);
    let rf = RandomForestParams::classifier()
        .n_estimators(50)
        .max_depth(3)
        .seed(1)
        .fit(&data)
        .unwrap();
    #[allow(unused_mut)]
    let mut solvers: Vec<(&str, Box<dyn LpSolver>)> =
        vec![("minilp", Box::new(MinilpSolver::new()))];
    #[cfg(feature = "cbc")]
    solvers.push(("cbc", Box::new(rc_lp::CbcSolver::new())));
    let mut g = c.benchmark_group("rux");
    g.sample_size(10);
    for (name, solver) in &solvers {
        for form in [LpForm::Dual, LpForm::Primal] {
            g.bench_function(format!("rf50x3_twonorm1000_{name}_{form:?}"), |b| {
                b.iter(|| {
                    RuxParams::for_forest()
                        .form(form)
                        .select_with(&rf, &data, None, solver.as_ref())
                        .unwrap()
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
