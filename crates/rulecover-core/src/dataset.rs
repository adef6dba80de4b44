//! Datasets: a numeric feature matrix with named, typed features and a target.
//!
//! Values are stored column by column in one shared allocation; a
//! [`Dataset`] is a cheap *view* (a list of row indices) onto that storage,
//! so cross-validation folds and bootstrap samples never copy the matrix.

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// What kind of values a feature holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FeatureKind {
    /// Real numbers; `NaN` marks a missing value.
    Numeric,
    /// A categorical feature stored as level codes `0..levels.len()`
    /// (as `f64`); `levels[c]` is the name of code `c`.
    Categorical {
        /// Level names, indexed by code.
        levels: Vec<String>,
    },
    /// A 0/1 indicator made by one-hot encoding categorical feature
    /// `source` at level `level`. Rules print `source == level` for
    /// `> 0.5` and `source != level` for `<= 0.5`.
    Indicator {
        /// The categorical feature it came from.
        source: String,
        /// The level it indicates.
        level: String,
    },
}

/// A named feature and its kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Feature {
    /// The column name.
    pub name: String,
    /// What values it holds.
    pub kind: FeatureKind,
}

impl Feature {
    /// A numeric feature.
    pub fn numeric(name: impl Into<String>) -> Self {
        Feature {
            name: name.into(),
            kind: FeatureKind::Numeric,
        }
    }

    /// A categorical feature with the given level names.
    pub fn categorical(name: impl Into<String>, levels: Vec<String>) -> Self {
        Feature {
            name: name.into(),
            kind: FeatureKind::Categorical { levels },
        }
    }

    /// True for categorical features (not for their one-hot indicators).
    pub fn is_categorical(&self) -> bool {
        matches!(self.kind, FeatureKind::Categorical { .. })
    }
}

/// The target of a supervised learning problem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Target {
    /// Class labels `0..names.len()`, one per row.
    Classes {
        /// Label of each row.
        labels: Vec<usize>,
        /// Class names, indexed by label.
        names: Vec<String>,
    },
    /// A real-valued target, one value per row.
    Real(Vec<f64>),
    /// No target: unlabeled rows, to predict.
    None,
}

impl Target {
    /// Number of rows the target has values for (`None` for no target).
    pub fn len(&self) -> Option<usize> {
        match self {
            Target::Classes { labels, .. } => Some(labels.len()),
            Target::Real(v) => Some(v.len()),
            Target::None => None,
        }
    }

    /// True when the target has values and none of them (zero rows).
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// True when the target is [`Target::None`].
    pub fn is_none(&self) -> bool {
        matches!(self, Target::None)
    }
}

/// The storage shared by every view of one dataset.
#[derive(Debug)]
struct Storage {
    name: String,
    features: Vec<Feature>,
    columns: Vec<Vec<f64>>,
    target: Target,
    n_rows: usize,
}

/// A view of rows of a dataset: features (column-major `f64`, `NaN` =
/// missing, categorical levels as codes) and a target.
///
/// Cloning and [`Dataset::subset`] are cheap: they share the storage and
/// keep only a list of row indices.
///
/// ```
/// use rulecover_core::{Dataset, Feature, Target};
/// let data = Dataset::new(
///     "toy",
///     vec![Feature::numeric("age"), Feature::numeric("bmi")],
///     vec![vec![30.0, 60.0, 45.0], vec![22.0, 31.0, 27.5]],
///     Target::Classes { labels: vec![0, 1, 1], names: vec!["no".into(), "yes".into()] },
/// ).unwrap();
/// let fold = data.subset(&[0, 2]).unwrap();
/// assert_eq!(fold.n_rows(), 2);
/// assert_eq!(fold.value(1, 0), 45.0);
/// assert_eq!(fold.label(1), 1);
/// ```
#[derive(Debug, Clone)]
pub struct Dataset {
    storage: Arc<Storage>,
    /// Row indices into the storage; `None` means all rows in order.
    rows: Option<Arc<[usize]>>,
}

impl Dataset {
    /// Builds a dataset from columns (`columns[j][i]` = feature `j` of row
    /// `i`) and a target, checking that all sizes agree and that
    /// categorical codes are valid level indices.
    pub fn new(
        name: impl Into<String>,
        features: Vec<Feature>,
        columns: Vec<Vec<f64>>,
        target: Target,
    ) -> Result<Self> {
        if features.len() != columns.len() {
            return Err(Error::Shape(format!(
                "{} feature descriptions but {} columns",
                features.len(),
                columns.len()
            )));
        }
        let n = target
            .len()
            .unwrap_or_else(|| columns.first().map_or(0, Vec::len));
        for (f, col) in features.iter().zip(&columns) {
            if col.len() != n {
                return Err(Error::Shape(format!(
                    "column '{}' has {} values but the dataset has {} rows",
                    f.name,
                    col.len(),
                    n
                )));
            }
            if let FeatureKind::Categorical { levels } = &f.kind {
                if let Some((row, v)) = col.iter().enumerate().find(|(_, v)| {
                    !v.is_nan() && (v.fract() != 0.0 || **v < 0.0 || **v >= levels.len() as f64)
                }) {
                    return Err(Error::Shape(format!(
                        "categorical column '{}' has code {} at row {} but only {} levels",
                        f.name,
                        v,
                        row + 1,
                        levels.len()
                    )));
                }
            }
        }
        match &target {
            Target::Classes { labels, names } => {
                if let Some((row, l)) = labels.iter().enumerate().find(|(_, l)| **l >= names.len())
                {
                    return Err(Error::Shape(format!(
                        "label {} at row {} but only {} class names",
                        l,
                        row + 1,
                        names.len()
                    )));
                }
            }
            Target::Real(v) => {
                if let Some((row, y)) = v.iter().enumerate().find(|(_, y)| !y.is_finite()) {
                    return Err(Error::Shape(format!(
                        "target value {} at row {} is not finite",
                        y,
                        row + 1
                    )));
                }
            }
            Target::None => {}
        }
        Ok(Dataset {
            storage: Arc::new(Storage {
                name: name.into(),
                features,
                columns,
                target,
                n_rows: n,
            }),
            rows: None,
        })
    }

    /// Builds a dataset from rows (`rows[i][j]` = feature `j` of row `i`).
    pub fn from_rows(
        name: impl Into<String>,
        features: Vec<Feature>,
        rows: &[Vec<f64>],
        target: Target,
    ) -> Result<Self> {
        let p = features.len();
        let mut columns = vec![Vec::with_capacity(rows.len()); p];
        for (i, r) in rows.iter().enumerate() {
            if r.len() != p {
                return Err(Error::Shape(format!(
                    "row {} has {} values but there are {} features",
                    i + 1,
                    r.len(),
                    p
                )));
            }
            for (c, v) in columns.iter_mut().zip(r) {
                c.push(*v);
            }
        }
        Dataset::new(name, features, columns, target)
    }

    /// The dataset's name (file stem or generator name).
    pub fn name(&self) -> &str {
        &self.storage.name
    }

    /// Number of rows in this view.
    pub fn n_rows(&self) -> usize {
        match &self.rows {
            Some(r) => r.len(),
            None => self.storage.n_rows,
        }
    }

    /// Number of features.
    pub fn n_features(&self) -> usize {
        self.storage.features.len()
    }

    /// The feature descriptions.
    pub fn features(&self) -> &[Feature] {
        &self.storage.features
    }

    /// Feature names in column order.
    pub fn feature_names(&self) -> Vec<String> {
        self.storage
            .features
            .iter()
            .map(|f| f.name.clone())
            .collect()
    }

    /// Index of row `i` of this view in the underlying storage.
    #[inline]
    pub fn storage_row(&self, i: usize) -> usize {
        match &self.rows {
            Some(r) => r[i],
            None => i,
        }
    }

    /// The value of feature `j` in row `i` of this view.
    #[inline]
    pub fn value(&self, i: usize, j: usize) -> f64 {
        self.storage.columns[j][self.storage_row(i)]
    }

    /// Feature `j` over the rows of this view (borrowed when the view is the
    /// whole dataset, gathered otherwise).
    pub fn column(&self, j: usize) -> Cow<'_, [f64]> {
        let col = &self.storage.columns[j];
        match &self.rows {
            None => Cow::Borrowed(col.as_slice()),
            Some(r) => Cow::Owned(r.iter().map(|&i| col[i]).collect()),
        }
    }

    /// Row `i` of this view as a vector of feature values.
    pub fn row(&self, i: usize) -> Vec<f64> {
        let s = self.storage_row(i);
        self.storage.columns.iter().map(|c| c[s]).collect()
    }

    /// Writes row `i` into `out` (length `n_features`), avoiding allocation.
    pub fn row_into(&self, i: usize, out: &mut [f64]) {
        let s = self.storage_row(i);
        for (o, c) in out.iter_mut().zip(&self.storage.columns) {
            *o = c[s];
        }
    }

    /// The whole target of the storage (all rows, not only this view).
    pub fn target_storage(&self) -> &Target {
        &self.storage.target
    }

    /// True when the data has a target (labels or values).
    pub fn has_target(&self) -> bool {
        !self.storage.target.is_none()
    }

    /// True when the target holds class labels.
    pub fn is_classification(&self) -> bool {
        matches!(self.storage.target, Target::Classes { .. })
    }

    /// Number of classes (0 for a regression target).
    pub fn n_classes(&self) -> usize {
        match &self.storage.target {
            Target::Classes { names, .. } => names.len(),
            Target::Real(_) | Target::None => 0,
        }
    }

    /// Class names (empty for a regression target).
    pub fn class_names(&self) -> &[String] {
        match &self.storage.target {
            Target::Classes { names, .. } => names,
            Target::Real(_) | Target::None => &[],
        }
    }

    /// Class label of row `i`; 0 for a regression target or no target.
    #[inline]
    pub fn label(&self, i: usize) -> usize {
        match &self.storage.target {
            Target::Classes { labels, .. } => labels[self.storage_row(i)],
            Target::Real(_) | Target::None => 0,
        }
    }

    /// Class labels of this view, or an error for a regression target.
    pub fn labels(&self) -> Result<Vec<usize>> {
        match &self.storage.target {
            Target::Classes { labels, .. } => Ok((0..self.n_rows())
                .map(|i| labels[self.storage_row(i)])
                .collect()),
            Target::Real(_) => Err(Error::TargetKind(format!(
                "dataset '{}' has a real-valued target; class labels were asked for",
                self.name()
            ))),
            Target::None => Err(Error::TargetKind(format!(
                "dataset '{}' has no target; class labels were asked for",
                self.name()
            ))),
        }
    }

    /// Target value of row `i`: the real value, the class label as `f64`,
    /// or `NaN` without a target.
    #[inline]
    pub fn target_value(&self, i: usize) -> f64 {
        match &self.storage.target {
            Target::Classes { labels, .. } => labels[self.storage_row(i)] as f64,
            Target::Real(v) => v[self.storage_row(i)],
            Target::None => f64::NAN,
        }
    }

    /// Target values of this view as `f64` (labels as numbers for classes).
    pub fn target_values(&self) -> Vec<f64> {
        (0..self.n_rows()).map(|i| self.target_value(i)).collect()
    }

    /// Number of rows of each class in this view.
    pub fn class_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.n_classes()];
        for i in 0..self.n_rows() {
            counts[self.label(i)] += 1;
        }
        counts
    }

    /// True when any feature value of this view is missing (`NaN`).
    pub fn has_missing(&self) -> bool {
        (0..self.n_features()).any(|j| self.column(j).iter().any(|v| v.is_nan()))
    }

    /// A view of rows `indices` of this view (indices relative to this
    /// view). Indices may repeat (bootstrap samples).
    pub fn subset(&self, indices: &[usize]) -> Result<Dataset> {
        let n = self.n_rows();
        if let Some(bad) = indices.iter().find(|&&i| i >= n) {
            return Err(Error::Shape(format!(
                "row index {bad} out of range for a view of {n} rows"
            )));
        }
        let rows: Arc<[usize]> = indices.iter().map(|&i| self.storage_row(i)).collect();
        Ok(Dataset {
            storage: Arc::clone(&self.storage),
            rows: Some(rows),
        })
    }

    /// A copy of this view with every categorical feature replaced by one
    /// 0/1 indicator column per level, as `pandas.get_dummies`: with
    /// `drop_first` the first level of each feature gets no column (seed
    /// 000's loaders), without it every level does (seed 001's). Numeric
    /// features are kept. The result owns fresh storage holding only this
    /// view's rows; a missing categorical value (if not a level) gives 0 in
    /// every indicator.
    pub fn one_hot(&self, drop_first: bool) -> Result<Dataset> {
        let mut features = Vec::new();
        let mut columns = Vec::new();
        for (j, f) in self.features().iter().enumerate() {
            let col = self.column(j);
            match &f.kind {
                FeatureKind::Categorical { levels } => {
                    let skip = usize::from(drop_first);
                    for (code, level) in levels.iter().enumerate().skip(skip) {
                        features.push(Feature {
                            name: format!("{}={}", f.name, level),
                            kind: FeatureKind::Indicator {
                                source: f.name.clone(),
                                level: level.clone(),
                            },
                        });
                        columns.push(
                            col.iter()
                                .map(|&v| if v == code as f64 { 1.0 } else { 0.0 })
                                .collect(),
                        );
                    }
                }
                _ => {
                    features.push(f.clone());
                    columns.push(col.into_owned());
                }
            }
        }
        Dataset::new(self.name(), features, columns, self.target_view())
    }

    /// The target restricted to this view's rows.
    pub fn target_view(&self) -> Target {
        match &self.storage.target {
            Target::Classes { names, .. } => Target::Classes {
                labels: (0..self.n_rows()).map(|i| self.label(i)).collect(),
                names: names.clone(),
            },
            Target::Real(_) => Target::Real(self.target_values()),
            Target::None => Target::None,
        }
    }

    /// A new dataset with this view's features and the given target (for
    /// relabelling, e.g. one-vs-rest or soft labels).
    pub fn with_target(&self, target: Target) -> Result<Dataset> {
        if let Some(len) = target.len().filter(|&len| len != self.n_rows()) {
            return Err(Error::Shape(format!(
                "new target has {} values but the view has {} rows",
                len,
                self.n_rows()
            )));
        }
        let columns = (0..self.n_features())
            .map(|j| self.column(j).into_owned())
            .collect();
        Dataset::new(self.name(), self.features().to_vec(), columns, target)
    }
}
