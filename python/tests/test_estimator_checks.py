"""scikit-learn's estimator checks for every classifier and regressor.

Checks expected to fail are listed in EXPECTED with the reason (and in
python/README.md); scikit-learn runs them as (non-strict) xfail, and
pytest's summary lists any that pass (XPASS) so their entries can go. Every check runs: none is
skipped (scikit-learn itself skips its array-API checks unless
SCIPY_ARRAY_API is set).
"""

from sklearn.utils.estimator_checks import parametrize_with_checks

from rulecover import (
    LinearRuleRegression,
    LogisticRuleRegression,
    MIRCOClassifier,
    NREClassifier,
    RCBoostClassifier,
    RUGClassifier,
    RuleFitClassifier,
    RuleFitRegressor,
    RUXClassifier,
)

# Small settings keep the checks fast; every parameter still goes through
# the registry.
ESTIMATORS = [
    MIRCOClassifier(n_estimators=5, max_depth=4, random_state=0),
    RCBoostClassifier(max_depth=3, max_rmp_calls=5, random_state=0),
    RUXClassifier(ensemble="rf", n_estimators=5, random_state=0),
    RUXClassifier(ensemble="ada", n_estimators=5, random_state=0),
    RUGClassifier(max_depth=3, max_rmp_calls=5, random_state=0),
    LogisticRuleRegression(max_iterations=10, random_state=0),
    LinearRuleRegression(max_iterations=10, random_state=0),
    # A pinned penalty keeps the weight contract (integer weights equal
    # repeated rows), which lambda0="auto" is exempt from.
    LinearRuleRegression(lambda0=0.05, max_iterations=10, random_state=0),
    RuleFitClassifier(max_rules=40, random_state=0),
    RuleFitRegressor(max_rules=40, random_state=0),
    NREClassifier(max_depth=3, max_epochs=20, random_state=0),
]

RESAMPLED = (
    "weights are replication in expectation: the random forest behind the "
    "rules draws its bootstrap samples from the rows, so repeated rows are "
    "drawn differently than weighted ones and the models differ"
)
RUG_TIES = (
    "column generation prices trees on the weighted rows; with repeated "
    "rows ties between equally good splits and LP vertices fall "
    "differently, so the rule sets differ"
)
LOGISTIC_TOLERANCE = (
    "the iterative logistic fit stops at its convergence tolerance; on "
    "repeated rows the sums run in another order, so probabilities agree to "
    "about 1e-4 near 0 and 1, not to the check's rtol=1e-7"
)
RULEFIT_SUBSAMPLE = (
    "RuleFit grows its trees on random subsamples of the rows (Friedman's "
    "min(n/2, 100 + 6 sqrt(n))): repeated rows change n and the draws"
)
NRE_SPLIT = (
    "the network's early-stopping validation split and mini-batches draw "
    "rows at random: repeated rows are drawn differently than weighted ones"
)
AUTO_FOLDS = (
    "lambda0='auto' chooses the penalty by inner cross-validation: a "
    "repeated row can land in two inner folds, a weighted one in one, so the "
    "chosen penalty (and the model) may differ; pinned, the weights hold"
)
ONE_SAMPLE_MESSAGE = (
    "the Rust error for one training row says why the learner cannot fit "
    "('needs at least two classes', 'no usable feature') in words "
    "scikit-learn's regex for this check does not list"
)

#: check -> reason, by estimator (the keys of ESTIMATORS' reprs are their
#: class names; RUXClassifier by ensemble).
EXPECTED = {
    "MIRCOClassifier": {"check_sample_weight_equivalence_on_dense_data": RESAMPLED},
    "RUXClassifier[rf]": {
        "check_sample_weight_equivalence_on_dense_data": RESAMPLED,
        "check_fit2d_1sample": ONE_SAMPLE_MESSAGE,
    },
    "RUXClassifier[ada]": {"check_fit2d_1sample": ONE_SAMPLE_MESSAGE},
    "RUGClassifier": {
        "check_sample_weight_equivalence_on_dense_data": RUG_TIES,
        "check_fit2d_1sample": ONE_SAMPLE_MESSAGE,
    },
    "LogisticRuleRegression": {
        "check_sample_weight_equivalence_on_dense_data": LOGISTIC_TOLERANCE,
    },
    "LinearRuleRegression[auto]": {
        "check_fit2d_1sample": ONE_SAMPLE_MESSAGE,
        "check_sample_weight_equivalence_on_dense_data": AUTO_FOLDS,
    },
    "LinearRuleRegression": {"check_fit2d_1sample": ONE_SAMPLE_MESSAGE},
    # More than two classes are fitted one-vs-rest, one subsampled RuleFit
    # per class.
    "RuleFitClassifier": {
        "check_sample_weight_equivalence_on_dense_data": RULEFIT_SUBSAMPLE,
    },
    "RuleFitRegressor": {
        "check_sample_weight_equivalence_on_dense_data": RULEFIT_SUBSAMPLE,
        "check_fit2d_1sample": ONE_SAMPLE_MESSAGE,
    },
    "NREClassifier": {"check_sample_weight_equivalence_on_dense_data": NRE_SPLIT},
}


def expected_failures(estimator):
    name = type(estimator).__name__
    if name == "RUXClassifier":
        name += f"[{estimator.ensemble}]"
    if name == "LinearRuleRegression" and estimator.lambda0 == "auto":
        name += "[auto]"
    return dict(EXPECTED.get(name, {}))


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failures)
def test_sklearn_compatible(estimator, check):
    check(estimator)
