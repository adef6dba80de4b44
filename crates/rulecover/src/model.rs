//! A fitted tabular model of any registered method, behind one type:
//! [`Model`] holds any typed model that implements [`ModelKind`]
//! (predicting, rules, its serde form, its checks), so that a method
//! brings its model type along with its item and nothing here names it.

use std::any::Any;
use std::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use rulecover_core::scoring::{ExportError, Output, Program, ProgramBuilder};
use rulecover_core::{Dataset, InvalidModel, Predictions, RuleModel, RuleSet};

use crate::error::{BoxedError, Error, Result};

/// A typed fitted model as the registry uses it: implemented next to
/// the method items that fit it (`learners`), for the learner's own model
/// and, for a method fitted one-vs-rest, its
/// [`rulecover_core::OneVsRestModel`].
pub trait ModelKind:
    Serialize + DeserializeOwned + Clone + PartialEq + fmt::Debug + Send + Sync + 'static
{
    /// Predicts every row of `data` (already in the training schema).
    ///
    /// # Errors
    /// The model's own error.
    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, BoxedError>;

    /// The model's rules, or `None` for a model without rules.
    fn rules(&self) -> Option<&dyn RuleModel>;

    /// Checks that a model read from a file holds together (indices in
    /// range, trees acyclic, lengths consistent, class and feature counts
    /// agreeing with the schema, finite numbers where they are needed),
    /// so that a bad file is an error on load rather than a panic at
    /// prediction: the model crate's [`rulecover_core::Validate`].
    /// Called once on every load, never on prediction.
    ///
    /// # Errors
    /// The offending field's path from the model (`trees[3].nodes[17]`)
    /// and what is wrong with it.
    fn validate(&self) -> std::result::Result<(), InvalidModel>;

    /// The class names the model predicts, in class order (its own
    /// encoder's; empty for a regression model). A model file whose
    /// schema names other classes is an error on load.
    fn classes(&self) -> &[String];

    /// The classes of a one-vs-rest model (`None` for any other).
    fn one_vs_rest_classes(&self) -> Option<&[String]> {
        None
    }

    /// A copy that reads a missing value in any column as its literals
    /// do ([`rc_glm::UnseenMissing::AsLiterals`]), or `None` for a model
    /// that has no such policy or already follows it.
    fn reading_missing_as_literals(&self) -> Option<Self> {
        None
    }

    /// The parameters the fit chose itself (`lambda0 = auto`'s
    /// penalties), as `(name, value)`; `name[class]` per class of a
    /// one-vs-rest model. Empty when the model chose none.
    fn chosen_params(&self) -> Vec<(String, f64)> {
        Vec::new()
    }

    /// Writes the model as a scoring program over the raw columns of its
    /// training schema ([`rulecover_core::scoring::Export`]), for the SQL
    /// and Python exports.
    ///
    /// # Errors
    /// The model's [`ExportError`].
    fn export(&self, program: &mut ProgramBuilder) -> std::result::Result<Output, ExportError>;
}

/// Implements [`ModelKind`] for models that are [`rulecover_core::Predict`]
/// and [`RuleModel`], with the defaults for the rest.
macro_rules! rule_model_kinds {
    ($($t:ty),* $(,)?) => {$(
        impl $crate::model::ModelKind for $t {
            fn predict(
                &self,
                data: &rulecover_core::Dataset,
            ) -> std::result::Result<rulecover_core::Predictions, $crate::error::BoxedError> {
                Ok(rulecover_core::Predict::predict(self, data)?)
            }

            fn rules(&self) -> Option<&dyn rulecover_core::RuleModel> {
                Some(self)
            }

            fn validate(&self) -> std::result::Result<(), rulecover_core::InvalidModel> {
                rulecover_core::Validate::validate(self)
            }

            fn classes(&self) -> &[String] {
                rulecover_core::Fitted::classes(self)
            }

            fn export(
                &self,
                program: &mut rulecover_core::scoring::ProgramBuilder,
            ) -> std::result::Result<rulecover_core::scoring::Output, rulecover_core::scoring::ExportError> {
                rulecover_core::scoring::Export::export(self, program)
            }
        }
    )*};
}
pub(crate) use rule_model_kinds;

/// The object form of a [`ModelKind`].
trait Object: fmt::Debug + Send + Sync + Any {
    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, BoxedError>;
    fn rules(&self) -> Option<&dyn RuleModel>;
    fn to_value(&self) -> serde_json::Result<Value>;
    fn validate(&self) -> std::result::Result<(), InvalidModel>;
    fn classes(&self) -> &[String];
    fn one_vs_rest_classes(&self) -> Option<&[String]>;
    fn reading_missing_as_literals(&self) -> Option<Model>;
    fn chosen_params(&self) -> Vec<(String, f64)>;
    fn export(&self, program: &mut ProgramBuilder) -> std::result::Result<Output, ExportError>;
    fn clone_box(&self) -> Box<dyn Object>;
    fn same(&self, other: &dyn Object) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<M: ModelKind> Object for M {
    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, BoxedError> {
        ModelKind::predict(self, data)
    }
    fn rules(&self) -> Option<&dyn RuleModel> {
        ModelKind::rules(self)
    }
    fn to_value(&self) -> serde_json::Result<Value> {
        crate::json::to_value(self)
    }
    fn validate(&self) -> std::result::Result<(), InvalidModel> {
        ModelKind::validate(self)
    }
    fn classes(&self) -> &[String] {
        ModelKind::classes(self)
    }
    fn one_vs_rest_classes(&self) -> Option<&[String]> {
        ModelKind::one_vs_rest_classes(self)
    }
    fn reading_missing_as_literals(&self) -> Option<Model> {
        ModelKind::reading_missing_as_literals(self).map(Model::new)
    }
    fn chosen_params(&self) -> Vec<(String, f64)> {
        ModelKind::chosen_params(self)
    }
    fn export(&self, program: &mut ProgramBuilder) -> std::result::Result<Output, ExportError> {
        ModelKind::export(self, program)
    }
    fn clone_box(&self) -> Box<dyn Object> {
        Box::new(self.clone())
    }
    fn same(&self, other: &dyn Object) -> bool {
        other.as_any().downcast_ref::<M>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A fitted tabular model of any registered method.
#[derive(Debug)]
pub struct Model(Box<dyn Object>);

impl Clone for Model {
    fn clone(&self) -> Self {
        Model(self.0.clone_box())
    }
}

impl PartialEq for Model {
    /// Models of the same type that are equal.
    fn eq(&self, other: &Model) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl Model {
    /// Wraps a typed model.
    pub fn new<M: ModelKind>(model: M) -> Model {
        Model(Box::new(model))
    }

    /// Reads the serde form of a typed model (non-finite numbers as the
    /// model file writes them).
    ///
    /// # Errors
    /// serde_json's error for a value of another shape.
    pub fn read<M: ModelKind>(value: Value) -> serde_json::Result<Model> {
        crate::json::from_value::<M>(value).map(Model::new)
    }

    /// The typed model, when it is an `M`
    /// (e.g. [`rc_glm::GlrmModel`], or
    /// `rulecover_core::OneVsRestModel<rc_glm::GlrmModel>` for a GLRM
    /// fitted one-vs-rest).
    pub fn downcast_ref<M: ModelKind>(&self) -> Option<&M> {
        self.0.as_any().downcast_ref::<M>()
    }

    /// Predicts every row of `data` (already in the training schema).
    pub(crate) fn predict(&self, method: &str, data: &Dataset) -> Result<Predictions> {
        self.0.predict(data).map_err(|source| Error::Predict {
            method: method.into(),
            source,
        })
    }

    /// The serde form (the model file's `model`).
    pub(crate) fn to_value(&self) -> serde_json::Result<Value> {
        self.0.to_value()
    }

    /// The model's own checks ([`ModelKind::validate`]).
    pub(crate) fn validate(&self) -> std::result::Result<(), InvalidModel> {
        self.0.validate()
    }

    /// The classes the model predicts ([`ModelKind::classes`]).
    pub(crate) fn classes(&self) -> &[String] {
        self.0.classes()
    }

    /// A copy reading a missing value as its literals do, or `None`
    /// ([`ModelKind::reading_missing_as_literals`]).
    pub(crate) fn reading_missing_as_literals(&self) -> Option<Model> {
        self.0.reading_missing_as_literals()
    }

    /// The rules with their outcomes, weights and training coverage, or
    /// `None` for a model without rules (the MLP). GBT's rules test the
    /// binarizer's indicator columns.
    pub fn rule_set(&self) -> Option<RuleSet> {
        self.0.rules().map(|r| r.rule_set())
    }

    /// Number of rules, or `None` for a model without rules.
    pub fn n_rules(&self) -> Option<usize> {
        self.0.rules().map(|r| r.n_rules())
    }

    /// The rules printed one per line, or `None` for a model without rules.
    pub fn render_rules(&self) -> Option<String> {
        self.0.rules().map(|r| r.render_rules())
    }

    /// The classes of a model fitted one-vs-rest, one binary model per
    /// class (`None` for any other).
    pub fn one_vs_rest_classes(&self) -> Option<&[String]> {
        self.0.one_vs_rest_classes()
    }

    /// The model as a scoring program over the raw columns of `schema`
    /// (its training schema), [`ModelKind::export`].
    ///
    /// # Errors
    /// The model's [`ExportError`].
    pub fn program(
        &self,
        schema: &rulecover_core::Schema,
    ) -> std::result::Result<Program, ExportError> {
        let mut builder = ProgramBuilder::new(schema.clone());
        let output = self.0.export(&mut builder)?;
        builder.finish(output)
    }

    /// The parameters the fit chose itself ([`ModelKind::chosen_params`]).
    pub fn chosen_params(&self) -> Vec<(String, f64)> {
        self.0.chosen_params()
    }
}
