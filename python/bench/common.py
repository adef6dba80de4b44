"""What every worker shares: reading a saved fold, timing a fit, writing one
JSON line per result. Needs numpy and pandas (present in every
environment)."""

import argparse
import json
import os
import platform
import sys
import time

import numpy as np
import pandas as pd

import settings


def worker_args(methods):
    """The command line every worker takes."""
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True, help="the shared datasets folder")
    p.add_argument("--folds-dir", required=True, help="where folds.py wrote the folds")
    p.add_argument("--dataset", required=True, choices=sorted(settings.DATASETS))
    p.add_argument("--fold", required=True, type=int)
    p.add_argument("--methods", required=True,
                   help="comma-separated, of: " + ", ".join(methods))
    p.add_argument("--out", required=True, help="JSON-lines file to append to")
    args = p.parse_args()
    args.methods = [m for m in args.methods.split(",") if m]
    unknown = [m for m in args.methods if m not in methods]
    if unknown:
        p.error(f"unknown methods {unknown}; expected some of {list(methods)}")
    return args


def load_fold(data_dir, folds_dir, dataset, fold):
    """``(X_train, y_train, X_test, y_test, spec)`` of one saved fold, as
    pandas frames with the CSV's columns (categorical columns as strings,
    NaN where missing) and 0/1 labels."""
    spec = settings.DATASETS[dataset]
    with open(os.path.join(folds_dir, f"{dataset}.json")) as f:
        saved = json.load(f)
    df = pd.read_csv(os.path.join(data_dir, spec["path"]))
    if len(df) != saved["n_rows"]:
        raise SystemExit(
            f"{dataset}: the CSV has {len(df)} rows but the saved folds "
            f"{saved['n_rows']}; rewrite the folds (folds.py)"
        )
    y = df.pop(spec["label"]).to_numpy()
    for c in spec["categorical"]:
        df[c] = df[c].astype(object)
    assign = np.asarray(saved["fold_of_row"])
    test = assign == fold
    if not test.any():
        raise SystemExit(f"{dataset}: fold {fold} is empty (folds 0..{saved['n_folds'] - 1})")
    return (df[~test].reset_index(drop=True), y[~test], df[test].reset_index(drop=True),
            y[test], spec)


def fill_missing_levels(X, spec):
    """Categorical NaN as the explicit level ``settings.MISSING_LEVEL``."""
    X = X.copy()
    for c in spec["categorical"]:
        X[c] = X[c].fillna(settings.MISSING_LEVEL).astype(str)
    return X


def one_hot(X_train, X_test, spec):
    """Every level of each categorical column as a 0/1 column (levels seen in
    training; missing values a level of their own), numeric columns as they
    are: the input of imodels and scikit-learn."""
    tr = fill_missing_levels(X_train, spec)
    te = fill_missing_levels(X_test, spec)
    tr = pd.get_dummies(tr, columns=spec["categorical"], dtype=np.float64)
    te = pd.get_dummies(te, columns=spec["categorical"], dtype=np.float64)
    te = te.reindex(columns=tr.columns, fill_value=0.0)
    return tr.astype(np.float64), te.astype(np.float64)


class Timer:
    """Wall and CPU (this process, every thread) seconds, and the 1-minute
    load average at start and end."""

    def __enter__(self):
        self.load_before = os.getloadavg()[0]
        self.w0, self.c0 = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.w0
        self.cpu = time.process_time() - self.c0
        self.load_after = os.getloadavg()[0]
        return False


def record(args, library, version, method, y_test, pred, rules, fit, **extra):
    """Appends one result line."""
    line = dict(
        dataset=args.dataset, fold=args.fold, library=library, version=version,
        method=method, status="ok",
        accuracy=float(np.mean(np.asarray(pred) == np.asarray(y_test))),
        rules=int(rules), fit_s=round(fit.wall, 4), fit_cpu_s=round(fit.cpu, 4),
        load_before=round(fit.load_before, 2), load_after=round(fit.load_after, 2),
        python=platform.python_version(), extra=extra,
    )
    with open(args.out, "a") as f:
        f.write(json.dumps(line) + "\n")
    print(f"{args.dataset} fold {args.fold} {library} {method}: acc {line['accuracy']:.4f} "
          f"rules {rules} fit {fit.wall:.2f} s (cpu {fit.cpu:.2f} s, load "
          f"{fit.load_before:.1f}->{fit.load_after:.1f})", file=sys.stderr, flush=True)
