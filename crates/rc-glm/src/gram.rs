//! The squared-loss restricted master by Gram-matrix ("covariance
//! update") coordinate descent, for column generation.
//!
//! With the squared loss and an unpenalised intercept, the optimal
//! intercept is `ȳ − Σ_k ā_k β_k` and the problem is a lasso on the
//! centred columns `ã_k = a_k − ā_k`:
//!
//! `min_β  (1/2n) ‖ỹ − Ãβ‖² + Σ_k λ_k |β_k|`,
//!
//! whose gradient is `g = Cβ − c` with the centred Gram matrix
//! `C = ÃᵀÃ/n` and `c = Ãᵀỹ/n`, and `g_k` equals the gradient
//! `(1/n) Σ_i (η_i − y_i) a_ik` of [`crate::glm`] at that intercept.
//! With sample weights the means are weighted, `C = ÃᵀWÃ/W` and
//! `c = ÃᵀWỹ/W` (`W = Σ_i w_i`). A
//! [`Gram`] keeps `C` and `c` for the working set and grows by one row per
//! generated column (one pass over the existing columns), so a
//! column-generation round costs `O(p)` per coordinate update instead of a
//! pass over the data per coordinate visit. Coordinate descent keeps `g`
//! up to date; when it crawls (the binarizer's nested threshold columns are
//! highly correlated) it steps to the minimiser on the support with the
//! signs held, clipped at the first sign change (feature-sign search). The
//! stopping rule is the KKT test of [`crate::glm`] on the maintained
//! gradient, and the returned point is checked again from scratch with
//! [`glm::kkt_violation`]; a point that fails the check is an
//! [`Error::NotConverged`], on which the caller falls back to
//! [`glm::solve`].

use crate::error::{Error, Result};
use crate::glm::{
    self, coordinate_violation, soft_threshold, Column, GlmFit, GlmProblem, GlmSettings, Loss,
};

/// Coordinate-descent sweeps between two support steps.
const SWEEPS_PER_SUPPORT_STEP: usize = 10;
/// Largest support solved directly (a dense Cholesky of its Gram block).
const DENSE_SUPPORT: usize = 1000;
/// Sign changes followed within one support step.
const MAX_SIGN_CHANGES: usize = 8;
/// Diagonal entries below this are constant columns (`ã_k = 0`): their
/// coefficient stays 0 and their gradient is 0.
const CONSTANT_COLUMN: f64 = 1e-14;

/// The centred Gram matrix `C = ÃᵀÃ/n` and `c = Ãᵀỹ/n` of a growing list
/// of columns over fixed targets `y`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Gram {
    n: usize,
    /// `1/W` (`1/n` without weights).
    inv_w: f64,
    /// The sample weights and `w_i·y_i` (`None`: unweighted).
    weighted: Option<(Vec<f64>, Vec<f64>)>,
    y_mean: f64,
    /// `ā_k`.
    means: Vec<f64>,
    /// `c_k`.
    c: Vec<f64>,
    /// Row `k` holds `C_kj` for every column `j` seen so far.
    rows: Vec<Vec<f64>>,
    /// Scratch: the dense values of the column being added.
    dense: Vec<f64>,
}

impl Gram {
    /// An empty Gram matrix over the targets `y`, with one sample weight
    /// per row or none.
    pub fn new(y: &[f64], weights: Option<&[f64]>) -> Gram {
        let n = y.len();
        let (inv_w, weighted, y_mean) = match weights {
            None => {
                let y_mean = if n == 0 {
                    0.0
                } else {
                    y.iter().sum::<f64>() / n as f64
                };
                (1.0 / n.max(1) as f64, None, y_mean)
            }
            Some(w) => {
                let total: f64 = w.iter().sum();
                let wy: Vec<f64> = w.iter().zip(y).map(|(w, y)| w * y).collect();
                let y_mean = if total > 0.0 {
                    wy.iter().sum::<f64>() / total
                } else {
                    0.0
                };
                let inv_w = if total > 0.0 { 1.0 / total } else { 1.0 };
                (inv_w, Some((w.to_vec(), wy)), y_mean)
            }
        };
        Gram {
            n,
            inv_w,
            weighted,
            y_mean,
            means: Vec::new(),
            c: Vec::new(),
            rows: Vec::new(),
            dense: vec![0.0; n],
        }
    }

    /// Number of columns covered.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Adds the columns of `columns` beyond the ones already covered (the
    /// working set only ever grows).
    pub fn extend(&mut self, columns: &[Column], y: &[f64]) {
        let inv_n = self.inv_w;
        for m in self.len()..columns.len() {
            let col = &columns[m];
            self.dense.iter_mut().for_each(|d| *d = 0.0);
            col.axpy(1.0, &mut self.dense);
            // Weighted: `dense = w ∘ a`, so the dot products below are
            // `Σ_i w_i a_i b_i`.
            let mean = match &self.weighted {
                None => col.sum() * inv_n,
                Some((w, _)) => {
                    self.dense.iter_mut().zip(w).for_each(|(d, w)| *d *= w);
                    col.dot(w) * inv_n
                }
            };
            let mut row: Vec<f64> = columns[..m]
                .iter()
                .zip(&self.means)
                .map(|(other, &mj)| other.dot(&self.dense) * inv_n - mean * mj)
                .collect();
            let diag = col.dot(&self.dense) * inv_n - mean * mean;
            for (r, &v) in self.rows.iter_mut().zip(&row) {
                r.push(v);
            }
            row.push(diag);
            self.rows.push(row);
            let wy = self.weighted.as_ref().map_or(y, |(_, wy)| wy.as_slice());
            self.c.push(col.dot(wy) * inv_n - mean * self.y_mean);
            self.means.push(mean);
        }
    }

    /// `g = Cβ − c` from scratch.
    fn gradient(&self, beta: &[f64]) -> Vec<f64> {
        let mut g: Vec<f64> = self.c.iter().map(|c| -c).collect();
        for (j, &b) in beta.iter().enumerate() {
            if b != 0.0 {
                for (gk, &cjk) in g.iter_mut().zip(&self.rows[j]) {
                    *gk += b * cjk;
                }
            }
        }
        g
    }

    /// Solves the squared-loss problem over the covered columns (which must
    /// be `problem.columns`), starting from `warm`'s coefficients (padded
    /// with zeros; the intercept follows from them). The result satisfies
    /// the KKT conditions to `settings.kkt_tol`, checked from scratch.
    pub fn solve(
        &self,
        problem: &GlmProblem,
        warm: Option<&[f64]>,
        settings: &GlmSettings,
    ) -> Result<GlmFit> {
        settings.validate()?;
        let p = self.len();
        if problem.loss != Loss::Squared
            || problem.columns.len() != p
            || problem.y.len() != self.n
            || problem.penalties.len() != p
        {
            return Err(Error::Shape(format!(
                "the Gram matrix covers {p} columns of {} rows (squared loss); the problem has \
                 {} columns, {} penalties and {} rows ({:?} loss)",
                self.n,
                problem.columns.len(),
                problem.penalties.len(),
                problem.y.len(),
                problem.loss
            )));
        }
        let tol = settings.kkt_tol;
        let lambda = problem.penalties;
        let mut beta = vec![0.0; p];
        if let Some(w) = warm {
            for (d, s) in beta.iter_mut().zip(w) {
                *d = if s.is_finite() { *s } else { 0.0 };
            }
        }
        for (k, b) in beta.iter_mut().enumerate() {
            if self.rows[k][k] <= CONSTANT_COLUMN {
                *b = 0.0;
            }
        }
        let mut grad = self.gradient(&beta);
        let mut active: Vec<usize> = (0..p).filter(|&k| beta[k] != 0.0).collect();
        let mut in_active: Vec<bool> = beta.iter().map(|&b| b != 0.0).collect();
        let budget = settings
            .max_sweeps
            .saturating_mul(settings.max_newton_iterations);
        let mut sweeps = 0usize;
        let mut steps = 0usize;
        let mut rounds = 0usize;
        loop {
            // Coordinate descent on the active set until its KKT conditions
            // hold (on the maintained gradient).
            let mut since_step = 0;
            let mut round_sweeps = 0;
            loop {
                round_sweeps += 1;
                for &k in &active {
                    let h = self.rows[k][k];
                    if h <= CONSTANT_COLUMN {
                        continue;
                    }
                    let bnew = soft_threshold(h * beta[k] - grad[k], lambda[k]) / h;
                    let t = bnew - beta[k];
                    if t != 0.0 {
                        beta[k] = bnew;
                        for (g, &ckj) in grad.iter_mut().zip(&self.rows[k]) {
                            *g += t * ckj;
                        }
                    }
                }
                sweeps += 1;
                // The violation after the sweep, on the maintained gradient
                // (later updates in a sweep move earlier coordinates' gradients).
                let worst = active
                    .iter()
                    .map(|&k| coordinate_violation(grad[k], beta[k], lambda[k]))
                    .fold(0.0f64, f64::max);
                if worst <= 0.5 * tol {
                    break;
                }
                if sweeps >= budget {
                    return Err(Error::NotConverged {
                        iterations: rounds,
                        violation: worst,
                        tolerance: tol,
                    });
                }
                since_step += 1;
                // After a column joins, one sweep and a support step usually
                // land on the optimum; later steps every few sweeps.
                if since_step == SWEEPS_PER_SUPPORT_STEP || (round_sweeps == 1 && since_step == 1) {
                    since_step = 0;
                    steps += 1;
                    self.support_step(&mut beta, &mut grad, lambda);
                }
            }
            // Every coordinate, on a fresh gradient: add the violators.
            grad = self.gradient(&beta);
            let mut violation: f64 = 0.0;
            let mut added = false;
            for k in 0..p {
                let v = coordinate_violation(grad[k], beta[k], lambda[k]);
                violation = violation.max(v);
                if v > 0.5 * tol && !in_active[k] && self.rows[k][k] > CONSTANT_COLUMN {
                    active.push(k);
                    in_active[k] = true;
                    added = true;
                }
            }
            rounds += 1;
            if !added && violation <= tol {
                break;
            }
            if rounds >= settings.max_newton_iterations {
                return Err(Error::NotConverged {
                    iterations: rounds,
                    violation,
                    tolerance: tol,
                });
            }
        }
        let intercept = self.y_mean
            - beta
                .iter()
                .zip(&self.means)
                .map(|(b, m)| b * m)
                .sum::<f64>();
        if std::env::var_os("RC_GLM_TRACE").is_some() {
            eprintln!("TRACE gram sweeps {sweeps} rounds {rounds} steps {steps}");
        }
        let v = glm::kkt_violation(problem, intercept, &beta);
        if v > tol {
            return Err(Error::NotConverged {
                iterations: rounds,
                violation: v,
                tolerance: tol,
            });
        }
        let mut eta = vec![intercept; self.n];
        for (col, &b) in problem.columns.iter().zip(&beta) {
            if b != 0.0 {
                col.axpy(b, &mut eta);
            }
        }
        let objective = glm::objective_at(problem, &eta, &beta);
        Ok(GlmFit {
            intercept,
            coef: beta,
            eta,
            objective,
            kkt_violation: v,
            iterations: rounds,
        })
    }

    /// The de-biasing refit of the columns `selected` (a subset of the
    /// covered ones): least squares with a ridge `ridge·‖β‖²/2`, i.e. the
    /// solution of `(C_SS + ridge·I) β = c_S`, the intercept following from
    /// it. `problem` holds the selected columns with zero penalties; the
    /// returned fit's `kkt_violation` is the gradient's largest entry
    /// (without the ridge term), recomputed from scratch.
    pub fn refit(&self, selected: &[usize], ridge: f64, problem: &GlmProblem) -> Result<GlmFit> {
        let dim = selected.len();
        if problem.loss != Loss::Squared
            || problem.columns.len() != dim
            || problem.y.len() != self.n
            || selected.iter().any(|&k| k >= self.len())
        {
            return Err(Error::Shape(format!(
                "refit of {dim} of the {} covered columns over {} rows; the problem has {} \
                 columns and {} rows ({:?} loss)",
                self.len(),
                self.n,
                problem.columns.len(),
                problem.y.len(),
                problem.loss
            )));
        }
        let mut h = vec![0.0; dim * dim];
        for (a, &ka) in selected.iter().enumerate() {
            let row = &self.rows[ka];
            for (b, &kb) in selected.iter().enumerate() {
                h[a * dim + b] = row[kb];
            }
            h[a * dim + a] += ridge;
        }
        let rhs: Vec<f64> = selected.iter().map(|&k| self.c[k]).collect();
        let coef = cholesky_solve(&mut h, dim, &rhs)
            .filter(|b| b.iter().all(|v| v.is_finite()))
            .ok_or(Error::NotConverged {
                iterations: 0,
                violation: f64::INFINITY,
                tolerance: ridge,
            })?;
        let intercept = self.y_mean
            - selected
                .iter()
                .zip(&coef)
                .map(|(&k, b)| b * self.means[k])
                .sum::<f64>();
        let mut eta = vec![intercept; self.n];
        for (col, &b) in problem.columns.iter().zip(&coef) {
            col.axpy(b, &mut eta);
        }
        let objective = glm::objective_at(problem, &eta, &coef)
            + 0.5 * ridge * coef.iter().map(|b| b * b).sum::<f64>();
        let kkt = glm::kkt_violation(problem, intercept, &coef);
        Ok(GlmFit {
            intercept,
            coef,
            eta,
            objective,
            kkt_violation: kkt,
            iterations: 1,
        })
    }

    /// One feature-sign step: the minimiser of the quadratic on the
    /// support with the current signs, `C_SS d = −(g_S + λ_S sign(β_S))`,
    /// taken as far as the first sign change (the objective decreases
    /// along the whole segment inside the orthant); the coordinate that
    /// reaches zero is set to exactly zero.
    fn support_step(&self, beta: &mut [f64], grad: &mut [f64], lambda: &[f64]) {
        for _ in 0..MAX_SIGN_CHANGES {
            let support: Vec<usize> = (0..beta.len()).filter(|&k| beta[k] != 0.0).collect();
            let dim = support.len();
            if dim == 0 || dim > DENSE_SUPPORT {
                return;
            }
            let mut h = vec![0.0; dim * dim];
            for (a, &ka) in support.iter().enumerate() {
                let row = &self.rows[ka];
                for (b, &kb) in support.iter().enumerate() {
                    h[a * dim + b] = row[kb];
                }
            }
            let rhs: Vec<f64> = support
                .iter()
                .map(|&k| -(grad[k] + lambda[k] * beta[k].signum()))
                .collect();
            let Some(step) = cholesky_solve(&mut h, dim, &rhs) else {
                return;
            };
            if step.iter().any(|d| !d.is_finite()) {
                return;
            }
            let mut alpha = 1.0;
            let mut hit = None;
            for (a, &k) in support.iter().enumerate() {
                let d = step[a];
                if beta[k] * d < 0.0 {
                    let t = -beta[k] / d;
                    if t < alpha {
                        alpha = t;
                        hit = Some(a);
                    }
                }
            }
            for (a, &k) in support.iter().enumerate() {
                let old = beta[k];
                let new = if hit == Some(a) {
                    0.0
                } else {
                    old + alpha * step[a]
                };
                let t = new - old;
                if t != 0.0 {
                    beta[k] = new;
                    for (g, &ckj) in grad.iter_mut().zip(&self.rows[k]) {
                        *g += t * ckj;
                    }
                }
            }
            // Full step: the orthant's minimiser is reached. Otherwise the
            // coordinate that reached zero leaves and the rest is solved
            // again (feature-sign search).
            if hit.is_none() {
                return;
            }
        }
    }
}

/// `Σ_k a_k b_k` with four accumulators (vectorises).
#[inline]
fn dot4(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; 4];
    let mut ca = a.chunks_exact(4);
    let mut cb = b.chunks_exact(4);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for l in 0..4 {
            acc[l] += x[l] * y[l];
        }
    }
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// Solves `H x = b` for the symmetric positive definite `H` (row-major,
/// overwritten by its Cholesky factor in the lower triangle); `None` when a
/// pivot is not positive (a singular support block: coordinate descent
/// carries on without the step).
fn cholesky_solve(h: &mut [f64], dim: usize, b: &[f64]) -> Option<Vec<f64>> {
    let scale = (0..dim)
        .map(|k| h[k * dim + k].abs())
        .fold(0.0f64, f64::max)
        .max(1e-300);
    for i in 0..dim {
        let (done, rest) = h.split_at_mut(i * dim);
        let row_i = &mut rest[..dim];
        for j in 0..i {
            let row_j = &done[j * dim..j * dim + j];
            let s = row_i[j] - dot4(&row_i[..j], row_j);
            row_i[j] = s / done[j * dim + j];
        }
        let d = row_i[i] - dot4(&row_i[..i], &row_i[..i]);
        if d.is_nan() || d <= 1e-12 * scale {
            return None;
        }
        row_i[i] = d.sqrt();
    }
    let mut z = vec![0.0; dim];
    for i in 0..dim {
        let row = &h[i * dim..i * dim + i];
        z[i] = (b[i] - dot4(row, &z[..i])) / h[i * dim + i];
    }
    let mut x = z;
    for i in (0..dim).rev() {
        let mut s = x[i];
        for k in i + 1..dim {
            s -= h[k * dim + i] * x[k];
        }
        x[i] = s / h[i * dim + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulecover_core::Rng;

    /// Squared-loss problems with the column kinds column generation
    /// makes: random rules, nested thresholds (highly correlated), dense
    /// linear terms, a duplicate and a constant column.
    fn problem(seed: u64, n: usize) -> (Vec<f64>, Vec<Column>) {
        let mut rng = Rng::new(seed);
        let x: Vec<f64> = (0..n).map(|_| rng.next_f64()).collect();
        let mut columns = Vec::new();
        for j in 1..12 {
            let t = j as f64 / 12.0;
            columns.push(Column::Binary(
                (0..n as u32).filter(|&i| x[i as usize] <= t).collect(),
            ));
        }
        for _ in 0..15 {
            let frac = 0.05 + 0.9 * rng.next_f64();
            columns.push(Column::Binary(
                (0..n as u32).filter(|_| rng.next_f64() < frac).collect(),
            ));
        }
        columns.push(Column::Dense((0..n).map(|_| rng.normal()).collect()));
        columns.push(columns[3].clone());
        columns.push(Column::Binary((0..n as u32).collect()));
        let y: Vec<f64> = (0..n)
            .map(|i| 3.0 * (x[i] - 0.5).powi(2) + 0.5 * (x[i] * 9.0).sin() + 0.3 * rng.normal())
            .collect();
        (y, columns)
    }

    #[test]
    fn gram_equals_the_centred_products() {
        let (y, columns) = problem(1, 120);
        let mut gram = Gram::new(&y, None);
        // Grown in three steps, as column generation grows it.
        gram.extend(&columns[..5], &y);
        gram.extend(&columns[..6], &y);
        gram.extend(&columns, &y);
        let n = y.len();
        let dense: Vec<Vec<f64>> = columns
            .iter()
            .map(|c| {
                let mut d = vec![0.0; n];
                c.axpy(1.0, &mut d);
                let m = d.iter().sum::<f64>() / n as f64;
                d.iter().map(|v| v - m).collect()
            })
            .collect();
        let ym = y.iter().sum::<f64>() / n as f64;
        for (j, dj) in dense.iter().enumerate() {
            let cj: f64 = dj.iter().zip(&y).map(|(a, y)| a * (y - ym)).sum::<f64>() / n as f64;
            assert!((gram.c[j] - cj).abs() < 1e-12);
            for (k, dk) in dense.iter().enumerate() {
                let v: f64 = dj.iter().zip(dk).map(|(a, b)| a * b).sum::<f64>() / n as f64;
                assert!((gram.rows[j][k] - v).abs() < 1e-12, "C[{j}][{k}]");
            }
        }
    }

    /// With sample weights the Gram solver reaches the weighted general
    /// solver's optimum, and integer weights the optimum of the duplicated
    /// rows.
    #[test]
    fn weighted_gram_matches_the_general_solver_and_duplicated_rows() {
        let s = GlmSettings::default();
        let (y, columns) = problem(3, 200);
        let mut rng = rulecover_core::Rng::new(4);
        let w: Vec<f64> = (0..y.len()).map(|_| (1 + rng.below(3)) as f64).collect();
        let penalties = vec![1e-3; columns.len()];
        let prob = GlmProblem {
            loss: Loss::Squared,
            y: &y,
            columns: &columns,
            penalties: &penalties,
            weights: Some(&w),
        };
        let mut gram = Gram::new(&y, Some(&w));
        gram.extend(&columns[..10], &y);
        gram.extend(&columns, &y);
        let fit = gram.solve(&prob, None, &s).unwrap();
        let general = glm::solve(&prob, None, &s).unwrap();
        assert!(glm::kkt_violation(&prob, fit.intercept, &fit.coef) <= s.kkt_tol);
        assert!((fit.objective - general.objective).abs() < 1e-9);
        // The rows repeated by their weights.
        let rows: Vec<usize> = (0..y.len())
            .flat_map(|i| std::iter::repeat_n(i, w[i] as usize))
            .collect();
        let mut new_index = vec![Vec::new(); y.len()];
        for (k, &i) in rows.iter().enumerate() {
            new_index[i].push(k as u32);
        }
        let dup_y: Vec<f64> = rows.iter().map(|&i| y[i]).collect();
        let dup_columns: Vec<Column> = columns
            .iter()
            .map(|c| match c {
                Column::Binary(r) => Column::Binary({
                    let mut v: Vec<u32> = r
                        .iter()
                        .flat_map(|&i| new_index[i as usize].clone())
                        .collect();
                    v.sort_unstable();
                    v
                }),
                Column::Dense(a) => Column::Dense(rows.iter().map(|&i| a[i]).collect()),
            })
            .collect();
        let dup = GlmProblem {
            loss: Loss::Squared,
            y: &dup_y,
            columns: &dup_columns,
            penalties: &penalties,
            weights: None,
        };
        let mut dup_gram = Gram::new(&dup_y, None);
        dup_gram.extend(&dup_columns, &dup_y);
        let dup_fit = dup_gram.solve(&dup, None, &s).unwrap();
        assert!((fit.objective - dup_fit.objective).abs() < 1e-12);
        for (a, b) in fit.coef.iter().zip(&dup_fit.coef) {
            assert!((a - b).abs() < 1e-9, "{a} vs {b}");
        }
    }

    /// The Gram solver meets the KKT tolerance (recomputed from scratch by
    /// `glm::kkt_violation`) and reaches the general solver's optimum, cold
    /// and warm, and when columns join as in column generation.
    #[test]
    fn kkt_holds_and_the_optimum_matches_the_general_solver() {
        let s = GlmSettings::default();
        for seed in 0..8 {
            let (y, columns) = problem(10 + seed, 400);
            for lambda in [3e-2, 3e-3, 3e-4, 3e-5] {
                let penalties: Vec<f64> = (0..columns.len())
                    .map(|k| lambda * (1.0 + 0.2 * (k % 4) as f64))
                    .collect();
                let prob = GlmProblem {
                    loss: Loss::Squared,
                    y: &y,
                    columns: &columns,
                    penalties: &penalties,
                    weights: None,
                };
                let mut gram = Gram::new(&y, None);
                // Column generation: the working set grows by one column at
                // a time, each solve warm-started from the previous one.
                let mut warm: Option<Vec<f64>> = None;
                for m in 20..=columns.len() {
                    gram.extend(&columns[..m], &y);
                    let sub = GlmProblem {
                        columns: &columns[..m],
                        penalties: &penalties[..m],
                        ..prob
                    };
                    let fit = gram.solve(&sub, warm.as_deref(), &s).unwrap();
                    let v = glm::kkt_violation(&sub, fit.intercept, &fit.coef);
                    assert!(v <= s.kkt_tol, "seed {seed} λ {lambda} m {m}: {v}");
                    warm = Some(fit.coef);
                }
                let fit = gram.solve(&prob, warm.as_deref(), &s).unwrap();
                let cold = gram.solve(&prob, None, &s).unwrap();
                let general = glm::solve(&prob, None, &s).unwrap();
                for f in [&fit, &cold] {
                    assert!(glm::kkt_violation(&prob, f.intercept, &f.coef) <= s.kkt_tol);
                    assert!(
                        (glm::objective(&prob, f.intercept, &f.coef) - f.objective).abs() < 1e-12
                    );
                    assert!(
                        (f.objective - general.objective).abs() < 1e-8,
                        "seed {seed} λ {lambda}: {} vs {}",
                        f.objective,
                        general.objective
                    );
                }
                // The constant column never enters.
                assert_eq!(fit.coef[columns.len() - 1], 0.0);
            }
        }
    }

    /// The Gram refit solves the same ridge-safeguarded least squares as
    /// the dense Newton refit of `glm::solve_smooth`.
    #[test]
    fn refit_matches_the_dense_newton_refit() {
        let s = GlmSettings::default();
        for seed in 0..4 {
            let (y, columns) = problem(30 + seed, 300);
            let mut gram = Gram::new(&y, None);
            gram.extend(&columns, &y);
            let selected: Vec<usize> = (0..columns.len()).filter(|k| k % 3 != 1).collect();
            let sub: Vec<Column> = selected.iter().map(|&k| columns[k].clone()).collect();
            let zero = vec![0.0; sub.len()];
            let prob = GlmProblem {
                loss: Loss::Squared,
                y: &y,
                columns: &sub,
                penalties: &zero,
                weights: None,
            };
            let ridge = 1e-8;
            let fit = gram.refit(&selected, ridge, &prob).unwrap();
            let newton = glm::solve_smooth(&prob, ridge, None, &s).unwrap();
            assert!(
                fit.kkt_violation <= 2.0 * s.kkt_tol,
                "{}",
                fit.kkt_violation
            );
            assert!(
                (fit.objective - newton.objective).abs() < 1e-9,
                "{} vs {}",
                fit.objective,
                newton.objective
            );
            for (a, b) in fit.eta.iter().zip(&newton.eta) {
                assert!((a - b).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn shape_mismatch_is_an_error() {
        let (y, columns) = problem(2, 50);
        let mut gram = Gram::new(&y, None);
        gram.extend(&columns[..4], &y);
        let penalties = vec![0.01; columns.len()];
        let prob = GlmProblem {
            loss: Loss::Squared,
            y: &y,
            columns: &columns,
            penalties: &penalties,
            weights: None,
        };
        assert!(matches!(
            gram.solve(&prob, None, &GlmSettings::default()),
            Err(Error::Shape(_))
        ));
        let logistic = GlmProblem {
            loss: Loss::Logistic,
            columns: &columns[..4],
            penalties: &penalties[..4],
            ..prob
        };
        assert!(gram
            .solve(&logistic, None, &GlmSettings::default())
            .is_err());
    }
}
