//! Shared test helpers: backend lists, a KKT checker, random model generators.
#![allow(dead_code)]

use rc_lp::{LpSolution, LpSolver, MinilpSolver, MipSolver, Model, Sense, VarId};

/// Proptest configuration: few cases, fixed seed (reproducible in CI), no
/// regression files.
pub fn proptest_config(cases: u32, seed: u64) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// Every LP backend built in this configuration.
pub fn lp_solvers() -> Vec<(&'static str, Box<dyn LpSolver>)> {
    #[allow(unused_mut)]
    let mut v: Vec<(&'static str, Box<dyn LpSolver>)> =
        vec![("minilp", Box::new(MinilpSolver::new()))];
    #[cfg(feature = "cbc")]
    v.push(("cbc", Box::new(rc_lp::CbcSolver::new())));
    #[cfg(feature = "highs")]
    v.push(("highs", Box::new(rc_lp::HighsSolver::new())));
    #[cfg(feature = "highs")]
    v.push((
        "highs-dual-simplex",
        Box::new(rc_lp::HighsSolver::new().with_dual_simplex(true)),
    ));
    #[cfg(feature = "highs")]
    v.push((
        "highs-no-presolve",
        Box::new(rc_lp::HighsSolver::new().with_presolve(false)),
    ));
    #[cfg(feature = "highs")]
    v.push((
        "highs-interior-point",
        Box::new(rc_lp::HighsSolver::new().with_interior_point(true)),
    ));
    #[cfg(feature = "highs")]
    v.push((
        "highs-primal-simplex",
        Box::new(rc_lp::HighsSolver::new().with_algorithm(rc_lp::HighsAlgorithm::PrimalSimplex)),
    ));
    #[cfg(feature = "highs")]
    v.push((
        "highs-ipm-no-crossover",
        Box::new(
            rc_lp::HighsSolver::new()
                .with_algorithm(rc_lp::HighsAlgorithm::InteriorPointNoCrossover),
        ),
    ));
    #[cfg(feature = "highs")]
    v.push((
        "highs-auto",
        Box::new(rc_lp::HighsSolver::new().with_algorithm(rc_lp::HighsAlgorithm::Auto)),
    ));
    v
}

/// Every MIP backend built in this configuration.
pub fn mip_solvers() -> Vec<(&'static str, Box<dyn MipSolver>)> {
    #[allow(unused_mut)]
    let mut v: Vec<(&'static str, Box<dyn MipSolver>)> =
        vec![("minilp", Box::new(MinilpSolver::new()))];
    #[cfg(feature = "cbc")]
    v.push(("cbc", Box::new(rc_lp::CbcSolver::new())));
    #[cfg(feature = "highs")]
    v.push(("highs", Box::new(rc_lp::HighsSolver::new())));
    v
}

pub fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

/// Checks primal feasibility, `d = c − Aᵀy`, dual feasibility (sign rules of the
/// documented convention), complementary slackness and strong duality.
/// Returns a description of the first violation.
///
/// `tol` is relative to `1 + |bound|` for primal quantities and to `1 + max|c_j|`
/// for duals, the documented accuracies of the solvers' answers.
pub fn check_kkt(m: &Model, sol: &LpSolution, tol: f64) -> Result<(), String> {
    let dtol = tol * (1.0 + m.vars().iter().fold(0.0f64, |a, v| a.max(v.obj.abs())));
    let s = match m.sense() {
        Sense::Minimize => 1.0,
        Sense::Maximize => -1.0,
    };
    let x = &sol.primal;
    let y = &sol.row_duals;
    let d = &sol.reduced_costs;
    if x.len() != m.num_vars() || y.len() != m.num_rows() || d.len() != m.num_vars() {
        return Err("wrong vector lengths".into());
    }
    let scale = 1.0
        + m.rows()
            .iter()
            .flat_map(|r| [r.lower, r.upper])
            .chain(m.vars().iter().flat_map(|v| [v.lower, v.upper]))
            .filter(|b| b.is_finite())
            .fold(0.0f64, |a, b| a.max(b.abs()));
    if m.max_violation(x, false) > tol * scale {
        return Err(format!(
            "primal infeasible by {}",
            m.max_violation(x, false)
        ));
    }
    let act = m.row_activities(x);
    for (i, a) in act.iter().enumerate() {
        if !close(*a, sol.row_activity[i], tol) {
            return Err(format!("row activity {i} mismatch"));
        }
    }
    if !close(m.objective_value(x), sol.objective, tol) {
        return Err("objective is not c·x".into());
    }
    let mut dual_obj = 0.0;
    for (i, row) in m.rows().iter().enumerate() {
        let yi = s * y[i];
        let at_lo =
            row.lower.is_finite() && (act[i] - row.lower).abs() <= tol * (1.0 + row.lower.abs());
        let at_up =
            row.upper.is_finite() && (act[i] - row.upper).abs() <= tol * (1.0 + row.upper.abs());
        if yi > dtol && !at_lo {
            return Err(format!(
                "row {i}: y = {} but row not at its lower bound",
                y[i]
            ));
        }
        if yi < -dtol && !at_up {
            return Err(format!(
                "row {i}: y = {} but row not at its upper bound",
                y[i]
            ));
        }
        if yi > 0.0 && row.lower.is_finite() {
            dual_obj += y[i] * row.lower;
        } else if yi < 0.0 && row.upper.is_finite() {
            dual_obj += y[i] * row.upper;
        }
    }
    for (j, var) in m.vars().iter().enumerate() {
        let col = m.column(m.var_id(j).unwrap()).unwrap();
        let dj = var.obj - col.iter().map(|&(r, a)| a * y[r.index()]).sum::<f64>();
        if !close(dj, d[j], dtol) {
            return Err(format!("reduced cost {j}: {} != c - A'y = {dj}", d[j]));
        }
        let sd = s * d[j];
        let at_lo =
            var.lower.is_finite() && (x[j] - var.lower).abs() <= tol * (1.0 + var.lower.abs());
        let at_up =
            var.upper.is_finite() && (x[j] - var.upper).abs() <= tol * (1.0 + var.upper.abs());
        if sd > dtol && !at_lo {
            return Err(format!(
                "x{j} = {}: d = {} but not at lower bound",
                x[j], d[j]
            ));
        }
        if sd < -dtol && !at_up {
            return Err(format!(
                "x{j} = {}: d = {} but not at upper bound",
                x[j], d[j]
            ));
        }
        if sd > 0.0 && var.lower.is_finite() {
            dual_obj += d[j] * var.lower;
        } else if sd < 0.0 && var.upper.is_finite() {
            dual_obj += d[j] * var.upper;
        }
    }
    if !close(dual_obj, sol.objective, tol) {
        return Err(format!(
            "strong duality: primal {} vs dual {dual_obj}",
            sol.objective
        ));
    }
    Ok(())
}

/// Tiny deterministic PRNG (splitmix64) so generated models depend only on a seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform integer in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

/// A random LP that is feasible (it contains a point `x*`) and bounded (its dual
/// contains a point `(y*, d*)`), with `rows x cols` size, mixed row types
/// (`<=`, `>=`, `=`, ranges), mixed bounds (boxed, lower only, upper only, free)
/// and a random sense. Coefficients are small integers.
pub fn random_lp(seed: u64, rows: usize, cols: usize) -> Model {
    let mut g = Rng::new(seed);
    let sense = if g.chance(0.5) {
        Sense::Minimize
    } else {
        Sense::Maximize
    };
    let mut m = Model::new(sense);
    // Primal point and bounds.
    let xs: Vec<f64> = (0..cols).map(|_| g.int(-4, 8) as f64 / 2.0).collect();
    let mut kinds = Vec::new(); // 0 boxed, 1 lower, 2 upper, 3 free
    let mut vars = Vec::new();
    for &xj in &xs {
        let k = match g.int(0, 9) {
            0..=5 => 0,
            6 | 7 => 1,
            8 => 2,
            _ => 3,
        };
        let lo = xj - g.int(0, 2) as f64;
        let up = xj + g.int(0, 2) as f64;
        let (l, u) = match k {
            0 => (lo, up),
            1 => (lo, f64::INFINITY),
            2 => (f64::NEG_INFINITY, up),
            _ => (f64::NEG_INFINITY, f64::INFINITY),
        };
        kinds.push(k);
        vars.push(m.add_continuous(l, u, 0.0));
    }
    // Rows.
    let mut a = vec![vec![0.0; cols]; rows];
    let mut row_kinds = Vec::new(); // 0 >=, 1 <=, 2 =, 3 range
    for row in a.iter_mut() {
        for v in row.iter_mut() {
            if g.chance(0.6) {
                *v = g.int(-3, 3) as f64;
            }
        }
        let act: f64 = row.iter().zip(&xs).map(|(a, x)| a * x).sum();
        let k = g.int(0, 3);
        let (lo, up) = match k {
            0 => (act - g.int(0, 1) as f64, f64::INFINITY),
            1 => (f64::NEG_INFINITY, act + g.int(0, 1) as f64),
            2 => (act, act),
            _ => (act - g.int(0, 2) as f64, act + g.int(0, 2) as f64),
        };
        row_kinds.push(k);
        let terms: Vec<(VarId, f64)> = vars.iter().copied().zip(row.iter().copied()).collect();
        m.add_row(lo, up, &terms).unwrap();
    }
    // Dual point -> objective c = Aᵀy* + d* (minimisation form), making the LP bounded.
    let ys: Vec<f64> = row_kinds
        .iter()
        .map(|&k| {
            let v = g.int(0, 3) as f64;
            match k {
                0 => v,
                1 => -v,
                _ => g.int(-3, 3) as f64,
            }
        })
        .collect();
    for j in 0..cols {
        let dj = match kinds[j] {
            0 => g.int(-3, 3) as f64,
            1 => g.int(0, 3) as f64,
            2 => -(g.int(0, 3) as f64),
            _ => 0.0,
        };
        let c: f64 = (0..rows).map(|i| a[i][j] * ys[i]).sum::<f64>() + dj;
        let c = match sense {
            Sense::Minimize => c,
            Sense::Maximize => -c,
        };
        m.set_obj(vars[j], c).unwrap();
    }
    m
}

/// A random set-cover IP: `rows` elements, `cols` binary sets with integer costs
/// in `1..=9`, every element covered by at least one set.
pub fn random_set_cover(seed: u64, rows: usize, cols: usize, density: f64) -> Model {
    random_set_cover_costs(seed, rows, cols, density, 9)
}

/// Like [`random_set_cover`] with costs in `1..=max_cost` (1: unicost, the hard case).
pub fn random_set_cover_costs(
    seed: u64,
    rows: usize,
    cols: usize,
    density: f64,
    max_cost: i64,
) -> Model {
    let mut g = Rng::new(seed);
    let mut cover = vec![vec![false; cols]; rows];
    for row in cover.iter_mut() {
        for v in row.iter_mut() {
            *v = g.chance(density);
        }
        if !row.iter().any(|&b| b) {
            let j = g.int(0, cols as i64 - 1) as usize;
            row[j] = true;
        }
    }
    let mut m = Model::minimize();
    let vars: Vec<VarId> = (0..cols)
        .map(|_| m.add_binary(g.int(1, max_cost) as f64))
        .collect();
    for row in &cover {
        let terms: Vec<(VarId, f64)> = row
            .iter()
            .enumerate()
            .filter(|(_, &b)| b)
            .map(|(j, _)| (vars[j], 1.0))
            .collect();
        m.add_ge(&terms, 1.0).unwrap();
    }
    m
}

/// Optimal value of a pure binary model by enumeration (`None` when infeasible).
pub fn brute_force_binary(m: &Model) -> Option<f64> {
    let n = m.num_vars();
    assert!(n <= 20);
    let mut best: Option<f64> = None;
    let s = match m.sense() {
        Sense::Minimize => 1.0,
        Sense::Maximize => -1.0,
    };
    for mask in 0u32..(1u32 << n) {
        let x: Vec<f64> = (0..n).map(|j| ((mask >> j) & 1) as f64).collect();
        if m.max_violation(&x, true) <= 1e-9 {
            let v = m.objective_value(&x);
            if best.is_none_or(|b| s * v < s * b) {
                best = Some(v);
            }
        }
    }
    best
}

/// A random LP that may be infeasible or unbounded: arbitrary right-hand sides,
/// costs and bounds.
pub fn random_any_lp(seed: u64, rows: usize, cols: usize) -> Model {
    let mut g = Rng::new(seed);
    let mut m = Model::new(if g.chance(0.5) {
        Sense::Minimize
    } else {
        Sense::Maximize
    });
    let vars: Vec<VarId> = (0..cols)
        .map(|_| {
            let lo = if g.chance(0.8) {
                g.int(-3, 1) as f64
            } else {
                f64::NEG_INFINITY
            };
            let up = if g.chance(0.5) {
                g.int(2, 5) as f64
            } else {
                f64::INFINITY
            };
            m.add_continuous(lo, up, g.int(-4, 4) as f64)
        })
        .collect();
    for _ in 0..rows {
        let mut terms: Vec<(VarId, f64)> = Vec::new();
        for &v in &vars {
            if g.chance(0.6) {
                terms.push((v, g.int(-3, 3) as f64));
            }
        }
        let b = g.int(-6, 6) as f64;
        match g.int(0, 3) {
            0 => m.add_le(&terms, b).unwrap(),
            1 => m.add_ge(&terms, b).unwrap(),
            2 => m.add_eq(&terms, b).unwrap(),
            _ => m.add_range(b, &terms, b + g.int(0, 4) as f64).unwrap(),
        };
    }
    m
}
