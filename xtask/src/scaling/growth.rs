//! Growth of fit time with size: the least-squares exponent of a series,
//! the prediction that decides whether the next size is worth running
//! (the skip rule), and the largest size a budget allows.

use super::grid::{Axis, Point};
use super::record::{Record, Status};

/// The least-squares slope of `ln y` on `ln x` over `(x, y)` points with
/// both positive: `y ∝ x^slope`. `None` with fewer than two usable points
/// or a single distinct `x`.
pub fn exponent(points: &[(f64, f64)]) -> Option<f64> {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0 && x.is_finite() && y.is_finite())
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    if logs.len() < 2 {
        return None;
    }
    let k = logs.len() as f64;
    let mx = logs.iter().map(|p| p.0).sum::<f64>() / k;
    let my = logs.iter().map(|p| p.1).sum::<f64>() / k;
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 0.0).then(|| sxy / sxx)
}

/// The smallest exponent a prediction assumes along a series: fit time
/// grows at least linearly in the rows (every row is read), and does not
/// fall with the width.
pub fn floor_exponent(axis: Axis) -> f64 {
    match axis {
        Axis::N => 1.0,
        Axis::P | Axis::Single => 0.0,
    }
}

/// What the run does with a point, given the records so far.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Fit it.
    Run,
    /// Record it as skipped with this note.
    Skip(String),
}

/// The skip rule. A learner stops growing at its first overrun: a point
/// is skipped when a smaller point of its series timed out, failed or was
/// skipped. Otherwise its fit time is predicted from the two largest
/// finished smaller points of its series, `t₂ · (s / s₂)^b` with `t₂` the
/// larger one's wall seconds and `b` the exponent between them (of CPU
/// seconds when both have them, else of wall seconds; at least
/// [`floor_exponent`]), or from one point
/// with `b` = the floor; a point predicted past `cap_s` is skipped
/// ("predicted N s"). The widths (p-series) and the mixed table run only
/// when the learner did not overrun twonorm at the same row count in the
/// n-grid (the mixed table: only when it finished it).
pub fn decide(point: &Point, done: &[Record], cap_s: f64) -> Decision {
    if point.axis() == Axis::Single {
        let finished = done.iter().any(|r| {
            r.status == Status::Ok
                && r.point.learner == point.learner
                && r.point.axis() == Axis::N
                && r.point.n == point.n
        });
        return if finished {
            Decision::Run
        } else {
            Decision::Skip(format!("the {} rows of the n-grid did not finish", point.n))
        };
    }
    let axis = point.axis();
    if axis == Axis::P {
        let base = done.iter().find(|r| {
            r.point.learner == point.learner
                && r.point.generator == point.generator
                && r.point.axis() == Axis::N
                && r.point.n == point.n
        });
        if let Some(r) = base.filter(|r| r.status != Status::Ok) {
            return Decision::Skip(format!(
                "the {} rows of the n-grid were {}",
                point.n,
                r.status.name()
            ));
        }
    }
    let size = point.size();
    let mut series: Vec<&Record> = done
        .iter()
        .filter(|r| point.same_series(&r.point) && r.point.size_along(axis) < size)
        .collect();
    series.sort_by_key(|r| r.point.size_along(axis));
    if let Some(r) = series.iter().find(|r| r.status != Status::Ok) {
        return Decision::Skip(format!(
            "stopped growing: size {} was {}",
            r.point.size_along(axis),
            r.status.name()
        ));
    }
    // (size, wall seconds, CPU seconds) of the finished smaller points.
    let finished: Vec<(f64, f64, Option<f64>)> = series
        .iter()
        .filter_map(|r| {
            r.fit_s
                .map(|t| (r.point.size_along(axis) as f64, t, r.cpu_s))
        })
        .collect();
    let floor = floor_exponent(axis);
    let predicted = match finished.as_slice() {
        [] => return Decision::Run,
        [(s, t, _)] => t * (size as f64 / s).powf(floor),
        [.., a, b] => {
            // The exponent from CPU seconds when both points have them (the
            // machine's load barely moves them), else from wall seconds.
            let slope = match (a.2, b.2) {
                (Some(ca), Some(cb)) => exponent(&[(a.0, ca), (b.0, cb)]),
                _ => exponent(&[(a.0, a.1), (b.0, b.1)]),
            };
            b.1 * (size as f64 / b.0).powf(slope.unwrap_or(floor).max(floor))
        }
    };
    if predicted > cap_s {
        Decision::Skip(format!("predicted {predicted:.0} s"))
    } else {
        Decision::Run
    }
}

/// The largest size within `cap_s` seconds and `mem_mib` MiB, extrapolated
/// from the largest finished point `(size, fit_s, peak_mib)` with the time
/// and memory exponents of its series (`None`: that limit is not
/// extrapolated). Returns the size and which limit binds first.
pub fn limit_size(
    last: (f64, f64, f64),
    time_exponent: Option<f64>,
    mem_exponent: Option<f64>,
    cap_s: f64,
    mem_mib: f64,
) -> Option<(f64, &'static str)> {
    let (s, t, m) = last;
    let reach = |have: f64, limit: f64, b: Option<f64>| match b {
        Some(b) if b > 0.05 && have > 0.0 => Some(s * (limit / have).powf(1.0 / b)),
        _ => None,
    };
    match (
        reach(t, cap_s, time_exponent),
        reach(m, mem_mib, mem_exponent),
    ) {
        (Some(a), Some(b)) if b < a => Some((b, "memory")),
        (Some(a), _) => Some((a, "time")),
        (None, Some(b)) => Some((b, "memory")),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::grid::{Generator, N_P_GRID};
    use super::*;

    fn pt(n: usize, p: usize) -> Point {
        Point {
            learner: "rux-rf".into(),
            generator: Generator::Twonorm,
            n,
            p,
        }
    }

    fn rec(n: usize, p: usize, status: Status, fit_s: Option<f64>) -> Record {
        let mut r = Record::skipped(pt(n, p), 600.0, String::new());
        r.status = status;
        r.fit_s = fit_s;
        r.note = None;
        r
    }

    #[test]
    fn exponent_recovers_a_power_law() {
        let pts: Vec<(f64, f64)> = [1e4, 3e4, 1e5, 3e5]
            .iter()
            .map(|&n: &f64| (n, 3e-6 * n.powf(1.7)))
            .collect();
        assert!((exponent(&pts).unwrap() - 1.7).abs() < 1e-9);
        // Noise about the line: the least-squares slope, not the end points'.
        let noisy = [(1.0, 1.0), (10.0, 20.0), (100.0, 100.0)];
        let b = exponent(&noisy).unwrap();
        assert!((b - 1.0).abs() < 1e-9, "{b}");
        assert_eq!(exponent(&[(1.0, 1.0)]), None);
        assert_eq!(exponent(&[(5.0, 1.0), (5.0, 2.0)]), None);
        assert_eq!(exponent(&[(1.0, 0.0), (2.0, 1.0)]), None);
    }

    #[test]
    fn a_point_predicted_past_the_cap_is_skipped() {
        // 10 s at 10⁴, 40 s at 3·10⁴: exponent ln 4 / ln 3 ≈ 1.26, so
        // 10⁵ predicts ≈ 184 s (run) and 3·10⁵ ≈ 735 s (skip).
        let done = vec![
            rec(10_000, 20, Status::Ok, Some(10.0)),
            rec(30_000, 20, Status::Ok, Some(40.0)),
        ];
        assert_eq!(decide(&pt(100_000, 20), &done, 600.0), Decision::Run);
        let mut more = done.clone();
        more.push(rec(100_000, 20, Status::Ok, Some(184.0)));
        match decide(&pt(300_000, 20), &more, 600.0) {
            Decision::Skip(note) => assert!(note.starts_with("predicted 7"), "{note}"),
            d => panic!("{d:?}"),
        }
    }

    #[test]
    fn cpu_seconds_set_the_exponent_when_both_points_have_them() {
        // Wall seconds inflated 10× by a loaded machine at 3·10⁴; CPU
        // seconds say linear, so 10⁵ predicts 100 · 10/3 ≈ 333 s.
        let mut done = vec![
            rec(10_000, 20, Status::Ok, Some(10.0)),
            rec(30_000, 20, Status::Ok, Some(100.0)),
        ];
        assert!(matches!(
            decide(&pt(100_000, 20), &done, 600.0),
            Decision::Skip(_)
        ));
        done[0].cpu_s = Some(20.0);
        done[1].cpu_s = Some(60.0);
        assert_eq!(decide(&pt(100_000, 20), &done, 600.0), Decision::Run);
        assert!(matches!(
            decide(&pt(100_000, 20), &done, 300.0),
            Decision::Skip(_)
        ));
    }

    #[test]
    fn growth_is_at_least_linear_in_rows() {
        // Faster at the larger size (noise): still predicted linearly.
        let done = vec![
            rec(10_000, 20, Status::Ok, Some(100.0)),
            rec(30_000, 20, Status::Ok, Some(90.0)),
        ];
        match decide(&pt(100_000, 20), &done, 250.0) {
            Decision::Skip(note) => assert_eq!(note, "predicted 300 s"),
            d => panic!("{d:?}"),
        }
        // One point: linear.
        let one = vec![rec(10_000, 20, Status::Ok, Some(100.0))];
        assert_eq!(decide(&pt(30_000, 20), &one, 301.0), Decision::Run);
        assert!(matches!(
            decide(&pt(30_000, 20), &one, 299.0),
            Decision::Skip(_)
        ));
        // Nothing smaller: run.
        assert_eq!(decide(&pt(10_000, 20), &[], 1.0), Decision::Run);
    }

    #[test]
    fn a_learner_stops_growing_at_its_first_overrun() {
        let done = vec![
            rec(10_000, 20, Status::Ok, Some(1.0)),
            rec(30_000, 20, Status::Timeout, Some(600.0)),
        ];
        for n in [100_000, 1_000_000] {
            match decide(&pt(n, 20), &done, 600.0) {
                Decision::Skip(note) => assert_eq!(note, "stopped growing: size 30000 was timeout"),
                d => panic!("{d:?}"),
            }
        }
        // Another learner is not affected.
        let mut other = pt(100_000, 20);
        other.learner = "dt".into();
        assert_eq!(decide(&other, &done, 600.0), Decision::Run);
    }

    #[test]
    fn the_p_series_starts_from_the_n_grids_point() {
        let done = vec![
            rec(N_P_GRID, 10, Status::Ok, Some(10.0)),
            rec(N_P_GRID, 20, Status::Ok, Some(20.0)),
            // Not in the p-series: another row count.
            rec(10_000, 20, Status::Timeout, Some(600.0)),
        ];
        // Linear in p: 100 features predict 100 s.
        assert_eq!(decide(&pt(N_P_GRID, 100), &done, 150.0), Decision::Run);
        assert!(matches!(
            decide(&pt(N_P_GRID, 100), &done, 90.0),
            Decision::Skip(_)
        ));
        let mixed = Point {
            generator: Generator::Mixed,
            ..pt(N_P_GRID, 20)
        };
        assert_eq!(decide(&mixed, &done, 600.0), Decision::Run);
        assert!(matches!(
            decide(&mixed, &done[..1], 600.0),
            Decision::Skip(_)
        ));
        // A learner that overran the n-grid at these rows skips every width,
        // the narrower one too.
        let over = vec![rec(N_P_GRID, 20, Status::Skipped, None)];
        match decide(&pt(N_P_GRID, 10), &over, 600.0) {
            Decision::Skip(note) => assert_eq!(note, "the 100000 rows of the n-grid were skipped"),
            d => panic!("{d:?}"),
        }
    }

    #[test]
    fn the_limit_is_the_first_budget_reached() {
        // Time ∝ n², memory ∝ n: 10 s at 10⁵ reaches 600 s at ≈ 7.7·10⁵;
        // 1 GiB reaches 24 GiB at 2.4·10⁶.
        let (n, which) =
            limit_size((1e5, 10.0, 1024.0), Some(2.0), Some(1.0), 600.0, 24576.0).unwrap();
        assert_eq!(which, "time");
        assert!((n - 1e5 * 60f64.sqrt()).abs() < 1.0);
        let (n, which) =
            limit_size((1e5, 10.0, 1024.0), Some(1.0), Some(1.0), 600.0, 24576.0).unwrap();
        assert_eq!(which, "memory");
        assert!((n - 2.4e6).abs() < 1.0);
        assert_eq!(
            limit_size((1e5, 1.0, 1.0), None, Some(0.0), 600.0, 1.0),
            None
        );
    }
}
