"""Hands input tables to the Rust side column by column.

Numeric columns go over as float64 bytes (NaN = missing); every other column
goes over as its values' text with the declared levels of a pandas
categorical (or ``None``). Level codes, alignment by column name, unseen
levels and missing values are decided by rulecover-core, not here.
"""

import numbers

import numpy as np

try:  # pandas is optional for numpy-only use
    import pandas as pd
except ImportError:  # pragma: no cover - pandas is a dependency
    pd = None


def is_dataframe(X):
    """True for a pandas DataFrame."""
    return pd is not None and isinstance(X, pd.DataFrame)


def string_columns(X):
    """The DataFrame's column names when all are strings, else ``None``."""
    names = list(X.columns)
    if names and all(isinstance(c, str) for c in names):
        return names
    return None


def _text(v):
    return str(v)


def _missing(v):
    if v is None:
        return True
    try:
        return bool(pd.isna(v)) if pd is not None else (isinstance(v, float) and np.isnan(v))
    except (TypeError, ValueError):
        return False


def _missing_mask(values):
    """``_missing`` of every value, at once: pandas' ``isna`` over an object
    array checks each element as ``isna`` checks a scalar."""
    if pd is None:
        return [_missing(v) for v in values]
    arr = np.empty(len(values), dtype=object)
    try:
        arr[:] = values
    except ValueError:  # sequences as values: numpy would broadcast them
        for i, v in enumerate(values):
            arr[i] = v
    return pd.isna(arr).tolist()


def _categorical(values, levels=None, missing=None):
    if missing is None:
        missing = _missing_mask(values)
    texts = [None if m else _text(v) for v, m in zip(values, missing)]
    return (texts, None if levels is None else [_text(c) for c in levels])


def _numeric(values):
    return np.ascontiguousarray(values, dtype=np.float64).tobytes()


def _object_column(values):
    """An object column: numeric when every value converts to float
    (``float()``'s own ``TypeError`` for a value that is neither text nor
    number), else categorical."""
    missing = _missing_mask(values)
    if all(
        m or (isinstance(v, numbers.Real) and not isinstance(v, bool))
        for v, m in zip(values, missing)
    ):
        return _numeric(np.asarray(values, dtype=np.float64))
    for v, m in zip(values, missing):
        if not (m or isinstance(v, (str, bytes, numbers.Number))):
            # The message scikit-learn's own checks expect for such values.
            float(v)
    try:
        return _numeric(np.asarray(values, dtype=np.float64))
    except (TypeError, ValueError):
        return _categorical(values, missing=missing)


def _frame_column(name, col):
    from pandas.api.types import (
        is_bool_dtype,
        is_datetime64_any_dtype,
        is_numeric_dtype,
        is_timedelta64_dtype,
    )

    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return _categorical(col.tolist(), dtype.categories.tolist())
    if is_datetime64_any_dtype(dtype) or is_timedelta64_dtype(dtype) or isinstance(
        dtype, pd.PeriodDtype
    ):
        raise TypeError(
            f"column {name!r}: {dtype} values are not supported; convert them to "
            "numbers (e.g. seconds) or to text first"
        )
    if is_bool_dtype(dtype) or is_numeric_dtype(dtype):
        if is_bool_dtype(dtype) and col.isna().any():
            return _categorical(col.tolist())
        values = col.to_numpy(dtype=np.float64, na_value=np.nan)
        check_finite(name, values)
        return _numeric(values)
    return _object_column(col.tolist())


def check_finite(name, values):
    """Raises ``ValueError`` naming the column and the first row of an
    infinite value (NaN is a missing value, decided on the Rust side)."""
    inf = np.isinf(values)
    if inf.any():
        row = int(np.argmax(inf))
        raise ValueError(
            f"column {name!r}, row {row + 1}: the value {values[row]} is infinite; "
            "Input X contains infinity, which no learner reads"
        )


def duplicate_names(names):
    """The column names that occur more than once, in order."""
    seen, dups = set(), []
    for n in names:
        if n in seen and n not in dups:
            dups.append(n)
        seen.add(n)
    return dups


def frame_columns(X):
    """Columns of a DataFrame for the Rust side; a column that cannot go
    over raises ``TypeError``/``ValueError`` naming it."""
    cols = []
    for j, name in enumerate(X.columns):
        col = X.iloc[:, j]
        try:
            cols.append(_frame_column(name, col))
        except (TypeError, ValueError) as e:
            if repr(name) in str(e):
                raise
            raise type(e)(f"column {name!r}: {e}") from e
    return cols


def array_columns(X):
    """Columns of a validated 2-D numpy array for the Rust side."""
    if X.dtype.kind in "biuf":
        return [_numeric(X[:, j]) for j in range(X.shape[1])]
    if X.dtype.kind in "mM":
        raise TypeError(f"{X.dtype} values are not supported; convert them to numbers first")
    return [_object_column(X[:, j].tolist()) for j in range(X.shape[1])]


def all_numeric(X):
    """True when every column of the DataFrame is a plain numeric or
    boolean column (scikit-learn's validation handles those)."""
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    return all(
        not isinstance(d, pd.CategoricalDtype) and (is_numeric_dtype(d) or is_bool_dtype(d))
        for d in X.dtypes
    )
