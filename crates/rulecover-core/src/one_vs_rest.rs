//! One-vs-rest: any binary classifier made multi-class, as
//! scikit-learn's `OneVsRestClassifier` does. One binary model per class
//! learns that class (class 1) against the rest (class 0); a row's class
//! probabilities are the binary models' probabilities of their class,
//! normalised to sum to 1.
//!
//! ```
//! use rulecover_core::{generate, Fit, Fitted, OneVsRest, Predict, ZeroR};
//!
//! // Any `Fit` whose model predicts two classes will do; ZeroR keeps the
//! // example short.
//! let data = generate::blobs(120, 3, 2, 7);
//! let model = OneVsRest::new(ZeroR).fit(&data)?;
//! assert_eq!(model.classes().len(), 3);
//! let pred = model.predict(&data)?;
//! let row: f64 = pred.proba_row(0).unwrap().iter().sum();
//! assert!((row - 1.0).abs() < 1e-12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::dataset::{Dataset, Feature, Target};
use crate::error::Error;
use crate::params::{CheckParams, Checked};
use crate::predictions::Predictions;
use crate::rng::derive_seed;
use crate::ruleset::{RuleSet, WeightedRule};
use crate::schema::{Encoder, Encoding};
use crate::scoring::{Cmp, Export, ExportError, Expr, Output, ProgramBuilder, Test};
use crate::traits::{Fit, Fitted, Predict, Reseed, RuleModel};

/// One-vs-rest parameters: the binary learner fitted once per class.
///
/// The model of class `k` is fitted with the seed
/// [`derive_seed`]`(seed, k)` of the base's seed ([`Reseed`]), so each
/// class has its own random stream and the result does not depend on the
/// thread count. Classes are fitted one after another (each learner
/// parallelises inside its own fit where it can).
#[derive(Debug, Clone, PartialEq)]
pub struct OneVsRest<P> {
    /// The binary learner.
    pub base: P,
}

impl<P> OneVsRest<P> {
    /// One-vs-rest over `base`.
    pub fn new(base: P) -> Self {
        OneVsRest { base }
    }
}

/// The model of one class in a [`OneVsRestModel`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ClassModel<M> {
    /// The binary model of the class (class 1) against the rest (class 0).
    Binary(M),
    /// The class's probability before normalisation, for every row: 0
    /// when no training row of positive weight is of the class, 1 when
    /// every one is (no binary model can learn from one class).
    Constant(f64),
}

/// A fitted one-vs-rest model: the training schema (with every class) and
/// one [`ClassModel`] per class, in class order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OneVsRestModel<M> {
    encoder: Encoder,
    models: Vec<ClassModel<M>>,
}

/// What can go wrong in a one-vs-rest fit or prediction.
#[derive(Debug, thiserror::Error)]
pub enum OneVsRestError<E: std::error::Error + 'static> {
    /// The data (no class labels, no rows, bad weights, missing columns).
    #[error(transparent)]
    Data(#[from] Error),
    /// The binary model of one class failed.
    #[error("the one-vs-rest model of class '{class}': {source}")]
    Class {
        /// The class.
        class: String,
        /// The binary learner's error.
        source: E,
    },
}

/// The names of the binary problem of class `name`: the rest, then the
/// class.
fn binary_names(name: &str) -> Vec<String> {
    vec![format!("not {name}"), name.to_string()]
}

impl<P> OneVsRest<P>
where
    P: Fit + Reseed,
{
    /// The parameters of class `k`'s binary model: the base with the
    /// seed `derive_seed(seed, k)` (the base as it is for a learner
    /// without random choices).
    pub fn class_params(&self, k: usize) -> P {
        let seed = self.base.random_seed().unwrap_or(0);
        self.base.with_random_seed(derive_seed(seed, k as u64))
    }

    fn fit_rows(
        &self,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<OneVsRestModel<P::Model>, OneVsRestError<P::Error>> {
        if data.n_rows() == 0 {
            return Err(Error::Empty {
                file: data.name().to_string(),
                what: "no training rows".into(),
            }
            .into());
        }
        let names = match data.target_storage() {
            Target::Classes { names, .. } => names.clone(),
            Target::Real(_) => {
                return Err(Error::TargetKind(format!(
                    "dataset '{}' has a real target; one-vs-rest needs class labels",
                    data.name()
                ))
                .into())
            }
            Target::None => {
                return Err(Error::TargetKind(format!(
                    "dataset '{}' has no target to learn from",
                    data.name()
                ))
                .into())
            }
        };
        let (encoder, _) = Encoder::fit(data, Encoding::Native)?;
        let labels = data.labels()?;
        let weight = |i: usize| weights.map_or(1.0, |w| w[i]);
        let mut models = Vec::with_capacity(names.len());
        for (k, name) in names.iter().enumerate() {
            let (mut inside, mut outside) = (0.0, 0.0);
            for (i, &l) in labels.iter().enumerate() {
                if l == k {
                    inside += weight(i);
                } else {
                    outside += weight(i);
                }
            }
            if inside == 0.0 || outside == 0.0 {
                models.push(ClassModel::Constant(if inside > 0.0 { 1.0 } else { 0.0 }));
                continue;
            }
            let binary = data.with_target(Target::Classes {
                labels: labels.iter().map(|&l| usize::from(l == k)).collect(),
                names: binary_names(name),
            })?;
            let params = self.class_params(k);
            // The weights were checked once for every class; each class's
            // parameters (a seed of their own) are checked here.
            let fitted = Checked::new(&params)
                .map_err(P::Error::from)
                .and_then(|checked| P::fit_checked(checked, &binary, weights))
                .map_err(|source| OneVsRestError::Class {
                    class: name.clone(),
                    source,
                })?;
            models.push(ClassModel::Binary(fitted));
        }
        Ok(OneVsRestModel { encoder, models })
    }
}

/// One-vs-rest has no parameters of its own; each class's parameters
/// (the base with a seed of its own) are checked at that class's fit.
impl<P> CheckParams for OneVsRest<P>
where
    P: Fit + Reseed,
{
    type ParamError = OneVsRestError<P::Error>;

    fn check_params(&self) -> Result<(), Self::ParamError> {
        Ok(())
    }
}

impl<P> Fit for OneVsRest<P>
where
    P: Fit + Reseed,
{
    type Model = OneVsRestModel<P::Model>;
    type Error = OneVsRestError<P::Error>;

    /// One binary model per class of `data` (a constant for a class that
    /// holds every row or none), every binary model fitted with the
    /// weights when given; a class whose rows all weigh 0 gets the
    /// constant 0.
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<Self::Model, Self::Error> {
        params.fit_rows(data, weights)
    }
}

impl<M> OneVsRestModel<M> {
    /// The model of each class, in class order.
    pub fn class_models(&self) -> &[ClassModel<M>] {
        &self.models
    }

    /// The binary model of class `k`, or `None` for a constant class or
    /// an index out of range.
    pub fn binary_model(&self, k: usize) -> Option<&M> {
        match self.models.get(k)? {
            ClassModel::Binary(m) => Some(m),
            ClassModel::Constant(_) => None,
        }
    }

    /// Mutable access to every binary model, in class order (e.g. to set
    /// a prediction-time policy on each).
    pub fn binary_models_mut(&mut self) -> impl Iterator<Item = &mut M> {
        self.models.iter_mut().filter_map(|m| match m {
            ClassModel::Binary(m) => Some(m),
            ClassModel::Constant(_) => None,
        })
    }

    /// The binary models with their class indices, in class order.
    fn binary_models(&self) -> impl Iterator<Item = (usize, &M)> {
        self.models.iter().enumerate().filter_map(|(k, m)| match m {
            ClassModel::Binary(m) => Some((k, m)),
            ClassModel::Constant(_) => None,
        })
    }
}

impl<M> Fitted for OneVsRestModel<M> {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

/// Scales each row of `scores` (`k` columns) to sum to 1; a row summing
/// to 0 becomes uniform. A row holding NaN stays NaN.
fn normalise_rows(scores: &mut [f64], k: usize) {
    for row in scores.chunks_mut(k) {
        let sum: f64 = row.iter().sum();
        if sum > 0.0 {
            row.iter_mut().for_each(|p| *p /= sum);
        } else if sum == 0.0 {
            row.iter_mut().for_each(|p| *p = 1.0 / k as f64);
        }
    }
}

impl<M: Export> Export for OneVsRestModel<M> {
    /// Each class's positive probability (its binary model's program, or
    /// its constant), divided by their sum as [`Predict::predict`] does
    /// (`1 / K` each when they sum to 0, unchanged when the sum is `NaN`).
    fn export(&self, program: &mut ProgramBuilder) -> Result<Output, ExportError> {
        if self.encoder.encoded_features() != program.schema().features.as_slice() {
            return Err(ExportError::Schema(format!(
                "the one-vs-rest model reads the columns [{}] but the model file's schema has [{}]",
                self.encoder.schema().feature_names().join(", "),
                program.schema().feature_names().join(", ")
            )));
        }
        let mut positive = Vec::with_capacity(self.models.len());
        for (c, model) in self.models.iter().enumerate() {
            positive.push(match model {
                ClassModel::Constant(p) => Expr::Const(*p),
                ClassModel::Binary(m) => match m.export(program)? {
                    Output::Classes(mut p) if p.len() == 2 => {
                        let p1 = p.pop().expect("two probabilities");
                        program.bind(p1)
                    }
                    _ => {
                        return Err(ExportError::Output(format!(
                            "the binary model of class '{}' does not give two class probabilities",
                            self.classes()[c]
                        )))
                    }
                },
            });
        }
        let k = positive.len();
        let sum = program.bind(Expr::sum(positive.iter().cloned()));
        let positive_sum = Test::cmp(Cmp::Gt, sum.clone(), Expr::Const(0.0));
        let zero_sum = Test::cmp(Cmp::Eq, sum.clone(), Expr::Const(0.0));
        Ok(Output::Classes(
            positive
                .into_iter()
                .map(|p| {
                    Expr::when(
                        positive_sum.clone(),
                        p.clone() / sum.clone(),
                        Expr::when(zero_sum.clone(), Expr::Const(1.0 / k as f64), p),
                    )
                })
                .collect(),
        ))
    }
}

impl<M> Predict for OneVsRestModel<M>
where
    M: Predict,
{
    type Error = OneVsRestError<M::Error>;

    /// Class `k`'s probability is the binary model of `k`'s probability
    /// of class 1 (or its constant) divided by the row's sum over the
    /// classes; a row where every class has probability 0 gets `1 / K`
    /// for each. Labels are the most probable class, ties to the lowest.
    fn predict(&self, data: &Dataset) -> Result<Predictions, Self::Error> {
        let aligned = self.encoder.transform(data)?;
        // The binary models were fitted on two-class targets: give them
        // the features alone.
        let features = if aligned.has_target() {
            aligned.with_target(Target::None)?
        } else {
            aligned
        };
        let n = features.n_rows();
        let k = self.models.len();
        let mut proba = vec![0.0; n * k];
        for (c, model) in self.models.iter().enumerate() {
            let positive = match model {
                ClassModel::Constant(p) => vec![*p; n],
                ClassModel::Binary(m) => {
                    let class = || self.classes()[c].clone();
                    let pred = m
                        .predict(&features)
                        .map_err(|source| OneVsRestError::Class {
                            class: class(),
                            source,
                        })?;
                    pred.positive_proba().ok_or_else(|| {
                        Error::Shape(format!(
                            "the one-vs-rest model of class '{}' predicts {} instead of two class probabilities",
                            class(),
                            match pred {
                                Predictions::Classes { n_classes, .. } => format!("{n_classes} classes"),
                                Predictions::Values(_) => "real values".to_string(),
                            }
                        ))
                    })?
                }
            };
            for (i, p) in positive.into_iter().enumerate() {
                proba[i * k + c] = p;
            }
        }
        normalise_rows(&mut proba, k);
        Ok(Predictions::Classes {
            n_classes: k,
            proba,
        })
    }
}

impl<M> RuleModel for OneVsRestModel<M>
where
    M: RuleModel,
{
    /// The rules of every binary model.
    fn n_rules(&self) -> usize {
        self.binary_models().map(|(_, m)| m.n_rules()).sum()
    }

    /// The lengths of every binary model's rules, class by class.
    fn rule_lengths(&self) -> Vec<usize> {
        self.binary_models()
            .flat_map(|(_, m)| m.rule_lengths())
            .collect()
    }

    /// Each class's binary model as it prints itself, under a line
    /// naming the class; a constant class as its constant.
    fn render_rules(&self) -> String {
        let mut out = String::new();
        for (k, model) in self.models.iter().enumerate() {
            let name = &self.classes()[k];
            match model {
                ClassModel::Binary(m) => {
                    out.push_str(&format!("class {name} (against the rest):\n"));
                    out.push_str(&m.render_rules());
                    if !out.ends_with('\n') {
                        out.push('\n');
                    }
                }
                ClassModel::Constant(p) => out.push_str(&format!(
                    "class {name} (against the rest): constant {p} (the class has {} training row of positive weight)\n",
                    if *p > 0.0 { "every" } else { "no" }
                )),
            }
        }
        out
    }

    /// The rules of every binary model, class by class in class order,
    /// each labelled with its class ([`WeightedRule::for_class`]); the
    /// set names the model's classes. The features are the first binary
    /// model's; a later model over other features (by name) has its
    /// rules re-indexed, its new features appended.
    fn rule_set(&self) -> RuleSet {
        let mut features: Vec<Feature> = Vec::new();
        let mut rules: Vec<WeightedRule> = Vec::new();
        for (k, m) in self.binary_models() {
            let set = m.rule_set();
            let map: Vec<usize> = set
                .features
                .iter()
                .map(|f| match features.iter().position(|g| g.name == f.name) {
                    Some(j) => j,
                    None => {
                        features.push(f.clone());
                        features.len() - 1
                    }
                })
                .collect();
            let identity = map.iter().enumerate().all(|(i, &j)| i == j);
            rules.extend(set.rules.into_iter().map(|r| WeightedRule {
                antecedent: if identity {
                    r.antecedent
                } else {
                    r.antecedent
                        .map_features(|j| map.get(j).copied().unwrap_or(j))
                },
                for_class: Some(k),
                ..r
            }));
        }
        if features.is_empty() && rules.is_empty() {
            features = self.schema().features.clone();
        }
        RuleSet {
            features,
            class_names: self.classes().to_vec(),
            rules,
        }
    }
}

impl<M> crate::validate::Validate for OneVsRestModel<M>
where
    M: crate::validate::Validate + Fitted,
{
    /// The encoder holds together and names the classes; there is one
    /// class model per class; each binary model holds together, learns
    /// two classes and reads the encoder's features; a constant is a
    /// probability.
    fn validate(&self) -> crate::validate::Validity {
        use crate::validate::{length, probability, InvalidModel};
        let k = self.encoder.schema().classes().len();
        self.encoder
            .check_with_classes("models", self.models.len())?;
        length(|| "models".into(), self.models.len(), k, "classes")?;
        for (c, model) in self.models.iter().enumerate() {
            match model {
                ClassModel::Constant(p) => {
                    probability(|| format!("models[{c}].Constant"), *p)?;
                }
                ClassModel::Binary(m) => {
                    let at = format!("models[{c}].Binary");
                    m.validate().map_err(|e| e.within(&at))?;
                    if m.classes().len() != 2 {
                        return Err(InvalidModel::new(
                            format!("{at}.encoder.schema.target"),
                            format!(
                                "a one-vs-rest class model has two classes, not {}",
                                m.classes().len()
                            ),
                        ));
                    }
                    if m.schema().features != self.encoder.encoded_features() {
                        return Err(InvalidModel::new(
                            format!("{at}.encoder.schema.features"),
                            "differ from the one-vs-rest model's features",
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use crate::ruleset::{Antecedent, Outcome};
    use crate::Condition;

    /// A binary learner for the tests: a threshold on one feature at the
    /// weighted mean of the class-1 rows, predicting the class-1 share on
    /// each side; it records its seed in the model.
    #[derive(Debug, Clone)]
    struct Stump {
        feature: usize,
        seed: u64,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct StumpModel {
        encoder: Encoder,
        feature: usize,
        threshold: f64,
        above: f64,
        below: f64,
        seed: u64,
    }

    impl Reseed for Stump {
        fn random_seed(&self) -> Option<u64> {
            Some(self.seed)
        }
        fn with_random_seed(&self, seed: u64) -> Self {
            Stump { seed, ..*self }
        }
    }

    impl CheckParams for Stump {
        type ParamError = Error;
        fn check_params(&self) -> crate::Result<()> {
            Ok(())
        }
    }

    impl Fit for Stump {
        type Model = StumpModel;
        type Error = Error;
        fn fit_checked(
            params: Checked<'_, Self>,
            data: &Dataset,
            weights: Option<&[f64]>,
        ) -> crate::Result<StumpModel> {
            let ones = vec![1.0; data.n_rows()];
            let w = weights.unwrap_or(&ones);
            if data.n_classes() != 2 {
                return Err(Error::TargetKind("two classes only".into()));
            }
            if params.feature >= data.n_features() {
                return Err(Error::InvalidParameter {
                    name: "feature",
                    value: params.feature.to_string(),
                    reason: "no such feature".into(),
                });
            }
            let (encoder, _) = Encoder::fit(data, Encoding::Native)?;
            let x = data.column(params.feature);
            let (mut sx, mut sw) = (0.0, 0.0);
            for i in 0..data.n_rows() {
                if data.label(i) == 1 {
                    sx += w[i] * x[i];
                    sw += w[i];
                }
            }
            let threshold = sx / sw;
            let share = |above: bool| {
                let (mut pos, mut all) = (0.0, 0.0);
                for i in 0..data.n_rows() {
                    if (x[i] > threshold) == above {
                        all += w[i];
                        pos += w[i] * data.label(i) as f64;
                    }
                }
                if all > 0.0 {
                    pos / all
                } else {
                    0.0
                }
            };
            Ok(StumpModel {
                encoder,
                feature: params.feature,
                threshold,
                above: share(true),
                below: share(false),
                seed: params.seed,
            })
        }
    }

    impl Fitted for StumpModel {
        fn encoder(&self) -> &Encoder {
            &self.encoder
        }
    }

    impl Predict for StumpModel {
        type Error = Error;
        fn predict(&self, data: &Dataset) -> crate::Result<Predictions> {
            let x = self.encoder.transform(data)?;
            let proba = (0..x.n_rows())
                .flat_map(|i| {
                    let p = if x.value(i, self.feature) > self.threshold {
                        self.above
                    } else {
                        self.below
                    };
                    [1.0 - p, p]
                })
                .collect();
            Ok(Predictions::Classes {
                n_classes: 2,
                proba,
            })
        }
    }

    impl RuleModel for StumpModel {
        fn n_rules(&self) -> usize {
            1
        }
        fn rule_lengths(&self) -> Vec<usize> {
            vec![1]
        }
        fn render_rules(&self) -> String {
            format!("x{} > {}\n", self.feature, self.threshold)
        }
        fn rule_set(&self) -> RuleSet {
            RuleSet {
                features: self.schema().features.clone(),
                class_names: self.classes().to_vec(),
                rules: vec![WeightedRule {
                    antecedent: Antecedent::Conjunction(crate::Rule::new(vec![Condition::gt(
                        self.feature,
                        self.threshold,
                    )])),
                    outcome: Outcome::Class(1),
                    weight: self.above,
                    coverage: 0,
                    for_class: None,
                }],
            }
        }
    }

    impl Export for StumpModel {
        fn export(&self, program: &mut ProgramBuilder) -> Result<Output, ExportError> {
            let x = program.encoded_features(&self.encoder)?[self.feature].clone();
            let p = program.bind(Expr::when(
                Test::cmp(Cmp::Gt, x, Expr::Const(self.threshold)),
                Expr::Const(self.above),
                Expr::Const(self.below),
            ));
            Ok(Output::Classes(vec![Expr::Const(1.0) - p.clone(), p]))
        }
    }

    fn blobs() -> Dataset {
        generate::blobs(200, 4, 3, 11)
    }

    #[test]
    fn the_exported_program_predicts_as_the_model() {
        let data = blobs();
        let model = OneVsRest::new(Stump {
            feature: 1,
            seed: 5,
        })
        .fit(&data)
        .unwrap();
        let program = crate::scoring::Program::of(&model, crate::Schema::of(&data)).unwrap();
        // A missing value too: every stump then predicts its `below` share.
        let mut columns: Vec<Vec<f64>> = (0..data.n_features())
            .map(|j| data.column(j).to_vec())
            .collect();
        columns[1][0] = f64::NAN;
        let holed = Dataset::new("holed", data.features().to_vec(), columns, Target::None).unwrap();
        assert_eq!(program.eval(&holed), model.predict(&holed).unwrap());
    }

    #[test]
    fn probabilities_are_normalised_and_classes_kept() {
        let data = blobs();
        let model = OneVsRest::new(Stump {
            feature: 0,
            seed: 5,
        })
        .fit(&data)
        .unwrap();
        assert_eq!(model.classes(), data.class_names());
        assert_eq!(model.schema(), &crate::Schema::of(&data));
        let pred = model.predict(&data).unwrap();
        assert_eq!(pred.len(), data.n_rows());
        for i in 0..data.n_rows() {
            let sum: f64 = pred.proba_row(i).unwrap().iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "row {i}: {sum}");
        }
        // Each binary model saw its class as class 1 with its own seed.
        for k in 0..4 {
            let m = model.binary_model(k).unwrap();
            assert_eq!(m.classes()[1], data.class_names()[k]);
            assert_eq!(m.seed, derive_seed(5, k as u64));
        }
    }

    #[test]
    fn rules_are_labelled_with_their_class() {
        let data = blobs();
        let model = OneVsRest::new(Stump {
            feature: 1,
            seed: 0,
        })
        .fit(&data)
        .unwrap();
        let set = model.rule_set();
        assert_eq!(set.len(), 4);
        assert_eq!(model.n_rules(), 4);
        assert_eq!(set.class_names, data.class_names());
        for (k, r) in set.rules.iter().enumerate() {
            assert_eq!(r.for_class, Some(k));
            assert_eq!(set.class_label(r, 1), data.class_names()[k]);
        }
        let text = set.to_string();
        let first = text.lines().next().unwrap();
        let c0 = &data.class_names()[0];
        assert!(
            first.starts_with(&format!("class {c0}: if x1 > "))
                && first.contains(&format!("then class {c0}")),
            "{first}"
        );
        assert!(model.render_rules().contains("(against the rest)"));
    }

    #[test]
    fn weights_pass_through_and_zero_weight_classes_are_constant() {
        let data = blobs();
        let labels = data.labels().unwrap();
        let p = OneVsRest::new(Stump {
            feature: 0,
            seed: 1,
        });
        // Integer weights behave as copies of the rows.
        let weights: Vec<f64> = (0..data.n_rows()).map(|i| (i % 3) as f64).collect();
        let copies: Vec<usize> = (0..data.n_rows())
            .flat_map(|i| std::iter::repeat_n(i, i % 3))
            .collect();
        let weighted = p.fit_weighted(&data, &weights).unwrap();
        let copied = p.fit(&data.subset(&copies).unwrap()).unwrap();
        for k in 0..4 {
            let (a, b) = (
                weighted.binary_model(k).unwrap(),
                copied.binary_model(k).unwrap(),
            );
            assert!((a.threshold - b.threshold).abs() < 1e-9);
        }
        // A class all of whose rows weigh 0 is never predicted.
        let w: Vec<f64> = labels
            .iter()
            .map(|&l| f64::from(u8::from(l != 2)))
            .collect();
        let model = p.fit_weighted(&data, &w).unwrap();
        assert_eq!(model.class_models()[2], ClassModel::Constant(0.0));
        let pred = model.predict(&data).unwrap();
        assert!((0..data.n_rows()).all(|i| pred.proba_row(i).unwrap()[2] == 0.0));
        assert!(pred.labels().unwrap().iter().all(|&l| l != 2));
    }

    #[test]
    fn all_zero_rows_are_uniform_and_ties_go_to_the_lowest_class() {
        let mut scores = vec![0.0, 0.0, 0.0, 0.2, 0.2, 0.0];
        normalise_rows(&mut scores, 3);
        assert_eq!(&scores[..3], &[1.0 / 3.0; 3]);
        assert_eq!(&scores[3..], &[0.5, 0.5, 0.0]);
        let pred = Predictions::Classes {
            n_classes: 3,
            proba: scores,
        };
        assert_eq!(pred.labels().unwrap(), vec![0, 0]);
    }

    #[test]
    fn bad_targets_and_failing_classes_are_typed_errors() {
        let data = blobs();
        let p = OneVsRest::new(Stump {
            feature: 0,
            seed: 0,
        });
        let real = data
            .with_target(Target::Real(vec![0.5; data.n_rows()]))
            .unwrap();
        assert!(matches!(
            p.fit(&real),
            Err(OneVsRestError::Data(Error::TargetKind(_)))
        ));
        // A base that fails names the class.
        let bad = OneVsRest::new(Stump {
            feature: 99,
            seed: 0,
        });
        match bad.fit(&data) {
            Err(e @ OneVsRestError::Class { .. }) => assert!(
                e.to_string().starts_with(
                    "the one-vs-rest model of class '0': invalid parameter feature = 99"
                ),
                "{e}"
            ),
            other => panic!("{other:?}"),
        }
        let missing = data
            .with_target(Target::None)
            .unwrap()
            .subset(&[0, 1])
            .unwrap();
        let model = p.fit(&data).unwrap();
        assert_eq!(model.predict(&missing).unwrap().len(), 2);
    }

    #[test]
    fn serde_round_trip_predicts_the_same() {
        let data = blobs();
        let model = OneVsRest::new(Stump {
            feature: 2,
            seed: 3,
        })
        .fit(&data)
        .unwrap();
        let text = serde_json::to_string(&model).unwrap();
        let back: OneVsRestModel<StumpModel> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, model);
        assert_eq!(back.predict(&data).unwrap(), model.predict(&data).unwrap());
    }
}
