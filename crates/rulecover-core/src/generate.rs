//! Generated datasets for tests and the quick benchmark suite: Breiman's
//! twonorm and ringnorm, a rotated XOR with noise features, Gaussian blobs
//! of any number of classes, and the UCI Tic-Tac-Toe Endgame data
//! enumerated from the rules of the game; [`with_majority`] makes any of
//! them imbalanced and [`with_label_noise`] flips a share of its labels.
//!
//! Random generators draw from [`Rng`] only, so the same arguments give the
//! same data on every platform.
//!
//! ```
//! use rulecover_core::generate::{tictactoe, twonorm};
//! let ttt = tictactoe();
//! assert_eq!(ttt.n_rows(), 958);
//! assert_eq!(ttt.class_counts(), vec![332, 626]);
//! let tn = twonorm(100, 7);
//! assert_eq!((tn.n_rows(), tn.n_features()), (100, 20));
//! ```

use std::collections::BTreeSet;

use crate::dataset::{Dataset, Feature, Target};
use crate::error::{Error, Result};
use crate::rng::Rng;

/// Number of features of twonorm and ringnorm.
pub const NORM_DIMS: usize = 20;

/// The mean offset `a = 2 / √20` of Breiman's twonorm and ringnorm.
pub fn norm_offset() -> f64 {
    2.0 / (NORM_DIMS as f64).sqrt()
}

/// Builds a dataset from generator output; the generators always produce
/// consistent columns, so this cannot fail.
fn build(
    name: &str,
    features: Vec<Feature>,
    columns: Vec<Vec<f64>>,
    labels: Vec<usize>,
    names: [&str; 2],
) -> Dataset {
    Dataset::new(
        name,
        features,
        columns,
        Target::Classes {
            labels,
            names: names.iter().map(|s| s.to_string()).collect(),
        },
    )
    .expect("generated columns are consistent")
}

fn numeric_features(p: usize) -> Vec<Feature> {
    (0..p).map(|j| Feature::numeric(format!("x{j}"))).collect()
}

/// Shared body of twonorm and ringnorm: `sample(class, rng)` draws one
/// coordinate.
fn two_gaussians(
    name: &str,
    n: usize,
    seed: u64,
    sample: impl Fn(usize, &mut Rng) -> f64,
) -> Dataset {
    let mut rng = Rng::new(seed);
    let mut columns = (0..NORM_DIMS)
        .map(|_| Vec::with_capacity(n))
        .collect::<Vec<_>>();
    let mut labels = Vec::with_capacity(n);
    for _ in 0..n {
        let class = rng.below(2);
        labels.push(class);
        for col in columns.iter_mut() {
            col.push(sample(class, &mut rng));
        }
    }
    build(
        name,
        numeric_features(NORM_DIMS),
        columns,
        labels,
        ["0", "1"],
    )
}

/// Breiman's twonorm (1996, "Bias, variance and arcing classifiers"): 20
/// features `x0..x19`; class 0 ~ N((a, …, a), I) and class 1 ~ N((−a, …,
/// −a), I) with `a = 2/√20`. Each row's class is drawn with probability ½
/// (as Breiman), so class counts vary around `n / 2`. The Bayes error is
/// about 2.3%.
pub fn twonorm(n: usize, seed: u64) -> Dataset {
    let a = norm_offset();
    two_gaussians("twonorm", n, seed, |class, rng| {
        let mean = if class == 0 { a } else { -a };
        mean + rng.normal()
    })
}

/// Breiman's ringnorm (1996): 20 features `x0..x19`; class 0 ~ N(0, 4I)
/// (standard deviation 2 per coordinate) and class 1 ~ N((a, …, a), I)
/// with `a = 2/√20`. Each row's class is drawn with probability ½. The
/// Bayes error is about 1.3%.
pub fn ringnorm(n: usize, seed: u64) -> Dataset {
    let a = norm_offset();
    two_gaussians("ringnorm", n, seed, |class, rng| {
        if class == 0 {
            2.0 * rng.normal()
        } else {
            a + rng.normal()
        }
    })
}

/// A rotated XOR: features `x0, x1` uniform on `[−1, 1]²`, and
/// `noise_dims` further features `x2, …` uniform on `[−1, 1]` and
/// unrelated to the class. With `(u, v)` = `(x0, x1)` rotated by `angle`
/// radians (`u = x0 cos θ − x1 sin θ`, `v = x0 sin θ + x1 cos θ`), the
/// label is 1 when `u · v > 0` and 0 otherwise, so the class boundaries
/// are the two lines through the origin at angles `−θ` and `π/2 − θ`.
/// `angle = π/4` gives the NRE paper's XOR rotated by 45°, whose
/// boundaries are the diagonals.
pub fn rotated_xor(n: usize, noise_dims: usize, angle: f64, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let p = 2 + noise_dims;
    let (sin, cos) = angle.sin_cos();
    let mut columns = (0..p).map(|_| Vec::with_capacity(n)).collect::<Vec<_>>();
    let mut labels = Vec::with_capacity(n);
    let mut row = vec![0.0; p];
    for _ in 0..n {
        for (v, col) in row.iter_mut().zip(columns.iter_mut()) {
            *v = 2.0 * rng.next_f64() - 1.0;
            col.push(*v);
        }
        let (x0, x1) = (row[0], row[1]);
        let u = x0 * cos - x1 * sin;
        let v = x0 * sin + x1 * cos;
        labels.push(usize::from(u * v > 0.0));
    }
    build(
        "rotated_xor",
        numeric_features(p),
        columns,
        labels,
        ["0", "1"],
    )
}

/// The distance of each class centre of [`blobs`] from the origin.
pub const BLOB_RADIUS: f64 = 3.0;

/// Gaussian blobs: `n_classes` classes (named `0`, `1`, …), each row's
/// class drawn uniformly, and `dims` features `x0, x1, …` (at least 2;
/// fewer are raised to 2), each the class centre's coordinate plus a
/// standard normal deviate. The centre of class `c` lies on the circle of
/// radius [`BLOB_RADIUS`] in `(x0, x1)`, at angle `2πc / n_classes`; the
/// other features are pure noise. With 4 classes neighbouring centres are
/// `3√2` apart, so the classes overlap a little (Bayes error about 3%).
pub fn blobs(n: usize, n_classes: usize, dims: usize, seed: u64) -> Dataset {
    let k = n_classes.max(1);
    let p = dims.max(2);
    let mut rng = Rng::new(seed);
    let mut columns = (0..p).map(|_| Vec::with_capacity(n)).collect::<Vec<_>>();
    let mut labels = Vec::with_capacity(n);
    for _ in 0..n {
        let class = rng.below(k);
        labels.push(class);
        let angle = std::f64::consts::TAU * class as f64 / k as f64;
        let centre = [BLOB_RADIUS * angle.cos(), BLOB_RADIUS * angle.sin()];
        for (j, col) in columns.iter_mut().enumerate() {
            col.push(centre.get(j).copied().unwrap_or(0.0) + rng.normal());
        }
    }
    Dataset::new(
        "blobs",
        numeric_features(p),
        columns,
        Target::Classes {
            labels,
            names: (0..k).map(|c| c.to_string()).collect(),
        },
    )
    .expect("generated columns are consistent")
}

/// `data` with the rows of every class but class 0 thinned at random, so
/// that class 0 holds about `majority` of the rows (the other classes keep
/// their proportions among themselves): imbalanced data from any
/// generator, e.g. `with_majority(&twonorm(10_000, 1), 0.98, 1)` for 98/2.
/// Rows keep their order; the same seed keeps the same rows (the draws
/// come from a stream derived from `seed`, so a generator's own `seed`
/// can be passed again without the thinning following its draws).
///
/// # Errors
/// [`Error::InvalidParameter`] for `majority` outside `(0, 1)` or below
/// class 0's share already; [`Error::TargetKind`] without classes.
pub fn with_majority(data: &Dataset, majority: f64, seed: u64) -> Result<Dataset> {
    if !(majority > 0.0 && majority < 1.0) {
        return Err(Error::InvalidParameter {
            name: "majority",
            value: majority.to_string(),
            reason: "must lie strictly between 0 and 1".into(),
        });
    }
    if !data.is_classification() {
        return Err(Error::TargetKind(format!(
            "'{}': a majority share needs classes",
            data.name()
        )));
    }
    let labels = data.labels()?;
    let n0 = labels.iter().filter(|&&y| y == 0).count() as f64;
    let others = labels.len() as f64 - n0;
    let share = n0 / labels.len() as f64;
    if majority < share || others == 0.0 {
        return Err(Error::InvalidParameter {
            name: "majority",
            value: majority.to_string(),
            reason: format!("class 0 already holds {share:.3} of the rows"),
        });
    }
    let keep = (1.0 - majority) / majority * n0 / others;
    let mut rng = Rng::new(seed ^ 0x6d61_6a6f_7269_7479);
    let rows: Vec<usize> = (0..labels.len())
        .filter(|&i| {
            let draw = rng.next_f64();
            labels[i] == 0 || draw < keep
        })
        .collect();
    data.subset(&rows)
}

/// `data` with label noise: exactly `round(share · rows)` rows, drawn at
/// random without replacement, get a class other than their own, drawn
/// uniformly from the other classes (with two classes, the other class),
/// so the noise does not depend on the features. Features and row order
/// are unchanged; the same seed flips the same rows to the same classes
/// (the draws come from a stream derived from `seed`, so a generator's
/// own `seed` can be passed again, as for [`with_majority`]). E.g.
/// `with_label_noise(&twonorm(4_000, 1), 0.2, 1)` for 20 % flipped labels.
///
/// ```
/// use rulecover_core::generate::{twonorm, with_label_noise};
/// let clean = twonorm(1_000, 7);
/// let noisy = with_label_noise(&clean, 0.2, 7)?;
/// let (a, b) = (clean.labels()?, noisy.labels()?);
/// assert_eq!(a.iter().zip(&b).filter(|(x, y)| x != y).count(), 200);
/// # Ok::<(), rulecover_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::InvalidParameter`] for `share` outside `[0, 1]`, or above 0
/// with fewer than two classes; [`Error::TargetKind`] without classes.
pub fn with_label_noise(data: &Dataset, share: f64, seed: u64) -> Result<Dataset> {
    if !(0.0..=1.0).contains(&share) {
        return Err(Error::InvalidParameter {
            name: "share",
            value: share.to_string(),
            reason: "must lie in [0, 1]".into(),
        });
    }
    if !data.is_classification() {
        return Err(Error::TargetKind(format!(
            "'{}': label noise needs classes",
            data.name()
        )));
    }
    let names = data.class_names().to_vec();
    let k = names.len();
    if k < 2 && share > 0.0 {
        return Err(Error::InvalidParameter {
            name: "share",
            value: share.to_string(),
            reason: format!(
                "'{}' has fewer than two classes to flip between",
                data.name()
            ),
        });
    }
    let mut labels = data.labels()?;
    let n = labels.len();
    let flips = ((share * n as f64).round() as usize).min(n);
    let mut rng = Rng::new(seed ^ 0x6e6f_6973_795f_6c61);
    for i in rng.sample_indices(n, flips) {
        // One of the k - 1 other classes, uniformly.
        let other = rng.below(k - 1);
        labels[i] = if other >= labels[i] { other + 1 } else { other };
    }
    data.with_target(Target::Classes { labels, names })
}

/// Column names of the Tic-Tac-Toe Endgame data, board cells in reading
/// order.
pub const TICTACTOE_FEATURES: [&str; 9] = [
    "top_left_square",
    "top_middle_square",
    "top_right_square",
    "middle_left_square",
    "middle_middle_square",
    "middle_right_square",
    "bottom_left_square",
    "bottom_middle_square",
    "bottom_right_square",
];

const BLANK: u8 = 0;
const O: u8 = 1;
const X: u8 = 2;

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn wins(board: &[u8; 9], player: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&c| board[c] == player))
}

/// Plays every legal continuation from `board` with `player` to move,
/// collecting the boards where the game ends.
fn play(board: &mut [u8; 9], player: u8, moves: usize, ends: &mut BTreeSet<[u8; 9]>) {
    for cell in 0..9 {
        if board[cell] != BLANK {
            continue;
        }
        board[cell] = player;
        if wins(board, player) || moves + 1 == 9 {
            ends.insert(*board);
        } else {
            play(board, if player == X { O } else { X }, moves + 1, ends);
        }
        board[cell] = BLANK;
    }
}

/// The UCI Tic-Tac-Toe Endgame data set, enumerated from the rules: every
/// board at which a game ends (a player completes three in a row, or the
/// board is full) when x moves first, the players alternate and play stops
/// at the first win. That gives 958 distinct boards; the class is
/// `positive` (label 1) when x has three in a row (626 boards) and
/// `negative` (label 0) otherwise (o won, or a draw).
///
/// Nine categorical features named as [`TICTACTOE_FEATURES`], levels
/// `["b", "o", "x"]` (codes 0, 1, 2; b = blank). Rows are in lexicographic
/// order of the boards' codes read cell by cell from top left to bottom
/// right (b < o < x), a fixed order that differs from the UCI file's.
pub fn tictactoe() -> Dataset {
    let mut ends = BTreeSet::new();
    play(&mut [BLANK; 9], X, 0, &mut ends);
    let levels: Vec<String> = ["b", "o", "x"].iter().map(|s| s.to_string()).collect();
    let features = TICTACTOE_FEATURES
        .iter()
        .map(|name| Feature::categorical(*name, levels.clone()))
        .collect();
    let mut columns = (0..9)
        .map(|_| Vec::with_capacity(ends.len()))
        .collect::<Vec<_>>();
    let mut labels = Vec::with_capacity(ends.len());
    for board in &ends {
        for (col, &v) in columns.iter_mut().zip(board) {
            col.push(f64::from(v));
        }
        labels.push(usize::from(wins(board, X)));
    }
    build(
        "tic-tac-toe",
        features,
        columns,
        labels,
        ["negative", "positive"],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_majority_thins_the_other_classes() {
        let data = blobs(20_000, 4, 2, 3);
        let thin = with_majority(&data, 0.98, 5).unwrap();
        let counts = thin.class_counts();
        let share = counts[0] as f64 / thin.n_rows() as f64;
        assert!((share - 0.98).abs() < 0.005, "{counts:?}");
        assert!(counts[1..].iter().all(|&c| c > 10), "{counts:?}");
        assert_eq!(counts[0], data.class_counts()[0]);
        let again = with_majority(&data, 0.98, 5).unwrap();
        assert_eq!(thin.labels().unwrap(), again.labels().unwrap());
        assert_eq!(thin.column(0), again.column(0));
        for bad in [0.0, 1.0, 0.1, f64::NAN] {
            assert!(with_majority(&data, bad, 5).is_err(), "{bad}");
        }
    }

    #[test]
    fn with_label_noise_flips_the_share_asked_to_other_classes() {
        let data = twonorm(1_001, 4);
        let clean = data.labels().unwrap();
        let noisy = with_label_noise(&data, 0.2, 9).unwrap();
        let flipped: Vec<usize> = (0..clean.len())
            .filter(|&i| noisy.label(i) != clean[i])
            .collect();
        // round(0.2 * 1001) = 200 rows, each now of the other class.
        assert_eq!(flipped.len(), 200);
        assert_eq!(noisy.class_names(), data.class_names());
        for j in 0..data.n_features() {
            assert_eq!(noisy.column(j), data.column(j));
        }
        // The same seed flips the same rows; another seed other rows.
        let again = with_label_noise(&data, 0.2, 9).unwrap();
        assert_eq!(again.labels().unwrap(), noisy.labels().unwrap());
        let other = with_label_noise(&data, 0.2, 10).unwrap();
        assert_ne!(other.labels().unwrap(), noisy.labels().unwrap());
        // Nothing and everything.
        assert_eq!(
            with_label_noise(&data, 0.0, 9).unwrap().labels().unwrap(),
            clean
        );
        let all = with_label_noise(&data, 1.0, 9).unwrap().labels().unwrap();
        assert!(all.iter().zip(&clean).all(|(a, b)| a != b));

        // Several classes: a flipped row goes to each other class about
        // equally often, never to its own.
        let blobs4 = blobs(8_000, 4, 2, 3);
        let before = blobs4.labels().unwrap();
        let after = with_label_noise(&blobs4, 0.5, 3).unwrap().labels().unwrap();
        let mut moves = [[0usize; 4]; 4];
        for (&a, &b) in before.iter().zip(&after) {
            moves[a][b] += 1;
        }
        let changed: usize = (0..4)
            .flat_map(|a| (0..4).filter(move |&b| b != a).map(move |b| (a, b)))
            .map(|(a, b)| moves[a][b])
            .sum();
        assert_eq!(changed, 4_000);
        for (a, row) in moves.iter().enumerate() {
            for (b, &m) in row.iter().enumerate() {
                if a != b {
                    // About 8000 / 4 / 2 / 3 = 333 each (sd about 17).
                    assert!((250..420).contains(&m), "{a} -> {b}: {m}");
                }
            }
        }

        for bad in [-0.1, 1.5, f64::NAN] {
            assert!(with_label_noise(&data, bad, 1).is_err(), "{bad}");
        }
        let regression = data
            .with_target(Target::Real(vec![0.0; data.n_rows()]))
            .unwrap();
        assert!(with_label_noise(&regression, 0.1, 1).is_err());
    }

    /// Per-class mean and variance of every feature.
    fn class_moments(data: &Dataset, class: usize) -> Vec<(f64, f64)> {
        let rows: Vec<usize> = (0..data.n_rows())
            .filter(|&i| data.label(i) == class)
            .collect();
        let n = rows.len() as f64;
        (0..data.n_features())
            .map(|j| {
                let m = rows.iter().map(|&i| data.value(i, j)).sum::<f64>() / n;
                let v = rows
                    .iter()
                    .map(|&i| (data.value(i, j) - m).powi(2))
                    .sum::<f64>()
                    / (n - 1.0);
                (m, v)
            })
            .collect()
    }

    #[test]
    fn twonorm_moments() {
        let data = twonorm(20_000, 1);
        assert_eq!(data.n_features(), 20);
        let counts = data.class_counts();
        // Binomial(20000, ½): sd ≈ 71.
        assert!((9_600..10_400).contains(&counts[0]), "{counts:?}");
        let a = norm_offset();
        assert!((a - 0.447_213_595_499_958).abs() < 1e-12);
        // Mean se ≈ 0.01, variance se ≈ 0.014 per class and feature.
        for (m, v) in class_moments(&data, 0) {
            assert!((m - a).abs() < 0.05, "mean {m}");
            assert!((v - 1.0).abs() < 0.08, "var {v}");
        }
        for (m, v) in class_moments(&data, 1) {
            assert!((m + a).abs() < 0.05, "mean {m}");
            assert!((v - 1.0).abs() < 0.08, "var {v}");
        }
    }

    #[test]
    fn ringnorm_moments() {
        let data = ringnorm(20_000, 2);
        let a = norm_offset();
        // Class 0: mean 0 (se ≈ 0.02), variance 4 (se ≈ 0.057).
        let m0 = class_moments(&data, 0);
        for &(m, v) in &m0 {
            assert!(m.abs() < 0.1, "mean {m}");
            assert!((v - 4.0).abs() < 0.3, "var {v}");
        }
        let avg_v0 = m0.iter().map(|p| p.1).sum::<f64>() / 20.0;
        assert!((avg_v0 - 4.0).abs() < 0.08, "avg var {avg_v0}");
        for (m, v) in class_moments(&data, 1) {
            assert!((m - a).abs() < 0.05, "mean {m}");
            assert!((v - 1.0).abs() < 0.08, "var {v}");
        }
    }

    #[test]
    fn generators_are_deterministic() {
        let same = |a: &Dataset, b: &Dataset| {
            a.labels().unwrap() == b.labels().unwrap()
                && (0..a.n_features()).all(|j| a.column(j) == b.column(j))
        };
        assert!(same(&twonorm(50, 3), &twonorm(50, 3)));
        assert!(!same(&twonorm(50, 3), &twonorm(50, 4)));
        assert!(same(&ringnorm(50, 3), &ringnorm(50, 3)));
        assert!(same(
            &rotated_xor(50, 2, 0.3, 3),
            &rotated_xor(50, 2, 0.3, 3)
        ));
        assert!(same(&tictactoe(), &tictactoe()));
        assert_eq!(twonorm(0, 1).n_rows(), 0);
    }

    #[test]
    fn blobs_are_centred_on_a_circle() {
        let data = blobs(4_000, 4, 3, 9);
        let again = blobs(4_000, 4, 3, 9);
        assert_eq!(data.labels().unwrap(), again.labels().unwrap());
        assert_eq!(data.column(2), again.column(2));
        assert_eq!(data.feature_names(), ["x0", "x1", "x2"]);
        assert_eq!(data.class_names(), ["0", "1", "2", "3"]);
        let counts = data.class_counts();
        assert!(
            counts.iter().all(|&c| (900..1_100).contains(&c)),
            "{counts:?}"
        );
        // The mean of each class is its centre (within 4 standard errors).
        for (c, &count) in counts.iter().enumerate() {
            let angle = std::f64::consts::TAU * c as f64 / 4.0;
            let centre = [BLOB_RADIUS * angle.cos(), BLOB_RADIUS * angle.sin(), 0.0];
            for (j, want) in centre.iter().enumerate() {
                let sum: f64 = (0..data.n_rows())
                    .filter(|&i| data.label(i) == c)
                    .map(|i| data.value(i, j))
                    .sum();
                let mean = sum / count as f64;
                assert!(
                    (mean - want).abs() < 4.0 / (count as f64).sqrt(),
                    "{c} {j}: {mean}"
                );
            }
        }
        assert_eq!(blobs(10, 3, 0, 1).n_features(), 2);
    }

    #[test]
    fn rotated_xor_labels() {
        let angle = std::f64::consts::FRAC_PI_4;
        let data = rotated_xor(5_000, 3, angle, 5);
        assert_eq!(data.n_features(), 5);
        assert_eq!(data.feature_names()[4], "x4");
        let mut ones = 0;
        for i in 0..data.n_rows() {
            let (x0, x1) = (data.value(i, 0), data.value(i, 1));
            for j in 0..5 {
                assert!((-1.0..1.0).contains(&data.value(i, j)));
            }
            // Rotated by 45°: u·v = (x0² − x1²)/2, so class 1 ⇔ |x0| > |x1|.
            if (x0.abs() - x1.abs()).abs() > 1e-9 {
                assert_eq!(data.label(i), usize::from(x0.abs() > x1.abs()));
            }
            ones += data.label(i);
        }
        assert!((2_300..2_700).contains(&ones));
        // Angle 0: plain XOR.
        let plain = rotated_xor(200, 0, 0.0, 6);
        for i in 0..plain.n_rows() {
            let s = plain.value(i, 0) * plain.value(i, 1);
            assert_eq!(plain.label(i), usize::from(s > 0.0));
        }
    }

    #[test]
    fn tictactoe_counts_and_encoding() {
        let data = tictactoe();
        assert_eq!(data.n_rows(), 958);
        assert_eq!(data.class_counts(), vec![332, 626]);
        assert_eq!(data.class_names(), ["negative", "positive"]);
        assert_eq!(data.feature_names(), TICTACTOE_FEATURES);
        assert!(data.features().iter().all(|f| f.is_categorical()));
        let board = |i: usize| -> [u8; 9] { std::array::from_fn(|j| data.value(i, j) as u8) };
        let mut n_draws = 0;
        for i in 0..data.n_rows() {
            let b = board(i);
            let xs = b.iter().filter(|&&c| c == X).count();
            let os = b.iter().filter(|&&c| c == O).count();
            let (xw, ow) = (wins(&b, X), wins(&b, O));
            // x moved first: x has as many marks as o, or one more.
            assert!(xs == os || xs == os + 1);
            assert!(!(xw && ow));
            if xw {
                assert_eq!(xs, os + 1, "x wins on its own move");
            } else if ow {
                assert_eq!(xs, os, "o wins on its own move");
            } else {
                assert_eq!(xs + os, 9);
                n_draws += 1;
            }
            assert_eq!(data.label(i), usize::from(xw));
            if i > 0 {
                assert!(board(i - 1) < b, "rows in lexicographic order");
            }
        }
        // UCI: 626 x wins, 316 o wins, 16 draws.
        assert_eq!(n_draws, 16);
    }
}
