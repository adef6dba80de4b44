//! RUX (seed 001 §2): weight the rules of a trained ensemble (or any rule
//! pool) with one LP, master LP (3), and keep those with positive weight.
//!
//! ```
//! use rulecover_core::{generate, Fit, Predict, RuleModel};
//! use rc_cover::{RuxParams, SelectFrom};
//! use rc_tree::RandomForestParams;
//!
//! let train = generate::twonorm(300, 1);
//! let rf = RandomForestParams::classifier().n_estimators(20).max_depth(3).seed(1).fit(&train)?;
//! let rux = RuxParams::for_forest().fit_from(&rf, &train)?; // rule-length costs, ε = 0.01
//! assert!(rux.n_rules() < rf.n_rules() / 2);              // far fewer rules than leaves
//! let pred = rux.predict(&train)?.labels().unwrap();
//! let truth = train.labels()?;
//! let acc = pred.iter().zip(&truth).filter(|(p, t)| p == t).count() as f64 / truth.len() as f64;
//! assert!(acc > 0.9);
//! println!("{rux}");                                      // R1 (w=1.0000) if x… then class …
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use rc_lp::LpSolver;
use rc_tree::{AdaBoostAlgorithm, AdaBoostParams, RandomForestParams};
use rulecover_core::metrics::argmax;
use rulecover_core::{
    CheckParams, Checked, CoverageMatrix, Dataset, Encoder, Encoding, Fit, Fitted, PoolRule, Rule,
    RuleSource,
};

use crate::error::{Error, Result};
use crate::input::{check_no_missing, encoded};
use crate::proba::RuleProba;
use crate::row_weights::{weighted_class_counts, without_zero_rows};
use crate::rux_lp::{ColumnPolicy, CoverageRows, HingeRows, LpForm, RuleLp, RuleLpSolution};
use crate::select::SelectFrom;
use crate::weighted::MulticlassVote;
use crate::weighted::{rule_length, Fallback, FitInfo, ScoredRule, WeightedRuleModel};

/// What the cost function of a rule gets to see.
#[derive(Debug, Clone, Copy)]
pub struct RuleFacts<'a> {
    /// The rule (its conditions as produced, e.g. a root-to-leaf path).
    pub rule: &'a Rule,
    /// The class it votes for ([`RuxParams::leaf_label`]).
    pub class: usize,
    /// Training rows of each class it covers (weighted with sample
    /// weights).
    pub class_counts: &'a [f64],
    /// The estimator it came from.
    pub estimator: usize,
    /// That estimator's weight in its ensemble (AdaBoost's α; 1 otherwise).
    pub estimator_weight: f64,
}

/// A user cost function (see [`RuleCost::Custom`]).
#[derive(Clone)]
pub struct CostFn(pub Arc<dyn Fn(&RuleFacts) -> f64 + Send + Sync>);

impl CostFn {
    /// Wraps a closure.
    pub fn new(f: impl Fn(&RuleFacts) -> f64 + Send + Sync + 'static) -> Self {
        CostFn(Arc::new(f))
    }
}

impl fmt::Debug for CostFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CostFn(..)")
    }
}

impl PartialEq for CostFn {
    /// Two cost functions are equal when they are the same closure.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The rule costs `c_j` of LP (3) (seed 001 §1.4; the authors' code
/// options). Only one kind is active at a time.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub enum RuleCost {
    /// The number of distinct features the rule tests (the paper's "rule
    /// length"; RUX-RF and RUG in Tables 1–2).
    #[default]
    RuleLength,
    /// The same cost 1 for every rule (the code's default).
    Uniform,
    /// `1 / (α + 10⁻⁴)` with α the weight of the rule's estimator (RUX-ADA
    /// with SAMME; the `10⁻⁴` is the authors').
    InverseEstimatorWeight,
    /// `1 + exp(n_neg / n)` for a rule that does not predict
    /// `negative_class` but covers `n_neg > 0` of its `n` training rows
    /// with that class, 1 otherwise (the code's false-negative penalty;
    /// the counts are looked up by class here, not by position).
    FalseNegative {
        /// The class whose rows must not be missed.
        negative_class: usize,
    },
    /// Any function of the rule's facts (not serialised).
    #[serde(skip)]
    Custom(CostFn),
}

impl RuleCost {
    /// The cost of one rule (before normalisation).
    pub fn cost(&self, facts: &RuleFacts) -> f64 {
        match self {
            RuleCost::RuleLength => rule_length(facts.rule) as f64,
            RuleCost::Uniform => 1.0,
            RuleCost::InverseEstimatorWeight => 1.0 / (facts.estimator_weight + 1e-4),
            RuleCost::FalseNegative { negative_class } => {
                let n: f64 = facts.class_counts.iter().sum();
                let neg = facts
                    .class_counts
                    .get(*negative_class)
                    .copied()
                    .unwrap_or(0.0);
                if facts.class != *negative_class && neg > 0.0 && n > 0.0 {
                    1.0 + (neg / n).exp()
                } else {
                    1.0
                }
            }
            RuleCost::Custom(f) => (f.0)(facts),
        }
    }
}

/// The prediction for a row that no selected rule covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Uncovered {
    /// The class of the first estimator's leaf that holds the row (the
    /// authors' code predicts with the first fitted tree), that leaf
    /// labelled as every rule is ([`RuxParams::leaf_label`]). The default.
    #[default]
    FirstEstimator,
    /// The training majority class (the paper's "default label").
    MajorityClass,
}

/// The class a pool rule votes for in the LP and the model.
///
/// The rules differ on imbalanced data and on ensembles whose trees are
/// grown with row weights: an AdaBoost tree's leaf predicts the class that
/// is heaviest under the boosting weights of its round, which on
/// imbalanced data is often the minority class where the unweighted count
/// says the majority (84/16 data: nearly every stump leaf's unweighted
/// majority is the big class, and RUX-ADA with that label predicts it
/// everywhere). A forest tree's leaf predicts by its bootstrap counts,
/// which rarely differ from the full training rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum LeafLabel {
    /// The class whose training rows the rule covers the largest share
    /// of: the argmax over classes `k` of `w_k(rule) / w_k`, the weight of
    /// class `k`'s rows the rule covers over the weight of all class `k`
    /// training rows (scikit-learn's `class_weight="balanced"` majority;
    /// ties to the lowest class). On balanced classes it is the training
    /// majority; on 85/15 data a leaf where the minority class is enriched
    /// votes for it (RUX-ADA's AUC 0.50 → above 0.8 in
    /// `tests/rux_leaf_label.rs`). The default.
    #[default]
    Balanced,
    /// The class the rule's own estimator predicts there
    /// ([`RuleSource::pool_classes`]: a tree leaf's argmax under the
    /// weights it was grown with). Rules of a source without such a class
    /// (hand-written rules, gradient boosting)
    /// fall back to [`LeafLabel::TrainingMajority`]. It keeps RUX-ADA's
    /// minority-class rules on imbalanced binary data, but on
    /// scikit-learn's 3-class blob check (integer features, 5 depth-2
    /// SAMME trees) it scores 0.74 on the training rows against the
    /// majority's 0.86: a leaf labelled with a class heavy only under
    /// late boosting weights covers mostly rows of other classes.
    Estimator,
    /// The majority class of the training rows the rule covers, counted
    /// with the sample weights given to RUX (unweighted without them;
    /// ties to the lowest class): seed 001's code (`np.unique` counts of
    /// the leaf's training labels), used by the `paper001` suite so that
    /// its tables reproduce the authors' protocol.
    TrainingMajority,
}

impl LeafLabel {
    /// What a parameter file written before this option meant: the
    /// training majority (the only rule then).
    fn before_option() -> Self {
        LeafLabel::TrainingMajority
    }
}

/// The ensemble RUX fits before weighting its rules, when fitted as an
/// estimator ([`Fit`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RuxBase {
    /// A random forest (RUX-RF).
    Forest(RandomForestParams),
    /// AdaBoost (RUX-ADA, with SAMME in seed 001).
    AdaBoost(AdaBoostParams),
}

impl RuxBase {
    /// Seed 001's forest: scikit-learn's `RandomForestClassifier(max_depth=3,
    /// n_estimators=100)` (the paper tunes depth over {1, 2, 3} and size
    /// over {100, 200}).
    pub fn forest() -> Self {
        RuxBase::Forest(
            RandomForestParams::classifier()
                .max_depth(3)
                .n_estimators(100),
        )
    }

    /// Seed 001's AdaBoost: SAMME with depth-3 trees, 100 estimators (same
    /// grids as the forest).
    pub fn adaboost() -> Self {
        RuxBase::AdaBoost(
            AdaBoostParams::new()
                .max_depth(3)
                .n_estimators(100)
                .algorithm(AdaBoostAlgorithm::Samme),
        )
    }
}

impl Default for RuxBase {
    /// [`RuxBase::forest`].
    fn default() -> Self {
        RuxBase::forest()
    }
}

/// Parameters of RUX (and the LP part of RUG).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuxParams {
    /// Right-hand side ε of the coverage rows (0.01 in all experiments).
    pub eps: f64,
    /// Rule costs (default: rule length, as RUX-RF).
    pub cost: RuleCost,
    /// Divide every cost by the largest one, so that it becomes 1 (the
    /// authors' code does this; the paper does not mention it). Default on.
    pub normalize_costs: bool,
    /// Keep rules whose weight divided by the largest weight exceeds this
    /// (the code's 10⁻⁶).
    pub threshold: f64,
    /// How coverage rows are put in the LP (lazily by default; the
    /// optimum is the same as with all rows).
    pub coverage: CoverageRows,
    /// Prediction for rows no selected rule covers.
    pub uncovered: Uncovered,
    /// The LP handed to the solver: the dual (4) by default, much faster
    /// for simplex solvers; the optimum is the same.
    pub form: LpForm,
    /// Which pool rules the LP handed to the solver contains: by default
    /// all of them (identical duplicates dropped); [`ColumnPolicy::Grow`]
    /// (column generation over the pool) reaches the same optimum but was
    /// slower on seed 001's forests (see docs/PERFORMANCE.md).
    #[serde(default)]
    pub policy: ColumnPolicy,
    /// Which training rows' hinge constraints the LP handed to the solver
    /// holds: by default a working set of rows on data of at least
    /// [`crate::rux_lp::WORKING_SET_MIN_ROWS`] rows, grown until it
    /// certifies the optimum over every row ([`HingeRows::Working`]; same
    /// optimum as [`HingeRows::All`], much smaller LPs on many rows). RUG
    /// solves its master LPs over every row whatever this says (see
    /// `rc_colgen::RugParams::lp`). A parameter file without this field
    /// reads as the default.
    #[serde(default)]
    pub hinge_rows: HingeRows,
    /// The ensemble fitted by [`Fit::fit`] before the LP (not used by
    /// [`SelectFrom::fit_from`], nor by RUG).
    #[serde(default)]
    pub base: RuxBase,
    /// The class each pool rule votes for (default: the class-balanced
    /// majority, [`LeafLabel::Balanced`]). A parameter file without this
    /// field reads as [`LeafLabel::TrainingMajority`], the rule of every
    /// version before the option, so that a saved model's parameters keep
    /// meaning what they meant.
    #[serde(default = "LeafLabel::before_option")]
    pub leaf_label: LeafLabel,
    /// Class probabilities: the weighted vote of eq. (2) (the default) or
    /// calibrated on the training rows ([`RuleProba`]). A parameter file
    /// without this field reads as the vote.
    #[serde(default)]
    pub proba: RuleProba,
    /// With more than two classes, also put in the LP a copy of each pool
    /// rule for every other class holding at least `1/K` of the rule's
    /// training weight ([`class_copies`]), so that a leaf shared by two
    /// classes can vote for both, as the forest's averaged leaf
    /// frequencies do. Off by default (seed 001 gives each leaf one
    /// class); the registry turns it on. A parameter file without this
    /// field reads as off.
    #[serde(default)]
    pub class_copies: bool,
    /// What a covering rule adds to the vote with more than two classes
    /// (default [`MulticlassVote::Label`], seed 001's eq. 2; the registry's
    /// `rux-rf` votes by frequencies, as its forest). A parameter file
    /// without this field reads as the label.
    #[serde(default)]
    pub multiclass_vote: MulticlassVote,
}

impl Default for RuxParams {
    fn default() -> Self {
        RuxParams {
            eps: 0.01,
            cost: RuleCost::RuleLength,
            normalize_costs: true,
            threshold: 1e-6,
            coverage: CoverageRows::Lazy,
            uncovered: Uncovered::FirstEstimator,
            form: LpForm::Dual,
            policy: ColumnPolicy::All,
            hinge_rows: HingeRows::default(),
            base: RuxBase::forest(),
            leaf_label: LeafLabel::Balanced,
            proba: RuleProba::Vote,
            class_copies: false,
            multiclass_vote: MulticlassVote::Label,
        }
    }
}

impl RuxParams {
    /// RUX-RF of Table 1: rule-length costs, over [`RuxBase::forest`].
    pub fn for_forest() -> Self {
        Self::default()
    }

    /// RUX-ADA of Table 1: costs `1/α` of the rule's AdaBoost (SAMME) tree,
    /// over [`RuxBase::adaboost`].
    pub fn for_adaboost() -> Self {
        Self::default()
            .cost(RuleCost::InverseEstimatorWeight)
            .base(RuxBase::adaboost())
    }

    /// Sets the ensemble fitted by [`Fit::fit`].
    pub fn base(mut self, base: RuxBase) -> Self {
        self.base = base;
        self
    }

    /// Sets what a covering rule adds to the vote with more than two
    /// classes.
    pub fn multiclass_vote(mut self, vote: MulticlassVote) -> Self {
        self.multiclass_vote = vote;
        self
    }

    /// Sets whether multi-class pools get [`class_copies`].
    pub fn class_copies(mut self, on: bool) -> Self {
        self.class_copies = on;
        self
    }

    /// Sets how class probabilities are formed.
    pub fn proba(mut self, proba: RuleProba) -> Self {
        self.proba = proba;
        self
    }

    /// `model` with the vote of [`RuxParams::multiclass_vote`] and the
    /// probabilities [`RuxParams::proba`] asks for: the vote as it is, else [`WeightedRuleModel::with_calibrated_proba`] on
    /// the encoded training rows `train` weighted by `weights`.
    ///
    /// # Errors
    /// As [`WeightedRuleModel::with_calibrated_proba`].
    pub fn with_vote_and_proba(
        &self,
        model: WeightedRuleModel,
        train: &Dataset,
        weights: &[f64],
    ) -> Result<WeightedRuleModel> {
        let model = model.with_multiclass_vote(self.multiclass_vote);
        match self.proba {
            RuleProba::Vote => Ok(model),
            RuleProba::Calibrated => model.with_calibrated_proba(train, weights),
        }
    }

    /// Sets the class each pool rule votes for.
    pub fn leaf_label(mut self, leaf_label: LeafLabel) -> Self {
        self.leaf_label = leaf_label;
        self
    }

    /// Sets the coverage right-hand side ε (> 0).
    pub fn eps(mut self, eps: f64) -> Self {
        self.eps = eps;
        self
    }

    /// Sets the rule costs.
    pub fn cost(mut self, cost: RuleCost) -> Self {
        self.cost = cost;
        self
    }

    /// Switches the normalisation of costs by their maximum.
    pub fn normalize_costs(mut self, on: bool) -> Self {
        self.normalize_costs = on;
        self
    }

    /// Sets the relative weight threshold (≥ 0) below which rules are dropped.
    pub fn threshold(mut self, threshold: f64) -> Self {
        self.threshold = threshold;
        self
    }

    /// Sets how coverage rows enter the LP.
    pub fn coverage(mut self, coverage: CoverageRows) -> Self {
        self.coverage = coverage;
        self
    }

    /// Sets the prediction for uncovered rows.
    pub fn uncovered(mut self, uncovered: Uncovered) -> Self {
        self.uncovered = uncovered;
        self
    }

    /// Sets the LP form handed to the solver.
    pub fn form(mut self, form: LpForm) -> Self {
        self.form = form;
        self
    }

    /// Sets which pool rules the LP handed to the solver contains.
    pub fn policy(mut self, policy: ColumnPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Sets which training rows' hinge constraints the LP handed to the
    /// solver holds.
    pub fn hinge_rows(mut self, hinge_rows: HingeRows) -> Self {
        self.hinge_rows = hinge_rows;
        self
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<()> {
        if !(self.eps.is_finite() && self.eps > 0.0) {
            return Err(Error::InvalidParameter {
                name: "eps",
                value: self.eps.to_string(),
                reason: "the coverage right-hand side must be finite and > 0".into(),
            });
        }
        if !(self.threshold.is_finite() && (0.0..1.0).contains(&self.threshold)) {
            return Err(Error::InvalidParameter {
                name: "threshold",
                value: self.threshold.to_string(),
                reason: "the relative weight threshold must be in [0, 1)".into(),
            });
        }
        if let RuleCost::FalseNegative { negative_class } = self.cost {
            if negative_class > u32::MAX as usize {
                return Err(Error::InvalidParameter {
                    name: "cost.negative_class",
                    value: negative_class.to_string(),
                    reason: "not a class index".into(),
                });
            }
        }
        Ok(())
    }

    /// Runs RUX on the rules of a source without an encoder (e.g. rules
    /// written by hand) with the default LP solver: the rules index the
    /// columns of `train` as they are, and the model reads new data by
    /// those columns' names.
    pub fn select<S: RuleSource + ?Sized>(
        &self,
        source: &S,
        train: &Dataset,
    ) -> Result<WeightedRuleModel> {
        let params = Checked::new(self)?;
        let (encoder, train) = Encoder::fit(train, Encoding::Native)?;
        check_no_missing(&train)?;
        let weights = vec![1.0; train.n_rows()];
        Self::select_pool(
            params,
            source,
            &train,
            &weights,
            encoder,
            default_rux_solver().as_ref(),
        )
    }

    /// Runs RUX on the rules of a fitted `source` (a forest, a boosted
    /// ensemble) with a given LP solver (duals are not needed); the
    /// training data are encoded by the source's encoder. With `weights`
    /// (one non-negative sample weight per training row, replication
    /// semantics), rows of weight 0 are left out, rules labelled by their
    /// training rows ([`LeafLabel::TrainingMajority`], or a source without
    /// classes of its own) count them with these weights, and a row's
    /// hinge loss costs its weight in LP (3).
    ///
    /// [`SelectFrom`] is the same with the default solver
    /// ([`default_rux_solver`]); [`Fit`] fits [`RuxParams::base`] first.
    pub fn select_with<S: RuleSource + Fitted + ?Sized>(
        &self,
        source: &S,
        train: &Dataset,
        weights: Option<&[f64]>,
        solver: &dyn LpSolver,
    ) -> Result<WeightedRuleModel> {
        let params = self.check_inputs(train, weights)?;
        Self::select_fitted(params, source, train, weights, solver)
    }

    /// [`RuxParams::select_with`] with checked parameters and weights.
    fn select_fitted<S: RuleSource + Fitted + ?Sized>(
        params: Checked<'_, Self>,
        source: &S,
        train: &Dataset,
        weights: Option<&[f64]>,
        solver: &dyn LpSolver,
    ) -> Result<WeightedRuleModel> {
        let encoder = source.encoder().clone();
        let train = encoded(&encoder, train)?;
        let (train, weights) = match weights {
            Some(w) => without_zero_rows(&train, w)?,
            None => {
                let ones = vec![1.0; train.n_rows()];
                (train, ones)
            }
        };
        Self::select_pool(params, source, &train, &weights, encoder, solver)
    }

    /// RUX on `source`'s rule pool over encoded `train` rows: the pool
    /// ([`Error::EmptyPool`] when it has no rule), its coverage, its rules'
    /// classes as [`RuxParams::leaf_label`] asks, then the LP.
    fn select_pool<S: RuleSource + ?Sized>(
        params: Checked<'_, Self>,
        source: &S,
        train: &Dataset,
        weights: &[f64],
        encoder: Encoder,
        solver: &dyn LpSolver,
    ) -> Result<WeightedRuleModel> {
        let rules = source.rule_pool();
        if rules.is_empty() {
            return Err(Error::EmptyPool);
        }
        let coverage = source.pool_coverage(train)?;
        let classes = params.estimator_classes(source, rules.len())?;
        Self::weigh(
            params,
            rules,
            classes.as_deref(),
            &coverage,
            train,
            weights,
            encoder,
            solver,
        )
    }

    /// The classes of [`RuleSource::pool_classes`] when
    /// [`RuxParams::leaf_label`] asks for them and the source has them
    /// (one per rule, each below the number of classes, or
    /// [`Error::Shape`]).
    fn estimator_classes<S: RuleSource + ?Sized>(
        &self,
        source: &S,
        n_rules: usize,
    ) -> Result<Option<Vec<usize>>> {
        if self.leaf_label != LeafLabel::Estimator {
            return Ok(None);
        }
        match source.pool_classes() {
            Some(c) if c.len() != n_rules => Err(Error::Shape(format!(
                "the source gives {} rule classes for {n_rules} rules",
                c.len()
            ))),
            other => Ok(other),
        }
    }

    /// RUX on rules and their coverage of the encoded training data
    /// `train`, rows weighted by `weights` (all positive), the model
    /// storing `encoder`; `classes`, when given, are the rules' votes
    /// (else each votes for its weighted training majority).
    #[allow(clippy::too_many_arguments)]
    fn weigh(
        params: Checked<'_, Self>,
        rules: Vec<PoolRule>,
        classes: Option<&[usize]>,
        coverage: &CoverageMatrix,
        train: &Dataset,
        weights: &[f64],
        encoder: Encoder,
        solver: &dyn LpSolver,
    ) -> Result<WeightedRuleModel> {
        let labels = train.labels()?;
        if rules.is_empty() {
            return Err(Error::EmptyPool);
        }
        if coverage.n_rules() != rules.len() || coverage.n_rows() != train.n_rows() {
            return Err(Error::Shape(format!(
                "coverage is {}×{} but there are {} rules and {} training rows",
                coverage.n_rows(),
                coverage.n_rules(),
                rules.len(),
                train.n_rows()
            )));
        }
        let mut lp = RuleLp::new(&labels, params.eps, params.coverage)?
            .with_row_weights(weights)?
            .with_form(params.form)
            .with_policy(params.policy)
            .with_hinge_rows(params.hinge_rows);
        let mut labelled = label_rules_weighted(rules, coverage, train, weights)?;
        if let Some(classes) = classes {
            relabel(&mut labelled, classes, train.n_classes())?;
        } else if params.leaf_label == LeafLabel::Balanced {
            relabel_balanced(&mut labelled, &labels, weights, train.n_classes());
        }
        let mut source: Vec<usize> = (0..labelled.len()).collect();
        if params.class_copies {
            let (copies, of) = class_copies(&labelled, train.n_classes());
            labelled.extend(copies);
            source.extend(of);
        }
        let costs = params.costs(&labelled, 1.0)?;
        let scale = cost_scale(&costs, params.normalize_costs);
        for (r, (&j, cost)) in labelled.iter().zip(source.iter().zip(&costs)) {
            lp.add_rule(coverage.rows_of(j).to_vec(), r.class, cost * scale)?;
        }
        if params.coverage != CoverageRows::Off {
            let uncovered = lp.uncovered_rows();
            if let Some(&first) = uncovered.first() {
                return Err(Error::Uncoverable {
                    rows: uncovered.len(),
                    first,
                });
            }
        }
        let sol = lp.solve(solver)?;
        let fallback = params.fallback_weighted(&labelled, train, weights);
        let model = weighted_model(
            &lp,
            &sol,
            &labelled,
            params.threshold,
            fallback,
            encoder,
            sol.stats.seconds,
        )?;
        params.with_vote_and_proba(model, train, weights)
    }

    /// Raw costs of labelled rules (checked finite), times `scale`.
    pub fn costs(&self, rules: &[LabeledRule], scale: f64) -> Result<Vec<f64>> {
        rules
            .iter()
            .enumerate()
            .map(|(j, r)| {
                let c = self.cost.cost(&r.facts()) * scale;
                if c.is_finite() {
                    Ok(c)
                } else {
                    Err(Error::BadCost {
                        rule: j,
                        cost: c,
                        reason: "costs must be finite".into(),
                    })
                }
            })
            .collect()
    }

    /// The fallback of [`RuxParams::uncovered`] for a labelled pool.
    pub fn fallback(&self, rules: &[LabeledRule], train: &Dataset) -> Fallback {
        self.fallback_weighted(rules, train, &vec![1.0; train.n_rows()])
    }

    /// [`RuxParams::fallback`] with the majority class by weighted class
    /// counts (`weights`: one per row of `train`).
    pub fn fallback_weighted(
        &self,
        rules: &[LabeledRule],
        train: &Dataset,
        weights: &[f64],
    ) -> Fallback {
        let labels: Vec<usize> = (0..train.n_rows()).map(|i| train.label(i)).collect();
        let majority = argmax(&weighted_class_counts(&labels, weights, train.n_classes()));
        match self.uncovered {
            Uncovered::MajorityClass => Fallback::Class(majority),
            Uncovered::FirstEstimator => {
                let first = rules.first().map_or(0, |r| r.pool.estimator);
                Fallback::Partition {
                    rules: rules
                        .iter()
                        .filter(|r| r.pool.estimator == first)
                        .map(|r| (r.pool.rule.clone(), r.class))
                        .collect(),
                    default: majority,
                }
            }
        }
    }
}

/// The factor that makes the largest cost 1 (1 when off or no cost is
/// positive).
pub fn cost_scale(costs: &[f64], normalize: bool) -> f64 {
    let max = costs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if normalize && max > 0.0 && max.is_finite() {
        1.0 / max
    } else {
        1.0
    }
}

/// The default LP solver of RUX and RUG: the backend of
/// [`rc_lp::default_lp_solver`], i.e. HiGHS with feature `highs`, else CBC
/// with feature `cbc`, else minilp (with duals: the dual LP form reads the
/// weights from them). HiGHS picks the algorithm of each cold solve from
/// the LP's shape (`rc_lp::HighsAlgorithm::Auto`): the dual simplex on
/// small and medium LPs — left to choose, HiGHS would run the primal
/// simplex on the dual form (4) (its slack basis is primal feasible),
/// about 10× slower there — and the interior point with crossover on large
/// ones, where the dual simplex stalls in degenerate pivots (measurements in
/// docs/PERFORMANCE.md). It re-solves models grown by rows warm
/// (`rc_lp::HighsSolver::grow_rows`, feature `highs`), which RUG's master
/// LPs are (see [`crate::rux_lp`]: 2–3× less LP time on the largest data
/// sets), and models grown by bounded columns — RUX's working set of hinge
/// rows gaining rows — with the dual simplex
/// (`rc_lp::HighsSolver::dual_warm_columns`). Pass another solver to
/// [`RuxParams::select_with`] to override the choice.
pub fn default_rux_solver() -> Box<dyn LpSolver> {
    #[cfg(feature = "highs")]
    {
        Box::new(
            rc_lp::HighsSolver::new()
                .with_algorithm(rc_lp::HighsAlgorithm::Auto)
                .with_row_warm_start(true)
                .with_dual_warm_columns(true),
        )
    }
    #[cfg(not(feature = "highs"))]
    {
        rc_lp::default_lp_solver()
    }
}

/// A pool rule with the class it votes for and its training class counts.
#[derive(Debug, Clone, PartialEq)]
pub struct LabeledRule {
    /// The rule and where it came from.
    pub pool: PoolRule,
    /// The class it votes for: by [`label_rules`] the majority class of
    /// its training rows (weighted counts with sample weights; ties to the
    /// lowest class), or its estimator's class ([`relabel`],
    /// [`LeafLabel::Estimator`]).
    pub class: usize,
    /// Training rows of each class it covers (total weight with sample
    /// weights).
    pub class_counts: Vec<f64>,
}

impl LabeledRule {
    /// The facts a cost function sees.
    pub fn facts(&self) -> RuleFacts<'_> {
        RuleFacts {
            rule: &self.pool.rule,
            class: self.class,
            class_counts: &self.class_counts,
            estimator: self.pool.estimator,
            estimator_weight: self.pool.estimator_weight,
        }
    }
}

/// Labels each rule by the unweighted majority class of the training rows
/// it covers (seed 001: as a tree leaf, even for trees grown with the
/// dual weights). A rule covering no row is [`Error::EmptyRule`]; a
/// coverage matrix that does not have one column per rule and one row per
/// training row is [`Error::Shape`].
pub fn label_rules(
    rules: Vec<PoolRule>,
    coverage: &CoverageMatrix,
    train: &Dataset,
) -> Result<Vec<LabeledRule>> {
    label_rules_weighted(rules, coverage, train, &vec![1.0; train.n_rows()])
}

/// [`label_rules`] with the training rows counted with their sample
/// weights (replication semantics: a row of weight `m` counts as `m`
/// rows).
pub fn label_rules_weighted(
    rules: Vec<PoolRule>,
    coverage: &CoverageMatrix,
    train: &Dataset,
    row_weights: &[f64],
) -> Result<Vec<LabeledRule>> {
    if coverage.n_rules() != rules.len()
        || coverage.n_rows() != train.n_rows()
        || row_weights.len() != train.n_rows()
    {
        return Err(Error::Shape(format!(
            "coverage is {}×{} but there are {} rules, {} training rows and {} row weights",
            coverage.n_rows(),
            coverage.n_rules(),
            rules.len(),
            train.n_rows(),
            row_weights.len()
        )));
    }
    let k = train.n_classes();
    rules
        .into_iter()
        .enumerate()
        .map(|(j, pool)| {
            let rows = coverage.rows_of(j);
            if rows.is_empty() {
                return Err(Error::EmptyRule { rule: j });
            }
            let mut counts = vec![0.0; k];
            for &i in rows {
                counts[train.label(i as usize)] += row_weights[i as usize];
            }
            Ok(LabeledRule {
                pool,
                class: argmax(&counts),
                class_counts: counts,
            })
        })
        .collect()
}

/// Sets each rule's class to `classes[j]` (one per rule, each below
/// `n_classes`, or [`Error::Shape`]); the training class counts stay.
pub fn relabel(rules: &mut [LabeledRule], classes: &[usize], n_classes: usize) -> Result<()> {
    if classes.len() != rules.len() {
        return Err(Error::Shape(format!(
            "{} rule classes for {} rules",
            classes.len(),
            rules.len()
        )));
    }
    if let Some((j, &c)) = classes.iter().enumerate().find(|(_, &c)| c >= n_classes) {
        return Err(Error::Shape(format!(
            "rule {j} votes for class {c} but the training data have {n_classes} classes"
        )));
    }
    for (r, &c) in rules.iter_mut().zip(classes) {
        r.class = c;
    }
    Ok(())
}

/// With `n_classes > 2`, a copy of each rule for every class other than
/// its own that holds at least `1 / n_classes` of the rule's training
/// weight (none for two classes), and the index of the rule each copy
/// comes from. Copies come after every original, so the first rule of a
/// leaf found is its original.
pub fn class_copies(rules: &[LabeledRule], n_classes: usize) -> (Vec<LabeledRule>, Vec<usize>) {
    let (mut copies, mut of) = (Vec::new(), Vec::new());
    if n_classes <= 2 {
        return (copies, of);
    }
    for (j, r) in rules.iter().enumerate() {
        let total: f64 = r.class_counts.iter().sum();
        for (c, &n) in r.class_counts.iter().enumerate() {
            if c != r.class && total > 0.0 && n * n_classes as f64 >= total {
                copies.push(LabeledRule {
                    class: c,
                    ..r.clone()
                });
                of.push(j);
            }
        }
    }
    (copies, of)
}

/// Sets each rule's class to [`LeafLabel::Balanced`]'s: the class with
/// the largest share of its training weight covered by the rule (`labels`
/// and `weights`: one per training row; a class without training weight
/// never wins). The class counts stay as they are.
pub fn relabel_balanced(
    rules: &mut [LabeledRule],
    labels: &[usize],
    weights: &[f64],
    n_classes: usize,
) {
    let totals = weighted_class_counts(labels, weights, n_classes);
    for r in rules {
        let shares: Vec<f64> = r
            .class_counts
            .iter()
            .zip(&totals)
            .map(|(&c, &t)| if t > 0.0 { c / t } else { f64::NEG_INFINITY })
            .collect();
        r.class = argmax(&shares);
    }
}

/// The weighted rule model of an LP solution: the rules whose weight
/// relative to the largest exceeds `threshold`, heaviest first.
/// `rules[j]` must be column `j` of `lp`.
pub fn weighted_model(
    lp: &RuleLp,
    sol: &RuleLpSolution,
    rules: &[LabeledRule],
    threshold: f64,
    fallback: Fallback,
    encoder: Encoder,
    lp_seconds: f64,
) -> Result<WeightedRuleModel> {
    if rules.len() != lp.n_rules() || sol.w.len() != lp.n_rules() {
        return Err(Error::Shape(format!(
            "{} rules, {} LP columns, {} weights",
            rules.len(),
            lp.n_rules(),
            sol.w.len()
        )));
    }
    let wmax = sol.w.iter().copied().fold(0.0, f64::max);
    let mut covered = vec![false; lp.n_rows()];
    let mut scored = Vec::new();
    if wmax > 0.0 {
        for (j, r) in rules.iter().enumerate() {
            let w = sol.w[j] / wmax;
            if w > threshold {
                for &i in lp.rows_of(j) {
                    covered[i as usize] = true;
                }
                scored.push(ScoredRule {
                    rule: r.pool.rule.normalized(),
                    class: r.class,
                    weight: w,
                    lp_weight: sol.w[j],
                    cost: lp.cost(j),
                    class_counts: r.class_counts.clone(),
                    estimator: r.pool.estimator,
                    node: r.pool.node,
                });
            }
        }
    }
    let info = FitInfo {
        pool_size: rules.len(),
        positive_weights: sol.w.iter().filter(|&&w| w > 0.0).count(),
        objective: sol.objective,
        lp: sol.stats,
        lp_seconds,
        uncovered_training_rows: covered.iter().filter(|&&c| !c).count(),
    };
    let n_classes = encoder.schema().classes().len();
    WeightedRuleModel::new(encoder, n_classes, scored, fallback, info)
}

impl<S: RuleSource + Fitted + ?Sized> SelectFrom<S> for RuxParams {
    type Model = WeightedRuleModel;

    /// [`RuxParams::select_with`] without weights, with the default LP
    /// solver ([`default_rux_solver`]).
    fn fit_from(&self, source: &S, data: &Dataset) -> Result<WeightedRuleModel> {
        self.select_with(source, data, None, default_rux_solver().as_ref())
    }

    /// [`RuxParams::select_with`] with weights and the default LP solver.
    fn fit_from_weighted(
        &self,
        source: &S,
        data: &Dataset,
        weights: &[f64],
    ) -> Result<WeightedRuleModel> {
        self.select_with(source, data, Some(weights), default_rux_solver().as_ref())
    }
}

impl CheckParams for RuxParams {
    type ParamError = Error;

    /// [`RuxParams::validate`] (the base ensemble's parameters are checked
    /// when it is fitted).
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for RuxParams {
    type Model = WeightedRuleModel;
    type Error = Error;

    /// Fits [`RuxParams::base`] to `data` (with the weights when given),
    /// then weights its rules ([`RuxParams::select_with`], the same
    /// weights, the default LP solver).
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<WeightedRuleModel> {
        let solver = default_rux_solver();
        match &params.base {
            RuxBase::Forest(p) => {
                let forest = RandomForestParams::fit_checked(Checked::new(p)?, data, weights)?;
                Self::select_fitted(params, &forest, data, weights, solver.as_ref())
            }
            RuxBase::AdaBoost(p) => {
                let ada = AdaBoostParams::fit_checked(Checked::new(p)?, data, weights)?;
                Self::select_fitted(params, &ada, data, weights, solver.as_ref())
            }
        }
    }
}

#[cfg(test)]
mod class_copy_tests {
    use super::*;
    use rulecover_core::{Condition, Rule};

    fn rule(class: usize, counts: Vec<f64>) -> LabeledRule {
        LabeledRule {
            pool: PoolRule {
                rule: Rule::new(vec![Condition::le(0, 1.0)]),
                estimator: 0,
                node: 0,
                estimator_weight: 1.0,
            },
            class,
            class_counts: counts,
        }
    }

    #[test]
    fn copies_go_to_classes_holding_a_kth_of_the_rule() {
        // Three classes: a third of the weight is the bar.
        let rules = [rule(0, vec![5.0, 4.0, 1.0]), rule(2, vec![0.0, 3.0, 6.0])];
        let (copies, of) = class_copies(&rules, 3);
        let classes: Vec<(usize, usize)> =
            of.iter().zip(&copies).map(|(&j, r)| (j, r.class)).collect();
        assert_eq!(classes, vec![(0, 1), (1, 1)]);
        assert_eq!(copies[0].class_counts, rules[0].class_counts);
        // Two classes: never.
        let binary = [rule(0, vec![5.0, 5.0])];
        assert!(class_copies(&binary, 2).0.is_empty());
    }
}
