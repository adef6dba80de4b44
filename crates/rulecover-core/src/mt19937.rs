//! numpy's legacy `RandomState` (MT19937) — just enough of it to
//! reproduce scikit-learn's shuffled splits bit for bit, so our folds can
//! equal the papers' (`StratifiedKFold(shuffle=True, random_state=25)`).

/// The Mersenne Twister MT19937 as numpy's `RandomState(seed)` seeds it.
#[derive(Debug, Clone)]
pub struct Mt19937 {
    state: [u32; 624],
    pos: usize,
}

impl Mt19937 {
    /// `numpy.random.RandomState(seed)` for an integer seed (init_genrand).
    pub fn new(seed: u32) -> Self {
        let mut state = [0u32; 624];
        let mut s = seed;
        for (k, slot) in state.iter_mut().enumerate() {
            *slot = s;
            s = 1_812_433_253u32
                .wrapping_mul(s ^ (s >> 30))
                .wrapping_add(k as u32 + 1);
        }
        Mt19937 { state, pos: 624 }
    }

    fn twist(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        for k in 0..624 {
            let y = (self.state[k] & UPPER) | (self.state[(k + 1) % 624] & LOWER);
            let mut v = self.state[(k + 397) % 624] ^ (y >> 1);
            if y & 1 != 0 {
                v ^= 0x9908_b0df;
            }
            self.state[k] = v;
        }
        self.pos = 0;
    }

    /// The next 32 random bits (genrand_int32).
    pub fn next_u32(&mut self) -> u32 {
        if self.pos >= 624 {
            self.twist();
        }
        let mut y = self.state[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// numpy's `random_interval(max)`: uniform in `0..=max` by masked
    /// rejection (for `max` below 2³², as every split size here is).
    pub fn interval(&mut self, max: u32) -> u32 {
        if max == 0 {
            return 0;
        }
        let mut mask = max;
        mask |= mask >> 1;
        mask |= mask >> 2;
        mask |= mask >> 4;
        mask |= mask >> 8;
        mask |= mask >> 16;
        loop {
            let v = self.next_u32() & mask;
            if v <= max {
                return v;
            }
        }
    }

    /// `RandomState.shuffle` of a 1-d array (Fisher–Yates from the end).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.interval(i as u32) as usize;
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_numpy_random_state_shuffle() {
        // np.random.RandomState(25).shuffle(np.arange(10)) with numpy 2.4.
        let mut r = Mt19937::new(25);
        let mut a: Vec<usize> = (0..10).collect();
        r.shuffle(&mut a);
        assert_eq!(a, vec![5, 1, 3, 8, 0, 2, 9, 7, 6, 4]);
    }

    #[test]
    fn matches_reference_mt19937_output() {
        // First output of genrand_int32 after init_genrand(5489), the
        // reference implementation's default seed.
        assert_eq!(Mt19937::new(5489).next_u32(), 3_499_211_612);
    }
}
