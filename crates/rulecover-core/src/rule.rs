//! Conditions and conjunctive rules over the features of a [`Dataset`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::bitset::BitSet;
use crate::dataset::{Dataset, Feature, FeatureKind};

/// The comparison a condition makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Op {
    /// `x <= value` (a missing value does not satisfy it).
    Le,
    /// `x > value` (a missing value does not satisfy it).
    Gt,
    /// `x == value` (categorical code).
    Eq,
    /// `x != value` (categorical code; a missing value satisfies it).
    Ne,
    /// `x` is missing (`value` is ignored).
    IsMissing,
    /// `x` is not missing (`value` is ignored).
    NotMissing,
}

/// One test on one feature, e.g. `age > 52.5`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Condition {
    /// Feature index (column of the dataset the rule was learned on).
    pub feature: usize,
    /// The comparison.
    pub op: Op,
    /// Threshold or categorical code.
    pub value: f64,
}

impl Condition {
    /// `x[feature] <= value`.
    pub fn le(feature: usize, value: f64) -> Self {
        Condition {
            feature,
            op: Op::Le,
            value,
        }
    }

    /// `x[feature] > value`.
    pub fn gt(feature: usize, value: f64) -> Self {
        Condition {
            feature,
            op: Op::Gt,
            value,
        }
    }

    /// Whether a value satisfies the condition.
    #[inline]
    pub fn holds(&self, x: f64) -> bool {
        match self.op {
            Op::Le => x <= self.value,
            Op::Gt => x > self.value,
            Op::Eq => x == self.value,
            Op::Ne => x != self.value,
            Op::IsMissing => x.is_nan(),
            Op::NotMissing => !x.is_nan(),
        }
    }

    /// A displayable form using feature names and level names.
    pub fn display<'a>(&'a self, features: &'a [Feature]) -> ConditionDisplay<'a> {
        ConditionDisplay {
            condition: self,
            features,
        }
    }
}

/// Formats a number for printing rules: integers without decimals, any
/// other number as the shortest decimal that reads back to the same 32-bit
/// float.
///
/// Split thresholds are stored as the `f64` that decides exactly like the
/// tree's `f32` split (scikit-learn compares `f32` feature values), so they
/// print as that split: `29.5`, not `29.500001`. Other values (weights,
/// leaf values) print with the 7 to 9 significant digits of an `f32`.
///
/// ```
/// use rulecover_core::rule::format_number;
/// assert_eq!(format_number(29.5), "29.5");
/// assert_eq!(format_number(29.50000095), "29.5"); // decides as the f32 split 29.5
/// assert_eq!(format_number(f64::from(0.1f32)), "0.1");
/// assert_eq!(format_number(0.1), "0.1");
/// assert_eq!(format_number(1.0 / 3.0), "0.33333334");
/// assert_eq!(format_number(-4.0), "-4");
/// ```
pub fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        return format!("{}", v as i64);
    }
    let single = v as f32;
    if single.is_finite() && (single != 0.0 || v == 0.0) {
        return format!("{single}");
    }
    format!("{v}")
}

/// [`Condition`] with feature names, for printing.
pub struct ConditionDisplay<'a> {
    condition: &'a Condition,
    features: &'a [Feature],
}

impl fmt::Display for ConditionDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.condition;
        let Some(feat) = self.features.get(c.feature) else {
            return write!(f, "x{} {}", c.feature, op_text(c.op, c.value));
        };
        match (&feat.kind, c.op) {
            (_, Op::IsMissing) => write!(f, "{} is missing", feat.name),
            (_, Op::NotMissing) => write!(f, "{} is not missing", feat.name),
            (FeatureKind::Indicator { source, level }, Op::Le | Op::Gt)
                if c.value >= 0.0 && c.value < 1.0 =>
            {
                let eq = c.op == Op::Gt;
                write!(f, "{} {} {}", source, if eq { "==" } else { "!=" }, level)
            }
            (FeatureKind::Categorical { levels }, Op::Eq | Op::Ne) => {
                let level = levels
                    .get(c.value as usize)
                    .map(String::as_str)
                    .unwrap_or("?");
                let sym = if c.op == Op::Eq { "==" } else { "!=" };
                write!(f, "{} {} {}", feat.name, sym, level)
            }
            _ => write!(f, "{} {}", feat.name, op_text(c.op, c.value)),
        }
    }
}

fn op_text(op: Op, v: f64) -> String {
    match op {
        Op::Le => format!("<= {}", format_number(v)),
        Op::Gt => format!("> {}", format_number(v)),
        Op::Eq => format!("== {}", format_number(v)),
        Op::Ne => format!("!= {}", format_number(v)),
        Op::IsMissing => "is missing".to_string(),
        Op::NotMissing => "is not missing".to_string(),
    }
}

/// A conjunction of conditions. The empty rule covers everything.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Rule {
    /// The conditions, in the order they were produced (e.g. root to leaf).
    pub conditions: Vec<Condition>,
}

impl Rule {
    /// A rule from its conditions.
    pub fn new(conditions: Vec<Condition>) -> Self {
        Rule { conditions }
    }

    /// Number of conditions as produced (a tree path's length; the papers
    /// mostly count rule length this way).
    pub fn len(&self) -> usize {
        self.conditions.len()
    }

    /// True for the empty (always true) rule.
    pub fn is_empty(&self) -> bool {
        self.conditions.is_empty()
    }

    /// Whether a row (all feature values) satisfies every condition.
    #[inline]
    pub fn covers_row(&self, row: &[f64]) -> bool {
        self.conditions.iter().all(|c| c.holds(row[c.feature]))
    }

    /// Whether row `i` of `data` satisfies every condition.
    #[inline]
    pub fn covers(&self, data: &Dataset, i: usize) -> bool {
        self.conditions
            .iter()
            .all(|c| c.holds(data.value(i, c.feature)))
    }

    /// The rows of `data` the rule covers, as a bitset.
    pub fn coverage(&self, data: &Dataset) -> BitSet {
        let mut set = BitSet::new(data.n_rows());
        for i in 0..data.n_rows() {
            if self.covers(data, i) {
                set.insert(i);
            }
        }
        set
    }

    /// An equivalent rule with the conditions on each feature merged into
    /// the tightest interval (`<=` keeps the smallest threshold, `>` the
    /// largest; `==` makes `!=` on the same feature redundant; duplicates
    /// dropped). Features appear in order of first occurrence.
    pub fn normalized(&self) -> Rule {
        let mut order: Vec<usize> = Vec::new();
        for c in &self.conditions {
            if !order.contains(&c.feature) {
                order.push(c.feature);
            }
        }
        let mut out = Vec::new();
        for f in order {
            let on_f = self.conditions.iter().filter(|c| c.feature == f);
            let mut le: Option<f64> = None;
            let mut gt: Option<f64> = None;
            let mut eq: Vec<f64> = Vec::new();
            let mut ne: Vec<f64> = Vec::new();
            let mut missing = false;
            let mut not_missing = false;
            for c in on_f {
                match c.op {
                    Op::Le => le = Some(le.map_or(c.value, |v| v.min(c.value))),
                    Op::Gt => gt = Some(gt.map_or(c.value, |v| v.max(c.value))),
                    Op::Eq if !eq.contains(&c.value) => eq.push(c.value),
                    Op::Ne if !ne.contains(&c.value) => ne.push(c.value),
                    Op::IsMissing => missing = true,
                    Op::NotMissing => not_missing = true,
                    _ => {}
                }
            }
            if missing {
                out.push(Condition {
                    feature: f,
                    op: Op::IsMissing,
                    value: f64::NAN,
                });
            }
            if not_missing {
                out.push(Condition {
                    feature: f,
                    op: Op::NotMissing,
                    value: f64::NAN,
                });
            }
            if let Some(v) = gt {
                out.push(Condition::gt(f, v));
            }
            if let Some(v) = le {
                out.push(Condition::le(f, v));
            }
            for v in &eq {
                out.push(Condition {
                    feature: f,
                    op: Op::Eq,
                    value: *v,
                });
            }
            if eq.is_empty() {
                for v in &ne {
                    out.push(Condition {
                        feature: f,
                        op: Op::Ne,
                        value: *v,
                    });
                }
            }
        }
        Rule { conditions: out }
    }

    /// Length after [`Rule::normalized`].
    pub fn normalized_len(&self) -> usize {
        self.normalized().len()
    }

    /// A displayable form using feature names: `age > 52.5 and bmi <= 29.1`.
    pub fn display<'a>(&'a self, features: &'a [Feature]) -> RuleDisplay<'a> {
        RuleDisplay {
            rule: self,
            features,
        }
    }
}

/// [`Rule`] with feature names, for printing.
pub struct RuleDisplay<'a> {
    rule: &'a Rule,
    features: &'a [Feature],
}

impl fmt::Display for RuleDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rule.conditions.is_empty() {
            return write!(f, "true");
        }
        for (k, c) in self.rule.conditions.iter().enumerate() {
            if k > 0 {
                write!(f, " and ")?;
            }
            write!(f, "{}", c.display(self.features))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feats() -> Vec<Feature> {
        vec![
            Feature::numeric("age"),
            Feature::categorical("color", vec!["red".into(), "blue".into()]),
            Feature {
                name: "shape=round".into(),
                kind: FeatureKind::Indicator {
                    source: "shape".into(),
                    level: "round".into(),
                },
            },
        ]
    }

    #[test]
    fn display_uses_names_and_levels() {
        let r = Rule::new(vec![
            Condition::gt(0, 52.5),
            Condition {
                feature: 1,
                op: Op::Eq,
                value: 1.0,
            },
            Condition::le(2, 0.5),
        ]);
        assert_eq!(
            r.display(&feats()).to_string(),
            "age > 52.5 and color == blue and shape != round"
        );
    }

    #[test]
    fn normalization_merges_intervals() {
        let r = Rule::new(vec![
            Condition::le(0, 10.0),
            Condition::gt(0, 1.0),
            Condition::le(0, 5.0),
            Condition::gt(0, 2.0),
        ]);
        let n = r.normalized();
        assert_eq!(
            n.conditions,
            vec![Condition::gt(0, 2.0), Condition::le(0, 5.0)]
        );
        assert_eq!(r.len(), 4);
        assert_eq!(r.normalized_len(), 2);
        for x in [0.0, 1.5, 2.0, 2.5, 5.0, 5.5, 11.0] {
            assert_eq!(r.covers_row(&[x]), n.covers_row(&[x]), "x = {x}");
        }
    }

    #[test]
    fn missing_values_fail_threshold_tests() {
        assert!(!Condition::le(0, 1.0).holds(f64::NAN));
        assert!(!Condition::gt(0, 1.0).holds(f64::NAN));
    }

    #[test]
    fn numbers_format_compactly() {
        assert_eq!(format_number(3.0), "3");
        assert_eq!(format_number(52.5), "52.5");
        assert_eq!(format_number(0.1 + 0.2), "0.3");
    }
}
