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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Feature;
    use crate::predictions::argmax;
    use crate::schema::{Schema, TargetSchema};
    use crate::scoring::ProgramBuilder;

    /// A program whose class probabilities are its inputs, so that the
    /// label bindings can be checked against `argmax` on any values.
    fn identity(k: usize) -> Program {
        let schema = Schema {
            features: (0..k).map(|j| Feature::numeric(format!("p{j}"))).collect(),
            target: TargetSchema::Classes((0..k).map(|c| format!("c{c}")).collect()),
        };
        let b = ProgramBuilder::new(schema);
        let outputs = (0..k).map(Expr::Input).collect();
        b.finish(Output::Classes(outputs)).unwrap()
    }

    /// Evaluates the labelled bindings on one row.
    fn label_of(l: &Labelled, row: &[f64]) -> usize {
        let mut vars = Vec::new();
        for e in &l.bindings {
            let v = e.eval(row, &vars);
            vars.push(v);
        }
        l.label.as_ref().unwrap().eval(row, &vars) as usize
    }

    #[test]
    fn the_label_is_argmax_with_its_ties_and_nans() {
        let values = [0.0, 0.25, 0.5, f64::NAN];
        for k in 1..=4 {
            let program = identity(k);
            let labelled = program.labelled();
            // Every row of k values drawn from `values`.
            for code in 0..values.len().pow(k as u32) {
                let row: Vec<f64> = (0..k)
                    .map(|j| values[(code / values.len().pow(j as u32)) % values.len()])
                    .collect();
                assert_eq!(label_of(&labelled, &row), argmax(&row), "{row:?}");
            }
        }
    }
}
