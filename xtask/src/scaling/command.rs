//! `cargo xtask scaling`: issue 21's scaling benchmark. Fits every learner
//! on generated data over a fixed grid of sizes, one child process per fit
//! under a time cap (`cargo xtask scaling point`, this binary again), and
//! writes `results.jsonl`, `report.md` and `scaling.svg` to the output
//! folder. See docs/PERFORMANCE.md, "Scaling".
//!
//! ```text
//! cargo xtask scaling --out DIR                      # the full grid
//! cargo run --release -p xtask -- scaling --smoke --out DIR
//! ```

use super::grid::{all_learners, plan, Generator, GridOptions, Point};
use super::record::{self, RESULTS};
use super::run::{run, RunOptions};
use super::{child, report};
use crate::cli::{PointArgs, ScalingArgs};
use crate::error::{Error, Result};

/// `cargo xtask scaling point`: fits one point and prints its
/// measurement (what the parent runs in a child process).
///
/// # Errors
/// [`Error::Usage`] for an unknown generator; the fit's error.
pub fn point(args: &PointArgs) -> Result<()> {
    let generator = Generator::parse(&args.generator).ok_or_else(|| {
        Error::Usage(format!(
            "--generator '{}': expected twonorm, mixed or uwcse-like",
            args.generator
        ))
    })?;
    let point = Point {
        learner: args.learner.clone(),
        generator,
        n: args.n,
        p: args.p,
    };
    child::run_child(&point, args.seed)
}

/// `cargo xtask scaling`: runs (or with `--report-only` reads) the plan,
/// then writes the report and the SVG.
///
/// # Errors
/// [`Error::Usage`] for a learner not in the grid; the run's and the
/// report's errors.
pub fn scaling(args: &ScalingArgs) -> Result<()> {
    let grid = all_learners();
    let learners: Vec<String> = match &args.learners {
        None => grid.iter().map(|s| s.to_string()).collect(),
        Some(given) => {
            for l in given {
                if !grid.contains(&l.as_str()) {
                    return Err(Error::Usage(format!(
                        "--learners: '{l}' is not in the grid ({})",
                        grid.join(", ")
                    )));
                }
            }
            given.clone()
        }
    };
    let points = plan(&GridOptions {
        learners: learners.clone(),
        max_n: args.max_n,
        smoke: args.smoke.then_some(args.smoke_n),
    });
    let records = if args.report_only {
        record::read(&args.out.join(RESULTS))?
    } else {
        let exe = std::env::current_exe()
            .map_err(|e| Error::io(std::path::Path::new("current executable"), e))?;
        println!(
            "{} points into {} (cap {} s, load average {})",
            points.len(),
            args.out.display(),
            args.cap_s,
            rc_benches::process::load_average()
                .map(|l| l.to_string())
                .unwrap_or_else(|| "?".into())
        );
        run(
            &exe,
            &points,
            &args.out,
            &RunOptions {
                cap_s: args.cap_s,
                seed: args.seed,
                resume: args.resume,
            },
        )?
    };
    let md = report::markdown(&learners, &records, args.cap_s);
    let md_path = args.out.join("report.md");
    rulecover_core::fs::write_atomically(&md_path, md.as_bytes())
        .map_err(|e| Error::io(&md_path, e))?;
    let svg_path = args.out.join("scaling.svg");
    report::svg(&svg_path, &learners, &records)?;
    println!("wrote {} and {}", md_path.display(), svg_path.display());
    Ok(())
}
