//! The scaling grid: which learner is fitted on which generated data at
//! which size, in the order the run visits them.

use std::fmt;

use rulecover_core::Dataset;
use serde::{Deserialize, Serialize};

use super::data;

/// The row counts of the n-grid (at [`P_BASE`] features), and the fact
/// counts of the relational grid.
pub const N_GRID: [usize; 5] = [10_000, 30_000, 100_000, 300_000, 1_000_000];
/// The width of the n-grid.
pub const P_BASE: usize = 20;
/// The widths of the p-grid (at [`N_P_GRID`] rows); [`P_BASE`] at that
/// size comes from the n-grid.
pub const P_GRID: [usize; 3] = [10, 100, 500];
/// The rows of the p-grid and of the mixed table.
pub const N_P_GRID: usize = 100_000;
/// The predicates of the relational data ([`rc_logic::synthetic`]).
pub const RELATIONAL_P: usize = 5;

/// The tabular learners of the grid, by method id of the registry
/// ([`rulecover::methods()`]), each with its defaults but [`PINNED`].
pub const TABULAR: [&str; 11] = [
    "dt", "rf", "ada", "gb", "mirco", "rcboost", "rux-rf", "rug", "lrr", "rulefit", "nre",
];
/// Parameters the grid pins: one fit at a fixed penalty (the value the
/// registry defaulted to before `lambda0 = auto`), so that the grid
/// measures the same fit as before and not the inner cross-validation.
pub const PINNED: &[(&str, &str)] = &[("lambda0", "0.05"), ("lambda1", "0.01")];

/// The parameters the grid gives `learner`: [`PINNED`] where it declares
/// them.
pub fn params_of(learner: &str) -> Vec<(&'static str, &'static str)> {
    let method = rulecover::method(learner).ok();
    PINNED
        .iter()
        .copied()
        .filter(|(name, _)| method.is_some_and(|m| m.spec().param(name).is_some()))
        .collect()
}
/// The relational learner of the grid.
pub const RELATIONAL: &str = "rfgb";

/// Every learner of the grid: [`TABULAR`], then [`RELATIONAL`].
pub fn all_learners() -> Vec<&'static str> {
    TABULAR.iter().copied().chain([RELATIONAL]).collect()
}

/// The generated data of a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Generator {
    /// [`super::data::twonorm`]: `n` rows, `p` numeric features.
    Twonorm,
    /// [`super::data::mixed`]: `n` rows, numeric and categorical features.
    Mixed,
    /// [`rc_logic::synthetic::UwcseLike`]: `n` facts.
    UwcseLike,
}

impl Generator {
    /// The training table of a tabular point of `n` rows (`p` features for
    /// twonorm): the first `n` rows of the generator's stream; `None` for
    /// the relational generator.
    pub fn training(self, n: usize, p: usize, seed: u64) -> Option<Dataset> {
        match self {
            Generator::Twonorm => Some(data::twonorm(n, p, seed)),
            Generator::Mixed => Some(data::mixed(n, seed)),
            Generator::UwcseLike => None,
        }
    }

    /// The held-out table of a tabular point of `n` training rows: the
    /// [`data::heldout_rows`]`(n)` rows after them in the same stream (see
    /// [`super::data`]); `None` for the relational generator.
    pub fn heldout(self, n: usize, p: usize, seed: u64) -> Option<Dataset> {
        let rows = n..n + data::heldout_rows(n);
        match self {
            Generator::Twonorm => Some(data::twonorm_rows(rows, p, seed)),
            Generator::Mixed => Some(data::mixed_rows(rows, seed)),
            Generator::UwcseLike => None,
        }
    }

    /// The name used in records, tables and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Generator::Twonorm => "twonorm",
            Generator::Mixed => "mixed",
            Generator::UwcseLike => "uwcse-like",
        }
    }

    /// The generator called `name`, if any.
    pub fn parse(name: &str) -> Option<Generator> {
        [Generator::Twonorm, Generator::Mixed, Generator::UwcseLike]
            .into_iter()
            .find(|g| g.name() == name)
    }
}

impl fmt::Display for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which growth series of a learner a point belongs to: its size grows in
/// rows (facts) at a fixed width, or in width at a fixed row count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    /// Rows (or facts) grow; the width is fixed.
    N,
    /// Features grow at [`N_P_GRID`] rows.
    P,
    /// A single point with no series (the mixed table).
    Single,
}

/// One fit of the grid.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Point {
    /// The method id.
    pub learner: String,
    /// The data.
    pub generator: Generator,
    /// Rows (facts for [`Generator::UwcseLike`]).
    pub n: usize,
    /// Features (predicates for [`Generator::UwcseLike`]).
    pub p: usize,
}

impl Point {
    /// The series this point belongs to.
    pub fn axis(&self) -> Axis {
        match self.generator {
            Generator::Mixed => Axis::Single,
            Generator::UwcseLike => Axis::N,
            Generator::Twonorm if self.p == P_BASE => Axis::N,
            Generator::Twonorm => Axis::P,
        }
    }

    /// The size that grows along the point's series (`n` or `p`).
    pub fn size(&self) -> usize {
        self.size_along(self.axis())
    }

    /// The point's size along `axis`: `p` for [`Axis::P`], else `n` (the
    /// n-grid's point at [`N_P_GRID`] rows is in a p-series at width
    /// [`P_BASE`]).
    pub fn size_along(&self, axis: Axis) -> usize {
        match axis {
            Axis::P => self.p,
            Axis::N | Axis::Single => self.n,
        }
    }

    /// Whether `other` is in the same growth series as this point: same
    /// learner and generator, and the same fixed coordinate. The p-series
    /// includes the n-grid's point at [`N_P_GRID`] rows and [`P_BASE`]
    /// features.
    pub fn same_series(&self, other: &Point) -> bool {
        if self.learner != other.learner || self.generator != other.generator {
            return false;
        }
        match self.axis() {
            Axis::N => other.axis() == Axis::N,
            Axis::P => other.n == self.n,
            Axis::Single => false,
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} on {} n={} p={}",
            self.learner, self.generator, self.n, self.p
        )
    }
}

/// What to run.
#[derive(Debug, Clone, PartialEq)]
pub struct GridOptions {
    /// The learners (method ids of [`all_learners`]).
    pub learners: Vec<String>,
    /// Points with more rows (facts) than this are left out.
    pub max_n: usize,
    /// Only the smallest point of each learner, at `smoke_n` rows.
    pub smoke: Option<usize>,
}

/// The points in the order the run visits them: level by level (every
/// learner at 10⁴ rows, then every learner at 3·10⁴, …; then the p-grid
/// in increasing width, then the mixed table), so an interrupted run has
/// every learner's small sizes, and each point comes after the smaller
/// points of its series that predict it.
pub fn plan(opts: &GridOptions) -> Vec<Point> {
    let tabular = |l: &String| l != RELATIONAL;
    let point = |learner: &String, generator, n, p| Point {
        learner: learner.clone(),
        generator,
        n,
        p,
    };
    let base = |l: &String, n| {
        if tabular(l) {
            point(l, Generator::Twonorm, n, P_BASE)
        } else {
            point(l, Generator::UwcseLike, n, RELATIONAL_P)
        }
    };
    if let Some(n) = opts.smoke {
        return opts.learners.iter().map(|l| base(l, n)).collect();
    }
    let mut out = Vec::new();
    for n in N_GRID {
        out.extend(opts.learners.iter().map(|l| base(l, n)));
    }
    for p in P_GRID {
        out.extend(
            opts.learners
                .iter()
                .filter(|l| tabular(l))
                .map(|l| point(l, Generator::Twonorm, N_P_GRID, p)),
        );
    }
    out.extend(
        opts.learners
            .iter()
            .filter(|l| tabular(l))
            .map(|l| point(l, Generator::Mixed, N_P_GRID, MIXED_P)),
    );
    out.retain(|pt| pt.n <= opts.max_n);
    out
}

/// The width recorded for the mixed table (numeric plus categorical
/// columns).
pub const MIXED_P: usize = data::MIXED_NUMERIC + data::MIXED_CATEGORICAL;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heldout_rows_follow_the_training_rows_in_one_stream() {
        let (n, p, seed) = (400, 7, 11);
        for g in [Generator::Twonorm, Generator::Mixed] {
            let train = g.training(n, p, seed).unwrap();
            let heldout = g.heldout(n, p, seed).unwrap();
            let whole = g.training(n + heldout.n_rows(), p, seed).unwrap();
            // 20 % of the rows generated.
            assert_eq!(heldout.n_rows() * 5, whole.n_rows());
            let labels = whole.labels().unwrap();
            assert_eq!(train.labels().unwrap(), labels[..n]);
            assert_eq!(heldout.labels().unwrap(), labels[n..]);
            for j in 0..whole.n_features() {
                assert_eq!(train.column(j), &whole.column(j)[..n], "{g} x{j}");
                assert_eq!(heldout.column(j), &whole.column(j)[n..], "{g} x{j}");
            }
        }
        assert!(Generator::UwcseLike.heldout(100, 5, 1).is_none());
    }

    fn opts(learners: &[&str]) -> GridOptions {
        GridOptions {
            learners: learners.iter().map(|s| s.to_string()).collect(),
            max_n: usize::MAX,
            smoke: None,
        }
    }

    #[test]
    fn the_full_plan_is_level_by_level() {
        let plan = plan(&opts(&["dt", "rfgb"]));
        // dt: 5 n + 3 p + mixed; rfgb: 5 fact counts.
        assert_eq!(plan.len(), 9 + 5);
        assert_eq!(plan[0].learner, "dt");
        assert_eq!((plan[1].learner.as_str(), plan[1].n), ("rfgb", 10_000));
        assert_eq!(plan[1].generator, Generator::UwcseLike);
        assert_eq!(plan[9].n, 1_000_000);
        assert_eq!((plan[10].n, plan[10].p), (N_P_GRID, 10));
        assert_eq!(plan.last().unwrap().generator, Generator::Mixed);
    }

    #[test]
    fn max_n_and_smoke_cut_the_plan() {
        let mut o = opts(&["dt", "rfgb"]);
        o.max_n = 30_000;
        assert_eq!(plan(&o).len(), 4);
        o.smoke = Some(2_000);
        let smoke = plan(&o);
        assert_eq!(smoke.len(), 2);
        assert!(smoke.iter().all(|p| p.n == 2_000));
    }

    #[test]
    fn series_membership() {
        let pt = |g, n, p| Point {
            learner: "rf".into(),
            generator: g,
            n,
            p,
        };
        let wide = pt(Generator::Twonorm, N_P_GRID, 100);
        assert_eq!(wide.axis(), Axis::P);
        assert_eq!(wide.size(), 100);
        assert_eq!(pt(Generator::Twonorm, N_P_GRID, 20).size_along(Axis::P), 20);
        assert!(wide.same_series(&pt(Generator::Twonorm, N_P_GRID, 20)));
        assert!(!wide.same_series(&pt(Generator::Twonorm, 10_000, 20)));
        let tall = pt(Generator::Twonorm, 300_000, 20);
        assert!(tall.same_series(&pt(Generator::Twonorm, 10_000, 20)));
        assert!(!tall.same_series(&pt(Generator::Twonorm, N_P_GRID, 100)));
        assert!(!pt(Generator::Mixed, N_P_GRID, 20).same_series(&pt(
            Generator::Mixed,
            N_P_GRID,
            20
        )));
    }
}
