//! Sparse rule-by-row coverage matrices: which rows each rule of a pool
//! covers.

use serde::{Deserialize, Serialize};

use crate::bitset::BitSet;
use crate::dataset::Dataset;
use crate::rule::Rule;

/// Which rows each rule of a pool covers: a sparse 0/1 matrix stored by
/// column (one sorted row list per rule), with the row-wise transpose
/// available on demand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoverageMatrix {
    n_rows: usize,
    columns: Vec<Vec<u32>>,
}

impl CoverageMatrix {
    /// A matrix from per-rule row lists (each sorted increasingly, all
    /// `< n_rows`).
    pub fn from_columns(n_rows: usize, columns: Vec<Vec<u32>>) -> Self {
        debug_assert!(
            columns
                .iter()
                .all(|c| c.windows(2).all(|w| w[0] < w[1])
                    && c.iter().all(|&r| (r as usize) < n_rows))
        );
        CoverageMatrix { n_rows, columns }
    }

    /// Evaluates every rule on every row of `data`.
    pub fn from_rules<'a>(rules: impl IntoIterator<Item = &'a Rule>, data: &Dataset) -> Self {
        let n = data.n_rows();
        let mut row = vec![0.0; data.n_features()];
        let rules: Vec<&Rule> = rules.into_iter().collect();
        let mut columns = vec![Vec::new(); rules.len()];
        for i in 0..n {
            data.row_into(i, &mut row);
            for (col, r) in columns.iter_mut().zip(&rules) {
                if r.covers_row(&row) {
                    col.push(i as u32);
                }
            }
        }
        CoverageMatrix { n_rows: n, columns }
    }

    /// Number of rows (samples).
    pub fn n_rows(&self) -> usize {
        self.n_rows
    }

    /// Number of rules (columns).
    pub fn n_rules(&self) -> usize {
        self.columns.len()
    }

    /// Rows covered by rule `j`, increasing.
    pub fn rows_of(&self, j: usize) -> &[u32] {
        &self.columns[j]
    }

    /// Appends a rule's column (sorted row list).
    pub fn push_column(&mut self, rows: Vec<u32>) {
        debug_assert!(rows.windows(2).all(|w| w[0] < w[1]));
        self.columns.push(rows);
    }

    /// Appends all columns of `other` (same number of rows).
    pub fn extend(&mut self, other: CoverageMatrix) {
        debug_assert_eq!(self.n_rows, other.n_rows);
        self.columns.extend(other.columns);
    }

    /// Rules covering each row (the transpose), rules increasing.
    pub fn rules_by_row(&self) -> Vec<Vec<u32>> {
        let mut rows = vec![Vec::new(); self.n_rows];
        for (j, col) in self.columns.iter().enumerate() {
            for &i in col {
                rows[i as usize].push(j as u32);
            }
        }
        rows
    }

    /// Column `j` as a bitset.
    pub fn bitset(&self, j: usize) -> BitSet {
        let mut s = BitSet::new(self.n_rows);
        for &i in &self.columns[j] {
            s.insert(i as usize);
        }
        s
    }

    /// Rows covered by no rule.
    pub fn uncovered_rows(&self) -> Vec<usize> {
        let mut covered = vec![false; self.n_rows];
        for col in &self.columns {
            for &i in col {
                covered[i as usize] = true;
            }
        }
        (0..self.n_rows).filter(|&i| !covered[i]).collect()
    }

    /// Keeps only the given columns, in the given order.
    pub fn select(&self, columns: &[usize]) -> CoverageMatrix {
        CoverageMatrix {
            n_rows: self.n_rows,
            columns: columns.iter().map(|&j| self.columns[j].clone()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_and_uncovered() {
        let m = CoverageMatrix::from_columns(4, vec![vec![0, 2], vec![2, 3]]);
        assert_eq!(m.rules_by_row(), vec![vec![0], vec![], vec![0, 1], vec![1]]);
        assert_eq!(m.uncovered_rows(), vec![1]);
    }
}
