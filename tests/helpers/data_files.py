"""The built-in tables of data/, read as (X, y)."""

from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "data"


def read(name, target, drop=None):
    """``data/<name>`` as (the columns but ``target`` and ``drop``, the target's values)."""
    frame = pd.read_csv(DATA / name)
    if drop:
        frame = frame.drop(columns=drop)
    return frame.drop(columns=target), frame[target].to_numpy()
