//! Reading tables for fitting and predicting, and writing output files
//! whole or not at all: what the command line and the Python package
//! share.
//!
//! - [`TableOptions`]: how a training CSV is read (delimiter, dropped
//!   columns, missing values, task, positive class, weight column);
//!   [`read_training_table`] reads it into a [`Dataset`] and its sample
//!   weights.
//! - [`read_for_schema`]: a CSV to predict, read against a fitted model's
//!   [`Schema`]: columns by name in any order, extra columns ignored, the
//!   label column optional.
//! - [`read_labelled_for_schema`]: the same with the label column read
//!   as the model's classes, to score the model (`rulecover report`).
//! - [`write_atomically`]: a file written to a temporary file in the same
//!   folder and renamed into place, so that it is never half-written.

use std::path::Path;

use rulecover_core::csv::{
    read_csv, CsvOptions, MissingCategorical, MissingNumeric, TargetColumn, TaskKind,
};
use rulecover_core::{Dataset, Schema};

use crate::error::Result;

/// What to do with a missing value (an empty field, `NA` or `?`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Missing {
    /// A typed error naming the column and the row (default).
    #[default]
    Error,
    /// Drop the rows that hold one.
    Drop,
    /// Keep it: `NaN` in a numeric column, a level of its own
    /// (`<missing>`) in a categorical column.
    Keep,
}

impl Missing {
    /// The policy named `error`, `drop` or `keep`.
    pub fn parse(name: &str) -> Option<Missing> {
        match name.trim().to_ascii_lowercase().as_str() {
            "error" => Some(Missing::Error),
            "drop" => Some(Missing::Drop),
            "keep" => Some(Missing::Keep),
            _ => None,
        }
    }

    fn numeric(self) -> MissingNumeric {
        match self {
            Missing::Error => MissingNumeric::Error,
            Missing::Drop => MissingNumeric::DropRows,
            Missing::Keep => MissingNumeric::Keep,
        }
    }

    fn categorical(self) -> MissingCategorical {
        match self {
            Missing::Error => MissingCategorical::Error,
            Missing::Drop => MissingCategorical::DropRows,
            Missing::Keep => MissingCategorical::OwnLevel,
        }
    }
}

/// How a training table is read.
#[derive(Debug, Clone, PartialEq)]
pub struct TableOptions {
    /// The target column's name.
    pub target: String,
    /// Which kind of target to build (auto: classes for text or at most
    /// ten distinct integers, real values otherwise).
    pub task: TaskKind,
    /// Field delimiter.
    pub delimiter: u8,
    /// Columns to leave out (e.g. an id column).
    pub drop: Vec<String>,
    /// What a missing feature value means.
    pub missing: Missing,
    /// For two classes: the class that becomes class 1 (the positive
    /// class of AUC, precision and the rules' printed outcomes).
    pub positive_class: Option<String>,
    /// A numeric column holding one non-negative sample weight per row
    /// (not a feature).
    pub weights: Option<String>,
}

impl TableOptions {
    /// Options for target column `target`, everything else at its default
    /// (comma-separated, auto task, missing values are errors).
    pub fn new(target: impl Into<String>) -> Self {
        TableOptions {
            target: target.into(),
            task: TaskKind::Auto,
            delimiter: b',',
            drop: Vec::new(),
            missing: Missing::Error,
            positive_class: None,
            weights: None,
        }
    }

    fn csv_options(&self) -> CsvOptions {
        let mut opts = CsvOptions::default()
            .target(self.target.clone())
            .task(self.task)
            .delimiter(self.delimiter)
            .missing_numeric(self.missing.numeric())
            .missing_categorical(self.missing.categorical());
        for c in &self.drop {
            opts = opts.drop_column(c.clone());
        }
        if let Some(class) = &self.positive_class {
            opts = opts.positive_class(class.clone());
        }
        opts
    }
}

/// Parses a task name: `auto`, `classification` or `regression`.
pub fn parse_task(name: &str) -> Option<TaskKind> {
    match name.trim().to_ascii_lowercase().as_str() {
        "auto" => Some(TaskKind::Auto),
        "classification" => Some(TaskKind::Classification),
        "regression" => Some(TaskKind::Regression),
        _ => None,
    }
}

/// A delimiter given as one ASCII character, or `tab` / `\t`.
pub fn parse_delimiter(text: &str) -> Option<u8> {
    match text {
        "tab" | "\\t" | "\t" => Some(b'\t'),
        _ => {
            let mut bytes = text.bytes();
            match (bytes.next(), bytes.next()) {
                (Some(b), None) if b.is_ascii() && b != b'\n' && b != b'"' => Some(b),
                _ => None,
            }
        }
    }
}

/// Reads the training table at `path`: features, target and (with
/// [`TableOptions::weights`]) the sample weights.
///
/// # Errors
/// [`crate::Error::Data`] naming the file, column, row and value (unknown
/// column, non-number in a numeric column, missing value, bad target, a
/// positive class the target lacks or a target that is not two classes).
pub fn read_training_table(
    path: &Path,
    opts: &TableOptions,
) -> Result<(Dataset, Option<Vec<f64>>)> {
    let mut csv = opts.csv_options();
    let weights = match &opts.weights {
        None => None,
        Some(column) => {
            // The weights column read as a real target, with the same rows
            // kept; then left out of the features.
            let mut wopts = csv.clone();
            wopts.target = TargetColumn::Named(column.clone());
            wopts.task = TaskKind::Regression;
            wopts.positive_class = None;
            wopts.drop_columns.push(opts.target.clone());
            let w = read_csv(path, &wopts)?;
            csv = csv.drop_column(column.clone());
            Some(w.target_values())
        }
    };
    Ok((read_csv(path, &csv)?, weights))
}

/// How a table to predict is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PredictOptions {
    /// Field delimiter.
    pub delimiter: u8,
    /// What a missing feature value means ([`Missing::Drop`] is not
    /// offered: predictions keep one row per input row).
    pub keep_missing: bool,
}

impl Default for PredictOptions {
    fn default() -> Self {
        PredictOptions {
            delimiter: b',',
            keep_missing: false,
        }
    }
}

/// Reads the CSV at `path` to predict with a model of schema `schema`
/// ([`CsvOptions::schema`]): the model's columns by name, in any order,
/// each read as the kind the model was fitted on (categorical levels that
/// look like numbers stay levels), extra columns ignored without being
/// parsed, and the label column optional (it is not read). The returned
/// data has no target.
///
/// # Errors
/// [`crate::Error::Data`] naming the file, column and row: a column the model
/// reads that the file lacks, a value that is not a number, a missing
/// value (unless [`PredictOptions::keep_missing`]), a categorical level
/// not seen at fit, a row of the wrong length.
pub fn read_for_schema(path: &Path, schema: &Schema, opts: &PredictOptions) -> Result<Dataset> {
    let missing = if opts.keep_missing {
        Missing::Keep
    } else {
        Missing::Error
    };
    let csv = CsvOptions::default()
        .no_target()
        .schema(schema.clone())
        .delimiter(opts.delimiter)
        .missing_numeric(missing.numeric())
        .missing_categorical(missing.categorical());
    Ok(read_csv(path, &csv)?)
}

/// Writes `bytes` to `path` through a temporary file in the same folder,
/// renamed over `path` once complete: `path` never holds a half-written
/// file, and on error no new file is left.
///
/// # Errors
/// [`crate::Error::Io`] naming the file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    crate::file::write_atomically(path, bytes)
}

/// Reads the labelled CSV at `path` against a fitted model's `schema`, as
/// [`read_for_schema`] does, with the labels of column `target` read as
/// the model's classes (or real values): the data a report scores the
/// model on.
///
/// # Errors
/// As [`read_for_schema`]; [`crate::Error::NoLabel`] naming the file when
/// it has no column `target`; a label the model was not fitted on is an
/// [`crate::Error::Data`] naming the file, row and label.
pub fn read_labelled_for_schema(
    path: &Path,
    schema: &Schema,
    target: &str,
    opts: &PredictOptions,
) -> Result<Dataset> {
    let missing = if opts.keep_missing {
        Missing::Keep
    } else {
        Missing::Error
    };
    let csv = CsvOptions::default()
        .target(target)
        .schema(schema.clone())
        .delimiter(opts.delimiter)
        .missing_numeric(missing.numeric())
        .missing_categorical(missing.categorical());
    let data = read_csv(path, &csv)?;
    if !data.has_target() {
        return Err(crate::Error::NoLabel {
            data: path.display().to_string(),
            column: target.to_string(),
        });
    }
    Ok(data)
}
