//! Which algorithm a cold HiGHS LP solve runs, the automatic choice from
//! the LP's shape, and the order in which algorithms are retried when one
//! fails (feature `highs`).
//!
//! # Retries
//!
//! HiGHS can stop without an answer: a run that returns `Error` (IPX, the
//! interior point, fails this way on the 400 × 99,599 dual-form LP of
//! `rux-rf` on 10⁵ twonorm rows: the conjugate residual solve of its
//! starting point stops at its limit of m + 100 iterations, IPX's
//! `cr_iter_limit`, a known weakness on LPs with far fewer rows than
//! columns), or a model status that is neither an
//! answer (optimal, infeasible, unbounded) nor the time limit the caller
//! set (`Solve error`, `Reached iteration limit`, …). The solver then runs
//! the next algorithm of [`HighsAlgorithm::retry_order`] on the same LP:
//! a fixed order that depends on nothing but the algorithm asked for and
//! the model's shape, so a solve stays deterministic. A retry solves the
//! same LP, so it reaches the same optimal objective; on a degenerate LP
//! it may stop at another optimal vertex (other primal values and duals).
//! When every algorithm fails, the solve is [`crate::Error::SolveFailed`],
//! naming the LP's size, each algorithm tried and how HiGHS stopped.
//! PDLP (HiGHS's first-order solver, which the `highs` crate can select
//! by option) is not in the order: it stops at a point within a relative
//! tolerance of optimal, not at an optimal vertex, so it would not give the
//! same optimum that the callers' verification expects.

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

    /// The algorithms a cold solve of `model` tries, in order, when each one
    /// before fails (see the module documentation): this algorithm resolved
    /// by [`HighsAlgorithm::resolve`], then those of
    /// [`HighsAlgorithm::FALLBACKS`] that are not already in the list. The
    /// order depends on this algorithm and the model's shape only.
    pub fn retry_order(self, model: &Model) -> Vec<HighsAlgorithm> {
        let mut order = vec![self.resolve(model)];
        for a in Self::FALLBACKS {
            if !order.contains(&a) {
                order.push(a);
            }
        }
        order
    }

    /// The algorithms tried after the first fails, in order: the dual
    /// simplex (robust on the small and medium LPs of column generation),
    /// then the interior point with crossover (a method with another
    /// failure mode, and an optimal vertex as the simplex gives).
    pub const FALLBACKS: [HighsAlgorithm; 2] =
        [HighsAlgorithm::DualSimplex, HighsAlgorithm::InteriorPoint];

    /// The algorithm's name in messages (`dual simplex`, `interior point
    /// with crossover`, …).
    pub fn name(self) -> &'static str {
        match self {
            HighsAlgorithm::Choose => "simplex of HiGHS's choice",
            HighsAlgorithm::DualSimplex => "dual simplex",
            HighsAlgorithm::PrimalSimplex => "primal simplex",
            HighsAlgorithm::InteriorPoint => "interior point with crossover",
            HighsAlgorithm::InteriorPointNoCrossover => "interior point without crossover",
            HighsAlgorithm::Auto => "automatic choice",
        }
    }
}

impl std::fmt::Display for HighsAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
