//! The error type of rc-logic.
//!
//! Every error that comes from an input file names the file and the line
//! (1-based) so the user can open it and fix it.

use std::path::PathBuf;

/// Everything that can go wrong in rc-logic: unreadable or malformed
/// BoostSRL files, examples or facts that do not fit the mode
/// declarations, invalid parameters, and ensembles CoTE cannot combine.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be opened or read.
    #[error("cannot read '{path}': {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// A statement could not be parsed.
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The file (or `<memory>` names given by the caller).
        file: String,
        /// 1-based line where the statement starts.
        line: usize,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// An example (or fact) uses a predicate no mode declaration knows.
    #[error(
        "{file}:{line}: unknown predicate '{name}/{arity}' in {what}; declared predicates are: {known}. \
         Declare it with a mode line such as '{name}(+type,...).' in the background file, or remove the line"
    )]
    UnknownPredicate {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// `examples` or `facts`.
        what: &'static str,
        /// Predicate name.
        name: String,
        /// Arity found.
        arity: usize,
        /// The declared predicates, `name/arity`, comma separated.
        known: String,
    },
    /// An atom has a different number of arguments than its declaration.
    #[error("{file}:{line}: '{name}' has {found} argument(s) here but {expected} in its mode declaration ({declared_at})")]
    ArityMismatch {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// Predicate name.
        name: String,
        /// Declared arity.
        expected: usize,
        /// Arity found.
        found: usize,
        /// `file:line` of the declaration.
        declared_at: String,
    },
    /// An example file holds no example of the target.
    #[error("{file}:{line}: no {what} of target '{target}' (the file has {lines} line(s)); a learner needs both positive and negative examples")]
    EmptyExamples {
        /// The file.
        file: String,
        /// Line after the last line read (1 for an empty file).
        line: usize,
        /// `positive examples` or `negative examples`.
        what: &'static str,
        /// Target predicate.
        target: String,
        /// Lines in the file.
        lines: usize,
    },
    /// The target has no mode declaration, so its argument types are unknown.
    #[error("{file}:{line}: no mode declaration for target '{target}'; add a line such as '{target}(+type1,+type2).' to the background")]
    NoTargetMode {
        /// The background file.
        file: String,
        /// Last line of the background file.
        line: usize,
        /// Target predicate.
        target: String,
    },
    /// The mode declarations allow no refinement of the target clause.
    #[error("{file}:{line}: the modes allow no refinement of '{target}': {reason}")]
    NoRefinement {
        /// The background file.
        file: String,
        /// Line of the target's mode declaration.
        line: usize,
        /// Target predicate.
        target: String,
        /// Why (which types are missing).
        reason: String,
    },
    /// An `import:` line forms a cycle or points nowhere.
    #[error("{file}:{line}: {message}")]
    Import {
        /// The importing file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The same example is listed as positive and as negative.
    #[error(
        "example {example} of target '{target}' is both positive ({pos_file}:{pos_line}) and negative \
         ({neg_file}:{neg_line}); remove it from one of the two files"
    )]
    ContradictoryExample {
        /// The example as written, e.g. `father(tom, bob)`.
        example: String,
        /// Target predicate.
        target: String,
        /// The positive examples file.
        pos_file: String,
        /// 1-based line of the example in the positive file.
        pos_line: usize,
        /// The negative examples file.
        neg_file: String,
        /// 1-based line of the example in the negative file.
        neg_line: usize,
    },
    /// An example file repeats an example (under
    /// [`DuplicatePolicy::Error`](crate::duplicates::DuplicatePolicy)).
    #[error(
        "{file}:{line}: example {example} repeats line {first_of} ({count} repeated line(s) in \
         this file); remove the repeats or accept them (they are then kept once)"
    )]
    DuplicateExample {
        /// The examples file.
        file: String,
        /// 1-based line of the first repeat.
        line: usize,
        /// The example as it prints.
        example: String,
        /// 1-based line it repeats.
        first_of: usize,
        /// Repeated lines in the file.
        count: usize,
    },
    /// A parameter is out of range.
    #[error("invalid parameter {name} = {value}: {reason}")]
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// The value given.
        value: String,
        /// The accepted range.
        reason: String,
    },
    /// A model or clause does not fit the data it is applied to.
    #[error("{0}")]
    Mismatch(String),
    /// A saved model could not be read back (or written): not JSON of an
    /// rc-logic model, another format version or model kind, or content
    /// that contradicts itself (ids outside its vocabulary, child nodes
    /// that do not exist, non-finite values).
    #[error("{file}: not a valid rc-logic model: {message}")]
    InvalidModel {
        /// The model file (`<json>` for text given in memory).
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A model is applied to data that has no predicate of the model's
    /// target (name and arity).
    #[error(
        "the model predicts '{target}/{arity}' but the data has no such predicate{others}; \
         load the data with the model's target"
    )]
    TargetNotInData {
        /// The model's target name.
        target: String,
        /// The model's target arity.
        arity: usize,
        /// Arities of the same name the data has (`; it has 'p/3'`), or empty.
        others: String,
    },
    /// CoTE was given no trees.
    #[error("the ensemble has no trees; CoTE needs at least one tree")]
    EmptyEnsemble,
    /// Trees of one ensemble predict different targets.
    #[error("tree {tree} predicts '{found}' but tree 0 predicts '{expected}'; all trees of an ensemble must share the target")]
    MixedTargets {
        /// Index of the offending tree.
        tree: usize,
        /// Target of tree 0.
        expected: String,
        /// Target of this tree.
        found: String,
    },
    /// A tree's head is not `target(V0, …, Vk-1)` with the head variables of tree 0.
    #[error("tree {tree} has head {found} but the ensemble's head is {expected}; heads must use distinct variables 0..k-1 in order")]
    InconsistentHead {
        /// Index of the offending tree.
        tree: usize,
        /// The ensemble's head.
        expected: String,
        /// This tree's head.
        found: String,
    },
    /// A metric could not be computed.
    #[error(transparent)]
    Core(#[from] rulecover_core::Error),
    /// A model could not be (de)serialised.
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Result alias of rc-logic.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// A syntax error at `file:line`.
    pub fn syntax(file: &str, line: usize, message: impl Into<String>) -> Self {
        Error::Syntax {
            file: file.to_string(),
            line,
            message: message.into(),
        }
    }

    /// An invalid parameter.
    pub fn param(name: &'static str, value: impl ToString, reason: impl Into<String>) -> Self {
        Error::InvalidParameter {
            name,
            value: value.to_string(),
            reason: reason.into(),
        }
    }
}
