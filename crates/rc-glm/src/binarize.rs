//! The feature binarizer of the paper (Sec. 2, 5): numeric features become
//! `x <= t` / `x > t` at sample quantiles (deciles by default),
//! categorical features `x == v` / `x != v`, missing values an explicit
//! indicator; numeric features are also standardised for the linear terms
//! of the "N" variants.
//!
//! Thresholds follow AIX360's `FeatureBinarizer`: the quantiles at
//! probabilities `k / (m + 1)`, `k = 1..m` (`m = n_thresholds`), with
//! linear interpolation between order statistics (NumPy's and pandas'
//! default), missing values ignored, duplicates dropped. A column with at
//! most `m + 1` distinct values uses every distinct value but the largest.
//! A threshold at the column's maximum would make `x <= t` true on every
//! non-missing row and is dropped too.
//!
//! With sample weights ([`Binarizer::fit_weighted`]) the quantiles are
//! those of the data with each row repeated as often as its weight says
//! (a row of weight `w` fills `w` consecutive places of the sorted column,
//! `W = Σ w` places in all, and the `q`-quantile sits at place
//! `(W − 1)·q`), so integer weights give exactly the thresholds of the
//! duplicated rows; the means and standard deviations of the linear terms
//! are weighted means too.
//!
//! Columns are kept or dropped as follows (reported by
//! [`Binarizer::dropped`]): a constant column without missing values and a
//! column with every value missing give no literal; a constant column with
//! some missing values keeps only its missing-value indicator. A
//! categorical column with exactly two levels present (and no missing
//! value) gives one literal `== v` and its negation, as the two `==`
//! literals would be complements.

use serde::{Deserialize, Serialize};

use rulecover_core::{Dataset, Feature, FeatureKind};

use std::sync::OnceLock;

use crate::atoms::LiteralAtoms;
use crate::bits::Bits;
use crate::error::{invalid, Error, Result};
use crate::literal::{Literal, LiteralOp};
use crate::sample::mean_and_variance;

/// How to binarize features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BinarizerParams {
    /// Number of quantile thresholds per numeric feature (9: deciles).
    pub n_thresholds: usize,
    /// Also make the negations (`>`, `!=`, `is not missing`) of every
    /// literal (true). Column generation needs them; LR1 drops them.
    pub negations: bool,
}

impl Default for BinarizerParams {
    fn default() -> Self {
        BinarizerParams {
            n_thresholds: 9,
            negations: true,
        }
    }
}

impl BinarizerParams {
    /// Sets the number of quantile thresholds per numeric feature (≥ 1).
    pub fn n_thresholds(mut self, m: usize) -> Self {
        self.n_thresholds = m;
        self
    }

    /// Sets whether negated literals are made.
    pub fn negations(mut self, on: bool) -> Self {
        self.negations = on;
        self
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<()> {
        if self.n_thresholds == 0 {
            return Err(invalid(
                "n_thresholds",
                0,
                "at least one threshold per numeric feature is needed",
            ));
        }
        Ok(())
    }

    /// Fits a binarizer to the rows of `data`.
    pub fn fit(&self, data: &Dataset) -> Result<Binarizer> {
        Binarizer::fit(self, data)
    }

    /// Fits a binarizer to the rows of `data` weighted by `weights` (one
    /// positive weight per row; see the module documentation).
    pub fn fit_weighted(&self, data: &Dataset, weights: &[f64]) -> Result<Binarizer> {
        Binarizer::fit_weighted(self, data, Some(weights))
    }
}

/// Why the binarizer dropped a feature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DropReason {
    /// Every value is missing.
    AllMissing,
    /// A single value and no missing value.
    Constant,
}

/// Mean and standard deviation of a numeric feature (population
/// standard deviation, as scikit-learn's `StandardScaler`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Standardizer {
    /// Column of the raw data.
    pub feature: usize,
    /// Mean of the non-missing training values.
    pub mean: f64,
    /// Their standard deviation (> 0).
    pub std: f64,
}

impl Standardizer {
    /// `(x − mean) / std`, with 0 for a missing value (AIX360's choice).
    #[inline]
    pub fn apply(&self, x: f64) -> f64 {
        if x.is_nan() {
            0.0
        } else {
            (x - self.mean) / self.std
        }
    }
}

/// A fitted binarizer: the literals of every feature.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Binarizer {
    features: Vec<Feature>,
    literals: Vec<Literal>,
    primary: Vec<bool>,
    thresholds: Vec<Vec<f64>>,
    standardizers: Vec<Standardizer>,
    dropped: Vec<(String, DropReason)>,
    /// Whether each feature had a missing value in the training rows.
    #[serde(default)]
    had_missing: Vec<bool>,
}

/// The binarized training rows: one bitset of covered rows per literal.
#[derive(Debug, Clone)]
pub struct BinaryMatrix {
    n_rows: usize,
    columns: Vec<Bits>,
    /// The raw feature of each column's literal.
    feature_of: Vec<usize>,
    /// The atoms of each feature's literals, built on first use by the
    /// pricer ([`crate::atoms`]).
    atoms: OnceLock<LiteralAtoms>,
}

impl PartialEq for BinaryMatrix {
    /// The rows, columns and features (the atoms follow from them).
    fn eq(&self, other: &Self) -> bool {
        self.n_rows == other.n_rows
            && self.columns == other.columns
            && self.feature_of == other.feature_of
    }
}

impl BinaryMatrix {
    /// Number of rows.
    pub fn n_rows(&self) -> usize {
        self.n_rows
    }

    /// Number of literals (columns).
    pub fn n_columns(&self) -> usize {
        self.columns.len()
    }

    /// The rows where literal `j` holds, in increasing order.
    pub fn rows(&self, j: usize) -> Vec<usize> {
        self.columns[j].iter().collect()
    }

    /// Number of rows where literal `j` holds.
    pub fn count(&self, j: usize) -> usize {
        self.columns[j].count()
    }

    pub(crate) fn bits(&self, j: usize) -> &Bits {
        &self.columns[j]
    }

    /// The atoms of each feature's literals ([`crate::atoms`]), built
    /// on the first call.
    pub(crate) fn atoms(&self) -> &LiteralAtoms {
        self.atoms
            .get_or_init(|| LiteralAtoms::new(self.n_rows, &self.columns, &self.feature_of))
    }

    /// Whether literal `j` holds on row `i`.
    pub fn get(&self, i: usize, j: usize) -> bool {
        self.columns[j].contains(i)
    }
}

/// The `q`-quantile of sorted values with linear interpolation between
/// order statistics (NumPy's default `method="linear"`).
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    let frac = h - lo as f64;
    if frac == 0.0 {
        sorted[lo]
    } else {
        sorted[lo] + frac * (sorted[hi] - sorted[lo])
    }
}

/// The `q`-quantile of values sorted increasingly with positive weights,
/// as [`quantile_sorted`] of the values repeated by their weights: the
/// place `h = (W − 1)·q` (`W = Σ weights`) is interpolated linearly
/// between the values at places `⌊h⌋` and `⌊h⌋ + 1`, where value `k`
/// fills the places `[Σ_{l<k} w_l, Σ_{l≤k} w_l)`. Unit weights give
/// [`quantile_sorted`] exactly.
pub fn weighted_quantile_sorted(sorted: &[f64], weights: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    let total: f64 = weights.iter().sum();
    let h = ((total - 1.0) * q).max(0.0);
    let lo = h.floor();
    let frac = h - lo;
    // The value filling place `p`: the first whose cumulative weight
    // exceeds `p` (the last one past the end).
    let at = |p: f64| -> f64 {
        let mut cum = 0.0;
        for (v, w) in sorted.iter().zip(weights) {
            cum += w;
            if cum > p {
                return *v;
            }
        }
        sorted[n - 1]
    };
    let a = at(lo);
    if frac == 0.0 {
        a
    } else {
        a + frac * (at(lo + 1.0) - a)
    }
}

/// The thresholds of a numeric column with positive row weights
/// (non-missing values, any order): [`numeric_thresholds`] of the column
/// with every row repeated as often as its weight says.
pub fn numeric_thresholds_weighted(values: &[f64], weights: &[f64], m: usize) -> Vec<f64> {
    let mut pairs: Vec<(f64, f64)> = values
        .iter()
        .zip(weights)
        .filter(|(v, _)| !v.is_nan())
        .map(|(&v, &w)| (v, w))
        .collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let sorted: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let w: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let mut uniq = sorted.clone();
    uniq.dedup();
    if uniq.len() <= 1 {
        return Vec::new();
    }
    let max = uniq[uniq.len() - 1];
    if uniq.len() <= m + 1 {
        uniq.pop();
        return uniq;
    }
    let mut t: Vec<f64> = (1..=m)
        .map(|k| weighted_quantile_sorted(&sorted, &w, k as f64 / (m + 1) as f64))
        .collect();
    t.dedup();
    t.retain(|&v| v < max);
    t
}

/// The thresholds of a numeric column (non-missing values, any order):
/// see the module documentation.
pub fn numeric_thresholds(values: &[f64], m: usize) -> Vec<f64> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
    // Values equal under `total_cmp` are the same bits: an unstable sort
    // gives the same sequence.
    sorted.sort_unstable_by(f64::total_cmp);
    let mut uniq = sorted.clone();
    uniq.dedup();
    if uniq.len() <= 1 {
        return Vec::new();
    }
    let max = uniq[uniq.len() - 1];
    if uniq.len() <= m + 1 {
        uniq.pop();
        return uniq;
    }
    let mut t: Vec<f64> = (1..=m)
        .map(|k| quantile_sorted(&sorted, k as f64 / (m + 1) as f64))
        .collect();
    t.dedup();
    t.retain(|&v| v < max);
    t
}

impl Binarizer {
    /// Fits the literals of every feature of `data` (see the module
    /// documentation).
    pub fn fit(params: &BinarizerParams, data: &Dataset) -> Result<Binarizer> {
        Binarizer::fit_weighted(params, data, None)
    }

    /// Fits the literals of every feature of `data` with one positive
    /// weight per row (`None`: unweighted, the same as [`Binarizer::fit`]).
    pub fn fit_weighted(
        params: &BinarizerParams,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<Binarizer> {
        params.validate()?;
        if let Some(w) = weights {
            if w.len() != data.n_rows() {
                return Err(Error::Shape(format!(
                    "{} sample weights for the {} rows of '{}'",
                    w.len(),
                    data.n_rows(),
                    data.name()
                )));
            }
            if let Some((row, &value)) = w
                .iter()
                .enumerate()
                .find(|(_, w)| !(w.is_finite() && **w > 0.0))
            {
                return Err(Error::InvalidParameter {
                    name: "sample_weight",
                    value: format!("{value} (row {row})"),
                    reason: "the binarizer needs finite weights > 0",
                });
            }
        }
        if data.n_rows() == 0 {
            return Err(Error::EmptyData {
                dataset: data.name().to_string(),
            });
        }
        let mut b = Binarizer {
            features: data.features().to_vec(),
            literals: Vec::new(),
            primary: Vec::new(),
            thresholds: vec![Vec::new(); data.n_features()],
            standardizers: Vec::new(),
            dropped: Vec::new(),
            had_missing: vec![false; data.n_features()],
        };
        for (j, feat) in data.features().iter().enumerate() {
            let col = data.column(j);
            check_finite(feat, &col)?;
            let n_missing = col.iter().filter(|v| v.is_nan()).count();
            b.had_missing[j] = n_missing > 0;
            if n_missing == col.len() {
                b.dropped.push((feat.name.clone(), DropReason::AllMissing));
                continue;
            }
            let before = b.literals.len();
            match &feat.kind {
                FeatureKind::Categorical { levels } => {
                    let mut present = vec![false; levels.len()];
                    for &v in col.iter().filter(|v| !v.is_nan()) {
                        if let Some(p) = present.get_mut(v as usize) {
                            *p = true;
                        }
                    }
                    let codes: Vec<usize> = (0..levels.len()).filter(|&c| present[c]).collect();
                    if codes.len() == 2 && n_missing == 0 {
                        b.push_pair(params, Literal::new(j, LiteralOp::Eq, codes[1] as f64));
                    } else if codes.len() >= 2 {
                        for &c in &codes {
                            b.push_pair(params, Literal::new(j, LiteralOp::Eq, c as f64));
                        }
                    }
                }
                FeatureKind::Numeric | FeatureKind::Indicator { .. } => {
                    let t = match weights {
                        None => numeric_thresholds(&col, params.n_thresholds),
                        Some(w) => numeric_thresholds_weighted(&col, w, params.n_thresholds),
                    };
                    for &v in &t {
                        b.push(Literal::new(j, LiteralOp::Le, v), true);
                    }
                    if params.negations {
                        for &v in &t {
                            b.push(Literal::new(j, LiteralOp::Gt, v), false);
                        }
                    }
                    if !t.is_empty() && matches!(feat.kind, FeatureKind::Numeric) {
                        let present: Vec<usize> =
                            (0..col.len()).filter(|&i| !col[i].is_nan()).collect();
                        let vals: Vec<f64> = present.iter().map(|&i| col[i]).collect();
                        let vw: Option<Vec<f64>> =
                            weights.map(|w| present.iter().map(|&i| w[i]).collect());
                        let (mean, var) = mean_and_variance(&vals, vw.as_deref());
                        if var > 0.0 {
                            b.standardizers.push(Standardizer {
                                feature: j,
                                mean,
                                std: var.sqrt(),
                            });
                        }
                    }
                    b.thresholds[j] = t;
                }
            }
            if n_missing > 0 {
                b.push_pair(params, Literal::new(j, LiteralOp::Missing, 0.0));
            }
            if b.literals.len() == before {
                b.dropped.push((feat.name.clone(), DropReason::Constant));
            }
        }
        if b.literals.is_empty() {
            let dropped: Vec<String> = b
                .dropped
                .iter()
                .map(|(f, r)| format!("'{f}' {r:?}"))
                .collect();
            return Err(Error::NoUsableFeatures {
                dataset: data.name().to_string(),
                dropped: dropped.join(", "),
            });
        }
        Ok(b)
    }

    fn push(&mut self, l: Literal, primary: bool) {
        self.literals.push(l);
        self.primary.push(primary);
    }

    fn push_pair(&mut self, params: &BinarizerParams, l: Literal) {
        self.push(l, true);
        if params.negations {
            self.push(l.complement(), false);
        }
    }

    /// The raw features the binarizer was fitted on.
    pub fn features(&self) -> &[Feature] {
        &self.features
    }

    /// Every literal, feature by feature.
    pub fn literals(&self) -> &[Literal] {
        &self.literals
    }

    /// Whether literal `j` is the kept member of its complementary pair
    /// (`<=`, `==`, `is missing`), i.e. one of LR1's singleton rules.
    pub fn is_primary(&self, j: usize) -> bool {
        self.primary[j]
    }

    /// Indices of the primary literals (LR1's columns).
    pub fn primary_literals(&self) -> Vec<usize> {
        (0..self.literals.len())
            .filter(|&j| self.primary[j])
            .collect()
    }

    /// The thresholds of feature `j` (empty for categorical features).
    pub fn thresholds(&self, j: usize) -> &[f64] {
        &self.thresholds[j]
    }

    /// Standardizers of the numeric features with positive variance (the
    /// linear terms of the "N" variants).
    pub fn standardizers(&self) -> &[Standardizer] {
        &self.standardizers
    }

    /// Whether feature `j` had a missing value in the training rows (its
    /// literals then include `is missing`).
    pub fn had_missing(&self, j: usize) -> bool {
        self.had_missing.get(j).copied().unwrap_or(false)
    }

    /// Features that produced no literal, and why.
    pub fn dropped(&self) -> &[(String, DropReason)] {
        &self.dropped
    }

    /// Checks that `data` has the training features (count and names).
    pub fn check_features(&self, data: &Dataset) -> Result<()> {
        if data.n_features() != self.features.len() {
            return Err(Error::Shape(format!(
                "the model was fitted on {} features but data set '{}' has {}",
                self.features.len(),
                data.name(),
                data.n_features()
            )));
        }
        for (a, b) in self.features.iter().zip(data.features()) {
            if a.name != b.name {
                return Err(Error::Shape(format!(
                    "feature '{}' of the training data is '{}' in data set '{}'",
                    a.name,
                    b.name,
                    data.name()
                )));
            }
        }
        Ok(())
    }

    /// The rows of `data` as a numeric data set of 0/1 columns, one per
    /// primary literal (named by the literal, e.g. `age <= 37`), with the
    /// same target: the input of tree learners that should split at the
    /// binarizer's thresholds (RuleFit, the GBT baseline), as the paper
    /// does "to control for discretization".
    pub fn indicator_dataset(&self, data: &Dataset) -> Result<Dataset> {
        let m = self.transform(data)?;
        let mut features = Vec::new();
        let mut columns = Vec::new();
        for j in self.primary_literals() {
            features.push(Feature::numeric(
                self.literals[j].display(&self.features).to_string(),
            ));
            let mut col = vec![0.0; m.n_rows()];
            for i in m.bits(j).iter() {
                col[i] = 1.0;
            }
            columns.push(col);
        }
        Ok(Dataset::new(
            data.name(),
            features,
            columns,
            data.target_view(),
        )?)
    }

    /// The binarized rows of `data`: one bitset per literal.
    pub fn transform(&self, data: &Dataset) -> Result<BinaryMatrix> {
        self.check_features(data)?;
        let n = data.n_rows();
        let mut columns = Vec::with_capacity(self.literals.len());
        let mut cache: Option<(usize, Vec<f64>, Option<ValueIndex>)> = None;
        for l in &self.literals {
            if cache.as_ref().is_none_or(|(f, _, _)| *f != l.feature) {
                let col = data.column(l.feature).into_owned();
                check_finite(&self.features[l.feature], &col)?;
                cache = Some((l.feature, col, None));
            }
            let Some((_, col, index)) = cache.as_mut() else {
                continue;
            };
            let v = l.value;
            if matches!(
                l.op,
                LiteralOp::Le | LiteralOp::Gt | LiteralOp::Eq | LiteralOp::Ne
            ) && !v.is_nan()
            {
                // The comparisons of one feature, from its rows bucketed
                // by the feature's literal values.
                let index = index.get_or_insert_with(|| {
                    let of_feature = || {
                        self.literals
                            .iter()
                            .filter(|m| m.feature == l.feature && !m.value.is_nan())
                    };
                    let order = of_feature().any(|m| matches!(m.op, LiteralOp::Le | LiteralOp::Gt));
                    let equality =
                        of_feature().any(|m| matches!(m.op, LiteralOp::Eq | LiteralOp::Ne));
                    let values = of_feature()
                        .filter(|m| !matches!(m.op, LiteralOp::Missing | LiteralOp::NotMissing))
                        .map(|m| m.value);
                    ValueIndex::new(col, values, order, equality)
                });
                columns.push(index.bits(l.op, v));
                continue;
            }
            // One loop per op (the same tests as `Literal::holds`), each
            // packing 64 rows a word without a branch per row.
            let set = match l.op {
                LiteralOp::Le => Bits::from_predicate(col, |x| x <= v),
                LiteralOp::Gt => Bits::from_predicate(col, |x| x > v),
                LiteralOp::Eq => Bits::from_predicate(col, |x| x == v),
                LiteralOp::Ne => Bits::from_predicate(col, |x| x != v),
                LiteralOp::Missing => Bits::from_predicate(col, |x| x.is_nan()),
                LiteralOp::NotMissing => Bits::from_predicate(col, |x| !x.is_nan()),
            };
            columns.push(set);
        }
        Ok(BinaryMatrix {
            n_rows: n,
            columns,
            feature_of: self.literals.iter().map(|l| l.feature).collect(),
            atoms: OnceLock::new(),
        })
    }
}

/// The rows of one column against a sorted set of values (the values of
/// one feature's literals): for each value `t_a`, the rows with `x <= t_a`
/// and the rows with `x == t_a`. Each row is placed once, by its count of
/// values below it (`x <= t_a` exactly when at most `a` values are below
/// `x`), and the `<=` sets are then a running union copied once per value:
/// `O(n log values + values · n/64)` instead of one comparison per row and
/// literal.
struct ValueIndex {
    /// The distinct values, increasing.
    values: Vec<f64>,
    /// `le[a]`: the rows with `x <= values[a]` (missing values excluded;
    /// empty unless the index was built with `order`).
    le: Vec<Bits>,
    /// `eq[a]`: the rows with `x == values[a]` (empty unless built with
    /// `equality`).
    eq: Vec<Bits>,
    /// The rows with a value (not missing).
    present: Bits,
    /// Number of rows.
    n: usize,
}

impl ValueIndex {
    /// The index of `col` for the (finite, not missing) `values`, with
    /// the `<=` sets when `order` and the `==` sets when `equality`.
    fn new(col: &[f64], values: impl Iterator<Item = f64>, order: bool, equality: bool) -> Self {
        let n = col.len();
        let mut values: Vec<f64> = values.collect();
        values.sort_unstable_by(f64::total_cmp);
        values.dedup_by(|a, b| a == b);
        let k = values.len();
        let present = Bits::from_predicate(col, |x| !x.is_nan());
        // Each row's count of values below it (`k` above every value).
        let below: Vec<u32> = col
            .iter()
            .map(|&x| {
                if x.is_nan() {
                    u32::MAX
                } else {
                    values.partition_point(|&t| t < x) as u32
                }
            })
            .collect();
        let mut eq = Vec::new();
        if equality {
            eq = vec![Bits::new(n); k];
            for (i, (&a, &x)) in below.iter().zip(col).enumerate() {
                let a = a as usize;
                if a < k && values[a] == x {
                    eq[a].insert(i);
                }
            }
        }
        let mut le = Vec::new();
        if order {
            // The rows by their count, in increasing row order (a counting
            // sort), added to a running set one count at a time.
            let mut start = vec![0usize; k + 2];
            for &a in &below {
                if (a as usize) < k {
                    start[a as usize + 1] += 1;
                }
            }
            for a in 0..=k {
                start[a + 1] += start[a];
            }
            let mut rows = vec![0u32; start[k]];
            let mut next = start.clone();
            for (i, &a) in below.iter().enumerate() {
                if (a as usize) < k {
                    rows[next[a as usize]] = i as u32;
                    next[a as usize] += 1;
                }
            }
            le.reserve(k);
            let mut running = Bits::new(n);
            for a in 0..k {
                for &i in &rows[start[a]..start[a + 1]] {
                    running.insert(i as usize);
                }
                le.push(running.clone());
            }
        }
        ValueIndex {
            values,
            le,
            eq,
            present,
            n,
        }
    }

    /// The rows of the literal `x op v` (`v` one of the index's values
    /// for `<=`, `>`, `==`, `!=`; ignored for the missing-value tests).
    fn bits(&self, op: LiteralOp, v: f64) -> Bits {
        let a = self.values.partition_point(|&t| t < v);
        debug_assert!(a < self.values.len() && self.values[a] == v);
        match op {
            LiteralOp::Le => self.le[a].clone(),
            LiteralOp::Gt => self.present.and_not(&self.le[a]),
            LiteralOp::Eq => self.eq[a].clone(),
            LiteralOp::Ne => Bits::full(self.n).and_not(&self.eq[a]),
            LiteralOp::Missing => Bits::full(self.n).and_not(&self.present),
            LiteralOp::NotMissing => self.present.clone(),
        }
    }
}

fn check_finite(feat: &Feature, col: &[f64]) -> Result<()> {
    if let Some((row, &value)) = col.iter().enumerate().find(|(_, v)| v.is_infinite()) {
        return Err(Error::NonFiniteFeature {
            feature: feat.name.clone(),
            row,
            value,
        });
    }
    Ok(())
}

impl rulecover_core::Validate for Binarizer {
    /// Every literal reads a feature in range (with a value that is a
    /// number where it compares one); one `primary` flag per literal; one
    /// list of thresholds (no NaN) per feature; the
    /// standardizers read features in range with a finite mean and a
    /// positive finite deviation.
    fn validate(&self) -> rulecover_core::validate::Validity {
        use rulecover_core::validate::{finite, index, length, InvalidModel};
        let n = self.features.len();
        length(
            || "primary".into(),
            self.primary.len(),
            self.literals.len(),
            "literals",
        )?;
        for (i, l) in self.literals.iter().enumerate() {
            crate::validate::check_literal(l, n)
                .map_err(|e| e.within(&format!("literals[{i}]")))?;
        }
        length(|| "thresholds".into(), self.thresholds.len(), n, "features")?;
        for (j, t) in self.thresholds.iter().enumerate() {
            if let Some(i) = t.iter().position(|x| x.is_nan()) {
                return Err(InvalidModel::new(
                    format!("thresholds[{j}][{i}]"),
                    "NaN where a number is needed",
                ));
            }
        }
        if !self.had_missing.is_empty() {
            length(
                || "had_missing".into(),
                self.had_missing.len(),
                n,
                "features",
            )?;
        }
        for (i, s) in self.standardizers.iter().enumerate() {
            let at = |f: &str| format!("standardizers[{i}].{f}");
            index(|| at("feature"), s.feature, n, "features")?;
            finite(|| at("mean"), s.mean)?;
            finite(|| at("std"), s.std)?;
            if s.std <= 0.0 {
                return Err(InvalidModel::new(at("std"), "is not positive"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulecover_core::Target;

    fn data(cols: Vec<Vec<f64>>, features: Vec<Feature>) -> Dataset {
        let n = cols[0].len();
        Dataset::new(
            "t",
            features,
            cols,
            Target::Classes {
                labels: (0..n).map(|i| i % 2).collect(),
                names: vec!["a".into(), "b".into()],
            },
        )
        .unwrap()
    }

    #[test]
    fn deciles_of_one_to_twenty_one() {
        // 21 values 0..=20: the k/10 quantile sits exactly on 2k.
        let v: Vec<f64> = (0..=20).map(f64::from).collect();
        let t = numeric_thresholds(&v, 9);
        assert_eq!(t, vec![2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0]);
    }

    #[test]
    fn deciles_interpolate_like_numpy() {
        // np.quantile([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 3], q)
        let v = [
            1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 3.0,
        ];
        let t = numeric_thresholds(&v, 9);
        // Sorted: 1 2 3 4 8 16 32 64 128 256 512 1024; h = 11k/10.
        let sorted = [
            1.0, 2.0, 3.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0,
        ];
        let expect: Vec<f64> = (1..=9)
            .map(|k| {
                let h = 11.0 * k as f64 / 10.0;
                let lo = h.floor() as usize;
                sorted[lo] + (h - lo as f64) * (sorted[lo + 1] - sorted[lo])
            })
            .collect();
        assert_eq!(t.len(), 9);
        for (a, b) in t.iter().zip(&expect) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        }
        // By hand: q = 0.1 → h = 1.1 → 2 + 0.1·(3 − 2) = 2.1.
        assert!((t[0] - 2.1).abs() < 1e-12);
        // q = 0.5 → h = 5.5 → 16 + 0.5·16 = 24.
        assert!((t[4] - 24.0).abs() < 1e-12);
    }

    #[test]
    fn duplicate_quantiles_and_the_maximum_are_dropped() {
        // 60% zeros: the first five deciles coincide at 0.
        let mut v = vec![0.0; 12];
        v.extend((1..=8).map(f64::from));
        let t = numeric_thresholds(&v, 9);
        assert_eq!(t[0], 0.0);
        assert!(t.windows(2).all(|w| w[0] < w[1]));
        assert!(t.iter().all(|&x| x < 8.0));
        // Few values: the distinct values but the largest.
        assert_eq!(numeric_thresholds(&[3.0, 1.0, 2.0, 1.0], 9), vec![1.0, 2.0]);
        assert!(numeric_thresholds(&[5.0, 5.0], 9).is_empty());
        assert_eq!(numeric_thresholds(&[5.0, f64::NAN, 7.0], 9), vec![5.0]);
    }

    #[test]
    fn weighted_thresholds_are_those_of_duplicated_rows() {
        let mut rng = rulecover_core::Rng::new(5);
        for m in [3, 9, 20] {
            let v: Vec<f64> = (0..60)
                .map(|i| {
                    if i % 17 == 0 {
                        f64::NAN
                    } else {
                        (rng.normal() * 4.0).round()
                    }
                })
                .collect();
            let w: Vec<f64> = (0..60).map(|_| (1 + rng.below(4)) as f64).collect();
            let dup: Vec<f64> = v
                .iter()
                .zip(&w)
                .flat_map(|(&x, &k)| std::iter::repeat_n(x, k as usize))
                .collect();
            let a = numeric_thresholds_weighted(&v, &w, m);
            let b = numeric_thresholds(&dup, m);
            assert_eq!(
                a.iter().map(|t| t.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|t| t.to_bits()).collect::<Vec<_>>(),
                "m = {m}"
            );
            // Unit weights: the unweighted thresholds, bit for bit.
            let ones = vec![1.0; v.len()];
            assert_eq!(
                numeric_thresholds_weighted(&v, &ones, m),
                numeric_thresholds(&v, m)
            );
        }
        // A weight moves the quantile: 1 and 2 with weights 1 and 3 is
        // [1, 2, 2, 2], whose median is 2.
        assert_eq!(weighted_quantile_sorted(&[1.0, 2.0], &[1.0, 3.0], 0.5), 2.0);
        assert_eq!(quantile_sorted(&[1.0, 2.0, 2.0, 2.0], 0.5), 2.0);
        assert_eq!(weighted_quantile_sorted(&[1.0, 2.0], &[3.0, 1.0], 0.5), 1.0);
        // Bad weights reaching the binarizer are typed errors.
        let d = data(vec![vec![1.0, 2.0, 3.0]], vec![Feature::numeric("x")]);
        assert!(matches!(
            Binarizer::fit_weighted(&BinarizerParams::default(), &d, Some(&[1.0, 0.0, 1.0])),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            Binarizer::fit_weighted(&BinarizerParams::default(), &d, Some(&[1.0])),
            Err(Error::Shape(_))
        ));
    }

    #[test]
    fn transform_is_the_literals_tests_row_by_row() {
        // 150 rows (not a multiple of 64), numeric with missing values and
        // ties, a categorical with a missing level, every op.
        let nan = f64::NAN;
        let x: Vec<f64> = (0..150)
            .map(|i| {
                if i % 11 == 3 {
                    nan
                } else {
                    ((i * 37) % 23) as f64 * 0.5
                }
            })
            .collect();
        let c: Vec<f64> = (0..150)
            .map(|i| if i % 13 == 5 { nan } else { (i % 3) as f64 })
            .collect();
        let d = data(
            vec![x.clone(), c.clone()],
            vec![
                Feature::numeric("x"),
                Feature::categorical("c", vec!["r".into(), "g".into(), "b".into()]),
            ],
        );
        let b = Binarizer::fit(&BinarizerParams::default().negations(true), &d).unwrap();
        let m = b.transform(&d).unwrap();
        let ops: std::collections::HashSet<u8> = b.literals().iter().map(|l| l.op as u8).collect();
        assert_eq!(ops.len(), 6, "every op is tested");
        for (j, l) in b.literals().iter().enumerate() {
            let col = if l.feature == 0 { &x } else { &c };
            let want: Vec<usize> = (0..150).filter(|&i| l.holds(col[i])).collect();
            assert_eq!(m.rows(j), want, "literal {j} {l:?}");
        }
        // Other rows through the same literals: every threshold exactly,
        // just below and above it, far outside, signed zeros, missing.
        let mut x2 = vec![nan, -0.0, 0.0, -1e300, 1e300];
        for t in b.thresholds(0) {
            x2.extend([*t, t.next_down(), t.next_up()]);
        }
        let c2: Vec<f64> = (0..x2.len())
            .map(|i| if i % 4 == 1 { nan } else { (i % 3) as f64 })
            .collect();
        let d2 = data(
            vec![x2.clone(), c2.clone()],
            vec![
                Feature::numeric("x"),
                Feature::categorical("c", vec!["r".into(), "g".into(), "b".into()]),
            ],
        );
        let m2 = b.transform(&d2).unwrap();
        for (j, l) in b.literals().iter().enumerate() {
            let col = if l.feature == 0 { &x2 } else { &c2 };
            let want: Vec<usize> = (0..col.len()).filter(|&i| l.holds(col[i])).collect();
            assert_eq!(m2.rows(j), want, "other rows, literal {j} {l:?}");
        }
    }

    #[test]
    fn literals_columns_and_drops() {
        let nan = f64::NAN;
        let d = data(
            vec![
                vec![1.0, 2.0, 3.0, nan], // numeric with a missing value
                vec![0.0, 1.0, 2.0, 1.0], // categorical, 3 levels
                vec![7.0, 7.0, 7.0, 7.0], // constant
                vec![nan, nan, nan, nan], // all missing
                vec![0.0, 1.0, 0.0, 1.0], // categorical, 2 levels
            ],
            vec![
                Feature::numeric("x"),
                Feature::categorical("c", vec!["r".into(), "g".into(), "b".into()]),
                Feature::numeric("k"),
                Feature::numeric("m"),
                Feature::categorical("s", vec!["f".into(), "m".into()]),
            ],
        );
        let b = BinarizerParams::default().fit(&d).unwrap();
        let names: Vec<String> = b
            .literals()
            .iter()
            .map(|l| l.display(b.features()).to_string())
            .collect();
        assert_eq!(
            names,
            vec![
                "x <= 1",
                "x <= 2",
                "x > 1",
                "x > 2",
                "x is missing",
                "x is not missing",
                "c == r",
                "c != r",
                "c == g",
                "c != g",
                "c == b",
                "c != b",
                "s == m",
                "s != m",
            ]
        );
        assert_eq!(
            b.dropped(),
            &[
                ("k".to_string(), DropReason::Constant),
                ("m".to_string(), DropReason::AllMissing)
            ]
        );
        let m = b.transform(&d).unwrap();
        // "x > 2" holds on row 2 only; the missing row satisfies neither side.
        assert_eq!(m.rows(3), vec![2]);
        assert_eq!(m.rows(0), vec![0]);
        assert_eq!(m.rows(4), vec![3]);
        assert_eq!(b.primary_literals(), vec![0, 1, 4, 6, 8, 10, 12]);
        assert_eq!(b.standardizers().len(), 1);
        let s = b.standardizers()[0];
        assert!((s.mean - 2.0).abs() < 1e-12);
        assert!((s.std - (2.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(s.apply(nan), 0.0);
    }

    #[test]
    fn bad_columns_give_typed_errors() {
        let d = data(vec![vec![1.0, f64::INFINITY]], vec![Feature::numeric("x")]);
        assert!(matches!(
            BinarizerParams::default().fit(&d),
            Err(Error::NonFiniteFeature { row: 1, .. })
        ));
        let d = data(vec![vec![1.0, 1.0]], vec![Feature::numeric("x")]);
        assert!(matches!(
            BinarizerParams::default().fit(&d),
            Err(Error::NoUsableFeatures { .. })
        ));
        assert!(BinarizerParams::default()
            .n_thresholds(0)
            .validate()
            .is_err());
    }
}
