"""Checks `rulecover export` against `rulecover predict`, row by row.

For one saved model and one CSV file, it runs ``rulecover predict --proba
--keep-missing`` and the exported query in each SQL engine asked for
(SQLite through Python's ``sqlite3``, DuckDB through the ``duckdb``
package, PostgreSQL through ``psycopg`` and a connection string), and the
exported Python module, and compares every row joined on a key column:
labels identical, probabilities (or values) within ``TOLERANCE``.

As a script, it fits every method given on a labelled CSV file and prints
a markdown table of the comparison (docs/EXPORT.md records one run on the
shared data sets)::

    python python/bench/export_check.py --data ../shared/datasets/tabular/magic.csv \\
        --target y --rows 2000 --methods dt,rf,rux-rf --dialects sqlite,duckdb,postgres

The binary is ``$RULECOVER_CLI`` or ``target/debug/rulecover``; PostgreSQL's
connection string is ``$RULECOVER_PG_DSN``.
"""

import argparse
import csv
import math
import os
import random
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

#: The largest difference allowed between a probability (or a value,
#: relative to its size when above 1) of the export and of ``predict``.
TOLERANCE = 1e-9

#: What the command line reads as a missing value.
MISSING = {"", "NA", "?"}

REPO = Path(__file__).resolve().parents[2]


def cli_path():
    """The rulecover binary: $RULECOVER_CLI, else the checkout's debug build."""
    given = os.environ.get("RULECOVER_CLI")
    return Path(given) if given else REPO / "target" / "debug" / "rulecover"


def run(cli, *args):
    """Runs the command line; raises with its standard error on failure."""
    done = subprocess.run([str(cli), *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"rulecover {' '.join(map(str, args))}: {done.stderr.strip()}")
    return done.stdout


def schema_of(model_path):
    """(name, kind) of each training column of a model file, kind
    'numeric' or 'categorical', read through the Python package."""
    from rulecover._native import FittedModel

    model = FittedModel.load(str(model_path))
    return [(name, kind) for name, kind, _levels in model.features], model.classes


def read_rows(path):
    """The CSV file's rows as dicts of text (None for a missing value)."""
    with open(path, newline="") as f:
        return [
            {k: (None if v.strip() in MISSING else v) for k, v in row.items()}
            for row in csv.DictReader(f)
        ]


def typed_rows(rows, schema, key):
    """Rows as tuples (key, then each training column as a float or text)."""
    out = []
    for row in rows:
        values = [row[key]]
        for name, kind in schema:
            v = row.get(name)
            if v is None or kind == "categorical":
                values.append(v)
            else:
                values.append(float(v))
        out.append(tuple(values))
    return out


def sql_types(dialect, schema, key):
    """The column declarations of the table the query reads."""
    double = {"sqlite": "REAL", "duckdb": "DOUBLE", "postgres": "DOUBLE PRECISION"}[dialect]
    cols = [f'"{key}" TEXT']
    for name, kind in schema:
        cols.append(f'"{name}" {"TEXT" if kind == "categorical" else double}')
    return ", ".join(cols)


def run_sql(dialect, query, schema, key, rows, dsn=None):
    """Loads the rows into a table ``data`` of a fresh database of the
    engine, runs the query, returns (column names, rows)."""
    decl = sql_types(dialect, schema, key)
    marks = ", ".join(["?" if dialect != "postgres" else "%s"] * (len(schema) + 1))
    if dialect == "sqlite":
        import sqlite3

        con = sqlite3.connect(":memory:")
        con.execute(f"CREATE TABLE data ({decl})")
        con.executemany(f"INSERT INTO data VALUES ({marks})", rows)
        cur = con.execute(query)
        names = [d[0] for d in cur.description]
        return names, cur.fetchall()
    if dialect == "duckdb":
        import duckdb

        con = duckdb.connect()
        con.execute(f"CREATE TABLE data ({decl})")
        con.executemany(f"INSERT INTO data VALUES ({marks})", rows)
        cur = con.execute(query)
        names = [d[0] for d in cur.description]
        return names, cur.fetchall()
    if dialect == "postgres":
        import psycopg

        with psycopg.connect(dsn) as con:
            con.execute(f"CREATE TEMPORARY TABLE data ({decl})")
            with con.cursor() as cur:
                with cur.copy("COPY data FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
                cur.execute(query)
                names = [d.name for d in cur.description]
                return names, cur.fetchall()
    raise ValueError(f"unknown dialect {dialect}")


def predicted(cli, model_path, data_path):
    """`rulecover predict --proba --keep-missing` as (header, rows of text)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "pred.csv"
        run(cli, "predict", "--model", model_path, "--data", data_path, "--proba",
            "--keep-missing", "--out", out)
        with open(out, newline="") as f:
            reader = csv.reader(f)
            header = next(reader)
            return header, list(reader)


def differences(expected_header, expected, got_header, got):
    """(label mismatches, largest difference) between predict's rows and
    an export's rows (both in the same row order, the export's header
    possibly led by the key)."""
    index = [got_header.index(h) for h in expected_header]
    mismatches, largest = 0, 0.0
    for want, have in zip(expected, got):
        for h, w, j in zip(expected_header, want, index):
            v = have[j]
            if h == "label":
                mismatches += str(v) != w
                continue
            w = float(w)
            v = float("nan") if v is None else float(v)
            if math.isnan(w) or math.isnan(v):
                if not (math.isnan(w) and math.isnan(v)):
                    largest = math.inf
                continue
            largest = max(largest, abs(v - w) / max(1.0, abs(w)))
    return mismatches, largest


def load_module(source, name="exported_model"):
    """The exported Python module, imported from its source."""
    module = types.ModuleType(name)
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return module


def check(cli, model_path, data_path, key, dialects, dsn=None):
    """Compares predict with every export of the model on the file: a dict
    from 'sqlite', 'duckdb', 'postgres', 'python' to (rows, label
    mismatches, largest difference, seconds)."""
    schema, classes = schema_of(model_path)
    header, expected = predicted(cli, model_path, data_path)
    rows = read_rows(data_path)
    results = {}
    for dialect in dialects:
        start = time.perf_counter()
        query = run(cli, "export", "--model", model_path, "--format", "sql", "--dialect",
                    dialect, "--keep", key)
        names, got = run_sql(dialect, query, schema, key, typed_rows(rows, schema, key), dsn)
        if len(got) != len(rows):
            raise AssertionError(f"{dialect}: {len(got)} rows for {len(rows)}")
        by_key = {str(r[0]): r for r in got}
        ordered = [by_key[str(row[key])] for row in rows]
        m, d = differences(header, expected, names, ordered)
        results[dialect] = (len(rows), m, d, time.perf_counter() - start)
    start = time.perf_counter()
    module = load_module(run(cli, "export", "--model", model_path, "--format", "python"))
    got = []
    for row in rows:
        values = {k: v for k, v in row.items() if v is not None}
        if classes:
            got.append([module.predict(values), *module.predict_proba(values)])
        else:
            got.append([module.predict(values)])
    m, d = differences(header, expected, header, got)
    results["python"] = (len(rows), m, d, time.perf_counter() - start)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--methods", required=True, help="comma separated")
    parser.add_argument("--dialects", default="sqlite,duckdb,postgres")
    parser.add_argument("--rows", type=int, default=0,
                        help="N rows drawn at random with --seed (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cli = cli_path()
    dsn = os.environ.get("RULECOVER_PG_DSN")
    dialects = [d for d in args.dialects.split(",") if d and (d != "postgres" or dsn)]
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data.csv"
        with open(args.data, newline="") as f, open(data, "w", newline="") as out:
            reader = csv.reader(f)
            writer = csv.writer(out)
            header = next(reader)
            if "__row" in header:
                sys.exit("the data has a column named __row")
            writer.writerow([*header, "__row"])
            rows = list(reader)
            keep = range(len(rows))
            if args.rows and args.rows < len(rows):
                keep = sorted(random.Random(args.seed).sample(keep, args.rows))
            for i in keep:
                writer.writerow([*rows[i], i])
        print(f"| method | rows | {' | '.join(dialects + ['python'])} |")
        print(f"|---|---:|{'---|' * (len(dialects) + 1)}")
        for method in args.methods.split(","):
            model = Path(tmp) / f"{method}.json"
            try:
                run(cli, "fit", "--method", method, "--data", data, "--target", args.target,
                    "--drop", "__row", "--missing", "keep", "--seed", args.seed, "--out", model)
                res = check(cli, model, data, "__row", dialects, dsn)
            except Exception as e:  # one failure does not lose the other methods
                print(f"| {method} | - | {str(e).splitlines()[0][:200]} |", flush=True)
                continue
            cells = [f"{m} labels differ, max diff {d:.1e}" for (_, m, d, _) in res.values()]
            print(f"| {method} | {next(iter(res.values()))[0]} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
