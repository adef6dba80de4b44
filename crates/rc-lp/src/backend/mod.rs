//! Solver backends: [`MinilpSolver`] (always built) and `CbcSolver` (feature `cbc`).

#[cfg(feature = "cbc")]
pub mod cbc;
pub mod minilp;

#[cfg(feature = "cbc")]
pub use self::cbc::CbcSolver;
pub use self::minilp::MinilpSolver;
