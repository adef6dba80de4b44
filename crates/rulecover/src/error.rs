//! The error type of the registry and the model file.

use std::path::PathBuf;

/// A learner's or predictor's own error, kept whole as the source.
pub type BoxedError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Everything that can go wrong when choosing a method, reading its
/// parameters, fitting, predicting, or saving and loading a model file.
/// Messages name the method, parameter, value, file and position.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No method has this id (or alias).
    #[error("unknown method '{given}' (valid ids: {valid})")]
    UnknownMethod {
        /// What was asked for.
        given: String,
        /// The valid ids, comma separated.
        valid: String,
    },
    /// The method has no parameter of this name.
    #[error("method '{method}' has no parameter '{name}' (its parameters: {valid})")]
    UnknownParameter {
        /// The method id.
        method: String,
        /// The parameter given.
        name: String,
        /// The method's parameters, comma separated.
        valid: String,
    },
    /// The same parameter was given twice.
    #[error("method '{method}': parameter '{name}' is given more than once")]
    DuplicateParameter {
        /// The method id.
        method: String,
        /// The parameter.
        name: String,
    },
    /// A parameter's value does not parse as its declared type.
    #[error("method '{method}': parameter '{name}' = '{value}' is invalid: expected {expected}")]
    BadValue {
        /// The method id.
        method: String,
        /// The parameter.
        name: String,
        /// The value given.
        value: String,
        /// What is allowed.
        expected: String,
    },
    /// A `key=value` string has no `=`.
    #[error("'{given}' is not of the form key=value")]
    NotKeyValue {
        /// The string given.
        given: String,
    },
    /// The method cannot learn this kind of target.
    #[error("method '{method}' does not support {task} (it supports: {supported})")]
    UnsupportedTask {
        /// The method id.
        method: String,
        /// The data's task.
        task: String,
        /// The tasks the method supports, comma separated.
        supported: String,
    },
    /// Fitting needs a target and the data has none.
    #[error("'{data}' has no target column: fitting needs one")]
    NoTarget {
        /// The data set's name.
        data: String,
    },
    /// Data to score a model on (a report's `--data`) has no label column.
    #[error("'{data}' has no label column '{column}': scoring the model on it needs the labels")]
    NoLabel {
        /// The file or data set's name.
        data: String,
        /// The label column looked for.
        column: String,
    },
    /// A relational method was asked to fit a table.
    #[error("method '{method}' learns from relational data (facts and examples), not from a table: fit it with rulecover::fit_relational on an rc_logic::Problem")]
    Relational {
        /// The method id.
        method: String,
    },
    /// A tabular method was asked to fit relational data.
    #[error("method '{method}' learns from a table: fit it with rulecover::fit (relational methods: {relational})")]
    NotRelational {
        /// The method id.
        method: String,
        /// The relational ids, comma separated.
        relational: String,
    },
    /// Bad data or data that does not match the model (missing column,
    /// unseen level, bad weights, ...).
    #[error(transparent)]
    Data(#[from] rulecover_core::Error),
    /// The learner failed (invalid parameter range, solver failure, ...).
    #[error("fitting '{method}' failed: {source}")]
    Fit {
        /// The method id.
        method: String,
        /// The learner's error.
        source: BoxedError,
    },
    /// The model failed to predict.
    #[error("'{method}' could not predict: {source}")]
    Predict {
        /// The method id.
        method: String,
        /// The model's error.
        source: BoxedError,
    },
    /// A model file could not be read or written.
    #[error("cannot {action} '{path}': {source}")]
    Io {
        /// What was being done ("read", "write", "create").
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A model file is not valid JSON.
    #[error("{file}: invalid JSON at line {line}, column {column}: {message}")]
    Json {
        /// The file (or `<string>`).
        file: String,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// serde_json's message.
        message: String,
    },
    /// A model file was written by another format version.
    #[error("{file}: the model file has format_version {found}, but this build of rulecover reads format_version {supported}")]
    FormatVersion {
        /// The file (or `<string>`).
        file: String,
        /// The version in the file, as written.
        found: String,
        /// The version this build reads.
        supported: u64,
    },
    /// A model file names a kind of model this build does not know.
    #[error("{file}: unknown model kind '{kind}' (known kinds: {valid})")]
    UnknownKind {
        /// The file (or `<string>`).
        file: String,
        /// The kind in the file.
        kind: String,
        /// The known kinds, comma separated.
        valid: String,
    },
    /// A model file is valid JSON but a field is missing or has the wrong
    /// shape.
    #[error("{file}: field '{field}': {message}")]
    Envelope {
        /// The file (or `<string>`).
        file: String,
        /// The field (`format_version`, `kind`, `schema`, `params`,
        /// `seed`, `model`).
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A model file's model does not hold together: an index out of
    /// range, a length that disagrees with what it indexes, a class or
    /// feature count that differs from the schema, a number that is not
    /// finite where the model needs one ([`rulecover_core::Validate`]).
    #[error("{file}: field '{field}': {message}")]
    InvalidModel {
        /// The file (or `<string>`).
        file: String,
        /// The field's path in the file, e.g. `model.trees[3].nav`.
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// A model could not be written as JSON.
    #[error("cannot write the '{kind}' model as JSON: {message}")]
    Serialize {
        /// The model's method id.
        kind: String,
        /// serde_json's message.
        message: String,
    },
    /// No generator has this name.
    #[error("unknown data set '{given}' (valid names: {valid})")]
    UnknownGenerator {
        /// What was asked for.
        given: String,
        /// The valid names, comma separated.
        valid: String,
    },
    /// A generator was asked for a number of rows it cannot make.
    #[error("data set '{name}' cannot have {rows} rows{}", max.map(|m| format!(" (at most {m})")).unwrap_or_else(|| " (too few)".into()))]
    BadRows {
        /// The generator.
        name: String,
        /// The rows asked for.
        rows: usize,
        /// The most it can make, when that is the limit.
        max: Option<usize>,
    },
    /// No mode declarations were found for a relational folder.
    #[error(
        "no mode declarations for '{dir}': looked for {tried}; give them with --background FILE"
    )]
    NoBackground {
        /// The data folder.
        dir: PathBuf,
        /// The files looked for, comma separated.
        tried: String,
    },
    /// A relational model folder does not hold the model asked for.
    #[error("model folder '{dir}': {message}")]
    ModelDir {
        /// The folder.
        dir: PathBuf,
        /// What is missing or ambiguous.
        message: String,
    },
    /// Relational data or a relational model could not be read, learned
    /// or written (rc-logic's error, naming the file and line).
    #[error(transparent)]
    Logic(#[from] rc_logic::Error),
    /// A tuning option that does not fit the method or the data.
    #[error("cannot tune '{method}': {option} = '{value}' is invalid: {reason}")]
    Tune {
        /// The method id.
        method: String,
        /// The option (`tune_metric`, `tune_folds`, or a parameter).
        option: String,
        /// The value given.
        value: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// A fit panicked (a bug of its learner), caught so that other fits
    /// go on.
    #[error("fitting '{method}' panicked: {message}")]
    Panicked {
        /// The method id.
        method: String,
        /// The panic's message.
        message: String,
    },
    /// A model could not be exported as SQL or Python.
    #[error("cannot export the '{method}' model: {source}")]
    Export {
        /// The model's method id.
        method: String,
        /// Why.
        source: rulecover_core::scoring::ExportError,
    },
    /// The registry's table and its builders disagree (a bug in this
    /// crate, reported instead of panicking).
    #[error("internal error in the method registry: {0}")]
    Internal(String),
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
