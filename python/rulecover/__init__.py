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
