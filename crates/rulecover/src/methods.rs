//! The method registry: [`METHODS`], the one list of every method item,
//! and lookup by id or alias.
//!
//! A method is one item: a unit struct implementing [`Method`] in the
//! `learners` module of its library crate, which owns the method's
//! [`MethodSpec`] (id, aliases, tasks, parameters with their one default,
//! tuning grid, capabilities), how its parameters become the crate's
//! params and are fitted, and how its model is read back. Adding a method
//! is one new item there plus one line here.

use crate::error::{Error, Result};
use crate::learners::{cover, glm, logic, nre, tree};

pub use crate::method::{Method, MethodSpec, Task};

/// Every registered method, in a fixed order (the order of
/// `rulecover methods`).
pub static METHODS: &[&dyn Method] = &[
    &tree::Dt,
    &tree::Rf,
    &tree::Ada,
    &tree::Gb,
    &cover::Mirco,
    &cover::RcBoost,
    &cover::RuxRf,
    &cover::RuxAda,
    &cover::Rug,
    &cover::RugT,
    &glm::Lr1,
    &glm::Lrr,
    &glm::Lr1n,
    &glm::Lrrn,
    &glm::LinearRule,
    &glm::RuleFit,
    &glm::RuleFitN,
    &glm::Gbt,
    &nre::Nre,
    &nre::NreDeep,
    &nre::Ann,
    &logic::Rfgb,
    &logic::Bagging,
];

/// Every registered method, in a fixed order.
pub fn methods() -> &'static [&'static dyn Method] {
    METHODS
}

/// The method with this id or alias (case-insensitive).
///
/// # Errors
/// [`Error::UnknownMethod`] listing the valid ids.
pub fn method(name: &str) -> Result<&'static dyn Method> {
    let name = name.trim();
    METHODS
        .iter()
        .copied()
        .find(|m| m.spec().answers_to(name))
        .ok_or_else(|| Error::UnknownMethod {
            given: name.into(),
            valid: method_ids().join(", "),
        })
}

/// The method whose id is exactly `id` (a model file's `kind`).
pub(crate) fn by_id(id: &str) -> Option<&'static dyn Method> {
    METHODS.iter().copied().find(|m| m.spec().id == id)
}

/// The ids of every method, in list order.
pub fn method_ids() -> Vec<&'static str> {
    METHODS.iter().map(|m| m.spec().id).collect()
}

/// The ids of the tabular methods (`relational = false`) or of the
/// relational ones, comma separated.
pub(crate) fn ids_learning(relational: bool) -> String {
    METHODS
        .iter()
        .filter(|m| m.is_relational() == relational)
        .map(|m| m.spec().id)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_lower_case_and_aliases_resolve() {
        let mut seen = std::collections::HashSet::new();
        for m in methods() {
            let m = m.spec();
            assert_eq!(m.id, m.id.to_ascii_lowercase());
            for name in std::iter::once(m.id).chain(m.aliases.iter().copied()) {
                assert!(seen.insert(name.to_ascii_lowercase()), "{name} twice");
                assert_eq!(method(name).unwrap().spec().id, m.id);
            }
        }
        assert_eq!(method("RUX-RF").unwrap().spec().id, "rux-rf");
        assert_eq!(method("RuleFitN").unwrap().spec().id, "rulefit-n");
    }

    #[test]
    fn every_default_parses_and_names_are_unique() {
        for m in methods() {
            let m = m.spec();
            let mut names = std::collections::HashSet::new();
            for p in m.params {
                assert!(names.insert(p.name), "{}.{} twice", m.id, p.name);
                assert!(p.kind.parse(p.default).is_some(), "{}.{}", m.id, p.name);
                assert!(!p.doc.is_empty());
            }
            let grids = std::iter::once(m.grid).chain(m.paper_grids.iter().map(|(_, g)| *g));
            for grid in grids {
                let mut seen = std::collections::HashSet::new();
                for axis in grid {
                    let p = m.param(axis.param).expect("a grid axis is a parameter");
                    assert!(seen.insert(axis.param), "{}.{} twice", m.id, axis.param);
                    assert!(!axis.values.is_empty(), "{}.{}", m.id, axis.param);
                    assert!(axis.values.iter().all(|v| p.kind.parse(v).is_some()));
                    if let Some((tied, _)) = axis.scaled {
                        let t = m.param(tied).expect("a tied parameter is a parameter");
                        let number = |k| {
                            matches!(k, crate::ParamKind::Float | crate::ParamKind::FloatOrAuto)
                        };
                        assert!(number(t.kind), "{}.{tied}", m.id);
                        assert!(number(p.kind), "{}", m.id);
                        assert!(seen.insert(tied), "{}.{tied} twice", m.id);
                    }
                }
            }
        }
    }

    #[test]
    fn every_tabular_method_has_a_small_grid_or_its_papers() {
        for m in methods() {
            let spec = m.spec();
            if m.is_relational() {
                assert!(spec.grid.is_empty(), "{}", spec.id);
                continue;
            }
            assert!(!spec.grid.is_empty(), "{} has no tuning grid", spec.id);
            assert!(
                spec.grid_size() <= 12 || !spec.paper.is_empty(),
                "{}: {} points",
                spec.id,
                spec.grid_size()
            );
        }
    }

    #[test]
    fn the_tasks_say_how_a_method_learns() {
        for m in methods() {
            let relational = m.spec().tasks.contains(&Task::Relational);
            assert_eq!(relational, m.is_relational(), "{}", m.spec().id);
            if relational {
                assert_eq!(m.spec().tasks, [Task::Relational], "{}", m.spec().id);
                assert!(!m.spec().one_vs_rest);
            }
        }
    }

    #[test]
    fn the_capabilities_are_the_documented_ones() {
        let quiet: Vec<&str> = methods()
            .iter()
            .filter(|m| !m.spec().prints_rules_by_default)
            .map(|m| m.spec().id)
            .collect();
        assert_eq!(quiet, ["rf", "ada", "gb", "gbt"]);
        let per_class: Vec<&str> = methods()
            .iter()
            .filter(|m| m.spec().one_vs_rest)
            .map(|m| m.spec().id)
            .collect();
        assert_eq!(
            per_class,
            [
                "lr1",
                "lrr",
                "lr1n",
                "lrrn",
                "linear-rule",
                "rulefit",
                "rulefit-n",
                "nre",
                "nre-deep",
                "ann"
            ]
        );
        for m in methods() {
            let spec = m.spec();
            let relational = spec.tasks.contains(&Task::Relational);
            assert_eq!(spec.exportable, !relational, "{}", spec.id);
        }
    }
}
