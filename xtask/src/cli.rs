//! Command-line parsing (a handful of flags; no parser crate needed).

use std::path::PathBuf;

use crate::error::{Error, Result};
use crate::wheel::WheelArgs;

/// The usage text.
pub const USAGE: &str = "\
cargo xtask <command> [options]

commands:
  bench [SUITE...]   run benchmark suites (all paper suites when none is
                     named; generic and quality only when named) and write
                     results.json and report.md to --out
  datasets           load and list every data set of the data directory
  report DIR...      merge results.json of one or more runs (e.g. shards) into
                     --out (default: the first DIR) and regenerate
                     docs/REPRODUCTION.md
  lint               check that no files of a crate import from each other in
                     a circle and that no crates/*/src file is over 1,500
                     lines
  scaling            fit time and peak memory of every learner over a grid of
                     generated sizes, one child process per fit under a time
                     cap; writes results.jsonl, report.md and scaling.svg to
                     --out (docs/PERFORMANCE.md, \"Scaling\")
  fuzz [TARGET...]   the stable-toolchain fuzzer (issue 35): mutates each
                     target's seed corpus (fuzz/corpus/TARGET/) and runs the
                     library entry points in-process; a panic or a hang is
                     written to fuzz/findings/TARGET/ and fails the command
                     (docs/RELIABILITY.md)
  wheel              build the Python package's abi3 wheel (HiGHS linked in,
                     manylinux_2_28 through zig on Linux) and its sdist into
                     target/wheels with maturin, then `auditwheel show`
  help               this text

bench options:
  --quick            one small grid point, 3 folds, the three smallest data sets
                     of each suite (generated data when no data directory;
                     quality: every data set at a quarter of its rows)
  --data-dir D       data directory (default: $RC_DATA_DIR, then ../shared/datasets)
  --datasets a,b     only these data sets (for generic: any tabular data set
                     of the --data-dir manifest; all of them by default)
  --methods a,b      only these methods
  --folds K          outer folds (default: the paper's; 5 for generic and
                     quality)
  --folds-file F     outer test folds from JSON (list of lists of 0-based row
                     indices of the data set as loaded; one job per fold, so it
                     sets the fold count; meant for one data set); the relational
                     and paper003 suites refuse it (their folds are the data's
                     own fold folders)
  --seed S           random seed (default 25, as the authors')
  --jobs N           jobs run in parallel (default: number of cores)
  --shard i/n        run only the i-th of n deterministic slices of the jobs
  --out DIR          output directory (default bench-out/<suites>); one runner
                     at a time may write to it (an OS lock)
  --resume           continue an interrupted run from DIR/records.partial.jsonl
                     (same plan only: same suites, data sets, methods, folds,
                     seed and options)
  --stop-after N     stop after the first N jobs of the plan that are not yet
                     done, as an interrupted run would (for testing --resume)

fuzz options:
  --seconds N        seconds per target (default 30)
  --seed S           seed of the mutations (default 1; same seed, same inputs)
  --corpus DIR       seed corpus root (default fuzz/corpus)
  --timeout N        seconds one input may run before it is a hang (default 10)
  --regressions      run each file of fuzz/regressions/TARGET/ once instead
  --keep-going       record up to 20 findings per target instead of stopping
                     at the first
  --list             list the targets and what they call

scaling options:
  --out DIR          output folder (default target/scaling)
  --resume           continue the run recorded in --out, skipping its points
  --cap-s S          seconds a fit may take before it is killed (default 600)
  --smoke            only one small point per learner (--smoke-n rows or
                     facts): the CI smoke test
  --smoke-n N        rows (facts) of the smoke point (default 1000)
  --learners a,b     these learners only (method ids; default all of the grid)
  --max-n N          leave out points with more rows (facts) than N
  --seed S           the seed of every data set and fit (default 1)
  --report-only      only write the report of the recorded results

wheel options (tools from PyPI: pip install maturin ziglang auditwheel):
  --target TRIPLE    cross-build for a Rust target (e.g.
                     aarch64-unknown-linux-gnu, x86_64-apple-darwin)
  --compatibility T  platform tag to check against (default manylinux_2_28)
  --no-zig           link with the system compiler instead of zig cc
  --no-sdist         the wheel only
  --out DIR          output folder (default target/wheels)
";

/// A parsed command.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `bench`.
    Bench(BenchArgs),
    /// `datasets`.
    Datasets {
        /// `--data-dir`.
        data_dir: Option<PathBuf>,
    },
    /// `report`.
    Report {
        /// Result directories.
        dirs: Vec<PathBuf>,
        /// `--out`.
        out: Option<PathBuf>,
    },
    /// `lint`.
    Lint,
    /// `scaling`.
    Scaling(ScalingArgs),
    /// `scaling point` (hidden): what `scaling` runs in each child process.
    ScalingPoint(PointArgs),
    /// `fuzz`.
    Fuzz(crate::fuzz::FuzzArgs),
    /// `wheel`.
    Wheel(WheelArgs),
    /// `help`.
    Help,
}

/// Options of `scaling`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalingArgs {
    /// `--out`: results.jsonl, report.md, scaling.svg.
    pub out: PathBuf,
    /// `--resume`.
    pub resume: bool,
    /// `--cap-s`: seconds a fit may take before it is killed.
    pub cap_s: f64,
    /// `--smoke`: one small point per learner.
    pub smoke: bool,
    /// `--smoke-n`: rows (facts) of the smoke point: below the grid's
    /// 10^4, where RCBoost alone takes over a minute on 2 loaded cores (and
    /// RUG takes a minute at 2,000 rows with minilp, the LP solver without
    /// `highs`).
    pub smoke_n: usize,
    /// `--learners` (method ids; `None`: all of the grid).
    pub learners: Option<Vec<String>>,
    /// `--max-n`: leave out points with more rows (facts).
    pub max_n: usize,
    /// `--seed`.
    pub seed: u64,
    /// `--report-only`.
    pub report_only: bool,
}

impl Default for ScalingArgs {
    fn default() -> Self {
        ScalingArgs {
            out: PathBuf::from("target/scaling"),
            resume: false,
            cap_s: 600.0,
            smoke: false,
            smoke_n: 1_000,
            learners: None,
            max_n: usize::MAX,
            seed: 1,
            report_only: false,
        }
    }
}

/// Options of `scaling point`: one fit.
#[derive(Debug, Clone, PartialEq)]
pub struct PointArgs {
    /// `--learner`: the method id.
    pub learner: String,
    /// `--generator`: twonorm, mixed or uwcse-like.
    pub generator: String,
    /// `--n`: rows (facts).
    pub n: usize,
    /// `--p`: features (predicates).
    pub p: usize,
    /// `--seed` (default 1).
    pub seed: u64,
}

/// Options of `bench`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BenchArgs {
    /// Suites to run (empty = all).
    pub suites: Vec<String>,
    /// `--quick`.
    pub quick: bool,
    /// `--data-dir`.
    pub data_dir: Option<PathBuf>,
    /// `--datasets`.
    pub datasets: Option<Vec<String>>,
    /// `--methods`.
    pub methods: Option<Vec<String>>,
    /// `--folds`.
    pub folds: Option<usize>,
    /// `--folds-file`.
    pub folds_file: Option<PathBuf>,
    /// `--seed`.
    pub seed: u64,
    /// `--jobs`.
    pub jobs: Option<usize>,
    /// `--shard i/n` as (i, n), 1-based i.
    pub shard: Option<(usize, usize)>,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--resume`.
    pub resume: bool,
    /// `--stop-after N`.
    pub stop_after: Option<usize>,
}

/// The default seed: `random_state=25` of the authors' scripts.
pub const DEFAULT_SEED: u64 = 25;

fn value(args: &mut impl Iterator<Item = String>, flag: &str) -> Result<String> {
    args.next()
        .ok_or_else(|| Error::Usage(format!("{flag} needs a value")))
}

fn number<T: std::str::FromStr>(text: &str, flag: &str) -> Result<T> {
    text.parse()
        .map_err(|_| Error::Usage(format!("{flag} takes a number, not '{text}'")))
}

fn list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn shard(text: &str) -> Result<(usize, usize)> {
    let bad = || Error::Usage(format!("--shard takes i/n with 1 <= i <= n, not '{text}'"));
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command> {
    let mut args = args.into_iter();
    let Some(cmd) = args.next() else {
        return Ok(Command::Help);
    };
    match cmd.as_str() {
        "help" | "--help" | "-h" => Ok(Command::Help),
        "lint" => match args.next() {
            None => Ok(Command::Lint),
            Some(a) => Err(Error::Usage(format!("lint: unknown argument '{a}'"))),
        },
        "fuzz" => Ok(Command::Fuzz(crate::fuzz::parse_args(args)?)),
        "datasets" => {
            let mut data_dir = None;
            while let Some(a) = args.next() {
                match a.as_str() {
                    "--data-dir" => data_dir = Some(PathBuf::from(value(&mut args, &a)?)),
                    _ => return Err(Error::Usage(format!("datasets: unknown argument '{a}'"))),
                }
            }
            Ok(Command::Datasets { data_dir })
        }
        "report" => {
            let mut dirs = Vec::new();
            let mut out = None;
            while let Some(a) = args.next() {
                match a.as_str() {
                    "--out" => out = Some(PathBuf::from(value(&mut args, &a)?)),
                    s if s.starts_with("--") => {
                        return Err(Error::Usage(format!("report: unknown option '{a}'")))
                    }
                    _ => dirs.push(PathBuf::from(a)),
                }
            }
            if dirs.is_empty() {
                return Err(Error::Usage(
                    "report needs at least one results directory".into(),
                ));
            }
            Ok(Command::Report { dirs, out })
        }
        "wheel" => {
            let mut w = WheelArgs::default();
            while let Some(a) = args.next() {
                match a.as_str() {
                    "--target" => w.target = Some(value(&mut args, &a)?),
                    "--compatibility" => w.compatibility = Some(value(&mut args, &a)?),
                    "--no-zig" => w.no_zig = true,
                    "--no-sdist" => w.no_sdist = true,
                    "--out" => w.out = Some(PathBuf::from(value(&mut args, &a)?)),
                    _ => return Err(Error::Usage(format!("wheel: unknown argument '{a}'"))),
                }
            }
            Ok(Command::Wheel(w))
        }
        "bench" => {
            let mut b = BenchArgs {
                seed: DEFAULT_SEED,
                ..BenchArgs::default()
            };
            while let Some(a) = args.next() {
                match a.as_str() {
                    "--quick" => b.quick = true,
                    "--data-dir" => b.data_dir = Some(PathBuf::from(value(&mut args, &a)?)),
                    "--datasets" => b.datasets = Some(list(&value(&mut args, &a)?)),
                    "--methods" => b.methods = Some(list(&value(&mut args, &a)?)),
                    "--folds" => {
                        let k: usize = number(&value(&mut args, &a)?, &a)?;
                        if k < 2 {
                            return Err(Error::Usage("--folds must be at least 2".into()));
                        }
                        b.folds = Some(k);
                    }
                    "--folds-file" => b.folds_file = Some(PathBuf::from(value(&mut args, &a)?)),
                    "--seed" => b.seed = number(&value(&mut args, &a)?, &a)?,
                    "--jobs" => {
                        let j: usize = number(&value(&mut args, &a)?, &a)?;
                        if j == 0 {
                            return Err(Error::Usage("--jobs must be at least 1".into()));
                        }
                        b.jobs = Some(j);
                    }
                    "--shard" => b.shard = Some(shard(&value(&mut args, &a)?)?),
                    "--out" => b.out = Some(PathBuf::from(value(&mut args, &a)?)),
                    "--resume" => b.resume = true,
                    "--stop-after" => b.stop_after = Some(number(&value(&mut args, &a)?, &a)?),
                    s if s.starts_with("--") => {
                        return Err(Error::Usage(format!("bench: unknown option '{a}'")))
                    }
                    _ => b.suites.push(a),
                }
            }
            Ok(Command::Bench(b))
        }
        "scaling" => scaling(args),
        other => Err(Error::Usage(format!("unknown command '{other}'"))),
    }
}

/// `scaling [point] ...`.
fn scaling(mut args: impl Iterator<Item = String>) -> Result<Command> {
    let mut first = args.next();
    if first.as_deref() == Some("point") {
        let (mut learner, mut generator, mut n, mut p) = (None, None, None, None);
        let mut seed = 1;
        while let Some(a) = args.next() {
            match a.as_str() {
                "--learner" => learner = Some(value(&mut args, &a)?),
                "--generator" => generator = Some(value(&mut args, &a)?),
                "--n" => n = Some(number(&value(&mut args, &a)?, &a)?),
                "--p" => p = Some(number(&value(&mut args, &a)?, &a)?),
                "--seed" => seed = number(&value(&mut args, &a)?, &a)?,
                _ => {
                    return Err(Error::Usage(format!(
                        "scaling point: unknown argument '{a}'"
                    )))
                }
            }
        }
        let needs = |flag: &str| Error::Usage(format!("scaling point needs {flag}"));
        return Ok(Command::ScalingPoint(PointArgs {
            learner: learner.ok_or_else(|| needs("--learner"))?,
            generator: generator.ok_or_else(|| needs("--generator"))?,
            n: n.ok_or_else(|| needs("--n"))?,
            p: p.ok_or_else(|| needs("--p"))?,
            seed,
        }));
    }
    let mut s = ScalingArgs::default();
    while let Some(a) = first.take().or_else(|| args.next()) {
        match a.as_str() {
            "--out" => s.out = PathBuf::from(value(&mut args, &a)?),
            "--resume" => s.resume = true,
            "--cap-s" => {
                let text = value(&mut args, &a)?;
                let cap: f64 = number(&text, &a)?;
                if !(cap > 0.0 && cap.is_finite()) {
                    return Err(Error::Usage(format!(
                        "--cap-s {text}: expected a positive number of seconds"
                    )));
                }
                s.cap_s = cap;
            }
            "--smoke" => s.smoke = true,
            "--smoke-n" => s.smoke_n = number(&value(&mut args, &a)?, &a)?,
            "--learners" => s.learners = Some(list(&value(&mut args, &a)?)),
            "--max-n" => s.max_n = number(&value(&mut args, &a)?, &a)?,
            "--seed" => s.seed = number(&value(&mut args, &a)?, &a)?,
            "--report-only" => s.report_only = true,
            _ => return Err(Error::Usage(format!("scaling: unknown argument '{a}'"))),
        }
    }
    Ok(Command::Scaling(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Command> {
        parse(s.split_whitespace().map(str::to_string))
    }

    #[test]
    fn parses_bench_options() {
        let Command::Bench(b) =
            p("bench baselines --quick --datasets wine,seeds --shard 2/4 --seed 7").unwrap()
        else {
            panic!("not bench")
        };
        assert_eq!(b.suites, vec!["baselines"]);
        assert!(b.quick);
        assert_eq!(b.datasets, Some(vec!["wine".into(), "seeds".into()]));
        assert_eq!(b.shard, Some((2, 4)));
        assert_eq!(b.seed, 7);
    }

    #[test]
    fn parses_wheel_options() {
        let Command::Wheel(w) =
            p("wheel --target aarch64-unknown-linux-gnu --no-sdist --out w").unwrap()
        else {
            panic!("not wheel")
        };
        assert_eq!(w.target.as_deref(), Some("aarch64-unknown-linux-gnu"));
        assert!(w.no_sdist && !w.no_zig);
        assert_eq!(w.out, Some(PathBuf::from("w")));
        assert!(p("wheel --zig").is_err());
    }

    #[test]
    fn rejects_bad_usage() {
        assert!(p("bench --shard 5/4").is_err());
        assert!(p("bench --folds 1").is_err());
        assert!(p("bench --jobs x").is_err());
        assert!(p("frobnicate").is_err());
        assert!(p("report").is_err());
        assert_eq!(p("").unwrap(), Command::Help);
        assert_eq!(p("lint").unwrap(), Command::Lint);
        assert!(p("lint --fix").is_err());
    }

    #[test]
    fn parses_scaling_options_and_its_point() {
        let Command::Scaling(s) =
            p("scaling --smoke --smoke-n 300 --learners dt,rfgb --out d --cap-s 0.5").unwrap()
        else {
            panic!("not scaling")
        };
        assert!(s.smoke && !s.resume && !s.report_only);
        assert_eq!((s.smoke_n, s.cap_s, s.seed), (300, 0.5, 1));
        assert_eq!(s.learners, Some(vec!["dt".into(), "rfgb".into()]));
        assert_eq!(s.out, PathBuf::from("d"));
        assert_eq!(
            p("scaling").unwrap(),
            Command::Scaling(ScalingArgs::default())
        );
        assert_eq!(
            p("scaling point --learner dt --generator mixed --n 10 --p 2").unwrap(),
            Command::ScalingPoint(PointArgs {
                learner: "dt".into(),
                generator: "mixed".into(),
                n: 10,
                p: 2,
                seed: 1,
            })
        );
        assert!(p("scaling --cap-s 0").is_err());
        assert!(p("scaling --frobnicate").is_err());
        assert!(p("scaling point --learner dt").is_err());
    }
}
