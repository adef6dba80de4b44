//! `rc-lp` builds sparse LP and MIP models and solves them with a pure-Rust backend
//! (`minilp`, always built), COIN-OR CBC (feature `cbc`) or HiGHS (feature `highs`).
//! It returns verified LP duals and reduced costs for column generation (RCBoost,
//! RUG), branch-and-bound MIP solutions for set covering (MIRCO), and exports any
//! model to LP or MPS text.
//!
//! ```
//! use rc_lp::{LpSolver, LpStatus, MinilpSolver, Model};
//!
//! // min 2x + 3y  s.t.  x + y >= 4 (r1),  x + 3y >= 6 (r2),  x, y >= 0.
//! // Optimum x = 3, y = 1, objective 9; duals y1 = 1.5, y2 = 0.5 (both rows active).
//! let mut m = Model::minimize();
//! let x = m.add_continuous(0.0, f64::INFINITY, 2.0);
//! let y = m.add_continuous(0.0, f64::INFINITY, 3.0);
//! let r1 = m.add_ge(&[(x, 1.0), (y, 1.0)], 4.0)?;
//! let r2 = m.add_ge(&[(x, 1.0), (y, 3.0)], 6.0)?;
//!
//! let sol = MinilpSolver::new().solve_lp(&m)?;
//! assert_eq!(sol.status, LpStatus::Optimal);
//! assert!((sol.objective - 9.0).abs() < 1e-9);
//! assert!((sol.value(x).unwrap() - 3.0).abs() < 1e-9);
//! assert!((sol.dual(r1).unwrap() - 1.5).abs() < 1e-9);
//! assert!((sol.dual(r2).unwrap() - 0.5).abs() < 1e-9);
//! // Reduced costs d_j = c_j - Σ_i a_ij y_i vanish for the basic x and y.
//! assert!(sol.reduced_cost(y).unwrap().abs() < 1e-9);
//!
//! // Column generation: price a candidate column (cost 2.2, entries 1 in r1 and 2
//! // in r2) with the duals; a negative reduced cost means it improves the LP.
//! let price = 2.2 - (sol.dual(r1).unwrap() * 1.0 + sol.dual(r2).unwrap() * 2.0);
//! assert!((price + 0.3).abs() < 1e-9);
//! let z = m.add_column(2.2, (0.0, f64::INFINITY), &[(r1, 1.0), (r2, 2.0)])?;
//! let sol = MinilpSolver::new().solve_lp(&m)?;
//! // New optimum: x = 2, z = 2 (objective 8.4).
//! assert!((sol.objective - 8.4).abs() < 1e-9);
//! assert!((sol.value(z).unwrap() - 2.0).abs() < 1e-9);
//! # Ok::<(), rc_lp::Error>(())
//! ```
//!
//! # Modules
//!
//! * [`model`]: the builder ([`Model`], [`VarId`], [`RowId`], [`VarKind`], [`Sense`], [`Cmp`]).
//! * [`solver`]: the [`LpSolver`] and [`MipSolver`] traits and their options.
//! * [`solution`]: [`LpSolution`] (with the **dual sign convention**) and [`MipSolution`].
//! * [`backend`]: [`MinilpSolver`], with feature `cbc` `CbcSolver`, with feature
//!   `highs` `HighsSolver`; [`default_lp_solver`] and [`default_mip_solver`] pick
//!   the best one built.
//! * [`export`]: LP and MPS writers.
//!
//! # Duals
//!
//! minilp and CBC (through `coin_cbc`) do not expose LP duals, so they are
//! computed by solving the dual LP (by default restricted by complementary
//! slackness, see [`DualMethod`]) with the same backend. HiGHS reports duals
//! natively. Either way the duals are verified for sign, dual feasibility and
//! strong duality (HiGHS's own duals fall back to the dual LP when they fail); a
//! failed check is [`Error::DualMismatch`], never a silent wrong answer. `y_i = ∂z*/∂b_i` and
//! `d_j = c_j − Σ_i a_ij y_i` in the model's own sense: see [`LpSolution`].
//!
//! # Column generation and warm starts
//!
//! A [`Model`] stays incremental: [`Model::add_column`] appends a column to
//! existing rows in O(nnz of the column) and the next `solve_lp` sees it. HiGHS
//! re-solves such a grown model warm from the previous optimal basis (per thread,
//! see `HighsSolver`). minilp and CBC cannot add a column to a solved LP, so with
//! them each `solve_lp` is a cold solve of the current model (plus a small
//! restricted dual for the duals); minilp's branch-and-bound, however, re-solves
//! every node warm from its parent.
//!
//! # Limits
//!
//! Panics inside a backend are caught and returned as [`Error::BackendPanic`].
//! minilp has no time limit; [`MinilpSolver::max_size`] rejects models that are too
//! large ([`Error::ModelTooLarge`]) and branch-and-bound checks
//! [`MipOptions::time_limit`] between nodes, returning [`MipStatus::TimeLimit`] with
//! the incumbent. CBC and HiGHS receive the time limit directly; `HighsSolver` also
//! takes a time limit per LP solve ([`LpStatus::TimeLimit`]).
//! When a HiGHS run stops without an answer (an error, or a status such as `Solve
//! error`), `HighsSolver` solves the LP again by the next algorithm of
//! `HighsAlgorithm::retry_order`; when every one fails the solve is
//! [`Error::SolveFailed`], naming the LP's size and each algorithm's status.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
// The README example runs as a doctest too.
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

pub mod backend;
mod driver;
mod dual;
pub mod error;
pub mod export;
pub mod model;
pub mod solution;
pub mod solver;

#[cfg(feature = "cbc")]
pub use backend::CbcSolver;
pub use backend::MinilpSolver;
#[cfg(feature = "highs")]
pub use backend::{HighsAlgorithm, HighsSolver};
pub use error::{Error, SolveAttempt};
pub use export::{to_lp_string, to_mps_string, write_lp, write_mps};
pub use model::{Cmp, Model, Row, RowId, Sense, Var, VarId, VarKind};
pub use solution::{LpSolution, LpStatus, MipSolution, MipStatus};
pub use solver::{DualMethod, LpOptions, LpSolver, MipOptions, MipSolver};

/// The fastest LP backend this build has: HiGHS with feature `highs` (native
/// duals, warm starts), else CBC with feature `cbc`, else minilp.
pub fn default_lp_solver() -> Box<dyn LpSolver> {
    #[cfg(feature = "highs")]
    {
        Box::new(HighsSolver::new())
    }
    #[cfg(all(feature = "cbc", not(feature = "highs")))]
    {
        Box::new(CbcSolver::new())
    }
    #[cfg(not(any(feature = "cbc", feature = "highs")))]
    {
        Box::new(MinilpSolver::new())
    }
}

/// The strongest MIP backend this build has: CBC with feature `cbc`, else
/// HiGHS with feature `highs`, else minilp's branch and bound.
pub fn default_mip_solver() -> Box<dyn MipSolver> {
    #[cfg(feature = "cbc")]
    {
        Box::new(CbcSolver::new())
    }
    #[cfg(all(feature = "highs", not(feature = "cbc")))]
    {
        Box::new(HighsSolver::new())
    }
    #[cfg(not(any(feature = "cbc", feature = "highs")))]
    {
        Box::new(MinilpSolver::new())
    }
}
