//! Which file column becomes which feature (with which kind), which one
//! is the target, and which ones are not read — from the header and the
//! options, with or without a schema.

use std::collections::HashMap;

use super::labels::check_schema_positive_class;
use super::{ColumnKind, CsvOptions, TargetColumn, TaskKind};
use crate::dataset::{Feature, FeatureKind};
use crate::error::{Error, Result};
use crate::schema::{Schema, TargetSchema};

/// How a feature column is read.
#[derive(Debug, Clone)]
pub(super) enum How {
    /// With a declared kind.
    Declared(ColumnKind),
    /// Numeric while every value is a number, categorical otherwise.
    Detect,
    /// As this feature of the schema.
    Schema(Feature),
}

/// One feature of the dataset.
#[derive(Debug, Clone)]
pub(super) struct FeatureSpec {
    /// Its name.
    pub(super) name: String,
    /// Its position in the file.
    pub(super) column: usize,
    /// How to read it.
    pub(super) how: How,
}

/// How the target is read.
#[derive(Debug, Clone)]
pub(super) enum TargetHow {
    /// As the task says.
    Task(TaskKind),
    /// With these schema classes (`None`: real values).
    Schema(Option<Vec<String>>),
}

/// The target column.
#[derive(Debug, Clone)]
pub(super) struct TargetSpec {
    /// Its name.
    pub(super) name: String,
    /// Its position in the file.
    pub(super) column: usize,
    /// How to read it.
    pub(super) how: TargetHow,
}

/// What to read from a file.
#[derive(Debug, Clone)]
pub(super) struct Plan {
    /// The features in dataset order.
    pub(super) features: Vec<FeatureSpec>,
    /// The target, if any.
    pub(super) target: Option<TargetSpec>,
    /// Columns not read.
    pub(super) ignored: Vec<String>,
}

impl Plan {
    /// The plan for a file with this header.
    pub(super) fn new(file: &str, header: &[String], opts: &CsvOptions) -> Result<Plan> {
        match &opts.schema {
            Some(schema) => for_schema(file, header, schema, opts),
            None => detected(file, header, opts),
        }
    }
}

fn unknown(file: &str, header: &[String], column: &str) -> Error {
    Error::UnknownColumn {
        file: file.to_string(),
        column: column.to_string(),
        available: header.join(", "),
    }
}

fn detected(file: &str, header: &[String], opts: &CsvOptions) -> Result<Plan> {
    let find = |col: &str| {
        header
            .iter()
            .position(|h| h == col)
            .ok_or_else(|| unknown(file, header, col))
    };
    let target = match &opts.target {
        TargetColumn::Last => Some(header.len() - 1),
        TargetColumn::Named(name) => Some(find(name)?),
        TargetColumn::None => None,
    };
    for c in opts.drop_columns.iter().chain(opts.kinds.keys()) {
        find(c)?;
    }
    let mut features = Vec::new();
    let mut ignored = Vec::new();
    for (c, name) in header.iter().enumerate() {
        if Some(c) == target {
            continue;
        }
        if opts.drop_columns.contains(name) {
            ignored.push(name.clone());
            continue;
        }
        let how = match opts.kinds.get(name).copied().or(opts.default_kind) {
            Some(kind) => How::Declared(kind),
            None => How::Detect,
        };
        features.push(FeatureSpec {
            name: name.clone(),
            column: c,
            how,
        });
    }
    Ok(Plan {
        features,
        target: target.map(|c| TargetSpec {
            name: header[c].clone(),
            column: c,
            how: TargetHow::Task(opts.task),
        }),
        ignored,
    })
}

/// The options that must agree with a schema do.
fn check_options(schema: &Schema, opts: &CsvOptions) -> Result<()> {
    for f in &schema.features {
        let schema_kind = match f.kind {
            FeatureKind::Categorical { .. } => ColumnKind::Categorical,
            FeatureKind::Numeric | FeatureKind::Indicator { .. } => ColumnKind::Numeric,
        };
        if let Some(&kind) = opts.kinds.get(&f.name) {
            if kind != schema_kind {
                return Err(Error::InvalidParameter {
                    name: "kind",
                    value: format!("{}: {kind:?}", f.name),
                    reason: format!("the schema reads '{}' as {schema_kind:?}", f.name),
                });
            }
        }
        if opts.drop_columns.contains(&f.name) {
            return Err(Error::InvalidParameter {
                name: "drop_columns",
                value: f.name.clone(),
                reason: "the schema needs this column".into(),
            });
        }
    }
    let conflict = match (&schema.target, opts.task) {
        (TargetSchema::Classes(_), TaskKind::Regression) => Some("classes"),
        (TargetSchema::Real, TaskKind::Classification) => Some("real values"),
        _ => None,
    };
    if let Some(what) = conflict {
        return Err(Error::InvalidParameter {
            name: "task",
            value: format!("{:?}", opts.task),
            reason: format!("the schema's target holds {what}"),
        });
    }
    if let (Some(p), TargetSchema::Classes(names)) = (&opts.positive_class, &schema.target) {
        check_schema_positive_class(names, p)?;
    }
    Ok(())
}

fn for_schema(file: &str, header: &[String], schema: &Schema, opts: &CsvOptions) -> Result<Plan> {
    check_options(schema, opts)?;
    let by_name: HashMap<&str, usize> = header
        .iter()
        .enumerate()
        .map(|(c, h)| (h.as_str(), c))
        .collect();
    let features = schema
        .features
        .iter()
        .map(|f| match by_name.get(f.name.as_str()) {
            Some(&column) => Ok(FeatureSpec {
                name: f.name.clone(),
                column,
                how: How::Schema(f.clone()),
            }),
            None => Err(Error::MissingColumn {
                data: file.to_string(),
                column: f.name.clone(),
                available: header.join(", "),
            }),
        })
        .collect::<Result<Vec<_>>>()?;
    let is_feature = |c: usize| features.iter().any(|f| f.column == c);
    let target_column = match (&schema.target, &opts.target) {
        (TargetSchema::None, _) | (_, TargetColumn::None) => None,
        (_, TargetColumn::Named(name)) => by_name.get(name.as_str()).copied(),
        (_, TargetColumn::Last) => {
            let last = header.len() - 1;
            (!is_feature(last) && !opts.drop_columns.contains(&header[last])).then_some(last)
        }
    };
    let target = target_column.map(|column| TargetSpec {
        name: header[column].clone(),
        column,
        how: TargetHow::Schema(match &schema.target {
            TargetSchema::Classes(names) => Some(names.clone()),
            _ => None,
        }),
    });
    let ignored = (0..header.len())
        .filter(|&c| !is_feature(c) && Some(c) != target_column)
        .map(|c| header[c].clone())
        .collect();
    Ok(Plan {
        features,
        target,
        ignored,
    })
}
