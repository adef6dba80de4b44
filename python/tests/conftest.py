import numpy as np
import pandas as pd
import pytest


@pytest.fixture
def binary_frame():
    """A small binary problem with numeric, categorical and text columns."""
    rng = np.random.RandomState(0)
    n = 120
    age = rng.uniform(20, 70, n)
    bmi = rng.normal(27, 4, n)
    smoker = rng.choice(["yes", "no"], n)
    region = pd.Categorical(rng.choice(["north", "south", "east"], n),
                            categories=["north", "south", "east"])
    risk = (age > 45) & (smoker == "yes") | (bmi > 31)
    y = np.where(risk, "high", "low")
    X = pd.DataFrame({"age": age, "bmi": bmi, "smoker": smoker, "region": region})
    return X, y
