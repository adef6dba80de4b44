//! The error type of rc-colgen.

/// What can go wrong in column generation.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A parameter is invalid.
    #[error("invalid parameter {name} = {value}: {reason}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// Its value.
        value: String,
        /// What is allowed.
        reason: String,
    },
    /// The training data cannot be used (e.g. one class, wrong target).
    #[error("unusable training data: {0}")]
    Data(String),
    /// The pricing oracle failed.
    #[error("pricing oracle failed in round {round}: {message}")]
    Oracle {
        /// The round.
        round: usize,
        /// Its error.
        message: String,
    },
    /// The pricing oracle's candidates do not fit the training data (their
    /// coverage has another number of rows).
    #[error("pricing oracle in round {round}: {message}")]
    CandidateShape {
        /// The round.
        round: usize,
        /// What does not fit.
        message: String,
    },
    /// The master LP could not be solved to optimality.
    #[error("master LP in round {round}: {message}")]
    Lp {
        /// The round.
        round: usize,
        /// What the solver said.
        message: String,
    },
    /// The LP layer failed on the master LP: rc-lp's error, kept as the
    /// source (e.g. [`rc_lp::Error::SolveFailed`] when HiGHS found no answer
    /// by any algorithm).
    #[error("master LP in round {round}: {source}")]
    LpSolve {
        /// The round.
        round: usize,
        /// rc-lp's error.
        source: rc_lp::Error,
    },
    /// An error from rule selection (pool, vote).
    #[error(transparent)]
    Cover(#[from] rc_cover::Error),
    /// An error from rulecover-core.
    #[error(transparent)]
    Core(#[from] rulecover_core::Error),
}

/// Result alias of rc-colgen.
pub type Result<T, E = Error> = std::result::Result<T, E>;
