"""Absolute-error node values: every node's weighted median at once
(dtree._median.node_weighted_medians, memory linear in the rows) equals the
one-node rule (weighted_median: the first y whose running weight reaches
half, the mean with the next on an exact half) applied to each node's rows."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dtree import DecisionTreeRegressor, _median


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 120), st.integers(1, 6), st.integers(0, 10_000),
       st.sampled_from(["ones", "integers", "halves"]), st.booleans())
def test_node_medians_equal_the_one_node_rule(n, max_depth, seed, weights, ties):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)).astype(np.float32)
    y = rng.integers(0, 4, n).astype(float) if ties else rng.normal(size=n)
    w = {"ones": np.ones(n), "integers": rng.integers(1, 5, n).astype(float),
         "halves": rng.integers(1, 5, n) / 2.0}[weights]
    tree = DecisionTreeRegressor(max_depth=max_depth).fit(X, y).tree_
    got = _median.node_weighted_medians(tree.apply(X), tree.parent, y, w)
    path = tree.decision_path(X).toarray().astype(bool)
    want = [_median.weighted_median(y[path[:, i]], w[path[:, i]]) for i in range(tree.node_count)]
    np.testing.assert_array_equal(got, want)


def test_absolute_error_tree_values_are_node_medians():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 2))
    y = np.round(rng.normal(size=200), 1)  # ties, and exact halves with even counts
    model = DecisionTreeRegressor(criterion="absolute_error", max_depth=3).fit(X, y)
    tree = model.tree_
    path = tree.decision_path(X.astype(np.float32)).toarray().astype(bool)
    want = [np.median(y[path[:, i]]) for i in range(tree.node_count)]  # unit weights
    np.testing.assert_allclose(tree.value[:, 0, 0], want)
