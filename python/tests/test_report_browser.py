"""The report page in a real browser: headless Chromium (the Debian
package, driven by Playwright's Python package; no browser download)
renders the rules table, sorts it on a header click, filters it through
the text box, logs no console error and requests nothing but the file.

A screenshot of the page goes to ``$RULECOVER_SCREENSHOT`` (default: the
test's temporary folder). Skipped, saying why, only when Playwright or
Chromium is absent (``.ci/run`` installs both). Chromium is
``$RULECOVER_CHROMIUM``, else ``chromium`` on the PATH, else
``/usr/bin/chromium``.
"""

import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rulecover import RUXClassifier


def _chromium():
    for candidate in (os.environ.get("RULECOVER_CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    pytest.skip("no Chromium (Debian: apt-get install chromium; or set RULECOVER_CHROMIUM)")


def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("no Playwright (pip install playwright; its browsers are not needed)")
    return sync_playwright


def _twonorm(n, seed):
    """Breiman's twonorm: two Gaussian classes in 20 dimensions."""
    rng = np.random.RandomState(seed)
    y = rng.randint(0, 2, n)
    a = 2 / np.sqrt(20)
    X = rng.normal(0, 1, (n, 20)) + np.where(y[:, None] == 1, a, -a)
    return pd.DataFrame(X, columns=[f"x{j}" for j in range(20)]), y


def test_report_renders_sorts_and_filters_in_chromium(tmp_path):
    chromium = _chromium()
    sync_playwright = _playwright()
    X, y = _twonorm(400, 1)
    est = RUXClassifier(n_estimators=10, random_state=0).fit(X, y)
    Xt, yt = _twonorm(300, 2)
    page_path = tmp_path / "report.html"
    est.report(Xt, yt, path=page_path)
    n_rules = len(est.rules_)
    assert n_rules >= 3
    url = page_path.resolve().as_uri()
    shot = Path(os.environ.get("RULECOVER_SCREENSHOT") or tmp_path / "report.png")

    errors, requests = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True,
                                    args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: requests.append(r.url))
            page.goto(url)
            page.wait_for_load_state("load")

            rows = page.locator("#rules tbody tr")
            assert rows.count() == n_rules
            assert page.locator("#rule-count").inner_text() == f"{n_rules} of {n_rules} rules shown"
            assert page.locator("svg.contrib rect").count() >= 1

            def column(name):
                heads = page.locator("#rules thead th").all_inner_texts()
                i = [h.strip() for h in heads].index(name)
                return [float(v) if v else float("-inf") for v in page.eval_on_selector_all(
                    "#rules tbody tr",
                    f"rows => rows.map(r => r.cells[{i}].getAttribute('data-v'))")]

            # A header click sorts ascending, a second click descending.
            header = page.locator("#rules thead th", has_text="train coverage")
            header.click()
            assert header.get_attribute("aria-sort") == "ascending"
            cov = column("train coverage")
            assert cov == sorted(cov) and len(cov) == n_rules
            header.click()
            assert header.get_attribute("aria-sort") == "descending"
            cov = column("train coverage")
            assert cov == sorted(cov, reverse=True)
            page.locator("#rules thead th", has_text="precision").click()
            prec = column("precision")
            assert prec == sorted(prec)

            # The filter keeps the rows whose text holds the query.
            texts = page.locator("#rules tbody tr td.rule").all_inner_texts()
            # A rule's first condition, e.g. "x12 <= -0.69".
            query = next(" ".join(t.split()[1:4]) for t in texts if t.startswith("if "))
            expected = sum(query.lower() in t.lower() for t in texts)
            assert 0 < expected
            page.fill("#rule-filter", query)
            visible = page.locator("#rules tbody tr:visible")
            assert visible.count() == expected
            assert page.locator("#rule-count").inner_text() == \
                f"{expected} of {n_rules} rules shown"
            page.fill("#rule-filter", "no rule holds this text")
            assert page.locator("#rules tbody tr:visible").count() == 0
            page.fill("#rule-filter", "")
            assert page.locator("#rules tbody tr:visible").count() == n_rules

            # Back in rule order for the picture.
            page.locator("#rules thead th", has_text="#").first.click()
            shot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()

    assert errors == [], errors
    assert requests == [url], requests
    assert shot.stat().st_size > 10_000
    print(f"report screenshot: {shot} ({n_rules} rules)")
