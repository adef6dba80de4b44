//! Checks that a model read from a file holds together.
//!
//! A model file can hold any JSON of the right shape, so a model read back
//! may have indices out of range, lengths that disagree with what they
//! index, class counts that differ from its schema, or non-finite numbers
//! where it needs finite ones. Every model type implements [`Validate`]
//! (each crate for its own types), and the registry calls it once on load:
//! a model that passes predicts and prints its rules without panicking,
//! and one that does not is an [`InvalidModel`] naming the field.
//!
//! Field paths are written as serde names the fields, from the model's
//! root: `trees[3].nodes[17].left` (the registry puts `model.` before it).

use std::collections::HashSet;

use crate::dataset::{Dataset, Feature, FeatureKind, Target};
use crate::rule::{Condition, Rule};
use crate::ruleset::{Antecedent, Outcome, RuleSet, WeightedRule};
use crate::schema::{Encoder, Schema, TargetSchema};

/// A model that does not hold together: the path of the offending field
/// (`trees[3].nodes[17].left`) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("field '{field}': {message}")]
pub struct InvalidModel {
    /// The field's path from the model's root, e.g.
    /// `trees[3].nodes[17].left`.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl InvalidModel {
    /// An error at `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        InvalidModel {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same error with `prefix` put before its path (`prefix.field`,
    /// or `prefix[i]...` for a path starting with an index), for a part
    /// checked on its own.
    #[must_use]
    pub fn within(mut self, prefix: &str) -> Self {
        self.field = if self.field.is_empty() {
            prefix.to_string()
        } else if self.field.starts_with('[') {
            format!("{prefix}{}", self.field)
        } else {
            format!("{prefix}.{}", self.field)
        };
        self
    }
}

/// The result of a check.
pub type Validity = Result<(), InvalidModel>;

/// A model (or a part of one) that can check that it holds together.
pub trait Validate {
    /// Checks the model's own invariants: every index in range, trees
    /// acyclic, lengths consistent, class and feature counts agreeing
    /// with the schema, numbers finite where the model needs them.
    /// Called once on load, not on every prediction.
    ///
    /// # Errors
    /// [`InvalidModel`] naming the first field found wrong, its path
    /// relative to `self` (the caller puts its own prefix before it).
    fn validate(&self) -> Validity;
}

impl<T: Validate> Validate for Box<T> {
    fn validate(&self) -> Validity {
        (**self).validate()
    }
}

/// `Err` at `field` unless `x` is finite.
pub fn finite(field: impl FnOnce() -> String, x: f64) -> Validity {
    if x.is_finite() {
        Ok(())
    } else {
        Err(InvalidModel::new(
            field(),
            format!("{x} is not a finite number"),
        ))
    }
}

/// `Err` at `field[i]` unless every value is finite.
pub fn all_finite(field: &str, xs: &[f64]) -> Validity {
    match xs.iter().position(|x| !x.is_finite()) {
        None => Ok(()),
        Some(i) => Err(InvalidModel::new(
            format!("{field}[{i}]"),
            format!("{} is not a finite number", xs[i]),
        )),
    }
}

/// `Err` at `field` unless `x` is not NaN (infinities allowed).
pub fn not_nan(field: impl FnOnce() -> String, x: f64) -> Validity {
    if x.is_nan() {
        Err(InvalidModel::new(field(), "NaN where a number is needed"))
    } else {
        Ok(())
    }
}

/// `Err` at `field` unless `index < len` (`what` names what it indexes).
pub fn index(field: impl FnOnce() -> String, index: usize, len: usize, what: &str) -> Validity {
    if index < len {
        Ok(())
    } else {
        Err(InvalidModel::new(
            field(),
            format!("index {index} is out of range: there are {len} {what}"),
        ))
    }
}

/// `Err` at `field` unless `found == expected` (`what` names the count).
pub fn length(
    field: impl FnOnce() -> String,
    found: usize,
    expected: usize,
    what: &str,
) -> Validity {
    if found == expected {
        Ok(())
    } else {
        Err(InvalidModel::new(
            field(),
            format!("has length {found} but there are {expected} {what}"),
        ))
    }
}

/// `Err` at `field` unless `x` is a number in `[0, 1]`.
pub fn probability(field: impl FnOnce() -> String, x: f64) -> Validity {
    if (0.0..=1.0).contains(&x) {
        Ok(())
    } else {
        Err(InvalidModel::new(field(), format!("{x} is not in [0, 1]")))
    }
}

/// `Err` at `field[i]` for the first name that repeats an earlier one.
pub fn unique(field: &str, names: &[String]) -> Validity {
    let mut seen = HashSet::with_capacity(names.len());
    for (i, n) in names.iter().enumerate() {
        if !seen.insert(n.as_str()) {
            return Err(InvalidModel::new(
                format!("{field}[{i}]"),
                format!("'{n}' appears twice"),
            ));
        }
    }
    Ok(())
}

impl Validate for Schema {
    /// Feature names are unique, categorical features have unique levels,
    /// a class target names at least one class, each once.
    fn validate(&self) -> Validity {
        let mut names = HashSet::with_capacity(self.features.len());
        for (j, f) in self.features.iter().enumerate() {
            if !names.insert(f.name.as_str()) {
                return Err(InvalidModel::new(
                    format!("features[{j}].name"),
                    format!("'{}' names two features", f.name),
                ));
            }
            check_feature(f).map_err(|e| e.within(&format!("features[{j}]")))?;
        }
        if let TargetSchema::Classes(classes) = &self.target {
            if classes.is_empty() {
                return Err(InvalidModel::new("target.Classes", "names no class"));
            }
            unique("target.Classes", classes)?;
        }
        Ok(())
    }
}

fn check_feature(f: &Feature) -> Validity {
    match &f.kind {
        FeatureKind::Categorical { levels } => unique("kind.Categorical.levels", levels),
        FeatureKind::Numeric | FeatureKind::Indicator { .. } => Ok(()),
    }
}

impl Validate for Encoder {
    /// The schema holds together and the encoded features are exactly
    /// those its encoding makes of the schema's features.
    fn validate(&self) -> Validity {
        self.schema().validate().map_err(|e| e.within("schema"))?;
        let columns = vec![Vec::new(); self.schema().features.len()];
        let empty = Dataset::new(
            "model",
            self.schema().features.clone(),
            columns,
            Target::None,
        )
        .map_err(|e| InvalidModel::new("schema.features", e.to_string()))?;
        let expected = self
            .transform(&empty)
            .map_err(|e| InvalidModel::new("encoded", e.to_string()))?;
        let expected = expected.features();
        let encoded = self.encoded_features();
        length(
            || "encoded".into(),
            encoded.len(),
            expected.len(),
            "encoded features of the schema",
        )?;
        for (j, (found, want)) in encoded.iter().zip(expected).enumerate() {
            if found != want {
                return Err(InvalidModel::new(
                    format!("encoded[{j}]"),
                    format!("is '{}' but the schema encodes '{}'", found.name, want.name),
                ));
            }
        }
        Ok(())
    }
}

impl Encoder {
    /// Checks the encoder ([`Validate`]) and that a model of `n_classes`
    /// classes fits its target: for a class target, `n_classes` is the
    /// number of classes the schema names. `field` is the path of the
    /// model's count.
    ///
    /// # Errors
    /// [`InvalidModel`] at `encoder...` or at `field`.
    pub fn check_with_classes(&self, field: &str, n_classes: usize) -> Validity {
        self.validate().map_err(|e| e.within("encoder"))?;
        match &self.schema().target {
            TargetSchema::Classes(names) if names.len() != n_classes => Err(InvalidModel::new(
                field,
                format!(
                    "the model has {n_classes} classes but its schema names {}",
                    names.len()
                ),
            )),
            _ => Ok(()),
        }
    }
}

/// Checks a condition against `n_features` features: the index in range,
/// the threshold not NaN.
pub fn check_condition(c: &Condition, n_features: usize) -> Validity {
    index(|| "feature".into(), c.feature, n_features, "features")?;
    not_nan(|| "value".into(), c.value)
}

impl Rule {
    /// Checks every condition against `n_features` features.
    ///
    /// # Errors
    /// [`InvalidModel`] at `conditions[i]...`.
    pub fn check(&self, n_features: usize) -> Validity {
        for (i, c) in self.conditions.iter().enumerate() {
            check_condition(c, n_features).map_err(|e| e.within(&format!("conditions[{i}]")))?;
        }
        Ok(())
    }
}

impl Validate for RuleSet {
    /// Every antecedent's feature indices are below the number of
    /// features, every class outcome and `for_class` below the number of
    /// classes, class counts one per class, and weights not NaN.
    fn validate(&self) -> Validity {
        let n = self.features.len();
        let k = self.class_names.len();
        for (i, r) in self.rules.iter().enumerate() {
            check_weighted_rule(r, n, k).map_err(|e| e.within(&format!("rules[{i}]")))?;
        }
        Ok(())
    }
}

fn check_weighted_rule(r: &WeightedRule, n: usize, k: usize) -> Validity {
    match &r.antecedent {
        Antecedent::Conjunction(rule) => rule
            .check(n)
            .map_err(|e| e.within("antecedent.Conjunction"))?,
        Antecedent::Linear { feature } => index(
            || "antecedent.Linear.feature".into(),
            *feature,
            n,
            "features",
        )?,
        Antecedent::Oblique(conds) => {
            for (i, c) in conds.iter().enumerate() {
                for (t, (j, w)) in c.terms.iter().enumerate() {
                    let f = || format!("antecedent.Oblique[{i}].terms[{t}]");
                    index(f, *j, n, "features")?;
                    finite(f, *w)?;
                }
                not_nan(|| format!("antecedent.Oblique[{i}].threshold"), c.threshold)?;
            }
        }
        Antecedent::Clause(_) => {}
    }
    match &r.outcome {
        Outcome::Class(c) => index(|| "outcome.Class".into(), *c, k, "classes")?,
        Outcome::ClassCounts(counts) => {
            length(|| "outcome.ClassCounts".into(), counts.len(), k, "classes")?;
            all_finite("outcome.ClassCounts", counts)?;
        }
        Outcome::Value(v) => not_nan(|| "outcome.Value".into(), *v)?,
    }
    if let Some(c) = r.for_class {
        index(|| "for_class".into(), c, k, "classes")?;
    }
    not_nan(|| "weight".into(), r.weight)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_nest() {
        let e = InvalidModel::new("[3].left", "x")
            .within("nodes")
            .within("trees[0]");
        assert_eq!(e.field, "trees[0].nodes[3].left");
        assert_eq!(e.to_string(), "field 'trees[0].nodes[3].left': x");
    }

    #[test]
    fn an_encoder_checks_its_encoded_features() {
        let data = crate::generate::tictactoe();
        let (encoder, _) = Encoder::fit(&data, crate::Encoding::default()).unwrap();
        encoder.validate().unwrap();
        let mut value = serde_json::to_value(&encoder).unwrap();
        value["encoded"].as_array_mut().unwrap().pop();
        let broken: Encoder = serde_json::from_value(value).unwrap();
        assert_eq!(broken.validate().unwrap_err().field, "encoded");
    }
}
