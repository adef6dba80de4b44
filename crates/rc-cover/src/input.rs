//! Reading new data the way a model was trained: align the columns by
//! name and encode them with the model's [`Encoder`], then refuse missing
//! values, which the rules cannot evaluate.

use rulecover_core::{Dataset, Encoder};

use crate::error::{Error, Result};

/// `data` aligned and encoded by `encoder` ([`Encoder::transform`]), with
/// a typed error for the first missing value.
///
/// # Errors
/// The alignment errors of [`Encoder::transform`] (missing column, unseen
/// level, …) and [`Error::MissingValue`] naming the encoded feature and
/// the row of the first `NaN`.
pub fn encoded(encoder: &Encoder, data: &Dataset) -> Result<Dataset> {
    let data = encoder.transform(data)?;
    check_no_missing(&data)?;
    Ok(data)
}

/// [`Error::MissingValue`] for the first `NaN` of `data` (column by
/// column), else `Ok`.
pub fn check_no_missing(data: &Dataset) -> Result<()> {
    for (j, feature) in data.features().iter().enumerate() {
        if let Some(row) = data.column(j).iter().position(|v| v.is_nan()) {
            return Err(Error::MissingValue {
                feature: feature.name.clone(),
                row,
            });
        }
    }
    Ok(())
}
