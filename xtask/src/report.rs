//! Markdown reports: our mean (std) beside each published cell, and a
//! table of everything measured.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use rulecover_core::metrics::Summary;

use crate::error::Result;
use crate::paper::{self, Source, Table};
use crate::records::{Record, ResultsFile, SkippedJob};
use crate::suites::suite::Suite;
use crate::tables::{fmt_in, fmt_summary, fmt_summary_in, fmt_value, values};

/// Absolute difference within which a cell counts as reproduced.
pub const TOLERANCE: f64 = 0.02;

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

/// The whole report of a results file: per suite, every published table
/// it fills, then the suite's own tables (those of the suite of `known`
/// by that name) or everything measured.
pub fn render(results: &ResultsFile, known: &[Box<dyn Suite>]) -> Result<String> {
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
        let own = known.iter().find(|s| s.name() == suite);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Meta;

    /// Records written before `time_s.tune` existed show "—" in the tune
    /// column; new ones their times.
    #[test]
    fn records_without_tune_render_a_dash() {
        let old = r#"{"suite":"paper000","dataset":"wine","method":"DT","fold":0,
            "metrics":{"accuracy":0.9},"size":{},"time_s":{"fit":0.5,"predict":0.01},
            "params":{}}"#;
        let r: Record = serde_json::from_str(old).unwrap();
        let table = all_results("paper000", std::slice::from_ref(&r));
        assert!(table.contains("| tune s | fit s |"), "{table}");
        assert!(table.contains("| — | 0.500 |"), "{table}");
        let mut new = r;
        new.put_times(4.25, 0.5);
        let table = all_results("paper000", &[new]);
        assert!(table.contains("| 4.250 | 0.500 |"), "{table}");
    }

    /// A suite that renders its own tables and a summary.
    struct Own;

    impl Suite for Own {
        fn name(&self) -> &'static str {
            "own"
        }
        fn about(&self) -> &'static str {
            "a suite with its own tables"
        }
        fn datasets(&self, _data: &crate::data::DataSource) -> Vec<String> {
            Vec::new()
        }
        fn methods(&self) -> Vec<&'static str> {
            vec!["DT"]
        }
        fn run(
            &self,
            _method: &str,
            _job: &crate::suites::suite::JobData,
        ) -> std::result::Result<Vec<Record>, crate::suites::suite::JobError> {
            Ok(Vec::new())
        }
        fn report_tables(&self, records: &[Record], _skipped: &[SkippedJob]) -> Option<String> {
            Some(format!("OWN TABLES of {} records\n", records.len()))
        }
        fn summary(&self, _records: &[Record]) -> String {
            "OWN SUMMARY\n".into()
        }
    }

    #[test]
    fn the_suite_given_renders_its_own_tables() {
        let mut r = Record::new("own", "wine", "DT", 0);
        r.metrics.insert("accuracy".into(), 0.75);
        let results = ResultsFile {
            meta: Meta {
                git_commit: "abc".into(),
                rustc_version: "rustc".into(),
                cores: 2,
                date: "today".into(),
                command_line: "cargo xtask bench own".into(),
                solvers: String::new(),
            },
            records: vec![r],
            failures: Vec::new(),
            skipped: Vec::new(),
            skipped_jobs: Vec::new(),
            quick: false,
        };
        let plain = render(&results, &[]).unwrap();
        assert!(plain.contains("Everything measured in `own`"), "{plain}");
        let suites: Vec<Box<dyn Suite>> = vec![Box::new(Own)];
        let own = render(&results, &suites).unwrap();
        assert!(own.contains("OWN TABLES of 1 records"), "{own}");
        assert!(own.contains("OWN SUMMARY"), "{own}");
        assert!(!own.contains("Everything measured"), "{own}");
    }
}
