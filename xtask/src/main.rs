//! `cargo xtask`: the benchmark harness and other developer tasks of
//! rulecover. See `cargo xtask help`.
#![forbid(unsafe_code)]

mod cli;
mod data;
mod error;
mod harness;
mod meta;
mod paper;
mod records;
mod report;
mod suites;

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
    let chosen: Vec<&dyn suites::Suite> = if args.suites.is_empty() {
        all.iter().map(|s| s.as_ref()).collect()
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
    match data.shared() {
        Some(s) => eprintln!("data directory: {}", s.root().display()),
        None => eprintln!("{}", data.missing_message()),
    }
    let jobs = harness::plan(&chosen, args, &data);
    if jobs.is_empty() {
        return Err(Error::Usage(
            "no jobs to run (check --datasets, --methods and the suite names)".into(),
        ));
    }
    eprintln!(
        "{} jobs on {} suite(s); solvers of this build: {}",
        jobs.len(),
        chosen.len(),
        meta::solvers()
    );
    if meta::lp_backend() == "minilp" {
        eprintln!(
            "note: built without HiGHS or CBC, so every LP runs on minilp (slow on large data); \
             build with `--features highs,cbc` for the fast backends"
        );
    }
    let started = std::time::Instant::now();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| harness::default_out(&chosen, args));
    std::fs::create_dir_all(&out).map_err(|e| Error::io(&out, e))?;
    let journal = out.join("records.partial.jsonl");
    let results = harness::run(&chosen, &jobs, args, &data, meta::collect(), Some(&journal))?;
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

fn write_outputs(out: &Path, results: &ResultsFile) -> Result<()> {
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    results.write(&out.join("results.json"))?;
    let md = report::render(results)?;
    let path = out.join("report.md");
    std::fs::write(&path, md).map_err(|e| Error::io(&path, e))
}

/// `cargo xtask report`: merges result directories and regenerates
/// docs/REPRODUCTION.md.
fn report(dirs: &[PathBuf], out: Option<&Path>) -> Result<()> {
    let files = dirs
        .iter()
        .map(|d| ResultsFile::read(&d.join("results.json")))
        .collect::<Result<Vec<_>>>()?;
    let merged = ResultsFile::merge(files).ok_or_else(|| Error::Usage("no results".into()))?;
    let out = out.map_or_else(|| dirs[0].clone(), Path::to_path_buf);
    write_outputs(&out, &merged)?;
    let doc = reproduction_doc(&merged)?;
    let path = Path::new("docs/REPRODUCTION.md");
    std::fs::write(path, doc).map_err(|e| Error::io(path, e))?;
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
    doc.push_str(&report::render(results)?);
    Ok(doc)
}
