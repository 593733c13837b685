"""Sparse X (SciPy CSR, CSC and COO, matrices and arrays).

The oracles: the same estimator fitted on the dense array (``X.toarray()``)
and scikit-learn fitted on the same sparse matrix.  A sparse X of at most
``DENSE_CELLS`` cells is grown by the dense search; the properties below set
it to 0 so that the sparse search itself is what they check.

Its running sums add the rows that store nothing for a feature as one block,
so they are the dense search's sums added in another order.  Class counts,
integer targets and dyadic weights (k / 4) make every sum exact whatever the
order, and then the two trees must be equal bit for bit (with float targets,
and Poisson's sums of y ln y, two splits tied up to rounding may be chosen
differently, see docs/engine.md).
"""

import subprocess
import sys
import tracemalloc
from unittest import mock

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dtree import CodedError, DecisionTreeClassifier, DecisionTreeRegressor
from dtree import _sparse_input
from tests.helpers.sklearn_match import assert_matches_sklearn
from tests.helpers.treecompare import MAX_SKIPPED, walk_trees

sparse = pytest.importorskip("scipy.sparse")

FORMATS = (sparse.csr_matrix, sparse.csc_matrix, sparse.coo_matrix, sparse.csr_array,
           sparse.csc_array)
FIELDS = ("feature", "threshold", "children_left", "children_right", "value", "impurity",
          "n_node_samples", "weighted_n_node_samples")


def tree_bytes(model):
    return {k: np.asarray(getattr(model.tree_, k)).tobytes() for k in FIELDS}


def sparse_search():
    """Every sparse fit in the block uses the sparse search, however small."""
    return mock.patch.object(_sparse_input, "DENSE_CELLS", 0)


@st.composite
def sparse_problems(draw):
    n = draw(st.integers(4, 60))
    F = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    # few distinct values, negative and positive, so that ties and equal
    # values across the zero block are common
    values = np.array([-3.0, -1.5, -0.25, 0.5, 1.0, 2.0, 7.25], dtype=np.float32)
    density = draw(st.sampled_from([0.05, 0.3, 0.7, 1.0]))
    X = np.where(rng.random((n, F)) < density, rng.choice(values, (n, F)), 0).astype(np.float32)
    if F > 1 and draw(st.booleans()):
        X[:, rng.integers(F)] = 0  # an empty column
    classify = draw(st.booleans())
    y = rng.integers(0, draw(st.integers(2, 4)), n) if classify else rng.integers(-5, 20, n)
    w = None
    if draw(st.booleans()):
        w = rng.integers(0, 8, n) / 4.0  # dyadic: exact sums; zeros drop rows
        w[0] = 1.0
    if classify:
        criterion = draw(st.sampled_from(["gini", "entropy", "misclassification", "taylor2",
                                          "gain_ratio"]))
    else:
        criterion = draw(st.sampled_from(["squared_error", "absolute_error", "poisson"]))
        if criterion == "poisson":
            y = np.abs(y) + (np.arange(n) == 0)  # y >= 0 with a positive sum
    params = draw(st.fixed_dictionaries({}, optional={
        "max_depth": st.integers(1, 5),
        "min_samples_leaf": st.integers(1, 4),
        "min_samples_split": st.integers(2, 8),
        "max_leaf_nodes": st.integers(2, 12),
        "max_features": st.integers(1, F),
        "min_weight_fraction_leaf": st.sampled_from([0.0, 0.05, 0.2]),
        "splitter": st.just("random"),
        "growth": st.sampled_from(["depth_first", "breadth_first", "best_first"]),
    }))
    params["random_state"] = draw(st.integers(0, 5))
    params["criterion"] = criterion
    # the stored entries: explicit zeros among them, in any order, some duplicated
    rows, cols = np.nonzero((X != 0) | (rng.random((n, F)) < 0.2))
    keep = X[rows, cols]
    return X, y, w, classify, params, (rows, cols, keep)


@settings(max_examples=60, deadline=None)
@given(sparse_problems())
def test_every_sparse_format_grows_the_dense_tree_bit_for_bit(problem):
    X, y, w, classify, params, (rows, cols, vals) = problem
    Estimator = DecisionTreeClassifier if classify else DecisionTreeRegressor
    dense = Estimator(**params).fit(X, y, sample_weight=w)
    # a COO with explicit zeros and a duplicated entry (halves that SciPy sums)
    half = vals / 2
    coo = sparse.coo_matrix((np.r_[half, half], (np.r_[rows, rows], np.r_[cols, cols])),
                            shape=X.shape)
    with sparse_search():
        for make in FORMATS:
            Xs = make(coo)
            model = Estimator(**params).fit(Xs, y, sample_weight=w)
            if params["criterion"] == "poisson":
                # its impurity sums w y ln y, which no order adds exactly: the
                # trees agree node for node, up to splits tied to the last bit.
                # A tie near the root of a small tree leaves nothing below it
                # to compare: such an example says nothing, so it is drawn again
                walk = walk_trees(model.tree_, dense.tree_)
                assume(walk.skipped <= MAX_SKIPPED * walk.total)
                continue
            assert tree_bytes(model) == tree_bytes(dense), make.__name__
            assert np.array_equal(model.apply(Xs), dense.apply(X))
            assert np.array_equal(model.decision_path(Xs).toarray(),
                                  dense.decision_path(X).toarray())
            assert np.array_equal(model.predict(Xs), dense.predict(X))
            if classify:
                assert np.array_equal(model.predict_proba(Xs), dense.predict_proba(X))
            assert np.array_equal(model.tree_.apply(Xs), dense.tree_.apply(X))


@settings(max_examples=40, deadline=None)
@given(problem=sparse_problems(), outputs=st.integers(2, 3), seed=st.integers(0, 2**32 - 1))
def test_several_outputs_grow_the_dense_tree_bit_for_bit(problem, outputs, seed):
    """y of several columns: the sparse search reads every output's sums, as
    the dense search does (dense multi-output trees are checked against
    scikit-learn in test_multioutput.py)."""
    X, y, w, classify, params, _ = problem
    if params["criterion"] in ("gain_ratio", "poisson"):  # (refused; sums of y ln y)
        params["criterion"] = "entropy" if classify else "squared_error"
    rng = np.random.default_rng(seed)
    Y = np.column_stack([y] + [rng.permutation(y) for _ in range(outputs - 1)])
    Estimator = DecisionTreeClassifier if classify else DecisionTreeRegressor
    dense = Estimator(**params).fit(X, Y, sample_weight=w)
    with sparse_search():
        for make in (sparse.csr_matrix, sparse.csc_array):
            model = Estimator(**params).fit(make(X), Y, sample_weight=w)
            assert tree_bytes(model) == tree_bytes(dense), make.__name__
            assert np.array_equal(model.predict(make(X)), dense.predict(X))
            if classify:
                for ours, theirs in zip(model.predict_proba(make(X)), dense.predict_proba(X),
                                        strict=True):
                    assert np.array_equal(ours, theirs)


def test_the_sparse_search_matches_scikit_learn_on_sparse_input():
    """scikit-learn's sparse splitter and dtree's sparse search, every node.

    Where two splits gain exactly as much, scikit-learn's random feature
    order may choose the other one: then its tree is regrown, from its rows
    of the sparse matrix, below dtree's split (``assert_matches_sklearn``).
    The ties must be the dense input's, at most two a tree, and most setups
    have none."""
    skl = pytest.importorskip("sklearn.tree")
    rng = np.random.default_rng(7)
    n, F = 600, 40
    X = sparse.random(n, F, density=0.3, format="csc", random_state=3, dtype=np.float32)
    X.data = (rng.normal(size=X.nnz) * 3).astype(np.float32)
    dense = X.toarray()
    y = (dense[:, 0] - dense[:, 1] + dense[:, 2] * 2 + rng.normal(size=n) > 0).astype(int)
    y[rng.random(n) < 0.1] = 2
    # integer targets: exact sums in any order (see the module docstring)
    target = np.round(100 * (dense[:, 3] * 10 + dense[:, 4] * dense[:, 5] + rng.normal(size=n)))
    clf, reg = (DecisionTreeClassifier, skl.DecisionTreeClassifier, y), (
        DecisionTreeRegressor, skl.DecisionTreeRegressor, target)
    setups = [(clf, dict(criterion="gini", min_samples_leaf=10)),
              (clf, dict(criterion="entropy", min_samples_leaf=10)),
              (clf, dict(max_leaf_nodes=20)),
              (reg, dict(min_samples_leaf=10)),
              (reg, dict(max_depth=4)),
              (reg, dict(criterion="absolute_error", max_depth=4)),
              (reg, dict(criterion="poisson", max_depth=4))]
    tie_free = 0
    with sparse_search():
        for (ours_cls, theirs_cls, t), params in setups:
            if params.get("criterion") == "poisson":
                t = np.abs(t)
            for w, make in ((None, sparse.csc_matrix), (rng.integers(1, 5, n) / 2.0,
                                                         sparse.csr_array)):
                Xs = make(X)
                ours = ours_cls(**params).fit(Xs, t, sample_weight=w)
                ours_dense = ours_cls(**params).fit(dense, t, sample_weight=w)
                theirs = theirs_cls(random_state=0, **params).fit(Xs, t, sample_weight=w)
                theirs_dense = theirs_cls(random_state=0, **params).fit(dense, t, sample_weight=w)
                assert ours.tree_.node_count > 20
                if params.get("criterion") != "poisson":
                    assert tree_bytes(ours) == tree_bytes(ours_dense), params
                ties = assert_matches_sklearn(ours, theirs, Xs, t, w)
                dense_ties = assert_matches_sklearn(ours_dense, theirs_dense, dense, t, w)
                assert ties == dense_ties <= 2, params
                tie_free += ties == 0
    assert tie_free >= 8


def test_tree_apply_takes_a_csr_matrix_as_scikit_learns_does():
    rng = np.random.default_rng(0)
    X = np.where(rng.random((80, 6)) < 0.5, rng.normal(size=(80, 6)), 0).astype(np.float32)
    y = (X[:, 0] > X[:, 1]).astype(int)
    model = DecisionTreeClassifier().fit(X, y)
    for make in FORMATS:
        assert np.array_equal(model.tree_.apply(make(X)), model.apply(X))
        assert np.array_equal(model.tree_.predict(make(X)), model.tree_.predict(X))


def test_id3_and_c45_grow_the_dense_tree_from_sparse_input():
    """No missing values can be stored in a sparse X, so Quinlan's presets
    split numeric features at thresholds exactly as on the dense array."""
    rng = np.random.default_rng(5)
    X = np.where(rng.random((200, 5)) < 0.4, rng.integers(-3, 4, (200, 5)), 0).astype(float)
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    with sparse_search():
        for algorithm in ("id3", "c4.5", "cart"):
            dense = DecisionTreeClassifier(algorithm=algorithm).fit(X, y)
            model = DecisionTreeClassifier(algorithm=algorithm).fit(sparse.csr_matrix(X), y)
            assert dense.tree_.node_count > 3
            assert tree_bytes(model) == tree_bytes(dense)


@pytest.mark.parametrize("params, code", [
    (dict(algorithm="j48"), "sparse_refused"),
    (dict(splitter="hist"), "hist_refused"),
    (dict(categorical_features=[0]), "sparse_refused"),
    (dict(forced_splits={"feature": 0, "threshold": 0.5}), "forced_refused"),
])
def test_what_sparse_input_cannot_grow_is_refused_by_name(params, code):
    X = sparse.csr_matrix(np.eye(6))
    with pytest.raises(CodedError) as err:
        DecisionTreeClassifier(**params).fit(X, np.arange(6) % 2)
    assert err.value.code == code and "sparse" in str(err.value)


@pytest.mark.parametrize("bad, words", [(np.nan, "NaN"), (np.inf, "infinity"),
                                        (1e39, "infinity")])
def test_nan_and_infinity_in_sparse_input_are_refused(bad, words):
    X = sparse.csr_matrix(np.eye(6))
    X.data[2] = bad
    with pytest.raises(ValueError, match=words):
        DecisionTreeClassifier().fit(X, np.arange(6) % 2)
    model = DecisionTreeClassifier().fit(np.eye(6), np.arange(6) % 2)
    with pytest.raises(ValueError, match=words):
        model.predict(X)


def test_a_tree_with_categorical_features_refuses_sparse_rows_to_predict():
    import pandas as pd

    table = pd.DataFrame({"c": pd.Categorical(list("abab")), "x": [0.0, 1, 2, 3]})
    model = DecisionTreeClassifier().fit(table, [0, 1, 0, 1])
    with pytest.raises(CodedError, match="categorical"):
        model.predict(sparse.csr_matrix(np.ones((2, 2))))


def test_the_callers_matrix_is_left_as_it_was():
    X = sparse.csr_matrix((np.array([1.0, 2.0, 3.0]), np.array([1, 1, 0]),
                           np.array([0, 2, 3, 3])), shape=(3, 2))  # duplicates in row 0
    before = [a.copy() for a in (X.data, X.indices, X.indptr)]
    with sparse_search():
        DecisionTreeRegressor().fit(X, [1.0, 2.0, 3.0])
    for a, b in zip((X.data, X.indices, X.indptr), before):
        assert np.array_equal(a, b)


def test_dtree_does_not_import_scipy_for_dense_input():
    """(but ``decision_path``, whose answer is SciPy's CSR matrix)"""
    code = ("import sys, numpy as np\n"
            "from dtree import DecisionTreeClassifier\n"
            "m = DecisionTreeClassifier().fit(np.eye(4), [0, 1, 0, 1])\n"
            "m.predict(np.eye(4)); m.apply(np.eye(4)); m.predict_proba(np.eye(4))\n"
            "print('scipy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_a_wide_sparse_fit_holds_memory_in_proportion_to_its_non_zeros():
    """20,000 rows x 2,000 features at 0.25%: the dense float32 array alone
    would be 160 MB; the fit's peak (tracemalloc) stays within a bound per
    stored value and per row (see docs/engine.md for the measured figures)."""
    n, F = 20_000, 2_000
    X = sparse.random(n, F, density=0.0025, format="csr", random_state=1, dtype=np.float32)
    X.data -= np.float32(0.5)
    rng = np.random.default_rng(1)
    informative = np.where(np.arange(F) < 40, rng.normal(size=F), 0.0)
    y = (np.asarray(X @ informative).ravel() > 0).astype(int)
    tracemalloc.start()
    try:
        model = DecisionTreeClassifier(max_depth=12, record_candidates=False).fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert model.tree_.max_depth == 12
    assert X.nnz * 200 < n * F * 4  # the bound below is far from densifying
    print(f"peak {peak / X.nnz:.0f} bytes per non-zero")
    assert peak <= 200 * X.nnz, peak / X.nnz
