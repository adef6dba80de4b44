//! Saving and loading models as JSON, so that learning and inference can
//! run in separate processes.
//!
//! A model file is the workspace's one model-file layout, the
//! [`rulecover_core::envelope`] (the same as rulecover's tabular model
//! files), with the relational model as a kind:
//!
//! ```text
//! {"format_version": 1, "kind": "rfgb",
//!  "target": "father/2", "head_types": ["person", "person"],
//!  "params": {...}, "seed": 3,
//!  "model": { … the model, its vocabulary included … }}
//! ```
//!
//! `kind` is `rfgb` (a boosted [`TreeEnsemble`]), `bagging` (a bagged
//! one) or `cote` (a CoTE [`DecisionList`]); `target` and `head_types`
//! repeat the model's target and its argument types for people and tools
//! reading the file, and are checked on load. `params` and `seed` record
//! how the model was fitted when the writer knows it (rulecover's
//! registry does; [`TreeEnsemble::save`] alone writes `{}` and 0). The
//! model carries everything prediction needs: its literals, the
//! vocabulary their ids refer to (predicate names and arities,
//! constants, type names), the head with its types, and how values
//! combine (prior and step of boosting, mean of bagging). Mode
//! declarations are not stored: they only steer learning.
//!
//! Files of the layout before the envelope
//! (`{"format": "rc-logic-model", "version": 1, "kind": "boosted", ...}`)
//! still load: [`read_envelope`] rewrites them as an envelope (kinds
//! `boosted`, `bagged`, `decision-list` as `rfgb`, `bagging`, `cote`;
//! no parameters, seed 0), and saving writes the envelope.
//!
//! Ids are those of the learning process. To predict on data loaded in
//! another process, [`TreeEnsemble::rebind`] (or [`DecisionList::rebind`])
//! the loaded model to the data's vocabulary:
//!
//! ```no_run
//! use std::path::Path;
//! use rc_logic::{Problem, TreeEnsemble};
//!
//! // The inference process: the background and the test folder only.
//! let data = Problem::load_folder(
//!     Path::new("uwcse/background.txt"),
//!     "advisedby",
//!     Path::new("uwcse/fold1/test"),
//!     "test",
//!     &[],
//! )?;
//! let model = TreeEnsemble::load("advisedby.json")?.rebind(&data.vocab)?;
//! let p = model.predict_proba(&data.train);
//! # Ok::<(), rc_logic::Error>(())
//! ```
//!
//! Floats round-trip exactly (serde_json's `float_roundtrip`), and go
//! through rc-json, the workspace's one convention for non-finite floats
//! (the strings `"inf"`, `"-inf"`, `"nan"`). A model is checked when
//! written and when read (see `model_check`): a file with ids outside its
//! vocabulary, nodes that do not exist or non-finite numbers is an
//! [`Error::InvalidModel`], never a panic at prediction.
//! Files are written to a temporary file in the same folder and renamed,
//! so a reader never sees half a model.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use rulecover_core::envelope::{Envelope, Subject};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cote::DecisionList;
use crate::ensemble::{Combine, TreeEnsemble};
use crate::error::{Error, Result};
use crate::model_check::{check_ensemble, check_list, Check};
use crate::symbols::{Sym, Vocabulary};
use crate::term::Atom;

/// The `format` of the files written before the envelope (still read).
pub const LEGACY_FORMAT: &str = "rc-logic-model";
/// The `version` of the files written before the envelope.
pub const LEGACY_VERSION: u32 = 1;
/// How errors name JSON text given in memory.
const IN_MEMORY: &str = "<json>";

/// What a model file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelKind {
    /// A boosted (RFGB) [`TreeEnsemble`].
    Boosted,
    /// A bagged [`TreeEnsemble`].
    Bagged,
    /// A CoTE [`DecisionList`].
    DecisionList,
}

impl ModelKind {
    /// Every kind.
    const ALL: [ModelKind; 3] = [
        ModelKind::Boosted,
        ModelKind::Bagged,
        ModelKind::DecisionList,
    ];

    fn name(self) -> &'static str {
        match self {
            ModelKind::Boosted => "a boosted ensemble",
            ModelKind::Bagged => "a bagged ensemble",
            ModelKind::DecisionList => "a decision list",
        }
    }

    /// The envelope's `kind`: the method id that makes such a model
    /// (`rfgb`, `bagging`), or `cote` for a decision list.
    pub fn id(self) -> &'static str {
        match self {
            ModelKind::Boosted => "rfgb",
            ModelKind::Bagged => "bagging",
            ModelKind::DecisionList => "cote",
        }
    }

    /// The kind whose [`ModelKind::id`] is `id`.
    pub fn from_id(id: &str) -> Option<ModelKind> {
        ModelKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The kind a file holds, read from its envelope (or legacy header).
    pub fn of_json(text: &str) -> Result<ModelKind> {
        let e = read_envelope(text, IN_MEMORY)?;
        kind_of(&e, IN_MEMORY)
    }
}

fn invalid(file: &str, message: impl Into<String>) -> Error {
    Error::InvalidModel {
        file: file.to_string(),
        message: message.into(),
    }
}

/// The header of a file written before the envelope.
#[derive(Deserialize)]
struct Legacy {
    format: String,
    version: u32,
    kind: ModelKind,
    target: String,
    head_types: Vec<String>,
    model: Value,
}

/// Whether `value` is a model file of the layout before the envelope
/// (it has a `format` field, which the envelope lacks).
pub fn is_legacy(value: &Value) -> bool {
    value.get("format").is_some()
}

/// A model file of the layout before the envelope
/// (`{"format": "rc-logic-model", "version": 1, ...}`), rewritten as an
/// envelope: its kind as [`ModelKind::id`], no parameters, seed 0.
///
/// # Errors
/// [`Error::InvalidModel`] naming `file` for another format or version,
/// or a missing or malformed field.
pub fn from_legacy(value: Value, file: &str) -> Result<Envelope> {
    let h: Legacy = serde_json::from_value(value).map_err(|e| invalid(file, e.to_string()))?;
    if h.format != LEGACY_FORMAT {
        return Err(invalid(
            file,
            format!("format is '{}', expected '{LEGACY_FORMAT}'", h.format),
        ));
    }
    if h.version != LEGACY_VERSION {
        return Err(invalid(
            file,
            format!(
                "format version {} is not supported (this build reads version {LEGACY_VERSION})",
                h.version
            ),
        ));
    }
    Ok(Envelope {
        kind: h.kind.id().to_string(),
        subject: Subject::Relational {
            target: h.target,
            head_types: h.head_types,
        },
        params: BTreeMap::new(),
        seed: 0,
        tuned: None,
        model: h.model,
    })
}

/// The envelope of a model file's text: the envelope itself, or a file
/// of the layout before it rewritten as one ([`from_legacy`]).
///
/// # Errors
/// [`Error::InvalidModel`] naming `file` for text that is not JSON or
/// not a model file.
pub fn read_envelope(text: &str, file: &str) -> Result<Envelope> {
    let value: Value = serde_json::from_str(text).map_err(|e| invalid(file, e.to_string()))?;
    if is_legacy(&value) {
        return from_legacy(value, file);
    }
    Envelope::from_value(value).map_err(|e| invalid(file, e.to_string()))
}

fn kind_of(e: &Envelope, file: &str) -> Result<ModelKind> {
    ModelKind::from_id(&e.kind).ok_or_else(|| {
        invalid(
            file,
            format!(
                "kind '{}' is not a relational model (kinds: {})",
                e.kind,
                ModelKind::ALL.map(ModelKind::id).join(", ")
            ),
        )
    })
}

/// `name/arity` of a head.
fn target_text(head: &Atom, vocab: &Vocabulary) -> String {
    format!("{}/{}", vocab.pred_name(head.pred), head.args.len())
}

fn type_names(types: &[Sym], vocab: &Vocabulary) -> Vec<String> {
    types.iter().map(|&t| vocab.name(t).to_string()).collect()
}

/// A model that can be written to and read from a model file.
trait Persisted: Serialize + DeserializeOwned {
    /// What `load` is called on this type (for messages).
    const LOADER: &'static str;
    fn kind(&self) -> ModelKind;
    fn accepts(kind: ModelKind) -> bool;
    fn check(&self) -> Check;
    fn target(&self) -> String;
    fn head_types(&self) -> Vec<String>;
}

impl Persisted for TreeEnsemble {
    const LOADER: &'static str = "TreeEnsemble::load";
    fn kind(&self) -> ModelKind {
        match self.combine {
            Combine::Sum { .. } => ModelKind::Boosted,
            Combine::Mean => ModelKind::Bagged,
        }
    }
    fn accepts(kind: ModelKind) -> bool {
        matches!(kind, ModelKind::Boosted | ModelKind::Bagged)
    }
    fn check(&self) -> Check {
        check_ensemble(self)
    }
    fn target(&self) -> String {
        target_text(&self.head, &self.vocab)
    }
    fn head_types(&self) -> Vec<String> {
        type_names(&self.head_types, &self.vocab)
    }
}

impl Persisted for DecisionList {
    const LOADER: &'static str = "DecisionList::load";
    fn kind(&self) -> ModelKind {
        ModelKind::DecisionList
    }
    fn accepts(kind: ModelKind) -> bool {
        kind == ModelKind::DecisionList
    }
    fn check(&self) -> Check {
        check_list(self)
    }
    fn target(&self) -> String {
        target_text(&self.head, &self.vocab)
    }
    /// A decision list does not keep its head's types (prediction does
    /// not use them).
    fn head_types(&self) -> Vec<String> {
        Vec::new()
    }
}

fn to_envelope<M: Persisted>(
    model: &M,
    params: BTreeMap<String, String>,
    seed: u64,
    file: &str,
) -> Result<Envelope> {
    model
        .check()
        .map_err(|m| invalid(file, format!("refusing to write it: {m}")))?;
    let value = rc_json::to_value(model).map_err(|e| invalid(file, e.to_string()))?;
    Ok(Envelope {
        kind: model.kind().id().to_string(),
        subject: Subject::Relational {
            target: model.target(),
            head_types: model.head_types(),
        },
        params,
        seed,
        tuned: None,
        model: value,
    })
}

fn from_envelope<M: Persisted>(envelope: Envelope, file: &str) -> Result<M> {
    let kind = kind_of(&envelope, file)?;
    if !M::accepts(kind) {
        let other = if kind == ModelKind::DecisionList {
            DecisionList::LOADER
        } else {
            TreeEnsemble::LOADER
        };
        return Err(invalid(
            file,
            format!(
                "the file holds {}, which {} does not read; use {other}",
                kind.name(),
                M::LOADER
            ),
        ));
    }
    let Subject::Relational { target, head_types } = envelope.subject else {
        return Err(invalid(
            file,
            "the file holds a tabular model (it has a schema), not a relational one",
        ));
    };
    let model: M = rc_json::from_value(envelope.model).map_err(|e| invalid(file, e.to_string()))?;
    model.check().map_err(|m| invalid(file, m))?;
    if model.kind() != kind {
        return Err(invalid(
            file,
            format!(
                "the header says {} but the model is {}",
                kind.name(),
                model.kind().name()
            ),
        ));
    }
    if model.target() != target || model.head_types() != head_types {
        return Err(invalid(
            file,
            format!(
                "the header says target {} with types ({}) but the model has {} with ({})",
                target,
                head_types.join(", "),
                model.target(),
                model.head_types().join(", ")
            ),
        ));
    }
    Ok(model)
}

fn to_json<M: Persisted>(model: &M, file: &str) -> Result<String> {
    to_envelope(model, BTreeMap::new(), 0, file)?
        .to_json()
        .map_err(|e| invalid(file, e.to_string()))
}

fn save<M: Persisted>(model: &M, path: &Path) -> Result<()> {
    let text = to_json(model, &path.display().to_string())?;
    write_atomically(path, |w| w.write_all(text.as_bytes()))
}

fn load<M: Persisted>(path: &Path) -> Result<M> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let file = path.display().to_string();
    from_envelope(read_envelope(&text, &file)?, &file)
}

/// Writes `path` through a temporary file in the same folder, renamed
/// over `path` once complete and flushed to disk; the temporary file is
/// removed on failure ([`rulecover_core::fs::write_atomically_with`], with
/// the error naming `path`).
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<()> {
    rulecover_core::fs::write_atomically_with(path, write).map_err(|e| Error::io(path, e))
}

impl TreeEnsemble {
    /// The ensemble as model-file JSON (see [`crate::persist`]).
    ///
    /// Errors: [`Error::InvalidModel`] when the ensemble does not hold
    /// together (e.g. a non-finite value, which JSON cannot carry).
    pub fn to_json(&self) -> Result<String> {
        to_json(self, IN_MEMORY)
    }

    /// Reads an ensemble from model-file JSON (the envelope, or the
    /// layout before it); [`Error::InvalidModel`] names what is wrong.
    /// Its ids are those of the learning process: [`TreeEnsemble::rebind`]
    /// it to the data to predict.
    pub fn from_json(text: &str) -> Result<TreeEnsemble> {
        from_envelope(read_envelope(text, IN_MEMORY)?, IN_MEMORY)
    }

    /// The ensemble in a model-file envelope of kind `rfgb` or `bagging`,
    /// with the `params` and `seed` of its fit.
    ///
    /// Errors: [`Error::InvalidModel`] (naming `file`) when the ensemble
    /// does not hold together.
    pub fn to_envelope(
        &self,
        params: BTreeMap<String, String>,
        seed: u64,
        file: &str,
    ) -> Result<Envelope> {
        to_envelope(self, params, seed, file)
    }

    /// The ensemble of an envelope, checked: its kind (`rfgb` or
    /// `bagging`), target and head types against the model, and the model
    /// itself; [`Error::InvalidModel`] naming `file` otherwise.
    pub fn from_envelope(envelope: Envelope, file: &str) -> Result<TreeEnsemble> {
        from_envelope(envelope, file)
    }

    /// Writes the ensemble to `path` (through a temporary file in the same
    /// folder, renamed when complete).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        save(self, path.as_ref())
    }

    /// Reads an ensemble written by [`TreeEnsemble::save`];
    /// [`Error::Io`] or [`Error::InvalidModel`] naming the file.
    pub fn load(path: impl AsRef<Path>) -> Result<TreeEnsemble> {
        load(path.as_ref())
    }
}

impl DecisionList {
    /// The list as model-file JSON (see [`crate::persist`]).
    ///
    /// Errors: [`Error::InvalidModel`] when the list does not hold
    /// together.
    pub fn to_json(&self) -> Result<String> {
        to_json(self, IN_MEMORY)
    }

    /// Reads a list from model-file JSON (the envelope, or the layout
    /// before it); [`Error::InvalidModel`] names what is wrong.
    /// [`DecisionList::rebind`] it to the data to predict.
    pub fn from_json(text: &str) -> Result<DecisionList> {
        from_envelope(read_envelope(text, IN_MEMORY)?, IN_MEMORY)
    }

    /// Writes the list to `path` (through a temporary file in the same
    /// folder, renamed when complete).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        save(self, path.as_ref())
    }

    /// Reads a list written by [`DecisionList::save`]; [`Error::Io`] or
    /// [`Error::InvalidModel`] naming the file.
    pub fn load(path: impl AsRef<Path>) -> Result<DecisionList> {
        load(path.as_ref())
    }
}
