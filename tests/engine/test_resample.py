"""dtree.resampled_trees: the same seed gives the same trees, each returned
tree is what a fresh estimator grows on the returned rows (node for node),
a "drop" resample keeps exactly the rows it should (each once), a bootstrap
resample draws n rows with replacement, and bad arguments are refused with
a ValueError that names them."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtree import (MAX_RESAMPLES, DecisionTreeClassifier, DecisionTreeRegressor,
                   resampled_trees)
from tests.helpers.treecompare import compare_trees

TREE_ARRAYS = ("children_left", "children_right", "feature", "threshold", "impurity",
               "n_node_samples", "weighted_n_node_samples", "value")


def table(seed, n, classification=True):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 6, size=(n, 3)).astype(float)
    X[:, 2] += rng.normal(size=n).round(1)
    if classification:
        y = (X[:, 0] + rng.integers(0, 3, size=n) > 3).astype(int)
    else:
        y = X[:, 0] * 2 + rng.normal(size=n)
    return X, y


def same_arrays(a, b):
    for name in TREE_ARRAYS:
        np.testing.assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name),
                                      err_msg=name)


ESTIMATORS = st.sampled_from([
    lambda: DecisionTreeClassifier(max_depth=3),
    lambda: DecisionTreeClassifier(algorithm="c4.5", criterion="gain_ratio"),
    lambda: DecisionTreeClassifier(criterion="entropy", growth="best_first",
                                   max_leaf_nodes=6),
    lambda: DecisionTreeRegressor(min_samples_leaf=3),
])


@settings(deadline=None, max_examples=25)
@given(data_seed=st.integers(0, 10_000), n=st.integers(8, 60), make=ESTIMATORS,
       method=st.sampled_from(["bootstrap", "drop"]), share=st.floats(0.1, 0.6),
       seed=st.integers(0, 2**31 - 1), b=st.integers(1, 4))
def test_same_seed_same_trees_and_each_tree_is_a_refit_of_its_rows(
        data_seed, n, make, method, share, seed, b):
    est = make()
    X, y = table(data_seed, n, classification=hasattr(est, "predict_proba"))
    try:
        first = resampled_trees(est, X, y, n_resamples=b, method=method, drop_share=share,
                                random_state=seed)
    except ValueError as exc:  # a resample the estimator refuses (one class is fine)
        pytest.skip(str(exc))
    again = resampled_trees(est, X, y, n_resamples=b, method=method, drop_share=share,
                            random_state=seed)
    assert len(first) == len(again) == b
    for tree, other, rows in zip(first.estimators, again.estimators, first.rows):
        same_arrays(tree, other)
        refit = type(est)(**est.get_params()).fit(X[rows], y[rows])
        same_arrays(tree, refit)
    for r1, r2 in zip(first.rows, again.rows):
        np.testing.assert_array_equal(r1, r2)
    assert not hasattr(est, "tree_")  # the estimator given is left unfitted


@settings(deadline=None, max_examples=30)
@given(n=st.integers(2, 300), share=st.floats(0.01, 0.99), seed=st.integers(0, 10**6))
def test_drop_keeps_the_right_number_of_distinct_rows(n, share, seed):
    dropped = int(np.floor(share * n + 0.5))  # the documented rounding, halves up
    X, y = np.arange(n, dtype=float).reshape(-1, 1), np.arange(n) % 2
    if not 1 <= dropped <= n - 1:
        with pytest.raises(ValueError, match="drop_share"):
            resampled_trees(DecisionTreeClassifier(max_depth=1), X, y, n_resamples=1,
                            method="drop", drop_share=share, random_state=seed)
        return
    if n - dropped < 2:  # the estimator refuses a tree on one row
        with pytest.raises(ValueError, match="1 sample"):
            resampled_trees(DecisionTreeClassifier(max_depth=1), X, y, n_resamples=1,
                            method="drop", drop_share=share, random_state=seed)
        return
    found = resampled_trees(DecisionTreeClassifier(max_depth=1), X, y, n_resamples=3,
                            method="drop", drop_share=share, random_state=seed)
    for i, rows in enumerate(found.rows):
        assert len(rows) == n - dropped and len(np.unique(rows)) == len(rows)
        assert rows.min() >= 0 and rows.max() < n
        assert sorted(set(range(n)) - set(rows.tolist())) == found.left_out(i).tolist()
        # the tree saw exactly those rows
        assert found.estimators[i].tree_.n_node_samples[0] == n - dropped


def test_bootstrap_draws_n_rows_with_replacement():
    n = 200
    X, y = table(1, n)
    found = resampled_trees(DecisionTreeClassifier(max_depth=2), X, y, n_resamples=30,
                            random_state=7)
    distinct = []
    for i, rows in enumerate(found.rows):
        assert len(rows) == n and rows.min() >= 0 and rows.max() < n
        assert len(np.unique(rows)) < n  # repeats: drawn with replacement
        distinct.append(len(np.unique(rows)))
        np.testing.assert_array_equal(found.left_out(i), np.setdiff1d(np.arange(n), rows))
    # about 1 - 1/e of the rows appear in a bootstrap sample
    assert 0.58 < np.mean(distinct) / n < 0.69
    # the rows differ from one resample to the next
    assert len({r.tobytes() for r in found.rows}) == 30


def test_the_seed_decides_and_more_resamples_keep_the_first_ones():
    X, y = table(2, 80)
    est = DecisionTreeClassifier()
    five = resampled_trees(est, X, y, n_resamples=5, random_state=3)
    eight = resampled_trees(est, X, y, n_resamples=8, random_state=3)
    other = resampled_trees(est, X, y, n_resamples=5, random_state=4)
    for a, b in zip(five.rows, eight.rows):
        np.testing.assert_array_equal(a, b)
    assert any(not np.array_equal(a, b) for a, b in zip(five.rows, other.rows))


def test_a_dataframe_with_categories_and_weights_is_resampled_by_position():
    rng = np.random.default_rng(0)
    n = 60
    frame = pd.DataFrame({"colour": rng.choice(["red", "green", "blue"], size=n),
                          "size": rng.normal(size=n)}, index=rng.permutation(n) + 1000)
    y = pd.Series((frame["colour"] == "red").astype(int).to_numpy(), index=frame.index)
    w = rng.uniform(0.5, 2, size=n)
    est = DecisionTreeClassifier(categorical_features=["colour"], max_depth=3)
    found = resampled_trees(est, frame, y, n_resamples=4, method="drop", drop_share=0.3,
                            sample_weight=w, random_state=1)
    for tree, rows in zip(found.estimators, found.rows):
        refit = DecisionTreeClassifier(**est.get_params()).fit(
            frame.iloc[rows], y.iloc[rows], sample_weight=w[rows])
        compare_trees(tree.tree_, refit.tree_)
        same_arrays(tree, refit)
        np.testing.assert_allclose(tree.tree_.weighted_n_node_samples[0], w[rows].sum())


@pytest.mark.parametrize("kwargs, words", [
    ({"n_resamples": 0}, "n_resamples"),
    ({"n_resamples": MAX_RESAMPLES + 1}, "n_resamples"),
    ({"n_resamples": 2.0}, "n_resamples"),
    ({"n_resamples": True}, "n_resamples"),
    ({"method": "jackknife"}, "method"),
    ({"method": "drop", "drop_share": 0}, "drop_share"),
    ({"method": "drop", "drop_share": 1.0}, "drop_share"),
    ({"drop_share": "0.2"}, "drop_share"),
    ({"method": "drop", "drop_share": 0.01}, "drops 0 row"),
    ({"random_state": -1}, "random_state"),
    ({"random_state": 1.5}, "random_state"),
    ({"sample_weight": np.ones(3)}, "sample_weight"),
])
def test_bad_arguments_are_refused(kwargs, words):
    X, y = table(0, 20)
    with pytest.raises(ValueError, match=words):
        resampled_trees(DecisionTreeClassifier(), X, y, **kwargs)


def test_other_refusals():
    X, y = table(0, 20)
    with pytest.raises(ValueError, match="different numbers of rows"):
        resampled_trees(DecisionTreeClassifier(), X, y[:-1])
    with pytest.raises(ValueError, match="estimator"):
        resampled_trees(object(), X, y)
    # what the estimator refuses on a resample comes through as its ValueError
    with pytest.raises(ValueError):
        resampled_trees(DecisionTreeRegressor(criterion="poisson"), X, -np.abs(y) - 1.0)
