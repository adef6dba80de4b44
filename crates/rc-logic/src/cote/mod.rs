//! CoTE: compression of a relational tree ensemble into one ordered
//! decision list of clauses (Yan, Natarajan, Joshi, Khardon, Tadepalli,
//! "Explainable Models via Compression of Tree Ensembles").
//!
//! - [`scote`](scote::scote): logically equivalent to the ensemble (the
//!   same prediction for every possible example);
//! - [`ecote`](ecote::ecote): equivalent on the training examples, usually
//!   much smaller.
//!
//! Both start from PREP ([`merge::prep`]): every tree becomes a positive
//! decision list (Proposition 1: paths in pre-order, true branch first,
//! negated tests dropped; the last rule is the empty default), clauses are
//! reduced by self-subsumption and split into predicate groups. The lists
//! are then merged one tree at a time, the cross product enumerated
//! lexicographically (Proposition 3), values summed (boosting) or summed
//! and divided by the number of trees at the end (bagging). Both run under
//! explicit [`Caps`] (clauses, memory, time): hitting one ends the run
//! with a [`Status`] and the partial size reached instead of exhausting
//! the machine.
//!
//! ```
//! use rc_logic::cote::{ecote, scote, EcoteParams, ScoteParams};
//! use rc_logic::data::{Problem, SplitText};
//! use rc_logic::BoostParams;
//!
//! let bk = "father(+person,+person).\nmale(+person).\nparent(+person,+person).\n";
//! let facts = "male(tom). male(bob). parent(tom,bob). parent(bob,ann). parent(ann,jim).\n";
//! let pos = "father(tom,bob). father(bob,ann).\n";
//! let neg = "father(ann,jim). father(bob,tom). father(jim,ann). father(tom,ann).\n";
//! let train = SplitText { facts: (facts, "f"), pos: (pos, "p"), neg: (neg, "n") };
//! let problem = Problem::from_texts((bk, "bk"), "father", train, None)?;
//! let mut params = BoostParams::default().n_trees(3).neg_ratio(None);
//! params.tree = params.tree.min_cover(1.0).min_split(2.0).max_depth(2);
//! let model = params.fit(&problem)?;
//!
//! let s = scote(&model, &ScoteParams::default())?;
//! let list = s.list.expect("finished");
//! // Logically equivalent: the same values as the ensemble.
//! assert_eq!(list.values(&problem.train), model.values(&problem.train));
//! println!("{}", list.render());
//! let e = ecote(&model, &problem.train.facts, &problem.train.examples, &EcoteParams::default())?;
//! assert!(e.clauses <= list.len());
//! # Ok::<(), rc_logic::Error>(())
//! ```

pub mod decision_list;
pub mod ecote;
pub mod group_table;
pub mod merge;
mod product;
pub mod scote;

pub use decision_list::{DecisionList, DlRule};
pub use ecote::{ecote, EcoteParams};
pub use merge::{Caps, Outcome, Status};
pub use scote::{scote, ScoteParams, SubsumptionCache};
