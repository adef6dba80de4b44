//! Scoring programs: a fitted model's prediction written out as plain
//! arithmetic over the raw input columns, so that it can run where no
//! Rust runs (a SQL view, a Python module).
//!
//! A [`Program`] is a list of bound values ([`Expr`]s that may read the
//! values bound before them) and an [`Output`]: one probability per class
//! (the label is the first class of highest probability, as
//! [`crate::predictions::argmax`] takes it) or one real value. Each model
//! type writes its own program by implementing [`Export`], next to its
//! `Predict`, from the same numbers in the same order, so that
//! [`Program::eval`] gives what the model's `predict` gives, bit for bit
//! where the model's own arithmetic is followed step by step.
//!
//! # Semantics
//!
//! Every value is an `f64` with Rust's rules: an input is `NaN` when it is
//! missing, `NaN` propagates through arithmetic, [`Test::Cmp`] is false
//! when either side is `NaN` except [`Cmp::Ne`], which is then true (as
//! Rust's `!=`), and a [`Test`] is always true or false. A categorical
//! input is its level code in the schema (`0..levels.len()`). Sums are
//! taken left to right. A program never divides by zero and never takes
//! the logarithm of a number that is not positive (the lowering makes sure
//! of it), and [`Expr::Exp`] is only given arguments whose result is
//! finite, so a SQL engine that raises on those computes the same thing.
//!
//! The renderers ([`sql`], [`python`]) keep these semantics: SQL's
//! three-valued comparisons are closed with `COALESCE`, a missing value is
//! `NULL`.
//!
//! ```
//! use rulecover_core::scoring::{Cmp, Expr, Output, ProgramBuilder, Test};
//! use rulecover_core::{Feature, Schema};
//! use rulecover_core::schema::TargetSchema;
//!
//! let schema = Schema {
//!     features: vec![Feature::numeric("age")],
//!     target: TargetSchema::Classes(vec!["no".into(), "yes".into()]),
//! };
//! let mut b = ProgramBuilder::new(schema);
//! let old = Test::cmp(Cmp::Gt, b.input(0), Expr::Const(40.0));
//! let p = b.bind(Expr::when(old, Expr::Const(0.8), Expr::Const(0.1)));
//! let program = b.finish(Output::Classes(vec![Expr::Const(1.0) - p.clone(), p]))?;
//! assert_eq!(program.eval_row(&[52.0]), vec![0.19999999999999996, 0.8]);
//! assert_eq!(program.eval_row(&[f64::NAN]), vec![0.9, 0.1]);
//! # Ok::<(), rulecover_core::scoring::ExportError>(())
//! ```

use std::fmt;
use std::ops;

use crate::dataset::{Dataset, FeatureKind};
use crate::predictions::Predictions;
use crate::rule::{Condition, Op, Rule};
use crate::schema::{Encoder, Encoding, Schema, TargetSchema};

mod label;
pub mod python;
pub mod sql;

pub use label::Labelled;

/// A comparison of two values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `a <= b`.
    Le,
    /// `a < b`.
    Lt,
    /// `a >= b`.
    Ge,
    /// `a > b`.
    Gt,
    /// `a == b`.
    Eq,
    /// `a != b` (true when either side is `NaN`).
    Ne,
}

impl Cmp {
    /// Rust's comparison of two `f64`.
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Cmp::Le => a <= b,
            Cmp::Lt => a < b,
            Cmp::Ge => a >= b,
            Cmp::Gt => a > b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }

    /// The operator's text in SQL and Python (`<=`, `<`, …; `!=` for `Ne`).
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Le => "<=",
            Cmp::Lt => "<",
            Cmp::Ge => ">=",
            Cmp::Gt => ">",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
        }
    }
}

/// A real value of a scoring program.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A constant.
    Const(f64),
    /// Raw input column `j` of the schema: its number, or the level code
    /// of a categorical column; `NaN` when missing.
    Input(usize),
    /// The value bound at position `i` of the program.
    Var(usize),
    /// The sum of the terms, taken left to right (`0` for none).
    Sum(Vec<Expr>),
    /// `a - b`.
    Sub(Box<Expr>, Box<Expr>),
    /// `a * b`.
    Mul(Box<Expr>, Box<Expr>),
    /// `a / b` (never by zero).
    Div(Box<Expr>, Box<Expr>),
    /// `e^a` (only where the result is finite).
    Exp(Box<Expr>),
    /// `ln a` (only of a positive number).
    Ln(Box<Expr>),
    /// `if test { a } else { b }`.
    If(Box<Test>, Box<Expr>, Box<Expr>),
}

/// A true-or-false test of a scoring program (never unknown).
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    /// A comparison (false when either side is `NaN`, but `Ne` true).
    Cmp(Cmp, Box<Expr>, Box<Expr>),
    /// The value is `NaN` (a missing input, or arithmetic on one).
    Missing(Box<Expr>),
    /// Every test holds (true for none).
    And(Vec<Test>),
    /// Some test holds (false for none).
    Or(Vec<Test>),
    /// The test does not hold.
    Not(Box<Test>),
}

/// What a program predicts for a row.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// One probability per class of the schema, in class order.
    Classes(Vec<Expr>),
    /// A real value.
    Value(Expr),
}

/// A model written as a scoring program over a [`Schema`]'s raw columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    schema: Schema,
    bindings: Vec<Expr>,
    output: Output,
}

/// Why a model could not be written as a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportError {
    /// The model's encoder or inputs do not match the schema given.
    Schema(String),
    /// The output does not fit the schema's target (class count, kind).
    Output(String),
    /// A model part the exporter cannot write.
    Unsupported(String),
    /// An export option that does not fit the model (a kept column named
    /// like an output column, a table name that is not one).
    Options(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Schema(m) => write!(f, "the model's inputs: {m}"),
            ExportError::Output(m) => write!(f, "the model's output: {m}"),
            ExportError::Unsupported(m) | ExportError::Options(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ExportError {}

/// A model that can be written as a scoring program: the model crates
/// implement it next to `Predict`.
pub trait Export {
    /// Binds what the model needs in `program` (whose inputs are the raw
    /// columns of the model's training schema, [`ProgramBuilder::input`])
    /// and returns the model's output for one row, computed as the
    /// model's `predict` computes it.
    ///
    /// # Errors
    /// [`ExportError`] for a model whose encoder does not match the
    /// program's schema or a part that cannot be written.
    fn export(&self, program: &mut ProgramBuilder) -> Result<Output, ExportError>;
}

/// Builds a [`Program`]: the schema, then bindings, then the output.
#[derive(Debug, Clone)]
pub struct ProgramBuilder {
    schema: Schema,
    bindings: Vec<Expr>,
}

impl ProgramBuilder {
    /// A program over the raw columns of `schema`.
    pub fn new(schema: Schema) -> ProgramBuilder {
        ProgramBuilder {
            schema,
            bindings: Vec::new(),
        }
    }

    /// The schema whose columns are the inputs.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Raw input column `j` (see [`Expr::Input`]).
    pub fn input(&self, j: usize) -> Expr {
        Expr::Input(j)
    }

    /// Binds `expr` as the program's next value and returns a reference
    /// to it (constants and inputs are returned as they are). Bind every
    /// value read more than once, so the program computes it once.
    pub fn bind(&mut self, expr: Expr) -> Expr {
        match expr {
            Expr::Const(_) | Expr::Input(_) | Expr::Var(_) => expr,
            other => {
                self.bindings.push(other);
                Expr::Var(self.bindings.len() - 1)
            }
        }
    }

    /// The features an [`Encoder`] gives its learner, as values of this
    /// program: a numeric or native categorical column as the input of
    /// the same name, a one-hot indicator as `1` when the column holds the
    /// level and `0` otherwise (missing included), as
    /// [`Dataset::one_hot`] makes them.
    ///
    /// # Errors
    /// [`ExportError::Schema`] when the encoder's schema has other columns
    /// than the program's.
    pub fn encoded_features(&mut self, encoder: &Encoder) -> Result<Vec<Expr>, ExportError> {
        if encoder.schema().features != self.schema.features {
            return Err(ExportError::Schema(format!(
                "the model's encoder reads the columns [{}] but the model file's schema has [{}]",
                encoder.schema().feature_names().join(", "),
                self.schema.feature_names().join(", ")
            )));
        }
        let one_hot = matches!(encoder.encoding(), Encoding::OneHot { .. })
            && self.schema.features.iter().any(|f| f.is_categorical());
        if !one_hot {
            return Ok((0..self.schema.n_features()).map(Expr::Input).collect());
        }
        let mut out = Vec::with_capacity(encoder.encoded_features().len());
        for feature in encoder.encoded_features() {
            match &feature.kind {
                FeatureKind::Indicator { source, level } => {
                    let (j, code) = self.level_code(source, level)?;
                    out.push(self.bind(Expr::when(
                        Test::cmp(Cmp::Eq, Expr::Input(j), Expr::Const(code as f64)),
                        Expr::Const(1.0),
                        Expr::Const(0.0),
                    )));
                }
                _ => out.push(Expr::Input(self.column(&feature.name)?)),
            }
        }
        Ok(out)
    }

    /// The position of column `name` in the schema.
    fn column(&self, name: &str) -> Result<usize, ExportError> {
        self.schema
            .features
            .iter()
            .position(|f| f.name == name)
            .ok_or_else(|| ExportError::Schema(format!("no column '{name}'")))
    }

    /// The column and level code of a categorical column's level.
    fn level_code(&self, column: &str, level: &str) -> Result<(usize, usize), ExportError> {
        let j = self.column(column)?;
        match &self.schema.features[j].kind {
            FeatureKind::Categorical { levels } => levels
                .iter()
                .position(|l| l == level)
                .map(|code| (j, code))
                .ok_or_else(|| {
                    ExportError::Schema(format!("column '{column}' has no level '{level}'"))
                }),
            _ => Err(ExportError::Schema(format!(
                "column '{column}' is not categorical"
            ))),
        }
    }

    /// Checks `output` against the schema's target and finishes the
    /// program.
    ///
    /// # Errors
    /// [`ExportError::Output`] for class probabilities of another count
    /// than the schema's classes, or a real value for a classifier (and
    /// the reverse).
    pub fn finish(self, output: Output) -> Result<Program, ExportError> {
        match (&self.schema.target, &output) {
            (TargetSchema::Classes(names), Output::Classes(p)) if names.len() != p.len() => {
                return Err(ExportError::Output(format!(
                    "{} class probabilities for the {} classes of the schema",
                    p.len(),
                    names.len()
                )))
            }
            (TargetSchema::Classes(_), Output::Value(_)) => {
                return Err(ExportError::Output(
                    "a real value for a classifier's schema".into(),
                ))
            }
            (TargetSchema::Real, Output::Classes(_)) => {
                return Err(ExportError::Output(
                    "class probabilities for a real target".into(),
                ))
            }
            _ => {}
        }
        Ok(Program {
            schema: self.schema,
            bindings: self.bindings,
            output,
        })
    }
}

impl Expr {
    /// `if test { then } else { otherwise }`.
    pub fn when(test: Test, then: Expr, otherwise: Expr) -> Expr {
        Expr::If(Box::new(test), Box::new(then), Box::new(otherwise))
    }

    /// The sum of `terms`, left to right.
    pub fn sum(terms: impl IntoIterator<Item = Expr>) -> Expr {
        Expr::Sum(terms.into_iter().collect())
    }

    /// `e^self`.
    pub fn exp(self) -> Expr {
        Expr::Exp(Box::new(self))
    }

    /// `ln self`.
    pub fn ln(self) -> Expr {
        Expr::Ln(Box::new(self))
    }

    /// `max(self, 0)` as Rust's `f64::max(self, 0.0)` computes it (`0`
    /// for `NaN`).
    pub fn relu(self) -> Expr {
        Expr::when(
            Test::cmp(Cmp::Gt, self.clone(), Expr::Const(0.0)),
            self,
            Expr::Const(0.0),
        )
    }

    /// The value for one row of raw inputs, with the program's bound
    /// values `vars`.
    fn eval(&self, row: &[f64], vars: &[f64]) -> f64 {
        match self {
            Expr::Const(v) => *v,
            Expr::Input(j) => row[*j],
            Expr::Var(i) => vars[*i],
            Expr::Sum(terms) => terms.iter().fold(0.0, |acc, t| acc + t.eval(row, vars)),
            Expr::Sub(a, b) => a.eval(row, vars) - b.eval(row, vars),
            Expr::Mul(a, b) => a.eval(row, vars) * b.eval(row, vars),
            Expr::Div(a, b) => a.eval(row, vars) / b.eval(row, vars),
            Expr::Exp(a) => a.eval(row, vars).exp(),
            Expr::Ln(a) => a.eval(row, vars).ln(),
            Expr::If(t, a, b) => {
                if t.eval(row, vars) {
                    a.eval(row, vars)
                } else {
                    b.eval(row, vars)
                }
            }
        }
    }

    /// Calls `f` on every variable this expression reads.
    fn each_var(&self, f: &mut impl FnMut(usize)) {
        match self {
            Expr::Const(_) | Expr::Input(_) => {}
            Expr::Var(i) => f(*i),
            Expr::Sum(terms) => terms.iter().for_each(|t| t.each_var(f)),
            Expr::Sub(a, b) | Expr::Mul(a, b) | Expr::Div(a, b) => {
                a.each_var(f);
                b.each_var(f);
            }
            Expr::Exp(a) | Expr::Ln(a) => a.each_var(f),
            Expr::If(t, a, b) => {
                t.each_var(f);
                a.each_var(f);
                b.each_var(f);
            }
        }
    }
}

impl ops::Add for Expr {
    type Output = Expr;
    /// `self + rhs` (a two-term [`Expr::Sum`]; sums are flattened left to right).
    fn add(self, rhs: Expr) -> Expr {
        match self {
            Expr::Sum(mut terms) if !terms.is_empty() => {
                terms.push(rhs);
                Expr::Sum(terms)
            }
            other => Expr::Sum(vec![other, rhs]),
        }
    }
}

impl ops::Sub for Expr {
    type Output = Expr;
    /// `self - rhs`.
    fn sub(self, rhs: Expr) -> Expr {
        Expr::Sub(Box::new(self), Box::new(rhs))
    }
}

impl ops::Mul for Expr {
    type Output = Expr;
    /// `self * rhs`.
    fn mul(self, rhs: Expr) -> Expr {
        Expr::Mul(Box::new(self), Box::new(rhs))
    }
}

impl ops::Div for Expr {
    type Output = Expr;
    /// `self / rhs`.
    fn div(self, rhs: Expr) -> Expr {
        Expr::Div(Box::new(self), Box::new(rhs))
    }
}

impl Test {
    /// `a op b`.
    pub fn cmp(op: Cmp, a: Expr, b: Expr) -> Test {
        Test::Cmp(op, Box::new(a), Box::new(b))
    }

    /// A rule condition on the values `features` (the features the rule
    /// was learned on), with [`Condition::holds`]'s semantics.
    pub fn condition(condition: &Condition, features: &[Expr]) -> Test {
        let x = features[condition.feature].clone();
        let v = Expr::Const(condition.value);
        match condition.op {
            Op::Le => Test::cmp(Cmp::Le, x, v),
            Op::Gt => Test::cmp(Cmp::Gt, x, v),
            Op::Eq => Test::cmp(Cmp::Eq, x, v),
            Op::Ne => Test::cmp(Cmp::Ne, x, v),
            Op::IsMissing => Test::Missing(Box::new(x)),
            Op::NotMissing => Test::Not(Box::new(Test::Missing(Box::new(x)))),
        }
    }

    /// A rule (every condition holds; an empty rule always holds) on the
    /// values `features`, as [`Rule::covers_row`] reads it.
    pub fn rule(rule: &Rule, features: &[Expr]) -> Test {
        Test::And(
            rule.conditions
                .iter()
                .map(|c| Test::condition(c, features))
                .collect(),
        )
    }

    /// Whether the test holds for one row.
    fn eval(&self, row: &[f64], vars: &[f64]) -> bool {
        match self {
            Test::Cmp(op, a, b) => op.holds(a.eval(row, vars), b.eval(row, vars)),
            Test::Missing(a) => a.eval(row, vars).is_nan(),
            Test::And(ts) => ts.iter().all(|t| t.eval(row, vars)),
            Test::Or(ts) => ts.iter().any(|t| t.eval(row, vars)),
            Test::Not(t) => !t.eval(row, vars),
        }
    }

    fn each_var(&self, f: &mut impl FnMut(usize)) {
        match self {
            Test::Cmp(_, a, b) => {
                a.each_var(f);
                b.each_var(f);
            }
            Test::Missing(a) => a.each_var(f),
            Test::And(ts) | Test::Or(ts) => ts.iter().for_each(|t| t.each_var(f)),
            Test::Not(t) => t.each_var(f),
        }
    }
}

impl Program {
    /// Writes `model` as a program over `schema`'s raw columns.
    ///
    /// # Errors
    /// The model's [`ExportError`].
    pub fn of<M: Export + ?Sized>(model: &M, schema: Schema) -> Result<Program, ExportError> {
        let mut builder = ProgramBuilder::new(schema);
        let output = model.export(&mut builder)?;
        builder.finish(output)
    }

    /// The schema whose raw columns the program reads.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The bound values, in order (each reads only those before it).
    pub fn bindings(&self) -> &[Expr] {
        &self.bindings
    }

    /// The output.
    pub fn output(&self) -> &Output {
        &self.output
    }

    /// The depth of each binding: 0 when it reads no other binding,
    /// otherwise one more than the deepest binding it reads. A SQL
    /// renderer computes the bindings of one depth in one sub-query.
    pub fn depths(&self) -> Vec<usize> {
        binding_depths(&self.bindings)
    }

    /// The output values for one row of raw inputs (one per class, or the
    /// real value alone).
    pub fn eval_row(&self, row: &[f64]) -> Vec<f64> {
        let mut vars = Vec::with_capacity(self.bindings.len());
        for expr in &self.bindings {
            let v = expr.eval(row, &vars);
            vars.push(v);
        }
        match &self.output {
            Output::Classes(p) => p.iter().map(|e| e.eval(row, &vars)).collect(),
            Output::Value(e) => vec![e.eval(row, &vars)],
        }
    }

    /// The program's predictions for every row of `data` (already in the
    /// program's schema): what the exported SQL or Python computes, and
    /// what the model's `predict` gives.
    pub fn eval(&self, data: &Dataset) -> Predictions {
        let rows = (0..data.n_rows()).map(|i| self.eval_row(&data.row(i)));
        match &self.output {
            Output::Classes(p) => Predictions::Classes {
                n_classes: p.len(),
                proba: rows.flatten().collect(),
            },
            Output::Value(_) => Predictions::Values(rows.map(|v| v[0]).collect()),
        }
    }
}

/// The arms of a tree of ifs in the order a SQL `CASE` (or a Python
/// `if`/`elif` chain) tries them: the `then`
/// branch of `if t` under `t` and the tests above it, then the `else`
/// branch under the tests above it alone (reached only when `t` fails).
/// The last arm's tests are always empty.
pub(crate) fn if_arms<'a>(
    e: &'a Expr,
    above: &mut Vec<&'a Test>,
    arms: &mut Vec<(Vec<&'a Test>, &'a Expr)>,
) {
    match e {
        Expr::If(t, a, b) => {
            above.push(t);
            if_arms(a, above, arms);
            above.pop();
            if_arms(b, above, arms);
        }
        leaf => arms.push((above.clone(), leaf)),
    }
}

/// The depth of each of `bindings` ([`Program::depths`]).
pub(crate) fn binding_depths(bindings: &[Expr]) -> Vec<usize> {
    let mut depths: Vec<usize> = Vec::with_capacity(bindings.len());
    for expr in bindings {
        let mut depth = 0;
        expr.each_var(&mut |i| depth = depth.max(depths[i] + 1));
        depths.push(depth);
    }
    depths
}
