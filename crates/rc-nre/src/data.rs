//! Input checking, standardisation with training statistics, ±1 labels and
//! the stratified validation split used for early stopping.

use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

use rulecover_core::weights::rescaled_by_power_of_two;
use rulecover_core::{Dataset, FeatureKind, Rng, Target};

use crate::error::{Error, Result};

/// What standardisation does with a feature that is constant on the
/// training data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ConstantFeatures {
    /// Fail with [`Error::ConstantFeature`] naming the feature (default):
    /// a constant column carries no information and its standard deviation
    /// is 0.
    #[default]
    Reject,
    /// Centre it and leave its scale at 1 (scikit-learn's `StandardScaler`);
    /// the tree never splits on it, so NRE leaves it unconnected.
    Ignore,
}

/// Checks that `data` has rows, features, and only numeric (or one-hot
/// indicator) features.
pub(crate) fn check_features(data: &Dataset) -> Result<()> {
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

/// The rows a fit learns from and their weights: without weights, `data`
/// as it is; with weights (checked already: one per row, finite,
/// non-negative, not all zero, [`rulecover_core::Fit::check_inputs`]),
/// after checking every value of `data` (so errors name the caller's
/// rows), the rows of positive weight, with `None` when their
/// weights are all equal (every learner here is invariant to a common
/// scale of the weights) and otherwise the weights scaled by a power of
/// two into `[2^-8, 2^8)` (exact, so ratios are kept, and their sums
/// cannot overflow).
pub(crate) fn training_rows(
    data: Dataset,
    weights: Option<&[f64]>,
) -> Result<(Dataset, Option<Vec<f64>>)> {
    let Some(w) = weights else {
        return Ok((data, None));
    };
    debug_assert_eq!(w.len(), data.n_rows());
    check_features(&data)?;
    check_finite(&data)?;
    let keep: Vec<usize> = (0..w.len()).filter(|&i| w[i] > 0.0).collect();
    let kept: Vec<f64> = keep.iter().map(|&i| w[i]).collect();
    let data = if keep.len() == data.n_rows() {
        data
    } else {
        data.subset(&keep)?
    };
    let weights = if kept.windows(2).all(|p| p[0] == p[1]) {
        None
    } else {
        Some(rescaled_by_power_of_two(&kept).into_owned())
    };
    Ok((data, weights))
}

/// The training labels as ±1 (class 1 → +1, class 0 → −1), after checking
/// that the target is binary and both classes occur.
pub(crate) fn signed_labels(data: &Dataset) -> Result<Vec<f64>> {
    let names = match data.target_storage() {
        Target::Classes { names, .. } => names,
        Target::Real(_) => {
            return Err(Error::NotBinary {
                dataset: data.name().to_string(),
                what: "a real-valued target".into(),
                hint: String::new(),
            })
        }
        Target::None => {
            return Err(Error::NotBinary {
                dataset: data.name().to_string(),
                what: "no target".into(),
                hint: String::new(),
            })
        }
    };
    if names.len() != 2 {
        return Err(Error::NotBinary {
            dataset: data.name().to_string(),
            what: format!("{} classes", names.len()),
            hint: ": fit more classes one-vs-rest (rulecover_core::OneVsRest; \
                   the command line and Python do)"
                .into(),
        });
    }
    let counts = data.class_counts();
    if let Some(only) = counts.iter().position(|&c| c == data.n_rows()) {
        return Err(Error::OneClass {
            dataset: data.name().to_string(),
            class: names[only].clone(),
            rows: data.n_rows(),
        });
    }
    Ok((0..data.n_rows())
        .map(|i| if data.label(i) == 1 { 1.0 } else { -1.0 })
        .collect())
}

/// Per-feature mean and scale of the training data: `z = (x − mean) /
/// scale` with the population standard deviation as the scale
/// (scikit-learn's `StandardScaler`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standardizer {
    mean: Vec<f64>,
    scale: Vec<f64>,
}

impl Standardizer {
    /// Computes the statistics of every feature of `data`, checking that
    /// all values are finite and (under [`ConstantFeatures::Reject`]) that
    /// no feature is constant.
    pub fn fit(data: &Dataset, constant: ConstantFeatures) -> Result<Standardizer> {
        Standardizer::fit_weighted(data, None, constant)
    }

    /// [`Standardizer::fit`] with one positive weight per row: the
    /// weighted mean `Σ wᵢxᵢ / Σ wᵢ` and the weighted population standard
    /// deviation, i.e. the statistics of the data with every row repeated
    /// as often as its (integer) weight says. With unit weights they equal
    /// the unweighted statistics bit for bit. `weights` must have one
    /// finite, positive entry per row (the learners drop zero-weight rows
    /// before standardising).
    pub fn fit_weighted(
        data: &Dataset,
        weights: Option<&[f64]>,
        constant: ConstantFeatures,
    ) -> Result<Standardizer> {
        check_features(data)?;
        if let Some(w) = weights {
            check_positive_weights(w, data.n_rows())?;
        }
        let n = match weights {
            None => data.n_rows() as f64,
            Some(w) => w.iter().sum::<f64>(),
        };
        let mut mean = Vec::with_capacity(data.n_features());
        let mut scale = Vec::with_capacity(data.n_features());
        for (j, f) in data.features().iter().enumerate() {
            let col = data.column(j);
            check_finite_column(&f.name, &col)?;
            let (m, var) = match weights {
                None => {
                    let m = col.iter().sum::<f64>() / n;
                    (m, col.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / n)
                }
                Some(w) => {
                    let m = col.iter().zip(w).map(|(v, w)| w * v).sum::<f64>() / n;
                    let var = col
                        .iter()
                        .zip(w)
                        .map(|(v, w)| w * ((v - m) * (v - m)))
                        .sum::<f64>()
                        / n;
                    (m, var)
                }
            };
            let constant_col = col.iter().all(|&v| v == col[0]);
            let s = if constant_col || var <= 0.0 {
                match constant {
                    ConstantFeatures::Reject => {
                        return Err(Error::ConstantFeature {
                            feature: f.name.clone(),
                            column: j,
                            value: col[0],
                            rows: data.n_rows(),
                        })
                    }
                    ConstantFeatures::Ignore => 1.0,
                }
            } else {
                var.sqrt()
            };
            mean.push(m);
            scale.push(s);
        }
        Ok(Standardizer { mean, scale })
    }

    /// Number of features.
    pub fn n_features(&self) -> usize {
        self.mean.len()
    }

    /// Training mean of each feature.
    pub fn mean(&self) -> &[f64] {
        &self.mean
    }

    /// Training standard deviation of each feature (1 for an ignored
    /// constant feature).
    pub fn scale(&self) -> &[f64] {
        &self.scale
    }

    /// The standardised value `(x − mean)/sd` of `x` on feature `feature`
    /// — the same arithmetic as [`Standardizer::transform`], so it is
    /// monotone in `x` — checking that the result is finite (a tree
    /// threshold far outside the data's range could overflow).
    pub fn standardize(&self, feature: usize, x: f64) -> Result<f64> {
        let (Some(&m), Some(&s)) = (self.mean.get(feature), self.scale.get(feature)) else {
            return Err(crate::error::invalid(
                "feature",
                feature,
                format!("the data has {} features", self.n_features()),
            ));
        };
        let z = (x - m) / s;
        if !z.is_finite() {
            return Err(crate::error::invalid(
                "threshold",
                x,
                format!("standardises (mean {m}, sd {s}) to the non-finite value {z} on feature {feature}"),
            ));
        }
        Ok(z)
    }

    /// The standardised values of `columns` of `data`, as an `n ×
    /// columns.len()` matrix, checking that they are finite.
    pub fn transform(&self, data: &Dataset, columns: &[usize]) -> Result<DMatrix<f64>> {
        if data.n_features() != self.n_features() {
            return Err(Error::FeatureMismatch {
                expected: self.n_features(),
                found: data.n_features(),
            });
        }
        check_features(data)?;
        if let Some(&bad) = columns.iter().find(|&&j| j >= self.n_features()) {
            return Err(crate::error::invalid(
                "columns",
                bad,
                format!("the data has {} features", self.n_features()),
            ));
        }
        let n = data.n_rows();
        let mut out = DMatrix::zeros(n, columns.len());
        for (c, &j) in columns.iter().enumerate() {
            let col = data.column(j);
            check_finite_column(&data.features()[j].name, &col)?;
            let (m, s) = (self.mean[j], self.scale[j]);
            for (o, v) in out.column_mut(c).iter_mut().zip(col.iter()) {
                *o = (v - m) / s;
            }
        }
        Ok(out)
    }

    /// A standardised copy of `data` (all features, same target).
    pub fn transform_dataset(&self, data: &Dataset) -> Result<Dataset> {
        let all: Vec<usize> = (0..data.n_features()).collect();
        let m = self.transform(data, &all)?;
        let columns = m
            .column_iter()
            .map(|c| c.iter().copied().collect())
            .collect();
        Ok(Dataset::new(
            data.name(),
            data.features().to_vec(),
            columns,
            data.target_view(),
        )?)
    }
}

/// Checks that `weights` has one finite, positive entry per row.
fn check_positive_weights(weights: &[f64], n_rows: usize) -> Result<()> {
    if weights.len() != n_rows {
        return Err(crate::error::invalid(
            "sample_weight",
            format!("{} weights", weights.len()),
            format!("need one weight per row ({n_rows})"),
        ));
    }
    if let Some((row, w)) = weights
        .iter()
        .enumerate()
        .find(|(_, w)| !(w.is_finite() && **w > 0.0))
    {
        return Err(crate::error::invalid(
            "sample_weight",
            w,
            format!("row {row}: standardisation needs finite, positive weights"),
        ));
    }
    Ok(())
}

/// Checks that every value of every column of `data` is finite (the rows
/// named as in `data`).
pub(crate) fn check_finite(data: &Dataset) -> Result<()> {
    for (j, f) in data.features().iter().enumerate() {
        check_finite_column(&f.name, &data.column(j))?;
    }
    Ok(())
}

/// Share of label +1 among `y`, each row counted with its weight.
pub(crate) fn positive_share(y: &[f64], weights: Option<&[f64]>) -> f64 {
    match weights {
        None => y.iter().filter(|&&v| v > 0.0).count() as f64 / y.len() as f64,
        Some(w) => {
            let pos: f64 = y
                .iter()
                .zip(w)
                .filter(|(&v, _)| v > 0.0)
                .map(|(_, w)| w)
                .sum();
            pos / w.iter().sum::<f64>()
        }
    }
}

fn check_finite_column(name: &str, col: &[f64]) -> Result<()> {
    if let Some((row, &v)) = col.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(Error::NonFinite {
            feature: name.to_string(),
            row,
            value: v,
        });
    }
    Ok(())
}

/// Splits rows `0..labels.len()` into (fit, validation) with about
/// `fraction` of each class in validation, drawn at random with `seed`;
/// both parts keep at least one row of each class when the class has two
/// or more rows. Both lists are sorted.
pub(crate) fn stratified_split(
    labels: &[f64],
    fraction: f64,
    seed: u64,
) -> (Vec<usize>, Vec<usize>) {
    if fraction <= 0.0 {
        return ((0..labels.len()).collect(), Vec::new());
    }
    let mut rng = Rng::new(seed);
    let mut fit = Vec::new();
    let mut val = Vec::new();
    for class in [-1.0, 1.0] {
        let mut rows: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == class).collect();
        rng.shuffle(&mut rows);
        let n = rows.len();
        let mut k = (fraction * n as f64).round() as usize;
        if n >= 2 {
            k = k.clamp(1, n - 1);
        } else {
            k = 0;
        }
        val.extend_from_slice(&rows[..k]);
        fit.extend_from_slice(&rows[k..]);
    }
    fit.sort_unstable();
    val.sort_unstable();
    (fit, val)
}

/// Rows `rows` of a matrix, in that order.
pub(crate) fn select_rows(x: &DMatrix<f64>, rows: &[usize]) -> DMatrix<f64> {
    let mut out = DMatrix::zeros(rows.len(), x.ncols());
    for j in 0..x.ncols() {
        let src = x.column(j);
        for (o, &i) in out.column_mut(j).iter_mut().zip(rows) {
            *o = src[i];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulecover_core::Feature;

    fn toy(cols: Vec<Vec<f64>>, labels: Vec<usize>) -> Dataset {
        let p = cols.len();
        Dataset::new(
            "toy",
            (0..p).map(|j| Feature::numeric(format!("f{j}"))).collect(),
            cols,
            Target::Classes {
                labels,
                names: vec!["a".into(), "b".into()],
            },
        )
        .unwrap()
    }

    #[test]
    fn standardizer_uses_population_std() {
        let d = toy(vec![vec![1.0, 2.0, 3.0, 4.0]], vec![0, 1, 0, 1]);
        let s = Standardizer::fit(&d, ConstantFeatures::Reject).unwrap();
        assert_eq!(s.mean(), &[2.5]);
        assert!((s.scale()[0] - 1.25f64.sqrt()).abs() < 1e-15);
        let z = s.transform(&d, &[0]).unwrap();
        assert!((z.column(0).sum()).abs() < 1e-12);
        assert!((z.column(0).map(|v| v * v).sum() / 4.0 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn constant_feature_is_rejected_or_centred() {
        let d = toy(vec![vec![1.0, 2.0, 3.0], vec![5.0; 3]], vec![0, 1, 0]);
        let e = Standardizer::fit(&d, ConstantFeatures::Reject).unwrap_err();
        assert!(matches!(e, Error::ConstantFeature { column: 1, .. }), "{e}");
        assert!(e.to_string().contains("'f1'"));
        let s = Standardizer::fit(&d, ConstantFeatures::Ignore).unwrap();
        assert_eq!(s.scale()[1], 1.0);
        assert_eq!(s.transform(&d, &[1]).unwrap().column(0).sum(), 0.0);
    }

    #[test]
    fn non_finite_values_are_reported_with_row() {
        let d = toy(vec![vec![1.0, f64::NAN, 3.0]], vec![0, 1, 0]);
        let e = Standardizer::fit(&d, ConstantFeatures::Reject).unwrap_err();
        assert!(matches!(e, Error::NonFinite { row: 1, .. }), "{e}");
        let d = toy(vec![vec![1.0, 2.0, f64::INFINITY]], vec![0, 1, 0]);
        assert!(matches!(
            Standardizer::fit(&d, ConstantFeatures::Ignore),
            Err(Error::NonFinite { row: 2, .. })
        ));
    }

    #[test]
    fn labels_must_be_binary_with_both_classes() {
        let d = toy(vec![vec![1.0, 2.0]], vec![1, 1]);
        assert!(matches!(signed_labels(&d), Err(Error::OneClass { .. })));
        let d = toy(vec![vec![1.0, 2.0]], vec![1, 0]);
        assert_eq!(signed_labels(&d).unwrap(), vec![1.0, -1.0]);
        let r = Dataset::new(
            "reg",
            vec![Feature::numeric("x")],
            vec![vec![1.0, 2.0]],
            Target::Real(vec![0.5, 1.5]),
        )
        .unwrap();
        assert!(matches!(signed_labels(&r), Err(Error::NotBinary { .. })));
    }

    #[test]
    fn split_is_stratified_and_seeded() {
        let labels: Vec<f64> = (0..100)
            .map(|i| if i % 4 == 0 { 1.0 } else { -1.0 })
            .collect();
        let (fit, val) = stratified_split(&labels, 0.2, 9);
        assert_eq!(fit.len() + val.len(), 100);
        assert_eq!(val.iter().filter(|&&i| labels[i] > 0.0).count(), 5);
        assert_eq!(val.len(), 20);
        assert_eq!(
            stratified_split(&labels, 0.2, 9),
            (fit.clone(), val.clone())
        );
        assert_ne!(stratified_split(&labels, 0.2, 10).1, val);
        let (f, v) = stratified_split(&labels, 0.0, 9);
        assert_eq!((f.len(), v.len()), (100, 0));
    }
}
