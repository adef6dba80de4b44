//! Serde representation of one `f64` that may be infinite or NaN (bounds,
//! objective values): `#[serde(with = "rc_json::float")]`. Finite values
//! are numbers, the others the markers `"inf"`, `"-inf"` and `"nan"`
//! ([`crate::marker_of`]), so that JSON (which has no infinity)
//! round-trips. Deserialisation needs a self-describing format (JSON,
//! YAML, RON, ...).
//!
//! ```
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Bound {
//!     #[serde(with = "rc_json::float")]
//!     upper: f64,
//! }
//! let text = serde_json::to_string(&Bound { upper: f64::NEG_INFINITY })?;
//! assert_eq!(text, r#"{"upper":"-inf"}"#);
//! assert_eq!(serde_json::from_str::<Bound>(&text)?.upper, f64::NEG_INFINITY);
//! # Ok::<(), serde_json::Error>(())
//! ```

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

use crate::marker::{marker_of, parse_marker};

/// Writes `v` as a number, or as its marker string when not finite.
///
/// # Errors
/// The serializer's.
pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    match marker_of(*v) {
        None => s.serialize_f64(*v),
        Some(m) => s.serialize_str(m),
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Repr {
    Num(f64),
    Text(String),
}

/// Reads a number, or a marker string as its non-finite value.
///
/// # Errors
/// The deserializer's, and a string that is not a marker.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    match Repr::deserialize(d)? {
        Repr::Num(v) => Ok(v),
        Repr::Text(t) => parse_marker(&t).ok_or_else(|| {
            D::Error::custom(format!(
                "expected a number, \"inf\", \"-inf\" or \"nan\", got {t:?}"
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Bound {
        #[serde(with = "crate::float")]
        upper: f64,
    }

    /// A field of this module reads the same through serde_json and
    /// through [`crate::from_value`]: one convention either way.
    #[test]
    fn both_routes_write_and_read_the_same_markers() {
        for v in [f64::INFINITY, f64::NEG_INFINITY, 0.1] {
            let b = Bound { upper: v };
            let plain = serde_json::to_string(&b).unwrap();
            assert_eq!(plain, crate::to_string(&b).unwrap());
            assert_eq!(serde_json::from_str::<Bound>(&plain).unwrap(), b);
            assert_eq!(crate::from_str::<Bound>(&plain).unwrap(), b);
        }
        let nan: Bound = crate::from_str(r#"{"upper":"nan"}"#).unwrap();
        assert!(nan.upper.is_nan());
        let err = serde_json::from_str::<Bound>(r#"{"upper":"infinity"}"#).unwrap_err();
        assert!(err.to_string().contains("got \"infinity\""), "{err}");
    }
}
