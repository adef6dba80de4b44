//! Chvátal's greedy heuristic for weighted set cover, with the exact
//! semantics of the MIRCO authors' code (Algorithm S.1 of seed 000):
//!
//! * the ratio is `cost_j / |I(j) ∩ R|` over the rows `R` still uncovered;
//! * ties go to the lowest column index;
//! * afterwards the selected columns are sorted by (cost, index) and the
//!   shortest prefix that still covers every row is kept (redundancy
//!   removal).
//!
//! The implementation is lazy: a column's ratio can only grow as rows get
//! covered, so a heap of possibly stale ratios yields the true minimum
//! after re-checking its top. Total work is O(nnz · log columns).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rulecover_core::CoverageMatrix;

use crate::error::Error;

/// A heap entry: smallest (ratio, column) first.
#[derive(Debug, PartialEq)]
struct Candidate {
    ratio: f64,
    column: usize,
}

impl Eq for Candidate {}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed for a min-heap on (ratio, column).
        other
            .ratio
            .total_cmp(&self.ratio)
            .then_with(|| other.column.cmp(&self.column))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The columns chosen by the greedy, before and after redundancy removal.
#[derive(Debug, Clone, PartialEq)]
pub struct GreedyCover {
    /// Columns in the order the greedy picked them.
    pub picked: Vec<usize>,
    /// Columns kept after redundancy removal, sorted by (cost, index).
    pub selected: Vec<usize>,
}

/// Runs the greedy on `coverage` with column costs `costs` (all > 0).
///
/// Fails when some row is covered by no column (the cover is infeasible)
/// or when a cost is not positive and finite.
pub fn greedy_set_cover(coverage: &CoverageMatrix, costs: &[f64]) -> Result<GreedyCover, Error> {
    greedy_set_cover_weighted(coverage, costs, &vec![1.0; coverage.n_rows()])
}

/// [`greedy_set_cover`] with a sample weight per row (replication
/// semantics): a column's ratio is its cost over the total weight of the
/// uncovered rows it covers, so a row of weight `m` counts as `m` copies;
/// rows of weight 0 need not be covered.
pub fn greedy_set_cover_weighted(
    coverage: &CoverageMatrix,
    costs: &[f64],
    row_weights: &[f64],
) -> Result<GreedyCover, Error> {
    let n_cols = coverage.n_rules();
    if row_weights.len() != coverage.n_rows() {
        return Err(Error::Shape(format!(
            "{} row weights for {} rows",
            row_weights.len(),
            coverage.n_rows()
        )));
    }
    if let Some(i) = row_weights
        .iter()
        .position(|w| !(w.is_finite() && *w >= 0.0))
    {
        return Err(Error::InvalidParameter {
            name: "sample_weight",
            value: row_weights[i].to_string(),
            reason: format!("row {i}: weights must be finite and non-negative"),
        });
    }
    if costs.len() != n_cols {
        return Err(Error::Shape(format!(
            "{} costs for {} columns",
            costs.len(),
            n_cols
        )));
    }
    if let Some((j, c)) = costs
        .iter()
        .enumerate()
        .find(|(_, c)| !(c.is_finite() && **c > 0.0))
    {
        return Err(Error::InvalidCost {
            column: j,
            cost: *c,
        });
    }
    let uncovered_rows: Vec<usize> = coverage
        .uncovered_rows()
        .into_iter()
        .filter(|&i| row_weights[i] > 0.0)
        .collect();
    if !uncovered_rows.is_empty() {
        return Err(Error::Uncoverable {
            rows: uncovered_rows.len(),
            first: uncovered_rows[0],
        });
    }
    let by_row = coverage.rules_by_row();
    // Rows of weight 0 count as covered from the start.
    let mut covered: Vec<bool> = row_weights.iter().map(|&w| w == 0.0).collect();
    let mut left = covered.iter().filter(|&&c| !c).count();
    // Uncovered rows of each column, and their total weight (a sum and
    // differences of whole numbers under unit or integer weights, hence
    // exact).
    let mut remaining = vec![0usize; n_cols];
    let mut remaining_weight = vec![0.0f64; n_cols];
    for j in 0..n_cols {
        for &i in coverage.rows_of(j) {
            if !covered[i as usize] {
                remaining[j] += 1;
                remaining_weight[j] += row_weights[i as usize];
            }
        }
    }
    let mut heap: BinaryHeap<Candidate> = (0..n_cols)
        .filter(|&j| remaining[j] > 0)
        .map(|j| Candidate {
            ratio: costs[j] / remaining_weight[j],
            column: j,
        })
        .collect();
    let mut picked = Vec::new();
    while left > 0 {
        let Some(top) = heap.pop() else {
            break; // unreachable: every row has a covering column
        };
        let j = top.column;
        if remaining[j] == 0 {
            continue;
        }
        let ratio = costs[j] / remaining_weight[j];
        if ratio != top.ratio {
            heap.push(Candidate { ratio, column: j });
            continue;
        }
        picked.push(j);
        for &i in coverage.rows_of(j) {
            let i = i as usize;
            if !covered[i] {
                covered[i] = true;
                left -= 1;
                for &k in &by_row[i] {
                    remaining[k as usize] -= 1;
                    remaining_weight[k as usize] -= row_weights[i];
                }
            }
        }
    }
    let selected = remove_redundant(coverage, costs, &picked);
    Ok(GreedyCover { picked, selected })
}

/// Sorts `columns` by (cost, index) and keeps the shortest prefix that
/// covers every row the whole list covers.
pub fn remove_redundant(coverage: &CoverageMatrix, costs: &[f64], columns: &[usize]) -> Vec<usize> {
    let mut order = columns.to_vec();
    order.sort_by(|&a, &b| costs[a].total_cmp(&costs[b]).then(a.cmp(&b)));
    let mut target = vec![false; coverage.n_rows()];
    let mut need = 0;
    for &j in &order {
        for &i in coverage.rows_of(j) {
            if !target[i as usize] {
                target[i as usize] = true;
                need += 1;
            }
        }
    }
    let mut covered = vec![false; coverage.n_rows()];
    let mut have = 0;
    for (k, &j) in order.iter().enumerate() {
        if have == need {
            order.truncate(k);
            break;
        }
        for &i in coverage.rows_of(j) {
            if !covered[i as usize] {
                covered[i as usize] = true;
                have += 1;
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(n: usize, cols: &[&[u32]]) -> CoverageMatrix {
        CoverageMatrix::from_columns(n, cols.iter().map(|c| c.to_vec()).collect())
    }

    #[test]
    fn picks_best_ratio_then_removes_redundant() {
        // rows 0..6; column 0 covers 0-3 (cost 2: ratio .5), column 1
        // covers 3-5 (cost 1.2: ratio .4 → picked first), column 2 covers
        // 0-2 (cost 1: ratio 1/3 → picked first!).
        let cov = m(6, &[&[0, 1, 2, 3], &[3, 4, 5], &[0, 1, 2]]);
        let g = greedy_set_cover(&cov, &[2.0, 1.2, 1.0]).unwrap();
        assert_eq!(g.picked, vec![2, 1]);
        assert_eq!(g.selected, vec![2, 1]);
    }

    #[test]
    fn ties_go_to_lowest_index() {
        let cov = m(2, &[&[0], &[0], &[1]]);
        let g = greedy_set_cover(&cov, &[1.0, 1.0, 1.0]).unwrap();
        assert_eq!(g.picked, vec![0, 2]);
    }

    #[test]
    fn denominator_counts_only_uncovered_rows() {
        // After column 0 (ratio 1/3) covers rows 0-2, column 1 (cost 1.5,
        // covers 0-3) has one uncovered row: ratio 1.5; column 2 (cost 1.2,
        // covers 3) has ratio 1.2 and wins. With |I(j)| as denominator
        // column 1 (1.5/4) would have won.
        let cov = m(4, &[&[0, 1, 2], &[0, 1, 2, 3], &[3]]);
        let g = greedy_set_cover(&cov, &[1.0, 1.5, 1.2]).unwrap();
        assert_eq!(g.picked, vec![0, 2]);
    }

    #[test]
    fn redundancy_removal_keeps_cheapest_covering_prefix() {
        // Picked order 0, 1, 2; by cost: 2 (0.5), 1 (1), 0 (3). Columns 2
        // and 1 already cover everything, so 0 is dropped.
        let cov = m(4, &[&[0, 1, 2, 3], &[0, 1], &[2, 3]]);
        assert_eq!(
            remove_redundant(&cov, &[3.0, 1.0, 0.5], &[0, 1, 2]),
            vec![2, 1]
        );
    }

    #[test]
    fn uncoverable_row_is_an_error() {
        let cov = m(3, &[&[0], &[1]]);
        assert!(matches!(
            greedy_set_cover(&cov, &[1.0, 1.0]),
            Err(Error::Uncoverable { rows: 1, first: 2 })
        ));
        assert!(matches!(
            greedy_set_cover(&m(1, &[&[0]]), &[0.0]),
            Err(Error::InvalidCost { column: 0, .. })
        ));
    }
}
