"""Relational learning with srlearn's shapes, over rc-logic.

>>> from rulecover.relational import Background, Database, BoostedRDNClassifier
>>> bk = Background(modes=["father(+person,+person).", "male(+person).",
...                        "parent(+person,+person)."])        # doctest: +SKIP
>>> clf = BoostedRDNClassifier(background=bk, target="father",
...                            n_estimators=5).fit(train)      # doctest: +SKIP
>>> clf.predict_proba(test)                                    # doctest: +SKIP
>>> clf.compress("scote")                                      # doctest: +SKIP

Parsing, learning, prediction and compression run in rc-logic; this module
only carries the BoostSRL texts.
"""

import os
import warnings
from collections.abc import Sequence

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from ._base import param_text, seed_of, threads
from ._native import RelationalModel, best_f1_threshold


def _clauses(items):
    """BoostSRL lines, each ending with a full stop."""
    lines = []
    for item in items:
        line = str(item).strip()
        if line and not line.endswith("."):
            line += "."
        if line:
            lines.append(line)
    return "\n".join(lines) + ("\n" if lines else "")


class Background:
    """Mode declarations (BoostSRL syntax, e.g. ``"advisedby(+person,+person)."``)
    and optional extra background lines."""

    def __init__(self, modes=None, lines=None):
        self.modes = list(modes or [])
        self.lines = list(lines or [])

    @classmethod
    def from_file(cls, path):
        """The background of a BoostSRL ``background.txt``."""
        with open(path, encoding="utf-8") as f:
            return cls(lines=f.read().splitlines())

    def text(self):
        """The background as BoostSRL text."""
        return _clauses(["mode: " + m if not m.strip().startswith("mode:") else m
                         for m in self.modes] + self.lines)


class Database:
    """Positive and negative examples and facts of one split (lists of
    ground atoms such as ``"advisedby(person1,person2)"``)."""

    def __init__(self, pos=None, neg=None, facts=None):
        self.pos = list(pos or [])
        self.neg = list(neg or [])
        self.facts = list(facts or [])

    @classmethod
    def from_folder(cls, path, prefix=None):
        """A BoostSRL split folder: ``<prefix>_pos.txt``, ``<prefix>_neg.txt``,
        ``<prefix>_facts.txt`` (``prefix`` defaults to the folder's name,
        ``train`` or ``test``)."""
        prefix = prefix or os.path.basename(os.path.normpath(path))
        parts = {}
        for part in ("pos", "neg", "facts"):
            file = os.path.join(path, f"{prefix}_{part}.txt")
            with open(file, encoding="utf-8") as f:
                parts[part] = f.read().splitlines()
        return cls(**parts)

    def texts(self):
        """``(facts, pos, neg)`` as BoostSRL text."""
        return (_clauses(self.facts), _clauses(self.pos), _clauses(self.neg))


def _warn(lines):
    """Each loader warning (repeated example lines, each kept once) as a
    ``UserWarning``."""
    for line in lines:
        warnings.warn(line, UserWarning, stacklevel=3)


def _scored(native, database, duplicates="warn"):
    """``(probabilities, labels)`` of ``database``'s examples from a native
    model, with the loader's warnings raised as ``UserWarning``."""
    p, labels, loader_warnings = native.predict_proba(database.texts(), duplicates)
    _warn(loader_warnings)
    return np.asarray(p), np.asarray(labels)


class _Compressed:
    """A CoTE decision list over the ensemble's clauses."""

    def __init__(self, native, duplicates="warn"):
        self._native = native
        self._duplicates = duplicates

    def predict_proba(self, database):
        """Probability that each example of ``database`` is positive."""
        return _scored(self._native, database, self._duplicates)[0]

    def predict(self, database, threshold=0.5):
        """Whether each example is predicted positive."""
        return self.predict_proba(database) >= threshold

    def __len__(self):
        return len(self._native)

    @property
    def avg_length(self):
        """Average clause length."""
        return self._native.avg_length

    def rules(self):
        """The clauses, printed in order."""
        return self._native.render()

    def to_json(self):
        """The model file of the list (the envelope of every model file, kind ``cote``)."""
        return self._native.to_json()

    def __str__(self):
        return self._native.render()


class RelationalTree:
    """One fitted relational regression tree of an ensemble (an item of
    :attr:`BoostedRDNClassifier.estimators_`)."""

    def __init__(self, native, index):
        self._native = native
        self._index = index

    def render(self):
        """The tree in the TILDE form (``cancer(A) :-`` then its tests)."""
        return self._native.render_tree(self._index)

    def __str__(self):
        return self.render()

    def __repr__(self):
        return f"<RelationalTree {self._index} of {self._native.n_trees}>"


class RelationalTrees(Sequence):
    """The trees of a fitted ensemble as a sequence (``len``, indexing,
    slicing, iteration), as srlearn's and scikit-learn's ``estimators_``.
    A view of the one native model the estimator holds."""

    def __init__(self, native):
        self._native = native

    def __len__(self):
        return self._native.n_trees

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        i = index.__index__()
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"tree index {index} out of range ({n} trees)")
        return RelationalTree(self._native, i)

    def render(self):
        """Every tree, printed."""
        return self._native.render()

    def __repr__(self):
        return f"<RelationalTrees: {len(self)} trees>"


class BoostedRDNClassifier(ClassifierMixin, BaseEstimator):
    """Relational functional gradient boosting (registry method ``rfgb``)
    of relational regression trees, as srlearn's ``BoostedRDNClassifier``.

    ``max_tree_depth`` counts as BoostSRL's ``maxTreeDepth`` (3 = four test
    levels), ``node_size`` the literals per node test, ``number_of_clauses``
    the leaves per tree, ``neg_pos_ratio`` the negatives sampled per positive
    (None = all). An example repeated in a database's ``pos`` or ``neg``
    list is kept once, with a ``UserWarning`` naming the count and the
    first repeat; ``duplicates="error"`` makes it a ``ValueError``.

    After ``fit``: ``estimators_`` is the sequence of trees (``len``,
    indexing, each with ``render()``), a view of the one native model kept
    in ``_model``; ``threshold_`` is BoostSRL's decision threshold (best
    F1 on the training examples) that ``predict`` uses.
    """

    def __init__(self, background=None, target="None", n_estimators=20,
                 neg_pos_ratio=2.0, max_tree_depth=3, node_size=2, number_of_clauses=100,
                 random_state=None, n_jobs=None, duplicates="warn"):
        self.background = background
        self.target = target
        self.n_estimators = n_estimators
        self.neg_pos_ratio = neg_pos_ratio
        self.max_tree_depth = max_tree_depth
        self.node_size = node_size
        self.number_of_clauses = number_of_clauses
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.duplicates = duplicates

    def _params(self):
        return {
            "n_trees": self.n_estimators,
            "neg_ratio": self.neg_pos_ratio,
            "max_depth": int(self.max_tree_depth) + 1,
            "max_node_literals": self.node_size,
            "max_leaves": self.number_of_clauses,
        }

    def fit(self, database):
        """Learns the trees from ``database`` (a :class:`Database`)."""
        if not isinstance(self.background, Background):
            raise ValueError("background must be a rulecover.relational.Background")
        params = [(k, param_text(v)) for k, v in self._params().items()]
        self._model, loader_warnings = RelationalModel.fit(
            "rfgb", params, self.background.text(), str(self.target), database.texts(),
            seed_of(self.random_state), threads(self.n_jobs), self.duplicates,
        )
        _warn(loader_warnings)
        # BoostSRL's threshold (srlearn's predict reads the one BoostSRL's
        # inference picks on the predicted examples); picked here on the
        # training examples. Their loader warnings were given above.
        p, labels, _ = self._model.predict_proba(database.texts(), self.duplicates)
        self.threshold_ = float(best_f1_threshold(list(labels), list(p)))
        self.classes_ = np.array([0, 1])
        return self

    @property
    def estimators_(self):
        """The fitted trees: a sequence (``len``, indexing, iteration) of
        :class:`RelationalTree`, a view of the native model ``_model``."""
        model = self.__dict__.get("_model")
        if model is None:
            raise AttributeError("'BoostedRDNClassifier' has no attribute 'estimators_' "
                                 "(not fitted)")
        return RelationalTrees(model)

    def predict_proba(self, database):
        """Probability that each example of ``database`` is positive
        (positives first, then negatives, as in the database)."""
        check_is_fitted(self, "_model")
        return _scored(self._model, database, self.duplicates)[0]

    def predict(self, database, threshold=None):
        """1 for examples whose probability is above ``threshold`` (default
        ``threshold_``, BoostSRL's best-F1 threshold on the training
        examples), else 0."""
        check_is_fitted(self, "_model")
        if threshold is None:
            threshold = self.threshold_
        return (self.predict_proba(database) > threshold).astype(int)

    def score(self, database):
        """Accuracy of :meth:`predict` on the examples of ``database``."""
        check_is_fitted(self, "_model")
        p, labels = _scored(self._model, database, self.duplicates)
        return float(np.mean((p > self.threshold_) == labels))

    def rules(self):
        """The trees, printed."""
        check_is_fitted(self, "_model")
        return self._model.render()

    def __getstate__(self):
        # The native model travels as its model file (as the tabular
        # estimators' do), so fitted estimators pickle across processes
        # (joblib, Dask).
        state = dict(self.__dict__)
        native = state.pop("_model", None)
        if native is not None:
            state["_model_state"] = native.state()
        return state

    def __setstate__(self, state):
        state = dict(state)
        parts = state.pop("_model_state", None)
        self.__dict__.update(state)
        if parts is not None:
            self._model = RelationalModel.from_state(*parts)

    def compress(self, method="scote"):
        """One decision list equivalent to the ensemble: ``"scote"``
        (logically) or ``"ecote"`` (on the training examples)."""
        check_is_fitted(self, "_model")
        return _Compressed(self._model.compress(method), self.duplicates)
