//! Suite `paper003`: CoTE (seed paper 003) — the boosted (20 small trees)
//! and bagged (20 large trees) ensembles of the `relational` suite
//! compressed by SCoTE and ECoTE, plus the soft-labels baseline for
//! boosting, on fold 1 of every target of Tables 1–2 the shared data
//! provide (the paper reports one split per domain).
//!
//! Records per job (`Boosting` or `Bagging`): the ensemble (`RFGB` /
//! `Bagging`: #paths, depth, the naive product size `max_clauses` and its
//! `max_avg_length`, AUCs), `…-SCoTE` and `…-ECoTE` (#clauses, average
//! clause length, AUCs, compression time, whether it finished), an ECoTE
//! run whose coverage universe is only the examples the trees were learned
//! from (`…-ECoTE-sample`), and `RFGB-SoftLabels`. SCoTE and ECoTE run
//! under caps (clauses, memory, 10 minutes); a run that hits one reports
//! `finished = 0` and the partial size reached.

use std::time::Duration;

use rc_logic::cote::{ecote, scote, Caps, DecisionList, EcoteParams, Outcome, ScoteParams};
use rc_logic::softlabel::{soft_labels, SoftLabelParams};
use rc_logic::{Problem, TreeEnsemble};

use crate::data::DataSource;
use crate::records::Record;
use crate::suites::relational::{self, TARGETS};
use crate::suites::scoring::timed;
use crate::suites::suite::{CustomJob, FoldsFile, JobData, JobError, Suite};

/// The `paper003` suite.
pub struct Paper003;

fn caps(quick: bool) -> Caps {
    if quick {
        Caps {
            max_clauses: 2_000_000,
            max_bytes: 1 << 30,
            time_limit: Duration::from_secs(20),
        }
    } else {
        Caps {
            max_clauses: 30_000_000,
            max_bytes: 4 << 30,
            time_limit: Duration::from_secs(600),
        }
    }
}

/// Scores a decision list on the test split into `rec` and returns the
/// largest difference from the ensemble's values.
fn score_list(
    rec: &mut Record,
    list: &DecisionList,
    ens_values: &[f64],
    problem: &Problem,
) -> Result<f64, JobError> {
    let test = problem.test.as_ref().ok_or("no test split")?;
    let (values, predict_s) = timed(|| list.values(test));
    let proba: Vec<f64> = values.iter().map(|&v| list.proba_of(v)).collect();
    relational::put_scores(rec, &test.examples.labels01(), &proba)?;
    rec.time_s.insert("predict".into(), predict_s);
    rec.size.insert("clauses".into(), list.len() as f64);
    rec.size
        .insert("avg_clause_length".into(), list.avg_length());
    let diff = values
        .iter()
        .zip(ens_values)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    rec.metrics.insert("max_abs_diff_vs_ensemble".into(), diff);
    Ok(diff)
}

fn compressed(
    job: &CustomJob,
    method: &str,
    out: &Outcome,
    ens_values: &[f64],
    problem: &Problem,
) -> Result<Record, JobError> {
    let mut rec = job.record(method);
    rec.size
        .insert("finished".into(), f64::from(u8::from(out.list.is_some())));
    rec.size
        .insert("trees_merged".into(), out.trees_merged as f64);
    rec.size
        .insert("peak_clauses".into(), out.peak_clauses as f64);
    rec.size.insert("groups".into(), out.groups as f64);
    // The compression is this method's fit (kept as `compress` too, the
    // name the tables of docs/reproduction/003.md use); nothing is tuned.
    rec.put_times(0.0, out.seconds);
    rec.time_s.insert("compress".into(), out.seconds);
    rec.params
        .insert("status".into(), serde_json::json!(out.status.name()));
    match &out.list {
        Some(list) => {
            score_list(&mut rec, list, ens_values, problem)?;
        }
        None => {
            rec.size.insert("clauses".into(), out.clauses as f64);
        }
    }
    Ok(rec)
}

fn ensemble_record(
    job: &CustomJob,
    method: &str,
    ens: &TreeEnsemble,
    values: &[f64],
    problem: &Problem,
    fit_s: f64,
) -> Result<Record, JobError> {
    let test = problem.test.as_ref().ok_or("no test split")?;
    let mut rec = job.record(method);
    let proba: Vec<f64> = values.iter().map(|&v| ens.proba_of(v)).collect();
    relational::put_scores(&mut rec, &test.examples.labels01(), &proba)?;
    relational::put_size(&mut rec, ens);
    rec.put_times(0.0, fit_s);
    Ok(rec)
}

impl Suite for Paper003 {
    fn name(&self) -> &'static str {
        "paper003"
    }

    fn about(&self) -> &'static str {
        "CoTE: SCoTE and ECoTE compression of boosted and bagged relational tree ensembles, soft-labels baseline (Tables 1-2)"
    }

    fn datasets(&self, _data: &DataSource) -> Vec<String> {
        TARGETS.iter().map(|t| t.id.to_string()).collect()
    }

    fn methods(&self) -> Vec<&'static str> {
        vec!["Boosting", "Bagging"]
    }

    fn run(&self, _method: &str, _job: &JobData) -> Result<Vec<Record>, JobError> {
        Err("the paper003 suite reads its own data (custom jobs only)".into())
    }

    fn custom(&self) -> bool {
        true
    }

    fn available(&self, dataset: &str, data: &DataSource) -> bool {
        relational::available(dataset, data)
    }

    /// One split per domain, as in the paper: fold 1.
    fn folds_of(&self, _dataset: &str, _data: &DataSource) -> usize {
        1
    }

    fn folds_file(&self) -> FoldsFile {
        FoldsFile::Refused(
            "it runs fold 1 of the relational data's own fold folders, as the paper, not rows \
             of a table",
        )
    }

    fn run_custom(&self, method: &str, job: &CustomJob) -> Result<Vec<Record>, JobError> {
        let problem = relational::load(job)?;
        let test = problem.test.as_ref().ok_or("no test split")?;
        let base = match method {
            "Boosting" => "RFGB",
            "Bagging" => "Bagging",
            other => return Err(format!("unknown method '{other}'").into()),
        };
        let (ens, fit_s, p) = relational::learn(base, job, &problem)?;
        let ens_values = ens.values(test);
        let mut records = Vec::new();
        let mut rec = ensemble_record(job, base, &ens, &ens_values, &problem, fit_s)?;
        rec.params.insert("learner".into(), p);
        records.push(rec);

        let caps = caps(job.quick);
        let sc = scote(
            &ens,
            &ScoteParams {
                caps,
                ..ScoteParams::default()
            },
        )?;
        records.push(compressed(
            job,
            &format!("{base}-SCoTE"),
            &sc,
            &ens_values,
            &problem,
        )?);
        drop(sc);

        let params = EcoteParams {
            caps,
            ..EcoteParams::default()
        };
        let ec = ecote(&ens, &problem.train.facts, &problem.train.examples, &params)?;
        records.push(compressed(
            job,
            &format!("{base}-ECoTE"),
            &ec,
            &ens_values,
            &problem,
        )?);
        let universe = problem.train.examples.subset(&ens.training_rows);
        let ec = ecote(&ens, &problem.train.facts, &universe, &params)?;
        let mut rec = compressed(
            job,
            &format!("{base}-ECoTE-sample"),
            &ec,
            &ens_values,
            &problem,
        )?;
        rec.size.insert("universe".into(), universe.len() as f64);
        records.push(rec);

        if base == "RFGB" {
            let params = SoftLabelParams {
                seed: job.seed,
                ..SoftLabelParams::default()
            };
            let (soft, fit_s) = timed(|| soft_labels(&ens, &problem, &params));
            let (list, _tree) = soft?;
            let mut rec = job.record("RFGB-SoftLabels");
            score_list(&mut rec, &list, &ens_values, &problem)?;
            rec.metrics.remove("max_abs_diff_vs_ensemble");
            rec.put_times(0.0, fit_s);
            records.push(rec);
        }
        Ok(records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper003_refuses_the_folds_file() {
        crate::testing::assert_refuses_folds_file(&Paper003);
    }
}
