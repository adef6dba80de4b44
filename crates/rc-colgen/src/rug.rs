//! RUG (seed 001 §3, Algorithm 1 with the proxy pricing of Fig. 1): rule
//! generation by column generation over master LP (3). A tree fitted on
//! the hinge duals β as sample weights proposes leaves; those with
//! negative reduced cost `c_j − Σ_i (â_ij β_i + a_ij γ_i)` join the pool.
//! RUG-T (App. D) is the same with at most 5 pricing rounds and only the
//! rules of normalised weight ≥ 0.05 kept for prediction.
//!
//! ```
//! use rc_colgen::{RugParams, StopReason};
//! use rulecover_core::{generate, Fit, Predict, RuleModel};
//! use rc_tree::DecisionTreeParams;
//!
//! let train = generate::twonorm(300, 1);
//! let rug = RugParams::default().max_depth(2).fit(&train)?;  // CBC with feature `cbc`, else minilp
//! let tree = DecisionTreeParams::classifier().max_depth(2).fit(&train)?;
//! let acc = |p: Vec<usize>| {
//!     let t = train.labels().unwrap();
//!     p.iter().zip(&t).filter(|(a, b)| a == b).count() as f64 / t.len() as f64
//! };
//! let (a_rug, a_tree) = (acc(rug.predict(&train)?.labels().unwrap()), acc(tree.predict(&train)?.labels().unwrap()));
//! assert!(a_rug > a_tree);                       // boosting-like gain over the initial tree
//! assert!(rug.pricing_rounds() <= 30);
//! for round in &rug.history()[1..] {
//!     if round.added > 0 {
//!         assert!(round.min_reduced_cost.unwrap() < 0.0);  // only improving rules enter
//!     }
//! }
//! println!("{}", rug.render_rules());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::{Deserialize, Serialize};

use rc_cover::input::check_no_missing;
use rc_cover::row_weights::without_zero_rows;
use rc_cover::rux::{
    cost_scale, default_rux_solver, label_rules_weighted, relabel_balanced, weighted_model,
    LabeledRule,
};
use rc_cover::{
    CoverageRows, HingeRows, LeafLabel, LpForm, RuleCost, RuleLp, RuxParams, Uncovered,
    WeightedRuleModel,
};
use rc_lp::LpSolver;
use rc_tree::DecisionTreeParams;
use rulecover_core::{
    CheckParams, Checked, Dataset, Encoder, Encoding, Fit, Fitted, Predict, Predictions, RuleModel,
};

use crate::error::{Error, Result};
use crate::oracle::{propose_checked, PricingOracle};
use crate::tree_oracle::TreeOracle;

/// Reduced costs below `-RUG_REDUCED_COST_TOL` count as negative (the
/// paper's strict `< 0`; the tolerance absorbs LP round-off, e.g. a leaf
/// identical to a pool rule).
pub const RUG_REDUCED_COST_TOL: f64 = 1e-9;

/// Total hinge dual below which the pricing tree cannot be fitted (every
/// row has margin ≥ 1: nothing left to price).
const ZERO_DUALS: f64 = 1e-12;

/// RUG parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RugParams {
    /// Depth of the initial tree and of every pricing tree (tuned over
    /// {1, 2, 3} in the paper; the code's default 2).
    pub max_depth: Option<usize>,
    /// Cap on pricing rounds, each followed by a master LP solve (the
    /// code's `max_RMP_calls`, default 30; RUG-T uses 5).
    pub max_rmp_calls: usize,
    /// Keep only rules with normalised weight ≥ this for prediction (RUG-T:
    /// 0.05; `None` keeps every rule above `threshold`).
    pub min_weight: Option<f64>,
    /// Seed of the trees (only breaks ties between equally good splits).
    pub seed: u64,
    /// ε, costs, cost normalisation, weight threshold, coverage rows,
    /// fallback, LP form, the class each rule votes for
    /// ([`RuxParams::leaf_label`]; [`LeafLabel::Estimator`] reads as the
    /// training majority, pricing trees having no class of their own) and
    /// the probabilities, as for RUX. Default: rule-length costs (the
    /// paper's experiments), normalised by the largest cost of the initial
    /// tree's leaves, rules voting for their training majority (the
    /// authors' code), the paper's vote. (Its `base` ensemble is not
    /// used, nor its `hinge_rows`: the master LPs hold every row's hinge
    /// constraint. A working set of rows only grows while a pool grows, and
    /// the early rounds' degenerate optima, with many rows at margin 1, let
    /// it reach every row within a few rounds; measured in
    /// docs/PERFORMANCE.md, "RUX: working sets of hinge rows".)
    pub lp: RuxParams,
    /// How raw columns are encoded before learning (default one-hot with
    /// every level; numeric columns pass through).
    #[serde(default)]
    pub encoding: Encoding,
}

impl Default for RugParams {
    fn default() -> Self {
        RugParams {
            max_depth: Some(2),
            max_rmp_calls: 30,
            min_weight: None,
            seed: 0,
            lp: RuxParams::default().leaf_label(LeafLabel::TrainingMajority),
            encoding: Encoding::OneHot { drop_first: false },
        }
    }
}

impl RugParams {
    /// RUG-T (seed 001 App. D): at most 5 pricing rounds, rules with
    /// normalised weight ≥ 0.05.
    pub fn rug_t() -> Self {
        RugParams {
            max_rmp_calls: 5,
            min_weight: Some(0.05),
            ..Self::default()
        }
    }

    /// Sets the trees' depth.
    pub fn max_depth(mut self, depth: impl Into<Option<usize>>) -> Self {
        self.max_depth = depth.into();
        self
    }

    /// Sets the cap on pricing rounds (≥ 1; for the initial tree's leaves
    /// weighted by one LP, run RUX on a decision tree).
    pub fn max_rmp_calls(mut self, cap: usize) -> Self {
        self.max_rmp_calls = cap;
        self
    }

    /// Sets the minimum normalised weight of the rules kept (RUG-T).
    pub fn min_weight(mut self, w: impl Into<Option<f64>>) -> Self {
        self.min_weight = w.into();
        self
    }

    /// Sets the trees' seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets the coverage right-hand side ε.
    pub fn eps(mut self, eps: f64) -> Self {
        self.lp.eps = eps;
        self
    }

    /// Sets the rule costs.
    pub fn cost(mut self, cost: RuleCost) -> Self {
        self.lp.cost = cost;
        self
    }

    /// Switches the normalisation of costs by the largest cost of the
    /// initial tree's leaves.
    pub fn normalize_costs(mut self, on: bool) -> Self {
        self.lp.normalize_costs = on;
        self
    }

    /// Sets how coverage rows enter the LP.
    pub fn coverage(mut self, coverage: CoverageRows) -> Self {
        self.lp.coverage = coverage;
        self
    }

    /// Sets the LP form handed to the solver.
    pub fn form(mut self, form: LpForm) -> Self {
        self.lp.form = form;
        self
    }

    /// Sets the prediction for uncovered rows.
    pub fn uncovered(mut self, uncovered: Uncovered) -> Self {
        self.lp.uncovered = uncovered;
        self
    }

    /// Replaces the LP parameters.
    pub fn lp(mut self, lp: RuxParams) -> Self {
        self.lp = lp;
        self
    }

    /// Rules labelled with their training class counts and the class
    /// [`RuxParams::leaf_label`] gives them (the class-balanced majority,
    /// or the training majority).
    fn labelled(
        &self,
        rules: Vec<rulecover_core::PoolRule>,
        coverage: &rulecover_core::CoverageMatrix,
        train: &Dataset,
        weights: &[f64],
    ) -> std::result::Result<Vec<LabeledRule>, rc_cover::Error> {
        let mut labelled = label_rules_weighted(rules, coverage, train, weights)?;
        if self.lp.leaf_label == LeafLabel::Balanced {
            relabel_balanced(&mut labelled, &train.labels()?, weights, train.n_classes());
        }
        Ok(labelled)
    }

    /// Sets how raw columns are encoded.
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<()> {
        self.lp.validate()?;
        if self.max_rmp_calls == 0 {
            return Err(Error::InvalidParameter {
                name: "max_rmp_calls",
                value: "0".into(),
                reason: "at least one pricing round must be made (for the initial tree's \
                         leaves weighted by one LP, run RUX on a decision tree)"
                    .into(),
            });
        }
        if self.max_depth == Some(0) {
            return Err(Error::InvalidParameter {
                name: "max_depth",
                value: "0".into(),
                reason: "trees need depth ≥ 1 (or None for unlimited)".into(),
            });
        }
        if let Some(w) = self.min_weight {
            if !(w.is_finite() && (0.0..=1.0).contains(&w)) {
                return Err(Error::InvalidParameter {
                    name: "min_weight",
                    value: w.to_string(),
                    reason: "a normalised weight lies in [0, 1]".into(),
                });
            }
        }
        Ok(())
    }

    /// The trees' parameters: scikit-learn's default CART (Gini, all
    /// features) with `max_depth` and `seed`.
    pub fn tree_params(&self) -> DecisionTreeParams {
        DecisionTreeParams::classifier()
            .max_depth(self.max_depth)
            .seed(self.seed)
    }

    /// Runs RUG with a pricing oracle and an LP solver (which must compute
    /// duals).
    ///
    /// 1. The oracle's rules for unit weights (the initial tree) form the
    ///    pool; costs are normalised by their largest value if asked.
    /// 2. Solve LP (3); stop if every hinge dual β is 0 (a tree cannot be
    ///    fitted to zero weights).
    /// 3. Ask the oracle for rules under the weights β; add those whose
    ///    reduced cost (with γ) is negative. Stop when there is none or
    ///    after `max_rmp_calls` rounds; otherwise solve again.
    ///
    /// With `weights` (one non-negative sample weight per training row,
    /// replication semantics), rows of weight 0 are left out, the initial
    /// tree is fitted with the sample weights, rules are labelled by
    /// weighted class counts, a row's hinge loss costs its weight in LP
    /// (3), and its dual β (the oracle's weight) lies in `[0, weight]`.
    /// [`Fit`] is this with the weighted-tree oracle and the default LP
    /// solver.
    pub fn fit_with(
        &self,
        train: &Dataset,
        weights: Option<&[f64]>,
        oracle: &mut dyn PricingOracle,
        solver: &dyn LpSolver,
    ) -> Result<RugModel> {
        let params = self.check_inputs(train, weights)?;
        Self::fit_checked_with(params, train, weights, oracle, solver)
    }

    /// [`RugParams::fit_with`] with checked parameters and weights.
    fn fit_checked_with(
        params: Checked<'_, Self>,
        train: &Dataset,
        weights: Option<&[f64]>,
        oracle: &mut dyn PricingOracle,
        solver: &dyn LpSolver,
    ) -> Result<RugModel> {
        let (encoder, train) = Encoder::fit(train, params.encoding)?;
        check_no_missing(&train)?;
        let (train, weights) = match weights {
            Some(w) => without_zero_rows(&train, w)?,
            None => {
                let ones = vec![1.0; train.n_rows()];
                (train, ones)
            }
        };
        let train = &train;
        let labels = train.labels()?;
        let lp_err = |round: usize| {
            move |e: rc_cover::Error| match e {
                rc_cover::Error::Solver(message) => Error::Lp { round, message },
                rc_cover::Error::Lp(source) => Error::LpSolve { round, source },
                other => Error::Cover(other),
            }
        };
        let mut lp = RuleLp::new(&labels, params.lp.eps, params.lp.coverage)
            .map_err(lp_err(0))?
            .with_row_weights(&weights)
            .map_err(lp_err(0))?
            .with_form(params.lp.form)
            .with_policy(params.lp.policy)
            .with_hinge_rows(HingeRows::All);
        let first = propose_checked(oracle, train, &weights, 0)?;
        let (first_rules, first_coverage) = first.into_parts();
        let mut pool: Vec<LabeledRule> =
            params.labelled(first_rules, &first_coverage, train, &weights)?;
        let raw = params.lp.costs(&pool, 1.0)?;
        let scale = cost_scale(&raw, params.lp.normalize_costs);
        for (j, r) in pool.iter().enumerate() {
            lp.add_rule(first_coverage.rows_of(j).to_vec(), r.class, raw[j] * scale)
                .map_err(lp_err(0))?;
        }
        let fallback = params.lp.fallback_weighted(&pool, train, &weights);
        if params.lp.coverage != CoverageRows::Off {
            let uncovered = lp.uncovered_rows();
            if let Some(&first) = uncovered.first() {
                return Err(Error::Cover(rc_cover::Error::Uncoverable {
                    rows: uncovered.len(),
                    first,
                }));
            }
        }
        let mut sol = lp.solve(solver).map_err(lp_err(0))?;
        if !sol.has_duals() {
            return Err(Error::Lp {
                round: 0,
                message: "RUG prices with duals, but the LP solver skipped them".into(),
            });
        }
        let mut lp_seconds = sol.stats.seconds;
        let mut history = vec![RugRound {
            round: 0,
            candidates: pool.len(),
            added: pool.len(),
            min_reduced_cost: None,
            objective: sol.objective,
            pool_size: pool.len(),
            lp_rows: sol.stats.hinge_rows + sol.stats.coverage_rows,
            lp_seconds: sol.stats.seconds,
        }];
        let mut stop = StopReason::IterationCap;
        for round in 1..=params.max_rmp_calls {
            let total_beta: f64 = sol.beta.iter().sum();
            if total_beta <= ZERO_DUALS {
                stop = StopReason::ZeroDuals;
                break;
            }
            let cand = propose_checked(oracle, train, &sol.beta, round)?;
            let n_cand = cand.len();
            let (cand_rules, cand_coverage) = cand.into_parts();
            let cand_pool = params.labelled(cand_rules, &cand_coverage, train, &weights)?;
            let cand_costs = params.lp.costs(&cand_pool, scale)?;
            let mut min_rc = f64::INFINITY;
            let mut added = 0;
            for (j, r) in cand_pool.into_iter().enumerate() {
                let rows = cand_coverage.rows_of(j);
                let rc = lp
                    .reduced_cost(rows, r.class, cand_costs[j], &sol)
                    .map_err(lp_err(round))?;
                min_rc = min_rc.min(rc);
                if rc < -RUG_REDUCED_COST_TOL {
                    lp.add_rule(rows.to_vec(), r.class, cand_costs[j])
                        .map_err(lp_err(round))?;
                    pool.push(r);
                    added += 1;
                }
            }
            if added == 0 {
                stop = StopReason::NoNegativeReducedCost;
                history.push(RugRound {
                    round,
                    candidates: n_cand,
                    added,
                    min_reduced_cost: Some(min_rc),
                    objective: sol.objective,
                    pool_size: pool.len(),
                    lp_rows: 0,
                    lp_seconds: 0.0,
                });
                break;
            }
            sol = lp.solve(solver).map_err(lp_err(round))?;
            lp_seconds += sol.stats.seconds;
            history.push(RugRound {
                round,
                candidates: n_cand,
                added,
                min_reduced_cost: Some(min_rc),
                objective: sol.objective,
                pool_size: pool.len(),
                lp_rows: sol.stats.hinge_rows + sol.stats.coverage_rows,
                lp_seconds: sol.stats.seconds,
            });
        }
        let full = weighted_model(
            &lp,
            &sol,
            &pool,
            params.lp.threshold,
            fallback,
            encoder,
            lp_seconds,
        )?;
        let model = match params.min_weight {
            Some(w) => full.with_min_weight(w),
            None => full,
        };
        let model = params.lp.with_vote_and_proba(model, train, &weights)?;
        Ok(RugModel {
            model,
            history,
            stop,
            final_solution: FinalDuals {
                beta: sol.beta,
                gamma: sol.gamma,
            },
        })
    }
}

/// Why column generation stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StopReason {
    /// No proposed rule had a negative reduced cost.
    NoNegativeReducedCost,
    /// Every hinge dual was zero (all margins ≥ 1): nothing to price.
    ZeroDuals,
    /// `max_rmp_calls` pricing rounds were made.
    IterationCap,
}

/// One round of column generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RugRound {
    /// 0 for the initial tree, then the pricing round.
    pub round: usize,
    /// Rules the oracle proposed.
    pub candidates: usize,
    /// Rules added to the pool (all of them in round 0).
    pub added: usize,
    /// Smallest reduced cost among the candidates (`None` in round 0).
    pub min_reduced_cost: Option<f64>,
    /// Master objective after the round's solve (unchanged when nothing
    /// was added).
    pub objective: f64,
    /// Pool size after the round.
    pub pool_size: usize,
    /// Rows of the aggregated LP solved (0 when no solve happened).
    pub lp_rows: usize,
    /// Seconds spent in the round's LP solve.
    pub lp_seconds: f64,
}

/// The duals of the last master solve, per training row.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FinalDuals {
    /// Hinge duals β ∈ [0, w] (w the row's sample weight, 1 without).
    pub beta: Vec<f64>,
    /// Coverage duals γ ≥ 0.
    pub gamma: Vec<f64>,
}

/// A fitted RUG (or RUG-T) rule set with its column-generation history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RugModel {
    model: WeightedRuleModel,
    history: Vec<RugRound>,
    stop: StopReason,
    final_solution: FinalDuals,
}

impl RugModel {
    /// The weighted rules (heaviest first) and their prediction.
    pub fn rules(&self) -> &WeightedRuleModel {
        &self.model
    }

    /// One entry per round (round 0 = the initial tree).
    pub fn history(&self) -> &[RugRound] {
        &self.history
    }

    /// Why column generation stopped.
    pub fn stop_reason(&self) -> StopReason {
        self.stop
    }

    /// Master LP solves.
    pub fn lp_solves(&self) -> usize {
        self.history.iter().filter(|r| r.lp_rows > 0).count()
    }

    /// Pricing rounds made (the code's RMP-call counter at exit).
    pub fn pricing_rounds(&self) -> usize {
        self.history.len().saturating_sub(1)
    }

    /// Rules in the final pool (weighted or not).
    pub fn pool_size(&self) -> usize {
        self.history.last().map_or(0, |r| r.pool_size)
    }

    /// Duals β, γ of the last master solve.
    pub fn final_duals(&self) -> &FinalDuals {
        &self.final_solution
    }

    /// Complexity as App. D counts it: rules + conditions.
    pub fn complexity(&self) -> usize {
        self.model.complexity()
    }
}

impl CheckParams for RugParams {
    type ParamError = Error;

    /// [`RugParams::validate`].
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for RugParams {
    type Model = RugModel;
    type Error = Error;

    /// Runs RUG with the weighted-tree oracle and the default LP solver
    /// ([`rc_cover::rux::default_rux_solver`]: HiGHS (the first master LP
    /// solved cold by the algorithm chosen from its shape, each later
    /// round's re-solved warm from the last optimal basis) with
    /// feature `highs`, else CBC with feature `cbc`, else minilp). The warm
    /// re-solves reach the same optima as cold ones, but on degenerate LPs
    /// possibly other optimal vertices, hence other duals and trees.
    fn fit_checked(
        params: Checked<'_, Self>,
        train: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<RugModel> {
        let mut oracle = TreeOracle::new(params.tree_params());
        let solver = default_rux_solver();
        Self::fit_checked_with(params, train, weights, &mut oracle, solver.as_ref())
    }
}

impl Fitted for RugModel {
    fn encoder(&self) -> &Encoder {
        self.model.encoder()
    }
}

impl Predict for RugModel {
    type Error = Error;

    /// The weighted vote of [`WeightedRuleModel`]'s `predict`: `proba` is
    /// each class's share of the normalised weight of the covering rules;
    /// a row no rule covers gets probability 1 on the fallback class.
    /// Columns are matched by name and encoded as at fit; a missing value
    /// is [`rc_cover::Error::MissingValue`].
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        Ok(self.model.predict(data)?)
    }
}

impl rulecover_core::scoring::Export for RugModel {
    /// The program of its [`WeightedRuleModel`] (the same weighted vote).
    fn export(
        &self,
        program: &mut rulecover_core::scoring::ProgramBuilder,
    ) -> std::result::Result<rulecover_core::scoring::Output, rulecover_core::scoring::ExportError>
    {
        self.model.export(program)
    }
}

impl RuleModel for RugModel {
    fn n_rules(&self) -> usize {
        self.model.n_rules()
    }

    fn rule_lengths(&self) -> Vec<usize> {
        self.model.rule_lengths()
    }

    fn render_rules(&self) -> String {
        self.model.render_rules()
    }

    fn rule_set(&self) -> rulecover_core::RuleSet {
        self.model.rule_set()
    }
}

impl rulecover_core::Validate for RugModel {
    /// The weighted rule model holds together (the fit's history is not
    /// read when predicting).
    fn validate(&self) -> rulecover_core::validate::Validity {
        self.model.validate().map_err(|e| e.within("model"))
    }
}
