//! Times one RUG fit (one grid point) per data set and LP backend:
//! `cargo run -p rc-colgen --release [--features cbc,highs] --example rug_timing -- DEPTH [CAP] DATASET...`.
//! `RUG_SOLVERS=highs,cbc` restricts the backends timed (default: all built);
//! `RUG_FORM=primal|rows` switches the LP form handed to the solver,
//! `RUG_POLICY=active|grow` the rules it sees; `RUG_COLD=1` solves every
//! master LP cold (HiGHS without row warm starts); `RUG_HIGHS_LOG=1`
//! prints HiGHS's log.
//! Needs the shared data directory (`$RC_DATA_DIR` or ../shared/datasets).

use std::time::Instant;

use rc_colgen::RugParams;
use rc_lp::{LpSolver, MinilpSolver};
use rulecover_core::shared::{locate_data_dir, SharedData};
use rulecover_core::RuleModel;

/// Records every model solved and how long each solve took.
struct Recording<'a> {
    inner: &'a dyn LpSolver,
    log: std::cell::RefCell<Vec<(rc_lp::Model, f64)>>,
}

impl LpSolver for Recording<'_> {
    fn solve_lp(&self, model: &rc_lp::Model) -> Result<rc_lp::LpSolution, rc_lp::Error> {
        let t = Instant::now();
        let r = self.inner.solve_lp(model);
        self.log
            .borrow_mut()
            .push((model.clone(), t.elapsed().as_secs_f64()));
        r
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: usize = args.first().map_or(Ok(3), |s| s.parse())?;
    let cap: usize = args.get(1).map_or(Ok(30), |s| s.parse())?;
    let root =
        locate_data_dir(None).map_err(|tried| format!("no data directory (tried {tried:?})"))?;
    let shared = SharedData::open(&root)?;
    let mut solvers: Vec<(&str, Box<dyn LpSolver>)> = vec![];
    #[cfg(feature = "highs")]
    solvers.push((
        "highs",
        Box::new(
            rc_lp::HighsSolver::new()
                .with_dual_simplex(std::env::var("HIGHS_CHOOSE").is_err())
                .with_row_warm_start(std::env::var("RUG_COLD").is_err())
                .with_log(std::env::var("RUG_HIGHS_LOG").is_ok()),
        ),
    ));
    #[cfg(feature = "cbc")]
    solvers.push(("cbc", Box::new(rc_lp::CbcSolver::new())));
    solvers.push(("minilp", Box::new(MinilpSolver::new())));
    if let Ok(keep) = std::env::var("RUG_SOLVERS") {
        solvers.retain(|(n, _)| keep.split(',').any(|k| k == *n));
    }
    let form = match std::env::var("RUG_FORM").as_deref() {
        Ok("primal") => rc_cover::LpForm::Primal,
        Ok("rows") => rc_cover::LpForm::PrimalRows,
        _ => rc_cover::LpForm::Dual,
    };
    for name in &args[2.min(args.len())..] {
        let data = shared.load(name)?.one_hot(false)?;
        let n = data.n_rows();
        let train = data.subset(&(0..n).filter(|i| i % 10 != 0).collect::<Vec<_>>())?;
        for (sname, solver) in &solvers {
            let policy = match std::env::var("RUG_POLICY").as_deref() {
                Ok("active") => rc_cover::ColumnPolicy::Active,
                Ok("grow") => rc_cover::ColumnPolicy::Grow,
                _ => rc_cover::ColumnPolicy::All,
            };
            let mut params = RugParams::default()
                .max_depth(depth)
                .max_rmp_calls(cap)
                .form(form);
            params.lp = params.lp.policy(policy);
            let mut oracle = rc_colgen::TreeOracle::new(params.tree_params());
            let t = Instant::now();
            let rec = Recording {
                inner: solver.as_ref(),
                log: Default::default(),
            };
            let m = params.fit_with(&train, None, &mut oracle, &rec)?;
            if std::env::var("RUG_PROFILE").is_ok() {
                // Re-solve the recorded LPs without duals: the difference is
                // the cost of rc-lp's dual recovery.
                let skip: Box<dyn LpSolver> = match *sname {
                    #[cfg(feature = "highs")]
                    "highs" => Box::new(
                        rc_lp::HighsSolver::new()
                            .with_dual_simplex(std::env::var("HIGHS_CHOOSE").is_err())
                            .with_duals(rc_lp::DualMethod::Skip),
                    ),
                    #[cfg(feature = "cbc")]
                    "cbc" => Box::new(rc_lp::CbcSolver::new().with_duals(rc_lp::DualMethod::Skip)),
                    _ => Box::new(MinilpSolver::new().with_duals(rc_lp::DualMethod::Skip)),
                };
                if let Some((last, _)) = rec.log.borrow().last() {
                    let path = std::env::temp_dir()
                        .join(format!("rug_{name}_{sname}_last.mps"))
                        .display()
                        .to_string();
                    rc_lp::write_mps(last, std::io::BufWriter::new(std::fs::File::create(&path)?))?;
                }
                for (k, (model, secs)) in rec.log.borrow().iter().enumerate() {
                    let t = Instant::now();
                    skip.solve_lp(model)?;
                    println!("  solve {k}: {} rows x {} cols, {} nnz: with duals {secs:.3}s, primal only {:.3}s",
                        model.num_rows(), model.num_vars(), model.num_nonzeros(), t.elapsed().as_secs_f64());
                }
            }
            let h = m.history();
            println!(
                "{name:>14} {sname:>6} {form:?} depth {depth}: RUG {:6.2}s (LP {:6.2}s, {} solves, last LP {} rows), {} rules, pool {}, stop {:?}, objective {:.3}",
                t.elapsed().as_secs_f64(),
                m.rules().info().lp_seconds,
                m.lp_solves(),
                h.iter().rev().find(|r| r.lp_rows > 0).map_or(0, |r| r.lp_rows),
                m.n_rules(),
                m.pool_size(),
                m.stop_reason(),
                m.rules().info().objective,
            );
        }
    }
    Ok(())
}
