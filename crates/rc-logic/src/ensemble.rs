//! Ensembles of relational regression trees: boosted (values summed,
//! probability through the sigmoid) or bagged (values averaged).

use std::fmt::Write;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::coverage::{Scratch, TupleSource, UNBOUND};
use crate::data::Split;
use crate::error::{Error, Result};
use crate::symbols::{Sym, Vocabulary};
use crate::term::{Atom, Term};
use crate::tree::{CompiledTree, RelTree};

/// How the trees' values are combined.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Combine {
    /// Boosting: `ψ = offset + step · Σ_t tree_t`, `P = σ(ψ)`.
    Sum {
        /// The prior log-odds (BoostSRL: −1.8).
        offset: f64,
        /// The step length (BoostSRL: 1).
        step: f64,
    },
    /// Bagging: the mean of the trees' values (each a probability).
    Mean,
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// An ensemble of relational regression trees over one target.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TreeEnsemble {
    /// The head `target(V0, …, Vk-1)`.
    pub head: Atom,
    /// Types of the head variables.
    pub head_types: Vec<Sym>,
    /// The trees, in learning order.
    pub trees: Vec<RelTree>,
    /// How values combine.
    pub combine: Combine,
    /// Names of the symbols the trees use (the data's vocabulary).
    pub vocab: Vocabulary,
    /// The training examples (indices into the training split) some tree
    /// was learned from: all positives and every sampled negative. ECoTE's
    /// coverage universe.
    #[serde(default)]
    pub training_rows: Vec<usize>,
}

impl TreeEnsemble {
    /// Checks that every tree has the ensemble's head (CoTE needs it).
    pub fn validate(&self) -> Result<()> {
        if self.trees.is_empty() {
            return Err(Error::EmptyEnsemble);
        }
        let expected = &self.head;
        let distinct = expected
            .args
            .iter()
            .enumerate()
            .all(|(i, t)| *t == Term::Var(i as u32));
        if !distinct {
            return Err(Error::InconsistentHead {
                tree: 0,
                expected: format!("{}(V0..)", self.vocab.pred_name(expected.pred)),
                found: expected.display(&self.vocab).to_string(),
            });
        }
        for (i, t) in self.trees.iter().enumerate() {
            if t.head.pred != expected.pred {
                return Err(Error::MixedTargets {
                    tree: i,
                    expected: self.vocab.pred_name(expected.pred).to_string(),
                    found: self.vocab.pred_name(t.head.pred).to_string(),
                });
            }
            if t.head != *expected {
                return Err(Error::InconsistentHead {
                    tree: i,
                    expected: expected.display(&self.vocab).to_string(),
                    found: t.head.display(&self.vocab).to_string(),
                });
            }
        }
        Ok(())
    }

    /// The combined value (ψ for boosting, mean for bagging) of each
    /// example of a split.
    pub fn values(&self, split: &Split) -> Vec<f64> {
        self.values_of(&split.facts, &split.examples.args, split.examples.arity)
    }

    /// Combined values of examples given as flat head arguments.
    pub fn values_of<S: TupleSource>(&self, store: &S, args: &[u32], arity: usize) -> Vec<f64> {
        let compiled: Vec<CompiledTree<'_>> = self.trees.iter().map(RelTree::compile).collect();
        let n_vars = compiled
            .iter()
            .map(CompiledTree::n_vars)
            .max()
            .unwrap_or(0)
            .max(arity);
        let n = args.len().checked_div(arity).unwrap_or(0);
        (0..n)
            .into_par_iter()
            .map_init(
                || (Scratch::new(), vec![UNBOUND; n_vars]),
                |(scratch, bind), i| {
                    let a = &args[i * arity..(i + 1) * arity];
                    let mut sum = 0.0;
                    for c in &compiled {
                        bind.fill(UNBOUND);
                        bind[..arity].copy_from_slice(a);
                        let leaf = c.leaf_with(store, bind, scratch);
                        if let crate::tree::Node::Leaf { value, .. } = c.node(leaf) {
                            sum += *value;
                        }
                    }
                    self.combine_sum(sum)
                },
            )
            .collect()
    }

    /// Turns a sum of tree values into the ensemble's value.
    pub fn combine_sum(&self, sum: f64) -> f64 {
        match self.combine {
            Combine::Sum { offset, step } => offset + step * sum,
            Combine::Mean => {
                if self.trees.is_empty() {
                    0.0
                } else {
                    sum / self.trees.len() as f64
                }
            }
        }
    }

    /// The probability of the positive class from a combined value.
    pub fn proba_of(&self, value: f64) -> f64 {
        match self.combine {
            Combine::Sum { .. } => sigmoid(value),
            Combine::Mean => value.clamp(0.0, 1.0),
        }
    }

    /// Probability of the positive class for each example of a split.
    pub fn predict_proba(&self, split: &Split) -> Vec<f64> {
        self.values(split)
            .into_iter()
            .map(|v| self.proba_of(v))
            .collect()
    }

    /// Total number of paths (leaves) over the trees.
    pub fn n_paths(&self) -> usize {
        self.trees.iter().map(RelTree::n_leaves).sum()
    }

    /// Largest depth in test nodes.
    pub fn max_depth(&self) -> usize {
        self.trees.iter().map(RelTree::depth).max().unwrap_or(0)
    }

    /// Largest number of literals on a path.
    pub fn max_path_literals(&self) -> usize {
        self.trees
            .iter()
            .map(RelTree::max_path_literals)
            .max()
            .unwrap_or(0)
    }

    /// Size of the naive combination, `Π_t |paths_t|` (as f64: it
    /// overflows integers quickly).
    pub fn naive_size(&self) -> f64 {
        self.trees.iter().map(|t| t.n_leaves() as f64).product()
    }

    /// Average clause length of the naive combination,
    /// `Σ_t mean_{p ∈ paths_t} |p|`.
    pub fn naive_avg_length(&self) -> f64 {
        self.trees
            .iter()
            .map(|t| {
                let cs = t.to_clauses();
                cs.iter().map(|(c, _)| c.body.len()).sum::<usize>() as f64 / cs.len().max(1) as f64
            })
            .sum()
    }

    /// Every tree in the TILDE form.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (i, t) in self.trees.iter().enumerate() {
            let _ = writeln!(out, "% tree {i}\n{}", t.render(&self.vocab));
        }
        out
    }
}

impl rulecover_core::RuleModel for TreeEnsemble {
    fn n_rules(&self) -> usize {
        self.n_paths()
    }

    fn rule_lengths(&self) -> Vec<usize> {
        self.trees
            .iter()
            .flat_map(|t| t.to_clauses().into_iter().map(|(c, _)| c.body.len()))
            .collect()
    }

    fn render_rules(&self) -> String {
        let mut out = String::new();
        for (i, t) in self.trees.iter().enumerate() {
            for (c, v) in t.to_clauses() {
                let _ = writeln!(out, "tree {i}: {v:.6} : {}", c.display(&self.vocab));
            }
        }
        out
    }

    /// One rule per root-to-leaf clause of every tree, trees in order;
    /// the value is the leaf's regression value. Coverage is not recorded
    /// (0).
    fn rule_set(&self) -> rulecover_core::RuleSet {
        rulecover_core::RuleSet {
            features: Vec::new(),
            class_names: Vec::new(),
            rules: self
                .trees
                .iter()
                .flat_map(|t| t.to_clauses())
                .map(|(c, v)| rulecover_core::WeightedRule {
                    antecedent: rulecover_core::Antecedent::Clause(
                        c.body
                            .iter()
                            .map(|a| a.display(&self.vocab).to_string())
                            .collect(),
                    ),
                    outcome: rulecover_core::Outcome::Value(v),
                    weight: 1.0,
                    coverage: 0,
                    for_class: None,
                })
                .collect(),
        }
    }
}
