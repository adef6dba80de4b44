//! Relational functional gradient boosting (RFGB; Natarajan et al. 2012,
//! as in BoostSRL's RDN-Boost).
//!
//! `ψ_0 = prior` (BoostSRL: −1.8). Tree `t` is a relational regression
//! tree fitted to the pointwise gradients `Δ_i = I(y_i = 1) − σ(ψ_{t−1}(x_i))`
//! of all positive examples and a fresh sample of negatives (`neg_ratio`
//! negatives per positive, drawn without replacement for each tree, as
//! BoostSRL does); then `ψ_t = ψ_{t−1} + step · tree_t`. The probability of
//! an example is `σ(ψ_m)`. Trees depend on their predecessors, so they are
//! learned one after the other; the candidate tests of a node are scored
//! in parallel, collected in a fixed order, so the model does not depend
//! on the number of threads.

use rayon::prelude::*;
use rulecover_core::rng::derive_seed;
use rulecover_core::Rng;
use serde::{Deserialize, Serialize};

use crate::coverage::{Scratch, UNBOUND};
use crate::data::{Problem, Split};
use crate::ensemble::{sigmoid, Combine, TreeEnsemble};
use crate::error::{Error, Result};
use crate::learn::{learn_tree, TrainingSet, TreeParams};
use crate::refine::LanguageBias;
use crate::tree::{Node, RelTree};

/// Parameters of RFGB.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoostParams {
    /// Number of trees (BoostSRL default 20).
    pub n_trees: usize,
    /// The tree learner's parameters.
    pub tree: TreeParams,
    /// Negatives sampled per positive for each tree (`None` = all;
    /// BoostSRL default 2).
    pub neg_ratio: Option<f64>,
    /// Initial log-odds ψ₀ (BoostSRL: −1.8).
    pub prior: f64,
    /// Step length (BoostSRL: 1).
    pub step: f64,
    /// Whether the target may appear in clause bodies (default false).
    pub recursion: bool,
    /// Caps the examples each tree is learned from by a uniform sample
    /// (after negative sampling); `None` (default) keeps them all. Meant
    /// for quick smoke runs, not for reproducing results.
    pub max_rows: Option<usize>,
    /// Random seed (negative sampling).
    pub seed: u64,
}

impl Default for BoostParams {
    fn default() -> Self {
        BoostParams {
            n_trees: 20,
            tree: TreeParams::default(),
            neg_ratio: Some(2.0),
            prior: -1.8,
            step: 1.0,
            recursion: false,
            max_rows: None,
            seed: 0,
        }
    }
}

impl BoostParams {
    /// Sets [`BoostParams::n_trees`].
    pub fn n_trees(mut self, n: usize) -> Self {
        self.n_trees = n;
        self
    }
    /// Sets [`BoostParams::tree`].
    pub fn tree(mut self, t: TreeParams) -> Self {
        self.tree = t;
        self
    }
    /// Sets [`BoostParams::neg_ratio`].
    pub fn neg_ratio(mut self, r: Option<f64>) -> Self {
        self.neg_ratio = r;
        self
    }
    /// Sets [`BoostParams::seed`].
    pub fn seed(mut self, s: u64) -> Self {
        self.seed = s;
        self
    }

    /// Sets [`Self::max_rows`].
    pub fn max_rows(mut self, n: Option<usize>) -> Self {
        self.max_rows = n;
        self
    }

    /// Checks the ranges.
    pub fn validate(&self) -> Result<()> {
        self.tree.validate()?;
        if self.n_trees == 0 {
            return Err(Error::param("n_trees", self.n_trees, "must be at least 1"));
        }
        if self.max_rows == Some(0) {
            return Err(Error::param(
                "max_rows",
                0,
                "must be at least 1 (or None to keep every example)",
            ));
        }
        if let Some(r) = self.neg_ratio {
            if !(r.is_finite() && r > 0.0) {
                return Err(Error::param(
                    "neg_ratio",
                    r,
                    "must be a positive number (or None for all negatives)",
                ));
            }
        }
        let step_ok = self.step.is_finite() && self.step > 0.0;
        if !(self.prior.is_finite() && step_ok) {
            return Err(Error::param(
                "prior/step",
                format!("{}/{}", self.prior, self.step),
                "must be finite, step > 0",
            ));
        }
        Ok(())
    }

    /// Learns a boosted ensemble on the problem's training split.
    pub fn fit(&self, problem: &Problem) -> Result<TreeEnsemble> {
        self.validate()?;
        let bias = LanguageBias::new(
            &problem.background,
            problem.target,
            problem.head_types.clone(),
            self.recursion,
        );
        let split = &problem.train;
        let ex = &split.examples;
        let pos: Vec<usize> = (0..ex.len()).filter(|&i| ex.labels[i]).collect();
        let neg: Vec<usize> = (0..ex.len()).filter(|&i| !ex.labels[i]).collect();
        let head = problem.head();
        let mut ens = TreeEnsemble {
            head: head.clone(),
            head_types: problem.head_types.clone(),
            trees: Vec::new(),
            combine: Combine::Sum {
                offset: self.prior,
                step: self.step,
            },
            vocab: problem.vocab.clone(),
            training_rows: Vec::new(),
        };
        let mut used = vec![false; ex.len()];
        // ψ of every example, and how many trees it includes.
        let mut psi: Vec<(usize, f64)> = vec![(0, self.prior); ex.len()];
        for t in 0..self.n_trees {
            let rows = sample_rows(&pos, &neg, self.neg_ratio, derive_seed(self.seed, t as u64));
            let rows = cap_rows(
                rows,
                self.max_rows,
                derive_seed(self.seed ^ 0xca9, t as u64),
            );
            bring_up_to_date(&ens.trees, split, &rows, &mut psi, self.step);
            for &r in &rows {
                used[r] = true;
            }
            let y: Vec<f64> = rows
                .iter()
                .map(|&r| f64::from(u8::from(ex.labels[r])) - sigmoid(psi[r].1))
                .collect();
            let w = vec![1.0; rows.len()];
            let data = TrainingSet {
                store: &split.facts,
                examples: ex,
                rows,
                y,
                w,
                seed: derive_seed(self.seed ^ 0x5eed, t as u64),
            };
            ens.trees.push(learn_tree(&self.tree, &bias, &head, &data)?);
        }
        ens.training_rows = (0..ex.len()).filter(|&r| used[r]).collect();
        Ok(ens)
    }
}

/// All positives and a sample of negatives (`ratio` per positive, without
/// replacement; all when there are fewer), in example order.
pub fn sample_rows(pos: &[usize], neg: &[usize], ratio: Option<f64>, seed: u64) -> Vec<usize> {
    let want = match ratio {
        Some(r) => ((pos.len() as f64 * r).round() as usize).min(neg.len()),
        None => neg.len(),
    };
    let mut rows: Vec<usize> = pos.to_vec();
    if want >= neg.len() {
        rows.extend_from_slice(neg);
    } else {
        let mut rng = Rng::new(seed);
        rows.extend(
            rng.sample_indices(neg.len(), want)
                .into_iter()
                .map(|i| neg[i]),
        );
    }
    rows.sort_unstable();
    rows
}

/// A uniform sample of at most `cap` rows (in order), or all rows.
pub fn cap_rows(rows: Vec<usize>, cap: Option<usize>, seed: u64) -> Vec<usize> {
    match cap {
        Some(c) if c < rows.len() => {
            let mut keep = Rng::new(seed).sample_indices(rows.len(), c);
            keep.sort_unstable();
            keep.into_iter().map(|i| rows[i]).collect()
        }
        _ => rows,
    }
}

/// Adds the trees an example's cached ψ misses.
fn bring_up_to_date(
    trees: &[RelTree],
    split: &Split,
    rows: &[usize],
    psi: &mut [(usize, f64)],
    step: f64,
) {
    if trees.is_empty() {
        return;
    }
    let compiled: Vec<_> = trees.iter().map(RelTree::compile).collect();
    let n_vars = compiled
        .iter()
        .map(|c| c.n_vars())
        .max()
        .unwrap_or(0)
        .max(split.examples.arity);
    let updates: Vec<(usize, f64)> = rows
        .par_iter()
        .map_init(
            || (Scratch::new(), vec![UNBOUND; n_vars]),
            |(scratch, bind), &r| {
                let (done, mut v) = psi[r];
                let a = split.examples.get(r);
                for c in &compiled[done..] {
                    bind.fill(UNBOUND);
                    bind[..a.len()].copy_from_slice(a);
                    if let Node::Leaf { value, .. } =
                        c.node(c.leaf_with(&split.facts, bind, scratch))
                    {
                        v += step * value;
                    }
                }
                (r, v)
            },
        )
        .collect();
    for (r, v) in updates {
        psi[r] = (trees.len(), v);
    }
}
