//! Scoring programs ([`rulecover_core::scoring::Export`]) of the rule
//! models: the class-count vote of MIRCO (and RCBoost, which predicts by
//! the same vote) and the weighted vote of RUX (and RUG), written over
//! the raw columns from the same numbers in the same order as
//! [`crate::vote()`] and [`crate::WeightedRuleModel`]'s `predict`.
//!
//! Prediction refuses a missing numeric value; a missing categorical
//! value is read as no level by a one-hot encoder, which the programs do
//! too ([`ProgramBuilder::encoded_features`]).

use rulecover_core::scoring::{Cmp, ExportError, Expr, Output, ProgramBuilder, Test};
use rulecover_core::{Encoder, Rule};

use crate::pool::RuleStats;
use crate::proba::{Smoothing, VoteCalibration};
use crate::weighted::{Fallback, ScoredRule, WeightedRuleModel};

/// The encoded features of `encoder` as program values, checked to hold
/// every feature the rules test.
fn rule_features(
    program: &mut ProgramBuilder,
    encoder: &Encoder,
    rules: impl IntoIterator<Item = impl std::borrow::Borrow<Rule>>,
) -> Result<Vec<Expr>, ExportError> {
    let x = program.encoded_features(encoder)?;
    for rule in rules {
        if let Some(c) = rule
            .borrow()
            .conditions
            .iter()
            .find(|c| c.feature >= x.len())
        {
            return Err(ExportError::Schema(format!(
                "a rule tests feature {} of {} encoded features",
                c.feature,
                x.len()
            )));
        }
    }
    Ok(x)
}

/// `if test { 1 } else { 0 }`.
fn indicator(test: Test) -> Expr {
    Expr::when(test, Expr::Const(1.0), Expr::Const(0.0))
}

/// `a / b` when `b > 0`, else `otherwise`.
fn share(a: Expr, b: &Expr, otherwise: Expr) -> Expr {
    Expr::when(
        Test::cmp(Cmp::Gt, b.clone(), Expr::Const(0.0)),
        a / b.clone(),
        otherwise,
    )
}

/// The output of [`crate::vote()`] for the rules `rules` with their
/// training statistics `stats`, on the features `encoder` gives: the
/// rules fully satisfied add their class counts (regression: their means,
/// averaged); a row none covers gets every rule's statistics times the
/// fraction of its conditions the row satisfies; class votes are divided
/// by their total (`1 / K` each when it is not positive), or with
/// `smoothing` become `(v_c + m π_c) / (Σ v + m)`.
///
/// # Errors
/// [`ExportError::Schema`] when `encoder` does not read the program's
/// columns or a rule tests a feature it does not give.
pub fn vote_output(
    program: &mut ProgramBuilder,
    encoder: &Encoder,
    rules: &[Rule],
    stats: &[RuleStats],
    n_classes: usize,
    smoothing: Option<&Smoothing>,
) -> Result<Output, ExportError> {
    let x = rule_features(program, encoder, rules)?;
    let regression = matches!(stats.first(), Some(RuleStats::Value { .. }));
    let width = if regression { 1 } else { n_classes };
    // Per rule: the test "every condition holds" and the fraction r of
    // its conditions that hold (1 for an empty rule), as `row_votes`.
    let mut full = Vec::with_capacity(rules.len());
    let mut fraction = Vec::with_capacity(rules.len());
    for rule in rules {
        let n = rule.conditions.len();
        if n == 0 {
            full.push(Test::And(Vec::new()));
            fraction.push(Expr::Const(1.0));
            continue;
        }
        let sat = program.bind(Expr::sum(
            rule.conditions
                .iter()
                .map(|c| indicator(Test::condition(c, &x))),
        ));
        full.push(Test::cmp(Cmp::Eq, sat.clone(), Expr::Const(n as f64)));
        fraction.push(sat / Expr::Const(n as f64));
    }
    let covered = program.bind(indicator(Test::Or(full.clone())));
    let is_covered = Test::cmp(Cmp::Eq, covered, Expr::Const(1.0));
    // The votes of the rules fully satisfied (scale 1) and of the partly
    // satisfied ones (scale r), each summed over the rules in order.
    let votes = |value: &dyn Fn(&RuleStats) -> Option<f64>| {
        let (mut whole, mut part) = (Vec::new(), Vec::new());
        for ((st, test), r) in stats.iter().zip(&full).zip(&fraction) {
            let Some(v) = value(st) else { continue };
            whole.push(Expr::when(
                test.clone(),
                Expr::Const(1.0 * v),
                Expr::Const(0.0),
            ));
            part.push(Expr::when(
                test.clone(),
                Expr::Const(0.0),
                r.clone() * Expr::Const(v),
            ));
        }
        (Expr::Sum(whole), Expr::Sum(part))
    };
    if regression {
        let (whole, part) = votes(&|st| match st {
            RuleStats::Value { mean, .. } => Some(*mean),
            RuleStats::Counts(_) => None,
        });
        let whole = program.bind(whole);
        let part = program.bind(part);
        let whole_weight = program.bind(Expr::sum(full.iter().map(|t| indicator(t.clone()))));
        let part_weight = program.bind(Expr::sum(
            full.iter()
                .zip(&fraction)
                .map(|(t, r)| Expr::when(t.clone(), Expr::Const(0.0), r.clone())),
        ));
        return Ok(Output::Value(Expr::when(
            is_covered,
            share(whole.clone(), &whole_weight, whole),
            share(part.clone(), &part_weight, part),
        )));
    }
    let votes: Vec<Expr> = (0..width)
        .map(|c| {
            let (whole, part) = votes(&|st| match st {
                RuleStats::Counts(counts) => counts.get(c).copied(),
                RuleStats::Value { .. } => None,
            });
            program.bind(Expr::when(is_covered.clone(), whole, part))
        })
        .collect();
    let total = program.bind(Expr::sum(votes.iter().cloned()));
    if let Some(s) = smoothing {
        let denominator = program.bind(total + Expr::Const(s.strength));
        return Ok(Output::Classes(
            votes
                .into_iter()
                .zip(&s.prior)
                .map(|(v, p)| (v + Expr::Const(s.strength * p)) / denominator.clone())
                .collect(),
        ));
    }
    let uniform = 1.0 / width as f64;
    Ok(Output::Classes(
        votes
            .into_iter()
            .map(|v| share(v, &total, Expr::Const(uniform)))
            .collect(),
    ))
}

/// The output of the weighted vote of `rules` (a
/// [`crate::WeightedRuleModel`]'s `predict`): each class's total weight of
/// the covering rules voting for it (rules in order) over the total of
/// all classes; a row no rule covers has probability 1 on its fallback
/// class (the class of the first covering rule of a partition, else its
/// default). With `by_frequencies` (more than two classes,
/// [`crate::weighted::MulticlassVote::Frequencies`]) each covering rule
/// spreads its weight over the classes by its training class frequencies.
/// With `calibration`, that vote through its softmax
/// `exp(a v_c + d_c) / Σ exp(a v_c' + d_c')`
/// ([`WeightedRuleModel::with_calibrated_proba`]).
///
/// # Errors
/// [`ExportError::Schema`] when `encoder` does not read the program's
/// columns or a rule tests a feature it does not give.
pub fn weighted_vote_output(
    program: &mut ProgramBuilder,
    encoder: &Encoder,
    n_classes: usize,
    rules: &[ScoredRule],
    fallback: &Fallback,
    calibration: Option<&VoteCalibration>,
    by_frequencies: bool,
) -> Result<Output, ExportError> {
    let partition: &[(Rule, usize)] = match fallback {
        Fallback::Partition { rules, .. } => rules,
        Fallback::Class(_) => &[],
    };
    let x = rule_features(
        program,
        encoder,
        rules
            .iter()
            .map(|r| &r.rule)
            .chain(partition.iter().map(|(r, _)| r)),
    )?;
    // A rule's share of class c: its weight to its class, or spread by
    // its class frequencies (`WeightedRuleModel::votes_by_frequencies`).
    let part = |r: &ScoredRule, c: usize| -> Option<f64> {
        if by_frequencies {
            let n: f64 = r.class_counts.iter().sum();
            (n > 0.0).then(|| r.weight * r.class_counts[c] / n)
        } else {
            (r.class == c).then_some(r.weight)
        }
    };
    let sums: Vec<Expr> = (0..n_classes)
        .map(|c| {
            let terms = rules.iter().filter_map(|r| {
                part(r, c)
                    .map(|v| Expr::when(Test::rule(&r.rule, &x), Expr::Const(v), Expr::Const(0.0)))
            });
            program.bind(Expr::sum(terms))
        })
        .collect();
    let total = program.bind(Expr::sum(sums.iter().cloned()));
    let fallback_class: Box<dyn Fn(usize) -> Expr> = match fallback {
        Fallback::Class(k) => {
            let k = *k;
            Box::new(move |c| Expr::Const(if c == k { 1.0 } else { 0.0 }))
        }
        Fallback::Partition { rules, default } => {
            let class = rules
                .iter()
                .rev()
                .fold(Expr::Const(*default as f64), |rest, (rule, c)| {
                    Expr::when(Test::rule(rule, &x), Expr::Const(*c as f64), rest)
                });
            let class = program.bind(class);
            Box::new(move |c| indicator(Test::cmp(Cmp::Eq, class.clone(), Expr::Const(c as f64))))
        }
    };
    let vote: Vec<Expr> = sums
        .into_iter()
        .enumerate()
        .map(|(c, s)| share(s, &total, fallback_class(c)))
        .collect();
    Ok(Output::Classes(match calibration {
        Some(cal) => cal.export(program, vote),
        None => vote,
    }))
}

impl rulecover_core::scoring::Export for WeightedRuleModel {
    /// The weighted vote `predict` takes, every rule used
    /// ([`weighted_vote_output`]).
    fn export(
        &self,
        program: &mut rulecover_core::scoring::ProgramBuilder,
    ) -> std::result::Result<rulecover_core::scoring::Output, rulecover_core::scoring::ExportError>
    {
        weighted_vote_output(
            program,
            &self.encoder,
            self.n_classes,
            &self.rules,
            &self.fallback,
            self.calibration.as_ref(),
            self.votes_by_frequencies(),
        )
    }
}
