"""Tables for checking dtree's J48 against Weka's: the names of Weka's
examples with a nominal class, and generated tables with missing values."""

import numpy as np
import pandas as pd

#: Weka's examples with a nominal class.  The Reuters files hold a string
#: attribute, which J48 itself refuses ("Cannot handle string attributes").
NOMINAL_CLASS = ["breast-cancer", "contact-lenses", "credit-g", "diabetes", "glass",
                 "ionosphere", "iris", "iris.2D", "labor", "segment-challenge",
                 "segment-test", "soybean", "supermarket", "unbalanced", "vote",
                 "weather.nominal", "weather.numeric"]


def generated_with_missing(seed, n, rate):
    """Numeric (some with repeated values) and nominal features, a 3-class
    target that depends on them, and missing values everywhere but the class."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "x1": rng.normal(size=n).round(2),
        "x2": rng.integers(0, 8, n).astype(float),
        "colour": pd.Categorical(rng.choice(["red", "green", "blue", "grey"], n),
                                 categories=["red", "green", "blue", "grey", "violet"]),
        "x3": rng.uniform(0, 100, n).round(1),
        "size": pd.Categorical(rng.choice(["S", "M", "L"], n, p=[0.5, 0.3, 0.2]),
                               categories=["S", "M", "L"]),
    })
    score = (X["x1"] + 0.3 * X["x2"] + (X["colour"] == "red") * 1.2
             - (X["size"] == "L") * 1.0 + rng.normal(scale=0.8, size=n))
    y = pd.Series(pd.Categorical(np.where(score < 0.5, "low", np.where(score < 2, "mid", "high")),
                                 categories=["low", "mid", "high"]), name="class")
    for col in X.columns:
        X.loc[rng.random(n) < rate, col] = np.nan
    return X, y
