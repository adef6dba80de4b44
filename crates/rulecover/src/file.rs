//! The model file: the workspace's versioned JSON envelope
//! ([`rulecover_core::envelope`]) around any fitted model, tabular or
//! relational.
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
//! `kind` is the method id; its item in [`crate::methods::METHODS`] reads
//! the `model` back. A model fitted by [`crate::fit_tuned`] also has a
//! `tuned` record between `seed` and `model` ([`crate::Tuning`]: the
//! metric, the inner folds, the one-standard-error choice, the chosen
//! point and every grid point's mean and standard deviation); its
//! `params` are the ones the model was fitted with. A relational model (`rfgb`, `bagging`) has the
//! target's `target` and `head_types` in place of the `schema`
//! ([`RelationalFit::save`]); files of rc-logic's layout before the
//! envelope (`{"format": "rc-logic-model", ...}`) still load, and are
//! written in the envelope when saved again.
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

use std::path::Path;

use serde_json::Value;

use rulecover_core::envelope::{Envelope, EnvelopeError, Subject};
use rulecover_core::Validate;

use crate::error::{Error, Result};
use crate::fitted::FittedModel;
use crate::method::Learner;
use crate::methods::{by_id, ids_learning};
use crate::relational::RelationalFit;

/// The model-file format this build writes and reads.
pub const FORMAT_VERSION: u64 = rulecover_core::envelope::FORMAT_VERSION;

/// The name used in errors for JSON that did not come from a file.
const STRING_SOURCE: &str = "<string>";

fn shape(file: &str, field: &'static str, e: impl std::fmt::Display) -> Error {
    Error::Envelope {
        file: file.into(),
        field,
        message: e.to_string(),
    }
}

/// The envelope of a model file's text: the envelope itself, or a file
/// of rc-logic's layout before it, rewritten as one.
fn read_envelope(text: &str, file: &str) -> Result<Envelope> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::Json {
        file: file.into(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    if rc_logic::persist::is_legacy(&value) {
        return Ok(rc_logic::persist::from_legacy(value, file)?);
    }
    Envelope::from_value(value).map_err(|e| match e {
        EnvelopeError::FormatVersion { found } => Error::FormatVersion {
            file: file.into(),
            found,
            supported: FORMAT_VERSION,
        },
        EnvelopeError::Field { field, message } => shape(file, field, message),
    })
}

/// The error of a `kind` that is no tabular method (`relational =
/// false`) or no relational one.
fn unknown_kind(envelope: &Envelope, file: &str, relational: bool) -> Error {
    Error::UnknownKind {
        file: file.into(),
        kind: envelope.kind.clone(),
        valid: ids_learning(relational),
    }
}

fn read_file(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    })
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
        Envelope {
            kind: self.kind().into(),
            subject: Subject::Table(self.schema.clone()),
            params: self.params.clone(),
            seed: self.seed,
            tuned: self
                .tuning
                .as_ref()
                .map(|t| crate::json::to_value(t).map_err(fail))
                .transpose()?,
            model: self.model.to_value().map_err(fail)?,
        }
        .to_json()
        .map_err(fail)
    }

    /// Reads a model file's text.
    ///
    /// # Errors
    /// - [`Error::Json`] with serde's line and column for text that is not
    ///   JSON;
    /// - [`Error::FormatVersion`] for another `format_version`;
    /// - [`Error::UnknownKind`] for a `kind` that is not a tabular method;
    /// - [`Error::Envelope`] for a missing field or one of the wrong shape;
    /// - [`Error::InvalidModel`] naming the field for a model that fails
    ///   its own checks ([`rulecover_core::Validate`], run once here).
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
        from_json_named(&read_file(path)?, &path.display().to_string())
    }
}

fn from_json_named(text: &str, file: &str) -> Result<FittedModel> {
    let envelope = read_envelope(text, file)?;
    let (method, learner) = by_id(&envelope.kind)
        .and_then(|m| match m.learner() {
            Learner::Table(t) => Some((m, t)),
            Learner::Relational(_) => None,
        })
        .ok_or_else(|| unknown_kind(&envelope, file, false))?;
    let Subject::Table(schema) = envelope.subject else {
        return Err(shape(
            file,
            "schema",
            "missing (the file holds a relational model)",
        ));
    };
    let one_vs_rest = method.spec().fits_one_vs_rest(schema.classes().len());
    let model = learner
        .read_model(envelope.model, one_vs_rest)
        .map_err(|e| shape(file, "model", e))?;
    let invalid = |e: rulecover_core::InvalidModel| Error::InvalidModel {
        file: file.into(),
        field: e.field,
        message: e.message,
    };
    schema.validate().map_err(|e| invalid(e.within("schema")))?;
    model.validate().map_err(|e| invalid(e.within("model")))?;
    if model.classes() != schema.classes() {
        return Err(invalid(rulecover_core::InvalidModel::new(
            "schema.target",
            format!(
                "names the classes [{}] but the model [{}]",
                schema.classes().join(", "),
                model.classes().join(", ")
            ),
        )));
    }
    let tuning = envelope
        .tuned
        .map(crate::json::from_value)
        .transpose()
        .map_err(|e| shape(file, "tuned", e))?;
    Ok(FittedModel {
        method,
        schema,
        params: envelope.params,
        seed: envelope.seed,
        model,
        tuning,
    })
}

impl RelationalFit {
    /// The model file's text (pretty-printed JSON): the envelope with the
    /// target and its argument types in place of a schema.
    ///
    /// # Errors
    /// [`Error::Logic`] when the ensemble does not hold together,
    /// [`Error::Serialize`] if it cannot be written as JSON.
    pub fn to_json(&self) -> Result<String> {
        self.to_json_named(STRING_SOURCE)
    }

    fn to_json_named(&self, file: &str) -> Result<String> {
        self.ensemble
            .to_envelope(self.params.clone(), self.seed, file)?
            .to_json()
            .map_err(|e| Error::Serialize {
                kind: self.kind.into(),
                message: e.to_string(),
            })
    }

    /// Reads a model file's text: a relational model in the envelope, or
    /// one of rc-logic's layout before it (read without parameters, seed
    /// 0).
    ///
    /// # Errors
    /// As [`FittedModel::from_json`], with [`Error::UnknownKind`] for a
    /// `kind` that is not a relational method and [`Error::Logic`] for a
    /// model that does not hold together.
    pub fn from_json(text: &str) -> Result<RelationalFit> {
        relational_from_json_named(text, STRING_SOURCE)
    }

    /// Writes the model file to `path` (through a temporary file in the
    /// same folder, renamed into place).
    ///
    /// # Errors
    /// As [`RelationalFit::to_json`], or [`Error::Io`] naming the file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let text = self.to_json_named(&path.display().to_string())?;
        write_atomically(path, text.as_bytes())
    }

    /// Reads the model file at `path`.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read, else as
    /// [`RelationalFit::from_json`] (errors name the file).
    pub fn load(path: impl AsRef<Path>) -> Result<RelationalFit> {
        let path = path.as_ref();
        relational_from_json_named(&read_file(path)?, &path.display().to_string())
    }
}

fn relational_from_json_named(text: &str, file: &str) -> Result<RelationalFit> {
    let envelope = read_envelope(text, file)?;
    let (method, learner) = by_id(&envelope.kind)
        .and_then(|m| match m.learner() {
            Learner::Relational(r) => Some((m, r)),
            Learner::Table(_) => None,
        })
        .ok_or_else(|| unknown_kind(&envelope, file, true))?;
    let params = envelope.params.clone();
    let seed = envelope.seed;
    let ensemble = learner.read_model(envelope, file)?;
    Ok(RelationalFit {
        kind: method.spec().id,
        params,
        seed,
        ensemble,
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
