//! Column generation over conjunctions (Sec. 3.2): the restricted master
//! problem is the L1-regularised GLM over the working set of columns,
//! warm-started from round to round; pricing searches for a conjunction
//! with a negative reduced cost (8) for either sign of its coefficient.

use std::collections::HashSet;
use std::time::Instant;

use rulecover_core::{CheckParams, Checked, Dataset, Encoder, Fit, Target};

use crate::auto::AutoLambda;
use crate::binarize::{Binarizer, BinaryMatrix};
use crate::error::{Error, Result};
use crate::glm::{self, Column, GlmFit, GlmProblem, GlmSettings, Loss};
use crate::gram::Gram;
use crate::literal::Conjunction;
use crate::model::{FitInfo, GlrmModel, LinearTerm, StopReason, Term, UnseenMissing, WeightedTerm};
use crate::params::{check_lambdas, GlrmParams, Pricing, RuleSpace};
use crate::pricing::{self, beam_search, PricedRule, PricingProblem};
use crate::sample::{mean_and_variance, training_rows, SampleWeights};

/// The target prepared for a loss: `y` on the fitting scale, with the
/// shift and scale that map the linear predictor back.
pub(crate) struct PreparedTarget {
    pub loss: Loss,
    pub y: Vec<f64>,
    pub shift: f64,
    pub scale: f64,
    /// Sample weights of the rows (positive, rescaled by a power of two);
    /// `None`: all 1.
    pub weights: Option<Vec<f64>>,
}

impl PreparedTarget {
    /// The weight of row `i` (1 without weights).
    #[inline]
    pub fn weight(&self, i: usize) -> f64 {
        self.weights.as_ref().map_or(1.0, |w| w[i])
    }

    /// `W = Σ_i w_i` (`n` without weights).
    pub fn total_weight(&self) -> f64 {
        match &self.weights {
            None => self.y.len() as f64,
            Some(w) => w.iter().sum(),
        }
    }

    /// The weighted residuals `w_i (μ_i − y_i) / W` at the linear
    /// predictor `eta`: the costs of the pricing problem (up to sign) and
    /// the gradient of the mean loss with respect to a column.
    pub fn residuals(&self, eta: &[f64]) -> Vec<f64> {
        let total = self.total_weight();
        eta.iter()
            .zip(&self.y)
            .enumerate()
            .map(|(i, (&e, &y))| self.weight(i) * (self.loss.mean(e) - y) / total)
            .collect()
    }
}

/// Checks the target of `data` against `loss` (or picks the loss); the
/// linear model's standardisation uses the weighted mean and standard
/// deviation.
pub(crate) fn prepare_target(
    data: &Dataset,
    loss: Option<Loss>,
    weights: Option<&SampleWeights>,
) -> Result<PreparedTarget> {
    if data.n_rows() == 0 {
        return Err(Error::EmptyData {
            dataset: data.name().to_string(),
        });
    }
    let loss = loss.unwrap_or(if data.is_classification() {
        Loss::Logistic
    } else {
        Loss::Squared
    });
    match (loss, data.target_storage()) {
        (Loss::Logistic, Target::Classes { names, .. }) => {
            if names.len() != 2 {
                return Err(Error::NotBinary {
                    dataset: data.name().to_string(),
                    classes: names.len(),
                });
            }
            let y: Vec<f64> = data.labels()?.into_iter().map(|l| l as f64).collect();
            let pos = y.iter().filter(|&&v| v == 1.0).count();
            if pos == 0 || pos == y.len() {
                let class = names[usize::from(pos > 0)].clone();
                return Err(Error::SingleClass {
                    dataset: data.name().to_string(),
                    class,
                });
            }
            Ok(PreparedTarget {
                loss,
                y,
                shift: 0.0,
                scale: 1.0,
                weights: weights.map(|w| w.scaled.clone()),
            })
        }
        (Loss::Squared, Target::Real(_)) => {
            let raw = data.target_values();
            if let Some((row, &value)) = raw.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                return Err(Error::NonFiniteTarget { row, value });
            }
            let (mean, var) = mean_and_variance(&raw, weights.map(|w| w.scaled.as_slice()));
            // A constant target gives the intercept-only model (scale 1).
            let scale = if var > 0.0 { var.sqrt() } else { 1.0 };
            Ok(PreparedTarget {
                loss,
                y: raw.iter().map(|v| (v - mean) / scale).collect(),
                shift: mean,
                scale,
                weights: weights.map(|w| w.scaled.clone()),
            })
        }
        (Loss::Logistic, Target::Real(_)) => Err(Error::TargetKind(format!(
            "data set '{}' has a real target; a logistic model needs two classes",
            data.name()
        ))),
        (Loss::Squared, Target::Classes { .. }) => Err(Error::TargetKind(format!(
            "data set '{}' has class labels; a linear model needs a real target",
            data.name()
        ))),
        (_, Target::None) => Err(Error::TargetKind(format!(
            "data set '{}' has no target to learn from",
            data.name()
        ))),
    }
}

/// Largest number of selected columns refitted by dense Newton.
const DENSE_REFIT: usize = 300;
/// Ridge of the de-biasing refit (numerical safeguard only).
const DEBIAS_RIDGE: f64 = 1e-8;

/// What one working-set column stands for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ColumnKind {
    /// A conjunction of binarizer literals (indices, increasing).
    Rule(Vec<usize>),
    /// A linear term.
    Linear(LinearTerm),
}

impl ColumnKind {
    pub(crate) fn penalty(&self, lambda0: f64, lambda1: f64) -> f64 {
        match self {
            ColumnKind::Rule(l) => lambda0 + lambda1 * l.len() as f64,
            ColumnKind::Linear(_) => lambda0,
        }
    }
}

/// The column-generation state: binarized data, working set and the last
/// solution (the warm start of the next solve).
pub(crate) struct Engine {
    /// The training schema and encoding (the model's).
    pub encoder: Encoder,
    pub target: PreparedTarget,
    pub binarizer: Binarizer,
    pub matrix: BinaryMatrix,
    pub columns: Vec<Column>,
    pub kinds: Vec<ColumnKind>,
    known: HashSet<Vec<usize>>,
    pub intercept: f64,
    pub coef: Vec<f64>,
    pub warm: bool,
    /// The working set's Gram matrix (squared loss only), grown with it.
    gram: Option<Gram>,
}

impl Engine {
    /// Binarizes the (encoded, positive-weight) training rows and makes
    /// the initial working set: LR1's singletons, plus linear terms when
    /// asked.
    pub fn new(
        params: &GlrmParams,
        encoder: Encoder,
        data: &Dataset,
        weights: Option<&SampleWeights>,
    ) -> Result<Engine> {
        let target = prepare_target(data, params.loss, weights)?;
        let binarizer =
            Binarizer::fit_weighted(&params.binarizer, data, weights.map(|w| w.raw.as_slice()))?;
        let matrix = binarizer.transform(data)?;
        let mut e = Engine {
            encoder,
            target,
            binarizer,
            matrix,
            columns: Vec::new(),
            kinds: Vec::new(),
            known: HashSet::new(),
            intercept: 0.0,
            coef: Vec::new(),
            warm: false,
            gram: None,
        };
        if e.target.loss == Loss::Squared && params.gram_master {
            e.gram = Some(Gram::new(&e.target.y, e.target.weights.as_deref()));
        }
        if params.linear_terms {
            for s in e.binarizer.standardizers().to_vec() {
                let term = LinearTerm {
                    feature: s.feature,
                    mean: s.mean,
                    scale: params.linear_scale / s.std,
                    lower: f64::NEG_INFINITY,
                    upper: f64::INFINITY,
                };
                let col = data.column(s.feature);
                e.columns
                    .push(Column::Dense(col.iter().map(|&x| term.value(x)).collect()));
                e.kinds.push(ColumnKind::Linear(term));
            }
        }
        for j in e.binarizer.primary_literals() {
            let rows = e.matrix.bits(j).to_rows();
            e.add_rule(vec![j], rows);
        }
        Ok(e)
    }

    fn add_rule(&mut self, literals: Vec<usize>, rows: Vec<u32>) -> bool {
        if !self.known.insert(literals.clone()) {
            return false;
        }
        self.columns.push(Column::Binary(rows));
        self.kinds.push(ColumnKind::Rule(literals));
        true
    }

    fn solve(&mut self, penalties: &[f64], settings: &GlmSettings) -> Result<GlmFit> {
        let problem = GlmProblem {
            loss: self.target.loss,
            y: &self.target.y,
            columns: &self.columns,
            penalties,
            weights: self.target.weights.as_deref(),
        };
        let warm = self.warm.then_some((self.intercept, self.coef.as_slice()));
        // Squared loss: Gram-matrix coordinate descent; should it miss the
        // KKT tolerance, the general solver takes over from the same start.
        let gram_fit = self.gram.as_mut().and_then(|gram| {
            gram.extend(&self.columns, &self.target.y);
            gram.solve(&problem, warm.map(|(_, c)| c), settings).ok()
        });
        let fit = match gram_fit {
            Some(fit) => fit,
            None => glm::solve(&problem, warm, settings)?,
        };
        self.intercept = fit.intercept;
        self.coef = fit.coef.clone();
        self.warm = true;
        Ok(fit)
    }

    /// Runs column generation at one `(λ0, λ1)` and returns the model.
    pub fn run(
        &mut self,
        params: &GlrmParams,
        lambda0: f64,
        lambda1: f64,
        data: &Dataset,
    ) -> Result<GlrmModel> {
        check_lambdas(lambda0, lambda1)?;
        let started = Instant::now();
        let tol = params.glm.kkt_tol;
        let mut iterations = 0;
        let stop;
        let mut fit;
        loop {
            let penalties: Vec<f64> = self
                .kinds
                .iter()
                .map(|k| k.penalty(lambda0, lambda1))
                .collect();
            let t_s = Instant::now();
            fit = self.solve(&penalties, &params.glm)?;
            if std::env::var_os("RC_GLM_TRACE").is_some() {
                eprintln!(
                    "TRACE solve {:.3}s newton {} cols {}",
                    t_s.elapsed().as_secs_f64(),
                    fit.iterations,
                    self.columns.len()
                );
            }
            if params.rules == RuleSpace::Singletons {
                stop = StopReason::FixedColumns;
                break;
            }
            if iterations >= params.max_iterations {
                stop = StopReason::IterationLimit;
                break;
            }
            if params.time_limit.is_some_and(|t| started.elapsed() >= t) {
                stop = StopReason::TimeLimit;
                break;
            }
            let residual = self.target.residuals(&fit.eta);
            let (found, certified) = self.price(params, &residual, lambda0, lambda1, tol)?;
            let mut added = 0;
            for r in found {
                if added == params.columns_per_iteration {
                    break;
                }
                if self.add_rule(r.literals, r.rows) {
                    added += 1;
                }
            }
            if added == 0 {
                stop = if certified {
                    StopReason::Certified
                } else {
                    StopReason::NoImprovingColumn
                };
                break;
            }
            iterations += 1;
        }
        let info = FitInfo {
            lambda0,
            lambda1,
            iterations,
            working_set: self.columns.len(),
            stop,
            kkt_violation: fit.kkt_violation,
            objective: fit.objective,
            debiased: false,
            time: started.elapsed(),
            lambda_search: None,
        };
        let mut model = self.build_model(params, &fit, info, data)?;
        model.info.time = started.elapsed();
        Ok(model)
    }

    /// Prices both signs; returns the improving columns (best first) and
    /// whether exact pricing proved that none exists.
    fn price(
        &self,
        params: &GlrmParams,
        residual: &[f64],
        lambda0: f64,
        lambda1: f64,
        tol: f64,
    ) -> Result<(Vec<PricedRule>, bool)> {
        let mut found = Vec::new();
        let mut certified = true;
        for sign in [1.0, -1.0] {
            let costs: Vec<f64> = residual.iter().map(|r| sign * r).collect();
            let problem = PricingProblem {
                matrix: &self.matrix,
                literals: self.binarizer.literals(),
                costs: &costs,
                lambda0,
                lambda1,
            };
            let heuristic = beam_search(&problem, &params.beam, -tol);
            match params.pricing {
                Pricing::Heuristic => {
                    certified = false;
                    found.extend(heuristic);
                }
                Pricing::Exact => {
                    let start = heuristic.as_ref().map(|r| r.literals.as_slice());
                    let out = pricing::exact(
                        &problem,
                        params.beam.max_degree,
                        params.mip_backend,
                        params.pricing_time_limit,
                        start,
                    )?;
                    if !(out.proven && out.bound >= -tol) {
                        certified = false;
                    }
                    match out.best {
                        Some(b) if b.value < -tol => found.push(b),
                        _ => found.extend(heuristic),
                    }
                }
            }
        }
        found.retain(|r| r.value < -tol && !self.known.contains(&r.literals));
        found.sort_by(|a, b| a.value.total_cmp(&b.value));
        let certified = certified && found.is_empty();
        Ok((found, certified))
    }

    /// De-biases (optionally) and turns the working set into a model.
    pub fn build_model(
        &self,
        params: &GlrmParams,
        fit: &GlmFit,
        info: FitInfo,
        data: &Dataset,
    ) -> Result<GlrmModel> {
        let selected: Vec<usize> = (0..self.columns.len())
            .filter(|&k| fit.coef[k].abs() > params.debias_threshold)
            .collect();
        let mut intercept = fit.intercept;
        let mut coefs: Vec<(usize, f64)> = (0..self.columns.len())
            .filter(|&k| fit.coef[k] != 0.0)
            .map(|k| (k, fit.coef[k]))
            .collect();
        let mut debiased = false;
        if params.debias {
            let columns: Vec<Column> = selected.iter().map(|&k| self.columns[k].clone()).collect();
            let zero = vec![0.0; columns.len()];
            let problem = GlmProblem {
                loss: self.target.loss,
                y: &self.target.y,
                columns: &columns,
                penalties: &zero,
                weights: self.target.weights.as_deref(),
            };
            let start: Vec<f64> = selected.iter().map(|&k| fit.coef[k]).collect();
            // Newton with a dense Hessian for up to DENSE_REFIT columns, else
            // (squared loss) the same problem on the Gram matrix, else
            // coordinate descent with a vanishing L1 penalty (AIX360 refits
            // with C = 1/eps); a ridge of DEBIAS_RIDGE keeps the refit finite
            // on separable data. On failure the regularised coefficients are
            // kept.
            let gram = self.gram.as_ref().filter(|g| g.len() == self.columns.len());
            let refit = if columns.len() <= DENSE_REFIT {
                glm::solve_smooth(
                    &problem,
                    DEBIAS_RIDGE,
                    Some((fit.intercept, &start)),
                    &params.glm,
                )
            } else if let Some(gram) = gram {
                // Squared loss: the same ridge-safeguarded least squares as
                // the dense Newton refit, solved on the Gram matrix.
                gram.refit(&selected, DEBIAS_RIDGE, &problem)
            } else {
                let tiny = vec![1e-6 / self.target.total_weight(); columns.len()];
                let problem = GlmProblem {
                    penalties: &tiny,
                    ..problem
                };
                glm::solve(&problem, Some((fit.intercept, &start)), &params.glm)
            };
            if let Ok(refit) = refit {
                intercept = refit.intercept;
                coefs = selected
                    .iter()
                    .zip(&refit.coef)
                    .filter(|(_, &c)| c != 0.0)
                    .map(|(&k, &c)| (k, c))
                    .collect();
                debiased = true;
            }
        }
        let terms = coefs
            .into_iter()
            .map(|(k, coef)| WeightedTerm {
                term: match &self.kinds[k] {
                    ColumnKind::Rule(lits) => Term::Rule(Conjunction::new(
                        lits.iter().map(|&j| self.binarizer.literals()[j]).collect(),
                    )),
                    ColumnKind::Linear(t) => Term::Linear(*t),
                },
                coef,
                coverage: training_coverage(&self.columns[k], &self.kinds[k], data),
            })
            .collect();
        let mut model = GlrmModel {
            loss: self.target.loss,
            encoder: self.encoder.clone(),
            features: data.features().to_vec(),
            missing_at_fit: (0..data.n_features())
                .map(|j| self.binarizer.had_missing(j))
                .collect(),
            unseen_missing: params.unseen_missing,
            class_names: data.class_names().to_vec(),
            intercept,
            terms,
            target_shift: self.target.shift,
            target_scale: self.target.scale,
            info: FitInfo { debiased, ..info },
        };
        model.sort_terms();
        Ok(model)
    }
}

/// Training coverage of a working-set column: the rows a rule covers, or
/// the rows where a linear term's feature is not missing.
pub(crate) fn training_coverage(column: &Column, kind: &ColumnKind, data: &Dataset) -> usize {
    match (column, kind) {
        (Column::Binary(rows), _) => rows.len(),
        (_, ColumnKind::Linear(t)) => data
            .column(t.feature)
            .iter()
            .filter(|v| !v.is_nan())
            .count(),
        (Column::Dense(_), ColumnKind::Rule(_)) => 0,
    }
}

impl GlrmParams {
    /// Fits one model per `(λ0, λ1)` of `path`, in order, reusing the
    /// binarization and the working set (columns generated for an earlier
    /// pair stay available, and each solve is warm-started from the
    /// previous one). Decreasing penalties make this a regularisation path.
    pub fn fit_path(&self, data: &Dataset, path: &[(f64, f64)]) -> Result<Vec<GlrmModel>> {
        crate::auto::search::path_checked(self.check_inputs(data, None)?, data, None, path)
    }

    /// [`GlrmParams::fit_path`] with one sample weight per row (see
    /// [`Fit::fit_weighted`]).
    pub fn fit_path_weighted(
        &self,
        data: &Dataset,
        weights: &[f64],
        path: &[(f64, f64)],
    ) -> Result<Vec<GlrmModel>> {
        let params = self.check_inputs(data, Some(weights))?;
        crate::auto::search::path_checked(params, data, Some(weights), path)
    }

    /// Fits the path in order, handing each model to `visit`, and stops
    /// early when `visit` returns false.
    pub(crate) fn path_until(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
        path: &[(f64, f64)],
        visit: &mut dyn FnMut(GlrmModel) -> Result<bool>,
    ) -> Result<()> {
        for &(l0, l1) in path {
            check_lambdas(l0, l1)?;
        }
        let (encoder, encoded) = Encoder::fit(data, params.encoding)?;
        let (rows, weights) = training_rows(&encoded, weights)?;
        let mut engine = Engine::new(params.get(), encoder, &rows, weights.as_ref())?;
        for &(l0, l1) in path {
            if !visit(engine.run(params.get(), l0, l1, &rows)?)? {
                break;
            }
        }
        Ok(())
    }
}

impl crate::auto::search::PenaltyPath for GlrmParams {
    fn path_until(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
        path: &[(f64, f64)],
        visit: &mut crate::auto::search::PathVisitor<'_>,
    ) -> Result<()> {
        GlrmParams::path_until(params, data, weights, path, visit)
    }
    fn auto_lambda(&self) -> Option<&AutoLambda> {
        self.auto_lambda.as_ref()
    }
    fn penalties(&self) -> (f64, f64) {
        (self.lambda0, self.lambda1)
    }
    fn pinned(&self, lambda0: f64, lambda1: f64) -> Self {
        self.clone()
            .auto_lambda(None)
            .lambda0(lambda0)
            .lambda1(lambda1)
    }
    fn lenient(&self) -> Self {
        self.clone().unseen_missing(UnseenMissing::AsLiterals)
    }
}

/// The seed of `lambda0 = auto`'s inner folds; with fixed penalties GLRM
/// has no random choices and every seed gives the same model.
impl rulecover_core::Reseed for GlrmParams {
    fn random_seed(&self) -> Option<u64> {
        self.auto_lambda.as_ref().map(|a| a.seed)
    }

    fn with_random_seed(&self, seed: u64) -> Self {
        let mut params = self.clone();
        if let Some(auto) = &mut params.auto_lambda {
            auto.seed = seed;
        }
        params
    }
}

impl CheckParams for GlrmParams {
    type ParamError = Error;

    /// [`GlrmParams::validate`].
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for GlrmParams {
    type Model = GlrmModel;
    type Error = Error;

    /// Encodes and binarizes `data` and fits the model. With one sample
    /// weight per row (finite, `>= 0`, not all 0), the mean loss becomes
    /// the weighted mean `(1/W) Σ w_i ℓ_i` with `W = Σ w_i` in place of
    /// `n` (the penalties are unchanged), the binarizer's quantile
    /// thresholds are weighted quantiles, and the means and standard
    /// deviations of the linear terms and of a real target are weighted.
    /// So an integer weight behaves as that many copies of the row (up to
    /// rounding), and a row of weight 0 as no row at all.
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<GlrmModel> {
        crate::auto::search::fit_checked(params, data, weights)
    }
}
