//! Split thresholds: scikit-learn's float32 midpoints, and the equivalent
//! float64 threshold that rules and prediction compare raw values with.
//!
//! scikit-learn casts `X` to float32, places a threshold `t` (a float64)
//! halfway between two consecutive distinct float32 values and sends a row
//! left when `f32(x) <= t`. Rounding to float32 is monotone, so the set of
//! float64 values `x` with `f32(x) <= t` is exactly `x <= T` for
//! `T = max { x : f32(x) <= t }`. rc-tree stores both: `t` (what
//! scikit-learn prints) and `T` (the [`rulecover_core::Condition`] threshold).
//! Comparing raw `f64` values with `T` routes every row exactly as
//! scikit-learn's float32 comparison would, and a rule extracted from a tree
//! covers exactly the rows the tree sends to its leaf.

/// scikit-learn's threshold between consecutive distinct float32 values
/// `a < b`: `a/2 + b/2` in float64, or `a` when that rounds to `b`.
#[inline]
pub(crate) fn midpoint(a: f32, b: f32) -> f64 {
    let (a, b) = (a as f64, b as f64);
    let t = a / 2.0 + b / 2.0;
    if t == b || t.is_infinite() {
        a
    } else {
        t
    }
}

/// The largest `f64` `x` with `f64(f32(x)) <= t`, for a finite `t` below
/// `f32::MAX` (every midpoint of finite float32 values is).
pub(crate) fn rule_threshold(t: f64) -> f64 {
    // Largest float32 not above t.
    let mut lo = t as f32;
    if (lo as f64) > t {
        lo = next_down_f32(lo);
    }
    let hi = next_up_f32(lo);
    if !hi.is_finite() {
        return f64::MAX;
    }
    // Halfway between two adjacent float32 values: exact in float64.
    let m = (lo as f64 + hi as f64) * 0.5;
    if ((m as f32) as f64) <= t {
        m
    } else {
        next_down_f64(m)
    }
}

fn next_up_f32(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn next_down_f32(x: f32) -> f32 {
    -next_up_f32(-x)
}

fn next_down_f64(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY {
        return x;
    }
    if x == 0.0 {
        return -f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b - 1 } else { b + 1 })
}

#[cfg(test)]
fn next_up_f64(x: f64) -> f64 {
    -next_down_f64(-x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulecover_core::Rng;

    fn check(a: f32, b: f32) {
        let t = midpoint(a, b);
        assert!((a as f64) <= t && t < b as f64, "{a} {b} {t}");
        let big_t = rule_threshold(t);
        let mut probes = vec![
            big_t,
            next_up_f64(big_t),
            next_down_f64(big_t),
            t,
            next_up_f64(t),
            next_down_f64(t),
            a as f64,
            b as f64,
        ];
        let mut x = big_t;
        for _ in 0..4 {
            x = next_up_f64(x);
            probes.push(x);
        }
        for x in probes {
            let sk = ((x as f32) as f64) <= t;
            assert_eq!(x <= big_t, sk, "a={a} b={b} t={t} T={big_t} x={x}");
        }
    }

    #[test]
    fn rule_threshold_matches_float32_comparison() {
        check(1.0, 2.0);
        check(0.1, 0.3);
        check(-1.0, 1.0);
        check(-3.5, -1.25);
        check(1.0, next_up_f32(1.0));
        check(next_down_f32(0.0), 0.0);
        check(0.0, f32::from_bits(1));
        check(-f32::from_bits(1), f32::from_bits(1));
        check(1e30, f32::MAX);
        let mut rng = Rng::new(5);
        for _ in 0..20_000 {
            let scale = 10f64.powi(rng.below(20) as i32 - 10);
            let a = ((rng.next_f64() - 0.5) * scale) as f32;
            let b = if rng.below(3) == 0 {
                next_up_f32(a)
            } else {
                ((rng.next_f64() - 0.5) * scale) as f32
            };
            if a < b {
                check(a, b);
            } else if b < a {
                check(b, a);
            }
        }
    }

    #[test]
    fn midpoint_is_sklearns() {
        assert_eq!(midpoint(1.0, 2.0), 1.5);
        // 0.1f32 and 0.3f32 averaged in float64.
        assert_eq!(midpoint(0.1, 0.3), (0.1f32 as f64 + 0.3f32 as f64) / 2.0);
        // Adjacent float32 values: the midpoint lies strictly between.
        let a = 1.0f32;
        let b = next_up_f32(a);
        let t = midpoint(a, b);
        assert!(t > a as f64 && t < b as f64);
    }
}
