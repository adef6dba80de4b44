//! The pricing problem (8)/(9): find the conjunction `k` minimising
//! `Σ_i c_i a_ik + λ0 + λ1·deg(k)` for a cost vector `c = ±(μ − y)/n`.
//!
//! Two pricers:
//!
//! * [`beam_search`], the heuristic of Sec. 4: a search over increasing
//!   degree that expands only the best `width` children (width 1 is the
//!   paper's single-parent heuristic), using the change in value (10), the
//!   lower bound on the descendants (11) for pruning and for choosing the
//!   parent (their average, weight `lb_weight`), AIX360's extra degree-wise
//!   bound, and instance reduction (rows with `a_i` forced to 0 and
//!   literals made redundant by the parent are removed).
//! * [`exact`], the integer program (9) solved by any
//!   [`rc_lp::MipSolver`] (CBC with feature `cbc`, else rc-lp's branch and
//!   bound). Its optimum certifies that no conjunction (of degree at most
//!   `max_degree`) has a negative reduced cost.
//!
//! Both return the conjunction's value recomputed from scratch by
//! [`rule_value`].

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use rc_lp::{MipOptions, MipSolver, MipStatus, Model};

use crate::binarize::BinaryMatrix;
use rayon::prelude::*;

use crate::bits::{masked_sums, or, word_range, Bits};
use crate::error::{invalid, Error, Result};
use crate::literal::{Literal, LiteralOp};

/// One instance of the pricing problem.
#[derive(Debug, Clone, Copy)]
pub struct PricingProblem<'a> {
    /// The binarized training rows.
    pub matrix: &'a BinaryMatrix,
    /// The literal of each column of `matrix`.
    pub literals: &'a [Literal],
    /// Costs `c_i` (sign-adjusted residuals with `1/n` folded in).
    pub costs: &'a [f64],
    /// Fixed cost of a rule.
    pub lambda0: f64,
    /// Cost per literal.
    pub lambda1: f64,
}

/// A priced conjunction.
#[derive(Debug, Clone, PartialEq)]
pub struct PricedRule {
    /// Literal (column) indices, increasing.
    pub literals: Vec<usize>,
    /// `Σ_i c_i a_i + λ0 + λ1·deg` (the reduced cost of its coefficient).
    pub value: f64,
    /// Rows covered, increasing.
    pub rows: Vec<u32>,
}

/// Settings of the heuristic pricer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BeamParams {
    /// Parents kept per degree (1: the paper's heuristic).
    pub width: usize,
    /// Largest degree searched (10, as AIX360; the paper gives none).
    pub max_degree: usize,
    /// Weight of the lower bound when ranking children as parents (0.5:
    /// the paper's plain average of value and bound).
    pub lb_weight: f64,
    /// Also use AIX360's degree-wise lower bound (true).
    pub degree_bound: bool,
}

impl Default for BeamParams {
    fn default() -> Self {
        BeamParams {
            width: 1,
            max_degree: 10,
            lb_weight: 0.5,
            degree_bound: true,
        }
    }
}

impl BeamParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<()> {
        if self.width == 0 {
            return Err(invalid("beam_width", 0, "must be >= 1"));
        }
        if self.max_degree == 0 {
            return Err(invalid("max_degree", 0, "must be >= 1"));
        }
        if !(0.0..=1.0).contains(&self.lb_weight) {
            return Err(invalid("lb_weight", self.lb_weight, "must be in [0, 1]"));
        }
        Ok(())
    }
}

/// Coverage and value of a conjunction of columns, from scratch.
pub fn rule_value(problem: &PricingProblem, literals: &[usize]) -> (f64, Vec<u32>) {
    let n = problem.matrix.n_rows();
    let mut cover = Bits::full(n);
    for &j in literals {
        cover.and_with(problem.matrix.bits(j));
    }
    let rows = cover.to_rows();
    let sum: f64 = rows.iter().map(|&i| problem.costs[i as usize]).sum();
    let value = sum + problem.lambda0 + problem.lambda1 * literals.len() as f64;
    (value, rows)
}

/// The literals still allowed after adding `chosen` (AIX360's redundancy
/// rule): other literals on the same feature are dropped, except `>` tests
/// below a chosen `<=` threshold, `<=` tests above a chosen `>` threshold,
/// and other `!=` tests after a `!=`.
fn still_allowed(chosen: &Literal, other: &Literal) -> bool {
    if other.feature != chosen.feature {
        return true;
    }
    match (chosen.op, other.op) {
        (LiteralOp::Le, LiteralOp::Gt) => other.value < chosen.value,
        (LiteralOp::Gt, LiteralOp::Le) => other.value > chosen.value,
        (LiteralOp::Ne, LiteralOp::Ne) => other.value != chosen.value,
        (LiteralOp::NotMissing, LiteralOp::Ne) => true,
        _ => false,
    }
}

struct Instance {
    /// Rows of the instance with `c > 0` and with `c < 0`.
    pos: Bits,
    neg: Bits,
    sum_pos: f64,
    sum_neg: f64,
    /// Value of the instance's conjunction.
    value: f64,
    chosen: Vec<usize>,
    allowed: Vec<usize>,
}

/// The heuristic pricer. Returns the best conjunction found whose value
/// is below `upper` (e.g. `−tolerance`), or `None`.
pub fn beam_search(
    problem: &PricingProblem,
    params: &BeamParams,
    upper: f64,
) -> Option<PricedRule> {
    let n = problem.matrix.n_rows();
    let c = problem.costs;
    let l1 = problem.lambda1;
    let mut pos = Bits::new(n);
    let mut neg = Bits::new(n);
    let (mut sp, mut sn) = (0.0, 0.0);
    for (i, &ci) in c.iter().enumerate() {
        if ci > 0.0 {
            pos.insert(i);
            sp += ci;
        } else if ci < 0.0 {
            neg.insert(i);
            sn += ci;
        }
    }
    let root = Instance {
        pos,
        neg,
        sum_pos: sp,
        sum_neg: sn,
        value: sp + sn + problem.lambda0,
        chosen: Vec::new(),
        allowed: (0..problem.literals.len()).collect(),
    };
    let eps = 1e-12;
    let mut incumbent = upper;
    let mut best: Option<Vec<usize>> = None;
    let mut beam = vec![root];
    for _degree in 1..=params.max_degree {
        // (score, instance index, literal, value, bound)
        let mut children: Vec<(f64, usize, usize, f64)> = Vec::new();
        for (b, inst) in beam.iter().enumerate() {
            let rows = or(&inst.pos, &inst.neg);
            let range = word_range(rows.words());
            // Removed mass: rows of the instance where literal j fails.
            // The literals of a feature from one histogram of its atoms,
            // the others one by one.
            let atoms = problem.matrix.atoms();
            let by_atoms = atoms.literal_sums(&rows, c, range, &inst.allowed);
            let sums: Vec<(f64, f64)> = inst
                .allowed
                .par_iter()
                .with_min_len(8)
                .map(|&j| {
                    let (kept_all, kept_p) = by_atoms[j].unwrap_or_else(|| {
                        let col = problem.matrix.bits(j).words();
                        masked_sums(rows.words(), col, c, range)
                    });
                    let kept_n = kept_all - kept_p;
                    (inst.sum_pos - kept_p, inst.sum_neg - kept_n)
                })
                .collect();
            let rp: Vec<f64> = sums.iter().map(|s| s.0).collect();
            let rn: Vec<f64> = sums.iter().map(|s| s.1).collect();
            // Degree-wise bound on every descendant of degree ≥ 2 here.
            let mut lb_deg = f64::NEG_INFINITY;
            if params.degree_bound && rp.len() >= 2 {
                let mut sp_sorted = rp.clone();
                sp_sorted.sort_by(|a, b| b.total_cmp(a));
                let mut sn_sorted = rn.clone();
                sn_sorted.sort_by(|a, b| b.total_cmp(a));
                let mut cum = sp_sorted[0];
                let mut m = f64::INFINITY;
                for k in 2..=sp_sorted.len() {
                    cum += sp_sorted[k - 1];
                    let lb = inst.value - cum.min(inst.sum_pos) - sn_sorted[k - 1] + k as f64 * l1;
                    m = m.min(lb);
                }
                lb_deg = m;
            }
            for (slot, &j) in inst.allowed.iter().enumerate() {
                let v1 = inst.value - rp[slot] - rn[slot] + l1;
                if v1 < incumbent - eps {
                    incumbent = v1;
                    let mut lits = inst.chosen.clone();
                    lits.push(j);
                    best = Some(lits);
                }
                let lb1 = (v1 + rp[slot] - inst.sum_pos + l1).max(lb_deg);
                if lb1 < incumbent - eps {
                    let score = (1.0 - params.lb_weight) * v1 + params.lb_weight * lb1;
                    children.push((score, b, j, v1));
                }
            }
        }
        if children.is_empty() {
            break;
        }
        children.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
        let mut next: Vec<Instance> = Vec::new();
        let mut seen: Vec<Vec<usize>> = Vec::new();
        for &(_, b, j, v1) in &children {
            if next.len() == params.width {
                break;
            }
            let parent = &beam[b];
            let mut chosen = parent.chosen.clone();
            chosen.push(j);
            chosen.sort_unstable();
            if seen.contains(&chosen) {
                continue;
            }
            seen.push(chosen.clone());
            let col = problem.matrix.bits(j);
            let pos = parent.pos.and(col);
            let neg = parent.neg.and(col);
            let sum_pos = pos.iter().map(|i| c[i]).sum();
            let sum_neg = neg.iter().map(|i| c[i]).sum();
            let lj = &problem.literals[j];
            let allowed = parent
                .allowed
                .iter()
                .copied()
                .filter(|&k| k != j && still_allowed(lj, &problem.literals[k]))
                .collect();
            next.push(Instance {
                pos,
                neg,
                sum_pos,
                sum_neg,
                value: v1,
                chosen,
                allowed,
            });
        }
        beam = next;
        if beam
            .iter()
            .all(|i| i.allowed.is_empty() || i.pos.is_empty())
        {
            // No descendant can remove positive cost any more.
            break;
        }
    }
    best.map(|mut lits| {
        lits.sort_unstable();
        let (value, rows) = rule_value(problem, &lits);
        PricedRule {
            literals: lits,
            value,
            rows,
        }
    })
}

/// Which MIP solver prices exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MipBackend {
    /// rc-lp's pure-Rust branch and bound over minilp (small problems).
    Minilp,
    /// COIN-OR CBC (needs the crate feature `cbc`).
    Cbc,
}

impl Default for MipBackend {
    /// CBC when compiled in, else minilp.
    fn default() -> Self {
        if cfg!(feature = "cbc") {
            MipBackend::Cbc
        } else {
            MipBackend::Minilp
        }
    }
}

/// What the exact pricer found.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactOutcome {
    /// The best conjunction found (recomputed), if the solver has one.
    pub best: Option<PricedRule>,
    /// Whether the optimum was proven (no limit hit).
    pub proven: bool,
    /// A proven lower bound on the value of every conjunction.
    pub bound: f64,
}

fn run_mip(backend: MipBackend, model: &Model, opts: &MipOptions) -> Result<rc_lp::MipSolution> {
    match backend {
        MipBackend::Minilp => {
            let s = rc_lp::MinilpSolver::new().with_max_size(usize::MAX);
            Ok(s.solve_mip(model, opts)?)
        }
        #[cfg(feature = "cbc")]
        MipBackend::Cbc => Ok(rc_lp::CbcSolver::new().solve_mip(model, opts)?),
        #[cfg(not(feature = "cbc"))]
        MipBackend::Cbc => Err(Error::BackendUnavailable("cbc")),
    }
}

/// Solves the pricing IP (9) exactly:
///
/// ```text
/// min  Σ_i c_i a_i + λ0 + λ1 Σ_j z_j
/// s.t. a_i + Σ_{j: x_ij = 0} z_j ≥ 1     i with c_i > 0
///      a_i + z_j ≤ 1                     i with c_i < 0, j with x_ij = 0
///      1 ≤ Σ_j z_j ≤ max_degree,  0 ≤ a_i ≤ 1,  z_j ∈ {0, 1}
/// ```
///
/// `start` (e.g. the heuristic's rule) seeds the incumbent.
pub fn exact(
    problem: &PricingProblem,
    max_degree: usize,
    backend: MipBackend,
    time_limit: Option<Duration>,
    start: Option<&[usize]>,
) -> Result<ExactOutcome> {
    let t0 = Instant::now();
    let d = problem.literals.len();
    let n = problem.matrix.n_rows();
    // The objective is scaled by n so that its coefficients are O(1) (the
    // costs carry a 1/n); values are reported unscaled.
    let scale = n.max(1) as f64;
    let mut m = Model::minimize();
    let z: Vec<_> = (0..d)
        .map(|_| m.add_binary(scale * problem.lambda1))
        .collect();
    let mut a_vars = Vec::new();
    for i in 0..n {
        let ci = problem.costs[i];
        if ci == 0.0 {
            continue;
        }
        let a = m.add_continuous(0.0, 1.0, scale * ci);
        a_vars.push((i, a));
        let failing: Vec<usize> = (0..d).filter(|&j| !problem.matrix.get(i, j)).collect();
        if ci > 0.0 {
            let mut terms = vec![(a, 1.0)];
            terms.extend(failing.iter().map(|&j| (z[j], 1.0)));
            m.add_ge(&terms, 1.0)?;
        } else {
            for &j in &failing {
                m.add_le(&[(a, 1.0), (z[j], 1.0)], 1.0)?;
            }
        }
    }
    let all: Vec<_> = z.iter().map(|&v| (v, 1.0)).collect();
    m.add_ge(&all, 1.0)?;
    m.add_le(&all, max_degree.max(1) as f64)?;
    let mut opts = MipOptions {
        time_limit,
        ..MipOptions::default()
    };
    if let Some(lits) = start.filter(|l| !l.is_empty() && l.len() <= max_degree) {
        let (_, rows) = rule_value(problem, lits);
        let mut x = vec![0.0; m.num_vars()];
        for &j in lits {
            x[z[j].index()] = 1.0;
        }
        let mut covered = Bits::new(n);
        for &r in &rows {
            covered.insert(r as usize);
        }
        for &(i, a) in &a_vars {
            x[a.index()] = if covered.contains(i) { 1.0 } else { 0.0 };
        }
        opts.initial_solution = Some(x);
    }
    let sol = run_mip(backend, &m, &opts)?;
    let sol = if sol.status == MipStatus::NumericalFailure && opts.initial_solution.is_some() {
        // CBC has been seen to report a numerical failure when given a
        // (feasible) starting solution; the same model solves without it.
        opts.initial_solution = None;
        run_mip(backend, &m, &opts)?
    } else {
        sol
    };
    let proven = sol.status == MipStatus::Optimal;
    if !proven && !sol.has_solution() {
        return Err(Error::PricingLimit {
            status: format!("{:?}", sol.status),
            seconds: t0.elapsed().as_secs_f64(),
        });
    }
    if matches!(
        sol.status,
        MipStatus::Infeasible | MipStatus::Unbounded | MipStatus::NumericalFailure
    ) {
        return Err(Error::PricingLimit {
            status: format!("{:?}", sol.status),
            seconds: t0.elapsed().as_secs_f64(),
        });
    }
    let best = if sol.has_solution() {
        let lits: Vec<usize> = (0..d).filter(|&j| sol.values[z[j].index()] > 0.5).collect();
        let (value, rows) = rule_value(problem, &lits);
        Some(PricedRule {
            literals: lits,
            value,
            rows,
        })
    } else {
        None
    };
    let bound = if proven {
        best.as_ref()
            .map_or(sol.best_bound / scale + problem.lambda0, |b| {
                b.value.min(sol.objective / scale + problem.lambda0)
            })
    } else {
        sol.best_bound / scale + problem.lambda0
    };
    Ok(ExactOutcome {
        best,
        proven,
        bound,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binarize::BinarizerParams;
    use rulecover_core::{Dataset, Feature, Rng, Target};

    fn toy(seed: u64, n: usize) -> (BinaryMatrix, Vec<Literal>, Vec<f64>) {
        let mut rng = Rng::new(seed);
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                vec![
                    rng.below(5) as f64,
                    rng.below(4) as f64,
                    rng.below(3) as f64,
                ]
            })
            .collect();
        let data = Dataset::from_rows(
            "toy",
            vec![
                Feature::numeric("a"),
                Feature::numeric("b"),
                Feature::categorical("c", vec!["x".into(), "y".into(), "z".into()]),
            ],
            &rows,
            Target::Real(vec![0.0; n]),
        )
        .unwrap();
        let b = BinarizerParams::default().fit(&data).unwrap();
        let m = b.transform(&data).unwrap();
        let costs: Vec<f64> = (0..n).map(|_| (rng.next_f64() - 0.5) / n as f64).collect();
        (m, b.literals().to_vec(), costs)
    }

    /// Every conjunction of up to `max_deg` columns, by brute force.
    fn brute_force(p: &PricingProblem, max_deg: usize) -> f64 {
        let d = p.literals.len();
        let mut best = f64::INFINITY;
        let mut stack: Vec<Vec<usize>> = (0..d).map(|j| vec![j]).collect();
        while let Some(s) = stack.pop() {
            best = best.min(rule_value(p, &s).0);
            if s.len() < max_deg {
                let last = *s.last().unwrap_or(&0);
                for j in last + 1..d {
                    let mut t = s.clone();
                    t.push(j);
                    stack.push(t);
                }
            }
        }
        best
    }

    #[test]
    fn heuristic_reports_recomputed_values() {
        for seed in 0..20 {
            let (m, lits, costs) = toy(seed, 60);
            for sign in [1.0, -1.0] {
                let c: Vec<f64> = costs.iter().map(|x| sign * x).collect();
                let p = PricingProblem {
                    matrix: &m,
                    literals: &lits,
                    costs: &c,
                    lambda0: 0.002,
                    lambda1: 0.0005,
                };
                for width in [1, 3] {
                    let params = BeamParams {
                        width,
                        ..BeamParams::default()
                    };
                    if let Some(r) = beam_search(&p, &params, 0.0) {
                        let (v, rows) = rule_value(&p, &r.literals);
                        assert!((v - r.value).abs() < 1e-12);
                        assert_eq!(rows, r.rows);
                        assert!(r.value < 0.0);
                    }
                }
            }
        }
    }

    #[test]
    fn exact_pricing_matches_brute_force() {
        for seed in 0..6 {
            let (m, lits, costs) = toy(seed, 24);
            let p = PricingProblem {
                matrix: &m,
                literals: &lits,
                costs: &costs,
                lambda0: 0.001,
                lambda1: 0.002,
            };
            let out = exact(&p, 3, MipBackend::default(), None, None).unwrap();
            assert!(out.proven);
            let bf = brute_force(&p, 3);
            let best = out.best.unwrap();
            assert!(
                (best.value - bf).abs() < 1e-9,
                "seed {seed}: {} vs {bf}",
                best.value
            );
            // The heuristic can only be worse (or equal).
            if let Some(h) = beam_search(&p, &BeamParams::default(), f64::INFINITY) {
                assert!(h.value >= bf - 1e-12);
            }
        }
    }
}
