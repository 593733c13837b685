"""Scoring every subtree of the weakest-link sequence in one pass
(dtree._pruning._losses_by_steps) against building each subtree and
predicting with it."""

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree._pruning import _losses_by_steps, _row_losses, pruning_sequence


def built_one_by_one(est, seq, X32, y):
    return np.array([_row_losses(est, seq.tree_at(k), X32, y) for k in range(len(seq) + 1)])


@settings(max_examples=40, deadline=None)
@given(st.integers(20, 300), st.integers(0, 10_000), st.booleans(),
       st.sampled_from(["gini", "entropy", "squared_error"]), st.sampled_from([None, 8]))
def test_one_pass_equals_every_subtree_built(n, seed, best_first, criterion, leaves):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    signal = X[:, 0].copy()
    X[rng.random(X.shape) < 0.05] = np.nan  # missing values follow the learned side
    if criterion == "squared_error":
        y = signal * 2 + rng.normal(size=n)
        est = DecisionTreeRegressor(max_leaf_nodes=leaves if best_first else None,
                                    min_samples_leaf=2)
    else:
        y = rng.integers(0, 3, n)
        est = DecisionTreeClassifier(criterion=criterion, min_samples_leaf=2,
                                     max_leaf_nodes=leaves if best_first else None)
    est.fit(X, y)
    X_test = rng.normal(size=(50, 4))
    X_test[rng.random(X_test.shape) < 0.05] = np.nan
    y_test = rng.normal(size=50) if criterion == "squared_error" else rng.integers(0, 3, 50)
    X32 = est._validate_X_predict(X_test)
    seq = pruning_sequence(est.tree_)
    ks = np.arange(len(seq) + 1)
    np.testing.assert_array_equal(_losses_by_steps(est, seq, X32, y_test, ks),
                                  built_one_by_one(est, seq, X32, y_test))


def test_multiway_and_c45_trees():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.choice(list("pqrs"), 120), "b": rng.choice(list("xyz"), 120),
                      "c": rng.normal(size=120)})
    y = np.where((X["a"] == "p") | (X["c"] > 0.5), "yes", "no")
    for algorithm in ("id3", "c4.5"):
        data = X if algorithm == "c4.5" else X[["a", "b"]]
        est = DecisionTreeClassifier(algorithm=algorithm).fit(data, y)
        test = data.sample(40, random_state=0)
        if algorithm == "c4.5":  # missing values go down every branch: trees are built
            test = test.copy()
            test.iloc[::7, 0] = None
        X32 = est._validate_X_predict(test)
        y_test = rng.choice(["yes", "no"], 40)
        seq = pruning_sequence(est.tree_)
        ks = np.arange(len(seq) + 1)
        np.testing.assert_array_equal(_losses_by_steps(est, seq, X32, y_test, ks),
                                      built_one_by_one(est, seq, X32, y_test))
