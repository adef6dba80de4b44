//! From a method and its resolved parameters to the library crate's
//! params struct, and from there to a fitted [`Model`]. No learning
//! happens here: every fit is the library crate's.

use rc_colgen::{RcBoostParams, RugParams};
use rc_cover::{
    CoverSolver, Impurity, LeafLabel, MircoParams, RuleCost, RuxBase, RuxParams, Uncovered,
};
use rc_glm::{BinarizerParams, GlrmParams, Pricing, RuleFitParams, RuleSpace};
use rc_nre::{ConstantFeatures, Loss, MlpParams, NreInit, NreParams, StopOn, TrainParams};
use rc_tree::{
    AdaBoostAlgorithm, AdaBoostParams, Criterion, DecisionTreeParams, GradientBoostingParams,
    MaxFeatures, RandomForestParams, RandomStream,
};
use rulecover_core::{Dataset, Fit, OneVsRest};

use crate::error::{Error, Result};
use crate::methods::{MethodSpec, Task};
use crate::model::{GbtModel, Model};
use crate::params::Args;

/// A method's parameters as its library crate takes them.
#[derive(Debug, Clone)]
pub(crate) enum Learner {
    Tree(DecisionTreeParams),
    Forest(RandomForestParams),
    AdaBoost(AdaBoostParams),
    GradientBoosting(GradientBoostingParams),
    /// MIRCO with the forest it selects from.
    Mirco(MircoParams),
    /// RUX with its base ensemble (a forest or AdaBoost).
    Rux(RuxParams),
    RcBoost(RcBoostParams),
    Rug(RugParams),
    Glrm(GlrmParams),
    RuleFit(RuleFitParams),
    Gbt {
        binarizer: BinarizerParams,
        boosting: GradientBoostingParams,
    },
    Nre(NreParams),
    Mlp(MlpParams),
}

/// The task of a labelled data set.
pub(crate) fn task_of(data: &Dataset) -> Result<Task> {
    if !data.has_target() {
        return Err(Error::NoTarget {
            data: data.name().into(),
        });
    }
    Ok(if !data.is_classification() {
        Task::Regression
    } else if data.n_classes() > 2 {
        Task::Multiclass
    } else {
        Task::Binary
    })
}

fn criterion(args: &Args, regression: bool) -> Result<Criterion> {
    Ok(match args.choice("criterion")? {
        "auto" if regression => Criterion::SquaredError,
        "auto" | "gini" => Criterion::Gini,
        "entropy" => Criterion::Entropy,
        "squared_error" => Criterion::SquaredError,
        other => return Err(args.unhandled("criterion", other)),
    })
}

fn random_stream(args: &Args) -> Result<RandomStream> {
    Ok(match args.choice("random_stream")? {
        "native" => RandomStream::Native,
        "sklearn" => RandomStream::Sklearn,
        other => return Err(args.unhandled("random_stream", other)),
    })
}

/// `max_features`, with `auto` replaced by `auto_value`.
fn max_features(args: &Args, auto_value: MaxFeatures) -> Result<MaxFeatures> {
    Ok(args.max_features("max_features")?.unwrap_or(auto_value))
}

fn forest_base(regression: bool) -> (RandomForestParams, MaxFeatures) {
    if regression {
        (RandomForestParams::regressor(), MaxFeatures::All)
    } else {
        (RandomForestParams::classifier(), MaxFeatures::Sqrt)
    }
}

fn ada_algorithm(args: &Args) -> Result<AdaBoostAlgorithm> {
    Ok(match args.choice("algorithm")? {
        "samme" => AdaBoostAlgorithm::Samme,
        "samme.r" => AdaBoostAlgorithm::SammeR,
        other => return Err(args.unhandled("algorithm", other)),
    })
}

fn impurity(args: &Args) -> Result<Impurity> {
    Ok(match args.choice("impurity")? {
        "gini" => Impurity::Gini,
        "entropy" => Impurity::Entropy,
        other => return Err(args.unhandled("impurity", other)),
    })
}

/// ε, cost, cost normalisation, threshold and fallback of RUX and RUG.
fn rux_params(args: &Args) -> Result<RuxParams> {
    let cost = match args.choice("cost")? {
        "rule_length" => RuleCost::RuleLength,
        "uniform" => RuleCost::Uniform,
        "inverse_estimator_weight" => RuleCost::InverseEstimatorWeight,
        other => return Err(args.unhandled("cost", other)),
    };
    let uncovered = match args.choice("uncovered")? {
        "first_estimator" => Uncovered::FirstEstimator,
        "majority_class" => Uncovered::MajorityClass,
        other => return Err(args.unhandled("uncovered", other)),
    };
    Ok(RuxParams::default()
        .eps(args.float("eps")?)
        .cost(cost)
        .normalize_costs(args.bool("normalize_costs")?)
        .threshold(args.float("threshold")?)
        .uncovered(uncovered))
}

/// The class RUX's pool rules vote for (RUX only; RUG labels its own).
fn leaf_label(args: &Args) -> Result<LeafLabel> {
    Ok(match args.choice("leaf_label")? {
        "balanced" => LeafLabel::Balanced,
        "estimator" => LeafLabel::Estimator,
        "training_majority" => LeafLabel::TrainingMajority,
        other => return Err(args.unhandled("leaf_label", other)),
    })
}

fn binarizer(args: &Args) -> Result<BinarizerParams> {
    Ok(BinarizerParams::default().n_thresholds(args.int("n_thresholds")?))
}

/// λ0, λ1, binarizer and de-biasing of every GLRM variant.
fn glrm_common(base: GlrmParams, args: &Args) -> Result<GlrmParams> {
    let base = base
        .lambda0(args.float("lambda0")?)
        .lambda1(args.float("lambda1")?)
        .debias(args.bool("debias")?);
    // The binarizer keeps the variant's own choice of negated literals
    // (LR1 drops them); only the number of thresholds is a parameter.
    let binarizer = base
        .binarizer
        .clone()
        .n_thresholds(args.int("n_thresholds")?);
    Ok(base.binarizer(binarizer))
}

fn glrm_column_generation(base: GlrmParams, args: &Args) -> Result<GlrmParams> {
    Ok(base
        .max_degree(args.int("max_degree")?)
        .beam_width(args.int("beam_width")?)
        .max_iterations(args.int("max_iterations")?))
}

fn rulefit(args: &Args, linear: bool, seed: u64) -> Result<RuleFitParams> {
    let mut p = RuleFitParams::new()
        .tree_size(args.int("tree_size")?)
        .max_rules(args.int("max_rules")?)
        .learning_rate(args.float("learning_rate")?)
        .subsample(args.opt_float("subsample")?)
        .linear_terms(linear)
        .seed(seed);
    p.lambda0 = args.float("lambda0")?;
    p.lambda1 = args.float("lambda1")?;
    p.binarizer = binarizer(args)?;
    if linear {
        p.linear_scale = args.float("linear_scale")?;
        p.winsor_quantile = args.float("winsor_quantile")?;
    }
    Ok(p)
}

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

impl Learner {
    /// The library params of `spec` for `args`, a target of kind `task`
    /// and `seed`.
    pub(crate) fn build(spec: &MethodSpec, args: &Args, task: Task, seed: u64) -> Result<Learner> {
        let regression = task == Task::Regression;
        Ok(match spec.id {
            "dt" => {
                let base = if regression {
                    DecisionTreeParams::regressor()
                } else {
                    DecisionTreeParams::classifier()
                };
                Learner::Tree(
                    base.criterion(criterion(args, regression)?)
                        .max_depth(args.opt_int("max_depth")?)
                        .min_samples_split(args.int("min_samples_split")?)
                        .min_samples_leaf(args.int("min_samples_leaf")?)
                        .max_features(max_features(args, MaxFeatures::All)?)
                        .random_stream(random_stream(args)?)
                        .seed(seed),
                )
            }
            "rf" => {
                let (base, auto) = forest_base(regression);
                Learner::Forest(
                    base.n_estimators(args.int("n_estimators")?)
                        .criterion(criterion(args, regression)?)
                        .max_depth(args.opt_int("max_depth")?)
                        .min_samples_split(args.int("min_samples_split")?)
                        .min_samples_leaf(args.int("min_samples_leaf")?)
                        .max_features(max_features(args, auto)?)
                        .bootstrap(args.bool("bootstrap")?)
                        .max_samples(args.opt_int("max_samples")?)
                        .random_stream(random_stream(args)?)
                        .seed(seed),
                )
            }
            "ada" => Learner::AdaBoost(
                AdaBoostParams::new()
                    .n_estimators(args.int("n_estimators")?)
                    .learning_rate(args.float("learning_rate")?)
                    .algorithm(ada_algorithm(args)?)
                    .max_depth(args.opt_int("max_depth")?)
                    .random_stream(random_stream(args)?)
                    .seed(seed),
            ),
            "gb" => Learner::GradientBoosting(
                GradientBoostingParams::new()
                    .n_estimators(args.int("n_estimators")?)
                    .learning_rate(args.float("learning_rate")?)
                    .max_depth(args.opt_int("max_depth")?)
                    .subsample(args.float("subsample")?)
                    .min_samples_split(args.int("min_samples_split")?)
                    .min_samples_leaf(args.int("min_samples_leaf")?)
                    .max_features(max_features(args, MaxFeatures::All)?)
                    .seed(seed),
            ),
            "mirco" => {
                let (base, auto) = forest_base(regression);
                let forest = base
                    .n_estimators(args.int("n_estimators")?)
                    .max_depth(args.opt_int("max_depth")?)
                    .max_features(max_features(args, auto)?)
                    .random_stream(random_stream(args)?)
                    .seed(seed);
                let solver = match args.choice("solver")? {
                    "greedy" => CoverSolver::Greedy,
                    "exact" => {
                        let secs = args.float("time_limit")?;
                        let time_limit =
                            std::time::Duration::try_from_secs_f64(secs).map_err(|_| {
                                Error::BadValue {
                                    method: spec.id.into(),
                                    name: "time_limit".into(),
                                    value: secs.to_string(),
                                    expected: "a non-negative number of seconds".into(),
                                }
                            })?;
                        CoverSolver::Exact { time_limit }
                    }
                    other => return Err(args.unhandled("solver", other)),
                };
                let mirco = MircoParams::default()
                    .impurity(impurity(args)?)
                    .mse_scale(args.float("mse_scale")?)
                    .solver(solver)
                    .forest(forest);
                Learner::Mirco(mirco)
            }
            "rcboost" => Learner::RcBoost(
                RcBoostParams::default()
                    .max_depth(args.opt_int("max_depth")?)
                    .max_rmp_calls(args.int("max_rmp_calls")?)
                    .impurity(impurity(args)?)
                    .seed(seed),
            ),
            "rux-rf" => Learner::Rux(
                rux_params(args)?
                    .leaf_label(leaf_label(args)?)
                    .base(RuxBase::Forest(
                        RandomForestParams::classifier()
                            .n_estimators(args.int("n_estimators")?)
                            .max_depth(args.opt_int("max_depth")?)
                            .max_features(max_features(args, MaxFeatures::Sqrt)?)
                            .seed(seed),
                    )),
            ),
            "rux-ada" => Learner::Rux(
                rux_params(args)?
                    .leaf_label(leaf_label(args)?)
                    .base(RuxBase::AdaBoost(
                        AdaBoostParams::new()
                            .n_estimators(args.int("n_estimators")?)
                            .max_depth(args.opt_int("max_depth")?)
                            .algorithm(ada_algorithm(args)?)
                            .seed(seed),
                    )),
            ),
            "rug" | "rug-t" => Learner::Rug(
                RugParams::default()
                    .lp(rux_params(args)?)
                    .max_depth(args.opt_int("max_depth")?)
                    .max_rmp_calls(args.int("max_rmp_calls")?)
                    .min_weight(args.opt_float("min_weight")?)
                    .seed(seed),
            ),
            "lr1" => Learner::Glrm(glrm_common(GlrmParams::lr1(), args)?),
            "lr1n" => Learner::Glrm(
                glrm_common(GlrmParams::lr1n(), args)?.linear_scale(args.float("linear_scale")?),
            ),
            "lrr" => Learner::Glrm(glrm_column_generation(
                glrm_common(GlrmParams::lrr(), args)?,
                args,
            )?),
            "lrrn" => Learner::Glrm(
                glrm_column_generation(glrm_common(GlrmParams::lrrn(), args)?, args)?
                    .linear_scale(args.float("linear_scale")?),
            ),
            "linear-rule" => {
                let rules = match args.choice("rules")? {
                    "conjunctions" => RuleSpace::Conjunctions,
                    "singletons" => RuleSpace::Singletons,
                    other => return Err(args.unhandled("rules", other)),
                };
                // The variant presets set the binarizer's negations by the
                // rule space (LR1 drops them), so start from the preset.
                let base = match rules {
                    RuleSpace::Singletons => GlrmParams::lr1(),
                    RuleSpace::Conjunctions => GlrmParams::lrr(),
                };
                let pricing = match args.choice("pricing")? {
                    "heuristic" => Pricing::Heuristic,
                    "exact" => Pricing::Exact,
                    other => return Err(args.unhandled("pricing", other)),
                };
                let time_limit = match args.opt_float("time_limit")? {
                    None => None,
                    Some(secs) => {
                        Some(std::time::Duration::try_from_secs_f64(secs).map_err(|_| {
                            Error::BadValue {
                                method: spec.id.into(),
                                name: "time_limit".into(),
                                value: secs.to_string(),
                                expected: "a non-negative number of seconds, or none".into(),
                            }
                        })?)
                    }
                };
                Learner::Glrm(
                    glrm_column_generation(glrm_common(base, args)?, args)?
                        .linear_terms(args.bool("linear_terms")?)
                        .linear_scale(args.float("linear_scale")?)
                        .pricing(pricing)
                        .time_limit(time_limit),
                )
            }
            "rulefit" => Learner::RuleFit(rulefit(args, false, seed)?),
            "rulefit-n" => Learner::RuleFit(rulefit(args, true, seed)?),
            "gbt" => Learner::Gbt {
                binarizer: binarizer(args)?,
                boosting: GradientBoostingParams::new()
                    .n_estimators(args.int("n_estimators")?)
                    .max_depth(args.opt_int("max_depth")?)
                    .learning_rate(args.float("learning_rate")?)
                    .subsample(args.float("subsample")?)
                    .seed(seed),
            },
            "nre" | "nre-deep" => Learner::Nre(
                NreParams::default()
                    .max_depth(args.int("max_depth")?)
                    .min_samples_leaf(args.int("min_samples_leaf")?)
                    .deep(spec.id == "nre-deep")
                    .init(match args.choice("init")? {
                        "calibrated" => NreInit::Calibrated,
                        "paper" => NreInit::Paper,
                        other => return Err(args.unhandled("init", other)),
                    })
                    .train(train_params(args)?)
                    .refit(args.bool("refit")?)
                    .constant_features(constant_features(args)?)
                    .seed(seed),
            ),
            "ann" => Learner::Mlp(
                MlpParams::default()
                    .hidden(args.int("hidden")?)
                    .train(train_params(args)?)
                    .constant_features(constant_features(args)?)
                    .seed(seed),
            ),
            other => {
                return Err(Error::Internal(format!(
                    "method '{other}' has no tabular builder"
                )))
            }
        })
    }

    /// Fits on `data` (weights already checked against it when given),
    /// one binary model per class when `one_vs_rest`.
    pub(crate) fn fit(
        &self,
        method: &str,
        data: &Dataset,
        weights: Option<&[f64]>,
        one_vs_rest: bool,
    ) -> Result<Model> {
        let fail = |e: Box<dyn std::error::Error + Send + Sync>| Error::Fit {
            method: method.into(),
            source: e,
        };
        if one_vs_rest {
            return Ok(match self {
                Learner::Glrm(p) => Model::OneVsRestGlrm(
                    fit_trait(&OneVsRest::new(p.clone()), data, weights).map_err(fail)?,
                ),
                Learner::RuleFit(p) => Model::OneVsRestGlrm(
                    fit_trait(&OneVsRest::new(p.clone()), data, weights).map_err(fail)?,
                ),
                Learner::Nre(p) => Model::OneVsRestNre(
                    fit_trait(&OneVsRest::new(p.clone()), data, weights).map_err(fail)?,
                ),
                Learner::Mlp(p) => Model::OneVsRestMlp(
                    fit_trait(&OneVsRest::new(p.clone()), data, weights).map_err(fail)?,
                ),
                other => {
                    return Err(Error::Internal(format!(
                        "method '{method}' has no one-vs-rest form ({other:?})"
                    )))
                }
            });
        }
        Ok(match self {
            Learner::Tree(p) => Model::Tree(fit_trait(p, data, weights).map_err(fail)?),
            Learner::Forest(p) => Model::Forest(fit_trait(p, data, weights).map_err(fail)?),
            Learner::AdaBoost(p) => Model::AdaBoost(fit_trait(p, data, weights).map_err(fail)?),
            Learner::GradientBoosting(p) => {
                Model::GradientBoosting(fit_trait(p, data, weights).map_err(fail)?)
            }
            Learner::Mirco(p) => Model::Mirco(fit_trait(p, data, weights).map_err(fail)?),
            Learner::Rux(p) => Model::Rux(fit_trait(p, data, weights).map_err(fail)?),
            Learner::RcBoost(p) => Model::RcBoost(fit_trait(p, data, weights).map_err(fail)?),
            Learner::Rug(p) => Model::Rug(fit_trait(p, data, weights).map_err(fail)?),
            Learner::Glrm(p) => Model::Glrm(fit_trait(p, data, weights).map_err(fail)?),
            Learner::RuleFit(p) => Model::Glrm(fit_trait(p, data, weights).map_err(fail)?),
            Learner::Gbt {
                binarizer,
                boosting,
            } => {
                let binarizer = match weights {
                    Some(w) => binarizer.fit_weighted(data, w),
                    None => binarizer.fit(data),
                }
                .map_err(|e| fail(e.into()))?;
                let indicators = binarizer
                    .indicator_dataset(data)
                    .map_err(|e| fail(e.into()))?;
                let boosting = fit_trait(boosting, &indicators, weights).map_err(fail)?;
                Model::Gbt(GbtModel {
                    binarizer,
                    boosting,
                })
            }
            Learner::Nre(p) => Model::Nre(Box::new(fit_trait(p, data, weights).map_err(fail)?)),
            Learner::Mlp(p) => Model::Mlp(fit_trait(p, data, weights).map_err(fail)?),
        })
    }
}

/// Fits through [`Fit`]'s one fit path, with the sample weights when given.
fn fit_trait<P: Fit>(
    params: &P,
    data: &Dataset,
    weights: Option<&[f64]>,
) -> std::result::Result<P::Model, Box<dyn std::error::Error + Send + Sync>> {
    params.fit_with_weights(data, weights).map_err(Into::into)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::methods;

    /// Checks the built params' ranges the way each crate's fit does.
    fn validate(l: &Learner) -> std::result::Result<(), String> {
        let s = |e: &dyn std::fmt::Display| e.to_string();
        match l {
            Learner::Tree(p) => p.validate().map_err(|e| s(&e)),
            Learner::Forest(p) => p.validate().map_err(|e| s(&e)),
            Learner::AdaBoost(p) => p.validate().map_err(|e| s(&e)),
            Learner::GradientBoosting(p) => p.validate().map_err(|e| s(&e)),
            Learner::Mirco(p) => p.validate().map_err(|e| s(&e)),
            Learner::Rux(p) => p.validate().map_err(|e| s(&e)),
            Learner::RcBoost(p) => p.validate().map_err(|e| s(&e)),
            Learner::Rug(p) => p.validate().map_err(|e| s(&e)),
            Learner::Glrm(p) => p.validate().map_err(|e| s(&e)),
            Learner::RuleFit(p) => p.validate().map_err(|e| s(&e)),
            Learner::Gbt {
                binarizer,
                boosting,
            } => {
                binarizer.validate().map_err(|e| s(&e))?;
                boosting.validate().map_err(|e| s(&e))
            }
            Learner::Nre(p) => p.validate().map_err(|e| s(&e)),
            Learner::Mlp(p) => p.validate().map_err(|e| s(&e)),
        }
    }

    #[test]
    fn every_default_builds_valid_params_for_every_task() {
        let empty: Vec<(String, String)> = Vec::new();
        for spec in methods().iter().filter(|m| !m.is_relational()) {
            let args = Args::resolve(spec.id, spec.params, &empty).unwrap();
            for &task in spec.tasks {
                let learner = Learner::build(spec, &args, task, 25)
                    .unwrap_or_else(|e| panic!("{} {task}: {e}", spec.id));
                validate(&learner).unwrap_or_else(|e| panic!("{} {task}: {e}", spec.id));
            }
        }
    }

    #[test]
    fn presets_match_the_papers_runs() {
        let empty: Vec<(String, String)> = Vec::new();
        let build = |id: &str| {
            let spec = crate::methods::method(id).unwrap();
            let args = Args::resolve(spec.id, spec.params, &empty).unwrap();
            Learner::build(spec, &args, Task::Binary, 25).unwrap()
        };
        match build("rug-t") {
            Learner::Rug(p) => assert_eq!(p, RugParams::rug_t().seed(25)),
            other => panic!("{other:?}"),
        }
        match build("rug") {
            Learner::Rug(p) => assert_eq!(p, RugParams::default().seed(25)),
            other => panic!("{other:?}"),
        }
        match build("rux-ada") {
            Learner::Rux(rux) => {
                let RuxBase::AdaBoost(ada) = &rux.base else {
                    panic!("{rux:?}")
                };
                assert_eq!(ada.algorithm, AdaBoostAlgorithm::Samme);
                let preset = RuxParams::for_adaboost();
                assert_eq!(rux.clone().base(preset.base.clone()), preset);
            }
            other => panic!("{other:?}"),
        }
        match build("rux-rf") {
            Learner::Rux(rux) => {
                assert!(matches!(rux.base, RuxBase::Forest(_)), "{rux:?}");
                let preset = RuxParams::for_forest();
                assert_eq!(rux.clone().base(preset.base.clone()), preset);
            }
            other => panic!("{other:?}"),
        }
        for (id, preset) in [
            ("lr1", GlrmParams::lr1()),
            ("lrr", GlrmParams::lrr()),
            ("lr1n", GlrmParams::lr1n()),
            ("lrrn", GlrmParams::lrrn()),
            ("linear-rule", GlrmParams::lrr()),
        ] {
            match build(id) {
                Learner::Glrm(p) => assert_eq!(p, preset, "{id}"),
                other => panic!("{other:?}"),
            }
        }
        match build("rcboost") {
            Learner::RcBoost(p) => assert_eq!(p, RcBoostParams::default().seed(25)),
            other => panic!("{other:?}"),
        }
        match build("mirco") {
            Learner::Mirco(mirco) => {
                assert_eq!(mirco.forest.tree.random_stream, RandomStream::Sklearn);
                let preset = MircoParams::default();
                assert_eq!(mirco.clone().forest(preset.forest.clone()), preset);
            }
            other => panic!("{other:?}"),
        }
        match build("nre-deep") {
            Learner::Nre(p) => assert_eq!(
                p,
                NreParams::default()
                    .deep(true)
                    .constant_features(ConstantFeatures::Ignore)
                    .seed(25)
            ),
            other => panic!("{other:?}"),
        }
    }
}
