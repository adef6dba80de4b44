//! Facts about the machine and checkout, for `results.json`.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::records::Meta;

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// Metadata of a run started now with this command line.
pub fn collect() -> Meta {
    let mut commit =
        command_output("git", &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    if command_output("git", &["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|s| !s.is_empty())
    {
        commit.push_str("-dirty");
    }
    Meta {
        git_commit: commit,
        rustc_version: command_output("rustc", &["--version"]).unwrap_or_else(|| "unknown".into()),
        cores: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        date: utc_now(),
        command_line: std::iter::once("cargo xtask".to_string())
            .chain(std::env::args().skip(1))
            .collect::<Vec<_>>()
            .join(" "),
        solvers: solvers(),
    }
}

/// The LP and MIP backends of this build, e.g. `LP highs, MIP cbc`.
pub fn solvers() -> String {
    format!("LP {}, MIP {}", lp_backend(), mip_backend())
}

/// The backend `rc_lp::default_lp_solver` picks in this build.
pub fn lp_backend() -> &'static str {
    if cfg!(feature = "highs") {
        "highs"
    } else if cfg!(feature = "cbc") {
        "cbc"
    } else {
        "minilp"
    }
}

/// The backend `rc_lp::default_mip_solver` picks in this build.
pub fn mip_backend() -> &'static str {
    if cfg!(feature = "cbc") {
        "cbc"
    } else if cfg!(feature = "highs") {
        "highs"
    } else {
        "minilp"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
