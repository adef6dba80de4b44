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
    /// Writing an exported model failed.
    #[error("I/O error while writing the model: {0}")]
    Io(#[from] std::io::Error),
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
}
