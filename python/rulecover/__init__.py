"""rulecover: small interpretable rule sets from tree ensembles, as
scikit-learn estimators over the rulecover Rust crates.

>>> from rulecover import RUXClassifier
>>> model = RUXClassifier(n_estimators=10, random_state=0).fit(X, y)   # doctest: +SKIP
>>> model.rules_frame()                                                # doctest: +SKIP
"""

import os

import numpy as np

from ._base import param_value
from ._native import FORMAT_VERSION, FittedModel
from ._native import backends as _backends
from ._native import methods as _methods
from .estimators import (
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

__all__ = [
    "FORMAT_VERSION",
    "LinearRuleRegression",
    "LogisticRuleRegression",
    "MIRCOClassifier",
    "NREClassifier",
    "RCBoostClassifier",
    "RUGClassifier",
    "RuleFitClassifier",
    "RuleFitRegressor",
    "RulecoverClassifier",
    "RulecoverRegressor",
    "RUXClassifier",
    "backends",
    "load",
    "loads",
    "methods",
    "param_grid",
]


def backends():
    """The LP and MIP backends of this build: ``{"lp": ..., "mip": ...,
    "available": [...]}`` (``"highs"`` when built with HiGHS, else
    ``"minilp"``)."""
    return _backends()


def methods():
    """Every registry method: ``id``, ``aliases``, ``summary``, ``tasks``
    and ``params`` (``name``, ``type``, ``allowed``, ``default``, ``doc``)."""
    return _methods()


def param_grid(method, generic=False):
    """The registry's tuning grid of ``method`` (an id or alias; the grid
    ``rulecover fit --tune`` searches, shown by ``rulecover methods ID``),
    ready for scikit-learn's ``GridSearchCV``: a dict of lists of Python
    values keyed by the registry's parameter names (the constructor
    arguments of the method's own estimator class), e.g.
    ``{"max_depth": [5, 10, 20], "n_estimators": [10, 50, 100]}``.

    A grid with a parameter tied to another (GLRM's and RuleFit's
    ``lambda1 = 0.2 * lambda0``) is a list of such dicts, one per tied
    value, which ``GridSearchCV`` accepts as well.

    With ``generic=True``, the grid of the generic estimators
    (``RulecoverClassifier(method=...)``, ``RulecoverRegressor``) instead:
    ``{"params": [point, ...]}``, one dict of registry strings per point.
    """
    name = str(method).strip().lower()
    spec = next(
        (m for m in _methods()
         if m["id"] == name or name in (a.lower() for a in m["aliases"])),
        None,
    )
    if spec is None:
        valid = ", ".join(m["id"] for m in _methods())
        raise ValueError(f"unknown method '{method}' (valid ids: {valid})")
    if not spec["grid"]:
        raise ValueError(f"method '{spec['id']}' has no tuning grid")
    # Every point as registry strings, the first axis varying slowest.
    points = [{}]
    for axis in spec["grid"]:
        new = []
        for p in points:
            for v in axis["values"]:
                q = dict(p)
                q[axis["param"]] = v
                if axis["scaled"] is not None:
                    tied, factor = axis["scaled"]
                    q[tied] = repr(factor * float(v))
                new.append(q)
        points = new
    if generic:
        return {"params": points}
    tied_axes = [a for a in spec["grid"] if a["scaled"] is not None]
    free = {a["param"]: [param_value(v) for v in a["values"]]
            for a in spec["grid"] if a["scaled"] is None}
    if not tied_axes:
        return free
    grids = [dict(free)]
    for axis in tied_axes:
        tied, factor = axis["scaled"]
        grids = [
            {**g, axis["param"]: [param_value(v)], tied: [factor * float(v)]}
            for g in grids
            for v in axis["values"]
        ]
    return grids


# kind -> (classifier class, regressor class, extra constructor params)
_KINDS = {
    "mirco": (MIRCOClassifier, None, {}),
    "rcboost": (RCBoostClassifier, None, {}),
    "rux-rf": (RUXClassifier, None, {"ensemble": "rf"}),
    "rux-ada": (RUXClassifier, None, {"ensemble": "ada"}),
    "rug": (RUGClassifier, None, {}),
    "linear-rule": (LogisticRuleRegression, LinearRuleRegression, {}),
    "lr1": (LogisticRuleRegression, LinearRuleRegression, {"rules": "singletons"}),
    "lrr": (LogisticRuleRegression, LinearRuleRegression, {}),
    "lr1n": (
        LogisticRuleRegression,
        LinearRuleRegression,
        {"rules": "singletons", "linear_terms": True},
    ),
    "lrrn": (LogisticRuleRegression, LinearRuleRegression, {"linear_terms": True}),
    "rulefit": (RuleFitClassifier, RuleFitRegressor, {}),
    "rulefit-n": (RuleFitClassifier, RuleFitRegressor, {"linear_terms": True}),
    "nre": (NREClassifier, None, {}),
    "nre-deep": (NREClassifier, None, {"deep": True}),
}


def _estimator_of(model):
    """The estimator whose fitted model is ``model`` (a ``FittedModel``):
    the method's own class with the model's parameters, or
    ``RulecoverClassifier``/``RulecoverRegressor`` for the others."""
    classes = list(model.classes)
    classifier = bool(classes)
    params = dict(model.params)
    spec = _KINDS.get(model.kind)
    cls = None
    if spec is not None:
        cls = spec[0] if classifier else spec[1]
    if cls is None:
        generic = RulecoverClassifier if classifier else RulecoverRegressor
        est = generic(method=model.kind, params=params, random_state=model.seed)
    else:
        names = cls._get_param_names()
        kwargs = {k: param_value(v) for k, v in params.items() if k in names}
        kwargs.update(spec[2])
        kwargs["random_state"] = model.seed
        est = cls(**kwargs)
    est._model = model
    names = [f[0] for f in model.features]
    est.n_features_in_ = len(names)
    est.feature_names_in_ = np.asarray(names, dtype=object)
    if classifier:
        est.classes_ = np.asarray(classes)
    return est


def load(path):
    """Loads a rulecover model file (written by ``save`` here or by the Rust
    ``FittedModel::save``) as a fitted estimator."""
    return _estimator_of(FittedModel.load(os.fspath(path)))


def loads(text):
    """Reads a rulecover model file's text as a fitted estimator."""
    return _estimator_of(FittedModel.from_json(text))
