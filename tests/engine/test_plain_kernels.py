"""The compiled kernels (numba, when installed: dtree._jit_search) grow bit
for bit the trees of the NumPy path, which stays the reference: every array
of the tree.  The plain exact search and partition, for Gini (unit and
other weights) and squared error, with the size and weight rules, drawn
features, leaf budgets and tied values; C4.5's weighted levels with the
entropy and gain ratio, missing values sent down every branch."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtree import DecisionTreeClassifier, DecisionTreeRegressor, _jit, pruning_sequence
from dtree._tree import _CHILD_ARRAYS, _NODE_ARRAYS
from tests.helpers.installed import require

FIELDS = ("feature", "threshold", "children_left", "children_right", "value", "impurity",
          "n_node_samples", "weighted_n_node_samples")


def _grown(model, X, y, w, compiled):
    with pytest.MonkeyPatch.context() as m:
        if compiled:
            m.setattr(_jit, "JIT_MIN_ROWS", 0)  # (every search, however small)
        else:
            m.setattr(_jit, "_KERNEL", False)
        model.fit(X, y, sample_weight=w)
    return {name: np.asarray(getattr(model.tree_, name)).copy() for name in FIELDS}


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 400), n_features=st.integers(1, 5), n_classes=st.integers(2, 5),
       seed=st.integers(0, 10_000), ties=st.booleans(),
       weights=st.sampled_from(["none", "integers", "fractions", "some zero"]),
       kind=st.sampled_from(["gini", "squared_error", "friedman_mse"]),
       leaf=st.integers(1, 4), weight_fraction=st.sampled_from([0.0, 0.02]),
       budget=st.sampled_from([None, 7]), drawn=st.booleans(), depth=st.sampled_from([None, 4]))
def test_the_compiled_search_grows_the_numpy_paths_tree(
        n, n_features, n_classes, seed, ties, weights, kind, leaf, weight_fraction, budget,
        drawn, depth):
    require(_jit.available(), "the compiled kernels (numba; or DTREE_NO_JIT=1 is set)")
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features)).astype(np.float32)
    if ties:
        X = np.round(X, 1)
    w = {"none": None, "integers": rng.integers(1, 4, n).astype(float),
         "fractions": rng.random(n) + 0.05,
         "some zero": rng.random(n) * (rng.random(n) > 0.2)}[weights]
    if w is not None and w.sum() <= 0:
        w[0] = 1.0
    params = dict(min_samples_leaf=leaf, min_weight_fraction_leaf=weight_fraction,
                  max_leaf_nodes=budget, max_depth=depth, random_state=seed,
                  max_features=max(1, n_features - 1) if drawn else None)
    if kind == "gini":
        y = (X[:, 0] * 2 + rng.normal(size=n) > 0).astype(int) + rng.integers(0, n_classes - 1, n)
        model = DecisionTreeClassifier(**params)
    else:
        y = X[:, 0] * 3 + rng.normal(size=n)
        model = DecisionTreeRegressor(criterion=kind, **params)
    want = _grown(model, X, y, w, False)
    got = _grown(model, X, y, w, True)
    for name in FIELDS:
        assert got[name].tobytes() == want[name].tobytes(), name


@pytest.mark.parametrize("growth", ["depth_first", "best_first"])
def test_a_larger_fit_is_the_same_on_both_paths(growth):
    """Large batches, read in slices by the NumPy path, in one pass by the kernels."""
    require(_jit.available(), "the compiled kernels (numba; or DTREE_NO_JIT=1 is set)")
    rng = np.random.default_rng(3)
    X = rng.normal(size=(90_000, 3)).astype(np.float32)
    y3 = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int) + (X[:, 2] > 1)
    t = X[:, 0] - 2 * X[:, 1] + rng.normal(size=len(X))
    budget = 40 if growth == "best_first" else None
    for model, y in ((DecisionTreeClassifier(max_depth=9, max_leaf_nodes=budget), y3),
                     (DecisionTreeRegressor(max_depth=9, max_leaf_nodes=budget), t)):
        want = _grown(model, X, y, None, False)
        got = _grown(model, X, y, None, True)
        for name in FIELDS:
            assert got[name].tobytes() == want[name].tobytes(), name


def _c45_arrays(tree):
    out = {}
    for name in _NODE_ARRAYS + _CHILD_ARRAYS:
        a = getattr(tree, name)
        if name == "branch_of_code":  # per node: None or an array
            a = np.array([repr(None if v is None else np.asarray(v).tolist()) for v in a])
        out[name] = np.asarray(a).tobytes()
    return out


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 600), n_classes=st.integers(2, 4), seed=st.integers(0, 10_000),
       ties=st.booleans(), missing=st.sampled_from([0.0, 0.1, 0.4]),
       weights=st.booleans(), leaf=st.integers(1, 4),
       algorithm=st.sampled_from(["c4.5", "id3-numeric", "gain_ratio"]))
def test_c45s_compiled_levels_grow_the_numpy_paths_tree(n, n_classes, seed, ties, missing,
                                                         weights, leaf, algorithm):
    require(_jit.available(), "the compiled kernels (numba; or DTREE_NO_JIT=1 is set)")
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4)).astype(np.float32)
    if ties:
        X = np.round(X, 1)
    y = ((X[:, 0] + rng.normal(size=n) > 0).astype(int) + rng.integers(0, n_classes - 1, n))
    X[rng.random(X.shape) < missing] = np.nan
    w = rng.uniform(0.2, 3.0, n) if weights else None
    params = {"c4.5": dict(algorithm="c4.5", min_samples_leaf=leaf),
              "id3-numeric": dict(criterion="entropy", missing="c4.5", min_samples_leaf=leaf),
              "gain_ratio": dict(criterion="gain_ratio", missing="c4.5",
                                 min_samples_leaf=leaf)}[algorithm]
    trees = []
    for compiled in (False, True):
        with pytest.MonkeyPatch.context() as m:
            if compiled:
                m.setattr(_jit, "JIT_MIN_ROWS", 0)
            else:
                m.setattr(_jit, "_KERNEL", False)
            trees.append(_c45_arrays(DecisionTreeClassifier(**params).fit(
                X, y, sample_weight=w).tree_))
    assert trees[0] == trees[1]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_the_steps_of_many_alphas_are_each_alphas(seed):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(120, 3)), 1)
    y = rng.integers(0, 3, 120)
    seq = pruning_sequence(DecisionTreeClassifier().fit(X, y).tree_)
    alphas = np.r_[0.0, seq.ccp_alphas, (seq.ccp_alphas[:-1] + seq.ccp_alphas[1:]) / 2,
                   np.inf, -1.0]
    assert seq.n_steps_for_each(alphas).tolist() == [seq.n_steps_for(a) for a in alphas]
