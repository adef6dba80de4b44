//! What a tuned fit records ([`Tuning`], the model file's `tuned`
//! record) and how it is asked for ([`TuneOptions`], [`TuneMetric`]); the
//! search itself is [`crate::tune`].

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use rulecover_core::metrics::Metrics;

use crate::method::Task;

/// What the inner cross-validation scores a grid point by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TuneMetric {
    /// Fraction of correct labels (classes; the default for classes, as
    /// scikit-learn's classifiers score).
    Accuracy,
    /// Mean per-class recall (classes).
    BalancedAccuracy,
    /// ROC AUC, macro one-vs-rest for more than two classes (classes).
    Auc,
    /// Log loss, lower is better (classes).
    LogLoss,
    /// Coefficient of determination (a real target; the default there).
    R2,
    /// Mean squared error, lower is better (a real target).
    Mse,
}

impl TuneMetric {
    /// Every metric, in the order of the command line's help.
    pub const ALL: [TuneMetric; 6] = [
        TuneMetric::Accuracy,
        TuneMetric::BalancedAccuracy,
        TuneMetric::Auc,
        TuneMetric::LogLoss,
        TuneMetric::R2,
        TuneMetric::Mse,
    ];

    /// Its name (`accuracy`, `balanced_accuracy`, `auc`, `log_loss`, `r2`,
    /// `mse`).
    pub fn name(self) -> &'static str {
        match self {
            TuneMetric::Accuracy => "accuracy",
            TuneMetric::BalancedAccuracy => "balanced_accuracy",
            TuneMetric::Auc => "auc",
            TuneMetric::LogLoss => "log_loss",
            TuneMetric::R2 => "r2",
            TuneMetric::Mse => "mse",
        }
    }

    /// Whether a larger value is better.
    pub fn higher_is_better(self) -> bool {
        !matches!(self, TuneMetric::LogLoss | TuneMetric::Mse)
    }

    /// Whether it scores class predictions (else real values).
    pub fn for_classes(self) -> bool {
        !matches!(self, TuneMetric::R2 | TuneMetric::Mse)
    }

    /// The default for a task: accuracy for classes, R² for a real
    /// target (scikit-learn's `score`).
    pub fn default_for(task: Task) -> TuneMetric {
        if task == Task::Regression {
            TuneMetric::R2
        } else {
            TuneMetric::Accuracy
        }
    }

    /// Its value among `m` (`None` where undefined, e.g. the AUC of a
    /// fold holding one class).
    pub fn of(self, m: &Metrics) -> Option<f64> {
        match self {
            TuneMetric::Accuracy => m.accuracy,
            TuneMetric::BalancedAccuracy => m.balanced_accuracy,
            TuneMetric::Auc => m.auc_roc,
            TuneMetric::LogLoss => m.log_loss,
            TuneMetric::R2 => m.r2,
            TuneMetric::Mse => m.mse,
        }
    }
}

impl fmt::Display for TuneMetric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TuneMetric {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<TuneMetric, String> {
        let s = s.trim().to_ascii_lowercase();
        TuneMetric::ALL
            .into_iter()
            .find(|m| m.name() == s || (s == "roc_auc" && *m == TuneMetric::Auc))
            .ok_or_else(|| {
                format!(
                    "'{s}' is no tuning metric (one of {})",
                    TuneMetric::ALL.map(TuneMetric::name).join(", ")
                )
            })
    }
}

/// How to tune: the metric (`None`: [`TuneMetric::default_for`] the
/// task), the number of inner folds and the one-standard-error rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TuneOptions {
    /// The inner score; `None` for the task's default.
    pub metric: Option<TuneMetric>,
    /// Inner folds (at least 2; default 3).
    pub folds: usize,
    /// Choose the first grid point within one standard error of the best
    /// mean instead of the best.
    pub one_se: bool,
}

impl Default for TuneOptions {
    fn default() -> TuneOptions {
        TuneOptions {
            metric: None,
            folds: 3,
            one_se: false,
        }
    }
}

/// One grid point of a search and its inner-CV score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GridPoint {
    /// The point's parameters (the grid's and their tied ones).
    pub params: BTreeMap<String, String>,
    /// Mean of the metric over the inner folds (`NaN` when undefined).
    #[serde(with = "rc_json::float")]
    pub mean: f64,
    /// Its sample standard deviation over the folds.
    #[serde(with = "rc_json::float")]
    pub std: f64,
}

/// What a search did: the model file's `tuned` record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tuning {
    /// The metric.
    pub metric: TuneMetric,
    /// Inner folds.
    pub folds: usize,
    /// Whether the one-standard-error rule chose.
    pub one_se: bool,
    /// The chosen point's parameters (also in the model's `params`).
    pub chosen: BTreeMap<String, String>,
    /// Index of the chosen point in `grid`.
    pub chosen_index: usize,
    /// Index of the point with the best mean score.
    pub best_index: usize,
    /// Every point searched, in grid order.
    pub grid: Vec<GridPoint>,
}

impl Tuning {
    /// The chosen parameters as `name=value` words, in name order.
    pub fn chosen_text(&self) -> String {
        self.chosen
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}
