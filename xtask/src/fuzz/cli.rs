//! The command line's parameter parsing: the input's lines are the
//! arguments of `rulecover`, parsed by the command line's own clap parser
//! (its `args.rs`, compiled into this target as it is, BoostSRL's
//! spellings rewritten first). A parsed command goes through the
//! registry's checks of its method and parameters
//! (`parse_key_values`, `resolve_params`, `evaluate::assign_params`);
//! `fit` with parameter values that keep a fit small (numbers within
//! ±64) is fitted on 24 generated rows, and `generate` writes nothing but
//! generates at most 200 rows.

#[allow(dead_code, missing_docs)]
#[path = "../../../crates/rulecover/src/bin/rulecover/args.rs"]
mod args;

use clap::Parser;

use rulecover::Task;
use rulecover_core::{Dataset, Feature, Target as DataTarget};

use self::args::{with_boostsrl_spellings, Cli, Command, RelationalCommand};
use super::{Target, Verdict};

/// Command-line words worth inserting.
const WORDS: &[&str] = &[
    "fit",
    "predict",
    "rules",
    "methods",
    "evaluate",
    "generate",
    "relational",
    "learn",
    "infer",
    "--method",
    "--param",
    "-p",
    "--data",
    "--target",
    "--out",
    "--seed",
    "--methods",
    "--folds",
    "--jobs",
    "--task",
    "--delimiter",
    "--drop",
    "--missing",
    "--positive-class",
    "--weights",
    "--rows",
    "--trees",
    "-trees",
    "-nodeSize",
    "--compress",
    "max_depth=",
    "n_estimators=",
    "=",
    "dt",
    "rf",
    "mirco",
    "rux-rf",
    "rug",
    "rcboost",
    "lr1",
    "lrr",
    "rulefit",
    "nre",
    "gb",
    "ada",
    "rfgb",
    "bagging",
    "tab",
    "twonorm",
    "blobs",
    "smokers",
    "none",
    "true",
    "gini",
    "\n",
];

/// `cli`.
pub fn target() -> Target {
    Target {
        name: "cli",
        about: "the rulecover command line's clap parser (args.rs), then rulecover::method, \
                parse_key_values, resolve_params, evaluate::assign_params; small fits on 24 rows",
        dictionary: WORDS,
        run,
    }
}

fn argv(input: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(input);
    let mut out = vec!["rulecover".to_string()];
    out.extend(text.lines().map(str::to_string));
    with_boostsrl_spellings(out)
}

/// True when every number among the values is finite and within ±64 (a
/// fit with them stays small; others are only resolved).
fn small(params: &[(String, String)]) -> bool {
    params.iter().all(|(_, v)| match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => x.abs() <= 64.0,
        _ => true,
    })
}

fn tiny(task: Task) -> Dataset {
    let n = 24;
    let a: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
    let b: Vec<f64> = (0..n).map(|i| ((i * 7) % 5) as f64).collect();
    let target = match task {
        Task::Regression => DataTarget::Real(a.iter().zip(&b).map(|(x, y)| x + y).collect()),
        Task::Multiclass => DataTarget::Classes {
            labels: (0..n).map(|i| i % 3).collect(),
            names: vec!["a".into(), "b".into(), "c".into()],
        },
        _ => DataTarget::Classes {
            labels: a.iter().map(|&x| usize::from(x > 0.0)).collect(),
            names: vec!["no".into(), "yes".into()],
        },
    };
    Dataset::new(
        "tiny",
        vec![Feature::numeric("a"), Feature::numeric("b")],
        vec![a, b],
        target,
    )
    .expect("the cli target's data set")
}

fn run(input: &[u8]) -> Verdict {
    let Ok(cli) = Cli::try_parse_from(argv(input)) else {
        return Verdict::Rejected;
    };
    let ok = match cli.command {
        Command::Fit(a) => fit(&a.method, &a.params, a.seed),
        Command::Evaluate(a) => {
            let ids: Vec<String> = a.methods.iter().flatten().cloned().collect();
            rulecover::parse_key_values(&a.params)
                .and_then(|p| rulecover::evaluate::assign_params(&ids, &p))
                .and_then(|runs| {
                    runs.iter()
                        .try_for_each(|r| rulecover::resolve_params(&r.id, &r.params).map(|_| ()))
                })
                .is_ok()
        }
        Command::Methods(a) => match &a.id {
            Some(id) => rulecover::method(id)
                .map(|m| rulecover::output::describe_method(m.spec()))
                .is_ok(),
            None => true,
        },
        Command::Generate(a) => {
            let rows = a.rows.map(|r| r.min(200));
            let name = a.name.trim().to_ascii_lowercase();
            rulecover::generate::table(&name, rows, a.seed).is_ok()
        }
        Command::Relational(RelationalCommand::Learn(a)) => {
            let mut params = a.params.clone();
            if let Some(t) = a.trees {
                params.push(format!("n_trees={t}"));
            }
            rulecover::parse_key_values(&params)
                .and_then(|p| rulecover::resolve_params(&a.method, &p))
                .is_ok()
        }
        Command::Predict(_)
        | Command::Rules(_)
        | Command::Export(_)
        | Command::Report(_)
        | Command::Relational(_) => true,
    };
    if ok {
        Verdict::Accepted
    } else {
        Verdict::Rejected
    }
}

fn fit(id: &str, params: &[String], seed: u64) -> bool {
    let Ok(method) = rulecover::method(id) else {
        return false;
    };
    let Ok(pairs) = rulecover::parse_key_values(params) else {
        return false;
    };
    if rulecover::resolve_params(id, &pairs).is_err() {
        return false;
    }
    let spec = method.spec();
    if !small(&pairs) || spec.tasks.contains(&Task::Relational) {
        return true;
    }
    let task = spec.tasks.first().copied().unwrap_or(Task::Binary);
    rulecover::fit(id, &pairs, &tiny(task), None, seed).is_ok()
}
