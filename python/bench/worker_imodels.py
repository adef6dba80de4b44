"""imodels' RuleFitClassifier on one saved fold (run in the imodels
environment).

imodels needs numbers: categorical columns are one-hot encoded (every
level, missing a level of its own; common.one_hot) before ``fit``, outside
the timed region.
"""

import warnings
from importlib.metadata import version

import numpy as np

from imodels import RuleFitClassifier

import common
import settings


def rulefit(X, y, Xt, spec):
    s = settings.RULEFIT
    X, Xt = common.one_hot(X, Xt, spec)
    model = RuleFitClassifier(
        n_estimators=s["n_trees"], tree_size=s["tree_size"], memory_par=s["learning_rate"],
        exp_rand_tree_size=True, include_linear=False, alpha=len(X) * s["lambda0"],
        max_rules=None, cv=False, random_state=0)
    with common.Timer() as fit:
        model.fit(X.to_numpy(), y, feature_names=list(X.columns))
    At = Xt.to_numpy()
    pred = model.predict(At)
    # imodels' predict_proba is softmax([1 - eta, eta]) of the linear
    # predictor eta, i.e. class 1 when eta > 0.5; its logistic model's own
    # rule is eta > 0. Both accuracies are kept (the table uses predict()).
    eta = model._predict_continuous_output(At)
    extra = dict(alpha=len(X) * s["lambda0"], pred_eta_gt_0=(eta > 0).astype(int))
    return pred, len(model.rules_), fit, extra


METHODS = {"RuleFit": rulefit}


def main():
    args = common.worker_args(METHODS)
    X, y, Xt, yt, spec = common.load_fold(args.data_dir, args.folds_dir, args.dataset, args.fold)
    for name in args.methods:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pred, rules, fit, extra = METHODS[name](X, y, Xt, spec)
        alt = extra.pop("pred_eta_gt_0")
        extra["accuracy_eta_gt_0"] = float(np.mean(alt == np.asarray(yt)))
        common.record(args, "imodels", version("imodels"), name, yt, np.asarray(pred), rules,
                      fit, **extra)


if __name__ == "__main__":
    main()
