//! Rust errors as Python exceptions: bad data, parameters and model files
//! are `ValueError` with the Rust message; I/O failures are `OSError`.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::PyErr;

/// A registry or model-file error as a Python exception.
pub fn registry(e: rulecover::Error) -> PyErr {
    match e {
        rulecover::Error::Io { .. } => PyOSError::new_err(e.to_string()),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// A rulecover-core data error as `ValueError`.
pub fn core(e: rulecover_core::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// An rc-logic error (relational data, fitting, compression) as
/// `ValueError`.
pub fn logic(e: rc_logic::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}
