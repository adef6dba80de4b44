//! Clause coverage: does a conjunction of literals have a substitution
//! that makes every literal a fact, given some variables already bound
//! (the head variables, bound to an example's arguments)?
//!
//! The search is a backtracking one that
//!
//! 1. splits the body into variable-connected components (variables
//!    already bound act as constants) and solves each on its own — a
//!    failure in one part never re-enumerates another;
//! 2. at each step picks the *most constrained* literal: the one with the
//!    fewest candidate facts given the current bindings, found by one
//!    index lookup per literal;
//! 3. does *forward checking*: if any remaining literal has no candidate
//!    left, the branch fails at once.
//!
//! The same engine answers θ-subsumption (see [`crate::subsume`]).

use crate::facts::{key_of, FactStore, MAX_ARITY};
use crate::groups::components;
use crate::symbols::Pred;
use crate::term::{Atom, Term};

/// Value of an unbound variable in a binding vector.
pub const UNBOUND: u32 = u32::MAX;

/// Where the matcher finds candidate tuples.
pub trait TupleSource: Sync {
    /// Indices of the tuples of `pred` whose values at the positions of
    /// `mask` match `key` (possibly a superset; the matcher verifies).
    fn candidates(&self, pred: Pred, mask: u32, key: u64) -> &[u32];
    /// Tuple `i` of `pred`.
    fn tuple(&self, pred: Pred, i: u32) -> &[u32];
}

impl TupleSource for FactStore {
    #[inline]
    fn candidates(&self, pred: Pred, mask: u32, key: u64) -> &[u32] {
        self.lookup(pred, mask, key)
    }
    #[inline]
    fn tuple(&self, pred: Pred, i: u32) -> &[u32] {
        FactStore::tuple(self, pred, i)
    }
}

/// The candidate tuples of one literal under the current bindings.
#[inline]
fn candidates<'s, S: TupleSource>(store: &'s S, lit: &Atom, bind: &[u32]) -> &'s [u32] {
    if lit.args.len() > MAX_ARITY {
        return store.candidates(lit.pred, 0, 0);
    }
    let mut mask = 0u32;
    let mut vals = [0u32; MAX_ARITY];
    for (i, t) in lit.args.iter().enumerate() {
        let v = match *t {
            Term::Const(c) => c.0,
            Term::Var(v) => bind[v as usize],
        };
        if v != UNBOUND {
            mask |= 1 << i;
        }
        vals[i] = v;
    }
    let key = key_of(mask, vals[..lit.args.len()].iter().copied());
    store.candidates(lit.pred, mask, key)
}

/// Unifies `lit` with a ground tuple, binding free variables (recorded on
/// `trail`). Returns false on a clash (bindings made so far stay on the
/// trail for the caller to undo).
#[inline]
fn bind_tuple(lit: &Atom, tuple: &[u32], bind: &mut [u32], trail: &mut Vec<u32>) -> bool {
    if tuple.len() != lit.args.len() {
        return false;
    }
    for (t, &val) in lit.args.iter().zip(tuple) {
        match *t {
            Term::Const(c) => {
                if c.0 != val {
                    return false;
                }
            }
            Term::Var(v) => {
                let b = &mut bind[v as usize];
                if *b == UNBOUND {
                    *b = val;
                    trail.push(v);
                } else if *b != val {
                    return false;
                }
            }
        }
    }
    true
}

fn undo(bind: &mut [u32], trail: &mut Vec<u32>, mark: usize) {
    for v in trail.drain(mark..) {
        bind[v as usize] = UNBOUND;
    }
}

/// The most constrained of the first `n` literals of `rem` (fewest
/// candidate tuples under `bind`; on ties the later one for which
/// `prefer` holds), as its position in `rem` and its candidates; `None`
/// when some of them has no candidate, i.e. the branch fails. `n ≥ 1`.
fn most_constrained<'s, S: TupleSource>(
    store: &'s S,
    body: &[Atom],
    rem: &[u16],
    n: usize,
    bind: &[u32],
    prefer: impl Fn(&Atom) -> bool,
) -> Option<(usize, &'s [u32])> {
    let mut best_i = 0;
    let mut best: &[u32] = &[];
    let mut best_len = usize::MAX;
    for (i, &r) in rem[..n].iter().enumerate() {
        let lit = &body[r as usize];
        let c = candidates(store, lit, bind);
        if c.is_empty() {
            return None;
        }
        if c.len() < best_len || (c.len() == best_len && prefer(lit)) {
            best_len = c.len();
            best_i = i;
            best = c;
        }
    }
    Some((best_i, best))
}

/// Backtracking over the literals `rem[..n]` (indices into `body`).
fn solve<S: TupleSource>(
    store: &S,
    body: &[Atom],
    rem: &mut [u16],
    n: usize,
    bind: &mut [u32],
    trail: &mut Vec<u32>,
) -> bool {
    if n == 0 {
        return true;
    }
    let Some((best_i, best)) = most_constrained(store, body, rem, n, bind, |_| false) else {
        return false;
    };
    rem.swap(best_i, n - 1);
    let lit = &body[rem[n - 1] as usize];
    for &t in best {
        let mark = trail.len();
        if bind_tuple(lit, store.tuple(lit.pred, t), bind, trail)
            && solve(store, body, rem, n - 1, bind, trail)
        {
            return true;
        }
        undo(bind, trail, mark);
    }
    false
}

/// Reusable buffers of the search (one per thread).
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    rem: Vec<u16>,
    trail: Vec<u32>,
}

impl Scratch {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }
}

/// A conjunction prepared for many evaluations with the same variables
/// bound on entry (e.g. the head variables): its variable-connected
/// components are computed once.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    lits: Vec<Atom>,
    comps: Vec<Vec<u16>>,
    n_vars: usize,
}

impl Query {
    /// Prepares `lits`; `bound(v)` tells which variables are bound on
    /// entry.
    pub fn new(lits: Vec<Atom>, bound: impl Fn(u32) -> bool) -> Self {
        let comps = components(&lits, |v| !bound(v))
            .into_iter()
            .map(|c| c.into_iter().map(|i| i as u16).collect())
            .collect();
        let n_vars = lits
            .iter()
            .flat_map(Atom::vars)
            .map(|v| v as usize + 1)
            .max()
            .unwrap_or(0);
        Query {
            lits,
            comps,
            n_vars,
        }
    }

    /// Prepares `lits` with head variables `0..n_head` bound on entry.
    pub fn with_head(lits: Vec<Atom>, n_head: usize) -> Self {
        Self::new(lits, |v| (v as usize) < n_head)
    }

    /// The literals.
    pub fn literals(&self) -> &[Atom] {
        &self.lits
    }

    /// One more than the largest variable number.
    pub fn n_vars(&self) -> usize {
        self.n_vars
    }

    /// True when some extension of `bind` satisfies every literal
    /// (`bind` is left as it was; it must cover [`Query::n_vars`]).
    pub fn holds<S: TupleSource>(
        &self,
        store: &S,
        bind: &mut [u32],
        scratch: &mut Scratch,
    ) -> bool {
        for comp in &self.comps {
            scratch.rem.clear();
            scratch.rem.extend_from_slice(comp);
            let n = comp.len();
            let mark = scratch.trail.len();
            let ok = solve(
                store,
                &self.lits,
                &mut scratch.rem,
                n,
                bind,
                &mut scratch.trail,
            );
            undo(bind, &mut scratch.trail, mark);
            if !ok {
                return false;
            }
        }
        true
    }

    /// The literals of the components that mention a variable of
    /// `targets`, after checking that every other component holds under
    /// `bind` (`None` when one does not; `bind` is left as it was).
    fn target_literals<S: TupleSource>(
        &self,
        store: &S,
        bind: &mut [u32],
        targets: &[u32],
        scratch: &mut Scratch,
    ) -> Option<Vec<u16>> {
        let mut with_targets: Vec<u16> = Vec::new();
        for comp in &self.comps {
            let has = comp
                .iter()
                .any(|&i| self.lits[i as usize].vars().any(|v| targets.contains(&v)));
            if has {
                with_targets.extend_from_slice(comp);
                continue;
            }
            scratch.rem.clear();
            scratch.rem.extend_from_slice(comp);
            let mark = scratch.trail.len();
            let ok = solve(
                store,
                &self.lits,
                &mut scratch.rem,
                comp.len(),
                bind,
                &mut scratch.trail,
            );
            undo(bind, &mut scratch.trail, mark);
            if !ok {
                return None;
            }
        }
        Some(with_targets)
    }

    /// The distinct value tuples of `targets` over the substitutions
    /// extending `bind` that satisfy the query (at most `limit`).
    pub fn distinct_values<S: TupleSource>(
        &self,
        store: &S,
        bind: &mut [u32],
        targets: &[u32],
        limit: usize,
        scratch: &mut Scratch,
    ) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        let Some(mut with_targets) = self.target_literals(store, bind, targets, scratch) else {
            return out;
        };
        let n = with_targets.len();
        let mark = scratch.trail.len();
        collect(
            store,
            &self.lits,
            &mut with_targets,
            n,
            bind,
            &mut scratch.trail,
            targets,
            &mut out,
            limit,
        );
        undo(bind, &mut scratch.trail, mark);
        out
    }

    /// True when some substitution extending `bind` satisfies the query
    /// and a condition on the variables `targets` (`bind` is left as it
    /// was). `decide(bind)` judges a partial binding: `Some(true)` when
    /// the condition holds whatever the unbound variables become,
    /// `Some(false)` when it cannot hold any more, `None` when undecided;
    /// it must decide once every target is bound. Components without a
    /// target must merely hold; the others are searched most constrained
    /// literal first (one binding a target on ties), and a branch stops
    /// as soon as it is decided.
    pub fn exists_where<S: TupleSource>(
        &self,
        store: &S,
        bind: &mut [u32],
        targets: &[u32],
        decide: &dyn Fn(&[u32]) -> Option<bool>,
        scratch: &mut Scratch,
    ) -> bool {
        let Some(mut with_targets) = self.target_literals(store, bind, targets, scratch) else {
            return false;
        };
        let n = with_targets.len();
        let mark = scratch.trail.len();
        let ok = search_where(
            store,
            &self.lits,
            &mut with_targets,
            n,
            bind,
            &mut scratch.trail,
            targets,
            decide,
        );
        undo(bind, &mut scratch.trail, mark);
        ok
    }
}

/// The search of [`Query::exists_where`]: most constrained literal first
/// (one with an unbound target variable on ties); once the condition is
/// decided true, one existence check of the rest.
#[allow(clippy::too_many_arguments)]
fn search_where<S: TupleSource>(
    store: &S,
    body: &[Atom],
    rem: &mut [u16],
    n: usize,
    bind: &mut [u32],
    trail: &mut Vec<u32>,
    targets: &[u32],
    decide: &dyn Fn(&[u32]) -> Option<bool>,
) -> bool {
    match decide(bind) {
        Some(false) => return false,
        Some(true) => {
            let mark = trail.len();
            let ok = solve(store, body, rem, n, bind, trail);
            undo(bind, trail, mark);
            return ok;
        }
        None => {}
    }
    if n == 0 {
        // Nothing left to bind but `decide` did not decide.
        return false;
    }
    let opens_target = |lit: &Atom| {
        lit.vars()
            .any(|v| bind[v as usize] == UNBOUND && targets.contains(&v))
    };
    let Some((best_i, best)) = most_constrained(store, body, rem, n, bind, opens_target) else {
        return false;
    };
    rem.swap(best_i, n - 1);
    let lit = &body[rem[n - 1] as usize];
    let mut found = false;
    for &t in best {
        let mark = trail.len();
        if bind_tuple(lit, store.tuple(lit.pred, t), bind, trail)
            && search_where(store, body, rem, n - 1, bind, trail, targets, decide)
        {
            found = true;
        }
        undo(bind, trail, mark);
        if found {
            break;
        }
    }
    rem.swap(best_i, n - 1);
    found
}

/// True when some substitution extending `bind` makes every literal of
/// `body` a fact of `store`. Variables are indices into `bind`
/// ([`UNBOUND`] = free), which must have an entry for every variable of
/// `body`; `bind` is left as it was.
pub fn exists<S: TupleSource>(store: &S, body: &[Atom], bind: &mut [u32]) -> bool {
    let b: &[u32] = bind;
    let q = Query::new(body.to_vec(), |v| b[v as usize] != UNBOUND);
    q.holds(store, bind, &mut Scratch::new())
}

/// Enumerates solutions until every variable of `targets` is bound, then
/// checks the rest once and records the targets' values.
#[allow(clippy::too_many_arguments)]
fn collect<S: TupleSource>(
    store: &S,
    body: &[Atom],
    rem: &mut [u16],
    n: usize,
    bind: &mut [u32],
    trail: &mut Vec<u32>,
    targets: &[u32],
    out: &mut Vec<Vec<u32>>,
    limit: usize,
) {
    if out.len() >= limit {
        return;
    }
    if targets.iter().all(|&v| bind[v as usize] != UNBOUND) {
        let key: Vec<u32> = targets.iter().map(|&v| bind[v as usize]).collect();
        if out.contains(&key) {
            return;
        }
        let mark = trail.len();
        let ok = solve(store, body, rem, n, bind, trail);
        undo(bind, trail, mark);
        if ok {
            out.push(key);
        }
        return;
    }
    if n == 0 {
        return;
    }
    let Some((best_i, best)) = most_constrained(store, body, rem, n, bind, |_| false) else {
        return;
    };
    rem.swap(best_i, n - 1);
    let lit = &body[rem[n - 1] as usize];
    for &t in best {
        let mark = trail.len();
        if bind_tuple(lit, store.tuple(lit.pred, t), bind, trail) {
            collect(store, body, rem, n - 1, bind, trail, targets, out, limit);
        }
        undo(bind, trail, mark);
        if out.len() >= limit {
            break;
        }
    }
    rem.swap(best_i, n - 1);
}

/// The distinct value tuples of the variables `targets` over all
/// substitutions extending `bind` that satisfy `body` (at most `limit`
/// of them, in the order found). `bind` is left as it was.
pub fn distinct_values<S: TupleSource>(
    store: &S,
    body: &[Atom],
    bind: &mut [u32],
    targets: &[u32],
    limit: usize,
) -> Vec<Vec<u32>> {
    let b: &[u32] = bind;
    let q = Query::new(body.to_vec(), |v| b[v as usize] != UNBOUND);
    q.distinct_values(store, bind, targets, limit, &mut Scratch::new())
}

/// Every substitution of the free variables of `body` (extending `bind`)
/// that satisfies it, as full binding vectors — the brute-force reference
/// the tests compare [`exists`] with. Enumerates in literal order without
/// any pruning; only for small inputs.
pub fn all_solutions<S: TupleSource>(store: &S, body: &[Atom], bind: &[u32]) -> Vec<Vec<u32>> {
    fn rec<S: TupleSource>(
        store: &S,
        body: &[Atom],
        i: usize,
        bind: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
    ) {
        if i == body.len() {
            out.push(bind.clone());
            return;
        }
        let lit = &body[i];
        let mut trail = Vec::new();
        for &t in store.candidates(lit.pred, 0, 0) {
            if bind_tuple(lit, store.tuple(lit.pred, t), bind, &mut trail) {
                rec(store, body, i + 1, bind, out);
            }
            undo(bind, &mut trail, 0);
        }
    }
    let mut out = Vec::new();
    let mut b = bind.to_vec();
    rec(store, body, 0, &mut b, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbols::Pred;
    use crate::term::Term::{Const, Var};

    fn store(facts: &[(u32, &[u32])]) -> FactStore {
        FactStore::from_facts(facts.iter().map(|&(p, a)| (Pred(p), a)))
    }

    #[test]
    fn joins_need_backtracking() {
        // e(1,2), e(2,3), e(3,1), e(1,4), mark(4)
        let s = store(&[
            (0, &[1, 2]),
            (0, &[2, 3]),
            (0, &[3, 1]),
            (0, &[1, 4]),
            (1, &[4]),
        ]);
        // e(X,Y), e(Y,Z), mark(Z) from X=3: 3->1->4 marked.
        let body = vec![
            Atom::new(Pred(0), vec![Var(0), Var(1)]),
            Atom::new(Pred(0), vec![Var(1), Var(2)]),
            Atom::new(Pred(1), vec![Var(2)]),
        ];
        let mut bind = vec![3, UNBOUND, UNBOUND];
        assert!(exists(&s, &body, &mut bind));
        assert_eq!(bind, vec![3, UNBOUND, UNBOUND]);
        bind[0] = 1;
        assert!(!exists(&s, &body, &mut bind));
        // Repeated variable: e(X,X) never holds.
        let lit = vec![Atom::new(Pred(0), vec![Var(0), Var(0)])];
        let mut b = vec![UNBOUND];
        assert!(!exists(&s, &lit, &mut b));
        // Constant: e(X, 4) holds for X = 1 only.
        let lit = vec![Atom::new(
            Pred(0),
            vec![Var(0), Const(crate::symbols::Sym(4))],
        )];
        let mut b = vec![UNBOUND];
        assert!(exists(&s, &lit, &mut b));
        assert_eq!(distinct_values(&s, &lit, &mut b, &[0], 10), vec![vec![1]]);
    }

    #[test]
    fn distinct_values_of_an_output() {
        let s = store(&[
            (0, &[1, 2]),
            (0, &[1, 3]),
            (0, &[5, 3]),
            (1, &[3, 7]),
            (1, &[2, 8]),
            (1, &[3, 9]),
        ]);
        // p(A, X), q(X, C): values of C from A = 1 are 8, 7, 9 (each once).
        let body = [
            Atom::new(Pred(0), vec![Var(0), Var(1)]),
            Atom::new(Pred(1), vec![Var(1), Var(2)]),
        ];
        let mut bind = vec![1, UNBOUND, UNBOUND];
        let mut v = distinct_values(&s, &body, &mut bind, &[2], 100);
        v.sort();
        assert_eq!(v, vec![vec![7], vec![8], vec![9]]);
        assert_eq!(all_solutions(&s, &body, &bind).len(), 3);
    }
}
