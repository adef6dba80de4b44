//! rc-glm's methods: the GLRM variants `lr1`, `lrr`, `lr1n`, `lrrn`,
//! `linear-rule`, RuleFit (`rulefit`, `rulefit-n`), all fitted
//! one-vs-rest on more than two classes, and the `gbt` baseline; and
//! [`GbtModel`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use rc_glm::export::literal_test;
use rc_glm::{
    AutoLambda, Binarizer, BinarizerParams, GlrmModel, GlrmParams, Pricing, RuleFitParams,
    RuleSpace, UnseenMissing,
};
use rc_tree::{GradientBoosting, GradientBoostingParams};
use rulecover_core::scoring::{Export, ExportError, Expr, Output, ProgramBuilder};
use rulecover_core::{Dataset, Fitted, OneVsRestModel, Predict, Predictions, Reseed, RuleModel};

use crate::error::{BoxedError, Error, Result};
use crate::learners::common::{p, CLS_REG, INT0, INT1, OPT_DEPTH};
use crate::learners::tree::{GB_LEARNING_RATE, GB_SUBSAMPLE};
use crate::method::{read_per_class, table_method, GridAxis, MethodSpec, TableJob, TableMethod};
use crate::model::{Model, ModelKind};
use crate::params::{Args, ParamKind, ParamSpec};

const LAMBDA0: ParamSpec = p(
    "lambda0",
    ParamKind::FloatOrAuto,
    "auto",
    "penalty of every term (>= 0), or auto: chosen by 3-fold CV over the warm-started path \
     0.1,...,0.0005 (paper 002's grid; 0.05 on data too small to cross-validate)",
);
/// Paper 002's regularisation path: `lambda0` from 0.1 down to 0.0005,
/// with `lambda1 = 0.2 × lambda0`.
const LAMBDA_PATH: &[GridAxis] = &[GridAxis::new(
    "lambda0",
    &[
        "0.1", "0.05", "0.02", "0.01", "0.005", "0.002", "0.001", "0.0005",
    ],
)
.scaling("lambda1", 0.2)];

const LAMBDA1: ParamSpec = p(
    "lambda1",
    ParamKind::FloatOrAuto,
    "auto",
    "additional penalty per literal of a rule (>= 0), or auto: 0.2 * lambda0 (the paper's)",
);
/// The paper's `lambda1 / lambda0`.
const LAMBDA1_RATIO: f64 = 0.2;

/// `lambda0` and `lambda1` read from `args`: pinned `(λ0, λ1)` (λ1 =
/// 0.2 λ0 when `lambda1` is `auto`) and no search, or, with `lambda0 =
/// auto`, the search over paper 002's path (λ1 tied to λ0 unless given)
/// and the crate's fixed penalties as its fallback on tiny data.
fn penalties(args: &Args, preset: (f64, f64)) -> Result<(f64, f64, Option<AutoLambda>)> {
    let lambda1 = args.float_or_auto("lambda1")?;
    Ok(match args.float_or_auto("lambda0")? {
        Some(l0) => (l0, lambda1.unwrap_or(LAMBDA1_RATIO * l0), None),
        None => {
            let auto = AutoLambda {
                lambda1_ratio: match lambda1 {
                    None => Some(LAMBDA1_RATIO),
                    Some(_) => None,
                },
                ..AutoLambda::default()
            };
            (preset.0, lambda1.unwrap_or(preset.1), Some(auto))
        }
    })
}
const N_THRESHOLDS: ParamSpec = p(
    "n_thresholds",
    INT1,
    "9",
    "quantile thresholds per numeric feature (9 = deciles)",
);
const DEBIAS: ParamSpec = p(
    "debias",
    ParamKind::Bool,
    "true",
    "refit the selected terms without regularisation",
);
const LINEAR_SCALE: ParamSpec = p(
    "linear_scale",
    ParamKind::Float,
    "0.4",
    "multiplier of the standardised linear terms (> 0)",
);
const MAX_DEGREE: ParamSpec = p(
    "max_degree",
    INT1,
    "10",
    "largest number of literals in a generated rule",
);
const BEAM_WIDTH: ParamSpec = p(
    "beam_width",
    INT1,
    "1",
    "beam width of the pricing heuristic (1 = the paper's)",
);
const MAX_ITERATIONS: ParamSpec = p(
    "max_iterations",
    INT0,
    "200",
    "cap on column-generation iterations",
);

const LR1_PARAMS: &[ParamSpec] = &[LAMBDA0, LAMBDA1, N_THRESHOLDS, DEBIAS];
const LR1N_PARAMS: &[ParamSpec] = &[LAMBDA0, LAMBDA1, N_THRESHOLDS, DEBIAS, LINEAR_SCALE];
const LRR_PARAMS: &[ParamSpec] = &[
    LAMBDA0,
    LAMBDA1,
    N_THRESHOLDS,
    DEBIAS,
    MAX_DEGREE,
    BEAM_WIDTH,
    MAX_ITERATIONS,
];
const LRRN_PARAMS: &[ParamSpec] = &[
    LAMBDA0,
    LAMBDA1,
    N_THRESHOLDS,
    DEBIAS,
    LINEAR_SCALE,
    MAX_DEGREE,
    BEAM_WIDTH,
    MAX_ITERATIONS,
];
const LINEAR_RULE_PARAMS: &[ParamSpec] = &[
    p(
        "rules",
        ParamKind::Choice(&["conjunctions", "singletons"]),
        "conjunctions",
        "rule space: conjunctions by column generation (LRR) or single literals (LR1)",
    ),
    p(
        "linear_terms",
        ParamKind::Bool,
        "false",
        "add the standardised numeric features as linear terms (the N variants)",
    ),
    p(
        "pricing",
        ParamKind::Choice(&["heuristic", "exact"]),
        "heuristic",
        "pricing of new rules: the paper's beam heuristic or the exact IP (LRRI)",
    ),
    LAMBDA0,
    LAMBDA1,
    N_THRESHOLDS,
    DEBIAS,
    LINEAR_SCALE,
    MAX_DEGREE,
    BEAM_WIDTH,
    MAX_ITERATIONS,
    p(
        "time_limit",
        ParamKind::OptFloat,
        "none",
        "wall-clock seconds allowed to column generation; none = no limit",
    ),
];

const RULEFIT_COMMON: [ParamSpec; 7] = [
    p(
        "tree_size",
        ParamKind::Int { min: 2 },
        "4",
        "mean number of leaves per tree (christophM/rulefit's 4)",
    ),
    p(
        "max_rules",
        INT1,
        "2000",
        "trees are added until their sizes sum to this",
    ),
    p(
        "learning_rate",
        ParamKind::Float,
        "0.01",
        "boosting learning rate (memory parameter, > 0)",
    ),
    p(
        "subsample",
        ParamKind::OptFloat,
        "none",
        "row fraction per tree in (0, 1]; none = min(0.5, (100 + 6 sqrt(n)) / n)",
    ),
    LAMBDA0,
    LAMBDA1,
    N_THRESHOLDS,
];
const RULEFIT_PARAMS: &[ParamSpec] = &RULEFIT_COMMON;
const RULEFIT_N_PARAMS: &[ParamSpec] = &[
    RULEFIT_COMMON[0],
    RULEFIT_COMMON[1],
    RULEFIT_COMMON[2],
    RULEFIT_COMMON[3],
    RULEFIT_COMMON[4],
    RULEFIT_COMMON[5],
    RULEFIT_COMMON[6],
    LINEAR_SCALE,
    p(
        "winsor_quantile",
        ParamKind::Float,
        "0.025",
        "winsorising quantile of the linear terms, in [0, 0.5)",
    ),
];

const GBT_PARAMS: &[ParamSpec] = &[
    p(
        "n_estimators",
        INT1,
        "100",
        "boosting stages (paper: up to 500, chosen on a 20% validation split)",
    ),
    p(
        "max_depth",
        OPT_DEPTH,
        "3",
        "depth of the trees (paper tunes {1,2,3,4,6})",
    ),
    GB_LEARNING_RATE,
    GB_SUBSAMPLE,
    N_THRESHOLDS,
];

impl ModelKind for GlrmModel {
    fn export(&self, program: &mut ProgramBuilder) -> std::result::Result<Output, ExportError> {
        Export::export(self, program)
    }
    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, BoxedError> {
        Ok(Predict::predict(self, data)?)
    }
    fn rules(&self) -> Option<&dyn RuleModel> {
        Some(self)
    }
    fn validate(&self) -> std::result::Result<(), rulecover_core::InvalidModel> {
        rulecover_core::Validate::validate(self)
    }
    fn classes(&self) -> &[String] {
        Fitted::classes(self)
    }
    fn chosen_params(&self) -> Vec<(String, f64)> {
        self.info()
            .lambda_search
            .as_ref()
            .map(|s| {
                vec![
                    ("lambda0".to_string(), s.lambda0),
                    ("lambda1".to_string(), s.lambda1),
                ]
            })
            .unwrap_or_default()
    }
    fn reading_missing_as_literals(&self) -> Option<Self> {
        let lenient = UnseenMissing::AsLiterals;
        (self.unseen_missing() != lenient).then(|| {
            let mut m = self.clone();
            m.set_unseen_missing(lenient);
            m
        })
    }
}

impl ModelKind for OneVsRestModel<GlrmModel> {
    fn export(&self, program: &mut ProgramBuilder) -> std::result::Result<Output, ExportError> {
        Export::export(self, program)
    }
    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, BoxedError> {
        Ok(Predict::predict(self, data)?)
    }
    fn rules(&self) -> Option<&dyn RuleModel> {
        Some(self)
    }
    fn validate(&self) -> std::result::Result<(), rulecover_core::InvalidModel> {
        rulecover_core::Validate::validate(self)
    }
    fn classes(&self) -> &[String] {
        Fitted::classes(self)
    }
    fn one_vs_rest_classes(&self) -> Option<&[String]> {
        Some(Fitted::classes(self))
    }
    fn chosen_params(&self) -> Vec<(String, f64)> {
        let classes = Fitted::classes(self);
        (0..classes.len())
            .filter_map(|k| Some((self.binary_model(k)?, &classes[k])))
            .flat_map(|(m, class)| {
                ModelKind::chosen_params(m)
                    .into_iter()
                    .map(move |(name, v)| (format!("{name}[{class}]"), v))
            })
            .collect()
    }
    fn reading_missing_as_literals(&self) -> Option<Self> {
        let mut m = self.clone();
        m.binary_models_mut()
            .for_each(|b| b.set_unseen_missing(UnseenMissing::AsLiterals));
        Some(m)
    }
}

/// The GBT baseline of paper 002: gradient-boosted trees grown on the
/// 0/1 columns of the GLRM binarizer's literals, so that they split at the
/// same quantile thresholds as the rule models.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GbtModel {
    /// The binarizer fitted on the training rows.
    pub binarizer: Binarizer,
    /// The boosted trees over the binarizer's indicator columns (named by
    /// their literals, e.g. `age <= 37`).
    pub boosting: GradientBoosting,
}

impl GbtModel {
    /// The rows of `data` as the binarizer's indicator columns.
    ///
    /// # Errors
    /// The binarizer's error for data it cannot encode.
    pub fn indicators(&self, data: &Dataset) -> std::result::Result<Dataset, rc_glm::Error> {
        self.binarizer.indicator_dataset(data)
    }
}

impl ModelKind for GbtModel {
    /// Each primary literal of the binarizer as a 0/1 value of the raw
    /// columns ([`Binarizer::indicator_dataset`]'s columns, with the
    /// literals' missing-value semantics), the boosted trees over them
    /// ([`GradientBoosting::export_over`]).
    fn export(&self, program: &mut ProgramBuilder) -> std::result::Result<Output, ExportError> {
        if self.binarizer.features() != program.schema().features.as_slice() {
            return Err(ExportError::Schema(format!(
                "the binarizer reads the columns [{}] but the model file's schema has [{}]",
                self.binarizer
                    .features()
                    .iter()
                    .map(|f| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                program.schema().feature_names().join(", ")
            )));
        }
        let inputs: Vec<Expr> = (0..program.schema().n_features())
            .map(|j| program.input(j))
            .collect();
        let literals = self.binarizer.literals();
        let indicators: Vec<Expr> = self
            .binarizer
            .primary_literals()
            .into_iter()
            .map(|j| {
                program.bind(Expr::when(
                    literal_test(&literals[j], &inputs),
                    Expr::Const(1.0),
                    Expr::Const(0.0),
                ))
            })
            .collect();
        self.boosting.export_over(program, &indicators)
    }
    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, BoxedError> {
        let x = self.indicators(data)?;
        Ok(Predict::predict(&self.boosting, &x)?)
    }
    /// The boosted trees' rules, testing the indicator columns.
    fn rules(&self) -> Option<&dyn RuleModel> {
        Some(&self.boosting)
    }
    fn classes(&self) -> &[String] {
        Fitted::classes(&self.boosting)
    }
    /// The binarizer and the boosted trees hold together, and the trees
    /// read one column per primary literal.
    fn validate(&self) -> std::result::Result<(), rulecover_core::InvalidModel> {
        use rulecover_core::{Fitted, Validate};
        self.binarizer
            .validate()
            .map_err(|e| e.within("binarizer"))?;
        Validate::validate(&self.boosting).map_err(|e| e.within("boosting"))?;
        rulecover_core::validate::length(
            || "boosting.encoder.encoded".into(),
            self.boosting.feature_names().len(),
            self.binarizer.primary_literals().len(),
            "primary literals of the binarizer",
        )
    }
}

/// λ0, λ1, binarizer and de-biasing of every GLRM variant.
fn glrm_common(base: GlrmParams, args: &Args) -> Result<GlrmParams> {
    let (lambda0, lambda1, auto) = penalties(args, (base.lambda0, base.lambda1))?;
    let base = base
        .lambda0(lambda0)
        .lambda1(lambda1)
        .auto_lambda(auto)
        .debias(args.bool("debias")?);
    // The binarizer keeps the variant's own choice of negated literals
    // (LR1 drops them); only the number of thresholds is a parameter.
    let binarizer = base
        .binarizer
        .clone()
        .n_thresholds(args.int("n_thresholds")?);
    Ok(base.binarizer(binarizer))
}

fn glrm_column_generation(base: GlrmParams, args: &Args) -> Result<GlrmParams> {
    Ok(base
        .max_degree(args.int("max_degree")?)
        .beam_width(args.int("beam_width")?)
        .max_iterations(args.int("max_iterations")?))
}

/// A GLRM variant's item: fitted per class, read as a [`GlrmModel`].
macro_rules! glrm_method {
    ($item:ty, $spec:expr) => {
        table_method!($item, $spec);

        impl TableMethod for $item {
            fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
                // The seed of lambda0 = auto's inner folds.
                job.fit_per_class(self.params(job.args())?.with_random_seed(job.seed()))
            }
            fn read_model(&self, value: Value, one_vs_rest: bool) -> serde_json::Result<Model> {
                read_per_class::<GlrmModel>(value, one_vs_rest)
            }
        }
    };
}

/// `lr1`: GLRM on single literals.
pub(crate) struct Lr1;

static LR1: MethodSpec = MethodSpec::new(
    "lr1",
    "GLRM LR1: sparse logistic/linear regression on single-literal rules",
    "002",
    CLS_REG,
    LR1_PARAMS,
)
.fitted_one_vs_rest()
.grid(LAMBDA_PATH);

impl Lr1 {
    /// rc-glm's params for `args`.
    pub(crate) fn params(&self, args: &Args) -> Result<GlrmParams> {
        glrm_common(GlrmParams::lr1(), args)
    }
}

glrm_method!(Lr1, LR1);

/// `lrr`: GLRM on conjunctions by column generation.
pub(crate) struct Lrr;

static LRR: MethodSpec = MethodSpec::new(
    "lrr",
    "GLRM LRR: sparse logistic/linear regression on conjunctions priced by column generation",
    "002",
    CLS_REG,
    LRR_PARAMS,
)
.fitted_one_vs_rest()
.grid(LAMBDA_PATH)
.smoke(&[("max_iterations", "5")]);

impl Lrr {
    /// rc-glm's params for `args`.
    pub(crate) fn params(&self, args: &Args) -> Result<GlrmParams> {
        glrm_column_generation(glrm_common(GlrmParams::lrr(), args)?, args)
    }
}

glrm_method!(Lrr, LRR);

/// `lr1n`: LR1 with linear terms.
pub(crate) struct Lr1n;

static LR1N: MethodSpec = MethodSpec::new(
    "lr1n",
    "GLRM LR1N: LR1 plus linear terms of the numeric features",
    "002",
    CLS_REG,
    LR1N_PARAMS,
)
.fitted_one_vs_rest()
.grid(LAMBDA_PATH);

impl Lr1n {
    /// rc-glm's params for `args`.
    pub(crate) fn params(&self, args: &Args) -> Result<GlrmParams> {
        Ok(glrm_common(GlrmParams::lr1n(), args)?.linear_scale(args.float("linear_scale")?))
    }
}

glrm_method!(Lr1n, LR1N);

/// `lrrn`: LRR with linear terms.
pub(crate) struct Lrrn;

static LRRN: MethodSpec = MethodSpec::new(
    "lrrn",
    "GLRM LRRN: LRR plus linear terms of the numeric features",
    "002",
    CLS_REG,
    LRRN_PARAMS,
)
.fitted_one_vs_rest()
.grid(LAMBDA_PATH)
.smoke(&[("max_iterations", "5")]);

impl Lrrn {
    /// rc-glm's params for `args`.
    pub(crate) fn params(&self, args: &Args) -> Result<GlrmParams> {
        Ok(
            glrm_column_generation(glrm_common(GlrmParams::lrrn(), args)?, args)?
                .linear_scale(args.float("linear_scale")?),
        )
    }
}

glrm_method!(Lrrn, LRRN);

/// `linear-rule`: the GLRM with every choice open.
pub(crate) struct LinearRule;

static LINEAR_RULE: MethodSpec = MethodSpec::new(
    "linear-rule",
    "generalized linear rule model with every choice open (rule space, linear terms, exact pricing)",
    "002",
    CLS_REG,
    LINEAR_RULE_PARAMS,
)
.aliases(&["GLRM"])
.fitted_one_vs_rest()
.grid(LAMBDA_PATH)
.smoke(&[("linear_terms", "true"), ("max_iterations", "3")]);

impl LinearRule {
    /// rc-glm's params for `args`.
    pub(crate) fn params(&self, args: &Args) -> Result<GlrmParams> {
        let rules = match args.choice("rules")? {
            "conjunctions" => RuleSpace::Conjunctions,
            "singletons" => RuleSpace::Singletons,
            other => return Err(args.unhandled("rules", other)),
        };
        // The variant presets set the binarizer's negations by the rule
        // space (LR1 drops them), so start from the preset.
        let base = match rules {
            RuleSpace::Singletons => GlrmParams::lr1(),
            RuleSpace::Conjunctions => GlrmParams::lrr(),
        };
        let pricing = match args.choice("pricing")? {
            "heuristic" => Pricing::Heuristic,
            "exact" => Pricing::Exact,
            other => return Err(args.unhandled("pricing", other)),
        };
        let time_limit =
            match args.opt_float("time_limit")? {
                None => None,
                Some(secs) => Some(std::time::Duration::try_from_secs_f64(secs).map_err(|_| {
                    Error::BadValue {
                        method: LINEAR_RULE.id.into(),
                        name: "time_limit".into(),
                        value: secs.to_string(),
                        expected: "a non-negative number of seconds, or none".into(),
                    }
                })?),
            };
        Ok(glrm_column_generation(glrm_common(base, args)?, args)?
            .linear_terms(args.bool("linear_terms")?)
            .linear_scale(args.float("linear_scale")?)
            .pricing(pricing)
            .time_limit(time_limit))
    }
}

glrm_method!(LinearRule, LINEAR_RULE);

fn binarizer(args: &Args) -> Result<BinarizerParams> {
    Ok(BinarizerParams::default().n_thresholds(args.int("n_thresholds")?))
}

/// RuleFit's params, with linear terms or without.
fn rulefit(args: &Args, linear: bool, seed: u64) -> Result<RuleFitParams> {
    let mut p = RuleFitParams::new()
        .tree_size(args.int("tree_size")?)
        .max_rules(args.int("max_rules")?)
        .learning_rate(args.float("learning_rate")?)
        .subsample(args.opt_float("subsample")?)
        .linear_terms(linear)
        .seed(seed);
    let (lambda0, lambda1, auto) = penalties(args, (p.lambda0, p.lambda1))?;
    p.lambda0 = lambda0;
    p.lambda1 = lambda1;
    p.auto_lambda = auto.map(|a| AutoLambda { seed, ..a });
    p.binarizer = binarizer(args)?;
    if linear {
        p.linear_scale = args.float("linear_scale")?;
        p.winsor_quantile = args.float("winsor_quantile")?;
    }
    Ok(p)
}

/// `rulefit`: RuleFit.
pub(crate) struct RuleFit;

static RULEFIT: MethodSpec = MethodSpec::new(
    "rulefit",
    "RuleFit: L1 regression on the nodes of boosted random-size trees",
    "002",
    CLS_REG,
    RULEFIT_PARAMS,
)
.fitted_one_vs_rest()
.grid(LAMBDA_PATH)
.smoke(&[("max_rules", "100")]);

table_method!(RuleFit, RULEFIT);

impl TableMethod for RuleFit {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit_per_class(rulefit(job.args(), false, job.seed())?)
    }
    fn read_model(&self, value: Value, one_vs_rest: bool) -> serde_json::Result<Model> {
        read_per_class::<GlrmModel>(value, one_vs_rest)
    }
}

/// `rulefit-n`: RuleFit with linear terms.
pub(crate) struct RuleFitN;

static RULEFIT_N: MethodSpec = MethodSpec::new(
    "rulefit-n",
    "RuleFit with winsorised linear terms",
    "002",
    CLS_REG,
    RULEFIT_N_PARAMS,
)
.aliases(&["RuleFitN"])
.fitted_one_vs_rest()
.grid(LAMBDA_PATH)
.smoke(&[("max_rules", "100")]);

table_method!(RuleFitN, RULEFIT_N);

impl TableMethod for RuleFitN {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        job.fit_per_class(rulefit(job.args(), true, job.seed())?)
    }
    fn read_model(&self, value: Value, one_vs_rest: bool) -> serde_json::Result<Model> {
        read_per_class::<GlrmModel>(value, one_vs_rest)
    }
}

/// `gbt`: gradient boosting on the binarizer's literals.
pub(crate) struct Gbt;

static GBT: MethodSpec = MethodSpec::new(
    "gbt",
    "gradient-boosted trees splitting on the GLRM binarizer's quantile literals",
    "002",
    CLS_REG,
    GBT_PARAMS,
)
.rules_printed_on_request()
.grid(&[
    GridAxis::new("max_depth", &["1", "2", "3", "4", "6"]),
    GridAxis::new("n_estimators", &["100", "500"]),
])
.smoke(&[("n_estimators", "5")]);

impl Gbt {
    /// The binarizer's and rc-tree's params for `args`.
    pub(crate) fn params(
        &self,
        args: &Args,
        seed: u64,
    ) -> Result<(BinarizerParams, GradientBoostingParams)> {
        Ok((
            binarizer(args)?,
            GradientBoostingParams::new()
                .n_estimators(args.int("n_estimators")?)
                .max_depth(args.opt_int("max_depth")?)
                .learning_rate(args.float("learning_rate")?)
                .subsample(args.float("subsample")?)
                .seed(seed),
        ))
    }
}

table_method!(Gbt, GBT);

impl TableMethod for Gbt {
    fn fit(&self, job: &TableJob<'_>) -> Result<Model> {
        let (binarizer, boosting) = self.params(job.args(), job.seed())?;
        let binarizer = match job.weights() {
            Some(w) => binarizer.fit_weighted(job.data(), w),
            None => binarizer.fit(job.data()),
        }
        .map_err(|e| job.fail(e))?;
        let indicators = binarizer
            .indicator_dataset(job.data())
            .map_err(|e| job.fail(e))?;
        let boosting = job.fit_on(&boosting, &indicators)?;
        Ok(Model::new(GbtModel {
            binarizer,
            boosting,
        }))
    }
    fn read_model(&self, value: Value, _one_vs_rest: bool) -> serde_json::Result<Model> {
        Model::read::<GbtModel>(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learners::common::defaults;

    #[test]
    fn every_default_builds_valid_params() {
        Lr1.params(&defaults(&LR1)).unwrap().validate().unwrap();
        Lrr.params(&defaults(&LRR)).unwrap().validate().unwrap();
        Lr1n.params(&defaults(&LR1N)).unwrap().validate().unwrap();
        Lrrn.params(&defaults(&LRRN)).unwrap().validate().unwrap();
        LinearRule
            .params(&defaults(&LINEAR_RULE))
            .unwrap()
            .validate()
            .unwrap();
        rulefit(&defaults(&RULEFIT), false, 25)
            .unwrap()
            .validate()
            .unwrap();
        rulefit(&defaults(&RULEFIT_N), true, 25)
            .unwrap()
            .validate()
            .unwrap();
        let (binarizer, boosting) = Gbt.params(&defaults(&GBT), 25).unwrap();
        binarizer.validate().unwrap();
        boosting.validate().unwrap();
    }

    /// The registry's defaults are the crate presets with `lambda0 =
    /// auto`; pinning `lambda0=0.05 lambda1=0.01` gives the presets (the
    /// papers' runs).
    #[test]
    fn presets_match_the_papers_runs() {
        let auto = |seed| {
            Some(AutoLambda {
                seed,
                ..AutoLambda::default()
            })
        };
        let pinned = |spec: &'static MethodSpec| {
            let given = [
                ("lambda0".to_string(), "0.05".to_string()),
                ("lambda1".to_string(), "0.01".to_string()),
            ];
            Args::resolve(spec.id, spec.params, &given).unwrap()
        };
        for (params, preset) in [
            (Lr1.params(&pinned(&LR1)), GlrmParams::lr1()),
            (Lrr.params(&pinned(&LRR)), GlrmParams::lrr()),
            (Lr1n.params(&pinned(&LR1N)), GlrmParams::lr1n()),
            (Lrrn.params(&pinned(&LRRN)), GlrmParams::lrrn()),
            (LinearRule.params(&pinned(&LINEAR_RULE)), GlrmParams::lrr()),
        ] {
            assert_eq!(params.unwrap(), preset);
        }
        assert_eq!(
            Lrr.params(&defaults(&LRR)).unwrap(),
            GlrmParams::lrr().auto_lambda(auto(0))
        );
        assert_eq!(
            rulefit(&pinned(&RULEFIT), false, 25).unwrap(),
            RuleFitParams::new().seed(25)
        );
        assert_eq!(
            rulefit(&defaults(&RULEFIT), false, 25).unwrap(),
            RuleFitParams::new().seed(25).auto_lambda(auto(25))
        );
        assert_eq!(
            rulefit(&pinned(&RULEFIT_N), true, 25).unwrap(),
            RuleFitParams::new().linear_terms(true).seed(25)
        );
        assert_eq!(
            Gbt.params(&defaults(&GBT), 25).unwrap(),
            (
                BinarizerParams::default(),
                GradientBoostingParams::new().seed(25)
            )
        );
    }

    /// `lambda0 = auto` searches the registry's grid.
    #[test]
    fn the_auto_path_is_the_grid() {
        let grid: Vec<f64> = LAMBDA_PATH[0]
            .values
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(grid, rc_glm::auto::PAPER_PATH);
        assert_eq!(LAMBDA_PATH[0].scaled, Some(("lambda1", LAMBDA1_RATIO)));
    }
}
