//! One training epoch of NRE (and of the MLP baseline) on magic (19,020
//! rows, 10 features): the acceptance target is < 0.5 s at depth 6.
//!
//! `cargo bench -p rc-nre --bench epoch`. The data come from
//! `$RC_DATA_DIR` or `../shared/datasets`; without them a generated
//! twonorm of the same size stands in (and the bench says so).

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::DMatrix;

use rc_nre::{train, Mlp, NreParams, TrainParams, TrainSet};
use rulecover_core::shared::SharedData;
use rulecover_core::Dataset;

fn magic() -> Dataset {
    let candidates: Vec<PathBuf> = std::env::var_os("RC_DATA_DIR")
        .map(PathBuf::from)
        .into_iter()
        .chain(["../../../shared/datasets", "../shared/datasets"].map(PathBuf::from))
        .collect();
    for c in candidates {
        if c.join("manifest.json").is_file() {
            if let Ok(d) = SharedData::open(&c).and_then(|s| s.load("magic")) {
                return d;
            }
        }
    }
    eprintln!("magic not found: using a generated twonorm with 19,020 rows instead");
    rulecover_core::generate::twonorm(19_020, 1)
}

fn labels(data: &Dataset) -> Vec<f64> {
    (0..data.n_rows())
        .map(|i| if data.label(i) == 1 { 1.0 } else { -1.0 })
        .collect()
}

fn one_epoch() -> TrainParams {
    TrainParams::default()
        .max_epochs(1)
        .validation_fraction(0.0)
}

fn bench_epochs(c: &mut Criterion) {
    let data = magic();
    let y = labels(&data);
    let mut group = c.benchmark_group("epoch_magic");
    group.sample_size(10);
    for (name, depth, deep) in [
        ("nre_d6", 6, false),
        ("nre_d10", 10, false),
        ("nre_deep_d6", 6, true),
    ] {
        let model = NreParams::default()
            .max_depth(depth)
            .deep(deep)
            .initialize(&data)
            .expect("initialise");
        let x: DMatrix<f64> = model.network_inputs(&data).expect("inputs");
        eprintln!(
            "{name}: {} rules, {} hidden units, {} inputs, {} parameters",
            model.network().n_rules(),
            model.network().n_units(),
            model.network().n_inputs(),
            model.network().n_params()
        );
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut net = model.network().clone();
                train(
                    &mut net,
                    TrainSet::new(&x, &y),
                    None,
                    &one_epoch(),
                    1,
                    &mut |_, _| {},
                )
                .expect("train")
            })
        });
    }
    let all: Vec<usize> = (0..data.n_features()).collect();
    let std = rc_nre::Standardizer::fit(&data, rc_nre::ConstantFeatures::Reject).expect("std");
    let x = std.transform(&data, &all).expect("x");
    for h in [256, 1024] {
        group.bench_function(format!("mlp_h{h}"), |b| {
            b.iter(|| {
                let mut net = Mlp::new(data.n_features(), h, 1);
                train(
                    &mut net,
                    TrainSet::new(&x, &y),
                    None,
                    &one_epoch(),
                    1,
                    &mut |_, _| {},
                )
                .expect("train")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_epochs);
criterion_main!(benches);
