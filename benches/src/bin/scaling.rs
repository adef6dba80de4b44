//! Issue 21's scaling benchmark: fits every learner on generated data
//! over a fixed grid of sizes, one child process per fit under a time
//! cap, and writes `results.jsonl`, `report.md` and `scaling.svg` to the
//! output folder. See docs/PERFORMANCE.md, "Scaling".
//!
//! ```text
//! cargo run --release -p rc-benches --features highs --bin scaling -- --out DIR
//! cargo run --release -p rc-benches --bin scaling -- --smoke --out DIR
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use rc_benches::scaling::grid::{all_learners, plan, Generator, GridOptions, Point};
use rc_benches::scaling::record::{self, RESULTS};
use rc_benches::scaling::run::{run, RunOptions};
use rc_benches::scaling::{child, report, ScalingError};

#[derive(Parser, Debug)]
#[command(
    name = "scaling",
    about = "Fit time and peak memory of every learner over a grid of sizes"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The output folder (results.jsonl, report.md, scaling.svg).
    #[arg(long, default_value = "target/scaling")]
    out: PathBuf,
    /// Continue the run recorded in the output folder, skipping its points.
    #[arg(long)]
    resume: bool,
    /// Seconds a fit may take before it is killed.
    #[arg(long, default_value_t = 600.0)]
    cap_s: f64,
    /// Only one small point per learner (`--smoke-n` rows or facts): the CI
    /// smoke test.
    #[arg(long)]
    smoke: bool,
    /// Rows (facts) of the smoke point: below the grid's 10^4, where
    /// RCBoost alone takes over a minute on 2 loaded cores (and RUG takes a
    /// minute at 2,000 rows with minilp, the LP solver without `highs`).
    #[arg(long, default_value_t = 1_000)]
    smoke_n: usize,
    /// The learners, comma separated (method ids; default all of the grid).
    #[arg(long, value_delimiter = ',')]
    learners: Option<Vec<String>>,
    /// Leave out points with more rows (facts) than this.
    #[arg(long, default_value_t = usize::MAX)]
    max_n: usize,
    /// The seed of every data set and fit.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only write the report of the recorded results.
    #[arg(long)]
    report_only: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Fit one point and print its measurement (what the parent runs in a
    /// child process).
    Point {
        /// The method id.
        #[arg(long)]
        learner: String,
        /// twonorm, mixed or uwcse-like.
        #[arg(long)]
        generator: String,
        /// Rows (facts).
        #[arg(long)]
        n: usize,
        /// Features (predicates).
        #[arg(long)]
        p: usize,
        /// The seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn main() -> ExitCode {
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("scaling: {e}");
            ExitCode::FAILURE
        }
    }
}

fn real_main() -> Result<(), ScalingError> {
    let cli = Cli::parse();
    if let Some(Command::Point {
        learner,
        generator,
        n,
        p,
        seed,
    }) = cli.command
    {
        let generator = Generator::parse(&generator).ok_or_else(|| {
            ScalingError::Usage(format!(
                "--generator '{generator}': expected twonorm, mixed or uwcse-like"
            ))
        })?;
        let point = Point {
            learner,
            generator,
            n,
            p,
        };
        return child::run_child(&point, seed);
    }
    if !(cli.cap_s > 0.0 && cli.cap_s.is_finite()) {
        return Err(ScalingError::Usage(format!(
            "--cap-s {}: expected a positive number of seconds",
            cli.cap_s
        )));
    }
    let grid = all_learners();
    let learners: Vec<String> = match cli.learners {
        None => grid.iter().map(|s| s.to_string()).collect(),
        Some(given) => {
            for l in &given {
                if !grid.contains(&l.as_str()) {
                    return Err(ScalingError::Usage(format!(
                        "--learners: '{l}' is not in the grid ({})",
                        grid.join(", ")
                    )));
                }
            }
            given
        }
    };
    let points = plan(&GridOptions {
        learners: learners.clone(),
        max_n: cli.max_n,
        smoke: cli.smoke.then_some(cli.smoke_n),
    });
    let records = if cli.report_only {
        record::read(&cli.out.join(RESULTS))?
    } else {
        let exe = std::env::current_exe()
            .map_err(|e| ScalingError::Io("current executable".into(), e))?;
        println!(
            "{} points into {} (cap {} s, load average {})",
            points.len(),
            cli.out.display(),
            cli.cap_s,
            child::load_average()
                .map(|l| l.to_string())
                .unwrap_or_else(|| "?".into())
        );
        run(
            &exe,
            &points,
            &cli.out,
            &RunOptions {
                cap_s: cli.cap_s,
                seed: cli.seed,
                resume: cli.resume,
            },
        )?
    };
    let md = report::markdown(&learners, &records, cli.cap_s);
    let md_path = cli.out.join("report.md");
    std::fs::write(&md_path, &md)
        .map_err(|e| ScalingError::Io(md_path.display().to_string(), e))?;
    let svg_path = cli.out.join("scaling.svg");
    report::svg(&svg_path, &learners, &records)?;
    println!("wrote {} and {}", md_path.display(), svg_path.display());
    Ok(())
}
