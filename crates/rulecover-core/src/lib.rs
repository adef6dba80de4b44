//! The shared vocabulary of rulecover: datasets, rules and rule sets,
//! coverage, the traits the algorithm crates implement, evaluation metrics,
//! cross-validation, and the atomic file write every crate uses
//! ([`fs`]).
//!
//! Every other crate of the workspace builds on these types: a learner
//! takes a [`Dataset`], a rule model exposes [`Rule`]s through
//! [`RuleModel`], and ensembles hand out rule pools through [`RuleSource`].
//!
//! ```
//! use rulecover_core::{Condition, Dataset, Feature, Rule, Target};
//!
//! let data = Dataset::new(
//!     "patients",
//!     vec![Feature::numeric("age"), Feature::numeric("bmi")],
//!     vec![vec![30.0, 60.0, 45.0], vec![22.0, 31.0, 27.5]],
//!     Target::Classes { labels: vec![0, 1, 1], names: vec!["healthy".into(), "ill".into()] },
//! )?;
//! let rule = Rule::new(vec![Condition::gt(0, 40.0), Condition::le(1, 29.1)]);
//! assert_eq!(rule.display(data.features()).to_string(), "age > 40 and bmi <= 29.1");
//! assert_eq!(rule.coverage(&data).iter().collect::<Vec<_>>(), vec![2]);
//! # Ok::<(), rulecover_core::Error>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// The README example runs as a doctest too.
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

pub mod bitset;
pub mod calibration;
pub mod coverage;
pub mod csv;
pub mod cv;
pub mod dataset;
pub mod envelope;
pub mod error;
pub mod fs;
pub mod generate;
pub mod metrics;
pub mod mt19937;
pub mod one_vs_rest;
pub mod params;
pub mod predictions;
pub mod rng;
pub mod rule;
pub mod ruleset;
pub mod schema;
pub mod scoring;
pub mod shared;
#[cfg(feature = "testing")]
pub mod testing;
pub mod traits;
pub mod validate;
pub mod weights;
pub mod zeror;

pub use bitset::BitSet;
pub use coverage::CoverageMatrix;
pub use dataset::{Dataset, Feature, FeatureKind, Target};
pub use envelope::{Envelope, EnvelopeError, Subject};
pub use error::{Error, Result};
pub use one_vs_rest::{ClassModel, OneVsRest, OneVsRestError, OneVsRestModel};
pub use params::{CheckParams, Checked};
pub use predictions::Predictions;
pub use rng::Rng;
pub use rule::{Condition, Op, Rule};
pub use ruleset::{Antecedent, ObliqueCondition, Outcome, RuleSet, WeightedRule};
pub use schema::{Encoder, Encoding, Schema, TargetSchema, UnseenLevel};
pub use traits::{Fit, Fitted, PoolRule, Predict, Reseed, RuleModel, RuleSource};
pub use validate::{InvalidModel, Validate};
pub use zeror::{ZeroR, ZeroRModel, ZeroRPrediction};

/// The traits and types most programs need: `use rulecover_core::prelude::*;`.
pub mod prelude {
    pub use crate::{
        Dataset, Encoding, Feature, Fit, Fitted, Predict, Predictions, RuleModel, RuleSet,
        RuleSource, Schema, Target, UnseenLevel,
    };
}
