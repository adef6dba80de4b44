//! The LPs and IPs the project really solves, built from a random forest's
//! leaves on generated data: the LP relaxation of MIRCO's set cover
//! (RCBoost's master), RUX's master LP (3), and the exact set-cover IP.

use rc_cover::exact::set_cover_model;
use rc_cover::rux_lp::{CoverageRows, LpForm, RuleLp};
use rc_cover::{Impurity, LabeledPool};
use rc_lp::{LpSolver, MinilpSolver, MipSolver, Model};
use rc_tree::RandomForestParams;
use rulecover_core::{Dataset, Fit};

/// A forest's leaves on `train` as a labelled pool (seeded, so every run
/// builds the same LPs).
pub fn forest_pool(train: &Dataset, trees: usize, depth: usize) -> LabeledPool {
    let rf = RandomForestParams::classifier()
        .n_estimators(trees)
        .max_depth(depth)
        .seed(0)
        .fit(train)
        .expect("forest on generated data");
    LabeledPool::from_source(&rf, train).expect("pool of a forest covers every row")
}

/// MIRCO's costs `1 + gini` of the pool's rules.
pub fn cover_costs(pool: &LabeledPool) -> Vec<f64> {
    pool.costs(Impurity::Gini, 1.0)
}

/// The LP relaxation of MIRCO's set cover (1) over the pool: RCBoost's
/// master problem with the whole pool.
pub fn cover_relaxation(pool: &LabeledPool) -> Model {
    set_cover_model(&pool.coverage, &cover_costs(pool))
        .expect("set-cover model")
        .relaxation()
}

/// The exact set-cover IP (1) over the pool.
pub fn set_cover_ip(pool: &LabeledPool) -> Model {
    set_cover_model(&pool.coverage, &cover_costs(pool)).expect("set-cover model")
}

/// RUX's master LP (3) over the pool as RUX builds it: majority-vote labels,
/// costs by rule length normalised by their maximum, ε = 0.01, a coverage
/// row for every sample, rows with equal coverage pattern and class
/// aggregated except in [`LpForm::PrimalRows`], in the given form
/// ([`LpForm::Primal`]: (3) as written; [`LpForm::Dual`]: its dual, RUX's
/// default).
pub fn rux_master(pool: &LabeledPool, train: &Dataset, form: LpForm) -> Model {
    let labels = train.labels().expect("class labels");
    let max_len = pool.rules.iter().map(|r| r.rule.len()).max().unwrap_or(1) as f64;
    let mut lp = RuleLp::new(&labels, 0.01, CoverageRows::All)
        .expect("rule LP")
        .with_form(form);
    for (j, rule) in pool.rules.iter().enumerate() {
        let rows = pool.coverage.rows_of(j).to_vec();
        let mut votes = vec![0usize; train.n_classes()];
        for &i in &rows {
            votes[labels[i as usize]] += 1;
        }
        // Majority label, ties to the lowest class.
        let label = (0..votes.len())
            .max_by_key(|&k| (votes[k], std::cmp::Reverse(k)))
            .unwrap_or(0);
        lp.add_rule(rows, label, rule.rule.len() as f64 / max_len)
            .expect("rule");
    }
    lp.model().expect("model")
}

/// Every LP backend of this build by name: minilp (unless `minilp` is
/// false), CBC with feature `cbc`, HiGHS with feature `highs` (and, when
/// `highs_cold`, HiGHS with warm starts off as `highs_cold`).
pub fn lp_backends(minilp: bool, highs_cold: bool) -> Vec<(&'static str, Box<dyn LpSolver>)> {
    let mut v: Vec<(&'static str, Box<dyn LpSolver>)> = Vec::new();
    if minilp {
        v.push(("minilp", Box::new(MinilpSolver::new())));
    }
    #[cfg(feature = "cbc")]
    v.push(("cbc", Box::new(rc_lp::CbcSolver::new())));
    #[cfg(feature = "highs")]
    {
        v.push(("highs", Box::new(rc_lp::HighsSolver::new())));
        if highs_cold {
            v.push((
                "highs_cold",
                Box::new(rc_lp::HighsSolver::new().with_warm_start(false)),
            ));
        }
    }
    #[cfg(not(feature = "highs"))]
    let _ = highs_cold;
    v
}

/// Every MIP backend of this build by name (minilp's branch and bound, CBC,
/// HiGHS).
pub fn mip_backends() -> Vec<(&'static str, Box<dyn MipSolver>)> {
    #[allow(unused_mut)]
    let mut v: Vec<(&'static str, Box<dyn MipSolver>)> =
        vec![("minilp_bnb", Box::new(MinilpSolver::new()))];
    #[cfg(feature = "cbc")]
    v.push(("cbc", Box::new(rc_lp::CbcSolver::new())));
    #[cfg(feature = "highs")]
    v.push(("highs", Box::new(rc_lp::HighsSolver::new())));
    v
}
