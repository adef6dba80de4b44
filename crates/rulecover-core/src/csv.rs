//! CSV loading with explicit policies for column kinds, missing values and
//! the target, streamed straight into columns.
//!
//! Two ways to read a file:
//! - **exploring** (no schema): every column not declared with
//!   [`CsvOptions::kind`] (or [`CsvOptions::default_kind`]) is numeric when
//!   all its values are numbers and categorical otherwise; the
//!   [`CsvReport`] of [`read_csv_with_report`] says what was decided and
//!   why;
//! - **against a schema** ([`CsvOptions::schema`]): the columns a model was
//!   fitted on are matched by name, in any order, read with the training
//!   kinds, levels and classes; other columns are not even parsed and the
//!   label column may be absent.
//!
//! A column declared numeric (by [`CsvOptions::kind`], by the schema, or
//! by [`CsvOptions::default_kind`]) that holds a non-number is an error
//! naming the column, the row and the value: it never silently becomes
//! categorical. Class labels that parse as numbers compare as numbers
//! (`1` and `1.0` are one class).
//!
//! ```
//! use rulecover_core::csv::{read_csv_str, CsvOptions};
//! let text = "age,color,y\n31,red,yes\n,blue,no\n47,,no\n";
//! let opts = CsvOptions::default()
//!     .missing_numeric(rulecover_core::csv::MissingNumeric::DropRows);
//! let data = read_csv_str("example", text, &opts)?;
//! assert_eq!(data.n_rows(), 2);                  // the row without an age is dropped
//! assert_eq!(data.class_names(), ["no", "yes"]);
//! assert!(data.features()[1].is_categorical());  // a missing color is its own level
//! # Ok::<(), rulecover_core::Error>(())
//! ```
//!
//! Reading test data with the training's schema:
//!
//! ```
//! use rulecover_core::csv::{read_csv_str, CsvOptions};
//! use rulecover_core::Schema;
//! let train = read_csv_str("train", "age,color,y\n31,red,1\n52,blue,0\n", &CsvOptions::default())?;
//! let schema = Schema::of(&train);
//! // Columns in another order, an extra column, no label column:
//! let test = "id,color,age\n7,blue,40\n8,red,33\n";
//! let data = read_csv_str("test", test, &CsvOptions::default().target("y").schema(schema.clone()))?;
//! assert_eq!(data.features(), schema.features.as_slice());
//! assert_eq!(data.row(0), vec![40.0, 0.0]);      // 'blue' is level 0 of the training
//! assert!(!data.has_target());
//! # Ok::<(), rulecover_core::Error>(())
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use crate::dataset::Dataset;
use crate::error::Result;
use crate::schema::{Schema, UnseenLevel};

mod columns;
mod finish;
mod labels;
mod plan;
mod report;
mod source;

pub use report::{ColumnDecision, CsvReport, KindReason, TargetDecision, TargetReason};

/// What to do with a missing value in a numeric column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MissingNumeric {
    /// Fail with an error naming the column and the first row (default).
    #[default]
    Error,
    /// Drop every row that has a missing numeric value.
    DropRows,
    /// Keep the value as `NaN`, for learners that handle missing values.
    Keep,
}

/// What to do with a missing value in a categorical column.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum MissingCategorical {
    /// Missing is a level of its own, named [`MISSING_LEVEL`] (default;
    /// the authors' loaders treat `?` in adult and mushroom that way).
    /// Against a schema, the schema's [`MISSING_LEVEL`] if it has one,
    /// else an unseen level (see [`CsvOptions::unseen_level`]).
    #[default]
    OwnLevel,
    /// Keep the value as `NaN` (no level).
    Keep,
    /// Drop every row that has a missing categorical value.
    DropRows,
    /// Fail with an error naming the column and the first row.
    Error,
}

/// The name of the level that stands for a missing categorical value.
pub const MISSING_LEVEL: &str = "<missing>";

/// The kind of a column, forced by the user or detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// Numbers (every non-missing value must parse as `f64`).
    Numeric,
    /// Categories: every distinct value is a level.
    Categorical,
}

/// Which kind of target to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskKind {
    /// Classes when the target column holds non-numbers or at most
    /// [`AUTO_MAX_CLASSES`] distinct integers; real values otherwise.
    #[default]
    Auto,
    /// Class labels (every distinct value is a class; labels that parse
    /// as numbers are compared as numbers).
    Classification,
    /// Real values.
    Regression,
}

/// Largest number of distinct integer target values that [`TaskKind::Auto`]
/// still reads as classes.
pub const AUTO_MAX_CLASSES: usize = 10;

/// Which column holds the target.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum TargetColumn {
    /// The last column (default). Against a schema, the last column is the
    /// target only when it is not one of the schema's features.
    #[default]
    Last,
    /// The column of this name. Against a schema the column may be absent
    /// (unlabeled data); otherwise its absence is an error.
    Named(String),
    /// No target: every column is a feature and the dataset has
    /// [`Target::None`](crate::Target::None).
    None,
}

/// How to read a CSV file into a [`Dataset`].
#[derive(Debug, Clone)]
pub struct CsvOptions {
    /// Which column holds the target.
    pub target: TargetColumn,
    /// Which kind of target to build (not consulted against a schema,
    /// whose target decides).
    pub task: TaskKind,
    /// Field delimiter.
    pub delimiter: u8,
    /// Field values that mean "missing" (compared after trimming).
    pub missing_markers: Vec<String>,
    /// Policy for missing numeric values.
    pub missing_numeric: MissingNumeric,
    /// Policy for missing categorical values.
    pub missing_categorical: MissingCategorical,
    /// Column kinds that override detection, by column name.
    pub kinds: BTreeMap<String, ColumnKind>,
    /// The kind of every feature column not named in `kinds`; `None`
    /// (default) detects it from the values.
    pub default_kind: Option<ColumnKind>,
    /// Columns to leave out (e.g. an id column).
    pub drop_columns: Vec<String>,
    /// The class that becomes class 1 of a binary target (the other one
    /// is class 0); `None` keeps the natural order (numbers in numeric
    /// order, other labels in byte order).
    pub positive_class: Option<String>,
    /// Read the file against this schema (the training data's): see
    /// [`CsvOptions::schema`].
    pub schema: Option<Schema>,
    /// Against a schema, what to do with a categorical level the schema
    /// lacks.
    pub unseen_level: UnseenLevel,
}

impl Default for CsvOptions {
    fn default() -> Self {
        CsvOptions {
            target: TargetColumn::Last,
            task: TaskKind::Auto,
            delimiter: b',',
            missing_markers: vec![String::new(), "NA".into(), "?".into()],
            missing_numeric: MissingNumeric::Error,
            missing_categorical: MissingCategorical::OwnLevel,
            kinds: BTreeMap::new(),
            default_kind: None,
            drop_columns: Vec::new(),
            positive_class: None,
            schema: None,
            unseen_level: UnseenLevel::Error,
        }
    }
}

impl CsvOptions {
    /// Sets the target column by name.
    pub fn target(mut self, name: impl Into<String>) -> Self {
        self.target = TargetColumn::Named(name.into());
        self
    }

    /// Reads the file without a target: every column is a feature.
    pub fn no_target(mut self) -> Self {
        self.target = TargetColumn::None;
        self
    }

    /// Sets the kind of target.
    pub fn task(mut self, task: TaskKind) -> Self {
        self.task = task;
        self
    }

    /// Sets the missing-numeric policy.
    pub fn missing_numeric(mut self, policy: MissingNumeric) -> Self {
        self.missing_numeric = policy;
        self
    }

    /// Sets the missing-categorical policy.
    pub fn missing_categorical(mut self, policy: MissingCategorical) -> Self {
        self.missing_categorical = policy;
        self
    }

    /// Declares the kind of one column. A column declared numeric that
    /// holds a non-number is an [`Error::NotNumeric`](crate::Error::NotNumeric).
    pub fn kind(mut self, column: impl Into<String>, kind: ColumnKind) -> Self {
        self.kinds.insert(column.into(), kind);
        self
    }

    /// Declares the kind of every feature column not named by
    /// [`CsvOptions::kind`] (no detection at all).
    pub fn default_kind(mut self, kind: ColumnKind) -> Self {
        self.default_kind = Some(kind);
        self
    }

    /// Leaves a column out.
    pub fn drop_column(mut self, column: impl Into<String>) -> Self {
        self.drop_columns.push(column.into());
        self
    }

    /// Sets the delimiter.
    pub fn delimiter(mut self, delimiter: u8) -> Self {
        self.delimiter = delimiter;
        self
    }

    /// Names the positive class of a binary target: it becomes class 1.
    /// Reading fails with [`Error::InvalidParameter`](crate::Error::InvalidParameter)
    /// when the target is not binary or the class is not one of its labels
    /// (compared as numbers when both parse as numbers).
    pub fn positive_class(mut self, class: impl Into<String>) -> Self {
        self.positive_class = Some(class.into());
        self
    }

    /// Reads the file against `schema` (the training data's, e.g.
    /// [`Schema::of`] or a model's `schema()`):
    /// - each schema feature is found **by name** (any order;
    ///   [`Error::MissingColumn`](crate::Error::MissingColumn) when absent),
    ///   other columns are ignored without being parsed;
    /// - numeric features must hold numbers
    ///   ([`Error::NotNumeric`](crate::Error::NotNumeric));
    /// - categorical values get the schema's level codes (an unseen level
    ///   is [`Error::UnseenLevel`](crate::Error::UnseenLevel) unless
    ///   [`CsvOptions::unseen_level`] says [`UnseenLevel::Missing`]);
    /// - the target column is optional: absent (or a schema without a
    ///   target) gives [`Target::None`](crate::Target::None); present, its
    ///   labels get the schema's class codes
    ///   ([`Error::UnseenClass`](crate::Error::UnseenClass) for others).
    ///
    /// The dataset's features equal `schema.features`, so an
    /// [`Encoder`](crate::Encoder) takes it as it is. Declared
    /// [`kinds`](CsvOptions::kind) and the [`task`](CsvOptions::task) must
    /// agree with the schema; the schema fixes the class order.
    pub fn schema(mut self, schema: Schema) -> Self {
        self.schema = Some(schema);
        self
    }

    /// Against a schema, what to do with a categorical level it lacks.
    pub fn unseen_level(mut self, policy: UnseenLevel) -> Self {
        self.unseen_level = policy;
        self
    }
}

/// Reads a CSV file with a header row.
pub fn read_csv(path: &Path, opts: &CsvOptions) -> Result<Dataset> {
    read_csv_with_report(path, opts).map(|(data, _)| data)
}

/// Reads CSV text held in memory; `name` names the dataset and appears in
/// error messages.
pub fn read_csv_str(name: &str, text: &str, opts: &CsvOptions) -> Result<Dataset> {
    read_csv_str_with_report(name, text, opts).map(|(data, _)| data)
}

/// Reads a CSV file with a header row and reports what was decided about
/// each column (kind, levels, and why).
pub fn read_csv_with_report(path: &Path, opts: &CsvOptions) -> Result<(Dataset, CsvReport)> {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    finish::read(
        &source::Source::File(path),
        &path.display().to_string(),
        &name,
        opts,
    )
}

/// Reads CSV text held in memory and reports what was decided about each
/// column; `name` names the dataset and appears in error messages.
pub fn read_csv_str_with_report(
    name: &str,
    text: &str,
    opts: &CsvOptions,
) -> Result<(Dataset, CsvReport)> {
    finish::read(&source::Source::Bytes(text.as_bytes()), name, name, opts)
}
