//! Ordered relational decision lists: the first rule whose body holds for
//! an example gives its value.
//!
//! A rule body is a set of *predicate groups* (see [`crate::groups`]);
//! the list stores each distinct group once and every rule as group ids,
//! so lists of millions of rules (SCoTE on large ensembles) stay compact.
//! Prediction evaluates each group once per example and finds the first
//! rule whose groups all hold through a set-trie over the rules, so it
//! does not scan the whole list.

use std::fmt::Write;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cote::group_table::GroupTable;
use crate::coverage::{Query, Scratch, TupleSource, UNBOUND};
use crate::data::Split;
use crate::ensemble::{sigmoid, Combine};
use crate::groups::predicate_groups;
use crate::symbols::Vocabulary;
use crate::term::{conjunction, Atom, Term};

/// One rule as stored: its groups and value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DlRule<'a> {
    /// Ids of the rule's groups (into [`DecisionList::groups`]).
    pub groups: &'a [u32],
    /// The value (a sum of tree values for boosting, a mean for bagging).
    pub value: f64,
}

/// An ordered decision list over one target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecisionList {
    /// The head `target(V0, …, Vk-1)`.
    pub head: Atom,
    /// The distinct predicate groups (body variables numbered from the
    /// head's arity).
    pub groups: Vec<Vec<Atom>>,
    /// Group ids of all rules, concatenated.
    rule_groups: Vec<u32>,
    /// Start of each rule in `rule_groups` (plus the end).
    starts: Vec<u32>,
    /// Value of each rule.
    values: Vec<f64>,
    /// How a value becomes a probability (the ensemble's combination).
    pub combine: Combine,
    /// Names of the symbols.
    pub vocab: Vocabulary,
}

impl DecisionList {
    /// An empty list over `groups`.
    pub fn new(head: Atom, groups: Vec<Vec<Atom>>, combine: Combine, vocab: Vocabulary) -> Self {
        DecisionList {
            head,
            groups,
            rule_groups: Vec::new(),
            starts: vec![0],
            values: Vec::new(),
            combine,
            vocab,
        }
    }

    /// A list from clause bodies and values (bodies are split into groups).
    pub fn from_bodies(
        head: Atom,
        rules: &[(Vec<Atom>, f64)],
        combine: Combine,
        vocab: Vocabulary,
    ) -> Self {
        let n_head = head.args.len();
        let mut table = GroupTable::new(n_head);
        let ids: Vec<(Vec<u32>, f64)> = rules
            .iter()
            .map(|(body, v)| {
                let mut g: Vec<u32> = Vec::new();
                for comp in predicate_groups(body, n_head) {
                    let atoms: Vec<Atom> = comp.iter().map(|&i| body[i].clone()).collect();
                    let id = table.intern(&atoms);
                    if !g.contains(&id) {
                        g.push(id);
                    }
                }
                (g, *v)
            })
            .collect();
        let mut list = DecisionList::new(head, table.groups, combine, vocab);
        for (g, v) in ids {
            list.push(&g, v);
        }
        list
    }

    /// Checks the rule layout of a list read from a file: rule starts in
    /// order and within the group ids, ids of existing groups, one finite
    /// value per rule.
    pub(crate) fn check_layout(&self) -> Result<(), String> {
        if self.starts.first() != Some(&0) {
            return Err("the rule starts must begin at 0".into());
        }
        if self.starts.windows(2).any(|w| w[0] > w[1]) {
            return Err("the rule starts are not in increasing order".into());
        }
        if self.starts.last().map(|&e| e as usize) != Some(self.rule_groups.len()) {
            return Err(format!(
                "the last rule ends at {} but there are {} group ids",
                self.starts.last().copied().unwrap_or(0),
                self.rule_groups.len()
            ));
        }
        if self.values.len() + 1 != self.starts.len() {
            return Err(format!(
                "{} rule values for {} rules",
                self.values.len(),
                self.starts.len() - 1
            ));
        }
        if let Some(g) = self
            .rule_groups
            .iter()
            .find(|&&g| g as usize >= self.groups.len())
        {
            return Err(format!(
                "a rule uses group {g} but the list has {} groups",
                self.groups.len()
            ));
        }
        if let Some(v) = self.values.iter().find(|v| !v.is_finite()) {
            return Err(format!("rule value {v} is not finite"));
        }
        Ok(())
    }

    /// The same rules over a renamed head, groups and vocabulary (the
    /// groups in the same order).
    pub(crate) fn with_symbols(
        &self,
        head: Atom,
        groups: Vec<Vec<Atom>>,
        vocab: Vocabulary,
    ) -> DecisionList {
        DecisionList {
            head,
            groups,
            rule_groups: self.rule_groups.clone(),
            starts: self.starts.clone(),
            values: self.values.clone(),
            combine: self.combine,
            vocab,
        }
    }

    /// Appends a rule.
    pub fn push(&mut self, groups: &[u32], value: f64) {
        self.rule_groups.extend_from_slice(groups);
        self.starts.push(self.rule_groups.len() as u32);
        self.values.push(value);
    }

    /// Number of rules.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True without rules.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Rule `i`.
    pub fn rule(&self, i: usize) -> DlRule<'_> {
        DlRule {
            groups: &self.rule_groups[self.starts[i] as usize..self.starts[i + 1] as usize],
            value: self.values[i],
        }
    }

    /// Every rule, in order.
    pub fn rules(&self) -> impl Iterator<Item = DlRule<'_>> + '_ {
        (0..self.len()).map(|i| self.rule(i))
    }

    /// The body of rule `i` as literals, its groups standardised apart.
    pub fn body(&self, i: usize) -> Vec<Atom> {
        let head = self.head.args.len() as u32;
        let mut offset = 0u32;
        let mut out = Vec::new();
        for &g in self.rule(i).groups {
            let mut max = 0u32;
            for a in &self.groups[g as usize] {
                out.push(a.map_vars(|v| {
                    if v < head {
                        Term::Var(v)
                    } else {
                        max = max.max(v - head + 1);
                        Term::Var(v + offset)
                    }
                }));
            }
            offset += max;
        }
        out
    }

    /// Number of body literals of rule `i`.
    pub fn body_len(&self, i: usize) -> usize {
        self.rule(i)
            .groups
            .iter()
            .map(|&g| self.groups[g as usize].len())
            .sum()
    }

    /// Average number of body literals per rule.
    pub fn avg_length(&self) -> f64 {
        if self.is_empty() {
            0.0
        } else {
            (0..self.len()).map(|i| self.body_len(i)).sum::<usize>() as f64 / self.len() as f64
        }
    }

    /// The value of an ensemble from a rule value: `offset + step · v` for
    /// boosting, `v` for bagging.
    pub fn ensemble_value(&self, v: f64) -> f64 {
        match self.combine {
            Combine::Sum { offset, step } => offset + step * v,
            Combine::Mean => v,
        }
    }

    /// Probability from an ensemble value.
    pub fn proba_of(&self, value: f64) -> f64 {
        match self.combine {
            Combine::Sum { .. } => sigmoid(value),
            Combine::Mean => value.clamp(0.0, 1.0),
        }
    }

    /// Index of the first rule that fires for each example (given as flat
    /// head arguments); `None` when no rule fires.
    pub fn first_rules<S: TupleSource>(
        &self,
        store: &S,
        args: &[u32],
        arity: usize,
    ) -> Vec<Option<usize>> {
        let n_head = self.head.args.len();
        let queries: Vec<Query> = self
            .groups
            .iter()
            .map(|g| Query::with_head(g.clone(), n_head))
            .collect();
        let n_vars = queries
            .iter()
            .map(Query::n_vars)
            .max()
            .unwrap_or(0)
            .max(arity);
        let index = FirstRuleIndex::new(self);
        let n = args.len().checked_div(arity).unwrap_or(0);
        (0..n)
            .into_par_iter()
            .map_init(
                || {
                    (
                        Scratch::new(),
                        vec![UNBOUND; n_vars],
                        Vec::new(),
                        Vec::new(),
                    )
                },
                |(scratch, bind, truth, stack), i| {
                    truth.clear();
                    for q in &queries {
                        bind.fill(UNBOUND);
                        bind[..arity].copy_from_slice(&args[i * arity..(i + 1) * arity]);
                        truth.push(q.holds(store, bind, scratch));
                    }
                    index.first(truth, stack)
                },
            )
            .collect()
    }

    /// The ensemble value (ψ for boosting, mean for bagging) of each
    /// example; `NaN` if no rule fires (never with a default rule).
    pub fn values_of<S: TupleSource>(&self, store: &S, args: &[u32], arity: usize) -> Vec<f64> {
        self.first_rules(store, args, arity)
            .into_iter()
            .map(|r| r.map_or(f64::NAN, |i| self.ensemble_value(self.values[i])))
            .collect()
    }

    /// Ensemble values of a split's examples.
    pub fn values(&self, split: &Split) -> Vec<f64> {
        self.values_of(&split.facts, &split.examples.args, split.examples.arity)
    }

    /// Probabilities of a split's examples.
    pub fn predict_proba(&self, split: &Split) -> Vec<f64> {
        self.values(split)
            .into_iter()
            .map(|v| self.proba_of(v))
            .collect()
    }

    /// Predicted labels (probability ≥ `threshold`).
    pub fn predict(&self, split: &Split, threshold: f64) -> Vec<bool> {
        self.predict_proba(split)
            .into_iter()
            .map(|p| p >= threshold)
            .collect()
    }

    /// The rules as readable clauses, one per line:
    /// `4.462 : samebib(A, B) :- title(A, C), title(B, C).`
    pub fn render(&self) -> String {
        let mut out = String::new();
        let head = self.head.display(&self.vocab).to_string();
        for i in 0..self.len() {
            let body = self.body(i);
            let v = self.values[i];
            if body.is_empty() {
                let _ = writeln!(out, "{v:.6} : {head}.");
            } else {
                let _ = writeln!(
                    out,
                    "{v:.6} : {head} :- {}.",
                    conjunction(&body, &self.vocab)
                );
            }
        }
        out
    }
}

/// A set-trie over the rules' sorted group ids, each node knowing the
/// smallest rule index below it: the first rule contained in a set of
/// true groups is found without scanning the list.
struct FirstRuleIndex {
    children: Vec<Vec<(u32, u32)>>,
    terminal: Vec<u32>,
    min_below: Vec<u32>,
}

impl FirstRuleIndex {
    fn new(list: &DecisionList) -> Self {
        let mut ix = FirstRuleIndex {
            children: vec![Vec::new()],
            terminal: vec![u32::MAX],
            min_below: vec![u32::MAX],
        };
        let mut sorted = Vec::new();
        for i in 0..list.len() {
            sorted.clear();
            sorted.extend_from_slice(list.rule(i).groups);
            sorted.sort_unstable();
            sorted.dedup();
            let r = i as u32;
            let mut node = 0usize;
            ix.min_below[0] = ix.min_below[0].min(r);
            for &g in &sorted {
                let next = match ix.children[node].binary_search_by_key(&g, |&(e, _)| e) {
                    Ok(k) => ix.children[node][k].1 as usize,
                    Err(k) => {
                        let id = ix.children.len();
                        ix.children.push(Vec::new());
                        ix.terminal.push(u32::MAX);
                        ix.min_below.push(u32::MAX);
                        ix.children[node].insert(k, (g, id as u32));
                        id
                    }
                };
                node = next;
                ix.min_below[node] = ix.min_below[node].min(r);
            }
            ix.terminal[node] = ix.terminal[node].min(r);
        }
        ix
    }

    fn first(&self, truth: &[bool], stack: &mut Vec<u32>) -> Option<usize> {
        let mut best = u32::MAX;
        stack.clear();
        stack.push(0);
        while let Some(n) = stack.pop() {
            let n = n as usize;
            if self.min_below[n] >= best {
                continue;
            }
            best = best.min(self.terminal[n]);
            for &(g, c) in &self.children[n] {
                if truth.get(g as usize).copied().unwrap_or(false)
                    && self.min_below[c as usize] < best
                {
                    stack.push(c);
                }
            }
        }
        (best != u32::MAX).then_some(best as usize)
    }
}

impl rulecover_core::RuleModel for DecisionList {
    fn n_rules(&self) -> usize {
        self.len()
    }

    fn rule_lengths(&self) -> Vec<usize> {
        (0..self.len()).map(|i| self.body_len(i)).collect()
    }

    fn render_rules(&self) -> String {
        self.render()
    }

    /// One rule per clause of the list, in order; the value is the
    /// clause's ensemble value. Coverage is not recorded (0): a decision
    /// list's clauses are tested on examples, not rows.
    fn rule_set(&self) -> rulecover_core::RuleSet {
        rulecover_core::RuleSet {
            features: Vec::new(),
            class_names: Vec::new(),
            rules: (0..self.len())
                .map(|i| rulecover_core::WeightedRule {
                    antecedent: rulecover_core::Antecedent::Clause(
                        self.body(i)
                            .iter()
                            .map(|a| a.display(&self.vocab).to_string())
                            .collect(),
                    ),
                    outcome: rulecover_core::Outcome::Value(self.values[i]),
                    weight: 1.0,
                    coverage: 0,
                    for_class: None,
                })
                .collect(),
        }
    }
}
