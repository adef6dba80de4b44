//! Saving and loading models as JSON, so that learning and inference can
//! run in separate processes.
//!
//! A model file is one JSON object:
//!
//! ```text
//! {"format": "rc-logic-model", "version": 1, "kind": "boosted",
//!  "target": "father/2", "head_types": ["person", "person"],
//!  "model": { … the model, its vocabulary included … }}
//! ```
//!
//! `kind` is `boosted` or `bagged` for a [`TreeEnsemble`] (RFGB or
//! bagging) and `decision-list` for a CoTE [`DecisionList`]; `target` and
//! `head_types` repeat the model's target and its argument types for
//! people and tools reading the file, and are checked on load. The model
//! carries everything prediction needs: its literals, the vocabulary
//! their ids refer to (predicate names and arities, constants, type
//! names), the head with its types, and how values combine (prior and
//! step of boosting, mean of bagging). Mode declarations are not stored:
//! they only steer learning.
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

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

use crate::cote::DecisionList;
use crate::ensemble::{Combine, TreeEnsemble};
use crate::error::{Error, Result};
use crate::model_check::{check_ensemble, check_list, Check};
use crate::symbols::{Sym, Vocabulary};
use crate::term::Atom;

/// The `format` of every model file.
pub const FORMAT: &str = "rc-logic-model";
/// The format version this crate writes and reads.
pub const VERSION: u32 = 1;
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
    fn name(self) -> &'static str {
        match self {
            ModelKind::Boosted => "a boosted ensemble",
            ModelKind::Bagged => "a bagged ensemble",
            ModelKind::DecisionList => "a decision list",
        }
    }

    /// The kind a file holds, read from its header only.
    pub fn of_json(text: &str) -> Result<ModelKind> {
        Ok(header(text, IN_MEMORY)?.kind)
    }
}

/// The file's fields other than the model.
#[derive(Deserialize)]
struct Header {
    format: String,
    version: u32,
    kind: ModelKind,
    target: String,
    head_types: Vec<String>,
    #[allow(dead_code)]
    model: IgnoredAny,
}

/// The file as written: the header fields in this order, then the model
/// as JSON with rc-json's markers for non-finite floats.
#[derive(Serialize)]
struct Out {
    format: &'static str,
    version: u32,
    kind: ModelKind,
    target: String,
    head_types: Vec<String>,
    model: serde_json::Value,
}

#[derive(Deserialize)]
struct In<M> {
    model: M,
}

fn invalid(file: &str, message: impl Into<String>) -> Error {
    Error::InvalidModel {
        file: file.to_string(),
        message: message.into(),
    }
}

fn header(text: &str, file: &str) -> Result<Header> {
    let h: Header = serde_json::from_str(text).map_err(|e| invalid(file, e.to_string()))?;
    if h.format != FORMAT {
        return Err(invalid(
            file,
            format!("format is '{}', expected '{FORMAT}'", h.format),
        ));
    }
    if h.version != VERSION {
        return Err(invalid(
            file,
            format!(
                "format version {} is not supported (this build reads version {VERSION})",
                h.version
            ),
        ));
    }
    Ok(h)
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
    fn kind(&self) -> ModelKind;
    fn accepts(kind: ModelKind) -> bool;
    fn check(&self) -> Check;
    fn target(&self) -> String;
    fn head_types(&self) -> Vec<String>;
}

impl Persisted for TreeEnsemble {
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

fn envelope<M: Persisted>(model: &M, file: &str) -> Result<Out> {
    model
        .check()
        .map_err(|m| invalid(file, format!("refusing to write it: {m}")))?;
    Ok(Out {
        format: FORMAT,
        version: VERSION,
        kind: model.kind(),
        target: model.target(),
        head_types: model.head_types(),
        model: rc_json::to_value(model).map_err(|e| invalid(file, e.to_string()))?,
    })
}

fn to_json<M: Persisted>(model: &M) -> Result<String> {
    let out = envelope(model, IN_MEMORY)?;
    serde_json::to_string(&out).map_err(|e| invalid(IN_MEMORY, e.to_string()))
}

fn from_json<M: Persisted>(text: &str, file: &str) -> Result<M> {
    let h = header(text, file)?;
    let expected = if M::accepts(ModelKind::DecisionList) {
        "DecisionList::load"
    } else {
        "TreeEnsemble::load"
    };
    if !M::accepts(h.kind) {
        let other = if h.kind == ModelKind::DecisionList {
            "DecisionList::load"
        } else {
            "TreeEnsemble::load"
        };
        return Err(invalid(
            file,
            format!(
                "the file holds {}, which {expected} does not read; use {other}",
                h.kind.name()
            ),
        ));
    }
    let model: M = rc_json::from_str::<In<M>>(text)
        .map_err(|e| invalid(file, e.to_string()))?
        .model;
    model.check().map_err(|m| invalid(file, m))?;
    if model.kind() != h.kind {
        return Err(invalid(
            file,
            format!(
                "the header says {} but the model is {}",
                h.kind.name(),
                model.kind().name()
            ),
        ));
    }
    if model.target() != h.target || model.head_types() != h.head_types {
        return Err(invalid(
            file,
            format!(
                "the header says target {} with types ({}) but the model has {} with ({})",
                h.target,
                h.head_types.join(", "),
                model.target(),
                model.head_types().join(", ")
            ),
        ));
    }
    Ok(model)
}

fn save<M: Persisted>(model: &M, path: &Path) -> Result<()> {
    let out = envelope(model, &path.display().to_string())?;
    write_atomically(path, |w| {
        serde_json::to_writer(&mut *w, &out).map_err(std::io::Error::from)
    })
}

fn load<M: Persisted>(path: &Path) -> Result<M> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    from_json(&text, &path.display().to_string())
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
        to_json(self)
    }

    /// Reads an ensemble from model-file JSON; [`Error::InvalidModel`]
    /// names what is wrong. Its ids are those of the learning process:
    /// [`TreeEnsemble::rebind`] it to the data to predict.
    pub fn from_json(text: &str) -> Result<TreeEnsemble> {
        from_json(text, IN_MEMORY)
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
        to_json(self)
    }

    /// Reads a list from model-file JSON; [`Error::InvalidModel`] names
    /// what is wrong. [`DecisionList::rebind`] it to the data to predict.
    pub fn from_json(text: &str) -> Result<DecisionList> {
        from_json(text, IN_MEMORY)
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
