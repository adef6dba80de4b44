//! Uniform integer draws from [`rulecover_core::Rng`] without a division per draw.

use rulecover_core::Rng;

/// A uniform integer in `0..n` (`n > 0`) by Lemire's multiply-shift method
/// with rejection (exactly uniform; a division only on the rare rejection
/// path). Used for feature sampling and bootstrap draws, where
/// `Rng::below`'s two divisions per draw are a measurable cost.
#[inline]
pub(crate) fn below(rng: &mut Rng, n: usize) -> usize {
    debug_assert!(n > 0);
    let n = n as u64;
    let mut m = u128::from(rng.next_u64()) * u128::from(n);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (m >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_uniform_and_in_range() {
        let mut rng = Rng::new(3);
        let mut counts = [0usize; 7];
        for _ in 0..70_000 {
            counts[below(&mut rng, 7)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(below(&mut rng, 1), 0);
    }
}
