//! rc-nre's methods: `nre`, `nre-deep` and the `ann` baseline, all
//! fitted one-vs-rest on more than two classes.

use serde_json::Value;

use rc_nre::{
    ConstantFeatures, Loss, MlpModel, MlpParams, NreInit, NreModel, NreParams, StopOn, TrainParams,
};
use rulecover_core::scoring::{Export, ExportError, Output, ProgramBuilder};
use rulecover_core::{Dataset, Fitted, OneVsRestModel, Predict, Predictions, RuleModel};

use crate::error::{BoxedError, Result};
use crate::learners::common::{p, CLS, INT0, INT1};
use crate::learners::tree::PAPER004_DEPTHS;
use crate::method::{read_per_class, table_method, GridAxis, MethodSpec, TableJob, TableMethod};
use crate::model::{rule_model_kinds, Model, ModelKind};
use crate::params::{Args, ParamKind, ParamSpec};

rule_model_kinds!(NreModel);

impl ModelKind for OneVsRestModel<NreModel> {
    fn export(&self, program: &mut ProgramBuilder) -> std::result::Result<Output, ExportError> {
        Export::export(self, program)
    }
    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, BoxedError> {
        Ok(Predict::predict(self, data)?)
    }
    fn rules(&self) -> Option<&dyn RuleModel> {
        Some(self)
    }
    fn validate(&self) -> std::result::Result<(), rulecover_core::InvalidModel> {
        rulecover_core::Validate::validate(self)
    }
    fn classes(&self) -> &[String] {
        Fitted::classes(self)
    }
    fn one_vs_rest_classes(&self) -> Option<&[String]> {
        Some(Fitted::classes(self))
    }
}

impl ModelKind for MlpModel {
    fn export(&self, program: &mut ProgramBuilder) -> std::result::Result<Output, ExportError> {
        Export::export(self, program)
    }
    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, BoxedError> {
        Ok(Predict::predict(self, data)?)
    }
    /// A network has no rules.
    fn rules(&self) -> Option<&dyn RuleModel> {
        None
    }
    fn validate(&self) -> std::result::Result<(), rulecover_core::InvalidModel> {
        rulecover_core::Validate::validate(self)
    }
    fn classes(&self) -> &[String] {
        Fitted::classes(self)
    }
}

impl ModelKind for OneVsRestModel<MlpModel> {
    fn export(&self, program: &mut ProgramBuilder) -> std::result::Result<Output, ExportError> {
        Export::export(self, program)
    }
    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, BoxedError> {
        Ok(Predict::predict(self, data)?)
    }
    /// Networks have no rules.
    fn rules(&self) -> Option<&dyn RuleModel> {
        None
    }
    fn validate(&self) -> std::result::Result<(), rulecover_core::InvalidModel> {
        rulecover_core::Validate::validate(self)
    }
    fn classes(&self) -> &[String] {
        Fitted::classes(self)
    }
    fn one_vs_rest_classes(&self) -> Option<&[String]> {
        Some(Fitted::classes(self))
    }
}

const TRAIN_LEARNING_RATE: ParamSpec = p(
    "learning_rate",
    ParamKind::Float,
    "0.01",
    "Adam's step size (> 0; paper 0.01)",
);
const BATCH_SIZE: ParamSpec = p("batch_size", INT1, "256", "rows per mini-batch");
const MAX_EPOCHS: ParamSpec = p(
    "max_epochs",
    INT0,
    "200",
    "maximum passes over the training rows (0 = no training)",
);
const PATIENCE: ParamSpec = p(
    "patience",
    INT1,
    "20",
    "stop after this many epochs without validation improvement",
);
const VALIDATION_FRACTION: ParamSpec = p(
    "validation_fraction",
    ParamKind::Float,
    "0.1",
    "fraction of rows held out to choose the stopping epoch, in [0, 0.5]",
);
const LOSS: ParamSpec = p(
    "loss",
    ParamKind::Choice(&["logistic", "hinge", "squared"]),
    "logistic",
    "training loss",
);
const STOP_ON_CHOICES: &[&str] = &["error", "loss", "brier"];
const STOP_ON: ParamSpec = p(
    "stop_on",
    ParamKind::Choice(STOP_ON_CHOICES),
    "error",
    "what early stopping watches on the validation rows",
);
const NRE_STOP_ON: ParamSpec = p(
    "stop_on",
    ParamKind::Choice(STOP_ON_CHOICES),
    "brier",
    "what early stopping watches on the validation rows (paper004: error)",
);
const NRE_INIT: ParamSpec = p(
    "init",
    ParamKind::Choice(&["calibrated", "paper"]),
    "calibrated",
    "start: the tree's leaf frequencies as probabilities, or c_k = (n+ - n-)/n (paper004)",
);
const L2: ParamSpec = p(
    "l2",
    ParamKind::Float,
    "0.0",
    "L2 shrinkage of all parameters (>= 0)",
);
const CONSTANT_FEATURES: ParamSpec = p(
    "constant_features",
    ParamKind::Choice(&["ignore", "reject"]),
    "ignore",
    "constant columns: leave them unconnected (paper 004's runs) or fail",
);

const NRE_PARAMS: &[ParamSpec] = &[
    p(
        "max_depth",
        INT1,
        "6",
        "depth of the initial tree, the model's size (paper tunes {2,4,6,8,10})",
    ),
    p(
        "min_samples_leaf",
        INT1,
        "1",
        "minimum rows per leaf of the initial tree",
    ),
    TRAIN_LEARNING_RATE,
    BATCH_SIZE,
    MAX_EPOCHS,
    PATIENCE,
    VALIDATION_FRACTION,
    LOSS,
    NRE_STOP_ON,
    L2,
    NRE_INIT,
    p(
        "refit",
        ParamKind::Bool,
        "false",
        "refit on all rows for the validated number of epochs",
    ),
    CONSTANT_FEATURES,
];

const ANN_PARAMS: &[ParamSpec] = &[
    p(
        "hidden",
        INT1,
        "256",
        "hidden ReLU units (paper tunes {64,...,1024})",
    ),
    TRAIN_LEARNING_RATE,
    BATCH_SIZE,
    MAX_EPOCHS,
    PATIENCE,
    VALIDATION_FRACTION,
    LOSS,
    STOP_ON,
    L2,
    CONSTANT_FEATURES,
];

fn train_params(args: &Args) -> Result<TrainParams> {
    let loss = match args.choice("loss")? {
        "logistic" => Loss::Logistic,
        "hinge" => Loss::Hinge,
        "squared" => Loss::Squared,
        other => return Err(args.unhandled("loss", other)),
    };
    let stop_on = match args.choice("stop_on")? {
        "error" => StopOn::Error,
        "loss" => StopOn::Loss,
        "brier" => StopOn::Brier,
        other => return Err(args.unhandled("stop_on", other)),
    };
    Ok(TrainParams {
        learning_rate: args.float("learning_rate")?,
        batch_size: args.int("batch_size")?,
        max_epochs: args.int("max_epochs")?,
        patience: args.int("patience")?,
        validation_fraction: args.float("validation_fraction")?,
        loss,
        stop_on,
        l2: args.float("l2")?,
        ..TrainParams::default()
    })
}

fn constant_features(args: &Args) -> Result<ConstantFeatures> {
    Ok(match args.choice("constant_features")? {
        "ignore" => ConstantFeatures::Ignore,
        "reject" => ConstantFeatures::Reject,
        other => return Err(args.unhandled("constant_features", other)),
    })
}

/// The NRE's params, shallow or deep rules.
fn nre_params(args: &Args, deep: bool, seed: u64) -> Result<NreParams> {
    Ok(NreParams::default()
        .max_depth(args.int("max_depth")?)
        .min_samples_leaf(args.int("min_samples_leaf")?)
        .deep(deep)
        .init(match args.choice("init")? {
            "calibrated" => NreInit::Calibrated,
            "paper" => NreInit::Paper,
            other => return Err(args.unhandled("init", other)),
        })
        .train(train_params(args)?)
        .refit(args.bool("refit")?)
        .constant_features(constant_features(args)?)
        .seed(seed))
}

/// `nre`: the neural rule ensemble.
pub(crate) struct Nre;

static NRE: MethodSpec = MethodSpec::new(
    "nre",
    "neural rule ensemble: a tree's rules made differentiable and trained with Adam",
    "004",
    CLS,
    NRE_PARAMS,
)
.fitted_one_vs_rest()
.grid(&[PAPER004_DEPTHS])
.smoke(&[("max_depth", "3"), ("max_epochs", "5")]);

table_method!(Nre, NRE);

impl TableMethod for Nre {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit_per_class(nre_params(job.args(), false, job.seed())?)
    }
    fn read_model(&self, value: Value, one_vs_rest: bool) -> serde_json::Result<Model> {
        read_per_class::<NreModel>(value, one_vs_rest)
    }
}

/// `nre-deep`: the neural rule ensemble with deep rules.
pub(crate) struct NreDeep;

static NRE_DEEP: MethodSpec = MethodSpec::new(
    "nre-deep",
    "neural rule ensemble with deep rules (a second per-rule layer)",
    "004",
    CLS,
    NRE_PARAMS,
)
.aliases(&["NRE_deep"])
.fitted_one_vs_rest()
.grid(&[PAPER004_DEPTHS])
.smoke(&[("max_depth", "3"), ("max_epochs", "5")]);

table_method!(NreDeep, NRE_DEEP);

impl TableMethod for NreDeep {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit_per_class(nre_params(job.args(), true, job.seed())?)
    }
    fn read_model(&self, value: Value, one_vs_rest: bool) -> serde_json::Result<Model> {
        read_per_class::<NreModel>(value, one_vs_rest)
    }
}

/// `ann`: the one-hidden-layer network.
pub(crate) struct Ann;

static ANN: MethodSpec = MethodSpec::new(
    "ann",
    "one-hidden-layer ReLU network (no rules; the baseline of paper 004)",
    "004",
    CLS,
    ANN_PARAMS,
)
.aliases(&["MLP"])
.fitted_one_vs_rest()
.grid(&[GridAxis::new(
    "hidden",
    &["64", "128", "256", "512", "1024"],
)])
.smoke(&[("hidden", "8"), ("max_epochs", "5")]);

impl Ann {
    /// rc-nre's params for `args`.
    pub(crate) fn params(&self, args: &Args, seed: u64) -> Result<MlpParams> {
        Ok(MlpParams::default()
            .hidden(args.int("hidden")?)
            .train(train_params(args)?)
            .constant_features(constant_features(args)?)
            .seed(seed))
    }
}

table_method!(Ann, ANN);

impl TableMethod for Ann {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit_per_class(self.params(job.args(), job.seed())?)
    }
    fn read_model(&self, value: Value, one_vs_rest: bool) -> serde_json::Result<Model> {
        read_per_class::<MlpModel>(value, one_vs_rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learners::common::defaults;

    #[test]
    fn every_default_builds_valid_params() {
        nre_params(&defaults(&NRE), false, 25)
            .unwrap()
            .validate()
            .unwrap();
        nre_params(&defaults(&NRE_DEEP), true, 25)
            .unwrap()
            .validate()
            .unwrap();
        Ann.params(&defaults(&ANN), 25).unwrap().validate().unwrap();
    }

    #[test]
    fn the_defaults_are_the_crates_presets() {
        assert_eq!(
            nre_params(&defaults(&NRE), false, 25).unwrap(),
            NreParams::default()
                .constant_features(ConstantFeatures::Ignore)
                .seed(25)
        );
        assert_eq!(
            Ann.params(&defaults(&ANN), 25).unwrap(),
            MlpParams::default()
                .constant_features(ConstantFeatures::Ignore)
                .seed(25)
        );
        assert_eq!(
            nre_params(&defaults(&NRE_DEEP), true, 25).unwrap(),
            NreParams::default()
                .deep(true)
                .constant_features(ConstantFeatures::Ignore)
                .seed(25)
        );
    }
}
