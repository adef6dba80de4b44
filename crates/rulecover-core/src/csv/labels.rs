//! The target column: class labels (numbers compared as numbers), real
//! values, or the classes of a schema; the automatic choice between
//! classes and real values; the positive class.

use std::collections::HashMap;

use super::columns::{compact, Interned, MISSING};
use super::report::{TargetDecision, TargetReason};
use super::{TaskKind, AUTO_MAX_CLASSES};
use crate::dataset::Target;
use crate::error::{Error, Result};
use crate::schema::{position_of_label, same_label};

/// Reads the target column row by row.
#[derive(Debug)]
pub(super) struct TargetReader {
    column: String,
    how: How,
    /// Missing values: (1-based row, text); an error if the row is kept.
    missing: Vec<(usize, String)>,
}

#[derive(Debug)]
enum How {
    /// Classes or real values as `task` says (or as the values say).
    Detect(Detected),
    /// The classes of a schema.
    SchemaClasses {
        names: Vec<String>,
        cache: HashMap<Box<str>, u32>,
        codes: Vec<u32>,
    },
    /// Real values for a schema with a real target.
    SchemaReal(Vec<f64>),
}

#[derive(Debug)]
struct Detected {
    task: TaskKind,
    /// Every value so far parsed as a number (`NaN` when missing); gone at
    /// the first non-number.
    numbers: Option<Vec<f64>>,
    /// The values as labels; under [`TaskKind::Auto`] given up while all
    /// values are numbers and there are more than [`AUTO_MAX_CLASSES`].
    labels: Option<Interned>,
    /// The first value that is not a number.
    first_label: Option<(usize, String)>,
    /// The first value that is a number but not finite.
    first_non_finite: Option<(usize, String)>,
}

impl TargetReader {
    /// A target read as `task` says.
    pub(super) fn detect(column: &str, task: TaskKind) -> Self {
        let numbers = (task != TaskKind::Classification).then(Vec::new);
        let labels = (task != TaskKind::Regression).then(Interned::labels);
        TargetReader {
            column: column.to_string(),
            how: How::Detect(Detected {
                task,
                numbers,
                labels,
                first_label: None,
                first_non_finite: None,
            }),
            missing: Vec::new(),
        }
    }

    /// A target read with a schema's classes (`Some`) or as real values.
    pub(super) fn schema(column: &str, classes: Option<&[String]>) -> Self {
        TargetReader {
            column: column.to_string(),
            how: match classes {
                Some(names) => How::SchemaClasses {
                    names: names.to_vec(),
                    cache: HashMap::new(),
                    codes: Vec::new(),
                },
                None => How::SchemaReal(Vec::new()),
            },
            missing: Vec::new(),
        }
    }

    fn bad(&self, file: &str, row: usize, value: &str) -> Error {
        Error::BadTarget {
            file: file.to_string(),
            column: self.column.clone(),
            row,
            value: value.to_string(),
        }
    }

    /// Adds the value of data row `row` (1-based).
    pub(super) fn push(&mut self, file: &str, row: usize, text: &str, missing: bool) -> Result<()> {
        if missing {
            self.missing.push((row, text.to_string()));
        }
        match &mut self.how {
            How::Detect(d) => {
                if let Some(labels) = &mut d.labels {
                    labels.push(text, missing);
                }
                if let Some(numbers) = &mut d.numbers {
                    if missing {
                        numbers.push(f64::NAN);
                    } else {
                        match text.parse::<f64>() {
                            Ok(x) if x.is_finite() => numbers.push(x),
                            Ok(x) if d.task == TaskKind::Auto => {
                                d.first_non_finite.get_or_insert((row, text.to_string()));
                                numbers.push(x);
                            }
                            _ if d.task == TaskKind::Regression => {
                                return Err(self.bad(file, row, text))
                            }
                            _ => {
                                d.numbers = None;
                                d.first_label = Some((row, text.to_string()));
                            }
                        }
                    }
                }
                if d.numbers.is_some()
                    && d.labels
                        .as_ref()
                        .is_some_and(|l| l.len() > AUTO_MAX_CLASSES)
                {
                    d.labels = None;
                }
            }
            How::SchemaClasses {
                names,
                cache,
                codes,
            } => {
                let code = if missing {
                    MISSING
                } else if let Some(&code) = cache.get(text) {
                    code
                } else {
                    let code = position_of_label(names, text).ok_or_else(|| Error::UnseenClass {
                        data: file.to_string(),
                        class: text.to_string(),
                        known: names.join(", "),
                    })? as u32;
                    cache.insert(text.into(), code);
                    code
                };
                codes.push(code);
            }
            How::SchemaReal(values) => {
                if missing {
                    values.push(f64::NAN);
                } else {
                    match text.parse::<f64>() {
                        Ok(x) if x.is_finite() => values.push(x),
                        _ => return Err(self.bad(file, row, text)),
                    }
                }
            }
        }
        Ok(())
    }

    /// True when the labels must be read again as text: an automatic
    /// target that gave up its labels (many distinct numbers) and then
    /// met a non-number.
    pub(super) fn needs_labels(&self) -> bool {
        matches!(&self.how, How::Detect(d) if d.numbers.is_none() && d.labels.is_none())
    }

    /// Hands over the labels read again as text.
    pub(super) fn set_labels(&mut self, labels: Interned) {
        if let How::Detect(d) = &mut self.how {
            d.labels = Some(labels);
        }
    }

    /// The target of the kept rows, and what was decided.
    pub(super) fn finish(
        self,
        file: &str,
        keep: Option<&[bool]>,
        positive_class: Option<&str>,
    ) -> Result<(Target, TargetDecision)> {
        let kept = |row: usize| keep.is_none_or(|k| k[row - 1]);
        if let Some((row, text)) = self.missing.iter().find(|(row, _)| kept(*row)) {
            return Err(self.bad(file, *row, text));
        }
        let column = self.column.clone();
        let (target, reason) = match self.how {
            How::Detect(d) => {
                let (classification, reason) = decide(&d, keep);
                if classification {
                    let labels = d.labels.ok_or_else(|| {
                        Error::Shape(format!("{file}: the labels of '{column}' were not kept"))
                    })?;
                    let (names, codes) = labels.finish(keep);
                    (classes(names, codes), reason)
                } else {
                    if let Some((row, text)) = &d.first_non_finite {
                        return Err(Error::BadTarget {
                            file: file.to_string(),
                            column,
                            row: *row,
                            value: text.clone(),
                        });
                    }
                    let mut values = d.numbers.unwrap_or_default();
                    compact(&mut values, keep);
                    values.shrink_to_fit();
                    (Target::Real(values), reason)
                }
            }
            How::SchemaClasses { names, codes, .. } => {
                let mut codes = codes;
                compact(&mut codes, keep);
                (classes(names, codes), TargetReason::Schema)
            }
            How::SchemaReal(mut values) => {
                compact(&mut values, keep);
                (Target::Real(values), TargetReason::Schema)
            }
        };
        let target = match positive_class {
            Some(p) if reason != TargetReason::Schema => with_positive_class(target, p, &column)?,
            _ => target,
        };
        let decision = TargetDecision {
            column,
            classes: match &target {
                Target::Classes { names, .. } => Some(names.len()),
                _ => None,
            },
            reason,
        };
        Ok((target, decision))
    }
}

fn classes(names: Vec<String>, codes: Vec<u32>) -> Target {
    Target::Classes {
        labels: codes.into_iter().map(|c| c as usize).collect(),
        names,
    }
}

/// Classes or real values, and why.
fn decide(d: &Detected, keep: Option<&[bool]>) -> (bool, TargetReason) {
    match d.task {
        TaskKind::Classification => (true, TargetReason::Declared),
        TaskKind::Regression => (false, TargetReason::Declared),
        TaskKind::Auto => match (&d.numbers, &d.first_label) {
            (None, Some((row, value))) => (
                true,
                TargetReason::NotNumbers {
                    first_row: *row,
                    first_value: value.clone(),
                },
            ),
            (None, None) => (true, TargetReason::Declared),
            (Some(xs), _) => {
                let integers = xs
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| keep.is_none_or(|k| k[*i]))
                    .all(|(_, x)| x.fract() == 0.0);
                let distinct = d.labels.as_ref().map(|l| {
                    let mut used = vec![false; l.len()];
                    for (i, &c) in l.codes.iter().enumerate() {
                        if c != MISSING && keep.is_none_or(|k| k[i]) {
                            used[c as usize] = true;
                        }
                    }
                    used.iter().filter(|&&u| u).count()
                });
                match distinct {
                    Some(n) if integers && n <= AUTO_MAX_CLASSES => {
                        (true, TargetReason::FewIntegers { distinct: n })
                    }
                    _ => (false, TargetReason::RealValues),
                }
            }
        },
    }
}

/// Makes class `positive` class 1 of a binary target.
fn with_positive_class(target: Target, positive: &str, column: &str) -> Result<Target> {
    let invalid = |reason: String| Error::InvalidParameter {
        name: "positive_class",
        value: positive.to_string(),
        reason,
    };
    let Target::Classes { labels, names } = target else {
        return Err(invalid(format!(
            "the target column '{column}' holds real values, not two classes"
        )));
    };
    if names.len() != 2 {
        return Err(invalid(format!(
            "the target column '{column}' has {} classes ({}); a positive class needs two",
            names.len(),
            names.join(", ")
        )));
    }
    match position_of_label(&names, positive) {
        Some(1) => Ok(Target::Classes { labels, names }),
        Some(_) => Ok(Target::Classes {
            labels: labels.into_iter().map(|l| 1 - l).collect(),
            names: vec![names[1].clone(), names[0].clone()],
        }),
        None => Err(invalid(format!(
            "not a label of the target column '{column}' (labels: {})",
            names.join(", ")
        ))),
    }
}

/// Checks a positive class against a schema's classes: it must be the
/// schema's class 1 of two.
pub(super) fn check_schema_positive_class(names: &[String], positive: &str) -> Result<()> {
    if names.len() == 2 && same_label(&names[1], positive) {
        return Ok(());
    }
    Err(Error::InvalidParameter {
        name: "positive_class",
        value: positive.to_string(),
        reason: format!(
            "the schema fixes the classes as {} (class 1 is the positive one)",
            names.join(", ")
        ),
    })
}
