//! [`NreModel`] and [`MlpModel`] as scoring programs
//! ([`rulecover_core::scoring`]): the networks' arithmetic over the
//! standardised encoded features, ReLU and min-pooling as `if`s.

use rulecover_core::scoring::{Cmp, Export, ExportError, Expr, Output, ProgramBuilder, Test};
use rulecover_core::Fitted;

use crate::data::Standardizer;
use crate::loss::Loss;
use crate::mlp::MlpModel;
use crate::model::NreModel;
use crate::network::Network;

/// `(x_c − mean_j) / scale_j` of every encoded feature `j = columns[c]`,
/// bound once each.
fn standardized(
    program: &mut ProgramBuilder,
    standardizer: &Standardizer,
    encoded: &[Expr],
    columns: &[usize],
) -> Result<Vec<Expr>, ExportError> {
    if standardizer.n_features() != encoded.len() {
        return Err(ExportError::Schema(format!(
            "the model standardises {} encoded features but its encoder gives {}",
            standardizer.n_features(),
            encoded.len()
        )));
    }
    let mut out = Vec::with_capacity(columns.len());
    for &j in columns {
        let (Some(x), Some(&m), Some(&s)) = (
            encoded.get(j),
            standardizer.mean().get(j),
            standardizer.scale().get(j),
        ) else {
            return Err(ExportError::Schema(format!(
                "the network reads encoded feature {j} of {}",
                encoded.len()
            )));
        };
        if s == 0.0 || !s.is_finite() {
            return Err(ExportError::Unsupported(format!(
                "feature {j} has the standardisation scale {s}"
            )));
        }
        out.push(program.bind((x.clone() - Expr::Const(m)) / Expr::Const(s)));
    }
    Ok(out)
}

/// `Σ_i x_i · w_i + bias`, left to right (a matrix product's column plus
/// its bias).
fn affine(x: &[Expr], w: &[f64], bias: f64) -> Expr {
    let mut terms: Vec<Expr> = x
        .iter()
        .zip(w)
        .map(|(x, &w)| x.clone() * Expr::Const(w))
        .collect();
    terms.push(Expr::Const(bias));
    Expr::Sum(terms)
}

/// [`Loss::proba`] of the score `f`: the logistic function (in the form
/// whose `e^·` never overflows, as the crate computes it) or
/// `clamp((1 + f) / 2, 0, 1)`.
fn proba(loss: Loss, f: Expr) -> Expr {
    let one = || Expr::Const(1.0);
    match loss {
        Loss::Logistic => Expr::when(
            Test::cmp(Cmp::Ge, f.clone(), Expr::Const(0.0)),
            one() / (one() + (Expr::Const(-1.0) * f.clone()).exp()),
            f.clone().exp() / (one() + f.exp()),
        ),
        Loss::Hinge | Loss::Squared => {
            let h = (one() + f) / Expr::Const(2.0);
            Expr::when(
                Test::cmp(Cmp::Lt, h.clone(), Expr::Const(0.0)),
                Expr::Const(0.0),
                Expr::when(Test::cmp(Cmp::Gt, h.clone(), one()), one(), h),
            )
        }
    }
}

/// The two class probabilities `[1 − p, p]`.
fn two_classes(p: Expr) -> Output {
    Output::Classes(vec![Expr::Const(1.0) - p.clone(), p])
}

impl Export for NreModel {
    /// The network's forward pass on the standardised encoded features it
    /// reads: first-layer units `Σ w·x + a`, (deep rules) their ReLUs
    /// through each rule's second layer, each rule's support the minimum
    /// of its units' ReLUs (1 for a rule without units), the score `Σ c_k
    /// s_k` plus the offsets `d_k` of the rules whose support is positive;
    /// then [`NreModel::predict_positive`]: the loss's link of the score
    /// kept on the side of ½ its sign gives, or the training prior for a
    /// row no rule covers.
    ///
    /// `predict` refuses missing and infinite numeric values; the program
    /// computes with them (a `NaN` unit is inactive).
    fn export(&self, program: &mut ProgramBuilder) -> Result<Output, ExportError> {
        let encoded = program.encoded_features(self.encoder())?;
        let net = self.network();
        let x = standardized(program, self.standardizer(), &encoded, self.inputs())?;
        if x.len() != net.n_inputs() {
            return Err(ExportError::Schema(format!(
                "the network has {} inputs but the model lists {}",
                net.n_inputs(),
                x.len()
            )));
        }
        let z1: Vec<Expr> = (0..net.n_units())
            .map(|j| program.bind(affine(&x, net.unit_weights(j), net.unit_bias(j))))
            .collect();
        let last = if net.is_deep() {
            let h1: Vec<Expr> = z1.iter().map(|z| program.bind(z.clone().relu())).collect();
            let mut z2 = z1.clone();
            for k in 0..net.n_rules() {
                let r = net.rule_units(k);
                let d = r.len();
                let Some((v, b)) = net.second_layer(k) else {
                    return Err(ExportError::Unsupported(
                        "a deep network without a second layer".into(),
                    ));
                };
                for j in 0..d {
                    z2[r.start + j] =
                        program.bind(affine(&h1[r.clone()], &v[j * d..(j + 1) * d], b[j]));
                }
            }
            z2
        } else {
            z1
        };
        let mut supports = Vec::with_capacity(net.n_rules());
        for k in 0..net.n_rules() {
            let r = net.rule_units(k);
            if r.is_empty() {
                supports.push(Expr::Const(1.0));
                continue;
            }
            let mut s = program.bind(last[r.start].clone().relu());
            for unit in &last[r.start + 1..r.end] {
                let v = program.bind(unit.clone().relu());
                s = program.bind(Expr::when(Test::cmp(Cmp::Lt, v.clone(), s.clone()), v, s));
            }
            supports.push(s);
        }
        let positive = |s: &Expr| Test::cmp(Cmp::Gt, s.clone(), Expr::Const(0.0));
        let mut score: Vec<Expr> = net
            .output_weights()
            .iter()
            .zip(&supports)
            .filter(|(&c, _)| c != 0.0)
            .map(|(&c, s)| Expr::Const(c) * s.clone())
            .collect();
        if net.has_offsets() {
            for (k, s) in supports.iter().enumerate() {
                let d = net.rule_offset(k);
                if d != 0.0 {
                    score.push(Expr::when(positive(s), Expr::Const(d), Expr::Const(0.0)));
                }
            }
        }
        let f = program.bind(Expr::Sum(score));
        let p = program.bind(proba(self.loss(), f.clone()));
        let zero = || Expr::Const(0.0);
        let half = || Expr::Const(0.5);
        let on_side = Expr::when(
            Test::And(vec![
                Test::cmp(Cmp::Gt, f.clone(), zero()),
                Test::cmp(Cmp::Le, p.clone(), half()),
            ]),
            Expr::Const(0.5 + f64::EPSILON / 2.0),
            Expr::when(
                Test::And(vec![
                    Test::cmp(Cmp::Lt, f, zero()),
                    Test::cmp(Cmp::Ge, p.clone(), half()),
                ]),
                Expr::Const(0.5 - f64::EPSILON / 4.0),
                p,
            ),
        );
        let covered = Test::Or(supports.iter().map(positive).collect());
        let p1 = program.bind(Expr::when(covered, on_side, Expr::Const(self.prior())));
        Ok(two_classes(p1))
    }
}

impl Export for MlpModel {
    /// `f = b₂ + Σ_j w₂ⱼ · relu(Σ_i W₁ⱼᵢ z_i + b₁ⱼ)` over the standardised
    /// encoded features `z`, then `[1 − p, p]` with `p` the loss's link of
    /// `f` ([`MlpModel::predict_positive`]).
    ///
    /// `predict` refuses missing and infinite numeric values; the program
    /// computes with them.
    fn export(&self, program: &mut ProgramBuilder) -> Result<Output, ExportError> {
        let encoded = program.encoded_features(self.encoder())?;
        let net = self.network();
        let all: Vec<usize> = (0..encoded.len()).collect();
        let x = standardized(program, self.standardizer(), &encoded, &all)?;
        if x.len() != net.n_inputs() {
            return Err(ExportError::Schema(format!(
                "the network has {} inputs but the encoder gives {}",
                net.n_inputs(),
                x.len()
            )));
        }
        let mut score = vec![Expr::Const(net.b2())];
        for (j, (&w, &b)) in net.w2().iter().zip(net.b1()).enumerate() {
            let z = program.bind(affine(&x, net.unit_weights(j), b));
            let a = program.bind(z.relu());
            score.push(Expr::Const(w) * a);
        }
        let f = program.bind(Expr::Sum(score));
        let p = program.bind(proba(self.loss(), f));
        Ok(two_classes(p))
    }
}
