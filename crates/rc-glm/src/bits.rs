//! A minimal word-level bitset for the pricing loops (masked sums over
//! rows need direct access to the words).

/// A set of row indices `< len` stored as 64-bit words.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Bits {
    len: usize,
    words: Vec<u64>,
}

impl Bits {
    pub fn new(len: usize) -> Self {
        Bits {
            len,
            words: vec![0; len.div_ceil(64)],
        }
    }

    pub fn full(len: usize) -> Self {
        let mut b = Bits {
            len,
            words: vec![u64::MAX; len.div_ceil(64)],
        };
        let rem = len % 64;
        if rem != 0 {
            if let Some(last) = b.words.last_mut() {
                *last = (1u64 << rem) - 1;
            }
        }
        b
    }

    /// The rows `i < values.len()` where `pred(values[i])` holds, packed
    /// 64 rows a word (the predicate is evaluated on every value, without
    /// a branch per row, so the loop vectorises).
    #[inline]
    pub fn from_predicate(values: &[f64], pred: impl Fn(f64) -> bool) -> Self {
        let mut words = Vec::with_capacity(values.len().div_ceil(64));
        let mut chunks = values.chunks_exact(64);
        for chunk in &mut chunks {
            let mut word = 0u64;
            for (b, &x) in chunk.iter().enumerate() {
                word |= (pred(x) as u64) << b;
            }
            words.push(word);
        }
        if !chunks.remainder().is_empty() {
            let mut word = 0u64;
            for (b, &x) in chunks.remainder().iter().enumerate() {
                word |= (pred(x) as u64) << b;
            }
            words.push(word);
        }
        Bits {
            len: values.len(),
            words,
        }
    }

    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        i < self.len && self.words[i / 64] & (1 << (i % 64)) != 0
    }

    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// `self ∧ other`.
    pub fn and(&self, other: &Bits) -> Bits {
        Bits {
            len: self.len,
            words: self
                .words
                .iter()
                .zip(&other.words)
                .map(|(a, b)| a & b)
                .collect(),
        }
    }

    /// `self ∧ ¬other`.
    pub fn and_not(&self, other: &Bits) -> Bits {
        Bits {
            len: self.len,
            words: self
                .words
                .iter()
                .zip(&other.words)
                .map(|(a, b)| a & !b)
                .collect(),
        }
    }

    /// In-place `self ∧= other`.
    pub fn and_with(&mut self, other: &Bits) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= b;
        }
    }

    /// Rows in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + b)
            })
        })
    }

    /// The rows as sorted `u32` indices.
    pub fn to_rows(&self) -> Vec<u32> {
        self.iter().map(|i| i as u32).collect()
    }
}

/// `(Σ v_i, Σ max(v_i, 0))` over `i ∈ a ∧ b`, visiting only the words in
/// `range`: one pass gives the positive and the negative mass.
#[inline]
pub(crate) fn masked_sums(a: &[u64], b: &[u64], v: &[f64], range: (usize, usize)) -> (f64, f64) {
    let (mut all, mut pos) = (0.0, 0.0);
    for k in range.0..range.1 {
        let mut m = a[k] & b[k];
        let base = k * 64;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            let x = v[base + t];
            all += x;
            pos += x.max(0.0);
            m &= m - 1;
        }
    }
    (all, pos)
}

/// `a ∨ b`.
pub(crate) fn or(a: &Bits, b: &Bits) -> Bits {
    Bits {
        len: a.len,
        words: a.words.iter().zip(&b.words).map(|(x, y)| x | y).collect(),
    }
}

/// The smallest word range holding every set bit of `a` (empty as `(0, 0)`).
pub(crate) fn word_range(a: &[u64]) -> (usize, usize) {
    let first = a.iter().position(|&w| w != 0);
    match first {
        None => (0, 0),
        Some(f) => {
            let last = a.iter().rposition(|&w| w != 0).unwrap_or(f);
            (f, last + 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_sets_and_sums() {
        let f = Bits::full(70);
        assert_eq!(f.count(), 70);
        assert!(f.contains(69) && !f.contains(70));
        let mut a = Bits::new(70);
        a.insert(3);
        a.insert(65);
        let v: Vec<f64> = (0..70).map(f64::from).collect();
        assert_eq!(
            masked_sums(a.words(), f.words(), &v, word_range(a.words())),
            (68.0, 68.0)
        );
        assert_eq!(a.to_rows(), vec![3, 65]);
        assert_eq!(word_range(Bits::new(10).words()), (0, 0));
    }
}
