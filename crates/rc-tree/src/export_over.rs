//! Gradient boosting as a scoring program over given feature values
//! ([`GradientBoosting::export_over`]): for models whose trees read
//! derived features (e.g. the 0/1 literal indicators of a binarizer)
//! rather than the raw columns.

use rulecover_core::scoring::{Cmp, ExportError, Expr, Output, ProgramBuilder, Test};

use crate::gboost::{GbLoss, GradientBoosting};
use crate::tree::Tree;

/// Tree `tree` as nested tests on `features`, each leaf the constant
/// `learning_rate · value` (the product the model adds).
fn lower_tree(tree: &Tree, id: usize, features: &[Expr], learning_rate: f64) -> Expr {
    let node = tree.node(id).expect("a node of the tree");
    match node.split {
        None => Expr::Const(learning_rate * node.value[0]),
        Some(split) => Expr::when(
            Test::cmp(
                Cmp::Le,
                features[split.feature].clone(),
                Expr::Const(split.rule_threshold),
            ),
            lower_tree(tree, split.left, features, learning_rate),
            lower_tree(tree, split.right, features, learning_rate),
        ),
    }
}

impl GradientBoosting {
    /// Writes the model's [`rulecover_core::Predict::predict`] into
    /// `program` over the values `features` of its (encoded) features,
    /// one per feature in order: a tree sends a value left when it is
    /// `<=` the split's `rule_threshold` (a `NaN` goes right, as in
    /// traversal), each class's raw score is its `init` plus the
    /// learning-rate-scaled leaf values of its trees in tree order, and
    /// the output is the logistic function of the score (two classes),
    /// its softmax with the maximum subtracted (more), or the score
    /// itself (regression).
    ///
    /// # Errors
    /// [`ExportError::Schema`] when `features` does not have one value per
    /// feature of the model.
    pub fn export_over(
        &self,
        program: &mut ProgramBuilder,
        features: &[Expr],
    ) -> Result<Output, ExportError> {
        let n_features = self.features().len();
        if features.len() != n_features {
            return Err(ExportError::Schema(format!(
                "the gradient boosting reads {n_features} features but {} were given",
                features.len()
            )));
        }
        let kk = self.trees_per_stage().max(1);
        let lr = self.learning_rate();
        let mut raw: Vec<Vec<Expr>> = self.init().iter().map(|&v| vec![Expr::Const(v)]).collect();
        if raw.len() != kk {
            return Err(ExportError::Unsupported(format!(
                "{} initial scores for {kk} trees per stage",
                raw.len()
            )));
        }
        for (j, tree) in self.trees().iter().enumerate() {
            raw[j % kk].push(lower_tree(tree, 0, features, lr));
        }
        let raw: Vec<Expr> = raw
            .into_iter()
            .map(|terms| program.bind(Expr::sum(terms)))
            .collect();
        Ok(match self.loss() {
            GbLoss::SquaredError => Output::Value(raw[0].clone()),
            GbLoss::BinomialDeviance => {
                let r = raw[0].clone();
                let p = program.bind(crate::export::expit(r));
                Output::Classes(vec![Expr::Const(1.0) - p.clone(), p])
            }
            GbLoss::MultinomialDeviance => {
                // f64::max folded from −∞ over scores that are never NaN.
                let mut m = raw[0].clone();
                for r in &raw[1..] {
                    m = program.bind(Expr::when(
                        Test::cmp(Cmp::Gt, r.clone(), m.clone()),
                        r.clone(),
                        m,
                    ));
                }
                let e: Vec<Expr> = raw
                    .iter()
                    .map(|r| program.bind((r.clone() - m.clone()).exp()))
                    .collect();
                let s = program.bind(Expr::sum(e.iter().cloned()));
                Output::Classes(e.into_iter().map(|e| e / s.clone()).collect())
            }
        })
    }
}
