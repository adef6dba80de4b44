//! A scoring program as one dependency-free Python module with
//! `predict(row)` and `predict_proba(row)`, `row` a `dict` from column
//! name to value.
//!
//! It computes what `rulecover predict --keep-missing` computes: a missing
//! value is `None`, `float('nan')` or an absent key; a category is
//! compared as text (`str(value)`, an integral float written without
//! `.0`), a missing category is the training level `<missing>` when the
//! model has one; an unseen level raises `ValueError` naming the column
//! and the value, as `predict` refuses it. Numbers are written with
//! `repr`'s round-trip digits, so the module holds the model's `f64`s.

use std::fmt::Write as _;

use super::{Cmp, Expr, Program, Test};
use crate::csv::MISSING_LEVEL;
use crate::dataset::FeatureKind;
use crate::schema::TargetSchema;

/// A Python string literal.
fn string(value: &str) -> String {
    let mut out = String::from("'");
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                write!(out, "\\x{:02x}", c as u32).expect("write to String")
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// A float literal Python reads as exactly `v`.
fn number(v: f64) -> String {
    if v.is_nan() {
        "_NAN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "_INF" } else { "(-_INF)" }.into()
    } else if v.is_sign_negative() {
        format!("({v:?})")
    } else {
        format!("{v:?}")
    }
}

/// Writes `program` as a Python module; `header` lines become its
/// docstring's first lines (the method, the model file).
pub fn to_python(program: &Program, header: &str) -> String {
    let schema = program.schema();
    let labelled = program.labelled();
    let mut out = String::new();
    out.push_str("\"\"\"");
    for line in header.lines() {
        out.push_str(&line.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\""));
        out.push('\n');
    }
    out.push_str(
        "\nA rulecover model as plain Python (no dependencies): `predict(row)` and\n\
         `predict_proba(row)` take a dict from column name to value. A missing\n\
         value is None, NaN or an absent key.\n\"\"\"\n\n",
    );
    out.push_str("import math\n\n_NAN = float('nan')\n_INF = float('inf')\n\n");
    match &schema.target {
        TargetSchema::Classes(names) => {
            let list: Vec<String> = names.iter().map(|n| string(n)).collect();
            writeln!(out, "CLASSES = [{}]", list.join(", ")).expect("write to String");
        }
        _ => out.push_str("CLASSES = None\n"),
    }
    let columns: Vec<String> = schema.features.iter().map(|f| string(&f.name)).collect();
    writeln!(out, "COLUMNS = [{}]\n", columns.join(", ")).expect("write to String");
    out.push_str(HELPERS);

    // The levels of every categorical column.
    out.push_str("\n_LEVELS = {\n");
    for feature in &schema.features {
        if let FeatureKind::Categorical { levels } = &feature.kind {
            let pairs: Vec<String> = levels
                .iter()
                .enumerate()
                .map(|(c, l)| format!("{}: {c}.0", string(l)))
                .collect();
            writeln!(
                out,
                "    {}: {{{}}},",
                string(&feature.name),
                pairs.join(", ")
            )
            .expect("write to String");
        }
    }
    out.push_str("}\n\n");

    out.push_str("def _scores(row):\n");
    for (j, feature) in schema.features.iter().enumerate() {
        let name = string(&feature.name);
        match &feature.kind {
            FeatureKind::Categorical { levels } => {
                let missing = if levels.iter().any(|l| l == MISSING_LEVEL) {
                    string(MISSING_LEVEL)
                } else {
                    "None".into()
                };
                writeln!(out, "    x{j} = _category(row, {name}, {missing})")
                    .expect("write to String");
            }
            _ => writeln!(out, "    x{j} = _number(row, {name})").expect("write to String"),
        }
    }
    let mut body = Body::default();
    for (i, e) in labelled.bindings.iter().enumerate() {
        let value = body.value(e, 1);
        body.line(1, &format!("v{i} = {value}"));
    }
    out.push_str(&body.lines);
    let outputs: Vec<String> = labelled.outputs.iter().map(expr).collect();
    let label = labelled
        .label
        .as_ref()
        .map_or("None".to_string(), |l| format!("int({})", expr(l)));
    writeln!(out, "    return [{}], {label}\n\n", outputs.join(", ")).expect("write to String");

    match &schema.target {
        TargetSchema::Classes(_) => out.push_str(CLASSIFIER_API),
        _ => out.push_str(REGRESSOR_API),
    }
    out
}

/// The helpers of every module: reading a number and a category, and
/// whether a value is missing.
const HELPERS: &str = r#"
def _number(row, name):
    value = row.get(name)
    if value is None:
        return _NAN
    if isinstance(value, str):
        value = value.strip()
        if value == '':
            return _NAN
    return float(value)


def _category(row, name, missing_level):
    value = row.get(name)
    if value is None or (isinstance(value, float) and value != value):
        if missing_level is None:
            raise ValueError('column %r: a missing value, and the model has no level for it' % name)
        value = missing_level
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = value if isinstance(value, str) else str(value)
    code = _LEVELS[name].get(text)
    if code is None:
        raise ValueError('column %r: the level %r was not seen at fit' % (name, text))
    return code



def _missing(a):
    return a != a
"#;

/// The entry points of a classifier's module.
const CLASSIFIER_API: &str = r#"def predict_proba(row):
    """The probability of each class (in the order of CLASSES) for one row."""
    return _scores(row)[0]


def predict(row):
    """The predicted class of one row: the first class of highest probability."""
    return CLASSES[_scores(row)[1]]
"#;

/// The entry points of a regressor's module.
const REGRESSOR_API: &str = r#"def predict(row):
    """The predicted value of one row."""
    return _scores(row)[0][0]
"#;

/// The statements of `_scores`, with the trees of ifs in value positions
/// written as flat `if`/`elif`/`else` statements assigning a temporary
/// (nested conditional expressions overflow Python's parser on deep
/// trees). Each arm's statements run only when the arm is taken, as the
/// program's `If` evaluates only its branch.
#[derive(Default)]
struct Body {
    lines: String,
    temps: usize,
}

impl Body {
    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.lines.push_str("    ");
        }
        self.lines.push_str(text);
        self.lines.push('\n');
    }

    /// `e` as a Python expression, after the statements it needs at
    /// `indent`.
    fn value(&mut self, e: &Expr, indent: usize) -> String {
        match e {
            Expr::If(..) => {
                let mut arms = Vec::new();
                super::if_arms(e, &mut Vec::new(), &mut arms);
                self.temps += 1;
                let temp = format!("t{}", self.temps);
                let (last, arms) = arms.split_last().expect("an if has two branches");
                for (k, (tests, value)) in arms.iter().enumerate() {
                    let when = tests.iter().map(|t| test(t)).collect::<Vec<_>>();
                    let keyword = if k == 0 { "if" } else { "elif" };
                    self.line(indent, &format!("{keyword} {}:", when.join(" and ")));
                    let v = self.value(value, indent + 1);
                    self.line(indent + 1, &format!("{temp} = {v}"));
                }
                if arms.is_empty() {
                    let v = self.value(last.1, indent);
                    self.line(indent, &format!("{temp} = {v}"));
                } else {
                    self.line(indent, "else:");
                    let v = self.value(last.1, indent + 1);
                    self.line(indent + 1, &format!("{temp} = {v}"));
                }
                temp
            }
            Expr::Sum(terms) => {
                let mut s = String::from("(0.0");
                for t in terms {
                    s.push_str(" + ");
                    let v = self.value(t, indent);
                    s.push_str(&v);
                }
                s.push(')');
                s
            }
            Expr::Sub(a, b) | Expr::Mul(a, b) | Expr::Div(a, b) => {
                let op = match e {
                    Expr::Sub(..) => "-",
                    Expr::Mul(..) => "*",
                    _ => "/",
                };
                let a = self.value(a, indent);
                let b = self.value(b, indent);
                format!("({a} {op} {b})")
            }
            Expr::Exp(a) => format!("math.exp({})", self.value(a, indent)),
            Expr::Ln(a) => format!("math.log({})", self.value(a, indent)),
            other => expr(other),
        }
    }
}

/// A value as one Python expression (conditional expressions for ifs:
/// for the values inside tests, which are shallow).
fn expr(e: &Expr) -> String {
    match e {
        Expr::Const(v) => number(*v),
        Expr::Input(j) => format!("x{j}"),
        Expr::Var(i) => format!("v{i}"),
        Expr::Sum(terms) => {
            let mut s = String::from("(0.0");
            for t in terms {
                s.push_str(" + ");
                s.push_str(&expr(t));
            }
            s.push(')');
            s
        }
        Expr::Sub(a, b) => format!("({} - {})", expr(a), expr(b)),
        Expr::Mul(a, b) => format!("({} * {})", expr(a), expr(b)),
        Expr::Div(a, b) => format!("({} / {})", expr(a), expr(b)),
        Expr::Exp(a) => format!("math.exp({})", expr(a)),
        Expr::Ln(a) => format!("math.log({})", expr(a)),
        Expr::If(t, a, b) => format!("({} if {} else {})", expr(a), test(t), expr(b)),
    }
}

/// A test as a Python boolean (Python compares NaN as Rust does).
fn test(t: &Test) -> String {
    match t {
        Test::Cmp(op, a, b) => {
            let symbol = match op {
                Cmp::Eq => "==",
                Cmp::Ne => "!=",
                other => other.symbol(),
            };
            format!("({} {symbol} {})", expr(a), expr(b))
        }
        Test::Missing(a) => format!("_missing({})", expr(a)),
        Test::And(ts) if ts.is_empty() => "True".into(),
        Test::Or(ts) if ts.is_empty() => "False".into(),
        Test::And(ts) => format!(
            "({})",
            ts.iter().map(test).collect::<Vec<_>>().join(" and ")
        ),
        Test::Or(ts) => format!("({})", ts.iter().map(test).collect::<Vec<_>>().join(" or ")),
        Test::Not(t) => format!("(not {})", test(t)),
    }
}
