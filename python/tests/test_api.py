import pickle
import re
import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

import rulecover
from rulecover import (
    FittedModel,
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
from rulecover._base import _UNSET, param_text

SMALL = [
    MIRCOClassifier(n_estimators=5, max_depth=4, random_state=0),
    RCBoostClassifier(max_depth=3, max_rmp_calls=5, random_state=0),
    RUXClassifier(ensemble="rf", n_estimators=5, random_state=0),
    RUXClassifier(ensemble="ada", n_estimators=5, random_state=0),
    RUGClassifier(max_rmp_calls=5, random_state=0),
    LogisticRuleRegression(max_iterations=10, random_state=0),
    RuleFitClassifier(max_rules=40, random_state=0),
    NREClassifier(max_depth=3, max_epochs=20, random_state=0),
]


def test_backends_reports_lp_and_mip():
    b = rulecover.backends()
    assert b["lp"] in ("highs", "minilp") and b["mip"] in ("highs", "minilp")
    assert "minilp" in b["available"]


# Every way an estimator selects a registry method: the class and the
# constructor arguments that choose the id; every other argument is left at
# its default. The generic RulecoverClassifier/RulecoverRegressor reach
# every tabular id and send no parameter, so the registry's defaults apply.
ESTIMATOR_CONFIGS = [
    (MIRCOClassifier, {}),
    (RCBoostClassifier, {}),
    (RUXClassifier, {"ensemble": "rf"}),
    (RUXClassifier, {"ensemble": "ada"}),
    (RUGClassifier, {}),
    (LogisticRuleRegression, {}),
    (LinearRuleRegression, {}),
    (RuleFitClassifier, {}),
    (RuleFitClassifier, {"linear_terms": True}),
    (RuleFitRegressor, {}),
    (RuleFitRegressor, {"linear_terms": True}),
    (NREClassifier, {}),
    (NREClassifier, {"deep": True}),
]

# Registry parameters an estimator deliberately does not expose, with why.
NOT_EXPOSED = {
    ("mirco", "mse_scale"): "the regression cost; MIRCOClassifier learns classes",
    ("rfgb", "prior"): "srlearn's BoostedRDNClassifier has no such argument",
    ("rfgb", "step"): "srlearn's BoostedRDNClassifier has no such argument",
    ("rfgb", "recursion"): "srlearn's BoostedRDNClassifier has no such argument",
    ("rfgb", "max_rows"): "a cap for smoke runs, not an estimator argument",
}

REGISTRY = {m["id"]: m for m in rulecover.methods()}


def _same(text, default):
    """Whether a parameter's string equals the registry's default (as text,
    or as the same number)."""
    if text == default:
        return True
    try:
        return float(text) == float(default)
    except ValueError:
        return False


def _relational_estimators():
    """``(registry id, {registry name: python value})`` of each relational
    estimator at its defaults."""
    from rulecover.relational import BoostedRDNClassifier

    return [("rfgb", BoostedRDNClassifier()._params())]


def _estimators_of(method_id):
    """``(name, {registry name: python value or _UNSET})`` of every estimator
    configuration that fits ``method_id``, at its defaults."""
    found = []
    for cls, args in ESTIMATOR_CONFIGS:
        est = cls(**args)
        if est._method_id() == method_id:
            found.append((f"{cls.__name__}({args})", est._registry_params()))
    for rid, params in _relational_estimators():
        if rid == method_id:
            found.append((f"relational {rid}", params))
    return found


def test_every_estimator_configuration_fits_a_registry_method():
    for cls, args in ESTIMATOR_CONFIGS:
        assert cls(**args)._method_id() in REGISTRY, (cls, args)
    for rid, _ in _relational_estimators():
        assert rid in REGISTRY


@pytest.mark.parametrize("method_id", sorted(REGISTRY))
def test_defaults_are_the_registry_defaults(method_id):
    spec = REGISTRY[method_id]
    defaults = {p["name"]: p["default"] for p in spec["params"]}
    estimators = _estimators_of(method_id)
    relational = spec["tasks"] == ["relational classification"]
    if not relational:
        # The generic estimators reach every tabular id and send nothing.
        for cls in (rulecover.RulecoverClassifier, rulecover.RulecoverRegressor):
            assert cls(method=method_id)._registry_params() == {}
    if not estimators:
        return  # reached through the generic estimators only (above)
    for name, params in estimators:
        for p in defaults:
            assert p in params or (method_id, p) in NOT_EXPOSED, (
                f"{name} does not expose {method_id}'s parameter {p}"
            )
        sent = {k: v for k, v in params.items() if v is not _UNSET}
        assert sent, name
        for key, value in sent.items():
            assert key in defaults, f"{name}: {key} is not a parameter of {method_id}"
            assert _same(param_text(value), defaults[key]), (
                f"{name}.{key}: {value!r} vs registry {defaults[key]!r}"
            )


@pytest.mark.parametrize("est", SMALL, ids=lambda e: type(e).__name__)
def test_fit_predict_rules_on_a_frame(est, binary_frame):
    X, y = binary_frame
    assert est.fit(X, y) is est
    assert list(est.classes_) == ["high", "low"]
    assert est.n_features_in_ == 4
    assert list(est.feature_names_in_) == ["age", "bmi", "smoker", "region"]
    proba = est.predict_proba(X)
    assert proba.shape == (len(X), 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-9)
    pred = est.predict(X)
    assert set(pred) <= {"high", "low"}
    np.testing.assert_array_equal(pred, est.classes_[np.argmax(proba, axis=1)])
    assert est.score(X, y) > 0.7
    rules = est.rules_
    assert rules and all({"conditions", "weight", "coverage"} <= set(r) for r in rules)
    frame = est.rules_frame()
    assert len(frame) == len(rules)
    # Reversed columns and an extra column predict the same.
    X2 = X[X.columns[::-1]].assign(extra=1.0)
    np.testing.assert_array_equal(est.predict_proba(X2), proba)


def test_categorical_rules_name_levels(binary_frame):
    X, y = binary_frame
    est = RUXClassifier(n_estimators=10, random_state=0).fit(X, y)
    text = " ".join(c for r in est.rules_ for c in r["conditions"])
    assert "smoker" in text
    assert re.search(r"smoker (==|!=) (yes|no)", text), text


def test_missing_column_and_unseen_level_are_value_errors(binary_frame):
    X, y = binary_frame
    est = RUXClassifier(n_estimators=5, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="missing:\n- bmi"):
        est.predict(X.drop(columns="bmi"))
    bad = X.copy()
    bad["smoker"] = bad["smoker"].astype(object)
    bad.loc[0, "smoker"] = "sometimes"
    with pytest.raises(ValueError, match="sometimes"):
        est.predict(bad)


def test_handle_unknown_reads_an_unseen_level_as_missing(binary_frame):
    X, y = binary_frame
    bad = X.copy()
    bad["smoker"] = bad["smoker"].astype(object)
    bad.loc[0, "smoker"] = "sometimes"
    est = RuleFitClassifier(max_rules=40, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="sometimes"):
        est.predict(bad)
    lenient = clone(est).set_params(handle_unknown="missing").fit(X, y)
    as_missing = bad.copy()
    as_missing.loc[0, "smoker"] = None
    assert lenient.predict_proba(bad)[0] == pytest.approx(lenient.predict_proba(as_missing)[0])
    np.testing.assert_array_equal(lenient.predict(bad)[1:], est.predict(X)[1:])
    with pytest.raises(ValueError, match="handle_unknown='ignore'"):
        RuleFitClassifier(handle_unknown="ignore").fit(X, y)
    for est in SMALL:
        assert est.get_params()["handle_unknown"] == "error"


def test_numpy_input_gets_scikit_learn_messages():
    X, y = make_classification(n_samples=80, n_features=5, random_state=0)
    est = RUGClassifier(max_rmp_calls=3, random_state=0).fit(X, y)
    assert est.n_features_in_ == 5 and not hasattr(est, "feature_names_in_")
    with pytest.raises(ValueError, match="X has 4 features, but RUGClassifier is expecting 5"):
        est.predict(X[:, :4])
    with pytest.raises(ValueError, match="NaN"):
        RUGClassifier().fit(np.where(X > 2, np.nan, X), y)


def test_bad_parameter_is_a_value_error_naming_it():
    X, y = make_classification(n_samples=40, n_features=4, random_state=0)
    with pytest.raises(ValueError, match="impurity"):
        RCBoostClassifier(impurity="bogus").fit(X, y)
    with pytest.raises(ValueError, match="ensemble"):
        RUXClassifier(ensemble="gb").fit(X, y)


def test_integer_labels_and_multiclass():
    X, y = make_classification(n_samples=150, n_features=6, n_informative=4, n_classes=3,
                               random_state=1)
    est = RUGClassifier(max_rmp_calls=5, random_state=0).fit(X, y + 10)
    np.testing.assert_array_equal(est.classes_, [10, 11, 12])
    assert est.predict_proba(X).shape == (150, 3)
    assert set(est.predict(X)) <= {10, 11, 12}
    # Learners of two classes fit more classes one-vs-rest (in Rust).
    lrr = LogisticRuleRegression(lambda0=0.05, max_iterations=10, random_state=0).fit(X, y + 10)
    np.testing.assert_array_equal(lrr.classes_, [10, 11, 12])
    proba = lrr.predict_proba(X)
    assert proba.shape == (150, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert lrr.score(X, y + 10) > np.bincount(y).max() / len(y)
    assert lrr.decision_function(X).shape == (150, 3)
    assert {r["for_class"] for r in lrr.rules_} == {10, 11, 12}


def test_sample_weights_reach_the_learner():
    # (Equivalence with repeated rows is scikit-learn's
    # check_sample_weight_equivalence_on_dense_data in test_estimator_checks.)
    X, y = make_classification(n_samples=60, n_features=4, random_state=2)
    w = np.where(y == 1, 5.0, 1.0)
    plain = RCBoostClassifier(max_depth=3, max_rmp_calls=5, random_state=0).fit(X, y)
    weighted = RCBoostClassifier(max_depth=3, max_rmp_calls=5, random_state=0)
    weighted.fit(X, y, sample_weight=w)
    assert weighted.rules_ != plain.rules_
    with pytest.raises(ValueError, match="negative|non-negative"):
        RCBoostClassifier().fit(X, y, sample_weight=-w)
    with pytest.raises(ValueError, match="sample_weight"):
        RCBoostClassifier().fit(X, y, sample_weight=w[:10])
    for cls in (LogisticRuleRegression, RuleFitClassifier, NREClassifier):
        est = cls(random_state=0)
        est.set_params(**{"max_iterations": 10} if cls is LogisticRuleRegression else {})
        plain, weighted = clone(est).fit(X, y), clone(est).fit(X, y, sample_weight=w)
        assert weighted.rules_ != plain.rules_, cls.__name__
        unit = clone(est).fit(X, y, sample_weight=np.ones(len(y)))
        np.testing.assert_array_equal(unit.predict_proba(X), plain.predict_proba(X))


def test_same_seed_same_model_and_n_jobs_does_not_matter():
    X, y = make_classification(n_samples=100, n_features=5, random_state=3)
    a = RUXClassifier(n_estimators=8, random_state=5, n_jobs=1).fit(X, y)
    b = RUXClassifier(n_estimators=8, random_state=5, n_jobs=2).fit(X, y)
    # The model files differ only in recorded solver timings.
    assert a.rules_ == b.rules_
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    c = RUXClassifier(n_estimators=8, random_state=6).fit(X, y)
    assert c.rules_ != a.rules_


def test_estimator_is_the_registry_fit():
    """The estimator hands its parameters, data and seed to rulecover::fit:
    the model equals the one fitted directly through the registry."""
    X, y = make_classification(n_samples=100, n_features=5, random_state=4)
    est = LogisticRuleRegression(lambda0=0.01, max_iterations=20, random_state=3).fit(X, y)
    cols = [np.ascontiguousarray(X[:, j]).tobytes() for j in range(5)]
    names = [f"x{j}" for j in range(5)]
    direct = FittedModel.fit("lrr", [("lambda0", "0.01"), ("max_iterations", "20")], names,
                             cols, y.astype(np.float64).tobytes(), ["0", "1"], None, 3)
    assert est._model.rules() == direct.rules()
    _, raw, k, labels = direct.predict(names, cols)
    np.testing.assert_array_equal(np.frombuffer(raw).reshape(-1, k), est.predict_proba(X))


def test_pickle_round_trip(binary_frame):
    X, y = binary_frame
    est = RCBoostClassifier(max_depth=3, max_rmp_calls=5, random_state=0).fit(X, y)
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.predict_proba(X), est.predict_proba(X))
    assert again.rules_ == est.rules_
    assert again.get_params() == est.get_params()


def test_model_file_round_trip(tmp_path, binary_frame):
    X, y = binary_frame
    est = MIRCOClassifier(n_estimators=5, max_depth=4, random_state=0).fit(X, y)
    path = tmp_path / "model.json"
    est.save(path)
    loaded = rulecover.load(path)
    assert isinstance(loaded, MIRCOClassifier)
    assert loaded.get_params()["n_estimators"] == 5
    np.testing.assert_array_equal(loaded.predict_proba(X), est.predict_proba(X))
    np.testing.assert_array_equal(loaded.predict(X), est.predict(X))
    assert list(loaded.feature_names_in_) == list(X.columns)
    with pytest.raises(ValueError, match="format_version"):
        rulecover.loads('{"format_version": 99}')


def test_regressors():
    X, y = make_regression(n_samples=120, n_features=4, noise=0.1, random_state=0)
    for est in (LinearRuleRegression(max_iterations=10), RuleFitRegressor(max_rules=40)):
        est.fit(X, y)
        assert est.predict(X).shape == (120,)
        assert est.score(X, y) > 0.5
        assert all(r["value"] is not None or r["linear"] for r in est.rules_ if r["class"] is None)


def test_pipeline_column_transformer_and_grid_search(binary_frame):
    X, y = binary_frame
    pipe = Pipeline([
        ("scale", ColumnTransformer([("num", StandardScaler(), ["age", "bmi"])],
                                    remainder="passthrough", verbose_feature_names_out=False)
         .set_output(transform="pandas")),
        ("rules", RUXClassifier(n_estimators=5, random_state=0)),
    ])
    grid = GridSearchCV(pipe, {"rules__max_depth": [1, 2]}, cv=3, n_jobs=2)
    grid.fit(X, y)
    assert grid.best_params_["rules__max_depth"] in (1, 2)
    assert grid.score(X, y) > 0.7


@pytest.mark.parametrize(
    "est",
    [LogisticRuleRegression(max_iterations=10, random_state=0),
     RuleFitClassifier(max_rules=40, random_state=0),
     NREClassifier(max_depth=3, max_epochs=20, random_state=0)],
    ids=lambda e: type(e).__name__,
)
def test_decision_function_is_the_log_odds_of_the_second_class(est):
    X, y = make_classification(n_samples=120, n_features=5, random_state=5)
    est.fit(X, np.where(y == 1, "yes", "no"))
    score = est.decision_function(X)
    assert score.shape == (120,)
    proba = est.predict_proba(X)
    np.testing.assert_allclose(1 / (1 + np.exp(-score)), proba[:, 1], rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(est.predict(X)[score > 0], "yes")
    # Only the logistic loss has log-odds.
    assert not hasattr(NREClassifier(loss="hinge"), "decision_function")
    for other in (RUXClassifier(), RUGClassifier(), MIRCOClassifier(), RCBoostClassifier()):
        assert not hasattr(other, "decision_function")


def test_param_grid_is_the_registry_grid_ready_for_grid_search(binary_frame):
    assert rulecover.param_grid("rf") == {"max_depth": [5, 10, 20],
                                          "n_estimators": [10, 50, 100]}
    assert rulecover.param_grid("RF+RUX") == {"max_depth": [1, 2, 3],
                                              "n_estimators": [100, 200]}
    lrr = rulecover.param_grid("lrr")
    assert isinstance(lrr, list) and len(lrr) == 8
    assert lrr[0] == {"lambda0": [0.1], "lambda1": [0.2 * 0.1]}
    generic = rulecover.param_grid("dt", generic=True)
    assert generic == {"params": [{"max_depth": "5"}, {"max_depth": "10"},
                                  {"max_depth": "20"}]}
    for m in rulecover.methods():
        if "relational classification" not in m["tasks"]:
            assert rulecover.param_grid(m["id"])
    with pytest.raises(ValueError, match="nope"):
        rulecover.param_grid("nope")
    X, y = binary_frame
    grid = GridSearchCV(RUGClassifier(max_rmp_calls=2, random_state=0),
                        rulecover.param_grid("rug"), cv=3)
    grid.fit(X, y)
    assert grid.best_params_["max_depth"] in (1, 2, 3)
    search = GridSearchCV(rulecover.RulecoverClassifier(method="dt", random_state=0),
                          rulecover.param_grid("dt", generic=True), cv=3)
    search.fit(X, y)
    assert search.best_params_["params"]["max_depth"] in ("5", "10", "20")


def test_lambda0_auto_reports_the_chosen_penalty():
    # 85/15 classes: the paper's fixed lambda0=0.05 keeps the intercept
    # alone; "auto" (the default) chooses a smaller penalty and keeps rules.
    X, y = make_classification(n_samples=1500, n_features=6, n_informative=4,
                               weights=[0.85], random_state=4)
    pinned = LogisticRuleRegression(rules="singletons", lambda0=0.05).fit(X, y)
    assert pinned.lambda0_ == 0.05 and pinned.lambda1_ == pytest.approx(0.01)
    est = LogisticRuleRegression(rules="singletons", random_state=0).fit(X, y)
    assert est.lambda0 == "auto"
    assert est.lambda0_ in (0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005)
    assert est.lambda1_ == pytest.approx(0.2 * est.lambda0_)
    assert len(est.rules_) > 0
    again = LogisticRuleRegression(rules="singletons", lambda0=est.lambda0_,
                                   lambda1=est.lambda1_).fit(X, y)
    np.testing.assert_array_equal(again.predict_proba(X), est.predict_proba(X))
    # More classes: one penalty per class, in classes_ order.
    X3, y3 = make_classification(n_samples=300, n_features=5, n_informative=3,
                                 n_classes=3, random_state=1)
    multi = RuleFitClassifier(max_rules=60, random_state=0).fit(X3, y3)
    assert multi.lambda0_.shape == (3,)
    assert np.all(np.isfinite(multi.lambda0_))
    with pytest.raises(NotFittedError):
        LogisticRuleRegression().lambda0_
