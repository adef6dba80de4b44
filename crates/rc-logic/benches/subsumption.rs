//! Criterion benchmarks of θ-subsumption and clause coverage on clauses
//! drawn from learned trees: 20 boosted trees on UW-CSE fold 1 (from
//! `$RC_DATA_DIR` or `../shared/datasets`), turned into decision lists.
//!
//! - `coverage/uwcse_clauses_x_test_examples`: every clause on every test
//!   example of the fold (conjunctive queries against the fact store);
//! - `subsumption/uwcse_group_pairs`: θ-subsumption between every pair of
//!   predicate groups of the clauses (CoTE's SM matrix);
//! - `subsumption/uwcse_clause_pairs`: θ-subsumption between every pair
//!   of whole clauses;
//! - `scote/uwcse_12_trees_{tuple,reference}_merge`: SCoTE on the first 12
//!   of those trees (208,333 clauses) with the default tuple merge and
//!   with the reference merge (every product clause against a set-trie of
//!   all clauses kept so far); both give the same list.
//!
//! Without the data directory the benchmarks say so and do nothing.
#![allow(missing_docs)]

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use rc_logic::cote::{scote, ScoteParams};
use rc_logic::coverage::{Query, Scratch, UNBOUND};
use rc_logic::groups::group_atoms;
use rc_logic::subsume::{subsumes, Skolemized};
use rc_logic::term::Atom;
use rc_logic::{BoostParams, Problem};

fn data_dir() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("RC_DATA_DIR").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|p| p.join("relational/uwcse").is_dir())
}

fn bench(c: &mut Criterion) {
    let Some(root) = data_dir() else {
        eprintln!(
            "rc-logic bench: no data directory with relational/uwcse (set RC_DATA_DIR); skipping"
        );
        return;
    };
    let ds = root.join("relational/uwcse/uwcse");
    let fold = ds.join("fold1");
    let problem = match Problem::load(
        &ds.join("background.txt"),
        "advisedby",
        &fold.join("train"),
        Some(&fold.join("test")),
        &[],
    ) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("rc-logic bench: cannot load UW-CSE fold 1: {e}");
            return;
        }
    };
    let model = match BoostParams::default().seed(25).fit(&problem) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("rc-logic bench: learning failed: {e}");
            return;
        }
    };
    let clauses: Vec<Vec<Atom>> = model
        .trees
        .iter()
        .flat_map(|t| t.to_clauses().into_iter().map(|(c, _)| c.body))
        .filter(|b| !b.is_empty())
        .collect();
    let Some(test) = problem.test.as_ref() else {
        return;
    };
    let n_head = model.head.args.len();
    let queries: Vec<Query> = clauses
        .iter()
        .map(|b| Query::with_head(b.clone(), n_head))
        .collect();
    let n_vars = queries
        .iter()
        .map(Query::n_vars)
        .max()
        .unwrap_or(0)
        .max(n_head);
    let ex = &test.examples;
    eprintln!(
        "rc-logic bench: {} clauses, {} test examples",
        clauses.len(),
        ex.len()
    );

    let mut g = c.benchmark_group("coverage");
    g.sample_size(10);
    g.bench_function("uwcse_clauses_x_test_examples", |b| {
        b.iter(|| {
            let mut scratch = Scratch::new();
            let mut bind = vec![UNBOUND; n_vars];
            let mut covered = 0usize;
            for q in &queries {
                for i in 0..ex.len() {
                    bind.fill(UNBOUND);
                    bind[..n_head].copy_from_slice(ex.get(i));
                    covered += usize::from(q.holds(&test.facts, &mut bind, &mut scratch));
                }
            }
            covered
        })
    });
    g.finish();

    let mut groups: Vec<Vec<Atom>> = clauses
        .iter()
        .flat_map(|b| group_atoms(b, n_head))
        .collect();
    groups.sort();
    groups.dedup();
    let sk: Vec<Skolemized> = groups.iter().map(|g| Skolemized::new(g, n_head)).collect();
    eprintln!("rc-logic bench: {} distinct groups", groups.len());
    let mut g = c.benchmark_group("subsumption");
    g.sample_size(10);
    g.bench_function("uwcse_group_pairs", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for gi in &groups {
                for sj in &sk {
                    n += usize::from(sj.subsumed_by(gi));
                }
            }
            n
        })
    });
    g.bench_function("uwcse_clause_pairs", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for ci in &clauses {
                for cj in &clauses {
                    n += usize::from(subsumes(ci, cj, n_head));
                }
            }
            n
        })
    });
    g.finish();

    let mut first12 = model.clone();
    first12.trees.truncate(12);
    let mut g = c.benchmark_group("scote");
    g.sample_size(10);
    for (name, reference) in [("tuple", false), ("reference", true)] {
        let params = ScoteParams::default().reference_merge(reference);
        g.bench_function(format!("uwcse_12_trees_{name}_merge"), |b| {
            b.iter(|| scote(&first12, &params).map(|o| o.clauses).unwrap_or(0))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
