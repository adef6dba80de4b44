//! The error type of rc-glm.

/// Everything that can go wrong while binarizing data, fitting a rule GLM
/// or predicting with one. Messages name the parameter, feature, row or
/// value at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A parameter is out of its valid range.
    #[error("invalid parameter {name} = {value}: {reason}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// Its value, printed.
        value: String,
        /// What is allowed.
        reason: &'static str,
    },
    /// The data has no rows.
    #[error("data set '{dataset}' has no rows")]
    EmptyData {
        /// Data set name.
        dataset: String,
    },
    /// A feature value is infinite.
    #[error("feature '{feature}' has the non-finite value {value} at row {row}; use NaN for a missing value")]
    NonFiniteFeature {
        /// Feature name.
        feature: String,
        /// 0-based row of the view.
        row: usize,
        /// The value.
        value: f64,
    },
    /// A target value is NaN or infinite.
    #[error("target value {value} at row {row} is not finite")]
    NonFiniteTarget {
        /// 0-based row.
        row: usize,
        /// The value.
        value: f64,
    },
    /// Every feature was dropped by the binarizer (constant or all missing).
    #[error("data set '{dataset}': no usable feature ({dropped})")]
    NoUsableFeatures {
        /// Data set name.
        dataset: String,
        /// Why each feature was dropped.
        dropped: String,
    },
    /// Logistic models need exactly two classes (fit more one-vs-rest with
    /// [`rulecover_core::OneVsRest`]).
    #[error("data set '{dataset}' has {classes} classes; a GLRM logistic model learns two (fit more classes one-vs-rest: rulecover_core::OneVsRest)")]
    NotBinary {
        /// Data set name.
        dataset: String,
        /// Number of classes.
        classes: usize,
    },
    /// The training rows hold a single class.
    #[error("data set '{dataset}': every training row has class '{class}'; a logistic model needs both classes")]
    SingleClass {
        /// Data set name.
        dataset: String,
        /// The only class present.
        class: String,
    },
    /// The target kind does not fit the model (e.g. a real target for a
    /// logistic model).
    #[error("wrong target kind: {0}")]
    TargetKind(String),
    /// A missing value at prediction time in a column the model reads that
    /// had no missing value at fit (see [`crate::UnseenMissing`]).
    #[error("'{data}': column '{column}' has a missing value at row {row} but had none in the training data; set UnseenMissing::AsLiterals to evaluate it as the literals do (x <= t, x > t and x == v false, x != v true, linear terms 0)")]
    UnseenMissing {
        /// The data set.
        data: String,
        /// The column (encoded feature name).
        column: String,
        /// 1-based row.
        row: usize,
    },
    /// The data to predict does not look like the training data.
    #[error("shape mismatch: {0}")]
    Shape(String),
    /// The GLM solver did not reach its KKT tolerance.
    #[error("GLM solver stopped after {iterations} Newton iterations with KKT violation {violation:.3e} > tolerance {tolerance:.1e}; raise max_newton_iterations or the tolerance")]
    NotConverged {
        /// Newton iterations run.
        iterations: usize,
        /// Largest KKT violation at the last iterate.
        violation: f64,
        /// The tolerance asked for.
        tolerance: f64,
    },
    /// The exact pricing IP hit its time or node limit without an improving
    /// column, so optimality cannot be certified and no column is known.
    #[error("pricing IP stopped at its limit ({status}) after {seconds:.1} s without an improving column; raise pricing_time_limit or use heuristic pricing")]
    PricingLimit {
        /// The MIP status.
        status: String,
        /// Seconds spent.
        seconds: f64,
    },
    /// The requested MIP backend is not compiled in.
    #[error("MIP backend {0} is not available: build rc-glm with the `cbc` feature")]
    BackendUnavailable(&'static str),
    /// The LP/MIP layer failed.
    #[error("pricing IP failed: {0}")]
    Lp(#[from] rc_lp::Error),
    /// The tree layer failed (RuleFit's ensemble).
    #[error("tree ensemble failed: {0}")]
    Tree(#[from] rc_tree::Error),
    /// rulecover-core reported a problem with the data.
    #[error(transparent)]
    Core(#[from] rulecover_core::Error),
}

/// Result alias of rc-glm.
pub type Result<T, E = Error> = std::result::Result<T, E>;

pub(crate) fn invalid(name: &'static str, value: impl ToString, reason: &'static str) -> Error {
    Error::InvalidParameter {
        name,
        value: value.to_string(),
        reason,
    }
}
