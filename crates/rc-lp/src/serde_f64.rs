//! Serde representation of `f64` values that may be infinite or NaN (bounds,
//! objective values): finite values are numbers, the others the strings `"inf"`,
//! `"-inf"` and `"nan"`, so that JSON (which has no infinity) round-trips.
//! Deserialisation needs a self-describing format (JSON, YAML, RON, ...).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

pub(crate) fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    if v.is_finite() {
        s.serialize_f64(*v)
    } else if v.is_nan() {
        s.serialize_str("nan")
    } else if *v > 0.0 {
        s.serialize_str("inf")
    } else {
        s.serialize_str("-inf")
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Repr {
    Num(f64),
    Text(String),
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    match Repr::deserialize(d)? {
        Repr::Num(v) => Ok(v),
        Repr::Text(t) => match t.as_str() {
            "inf" | "+inf" => Ok(f64::INFINITY),
            "-inf" => Ok(f64::NEG_INFINITY),
            "nan" => Ok(f64::NAN),
            other => Err(D::Error::custom(format!(
                "expected a number, \"inf\", \"-inf\" or \"nan\", got {other:?}"
            ))),
        },
    }
}
