//! CSV loading with explicit policies for column kinds and missing values.
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

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::dataset::{Dataset, Feature, Target};
use crate::error::{Error, Result};

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
    /// Class labels (every distinct value is a class).
    Classification,
    /// Real values.
    Regression,
}

/// Largest number of distinct integer target values that [`TaskKind::Auto`]
/// still reads as classes.
pub const AUTO_MAX_CLASSES: usize = 10;

/// How to read a CSV file into a [`Dataset`].
#[derive(Debug, Clone)]
pub struct CsvOptions {
    /// Name of the target column; `None` = the last column.
    pub target: Option<String>,
    /// Which kind of target to build.
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
    /// Columns to leave out (e.g. an id column).
    pub drop_columns: Vec<String>,
}

impl Default for CsvOptions {
    fn default() -> Self {
        CsvOptions {
            target: None,
            task: TaskKind::Auto,
            delimiter: b',',
            missing_markers: vec![String::new(), "NA".into(), "?".into()],
            missing_numeric: MissingNumeric::Error,
            missing_categorical: MissingCategorical::OwnLevel,
            kinds: BTreeMap::new(),
            drop_columns: Vec::new(),
        }
    }
}

impl CsvOptions {
    /// Sets the target column by name.
    pub fn target(mut self, name: impl Into<String>) -> Self {
        self.target = Some(name.into());
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

    /// Forces the kind of one column.
    pub fn kind(mut self, column: impl Into<String>, kind: ColumnKind) -> Self {
        self.kinds.insert(column.into(), kind);
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
}

/// Reads a CSV file with a header row.
pub fn read_csv(path: &Path, opts: &CsvOptions) -> Result<Dataset> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    parse(&path.display().to_string(), &name, &bytes, opts)
}

/// Reads CSV text held in memory; `name` names the dataset and appears in
/// error messages.
pub fn read_csv_str(name: &str, text: &str, opts: &CsvOptions) -> Result<Dataset> {
    parse(name, name, text.as_bytes(), opts)
}

/// The raw fields of a file: header plus rows of trimmed strings.
struct RawTable {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

fn read_raw(file: &str, bytes: &[u8], delimiter: u8) -> Result<RawTable> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(::csv::Trim::All)
        .delimiter(delimiter)
        .from_reader(bytes);
    let mut records = reader.records();
    let csv_err = |row: usize, e: ::csv::Error| Error::Csv {
        file: file.to_string(),
        row,
        message: e.to_string(),
    };
    let header: Vec<String> = match records.next() {
        None => {
            return Err(Error::Empty {
                file: file.to_string(),
                what: "the file is empty (no header row)".into(),
            })
        }
        Some(r) => r
            .map_err(|e| csv_err(0, e))?
            .iter()
            .map(str::to_string)
            .collect(),
    };
    let mut rows = Vec::new();
    for (k, rec) in records.enumerate() {
        let rec = rec.map_err(|e| csv_err(k + 1, e))?;
        if rec.len() == 1 && rec.get(0) == Some("") {
            continue; // blank line
        }
        if rec.len() != header.len() {
            return Err(Error::RaggedRow {
                file: file.to_string(),
                row: k + 1,
                expected: header.len(),
                found: rec.len(),
            });
        }
        rows.push(rec.iter().map(str::to_string).collect());
    }
    if rows.is_empty() {
        return Err(Error::Empty {
            file: file.to_string(),
            what: "the file has a header but no data rows".into(),
        });
    }
    Ok(RawTable { header, rows })
}

fn parse(file: &str, name: &str, bytes: &[u8], opts: &CsvOptions) -> Result<Dataset> {
    let table = read_raw(file, bytes, opts.delimiter)?;
    let is_missing = |v: &str| opts.missing_markers.iter().any(|m| m == v);
    let find = |col: &str| {
        table
            .header
            .iter()
            .position(|h| h == col)
            .ok_or_else(|| Error::UnknownColumn {
                file: file.to_string(),
                column: col.to_string(),
                available: table.header.join(", "),
            })
    };
    let target_col = match &opts.target {
        Some(t) => find(t)?,
        None => table.header.len() - 1,
    };
    for c in opts.drop_columns.iter().chain(opts.kinds.keys()) {
        find(c)?;
    }
    let feature_cols: Vec<usize> = (0..table.header.len())
        .filter(|&c| c != target_col && !opts.drop_columns.contains(&table.header[c]))
        .collect();

    // Decide each feature column's kind.
    let kinds: Vec<ColumnKind> = feature_cols
        .iter()
        .map(|&c| {
            opts.kinds
                .get(&table.header[c])
                .copied()
                .unwrap_or_else(|| {
                    let numeric = table
                        .rows
                        .iter()
                        .map(|r| r[c].as_str())
                        .filter(|v| !is_missing(v))
                        .all(|v| v.parse::<f64>().is_ok());
                    if numeric {
                        ColumnKind::Numeric
                    } else {
                        ColumnKind::Categorical
                    }
                })
        })
        .collect();

    // Rows to drop under the DropRows policies.
    let mut keep = vec![true; table.rows.len()];
    for (&c, kind) in feature_cols.iter().zip(&kinds) {
        let drop = match kind {
            ColumnKind::Numeric => opts.missing_numeric == MissingNumeric::DropRows,
            ColumnKind::Categorical => opts.missing_categorical == MissingCategorical::DropRows,
        };
        if drop {
            for (k, r) in table.rows.iter().enumerate() {
                if is_missing(&r[c]) {
                    keep[k] = false;
                }
            }
        }
    }
    let rows: Vec<(usize, &Vec<String>)> = table
        .rows
        .iter()
        .enumerate()
        .filter(|(k, _)| keep[*k])
        .collect();
    if rows.is_empty() {
        return Err(Error::Empty {
            file: file.to_string(),
            what: "every row was dropped for missing values".into(),
        });
    }

    let mut features = Vec::with_capacity(feature_cols.len());
    let mut columns = Vec::with_capacity(feature_cols.len());
    for (&c, kind) in feature_cols.iter().zip(&kinds) {
        let cname = &table.header[c];
        let values: Vec<(usize, &str)> = rows.iter().map(|(k, r)| (*k, r[c].as_str())).collect();
        match kind {
            ColumnKind::Numeric => {
                columns.push(numeric_column(file, cname, &values, opts, &is_missing)?);
                features.push(Feature::numeric(cname.clone()));
            }
            ColumnKind::Categorical => {
                let (levels, col) = categorical_column(file, cname, &values, opts, &is_missing)?;
                columns.push(col);
                features.push(Feature::categorical(cname.clone(), levels));
            }
        }
    }
    let tvals: Vec<(usize, &str)> = rows
        .iter()
        .map(|(k, r)| (*k, r[target_col].as_str()))
        .collect();
    let target = build_target(
        file,
        &table.header[target_col],
        &tvals,
        opts.task,
        &is_missing,
    )?;
    Dataset::new(name, features, columns, target)
}

fn numeric_column(
    file: &str,
    column: &str,
    values: &[(usize, &str)],
    opts: &CsvOptions,
    is_missing: &dyn Fn(&str) -> bool,
) -> Result<Vec<f64>> {
    let mut out = Vec::with_capacity(values.len());
    let mut first_bad: Option<(usize, &str)> = None;
    let mut n_bad = 0;
    let mut first_missing: Option<usize> = None;
    let mut n_missing = 0;
    for &(k, v) in values {
        if is_missing(v) {
            n_missing += 1;
            first_missing.get_or_insert(k);
            out.push(f64::NAN);
            continue;
        }
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() => out.push(x),
            _ => {
                n_bad += 1;
                first_bad.get_or_insert((k, v));
                out.push(f64::NAN);
            }
        }
    }
    let more = |n: usize, what: &str| {
        if n > 1 {
            format!(" ({n} {what} in all)")
        } else {
            String::new()
        }
    };
    if let Some((k, v)) = first_bad {
        return Err(Error::NotNumeric {
            file: file.to_string(),
            column: column.to_string(),
            row: k + 1,
            value: v.to_string(),
            more: more(n_bad, "such values"),
        });
    }
    if let (Some(k), MissingNumeric::Error) = (first_missing, opts.missing_numeric) {
        return Err(Error::MissingValue {
            file: file.to_string(),
            column: column.to_string(),
            row: k + 1,
            more: more(n_missing, "missing values"),
        });
    }
    Ok(out)
}

/// Sorts level names numerically when they all parse as numbers (integer
/// codes), lexicographically otherwise.
fn sort_levels(levels: BTreeSet<&str>) -> Vec<String> {
    let mut v: Vec<&str> = levels.into_iter().collect();
    if v.iter().all(|s| s.parse::<f64>().is_ok()) {
        v.sort_by(|a, b| {
            let (x, y) = (
                a.parse::<f64>().unwrap_or(0.0),
                b.parse::<f64>().unwrap_or(0.0),
            );
            x.total_cmp(&y)
        });
    }
    v.into_iter().map(str::to_string).collect()
}

fn categorical_column(
    file: &str,
    column: &str,
    values: &[(usize, &str)],
    opts: &CsvOptions,
    is_missing: &dyn Fn(&str) -> bool,
) -> Result<(Vec<String>, Vec<f64>)> {
    let present: BTreeSet<&str> = values
        .iter()
        .map(|v| v.1)
        .filter(|v| !is_missing(v))
        .collect();
    let mut levels = sort_levels(present);
    let any_missing = values.iter().find(|v| is_missing(v.1));
    let missing_code = match (any_missing, &opts.missing_categorical) {
        (Some(&(k, _)), MissingCategorical::Error) => {
            let n = values.iter().filter(|v| is_missing(v.1)).count();
            return Err(Error::MissingValue {
                file: file.to_string(),
                column: column.to_string(),
                row: k + 1,
                more: if n > 1 {
                    format!(" ({n} missing values in all)")
                } else {
                    String::new()
                },
            });
        }
        (Some(_), MissingCategorical::OwnLevel) => {
            levels.push(MISSING_LEVEL.to_string());
            (levels.len() - 1) as f64
        }
        _ => f64::NAN,
    };
    let index: BTreeMap<&str, usize> = levels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    let col = values
        .iter()
        .map(|&(_, v)| {
            if is_missing(v) {
                missing_code
            } else {
                index.get(v).map_or(f64::NAN, |&c| c as f64)
            }
        })
        .collect();
    Ok((levels, col))
}

fn build_target(
    file: &str,
    column: &str,
    values: &[(usize, &str)],
    task: TaskKind,
    is_missing: &dyn Fn(&str) -> bool,
) -> Result<Target> {
    if let Some(&(k, v)) = values.iter().find(|v| is_missing(v.1)) {
        return Err(Error::BadTarget {
            file: file.to_string(),
            column: column.to_string(),
            row: k + 1,
            value: v.to_string(),
        });
    }
    let numbers: Option<Vec<f64>> = values.iter().map(|v| v.1.parse::<f64>().ok()).collect();
    let classification = match task {
        TaskKind::Classification => true,
        TaskKind::Regression => false,
        TaskKind::Auto => match &numbers {
            None => true,
            Some(xs) => {
                let distinct: BTreeSet<u64> = xs.iter().map(|x| x.to_bits()).collect();
                xs.iter().all(|x| x.fract() == 0.0) && distinct.len() <= AUTO_MAX_CLASSES
            }
        },
    };
    if classification {
        let names = sort_levels(values.iter().map(|v| v.1).collect());
        let index: BTreeMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, l)| (l.as_str(), i))
            .collect();
        let labels = values.iter().map(|v| index[v.1]).collect();
        return Ok(Target::Classes { labels, names });
    }
    let mut out = Vec::with_capacity(values.len());
    for &(k, v) in values {
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() => out.push(x),
            _ => {
                return Err(Error::BadTarget {
                    file: file.to_string(),
                    column: column.to_string(),
                    row: k + 1,
                    value: v.to_string(),
                })
            }
        }
    }
    Ok(Target::Real(out))
}
