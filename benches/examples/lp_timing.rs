//! One timed solve of each LP/IP of the `cover` criterion bench per backend
//! (criterion's ten samples take too long for minilp on 20k-row LPs):
//!
//! ```text
//! cargo run --release -p rc-benches --features cbc,highs --example lp_timing -- [rows] [--no-minilp] [--only NAME]
//! ```
//!
//! `--only NAME` runs only the problems whose label contains `NAME` (e.g.
//! `colgen`, `rux`, `cover_relaxation`, `set_cover`).
//!
//! Prints wall times and objectives; backends must agree on every optimum.

use std::time::{Duration, Instant};

use rc_benches::lp_problems::{
    cover_costs, cover_relaxation, forest_pool, lp_backends, mip_backends, rux_master, set_cover_ip,
};
use rc_cover::LpForm;
use rc_lp::{LpSolver, LpStatus, MipOptions, Model};

fn report(problem: &str, backend: &str, seconds: f64, outcome: String) {
    println!("{problem:<28} {backend:<11} {seconds:>9.3} s  {outcome}");
}

fn solve_once(problem: &str, model: &Model, backends: &[(&str, Box<dyn LpSolver>)]) {
    let mut first: Option<f64> = None;
    for (name, solver) in backends {
        let start = Instant::now();
        let sol = solver.solve_lp(model);
        let secs = start.elapsed().as_secs_f64();
        let outcome = match sol {
            Ok(s) if s.status == LpStatus::Optimal => {
                let agree = first.map_or(String::new(), |f| {
                    format!("  (Δ vs first {:+.2e})", s.objective - f)
                });
                first.get_or_insert(s.objective);
                format!("objective {:.6}{agree}", s.objective)
            }
            Ok(s) => format!("status {:?}", s.status),
            Err(e) => format!("error: {e}"),
        };
        report(problem, name, secs, outcome);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rows: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(20_000);
    let minilp = !args.iter().any(|a| a == "--no-minilp");
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|k| args.get(k + 1))
        .cloned()
        .unwrap_or_default();
    let wanted = |label: &str| label.contains(only.as_str());
    let backends = lp_backends(minilp, true);

    let train = rc_benches::generated(rows, 4);
    let pool = forest_pool(&train, 100, 3);
    let cover = cover_relaxation(&pool);
    println!(
        "RF(100 trees, depth 3) on twonorm with {rows} rows: {} rules",
        pool.len()
    );
    println!(
        "cover relaxation: {} rows x {} columns",
        cover.num_rows(),
        cover.num_vars()
    );
    if wanted("lp/cover_relaxation") {
        solve_once("lp/cover_relaxation", &cover, &backends);
    }
    for form in [LpForm::Dual, LpForm::Primal] {
        let label = format!("lp/rux_master_{form:?}");
        if !wanted(&label) {
            continue;
        }
        let rux = rux_master(&pool, &train, form);
        println!(
            "RUX master ({form:?} form): {} rows x {} columns, {} nonzeros",
            rux.num_rows(),
            rux.num_vars(),
            rux.num_nonzeros()
        );
        solve_once(&label, &rux, &backends);
    }

    // Column generation: the cover LP grown in 10 batches, re-solved each time.
    let costs = cover_costs(&pool);
    let colgen_backends = if wanted("lp_colgen/cover_10_rounds") {
        backends.as_slice()
    } else {
        &[]
    };
    for (name, solver) in colgen_backends {
        let start = Instant::now();
        let mut m = Model::minimize();
        let row_ids: Vec<_> = (0..train.n_rows())
            .map(|_| m.add_ge(&[], 1.0).expect("row"))
            .collect();
        let mut objective = f64::NAN;
        for k in 0..10 {
            let batch = k * pool.len() / 10..(k + 1) * pool.len() / 10;
            for (j, &cost) in costs.iter().enumerate().take(batch.end).skip(batch.start) {
                let entries: Vec<_> = pool
                    .coverage
                    .rows_of(j)
                    .iter()
                    .map(|&i| (row_ids[i as usize], 1.0))
                    .collect();
                m.add_column(cost, (0.0, f64::INFINITY), &entries)
                    .expect("column");
            }
            objective = match solver.solve_lp(&m) {
                Ok(s) => s.objective,
                Err(e) => {
                    println!("{name}: error {e}");
                    break;
                }
            };
        }
        report(
            "lp_colgen/cover_10_rounds",
            name,
            start.elapsed().as_secs_f64(),
            format!("final objective {objective:.6}"),
        );
    }

    if !wanted("ip/set_cover_2k") {
        return;
    }
    let small = rc_benches::generated(2_000, 5);
    let ip = set_cover_ip(&forest_pool(&small, 10, 3));
    println!(
        "set-cover IP: {} rows x {} binaries",
        ip.num_rows(),
        ip.num_vars()
    );
    let opts = MipOptions::default().with_time_limit(Duration::from_secs(120));
    for (name, solver) in mip_backends() {
        let start = Instant::now();
        let sol = solver.solve_mip(&ip, &opts);
        let outcome = match sol {
            Ok(s) => format!("{:?} objective {:.6}", s.status, s.objective),
            Err(e) => format!("error: {e}"),
        };
        report(
            "ip/set_cover_2k",
            name,
            start.elapsed().as_secs_f64(),
            outcome,
        );
    }
}
