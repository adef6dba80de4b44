//! Parameters of NRE and of the MLP baseline: plain structs whose
//! `Default` follows the paper where it speaks, with chained setters and
//! `validate()`.

use serde::{Deserialize, Serialize};

use rulecover_core::Encoding;

use crate::data::ConstantFeatures;
use crate::error::{invalid, Result};
use crate::loss::Loss;
use crate::train::{StopOn, TrainParams};

/// What NRE's untrained model — epoch 0 of early stopping, and the model
/// of `max_epochs(0)` — is (§IV-A leaves the leaf value `c_k` of a
/// classification tree open). Training always starts from the paper's
/// network (`c_k = (n⁺ − n⁻)/n`, no offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum NreInit {
    /// The calibrated copy of the tree (the default,
    /// [`crate::encode::calibrate`]): every rule gets an offset `d_k` on
    /// its support, its leaf's class-1 log-odds, and `c_k = 0`, so it
    /// predicts each row with its leaf's class frequency, as the tree. The
    /// fit keeps it unless the best trained epoch beats it on the
    /// validation rows by [`TrainParams::stop_on`].
    #[default]
    Calibrated,
    /// The paper's network itself: a row scores `c_k` times its depth
    /// inside the leaf, a sign but not a probability (an 84/16 set's
    /// untrained network had a Brier score of 0.236, ZeroR's 0.172). The
    /// `paper004` suite uses it.
    Paper,
}

impl NreInit {
    /// What a parameter file written before this option meant.
    fn before_option() -> Self {
        NreInit::Paper
    }
}

/// Parameters of a neural rule ensemble (Algorithm 1).
///
/// ```
/// use rc_nre::{Loss, NreParams};
/// let p = NreParams::default().max_depth(4).deep(true).loss(Loss::Hinge).seed(3);
/// assert!(p.validate().is_ok());
/// assert!(NreParams::default().max_depth(0).validate().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NreParams {
    /// Maximum depth of the initial tree, the model's only size parameter
    /// (paper grid {2, 4, 6, 8, 10}; default 6). At least 1.
    pub max_depth: usize,
    /// Minimum rows per leaf of the initial tree (default 1, as
    /// scikit-learn).
    pub min_samples_leaf: usize,
    /// Deep neural rules: a second per-rule layer initialised to the
    /// identity (§IV-A; default false, the paper's benchmark setting).
    pub deep: bool,
    /// What the untrained model is (default [`NreInit::Calibrated`]; a
    /// parameter file without this field reads as [`NreInit::Paper`], the
    /// only choice before the option).
    #[serde(default = "NreInit::before_option")]
    pub init: NreInit,
    /// Optimiser, loss, batches and stopping (default: early stopping on
    /// the validation Brier score, [`StopOn::Brier`]).
    pub train: TrainParams,
    /// Refit on all rows (default false): the validation split only
    /// chooses the number of epochs (the best validation epoch, 0 = the
    /// tree itself); the tree is then grown again on every training row and
    /// the network trained for that many epochs without validation. Off by
    /// default because an epoch count chosen on one tree's trajectory does
    /// not transfer reliably to another tree's (twonorm, 1,500 training
    /// rows, depth 4: 9.6 % test error refitted against 5.4 % for the model
    /// trained beside its validation rows). Ignored without a validation
    /// split.
    #[serde(default)]
    pub refit: bool,
    /// What standardisation does with constant features.
    pub constant_features: ConstantFeatures,
    /// How raw columns become the numbers the network reads (default
    /// one-hot with every level; numeric columns pass through).
    /// [`Encoding::Native`] leaves categorical columns as level codes,
    /// which the networks refuse ([`crate::Error::CategoricalFeature`]).
    #[serde(default)]
    pub encoding: Encoding,
    /// Seed of the validation split and of the mini-batch order.
    pub seed: u64,
}

impl Default for NreParams {
    /// Depth 6, the calibrated untrained model ([`NreInit::Calibrated`])
    /// and early stopping on the validation Brier score: the model kept is
    /// never worse on the validation rows than the calibrated copy of the
    /// tree. [`NreParams::paper`] is the paper's protocol.
    fn default() -> Self {
        NreParams {
            max_depth: 6,
            min_samples_leaf: 1,
            deep: false,
            init: NreInit::Calibrated,
            train: TrainParams::default().stop_on(StopOn::Brier),
            refit: false,
            constant_features: ConstantFeatures::Reject,
            encoding: Encoding::default(),
            seed: 0,
        }
    }
}

impl NreParams {
    /// The protocol of the `paper004` suite: the paper's untrained network
    /// ([`NreInit::Paper`]) and early stopping on the validation error
    /// ([`StopOn::Error`]), with the other defaults.
    pub fn paper() -> Self {
        NreParams::default()
            .init(NreInit::Paper)
            .stop_on(StopOn::Error)
    }

    /// Sets what the untrained model is.
    pub fn init(mut self, init: NreInit) -> Self {
        self.init = init;
        self
    }

    /// Sets the initial tree's maximum depth (≥ 1).
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// Sets the initial tree's minimum rows per leaf (≥ 1).
    pub fn min_samples_leaf(mut self, n: usize) -> Self {
        self.min_samples_leaf = n;
        self
    }

    /// Uses deep neural rules (second layer `V_k = I`, `b_k = 0`).
    pub fn deep(mut self, deep: bool) -> Self {
        self.deep = deep;
        self
    }

    /// Replaces all training settings.
    pub fn train(mut self, train: TrainParams) -> Self {
        self.train = train;
        self
    }

    /// Refits on all rows for the validated epoch count (default false).
    pub fn refit(mut self, refit: bool) -> Self {
        self.refit = refit;
        self
    }

    /// Sets Adam's learning rate (> 0; paper 0.01).
    pub fn learning_rate(mut self, lr: f64) -> Self {
        self.train.learning_rate = lr;
        self
    }

    /// Sets the mini-batch size in rows (≥ 1).
    pub fn batch_size(mut self, n: usize) -> Self {
        self.train.batch_size = n;
        self
    }

    /// Sets the maximum number of epochs.
    pub fn max_epochs(mut self, n: usize) -> Self {
        self.train.max_epochs = n;
        self
    }

    /// Sets the early-stopping patience in epochs (≥ 1).
    pub fn patience(mut self, n: usize) -> Self {
        self.train.patience = n;
        self
    }

    /// Sets the fraction of rows held out for early stopping (`0..=0.5`).
    pub fn validation_fraction(mut self, f: f64) -> Self {
        self.train.validation_fraction = f;
        self
    }

    /// Sets the loss.
    pub fn loss(mut self, loss: Loss) -> Self {
        self.train.loss = loss;
        self
    }

    /// Sets what early stopping watches.
    pub fn stop_on(mut self, stop_on: StopOn) -> Self {
        self.train.stop_on = stop_on;
        self
    }

    /// Sets the L2 shrinkage `ρ` (≥ 0).
    pub fn l2(mut self, rho: f64) -> Self {
        self.train.l2 = rho;
        self
    }

    /// Sets the treatment of constant features.
    pub fn constant_features(mut self, c: ConstantFeatures) -> Self {
        self.constant_features = c;
        self
    }

    /// Sets the input encoding (default `Encoding::OneHot { drop_first:
    /// false }`).
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// Sets the seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Checks every setting.
    pub fn validate(&self) -> Result<()> {
        if self.max_depth == 0 {
            return Err(invalid("max_depth", 0, "must be at least 1 (one split)"));
        }
        if self.min_samples_leaf == 0 {
            return Err(invalid("min_samples_leaf", 0, "must be at least 1"));
        }
        self.train.validate()
    }
}

/// Parameters of the one-hidden-layer ReLU network baseline (the paper's
/// "ANN"): fully connected, `hidden` ReLU units, one output score, trained
/// with the same optimiser and schedule as NRE.
///
/// ```
/// use rc_nre::MlpParams;
/// assert!(MlpParams::default().hidden(64).validate().is_ok());
/// assert!(MlpParams::default().hidden(0).validate().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlpParams {
    /// Hidden units (paper grid {64, 128, 256, 512, 1024}; default 256).
    pub hidden: usize,
    /// Optimiser, loss, batches and stopping (the same defaults as NRE).
    pub train: TrainParams,
    /// What standardisation does with constant features.
    pub constant_features: ConstantFeatures,
    /// How raw columns become the numbers the network reads (default
    /// one-hot with every level, as for [`NreParams`]).
    #[serde(default)]
    pub encoding: Encoding,
    /// Seed of the initial weights, the validation split and the batches.
    pub seed: u64,
}

impl Default for MlpParams {
    fn default() -> Self {
        MlpParams {
            hidden: 256,
            train: TrainParams::default(),
            constant_features: ConstantFeatures::Reject,
            encoding: Encoding::default(),
            seed: 0,
        }
    }
}

impl MlpParams {
    /// Sets the number of hidden units (≥ 1).
    pub fn hidden(mut self, n: usize) -> Self {
        self.hidden = n;
        self
    }

    /// Replaces all training settings.
    pub fn train(mut self, train: TrainParams) -> Self {
        self.train = train;
        self
    }

    /// Sets the treatment of constant features.
    pub fn constant_features(mut self, c: ConstantFeatures) -> Self {
        self.constant_features = c;
        self
    }

    /// Sets the input encoding (default `Encoding::OneHot { drop_first:
    /// false }`).
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// Sets the seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Checks every setting.
    pub fn validate(&self) -> Result<()> {
        if self.hidden == 0 {
            return Err(invalid("hidden", 0, "must be at least 1 unit"));
        }
        self.train.validate()
    }
}
