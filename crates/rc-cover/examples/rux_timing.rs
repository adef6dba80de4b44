//! Times RUX on a shared data set: `cargo run -p rc-cover --release
//! --example rux_timing [--features cbc,highs] -- DATASET [DEPTH] [TREES] [all|lazy|off] [dual|primal|rows] [all|grow|active]`.
//! `RUX_SOLVERS=highs,cbc` restricts the backends timed (default: all built);
//! `RUX_COLD=1` solves every LP cold (HiGHS without row warm starts, which
//! matter for the `grow` policy); `RUX_NO_PRESOLVE=1` switches HiGHS's
//! presolve off and `RUX_IPM=1` solves by interior point and crossover.
//! Needs the shared data directory (`$RC_DATA_DIR` or ../shared/datasets).

use std::time::Instant;

use rc_cover::{CoverageRows, LpForm, RuxParams};
use rc_lp::{DualMethod, LpSolver, MinilpSolver};
use rc_tree::RandomForestParams;
use rulecover_core::shared::{locate_data_dir, SharedData};
use rulecover_core::{Fit, RuleModel};

/// Times each LP solve of the wrapped solver and, when `skip` is given, the
/// same LP solved again without duals (their difference is rc-lp's dual
/// recovery).
struct Timed<'a> {
    inner: &'a dyn LpSolver,
    skip: Option<Box<dyn LpSolver>>,
}

impl LpSolver for Timed<'_> {
    fn solve_lp(&self, model: &rc_lp::Model) -> Result<rc_lp::LpSolution, rc_lp::Error> {
        let t = Instant::now();
        let r = self.inner.solve_lp(model);
        let with = t.elapsed().as_secs_f64();
        if let Some(skip) = &self.skip {
            let t = Instant::now();
            skip.solve_lp(model)?;
            println!(
                "    LP {} x {}, {} nnz: {with:.3}s, without duals {:.3}s",
                model.num_rows(),
                model.num_vars(),
                model.num_nonzeros(),
                t.elapsed().as_secs_f64()
            );
        }
        r
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("magic", String::as_str);
    let depth: usize = args.get(1).map_or(Ok(3), |s| s.parse())?;
    let trees: usize = args.get(2).map_or(Ok(200), |s| s.parse())?;
    let coverage = match args.get(3).map_or("lazy", String::as_str) {
        "all" => CoverageRows::All,
        "off" => CoverageRows::Off,
        _ => CoverageRows::Lazy,
    };
    let form = match args.get(4).map_or("dual", String::as_str) {
        "primal" => LpForm::Primal,
        "rows" => LpForm::PrimalRows,
        _ => LpForm::Dual,
    };
    let policy = match args.get(5).map_or("all", String::as_str) {
        "grow" => rc_cover::ColumnPolicy::Grow,
        "active" => rc_cover::ColumnPolicy::Active,
        _ => rc_cover::ColumnPolicy::All,
    };
    let skip = if form != LpForm::Dual {
        DualMethod::Skip
    } else {
        DualMethod::Restricted
    };
    let root =
        locate_data_dir(None).map_err(|tried| format!("no data directory (tried {tried:?})"))?;
    let data = SharedData::open(&root)?.load(name)?.one_hot(false)?;
    // A 90% training fold, as in 10-fold CV.
    let n = data.n_rows();
    let train = data.subset(&(0..n).filter(|i| i % 10 != 0).collect::<Vec<_>>())?;
    let t = Instant::now();
    let rf = RandomForestParams::classifier()
        .max_depth(depth)
        .n_estimators(trees)
        .seed(25)
        .fit(&train)?;
    println!(
        "{name}: {} rows, RF {trees}x depth {depth}: {} leaves, fit {:.2}s",
        train.n_rows(),
        rf.n_rules(),
        t.elapsed().as_secs_f64()
    );
    let mut solvers: Vec<(&str, Box<dyn LpSolver>)> = Vec::new();
    #[cfg(feature = "highs")]
    solvers.push((
        "highs",
        Box::new(
            rc_lp::HighsSolver::new()
                .with_dual_simplex(std::env::var("HIGHS_CHOOSE").is_err())
                .with_row_warm_start(std::env::var("RUX_COLD").is_err())
                .with_presolve(std::env::var("RUX_NO_PRESOLVE").is_err())
                .with_interior_point(std::env::var("RUX_IPM").is_ok())
                .with_duals(skip),
        ),
    ));
    #[cfg(feature = "cbc")]
    solvers.push(("cbc", Box::new(rc_lp::CbcSolver::new().with_duals(skip))));
    solvers.push(("minilp", Box::new(MinilpSolver::new().with_duals(skip))));
    if let Ok(keep) = std::env::var("RUX_SOLVERS") {
        solvers.retain(|(n, _)| keep.split(',').any(|k| k == *n));
    }
    if std::env::var("RUX_PROFILE").is_ok() {
        // Time the bare LP solves of the model RUX builds.
        let pool = rulecover_core::RuleSource::rule_pool(&rf);
        let cov = rulecover_core::RuleSource::pool_coverage(&rf, &train)?;
        let labelled = rc_cover::rux::label_rules(pool, &cov, &train)?;
        let mut lp = rc_cover::RuleLp::new(&train.labels()?, 0.01, coverage)?
            .with_form(form)
            .with_policy(policy);
        for (j, r) in labelled.iter().enumerate() {
            lp.add_rule(
                cov.rows_of(j).to_vec(),
                r.class,
                rc_cover::weighted::rule_length(&r.pool.rule) as f64 / depth as f64,
            )?;
        }
        let model = lp.model()?;
        rc_lp::write_mps(
            &model,
            std::io::BufWriter::new(std::fs::File::create(
                std::env::temp_dir().join(format!("rux_{name}_{form:?}.mps")),
            )?),
        )?;
        for (sname, solver) in &solvers {
            for d in [DualMethod::Skip, DualMethod::Restricted] {
                let s: Box<dyn LpSolver> = match *sname {
                    #[cfg(feature = "highs")]
                    "highs" => Box::new(
                        rc_lp::HighsSolver::new()
                            .with_dual_simplex(std::env::var("HIGHS_CHOOSE").is_err())
                            .with_duals(d),
                    ),
                    #[cfg(feature = "cbc")]
                    "cbc" => Box::new(rc_lp::CbcSolver::new().with_duals(d)),
                    _ => Box::new(MinilpSolver::new().with_duals(d)),
                };
                let _ = solver;
                let t = Instant::now();
                let sol = s.solve_lp(&model)?;
                println!(
                    "{sname:>6} {d:?}: {:.2}s status {:?} objective {:.4}",
                    t.elapsed().as_secs_f64(),
                    sol.status,
                    sol.objective
                );
            }
        }
        return Ok(());
    }
    for (sname, solver) in &solvers {
        let skip: Option<Box<dyn LpSolver>> = if std::env::var("RUX_SOLVE_TIMES").is_err() {
            None
        } else {
            match *sname {
                #[cfg(feature = "highs")]
                "highs" => Some(Box::new(
                    rc_lp::HighsSolver::new()
                        .with_dual_simplex(std::env::var("HIGHS_CHOOSE").is_err())
                        .with_duals(DualMethod::Skip)
                        .with_log(std::env::var("RUX_HIGHS_LOG").is_ok()),
                )),
                #[cfg(feature = "cbc")]
                "cbc" => Some(Box::new(
                    rc_lp::CbcSolver::new().with_duals(DualMethod::Skip),
                )),
                _ => Some(Box::new(MinilpSolver::new().with_duals(DualMethod::Skip))),
            }
        };
        let timed = Timed {
            inner: solver.as_ref(),
            skip,
        };
        let t = Instant::now();
        let m = RuxParams::for_forest()
            .coverage(coverage)
            .form(form)
            .policy(policy)
            .select_with(&rf, &train, None, &timed)?;
        let i = m.info();
        println!(
            "{sname:>6}: RUX {:.2}s (LP {:.2}s, {} solves, {} hinge + {} coverage rows, {} nnz): {} rules, objective {:.4}",
            t.elapsed().as_secs_f64(), i.lp_seconds, i.lp.solves, i.lp.hinge_rows, i.lp.coverage_rows, i.lp.nonzeros, m.n_rules(), i.objective
        );
    }
    Ok(())
}
