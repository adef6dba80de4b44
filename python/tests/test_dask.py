"""Scale-out through Dask: scikit-learn's searches over our estimators on a
``dask.distributed`` cluster of worker processes give what they give with
``n_jobs=1``, and each fit inside a worker keeps to that worker's threads.

The estimators travel between processes as pickles whose payload is the
model file (``__getstate__``), and fits release the GIL; this runs both
through real worker processes.
"""

import json
import os
import pickle

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate

from rulecover import LogisticRuleRegression, RUXClassifier
from rulecover._base import threads
from rulecover.relational import Background, BoostedRDNClassifier, Database

distributed = pytest.importorskip("distributed")
joblib = pytest.importorskip("joblib")


@pytest.fixture(scope="module")
def client():
    """A local cluster of two single-threaded worker processes."""
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _computed(model_file):
    """A model file without what a fit measures (solver and fit times),
    which differs from run to run: what the fit computed."""

    def strip(v):
        if isinstance(v, dict):
            return {
                k: strip(x)
                for k, x in v.items()
                if not (k in ("time", "nanos", "secs") or k.endswith(("seconds", "_time")))
            }
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v

    return strip(json.loads(model_file))


def _data():
    X, y = make_classification(
        n_samples=240, n_features=6, n_informative=4, random_state=3
    )
    return X, y


SEARCHES = [
    (RUXClassifier(n_estimators=8, random_state=0), {"max_depth": [2, 3], "eps": [0.01, 0.1]}),
    (LogisticRuleRegression(max_iterations=8, random_state=0), {"lambda0": [0.01, 0.001]}),
]


@pytest.mark.parametrize("estimator,grid", SEARCHES, ids=lambda p: type(p).__name__)
def test_grid_search_on_dask_equals_one_job(client, estimator, grid):
    X, y = _data()
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    local = GridSearchCV(estimator, grid, cv=cv, n_jobs=1).fit(X, y)
    with joblib.parallel_backend("dask"):
        remote = GridSearchCV(estimator, grid, cv=cv, n_jobs=-1).fit(X, y)
    assert remote.best_params_ == local.best_params_
    np.testing.assert_array_equal(
        remote.cv_results_["mean_test_score"], local.cv_results_["mean_test_score"]
    )
    np.testing.assert_array_equal(
        remote.cv_results_["split0_test_score"], local.cv_results_["split0_test_score"]
    )
    # The refitted models predict bit for bit alike.
    np.testing.assert_array_equal(
        remote.predict_proba(X).view(np.uint64), local.predict_proba(X).view(np.uint64)
    )
    assert _computed(remote.best_estimator_.to_json()) == _computed(local.best_estimator_.to_json())


def test_cross_validate_on_dask_equals_one_job(client):
    X, y = _data()
    est = RUXClassifier(n_estimators=8, random_state=1)
    local = cross_validate(est, X, y, cv=4, n_jobs=1, return_estimator=True)
    with joblib.parallel_backend("dask"):
        remote = cross_validate(est, X, y, cv=4, n_jobs=-1, return_estimator=True)
    np.testing.assert_array_equal(remote["test_score"], local["test_score"])
    for a, b in zip(remote["estimator"], local["estimator"]):
        assert _computed(a.to_json()) == _computed(b.to_json())


def _worker_threads(n_jobs):
    """What a fit in this process would run on: the explicit ``n_jobs`` or
    the worker's thread budget."""
    return threads(n_jobs), os.environ.get("OMP_NUM_THREADS")


def test_fits_in_workers_keep_to_the_worker_threads(client):
    # Dask's nanny gives each worker process OMP_NUM_THREADS=1 (as joblib's
    # loky does); with n_jobs=None a fit runs on that many threads instead
    # of one per core, so workers do not oversubscribe the machine.
    for n_jobs, expected in ((None, 1), (2, 2)):
        futures = [client.submit(_worker_threads, n_jobs, pure=False) for _ in range(2)]
        for got, omp in client.gather(futures):
            assert omp == "1"
            assert got == expected


MODES = ["father(+person,+person).", "male(+person).", "parent(+person,+person)."]
FACTS = ["male(tom)", "male(bob)", "male(jim)", "parent(tom,bob)", "parent(bob,ann)",
         "parent(ann,jim)", "parent(eve,tom)", "male(sam)", "parent(sam,eve)",
         "parent(liz,sam)"]
POS = ["father(tom,bob)", "father(bob,ann)", "father(sam,eve)"]
NEG = ["father(ann,jim)", "father(eve,tom)", "father(bob,tom)", "father(jim,ann)",
       "father(liz,sam)", "father(tom,ann)", "father(sam,tom)"]


def _fit_relational(seed):
    clf = BoostedRDNClassifier(background=Background(modes=MODES), target="father",
                               n_estimators=3, neg_pos_ratio=None, random_state=seed)
    return clf.fit(Database(pos=POS, neg=NEG, facts=FACTS))


def test_relational_fits_on_dask_equal_local_fits(client):
    train = Database(pos=POS, neg=NEG, facts=FACTS)
    with joblib.parallel_backend("dask"):
        remote = joblib.Parallel(n_jobs=-1)(joblib.delayed(_fit_relational)(s) for s in (1, 2))
    for seed, clf in zip((1, 2), remote):
        local = _fit_relational(seed)
        assert clf.rules() == local.rules()
        np.testing.assert_array_equal(clf.predict_proba(train), local.predict_proba(train))
        again = pickle.loads(pickle.dumps(clf))
        np.testing.assert_array_equal(again.predict_proba(train), local.predict_proba(train))
