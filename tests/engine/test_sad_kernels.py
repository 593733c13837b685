"""The absolute-error search's running sums: the compiled kernel (numba, when
installed) and the NumPy path (a wavelet-matrix binary search over every
prefix) both equal the two-heap rule of dtree._median.sad_prefix, and a tree
grown on either path is scikit-learn's."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from dtree import DecisionTreeRegressor, _jit, _median
from tests.helpers.sklearn_match import assert_matches_sklearn
from tests.helpers.installed import require

segments = st.lists(st.integers(0, 40), min_size=1, max_size=6)


def _data(sizes, seed, ties, weights):
    rng = np.random.default_rng(seed)
    n = int(sum(sizes))
    y = rng.integers(0, 4, n).astype(float) if ties else rng.normal(size=n) * 10
    w = {"ones": np.ones(n), "integers": rng.integers(1, 5, n).astype(float),
         "fractions": rng.random(n) + 0.01}[weights]
    starts = np.cumsum(sizes) - np.asarray(sizes)
    return y, w, starts, np.asarray(sizes)


def _heaps(y, w, starts, sizes):
    out = [_median.sad_prefix(y[a:a + s], w[a:a + s]) for a, s in zip(starts, sizes)]
    return np.concatenate(out) if out else np.zeros(0)


@settings(max_examples=80, deadline=None)
@given(segments, st.integers(0, 10_000), st.booleans(),
       st.sampled_from(["ones", "integers", "fractions"]))
def test_numpy_path_equals_the_two_heaps(sizes, seed, ties, weights):
    y, w, starts, sizes = _data(sizes, seed, ties, weights)
    got = _median._sad_prefix_numpy(y, w, starts, sizes)
    want = _heaps(y, w, starts, sizes)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(y).max(initial=0)))


@settings(max_examples=80, deadline=None)
@given(segments, st.integers(0, 10_000), st.booleans(),
       st.sampled_from(["ones", "integers", "fractions"]))
def test_compiled_kernel_is_bit_identical_to_the_two_heaps(sizes, seed, ties, weights):
    require(_jit.available(), "the compiled kernel (numba; or DTREE_NO_JIT=1 is set)")
    y, w, starts, sizes = _data(sizes, seed, ties, weights)
    out = np.zeros(len(y))
    if len(y):
        _jit._load()(y, w, starts.astype(np.int64), sizes.astype(np.int64), out)
    np.testing.assert_array_equal(out,
                                  _heaps(y, w, starts, sizes))


def test_a_segment_of_one_row_costs_nothing_and_rows_outside_segments_are_zero(monkeypatch):
    monkeypatch.setattr(_jit, "JIT_MIN_ROWS", 0)
    y, w = np.array([5.0, 1.0, 2.0, 9.0]), np.ones(4)
    for fn in (_median._sad_prefix_numpy, _median.sad_prefix_segments):
        np.testing.assert_array_equal(fn(y, w, [1, 3], [2, 1]), [0.0, 0.0, 1.0, 0.0])


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(0, 60), st.integers(0, 10_000), st.booleans())
def test_group_deviations_equal_the_one_group_rule(k, extra, seed, ties):
    rng = np.random.default_rng(seed)
    g = np.concatenate([np.arange(k), rng.integers(0, k, extra)])
    y = rng.integers(0, 4, len(g)).astype(float) if ties else rng.normal(size=len(g))
    w = rng.integers(1, 4, len(g)) / 2.0
    got = _median.group_mean_absolute_deviations(g, y, w, k)
    want = [_median.mean_absolute_deviation(y[g == i], w[g == i]) for i in range(k)]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("compiled", [True, False])
def test_absolute_error_tree_is_scikit_learns_on_either_path(compiled, monkeypatch):
    if compiled:
        require(_jit.available(), "the compiled kernel (numba; or DTREE_NO_JIT=1 is set)")
    if compiled:
        monkeypatch.setattr(_jit, "JIT_MIN_ROWS", 0)
    else:
        monkeypatch.setattr(_jit, "_KERNEL", False)
    rng = np.random.default_rng(7)
    X = rng.normal(size=(600, 4)).astype(np.float32)
    y = X[:, 0] * 2 + rng.normal(size=600)
    ours = DecisionTreeRegressor(criterion="absolute_error", max_depth=6).fit(X, y)
    sk = SkRegressor(criterion="absolute_error", max_depth=6, random_state=0).fit(X, y)
    # small nodes of absolute error often tie exactly (splitting off one end
    # row): the reference breaks those ties as dtree does
    assert_matches_sklearn(ours, sk, X, y)


def test_small_searches_do_not_load_numba(monkeypatch):
    monkeypatch.setattr(_jit, "_KERNEL", None)
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(300, 3)), rng.normal(size=300)
    DecisionTreeRegressor(criterion="absolute_error").fit(X, y)
    assert _jit._KERNEL is None  # 900 rows over the features: the NumPy path
