//! `cargo xtask`: the benchmark harness and other developer tasks of
//! rulecover. See `cargo xtask help`.
#![forbid(unsafe_code)]

mod cli;
mod data;
mod error;
mod harness;
mod journal;
mod jsonl;
mod lint;
mod meta;
mod paper;
mod records;
mod report;
mod scaling;
mod stats;
mod suites;
mod tables;
#[cfg(test)]
mod testing;
mod wheel;

use std::path::{Path, PathBuf};

use rulecover_core::shared::Task;

use crate::cli::{BenchArgs, Command};
use crate::data::DataSource;
use crate::error::{Error, Result};
use crate::records::ResultsFile;

fn main() {
    let outcome = cli::parse(std::env::args().skip(1)).and_then(|cmd| match cmd {
        Command::Help => {
            print!("{}", cli::USAGE);
            println!("\nsuites:");
            for s in suites::all() {
                println!("  {:<12} {}", s.name(), s.about());
            }
            Ok(())
        }
        Command::Datasets { data_dir } => datasets(data_dir.as_deref()),
        Command::Bench(args) => bench(&args),
        Command::Report { dirs, out } => report(&dirs, out.as_deref()),
        Command::Lint => lint::main(),
        Command::Scaling(args) => scaling::command::scaling(&args),
        Command::ScalingPoint(args) => scaling::command::point(&args),
        Command::Wheel(args) => wheel::wheel(&args),
    });
    if let Err(e) = outcome {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// `cargo xtask datasets`: loads every data set and prints its shape.
fn datasets(data_dir: Option<&Path>) -> Result<()> {
    let source = DataSource::resolve(data_dir)?;
    let Some(shared) = source.shared() else {
        println!("{}", source.missing_message());
        for name in data::GENERATED {
            let d = data::generate(name)?;
            println!(
                "{name:<18} generated  rows {:>6}  features {:>3}  classes {}",
                d.n_rows(),
                d.n_features(),
                d.n_classes()
            );
        }
        return Ok(());
    };
    println!("data directory: {}", shared.root().display());
    println!(
        "{:<18} {:<11} {:>7} {:>9} {:>8}  check",
        "name", "task", "rows", "features", "classes"
    );
    let mut failures = 0;
    for e in shared.entries() {
        let task = format!("{:?}", e.task).to_lowercase();
        if e.task == Task::Relational {
            let target = e.target_predicate.as_deref().unwrap_or("?");
            println!(
                "{:<18} {:<11} {:>7} {:>9} {:>8}  target {target}, {} folds, {}",
                e.name,
                task,
                "-",
                "-",
                "-",
                e.n_folds.unwrap_or(0),
                e.path
            );
            continue;
        }
        match shared.load_declared(&e.name) {
            Ok(d) => {
                let ok = e.rows == Some(d.n_rows())
                    && e.features == Some(d.n_features())
                    && (e.task == Task::Regression || e.n_classes == Some(d.n_classes()));
                if !ok {
                    failures += 1;
                }
                println!(
                    "{:<18} {:<11} {:>7} {:>9} {:>8}  {}",
                    e.name,
                    task,
                    d.n_rows(),
                    d.n_features(),
                    if d.is_classification() {
                        d.n_classes().to_string()
                    } else {
                        "-".into()
                    },
                    if ok {
                        "matches manifest".to_string()
                    } else {
                        format!(
                            "MISMATCH: manifest says rows {:?}, features {:?}, classes {:?}",
                            e.rows, e.features, e.n_classes
                        )
                    }
                );
            }
            Err(err) => {
                failures += 1;
                println!("{:<18} {:<11} FAILED: {err}", e.name, task);
            }
        }
    }
    if failures > 0 {
        return Err(Error::Usage(format!(
            "{failures} data set(s) failed to load or did not match the manifest"
        )));
    }
    Ok(())
}

/// `cargo xtask bench`.
fn bench(args: &BenchArgs) -> Result<()> {
    let all = suites::all();
    let chosen: Vec<&dyn suites::suite::Suite> = if args.suites.is_empty() {
        all.iter()
            .filter(|s| !s.on_request_only())
            .map(|s| s.as_ref())
            .collect()
    } else {
        args.suites
            .iter()
            .map(|name| {
                all.iter()
                    .find(|s| s.name() == name)
                    .map(|s| s.as_ref())
                    .ok_or_else(|| {
                        let known: Vec<&str> = all.iter().map(|s| s.name()).collect();
                        Error::Usage(format!(
                            "unknown suite '{name}'; suites are: {}",
                            known.join(", ")
                        ))
                    })
            })
            .collect::<Result<_>>()?
    };
    let data = DataSource::resolve(args.data_dir.as_deref())?;
    harness::check_names(&chosen, args, &data)?;
    bench_on(&chosen, args, &data)
}

/// `cargo xtask bench` on the suites chosen and a data source.
fn bench_on(
    chosen: &[&dyn suites::suite::Suite],
    args: &BenchArgs,
    data: &DataSource,
) -> Result<()> {
    match data.shared() {
        Some(s) => eprintln!("data directory: {}", s.root().display()),
        None => eprintln!("{}", data.missing_message()),
    }
    let mut skipped = skipped_suites(chosen, args, data);
    skipped.extend(harness::left_out_notes(chosen, args, data));
    let skipped_jobs = harness::skipped_jobs(chosen, args, data);
    for s in &skipped {
        eprintln!("skipped: {s}");
    }
    for s in &skipped_jobs {
        eprintln!(
            "skipped: suite {}: {} on {}: {}",
            s.suite, s.method, s.dataset, s.reason
        );
    }
    let jobs = harness::plan(chosen, args, data)?;
    if jobs.is_empty() {
        return Err(Error::Usage(
            "no jobs to run (check --datasets, --methods and the suite names)".into(),
        ));
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| harness::default_out(chosen, args));
    std::fs::create_dir_all(&out).map_err(|e| Error::io(&out, e))?;
    let _lock = journal::OutLock::take(&out)?;
    let journal_path = out.join(journal::JOURNAL);
    let plan = journal::plan_fingerprint(&harness::plan_description(chosen, &jobs, args));
    let kept = if args.resume {
        resumable_jobs(&journal_path, &plan)?
    } else {
        Vec::new()
    };
    let done: std::collections::BTreeSet<journal::JobKey> =
        kept.iter().map(|(k, _)| k.clone()).collect();
    let mut todo: Vec<harness::Job> = jobs
        .iter()
        .filter(|j| !done.contains(&harness::job_key(chosen[j.suite], j)))
        .cloned()
        .collect();
    let stopping = args.stop_after.is_some_and(|n| n < todo.len());
    if let Some(n) = args.stop_after {
        todo.truncate(n);
    }
    eprintln!(
        "{} jobs on {} suite(s){}; solvers of this build: {}",
        jobs.len(),
        chosen.len(),
        if done.is_empty() {
            String::new()
        } else {
            format!(
                " ({} done in the journal, {} to run)",
                done.len(),
                todo.len()
            )
        },
        meta::solvers()
    );
    if meta::lp_backend() == "minilp" {
        eprintln!(
            "note: built without HiGHS or CBC, so every LP runs on minilp (slow on large data); \
             build with `--features highs,cbc` for the fast backends"
        );
    }
    let started = std::time::Instant::now();
    let writer = journal::JournalWriter::start(&journal_path, &plan, jobs.len(), &kept)?;
    let mut results = harness::run(chosen, &todo, args, data, meta::collect(), Some(writer))?;
    if stopping {
        return Err(Error::Usage(format!(
            "stopped after {} job(s) as --stop-after asked; continue with --resume",
            todo.len()
        )));
    }
    results
        .records
        .extend(kept.into_iter().flat_map(|(_, records)| records));
    results.records.sort_by_key(records::Record::key);
    results.skipped = skipped;
    results.skipped_jobs = skipped_jobs;
    if results.records.is_empty() {
        for f in &results.failures {
            eprintln!("failed: {f}");
        }
        return Err(Error::Usage(format!(
            "every job failed ({}); {} was left as it was",
            results.failures.len(),
            out.join("results.json").display()
        )));
    }
    write_outputs(&out, &results)?;
    eprintln!(
        "{} records in {:.1} s; wrote {}/results.json and report.md",
        results.records.len(),
        started.elapsed().as_secs_f64(),
        out.display()
    );
    if !results.failures.is_empty() {
        for f in &results.failures {
            eprintln!("failed: {f}");
        }
        return Err(Error::Usage(format!(
            "{} job(s) failed",
            results.failures.len()
        )));
    }
    Ok(())
}

/// The suites of the run that have no data set to run on, each with why.
fn skipped_suites(
    suites: &[&dyn suites::suite::Suite],
    args: &BenchArgs,
    data: &DataSource,
) -> Vec<String> {
    suites
        .iter()
        .filter(|s| harness::select_datasets(**s, args, data).is_empty())
        .map(|s| {
            let why = if data.shared().is_none() {
                "needs the shared data directory (none of its data sets can be generated)"
            } else if args.datasets.is_some() {
                "none of the --datasets belongs to it"
            } else {
                "none of its data sets is in the data directory"
            };
            format!("suite {}: {why}", s.name())
        })
        .collect()
}

/// The finished jobs of an interrupted run with the same plan.
fn resumable_jobs(path: &Path, plan: &str) -> Result<Vec<(journal::JobKey, Vec<records::Record>)>> {
    if !path.is_file() {
        return Err(Error::Usage(format!(
            "--resume: there is no journal {} to continue",
            path.display()
        )));
    }
    let journal = journal::Journal::read(path)?;
    if journal.plan.as_deref() != Some(plan) {
        return Err(Error::Usage(format!(
            "--resume: {} was written by a different plan (other suites, data sets, methods, \
             folds, seed or options); rerun with the same arguments, or without --resume to \
             start over",
            path.display()
        )));
    }
    Ok(journal.done)
}

fn write_outputs(out: &Path, results: &ResultsFile) -> Result<()> {
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    results.write(&out.join("results.json"))?;
    let md = report::render(results, &suites::all())?;
    let path = out.join("report.md");
    rulecover_core::fs::write_atomically(&path, md.as_bytes()).map_err(|e| Error::io(&path, e))
}

/// The results of a run directory: its `results.json`, or — for a run that
/// was interrupted or is still going — the records of its journal.
fn read_run(dir: &Path) -> Result<ResultsFile> {
    let results = dir.join("results.json");
    let journal_path = dir.join(journal::JOURNAL);
    if results.is_file() || !journal_path.is_file() {
        return ResultsFile::read(&results);
    }
    eprintln!(
        "{}: no results.json; reading the partial journal",
        dir.display()
    );
    let journal = journal::Journal::read(&journal_path)?;
    let mut records = journal.records();
    records.sort_by_key(records::Record::key);
    Ok(ResultsFile {
        meta: meta::collect(),
        records,
        failures: Vec::new(),
        skipped: Vec::new(),
        skipped_jobs: Vec::new(),
        quick: false,
    })
}

/// `cargo xtask report`: merges result directories and regenerates
/// docs/REPRODUCTION.md.
fn report(dirs: &[PathBuf], out: Option<&Path>) -> Result<()> {
    let files = dirs
        .iter()
        .map(|d| read_run(d))
        .collect::<Result<Vec<_>>>()?;
    let merged = ResultsFile::merge(files).ok_or_else(|| Error::Usage("no results".into()))?;
    let out = out.map_or_else(|| dirs[0].clone(), Path::to_path_buf);
    write_outputs(&out, &merged)?;
    let doc = reproduction_doc(&merged)?;
    let path = Path::new("docs/REPRODUCTION.md");
    rulecover_core::fs::write_atomically(path, doc.as_bytes()).map_err(|e| Error::io(path, e))?;
    eprintln!("wrote {}/report.md and docs/REPRODUCTION.md", out.display());
    Ok(())
}

/// docs/REPRODUCTION.md: hand-written explanations (docs/reproduction/*.md,
/// kept across regenerations) followed by the generated tables.
fn reproduction_doc(results: &ResultsFile) -> Result<String> {
    let mut doc = String::from(
        "# Reproduction of the papers' tables\n\n\
         Generated by `cargo xtask report`; edit the explanations in docs/reproduction/*.md, \
         not this file.\n\n",
    );
    let dir = Path::new("docs/reproduction");
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).map_err(|e| Error::io(&p, e))?;
            doc.push_str(&text);
            doc.push_str("\n\n");
        }
    }
    doc.push_str("## Generated tables\n\n");
    doc.push_str(&report::render(results, &suites::all())?);
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Record;

    fn run_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn records_without_time(dir: &Path) -> Vec<Record> {
        let mut records = ResultsFile::read(&dir.join("results.json"))
            .unwrap()
            .records;
        for r in &mut records {
            r.time_s.clear();
        }
        records
    }

    fn args(out: &Path) -> BenchArgs {
        BenchArgs {
            suites: vec!["baselines".into()],
            quick: true,
            datasets: Some(vec!["tictactoe".into(), "xor".into()]),
            methods: Some(vec!["ZeroR".into(), "DT".into()]),
            seed: cli::DEFAULT_SEED,
            jobs: Some(2),
            out: Some(out.to_path_buf()),
            ..BenchArgs::default()
        }
    }

    fn baselines() -> Vec<Box<dyn suites::suite::Suite>> {
        suites::all()
            .into_iter()
            .filter(|s| s.name() == "baselines")
            .collect()
    }

    #[test]
    fn an_interrupted_run_resumed_equals_an_uninterrupted_one() {
        let data = DataSource::generated_only();
        let all = baselines();
        let chosen: Vec<&dyn suites::suite::Suite> = all.iter().map(|s| s.as_ref()).collect();

        let whole = run_dir("whole");
        bench_on(&chosen, &args(&whole), &data).unwrap();

        let parts = run_dir("parts");
        let mut first = args(&parts);
        first.stop_after = Some(5);
        let err = bench_on(&chosen, &first, &data).unwrap_err();
        assert!(err.to_string().contains("--stop-after"), "{err}");
        assert!(!parts.join("results.json").exists());
        let journal = journal::Journal::read(&parts.join(journal::JOURNAL)).unwrap();
        assert_eq!(journal.done.len(), 5);

        // Another plan may not continue this journal.
        let mut other = args(&parts);
        other.seed += 1;
        other.resume = true;
        let err = bench_on(&chosen, &other, &data).unwrap_err();
        assert!(err.to_string().contains("different plan"), "{err}");

        let mut rest = args(&parts);
        rest.resume = true;
        bench_on(&chosen, &rest, &data).unwrap();
        assert_eq!(records_without_time(&parts), records_without_time(&whole));
        // 2 data sets x 2 methods x 3 quick folds.
        assert_eq!(records_without_time(&whole).len(), 12);
        std::fs::remove_dir_all(&whole).unwrap();
        std::fs::remove_dir_all(&parts).unwrap();
    }

    #[test]
    fn misspelt_names_are_errors_listing_the_valid_ones() {
        let all = baselines();
        let chosen: Vec<&dyn suites::suite::Suite> = all.iter().map(|s| s.as_ref()).collect();
        let mut a = args(Path::new("unused"));
        a.datasets = Some(vec!["wine".into(), "wnie".into()]);
        let err = harness::check_names(&chosen, &a, &DataSource::generated_only())
            .unwrap_err()
            .to_string();
        assert!(err.contains("wnie") && err.contains("valid names"), "{err}");
        let mut a = args(Path::new("unused"));
        a.methods = Some(vec!["DT".into(), "RFF".into()]);
        let err = harness::check_names(&chosen, &a, &DataSource::generated_only())
            .unwrap_err()
            .to_string();
        assert!(err.contains("RFF") && err.contains("GB"), "{err}");
    }
}
