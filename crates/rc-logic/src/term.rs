//! Terms, atoms, clauses and substitutions.
//!
//! Variables are numbered per clause. By convention a clause's head is
//! `target(V0, …, Vk-1)`: variables `0..k` are the *head variables*, which
//! θ-subsumption keeps fixed, and body-only variables are numbered from
//! `k` up.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::symbols::{constant_text, Pred, Sym, Vocabulary};

/// A term: a variable (numbered within its clause) or a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Term {
    /// Variable number `n`.
    Var(u32),
    /// A constant.
    Const(Sym),
}

impl Term {
    /// The variable number, if a variable.
    pub fn var(self) -> Option<u32> {
        match self {
            Term::Var(v) => Some(v),
            Term::Const(_) => None,
        }
    }
}

/// An atom `p(t1, …, tk)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Atom {
    /// The predicate.
    pub pred: Pred,
    /// The arguments (as many as the predicate's arity).
    pub args: Vec<Term>,
}

impl Atom {
    /// An atom.
    pub fn new(pred: Pred, args: Vec<Term>) -> Self {
        Atom { pred, args }
    }

    /// The variables of the atom, in argument order (with repeats).
    pub fn vars(&self) -> impl Iterator<Item = u32> + '_ {
        self.args.iter().filter_map(|t| t.var())
    }

    /// True when the atom has no variable.
    pub fn is_ground(&self) -> bool {
        self.args.iter().all(|t| matches!(t, Term::Const(_)))
    }

    /// The atom with every variable `v` replaced by `f(v)`.
    pub fn map_vars(&self, mut f: impl FnMut(u32) -> Term) -> Atom {
        Atom {
            pred: self.pred,
            args: self
                .args
                .iter()
                .map(|&t| match t {
                    Term::Var(v) => f(v),
                    c => c,
                })
                .collect(),
        }
    }

    /// Displays the atom with the vocabulary's names (`p(A, b)`).
    pub fn display<'a>(&'a self, vocab: &'a Vocabulary) -> AtomDisplay<'a> {
        AtomDisplay { atom: self, vocab }
    }
}

/// The name a variable prints as: `A`…`Z`, then `A1`…`Z1`, and so on.
pub fn var_name(v: u32) -> String {
    let letter = (b'A' + (v % 26) as u8) as char;
    let round = v / 26;
    if round == 0 {
        letter.to_string()
    } else {
        format!("{letter}{round}")
    }
}

/// Displays an [`Atom`] with names.
pub struct AtomDisplay<'a> {
    atom: &'a Atom,
    vocab: &'a Vocabulary,
}

impl fmt::Display for AtomDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.vocab.pred_name(self.atom.pred))?;
        if self.atom.args.is_empty() {
            return Ok(());
        }
        write!(f, "(")?;
        for (i, t) in self.atom.args.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            match *t {
                Term::Var(v) => write!(f, "{}", var_name(v))?,
                Term::Const(c) => write!(f, "{}", constant_text(self.vocab.name(c)))?,
            }
        }
        write!(f, ")")
    }
}

/// A definite clause `head :- body`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Clause {
    /// The head (`target(V0, …, Vk-1)` by convention).
    pub head: Atom,
    /// The body literals (a conjunction; empty = true).
    pub body: Vec<Atom>,
}

impl Clause {
    /// A clause.
    pub fn new(head: Atom, body: Vec<Atom>) -> Self {
        Clause { head, body }
    }

    /// Number of head variables `k` (the head's arity).
    pub fn n_head(&self) -> usize {
        self.head.args.len()
    }

    /// One more than the largest variable number (0 without variables).
    pub fn n_vars(&self) -> usize {
        std::iter::once(&self.head)
            .chain(&self.body)
            .flat_map(Atom::vars)
            .map(|v| v as usize + 1)
            .max()
            .unwrap_or(0)
    }

    /// Displays the clause: `head :- l1, l2.` (or `head.` for an empty body).
    pub fn display<'a>(&'a self, vocab: &'a Vocabulary) -> ClauseDisplay<'a> {
        ClauseDisplay {
            clause: self,
            vocab,
        }
    }
}

/// Displays a [`Clause`] with names.
pub struct ClauseDisplay<'a> {
    clause: &'a Clause,
    vocab: &'a Vocabulary,
}

impl fmt::Display for ClauseDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.clause.head.display(self.vocab))?;
        if !self.clause.body.is_empty() {
            write!(f, " :- {}", conjunction(&self.clause.body, self.vocab))?;
        }
        write!(f, ".")
    }
}

/// `l1, l2, …, ln` with names.
pub fn conjunction(atoms: &[Atom], vocab: &Vocabulary) -> String {
    atoms
        .iter()
        .map(|a| a.display(vocab).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A substitution of terms for variables: `θ = {v1/t1, …}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Substitution {
    map: Vec<Option<Term>>,
}

impl Substitution {
    /// The empty substitution.
    pub fn new() -> Self {
        Self::default()
    }

    /// Binds `v` to `t` (replacing an earlier binding).
    pub fn bind(&mut self, v: u32, t: Term) {
        let i = v as usize;
        if self.map.len() <= i {
            self.map.resize(i + 1, None);
        }
        self.map[i] = Some(t);
    }

    /// What `v` is bound to.
    pub fn get(&self, v: u32) -> Option<Term> {
        self.map.get(v as usize).copied().flatten()
    }

    /// `t` under the substitution (unbound variables stay).
    pub fn apply_term(&self, t: Term) -> Term {
        match t {
            Term::Var(v) => self.get(v).unwrap_or(t),
            c => c,
        }
    }

    /// `a` under the substitution.
    pub fn apply(&self, a: &Atom) -> Atom {
        Atom {
            pred: a.pred,
            args: a.args.iter().map(|&t| self.apply_term(t)).collect(),
        }
    }

    /// Bound variables and their terms, by variable number.
    pub fn iter(&self) -> impl Iterator<Item = (u32, Term)> + '_ {
        self.map
            .iter()
            .enumerate()
            .filter_map(|(v, t)| t.map(|t| (v as u32, t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_print_with_letters_and_quotes() {
        let mut v = Vocabulary::new();
        let adv = v.pred("advisedby", 2);
        let yip = v.pred("yearsinprogram", 2);
        let y6 = v.intern("Year 6");
        let c = Clause::new(
            Atom::new(adv, vec![Term::Var(0), Term::Var(1)]),
            vec![Atom::new(yip, vec![Term::Var(0), Term::Const(y6)])],
        );
        assert_eq!(
            c.display(&v).to_string(),
            "advisedby(A, B) :- yearsinprogram(A, \"Year 6\")."
        );
        assert_eq!(c.n_vars(), 2);
        assert_eq!(var_name(27), "B1");
        let mut s = Substitution::new();
        s.bind(1, Term::Const(y6));
        assert_eq!(s.apply(&c.head).args[1], Term::Const(y6));
        assert_eq!(s.iter().count(), 1);
    }
}
