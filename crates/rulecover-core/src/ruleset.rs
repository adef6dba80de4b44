//! Rule sets: rules with what they predict and their weights, printable.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dataset::Feature;
use crate::rule::{format_number, Rule};

/// What a rule concludes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// A single class label.
    Class(usize),
    /// Class counts (or weighted counts) of the training rows the rule
    /// covers; the rule votes with them.
    ClassCounts(Vec<f64>),
    /// A real value (regression, or a score on the log-odds scale).
    Value(f64),
}

/// A rule with its outcome and weight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeightedRule {
    /// The conjunction.
    pub rule: Rule,
    /// What it predicts.
    pub outcome: Outcome,
    /// Its weight (1 when the method has none).
    pub weight: f64,
}

/// An ordered collection of weighted rules with the feature and class names
/// needed to print them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleSet {
    /// Features the rules refer to, by index.
    pub features: Vec<Feature>,
    /// Class names (empty for regression).
    pub class_names: Vec<String>,
    /// The rules.
    pub rules: Vec<WeightedRule>,
}

impl RuleSet {
    /// Number of rules.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// True when there are no rules.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Mean number of raw conditions per rule (0 for an empty set).
    pub fn avg_rule_length(&self) -> f64 {
        mean_len(self.rules.iter().map(|r| r.rule.len()))
    }

    /// Mean number of conditions per rule after merging conditions on the
    /// same feature.
    pub fn avg_normalized_rule_length(&self) -> f64 {
        mean_len(self.rules.iter().map(|r| r.rule.normalized_len()))
    }

    fn class_name(&self, k: usize) -> String {
        self.class_names
            .get(k)
            .cloned()
            .unwrap_or_else(|| k.to_string())
    }
}

fn mean_len(lens: impl Iterator<Item = usize>) -> f64 {
    let (sum, n) = lens.fold((0usize, 0usize), |(s, n), l| (s + l, n + 1));
    if n == 0 {
        0.0
    } else {
        sum as f64 / n as f64
    }
}

impl fmt::Display for RuleSet {
    /// One line per rule:
    /// `if age > 52.5 and bmi <= 29.1 then class 1 (w=0.83)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.rules {
            write!(f, "if {} then ", r.rule.display(&self.features))?;
            match &r.outcome {
                Outcome::Class(k) => write!(f, "class {}", self.class_name(*k))?,
                Outcome::ClassCounts(c) => {
                    let best = crate::metrics::argmax(c);
                    let counts: Vec<String> = c.iter().map(|v| format_number(*v)).collect();
                    write!(f, "class {} [{}]", self.class_name(best), counts.join(", "))?;
                }
                Outcome::Value(v) => write!(f, "{}", format_number(*v))?,
            }
            if r.weight != 1.0 {
                write!(f, " (w={})", format_number((r.weight * 1e4).round() / 1e4))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
