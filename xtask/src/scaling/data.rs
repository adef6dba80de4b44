//! The generated data of the scaling grid: twonorm-like numeric tables of
//! any width, one mixed numeric/categorical table, and the UW-CSE-like
//! relational facts of [`rc_logic::synthetic`].
//!
//! # Held-out rows
//!
//! Each generator draws its rows one after another from one stream of its
//! seed, so the table of `n` rows is the first `n` rows of any longer table
//! of the same seed. A point of `n` training rows is scored on the next
//! [`heldout_rows`]`(n)` = n/4 rows of that stream
//! ([`super::grid::Generator::heldout`]): the
//! training rows are the first 80 % of `n + n/4` rows and the held-out
//! rows the last 20 %, and the training rows are exactly those of records
//! written before held-out scores existed, draw for draw (so their fit
//! times stay comparable). The held-out rows are generated after the fit,
//! skipping the first `n` rows' draws without storing them: the fit's
//! memory is that of the training rows alone, as before. (A separate seed
//! for the held-out rows would do as well statistically; continuing the
//! stream makes them literally the held-out part of one generated table.)
//! The relational facts have no held-out split (see [`super::child`]).

use std::ops::Range;

use rulecover_core::rng::Rng;
use rulecover_core::{Dataset, Feature, Target};

/// Numeric columns of [`mixed`].
pub const MIXED_NUMERIC: usize = 10;
/// Categorical columns of [`mixed`].
pub const MIXED_CATEGORICAL: usize = 10;
/// Levels of each categorical column of [`mixed`].
pub const MIXED_LEVELS: usize = 5;

/// Breiman's twonorm widened to `p` features: each row's class is 0 or 1
/// with probability ½, and features `x0..x{p-1}` are N(±a, 1) with
/// `a = 2/√p` (+a for class 0), so the Bayes error stays about 2.3% at
/// every width. At `p = 20` it is [`rulecover_core::generate::twonorm`],
/// draw for draw.
pub fn twonorm(n: usize, p: usize, seed: u64) -> Dataset {
    twonorm_rows(0..n, p, seed)
}

/// The rows `rows` of the stream of [`twonorm`]`(_, p, seed)` (the rows
/// before `rows.start` are drawn and dropped).
pub fn twonorm_rows(rows: Range<usize>, p: usize, seed: u64) -> Dataset {
    let p = p.max(1);
    let a = 2.0 / (p as f64).sqrt();
    let mut rng = Rng::new(seed);
    let n = rows.len();
    let mut columns: Vec<Vec<f64>> = (0..p).map(|_| Vec::with_capacity(n)).collect();
    let mut labels = Vec::with_capacity(n);
    for i in 0..rows.end {
        let keep = rows.contains(&i);
        let class = rng.below(2);
        let mean = if class == 0 { a } else { -a };
        if keep {
            labels.push(class);
        }
        for col in columns.iter_mut() {
            let x = mean + rng.normal();
            if keep {
                col.push(x);
            }
        }
    }
    let features = (0..p).map(|j| Feature::numeric(format!("x{j}"))).collect();
    table("twonorm", features, columns, labels)
}

/// A mixed table: [`MIXED_NUMERIC`] twonorm-like numeric features `x0..`
/// (N(±a, 1), `a = 2/√10`) and [`MIXED_CATEGORICAL`] categorical features
/// `c0..` of [`MIXED_LEVELS`] levels `l0..l4` each. A categorical value is,
/// with probability 0.3, one of its class's two levels (`l0`, `l1` for
/// class 0; `l3`, `l4` for class 1), and otherwise any of the five
/// uniformly. Classes are drawn with probability ½.
pub fn mixed(n: usize, seed: u64) -> Dataset {
    mixed_rows(0..n, seed)
}

/// The rows `rows` of the stream of [`mixed`]`(_, seed)` (the rows before
/// `rows.start` are drawn and dropped).
pub fn mixed_rows(rows: Range<usize>, seed: u64) -> Dataset {
    let a = 2.0 / (MIXED_NUMERIC as f64).sqrt();
    let mut rng = Rng::new(seed);
    let n = rows.len();
    let mut columns: Vec<Vec<f64>> = (0..MIXED_NUMERIC + MIXED_CATEGORICAL)
        .map(|_| Vec::with_capacity(n))
        .collect();
    let mut labels = Vec::with_capacity(n);
    for i in 0..rows.end {
        let keep = rows.contains(&i);
        let class = rng.below(2);
        let mean = if class == 0 { a } else { -a };
        if keep {
            labels.push(class);
        }
        let (numeric, categorical) = columns.split_at_mut(MIXED_NUMERIC);
        for col in numeric {
            let x = mean + rng.normal();
            if keep {
                col.push(x);
            }
        }
        for col in categorical {
            let level = if rng.next_f64() < 0.3 {
                rng.below(2) + if class == 0 { 0 } else { 3 }
            } else {
                rng.below(MIXED_LEVELS)
            };
            if keep {
                col.push(level as f64);
            }
        }
    }
    let levels: Vec<String> = (0..MIXED_LEVELS).map(|l| format!("l{l}")).collect();
    let features = (0..MIXED_NUMERIC)
        .map(|j| Feature::numeric(format!("x{j}")))
        .chain(
            (0..MIXED_CATEGORICAL).map(|j| Feature::categorical(format!("c{j}"), levels.clone())),
        )
        .collect();
    table("mixed", features, columns, labels)
}

/// The held-out rows of a point of `n` training rows: a quarter of them,
/// so that they are 20 % of the `n + n/4` rows generated.
pub fn heldout_rows(n: usize) -> usize {
    n / 4
}

/// Builds a two-class table; the generators above always produce
/// consistent columns.
fn table(
    name: &str,
    features: Vec<Feature>,
    columns: Vec<Vec<f64>>,
    labels: Vec<usize>,
) -> Dataset {
    Dataset::new(
        name,
        features,
        columns,
        Target::Classes {
            labels,
            names: vec!["0".into(), "1".into()],
        },
    )
    .expect("generated columns are consistent")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twonorm_at_twenty_features_is_breimans() {
        let ours = twonorm(300, 20, 7);
        let theirs = rulecover_core::generate::twonorm(300, 7);
        assert_eq!(ours.n_features(), 20);
        for j in 0..20 {
            assert_eq!(ours.column(j), theirs.column(j));
        }
        assert_eq!(ours.labels().unwrap(), theirs.labels().unwrap());
    }

    #[test]
    fn twonorm_width_and_separation() {
        let d = twonorm(4000, 100, 3);
        assert_eq!((d.n_rows(), d.n_features()), (4000, 100));
        // The sum of the features separates the classes at Bayes error
        // about 2.3%: far below a coin's.
        let labels = d.labels().unwrap();
        let wrong = (0..4000)
            .filter(|&i| {
                let s: f64 = (0..100).map(|j| d.column(j)[i]).sum();
                (s > 0.0) != (labels[i] == 0)
            })
            .count();
        assert!(wrong < 200, "{wrong} of 4000 misclassified");
    }

    #[test]
    fn mixed_has_valid_levels_and_class_signal() {
        let d = mixed(5000, 5);
        assert_eq!(d.n_features(), MIXED_NUMERIC + MIXED_CATEGORICAL);
        let labels = d.labels().unwrap();
        let col = d.column(MIXED_NUMERIC);
        assert!(col
            .iter()
            .all(|&v| v.fract() == 0.0 && (0.0..5.0).contains(&v)));
        // Level l4 is more frequent in class 1 than in class 0.
        let share = |class: usize| {
            let rows: Vec<usize> = (0..5000).filter(|&i| labels[i] == class).collect();
            rows.iter().filter(|&&i| col[i] == 4.0).count() as f64 / rows.len() as f64
        };
        assert!(share(1) > share(0) + 0.1, "{} vs {}", share(1), share(0));
    }
}
