//! The error type of rulecover-core.

use std::path::PathBuf;

/// Everything that can go wrong in rulecover-core: bad input files, inconsistent
/// data, invalid parameters. Messages name the file, column, row and value
/// where they exist, so the user can fix the input.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be opened or read.
    #[error("cannot read '{path}': {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The CSV reader failed (malformed quoting, invalid UTF-8, ...).
    #[error("{file}: malformed CSV at row {row}: {message}")]
    Csv {
        /// The file (or `<memory>`).
        file: String,
        /// 1-based data row (the header is row 0).
        row: usize,
        /// What the CSV parser said.
        message: String,
    },
    /// The file has no header or no data rows.
    #[error("{file}: {what}")]
    Empty {
        /// The file (or `<memory>`).
        file: String,
        /// What is missing.
        what: String,
    },
    /// A row has a different number of fields than the header.
    #[error("{file}: row {row} has {found} fields but the header has {expected}")]
    RaggedRow {
        /// The file.
        file: String,
        /// 1-based data row.
        row: usize,
        /// Fields in the header.
        expected: usize,
        /// Fields in this row.
        found: usize,
    },
    /// A column was named that the header does not have.
    #[error("{file}: no column named '{column}' (columns are: {available})")]
    UnknownColumn {
        /// The file.
        file: String,
        /// The requested column.
        column: String,
        /// The header, comma separated.
        available: String,
    },
    /// A numeric column holds a value that is not a number.
    #[error("{file}: column '{column}' is numeric but row {row} holds '{value}'{more}")]
    NotNumeric {
        /// The file.
        file: String,
        /// The column.
        column: String,
        /// 1-based data row of the first offending value.
        row: usize,
        /// The offending value.
        value: String,
        /// A note on further offending values, e.g. " (3 such values)".
        more: String,
    },
    /// A numeric column has a missing value and the policy forbids it.
    #[error("{file}: column '{column}' has a missing value at row {row}{more}; to accept it, drop such rows or keep them as missing (command line: --missing drop|keep; CsvOptions::missing_numeric)")]
    MissingValue {
        /// The file.
        file: String,
        /// The column.
        column: String,
        /// 1-based data row of the first missing value.
        row: usize,
        /// A note on further missing values.
        more: String,
    },
    /// The target column has a missing or invalid value.
    #[error("{file}: target column '{column}' has invalid value '{value}' at row {row}")]
    BadTarget {
        /// The file.
        file: String,
        /// The target column.
        column: String,
        /// 1-based data row.
        row: usize,
        /// The value.
        value: String,
    },
    /// Two parts of the data disagree in size.
    #[error("shape mismatch: {0}")]
    Shape(String),
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
    /// The operation needs a classification (or regression) target.
    #[error("wrong target kind: {0}")]
    TargetKind(String),
    /// New data lacks a feature the model was fitted on.
    #[error("'{data}' has no column '{column}', which the model was fitted on (its columns are: {available})")]
    MissingColumn {
        /// The data (file name or dataset name).
        data: String,
        /// The missing feature.
        column: String,
        /// The columns the data has, comma separated.
        available: String,
    },
    /// A column name appears twice.
    #[error("{file}: column '{column}' appears more than once")]
    DuplicateColumn {
        /// The file (or dataset name).
        file: String,
        /// The repeated name.
        column: String,
    },
    /// A categorical value the training data did not have.
    #[error("'{data}': column '{column}' holds '{level}' at row {row}, a level not seen at fit (known levels: {known}); choose UnseenLevel::Missing to read it as missing")]
    UnseenLevel {
        /// The data (file name or dataset name).
        data: String,
        /// The column.
        column: String,
        /// 1-based data row.
        row: usize,
        /// The unseen level.
        level: String,
        /// The training levels, comma separated (abbreviated).
        known: String,
    },
    /// A class label the training data did not have.
    #[error("'{data}': class '{class}' was not seen at fit (classes: {known})")]
    UnseenClass {
        /// The data (file name or dataset name).
        data: String,
        /// The unseen class.
        class: String,
        /// The training classes, comma separated.
        known: String,
    },
    /// A column that was numeric at fit holds a value that is not a number.
    #[error("'{data}': column '{column}' was numeric at fit but holds '{value}'")]
    KindMismatch {
        /// The data (file name or dataset name).
        data: String,
        /// The column.
        column: String,
        /// The offending value.
        value: String,
    },
    /// A JSON file (folds, manifest) could not be parsed.
    #[error("{file}: invalid JSON: {message}")]
    Json {
        /// The file.
        file: String,
        /// The parser message.
        message: String,
    },
}

/// Result alias of rulecover-core.
pub type Result<T, E = Error> = std::result::Result<T, E>;
