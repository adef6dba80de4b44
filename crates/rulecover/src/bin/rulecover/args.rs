//! The command line's arguments (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Interpretable rule models on your data: fit, inspect, predict,
/// cross-validate; relational boosting in BoostSRL's folder layout.
#[derive(Debug, Parser)]
#[command(name = "rulecover", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Fit a method to a CSV file and save the model.
    Fit(FitArgs),
    /// Predict a CSV file with a saved model.
    Predict(PredictArgs),
    /// Print a saved model's rules.
    Rules(RulesArgs),
    /// List the methods, their parameters and defaults.
    Methods(MethodsArgs),
    /// Write a saved model as one SQL query or one Python module.
    Export(ExportArgs),
    /// Cross-validate methods side by side on a CSV file.
    Evaluate(EvaluateArgs),
    /// Write a saved model as one self-contained HTML page (rules,
    /// parameters, and with --data its scores on a labelled CSV file).
    Report(ReportArgs),
    /// Write a generated data set (a CSV table, or a relational folder).
    Generate(GenerateArgs),
    /// Relational learning and inference in BoostSRL's folder layout.
    #[command(subcommand)]
    Relational(RelationalCommand),
}

/// A kind of target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TaskArg {
    /// Classes for text or at most ten distinct integers, else real values.
    Auto,
    /// Class labels.
    Classification,
    /// Real values.
    Regression,
}

/// What a missing value means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MissingArg {
    /// Stop with an error naming the column and row.
    Error,
    /// Drop the rows that have one.
    Drop,
    /// Keep it (NaN in numbers, its own level in categories).
    Keep,
}

fn delimiter(text: &str) -> Result<u8, String> {
    rulecover::io::parse_delimiter(text)
        .ok_or_else(|| format!("'{text}' is not one ASCII character (or 'tab')"))
}

fn comma_list(text: &str) -> Result<Vec<String>, String> {
    let items: Vec<String> = text
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if items.is_empty() {
        Err("expected a comma-separated list".into())
    } else {
        Ok(items)
    }
}

/// How a training table is read.
#[derive(Debug, Args)]
pub struct TableArgs {
    /// The CSV file (with a header row).
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// The target column.
    #[arg(long, value_name = "COL")]
    pub target: String,
    /// The kind of target.
    #[arg(long, value_enum, default_value = "auto")]
    pub task: TaskArg,
    /// Field delimiter: one character, or `tab`.
    #[arg(long, value_name = "C", default_value = ",", value_parser = delimiter)]
    pub delimiter: u8,
    /// Columns to leave out, comma separated.
    #[arg(long, value_name = "COL,...", value_parser = comma_list)]
    pub drop: Vec<Vec<String>>,
    /// What a missing value (empty, NA or ?) means.
    #[arg(long, value_enum, default_value = "error")]
    pub missing: MissingArg,
    /// For two classes: the class that is class 1 (the positive class).
    #[arg(long, value_name = "L")]
    pub positive_class: Option<String>,
}

/// Tuning by the method's registry grid (`rulecover methods ID` shows it).
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Choose the grid's parameters by inner stratified cross-validation
    /// (a parameter given with --param is kept, not searched).
    #[arg(long)]
    pub tune: bool,
    /// The inner score: accuracy, balanced_accuracy, auc, log_loss (classes),
    /// r2, mse (a real target); default accuracy for classes, r2 otherwise.
    #[arg(long, value_name = "M", requires = "tune", value_parser = tune_metric)]
    pub tune_metric: Option<rulecover::TuneMetric>,
    /// Inner folds.
    #[arg(long, value_name = "K", default_value_t = 3, requires = "tune")]
    pub tune_folds: usize,
    /// Choose the first grid point within one standard error of the best
    /// (the grids run from the simplest model to the most complex).
    #[arg(long, requires = "tune")]
    pub one_se: bool,
}

impl TuneArgs {
    /// The library's options, when tuning.
    pub fn options(&self) -> Option<rulecover::TuneOptions> {
        self.tune.then_some(rulecover::TuneOptions {
            metric: self.tune_metric,
            folds: self.tune_folds,
            one_se: self.one_se,
        })
    }
}

fn tune_metric(text: &str) -> Result<rulecover::TuneMetric, String> {
    text.parse()
}

/// `rulecover fit`.
#[derive(Debug, Args)]
pub struct FitArgs {
    /// The training table.
    #[command(flatten)]
    pub table: TableArgs,
    /// The method id (`rulecover methods` lists them).
    #[arg(long, value_name = "ID")]
    pub method: String,
    /// A parameter of the method, as name=value (repeat for more).
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// The seed of every random choice.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// A numeric column of non-negative sample weights (not a feature).
    #[arg(long, value_name = "COL")]
    pub weights: Option<String>,
    /// Where to save the model (JSON).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Also print the rules of forests and boosted ensembles (rf, ada, gb, gbt).
    #[arg(long)]
    pub print_rules: bool,
    /// Tuning.
    #[command(flatten)]
    pub tune: TuneArgs,
}

/// `rulecover predict`.
#[derive(Debug, Args)]
pub struct PredictArgs {
    /// The saved model.
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// The CSV file to predict: columns matched by name, the label optional.
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// Add one probability column per class (classifiers; a real target
    /// always prints one `value` column).
    #[arg(long)]
    pub proba: bool,
    /// Field delimiter: one character, or `tab`.
    #[arg(long, value_name = "C", default_value = ",", value_parser = delimiter)]
    pub delimiter: u8,
    /// Read missing values as missing (NaN) instead of failing.
    #[arg(long)]
    pub keep_missing: bool,
    /// Where to write the predictions (CSV); standard output without it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// How rules print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RuleFormatArg {
    /// One line per rule.
    Text,
    /// A markdown table.
    Markdown,
    /// A JSON array.
    Json,
    /// CSV with a header.
    Csv,
}

/// `rulecover rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// The saved model.
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: RuleFormatArg,
}

/// What `rulecover export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormatArg {
    /// One SQL SELECT over a table.
    Sql,
    /// One dependency-free Python module.
    Python,
}

/// The SQL engine of `rulecover export --format sql`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DialectArg {
    /// SQLite 3.35 or later, with its math functions.
    Sqlite,
    /// DuckDB.
    Duckdb,
    /// PostgreSQL 13 or later.
    Postgres,
}

/// What the SQL gives for a categorical level not seen at fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum UnseenArg {
    /// NULL outputs for the row (`predict` refuses such a row).
    Null,
    /// Read the level as a missing value (the library's
    /// `FittedModel::predict_with(.., UnseenLevel::Missing)`).
    Missing,
}

/// `rulecover export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The saved model.
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// What to write.
    #[arg(long, value_enum, default_value = "sql")]
    pub format: ExportFormatArg,
    /// The SQL engine.
    #[arg(long, value_enum, default_value = "sqlite")]
    pub dialect: DialectArg,
    /// The table (or view) the query reads; `schema.table` is allowed.
    #[arg(long, value_name = "T", default_value = "data")]
    pub table: String,
    /// Columns the query passes through before its outputs (a row key),
    /// comma separated.
    #[arg(long, value_name = "COL,...", value_parser = comma_list)]
    pub keep: Vec<Vec<String>>,
    /// What a categorical level not seen at fit gives.
    #[arg(long, value_enum, default_value = "null")]
    pub unseen: UnseenArg,
    /// Write to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `rulecover methods`.
#[derive(Debug, Args)]
pub struct MethodsArgs {
    /// One method's id (all methods without it).
    pub id: Option<String>,
}

/// How an evaluation report prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormatArg {
    /// A markdown table of mean (std).
    Markdown,
    /// JSON with every fold.
    Json,
}

/// `rulecover evaluate`.
#[derive(Debug, Args)]
pub struct EvaluateArgs {
    /// The table.
    #[command(flatten)]
    pub table: TableArgs,
    /// The method ids, comma separated; `all` for every tabular method
    /// that learns the data's task.
    #[arg(long, value_name = "ID,...", value_parser = comma_list, required = true)]
    pub methods: Vec<Vec<String>>,
    /// A parameter: name=value for every listed method that has it, or
    /// ID.name=value for one.
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Number of folds.
    #[arg(long, value_name = "K", default_value_t = 5)]
    pub folds: usize,
    /// The seed of the folds and the fits.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Fits run at once (0 = one per core); results do not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub jobs: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: ReportFormatArg,
    /// Tuning inside each outer fold.
    #[command(flatten)]
    pub tune: TuneArgs,
    /// Also write an SVG plot of each method's score (accuracy for
    /// classes, R² for a real target) against its number of rules.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// `rulecover report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The saved model.
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// A labelled CSV file to score the model on (columns matched by
    /// name): each rule's precision and support, the class balance and
    /// the metrics.
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// The label column of --data.
    #[arg(long, value_name = "COL", default_value = "label")]
    pub target: String,
    /// Field delimiter of --data: one character, or `tab`.
    #[arg(long, value_name = "C", default_value = ",", value_parser = delimiter)]
    pub delimiter: u8,
    /// Read missing values of --data as missing (NaN) instead of failing.
    #[arg(long)]
    pub keep_missing: bool,
    /// Rules drawn one bar each in the contribution chart (the rest share
    /// one bar).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub top: usize,
    /// Where to write the HTML page.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `rulecover generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// twonorm, ringnorm, xor, blobs (four classes), tic-tac-toe (a CSV
    /// table), or smokers (a relational folder).
    pub name: String,
    /// Rows of a table (default 1000; all 958 boards for tic-tac-toe), or
    /// people per split of a relational set (default 100).
    #[arg(long, value_name = "N")]
    pub rows: Option<usize>,
    /// Thin every class but the first at random until the first holds
    /// this share of the rows (e.g. 0.98 for 98/2; tables with classes).
    #[arg(long, value_name = "SHARE")]
    pub majority: Option<f64>,
    /// The seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The CSV file to write (a table), or the folder (a relational set).
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
}

/// `rulecover relational`.
#[derive(Debug, Subcommand)]
pub enum RelationalCommand {
    /// Learn a boosted (or bagged) relational model from a train folder.
    Learn(LearnArgs),
    /// Predict a test folder with a learned model; print BoostSRL's scores.
    Infer(InferArgs),
}

/// The CoTE compressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompressArg {
    /// Logically equivalent decision list.
    Scote,
    /// Equivalent on the training examples (usually much smaller).
    Ecote,
}

/// What to do with an example line that repeats an earlier line of the
/// same `*_pos.txt` / `*_neg.txt` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DuplicatesArg {
    /// Keep one copy; print a warning with the count and the first repeat.
    Warn,
    /// Refuse the data with an error naming the file, line and example.
    Error,
}

impl From<DuplicatesArg> for rc_logic::DuplicatePolicy {
    fn from(a: DuplicatesArg) -> Self {
        match a {
            DuplicatesArg::Warn => rc_logic::DuplicatePolicy::Warn,
            DuplicatesArg::Error => rc_logic::DuplicatePolicy::Error,
        }
    }
}

/// `rulecover relational learn`.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The train folder (train_pos.txt, train_neg.txt, train_facts.txt).
    #[arg(long, value_name = "DIR")]
    pub train: PathBuf,
    /// The target predicate's name.
    #[arg(long, value_name = "T")]
    pub target: String,
    /// rfgb (boosting) or bagging.
    #[arg(long, value_name = "ID", default_value = "rfgb")]
    pub method: String,
    /// Number of trees.
    #[arg(long, value_name = "N")]
    pub trees: Option<usize>,
    /// Test levels on a path of a tree (4 = BoostSRL's maxTreeDepth 3).
    #[arg(long, value_name = "D")]
    pub max_depth: Option<usize>,
    /// Most literals in one node test (BoostSRL's nodeSize).
    #[arg(long, value_name = "K", alias = "nodeSize")]
    pub node_size: Option<usize>,
    /// Negatives sampled per positive.
    #[arg(long, value_name = "R", alias = "negPosRatio")]
    pub neg_pos_ratio: Option<f64>,
    /// Another parameter of the method, as name=value.
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// The seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The mode file, when not DIR/train_bk.txt or background.txt one or
    /// two folders up.
    #[arg(long, value_name = "FILE")]
    pub background: Option<PathBuf>,
    /// Where to write the model (created if needed).
    #[arg(long, value_name = "M", alias = "model")]
    pub model_dir: PathBuf,
    /// Also compress the ensemble into a CoTE decision list
    /// (M/T.list.json; infer with --use-list).
    #[arg(long, value_enum)]
    pub compress: Option<CompressArg>,
    /// Cap on the decision list's clauses while compressing.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_clauses: usize,
    /// Cap on compression time, in seconds.
    #[arg(long, value_name = "S", default_value_t = 600.0)]
    pub compress_seconds: f64,
    /// Print the learned clauses.
    #[arg(long)]
    pub print_rules: bool,
    /// Repeated example lines: warn (kept once) or error.
    #[arg(long, value_enum, default_value = "warn")]
    pub duplicates: DuplicatesArg,
}

/// `rulecover relational infer`.
#[derive(Debug, Args)]
pub struct InferArgs {
    /// The test folder (test_pos.txt, test_neg.txt, test_facts.txt).
    #[arg(long, value_name = "DIR")]
    pub test: PathBuf,
    /// The model folder written by `learn`.
    #[arg(long, value_name = "M", alias = "model")]
    pub model_dir: PathBuf,
    /// The target (needed only when the model folder holds several).
    #[arg(long, value_name = "T")]
    pub target: Option<String>,
    /// The mode file, when not DIR/test_bk.txt, background.txt one or two
    /// folders up, or the model folder's.
    #[arg(long, value_name = "FILE")]
    pub background: Option<PathBuf>,
    /// Predict with the CoTE decision list (learn with --compress).
    #[arg(long)]
    pub use_list: bool,
    /// The probability at or above which an example is predicted true.
    #[arg(long, value_name = "P", default_value_t = 0.5)]
    pub threshold: f64,
    /// Repeated example lines: warn (kept once) or error.
    #[arg(long, value_enum, default_value = "warn")]
    pub duplicates: DuplicatesArg,
}

/// BoostSRL's single-dash spellings, rewritten to this command line's
/// before parsing (`-trees 10` → `--trees 10`).
pub const BOOSTSRL_SPELLINGS: &[(&str, &str)] = &[
    ("-trees", "--trees"),
    ("-negPosRatio", "--neg-pos-ratio"),
    ("-nodeSize", "--node-size"),
    ("-target", "--target"),
    ("-train", "--train"),
    ("-test", "--test"),
    ("-model", "--model-dir"),
];

/// `args` with BoostSRL's spellings rewritten when the command is
/// `relational`.
pub fn with_boostsrl_spellings(args: Vec<String>) -> Vec<String> {
    if args.get(1).map(String::as_str) != Some("relational") {
        return args;
    }
    args.into_iter()
        .map(|a| {
            BOOSTSRL_SPELLINGS
                .iter()
                .find(|(from, _)| *from == a)
                .map_or(a, |(_, to)| to.to_string())
        })
        .collect()
}
