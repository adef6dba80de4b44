//! The error type of rc-tree.

/// Everything that can go wrong when fitting or applying a tree model.
///
/// Messages name the parameter, feature, row (0-based index into the
/// dataset view that was passed) and value involved, and say how to fix
/// the input.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An error reported by rulecover-core (for example an invalid dataset view).
    #[error(transparent)]
    Core(#[from] rulecover_core::Error),

    /// A parameter is out of its valid range.
    #[error("invalid parameter {name} = {value}: {reason}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// Its value, printed.
        value: String,
        /// Why it is invalid and what is allowed.
        reason: String,
    },

    /// A feature is categorical where numbers are needed: fitting with
    /// [`rulecover_core::Encoding::Native`], or a bare [`crate::Tree`]
    /// given raw data (the models one-hot encode categorical columns
    /// themselves with the default encoding).
    #[error(
        "feature '{feature}' (column {column}) is categorical; trees split numeric \
         columns only: fit with Encoding::OneHot (the default), which one-hot encodes \
         it, or call Dataset::one_hot(drop_first) first"
    )]
    CategoricalFeature {
        /// The feature name.
        feature: String,
        /// Its column index.
        column: usize,
    },

    /// A feature value is missing (`NaN`). rc-tree does not support missing
    /// values.
    #[error(
        "feature '{feature}' has a missing value (NaN) at row {row} (0-based); rc-tree \
         does not support missing values: impute them or drop those rows first"
    )]
    MissingValue {
        /// The feature name.
        feature: String,
        /// 0-based row of the view.
        row: usize,
    },

    /// A feature value is infinite or too large to be represented as a
    /// 32-bit float (trees compare float32 values, as scikit-learn does).
    #[error(
        "feature '{feature}' has value {value} at row {row} (0-based), which is infinite \
         or too large for float32; trees compare values as float32 (as scikit-learn does): \
         rescale or clip the column"
    )]
    ValueOutOfRange {
        /// The feature name.
        feature: String,
        /// 0-based row of the view.
        row: usize,
        /// The offending value.
        value: f64,
    },

    /// The training data has no rows.
    #[error("dataset '{dataset}' has no rows; fitting needs at least one row")]
    EmptyData {
        /// The dataset's name.
        dataset: String,
    },

    /// The training data has no features.
    #[error("dataset '{dataset}' has no features; fitting needs at least one column")]
    NoFeatures {
        /// The dataset's name.
        dataset: String,
    },

    /// The data to predict has a different number of features than the
    /// training data.
    #[error(
        "the model was trained on {expected} features but the data has {found}; pass the \
         training columns in the same order (one-hot encoded the same way)"
    )]
    FeatureCountMismatch {
        /// Features seen in training.
        expected: usize,
        /// Features of the data passed.
        found: usize,
    },

    /// The number of sample weights differs from the number of rows.
    #[error("{found} sample weights were given for {expected} rows; pass one weight per row")]
    WeightCount {
        /// Rows of the view.
        expected: usize,
        /// Weights passed.
        found: usize,
    },

    /// A sample weight is negative, infinite or `NaN`.
    #[error(
        "sample weight {value} at row {row} (0-based) is invalid: weights must be finite and >= 0"
    )]
    InvalidWeight {
        /// 0-based row of the view.
        row: usize,
        /// The weight.
        value: f64,
    },

    /// Every sample weight is zero.
    #[error("all {rows} sample weights are zero; at least one row needs a positive weight")]
    ZeroWeights {
        /// Rows of the view.
        rows: usize,
    },

    /// The target does not suit the model or criterion (e.g. Gini on a
    /// real-valued target).
    #[error("wrong target kind: {0}")]
    TargetKind(String),

    /// AdaBoost's first base estimator is no better than random guessing.
    #[error(
        "AdaBoost: the first base estimator has weighted training error {error} >= 1 - 1/{n_classes}, \
         no better than random guessing, so the ensemble cannot be fit; use deeper base trees \
         or check the labels"
    )]
    WorseThanRandom {
        /// The weighted training error.
        error: f64,
        /// Number of classes.
        n_classes: usize,
    },

    /// The data has more rows than rc-tree can index (2^32 - 1).
    #[error("the data has {rows} rows; rc-tree supports at most 4294967295 rows")]
    TooManyRows {
        /// Rows of the view.
        rows: usize,
    },
}

/// Result alias of rc-tree.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl From<Error> for rulecover_core::Error {
    /// Maps an rc-tree error onto rulecover-core's error (used where a trait of
    /// rulecover-core, such as [`rulecover_core::RuleSource`], fixes the error type).
    fn from(e: Error) -> Self {
        match e {
            Error::Core(e) => e,
            Error::InvalidParameter {
                name,
                value,
                reason,
            } => rulecover_core::Error::InvalidParameter {
                name,
                value,
                reason,
            },
            Error::TargetKind(m) => rulecover_core::Error::TargetKind(m),
            other => rulecover_core::Error::Shape(other.to_string()),
        }
    }
}

pub(crate) fn invalid(
    name: &'static str,
    value: impl ToString,
    reason: impl Into<String>,
) -> Error {
    Error::InvalidParameter {
        name,
        value: value.to_string(),
        reason: reason.into(),
    }
}
