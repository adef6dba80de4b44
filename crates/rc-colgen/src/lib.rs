//! Column generation for rule learning: RCBoost (seed 000) grows a rule
//! pool by pricing with a tree fitted on accumulated LP duals, and RUG
//! (seed 001) does the same for a weighted rule LP with hinge losses.
//!
//! The master LPs are solved through rc-lp; new rules come from any
//! [`PricingOracle`], of which the weighted decision tree is one.
//!
//! ```
//! use rc_colgen::RcBoostParams;
//! use rulecover_core::{generate, metrics::accuracy, Fit, Predict, RuleModel};
//!
//! let train = generate::twonorm(400, 1);
//! let test = generate::twonorm(400, 2);
//! let model = RcBoostParams::default().max_depth(3).max_rmp_calls(10).fit(&train)?;
//! let predicted = model.predict(&test)?.labels().unwrap();
//! let acc = accuracy(&test.labels()?, &predicted)?;
//! // Far above chance (0.5); the exact value depends on which of the
//! // degenerate master's optimal duals the LP backend returns.
//! assert!(acc > 0.75, "accuracy {acc}");
//! // The master objective never increases as rules are added.
//! assert!(model.objectives().windows(2).all(|w| w[1] <= w[0] + 1e-7));
//! println!("{} rules after {} LP solves", model.n_rules(), model.lp_solves());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// The README example runs as a doctest too.
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

pub mod error;
pub mod master;
pub mod oracle;
pub mod rcboost;
pub mod rug;
pub mod tree_oracle;

pub use error::{Error, Result};
pub use oracle::{Candidates, OracleError, PricingOracle};
pub use rcboost::{RcBoostModel, RcBoostParams};
pub use rug::{RugModel, RugParams, StopReason};
pub use tree_oracle::TreeOracle;

/// The default LP solver for master problems: [`rc_lp::default_lp_solver`],
/// i.e. HiGHS with feature `highs` (warm-started column generation), else CBC
/// with feature `cbc`, else minilp.
pub fn default_lp_solver() -> Box<dyn rc_lp::LpSolver> {
    rc_lp::default_lp_solver()
}
