//! Fitting the relational methods (`rfgb`, `bagging`): parameters from
//! strings, fitted on an [`rc_logic::Problem`] (BoostSRL facts and
//! examples) by the method's item; the fit saves to and loads from the
//! model file ([`RelationalFit::save`], [`RelationalFit::load`]).

use std::collections::BTreeMap;

use rc_logic::{Problem, TreeEnsemble};

use crate::error::{Error, Result};
use crate::method::Learner;
use crate::methods::{ids_learning, method};
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
    let method = method(id)?;
    let spec = method.spec();
    let Learner::Relational(learner) = method.learner() else {
        return Err(Error::NotRelational {
            method: spec.id.into(),
            relational: ids_learning(true),
        });
    };
    let given: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (k.as_ref().to_string(), v.as_ref().to_string()))
        .collect();
    let args = Args::resolve(spec.id, spec.params, &given)?;
    let ensemble = learner.fit(&args, problem, seed)?;
    Ok(RelationalFit {
        kind: spec.id,
        params: args.strings(),
        seed,
        ensemble,
    })
}
