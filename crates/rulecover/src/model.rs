//! Every kind of fitted tabular model, behind one enum: predicting, rules,
//! and the serde form of each kind.

use serde::{Deserialize, Serialize};

use rc_glm::Binarizer;
use rc_tree::GradientBoosting;
use rulecover_core::{Dataset, Fitted, OneVsRestModel, Predict, Predictions, RuleModel, RuleSet};

use crate::error::{BoxedError, Error, Result};

/// The GBT baseline of paper 002: gradient-boosted trees grown on the
/// 0/1 columns of the GLRM binarizer's literals, so that they split at the
/// same quantile thresholds as the rule models.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GbtModel {
    /// The binarizer fitted on the training rows.
    pub binarizer: Binarizer,
    /// The boosted trees over the binarizer's indicator columns (named by
    /// their literals, e.g. `age <= 37`).
    pub boosting: GradientBoosting,
}

impl GbtModel {
    /// The rows of `data` as the binarizer's indicator columns.
    pub fn indicators(&self, data: &Dataset) -> std::result::Result<Dataset, rc_glm::Error> {
        self.binarizer.indicator_dataset(data)
    }

    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, BoxedError> {
        let x = self.indicators(data)?;
        Ok(self.boosting.predict(&x)?)
    }
}

/// A fitted tabular model of any registered method.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Model {
    /// `dt`.
    Tree(rc_tree::DecisionTree),
    /// `rf`.
    Forest(rc_tree::RandomForest),
    /// `ada`.
    AdaBoost(rc_tree::AdaBoost),
    /// `gb`.
    GradientBoosting(rc_tree::GradientBoosting),
    /// `mirco`.
    Mirco(rc_cover::MircoModel),
    /// `rux-rf`, `rux-ada`.
    Rux(rc_cover::WeightedRuleModel),
    /// `rcboost`.
    RcBoost(rc_colgen::RcBoostModel),
    /// `rug`, `rug-t`.
    Rug(rc_colgen::RugModel),
    /// `lr1`, `lrr`, `lr1n`, `lrrn`, `linear-rule`, `rulefit`,
    /// `rulefit-n`.
    Glrm(rc_glm::GlrmModel),
    /// `gbt`.
    Gbt(GbtModel),
    /// `nre`, `nre-deep` (boxed: the largest model struct).
    Nre(Box<rc_nre::NreModel>),
    /// `ann` (no rules).
    Mlp(rc_nre::MlpModel),
    /// `lr1`, `lrr`, `lr1n`, `lrrn`, `linear-rule`, `rulefit`,
    /// `rulefit-n` on more than two classes: one model per class.
    OneVsRestGlrm(OneVsRestModel<rc_glm::GlrmModel>),
    /// `nre`, `nre-deep` on more than two classes: one model per class.
    OneVsRestNre(OneVsRestModel<rc_nre::NreModel>),
    /// `ann` on more than two classes: one network per class (no rules).
    OneVsRestMlp(OneVsRestModel<rc_nre::MlpModel>),
}

/// Applies `$f` to the model inside any variant whose model is a
/// [`RuleModel`]; `$none` for the MLP (alone or one-vs-rest).
macro_rules! with_rules {
    ($model:expr, $m:ident => $f:expr, $none:expr) => {
        match $model {
            Model::Tree($m) => Some($f),
            Model::Forest($m) => Some($f),
            Model::AdaBoost($m) => Some($f),
            Model::GradientBoosting($m) => Some($f),
            Model::Mirco($m) => Some($f),
            Model::Rux($m) => Some($f),
            Model::RcBoost($m) => Some($f),
            Model::Rug($m) => Some($f),
            Model::Glrm($m) => Some($f),
            Model::Gbt(g) => {
                let $m = &g.boosting;
                Some($f)
            }
            Model::Nre($m) => Some($f),
            Model::OneVsRestGlrm($m) => Some($f),
            Model::OneVsRestNre($m) => Some($f),
            Model::Mlp(_) | Model::OneVsRestMlp(_) => $none,
        }
    };
}

fn boxed<E: std::error::Error + Send + Sync + 'static>(e: E) -> BoxedError {
    Box::new(e)
}

impl Model {
    /// Predicts every row of `data` (already in the training schema).
    /// A copy of a GLRM-family model (one-vs-rest included) that reads a
    /// missing value in any column as its literals do
    /// ([`rc_glm::UnseenMissing::AsLiterals`]), or `None` for the other
    /// models and a model that already does.
    pub(crate) fn reading_missing_as_literals(&self) -> Option<Model> {
        let lenient = rc_glm::UnseenMissing::AsLiterals;
        match self {
            Model::Glrm(m) if m.unseen_missing() != lenient => {
                let mut m = m.clone();
                m.set_unseen_missing(lenient);
                Some(Model::Glrm(m))
            }
            Model::OneVsRestGlrm(m) => {
                let mut m = m.clone();
                m.binary_models_mut()
                    .for_each(|b| b.set_unseen_missing(lenient));
                Some(Model::OneVsRestGlrm(m))
            }
            _ => None,
        }
    }

    pub(crate) fn predict(&self, method: &str, data: &Dataset) -> Result<Predictions> {
        let out: std::result::Result<Predictions, BoxedError> = match self {
            Model::Tree(m) => m.predict(data).map_err(boxed),
            Model::Forest(m) => m.predict(data).map_err(boxed),
            Model::AdaBoost(m) => m.predict(data).map_err(boxed),
            Model::GradientBoosting(m) => m.predict(data).map_err(boxed),
            Model::Mirco(m) => m.predict(data).map_err(boxed),
            Model::Rux(m) => m.predict(data).map_err(boxed),
            Model::RcBoost(m) => m.predict(data).map_err(boxed),
            Model::Rug(m) => m.predict(data).map_err(boxed),
            Model::Glrm(m) => m.predict(data).map_err(boxed),
            Model::Gbt(m) => m.predict(data),
            Model::Nre(m) => m.predict(data).map_err(boxed),
            Model::Mlp(m) => m.predict(data).map_err(boxed),
            Model::OneVsRestGlrm(m) => m.predict(data).map_err(boxed),
            Model::OneVsRestNre(m) => m.predict(data).map_err(boxed),
            Model::OneVsRestMlp(m) => m.predict(data).map_err(boxed),
        };
        out.map_err(|source| Error::Predict {
            method: method.into(),
            source,
        })
    }

    /// The rules with their outcomes, weights and training coverage, or
    /// `None` for a model without rules (the MLP). GBT's rules test the
    /// binarizer's indicator columns.
    pub fn rule_set(&self) -> Option<RuleSet> {
        with_rules!(self, m => m.rule_set(), None)
    }

    /// Number of rules, or `None` for a model without rules.
    pub fn n_rules(&self) -> Option<usize> {
        with_rules!(self, m => m.n_rules(), None)
    }

    /// The rules printed one per line, or `None` for a model without rules.
    pub fn render_rules(&self) -> Option<String> {
        with_rules!(self, m => m.render_rules(), None)
    }

    /// The classes of a one-vs-rest model (`None` for any other).
    pub(crate) fn one_vs_rest_classes(&self) -> Option<&[String]> {
        match self {
            Model::OneVsRestGlrm(m) => Some(m.classes()),
            Model::OneVsRestNre(m) => Some(m.classes()),
            Model::OneVsRestMlp(m) => Some(m.classes()),
            _ => None,
        }
    }

    /// Reads the serde form of a model of method `kind`, one-vs-rest when
    /// `one_vs_rest`; `None` when `kind` is not a tabular method id (or
    /// has no one-vs-rest form).
    pub(crate) fn from_value(
        kind: &str,
        value: serde_json::Value,
        one_vs_rest: bool,
    ) -> Option<serde_json::Result<Model>> {
        use crate::json::from_value as v;
        if one_vs_rest {
            return Some(match kind {
                "lr1" | "lrr" | "lr1n" | "lrrn" | "linear-rule" | "rulefit" | "rulefit-n" => {
                    v(value).map(Model::OneVsRestGlrm)
                }
                "nre" | "nre-deep" => v(value).map(Model::OneVsRestNre),
                "ann" => v(value).map(Model::OneVsRestMlp),
                _ => return None,
            });
        }
        Some(match kind {
            "dt" => v(value).map(Model::Tree),
            "rf" => v(value).map(Model::Forest),
            "ada" => v(value).map(Model::AdaBoost),
            "gb" => v(value).map(Model::GradientBoosting),
            "mirco" => v(value).map(Model::Mirco),
            "rux-rf" | "rux-ada" => v(value).map(Model::Rux),
            "rcboost" => v(value).map(Model::RcBoost),
            "rug" | "rug-t" => v(value).map(Model::Rug),
            "lr1" | "lrr" | "lr1n" | "lrrn" | "linear-rule" | "rulefit" | "rulefit-n" => {
                v(value).map(Model::Glrm)
            }
            "gbt" => v(value).map(Model::Gbt),
            "nre" | "nre-deep" => v(value).map(Model::Nre),
            "ann" => v(value).map(Model::Mlp),
            _ => return None,
        })
    }
}
