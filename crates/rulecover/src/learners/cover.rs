//! rc-cover's and rc-colgen's methods: `mirco`, `rcboost`, `rux-rf`,
//! `rux-ada`, `rug`, `rug-t`.

use rc_colgen::{RcBoostModel, RcBoostParams, RugModel, RugParams};
use rc_cover::{
    CoverSolver, Impurity, LeafLabel, MircoModel, MircoParams, MulticlassVote, RuleCost, RuleProba,
    RuxBase, RuxParams, Uncovered, WeightedRuleModel,
};
use rc_tree::{AdaBoostParams, MaxFeatures, RandomForestParams};
use serde_json::Value;

use crate::error::{Error, Result};
use crate::learners::common::{p, CLS, CLS_REG, INT0, INT1, OPT_DEPTH};
use crate::learners::tree::{
    ada_algorithm, forest_base, max_features, random_stream, PAPER000_DEPTHS, PAPER000_ENSEMBLE,
    RF_MAX_FEATURES,
};
use crate::method::{table_method, GridAxis, MethodSpec, TableJob, TableMethod};
use crate::model::{rule_model_kinds, Model};
use crate::params::{Args, ParamKind, ParamSpec};

rule_model_kinds!(MircoModel, WeightedRuleModel, RcBoostModel, RugModel);

const IMPURITY: ParamSpec = p(
    "impurity",
    ParamKind::Choice(&["gini", "entropy"]),
    "gini",
    "impurity in the rule cost 1 + impurity (classification)",
);

const PROBA: ParamSpec = p(
    "proba",
    ParamKind::Choice(&["calibrated", "vote"]),
    "calibrated",
    "class probabilities: calibrated on the training rows (MIRCO, RCBoost: rule counts smoothed, strength by leave-one-out; RUX, RUG: a softmax of the weighted vote) or the paper's vote (the reproduced tables)",
);

const CLASS_COPIES_DOC: &str = "with more than two classes, also offer the LP each rule voting for every other class holding at least 1/K of its training rows (false: one class per rule, as the paper)";
const CLASS_COPIES: ParamSpec = p("class_copies", ParamKind::Bool, "true", CLASS_COPIES_DOC);
/// rux-rf votes by frequencies with more than two classes, where copies
/// of a rule only move the LP's choice (and lowered held-out accuracy).
const NO_CLASS_COPIES: ParamSpec = p("class_copies", ParamKind::Bool, "false", CLASS_COPIES_DOC);

const MULTICLASS_VOTE_DOC: &str = "with more than two classes, what a covering rule adds to the vote: its weight to its class (the paper) or spread by its training class frequencies (as a forest averages its leaves)";
const MULTICLASS_VOTE_LABEL: ParamSpec = p(
    "multiclass_vote",
    ParamKind::Choice(&["label", "frequencies"]),
    "label",
    MULTICLASS_VOTE_DOC,
);
const MULTICLASS_VOTE_FREQUENCIES: ParamSpec = p(
    "multiclass_vote",
    ParamKind::Choice(&["label", "frequencies"]),
    "frequencies",
    MULTICLASS_VOTE_DOC,
);

const MIRCO_PARAMS: &[ParamSpec] = &[
    p(
        "n_estimators",
        INT1,
        "100",
        "trees of the random forest whose rules are covered (paper tunes {10,50,100})",
    ),
    p(
        "max_depth",
        OPT_DEPTH,
        "10",
        "depth of the forest's trees (paper tunes {5,10,20})",
    ),
    RF_MAX_FEATURES,
    p(
        "random_stream",
        ParamKind::Choice(&["native", "sklearn"]),
        "sklearn",
        "forest's random streams: scikit-learn's (the paper's forests; seed < 2^32) or native",
    ),
    IMPURITY,
    p(
        "mse_scale",
        ParamKind::Float,
        "1.0",
        "multiplier of the leaf MSE in the regression cost 1 + s*MSE (>= 0)",
    ),
    p(
        "solver",
        ParamKind::Choice(&["greedy", "exact"]),
        "greedy",
        "set cover by Chvatal's greedy (the paper) or the exact MIP from the greedy cover",
    ),
    p(
        "time_limit",
        ParamKind::Float,
        "60.0",
        "seconds allowed to the exact MIP (solver=exact only)",
    ),
    PROBA,
];

const RCBOOST_PARAMS: &[ParamSpec] = &[
    p(
        "max_depth",
        OPT_DEPTH,
        "10",
        "depth of the pricing trees (paper tunes {5,10,20}; code default 10)",
    ),
    p(
        "max_rmp_calls",
        INT1,
        "100",
        "cap on master LP solves (paper tunes {5,10,50,100,200}; code default 100)",
    ),
    IMPURITY,
    PROBA,
];

const EPS: ParamSpec = p(
    "eps",
    ParamKind::Float,
    "0.01",
    "right-hand side of the LP's coverage rows (> 0; 0.01 in all experiments)",
);
const NORMALIZE_COSTS: ParamSpec = p(
    "normalize_costs",
    ParamKind::Bool,
    "true",
    "divide every rule cost by the largest (the authors' code)",
);
const THRESHOLD: ParamSpec = p(
    "threshold",
    ParamKind::Float,
    "1e-6",
    "drop rules whose weight over the largest weight is at most this, in [0, 1)",
);
const UNCOVERED: ParamSpec = p(
    "uncovered",
    ParamKind::Choice(&["first_estimator", "majority_class"]),
    "first_estimator",
    "prediction for a row no rule covers: the first tree's leaf (authors' code) or the majority class",
);
const LEAF_LABEL: ParamSpec = p(
    "leaf_label",
    ParamKind::Choice(&["balanced", "training_majority", "estimator"]),
    "balanced",
    "class a rule votes for: the class with the largest share of its training rows covered (class-balanced majority; keeps minority-class rules on imbalanced data), the unweighted training majority (authors' code, paper001 tables) or its tree's own prediction (boosting/bootstrap weights)",
);
const COST_CHOICES: &[&str] = &["rule_length", "uniform", "inverse_estimator_weight"];
const COST_RULE_LENGTH: ParamSpec = p(
    "cost",
    ParamKind::Choice(COST_CHOICES),
    "rule_length",
    "rule cost: number of features tested (paper), 1, or 1/(alpha + 1e-4) of the rule's tree",
);
const RUX_DEPTH: ParamSpec = p(
    "max_depth",
    OPT_DEPTH,
    "2",
    "depth of the ensemble's trees (paper tunes {1,2,3})",
);
const RUX_TREES: ParamSpec = p(
    "n_estimators",
    INT1,
    "100",
    "trees of the ensemble whose rules are weighted (paper tunes {100,200})",
);

const RUX_RF_PARAMS: &[ParamSpec] = &[
    RUX_TREES,
    RUX_DEPTH,
    RF_MAX_FEATURES,
    EPS,
    COST_RULE_LENGTH,
    NORMALIZE_COSTS,
    THRESHOLD,
    UNCOVERED,
    LEAF_LABEL,
    PROBA,
    NO_CLASS_COPIES,
    MULTICLASS_VOTE_FREQUENCIES,
];

const RUX_ADA_PARAMS: &[ParamSpec] = &[
    RUX_TREES,
    RUX_DEPTH,
    p(
        "algorithm",
        ParamKind::Choice(&["samme", "samme.r"]),
        "samme",
        "AdaBoost variant of the ensemble (the paper: SAMME)",
    ),
    EPS,
    p(
        "cost",
        ParamKind::Choice(COST_CHOICES),
        "inverse_estimator_weight",
        "rule cost: 1/(alpha + 1e-4) of the rule's tree (paper), features tested, or 1",
    ),
    NORMALIZE_COSTS,
    THRESHOLD,
    UNCOVERED,
    LEAF_LABEL,
    PROBA,
    CLASS_COPIES,
    MULTICLASS_VOTE_LABEL,
];

const RUG_DEPTH: ParamSpec = p(
    "max_depth",
    OPT_DEPTH,
    "2",
    "depth of the initial and pricing trees (paper tunes {1,2,3}; code default 2)",
);

const RUG_PARAMS: &[ParamSpec] = &[
    RUG_DEPTH,
    p(
        "max_rmp_calls",
        INT0,
        "30",
        "cap on pricing rounds, each followed by an LP solve (code default 30)",
    ),
    p(
        "min_weight",
        ParamKind::OptFloat,
        "none",
        "keep only rules with normalised weight >= this for prediction; none keeps all",
    ),
    EPS,
    COST_RULE_LENGTH,
    NORMALIZE_COSTS,
    THRESHOLD,
    UNCOVERED,
    LEAF_LABEL,
    PROBA,
    CLASS_COPIES,
    MULTICLASS_VOTE_LABEL,
];

const RUG_T_PARAMS: &[ParamSpec] = &[
    RUG_DEPTH,
    p(
        "max_rmp_calls",
        INT0,
        "5",
        "cap on pricing rounds (RUG-T: 5)",
    ),
    p(
        "min_weight",
        ParamKind::OptFloat,
        "0.05",
        "keep only rules with normalised weight >= this (RUG-T: 0.05)",
    ),
    EPS,
    COST_RULE_LENGTH,
    NORMALIZE_COSTS,
    THRESHOLD,
    UNCOVERED,
    LEAF_LABEL,
    PROBA,
    CLASS_COPIES,
    MULTICLASS_VOTE_LABEL,
];

/// Paper 001's depth axis (every method of its suite).
const PAPER001_DEPTHS: GridAxis = GridAxis::new("max_depth", &["1", "2", "3"]);
/// Paper 001's grid of the ensembles under RUX: depth × number of trees.
const PAPER001_ENSEMBLE: &[GridAxis] = &[
    PAPER001_DEPTHS,
    GridAxis::new("n_estimators", &["100", "200"]),
];

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
        .uncovered(uncovered)
        .proba(proba(args)?)
        .class_copies(args.bool("class_copies")?)
        .multiclass_vote(match args.choice("multiclass_vote")? {
            "label" => MulticlassVote::Label,
            "frequencies" => MulticlassVote::Frequencies,
            other => return Err(args.unhandled("multiclass_vote", other)),
        }))
}

/// How the rule-vote methods form class probabilities.
fn proba(args: &Args) -> Result<RuleProba> {
    Ok(match args.choice("proba")? {
        "calibrated" => RuleProba::Calibrated,
        "vote" => RuleProba::Vote,
        other => return Err(args.unhandled("proba", other)),
    })
}

/// The class RUX's and RUG's rules vote for.
fn leaf_label(args: &Args) -> Result<LeafLabel> {
    Ok(match args.choice("leaf_label")? {
        "balanced" => LeafLabel::Balanced,
        "estimator" => LeafLabel::Estimator,
        "training_majority" => LeafLabel::TrainingMajority,
        other => return Err(args.unhandled("leaf_label", other)),
    })
}

/// `mirco`: the minimum-cost cover of a random forest's rules.
pub(crate) struct Mirco;

static MIRCO: MethodSpec = MethodSpec::new(
    "mirco",
    "MIRCO: the minimum-cost set of a random forest's rules covering every training row",
    "000",
    CLS_REG,
    MIRCO_PARAMS,
)
.aliases(&["RF+MIRCO"])
.grid(PAPER000_ENSEMBLE)
.smoke(&[("n_estimators", "5"), ("max_depth", "4")]);

impl Mirco {
    /// rc-cover's params for `args`.
    pub(crate) fn params(&self, args: &Args, regression: bool, seed: u64) -> Result<MircoParams> {
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
                    std::time::Duration::try_from_secs_f64(secs).map_err(|_| Error::BadValue {
                        method: MIRCO.id.into(),
                        name: "time_limit".into(),
                        value: secs.to_string(),
                        expected: "a non-negative number of seconds".into(),
                    })?;
                CoverSolver::Exact { time_limit }
            }
            other => return Err(args.unhandled("solver", other)),
        };
        Ok(MircoParams::default()
            .impurity(impurity(args)?)
            .mse_scale(args.float("mse_scale")?)
            .solver(solver)
            .forest(forest)
            .proba(proba(args)?))
    }
}

table_method!(Mirco, MIRCO);

impl TableMethod for Mirco {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit(&self.params(job.args(), job.regression(), job.seed())?)
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<MircoModel>(value)
    }
}

/// `rcboost`: rule covering by column generation.
pub(crate) struct RcBoost;

static RCBOOST: MethodSpec = MethodSpec::new(
    "rcboost",
    "RCBoost: rule covering by column generation with weighted pricing trees",
    "000",
    CLS,
    RCBOOST_PARAMS,
)
.aliases(&["RCB", "RCB+iniDT"])
.grid(&[
    PAPER000_DEPTHS,
    GridAxis::new("max_rmp_calls", &["5", "10", "50", "100", "200"]),
])
.smoke(&[("max_depth", "3"), ("max_rmp_calls", "3")]);

impl RcBoost {
    /// rc-colgen's params for `args`.
    pub(crate) fn params(&self, args: &Args, seed: u64) -> Result<RcBoostParams> {
        Ok(RcBoostParams::default()
            .max_depth(args.opt_int("max_depth")?)
            .max_rmp_calls(args.int("max_rmp_calls")?)
            .impurity(impurity(args)?)
            .proba(proba(args)?)
            .seed(seed))
    }
}

table_method!(RcBoost, RCBOOST);

impl TableMethod for RcBoost {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit(&self.params(job.args(), job.seed())?)
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<RcBoostModel>(value)
    }
}

/// `rux-rf`: RUX on a random forest.
pub(crate) struct RuxRf;

static RUX_RF: MethodSpec = MethodSpec::new(
    "rux-rf",
    "RUX on a random forest: one LP weights the forest's rules, rule-length costs",
    "001",
    CLS,
    RUX_RF_PARAMS,
)
.aliases(&["RF+RUX", "RUX_RF"])
.grid(PAPER001_ENSEMBLE)
.smoke(&[("n_estimators", "5")]);

impl RuxRf {
    /// rc-cover's params for `args`.
    pub(crate) fn params(&self, args: &Args, seed: u64) -> Result<RuxParams> {
        Ok(rux_params(args)?
            .leaf_label(leaf_label(args)?)
            .base(RuxBase::Forest(
                RandomForestParams::classifier()
                    .n_estimators(args.int("n_estimators")?)
                    .max_depth(args.opt_int("max_depth")?)
                    .max_features(max_features(args, MaxFeatures::Sqrt)?)
                    .seed(seed),
            )))
    }
}

table_method!(RuxRf, RUX_RF);

impl TableMethod for RuxRf {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit(&self.params(job.args(), job.seed())?)
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<WeightedRuleModel>(value)
    }
}

/// `rux-ada`: RUX on AdaBoost.
pub(crate) struct RuxAda;

static RUX_ADA: MethodSpec = MethodSpec::new(
    "rux-ada",
    "RUX on AdaBoost (SAMME): one LP weights the ensemble's rules, 1/alpha costs",
    "001",
    CLS,
    RUX_ADA_PARAMS,
)
.aliases(&["ADA+RUX", "RUX_ADA"])
.grid(PAPER001_ENSEMBLE)
.smoke(&[("n_estimators", "5")]);

impl RuxAda {
    /// rc-cover's params for `args`.
    pub(crate) fn params(&self, args: &Args, seed: u64) -> Result<RuxParams> {
        Ok(rux_params(args)?
            .leaf_label(leaf_label(args)?)
            .base(RuxBase::AdaBoost(
                AdaBoostParams::new()
                    .n_estimators(args.int("n_estimators")?)
                    .max_depth(args.opt_int("max_depth")?)
                    .algorithm(ada_algorithm(args)?)
                    .seed(seed),
            )))
    }
}

table_method!(RuxAda, RUX_ADA);

impl TableMethod for RuxAda {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit(&self.params(job.args(), job.seed())?)
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<WeightedRuleModel>(value)
    }
}

/// RUG's params for `args`: `rug` and `rug-t` differ in their defaults
/// only.
fn rug_params(args: &Args, seed: u64) -> Result<RugParams> {
    Ok(RugParams::default()
        .lp(rux_params(args)?.leaf_label(leaf_label(args)?))
        .max_depth(args.opt_int("max_depth")?)
        .max_rmp_calls(args.int("max_rmp_calls")?)
        .min_weight(args.opt_float("min_weight")?)
        .seed(seed))
}

/// `rug`: rules by column generation.
pub(crate) struct Rug;

static RUG: MethodSpec = MethodSpec::new(
    "rug",
    "RUG: rules by column generation with weighted pricing trees and an LP",
    "001",
    CLS,
    RUG_PARAMS,
)
.grid(&[PAPER001_DEPTHS])
.smoke(&[("max_rmp_calls", "3")]);

table_method!(Rug, RUG);

impl TableMethod for Rug {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit(&rug_params(job.args(), job.seed())?)
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<RugModel>(value)
    }
}

/// `rug-t`: RUG with few pricing rounds and a weight threshold.
pub(crate) struct RugT;

static RUG_T: MethodSpec = MethodSpec::new(
    "rug-t",
    "RUG-T: RUG with 5 pricing rounds, keeping rules of normalised weight >= 0.05",
    "001",
    CLS,
    RUG_T_PARAMS,
)
.aliases(&["RUG_T"])
.grid(&[PAPER001_DEPTHS]);

table_method!(RugT, RUG_T);

impl TableMethod for RugT {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit(&rug_params(job.args(), job.seed())?)
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<RugModel>(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learners::common::defaults;
    use rc_tree::{AdaBoostAlgorithm, RandomStream};

    #[test]
    fn every_default_builds_valid_params_for_every_task() {
        for regression in [false, true] {
            Mirco
                .params(&defaults(&MIRCO), regression, 25)
                .unwrap()
                .validate()
                .unwrap();
        }
        RcBoost
            .params(&defaults(&RCBOOST), 25)
            .unwrap()
            .validate()
            .unwrap();
        RuxRf
            .params(&defaults(&RUX_RF), 25)
            .unwrap()
            .validate()
            .unwrap();
        RuxAda
            .params(&defaults(&RUX_ADA), 25)
            .unwrap()
            .validate()
            .unwrap();
        rug_params(&defaults(&RUG), 25).unwrap().validate().unwrap();
        rug_params(&defaults(&RUG_T), 25)
            .unwrap()
            .validate()
            .unwrap();
    }

    /// The registry's defaults with the paper's rule labels, vote and one
    /// class per rule.
    fn paper_args(spec: &'static MethodSpec, rug: bool) -> Args {
        let mut given = vec![
            ("proba".to_string(), "vote".to_string()),
            ("class_copies".to_string(), "false".to_string()),
            ("multiclass_vote".to_string(), "label".to_string()),
        ];
        if rug {
            given.push(("leaf_label".into(), "training_majority".into()));
        }
        Args::resolve(spec.id, spec.params, &given).unwrap()
    }

    #[test]
    fn registry_defaults_differ_from_the_presets_in_labels_and_probabilities_only() {
        let rug = rug_params(&defaults(&RUG), 25).unwrap();
        assert_eq!(rug.lp.leaf_label, LeafLabel::Balanced);
        assert_eq!(rug.lp.proba, RuleProba::Calibrated);
        assert!(rug.lp.class_copies);
        let paper = RugParams::default().seed(25);
        assert_eq!(
            rug.lp(paper
                .lp
                .clone()
                .leaf_label(LeafLabel::Balanced)
                .proba(RuleProba::Calibrated)
                .class_copies(true)),
            paper.clone().lp(paper
                .lp
                .clone()
                .leaf_label(LeafLabel::Balanced)
                .proba(RuleProba::Calibrated)
                .class_copies(true))
        );
        let rux = RuxRf.params(&defaults(&RUX_RF), 25).unwrap();
        assert_eq!(
            (rux.proba, rux.class_copies),
            (RuleProba::Calibrated, false)
        );
        assert_eq!(rux.multiclass_vote, MulticlassVote::Frequencies);
        let ada = RuxAda.params(&defaults(&RUX_ADA), 25).unwrap();
        assert_eq!(ada.multiclass_vote, MulticlassVote::Label);
        let rcb = RcBoost.params(&defaults(&RCBOOST), 25).unwrap();
        assert_eq!(
            rcb.proba(RuleProba::Vote),
            RcBoostParams::default().seed(25)
        );
        let mirco = Mirco.params(&defaults(&MIRCO), false, 25).unwrap();
        assert_eq!(mirco.proba, RuleProba::Calibrated);
    }

    #[test]
    fn presets_match_the_papers_runs() {
        assert_eq!(
            rug_params(&paper_args(&RUG_T, true), 25).unwrap(),
            RugParams::rug_t().seed(25)
        );
        assert_eq!(
            rug_params(&paper_args(&RUG, true), 25).unwrap(),
            RugParams::default().seed(25)
        );
        let rux = RuxAda.params(&paper_args(&RUX_ADA, false), 25).unwrap();
        let RuxBase::AdaBoost(ada) = &rux.base else {
            panic!("{rux:?}")
        };
        assert_eq!(ada.algorithm, AdaBoostAlgorithm::Samme);
        let preset = RuxParams::for_adaboost();
        assert_eq!(rux.clone().base(preset.base.clone()), preset);

        let rux = RuxRf.params(&paper_args(&RUX_RF, false), 25).unwrap();
        assert!(matches!(rux.base, RuxBase::Forest(_)), "{rux:?}");
        let preset = RuxParams::for_forest();
        assert_eq!(rux.clone().base(preset.base.clone()), preset);

        let rcb_args = Args::resolve(
            RCBOOST.id,
            RCBOOST.params,
            &[("proba".into(), "vote".into())],
        );
        assert_eq!(
            RcBoost.params(&rcb_args.unwrap(), 25).unwrap(),
            RcBoostParams::default().seed(25)
        );
        let mirco_args = Args::resolve(MIRCO.id, MIRCO.params, &[("proba".into(), "vote".into())]);
        let mirco = Mirco.params(&mirco_args.unwrap(), false, 25).unwrap();
        assert_eq!(mirco.forest.tree.random_stream, RandomStream::Sklearn);
        let preset = MircoParams::default();
        assert_eq!(mirco.clone().forest(preset.forest.clone()), preset);
    }
}
