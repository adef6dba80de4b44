//! RCBoost (seed 000, Algorithm 2): column generation over the LP
//! relaxation of the rule cover, pricing with a tree fitted on the
//! accumulated duals.

use serde::{Deserialize, Serialize};

use rc_cover::input::{check_no_missing, encoded};
use rc_cover::row_weights::{coverage_count, without_zero_rows};
use rc_cover::vote::pooled_smoothing;
use rc_cover::{
    vote, Impurity, LabeledPool, MircoModel, MircoParams, RuleProba, RuleStats, Smoothing,
};
use rc_lp::LpSolver;
use rulecover_core::{
    CheckParams, Checked, Dataset, Encoder, Encoding, Feature, Fit, Fitted, Predict, Predictions,
    Rule, RuleModel, RuleSet,
};

use crate::error::{Error, Result};
use crate::master::{default_master_solver, CoverMaster, MasterRows};
use crate::oracle::{propose_checked, PricingOracle};
use crate::tree_oracle::TreeOracle;
use rc_tree::{Criterion, DecisionTreeParams};

/// Reduced costs below `-REDUCED_COST_TOL` count as negative. The paper
/// uses a strict `< 0` with Gurobi's duals; the tolerance only absorbs LP
/// round-off (a column already in the pool has reduced cost ≈ 0).
pub const REDUCED_COST_TOL: f64 = 1e-9;

/// RCBoost parameters (the tree's own parameters live in the oracle).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RcBoostParams {
    /// Cap on the number of master LP solves (`maxNumOfRMPCalls`; grid
    /// {5, 10, 50, 100, 200}, code default 100).
    pub max_rmp_calls: usize,
    /// Impurity in the rule cost `1 + w_j`, and the pricing tree's
    /// criterion. Default Gini.
    pub impurity: Impurity,
    /// Depth of the pricing trees used by [`RcBoostParams::fit`] (grid
    /// {5, 10, 20}; code default 10).
    pub max_depth: Option<usize>,
    /// Seed of the pricing trees (only breaks ties between equal splits).
    pub seed: u64,
    /// How raw columns are encoded before learning (default one-hot with
    /// every level; numeric columns pass through).
    #[serde(default)]
    pub encoding: Encoding,
    /// Class probabilities: the paper's count vote (the default) or
    /// calibrated on the training rows ([`RuleProba`]). A parameter file without
    /// this field reads as the vote.
    #[serde(default)]
    pub proba: RuleProba,
    /// Which covering rows the master LP holds: a working set certified
    /// against every row (the default, exact) or every row
    /// ([`crate::master`]). A parameter file without this field reads as
    /// the working set.
    #[serde(default)]
    pub master_rows: MasterRows,
}

impl Default for RcBoostParams {
    fn default() -> Self {
        RcBoostParams {
            max_rmp_calls: 100,
            impurity: Impurity::Gini,
            max_depth: Some(10),
            seed: 0,
            encoding: Encoding::OneHot { drop_first: false },
            proba: RuleProba::Vote,
            master_rows: MasterRows::WorkingSet,
        }
    }
}

impl RcBoostParams {
    /// Sets the cap on master LP solves.
    pub fn max_rmp_calls(mut self, cap: usize) -> Self {
        self.max_rmp_calls = cap;
        self
    }

    /// Sets the impurity measure of the costs.
    pub fn impurity(mut self, impurity: Impurity) -> Self {
        self.impurity = impurity;
        self
    }

    /// Sets the pricing trees' depth.
    pub fn max_depth(mut self, depth: impl Into<Option<usize>>) -> Self {
        self.max_depth = depth.into();
        self
    }

    /// Sets the pricing trees' seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets how raw columns are encoded.
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// Sets how class probabilities are formed.
    pub fn proba(mut self, proba: RuleProba) -> Self {
        self.proba = proba;
        self
    }

    /// Sets which covering rows the master LP holds.
    pub fn master_rows(mut self, rows: MasterRows) -> Self {
        self.master_rows = rows;
        self
    }

    /// The pricing tree's parameters: CART with the cost's impurity as
    /// criterion, `max_depth`, all features (the authors' setting).
    pub fn tree_params(&self) -> DecisionTreeParams {
        let criterion = match self.impurity {
            Impurity::Gini => Criterion::Gini,
            Impurity::Entropy => Criterion::Entropy,
        };
        DecisionTreeParams::classifier()
            .criterion(criterion)
            .max_depth(self.max_depth)
            .seed(self.seed)
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<()> {
        if self.max_rmp_calls == 0 {
            return Err(Error::InvalidParameter {
                name: "max_rmp_calls",
                value: "0".into(),
                reason: "at least one master LP must be solved".into(),
            });
        }
        if self.max_depth == Some(0) {
            return Err(Error::InvalidParameter {
                name: "max_depth",
                value: "0".into(),
                reason: "trees need depth ≥ 1 (or None for unlimited)".into(),
            });
        }
        Ok(())
    }

    /// Runs Algorithm 2 on `train` with a pricing oracle and an LP solver.
    ///
    /// 1. The oracle's rules for unit weights form the initial pool.
    /// 2. Solve the master LP, add its duals λ to the weights (1 + Σ λ).
    /// 3. Ask the oracle for rules under the new weights; add every rule
    ///    whose reduced cost `c_j − Σ_{i∈I(j)} λ_i` (current duals) is
    ///    negative. Stop when there is none, or after `max_rmp_calls`
    ///    solves (the last round's rules are still added, as the authors'
    ///    code does).
    ///
    /// With `weights` (one non-negative sample weight per training row,
    /// replication semantics), rows of weight 0 are left out, the rules'
    /// class counts (hence costs and votes) are weighted, and the oracle's
    /// weights start at the sample weights (a row of weight `m` weighs
    /// `m + Σ λ_i` where `m` copies would each weigh `1 + λ`). The cover
    /// rows of the master LP do not depend on weights. [`Fit`] is this
    /// with the weighted-tree oracle and [`default_master_solver`].
    pub fn fit_with(
        &self,
        train: &Dataset,
        weights: Option<&[f64]>,
        oracle: &mut dyn PricingOracle,
        solver: &dyn LpSolver,
    ) -> Result<RcBoostModel> {
        let params = self.check_inputs(train, weights)?;
        Self::fit_checked_with(params, train, weights, oracle, solver)
    }

    /// [`RcBoostParams::fit_with`] with checked parameters and weights.
    fn fit_checked_with(
        params: Checked<'_, Self>,
        train: &Dataset,
        weights: Option<&[f64]>,
        oracle: &mut dyn PricingOracle,
        solver: &dyn LpSolver,
    ) -> Result<RcBoostModel> {
        let ones;
        let weights = match weights {
            Some(w) => w,
            None => {
                ones = vec![1.0; train.n_rows()];
                &ones
            }
        };
        let run = params.run(train, weights, oracle, solver, params.max_rmp_calls)?;
        run.model_at(params.max_rmp_calls, params.proba)
    }

    /// The models of several caps on master LP solves from one run:
    /// `caps[k]`'s model equals `self.max_rmp_calls(caps[k]).fit_with(..)`
    /// exactly (Algorithm 2 with cap `c` is the first `c` rounds of a run
    /// with a larger cap), at the cost of one fit with the largest cap. For
    /// grid searches over `max_rmp_calls`; `self.max_rmp_calls` is ignored.
    pub fn fit_path_with(
        &self,
        train: &Dataset,
        oracle: &mut dyn PricingOracle,
        solver: &dyn LpSolver,
        caps: &[usize],
    ) -> Result<Vec<RcBoostModel>> {
        let largest = caps.iter().copied().max().unwrap_or(0);
        if caps.contains(&0) || largest == 0 {
            return Err(Error::InvalidParameter {
                name: "caps",
                value: format!("{caps:?}"),
                reason: "every cap must be at least 1 master LP solve".into(),
            });
        }
        self.clone().max_rmp_calls(largest).validate()?;
        let run = self.run(train, &vec![1.0; train.n_rows()], oracle, solver, largest)?;
        caps.iter().map(|&c| run.model_at(c, self.proba)).collect()
    }

    /// [`RcBoostParams::fit_path_with`] with the weighted-tree oracle and the
    /// default LP solver.
    pub fn fit_path(&self, train: &Dataset, caps: &[usize]) -> Result<Vec<RcBoostModel>> {
        let mut oracle = TreeOracle::new(self.tree_params());
        self.fit_path_with(train, &mut oracle, default_master_solver().as_ref(), caps)
    }

    /// Algorithm 2 with at most `max_calls` master solves, remembering the
    /// pool size after each round.
    fn run(
        &self,
        train: &Dataset,
        sample_weights: &[f64],
        oracle: &mut dyn PricingOracle,
        solver: &dyn LpSolver,
        max_calls: usize,
    ) -> Result<Run> {
        if !train.is_classification() {
            return Err(Error::Data("RCBoost needs a class target".into()));
        }
        if train.n_rows() == 0 {
            return Err(Error::Data("no training rows".into()));
        }
        let (encoder, train) = Encoder::fit(train, self.encoding)?;
        check_no_missing(&train).map_err(Error::Cover)?;
        let (train, sample_weights) = without_zero_rows(&train, sample_weights)?;
        let train = &train;
        let n = train.n_rows();
        let mut weights = sample_weights.clone();
        let first = propose_checked(oracle, train, &weights, 0)?;
        let (rules, coverage) = first.into_parts();
        let mut pool = LabeledPool::new_weighted(rules, coverage, train, &sample_weights)?;
        let mut costs = pool.costs(self.impurity, 1.0);
        let mut master = CoverMaster::new(n, self.master_rows)?;
        for (j, c) in costs.iter().enumerate() {
            master.add_column(*c, pool.coverage.rows_of(j))?;
        }
        let mut objectives = Vec::new();
        let mut pool_after = Vec::new();
        for t in 0..max_calls {
            let sol = master.solve(solver, t)?;
            objectives.push(sol.objective);
            for (w, l) in weights.iter_mut().zip(&sol.duals) {
                *w += l;
            }
            let cand = propose_checked(oracle, train, &weights, t + 1)?;
            let (rules, coverage) = cand.into_parts();
            let cand_pool = LabeledPool::new_weighted(rules, coverage, train, &sample_weights)?;
            let cand_costs = cand_pool.costs(self.impurity, 1.0);
            let negative: Vec<usize> = (0..cand_pool.len())
                .filter(|&j| {
                    let covered: f64 = cand_pool
                        .coverage
                        .rows_of(j)
                        .iter()
                        .map(|&i| sol.duals[i as usize])
                        .sum();
                    cand_costs[j] - covered < -REDUCED_COST_TOL
                })
                .collect();
            if negative.is_empty() {
                pool_after.push(pool.len());
                break;
            }
            for &j in &negative {
                master.add_column(cand_costs[j], cand_pool.coverage.rows_of(j))?;
                costs.push(cand_costs[j]);
            }
            let rules = negative
                .iter()
                .map(|&j| cand_pool.rules[j].clone())
                .collect();
            let coverage = cand_pool.coverage.select(&negative);
            pool.extend(rules, coverage, train)?;
            pool_after.push(pool.len());
        }
        Ok(Run {
            encoder,
            n_classes: train.n_classes(),
            labels: train.labels()?,
            pool,
            costs,
            objectives,
            pool_after,
        })
    }
}

/// One run of Algorithm 2, from which the model of any smaller cap is cut.
struct Run {
    encoder: Encoder,
    n_classes: usize,
    /// The classes of the training rows (weight-0 rows left out).
    labels: Vec<usize>,
    pool: LabeledPool,
    costs: Vec<f64>,
    /// Master objective of each solve.
    objectives: Vec<f64>,
    /// Pool size after round `t` (solve `t` and its pricing).
    pool_after: Vec<usize>,
}

impl Run {
    /// The model Algorithm 2 returns with a cap of `cap` master solves,
    /// its probabilities formed as `proba` says.
    fn model_at(&self, cap: usize, proba: RuleProba) -> Result<RcBoostModel> {
        let solves = cap.min(self.objectives.len());
        let len = match solves {
            0 => self.pool.len(),
            s => self.pool_after[s - 1],
        };
        let rules: Vec<Rule> = self.pool.rules[..len]
            .iter()
            .map(|p| p.rule.clone())
            .collect();
        let stats = self.pool.stats[..len].to_vec();
        let smoothing = match proba {
            RuleProba::Vote => None,
            RuleProba::Calibrated => Some(
                pooled_smoothing(
                    &stats,
                    &self.pool.coverage.select(&(0..len).collect::<Vec<_>>()),
                    &self.labels,
                    &self.pool.row_weights,
                    self.n_classes,
                )
                .map_err(Error::Cover)?,
            ),
        };
        Ok(RcBoostModel {
            encoder: self.encoder.clone(),
            n_classes: self.n_classes,
            rules,
            stats,
            coverage: (0..len)
                .map(|j| coverage_count(self.pool.covered_weight(j)))
                .collect(),
            costs: self.costs[..len].to_vec(),
            lp_solves: solves,
            objectives: self.objectives[..solves].to_vec(),
            smoothing,
        })
    }
}

/// A fitted RCBoost rule pool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RcBoostModel {
    encoder: Encoder,
    n_classes: usize,
    rules: Vec<Rule>,
    stats: Vec<RuleStats>,
    /// Training rows (total sample weight) each rule covers.
    coverage: Vec<usize>,
    costs: Vec<f64>,
    lp_solves: usize,
    objectives: Vec<f64>,
    /// The smoothing of [`RuleProba::Calibrated`] (none: the vote; a model
    /// file without it reads as the vote).
    #[serde(default)]
    smoothing: Option<Smoothing>,
}

impl RcBoostModel {
    /// Number of master LP solves.
    pub fn lp_solves(&self) -> usize {
        self.lp_solves
    }

    /// "Number of RMP calls" as the paper reports it: the authors' loop
    /// index at exit, i.e. LP solves − 1 (seed 000 §3.3).
    pub fn rmp_calls(&self) -> usize {
        self.lp_solves.saturating_sub(1)
    }

    /// The smoothing of the class probabilities, if fitted with
    /// [`RuleProba::Calibrated`].
    pub fn smoothing(&self) -> Option<&Smoothing> {
        self.smoothing.as_ref()
    }

    /// Master objective after each solve (non-increasing: Φ(J_t) ≥ Φ(J_t+1)).
    pub fn objectives(&self) -> &[f64] {
        &self.objectives
    }

    /// The pool's rules (initial tree's leaves first).
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Training class counts of each rule (weighted with sample weights).
    pub fn stats(&self) -> &[RuleStats] {
        &self.stats
    }

    /// Training rows each rule covers (their total sample weight, rounded).
    pub fn coverage(&self) -> &[usize] {
        &self.coverage
    }

    /// The encoded features the rules index.
    pub fn features(&self) -> &[Feature] {
        self.encoder.encoded_features()
    }

    /// Runs MIRCO on the final pool (seed 000 §S.3: Algorithm 1 from line
    /// 5 with J ← J*), shrinking it to a cover of `train` (raw columns,
    /// encoded by this model's encoder; unweighted). The MIRCO model keeps
    /// this model's encoder.
    pub fn shrink_with_mirco(&self, train: &Dataset, params: &MircoParams) -> Result<MircoModel> {
        let train = &encoded(&self.encoder, train)?;
        let pool_rules = self
            .rules
            .iter()
            .enumerate()
            .map(|(j, r)| rulecover_core::PoolRule {
                rule: r.clone(),
                estimator: 0,
                node: j,
                estimator_weight: 1.0,
            })
            .collect::<Vec<_>>();
        let coverage = rulecover_core::CoverageMatrix::from_rules(self.rules.iter(), train);
        let pool = LabeledPool::new(pool_rules, coverage, train)?;
        Ok(params.fit_pool_encoded(&pool, train, self.encoder.clone())?)
    }

    /// The pool as a printable rule set.
    fn to_rule_set(&self) -> RuleSet {
        RuleSet {
            features: self.features().to_vec(),
            class_names: self.encoder.schema().classes().to_vec(),
            rules: self
                .rules
                .iter()
                .zip(&self.stats)
                .zip(&self.coverage)
                .map(|((r, s), &coverage)| rulecover_core::WeightedRule {
                    antecedent: rulecover_core::Antecedent::Conjunction(r.clone()),
                    outcome: match s {
                        RuleStats::Counts(c) => rulecover_core::Outcome::ClassCounts(c.clone()),
                        RuleStats::Value { mean, .. } => rulecover_core::Outcome::Value(*mean),
                    },
                    weight: 1.0,
                    coverage,
                    for_class: None,
                })
                .collect(),
        }
    }
}

impl Fitted for RcBoostModel {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl Predict for RcBoostModel {
    type Error = Error;

    /// The count-weighted vote of every pool rule a row satisfies (seed
    /// 000's eq. 2): `proba` is the sum of the covering rules' training
    /// class counts divided by its total; a row no rule covers gets every
    /// rule's counts times the fraction of its conditions the row
    /// satisfies. Fitted with [`RuleProba::Calibrated`], the summed counts
    /// are smoothed toward the class shares
    /// ([`rc_cover::Smoothing::pooled`]). Columns are matched by name and
    /// encoded as at fit; a missing value is
    /// [`rc_cover::Error::MissingValue`].
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        let data = encoded(&self.encoder, data)?;
        Ok(vote(
            &self.rules,
            &self.stats,
            self.n_classes,
            &data,
            self.smoothing.as_ref(),
        )
        .0)
    }
}

impl rulecover_core::scoring::Export for RcBoostModel {
    /// The vote `predict` takes ([`rc_cover::export::vote_output`]).
    fn export(
        &self,
        program: &mut rulecover_core::scoring::ProgramBuilder,
    ) -> std::result::Result<rulecover_core::scoring::Output, rulecover_core::scoring::ExportError>
    {
        rc_cover::export::vote_output(
            program,
            &self.encoder,
            &self.rules,
            &self.stats,
            self.n_classes,
            self.smoothing.as_ref(),
        )
    }
}

impl CheckParams for RcBoostParams {
    type ParamError = Error;

    /// [`RcBoostParams::validate`].
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for RcBoostParams {
    type Model = RcBoostModel;
    type Error = Error;

    /// Runs RCBoost with the weighted-tree oracle ([`TreeOracle`]) and the
    /// master's LP solver ([`default_master_solver`]).
    fn fit_checked(
        params: Checked<'_, Self>,
        train: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<RcBoostModel> {
        let mut oracle = TreeOracle::new(params.tree_params());
        let solver = default_master_solver();
        Self::fit_checked_with(params, train, weights, &mut oracle, solver.as_ref())
    }
}

impl RuleModel for RcBoostModel {
    fn n_rules(&self) -> usize {
        self.rules.len()
    }

    fn rule_lengths(&self) -> Vec<usize> {
        self.rules.iter().map(Rule::len).collect()
    }

    fn render_rules(&self) -> String {
        self.to_rule_set().to_string()
    }

    fn rule_set(&self) -> RuleSet {
        self.to_rule_set()
    }
}

impl rulecover_core::Validate for RcBoostModel {
    /// The encoder holds together and has `n_classes` classes; one
    /// statistic and one coverage per rule; the rules' features are the
    /// encoded features; every statistic is class counts of `n_classes`
    /// finite numbers (a finite mean and error for regression).
    fn validate(&self) -> rulecover_core::validate::Validity {
        rc_cover::pool::check_voting_rules(
            &self.encoder,
            self.n_classes,
            &self.rules,
            &self.stats,
            &self.coverage,
            self.smoothing.as_ref(),
        )
    }
}
