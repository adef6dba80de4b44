//! Algorithm 1 end to end: standardise, grow the tree, encode its leaves,
//! train — and the fitted model that predicts and prints its rules.

use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

use rc_tree::{DecisionTree, DecisionTreeParams};
use rulecover_core::rng::derive_seed;
use rulecover_core::{
    Antecedent, Dataset, Feature, Fit, Outcome, Predict, Predictions, RuleModel, RuleSet,
    WeightedRule,
};

use crate::data::{select_rows, signed_labels, stratified_split, Standardizer};
use crate::encode::{encode_tree, PathStep};
use crate::error::{Error, Result};
use crate::loss::Loss;
use crate::network::Network;
use crate::network::{NeuralRules, RulesCache};
use crate::params::NreParams;
use crate::rules::{export_rules, NeuralRule};
use crate::train::{gather, scores_of, train, TrainHistory, TrainParams, TrainSet, EVAL_CHUNK};

/// A fitted neural rule ensemble.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NreModel {
    features: Vec<Feature>,
    class_names: Vec<String>,
    standardizer: Standardizer,
    tree: DecisionTree,
    inputs: Vec<usize>,
    leaves: Vec<usize>,
    paths: Vec<Vec<PathStep>>,
    network: NeuralRules,
    loss: Loss,
    prior: f64,
    history: TrainHistory,
}

/// What `fit` needs from the data, computed once.
struct Prepared {
    standardizer: Standardizer,
    /// All features, standardised.
    z: DMatrix<f64>,
    y: Vec<f64>,
    prior: f64,
}

fn prepare(params: &NreParams, data: &Dataset) -> Result<Prepared> {
    crate::data::check_features(data)?;
    let y = signed_labels(data)?;
    let standardizer = Standardizer::fit(data, params.constant_features)?;
    let all: Vec<usize> = (0..data.n_features()).collect();
    let z = standardizer.transform(data, &all)?;
    let prior = y.iter().filter(|&&v| v > 0.0).count() as f64 / y.len() as f64;
    Ok(Prepared {
        standardizer,
        z,
        y,
        prior,
    })
}

/// Grows the Gini tree (≡ Eq. 15) on rows `rows` of the raw features.
///
/// Algorithm 1 grows it on standardised values; CART's partition is
/// invariant under that affine map, so the tree is grown on the raw values
/// (exactly the tree rc-tree grows for these rows and seed, float32
/// threshold placement included) and [`encode_tree`] maps its thresholds
/// into standardised space. Growing it on standardised values instead
/// places some midpoints differently in floating point (adult, fold 2: one
/// of 6,513 test rows routed differently from the same-depth CART).
fn grow_tree(params: &NreParams, data: &Dataset, rows: &[usize]) -> Result<DecisionTree> {
    let sub = data.subset(rows)?;
    Ok(DecisionTreeParams::classifier()
        .max_depth(params.max_depth)
        .min_samples_leaf(params.min_samples_leaf)
        .seed(params.seed)
        .fit(&sub)?)
}

impl NreParams {
    /// Steps 1–5 of Algorithm 1 without training: standardises `data`,
    /// grows the tree on all of its rows and encodes every leaf as a
    /// neural rule. Train it with [`NreModel::train`].
    pub fn initialize(&self, data: &Dataset) -> Result<NreModel> {
        self.validate()?;
        let prep = prepare(self, data)?;
        let rows: Vec<usize> = (0..data.n_rows()).collect();
        let tree = grow_tree(self, data, &rows)?;
        NreModel::from_parts(self, data, &prep, tree)
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
        self.validate()?;
        let prep = prepare(self, data)?;
        let (fit_rows, val_rows) = stratified_split(
            &prep.y,
            self.train.validation_fraction,
            derive_seed(self.seed, 1),
        );
        let refit = self.refit && !val_rows.is_empty();
        let tree = grow_tree(self, data, &fit_rows)?;
        let mut model = NreModel::from_parts(self, data, &prep, tree)?;
        let xf = select_columns(&prep.z, &model.inputs);
        let x_fit = select_rows(&xf, &fit_rows);
        let y_fit: Vec<f64> = fit_rows.iter().map(|&i| prep.y[i]).collect();
        let x_val = select_rows(&xf, &val_rows);
        let y_val: Vec<f64> = val_rows.iter().map(|&i| prep.y[i]).collect();
        let val = (!val_rows.is_empty()).then_some(TrainSet {
            x: &x_val,
            y: &y_val,
        });
        let mut no_observer = |_: usize, _: &NeuralRules| {};
        let first_observer: &mut dyn FnMut(usize, &NeuralRules) =
            if refit { &mut no_observer } else { observer };
        model.history = train(
            &mut model.network,
            TrainSet {
                x: &x_fit,
                y: &y_fit,
            },
            val,
            &self.train,
            derive_seed(self.seed, 2),
            first_observer,
        )?;
        if !refit {
            return Ok(model);
        }
        // Refit: the tree on every training row, trained for the epoch
        // count the validation rows chose.
        let all: Vec<usize> = (0..data.n_rows()).collect();
        let tree = grow_tree(self, data, &all)?;
        let mut full = NreModel::from_parts(self, data, &prep, tree)?;
        let x_all = select_columns(&prep.z, &full.inputs);
        let epochs = model.history.best_epoch;
        let final_params = self
            .train
            .clone()
            .validation_fraction(0.0)
            .max_epochs(epochs);
        train(
            &mut full.network,
            TrainSet {
                x: &x_all,
                y: &prep.y,
            },
            None,
            &final_params,
            derive_seed(self.seed, 2),
            observer,
        )?;
        full.history = model.history;
        full.history.refit_epochs = Some(epochs);
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
    /// `validation` needs the training features (in order), finite values
    /// and both classes (stratified folds have them); otherwise a typed
    /// error.
    pub fn fit_validated(&self, train_data: &Dataset, validation: &Dataset) -> Result<NreModel> {
        self.validate()?;
        let prep = prepare(self, train_data)?;
        let all: Vec<usize> = (0..train_data.n_rows()).collect();
        let tree = grow_tree(self, train_data, &all)?;
        let mut model = NreModel::from_parts(self, train_data, &prep, tree)?;
        let x = select_columns(&prep.z, &model.inputs);
        let x_val = model.network_inputs(validation)?;
        let y_val = signed_labels(validation)?;
        model.history = train(
            &mut model.network,
            TrainSet { x: &x, y: &prep.y },
            Some(TrainSet {
                x: &x_val,
                y: &y_val,
            }),
            &self.train,
            derive_seed(self.seed, 2),
            &mut |_, _| {},
        )?;
        Ok(model)
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
    fn fit(&self, data: &Dataset) -> Result<NreModel> {
        self.fit_observed(data, &mut |_, _| {})
    }
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
    fn from_parts(
        params: &NreParams,
        data: &Dataset,
        prep: &Prepared,
        tree: DecisionTree,
    ) -> Result<NreModel> {
        let enc = encode_tree(tree.tree(), &prep.standardizer, params.deep)?;
        Ok(NreModel {
            features: data.features().to_vec(),
            class_names: data.class_names().to_vec(),
            standardizer: prep.standardizer.clone(),
            tree,
            inputs: enc.inputs,
            leaves: enc.leaves,
            paths: enc.paths,
            network: enc.network,
            loss: params.train.loss,
            prior: prep.prior,
            history: TrainHistory::default(),
        })
    }

    /// The training features.
    pub fn features(&self) -> &[Feature] {
        &self.features
    }

    /// Class names.
    pub fn class_names(&self) -> &[String] {
        &self.class_names
    }

    /// The standardisation fitted on the training data.
    pub fn standardizer(&self) -> &Standardizer {
        &self.standardizer
    }

    /// The tree the network was initialised from, grown on the raw
    /// features of the rows used for training (predict with it on raw
    /// data).
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
        self.leaves = keep.iter().map(|&k| self.leaves[k]).collect();
        self.paths = keep.iter().map(|&k| self.paths[k].clone()).collect();
        Ok(())
    }

    /// Replaces the network (e.g. by a snapshot taken during training); it
    /// must have the same inputs and rules.
    pub fn set_network(&mut self, network: NeuralRules) -> Result<()> {
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
        self.network = network;
        Ok(())
    }

    /// Standardised inputs `x_T` of every row of `data`.
    pub fn network_inputs(&self, data: &Dataset) -> Result<DMatrix<f64>> {
        if data.n_features() != self.features.len() {
            return Err(Error::FeatureMismatch {
                expected: self.features.len(),
                found: data.n_features(),
            });
        }
        self.standardizer.transform(data, &self.inputs)
    }

    /// (Continues to) train the network on `data` with `params`; with a
    /// validation fraction, early stopping holds out a stratified part of
    /// `data`. The tree and standardisation are kept.
    pub fn train(
        &mut self,
        data: &Dataset,
        params: &TrainParams,
        seed: u64,
        observer: &mut dyn FnMut(usize, &NeuralRules),
    ) -> Result<TrainHistory> {
        params.validate()?;
        let y = signed_labels(data)?;
        let x = self.network_inputs(data)?;
        let (fit_rows, val_rows) =
            stratified_split(&y, params.validation_fraction, derive_seed(seed, 1));
        let x_fit = select_rows(&x, &fit_rows);
        let y_fit: Vec<f64> = fit_rows.iter().map(|&i| y[i]).collect();
        let x_val = select_rows(&x, &val_rows);
        let y_val: Vec<f64> = val_rows.iter().map(|&i| y[i]).collect();
        let val = (!val_rows.is_empty()).then_some(TrainSet {
            x: &x_val,
            y: &y_val,
        });
        self.loss = params.loss;
        let hist = train(
            &mut self.network,
            TrainSet {
                x: &x_fit,
                y: &y_fit,
            },
            val,
            params,
            derive_seed(seed, 2),
            observer,
        )?;
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

    /// Probability of class 1 for every row: `loss.proba(f)` (kept strictly
    /// above ½ when `f > 0` and below when `f < 0`, so the class is `sign
    /// f`), or the training prior for a row no rule covers.
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

    /// Class probabilities, row-major `n × 2`.
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

    /// Class probabilities.
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        Ok(Predictions::Classes {
            n_classes: 2,
            proba: self.predict_proba(data)?,
        })
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
            out.push_str(&r.display(&self.features, &self.class_names).to_string());
            out.push('\n');
        }
        out
    }

    fn rule_set(&self) -> RuleSet {
        RuleSet {
            features: self.features.clone(),
            class_names: self.class_names.clone(),
            rules: self
                .rules()
                .iter()
                .map(|r| WeightedRule {
                    antecedent: Antecedent::Oblique(
                        r.conditions()
                            .into_iter()
                            .map(|c| rulecover_core::ObliqueCondition {
                                terms: c.terms,
                                greater: c.greater,
                                threshold: c.threshold,
                            })
                            .collect(),
                    ),
                    outcome: Outcome::Value(r.output),
                    weight: 1.0,
                    coverage: 0,
                })
                .collect(),
        }
    }
}
