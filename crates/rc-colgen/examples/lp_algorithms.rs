//! Times HiGHS's LP algorithms on the LPs that RUX-RF and RUG build, to
//! measure the rule of `rc_lp::HighsAlgorithm::Auto`:
//! `cargo run -p rc-colgen --release --features highs --example lp_algorithms -- PROBLEM...`
//! where a PROBLEM is a shared data set's name (its 90 % training split, as
//! in 10-fold CV) or `twonorm:N` (N generated rows, all used). For each it
//! fits a random forest (`TREES` trees, default 100, of depth `DEPTH`,
//! default 3), records the LP RUX solves cold on its leaves, and (unless
//! `NO_RUG=1`) the first and last master LPs of one RUG fit (depth 3, cap
//! 30), each recorded while solved by `RECORD` (default `dual`; any
//! algorithm name below); then solves each recorded LP cold with every
//! algorithm of `ALGOS`
//! (default `dual,ipm,ipm-nox,primal,auto`), `REPEAT` times (default 1)
//! interleaved, with a wall-clock limit of `LIMIT` seconds (default 120).
//! One line per solve: problem, LP, rows × columns, nonzeros, algorithm,
//! wall and CPU seconds, status, objective and the number of rows with a
//! nonzero dual (RUX's rules with positive weight). `RUX_FIT=1` also times
//! whole RUX-RF fits with the old default (dual simplex) and the new one
//! (`Auto`). Needs the shared data directory (`$RC_DATA_DIR` or
//! ../shared/datasets) for named data sets.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use rc_colgen::RugParams;
use rc_cover::RuxParams;
use rc_lp::{HighsAlgorithm, HighsSolver, LpSolver, Model};
use rc_tree::RandomForestParams;
use rulecover_core::shared::{locate_data_dir, SharedData};
use rulecover_core::{Dataset, Fit, RuleModel};

/// Records every model solved.
struct Recording<'a> {
    inner: &'a dyn LpSolver,
    models: RefCell<Vec<Model>>,
}

impl LpSolver for Recording<'_> {
    fn solve_lp(&self, model: &Model) -> Result<rc_lp::LpSolution, rc_lp::Error> {
        self.models.borrow_mut().push(model.clone());
        self.inner.solve_lp(model)
    }
}

/// CPU seconds (user + system, all threads) of this process so far.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name, which is in parentheses.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 here.
    (ticks(11) + ticks(12)) / 100.0
}

fn algorithm(name: &str) -> Result<HighsAlgorithm, String> {
    Ok(match name {
        "dual" => HighsAlgorithm::DualSimplex,
        "primal" => HighsAlgorithm::PrimalSimplex,
        "ipm" => HighsAlgorithm::InteriorPoint,
        "ipm-nox" => HighsAlgorithm::InteriorPointNoCrossover,
        "choose" => HighsAlgorithm::Choose,
        "auto" => HighsAlgorithm::Auto,
        other => return Err(format!("unknown algorithm {other}")),
    })
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn load(problem: &str) -> Result<Dataset, Box<dyn std::error::Error>> {
    if let Some(n) = problem.strip_prefix("twonorm:") {
        return Ok(rulecover_core::generate::twonorm(n.parse()?, 7));
    }
    let root =
        locate_data_dir(None).map_err(|tried| format!("no data directory (tried {tried:?})"))?;
    let data = SharedData::open(&root)?.load(problem)?.one_hot(false)?;
    let n = data.n_rows();
    Ok(data.subset(&(0..n).filter(|i| i % 10 != 0).collect::<Vec<_>>())?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let trees: usize = env_or("TREES", 100);
    let depth: usize = env_or("DEPTH", 3);
    let repeat: usize = env_or("REPEAT", 1);
    let limit = Duration::from_secs_f64(env_or("LIMIT", 120.0));
    let algos = std::env::var("ALGOS").unwrap_or_else(|_| "dual,ipm,ipm-nox,primal,auto".into());
    let algos: Vec<(&str, HighsAlgorithm)> = algos
        .split(',')
        .map(|a| algorithm(a).map(|h| (a, h)))
        .collect::<Result<_, _>>()?;
    let record = std::env::var("RECORD").unwrap_or_else(|_| "dual".into());
    let dual = HighsSolver::new()
        .with_algorithm(algorithm(&record)?)
        .with_row_warm_start(true);
    for problem in std::env::args().skip(1) {
        let train = load(&problem)?;
        let t = Instant::now();
        let rf = RandomForestParams::classifier()
            .max_depth(depth)
            .n_estimators(trees)
            .seed(25)
            .fit(&train)?;
        println!(
            "# {problem}: {} rows, RF {trees} x depth {depth}: {} leaves (fit {:.2}s)",
            train.n_rows(),
            rf.n_rules(),
            t.elapsed().as_secs_f64()
        );
        let mut lps: Vec<(String, Model)> = Vec::new();
        let rec = Recording {
            inner: &dual,
            models: RefCell::default(),
        };
        let rux = RuxParams::for_forest().select_with(&rf, &train, None, &rec)?;
        let solves = rec.models.borrow().len();
        lps.push((format!("RUX({solves})"), rec.models.borrow()[0].clone()));
        println!(
            "# RUX-RF, {record}: {} rules, {} LP solves",
            rux.n_rules(),
            solves
        );
        if std::env::var("NO_RUG").is_err() {
            let params = RugParams::default().max_depth(3).max_rmp_calls(30);
            let mut oracle = rc_colgen::TreeOracle::new(params.tree_params());
            let rec = Recording {
                inner: &dual,
                models: RefCell::default(),
            };
            params.fit_with(&train, None, &mut oracle, &rec)?;
            let models = rec.models.borrow();
            lps.push(("RUG-first".into(), models[0].clone()));
            lps.push((
                format!("RUG-last({})", models.len()),
                models[models.len() - 1].clone(),
            ));
        }
        for (lp_name, model) in &lps {
            for _ in 0..repeat {
                for (a_name, a) in &algos {
                    let solver = HighsSolver::new()
                        .with_algorithm(*a)
                        .with_warm_start(false)
                        .with_lp_time_limit(limit);
                    let (t, c) = (Instant::now(), cpu_seconds());
                    let sol = solver.solve_lp(model)?;
                    let (wall, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
                    let nonzero = sol.row_duals.iter().filter(|v| v.abs() > 1e-9).count();
                    println!(
                        "{problem}\t{lp_name}\t{}x{}\t{}\t{a_name}\t{:?}\t{wall:.2}\t{cpu:.2}\t{:?}\t{:.4}\t{nonzero}",
                        model.num_rows(),
                        model.num_vars(),
                        model.num_nonzeros(),
                        a.resolve(model),
                        sol.status,
                        sol.objective
                    );
                }
            }
        }
        if std::env::var("RUX_FIT").is_ok() {
            for _ in 0..repeat {
                for (name, a) in [
                    ("dual", HighsAlgorithm::DualSimplex),
                    ("auto", HighsAlgorithm::Auto),
                ] {
                    let solver = HighsSolver::new()
                        .with_algorithm(a)
                        .with_row_warm_start(true);
                    let (t, c) = (Instant::now(), cpu_seconds());
                    let m = RuxParams::for_forest().select_with(&rf, &train, None, &solver)?;
                    println!(
                        "{problem}\tRUX-RF fit\t{name}\twall {:.2}\tcpu {:.2}\trules {}\tobjective {:.4}",
                        t.elapsed().as_secs_f64(),
                        cpu_seconds() - c,
                        m.n_rules(),
                        m.info().objective
                    );
                }
            }
        }
    }
    Ok(())
}
