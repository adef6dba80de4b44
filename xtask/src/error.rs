//! Errors of the xtask commands.

use std::path::Path;

/// What can go wrong in a task.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad command-line usage.
    #[error("{0}\n\nrun `cargo xtask help` for usage")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A file could not be parsed.
    #[error("{file}: {message}")]
    Parse {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// Loading data failed.
    #[error(transparent)]
    Data(#[from] rulecover_core::Error),
    /// An algorithm failed on a job.
    #[error("{suite}/{dataset}/{method}/fold {fold}: {message}")]
    Job {
        /// Suite.
        suite: String,
        /// Data set.
        dataset: String,
        /// Method.
        method: String,
        /// Fold.
        fold: usize,
        /// The algorithm's error.
        message: String,
    },
    /// A step of a task failed: a scaling fit, drawing a plot.
    #[error("{what}: {message}")]
    Failed {
        /// What was being done ("fitting dt on twonorm n=1000 p=20").
        what: String,
        /// Why it failed.
        message: String,
    },
    /// A scaling fit stopped because its LP/MIP solver found no answer by
    /// any algorithm it tried (rc-lp's `Error::SolveFailed` among the fit
    /// error's sources).
    #[error("{what}: {message}")]
    SolverFailed {
        /// What was being done ("fitting rux-rf on twonorm n=100000 p=20").
        what: String,
        /// The fit's error, naming the LP's size, the algorithms tried and
        /// their statuses.
        message: String,
    },
}

impl Error {
    /// An I/O error on a path.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.display().to_string(),
            source,
        }
    }
}

/// Result alias of xtask.
pub type Result<T, E = Error> = std::result::Result<T, E>;
