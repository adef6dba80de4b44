//! Weighted CART decision trees (Gini, entropy, squared error), random
//! forests, AdaBoost (SAMME, SAMME.R) and gradient boosting that follow
//! scikit-learn's algorithms split for split, with real-valued sample
//! weights everywhere. Every fitted model hands out its leaves as rulecover-core
//! [`Rule`](rulecover_core::Rule)s — with `apply`, leaf statistics on any dataset
//! and fast rule-pool coverage — so rule learners (MIRCO, RCBoost, RUX, …)
//! can build on them.
//!
//! ```
//! use rulecover_core::{Dataset, Feature, Fit, Predict, RuleModel, Rng, Target};
//! use rc_tree::DecisionTreeParams;
//!
//! // Two features; the class is 1 inside the square (0.2, 0.7]².
//! let mut rng = Rng::new(7);
//! let rows: Vec<Vec<f64>> = (0..400).map(|_| vec![rng.next_f64(), rng.next_f64()]).collect();
//! let inside = |r: &[f64]| r.iter().all(|&v| v > 0.2 && v <= 0.7);
//! let labels = rows.iter().map(|r| usize::from(inside(r))).collect();
//! let data = Dataset::from_rows(
//!     "square",
//!     vec![Feature::numeric("x"), Feature::numeric("y")],
//!     &rows,
//!     Target::Classes { labels, names: vec!["out".into(), "in".into()] },
//! )?;
//!
//! let tree = DecisionTreeParams::classifier().max_depth(4).fit(&data)?;
//! let predicted = tree.predict(&data)?.labels().expect("a classifier");
//! let truth = data.labels()?;
//! let correct = predicted.iter().zip(&truth).filter(|(p, t)| p == t).count();
//! assert!(correct as f64 / truth.len() as f64 > 0.97);
//!
//! // Every leaf is a rule: "if x > 0.2… and y <= 0.7… then class in [0, 93]".
//! assert_eq!(tree.n_rules(), tree.tree().n_leaves());
//! println!("{}", tree.render_rules());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What it does
//!
//! - [`DecisionTreeParams`] fits a [`DecisionTree`]: thresholds halfway
//!   between consecutive distinct float32 values (scikit-learn casts `X` to
//!   float32), the best weighted impurity decrease wins and the first
//!   feature scanned wins ties; `max_depth`, `min_samples_split`,
//!   `min_samples_leaf`, `min_weight_fraction_leaf`, `max_features`,
//!   `min_impurity_decrease` as in scikit-learn. Node ids are scikit-learn's
//!   preorder numbering (left child first).
//! - [`RandomForestParams`] fits a [`RandomForest`] in parallel (rayon);
//!   each tree's seed is derived from the forest seed, so the forest is
//!   bit-identical for any number of threads (see "Random streams").
//! - [`AdaBoostParams`] fits [`AdaBoost`] (SAMME or SAMME.R, scikit-learn
//!   0.22) and exposes the estimator weights.
//! - [`GradientBoostingParams`] fits [`GradientBoosting`] (binomial or
//!   multinomial deviance, squared error).
//! - Rules: [`Tree::leaf_rules`], [`Tree::apply`], [`Tree::leaf_stats`];
//!   every model implements [`rulecover_core::RuleSource`] and
//!   [`rulecover_core::RuleModel`], and converts to an [`rulecover_core::RuleSet`].
//!   A rule's `coverage` is the number of training rows that reach its
//!   leaf, counted at fit over every row passed to `fit` — whatever its
//!   weight, and for forests and subsampled boosting whether or not the
//!   row was in that tree's sample (the tree's own [`Node::n_samples`]
//!   counts only the distinct rows it was grown on).
//!
//! # Input
//!
//! Every model stores the [`Encoder`](rulecover_core::Encoder) of its
//! training data (see [`rulecover_core::Fitted`]): categorical columns are
//! one-hot encoded (one indicator per level, the default
//! [`Encoding`](rulecover_core::Encoding); set it with
//! `DecisionTreeParams::encoding`), and new data is read **by column
//! name** — any column order, extra columns ignored, categorical levels
//! matched by name; a missing column or an unseen level is a typed error
//! ([`Error::Core`]). Data that is already encoded (the model's
//! [`DecisionTree::features`], in order) is read as it is. The rules index
//! the encoded features and print a one-hot split as `color == red` or
//! `color != red`. A bare [`Tree`] reads columns by position.
//!
//! **Missing values are rejected**: a `NaN` in any feature (numeric or
//! categorical) returns [`Error::MissingValue`] naming the feature and row,
//! at fit and at predict time. Values must fit in float32.
//!
//! Sample weights (`fit_weighted`, also through [`rulecover_core::Fit`])
//! must be finite, non-negative and not all zero; an integer weight acts
//! as that many copies of the row. Only their ratios matter: weights whose
//! largest is in `[2^-8, 2^8)` are used as they are (scikit-learn's
//! arithmetic); beyond, uniform weights fit exactly as unit weights and
//! others are rescaled by a power of two (exact), so weights of `1e-200`
//! or `1e300` neither underflow nor overflow.
//!
//! # Thresholds
//!
//! A split stores scikit-learn's threshold `t` and a float64 threshold `T`
//! with `x <= T` exactly when `f32(x) <= t`; rules and prediction compare
//! raw values with `T`, so they route every row as scikit-learn's float32
//! comparison does and a tree's rules always agree with the tree.
//!
//! # Speed
//!
//! The data is prepared once per fit (and shared by all trees of an
//! ensemble): two-valued columns (one-hot indicators) become row and
//! column bitmasks, of which a node counts only the drawn columns, in one
//! pass; columns with at most 256 distinct values become one-byte codes split
//! from per-node histograms, and other columns are sorted once and kept
//! sorted per node by stable partitioning, so no node sorts anything.
//! Zero-weight rows (out-of-bag rows of a bootstrap) are dropped up front.
//! Features found constant in a node are not scanned again below it. None
//! of this changes which split wins: candidate thresholds, proxies and
//! tie-breaking are scikit-learn's (see `docs/PERFORMANCE.md`, section
//! rc-tree, for timings against scikit-learn).
//!
//! # Random streams
//!
//! By default ([`RandomStream::Native`]) random draws (bootstrap, feature
//! sampling, subsampling) come from [`rulecover_core::Rng`], and a tree that
//! considers every feature scans them in column order, so ties between
//! equally good splits on different features go to the lowest column.
//! With [`RandomStream::Sklearn`] a decision tree, a random forest and
//! AdaBoost's base trees draw scikit-learn's streams for
//! `random_state = seed` instead (numpy's MT19937 for tree seeds and
//! bootstrap samples, the splitter's `rand_r` for the feature order of
//! every node) and equal scikit-learn 1.x's models node for node (tested
//! against fixtures printed by scikit-learn 1.9.1); that is how the
//! papers' DT and RF columns are reproduced to the fourth decimal.
//!
//! ```
//! use rulecover_core::{Dataset, Feature, Fit, Target};
//! use rc_tree::{RandomForestParams, RandomStream};
//!
//! let rows: Vec<Vec<f64>> = (0..60).map(|i| vec![(i % 7) as f64, (i % 5) as f64]).collect();
//! let labels = (0..60).map(|i| usize::from(i % 7 > 3)).collect();
//! let names = vec!["no".into(), "yes".into()];
//! let data = Dataset::from_rows(
//!     "toy",
//!     vec![Feature::numeric("a"), Feature::numeric("b")],
//!     &rows,
//!     Target::Classes { labels, names },
//! )?;
//! // RandomForestClassifier(n_estimators=5, random_state=25)
//! let params = RandomForestParams::classifier()
//!     .n_estimators(5)
//!     .seed(25)
//!     .random_stream(RandomStream::Sklearn);
//! assert_eq!(params.fit(&data)?, params.fit(&data)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Differences from scikit-learn
//! - Gradient boosting splits by squared error rather than `friedman_mse`:
//!   the same splits, but `min_impurity_decrease` is on the squared-error
//!   scale.
//! - Missing values are rejected instead of being routed.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// The README example runs as a doctest too.
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

mod adaboost;
mod build;
mod criterion;
mod data;
mod decision_tree;
mod draw;
mod encode;
pub mod error;
mod export;
mod forest;
mod gboost;
pub mod params;
mod rules;
mod sklearn_random;
mod splitter;
mod threshold;
mod tree;

// Gradient boosting lowered over given feature values (a scoring program).
mod export_over;

pub use adaboost::AdaBoost;
pub use decision_tree::DecisionTree;
pub use error::{Error, Result};
pub use forest::RandomForest;
pub use gboost::{GbLoss, GradientBoosting};
pub use params::{
    AdaBoostAlgorithm, AdaBoostParams, Criterion, DecisionTreeParams, GradientBoostingParams,
    MaxFeatures, RandomForestParams, RandomStream,
};
pub use rules::LeafStats;
pub use tree::{Node, NodeSplit, Tree};
