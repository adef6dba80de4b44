//! Generated data sets shared by the integration tests.
#![allow(dead_code)]

use rulecover_core::{Dataset, Feature, Rng, Target};

fn features(p: usize) -> Vec<Feature> {
    (0..p).map(|j| Feature::numeric(format!("x{j}"))).collect()
}

/// `n` rows of `p` uniform features; the class is 1 when
/// `x0 + x1 > 1` (p ≥ 2), with `noise` of the labels flipped.
pub fn linear(n: usize, p: usize, noise: f64, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|_| (0..p).map(|_| rng.next_f64()).collect())
        .collect();
    let labels = rows
        .iter()
        .map(|r| {
            let y = usize::from(r[0] + r[1] > 1.0);
            if rng.next_f64() < noise {
                1 - y
            } else {
                y
            }
        })
        .collect();
    Dataset::from_rows(
        "linear",
        features(p),
        &rows,
        Target::Classes {
            labels,
            names: vec!["neg".into(), "pos".into()],
        },
    )
    .unwrap()
}

/// Three classes by the angle of (x0 − 0.5, x1 − 0.5); features rounded
/// to two decimals, so values repeat (ties), plus a 0/1 column.
pub fn three_classes(n: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let mut rows = Vec::new();
    let mut labels = Vec::new();
    for _ in 0..n {
        let x0 = (rng.next_f64() * 100.0).round() / 100.0;
        let x1 = (rng.next_f64() * 100.0).round() / 100.0;
        let b = f64::from(u8::from(rng.next_f64() < 0.3));
        let a = (x1 - 0.5).atan2(x0 - 0.5);
        let c = (((a + std::f64::consts::PI) / (2.0 * std::f64::consts::PI)) * 3.0) as usize;
        labels.push(c.min(2));
        rows.push(vec![x0, x1, b, rng.next_f64()]);
    }
    Dataset::from_rows(
        "three",
        features(4),
        &rows,
        Target::Classes {
            labels,
            names: vec!["a".into(), "b".into(), "c".into()],
        },
    )
    .unwrap()
}

/// XOR-like checkerboard on two features (a stump cannot learn it), with
/// two extra noise features.
pub fn checkerboard(n: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let mut rows = Vec::new();
    let mut labels = Vec::new();
    for _ in 0..n {
        let r: Vec<f64> = (0..4).map(|_| rng.next_f64()).collect();
        let y = usize::from((r[0] > 0.5) != (r[1] > 0.5));
        labels.push(y);
        rows.push(r);
    }
    Dataset::from_rows(
        "checkerboard",
        features(4),
        &rows,
        Target::Classes {
            labels,
            names: vec!["0".into(), "1".into()],
        },
    )
    .unwrap()
}

/// A real target: `y = step(x0) + 0.1 · x1` with noise.
pub fn regression(n: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|_| (0..3).map(|_| rng.next_f64()).collect())
        .collect();
    let y = rows
        .iter()
        .map(|r| if r[0] > 0.4 { 2.0 } else { -1.0 } + 0.1 * r[1] + 0.05 * rng.normal())
        .collect();
    Dataset::from_rows("reg", features(3), &rows, Target::Real(y)).unwrap()
}

/// Fraction of equal entries.
pub fn accuracy(a: &[usize], b: &[usize]) -> f64 {
    a.iter().zip(b).filter(|(x, y)| x == y).count() as f64 / a.len() as f64
}
