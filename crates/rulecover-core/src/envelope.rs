//! The model file's envelope: one JSON layout for every fitted model of
//! the workspace, tabular (rulecover's registry) or relational (rc-logic's
//! ensembles and decision lists).
//!
//! ```json
//! {
//!   "format_version": 1,
//!   "kind": "rux-rf",
//!   "schema": { "features": [...], "target": {...} },
//!   "params": { "eps": "0.01", "max_depth": "2", ... },
//!   "seed": 7,
//!   "model": { ...the model's serde form... }
//! }
//! ```
//!
//! `kind` names what made the model (a registry method id such as
//! `rux-rf` or `rfgb`). A tabular model has the `schema` of its training
//! data; a relational model has instead its `target` (`name/arity`) and
//! the `head_types` of the target's arguments:
//!
//! ```json
//! { "format_version": 1, "kind": "rfgb", "target": "father/2",
//!   "head_types": ["person", "person"], "params": {...}, "seed": 3,
//!   "model": {...} }
//! ```
//!
//! This module only reads and writes the layout; what `model` holds and
//! how it is checked belongs to the crate of its kind.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::schema::Schema;

/// The envelope format this build writes and reads.
pub const FORMAT_VERSION: u64 = 1;

/// What a model was fitted on.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject {
    /// A table: its raw input columns and target.
    Table(Schema),
    /// A relational target.
    Relational {
        /// `name/arity` of the target predicate.
        target: String,
        /// The types of the target's arguments (empty when the model does
        /// not keep them).
        head_types: Vec<String>,
    },
}

/// One model file: what made the model, on what, with which parameters
/// and seed, and the model's own serde form.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// The kind of model (a method id).
    pub kind: String,
    /// The data it was fitted on.
    pub subject: Subject,
    /// Every parameter's value as canonical strings (empty when the
    /// writer does not know them).
    pub params: BTreeMap<String, String>,
    /// The seed of the fit.
    pub seed: u64,
    /// How the parameters were chosen, when a search chose them (the
    /// registry's tuning record: metric, folds, the grid's scores, the
    /// chosen point); absent from the file otherwise, and ignored by
    /// readers that do not know it.
    pub tuned: Option<Value>,
    /// The model's serde form.
    pub model: Value,
}

/// Why a JSON value is not an envelope.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EnvelopeError {
    /// The file was written by another format version.
    #[error("the model file has format_version {found}, but this build reads format_version {FORMAT_VERSION}")]
    FormatVersion {
        /// The version in the file, as written.
        found: String,
    },
    /// A field is missing or has the wrong shape.
    #[error("field '{field}': {message}")]
    Field {
        /// The field (`format_version`, `kind`, `schema`, `target`,
        /// `head_types`, `params`, `seed`, `model`).
        field: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// The envelope as written: fields in the documented order, the subject's
/// fields where the other is absent.
#[derive(Serialize)]
struct Out<'a> {
    format_version: u64,
    kind: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    schema: Option<&'a Schema>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    head_types: Option<&'a [String]>,
    params: &'a BTreeMap<String, String>,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    tuned: Option<&'a Value>,
    model: &'a Value,
}

fn missing(field: &'static str) -> EnvelopeError {
    EnvelopeError::Field {
        field,
        message: "missing".into(),
    }
}

fn take(obj: &mut Map<String, Value>, field: &'static str) -> Result<Value, EnvelopeError> {
    obj.remove(field).ok_or_else(|| missing(field))
}

fn typed<T: serde::de::DeserializeOwned>(
    obj: &mut Map<String, Value>,
    field: &'static str,
) -> Result<T, EnvelopeError> {
    serde_json::from_value(take(obj, field)?).map_err(|e| EnvelopeError::Field {
        field,
        message: e.to_string(),
    })
}

impl Envelope {
    /// The file's text: pretty-printed JSON, fields in the documented
    /// order.
    ///
    /// # Errors
    /// serde_json's error when the schema cannot be written.
    pub fn to_json(&self) -> serde_json::Result<String> {
        let (schema, target, head_types) = match &self.subject {
            Subject::Table(s) => (Some(s), None, None),
            Subject::Relational { target, head_types } => {
                (None, Some(target.as_str()), Some(head_types.as_slice()))
            }
        };
        serde_json::to_string_pretty(&Out {
            format_version: FORMAT_VERSION,
            kind: &self.kind,
            schema,
            target,
            head_types,
            params: &self.params,
            seed: self.seed,
            tuned: self.tuned.as_ref(),
            model: &self.model,
        })
    }

    /// Reads an envelope from a parsed JSON value: the format version is
    /// checked first, then `kind`, the subject (`schema`, or `target` and
    /// `head_types`), `params`, `seed` and `model`.
    ///
    /// # Errors
    /// [`EnvelopeError::FormatVersion`] for another version;
    /// [`EnvelopeError::Field`] naming a missing or malformed field (a
    /// value that is not an object names `format_version`).
    pub fn from_value(value: Value) -> Result<Envelope, EnvelopeError> {
        let Value::Object(mut obj) = value else {
            return Err(EnvelopeError::Field {
                field: "format_version",
                message: "the file is not a JSON object".into(),
            });
        };
        let version = take(&mut obj, "format_version")?;
        if version.as_u64() != Some(FORMAT_VERSION) {
            return Err(EnvelopeError::FormatVersion {
                found: version.to_string(),
            });
        }
        let kind = match take(&mut obj, "kind")? {
            Value::String(s) => s,
            other => {
                return Err(EnvelopeError::Field {
                    field: "kind",
                    message: format!("expected a method id string, found {other}"),
                })
            }
        };
        let subject = if obj.contains_key("schema") || !obj.contains_key("target") {
            Subject::Table(typed(&mut obj, "schema")?)
        } else {
            Subject::Relational {
                target: typed(&mut obj, "target")?,
                head_types: typed(&mut obj, "head_types")?,
            }
        };
        let params = typed(&mut obj, "params")?;
        let seed = typed(&mut obj, "seed")?;
        let tuned = obj.remove("tuned").filter(|v| !v.is_null());
        let model = take(&mut obj, "model")?;
        Ok(Envelope {
            kind,
            subject,
            params,
            seed,
            tuned,
            model,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relational() -> Envelope {
        Envelope {
            kind: "rfgb".into(),
            subject: Subject::Relational {
                target: "father/2".into(),
                head_types: vec!["person".into(), "person".into()],
            },
            params: [("n_trees".to_string(), "3".to_string())].into(),
            seed: 4,
            tuned: None,
            model: serde_json::json!({"trees": []}),
        }
    }

    #[test]
    fn a_relational_envelope_round_trips_in_the_documented_order() {
        let e = relational();
        let text = e.to_json().unwrap();
        let keys: Vec<&str> = [
            "format_version",
            "kind",
            "target",
            "head_types",
            "params",
            "seed",
            "model",
        ]
        .into_iter()
        .collect();
        let positions: Vec<usize> = keys
            .iter()
            .map(|k| text.find(&format!("\"{k}\"")).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert!(!text.contains("\"schema\""));
        let back = Envelope::from_value(serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, e);
    }

    #[test]
    fn errors_name_the_field_or_the_version() {
        let mut v: Value = serde_json::from_str(&relational().to_json().unwrap()).unwrap();
        v.as_object_mut().unwrap().remove("head_types");
        assert!(matches!(
            Envelope::from_value(v.clone()),
            Err(EnvelopeError::Field {
                field: "head_types",
                ..
            })
        ));
        v.as_object_mut().unwrap().remove("target");
        assert!(matches!(
            Envelope::from_value(v.clone()),
            Err(EnvelopeError::Field {
                field: "schema",
                ..
            })
        ));
        v["format_version"] = 2.into();
        assert_eq!(
            Envelope::from_value(v),
            Err(EnvelopeError::FormatVersion { found: "2".into() })
        );
    }
}
