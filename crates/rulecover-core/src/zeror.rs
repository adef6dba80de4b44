//! ZeroR: the majority class (classification) or the mean (regression).
//! The accuracy floor every report shows.

use serde::{Deserialize, Serialize};

use crate::dataset::Dataset;
use crate::error::{Error, Result};
use crate::params::{CheckParams, Checked};
use crate::predictions::Predictions;
use crate::schema::{Encoder, Encoding};
use crate::traits::{Fit, Fitted, Predict, Reseed};

/// ZeroR parameters (there are none).
#[derive(Debug, Clone, Copy, Default)]
pub struct ZeroR;

/// What a fitted ZeroR predicts for every row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ZeroRPrediction {
    /// Class frequencies of the training data (predicts the most frequent,
    /// ties to the lowest label).
    Classes(Vec<f64>),
    /// The training mean.
    Mean(f64),
}

/// A fitted ZeroR model: the training schema and the constant prediction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ZeroRModel {
    encoder: Encoder,
    prediction: ZeroRPrediction,
}

impl ZeroRModel {
    /// The constant prediction.
    pub fn prediction(&self) -> &ZeroRPrediction {
        &self.prediction
    }
}

impl ZeroR {
    fn fit_rows(&self, data: &Dataset, weights: &[f64]) -> Result<ZeroRModel> {
        if data.n_rows() == 0 {
            return Err(Error::Empty {
                file: data.name().to_string(),
                what: "no training rows".into(),
            });
        }
        let (encoder, _) = Encoder::fit(data, Encoding::Native)?;
        let total: f64 = weights.iter().sum();
        let prediction = if data.is_classification() {
            let mut freq = vec![0.0; data.n_classes()];
            for (i, w) in weights.iter().enumerate() {
                freq[data.label(i)] += w;
            }
            ZeroRPrediction::Classes(freq.iter().map(|c| c / total).collect())
        } else if data.has_target() {
            let sum: f64 = (0..data.n_rows())
                .map(|i| weights[i] * data.target_value(i))
                .sum();
            ZeroRPrediction::Mean(sum / total)
        } else {
            return Err(Error::TargetKind(format!(
                "dataset '{}' has no target to learn from",
                data.name()
            )));
        };
        Ok(ZeroRModel {
            encoder,
            prediction,
        })
    }
}

/// ZeroR has no parameters to check.
impl CheckParams for ZeroR {
    type ParamError = Error;

    fn check_params(&self) -> Result<()> {
        Ok(())
    }
}

impl Fit for ZeroR {
    type Model = ZeroRModel;
    type Error = Error;

    /// Class frequencies or the mean, weighted when weights are given.
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<ZeroRModel> {
        match weights {
            Some(w) => params.fit_rows(data, w),
            None => params.fit_rows(data, &vec![1.0; data.n_rows()]),
        }
    }
}

/// ZeroR has no random choices.
impl Reseed for ZeroR {
    fn random_seed(&self) -> Option<u64> {
        None
    }

    fn with_random_seed(&self, _seed: u64) -> Self {
        ZeroR
    }
}

impl Fitted for ZeroRModel {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl Predict for ZeroRModel {
    type Error = Error;

    /// The training class frequencies for every row (classification), or
    /// the training mean (regression).
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        let n = self.encoder.transform(data)?.n_rows();
        Ok(match &self.prediction {
            ZeroRPrediction::Classes(p) => Predictions::Classes {
                n_classes: p.len(),
                proba: p.iter().copied().cycle().take(n * p.len()).collect(),
            },
            ZeroRPrediction::Mean(m) => Predictions::Values(vec![*m; n]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Feature, Target};

    #[test]
    fn predicts_majority_and_mean() {
        let d = Dataset::new(
            "t",
            vec![Feature::numeric("x")],
            vec![vec![1.0, 2.0, 3.0]],
            Target::Classes {
                labels: vec![1, 1, 0],
                names: vec!["a".into(), "b".into()],
            },
        )
        .unwrap();
        let m = ZeroR.fit(&d).unwrap();
        assert_eq!(m.predict(&d).unwrap().labels().unwrap(), vec![1, 1, 1]);
        let r = d.with_target(Target::Real(vec![1.0, 2.0, 6.0])).unwrap();
        let m = ZeroR.fit(&r).unwrap();
        assert_eq!(m.predict(&r).unwrap(), Predictions::Values(vec![3.0; 3]));
        let w = ZeroR.fit_weighted(&r, &[2.0, 1.0, 1.0]).unwrap();
        assert_eq!(w.predict(&r).unwrap(), Predictions::Values(vec![2.5; 3]));
        assert_eq!(w.feature_names(), ["x"]);
    }
}
