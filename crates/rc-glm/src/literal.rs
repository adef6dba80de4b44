//! Literals (binarized features) and conjunctions of literals, printable
//! with feature names.

use std::fmt;

use serde::{Deserialize, Serialize};

use rulecover_core::rule::format_number;
use rulecover_core::{Dataset, Feature, FeatureKind};

/// The test a literal makes on one raw feature value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum LiteralOp {
    /// `x <= t` (false for a missing value).
    Le,
    /// `x > t` (false for a missing value).
    Gt,
    /// `x == v`, a categorical code (false for a missing value).
    Eq,
    /// `x != v`, a categorical code (true for a missing value).
    Ne,
    /// `x` is missing (`NaN`).
    Missing,
    /// `x` is not missing.
    NotMissing,
}

impl LiteralOp {
    /// The op of the complementary literal (`<=` ↔ `>`, `==` ↔ `!=`,
    /// missing ↔ not missing). Complements agree with logical negation
    /// except that `<=`/`>` are both false on a missing value.
    pub fn complement(self) -> LiteralOp {
        match self {
            LiteralOp::Le => LiteralOp::Gt,
            LiteralOp::Gt => LiteralOp::Le,
            LiteralOp::Eq => LiteralOp::Ne,
            LiteralOp::Ne => LiteralOp::Eq,
            LiteralOp::Missing => LiteralOp::NotMissing,
            LiteralOp::NotMissing => LiteralOp::Missing,
        }
    }
}

/// One binarized feature: a test on one column of the raw data.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Literal {
    /// Column of the raw data set.
    pub feature: usize,
    /// The test.
    pub op: LiteralOp,
    /// Threshold (`<=`, `>`) or categorical code (`==`, `!=`); unused for
    /// the missing-value tests.
    pub value: f64,
}

impl Literal {
    /// A literal.
    pub fn new(feature: usize, op: LiteralOp, value: f64) -> Self {
        Literal { feature, op, value }
    }

    /// Whether a raw value satisfies the literal.
    #[inline]
    pub fn holds(&self, x: f64) -> bool {
        match self.op {
            LiteralOp::Le => x <= self.value,
            LiteralOp::Gt => x > self.value,
            LiteralOp::Eq => x == self.value,
            LiteralOp::Ne => x != self.value,
            LiteralOp::Missing => x.is_nan(),
            LiteralOp::NotMissing => !x.is_nan(),
        }
    }

    /// The complementary literal on the same feature and value.
    pub fn complement(&self) -> Literal {
        Literal::new(self.feature, self.op.complement(), self.value)
    }

    /// A total order key (feature, op, value) for sorting and deduplication.
    fn key(&self) -> (usize, LiteralOp, u64) {
        (self.feature, self.op, self.value.to_bits())
    }

    /// A displayable form with feature (and level) names.
    pub fn display<'a>(&'a self, features: &'a [Feature]) -> LiteralDisplay<'a> {
        LiteralDisplay {
            literal: self,
            features,
        }
    }
}

/// [`Literal`] with feature names, for printing.
pub struct LiteralDisplay<'a> {
    literal: &'a Literal,
    features: &'a [Feature],
}

impl fmt::Display for LiteralDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = self.literal;
        let feature = self.features.get(l.feature);
        let name = feature.map_or_else(|| format!("x{}", l.feature), |f| f.name.clone());
        let level = |code: f64| -> String {
            match feature.map(|f| &f.kind) {
                Some(FeatureKind::Categorical { levels }) if code >= 0.0 => levels
                    .get(code as usize)
                    .cloned()
                    .unwrap_or_else(|| format_number(code)),
                _ => format_number(code),
            }
        };
        if let Some(FeatureKind::Indicator { source, level }) = feature.map(|f| &f.kind) {
            if (0.0..1.0).contains(&l.value) && matches!(l.op, LiteralOp::Le | LiteralOp::Gt) {
                let sym = if l.op == LiteralOp::Gt { "==" } else { "!=" };
                return write!(f, "{source} {sym} {level}");
            }
        }
        match l.op {
            LiteralOp::Le => write!(f, "{name} <= {}", format_number(l.value)),
            LiteralOp::Gt => write!(f, "{name} > {}", format_number(l.value)),
            LiteralOp::Eq => write!(f, "{name} == {}", level(l.value)),
            LiteralOp::Ne => write!(f, "{name} != {}", level(l.value)),
            LiteralOp::Missing => write!(f, "{name} is missing"),
            LiteralOp::NotMissing => write!(f, "{name} is not missing"),
        }
    }
}

/// A conjunction of literals (a rule). The empty conjunction is always
/// true (the intercept).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Conjunction {
    /// The literals, sorted by (feature, op, value), without duplicates.
    pub literals: Vec<Literal>,
}

impl Conjunction {
    /// A conjunction from literals (sorted and deduplicated).
    pub fn new(mut literals: Vec<Literal>) -> Self {
        literals.sort_by_key(Literal::key);
        literals.dedup_by_key(|l| l.key());
        Conjunction { literals }
    }

    /// Number of literals (the rule's degree).
    pub fn degree(&self) -> usize {
        self.literals.len()
    }

    /// Whether a raw row satisfies every literal.
    #[inline]
    pub fn covers_row(&self, row: &[f64]) -> bool {
        self.literals.iter().all(|l| l.holds(row[l.feature]))
    }

    /// Whether row `i` of `data` satisfies every literal.
    #[inline]
    pub fn covers(&self, data: &Dataset, i: usize) -> bool {
        self.literals
            .iter()
            .all(|l| l.holds(data.value(i, l.feature)))
    }

    /// An equivalent conjunction with the literals on each feature merged:
    /// several `<=` keep the smallest threshold, several `>` the largest,
    /// `==` makes `!=` of other values and `is not missing` redundant, and
    /// a threshold test makes `is not missing` redundant. Contradictions
    /// (e.g. `== a and == b`) are kept as they are: the rule then covers
    /// nothing.
    pub fn simplified(&self) -> Conjunction {
        let mut out: Vec<Literal> = Vec::new();
        let mut features: Vec<usize> = self.literals.iter().map(|l| l.feature).collect();
        features.dedup();
        for f in features {
            let on_f: Vec<&Literal> = self.literals.iter().filter(|l| l.feature == f).collect();
            let le = on_f
                .iter()
                .filter(|l| l.op == LiteralOp::Le)
                .map(|l| l.value)
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))));
            let gt = on_f
                .iter()
                .filter(|l| l.op == LiteralOp::Gt)
                .map(|l| l.value)
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
            let eqs: Vec<f64> = on_f
                .iter()
                .filter(|l| l.op == LiteralOp::Eq)
                .map(|l| l.value)
                .collect();
            let has = |op| on_f.iter().any(|l| l.op == op);
            if let Some(t) = gt {
                out.push(Literal::new(f, LiteralOp::Gt, t));
            }
            if let Some(t) = le {
                out.push(Literal::new(f, LiteralOp::Le, t));
            }
            for &v in &eqs {
                out.push(Literal::new(f, LiteralOp::Eq, v));
            }
            for l in &on_f {
                let keep = match l.op {
                    LiteralOp::Ne => eqs.is_empty() || eqs.contains(&l.value),
                    LiteralOp::Missing => true,
                    LiteralOp::NotMissing => {
                        has(LiteralOp::Missing) || (le.is_none() && gt.is_none() && eqs.is_empty())
                    }
                    _ => false,
                };
                if keep {
                    out.push(**l);
                }
            }
        }
        Conjunction::new(out)
    }

    /// A displayable form: `age > 52.5 and sex == Male` (`true` when empty).
    pub fn display<'a>(&'a self, features: &'a [Feature]) -> ConjunctionDisplay<'a> {
        ConjunctionDisplay {
            conjunction: self,
            features,
        }
    }
}

/// [`Conjunction`] with feature names, for printing.
pub struct ConjunctionDisplay<'a> {
    conjunction: &'a Conjunction,
    features: &'a [Feature],
}

impl fmt::Display for ConjunctionDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.conjunction.literals.is_empty() {
            return write!(f, "true");
        }
        for (k, l) in self.conjunction.literals.iter().enumerate() {
            if k > 0 {
                write!(f, " and ")?;
            }
            write!(f, "{}", l.display(self.features))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_follow_missing_value_semantics() {
        let nan = f64::NAN;
        assert!(!Literal::new(0, LiteralOp::Le, 1.0).holds(nan));
        assert!(!Literal::new(0, LiteralOp::Gt, 1.0).holds(nan));
        assert!(!Literal::new(0, LiteralOp::Eq, 1.0).holds(nan));
        assert!(Literal::new(0, LiteralOp::Ne, 1.0).holds(nan));
        assert!(Literal::new(0, LiteralOp::Missing, 0.0).holds(nan));
        assert!(!Literal::new(0, LiteralOp::NotMissing, 0.0).holds(nan));
        assert!(Literal::new(0, LiteralOp::Le, 1.0).holds(1.0));
        assert!(!Literal::new(0, LiteralOp::Gt, 1.0).holds(1.0));
    }

    #[test]
    fn display_uses_names_and_levels() {
        let feats = vec![
            Feature::numeric("age"),
            Feature::categorical("sex", vec!["Female".into(), "Male".into()]),
        ];
        let c = Conjunction::new(vec![
            Literal::new(1, LiteralOp::Eq, 1.0),
            Literal::new(0, LiteralOp::Gt, 52.5),
            Literal::new(0, LiteralOp::Missing, 0.0),
        ]);
        assert_eq!(
            c.display(&feats).to_string(),
            "age > 52.5 and age is missing and sex == Male"
        );
        assert_eq!(Conjunction::default().display(&feats).to_string(), "true");
    }

    #[test]
    fn simplification_keeps_coverage() {
        let c = Conjunction::new(vec![
            Literal::new(0, LiteralOp::Le, 5.0),
            Literal::new(0, LiteralOp::Le, 3.0),
            Literal::new(0, LiteralOp::Gt, 1.0),
            Literal::new(0, LiteralOp::NotMissing, 0.0),
            Literal::new(1, LiteralOp::Eq, 2.0),
            Literal::new(1, LiteralOp::Ne, 1.0),
        ]);
        let s = c.simplified();
        assert_eq!(s.degree(), 3);
        for x in [0.0, 1.0, 2.0, 3.0, 4.0, f64::NAN] {
            for v in [0.0, 1.0, 2.0, f64::NAN] {
                assert_eq!(c.covers_row(&[x, v]), s.covers_row(&[x, v]), "{x} {v}");
            }
        }
    }
}
