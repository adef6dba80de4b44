"""scikit-learn side of rc-tree's performance comparison (docs/PERFORMANCE.md).

Fits DecisionTreeClassifier() and RandomForestClassifier(n_estimators=100,
n_jobs=N_JOBS) (sqrt features, unlimited depth) on magic and adult with the same
train/test split as the Rust benches (rows i % 5 != 0 train, i % 5 == 0
test), adult one-hot encoded with pandas.get_dummies(drop_first=False) and
missing categoricals as a level of their own. Prints the median fit and
predict times over REPEATS runs (and the mean CPU time of a fit, all
threads), accuracy, and the leaf count.

    python3 crates/rc-tree/bench/sklearn_compare.py [DATA_DIR] [REPEATS] [N_JOBS] [DATASETS] [MODELS]
    python3 crates/rc-tree/bench/sklearn_compare.py "" 3 1 adult rf   # beside tree_timing adult rf 3
    SEEDS=5 python3 crates/rc-tree/bench/sklearn_compare.py "" 1   # RF accuracy over seeds

DATA_DIR defaults to $RC_DATA_DIR, else ../shared/datasets (relative to the
workspace root). N_JOBS is the forest's n_jobs (default 2; the decision tree
is single-threaded), DATASETS a comma-separated list (default magic,adult),
MODELS a comma-separated subset of dt,rf (default both). Predict uses the
same n_jobs (scikit-learn's forest predicts in parallel over trees).
"""
import os
import statistics
import sys
import time

import pandas as pd
import sklearn
from sklearn.ensemble import RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def data_dir():
    if len(sys.argv) > 1 and sys.argv[1]:
        return sys.argv[1]
    return os.environ.get("RC_DATA_DIR", os.path.join(ROOT, "..", "shared", "datasets"))


def load(name):
    df = pd.read_csv(os.path.join(data_dir(), "tabular", name + ".csv"))
    y = df.pop("y").to_numpy()
    cats = [c for c in df.columns if df[c].dtype == object or str(df[c].dtype).startswith("str")]
    for c in cats:
        df[c] = df[c].fillna("(missing)")
    X = pd.get_dummies(df, columns=cats, drop_first=False).astype("float64").to_numpy()
    idx = range(len(y))
    train = [i for i in idx if i % 5 != 0]
    test = [i for i in idx if i % 5 == 0]
    return X[train], y[train], X[test], y[test]


def timed(repeats, f):
    """Median wall time, mean CPU time (process_time: all threads) and the
    last result of `repeats` calls."""
    times, out = [], None
    cpu0 = time.process_time()
    for _ in range(repeats):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    cpu = (time.process_time() - cpu0) / repeats
    return statistics.median(times), cpu, out


def arg(i, default):
    return sys.argv[i] if len(sys.argv) > i and sys.argv[i] else default


def main():
    repeats = int(arg(2, "5"))
    n_jobs = int(arg(3, "2"))
    names = arg(4, "magic,adult").split(",")
    models = arg(5, "dt,rf").split(",")
    print(f"scikit-learn {sklearn.__version__}, repeats {repeats}, n_jobs {n_jobs}")
    for name in names:
        Xtr, ytr, Xte, yte = load(name)
        print(f"{name}: {Xtr.shape[0]} train rows, {Xte.shape[0]} test rows, {Xtr.shape[1]} features")
        for label, make in [
            ("DT", lambda: DecisionTreeClassifier(random_state=0)),
            ("RF", lambda: RandomForestClassifier(n_estimators=100, n_jobs=n_jobs, random_state=0)),
        ]:
            if label.lower() not in models:
                continue
            fit, fit_cpu, model = timed(repeats, lambda: make().fit(Xtr, ytr))
            pred, _, yhat = timed(repeats, lambda: model.predict(Xte))
            acc = (yhat == yte).mean()
            leaves = (
                model.get_n_leaves()
                if hasattr(model, "get_n_leaves")
                else sum(e.get_n_leaves() for e in model.estimators_)
            )
            print(f"{label} fit {fit:.4f} s (cpu {fit_cpu:.3f} s)  predict {pred:.4f} s  "
                  f"accuracy {acc:.4f}  leaves {leaves}")
        if os.environ.get("SEEDS"):
            seeds = int(os.environ["SEEDS"])
            accs = [
                (RandomForestClassifier(n_estimators=100, n_jobs=n_jobs, random_state=s).fit(Xtr, ytr).predict(Xte) == yte).mean()
                for s in range(seeds)
            ]
            print(f"RF accuracy over random_state 0..{seeds}: mean {statistics.mean(accs):.4f} "
                  f"[{', '.join(f'{a:.4f}' for a in accs)}]")


if __name__ == "__main__":
    main()
