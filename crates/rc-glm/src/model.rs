//! The fitted rule GLM: an intercept plus weighted terms (rules and
//! linear terms), printable as a table sorted by coefficient magnitude.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use rulecover_core::rule::format_number;
use rulecover_core::{Dataset, Encoder, Feature, Fitted, Predict, Predictions, RuleModel};

use crate::auto::LambdaSearch;
use crate::error::{Error, Result};
use crate::glm::Loss;
use crate::literal::{Conjunction, LiteralOp};

/// Weight of one literal in the complexity measure of the paper
/// (`Σ_rules (1 + 0.2·degree) + #linear terms`).
pub const LITERAL_WEIGHT: f64 = 0.2;

/// A linear term: `scale · (clamp(x, lower, upper) − mean)`, 0 for a
/// missing value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LinearTerm {
    /// Column of the raw data.
    pub feature: usize,
    /// Value subtracted (the training mean).
    pub mean: f64,
    /// Multiplier (e.g. `0.4 / std`).
    pub scale: f64,
    /// Winsorising bounds (±∞ for none; stored as `null` in JSON, which
    /// has no infinities).
    #[serde(with = "lower_bound")]
    pub lower: f64,
    /// Upper winsorising bound.
    #[serde(with = "upper_bound")]
    pub upper: f64,
}

/// An infinite bound as `None`, so that JSON (which has no infinities)
/// can carry it.
fn finite_or_none(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// (De)serialises a lower bound, `None` meaning `−∞`.
mod lower_bound {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        super::finite_or_none(*v).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NEG_INFINITY))
    }
}

/// (De)serialises an upper bound, `None` meaning `+∞`.
mod upper_bound {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        super::finite_or_none(*v).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::INFINITY))
    }
}

impl LinearTerm {
    /// The term's value for a raw feature value.
    #[inline]
    pub fn value(&self, x: f64) -> f64 {
        if x.is_nan() {
            0.0
        } else {
            (x.clamp(self.lower, self.upper) - self.mean) * self.scale
        }
    }
}

/// One term of the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Term {
    /// A conjunction of literals (1 where it holds, 0 elsewhere).
    Rule(Conjunction),
    /// A (standardised) numeric feature.
    Linear(LinearTerm),
}

impl Term {
    /// The term's contribution weight in the complexity measure.
    pub fn complexity(&self) -> f64 {
        match self {
            Term::Rule(c) => 1.0 + LITERAL_WEIGHT * c.degree() as f64,
            Term::Linear(_) => 1.0,
        }
    }
}

/// A term with its coefficient.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeightedTerm {
    /// The term.
    pub term: Term,
    /// Its coefficient on the linear-predictor scale.
    pub coef: f64,
    /// Training coverage, recorded at fit: the number of training rows
    /// (of positive weight) where a rule holds, or where a linear term's
    /// feature is not missing.
    #[serde(default)]
    pub coverage: usize,
}

/// What a fitted model does with a missing value (`NaN`) at prediction
/// time in a column that had no missing value in the training rows.
///
/// Missing values seen at fit are part of the model: the binarizer made
/// `is missing` / `is not missing` literals for them, and the model was
/// fitted knowing how the other literals read them. A missing value in a
/// column that was always present at fit has never been seen by the
/// model, so by default it is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum UnseenMissing {
    /// A typed error, [`Error::UnseenMissing`], naming the column and the
    /// row (default).
    #[default]
    Error,
    /// Evaluate it as the literals do: `x <= t`, `x > t` and `x == v` are
    /// false, `x != v` is true, and a linear term contributes 0 (the
    /// training mean).
    AsLiterals,
}

/// Why column generation stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StopReason {
    /// No column generation (LR1, RuleFit): the fixed column set was fitted.
    FixedColumns,
    /// Exact pricing proved that no conjunction has a negative reduced
    /// cost: the solution is optimal for the full problem (4).
    Certified,
    /// The heuristic found no column with a negative reduced cost.
    NoImprovingColumn,
    /// The iteration limit was reached.
    IterationLimit,
    /// The time limit was reached.
    TimeLimit,
}

/// How a model was fitted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FitInfo {
    /// `λ0` used.
    pub lambda0: f64,
    /// `λ1` used.
    pub lambda1: f64,
    /// Column-generation iterations (pricing rounds that added columns).
    pub iterations: usize,
    /// Size of the final working set of columns.
    pub working_set: usize,
    /// Why the search stopped.
    pub stop: StopReason,
    /// KKT violation of the last regularised fit.
    pub kkt_violation: f64,
    /// Objective (4) of the last regularised fit.
    pub objective: f64,
    /// Whether the final model is the de-biased refit.
    pub debiased: bool,
    /// Wall-clock time of the fit.
    pub time: Duration,
    /// What `lambda0 = auto` tried and chose (`None`: fixed penalties).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lambda_search: Option<LambdaSearch>,
}

/// A fitted generalized linear rule model (GLRM, or RuleFit).
///
/// `η(x) = intercept + Σ_k coef_k · term_k(x)`; the logistic model
/// predicts `P(y = 1) = 1 / (1 + e^{−η})`, the linear model
/// `y = shift + scale · η` (targets are standardised for fitting).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GlrmModel {
    pub(crate) loss: Loss,
    /// The training schema and input encoding.
    pub(crate) encoder: Encoder,
    /// The encoded features the terms index.
    pub(crate) features: Vec<Feature>,
    /// Whether each encoded feature had a missing value in the training
    /// rows.
    pub(crate) missing_at_fit: Vec<bool>,
    /// The policy for missing values in the other columns.
    pub(crate) unseen_missing: UnseenMissing,
    pub(crate) class_names: Vec<String>,
    pub(crate) intercept: f64,
    pub(crate) terms: Vec<WeightedTerm>,
    pub(crate) target_shift: f64,
    pub(crate) target_scale: f64,
    pub(crate) info: FitInfo,
}

impl GlrmModel {
    pub(crate) fn sort_terms(&mut self) {
        self.terms
            .sort_by(|a, b| b.coef.abs().total_cmp(&a.coef.abs()));
    }

    /// The loss it was fitted with.
    pub fn loss(&self) -> Loss {
        self.loss
    }

    /// The intercept (linear-predictor scale).
    pub fn intercept(&self) -> f64 {
        self.intercept
    }

    /// The terms with nonzero coefficients, by decreasing `|coef|`.
    pub fn terms(&self) -> &[WeightedTerm] {
        &self.terms
    }

    /// How it was fitted.
    pub fn info(&self) -> &FitInfo {
        &self.info
    }

    /// The features the terms refer to: those of the encoded training
    /// data ([`Encoder::encoded_features`]; the raw features with the
    /// default native encoding of GLRM).
    pub fn features(&self) -> &[Feature] {
        &self.features
    }

    /// The policy for a missing value at prediction time in a column that
    /// had none at fit.
    pub fn unseen_missing(&self) -> UnseenMissing {
        self.unseen_missing
    }

    /// Sets the policy for a missing value at prediction time in a column
    /// that had none at fit (e.g. on a loaded model).
    pub fn set_unseen_missing(&mut self, policy: UnseenMissing) {
        self.unseen_missing = policy;
    }

    /// Number of rule terms (linear terms not included: paper 002 counts
    /// them apart, and [`GlrmModel::n_linear_terms`] gives them).
    pub fn n_rule_terms(&self) -> usize {
        self.terms
            .iter()
            .filter(|t| matches!(t.term, Term::Rule(_)))
            .count()
    }

    /// Number of linear terms.
    pub fn n_linear_terms(&self) -> usize {
        self.terms.len() - self.n_rule_terms()
    }

    /// The paper's complexity: `Σ_rules (1 + 0.2·degree) + #linear terms`
    /// (the intercept is not counted).
    pub fn complexity(&self) -> f64 {
        self.terms.iter().map(|t| t.term.complexity()).sum()
    }

    /// Mean target of the linear model (0 for logistic models).
    pub fn target_shift(&self) -> f64 {
        self.target_shift
    }

    /// Target scale of the linear model (1 for logistic models).
    pub fn target_scale(&self) -> f64 {
        self.target_scale
    }

    /// The linear predictor `η` of every row of `data` (columns matched by
    /// name and encoded as at fit).
    ///
    /// # Errors
    /// The encoder's errors (missing column, unseen level, …);
    /// [`Error::UnseenMissing`] for a missing value in a column the model
    /// reads that had none at fit, unless the policy is
    /// [`UnseenMissing::AsLiterals`]; [`Error::NonFiniteFeature`] for an
    /// infinite value.
    pub fn decision_function(&self, data: &Dataset) -> Result<Vec<f64>> {
        let data = self.encoder.transform(data)?;
        self.linear_predictor(&data)
    }

    /// The encoded features the terms read that had no missing value at
    /// fit.
    fn never_missing_features(&self) -> Vec<usize> {
        let mut read: Vec<usize> = self
            .terms
            .iter()
            .flat_map(|t| match &t.term {
                Term::Rule(c) => c.literals.iter().map(|l| l.feature).collect::<Vec<_>>(),
                Term::Linear(l) => vec![l.feature],
            })
            .filter(|&j| !self.missing_at_fit.get(j).copied().unwrap_or(false))
            .collect();
        read.sort_unstable();
        read.dedup();
        read
    }

    /// `η` of encoded data.
    fn linear_predictor(&self, data: &Dataset) -> Result<Vec<f64>> {
        if data.n_features() != self.features.len() {
            return Err(Error::Shape(format!(
                "the model was fitted on {} features but data set '{}' has {}",
                self.features.len(),
                data.name(),
                data.n_features()
            )));
        }
        let n = data.n_rows();
        let mut eta = vec![self.intercept; n];
        let mut row = vec![0.0; data.n_features()];
        let checked = match self.unseen_missing {
            UnseenMissing::Error => self.never_missing_features(),
            UnseenMissing::AsLiterals => Vec::new(),
        };
        for (i, e) in eta.iter_mut().enumerate() {
            data.row_into(i, &mut row);
            if let Some((j, &v)) = row.iter().enumerate().find(|(_, v)| v.is_infinite()) {
                return Err(Error::NonFiniteFeature {
                    feature: self.features[j].name.clone(),
                    row: i,
                    value: v,
                });
            }
            if let Some(&j) = checked.iter().find(|&&j| row[j].is_nan()) {
                return Err(Error::UnseenMissing {
                    data: data.name().to_string(),
                    column: self.features[j].name.clone(),
                    row: i + 1,
                });
            }
            for t in &self.terms {
                *e += t.coef
                    * match &t.term {
                        Term::Rule(c) => f64::from(u8::from(c.covers_row(&row))),
                        Term::Linear(l) => l.value(row[l.feature]),
                    };
            }
        }
        Ok(eta)
    }

    /// `P(class 1) = 1 / (1 + e^{−η})` of every row (logistic models):
    /// the probability of the second class name, [`Fitted::classes`]`[1]`.
    pub fn predict_positive(&self, data: &Dataset) -> Result<Vec<f64>> {
        if self.loss != Loss::Logistic {
            return Err(Error::TargetKind(
                "predict_positive needs a logistic model; this one is linear".into(),
            ));
        }
        Ok(self
            .decision_function(data)?
            .into_iter()
            .map(|e| Loss::Logistic.mean(e))
            .collect())
    }

    /// Class probabilities of a logistic model, row-major `n × 2`: row `i`
    /// is `[1 − p_i, p_i]` with `p_i` = [`GlrmModel::predict_positive`],
    /// the same numbers as [`Predict::predict`]'s
    /// [`Predictions::Classes`].
    pub fn predict_proba(&self, data: &Dataset) -> Result<Vec<f64>> {
        Ok(self
            .predict_positive(data)?
            .into_iter()
            .flat_map(|p| [1.0 - p, p])
            .collect())
    }

    /// Predicted values (linear models) on the original target scale,
    /// `target_shift + target_scale · η`.
    pub fn predict_values(&self, data: &Dataset) -> Result<Vec<f64>> {
        if self.loss != Loss::Squared {
            return Err(Error::TargetKind(
                "predict_values needs a linear model; this one is logistic".into(),
            ));
        }
        Ok(self
            .decision_function(data)?
            .into_iter()
            .map(|e| self.target_shift + self.target_scale * e)
            .collect())
    }
}

impl Fitted for GlrmModel {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl Predict for GlrmModel {
    type Error = Error;

    /// Logistic models: [`Predictions::Classes`] with two classes, row `i`
    /// holding `[1 − p_i, p_i]` where `p_i = 1 / (1 + e^{−η_i})` is the
    /// logistic function of the linear predictor ([`GlrmModel::decision_function`]),
    /// the model's estimate of `P(class 1)` (class 1 is the second class
    /// name). Linear models: [`Predictions::Values`] on the target's
    /// scale. The columns of `data` are matched by name and encoded as at
    /// fit.
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        match self.loss {
            Loss::Logistic => Ok(Predictions::Classes {
                n_classes: 2,
                proba: self.predict_proba(data)?,
            }),
            Loss::Squared => Ok(Predictions::Values(self.predict_values(data)?)),
        }
    }
}

impl RuleModel for GlrmModel {
    /// The rule terms only ([`GlrmModel::n_rule_terms`]); the linear
    /// terms, which [`RuleModel::rule_set`] also lists, are
    /// [`GlrmModel::n_linear_terms`].
    fn n_rules(&self) -> usize {
        self.n_rule_terms()
    }

    fn rule_lengths(&self) -> Vec<usize> {
        self.terms
            .iter()
            .filter_map(|t| match &t.term {
                Term::Rule(c) => Some(c.degree()),
                Term::Linear(_) => None,
            })
            .collect()
    }

    fn render_rules(&self) -> String {
        self.to_string()
    }

    /// The terms by decreasing `|coefficient|`, the intercept left out.
    ///
    /// * `antecedent`: a rule's conjunction
    ///   ([`rulecover_core::Antecedent::Conjunction`]) or a linear term
    ///   ([`rulecover_core::Antecedent::Linear`], whose value is
    ///   `scale · (clamp(x) − mean)`, see [`LinearTerm`]), over the
    ///   encoded features ([`GlrmModel::features`]);
    /// * `weight` and `outcome` ([`rulecover_core::Outcome::Value`]) are
    ///   both the term's coefficient on the linear-predictor scale: the
    ///   log-odds of class 1 for a logistic model, the standardised target
    ///   for a linear one (multiply by [`GlrmModel::target_scale`] for the
    ///   target's units). A rule adds it to `η` where it holds; a linear
    ///   term adds it times the term's value;
    /// * `coverage`: the training rows (of positive weight) where the rule
    ///   holds, or where the linear term's feature is not missing.
    fn rule_set(&self) -> rulecover_core::RuleSet {
        use rulecover_core::{Antecedent, Condition, Op, Outcome, Rule, WeightedRule};
        let condition = |l: &crate::literal::Literal| Condition {
            feature: l.feature,
            op: match l.op {
                LiteralOp::Le => Op::Le,
                LiteralOp::Gt => Op::Gt,
                LiteralOp::Eq => Op::Eq,
                LiteralOp::Ne => Op::Ne,
                LiteralOp::Missing => Op::IsMissing,
                LiteralOp::NotMissing => Op::NotMissing,
            },
            value: l.value,
        };
        rulecover_core::RuleSet {
            features: self.features.clone(),
            class_names: self.class_names.clone(),
            rules: self
                .terms
                .iter()
                .map(|t| WeightedRule {
                    antecedent: match &t.term {
                        Term::Rule(c) => Antecedent::Conjunction(Rule::new(
                            c.literals.iter().map(condition).collect(),
                        )),
                        Term::Linear(l) => Antecedent::Linear { feature: l.feature },
                    },
                    outcome: Outcome::Value(t.coef),
                    weight: t.coef,
                    coverage: t.coverage,
                    for_class: None,
                })
                .collect(),
        }
    }
}

impl fmt::Display for GlrmModel {
    /// A table of the terms sorted by `|coefficient|`:
    ///
    /// ```text
    /// logistic rule model: 3 rules, 1 linear term, complexity 6.0
    ///   coefficient  term
    ///      +2.3100  age > 52 and bmi <= 29.1
    ///      -0.8000  [linear] glucose
    ///   intercept -1.2000
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.loss {
            Loss::Logistic => "logistic",
            Loss::Squared => "linear",
        };
        let (r, l) = (self.n_rule_terms(), self.n_linear_terms());
        writeln!(
            f,
            "{kind} rule model: {r} rule{}, {l} linear term{}, complexity {:.1}",
            if r == 1 { "" } else { "s" },
            if l == 1 { "" } else { "s" },
            self.complexity()
        )?;
        writeln!(f, "  coefficient  term")?;
        for t in &self.terms {
            let text = match &t.term {
                Term::Rule(c) => c.display(&self.features).to_string(),
                Term::Linear(lt) => {
                    let name = self
                        .features
                        .get(lt.feature)
                        .map_or_else(|| format!("x{}", lt.feature), |f| f.name.clone());
                    format!("[linear] {name}")
                }
            };
            writeln!(f, "  {:>+11.4}  {text}", t.coef)?;
        }
        write!(f, "  intercept {:+.4}", self.intercept)?;
        if self.loss == Loss::Squared {
            write!(
                f,
                " (prediction = {} + {} · η)",
                format_number(self.target_shift),
                format_number(self.target_scale)
            )?;
        }
        writeln!(f)
    }
}
