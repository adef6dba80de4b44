//! Working sets of hinge rows for master LP (3) (see [`crate::rux_lp`],
//! "Working sets of hinge rows").

use serde::{Deserialize, Serialize};

use rulecover_core::Rng;

/// Which training rows' hinge constraints `Σ_j â_ij w_j + v_i ≥ 1` the LP
/// handed to the solver holds. Either way the solution is optimal for LP
/// (3) over every row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum HingeRows {
    /// Every training row's (aggregated by coverage pattern and class).
    All,
    /// A working set of rows, grown until it certifies the optimum of the
    /// LP over every row: rows outside it have no hinge constraint and no
    /// slack `v_i`, which gives a relaxation of (3); after each solve one
    /// pass over all rows adds every row whose margin `Σ_j â_ij w_j` is
    /// below 1, and when none is, the solution (with `v_i = 0` and
    /// `β_i = 0` for the rows outside) is optimal for (3) with optimal
    /// duals. Data with fewer than `min_rows` training rows are solved
    /// with every row (the working set would save nothing there). The
    /// default, with `min_rows` = [`WORKING_SET_MIN_ROWS`].
    Working {
        /// Fewest training rows for which the working set is used.
        min_rows: usize,
    },
}

/// Fewest training rows for which [`HingeRows::default`] solves over a
/// working set of rows.
pub const WORKING_SET_MIN_ROWS: usize = 2_000;

impl Default for HingeRows {
    /// [`HingeRows::Working`] from [`WORKING_SET_MIN_ROWS`] rows.
    fn default() -> Self {
        HingeRows::Working {
            min_rows: WORKING_SET_MIN_ROWS,
        }
    }
}

impl HingeRows {
    /// Whether LPs over `n_rows` training rows start from a working set.
    pub fn uses_working_set(self, n_rows: usize) -> bool {
        match self {
            HingeRows::All => false,
            HingeRows::Working { min_rows } => n_rows >= min_rows.max(1),
        }
    }
}

/// A margin below `1 − HINGE_TOL` puts a row outside the working set into
/// it (the certificate of optimality then holds to this tolerance, far
/// below the solver's own feasibility tolerance).
pub const HINGE_TOL: f64 = 1e-9;

/// The seed of the row sample a working set starts from (fixed: the
/// sample, hence the fit, depends on the data only).
const SAMPLE_SEED: u64 = 0x5275_785f_7773;

/// Rows in the sample a working set starts from: a sixteenth of the rows,
/// at least [`MIN_SAMPLE`].
fn sample_size(n: usize) -> usize {
    (n / 16).max(MIN_SAMPLE).min(n)
}

/// Fewest rows in the starting sample.
const MIN_SAMPLE: usize = 1_000;

/// The starting sample of a working set over `n` rows: a fixed-seed
/// random subset, as a membership mask.
pub(crate) fn starting_sample(n: usize) -> Vec<bool> {
    let mut on = vec![false; n];
    for i in Rng::new(SAMPLE_SEED).sample_indices(n, sample_size(n)) {
        on[i] = true;
    }
    on
}

/// Rows outside the working set `on` whose `margins` are below
/// `1 − HINGE_TOL` join it; returns how many did.
pub(crate) fn add_violated(on: &mut [bool], margins: &[f64]) -> usize {
    let mut added = 0;
    for (a, &m) in on.iter_mut().zip(margins) {
        if !*a && m < 1.0 - HINGE_TOL {
            *a = true;
            added += 1;
        }
    }
    added
}
