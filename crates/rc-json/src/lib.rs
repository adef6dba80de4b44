//! JSON with infinities and NaN: the one policy of the workspace for
//! non-finite floats. Finite floats are numbers (the shortest decimal that
//! reads back to the same `f64`); the others are the marker strings
//! [`INF`], [`NEG_INF`] and [`NAN`], which read back as those values
//! wherever an `f64` is expected (`"+inf"` reads as infinity too).
//!
//! - [`float`]: `#[serde(with = "rc_json::float")]` for one `f64` field,
//!   in any self-describing format (JSON, YAML, RON, ...).
//! - [`to_value`] / [`from_value`]: any serde type, non-finite floats
//!   anywhere in it, through a [`serde_json::Value`]; [`to_string`],
//!   [`to_string_pretty`] and [`from_str`] go through text.
//!
//! ```
//! let text = rc_json::to_string(&vec![1.5, f64::INFINITY, f64::NAN])?;
//! assert_eq!(text, r#"[1.5,"inf","nan"]"#);
//! let back: Vec<f64> = rc_json::from_str(&text)?;
//! assert!(back[1] == f64::INFINITY && back[2].is_nan());
//! # Ok::<(), serde_json::Error>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// The README example runs as a doctest too.
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

pub mod float;
mod marker;
mod value;

pub use marker::{marker_of, parse_marker, INF, NAN, NEG_INF};
pub use value::{from_value, to_value};

use serde::de::DeserializeOwned;
use serde::Serialize;

/// `value` as compact JSON text, non-finite floats as markers.
///
/// # Errors
/// serde_json's, e.g. a map key that is not a string or a number.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(&to_value(value)?)
}

/// `value` as pretty-printed JSON text, non-finite floats as markers.
///
/// # Errors
/// As [`to_string`].
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(&to_value(value)?)
}

/// A `T` from JSON text, reading markers as non-finite floats where an
/// `f64` is expected.
///
/// # Errors
/// serde_json's: text that is not JSON (with its line and column), or
/// JSON of another shape than `T`.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    from_value(serde_json::from_str(text)?)
}
