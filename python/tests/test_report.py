"""The report page from Python: ``est.report(X, y, path)`` returns (and
writes) the HTML that ``rulecover report`` writes, ``_repr_html_`` is the
rules table; and ``rulecover evaluate --plot`` writes well-formed SVG with
its axes and one legend entry per method (checked with an XML parser)."""

import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rulecover import RulecoverClassifier, RulecoverRegressor, RUXClassifier

REPO = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"


def _self_contained(html):
    for bad in ("http://", "https://", "<link", "src=", "@import", "url("):
        assert bad not in html, bad


def _escaped(text):
    from html import escape

    return escape(text, quote=True).replace("&#x27;", "&#39;")


def test_report_with_labels_shows_rules_metrics_and_writes_the_file(binary_frame, tmp_path):
    X, y = binary_frame
    est = RUXClassifier(n_estimators=10, random_state=0).fit(X, y)
    path = tmp_path / "report.html"
    html = est.report(X, y, path=path)
    assert path.read_text(encoding="utf-8") == html
    assert html.startswith("<!DOCTYPE html>")
    for rule in est.rules_:
        assert _escaped(" and ".join(rule["conditions"])) in html, rule
    assert html.count("<tr><td class=\"num\" data-v=") == len(est.rules_)
    for metric in ("accuracy", "balanced accuracy", "AUC", "log-loss"):
        assert f"<span>{metric}</span>" in html
    assert "<th>precision</th>" in html and "Class balance" in html and "<svg" in html
    _self_contained(html)


def test_report_without_labels_has_support_only(binary_frame):
    X, y = binary_frame
    est = RulecoverClassifier("dt", {"max_depth": 3}, random_state=0).fit(X, y)
    html = est.report(X)
    assert "<th>support</th>" in html and "<th>precision</th>" not in html
    assert "<span>accuracy</span>" not in html


def test_report_of_a_regressor_has_r2_and_rmse():
    rng = np.random.RandomState(1)
    X = pd.DataFrame({"a": rng.uniform(0, 1, 150), "b": rng.uniform(0, 1, 150)})
    y = 3 * (X["a"] > 0.5) + X["b"]
    est = RulecoverRegressor("dt", {"max_depth": 3}, random_state=0).fit(X, y)
    html = est.report(X, y)
    assert "<span>R²</span>" in html and "<span>RMSE</span>" in html
    assert "<th>mean target</th>" in html


def test_report_refuses_classes_it_was_not_fitted_on(binary_frame):
    X, y = binary_frame
    est = RulecoverClassifier("dt", {"max_depth": 2}, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="not fitted on: other"):
        est.report(X, np.where(y == "high", "other", y))


def test_repr_html_is_the_rules_table(binary_frame):
    X, y = binary_frame
    est = RulecoverClassifier("dt", {"max_depth": 2}, random_state=0).fit(X, y)
    html = est._repr_html_()
    assert "<table id=\"rules\"" in html and "<script>" in html
    assert html.count("<tr><td class=\"num\" data-v=") == len(est.rules_)
    assert est._repr_mimebundle_()["text/html"] == html
    ann = RulecoverClassifier("ann", {"hidden": 4, "max_epochs": 5}, random_state=0).fit(X, y)
    assert "has no rules" in ann._repr_html_()
    assert "has no rules" in ann.report(X, y)


def _cli():
    given = os.environ.get("RULECOVER_CLI")
    path = Path(given) if given else REPO / "target" / "debug" / "rulecover"
    if not path.is_file():
        pytest.skip("no rulecover command line: set RULECOVER_CLI (python/ci.sh does)")
    return path


def test_evaluate_plot_is_svg_with_axes_and_a_legend_entry_per_method(tmp_path):
    cli = str(_cli())
    run = lambda *a: subprocess.run([cli, *a], cwd=tmp_path, check=True, capture_output=True)
    run("generate", "twonorm", "--rows", "200", "--seed", "4", "--out", "d.csv")
    methods = ["dt", "rux-rf", "rf"]
    run("evaluate", "--data", "d.csv", "--target", "label", "--methods", ",".join(methods),
        "--folds", "3", "-p", "rux-rf.n_estimators=5", "-p", "rf.n_estimators=5",
        "--plot", "p.svg")
    root = ET.parse(tmp_path / "p.svg").getroot()
    assert root.tag == SVG + "svg"
    titles = ["".join(t.itertext()) for t in root.iter(SVG + "text")
              if t.get("class") == "axis-title"]
    assert len(titles) == 2
    assert titles[0] in ("number of rules", "number of rules (log scale)")
    assert titles[1] == "accuracy (test folds; mean ± 1 std)"
    legend = [g.get("data-method") for g in root.iter(SVG + "g")
              if g.get("class") == "legend-entry"]
    assert legend == methods
    series = {g.get("data-method"): g for g in root.iter(SVG + "g") if g.get("class") == "series"}
    for m in methods:
        folds = [c for c in series[m].iter(SVG + "circle") if c.get("class") == "fold"]
        assert len(folds) == 3, m
        assert any(c.get("class") == "mean" for c in series[m].iter(SVG + "circle"))
