//! `rulecover`: the command line. Argument parsing and files only; every
//! step is a call into the `rulecover` library.
//!
//! Exit codes: 0 on success; 2 for bad input or usage, with one line on
//! standard error naming the file, column, row or parameter (clap's own
//! usage errors exit 2 too); 1 for an internal error, and for `evaluate`
//! when a method failed (the table, with the error in its row, is printed
//! all the same). Output files are
//! written to a temporary file in the same folder and renamed, so a
//! failed run leaves no output file.

mod args;
mod relational;

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

use rulecover::evaluate::{assign_params, cross_validate_with, EvalOptions, Progress};
use rulecover::io::{read_for_schema, read_labelled_for_schema, read_training_table};
use rulecover::io::{write_atomically, Missing};
use rulecover::io::{PredictOptions, TableOptions};
use rulecover::output::{self, FitSummary, RuleFormat};
use rulecover::{Error, FittedModel};
use rulecover_core::csv::TaskKind;

use args::*;

/// A failure: the exit code and one line for standard error.
pub struct Failure {
    code: u8,
    message: String,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let code = if matches!(e, Error::Internal(_)) {
            1
        } else {
            2
        };
        Failure {
            code,
            message: e.to_string(),
        }
    }
}

impl Failure {
    /// Bad input described by `message`.
    pub fn input(message: impl Into<String>) -> Self {
        Failure {
            code: 2,
            message: message.into(),
        }
    }
}

/// Result of a command.
pub type Outcome = Result<(), Failure>;

fn main() -> ExitCode {
    let argv = with_boostsrl_spellings(std::env::args().collect());
    let cli = Cli::parse_from(argv);
    let result = match cli.command {
        Command::Fit(a) => fit(a),
        Command::Predict(a) => predict(a),
        Command::Rules(a) => rules(a),
        Command::Methods(a) => methods(a),
        Command::Export(a) => export(a),
        Command::Evaluate(a) => evaluate(a),
        Command::Report(a) => report(a),
        Command::Generate(a) => generate(a),
        Command::Relational(RelationalCommand::Learn(a)) => relational::learn(a),
        Command::Relational(RelationalCommand::Infer(a)) => relational::infer(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            let line: Vec<&str> = f.message.lines().map(str::trim).collect();
            eprintln!("rulecover: error: {}", line.join("; "));
            ExitCode::from(f.code)
        }
    }
}

/// Writes `text` to standard output; a closed pipe ends quietly.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn table_options(t: &TableArgs) -> TableOptions {
    TableOptions {
        target: t.target.clone(),
        task: match t.task {
            TaskArg::Auto => TaskKind::Auto,
            TaskArg::Classification => TaskKind::Classification,
            TaskArg::Regression => TaskKind::Regression,
        },
        delimiter: t.delimiter,
        drop: t.drop.iter().flatten().cloned().collect(),
        missing: match t.missing {
            MissingArg::Error => Missing::Error,
            MissingArg::Drop => Missing::Drop,
            MissingArg::Keep => Missing::Keep,
        },
        positive_class: t.positive_class.clone(),
        weights: None,
    }
}

fn fit(a: FitArgs) -> Outcome {
    let spec = rulecover::method(&a.method)?.spec();
    let params = rulecover::parse_key_values(&a.params)?;
    let mut opts = table_options(&a.table);
    opts.weights = a.weights.clone();
    let (data, weights) = read_training_table(&a.table.data, &opts)?;
    let (model, seconds, tune_seconds) = match a.tune.options() {
        Some(options) => {
            let t = rulecover::fit_tuned(
                spec.id,
                &params,
                &data,
                weights.as_deref(),
                a.seed,
                &options,
            )?;
            (t.model, t.fit_seconds, Some(t.tune_seconds))
        }
        None => {
            let start = Instant::now();
            let model = rulecover::fit(spec.id, &params, &data, weights.as_deref(), a.seed)?;
            (model, start.elapsed().as_secs_f64(), None)
        }
    };
    let summary = FitSummary::of(&model, &data, seconds)?;
    model.save(&a.out)?;
    let mut text = String::new();
    if let (Some(t), Some(tune_s)) = (model.tuning(), tune_seconds) {
        text.push_str(&format!(
            "tuned by inner {}-fold cross-validation ({}{}) over {} grid points in {:.2}s: {}\n",
            t.folds,
            t.metric,
            if t.one_se {
                ", one-standard-error rule"
            } else {
                ""
            },
            t.grid.len(),
            tune_s,
            t.chosen_text()
        ));
    }
    text.push_str(&format!("{summary}\n"));
    if let Some(line) = output::chosen_line(&model) {
        text.push_str(&format!("{line}\n"));
    }
    if a.print_rules || model.spec().prints_rules_by_default {
        if let Some(set) = model.rule_set() {
            text.push_str(&output::render_rule_set(&set, RuleFormat::Text));
        }
    }
    print(&text);
    Ok(())
}

fn predict(a: PredictArgs) -> Outcome {
    let model = FittedModel::load(&a.model)?;
    let opts = PredictOptions {
        delimiter: a.delimiter,
        keep_missing: a.keep_missing,
    };
    let data = read_for_schema(&a.data, model.schema(), &opts)?;
    let pred = model.predict(&data)?;
    let text = output::predictions_csv(&pred, model.classes(), a.proba)?;
    match &a.out {
        Some(path) => write_atomically(path, text.as_bytes())?,
        None => print(&text),
    }
    Ok(())
}

fn rules(a: RulesArgs) -> Outcome {
    let model = FittedModel::load(&a.model)?;
    let Some(set) = model.rule_set() else {
        return Err(Failure::input(format!(
            "{}: a '{}' model has no rules",
            a.model.display(),
            model.kind()
        )));
    };
    let format = match a.format {
        RuleFormatArg::Text => RuleFormat::Text,
        RuleFormatArg::Markdown => RuleFormat::Markdown,
        RuleFormatArg::Json => RuleFormat::Json,
        RuleFormatArg::Csv => RuleFormat::Csv,
    };
    // The text form opens with the penalties `lambda0 = auto` chose (as
    // a `#` comment); the table forms stay tables.
    let header = match (format, output::chosen_line(&model)) {
        (RuleFormat::Text, Some(line)) => format!("# {line}\n"),
        _ => String::new(),
    };
    print(&format!(
        "{header}{}",
        output::render_rule_set(&set, format)
    ));
    Ok(())
}

fn export(a: ExportArgs) -> Outcome {
    use rulecover::export::{Dialect, SqlOptions, Unseen};
    let model = FittedModel::load(&a.model)?;
    let text = match a.format {
        ExportFormatArg::Python => model.to_python()?,
        ExportFormatArg::Sql => {
            let dialect = match a.dialect {
                DialectArg::Sqlite => Dialect::Sqlite,
                DialectArg::Duckdb => Dialect::DuckDb,
                DialectArg::Postgres => Dialect::Postgres,
            };
            let options = SqlOptions {
                keep: a.keep.into_iter().flatten().collect(),
                unseen: match a.unseen {
                    UnseenArg::Null => Unseen::Null,
                    UnseenArg::Missing => Unseen::Missing,
                },
                ..SqlOptions::new(dialect, a.table)
            };
            model.to_sql(&options)?
        }
    };
    match &a.out {
        Some(path) => write_atomically(path, text.as_bytes())?,
        None => print(&text),
    }
    Ok(())
}

fn methods(a: MethodsArgs) -> Outcome {
    let text = match &a.id {
        Some(id) => output::describe_method(rulecover::method(id)?.spec()),
        None => rulecover::methods()
            .iter()
            .map(|m| output::describe_method(m.spec()))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    print(&text);
    Ok(())
}

fn evaluate(a: EvaluateArgs) -> Outcome {
    let mut ids: Vec<String> = a.methods.iter().flatten().cloned().collect();
    if ids.is_empty() {
        return Err(Failure::input("--methods: give at least one method id"));
    }
    let (data, _) = read_training_table(&a.table.data, &table_options(&a.table))?;
    if ids.iter().any(|id| id.eq_ignore_ascii_case("all")) {
        let task = rulecover::Task::of(&data)?;
        ids = rulecover::methods()
            .iter()
            .map(|m| m.spec())
            .filter(|s| s.tasks.contains(&task))
            .map(|s| s.id.to_string())
            .collect();
    }
    let params = rulecover::parse_key_values(&a.params)?;
    let runs = assign_params(&ids, &params)?;
    let terminal = std::io::stderr().is_terminal();
    let bar = terminal.then(|| {
        let bar = ProgressBar::new((runs.len() * a.folds) as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} fits, {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        bar
    });
    let progress = |p: Progress<'_>| match &bar {
        Some(bar) => {
            bar.set_message(format!("{} fold {}", p.method, p.fold + 1));
            bar.set_position(p.done as u64);
        }
        None => eprintln!(
            "[{}/{}] {} fold {} done",
            p.done,
            p.total,
            p.method,
            p.fold + 1
        ),
    };
    let options = EvalOptions {
        folds: a.folds,
        seed: a.seed,
        jobs: a.jobs,
        tune: a.tune.options(),
    };
    let report = cross_validate_with(&data, &runs, &options, &progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = report?;
    let text = match a.format {
        ReportFormatArg::Markdown => report.to_markdown(),
        ReportFormatArg::Json => report.to_json()? + "\n",
    };
    if let Some(path) = &a.plot {
        write_atomically(path, rulecover::report::evaluate_plot(&report).as_bytes())?;
    }
    print(&text);
    let failed = report.failed();
    if !failed.is_empty() {
        return Err(Failure {
            code: 1,
            message: format!(
                "{} of {} methods failed: {} (see the error column)",
                failed.len(),
                report.methods.len(),
                failed.join(", ")
            ),
        });
    }
    Ok(())
}

fn report(a: ReportArgs) -> Outcome {
    let model = FittedModel::load(&a.model)?;
    let data = match &a.data {
        Some(path) => {
            let opts = PredictOptions {
                delimiter: a.delimiter,
                keep_missing: a.keep_missing,
            };
            Some(read_labelled_for_schema(
                path,
                model.schema(),
                &a.target,
                &opts,
            )?)
        }
        None => None,
    };
    let options = rulecover::report::ReportOptions {
        top: a.top,
        title: None,
        source: Some(display(&a.model)),
    };
    let page = rulecover::report::html(&model, data.as_ref(), &options)?;
    write_atomically(&a.out, page.as_bytes())?;
    print(&format!("wrote {}\n", display(&a.out)));
    Ok(())
}

fn generate(a: GenerateArgs) -> Outcome {
    let name = a.name.trim().to_ascii_lowercase();
    if rulecover::generate::RELATIONAL.contains(&name.as_str()) {
        if a.majority.is_some() {
            return Err(Failure::input(format!(
                "--majority thins a table's classes; '{name}' is a relational set"
            )));
        }
        let set = rulecover::generate::smokers(a.rows.unwrap_or(100), a.seed)?;
        rulecover::boostsrl::write_relational_set(&a.out, &set)?;
        print(&format!(
            "wrote {} and {} (target {})\n",
            a.out.join("train").display(),
            a.out.join("test").display(),
            set.target
        ));
        return Ok(());
    }
    let mut data = rulecover::generate::table(&name, a.rows, a.seed)?;
    if let Some(share) = a.majority {
        data = rulecover_core::generate::with_majority(&data, share, a.seed)
            .map_err(|e| Failure::input(format!("--majority: {e}")))?;
    }
    let text = output::dataset_csv(&data, "label");
    write_atomically(&a.out, text.as_bytes())?;
    print(&format!(
        "wrote {} ({} rows, {} features and a label column)\n",
        display(&a.out),
        data.n_rows(),
        data.n_features()
    ));
    Ok(())
}

/// A path as printed in messages.
pub fn display(p: &Path) -> String {
    p.display().to_string()
}
