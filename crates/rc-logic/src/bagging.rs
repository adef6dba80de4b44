//! Bagging of relational probability trees: each tree is a regression
//! tree on the 0/1 labels of a bootstrap sample (drawn with replacement
//! from all positives and `neg_ratio` sampled negatives per positive);
//! the ensemble's probability is the mean of the trees' leaf values.
//! Trees are independent and learned in parallel; each has its own seed
//! derived from the ensemble's, and the trees are collected in order, so
//! the model does not depend on the number of threads.

use rayon::prelude::*;
use rulecover_core::rng::derive_seed;
use rulecover_core::Rng;
use serde::{Deserialize, Serialize};

use crate::data::Problem;
use crate::ensemble::{Combine, TreeEnsemble};
use crate::error::{Error, Result};
use crate::learn::{learn_tree, TrainingSet, TreeParams};
use crate::refine::LanguageBias;
use crate::rfgb::{cap_rows, sample_rows};

/// Parameters of bagging.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaggingParams {
    /// Number of trees (default 20).
    pub n_trees: usize,
    /// The tree learner's parameters (default: "large" trees, depth 6 and
    /// up to 32 leaves, no recall cap — BoostSRL's `maxRecall` belongs to
    /// its RFGB setup; the paper gives no settings for its bagged trees).
    pub tree: TreeParams,
    /// Negatives per positive in the pool the bootstrap draws from
    /// (`None` = all; default 2).
    pub neg_ratio: Option<f64>,
    /// Whether the target may appear in clause bodies (default false).
    pub recursion: bool,
    /// Caps the examples each tree is learned from by a uniform sample
    /// (after negative sampling); `None` (default) keeps them all. Meant
    /// for quick smoke runs, not for reproducing results.
    pub max_rows: Option<usize>,
    /// Random seed.
    pub seed: u64,
}

impl Default for BaggingParams {
    fn default() -> Self {
        BaggingParams {
            n_trees: 20,
            tree: TreeParams::default()
                .max_depth(6)
                .max_leaves(32)
                .max_recall(1.0),
            neg_ratio: Some(2.0),
            recursion: false,
            max_rows: None,
            seed: 0,
        }
    }
}

impl BaggingParams {
    /// Sets [`BaggingParams::n_trees`].
    pub fn n_trees(mut self, n: usize) -> Self {
        self.n_trees = n;
        self
    }
    /// Sets [`BaggingParams::tree`].
    pub fn tree(mut self, t: TreeParams) -> Self {
        self.tree = t;
        self
    }
    /// Sets [`BaggingParams::seed`].
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
        Ok(())
    }

    /// Learns a bagged ensemble on the problem's training split.
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
        let trees = (0..self.n_trees)
            .into_par_iter()
            .map(|b| {
                let seed = derive_seed(self.seed, b as u64);
                let pool = sample_rows(&pos, &neg, self.neg_ratio, seed);
                let pool = cap_rows(pool, self.max_rows, derive_seed(seed, 2));
                let mut rng = Rng::new(derive_seed(seed, u64::MAX));
                let mut counts = vec![0u32; pool.len()];
                for _ in 0..pool.len() {
                    counts[rng.below(pool.len())] += 1;
                }
                let (rows, w): (Vec<usize>, Vec<f64>) = pool
                    .iter()
                    .zip(&counts)
                    .filter(|(_, &c)| c > 0)
                    .map(|(&r, &c)| (r, f64::from(c)))
                    .unzip();
                let y = rows
                    .iter()
                    .map(|&r| f64::from(u8::from(ex.labels[r])))
                    .collect();
                let data = TrainingSet {
                    store: &split.facts,
                    examples: ex,
                    rows,
                    y,
                    w,
                    seed: derive_seed(seed, 1),
                };
                let tree = learn_tree(&self.tree, &bias, &head, &data)?;
                Ok((tree, data.rows))
            })
            .collect::<Result<Vec<_>>>()?;
        let mut used = vec![false; ex.len()];
        for (_, rows) in &trees {
            for &r in rows {
                used[r] = true;
            }
        }
        let trees = trees.into_iter().map(|(t, _)| t).collect();
        Ok(TreeEnsemble {
            head,
            head_types: problem.head_types.clone(),
            trees,
            combine: Combine::Mean,
            vocab: problem.vocab.clone(),
            training_rows: (0..ex.len()).filter(|&r| used[r]).collect(),
        })
    }
}
