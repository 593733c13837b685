"""The exhaustive depth-2 search (``dtree.lookahead_tree``) against oracles.

* a plain brute force written here: itertools over every root split and
  every split of each child (thresholds between a node's own neighbouring
  values, category groupings of a node's own categories), each tree scored
  by the majority counts of its leaves;
* scikit-learn's greedy tree of depth 2, which the search never loses to;
* the bundled XOR table, whose root gains are computed here from counts.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier as SkTree

from dtree import CodedError, lookahead_tree

DATA = Path(__file__).resolve().parents[2] / "data"


# -- the brute force ---------------------------------------------------------------


def node_splits(X, rows, categorical):
    """Every binary split of the rows ``rows`` (boolean masks over all rows,
    both sides non-empty), by enumeration."""
    out = []
    for j in range(X.shape[1]):
        values = sorted(set(X[rows, j].tolist()))
        if j in categorical:
            first, rest = values[0], values[1:]
            for r in range(len(rest)):  # groupings with the first value on the left
                for chosen in itertools.combinations(rest, r):
                    left = {first, *chosen}
                    out.append(rows & np.isin(X[:, j], list(left)))
        else:
            for a, b in zip(values, values[1:]):
                out.append(rows & (X[:, j] <= (a + b) / 2))
    return out


def majority(y, rows) -> int:
    return max(np.bincount(y[rows]).tolist()) if rows.any() else 0


def best_child(X, y, rows, categorical) -> int:
    """The most rows one split (or a leaf) of this node gets right."""
    best = majority(y, rows)
    for left in node_splits(X, rows, categorical):
        best = max(best, majority(y, left) + majority(y, rows & ~left))
    return best


def brute_force(X, y, categorical=()) -> int:
    everything = np.ones(len(y), dtype=bool)
    return max(best_child(X, y, left, categorical) + best_child(X, y, ~left, categorical)
               for left in node_splits(X, everything, categorical))


def route(spec, X, rows):
    """The leaves of a forced-splits spec, as row masks (written here)."""
    if spec is None:
        return [rows]
    x = X[:, spec["feature"]]
    left = x <= spec["threshold"] if "threshold" in spec else np.isin(x, spec["categories"])
    return route(spec.get("left"), X, rows & left) + route(spec.get("right"), X, rows & ~left)


# -- random small tables -----------------------------------------------------------


@st.composite
def tables(draw, categorical=False):
    n = draw(st.integers(4, 14))
    p = draw(st.integers(1, 3))
    k = draw(st.integers(2, 3))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 4), min_size=p, max_size=p),
                               min_size=n, max_size=n)), dtype=float)
    y = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    cats = tuple(j for j in range(p) if categorical and draw(st.booleans()))
    return X, y, cats


def has_a_split(X, y):
    return len(set(y.tolist())) > 1 and any(len(set(X[:, j].tolist())) > 1
                                            for j in range(X.shape[1]))


@settings(deadline=None)
@given(tables())
def test_the_search_finds_what_brute_force_finds_on_numeric_tables(case):
    X, y, _ = case
    if not has_a_split(X, y):
        with pytest.raises(CodedError):
            lookahead_tree(X, y)
        return
    found = lookahead_tree(X, y)
    assert found.correct == brute_force(X, y)
    # the tree it returns gets that many right, routed by hand and by the engine
    leaves = route(found.forced_splits, X, np.ones(len(y), dtype=bool))
    assert sum(majority(y, rows) for rows in leaves) == found.correct
    assert round(found.estimator.score(X, y) * len(y)) == found.correct
    assert found.estimator.get_depth() <= 2


@settings(deadline=None)
@given(tables(categorical=True))
def test_the_search_finds_what_brute_force_finds_with_categorical_features(case):
    X, y, cats = case
    if not has_a_split(X, y):
        return
    frame = pd.DataFrame({f"f{j}": (X[:, j].astype(int).astype(str) if j in cats else X[:, j])
                          for j in range(X.shape[1])})
    found = lookahead_tree(frame, y, categorical_features=[f"f{j}" for j in cats])
    assert found.correct == brute_force(X, y, cats)
    assert round(found.estimator.score(frame, y) * len(y)) == found.correct


@settings(deadline=None)
@given(tables(), st.sampled_from(["gini", "entropy"]))
def test_the_search_is_never_worse_than_greedy_cart(case, criterion):
    X, y, _ = case
    if not has_a_split(X, y):
        return
    found = lookahead_tree(X, y, criterion=criterion)
    greedy = SkTree(max_depth=2, criterion=criterion, random_state=0).fit(X, y)
    assert found.correct >= round(greedy.score(X, y) * len(y))
    assert found.correct >= found.greedy_correct


# -- the XOR table -----------------------------------------------------------------


def gini(counts) -> float:
    counts = np.asarray(counts, dtype=float)
    return 1.0 - float(np.sum((counts / counts.sum()) ** 2))


def root_gains(x, y) -> list:
    """The Gini gain of every threshold of one feature at the root."""
    values = sorted(set(x.tolist()))
    parent = gini(np.bincount(y))
    gains = []
    for a, b in zip(values, values[1:]):
        left = x <= (a + b) / 2
        gains.append(parent - (left.mean() * gini(np.bincount(y[left]))
                               + (~left).mean() * gini(np.bincount(y[~left]))))
    return gains


def xor_table():
    frame = pd.read_csv(DATA / "xor.csv")
    return frame.drop(columns="class 类别"), frame["class 类别"]


def test_xor_fools_greedy_but_not_the_search():
    X, y = xor_table()
    codes = y.to_numpy()
    # x1 and x2 gain nothing at any threshold; the noise gains a little
    for name in ("x1", "x2"):
        assert max(abs(g) for g in root_gains(X[name].to_numpy(), codes)) < 1e-12
    noise = max(root_gains(X["noise 噪声"].to_numpy(), codes))
    assert 0.01 < noise < 0.1
    greedy = SkTree(max_depth=2, random_state=0).fit(X.to_numpy(), codes)
    assert X.columns[greedy.tree_.feature[0]] == "noise 噪声"
    assert greedy.score(X.to_numpy(), codes) < 0.75
    found = lookahead_tree(X, y)
    assert found.correct == len(y) == brute_force(X.to_numpy(), codes)
    # x1 at the root, x2 in both children: the XOR rule, checked by routing
    spec = found.forced_splits
    assert [spec["feature"], spec["left"]["feature"], spec["right"]["feature"]] == [0, 1, 1]
    leaves = route(spec, X.to_numpy(), np.ones(len(y), dtype=bool))
    assert all(len(set(codes[rows].tolist())) == 1 for rows in leaves)
    assert found.greedy.steps_[0].feature_name == "noise 噪声"
    assert found.greedy_correct == round(greedy.score(X.to_numpy(), codes) * len(y))


# -- limits and refusals -----------------------------------------------------------


def test_too_many_rows_or_candidates_are_refused_with_their_code():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 2001)
    with pytest.raises(CodedError) as info:
        lookahead_tree(rng.normal(size=(2001, 1)), y)
    assert info.value.code == "lookahead_rows"
    with pytest.raises(CodedError) as info:
        lookahead_tree(rng.normal(size=(600, 2)), y[:600])
    assert info.value.code == "lookahead_candidates"
    with pytest.raises(CodedError) as info:
        lookahead_tree(rng.normal(size=(1000, 1)).round(2), y[:1000])
    assert info.value.code == "lookahead_work"


def test_missing_values_and_too_many_categories_are_refused():
    X = np.array([[0.0], [np.nan], [1.0], [2.0]])
    with pytest.raises(CodedError) as info:
        lookahead_tree(X, [0, 1, 0, 1])
    assert info.value.code == "lookahead_missing"
    frame = pd.DataFrame({"c": [f"v{i}" for i in range(12)]})
    with pytest.raises(CodedError) as info:
        lookahead_tree(frame, [i % 2 for i in range(12)])
    assert info.value.code == "lookahead_categories"
