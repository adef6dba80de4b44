"""scikit-learn estimators over the rulecover registry.

Each class maps its parameters onto one registry method (``rulecover.methods()``
lists them with their defaults and documentation); the defaults below are the
registry's, and a test checks that they agree.
"""

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from ._base import _UNSET, RulecoverEstimator


class _Classifier(ClassifierMixin, RulecoverEstimator):
    _classifier = True

    def predict_proba(self, X):
        """Class probabilities, ``n × n_classes`` in ``classes_`` order."""
        proba, _ = self._predict(X)
        return proba

    def predict(self, X):
        """The most probable class of each row (ties to the first class)."""
        _, labels = self._predict(X)
        return self.classes_[labels]


def _log_odds(proba):
    """Log-odds from class probabilities. For two classes, of the second
    column: the linear predictor behind a logistic link (the Rust model's
    probability is its sigmoid), shape ``(n,)``. For more classes (fitted
    one-vs-rest), ``log p_k - log(1 - p_k)`` of each class's normalised
    probability, shape ``(n, n_classes)``."""
    tiny = np.finfo(np.float64).tiny
    if proba.shape[1] == 2:
        return np.log(np.maximum(proba[:, 1], tiny)) - np.log(np.maximum(proba[:, 0], tiny))
    return np.log(np.maximum(proba, tiny)) - np.log(np.maximum(1.0 - proba, tiny))


class _LogOdds:
    """``decision_function`` as the log-odds of the second class (the
    model's linear predictor behind its logistic link); with more than two
    classes, one column of log-odds per class."""

    def decision_function(self, X):
        """Log-odds of ``classes_[1]`` for each row (two classes), else an
        ``n × n_classes`` array of each class's log-odds."""
        proba, _ = self._predict(X)
        return _log_odds(proba)


class _Regressor(RegressorMixin, RulecoverEstimator):
    _classifier = False

    def predict(self, X):
        """The predicted value of each row."""
        values, _ = self._predict(X)
        return values


class MIRCOClassifier(_Classifier):
    """MIRCO (paper 000): the minimum-cost set of a random forest's rules
    that covers every training row (registry method ``mirco``).

    Parameters: ``n_estimators`` and ``max_depth`` of the forest,
    ``max_features`` per split, ``random_stream`` (``"sklearn"`` streams
    reproduce scikit-learn's forests), ``impurity`` in the rule cost,
    ``solver`` (``"greedy"`` or ``"exact"``), ``time_limit`` of the exact
    MIP, ``proba`` (``"calibrated"``: the covering rules' counts smoothed
    toward the class shares, strength by leave-one-out; ``"vote"``: the
    paper's count vote), ``random_state``, ``n_jobs``.
    """

    def __init__(self, n_estimators=100, max_depth=10, max_features="auto",
                 random_stream="sklearn", impurity="gini", solver="greedy",
                 time_limit=60.0, proba="calibrated", random_state=None, n_jobs=None,
                 handle_unknown="error"):
        self.handle_unknown = handle_unknown
        self.proba = proba
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.max_features = max_features
        self.random_stream = random_stream
        self.impurity = impurity
        self.solver = solver
        self.time_limit = time_limit
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _method_id(self):
        return "mirco"

    def _registry_params(self):
        return dict(n_estimators=self.n_estimators, max_depth=self.max_depth,
                    max_features=self.max_features, random_stream=self.random_stream,
                    impurity=self.impurity, solver=self.solver, time_limit=self.time_limit,
                    proba=self.proba)


class RCBoostClassifier(_Classifier):
    """RCBoost (paper 000): rule covering by column generation with weighted
    pricing trees (registry method ``rcboost``). ``proba="calibrated"``
    smooths the covering rules' counts toward the class shares (strength by
    leave-one-out); ``"vote"`` is the paper's count vote."""

    def __init__(self, max_depth=10, max_rmp_calls=100, impurity="gini",
                 proba="calibrated", random_state=None, n_jobs=None,
                 handle_unknown="error"):
        self.handle_unknown = handle_unknown
        self.proba = proba
        self.max_depth = max_depth
        self.max_rmp_calls = max_rmp_calls
        self.impurity = impurity
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _method_id(self):
        return "rcboost"

    def _registry_params(self):
        return dict(max_depth=self.max_depth, max_rmp_calls=self.max_rmp_calls,
                    impurity=self.impurity, proba=self.proba)


class RUXClassifier(_Classifier):
    """RUX (paper 001): one LP weights the rules of a tree ensemble.

    ``ensemble="rf"`` (registry ``rux-rf``: a random forest, ``max_features``
    per split, rule-length costs) or ``"ada"`` (``rux-ada``: AdaBoost with
    ``algorithm``, ``1/alpha`` costs). ``cost=None`` takes the ensemble's
    default cost. ``max_features`` applies to ``"rf"`` only and
    ``algorithm`` to ``"ada"`` only. ``proba="calibrated"`` maps the
    weighted vote through a softmax fitted to the training rows (Platt
    scaling for two classes); ``"vote"`` is the paper's weighted vote.
    ``class_copies`` (more than two classes): also offer the LP each rule
    voting for every other class holding at least ``1/K`` of its rows.
    ``multiclass_vote`` (more than two classes): ``"label"`` (a rule's
    weight to its class) or ``"frequencies"`` (spread by its training
    class frequencies, as a forest votes). ``None`` takes the ensemble's
    default: ``"rf"`` votes by frequencies without copies, ``"ada"`` by
    label with copies.
    """

    def __init__(self, ensemble="rf", n_estimators=100, max_depth=2, max_features="auto",
                 algorithm="samme", eps=0.01, cost=None, normalize_costs=True,
                 threshold=1e-6, uncovered="first_estimator", leaf_label="balanced",
                 proba="calibrated", class_copies=None, multiclass_vote=None,
                 random_state=None, n_jobs=None, handle_unknown="error"):
        self.handle_unknown = handle_unknown
        self.proba = proba
        self.class_copies = class_copies
        self.multiclass_vote = multiclass_vote
        self.ensemble = ensemble
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.max_features = max_features
        self.algorithm = algorithm
        self.eps = eps
        self.cost = cost
        self.normalize_costs = normalize_costs
        self.threshold = threshold
        self.uncovered = uncovered
        self.leaf_label = leaf_label
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _method_id(self):
        if self.ensemble not in ("rf", "ada"):
            raise ValueError(f"ensemble={self.ensemble!r}: expected 'rf' or 'ada'")
        return f"rux-{self.ensemble}"

    def _registry_params(self):
        rf = self.ensemble == "rf"
        return dict(
            n_estimators=self.n_estimators, max_depth=self.max_depth,
            max_features=self.max_features if rf else _UNSET,
            algorithm=_UNSET if rf else self.algorithm,
            eps=self.eps, cost=_UNSET if self.cost is None else self.cost,
            normalize_costs=self.normalize_costs, threshold=self.threshold,
            uncovered=self.uncovered, leaf_label=self.leaf_label, proba=self.proba,
            class_copies=_UNSET if self.class_copies is None else self.class_copies,
            multiclass_vote=_UNSET if self.multiclass_vote is None else self.multiclass_vote,
        )


class RUGClassifier(_Classifier):
    """RUG (paper 001): rules by column generation with weighted pricing
    trees and an LP (registry method ``rug``; RUG-T is ``max_rmp_calls=5,
    min_weight=0.05``). ``leaf_label``, ``proba``, ``class_copies`` and
    ``multiclass_vote`` as for :class:`RUXClassifier`."""

    def __init__(self, max_depth=2, max_rmp_calls=30, min_weight=None, eps=0.01,
                 cost="rule_length", normalize_costs=True, threshold=1e-6,
                 uncovered="first_estimator", leaf_label="balanced", proba="calibrated",
                 class_copies=True, multiclass_vote="label", random_state=None, n_jobs=None,
                 handle_unknown="error"):
        self.handle_unknown = handle_unknown
        self.leaf_label = leaf_label
        self.proba = proba
        self.class_copies = class_copies
        self.multiclass_vote = multiclass_vote
        self.max_depth = max_depth
        self.max_rmp_calls = max_rmp_calls
        self.min_weight = min_weight
        self.eps = eps
        self.cost = cost
        self.normalize_costs = normalize_costs
        self.threshold = threshold
        self.uncovered = uncovered
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _method_id(self):
        return "rug"

    def _registry_params(self):
        return dict(max_depth=self.max_depth, max_rmp_calls=self.max_rmp_calls,
                    min_weight=self.min_weight, eps=self.eps, cost=self.cost,
                    normalize_costs=self.normalize_costs, threshold=self.threshold,
                    uncovered=self.uncovered, leaf_label=self.leaf_label, proba=self.proba,
                    class_copies=self.class_copies, multiclass_vote=self.multiclass_vote)


_PENALTY_DOC = """
    ``lambda0="auto"`` (the default) chooses the penalty by an inner 3-fold
    cross-validation over paper 002's warm-started path 0.1, 0.05, ...,
    0.0005 (held-out deviance; 0.05 on data too small to cross-validate);
    a number pins it. ``lambda1="auto"`` is ``0.2 * lambda0``. After
    ``fit``, ``lambda0_`` and ``lambda1_`` hold the penalties used (one per
    class, in ``classes_`` order, for a one-vs-rest model; NaN for a class
    without a model). Sample weights equal duplicated rows only with a
    pinned ``lambda0``: a duplicated row can land in two inner folds.
"""


class _ChosenPenalties:
    """``lambda0_`` and ``lambda1_``: the penalties the fit used."""

    def _penalty(self, name):
        check_is_fitted(self, "_model")
        chosen = dict(self._model.chosen_params)
        classes = getattr(self, "classes_", None)
        per_class = [f"{name}[{c}]" for c in (self._model.classes or [])]
        if any(k in chosen for k in per_class):
            return np.array([chosen.get(k, np.nan) for k in per_class])
        if name in chosen:
            return chosen[name]
        value = self._model.params[name]
        if value == "auto":  # lambda1 tied to a pinned lambda0
            return 0.2 * float(self._model.params["lambda0"])
        pinned = float(value)
        if classes is not None and len(classes) > 2 and per_class:
            return np.full(len(per_class), pinned)
        return pinned

    @property
    def lambda0_(self):
        """The ``lambda0`` the fit used (chosen by ``"auto"``, or pinned)."""
        return self._penalty("lambda0")

    @property
    def lambda1_(self):
        """The ``lambda1`` the fit used."""
        return self._penalty("lambda1")


_GLRM_DOC = """
    The generalized linear rule model of paper 002 (registry method
    ``linear-rule``): ``rules="conjunctions"`` prices conjunctions by column
    generation (LRR), ``"singletons"`` keeps single literals (LR1);
    ``linear_terms=True`` adds the standardised numeric features (LRRN,
    LR1N); ``pricing="exact"`` prices by the exact IP. ``lambda0`` penalises
    every term, ``lambda1`` every literal; ``n_thresholds`` quantile
    thresholds per numeric feature; ``debias`` refits the selected terms.
""" + _PENALTY_DOC


class _Glrm(_ChosenPenalties):
    _allow_nan = True  # the binarizer reads NaN as missing
    def __init__(self, rules="conjunctions", linear_terms=False, pricing="heuristic",
                 lambda0="auto", lambda1="auto", n_thresholds=9, debias=True, linear_scale=0.4,
                 max_degree=10, beam_width=1, max_iterations=200, time_limit=None,
                 random_state=None, n_jobs=None,
                 handle_unknown="error"):
        self.handle_unknown = handle_unknown
        self.rules = rules
        self.linear_terms = linear_terms
        self.pricing = pricing
        self.lambda0 = lambda0
        self.lambda1 = lambda1
        self.n_thresholds = n_thresholds
        self.debias = debias
        self.linear_scale = linear_scale
        self.max_degree = max_degree
        self.beam_width = beam_width
        self.max_iterations = max_iterations
        self.time_limit = time_limit
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _method_id(self):
        return "linear-rule"

    def _registry_params(self):
        return dict(rules=self.rules, linear_terms=self.linear_terms, pricing=self.pricing,
                    lambda0=self.lambda0, lambda1=self.lambda1,
                    n_thresholds=self.n_thresholds, debias=self.debias,
                    linear_scale=self.linear_scale, max_degree=self.max_degree,
                    beam_width=self.beam_width, max_iterations=self.max_iterations,
                    time_limit=self.time_limit)


class LogisticRuleRegression(_LogOdds, _Glrm, _Classifier):
    __doc__ = ("Logistic rule regression (more than two classes: one-vs-rest, one "
               "model per class)." + _GLRM_DOC)


class LinearRuleRegression(_Glrm, _Regressor):
    __doc__ = "Linear rule regression for a real target." + _GLRM_DOC


class _RuleFit(_ChosenPenalties):
    _allow_nan = True  # the binarizer reads NaN as missing
    def __init__(self, tree_size=4, max_rules=2000, learning_rate=0.01, subsample=None,
                 lambda0="auto", lambda1="auto", n_thresholds=9, linear_terms=False,
                 linear_scale=0.4, winsor_quantile=0.025, random_state=None, n_jobs=None,
                 handle_unknown="error"):
        self.handle_unknown = handle_unknown
        self.tree_size = tree_size
        self.max_rules = max_rules
        self.learning_rate = learning_rate
        self.subsample = subsample
        self.lambda0 = lambda0
        self.lambda1 = lambda1
        self.n_thresholds = n_thresholds
        self.linear_terms = linear_terms
        self.linear_scale = linear_scale
        self.winsor_quantile = winsor_quantile
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _method_id(self):
        return "rulefit-n" if self.linear_terms else "rulefit"

    def _registry_params(self):
        n = bool(self.linear_terms)
        return dict(tree_size=self.tree_size, max_rules=self.max_rules,
                    learning_rate=self.learning_rate, subsample=self.subsample,
                    lambda0=self.lambda0, lambda1=self.lambda1,
                    n_thresholds=self.n_thresholds,
                    linear_scale=self.linear_scale if n else _UNSET,
                    winsor_quantile=self.winsor_quantile if n else _UNSET)


_RULEFIT_DOC = """
    RuleFit (registry method ``rulefit``, or ``rulefit-n`` with
    ``linear_terms=True``): L1-penalised regression on the nodes of boosted
    trees of random size (``tree_size`` leaves on average, until their sizes
    sum to ``max_rules``). ``linear_scale`` and ``winsor_quantile`` shape
    the linear terms and apply with ``linear_terms=True`` only.
""" + _PENALTY_DOC


class RuleFitClassifier(_LogOdds, _RuleFit, _Classifier):
    __doc__ = ("RuleFit with the logistic loss (more than two classes: one-vs-rest, "
               "one model per class)." + _RULEFIT_DOC)


class RuleFitRegressor(_RuleFit, _Regressor):
    __doc__ = "RuleFit for a real target." + _RULEFIT_DOC


class NREClassifier(_Classifier):
    """Neural rule ensemble (paper 004, registry method ``nre``, or
    ``nre-deep`` with ``deep=True``): a tree's rules made differentiable and
    trained with Adam. More than two classes are fitted one-vs-rest, one
    network per class."""

    def __init__(self, deep=False, max_depth=6, min_samples_leaf=1, learning_rate=0.01,
                 batch_size=256, max_epochs=200, patience=20, validation_fraction=0.1,
                 loss="logistic", stop_on="brier", l2=0.0, init="calibrated", refit=False,
                 constant_features="ignore", random_state=None, n_jobs=None,
                 handle_unknown="error"):
        self.handle_unknown = handle_unknown
        self.deep = deep
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.max_epochs = max_epochs
        self.patience = patience
        self.validation_fraction = validation_fraction
        self.loss = loss
        self.stop_on = stop_on
        self.l2 = l2
        self.init = init
        self.refit = refit
        self.constant_features = constant_features
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _method_id(self):
        return "nre-deep" if self.deep else "nre"

    @available_if(lambda self: self.loss == "logistic")
    def decision_function(self, X):
        """The network's score for ``classes_[1]`` (its log-odds; with
        ``loss="logistic"`` only, the other losses clip the score into a
        probability); with more than two classes, one column of log-odds
        per class."""
        proba, _ = self._predict(X)
        return _log_odds(proba)

    def _registry_params(self):
        return dict(max_depth=self.max_depth, min_samples_leaf=self.min_samples_leaf,
                    learning_rate=self.learning_rate, batch_size=self.batch_size,
                    max_epochs=self.max_epochs, patience=self.patience,
                    validation_fraction=self.validation_fraction, loss=self.loss,
                    stop_on=self.stop_on, l2=self.l2, init=self.init, refit=self.refit,
                    constant_features=self.constant_features)


class _Generic:
    def __init__(self, method="rf", params=None, random_state=None, n_jobs=None,
                 handle_unknown="error"):
        self.handle_unknown = handle_unknown
        self.method = method
        self.params = params
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _method_id(self):
        return self.method

    def _registry_params(self):
        return dict(self.params or {})


class RulecoverClassifier(_Generic, _Classifier):
    """Any registry method for classes by id (``method``, see
    ``rulecover.methods()``) with its parameters as a dict (``params``):
    the baselines ``dt``, ``rf``, ``ada``, ``gb``, ``gbt``, ``ann`` and the
    variants without a class of their own (``rug-t``, ``lr1``, ...)."""


class RulecoverRegressor(_Generic, _Regressor):
    """Any registry method for a real target by id (``method``) with its
    parameters as a dict (``params``)."""
