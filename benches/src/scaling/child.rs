//! The child side of a point: generate its data, fit it with the
//! registry's defaults and report the fit's seconds and the process's
//! peak memory to the parent on stdout ([`READY`], [`DONE`]).

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::data;
use super::grid::{Generator, Point};
use super::ScalingError;

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

/// The `VmHWM` (peak resident set) line of a `/proc/<pid>/status` text,
/// in MiB.
pub fn parse_vm_hwm(status: &str) -> Option<f64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024.0)
}

/// The peak resident memory of process `pid` (`"self"` for this one), MiB;
/// `None` where `/proc` is not readable.
pub fn peak_mib(pid: &str) -> Option<f64> {
    parse_vm_hwm(&std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?)
}

/// The user plus system time of a `/proc/<pid>/stat` text, in clock
/// ticks (fields 14 and 15, counted after the command name's closing
/// parenthesis, which may itself hold spaces).
pub fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (the state).
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// CPU seconds this process has used, all threads (Linux's `USER_HZ` is
/// 100 ticks a second on every architecture Rust targets).
pub fn cpu_seconds() -> Option<f64> {
    let ticks = parse_cpu_ticks(&std::fs::read_to_string("/proc/self/stat").ok()?)?;
    Some(ticks as f64 / 100.0)
}

/// The machine's one-minute load average, if `/proc/loadavg` is readable.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Generates the point's data, fits it with every parameter at the
/// registry's default and `seed`, and returns what it measured. `ready` is
/// called between the two (the child prints [`READY`] there).
///
/// # Errors
/// [`ScalingError::Fit`] with the registry's error.
pub fn fit_point(point: &Point, seed: u64, ready: impl FnOnce()) -> Result<Measured, ScalingError> {
    let no_params: &[(&str, &str)] = &[];
    let fail = |e: rulecover::Error| ScalingError::Fit(point.to_string(), e.to_string());
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
            rulecover::fit(&point.learner, no_params, &table, None, seed).map_err(fail)?;
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

/// The child's whole job: [`fit_point`], printing [`READY`] and then
/// [`DONE`] with the result.
///
/// # Errors
/// As [`fit_point`].
pub fn run_child(point: &Point, seed: u64) -> Result<(), ScalingError> {
    let mut data_mib = None;
    let mut m = fit_point(point, seed, || {
        data_mib = peak_mib("self");
        println!("{READY}{}", data_mib.unwrap_or(f64::NAN));
    })?;
    m.data_mib = data_mib;
    let json = serde_json::to_string(&m)
        .map_err(|e| ScalingError::Fit(point.to_string(), e.to_string()))?;
    println!("{DONE}{json}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vm_hwm_is_read_in_mib() {
        let status = "Name:\tscaling\nVmPeak:\t  30000 kB\nVmHWM:\t    2048 kB\nVmRSS:\t 1024 kB\n";
        assert_eq!(parse_vm_hwm(status), Some(2.0));
        assert_eq!(parse_vm_hwm("Name: x\n"), None);
    }

    #[test]
    fn cpu_ticks_are_read_after_the_command_name() {
        let stat = "4242 (my (odd) prog) R 1 2 3 4 5 6 7 8 9 10 250 30 0 0 20 0 3 0";
        assert_eq!(parse_cpu_ticks(stat), Some(280));
        assert_eq!(parse_cpu_ticks("4242 (x) R 1 2"), None);
        assert_eq!(parse_cpu_ticks("no parenthesis"), None);
    }

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
            Err(ScalingError::Fit(what, message)) => {
                assert!(
                    what.contains("no-such-method") && message.contains("rf"),
                    "{message}"
                )
            }
            other => panic!("{other:?}"),
        }
    }
}
