import numpy as np
import pytest

from rulecover.relational import Background, BoostedRDNClassifier, Database

MODES = ["father(+person,+person).", "male(+person).", "parent(+person,+person)."]
FACTS = ["male(tom)", "male(bob)", "male(jim)", "parent(tom,bob)", "parent(bob,ann)",
         "parent(ann,jim)", "parent(eve,tom)", "male(sam)", "parent(sam,eve)",
         "parent(liz,sam)"]
POS = ["father(tom,bob)", "father(bob,ann)", "father(sam,eve)"]
NEG = ["father(ann,jim)", "father(eve,tom)", "father(bob,tom)", "father(jim,ann)",
       "father(liz,sam)", "father(tom,ann)", "father(sam,tom)"]


def test_boosted_rdn_fit_predict_and_compress():
    bk = Background(modes=MODES)
    train = Database(pos=POS, neg=NEG, facts=FACTS)
    clf = BoostedRDNClassifier(background=bk, target="father", n_estimators=3,
                               neg_pos_ratio=None, random_state=1)
    assert clf.fit(train) is clf
    p = clf.predict_proba(train)
    assert p.shape == (len(POS) + len(NEG),)
    assert np.all((p >= 0) & (p <= 1))
    assert "father" in clf.rules()
    for method in ("scote", "ecote"):
        dl = clf.compress(method)
        assert len(dl) >= 1
        q = dl.predict_proba(train)
        if method == "scote":
            np.testing.assert_allclose(q, p, atol=1e-9)
        assert "father" in str(dl)


def test_relational_errors_are_value_errors():
    bk = Background(modes=MODES)
    clf = BoostedRDNClassifier(background=bk, target="mother", n_estimators=2)
    with pytest.raises(ValueError, match="mother"):
        clf.fit(Database(pos=POS, neg=NEG, facts=FACTS))
    with pytest.raises(ValueError, match="scote"):
        BoostedRDNClassifier(background=bk, target="father", n_estimators=2).fit(
            Database(pos=POS, neg=NEG, facts=FACTS)).compress("zip")


def test_repeated_examples_warn_or_raise():
    bk = Background(modes=MODES)
    repeated = Database(pos=POS + [POS[1]], neg=NEG, facts=FACTS)
    clf = BoostedRDNClassifier(background=bk, target="father", n_estimators=2,
                               neg_pos_ratio=None, random_state=1)
    with pytest.warns(UserWarning, match=r"pos: 1 duplicate example line\(s\) dropped"):
        clf.fit(repeated)
    # Kept once: the same model as on the data without the repeat.
    clean = BoostedRDNClassifier(background=bk, target="father", n_estimators=2,
                                 neg_pos_ratio=None, random_state=1).fit(
        Database(pos=POS, neg=NEG, facts=FACTS))
    assert clf.rules() == clean.rules()
    with pytest.warns(UserWarning, match="father\\(bob, ?ann\\)"):
        p = clf.predict_proba(repeated)
    assert p.shape == (len(POS) + len(NEG),)
    strict = BoostedRDNClassifier(background=bk, target="father", n_estimators=2,
                                  duplicates="error")
    with pytest.raises(ValueError, match="father\\(bob, ?ann\\)"):
        strict.fit(repeated)
    with pytest.raises(ValueError, match="duplicates"):
        BoostedRDNClassifier(background=bk, target="father", n_estimators=2,
                             duplicates="drop").fit(repeated)


# srlearn's documented Toy-Cancer example (srlearn.example_data), lower-cased.
TOY_MODES = ["friends(+person,-person).", "friends(-person,+person).",
             "smokes(+person).", "cancer(+person)."]
TOY_TRAIN = Database(
    pos=["cancer(alice)", "cancer(bob)", "cancer(chuck)", "cancer(fred)"],
    neg=["cancer(dan)", "cancer(earl)"],
    facts=["friends(alice,bob)", "friends(alice,fred)", "friends(chuck,bob)",
           "friends(chuck,fred)", "friends(dan,bob)", "friends(earl,bob)",
           "friends(bob,alice)", "friends(fred,alice)", "friends(bob,chuck)",
           "friends(fred,chuck)", "friends(bob,dan)", "friends(bob,earl)",
           "smokes(alice)", "smokes(chuck)", "smokes(bob)"],
)
TOY_TEST = Database(
    pos=["cancer(zod)", "cancer(xena)", "cancer(yoda)"],
    neg=["cancer(voldemort)", "cancer(watson)"],
    facts=["friends(zod,xena)", "friends(xena,watson)", "friends(watson,voldemort)",
           "friends(voldemort,yoda)", "friends(yoda,zod)", "friends(xena,zod)",
           "friends(watson,xena)", "friends(voldemort,watson)", "friends(yoda,voldemort)",
           "friends(zod,yoda)", "smokes(zod)", "smokes(xena)", "smokes(yoda)"],
)


def _toy_cancer(n_estimators, tmp_path=None):
    """Fits on Toy-Cancer, from BoostSRL files written to ``tmp_path`` when
    given (as srlearn writes its example data), else from the lists."""
    train = TOY_TRAIN
    if tmp_path is not None:
        folder = tmp_path / "train"
        folder.mkdir()
        for part in ("pos", "neg", "facts"):
            (folder / f"train_{part}.txt").write_text(
                "".join(line + ".\n" for line in getattr(TOY_TRAIN, part)))
        train = Database.from_folder(str(folder))
    clf = BoostedRDNClassifier(background=Background(modes=TOY_MODES), target="cancer",
                               n_estimators=n_estimators)
    return clf.fit(train)


def test_toy_cancer_predict_proba_as_srlearn(tmp_path):
    # srlearn's test_predict_proba_test_data, whose numbers BoostSRL gives:
    # every tree splits on smokes(A) (6 examples: the root is searched
    # whatever its weight).
    clf = _toy_cancer(5, tmp_path)
    np.testing.assert_array_almost_equal(
        clf.predict_proba(TOY_TEST), np.array([0.74, 0.74, 0.74, 0.25, 0.25]), decimal=2)
    for tree in clf.estimators_:
        assert "smokes(A) ?" in tree.render()


@pytest.mark.parametrize("n_estimators", [1, 2, 3, 4, 5])
def test_toy_cancer_predict_and_estimators_as_srlearn(n_estimators):
    # srlearn's test_predict_example_data and test_learn_example_dataset_1.
    clf = _toy_cancer(n_estimators)
    np.testing.assert_array_equal(clf.predict(TOY_TEST), np.array([1, 1, 1, 0, 0]))
    assert clf.score(TOY_TEST) == 1.0
    assert len(clf.estimators_) == n_estimators
    first = clf.estimators_[0]
    assert str(first) == first.render()
    assert first.render().startswith("cancer(A) :-")
    assert clf.estimators_[-1].render() == clf.estimators_[n_estimators - 1].render()
    assert len(clf.estimators_[:2]) == min(2, n_estimators)
    assert [t.render() for t in clf.estimators_] == \
        [clf.estimators_[i].render() for i in range(n_estimators)]
    with pytest.raises(IndexError):
        clf.estimators_[n_estimators]
    assert all(t.render() in clf.rules() for t in clf.estimators_)
    # The threshold lies between the smokers' and the others' probabilities.
    p = clf.predict_proba(TOY_TEST)
    assert p[3] < clf.threshold_ < p[0]


def test_estimators_is_missing_before_fit():
    clf = BoostedRDNClassifier(background=Background(modes=TOY_MODES), target="cancer")
    assert not hasattr(clf, "estimators_")
