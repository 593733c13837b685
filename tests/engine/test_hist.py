"""splitter="hist": the histogram splitter (dtree/_hist.py).

* With at least as many bins as distinct values it grows the exact
  splitter's tree (property test over the random cases of
  tests/helpers/tree_cases.py, with and without missing values).
* With fewer bins, every training row goes the same way at every split on
  its raw value as on its bin, so ``apply``/``predict`` on raw data give the
  binned training (a walk over the bins is recomputed here from
  ``bin_lower_``/``bin_upper_``).
* Steps replay, candidate tables hold bin-edge thresholds, and parameters
  are validated.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree import _hist
from tests.helpers.oracle import impurity_scale
from tests.helpers.tree_cases import cases, uints
from tests.helpers.treecompare import split_decrease, compare_up_to_noise


def hist_clone(est, **extra):
    return type(est)(**dict(est.get_params(), splitter="hist", **extra))


def with_missing(draw, X):
    """X with some values (never a whole column) replaced by NaN."""
    if not draw(st.booleans()):
        return X
    u = uints(draw, X.size, np.uint8).reshape(X.shape)
    X = X.copy()
    X[u % 5 == 0] = np.nan
    return X


def compare_fits(hist, exact, scale):
    """The two trees agree node for node, up to summation noise, except
    below a node where two splits tie: equal improvement, or for gain ratio
    equal gain ratio (tests/helpers/treecompare.compare_up_to_noise, with the
    criterion's own ranking)."""
    if exact.max_features_ < exact.n_features_in_:
        return compare_in_growth_order(hist, exact, scale)
    if exact.criterion_ != "gain_ratio":
        return compare_up_to_noise(hist.tree_, exact.tree_, scale)
    ours, theirs = hist.tree_, exact.tree_
    step_h = {s.node: s for s in hist.steps_}
    step_e = {s.node: s for s in exact.steps_}
    stack = [(0, 0)]
    while stack:
        a, b = stack.pop()
        assert ours.n_node_samples[a] == theirs.n_node_samples[b]
        np.testing.assert_allclose(ours.impurity[a], theirs.impurity[b], rtol=1e-9, atol=1e-12)
        leaf_a, leaf_b = ours.children_left[a] == -1, theirs.children_left[b] == -1
        assert leaf_a == leaf_b, (a, b)
        if leaf_a:
            continue
        if ours.feature[a] != theirs.feature[b] or ours.threshold[a] != theirs.threshold[b]:
            ra, rb = step_h[a].gain_ratio, step_e[b].gain_ratio
            assert abs(ra - rb) <= 1e-9 * max(1.0, abs(rb)), (a, b, ra, rb)
            continue
        stack += [(ours.children_left[a], theirs.children_left[b]),
                  (ours.children_right[a], theirs.children_right[b])]


#: Large nodes are searched with histograms, small ones by sorting their rows
#: by bin (HistGrower.SORT_BELOW): the property tests force each way in turn.
SEARCHES = {"histograms": 0, "sorted bins": 10**9}


class search_by:
    def __init__(self, how):
        self.value = SEARCHES[how]

    def __enter__(self):
        self.saved = _hist.HistGrower.SORT_BELOW
        _hist.HistGrower.SORT_BELOW = self.value

    def __exit__(self, *exc):
        _hist.HistGrower.SORT_BELOW = self.saved


def scale_of(case):
    return 1.0 if case.task == "classification" else impurity_scale(case.y)


@pytest.mark.parametrize("how", SEARCHES)
@settings(deadline=None, max_examples=100)
@given(case=cases(max_features=True), data=st.data())
def test_enough_bins_give_the_exact_tree(how, case, data):
    assume(case.est.criterion != "absolute_error")
    case.X = with_missing(data.draw, case.X)
    exact = case.fit()
    # Whole weights only: with fractional weights (class_weight, sample
    # weights such as 0.1) the two splitters add the same weights in another
    # row order, and last-bit differences decide near-ties (leaf or split,
    # best-first order, misclassification's plateaus); see docs/scale.md
    assume(not fractional_weights(case))
    with search_by(how):
        hist = hist_clone(case.est).fit(case.X, case.y, sample_weight=case.sample_weight)
    note(f"exact {exact.tree_.node_count} nodes, hist {hist.tree_.node_count}")
    compare_fits(hist, exact, scale_of(case))
    # every sum exact (and no gain-ratio ties): identical trees, node for node
    if case.exact and case.est.criterion != "gain_ratio":
        for name in ("children_left", "children_right", "feature", "n_node_samples"):
            assert np.array_equal(getattr(hist.tree_, name), getattr(exact.tree_, name)), name
        assert np.array_equal(hist.tree_.threshold, exact.tree_.threshold)
        assert [s.node for s in hist.steps_] == [s.node for s in exact.steps_]


def fractional_weights(case):
    """Whether the rows' weights (sample or class weights) are not all whole."""
    w = case.weights if getattr(case, "weights", None) is not None else case.sample_weight
    return w is not None and bool(np.any(np.asarray(w) != np.round(np.asarray(w))))


def compare_in_growth_order(hist, exact, scale):
    """With random feature subsets (max_features < n_features) every search
    draws from one random stream, so a tie anywhere changes the draws of
    every node searched after it, in other subtrees too.  So the two fits
    are compared step by step in growth order: each split the same, until
    the first step where they differ, which must be a tie (equal decrease,
    or equal gain ratio); nothing after it is compared."""
    ours, theirs = hist.tree_, exact.tree_
    noise = 1e-9 * scale * theirs.weighted_n_node_samples[0]
    for sh, se in zip(hist.steps_, exact.steps_):
        a, b = sh.node, se.node
        assert a == b and ours.n_node_samples[a] == theirs.n_node_samples[b], (a, b)
        np.testing.assert_allclose(ours.impurity[a], theirs.impurity[b], rtol=1e-9, atol=1e-12)
        if ours.feature[a] != theirs.feature[b] or ours.threshold[a] != theirs.threshold[b]:
            if exact.criterion_ == "gain_ratio":
                assert abs(sh.gain_ratio - se.gain_ratio) <= 1e-9 * max(1.0, abs(se.gain_ratio))
            else:
                assert abs(split_decrease(ours, a) - split_decrease(theirs, b)) <= noise, (a, b)
            return
    assert len(hist.steps_) == len(exact.steps_)
    assert ours.node_count == theirs.node_count


def binned_apply(est, X):
    """The leaf of every row, walking the tree on bins only: at a split on
    feature f with threshold t, a row goes left when its whole bin lies at or
    below t (a missing value follows ``missing_child``)."""
    tree = est.tree_
    out = np.empty(len(X), dtype=np.intp)
    for i, row in enumerate(X):
        node = 0
        while tree.children_left[node] != -1:
            f, t = tree.feature[node], tree.threshold[node]
            x = row[f]
            if np.isnan(x):
                left = tree.missing_child[node] == 0
            else:
                upper = est.bin_upper_[f]
                b = np.searchsorted(upper, np.float32(x), side="left")
                assert est.bin_lower_[f][b] <= np.float32(x) <= upper[b]
                left = upper[b] <= t
                # the bin does not straddle the threshold
                assert left or est.bin_lower_[f][b] > t
            node = tree.children_left[node] if left else tree.children_right[node]
        out[i] = node
    return out


@pytest.mark.parametrize("how", SEARCHES)
@settings(deadline=None, max_examples=80)
@given(case=cases(max_features=True), max_bins=st.integers(2, 12), data=st.data())
def test_raw_values_and_bins_go_the_same_way(how, case, max_bins, data):
    assume(case.est.criterion != "absolute_error")
    case.X = with_missing(data.draw, case.X)
    with search_by(how):
        est = hist_clone(case.est, max_bins=max_bins).fit(case.X, case.y,
                                                         sample_weight=case.sample_weight)
    for f in range(case.X.shape[1]):
        assert len(est.bin_upper_[f]) <= max_bins
    rows = case.weights > 0
    X = case.X.astype(np.float32)[rows]
    assert np.array_equal(est.apply(case.X[rows]), binned_apply(est, X))
    # the chosen candidate's sizes (from the histograms) are the children's
    for step in est.steps_:
        chosen = step.candidates.iloc[0]
        assert chosen["feature_index"] == step.feature
        assert (chosen["n_left"], chosen["n_right"]) == (step.n_left, step.n_right)
        assert chosen["threshold"] == step.threshold


def test_quantile_bins_on_a_sampled_large_table(monkeypatch):
    """Over SAMPLE_ROWS rows the edges come from a sample, and every row
    still goes the same way on its raw value as on its bin."""
    monkeypatch.setattr(_hist, "SAMPLE_ROWS", 2_000)
    rng = np.random.default_rng(0)
    n = 20_000
    X = np.column_stack([rng.standard_normal(n), rng.lognormal(0, 3, n),
                         rng.integers(0, 40, n), rng.random(n)]).astype(np.float32)
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (np.nan_to_num(X[:, 0]) + 0.1 * np.nan_to_num(X[:, 2]) > 1).astype(int)
    est = DecisionTreeClassifier(splitter="hist", max_depth=6, max_bins=32).fit(X, y)
    assert [len(u) for u in est.bin_upper_][2] == 32  # 40 integers: quantile bins
    assert np.array_equal(est.apply(X), binned_apply(est, X))
    exact = DecisionTreeClassifier(max_depth=6).fit(X, y)
    assert est.score(X, y) > exact.score(X, y) - 0.02


@pytest.mark.parametrize("gen", ["normal", "lognormal", "ints"])
def test_digitize_is_searchsorted(gen):
    rng = np.random.default_rng(1)
    draw = {"normal": lambda n: rng.standard_normal(n),
            "lognormal": lambda n: rng.lognormal(0, 3, n),
            "ints": lambda n: rng.integers(0, 30, n)}[gen]
    for k in (1, 2, 7, 255):
        edges = np.unique(draw(k).astype(np.float32))
        x = np.r_[draw(150_000), edges].astype(np.float32)
        assert np.array_equal(_hist.digitize(edges, x), np.searchsorted(edges, x))


def test_categorical_features_are_their_own_bins():
    rng = np.random.default_rng(3)
    n = 600
    frame = pd.DataFrame({
        "colour": pd.Categorical(rng.choice(["red", "green", "blue", "grey"], n)),
        "size": rng.integers(0, 9, n).astype(float),
        "noise": rng.standard_normal(n),
    })
    frame.loc[rng.random(n) < 0.1, "colour"] = np.nan
    y = ((frame["colour"] == "red") | (frame["size"] > 6)).astype(int).to_numpy().copy()
    y[rng.random(n) < 0.1] ^= 1
    exact = DecisionTreeClassifier(max_depth=4).fit(frame, y)
    # 600 distinct noise values: one bin each with max_bins=1000 (uint16 codes)
    hist = DecisionTreeClassifier(max_depth=4, splitter="hist", max_bins=1000).fit(frame, y)
    compare_up_to_noise(hist.tree_, exact.tree_, 1.0)
    assert hist.bin_upper_[0] is None
    np.testing.assert_array_equal(hist.predict(frame), exact.predict(frame))


def test_regression_and_replay():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((3_000, 3))
    y = X[:, 0] ** 2 + 0.3 * rng.standard_normal(3_000)
    est = DecisionTreeRegressor(splitter="hist", max_bins=16, max_depth=5).fit(X, y)
    assert len(est.steps_) == est.tree_.node_count // 2
    full = est.tree_at(len(est.steps_))
    assert np.array_equal(full.n_node_samples, est.tree_.n_node_samples)
    for k, step in enumerate(est.steps_):
        part = est.tree_at(k + 1)
        assert part.node_count == 2 * (k + 1) + 1
        table = step.candidates
        f = step.feature
        # every candidate threshold is halfway between the largest value of a
        # bin and the smallest value of a later bin (the next one in the node)
        for _, row in table.dropna(subset=["threshold"]).iterrows():
            lo, hi = est.bin_lower_[row["feature_index"]], est.bin_upper_[row["feature_index"]]
            halfway = hi[:, None] / 2.0 + lo[None, :] / 2.0
            later = np.arange(len(lo))[None, :] > np.arange(len(hi))[:, None]
            assert (later & (halfway == row["threshold"])).any()
        assert table.iloc[0]["feature_index"] == f
    assert est.score(X, y) > 0.6


def test_best_first_and_budgets_match_the_exact_splitter():
    rng = np.random.default_rng(5)
    X = rng.integers(0, 30, (2_000, 4)).astype(float)
    y = (X[:, 0] + rng.integers(0, 20, 2_000) > 25).astype(int)
    for params in (dict(max_leaf_nodes=9), dict(growth="breadth_first", max_leaf_nodes=6),
                   dict(growth="depth_first", max_leaf_nodes=6), dict(min_samples_leaf=30)):
        exact = DecisionTreeClassifier(**params).fit(X, y)
        hist = DecisionTreeClassifier(splitter="hist", **params).fit(X, y)
        for name in ("children_left", "feature", "threshold", "n_node_samples"):
            assert np.array_equal(getattr(hist.tree_, name), getattr(exact.tree_, name)), params


@pytest.mark.parametrize("value", [1, 0, -3, 2.5, "many", None, 70_000])
def test_max_bins_is_validated(value):
    with pytest.raises(ValueError, match="max_bins"):
        DecisionTreeClassifier(splitter="hist", max_bins=value).fit([[0.0], [1.0]], [0, 1])


@pytest.mark.parametrize("params", [dict(algorithm="c4.5"), dict(algorithm="j48"),
                                    dict(multiway=True), dict(missing="c4.5"),
                                    dict(algorithm="id3")])
def test_hist_refuses_what_it_cannot_bin(params):
    with pytest.raises(ValueError, match="splitter='hist'"):
        DecisionTreeClassifier(splitter="hist", **params).fit([[0.0], [1.0]], [0, 1])


def test_hist_refuses_absolute_error():
    with pytest.raises(ValueError, match="absolute_error"):
        DecisionTreeRegressor(splitter="hist", criterion="absolute_error").fit(
            [[0.0], [1.0]], [0.0, 1.0])


def test_unknown_splitter_names_hist():
    with pytest.raises(ValueError, match="'hist'"):
        DecisionTreeClassifier(splitter="fast").fit([[0.0], [1.0]], [0, 1])


def test_the_gain_curve_runs_over_the_bin_edges():
    from dtree.views import explain

    rng = np.random.default_rng(6)
    X = rng.standard_normal((4_000, 2))
    y = (X[:, 0] + 0.5 * rng.standard_normal(4_000) > 0.3).astype(int)
    est = DecisionTreeClassifier(splitter="hist", max_bins=20, max_depth=2).fit(X, y)
    table = est.candidates(0).set_index("feature_index")
    for f in range(2):
        bins = (est.bin_lower_[f], est.bin_upper_[f])
        curve = explain.threshold_curve(X[:, f], y, "gini", 2, bins=bins)
        assert len(curve) == len(est.bin_upper_[f]) - 1  # one candidate per edge
        best = curve.loc[curve["gain"].idxmax()]
        assert best["threshold"] == table.loc[f, "threshold"]
        assert np.isclose(best["gain"], table.loc[f, "gain"], rtol=1e-12)


def test_a_one_class_child_is_pure_under_weights_as_in_the_exact_splitter():
    """Under weights of 0.1 a child's weight summed in another order than its
    class weights differed in the last bit, so a one-class child had entropy
    3e-16 and was searched (and drew features) where the exact splitter
    stops it as pure."""
    X = np.arange(60, dtype=float)[:, None]
    y = (X[:, 0] >= 49).astype(int)
    y[51] = 0
    w = np.full(60, 0.1)
    fits = [DecisionTreeClassifier(splitter=s, criterion="entropy", max_depth=1)
            .fit(X, y, sample_weight=w) for s in ("hist", "best")]
    hist, exact = (f.tree_ for f in fits)
    assert hist.impurity[1] == 0.0 and list(hist.stop_reason) == list(exact.stop_reason)
    assert hist.stop_reason[1] == "pure"
