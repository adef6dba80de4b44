//! What a fitted model and its data print as: predictions as CSV, rule
//! tables (text, markdown, JSON, CSV), the one-line fit summary, and a
//! dataset as CSV.
//!
//! Numbers in CSV and JSON output are the shortest decimal that reads
//! back to the same `f64`, so written predictions parse back bit for bit.

use std::fmt;

use rulecover_core::rule::format_number;
use rulecover_core::{Dataset, FeatureKind, Outcome, Predictions, RuleSet, Target, WeightedRule};

use crate::error::{Error, Result};

/// A CSV field, quoted when it holds a comma, quote or line break.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || text != text.trim() {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Predictions as CSV with a header and one row per predicted row:
/// `label` (the most probable class's name) and, with `proba`, one
/// probability column per class named by the class; for real values one
/// column `value`.
///
/// # Errors
/// [`Error::Internal`] when a classifier's predictions have another
/// number of classes than `classes`.
pub fn predictions_csv(pred: &Predictions, classes: &[String], proba: bool) -> Result<String> {
    let mut out = String::new();
    match pred {
        Predictions::Values(values) => {
            out.push_str("value\n");
            for v in values {
                out.push_str(&format!("{v}\n"));
            }
        }
        Predictions::Classes {
            n_classes,
            proba: p,
        } => {
            if *n_classes != classes.len() {
                return Err(Error::Internal(format!(
                    "predictions have {n_classes} classes but the model names {}",
                    classes.len()
                )));
            }
            let mut header = vec!["label".to_string()];
            if proba {
                header.extend(classes.iter().map(|c| field(c)));
            }
            out.push_str(&header.join(","));
            out.push('\n');
            for row in p.chunks(*n_classes) {
                let best = rulecover_core::metrics::argmax(row);
                out.push_str(&field(&classes[best]));
                if proba {
                    for v in row {
                        out.push_str(&format!(",{v}"));
                    }
                }
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// A dataset as CSV with a header: its features (categorical values by
/// level name) and, when it has one, its target as the last column named
/// `target_name`.
pub fn dataset_csv(data: &Dataset, target_name: &str) -> String {
    let mut header: Vec<String> = data.feature_names().iter().map(|n| field(n)).collect();
    if data.has_target() {
        header.push(field(target_name));
    }
    let mut out = header.join(",");
    out.push('\n');
    for i in 0..data.n_rows() {
        let mut row: Vec<String> = Vec::with_capacity(header.len());
        for (j, f) in data.features().iter().enumerate() {
            let v = data.value(i, j);
            row.push(match &f.kind {
                _ if v.is_nan() => String::new(),
                FeatureKind::Categorical { levels } => {
                    field(levels.get(v as usize).map_or("", String::as_str))
                }
                _ => format!("{v}"),
            });
        }
        match data.target_storage() {
            Target::Classes { names, .. } => row.push(field(&names[data.label(i)])),
            Target::Real(_) => row.push(format!("{}", data.target_value(i))),
            Target::None => {}
        }
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// How `rulecover rules` prints a rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleFormat {
    /// One line per rule as the library prints it, with coverage and
    /// length.
    Text,
    /// A markdown table.
    Markdown,
    /// A JSON array of objects.
    Json,
    /// CSV with a header.
    Csv,
}

impl RuleFormat {
    /// The format named `text`, `markdown`, `json` or `csv`.
    pub fn parse(name: &str) -> Option<RuleFormat> {
        match name.trim().to_ascii_lowercase().as_str() {
            "text" => Some(RuleFormat::Text),
            "markdown" | "md" => Some(RuleFormat::Markdown),
            "json" => Some(RuleFormat::Json),
            "csv" => Some(RuleFormat::Csv),
            _ => None,
        }
    }
}

/// One rule's printable fields.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RuleRow {
    /// Position in the model's order, from 1.
    pub rank: usize,
    /// The class whose binary model holds the rule, for a model fitted
    /// one-vs-rest (`None` otherwise, and left out of JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// The rule as the library prints it, without its weight
    /// (`if age > 52.5 then class yes`; a one-vs-rest rule begins with
    /// its class, `class setosa: if …`).
    pub rule: String,
    /// What it predicts: a class name or a value.
    pub outcome: String,
    /// Its weight (1 when the method has none).
    pub weight: f64,
    /// Training rows it covers.
    pub coverage: usize,
    /// Number of conditions (literals for a clause, 1 for a linear term).
    pub length: usize,
}

fn outcome_text(set: &RuleSet, rule: &WeightedRule) -> String {
    match &rule.outcome {
        Outcome::Class(k) => set.class_label(rule, *k),
        Outcome::ClassCounts(c) => set.class_label(rule, rulecover_core::metrics::argmax(c)),
        Outcome::Value(v) => format_number(*v),
    }
}

/// The rows of a rule set, in its order.
pub fn rule_rows(set: &RuleSet) -> Vec<RuleRow> {
    set.rules
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let single = RuleSet {
                features: set.features.clone(),
                class_names: set.class_names.clone(),
                rules: vec![WeightedRule {
                    weight: 1.0,
                    ..r.clone()
                }],
            };
            RuleRow {
                rank: k + 1,
                class: r.for_class.map(|_| set.class_label(r, 1)),
                rule: single.to_string().trim_end().to_string(),
                outcome: outcome_text(set, r),
                weight: r.weight,
                coverage: r.coverage,
                length: r.antecedent.len(),
            }
        })
        .collect()
}

/// The line saying which parameters the fit chose itself (`lambda0 =
/// auto`: `chosen by inner cross-validation: lambda0=0.01 lambda1=0.002`),
/// or `None` when it chose none.
pub fn chosen_line(model: &crate::FittedModel) -> Option<String> {
    let chosen = model.chosen_params();
    (!chosen.is_empty()).then(|| {
        let pairs: Vec<String> = chosen
            .iter()
            .map(|(name, v)| format!("{name}={}", format_number(*v)))
            .collect();
        format!("chosen by inner cross-validation: {}", pairs.join(" "))
    })
}

/// A rule set printed in `format`. The rules of a one-vs-rest model get a
/// `class` column in markdown and CSV (a `class` field in JSON).
pub fn render_rule_set(set: &RuleSet, format: RuleFormat) -> String {
    let rows = rule_rows(set);
    let by_class = rows.iter().any(|r| r.class.is_some());
    let mut out = String::new();
    match format {
        RuleFormat::Text => {
            for r in &rows {
                out.push_str(&format!(
                    "{:>3}. {}  [weight {}, covers {}, length {}]\n",
                    r.rank,
                    r.rule,
                    format_number(r.weight),
                    r.coverage,
                    r.length
                ));
            }
        }
        RuleFormat::Markdown => {
            let escape = |text: &str| text.replace('|', "\\|");
            out.push_str(if by_class {
                "| # | class | rule | outcome | weight | coverage | length |\n|---:|---|---|---|---:|---:|---:|\n"
            } else {
                "| # | rule | outcome | weight | coverage | length |\n|---:|---|---|---:|---:|---:|\n"
            });
            for r in &rows {
                let class = match (by_class, &r.class) {
                    (true, Some(c)) => format!(" {} |", escape(c)),
                    (true, None) => "  |".to_string(),
                    (false, _) => String::new(),
                };
                out.push_str(&format!(
                    "| {} |{class} {} | {} | {} | {} | {} |\n",
                    r.rank,
                    escape(&r.rule),
                    escape(&r.outcome),
                    format_number(r.weight),
                    r.coverage,
                    r.length
                ));
            }
        }
        RuleFormat::Json => {
            // Plain strings and numbers: serialisation cannot fail, and a
            // non-finite weight (which JSON lacks) prints as null.
            out = serde_json::to_string_pretty(&rows).unwrap_or_else(|_| "[]".into());
            out.push('\n');
        }
        RuleFormat::Csv => {
            out.push_str(if by_class {
                "rank,class,rule,outcome,weight,coverage,length\n"
            } else {
                "rank,rule,outcome,weight,coverage,length\n"
            });
            for r in &rows {
                let class = if by_class {
                    format!("{},", field(r.class.as_deref().unwrap_or("")))
                } else {
                    String::new()
                };
                out.push_str(&format!(
                    "{},{class}{},{},{},{},{}\n",
                    r.rank,
                    field(&r.rule),
                    field(&r.outcome),
                    r.weight,
                    r.coverage,
                    r.length
                ));
            }
        }
    }
    out
}

/// The one line `rulecover fit` prints.
#[derive(Debug, Clone, PartialEq)]
pub struct FitSummary {
    /// The method id.
    pub method: String,
    /// Number of rules (`None` for a model without rules).
    pub n_rules: Option<usize>,
    /// Mean rule length.
    pub avg_length: Option<f64>,
    /// Training accuracy (classification) or R² (regression).
    pub training_score: Option<(&'static str, f64)>,
    /// Seconds the fit took.
    pub seconds: f64,
}

impl fmt::Display for FitSummary {
    /// `rux-rf: 12 rules, average length 1.83, training accuracy 0.953, 0.41 s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.method)?;
        match (self.n_rules, self.avg_length) {
            (Some(n), Some(len)) => write!(f, "{n} rules, average length {len:.2}, ")?,
            (Some(n), None) => write!(f, "{n} rules, ")?,
            _ => write!(f, "no rules, ")?,
        }
        if let Some((name, v)) = self.training_score {
            write!(f, "training {name} {v:.4}, ")?;
        }
        write!(f, "{:.2} s", self.seconds)
    }
}

impl FitSummary {
    /// The summary of `model` fitted on `train` in `seconds`: its rules
    /// and their mean length, and its accuracy (classes) or R² (real
    /// target) on `train`.
    ///
    /// # Errors
    /// As [`crate::FittedModel::predict`] on `train`, or
    /// [`Error::Data`] when the predictions do not fit the target.
    pub fn of(model: &crate::FittedModel, train: &Dataset, seconds: f64) -> Result<FitSummary> {
        let rule_set = model.rule_set();
        let pred = model.predict(train)?;
        let metrics = rulecover_core::metrics::evaluate(&train.target_view(), &pred)?;
        let training_score = match (metrics.accuracy, metrics.r2) {
            (Some(a), _) => Some(("accuracy", a)),
            (None, Some(r2)) => Some(("R²", r2)),
            _ => None,
        };
        Ok(FitSummary {
            method: model.kind().to_string(),
            n_rules: model.n_rules(),
            avg_length: rule_set.map(|s| s.avg_rule_length()),
            training_score,
            seconds,
        })
    }
}

/// One method described: id, aliases, summary, tasks, and each parameter
/// with its type, default and doc.
pub fn describe_method(spec: &crate::MethodSpec) -> String {
    let mut out = format!("{} — {}\n", spec.id, spec.summary);
    if !spec.aliases.is_empty() {
        out.push_str(&format!("  aliases: {}\n", spec.aliases.join(", ")));
    }
    out.push_str(&format!("  tasks: {}\n", spec.task_list()));
    if !spec.paper.is_empty() {
        out.push_str(&format!("  defaults from paper {}\n", spec.paper));
    }
    if !spec.grid.is_empty() {
        out.push_str(&format!(
            "  tuning grid (--tune, {} points): {}\n",
            spec.grid_size(),
            spec.grid
                .iter()
                .map(|a| a.describe())
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    for (paper, grid) in spec.paper_grids {
        out.push_str(&format!(
            "  paper {paper}'s grid: {}\n",
            grid.iter()
                .map(|a| a.describe())
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    out.push_str("  parameters (--param name=value):\n");
    let width = spec.params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in spec.params {
        out.push_str(&format!(
            "    {:width$}  {} = {:<8} {}\n",
            p.name,
            p.kind.type_name(),
            p.default,
            p.doc,
        ));
    }
    out
}
