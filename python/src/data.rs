//! Columns handed over by Python, turned into a [`Dataset`].
//!
//! Python sends each column either as `bytes` (native-endian `f64`, `NaN`
//! = missing) for a numeric column, or as a tuple `(values, levels)` for a
//! non-numeric one: `values` a list of strings with `None` for a missing
//! value, `levels` the declared level order (a pandas categorical's
//! categories) or `None` for the sorted distinct values. Level codes, the
//! target's encoding and every check on the data happen here and in
//! rulecover-core, never in Python.

use std::collections::HashMap;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use rulecover_core::{Dataset, Feature, Target};

/// One input column.
pub enum Column {
    /// Real values, `NaN` = missing.
    Numeric(Vec<f64>),
    /// Level names per row (`None` = missing) and the declared levels.
    Categorical {
        /// The value of each row.
        values: Vec<Option<String>>,
        /// The level order, or `None` for the sorted distinct values.
        levels: Option<Vec<String>>,
    },
}

/// Reads `f64`s written by numpy's `tobytes()` (native endianness).
pub fn f64s(bytes: &[u8], what: &str) -> PyResult<Vec<f64>> {
    if bytes.len() % 8 != 0 {
        return Err(PyValueError::new_err(format!(
            "{what}: {} bytes is not a whole number of float64 values",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(8)
        .map(|c| f64::from_ne_bytes(c.try_into().expect("chunks of 8 bytes")))
        .collect())
}

/// `f64`s as `bytes` for `numpy.frombuffer`.
pub fn f64_bytes<'py>(py: Python<'py>, values: &[f64]) -> Bound<'py, PyBytes> {
    let mut out = Vec::with_capacity(values.len() * 8);
    for v in values {
        out.extend_from_slice(&v.to_ne_bytes());
    }
    PyBytes::new(py, &out)
}

/// Reads one column as Python sent it.
pub fn column(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Column> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Column::Numeric(f64s(b.as_bytes(), name)?));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        if t.len() == 2 {
            let values: Vec<Option<String>> = t.get_item(0)?.extract()?;
            let levels: Option<Vec<String>> = t.get_item(1)?.extract()?;
            return Ok(Column::Categorical { values, levels });
        }
    }
    Err(PyTypeError::new_err(format!(
        "column '{name}': expected float64 bytes or a (values, levels) tuple"
    )))
}

/// A [`Feature`] and its stored values (level codes for a categorical
/// column).
fn feature(name: String, column: Column) -> PyResult<(Feature, Vec<f64>)> {
    match column {
        Column::Numeric(values) => {
            if let Some(row) = values.iter().position(|v| v.is_infinite()) {
                return Err(PyValueError::new_err(format!(
                    "column '{name}', row {}: the value {} is infinite (NaN is a missing \
                     value; infinity is not)",
                    row + 1,
                    values[row]
                )));
            }
            Ok((Feature::numeric(name), values))
        }
        Column::Categorical { values, levels } => {
            let levels = levels.unwrap_or_else(|| {
                let mut distinct: Vec<String> = values.iter().flatten().cloned().collect();
                distinct.sort();
                distinct.dedup();
                distinct
            });
            let code: HashMap<&str, f64> = levels
                .iter()
                .enumerate()
                .map(|(c, l)| (l.as_str(), c as f64))
                .collect();
            let codes = values
                .iter()
                .enumerate()
                .map(|(row, v)| match v {
                    None => Ok(f64::NAN),
                    Some(v) => code.get(v.as_str()).copied().ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "column '{name}', row {}: value '{v}' is not one of its declared categories",
                            row + 1
                        ))
                    }),
                })
                .collect::<PyResult<Vec<f64>>>()?;
            Ok((Feature::categorical(name, levels), codes))
        }
    }
}

/// The dataset of `names` and `columns` with `target`.
pub fn dataset(names: Vec<String>, columns: Vec<Column>, target: Target) -> PyResult<Dataset> {
    if names.len() != columns.len() {
        return Err(PyValueError::new_err(format!(
            "{} column names but {} columns",
            names.len(),
            columns.len()
        )));
    }
    let mut features = Vec::with_capacity(names.len());
    let mut stored = Vec::with_capacity(names.len());
    for (name, col) in names.into_iter().zip(columns) {
        let (f, values) = feature(name, col)?;
        features.push(f);
        stored.push(values);
    }
    Dataset::new("X", features, stored, target).map_err(crate::errors::core)
}

/// The target Python sends: class indices (as `f64` bytes) with the class
/// names in class order, real values, or nothing.
pub fn target(y: Option<&[u8]>, classes: Option<Vec<String>>) -> PyResult<Target> {
    let Some(y) = y else {
        return Ok(Target::None);
    };
    let values = f64s(y, "y")?;
    Ok(match classes {
        None => {
            if let Some(row) = values.iter().position(|v| !v.is_finite()) {
                return Err(PyValueError::new_err(format!(
                    "the target y, row {}: the value {} is missing or not finite",
                    row + 1,
                    values[row]
                )));
            }
            Target::Real(values)
        }
        Some(names) => {
            let labels = values
                .iter()
                .enumerate()
                .map(|(row, &v)| {
                    if v >= 0.0 && v.fract() == 0.0 && (v as usize) < names.len() {
                        Ok(v as usize)
                    } else {
                        Err(PyValueError::new_err(format!(
                            "y, row {}: class index {v} is not below {}",
                            row + 1,
                            names.len()
                        )))
                    }
                })
                .collect::<PyResult<Vec<usize>>>()?;
            Target::Classes { labels, names }
        }
    })
}
