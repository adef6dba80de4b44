//! The checks of a GLRM model and its literals read from a model file
//! ([`rulecover_core::Validate`]).

use rulecover_core::validate::{finite, index, length, InvalidModel, Validity};
use rulecover_core::{Fitted, Validate};

use crate::glm::Loss;
use crate::literal::{Conjunction, Literal, LiteralOp};
use crate::model::{GlrmModel, LinearTerm, Term};

/// Checks a literal against `n_features` raw features: the feature in
/// range and, but for the missing-value tests, a value that is a number.
pub fn check_literal(l: &Literal, n_features: usize) -> Validity {
    index(|| "feature".into(), l.feature, n_features, "features")?;
    if !matches!(l.op, LiteralOp::Missing | LiteralOp::NotMissing) && l.value.is_nan() {
        return Err(InvalidModel::new("value", "NaN where a number is needed"));
    }
    Ok(())
}

fn check_conjunction(c: &Conjunction, n_features: usize) -> Validity {
    for (i, l) in c.literals.iter().enumerate() {
        check_literal(l, n_features).map_err(|e| e.within(&format!("literals[{i}]")))?;
    }
    Ok(())
}

fn check_linear(l: &LinearTerm, n_features: usize) -> Validity {
    index(|| "feature".into(), l.feature, n_features, "features")?;
    finite(|| "mean".into(), l.mean)?;
    finite(|| "scale".into(), l.scale)?;
    // `clamp` needs `lower <= upper`, neither NaN (infinite is no bound).
    if l.lower.is_nan() || l.upper.is_nan() || l.lower > l.upper {
        return Err(InvalidModel::new(
            "lower",
            format!("the bounds [{}, {}] are no interval", l.lower, l.upper),
        ));
    }
    Ok(())
}

impl Validate for GlrmModel {
    /// The encoder holds together; the model's features are its encoded
    /// features; a logistic model has the schema's two classes; the
    /// intercept, the target's shift and scale and every coefficient are
    /// finite; every term reads a feature in range, a linear term with
    /// finite standardisation and ordered bounds.
    fn validate(&self) -> Validity {
        self.encoder.validate().map_err(|e| e.within("encoder"))?;
        if self.loss == Loss::Logistic {
            if self.encoder.schema().classes().len() != 2 {
                return Err(InvalidModel::new(
                    "loss",
                    "a logistic model needs a schema of two classes",
                ));
            }
            if self.class_names != self.classes() {
                return Err(InvalidModel::new(
                    "class_names",
                    "differ from the schema's classes",
                ));
            }
        } else if !self.encoder.schema().classes().is_empty() {
            return Err(InvalidModel::new(
                "loss",
                "a linear model of a class target",
            ));
        }
        if self.features != self.encoder.encoded_features() {
            return Err(InvalidModel::new(
                "features",
                "differ from the encoder's features",
            ));
        }
        let n = self.features.len();
        if !self.missing_at_fit.is_empty() {
            length(
                || "missing_at_fit".into(),
                self.missing_at_fit.len(),
                n,
                "features",
            )?;
        }
        finite(|| "intercept".into(), self.intercept)?;
        finite(|| "target_shift".into(), self.target_shift)?;
        finite(|| "target_scale".into(), self.target_scale)?;
        for (i, t) in self.terms.iter().enumerate() {
            let at = format!("terms[{i}]");
            finite(|| format!("{at}.coef"), t.coef)?;
            match &t.term {
                Term::Rule(c) => {
                    check_conjunction(c, n).map_err(|e| e.within(&format!("{at}.term.Rule")))
                }
                Term::Linear(l) => {
                    check_linear(l, n).map_err(|e| e.within(&format!("{at}.term.Linear")))
                }
            }?;
        }
        Ok(())
    }
}
