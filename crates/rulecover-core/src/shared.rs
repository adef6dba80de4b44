//! The benchmark data directory (`shared/datasets` beside the project):
//! finding it, reading its `manifest.json`, and loading each tabular or
//! regression data set with the column kinds the manifest records
//! (integer-coded categoricals such as those of `hearts` cannot be
//! detected from the values).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::csv::{read_csv, ColumnKind, CsvOptions, TaskKind};
use crate::dataset::Dataset;
use crate::error::{Error, Result};

/// The environment variable that names the data directory.
pub const DATA_DIR_ENV: &str = "RC_DATA_DIR";

/// The data directory: `explicit` if given, else `$RC_DATA_DIR`, else
/// `../shared/datasets` relative to the current directory. Returns the
/// first candidate that is a directory holding `manifest.json`, or the
/// list of places looked at.
pub fn locate_data_dir(explicit: Option<&Path>) -> std::result::Result<PathBuf, Vec<PathBuf>> {
    let mut tried = Vec::new();
    let candidates: Vec<PathBuf> = match explicit {
        Some(p) => vec![p.to_path_buf()],
        None => std::env::var_os(DATA_DIR_ENV)
            .map(PathBuf::from)
            .into_iter()
            .chain(std::iter::once(PathBuf::from("../shared/datasets")))
            .collect(),
    };
    for c in candidates {
        if c.join("manifest.json").is_file() {
            return Ok(c);
        }
        tried.push(c);
    }
    Err(tried)
}

/// What kind of learning task a data set poses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Task {
    /// Two classes.
    Binary,
    /// More than two classes.
    Multiclass,
    /// A real-valued target.
    Regression,
    /// A relational (BoostSRL) data set.
    Relational,
}

/// One data set as the manifest describes it.
#[derive(Debug, Clone, Deserialize)]
pub struct ManifestEntry {
    /// Name, as used on the command line and in reports.
    pub name: String,
    /// Path relative to the data directory.
    pub path: String,
    /// The task.
    pub task: Task,
    /// Rows (tabular only).
    pub rows: Option<usize>,
    /// Features (tabular only).
    pub features: Option<usize>,
    /// Classes (classification only).
    pub n_classes: Option<usize>,
    /// Column kinds (tabular only).
    pub feature_types: Option<FeatureTypes>,
    /// The label column (tabular only).
    pub label: Option<LabelInfo>,
    /// The target predicate (relational only).
    pub target_predicate: Option<String>,
    /// Number of folds (relational only).
    pub n_folds: Option<usize>,
}

/// Column kinds recorded by the manifest.
#[derive(Debug, Clone, Deserialize)]
pub struct FeatureTypes {
    /// Columns to read as categorical.
    pub categorical_columns: Vec<String>,
}

/// The label column recorded by the manifest.
#[derive(Debug, Clone, Deserialize)]
pub struct LabelInfo {
    /// Its name.
    pub column: String,
}

#[derive(Deserialize)]
struct Manifest {
    datasets: Vec<ManifestEntry>,
}

/// An opened data directory.
#[derive(Debug, Clone)]
pub struct SharedData {
    root: PathBuf,
    entries: Vec<ManifestEntry>,
}

impl SharedData {
    /// Opens a data directory by reading its `manifest.json`.
    pub fn open(root: &Path) -> Result<Self> {
        let path = root.join("manifest.json");
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Io {
            path: path.clone(),
            source,
        })?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| Error::Json {
            file: path.display().to_string(),
            message: e.to_string(),
        })?;
        Ok(SharedData {
            root: root.to_path_buf(),
            entries: manifest.datasets,
        })
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every data set in the manifest, in manifest order.
    pub fn entries(&self) -> &[ManifestEntry] {
        &self.entries
    }

    /// The manifest entry of a data set.
    pub fn entry(&self, name: &str) -> Result<&ManifestEntry> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| Error::InvalidParameter {
                name: "dataset",
                value: name.to_string(),
                reason: format!(
                    "not in {}/manifest.json; known: {}",
                    self.root.display(),
                    self.entries
                        .iter()
                        .map(|e| e.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
    }

    /// The CSV options [`SharedData::load`] reads a data set with: the
    /// manifest's task, label column and categorical columns (the kinds
    /// of the other columns are detected from their values).
    pub fn csv_options(&self, name: &str) -> Result<CsvOptions> {
        let e = self.entry(name)?;
        let task = match e.task {
            Task::Binary | Task::Multiclass => TaskKind::Classification,
            Task::Regression => TaskKind::Regression,
            Task::Relational => {
                return Err(Error::InvalidParameter {
                    name: "dataset",
                    value: name.to_string(),
                    reason: "is relational (BoostSRL facts); load it with rc-logic".into(),
                })
            }
        };
        let mut opts = CsvOptions::default().task(task);
        if let Some(l) = &e.label {
            opts = opts.target(l.column.clone());
        }
        let categorical = e
            .feature_types
            .as_ref()
            .map(|f| f.categorical_columns.as_slice())
            .unwrap_or_default();
        for c in categorical {
            opts = opts.kind(c.clone(), ColumnKind::Categorical);
        }
        Ok(opts)
    }

    /// Loads a tabular or regression data set with the manifest's column
    /// kinds and label column. Missing categorical values become a level of
    /// their own; a missing numeric value is an error.
    pub fn load(&self, name: &str) -> Result<Dataset> {
        let opts = self.csv_options(name)?;
        read_csv(&self.root.join(&self.entry(name)?.path), &opts)
    }

    /// Loads a data set as [`SharedData::load`] does but with every
    /// column's kind declared when the manifest records kinds: its
    /// categorical columns categorical, all the others numeric. A value
    /// that is not a number in a numeric column is then an
    /// [`Error::NotNumeric`] naming the column, row and value, where
    /// [`SharedData::load`] would read the column as categorical. On a
    /// file without such values both give the same dataset.
    pub fn load_declared(&self, name: &str) -> Result<Dataset> {
        let e = self.entry(name)?;
        let mut opts = self.csv_options(name)?;
        if e.feature_types.is_some() {
            opts = opts.default_kind(ColumnKind::Numeric);
        }
        read_csv(&self.root.join(&e.path), &opts)
    }
}
