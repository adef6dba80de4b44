//! Neural rule ensembles (Dawer, Guo, Liu & Barbu 2020): the rules of one
//! CART tree become a network with one ReLU unit per decision node and
//! min-pooling over each rule's path, and Adam then trains every weight so
//! the tree's axis-aligned boxes can tilt, move and grow.
//! The crate also holds the paper's baseline, a one-hidden-layer ReLU
//! network trained the same way.
//!
//! ```
//! use rulecover_core::generate::rotated_xor;
//! use rulecover_core::{Fit, Predict, RuleModel};
//! use rc_nre::NreParams;
//!
//! // XOR rotated by 45°: axis-aligned boxes fit it badly.
//! let train = rotated_xor(1500, 0, std::f64::consts::FRAC_PI_4, 1);
//! let test = rotated_xor(1000, 0, std::f64::consts::FRAC_PI_4, 2);
//! let accuracy = |labels: Vec<usize>| {
//!     let truth = test.labels().unwrap();
//!     labels.iter().zip(&truth).filter(|(p, t)| p == t).count() as f64 / truth.len() as f64
//! };
//!
//! let params = NreParams::default().max_depth(3).seed(7);
//! let untrained = params.clone().max_epochs(0).fit(&train)?;
//! let nre = params.fit(&train)?;
//! let tree_acc = accuracy(nre.tree().predict_labels(&test)?);
//! let nre_acc = accuracy(nre.predict(&test)?.labels().unwrap());
//! assert!(nre_acc > tree_acc, "NRE {nre_acc} vs its tree {tree_acc}");
//! assert!(nre_acc > accuracy(untrained.predict_labels(&test)?));
//!
//! // Every leaf became a rule; after training they print as oblique conditions.
//! assert_eq!(nre.n_rules(), nre.tree().tree().n_leaves());
//! println!("{}", nre.render_rules());
//! # Ok::<(), rc_nre::Error>(())
//! ```
//!
//! # What it does
//!
//! - [`NreParams`] fits an [`NreModel`] (Algorithm 1): categorical
//!   columns are one-hot encoded, features are
//!   standardised with the training mean and standard deviation; a Gini
//!   tree of depth `max_depth` is grown with rc-tree — Eq. 15's margin
//!   gain is exactly twice the Gini decrease ([`margin`]) — on the unstandardised
//!   encoded values (CART is invariant under the affine standardisation, and so
//!   the untrained network predicts exactly as rc-tree's CART of the same
//!   depth and seed), its thresholds mapped into standardised space; every
//!   leaf is encoded as a neural rule ([`encode_tree`]: weights ±1 on the split
//!   feature, 0 on every other feature the tree uses, biases as Eq. 4,
//!   `c_k = (n⁺ − n⁻)/n`); all parameters are trained with Adam
//!   ([`train()`]). By default ([`NreInit::Calibrated`]) the untrained
//!   model — epoch 0 of early stopping — is the calibrated copy of that
//!   network ([`calibrate`]: an offset `d_k` on each rule's support, its
//!   leaf's class-1 log-odds, and `c_k = 0`), which predicts the tree's
//!   leaf frequencies as probabilities; [`NreInit::Paper`] keeps the
//!   paper's network as epoch 0. [`NreParams::deep`] adds the second
//!   per-rule layer initialised to the identity.
//! - [`MlpParams`] fits the [`MlpModel`] baseline.
//! - [`NreModel::rules`] reads the trained rules back as oblique
//!   conditions on the unstandardised (encoded) features, and
//!   [`rulecover_core::RuleModel::rule_set`] gives them as core
//!   [`rulecover_core::ObliqueCondition`]s with their training coverage; [`plot`] draws the supports of a
//!   model with two inputs as SVG.
//!
//! # Choices the paper leaves open
//!
//! Loss (logistic), epochs (≤ 200), batch size (256), early stopping
//! (10 % stratified validation split, patience 20 epochs on the validation
//! Brier score — the validation error with [`NreParams::paper`] —, best
//! epoch restored; epoch 0 is the calibrated copy of the tree, so the kept
//! model's validation Brier score is never above that copy's, which is the
//! tree's up to the clip of pure leaves),
//! the leaf value (`c_k = (n⁺ − n⁻)/n`),
//! no output bias, no weight decay: see [`TrainParams`]. The `paper004`
//! suite uses [`NreParams::paper`] (docs/reproduction/004.md). Alternatively the
//! number of epochs can be chosen by cross-validation:
//! [`NreParams::fit_validated`] early-stops each inner fold on its test
//! rows and [`mean_best_epoch`] picks the epoch count with the lowest mean
//! validation error (the notes' §1.9 choice 4); when that count is 0 the
//! untrained network of the tree of all rows is the model
//! (`validation_fraction(0.0).max_epochs(0)`), as in the `paper004`
//! suite. A row outside
//! every rule's support has `f = 0`; it gets the training class prior as
//! its probability. Dead rules (empty support) are kept, as in the paper.
//!
//! # Input
//!
//! Binary class labels; numeric and categorical columns. Each model stores
//! the input [`rulecover_core::Encoder`] fitted at fit (by default one-hot
//! with every level, [`NreParams::encoding()`] / [`MlpParams::encoding()`]),
//! reads new data by column name and encodes it the same way
//! ([`rulecover_core::Fitted`]); the tree, the network and the rules refer
//! to the encoded features. Numeric values must be finite (a missing
//! categorical value is all-zero indicators). Constant features are an
//! error unless [`ConstantFeatures::Ignore`] is set. Every problem is an
//! [`Error`] naming the feature, row or parameter.
//!
//! # Sample weights
//!
//! [`rulecover_core::Fit::fit_weighted`] weights the standardisation, the
//! initial tree, the training loss and early stopping; rows of weight 0
//! are dropped, equal weights give the unweighted model, and an integer
//! weight acts as that many copies of the row in expectation over the
//! mini-batches (exactly, up to rounding, with full-batch training): see
//! [`train()`].
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// The README example runs as a doctest too.
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

mod adam;
pub mod data;
mod encode;
pub mod error;
mod export;
mod loss;
pub mod margin;
mod mlp;
mod model;
pub mod network;
mod params;
pub mod plot;
pub mod rules;
pub mod train;

pub use adam::Adam;
pub use data::{ConstantFeatures, Standardizer};
pub use encode::{calibrate, encode_tree, EncodedTree, PathStep, CALIBRATION_CLIP};
pub use error::{Error, Result};
pub use loss::Loss;
pub use mlp::{Mlp, MlpCache, MlpModel};
pub use model::NreModel;
pub use network::{Network, NeuralRules, RulesCache};
pub use params::{MlpParams, NreInit, NreParams};
pub use rules::{display_condition, Hyperplane, NeuralRule};
pub use train::{mean_best_epoch, train, StopOn, TrainHistory, TrainParams, TrainSet};
