//! Column generation for rule learning: RCBoost (seed 000) grows a rule
//! pool by pricing with a tree fitted on accumulated LP duals, and RUG
//! (seed 001) does the same for a weighted rule LP with hinge losses.
//!
//! The master LPs are solved through rc-lp; new rules come from any
//! [`PricingOracle`], of which the weighted decision tree is one.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod error;
pub mod master;
pub mod oracle;
pub mod rcboost;

pub use error::{Error, Result};
pub use oracle::{Candidates, OracleError, PricingOracle};
pub use rcboost::{RcBoostModel, RcBoostParams};
