//! The report of a run: a Markdown table per learner with its growth
//! exponents, a summary table, and an SVG of the curves (log–log). Beside
//! the times, each finished tabular point shows its model's rules and its
//! accuracy on the point's held-out rows ([`super::grid::Generator::heldout`]), so
//! quality is tracked with time; relational points have no held-out split
//! (`n/a`, see [`super::child`]).

use std::fmt::Write as _;
use std::path::Path;

use plotters::prelude::*;

use super::grid::{Axis, Generator, Point, N_P_GRID, RELATIONAL};
use super::growth::{exponent, limit_size};
use super::record::{Record, Status};
use crate::error::{Error, Result};

/// The memory budget the report extrapolates to, MiB (24 GiB).
pub const MEMORY_BUDGET_MIB: f64 = 24.0 * 1024.0;

/// The growth of one learner's series.
#[derive(Debug, Clone, PartialEq)]
pub struct Growth {
    /// The method id.
    pub learner: String,
    /// The exponent of fit seconds in rows (facts) at the base width.
    pub time_n: Option<f64>,
    /// The exponent of peak MiB in rows (facts).
    pub mem_n: Option<f64>,
    /// The exponent of fit seconds in features at the p-grid's rows.
    pub time_p: Option<f64>,
    /// The exponent of the fit's CPU seconds in rows (facts) at the base
    /// width (points without CPU seconds left out): on a loaded machine
    /// wall seconds include waiting for a core, CPU seconds much less so.
    pub cpu_n: Option<f64>,
    /// The exponent of the fit's CPU seconds in features at the p-grid's
    /// rows.
    pub cpu_p: Option<f64>,
    /// The largest row (fact) count that finished.
    pub largest_n: Option<usize>,
    /// The held-out accuracy of the point of [`Growth::largest_n`] (`None`
    /// for a relational learner or a record without one).
    pub largest_heldout: Option<f64>,
    /// The rows (facts) extrapolated to reach the cap or the memory budget
    /// first, and which: from the largest finished point's wall seconds,
    /// growing with the CPU-time exponent where there is one (the wall
    /// exponent otherwise).
    pub limit: Option<(f64, &'static str)>,
    /// The smallest row (fact) count that ran past the cap, and the
    /// exponent it implies at least: from the largest finished point to
    /// the cap at that size.
    pub timeout: Option<(usize, Option<f64>)>,
}

/// Whether a record belongs to `learner`'s n-series.
fn in_n_series(r: &Record, learner: &str) -> bool {
    r.point.learner == learner && r.point.axis() == Axis::N
}

/// The growth of `learner` over `records` (only finished points count).
pub fn growth(learner: &str, records: &[Record], cap_s: f64) -> Growth {
    let ok = |r: &&Record| r.status == Status::Ok;
    let n_series: Vec<&Record> = records
        .iter()
        .filter(|r| in_n_series(r, learner))
        .filter(ok)
        .collect();
    let pairs =
        |f: &dyn Fn(&Record) -> Option<f64>, size: &dyn Fn(&Point) -> usize, rs: &[&Record]| {
            rs.iter()
                .filter_map(|r| f(r).map(|v| (size(&r.point) as f64, v)))
                .collect::<Vec<_>>()
        };
    let time_n = exponent(&pairs(&|r| r.fit_s, &|p| p.n, &n_series));
    let mem_n = exponent(&pairs(&|r| r.peak_mib, &|p| p.n, &n_series));
    let p_series: Vec<&Record> = records
        .iter()
        .filter(|r| r.point.learner == learner && r.point.generator == Generator::Twonorm)
        .filter(|r| r.point.n == N_P_GRID)
        .filter(ok)
        .collect();
    let time_p = exponent(&pairs(&|r| r.fit_s, &|p| p.p, &p_series));
    let cpu_n = exponent(&pairs(&|r| r.cpu_s, &|p| p.n, &n_series));
    let cpu_p = exponent(&pairs(&|r| r.cpu_s, &|p| p.p, &p_series));
    let last = n_series.iter().max_by_key(|r| r.point.n);
    let largest_n = last.map(|r| r.point.n);
    let largest_heldout = last.and_then(|r| r.heldout_accuracy);
    let limit = last.and_then(|r| {
        let (t, m) = (r.fit_s?, r.peak_mib?);
        limit_size(
            (r.point.n as f64, t, m),
            cpu_n.or(time_n),
            mem_n,
            cap_s,
            MEMORY_BUDGET_MIB,
        )
    });
    let timeout = records
        .iter()
        .filter(|r| in_n_series(r, learner) && r.status == Status::Timeout)
        .map(|r| r.point.n)
        .min()
        .map(|n| {
            let bound = last.and_then(|r| {
                let t = r.fit_s?;
                exponent(&[(r.point.n as f64, t), (n as f64, cap_s)])
            });
            (n, bound)
        });
    Growth {
        timeout,
        learner: learner.to_string(),
        time_n,
        mem_n,
        time_p,
        cpu_n,
        cpu_p,
        largest_n,
        largest_heldout,
        limit,
    }
}

/// A held-out accuracy cell: the accuracy, `n/a` for a relational point
/// (no held-out split), `–` when there is none (a point that did not
/// finish, or a record written before held-out scores existed).
fn heldout_cell(r: &Record) -> String {
    match (r.heldout_accuracy, r.point.generator) {
        (Some(a), _) => format!("{a:.4}"),
        (None, Generator::UwcseLike) if r.status == Status::Ok => "n/a".into(),
        (None, _) => "–".into(),
    }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map(|x| format!("{x:.digits$}"))
        .unwrap_or_else(|| "–".into())
}

/// A count in the tables' style: `10^4`, `3·10^5`, or the plain number.
pub fn size_label(n: f64) -> String {
    let e = n.log10().floor();
    let m = n / 10f64.powf(e);
    if (m - 1.0).abs() < 1e-9 {
        format!("10^{e}")
    } else if (m - m.round()).abs() < 1e-9 && e >= 3.0 {
        format!("{}·10^{e}", m.round())
    } else if n >= 1e4 {
        format!("{:.1}·10^{e}", m)
    } else {
        format!("{n:.0}")
    }
}

/// The Markdown report: a summary table (exponents, largest size, limit)
/// and a table per learner with every point in the order of the grid.
pub fn markdown(learners: &[String], records: &[Record], cap_s: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| learner | time exponent in n | CPU-time exponent in n | memory exponent in n | time exponent in p | CPU-time exponent in p | largest n finished | held-out accuracy there | n reaching {cap_s:.0} s or 24 GiB (extrapolated) |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for l in learners {
        let g = growth(l, records, cap_s);
        let _ = writeln!(
            s,
            "| {l} | {} | {} | {} | {} | {} | {} | {} | {} |",
            match (g.time_n, g.timeout) {
                (None, Some((_, Some(b)))) => format!("≥ {b:.2} (from the timeout)"),
                (b, _) => opt(b, 2),
            },
            opt(g.cpu_n, 2),
            opt(g.mem_n, 2),
            opt(g.time_p, 2),
            opt(g.cpu_p, 2),
            g.largest_n
                .map(|n| size_label(n as f64))
                .unwrap_or_else(|| "–".into()),
            match (g.largest_heldout, g.largest_n) {
                (None, Some(_)) if l == RELATIONAL => "n/a".into(),
                (a, _) => opt(a, 4),
            },
            match (g.timeout, g.limit) {
                (Some((n, _)), _) => format!("< {} (timed out there)", size_label(n as f64)),
                (None, Some((n, which))) => format!("{} ({which})", size_label(n)),
                (None, None) => "–".into(),
            },
        );
    }
    let _ = writeln!(
        s,
        "\nHeld-out accuracy: the fitted model scored, outside the timed fit, on n/4 further rows of the \
         point's generated stream (20 % of the rows generated; the n training rows are unchanged). \
         Relational points have no held-out split (n/a). A `solver-failed` point stopped because its \
         LP/MIP solver found no answer by any algorithm it tried; its note names the LP's size, the \
         algorithms and their statuses."
    );
    for l in learners {
        let mut rows: Vec<&Record> = records.iter().filter(|r| &r.point.learner == l).collect();
        if rows.is_empty() {
            continue;
        }
        rows.sort_by_key(|r| {
            (
                r.point.axis() != Axis::N,
                r.point.generator,
                r.point.n,
                r.point.p,
            )
        });
        let _ = writeln!(s, "\n#### {l}\n");
        let _ = writeln!(
            s,
            "| data | n | p | fit s | CPU s | peak MiB | data MiB | rules | held-out accuracy | status | load (start–end) |"
        );
        let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
        for r in rows {
            let status = match &r.note {
                Some(note) if r.status != Status::Ok => format!("{}: {note}", r.status.name()),
                _ => r.status.name().to_string(),
            };
            let load = match (r.load_start, r.load_end) {
                (None, None) => "–".to_string(),
                (a, b) => format!("{}–{}", opt(a, 1), opt(b, 1)),
            };
            let fit = match r.status {
                Status::Timeout => format!("> {:.0}", r.cap_s),
                _ => opt(r.fit_s, 2),
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {fit} | {} | {} | {} | {} | {} | {} | {load} |",
                r.point.generator,
                size_label(r.point.n as f64),
                r.point.p,
                opt(r.cpu_s, 2),
                opt(r.peak_mib, 0),
                opt(r.data_mib, 0),
                r.rules.map_or_else(|| "–".into(), |k| k.to_string()),
                heldout_cell(r),
                status.replace('|', "/"),
            );
        }
    }
    s
}

/// `(log₁₀ n, log₁₀ fit s, log₁₀ peak MiB)` of a finished point.
type LogPoint = (f64, f64, f64);

/// Draws fit seconds (left) and peak MiB (right) against rows (facts for
/// RFGB) on log–log axes, one curve per learner's finished n-series
/// points, to an SVG at `path`.
///
/// # Errors
/// [`Error::Failed`] ("drawing" the file).
pub fn svg(path: &Path, learners: &[String], records: &[Record]) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| Error::Failed {
        what: format!("drawing {}", path.display()),
        message: e.to_string(),
    };
    let curves: Vec<(&String, Vec<LogPoint>)> = learners
        .iter()
        .map(|l| {
            let mut pts: Vec<LogPoint> = records
                .iter()
                .filter(|r| in_n_series(r, l) && r.status == Status::Ok)
                .filter_map(|r| {
                    Some((
                        (r.point.n as f64).log10(),
                        r.fit_s?.max(1e-3).log10(),
                        r.peak_mib?.log10(),
                    ))
                })
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            (l, pts)
        })
        .collect();
    let all: Vec<&LogPoint> = curves.iter().flat_map(|(_, p)| p).collect();
    if all.is_empty() {
        return Err(err(&"no finished point to plot"));
    }
    let range = |f: &dyn Fn(&LogPoint) -> f64| {
        let lo = all
            .iter()
            .map(|p| f(p))
            .fold(f64::INFINITY, f64::min)
            .floor();
        let hi = all
            .iter()
            .map(|p| f(p))
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil();
        lo..hi.max(lo + 1.0)
    };
    let (xr, tr, mr) = (range(&|p| p.0), range(&|p| p.1), range(&|p| p.2));
    let root = SVGBackend::new(path, (1200, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let panels = root.split_evenly((1, 2));
    let colors = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
        RGBColor(0, 0, 0),
        RGBColor(120, 60, 200),
    ];
    // Labels at whole powers of ten only.
    let pow10 = |v: &f64| {
        if (v - v.round()).abs() > 1e-6 {
            return String::new();
        }
        let x = 10f64.powf(v.round());
        if !(1e-2..1e3).contains(&x) {
            format!("1e{v:.0}")
        } else {
            format!("{x}")
        }
    };
    for (panel, (title, yr, pick)) in panels.iter().zip([
        ("fit seconds", tr, 1usize),
        ("peak resident MiB", mr, 2usize),
    ]) {
        let (yr_start, yr_end) = (yr.start, yr.end);
        let mut chart = ChartBuilder::on(panel)
            .caption(
                format!("{title} vs rows (facts for rfgb), log–log"),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(xr.clone(), yr.clone())
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("n")
            .y_desc(title)
            .x_labels((xr.end - xr.start) as usize + 1)
            .y_labels((yr_end - yr_start) as usize + 1)
            .x_label_formatter(&pow10)
            .y_label_formatter(&pow10)
            .draw()
            .map_err(|e| err(&e))?;
        for (c, (learner, pts)) in curves.iter().enumerate() {
            if pts.is_empty() {
                continue;
            }
            let color = colors[c % colors.len()];
            let xy: Vec<(f64, f64)> = pts
                .iter()
                .map(|p| (p.0, if pick == 1 { p.1 } else { p.2 }))
                .collect();
            chart
                .draw_series(LineSeries::new(xy.clone(), color.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(learner.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
                });
            chart
                .draw_series(xy.into_iter().map(|p| Circle::new(p, 3, color.filled())))
                .map_err(|e| err(&e))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(learner: &str, n: usize, p: usize, fit_s: f64, mib: f64) -> Record {
        let mut r = Record::skipped(
            Point {
                learner: learner.into(),
                generator: Generator::Twonorm,
                n,
                p,
            },
            600.0,
            String::new(),
        );
        r.status = Status::Ok;
        r.fit_s = Some(fit_s);
        r.cpu_s = Some(1.5 * fit_s);
        r.peak_mib = Some(mib);
        r.note = None;
        r.rules = Some(40);
        r.heldout_accuracy = Some(0.97);
        r.heldout_rows = Some(n / 4);
        r
    }

    fn sample() -> Vec<Record> {
        let mut rs: Vec<Record> = [10_000usize, 30_000, 100_000]
            .iter()
            .map(|&n| rec("rug", n, 20, 1e-8 * (n as f64).powi(2), n as f64 / 100.0))
            .collect();
        rs.push(rec("rug", N_P_GRID, 100, 500.0, 1500.0));
        let mut t = Record::skipped(rs[0].point.clone(), 600.0, "predicted 900 s".into());
        t.point.n = 300_000;
        rs.push(t);
        rs
    }

    #[test]
    fn growth_reads_the_exponents_of_the_series() {
        let g = growth("rug", &sample(), 600.0);
        assert!((g.time_n.unwrap() - 2.0).abs() < 1e-9);
        assert!((g.mem_n.unwrap() - 1.0).abs() < 1e-9);
        // p: 100 s at p = 20, 500 s at p = 100.
        assert!((g.time_p.unwrap() - 1.0).abs() < 1e-9);
        // CPU seconds are 1.5 × wall: the same exponents.
        assert!((g.cpu_n.unwrap() - 2.0).abs() < 1e-9);
        assert!((g.cpu_p.unwrap() - 1.0).abs() < 1e-9);
        assert_eq!(g.largest_n, Some(100_000));
        let (n, which) = g.limit.unwrap();
        assert_eq!(which, "time");
        assert!((n - 1e5 * 6f64.sqrt()).abs() < 1.0);
    }

    #[test]
    fn the_markdown_has_a_summary_and_a_table_per_learner() {
        let md = markdown(&["rug".into(), "dt".into()], &sample(), 600.0);
        assert!(
            md.contains(
                "| rug | 2.00 | 2.00 | 1.00 | 1.00 | 1.00 | 10^5 | 0.9700 | 2.4·10^5 (time) |"
            ),
            "{md}"
        );
        assert!(md.contains("| dt | – | – | – | – | – | – | – | – |"));
        assert!(md.contains("#### rug") && !md.contains("#### dt"));
        assert!(
            md.contains(
                "| twonorm | 3·10^5 | 20 | – | – | – | – | – | – | skipped: predicted 900 s | – |"
            ),
            "{md}"
        );
        assert!(
            md.contains("| twonorm | 10^4 | 20 | 1.00 | 1.50 | 100 | – | 40 | 0.9700 | ok | – |"),
            "{md}"
        );
    }

    #[test]
    fn solver_failures_and_relational_points_have_their_own_cells() {
        let mut failed = rec("rux-rf", 100_000, 20, 0.0, 0.0);
        failed.status = Status::SolverFailed;
        failed.fit_s = None;
        failed.cpu_s = None;
        failed.peak_mib = None;
        (failed.rules, failed.heldout_accuracy, failed.heldout_rows) = (None, None, None);
        failed.note = Some("exit status: 1: the highs backend found no answer".into());
        let mut relational = rec("rfgb", 10_000, 5, 2.0, 50.0);
        relational.point.generator = Generator::UwcseLike;
        (relational.heldout_accuracy, relational.heldout_rows) = (None, None);
        relational.rules = Some(30);
        let rs = vec![rec("rux-rf", 10_000, 20, 3.0, 80.0), failed, relational];
        let md = markdown(&["rux-rf".into(), "rfgb".into()], &rs, 600.0);
        assert!(
            md.contains(
                "| twonorm | 10^5 | 20 | – | – | – | – | – | – | solver-failed: exit status: 1: the highs backend found no answer | – |"
            ),
            "{md}"
        );
        assert!(
            md.contains("| uwcse-like | 10^4 | 5 | 2.00 | 3.00 | 50 | – | 30 | n/a | ok | – |"),
            "{md}"
        );
        // The failed point is not the largest finished; the summary keeps
        // the 10^4 point's held-out accuracy.
        assert!(
            md.contains("| rux-rf |") && md.contains("| 10^4 | 0.9700 |"),
            "{md}"
        );
        assert!(
            md.contains("| rfgb | – | – | – | – | – | 10^4 | n/a | – |"),
            "{md}"
        );
    }

    #[test]
    fn a_timeout_bounds_the_exponent_and_the_size() {
        let mut rs = vec![rec("rcboost", 10_000, 20, 60.0, 90.0)];
        let mut t = rec("rcboost", 100_000, 20, 600.0, 200.0);
        t.status = Status::Timeout;
        rs.push(t);
        let g = growth("rcboost", &rs, 600.0);
        assert_eq!(g.time_n, None);
        let (n, bound) = g.timeout.unwrap();
        assert_eq!(n, 100_000);
        assert!((bound.unwrap() - 1.0).abs() < 1e-9);
        let md = markdown(&["rcboost".into()], &rs, 600.0);
        assert!(
            md.contains(
                "| rcboost | ≥ 1.00 (from the timeout) | – | – | – | – | 10^4 | 0.9700 | < 10^5 (timed out there) |"
            ),
            "{md}"
        );
    }

    #[test]
    fn sizes_are_labelled_as_in_the_grid() {
        assert_eq!(size_label(1e4), "10^4");
        assert_eq!(size_label(3e5), "3·10^5");
        assert_eq!(size_label(2.449e5), "2.4·10^5");
        assert_eq!(size_label(500.0), "500");
    }

    #[test]
    fn the_svg_is_drawn() {
        let path = std::env::temp_dir().join(format!("xtask-scaling-{}.svg", std::process::id()));
        svg(&path, &["rug".into()], &sample()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(text.starts_with("<svg") && text.contains("rug"));
        assert!(svg(&path, &["dt".into()], &sample()).is_err());
    }
}
