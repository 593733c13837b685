"""The table the step-latency measurements upload: 10,000 rows, three
classes, six numeric features."""

import numpy as np
import pandas as pd


def bench_frame(n=10_000, seed=1):
    """Three classes from six numeric features, with noise (a full depth-4 tree)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    score = X[:, 0] + 0.8 * X[:, 1] * X[:, 2] - 0.5 * X[:, 3] + rng.normal(scale=0.7, size=n)
    label = np.select([score < -0.6, score < 0.6], ["low", "mid"], "high")
    frame = pd.DataFrame(X.round(4), columns=[f"x{i}" for i in range(6)])
    frame["label"] = label
    return frame
