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
#[derive(Debug, thiserror::Error)]
pub enum ScalingError {
    /// Reading or writing a file, or starting a child (the path).
    #[error("{0}: {1}")]
    Io(String, #[source] std::io::Error),
    /// A bad line in a results file.
    #[error("{file}:{line}: not a scaling record: {message}")]
    Record {
        /// The file.
        file: String,
        /// The line number, from 1 (0: while writing).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The results file exists and `--resume` was not given.
    #[error("{0} exists: pass --resume to continue that run, or another --out")]
    Exists(String),
    /// A fit failed (the point, the error).
    #[error("fitting {0}: {1}")]
    Fit(String, String),
    /// Drawing the SVG failed (the file, the error).
    #[error("drawing {0}: {1}")]
    Plot(String, String),
    /// A bad command-line value (what, why).
    #[error("{0}")]
    Usage(String),
}
