//! A scoring program as one SQL `SELECT` over the user's table.
//!
//! The query reads the schema's columns by name, passes the `keep`
//! columns through unchanged and writes, for every input row, the label
//! and one probability column per class (named by the class), or `value`
//! for a real target — the columns of `rulecover predict --proba`. It
//! computes what `rulecover predict --keep-missing` computes: a `NULL`
//! number is a missing value; a `NULL` category is the training level
//! `<missing>` when the model has one and an unseen level otherwise; a row
//! with an unseen level gets `NULL` outputs (the command line refuses such
//! a row) unless the program was exported with [`Unseen::Missing`], which
//! reads it as a missing value.
//!
//! The query is nested sub-queries, one per depth of the program's
//! bindings ([`Program::depths`]); numbers are written as text cast to a
//! double so that every engine reads the same `f64`; comparisons are
//! closed with `COALESCE` so that `NULL` compares as Rust compares `NaN`.
//! Engines: SQLite ≥ 3.35 with its math functions (`EXP`, `LN`), DuckDB,
//! PostgreSQL ≥ 13.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::{ExportError, Expr, Program, Test};
use crate::csv::MISSING_LEVEL;
use crate::dataset::FeatureKind;
use crate::schema::TargetSchema;

/// The SQL engine a query is written for: only quoting of numbers, casts
/// and function names change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// SQLite ≥ 3.35 built with its math functions.
    Sqlite,
    /// DuckDB.
    DuckDb,
    /// PostgreSQL ≥ 13.
    Postgres,
}

impl Dialect {
    /// The dialect of a name: `sqlite`, `duckdb`, `postgres` (or
    /// `postgresql`).
    pub fn parse(name: &str) -> Option<Dialect> {
        match name.to_ascii_lowercase().as_str() {
            "sqlite" => Some(Dialect::Sqlite),
            "duckdb" => Some(Dialect::DuckDb),
            "postgres" | "postgresql" => Some(Dialect::Postgres),
            _ => None,
        }
    }

    /// The dialect's name.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Sqlite => "sqlite",
            Dialect::DuckDb => "duckdb",
            Dialect::Postgres => "postgres",
        }
    }

    /// The type name of a double.
    fn double(self) -> &'static str {
        match self {
            Dialect::Sqlite => "REAL",
            Dialect::DuckDb => "DOUBLE",
            Dialect::Postgres => "DOUBLE PRECISION",
        }
    }

    /// What ends a sub-query so that the engine computes its columns
    /// once instead of copying their expressions into every use
    /// (PostgreSQL and SQLite flatten sub-queries otherwise, which grows
    /// a program whose values are read many times exponentially).
    fn fence(self) -> &'static str {
        match self {
            Dialect::Sqlite => " LIMIT -1 OFFSET 0",
            Dialect::DuckDb | Dialect::Postgres => " OFFSET 0",
        }
    }

    /// The type name of text.
    fn text(self) -> &'static str {
        match self {
            Dialect::Sqlite | Dialect::Postgres => "TEXT",
            Dialect::DuckDb => "VARCHAR",
        }
    }

    /// A double constant that every engine reads as exactly `v`.
    fn number(self, v: f64) -> String {
        if v.is_nan() {
            return format!("CAST(NULL AS {})", self.double());
        }
        let text = if v.is_infinite() {
            let sign = if v > 0.0 { "" } else { "-" };
            match self {
                // SQLite reads a literal beyond the largest double as infinity.
                Dialect::Sqlite => return format!("{sign}9e999"),
                Dialect::DuckDb | Dialect::Postgres => format!("{sign}Infinity"),
            }
        } else {
            format!("{v:?}")
        };
        match self {
            // A literal with a decimal point or exponent is a REAL in SQLite.
            Dialect::Sqlite => {
                if v == 0.0 && v.is_sign_negative() {
                    "(-0.0)".into()
                } else if text.starts_with('-') {
                    format!("({text})")
                } else {
                    text
                }
            }
            Dialect::DuckDb | Dialect::Postgres => {
                format!("CAST('{text}' AS {})", self.double())
            }
        }
    }
}

/// What the query does with a categorical level the model was not fitted
/// on (the model file's own policy is the command line's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unseen {
    /// The row's outputs are `NULL` (default; `predict` refuses the row).
    #[default]
    Null,
    /// The level is read as a missing value.
    Missing,
}

/// How to write the query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlOptions {
    /// The engine.
    pub dialect: Dialect,
    /// The table (or view) read: a name, or dotted names
    /// (`schema.table`), each part quoted.
    pub table: String,
    /// Columns passed through unchanged before the outputs.
    pub keep: Vec<String>,
    /// What an unseen categorical level gives.
    pub unseen: Unseen,
}

impl SqlOptions {
    /// Options for `dialect` reading `table`, keeping no column.
    pub fn new(dialect: Dialect, table: impl Into<String>) -> SqlOptions {
        SqlOptions {
            dialect,
            table: table.into(),
            keep: Vec::new(),
            unseen: Unseen::Null,
        }
    }
}

/// A quoted identifier.
fn ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A quoted text literal.
fn text(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

/// The name of input column `j` inside the query.
fn input_name(j: usize) -> String {
    format!("__rc_x{j}")
}

/// The name of binding `i` inside the query.
fn var_name(i: usize) -> String {
    format!("__rc_v{i}")
}

/// The name of the row's "every level was seen" flag inside the query.
const SEEN: &str = "__rc_seen";

/// The names of the output columns: `label` and the classes, or `value`.
pub fn output_columns(program: &Program) -> Vec<String> {
    match &program.schema().target {
        TargetSchema::Classes(names) => std::iter::once("label".to_string())
            .chain(names.iter().cloned())
            .collect(),
        _ => vec!["value".to_string()],
    }
}

/// Writes `program` as one `SELECT` over `options.table`.
///
/// # Errors
/// [`ExportError::Options`] when a `keep` column has the name of an
/// output column or is given twice, or the table name is empty.
pub fn to_sql(program: &Program, options: &SqlOptions) -> Result<String, ExportError> {
    let d = options.dialect;
    let outputs = output_columns(program);
    let mut seen_names = HashSet::new();
    for k in &options.keep {
        if outputs.iter().any(|o| o == k) {
            return Err(ExportError::Options(format!(
                "the kept column '{k}' has the name of an output column ({})",
                outputs.join(", ")
            )));
        }
        if !seen_names.insert(k.as_str()) {
            return Err(ExportError::Options(format!(
                "the column '{k}' is kept twice"
            )));
        }
    }
    if options.table.trim().is_empty() || options.table.split('.').any(str::is_empty) {
        return Err(ExportError::Options(format!(
            "'{}' is not a table name",
            options.table
        )));
    }
    let table = options
        .table
        .split('.')
        .map(ident)
        .collect::<Vec<_>>()
        .join(".");
    let labelled = program.labelled();
    let depths = super::binding_depths(&labelled.bindings);
    let keep: Vec<String> = options.keep.iter().map(|k| ident(k)).collect();

    // The innermost query: kept columns, inputs as doubles, the seen flag.
    let mut columns: Vec<String> = keep.clone();
    let mut seen_tests = Vec::new();
    for (j, feature) in program.schema().features.iter().enumerate() {
        let column = ident(&feature.name);
        let value = match &feature.kind {
            FeatureKind::Categorical { levels } => {
                let as_text = format!("CAST({column} AS {})", d.text());
                let mut case = format!("CASE {as_text}");
                for (code, level) in levels.iter().enumerate() {
                    write!(case, " WHEN {} THEN {}", text(level), d.number(code as f64))
                        .expect("write to String");
                }
                let missing_code = levels.iter().position(|l| l == MISSING_LEVEL);
                match missing_code {
                    Some(code) => {
                        case = format!(
                            "CASE WHEN {column} IS NULL THEN {} ELSE {case} END END",
                            d.number(code as f64)
                        );
                        seen_tests.push(format!(
                            "({column} IS NULL OR {as_text} IN ({}))",
                            level_list(levels)
                        ));
                    }
                    None => {
                        case.push_str(" END");
                        seen_tests.push(format!(
                            "({column} IS NOT NULL AND {as_text} IN ({}))",
                            level_list(levels)
                        ));
                    }
                }
                case
            }
            _ => format!("CAST({column} AS {})", d.double()),
        };
        columns.push(format!("{value} AS {}", ident(&input_name(j))));
    }
    let seen = match (options.unseen, seen_tests.is_empty()) {
        (Unseen::Null, false) => seen_tests.join(" AND "),
        _ => "TRUE".to_string(),
    };
    columns.push(format!("{seen} AS {}", ident(SEEN)));
    let mut steps = vec![format!(
        "__rc_s0 AS (SELECT {} FROM {table}{})",
        columns.join(", "),
        d.fence()
    )];

    // One step per depth of bindings, each reading the step before.
    let max_depth = depths.iter().copied().max();
    for depth in max_depth.map_or(0..0, |m| 0..m + 1) {
        let exprs: Vec<String> = labelled
            .bindings
            .iter()
            .enumerate()
            .filter(|(i, _)| depths[*i] == depth)
            .map(|(i, e)| format!("{} AS {}", expr(d, e), ident(&var_name(i))))
            .collect();
        steps.push(format!(
            "__rc_s{} AS (SELECT __rc_s{depth}.*,\n  {}\nFROM __rc_s{depth}{})",
            depth + 1,
            exprs.join(",\n  "),
            d.fence()
        ));
    }

    // The outputs, NULL for a row with an unseen level.
    let guarded = |e: String| format!("CASE WHEN {} THEN {e} END", ident(SEEN));
    let mut select = keep;
    match (&program.schema().target, &labelled.label) {
        (TargetSchema::Classes(names), Some(label)) => {
            let mut case = format!("CASE {}", expr(d, label));
            for (k, name) in names.iter().enumerate() {
                write!(case, " WHEN {} THEN {}", d.number(k as f64), text(name))
                    .expect("write to String");
            }
            case.push_str(" END");
            select.push(format!("{} AS {}", guarded(case), ident("label")));
            for (name, p) in names.iter().zip(&labelled.outputs) {
                select.push(format!("{} AS {}", guarded(expr(d, p)), ident(name)));
            }
        }
        _ => {
            let value = guarded(expr(d, &labelled.outputs[0]));
            select.push(format!("{value} AS {}", ident("value")));
        }
    }
    Ok(format!(
        "WITH {}\nSELECT {}\nFROM __rc_s{}",
        steps.join(",\n"),
        select.join(", "),
        steps.len() - 1
    ))
}

/// The levels as a list of text literals.
fn level_list(levels: &[String]) -> String {
    levels
        .iter()
        .map(|l| text(l))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A value as SQL.
fn expr(d: Dialect, e: &Expr) -> String {
    match e {
        Expr::Const(v) => d.number(*v),
        Expr::Input(j) => ident(&input_name(*j)),
        Expr::Var(i) => ident(&var_name(*i)),
        Expr::Sum(terms) => match terms.as_slice() {
            [] => d.number(0.0),
            // 0 + x is x for every x but -0: the sum starts from 0 as Rust's does.
            [only] => format!("({} + {})", d.number(0.0), expr(d, only)),
            _ => format!(
                "({})",
                terms
                    .iter()
                    .map(|t| expr(d, t))
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
        },
        Expr::Sub(a, b) => format!("({} - {})", expr(d, a), expr(d, b)),
        Expr::Mul(a, b) => format!("({} * {})", expr(d, a), expr(d, b)),
        Expr::Div(a, b) => format!("({} / {})", expr(d, a), expr(d, b)),
        Expr::Exp(a) => {
            // Below ln(2^-1075) the result is 0: PostgreSQL raises on the
            // underflow, so every dialect writes the 0 itself.
            let a = expr(d, a);
            format!(
                "(CASE WHEN {a} < {} THEN {} ELSE EXP({a}) END)",
                d.number(-745.13),
                d.number(0.0)
            )
        }
        Expr::Ln(a) => format!("LN({})", expr(d, a)),
        Expr::If(t, a, b) if d != Dialect::Sqlite => format!(
            "(CASE WHEN {} THEN {} ELSE {} END)",
            test(d, t),
            expr(d, a),
            expr(d, b)
        ),
        Expr::If(..) => {
            // In SQLite a tree of ifs is one flat CASE (nested ones
            // overflow its parser's stack on deep trees): the branches in
            // order, each under the tests of the `then` branches above
            // it. DuckDB and PostgreSQL take the nested form, which is
            // shorter by the depth of the tree.
            let mut arms = Vec::new();
            super::if_arms(e, &mut Vec::new(), &mut arms);
            let (last, arms) = arms.split_last().expect("an if has two branches");
            let mut case = String::from("(CASE");
            for (tests, value) in arms {
                let when = tests.iter().map(|t| test(d, t)).collect::<Vec<_>>();
                write!(case, " WHEN {} THEN {}", when.join(" AND "), expr(d, value))
                    .expect("write to String");
            }
            write!(case, " ELSE {} END)", expr(d, last.1)).expect("write to String");
            case
        }
    }
}

/// A test as a SQL condition that is never `NULL`.
fn test(d: Dialect, t: &Test) -> String {
    match t {
        Test::Cmp(op, a, b) => {
            let symbol = match op {
                super::Cmp::Eq => "=",
                super::Cmp::Ne => "<>",
                other => other.symbol(),
            };
            let unknown = if *op == super::Cmp::Ne {
                "TRUE"
            } else {
                "FALSE"
            };
            format!(
                "COALESCE({} {symbol} {}, {unknown})",
                expr(d, a),
                expr(d, b)
            )
        }
        Test::Missing(a) => format!("({} IS NULL)", expr(d, a)),
        Test::And(ts) if ts.is_empty() => "TRUE".into(),
        Test::Or(ts) if ts.is_empty() => "FALSE".into(),
        Test::And(ts) => format!(
            "({})",
            ts.iter()
                .map(|t| test(d, t))
                .collect::<Vec<_>>()
                .join(" AND ")
        ),
        Test::Or(ts) => format!(
            "({})",
            ts.iter()
                .map(|t| test(d, t))
                .collect::<Vec<_>>()
                .join(" OR ")
        ),
        Test::Not(t) => format!("(NOT {})", test(d, t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_back_exactly_by_each_dialect() {
        assert_eq!(Dialect::Sqlite.number(0.1), "0.1");
        assert_eq!(Dialect::Sqlite.number(-2.5), "(-2.5)");
        assert_eq!(Dialect::Sqlite.number(1.0), "1.0");
        assert_eq!(Dialect::Sqlite.number(f64::INFINITY), "9e999");
        assert_eq!(
            Dialect::Postgres.number(1e-7),
            "CAST('1e-7' AS DOUBLE PRECISION)"
        );
        assert_eq!(
            Dialect::DuckDb.number(f64::NEG_INFINITY),
            "CAST('-Infinity' AS DOUBLE)"
        );
        assert_eq!(
            Dialect::Postgres.number(f64::NAN),
            "CAST(NULL AS DOUBLE PRECISION)"
        );
        // Rust's shortest round-trip digits parse back to the same double.
        for v in [
            0.1,
            1.0 / 3.0,
            2.0f64.powi(-1074),
            f64::MAX,
            123_456_789.123_456_78,
        ] {
            assert_eq!(format!("{v:?}").parse::<f64>().unwrap(), v);
        }
    }

    #[test]
    fn identifiers_and_text_are_quoted() {
        assert_eq!(ident("a\"b"), "\"a\"\"b\"");
        assert_eq!(text("it's"), "'it''s'");
    }
}
