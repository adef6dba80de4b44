//! Interned symbols: every constant, predicate name and type name is a
//! [`Sym`] (a `u32`), every predicate (name and arity) a [`Pred`]. A
//! [`Vocabulary`] owns the strings.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

/// An interned string: a constant, a predicate name or a type name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Sym(pub u32);

/// A predicate: a name with an arity (`p/2` and `p/3` are different).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pred(pub u32);

/// A fast, non-cryptographic hasher for small integer keys (the
/// multiply–rotate scheme of rustc's FxHasher).
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(buf));
        }
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// `HashMap` with [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Owns the strings behind [`Sym`]s and the table of [`Pred`]s.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(from = "VocabularyData", into = "VocabularyData")]
pub struct Vocabulary {
    strings: Vec<String>,
    lookup: FxHashMap<String, u32>,
    preds: Vec<(Sym, usize)>,
    pred_lookup: FxHashMap<(u32, usize), u32>,
}

#[derive(Serialize, Deserialize)]
struct VocabularyData {
    strings: Vec<String>,
    preds: Vec<(Sym, usize)>,
}

impl From<VocabularyData> for Vocabulary {
    fn from(d: VocabularyData) -> Self {
        let lookup = d
            .strings
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), i as u32))
            .collect();
        let pred_lookup = d
            .preds
            .iter()
            .enumerate()
            .map(|(i, &(s, a))| ((s.0, a), i as u32))
            .collect();
        Vocabulary {
            strings: d.strings,
            lookup,
            preds: d.preds,
            pred_lookup,
        }
    }
}

impl From<Vocabulary> for VocabularyData {
    fn from(v: Vocabulary) -> Self {
        VocabularyData {
            strings: v.strings,
            preds: v.preds,
        }
    }
}

impl PartialEq for Vocabulary {
    fn eq(&self, other: &Self) -> bool {
        self.strings == other.strings && self.preds == other.preds
    }
}

impl Vocabulary {
    /// An empty vocabulary.
    pub fn new() -> Self {
        Self::default()
    }

    /// The symbol of `s`, interning it if new.
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&i) = self.lookup.get(s) {
            return Sym(i);
        }
        let i = self.strings.len() as u32;
        self.strings.push(s.to_string());
        self.lookup.insert(s.to_string(), i);
        Sym(i)
    }

    /// The symbol of `s` if it was interned.
    pub fn get(&self, s: &str) -> Option<Sym> {
        self.lookup.get(s).map(|&i| Sym(i))
    }

    /// The string of a symbol (`"?"` for a symbol of another vocabulary).
    pub fn name(&self, s: Sym) -> &str {
        self.strings.get(s.0 as usize).map_or("?", String::as_str)
    }

    /// Number of interned strings.
    pub fn n_symbols(&self) -> usize {
        self.strings.len()
    }

    /// The predicate `name/arity`, creating it if new.
    pub fn pred(&mut self, name: &str, arity: usize) -> Pred {
        let s = self.intern(name);
        if let Some(&p) = self.pred_lookup.get(&(s.0, arity)) {
            return Pred(p);
        }
        let p = self.preds.len() as u32;
        self.preds.push((s, arity));
        self.pred_lookup.insert((s.0, arity), p);
        Pred(p)
    }

    /// The predicate `name/arity` if it exists.
    pub fn find_pred(&self, name: &str, arity: usize) -> Option<Pred> {
        let s = self.get(name)?;
        self.pred_lookup.get(&(s.0, arity)).map(|&p| Pred(p))
    }

    /// Every predicate named `name`, whatever its arity.
    pub fn preds_named(&self, name: &str) -> Vec<Pred> {
        let Some(s) = self.get(name) else {
            return Vec::new();
        };
        self.preds
            .iter()
            .enumerate()
            .filter(|(_, &(n, _))| n == s)
            .map(|(i, _)| Pred(i as u32))
            .collect()
    }

    /// Name of a predicate.
    pub fn pred_name(&self, p: Pred) -> &str {
        self.preds
            .get(p.0 as usize)
            .map_or("?", |&(s, _)| self.name(s))
    }

    /// Arity of a predicate (0 for a predicate of another vocabulary).
    pub fn arity(&self, p: Pred) -> usize {
        self.preds.get(p.0 as usize).map_or(0, |&(_, a)| a)
    }

    /// Number of predicates.
    pub fn n_preds(&self) -> usize {
        self.preds.len()
    }

    /// Checks a vocabulary read from a file: distinct strings, predicates
    /// whose names are interned strings, no predicate listed twice.
    pub fn check(&self) -> Result<(), String> {
        if self.lookup.len() != self.strings.len() {
            let mut seen = std::collections::HashSet::new();
            let dup = self.strings.iter().find(|s| !seen.insert(s.as_str()));
            return Err(format!(
                "the vocabulary lists the string {:?} twice",
                dup.map_or("", String::as_str)
            ));
        }
        if let Some((i, &(s, a))) = self
            .preds
            .iter()
            .enumerate()
            .find(|(_, (s, _))| s.0 as usize >= self.strings.len())
        {
            return Err(format!(
                "predicate {i} (arity {a}) names symbol {} but the vocabulary has {} strings",
                s.0,
                self.strings.len()
            ));
        }
        if self.pred_lookup.len() != self.preds.len() {
            return Err("the vocabulary lists a predicate (name and arity) twice".into());
        }
        Ok(())
    }

    /// Every predicate, in creation order.
    pub fn preds(&self) -> impl Iterator<Item = Pred> + '_ {
        (0..self.preds.len() as u32).map(Pred)
    }
}

/// How a constant prints: bare when it reads back as a constant
/// (lower-case letter or digit first, then letters, digits, `_`), else
/// double-quoted.
pub fn constant_text(s: &str) -> String {
    let plain = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-');
    if plain && !s.ends_with('.') {
        s.to_string()
    } else {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_stable_and_serialises() {
        let mut v = Vocabulary::new();
        let a = v.intern("alice");
        assert_eq!(v.intern("alice"), a);
        let p2 = v.pred("p", 2);
        let p3 = v.pred("p", 3);
        assert_ne!(p2, p3);
        assert_eq!(v.pred("p", 2), p2);
        assert_eq!(v.pred_name(p3), "p");
        assert_eq!(v.arity(p3), 3);
        assert_eq!(v.preds_named("p"), vec![p2, p3]);
        let json = serde_json::to_string(&v).unwrap();
        let back: Vocabulary = serde_json::from_str(&json).unwrap();
        assert_eq!(back.get("alice"), Some(a));
        assert_eq!(back.find_pred("p", 3), Some(p3));
    }

    #[test]
    fn constants_print_quoted_when_needed() {
        assert_eq!(constant_text("year6"), "year6");
        assert_eq!(constant_text("Year 6"), "\"Year 6\"");
        assert_eq!(constant_text("0.5"), "0.5");
    }
}
