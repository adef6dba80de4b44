//! The error type of rc-nre.

/// Everything that can go wrong when fitting or applying an NRE or MLP
/// model. Messages name the parameter, feature, row (0-based index into
/// the dataset view that was passed) and value involved, and say how to
/// fix the input.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An error reported by rulecover-core (for example an invalid dataset view).
    #[error(transparent)]
    Core(#[from] rulecover_core::Error),

    /// An error of the decision tree that initialises the network.
    #[error("growing the initial tree failed: {0}")]
    Tree(#[from] rc_tree::Error),

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

    /// The target is not a two-class label (a real-valued target, none,
    /// or more classes); more classes can be fitted one-vs-rest with
    /// [`rulecover_core::OneVsRest`], which `hint` then says.
    #[error(
        "dataset '{dataset}' has {what}; NRE and the MLP baseline learn two classes \
         (labels 0/1){hint}"
    )]
    NotBinary {
        /// The dataset's name.
        dataset: String,
        /// What the target is.
        what: String,
        /// What to do instead, with its leading separator (empty when
        /// nothing applies).
        hint: String,
    },

    /// The training data holds only one class.
    #[error(
        "the training data of '{dataset}' holds only class '{class}' ({rows} rows); \
         a classifier needs rows of both classes (use stratified folds)"
    )]
    OneClass {
        /// The dataset's name.
        dataset: String,
        /// The only class present.
        class: String,
        /// Number of rows.
        rows: usize,
    },

    /// The data has no rows.
    #[error("dataset '{dataset}' has no rows")]
    EmptyData {
        /// The dataset's name.
        dataset: String,
    },

    /// The data has no features.
    #[error("dataset '{dataset}' has no features; fitting needs at least one column")]
    NoFeatures {
        /// The dataset's name.
        dataset: String,
    },

    /// A feature reached the networks as level codes: the model was asked
    /// to read categories natively ([`rulecover_core::Encoding::Native`]),
    /// or a [`crate::Standardizer`] was given raw categorical data.
    #[error(
        "feature '{feature}' (column {column}) is categorical; NRE and the MLP read numbers: \
         fit with the one-hot encoding (the default, Encoding::OneHot), or re-declare the \
         level codes as a numeric column"
    )]
    CategoricalFeature {
        /// The feature name.
        feature: String,
        /// Its column index.
        column: usize,
    },

    /// A feature value is missing (`NaN`) or infinite.
    #[error(
        "feature '{feature}' has the non-finite value {value} at row {row} (0-based); \
         impute missing values and clip infinite ones first"
    )]
    NonFinite {
        /// The feature name.
        feature: String,
        /// 0-based row of the view.
        row: usize,
        /// The value (`NaN`, `inf` or `-inf`).
        value: f64,
    },

    /// A feature is constant on the training data, so it cannot be
    /// standardised (its standard deviation is 0).
    #[error(
        "feature '{feature}' (column {column}) is constant ({value}) on the {rows} training \
         rows, so it cannot be standardised; drop the column, or set \
         ConstantFeatures::Ignore to centre it without scaling (scikit-learn's \
         StandardScaler behaviour)"
    )]
    ConstantFeature {
        /// The feature name.
        feature: String,
        /// Its column index.
        column: usize,
        /// Its only value.
        value: f64,
        /// Number of training rows.
        rows: usize,
    },

    /// A matrix or dataset given to the low-level [`crate::Standardizer`]
    /// has a different number of features than it was fitted on (the
    /// models read data by column name instead, reporting a missing
    /// column as [`rulecover_core::Error::MissingColumn`]).
    #[error("the model was trained on {expected} features but the data has {found}")]
    FeatureMismatch {
        /// Number of training features.
        expected: usize,
        /// Number of features of the data.
        found: usize,
    },

    /// Training produced a non-finite loss or parameter.
    #[error(
        "training diverged at epoch {epoch}: the {what} became non-finite; lower the \
         learning rate (now {learning_rate:e})"
    )]
    Diverged {
        /// The epoch (1-based).
        epoch: usize,
        /// What became non-finite.
        what: &'static str,
        /// The learning rate used.
        learning_rate: f64,
    },

    /// A rule index is out of range.
    #[error("rule {index} does not exist; the network has {n_rules} rules")]
    NoSuchRule {
        /// The requested rule.
        index: usize,
        /// Number of rules.
        n_rules: usize,
    },
}

/// Result type of rc-nre.
pub type Result<T> = std::result::Result<T, Error>;

/// An [`Error::InvalidParameter`].
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
