//! One registry of every rulecover learner, by method id with typed
//! string parameters, and one versioned model file that saves and loads
//! any fitted model exactly.
//! The command line and the Python package are built on it; the learning
//! itself lives in the library crates (rc-tree, rc-cover, rc-colgen,
//! rc-glm, rc-nre, rc-logic).
//!
//! ```
//! use rulecover::FittedModel;
//! use rulecover_core::generate;
//!
//! let train = generate::twonorm(200, 1);
//! let model = rulecover::fit("rux-rf", &[("n_estimators", "10")], &train, None, 7)?;
//! assert_eq!(model.params()["max_depth"], "2"); // the paper's default
//!
//! let path = std::env::temp_dir().join(format!("rulecover-doc-{}.json", std::process::id()));
//! model.save(&path)?;
//! let loaded = FittedModel::load(&path)?;
//! std::fs::remove_file(&path)?;
//!
//! let test = generate::twonorm(50, 2);
//! assert_eq!(loaded.predict(&test)?, model.predict(&test)?); // bit for bit
//! assert_eq!(loaded.rule_set(), model.rule_set());
//! println!("{}", loaded.render_rules().unwrap_or_default());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Pieces
//!
//! - [`METHODS`], [`methods()`] / [`method()`]: every method, one item
//!   each ([`Method`]): its [`MethodSpec`] (description, tasks,
//!   parameters with types, defaults and docs, capabilities), how it
//!   fits and how its model is read back.
//! - [`fit()`]: method id + `(name, value)` strings + data (+ sample
//!   weights) + seed → [`FittedModel`]; [`fit_relational()`] for the
//!   relational methods on an [`rc_logic::Problem`] → [`RelationalFit`].
//! - [`fit_tuned()`]: the same with the parameters chosen by an inner
//!   cross-validation over the method's registry grid
//!   ([`MethodSpec::grid`], [`TuneOptions`]: metric, folds, the
//!   one-standard-error rule) → [`TunedFit`], whose model keeps the
//!   search's table ([`FittedModel::tuning`]) and saves it in the model
//!   file's `tuned` record.
//! - [`FittedModel`] and [`RelationalFit`]: predict, expose their rules,
//!   and save/load the one model file ([`FORMAT_VERSION`]).
//! - [`report`]: a fitted model as one self-contained HTML page, and the
//!   SVG plot of an evaluation.
//! - [`io`], [`output`], [`evaluate`], [`generate`], [`boostsrl`]: what the
//!   `rulecover` command line (and the Python package) build on: reading
//!   tables by name, writing predictions and rule tables, cross-validating
//!   methods side by side, generated data sets, and BoostSRL's folder and
//!   file conventions for relational learning.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

pub mod boostsrl;
pub mod error;
pub mod evaluate;
pub mod export;
pub mod file;
mod fitted;
pub mod generate;
pub mod io;
// JSON with non-finite floats: the workspace's one policy (crate rc-json).
use rc_json as json;
mod learners;
pub mod method;
pub mod methods;
pub mod model;
pub mod output;
pub mod params;
mod relational;
pub mod report;
pub mod tune;
mod tuning;

pub use error::{Error, Result};
pub use file::FORMAT_VERSION;
pub use fitted::{fit, resolve_params, FittedModel};
pub use learners::glm::GbtModel;
pub use method::{GridAxis, Learner, Method, MethodSpec, Task};
pub use methods::{method, method_ids, methods, METHODS};
pub use model::{Model, ModelKind};
pub use params::{parse_key_values, ParamKind, ParamSpec};
pub use relational::{fit_relational, RelationalFit};
pub use tune::{fit_tuned, TuneMetric, TuneOptions, TunedFit, Tuning};
