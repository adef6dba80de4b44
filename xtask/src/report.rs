//! Markdown reports: our mean (std) beside each published cell, and a
//! table of everything measured.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use rulecover_core::metrics::Summary;

use crate::error::Result;
use crate::paper::{self, Source, Table};
use crate::records::{Record, ResultsFile, SkippedJob};

/// Absolute difference within which a cell counts as reproduced.
pub const TOLERANCE: f64 = 0.02;

/// Values of one field over the folds of (suite, dataset, method).
fn values(
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
fn fmt_in(source: Source, v: f64) -> String {
    if source == Source::Size || v.abs() >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.4}")
    }
}

fn fmt_value(v: f64) -> String {
    fmt_in(Source::Metrics, v)
}

fn fmt_summary_in(source: Source, s: &Summary) -> String {
    if s.n > 1 {
        format!("{} ({})", fmt_in(source, s.mean), fmt_in(source, s.std))
    } else {
        fmt_in(source, s.mean)
    }
}

fn fmt_summary(s: &Summary) -> String {
    fmt_summary_in(Source::Metrics, s)
}

/// Renders one published table against our records of one suite.
pub fn paper_table(paper_id: &str, table: &Table, suite: &str, records: &[Record]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "#### Paper {paper_id}, {}: {}\n",
        table.id, table.caption
    );
    let datasets: Vec<&String> = table
        .rows
        .keys()
        .filter(|d| records.iter().any(|r| r.suite == suite && &r.dataset == *d))
        .collect();
    if datasets.is_empty() {
        let _ = writeln!(out, "(no data set of this table was run)\n");
        return out;
    }
    let show_zeror = table.key == "accuracy";
    let mut header = String::from("| data set |");
    let mut rule = String::from("|---|");
    for m in &table.columns {
        let _ = write!(header, " {m} ours | {m} paper | Δ |");
        rule.push_str("---:|---:|---:|");
    }
    if show_zeror {
        header.push_str(" ZeroR |");
        rule.push_str("---:|");
    }
    let _ = writeln!(out, "{header}\n{rule}");
    let tolerance = table.tolerance.unwrap_or(TOLERANCE);
    let mut within: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut sums: BTreeMap<&str, (f64, f64, usize)> = BTreeMap::new();
    for d in &datasets {
        let mut line = format!("| {d} |");
        for m in &table.columns {
            let cell = table.rows.get(*d).and_then(|r| r.get(m));
            let ours = values(records, suite, d, m, table.source, &table.key);
            let s = (!ours.is_empty()).then(|| Summary::new(&ours));
            let src = table.source;
            let paper_text = cell.map_or("—".to_string(), |c| match c.std {
                Some(sd) => format!("{} ({sd:.2})", fmt_in(src, c.mean)),
                None => fmt_in(src, c.mean),
            });
            let ours_text = s
                .as_ref()
                .map_or("—".to_string(), |s| fmt_summary_in(src, s));
            let delta = match (&s, cell) {
                (Some(s), Some(c)) => {
                    let d = s.mean - c.mean;
                    let w = within.entry(m.as_str()).or_default();
                    w.1 += 1;
                    if d.abs() <= tolerance {
                        w.0 += 1;
                    }
                    let e = sums.entry(m.as_str()).or_default();
                    e.0 += s.mean;
                    e.1 += c.mean;
                    e.2 += 1;
                    if src == Source::Size {
                        format!("{d:+.1}")
                    } else {
                        format!("{d:+.4}")
                    }
                }
                _ => "—".to_string(),
            };
            let _ = write!(line, " {ours_text} | {paper_text} | {delta} |");
        }
        if show_zeror {
            let z = values(records, suite, d, "ZeroR", table.source, &table.key);
            let zt = if z.is_empty() {
                "—".into()
            } else {
                fmt_value(Summary::new(&z).mean)
            };
            let _ = write!(line, " {zt} |");
        }
        let _ = writeln!(out, "{line}");
    }
    let mut avg = String::from("| **average** |");
    for m in &table.columns {
        match sums.get(m.as_str()) {
            Some(&(o, p, n)) if n > 0 => {
                let (o, p) = (o / n as f64, p / n as f64);
                let _ = write!(
                    avg,
                    " {} | {} | {:+.4} |",
                    fmt_value(o),
                    fmt_value(p),
                    o - p
                );
            }
            _ => avg.push_str(" — | — | — |"),
        }
    }
    if show_zeror {
        avg.push_str(" |");
    }
    let _ = writeln!(out, "{avg}\n");
    if table.source == Source::Metrics {
        let parts: Vec<String> = table
            .columns
            .iter()
            .filter_map(|m| within.get(m.as_str()).map(|(w, n)| format!("{m} {w}/{n}")))
            .collect();
        if !parts.is_empty() {
            let _ = writeln!(
                out,
                "Cells within ±{tolerance} of the paper: {}. Averages are over the data sets with both values.\n",
                parts.join(", ")
            );
        }
    }
    out
}

/// Renders every measured (dataset, method) of one suite: mean (std) over
/// folds of each metric and size field, and the mean tuning and fit times.
pub fn all_results(suite: &str, records: &[Record]) -> String {
    let rs: Vec<&Record> = records.iter().filter(|r| r.suite == suite).collect();
    let metric_keys: BTreeSet<&String> = rs.iter().flat_map(|r| r.metrics.keys()).collect();
    let size_keys: BTreeSet<&String> = rs.iter().flat_map(|r| r.size.keys()).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "#### Everything measured in `{suite}` (mean (std) over outer folds)\n"
    );
    let mut header = String::from("| data set | method | folds |");
    let mut rule = String::from("|---|---|---:|");
    for k in metric_keys.iter().chain(size_keys.iter()) {
        let _ = write!(header, " {k} |");
        rule.push_str("---:|");
    }
    // Tuning (inner CV, validation split) and the final fit, apart: their
    // sum is what a method costs; "—" for records written before `tune`.
    header.push_str(" tune s | fit s |");
    rule.push_str("---:|---:|");
    let _ = writeln!(out, "{header}\n{rule}");
    let mut groups: Vec<(&str, &str)> = rs
        .iter()
        .map(|r| (r.dataset.as_str(), r.method.as_str()))
        .collect();
    groups.dedup();
    let groups: BTreeSet<(&str, &str)> = groups.into_iter().collect();
    for (d, m) in groups {
        let folds = rs
            .iter()
            .filter(|r| r.dataset == d && r.method == m)
            .count();
        let mut line = format!("| {d} | {m} | {folds} |");
        for k in &metric_keys {
            let v = values(records, suite, d, m, Source::Metrics, k);
            let t = if v.is_empty() {
                "—".into()
            } else {
                fmt_summary(&Summary::new(&v))
            };
            let _ = write!(line, " {t} |");
        }
        for k in &size_keys {
            let v = values(records, suite, d, m, Source::Size, k);
            let t = if v.is_empty() {
                "—".into()
            } else {
                fmt_value(Summary::new(&v).mean)
            };
            let _ = write!(line, " {t} |");
        }
        for key in ["tune", "fit"] {
            let v = values(records, suite, d, m, Source::Time, key);
            let t = if v.is_empty() {
                "—".into()
            } else {
                format!("{:.3}", Summary::new(&v).mean)
            };
            let _ = write!(line, " {t} |");
        }
        let _ = writeln!(line);
        out.push_str(&line);
    }
    out.push('\n');
    out
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

/// The whole report of a results file: per suite, every published table
/// it fills, then everything measured.
pub fn render(results: &ResultsFile) -> Result<String> {
    let mut out = String::new();
    let m = &results.meta;
    let _ = writeln!(
        out,
        "# Benchmark report\n\ncommit `{}` · {} · {} cores · {}{}\n\n`{}`\n",
        m.git_commit,
        m.rustc_version,
        m.cores,
        m.date,
        if m.solvers.is_empty() {
            String::new()
        } else {
            format!(" · {}", m.solvers)
        },
        m.command_line
    );
    if results.quick {
        let _ = writeln!(
            out,
            "> Quick run (`--quick`: one small grid point, 3 folds, the smallest data sets or \
             generated data): the numbers show that everything runs; where a paper's value is \
             printed beside them, they are **not comparable with it**.\n"
        );
    }
    if !results.skipped.is_empty() {
        let _ = writeln!(out, "### Skipped suites and data sets\n");
        for s in &results.skipped {
            let _ = writeln!(out, "- {s}");
        }
        out.push('\n');
    }
    let suites: BTreeSet<&str> = results.records.iter().map(|r| r.suite.as_str()).collect();
    for suite in suites {
        let _ = writeln!(out, "### Suite `{suite}`\n");
        for (paper_id, table) in paper::tables_for_suite(suite)? {
            out.push_str(&paper_table(&paper_id, &table, suite, &results.records));
        }
        let skipped: Vec<SkippedJob> = results
            .skipped_jobs
            .iter()
            .filter(|s| s.suite == suite)
            .cloned()
            .collect();
        let own = crate::suites::all().into_iter().find(|s| s.name() == suite);
        match own
            .as_ref()
            .and_then(|s| s.report_tables(&results.records, &skipped))
        {
            Some(tables) => out.push_str(&tables),
            None => {
                out.push_str(&all_results(suite, &results.records));
                for s in &skipped {
                    let _ = writeln!(out, "- {} not run on {}: {}", s.method, s.dataset, s.reason);
                }
                if !skipped.is_empty() {
                    out.push('\n');
                }
            }
        }
        if let Some(s) = own {
            out.push_str(&s.summary(&results.records));
        }
    }
    if !results.failures.is_empty() {
        let _ = writeln!(out, "### Failed jobs\n");
        for f in &results.failures {
            let _ = writeln!(out, "- {f}");
        }
    }
    Ok(out)
}
