//! Moves a model onto the symbols of other data.
//!
//! Symbol and predicate ids are interning order: a model learned in one
//! process and data loaded in another number the same names differently.
//! [`TreeEnsemble::rebind`] and [`DecisionList::rebind`] rewrite every id
//! of a model by name into the data's [`Vocabulary`]. Names the data do
//! not know are appended to a copy of it, at ids no fact and no example
//! of the data uses: a literal over a predicate or constant absent from
//! the data is then simply false for every example, as it would be had
//! the data been loaded together with the training split. The target
//! itself (name and arity) must be a predicate of the data.

use crate::cote::DecisionList;
use crate::ensemble::TreeEnsemble;
use crate::error::{Error, Result};
use crate::symbols::{FxHashMap, Pred, Sym, Vocabulary};
use crate::term::{Atom, Term};
use crate::tree::{Node, RelTree};

/// Maps the ids of one vocabulary to those of another by name, adding
/// the names the other lacks.
#[derive(Debug)]
pub struct SymbolMap<'a> {
    from: &'a Vocabulary,
    to: Vocabulary,
    syms: FxHashMap<u32, Sym>,
    preds: FxHashMap<u32, Pred>,
}

impl<'a> SymbolMap<'a> {
    /// A map from `from` into (a copy of) `to`.
    pub fn new(from: &'a Vocabulary, to: &Vocabulary) -> Self {
        SymbolMap {
            from,
            to: to.clone(),
            syms: FxHashMap::default(),
            preds: FxHashMap::default(),
        }
    }

    /// The symbol of the same name in the target vocabulary.
    pub fn sym(&mut self, s: Sym) -> Result<Sym> {
        if let Some(&t) = self.syms.get(&s.0) {
            return Ok(t);
        }
        if s.0 as usize >= self.from.n_symbols() {
            return Err(Error::Mismatch(format!(
                "symbol {} is not in the model's vocabulary ({} symbols)",
                s.0,
                self.from.n_symbols()
            )));
        }
        let t = self.to.intern(self.from.name(s));
        self.syms.insert(s.0, t);
        Ok(t)
    }

    /// The predicate of the same name and arity in the target vocabulary.
    pub fn pred(&mut self, p: Pred) -> Result<Pred> {
        if let Some(&t) = self.preds.get(&p.0) {
            return Ok(t);
        }
        if p.0 as usize >= self.from.n_preds() {
            return Err(Error::Mismatch(format!(
                "predicate {} is not in the model's vocabulary ({} predicates)",
                p.0,
                self.from.n_preds()
            )));
        }
        let t = self.to.pred(self.from.pred_name(p), self.from.arity(p));
        self.preds.insert(p.0, t);
        Ok(t)
    }

    /// An atom with its predicate and constants mapped.
    pub fn atom(&mut self, a: &Atom) -> Result<Atom> {
        let pred = self.pred(a.pred)?;
        let args = a
            .args
            .iter()
            .map(|&t| match t {
                Term::Var(v) => Ok(Term::Var(v)),
                Term::Const(c) => self.sym(c).map(Term::Const),
            })
            .collect::<Result<_>>()?;
        Ok(Atom::new(pred, args))
    }

    /// Atoms mapped.
    pub fn atoms(&mut self, atoms: &[Atom]) -> Result<Vec<Atom>> {
        atoms.iter().map(|a| self.atom(a)).collect()
    }

    /// Symbols mapped.
    pub fn syms(&mut self, syms: &[Sym]) -> Result<Vec<Sym>> {
        syms.iter().map(|&s| self.sym(s)).collect()
    }

    /// A tree with every id mapped.
    pub fn tree(&mut self, t: &RelTree) -> Result<RelTree> {
        let nodes = t
            .nodes
            .iter()
            .map(|n| match n {
                Node::Leaf { .. } => Ok(n.clone()),
                Node::Test {
                    test,
                    check,
                    yes,
                    no,
                    weight,
                } => Ok(Node::Test {
                    test: self.atoms(test)?,
                    check: self.atoms(check)?,
                    yes: *yes,
                    no: *no,
                    weight: *weight,
                }),
            })
            .collect::<Result<_>>()?;
        Ok(RelTree {
            head: self.atom(&t.head)?,
            nodes,
            var_types: self.syms(&t.var_types)?,
        })
    }

    /// The target vocabulary with the names added.
    pub fn into_vocabulary(self) -> Vocabulary {
        self.to
    }
}

/// Fails unless `vocab` has the predicate `head` names in `model`
/// (same name, same arity).
fn require_target(head: &Atom, model: &Vocabulary, vocab: &Vocabulary) -> Result<()> {
    let name = model.pred_name(head.pred);
    let arity = head.args.len();
    if vocab.find_pred(name, arity).is_some() {
        return Ok(());
    }
    let others: Vec<String> = vocab
        .preds_named(name)
        .into_iter()
        .map(|p| format!("'{name}/{}'", vocab.arity(p)))
        .collect();
    Err(Error::TargetNotInData {
        target: name.to_string(),
        arity,
        others: if others.is_empty() {
            String::new()
        } else {
            format!(" (it has {})", others.join(", "))
        },
    })
}

impl TreeEnsemble {
    /// The ensemble over the symbol ids of `vocab` (the vocabulary of the
    /// data to predict, e.g. a [`Problem`](crate::data::Problem)'s
    /// `vocab` loaded in another process): every predicate, constant and
    /// type is mapped by name; names `vocab` lacks are added to the
    /// returned model's copy of it (literals over them are false on that
    /// data). Predictions on the data are then those the ensemble makes
    /// on the same facts loaded with its training data.
    ///
    /// Errors: [`Error::TargetNotInData`] when `vocab` has no predicate of
    /// the target's name and arity; [`Error::Mismatch`] for an id outside
    /// the model's own vocabulary.
    pub fn rebind(&self, vocab: &Vocabulary) -> Result<TreeEnsemble> {
        require_target(&self.head, &self.vocab, vocab)?;
        let mut map = SymbolMap::new(&self.vocab, vocab);
        let head = map.atom(&self.head)?;
        let head_types = map.syms(&self.head_types)?;
        let trees = self
            .trees
            .iter()
            .map(|t| map.tree(t))
            .collect::<Result<_>>()?;
        Ok(TreeEnsemble {
            head,
            head_types,
            trees,
            combine: self.combine,
            vocab: map.into_vocabulary(),
            training_rows: self.training_rows.clone(),
        })
    }
}

impl DecisionList {
    /// The list over the symbol ids of `vocab`; see
    /// [`TreeEnsemble::rebind`].
    ///
    /// Errors: [`Error::TargetNotInData`] when `vocab` has no predicate of
    /// the target's name and arity; [`Error::Mismatch`] for an id outside
    /// the list's own vocabulary.
    pub fn rebind(&self, vocab: &Vocabulary) -> Result<DecisionList> {
        require_target(&self.head, &self.vocab, vocab)?;
        let mut map = SymbolMap::new(&self.vocab, vocab);
        let head = map.atom(&self.head)?;
        let groups = self
            .groups
            .iter()
            .map(|g| map.atoms(g))
            .collect::<Result<_>>()?;
        Ok(self.with_symbols(head, groups, map.into_vocabulary()))
    }
}
