//! What the reader decided about each column, and why.

use std::fmt;

use super::ColumnKind;

/// Why a feature column has its kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KindReason {
    /// Declared by [`CsvOptions::kind`](super::CsvOptions::kind) or
    /// [`CsvOptions::default_kind`](super::CsvOptions::default_kind).
    Declared,
    /// Given by the schema the file was read against.
    Schema,
    /// Detected: every value that is not missing is a number.
    AllNumbers,
    /// Detected: some values are not numbers, so the column is categorical.
    NotNumbers {
        /// How many values are not numbers.
        count: usize,
        /// 1-based data row of the first one.
        first_row: usize,
        /// The first one.
        first_value: String,
    },
}

/// What was decided about one feature column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnDecision {
    /// The column name.
    pub column: String,
    /// Numeric or categorical.
    pub kind: ColumnKind,
    /// Number of levels (categorical; including [`MISSING_LEVEL`](super::MISSING_LEVEL)
    /// when missing values are a level), 0 for numeric.
    pub levels: usize,
    /// Missing values among the rows read.
    pub missing: usize,
    /// Why the column has this kind.
    pub reason: KindReason,
}

/// Why the target holds classes or real values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetReason {
    /// Declared by [`CsvOptions::task`](super::CsvOptions::task).
    Declared,
    /// Given by the schema the file was read against.
    Schema,
    /// Detected: some labels are not numbers.
    NotNumbers {
        /// 1-based data row of the first one.
        first_row: usize,
        /// The first one.
        first_value: String,
    },
    /// Detected: the values are integers with at most
    /// [`AUTO_MAX_CLASSES`](super::AUTO_MAX_CLASSES) distinct ones.
    FewIntegers {
        /// How many distinct values.
        distinct: usize,
    },
    /// Detected: the values are numbers, not all integers or more than
    /// [`AUTO_MAX_CLASSES`](super::AUTO_MAX_CLASSES) distinct ones.
    RealValues,
}

/// What was decided about the target column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetDecision {
    /// The column name.
    pub column: String,
    /// Number of classes, or `None` for real values.
    pub classes: Option<usize>,
    /// Why.
    pub reason: TargetReason,
}

/// What [`read_csv_with_report`](super::read_csv_with_report) decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvReport {
    /// Data rows in the file.
    pub rows_read: usize,
    /// Rows dropped for missing values.
    pub rows_dropped: usize,
    /// The feature columns, in the dataset's order.
    pub features: Vec<ColumnDecision>,
    /// The target column, if the dataset has one.
    pub target: Option<TargetDecision>,
    /// Columns not read: dropped by the options, or not in the schema.
    pub ignored: Vec<String>,
}

impl CsvReport {
    /// The decision about feature `column`.
    pub fn feature(&self, column: &str) -> Option<&ColumnDecision> {
        self.features.iter().find(|d| d.column == column)
    }
}

impl fmt::Display for ColumnDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ColumnKind::Numeric => write!(f, "{}: numeric", self.column)?,
            ColumnKind::Categorical => write!(
                f,
                "{}: categorical with {} levels",
                self.column, self.levels
            )?,
        }
        match &self.reason {
            KindReason::Declared => write!(f, " (declared)")?,
            KindReason::Schema => write!(f, " (schema)")?,
            KindReason::AllNumbers => write!(f, " (every value is a number)")?,
            KindReason::NotNumbers {
                count,
                first_row,
                first_value,
            } => write!(
                f,
                " ({count} value{} not numbers, first '{first_value}' at row {first_row})",
                if *count == 1 { " is" } else { "s are" }
            )?,
        }
        if self.missing > 0 {
            write!(f, ", {} missing", self.missing)?;
        }
        Ok(())
    }
}

impl fmt::Display for TargetDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.classes {
            Some(n) => write!(f, "{} (target): {n} classes", self.column)?,
            None => write!(f, "{} (target): real values", self.column)?,
        }
        match &self.reason {
            TargetReason::Declared => write!(f, " (declared)"),
            TargetReason::Schema => write!(f, " (schema)"),
            TargetReason::NotNumbers {
                first_row,
                first_value,
            } => write!(
                f,
                " (labels are not numbers, first '{first_value}' at row {first_row})"
            ),
            TargetReason::FewIntegers { distinct } => {
                write!(f, " ({distinct} distinct integers)")
            }
            TargetReason::RealValues => write!(f, " (numbers, not a few integers)"),
        }
    }
}

impl fmt::Display for CsvReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} rows read", self.rows_read)?;
        if self.rows_dropped > 0 {
            write!(f, ", {} dropped for missing values", self.rows_dropped)?;
        }
        writeln!(f)?;
        for d in &self.features {
            writeln!(f, "{d}")?;
        }
        match &self.target {
            Some(t) => writeln!(f, "{t}")?,
            None => writeln!(f, "no target")?,
        }
        if !self.ignored.is_empty() {
            writeln!(f, "not read: {}", self.ignored.join(", "))?;
        }
        Ok(())
    }
}
