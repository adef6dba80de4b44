//! Repeated example lines: a line of a `*_pos.txt` or `*_neg.txt` file
//! that gives an example an earlier line of the same file already gave.
//! Loading keeps one copy and counts the others in the split's
//! [`DuplicateExamples`]; [`LoadReport`] gathers them for a warning, and
//! [`DuplicatePolicy::Error`] turns them into a typed error.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The repeated lines of one example file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuplicateExamples {
    /// The examples file.
    pub file: String,
    /// Repeated lines (each dropped: the examples keep one copy).
    pub count: usize,
    /// 1-based line of the first repeat.
    pub first_line: usize,
    /// 1-based line it repeats.
    pub first_of: usize,
    /// The repeated example as it prints, e.g. `advisedby(s1, p1)`.
    pub example: String,
}

impl fmt::Display for DuplicateExamples {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} duplicate example line(s) dropped (the first: line {}, {}, repeats line {})",
            self.file, self.count, self.first_line, self.example, self.first_of
        )
    }
}

/// What to do with repeated example lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DuplicatePolicy {
    /// Keep one copy and report the count (BoostSRL keeps them all).
    #[default]
    Warn,
    /// Refuse the data: [`Error::DuplicateExample`] names the first one.
    Error,
}

/// What loading a problem noticed without failing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadReport {
    /// Example files with repeated lines, train split first.
    pub duplicates: Vec<DuplicateExamples>,
}

impl LoadReport {
    /// Repeated example lines in all files.
    pub fn n_duplicates(&self) -> usize {
        self.duplicates.iter().map(|d| d.count).sum()
    }

    /// True when nothing was noticed.
    pub fn is_clean(&self) -> bool {
        self.duplicates.is_empty()
    }

    /// One warning line per file with repeated lines.
    pub fn warnings(&self) -> Vec<String> {
        self.duplicates.iter().map(ToString::to_string).collect()
    }

    /// `Ok` under [`DuplicatePolicy::Warn`] or without repeats; otherwise
    /// the error of the first repeated line.
    pub fn check(&self, policy: DuplicatePolicy) -> Result<()> {
        match (policy, self.duplicates.first()) {
            (DuplicatePolicy::Error, Some(d)) => Err(Error::DuplicateExample {
                file: d.file.clone(),
                line: d.first_line,
                example: d.example.clone(),
                first_of: d.first_of,
                count: d.count,
            }),
            _ => Ok(()),
        }
    }
}
