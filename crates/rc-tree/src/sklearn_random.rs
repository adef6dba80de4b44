//! scikit-learn's random streams, so that a tree or forest fitted with
//! [`RandomStream::Sklearn`](crate::RandomStream::Sklearn) and
//! `random_state = seed` draws exactly what scikit-learn (1.x) draws:
//!
//! - a forest turns its `RandomState(seed)` into one seed per tree with
//!   `randint(np.iinfo(np.int32).max)` (`_set_random_states`);
//! - a tree's bootstrap sample is `RandomState(tree_seed).randint(0, n, n)`
//!   (`_generate_sample_indices`), used as integer sample weights;
//! - a tree's splitter seeds its own generator with
//!   `RandomState(tree_seed).randint(0, RAND_R_MAX)` and draws features
//!   with `rand_int(low, high) = low + our_rand_r() % (high − low)`
//!   (`sklearn/utils/_random.pxd`).
//!
//! numpy's legacy `randint` with a range below 2³² is masked rejection on
//! 32-bit MT19937 outputs, which [`Mt19937::interval`] reproduces.

use rulecover_core::mt19937::Mt19937;
use rulecover_core::Rng;

/// `RAND_R_MAX` of scikit-learn's `_random.pxd` (`0x7FFFFFFF`), which is
/// also `np.iinfo(np.int32).max`.
const RAND_R_MAX: u32 = 0x7FFF_FFFF;

/// The random draws of one tree build.
pub(crate) enum Draws {
    /// rulecover-core's generator (feature draws by Lemire's method).
    Native(Rng),
    /// scikit-learn's `rand_r` state of the splitter.
    Sklearn(RandR),
}

/// scikit-learn's `our_rand_r` xorshift generator.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RandR(u32);

impl RandR {
    /// The splitter's generator of a tree with `random_state = seed`:
    /// seeded by `RandomState(seed).randint(0, RAND_R_MAX)`.
    pub(crate) fn for_tree(seed: u32) -> RandR {
        RandR(Mt19937::new(seed).interval(RAND_R_MAX - 1))
    }

    /// `our_rand_r`: the next value in `0..=RAND_R_MAX`.
    fn next(&mut self) -> u32 {
        if self.0 == 0 {
            self.0 = 1; // DEFAULT_SEED
        }
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        // `% (RAND_R_MAX + 1)` as a mask: RAND_R_MAX + 1 is 2³¹.
        self.0 & RAND_R_MAX
    }

    /// `rand_int(low, high)`: `low + our_rand_r() % (high − low)` for
    /// `low < high`.
    pub(crate) fn rand_int(&mut self, low: usize, high: usize) -> usize {
        debug_assert!(low < high);
        low + (self.next() as usize) % (high - low)
    }
}

/// The `random_state` of each of an ensemble's `n` estimators (forest
/// trees, AdaBoost rounds): `RandomState(seed).randint(np.iinfo(np.int32).max)`,
/// drawn in order (scikit-learn's `_set_random_states`).
pub(crate) fn estimator_seeds(seed: u32, n: usize) -> Vec<u32> {
    let mut mt = Mt19937::new(seed);
    (0..n).map(|_| mt.interval(RAND_R_MAX - 1)).collect()
}

/// Bootstrap counts of a tree with `random_state = tree_seed`: how often
/// each of `n_rows` rows occurs among `draws` draws of
/// `RandomState(tree_seed).randint(0, n_rows, draws)`.
pub(crate) fn bootstrap_counts(tree_seed: u32, n_rows: usize, draws: usize) -> Vec<u32> {
    let mut mt = Mt19937::new(tree_seed);
    let mut counts = vec![0u32; n_rows];
    if n_rows == 0 {
        return counts;
    }
    let max = (n_rows - 1) as u32;
    for _ in 0..draws {
        counts[mt.interval(max) as usize] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference values printed by numpy 2.4:
    // `np.random.RandomState(25).randint(0, 2**31 - 1)` and
    // `RandomState(25).randint(np.iinfo(np.int32).max, size=3)`.
    #[test]
    fn splitter_seed_and_forest_seeds_equal_numpy() {
        assert_eq!(RandR::for_tree(25).0, 1_589_671_044);
        assert_eq!(
            estimator_seeds(25, 3),
            vec![1_589_671_044, 842_096_958, 353_376_730]
        );
    }

    #[test]
    fn rand_r_is_the_xorshift_of_sklearn() {
        let mut r = RandR(1);
        // 1 ^ (1 << 13) = 8193; 8193 ^ (8193 >> 17) = 8193;
        // 8193 ^ (8193 << 5) = 8193 ^ 262176 = 270369.
        assert_eq!(r.next(), 270_369);
        let mut z = RandR(0);
        assert_eq!(z.next(), 270_369, "a zero state restarts from 1");
        let v = r.rand_int(3, 10);
        assert!((3..10).contains(&v));
    }

    #[test]
    fn bootstrap_counts_sum_to_the_draws() {
        // np.bincount(RandomState(7).randint(0, 50, 50, dtype=np.int32)).
        let expected = [
            3, 1, 0, 2, 3, 1, 1, 1, 3, 2, 0, 1, 0, 0, 2, 0, 1, 0, 0, 3, 0, 0, 0, 3, 1, 2, 1, 0, 1,
            1, 0, 1, 0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 1, 0, 3, 0, 2, 1, 3, 0,
        ];
        assert_eq!(bootstrap_counts(7, 50, 50), expected);
        assert_eq!(bootstrap_counts(7, 1, 4), vec![4]);
    }
}
