"""Fits and predicts one model of every estimator of the installed
rulecover package: run by python/wheel_ci.sh in a virtual environment
with the wheel installed and no Rust toolchain on the PATH."""

import sys
import time

import numpy as np
from sklearn.datasets import make_classification, make_regression

import rulecover
from rulecover import (
    LinearRuleRegression,
    LogisticRuleRegression,
    MIRCOClassifier,
    NREClassifier,
    RCBoostClassifier,
    RUGClassifier,
    RuleFitClassifier,
    RuleFitRegressor,
    RulecoverClassifier,
    RulecoverRegressor,
    RUXClassifier,
)
from rulecover.relational import Background, BoostedRDNClassifier, Database


def main():
    print("rulecover from", rulecover.__file__)
    backends = rulecover.backends()
    print("backends:", backends)
    if "highs" not in backends["available"]:
        sys.exit("the wheel was built without HiGHS")
    X, y = make_classification(n_samples=300, n_features=6, n_informative=4, random_state=0)
    Xr, yr = make_regression(n_samples=300, n_features=6, random_state=0)
    classifiers = [
        MIRCOClassifier(n_estimators=10, random_state=0),
        RCBoostClassifier(max_rmp_calls=5, random_state=0),
        RUXClassifier(n_estimators=10, random_state=0),
        RUXClassifier(ensemble="ada", n_estimators=10, random_state=0),
        RUGClassifier(max_rmp_calls=5, random_state=0),
        LogisticRuleRegression(random_state=0),
        RuleFitClassifier(random_state=0),
        NREClassifier(max_epochs=20, random_state=0),
        RulecoverClassifier(method="dt", random_state=0),
    ]
    regressors = [
        LinearRuleRegression(random_state=0),
        RuleFitRegressor(random_state=0),
        RulecoverRegressor(method="gb", random_state=0),
    ]
    for est in classifiers + regressors:
        data = (X, y) if est in classifiers else (Xr, yr)
        start = time.perf_counter()
        est.fit(*data)
        predicted = est.predict(data[0])
        assert predicted.shape == (len(data[1]),)
        score = est.score(*data)
        name = type(est).__name__
        print(f"{name:<24} score {score:.3f}  {time.perf_counter() - start:.2f} s")
        if est in classifiers:
            p = est.predict_proba(X)
            assert np.allclose(p.sum(axis=1), 1.0), name
    modes = ["father(+person,+person).", "male(+person).", "parent(+person,+person)."]
    facts = ["male(tom)", "male(bob)", "parent(tom,bob)", "parent(bob,ann)", "parent(eve,tom)"]
    train = Database(pos=["father(tom,bob)", "father(bob,ann)"],
                     neg=["father(ann,bob)", "father(eve,tom)", "father(bob,tom)"], facts=facts)
    rdn = BoostedRDNClassifier(background=Background(modes=modes), target="father",
                               n_estimators=2, neg_pos_ratio=None, random_state=0).fit(train)
    print("BoostedRDNClassifier     proba", np.round(rdn.predict_proba(train), 3))
    print("every estimator fitted and predicted")


if __name__ == "__main__":
    main()
