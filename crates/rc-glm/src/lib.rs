//! Generalized linear rule models (Wei, Dash, Gao & Günlük, ICML 2019):
//! sparse logistic and linear regression over conjunctive rules, with new
//! rules priced by column generation instead of mined from a huge pool.
//! The crate has the paper's quantile binarizer, an L1-regularised GLM
//! solver with per-rule penalties `λ0 + λ1·degree`, the LR1/LRR/LR1N/LRRN
//! variants with the Sec. 4 heuristic or the exact pricing IP (9), and the
//! RuleFit baseline fitted with the same solver.
//!
//! ```
//! use rulecover_core::{Dataset, Feature, Fit, Predict, Rng, RuleModel, Target};
//! use rc_glm::GlrmParams;
//!
//! // y = 1 mostly when a > 0.5 and b > 0.5 (5% label noise).
//! let mut rng = Rng::new(1);
//! let rows: Vec<Vec<f64>> = (0..600).map(|_| vec![rng.next_f64(), rng.next_f64()]).collect();
//! let labels: Vec<usize> = rows
//!     .iter()
//!     .map(|r| usize::from((r[0] > 0.5 && r[1] > 0.5) != (rng.next_f64() < 0.05)))
//!     .collect();
//! let data = Dataset::from_rows(
//!     "and",
//!     vec![Feature::numeric("a"), Feature::numeric("b")],
//!     &rows,
//!     Target::Classes { labels: labels.clone(), names: vec!["no".into(), "yes".into()] },
//! )?;
//!
//! let model = GlrmParams::lrr().lambdas(0.01, 0.2).fit(&data)?;
//! println!("{model}"); // the rules and their coefficients, largest first
//! // Column generation found conjunctions, not only single thresholds.
//! assert!(model.rule_lengths().iter().any(|&d| d >= 2));
//!
//! let p = model.predict(&data)?.positive_proba().expect("two classes");
//! let correct = p.iter().zip(&labels).filter(|(p, &y)| (**p > 0.5) == (y == 1)).count();
//! assert!(correct as f64 / labels.len() as f64 > 0.9);
//! assert!(model.complexity() < 30.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Pieces
//!
//! * [`BinarizerParams`] / [`Binarizer`]: `x <= t` / `x > t` at the sample
//!   deciles, `x == v` / `x != v`, missing-value indicators, standardised
//!   numeric features for the "N" variants.
//! * [`glm`]: the L1 GLM solver (proximal Newton with coordinate descent
//!   and active sets), converging to a stated KKT tolerance; column
//!   generation with the squared loss solves its restricted master on the
//!   working set's Gram matrix, grown by one row per generated column
//!   (same KKT test, checked from scratch); RuleFit's fits use
//!   [`GlmSettings::covariance_updates`] (coordinate updates on the
//!   support from its Gram matrix, as glmnet's covariance mode).
//! * [`pricing`]: the heuristic beam search (Sec. 4) and the exact IP (9)
//!   through [`rc_lp::MipSolver`].
//! * [`GlrmParams`]: LR1, LRR, LR1N, LRRN (and the linear-regression
//!   versions: the loss follows the target), column generation with
//!   iteration and time limits, de-biasing, [`GlrmParams::fit_path`] for
//!   a regularisation path.
//! * [`RuleFitParams`]: the RuleFit baseline.
//! * [`GlrmModel`]: predicts probabilities or values, prints a table of
//!   terms sorted by `|coefficient|`, serialises, reports the paper's
//!   complexity `Σ (1 + 0.2·degree) + #linear terms`.
//!
//! # Data, weights and saved models
//!
//! Every model stores the [`rulecover_core::Encoder`] fitted on its
//! training data ([`rulecover_core::Fitted`]): new data is matched to the
//! training columns by name and encoded as at fit before anything else.
//! GLRM and RuleFit read categorical columns natively (`==` / `!=`
//! literals, [`rulecover_core::Encoding::Native`]); both take an
//! `encoding` setter (one-hot with or without the first level).
//! [`rulecover_core::Fit::fit_weighted`] fits with sample weights
//! (replication semantics: weighted mean loss, weighted quantile
//! thresholds, weighted standardisation). A missing value at prediction
//! time in a column that had none at fit is [`Error::UnseenMissing`]
//! unless [`UnseenMissing::AsLiterals`] is chosen. Models serialise with
//! serde, encoder included, and predict bit-identically after a JSON
//! round trip.
//!
//! # Bad input
//!
//! Constant and all-missing columns are dropped by the binarizer (listed
//! by [`Binarizer::dropped`]); if nothing is left the fit fails with
//! [`Error::NoUsableFeatures`]. A training set with one class gives
//! [`Error::SingleClass`], more than two classes [`Error::NotBinary`] (fit
//! them one-vs-rest with [`rulecover_core::OneVsRest`]), a
//! non-finite target [`Error::NonFiniteTarget`], an infinite feature value
//! [`Error::NonFiniteFeature`].
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// The README example runs as a doctest too.
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

mod atoms;
pub mod auto;
pub mod binarize;
mod bits;
mod colgen;
pub mod error;
pub mod export;
pub mod glm;
mod gram;
pub mod literal;
mod literal_tree;
pub mod model;
pub mod params;
pub mod pricing;
pub mod rulefit;
mod sample;
pub mod validate;

pub use auto::{AutoLambda, LambdaSearch};
pub use binarize::{Binarizer, BinarizerParams, BinaryMatrix, DropReason, Standardizer};
pub use error::{Error, Result};
pub use glm::{GlmSettings, Loss};
pub use literal::{Conjunction, Literal, LiteralOp};
pub use model::{FitInfo, GlrmModel, LinearTerm, StopReason, Term, UnseenMissing, WeightedTerm};
pub use params::{GlrmParams, Pricing, RuleSpace};
pub use pricing::{BeamParams, MipBackend};
pub use rulefit::RuleFitParams;
