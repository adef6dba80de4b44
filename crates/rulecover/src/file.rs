//! The model file: a versioned JSON envelope around any fitted model.
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
//! A method that learns two classes and is fitted one-vs-rest on more
//! ([`crate::MethodSpec::one_vs_rest`]) keeps its `kind`; when the
//! schema names more than two classes, `model` is the serde form of
//! [`rulecover_core::OneVsRestModel`] (the schema with every class and one
//! binary model per class), otherwise the learner's own model. Files of
//! two-class models are the same as before one-vs-rest existed.
//!
//! Numbers are written as the shortest decimal that reads back to the same
//! `f64`, and read with serde_json's exact float parsing (rulecover-core
//! enables `float_roundtrip`), so a loaded model predicts bit for bit as
//! the saved one. Infinities and NaN, which JSON lacks, are written as
//! the strings `"inf"`, `"-inf"` and `"nan"` and read back exactly where a
//! number is expected. Files are written to a temporary file in the same folder
//! and renamed into place, so a file is never half-written.

use std::collections::BTreeMap;
use std::path::Path;

use serde::ser::Serializer;
use serde::Serialize;
use serde_json::Value;

use rulecover_core::Schema;

use crate::error::{Error, Result};
use crate::fitted::FittedModel;
use crate::json;
use crate::methods::methods;
use crate::model::Model;

/// The model-file format this build writes and reads.
pub const FORMAT_VERSION: u64 = 1;

/// The name used in errors for JSON that did not come from a file.
const STRING_SOURCE: &str = "<string>";

struct ModelForm<'a>(&'a Model);

impl Serialize for ModelForm<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self.0 {
            Model::Tree(m) => m.serialize(s),
            Model::Forest(m) => m.serialize(s),
            Model::AdaBoost(m) => m.serialize(s),
            Model::GradientBoosting(m) => m.serialize(s),
            Model::Mirco(m) => m.serialize(s),
            Model::Rux(m) => m.serialize(s),
            Model::RcBoost(m) => m.serialize(s),
            Model::Rug(m) => m.serialize(s),
            Model::Glrm(m) => m.serialize(s),
            Model::Gbt(m) => m.serialize(s),
            Model::Nre(m) => m.serialize(s),
            Model::Mlp(m) => m.serialize(s),
            Model::OneVsRestGlrm(m) => m.serialize(s),
            Model::OneVsRestNre(m) => m.serialize(s),
            Model::OneVsRestMlp(m) => m.serialize(s),
        }
    }
}

/// The envelope as written.
#[derive(Serialize)]
struct Envelope<'a> {
    format_version: u64,
    kind: &'a str,
    schema: &'a Schema,
    params: &'a BTreeMap<String, String>,
    seed: u64,
    model: Value,
}

fn tabular_ids() -> String {
    methods()
        .iter()
        .filter(|m| !m.is_relational())
        .map(|m| m.id)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Takes field `field` out of the envelope object.
fn take(
    obj: &mut serde_json::Map<String, Value>,
    file: &str,
    field: &'static str,
) -> Result<Value> {
    obj.remove(field).ok_or_else(|| Error::Envelope {
        file: file.into(),
        field,
        message: "missing".into(),
    })
}

fn shape(file: &str, field: &'static str, e: serde_json::Error) -> Error {
    Error::Envelope {
        file: file.into(),
        field,
        message: e.to_string(),
    }
}

impl FittedModel {
    /// The model file's text (pretty-printed JSON).
    ///
    /// # Errors
    /// [`Error::Serialize`] if the model cannot be written as JSON.
    pub fn to_json(&self) -> Result<String> {
        let fail = |e: serde_json::Error| Error::Serialize {
            kind: self.kind().into(),
            message: e.to_string(),
        };
        let envelope = Envelope {
            format_version: FORMAT_VERSION,
            kind: self.kind(),
            schema: &self.schema,
            params: &self.params,
            seed: self.seed,
            model: json::to_value(&ModelForm(&self.model)).map_err(fail)?,
        };
        serde_json::to_string_pretty(&envelope).map_err(fail)
    }

    /// Reads a model file's text.
    ///
    /// # Errors
    /// - [`Error::Json`] with serde's line and column for text that is not
    ///   JSON;
    /// - [`Error::FormatVersion`] for another `format_version`;
    /// - [`Error::UnknownKind`] for a `kind` that is not a tabular method;
    /// - [`Error::Envelope`] for a missing field or one of the wrong shape.
    pub fn from_json(text: &str) -> Result<FittedModel> {
        from_json_named(text, STRING_SOURCE)
    }

    /// Writes the model file to `path`: to a temporary file in the same
    /// folder first, then renamed over `path`, so that `path` never holds
    /// a half-written file.
    ///
    /// # Errors
    /// [`Error::Serialize`], or [`Error::Io`] naming the file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let text = self.to_json()?;
        write_atomically(path, text.as_bytes())
    }

    /// Reads the model file at `path`.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read, else as
    /// [`FittedModel::from_json`] (errors name the file).
    pub fn load(path: impl AsRef<Path>) -> Result<FittedModel> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            action: "read",
            path: path.to_path_buf(),
            source,
        })?;
        from_json_named(&text, &path.display().to_string())
    }
}

fn from_json_named(text: &str, file: &str) -> Result<FittedModel> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::Json {
        file: file.into(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let Value::Object(mut obj) = value else {
        return Err(Error::Envelope {
            file: file.into(),
            field: "format_version",
            message: "the file is not a JSON object".into(),
        });
    };
    let version = take(&mut obj, file, "format_version")?;
    if version.as_u64() != Some(FORMAT_VERSION) {
        return Err(Error::FormatVersion {
            file: file.into(),
            found: version.to_string(),
            supported: FORMAT_VERSION,
        });
    }
    let kind = match take(&mut obj, file, "kind")? {
        Value::String(s) => s,
        other => {
            return Err(Error::Envelope {
                file: file.into(),
                field: "kind",
                message: format!("expected a method id string, found {other}"),
            })
        }
    };
    let spec = methods()
        .iter()
        .find(|m| m.id == kind && !m.is_relational())
        .ok_or_else(|| Error::UnknownKind {
            file: file.into(),
            kind: kind.clone(),
            valid: tabular_ids(),
        })?;
    let schema: Schema = serde_json::from_value(take(&mut obj, file, "schema")?)
        .map_err(|e| shape(file, "schema", e))?;
    let params: BTreeMap<String, String> = serde_json::from_value(take(&mut obj, file, "params")?)
        .map_err(|e| shape(file, "params", e))?;
    let seed: u64 = serde_json::from_value(take(&mut obj, file, "seed")?)
        .map_err(|e| shape(file, "seed", e))?;
    let one_vs_rest = spec.fits_one_vs_rest(schema.classes().len());
    let model = Model::from_value(spec.id, take(&mut obj, file, "model")?, one_vs_rest)
        .ok_or_else(|| Error::UnknownKind {
            file: file.into(),
            kind: kind.clone(),
            valid: tabular_ids(),
        })?
        .map_err(|e| shape(file, "model", e))?;
    if let Some(classes) = model.one_vs_rest_classes() {
        if classes != schema.classes() {
            return Err(Error::Envelope {
                file: file.into(),
                field: "model",
                message: format!(
                    "the one-vs-rest model has the classes [{}] but the schema [{}]",
                    classes.join(", "),
                    schema.classes().join(", ")
                ),
            });
        }
    }
    Ok(FittedModel {
        spec,
        schema,
        params,
        seed,
        model,
    })
}

/// Writes `bytes` to `path` through a temporary file in the same folder
/// ([`rulecover_core::fs::write_atomically`]); the error names `path`.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    rulecover_core::fs::write_atomically(path, bytes).map_err(|source| Error::Io {
        action: "write",
        path: path.to_path_buf(),
        source,
    })
}
