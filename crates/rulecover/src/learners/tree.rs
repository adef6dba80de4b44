//! rc-tree's methods: `dt`, `rf`, `ada`, `gb`, and the tree parameters
//! the other items share.

use rc_tree::{
    AdaBoost, AdaBoostAlgorithm, AdaBoostParams, Criterion, DecisionTree, DecisionTreeParams,
    GradientBoosting, GradientBoostingParams, MaxFeatures, RandomForest, RandomForestParams,
    RandomStream,
};
use serde_json::Value;

use crate::error::Result;
use crate::learners::common::{p, CLS, CLS_REG, INT1, OPT_DEPTH};
use crate::method::{table_method, GridAxis, MethodSpec, TableJob, TableMethod};
use crate::model::{rule_model_kinds, Model};
use crate::params::{Args, ParamKind, ParamSpec};

rule_model_kinds!(DecisionTree, RandomForest, AdaBoost, GradientBoosting);

const CRITERION: ParamSpec = p(
    "criterion",
    ParamKind::Choice(&["auto", "gini", "entropy", "squared_error"]),
    "auto",
    "split criterion; auto = gini for classes, squared_error for a real target",
);
pub(crate) const MIN_SAMPLES_SPLIT: ParamSpec = p(
    "min_samples_split",
    ParamKind::Int { min: 2 },
    "2",
    "a node with fewer rows is not split",
);
pub(crate) const MIN_SAMPLES_LEAF: ParamSpec = p(
    "min_samples_leaf",
    INT1,
    "1",
    "each child of a split keeps at least this many rows",
);
const RANDOM_STREAM: ParamSpec = p(
    "random_stream",
    ParamKind::Choice(&["native", "sklearn"]),
    "native",
    "random streams: native, or scikit-learn's for random_state = seed (seed < 2^32)",
);
pub(crate) const RF_MAX_FEATURES: ParamSpec = p(
    "max_features",
    ParamKind::MaxFeatures,
    "auto",
    "features tried per split; auto = sqrt for classes, all for a real target",
);
const BOOTSTRAP: ParamSpec = p(
    "bootstrap",
    ParamKind::Bool,
    "true",
    "grow each tree on a bootstrap sample",
);
const MAX_SAMPLES: ParamSpec = p(
    "max_samples",
    OPT_DEPTH,
    "none",
    "bootstrap draws per tree; none = as many as rows",
);
const ALL_MAX_FEATURES: ParamSpec = p(
    "max_features",
    ParamKind::MaxFeatures,
    "all",
    "features tried per split (auto = all)",
);

const DT_PARAMS: &[ParamSpec] = &[
    CRITERION,
    p(
        "max_depth",
        OPT_DEPTH,
        "none",
        "maximum depth; none = grow until pure (papers tune {5,10,20} / {2,...,10})",
    ),
    MIN_SAMPLES_SPLIT,
    MIN_SAMPLES_LEAF,
    ALL_MAX_FEATURES,
    RANDOM_STREAM,
];

const RF_PARAMS: &[ParamSpec] = &[
    p(
        "n_estimators",
        INT1,
        "100",
        "number of trees (papers tune {10,50,100} / {32,...,512})",
    ),
    CRITERION,
    p(
        "max_depth",
        OPT_DEPTH,
        "none",
        "maximum depth of each tree; none = unlimited",
    ),
    MIN_SAMPLES_SPLIT,
    MIN_SAMPLES_LEAF,
    RF_MAX_FEATURES,
    BOOTSTRAP,
    MAX_SAMPLES,
    RANDOM_STREAM,
];

const ADA_PARAMS: &[ParamSpec] = &[
    p(
        "n_estimators",
        INT1,
        "50",
        "maximum boosting rounds (paper 000 tunes {10,50,100})",
    ),
    p(
        "learning_rate",
        ParamKind::Float,
        "1.0",
        "shrinkage of each round (> 0)",
    ),
    p(
        "algorithm",
        ParamKind::Choice(&["samme.r", "samme"]),
        "samme.r",
        "SAMME.R (real, paper 000) or SAMME (discrete, paper 001)",
    ),
    p(
        "max_depth",
        OPT_DEPTH,
        "1",
        "depth of the base trees (1 = stumps; paper 000 tunes {5,10,20})",
    ),
    RANDOM_STREAM,
];

pub(crate) const GB_LEARNING_RATE: ParamSpec = p(
    "learning_rate",
    ParamKind::Float,
    "0.1",
    "shrinkage of each stage (> 0)",
);
pub(crate) const GB_SUBSAMPLE: ParamSpec = p(
    "subsample",
    ParamKind::Float,
    "1.0",
    "fraction of rows drawn for each stage, in (0, 1]",
);

const GB_PARAMS: &[ParamSpec] = &[
    p(
        "n_estimators",
        INT1,
        "100",
        "boosting stages (paper 000 tunes {10,50,100})",
    ),
    GB_LEARNING_RATE,
    p(
        "max_depth",
        OPT_DEPTH,
        "3",
        "depth of the regression trees (papers tune {5,10,20} / {2,...,10})",
    ),
    GB_SUBSAMPLE,
    MIN_SAMPLES_SPLIT,
    MIN_SAMPLES_LEAF,
    ALL_MAX_FEATURES,
];

/// Paper 000's depth axis (every method of its suite).
pub(crate) const PAPER000_DEPTHS: GridAxis = GridAxis::new("max_depth", &["5", "10", "20"]);
/// Paper 000's grid of the tree ensembles (RF, ADA, GB, and MIRCO's
/// forest): depth × number of trees.
pub(crate) const PAPER000_ENSEMBLE: &[GridAxis] = &[
    PAPER000_DEPTHS,
    GridAxis::new("n_estimators", &["10", "50", "100"]),
];
/// Paper 004's depth axis (NRE, and the DT and GB baselines).
pub(crate) const PAPER004_DEPTHS: GridAxis =
    GridAxis::new("max_depth", &["2", "4", "6", "8", "10"]);

fn criterion(args: &Args, regression: bool) -> Result<Criterion> {
    Ok(match args.choice("criterion")? {
        "auto" if regression => Criterion::SquaredError,
        "auto" | "gini" => Criterion::Gini,
        "entropy" => Criterion::Entropy,
        "squared_error" => Criterion::SquaredError,
        other => return Err(args.unhandled("criterion", other)),
    })
}

/// `random_stream`: native or scikit-learn's streams.
pub(crate) fn random_stream(args: &Args) -> Result<RandomStream> {
    Ok(match args.choice("random_stream")? {
        "native" => RandomStream::Native,
        "sklearn" => RandomStream::Sklearn,
        other => return Err(args.unhandled("random_stream", other)),
    })
}

/// `max_features`, with `auto` replaced by `auto_value`.
pub(crate) fn max_features(args: &Args, auto_value: MaxFeatures) -> Result<MaxFeatures> {
    Ok(args.max_features("max_features")?.unwrap_or(auto_value))
}

/// The forest preset of the task and what `max_features = auto` means
/// for it.
pub(crate) fn forest_base(regression: bool) -> (RandomForestParams, MaxFeatures) {
    if regression {
        (RandomForestParams::regressor(), MaxFeatures::All)
    } else {
        (RandomForestParams::classifier(), MaxFeatures::Sqrt)
    }
}

/// `algorithm` of AdaBoost.
pub(crate) fn ada_algorithm(args: &Args) -> Result<AdaBoostAlgorithm> {
    Ok(match args.choice("algorithm")? {
        "samme" => AdaBoostAlgorithm::Samme,
        "samme.r" => AdaBoostAlgorithm::SammeR,
        other => return Err(args.unhandled("algorithm", other)),
    })
}

/// `dt`: a CART decision tree.
pub(crate) struct Dt;

static DT: MethodSpec = MethodSpec::new(
    "dt",
    "CART decision tree (scikit-learn's DecisionTreeClassifier/Regressor)",
    "",
    CLS_REG,
    DT_PARAMS,
)
.aliases(&["DecisionTree", "CART"])
.grid(&[PAPER000_DEPTHS])
.paper_grids(&[
    ("001", &[GridAxis::new("max_depth", &["1", "2", "3"])]),
    ("004", &[PAPER004_DEPTHS]),
])
.smoke(&[("max_depth", "4")]);

impl Dt {
    /// rc-tree's params for `args`.
    pub(crate) fn params(
        &self,
        args: &Args,
        regression: bool,
        seed: u64,
    ) -> Result<DecisionTreeParams> {
        let base = if regression {
            DecisionTreeParams::regressor()
        } else {
            DecisionTreeParams::classifier()
        };
        Ok(base
            .criterion(criterion(args, regression)?)
            .max_depth(args.opt_int("max_depth")?)
            .min_samples_split(args.int("min_samples_split")?)
            .min_samples_leaf(args.int("min_samples_leaf")?)
            .max_features(max_features(args, MaxFeatures::All)?)
            .random_stream(random_stream(args)?)
            .seed(seed))
    }
}

table_method!(Dt, DT);

impl TableMethod for Dt {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit(&self.params(job.args(), job.regression(), job.seed())?)
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<DecisionTree>(value)
    }
}

/// `rf`: a random forest.
pub(crate) struct Rf;

static RF: MethodSpec = MethodSpec::new(
    "rf",
    "random forest of CART trees on bootstrap samples",
    "",
    CLS_REG,
    RF_PARAMS,
)
.aliases(&["RandomForest"])
.rules_printed_on_request()
.grid(PAPER000_ENSEMBLE)
.paper_grids(&[(
    "004",
    &[GridAxis::new(
        "n_estimators",
        &["32", "64", "128", "256", "512"],
    )],
)])
.smoke(&[("n_estimators", "5"), ("max_depth", "4")]);

impl Rf {
    /// rc-tree's params for `args`.
    pub(crate) fn params(
        &self,
        args: &Args,
        regression: bool,
        seed: u64,
    ) -> Result<RandomForestParams> {
        let (base, auto) = forest_base(regression);
        Ok(base
            .n_estimators(args.int("n_estimators")?)
            .criterion(criterion(args, regression)?)
            .max_depth(args.opt_int("max_depth")?)
            .min_samples_split(args.int("min_samples_split")?)
            .min_samples_leaf(args.int("min_samples_leaf")?)
            .max_features(max_features(args, auto)?)
            .bootstrap(args.bool("bootstrap")?)
            .max_samples(args.opt_int("max_samples")?)
            .random_stream(random_stream(args)?)
            .seed(seed))
    }
}

table_method!(Rf, RF);

impl TableMethod for Rf {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit(&self.params(job.args(), job.regression(), job.seed())?)
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<RandomForest>(value)
    }
}

/// `ada`: AdaBoost.
pub(crate) struct Ada;

static ADA: MethodSpec = MethodSpec::new(
    "ada",
    "AdaBoost (SAMME.R or SAMME) with decision-tree base learners",
    "",
    CLS,
    ADA_PARAMS,
)
.aliases(&["AdaBoost"])
.rules_printed_on_request()
.grid(PAPER000_ENSEMBLE)
.smoke(&[("n_estimators", "5"), ("max_depth", "2")]);

impl Ada {
    /// rc-tree's params for `args`.
    pub(crate) fn params(&self, args: &Args, seed: u64) -> Result<AdaBoostParams> {
        Ok(AdaBoostParams::new()
            .n_estimators(args.int("n_estimators")?)
            .learning_rate(args.float("learning_rate")?)
            .algorithm(ada_algorithm(args)?)
            .max_depth(args.opt_int("max_depth")?)
            .random_stream(random_stream(args)?)
            .seed(seed))
    }
}

table_method!(Ada, ADA);

impl TableMethod for Ada {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit(&self.params(job.args(), job.seed())?)
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<AdaBoost>(value)
    }
}

/// `gb`: gradient boosting.
pub(crate) struct Gb;

static GB: MethodSpec = MethodSpec::new(
    "gb",
    "gradient boosting with regression trees (deviance or squared loss)",
    "",
    CLS_REG,
    GB_PARAMS,
)
.aliases(&["GradientBoosting"])
.rules_printed_on_request()
.grid(PAPER000_ENSEMBLE)
.paper_grids(&[("004", &[PAPER004_DEPTHS])])
.smoke(&[("n_estimators", "5"), ("max_depth", "2")]);

impl Gb {
    /// rc-tree's params for `args`.
    pub(crate) fn params(&self, args: &Args, seed: u64) -> Result<GradientBoostingParams> {
        Ok(GradientBoostingParams::new()
            .n_estimators(args.int("n_estimators")?)
            .learning_rate(args.float("learning_rate")?)
            .max_depth(args.opt_int("max_depth")?)
            .subsample(args.float("subsample")?)
            .min_samples_split(args.int("min_samples_split")?)
            .min_samples_leaf(args.int("min_samples_leaf")?)
            .max_features(max_features(args, MaxFeatures::All)?)
            .seed(seed))
    }
}

table_method!(Gb, GB);

impl TableMethod for Gb {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit(&self.params(job.args(), job.seed())?)
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<GradientBoosting>(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learners::common::defaults;

    #[test]
    fn every_default_builds_valid_params_for_every_task() {
        for regression in [false, true] {
            let args = defaults(&DT);
            Dt.params(&args, regression, 25)
                .unwrap()
                .validate()
                .unwrap();
            let args = defaults(&RF);
            Rf.params(&args, regression, 25)
                .unwrap()
                .validate()
                .unwrap();
            let args = defaults(&GB);
            Gb.params(&args, 25).unwrap().validate().unwrap();
        }
        let args = defaults(&ADA);
        Ada.params(&args, 25).unwrap().validate().unwrap();
    }

    #[test]
    fn the_defaults_are_the_crates_presets() {
        assert_eq!(
            Dt.params(&defaults(&DT), false, 25).unwrap(),
            DecisionTreeParams::classifier().seed(25)
        );
        assert_eq!(
            Dt.params(&defaults(&DT), true, 25).unwrap(),
            DecisionTreeParams::regressor().seed(25)
        );
        assert_eq!(
            Rf.params(&defaults(&RF), false, 25).unwrap(),
            RandomForestParams::classifier().seed(25)
        );
        assert_eq!(
            Rf.params(&defaults(&RF), true, 25).unwrap(),
            RandomForestParams::regressor().seed(25)
        );
        assert_eq!(
            Ada.params(&defaults(&ADA), 25).unwrap(),
            AdaBoostParams::new().seed(25)
        );
        assert_eq!(
            Gb.params(&defaults(&GB), 25).unwrap(),
            GradientBoostingParams::new().seed(25)
        );
    }
}
