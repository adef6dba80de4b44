//! What a registered method is: its [`MethodSpec`] (id, aliases, tasks,
//! parameters with their one default, tuning grid, capabilities) and the
//! [`Method`] trait every method item implements: how it learns (from a
//! table, [`TableMethod`], or from relational data, [`RelationalMethod`])
//! and how its model is read back from a model file.
//!
//! The items themselves live in the `learners` modules, one unit struct
//! per method, and are listed once in [`crate::METHODS`].

use std::fmt;

use rc_logic::{Problem, TreeEnsemble};
use rulecover_core::envelope::Envelope;
use rulecover_core::{Dataset, Fit, OneVsRest, OneVsRestModel, Reseed};
use serde_json::Value;

use crate::error::{BoxedError, Error, Result};
use crate::model::{Model, ModelKind};
use crate::params::{Args, ParamSpec};

/// A kind of learning problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Task {
    /// Two classes.
    Binary,
    /// More than two classes.
    Multiclass,
    /// A real-valued target.
    Regression,
    /// A relational target (BoostSRL facts and examples).
    Relational,
}

impl Task {
    /// The task's name.
    pub fn name(self) -> &'static str {
        match self {
            Task::Binary => "binary classification",
            Task::Multiclass => "multi-class classification",
            Task::Regression => "regression",
            Task::Relational => "relational classification",
        }
    }

    /// The task of a labelled data set.
    ///
    /// # Errors
    /// [`Error::NoTarget`] when `data` has no target.
    pub fn of(data: &Dataset) -> Result<Task> {
        if !data.has_target() {
            return Err(Error::NoTarget {
                data: data.name().into(),
            });
        }
        Ok(if !data.is_classification() {
            Task::Regression
        } else if data.n_classes() > 2 {
            Task::Multiclass
        } else {
            Task::Binary
        })
    }
}

impl fmt::Display for Task {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The values a tuning grid tries for one parameter (each a string of
/// the parameter's type), listed from the simplest model to the most
/// complex one (the one-standard-error rule of `--one-se` takes the
/// first point within one standard error of the best), optionally with a
/// second parameter that moves with it (GLRM's `lambda1 = 0.2 × lambda0`).
///
/// A grid (`&[GridAxis]`) is the Cartesian product of its axes, the first
/// axis varying slowest (the order of the papers' nested searches).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridAxis {
    /// The parameter's name.
    pub param: &'static str,
    /// The values tried.
    pub values: &'static [&'static str],
    /// A parameter set together with this one, to `factor × value`:
    /// `(name, factor)`.
    pub scaled: Option<(&'static str, f64)>,
}

impl GridAxis {
    /// An axis trying `values` for `param`.
    pub const fn new(param: &'static str, values: &'static [&'static str]) -> GridAxis {
        GridAxis {
            param,
            values,
            scaled: None,
        }
    }

    /// With `param` set to `factor ×` this axis's value at every point.
    pub const fn scaling(self, param: &'static str, factor: f64) -> GridAxis {
        GridAxis {
            scaled: Some((param, factor)),
            ..self
        }
    }

    /// The axis as printed by `rulecover methods ID`:
    /// `max_depth ∈ {5, 10, 20}`, `lambda0 ∈ {...} (lambda1 = 0.2 × lambda0)`.
    pub fn describe(&self) -> String {
        let mut out = format!("{} ∈ {{{}}}", self.param, self.values.join(", "));
        if let Some((name, factor)) = self.scaled {
            out.push_str(&format!(" ({name} = {factor} × {})", self.param));
        }
        out
    }
}

/// What the registry knows of one method: the data of its item.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MethodSpec {
    /// The id (lower case, as in a model file's `kind`).
    pub id: &'static str,
    /// Other accepted spellings (the benchmark runner's names); ids and
    /// aliases match case-insensitively.
    pub aliases: &'static [&'static str],
    /// One line on what it is.
    pub summary: &'static str,
    /// The seed paper whose protocol sets the defaults (`000`–`004`), or
    /// `""` for a plain baseline.
    pub paper: &'static str,
    /// The targets it learns.
    pub tasks: &'static [Task],
    /// Its parameters, each with its one default.
    pub params: &'static [ParamSpec],
    /// The grid a tuning run tries (`rulecover fit --tune`,
    /// [`crate::fit_tuned`]): the paper's grid where the method's paper
    /// gives one, else a small one (at most 12 points); empty for the
    /// relational methods, which are not tuned.
    pub grid: &'static [GridAxis],
    /// Other papers' grids for the same method, `(paper, grid)`, where a
    /// paper's suite tuned it over another grid than [`MethodSpec::grid`]
    /// (the baselines DT, RF, GB of papers 001 and 004).
    pub paper_grids: &'static [(&'static str, &'static [GridAxis])],
    /// Parameters under which a fit on a few hundred rows takes well
    /// under a second in a debug build (tests and smoke runs), as
    /// `(name, value)` strings; empty when the defaults already do.
    pub smoke: &'static [(&'static str, &'static str)],
    /// Whether the learner itself learns two classes only, and learns
    /// more by fitting one binary model per class against the rest
    /// ([`rulecover_core::OneVsRest`]); two classes go to the learner
    /// itself.
    pub one_vs_rest: bool,
    /// Whether `rulecover fit` prints the rules without being asked (not
    /// for forests and boosted ensembles, whose rules are their trees'
    /// every leaf).
    pub prints_rules_by_default: bool,
    /// Whether its models can be written as SQL and Python (`rulecover
    /// export`, [`crate::ModelKind::export`]): every tabular method; not
    /// the relational ones.
    pub exportable: bool,
}

/// Whether `tasks` hold the relational task (a `const` loop: the specs
/// are statics).
const fn relational(tasks: &[Task]) -> bool {
    let mut i = 0;
    while i < tasks.len() {
        if matches!(tasks[i], Task::Relational) {
            return true;
        }
        i += 1;
    }
    false
}

impl MethodSpec {
    /// A method learning `tasks` with `params`: no aliases, no grid, not
    /// one-vs-rest, rules printed by default, exportable unless relational.
    pub const fn new(
        id: &'static str,
        summary: &'static str,
        paper: &'static str,
        tasks: &'static [Task],
        params: &'static [ParamSpec],
    ) -> MethodSpec {
        MethodSpec {
            id,
            aliases: &[],
            summary,
            paper,
            tasks,
            params,
            grid: &[],
            paper_grids: &[],
            smoke: &[],
            one_vs_rest: false,
            prints_rules_by_default: true,
            exportable: !relational(tasks),
        }
    }

    /// With these aliases.
    pub const fn aliases(self, aliases: &'static [&'static str]) -> MethodSpec {
        MethodSpec { aliases, ..self }
    }

    /// With this tuning grid ([`MethodSpec::grid`]).
    pub const fn grid(self, grid: &'static [GridAxis]) -> MethodSpec {
        MethodSpec { grid, ..self }
    }

    /// With these other papers' grids ([`MethodSpec::paper_grids`]).
    pub const fn paper_grids(
        self,
        paper_grids: &'static [(&'static str, &'static [GridAxis])],
    ) -> MethodSpec {
        MethodSpec {
            paper_grids,
            ..self
        }
    }

    /// The grid paper `paper` tuned this method over: its entry of
    /// [`MethodSpec::paper_grids`], else [`MethodSpec::grid`].
    pub fn grid_of(&self, paper: &str) -> &'static [GridAxis] {
        self.paper_grids
            .iter()
            .find(|(p, _)| *p == paper)
            .map_or(self.grid, |(_, g)| g)
    }

    /// The axis of [`MethodSpec::grid_of`]`(paper)` over `param`.
    pub fn grid_axis(&self, paper: &str, param: &str) -> Option<&'static GridAxis> {
        self.grid_of(paper).iter().find(|a| a.param == param)
    }

    /// Number of points of [`MethodSpec::grid`] (1 for an empty grid).
    pub fn grid_size(&self) -> usize {
        self.grid.iter().map(|a| a.values.len()).product()
    }

    /// With these smoke-run parameters ([`MethodSpec::smoke`]).
    pub const fn smoke(self, smoke: &'static [(&'static str, &'static str)]) -> MethodSpec {
        MethodSpec { smoke, ..self }
    }

    /// Fitted one-vs-rest on more than two classes.
    pub const fn fitted_one_vs_rest(self) -> MethodSpec {
        MethodSpec {
            one_vs_rest: true,
            ..self
        }
    }

    /// Its rules printed only when asked (an ensemble of many trees).
    pub const fn rules_printed_on_request(self) -> MethodSpec {
        MethodSpec {
            prints_rules_by_default: false,
            ..self
        }
    }

    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&'static ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Whether `name` is this method's id or one of its aliases
    /// (case-insensitive).
    pub fn answers_to(&self, name: &str) -> bool {
        self.id.eq_ignore_ascii_case(name)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    /// Whether a target of `n_classes` classes is fitted one-vs-rest:
    /// more than two classes for a method of [`MethodSpec::one_vs_rest`].
    pub fn fits_one_vs_rest(&self, n_classes: usize) -> bool {
        self.one_vs_rest && n_classes > 2
    }

    /// The supported tasks, comma separated, multi-class marked
    /// `(one-vs-rest)` for a method of [`MethodSpec::one_vs_rest`].
    pub fn task_list(&self) -> String {
        self.tasks
            .iter()
            .map(|&t| match t {
                Task::Multiclass if self.one_vs_rest => format!("{} (one-vs-rest)", t.name()),
                _ => t.name().to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One registered method: a unit struct per method, listed once in
/// [`crate::METHODS`]. Everything the registry does with a
/// method goes through its item; nothing else matches on method ids.
pub trait Method: Send + Sync {
    /// Its id, aliases, summary, tasks, parameters, grid and capabilities.
    fn spec(&self) -> &'static MethodSpec;

    /// How it learns.
    fn learner(&self) -> Learner<'_>;

    /// Whether it learns from relational data ([`crate::fit_relational`])
    /// rather than a table ([`crate::fit`]).
    fn is_relational(&self) -> bool {
        matches!(self.learner(), Learner::Relational(_))
    }
}

impl fmt::Debug for dyn Method + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Method({})", self.spec().id)
    }
}

/// How a method learns.
#[derive(Clone, Copy)]
pub enum Learner<'a> {
    /// From a table ([`crate::fit`]).
    Table(&'a dyn TableMethod),
    /// From BoostSRL facts and examples ([`crate::fit_relational`]).
    Relational(&'a dyn RelationalMethod),
}

/// A method that learns from a table.
pub trait TableMethod: Send + Sync {
    /// Builds its library crate's parameters from the job's resolved
    /// parameters and fits them on the job's data (one-vs-rest when the
    /// job says so).
    ///
    /// # Errors
    /// [`Error::BadValue`] for a value the parameters cannot take,
    /// [`Error::Fit`] with the learner's own error.
    fn fit(&self, job: &TableJob<'_>) -> Result<Model>;

    /// Reads the serde form of one of its models (the model file's
    /// `model`): the one-vs-rest model when `one_vs_rest`, else the
    /// learner's own.
    ///
    /// # Errors
    /// serde_json's error for a value of another shape.
    fn read_model(&self, value: Value, one_vs_rest: bool) -> serde_json::Result<Model>;
}

/// A method that learns from relational data.
pub trait RelationalMethod: Send + Sync {
    /// Builds rc-logic's parameters from `args` and fits them on the
    /// training split of `problem`.
    ///
    /// # Errors
    /// [`Error::Fit`] with rc-logic's error; [`Error::BadValue`] for a
    /// value the parameters cannot take.
    fn fit(&self, args: &Args, problem: &Problem, seed: u64) -> Result<TreeEnsemble>;

    /// Reads its model from a model file's envelope, checked against the
    /// envelope's kind, target and head types.
    ///
    /// # Errors
    /// [`Error::Logic`] naming `file`.
    fn read_model(&self, envelope: Envelope, file: &str) -> Result<TreeEnsemble>;
}

/// One tabular fit: the method, its resolved parameters, the data (with
/// its task and optional sample weights) and the seed.
#[derive(Debug)]
pub struct TableJob<'a> {
    pub(crate) spec: &'static MethodSpec,
    pub(crate) args: &'a Args,
    pub(crate) task: Task,
    pub(crate) data: &'a Dataset,
    pub(crate) weights: Option<&'a [f64]>,
    pub(crate) seed: u64,
}

impl TableJob<'_> {
    /// The method's resolved parameters.
    pub fn args(&self) -> &Args {
        self.args
    }

    /// The task of the data.
    pub fn task(&self) -> Task {
        self.task
    }

    /// Whether the target is real-valued.
    pub fn regression(&self) -> bool {
        self.task == Task::Regression
    }

    /// The seed of the fit.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The training data.
    pub fn data(&self) -> &Dataset {
        self.data
    }

    /// The sample weights, when given (already checked against the data).
    pub fn weights(&self) -> Option<&[f64]> {
        self.weights
    }

    /// Whether the method is fitted one-vs-rest on this data.
    pub fn one_vs_rest(&self) -> bool {
        self.task == Task::Multiclass && self.spec.fits_one_vs_rest(self.data.n_classes())
    }

    /// The learner's error as [`Error::Fit`] of this method.
    pub fn fail(&self, source: impl Into<BoxedError>) -> Error {
        Error::Fit {
            method: self.spec.id.into(),
            source: source.into(),
        }
    }

    /// Fits `params` on `data` through [`Fit`], with the job's weights.
    ///
    /// # Errors
    /// [`Error::Fit`] with the learner's error.
    pub fn fit_on<P: Fit>(&self, params: &P, data: &Dataset) -> Result<P::Model> {
        match self.weights {
            Some(w) => params.fit_weighted(data, w),
            None => params.fit(data),
        }
        .map_err(|e| self.fail(e))
    }

    /// Fits `params` on the job's data: the learner's own model.
    ///
    /// # Errors
    /// [`Error::Fit`] with the learner's error.
    pub fn fit<P: Fit>(&self, params: &P) -> Result<Model>
    where
        P::Model: ModelKind,
    {
        self.fit_on(params, self.data).map(Model::new)
    }

    /// Fits `params` on the job's data, one binary model per class when
    /// the job is one-vs-rest ([`TableJob::one_vs_rest`]).
    ///
    /// # Errors
    /// [`Error::Fit`] with the learner's error.
    pub fn fit_per_class<P>(&self, params: P) -> Result<Model>
    where
        P: Fit + Reseed + Clone + Send + Sync,
        P::Model: ModelKind,
        OneVsRestModel<P::Model>: ModelKind,
        OneVsRest<P>: Fit<Model = OneVsRestModel<P::Model>>,
    {
        if self.one_vs_rest() {
            self.fit(&OneVsRest::new(params))
        } else {
            self.fit(&params)
        }
    }
}

/// Reads a model of type `M`, or of `OneVsRestModel<M>` when
/// `one_vs_rest`: [`TableMethod::read_model`] of a method fitted through
/// [`TableJob::fit_per_class`].
///
/// # Errors
/// serde_json's error for a value of another shape.
pub fn read_per_class<M>(value: Value, one_vs_rest: bool) -> serde_json::Result<Model>
where
    M: ModelKind,
    OneVsRestModel<M>: ModelKind,
{
    if one_vs_rest {
        Model::read::<OneVsRestModel<M>>(value)
    } else {
        Model::read::<M>(value)
    }
}

/// Implements [`Method`] for a method item learning from a table:
/// `table_method!(Item, SPEC)`.
macro_rules! table_method {
    ($item:ty, $spec:expr) => {
        impl $crate::method::Method for $item {
            fn spec(&self) -> &'static $crate::method::MethodSpec {
                &$spec
            }
            fn learner(&self) -> $crate::method::Learner<'_> {
                $crate::method::Learner::Table(self)
            }
        }
    };
}
pub(crate) use table_method;
