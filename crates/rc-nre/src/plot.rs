//! SVG pictures of rule supports over two features, as the paper's Figs.
//! 4 and 5: the plane is shaded where some rule is active (blue for rules
//! voting class 1, orange for class 0, purple where both kinds overlap) and
//! the data are drawn as dots coloured by class. Other features are held
//! at their training mean.
//!
//! ```
//! use rulecover_core::generate::rotated_xor;
//! use rc_nre::plot::{support_svg, PlotOptions};
//! use rc_nre::NreParams;
//! let data = rotated_xor(200, 0, 0.7, 3);
//! let model = NreParams::default().max_depth(2).max_epochs(0).initialize(&data)?;
//! let svg = support_svg(&model, &data, &PlotOptions::default().title("initial"))?;
//! assert!(svg.starts_with("<svg") && svg.contains("initial"));
//! # Ok::<(), rc_nre::Error>(())
//! ```

use std::fmt::Write;

use nalgebra::DMatrix;

use rulecover_core::{Dataset, Feature, Fitted, Target};

use crate::error::{invalid, Result};
use crate::model::NreModel;

/// How to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct PlotOptions {
    /// Horizontal and vertical feature columns (default 0 and 1).
    pub features: (usize, usize),
    /// Side of the square plot in pixels (default 420).
    pub size: usize,
    /// Grid cells per axis used to shade the supports (default 140).
    pub resolution: usize,
    /// Axis ranges; `None` uses the data's range.
    pub range: Option<((f64, f64), (f64, f64))>,
    /// Title drawn above the plot.
    pub title: String,
    /// Draw the data points (default true).
    pub points: bool,
}

impl Default for PlotOptions {
    fn default() -> Self {
        PlotOptions {
            features: (0, 1),
            size: 420,
            resolution: 140,
            range: None,
            title: String::new(),
            points: true,
        }
    }
}

impl PlotOptions {
    /// Sets the title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = title.into();
        self
    }

    /// Sets the axis ranges.
    pub fn range(mut self, x: (f64, f64), y: (f64, f64)) -> Self {
        self.range = Some((x, y));
        self
    }

    /// Sets the shading resolution (cells per axis, ≥ 2).
    pub fn resolution(mut self, cells: usize) -> Self {
        self.resolution = cells;
        self
    }
}

const POS_FILL: &str = "#9ecae1";
const NEG_FILL: &str = "#fdd0a2";
const BOTH_FILL: &str = "#bcbddc";
const POS_DOT: &str = "#08519c";
const NEG_DOT: &str = "#d94801";

fn range_of(data: &Dataset, j: usize) -> (f64, f64) {
    let col = data.column(j);
    let lo = col.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = col.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if lo.is_finite() && hi.is_finite() && hi > lo {
        let pad = 0.02 * (hi - lo);
        (lo - pad, hi + pad)
    } else {
        (-1.0, 1.0)
    }
}

/// Draws the supports of `model`'s rules over two features of `data`, with
/// `data`'s rows as dots.
///
/// `data` is read by column name and encoded as the training data was;
/// the two features are columns of the encoded data
/// ([`NreModel::features`]).
pub fn support_svg(model: &NreModel, data: &Dataset, opts: &PlotOptions) -> Result<String> {
    let data = &model.encoder().transform(data)?;
    let (fx, fy) = opts.features;
    let p = model.features().len();
    if fx >= p || fy >= p || fx == fy {
        return Err(invalid(
            "features",
            format!("({fx}, {fy})"),
            format!("must be two different columns below {p}"),
        ));
    }
    if opts.resolution < 2 || opts.size < 10 {
        return Err(invalid(
            "resolution",
            opts.resolution,
            "need at least 2 cells per axis and 10 pixels",
        ));
    }
    let ((x0, x1), (y0, y1)) = opts
        .range
        .unwrap_or_else(|| (range_of(data, fx), range_of(data, fy)));
    let r = opts.resolution;
    // The grid as a dataset: other features at their training mean.
    let mean = model.standardizer().mean();
    let mut columns: Vec<Vec<f64>> = (0..p).map(|j| vec![mean[j]; r * r]).collect();
    for gy in 0..r {
        for gx in 0..r {
            let i = gy * r + gx;
            columns[fx][i] = x0 + (gx as f64 + 0.5) / r as f64 * (x1 - x0);
            columns[fy][i] = y1 - (gy as f64 + 0.5) / r as f64 * (y1 - y0);
        }
    }
    let feats: Vec<Feature> = model.features().to_vec();
    let grid = Dataset::new(
        "grid",
        feats,
        columns,
        Target::Classes {
            labels: vec![0; r * r],
            names: model.class_names().to_vec(),
        },
    )?;
    let s: DMatrix<f64> = model.supports(&grid)?;
    // Each rule's vote at support depth 1, `d_k + c_k` (its class sign).
    let net = model.network();
    let c: Vec<f64> = (0..net.n_rules())
        .map(|k| net.rule_offset(k) + net.output_weight(k))
        .collect();
    let cell_color = |i: usize| -> Option<&'static str> {
        let (mut pos, mut neg) = (false, false);
        for (k, &ck) in c.iter().enumerate() {
            if s[(i, k)] > 0.0 {
                if ck > 0.0 {
                    pos = true;
                } else {
                    neg = true;
                }
            }
        }
        match (pos, neg) {
            (true, true) => Some(BOTH_FILL),
            (true, false) => Some(POS_FILL),
            (false, true) => Some(NEG_FILL),
            _ => None,
        }
    };
    let size = opts.size as f64;
    let top = if opts.title.is_empty() { 4.0 } else { 24.0 };
    let cell = size / r as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">",
        w = size + 8.0,
        h = size + top + 4.0
    );
    let _ = writeln!(
        svg,
        "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"white\"/>",
        size + 8.0,
        size + top + 4.0
    );
    if !opts.title.is_empty() {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"16\" font-size=\"13\" text-anchor=\"middle\">{}</text>",
            4.0 + size / 2.0,
            escape(&opts.title)
        );
    }
    // Runs of equal colour as one rectangle each, grouped by colour so the
    // fill is written once per group (keeps the files small).
    let mut runs: [(&str, String); 3] = [
        (POS_FILL, String::new()),
        (NEG_FILL, String::new()),
        (BOTH_FILL, String::new()),
    ];
    for gy in 0..r {
        let mut gx = 0;
        while gx < r {
            let color = cell_color(gy * r + gx);
            let start = gx;
            while gx < r && cell_color(gy * r + gx) == color {
                gx += 1;
            }
            if let Some(group) = runs.iter_mut().find(|g| Some(g.0) == color) {
                let _ = writeln!(
                    group.1,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                    num(start as f64 * cell),
                    num(gy as f64 * cell),
                    num((gx - start) as f64 * cell),
                    num(cell)
                );
            }
        }
    }
    for (fill, rects) in &runs {
        if !rects.is_empty() {
            let _ = write!(
                svg,
                "<g transform=\"translate(4,{top})\" shape-rendering=\"crispEdges\" fill=\"{fill}\">\n{rects}</g>\n"
            );
        }
    }
    if opts.points {
        // One path per class: every dot is a zero-length segment with a
        // round cap (`M x y h0`), a tenth of the bytes of a <circle>.
        let (cx, cy) = (data.column(fx), data.column(fy));
        for (class, color) in [(1, POS_DOT), (0, NEG_DOT)] {
            let mut d = String::new();
            for i in (0..data.n_rows()).filter(|&i| (data.label(i) == 1) == (class == 1)) {
                let (vx, vy) = (cx[i], cy[i]);
                if !(vx >= x0 && vx <= x1 && vy >= y0 && vy <= y1) {
                    continue;
                }
                let px = (vx - x0) / (x1 - x0) * size;
                let py = (y1 - vy) / (y1 - y0) * size;
                let _ = write!(d, "M{} {}h0", num(px), num(py));
            }
            if !d.is_empty() {
                let _ = writeln!(
                    svg,
                    "<path transform=\"translate(4,{top})\" stroke=\"{color}\" stroke-width=\"3.4\" stroke-linecap=\"round\" d=\"{d}\"/>"
                );
            }
        }
    }
    let _ = writeln!(
        svg,
        "<rect x=\"4\" y=\"{top}\" width=\"{size}\" height=\"{size}\" fill=\"none\" stroke=\"#333\"/>"
    );
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// A coordinate with at most one decimal and no trailing zeros.
fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::NreParams;
    use rulecover_core::generate::rotated_xor;

    #[test]
    fn draws_every_row_and_both_kinds_of_support() {
        let data = rotated_xor(150, 0, 0.0, 4);
        let model = NreParams::default().max_depth(2).initialize(&data).unwrap();
        let svg = support_svg(&model, &data, &PlotOptions::default().resolution(40)).unwrap();
        assert_eq!(svg.matches("h0").count(), data.n_rows());
        // Axis-aligned XOR at depth 2: leaves of both classes are shaded.
        assert!(svg.contains(&format!("fill=\"{POS_FILL}\"")));
        assert!(svg.contains(&format!("fill=\"{NEG_FILL}\"")));
        assert!(!svg.contains(".00\""));
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.96), "3");
        assert_eq!(num(-1.24), "-1.2");
        assert_eq!(num(0.04), "0");
    }
}
