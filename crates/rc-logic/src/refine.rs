//! Refinements from mode declarations: the literals that may be added to
//! a clause whose variables have known types.
//!
//! For a mode `p(m1 t1, …, mk tk)` an argument
//!
//! - `+t` (and `` `t ``) takes any existing variable of type `t` (the
//!   mode is skipped when there is none);
//! - `-t` (and `&t`) takes a new variable of type `t` or any existing one
//!   of that type (as BoostSRL does: `publication(C, A)` after
//!   `publication(C, B)` reuses `C`);
//! - `#t` takes a constant: the refinement carries a *slot* variable that
//!   the learner fills with each constant found in the data.
//!
//! Modes without any input argument, and (unless recursion is allowed)
//! modes of the target itself, are not used. A literal identical to one
//! already in the clause is skipped. The learner drops, in addition, a
//! literal that on the seed examples only matches the same facts as an
//! earlier literal of its predicate (BoostSRL's rule, see
//! [`crate::learn::TreeParams::distinct_matches`]): that depends on the
//! data, not on the modes.

use crate::data::{Background, Mode};
use crate::parser::ArgMode;
use crate::symbols::{Pred, Sym};
use crate::term::{Atom, Term};

/// The modes a learner may use, with the head's types.
#[derive(Debug, Clone)]
pub struct LanguageBias {
    /// The target predicate.
    pub target: Pred,
    /// Types of the head variables.
    pub head_types: Vec<Sym>,
    /// Usable modes.
    pub modes: Vec<Mode>,
}

impl LanguageBias {
    /// The usable modes of a background for `target` (its own modes only
    /// when `recursion` is true).
    pub fn new(
        background: &Background,
        target: Pred,
        head_types: Vec<Sym>,
        recursion: bool,
    ) -> Self {
        let modes = background
            .modes
            .iter()
            .filter(|m| recursion || m.pred != target)
            .filter(|m| m.args.iter().any(|(k, _)| k.is_input()))
            .cloned()
            .collect();
        LanguageBias {
            target,
            head_types,
            modes,
        }
    }
}

/// A literal that may be added to a clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refinement {
    /// The literal. New variables are numbered from the clause's variable
    /// count up, then slot variables.
    pub atom: Atom,
    /// New variables and their types.
    pub new_vars: Vec<(u32, Sym)>,
    /// Slot variables (to be replaced by constants) and their types.
    pub slots: Vec<(u32, Sym)>,
}

#[derive(Clone, Copy)]
enum Choice {
    Old(u32),
    New,
    Slot,
}

/// The refinements of a clause with typed variables `vars` (variable,
/// type) and body `body`, in mode order. New variables are numbered from
/// `next_var` up.
pub fn refinements(
    bias: &LanguageBias,
    vars: &[(u32, Sym)],
    next_var: u32,
    body: &[Atom],
) -> Vec<Refinement> {
    let n_vars = next_var;
    let mut out: Vec<Refinement> = Vec::new();
    for m in &bias.modes {
        let mut options: Vec<Vec<Choice>> = Vec::with_capacity(m.args.len());
        let mut ok = true;
        for &(kind, ty) in &m.args {
            let olds = vars
                .iter()
                .filter(|(_, t)| *t == ty)
                .map(|&(v, _)| Choice::Old(v));
            let opts: Vec<Choice> = match kind {
                ArgMode::Input | ArgMode::Backtick => olds.collect(),
                ArgMode::Output | ArgMode::Any => {
                    std::iter::once(Choice::New).chain(olds).collect()
                }
                ArgMode::Constant => vec![Choice::Slot],
            };
            if opts.is_empty() {
                ok = false;
                break;
            }
            options.push(opts);
        }
        if !ok {
            continue;
        }
        let mut idx = vec![0usize; options.len()];
        loop {
            let mut next_new = n_vars;
            let mut new_vars = Vec::new();
            let mut slot_types = Vec::new();
            let mut args = Vec::with_capacity(idx.len());
            let mut uses_old = false;
            for (a, &i) in idx.iter().enumerate() {
                let ty = m.args[a].1;
                match options[a][i] {
                    Choice::Old(v) => {
                        uses_old = true;
                        args.push(Term::Var(v));
                    }
                    Choice::New => {
                        new_vars.push((next_new, ty));
                        args.push(Term::Var(next_new));
                        next_new += 1;
                    }
                    Choice::Slot => {
                        slot_types.push((a, ty));
                        args.push(Term::Const(Sym(u32::MAX)));
                    }
                }
            }
            if uses_old {
                let mut slots = Vec::new();
                for (a, ty) in slot_types {
                    args[a] = Term::Var(next_new);
                    slots.push((next_new, ty));
                    next_new += 1;
                }
                let atom = Atom::new(m.pred, args);
                let duplicate_of_body =
                    new_vars.is_empty() && slots.is_empty() && body.contains(&atom);
                if !duplicate_of_body && !out.iter().any(|r| r.atom == atom && r.slots == slots) {
                    out.push(Refinement {
                        atom,
                        new_vars,
                        slots,
                    });
                }
            }
            // Next combination (odometer).
            let mut done = true;
            let mut k = idx.len();
            while k > 0 {
                k -= 1;
                idx[k] += 1;
                if idx[k] < options[k].len() {
                    done = false;
                    break;
                }
                idx[k] = 0;
            }
            if done {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Background;
    use crate::symbols::Vocabulary;

    #[test]
    fn modes_generate_bound_new_and_constant_arguments() {
        let mut v = Vocabulary::new();
        let bg = Background::parse_str(
            "advisedby(+person,+person).\npublication(-title,+person).\nyears(+person,#n).\nta(+course,+person).\n",
            "bk",
            &mut v,
        )
        .unwrap();
        let target = v.find_pred("advisedby", 2).unwrap();
        let person = v.get("person").unwrap();
        let bias = LanguageBias::new(&bg, target, vec![person, person], false);
        assert_eq!(bias.modes.len(), 3);
        let r = refinements(&bias, &[(0, person), (1, person)], 2, &[]);
        let shown: Vec<String> = r
            .iter()
            .map(|x| {
                crate::term::Clause::new(Atom::new(target, vec![]), vec![x.atom.clone()])
                    .display(&v)
                    .to_string()
            })
            .collect();
        // publication(new, A), publication(new, B), years(A, slot), years(B, slot); ta needs a course.
        assert_eq!(shown.len(), 4, "{shown:?}");
        assert_eq!(r[0].new_vars.len(), 1);
        assert_eq!(r[2].slots.len(), 1);
        // With a title variable C, publication(C, A) reuses it.
        let title = v.get("title").unwrap();
        let r2 = refinements(&bias, &[(0, person), (1, person), (2, title)], 3, &[]);
        assert!(r2
            .iter()
            .any(|x| x.atom.args == vec![Term::Var(2), Term::Var(0)]));
    }
}
