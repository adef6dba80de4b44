//! The error type of rc-cover.

/// What can go wrong when selecting or weighting rules.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The rule pool is empty.
    #[error("the rule pool is empty: train the ensemble first or pass a non-empty pool")]
    EmptyPool,
    /// Some training rows are covered by no rule of the pool.
    #[error("{rows} training row(s) are covered by no rule of the pool (first: row {first}); a set cover is impossible")]
    Uncoverable {
        /// Number of uncovered rows.
        rows: usize,
        /// The first one (0-based, in the training view).
        first: usize,
    },
    /// A rule cost is not positive and finite.
    #[error("cost of rule {column} is {cost}; costs must be positive and finite")]
    InvalidCost {
        /// The rule.
        column: usize,
        /// Its cost.
        cost: f64,
    },
    /// Sizes disagree.
    #[error("shape mismatch: {0}")]
    Shape(String),
    /// A parameter is invalid.
    #[error("invalid parameter {name} = {value}: {reason}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// Its value.
        value: String,
        /// What is allowed.
        reason: String,
    },
    /// The training data hold a single class (RUX and RUG need two).
    #[error("the training data hold only class {class}; rule weighting by LP (3) needs at least two classes")]
    OneClass {
        /// The only class present.
        class: usize,
    },
    /// A rule of the pool covers no training row, so its class (the
    /// majority of the rows it covers) is undefined.
    #[error("rule {rule} of the pool covers no training row; its class cannot be voted (was the pool built on other data?)")]
    EmptyRule {
        /// Index of the rule in the pool.
        rule: usize,
    },
    /// A rule cost is unusable (not finite).
    #[error("cost of rule {rule} is {cost}: {reason}")]
    BadCost {
        /// Index of the rule in the pool.
        rule: usize,
        /// Its cost.
        cost: f64,
        /// What is wrong.
        reason: String,
    },
    /// LP (3) has no feasible point.
    #[error("the rule-weighting LP is infeasible: {0}")]
    LpInfeasible(String),
    /// LP (3) is unbounded (a bad cost vector).
    #[error("the rule-weighting LP is unbounded: {0}")]
    LpUnbounded(String),
    /// A feature value is missing (`NaN`): the rules cannot tell whether
    /// they hold.
    #[error(
        "feature '{feature}' has a missing value (NaN) at row {row} (0-based); the rules \
         cannot be evaluated on missing values: impute them or drop those rows first"
    )]
    MissingValue {
        /// The feature name (of the encoded data the rules read).
        feature: String,
        /// 0-based row of the data.
        row: usize,
    },
    /// The data are not usable (wrong target kind, wrong features, ...).
    #[error(transparent)]
    Data(#[from] rulecover_core::Error),
    /// Fitting the base ensemble failed.
    #[error("base ensemble: {0}")]
    Ensemble(#[from] rc_tree::Error),
    /// The LP/MIP solver stopped without a usable solution (a status
    /// other than optimal, or no incumbent).
    #[error("solver: {0}")]
    Solver(String),
    /// The LP/MIP layer failed: rc-lp's error, kept as the source (e.g.
    /// [`rc_lp::Error::SolveFailed`] when HiGHS found no answer by any
    /// algorithm).
    #[error("solver: {0}")]
    Lp(#[source] rc_lp::Error),
}

/// Result alias of rc-cover.
pub type Result<T, E = Error> = std::result::Result<T, E>;
