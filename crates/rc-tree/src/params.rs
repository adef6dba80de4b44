//! Learning parameters of every model: plain structs whose `Default` is
//! scikit-learn's default, with chained setters and `validate()`.
//!
//! ```
//! use rc_tree::{Criterion, DecisionTreeParams, MaxFeatures};
//! let params = DecisionTreeParams::classifier()
//!     .criterion(Criterion::Entropy)
//!     .max_depth(5)
//!     .min_samples_leaf(3)
//!     .max_features(MaxFeatures::Sqrt)
//!     .seed(25);
//! assert!(params.validate().is_ok());
//! assert!(DecisionTreeParams::classifier().min_samples_split(1).validate().is_err());
//! ```

use rulecover_core::Encoding;
use serde::{Deserialize, Serialize};

use crate::error::{invalid, Result};

/// The impurity a tree minimises when it chooses a split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Criterion {
    /// Gini impurity `1 - Σ p_k²` (classification; scikit-learn's default).
    #[default]
    Gini,
    /// Shannon entropy `-Σ p_k log2 p_k` (classification).
    Entropy,
    /// Weighted mean squared error around the node mean (regression).
    SquaredError,
}

impl Criterion {
    /// True for the classification criteria (Gini, entropy).
    pub fn is_classification(self) -> bool {
        !matches!(self, Criterion::SquaredError)
    }

    /// scikit-learn's name of the criterion.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Gini => "gini",
            Criterion::Entropy => "entropy",
            Criterion::SquaredError => "squared_error",
        }
    }
}

/// How many features a node considers when it looks for a split
/// (scikit-learn's `max_features`).
///
/// The features are drawn at random without replacement; features that are
/// constant in the node count as drawn, and drawing continues past the
/// limit until at least one non-constant feature was tried (scikit-learn's
/// rule). When all features are considered they are scanned in column
/// order, so ties between equally good splits go to the lowest column.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub enum MaxFeatures {
    /// Every feature (`None` in scikit-learn).
    #[default]
    All,
    /// `max(1, floor(sqrt(p)))` features.
    Sqrt,
    /// `max(1, floor(log2(p)))` features.
    Log2,
    /// Exactly this many features (1 ≤ count ≤ p).
    Count(usize),
    /// `max(1, floor(fraction · p))` features (0 < fraction ≤ 1).
    Fraction(f64),
}

impl MaxFeatures {
    /// Validates the setting on its own (independent of `p`).
    pub fn validate(&self) -> Result<()> {
        match *self {
            MaxFeatures::Count(0) => Err(invalid("max_features", "Count(0)", "must be at least 1")),
            MaxFeatures::Fraction(f) if !(f > 0.0 && f <= 1.0) => Err(invalid(
                "max_features",
                format!("Fraction({f})"),
                "the fraction must be in (0, 1]",
            )),
            _ => Ok(()),
        }
    }

    /// The number of features to draw when the data has `n_features`
    /// columns.
    pub fn resolve(&self, n_features: usize) -> Result<usize> {
        self.validate()?;
        let p = n_features;
        let k = match *self {
            MaxFeatures::All => p,
            MaxFeatures::Sqrt => ((p as f64).sqrt() as usize).max(1),
            MaxFeatures::Log2 => ((p as f64).log2() as usize).max(1),
            MaxFeatures::Count(k) => {
                if k > p {
                    return Err(invalid(
                        "max_features",
                        format!("Count({k})"),
                        format!("the data has only {p} features"),
                    ));
                }
                k
            }
            MaxFeatures::Fraction(f) => ((f * p as f64) as usize).max(1),
        };
        Ok(k.min(p).max(1))
    }
}

/// Which random streams a fit draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum RandomStream {
    /// rulecover-core's [`rulecover_core::Rng`] seeded from `seed`: fast draws, and a
    /// tree that considers every feature scans them in column order.
    #[default]
    Native,
    /// scikit-learn's streams for `random_state = seed` (`seed` must fit
    /// in 32 bits): numpy's MT19937 for a forest's tree seeds and
    /// bootstrap samples, and the splitter's `rand_r` for the feature
    /// draws of every node, which scikit-learn makes even when every
    /// feature is considered (the draw order breaks ties between equally
    /// good splits). On the same data and parameters, trees and forests
    /// equal scikit-learn 1.x's split for split.
    Sklearn,
}

/// scikit-learn's `random_state` is a 32-bit integer.
fn check_stream_seed(stream: RandomStream, seed: u64) -> Result<()> {
    if stream == RandomStream::Sklearn && seed > u64::from(u32::MAX) {
        return Err(invalid(
            "seed",
            seed,
            "RandomStream::Sklearn needs a seed below 2^32 (numpy's RandomState)",
        ));
    }
    Ok(())
}

/// Parameters of a CART decision tree (scikit-learn's
/// `DecisionTreeClassifier` / `DecisionTreeRegressor`).
///
/// `Default` is scikit-learn's classifier default: Gini, unlimited depth,
/// `min_samples_split = 2`, `min_samples_leaf = 1`, all features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecisionTreeParams {
    /// The split criterion; it must suit the target (Gini or entropy for
    /// class labels, squared error for real values).
    pub criterion: Criterion,
    /// Maximum depth (the root has depth 0); `None` grows until leaves are
    /// pure or too small.
    pub max_depth: Option<usize>,
    /// A node with fewer (distinct, positively weighted) rows is not split.
    /// At least 2.
    pub min_samples_split: usize,
    /// Each child of a split keeps at least this many rows. At least 1.
    pub min_samples_leaf: usize,
    /// Each child keeps at least this fraction of the total sample weight.
    /// In `[0, 0.5]`.
    pub min_weight_fraction_leaf: f64,
    /// Features tried per split.
    pub max_features: MaxFeatures,
    /// A split must decrease the weighted impurity by at least this much:
    /// `W_node / W_total · (impurity − W_left/W_node · impurity_left −
    /// W_right/W_node · impurity_right) ≥ min_impurity_decrease`.
    pub min_impurity_decrease: f64,
    /// Seed of the feature sampling (with [`RandomStream::Native`], used
    /// only when `max_features` is less than the number of features).
    pub seed: u64,
    /// The random streams the seed drives.
    #[serde(default)]
    pub random_stream: RandomStream,
    /// How raw columns become the numbers the tree splits: one-hot
    /// indicators for categorical columns (the default,
    /// `Encoding::OneHot { drop_first: false }`); numeric columns pass
    /// through. [`Encoding::Native`] accepts numeric columns only (trees
    /// do not split level codes).
    #[serde(default)]
    pub encoding: Encoding,
}

impl Default for DecisionTreeParams {
    fn default() -> Self {
        DecisionTreeParams {
            criterion: Criterion::Gini,
            max_depth: None,
            min_samples_split: 2,
            min_samples_leaf: 1,
            min_weight_fraction_leaf: 0.0,
            max_features: MaxFeatures::All,
            min_impurity_decrease: 0.0,
            seed: 0,
            random_stream: RandomStream::Native,
            encoding: Encoding::OneHot { drop_first: false },
        }
    }
}

impl DecisionTreeParams {
    /// scikit-learn's `DecisionTreeClassifier()` defaults (Gini).
    pub fn classifier() -> Self {
        Self::default()
    }

    /// scikit-learn's `DecisionTreeRegressor()` defaults (squared error).
    pub fn regressor() -> Self {
        DecisionTreeParams {
            criterion: Criterion::SquaredError,
            ..Self::default()
        }
    }

    /// Sets the split criterion.
    pub fn criterion(mut self, criterion: Criterion) -> Self {
        self.criterion = criterion;
        self
    }

    /// Sets the maximum depth: `.max_depth(5)` or `.max_depth(None)` for
    /// unlimited depth.
    pub fn max_depth(mut self, max_depth: impl Into<Option<usize>>) -> Self {
        self.max_depth = max_depth.into();
        self
    }

    /// Sets the minimum number of rows a node needs to be split (≥ 2).
    pub fn min_samples_split(mut self, n: usize) -> Self {
        self.min_samples_split = n;
        self
    }

    /// Sets the minimum number of rows in each leaf (≥ 1).
    pub fn min_samples_leaf(mut self, n: usize) -> Self {
        self.min_samples_leaf = n;
        self
    }

    /// Sets the minimum fraction of the total weight in each leaf
    /// (`0..=0.5`).
    pub fn min_weight_fraction_leaf(mut self, fraction: f64) -> Self {
        self.min_weight_fraction_leaf = fraction;
        self
    }

    /// Sets how many features each split considers.
    pub fn max_features(mut self, max_features: MaxFeatures) -> Self {
        self.max_features = max_features;
        self
    }

    /// Sets the minimum weighted impurity decrease of a split (≥ 0).
    pub fn min_impurity_decrease(mut self, decrease: f64) -> Self {
        self.min_impurity_decrease = decrease;
        self
    }

    /// Sets the seed of the feature sampling.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets the random streams (see [`RandomStream`]).
    pub fn random_stream(mut self, stream: RandomStream) -> Self {
        self.random_stream = stream;
        self
    }

    /// Sets how categorical columns are encoded (see
    /// [`DecisionTreeParams::encoding`](DecisionTreeParams#structfield.encoding)).
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// Checks every parameter's range.
    pub fn validate(&self) -> Result<()> {
        if self.max_depth == Some(0) {
            return Err(invalid(
                "max_depth",
                0,
                "must be at least 1, or None for unlimited depth",
            ));
        }
        if self.min_samples_split < 2 {
            return Err(invalid(
                "min_samples_split",
                self.min_samples_split,
                "must be at least 2",
            ));
        }
        if self.min_samples_leaf < 1 {
            return Err(invalid(
                "min_samples_leaf",
                self.min_samples_leaf,
                "must be at least 1",
            ));
        }
        let f = self.min_weight_fraction_leaf;
        if !(0.0..=0.5).contains(&f) {
            return Err(invalid(
                "min_weight_fraction_leaf",
                f,
                "must be in [0, 0.5]",
            ));
        }
        let d = self.min_impurity_decrease;
        if !(d.is_finite() && d >= 0.0) {
            return Err(invalid(
                "min_impurity_decrease",
                d,
                "must be finite and >= 0",
            ));
        }
        check_stream_seed(self.random_stream, self.seed)?;
        self.max_features.validate()
    }
}

/// Parameters of a random forest (scikit-learn's `RandomForestClassifier`
/// / `RandomForestRegressor`).
///
/// Each tree is grown on a bootstrap sample (`n` draws with replacement,
/// turned into integer sample weights) with its own seed; `tree.seed` is
/// ignored. With [`RandomStream::Native`] (in `tree.random_stream`) the
/// tree seeds are `rulecover_core::rng::derive_seed(seed, tree_index)`; with
/// [`RandomStream::Sklearn`] they, the bootstrap samples and the feature
/// draws are scikit-learn's for `random_state = seed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RandomForestParams {
    /// Number of trees (100).
    pub n_estimators: usize,
    /// Parameters of every tree (default: Gini, unlimited depth,
    /// `max_features = Sqrt`).
    pub tree: DecisionTreeParams,
    /// Grow each tree on a bootstrap sample (true) or on all rows.
    pub bootstrap: bool,
    /// Number of bootstrap draws per tree; `None` draws as many as there
    /// are rows.
    pub max_samples: Option<usize>,
    /// Seed of the forest; tree seeds are derived from it.
    pub seed: u64,
}

impl Default for RandomForestParams {
    fn default() -> Self {
        RandomForestParams {
            n_estimators: 100,
            tree: DecisionTreeParams::classifier().max_features(MaxFeatures::Sqrt),
            bootstrap: true,
            max_samples: None,
            seed: 0,
        }
    }
}

impl RandomForestParams {
    /// `RandomForestClassifier()` defaults: 100 trees, Gini, sqrt features.
    pub fn classifier() -> Self {
        Self::default()
    }

    /// `RandomForestRegressor()` defaults: 100 trees, squared error, all
    /// features.
    pub fn regressor() -> Self {
        RandomForestParams {
            tree: DecisionTreeParams::regressor(),
            ..Self::default()
        }
    }

    /// Sets the number of trees (≥ 1).
    pub fn n_estimators(mut self, n: usize) -> Self {
        self.n_estimators = n;
        self
    }

    /// Replaces all tree parameters at once.
    pub fn tree(mut self, tree: DecisionTreeParams) -> Self {
        self.tree = tree;
        self
    }

    /// Sets the split criterion of every tree.
    pub fn criterion(mut self, criterion: Criterion) -> Self {
        self.tree.criterion = criterion;
        self
    }

    /// Sets the maximum depth of every tree (`None` = unlimited).
    pub fn max_depth(mut self, max_depth: impl Into<Option<usize>>) -> Self {
        self.tree.max_depth = max_depth.into();
        self
    }

    /// Sets `min_samples_split` of every tree (≥ 2).
    pub fn min_samples_split(mut self, n: usize) -> Self {
        self.tree.min_samples_split = n;
        self
    }

    /// Sets `min_samples_leaf` of every tree (≥ 1).
    pub fn min_samples_leaf(mut self, n: usize) -> Self {
        self.tree.min_samples_leaf = n;
        self
    }

    /// Sets `min_weight_fraction_leaf` of every tree (`0..=0.5`).
    pub fn min_weight_fraction_leaf(mut self, fraction: f64) -> Self {
        self.tree.min_weight_fraction_leaf = fraction;
        self
    }

    /// Sets how many features each split considers.
    pub fn max_features(mut self, max_features: MaxFeatures) -> Self {
        self.tree.max_features = max_features;
        self
    }

    /// Sets `min_impurity_decrease` of every tree (≥ 0).
    pub fn min_impurity_decrease(mut self, decrease: f64) -> Self {
        self.tree.min_impurity_decrease = decrease;
        self
    }

    /// Switches bootstrap sampling on or off.
    pub fn bootstrap(mut self, bootstrap: bool) -> Self {
        self.bootstrap = bootstrap;
        self
    }

    /// Sets the number of bootstrap draws per tree (`None` = number of rows).
    pub fn max_samples(mut self, n: impl Into<Option<usize>>) -> Self {
        self.max_samples = n.into();
        self
    }

    /// Sets the forest seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets the random streams of the forest and its trees (see
    /// [`RandomStream`]).
    pub fn random_stream(mut self, stream: RandomStream) -> Self {
        self.tree.random_stream = stream;
        self
    }

    /// Sets how categorical columns are encoded for every tree (see
    /// [`DecisionTreeParams::encoding`](DecisionTreeParams#structfield.encoding)).
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.tree.encoding = encoding;
        self
    }

    /// Checks every parameter's range.
    pub fn validate(&self) -> Result<()> {
        check_stream_seed(self.tree.random_stream, self.seed)?;
        if self.n_estimators == 0 {
            return Err(invalid(
                "n_estimators",
                0,
                "a forest needs at least one tree",
            ));
        }
        if self.max_samples == Some(0) {
            return Err(invalid("max_samples", 0, "must be at least 1"));
        }
        self.tree.validate()
    }
}

/// The AdaBoost variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum AdaBoostAlgorithm {
    /// Discrete SAMME: each tree votes for one class with weight
    /// `α = lr · (ln((1 − err)/err) + ln(K − 1))`.
    Samme,
    /// Real SAMME.R: each tree contributes its log class probabilities
    /// (scikit-learn 0.22's default); estimator weights are 1.
    #[default]
    SammeR,
}

/// Parameters of AdaBoost with decision-tree base estimators
/// (scikit-learn 0.22's `AdaBoostClassifier`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdaBoostParams {
    /// Maximum number of boosting rounds (50); boosting stops early on a
    /// perfect fit.
    pub n_estimators: usize,
    /// Shrinks each round's contribution (1.0).
    pub learning_rate: f64,
    /// SAMME or SAMME.R.
    pub algorithm: AdaBoostAlgorithm,
    /// Parameters of the base trees (default: a stump, `max_depth = 1`);
    /// the criterion must be Gini or entropy. `tree.seed` is ignored:
    /// round `m` uses `derive_seed(seed, m)` with [`RandomStream::Native`]
    /// (in `tree.random_stream`), or with [`RandomStream::Sklearn`] the
    /// `m`-th draw of `RandomState(seed).randint(np.iinfo(np.int32).max)`
    /// as scikit-learn's `AdaBoostClassifier(random_state=seed)` does.
    pub tree: DecisionTreeParams,
    /// Seed of the ensemble.
    pub seed: u64,
}

impl Default for AdaBoostParams {
    fn default() -> Self {
        AdaBoostParams {
            n_estimators: 50,
            learning_rate: 1.0,
            algorithm: AdaBoostAlgorithm::SammeR,
            tree: DecisionTreeParams::classifier().max_depth(1),
            seed: 0,
        }
    }
}

impl AdaBoostParams {
    /// scikit-learn 0.22 defaults: 50 stumps, learning rate 1, SAMME.R.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the maximum number of rounds (≥ 1).
    pub fn n_estimators(mut self, n: usize) -> Self {
        self.n_estimators = n;
        self
    }

    /// Sets the learning rate (> 0).
    pub fn learning_rate(mut self, lr: f64) -> Self {
        self.learning_rate = lr;
        self
    }

    /// Chooses SAMME or SAMME.R.
    pub fn algorithm(mut self, algorithm: AdaBoostAlgorithm) -> Self {
        self.algorithm = algorithm;
        self
    }

    /// Sets the maximum depth of the base trees (`None` = unlimited).
    pub fn max_depth(mut self, max_depth: impl Into<Option<usize>>) -> Self {
        self.tree.max_depth = max_depth.into();
        self
    }

    /// Replaces the base tree parameters.
    pub fn tree(mut self, tree: DecisionTreeParams) -> Self {
        self.tree = tree;
        self
    }

    /// Sets the ensemble seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets the random streams of the base trees (see [`RandomStream`]).
    pub fn random_stream(mut self, stream: RandomStream) -> Self {
        self.tree.random_stream = stream;
        self
    }

    /// Sets how categorical columns are encoded for every tree (see
    /// [`DecisionTreeParams::encoding`](DecisionTreeParams#structfield.encoding)).
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.tree.encoding = encoding;
        self
    }

    /// Checks every parameter's range.
    pub fn validate(&self) -> Result<()> {
        check_stream_seed(self.tree.random_stream, self.seed)?;
        if self.n_estimators == 0 {
            return Err(invalid("n_estimators", 0, "must be at least 1"));
        }
        let lr = self.learning_rate;
        if !(lr.is_finite() && lr > 0.0) {
            return Err(invalid("learning_rate", lr, "must be finite and > 0"));
        }
        if !self.tree.criterion.is_classification() {
            return Err(invalid(
                "tree.criterion",
                self.tree.criterion.name(),
                "AdaBoost's base trees are classifiers: use Gini or entropy",
            ));
        }
        self.tree.validate()
    }
}

/// Parameters of gradient boosting with regression trees (scikit-learn's
/// `GradientBoostingClassifier` / `GradientBoostingRegressor`).
///
/// The loss follows the target: binomial deviance for two classes,
/// multinomial deviance (one tree per class per stage) for more, squared
/// error for a real target. `tree.criterion` is ignored (the trees are
/// squared-error regression trees) and so is `tree.seed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GradientBoostingParams {
    /// Number of boosting stages (100).
    pub n_estimators: usize,
    /// Shrinkage of each stage (0.1).
    pub learning_rate: f64,
    /// Fraction of rows drawn without replacement for each stage (1.0).
    pub subsample: f64,
    /// Parameters of the regression trees (default `max_depth = 3`).
    pub tree: DecisionTreeParams,
    /// Seed of the subsampling and the feature sampling.
    pub seed: u64,
}

impl Default for GradientBoostingParams {
    fn default() -> Self {
        GradientBoostingParams {
            n_estimators: 100,
            learning_rate: 0.1,
            subsample: 1.0,
            tree: DecisionTreeParams::regressor().max_depth(3),
            seed: 0,
        }
    }
}

impl GradientBoostingParams {
    /// scikit-learn defaults: 100 stages, learning rate 0.1, depth 3.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the number of stages (≥ 1).
    pub fn n_estimators(mut self, n: usize) -> Self {
        self.n_estimators = n;
        self
    }

    /// Sets the learning rate (> 0).
    pub fn learning_rate(mut self, lr: f64) -> Self {
        self.learning_rate = lr;
        self
    }

    /// Sets the row fraction per stage (`0 < subsample ≤ 1`).
    pub fn subsample(mut self, subsample: f64) -> Self {
        self.subsample = subsample;
        self
    }

    /// Sets the maximum depth of the trees (`None` = unlimited).
    pub fn max_depth(mut self, max_depth: impl Into<Option<usize>>) -> Self {
        self.tree.max_depth = max_depth.into();
        self
    }

    /// Sets `min_samples_split` of the trees (≥ 2).
    pub fn min_samples_split(mut self, n: usize) -> Self {
        self.tree.min_samples_split = n;
        self
    }

    /// Sets `min_samples_leaf` of the trees (≥ 1).
    pub fn min_samples_leaf(mut self, n: usize) -> Self {
        self.tree.min_samples_leaf = n;
        self
    }

    /// Sets `min_weight_fraction_leaf` of the trees (`0..=0.5`).
    pub fn min_weight_fraction_leaf(mut self, fraction: f64) -> Self {
        self.tree.min_weight_fraction_leaf = fraction;
        self
    }

    /// Sets how many features each split considers.
    pub fn max_features(mut self, max_features: MaxFeatures) -> Self {
        self.tree.max_features = max_features;
        self
    }

    /// Sets `min_impurity_decrease` of the trees (≥ 0).
    pub fn min_impurity_decrease(mut self, decrease: f64) -> Self {
        self.tree.min_impurity_decrease = decrease;
        self
    }

    /// Sets the seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets how categorical columns are encoded for every tree (see
    /// [`DecisionTreeParams::encoding`](DecisionTreeParams#structfield.encoding)).
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.tree.encoding = encoding;
        self
    }

    /// Checks every parameter's range.
    pub fn validate(&self) -> Result<()> {
        if self.n_estimators == 0 {
            return Err(invalid("n_estimators", 0, "must be at least 1"));
        }
        let lr = self.learning_rate;
        if !(lr.is_finite() && lr > 0.0) {
            return Err(invalid("learning_rate", lr, "must be finite and > 0"));
        }
        let s = self.subsample;
        if !(s > 0.0 && s <= 1.0) {
            return Err(invalid("subsample", s, "must be in (0, 1]"));
        }
        self.tree.validate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_features_resolve_like_sklearn() {
        assert_eq!(MaxFeatures::All.resolve(10).unwrap(), 10);
        assert_eq!(MaxFeatures::Sqrt.resolve(10).unwrap(), 3);
        assert_eq!(MaxFeatures::Sqrt.resolve(108).unwrap(), 10);
        assert_eq!(MaxFeatures::Log2.resolve(10).unwrap(), 3);
        assert_eq!(MaxFeatures::Log2.resolve(1).unwrap(), 1);
        assert_eq!(MaxFeatures::Fraction(0.5).resolve(7).unwrap(), 3);
        assert_eq!(MaxFeatures::Fraction(0.01).resolve(7).unwrap(), 1);
        assert!(MaxFeatures::Count(11).resolve(10).is_err());
        assert!(MaxFeatures::Fraction(0.0).resolve(10).is_err());
        assert!(MaxFeatures::Fraction(f64::NAN).validate().is_err());
    }

    #[test]
    fn validation_names_the_parameter() {
        let e = DecisionTreeParams::classifier()
            .min_weight_fraction_leaf(0.7)
            .validate()
            .unwrap_err();
        assert!(e.to_string().contains("min_weight_fraction_leaf"), "{e}");
        assert!(DecisionTreeParams::classifier()
            .max_depth(0)
            .validate()
            .is_err());
        assert!(RandomForestParams::default()
            .n_estimators(0)
            .validate()
            .is_err());
        assert!(AdaBoostParams::new().learning_rate(0.0).validate().is_err());
        assert!(AdaBoostParams::new()
            .tree(DecisionTreeParams::regressor())
            .validate()
            .is_err());
        assert!(GradientBoostingParams::new()
            .subsample(1.5)
            .validate()
            .is_err());
        assert!(GradientBoostingParams::new().validate().is_ok());
    }
}
