"""Vectorised paths of the engine against the plain loops they replaced:
pre-order numbering, and the lazily made growth steps."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree._steps import Step, Steps
from dtree._tree import _preorder_walk, preorder


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 300), st.integers(0, 10_000), st.sampled_from([None, 3, 12]),
       st.booleans())
def test_preorder_equals_the_stack_walk(n, seed, leaves, multiway):
    rng = np.random.default_rng(seed)
    if multiway:
        X = pd.DataFrame({c: rng.choice(list("pqrst")[:k], n) for c, k in (("a", 5), ("b", 3))})
        est = DecisionTreeClassifier(algorithm="id3")
    else:
        X = rng.normal(size=(n, 3))
        est = DecisionTreeClassifier(max_leaf_nodes=leaves)
    tree = est.fit(X, rng.integers(0, 3, n)).tree_
    np.testing.assert_array_equal(preorder(tree.child_ptr, tree.child_ids),
                                  _preorder_walk(tree.child_ptr, tree.child_ids))


def same(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float)
                      and math.isnan(a) and math.isnan(b))


@pytest.mark.parametrize("growth", ["depth_first", "best_first", "breadth_first"])
def test_steps_are_made_when_read_and_equal_eager_ones(growth):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = X[:, 0] + rng.normal(size=300)
    model = DecisionTreeRegressor(max_depth=6, growth=growth).fit(X, y)
    steps = model.steps_
    assert isinstance(steps, Steps) and all(s is None for s in steps._made)  # none made yet
    eager = [Step(model, model.tree_, k, int(node)) for k, node in enumerate(steps.nodes)]
    assert len(steps) == len(eager) > 10
    for lazy, made in zip(steps, eager):
        a, b = lazy.as_dict(), made.as_dict()
        assert a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    assert steps[-1] is steps[len(steps) - 1] and steps[0] is steps[:1][0]
    assert [s.index for s in steps[2:7:2]] == [2, 4, 6]
    with pytest.raises(IndexError):
        steps[len(steps)]
    # tree_at reads the split nodes as an array, or from a plain list of Steps
    for k in (0, 3, len(steps)):
        want = model.tree_at(k)
        model.steps_ = list(steps)
        got = model.tree_at(k)
        model.steps_ = steps
        np.testing.assert_array_equal(got.node_ids, want.node_ids)
