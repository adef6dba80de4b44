//! θ-subsumption with head variables fixed.
//!
//! `C` θ-subsumes `D` when some substitution θ maps every literal of `C`'s
//! body onto a literal of `D`'s body, with the head variables `0..k`
//! mapped to themselves and constants only to themselves. Then every
//! binding of the head that satisfies `D` satisfies `C` (`D ⊨ C`: `C` is
//! more general).
//!
//! Implementation: `D` is *skolemised* — each of its variables becomes a
//! fresh constant — into a small [`FactStore`], and `C`'s body is run
//! against it as a conjunctive query with the head variables pre-bound to
//! their skolem constants. This is the coverage engine of
//! [`crate::coverage`]: most-constrained literal first, forward checking,
//! independent components solved separately.

use crate::coverage::{exists, UNBOUND};
use crate::facts::FactStore;
use crate::term::{Atom, Clause, Term};

/// First value used for skolem constants (interned symbols stay below).
pub const SKOLEM: u32 = 1 << 31;

/// The skolemised body of a clause, ready to be tested against many
/// more general clauses.
#[derive(Debug, Clone)]
pub struct Skolemized {
    store: FactStore,
    n_head: usize,
}

impl Skolemized {
    /// Skolemises `body` (head variables `0..n_head`).
    pub fn new(body: &[Atom], n_head: usize) -> Self {
        let tuples: Vec<(crate::symbols::Pred, Vec<u32>)> = body
            .iter()
            .map(|a| {
                let vals = a
                    .args
                    .iter()
                    .map(|t| match *t {
                        Term::Var(v) => SKOLEM | v,
                        Term::Const(c) => c.0,
                    })
                    .collect();
                (a.pred, vals)
            })
            .collect();
        Skolemized {
            store: FactStore::from_facts(tuples.iter().map(|(p, a)| (*p, a.as_slice()))),
            n_head,
        }
    }

    /// True when `general` (a body over the same head variables)
    /// θ-subsumes the skolemised body.
    pub fn subsumed_by(&self, general: &[Atom]) -> bool {
        let n_vars = general
            .iter()
            .flat_map(Atom::vars)
            .map(|v| v as usize + 1)
            .max()
            .unwrap_or(0)
            .max(self.n_head);
        let mut bind = vec![UNBOUND; n_vars];
        for (v, b) in bind.iter_mut().enumerate().take(self.n_head) {
            *b = SKOLEM | v as u32;
        }
        exists(&self.store, general, &mut bind)
    }
}

/// True when body `c` θ-subsumes body `d`, both over head variables
/// `0..n_head` (which map to themselves).
pub fn subsumes(c: &[Atom], d: &[Atom], n_head: usize) -> bool {
    if c.is_empty() {
        return true;
    }
    if c.len() == 1 && d.contains(&c[0]) {
        return true;
    }
    Skolemized::new(d, n_head).subsumed_by(c)
}

/// True when clause `c` θ-subsumes clause `d`: same head predicate and
/// head terms, and `c`'s body subsumes `d`'s with the head variables fixed.
pub fn clause_subsumes(c: &Clause, d: &Clause) -> bool {
    c.head == d.head && subsumes(&c.body, &d.body, c.n_head())
}

/// Greedy self-subsumption reduction (CoTE's `clauseReduction`): drops
/// literal `l` whenever the body subsumes the body without `l` (then the
/// two are equivalent). Literals are tried from the last to the first, so
/// of two interchangeable literals the earlier one stays.
pub fn reduce(body: &[Atom], n_head: usize) -> Vec<Atom> {
    let mut cur = body.to_vec();
    let mut i = cur.len();
    while i > 0 {
        i -= 1;
        let mut without = cur.clone();
        without.remove(i);
        if subsumes(&cur, &without, n_head) {
            cur = without;
        }
    }
    cur
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbols::{Pred, Sym};
    use crate::term::Term::{Const, Var};

    fn a(p: u32, args: &[Term]) -> Atom {
        Atom::new(Pred(p), args.to_vec())
    }

    const P: u32 = 0;
    const Q: u32 = 1;

    #[test]
    fn variants_and_generalisations() {
        // Head vars A=0, B=1. {p(C,A), p(C,B)} vs {p(E,B), p(E,A)}: variants.
        let g1 = vec![a(P, &[Var(2), Var(0)]), a(P, &[Var(2), Var(1)])];
        let g2 = vec![a(P, &[Var(4), Var(1)]), a(P, &[Var(4), Var(0)])];
        assert!(subsumes(&g1, &g2, 2) && subsumes(&g2, &g1, 2));
        // {p(C,A)} is more general than g1, not the reverse.
        let pa = vec![a(P, &[Var(2), Var(0)])];
        assert!(subsumes(&pa, &g1, 2));
        assert!(!subsumes(&g1, &pa, 2));
        // p(C,A) vs p(E,B): head variables are fixed, so no.
        let pb = vec![a(P, &[Var(4), Var(1)])];
        assert!(!subsumes(&pa, &pb, 2) && !subsumes(&pb, &pa, 2));
        // Empty body subsumes everything.
        assert!(subsumes(&[], &g1, 2));
    }

    #[test]
    fn needs_backtracking() {
        // C: p(X,Y), p(Y,Z), q(Z) — the first match p(A,C1) must be
        // abandoned for p(A,C2) to reach q.
        // D: p(A,C1), p(C1,C1), p(A,C2), p(C2,C3), q(C3)
        let c = vec![
            a(P, &[Var(0), Var(2)]),
            a(P, &[Var(2), Var(3)]),
            a(Q, &[Var(3)]),
        ];
        let d = vec![
            a(P, &[Var(0), Var(5)]),
            a(P, &[Var(5), Var(5)]),
            a(P, &[Var(0), Var(6)]),
            a(P, &[Var(6), Var(7)]),
            a(Q, &[Var(7)]),
        ];
        assert!(subsumes(&c, &d, 1));
        // Without q(C3) it fails.
        assert!(!subsumes(&c, &d[..4], 1));
    }

    #[test]
    fn constants_and_repeated_variables() {
        let y6 = Const(Sym(6));
        let y5 = Const(Sym(5));
        let c = vec![a(P, &[Var(0), y6])];
        assert!(subsumes(&c, &[a(P, &[Var(0), y6])], 1));
        assert!(!subsumes(&c, &[a(P, &[Var(0), y5])], 1));
        // A variable may map to a constant, not the reverse.
        let cv = vec![a(P, &[Var(0), Var(3)])];
        assert!(subsumes(&cv, &[a(P, &[Var(0), y5])], 1));
        assert!(!subsumes(&[a(P, &[Var(0), y5])], &cv, 1));
        // Repeated variable p(X,X) needs a reflexive literal.
        let refl = vec![a(P, &[Var(2), Var(2)])];
        assert!(!subsumes(&refl, &[a(P, &[Var(2), Var(3)])], 1));
        assert!(subsumes(&refl, &[a(P, &[Var(3), Var(3)])], 1));
        // p(X,Y) subsumes p(X,X) (two variables may map to one).
        assert!(subsumes(
            &[a(P, &[Var(2), Var(3)])],
            &[a(P, &[Var(4), Var(4)])],
            1
        ));
    }

    #[test]
    fn a_group_can_subsume_a_union_but_no_part() {
        // Notes §3.4: G = {p(A,X), q(X,B)} subsumes G1 ∪ G2 = {p(A,B)} ∪ {q(B,B)}
        // (X ↦ B, a head variable) but neither part alone.
        let g = vec![a(P, &[Var(0), Var(2)]), a(Q, &[Var(2), Var(1)])];
        let g1 = vec![a(P, &[Var(0), Var(1)])];
        let g2 = vec![a(Q, &[Var(1), Var(1)])];
        let union: Vec<Atom> = g1.iter().chain(&g2).cloned().collect();
        assert!(subsumes(&g, &union, 2));
        assert!(!subsumes(&g, &g1, 2));
        assert!(!subsumes(&g, &g2, 2));
    }

    #[test]
    fn self_subsumption_reduction() {
        // p(C,A), p(D,A) reduces to p(C,A).
        let body = vec![a(P, &[Var(2), Var(0)]), a(P, &[Var(3), Var(0)])];
        assert_eq!(reduce(&body, 1), vec![body[0].clone()]);
        // p(C,A), q(C) does not reduce.
        let body = vec![a(P, &[Var(2), Var(0)]), a(Q, &[Var(2)])];
        assert_eq!(reduce(&body, 1), body);
    }
}
