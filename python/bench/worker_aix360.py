"""aix360's LogisticRuleRegression on one saved fold (run in the aix360
environment: aix360 0.3.0 with its pins, settings.ENVS).

The fit time is FeatureBinarizer.fit_transform on the training rows plus
LogisticRuleRegression.fit, as rulecover's fit binarizes too.
"""

import warnings

import numpy as np
from importlib.metadata import version

from aix360.algorithms.rbm import FeatureBinarizer, LogisticRuleRegression

import common
import settings


def lrr(X, y, Xt, spec):
    s = settings.LRR
    X = common.fill_missing_levels(X, spec)
    Xt = common.fill_missing_levels(Xt, spec)
    binarizer = FeatureBinarizer(colCateg=spec["categorical"], numThresh=s["n_thresholds"],
                                 negations=True)
    model = LogisticRuleRegression(lambda0=s["lambda0"], lambda1=s["lambda1"])
    with common.Timer() as fit:
        B = binarizer.fit_transform(X)
        model.fit(B, y)
    pred = model.predict(binarizer.transform(Xt))
    # explain() lists the terms with a nonzero coefficient plus the intercept.
    terms = model.explain()
    rules = int((terms["rule"] != "(intercept)").sum())
    return pred, rules, fit, dict(literals=int(B.shape[1]), iterations=int(model.it))


METHODS = {"LRR": lrr}


def main():
    args = common.worker_args(METHODS)
    X, y, Xt, yt, spec = common.load_fold(args.data_dir, args.folds_dir, args.dataset, args.fold)
    for name in args.methods:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pred, rules, fit, extra = METHODS[name](X, y, Xt, spec)
        common.record(args, "aix360", version("aix360"), name, yt, np.asarray(pred), rules,
                      fit, **extra)


if __name__ == "__main__":
    main()
