//! Raw columns in, numbers out: the models fit a
//! [`rulecover_core::Encoder`] on their training data and read new data
//! through it, by column name.
//!
//! Trees split numbers, so categorical columns are one-hot encoded (the
//! default [`Encoding`]); a missing categorical value is an error here as a
//! missing numeric value is, instead of silently becoming "no level".

use rulecover_core::{Dataset, Encoder, Encoding, FeatureKind};

use crate::error::{Error, Result};

/// Fits the encoder of a model on its training data and returns it with
/// the encoded data the trees learn from.
///
/// # Errors
/// [`Error::MissingValue`] for a missing categorical value; the encoder's
/// errors (e.g. a column name given twice) as [`Error::Core`].
pub(crate) fn fit_encoder(data: &Dataset, encoding: Encoding) -> Result<(Encoder, Dataset)> {
    check_categorical_missing(data, |_| true)?;
    Ok(Encoder::fit(data, encoding)?)
}

/// `data` read as the model's training data was: columns matched by name,
/// categorical levels re-coded, one-hot encoded. Already encoded data (the
/// encoded training features, in order) passes through unchanged.
///
/// # Errors
/// [`Error::MissingValue`] for a missing categorical value of a column the
/// model reads; the encoder's typed errors (missing column, unseen level,
/// …) as [`Error::Core`].
pub(crate) fn encode(encoder: &Encoder, data: &Dataset) -> Result<Dataset> {
    if data.features() != encoder.encoded_features() {
        let schema = encoder.schema();
        check_categorical_missing(data, |name| {
            schema
                .features
                .iter()
                .any(|f| f.name == name && f.is_categorical())
        })?;
    }
    Ok(encoder.transform(data)?)
}

/// Errors on the first `NaN` in a categorical column of `data` that
/// `reads` selects (by name).
fn check_categorical_missing(data: &Dataset, reads: impl Fn(&str) -> bool) -> Result<()> {
    for (j, f) in data.features().iter().enumerate() {
        if matches!(f.kind, FeatureKind::Categorical { .. }) && reads(&f.name) {
            if let Some(row) = data.column(j).iter().position(|v| v.is_nan()) {
                return Err(Error::MissingValue {
                    feature: f.name.clone(),
                    row,
                });
            }
        }
    }
    Ok(())
}
