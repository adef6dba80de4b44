//! [`GlrmModel`] (GLRM and RuleFit) as a scoring program
//! ([`rulecover_core::scoring`]).

use rulecover_core::scoring::{Cmp, Export, ExportError, Expr, Output, ProgramBuilder, Test};

use crate::glm::Loss;
use crate::literal::{Conjunction, Literal, LiteralOp};
use crate::model::{GlrmModel, LinearTerm, Term};

/// A literal on the values `x` of the encoded features, as
/// [`Literal::holds`] reads it.
pub fn literal_test(literal: &Literal, x: &[Expr]) -> Test {
    let v = x[literal.feature].clone();
    let t = Expr::Const(literal.value);
    match literal.op {
        LiteralOp::Le => Test::cmp(Cmp::Le, v, t),
        LiteralOp::Gt => Test::cmp(Cmp::Gt, v, t),
        LiteralOp::Eq => Test::cmp(Cmp::Eq, v, t),
        LiteralOp::Ne => Test::cmp(Cmp::Ne, v, t),
        LiteralOp::Missing => Test::Missing(Box::new(v)),
        LiteralOp::NotMissing => Test::Not(Box::new(Test::Missing(Box::new(v)))),
    }
}

/// A conjunction on the values `x`, as [`Conjunction::covers_row`] reads
/// it (the empty conjunction always holds).
pub fn conjunction_test(conjunction: &Conjunction, x: &[Expr]) -> Test {
    Test::And(
        conjunction
            .literals
            .iter()
            .map(|l| literal_test(l, x))
            .collect(),
    )
}

/// [`LinearTerm::value`] of the value `x`: 0 when missing, else
/// `(clamp(x, lower, upper) − mean) · scale` (infinite bounds left out).
fn linear_value(term: &LinearTerm, x: &Expr) -> Expr {
    let mut clamped = x.clone();
    if term.upper < f64::INFINITY {
        clamped = Expr::when(
            Test::cmp(Cmp::Gt, x.clone(), Expr::Const(term.upper)),
            Expr::Const(term.upper),
            clamped,
        );
    }
    if term.lower > f64::NEG_INFINITY {
        clamped = Expr::when(
            Test::cmp(Cmp::Lt, x.clone(), Expr::Const(term.lower)),
            Expr::Const(term.lower),
            clamped,
        );
    }
    Expr::when(
        Test::Missing(Box::new(x.clone())),
        Expr::Const(0.0),
        (clamped - Expr::Const(term.mean)) * Expr::Const(term.scale),
    )
}

/// The logistic function as the crate computes it (`1 / (1 + e^{−z})`
/// for `z >= 0`, `e^z / (1 + e^z)` below), so `e^·` never overflows.
pub fn sigmoid(z: Expr) -> Expr {
    let one = || Expr::Const(1.0);
    Expr::when(
        Test::cmp(Cmp::Ge, z.clone(), Expr::Const(0.0)),
        one() / (one() + (Expr::Const(-1.0) * z.clone()).exp()),
        z.clone().exp() / (one() + z.exp()),
    )
}

impl Export for GlrmModel {
    /// `η = intercept + Σ coef · term` in term order, a rule adding its
    /// coefficient where it holds and a linear term `coef ·`
    /// [`LinearTerm::value`]; then `[1 − p, p]` with `p` the logistic
    /// function of `η`, or `target_shift + target_scale · η`.
    ///
    /// A missing value is read as the literals read it
    /// ([`crate::UnseenMissing::AsLiterals`]) in every column: where the
    /// model's policy is [`crate::UnseenMissing::Error`] and the column
    /// had no missing value at fit, `predict` fails instead, and so do
    /// infinite values; the program gives a number for those rows.
    fn export(&self, program: &mut ProgramBuilder) -> Result<Output, ExportError> {
        let x = program.encoded_features(&self.encoder)?;
        if x.len() != self.features.len() {
            return Err(ExportError::Schema(format!(
                "the model's terms read {} encoded features but its encoder gives {}",
                self.features.len(),
                x.len()
            )));
        }
        let mut eta = Vec::with_capacity(self.terms.len() + 1);
        eta.push(Expr::Const(self.intercept));
        for t in &self.terms {
            let read = match &t.term {
                Term::Rule(c) => c.literals.iter().map(|l| l.feature).max(),
                Term::Linear(l) => Some(l.feature),
            };
            if read.is_some_and(|j| j >= x.len()) {
                return Err(ExportError::Schema(format!(
                    "a term reads feature {} of {}",
                    read.unwrap_or(0),
                    x.len()
                )));
            }
            eta.push(match &t.term {
                // coef · 1 is coef; coef · 0 adds a zero.
                Term::Rule(c) => Expr::when(
                    conjunction_test(c, &x),
                    Expr::Const(t.coef),
                    Expr::Const(0.0),
                ),
                Term::Linear(l) => Expr::Const(t.coef) * linear_value(l, &x[l.feature]),
            });
        }
        let eta = program.bind(Expr::sum(eta));
        Ok(match self.loss {
            Loss::Logistic => {
                let p = program.bind(sigmoid(eta));
                Output::Classes(vec![Expr::Const(1.0) - p.clone(), p])
            }
            Loss::Squared => Output::Value(Expr::sum([
                Expr::Const(self.target_shift),
                Expr::Const(self.target_scale) * eta,
            ])),
        })
    }
}
