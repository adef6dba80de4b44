"""`rulecover export` (SQL and Python) against `rulecover predict`, row by
row, for every tabular method of the registry and every task it learns
(binary, multi-class, regression), on generated data with numeric,
categorical and missing values; the SQL runs in real engines: SQLite
(Python's ``sqlite3``), DuckDB (the ``duckdb`` package) and PostgreSQL (a
server at ``$RULECOVER_PG_DSN``, started by ``.ci/run``).

An engine whose driver or server is absent is skipped with the reason,
unless ``RULECOVER_REQUIRE_ENGINES=1`` (as ``python/ci.sh`` sets in CI),
where it fails.
"""

import csv
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import rulecover

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import export_check  # noqa: E402

REQUIRED = os.environ.get("RULECOVER_REQUIRE_ENGINES") == "1"


def _cli():
    path = export_check.cli_path()
    if not path.is_file():
        if os.environ.get("RULECOVER_CLI"):
            pytest.fail(f"RULECOVER_CLI={path} is not a file")
        pytest.skip("no rulecover command line (cargo build -p rulecover, or set RULECOVER_CLI)")
    return path


def _dialects():
    """The engines to run, each skipped (or failed when required) with why."""
    found = ["sqlite"]
    missing = []
    try:
        import duckdb  # noqa: F401

        found.append("duckdb")
    except ImportError:
        missing.append("duckdb (pip install duckdb)")
    dsn = os.environ.get("RULECOVER_PG_DSN")
    try:
        import psycopg  # noqa: F401

        if dsn:
            found.append("postgres")
        else:
            missing.append("postgres (no RULECOVER_PG_DSN)")
    except ImportError:
        missing.append("postgres (pip install 'psycopg[binary]')")
    return found, missing, dsn


def _write(path, columns, n_rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(list(columns))
        for i in range(n_rows):
            w.writerow([columns[c][i] for c in columns])


def _number(v):
    return "" if v is None or np.isnan(v) else repr(float(v))


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """For each task, a training file and a test file (another column
    order, a key column `id`), with missing numbers and categories, and
    complete copies for learners that refuse missing values."""
    rng = np.random.RandomState(7)
    n = 260
    x1 = rng.normal(0, 1, n)
    x2 = rng.uniform(-2, 2, n)
    x3 = rng.randint(0, 6, n).astype(float)
    color = rng.choice(["red", "green", "blue"], n)
    score = x1 + 0.8 * x2 - 0.3 * x3 + np.where(color == "red", 1.0, 0.0)
    targets = {
        "binary": np.where(score + rng.normal(0, 0.5, n) > 0, "yes", "no"),
        "multiclass": np.array(["a", "b", "c"])[
            np.digitize(score + rng.normal(0, 0.5, n), [-0.7, 0.7])
        ],
        "regression": [repr(float(v)) for v in score + rng.normal(0, 0.3, n)],
    }
    x2_missing = np.where(rng.uniform(size=n) < 0.12, np.nan, x2)
    color_missing = np.where(rng.uniform(size=n) < 0.08, "", color)
    out = {}
    base = tmp_path_factory.mktemp("export")
    train, test = slice(0, 180), slice(180, n)
    for task, y in targets.items():
        for variant, (c2, cc) in {"missing": (x2_missing, color_missing),
                                  "complete": (x2, color)}.items():
            cols = {
                "x1": [_number(v) for v in x1],
                "color": list(cc),
                "x2": [_number(v) for v in c2],
                "x3": [_number(v) for v in x3],
                "y": list(y),
            }
            tr = base / f"{task}-{variant}-train.csv"
            te = base / f"{task}-{variant}-test.csv"
            _write(tr, {k: v[train] for k, v in cols.items()}, 180)
            test_cols = {"id": [str(1000 + i) for i in range(n - 180)]}
            for k in ["x3", "color", "x2", "x1"]:
                test_cols[k] = cols[k][test]
            _write(te, test_cols, n - 180)
            out[(task, variant)] = (tr, te)
    return out


TASKS = {
    "binary classification": "binary",
    "multi-class classification": "multiclass",
    "regression": "regression",
}

CASES = [
    (m["id"], TASKS[t])
    for m in rulecover.methods()
    for t in m["tasks"]
    if t in TASKS
]


@pytest.mark.parametrize("method,task", CASES, ids=[f"{m}-{t}" for m, t in CASES])
def test_export_reproduces_predict(method, task, tables, tmp_path):
    cli = _cli()
    dialects, missing, dsn = _dialects()
    if missing and REQUIRED:
        pytest.fail(f"engines required but absent: {', '.join(missing)}")
    model = tmp_path / "model.json"
    fitted = None
    errors = []
    for variant in ["missing", "complete"]:
        train, test = tables[(task, variant)]
        try:
            export_check.run(cli, "fit", "--method", method, "--data", train, "--target", "y",
                             "--missing", "keep", "--seed", 3, "--out", model)
            fitted = (variant, test)
            break
        except RuntimeError as e:
            errors.append(str(e))
    assert fitted, f"{method} fitted neither data set: {errors}"
    variant, test = fitted
    results = export_check.check(cli, model, test, "id", dialects, dsn)
    for engine, (rows, mismatches, largest, _) in results.items():
        assert rows == 80
        assert mismatches == 0, f"{engine}: {mismatches} labels differ from predict ({variant})"
        assert largest <= export_check.TOLERANCE, (
            f"{engine}: a probability or value differs from predict by {largest} ({variant})"
        )
    if missing:
        pytest.skip(f"compared in {', '.join(results)}; not run: {', '.join(missing)}")


def test_unseen_level_gives_null_outputs_or_reads_as_missing(tables, tmp_path):
    """A level not seen at fit: NULL outputs by default (predict refuses
    the row), or the missing-value reading with --unseen missing."""
    import sqlite3

    cli = _cli()
    train, _ = tables[("binary", "complete")]
    model = tmp_path / "dt.json"
    export_check.run(cli, "fit", "--method", "dt", "--data", train, "--target", "y",
                     "--out", model)
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE data (id TEXT, x1 REAL, x2 REAL, x3 REAL, color TEXT)")
    con.executemany("INSERT INTO data VALUES (?, ?, ?, ?, ?)",
                    [("1", 0.5, 0.1, 2.0, "purple"), ("2", 0.5, 0.1, 2.0, "red")])
    null = export_check.run(cli, "export", "--model", model, "--keep", "id")
    rows = dict((r[0], r[1:]) for r in con.execute(null))
    assert rows["1"] == (None, None, None)
    assert rows["2"][0] in ("yes", "no")
    lenient = export_check.run(cli, "export", "--model", model, "--keep", "id",
                               "--unseen", "missing")
    rows = dict((r[0], r[1:]) for r in con.execute(lenient))
    assert rows["1"][0] in ("yes", "no")


def test_estimator_to_sql_and_to_python(binary_frame):
    """The Python estimators export as the command line does."""
    import sqlite3

    X, y = binary_frame
    est = rulecover.RulecoverClassifier(method="dt", params={"max_depth": 3}, random_state=0).fit(X, y)
    query = est.to_sql(dialect="sqlite", table="patients", keep=["age"])
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE patients (age REAL, bmi REAL, smoker TEXT, region TEXT)")
    con.executemany("INSERT INTO patients VALUES (?, ?, ?, ?)",
                    [(float(a), float(b), str(s), str(r)) for a, b, s, r in X.itertuples(index=False)])
    cur = con.execute(query)
    assert [d[0] for d in cur.description] == ["age", "label", *est.classes_]
    got = cur.fetchall()
    proba = est.predict_proba(X)
    labels = est.predict(X)
    assert [r[1] for r in got] == list(labels)
    assert np.allclose([r[2:] for r in got], proba, atol=1e-12, rtol=0)
    module = export_check.load_module(est.to_python())
    assert [module.predict(dict(zip(X.columns, row))) for row in X.itertuples(index=False)] == list(labels)
    with pytest.raises(ValueError, match="dialect"):
        est.to_sql(dialect="oracle")
