//! ZeroR: the majority class (classification) or the mean (regression).
//! The accuracy floor every report shows.

use serde::{Deserialize, Serialize};

use crate::dataset::Dataset;
use crate::error::{Error, Result};
use crate::traits::{Fit, Predict, Predictions};

/// ZeroR parameters (there are none).
#[derive(Debug, Clone, Copy, Default)]
pub struct ZeroR;

/// A fitted ZeroR model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ZeroRModel {
    /// Class frequencies of the training data (predicts the most frequent,
    /// ties to the lowest label).
    Classes(Vec<f64>),
    /// The training mean.
    Mean(f64),
}

impl Fit for ZeroR {
    type Model = ZeroRModel;
    type Error = Error;

    fn fit(&self, data: &Dataset) -> Result<ZeroRModel> {
        let n = data.n_rows();
        if n == 0 {
            return Err(Error::Empty {
                file: data.name().to_string(),
                what: "no training rows".into(),
            });
        }
        if data.is_classification() {
            let counts = data.class_counts();
            Ok(ZeroRModel::Classes(
                counts.iter().map(|&c| c as f64 / n as f64).collect(),
            ))
        } else {
            Ok(ZeroRModel::Mean(
                data.target_values().iter().sum::<f64>() / n as f64,
            ))
        }
    }
}

impl Predict for ZeroRModel {
    type Error = Error;

    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        let n = data.n_rows();
        Ok(match self {
            ZeroRModel::Classes(p) => Predictions::Classes {
                n_classes: p.len(),
                proba: p.iter().copied().cycle().take(n * p.len()).collect(),
            },
            ZeroRModel::Mean(m) => Predictions::Values(vec![*m; n]),
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
    }
}
