//! Issue 21's scaling benchmark: every learner fitted on generated data
//! over a fixed grid of sizes, each fit in its own process under a time
//! cap, with fit seconds and peak memory recorded per point, the growth
//! exponent fitted per learner, and the curves drawn as an SVG.
//! `cargo xtask scaling` drives it ([`command`]); docs/PERFORMANCE.md has
//! the results. Its records go through xtask's JSON-lines code
//! ([`crate::jsonl`]), its files through the workspace's atomic write.
//!
//! - [`grid`]: the learners, generators and sizes, in the order visited;
//! - [`data`]: the generated tables (relational facts come from
//!   [`rc_logic::synthetic`]);
//! - [`growth`]: exponents, the skip rule, the size a budget allows;
//! - [`record`]: one JSON line per point, read back for `--resume`;
//! - [`child`]: one fit in a child process (`cargo xtask scaling point`,
//!   hidden); [`run`]: the parent;
//! - [`report`]: the Markdown tables and the SVG;
//! - [`command`]: `cargo xtask scaling` itself.

pub mod child;
pub mod command;
pub mod data;
pub mod grid;
pub mod growth;
pub mod record;
pub mod report;
pub mod run;
