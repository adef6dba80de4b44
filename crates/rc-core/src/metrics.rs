//! Evaluation metrics for classifiers and regressors.

/// Index of the largest value (the first one on ties; 0 for an empty
/// slice). `NaN`s are never chosen over a number.
pub fn argmax(values: &[f64]) -> usize {
    let mut best = 0;
    for (k, &v) in values.iter().enumerate() {
        if v > values[best] || values[best].is_nan() && !v.is_nan() {
            best = k;
        }
    }
    best
}
