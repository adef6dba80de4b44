//! What each rule does on labelled data: the rows it covers (support)
//! and, for classes, how many of them hold the class it predicts
//! (precision); for a real target, the mean target of the rows it covers.

use rulecover_core::metrics::argmax;
use rulecover_core::ruleset::{Antecedent, Outcome, RuleSet, WeightedRule};
use rulecover_core::{Dataset, Target};

/// One rule on the data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RuleStats {
    /// Rows the rule covers.
    pub covered: usize,
    /// Share of the data's rows it covers.
    pub support: f64,
    /// For classes: the share of the covered rows whose label is the
    /// rule's class (`None` when it covers none, or the rule predicts no
    /// single class). For a real target: the mean target of the covered
    /// rows.
    pub precision: Option<f64>,
}

/// The data's columns as the rule set numbers its features: the columns
/// themselves, or their one-hot indicators, matched by name. `None` when
/// some feature of the rule set is in neither.
fn rule_columns(set: &RuleSet, data: &Dataset) -> Option<(Dataset, Vec<usize>)> {
    let candidates = [
        Some(data.clone()),
        data.one_hot(false).ok(),
        data.one_hot(true).ok(),
    ];
    candidates.into_iter().flatten().find_map(|d| {
        let names = d.feature_names();
        let map: Option<Vec<usize>> = set
            .features
            .iter()
            .map(|f| names.iter().position(|n| *n == f.name))
            .collect();
        map.map(|m| (d, m))
    })
}

/// The class `rule` predicts, in the data's class numbering: for a rule
/// of the binary model of class `c`, `Some(Ok(c))` for "class c" and
/// `Some(Err(c))` for "not c".
fn predicted(rule: &WeightedRule) -> Option<Result<usize, usize>> {
    let k = match &rule.outcome {
        Outcome::Class(k) => *k,
        Outcome::ClassCounts(counts) => argmax(counts),
        // A score on the log-odds scale of class 1.
        Outcome::Value(v) => usize::from(*v > 0.0),
    };
    match rule.for_class {
        None => Some(Ok(k)),
        Some(c) if k == 1 => Some(Ok(c)),
        Some(c) if k == 0 => Some(Err(c)),
        Some(_) => None,
    }
}

/// Each rule's [`RuleStats`] on `data` (aligned to the model's schema,
/// with a target), or `None` for every rule when the rule set's features
/// cannot be found in the data; `None` for a rule whose antecedent is not
/// tested row by row (a linear term, a relational clause).
pub fn rule_stats(set: &RuleSet, data: &Dataset) -> Vec<Option<RuleStats>> {
    let Some((cols, map)) = rule_columns(set, data) else {
        return vec![None; set.len()];
    };
    let n = cols.n_rows();
    let rows: Vec<Vec<f64>> = (0..n).map(|i| cols.row(i)).collect();
    let target = data.target_view();
    set.rules
        .iter()
        .map(|rule| {
            let mapped = match &rule.antecedent {
                Antecedent::Conjunction(_) | Antecedent::Oblique(_) => {
                    rule.antecedent.map_features(|j| map[j])
                }
                Antecedent::Linear { .. } | Antecedent::Clause(_) => return None,
            };
            let covers = |row: &[f64]| match &mapped {
                Antecedent::Conjunction(r) => r.covers_row(row),
                Antecedent::Oblique(cs) => cs.iter().all(|c| c.holds(row)),
                _ => false,
            };
            let hits: Vec<usize> = (0..n).filter(|&i| covers(&rows[i])).collect();
            let covered = hits.len();
            let precision = match &target {
                _ if covered == 0 => None,
                Target::Classes { labels, .. } => predicted(rule).map(|p| {
                    let right = hits
                        .iter()
                        .filter(|&&i| match p {
                            Ok(c) => labels[i] == c,
                            Err(c) => labels[i] != c,
                        })
                        .count();
                    right as f64 / covered as f64
                }),
                Target::Real(y) => Some(hits.iter().map(|&i| y[i]).sum::<f64>() / covered as f64),
                Target::None => None,
            };
            Some(RuleStats {
                covered,
                support: if n == 0 {
                    0.0
                } else {
                    covered as f64 / n as f64
                },
                precision,
            })
        })
        .collect()
}
