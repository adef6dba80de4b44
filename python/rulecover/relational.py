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

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from ._base import param_text, seed_of, threads
from ._native import RelationalModel


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
        """rc-logic's JSON model file of the list."""
        return self._native.to_json()

    def __str__(self):
        return self._native.render()


class BoostedRDNClassifier(ClassifierMixin, BaseEstimator):
    """Relational functional gradient boosting (registry method ``rfgb``)
    of relational regression trees, as srlearn's ``BoostedRDNClassifier``.

    ``max_tree_depth`` counts as BoostSRL's ``maxTreeDepth`` (3 = four test
    levels), ``node_size`` the literals per node test, ``number_of_clauses``
    the leaves per tree, ``neg_pos_ratio`` the negatives sampled per positive
    (None = all). An example repeated in a database's ``pos`` or ``neg``
    list is kept once, with a ``UserWarning`` naming the count and the
    first repeat; ``duplicates="error"`` makes it a ``ValueError``.
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
        self.estimators_, loader_warnings = RelationalModel.fit(
            "rfgb", params, self.background.text(), str(self.target), database.texts(),
            seed_of(self.random_state), threads(self.n_jobs), self.duplicates,
        )
        _warn(loader_warnings)
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, database):
        """Probability that each example of ``database`` is positive
        (positives first, then negatives, as in the database)."""
        check_is_fitted(self, "estimators_")
        return _scored(self.estimators_, database, self.duplicates)[0]

    def predict(self, database, threshold=0.5):
        """1 for examples predicted positive, else 0."""
        return (self.predict_proba(database) >= threshold).astype(int)

    def score(self, database):
        """Accuracy on the examples of ``database``."""
        check_is_fitted(self, "estimators_")
        p, labels = _scored(self.estimators_, database, self.duplicates)
        return float(np.mean((p >= 0.5) == labels))

    def rules(self):
        """The trees, printed."""
        check_is_fitted(self, "estimators_")
        return self.estimators_.render()

    def __getstate__(self):
        # The fitted ensemble travels as its model file (as the tabular
        # estimators do), so fitted estimators pickle across processes
        # (joblib, Dask).
        state = dict(self.__dict__)
        native = state.pop("estimators_", None)
        if native is not None:
            state["_estimators_state"] = native.state()
        return state

    def __setstate__(self, state):
        state = dict(state)
        parts = state.pop("_estimators_state", None)
        self.__dict__.update(state)
        if parts is not None:
            self.estimators_ = RelationalModel.from_state(*parts)

    def compress(self, method="scote"):
        """One decision list equivalent to the ensemble: ``"scote"``
        (logically) or ``"ecote"`` (on the training examples)."""
        check_is_fitted(self, "estimators_")
        return _Compressed(self.estimators_.compress(method), self.duplicates)
