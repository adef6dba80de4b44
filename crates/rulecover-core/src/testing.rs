//! The contract every learner's tests check (feature `testing`): integer
//! sample weights fit the model of duplicated rows, weights of 0 drop their
//! rows, unit weights change nothing, fitted models read new data by column
//! name, and models survive a serde round trip.
//!
//! The learner crates enable the feature for their tests only
//! (`rulecover-core = { workspace = true, features = ["testing"] }` under
//! `[dev-dependencies]`). Each assertion panics with a message naming the
//! case; the fitting ones return both models for learner-specific checks.
//! They fit through a [`Fitter`]: any [`Fit`] parameters (`&params`), or a
//! closure ([`fit_fn`]) for fits that take more than data and weights (a
//! given ensemble, an explicit LP solver).
//!
//! ```
//! use rulecover_core::testing::{self, Agreement};
//! use rulecover_core::{generate, ZeroR};
//!
//! let data = generate::twonorm(60, 1);
//! let w: Vec<f64> = (0..60).map(|i| (i % 4) as f64).collect();
//! let what = "ZeroR";
//! testing::assert_integer_weights_equal_duplicated_rows(&ZeroR, &data, &w, &data, Agreement::Relative(1e-12), what);
//! testing::assert_zero_weights_drop_rows(&ZeroR, &data, &w, &data, Agreement::Relative(1e-12), what);
//! let (model, _) = testing::assert_unit_weights_equal_unweighted(&ZeroR, &data, &data, Agreement::Exact, what);
//! testing::assert_columns_read_by_name(&model, &data, what);
//! testing::assert_serde_round_trip(&model, &data, what);
//! ```

use std::fmt::{Debug, Display};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::dataset::{Dataset, Feature, FeatureKind, Target};
use crate::predictions::Predictions;
use crate::traits::{Fit, Predict};

/// How closely two models' predictions must agree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Agreement {
    /// Equal predictions: the same probabilities or values, bit for bit.
    Exact,
    /// The same kind and number of predictions, each probability or value
    /// within `rel · (1 + max(|a|, |b|))` of the other, and the same
    /// predicted classes.
    Relative(f64),
    /// The same predicted classes (the probabilities may differ, e.g. for
    /// a randomised learner whose random draws see rows and copies
    /// differently).
    Labels,
}

/// Something that fits a model to data with optional sample weights: the
/// learner under test.
pub trait Fitter {
    /// The fitted model.
    type Model;

    /// Fits to `data`, with one weight per row when given; the error as a
    /// message.
    fn fit_rows(&mut self, data: &Dataset, weights: Option<&[f64]>) -> Result<Self::Model, String>;
}

/// Parameters fit through [`Fit::fit_with_weights`], the one fit path.
impl<P: Fit + ?Sized> Fitter for &P {
    type Model = P::Model;

    fn fit_rows(&mut self, data: &Dataset, weights: Option<&[f64]>) -> Result<P::Model, String> {
        self.fit_with_weights(data, weights)
            .map_err(|e| e.to_string())
    }
}

/// A closure as a [`Fitter`] (built by [`fit_fn`]).
pub struct FitFn<F>(F);

/// A [`Fitter`] from a closure taking the data and the optional weights,
/// e.g. selecting from a given ensemble:
/// `fit_fn(|d, w| match w { Some(w) => p.fit_from_weighted(&rf, d, w), None => p.fit_from(&rf, d) })`.
pub fn fit_fn<F, M, E>(f: F) -> FitFn<F>
where
    F: FnMut(&Dataset, Option<&[f64]>) -> Result<M, E>,
    E: Display,
{
    FitFn(f)
}

impl<F, M, E> Fitter for FitFn<F>
where
    F: FnMut(&Dataset, Option<&[f64]>) -> Result<M, E>,
    E: Display,
{
    type Model = M;

    fn fit_rows(&mut self, data: &Dataset, weights: Option<&[f64]>) -> Result<M, String> {
        (self.0)(data, weights).map_err(|e| e.to_string())
    }
}

/// `data` with row `i` repeated `weights[i]` times, rows in order.
///
/// # Panics
/// When there is not one weight per row or a weight is not a
/// non-negative integer.
pub fn duplicated_rows(data: &Dataset, weights: &[f64]) -> Dataset {
    assert_eq!(weights.len(), data.n_rows(), "one weight per row");
    let rows: Vec<usize> = weights
        .iter()
        .enumerate()
        .flat_map(|(i, &w)| {
            assert!(
                w >= 0.0 && w.fract() == 0.0,
                "weight {w} of row {i} is not a non-negative integer"
            );
            std::iter::repeat_n(i, w as usize)
        })
        .collect();
    data.subset(&rows).expect("rows of the data")
}

/// Panics unless `a` and `b` agree as `agreement` asks; `what` names the
/// case in the message.
pub fn assert_predictions_agree(
    a: &Predictions,
    b: &Predictions,
    agreement: Agreement,
    what: &str,
) {
    assert_eq!(a.len(), b.len(), "{what}: numbers of predictions");
    match agreement {
        Agreement::Exact => {
            let (p, q) = numbers(a, b, what);
            let same = p.iter().zip(q).all(|(x, y)| x.to_bits() == y.to_bits());
            assert!(same, "{what}: predictions differ:\n{a:?}\nvs\n{b:?}");
        }
        Agreement::Relative(rel) => {
            assert_eq!(a.labels(), b.labels(), "{what}: predicted classes");
            let (p, q) = numbers(a, b, what);
            for (i, (x, y)) in p.iter().zip(q).enumerate() {
                let scale = 1.0 + x.abs().max(y.abs());
                assert!(
                    (x - y).abs() <= rel * scale,
                    "{what}: prediction {i}: {x} vs {y} (relative tolerance {rel})"
                );
            }
        }
        Agreement::Labels => {
            let labels = a.labels();
            assert!(labels.is_some(), "{what}: label agreement needs classes");
            assert_eq!(labels, b.labels(), "{what}: predicted classes");
        }
    }
}

/// Panics unless the scoring program `program` predicts `data` as
/// `model` does: the same labels, every probability (or value) within
/// `1e-12` relative ([`crate::scoring::Export`]'s contract).
pub fn assert_program_predicts<M: Predict>(
    program: &crate::scoring::Program,
    model: &M,
    data: &Dataset,
) {
    let want = predict(model, data, "the model");
    let got = program.eval(data);
    assert_predictions_agree(
        &want,
        &got,
        Agreement::Relative(1e-12),
        "the exported program",
    );
}

/// The probabilities or values of two predictions of the same kind.
fn numbers<'a>(a: &'a Predictions, b: &'a Predictions, what: &str) -> (&'a [f64], &'a [f64]) {
    match (a, b) {
        (
            Predictions::Classes {
                n_classes: k,
                proba: p,
            },
            Predictions::Classes {
                n_classes: l,
                proba: q,
            },
        ) => {
            assert_eq!(k, l, "{what}: numbers of classes");
            (p, q)
        }
        (Predictions::Values(p), Predictions::Values(q)) => (p, q),
        _ => panic!("{what}: one model predicts classes, the other values"),
    }
}

/// Predictions of `model` on `data`, or a panic naming the case.
fn predict<M: Predict>(model: &M, data: &Dataset, what: &str) -> Predictions {
    model
        .predict(data)
        .unwrap_or_else(|e| panic!("{what}: predict failed: {e}"))
}

/// Fits with `fitter`, or panics naming the case.
fn fit<L: Fitter>(fitter: &mut L, data: &Dataset, weights: Option<&[f64]>, what: &str) -> L::Model {
    fitter
        .fit_rows(data, weights)
        .unwrap_or_else(|e| panic!("{what}: fit failed: {e}"))
}

/// Fits `fitter` to `data` with the integer `weights` and, unweighted, to
/// [`duplicated_rows`]`(data, weights)`, and asserts that the two models
/// predict `eval` as `agreement` asks. Returns (weighted, duplicated).
///
/// # Panics
/// When a fit fails, the predictions disagree, or every weight is 1 (the
/// case would test nothing).
pub fn assert_integer_weights_equal_duplicated_rows<L>(
    mut fitter: L,
    data: &Dataset,
    weights: &[f64],
    eval: &Dataset,
    agreement: Agreement,
    what: &str,
) -> (L::Model, L::Model)
where
    L: Fitter,
    L::Model: Predict,
{
    assert!(
        weights.iter().any(|&w| w != 1.0),
        "{what}: unit weights duplicate nothing"
    );
    let copies = duplicated_rows(data, weights);
    let weighted = fit(&mut fitter, data, Some(weights), what);
    let duplicated = fit(&mut fitter, &copies, None, what);
    assert_predictions_agree(
        &predict(&weighted, eval, what),
        &predict(&duplicated, eval, what),
        agreement,
        &format!("{what}: integer weights vs duplicated rows"),
    );
    (weighted, duplicated)
}

/// Fits `fitter` to `data` with `weights`, some of them 0, and to the rows
/// of positive weight alone (unweighted when their weights are all 1,
/// else with their weights), and asserts that the two models predict
/// `eval` as `agreement` asks. Returns (weighted, without the rows).
///
/// # Panics
/// When a fit fails, the predictions disagree, or no weight is 0.
pub fn assert_zero_weights_drop_rows<L>(
    mut fitter: L,
    data: &Dataset,
    weights: &[f64],
    eval: &Dataset,
    agreement: Agreement,
    what: &str,
) -> (L::Model, L::Model)
where
    L: Fitter,
    L::Model: Predict,
{
    let kept: Vec<usize> = (0..weights.len()).filter(|&i| weights[i] > 0.0).collect();
    assert!(kept.len() < weights.len(), "{what}: no weight is 0");
    let rest = data.subset(&kept).expect("rows of the data");
    let kept_weights: Vec<f64> = kept.iter().map(|&i| weights[i]).collect();
    let weighted = fit(&mut fitter, data, Some(weights), what);
    let without = if kept_weights.iter().all(|&w| w == 1.0) {
        fit(&mut fitter, &rest, None, what)
    } else {
        fit(&mut fitter, &rest, Some(&kept_weights), what)
    };
    assert_predictions_agree(
        &predict(&weighted, eval, what),
        &predict(&without, eval, what),
        agreement,
        &format!("{what}: zero weights vs rows dropped"),
    );
    (weighted, without)
}

/// Fits `fitter` to `data` without weights and with unit weights, and
/// asserts that the two models predict `eval` as `agreement` asks.
/// Returns (unweighted, unit weights).
///
/// # Panics
/// When a fit fails or the predictions disagree.
pub fn assert_unit_weights_equal_unweighted<L>(
    mut fitter: L,
    data: &Dataset,
    eval: &Dataset,
    agreement: Agreement,
    what: &str,
) -> (L::Model, L::Model)
where
    L: Fitter,
    L::Model: Predict,
{
    let ones = vec![1.0; data.n_rows()];
    let plain = fit(&mut fitter, data, None, what);
    let unit = fit(&mut fitter, data, Some(&ones), what);
    assert_predictions_agree(
        &predict(&plain, eval, what),
        &predict(&unit, eval, what),
        agreement,
        &format!("{what}: unit weights vs no weights"),
    );
    (plain, unit)
}

/// `data` with its columns in reverse order and each categorical
/// column's levels in reverse order (codes recoded to match): the same
/// rows, as a model reading columns by name must see them.
pub fn reordered_columns(data: &Dataset) -> Dataset {
    let mut features = Vec::with_capacity(data.n_features());
    let mut columns = Vec::with_capacity(data.n_features());
    for (j, feature) in data.features().iter().enumerate().rev() {
        let column = data.column(j).into_owned();
        match &feature.kind {
            FeatureKind::Categorical { levels } => {
                let last = levels.len() as f64 - 1.0;
                let reversed: Vec<String> = levels.iter().rev().cloned().collect();
                features.push(Feature::categorical(feature.name.clone(), reversed));
                columns.push(
                    column
                        .iter()
                        .map(|&c| if c.is_nan() { c } else { last - c })
                        .collect(),
                );
            }
            _ => {
                features.push(feature.clone());
                columns.push(column);
            }
        }
    }
    Dataset::new(
        format!("{} (reordered)", data.name()),
        features,
        columns,
        data.target_view(),
    )
    .expect("the same rows")
}

/// Asserts that `model` predicts [`reordered_columns`]`(data)` exactly as
/// `data`, and that data without `data`'s first column is an error that
/// names that column (in quotes, as rulecover-core's errors do).
///
/// # Panics
/// When `data` has fewer than two columns (reordering would test
/// nothing) or an assertion fails.
pub fn assert_columns_read_by_name<M: Predict>(model: &M, data: &Dataset, what: &str) {
    assert!(
        data.n_features() >= 2,
        "{what}: reordering needs two columns"
    );
    assert_predictions_agree(
        &predict(model, data, what),
        &predict(model, &reordered_columns(data), what),
        Agreement::Exact,
        &format!("{what}: columns reordered"),
    );
    let missing = &data.features()[0].name;
    let rest: Vec<usize> = (1..data.n_features()).collect();
    let without = Dataset::new(
        "without its first column",
        rest.iter().map(|&j| data.features()[j].clone()).collect(),
        rest.iter().map(|&j| data.column(j).into_owned()).collect(),
        data.target_view(),
    )
    .expect("the same rows");
    match model.predict(&without) {
        Ok(_) => panic!("{what}: predicted without column '{missing}'"),
        Err(e) => assert!(
            e.to_string().contains(&format!("'{missing}'")),
            "{what}: the error does not name column '{missing}': {e}"
        ),
    }
}

/// Asserts that `model` survives a JSON round trip: the model read back
/// equals it and predicts `eval` bit for bit as it does. Returns the model
/// read back.
///
/// # Panics
/// When (de)serialization fails or an assertion fails.
pub fn assert_serde_round_trip<M>(model: &M, eval: &Dataset, what: &str) -> M
where
    M: Predict + Serialize + DeserializeOwned + PartialEq + Debug,
{
    let json = serde_json::to_string(model)
        .unwrap_or_else(|e| panic!("{what}: serialization failed: {e}"));
    let back: M = serde_json::from_str(&json)
        .unwrap_or_else(|e| panic!("{what}: deserialization failed: {e}"));
    assert_eq!(&back, model, "{what}: the model read back differs");
    assert_predictions_agree(
        &predict(model, eval, what),
        &predict(&back, eval, what),
        Agreement::Exact,
        &format!("{what}: predictions after a serde round trip"),
    );
    back
}

/// `n` rows of a numeric column `x` (`i % 10`) and a categorical column
/// `color` (blue, red, green in runs of 10 rows), class `yes` when the
/// color is red or `x > 5`, else `no`: data whose models must read a
/// categorical column by name and level.
pub fn red_or_large(n: usize) -> Dataset {
    let x: Vec<f64> = (0..n).map(|i| (i % 10) as f64).collect();
    let color: Vec<f64> = (0..n).map(|i| ((i / 10) % 3) as f64).collect();
    let labels = (0..n)
        .map(|i| usize::from(color[i] == 1.0 || x[i] > 5.0))
        .collect();
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    Dataset::new(
        "red or large",
        vec![
            Feature::numeric("x"),
            Feature::categorical("color", names(&["blue", "red", "green"])),
        ],
        vec![x, color],
        Target::Classes {
            labels,
            names: names(&["no", "yes"]),
        },
    )
    .expect("consistent columns")
}

/// The target of [`export_data`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportTarget {
    /// Two classes, `no` and `yes`.
    Binary,
    /// Three classes, `a`, `b`, `c`.
    Multi,
    /// A real value.
    Real,
}

/// The levels of [`export_data`]'s `color`.
const EXPORT_LEVELS: [&str; 3] = ["red", "green", "blue"];

/// The export tests' data (`rulecover_core::scoring`): `n` rows: `x0`
/// uniform, `x1` on a grid of tenths (ties), `color`
/// categorical, `x2` over several orders of magnitude; the target depends
/// on all of them, with noise. `missing_color` of the rows have no color,
/// `missing_x2` no `x2`.
pub fn export_data(
    n: usize,
    kind: ExportTarget,
    missing_color: f64,
    missing_x2: f64,
    seed: u64,
) -> Dataset {
    let mut rng = crate::rng::Rng::new(seed);
    let mut cols: Vec<Vec<f64>> = (0..4).map(|_| Vec::with_capacity(n)).collect();
    let mut labels = Vec::with_capacity(n);
    let mut values = Vec::with_capacity(n);
    for _ in 0..n {
        let x0 = rng.next_f64();
        let x1 = (rng.next_f64() * 10.0).round() / 10.0;
        let color = (rng.next_f64() * 3.0).floor().min(2.0);
        let x2 = (rng.next_f64() * 12.0 - 6.0).exp();
        let score = x0 + 0.5 * x1 - 0.3 * color + 0.2 * x2.ln() + 0.3 * rng.next_f64();
        labels.push(match kind {
            ExportTarget::Binary => usize::from(score > 0.9),
            _ => (score * 1.3).clamp(0.0, 2.0) as usize,
        });
        values.push(3.0 * score + x2.min(50.0));
        let color = if rng.next_f64() < missing_color {
            f64::NAN
        } else {
            color
        };
        let x2 = if rng.next_f64() < missing_x2 {
            f64::NAN
        } else {
            x2
        };
        for (c, v) in cols.iter_mut().zip([x0, x1, color, x2]) {
            c.push(v);
        }
    }
    let features = vec![
        Feature::numeric("x0"),
        Feature::numeric("x1"),
        Feature::categorical(
            "color",
            EXPORT_LEVELS.iter().map(|s| s.to_string()).collect(),
        ),
        Feature::numeric("x2"),
    ];
    let target = match kind {
        ExportTarget::Binary => Target::Classes {
            labels,
            names: vec!["no".into(), "yes".into()],
        },
        ExportTarget::Multi => Target::Classes {
            labels,
            names: vec!["a".into(), "b".into(), "c".into()],
        },
        ExportTarget::Real => Target::Real(values),
    };
    Dataset::new("export", features, cols, target).expect("generated columns")
}

/// `data` split for a held-out check: every third row (0, 3, 6, …) to the
/// test part, the others to training, in order.
///
/// # Panics
/// Never for a well-formed data set (the subsets are in range).
pub fn split_thirds(data: &Dataset) -> (Dataset, Dataset) {
    let n = data.n_rows();
    let train: Vec<usize> = (0..n).filter(|i| i % 3 != 0).collect();
    let test: Vec<usize> = (0..n).filter(|i| i % 3 == 0).collect();
    (
        data.subset(&train).expect("rows in range"),
        data.subset(&test).expect("rows in range"),
    )
}
