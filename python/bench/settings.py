"""The benchmark's settings, shared by the driver and every worker (standard
library only: each worker runs in its own virtual environment).

The matched settings are stated once here; docs/PERFORMANCE.md ("Python:
against aix360 and imodels") explains how each was matched.
"""

#: Data sets: file under the shared datasets folder, label column, and the
#: categorical columns (the MANIFEST's list; every other column is numeric).
DATASETS = {
    "magic": dict(path="tabular/magic.csv", label="y", categorical=[]),
    "adult": dict(
        path="tabular/adult.csv",
        label="y",
        categorical=["workclass", "education", "marital_status", "occupation",
                     "relationship", "race", "native_country"],
    ),
}

#: Stratified k-fold split written once and read by every worker.
N_FOLDS = 5
FOLD_SEED = 0

#: Missing categorical values become this level for the libraries that
#: need complete data (aix360, imodels, scikit-learn); rulecover's
#: binarizer makes the equivalent "is missing" literal itself.
MISSING_LEVEL = "<missing>"

#: Logistic rule regression, both libraries: aix360's FeatureBinarizer with
#: numThresh=9 (deciles) and negations=True, and LogisticRuleRegression's
#: defaults besides the two penalties; rulecover's binarizer makes the same
#: literals (n_thresholds=9, negations always on for column generation).
LRR = dict(n_thresholds=9, lambda0=0.005, lambda1=0.001)

#: RuleFit, both libraries: mean tree size 4 (random sizes
#: 2 + floor(Exp(2)), Friedman & Popescu), learning rate ("memory") 0.01,
#: subsample min(0.5, (100 + 6 sqrt(n)) / n), about N_TREES trees, rules
#: only (no linear terms), and one fixed L1 penalty per rule: rulecover's
#: objective is mean log-loss + lambda0 * |beta|_1 (lambda1 = 0: no extra
#: penalty per literal), imodels' is liblinear's sum of log-losses +
#: alpha * |beta|_1, so alpha = n_train * lambda0.
RULEFIT = dict(tree_size=4, n_trees=100, learning_rate=0.01, lambda0=0.001)

#: rulecover's RuleFit grows its trees on its binarizer's literals, so the
#: binarizer's thresholds per numeric column bound where a tree can split
#: (imodels' trees split the raw numbers anywhere). Not a matched setting:
#: 49 thresholds (every second percentile) rather than LRR's 9 deciles
#: (docs/PERFORMANCE.md, "Python: against aix360 and imodels").
RULEFIT_N_THRESHOLDS = 49


def rulefit_max_rules(n_trees, tree_size):
    """rulecover grows trees until their sizes sum to ``max_rules``; the
    mean size of ``2 + floor(Exp(tree_size - 2))`` is
    ``2 + 1 / (exp(1 / (tree_size - 2)) - 1)``, so this ``max_rules`` gives
    ``n_trees`` trees on average (354 for 100 trees of mean size 4)."""
    import math

    mean = 2.0 + 1.0 / (math.exp(1.0 / (tree_size - 2)) - 1.0)
    return int(round(n_trees * mean))


#: Per-fit time limit of a worker process, seconds (the driver's default;
#: a fit that runs over is recorded as "timeout").
TIMEOUT_S = 1800

#: The pinned environments. aix360 0.3.0 calls OneHotEncoder(sparse=False),
#: removed in scikit-learn 1.4, hence its pins.
ENVS = {
    "rulecover": ["scikit-learn>=1.5", "pandas"],
    "aix360": ["aix360==0.3.0", "numpy<2", "pandas<2.2", "scikit-learn==1.3.2",
               "scipy<1.14", "cvxpy<1.6", "matplotlib<3.10"],
    "imodels": ["imodels==3.0.4", "six", "scikit-learn>=1.5", "pandas"],
}
