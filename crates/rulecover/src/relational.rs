//! The relational methods (`rfgb`, `bagging`): parameters from strings,
//! fitted on an [`rc_logic::Problem`] (BoostSRL facts and examples)
//! through rc-logic's own API.

use std::collections::BTreeMap;

use rc_logic::{BaggingParams, BoostParams, Problem, TreeEnsemble};

use crate::error::{Error, Result};
use crate::methods::{method, methods};
use crate::params::Args;

/// A fitted relational ensemble with its method, parameters and seed.
#[derive(Debug, Clone)]
pub struct RelationalFit {
    /// The method id (`rfgb` or `bagging`).
    pub kind: &'static str,
    /// Every parameter's value, given or default, as canonical strings.
    pub params: BTreeMap<String, String>,
    /// The seed of the fit.
    pub seed: u64,
    /// The relational regression trees.
    pub ensemble: TreeEnsemble,
}

/// Fits relational method `id` (`rfgb`, `bagging`, or an alias) on the
/// training split of `problem`, with `(name, value)` string parameters as
/// [`crate::fit`] takes them.
///
/// # Errors
/// [`Error::UnknownMethod`], [`Error::UnknownParameter`],
/// [`Error::BadValue`], [`Error::DuplicateParameter`] for a bad method or
/// parameter; [`Error::NotRelational`] for a tabular method;
/// [`Error::Fit`] with rc-logic's error.
pub fn fit_relational<K: AsRef<str>, V: AsRef<str>>(
    id: &str,
    params: &[(K, V)],
    problem: &Problem,
    seed: u64,
) -> Result<RelationalFit> {
    let spec = method(id)?;
    if !spec.is_relational() {
        return Err(Error::NotRelational {
            method: spec.id.into(),
            relational: methods()
                .iter()
                .filter(|m| m.is_relational())
                .map(|m| m.id)
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let given: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (k.as_ref().to_string(), v.as_ref().to_string()))
        .collect();
    let args = Args::resolve(spec.id, spec.params, &given)?;
    let fail = |e: rc_logic::Error| Error::Fit {
        method: spec.id.into(),
        source: Box::new(e),
    };
    let ensemble = match spec.id {
        "rfgb" => {
            let mut p = BoostParams::default()
                .n_trees(args.int("n_trees")?)
                .neg_ratio(args.opt_float("neg_ratio")?)
                .max_rows(args.opt_int("max_rows")?)
                .seed(seed);
            p.prior = args.float("prior")?;
            p.step = args.float("step")?;
            p.recursion = args.bool("recursion")?;
            p.tree = p
                .tree
                .max_depth(args.int("max_depth")?)
                .max_node_literals(args.int("max_node_literals")?)
                .max_leaves(args.int("max_leaves")?);
            p.fit(problem).map_err(fail)?
        }
        "bagging" => {
            let mut p = BaggingParams::default()
                .n_trees(args.int("n_trees")?)
                .max_rows(args.opt_int("max_rows")?)
                .seed(seed);
            p.neg_ratio = args.opt_float("neg_ratio")?;
            p.recursion = args.bool("recursion")?;
            p.tree = p
                .tree
                .max_depth(args.int("max_depth")?)
                .max_node_literals(args.int("max_node_literals")?)
                .max_leaves(args.int("max_leaves")?);
            p.fit(problem).map_err(fail)?
        }
        other => {
            return Err(Error::Internal(format!(
                "relational method '{other}' has no builder"
            )))
        }
    };
    Ok(RelationalFit {
        kind: spec.id,
        params: args.strings(),
        seed,
        ensemble,
    })
}
