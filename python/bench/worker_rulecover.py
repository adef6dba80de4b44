"""rulecover's methods on one saved fold (run in the rulecover environment).

Fits on the raw frame: rulecover binarizes and encodes inside ``fit`` (so
its fit time includes the binarization that aix360's number includes too).
"""

import json
from importlib.metadata import version

import rulecover
from rulecover import (LogisticRuleRegression, MIRCOClassifier, RUGClassifier,
                       RuleFitClassifier, RUXClassifier)

import common
import settings


def lrr():
    s = settings.LRR
    return LogisticRuleRegression(n_thresholds=s["n_thresholds"], lambda0=s["lambda0"],
                                  lambda1=s["lambda1"], random_state=0)


def rulefit():
    s = settings.RULEFIT
    return RuleFitClassifier(
        tree_size=s["tree_size"],
        max_rules=settings.rulefit_max_rules(s["n_trees"], s["tree_size"]),
        learning_rate=s["learning_rate"], lambda0=s["lambda0"], lambda1=0.0,
        n_thresholds=settings.RULEFIT_N_THRESHOLDS, random_state=0)


#: Methods whose tree learners need complete data: missing categorical
#: values become a level of their own (common.fill_missing_levels), as in
#: the papers' one-hot encoding; LRR and RuleFit read NaN as missing.
FILL_MISSING = {"RUG", "RUX-RF", "MIRCO"}

METHODS = {
    "LRR": lrr,
    "RuleFit": rulefit,
    "RUG": lambda: RUGClassifier(random_state=0),
    "RUX-RF": lambda: RUXClassifier(ensemble="rf", random_state=0),
    "MIRCO": lambda: MIRCOClassifier(random_state=0),
}


def find_fit_info(node):
    """The GLRM/RuleFit fit record (iterations, working set, ...) inside the
    model file's tree, if there is one."""
    if isinstance(node, dict):
        if "working_set" in node and "iterations" in node:
            return node
        node = list(node.values())
    if isinstance(node, list):
        for child in node:
            found = find_fit_info(child)
            if found:
                return found
    return None


def main():
    args = common.worker_args(METHODS)
    X, y, Xt, yt, spec = common.load_fold(args.data_dir, args.folds_dir, args.dataset, args.fold)
    # A test level never seen in training (adult: the one
    # "Holand-Netherlands" row) is read as missing, as the estimators'
    # handle_unknown="missing" would (done here for every method alike).
    for c in spec["categorical"]:
        Xt[c] = Xt[c].where(Xt[c].isna() | Xt[c].isin(set(X[c].dropna())), None)
    for name in args.methods:
        model = METHODS[name]()
        Xf, Xtf = X, Xt
        if name in FILL_MISSING:
            Xf, Xtf = common.fill_missing_levels(X, spec), common.fill_missing_levels(Xt, spec)
        with common.Timer() as fit:
            model.fit(Xf, y)
        pred = model.predict(Xtf)
        # rules_ lists the model's terms (for LRR/RuleFit the terms with a
        # nonzero coefficient; the intercept is not a rule).
        rules = [r for r in model.rules_ if r["conditions"] or r["linear"]]
        extra = dict(backends=rulecover.backends())
        info = find_fit_info(json.loads(model.to_json())["model"])
        if info:
            extra["fit_info"] = {k: info.get(k) for k in
                                 ("iterations", "working_set", "stop", "objective")}
        common.record(args, "rulecover", version("rulecover"), name, yt, pred, len(rules),
                      fit, **extra)


if __name__ == "__main__":
    main()
