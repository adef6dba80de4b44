"""scikit-learn's decision tree and random forest on one saved fold (run in
the rulecover environment, which has a recent scikit-learn), on the same
one-hot encoding as imodels' input (common.one_hot). Rules = leaves."""

import sklearn
from sklearn.ensemble import RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier

import common

METHODS = {
    "DT": lambda: DecisionTreeClassifier(random_state=0),
    "RF": lambda: RandomForestClassifier(n_estimators=100, n_jobs=-1, random_state=0),
}


def leaves(model):
    trees = getattr(model, "estimators_", [model])
    return sum(t.get_n_leaves() for t in trees)


def main():
    args = common.worker_args(METHODS)
    X, y, Xt, yt, spec = common.load_fold(args.data_dir, args.folds_dir, args.dataset, args.fold)
    X, Xt = common.one_hot(X, Xt, spec)
    for name in args.methods:
        model = METHODS[name]()
        with common.Timer() as fit:
            model.fit(X, y)
        common.record(args, "scikit-learn", sklearn.__version__, name, yt, model.predict(Xt),
                      leaves(model), fit)


if __name__ == "__main__":
    main()
