//! Markdown tables of records, shared by the report and by the suites
//! that render their own tables: values of one field over folds, their
//! formatting, and one table per data set ([`per_dataset_tables`]).

use std::collections::BTreeSet;
use std::fmt::Write;

use rulecover_core::metrics::Summary;

use crate::paper::Source;
use crate::records::{Record, SkippedJob};

/// Values of one field over the folds of (suite, dataset, method).
pub fn values(
    records: &[Record],
    suite: &str,
    dataset: &str,
    method: &str,
    source: Source,
    key: &str,
) -> Vec<f64> {
    records
        .iter()
        .filter(|r| r.suite == suite && r.dataset == dataset && r.method == method)
        .filter_map(|r| match source {
            Source::Metrics => r.metrics.get(key),
            Source::Size => r.size.get(key),
            Source::Time => r.time_s.get(key),
        })
        .copied()
        .collect()
}

/// Metrics get four decimals; sizes (counts) and large values one.
pub fn fmt_in(source: Source, v: f64) -> String {
    if source == Source::Size || v.abs() >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.4}")
    }
}

/// A metric's value: four decimals (one from 100 on).
pub fn fmt_value(v: f64) -> String {
    fmt_in(Source::Metrics, v)
}

/// Mean (std) of a summary over folds, as [`fmt_in`] writes values; the
/// mean alone for one fold.
pub fn fmt_summary_in(source: Source, s: &Summary) -> String {
    if s.n > 1 {
        format!("{} ({})", fmt_in(source, s.mean), fmt_in(source, s.std))
    } else {
        fmt_in(source, s.mean)
    }
}

/// [`fmt_summary_in`] for metrics.
pub fn fmt_summary(s: &Summary) -> String {
    fmt_summary_in(Source::Metrics, s)
}

/// One column of [`per_dataset_tables`]: a header and the record field
/// it summarises.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    /// Column header.
    pub header: &'static str,
    /// Which map of the record holds the field.
    pub source: Source,
    /// The field's key.
    pub key: &'static str,
}

impl Column {
    /// A column of `header` reading field `key` of the record's `source`.
    pub const fn new(header: &'static str, source: Source, key: &'static str) -> Column {
        Column {
            header,
            source,
            key,
        }
    }
}

/// Column of test accuracy.
pub const ACCURACY: Column = Column::new("accuracy", Source::Metrics, "accuracy");
/// Column of test balanced accuracy.
pub const BALANCED_ACCURACY: Column =
    Column::new("balanced accuracy", Source::Metrics, "balanced_accuracy");
/// Column of test ROC AUC (macro one-vs-rest on more than two classes).
pub const AUC: Column = Column::new("AUC", Source::Metrics, "auc_roc");
/// Column of test log-loss.
pub const LOG_LOSS: Column = Column::new("log-loss", Source::Metrics, "log_loss");
/// Column of the model's number of rules.
pub const RULES: Column = Column::new("rules", Source::Size, "rules");
/// Column of the fit's seconds.
pub const FIT_SECONDS: Column = Column::new("fit s", Source::Time, "fit");

/// One table per data set of a suite: methods as rows (in `order`, then
/// any other by name), each column as mean (std) over the folds. A column
/// that no record of the data set has is left out (so classification and
/// regression data sets get their own metrics); the methods `skipped` on
/// the data set are listed under its table with why.
pub fn per_dataset_tables(
    suite: &str,
    records: &[Record],
    skipped: &[SkippedJob],
    columns: &[Column],
    order: &[&str],
) -> String {
    let rs: Vec<&Record> = records.iter().filter(|r| r.suite == suite).collect();
    let mut datasets: Vec<&str> = rs.iter().map(|r| r.dataset.as_str()).collect();
    datasets.extend(
        skipped
            .iter()
            .filter(|s| s.suite == suite)
            .map(|s| s.dataset.as_str()),
    );
    let datasets: BTreeSet<&str> = datasets.into_iter().collect();
    let mut out = String::new();
    for d in datasets {
        let of: Vec<&Record> = rs.iter().copied().filter(|r| r.dataset == d).collect();
        let field = |r: &Record, c: &Column| -> Option<f64> {
            match c.source {
                Source::Metrics => r.metrics.get(c.key),
                Source::Size => r.size.get(c.key),
                Source::Time => r.time_s.get(c.key),
            }
            .copied()
        };
        let shown: Vec<&Column> = columns
            .iter()
            .filter(|c| of.iter().any(|r| field(r, c).is_some()))
            .collect();
        let folds = of.iter().map(|r| r.fold + 1).max().unwrap_or(0);
        let _ = writeln!(out, "#### {d} (mean (std) over {folds} outer folds)\n");
        let mut methods: Vec<&str> = of.iter().map(|r| r.method.as_str()).collect();
        methods.sort_by_key(|m| (order.iter().position(|o| o == m).unwrap_or(usize::MAX), *m));
        methods.dedup();
        if !methods.is_empty() {
            let mut header = String::from("| method | folds |");
            let mut rule = String::from("|---|---:|");
            for c in &shown {
                let _ = write!(header, " {} |", c.header);
                rule.push_str("---:|");
            }
            let _ = writeln!(out, "{header}\n{rule}");
            for m in methods {
                let runs: Vec<&Record> = of.iter().copied().filter(|r| r.method == m).collect();
                let mut line = format!("| {m} | {} |", runs.len());
                for c in &shown {
                    let v: Vec<f64> = runs.iter().filter_map(|r| field(r, c)).collect();
                    let t = if v.is_empty() {
                        "—".to_string()
                    } else {
                        fmt_summary_in(c.source, &Summary::new(&v))
                    };
                    let _ = write!(line, " {t} |");
                }
                let _ = writeln!(out, "{line}");
            }
            out.push('\n');
        }
        for s in skipped
            .iter()
            .filter(|s| s.suite == suite && s.dataset == d)
        {
            let _ = writeln!(out, "- {} not run: {}", s.method, s.reason);
        }
        if skipped.iter().any(|s| s.suite == suite && s.dataset == d) {
            out.push('\n');
        }
    }
    out
}
