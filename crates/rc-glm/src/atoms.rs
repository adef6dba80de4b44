//! The atoms of each feature's literals: the training rows grouped by
//! which of one feature's literals hold on them. Every literal of the
//! feature is a union of its atoms, so the sums of a cost vector over
//! every literal of a feature take one pass over the rows (a histogram
//! of the atoms) instead of one pass per literal.
//!
//! A numeric feature with `m` thresholds has at most `m + 2` atoms (the
//! `m + 1` intervals and the missing values), a categorical feature one
//! per level (and missing), whatever literals the binarizer wrote (`<=`,
//! `>`, `==`, `!=`, missing tests): the atoms are read off the literal
//! columns themselves, so they are right for any literal set.
//!
//! The pricer ([`crate::pricing::beam_search`]) sums a literal's costs
//! atom by atom, in increasing atom order, each atom's rows in increasing
//! row order; the former per-literal pass summed the literal's rows in
//! row order. Both are the same sum up to floating-point rounding (about
//! `1e-16` relative), so a near-tie between two literals may rarely go
//! the other way.

use std::collections::HashMap;

use crate::bits::Bits;

/// The atoms of one feature's literals.
#[derive(Debug, Clone)]
struct FeatureAtoms {
    /// The literal (column) indices of the feature, increasing.
    literals: Vec<usize>,
    /// The atom of each row.
    atom_of_row: Vec<u16>,
    /// Number of atoms.
    n_atoms: usize,
    /// For each literal of `literals`, the atoms where it holds,
    /// increasing.
    members: Vec<Vec<u16>>,
}

/// The atoms of every feature whose literals can be grouped (at most 64
/// literals and 65,536 atoms a feature); the literals of other features
/// are summed one by one.
#[derive(Debug, Clone)]
pub(crate) struct LiteralAtoms {
    features: Vec<FeatureAtoms>,
    /// For each literal: `Some((feature group, position in its literals))`.
    slot: Vec<Option<(usize, usize)>>,
}

/// The most literals a feature may have to be grouped (one bit each in a
/// row's signature).
const MAX_LITERALS: usize = 64;

impl LiteralAtoms {
    /// The atoms of `columns`, column `j` a literal on feature
    /// `feature_of[j]`, over `n_rows` rows.
    pub(crate) fn new(n_rows: usize, columns: &[Bits], feature_of: &[usize]) -> Self {
        let mut by_feature: Vec<(usize, Vec<usize>)> = Vec::new();
        for (j, &f) in feature_of.iter().enumerate() {
            match by_feature.iter_mut().find(|(g, _)| *g == f) {
                Some((_, js)) => js.push(j),
                None => by_feature.push((f, vec![j])),
            }
        }
        let mut slot = vec![None; columns.len()];
        let mut features = Vec::new();
        for (_, literals) in by_feature {
            if literals.len() > MAX_LITERALS {
                continue;
            }
            let Some(atoms) = FeatureAtoms::new(n_rows, columns, literals) else {
                continue;
            };
            let g = features.len();
            for (k, &j) in atoms.literals.iter().enumerate() {
                slot[j] = Some((g, k));
            }
            features.push(atoms);
        }
        LiteralAtoms { features, slot }
    }

    /// `(Σ c_i, Σ max(c_i, 0))` over the rows of `rows` (words in `range`)
    /// where each literal holds, for every grouped literal of a feature
    /// that has one of `wanted`; indexed by literal, `None` for the
    /// others. One pass over `rows` per such feature, the features in
    /// parallel.
    pub(crate) fn literal_sums(
        &self,
        rows: &Bits,
        costs: &[f64],
        range: (usize, usize),
        wanted: &[usize],
    ) -> Vec<Option<(f64, f64)>> {
        use rayon::prelude::*;
        let mut needed = vec![false; self.features.len()];
        for &j in wanted {
            if let Some(Some((g, _))) = self.slot.get(j) {
                needed[*g] = true;
            }
        }
        let groups: Vec<usize> = (0..self.features.len()).filter(|&g| needed[g]).collect();
        let sums: Vec<Vec<(f64, f64)>> = groups
            .par_iter()
            .map(|&g| self.features[g].literal_sums(rows.words(), costs, range))
            .collect();
        let mut out = vec![None; self.slot.len()];
        for (&g, sums) in groups.iter().zip(sums) {
            for (&j, s) in self.features[g].literals.iter().zip(sums) {
                out[j] = Some(s);
            }
        }
        out
    }
}

impl FeatureAtoms {
    /// The atoms of the literals `literals` (at most [`MAX_LITERALS`]);
    /// `None` past 65,536 atoms.
    fn new(n_rows: usize, columns: &[Bits], literals: Vec<usize>) -> Option<Self> {
        let mut signature = vec![0u64; n_rows];
        for (k, &j) in literals.iter().enumerate() {
            for i in columns[j].iter() {
                signature[i] |= 1 << k;
            }
        }
        // Atoms numbered by first appearance in row order.
        let mut ids: HashMap<u64, u16> = HashMap::new();
        let mut signatures: Vec<u64> = Vec::new();
        let mut atom_of_row = Vec::with_capacity(n_rows);
        for &s in &signature {
            let id = match ids.get(&s) {
                Some(&id) => id,
                None => {
                    let id = u16::try_from(signatures.len()).ok()?;
                    ids.insert(s, id);
                    signatures.push(s);
                    id
                }
            };
            atom_of_row.push(id);
        }
        let members = (0..literals.len())
            .map(|k| {
                (0..signatures.len())
                    .filter(|&a| signatures[a] & (1 << k) != 0)
                    .map(|a| a as u16)
                    .collect()
            })
            .collect();
        Some(FeatureAtoms {
            literals,
            atom_of_row,
            n_atoms: signatures.len(),
            members,
        })
    }

    /// `(Σ c_i, Σ max(c_i, 0))` of each literal over the rows of `rows`
    /// (words in `range`), in `literals` order.
    fn literal_sums(&self, rows: &[u64], costs: &[f64], range: (usize, usize)) -> Vec<(f64, f64)> {
        let mut all = vec![0.0; self.n_atoms];
        let mut pos = vec![0.0; self.n_atoms];
        for (k, &word) in rows.iter().enumerate().take(range.1).skip(range.0) {
            let mut m = word;
            let base = k * 64;
            while m != 0 {
                let i = base + m.trailing_zeros() as usize;
                let a = self.atom_of_row[i] as usize;
                let c = costs[i];
                all[a] += c;
                pos[a] += c.max(0.0);
                m &= m - 1;
            }
        }
        self.members
            .iter()
            .map(|atoms| {
                atoms.iter().fold((0.0, 0.0), |(s, p), &a| {
                    (s + all[a as usize], p + pos[a as usize])
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::masked_sums;

    /// Literals `x <= t`, `x > t` for t in 1..4 and `x == 2`, over x in
    /// 0..5 repeating; a second feature with one literal.
    fn columns(n: usize) -> (Vec<Bits>, Vec<usize>) {
        let x: Vec<f64> = (0..n).map(|i| (i % 5) as f64).collect();
        let mut cols = Vec::new();
        let mut feat = Vec::new();
        for t in 1..4 {
            cols.push(Bits::from_predicate(&x, |v| v <= t as f64));
            cols.push(Bits::from_predicate(&x, |v| v > t as f64));
            feat.extend([0, 0]);
        }
        cols.push(Bits::from_predicate(&x, |v| v == 2.0));
        feat.push(0);
        let y: Vec<f64> = (0..n).map(|i| ((i * 7) % 3) as f64).collect();
        cols.push(Bits::from_predicate(&y, |v| v > 0.5));
        feat.push(1);
        (cols, feat)
    }

    #[test]
    fn atom_sums_equal_the_per_literal_sums() {
        let n = 1000;
        let (cols, feat) = columns(n);
        let atoms = LiteralAtoms::new(n, &cols, &feat);
        // x: intervals (≤1, 2, 3, >3) with `== 2` splitting none further.
        assert_eq!(atoms.features[0].n_atoms, 4);
        let costs: Vec<f64> = (0..n).map(|i| ((i * 37) % 11) as f64 - 5.0).collect();
        let mut rows = Bits::new(n);
        (0..n).filter(|i| i % 3 != 0).for_each(|i| rows.insert(i));
        let range = (0, rows.words().len());
        let all: Vec<usize> = (0..cols.len()).collect();
        let sums = atoms.literal_sums(&rows, &costs, range, &all);
        for j in 0..cols.len() {
            let want = masked_sums(rows.words(), cols[j].words(), &costs, range);
            // Integer costs: both orders sum exactly.
            assert_eq!(sums[j], Some(want), "literal {j}");
        }
        // Only the features asked for are summed.
        let only = atoms.literal_sums(&rows, &costs, range, &[cols.len() - 1]);
        assert!(only[0].is_none() && only[cols.len() - 1].is_some());
    }
}
