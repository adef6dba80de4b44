"""The Python example of the root README and of python/README.md is the
code between the markers below, line for line, and it runs."""

import inspect
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def readme_example():
    # --- README begin ---
    from sklearn.datasets import load_breast_cancer
    from rulecover import RUXClassifier
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    model = RUXClassifier(n_estimators=20, random_state=0).fit(X, y)
    print(model.rules_frame()[["conditions", "class", "weight", "coverage"]])
    print(model.score(X, y))
    # --- README end ---
    return model


def example_code():
    source = inspect.getsource(readme_example)
    begin = source.index("# --- README begin ---\n") + len("# --- README begin ---\n")
    end = source.index("    # --- README end ---")
    return "".join(line.removeprefix("    ") for line in source[begin:end].splitlines(True))


def test_the_readmes_show_this_code():
    code = example_code()
    assert len(code.splitlines()) == 6, code
    block = "```python\n" + code + "```\n"
    for readme in (REPO / "README.md", REPO / "python" / "README.md"):
        assert block in readme.read_text(), f"{readme.name} does not show tests/test_readme.py's example"


def test_the_example_runs(capsys):
    model = readme_example()
    out = capsys.readouterr().out
    assert "conditions" in out and "coverage" in out
    score = float(out.strip().splitlines()[-1])
    assert 0.9 < score <= 1.0
    assert len(model.rules_) >= 2
