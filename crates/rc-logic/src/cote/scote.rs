//! SCoTE (Algorithm 2): subsumption-based compression, logically
//! equivalent to the ensemble.
//!
//! 1. PREP: trees → positive decision lists, clauses reduced by
//!    self-subsumption, predicate groups interned.
//! 2. The SM cache: θ-subsumption between every pair of groups, computed
//!    once, in parallel (a cheap predicate/constant filter skips pairs
//!    that cannot match).
//! 3. Lists are merged in tree order; each merge enumerates the cross
//!    product lexicographically (clauses of the merged list outside,
//!    clauses of the new tree's list inside — Proposition 3), summing
//!    values. Every combination is first reduced within the clause, then
//!    dropped if an earlier kept clause subsumes it (it could never fire).
//!    The between-clause check runs as the combinations are produced,
//!    against the clauses kept so far — the same result as Algorithm 2's
//!    `reduceList` over the whole product, without storing the product.
//!    By default (when the SM relation is transitive, as θ-subsumption
//!    is) the same decisions are made without that index: a product
//!    clause is dropped iff some tree has an earlier clause inside the
//!    closure of the clause's groups, so the merged list is held as
//!    tuples of clause indices and each clause is decided on its own, in
//!    parallel (the `product` module; [`ScoteParams::reference_merge`]
//!    selects the index-based merge, which gives the same list).
//!
//! **Within-clause reduction** (`reduceClause`): groups are scanned in
//! clause order (the merged list's groups first, then the new tree's); a
//! group is dropped when another group still in the clause is subsumed by
//! it (the other group implies it); of two variants the later one is
//! dropped. With [`ScoteParams::full_check`], a group is also dropped when
//! it subsumes the *rest of the clause* as a whole (catches the case of
//! notes §3.4, where a group subsumes a union of groups but no single one).
//!
//! **Between clauses** (`reduceList`): clause `P` subsumes clause `Q` by the
//! SM cache when every group of `P` subsumes some group of `Q` (sound,
//! since `P`'s groups share only head variables). With `full_check`, a
//! full θ-subsumption test of the two clauses is also tried when the cache
//! says no.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cote::merge::{
    prep, to_list, union_groups, Budget, Caps, GroupTable, MClause, Outcome, Status,
};
use crate::cote::product::{closure, gs_has, gs_iter, GSet, Trees};
use crate::ensemble::TreeEnsemble;
use crate::error::Result;
use crate::subsume::{subsumes, Skolemized};
use crate::term::{Atom, Term};

/// Parameters of SCoTE.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct ScoteParams {
    /// Limits (clauses, memory, time).
    pub caps: Caps,
    /// Also use full clause-level θ-subsumption (stronger, slower).
    pub full_check: bool,
    /// Skip the per-clause self-subsumption reduction of PREP.
    pub skip_clause_reduction: bool,
    /// Merge by testing each product clause against every clause kept so
    /// far (Algorithm 2 as written) instead of the equivalent, much faster
    /// prefix queries of the `product` module; the result is the same
    /// list. Used as the reference in tests.
    #[serde(default)]
    pub reference_merge: bool,
}

impl ScoteParams {
    /// Sets the caps.
    pub fn caps(mut self, caps: Caps) -> Self {
        self.caps = caps;
        self
    }
    /// Also uses full clause-level θ-subsumption.
    pub fn full_check(mut self, on: bool) -> Self {
        self.full_check = on;
        self
    }
    /// Skips PREP's per-clause self-subsumption reduction.
    pub fn skip_clause_reduction(mut self, on: bool) -> Self {
        self.skip_clause_reduction = on;
        self
    }
    /// Uses the reference merge (see [`ScoteParams::reference_merge`]).
    pub fn reference_merge(mut self, on: bool) -> Self {
        self.reference_merge = on;
        self
    }
}

/// A square bit matrix.
#[derive(Debug, Clone)]
struct BitMatrix {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl BitMatrix {
    fn new(n: usize) -> Self {
        let words = n.div_ceil(64).max(1);
        BitMatrix {
            n,
            words,
            bits: vec![0; n * words],
        }
    }
    #[inline]
    fn get(&self, r: usize, c: usize) -> bool {
        self.bits[r * self.words + c / 64] & (1 << (c % 64)) != 0
    }
    fn row(&self, r: usize) -> &[u64] {
        &self.bits[r * self.words..(r + 1) * self.words]
    }
}

/// The SM cache: `sub[a][b]` = group `a` subsumes group `b`; `implied[b]`
/// = the set of groups that subsume `b` (the column, as a row).
#[derive(Debug, Clone)]
pub struct SubsumptionCache {
    sub: BitMatrix,
    implied: BitMatrix,
}

/// A 128-bit signature of the predicates and constants of a group: `a`
/// can subsume `b` only if `sig(a) ⊆ sig(b)`.
fn signature(atoms: &[Atom]) -> u128 {
    let mut s = 0u128;
    for a in atoms {
        s |= 1u128 << (a.pred.0 % 64);
        for t in &a.args {
            if let Term::Const(c) = t {
                s |= 1u128 << (64 + (c.0.wrapping_mul(2_654_435_761) >> 26) % 64);
            }
        }
    }
    s
}

impl SubsumptionCache {
    /// Computes θ-subsumption between every pair of groups, in parallel.
    pub fn new(table: &GroupTable) -> Self {
        let m = table.len();
        let n_head = table.n_head;
        let sigs: Vec<u128> = table.groups.iter().map(|g| signature(g)).collect();
        let sk: Vec<Skolemized> = table
            .groups
            .iter()
            .map(|g| Skolemized::new(g, n_head))
            .collect();
        let rows: Vec<Vec<u64>> = (0..m)
            .into_par_iter()
            .map(|a| {
                let mut row = vec![0u64; m.div_ceil(64).max(1)];
                for b in 0..m {
                    let ok =
                        a == b || (sigs[a] & !sigs[b] == 0 && sk[b].subsumed_by(&table.groups[a]));
                    if ok {
                        row[b / 64] |= 1 << (b % 64);
                    }
                }
                row
            })
            .collect();
        let mut sub = BitMatrix::new(m);
        let mut implied = BitMatrix::new(m);
        for (a, row) in rows.iter().enumerate() {
            sub.bits[a * sub.words..(a + 1) * sub.words].copy_from_slice(row);
            for b in 0..m {
                if row[b / 64] & (1 << (b % 64)) != 0 {
                    implied.bits[b * implied.words + a / 64] |= 1 << (a % 64);
                }
            }
        }
        SubsumptionCache { sub, implied }
    }

    /// Whether group `a` subsumes group `b`.
    pub fn subsumes(&self, a: u32, b: u32) -> bool {
        self.sub.get(a as usize, b as usize)
    }

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.sub.n
    }

    /// True without groups.
    pub fn is_empty(&self) -> bool {
        self.sub.n == 0
    }

    /// Whether the cached relation is transitive (θ-subsumption is; the
    /// fast merge relies on it and is used only when this holds).
    pub fn is_transitive(&self) -> bool {
        (0..self.sub.n).all(|a| {
            let ra = self.sub.row(a);
            (0..self.sub.n).all(|b| {
                !self.sub.get(a, b) || self.sub.row(b).iter().zip(ra).all(|(rb, ra)| rb & !ra == 0)
            })
        })
    }
}

/// Within-clause reduction by the SM cache (see the module docs).
pub fn reduce_clause(groups: &[u32], sm: &SubsumptionCache) -> Vec<u32> {
    let mut keep = groups.to_vec();
    let mut i = 0;
    while i < keep.len() {
        let a = keep[i];
        let redundant = keep
            .iter()
            .enumerate()
            .any(|(j, &b)| j != i && sm.subsumes(a, b) && (!sm.subsumes(b, a) || j < i));
        if redundant {
            keep.remove(i);
        } else {
            i += 1;
        }
    }
    keep
}

/// The clauses kept so far, indexed for the between-clause test.
struct Kept {
    clauses: Vec<MClause>,
    /// Clauses by their key group.
    index: Vec<Vec<u32>>,
    has_empty: bool,
    words: usize,
    bytes: usize,
}

impl Kept {
    fn new(m: usize) -> Self {
        Kept {
            clauses: Vec::new(),
            index: vec![Vec::new(); m],
            has_empty: false,
            words: m.div_ceil(64).max(1),
            bytes: 0,
        }
    }

    /// Groups implied by some group of `q` (as a bit set).
    fn implied_set(&self, q: &[u32], sm: &SubsumptionCache, out: &mut Vec<u64>) {
        out.clear();
        out.resize(self.words, 0);
        for &h in q {
            for (o, w) in out.iter_mut().zip(sm.implied.row(h as usize)) {
                *o |= w;
            }
        }
    }

    fn subsumed(&self, q: &[u32], sm: &SubsumptionCache, set: &mut Vec<u64>) -> bool {
        if self.has_empty {
            return true;
        }
        self.implied_set(q, sm, set);
        let contains = |s: &[u64], g: u32| s[g as usize / 64] & (1 << (g % 64)) != 0;
        for (wi, &w) in set.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let g = wi * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                for &p in &self.index[g] {
                    if self.clauses[p as usize]
                        .groups
                        .iter()
                        .all(|&x| contains(set, x))
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn push(&mut self, c: MClause) {
        let id = self.clauses.len() as u32;
        match c
            .groups
            .iter()
            .min_by_key(|&&g| (self.index[g as usize].len(), g))
        {
            Some(&key) => self.index[key as usize].push(id),
            None => self.has_empty = true,
        }
        self.bytes += 48 + 4 * c.groups.len();
        self.clauses.push(c);
    }
}

/// Full clause-level checks (the `full_check` option).
struct FullCheck<'a> {
    table: &'a GroupTable,
}

impl FullCheck<'_> {
    /// Drops groups that subsume the rest of the clause.
    fn reduce(&self, groups: Vec<u32>) -> Vec<u32> {
        let mut keep = groups;
        let mut i = keep.len();
        while i > 0 {
            i -= 1;
            if keep.len() < 2 {
                break;
            }
            let rest: Vec<u32> = keep
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, &g)| g)
                .collect();
            let g = &self.table.groups[keep[i] as usize];
            if subsumes(g, &self.table.materialize(&rest), self.table.n_head) {
                keep.remove(i);
            }
        }
        keep
    }

    /// Whether some kept clause subsumes `q` as a whole.
    fn subsumed(&self, kept: &[MClause], q: &[u32]) -> bool {
        let body = self.table.materialize(q);
        let sk = Skolemized::new(&body, self.table.n_head);
        let preds: Vec<_> = body.iter().map(|a| a.pred).collect();
        kept.iter().any(|p| {
            p.groups.iter().all(|&g| {
                self.table.groups[g as usize]
                    .iter()
                    .all(|a| preds.contains(&a.pred))
            }) && sk.subsumed_by(&self.table.materialize(&p.groups))
        })
    }
}

/// A set-trie over sorted group ids: answers "does the family hold a
/// subset of S?" by walking only the branches whose ids are in S.
struct SetTrie {
    /// Per node: first child, next sibling, element, terminal flag.
    first: Vec<u32>,
    next: Vec<u32>,
    elem: Vec<u16>,
    terminal: Vec<bool>,
    stack: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl SetTrie {
    fn new() -> Self {
        SetTrie {
            first: vec![NONE],
            next: vec![NONE],
            elem: vec![0],
            terminal: vec![false],
            stack: Vec::new(),
        }
    }

    fn len_bytes(&self) -> usize {
        self.first.len() * 11
    }

    fn insert(&mut self, elems: impl Iterator<Item = usize>) {
        let mut node = 0u32;
        for e in elems {
            let e = e as u16;
            let mut c = self.first[node as usize];
            let mut prev = NONE;
            while c != NONE && self.elem[c as usize] < e {
                prev = c;
                c = self.next[c as usize];
            }
            if c != NONE && self.elem[c as usize] == e {
                node = c;
                continue;
            }
            let id = self.first.len() as u32;
            self.first.push(NONE);
            self.next.push(c);
            self.elem.push(e);
            self.terminal.push(false);
            if prev == NONE {
                self.first[node as usize] = id;
            } else {
                self.next[prev as usize] = id;
            }
            node = id;
        }
        self.terminal[node as usize] = true;
    }

    fn has_subset_of<const W: usize>(&mut self, s: &GSet<W>) -> bool {
        self.stack.clear();
        self.stack.push(0);
        while let Some(n) = self.stack.pop() {
            if self.terminal[n as usize] {
                return true;
            }
            let mut c = self.first[n as usize];
            while c != NONE {
                if gs_has(s, self.elem[c as usize] as usize) {
                    self.stack.push(c);
                }
                c = self.next[c as usize];
            }
        }
        false
    }
}

/// A merge stopped by a cap: the status, the tree being merged and the
/// clauses of the list being built.
struct Stop {
    status: Status,
    trees_merged: usize,
    clauses: usize,
}

impl Stop {
    /// The outcome it reports.
    fn outcome(self, budget: &Budget, m: usize) -> Outcome {
        Outcome {
            status: self.status,
            list: None,
            trees_merged: self.trees_merged,
            clauses: self.clauses,
            peak_clauses: budget.peak,
            groups: m,
            seconds: budget.start.elapsed().as_secs_f64(),
        }
    }
}

/// Records the size after merging tree `i` (and prints it with
/// `RC_COTE_TRACE` set).
fn merged_tree(i: usize, clauses: usize, budget: &mut Budget) {
    // Only the peak matters here: the caps are checked during the merge.
    let _ = budget.check(clauses, 0);
    if std::env::var_os("RC_COTE_TRACE").is_some() {
        eprintln!(
            "scote: merged tree {i}: {clauses} clauses, {:.1}s",
            budget.start.elapsed().as_secs_f64()
        );
    }
}

/// Algorithm 2's merges as written: each product clause is tested against
/// a set-trie of every clause kept before it (the reference for
/// [`merge_tuples`]).
fn merge_reference<const W: usize>(
    sets: Vec<Vec<(GSet<W>, f64)>>,
    implied_by: &[GSet<W>],
    reduce: &impl Fn(&GSet<W>) -> GSet<W>,
    budget: &mut Budget,
) -> std::result::Result<Vec<(GSet<W>, f64)>, Stop> {
    let mut lists = sets.into_iter();
    let mut current = lists.next().unwrap_or_default();
    for (i, next) in lists.enumerate().map(|(i, l)| (i + 1, l)) {
        let mut kept: Vec<(GSet<W>, f64)> = Vec::new();
        let mut trie = SetTrie::new();
        for (step, (sj, vj)) in current.iter().enumerate() {
            for (sk, vk) in &next {
                let mut u = *sj;
                for (a, b) in u.iter_mut().zip(sk) {
                    *a |= b;
                }
                let r = reduce(&u);
                if !trie.has_subset_of(&closure(&r, implied_by)) {
                    trie.insert(gs_iter(&r));
                    kept.push((r, vj + vk));
                }
            }
            if step % 256 == 0 {
                let bytes = (kept.len() + current.len()) * (8 * W + 8) + trie.len_bytes();
                if let Some(status) = budget.check(kept.len() + current.len(), bytes) {
                    return Err(Stop {
                        status,
                        trees_merged: i,
                        clauses: kept.len(),
                    });
                }
            }
        }
        current = kept;
        merged_tree(i, current.len(), budget);
    }
    Ok(current)
}

/// The same merges decided per clause tuple (see the `product` module):
/// the lists merged so far are held as tuples of clause indices, extended
/// block by block under the caps; the last merge writes the clauses.
fn merge_tuples<const W: usize>(
    trees: Trees<W>,
    reduce: &(impl Fn(&GSet<W>) -> GSet<W> + Sync),
    budget: &mut Budget,
) -> std::result::Result<Vec<(GSet<W>, f64)>, Stop> {
    const BLOCK: usize = 1 << 14;
    let n = trees.n_trees();
    let mut cur: Vec<u16> = (0..trees.len(0)).map(|k| k as u16).collect();
    let mut fin: Vec<(GSet<W>, f64)> = Vec::new();
    for i in 1..n {
        let n_cur = cur.len() / i;
        let last = i + 1 == n;
        let mut kept: Vec<u16> = Vec::new();
        for start in (0..n_cur).step_by(BLOCK) {
            let range = start..n_cur.min(start + BLOCK);
            let (n_kept, bytes) = if last {
                fin.extend(trees.finish(&cur, i, range, reduce));
                (fin.len(), fin.len() * (8 * W + 8))
            } else {
                kept.extend(trees.extend(&cur, i, range));
                (kept.len() / (i + 1), kept.len() * 2)
            };
            // The clause cap bounds the list being built; the list it
            // extends is held as tuples (2 bytes per tree and clause),
            // counted in the memory estimate and the peak.
            budget.peak = budget.peak.max(n_kept + n_cur);
            if let Some(status) = budget.check(n_kept, bytes + cur.len() * 2) {
                return Err(Stop {
                    status,
                    trees_merged: i,
                    clauses: n_kept,
                });
            }
        }
        if last {
            merged_tree(i, fin.len(), budget);
        } else {
            merged_tree(i, kept.len() / (i + 1), budget);
            cur = kept;
        }
    }
    Ok(fin)
}

/// SCoTE with clauses as fixed-width group sets (SM cache checks only).
fn scote_sets<const W: usize>(
    ens: &TreeEnsemble,
    lists: &[Vec<MClause>],
    table: &GroupTable,
    sm: &SubsumptionCache,
    budget: &mut Budget,
    fast: bool,
) -> Outcome {
    let m = table.len();
    let to_set = |groups: &[u32]| {
        let mut s = [0u64; W];
        for &g in groups {
            s[g as usize / 64] |= 1 << (g % 64);
        }
        s
    };
    // dominated_by[a]: groups whose presence makes `a` redundant (strictly
    // more specific, or a variant with a smaller id); implied_by[b]: groups
    // that `b` implies (they subsume it).
    let mut dominated_by = vec![[0u64; W]; m];
    let mut implied_by = vec![[0u64; W]; m];
    for a in 0..m {
        for b in 0..m {
            if a == b {
                continue;
            }
            let ab = sm.subsumes(a as u32, b as u32);
            let ba = sm.subsumes(b as u32, a as u32);
            if ab && (!ba || b < a) {
                dominated_by[a][b / 64] |= 1 << (b % 64);
            }
        }
        for g in 0..m {
            if sm.subsumes(g as u32, a as u32) {
                implied_by[a][g / 64] |= 1 << (g % 64);
            }
        }
    }
    let reduce = |s: &GSet<W>| {
        let mut out = *s;
        for a in gs_iter(s) {
            if dominated_by[a]
                .iter()
                .zip(s.iter())
                .any(|(d, x)| d & x != 0)
            {
                out[a / 64] &= !(1 << (a % 64));
            }
        }
        out
    };
    let default: f64 = lists
        .iter()
        .filter_map(|l| l.last())
        .map(|c| c.value)
        .reduce(|a, b| a + b)
        .unwrap_or(0.0);
    let sets: Vec<Vec<(GSet<W>, f64)>> = lists
        .iter()
        .map(|l| l.iter().map(|c| (to_set(&c.groups), c.value)).collect())
        .collect();
    let fast = fast && sets.len() > 1 && sets.iter().all(|l| l.len() <= usize::from(u16::MAX));
    let merged = if fast {
        merge_tuples(Trees::new(sets, &implied_by, m), &reduce, budget)
    } else {
        merge_reference(sets, &implied_by, &reduce, budget)
    };
    let current = match merged {
        Ok(current) => current,
        Err(stop) => return stop.outcome(budget, m),
    };
    let n_current = current.len();
    let mut buf: Vec<u32> = Vec::new();
    let mut list = to_list(ens, table, std::iter::empty(), None);
    let m_trees = ens.trees.len().max(1) as f64;
    let scale = |v: f64| match ens.combine {
        crate::ensemble::Combine::Mean => v / m_trees,
        crate::ensemble::Combine::Sum { .. } => v,
    };
    let mut last_empty = false;
    for (s, v) in &current {
        buf.clear();
        buf.extend(gs_iter(s).map(|g| g as u32));
        list.push(&buf, scale(*v));
        last_empty = buf.is_empty();
    }
    if !last_empty {
        list.push(&[], scale(default));
    }
    Outcome {
        status: Status::Finished,
        clauses: list.len(),
        list: Some(list),
        trees_merged: lists.len(),
        peak_clauses: budget.peak.max(n_current),
        groups: m,
        seconds: budget.start.elapsed().as_secs_f64(),
    }
}

/// Runs SCoTE on an ensemble.
pub fn scote(ens: &TreeEnsemble, params: &ScoteParams) -> Result<Outcome> {
    let mut budget = Budget::new(params.caps);
    let (lists, table) = prep(ens, !params.skip_clause_reduction)?;
    let sm = SubsumptionCache::new(&table);
    let m = table.len();
    if !params.full_check {
        let words = m.div_ceil(64).max(1);
        let b = &mut budget;
        let f = !params.reference_merge && sm.is_transitive();
        match words {
            1 => return Ok(scote_sets::<1>(ens, &lists, &table, &sm, b, f)),
            2 => return Ok(scote_sets::<2>(ens, &lists, &table, &sm, b, f)),
            3 | 4 => return Ok(scote_sets::<4>(ens, &lists, &table, &sm, b, f)),
            5..=8 => return Ok(scote_sets::<8>(ens, &lists, &table, &sm, b, f)),
            9..=16 => return Ok(scote_sets::<16>(ens, &lists, &table, &sm, b, f)),
            17..=64 => return Ok(scote_sets::<64>(ens, &lists, &table, &sm, b, f)),
            _ => {}
        }
    }
    let full = params.full_check.then_some(FullCheck { table: &table });
    let default: f64 = lists
        .iter()
        .filter_map(|l| l.last())
        .map(|c| c.value)
        .reduce(|a, b| a + b)
        .unwrap_or(0.0);
    let mut current: Vec<MClause> = lists[0].clone();
    let mut set = Vec::new();
    for (i, next) in lists.iter().enumerate().skip(1) {
        let mut kept = Kept::new(m);
        for (step, cj) in current.iter().enumerate() {
            for ck in next {
                let mut groups = reduce_clause(&union_groups(&cj.groups, &ck.groups), &sm);
                if let Some(f) = &full {
                    groups = f.reduce(groups);
                }
                let mut drop = kept.subsumed(&groups, &sm, &mut set);
                if !drop {
                    if let Some(f) = &full {
                        drop = f.subsumed(&kept.clauses, &groups);
                    }
                }
                if !drop {
                    kept.push(MClause {
                        groups,
                        value: cj.value + ck.value,
                    });
                }
            }
            if step % 64 == 0 || kept.clauses.len() > params.caps.max_clauses {
                if let Some(status) = budget.check(
                    kept.clauses.len() + current.len(),
                    kept.bytes + 48 * current.len(),
                ) {
                    let stop = Stop {
                        status,
                        trees_merged: i,
                        clauses: kept.clauses.len(),
                    };
                    return Ok(stop.outcome(&budget, m));
                }
            }
        }
        current = kept.clauses;
        merged_tree(i, current.len(), &mut budget);
    }
    let list = to_list(
        ens,
        &table,
        current.iter().map(|c| (c.groups.as_slice(), c.value)),
        Some(default),
    );
    Ok(Outcome {
        status: Status::Finished,
        clauses: list.len(),
        list: Some(list),
        trees_merged: lists.len(),
        peak_clauses: budget.peak.max(current.len()),
        groups: m,
        seconds: budget.start.elapsed().as_secs_f64(),
    })
}
