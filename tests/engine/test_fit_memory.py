"""The exact splitter's memory, counted by tracemalloc (NumPy reports its
buffers to it), so the bound is a count of bytes, not a timing.

At n rows and F float32 features (X: 4nF bytes) one fit holds the
feature-major copy of X (4nF), the int32 sample orders (4nF), a few
per-row arrays and one slice of one feature's running sums at a time.
Before the orders were int32 and partitioned in place, and before the search
freed each chunk's arrays, a fit's peak was 9-10.5 times X's size; then 5.3
(classification) and 6.5 (regression); since large batches are searched,
routed and partitioned in slices of rows (``_problem.SLICE_ROWS``), about 3.2
and 4.5; since a fit without sample weights keeps no array of n ones (a
broadcast 1.0 instead), 3.04 and 4.33.
"""

import tracemalloc

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier, DecisionTreeRegressor

N, F = 200_000, 10


def peak_over_x(model, X, y):
    tracemalloc.start()
    try:
        model.fit(X, y)
        return tracemalloc.get_traced_memory()[1] / X.nbytes
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N, F)).astype(np.float32)
    y, target = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int), 2.0 * X[:, 0] + X[:, 3]
    # numba (when installed) loads, and its kernels compile or are read from
    # disk, at a process's first large fit: a cost of the process, not of
    # the fit, so it happens before anything is counted
    DecisionTreeClassifier(max_depth=2).fit(X[:20_000], y[:20_000])
    DecisionTreeRegressor(max_depth=2).fit(X[:20_000], target[:20_000])
    return X, y, target


def test_a_classifier_fit_peaks_near_two_copies_of_x(data):
    X, y, _ = data
    assert peak_over_x(DecisionTreeClassifier(max_depth=8), X, y) <= 3.2


def test_a_regressor_fit_peaks_near_two_copies_of_x(data):
    X, _, target = data
    assert peak_over_x(DecisionTreeRegressor(max_depth=8), X, target) <= 4.45


def test_the_sample_orders_are_int32_and_sorted():
    from dtree import _builders

    X = np.random.default_rng(1).normal(size=(3, 1000)).astype(np.float32)
    X[1, ::7] = np.nan
    P = _builders.sample_orders(X)
    assert P.dtype == np.int32
    for f in range(3):
        assert np.array_equal(X[f][P[f]], np.sort(X[f]), equal_nan=True)


FIELDS = ("feature", "threshold", "children_left", "children_right", "value", "impurity",
          "n_node_samples", "weighted_n_node_samples")


def tree_bytes(model):
    return [np.asarray(getattr(model.tree_, k)).tobytes() for k in FIELDS]


@pytest.mark.parametrize("make, kind, weighted", [
    (lambda: DecisionTreeClassifier(max_depth=6), "class", False),
    (lambda: DecisionTreeClassifier(criterion="entropy", min_samples_leaf=3), "class", True),
    (lambda: DecisionTreeClassifier(max_features=2, random_state=0,
                                    min_weight_fraction_leaf=0.01), "class", True),
    (lambda: DecisionTreeClassifier(max_leaf_nodes=15), "class", False),
    (lambda: DecisionTreeRegressor(max_depth=6, min_samples_leaf=4), "reg", True),
    (lambda: DecisionTreeRegressor(max_leaf_nodes=15), "reg", False),
])
def test_slices_of_rows_grow_the_same_tree_bit_for_bit(monkeypatch, make, kind, weighted):
    """A batch larger than SLICE_ROWS is searched, routed and partitioned in
    slices with carried sums: the tree must be the one of a single pass."""
    from dtree import _problem

    rng = np.random.default_rng(3)
    n = 1500
    X = rng.normal(size=(n, 4)).astype(np.float32)
    X[:, 3] = rng.integers(0, 3, n)  # ties across slice edges
    y = ((X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 0.5) if kind == "class"
         else X[:, 0] * 3 + rng.normal(size=n))
    w = None
    if weighted:
        w = rng.uniform(0.1, 2.0, n)
        w[::11] = 0.0
    monkeypatch.setattr(_problem, "SLICE_ROWS", 1 << 30)
    whole = make().fit(X, y, sample_weight=w)
    monkeypatch.setattr(_problem, "SLICE_ROWS", 37)
    sliced = make().fit(X, y, sample_weight=w)
    assert whole.tree_.node_count > 7
    assert tree_bytes(sliced) == tree_bytes(whole)
    # and every node's candidate table (gains, thresholds, children), as recorded
    tables = 0
    for node in range(whole.tree_.node_count):
        a, b = sliced.candidates(node), whole.candidates(node)
        assert (a is None) == (b is None)
        if b is not None:
            pd.testing.assert_frame_equal(a, b, check_exact=True)
            tables += 1
    assert tables > 3
