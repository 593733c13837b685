"""criterion="absolute_error" with missing values, against scikit-learn 1.9.1.

scikit-learn searches each feature twice when a node has missing values:
first with them on the right (the split "every known value left, the missing
right" included), then with them on the left, and keeps the first of equal
scores.  Its absolute-error criterion scores a split from running medians
over the node's rows in that order.  dtree's trees must be scikit-learn's node
for node, on the compiled path (numba) and on the NumPy path, with and
without sample weights; exact ties are broken as dtree breaks them
(helpers/sklearn_match.py).
"""

import contextlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from dtree import DecisionTreeRegressor, _jit
from tests.helpers.installed import require
from tests.helpers.sklearn_match import assert_matches_sklearn

KERNEL = "the compiled kernel (numba; or DTREE_NO_JIT=1 is set)"


@contextlib.contextmanager
def search_path(compiled):
    """The absolute-error search on the compiled kernel (loaded for any
    size) or on the NumPy path (the kernel hidden)."""
    saved = _jit._KERNEL, _jit.JIT_MIN_ROWS
    try:
        if compiled:
            require(_jit.available(), KERNEL)
            _jit.JIT_MIN_ROWS = 0
        else:
            _jit._KERNEL = False
        yield
    finally:
        _jit._KERNEL, _jit.JIT_MIN_ROWS = saved


def fit_both(X, y, sample_weight=None, compiled=False, **params):
    X = np.asarray(X, dtype=np.float32)
    with search_path(compiled):
        ours = DecisionTreeRegressor(criterion="absolute_error", **params).fit(
            X, y, sample_weight=sample_weight)
    theirs = SkRegressor(criterion="absolute_error", random_state=0, **params).fit(
        X, y, sample_weight=sample_weight)
    assert_matches_sklearn(ours, theirs, X, y, sample_weight)
    return ours, theirs


@st.composite
def tables(draw):
    """Small tables with missing values: a few distinct values per feature
    (ties between rows) or continuous ones, y on a grid (ties of medians) or
    continuous, weights none, integers (zeros included) or fractions."""
    n = draw(st.integers(2, 70))
    d = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = (rng.integers(0, draw(st.integers(2, 8)), (n, d)).astype(float)
         if draw(st.booleans()) else rng.normal(size=(n, d)))
    X[rng.random((n, d)) < draw(st.sampled_from([0.05, 0.2, 0.5, 0.9]))] = np.nan
    y = rng.integers(0, 5, n) / 2.0 if draw(st.booleans()) else rng.normal(size=n) * 10
    weights = draw(st.sampled_from(["none", "integers", "fractions"]))
    w = {"none": None, "integers": rng.integers(0, 4, n).astype(float),
         "fractions": rng.random(n) * 3 + 0.05}[weights]
    if w is not None and not w.sum() > 0:
        w[0] = 1.0
    params = {"min_samples_leaf": draw(st.integers(1, 4)),
              "max_depth": draw(st.sampled_from([None, 1, 2, 4]))}
    return X, y, w, params


@settings(max_examples=100, deadline=None)
@given(tables(), st.booleans())
def test_random_tables_with_missing_values_grow_sklearns_tree(table, compiled):
    X, y, w, params = table
    fit_both(X, y, w, compiled=compiled, **params)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("params", [{}, {"max_depth": 6}, {"min_samples_leaf": 7},
                                    {"max_leaf_nodes": 15}, {"min_impurity_decrease": 0.01}],
                         ids=str)
def test_a_larger_table_with_missing_values(compiled, params):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(500, 4))
    y = 2 * X[:, 0] + np.sin(3 * X[:, 1]) + rng.normal(scale=0.3, size=500)
    X[rng.random(X.shape) < 0.15] = np.nan
    X[:60, 2] = np.nan  # a feature mostly missing at the top
    ours, _ = fit_both(X, y, compiled=compiled, **params)  # missing sides included
    # both passes win somewhere: missing values sent left in some nodes, right in others
    inner = ours.tree_.children_left != -1
    if inner.sum() > 4:
        assert set(ours.tree_.missing_go_to_left[inner].tolist()) == {0, 1}


def test_weighted_table_with_missing_values():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 3))
    y = X[:, 0] - X[:, 1] + rng.normal(size=300)
    X[rng.random(X.shape) < 0.25] = np.nan
    fit_both(X, y, rng.uniform(0.2, 3.0, 300), max_depth=5)


# scikit-learn's own toy columns (its test of regression trees with missing
# values): the missing values go left, or right, for the greedy split
@pytest.mark.parametrize("column", [[np.nan, 2, np.nan, 4, 5, 6], [np.nan, np.nan, 3, 4, 5, 6],
                                    [1, 2, 3, 4, np.nan, np.nan], [1, 2, 3, np.nan, 6, np.nan]])
def test_scikit_learns_toy_columns(column):
    X = np.array(column, dtype=float).reshape(-1, 1)
    y = np.arange(1, 7, dtype=float)
    ours, _ = fit_both(X, y)
    assert (ours.tree_.impurity >= 0).all()
    alone = (ours.tree_.children_left == -1) & (ours.tree_.n_node_samples == 1)
    np.testing.assert_array_equal(ours.tree_.impurity[alone], 0.0)
    reference = DecisionTreeRegressor(criterion="absolute_error").fit(y.reshape(-1, 1), y)
    np.testing.assert_allclose(ours.tree_.impurity[:2], reference.tree_.impurity[:2])


def test_missing_values_alone_on_the_right_is_a_split():
    """Known values all alike in y, the missing rows far away: the best split
    sends every known value left and the missing ones right (threshold +inf)."""
    X = np.array([1.0, 2.0, 3.0, 4.0, np.nan, np.nan, np.nan])[:, None]
    y = np.array([0.0, 0.0, 0.0, 0.0, 9.0, 9.0, 9.0])
    ours, theirs = fit_both(X, y, max_depth=1)
    assert ours.tree_.threshold[0] == theirs.tree_.threshold[0] == np.inf
    assert ours.tree_.missing_go_to_left[0] == theirs.tree_.missing_go_to_left[0] == 0
    np.testing.assert_array_equal(ours.predict([[np.nan], [2.0]]), [9.0, 0.0])


def test_missing_values_go_left_with_the_small_values():
    X = np.array([1.0, 2.0, 3.0, 7.0, 8.0, 9.0, np.nan, np.nan])[:, None]
    y = np.array([0.0, 0.5, 0.0, 5.0, 5.5, 5.0, 0.0, 0.5])
    ours, _ = fit_both(X, y, max_depth=1)
    assert ours.tree_.missing_go_to_left[0] == 1
    assert ours.tree_.n_node_samples[ours.tree_.children_left[0]] == 5


@pytest.mark.parametrize("n", [9, 8])
def test_without_missing_values_in_training_nan_goes_to_the_larger_child(n):
    """scikit-learn's rule when a split saw no missing value: NaN follows the
    child with more rows (the right one on equal counts)."""
    X = np.array([[0, 1, 2, 3, 8, 9, 11, 12, 15]], dtype=float).T[:n]
    y = np.array([0.1, 0.2, 0.3, 0.2, 1.4, 1.4, 1.5, 1.6, 2.6])[:n]
    ours, theirs = fit_both(X, y, max_depth=1)
    np.testing.assert_array_equal(ours.predict([[np.nan]]), theirs.predict([[np.nan]]))
    np.testing.assert_allclose(ours.predict([[np.nan]]), [np.median(y[4:])])
