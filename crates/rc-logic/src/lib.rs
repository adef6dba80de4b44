//! Relational learning in the BoostSRL style: a parser for BoostSRL data
//! (facts, examples, mode declarations), a fact store indexed by bound
//! argument positions, θ-subsumption and clause coverage, relational
//! regression trees, and their ensembles by boosting (RFGB) and bagging.
//! CoTE ([`cote`]) compresses such an ensemble into one ordered decision
//! list of clauses, logically equivalent (SCoTE) or equivalent on the
//! training examples (ECoTE).
//!
//! ```
//! use rc_logic::data::{Problem, SplitText};
//! use rc_logic::rfgb::BoostParams;
//!
//! // A tiny world: a person is someone's father when male and a parent.
//! let background = "father(+person,+person).\nmale(+person).\nparent(+person,+person).\n";
//! let facts = "male(tom). male(bob). male(jim). parent(tom,bob). parent(bob,ann).\n\
//!              parent(ann,jim). parent(eve,tom). male(sam). parent(sam,eve). parent(liz,sam).\n";
//! let pos = "father(tom,bob). father(bob,ann). father(sam,eve).\n";
//! let neg = "father(ann,jim). father(eve,tom). father(bob,tom). father(jim,ann).\n\
//!            father(liz,sam). father(tom,ann). father(sam,tom).\n";
//! let train = SplitText { facts: (facts, "facts"), pos: (pos, "pos"), neg: (neg, "neg") };
//! let problem = Problem::from_texts((background, "bk"), "father", train, None)?;
//!
//! // Three small boosted trees; every test may cover a single example here.
//! let mut params = BoostParams::default().n_trees(3).neg_ratio(None).seed(1);
//! params.tree = params.tree.min_cover(1.0).min_split(2.0);
//! let model = params.fit(&problem)?;
//! println!("{}", model.render());
//!
//! let p = model.predict_proba(&problem.train);
//! let labels = &problem.train.examples.labels;
//! let (pos_min, neg_max) = labels.iter().zip(&p).fold((1.0f64, 0.0f64), |(lo, hi), (&l, &q)| {
//!     if l { (lo.min(q), hi) } else { (lo, hi.max(q)) }
//! });
//! assert!(pos_min > neg_max, "every father ranks above every non-father");
//! # Ok::<(), rc_logic::Error>(())
//! ```
//!
//! # Modules
//!
//! - [`parser`], [`data`]: the BoostSRL text format and loading of a
//!   problem (background, train and test splits) with typed errors that
//!   name the file and line.
//! - [`symbols`], [`term`]: interned symbols, terms, atoms, clauses,
//!   substitutions.
//! - [`facts`]: the fact store; [`coverage`]: the backtracking matcher
//!   (most-constrained literal first, forward checking, independent
//!   components); [`subsume`]: θ-subsumption with head variables fixed;
//!   [`groups`]: predicate groups.
//! - [`refine`], [`learn`], [`tree`]: refinements from modes, the tree
//!   learner, relational regression trees.
//! - [`rfgb`], [`bagging`], [`ensemble`]: boosting, bagging, ensembles.
//! - [`metrics`]: AUC-ROC, AUC-PR (Davis–Goadrich and trapezoid), CLL.
//! - [`cote`]: decision lists, SCoTE, ECoTE; [`softlabel`]: the
//!   soft-labels baseline.
//! - [`persist`]: ensembles and decision lists saved to and loaded from
//!   JSON files; [`rebind`]: a loaded model moved onto the symbol ids of
//!   data loaded in another process.
//! - [`synthetic`]: a generated UW-CSE-like problem of any size, for
//!   measurements at scale.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// The README example runs as a doctest too.
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

pub mod bagging;
pub mod cote;
pub mod coverage;
pub mod data;
pub mod duplicates;
pub mod ensemble;
pub mod error;
pub mod facts;
pub mod groups;
pub mod learn;
pub mod metrics;
mod model_check;
pub mod parser;
pub mod persist;
pub mod rebind;
pub mod refine;
pub mod rfgb;
pub mod softlabel;
pub mod subsume;
pub mod symbols;
pub mod synthetic;
pub mod term;
pub mod tree;

pub use bagging::BaggingParams;
pub use data::{Problem, Split, SplitText};
pub use duplicates::{DuplicateExamples, DuplicatePolicy, LoadReport};
pub use ensemble::{Combine, TreeEnsemble};
pub use error::{Error, Result};
pub use learn::TreeParams;
pub use rfgb::BoostParams;
