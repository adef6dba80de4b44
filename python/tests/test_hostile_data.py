"""Hostile DataFrames through every estimator's ``fit`` and ``predict``
(issue 35, part B): each one either works (and ``predict`` returns one
value per row) or raises a ``ValueError``/``TypeError`` whose message names
the problem -- the column, the target, or the rows. A pyo3
``PanicException``, a crash or any other exception fails the test."""

import datetime

import numpy as np
import pandas as pd
import pytest

from rulecover import (
    LinearRuleRegression,
    LogisticRuleRegression,
    MIRCOClassifier,
    NREClassifier,
    RCBoostClassifier,
    RUGClassifier,
    RuleFitClassifier,
    RuleFitRegressor,
    RulecoverClassifier,
    RulecoverRegressor,
    RUXClassifier,
)

N = 24

ESTIMATORS = [
    MIRCOClassifier(n_estimators=5, max_depth=4, random_state=0),
    RCBoostClassifier(max_depth=3, max_rmp_calls=5, random_state=0),
    RUXClassifier(ensemble="rf", n_estimators=5, random_state=0),
    RUGClassifier(max_rmp_calls=5, random_state=0),
    LogisticRuleRegression(max_iterations=10, random_state=0),
    LinearRuleRegression(max_iterations=10, random_state=0),
    RuleFitClassifier(max_rules=40, random_state=0),
    RuleFitRegressor(max_rules=40, random_state=0),
    NREClassifier(max_depth=3, max_epochs=20, random_state=0),
    RulecoverClassifier(method="dt", params={"max_depth": 3}, random_state=0),
    RulecoverRegressor(method="dt", params={"max_depth": 3}, random_state=0),
]


def _is_classifier(est):
    return getattr(est, "_classifier", True)


def _base():
    rng = np.random.default_rng(0)
    return pd.DataFrame({"a": rng.normal(size=N), "b": np.arange(N) % 4})


def _y(est, n=N):
    if _is_classifier(est):
        return np.array(["no", "yes"] * (n // 2) + ["no"] * (n % 2))
    return np.linspace(0.0, 1.0, n)


def _with(column, values):
    X = _base()
    X[column] = values
    return X


def _mixed():
    vals = [1, "a", None, [1, 2], 2.5, "b"] * (N // 6)
    return _with("mixed_col", pd.Series(vals, dtype=object))


def _dup():
    X = _base()
    X["dup_col"] = 1.0
    X = pd.concat([X, X[["dup_col"]]], axis=1)
    return X


# (case, X builder, y builder or None for the estimator's own, words any of
# which the message of a ValueError/TypeError must hold)
CASES = [
    ("object column of mixed types", _mixed, None, ["mixed_col"]),
    ("inf", lambda: _with("inf_col", [np.inf, -np.inf] + [1.0] * (N - 2)), None, ["inf_col"]),
    ("huge int as object",
     lambda: _with("huge_col", pd.Series([2**70, 3] * (N // 2), dtype=object)), None,
     ["huge_col"]),
    ("huge int as uint64",
     lambda: _with("huge_col", np.array([2**64 - 1, 3] * (N // 2), dtype=np.uint64)), None,
     ["huge_col"]),
    ("all-NaN column", lambda: _with("nan_col", [np.nan] * N), None, ["nan_col"]),
    ("bool column", lambda: _with("bool_col", [True, False] * (N // 2)), None, ["bool_col"]),
    ("nullable bool column",
     lambda: _with("bool_col", pd.array([True, None] * (N // 2), dtype="boolean")), None,
     ["bool_col"]),
    ("datetime column",
     lambda: _with("when_col", pd.date_range("2020-01-01", periods=N)), None, ["when_col"]),
    ("bytes column", lambda: _with("bytes_col", [b"x", b"y"] * (N // 2)), None, ["bytes_col"]),
    ("duplicate column names", _dup, None, ["dup_col"]),
    ("empty string column name", lambda: _with("", np.arange(N, dtype=float)), None,
     ["column", "''"]),
    ("non-string column names",
     lambda: pd.DataFrame({0: np.arange(N, dtype=float), 1: np.arange(N) % 3}), None,
     ["feature names", "column"]),
    ("mixed str and int column names", lambda: _with(7, np.arange(N, dtype=float)), None,
     ["feature names", "column"]),
    ("zero rows", lambda: _base().iloc[:0], lambda est: _y(est)[:0], ["rows", "sample"]),
    ("NaN in the target", _base, "nan", ["target", "y ", "input y", "nan"]),
    ("one class", _base, "one", ["class", "target"]),
]


def _target(est, spec):
    if spec is None:
        return _y(est)
    if spec == "nan":
        y = _y(est).astype(object if _is_classifier(est) else float)
        y[3] = np.nan
        return y
    if spec == "one":
        return np.array(["yes"] * N) if _is_classifier(est) else np.full(N, 2.0)
    return spec(est)


@pytest.mark.parametrize("case,make_X,make_y,words", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_hostile_frame_is_refused_by_name_or_works(est, case, make_X, make_y, words):
    from sklearn.base import clone

    est = clone(est)
    X = make_X()
    y = _target(est, make_y)
    try:
        est.fit(X, y)
    except (ValueError, TypeError) as e:
        msg = str(e)
        assert any(w.lower() in msg.lower() for w in words), (
            f"{case}: {type(e).__name__} does not name the problem ({words}): {msg}"
        )
        return
    try:
        pred = est.predict(X)
    except (ValueError, TypeError) as e:
        msg = str(e)
        assert any(w.lower() in msg.lower() for w in words), (
            f"{case}: predict's {type(e).__name__} does not name the problem ({words}): {msg}"
        )
        return
    assert np.shape(pred) == (len(X),), f"{case}: predict returned shape {np.shape(pred)}"
    if _is_classifier(est):
        assert set(np.unique(pred)) <= set(est.classes_)
    else:
        assert np.all(np.isfinite(pred)), f"{case}: non-finite predictions"


def test_prediction_frame_with_hostile_values_names_the_column():
    """A model fitted on clean data refuses hostile values at predict with
    the column's name (or works)."""
    est = RulecoverClassifier(method="dt", params={"max_depth": 3}, random_state=0)
    est.fit(_base(), _y(est))
    for values in ([np.inf] * N, pd.Series([[1]] * N, dtype=object),
                   pd.Series(["text"] * N, dtype=object)):
        X = _base()
        X["a"] = values
        try:
            pred = est.predict(X)
        except (ValueError, TypeError) as e:
            assert "'a'" in str(e) or "a:" in str(e) or "column a" in str(e), str(e)
        else:
            assert pred.shape == (N,)


def test_datetime_now_is_not_a_crash():
    X = _base()
    X["when_col"] = [datetime.datetime(2020, 1, 1 + i % 28) for i in range(N)]
    est = RulecoverClassifier(method="dt", params={"max_depth": 2}, random_state=0)
    try:
        est.fit(X, _y(est))
    except (ValueError, TypeError) as e:
        assert "when_col" in str(e)
