//! Issue 21's scaling benchmark: every learner fitted on generated data
//! over a fixed grid of sizes, each fit in its own process under a time
//! cap, with fit seconds and peak memory recorded per point, the growth
//! exponent fitted per learner, and the curves drawn as an SVG. The
//! `scaling` binary drives it; docs/PERFORMANCE.md has the results.
//!
//! - [`grid`]: the learners, generators and sizes, in the order visited;
//! - [`data`]: the generated tables (relational facts come from
//!   [`rc_logic::synthetic`]);
//! - [`growth`]: exponents, the skip rule, the size a budget allows;
//! - [`record`]: one JSON line per point, read back for `--resume`;
//! - [`child`]: one fit in a child process; [`run`]: the parent;
//! - [`report`]: the Markdown tables and the SVG.

pub mod child;
pub mod data;
pub mod grid;
pub mod growth;
pub mod record;
pub mod report;
pub mod run;

/// What can go wrong in a scaling run.
#[derive(Debug)]
pub enum ScalingError {
    /// Reading or writing a file, or starting a child (the path).
    Io(String, std::io::Error),
    /// A bad line in a results file.
    Record {
        /// The file.
        file: String,
        /// The line number, from 1 (0: while writing).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The results file exists and `--resume` was not given.
    Exists(String),
    /// A fit failed (the point, the error).
    Fit(String, String),
    /// Drawing the SVG failed (the file, the error).
    Plot(String, String),
    /// A bad command-line value (what, why).
    Usage(String),
}

impl std::fmt::Display for ScalingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScalingError::Io(path, e) => write!(f, "{path}: {e}"),
            ScalingError::Record {
                file,
                line,
                message,
            } => {
                write!(f, "{file}:{line}: not a scaling record: {message}")
            }
            ScalingError::Exists(path) => write!(
                f,
                "{path} exists: pass --resume to continue that run, or another --out"
            ),
            ScalingError::Fit(point, e) => write!(f, "fitting {point}: {e}"),
            ScalingError::Plot(path, e) => write!(f, "drawing {path}: {e}"),
            ScalingError::Usage(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for ScalingError {}
