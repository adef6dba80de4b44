//! The read itself: one streaming pass into column buffers, a second pass
//! over the columns that turned out not to be numeric, then the
//! missing-value policies, the level and class orders, and the report.

use super::columns::{compact, Interned, NumberColumn, Offending, SchemaLevels, MISSING, UNSEEN};
use super::labels::TargetReader;
use super::plan::{FeatureSpec, How, Plan, TargetHow};
use super::report::{ColumnDecision, CsvReport, KindReason};
use super::source::Source;
use super::{ColumnKind, CsvOptions, MissingCategorical, MissingNumeric, MISSING_LEVEL};
use crate::dataset::{Dataset, Feature, FeatureKind};
use crate::error::{Error, Result};

/// A feature column being read.
#[derive(Debug)]
enum Buffer {
    Numbers(NumberColumn),
    Levels(Interned),
    Schema(SchemaLevels),
}

impl Buffer {
    fn new(spec: &FeatureSpec, opts: &CsvOptions) -> Buffer {
        match &spec.how {
            How::Declared(ColumnKind::Numeric) => Buffer::Numbers(NumberColumn::new(true)),
            How::Declared(ColumnKind::Categorical) => Buffer::Levels(Interned::levels()),
            How::Detect => Buffer::Numbers(NumberColumn::new(false)),
            How::Schema(f) => match &f.kind {
                FeatureKind::Categorical { levels } => {
                    Buffer::Schema(SchemaLevels::new(levels.clone(), opts.unseen_level))
                }
                FeatureKind::Numeric | FeatureKind::Indicator { .. } => {
                    Buffer::Numbers(NumberColumn::new(true))
                }
            },
        }
    }

    /// Rows whose value is missing, as the missing-value policies see it.
    fn is_missing(&self, i: usize) -> bool {
        match self {
            Buffer::Numbers(c) => c.values[i].is_nan(),
            Buffer::Levels(c) => c.codes[i] == MISSING,
            Buffer::Schema(c) => c.codes[i] == MISSING,
        }
    }

    fn missing_count(&self) -> usize {
        match self {
            Buffer::Numbers(c) => c.values.iter().filter(|v| v.is_nan()).count(),
            Buffer::Levels(c) => c.codes.iter().filter(|&&v| v == MISSING).count(),
            Buffer::Schema(c) => c.codes.iter().filter(|&&v| v == MISSING).count(),
        }
    }

    fn drops_missing(&self, opts: &CsvOptions) -> bool {
        match self {
            Buffer::Numbers(_) => opts.missing_numeric == MissingNumeric::DropRows,
            Buffer::Levels(_) | Buffer::Schema(_) => {
                opts.missing_categorical == MissingCategorical::DropRows
            }
        }
    }
}

/// Reads `source` as `opts` say; `file` names it in errors, `name` names
/// the dataset.
pub(super) fn read(
    source: &Source<'_>,
    file: &str,
    name: &str,
    opts: &CsvOptions,
) -> Result<(Dataset, CsvReport)> {
    let mut records = source.open(file, opts.delimiter)?;
    let plan = Plan::new(file, records.header(), opts)?;
    let mut buffers: Vec<Buffer> = plan.features.iter().map(|s| Buffer::new(s, opts)).collect();
    let mut target = plan.target.as_ref().map(|t| match &t.how {
        TargetHow::Task(task) => TargetReader::detect(&t.name, *task),
        TargetHow::Schema(classes) => TargetReader::schema(&t.name, classes.as_deref()),
    });
    let is_missing = |v: &str| opts.missing_markers.iter().any(|m| m == v);
    while records.advance()? {
        let row = records.rows();
        for (spec, buffer) in plan.features.iter().zip(&mut buffers) {
            let text = records.field(spec.column)?;
            let missing = is_missing(text);
            match buffer {
                Buffer::Numbers(c) => c.push(row, text, missing),
                Buffer::Levels(c) => c.push(text, missing),
                Buffer::Schema(c) => c.push(file, &spec.name, row, text, missing)?,
            }
        }
        if let (Some(reader), Some(spec)) = (&mut target, &plan.target) {
            let text = records.field(spec.column)?;
            reader.push(file, row, text, is_missing(text))?;
        }
    }
    let n_rows = records.rows();
    drop(records);
    if n_rows == 0 {
        return Err(Error::Empty {
            file: file.to_string(),
            what: "the file has a header but no data rows".into(),
        });
    }

    // Why each feature has its kind, before the buffers of undeclared
    // columns that met non-numbers are replaced by their text.
    let reasons: Vec<KindReason> = plan
        .features
        .iter()
        .zip(&buffers)
        .map(|(spec, buffer)| match (&spec.how, buffer) {
            (How::Declared(_), _) => KindReason::Declared,
            (How::Schema(_), _) => KindReason::Schema,
            (
                How::Detect,
                Buffer::Numbers(NumberColumn {
                    not_numbers: Some(o),
                    ..
                }),
            ) => KindReason::NotNumbers {
                count: o.count,
                first_row: o.row,
                first_value: o.value.clone(),
            },
            (How::Detect, _) => KindReason::AllNumbers,
        })
        .collect();
    reread_as_text(
        source,
        file,
        opts,
        &plan,
        &mut buffers,
        target.as_mut(),
        n_rows,
    )?;

    let keep = rows_to_keep(&buffers, opts, n_rows);
    let keep = keep.as_deref();
    let n_kept = keep.map_or(n_rows, |k| k.iter().filter(|&&k| k).count());
    if n_kept == 0 {
        return Err(Error::Empty {
            file: file.to_string(),
            what: "every row was dropped for missing values".into(),
        });
    }

    let mut features = Vec::with_capacity(buffers.len());
    let mut columns = Vec::with_capacity(buffers.len());
    let mut decisions = Vec::with_capacity(buffers.len());
    for ((spec, buffer), reason) in plan.features.iter().zip(buffers).zip(reasons) {
        let missing = buffer.missing_count();
        let (feature, column) = finish_column(file, spec, buffer, keep, opts)?;
        decisions.push(ColumnDecision {
            column: spec.name.clone(),
            kind: if feature.is_categorical() {
                ColumnKind::Categorical
            } else {
                ColumnKind::Numeric
            },
            levels: match &feature.kind {
                FeatureKind::Categorical { levels } => levels.len(),
                _ => 0,
            },
            missing,
            reason,
        });
        features.push(feature);
        columns.push(column);
    }
    let (target, target_decision) = match target {
        Some(reader) => {
            let (t, d) = reader.finish(file, keep, opts.positive_class.as_deref())?;
            (t, Some(d))
        }
        None => (crate::Target::None, None),
    };
    let data = Dataset::new(name, features, columns, target)?;
    let report = CsvReport {
        rows_read: n_rows,
        rows_dropped: n_rows - n_kept,
        features: decisions,
        target: target_decision,
        ignored: plan.ignored,
    };
    Ok((data, report))
}

/// Reads again, as text, the undeclared columns that met a non-number
/// (and an automatic target that needs its labels back).
fn reread_as_text(
    source: &Source<'_>,
    file: &str,
    opts: &CsvOptions,
    plan: &Plan,
    buffers: &mut [Buffer],
    target: Option<&mut TargetReader>,
    n_rows: usize,
) -> Result<()> {
    let mut again: Vec<(usize, usize, Interned)> = plan
        .features
        .iter()
        .zip(buffers.iter())
        .enumerate()
        .filter(|(_, (_, b))| matches!(b, Buffer::Numbers(c) if c.not_numbers.is_some()))
        .map(|(j, (spec, _))| (j, spec.column, Interned::levels()))
        .collect();
    let mut labels = match (&target, &plan.target) {
        (Some(t), Some(spec)) if t.needs_labels() => Some((spec.column, Interned::labels())),
        _ => None,
    };
    if again.is_empty() && labels.is_none() {
        return Ok(());
    }
    let is_missing = |v: &str| opts.missing_markers.iter().any(|m| m == v);
    let mut records = source.open(file, opts.delimiter)?;
    while records.advance()? {
        for (_, column, interned) in &mut again {
            let text = records.field(*column)?;
            interned.push(text, is_missing(text));
        }
        if let Some((column, interned)) = &mut labels {
            let text = records.field(*column)?;
            interned.push(text, is_missing(text));
        }
    }
    if records.rows() != n_rows {
        return Err(Error::Csv {
            file: file.to_string(),
            row: records.rows(),
            message: format!(
                "the file changed while it was read ({n_rows} rows, then {})",
                records.rows()
            ),
        });
    }
    for (j, _, interned) in again {
        buffers[j] = Buffer::Levels(interned);
    }
    if let (Some(reader), Some((_, interned))) = (target, labels) {
        reader.set_labels(interned);
    }
    Ok(())
}

/// The rows the drop-rows policies keep (`None`: all of them).
fn rows_to_keep(buffers: &[Buffer], opts: &CsvOptions, n_rows: usize) -> Option<Vec<bool>> {
    let mut keep: Option<Vec<bool>> = None;
    for buffer in buffers.iter().filter(|b| b.drops_missing(opts)) {
        for i in 0..n_rows {
            if buffer.is_missing(i) {
                keep.get_or_insert_with(|| vec![true; n_rows])[i] = false;
            }
        }
    }
    keep
}

/// " (N what in all)" when there is more than one.
fn more(n: usize, what: &str) -> String {
    if n > 1 {
        format!(" ({n} {what} in all)")
    } else {
        String::new()
    }
}

/// The first kept row (1-based) where `missing` holds, and how many.
fn first_missing(
    n: usize,
    keep: Option<&[bool]>,
    missing: impl Fn(usize) -> bool,
) -> Option<(usize, usize)> {
    let mut first = None;
    let mut count = 0;
    for i in (0..n).filter(|&i| keep.is_none_or(|k| k[i]) && missing(i)) {
        first.get_or_insert(i + 1);
        count += 1;
    }
    first.map(|row| (row, count))
}

fn missing_value_error(file: &str, column: &str, row: usize, count: usize) -> Error {
    Error::MissingValue {
        file: file.to_string(),
        column: column.to_string(),
        row,
        more: more(count, "missing values"),
    }
}

/// One feature of the kept rows, applying the missing-value policies.
fn finish_column(
    file: &str,
    spec: &FeatureSpec,
    buffer: Buffer,
    keep: Option<&[bool]>,
    opts: &CsvOptions,
) -> Result<(Feature, Vec<f64>)> {
    let name = spec.name.clone();
    match buffer {
        Buffer::Numbers(c) => {
            if let Some(Offending { row, value, count }) = c.bad {
                return Err(Error::NotNumeric {
                    file: file.to_string(),
                    column: name,
                    row,
                    value,
                    more: more(count, "such values"),
                });
            }
            let mut values = c.values;
            if opts.missing_numeric == MissingNumeric::Error {
                if let Some((row, count)) =
                    first_missing(values.len(), keep, |i| values[i].is_nan())
                {
                    return Err(missing_value_error(file, &name, row, count));
                }
            }
            compact(&mut values, keep);
            values.shrink_to_fit();
            let feature = match &spec.how {
                How::Schema(f) => f.clone(),
                _ => Feature::numeric(name),
            };
            Ok((feature, values))
        }
        Buffer::Levels(c) => {
            let missing = first_missing(c.codes.len(), keep, |i| c.codes[i] == MISSING);
            if let (Some((row, count)), MissingCategorical::Error) =
                (missing, &opts.missing_categorical)
            {
                return Err(missing_value_error(file, &name, row, count));
            }
            let (mut levels, codes) = c.finish(keep);
            let missing_code = match (missing, &opts.missing_categorical) {
                (Some(_), MissingCategorical::OwnLevel) => {
                    levels.push(MISSING_LEVEL.to_string());
                    (levels.len() - 1) as f64
                }
                _ => f64::NAN,
            };
            let values = codes
                .into_iter()
                .map(|c| if c == MISSING { missing_code } else { c as f64 })
                .collect();
            Ok((Feature::categorical(name, levels), values))
        }
        Buffer::Schema(c) => {
            let missing = first_missing(c.codes.len(), keep, |i| c.codes[i] == MISSING);
            let missing_code = match (missing, &opts.missing_categorical) {
                (Some((row, count)), MissingCategorical::Error) => {
                    return Err(missing_value_error(file, &name, row, count))
                }
                (Some((row, _)), MissingCategorical::OwnLevel) => {
                    match c.levels().iter().position(|l| l == MISSING_LEVEL) {
                        Some(code) => code as f64,
                        None => {
                            c.unseen(file, &name, row, MISSING_LEVEL)?;
                            f64::NAN
                        }
                    }
                }
                _ => f64::NAN,
            };
            let levels = c.levels().to_vec();
            let mut codes = c.codes;
            compact(&mut codes, keep);
            let values = codes
                .into_iter()
                .map(|c| match c {
                    MISSING => missing_code,
                    UNSEEN => f64::NAN,
                    c => c as f64,
                })
                .collect();
            Ok((Feature::categorical(name, levels), values))
        }
    }
}
