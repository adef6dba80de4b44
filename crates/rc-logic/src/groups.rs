//! Predicate groups (CoTE's Proposition 2): the variable-connected
//! components of a clause body, where head variables (and constants) do
//! not connect literals. A body holds iff every group holds, so groups can
//! be tested, cached and compared independently.

use std::borrow::Borrow;

use crate::term::Atom;

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The connected components of `body` when two literals are connected
/// by sharing a variable `v` with `free(v)`; variables that are not free
/// act as constants. Components are listed by their first literal, each
/// with its literals in body order. A literal without free variables is
/// a component of its own.
pub fn components<A: Borrow<Atom>>(body: &[A], free: impl Fn(u32) -> bool) -> Vec<Vec<usize>> {
    let n = body.len();
    let mut parent: Vec<usize> = (0..n).collect();
    // First literal seen for each free variable.
    let mut first: Vec<(u32, usize)> = Vec::new();
    for (i, a) in body.iter().enumerate() {
        for v in a.borrow().vars().filter(|&v| free(v)) {
            match first.iter().find(|(w, _)| *w == v) {
                Some(&(_, j)) => {
                    let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                    if ri != rj {
                        let (lo, hi) = (ri.min(rj), ri.max(rj));
                        parent[hi] = lo;
                    }
                }
                None => first.push((v, i)),
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut root_group: Vec<Option<usize>> = vec![None; n];
    for i in 0..n {
        let r = find(&mut parent, i);
        match root_group[r] {
            Some(g) => groups[g].push(i),
            None => {
                root_group[r] = Some(groups.len());
                groups.push(vec![i]);
            }
        }
    }
    groups
}

/// The predicate groups of a clause body whose head variables are
/// `0..n_head`: components connected through body-only variables.
pub fn predicate_groups(body: &[Atom], n_head: usize) -> Vec<Vec<usize>> {
    components(body, |v| v as usize >= n_head)
}

/// The groups as atom lists (clones), in the order of
/// [`predicate_groups`].
pub fn group_atoms(body: &[Atom], n_head: usize) -> Vec<Vec<Atom>> {
    predicate_groups(body, n_head)
        .into_iter()
        .map(|g| g.into_iter().map(|i| body[i].clone()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbols::{Pred, Sym};
    use crate::term::Term::{Const, Var};

    #[test]
    fn head_variables_and_constants_do_not_connect() {
        // prof(b), pub(c,a), pub(c,b), yip(a,"y6"), taught(f,b,d), ta(f,a,d)
        let (a, b, c, d, f) = (0, 1, 2, 3, 4);
        let body = vec![
            Atom::new(Pred(0), vec![Var(b)]),
            Atom::new(Pred(1), vec![Var(c), Var(a)]),
            Atom::new(Pred(1), vec![Var(c), Var(b)]),
            Atom::new(Pred(2), vec![Var(a), Const(Sym(9))]),
            Atom::new(Pred(3), vec![Var(f), Var(b), Var(d)]),
            Atom::new(Pred(4), vec![Var(f), Var(a), Var(d)]),
        ];
        let g = predicate_groups(&body, 2);
        assert_eq!(g, vec![vec![0], vec![1, 2], vec![3], vec![4, 5]]);
        // Treating everything as free merges through a and b.
        assert_eq!(components(&body, |_| true).len(), 1);
    }
}
