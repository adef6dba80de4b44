//! The fact store: ground facts per predicate, indexed by every set of
//! bound argument positions, so a literal with some arguments bound is
//! answered by one hash lookup instead of a scan.
//!
//! Indexes are built lazily (on first use of a pattern of bound
//! positions) and are safe to build from several threads at once.

use std::sync::OnceLock;

use crate::symbols::{FxHashMap, Pred};

/// Most arguments a predicate may have (bound positions are a bit mask).
pub const MAX_ARITY: usize = 16;

type Index = FxHashMap<u64, Vec<u32>>;

/// The facts of one predicate.
#[derive(Debug, Default)]
pub struct Relation {
    arity: usize,
    tuples: Vec<u32>,
    n: usize,
    all: Vec<u32>,
    indexes: Vec<OnceLock<Index>>,
}

impl Clone for Relation {
    fn clone(&self) -> Self {
        Relation::from_tuples(self.arity, self.tuples.clone())
    }
}

/// The key of a tuple's values at the bound positions of `mask`: exact
/// for up to two positions, a hash beyond (candidates are verified by the
/// matcher anyway).
#[inline]
pub(crate) fn key_of(mask: u32, values: impl Iterator<Item = u32>) -> u64 {
    let mut k: u64 = 0;
    let mut n = 0;
    for (i, v) in values.enumerate() {
        if mask & (1 << i) != 0 {
            if n < 2 {
                k = (k << 32) | u64::from(v);
            } else {
                k = (k.rotate_left(5) ^ u64::from(v)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
            }
            n += 1;
        }
    }
    k
}

impl Relation {
    /// A relation over `arity` arguments from flat, deduplicated tuples.
    fn from_tuples(arity: usize, tuples: Vec<u32>) -> Self {
        let n = tuples.len().checked_div(arity).unwrap_or(0);
        let masks = if arity <= MAX_ARITY {
            1usize << arity
        } else {
            0
        };
        Relation {
            arity,
            n,
            all: (0..n as u32).collect(),
            tuples,
            indexes: (0..masks).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Number of facts.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True without facts.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Arity.
    pub fn arity(&self) -> usize {
        self.arity
    }

    /// Fact `i`.
    #[inline]
    pub fn tuple(&self, i: u32) -> &[u32] {
        if self.arity == 0 {
            return &[];
        }
        let s = i as usize * self.arity;
        &self.tuples[s..s + self.arity]
    }

    /// Indices of the facts whose values at the positions of `mask` have
    /// `key` (see `key_of`); a superset when more than two positions
    /// are bound.
    #[inline]
    pub(crate) fn lookup(&self, mask: u32, key: u64) -> &[u32] {
        if mask == 0 {
            return &self.all;
        }
        let Some(cell) = self.indexes.get(mask as usize) else {
            return &self.all;
        };
        let index = cell.get_or_init(|| {
            let mut ix: Index = FxHashMap::default();
            for i in 0..self.n as u32 {
                let k = key_of(mask, self.tuple(i).iter().copied());
                ix.entry(k).or_default().push(i);
            }
            ix
        });
        index.get(&key).map_or(&[], Vec::as_slice)
    }
}

/// Ground facts of every predicate.
#[derive(Debug, Default, Clone)]
pub struct FactStore {
    relations: Vec<Relation>,
    pending: Vec<(usize, Vec<u32>, usize)>,
}

impl FactStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds a store from `(predicate, arguments)` facts (duplicates are
    /// dropped).
    pub fn from_facts<'a>(facts: impl IntoIterator<Item = (Pred, &'a [u32])>) -> Self {
        let mut s = FactStore::new();
        for (p, a) in facts {
            s.insert(p, a);
        }
        s.finish();
        s
    }

    /// Adds a fact. Call [`FactStore::finish`] before querying.
    pub fn insert(&mut self, pred: Pred, args: &[u32]) {
        let p = pred.0 as usize;
        if self.pending.len() <= p {
            self.pending.resize_with(p + 1, || (0, Vec::new(), 0));
        }
        let slot = &mut self.pending[p];
        slot.0 = args.len();
        slot.1.extend_from_slice(args);
        slot.2 += 1;
    }

    /// Sorts and deduplicates the facts added since the last call and
    /// rebuilds the relations (indexes are then rebuilt lazily).
    pub fn finish(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let n = self.pending.len().max(self.relations.len());
        let old = std::mem::take(&mut self.relations);
        let mut pending = std::mem::take(&mut self.pending);
        pending.resize_with(n, || (0, Vec::new(), 0));
        let mut old = old.into_iter();
        let mut rels = Vec::with_capacity(n);
        for (arity, new, added) in pending {
            let (arity, mut flat, present) = match old.next() {
                Some(r) if r.n > 0 => (r.arity, r.tuples, true),
                _ => (arity, Vec::new(), false),
            };
            flat.extend(new);
            let rel = if arity == 0 {
                let mut r = Relation::from_tuples(0, Vec::new());
                if present || added > 0 {
                    r.n = 1;
                    r.all = vec![0];
                }
                r
            } else {
                let mut rows: Vec<&[u32]> = flat.chunks(arity).collect();
                rows.sort_unstable();
                rows.dedup();
                Relation::from_tuples(arity, rows.concat())
            };
            rels.push(rel);
        }
        self.relations = rels;
    }

    /// The facts of `pred` (`None` when it has none).
    pub fn relation(&self, pred: Pred) -> Option<&Relation> {
        self.relations
            .get(pred.0 as usize)
            .filter(|r| !r.is_empty())
    }

    /// Number of facts of `pred`.
    pub fn count(&self, pred: Pred) -> usize {
        self.relation(pred).map_or(0, Relation::len)
    }

    /// Total number of facts.
    pub fn len(&self) -> usize {
        self.relations.iter().map(Relation::len).sum()
    }

    /// True without facts.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when `pred(args)` is a fact.
    pub fn contains(&self, pred: Pred, args: &[u32]) -> bool {
        let pattern: Vec<Option<u32>> = args.iter().map(|&a| Some(a)).collect();
        let found = self.matching(pred, &pattern).next().is_some();
        found
    }

    /// The facts of `pred` that agree with `pattern` at its bound (`Some`)
    /// positions.
    pub fn matching<'a>(
        &'a self,
        pred: Pred,
        pattern: &'a [Option<u32>],
    ) -> impl Iterator<Item = &'a [u32]> + 'a {
        let rel = self.relation(pred).filter(|r| r.arity == pattern.len());
        let (cands, rel): (&[u32], Option<&Relation>) = match rel {
            Some(r) if pattern.len() <= MAX_ARITY => {
                let mut mask = 0u32;
                for (i, p) in pattern.iter().enumerate() {
                    if p.is_some() {
                        mask |= 1 << i;
                    }
                }
                let key = key_of(mask, pattern.iter().map(|p| p.unwrap_or(0)));
                (r.lookup(mask, key), Some(r))
            }
            Some(r) => (&r.all, Some(r)),
            None => (&[], None),
        };
        cands.iter().filter_map(move |&i| {
            let t = rel?.tuple(i);
            t.iter()
                .zip(pattern)
                .all(|(v, p)| p.is_none_or(|p| p == *v))
                .then_some(t)
        })
    }

    /// Every predicate with at least one fact.
    pub fn preds(&self) -> impl Iterator<Item = Pred> + '_ {
        self.relations
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.is_empty())
            .map(|(i, _)| Pred(i as u32))
    }

    /// Candidate fact indices of `pred` for bound positions `mask` with
    /// `key` (see `key_of`).
    #[inline]
    pub(crate) fn lookup(&self, pred: Pred, mask: u32, key: u64) -> &[u32] {
        match self.relations.get(pred.0 as usize) {
            Some(r) => r.lookup(mask, key),
            None => &[],
        }
    }

    /// Fact `i` of `pred`.
    #[inline]
    pub(crate) fn tuple(&self, pred: Pred, i: u32) -> &[u32] {
        self.relations[pred.0 as usize].tuple(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_answer_bound_patterns() {
        let p = Pred(0);
        let q = Pred(2);
        let facts: Vec<(Pred, Vec<u32>)> = vec![
            (p, vec![1, 2, 3]),
            (p, vec![1, 2, 4]),
            (p, vec![5, 2, 3]),
            (p, vec![1, 2, 3]),
            (q, vec![7]),
        ];
        let s = FactStore::from_facts(facts.iter().map(|(p, a)| (*p, a.as_slice())));
        assert_eq!(s.count(p), 3);
        assert_eq!(s.count(Pred(1)), 0);
        assert_eq!(s.len(), 4);
        assert!(s.contains(p, &[5, 2, 3]));
        assert!(!s.contains(p, &[5, 2, 4]));
        let got: Vec<&[u32]> = s.matching(p, &[Some(1), None, None]).collect();
        assert_eq!(got, vec![&[1, 2, 3][..], &[1, 2, 4][..]]);
        let got: Vec<&[u32]> = s.matching(p, &[None, Some(2), Some(3)]).collect();
        assert_eq!(got.len(), 2);
        assert_eq!(s.matching(p, &[Some(9), None, None]).count(), 0);
        assert_eq!(s.preds().collect::<Vec<_>>(), vec![p, q]);
    }
}
