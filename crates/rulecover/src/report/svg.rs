//! Inline SVG charts written as text: the rules' contribution (one bar
//! per rule) and, for `rulecover evaluate --plot`, a score against the
//! number of rules per method. Every label is escaped; the SVG is
//! well-formed XML with `<text>` elements for its titles and legend.

use std::fmt::Write as _;

use rulecover_core::ruleset::RuleSet;

use super::html::escape;
use crate::evaluate::EvalReport;

/// Colours of the series (Tableau 10).
const COLORS: [&str; 10] = [
    "#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6",
    "#9d755d", "#bab0ac",
];

fn color(i: usize) -> &'static str {
    COLORS[i % COLORS.len()]
}

/// A number for a label: at most 3 significant digits.
fn label(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let digits = (2 - v.abs().log10().floor() as i32).clamp(0, 6) as usize;
    let text = format!("{v:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// About five round ticks covering `[lo, hi]`.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(1e-12);
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| span / s <= 6.0)
        .unwrap_or(10.0 * mag);
    let start = (lo / step).ceil() * step;
    (0..)
        .map(|k| start + k as f64 * step)
        .take_while(|t| *t <= hi + step * 1e-9)
        .collect()
}

/// How a rule's contribution is measured.
pub(crate) struct Contributions {
    /// What the shares are (the chart's axis title).
    pub what: &'static str,
    /// Each rule's share of the whole, in rule order.
    pub shares: Vec<f64>,
}

/// The rules' contributions: the share of the total absolute weight when
/// the weights differ, else (rules that vote with weight 1) the share of
/// the training coverage summed over the rules.
pub(crate) fn contributions(set: &RuleSet) -> Contributions {
    let first = set.rules.first().map_or(0.0, |r| r.weight);
    let weighted = set.rules.iter().any(|r| r.weight != first);
    let (what, raw): (&'static str, Vec<f64>) = if weighted {
        (
            "share of the total |weight|",
            set.rules.iter().map(|r| r.weight.abs()).collect(),
        )
    } else {
        (
            "vote share: share of the rules' training coverage",
            set.rules.iter().map(|r| r.coverage as f64).collect(),
        )
    };
    let total: f64 = raw.iter().filter(|v| v.is_finite()).sum();
    let shares = raw
        .iter()
        .map(|v| {
            if total > 0.0 && v.is_finite() {
                v / total
            } else {
                0.0
            }
        })
        .collect();
    Contributions { what, shares }
}

/// A horizontal bar chart of the `top` largest contributions, one bar per
/// rule labelled by its number, and one bar for the rest.
pub(crate) fn contribution_chart(set: &RuleSet, top: usize) -> String {
    let c = contributions(set);
    let mut order: Vec<usize> = (0..set.len()).collect();
    order.sort_by(|&a, &b| c.shares[b].total_cmp(&c.shares[a]).then(a.cmp(&b)));
    let shown = &order[..top.max(1).min(order.len())];
    let rest: Vec<usize> = order[shown.len()..].to_vec();
    let mut bars: Vec<(String, f64, String)> = shown
        .iter()
        .map(|&k| {
            let rule = set.rules[k].clone();
            let one = RuleSet {
                features: set.features.clone(),
                class_names: set.class_names.clone(),
                rules: vec![rule],
            };
            (
                format!("rule {}", k + 1),
                c.shares[k],
                one.to_string().trim().to_string(),
            )
        })
        .collect();
    if !rest.is_empty() {
        let sum: f64 = rest.iter().map(|&k| c.shares[k]).sum();
        bars.push((
            match rest.len() {
                1 => "1 other rule".to_string(),
                n => format!("{n} other rules"),
            },
            sum,
            format!("the {} rules not shown, together", rest.len()),
        ));
    }
    let max = bars.iter().map(|b| b.1).fold(0.0f64, f64::max).max(1e-12);
    let (left, right, top_pad, row) = (120.0, 70.0, 34.0, 20.0);
    let width = 720.0;
    let plot_w = width - left - right;
    let height = top_pad + row * bars.len() as f64 + 40.0;
    let mut out = format!(
        "<svg class=\"contrib\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"rule contributions\">"
    );
    let _ = write!(
        out,
        "<text x=\"{left}\" y=\"18\" font-size=\"14\" font-weight=\"600\">Contribution per rule (top {} of {})</text>",
        shown.len(),
        set.len()
    );
    for (i, (name, share, tip)) in bars.iter().enumerate() {
        let y = top_pad + row * i as f64;
        let w = (share / max * plot_w).max(0.5);
        let fill = if i == shown.len() {
            "#bab0ac"
        } else {
            "#4c78a8"
        };
        let _ = write!(
            out,
            "<g class=\"contrib-bar\"><title>{}</title><text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{}</text><rect x=\"{left}\" y=\"{}\" width=\"{w:.1}\" height=\"{}\" fill=\"{fill}\"/><text x=\"{:.1}\" y=\"{}\" font-size=\"11\">{:.1}%</text></g>",
            escape(tip),
            left - 6.0,
            y + 13.0,
            escape(name),
            y + 3.0,
            row - 6.0,
            left + w + 4.0,
            y + 13.0,
            share * 100.0
        );
    }
    let axis_y = top_pad + row * bars.len() as f64 + 22.0;
    let _ = write!(
        out,
        "<text class=\"axis-title\" x=\"{}\" y=\"{axis_y}\" font-size=\"12\" text-anchor=\"middle\">{}</text></svg>",
        left + plot_w / 2.0,
        escape(c.what)
    );
    out
}

/// The score plotted for a report: accuracy for classes, R² for a real
/// target, and its column in [`EvalReport::columns`].
fn score_of(report: &EvalReport) -> (&'static str, &'static str) {
    if report.classification {
        ("accuracy", "accuracy")
    } else {
        ("r2", "R²")
    }
}

/// An SVG of each method's score (accuracy for classes, R² for a real
/// target) against its number of rules: a faint point per fold and the
/// mean over the folds with error bars of one standard deviation in both
/// directions; one colour and one legend entry per method. A method
/// without rules is a dashed line at its mean score, a failed method a
/// legend entry only. The rules axis is logarithmic when the counts span
/// more than a factor of 10.
pub fn evaluate_plot(report: &EvalReport) -> String {
    let (column, name) = score_of(report);
    let score = |m: &rulecover_core::metrics::Metrics| {
        if column == "accuracy" {
            m.accuracy
        } else {
            m.r2
        }
    };
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for m in &report.methods {
        for f in &m.folds {
            if let Some(y) = score(&f.metrics).filter(|y| y.is_finite()) {
                ys.push(y);
                if let Some(n) = f.n_rules {
                    xs.push(n as f64);
                }
            }
        }
    }
    let x_max = xs.iter().copied().fold(1.0f64, f64::max);
    let x_min = xs.iter().copied().fold(f64::INFINITY, f64::min).max(1.0);
    let log = x_max / x_min > 10.0;
    let (x_lo, x_hi) = if log {
        (
            10f64.powf(x_min.log10().floor()),
            10f64.powf(x_max.log10().ceil()),
        )
    } else {
        (0.0, (x_max * 1.08).max(1.0))
    };
    let y_lo0 = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let y_hi0 = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (y_lo, y_hi) = if y_lo0.is_finite() {
        let pad = ((y_hi0 - y_lo0) * 0.1).max(0.01);
        (y_lo0 - pad, y_hi0 + pad)
    } else {
        (0.0, 1.0)
    };
    let (width, height) = (760.0, 460.0);
    let (left, right, top, bottom) = (70.0, 220.0, 40.0, 60.0);
    let (pw, ph) = (width - left - right, height - top - bottom);
    let sx = |x: f64| {
        let t = if log {
            (x.max(x_lo).log10() - x_lo.log10()) / (x_hi.log10() - x_lo.log10())
        } else {
            (x - x_lo) / (x_hi - x_lo)
        };
        left + t * pw
    };
    let sy = |y: f64| top + ph - (y - y_lo) / (y_hi - y_lo) * ph;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">\n<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n"
    );
    let _ = writeln!(
        out,
        "<text class=\"title\" x=\"{}\" y=\"22\" font-size=\"15\" font-weight=\"600\" text-anchor=\"middle\">{} against the number of rules: {}, {}-fold cross-validation</text>",
        left + pw / 2.0,
        escape(name),
        escape(&report.data),
        report.folds
    );
    // Axes, grid and ticks.
    let _ = writeln!(
        out,
        "<g class=\"axes\" stroke=\"#333\"><line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{}\"/></g>",
        top + ph,
        left + pw,
        top + ph,
        top + ph
    );
    let x_ticks: Vec<f64> = if log {
        let (a, b) = (x_lo.log10().round() as i32, x_hi.log10().round() as i32);
        (a..=b).map(|e| 10f64.powi(e)).collect()
    } else {
        ticks(x_lo, x_hi)
    };
    for t in x_ticks {
        let x = sx(t);
        let _ = writeln!(
            out,
            "<g class=\"tick\"><line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#eee\"/><text x=\"{x:.1}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text></g>",
            top + ph,
            top + ph + 16.0,
            label(t)
        );
    }
    for t in ticks(y_lo, y_hi) {
        let y = sy(t);
        let _ = writeln!(
            out,
            "<g class=\"tick\"><line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\" stroke=\"#eee\"/><text x=\"{}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text></g>",
            left + pw,
            left - 6.0,
            y + 4.0,
            label(t)
        );
    }
    let _ = writeln!(
        out,
        "<text class=\"axis-title\" x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\">number of rules{}</text>",
        left + pw / 2.0,
        height - 18.0,
        if log { " (log scale)" } else { "" }
    );
    let _ = writeln!(
        out,
        "<text class=\"axis-title\" x=\"18\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 18 {})\">{} (test folds; mean ± 1 std)</text>",
        top + ph / 2.0,
        top + ph / 2.0,
        escape(name)
    );
    // Series.
    for (i, m) in report.methods.iter().enumerate() {
        let col = color(i);
        let _ = write!(
            out,
            "<g class=\"series\" data-method=\"{}\" fill=\"{col}\" stroke=\"{col}\">",
            escape(&m.method)
        );
        let points: Vec<(Option<f64>, f64)> = m
            .folds
            .iter()
            .filter_map(|f| {
                score(&f.metrics)
                    .filter(|y| y.is_finite())
                    .map(|y| (f.n_rules.map(|n| n as f64), y))
            })
            .collect();
        let with_rules: Vec<(f64, f64)> = points
            .iter()
            .filter_map(|&(x, y)| x.map(|x| (x, y)))
            .collect();
        if !with_rules.is_empty() {
            for &(x, y) in &with_rules {
                let _ = write!(
                    out,
                    "<circle class=\"fold\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill-opacity=\"0.35\" stroke=\"none\"/>",
                    sx(x),
                    sy(y)
                );
            }
            let (mx, sdx) = mean_std(with_rules.iter().map(|p| p.0));
            let (my, sdy) = mean_std(with_rules.iter().map(|p| p.1));
            let (cx, cy) = (sx(mx), sy(my));
            let _ = write!(
                out,
                "<line x1=\"{cx:.1}\" y1=\"{:.1}\" x2=\"{cx:.1}\" y2=\"{:.1}\" stroke-width=\"1.5\"/><line x1=\"{:.1}\" y1=\"{cy:.1}\" x2=\"{:.1}\" y2=\"{cy:.1}\" stroke-width=\"1.5\"/><circle class=\"mean\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"5.5\" stroke=\"white\"><title>{}: {} {} ± {}, {} ± {} rules</title></circle>",
                sy(my - sdy),
                sy(my + sdy),
                sx((mx - sdx).max(x_lo)),
                sx(mx + sdx),
                escape(&m.method),
                escape(name),
                label(my),
                label(sdy),
                label(mx),
                label(sdx)
            );
        } else if !points.is_empty() {
            let (my, _) = mean_std(points.iter().map(|p| p.1));
            let _ = write!(
                out,
                "<line class=\"no-rules\" x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>",
                sy(my),
                left + pw
            );
        }
        out.push_str("</g>\n");
    }
    // Legend.
    let lx = left + pw + 20.0;
    let _ = writeln!(
        out,
        "<g class=\"legend\"><text x=\"{lx}\" y=\"{}\" font-size=\"12\" font-weight=\"600\">method</text>",
        top + 4.0
    );
    for (i, m) in report.methods.iter().enumerate() {
        let y = top + 24.0 + 20.0 * i as f64;
        let note = if m.error.is_some() {
            " (failed)"
        } else if m.folds.iter().all(|f| f.n_rules.is_none()) {
            " (no rules: dashed)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<g class=\"legend-entry\" data-method=\"{0}\"><circle cx=\"{1}\" cy=\"{2}\" r=\"5\" fill=\"{3}\"/><text x=\"{4}\" y=\"{5}\" font-size=\"12\">{0}{6}</text></g>",
            escape(&m.method),
            lx + 5.0,
            y - 4.0,
            color(i),
            lx + 16.0,
            y,
            note
        );
    }
    out.push_str("</g>\n</svg>\n");
    out
}

fn mean_std(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let v: Vec<f64> = values.collect();
    if v.is_empty() {
        return (f64::NAN, 0.0);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = if v.len() > 1 {
        v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, var.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        let t = ticks(0.62, 0.97);
        assert!(
            t.len() >= 3 && t[0] >= 0.62 && *t.last().unwrap() <= 0.97,
            "{t:?}"
        );
    }

    #[test]
    fn labels_have_three_significant_digits() {
        assert_eq!(label(0.8), "0.8");
        assert_eq!(label(0.12345), "0.123");
        assert_eq!(label(1000.0), "1000");
    }
}
