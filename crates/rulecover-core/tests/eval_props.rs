//! Property tests of cross-validation splits and ranking metrics (those of
//! the rank-based tests moved with them to xtask's `stats`).

use proptest::prelude::*;
use rulecover_core::cv::{kfold, stratified_kfold, train_test_split_stratified, Fold};
use rulecover_core::metrics::{auc_pr, auc_roc, average_precision};

fn assert_partition(folds: &[Fold], n: usize) {
    let mut seen = vec![0usize; n];
    for f in folds {
        assert!(f.test.windows(2).all(|w| w[0] < w[1]));
        assert!(f.train.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(f.train.len() + f.test.len(), n);
        for &i in &f.test {
            seen[i] += 1;
        }
    }
    assert!(seen.iter().all(|&c| c == 1));
}

proptest! {
    #![proptest_config(ProptestConfig {
        // A fixed seed: CI runs the same cases every time (a failing case
        // stays reproducible); change the seed locally to explore.
        rng_seed: proptest::test_runner::RngSeed::Fixed(11),
        ..ProptestConfig::default()
    })]

    #[test]
    fn stratified_folds_are_balanced(
        labels in prop::collection::vec(0usize..4, 10..120),
        k in 2usize..8,
        seed in any::<u64>(),
    ) {
        let n = labels.len();
        let mut counts = [0usize; 4];
        for &l in &labels {
            counts[l] += 1;
        }
        let result = stratified_kfold(&labels, k, seed);
        if counts.iter().all(|&c| c < k) {
            prop_assert!(result.is_err());
            return Ok(());
        }
        let folds = result.unwrap();
        prop_assert_eq!(folds.len(), k);
        assert_partition(&folds, n);
        let sizes: Vec<usize> = folds.iter().map(|f| f.test.len()).collect();
        prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        for c in 0..4 {
            let per_fold: Vec<usize> = folds
                .iter()
                .map(|f| f.test.iter().filter(|&&i| labels[i] == c).count())
                .collect();
            let (lo, hi) = (per_fold.iter().min().unwrap(), per_fold.iter().max().unwrap());
            prop_assert!(hi - lo <= 1, "class {} spread {:?}", c, per_fold);
        }
        prop_assert_eq!(folds, stratified_kfold(&labels, k, seed).unwrap());
    }

    #[test]
    fn kfold_partitions(n in 2usize..200, k in 2usize..10, shuffle in any::<bool>(), seed in any::<u64>()) {
        prop_assume!(k <= n);
        let folds = kfold(n, k, shuffle, seed).unwrap();
        assert_partition(&folds, n);
    }

    #[test]
    fn split_sizes(labels in prop::collection::vec(0usize..3, 4..100), frac in 0.05f64..0.6, seed in any::<u64>()) {
        let n = labels.len();
        let n_test = (frac * n as f64).ceil() as usize;
        match train_test_split_stratified(&labels, frac, seed) {
            Ok(f) => {
                prop_assert_eq!(f.test.len(), n_test);
                let mut all: Vec<usize> = f.train.iter().chain(&f.test).copied().collect();
                all.sort_unstable();
                prop_assert_eq!(all, (0..n).collect::<Vec<_>>());
            }
            Err(_) => prop_assert!(n_test == 0 || n_test >= n),
        }
    }

    #[test]
    fn auc_is_pairwise_probability(
        pairs in prop::collection::vec((0usize..2, 0u8..6), 2..40),
    ) {
        let y: Vec<usize> = pairs.iter().map(|p| p.0).collect();
        let s: Vec<f64> = pairs.iter().map(|p| f64::from(p.1)).collect();
        let auc = auc_roc(&y, &s).unwrap();
        let pos: Vec<f64> = s.iter().zip(&y).filter(|p| *p.1 == 1).map(|p| *p.0).collect();
        let neg: Vec<f64> = s.iter().zip(&y).filter(|p| *p.1 == 0).map(|p| *p.0).collect();
        if pos.is_empty() || neg.is_empty() {
            prop_assert_eq!(auc, None);
            return Ok(());
        }
        let mut wins = 0.0;
        for p in &pos {
            for q in &neg {
                wins += if p > q { 1.0 } else if p == q { 0.5 } else { 0.0 };
            }
        }
        let expected = wins / (pos.len() * neg.len()) as f64;
        prop_assert!((auc.unwrap() - expected).abs() < 1e-12);
        let flipped: Vec<f64> = s.iter().map(|v| -v).collect();
        prop_assert!((auc.unwrap() + auc_roc(&y, &flipped).unwrap().unwrap() - 1.0).abs() < 1e-12);
        let ap = average_precision(&y, &s).unwrap().unwrap();
        let pr = auc_pr(&y, &s).unwrap().unwrap();
        prop_assert!((0.0..=1.0 + 1e-12).contains(&ap));
        prop_assert!((0.0..=1.0 + 1e-12).contains(&pr));
    }
}
