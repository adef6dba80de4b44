//! Which algorithm a cold HiGHS LP solve runs, and the automatic choice
//! from the LP's shape (feature `highs`).

use crate::model::Model;

/// The algorithm of a cold HiGHS LP solve ([`crate::HighsSolver::algorithm`]).
///
/// The algorithms reach the same optimal objective but, on degenerate LPs,
/// not necessarily the same optimal solution: switching the algorithm can
/// change which rules a rule-selection LP keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HighsAlgorithm {
    /// HiGHS's own choice (`solver` = `choose`, `simplex_strategy` = 0):
    /// the simplex, primal when the slack basis is primal feasible, else
    /// dual. The default.
    #[default]
    Choose,
    /// The dual simplex (`simplex_strategy` = 1).
    DualSimplex,
    /// The primal simplex (`simplex_strategy` = 4).
    PrimalSimplex,
    /// The interior-point method IPX followed by crossover to an optimal
    /// basic solution (`solver` = `ipm`, `run_crossover` = `on`).
    InteriorPoint,
    /// IPX without crossover (`run_crossover` = `off`): an optimal solution
    /// to IPX's tolerances in the interior of the optimal face, not a
    /// vertex, so more variables are nonzero than in a basic solution.
    InteriorPointNoCrossover,
    /// [`HighsAlgorithm::DualSimplex`] or [`HighsAlgorithm::InteriorPoint`],
    /// chosen from the model's shape by [`HighsAlgorithm::for_shape`]. The
    /// choice depends on the model only, so a solve stays deterministic.
    Auto,
}

impl HighsAlgorithm {
    /// The algorithm [`HighsAlgorithm::Auto`] runs on an LP with `rows`
    /// constraints and `cols` variables: the interior point with crossover
    /// when the LP has at least [`HighsAlgorithm::AUTO_MIN_ROWS`] rows, at
    /// least [`HighsAlgorithm::AUTO_MIN_COLS`] columns and at least
    /// [`HighsAlgorithm::AUTO_MIN_COLS_PER_ROW`] columns per row, else the
    /// dual simplex. Measured on the rule-selection LPs of RUX and RUG in
    /// their dual form (one row per rule, one bounded column per hinge
    /// class) on the shared data sets and on generated ones of 10⁴ and
    /// 3·10⁴ rows: the dual simplex needs more and more degenerate pivots
    /// as the hinge classes outnumber the rules, while the interior point's
    /// cost grows with the nonzeros only; RUG's master LPs (≤ ~150 rows)
    /// stay on the dual simplex. The measurements are in
    /// docs/PERFORMANCE.md ("RUX/RUG session 7").
    pub fn for_shape(rows: usize, cols: usize) -> HighsAlgorithm {
        if rows >= Self::AUTO_MIN_ROWS
            && cols >= Self::AUTO_MIN_COLS
            && cols >= Self::AUTO_MIN_COLS_PER_ROW * rows
        {
            HighsAlgorithm::InteriorPoint
        } else {
            HighsAlgorithm::DualSimplex
        }
    }

    /// Fewest rows for which [`HighsAlgorithm::for_shape`] picks the
    /// interior point.
    pub const AUTO_MIN_ROWS: usize = 400;

    /// Fewest columns for which [`HighsAlgorithm::for_shape`] picks the
    /// interior point.
    pub const AUTO_MIN_COLS: usize = 10_000;

    /// Fewest columns per row for which [`HighsAlgorithm::for_shape`] picks
    /// the interior point.
    pub const AUTO_MIN_COLS_PER_ROW: usize = 8;

    /// The algorithm that runs on `model`: [`HighsAlgorithm::Auto`] resolved
    /// by [`HighsAlgorithm::for_shape`], any other variant itself.
    pub fn resolve(self, model: &Model) -> HighsAlgorithm {
        match self {
            HighsAlgorithm::Auto => Self::for_shape(model.num_rows(), model.num_vars()),
            a => a,
        }
    }
}
