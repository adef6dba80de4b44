//! The marker strings of non-finite floats, `"inf"`, `"-inf"` and
//! `"nan"`: what a non-finite `f64` is written as, and what reads back.

/// The marker of positive infinity.
pub const INF: &str = "inf";
/// The marker of negative infinity.
pub const NEG_INF: &str = "-inf";
/// The marker of NaN (any NaN; its sign and payload are not kept).
pub const NAN: &str = "nan";

/// The marker string of a non-finite `v`; `None` for a finite one.
pub fn marker_of(v: f64) -> Option<&'static str> {
    if v.is_finite() {
        None
    } else if v.is_nan() {
        Some(NAN)
    } else if v > 0.0 {
        Some(INF)
    } else {
        Some(NEG_INF)
    }
}

/// The non-finite float a marker string stands for (`"+inf"` is read as
/// infinity too); `None` for any other string.
pub fn parse_marker(s: &str) -> Option<f64> {
    match s {
        "inf" | "+inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip() {
        for v in [f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(parse_marker(marker_of(v).unwrap()), Some(v));
        }
        assert!(parse_marker(marker_of(f64::NAN).unwrap()).unwrap().is_nan());
        assert_eq!(marker_of(1.0), None);
        assert_eq!(parse_marker("+inf"), Some(f64::INFINITY));
        assert_eq!(parse_marker("infinity"), None);
    }
}
