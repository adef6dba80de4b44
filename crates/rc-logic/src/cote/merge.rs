//! The shared part of CoTE: trees to positive decision lists
//! (Proposition 1), per-clause self-subsumption reduction, predicate
//! groups interned in a [`GroupTable`] (clauses become sets of group ids,
//! which standardises the lists apart for free), the caps, and the outcome.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::cote::decision_list::DecisionList;
pub use crate::cote::group_table::{canonical, GroupTable};
use crate::ensemble::{Combine, TreeEnsemble};
use crate::error::Result;
use crate::groups::predicate_groups;
use crate::subsume::reduce;
use crate::term::Atom;

/// Limits that turn a combinatorial explosion into a reported status.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Caps {
    /// Most clauses the lists being built may hold (default 50 000 000).
    /// SCoTE's default merge counts only the list being built: the list it
    /// extends is held as 2-byte clause indices per tree and counted in
    /// the memory estimate.
    pub max_clauses: usize,
    /// Most bytes the clause lists may take, estimated (default 6 GiB).
    pub max_bytes: usize,
    /// Wall-time limit (default 10 minutes).
    pub time_limit: Duration,
}

impl Default for Caps {
    fn default() -> Self {
        Caps {
            max_clauses: 50_000_000,
            max_bytes: 6 << 30,
            time_limit: Duration::from_secs(600),
        }
    }
}

/// How a CoTE run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Every tree was merged.
    Finished,
    /// The list outgrew [`Caps::max_clauses`].
    ClauseLimit,
    /// The estimated memory outgrew [`Caps::max_bytes`].
    MemoryLimit,
    /// [`Caps::time_limit`] passed.
    TimeLimit,
}

impl Status {
    /// A short name (`finished`, `clause limit`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Status::Finished => "finished",
            Status::ClauseLimit => "clause limit",
            Status::MemoryLimit => "memory limit",
            Status::TimeLimit => "time limit",
        }
    }
}

/// The result of SCoTE or ECoTE.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Outcome {
    /// How the run ended.
    pub status: Status,
    /// The decision list (only when [`Status::Finished`]).
    pub list: Option<DecisionList>,
    /// Trees merged into the list (all of them when finished).
    pub trees_merged: usize,
    /// Clauses of the list when the run ended (the partial size on a cap).
    pub clauses: usize,
    /// Largest number of clauses held at once.
    pub peak_clauses: usize,
    /// Distinct predicate groups.
    pub groups: usize,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// A clause during merging: its groups (ids into a [`GroupTable`], in the
/// order they were added) and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct MClause {
    /// Group ids.
    pub groups: Vec<u32>,
    /// Summed value.
    pub value: f64,
}

/// CoTE's PREP (Algorithm 4): each tree as a positive decision list
/// (Proposition 1), each clause reduced by self-subsumption when `reduce`
/// is set, and split into predicate groups interned in the table.
pub fn prep(ens: &TreeEnsemble, reduce_clauses: bool) -> Result<(Vec<Vec<MClause>>, GroupTable)> {
    ens.validate()?;
    let n_head = ens.head.args.len();
    let mut table = GroupTable::new(n_head);
    let mut lists = Vec::with_capacity(ens.trees.len());
    for t in &ens.trees {
        let mut list = Vec::new();
        for (clause, value) in t.to_clauses() {
            let body = if reduce_clauses {
                reduce(&clause.body, n_head)
            } else {
                clause.body
            };
            let mut ids: Vec<u32> = Vec::new();
            for g in predicate_groups(&body, n_head) {
                let atoms: Vec<Atom> = g.iter().map(|&i| body[i].clone()).collect();
                let id = table.intern(&atoms);
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            list.push(MClause { groups: ids, value });
        }
        lists.push(list);
    }
    Ok((lists, table))
}

/// Merges the groups of two clauses (`a`'s first), dropping repeats.
pub fn union_groups(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = a.to_vec();
    for &g in b {
        if !out.contains(&g) {
            out.push(g);
        }
    }
    out
}

/// Turns merged clauses into a decision list (values of bagging divided by
/// the number of trees), adding `default` as an empty-body last rule when
/// the list does not end with one.
pub fn to_list<'a>(
    ens: &TreeEnsemble,
    table: &GroupTable,
    clauses: impl IntoIterator<Item = (&'a [u32], f64)>,
    default: Option<f64>,
) -> DecisionList {
    let m = ens.trees.len().max(1) as f64;
    let scale = |v: f64| match ens.combine {
        Combine::Mean => v / m,
        Combine::Sum { .. } => v,
    };
    let mut list = DecisionList::new(
        ens.head.clone(),
        table.groups.clone(),
        ens.combine,
        ens.vocab.clone(),
    );
    let mut last_empty = false;
    for (groups, v) in clauses {
        list.push(groups, scale(v));
        last_empty = groups.is_empty();
    }
    if !last_empty {
        if let Some(d) = default {
            list.push(&[], scale(d));
        }
    }
    list
}

/// Tracks the caps during a run.
pub(crate) struct Budget {
    pub caps: Caps,
    pub start: Instant,
    pub peak: usize,
}

impl Budget {
    pub fn new(caps: Caps) -> Self {
        Budget {
            caps,
            start: Instant::now(),
            peak: 0,
        }
    }

    /// The status a list of `clauses` clauses taking `bytes` bytes causes.
    pub fn check(&mut self, clauses: usize, bytes: usize) -> Option<Status> {
        self.peak = self.peak.max(clauses);
        if clauses > self.caps.max_clauses {
            return Some(Status::ClauseLimit);
        }
        if bytes > self.caps.max_bytes {
            return Some(Status::MemoryLimit);
        }
        if self.start.elapsed() > self.caps.time_limit {
            return Some(Status::TimeLimit);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbols::Pred;
    use crate::term::Term::Var;

    #[test]
    fn canonical_forms_and_standardising_apart() {
        // {pub(C,A), pub(C,B)} and {pub(E,B), pub(E,A)} get one form.
        let p = Pred(0);
        let g1 = vec![
            Atom::new(p, vec![Var(2), Var(0)]),
            Atom::new(p, vec![Var(2), Var(1)]),
        ];
        let g2 = vec![
            Atom::new(p, vec![Var(7), Var(1)]),
            Atom::new(p, vec![Var(7), Var(0)]),
        ];
        assert_eq!(canonical(&g1, 2), canonical(&g2, 2));
        let mut t = GroupTable::new(2);
        let a = t.intern(&g1);
        assert_eq!(t.intern(&g2), a);
        let b = t.intern(&[Atom::new(p, vec![Var(3), Var(0)])]);
        let body = t.materialize(&[a, b]);
        // a's variable is 2, b's is renumbered to 3.
        assert_eq!(body[2], Atom::new(p, vec![Var(3), Var(0)]));
        assert_eq!(body[0].args[0], Var(2));
        assert_eq!(union_groups(&[a], &[b, a]), vec![a, b]);
    }
}
