//! The table of CoTE's predicate groups: every group of every decision
//! list in a canonical form, interned as an id, so that clauses become sets
//! of group ids; and the bodies of such clauses, standardised apart.

use crate::symbols::FxHashMap;
use crate::term::{Atom, Term};

/// Every predicate group of every list, in a canonical form: body-only
/// variables renumbered from the head's arity, atoms sorted.
#[derive(Debug, Clone, Default)]
pub struct GroupTable {
    /// The groups.
    pub groups: Vec<Vec<Atom>>,
    index: FxHashMap<Vec<Atom>, u32>,
    /// Number of head variables.
    pub n_head: usize,
}

/// A canonical form of a group: atoms sorted with body variables masked,
/// variables renumbered by first occurrence, atoms sorted again and
/// deduplicated. Variants usually (not always) get the same form; the
/// subsumption cache treats the rest.
pub fn canonical(group: &[Atom], n_head: usize) -> Vec<Atom> {
    let head = n_head as u32;
    let masked = |a: &Atom| {
        a.map_vars(|v| {
            if v < head {
                Term::Var(v)
            } else {
                Term::Var(u32::MAX)
            }
        })
    };
    let mut atoms: Vec<Atom> = group.to_vec();
    atoms.sort_by_key(|a| masked(a));
    let mut map: Vec<(u32, u32)> = Vec::new();
    let mut next = head;
    let renamed: Vec<Atom> = atoms
        .iter()
        .map(|a| {
            a.map_vars(|v| {
                if v < head {
                    return Term::Var(v);
                }
                match map.iter().find(|(o, _)| *o == v) {
                    Some(&(_, n)) => Term::Var(n),
                    None => {
                        map.push((v, next));
                        next += 1;
                        Term::Var(next - 1)
                    }
                }
            })
        })
        .collect();
    let mut out = renamed;
    out.sort();
    out.dedup();
    out
}

impl GroupTable {
    /// An empty table for clauses with `n_head` head variables.
    pub fn new(n_head: usize) -> Self {
        GroupTable {
            n_head,
            ..Self::default()
        }
    }

    /// The id of a group, adding it if new.
    pub fn intern(&mut self, group: &[Atom]) -> u32 {
        let c = canonical(group, self.n_head);
        if let Some(&id) = self.index.get(&c) {
            return id;
        }
        let id = self.groups.len() as u32;
        self.index.insert(c.clone(), id);
        self.groups.push(c);
        id
    }

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// True without groups.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// The body of a clause made of `ids`, standardised apart (each
    /// group's body variables get fresh numbers).
    pub fn materialize(&self, ids: &[u32]) -> Vec<Atom> {
        let head = self.n_head as u32;
        let mut offset = 0u32;
        let mut out = Vec::new();
        for &g in ids {
            let atoms = &self.groups[g as usize];
            let mut max = 0u32;
            for a in atoms {
                out.push(a.map_vars(|v| {
                    if v < head {
                        Term::Var(v)
                    } else {
                        max = max.max(v - head + 1);
                        Term::Var(v + offset)
                    }
                }));
            }
            offset += max;
        }
        out
    }
}
