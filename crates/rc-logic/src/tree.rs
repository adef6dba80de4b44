//! Relational (first-order logical) regression trees in the TILDE form.
//!
//! An internal node tests a conjunction of one or more literals; the test
//! is evaluated existentially together with the positive literals of the
//! path above it (the literals of the tests passed on their *true*
//! branch). Variables introduced by a test are visible in its true
//! subtree only. Leaves hold a regression value.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use crate::coverage::{Query, Scratch, TupleSource, UNBOUND};
use crate::groups::components;
use crate::symbols::{Sym, Vocabulary};
use crate::term::{conjunction, Atom, Clause};

/// A node of a [`RelTree`] (nodes live in an arena; the root is node 0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Node {
    /// A leaf with its value.
    Leaf {
        /// The regression value.
        value: f64,
        /// Training weight that reached it.
        weight: f64,
    },
    /// A test node.
    Test {
        /// The literals tested (a conjunction).
        test: Vec<Atom>,
        /// The literals to evaluate: the test plus the path literals
        /// connected to it through body variables (the rest of the path
        /// holds for every example that reaches the node).
        check: Vec<Atom>,
        /// Child for examples that satisfy the test.
        yes: usize,
        /// Child for the others.
        no: usize,
        /// Training weight that reached it.
        weight: f64,
    },
}

/// A relational regression tree for one target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelTree {
    /// The head `target(V0, …, Vk-1)`.
    pub head: Atom,
    /// The nodes; node 0 is the root.
    pub nodes: Vec<Node>,
    /// Type of every variable used in the tree.
    pub var_types: Vec<Sym>,
}

impl RelTree {
    /// A tree that is a single leaf.
    pub fn leaf(head: Atom, value: f64, var_types: Vec<Sym>) -> Self {
        RelTree {
            head,
            nodes: vec![Node::Leaf { value, weight: 0.0 }],
            var_types,
        }
    }

    /// Builds a tree from nested test/leaf descriptions (for tests and
    /// hand-written examples): the `check` lists are computed.
    pub fn from_spec(head: Atom, spec: TreeSpec, var_types: Vec<Sym>) -> Self {
        fn build(
            spec: TreeSpec,
            path: &mut Vec<Atom>,
            n_head: usize,
            nodes: &mut Vec<Node>,
        ) -> usize {
            let id = nodes.len();
            match spec {
                TreeSpec::Leaf(value) => {
                    nodes.push(Node::Leaf { value, weight: 0.0 });
                }
                TreeSpec::Test(test, yes, no) => {
                    let check = check_literals(path, &test, n_head);
                    nodes.push(Node::Leaf {
                        value: 0.0,
                        weight: 0.0,
                    });
                    let mark = path.len();
                    path.extend(test.iter().cloned());
                    let y = build(*yes, path, n_head, nodes);
                    path.truncate(mark);
                    let n = build(*no, path, n_head, nodes);
                    nodes[id] = Node::Test {
                        test,
                        check,
                        yes: y,
                        no: n,
                        weight: 0.0,
                    };
                }
            }
            id
        }
        let mut nodes = Vec::new();
        let n_head = head.args.len();
        build(spec, &mut Vec::new(), n_head, &mut nodes);
        RelTree {
            head,
            nodes,
            var_types,
        }
    }

    /// Number of head variables.
    pub fn n_head(&self) -> usize {
        self.head.args.len()
    }

    /// One more than the largest variable number used.
    pub fn n_vars(&self) -> usize {
        let mut n = self.n_head().max(self.var_types.len());
        for node in &self.nodes {
            if let Node::Test { test, .. } = node {
                for a in test {
                    for v in a.vars() {
                        n = n.max(v as usize + 1);
                    }
                }
            }
        }
        n
    }

    /// The tree prepared for evaluation (queries compiled once).
    pub fn compile(&self) -> CompiledTree<'_> {
        let n_head = self.n_head();
        let queries = self
            .nodes
            .iter()
            .map(|n| match n {
                Node::Test { check, .. } => Some(Query::with_head(check.clone(), n_head)),
                Node::Leaf { .. } => None,
            })
            .collect();
        CompiledTree {
            tree: self,
            queries,
            n_vars: self.n_vars(),
        }
    }

    /// The value of the leaf an example reaches: `args` are the head's
    /// arguments (constant ids of the store's vocabulary). To evaluate
    /// many examples, [`RelTree::compile`] once.
    pub fn value<S: TupleSource>(&self, store: &S, args: &[u32]) -> f64 {
        self.compile().value(store, args, &mut Scratch::new())
    }

    /// The tree as a positive decision list (CoTE's Proposition 1): the
    /// paths in pre-order with the true branch first, each a clause whose
    /// body is the path's positive literals (negated tests dropped), with
    /// the leaf's value. The last clause has an empty body.
    pub fn to_clauses(&self) -> Vec<(Clause, f64)> {
        let mut out = Vec::new();
        let mut stack: Vec<(usize, Vec<Atom>)> = vec![(0, Vec::new())];
        while let Some((i, path)) = stack.pop() {
            match &self.nodes[i] {
                Node::Leaf { value, .. } => {
                    out.push((Clause::new(self.head.clone(), path), *value))
                }
                Node::Test { test, yes, no, .. } => {
                    let mut with = path.clone();
                    with.extend(test.iter().cloned());
                    stack.push((*no, path));
                    stack.push((*yes, with));
                }
            }
        }
        out
    }

    /// Number of leaves (= paths = clauses of the decision list).
    pub fn n_leaves(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| matches!(n, Node::Leaf { .. }))
            .count()
    }

    /// Depth in test nodes (a single leaf has depth 0).
    pub fn depth(&self) -> usize {
        fn d(t: &RelTree, i: usize) -> usize {
            match &t.nodes[i] {
                Node::Leaf { .. } => 0,
                Node::Test { yes, no, .. } => 1 + d(t, *yes).max(d(t, *no)),
            }
        }
        d(self, 0)
    }

    /// Largest number of body literals on a path (the clause length of
    /// the longest rule).
    pub fn max_path_literals(&self) -> usize {
        self.to_clauses()
            .iter()
            .map(|(c, _)| c.body.len())
            .max()
            .unwrap_or(0)
    }

    /// Prints the tree in the TILDE form:
    ///
    /// ```text
    /// advisedby(A, B) :-
    /// professor(B) ?
    /// +--yes: publication(C, A) ?
    /// |       +--yes: [0.8]
    /// ...
    /// ```
    pub fn render(&self, vocab: &Vocabulary) -> String {
        fn rec(t: &RelTree, i: usize, vocab: &Vocabulary, prefix: &str, out: &mut String) {
            match &t.nodes[i] {
                Node::Leaf { value, .. } => {
                    let _ = writeln!(out, "[{value:.6}]");
                }
                Node::Test { test, yes, no, .. } => {
                    let _ = writeln!(out, "{} ?", conjunction(test, vocab));
                    let _ = write!(out, "{prefix}+--yes: ");
                    rec(t, *yes, vocab, &format!("{prefix}|       "), out);
                    let _ = write!(out, "{prefix}+--no:  ");
                    rec(t, *no, vocab, &format!("{prefix}        "), out);
                }
            }
        }
        let mut out = format!("{} :-\n", self.head.display(vocab));
        rec(self, 0, vocab, "", &mut out);
        out
    }
}

/// A [`RelTree`] with its tests prepared for evaluation.
#[derive(Debug, Clone)]
pub struct CompiledTree<'a> {
    tree: &'a RelTree,
    queries: Vec<Option<Query>>,
    n_vars: usize,
}

impl CompiledTree<'_> {
    /// Number of variables a binding vector needs.
    pub fn n_vars(&self) -> usize {
        self.n_vars
    }

    /// Node `i` of the tree.
    pub fn node(&self, i: usize) -> &Node {
        &self.tree.nodes[i]
    }

    /// Index of the leaf reached by the example with head arguments `args`.
    pub fn leaf_of<S: TupleSource>(&self, store: &S, args: &[u32], scratch: &mut Scratch) -> usize {
        let mut bind = vec![UNBOUND; self.n_vars.max(args.len())];
        bind[..args.len()].copy_from_slice(args);
        self.leaf_with(store, &mut bind, scratch)
    }

    /// [`CompiledTree::leaf_of`] with a binding vector (head bound, the
    /// rest [`UNBOUND`]; left as given).
    pub fn leaf_with<S: TupleSource>(
        &self,
        store: &S,
        bind: &mut [u32],
        scratch: &mut Scratch,
    ) -> usize {
        let mut i = 0;
        loop {
            match (&self.tree.nodes[i], &self.queries[i]) {
                (Node::Test { yes, no, .. }, Some(q)) => {
                    i = if q.holds(store, bind, scratch) {
                        *yes
                    } else {
                        *no
                    };
                }
                _ => return i,
            }
        }
    }

    /// The value of the leaf reached.
    pub fn value<S: TupleSource>(&self, store: &S, args: &[u32], scratch: &mut Scratch) -> f64 {
        match &self.tree.nodes[self.leaf_of(store, args, scratch)] {
            Node::Leaf { value, .. } => *value,
            Node::Test { .. } => 0.0,
        }
    }
}

/// A tree written as nested tests and leaves (see [`RelTree::from_spec`]).
#[derive(Debug, Clone)]
pub enum TreeSpec {
    /// A leaf value.
    Leaf(f64),
    /// A test with its true and false subtrees.
    Test(Vec<Atom>, Box<TreeSpec>, Box<TreeSpec>),
}

impl TreeSpec {
    /// A test node.
    pub fn test(lits: Vec<Atom>, yes: TreeSpec, no: TreeSpec) -> Self {
        TreeSpec::Test(lits, Box::new(yes), Box::new(no))
    }
}

/// The literals to evaluate for a test below a path: the test plus the
/// path literals connected to it through body-only variables.
pub fn check_literals(path: &[Atom], test: &[Atom], n_head: usize) -> Vec<Atom> {
    let all: Vec<&Atom> = path.iter().chain(test.iter()).collect();
    let comps = components(&all, |v| v as usize >= n_head);
    let first_test = path.len();
    let mut keep = vec![false; all.len()];
    for c in comps {
        if c.iter().any(|&i| i >= first_test) {
            for i in c {
                keep[i] = true;
            }
        }
    }
    // Test literals first (they are the most selective), then the path.
    let mut out: Vec<Atom> = test.to_vec();
    out.extend(
        path.iter()
            .enumerate()
            .filter(|(i, _)| keep[*i])
            .map(|(_, a)| a.clone()),
    );
    out
}
