"""Writes the benchmark's folds once: for each data set, the fold of every
row of the CSV (scikit-learn's StratifiedKFold, shuffled with a fixed
seed), with the CSV's SHA-256 so that a worker never reads folds of another
file.

    python folds.py --data-dir DATASETS --out FOLDS_DIR
"""

import argparse
import hashlib
import json
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

import settings


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--datasets", default=",".join(settings.DATASETS))
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.datasets.split(","):
        spec = settings.DATASETS[name]
        path = os.path.join(args.data_dir, spec["path"])
        y = pd.read_csv(path, usecols=[spec["label"]])[spec["label"]].to_numpy()
        fold_of_row = np.empty(len(y), dtype=np.int64)
        split = StratifiedKFold(n_splits=settings.N_FOLDS, shuffle=True,
                                random_state=settings.FOLD_SEED)
        for k, (_, test) in enumerate(split.split(np.zeros(len(y)), y)):
            fold_of_row[test] = k
        out = dict(dataset=name, file=spec["path"], sha256=sha256(path), n_rows=len(y),
                   n_folds=settings.N_FOLDS,
                   splitter=f"StratifiedKFold(n_splits={settings.N_FOLDS}, shuffle=True, "
                            f"random_state={settings.FOLD_SEED})",
                   fold_of_row=fold_of_row.tolist())
        with open(os.path.join(args.out, f"{name}.json"), "w") as f:
            json.dump(out, f)
        sizes = np.bincount(fold_of_row).tolist()
        print(f"{name}: {len(y)} rows, test fold sizes {sizes}")


if __name__ == "__main__":
    main()
