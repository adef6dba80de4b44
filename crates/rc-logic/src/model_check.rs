//! Checks that a model read from a file (or about to be written) holds
//! together, so that predicting with it cannot index out of bounds, loop
//! or allocate without limit: every predicate and constant is in the
//! model's vocabulary with the right arity, child nodes exist and come
//! after their parent, variables stay within what the clauses can
//! introduce, and every number is finite.

use crate::cote::DecisionList;
use crate::ensemble::{Combine, TreeEnsemble};
use crate::symbols::{Sym, Vocabulary};
use crate::term::{Atom, Term};
use crate::tree::{Node, RelTree};

/// What is wrong, in words (the caller adds the file).
pub(crate) type Check = std::result::Result<(), String>;

/// Checks an ensemble: vocabulary, heads, trees, combination.
pub(crate) fn check_ensemble(e: &TreeEnsemble) -> Check {
    e.vocab.check()?;
    check_combine(e.combine)?;
    check_head(&e.head, &e.vocab)?;
    check_types(&e.head_types, &e.vocab, "head type")?;
    if e.head_types.len() != e.head.args.len() {
        return Err(format!(
            "the head has {} arguments but {} head types",
            e.head.args.len(),
            e.head_types.len()
        ));
    }
    for (i, t) in e.trees.iter().enumerate() {
        check_tree(t, &e.vocab).map_err(|m| format!("tree {i}: {m}"))?;
    }
    e.validate().map_err(|err| err.to_string())
}

/// Checks a decision list: vocabulary, head, groups, rule layout.
pub(crate) fn check_list(l: &DecisionList) -> Check {
    l.vocab.check()?;
    check_combine(l.combine)?;
    check_head(&l.head, &l.vocab)?;
    let n_head = l.head.args.len();
    for (i, g) in l.groups.iter().enumerate() {
        let bound = var_bound(n_head, g);
        for a in g {
            check_atom(a, &l.vocab, bound).map_err(|m| format!("group {i}: {m}"))?;
        }
    }
    l.check_layout()
}

fn check_combine(c: Combine) -> Check {
    match c {
        Combine::Sum { offset, step } if !(offset.is_finite() && step.is_finite()) => Err(format!(
            "the combination's offset {offset} and step {step} must be finite"
        )),
        _ => Ok(()),
    }
}

/// The head must be `target(V0, …, Vk-1)` over a predicate of the
/// vocabulary with arity k.
fn check_head(head: &Atom, vocab: &Vocabulary) -> Check {
    check_atom(head, vocab, head.args.len())?;
    let in_order = head
        .args
        .iter()
        .enumerate()
        .all(|(i, t)| *t == Term::Var(i as u32));
    if !in_order {
        return Err(format!(
            "the head {} must have the variables A, B, … in order",
            head.display(vocab)
        ));
    }
    Ok(())
}

fn check_types(types: &[Sym], vocab: &Vocabulary, what: &str) -> Check {
    match types.iter().find(|s| s.0 as usize >= vocab.n_symbols()) {
        Some(s) => Err(format!(
            "{what} {} is not in the vocabulary ({} symbols)",
            s.0,
            vocab.n_symbols()
        )),
        None => Ok(()),
    }
}

/// One more than the largest variable a clause over `atoms` can use when
/// its variables are numbered from 0 without gaps: the head's plus one
/// per argument.
fn var_bound(n_head: usize, atoms: &[Atom]) -> usize {
    n_head + atoms.iter().map(|a| a.args.len()).sum::<usize>()
}

/// An atom over a predicate of the vocabulary with the right number of
/// arguments, constants of the vocabulary and variables below `bound`.
fn check_atom(a: &Atom, vocab: &Vocabulary, bound: usize) -> Check {
    if a.pred.0 as usize >= vocab.n_preds() {
        return Err(format!(
            "predicate {} is not in the vocabulary ({} predicates)",
            a.pred.0,
            vocab.n_preds()
        ));
    }
    let arity = vocab.arity(a.pred);
    if a.args.len() != arity {
        return Err(format!(
            "'{}' has {} arguments here but arity {arity} in the vocabulary",
            vocab.pred_name(a.pred),
            a.args.len()
        ));
    }
    for t in &a.args {
        match *t {
            Term::Var(v) if v as usize >= bound => {
                return Err(format!(
                    "variable {v} in '{}' is out of range (at most {bound} variables)",
                    vocab.pred_name(a.pred)
                ))
            }
            Term::Const(c) if c.0 as usize >= vocab.n_symbols() => {
                return Err(format!(
                    "constant {} in '{}' is not in the vocabulary ({} symbols)",
                    c.0,
                    vocab.pred_name(a.pred),
                    vocab.n_symbols()
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// A tree: nodes exist, children come after their parent (so evaluation
/// ends), literals are well formed, values are finite.
fn check_tree(t: &RelTree, vocab: &Vocabulary) -> Check {
    check_head(&t.head, vocab)?;
    check_types(&t.var_types, vocab, "variable type")?;
    if t.nodes.is_empty() {
        return Err("the tree has no nodes".into());
    }
    let tests: Vec<Atom> = t
        .nodes
        .iter()
        .filter_map(|n| match n {
            Node::Test { test, .. } => Some(test.iter().cloned()),
            Node::Leaf { .. } => None,
        })
        .flatten()
        .collect();
    let bound = var_bound(t.n_head(), &tests);
    for a in &tests {
        check_atom(a, vocab, bound)?;
    }
    let n_vars = t.n_vars();
    let n = t.nodes.len();
    for (i, node) in t.nodes.iter().enumerate() {
        match node {
            Node::Leaf { value, weight } => {
                if !(value.is_finite() && weight.is_finite()) {
                    return Err(format!("leaf {i} has value {value} and weight {weight}"));
                }
            }
            Node::Test {
                test,
                check,
                yes,
                no,
                weight,
            } => {
                if test.is_empty() {
                    return Err(format!("node {i} tests no literal"));
                }
                for &c in [yes, no] {
                    if c <= i || c >= n {
                        return Err(format!(
                            "node {i} has child {c}; children must come after their parent and exist ({n} nodes)"
                        ));
                    }
                }
                if !weight.is_finite() {
                    return Err(format!("node {i} has weight {weight}"));
                }
                for a in check {
                    check_atom(a, vocab, n_vars).map_err(|m| format!("node {i}: {m}"))?;
                }
            }
        }
    }
    Ok(())
}
