//! Issue 35: a saved model with one to three values changed (a number,
//! an index, a list's length, a key removed, a type swapped, `"inf"`,
//! `"-inf"` or `"nan"` where a number stands) is an error naming the
//! field, never a panic, a hang or an unbounded allocation.
//!
//! A small model of every method of [`rulecover::METHODS`] is fitted on
//! generated data of every task it declares (tabular methods through
//! `rulecover::fit` with their smoke parameters; the relational ones
//! through `rulecover relational learn`, with a SCoTE decision list),
//! saved, and mutated deterministically:
//!
//! - in-process (the bulk, [`IN_PROCESS_PER_FILE`] mutants of each file):
//!   load with `FittedModel::from_json`, predict, write the predictions
//!   as the command line does and render the rules (relational: load the
//!   model folder's ensemble and decision list as `relational infer` and
//!   `--use-list` do, and predict), inside `catch_unwind`;
//! - through the real binary ([`CLI_PER_FILE`] mutants of each file):
//!   `rulecover predict` and `rulecover rules` (relational: `relational
//!   infer` and `relational infer --use-list`), each run under a 60 s
//!   guard, killed if it hangs.
//!
//! Passing means: no panic; the command line exits 0 or 2 and never
//! prints "panicked"; and every failure to load names the field
//! ([`names_a_field`]).

mod cli_support;
mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use rulecover::io::{read_for_schema, PredictOptions};
use rulecover::output::{predictions_csv, render_rule_set, RuleFormat};
use rulecover::{fit, Error, FittedModel, Learner, Task, METHODS};
use rulecover_core::{generate, Dataset, Rng};

use cli_support::{ok_in, Scratch};

/// Mutants of each saved model checked in-process.
const IN_PROCESS_PER_FILE: usize = 150;
/// Mutants of each saved model checked through the binary (each run by
/// two commands).
const CLI_PER_FILE: usize = 6;
/// The longest a run of the binary may take.
const GUARD: Duration = Duration::from_secs(60);

/// One step of a path into a JSON value.
#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn path_text(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Step::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// Every node below `v` (not `v` itself), as paths from `v`.
fn nodes(v: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                prefix.push(Step::Key(k.clone()));
                out.push(prefix.clone());
                nodes(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                prefix.push(Step::Index(i));
                out.push(prefix.clone());
                nodes(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn get_mut<'a>(v: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, step| match step {
        Step::Key(k) => v.get_mut(k.as_str()),
        Step::Index(i) => v.get_mut(*i),
    })
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// A value of another type than `v`.
fn swapped(rng: &mut Rng, v: &Value) -> Value {
    let options = [
        Value::Null,
        Value::from("x"),
        Value::from(Vec::<Value>::new()),
        Value::Object(Default::default()),
        Value::from(1),
        Value::from(true),
    ];
    loop {
        let o = pick(rng, &options);
        if std::mem::discriminant(o) != std::mem::discriminant(v) {
            return o.clone();
        }
    }
}

/// Changes the node at `path` of `root`; returns what was done.
fn mutate_node(rng: &mut Rng, root: &mut Value, path: &[Step]) -> String {
    let Some(v) = get_mut(root, path) else {
        return String::new();
    };
    let at = path_text(path);
    if rng.below(8) == 0 {
        *v = swapped(rng, v);
        return format!("{at} := {v}");
    }
    match v {
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(0.0);
            let options: Vec<Value> = vec![
                Value::from(0),
                Value::from(1),
                Value::from(-1),
                Value::from(2),
                Value::from(x + 1.0),
                Value::from(x - 1.0),
                Value::from(-x),
                Value::from(x * 1e6),
                Value::from(1_000_000_000_000u64),
                Value::from(4_294_967_296u64),
                Value::from(u64::MAX),
                Value::from(1e308),
                Value::from(-1e308),
                Value::from(0.5),
                Value::from(-0.5),
                Value::from("inf"),
                Value::from("-inf"),
                Value::from("nan"),
                Value::from("inf"),
                Value::from("nan"),
            ];
            *v = pick(rng, &options).clone();
        }
        Value::String(s) => {
            let options = ["", "x", "nan", "inf", "-inf", "0"];
            let mut t = pick(rng, &options).to_string();
            if rng.below(3) == 0 {
                t = format!("{s}_");
            }
            *v = Value::from(t);
        }
        Value::Bool(b) => *v = Value::from(!*b),
        Value::Null => {
            *v = pick(
                rng,
                &[Value::from(0), Value::from("nan"), Value::from(1e300)],
            )
            .clone()
        }
        Value::Array(items) => match rng.below(6) {
            0 => {
                items.pop();
            }
            1 => {
                if let Some(last) = items.last().cloned() {
                    items.push(last);
                } else {
                    items.push(Value::from(0));
                }
            }
            2 => items.clear(),
            3 => {
                let n = items.len();
                if n > 1 {
                    items.swap(0, n - 1);
                } else {
                    items.push(Value::Null);
                }
            }
            4 => {
                if !items.is_empty() {
                    let i = rng.below(items.len());
                    items.remove(i);
                }
            }
            _ => {
                if let Some(first) = items.first().cloned() {
                    items.insert(0, first);
                }
            }
        },
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            if keys.is_empty() {
                *v = Value::Null;
            } else {
                let k = pick(rng, &keys).clone();
                map.remove(&k);
                return format!("{at}: removed '{k}'");
            }
        }
    }
    format!(
        "{at} := {}",
        get_mut(root, path).map_or(Value::Null, |v| v.clone())
    )
}

/// One to three changes to the model file's JSON, mostly in its `model`
/// (some in the rest of the envelope).
fn mutant(rng: &mut Rng, original: &Value) -> (String, Vec<String>) {
    let mut root = original.clone();
    let mut done = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let mut all = Vec::new();
        nodes(&root, &mut Vec::new(), &mut all);
        let in_model: Vec<&Vec<Step>> = all
            .iter()
            .filter(|p| matches!(p.first(), Some(Step::Key(k)) if k == "model"))
            .collect();
        let path = if in_model.is_empty() || rng.below(10) == 0 {
            pick(rng, &all).clone()
        } else {
            (*pick(rng, &in_model)).clone()
        };
        done.push(mutate_node(rng, &mut root, &path));
    }
    (serde_json::to_string_pretty(&root).unwrap(), done)
}

/// Whether a failure to load names the field at fault: the model file's
/// errors name a field (`field 'model.trees[0].nav'`), the format
/// version, the kind, or (relational models, rc-logic's checks) say what
/// in the model is not valid.
fn names_a_field(message: &str) -> bool {
    message.contains("field '")
        || message.contains("format_version")
        || message.contains("model kind '")
        || message.contains("not a valid rc-logic model: ")
}

/// The outcome of one in-process run.
enum Outcome {
    Ok,
    /// Loading failed (the message must name the field).
    LoadError(String),
    /// Loading worked and the data or prediction was refused.
    UseError,
}

fn tabular_run(text: &str, data_csv: &Path) -> Outcome {
    let model = match FittedModel::from_json(text) {
        Ok(m) => m,
        Err(e) => return Outcome::LoadError(e.to_string()),
    };
    let data = match read_for_schema(data_csv, model.schema(), &PredictOptions::default()) {
        Ok(d) => d,
        Err(_) => return Outcome::UseError,
    };
    if let Some(set) = model.rule_set() {
        let _ = render_rule_set(&set, RuleFormat::Text);
        let _ = render_rule_set(&set, RuleFormat::Json);
        let _ = model.render_rules();
    }
    let pred = match model.predict(&data) {
        Ok(p) => p,
        Err(_) => return Outcome::UseError,
    };
    match predictions_csv(&pred, model.classes(), true) {
        Ok(_) => Outcome::Ok,
        Err(e @ Error::Internal(_)) => panic!("internal error: {e}"),
        Err(_) => Outcome::UseError,
    }
}

/// Tallies of the runs, and what went wrong.
#[derive(Default)]
struct Tally {
    runs: usize,
    ok: usize,
    load_errors: usize,
    use_errors: usize,
    failures: Vec<String>,
}

impl Tally {
    fn record(&mut self, what: &str, changes: &[String], run: impl FnOnce() -> Outcome) {
        self.runs += 1;
        let start = Instant::now();
        let loud = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let outcome = catch_unwind(AssertUnwindSafe(run));
        std::panic::set_hook(loud);
        if start.elapsed() > GUARD {
            self.failures
                .push(format!("{what} {changes:?}: took {:?}", start.elapsed()));
        }
        match outcome {
            Ok(Outcome::Ok) => self.ok += 1,
            Ok(Outcome::LoadError(m)) => {
                self.load_errors += 1;
                if !names_a_field(&m) {
                    self.failures
                        .push(format!("{what} {changes:?}: names no field: {m}"));
                }
            }
            Ok(Outcome::UseError) => self.use_errors += 1,
            Err(p) => {
                let m = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                self.failures
                    .push(format!("{what} {changes:?}: panicked: {m}"));
            }
        }
    }
}

/// Runs the binary with `args` in `dir` under the guard: its exit code
/// (`None` when killed) and standard error.
fn guarded(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulecover"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rulecover binary runs");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return (status.code(), err);
        }
        if start.elapsed() > GUARD {
            let _ = child.kill();
            let _ = child.wait();
            return (None, "killed after 60 s".into());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Checks one run of the binary: exit 0 or 2, no panic, and an exit 2
/// says what is wrong ([`useful`]).
fn check_cli(
    failures: &mut Vec<String>,
    what: &str,
    changes: &[String],
    run: (Option<i32>, String),
) {
    let (code, err) = run;
    let bad = match code {
        Some(0) => err.contains("panicked"),
        Some(2) => err.contains("panicked") || !useful(&err),
        _ => true,
    };
    if bad {
        failures.push(format!("{what} {changes:?}: exit {code:?}: {err}"));
    }
}

/// An exit-2 message is a load error naming the field, an error of the
/// data the model reads (a column of the file's schema), a model that
/// refused to predict, or `rules` of a model without rules.
fn useful(err: &str) -> bool {
    names_a_field(err)
        || err.contains("column")
        || err.contains("could not predict")
        || err.contains("model has no rules")
}

/// Training data of a task, and test rows written as CSV for `predict`.
fn data(task: Task) -> Dataset {
    match task {
        Task::Binary => {
            let t = generate::tictactoe();
            let idx: Vec<usize> = (0..t.n_rows()).step_by(6).collect();
            t.subset(&idx).unwrap()
        }
        Task::Multiclass => generate::blobs(90, 3, 4, 21),
        Task::Regression => common::regression(),
        Task::Relational => unreachable!("tables only"),
    }
}

#[test]
fn mutated_model_files_fail_cleanly() {
    let dir = Scratch::new("mutated-models");
    let mut rng = Rng::new(35);
    let mut tally = Tally::default();
    let mut cli_runs = 0usize;
    let mut cli_failures = Vec::new();
    let mut kinds = 0usize;

    for m in METHODS {
        let spec = m.spec();
        if let Learner::Relational(_) = m.learner() {
            continue;
        }
        for &task in spec.tasks {
            let train = data(task);
            let model = fit(spec.id, spec.smoke, &train, None, 5)
                .unwrap_or_else(|e| panic!("{} {task}: {e}", spec.id));
            kinds += 1;
            let csv = dir.path(&format!("{}-{task}.csv", spec.id));
            let target = "target";
            std::fs::write(&csv, rulecover::output::dataset_csv(&train, target)).unwrap();
            let text = model.to_json().unwrap();
            assert!(
                matches!(tabular_run(&text, &csv), Outcome::Ok),
                "{}",
                spec.id
            );
            let original: Value = serde_json::from_str(&text).unwrap();
            for i in 0..IN_PROCESS_PER_FILE + CLI_PER_FILE {
                let (mutated, changes) = mutant(&mut rng, &original);
                let what = format!("{} {task}", spec.id);
                if i < IN_PROCESS_PER_FILE {
                    tally.record(&what, &changes, || tabular_run(&mutated, &csv));
                } else {
                    let file = dir.path("mutant.json");
                    std::fs::write(&file, &mutated).unwrap();
                    let (f, d) = (file.display().to_string(), csv.display().to_string());
                    for args in [
                        vec!["predict", "--model", &f, "--data", &d, "--proba"],
                        vec!["rules", "--model", &f],
                    ] {
                        cli_runs += 1;
                        check_cli(&mut cli_failures, &what, &changes, guarded(&dir.0, &args));
                    }
                }
            }
        }
    }

    let relational = relational_mutants(&dir, &mut rng, &mut tally, &mut cli_failures);
    cli_runs += relational.0;
    kinds += relational.1;

    let failures: Vec<&String> = tally.failures.iter().chain(&cli_failures).collect();
    eprintln!(
        "mutated models: {} model files; {} in-process runs ({} loaded and predicted, {} refused on load, {} refused at use); {} runs of the binary",
        kinds, tally.runs, tally.ok, tally.load_errors, tally.use_errors, cli_runs
    );
    assert!(
        failures.is_empty(),
        "{} of the mutated models failed badly:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        tally.runs + cli_runs >= 5000,
        "{} runs",
        tally.runs + cli_runs
    );
    assert!(tally.load_errors > 0 && tally.ok > 0);
}

/// Learns `rfgb` (with a SCoTE list) and `bagging` on generated smokers
/// data and mutates their model files and the list; returns the runs of
/// the binary and the number of model files.
fn relational_mutants(
    dir: &Scratch,
    rng: &mut Rng,
    tally: &mut Tally,
    cli_failures: &mut Vec<String>,
) -> (usize, usize) {
    ok_in(
        &dir.0,
        &[
            "generate", "smokers", "--rows", "40", "--seed", "2", "--out", "smk",
        ],
    );
    let mut files = Vec::new();
    for m in METHODS {
        if !matches!(m.learner(), Learner::Relational(_)) {
            continue;
        }
        let id = m.spec().id;
        let model_dir = format!("rel-{id}");
        let mut args = vec![
            "relational",
            "learn",
            "--train",
            "smk/train",
            "--target",
            "cancer",
            "--method",
            id,
            "--trees",
            "3",
            "--model-dir",
            &model_dir,
            "--seed",
            "1",
        ];
        let compress = id == "rfgb";
        if compress {
            args.extend(["--compress", "scote"]);
        }
        ok_in(&dir.0, &args);
        files.push((model_dir.clone(), "cancer.model.json", false));
        if compress {
            files.push((model_dir, "cancer.list.json", true));
        }
    }
    let background = rulecover::boostsrl::find_background(
        &dir.path("smk/test"),
        "test",
        None,
        Some(dir.path(&files[0].0).join("background.txt").as_path()),
    )
    .unwrap();
    let problem = rc_logic::data::Problem::load_folder(
        &background,
        "cancer",
        &dir.path("smk/test"),
        "test",
        &[],
    )
    .unwrap();
    let mut cli_runs = 0;
    for (model_dir, name, list) in &files {
        let folder = dir.path(model_dir);
        let path = folder.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let original: Value = serde_json::from_str(&text).unwrap();
        let run = |folder: &Path| -> Outcome {
            let proba = if *list {
                rulecover::boostsrl::load_list(folder, "cancer", &problem)
                    .map(|l| l.predict_proba(&problem.train))
            } else {
                rulecover::boostsrl::load_ensemble(folder, "cancer", &problem)
                    .map(|e| e.predict_proba(&problem.train))
            };
            match proba {
                Ok(_) => Outcome::Ok,
                Err(e) => Outcome::LoadError(e.to_string()),
            }
        };
        assert!(matches!(run(&folder), Outcome::Ok), "{model_dir}/{name}");
        for i in 0..IN_PROCESS_PER_FILE + CLI_PER_FILE {
            let (mutated, changes) = mutant(rng, &original);
            std::fs::write(&path, &mutated).unwrap();
            let what = format!("{model_dir}/{name}");
            if i < IN_PROCESS_PER_FILE {
                tally.record(&what, &changes, || run(&folder));
            } else {
                let mut args = vec![
                    "relational",
                    "infer",
                    "--test",
                    "smk/test",
                    "--model-dir",
                    model_dir,
                ];
                if *list {
                    args.push("--use-list");
                }
                cli_runs += 1;
                check_cli(cli_failures, &what, &changes, guarded(&dir.0, &args));
            }
        }
        std::fs::write(&path, &text).unwrap();
    }
    (cli_runs, files.len())
}
