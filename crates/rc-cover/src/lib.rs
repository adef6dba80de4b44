//! Rule selection over a fixed pool of rules: MIRCO, the minimum-cost rule
//! cover of a tree ensemble (seed 000), and RUX, the linear program that
//! picks and weights rules (seed 001).
//!
//! A pool comes from any [`rulecover_core::RuleSource`] — a random forest, a
//! boosted ensemble, or rules from elsewhere. Both learners select from a
//! given fitted ensemble ([`SelectFrom::fit_from`], taking the ensemble's
//! encoder), fit their own ensemble first ([`rulecover_core::Fit`]: the
//! params own the ensemble's params), or select from a plain rule source
//! whose rules index the training columns as they are
//! ([`MircoParams::select`], [`RuxParams::select`]). All accept sample
//! weights with replication semantics ([`row_weights`]). MIRCO keeps a handful of its
//! rules such that every training row is covered, preferring pure rules,
//! and predicts by the class-count vote of the rules a row satisfies.
//!
//! ```
//! use rulecover_core::{Condition, CoverageMatrix, Dataset, Feature, PoolRule, Predict, Rule, RuleModel, RuleSource, Target};
//! use rc_cover::MircoParams;
//!
//! /// Three hand-written rules on one feature.
//! struct Rules;
//! impl RuleSource for Rules {
//!     fn rule_pool(&self) -> Vec<PoolRule> {
//!         let r = |c: Vec<Condition>| PoolRule { rule: Rule::new(c), estimator: 0, node: 0, estimator_weight: 1.0 };
//!         vec![
//!             r(vec![Condition::le(0, 2.5)]),                          // rows 0-2, pure class 0
//!             r(vec![Condition::gt(0, 2.5)]),                          // rows 3-5, pure class 1
//!             r(vec![Condition::gt(0, 1.5)]),                          // rows 2-5, impure
//!         ]
//!     }
//! }
//! let data = Dataset::new(
//!     "line",
//!     vec![Feature::numeric("x")],
//!     vec![vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]],
//!     Target::Classes { labels: vec![0, 0, 0, 1, 1, 1], names: vec!["a".into(), "b".into()] },
//! )?;
//! let model = MircoParams::default().select(&Rules, &data)?;
//! assert_eq!(model.n_rules(), 2);       // the two pure rules, cost 1 each
//! let labels = model.predict(&data)?.labels().unwrap();
//! assert_eq!(labels, vec![0, 0, 0, 1, 1, 1]);
//! println!("{}", model.render_rules());  // if x <= 2.5 then class a [3, 0] ...
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// The README example runs as a doctest too.
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

pub mod error;
pub mod exact;
pub mod export;
pub mod greedy;
pub mod input;
pub mod mirco;
pub mod pool;
pub mod proba;
pub mod row_weights;
pub mod rux;
pub mod rux_lp;
pub mod select;
pub mod vote;
pub mod weighted;

pub use error::{Error, Result};
pub use exact::CoverStatus;
pub use greedy::{greedy_set_cover, greedy_set_cover_weighted, GreedyCover};
pub use mirco::{CoverSolver, MircoModel, MircoParams};
pub use pool::{Impurity, LabeledPool, RuleStats};
pub use proba::{RuleProba, Smoothing};
pub use rux::{LeafLabel, RuleCost, RuxBase, RuxParams, Uncovered};
pub use rux_lp::{ColumnPolicy, CoverageRows, HingeRows, LpForm, RuleLp, RuleLpSolution};
pub use select::SelectFrom;
pub use vote::vote;
pub use weighted::{CaseStudy, Fallback, MulticlassVote, ScoredRule, WeightedRuleModel};
