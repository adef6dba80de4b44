//! Per-column buffers filled as the records stream by, and what each one
//! becomes once every row is read.
//!
//! - [`NumberColumn`]: values parsed as `f64` on the fly (`NaN` marks a
//!   missing value). An undeclared column gives up at its first
//!   non-number, frees its values and is read again as text.
//! - [`Interned`]: each distinct text stored once, a `u32` code per row.
//! - [`SchemaLevels`]: values mapped to the level codes of a schema.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::schema::{abbreviated, parse_number, position_of_label, UnseenLevel};

/// Code of a missing value in [`Interned`] and [`SchemaLevels`].
pub(super) const MISSING: u32 = u32::MAX;
/// Code of a level the schema lacks, read as missing (`NaN`).
pub(super) const UNSEEN: u32 = u32::MAX - 1;

/// The first offending value of a column and how many there are.
#[derive(Debug, Clone)]
pub(super) struct Offending {
    /// 1-based data row of the first one.
    pub(super) row: usize,
    /// The first one.
    pub(super) value: String,
    /// How many.
    pub(super) count: usize,
}

impl Offending {
    fn note(slot: &mut Option<Offending>, row: usize, value: &str) {
        match slot {
            Some(o) => o.count += 1,
            None => {
                *slot = Some(Offending {
                    row,
                    value: value.to_string(),
                    count: 1,
                })
            }
        }
    }
}

/// A column read as numbers.
#[derive(Debug)]
pub(super) struct NumberColumn {
    /// One value per row; `NaN` for a missing (or offending) value.
    pub(super) values: Vec<f64>,
    /// Declared numeric: a non-number is an error, never a reason to
    /// read the column as categorical.
    declared: bool,
    /// Values that are numbers but not finite, and (declared) values
    /// that are not numbers.
    pub(super) bad: Option<Offending>,
    /// Undeclared column: the values that are not numbers (set at the
    /// first one; `values` is then dropped).
    pub(super) not_numbers: Option<Offending>,
}

impl NumberColumn {
    /// An empty column; `declared` forbids falling back to categories.
    pub(super) fn new(declared: bool) -> Self {
        NumberColumn {
            values: Vec::new(),
            declared,
            bad: None,
            not_numbers: None,
        }
    }

    /// Adds the value of data row `row` (1-based).
    #[inline]
    pub(super) fn push(&mut self, row: usize, text: &str, missing: bool) {
        if let Some(o) = &mut self.not_numbers {
            if !missing && text.parse::<f64>().is_err() {
                o.count += 1;
            }
            return;
        }
        if missing {
            self.values.push(f64::NAN);
            return;
        }
        match text.parse::<f64>() {
            Ok(x) if x.is_finite() => self.values.push(x),
            Ok(_) => {
                Offending::note(&mut self.bad, row, text);
                self.values.push(f64::NAN);
            }
            Err(_) if self.declared => {
                Offending::note(&mut self.bad, row, text);
                self.values.push(f64::NAN);
            }
            Err(_) => {
                Offending::note(&mut self.not_numbers, row, text);
                self.values = Vec::new();
                self.bad = None;
            }
        }
    }
}

/// A column of texts, each distinct one stored once.
#[derive(Debug)]
pub(super) struct Interned {
    by_text: HashMap<Box<str>, u32>,
    /// When set, texts that parse as the same number share a code
    /// (class labels: `1` = `1.0`, `0` = `-0`).
    by_number: Option<HashMap<u64, u32>>,
    /// The first spelling of each code.
    names: Vec<String>,
    /// One code per row; [`MISSING`] for a missing value.
    pub(super) codes: Vec<u32>,
}

impl Interned {
    /// Levels: every distinct text is its own level.
    pub(super) fn levels() -> Self {
        Interned {
            by_text: HashMap::new(),
            by_number: None,
            names: Vec::new(),
            codes: Vec::new(),
        }
    }

    /// Class labels: texts that parse as equal numbers are one label.
    pub(super) fn labels() -> Self {
        Interned {
            by_number: Some(HashMap::new()),
            ..Interned::levels()
        }
    }

    /// Number of distinct values so far.
    pub(super) fn len(&self) -> usize {
        self.names.len()
    }

    /// Adds one row's value.
    #[inline]
    pub(super) fn push(&mut self, text: &str, missing: bool) {
        let code = if missing { MISSING } else { self.code(text) };
        self.codes.push(code);
    }

    fn code(&mut self, text: &str) -> u32 {
        if let Some(&code) = self.by_text.get(text) {
            return code;
        }
        let Interned {
            by_number, names, ..
        } = self;
        let mut new_name = || {
            names.push(text.to_string());
            (names.len() - 1) as u32
        };
        let code = match (by_number, parse_number(text)) {
            (Some(map), Some(x)) if !x.is_nan() => {
                // `x + 0.0` turns -0 into 0.
                *map.entry((x + 0.0).to_bits()).or_insert_with(new_name)
            }
            _ => new_name(),
        };
        self.by_text.insert(text.into(), code);
        code
    }

    /// The names used by the kept rows in their order (numeric order when
    /// all parse as numbers, byte order otherwise), and the kept rows'
    /// codes in that order ([`MISSING`] stays).
    pub(super) fn finish(self, keep: Option<&[bool]>) -> (Vec<String>, Vec<u32>) {
        let mut used = vec![false; self.names.len()];
        for (i, &c) in self.codes.iter().enumerate() {
            if c != MISSING && keep.is_none_or(|k| k[i]) {
                used[c as usize] = true;
            }
        }
        let present: Vec<usize> = (0..self.names.len()).filter(|&c| used[c]).collect();
        let order = natural_order(
            &present
                .iter()
                .map(|&c| self.names[c].as_str())
                .collect::<Vec<_>>(),
        );
        let mut recode = vec![MISSING; self.names.len()];
        let mut names = Vec::with_capacity(order.len());
        let mut slots: Vec<Option<String>> = self.names.into_iter().map(Some).collect();
        for (new, &k) in order.iter().enumerate() {
            let old = present[k];
            recode[old] = new as u32;
            names.push(slots[old].take().unwrap_or_default());
        }
        let mut codes = self.codes;
        compact(&mut codes, keep);
        for c in &mut codes {
            if *c != MISSING {
                *c = recode[*c as usize];
            }
        }
        codes.shrink_to_fit();
        (names, codes)
    }
}

/// The order of level or class names: byte order, then numeric order
/// (stable) when every name parses as a number. Returns positions into
/// `names`.
pub(super) fn natural_order(names: &[&str]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| names[a].cmp(names[b]));
    let numbers: Option<Vec<f64>> = names.iter().map(|s| s.parse::<f64>().ok()).collect();
    if let Some(x) = numbers {
        order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    }
    order
}

/// Keeps the entries of `values` whose row is kept, in place.
pub(super) fn compact<T>(values: &mut Vec<T>, keep: Option<&[bool]>) {
    if let Some(keep) = keep {
        let mut i = 0;
        values.retain(|_| {
            i += 1;
            keep[i - 1]
        });
    }
}

/// A categorical column read with the levels of a schema.
#[derive(Debug)]
pub(super) struct SchemaLevels {
    levels: Vec<String>,
    unseen: UnseenLevel,
    /// The code of each text met so far ([`UNSEEN`] for unseen ones read
    /// as missing).
    cache: HashMap<Box<str>, u32>,
    /// One code per row; [`MISSING`] for a missing value.
    pub(super) codes: Vec<u32>,
}

impl SchemaLevels {
    /// An empty column with the schema's `levels`.
    pub(super) fn new(levels: Vec<String>, unseen: UnseenLevel) -> Self {
        SchemaLevels {
            levels,
            unseen,
            cache: HashMap::new(),
            codes: Vec::new(),
        }
    }

    /// The schema's levels.
    pub(super) fn levels(&self) -> &[String] {
        &self.levels
    }

    /// Adds the value of data row `row` (1-based); a level the schema
    /// lacks is [`Error::UnseenLevel`] unless the policy reads it as
    /// missing.
    #[inline]
    pub(super) fn push(
        &mut self,
        file: &str,
        column: &str,
        row: usize,
        text: &str,
        missing: bool,
    ) -> Result<()> {
        let code = if missing {
            MISSING
        } else if let Some(&code) = self.cache.get(text) {
            code
        } else {
            let code = match position_of_label(&self.levels, text) {
                Some(code) => code as u32,
                None => self.unseen(file, column, row, text)?,
            };
            self.cache.insert(text.into(), code);
            code
        };
        self.codes.push(code);
        Ok(())
    }

    /// What an unseen level becomes under the policy.
    pub(super) fn unseen(&self, file: &str, column: &str, row: usize, level: &str) -> Result<u32> {
        match self.unseen {
            UnseenLevel::Missing => Ok(UNSEEN),
            UnseenLevel::Error => Err(self.unseen_error(file, column, row, level)),
        }
    }

    fn unseen_error(&self, file: &str, column: &str, row: usize, level: &str) -> Error {
        Error::UnseenLevel {
            data: file.to_string(),
            column: column.to_string(),
            row,
            level: level.to_string(),
            known: abbreviated(&self.levels),
        }
    }
}
