//! Times one RCBoost fit per (data set, depth, cap) on the shared data,
//! with minilp and (with feature `cbc`) CBC as the master LP solver.
//!
//! `cargo run -p rc-colgen --release --features cbc --example rcboost_timing -- phoneme 20 200`

use std::time::Instant;

use rc_colgen::{RcBoostParams, TreeOracle};
use rc_lp::LpSolver;
use rulecover_core::shared::{locate_data_dir, SharedData};
use rulecover_core::RuleModel;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("phoneme", String::as_str);
    let depth: usize = args.get(1).map_or(Ok(10), |s| s.parse())?;
    let cap: usize = args.get(2).map_or(Ok(100), |s| s.parse())?;
    let dir = locate_data_dir(None)
        .map_err(|tried| format!("no data directory (looked in {tried:?})"))?;
    let data = SharedData::open(&dir)?.load(name)?.one_hot(true)?;
    #[cfg_attr(not(feature = "cbc"), allow(unused_mut))]
    let mut solvers: Vec<(&str, Box<dyn LpSolver>)> =
        vec![("minilp", Box::new(rc_lp::MinilpSolver::new()))];
    #[cfg(feature = "cbc")]
    solvers.push(("cbc", Box::new(rc_lp::CbcSolver::new())));
    for (label, solver) in &solvers {
        let params = RcBoostParams::default()
            .max_depth(depth)
            .max_rmp_calls(cap)
            .seed(25);
        let mut oracle = TreeOracle::new(params.tree_params());
        let t = Instant::now();
        let model = params.fit_with(&data, None, &mut oracle, solver.as_ref())?;
        println!(
            "{name} depth {depth} cap {cap} {label}: {:.2} s, {} LP solves, {} rules",
            t.elapsed().as_secs_f64(),
            model.lp_solves(),
            model.n_rules()
        );
    }
    Ok(())
}
