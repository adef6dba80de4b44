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
//! - [`write_atomically`]: a file written to a temporary file in the same
//!   folder and renamed into place, so that it is never half-written.

use std::path::Path;

use rulecover_core::csv::{
    read_csv, read_csv_str, ColumnKind, CsvOptions, MissingCategorical, MissingNumeric, TaskKind,
};
use rulecover_core::{Dataset, Schema, Target};

use crate::error::{Error, Result};

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
/// [`Error::Data`] naming the file, column, row and value (unknown
/// column, non-number in a numeric column, missing value, bad target);
/// [`Error::UnknownClass`] for a positive class the target lacks or a
/// target that is not two classes.
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
            wopts.target = Some(column.clone());
            wopts.task = TaskKind::Regression;
            wopts.drop_columns.push(opts.target.clone());
            let w = read_csv(path, &wopts)?;
            csv = csv.drop_column(column.clone());
            Some(w.target_values())
        }
    };
    let mut data = read_csv(path, &csv)?;
    if let Some(class) = &opts.positive_class {
        data = with_positive_class(&data, &opts.target, class)?;
    }
    Ok((data, weights))
}

/// `data` with class `class` moved to class 1 (two classes only).
fn with_positive_class(data: &Dataset, column: &str, class: &str) -> Result<Dataset> {
    let Target::Classes { labels, names } = data.target_storage() else {
        return Err(Error::UnknownClass {
            data: data.name().into(),
            column: column.into(),
            class: class.into(),
            classes: "none: the target is real-valued".into(),
        });
    };
    let unknown = || Error::UnknownClass {
        data: data.name().into(),
        column: column.into(),
        class: class.into(),
        classes: names.join(", "),
    };
    let Some(pos) = rulecover_core::schema::position_of_label(names, class) else {
        return Err(unknown());
    };
    if names.len() != 2 {
        return Err(Error::UnknownClass {
            data: data.name().into(),
            column: column.into(),
            class: class.into(),
            classes: format!(
                "{} (a positive class needs exactly two classes)",
                names.join(", ")
            ),
        });
    }
    if pos == 1 {
        return Ok(data.clone());
    }
    let labels: Vec<usize> = (0..data.n_rows())
        .map(|i| 1 - labels[data.storage_row(i)])
        .collect();
    let names = vec![names[1].clone(), names[0].clone()];
    Ok(data.with_target(Target::Classes { labels, names })?)
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

/// Reads the CSV at `path` to predict with a model of schema `schema`:
/// the model's columns by name, in any order, with extra columns ignored
/// and the label column optional (it is not read). Each column is read as
/// the kind the model was fitted on, so categorical levels that look like
/// numbers stay levels. The returned data has no target, and its name is
/// the file's path, so errors about it name the file.
///
/// # Errors
/// [`Error::Data`] naming the file, column and row (a value that is not a
/// number, a missing value, a row of the wrong length); a column the model
/// needs that the file lacks is reported when predicting
/// ([`rulecover_core::Error::MissingColumn`]).
pub fn read_for_schema(path: &Path, schema: &Schema, opts: &PredictOptions) -> Result<Dataset> {
    let bytes = std::fs::read(path).map_err(|source| rulecover_core::Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let name = path.display().to_string();
    let csv_error = |row: usize, e: csv::Error| {
        Error::Data(rulecover_core::Error::Csv {
            file: name.clone(),
            row,
            message: e.to_string(),
        })
    };
    // The existing reader always reads a target: give it a column of its
    // own, appended to every row, and leave out everything the model does
    // not read.
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(opts.delimiter)
        .from_reader(bytes.as_slice());
    let mut writer = csv::WriterBuilder::new()
        .delimiter(opts.delimiter)
        .from_writer(Vec::new());
    let mut header: Option<Vec<String>> = None;
    let mut dummy = String::from("__rulecover_unlabeled__");
    for (k, record) in reader.records().enumerate() {
        let record = record.map_err(|e| csv_error(k, e))?;
        let mut fields: Vec<&str> = record.iter().collect();
        if header.is_none() {
            let names: Vec<String> = fields.iter().map(|f| f.trim().to_string()).collect();
            while names.contains(&dummy) {
                dummy.push('_');
            }
            header = Some(names);
            fields.push(&dummy);
        } else if !(fields.len() == 1 && fields[0].trim().is_empty()) {
            fields.push("0");
        }
        writer.write_record(&fields).map_err(|e| csv_error(k, e))?;
    }
    let Some(header) = header else {
        return Err(Error::Data(rulecover_core::Error::Empty {
            file: name,
            what: "the file is empty (no header row)".into(),
        }));
    };
    let text = writer
        .into_inner()
        .map_err(|e| csv_error(0, e.into_error().into()))?;
    let text = String::from_utf8(text).map_err(|e| {
        Error::Data(rulecover_core::Error::Csv {
            file: name.clone(),
            row: 0,
            message: format!("not UTF-8: {e}"),
        })
    })?;
    let missing = if opts.keep_missing {
        Missing::Keep
    } else {
        Missing::Error
    };
    let mut csv = CsvOptions::default()
        .target(dummy.clone())
        .task(TaskKind::Regression)
        .delimiter(opts.delimiter)
        .missing_numeric(missing.numeric())
        .missing_categorical(missing.categorical());
    for column in &header {
        match schema.features.iter().find(|f| &f.name == column) {
            Some(f) if f.is_categorical() => {
                csv = csv.kind(column.clone(), ColumnKind::Categorical)
            }
            Some(_) => csv = csv.kind(column.clone(), ColumnKind::Numeric),
            None => {
                if !csv.drop_columns.contains(column) {
                    csv = csv.drop_column(column.clone());
                }
            }
        }
    }
    let data = read_csv_str(&name, &text, &csv)?;
    Ok(data.with_target(Target::None)?)
}

/// Writes `bytes` to `path` through a temporary file in the same folder,
/// renamed over `path` once complete: `path` never holds a half-written
/// file, and on error no new file is left.
///
/// # Errors
/// [`Error::Io`] naming the file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    crate::file::write_atomically(path, bytes)
}
