//! The child side of a point: generate its data, fit it with the
//! registry's defaults and report the fit's seconds and the process's
//! peak memory to the parent on stdout ([`READY`], [`DONE`]).

use std::time::Instant;

use rc_benches::process::{cpu_seconds, peak_mib};
use serde::{Deserialize, Serialize};

use super::data;
use super::grid::{Generator, Point};
use crate::error::{Error, Result};

/// The line prefix the child prints when the data are ready and the fit
/// starts (followed by the peak MiB so far); the parent starts the cap's
/// clock there.
pub const READY: &str = "SCALING-READY ";
/// The line prefix of the child's result (followed by a [`Measured`] in
/// JSON).
pub const DONE: &str = "SCALING-DONE ";

/// What a child measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// Wall seconds of the fit alone.
    pub fit_s: f64,
    /// CPU seconds (user and system, all threads) of the fit alone
    /// (`None` off Linux): unlike wall seconds, barely moved by other
    /// processes on the machine.
    #[serde(default)]
    pub cpu_s: Option<f64>,
    /// Peak resident memory of the process, MiB (`None` off Linux).
    pub peak_mib: Option<f64>,
    /// Peak resident memory before the fit, MiB.
    pub data_mib: Option<f64>,
    /// Threads of the rayon pool.
    pub threads: usize,
}

/// Generates the point's data, fits it with every parameter at the
/// registry's default (but [`super::grid::PINNED`]) and `seed`, and returns what it measured. `ready` is
/// called between the two (the child prints [`READY`] there).
///
/// # Errors
/// [`Error::Failed`] ("fitting" the point) with the registry's error.
pub fn fit_point(point: &Point, seed: u64, ready: impl FnOnce()) -> Result<Measured> {
    let params = super::grid::params_of(&point.learner);
    let no_params: &[(&str, &str)] = &[];
    let fail = |e: rulecover::Error| fitting(point, e.to_string());
    let (wall, cpu) = match point.generator {
        Generator::UwcseLike => {
            let problem = rc_logic::synthetic::UwcseLike::generate(point.n)
                .problem()
                .map_err(|e| fail(e.into()))?;
            ready();
            let start = (Instant::now(), cpu_seconds());
            rulecover::fit_relational(&point.learner, no_params, &problem, seed).map_err(fail)?;
            start
        }
        Generator::Twonorm | Generator::Mixed => {
            let table = match point.generator {
                Generator::Mixed => data::mixed(point.n, seed),
                _ => data::twonorm(point.n, point.p, seed),
            };
            ready();
            let start = (Instant::now(), cpu_seconds());
            rulecover::fit(&point.learner, &params, &table, None, seed).map_err(fail)?;
            start
        }
    };
    let cpu_s = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    Ok(Measured {
        fit_s: wall.elapsed().as_secs_f64(),
        cpu_s,
        peak_mib: peak_mib("self"),
        data_mib: None,
        threads: rayon::current_num_threads(),
    })
}

/// The error of a point's fit.
fn fitting(point: &Point, message: String) -> Error {
    Error::Failed {
        what: format!("fitting {point}"),
        message,
    }
}

/// The child's whole job: [`fit_point`], printing [`READY`] and then
/// [`DONE`] with the result.
///
/// # Errors
/// As [`fit_point`].
pub fn run_child(point: &Point, seed: u64) -> Result<()> {
    let mut data_mib = None;
    let mut m = fit_point(point, seed, || {
        data_mib = peak_mib("self");
        println!("{READY}{}", data_mib.unwrap_or(f64::NAN));
    })?;
    m.data_mib = data_mib;
    let json = serde_json::to_string(&m).map_err(|e| fitting(point, e.to_string()))?;
    println!("{DONE}{json}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_fit_is_measured() {
        let point = Point {
            learner: "dt".into(),
            generator: Generator::Mixed,
            n: 300,
            p: 20,
        };
        let mut ready = false;
        let m = fit_point(&point, 1, || ready = true).unwrap();
        assert!(ready && m.fit_s >= 0.0 && m.threads >= 1);
        let bad = Point {
            learner: "no-such-method".into(),
            ..point
        };
        match fit_point(&bad, 1, || ()) {
            Err(Error::Failed { what, message }) => {
                assert!(
                    what.contains("no-such-method") && message.contains("rf"),
                    "{message}"
                )
            }
            other => panic!("{other:?}"),
        }
    }
}
