//! A fitted model as one self-contained HTML page (`rulecover report`,
//! the Python estimators' `report()` and `_repr_html_`), and the SVG of
//! `rulecover evaluate --plot`.
//!
//! The page holds everything itself: its style sheet and a small script
//! inline, the charts as inline SVG, no font, image or link to load. It
//! shows the method and its parameters, the rules as a table (sorted by
//! clicking a header, filtered through a text box) with each rule's
//! training coverage, and, given labelled data, each rule's precision and
//! support on it as bars, the class balance and the headline metrics; and
//! a chart of the rules' contribution. Every name from the data or the
//! model (columns, levels, classes, parameters) is escaped.
//!
//! ```
//! use rulecover_core::generate;
//!
//! let train = generate::twonorm(200, 1);
//! let model = rulecover::fit("rux-rf", &[("n_estimators", "5")], &train, None, 7)?;
//! let page = rulecover::report::html(&model, Some(&generate::twonorm(100, 2)), &Default::default())?;
//! assert!(page.contains("<table id=\"rules\"") && page.contains("<svg"));
//! # Ok::<(), rulecover::Error>(())
//! ```

mod html;
mod stats;
mod svg;

use std::fmt::Write as _;

use rulecover_core::metrics::{evaluate, Metrics};
use rulecover_core::{Dataset, Target, UnseenLevel};

use crate::error::Result;
use crate::output::{chosen_line, rule_rows};
use crate::FittedModel;

pub use html::escape;
pub use stats::{rule_stats, RuleStats};
pub use svg::evaluate_plot;

/// What the page shows beyond its fixed sections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportOptions {
    /// Rules drawn one bar each in the contribution chart (the others
    /// share one bar).
    pub top: usize,
    /// The page's title (default: the method id and "report").
    pub title: Option<String>,
    /// What the model file or source was, shown under the title.
    pub source: Option<String>,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            top: 20,
            title: None,
            source: None,
        }
    }
}

/// The headline scores of `model` on `data` (labelled; read by column
/// name): every metric of [`rulecover_core::metrics::evaluate`].
///
/// # Errors
/// [`crate::Error::NoLabel`] when `data` has no target; as
/// [`FittedModel::predict`] otherwise.
pub fn score(model: &FittedModel, data: &Dataset) -> Result<Metrics> {
    let aligned = labelled(model, data)?;
    let pred = model.predict(&aligned)?;
    Ok(evaluate(&aligned.target_view(), &pred)?)
}

fn labelled(model: &FittedModel, data: &Dataset) -> Result<Dataset> {
    if !data.has_target() {
        return Err(crate::Error::NoLabel {
            data: data.name().to_string(),
            column: "label".into(),
        });
    }
    Ok(model.schema().align(data, UnseenLevel::Error)?)
}

/// The full report page of `model`, scored on `data` when given (read by
/// column name, e.g. [`crate::io::read_labelled_for_schema`]): labelled,
/// with the metrics, the class balance and each rule's precision and
/// support; without a target, each rule's support only.
///
/// # Errors
/// The errors of [`FittedModel::predict`] on `data` (a missing column, an
/// unseen level or class).
pub fn html(model: &FittedModel, data: Option<&Dataset>, opts: &ReportOptions) -> Result<String> {
    let spec = model.spec();
    let title = opts
        .title
        .clone()
        .unwrap_or_else(|| format!("{} model report", spec.id));
    let mut body = String::new();
    let _ = write!(body, "<h1>{}</h1>\n<p class=\"sub\">", html::escape(&title));
    let _ = write!(body, "{}", html::escape(spec.summary));
    if let Some(source) = &opts.source {
        let _ = write!(body, " · {}", html::escape(source));
    }
    body.push_str("</p>\n");
    body.push_str(&method_section(model));

    let aligned = data
        .map(|d| model.schema().align(d, UnseenLevel::Error))
        .transpose()?;
    let set = model.rule_set();
    let labelled = aligned.as_ref().filter(|d| d.has_target());
    if let Some(data) = labelled {
        body.push_str(&data_section(model, data)?);
    }
    match &set {
        Some(set) => {
            let stats = aligned.as_ref().map(|d| rule_stats(set, d));
            let measure = labelled.map(|d| {
                if d.is_classification() {
                    Measure::Precision
                } else {
                    Measure::MeanTarget
                }
            });
            let _ = writeln!(body, "<h2>Rules ({})</h2>", set.len());
            body.push_str(&rules_table(set, stats.as_deref(), measure));
            if !set.is_empty() {
                body.push_str("<h2>Contribution</h2>\n");
                body.push_str(&svg::contribution_chart(set, opts.top));
            }
        }
        None => {
            let _ = write!(
                body,
                "<h2>Rules</h2>\n<p class=\"norules\">This model ({}) has no rules: it is not a rule model, so there is no rule table or contribution chart{}.</p>\n",
                html::escape(model.kind()),
                if labelled.is_some() {
                    "; its metrics are above"
                } else {
                    ""
                }
            );
        }
    }
    Ok(page(&title, &body))
}

/// The compact page fragment for a notebook (`_repr_html_`): the method,
/// its parameters and the rules table (sortable and filterable), or a
/// line saying the model has no rules.
pub fn rules_html(model: &FittedModel) -> String {
    let mut out = format!(
        "<div class=\"rulecover-report\"><style>{}</style><p><b>{}</b> · {}</p>",
        html::STYLE.replace("body{", ".rulecover-report{"),
        html::escape(model.kind()),
        html::escape(&params_text(model))
    );
    match model.rule_set() {
        Some(set) => out.push_str(&rules_table(&set, None, None)),
        None => {
            let _ = write!(
                out,
                "<p class=\"norules\">This model ({}) has no rules.</p>",
                html::escape(model.kind())
            );
        }
    }
    let _ = write!(out, "<script>{}</script></div>", html::SCRIPT);
    out
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n{}<footer class=\"note\"><p>Written by rulecover {}.</p></footer>\n<script>{}</script>\n</body>\n</html>\n",
        html::escape(title),
        html::STYLE,
        body,
        env!("CARGO_PKG_VERSION"),
        html::SCRIPT
    )
}

fn params_text(model: &FittedModel) -> String {
    model
        .params()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn method_section(model: &FittedModel) -> String {
    let schema = model.schema();
    let mut rows = vec![
        ("method".to_string(), model.kind().to_string()),
        ("seed".to_string(), model.seed().to_string()),
        (
            "target".to_string(),
            if model.classes().is_empty() {
                "real values (regression)".to_string()
            } else {
                format!(
                    "{} classes: {}",
                    model.classes().len(),
                    model.classes().join(", ")
                )
            },
        ),
        (
            "features".to_string(),
            format!(
                "{}: {}",
                schema.n_features(),
                schema.feature_names().join(", ")
            ),
        ),
    ];
    if let Some(line) = chosen_line(model) {
        rows.push(("chosen".into(), line));
    }
    if let Some(t) = model.tuning() {
        rows.push((
            "tuned".into(),
            format!(
                "inner {}-fold cross-validation ({}{}): {}",
                t.folds,
                t.metric,
                if t.one_se {
                    ", one-standard-error rule"
                } else {
                    ""
                },
                t.chosen_text()
            ),
        ));
    }
    let params: Vec<(String, String)> = model
        .params()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    format!(
        "<h2>Method</h2>\n<div class=\"cards\"><div>{}</div><div><h3>Parameters</h3>{}</div></div>\n",
        html::key_values("kv", &rows),
        html::key_values("kv params", &params)
    )
}

fn data_section(model: &FittedModel, data: &Dataset) -> Result<String> {
    let pred = model.predict(data)?;
    let m = evaluate(&data.target_view(), &pred)?;
    let mut out = format!(
        "<h2>On {} ({} rows)</h2>\n<div class=\"cards metrics\">",
        html::escape(data.name()),
        data.n_rows()
    );
    let mut card = |name: &str, v: Option<f64>| {
        if v.is_some() {
            let _ = write!(
                out,
                "<div class=\"card metric\"><span>{}</span><b>{}</b></div>",
                html::escape(name),
                html::num(v)
            );
        }
    };
    match data.target_storage() {
        Target::Classes { names, .. } => {
            card("accuracy", m.accuracy);
            card("balanced accuracy", m.balanced_accuracy);
            if names.len() == 2 {
                card("AUC", m.auc_roc);
            } else {
                card("AUC (macro one-vs-rest)", m.auc_roc);
            }
            card("log-loss", m.log_loss);
        }
        _ => {
            card("R²", m.r2);
            card("RMSE", m.mse.map(f64::sqrt));
        }
    }
    out.push_str("</div>\n");
    if let Target::Classes { names, .. } = data.target_storage() {
        let counts = data.class_counts();
        let n = data.n_rows().max(1) as f64;
        out.push_str("<h3>Class balance</h3>\n<table class=\"balance\"><thead><tr><th>class</th><th>rows</th><th>share</th></tr></thead><tbody>");
        for (name, &c) in names.iter().zip(&counts) {
            let share = c as f64 / n;
            let _ = write!(
                out,
                "<tr><td>{}</td><td class=\"num\">{c}</td>{}</tr>",
                html::escape(name),
                html::bar_cell(Some(share), &format!("{:.1}%", share * 100.0), "cls")
            );
        }
        out.push_str("</tbody></table>\n");
    }
    Ok(out)
}

/// What the rules table shows of each rule on labelled data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Measure {
    /// Classes: the share of the covered rows of the predicted class.
    Precision,
    /// A real target: the mean target of the covered rows.
    MeanTarget,
}

/// The rules table: number, class (one-vs-rest), rule, outcome, weight,
/// training coverage, and with `stats` the support on the data, after
/// the `measure` of labelled data.
fn rules_table(
    set: &rulecover_core::RuleSet,
    stats: Option<&[Option<RuleStats>]>,
    measure: Option<Measure>,
) -> String {
    let rows = rule_rows(set);
    let by_class = rows.iter().any(|r| r.class.is_some());
    let mut out = String::from(
        "<div class=\"filter\"><input id=\"rule-filter\" type=\"search\" placeholder=\"Filter rules (any text: a feature, a class)\" aria-label=\"filter rules\"><span id=\"rule-count\" class=\"note\"></span></div>\n<table id=\"rules\" class=\"rules\"><thead><tr><th>#</th>",
    );
    if by_class {
        out.push_str("<th>class</th>");
    }
    out.push_str(
        "<th>rule</th><th>outcome</th><th>weight</th><th>train coverage</th><th>length</th>",
    );
    if stats.is_some() {
        match measure {
            Some(Measure::Precision) => out.push_str("<th>precision</th>"),
            Some(Measure::MeanTarget) => out.push_str("<th>mean target</th>"),
            None => {}
        }
        out.push_str("<th>support</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (k, r) in rows.iter().enumerate() {
        let _ = write!(
            out,
            "<tr><td class=\"num\" data-v=\"{}\">{}</td>",
            r.rank, r.rank
        );
        if by_class {
            let _ = write!(
                out,
                "<td>{}</td>",
                html::escape(r.class.as_deref().unwrap_or(""))
            );
        }
        let _ = write!(
            out,
            "<td class=\"rule\">{}</td><td>{}</td><td class=\"num\" data-v=\"{}\">{}</td><td class=\"num\" data-v=\"{}\">{}</td><td class=\"num\" data-v=\"{}\">{}</td>",
            html::escape(&r.rule),
            html::escape(&r.outcome),
            finite(r.weight),
            html::num(Some(r.weight)),
            r.coverage,
            r.coverage,
            r.length,
            r.length
        );
        if let Some(stats) = stats {
            let s = stats.get(k).copied().flatten();
            let text = s
                .and_then(|s| s.precision)
                .map_or("–".to_string(), |p| html::num(Some(p)));
            match measure {
                Some(Measure::Precision) => {
                    out.push_str(&html::bar_cell(
                        s.and_then(|s| s.precision),
                        &text,
                        "precision",
                    ));
                }
                Some(Measure::MeanTarget) => {
                    let _ = write!(
                        out,
                        "<td class=\"num\" data-v=\"{}\">{}</td>",
                        s.and_then(|s| s.precision).map_or(String::new(), finite),
                        text
                    );
                }
                None => {}
            }
            out.push_str(&html::bar_cell(
                s.map(|s| s.support),
                &s.map_or(String::new(), |s| {
                    format!("{} ({:.1}%)", s.covered, s.support * 100.0)
                }),
                "support",
            ));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    if stats.is_some() {
        out.push_str(match measure {
            Some(Measure::Precision) => "<p class=\"note\">Precision: the share of the rows a rule covers whose label is the class it predicts. Support: the rows it covers.</p>\n",
            Some(Measure::MeanTarget) => "<p class=\"note\">Mean target: of the rows a rule covers. Support: the rows it covers.</p>\n",
            None => "<p class=\"note\">Support: the rows of the data a rule covers (the data has no labels).</p>\n",
        });
    }
    out
}

fn finite(v: f64) -> String {
    if v.is_finite() {
        v.to_string()
    } else {
        String::new()
    }
}
