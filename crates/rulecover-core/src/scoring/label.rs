//! The predicted label of a program as more bound values: the index of the
//! first class of highest probability, as
//! [`crate::predictions::argmax`] picks it, so that every renderer takes
//! the label the same way.

use super::{Cmp, Expr, Output, Program, Test};

/// A program's values ready to render: its bindings followed by one
/// binding per output value and the bindings of the label.
#[derive(Debug, Clone, PartialEq)]
pub struct Labelled {
    /// Every binding, in order (each reads only those before it).
    pub bindings: Vec<Expr>,
    /// The output values (class probabilities in class order, or the real
    /// value alone), each an [`Expr::Var`] of `bindings`.
    pub outputs: Vec<Expr>,
    /// The class index of the label ([`Expr::Var`]), `None` for a real
    /// value.
    pub label: Option<Expr>,
}

impl Program {
    /// The program with its outputs bound and its label computed:
    /// class `k` replaces the best so far when its probability is greater
    /// or the best so far is `NaN` and it is not.
    pub fn labelled(&self) -> Labelled {
        let mut bindings = self.bindings.clone();
        let mut bind = |e: Expr| {
            bindings.push(e);
            Expr::Var(bindings.len() - 1)
        };
        match &self.output {
            Output::Value(e) => {
                let out = bind(e.clone());
                Labelled {
                    outputs: vec![out],
                    label: None,
                    bindings,
                }
            }
            Output::Classes(p) => {
                let outputs: Vec<Expr> = p.iter().map(|e| bind(e.clone())).collect();
                let mut best = outputs[0].clone();
                let mut index = Expr::Const(0.0);
                for (k, p) in outputs.iter().enumerate().skip(1) {
                    let missing = |e: &Expr| Test::Missing(Box::new(e.clone()));
                    let better = Test::Or(vec![
                        Test::cmp(Cmp::Gt, p.clone(), best.clone()),
                        Test::And(vec![missing(&best), Test::Not(Box::new(missing(p)))]),
                    ]);
                    let new_index = bind(Expr::when(better.clone(), Expr::Const(k as f64), index));
                    if k + 1 < outputs.len() {
                        best = bind(Expr::when(better, p.clone(), best));
                    }
                    index = new_index;
                }
                let label = Some(match index {
                    Expr::Const(_) => bind(index),
                    var => var,
                });
                Labelled {
                    outputs,
                    label,
                    bindings,
                }
            }
        }
    }
}
