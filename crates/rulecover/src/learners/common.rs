//! What the method items share: the short form of a parameter and the
//! common parameter kinds and task lists.

use crate::method::Task;
use crate::params::{ParamKind, ParamSpec};

/// A parameter: name, kind, its one default and its doc.
pub(crate) const fn p(
    name: &'static str,
    kind: ParamKind,
    default: &'static str,
    doc: &'static str,
) -> ParamSpec {
    ParamSpec {
        name,
        kind,
        default,
        doc,
    }
}

/// An integer >= 1.
pub(crate) const INT1: ParamKind = ParamKind::Int { min: 1 };
/// An integer >= 0.
pub(crate) const INT0: ParamKind = ParamKind::Int { min: 0 };
/// An integer >= 1, or none.
pub(crate) const OPT_DEPTH: ParamKind = ParamKind::OptInt { min: 1 };

/// Two or more classes.
pub(crate) const CLS: &[Task] = &[Task::Binary, Task::Multiclass];
/// Classes or a real target.
pub(crate) const CLS_REG: &[Task] = &[Task::Binary, Task::Multiclass, Task::Regression];
/// A relational target.
pub(crate) const REL: &[Task] = &[Task::Relational];

/// Every parameter of `spec` at its default.
#[cfg(test)]
pub(crate) fn defaults(spec: &'static crate::method::MethodSpec) -> crate::params::Args {
    let none: [(String, String); 0] = [];
    crate::params::Args::resolve(spec.id, spec.params, &none).unwrap()
}
