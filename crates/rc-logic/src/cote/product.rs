//! SCoTE's merges decided tree by tree: the same kept clauses, in the same
//! order and with the same values, as testing every product clause
//! against all clauses kept before it (Algorithm 2's `reduceList`), without
//! that ever-growing index.
//!
//! **The identity.** Write `↑X` for the groups that subsume some group of
//! `X` (the *closure*; `X ⊆ ↑X`, subsumption being reflexive). After `i`
//! merges a clause is a tuple `(k_1, …, k_i)` of clauses `t^l_{k_l}` of the
//! trees' lists, with groups `reduce(∪_l t^l_{k_l})`; it is dropped when an
//! earlier kept clause `P` (lexicographic order) subsumes it by the SM
//! cache, i.e. `P ⊆ C := ∪_l ↑t^l_{k_l}`. When the SM relation is
//! transitive (checked before this path is used):
//! - `↑reduce(X) = ↑X` (a dropped group subsumes a kept one) and `↑C = C`,
//!   so `reduce(X') ⊆ C` ⇔ `X' ⊆ C`;
//! - an earlier product clause that was itself dropped was subsumed by a
//!   still earlier kept one, which then lies in `C` too; so "some earlier
//!   *kept* clause lies in `C`" ⇔ "some earlier *pair* `(j', k')` of the
//!   merge has both parts in `C`".
//!
//! Unrolling the merges (the pair `(j', k)` is earlier whenever `j' < j`,
//! and `t_k ⊆ C` always), the tuple is dropped ⇔ **for some tree `l`, an
//! earlier clause `t^l_{k'}` (`k' < k_l`) of that tree's list lies in
//! `C`**. So each tuple is decided from its own clauses: the merged list is
//! stored as tuples of clause indices (two bytes per tree), each merge
//! tests the earlier alternatives of every tree against the tuple's
//! closure, once for all clauses of the new tree (bit masks over them),
//! and blocks of tuples run in parallel with their results concatenated in
//! order (deterministic). The last merge writes the reduced group sets and
//! the values, summed in tree order as the pairwise merge sums them.

use std::ops::Range;

use rayon::prelude::*;

/// A set of group ids as `W` 64-bit words.
pub(crate) type GSet<const W: usize> = [u64; W];

/// Whether group `g` is in `s`.
#[inline]
pub(crate) fn gs_has<const W: usize>(s: &GSet<W>, g: usize) -> bool {
    s[g / 64] & (1 << (g % 64)) != 0
}

/// The groups of `s`, in increasing order.
#[inline]
pub(crate) fn gs_iter<const W: usize>(s: &GSet<W>) -> impl Iterator<Item = usize> + '_ {
    s.iter().enumerate().flat_map(|(wi, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let b = w.trailing_zeros() as usize;
            w &= w - 1;
            Some(wi * 64 + b)
        })
    })
}

/// The trees' lists as group sets, their closures and values.
pub(crate) struct Trees<const W: usize> {
    sets: Vec<Vec<GSet<W>>>,
    up: Vec<Vec<GSet<W>>>,
    values: Vec<Vec<f64>>,
    /// Per tree: for every group `g`, the clauses `k` with `g ∈ ↑t_k`
    /// (`kw[l]` words per group).
    kmask: Vec<Vec<u64>>,
    kw: Vec<usize>,
}

/// Scratch space of one worker.
struct Scratch {
    drop: Vec<u64>,
    m: Vec<u64>,
}

impl<const W: usize> Trees<W> {
    /// Prepares the lists (`m` groups; every list must have at most
    /// `u16::MAX` clauses).
    pub fn new(lists: Vec<Vec<(GSet<W>, f64)>>, implied_by: &[GSet<W>], m: usize) -> Self {
        let sets: Vec<Vec<GSet<W>>> = lists
            .iter()
            .map(|l| l.iter().map(|c| c.0).collect())
            .collect();
        let values = lists
            .iter()
            .map(|l| l.iter().map(|c| c.1).collect())
            .collect();
        let up: Vec<Vec<GSet<W>>> = sets
            .iter()
            .map(|l| l.iter().map(|s| closure(s, implied_by)).collect())
            .collect();
        let kw: Vec<usize> = sets.iter().map(|l| l.len().div_ceil(64).max(1)).collect();
        let kmask = up
            .iter()
            .zip(&kw)
            .map(|(l, &w)| {
                let mut km = vec![0u64; m * w];
                for (k, d) in l.iter().enumerate() {
                    for g in gs_iter(d) {
                        km[g * w + k / 64] |= 1 << (k % 64);
                    }
                }
                km
            })
            .collect();
        Trees {
            sets,
            up,
            values,
            kmask,
            kw,
        }
    }

    /// Number of trees.
    pub fn n_trees(&self) -> usize {
        self.sets.len()
    }

    /// Number of clauses of tree `l`'s list.
    pub fn len(&self, l: usize) -> usize {
        self.sets[l].len()
    }

    /// Marks in `sc.drop` the clauses `k` of tree `i` whose product with
    /// the kept tuple `tuple` (over trees `0..i`) is dropped.
    fn decide(&self, tuple: &[u16], i: usize, sc: &mut Scratch) {
        let w = self.kw[i];
        let km = &self.kmask[i];
        sc.drop.clear();
        sc.drop.resize(w, 0);
        sc.m.resize(w, 0);
        let mut clo = [0u64; W];
        for (l, &k) in tuple.iter().enumerate() {
            for (c, d) in clo.iter_mut().zip(&self.up[l][k as usize]) {
                *c |= d;
            }
        }
        // `r ⊆ ↑t_k` for the k in `sc.m`, where r = s \ clo.
        let covering = |s: &GSet<W>, out: &mut Vec<u64>| {
            out.iter_mut().for_each(|x| *x = u64::MAX);
            let mut r = *s;
            for (x, c) in r.iter_mut().zip(&clo) {
                *x &= !c;
            }
            for g in gs_iter(&r) {
                for (o, x) in out.iter_mut().zip(&km[g * w..(g + 1) * w]) {
                    *o &= x;
                }
            }
        };
        // Earlier alternatives of the trees already merged.
        for (l, &k) in tuple.iter().enumerate() {
            for s in &self.sets[l][..k as usize] {
                covering(s, &mut sc.m);
                for (d, x) in sc.drop.iter_mut().zip(&sc.m) {
                    *d |= x;
                }
            }
        }
        // Earlier clauses of the new tree: t_k' in C counts for k > k'.
        for (kp, s) in self.sets[i].iter().enumerate() {
            covering(s, &mut sc.m);
            for (wi, (d, x)) in sc.drop.iter_mut().zip(&sc.m).enumerate() {
                let above = match (kp + 1).checked_sub(wi * 64) {
                    None | Some(0) => u64::MAX,
                    Some(b) if b >= 64 => 0,
                    Some(b) => u64::MAX << b,
                };
                *d |= x & above;
            }
        }
    }

    /// The kept tuples over trees `0..=i` extending `cur[range]` (tuples
    /// of `i` entries), in order; chunks of the range run in parallel.
    pub fn extend(&self, cur: &[u16], i: usize, range: Range<usize>) -> Vec<u16> {
        in_parallel(range, |r| {
            let mut out = Vec::new();
            self.for_each_tuple(cur, i, r, |tuple, kept| {
                for k in kept {
                    out.extend_from_slice(tuple);
                    out.push(k as u16);
                }
            });
            out
        })
    }

    /// Calls `f(tuple, kept)` for every tuple of `cur[range]` (tuples of `i`
    /// entries), in order, with the clauses `k` of tree `i` that extend it.
    fn for_each_tuple(
        &self,
        cur: &[u16],
        i: usize,
        range: Range<usize>,
        mut f: impl FnMut(&[u16], &mut dyn Iterator<Item = usize>),
    ) {
        let mut sc = Scratch {
            drop: Vec::new(),
            m: Vec::new(),
        };
        for j in range {
            let tuple = &cur[j * i..(j + 1) * i];
            self.decide(tuple, i, &mut sc);
            let drop = &sc.drop;
            let mut kept = (0..self.len(i)).filter(|&k| drop[k / 64] & (1 << (k % 64)) == 0);
            f(tuple, &mut kept);
        }
    }

    /// The kept clauses of the last merge (tree `i`) from `cur[range]`: the
    /// reduced group sets and the values summed in tree order; chunks of
    /// the range run in parallel.
    pub fn finish(
        &self,
        cur: &[u16],
        i: usize,
        range: Range<usize>,
        reduce: &(impl Fn(&GSet<W>) -> GSet<W> + Sync),
    ) -> Vec<(GSet<W>, f64)> {
        in_parallel(range, |r| {
            let mut out = Vec::new();
            self.for_each_tuple(cur, i, r, |tuple, kept| {
                let mut u = [0u64; W];
                let mut v = 0.0;
                for (l, &k) in tuple.iter().enumerate() {
                    for (x, y) in u.iter_mut().zip(&self.sets[l][k as usize]) {
                        *x |= y;
                    }
                    let vk = self.values[l][k as usize];
                    v = if l == 0 { vk } else { v + vk };
                }
                for k in kept {
                    let mut uk = u;
                    for (x, y) in uk.iter_mut().zip(&self.sets[i][k]) {
                        *x |= y;
                    }
                    out.push((reduce(&uk), v + self.values[i][k]));
                }
            });
            out
        })
    }
}

/// `work` over fixed chunks of `range` on rayon, the results concatenated
/// in chunk order (so the output does not depend on the thread count).
fn in_parallel<T: Send>(
    range: Range<usize>,
    work: impl Fn(Range<usize>) -> Vec<T> + Sync + Send,
) -> Vec<T> {
    let parts: Vec<Vec<T>> = chunks(range).into_par_iter().map(work).collect();
    let mut out = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for p in parts {
        out.extend(p);
    }
    out
}

fn chunks(range: Range<usize>) -> Vec<Range<usize>> {
    const CHUNK: usize = 512;
    range
        .clone()
        .step_by(CHUNK)
        .map(|s| s..(s + CHUNK).min(range.end))
        .collect()
}

/// The closure `↑s`: every group that subsumes a group of `s`.
pub(crate) fn closure<const W: usize>(s: &GSet<W>, implied_by: &[GSet<W>]) -> GSet<W> {
    let mut c = [0u64; W];
    for h in gs_iter(s) {
        for (x, y) in c.iter_mut().zip(&implied_by[h]) {
            *x |= y;
        }
    }
    c
}
