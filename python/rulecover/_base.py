"""The scikit-learn estimator base over ``rulecover._native.FittedModel``.

Every estimator stores its parameters in ``__init__``, turns them into the
registry's ``(name, value)`` strings at ``fit`` and hands the data to Rust;
fitting, encoding, predicting and saving happen in the Rust crates.
"""

import numbers
import os

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state, column_or_1d
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from . import _data
from ._native import FittedModel

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data

    def _validate(est, X, reset):
        return _validate_data(
            est, X, reset=reset, dtype=_dtype_of(X), ensure_all_finite="allow-nan"
        )

except ImportError:  # pragma: no cover - older scikit-learn

    def _validate(est, X, reset):
        return est._validate_data(
            X, reset=reset, dtype=_dtype_of(X), force_all_finite="allow-nan"
        )


#: Parameter value meaning "leave the registry's default".
_UNSET = object()


def _dtype_of(X):
    kind = getattr(getattr(X, "dtype", None), "kind", None)
    if kind is None and not hasattr(X, "dtypes"):
        kind = np.asarray(X).dtype.kind if not hasattr(X, "toarray") else "f"
    return None if kind in ("O", "U", "S") else "numeric"


def param_text(value):
    """A Python parameter value as the registry's string."""
    if value is None:
        return "none"
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    return str(value)


def param_value(text):
    """A registry string as the Python value it stands for."""
    if text == "none":
        return None
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def threads(n_jobs):
    """joblib's convention: -1 = every core, -2 = all but one, ...; None =
    the thread budget of this process when its parent set one (as joblib's
    loky workers and Dask's worker processes do through
    ``OMP_NUM_THREADS``), else rayon's default pool (``RAYON_NUM_THREADS``
    or every core). A fit inside a Dask or loky worker therefore uses that
    worker's threads rather than one per core of the machine."""
    if n_jobs is None:
        return _thread_budget()
    n_jobs = int(n_jobs)
    if n_jobs == 0:
        raise ValueError("n_jobs == 0 has no meaning; use None, a positive count or -1")
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + n_jobs)
    return n_jobs


def _thread_budget():
    """``OMP_NUM_THREADS`` as a positive count, or None when unset or not
    a positive whole number."""
    text = os.environ.get("OMP_NUM_THREADS", "").strip()
    try:
        n = int(text)
    except ValueError:
        return None
    return n if n > 0 else None


def seed_of(random_state):
    """A non-negative integer seed from scikit-learn's ``random_state``."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state={random_state} must be non-negative")
        return int(random_state)
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


def _check_target(y, classifier):
    """Raises ``ValueError`` naming the target and the row of a missing or
    infinite target value (a classifier's label or a regressor's value)."""
    if y.dtype.kind == "f":
        bad = ~np.isfinite(y)
    elif y.dtype.kind == "O":
        try:
            import pandas as pd

            bad = np.asarray(pd.isna(y), dtype=bool)
        except ImportError:  # pragma: no cover - pandas is a dependency
            bad = np.array([v is None or (isinstance(v, float) and np.isnan(v)) for v in y])
    else:
        return
    if bad.any():
        row = int(np.argmax(bad))
        what = "class label" if classifier else "value"
        raise ValueError(
            f"the target y, row {row + 1}: the {what} {y[row]!r} is missing or not "
            "finite (Input y contains NaN or infinity)"
        )


class RulecoverEstimator(BaseEstimator):
    """Shared machinery; subclasses name the method and its parameters."""

    #: True for a classifier, False for a regressor.
    _classifier = True
    #: True when the Rust learner reads NaN as a missing value (the others
    #: reject it with an error naming the column and row).
    _allow_nan = False

    # -- what subclasses provide -------------------------------------------

    def _method_id(self):
        raise NotImplementedError

    def _registry_params(self):
        """``{registry name: python value}``; ``_UNSET`` values are left out."""
        raise NotImplementedError

    # -- data ------------------------------------------------------------------

    def _columns(self, X, reset):
        """``(names, columns)`` for the Rust side; sets ``n_features_in_`` and
        ``feature_names_in_`` when ``reset``."""
        if _data.is_dataframe(X):
            dups = _data.duplicate_names(list(X.columns))
            if dups:
                raise ValueError(
                    "duplicate column names: "
                    + ", ".join(repr(d) for d in dups)
                    + "; every column needs a name of its own"
                )
            names = _data.string_columns(X)
            fitted = getattr(self, "feature_names_in_", None)
            if not reset and fitted is not None and names is not None:
                wanted = list(fitted)
                present = set(names)
                missing = [n for n in wanted if n not in present]
                if missing:
                    unseen = [n for n in names if n not in set(wanted)]
                    msg = ""
                    if unseen:
                        msg += "Feature names unseen at fit time:\n"
                        msg += "".join(f"- {n}\n" for n in unseen)
                    msg += "Feature names seen at fit time, yet now missing:\n"
                    msg += "".join(f"- {n}\n" for n in missing)
                    raise ValueError(msg)
                X = X[wanted]
            if not _data.all_numeric(X):
                if names is not None and (reset or fitted is not None):
                    return self._frame_columns(X, reset)
                X = X.to_numpy(dtype=object)
            else:
                for j, name in enumerate(X.columns):
                    col = X.iloc[:, j]
                    if col.dtype.kind == "f":
                        _data.check_finite(name, col.to_numpy())
        X = _validate(self, X, reset)
        if X.dtype.kind in ("U", "S"):
            X = X.astype(object)
        names = self._names(X.shape[1])
        return names, _data.array_columns(X)

    def _frame_columns(self, X, reset):
        if X.shape[0] == 0:
            raise ValueError(
                f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required."
            )
        if reset:
            self.n_features_in_ = X.shape[1]
            self.feature_names_in_ = np.asarray(list(X.columns), dtype=object)
        return list(X.columns), _data.frame_columns(X)

    def _names(self, p):
        fitted = getattr(self, "feature_names_in_", None)
        if fitted is not None and len(fitted) == p:
            return [str(n) for n in fitted]
        return [f"x{j}" for j in range(p)]

    # -- fit -------------------------------------------------------------------

    def fit(self, X, y, sample_weight=None):
        """Fits the rule model. ``sample_weight`` (one non-negative weight
        per row) behaves as replication: an integer weight counts the row
        that many times. Returns ``self``."""
        for attr in ("feature_names_in_", "n_features_in_"):
            if attr in self.__dict__:
                delattr(self, attr)
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None"
            )
        self._unseen()
        names, cols = self._columns(X, reset=True)
        n = self._n_rows(cols)
        y = column_or_1d(np.asarray(y) if not hasattr(y, "iloc") else y.to_numpy(), warn=True)
        if len(y) != n:
            raise ValueError(
                f"Found input variables with inconsistent numbers of samples: [{n}, {len(y)}]"
            )
        _check_target(y, self._classifier)
        if self._classifier:
            check_classification_targets(y)
            classes, codes = np.unique(y, return_inverse=True)
            target = codes.astype(np.float64).tobytes()
            class_names = [str(c) for c in classes]
        else:
            target = np.ascontiguousarray(y, dtype=np.float64).tobytes()
            class_names = None
        weights = None
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, np.empty((n, 0)))
            weights = np.ascontiguousarray(sample_weight, dtype=np.float64).tobytes()
        params = [
            (k, param_text(v)) for k, v in self._registry_params().items() if v is not _UNSET
        ]
        model = FittedModel.fit(
            self._method_id(),
            params,
            names,
            cols,
            target,
            class_names,
            weights,
            seed_of(getattr(self, "random_state", None)),
            threads(getattr(self, "n_jobs", None)),
        )
        self._model = model
        if self._classifier:
            self.classes_ = classes
        return self

    def _unseen(self):
        """The native ``unseen`` switch of ``handle_unknown``: ``"error"``
        (the default) raises on a categorical level not seen at fit,
        ``"missing"`` reads it as a missing value (as scikit-learn's
        ``OneHotEncoder(handle_unknown=...)``): the rule-regression learners
        (LogisticRuleRegression, LinearRuleRegression, RuleFit) evaluate it
        as their literals do (``x == v`` false, ``x != v`` true), learners
        without missing-value support raise on it."""
        value = getattr(self, "handle_unknown", "error")
        if value not in ("error", "missing"):
            raise ValueError(
                f"handle_unknown={value!r}: expected 'error' or 'missing'"
            )
        return value

    @staticmethod
    def _n_rows(cols):
        if not cols:
            return 0
        c = cols[0]
        return len(c) // 8 if isinstance(c, bytes) else len(c[0])

    # -- predict ---------------------------------------------------------------

    def _predict(self, X):
        check_is_fitted(self, "_model")
        names, cols = self._columns(X, reset=False)
        kind, raw, k, labels = self._model.predict(
            names, cols, unseen=self._unseen(), n_jobs=threads(getattr(self, "n_jobs", None))
        )
        values = np.frombuffer(raw, dtype=np.float64)
        if kind == "classes":
            return values.reshape(-1, k), np.asarray(labels, dtype=np.intp)
        return values.copy(), None

    # -- rules -----------------------------------------------------------------

    @property
    def rules_(self):
        """The fitted rules, one dict each: ``conditions`` (list of str),
        ``linear`` (the feature of a linear term, else None), ``class`` (the
        predicted class, else None), ``value`` (a real outcome, else None),
        ``class_counts``, ``weight``, ``coverage`` (training rows covered),
        ``for_class`` (with more than two classes fitted one-vs-rest, the
        class whose binary model holds the rule; else None) and ``text``."""
        check_is_fitted(self, "_model")
        rules = self._model.rules() or []
        classes = getattr(self, "classes_", None)
        for r in rules:
            k = r.pop("class_index")
            if k is not None and classes is not None and k < len(classes):
                r["class"] = classes[k]
            c = r.pop("for_class_index")
            r["for_class"] = classes[c] if c is not None and classes is not None else c
        return rules

    def rules_frame(self):
        """The rules as a pandas DataFrame, one row per rule."""
        import pandas as pd

        return pd.DataFrame(
            self.rules_,
            columns=["conditions", "linear", "class", "value", "weight", "coverage",
                     "class_counts", "for_class", "text"],
        )

    def render_rules(self):
        """The rules printed one per line by rulecover."""
        check_is_fitted(self, "_model")
        return self._model.render_rules() or ""

    # -- export ----------------------------------------------------------------

    def to_sql(self, dialect="sqlite", table="data", keep=(), unseen="null"):
        """The model as one SQL ``SELECT`` over ``table`` (``rulecover export``).

        The query reads the training columns by name and writes, per row, the
        ``keep`` columns unchanged, then ``label`` and one probability column
        per class (``value`` for a regressor), as ``predict_proba`` gives them
        (missing values are ``NULL``). ``dialect`` is ``"sqlite"`` (3.35 or
        later, with its math functions), ``"duckdb"`` or ``"postgres"`` (13 or
        later). A categorical level not seen at fit gives ``NULL`` outputs
        (``unseen="null"``) or is read as missing (``unseen="missing"``).
        """
        check_is_fitted(self, "_model")
        if isinstance(keep, str):
            keep = [keep]
        return self._model.to_sql(str(dialect), str(table), [str(k) for k in keep], str(unseen))

    def to_python(self):
        """The model as the source of one dependency-free Python module with
        ``predict(row)`` and ``predict_proba(row)`` (``row`` a dict from column
        name to value)."""
        check_is_fitted(self, "_model")
        return self._model.to_python()

    # -- report ----------------------------------------------------------------

    def report(self, X, y=None, path=None, top=20):
        """The model's report as one self-contained HTML page (the page of
        ``rulecover report``): the method and its parameters, the rules
        table (sortable, filterable) with each rule's training coverage and
        its support on ``X``; given ``y``, each rule's precision (or mean
        target) on ``X``, the class balance and the metrics. ``top`` rules
        get a bar each in the contribution chart. Writes the page to
        ``path`` too when given. Returns the HTML text."""
        check_is_fitted(self, "_model")
        names, cols = self._columns(X, reset=False)
        target, classes = None, None
        if y is not None:
            y = column_or_1d(np.asarray(y) if not hasattr(y, "iloc") else y.to_numpy())
            if self._classifier:
                classes = [str(c) for c in self.classes_]
                index = {c: k for k, c in enumerate(classes)}
                unknown = sorted({str(v) for v in y} - set(index))
                if unknown:
                    raise ValueError(
                        f"y holds classes the model was not fitted on: {', '.join(unknown)}"
                    )
                codes = np.array([index[str(v)] for v in y], dtype=np.float64)
                target = codes.tobytes()
            else:
                target = np.ascontiguousarray(y, dtype=np.float64).tobytes()
        html = self._model.report(names, cols, target, classes, top)
        if path is not None:
            with open(os.fspath(path), "w", encoding="utf-8") as f:
                f.write(html)
        return html

    def _repr_html_(self):
        """The rules table in a notebook (sortable, filterable); the
        estimator's usual representation before fitting."""
        if getattr(self, "_model", None) is None:
            from html import escape

            return f"<pre>{escape(repr(self))}</pre>"
        return self._model.rules_html()

    def _repr_mimebundle_(self, **kwargs):
        """Jupyter asks this before ``_repr_html_``: the rules table once
        fitted, scikit-learn's diagram before."""
        if getattr(self, "_model", None) is None:
            return super()._repr_mimebundle_(**kwargs)
        return {"text/plain": repr(self), "text/html": self._model.rules_html()}

    # -- model file ------------------------------------------------------------

    def save(self, path):
        """Writes the rulecover model file (JSON) that the Rust side loads."""
        check_is_fitted(self, "_model")
        self._model.save(os.fspath(path))

    def to_json(self):
        """The rulecover model file's text."""
        check_is_fitted(self, "_model")
        return self._model.to_json()

    def __getstate__(self):
        state = super().__getstate__()
        state = dict(state)
        model = state.pop("_model", None)
        if model is not None:
            state["_model_json"] = model.to_json()
        return state

    def __setstate__(self, state):
        state = dict(state)
        text = state.pop("_model_json", None)
        super().__setstate__(state)
        if text is not None:
            self._model = FittedModel.from_json(text)

    # -- tags ------------------------------------------------------------------

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self._allow_nan
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    def _more_tags(self):  # scikit-learn < 1.6
        return {
            "allow_nan": self._allow_nan,
            "X_types": ["2darray", "categorical", "string"],
        }
