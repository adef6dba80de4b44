//! A certified lower bound on the size of any decision list equivalent to
//! a boosted ensemble (CoTE, issue 9, task B): the number of distinct
//! ensemble values over databases that can exist (each clause of a
//! decision list gives one value).
//!
//! ```text
//! cargo run --release -p rc-logic --example cote_bound -- \
//!     ../shared/datasets/relational/icml/icml - coauthor \
//!     [--frontier 16] [--values 45000000] [--q-size 10] [--pairs N] [--dump]
//! ```
//!
//! The argument (details in docs/reproduction/003.md, issue 9): take a
//! fresh example `(a, b)` and the set `G` of ground atoms the trees' test
//! literals name once the head is bound to `(a, b)` (literals without body
//! variables). The base database `B` holds, for every test node, its check
//! literals *with* body variables grounded by fresh constants; so each
//! check `Qg ∧ Qv` (ground part, rest; they share no body variable) has
//! `Qv` true on `B`, hence on every `B ∪ S` (queries are monotone), and
//! holds on `B ∪ S` exactly when `Qg ⊆ S`. Tree `l`'s value on `B ∪ S` is
//! thus a function of `S ∩ U_l` (`U_l` = its `Qg` atoms), tabulated on the
//! real trees and checked against them on random full databases. A
//! frontier dynamic programme over the trees then collects the distinct
//! sums over all `S ⊆ G` (atoms that would widen the frontier beyond
//! `--frontier` are fixed absent, sets are capped at `--values` in total:
//! both only shrink the family of databases, so the count stays a lower
//! bound). A second estimate splits the trees in two halves with their
//! shared atoms fixed absent and counts `|V_P + V_Q|` by streaming.

use std::collections::BTreeSet;
use std::path::PathBuf;

use rc_logic::coverage::{exists, Scratch, UNBOUND};
use rc_logic::facts::FactStore;
use rc_logic::symbols::Pred;
use rc_logic::term::{Atom, Term};
use rc_logic::tree::{CompiledTree, Node, RelTree};
use rc_logic::{BoostParams, Problem};
use rulecover_core::Rng;

type Ground = (Pred, Vec<u32>);

/// `atom` with head variables bound to `head`, if it has no body variable.
fn ground(atom: &Atom, head: &[u32]) -> Option<Ground> {
    let args = atom
        .args
        .iter()
        .map(|t| match t {
            Term::Const(c) => Some(c.0),
            Term::Var(v) => head.get(*v as usize).copied(),
        })
        .collect::<Option<Vec<u32>>>()?;
    Some((atom.pred, args))
}

/// Sorted distinct values, merging values closer than `tol` (merging only
/// lowers the count, so the bound stays a bound).
fn distinct(mut v: Vec<f64>, tol: f64) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    let mut out: Vec<f64> = Vec::new();
    for x in v {
        if out.last().is_none_or(|&l| x - l > tol) {
            out.push(x);
        }
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        return Err("usage: cote_bound DATASET_DIR FOLD|- TARGET [--limit N] [--dump]".into());
    }
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<usize>().ok())
    };
    let dir = PathBuf::from(&args[0]);
    let base_dir = if args[1] == "-" {
        dir.clone()
    } else {
        dir.join(&args[1])
    };
    let problem = Problem::load(
        &dir.join("background.txt"),
        &args[2],
        &base_dir.join("train"),
        Some(&base_dir.join("test")),
        &[],
    )?;
    let model = BoostParams::default().seed(25).fit(&problem)?;
    if args.iter().any(|a| a == "--dump") {
        println!("{}", model.render());
    }
    let n_head = model.head.args.len();
    // Fresh constants for the example (beyond every interned symbol).
    let fresh = 1 << 30;
    let head: Vec<u32> = (0..n_head as u32).map(|i| fresh + i).collect();
    // G: ground test atoms, in first-seen order.
    let mut g_atoms: Vec<Ground> = Vec::new();
    for t in &model.trees {
        for n in &t.nodes {
            if let Node::Test { test, .. } = n {
                for lit in test {
                    if let Some(g) = ground(lit, &head) {
                        if !g_atoms.contains(&g) {
                            g_atoms.push(g);
                        }
                    }
                }
            }
        }
    }
    // The base database: every check's literals with body variables,
    // grounded with fresh constants (one per variable and check), so each
    // of those parts holds on the base; their atoms never lie in G.
    let mut base_atoms: Vec<Ground> = Vec::new();
    let mut next_fresh = fresh + n_head as u32;
    for t in &model.trees {
        for n in &t.nodes {
            if let Node::Test { check, .. } = n {
                let mut map: Vec<(u32, u32)> = Vec::new();
                for lit in check.iter().filter(|l| ground(l, &head).is_none()) {
                    let args = lit
                        .args
                        .iter()
                        .map(|t| match t {
                            Term::Const(c) => c.0,
                            Term::Var(v) if (*v as usize) < n_head => head[*v as usize],
                            Term::Var(v) => match map.iter().find(|(o, _)| o == v) {
                                Some(&(_, c)) => c,
                                None => {
                                    map.push((*v, next_fresh));
                                    next_fresh += 1;
                                    next_fresh - 1
                                }
                            },
                        })
                        .collect();
                    base_atoms.push((lit.pred, args));
                }
            }
        }
    }
    let store = |s: &[&Ground]| {
        FactStore::from_facts(
            base_atoms
                .iter()
                .chain(s.iter().copied())
                .map(|(p, a)| (*p, a.as_slice())),
        )
    };
    let base = store(&[]);
    // Per tree: the atoms of G its outcome depends on. A check splits into
    // its ground literals Qg and the rest Qv (no shared body variables);
    // Qv holds on the base, hence on every B ∪ S, so the check holds on
    // B ∪ S exactly when Qg ⊆ S.
    let deps = || -> Vec<Vec<usize>> {
        model
            .trees
            .iter()
            .map(|t| {
                let mut u: BTreeSet<usize> = BTreeSet::new();
                for n in &t.nodes {
                    if let Node::Test { check, .. } = n {
                        let qv: Vec<Atom> = check
                            .iter()
                            .filter(|l| ground(l, &head).is_none())
                            .cloned()
                            .collect();
                        let n_vars = 1 + qv
                            .iter()
                            .flat_map(|a| a.args.iter())
                            .filter_map(|t| match t {
                                Term::Var(v) => Some(*v as usize),
                                Term::Const(_) => None,
                            })
                            .max()
                            .unwrap_or(0);
                        let mut bind = vec![UNBOUND; n_vars.max(n_head)];
                        bind[..n_head].copy_from_slice(&head);
                        assert!(exists(&base, &qv, &mut bind), "Qv must hold on the base");
                        for lit in check {
                            if let Some(g) = ground(lit, &head) {
                                if let Some(i) = g_atoms.iter().position(|x| *x == g) {
                                    u.insert(i);
                                }
                            }
                        }
                    }
                }
                u.into_iter().collect()
            })
            .collect()
    };
    let deps = deps();
    let compiled: Vec<CompiledTree<'_>> = model.trees.iter().map(RelTree::compile).collect();
    let mut scratch = Scratch::new();
    // Per tree: its value for every assignment of its atoms (bit i of the
    // index = atom deps[l][i] present).
    let tables: Vec<Vec<f64>> = deps
        .iter()
        .zip(&compiled)
        .map(|(u, c)| {
            (0u64..(1u64 << u.len()))
                .map(|mask| {
                    let s: Vec<&Ground> = u
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, &x)| &g_atoms[x])
                        .collect();
                    c.value(&store(&s), &head, &mut scratch)
                })
                .collect()
        })
        .collect();
    let lookup = |l: usize, present: &dyn Fn(usize) -> bool| -> f64 {
        let mut idx = 0usize;
        for (i, &x) in deps[l].iter().enumerate() {
            if present(x) {
                idx |= 1 << i;
            }
        }
        tables[l][idx]
    };
    println!(
        "{} trees, {} ground test atoms; atoms per tree: {:?}",
        model.trees.len(),
        g_atoms.len(),
        deps.iter().map(Vec::len).collect::<Vec<_>>()
    );
    // Check "tree l depends only on S ∩ U_l" on random full databases.
    let mut rng = Rng::new(25);
    let mut worst = 0.0f64;
    for _ in 0..2000 {
        let pick: Vec<bool> = g_atoms.iter().map(|_| rng.next_f64() < 0.5).collect();
        let s: Vec<&Ground> = g_atoms
            .iter()
            .zip(&pick)
            .filter(|(_, &p)| p)
            .map(|(g, _)| g)
            .collect();
        let st = store(&s);
        for (l, c) in compiled.iter().enumerate() {
            let real = c.value(&st, &head, &mut scratch);
            worst = worst.max((real - lookup(l, &|x| pick[x])).abs());
        }
    }
    println!("check on 2000 random databases: max |tree value − table value| = {worst:.2e}");
    // Frontier dynamic programming over the trees: a state is the
    // assignment of the atoms that unfinished trees still need; it holds
    // the sums of the finished trees reachable with it.
    let tol = 1e-9;
    let n = model.trees.len();
    let max_frontier = opt("--frontier").unwrap_or(16);
    let total_cap = opt("--values").unwrap_or(45_000_000);
    // The distinct sums of the trees in `subset` over the databases with
    // the `fixed` atoms absent (more atoms get fixed to bound the
    // frontier); `true` when sets were truncated (a subset: still a bound).
    let dp = |subset: &[bool], fixed: &mut Vec<bool>| -> Result<(Vec<f64>, bool), String> {
        let mut done: Vec<bool> = subset.iter().map(|&x| !x).collect();
        let mut frontier: Vec<usize> = Vec::new();
        let mut states: std::collections::HashMap<u128, Vec<f64>> =
            std::collections::HashMap::from([(0u128, vec![0.0])]);
        let mut truncated = false;
        for _ in 0..subset.iter().filter(|&&x| x).count() {
            // Next tree: most atoms already in the frontier, then fewest new.
            let l = (0..n)
                .filter(|&l| !done[l])
                .max_by_key(|&l| {
                    let shared = deps[l].iter().filter(|x| frontier.contains(x)).count();
                    let new = deps[l]
                        .iter()
                        .filter(|&&x| !frontier.contains(&x) && !fixed[x])
                        .count();
                    (shared as i64, -(new as i64), -(l as i64))
                })
                .ok_or("no tree")?;
            done[l] = true;
            let new: Vec<usize> = deps[l]
                .iter()
                .copied()
                .filter(|&x| !frontier.contains(&x) && !fixed[x])
                .collect();
            let mut keep: Vec<usize> = frontier
                .iter()
                .chain(&new)
                .copied()
                .filter(|&x| (0..n).any(|t| !done[t] && deps[t].contains(&x)))
                .collect();
            while keep.len() > max_frontier {
                // Fix absent the kept atom the most unfinished trees need.
                let (pos, _) = keep
                    .iter()
                    .enumerate()
                    .max_by_key(|&(_, &x)| {
                        (
                            (0..n).filter(|&t| !done[t] && deps[t].contains(&x)).count(),
                            x,
                        )
                    })
                    .ok_or("empty frontier")?;
                fixed[keep.remove(pos)] = true;
            }
            let per_state_cap = (total_cap >> keep.len()).max(1);
            let mut next: std::collections::HashMap<u128, Vec<f64>> = Default::default();
            for (key, sums) in &states {
                for nm in 0u64..(1u64 << new.len()) {
                    let mut k = *key;
                    for (i, &x) in new.iter().enumerate() {
                        if nm & (1 << i) != 0 {
                            k |= 1 << x;
                        }
                    }
                    // Atoms fixed now must be absent in the states kept.
                    if (0..g_atoms.len()).any(|x| fixed[x] && k & (1 << x) != 0) {
                        continue;
                    }
                    let v = lookup(l, &|x| k & (1 << x) != 0);
                    let mut proj = 0u128;
                    for &x in &keep {
                        proj |= k & (1 << x);
                    }
                    let e = next.entry(proj).or_default();
                    e.extend(sums.iter().map(|s| s + v));
                    if e.len() > 4 * per_state_cap + 1024 {
                        let mut d = distinct(std::mem::take(e), tol);
                        if d.len() > per_state_cap {
                            d.truncate(per_state_cap);
                            truncated = true;
                        }
                        *e = d;
                    }
                }
            }
            let total: usize = next.values().map(Vec::len).sum();
            let per_state_cap = (total_cap / next.len().max(1)).max(1);
            for v in next.values_mut() {
                let d = distinct(std::mem::take(v), tol);
                *v = d;
                if v.len() > per_state_cap {
                    v.truncate(per_state_cap);
                    truncated = true;
                }
            }
            states = next;
            frontier = keep;
            println!(
                "  tree {l:2}: {} new atoms, frontier {}, {} fixed, {} states, {} sums ({} kept)",
                new.len(),
                frontier.len(),
                fixed.iter().filter(|&&f| f).count(),
                states.len(),
                total,
                states.values().map(Vec::len).sum::<usize>()
            );
        }
        Ok((
            distinct(states.into_values().flatten().collect(), tol),
            truncated,
        ))
    };
    let mut fixed = vec![false; g_atoms.len()];
    let (all, truncated) = dp(&vec![true; n], &mut fixed)?;
    drop(fixed);
    println!(
        "one pass over all trees: {} distinct ensemble values{}",
        all.len(),
        if truncated {
            " (sets truncated: the true count is larger)"
        } else {
            " (exact over these databases)"
        }
    );
    // Two halves with disjoint atoms (shared atoms fixed absent): every
    // pair of half-databases is one database, its value the sum, so the
    // distinct values are |V_P + V_Q|, counted by streaming.
    let mut rng = Rng::new(7);
    let shared_of = |p: &[bool]| -> Vec<usize> {
        (0..g_atoms.len())
            .filter(|&x| {
                (0..n).any(|t| p[t] && deps[t].contains(&x))
                    && (0..n).any(|t| !p[t] && deps[t].contains(&x))
            })
            .collect()
    };
    let q_size = opt("--q-size").unwrap_or(n / 2).clamp(1, n - 1);
    let mut best: Option<(usize, Vec<bool>)> = None;
    for _ in 0..20_000 {
        let mut idx: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = (rng.next_f64() * (i + 1) as f64) as usize;
            idx.swap(i, j.min(i));
        }
        let mut p = vec![false; n];
        for &t in &idx[..n - q_size] {
            p[t] = true;
        }
        let c = shared_of(&p).len();
        if best.as_ref().is_none_or(|(b, _)| c < *b) {
            best = Some((c, p));
        }
    }
    let (_, p) = best.ok_or("no partition")?;
    let shared = shared_of(&p);
    let mut fixed = vec![false; g_atoms.len()];
    for &x in &shared {
        fixed[x] = true;
    }
    let q: Vec<bool> = p.iter().map(|&x| !x).collect();
    let (vp, tp) = dp(&p, &mut fixed.clone())?;
    let (vq, tq) = dp(&q, &mut fixed.clone())?;
    println!(
        "halves {:?} | {:?}: {} shared atoms fixed absent; |V_P| = {}{}, |V_Q| = {}{}",
        (0..n).filter(|&t| p[t]).collect::<Vec<_>>(),
        (0..n).filter(|&t| q[t]).collect::<Vec<_>>(),
        shared.len(),
        vp.len(),
        if tp { " (truncated)" } else { "" },
        vq.len(),
        if tq { " (truncated)" } else { "" }
    );
    let (small, large) = if vp.len() <= vq.len() {
        (&vp, &vq)
    } else {
        (&vq, &vp)
    };
    // Stream A + B in increasing order (one cursor per element of the
    // smaller set), counting values more than `tol` apart.
    let budget = opt("--pairs").unwrap_or(2_000_000_000);
    let large: Vec<f64> = large
        .iter()
        .copied()
        .take((budget / small.len().max(1)).max(1))
        .collect();
    let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize, usize)>> = small
        .iter()
        .enumerate()
        .map(|(i, &a)| std::cmp::Reverse((key(a + large[0]), i, 0)))
        .collect();
    let mut count = 0u64;
    let mut last = f64::NEG_INFINITY;
    while let Some(std::cmp::Reverse((_, i, j))) = heap.pop() {
        let v = small[i] + large[j];
        if v - last > tol {
            count += 1;
            last = v;
        }
        if j + 1 < large.len() {
            heap.push(std::cmp::Reverse((key(small[i] + large[j + 1]), i, j + 1)));
        }
    }
    println!(
        "two halves: {count} distinct values over |A| × |B| = {} × {} pairs",
        small.len(),
        large.len()
    );
    println!(
        "certified lower bound: {} distinct ensemble values ⇒ any decision list equivalent to the ensemble has at least that many clauses",
        count.max(all.len() as u64)
    );
    Ok(())
}

/// An order-preserving integer key of a float.
fn key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}
