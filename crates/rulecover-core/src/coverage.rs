//! Bitsets of covered rows and sparse rule-by-row coverage matrices.

use serde::{Deserialize, Serialize};

use crate::dataset::Dataset;
use crate::rule::Rule;

/// A fixed-size set of row indices.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BitSet {
    len: usize,
    words: Vec<u64>,
}

impl BitSet {
    /// An empty set over `len` rows.
    pub fn new(len: usize) -> Self {
        BitSet {
            len,
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// The set of all `len` rows.
    pub fn full(len: usize) -> Self {
        let mut s = BitSet::new(len);
        for i in 0..len {
            s.insert(i);
        }
        s
    }

    /// Number of rows the set ranges over.
    pub fn universe(&self) -> usize {
        self.len
    }

    /// Adds row `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Removes row `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.words[i / 64] &= !(1 << (i % 64));
    }

    /// Whether row `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        i < self.len && self.words[i / 64] & (1 << (i % 64)) != 0
    }

    /// Number of rows in the set.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when the set has no rows.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    /// Rows in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + b)
            })
        })
    }

    /// In-place union.
    pub fn union_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// In-place intersection.
    pub fn intersect_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= b;
        }
    }

    /// In-place difference (`self \ other`).
    pub fn difference_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= !b;
        }
    }

    /// Size of the intersection with `other`, without allocating.
    pub fn intersection_count(&self, other: &BitSet) -> usize {
        self.words
            .iter()
            .zip(&other.words)
            .map(|(a, b)| (a & b).count_ones() as usize)
            .sum()
    }
}

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
    fn bitset_basic_operations() {
        let mut a = BitSet::new(130);
        for i in [0, 63, 64, 129] {
            a.insert(i);
        }
        assert_eq!(a.count(), 4);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 63, 64, 129]);
        let mut b = BitSet::new(130);
        b.insert(64);
        b.insert(5);
        assert_eq!(a.intersection_count(&b), 1);
        a.difference_with(&b);
        assert!(!a.contains(64));
        a.union_with(&b);
        assert_eq!(a.count(), 5);
        assert!(!a.contains(500));
    }

    #[test]
    fn transpose_and_uncovered() {
        let m = CoverageMatrix::from_columns(4, vec![vec![0, 2], vec![2, 3]]);
        assert_eq!(m.rules_by_row(), vec![vec![0], vec![], vec![0, 1], vec![1]]);
        assert_eq!(m.uncovered_rows(), vec![1]);
    }
}
