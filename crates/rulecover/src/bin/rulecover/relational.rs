//! `rulecover relational learn` and `infer`: folders in, model folder and
//! results file out.

use std::time::{Duration, Instant};

use rc_logic::cote::{ecote, scote, Caps, EcoteParams, ScoteParams};
use rc_logic::Problem;

use rulecover::boostsrl::{
    background_path, find_background, inference_scores, list_path, load_ensemble, load_list,
    model_path, only_target, results_db, save_model_dir,
};
use rulecover::io::write_atomically;
use rulecover_core::RuleModel;

use crate::args::{CompressArg, DuplicatesArg, InferArgs, LearnArgs};
use crate::{display, print, Failure, Outcome};

/// Applies `--duplicates` to a loaded problem: a warning on stderr per
/// example file with repeated lines, or the error of the first repeat.
fn check_loaded(problem: &Problem, duplicates: DuplicatesArg) -> Outcome {
    let report = problem.load_report();
    report
        .check(duplicates.into())
        .map_err(rulecover::Error::from)?;
    for w in report.warnings() {
        eprintln!("warning: {w}");
    }
    Ok(())
}

pub fn learn(a: LearnArgs) -> Outcome {
    let mut params = rulecover::parse_key_values(&a.params)?;
    for (name, value) in [
        ("n_trees", a.trees.map(|v| v.to_string())),
        ("max_depth", a.max_depth.map(|v| v.to_string())),
        ("max_node_literals", a.node_size.map(|v| v.to_string())),
        ("neg_ratio", a.neg_pos_ratio.map(|v| v.to_string())),
    ] {
        if let Some(v) = value {
            params.push((name.to_string(), v));
        }
    }
    let background = find_background(&a.train, "train", a.background.as_deref(), None)?;
    let problem = Problem::load_folder(&background, &a.target, &a.train, "train", &[])
        .map_err(rulecover::Error::from)?;
    check_loaded(&problem, a.duplicates)?;
    let start = Instant::now();
    let fit = rulecover::fit_relational(&a.method, &params, &problem, a.seed)?;
    let seconds = start.elapsed().as_secs_f64();
    let target = problem.vocab.pred_name(problem.target).to_string();
    let model = &fit.ensemble;
    let mut text = format!(
        "{}: {} trees, {} clauses, average length {:.2}, {} positive and {} negative examples, {:.2} s\n",
        fit.kind,
        model.trees.len(),
        model.n_rules(),
        model.avg_rule_length(),
        problem.train.examples.n_pos(),
        problem.train.examples.len() - problem.train.examples.n_pos(),
        seconds
    );
    let compressed = match a.compress {
        None => None,
        Some(kind) => {
            let caps = Caps {
                max_clauses: a.max_clauses,
                time_limit: Duration::from_secs_f64(a.compress_seconds.max(0.0)),
                ..Caps::default()
            };
            let outcome = match kind {
                CompressArg::Scote => scote(model, &ScoteParams::default().caps(caps)),
                CompressArg::Ecote => ecote(
                    model,
                    &problem.train.facts,
                    &problem.train.examples,
                    &EcoteParams {
                        caps,
                        ..EcoteParams::default()
                    },
                ),
            }
            .map_err(rulecover::Error::from)?;
            let name = match kind {
                CompressArg::Scote => "SCoTE",
                CompressArg::Ecote => "ECoTE",
            };
            text.push_str(&format!(
                "{name}: {}, {} clauses after {} of {} trees, {:.2} s\n",
                outcome.status.name(),
                outcome.clauses,
                outcome.trees_merged,
                model.trees.len(),
                outcome.seconds
            ));
            if outcome.list.is_none() {
                return Err(Failure::input(format!(
                    "{name} stopped at its {} (--max-clauses {}, --compress-seconds {}): no decision list written; raise the cap or use fewer trees",
                    outcome.status.name(),
                    a.max_clauses,
                    a.compress_seconds
                )));
            }
            outcome.list
        }
    };
    save_model_dir(&a.model_dir, &problem, &fit)?;
    text.push_str(&format!(
        "model: {}\n",
        display(&model_path(&a.model_dir, &target))
    ));
    if let Some(list) = &compressed {
        let path = list_path(&a.model_dir, &target);
        list.save(&path).map_err(rulecover::Error::from)?;
        text.push_str(&format!("decision list: {}\n", display(&path)));
        if a.print_rules {
            text.push_str(&list.render());
        }
    } else if a.print_rules {
        text.push_str(&model.render());
    }
    print(&text);
    Ok(())
}

pub fn infer(a: InferArgs) -> Outcome {
    let target = match &a.target {
        Some(t) => t.clone(),
        None => only_target(&a.model_dir)?,
    };
    let fallback = background_path(&a.model_dir);
    let background = find_background(
        &a.test,
        "test",
        a.background.as_deref(),
        Some(fallback.as_path()),
    )?;
    let problem = Problem::load_folder(&background, &target, &a.test, "test", &[])
        .map_err(rulecover::Error::from)?;
    check_loaded(&problem, a.duplicates)?;
    let proba = if a.use_list {
        load_list(&a.model_dir, &target, &problem)?.predict_proba(&problem.train)
    } else {
        load_ensemble(&a.model_dir, &target, &problem)?.predict_proba(&problem.train)
    };
    let examples = &problem.train.examples;
    let scores = inference_scores(&examples.labels, &proba, a.threshold)?;
    let results = a.model_dir.join(format!("results_{target}.db"));
    write_atomically(
        &results,
        results_db(&problem, &problem.train, &proba).as_bytes(),
    )?;
    print(&format!(
        "% Pos={} Neg={}\n{}% results: {}\n",
        scores.n_pos,
        scores.n_neg,
        scores.report(),
        display(&results)
    ));
    Ok(())
}
