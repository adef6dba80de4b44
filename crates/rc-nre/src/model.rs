//! Algorithm 1 end to end: encode and standardise, grow the tree, encode
//! its leaves, train — and the fitted model that predicts and prints its
//! rules.

use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

use rc_tree::{DecisionTree, DecisionTreeParams};
use rulecover_core::rng::derive_seed;
use rulecover_core::{
    Antecedent, CheckParams, Checked, Dataset, Encoder, Feature, Fit, Fitted, Outcome, Predict,
    Predictions, RuleModel, RuleSet, WeightedRule,
};

use crate::data::{
    positive_share, select_rows, signed_labels, stratified_split, training_rows, Standardizer,
};
use crate::encode::{calibrate, encode_tree, PathStep};
use crate::error::{Error, Result};
use crate::loss::Loss;
use crate::network::Network;
use crate::network::{NeuralRules, RulesCache};
use crate::params::{NreInit, NreParams};
use crate::rules::{export_rules, NeuralRule};
use crate::train::{
    gather, scores_of, train, validation_scores, TrainHistory, TrainParams, TrainSet, EVAL_CHUNK,
};

/// A fitted neural rule ensemble.
///
/// It stores the input [`Encoder`] fitted on the training data: every
/// method that reads data ([`Predict::predict`],
/// [`NreModel::predict_proba`], [`NreModel::supports`], …) first matches
/// the columns by name and one-hot encodes categorical ones as at fit
/// ([`Encoder::transform`]). The rules, the tree and the network refer to
/// the *encoded* features ([`NreModel::features`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NreModel {
    encoder: Encoder,
    standardizer: Standardizer,
    tree: DecisionTree,
    inputs: Vec<usize>,
    leaves: Vec<usize>,
    paths: Vec<Vec<PathStep>>,
    network: NeuralRules,
    loss: Loss,
    prior: f64,
    history: TrainHistory,
    /// Training rows in the support of each rule.
    coverage: Vec<usize>,
}

/// What `fit` needs from the data, computed once.
struct Prepared {
    standardizer: Standardizer,
    /// All features, standardised.
    z: DMatrix<f64>,
    y: Vec<f64>,
    /// Positive row weights (`None`: unit weights).
    weights: Option<Vec<f64>>,
    prior: f64,
}

fn prepare(params: &NreParams, data: &Dataset, weights: Option<Vec<f64>>) -> Result<Prepared> {
    crate::data::check_features(data)?;
    let y = signed_labels(data)?;
    let standardizer =
        Standardizer::fit_weighted(data, weights.as_deref(), params.constant_features)?;
    let all: Vec<usize> = (0..data.n_features()).collect();
    let z = standardizer.transform(data, &all)?;
    let prior = positive_share(&y, weights.as_deref());
    Ok(Prepared {
        standardizer,
        z,
        y,
        weights,
        prior,
    })
}

/// Entries `rows` of optional per-row values.
fn pick(values: Option<&[f64]>, rows: &[usize]) -> Option<Vec<f64>> {
    values.map(|v| rows.iter().map(|&i| v[i]).collect())
}

/// Grows the Gini tree (≡ Eq. 15) on rows `rows` of the encoded,
/// unstandardised features.
///
/// Algorithm 1 grows it on standardised values; CART's partition is
/// invariant under that affine map, so the tree is grown on the raw values
/// (exactly the tree rc-tree grows for these rows and seed, float32
/// threshold placement included) and [`encode_tree`] maps its thresholds
/// into standardised space. Growing it on standardised values instead
/// places some midpoints differently in floating point (adult, fold 2: one
/// of 6,513 test rows routed differently from the same-depth CART).
///
/// With row weights the tree is rc-tree's weighted CART on the same rows
/// (`weights` holds one weight per row of `data`).
fn grow_tree(
    params: &NreParams,
    data: &Dataset,
    rows: &[usize],
    weights: Option<&[f64]>,
) -> Result<DecisionTree> {
    let sub = data.subset(rows)?;
    let cart = DecisionTreeParams::classifier()
        .max_depth(params.max_depth)
        .min_samples_leaf(params.min_samples_leaf)
        .seed(params.seed);
    Ok(match pick(weights, rows) {
        None => cart.fit(&sub)?,
        Some(w) => cart.fit_weighted(&sub, &w)?,
    })
}

impl NreParams {
    /// Steps 1–5 of Algorithm 1 without training: encodes and
    /// standardises `data`, grows the tree on all of its rows and encodes
    /// every leaf as a neural rule. The network is the untrained model of
    /// [`NreParams::init`] (by default the calibrated copy of the tree,
    /// which has offsets); [`Fit::fit`] trains from the paper's network, so
    /// to train as it does, initialise with [`NreInit::Paper`] and train
    /// with [`NreModel::train`].
    pub fn initialize(&self, data: &Dataset) -> Result<NreModel> {
        self.validate()?;
        let (encoder, data) = Encoder::fit(data, self.encoding)?;
        let prep = prepare(self, &data, None)?;
        let rows: Vec<usize> = (0..data.n_rows()).collect();
        let tree = grow_tree(self, &data, &rows, None)?;
        let mut model = NreModel::from_parts(self, encoder, &prep, tree)?;
        if let Some(cal) = model.calibrated_copy(self)? {
            model.network = cal;
        }
        model.coverage = coverage_of(&model.network, &select_columns(&prep.z, &model.inputs));
        Ok(model)
    }

    /// [`Fit::fit`] with an observer called after every epoch with the
    /// epoch number (0 = initialisation) and the network. With
    /// [`NreParams::refit`] the observer sees only the
    /// final training on all rows, not the epoch-choosing run.
    pub fn fit_observed(
        &self,
        data: &Dataset,
        observer: &mut dyn FnMut(usize, &NeuralRules),
    ) -> Result<NreModel> {
        Self::fit_rows(self.check_inputs(data, None)?, data, None, observer)
    }

    /// [`NreParams::fit_observed`] with checked parameters and optional
    /// (checked) row weights.
    fn fit_rows(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
        observer: &mut dyn FnMut(usize, &NeuralRules),
    ) -> Result<NreModel> {
        let (encoder, encoded) = Encoder::fit(data, params.encoding)?;
        let (data, weights) = training_rows(encoded, weights)?;
        let data = &data;
        let prep = prepare(params.get(), data, weights)?;
        let w = prep.weights.as_deref();
        let (fit_rows, val_rows) = stratified_split(
            &prep.y,
            params.train.validation_fraction,
            derive_seed(params.seed, 1),
        );
        let refit = params.refit && !val_rows.is_empty();
        let tree = grow_tree(params.get(), data, &fit_rows, w)?;
        let mut model = NreModel::from_parts(params.get(), encoder.clone(), &prep, tree)?;
        let calibrated = model.calibrated_copy(params.get())?;
        let xf = select_columns(&prep.z, &model.inputs);
        let x_fit = select_rows(&xf, &fit_rows);
        let y_fit: Vec<f64> = fit_rows.iter().map(|&i| prep.y[i]).collect();
        let w_fit = pick(w, &fit_rows);
        let x_val = select_rows(&xf, &val_rows);
        let y_val: Vec<f64> = val_rows.iter().map(|&i| prep.y[i]).collect();
        let w_val = pick(w, &val_rows);
        let val = (!val_rows.is_empty()).then_some(TrainSet {
            x: &x_val,
            y: &y_val,
            weights: w_val.as_deref(),
        });
        let mut no_observer = |_: usize, _: &NeuralRules| {};
        let first_observer: &mut dyn FnMut(usize, &NeuralRules) =
            if refit { &mut no_observer } else { observer };
        model.history = train(
            &mut model.network,
            TrainSet {
                x: &x_fit,
                y: &y_fit,
                weights: w_fit.as_deref(),
            },
            val,
            &params.train,
            derive_seed(params.seed, 2),
            first_observer,
        )?;
        let val = (!val_rows.is_empty()).then_some(TrainSet {
            x: &x_val,
            y: &y_val,
            weights: w_val.as_deref(),
        });
        model.keep_calibrated(calibrated, val, &params.train);
        if !refit {
            model.coverage = coverage_of(&model.network, &xf);
            return Ok(model);
        }
        // Refit: the tree on every training row, trained for the epoch
        // count the validation rows chose.
        let all: Vec<usize> = (0..data.n_rows()).collect();
        let tree = grow_tree(params.get(), data, &all, w)?;
        let mut full = NreModel::from_parts(params.get(), encoder, &prep, tree)?;
        let full_calibrated = full.calibrated_copy(params.get())?;
        let x_all = select_columns(&prep.z, &full.inputs);
        let epochs = model.history.best_epoch;
        let final_params = params
            .get()
            .train
            .clone()
            .validation_fraction(0.0)
            .max_epochs(epochs);
        train(
            &mut full.network,
            TrainSet {
                x: &x_all,
                y: &prep.y,
                weights: w,
            },
            None,
            &final_params,
            derive_seed(params.seed, 2),
            observer,
        )?;
        if model.history.kept_calibrated_tree {
            if let Some(cal) = full_calibrated {
                full.network = cal;
            }
        }
        full.history = model.history;
        full.history.refit_epochs = Some(epochs);
        full.coverage = coverage_of(&full.network, &x_all);
        Ok(full)
    }
}

impl NreParams {
    /// Fits on all of `train` (standardisation and tree included) and
    /// early-stops on the separate rows `validation` (see
    /// [`crate::TrainParams::stop_on`], `patience`, `max_epochs`; the
    /// validation fraction and [`NreParams::refit`] are not used). The
    /// history's validation curve ([`TrainHistory::val_error_curve`]) lets
    /// a cross-validation choose the number of epochs with
    /// [`crate::mean_best_epoch`]. A choice of 0 epochs means the untrained
    /// network (which predicts as its tree): fit it on all rows with
    /// `validation_fraction(0.0).max_epochs(0)`. For a positive choice,
    /// `max_epochs(chosen)` on all rows is possible, but a fixed epoch count
    /// carries over poorly to a new tree's trajectory; the `paper004` suite
    /// uses the default (early-stopped) fit instead.
    ///
    /// `validation` is read by column name and encoded as `train_data`
    /// was; it needs the training features, finite values and both classes (stratified folds have them); otherwise a typed
    /// error.
    pub fn fit_validated(&self, train_data: &Dataset, validation: &Dataset) -> Result<NreModel> {
        self.validate()?;
        let (encoder, train_data) = Encoder::fit(train_data, self.encoding)?;
        let prep = prepare(self, &train_data, None)?;
        let all: Vec<usize> = (0..train_data.n_rows()).collect();
        let tree = grow_tree(self, &train_data, &all, None)?;
        let mut model = NreModel::from_parts(self, encoder, &prep, tree)?;
        let calibrated = model.calibrated_copy(self)?;
        let x = select_columns(&prep.z, &model.inputs);
        let validation = model.encoder.transform(validation)?;
        let x_val = model.network_inputs(&validation)?;
        let y_val = signed_labels(&validation)?;
        model.history = train(
            &mut model.network,
            TrainSet::new(&x, &prep.y),
            Some(TrainSet::new(&x_val, &y_val)),
            &self.train,
            derive_seed(self.seed, 2),
            &mut |_, _| {},
        )?;
        model.keep_calibrated(calibrated, Some(TrainSet::new(&x_val, &y_val)), &self.train);
        model.coverage = coverage_of(&model.network, &x);
        Ok(model)
    }
}

/// The seed of the validation split and the batches ([`NreParams::seed`]).
impl rulecover_core::Reseed for NreParams {
    fn random_seed(&self) -> Option<u64> {
        Some(self.seed)
    }

    fn with_random_seed(&self, seed: u64) -> Self {
        self.clone().seed(seed)
    }
}

impl CheckParams for NreParams {
    type ParamError = Error;

    /// [`NreParams::validate`].
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for NreParams {
    type Model = NreModel;
    type Error = Error;

    /// Algorithm 1: standardise with the training statistics, hold out
    /// `validation_fraction` of the rows (stratified), grow the Gini tree
    /// (≡ Eq. 15) on the rest, encode its leaves and train all parameters
    /// with Adam, choosing the best epoch on the validation rows (see
    /// [`crate::TrainParams::stop_on`]) and returning that epoch's
    /// parameters; with [`NreParams::refit`] (not the default), grow the
    /// tree again on all rows and train it for that many epochs without
    /// validation instead.
    ///
    /// With one finite, non-negative weight per row (not all zero), the
    /// standardisation statistics, the class prior, the initial
    /// tree (rc-tree's weighted CART), the training loss and the
    /// early-stopping error and loss are all weighted.
    ///
    /// - Rows of weight 0 are dropped before anything else (after the
    ///   finiteness check, which reads every row): the model is exactly
    ///   the model fitted on the other rows.
    /// - Equal weights (whatever their value) give exactly the unweighted
    ///   model.
    /// - An integer weight acts as that many copies of the row in
    ///   expectation over the mini-batch order; with full-batch training
    ///   and no validation split the training steps are the replicated
    ///   data's steps up to floating-point rounding (see
    ///   [`crate::train()`]). The validation split draws rows, not copies.
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<NreModel> {
        Self::fit_rows(params, data, weights, &mut |_, _| {})
    }
}

/// Number of rows of `x` (standardised network inputs) in the support of
/// each rule (`s_k > 0`), computed in chunks.
fn coverage_of(network: &NeuralRules, x: &DMatrix<f64>) -> Vec<usize> {
    let mut counts = vec![0; network.n_rules()];
    let mut cache = RulesCache::default();
    let mut buf = DMatrix::zeros(0, 0);
    let mut start = 0;
    while start < x.nrows() {
        let end = (start + EVAL_CHUNK).min(x.nrows());
        let rows: Vec<usize> = (start..end).collect();
        gather(x, &rows, &mut buf);
        network.forward(&buf, &mut cache);
        for (count, col) in counts
            .iter_mut()
            .zip(network.supports_of(&cache).column_iter())
        {
            *count += col.iter().filter(|&&v| v > 0.0).count();
        }
        start = end;
    }
    counts
}

/// `P(1)` kept strictly on the side of ½ given by the sign of `f`: the
/// class is `sign f` (notes §1.5), but a row within float64 rounding of a
/// rule's boundary (e.g. a test value equal to a threshold at 0) has `f`
/// so small that its probability rounds to exactly ½, which would read as
/// class 0 whatever the sign.
fn proba_on_side(p: f64, f: f64) -> f64 {
    if f > 0.0 && p <= 0.5 {
        0.5 + f64::EPSILON / 2.0
    } else if f < 0.0 && p >= 0.5 {
        0.5 - f64::EPSILON / 4.0
    } else {
        p
    }
}

fn select_columns(z: &DMatrix<f64>, cols: &[usize]) -> DMatrix<f64> {
    let mut out = DMatrix::zeros(z.nrows(), cols.len());
    for (c, &j) in cols.iter().enumerate() {
        out.column_mut(c).copy_from(&z.column(j));
    }
    out
}

impl NreModel {
    /// With [`NreInit::Calibrated`], the calibrated copy of the untrained
    /// network ([`calibrate`]); call it before training.
    fn calibrated_copy(&self, params: &NreParams) -> Result<Option<NeuralRules>> {
        match params.init {
            NreInit::Paper => Ok(None),
            NreInit::Calibrated => Ok(Some(calibrate(
                &self.network,
                &self.leaves,
                self.tree.tree(),
                params.train.loss,
            )?)),
        }
    }

    /// Early stopping's epoch 0 under [`NreInit::Calibrated`]: replaces
    /// the trained network by the calibrated copy of the tree unless the
    /// best epoch beats it on the validation rows by the stopping
    /// criterion (or, without validation rows, when nothing was trained).
    fn keep_calibrated(
        &mut self,
        calibrated: Option<NeuralRules>,
        val: Option<TrainSet<'_>>,
        params: &TrainParams,
    ) {
        let Some(cal) = calibrated else { return };
        let h = &self.history;
        let keep = match val.filter(|v| v.x.nrows() > 0) {
            Some(v) => {
                let ours = validation_scores(&cal, &v, params.loss);
                let e = h.best_epoch;
                let best = if e == 0 {
                    (h.initial_val_error, h.initial_val_loss, h.initial_val_brier)
                } else {
                    (
                        h.val_error.get(e - 1).copied(),
                        h.val_loss.get(e - 1).copied(),
                        h.val_brier.get(e - 1).copied(),
                    )
                };
                match best {
                    (Some(a), Some(b), Some(c)) => !params.stop_on.prefers((a, b, c), ours),
                    _ => true,
                }
            }
            None => h.epochs == 0,
        };
        if keep {
            self.network = cal;
            self.history.best_epoch = 0;
            self.history.kept_calibrated_tree = true;
        }
    }

    fn from_parts(
        params: &NreParams,
        encoder: Encoder,
        prep: &Prepared,
        tree: DecisionTree,
    ) -> Result<NreModel> {
        let enc = encode_tree(tree.tree(), &prep.standardizer, params.deep)?;
        let n_rules = enc.network.n_rules();
        Ok(NreModel {
            encoder,
            standardizer: prep.standardizer.clone(),
            tree,
            inputs: enc.inputs,
            leaves: enc.leaves,
            paths: enc.paths,
            network: enc.network,
            loss: params.train.loss,
            prior: prep.prior,
            history: TrainHistory::default(),
            coverage: vec![0; n_rules],
        })
    }

    /// The encoded training features the standardisation, the tree, the
    /// network and the rules refer to by column index: numeric features
    /// as they are, categorical ones as their one-hot indicators
    /// ([`Encoder::encoded_features`]).
    pub fn features(&self) -> &[Feature] {
        self.encoder.encoded_features()
    }

    /// Class names in class order (class 1 is the positive class).
    pub fn class_names(&self) -> &[String] {
        self.encoder.schema().classes()
    }

    /// Training rows in the support of each rule (`s_k > 0`), counted
    /// when the network was last fitted or trained: every row given to the
    /// fit (validation rows included; rows of weight 0 excluded).
    pub fn coverage(&self) -> &[usize] {
        &self.coverage
    }

    /// The standardisation fitted on the training data.
    pub fn standardizer(&self) -> &Standardizer {
        &self.standardizer
    }

    /// The tree the network was initialised from, grown on the encoded
    /// (unstandardised) features of the rows used for training. It reads
    /// encoded data: give it `model.encoder().transform(data)?` (numeric
    /// data is its own encoding).
    pub fn tree(&self) -> &DecisionTree {
        &self.tree
    }

    /// The network's inputs `x_T`: the columns the tree splits on.
    pub fn inputs(&self) -> &[usize] {
        &self.inputs
    }

    /// Leaf node id each rule came from.
    pub fn leaves(&self) -> &[usize] {
        &self.leaves
    }

    /// Root-first tree path each rule came from.
    pub fn paths(&self) -> &[Vec<PathStep>] {
        &self.paths
    }

    /// The trained network.
    pub fn network(&self) -> &NeuralRules {
        &self.network
    }

    /// The loss it was trained with.
    pub fn loss(&self) -> Loss {
        self.loss
    }

    /// Share of class 1 among the training rows: the probability given to
    /// a row that no rule covers (`f = 0` with no active rule).
    pub fn prior(&self) -> f64 {
        self.prior
    }

    /// The training history (empty for an untrained model).
    pub fn history(&self) -> &TrainHistory {
        &self.history
    }

    /// Keeps only rules `keep` (in that order), e.g. to study one rule as
    /// in the paper's Figs. 4 and 5.
    pub fn retain_rules(&mut self, keep: &[usize]) -> Result<()> {
        self.network = self.network.retain_rules(keep)?;
        self.coverage = keep.iter().map(|&k| self.coverage[k]).collect();
        self.leaves = keep.iter().map(|&k| self.leaves[k]).collect();
        self.paths = keep.iter().map(|&k| self.paths[k].clone()).collect();
        Ok(())
    }

    /// Replaces the network (e.g. by a snapshot taken during training); it
    /// must have the same inputs and rules. The rules' training coverage
    /// ([`NreModel::coverage`]) is recounted on `training` (the data the
    /// network was trained on).
    pub fn set_network(&mut self, network: NeuralRules, training: &Dataset) -> Result<()> {
        if network.n_inputs() != self.network.n_inputs()
            || network.units_per_rule() != self.network.units_per_rule()
            || network.is_deep() != self.network.is_deep()
        {
            return Err(crate::error::invalid(
                "network",
                format!(
                    "{} rules over {} inputs",
                    network.n_rules(),
                    network.n_inputs()
                ),
                format!(
                    "must have the shape of the model's network ({} rules over {} inputs)",
                    self.network.n_rules(),
                    self.network.n_inputs()
                ),
            ));
        }
        let x = self.network_inputs(training)?;
        self.coverage = coverage_of(&network, &x);
        self.network = network;
        Ok(())
    }

    /// Standardised inputs `x_T` of every row of `data` (columns matched
    /// by name and encoded as at fit).
    ///
    /// # Errors
    /// The encoder's errors ([`rulecover_core::Error::MissingColumn`],
    /// [`rulecover_core::Error::UnseenLevel`], …, as [`Error::Core`]), and
    /// [`Error::NonFinite`] naming the feature and the (0-based) row of a
    /// missing or infinite value in a column the network reads.
    pub fn network_inputs(&self, data: &Dataset) -> Result<DMatrix<f64>> {
        let data = self.encoder.transform(data)?;
        self.standardizer.transform(&data, &self.inputs)
    }

    /// (Continues to) train the network on `data` with `params`; with a
    /// validation fraction, early stopping holds out a stratified part of
    /// `data`. The tree and standardisation are kept; the rules' coverage
    /// is recounted on `data`.
    pub fn train(
        &mut self,
        data: &Dataset,
        params: &TrainParams,
        seed: u64,
        observer: &mut dyn FnMut(usize, &NeuralRules),
    ) -> Result<TrainHistory> {
        params.validate()?;
        let data = self.encoder.transform(data)?;
        let y = signed_labels(&data)?;
        let x = self.network_inputs(&data)?;
        let (fit_rows, val_rows) =
            stratified_split(&y, params.validation_fraction, derive_seed(seed, 1));
        let x_fit = select_rows(&x, &fit_rows);
        let y_fit: Vec<f64> = fit_rows.iter().map(|&i| y[i]).collect();
        let x_val = select_rows(&x, &val_rows);
        let y_val: Vec<f64> = val_rows.iter().map(|&i| y[i]).collect();
        let val = (!val_rows.is_empty()).then_some(TrainSet::new(&x_val, &y_val));
        self.loss = params.loss;
        let hist = train(
            &mut self.network,
            TrainSet::new(&x_fit, &y_fit),
            val,
            params,
            derive_seed(seed, 2),
            observer,
        )?;
        self.coverage = coverage_of(&self.network, &x);
        self.history = hist.clone();
        Ok(hist)
    }

    /// The score `f(x) = Σ_k r_k(x)` of every row.
    pub fn decision_function(&self, data: &Dataset) -> Result<Vec<f64>> {
        let x = self.network_inputs(data)?;
        Ok(scores_of(&self.network, &x))
    }

    /// The supports `s_k(x) = min_j σ(·)` of every rule on every row (`n ×
    /// m`; `r_k = c_k s_k`; row `i` is covered by rule `k` when `s_k > 0`).
    pub fn supports(&self, data: &Dataset) -> Result<DMatrix<f64>> {
        let x = self.network_inputs(data)?;
        Ok(self.network.supports(&x))
    }

    /// Number of rows of `data` covered by each rule (`s_k > 0`).
    pub fn rule_coverage(&self, data: &Dataset) -> Result<Vec<usize>> {
        let s = self.supports(data)?;
        Ok(s.column_iter()
            .map(|c| c.iter().filter(|&&v| v > 0.0).count())
            .collect())
    }

    /// Probability of class 1 (the positive class) for every row:
    /// `loss.proba(f)` of the score `f(x) = Σ_k c_k s_k(x)` — the sigmoid
    /// for the logistic loss — kept strictly above ½ when `f > 0` and
    /// below when `f < 0`, so the class is `sign f`; or the training
    /// (weighted) share of class 1 for a row no rule covers.
    pub fn predict_positive(&self, data: &Dataset) -> Result<Vec<f64>> {
        let x = self.network_inputs(data)?;
        let n = x.nrows();
        let mut out = Vec::with_capacity(n);
        let mut cache = RulesCache::default();
        let mut buf = DMatrix::zeros(0, 0);
        let mut start = 0;
        while start < n {
            let end = (start + EVAL_CHUNK).min(n);
            let rows: Vec<usize> = (start..end).collect();
            gather(&x, &rows, &mut buf);
            self.network.forward(&buf, &mut cache);
            let s = self.network.supports_of(&cache);
            for (i, &f) in self.network.scores(&cache).iter().enumerate() {
                let covered = s.row(i).iter().any(|&v| v > 0.0);
                out.push(if covered {
                    proba_on_side(self.loss.proba(f), f)
                } else {
                    self.prior
                });
            }
            start = end;
        }
        Ok(out)
    }

    /// Class probabilities, row-major `n × 2` in class order (the
    /// [`Predict`] layout): `[1 − p, p]` per row with `p` =
    /// [`NreModel::predict_positive`].
    pub fn predict_proba(&self, data: &Dataset) -> Result<Vec<f64>> {
        Ok(self
            .predict_positive(data)?
            .into_iter()
            .flat_map(|p| [1.0 - p, p])
            .collect())
    }

    /// Predicted class of every row (class 1 when `P(1) > ½`).
    pub fn predict_labels(&self, data: &Dataset) -> Result<Vec<usize>> {
        Ok(self
            .predict_positive(data)?
            .into_iter()
            .map(|p| usize::from(p > 0.5))
            .collect())
    }

    /// The trained rules as oblique conditions on the original (raw)
    /// features, in rule order.
    pub fn rules(&self) -> Vec<NeuralRule> {
        export_rules(
            &self.network,
            &self.inputs,
            &self.standardizer,
            &self.leaves,
        )
    }
}

impl Predict for NreModel {
    type Error = Error;

    /// Class probabilities, `n × 2` in class order: `proba[2i + 1]` is
    /// [`NreModel::predict_positive`] — the loss's link applied to the
    /// network score `f(x) = Σ_k c_k s_k(x)` (the sigmoid `1/(1 + e^{−f})`
    /// for the logistic loss, `clamp((1 + f)/2, 0, 1)` for the hinge and
    /// squared losses; see [`Loss::proba`]), kept on the side of ½ that
    /// `sign f` gives, or the training share of class 1 for a row no rule
    /// covers — and `proba[2i] = 1 − proba[2i + 1]`.
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        Ok(Predictions::Classes {
            n_classes: 2,
            proba: self.predict_proba(data)?,
        })
    }
}

impl Fitted for NreModel {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl RuleModel for NreModel {
    fn n_rules(&self) -> usize {
        self.network.n_rules()
    }

    /// Hidden units per rule (its tree path length).
    fn rule_lengths(&self) -> Vec<usize> {
        self.network.units_per_rule().to_vec()
    }

    fn render_rules(&self) -> String {
        let mut out = String::new();
        for r in self.rules() {
            out.push_str(&r.display(self.features(), self.class_names()).to_string());
            out.push('\n');
        }
        out
    }

    /// One rule per neural rule, in rule order, over the encoded features
    /// ([`NreModel::features`]) on their raw (unstandardised) scale.
    ///
    /// - **Antecedent.** A shallow rule is
    ///   [`Antecedent::Oblique`](rulecover_core::Antecedent::Oblique): the
    ///   conjunction of its units' half-spaces `Σ coef·x > t` (or `<`), one
    ///   per unit, the support `s_k > 0` (see [`NeuralRule::conditions`]).
    ///   A deep rule's support is not a conjunction of half-spaces — its
    ///   second layer mixes the ReLU activations `h_i = max(0, g_i(x))` of
    ///   the first — so it is a
    ///   [`Antecedent::Clause`](rulecover_core::Antecedent::Clause) of
    ///   printed literals, one per second-layer unit, `Σ_i v_i·max(0,
    ///   g_i(x)) > −b`, all of which must hold (text, not evaluable as a
    ///   condition; [`NreModel::rules`] gives the numbers).
    /// - **Outcome** [`Outcome::Value`](rulecover_core::Outcome::Value)`(d_k + c_k)`
    ///   ([`NeuralRule::vote`]). A row in the support adds `d_k + c_k ·
    ///   s_k(x)` to the score `f(x)`, where the support depth `s_k(x) > 0`
    ///   is the smallest unit activation (in standardised units), `c_k` the
    ///   output weight (the contribution per unit of depth) and `d_k` the
    ///   rule's offset (0 with the paper's start, [`crate::NreInit`]); the
    ///   value is the score at depth 1 and its sign the class the rule
    ///   votes for (positive: class 1). For the logistic loss `f` is the
    ///   log-odds of class 1.
    /// - **Weight** 1: the network has no weight beside `c_k`.
    /// - **Coverage**: training rows in the support, counted by the
    ///   network at fit ([`NreModel::coverage`]).
    fn rule_set(&self) -> RuleSet {
        let features = self.features();
        RuleSet {
            features: features.to_vec(),
            class_names: self.class_names().to_vec(),
            rules: self
                .rules()
                .iter()
                .zip(&self.coverage)
                .map(|(r, &coverage)| WeightedRule {
                    antecedent: match r.second_layer {
                        None => Antecedent::Oblique(r.conditions()),
                        Some(_) => Antecedent::Clause(r.deep_literals(features)),
                    },
                    outcome: Outcome::Value(r.vote()),
                    weight: 1.0,
                    coverage,
                    for_class: None,
                })
                .collect(),
        }
    }
}
