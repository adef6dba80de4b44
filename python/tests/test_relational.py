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
