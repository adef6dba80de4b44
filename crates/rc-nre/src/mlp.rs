//! The paper's "ANN" baseline: a fully connected network with one hidden
//! ReLU layer and one output score, `f(x) = w₂ᵀ σ(W₁ x + b₁) + b₂`, on all
//! standardised features, trained with the same optimiser and schedule as
//! NRE. Weights start Glorot-uniform (scikit-learn's `MLPClassifier`
//! initialisation: `U(±√(6 / (fan_in + fan_out)))` for weights and
//! biases).

use nalgebra::{DMatrix, DMatrixView, DMatrixViewMut};
use serde::{Deserialize, Serialize};

use rulecover_core::rng::derive_seed;
use rulecover_core::{
    CheckParams, Checked, Dataset, Encoder, Feature, Fit, Fitted, Predict, Predictions, Rng,
};

use crate::data::{select_rows, signed_labels, stratified_split, training_rows, Standardizer};
use crate::error::{Error, Result};
use crate::loss::Loss;
use crate::network::Network;
use crate::params::MlpParams;
use crate::train::{scores_of, train, TrainHistory, TrainSet};

/// The network: `p` inputs, `h` hidden ReLU units, one output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mlp {
    p: usize,
    h: usize,
    /// `W₁ᵀ` (`p × h`, column-major), `b₁` (`h`), `w₂` (`h`), `b₂` (1).
    params: Vec<f64>,
}

/// Buffers of a forward pass of [`Mlp`].
#[derive(Debug, Default, Clone)]
pub struct MlpCache {
    z: DMatrix<f64>,
    a: DMatrix<f64>,
    f: Vec<f64>,
}

impl Mlp {
    /// A network with Glorot-uniform weights drawn with `seed`.
    pub fn new(p: usize, h: usize, seed: u64) -> Mlp {
        let mut rng = Rng::new(seed);
        let mut params = vec![0.0; p * h + 2 * h + 1];
        let b1 = (6.0 / (p + h) as f64).sqrt();
        let b2 = (6.0 / (h + 1) as f64).sqrt();
        let (first, second) = params.split_at_mut(p * h + h);
        for v in first.iter_mut() {
            *v = b1 * (2.0 * rng.next_f64() - 1.0);
        }
        for v in second.iter_mut() {
            *v = b2 * (2.0 * rng.next_f64() - 1.0);
        }
        Mlp { p, h, params }
    }

    /// Number of hidden units.
    pub fn hidden(&self) -> usize {
        self.h
    }

    fn w1t(&self) -> DMatrixView<'_, f64> {
        DMatrixView::from_slice(&self.params[..self.p * self.h], self.p, self.h)
    }

    /// The input weights of hidden unit `j` (column `j` of `W₁ᵀ`).
    pub(crate) fn unit_weights(&self, j: usize) -> &[f64] {
        &self.params[j * self.p..(j + 1) * self.p]
    }

    pub(crate) fn b1(&self) -> &[f64] {
        &self.params[self.p * self.h..self.p * self.h + self.h]
    }

    pub(crate) fn w2(&self) -> &[f64] {
        let o = self.p * self.h + self.h;
        &self.params[o..o + self.h]
    }

    pub(crate) fn b2(&self) -> f64 {
        self.params[self.params.len() - 1]
    }
}

impl Network for Mlp {
    type Cache = MlpCache;

    fn params(&self) -> &[f64] {
        &self.params
    }

    fn params_mut(&mut self) -> &mut [f64] {
        &mut self.params
    }

    fn n_inputs(&self) -> usize {
        self.p
    }

    fn forward(&self, x: &DMatrix<f64>, cache: &mut MlpCache) {
        let b = x.nrows();
        if cache.z.shape() != (b, self.h) {
            cache.z = DMatrix::zeros(b, self.h);
            cache.a = DMatrix::zeros(b, self.h);
        }
        cache.z.gemm(1.0, x, &self.w1t(), 0.0);
        for (mut col, &bj) in cache.z.column_iter_mut().zip(self.b1()) {
            col.add_scalar_mut(bj);
        }
        cache.a.copy_from(&cache.z);
        cache.a.apply(|v| *v = v.max(0.0));
        cache.f.clear();
        cache.f.resize(b, self.b2());
        for (col, &w) in cache.a.column_iter().zip(self.w2()) {
            for (f, &a) in cache.f.iter_mut().zip(col.iter()) {
                *f += w * a;
            }
        }
    }

    fn scores<'c>(&self, cache: &'c MlpCache) -> &'c [f64] {
        &cache.f
    }

    fn backward(&self, x: &DMatrix<f64>, cache: &mut MlpCache, df: &[f64], grad: &mut [f64]) {
        let (p, h) = (self.p, self.h);
        let o2 = p * h + h;
        // ∂w₂ = aᵀ df, ∂b₂ = Σ df.
        for (j, col) in cache.a.column_iter().enumerate() {
            grad[o2 + j] = col.iter().zip(df).map(|(a, d)| a * d).sum();
        }
        grad[o2 + h] = df.iter().sum();
        // ∂z = (df w₂ᵀ) ⊙ σ'(z), stored over cache.a.
        let w2 = self.w2().to_vec();
        for (j, (mut acol, zcol)) in cache
            .a
            .column_iter_mut()
            .zip(cache.z.column_iter())
            .enumerate()
        {
            let w = w2[j];
            for ((a, &z), &d) in acol.iter_mut().zip(zcol.iter()).zip(df) {
                *a = if z > 0.0 { d * w } else { 0.0 };
            }
        }
        // ∂W₁ᵀ = xᵀ ∂z, ∂b₁ = column sums.
        {
            let mut gw = DMatrixViewMut::from_slice(&mut grad[..p * h], p, h);
            gw.gemm(1.0, &x.transpose(), &cache.a, 0.0);
        }
        for (j, col) in cache.a.column_iter().enumerate() {
            grad[p * h + j] = col.sum();
        }
    }
}

/// A fitted one-hidden-layer ReLU network.
///
/// It stores the input [`Encoder`] fitted on the training data: every
/// method that reads data first matches the columns by name and one-hot
/// encodes categorical ones as at fit ([`Encoder::transform`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlpModel {
    encoder: Encoder,
    standardizer: Standardizer,
    network: Mlp,
    loss: Loss,
    history: TrainHistory,
}

/// The seed of the initial weights, the validation split and the batches
/// ([`MlpParams::seed`]).
impl rulecover_core::Reseed for MlpParams {
    fn random_seed(&self) -> Option<u64> {
        Some(self.seed)
    }

    fn with_random_seed(&self, seed: u64) -> Self {
        self.clone().seed(seed)
    }
}

impl CheckParams for MlpParams {
    type ParamError = Error;

    /// [`MlpParams::validate`].
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for MlpParams {
    type Model = MlpModel;
    type Error = Error;

    /// One-hot encodes categorical columns, standardises all features
    /// with the training statistics, holds out a stratified validation
    /// part and trains with Adam, keeping the best epoch on it (see
    /// [`crate::TrainParams::stop_on`]).
    ///
    /// With one finite, non-negative weight per row (not all zero), the
    /// semantics of [`crate::NreParams`]' weighted fit: weighted
    /// standardisation, training loss and early stopping; rows of weight 0
    /// dropped; equal weights give the unweighted model; integer weights
    /// act as copies in expectation over the mini-batches (up to rounding
    /// with full-batch training, see [`crate::train()`]).
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<MlpModel> {
        let (encoder, encoded) = Encoder::fit(data, params.encoding)?;
        let (data, weights) = training_rows(encoded, weights)?;
        let data = &data;
        let w = weights.as_deref();
        crate::data::check_features(data)?;
        let y = signed_labels(data)?;
        let standardizer = Standardizer::fit_weighted(data, w, params.constant_features)?;
        let all: Vec<usize> = (0..data.n_features()).collect();
        let z = standardizer.transform(data, &all)?;
        let (fit_rows, val_rows) = stratified_split(
            &y,
            params.train.validation_fraction,
            derive_seed(params.seed, 1),
        );
        let x_fit = select_rows(&z, &fit_rows);
        let y_fit: Vec<f64> = fit_rows.iter().map(|&i| y[i]).collect();
        let x_val = select_rows(&z, &val_rows);
        let y_val: Vec<f64> = val_rows.iter().map(|&i| y[i]).collect();
        let pick = |rows: &[usize]| w.map(|w| rows.iter().map(|&i| w[i]).collect::<Vec<f64>>());
        let (w_fit, w_val) = (pick(&fit_rows), pick(&val_rows));
        let mut network = Mlp::new(
            data.n_features(),
            params.hidden,
            derive_seed(params.seed, 3),
        );
        let val = (!val_rows.is_empty()).then_some(TrainSet {
            x: &x_val,
            y: &y_val,
            weights: w_val.as_deref(),
        });
        let history = train(
            &mut network,
            TrainSet {
                x: &x_fit,
                y: &y_fit,
                weights: w_fit.as_deref(),
            },
            val,
            &params.train,
            derive_seed(params.seed, 2),
            &mut |_, _| {},
        )?;
        Ok(MlpModel {
            encoder,
            standardizer,
            network,
            loss: params.train.loss,
            history,
        })
    }
}

impl MlpModel {
    /// The trained network.
    pub fn network(&self) -> &Mlp {
        &self.network
    }

    /// The encoded training features the network reads (numeric features
    /// as they are, categorical ones as their one-hot indicators).
    pub fn features(&self) -> &[Feature] {
        self.encoder.encoded_features()
    }

    /// Class names in class order (class 1 is the positive class).
    pub fn class_names(&self) -> &[String] {
        self.encoder.schema().classes()
    }

    /// The standardisation fitted on the (encoded) training data.
    pub fn standardizer(&self) -> &Standardizer {
        &self.standardizer
    }

    /// The training history.
    pub fn history(&self) -> &TrainHistory {
        &self.history
    }

    /// The loss it was trained with (its link from score to probability).
    pub fn loss(&self) -> Loss {
        self.loss
    }

    /// The score `f(x) = w₂ᵀ σ(W₁ z + b₁) + b₂` of every row (`z` the
    /// standardised encoded features).
    ///
    /// # Errors
    /// The encoder's errors (missing column, unseen level, … as
    /// [`Error::Core`]) and [`Error::NonFinite`] naming the feature and
    /// the (0-based) row of a missing or infinite value.
    pub fn decision_function(&self, data: &Dataset) -> Result<Vec<f64>> {
        let data = self.encoder.transform(data)?;
        let all: Vec<usize> = (0..data.n_features()).collect();
        let x = self.standardizer.transform(&data, &all)?;
        Ok(scores_of(&self.network, &x))
    }

    /// Probability of class 1 (the positive class) for every row:
    /// `loss.proba(f)` of the score — the sigmoid `1/(1 + e^{−f})` for the
    /// logistic loss, `clamp((1 + f)/2, 0, 1)` for the hinge and squared
    /// losses.
    pub fn predict_positive(&self, data: &Dataset) -> Result<Vec<f64>> {
        Ok(self
            .decision_function(data)?
            .into_iter()
            .map(|f| self.loss.proba(f))
            .collect())
    }

    /// Class probabilities, row-major `n × 2` in class order (the
    /// [`Predict`] layout): `[1 − p, p]` per row with `p` =
    /// [`MlpModel::predict_positive`].
    pub fn predict_proba(&self, data: &Dataset) -> Result<Vec<f64>> {
        Ok(self
            .predict_positive(data)?
            .into_iter()
            .flat_map(|p| [1.0 - p, p])
            .collect())
    }
}

impl Predict for MlpModel {
    type Error = Error;

    /// Class probabilities, `n × 2` in class order: class 1 gets
    /// [`MlpModel::predict_positive`] (the loss's link of the network
    /// score, the sigmoid for the logistic loss), class 0 its complement.
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        Ok(Predictions::Classes {
            n_classes: 2,
            proba: self.predict_proba(data)?,
        })
    }
}

impl Fitted for MlpModel {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl Mlp {
    /// Checks a network read from a model file: `p·h + 2h + 1` finite
    /// parameters (computed with checked arithmetic).
    ///
    /// # Errors
    /// [`rulecover_core::InvalidModel`] at `params` or `h`.
    pub fn check(&self) -> rulecover_core::validate::Validity {
        use rulecover_core::validate::{all_finite, length, InvalidModel};
        let len = self
            .p
            .checked_mul(self.h)
            .and_then(|w| w.checked_add(self.h.checked_mul(2)?))
            .and_then(|n| n.checked_add(1))
            .ok_or_else(|| InvalidModel::new("h", "the network is too large"))?;
        length(
            || "params".into(),
            self.params.len(),
            len,
            "parameters of the layers",
        )?;
        all_finite("params", &self.params)
    }
}

impl rulecover_core::Validate for MlpModel {
    /// The encoder holds together and has two classes; the standardizer
    /// and the network read its encoded features; the network holds
    /// together.
    fn validate(&self) -> rulecover_core::validate::Validity {
        use rulecover_core::validate::length;
        self.encoder.validate().map_err(|e| e.within("encoder"))?;
        crate::model::check_two_classes(&self.encoder)?;
        let n = self.encoder.encoded_features().len();
        self.standardizer
            .check(n)
            .map_err(|e| e.within("standardizer"))?;
        length(|| "network.p".into(), self.network.p, n, "encoded features")?;
        self.network.check().map_err(|e| e.within("network"))
    }
}
