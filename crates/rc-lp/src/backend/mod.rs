//! Solver backends: [`MinilpSolver`] (always built), `CbcSolver` (feature `cbc`)
//! and `HighsSolver` (feature `highs`).

#[cfg(feature = "cbc")]
pub mod cbc;
#[cfg(feature = "highs")]
pub mod highs;
#[cfg(feature = "highs")]
mod highs_algorithm;
pub mod minilp;

#[cfg(feature = "cbc")]
pub use self::cbc::CbcSolver;
#[cfg(feature = "highs")]
pub use self::highs::{HighsAlgorithm, HighsSolver};
pub use self::minilp::MinilpSolver;
