//! The soft-labels baseline (Craven & Shavlik 1995, as in the CoTE paper):
//! relabel the training examples with the ensemble's predicted
//! probabilities and learn one relational regression tree on them. The
//! tree approximates the ensemble; it is neither logically nor
//! data-equivalent to it.

use serde::{Deserialize, Serialize};

use crate::cote::decision_list::DecisionList;
use crate::data::Problem;
use crate::ensemble::{Combine, TreeEnsemble};
use crate::error::Result;
use crate::learn::{learn_tree, TrainingSet, TreeParams};
use crate::refine::LanguageBias;
use crate::rfgb::sample_rows;
use crate::term::Atom;
use crate::tree::RelTree;

/// Parameters of the soft-labels baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SoftLabelParams {
    /// The tree learner (default: the boosted trees' settings).
    pub tree: TreeParams,
    /// Negatives per positive relabelled and learned from (`None` = all;
    /// default 2, as for the ensemble).
    pub neg_ratio: Option<f64>,
    /// Random seed.
    pub seed: u64,
}

impl Default for SoftLabelParams {
    fn default() -> Self {
        SoftLabelParams {
            tree: TreeParams::default(),
            neg_ratio: Some(2.0),
            seed: 0,
        }
    }
}

/// Learns one tree on the ensemble's probabilities of the training
/// examples; returns it as a decision list of probabilities (its leaves
/// in pre-order, Proposition 1) and as a tree.
pub fn soft_labels(
    ens: &TreeEnsemble,
    problem: &Problem,
    params: &SoftLabelParams,
) -> Result<(DecisionList, RelTree)> {
    let split = &problem.train;
    let ex = &split.examples;
    let pos: Vec<usize> = (0..ex.len()).filter(|&i| ex.labels[i]).collect();
    let neg: Vec<usize> = (0..ex.len()).filter(|&i| !ex.labels[i]).collect();
    let rows = sample_rows(&pos, &neg, params.neg_ratio, params.seed);
    let args: Vec<u32> = rows
        .iter()
        .flat_map(|&r| ex.get(r).iter().copied())
        .collect();
    let y: Vec<f64> = ens
        .values_of(&split.facts, &args, ex.arity)
        .into_iter()
        .map(|v| ens.proba_of(v))
        .collect();
    let bias = LanguageBias::new(
        &problem.background,
        problem.target,
        problem.head_types.clone(),
        false,
    );
    let w = vec![1.0; rows.len()];
    let data = TrainingSet {
        store: &split.facts,
        examples: ex,
        rows,
        y,
        w,
        seed: params.seed,
    };
    let tree = learn_tree(&params.tree, &bias, &problem.head(), &data)?;
    let rules: Vec<(Vec<Atom>, f64)> = tree
        .to_clauses()
        .into_iter()
        .map(|(c, value)| (c.body, value))
        .collect();
    let list =
        DecisionList::from_bodies(problem.head(), &rules, Combine::Mean, problem.vocab.clone());
    Ok((list, tree))
}
