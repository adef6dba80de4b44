//! A [`RuleSet`] as a list of Python dicts, one per rule.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rulecover_core::rule::format_number;
use rulecover_core::{Antecedent, Feature, ObliqueCondition, Outcome, RuleSet};

fn name_of(features: &[Feature], j: usize) -> String {
    features
        .get(j)
        .map_or_else(|| format!("x{j}"), |f| f.name.clone())
}

/// One oblique condition as text, `0.5·age - 2·bmi > 1`.
fn oblique(c: &ObliqueCondition, features: &[Feature]) -> String {
    let mut text = String::new();
    for (i, &(j, w)) in c.terms.iter().enumerate() {
        if i > 0 {
            text.push_str(if w < 0.0 { " - " } else { " + " });
        } else if w < 0.0 {
            text.push('-');
        }
        text.push_str(&format!(
            "{}·{}",
            format_number(w.abs()),
            name_of(features, j)
        ));
    }
    let op = if c.greater { ">" } else { "<" };
    format!("{text} {op} {}", format_number(c.threshold))
}

/// The rule's conditions as text, each as rulecover prints it.
fn conditions(antecedent: &Antecedent, features: &[Feature]) -> Vec<String> {
    match antecedent {
        Antecedent::Conjunction(rule) => rule
            .conditions
            .iter()
            .map(|c| c.display(features).to_string())
            .collect(),
        Antecedent::Linear { .. } => Vec::new(),
        Antecedent::Oblique(cs) => cs.iter().map(|c| oblique(c, features)).collect(),
        Antecedent::Clause(literals) => literals.clone(),
    }
}

/// Every rule of `set` as a dict: `conditions` (list of str), `linear`
/// (the feature of a linear term, else `None`), `class` and `class_index`
/// (the predicted class, else `None`; for a rule of one class's binary
/// model in a one-vs-rest model, that class when the rule adds to its
/// score or predicts it), `for_class_index` (that class, else `None`),
/// `class_counts` (training class
/// weights of the rule, else `None`), `value` (a real outcome, else
/// `None`), `weight`, `coverage` (training rows covered) and `text` (the
/// rule as rulecover prints it).
pub fn to_py<'py>(py: Python<'py>, set: &RuleSet) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for rule in &set.rules {
        let d = PyDict::new(py);
        d.set_item("conditions", conditions(&rule.antecedent, &set.features))?;
        d.set_item(
            "linear",
            match &rule.antecedent {
                Antecedent::Linear { feature } => Some(name_of(&set.features, *feature)),
                _ => None,
            },
        )?;
        let outcome_class = match &rule.outcome {
            Outcome::Class(k) => Some(*k),
            Outcome::ClassCounts(c) => Some(rulecover_core::metrics::argmax(c)),
            Outcome::Value(_) => None,
        };
        // A rule of one class's binary model (one-vs-rest) speaks of that
        // class: its value adds to the class's score, its class 1 is the
        // class and its class 0 the rest (no single class).
        let class_index = match (rule.for_class, outcome_class) {
            (None, k) => k,
            (Some(c), None | Some(1)) => Some(c),
            (Some(_), Some(_)) => None,
        };
        d.set_item("class_index", class_index)?;
        d.set_item("for_class_index", rule.for_class)?;
        d.set_item(
            "class",
            class_index.and_then(|k| set.class_names.get(k).cloned()),
        )?;
        d.set_item(
            "class_counts",
            match &rule.outcome {
                Outcome::ClassCounts(c) => Some(c.clone()),
                _ => None,
            },
        )?;
        d.set_item(
            "value",
            match &rule.outcome {
                Outcome::Value(v) => Some(*v),
                _ => None,
            },
        )?;
        d.set_item("weight", rule.weight)?;
        d.set_item("coverage", rule.coverage)?;
        let single = RuleSet {
            features: set.features.clone(),
            class_names: set.class_names.clone(),
            rules: vec![rule.clone()],
        };
        d.set_item("text", single.to_string().trim_end().to_string())?;
        out.append(d)?;
    }
    Ok(out)
}
