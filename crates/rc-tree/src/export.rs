//! Scoring programs ([`Export`]) of the trees and ensembles: each model's
//! `predict` written as arithmetic over the raw columns of its training
//! schema, from the same numbers in the same order.
//!
//! A tree is a nest of `if x <= T` tests on the encoded features, with the
//! float64 rule thresholds `T` that prediction compares raw values with.
//! A tree with one output per leaf (a regression tree, a boosting stage)
//! is written with its leaf constants in place; a tree with several (class
//! probabilities) binds the position of the row's leaf once and looks each
//! output up from it, runs of equal neighbouring leaves merged.
//!
//! Prediction rejects missing values; a program sends a missing numeric
//! value right at every split (`NaN <= T` is false) and reads a missing
//! categorical value as no level, so it gives numbers where `predict`
//! gives an error.

use rulecover_core::metrics::argmax;
use rulecover_core::scoring::{Cmp, Export, ExportError, Expr, Output, ProgramBuilder, Test};
use rulecover_core::{Encoder, Fitted};

use crate::adaboost::PROBA_EPS;
use crate::tree::Tree;
use crate::{AdaBoost, AdaBoostAlgorithm, DecisionTree, GradientBoosting, RandomForest};

/// Below this raw score `1 / (1 + e^-x)` is written as `0`: `e^-x` would
/// overflow past about 709.78, and Rust's value is below `1e-307` there.
const SIGMOID_FLOOR: f64 = -709.0;

/// `1 / (1 + e^-r)` as gradient boosting's `expit` computes it, `0`
/// below [`SIGMOID_FLOOR`] (where `e^-r` could overflow).
pub(crate) fn expit(r: Expr) -> Expr {
    let sigmoid = Expr::Const(1.0) / (Expr::Const(1.0) + (Expr::Const(-1.0) * r.clone()).exp());
    Expr::when(
        Test::cmp(Cmp::Lt, r, Expr::Const(SIGMOID_FLOOR)),
        Expr::Const(0.0),
        sigmoid,
    )
}

/// The encoded features of `encoder` as program values, checked against
/// the number of features the trees split.
fn features(
    program: &mut ProgramBuilder,
    encoder: &Encoder,
    n_features: usize,
) -> Result<Vec<Expr>, ExportError> {
    let features = program.encoded_features(encoder)?;
    if features.len() != n_features {
        return Err(ExportError::Schema(format!(
            "the trees split {n_features} features but the encoder gives {}",
            features.len()
        )));
    }
    Ok(features)
}

/// The value of `tree` at the row, from node `id` down: `leaf(id)` at a
/// leaf, else the left subtree when `x[feature] <= rule_threshold` (false
/// for `NaN`, as [`Tree::apply`] compares), the right one otherwise.
fn route(tree: &Tree, features: &[Expr], id: usize, leaf: &mut impl FnMut(usize) -> Expr) -> Expr {
    match tree.node(id).and_then(|n| n.split) {
        None => leaf(id),
        Some(s) => {
            let test = Test::cmp(
                Cmp::Le,
                features[s.feature].clone(),
                Expr::Const(s.rule_threshold),
            );
            let left = route(tree, features, s.left, leaf);
            let right = route(tree, features, s.right, leaf);
            Expr::when(test, left, right)
        }
    }
}

/// The outputs of `tree` at the row, `values(leaf id)` giving the outputs
/// of each leaf (all of one length): the leaf constants in place for one
/// output, else a lookup on the bound position of the row's leaf.
fn tree_outputs(
    program: &mut ProgramBuilder,
    tree: &Tree,
    features: &[Expr],
    values: impl Fn(usize) -> Vec<f64>,
) -> Vec<Expr> {
    let leaves = tree.leaf_ids();
    let table: Vec<Vec<f64>> = leaves.iter().map(|&id| values(id)).collect();
    let width = table.first().map_or(0, Vec::len);
    if leaves.len() == 1 {
        return table[0].iter().map(|&v| Expr::Const(v)).collect();
    }
    let position = |id: usize| leaves.binary_search(&id).unwrap_or(0);
    if width == 1 {
        return vec![route(tree, features, 0, &mut |id| {
            Expr::Const(table[position(id)][0])
        })];
    }
    let index = route(
        tree,
        features,
        0,
        &mut |id| Expr::Const(position(id) as f64),
    );
    let index = program.bind(index);
    (0..width)
        .map(|c| {
            let column: Vec<f64> = table.iter().map(|row| row[c]).collect();
            lookup(&index, &column)
        })
        .collect()
}

/// `values[index]` for an index in `0..values.len()`: a balanced search
/// over the runs of equal (bit for bit) neighbouring values.
fn lookup(index: &Expr, values: &[f64]) -> Expr {
    let mut runs: Vec<(usize, f64)> = Vec::new();
    for (i, &v) in values.iter().enumerate() {
        if runs.last().is_none_or(|&(_, w)| w.to_bits() != v.to_bits()) {
            runs.push((i, v));
        }
    }
    search(index, &runs)
}

/// The value of the run `index` falls in (`runs` by increasing start).
fn search(index: &Expr, runs: &[(usize, f64)]) -> Expr {
    match runs {
        [] => Expr::Const(0.0),
        [(_, v)] => Expr::Const(*v),
        _ => {
            let mid = runs.len() / 2;
            Expr::when(
                Test::cmp(Cmp::Lt, index.clone(), Expr::Const(runs[mid].0 as f64)),
                search(index, &runs[..mid]),
                search(index, &runs[mid..]),
            )
        }
    }
}

/// A leaf's class probabilities as [`Tree::leaf_proba_into`] gives them.
fn leaf_proba(tree: &Tree, id: usize) -> Vec<f64> {
    let mut p = vec![0.0; tree.n_classes()];
    tree.leaf_proba_into(id, &mut p);
    p
}

/// Divides every term by `norm` when it is positive, as the ensembles'
/// `if norm > 0.0 { v /= norm }` (a constant of the model).
fn divided(values: Vec<Expr>, norm: f64) -> Vec<Expr> {
    if norm > 0.0 {
        values.into_iter().map(|v| v / Expr::Const(norm)).collect()
    } else {
        values
    }
}

/// Column sums of `rows` (each of `width` terms), left to right.
fn column_sums(rows: Vec<Vec<Expr>>, width: usize, first: &[Expr]) -> Vec<Expr> {
    let mut sums: Vec<Vec<Expr>> = (0..width)
        .map(|c| first.get(c).cloned().into_iter().collect())
        .collect();
    for row in rows {
        for (s, e) in sums.iter_mut().zip(row) {
            s.push(e);
        }
    }
    sums.into_iter().map(Expr::Sum).collect()
}

impl Export for DecisionTree {
    /// The leaf's normalised class counts (classification) or value
    /// (regression).
    fn export(&self, program: &mut ProgramBuilder) -> Result<Output, ExportError> {
        let tree = self.tree();
        let x = features(program, self.encoder(), tree.n_features())?;
        if tree.is_classifier() {
            let p = tree_outputs(program, tree, &x, |id| leaf_proba(tree, id));
            Ok(Output::Classes(p))
        } else {
            let mut v = tree_outputs(program, tree, &x, |id| vec![tree.value(id)[0]]);
            Ok(Output::Value(v.remove(0)))
        }
    }
}

impl Export for RandomForest {
    /// The trees' leaf probabilities (or values) summed in tree order,
    /// times `1 / number of trees`.
    fn export(&self, program: &mut ProgramBuilder) -> Result<Output, ExportError> {
        let trees = self.trees();
        let Some(first) = trees.first() else {
            return Err(ExportError::Unsupported("a forest without trees".into()));
        };
        let x = features(program, self.encoder(), first.n_features())?;
        let scale = 1.0 / trees.len() as f64;
        let k = self.n_classes();
        let per_tree: Vec<Vec<Expr>> = trees
            .iter()
            .map(|t| {
                if k > 0 {
                    tree_outputs(program, t, &x, |id| leaf_proba(t, id))
                } else {
                    tree_outputs(program, t, &x, |id| vec![t.value(id)[0]])
                }
            })
            .collect();
        let sums = column_sums(per_tree, k.max(1), &[]);
        let mut out: Vec<Expr> = sums.into_iter().map(|s| s * Expr::Const(scale)).collect();
        if k > 0 {
            Ok(Output::Classes(out))
        } else {
            Ok(Output::Value(out.remove(0)))
        }
    }
}

impl Export for AdaBoost {
    /// SAMME.R: `predict_proba` (the trees' `(K−1)(ln p − mean ln p)`
    /// summed, divided by the weight sum, then `exp(· / (K−1))`
    /// normalised); SAMME: the decision scores (each tree's weight added
    /// to the class it predicts, divided by the weight sum).
    fn export(&self, program: &mut ProgramBuilder) -> Result<Output, ExportError> {
        let trees = self.trees();
        let k = self.n_classes();
        let Some(first) = trees.first() else {
            return Err(ExportError::Unsupported("AdaBoost without trees".into()));
        };
        let x = features(program, self.encoder(), first.n_features())?;
        let kf = k as f64;
        let norm: f64 = self.estimator_weights().iter().sum();
        match self.algorithm() {
            AdaBoostAlgorithm::SammeR => {
                if k == 1 {
                    return Ok(Output::Classes(vec![Expr::Const(1.0)]));
                }
                let per_tree: Vec<Vec<Expr>> = trees
                    .iter()
                    .map(|t| {
                        tree_outputs(program, t, &x, |id| {
                            let lp: Vec<f64> = leaf_proba(t, id)
                                .iter()
                                .map(|v| v.max(PROBA_EPS).ln())
                                .collect();
                            let mean = lp.iter().sum::<f64>() / kf;
                            lp.iter().map(|&l| (kf - 1.0) * (l - mean)).collect()
                        })
                    })
                    .collect();
                let scores = divided(column_sums(per_tree, k, &[]), norm);
                let e: Vec<Expr> = scores
                    .into_iter()
                    .map(|s| program.bind((s / Expr::Const(kf - 1.0)).exp()))
                    .collect();
                let s = program.bind(Expr::sum(e.iter().cloned()));
                let denom = program.bind(Expr::when(
                    Test::cmp(Cmp::Eq, s.clone(), Expr::Const(0.0)),
                    Expr::Const(1.0),
                    s,
                ));
                Ok(Output::Classes(
                    e.into_iter().map(|v| v / denom.clone()).collect(),
                ))
            }
            AdaBoostAlgorithm::Samme => {
                let per_tree: Vec<Vec<Expr>> = trees
                    .iter()
                    .zip(self.estimator_weights())
                    .map(|(t, &alpha)| {
                        tree_outputs(program, t, &x, |id| {
                            let best = argmax(&leaf_proba(t, id));
                            (0..k)
                                .map(|c| if c == best { alpha } else { 0.0 })
                                .collect()
                        })
                    })
                    .collect();
                Ok(Output::Classes(divided(
                    column_sums(per_tree, k, &[]),
                    norm,
                )))
            }
        }
    }
}

impl Export for GradientBoosting {
    /// [`GradientBoosting::export_over`] the features its encoder gives:
    /// the raw scores `init + Σ lr · leaf value` (per class, trees in stage
    /// order), then the sigmoid (binomial), the softmax after subtracting
    /// the largest score (multinomial), or the raw score (regression).
    fn export(&self, program: &mut ProgramBuilder) -> Result<Output, ExportError> {
        let x = features(program, self.encoder(), self.features().len())?;
        self.export_over(program, &x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulecover_core::schema::TargetSchema;
    use rulecover_core::{Feature, Schema};

    /// The program's sigmoid is Rust's `1 / (1 + e^-x)` within 1e-12 for
    /// any score, and never takes `e^` of a number that overflows.
    #[test]
    fn expit_is_finite_and_exact() {
        let schema = Schema {
            features: vec![Feature::numeric("r")],
            target: TargetSchema::Real,
        };
        let program = ProgramBuilder::new(schema)
            .finish(Output::Value(expit(Expr::Input(0))))
            .unwrap();
        for r in [
            -1e308f64, -800.0, -745.5, -709.9, -709.0, -708.9, -40.0, -1.0, -0.0, 0.0, 0.5, 40.0,
            800.0, 1e308,
        ] {
            let want = 1.0 / (1.0 + (-r).exp());
            let got = program.eval_row(&[r])[0];
            assert!(
                got.is_finite() && (got - want).abs() <= 1e-12,
                "{r}: {got} vs {want}"
            );
            if r >= SIGMOID_FLOOR {
                assert_eq!(got.to_bits(), want.to_bits(), "{r}");
                assert!((-r).exp().is_finite());
            }
        }
    }

    /// A lookup gives every position's value, bit for bit.
    #[test]
    fn lookup_reads_every_position() {
        let values = [0.5, 0.5, 0.0, 1.0, 1.0, 1.0, -0.0, 0.25, 0.5];
        let schema = Schema {
            features: vec![Feature::numeric("i")],
            target: TargetSchema::Real,
        };
        let program = ProgramBuilder::new(schema)
            .finish(Output::Value(lookup(&Expr::Input(0), &values)))
            .unwrap();
        for (i, v) in values.iter().enumerate() {
            assert_eq!(program.eval_row(&[i as f64])[0].to_bits(), v.to_bits());
        }
    }
}
