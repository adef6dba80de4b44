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

/// A condition on a linear combination of features, as the neural rule
/// ensembles learn them: `Σ coefficient·x[feature] > threshold` (or `<`);
/// a missing value fails it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObliqueCondition {
    /// `(feature index, coefficient)` pairs with non-zero coefficients.
    pub terms: Vec<(usize, f64)>,
    /// `>` when true, `<` when false.
    pub greater: bool,
    /// The threshold the combination is compared with.
    pub threshold: f64,
}

impl ObliqueCondition {
    /// Whether the condition holds for a row of feature values.
    pub fn holds(&self, row: &[f64]) -> bool {
        let sum: f64 = self
            .terms
            .iter()
            .map(|&(j, w)| w * row.get(j).copied().unwrap_or(f64::NAN))
            .sum();
        if self.greater {
            sum > self.threshold
        } else {
            sum < self.threshold
        }
    }
}

/// What a rule tests: the left-hand side of `if … then …`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Antecedent {
    /// A conjunction of conditions on single features (the empty
    /// conjunction holds everywhere).
    Conjunction(Rule),
    /// A linear term: the rule contributes `weight · x[feature]` (the
    /// linear terms of LR1N/LRRN and RuleFit).
    Linear {
        /// Feature index.
        feature: usize,
    },
    /// A conjunction of oblique conditions (neural rule ensembles).
    Oblique(Vec<ObliqueCondition>),
    /// The body of a first-order clause of a relational model: its
    /// literals as printed (e.g. `publication(C, A)`), all of which must
    /// hold for the head (the model's target) to get the rule's value.
    Clause(Vec<String>),
}

impl Antecedent {
    /// Number of conditions or literals (1 for a linear term).
    pub fn len(&self) -> usize {
        match self {
            Antecedent::Conjunction(rule) => rule.len(),
            Antecedent::Linear { .. } => 1,
            Antecedent::Oblique(conditions) => conditions.len(),
            Antecedent::Clause(literals) => literals.len(),
        }
    }

    /// True for the empty conjunction (a rule that always fires).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The conjunction, when the antecedent is one.
    pub fn as_conjunction(&self) -> Option<&Rule> {
        match self {
            Antecedent::Conjunction(rule) => Some(rule),
            _ => None,
        }
    }

    /// The same antecedent with every feature index `j` replaced by
    /// `map(j)` (to move a rule into a rule set whose feature list is
    /// ordered otherwise). A clause's literals are text and stay as they
    /// are.
    pub fn map_features(&self, map: impl Fn(usize) -> usize) -> Antecedent {
        match self {
            Antecedent::Conjunction(rule) => Antecedent::Conjunction(Rule::new(
                rule.conditions
                    .iter()
                    .map(|c| crate::rule::Condition {
                        feature: map(c.feature),
                        ..*c
                    })
                    .collect(),
            )),
            Antecedent::Linear { feature } => Antecedent::Linear {
                feature: map(*feature),
            },
            Antecedent::Oblique(conditions) => Antecedent::Oblique(
                conditions
                    .iter()
                    .map(|c| ObliqueCondition {
                        terms: c.terms.iter().map(|&(j, w)| (map(j), w)).collect(),
                        ..c.clone()
                    })
                    .collect(),
            ),
            Antecedent::Clause(literals) => Antecedent::Clause(literals.clone()),
        }
    }
}

/// A rule with its outcome, weight and training coverage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeightedRule {
    /// What the rule tests.
    pub antecedent: Antecedent,
    /// What it predicts.
    pub outcome: Outcome,
    /// Its weight (1 when the method has none).
    pub weight: f64,
    /// Number of training rows it covers, recorded at fit.
    pub coverage: usize,
    /// The class whose binary model holds the rule, when the model is
    /// one binary model per class ([`crate::OneVsRestModel`]); `None` for
    /// a rule of a single model. The outcome is then in that binary
    /// model's terms: a value adds to the score of this class against the
    /// rest, and class 1 is this class, class 0 the rest
    /// ([`RuleSet::class_label`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_class: Option<usize>,
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
        mean_len(self.rules.iter().map(|r| r.antecedent.len()))
    }

    /// Mean number of conditions per rule after merging conditions on the
    /// same feature (conjunctions; other antecedents count as they are).
    pub fn avg_normalized_rule_length(&self) -> f64 {
        mean_len(self.rules.iter().map(|r| match &r.antecedent {
            Antecedent::Conjunction(rule) => rule.normalized_len(),
            other => other.len(),
        }))
    }

    fn class_name(&self, k: usize) -> String {
        self.class_names
            .get(k)
            .cloned()
            .unwrap_or_else(|| k.to_string())
    }

    /// The name of class `k` as `rule`'s outcome means it: a class of the
    /// set, or for a rule of the binary model of class `c`
    /// ([`WeightedRule::for_class`]) `c` itself for `k = 1` and `not c`
    /// (the rest) for `k = 0`.
    pub fn class_label(&self, rule: &WeightedRule, k: usize) -> String {
        match rule.for_class {
            None => self.class_name(k),
            Some(c) if k == 1 => self.class_name(c),
            Some(c) if k == 0 => format!("not {}", self.class_name(c)),
            Some(_) => k.to_string(),
        }
    }
}

fn oblique_text(c: &ObliqueCondition, features: &[Feature]) -> String {
    let mut text = String::new();
    for (i, &(j, w)) in c.terms.iter().enumerate() {
        let name = features.get(j).map_or("?", |x| x.name.as_str());
        let sign = if w < 0.0 {
            "-"
        } else if i > 0 {
            "+"
        } else {
            ""
        };
        let sep = if i > 0 { " " } else { "" };
        let space = if i > 0 { " " } else { "" };
        text.push_str(&format!(
            "{sep}{sign}{space}{}·{name}",
            format_number(w.abs())
        ));
    }
    let op = if c.greater { ">" } else { "<" };
    format!("{text} {op} {}", format_number(c.threshold))
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
    /// `if age > 52.5 and bmi <= 29.1 then class 1 (w=0.83)`; a rule of
    /// the binary model of one class begins with that class
    /// (`class setosa: if petal_length <= 2.45 then 1.2 (w=1.2)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.rules {
            if let Some(c) = r.for_class {
                write!(f, "class {}: ", self.class_name(c))?;
            }
            match &r.antecedent {
                Antecedent::Conjunction(rule) => {
                    write!(f, "if {} then ", rule.display(&self.features))?
                }
                Antecedent::Linear { feature } => {
                    let name = self.features.get(*feature).map_or("?", |x| x.name.as_str());
                    write!(f, "linear {name}: ")?
                }
                Antecedent::Oblique(conditions) => {
                    let text: Vec<String> = conditions
                        .iter()
                        .map(|c| oblique_text(c, &self.features))
                        .collect();
                    write!(f, "if {} then ", text.join(" and "))?
                }
                Antecedent::Clause(literals) if literals.is_empty() => write!(f, "if true then ")?,
                Antecedent::Clause(literals) => write!(f, "if {} then ", literals.join(" and "))?,
            }
            match &r.outcome {
                Outcome::Class(k) => write!(f, "class {}", self.class_label(r, *k))?,
                Outcome::ClassCounts(c) => {
                    let best = crate::metrics::argmax(c);
                    let counts: Vec<String> = c.iter().map(|v| format_number(*v)).collect();
                    write!(
                        f,
                        "class {} [{}]",
                        self.class_label(r, best),
                        counts.join(", ")
                    )?;
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
