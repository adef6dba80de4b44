//! The crate's single error type.

/// Everything that can go wrong while building, solving or exporting a model.
///
/// A model that is infeasible or unbounded is *not* an error: the solvers
/// report it through [`LpStatus`](crate::LpStatus) / [`MipStatus`](crate::MipStatus).
/// Errors are reserved for invalid input, resource limits, and backend failures.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A [`VarId`](crate::VarId) does not belong to the model (it was created by another model).
    #[error("unknown variable x{index}: the model has {num_vars} variables; was the VarId created by another Model?")]
    UnknownVar {
        /// The offending variable index.
        index: usize,
        /// Number of variables in the model.
        num_vars: usize,
    },
    /// A [`RowId`](crate::RowId) does not belong to the model.
    #[error("unknown row r{index}: the model has {num_rows} rows; was the RowId created by another Model?")]
    UnknownRow {
        /// The offending row index.
        index: usize,
        /// Number of rows in the model.
        num_rows: usize,
    },
    /// A coefficient (objective or matrix entry) is NaN or infinite.
    #[error("non-finite coefficient {value} at {location}: objective and matrix coefficients must be finite")]
    NonFiniteCoefficient {
        /// Where the coefficient occurs, e.g. `objective of x3` or `row r2, column x5`.
        location: String,
        /// The offending value.
        value: f64,
    },
    /// A bound is NaN, a lower bound is `+inf` or an upper bound is `-inf`.
    #[error("invalid bounds [{lower}, {upper}] on {location}: bounds must not be NaN, lower must be < +inf and upper > -inf")]
    InvalidBounds {
        /// The variable or row concerned, e.g. `variable x3` or `row r2`.
        location: String,
        /// The lower bound given.
        lower: f64,
        /// The upper bound given.
        upper: f64,
    },
    /// An option value is out of its domain (e.g. a negative gap).
    #[error("invalid option {option} = {value}: {reason}")]
    InvalidOption {
        /// The option's name.
        option: &'static str,
        /// The value given, as text.
        value: String,
        /// What is expected instead.
        reason: &'static str,
    },
    /// The model exceeds the backend's configured size limit (minilp has no time limit,
    /// so the size limit guards against solves that would run for hours).
    #[error("model too large for this backend: {rows} rows x {cols} columns exceeds the limit of {limit} (rows + columns); raise the solver's size limit or use the CBC backend")]
    ModelTooLarge {
        /// Number of rows of the model.
        rows: usize,
        /// Number of columns of the model.
        cols: usize,
        /// The configured limit on rows + columns.
        limit: usize,
    },
    /// The backend panicked; the panic was caught and turned into this error.
    #[error("the {backend} backend panicked: {message}")]
    BackendPanic {
        /// Backend name (`minilp` or `cbc`).
        backend: &'static str,
        /// The panic payload, when it was a string.
        message: String,
    },
    /// The computed duals fail the strong-duality check, even after re-solving the full
    /// explicit dual; the primal solution was found but its duals are not trustworthy.
    #[error("LP duals failed verification: primal objective {primal} vs dual objective {dual} (tolerance {tolerance}); {detail}. Try rescaling the model or another backend")]
    DualMismatch {
        /// Primal objective value.
        primal: f64,
        /// Dual objective value recomputed from the duals.
        dual: f64,
        /// Absolute tolerance that was exceeded.
        tolerance: f64,
        /// Which check failed.
        detail: String,
    },
    /// The backend returned something that cannot be interpreted.
    #[error("the {backend} backend failed: {message}")]
    Backend {
        /// Backend name.
        backend: &'static str,
        /// Description of the failure.
        message: String,
    },
    /// The backend stopped without an answer (optimal, infeasible,
    /// unbounded or at the caller's time limit) on every algorithm it
    /// tried; HiGHS retries with other algorithms first (see
    /// `HighsAlgorithm::retry_order`, feature `highs`).
    #[error(
        "the {backend} backend found no answer to the {problem} of {rows} rows, {cols} columns \
         and {nonzeros} nonzeros: {}. A smaller {problem} (fewer rows or columns) or another \
         backend may solve it",
        attempts_text(.attempts)
    )]
    SolveFailed {
        /// Backend name.
        backend: &'static str,
        /// `LP` or `MIP`.
        problem: &'static str,
        /// Rows of the model.
        rows: usize,
        /// Columns (variables) of the model.
        cols: usize,
        /// Nonzero matrix entries of the model.
        nonzeros: usize,
        /// Each algorithm tried, in order, and how it stopped.
        attempts: Vec<SolveAttempt>,
    },
    /// Writing an exported model failed.
    #[error("I/O error while writing the model: {0}")]
    Io(#[from] std::io::Error),
}

/// One algorithm's run in [`Error::SolveFailed`] and how it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveAttempt {
    /// The algorithm, e.g. `interior point with crossover` or `dual simplex
    /// (warm start)`.
    pub algorithm: String,
    /// The backend's model status when the run returned (HiGHS's words,
    /// e.g. `Solve error`, `Reached iteration limit`), or `None` when the
    /// run itself returned `Error`: the `highs` crate then hands back no
    /// instance to read a model status from.
    pub model_status: Option<String>,
}

impl std::fmt::Display for SolveAttempt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.model_status {
            Some(status) => write!(f, "{} (model status: {status})", self.algorithm),
            None => write!(
                f,
                "{} (the run returned Error; no model status after an error)",
                self.algorithm
            ),
        }
    }
}

/// `tried A (…), then B (…)`.
fn attempts_text(attempts: &[SolveAttempt]) -> String {
    if attempts.is_empty() {
        return "no algorithm was tried".to_string();
    }
    let list: Vec<String> = attempts.iter().map(ToString::to_string).collect();
    format!("tried {}", list.join(", then "))
}

impl Error {
    /// Builds a [`Error::BackendPanic`] from a caught panic payload.
    pub(crate) fn from_panic(
        backend: &'static str,
        payload: Box<dyn std::any::Any + Send>,
    ) -> Self {
        let message = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "non-string panic payload".to_string()
        };
        Error::BackendPanic { backend, message }
    }
}

/// Runs `f`, turning a panic into [`Error::BackendPanic`].
pub(crate) fn catch_backend<T>(
    backend: &'static str,
    f: impl FnOnce() -> Result<T, Error>,
) -> Result<T, Error> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => Err(Error::from_panic(backend, payload)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_backend_errors() {
        let r: Result<(), Error> = catch_backend("minilp", || panic!("boom"));
        match r {
            Err(Error::BackendPanic { backend, message }) => {
                assert_eq!(backend, "minilp");
                assert_eq!(message, "boom");
            }
            other => panic!("unexpected {other:?}"),
        }
        let r: Result<(), Error> = catch_backend("cbc", || panic!("{}", String::from("owned")));
        assert!(matches!(r, Err(Error::BackendPanic { ref message, .. }) if message == "owned"));
        assert_eq!(catch_backend("cbc", || Ok(3)).unwrap(), 3);
    }

    #[test]
    fn a_failed_solve_names_size_algorithms_and_statuses() {
        let e = Error::SolveFailed {
            backend: "highs",
            problem: "LP",
            rows: 400,
            cols: 99_599,
            nonzeros: 9_959_900,
            attempts: vec![
                SolveAttempt {
                    algorithm: "interior point with crossover".into(),
                    model_status: None,
                },
                SolveAttempt {
                    algorithm: "dual simplex".into(),
                    model_status: Some("Iteration limit reached".into()),
                },
            ],
        };
        assert_eq!(
            e.to_string(),
            "the highs backend found no answer to the LP of 400 rows, 99599 columns and \
             9959900 nonzeros: tried interior point with crossover (the run returned Error; \
             no model status after an error), then dual simplex (model status: Iteration \
             limit reached). A smaller LP (fewer rows or columns) or another backend may \
             solve it"
        );
    }
}
