//! What a model knows of the data it was fitted on, and how it reads new
//! data by that knowledge.
//!
//! A [`Schema`] records the raw input columns (ordered names, each one
//! numeric or categorical with its ordered levels) and the target (class
//! names in class order, real, or none). Every model stores the schema of
//! its training data, so it can
//! - match the columns of new data **by name**, in any order, ignoring
//!   extra columns ([`Schema::align`]),
//! - re-code categorical values to the training levels, with an unseen
//!   level a typed error by default ([`UnseenLevel`]),
//! - re-code class labels to the training classes, comparing labels that
//!   parse as numbers as numbers (`1` = `1.0`).
//!
//! An [`Encoder`] adds the learner's own encoding on top (one-hot for the
//! learners that need numbers, nothing for those that read categories
//! natively), fitted at training time and applied the same way at
//! prediction time.
//!
//! ```
//! use rulecover_core::{Dataset, Feature, Target};
//! use rulecover_core::schema::{Encoder, Encoding};
//!
//! let levels = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
//! let train = Dataset::new(
//!     "train",
//!     vec![Feature::numeric("age"), Feature::categorical("color", levels(&["blue", "red"]))],
//!     vec![vec![30.0, 60.0, 45.0], vec![0.0, 1.0, 1.0]],
//!     Target::Classes { labels: vec![0, 1, 1], names: levels(&["no", "yes"]) },
//! )?;
//! let (encoder, encoded) = Encoder::fit(&train, Encoding::OneHot { drop_first: false })?;
//! assert_eq!(encoded.feature_names(), ["age", "color=blue", "color=red"]);
//!
//! // The same rows with the columns swapped and the levels listed in another order:
//! let test = Dataset::new(
//!     "test",
//!     vec![Feature::categorical("color", levels(&["red", "blue"])), Feature::numeric("age")],
//!     vec![vec![1.0, 0.0, 0.0], vec![30.0, 60.0, 45.0]],
//!     Target::None,
//! )?;
//! let aligned = encoder.transform(&test)?;
//! assert_eq!(aligned.column(1).to_vec(), encoded.column(1).to_vec());
//! # Ok::<(), rulecover_core::Error>(())
//! ```

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::dataset::{Dataset, Feature, FeatureKind, Target};
use crate::error::{Error, Result};

/// The target a model was fitted to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TargetSchema {
    /// Class labels; the names in class order (class `k` is `names[k]`).
    Classes(Vec<String>),
    /// A real-valued target.
    Real,
    /// No target (unlabeled data).
    None,
}

/// The raw input columns and the target of a fitted model's training data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    /// The input features in training order, with their kinds and levels.
    pub features: Vec<Feature>,
    /// The target.
    pub target: TargetSchema,
}

/// What to do when new data holds a categorical level the training data
/// did not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum UnseenLevel {
    /// A typed error naming the column, the row and the level (default).
    #[default]
    Error,
    /// Read it as a missing value (`NaN`): every one-hot indicator of the
    /// feature is 0, and learners with native categories treat it as they
    /// treat missing values.
    Missing,
}

impl Schema {
    /// The schema of `data`: its features as they are and its target kind.
    pub fn of(data: &Dataset) -> Schema {
        Schema {
            features: data.features().to_vec(),
            target: match data.target_storage() {
                Target::Classes { names, .. } => TargetSchema::Classes(names.clone()),
                Target::Real(_) => TargetSchema::Real,
                Target::None => TargetSchema::None,
            },
        }
    }

    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.features.len()
    }

    /// Feature names in training order.
    pub fn feature_names(&self) -> Vec<&str> {
        self.features.iter().map(|f| f.name.as_str()).collect()
    }

    /// Class names in class order (empty for a regression or unlabeled
    /// target).
    pub fn classes(&self) -> &[String] {
        match &self.target {
            TargetSchema::Classes(names) => names,
            _ => &[],
        }
    }

    /// True when `data` already has exactly these features, in this order
    /// with these levels, and a target this schema can read as it is.
    pub fn matches(&self, data: &Dataset) -> bool {
        data.features() == self.features.as_slice()
            && match (&self.target, data.target_storage()) {
                (TargetSchema::Classes(a), Target::Classes { names, .. }) => a == names,
                (TargetSchema::Real, Target::Real(_)) | (_, Target::None) => true,
                _ => false,
            }
    }

    /// A dataset holding `data`'s columns in this schema's order, matched
    /// by name (extra columns are ignored), categorical values re-coded to
    /// the training levels and class labels to the training classes.
    ///
    /// Returns `data` itself (a cheap clone) when it already matches.
    ///
    /// # Errors
    /// - [`Error::MissingColumn`] when a feature of the schema is absent;
    /// - [`Error::DuplicateColumn`] when `data` names a feature twice;
    /// - [`Error::UnseenLevel`] for a categorical level not seen at fit,
    ///   unless `unseen` is [`UnseenLevel::Missing`];
    /// - [`Error::KindMismatch`] when a numeric feature holds categories
    ///   that are not numbers;
    /// - [`Error::UnseenClass`] for a class label not seen at fit.
    pub fn align(&self, data: &Dataset, unseen: UnseenLevel) -> Result<Dataset> {
        if self.matches(data) {
            return Ok(data.clone());
        }
        let by_name = column_index(data)?;
        let mut columns = Vec::with_capacity(self.features.len());
        for feature in &self.features {
            let Some(&j) = by_name.get(feature.name.as_str()) else {
                return Err(Error::MissingColumn {
                    data: data.name().to_string(),
                    column: feature.name.clone(),
                    available: data.feature_names().join(", "),
                });
            };
            let source = &data.features()[j];
            let values = data.column(j);
            columns.push(recode_column(
                data.name(),
                feature,
                source,
                &values,
                unseen,
            )?);
        }
        let target = self.align_target(data)?;
        Dataset::new(data.name(), self.features.clone(), columns, target)
    }

    /// A dataset from a plain matrix without names (`columns[j][i]` =
    /// feature `j` of row `i`): positional, so it must have exactly the
    /// fitted number of columns; categorical columns hold level codes of
    /// this schema. The target is [`Target::None`].
    pub fn dataset_from_columns(&self, columns: Vec<Vec<f64>>) -> Result<Dataset> {
        if columns.len() != self.features.len() {
            return Err(Error::Shape(format!(
                "the model was fitted on {} features but the matrix has {} columns",
                self.features.len(),
                columns.len()
            )));
        }
        Dataset::new("matrix", self.features.clone(), columns, Target::None)
    }

    fn align_target(&self, data: &Dataset) -> Result<Target> {
        let n = data.n_rows();
        Ok(match (&self.target, data.target_storage()) {
            (_, Target::None) | (TargetSchema::None, _) => Target::None,
            (TargetSchema::Real, Target::Real(_)) => Target::Real(data.target_values()),
            (TargetSchema::Classes(names), Target::Classes { names: theirs, .. }) => {
                let map = theirs
                    .iter()
                    .map(|t| {
                        position_of_label(names, t).ok_or_else(|| Error::UnseenClass {
                            data: data.name().to_string(),
                            class: t.clone(),
                            known: names.join(", "),
                        })
                    })
                    .collect::<Result<Vec<usize>>>()?;
                Target::Classes {
                    labels: (0..n).map(|i| map[data.label(i)]).collect(),
                    names: names.clone(),
                }
            }
            (TargetSchema::Classes(names), Target::Real(_)) => {
                let labels = data
                    .target_values()
                    .iter()
                    .map(|v| {
                        let text = crate::rule::format_number(*v);
                        position_of_label(names, &text).ok_or_else(|| Error::UnseenClass {
                            data: data.name().to_string(),
                            class: text,
                            known: names.join(", "),
                        })
                    })
                    .collect::<Result<Vec<usize>>>()?;
                Target::Classes {
                    labels,
                    names: names.clone(),
                }
            }
            (TargetSchema::Real, Target::Classes { names, .. }) => {
                let values = names
                    .iter()
                    .map(|t| {
                        parse_number(t).ok_or_else(|| Error::TargetKind(format!(
                            "'{}': the model predicts real values but the target holds the label '{t}'",
                            data.name()
                        )))
                    })
                    .collect::<Result<Vec<f64>>>()?;
                Target::Real((0..n).map(|i| values[data.label(i)]).collect())
            }
        })
    }
}

/// Index of each feature of `data` by name; a name given twice is an error.
fn column_index(data: &Dataset) -> Result<HashMap<&str, usize>> {
    let mut by_name = HashMap::with_capacity(data.n_features());
    for (j, f) in data.features().iter().enumerate() {
        if by_name.insert(f.name.as_str(), j).is_some() {
            return Err(Error::DuplicateColumn {
                file: data.name().to_string(),
                column: f.name.clone(),
            });
        }
    }
    Ok(by_name)
}

/// Parses a label or level as a number (`1`, `1.0`, `-0`, `2e3`).
pub fn parse_number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok()
}

/// True when two labels or levels name the same value: equal text, or both
/// numbers of equal value (`1` = `1.0`, `0` = `-0`).
pub fn same_label(a: &str, b: &str) -> bool {
    a == b
        || match (parse_number(a), parse_number(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
}

/// Position of `label` among `names` by [`same_label`].
pub fn position_of_label(names: &[String], label: &str) -> Option<usize> {
    names
        .iter()
        .position(|n| n == label)
        .or_else(|| names.iter().position(|n| same_label(n, label)))
}

/// Re-codes one column of new data (`source` kind, `values`) into the
/// training feature's kind.
fn recode_column(
    data_name: &str,
    feature: &Feature,
    source: &Feature,
    values: &[f64],
    unseen: UnseenLevel,
) -> Result<Vec<f64>> {
    match (&feature.kind, &source.kind) {
        (FeatureKind::Categorical { levels }, FeatureKind::Categorical { levels: theirs }) => {
            if levels == theirs {
                return Ok(values.to_vec());
            }
            let map: Vec<Option<usize>> = theirs
                .iter()
                .map(|t| position_of_label(levels, t))
                .collect();
            values
                .iter()
                .enumerate()
                .map(|(row, &v)| {
                    if v.is_nan() {
                        return Ok(f64::NAN);
                    }
                    match map[v as usize] {
                        Some(code) => Ok(code as f64),
                        None => unseen_level(
                            data_name,
                            feature,
                            &theirs[v as usize],
                            row,
                            levels,
                            unseen,
                        ),
                    }
                })
                .collect()
        }
        (FeatureKind::Categorical { levels }, _) => {
            let numeric_levels: Vec<Option<f64>> = levels.iter().map(|l| parse_number(l)).collect();
            values
                .iter()
                .enumerate()
                .map(|(row, &v)| {
                    if v.is_nan() {
                        return Ok(f64::NAN);
                    }
                    match numeric_levels.iter().position(|l| *l == Some(v)) {
                        Some(code) => Ok(code as f64),
                        None => unseen_level(
                            data_name,
                            feature,
                            &crate::rule::format_number(v),
                            row,
                            levels,
                            unseen,
                        ),
                    }
                })
                .collect()
        }
        (_, FeatureKind::Categorical { levels: theirs }) => {
            let numbers = theirs
                .iter()
                .map(|t| {
                    parse_number(t).ok_or_else(|| Error::KindMismatch {
                        data: data_name.to_string(),
                        column: feature.name.clone(),
                        value: t.clone(),
                    })
                })
                .collect::<Result<Vec<f64>>>()?;
            Ok(values
                .iter()
                .map(|&v| if v.is_nan() { v } else { numbers[v as usize] })
                .collect())
        }
        _ => Ok(values.to_vec()),
    }
}

fn unseen_level(
    data_name: &str,
    feature: &Feature,
    level: &str,
    row: usize,
    levels: &[String],
    unseen: UnseenLevel,
) -> Result<f64> {
    match unseen {
        UnseenLevel::Missing => Ok(f64::NAN),
        UnseenLevel::Error => Err(Error::UnseenLevel {
            data: data_name.to_string(),
            column: feature.name.clone(),
            row: row + 1,
            level: level.to_string(),
            known: abbreviated(levels),
        }),
    }
}

/// The first few items, comma separated, with a count of the rest.
pub(crate) fn abbreviated(items: &[String]) -> String {
    const SHOWN: usize = 12;
    let mut text = items
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > SHOWN {
        text.push_str(&format!(", … ({} in all)", items.len()));
    }
    text
}

/// How a learner turns raw columns into the numbers it learns from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Encoding {
    /// One 0/1 indicator column per level of each categorical feature, as
    /// `pandas.get_dummies`; with `drop_first` the first level gets none.
    /// Numeric features pass through.
    OneHot {
        /// Leave out the indicator of each feature's first level.
        drop_first: bool,
    },
    /// The learner reads categorical features as they are (level codes).
    Native,
}

impl Default for Encoding {
    /// One-hot with every level (scikit-learn's `OneHotEncoder()`).
    fn default() -> Self {
        Encoding::OneHot { drop_first: false }
    }
}

/// A fitted input encoding: the training [`Schema`] plus the learner's
/// [`Encoding`]. Stored in every model; [`Encoder::transform`] makes new
/// data look exactly like the encoded training data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Encoder {
    schema: Schema,
    encoding: Encoding,
    /// The features of the encoded training data.
    encoded: Vec<Feature>,
    #[serde(default)]
    unseen: UnseenLevel,
}

impl Encoder {
    /// Records the schema of `data` and returns it with `data` encoded.
    pub fn fit(data: &Dataset, encoding: Encoding) -> Result<(Encoder, Dataset)> {
        column_index(data)?;
        let mut encoder = Encoder {
            schema: Schema::of(data),
            encoding,
            encoded: Vec::new(),
            unseen: UnseenLevel::Error,
        };
        let encoded = encoder.encode(data.clone())?;
        encoder.encoded = encoded.features().to_vec();
        Ok((encoder, encoded))
    }

    /// The schema of the training data (raw columns).
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The encoding.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The features of the encoded data the learner sees (what the
    /// model's rules refer to by index).
    pub fn encoded_features(&self) -> &[Feature] {
        &self.encoded
    }

    /// The policy for categorical levels not seen at fit.
    pub fn unseen_level(&self) -> UnseenLevel {
        self.unseen
    }

    /// Sets the policy for categorical levels not seen at fit.
    pub fn set_unseen_level(&mut self, policy: UnseenLevel) {
        self.unseen = policy;
    }

    /// Aligns `data` to the schema by name ([`Schema::align`]) and encodes
    /// it as the training data was. Data that is already encoded (it has
    /// exactly the encoded features) is returned as it is, so the models
    /// inside an ensemble can share their ensemble's encoded data.
    pub fn transform(&self, data: &Dataset) -> Result<Dataset> {
        if data.features() == self.encoded.as_slice() {
            return Ok(data.clone());
        }
        let aligned = self.schema.align(data, self.unseen)?;
        self.encode(aligned)
    }

    fn encode(&self, aligned: Dataset) -> Result<Dataset> {
        match self.encoding {
            Encoding::OneHot { drop_first }
                if aligned.features().iter().any(Feature::is_categorical) =>
            {
                aligned.one_hot(drop_first)
            }
            _ => Ok(aligned),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn train() -> Dataset {
        Dataset::new(
            "train",
            vec![
                Feature::numeric("age"),
                Feature::categorical("color", s(&["blue", "red"])),
            ],
            vec![vec![30.0, 60.0, 45.0], vec![0.0, 1.0, 1.0]],
            Target::Classes {
                labels: vec![0, 1, 1],
                names: s(&["0", "1"]),
            },
        )
        .unwrap()
    }

    #[test]
    fn aligns_by_name_and_recodes_levels_and_numeric_labels() {
        let schema = Schema::of(&train());
        let test = Dataset::new(
            "test",
            vec![
                Feature::numeric("extra"),
                Feature::categorical("color", s(&["red", "blue"])),
                Feature::numeric("age"),
            ],
            vec![vec![9.0; 3], vec![1.0, 0.0, 0.0], vec![30.0, 60.0, 45.0]],
            Target::Classes {
                labels: vec![1, 0, 0],
                names: s(&["0.0", "1.0"]),
            },
        )
        .unwrap();
        let aligned = schema.align(&test, UnseenLevel::Error).unwrap();
        assert_eq!(aligned.features(), train().features());
        assert_eq!(aligned.column(1).to_vec(), vec![0.0, 1.0, 1.0]);
        assert_eq!(aligned.labels().unwrap(), vec![1, 0, 0]);
        assert_eq!(aligned.class_names(), ["0", "1"]);
    }

    #[test]
    fn missing_column_unseen_level_and_duplicates_are_errors() {
        let schema = Schema::of(&train());
        let no_age = Dataset::new(
            "test",
            vec![Feature::categorical("color", s(&["red"]))],
            vec![vec![0.0]],
            Target::None,
        )
        .unwrap();
        let err = schema.align(&no_age, UnseenLevel::Error).unwrap_err();
        assert!(matches!(&err, Error::MissingColumn { column, .. } if column == "age"));

        let green = Dataset::new(
            "test",
            vec![
                Feature::numeric("age"),
                Feature::categorical("color", s(&["green", "red"])),
            ],
            vec![vec![1.0, 2.0], vec![1.0, 0.0]],
            Target::None,
        )
        .unwrap();
        let err = schema.align(&green, UnseenLevel::Error).unwrap_err();
        assert!(
            matches!(&err, Error::UnseenLevel { level, row: 2, .. } if level == "green"),
            "{err}"
        );
        let lenient = schema.align(&green, UnseenLevel::Missing).unwrap();
        assert_eq!(lenient.value(0, 1), 1.0);
        assert!(lenient.value(1, 1).is_nan());

        let twice = Dataset::new(
            "test",
            vec![Feature::numeric("age"), Feature::numeric("age")],
            vec![vec![1.0], vec![2.0]],
            Target::None,
        )
        .unwrap();
        assert!(matches!(
            schema.align(&twice, UnseenLevel::Error),
            Err(Error::DuplicateColumn { .. })
        ));
    }

    #[test]
    fn one_hot_encoder_uses_the_training_levels() {
        let (encoder, encoded) =
            Encoder::fit(&train(), Encoding::OneHot { drop_first: true }).unwrap();
        assert_eq!(encoded.feature_names(), ["age", "color=red"]);
        let only_blue = Dataset::new(
            "test",
            vec![
                Feature::numeric("age"),
                Feature::categorical("color", s(&["blue"])),
            ],
            vec![vec![1.0], vec![0.0]],
            Target::None,
        )
        .unwrap();
        let t = encoder.transform(&only_blue).unwrap();
        assert_eq!(t.feature_names(), ["age", "color=red"]);
        assert_eq!(t.value(0, 1), 0.0);
        assert_eq!(encoder.encoded_features(), encoded.features());
        // Encoded data passes through unchanged.
        let again = encoder.transform(&encoded).unwrap();
        assert_eq!(again.column(1).to_vec(), encoded.column(1).to_vec());
    }

    #[test]
    fn numeric_feature_read_as_categories_of_numbers() {
        let schema = Schema::of(&train());
        let test = Dataset::new(
            "test",
            vec![
                Feature::categorical("age", s(&["60", "30.0"])),
                Feature::categorical("color", s(&["blue", "red"])),
            ],
            vec![vec![1.0, 0.0], vec![0.0, 1.0]],
            Target::None,
        )
        .unwrap();
        let aligned = schema.align(&test, UnseenLevel::Error).unwrap();
        assert_eq!(aligned.column(0).to_vec(), vec![30.0, 60.0]);
        let bad = Dataset::new(
            "test",
            vec![
                Feature::categorical("age", s(&["old"])),
                Feature::categorical("color", s(&["blue"])),
            ],
            vec![vec![0.0], vec![0.0]],
            Target::None,
        )
        .unwrap();
        assert!(matches!(
            schema.align(&bad, UnseenLevel::Error),
            Err(Error::KindMismatch { value, .. }) if value == "old"
        ));
    }
}
