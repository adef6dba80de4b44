//! rc-logic's methods: `rfgb` and `bagging`, relational regression trees
//! learned from BoostSRL facts and examples.

use rc_logic::{BaggingParams, BoostParams, Problem, TreeEnsemble};
use rulecover_core::envelope::Envelope;

use crate::error::{Error, Result};
use crate::learners::common::{p, INT1, OPT_DEPTH, REL};
use crate::method::{Learner, Method, MethodSpec, RelationalMethod};
use crate::params::{Args, ParamKind, ParamSpec};

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

/// rc-logic's error fitting `spec`'s method.
fn fail(spec: &MethodSpec) -> impl Fn(rc_logic::Error) -> Error + '_ {
    move |e| Error::Fit {
        method: spec.id.into(),
        source: Box::new(e),
    }
}

/// The ensemble of a model-file envelope of `spec`'s kind.
fn read(spec: &MethodSpec, envelope: Envelope, file: &str) -> Result<TreeEnsemble> {
    debug_assert_eq!(envelope.kind, spec.id);
    Ok(TreeEnsemble::from_envelope(envelope, file)?)
}

/// `rfgb`: relational functional gradient boosting.
pub(crate) struct Rfgb;

static RFGB: MethodSpec = MethodSpec::new(
    "rfgb",
    "relational functional gradient boosting of relational regression trees (BoostSRL)",
    "003",
    REL,
    RFGB_PARAMS,
)
.aliases(&["Boosting"])
.smoke(&[("n_trees", "3")]);

impl Method for Rfgb {
    fn spec(&self) -> &'static MethodSpec {
        &RFGB
    }
    fn learner(&self) -> Learner<'_> {
        Learner::Relational(self)
    }
}

impl RelationalMethod for Rfgb {
    fn fit(&self, args: &Args, problem: &Problem, seed: u64) -> Result<TreeEnsemble> {
        let mut p = BoostParams::default()
            .n_trees(args.int("n_trees")?)
            .neg_ratio(args.opt_float("neg_ratio")?)
            .max_rows(args.opt_int("max_rows")?)
            .seed(seed);
        p.prior = args.float("prior")?;
        p.step = args.float("step")?;
        p.recursion = args.bool("recursion")?;
        p.tree = p
            .tree
            .max_depth(args.int("max_depth")?)
            .max_node_literals(args.int("max_node_literals")?)
            .max_leaves(args.int("max_leaves")?);
        p.fit(problem).map_err(fail(&RFGB))
    }

    fn read_model(&self, envelope: Envelope, file: &str) -> Result<TreeEnsemble> {
        read(&RFGB, envelope, file)
    }
}

/// `bagging`: bagged relational regression trees.
pub(crate) struct Bagging;

static BAGGING: MethodSpec = MethodSpec::new(
    "bagging",
    "bagged relational regression trees",
    "003",
    REL,
    BAGGING_PARAMS,
)
.smoke(&[("n_trees", "3")]);

impl Method for Bagging {
    fn spec(&self) -> &'static MethodSpec {
        &BAGGING
    }
    fn learner(&self) -> Learner<'_> {
        Learner::Relational(self)
    }
}

impl RelationalMethod for Bagging {
    fn fit(&self, args: &Args, problem: &Problem, seed: u64) -> Result<TreeEnsemble> {
        let mut p = BaggingParams::default()
            .n_trees(args.int("n_trees")?)
            .max_rows(args.opt_int("max_rows")?)
            .seed(seed);
        p.neg_ratio = args.opt_float("neg_ratio")?;
        p.recursion = args.bool("recursion")?;
        p.tree = p
            .tree
            .max_depth(args.int("max_depth")?)
            .max_node_literals(args.int("max_node_literals")?)
            .max_leaves(args.int("max_leaves")?);
        p.fit(problem).map_err(fail(&BAGGING))
    }

    fn read_model(&self, envelope: Envelope, file: &str) -> Result<TreeEnsemble> {
        read(&BAGGING, envelope, file)
    }
}
