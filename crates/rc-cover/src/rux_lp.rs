//! Master LP (3) of seed 001 (RUX and RUG) over a pool of labelled rules:
//!
//! ```text
//! min  Σ_i v_i + Σ_j c_j w_j
//! s.t. Σ_j â_ij w_j + v_i ≥ 1   ∀ i   (hinge rows, duals β_i ∈ [0, 1])
//!      Σ_j a_ij w_j       ≥ ε   ∀ i   (coverage rows, duals γ_i ≥ 0)
//!      v ≥ 0, w ≥ 0
//! ```
//!
//! with `a_ij = 1` when rule `j` covers training row `i`, and
//! `â_ij = κ a_ij R_jᵀ y_i`, `κ = (K−1)/K`, in closed form 1 when rule `j`
//! predicts row `i`'s class, `−1/(K−1)` when it covers the row with
//! another class, 0 when it does not cover it (seed 001 §1.2).
//!
//! # Sample weights
//!
//! With sample weights ([`RuleLp::with_row_weights`]) the hinge slack
//! `v_i` of row `i` costs `w_i` in the objective, exactly as `w_i` copies
//! of the row would (their hinge rows are identical, so their slacks are
//! equal at an optimum); coverage rows are unchanged (copies repeat the
//! same row). Rows of one hinge class then cost the sum of their weights,
//! so integer weights and duplicated rows give the same aggregated LP.
//!
//! # An exact, smaller LP
//!
//! The builder does not hand the solver one row per training sample.
//! Rows with the same coverage pattern (covered by exactly the same
//! rules) and the same class have identical hinge rows, and rows with the
//! same pattern have identical coverage rows; each such class of rows is
//! written once, with the cost of its `v` multiplied by its size (the total weight of its rows). This
//! is an exact reformulation: the optimal `w` and objective are those of
//! (3), and splitting an aggregated row's dual evenly over its members
//! gives an optimal dual `(β, γ)` of (3) (same dual constraints, same
//! dual objective, `0 ≤ β_i ≤ 1`). The patterns are maintained by
//! partition refinement as rules are added, so column generation
//! ([`RuleLp::add_rule`] between [`RuleLp::solve`]s) re-aggregates for
//! free.
//!
//! With [`CoverageRows::Lazy`] the coverage rows are added only where
//! needed: the LP is solved without them, the rows whose coverage is
//! below ε are added, and so on until every row is covered. The final
//! LP is a relaxation of (3) whose optimum is feasible for (3), hence
//! optimal for it; the omitted rows get `γ_i = 0`, which keeps `(β, γ)`
//! optimal for (3). On the data sets of seed 001 only a few percent of
//! the coverage rows are ever needed.
//!
//! # Working sets of hinge rows
//!
//! Aggregation does not shrink the LP on continuous data: with a pool of
//! a forest's leaves nearly every row has its own coverage pattern (29,952
//! hinge classes for 30,000 generated twonorm rows and 400 leaves). But at
//! the optimum only the rows with margin `Σ_j â_ij w_j ≤ 1` bind (about a
//! tenth there). With [`HingeRows::Working`] (the default from
//! [`WORKING_SET_MIN_ROWS`] rows) the first solve holds the hinge rows of
//! a fixed random sample of the rows (a sixteenth, at least 1,000); after
//! every solve one pass over all rows adds each row whose margin is below
//! `1 −` [`HINGE_TOL`], and the LP is solved again, until no row is added.
//! Exact: leaving out a row's hinge constraint and its `v_i` gives a
//! relaxation of (3), so the restricted optimum is a lower bound; when
//! every row left out has margin ≥ 1 (to `HINGE_TOL`), the restricted
//! optimum with `v_i = 0` there is feasible for (3), hence optimal, and its
//! duals extended by `β_i = 0` are optimal duals of (3) (RUG could price
//! with them). The final solution is certified over all rows, not assumed.
//! Rows never leave the working set, so the loop ends. In the dual form a
//! row that joins is a new bounded β column (or raises the bound of its
//! class's column), and HiGHS re-solves warm with the dual simplex
//! (`rc_lp::HighsSolver::dual_warm_columns`). On 30,000 twonorm rows the
//! final LP holds about 27 % of the rows, in 5 solves. Coverage rows stay
//! lazy over all rows, as below. RUG's master LPs hold every row (see
//! `rc_colgen::RugParams::lp`).
//!
//! # Warm re-solves of the dual form
//!
//! Between two solves of a growing pool (RUG, lazy coverage rows, column
//! generation over a pool) the dual form (4) gains a row per new rule and
//! its β columns split as hinge classes refine. The builder keeps every
//! old class's variable in its old position (a split class keeps it for
//! the part holding its first row, with the smaller bound) and appends new
//! classes and rules, so the new model is the old one with rows and
//! columns appended: HiGHS with
//! `rc_lp::HighsSolver::grow_rows` (feature `highs`) re-solves it
//! from the previous optimal basis with the dual simplex instead of from
//! scratch. The optimum is the same; in a degenerate LP the optimal vertex
//! (hence `w` and the duals, and so RUG's next trees) may differ from a
//! cold solve's. The first solve of a `RuleLp` is always cold (the thread's
//! warm-start instance is dropped), so the result never depends on other
//! LPs solved before. (HiGHS keeps one instance per thread: code between two
//! solves must not run other LP work on the thread, e.g. by waiting in a
//! rayon join that steals another fit; RUG's tree oracle does not.) Switch
//! the ordering off with [`RuleLp::with_warm_start`].

use std::collections::HashMap;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use rc_lp::{LpSolution, LpSolver, LpStatus, Model, RowId, VarId};

use crate::error::{Error, Result};

mod working_set;

pub use working_set::{HingeRows, HINGE_TOL, WORKING_SET_MIN_ROWS};

/// How the coverage rows `Σ_j a_ij w_j ≥ ε` enter the LP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum CoverageRows {
    /// Every coverage row from the start (the paper's LP as written).
    All,
    /// Only the rows a solve violates, added round by round (same
    /// optimum as `All`, usually a much smaller LP). The default.
    #[default]
    Lazy,
    /// No coverage rows (the LP of seed 001's later version; a training
    /// row may end up covered by no rule with positive weight).
    Off,
}

/// Reduced costs below `-PRICING_TOL` bring a rule back into the working
/// set of [`ColumnPolicy::Active`].
pub const PRICING_TOL: f64 = 1e-9;

/// Which rules the LP handed to the solver contains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ColumnPolicy {
    /// Every rule of the pool. The default.
    #[default]
    All,
    /// A working set: rules with positive weight at the previous solve,
    /// rules added since, and enough rules to cover every row; the others
    /// are priced with the duals and re-enter while one has a negative
    /// reduced cost, so the optimum is that of the LP over all rules.
    /// Rules with zero weight no longer split rows into distinct patterns,
    /// so the aggregated LP can stay small as a pool grows. On seed 001's
    /// data most pool rules keep a positive weight and the repeated
    /// solves cost more than they save (see docs/PERFORMANCE.md).
    Active,
    /// Column generation over the pool: the first solve sees only a cover
    /// of the rows (for an ensemble pool, essentially its first tree's
    /// leaves); after each solve the pool rules with the most negative
    /// reduced costs (at most [`GROW_BATCH`] per round) join the LP, until
    /// none prices negative. Rules never leave, so this terminates, and
    /// the result is optimal for the LP over all rules. On RUX's 200-tree
    /// forests it was slower than one solve over every rule (the
    /// restricted LPs soon have almost every hinge class; see
    /// docs/PERFORMANCE.md), so it is not the default.
    Grow,
}

/// The most rules that enter per pricing round of [`ColumnPolicy::Grow`].
pub const GROW_BATCH: usize = 100;

/// Which LP the solver is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum LpForm {
    /// LP (3) itself: one row per hinge class (and coverage class), one
    /// column per rule and per hinge class. Its simplex basis has as many
    /// rows as the data has distinct rows.
    Primal,
    /// The dual (4): one bounded column `β` per hinge class (and `γ` per
    /// coverage class), one row `Σ_i (â_ij β_i + a_ij γ_i) ≤ c_j` per rule.
    /// Its basis has one row per rule, far fewer than data rows, so simplex
    /// solvers are much faster on it; the weights `w` are its row duals
    /// (the solver must compute duals). The default.
    #[default]
    Dual,
    /// LP (3) exactly as written, without aggregation: one hinge row (and
    /// coverage row) per training row. A grown pool then only appends
    /// columns to the previous model, so a warm-starting backend (HiGHS)
    /// re-solves from the previous optimal basis instead of from scratch;
    /// this suits column generation (RUG) more than one-shot RUX.
    PrimalRows,
}

/// One rule (column) of the LP.
#[derive(Debug, Clone, PartialEq)]
struct Column {
    rows: Vec<u32>,
    label: usize,
    cost: f64,
}

/// Size and effort of the last [`RuleLp::solve`].
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct LpStats {
    /// Hinge rows after aggregation (≤ training rows).
    pub hinge_rows: usize,
    /// Training rows whose hinge constraint is in the final LP (all of
    /// them without a working set; see [`HingeRows`]; 0 in statistics
    /// saved before the option existed).
    #[serde(default)]
    pub working_rows: usize,
    /// Coverage rows in the final LP.
    pub coverage_rows: usize,
    /// Rule columns.
    pub columns: usize,
    /// Nonzeros of the final LP's matrix.
    pub nonzeros: usize,
    /// LP solves (more than one when lazy coverage rows were added).
    pub solves: usize,
    /// Wall time of building and solving, in seconds.
    pub seconds: f64,
}

/// An optimal solution of LP (3), expanded back to training rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleLpSolution {
    /// Optimal objective `Σ_i v_i + Σ_j c_j w_j`.
    pub objective: f64,
    /// Rule weights `w_j`, in the order the rules were added.
    pub w: Vec<f64>,
    /// Hinge slacks `v_i`, one per training row.
    pub v: Vec<f64>,
    /// Hinge duals `β_i ∈ [0, w_i]` (`w_i` the row's sample weight, 1
    /// without weights: the sum of the duals of its copies), one per
    /// training row (empty when the solver was asked not to compute duals).
    pub beta: Vec<f64>,
    /// Coverage duals `γ_i ≥ 0`, one per training row (the dual of its
    /// pattern's coverage row split in proportion to the rows' weights;
    /// zero for rows whose coverage row is not in the LP; empty without
    /// duals).
    pub gamma: Vec<f64>,
    /// Size and effort of the solve.
    pub stats: LpStats,
}

impl RuleLpSolution {
    /// True when the solution carries duals.
    pub fn has_duals(&self) -> bool {
        !self.beta.is_empty()
    }
}

/// The master LP (3) over a growing pool of labelled rules.
///
/// ```
/// use rc_cover::rux_lp::{CoverageRows, RuleLp};
/// use rc_lp::MinilpSolver;
///
/// // Seed 001 §1.5: row 0 has class 1, rows 1 and 2 class 0. Rule j covers
/// // all three and votes 0; rule j' covers rows 1 and 2 and votes 0.
/// let mut lp = RuleLp::new(&[1, 0, 0], 0.01, CoverageRows::All)?;
/// lp.add_rule(vec![0, 1, 2], 0, 1.0)?;
/// lp.add_rule(vec![1, 2], 0, 1.0)?;
/// let sol = lp.solve(&MinilpSolver::new())?;
/// assert!((sol.w[0] - 0.01).abs() < 1e-9);       // w_j = ε keeps row 0 covered
/// assert!((sol.objective - 2.01).abs() < 1e-9);  // 1 + ε + c
/// # Ok::<(), rc_cover::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct RuleLp {
    labels: Vec<u32>,
    /// Sample weight of each row (the cost of its hinge slack).
    row_weights: Vec<f64>,
    k: usize,
    eps: f64,
    coverage: CoverageRows,
    form: LpForm,
    policy: ColumnPolicy,
    columns: Vec<Column>,
    /// Columns in the LP handed to the solver (all with `ColumnPolicy::All`).
    working: Vec<bool>,
    /// Rows whose coverage row is in the LP (lazy mode; all in `All`).
    cov_active: Vec<bool>,
    /// How hinge rows enter the LP.
    hinge_rows: HingeRows,
    /// Rows whose hinge row is in the LP (all without a working set).
    hinge_on: Vec<bool>,
    /// Whether [`RuleLp::solve`] has returned a solution yet.
    solved: bool,
    /// Lay out the dual form for warm re-solves (see [`RuleLp::with_warm_start`]).
    warm: bool,
    /// Where the last dual-form model put each row's β and γ.
    layout: Option<Layout>,
}

/// The variables of the last dual-form model, per training row.
#[derive(Debug, Clone)]
struct Layout {
    /// Variable (column) of each row's hinge class (`NO_HINGE` for rows
    /// outside the working set).
    hinge_col: Vec<u32>,
    /// Variable of each row's coverage class (`u32::MAX` when not in the LP).
    cov_col: Vec<u32>,
    /// Variables of that model.
    n_vars: usize,
}

impl RuleLp {
    /// An LP for training rows with class `labels[i]`, coverage
    /// right-hand side `eps`, and no rules yet.
    ///
    /// Errors: no rows, fewer than two distinct classes
    /// ([`Error::OneClass`]), or `eps` not finite and positive.
    pub fn new(labels: &[usize], eps: f64, coverage: CoverageRows) -> Result<Self> {
        if labels.is_empty() {
            return Err(Error::Shape("no training rows".into()));
        }
        if !(eps.is_finite() && eps > 0.0) {
            return Err(Error::InvalidParameter {
                name: "eps",
                value: eps.to_string(),
                reason: "the coverage right-hand side must be finite and > 0".into(),
            });
        }
        let mut present: Vec<usize> = labels.to_vec();
        present.sort_unstable();
        present.dedup();
        if present.len() < 2 {
            return Err(Error::OneClass { class: present[0] });
        }
        let labels = labels
            .iter()
            .map(|&l| {
                u32::try_from(l).map_err(|_| Error::Shape(format!("class label {l} too large")))
            })
            .collect::<Result<Vec<u32>>>()?;
        let n = labels.len();
        Ok(RuleLp {
            labels,
            row_weights: vec![1.0; n],
            k: present.len(),
            eps,
            coverage,
            form: LpForm::default(),
            policy: ColumnPolicy::default(),
            columns: Vec::new(),
            working: Vec::new(),
            cov_active: vec![coverage == CoverageRows::All; n],
            hinge_rows: HingeRows::default(),
            hinge_on: vec![true; n],
            solved: false,
            warm: true,
            layout: None,
        })
    }

    /// Sets one positive, finite sample weight per training row: the cost
    /// of the row's hinge slack (replication semantics; rows of weight 0
    /// must be left out of the LP).
    pub fn with_row_weights(mut self, weights: &[f64]) -> Result<Self> {
        if weights.len() != self.labels.len() {
            return Err(Error::Shape(format!(
                "{} row weights for {} training rows",
                weights.len(),
                self.labels.len()
            )));
        }
        if let Some(i) = weights.iter().position(|w| !(w.is_finite() && *w > 0.0)) {
            return Err(Error::InvalidParameter {
                name: "sample_weight",
                value: weights[i].to_string(),
                reason: format!(
                    "row {i}: the LP needs positive finite weights (leave rows of weight 0 out)"
                ),
            });
        }
        self.row_weights = weights.to_vec();
        Ok(self)
    }

    /// Sample weight of each training row.
    pub fn row_weights(&self) -> &[f64] {
        &self.row_weights
    }

    /// Switches the warm-start layout of the dual form (on by default; see
    /// the module documentation). Off, variables follow class order and
    /// a grown model is never an extension of the last, so every solve is
    /// cold.
    pub fn with_warm_start(mut self, on: bool) -> Self {
        self.warm = on;
        self
    }

    /// Whether the dual form is laid out for warm re-solves.
    pub fn warm_start(&self) -> bool {
        self.warm
    }

    /// Chooses the LP handed to the solver (same optimum either way).
    pub fn with_form(mut self, form: LpForm) -> Self {
        self.form = form;
        self
    }

    /// The LP form handed to the solver.
    pub fn form(&self) -> LpForm {
        self.form
    }

    /// Chooses which training rows' hinge constraints are handed to the
    /// solver (same optimum either way; see [`HingeRows`]).
    pub fn with_hinge_rows(mut self, hinge_rows: HingeRows) -> Self {
        self.hinge_rows = hinge_rows;
        self
    }

    /// How hinge rows enter the LP.
    pub fn hinge_rows(&self) -> HingeRows {
        self.hinge_rows
    }

    /// Chooses which rules are handed to the solver (same optimum either way).
    pub fn with_policy(mut self, policy: ColumnPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Which rules are handed to the solver.
    pub fn policy(&self) -> ColumnPolicy {
        self.policy
    }

    /// Number of training rows.
    pub fn n_rows(&self) -> usize {
        self.labels.len()
    }

    /// Number of rules added.
    pub fn n_rules(&self) -> usize {
        self.columns.len()
    }

    /// Number of distinct classes `K` among the training rows.
    pub fn n_classes(&self) -> usize {
        self.k
    }

    /// The coverage right-hand side ε.
    pub fn eps(&self) -> f64 {
        self.eps
    }

    /// How coverage rows are handled.
    pub fn coverage_rows(&self) -> CoverageRows {
        self.coverage
    }

    /// `â_ij` for a rule with class `rule_label` covering a row with class
    /// `row_label`: 1 when they agree, `−1/(K−1)` otherwise.
    pub fn a_hat(&self, rule_label: usize, row_label: usize) -> f64 {
        if rule_label == row_label {
            1.0
        } else {
            -1.0 / (self.k as f64 - 1.0)
        }
    }

    /// Cost of rule `j`.
    pub fn cost(&self, j: usize) -> f64 {
        self.columns[j].cost
    }

    /// Class of rule `j`.
    pub fn label(&self, j: usize) -> usize {
        self.columns[j].label
    }

    /// Training rows covered by rule `j`.
    pub fn rows_of(&self, j: usize) -> &[u32] {
        &self.columns[j].rows
    }

    /// The LP as it would be handed to the solver now (aggregated, in the
    /// configured form, with the coverage rows active so far), for export
    /// and inspection.
    pub fn model(&self) -> Result<Model> {
        Ok(self.build()?.model)
    }

    /// Adds a rule covering the (sorted, distinct) training rows `rows`,
    /// predicting class `label`, with cost `cost`; returns its index.
    ///
    /// Errors: an empty or unsorted row list, a row out of range, or a
    /// non-finite cost. Negative costs are accepted (they may make the LP
    /// unbounded, which [`RuleLp::solve`] reports).
    pub fn add_rule(&mut self, rows: Vec<u32>, label: usize, cost: f64) -> Result<usize> {
        let j = self.columns.len();
        if rows.is_empty() {
            return Err(Error::EmptyRule { rule: j });
        }
        if !cost.is_finite() {
            return Err(Error::BadCost {
                rule: j,
                cost,
                reason: "costs must be finite".into(),
            });
        }
        let n = self.labels.len();
        if let Some(w) = rows.windows(2).find(|w| w[0] >= w[1]) {
            return Err(Error::Shape(format!(
                "rule {j}: covered rows must be sorted and distinct ({} before {})",
                w[0], w[1]
            )));
        }
        if let Some(&last) = rows.last() {
            if last as usize >= n {
                return Err(Error::Shape(format!(
                    "rule {j} covers row {last} but there are {n} training rows"
                )));
            }
        }
        self.columns.push(Column { rows, label, cost });
        self.working.push(true);
        Ok(j)
    }

    /// Training rows covered by no rule of the pool.
    pub fn uncovered_rows(&self) -> Vec<usize> {
        let mut covered = vec![false; self.labels.len()];
        for c in &self.columns {
            for &i in &c.rows {
                covered[i as usize] = true;
            }
        }
        (0..covered.len()).filter(|&i| !covered[i]).collect()
    }

    /// Margins `Σ_j â_ij w_j` of every training row for weights `w`.
    pub fn margins(&self, w: &[f64]) -> Vec<f64> {
        let mut m = vec![0.0; self.labels.len()];
        for (c, &wj) in self.columns.iter().zip(w) {
            if wj != 0.0 {
                for &i in &c.rows {
                    m[i as usize] += wj * self.a_hat(c.label, self.labels[i as usize] as usize);
                }
            }
        }
        m
    }

    /// Coverage `Σ_j a_ij w_j` of every training row for weights `w`.
    pub fn coverage_of(&self, w: &[f64]) -> Vec<f64> {
        let mut m = vec![0.0; self.labels.len()];
        for (c, &wj) in self.columns.iter().zip(w) {
            if wj != 0.0 {
                for &i in &c.rows {
                    m[i as usize] += wj;
                }
            }
        }
        m
    }

    /// Reduced cost `c − Σ_i (â_i β_i + a_i γ_i)` of a rule (in the pool or
    /// a candidate) covering `rows` with class `label` and cost `cost`,
    /// under the duals of `sol`. Negative means the rule can improve the
    /// LP. Errors when `sol` carries no duals.
    pub fn reduced_cost(
        &self,
        rows: &[u32],
        label: usize,
        cost: f64,
        sol: &RuleLpSolution,
    ) -> Result<f64> {
        if !sol.has_duals() {
            return Err(Error::Solver(
                "reduced costs need duals: the LP solver was configured to skip them".into(),
            ));
        }
        let mut s = 0.0;
        for &i in rows {
            let i = i as usize;
            s += self.a_hat(label, self.labels[i] as usize) * sol.beta[i] + sol.gamma[i];
        }
        Ok(cost - s)
    }

    /// Solves the LP with `solver` (duals when the solver computes them).
    ///
    /// With a working set of hinge rows ([`RuleLp::hinge_rows`]) the LP is
    /// solved over the working set and solved again while a row outside it
    /// has margin below 1 (see the module documentation), so the result is
    /// optimal for the LP over every row.
    ///
    /// With [`ColumnPolicy::Active`] the solver sees only the working rules
    /// (those with positive weight at the previous solve, those added
    /// since, and a cover of the rows); the other rules are priced with the
    /// duals and re-enter while one has a negative reduced cost, so the
    /// result is optimal for the LP over all rules.
    ///
    /// Errors: no rules, an infeasible LP ([`Error::LpInfeasible`], e.g.
    /// a training row no rule covers), an unbounded LP
    /// ([`Error::LpUnbounded`], from negative costs), or a solver failure.
    pub fn solve(&mut self, solver: &dyn LpSolver) -> Result<RuleLpSolution> {
        let start = Instant::now();
        if self.columns.is_empty() {
            return Err(Error::EmptyPool);
        }
        if self.policy == ColumnPolicy::All {
            let dup = self.duplicates();
            for (w, d) in self.working.iter_mut().zip(dup) {
                *w = !d;
            }
        }
        if self.policy == ColumnPolicy::Grow && !self.solved {
            self.working.iter_mut().for_each(|w| *w = false);
        }
        self.add_cover_to_working();
        if !self.solved {
            // A fresh sequence of solves: never continue from an unrelated
            // LP this thread solved before (the answer would depend on it).
            #[cfg(feature = "highs")]
            rc_lp::HighsSolver::clear_warm_start();
            self.start_working_set();
        }
        let mut solves = 0;
        loop {
            let (built, sol) = self.solve_once(solver)?;
            solves += 1;
            if self.warm && self.form == LpForm::Dual {
                let agg = &built.agg;
                self.layout = Some(Layout {
                    hinge_col: agg
                        .hinge_of
                        .iter()
                        .map(|&h| {
                            built
                                .hinge_ids
                                .get(h as usize)
                                .map_or(NO_HINGE, |&x| x as u32)
                        })
                        .collect(),
                    cov_col: agg
                        .cov_of
                        .iter()
                        .map(|&g| built.cov_ids[g as usize].map_or(u32::MAX, |x| x as u32))
                        .collect(),
                    n_vars: built.model.num_vars(),
                });
            }
            let (mut out, margins) = self.expand(&built, &sol)?;
            let more_coverage =
                self.coverage == CoverageRows::Lazy && self.activate_violated(&out.w, &built.agg);
            let more_hinges = working_set::add_violated(&mut self.hinge_on, &margins) > 0;
            if more_coverage || more_hinges {
                continue;
            }
            if self.policy != ColumnPolicy::All
                && !out.has_duals()
                && self.working.iter().any(|w| !w)
            {
                // Without duals nothing can be priced: solve over all rules.
                self.working.iter_mut().for_each(|w| *w = true);
                continue;
            }
            if self.policy == ColumnPolicy::Active && out.has_duals() {
                let mut entered = false;
                for j in 0..self.columns.len() {
                    if !self.working[j] {
                        let c = &self.columns[j];
                        if self.reduced_cost(&c.rows, c.label, c.cost, &out)? < -PRICING_TOL {
                            self.working[j] = true;
                            entered = true;
                        }
                    }
                }
                if entered {
                    continue;
                }
            }
            if self.policy == ColumnPolicy::Grow && out.has_duals() && self.enter_priced(&out)? {
                continue;
            }
            out.stats = LpStats {
                hinge_rows: built.agg.n_hinge,
                working_rows: self.hinge_on.iter().filter(|&&on| on).count(),
                coverage_rows: built.agg.n_cov_on,
                columns: built.w_ids.iter().flatten().count(),
                nonzeros: built.nonzeros,
                solves,
                seconds: start.elapsed().as_secs_f64(),
            };
            if self.policy == ColumnPolicy::Active {
                for (wk, &wj) in self.working.iter_mut().zip(&out.w) {
                    *wk = wj > 0.0;
                }
            }
            self.solved = true;
            return Ok(out);
        }
    }

    /// The hinge rows of a first solve: the starting sample of a working
    /// set when [`RuleLp::hinge_rows`] asks for one at this size, else
    /// every row. (Later solves of a grown pool keep the working set.)
    fn start_working_set(&mut self) {
        let n = self.labels.len();
        self.hinge_on = if self.hinge_rows.uses_working_set(n) {
            working_set::starting_sample(n)
        } else {
            vec![true; n]
        };
    }

    /// Rules identical to another rule (same rows, same class) that costs
    /// no more and comes first among the cheapest: such a rule's column is
    /// the other's with a cost at least as high, so some optimum gives it
    /// weight 0 and its reduced cost is never below the other's. They stay
    /// out of the LP (an exact reduction; a forest repeats leaves).
    fn duplicates(&self) -> Vec<bool> {
        let mut best: HashMap<(usize, &[u32]), usize> = HashMap::new();
        for (j, c) in self.columns.iter().enumerate() {
            best.entry((c.label, c.rows.as_slice()))
                .and_modify(|b| {
                    if c.cost < self.columns[*b].cost {
                        *b = j;
                    }
                })
                .or_insert(j);
        }
        let mut dup = vec![true; self.columns.len()];
        for &j in best.values() {
            dup[j] = false;
        }
        dup
    }

    /// [`ColumnPolicy::Grow`]'s pricing: the rules outside the LP with the
    /// most negative reduced costs under `sol`'s duals (at most
    /// [`GROW_BATCH`], ties to the lower index) join it; true if any did.
    fn enter_priced(&mut self, sol: &RuleLpSolution) -> Result<bool> {
        let mut priced: Vec<(f64, usize)> = Vec::new();
        for (j, c) in self.columns.iter().enumerate() {
            if !self.working[j] {
                let rc = self.reduced_cost(&c.rows, c.label, c.cost, sol)?;
                if rc < -PRICING_TOL {
                    priced.push((rc, j));
                }
            }
        }
        priced.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for &(_, j) in priced.iter().take(GROW_BATCH) {
            self.working[j] = true;
        }
        Ok(!priced.is_empty())
    }

    /// Makes every row that some rule covers covered by a working rule
    /// (the first rule covering it), so that restricted LPs stay feasible.
    fn add_cover_to_working(&mut self) {
        let mut covered = vec![false; self.labels.len()];
        for (c, _) in self.columns.iter().zip(&self.working).filter(|(_, w)| **w) {
            for &i in &c.rows {
                covered[i as usize] = true;
            }
        }
        for (j, c) in self.columns.iter().enumerate() {
            if !self.working[j] && c.rows.iter().any(|&i| !covered[i as usize]) {
                self.working[j] = true;
                for &i in &c.rows {
                    covered[i as usize] = true;
                }
            }
        }
    }

    /// Activates the coverage rows of every pattern class with a row
    /// covered less than ε by `w` and not yet in the LP; true if any.
    fn activate_violated(&mut self, w: &[f64], agg: &Aggregation) -> bool {
        let cov = self.coverage_of(w);
        let mut hit = vec![false; agg.cov_size.len()];
        let mut any = false;
        for (i, c) in cov.iter().enumerate() {
            if *c < self.eps - 1e-9 && !self.cov_active[i] {
                hit[agg.cov_of[i] as usize] = true;
                any = true;
            }
        }
        if any {
            for (a, &g) in self.cov_active.iter_mut().zip(&agg.cov_of) {
                if hit[g as usize] {
                    *a = true;
                }
            }
        }
        any
    }

    fn solve_once(&self, solver: &dyn LpSolver) -> Result<(Built, LpSolution)> {
        let built = self.build()?;
        let sol = solver.solve_lp(&built.model).map_err(Error::Lp)?;
        // The dual form's statuses are mirrored: (D) infeasible means (3)
        // unbounded (it is feasible: every row is covered), and vice versa.
        let status = match (self.form, sol.status) {
            (LpForm::Dual, LpStatus::Infeasible) => LpStatus::Unbounded,
            (LpForm::Dual, LpStatus::Unbounded) => LpStatus::Infeasible,
            (_, s) => s,
        };
        match status {
            LpStatus::Optimal => Ok((built, sol)),
            LpStatus::Infeasible => Err(Error::LpInfeasible(format!(
                "{} hinge and {} coverage rows, {} rules; every training row must be covered by a rule of the pool",
                built.agg.n_hinge,
                built.agg.n_cov_on,
                self.columns.len()
            ))),
            LpStatus::Unbounded => {
                let negative: Vec<String> = self
                    .columns
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.cost < 0.0)
                    .take(5)
                    .map(|(j, c)| format!("rule {j} costs {}", c.cost))
                    .collect();
                Err(Error::LpUnbounded(if negative.is_empty() {
                    "no rule has a negative cost; the solver reports an unbounded LP".into()
                } else {
                    format!("negative costs let weights grow without limit: {}", negative.join(", "))
                }))
            }
            other => Err(Error::Solver(format!("the LP ended with status {other:?}"))),
        }
    }

    /// Groups training rows into hinge classes (pattern, label) and
    /// coverage classes (pattern).
    #[allow(clippy::needless_range_loop)] // parallel index arrays
    fn aggregate(&self) -> Aggregation {
        let n = self.labels.len();
        let k_labels = self.labels.iter().copied().max().unwrap_or(0) as usize + 1;
        // Partition refinement by the working columns' coverage.
        if self.form == LpForm::PrimalRows {
            // Every row its own class: the rows never change as rules join.
            let mut a = Aggregation {
                hinge_of: vec![NO_HINGE; n],
                cov_of: (0..n as u32).collect(),
                mult: Vec::new(),
                hinge_label: Vec::new(),
                cov_size: self.row_weights.clone(),
                cov_on: vec![false; n],
                n_hinge: 0,
                n_cov_on: 0,
            };
            for i in (0..n).filter(|&i| self.hinge_on[i]) {
                a.hinge_of[i] = a.mult.len() as u32;
                a.mult.push(self.row_weights[i]);
                a.hinge_label.push(self.labels[i]);
            }
            a.n_hinge = a.mult.len();
            if self.coverage != CoverageRows::Off {
                a.cov_on.clone_from(&self.cov_active);
                a.n_cov_on = a.cov_on.iter().filter(|&&on| on).count();
            }
            return a;
        }
        let mut group_of = vec![0u32; n];
        let mut n_groups = 1u32;
        let mut split_to = vec![u32::MAX];
        let mut touched: Vec<u32> = Vec::new();
        for (c, _) in self.columns.iter().zip(&self.working).filter(|(_, w)| **w) {
            touched.clear();
            for &i in &c.rows {
                let g = group_of[i as usize] as usize;
                if split_to[g] == u32::MAX {
                    split_to[g] = n_groups;
                    split_to.push(u32::MAX);
                    n_groups += 1;
                    touched.push(g as u32);
                }
                group_of[i as usize] = split_to[g];
            }
            for &g in &touched {
                split_to[g as usize] = u32::MAX;
            }
        }
        let mut cov_id = vec![u32::MAX; n_groups as usize];
        let mut hinge_key = vec![u32::MAX; n_groups as usize * k_labels];
        let mut a = Aggregation {
            hinge_of: vec![0; n],
            cov_of: vec![0; n],
            mult: Vec::new(),
            hinge_label: Vec::new(),
            cov_size: Vec::new(),
            cov_on: Vec::new(),
            n_hinge: 0,
            n_cov_on: 0,
        };
        for i in 0..n {
            let g = group_of[i] as usize;
            if cov_id[g] == u32::MAX {
                cov_id[g] = a.cov_size.len() as u32;
                a.cov_size.push(0.0);
                a.cov_on.push(false);
            }
            let c = cov_id[g] as usize;
            a.cov_of[i] = c as u32;
            a.cov_size[c] += self.row_weights[i];
            if self.cov_active[i] && self.coverage != CoverageRows::Off && !a.cov_on[c] {
                a.cov_on[c] = true;
                a.n_cov_on += 1;
            }
            if !self.hinge_on[i] {
                a.hinge_of[i] = NO_HINGE;
                continue;
            }
            let key = g * k_labels + self.labels[i] as usize;
            if hinge_key[key] == u32::MAX {
                hinge_key[key] = a.mult.len() as u32;
                a.mult.push(0.0);
                a.hinge_label.push(self.labels[i]);
            }
            let h = hinge_key[key] as usize;
            a.hinge_of[i] = h as u32;
            a.mult[h] += self.row_weights[i];
        }
        a.n_hinge = a.mult.len();
        a
    }

    /// Positions of the dual form's variables: β of each hinge class, γ of
    /// each active coverage class. After a solve of the dual form, a class
    /// takes the position of the class its first row was in, if no earlier
    /// class took it, and new classes come after the old ones; so when the
    /// pool only grew, the model is the last one with rows (rules) and
    /// columns (split classes) appended and split classes' bounds changed,
    /// which HiGHS re-solves warm. Otherwise (the first solve, classes that
    /// merged) hinge classes then coverage classes, in class order.
    fn var_layout(&self, agg: &Aggregation) -> (Vec<usize>, Vec<Option<usize>>) {
        let (nh, nc) = (agg.n_hinge, agg.cov_size.len());
        if let Some(prev) = self.layout.as_ref().filter(|_| self.warm) {
            // A hinge class's old position is that of its first row that
            // had one (rows that joined the working set since had none).
            let mut first_h = vec![u32::MAX; nh];
            let mut first_c = vec![u32::MAX; nc];
            for (i, (&h, &g)) in agg.hinge_of.iter().zip(&agg.cov_of).enumerate() {
                if h != NO_HINGE && first_h[h as usize] == u32::MAX && prev.hinge_col[i] != NO_HINGE
                {
                    first_h[h as usize] = i as u32;
                }
                if first_c[g as usize] == u32::MAX {
                    first_c[g as usize] = i as u32;
                }
            }
            let mut claimed = vec![false; prev.n_vars];
            let mut pos_h = vec![usize::MAX; nh];
            let mut pos_c: Vec<Option<usize>> = vec![None; nc];
            for (h, &i) in first_h.iter().enumerate().filter(|(_, &i)| i != u32::MAX) {
                let p = prev.hinge_col[i as usize] as usize;
                if p < claimed.len() && !claimed[p] {
                    claimed[p] = true;
                    pos_h[h] = p;
                }
            }
            for (g, &i) in first_c.iter().enumerate() {
                let p = prev.cov_col[i as usize] as usize;
                if agg.cov_on[g] && p < claimed.len() && !claimed[p] {
                    claimed[p] = true;
                    pos_c[g] = Some(p);
                }
            }
            if claimed.iter().all(|&c| c) {
                let mut next = prev.n_vars;
                for p in pos_h.iter_mut().filter(|p| **p == usize::MAX) {
                    *p = next;
                    next += 1;
                }
                for (g, p) in pos_c.iter_mut().enumerate() {
                    if agg.cov_on[g] && p.is_none() {
                        *p = Some(next);
                        next += 1;
                    }
                }
                return (pos_h, pos_c);
            }
        }
        let pos_h: Vec<usize> = (0..nh).collect();
        let mut next = nh;
        let pos_c = agg
            .cov_on
            .iter()
            .map(|&on| {
                on.then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect();
        (pos_h, pos_c)
    }

    /// Builds the aggregated LP in the configured form.
    fn build(&self) -> Result<Built> {
        let lp_err = Error::Lp;
        let agg = self.aggregate();
        let n_cov = agg.cov_size.len();
        let mut stamp_h = vec![usize::MAX; agg.n_hinge];
        let mut stamp_c = vec![usize::MAX; n_cov];
        // Nonzeros of column j: (hinge class or coverage class, value).
        let mut entries = |j: usize, out: &mut Vec<(Slot, f64)>| {
            out.clear();
            let c = &self.columns[j];
            for &i in &c.rows {
                let h = agg.hinge_of[i as usize];
                if h != NO_HINGE && stamp_h[h as usize] != j {
                    let h = h as usize;
                    stamp_h[h] = j;
                    out.push((
                        Slot::Hinge(h),
                        self.a_hat(c.label, agg.hinge_label[h] as usize),
                    ));
                }
                let g = agg.cov_of[i as usize] as usize;
                if stamp_c[g] != j {
                    stamp_c[g] = j;
                    if agg.cov_on[g] {
                        out.push((Slot::Cov(g), 1.0));
                    }
                }
            }
        };
        let mut slots: Vec<(Slot, f64)> = Vec::new();
        let mut nonzeros = agg.n_hinge;
        let mut model;
        let mut hinge_ids = Vec::with_capacity(agg.n_hinge);
        let mut cov_ids: Vec<Option<usize>> = vec![None; n_cov];
        let mut w_ids = Vec::with_capacity(self.columns.len());
        match self.form {
            LpForm::Primal | LpForm::PrimalRows => {
                model = Model::minimize();
                model.set_name("rule_lp_primal");
                let v: Vec<VarId> = agg
                    .mult
                    .iter()
                    .map(|&m| model.add_continuous(0.0, f64::INFINITY, m))
                    .collect();
                let mut v_ids = Vec::with_capacity(v.len());
                for &vh in &v {
                    hinge_ids.push(model.add_ge(&[(vh, 1.0)], 1.0).map_err(lp_err)?.index());
                    v_ids.push(vh.index());
                }
                for (g, on) in agg.cov_on.iter().enumerate() {
                    if *on {
                        cov_ids[g] = Some(model.add_ge(&[], self.eps).map_err(lp_err)?.index());
                    }
                }
                let rows: Vec<RowId> = model.row_ids().collect();
                let mut col: Vec<(RowId, f64)> = Vec::new();
                for (j, c) in self.columns.iter().enumerate() {
                    if !self.working[j] {
                        w_ids.push(None);
                        continue;
                    }
                    entries(j, &mut slots);
                    col.clear();
                    for &(s, a) in &slots {
                        let r = match s {
                            Slot::Hinge(h) => hinge_ids[h],
                            Slot::Cov(g) => cov_ids[g].unwrap_or(usize::MAX),
                        };
                        col.push((rows[r], a));
                    }
                    nonzeros += col.len();
                    w_ids.push(Some(
                        model
                            .add_column(c.cost, (0.0, f64::INFINITY), &col)
                            .map_err(lp_err)?
                            .index(),
                    ));
                }
                Ok(Built {
                    model,
                    agg,
                    hinge_ids,
                    cov_ids,
                    w_ids,
                    v_ids,
                    nonzeros,
                })
            }
            LpForm::Dual => {
                model = Model::maximize();
                model.set_name("rule_lp_dual");
                let (pos_h, pos_c) = self.var_layout(&agg);
                let mut order: Vec<Option<Slot>> = vec![None; pos_h.len() + agg.n_cov_on];
                for (h, &p) in pos_h.iter().enumerate() {
                    order[p] = Some(Slot::Hinge(h));
                }
                for (g, p) in pos_c.iter().enumerate() {
                    if let Some(p) = p {
                        order[*p] = Some(Slot::Cov(g));
                    }
                }
                let ids = order
                    .iter()
                    .map(|s| match *s {
                        Some(Slot::Hinge(h)) => Ok(model.add_continuous(0.0, agg.mult[h], 1.0)),
                        Some(Slot::Cov(_)) => {
                            Ok(model.add_continuous(0.0, f64::INFINITY, self.eps))
                        }
                        None => Err(Error::Solver(
                            "internal error: a variable position of the dual form is unused".into(),
                        )),
                    })
                    .collect::<Result<Vec<VarId>>>()?;
                let beta: Vec<VarId> = pos_h.iter().map(|&p| ids[p]).collect();
                hinge_ids = beta.iter().map(|b| b.index()).collect();
                let gamma: Vec<Option<VarId>> = pos_c.iter().map(|p| p.map(|p| ids[p])).collect();
                for (g, x) in gamma.iter().enumerate() {
                    cov_ids[g] = x.map(|x| x.index());
                }
                let mut terms: Vec<(VarId, f64)> = Vec::new();
                for (j, c) in self.columns.iter().enumerate() {
                    if !self.working[j] {
                        w_ids.push(None);
                        continue;
                    }
                    entries(j, &mut slots);
                    terms.clear();
                    for &(s, a) in &slots {
                        match s {
                            Slot::Hinge(h) => terms.push((beta[h], a)),
                            Slot::Cov(g) => {
                                if let Some(x) = gamma[g] {
                                    terms.push((x, a));
                                }
                            }
                        }
                    }
                    nonzeros += terms.len();
                    w_ids.push(Some(model.add_le(&terms, c.cost).map_err(lp_err)?.index()));
                }
                Ok(Built {
                    model,
                    agg,
                    hinge_ids,
                    cov_ids,
                    w_ids,
                    v_ids: Vec::new(),
                    nonzeros,
                })
            }
        }
    }

    /// The solution in terms of training rows (aggregated duals split
    /// evenly over their rows).
    fn expand(&self, b: &Built, sol: &LpSolution) -> Result<(RuleLpSolution, Vec<f64>)> {
        let nonneg = |x: Option<f64>| x.unwrap_or(0.0).max(0.0);
        let agg = &b.agg;
        let (w, hinge_dual, cov_dual): (Vec<f64>, Option<Vec<f64>>, Option<Vec<f64>>) = match self
            .form
        {
            LpForm::Primal | LpForm::PrimalRows => {
                let w = b
                    .w_ids
                    .iter()
                    .map(|j| j.map_or(0.0, |j| nonneg(sol.primal.get(j).copied())))
                    .collect();
                if sol.row_duals.is_empty() {
                    (w, None, None)
                } else {
                    let hd = b
                        .hinge_ids
                        .iter()
                        .map(|&r| nonneg(sol.row_duals.get(r).copied()))
                        .collect();
                    let cd = b
                        .cov_ids
                        .iter()
                        .map(|r| r.map_or(0.0, |r| nonneg(sol.row_duals.get(r).copied())))
                        .collect();
                    (w, Some(hd), Some(cd))
                }
            }
            LpForm::Dual => {
                if sol.row_duals.is_empty() {
                    return Err(Error::Solver(
                        "the dual form reads the rule weights from the row duals, but the LP solver skipped them; \
                         use a solver that computes duals or LpForm::Primal"
                            .into(),
                    ));
                }
                let w = b
                    .w_ids
                    .iter()
                    .map(|r| r.map_or(0.0, |r| nonneg(sol.row_duals.get(r).copied())))
                    .collect();
                let hd = b
                    .hinge_ids
                    .iter()
                    .map(|&x| nonneg(sol.primal.get(x).copied()))
                    .collect();
                let cd = b
                    .cov_ids
                    .iter()
                    .map(|x| x.map_or(0.0, |x| nonneg(sol.primal.get(x).copied())))
                    .collect();
                (w, Some(hd), Some(cd))
            }
        };
        let (beta, gamma) = match (hinge_dual, cov_dual) {
            (Some(hd), Some(cd)) => {
                let hb: Vec<f64> = hd
                    .iter()
                    .zip(&agg.mult)
                    .map(|(&d, &m)| d.min(m) / m)
                    .collect();
                let cg: Vec<f64> = cd.iter().zip(&agg.cov_size).map(|(&d, &s)| d / s).collect();
                // A row's share is its weight times the per-unit dual (the
                // per-unit dual itself under unit weights).
                (
                    agg.hinge_of
                        .iter()
                        .zip(&self.row_weights)
                        .map(|(&h, &w)| hb.get(h as usize).map_or(0.0, |b| b * w))
                        .collect(),
                    agg.cov_of
                        .iter()
                        .zip(&self.row_weights)
                        .map(|(&g, &w)| cg[g as usize] * w)
                        .collect(),
                )
            }
            _ => (Vec::new(), Vec::new()),
        };
        // Rows outside a working set have margin ≥ 1 − HINGE_TOL once the
        // solve is certified, hence no slack.
        let margins = self.margins(&w);
        let v = agg
            .hinge_of
            .iter()
            .zip(&margins)
            .map(|(&h, m)| match self.form {
                LpForm::Primal | LpForm::PrimalRows if h != NO_HINGE => {
                    nonneg(sol.primal.get(b.v_ids[h as usize]).copied())
                }
                _ => (1.0 - m).max(0.0),
            })
            .collect();
        Ok((
            RuleLpSolution {
                objective: sol.objective,
                w,
                v,
                beta,
                gamma,
                stats: LpStats::default(),
            },
            margins,
        ))
    }
}

/// The hinge class of a row outside the working set.
const NO_HINGE: u32 = u32::MAX;

/// Where a rule's nonzero goes: a hinge class or a coverage class.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Hinge(usize),
    Cov(usize),
}

/// Training rows grouped into identical LP rows.
struct Aggregation {
    hinge_of: Vec<u32>,
    cov_of: Vec<u32>,
    mult: Vec<f64>,
    hinge_label: Vec<u32>,
    cov_size: Vec<f64>,
    cov_on: Vec<bool>,
    n_hinge: usize,
    n_cov_on: usize,
}

/// A built LP with the positions of its parts: in the primal form
/// `hinge_ids`/`cov_ids` are rows and `w_ids`/`v_ids` variables; in the
/// dual form `hinge_ids`/`cov_ids` are the variables β/γ and `w_ids` rows.
struct Built {
    model: Model,
    agg: Aggregation,
    hinge_ids: Vec<usize>,
    cov_ids: Vec<Option<usize>>,
    w_ids: Vec<Option<usize>>,
    v_ids: Vec<usize>,
    nonzeros: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rc_lp::MinilpSolver;

    #[test]
    fn partition_refinement_tracks_patterns() {
        let mut lp = RuleLp::new(&[0, 1, 0, 1], 0.01, CoverageRows::All).unwrap();
        lp.add_rule(vec![0, 1], 0, 1.0).unwrap();
        lp.add_rule(vec![1, 2], 1, 1.0).unwrap();
        // Patterns: {0}, {1}, {2}, {3}.
        let g = &lp.aggregate().cov_of;
        assert!(g[0] != g[1] && g[1] != g[2] && g[0] != g[2] && g[3] != g[0]);
        lp.add_rule(vec![0, 1, 2, 3], 0, 1.0).unwrap();
        let built = lp.build().unwrap();
        assert_eq!(built.agg.n_hinge, 4);
        assert_eq!(built.agg.n_cov_on, 4);
    }

    #[test]
    fn identical_rows_are_aggregated() {
        // Rows 0-3 class 0, rows 4-5 class 1; one rule covers 0..=5, one 0..=2.
        let mut lp = RuleLp::new(&[0, 0, 0, 0, 1, 1], 0.01, CoverageRows::All).unwrap();
        lp.add_rule(vec![0, 1, 2, 3, 4, 5], 0, 1.0).unwrap();
        lp.add_rule(vec![0, 1, 2], 0, 0.5).unwrap();
        let built = lp.build().unwrap();
        // Patterns {0,1,2} and {3,4,5}; hinge classes {0,1,2}, {3}, {4,5}.
        assert_eq!(built.agg.n_cov_on, 2);
        assert_eq!(built.agg.n_hinge, 3);
        let sol = lp.solve(&MinilpSolver::new()).unwrap();
        assert_eq!(sol.v.len(), 6);
        assert_eq!(sol.beta.len(), 6);
        // Rows of one hinge class share one dual.
        assert_eq!(sol.beta[4], sol.beta[5]);
    }

    #[test]
    fn duplicate_rules_stay_out_of_the_lp() {
        let labels = [0, 0, 1, 1, 0];
        let mut one = RuleLp::new(&labels, 0.01, CoverageRows::All).unwrap();
        one.add_rule(vec![0, 1, 2], 0, 0.5).unwrap();
        one.add_rule(vec![2, 3, 4], 1, 1.0).unwrap();
        let mut two = one.clone();
        // The same rows and class as rule 0, costlier: dominated.
        two.add_rule(vec![0, 1, 2], 0, 0.8).unwrap();
        // The same rows as rule 1 but another class: a different column.
        two.add_rule(vec![2, 3, 4], 0, 1.0).unwrap();
        let a = one.solve(&MinilpSolver::new()).unwrap();
        let b = two.solve(&MinilpSolver::new()).unwrap();
        assert!((a.objective - b.objective).abs() < 1e-9);
        assert_eq!(b.w[2], 0.0);
        assert_eq!(b.stats.columns, 3);
        // Its reduced cost is at least that of the rule it duplicates.
        let rc0 = two.reduced_cost(two.rows_of(0), 0, 0.5, &b).unwrap();
        let rc2 = two.reduced_cost(two.rows_of(2), 0, 0.8, &b).unwrap();
        assert!(rc0 >= -1e-9 && rc2 >= rc0);
    }

    #[test]
    fn bad_input_is_rejected() {
        assert!(matches!(
            RuleLp::new(&[1, 1, 1], 0.01, CoverageRows::All),
            Err(Error::OneClass { class: 1 })
        ));
        assert!(matches!(
            RuleLp::new(&[0, 1], 0.0, CoverageRows::All),
            Err(Error::InvalidParameter { name: "eps", .. })
        ));
        let mut lp = RuleLp::new(&[0, 1], 0.01, CoverageRows::All).unwrap();
        assert!(matches!(
            lp.add_rule(vec![], 0, 1.0),
            Err(Error::EmptyRule { rule: 0 })
        ));
        assert!(matches!(
            lp.add_rule(vec![1, 0], 0, 1.0),
            Err(Error::Shape(_))
        ));
        assert!(matches!(lp.add_rule(vec![5], 0, 1.0), Err(Error::Shape(_))));
        assert!(matches!(
            lp.add_rule(vec![0], 0, f64::NAN),
            Err(Error::BadCost { rule: 0, .. })
        ));
        assert!(matches!(
            lp.solve(&MinilpSolver::new()),
            Err(Error::EmptyPool)
        ));
    }
}
