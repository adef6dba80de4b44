//! A generated UW-CSE-like relational problem of any size, for measuring
//! the loader and the learners at scale (rc-logic's `fact_load` example,
//! rc-benches' `scaling` binary).
//!
//! People, courses and titles; five background predicates of arity 1–3
//! (`professor`, `student`, `inphase`, `publication`, `taughtby`) in fixed
//! proportions, constants of 6–12 characters, about 32 bytes a fact line;
//! the target `advisedby` with 1,000 positive and 2,000 negative examples
//! on disjoint pairs of people. The texts depend only on the number of
//! facts (a fixed linear congruential stream), so a size names one data
//! set.

use std::fmt::Write as _;

use crate::data::{Problem, SplitText};
use crate::error::Result;

/// The target predicate of [`UwcseLike`].
pub const TARGET: &str = "advisedby";

/// The mode declarations of [`UwcseLike`] (a BoostSRL `background.txt`).
pub const BACKGROUND: &str = "\
mode: advisedby(+person,+person).
mode: professor(+person).
mode: student(+person).
mode: inphase(+person,#phase).
mode: publication(-title,+person).
mode: taughtby(+course,-person,#quarter).
";

/// Positive examples of [`UwcseLike`].
pub const N_POS: usize = 1000;
/// Negative examples of [`UwcseLike`].
pub const N_NEG: usize = 2000;

/// A small deterministic stream (Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// The texts of a generated UW-CSE-like training split in BoostSRL's
/// layout: one fact or example per line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UwcseLike {
    /// `train_facts.txt`: the background facts.
    pub facts: String,
    /// `train_pos.txt`: the positive `advisedby` examples.
    pub pos: String,
    /// `train_neg.txt`: the negative `advisedby` examples.
    pub neg: String,
}

impl UwcseLike {
    /// The texts with `n_facts` fact lines (some facts repeat, as random
    /// draws do: about 92% are distinct at 10⁶).
    pub fn generate(n_facts: usize) -> UwcseLike {
        let people = (n_facts / 10).max(10) as u64;
        let courses = (n_facts / 50).max(5) as u64;
        let titles = (n_facts / 4).max(10) as u64;
        let mut rng = Lcg(n_facts as u64);
        let mut facts = String::with_capacity(n_facts * 36);
        for i in 0..n_facts {
            // Writing to a String cannot fail.
            let _ = match i % 10 {
                0 => writeln!(facts, "professor(person{}).", rng.below(people)),
                1 => writeln!(facts, "student(person{}).", rng.below(people)),
                2 => writeln!(
                    facts,
                    "inphase(person{}, phase{}).",
                    rng.below(people),
                    rng.below(6)
                ),
                3..=7 => writeln!(
                    facts,
                    "publication(title{}, person{}).",
                    rng.below(titles),
                    rng.below(people)
                ),
                _ => writeln!(
                    facts,
                    "taughtby(course{}, person{}, quarter{}).",
                    rng.below(courses),
                    rng.below(people),
                    rng.below(12)
                ),
            };
        }
        let examples = |count: usize, offset: usize| {
            let mut text = String::with_capacity(count * 32);
            for k in 0..count {
                // Positives on even first people, negatives on odd ones: no
                // pair is both.
                let a = 2 * k + offset;
                let _ = writeln!(text, "{TARGET}(person{a}, person{}).", a + 1);
            }
            text
        };
        UwcseLike {
            facts,
            pos: examples(N_POS, 0),
            neg: examples(N_NEG, 1),
        }
    }

    /// The problem these texts make with [`BACKGROUND`] (no test split).
    ///
    /// # Errors
    /// As [`Problem::from_texts`]; the generated texts always parse.
    pub fn problem(&self) -> Result<Problem> {
        let train = SplitText {
            facts: (&self.facts, "train_facts.txt"),
            pos: (&self.pos, "train_pos.txt"),
            neg: (&self.neg, "train_neg.txt"),
        };
        Problem::from_texts((BACKGROUND, "background.txt"), TARGET, train, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_size_same_texts_and_the_problem_loads() {
        let a = UwcseLike::generate(500);
        assert_eq!(a, UwcseLike::generate(500));
        assert_ne!(a.facts, UwcseLike::generate(501).facts);
        assert_eq!(a.facts.lines().count(), 500);
        let p = a.problem().unwrap();
        assert_eq!(p.train.examples.len(), N_POS + N_NEG);
        assert!(p.train.facts.len() > 400 && p.train.facts.len() <= 500);
    }
}
