//! Input checking and the fit-time representation of a dataset: float32
//! columns, presorted row orders of the many-valued features, byte codes of
//! the few-valued ones, and row bitmasks of the two-valued (one-hot) ones.

use rayon::prelude::*;
use rulecover_core::{Dataset, FeatureKind, Target};

use crate::criterion::FEATURE_THRESHOLD;
use crate::error::{Error, Result};
use crate::params::Criterion;

/// An entry of a presorted list: the feature's float32 value and the row.
pub(crate) type Entry = (f32, u32);

/// How the splitter treats one feature.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum FeatureClass {
    /// At most one distinct value (or values closer than 1e-7): never split.
    Constant,
    /// Exactly two distinct values `lo < hi`. `slot` indexes the binary
    /// features; the row bitmasks mark the rarer value (`hi` when
    /// `bit_is_hi`).
    Binary {
        slot: usize,
        lo: f32,
        hi: f32,
        bit_is_hi: bool,
    },
    /// Three to [`MAX_CODES`] distinct values: each row holds the code
    /// (rank) of its value; nodes are split from per-node histograms.
    Binned { slot: usize },
    /// More distinct values: split by scanning a presorted row list.
    Sorted { slot: usize },
}

/// Features with at most this many distinct values are binned.
pub(crate) const MAX_CODES: usize = 256;

/// A training matrix prepared for fast split search. Built once per fit and
/// shared (read-only) by all trees of an ensemble.
#[derive(Debug)]
pub(crate) struct Prepared {
    pub n: usize,
    pub p: usize,
    /// Column-major float32 values (`cols[j][i]`).
    pub cols: Vec<Vec<f32>>,
    pub class: Vec<FeatureClass>,
    /// All rows with their values, ordered by increasing value, per sorted
    /// slot.
    pub orders: Vec<Vec<Entry>>,
    /// Per sorted slot, each row's position in `orders` (nodes whose
    /// presorted lists were not kept sort their rows by it).
    pub ranks: Vec<Vec<u32>>,
    /// Per binned slot, the code of every row.
    pub codes: Vec<Vec<u8>>,
    /// Per binned slot, the value of every code (increasing).
    pub code_values: Vec<Vec<f32>>,
    /// Number of binary features.
    pub n_binary: usize,
    /// Per row, a bitmask (`mw` words) of the binary slots whose marked
    /// value the row holds.
    pub row_bits: Vec<u64>,
    pub mw: usize,
    /// Per binary slot, a bitmask (`nw` words) of the rows holding its
    /// marked value: `col_bits[slot · nw + (i >> 6)]` has bit `i & 63`.
    pub col_bits: Vec<u64>,
    pub nw: usize,
    /// The feature of each binary slot.
    pub slot_feature: Vec<usize>,
    /// The binned and sorted features, as a bitset over features
    /// (`⌈p / 64⌉` words).
    pub many_valued: Vec<u64>,
}

impl Prepared {
    /// The column bitmask of binary slot `slot` (`nw` words; row `i` is
    /// bit `i & 63` of word `i >> 6`).
    #[inline]
    pub fn col_bits_of(&self, slot: usize) -> &[u64] {
        &self.col_bits[slot * self.nw..(slot + 1) * self.nw]
    }
}

/// Checks that every feature of `data` is numeric; returns an error naming
/// the first categorical one.
pub(crate) fn check_numeric_features(data: &Dataset) -> Result<()> {
    for (j, f) in data.features().iter().enumerate() {
        if let FeatureKind::Categorical { .. } = f.kind {
            return Err(Error::CategoricalFeature {
                feature: f.name.clone(),
                column: j,
            });
        }
    }
    Ok(())
}

fn check_size(data: &Dataset) -> Result<()> {
    if data.n_rows() == 0 {
        return Err(Error::EmptyData {
            dataset: data.name().to_string(),
        });
    }
    if data.n_features() == 0 {
        return Err(Error::NoFeatures {
            dataset: data.name().to_string(),
        });
    }
    if data.n_rows() > u32::MAX as usize {
        return Err(Error::TooManyRows {
            rows: data.n_rows(),
        });
    }
    Ok(())
}

impl Prepared {
    /// Validates `data` (non-empty, numeric, no missing or out-of-range
    /// values) and builds the fit-time representation.
    pub fn new(data: &Dataset) -> Result<Prepared> {
        check_size(data)?;
        check_numeric_features(data)?;
        let n = data.n_rows();
        let p = data.n_features();
        // Each column is prepared on its own (in parallel: sorting and
        // coding the many-valued ones is most of the work); slots are then
        // numbered in column order, and the first failing column reports.
        let prepared: Vec<Result<(Vec<f32>, PreparedColumn)>> = (0..p)
            .into_par_iter()
            .map(|j| prepare_column(&data.column(j), &data.features()[j].name))
            .collect();
        let mut cols = Vec::with_capacity(p);
        let mut class = Vec::with_capacity(p);
        let mut orders = Vec::new();
        let mut codes = Vec::new();
        let mut code_values = Vec::new();
        let mut binary = Vec::new(); // (feature, marked value)
        for (j, col) in prepared.into_iter().enumerate() {
            let (out, kind) = col?;
            class.push(match kind {
                PreparedColumn::Constant => FeatureClass::Constant,
                PreparedColumn::Binned(c, values) => {
                    codes.push(c);
                    code_values.push(values);
                    FeatureClass::Binned {
                        slot: codes.len() - 1,
                    }
                }
                PreparedColumn::Sorted(order) => {
                    orders.push(order);
                    FeatureClass::Sorted {
                        slot: orders.len() - 1,
                    }
                }
                PreparedColumn::Binary { lo, hi, bit_is_hi } => {
                    binary.push((j, if bit_is_hi { hi } else { lo }));
                    FeatureClass::Binary {
                        slot: binary.len() - 1,
                        lo,
                        hi,
                        bit_is_hi,
                    }
                }
            });
            cols.push(out);
        }

        // Row bitmasks of the binary features.
        let mw = binary.len().div_ceil(64);
        let nw = n.div_ceil(64);
        let mut row_bits = vec![0u64; n * mw];
        let mut col_bits = vec![0u64; binary.len() * nw];
        for (slot, &(j, marked)) in binary.iter().enumerate() {
            for (i, &v) in cols[j].iter().enumerate() {
                if v == marked {
                    row_bits[i * mw + (slot >> 6)] |= 1 << (slot & 63);
                    col_bits[slot * nw + (i >> 6)] |= 1 << (i & 63);
                }
            }
        }

        let mut many_valued = vec![0u64; p.div_ceil(64)];
        for (f, c) in class.iter().enumerate() {
            if matches!(c, FeatureClass::Binned { .. } | FeatureClass::Sorted { .. }) {
                many_valued[f >> 6] |= 1 << (f & 63);
            }
        }
        let ranks = orders
            .par_iter()
            .map(|order: &Vec<Entry>| {
                let mut rank = vec![0u32; n];
                for (i, &(_, r)) in order.iter().enumerate() {
                    rank[r as usize] = i as u32;
                }
                rank
            })
            .collect();
        Ok(Prepared {
            n,
            p,
            cols,
            class,
            orders,
            ranks,
            codes,
            code_values,
            n_binary: binary.len(),
            row_bits,
            mw,
            col_bits,
            nw,
            slot_feature: binary.iter().map(|&(j, _)| j).collect(),
            many_valued,
        })
    }
}

/// One column as [`Prepared::new`] classifies it, before slots are numbered.
enum PreparedColumn {
    Constant,
    Binned(Vec<u8>, Vec<f32>),
    Sorted(Vec<(f32, u32)>),
    Binary { lo: f32, hi: f32, bit_is_hi: bool },
}

/// Casts one column to `f32`, checks its values and classifies it.
fn prepare_column(col: &[f64], name: &str) -> Result<(Vec<f32>, PreparedColumn)> {
    let n = col.len();
    // Vectorisable passes: cast, check, then count distinct values
    // (-0.0 and 0.0 count as one value).
    let out: Vec<f32> = col.iter().map(|&v| v as f32).collect();
    if !out.iter().all(|v| v.is_finite()) {
        let (row, &v) = col
            .iter()
            .enumerate()
            .find(|(_, v)| !(**v as f32).is_finite())
            .unwrap_or((0, &f64::NAN));
        return Err(if v.is_nan() {
            Error::MissingValue {
                feature: name.to_string(),
                row,
            }
        } else {
            Error::ValueOutOfRange {
                feature: name.to_string(),
                row,
                value: v,
            }
        });
    }
    let first = out[0];
    let second = out.iter().copied().find(|&v| v != first);
    let many = match second {
        Some(s) => !out.iter().all(|&v| v == first || v == s),
        None => false,
    };
    let kind = match (second, many) {
        (None, _) => PreparedColumn::Constant,
        (Some(_), true) => match bin_codes(&out) {
            Some((c, values)) => PreparedColumn::Binned(c, values),
            None => {
                let order = sort_order(&out);
                PreparedColumn::Sorted(order.iter().map(|&i| (out[i as usize], i)).collect())
            }
        },
        (Some(s), false) => {
            let (lo, hi) = if first < s { (first, s) } else { (s, first) };
            if (hi as f64) <= (lo as f64) + FEATURE_THRESHOLD {
                PreparedColumn::Constant
            } else {
                let n_hi = out.iter().filter(|&&v| v == hi).count();
                PreparedColumn::Binary {
                    lo,
                    hi,
                    bit_is_hi: 2 * n_hi <= n,
                }
            }
        }
    };
    Ok((out, kind))
}

/// Codes `0..k` of the values of a column (in increasing value order) and
/// the value of each code, or `None` when there are more than
/// [`MAX_CODES`] distinct values.
fn bin_codes(col: &[f32]) -> Option<(Vec<u8>, Vec<f32>)> {
    let find = |values: &[f32], v: f32| {
        values.binary_search_by(|p| p.partial_cmp(&v).unwrap_or(std::cmp::Ordering::Equal))
    };
    let mut values: Vec<f32> = Vec::new();
    for &v in col {
        if let Err(at) = find(&values, v) {
            if values.len() == MAX_CODES {
                return None;
            }
            values.insert(at, v);
        }
    }
    let codes = col
        .iter()
        .map(|&v| find(&values, v).unwrap_or(0) as u8)
        .collect();
    Some((codes, values))
}

/// Row indices ordered by increasing value.
fn sort_order(col: &[f32]) -> Vec<u32> {
    let mut pairs: Vec<(f32, u32)> = col
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, i as u32))
        .collect();
    pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    pairs.into_iter().map(|(_, i)| i).collect()
}

/// The training target as the tree builder needs it.
#[derive(Debug, Clone)]
pub(crate) enum Labels {
    /// Class codes `0..k`.
    Classes { y: Vec<u32>, k: usize },
    /// Real values.
    Values(Vec<f64>),
}

/// Reads the target of `data` for a tree with `criterion`, checking that
/// they suit each other.
pub(crate) fn labels_for(data: &Dataset, criterion: Criterion) -> Result<Labels> {
    match (data.target_storage(), criterion.is_classification()) {
        (Target::Classes { .. }, true) => class_labels(data),
        (Target::Real(_), false) => Ok(Labels::Values(data.target_values())),
        (Target::Classes { .. }, false) => Err(Error::TargetKind(format!(
            "criterion '{}' needs a real-valued target but dataset '{}' has class labels; \
             use Criterion::Gini or Criterion::Entropy (DecisionTreeParams::classifier())",
            criterion.name(),
            data.name()
        ))),
        (Target::Real(_), true) => Err(Error::TargetKind(format!(
            "criterion '{}' needs class labels but dataset '{}' has a real-valued target; \
             use Criterion::SquaredError (DecisionTreeParams::regressor())",
            criterion.name(),
            data.name()
        ))),
        (Target::None, _) => Err(Error::TargetKind(format!(
            "dataset '{}' has no target to learn from",
            data.name()
        ))),
    }
}

/// Class labels of `data`, with `k` = the number of class names (at least 1).
pub(crate) fn class_labels(data: &Dataset) -> Result<Labels> {
    let k = data.n_classes();
    if k == 0 {
        return Err(Error::TargetKind(format!(
            "dataset '{}' has a class target without class names",
            data.name()
        )));
    }
    let y = data.labels()?.into_iter().map(|l| l as u32).collect();
    Ok(Labels::Classes { y, k })
}

/// Checks user sample weights: one per row, finite, non-negative, not all
/// zero, with a finite sum.
pub(crate) fn check_weights(weights: &[f64], n_rows: usize) -> Result<()> {
    check_weight_values(weights, n_rows)?;
    check_weight_sum(weights)
}

/// Checks user sample weights: one per row, finite, non-negative, not all
/// zero.
pub(crate) fn check_weight_values(weights: &[f64], n_rows: usize) -> Result<()> {
    if weights.len() != n_rows {
        return Err(Error::WeightCount {
            expected: n_rows,
            found: weights.len(),
        });
    }
    if let Some((row, &value)) = weights
        .iter()
        .enumerate()
        .find(|(_, w)| !(w.is_finite() && **w >= 0.0))
    {
        return Err(Error::InvalidWeight { row, value });
    }
    if weights.iter().all(|&w| w == 0.0) {
        return Err(Error::ZeroWeights { rows: n_rows });
    }
    Ok(())
}

/// Checks that the weights sum to a finite number.
pub(crate) fn check_weight_sum(weights: &[f64]) -> Result<()> {
    if !weights.iter().sum::<f64>().is_finite() {
        return Err(Error::InvalidParameter {
            name: "sample_weight",
            value: "(sum overflows)".into(),
            reason: "the sum of the sample weights must be finite; rescale the weights".into(),
        });
    }
    Ok(())
}

/// Rows of a dataset to predict: its columns (borrowed when the view is
/// the whole dataset), checked against the number of training features (no
/// categorical features, no `NaN`).
#[derive(Debug)]
pub(crate) struct Rows<'a> {
    pub n: usize,
    cols: Vec<std::borrow::Cow<'a, [f64]>>,
}

impl<'a> Rows<'a> {
    pub fn new(data: &'a Dataset, n_features: usize) -> Result<Rows<'a>> {
        if data.n_features() != n_features {
            return Err(Error::FeatureCountMismatch {
                expected: n_features,
                found: data.n_features(),
            });
        }
        check_numeric_features(data)?;
        let mut cols = Vec::with_capacity(n_features);
        for (j, feat) in data.features().iter().enumerate() {
            let col = data.column(j);
            if let Some(row) = col.iter().position(|v| v.is_nan()) {
                return Err(Error::MissingValue {
                    feature: feat.name.clone(),
                    row,
                });
            }
            cols.push(col);
        }
        Ok(Rows {
            n: data.n_rows(),
            cols,
        })
    }

    /// The columns, as slices.
    pub fn columns(&self) -> Vec<&[f64]> {
        self.cols.iter().map(|c| c.as_ref()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulecover_core::Feature;

    #[test]
    fn feature_classes() {
        let data = Dataset::new(
            "t",
            vec![
                Feature::numeric("c"),
                Feature::numeric("b"),
                Feature::numeric("s"),
                Feature::numeric("t"),
            ],
            vec![
                vec![1.0, 1.0, 1.0, 1.0],
                vec![0.0, 1.0, 1.0, 1.0],
                vec![3.0, 1.0, 2.0, 2.0],
                (0..4).map(|i| i as f64 * 1000.0).collect(),
            ],
            Target::Real(vec![0.0; 4]),
        )
        .unwrap();
        let p = Prepared::new(&data).unwrap();
        assert_eq!(p.class[0], FeatureClass::Constant);
        assert_eq!(
            p.class[1],
            FeatureClass::Binary {
                slot: 0,
                lo: 0.0,
                hi: 1.0,
                bit_is_hi: false
            }
        );
        assert_eq!(p.class[2], FeatureClass::Binned { slot: 0 });
        assert_eq!(p.codes[0], vec![2, 0, 1, 1]);
        assert_eq!(p.code_values[0], vec![1.0, 2.0, 3.0]);
        assert_eq!(p.class[3], FeatureClass::Binned { slot: 1 });
        assert!(p.orders.is_empty());
        // The rarer value 0 of feature 1 is marked: only row 0 has it.
        assert_eq!(p.mw, 1);
        assert_eq!(p.row_bits, vec![1, 0, 0, 0]);
        assert_eq!((p.nw, p.col_bits.clone()), (1, vec![0b0001]));
    }

    #[test]
    fn many_distinct_values_are_presorted() {
        let n = MAX_CODES + 10;
        let col: Vec<f64> = (0..n)
            .map(|i| ((i * 7) % n) as f64 + 0.5 * i as f64)
            .collect();
        let data = Dataset::new(
            "t",
            vec![Feature::numeric("x")],
            vec![col],
            Target::Real(vec![0.0; n]),
        )
        .unwrap();
        let p = Prepared::new(&data).unwrap();
        assert_eq!(p.class[0], FeatureClass::Sorted { slot: 0 });
        let order = &p.orders[0];
        assert!(order.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(order.iter().all(|&(v, i)| p.cols[0][i as usize] == v));
    }
}
