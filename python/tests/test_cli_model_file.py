"""The model file across languages: a model fitted by the ``rulecover``
command line loads in Python and predicts the same as ``rulecover predict``;
a model saved by Python predicts the same through the command line; and the
same data, parameters and seed give the same rules either way.

The binary is ``$RULECOVER_CLI`` (``python/ci.sh`` sets it to the one
``cargo test --workspace`` builds, and then a missing binary fails the
test); without the variable, ``target/debug/rulecover`` of the checkout is
used when it exists, else the tests are skipped and say why.
"""

import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rulecover
from rulecover import LogisticRuleRegression, RUGClassifier, RUXClassifier

REPO = Path(__file__).resolve().parents[2]


def _cli():
    given = os.environ.get("RULECOVER_CLI")
    if given:
        path = Path(given)
        assert path.is_file() and os.access(path, os.X_OK), (
            f"RULECOVER_CLI={given} is not an executable file (build it with "
            "`cargo build -p rulecover`)"
        )
        return path
    path = REPO / "target" / "debug" / "rulecover"
    if not path.is_file():
        pytest.skip(
            "no rulecover command line: set RULECOVER_CLI to the binary "
            "(`cargo build -p rulecover` writes target/debug/rulecover); "
            "python/ci.sh sets it and fails without it"
        )
    return path


@pytest.fixture(scope="module")
def cli():
    return _cli()


def run(cli, *args, cwd):
    done = subprocess.run([str(cli), *map(str, args)], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"rulecover {' '.join(map(str, args))}: {done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """train.csv (numeric, text and label columns) and test.csv (columns in
    another order, no label), with the same values as DataFrames. Numbers
    are written with ``repr`` so that both sides read the same doubles."""
    rng = np.random.RandomState(7)
    n = 240
    age = np.round(rng.uniform(20, 70, n), 2)
    bmi = np.round(rng.normal(27, 4, n), 3)
    smoker = rng.choice(["no", "yes"], n)
    region = rng.choice(["east", "north", "south"], n)
    flip = rng.uniform(size=n) < 0.05
    risk = ((age > 45) & (smoker == "yes")) | (bmi > 31) | ((region == "east") & (age > 60))
    label = np.where(risk ^ flip, "high", "low")
    frame = pd.DataFrame({"age": age, "bmi": bmi, "smoker": smoker, "region": region})
    folder = tmp_path_factory.mktemp("cli")
    train, test = frame.iloc[:180], frame.iloc[180:].reset_index(drop=True)

    def write(path, df, with_label):
        cols = list(df.columns)
        lines = [",".join(cols + (["label"] if with_label else []))]
        for i in range(len(df)):
            row = [repr(float(v)) if isinstance(v, float) else str(v) for v in df.iloc[i]]
            if with_label:
                row.append(label[i])
            lines.append(",".join(row))
        path.write_text("\n".join(lines) + "\n")

    write(folder / "train.csv", train, True)
    test = test[["region", "bmi", "smoker", "age"]]
    write(folder / "test.csv", test, False)
    return folder, train, label[:180], test


def cli_predictions(cli, folder, model):
    run(cli, "predict", "--model", model, "--data", "test.csv", "--proba", "--out", "pred.csv",
        cwd=folder)
    return pd.read_csv(folder / "pred.csv", dtype={"label": str}, float_precision="round_trip")


# (method id, parameters as the command line takes them, the estimator
# with the same parameters)
SAME_FIT = [
    ("rux-rf", {"n_estimators": 10, "max_depth": 3},
     RUXClassifier(ensemble="rf", n_estimators=10, max_depth=3)),
    ("rug", {"max_rmp_calls": 5, "max_depth": 2}, RUGClassifier(max_rmp_calls=5, max_depth=2)),
    ("lrr", {"max_iterations": 20}, LogisticRuleRegression(max_iterations=20)),
]


@pytest.mark.parametrize("method,params,est", SAME_FIT, ids=[m for m, _, _ in SAME_FIT])
def test_cli_model_loads_in_python_and_predicts_the_same(cli, tables, method, params, est):
    folder, train, y, test = tables
    args = ["fit", "--data", "train.csv", "--target", "label", "--method", method,
            "--seed", "11", "--out", f"{method}.json"]
    for k, v in params.items():
        args += ["--param", f"{k}={v}"]
    run(cli, *args, cwd=folder)
    expected = cli_predictions(cli, folder, f"{method}.json")

    loaded = rulecover.load(folder / f"{method}.json")
    assert isinstance(loaded, type(est))
    assert list(loaded.feature_names_in_) == ["age", "bmi", "smoker", "region"]
    proba = loaded.predict_proba(test)
    classes = [str(c) for c in loaded.classes_]
    np.testing.assert_array_equal(proba, expected[classes].to_numpy())
    np.testing.assert_array_equal(loaded.predict(test), expected["label"].to_numpy())

    # The same data, parameters and seed fitted from Python: the same
    # model. The command line of `cargo test --workspace --all-features`
    # solves its LPs with HiGHS; a Python build without HiGHS (minilp) may
    # pick another optimal vertex, so the rules are compared when both
    # solve with HiGHS (as in CI, where the build has it).
    ours = est.set_params(random_state=11).fit(train, y)
    if rulecover.backends()["lp"] == "highs" or method == "lrr":
        assert ours.rules_ == loaded.rules_
        np.testing.assert_array_equal(ours.predict_proba(test), proba)


def test_python_model_predicts_the_same_through_the_cli(cli, tables):
    folder, train, y, test = tables
    est = RUGClassifier(max_rmp_calls=5, random_state=3).fit(train, y)
    est.save(folder / "python-model.json")
    expected = cli_predictions(cli, folder, "python-model.json")
    np.testing.assert_array_equal(est.predict_proba(test), expected[["high", "low"]].to_numpy())
    np.testing.assert_array_equal(est.predict(test), expected["label"].to_numpy())
    rules = run(cli, "rules", "--model", "python-model.json", cwd=folder)
    assert len(rules.strip().splitlines()) == len(est.rules_)
    for rule in est.rules_:
        assert " and ".join(rule["conditions"]) in rules
