//! The trained network read back as rules on the original (unstandardised,
//! encoded) features, as the core's [`ObliqueCondition`]s.
//!
//! A first-layer unit `σ(wᵀz + a)` on standardised inputs `z_t = (x_t −
//! μ_t)/σ_t` is the hyperplane `Σ_t (w_t/σ_t) x_t + (a − Σ_t w_t μ_t/σ_t)`
//! on raw values, and it is active when that is positive. A shallow rule
//! covers a row when all its units are active, so it prints as a
//! conjunction of oblique conditions, each scaled so its largest
//! coefficient is 1:
//!
//! ```text
//! if fLength − 0.12·fWidth < 41.07 and fAlpha > 12.3 then class g (c = +1.73)
//! ```
//!
//! An untrained unit prints exactly as its tree condition (`x < t`; the
//! unit is inactive on the boundary, `H(0) = 0`). Deep rules print their
//! first-layer units as named hidden values `h_i` and the second layer's
//! conditions on them.

use std::fmt;

use serde::{Deserialize, Serialize};

use rulecover_core::rule::format_number;
use rulecover_core::{Feature, ObliqueCondition};

use crate::data::Standardizer;
use crate::network::NeuralRules;

/// An affine function `Σ coef·x + offset` of raw feature values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hyperplane {
    /// `(feature column, coefficient)` pairs, in column order.
    pub coefficients: Vec<(usize, f64)>,
    /// The constant term.
    pub offset: f64,
}

impl Hyperplane {
    /// Its value on a raw row (all features; a missing column counts as
    /// `NaN`).
    pub fn value(&self, row: &[f64]) -> f64 {
        self.offset
            + self
                .coefficients
                .iter()
                .map(|&(j, c)| c * row.get(j).copied().unwrap_or(f64::NAN))
                .sum::<f64>()
    }

    /// The condition "this hyperplane is positive", scaled so the largest
    /// coefficient is +1; `None` when it always holds (every coefficient
    /// is 0 and the offset is positive). A hyperplane with no coefficients
    /// and a non-positive offset never holds: it gives the condition `0 >
    /// −offset` with no terms, which fails on every row.
    pub fn condition(&self) -> Option<ObliqueCondition> {
        let Some((lead, m)) = self
            .coefficients
            .iter()
            .enumerate()
            .max_by(|a, b| a.1 .1.abs().total_cmp(&b.1 .1.abs()))
            .map(|(i, &(_, c))| (i, c))
            .filter(|&(_, m)| m != 0.0)
        else {
            return (self.offset <= 0.0).then(|| ObliqueCondition {
                terms: Vec::new(),
                greater: true,
                threshold: -self.offset,
            });
        };
        // Σ g x + g0 > 0  ⇔  Σ (g/|m|) x > −g0/|m|; flip when m < 0.
        let s = m.signum() / m.abs();
        let mut terms: Vec<(usize, f64)> = Vec::with_capacity(self.coefficients.len());
        terms.push((self.coefficients[lead].0, 1.0));
        for (i, &(j, c)) in self.coefficients.iter().enumerate() {
            if i != lead {
                terms.push((j, c * s));
            }
        }
        Some(ObliqueCondition {
            terms,
            greater: m > 0.0,
            threshold: -self.offset * s,
        })
    }
}

/// Printable form of an [`ObliqueCondition`] with feature names, as the
/// rules print (coefficients to 2 decimals; terms that round to 0 are
/// left out): `x0 − 0.12·x3 < 1.4`.
pub fn display_condition<'a>(
    condition: &'a ObliqueCondition,
    features: &'a [Feature],
) -> ConditionDisplay<'a> {
    ConditionDisplay {
        condition,
        features,
    }
}

/// Writes `x3 − 0.12·x7` for terms with names; terms rounding to 0.00 are
/// skipped (except the first).
fn write_terms<'n>(
    f: &mut fmt::Formatter<'_>,
    terms: impl Iterator<Item = (&'n str, f64)>,
) -> fmt::Result {
    let mut first = true;
    for (name, c) in terms {
        let text = format!("{:.2}", c.abs());
        if !first && text == "0.00" {
            continue;
        }
        let sign = if c < 0.0 { "−" } else { "+" };
        if first {
            if c < 0.0 {
                write!(f, "−")?;
            }
        } else {
            write!(f, " {sign} ")?;
        }
        if text == "1.00" {
            write!(f, "{name}")?;
        } else {
            write!(f, "{text}·{name}")?;
        }
        first = false;
    }
    if first {
        write!(f, "0")?;
    }
    Ok(())
}

/// `a·x − b·y + c` with the numbers as the shortest `f32` decimal; zero
/// coefficients and a zero constant are left out.
fn affine_text(terms: &[(String, f64)], constant: f64) -> String {
    let mut text = String::new();
    let mut push = |magnitude: String, negative: bool| {
        if text.is_empty() {
            text = if negative {
                format!("−{magnitude}")
            } else {
                magnitude
            };
        } else {
            let sign = if negative { '−' } else { '+' };
            text.push_str(&format!(" {sign} {magnitude}"));
        }
    };
    let mut any = false;
    for (name, c) in terms.iter().filter(|(_, c)| *c != 0.0) {
        any = true;
        let magnitude = if c.abs() == 1.0 {
            name.clone()
        } else {
            format!("{}·{name}", format_number(c.abs()))
        };
        push(magnitude, *c < 0.0);
    }
    if constant != 0.0 || !any {
        push(format_number(constant.abs()), constant < 0.0);
    }
    text
}

fn feature_name(features: &[Feature], j: usize) -> String {
    features
        .get(j)
        .map_or_else(|| format!("x{j}"), |f| f.name.clone())
}

/// [`ObliqueCondition`] with feature names ([`display_condition`]).
pub struct ConditionDisplay<'a> {
    condition: &'a ObliqueCondition,
    features: &'a [Feature],
}

impl fmt::Display for ConditionDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<(String, f64)> = self
            .condition
            .terms
            .iter()
            .map(|&(j, c)| (feature_name(self.features, j), c))
            .collect();
        write_terms(f, names.iter().map(|(n, c)| (n.as_str(), *c)))?;
        let op = if self.condition.greater { ">" } else { "<" };
        write!(f, " {op} {}", format_number(self.condition.threshold))
    }
}

/// The second layer of a deep rule: unit `j` is `σ(Σ_i v[j][i] h_i +
/// b[j])`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SecondLayer {
    /// `v[j][i]`: weight from first-layer unit `i` to second-layer unit `j`.
    pub v: Vec<Vec<f64>>,
    /// Biases.
    pub b: Vec<f64>,
}

/// One trained neural rule on raw features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NeuralRule {
    /// Tree leaf it was initialised from.
    pub leaf: usize,
    /// First-layer units `h_i = σ(hyperplane_i(x))`.
    pub units: Vec<Hyperplane>,
    /// Deep rules only.
    pub second_layer: Option<SecondLayer>,
    /// Output weight `c`.
    pub output: f64,
    /// Offset `d` added on the support (0 for a network without offsets,
    /// e.g. the paper's start).
    #[serde(default)]
    pub offset: f64,
}

impl NeuralRule {
    /// The support depth `min_j σ(·)` on a raw row (1 for a rule with no
    /// units); the rule's output is `output × support`.
    pub fn support(&self, row: &[f64]) -> f64 {
        if self.units.is_empty() {
            return 1.0;
        }
        let h: Vec<f64> = self.units.iter().map(|u| u.value(row).max(0.0)).collect();
        match &self.second_layer {
            None => h.iter().copied().fold(f64::INFINITY, f64::min),
            Some(layer) => layer
                .v
                .iter()
                .zip(&layer.b)
                .map(|(vj, bj)| (bj + vj.iter().zip(&h).map(|(v, h)| v * h).sum::<f64>()).max(0.0))
                .fold(f64::INFINITY, f64::min),
        }
    }

    /// The rule's output on a raw row: `d + c · support` inside its
    /// support, 0 outside.
    pub fn value(&self, row: &[f64]) -> f64 {
        let s = self.support(row);
        if s > 0.0 {
            self.offset + self.output * s
        } else {
            0.0
        }
    }

    /// The score the rule adds at support depth 1 (`d + c`): its sign is
    /// the class it votes for (positive: class 1).
    pub fn vote(&self) -> f64 {
        self.offset + self.output
    }

    /// Shallow rules: the conjunction, one condition per unit (a unit
    /// that is active everywhere is left out, see
    /// [`Hyperplane::condition`]); its conditions all hold exactly where
    /// the support is positive, up to the rounding of the rescaled
    /// coefficients. Empty for deep rules, whose support is not a
    /// conjunction of half-spaces ([`NeuralRule::deep_literals`]).
    pub fn conditions(&self) -> Vec<ObliqueCondition> {
        if self.second_layer.is_some() {
            return Vec::new();
        }
        self.units
            .iter()
            .filter_map(Hyperplane::condition)
            .collect()
    }

    /// Deep rules: the support's conditions as text, one per second-layer
    /// unit `j`, with the first-layer units written out: `Σ_i v_ji·max(0,
    /// g_i(x)) > −b_j` where `g_i` is unit `i`'s hyperplane on raw values
    /// (numbers printed as the shortest `f32` decimal; terms with weight 0
    /// left out). The support is positive exactly when all of them hold.
    /// Empty for shallow rules ([`NeuralRule::conditions`]).
    pub fn deep_literals(&self, features: &[Feature]) -> Vec<String> {
        let Some(layer) = &self.second_layer else {
            return Vec::new();
        };
        let hidden: Vec<String> = self
            .units
            .iter()
            .map(|u| {
                let terms: Vec<(String, f64)> = u
                    .coefficients
                    .iter()
                    .map(|&(j, c)| (feature_name(features, j), c))
                    .collect();
                format!("max(0, {})", affine_text(&terms, u.offset))
            })
            .collect();
        layer
            .v
            .iter()
            .zip(&layer.b)
            .map(|(vj, bj)| {
                let terms: Vec<(String, f64)> =
                    hidden.iter().cloned().zip(vj.iter().copied()).collect();
                format!("{} > {}", affine_text(&terms, 0.0), format_number(-bj))
            })
            .collect()
    }

    /// Printable form with feature and class names.
    pub fn display<'a>(
        &'a self,
        features: &'a [Feature],
        class_names: &'a [String],
    ) -> RuleDisplay<'a> {
        RuleDisplay {
            rule: self,
            features,
            class_names,
        }
    }
}

/// [`NeuralRule`] with names.
pub struct RuleDisplay<'a> {
    rule: &'a NeuralRule,
    features: &'a [Feature],
    class_names: &'a [String],
}

impl fmt::Display for RuleDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.rule;
        write!(f, "if ")?;
        match &r.second_layer {
            None => {
                let conds = r.conditions();
                if conds.is_empty() {
                    write!(f, "true")?;
                }
                for (i, c) in conds.iter().enumerate() {
                    if i > 0 {
                        write!(f, " and ")?;
                    }
                    write!(f, "{}", display_condition(c, self.features))?;
                }
            }
            Some(layer) => {
                for (j, (vj, bj)) in layer.v.iter().zip(&layer.b).enumerate() {
                    if j > 0 {
                        write!(f, " and ")?;
                    }
                    let names: Vec<String> = (1..=vj.len()).map(|i| format!("h{i}")).collect();
                    write_terms(f, names.iter().map(String::as_str).zip(vj.iter().copied()))?;
                    write!(f, " > {}", format_number(-bj))?;
                }
                write!(f, " where ")?;
                for (i, u) in r.units.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    let names: Vec<(String, f64)> = u
                        .coefficients
                        .iter()
                        .map(|&(j, c)| (feature_name(self.features, j), c))
                        .collect();
                    write!(f, "h{} = max(0, ", i + 1)?;
                    write_terms(f, names.iter().map(|(n, c)| (n.as_str(), *c)))?;
                    let sign = if u.offset < 0.0 { "−" } else { "+" };
                    write!(f, " {sign} {})", format_number(u.offset.abs()))?;
                }
            }
        }
        let class = usize::from(r.vote() > 0.0);
        let name = self
            .class_names
            .get(class)
            .cloned()
            .unwrap_or_else(|| class.to_string());
        if r.offset != 0.0 {
            write!(
                f,
                " then class {name} (d = {:+.3}, c = {:+.3})",
                r.offset, r.output
            )
        } else {
            write!(f, " then class {name} (c = {:+.3})", r.output)
        }
    }
}

/// Reads every rule of `net` back on raw features.
pub(crate) fn export_rules(
    net: &NeuralRules,
    inputs: &[usize],
    standardizer: &Standardizer,
    leaves: &[usize],
) -> Vec<NeuralRule> {
    let (mean, scale) = (standardizer.mean(), standardizer.scale());
    (0..net.n_rules())
        .map(|k| {
            let units = net
                .rule_units(k)
                .map(|j| {
                    let w = net.unit_weights(j);
                    let mut offset = net.unit_bias(j);
                    let mut coefficients = Vec::with_capacity(w.len());
                    for (&wt, &col) in w.iter().zip(inputs) {
                        if wt != 0.0 {
                            coefficients.push((col, wt / scale[col]));
                            offset -= wt * mean[col] / scale[col];
                        }
                    }
                    Hyperplane {
                        coefficients,
                        offset,
                    }
                })
                .collect();
            let second_layer = net.second_layer(k).map(|(vt, b)| {
                let d = b.len();
                SecondLayer {
                    v: (0..d)
                        .map(|j| (0..d).map(|i| vt[i + j * d]).collect())
                        .collect(),
                    b: b.to_vec(),
                }
            });
            NeuralRule {
                leaf: leaves.get(k).copied().unwrap_or(0),
                units,
                second_layer,
                output: net.output_weight(k),
                offset: net.rule_offset(k),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_are_scaled_and_oriented() {
        let h = Hyperplane {
            coefficients: vec![(0, -2.0), (3, 0.24)],
            offset: 2.8,
        };
        // −2 x0 + 0.24 x3 + 2.8 > 0  ⇔  x0 − 0.12 x3 < 1.4.
        let c = h.condition().unwrap();
        assert!(!c.greater);
        assert_eq!(c.terms, vec![(0, 1.0), (3, -0.12)]);
        assert!((c.threshold - 1.4).abs() < 1e-12);
        let feats: Vec<Feature> = (0..4).map(|j| Feature::numeric(format!("x{j}"))).collect();
        assert_eq!(
            display_condition(&c, &feats).to_string(),
            "x0 − 0.12·x3 < 1.4"
        );
        for row in [
            [0.0, 0.0, 0.0, 0.0],
            [1.5, 0.0, 0.0, 0.0],
            [1.5, 0.0, 0.0, 2.0],
        ] {
            assert_eq!(c.holds(&row), h.value(&row) > 0.0, "{row:?}");
        }
        assert!(Hyperplane {
            coefficients: vec![],
            offset: 1.0
        }
        .condition()
        .is_none());
    }
}
