"""The table the step benchmark uploads (``bench/steps.py``) and its bare
page grows (``bench/bare_step_app.py``): NumPy and pandas only, so that the
bare page imports nothing else of the benchmark."""

import numpy as np
import pandas as pd


def step_frame(n: int = 10_000, seed: int = 1) -> pd.DataFrame:
    """Three classes from six numeric features, with noise: at max_depth=4
    every node splits (a full tree of 31 nodes, 15 steps)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    score = X[:, 0] + 0.8 * X[:, 1] * X[:, 2] - 0.5 * X[:, 3] + rng.normal(scale=0.7, size=n)
    label = np.select([score < -0.6, score < 0.6], ["low", "mid"], "high")
    frame = pd.DataFrame(X.round(4), columns=[f"x{i}" for i in range(6)])
    frame["label"] = label
    return frame
