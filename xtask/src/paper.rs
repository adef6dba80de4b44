//! The papers' published tables, transcribed from
//! `../shared/papers/*.notes.md` into `xtask/paper/*.json` (corrected
//! readings where the notes mark a printed cell as wrong).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::{Error, Result};

/// One published cell.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Cell {
    /// The value we compare against (most precise reading available).
    pub mean: f64,
    /// The published standard deviation, if any.
    pub std: Option<f64>,
    /// The value as printed in the paper, when it differs in precision.
    pub printed: Option<f64>,
}

/// Where a table's values live in our records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// `Record::metrics`.
    Metrics,
    /// `Record::size`.
    Size,
    /// `Record::time_s`.
    Time,
}

/// One published table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Table {
    /// The paper's label ("S.2", "Table 1", ...).
    pub id: String,
    /// What it shows.
    pub caption: String,
    /// Suites whose results fill it.
    pub suites: Vec<String>,
    /// Which record map holds the value.
    pub source: Source,
    /// The key in that map.
    pub key: String,
    /// Whether larger values are better (for the summary line).
    pub higher_is_better: bool,
    /// The methods (columns), in the paper's order.
    pub columns: Vec<String>,
    /// dataset → method → cell.
    pub rows: BTreeMap<String, BTreeMap<String, Cell>>,
    /// Absolute difference within which a cell counts as reproduced, in
    /// the table's own unit (absent: `report::TOLERANCE`, 0.02, for
    /// accuracies, AUCs and Brier scores; e.g. 1.0 for an error in %).
    #[serde(default)]
    pub tolerance: Option<f64>,
}

/// One paper's transcribed results.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Paper {
    /// Seed number ("000").
    pub paper: String,
    /// Title and authors.
    pub title: String,
    /// Where the numbers come from.
    pub source: String,
    /// The tables.
    pub tables: Vec<Table>,
}

const PAPERS: &[(&str, &str)] = &[
    ("000", include_str!("../paper/000.json")),
    ("001", include_str!("../paper/001.json")),
    ("002", include_str!("../paper/002.json")),
    ("003", include_str!("../paper/003.json")),
    ("004", include_str!("../paper/004.json")),
];

/// Every transcribed paper.
pub fn papers() -> Result<Vec<Paper>> {
    PAPERS
        .iter()
        .map(|(id, text)| {
            serde_json::from_str(text).map_err(|e| Error::Parse {
                file: format!("xtask/paper/{id}.json"),
                message: e.to_string(),
            })
        })
        .collect()
}

/// The tables a suite fills, with their paper.
pub fn tables_for_suite(suite: &str) -> Result<Vec<(String, Table)>> {
    Ok(papers()?
        .into_iter()
        .flat_map(|p| {
            let id = p.paper.clone();
            p.tables
                .into_iter()
                .filter(|t| t.suites.iter().any(|s| s == suite))
                .map(move |t| (id.clone(), t))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcribed_tables_parse_and_have_all_datasets() {
        let ps = papers().unwrap();
        let p0 = ps.iter().find(|p| p.paper == "000").unwrap();
        let s2 = p0.tables.iter().find(|t| t.id == "S.2").unwrap();
        assert_eq!(s2.rows.len(), 15);
        assert_eq!(s2.columns, vec!["DT", "RF", "MIRCO"]);
        assert_eq!(s2.rows["ionosphere"]["DT"].mean, 0.8746);
        assert_eq!(s2.rows["ionosphere"]["DT"].std, Some(0.07));
    }
}
