//! ECoTE (Algorithm 3): example-based compression, equivalent to the
//! ensemble on the training examples.
//!
//! The ES cache holds the training examples each predicate group covers
//! (a bit set); a clause covers the intersection of its groups' sets
//! (Proposition 2). Lists are merged in tree order, the cross product
//! enumerated lexicographically as in SCoTE. For each combination `C`:
//!
//! - its *active* coverage is `cov(C) \ EC`, where `EC` holds the examples
//!   covered by the combinations kept so far in this merge; a combination
//!   with empty active coverage can never be the first rule to fire on a
//!   training example and is dropped (`checkCoverage`);
//! - otherwise its groups are pruned (`pruneClause`): scanned from the
//!   last to the first (the newest tree's groups first), a group is
//!   dropped when the clause without it still has exactly the same
//!   coverage of not-yet-covered examples.
//!
//! Unlike the paper, which keeps the first tree's list unchanged, the first
//! list is pruned the same way (it is merged into the neutral list
//! `[true: 0]`), so the size bound below holds for any number of trees.
//!
//! On every training example the first rule that fires has the ensemble's
//! value, so the list has at most one rule per training example, plus the
//! default rule: a last, empty-body rule is always kept, with the value of
//! the combination of every tree's default (all-false) path — what the
//! list answers for an example no retained rule covers.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cote::merge::{prep, to_list, union_groups, Budget, Caps, MClause, Outcome, Status};
use crate::coverage::{Query, Scratch, TupleSource, UNBOUND};
use crate::data::Examples;
use crate::ensemble::TreeEnsemble;
use crate::error::{Error, Result};

/// Parameters of ECoTE.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct EcoteParams {
    /// Limits (clauses, memory, time).
    pub caps: Caps,
    /// Skip the per-clause self-subsumption reduction of PREP.
    pub skip_clause_reduction: bool,
}

/// A fixed-size bit set over the training examples.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn full(n: usize) -> Self {
        let mut v = vec![u64::MAX; n.div_ceil(64)];
        if n % 64 != 0 {
            if let Some(last) = v.last_mut() {
                *last = (1u64 << (n % 64)) - 1;
            }
        }
        Bits(v)
    }
    fn and(&self, o: &Bits) -> Bits {
        Bits(self.0.iter().zip(&o.0).map(|(a, b)| a & b).collect())
    }
    fn and_not(&self, o: &Bits) -> Bits {
        Bits(self.0.iter().zip(&o.0).map(|(a, b)| a & !b).collect())
    }
    fn or_assign(&mut self, o: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

/// Runs ECoTE on an ensemble, with the training examples `examples` over
/// the facts `store` as the coverage universe.
pub fn ecote<S: TupleSource>(
    ens: &TreeEnsemble,
    store: &S,
    examples: &Examples,
    params: &EcoteParams,
) -> Result<Outcome> {
    let mut budget = Budget::new(params.caps);
    if examples.arity != ens.head.args.len() {
        return Err(Error::Mismatch(format!(
            "examples have {} arguments but the ensemble's head has {}",
            examples.arity,
            ens.head.args.len()
        )));
    }
    let (lists, table) = prep(ens, !params.skip_clause_reduction)?;
    let n = examples.len();
    let n_head = table.n_head;
    // ES: coverage of every group, in parallel over groups.
    let es: Vec<Bits> = table
        .groups
        .par_iter()
        .map(|g| {
            let q = Query::with_head(g.clone(), n_head);
            let mut bind = vec![UNBOUND; q.n_vars().max(n_head)];
            let mut scratch = Scratch::new();
            let mut bits = vec![0u64; n.div_ceil(64)];
            for i in 0..n {
                bind.fill(UNBOUND);
                bind[..n_head].copy_from_slice(examples.get(i));
                if q.holds(store, &mut bind, &mut scratch) {
                    bits[i / 64] |= 1 << (i % 64);
                }
            }
            Bits(bits)
        })
        .collect();
    let all = Bits::full(n);
    let cov = |groups: &[u32]| {
        groups
            .iter()
            .fold(all.clone(), |acc, &g| acc.and(&es[g as usize]))
    };
    let default: f64 = lists
        .iter()
        .filter_map(|l| l.last())
        .map(|c| c.value)
        .reduce(|a, b| a + b)
        .unwrap_or(0.0);
    let bytes_per_clause = 64 + 8 * n.div_ceil(64);
    // Start from the neutral list [true: 0] so the first tree's list is
    // pruned by coverage too (the paper keeps it as is).
    let mut current: Vec<(MClause, Bits)> = vec![(
        MClause {
            groups: Vec::new(),
            value: 0.0,
        },
        all.clone(),
    )];
    for (i, next) in lists.iter().enumerate() {
        let next_cov: Vec<Bits> = next.iter().map(|c| cov(&c.groups)).collect();
        let mut out: Vec<(MClause, Bits)> = Vec::new();
        let mut ec = Bits(vec![0; n.div_ceil(64)]);
        for (step, (cj, cov_j)) in current.iter().enumerate() {
            for (ck, cov_k) in next.iter().zip(&next_cov) {
                let raw = cov_j.and(cov_k);
                let active = raw.and_not(&ec);
                if active.is_empty() {
                    continue;
                }
                let mut groups = union_groups(&cj.groups, &ck.groups);
                let mut raw = raw;
                let mut k = groups.len();
                while k > 0 {
                    k -= 1;
                    let rest: Vec<u32> = groups
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != k)
                        .map(|(_, &g)| g)
                        .collect();
                    let c2 = cov(&rest);
                    if c2.and_not(&ec) == active {
                        groups = rest;
                        raw = c2;
                    }
                }
                ec.or_assign(&active);
                out.push((
                    MClause {
                        groups,
                        value: cj.value + ck.value,
                    },
                    raw,
                ));
            }
            if step % 64 == 0 {
                if let Some(status) = budget.check(
                    out.len() + current.len(),
                    (out.len() + current.len()) * bytes_per_clause,
                ) {
                    return Ok(Outcome {
                        status,
                        list: None,
                        trees_merged: i,
                        clauses: out.len(),
                        peak_clauses: budget.peak,
                        groups: table.len(),
                        seconds: budget.start.elapsed().as_secs_f64(),
                    });
                }
            }
        }
        current = out;
        budget.check(current.len(), 0);
    }
    let n_clauses = current.len();
    let list = to_list(
        ens,
        &table,
        current.iter().map(|(c, _)| (c.groups.as_slice(), c.value)),
        Some(default),
    );
    Ok(Outcome {
        status: Status::Finished,
        clauses: list.len(),
        list: Some(list),
        trees_merged: lists.len(),
        peak_clauses: budget.peak.max(n_clauses),
        groups: table.len(),
        seconds: budget.start.elapsed().as_secs_f64(),
    })
}
