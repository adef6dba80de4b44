//! A weighted rule set as RUX and RUG return it: rules with a class and a
//! weight, prediction by the weighted vote of eq. (2), and the paper's
//! case-study view (rules by weight with cumulative accuracy and
//! coverage).

use std::fmt;

use serde::{Deserialize, Serialize};

use rulecover_core::metrics::argmax;
use rulecover_core::{
    Antecedent, Dataset, Encoder, Feature, Fitted, Outcome, Predict, Predictions, Rule, RuleModel,
    RuleSet, WeightedRule,
};

use crate::error::{Error, Result};
use crate::input::encoded;
use crate::proba::VoteCalibration;
use crate::row_weights::coverage_count;
use crate::rux_lp::LpStats;

/// Length of a rule as seed 001's code counts it (`Rule.length()` after
/// `_cleanRule`): the number of distinct features it tests, so
/// `2 < x <= 5` counts once. A rule without conditions has length 0.
pub fn rule_length(rule: &Rule) -> usize {
    let mut f: Vec<usize> = rule.conditions.iter().map(|c| c.feature).collect();
    f.sort_unstable();
    f.dedup();
    f.len()
}

/// One rule of a [`WeightedRuleModel`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoredRule {
    /// The conjunction, with the conditions on each feature merged into one
    /// interval (as the authors print rules; same coverage as the leaf path).
    pub rule: Rule,
    /// The class it votes for: its estimator's prediction or the majority
    /// class of the training rows it covers, as RUX was told
    /// ([`crate::rux::LeafLabel`]; RUG: the training majority).
    pub class: usize,
    /// Weight normalised by the largest weight of the LP solution (the
    /// first rule has weight 1).
    pub weight: f64,
    /// Weight `w_j` in the LP solution.
    pub lp_weight: f64,
    /// Cost `c_j` in the LP (after normalisation, if any).
    pub cost: f64,
    /// Training rows of each class the rule covers (total sample weight
    /// with sample weights).
    pub class_counts: Vec<f64>,
    /// Estimator (tree) the rule came from.
    pub estimator: usize,
    /// Leaf node id within that tree.
    pub node: usize,
}

/// What a row covered by no rule is predicted as.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Fallback {
    /// A fixed class (e.g. the training majority class: the paper's
    /// "default label").
    Class(usize),
    /// The class of the first rule of a partition that covers the row
    /// (the authors' code: the first fitted tree, whose leaves are
    /// labelled by their training majority), else `default`.
    Partition {
        /// The partition's rules with their classes.
        rules: Vec<(Rule, usize)>,
        /// Class when no rule of the partition covers the row.
        default: usize,
    },
}

impl Fallback {
    fn class_of(&self, row: &[f64]) -> usize {
        match self {
            Fallback::Class(c) => *c,
            Fallback::Partition { rules, default } => rules
                .iter()
                .find(|(r, _)| r.covers_row(row))
                .map_or(*default, |(_, c)| *c),
        }
    }
}

/// What a covering rule adds to a row's vote when there are more than
/// two classes (two classes always vote by label).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum MulticlassVote {
    /// Its weight to its class (seed 001, eq. 2). The default.
    #[default]
    Label,
    /// Its weight spread over the classes by its training class
    /// frequencies ([`ScoredRule::class_counts`]), as a forest averages
    /// its leaves' frequencies: RUX-RF then votes as the forest it selects
    /// from. On 5 balanced generated classes RUX-RF's accuracy rose from
    /// 0.813 with the paper's vote to 0.857 (its forest: 0.887;
    /// docs/reproduction/001.md); with two classes the label vote was
    /// better (85/15 twonorm 0.963 against 0.950), so it is not used
    /// there.
    Frequencies,
}

/// Facts about the fit of a [`WeightedRuleModel`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FitInfo {
    /// Rules in the pool the LP chose from.
    pub pool_size: usize,
    /// Rules with positive LP weight before thresholding.
    pub positive_weights: usize,
    /// Optimal LP objective of the last solve.
    pub objective: f64,
    /// Size and effort of the last LP solve.
    pub lp: LpStats,
    /// Total LP time over all solves, in seconds.
    pub lp_seconds: f64,
    /// Training rows covered by no rule of the model.
    pub uncovered_training_rows: usize,
}

/// A set of weighted rules predicting by the weighted vote of seed 001's
/// eq. (2): a row gets the class with the largest total weight of the
/// rules covering it; a row no rule covers gets the [`Fallback`] class.
/// Rules are kept sorted by decreasing weight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeightedRuleModel {
    pub(crate) encoder: Encoder,
    pub(crate) n_classes: usize,
    pub(crate) rules: Vec<ScoredRule>,
    pub(crate) fallback: Fallback,
    info: FitInfo,
    /// The calibration of [`crate::RuleProba::Calibrated`] (none: the
    /// weighted vote of eq. (2); a model file without it reads as the
    /// vote).
    #[serde(default)]
    pub(crate) calibration: Option<VoteCalibration>,
    /// What a covering rule adds to the vote with more than two classes
    /// (a model file without it reads as [`MulticlassVote::Label`]).
    #[serde(default)]
    pub(crate) multiclass_vote: MulticlassVote,
}

impl WeightedRuleModel {
    /// A model from rules (sorted here by decreasing weight, ties by
    /// their given order) that index the features `encoder` produces.
    /// `n_classes` must exceed every class used.
    pub fn new(
        encoder: Encoder,
        n_classes: usize,
        mut rules: Vec<ScoredRule>,
        fallback: Fallback,
        info: FitInfo,
    ) -> Result<Self> {
        let too_big = |c: usize| c >= n_classes;
        let bad_rule = rules.iter().position(|r| too_big(r.class));
        let bad_fallback = match &fallback {
            Fallback::Class(c) => too_big(*c),
            Fallback::Partition { rules, default } => {
                too_big(*default) || rules.iter().any(|(_, c)| too_big(*c))
            }
        };
        if let Some(j) = bad_rule {
            return Err(Error::Shape(format!(
                "rule {j} votes for class {} but there are {n_classes} classes",
                rules[j].class
            )));
        }
        if bad_fallback {
            return Err(Error::Shape(format!(
                "the fallback uses a class ≥ {n_classes}"
            )));
        }
        if let Some(j) = rules
            .iter()
            .position(|r| !(r.weight.is_finite() && r.weight >= 0.0))
        {
            return Err(Error::Shape(format!(
                "rule {j} has weight {}; weights must be finite and ≥ 0",
                rules[j].weight
            )));
        }
        rules.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        Ok(WeightedRuleModel {
            encoder,
            n_classes,
            rules,
            fallback,
            info,
            calibration: None,
            multiclass_vote: MulticlassVote::Label,
        })
    }

    /// The model with [`crate::RuleProba::Calibrated`] probabilities: the
    /// weighted vote through the softmax [`VoteCalibration`] fitted to the
    /// vote of `train` (the encoded training rows, weighted by `weights`).
    ///
    /// # Errors
    /// [`Error::Shape`] for data without classes or with another number
    /// of classes, or weights of another length.
    pub fn with_calibrated_proba(mut self, train: &Dataset, weights: &[f64]) -> Result<Self> {
        if train.n_classes() != self.n_classes || weights.len() != train.n_rows() {
            return Err(Error::Shape(format!(
                "{} classes and {} weights for {} training rows of {} classes",
                self.n_classes,
                weights.len(),
                train.n_rows(),
                train.n_classes()
            )));
        }
        let (votes, _) = self.vote_encoded(train, &self.rules);
        let labels = train.labels()?;
        self.calibration = Some(VoteCalibration::fit(
            &votes,
            &labels,
            weights,
            self.n_classes,
        ));
        Ok(self)
    }

    /// The model with `vote` as its vote for more than two classes (set it
    /// before [`WeightedRuleModel::with_calibrated_proba`], which
    /// calibrates the vote as it is).
    pub fn with_multiclass_vote(mut self, vote: MulticlassVote) -> Self {
        self.multiclass_vote = vote;
        self
    }

    /// What a covering rule adds to the vote with more than two classes.
    pub fn multiclass_vote(&self) -> MulticlassVote {
        self.multiclass_vote
    }

    /// Whether the vote spreads each rule's weight by its class
    /// frequencies ([`MulticlassVote::Frequencies`] and more than two
    /// classes).
    pub(crate) fn votes_by_frequencies(&self) -> bool {
        self.n_classes > 2 && self.multiclass_vote == MulticlassVote::Frequencies
    }

    /// The calibration of the class probabilities, if any
    /// ([`WeightedRuleModel::with_calibrated_proba`]).
    pub fn calibration(&self) -> Option<&VoteCalibration> {
        self.calibration.as_ref()
    }

    /// The rules, by decreasing weight.
    pub fn rules(&self) -> &[ScoredRule] {
        &self.rules
    }

    /// Number of classes predicted over.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// Feature descriptions the rules refer to (the encoded features).
    pub fn features(&self) -> &[Feature] {
        self.encoder.encoded_features()
    }

    /// The prediction for uncovered rows.
    pub fn fallback(&self) -> &Fallback {
        &self.fallback
    }

    /// Facts about the fit.
    pub fn info(&self) -> &FitInfo {
        &self.info
    }

    /// Complexity as seed 001 App. D counts it (after Dash et al.):
    /// number of rules plus total number of conditions.
    pub fn complexity(&self) -> usize {
        self.rules.len()
            + self
                .rules
                .iter()
                .map(|r| rule_length(&r.rule))
                .sum::<usize>()
    }

    /// The model restricted to rules with normalised weight ≥ `min_weight`
    /// (RUG-T keeps `w ≥ 0.05`).
    pub fn with_min_weight(&self, min_weight: f64) -> WeightedRuleModel {
        let mut m = self.clone();
        m.rules.retain(|r| r.weight >= min_weight);
        m
    }

    /// Predicts with the `top` heaviest rules only (all with `None`), and
    /// tells which rows no used rule covers. Probabilities are the class
    /// shares of the covering weight; an uncovered row puts probability 1
    /// on its fallback class. With a calibration
    /// ([`WeightedRuleModel::with_calibrated_proba`]) that vote goes
    /// through its softmax.
    ///
    /// # Errors
    /// The alignment errors of [`Encoder::transform`] and
    /// [`Error::MissingValue`] for a `NaN`.
    pub fn predict_top(
        &self,
        data: &Dataset,
        top: Option<usize>,
    ) -> Result<(Predictions, Vec<bool>)> {
        let data = encoded(&self.encoder, data)?;
        let used = &self.rules[..top.unwrap_or(self.rules.len()).min(self.rules.len())];
        let (mut proba, missed) = self.vote_encoded(&data, used);
        if let Some(cal) = &self.calibration {
            let mut out = vec![0.0; self.n_classes];
            for row in proba.chunks_mut(self.n_classes) {
                cal.apply(row, &mut out);
                row.copy_from_slice(&out);
            }
        }
        Ok((
            Predictions::Classes {
                n_classes: self.n_classes,
                proba,
            },
            missed,
        ))
    }

    /// The weighted vote of `used` on encoded rows (`k` shares per row,
    /// row-major; by class frequencies when
    /// [`WeightedRuleModel::votes_by_frequencies`]), and which rows no
    /// rule of `used` covers.
    fn vote_encoded(&self, data: &Dataset, used: &[ScoredRule]) -> (Vec<f64>, Vec<bool>) {
        let k = self.n_classes;
        let mut row = vec![0.0; data.n_features()];
        let mut proba = vec![0.0; data.n_rows() * k];
        let mut missed = Vec::with_capacity(data.n_rows());
        let by_frequencies = self.votes_by_frequencies();
        for (i, out) in proba.chunks_mut(k).enumerate() {
            data.row_into(i, &mut row);
            for r in used {
                if !r.rule.covers_row(&row) {
                    continue;
                }
                if by_frequencies {
                    let n: f64 = r.class_counts.iter().sum();
                    if n > 0.0 {
                        for (o, c) in out.iter_mut().zip(&r.class_counts) {
                            *o += r.weight * c / n;
                        }
                    }
                } else {
                    out[r.class] += r.weight;
                }
            }
            let total: f64 = out.iter().sum();
            if total > 0.0 {
                out.iter_mut().for_each(|p| *p /= total);
                missed.push(false);
            } else {
                out.iter_mut().for_each(|p| *p = 0.0);
                out[self.fallback.class_of(&row)] = 1.0;
                missed.push(true);
            }
        }
        (proba, missed)
    }

    /// Fraction of rows of `data` that no rule covers.
    pub fn missed_fraction(&self, data: &Dataset) -> Result<f64> {
        let (_, missed) = self.predict_top(data, None)?;
        Ok(missed.iter().filter(|&&m| m).count() as f64 / missed.len().max(1) as f64)
    }

    /// The rules as a rule set (class outcomes, normalised weights).
    fn to_rule_set(&self) -> RuleSet {
        RuleSet {
            features: self.features().to_vec(),
            class_names: self.encoder.schema().classes().to_vec(),
            rules: self
                .rules
                .iter()
                .map(|r| WeightedRule {
                    antecedent: Antecedent::Conjunction(r.rule.clone()),
                    outcome: Outcome::Class(r.class),
                    weight: r.weight,
                    coverage: coverage_count(r.class_counts.iter().sum::<f64>()),
                    for_class: None,
                })
                .collect(),
        }
    }

    fn class_name(&self, k: usize) -> String {
        self.encoder
            .schema()
            .classes()
            .get(k)
            .cloned()
            .unwrap_or_else(|| k.to_string())
    }

    /// The case-study view of seed 001 (§4.2, Fig. 2): rules by decreasing
    /// weight with the accuracy on `data` of the top-m rules (uncovered
    /// rows get the fallback) and the share of `data` they cover.
    pub fn case_study(&self, data: &Dataset) -> Result<CaseStudy> {
        let data = encoded(&self.encoder, data)?;
        let labels = data.labels()?;
        let n = data.n_rows();
        let k = self.n_classes;
        let mut row = vec![0.0; data.n_features()];
        // Covering rules per rule (rows it covers), and fallback classes.
        let mut covers: Vec<Vec<usize>> = vec![Vec::new(); self.rules.len()];
        let mut fallback = Vec::with_capacity(n);
        for i in 0..n {
            data.row_into(i, &mut row);
            for (j, r) in self.rules.iter().enumerate() {
                if r.rule.covers_row(&row) {
                    covers[j].push(i);
                }
            }
            fallback.push(self.fallback.class_of(&row));
        }
        let mut sums = vec![0.0; n * k];
        let mut pred: Vec<usize> = fallback.clone();
        let mut correct = (0..n).filter(|&i| pred[i] == labels[i]).count();
        let mut covered = vec![false; n];
        let mut n_covered = 0;
        let mut rows = Vec::with_capacity(self.rules.len());
        for (j, r) in self.rules.iter().enumerate() {
            for &i in &covers[j] {
                sums[i * k + r.class] += r.weight;
                if !covered[i] {
                    covered[i] = true;
                    n_covered += 1;
                }
                let p = argmax(&sums[i * k..(i + 1) * k]);
                if p != pred[i] {
                    correct =
                        correct + usize::from(p == labels[i]) - usize::from(pred[i] == labels[i]);
                    pred[i] = p;
                }
            }
            rows.push(CaseStudyRow {
                rank: j + 1,
                rule: r.rule.display(self.features()).to_string(),
                class: self.class_name(r.class),
                weight: r.weight,
                covers: covers[j].len(),
                cumulative_accuracy: correct as f64 / n.max(1) as f64,
                cumulative_coverage: n_covered as f64 / n.max(1) as f64,
            });
        }
        Ok(CaseStudy { rows })
    }
}

/// One line of a [`CaseStudy`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseStudyRow {
    /// 1 for the heaviest rule.
    pub rank: usize,
    /// The rule's conditions with feature names.
    pub rule: String,
    /// The class it votes for.
    pub class: String,
    /// Normalised weight.
    pub weight: f64,
    /// Rows of the data it covers.
    pub covers: usize,
    /// Accuracy of the rules up to this one.
    pub cumulative_accuracy: f64,
    /// Share of rows covered by the rules up to this one.
    pub cumulative_coverage: f64,
}

/// Rules by weight with cumulative accuracy and coverage (seed 001 Fig. 2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseStudy {
    /// One line per rule, heaviest first.
    pub rows: Vec<CaseStudyRow>,
}

impl fmt::Display for CaseStudy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "rank  weight  cum.acc  cum.cov  rule")?;
        for r in &self.rows {
            writeln!(
                f,
                "R{:<4} {:.4}  {:.4}   {:5.1}%   if {} then {}",
                r.rank,
                r.weight,
                r.cumulative_accuracy,
                100.0 * r.cumulative_coverage,
                r.rule,
                r.class
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for WeightedRuleModel {
    /// One line per rule, heaviest first:
    /// `R1 (w=1.0000) if bmi > 29.1 and age > 52.5 then class ill`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (j, r) in self.rules.iter().enumerate() {
            writeln!(
                f,
                "R{} (w={:.4}) if {} then class {}",
                j + 1,
                r.weight,
                r.rule.display(self.features()),
                self.class_name(r.class)
            )?;
        }
        Ok(())
    }
}

impl Fitted for WeightedRuleModel {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl Predict for WeightedRuleModel {
    type Error = Error;

    /// `proba` is the normalised weighted vote of seed 001's eq. (2): for
    /// each class, the total normalised weight of the covering rules that
    /// vote for it, divided by the total weight of all covering rules. A
    /// row no rule covers gets probability 1 on its [`Fallback`] class.
    /// With a calibration, that vote through its softmax
    /// ([`WeightedRuleModel::with_calibrated_proba`]).
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        Ok(self.predict_top(data, None)?.0)
    }
}

impl RuleModel for WeightedRuleModel {
    fn n_rules(&self) -> usize {
        self.rules.len()
    }

    /// Conditions per rule after merging those on the same feature (the
    /// authors' `Rule.length()`: distinct features).
    fn rule_lengths(&self) -> Vec<usize> {
        self.rules.iter().map(|r| rule_length(&r.rule)).collect()
    }

    fn render_rules(&self) -> String {
        self.to_string()
    }

    fn rule_set(&self) -> RuleSet {
        self.to_rule_set()
    }
}

impl rulecover_core::Validate for WeightedRuleModel {
    /// The encoder holds together and has `n_classes` (at least one)
    /// classes; every rule reads the encoded features, names a class
    /// below `n_classes` and has a finite weight; the fallback's classes
    /// and rules likewise.
    fn validate(&self) -> rulecover_core::validate::Validity {
        use rulecover_core::validate::{finite, index, InvalidModel};
        self.encoder
            .check_with_classes("n_classes", self.n_classes)?;
        let k = self.n_classes;
        if k == 0 {
            return Err(InvalidModel::new("n_classes", "a classifier has no class"));
        }
        let n = self.encoder.encoded_features().len();
        for (i, r) in self.rules.iter().enumerate() {
            let at = |f: &str| format!("rules[{i}].{f}");
            r.rule.check(n).map_err(|e| e.within(&at("rule")))?;
            index(|| at("class"), r.class, k, "classes")?;
            finite(|| at("weight"), r.weight)?;
            if self.votes_by_frequencies() {
                rulecover_core::validate::length(
                    || at("class_counts"),
                    r.class_counts.len(),
                    k,
                    "classes",
                )?;
                if let Some(c) = r
                    .class_counts
                    .iter()
                    .find(|c| !(c.is_finite() && **c >= 0.0))
                {
                    return Err(InvalidModel::new(
                        at("class_counts"),
                        format!("holds {c}; counts must be finite and >= 0"),
                    ));
                }
            }
        }
        if let Some(c) = &self.calibration {
            c.check(k)
                .map_err(|e| InvalidModel::new("calibration", e))?;
        }
        match &self.fallback {
            Fallback::Class(c) => index(|| "fallback.Class".into(), *c, k, "classes"),
            Fallback::Partition { rules, default } => {
                for (i, (rule, class)) in rules.iter().enumerate() {
                    let at = format!("fallback.Partition.rules[{i}]");
                    rule.check(n).map_err(|e| e.within(&format!("{at}[0]")))?;
                    index(|| format!("{at}[1]"), *class, k, "classes")?;
                }
                index(
                    || "fallback.Partition.default".into(),
                    *default,
                    k,
                    "classes",
                )
            }
        }
    }
}
