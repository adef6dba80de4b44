//! The method registry: one static table of every learner's id, what it
//! does, the targets it learns and its parameters with the papers'
//! defaults.
//!
//! Defaults follow the paper's setting where the paper fixes one, and the
//! crate's (scikit-learn's, the authors' code's) default where the paper
//! tunes the value; each parameter's doc names the paper's grid.

use std::fmt;

use crate::error::{Error, Result};
use crate::params::{ParamKind, ParamSpec};

/// A kind of learning problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Task {
    /// Two classes.
    Binary,
    /// More than two classes.
    Multiclass,
    /// A real-valued target.
    Regression,
    /// A relational target (BoostSRL facts and examples).
    Relational,
}

impl Task {
    /// The task's name.
    pub fn name(self) -> &'static str {
        match self {
            Task::Binary => "binary classification",
            Task::Multiclass => "multi-class classification",
            Task::Regression => "regression",
            Task::Relational => "relational classification",
        }
    }
}

impl fmt::Display for Task {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One registered method.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MethodSpec {
    /// The id (lower case, as in a model file's `kind`).
    pub id: &'static str,
    /// Other accepted spellings (the benchmark runner's names); ids and
    /// aliases match case-insensitively.
    pub aliases: &'static [&'static str],
    /// One line on what it is.
    pub summary: &'static str,
    /// The seed paper whose protocol sets the defaults (`000`–`004`), or
    /// `""` for a plain baseline.
    pub paper: &'static str,
    /// The targets it learns.
    pub tasks: &'static [Task],
    /// Whether the learner itself learns two classes only, and learns
    /// more by fitting one binary model per class against the rest
    /// ([`rulecover_core::OneVsRest`]); two classes go to the learner
    /// itself.
    pub one_vs_rest: bool,
    /// Its parameters.
    pub params: &'static [ParamSpec],
}

impl MethodSpec {
    /// Whether it learns from relational data ([`crate::fit_relational`])
    /// rather than a table ([`crate::fit`]).
    pub fn is_relational(&self) -> bool {
        self.tasks.contains(&Task::Relational)
    }

    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&'static ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Whether `name` is this method's id or one of its aliases
    /// (case-insensitive).
    pub fn answers_to(&self, name: &str) -> bool {
        self.id.eq_ignore_ascii_case(name)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    /// Whether a target of `n_classes` classes is fitted one-vs-rest:
    /// more than two classes for a method of [`MethodSpec::one_vs_rest`].
    pub fn fits_one_vs_rest(&self, n_classes: usize) -> bool {
        self.one_vs_rest && n_classes > 2
    }

    /// The supported tasks, comma separated, multi-class marked
    /// `(one-vs-rest)` for a method of [`MethodSpec::one_vs_rest`].
    pub fn task_list(&self) -> String {
        self.tasks
            .iter()
            .map(|&t| match t {
                Task::Multiclass if self.one_vs_rest => format!("{} (one-vs-rest)", t.name()),
                _ => t.name().to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Every registered method, in a fixed order.
pub fn methods() -> &'static [MethodSpec] {
    METHODS
}

/// The method with this id or alias (case-insensitive).
///
/// # Errors
/// [`Error::UnknownMethod`] listing the valid ids.
pub fn method(name: &str) -> Result<&'static MethodSpec> {
    let name = name.trim();
    METHODS
        .iter()
        .find(|m| m.answers_to(name))
        .ok_or_else(|| Error::UnknownMethod {
            given: name.into(),
            valid: method_ids().join(", "),
        })
}

/// The ids of every method, in table order.
pub fn method_ids() -> Vec<&'static str> {
    METHODS.iter().map(|m| m.id).collect()
}

const fn p(
    name: &'static str,
    kind: ParamKind,
    default: &'static str,
    doc: &'static str,
) -> ParamSpec {
    ParamSpec {
        name,
        kind,
        default,
        doc,
    }
}

const INT1: ParamKind = ParamKind::Int { min: 1 };
const INT0: ParamKind = ParamKind::Int { min: 0 };
const OPT_DEPTH: ParamKind = ParamKind::OptInt { min: 1 };

const CLS: &[Task] = &[Task::Binary, Task::Multiclass];
const CLS_REG: &[Task] = &[Task::Binary, Task::Multiclass, Task::Regression];
const REL: &[Task] = &[Task::Relational];

// --- rc-tree --------------------------------------------------------------

const CRITERION: ParamSpec = p(
    "criterion",
    ParamKind::Choice(&["auto", "gini", "entropy", "squared_error"]),
    "auto",
    "split criterion; auto = gini for classes, squared_error for a real target",
);
const MIN_SAMPLES_SPLIT: ParamSpec = p(
    "min_samples_split",
    ParamKind::Int { min: 2 },
    "2",
    "a node with fewer rows is not split",
);
const MIN_SAMPLES_LEAF: ParamSpec = p(
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
const RF_MAX_FEATURES: ParamSpec = p(
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
    p(
        "max_features",
        ParamKind::MaxFeatures,
        "all",
        "features tried per split (auto = all)",
    ),
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

const ADA_ALGORITHM_SAMME_R: ParamSpec = p(
    "algorithm",
    ParamKind::Choice(&["samme.r", "samme"]),
    "samme.r",
    "SAMME.R (real, paper 000) or SAMME (discrete, paper 001)",
);

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
    ADA_ALGORITHM_SAMME_R,
    p(
        "max_depth",
        OPT_DEPTH,
        "1",
        "depth of the base trees (1 = stumps; paper 000 tunes {5,10,20})",
    ),
    RANDOM_STREAM,
];

const GB_LEARNING_RATE: ParamSpec = p(
    "learning_rate",
    ParamKind::Float,
    "0.1",
    "shrinkage of each stage (> 0)",
);
const GB_SUBSAMPLE: ParamSpec = p(
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
    p(
        "max_features",
        ParamKind::MaxFeatures,
        "all",
        "features tried per split (auto = all)",
    ),
];

// --- rc-cover / rc-colgen -------------------------------------------------

const IMPURITY: ParamSpec = p(
    "impurity",
    ParamKind::Choice(&["gini", "entropy"]),
    "gini",
    "impurity in the rule cost 1 + impurity (classification)",
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
];

// --- rc-glm ---------------------------------------------------------------

const LAMBDA0: ParamSpec = p(
    "lambda0",
    ParamKind::Float,
    "0.05",
    "penalty of every term (>= 0; paper tunes {0.1,...,0.0005} by nested CV)",
);
const LAMBDA1: ParamSpec = p(
    "lambda1",
    ParamKind::Float,
    "0.01",
    "additional penalty per literal of a rule (>= 0; paper: 0.2 * lambda0)",
);
const N_THRESHOLDS: ParamSpec = p(
    "n_thresholds",
    INT1,
    "9",
    "quantile thresholds per numeric feature (9 = deciles)",
);
const DEBIAS: ParamSpec = p(
    "debias",
    ParamKind::Bool,
    "true",
    "refit the selected terms without regularisation",
);
const LINEAR_SCALE: ParamSpec = p(
    "linear_scale",
    ParamKind::Float,
    "0.4",
    "multiplier of the standardised linear terms (> 0)",
);
const MAX_DEGREE: ParamSpec = p(
    "max_degree",
    INT1,
    "10",
    "largest number of literals in a generated rule",
);
const BEAM_WIDTH: ParamSpec = p(
    "beam_width",
    INT1,
    "1",
    "beam width of the pricing heuristic (1 = the paper's)",
);
const MAX_ITERATIONS: ParamSpec = p(
    "max_iterations",
    INT0,
    "200",
    "cap on column-generation iterations",
);

const LR1_PARAMS: &[ParamSpec] = &[LAMBDA0, LAMBDA1, N_THRESHOLDS, DEBIAS];
const LR1N_PARAMS: &[ParamSpec] = &[LAMBDA0, LAMBDA1, N_THRESHOLDS, DEBIAS, LINEAR_SCALE];
const LRR_PARAMS: &[ParamSpec] = &[
    LAMBDA0,
    LAMBDA1,
    N_THRESHOLDS,
    DEBIAS,
    MAX_DEGREE,
    BEAM_WIDTH,
    MAX_ITERATIONS,
];
const LRRN_PARAMS: &[ParamSpec] = &[
    LAMBDA0,
    LAMBDA1,
    N_THRESHOLDS,
    DEBIAS,
    LINEAR_SCALE,
    MAX_DEGREE,
    BEAM_WIDTH,
    MAX_ITERATIONS,
];
const LINEAR_RULE_PARAMS: &[ParamSpec] = &[
    p(
        "rules",
        ParamKind::Choice(&["conjunctions", "singletons"]),
        "conjunctions",
        "rule space: conjunctions by column generation (LRR) or single literals (LR1)",
    ),
    p(
        "linear_terms",
        ParamKind::Bool,
        "false",
        "add the standardised numeric features as linear terms (the N variants)",
    ),
    p(
        "pricing",
        ParamKind::Choice(&["heuristic", "exact"]),
        "heuristic",
        "pricing of new rules: the paper's beam heuristic or the exact IP (LRRI)",
    ),
    LAMBDA0,
    LAMBDA1,
    N_THRESHOLDS,
    DEBIAS,
    LINEAR_SCALE,
    MAX_DEGREE,
    BEAM_WIDTH,
    MAX_ITERATIONS,
    p(
        "time_limit",
        ParamKind::OptFloat,
        "none",
        "wall-clock seconds allowed to column generation; none = no limit",
    ),
];

const RULEFIT_COMMON: [ParamSpec; 7] = [
    p(
        "tree_size",
        ParamKind::Int { min: 2 },
        "4",
        "mean number of leaves per tree (christophM/rulefit's 4)",
    ),
    p(
        "max_rules",
        INT1,
        "2000",
        "trees are added until their sizes sum to this",
    ),
    p(
        "learning_rate",
        ParamKind::Float,
        "0.01",
        "boosting learning rate (memory parameter, > 0)",
    ),
    p(
        "subsample",
        ParamKind::OptFloat,
        "none",
        "row fraction per tree in (0, 1]; none = min(0.5, (100 + 6 sqrt(n)) / n)",
    ),
    LAMBDA0,
    LAMBDA1,
    N_THRESHOLDS,
];
const RULEFIT_PARAMS: &[ParamSpec] = &RULEFIT_COMMON;
const RULEFIT_N_PARAMS: &[ParamSpec] = &[
    RULEFIT_COMMON[0],
    RULEFIT_COMMON[1],
    RULEFIT_COMMON[2],
    RULEFIT_COMMON[3],
    RULEFIT_COMMON[4],
    RULEFIT_COMMON[5],
    RULEFIT_COMMON[6],
    LINEAR_SCALE,
    p(
        "winsor_quantile",
        ParamKind::Float,
        "0.025",
        "winsorising quantile of the linear terms, in [0, 0.5)",
    ),
];

const GBT_PARAMS: &[ParamSpec] = &[
    p(
        "n_estimators",
        INT1,
        "100",
        "boosting stages (paper: up to 500, chosen on a 20% validation split)",
    ),
    p(
        "max_depth",
        OPT_DEPTH,
        "3",
        "depth of the trees (paper tunes {1,2,3,4,6})",
    ),
    GB_LEARNING_RATE,
    GB_SUBSAMPLE,
    N_THRESHOLDS,
];

// --- rc-nre ---------------------------------------------------------------

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

// --- rc-logic -------------------------------------------------------------

const N_TREES: ParamSpec = p("n_trees", INT1, "20", "number of trees (the paper: 20)");
const NEG_RATIO: ParamSpec = p(
    "neg_ratio",
    ParamKind::OptFloat,
    "2.0",
    "negatives sampled per positive (> 0); none = all negatives",
);
const MAX_NODE_LITERALS: ParamSpec = p(
    "max_node_literals",
    INT1,
    "2",
    "most literals in one node test (BoostSRL nodeSize)",
);
const RECURSION: ParamSpec = p(
    "recursion",
    ParamKind::Bool,
    "false",
    "whether the target may appear in clause bodies",
);
const MAX_ROWS: ParamSpec = p(
    "max_rows",
    OPT_DEPTH,
    "none",
    "cap on the examples each tree learns from (for smoke runs); none = all",
);

const RFGB_PARAMS: &[ParamSpec] = &[
    N_TREES,
    NEG_RATIO,
    p(
        "prior",
        ParamKind::Float,
        "-1.8",
        "initial log-odds (BoostSRL: -1.8)",
    ),
    p("step", ParamKind::Float, "1.0", "step length (> 0)"),
    p(
        "max_depth",
        INT1,
        "4",
        "test levels on a path (4 = BoostSRL maxTreeDepth=3)",
    ),
    MAX_NODE_LITERALS,
    p(
        "max_leaves",
        INT1,
        "100",
        "most leaves (clauses) per tree (BoostSRL numOfClauses)",
    ),
    RECURSION,
    MAX_ROWS,
];

const BAGGING_PARAMS: &[ParamSpec] = &[
    N_TREES,
    NEG_RATIO,
    p(
        "max_depth",
        INT1,
        "6",
        "test levels on a path (large trees: 6)",
    ),
    MAX_NODE_LITERALS,
    p("max_leaves", INT1, "32", "most leaves (clauses) per tree"),
    RECURSION,
    MAX_ROWS,
];

static METHODS: &[MethodSpec] = &[
    MethodSpec {
        id: "dt",
        aliases: &["DecisionTree", "CART"],
        summary: "CART decision tree (scikit-learn's DecisionTreeClassifier/Regressor)",
        paper: "",
        tasks: CLS_REG,
        one_vs_rest: false,
        params: DT_PARAMS,
    },
    MethodSpec {
        id: "rf",
        aliases: &["RandomForest"],
        summary: "random forest of CART trees on bootstrap samples",
        paper: "",
        tasks: CLS_REG,
        one_vs_rest: false,
        params: RF_PARAMS,
    },
    MethodSpec {
        id: "ada",
        aliases: &["AdaBoost"],
        summary: "AdaBoost (SAMME.R or SAMME) with decision-tree base learners",
        paper: "",
        tasks: CLS,
        one_vs_rest: false,
        params: ADA_PARAMS,
    },
    MethodSpec {
        id: "gb",
        aliases: &["GradientBoosting"],
        summary: "gradient boosting with regression trees (deviance or squared loss)",
        paper: "",
        tasks: CLS_REG,
        one_vs_rest: false,
        params: GB_PARAMS,
    },
    MethodSpec {
        id: "mirco",
        aliases: &["RF+MIRCO"],
        summary: "MIRCO: the minimum-cost set of a random forest's rules covering every training row",
        paper: "000",
        tasks: CLS_REG,
        one_vs_rest: false,
        params: MIRCO_PARAMS,
    },
    MethodSpec {
        id: "rcboost",
        aliases: &["RCB", "RCB+iniDT"],
        summary: "RCBoost: rule covering by column generation with weighted pricing trees",
        paper: "000",
        tasks: CLS,
        one_vs_rest: false,
        params: RCBOOST_PARAMS,
    },
    MethodSpec {
        id: "rux-rf",
        aliases: &["RF+RUX", "RUX_RF"],
        summary: "RUX on a random forest: one LP weights the forest's rules, rule-length costs",
        paper: "001",
        tasks: CLS,
        one_vs_rest: false,
        params: RUX_RF_PARAMS,
    },
    MethodSpec {
        id: "rux-ada",
        aliases: &["ADA+RUX", "RUX_ADA"],
        summary: "RUX on AdaBoost (SAMME): one LP weights the ensemble's rules, 1/alpha costs",
        paper: "001",
        tasks: CLS,
        one_vs_rest: false,
        params: RUX_ADA_PARAMS,
    },
    MethodSpec {
        id: "rug",
        aliases: &[],
        summary: "RUG: rules by column generation with weighted pricing trees and an LP",
        paper: "001",
        tasks: CLS,
        one_vs_rest: false,
        params: RUG_PARAMS,
    },
    MethodSpec {
        id: "rug-t",
        aliases: &["RUG_T"],
        summary: "RUG-T: RUG with 5 pricing rounds, keeping rules of normalised weight >= 0.05",
        paper: "001",
        tasks: CLS,
        one_vs_rest: false,
        params: RUG_T_PARAMS,
    },
    MethodSpec {
        id: "lr1",
        aliases: &[],
        summary: "GLRM LR1: sparse logistic/linear regression on single-literal rules",
        paper: "002",
        tasks: CLS_REG,
        one_vs_rest: true,
        params: LR1_PARAMS,
    },
    MethodSpec {
        id: "lrr",
        aliases: &[],
        summary: "GLRM LRR: sparse logistic/linear regression on conjunctions priced by column generation",
        paper: "002",
        tasks: CLS_REG,
        one_vs_rest: true,
        params: LRR_PARAMS,
    },
    MethodSpec {
        id: "lr1n",
        aliases: &[],
        summary: "GLRM LR1N: LR1 plus linear terms of the numeric features",
        paper: "002",
        tasks: CLS_REG,
        one_vs_rest: true,
        params: LR1N_PARAMS,
    },
    MethodSpec {
        id: "lrrn",
        aliases: &[],
        summary: "GLRM LRRN: LRR plus linear terms of the numeric features",
        paper: "002",
        tasks: CLS_REG,
        one_vs_rest: true,
        params: LRRN_PARAMS,
    },
    MethodSpec {
        id: "linear-rule",
        aliases: &["GLRM"],
        summary: "generalized linear rule model with every choice open (rule space, linear terms, exact pricing)",
        paper: "002",
        tasks: CLS_REG,
        one_vs_rest: true,
        params: LINEAR_RULE_PARAMS,
    },
    MethodSpec {
        id: "rulefit",
        aliases: &[],
        summary: "RuleFit: L1 regression on the nodes of boosted random-size trees",
        paper: "002",
        tasks: CLS_REG,
        one_vs_rest: true,
        params: RULEFIT_PARAMS,
    },
    MethodSpec {
        id: "rulefit-n",
        aliases: &["RuleFitN"],
        summary: "RuleFit with winsorised linear terms",
        paper: "002",
        tasks: CLS_REG,
        one_vs_rest: true,
        params: RULEFIT_N_PARAMS,
    },
    MethodSpec {
        id: "gbt",
        aliases: &[],
        summary: "gradient-boosted trees splitting on the GLRM binarizer's quantile literals",
        paper: "002",
        tasks: CLS_REG,
        one_vs_rest: false,
        params: GBT_PARAMS,
    },
    MethodSpec {
        id: "nre",
        aliases: &[],
        summary: "neural rule ensemble: a tree's rules made differentiable and trained with Adam",
        paper: "004",
        tasks: CLS,
        one_vs_rest: true,
        params: NRE_PARAMS,
    },
    MethodSpec {
        id: "nre-deep",
        aliases: &["NRE_deep"],
        summary: "neural rule ensemble with deep rules (a second per-rule layer)",
        paper: "004",
        tasks: CLS,
        one_vs_rest: true,
        params: NRE_PARAMS,
    },
    MethodSpec {
        id: "ann",
        aliases: &["MLP"],
        summary: "one-hidden-layer ReLU network (no rules; the baseline of paper 004)",
        paper: "004",
        tasks: CLS,
        one_vs_rest: true,
        params: ANN_PARAMS,
    },
    MethodSpec {
        id: "rfgb",
        aliases: &["Boosting"],
        summary: "relational functional gradient boosting of relational regression trees (BoostSRL)",
        paper: "003",
        tasks: REL,
        one_vs_rest: false,
        params: RFGB_PARAMS,
    },
    MethodSpec {
        id: "bagging",
        aliases: &[],
        summary: "bagged relational regression trees",
        paper: "003",
        tasks: REL,
        one_vs_rest: false,
        params: BAGGING_PARAMS,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_lower_case_and_aliases_resolve() {
        let mut seen = std::collections::HashSet::new();
        for m in methods() {
            assert_eq!(m.id, m.id.to_ascii_lowercase());
            for name in std::iter::once(m.id).chain(m.aliases.iter().copied()) {
                assert!(seen.insert(name.to_ascii_lowercase()), "{name} twice");
                assert_eq!(method(name).unwrap().id, m.id);
            }
        }
        assert_eq!(method("RUX-RF").unwrap().id, "rux-rf");
        assert_eq!(method("RuleFitN").unwrap().id, "rulefit-n");
    }

    #[test]
    fn every_default_parses_and_names_are_unique() {
        for m in methods() {
            let mut names = std::collections::HashSet::new();
            for p in m.params {
                assert!(names.insert(p.name), "{}.{} twice", m.id, p.name);
                assert!(p.kind.parse(p.default).is_some(), "{}.{}", m.id, p.name);
                assert!(!p.doc.is_empty());
            }
        }
    }
}
