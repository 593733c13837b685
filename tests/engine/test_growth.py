"""Growth-order semantics: best-first, depth-first and breadth-first, with and
without a leaf budget; the recorded candidate tables; and a small table worked
by hand.

Best-first and depth-first trees are checked node for node against
scikit-learn (X cast to float32 first, see docs/testing.md); breadth-first,
which scikit-learn does not have, against dtree's own unbudgeted trees.
"""

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from sklearn.datasets import make_classification, make_regression
from sklearn.tree import DecisionTreeClassifier as SkClassifier
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from tests.helpers.oracle import (binary_entropy, class_counts, class_impurity,
                          reg_impurity, valid_cuts)
from tests.helpers.tree_cases import cases
from tests.helpers.sklearn_match import assert_matches_sklearn, sklearn_reference
from tests.helpers.treecompare import assert_same_ids, compare_trees

# --------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def continuous_data(n_classes=3, seed=0):
    """300 rows of continuous features (no ties inside a feature), float32 values."""
    X, y = make_classification(n_samples=300, n_features=6, n_informative=4,
                               n_redundant=0, n_classes=n_classes, random_state=seed)
    X = X.astype(np.float32).astype(np.float64)
    for col in X.T:
        assert len(np.unique(col)) == len(col)
    X.setflags(write=False)
    y.setflags(write=False)
    return X, y


@functools.lru_cache(maxsize=None)
def regression_data():
    X, y = make_regression(n_samples=200, n_features=4, noise=5.0, random_state=1)
    X = X.astype(np.float32).astype(np.float64)
    X.setflags(write=False)
    return X, y


@functools.lru_cache(maxsize=None)
def tied_data():
    """Few distinct values per feature: many exact ties."""
    rng = np.random.default_rng(7)
    X = rng.integers(0, 5, size=(90, 4)).astype(np.float64)
    y = (X[:, 0] + X[:, 1] * (X[:, 2] > 1) + rng.integers(0, 3, 90)) % 3
    return X, y.astype(int)


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def frontier_improvements(est, k):
    """Improvements of the nodes waiting to be split after k steps: leaves of
    tree_at(k) that are split later or were stopped by the leaf budget."""
    sub = est.tree_at(k)
    full = est.tree_
    leaf = sub.children_left == -1
    ids = sub.node_ids[leaf]
    waiting = (full.children_left[ids] != -1) | (full.stop_reason[ids] == "leaf budget")
    imp = full.split_improvement[ids[waiting]]
    assert not np.any(np.isnan(imp)), "a waiting node has no recorded split"
    return imp


def embed(small, big):
    """Node ids of ``big`` reached by the same root paths as the nodes of
    ``small``; every split of ``small`` must be a split of ``big``."""
    mapping = np.full(small.node_count, -1)
    stack = [(0, 0)]
    while stack:
        a, b = stack.pop()
        mapping[a] = b
        assert small.n_node_samples[a] == big.n_node_samples[b]
        if small.children_left[a] == -1:
            continue
        assert big.children_left[b] != -1, f"small splits node {a}, big node {b} is a leaf"
        assert small.feature[a] == big.feature[b] and small.threshold[a] == big.threshold[b]
        stack.append((small.children_left[a], big.children_left[b]))
        stack.append((small.children_right[a], big.children_right[b]))
    return mapping


def internal_of(tree):
    return np.flatnonzero(tree.children_left != -1)


def preorder_ids(tree):
    out, stack = [], [0]
    while stack:
        node = stack.pop()
        out.append(node)
        if tree.children_left[node] != -1:
            stack += [tree.children_right[node], tree.children_left[node]]
    return out


def level_order_ids(tree):
    out = [0]
    for node in out:
        if tree.children_left[node] != -1:
            out += [tree.children_left[node], tree.children_right[node]]
    return out


def first_tied_pop(est, tol=1e-12):
    """The first k at which the largest waiting improvement is shared by two
    nodes (so the k+1-th split could be either), or len(steps_)."""
    for k in range(len(est.steps_)):
        imp = np.sort(frontier_improvements(est, k))[::-1]
        if len(imp) > 1 and imp[0] - imp[1] <= tol * max(1.0, abs(imp[0])):
            return k
    return len(est.steps_)


def first_feature_tie(est, tol=1e-12):
    """The first step whose node had another feature with the same best gain
    (scikit-learn may take either, and the trees then grow apart), or len(steps_)."""
    for step in est.steps_:
        gains = step.candidates["gain"].to_numpy()
        if np.any(np.abs(gains[1:] - gains[0]) <= tol * max(1.0, abs(gains[0]))):
            return step.index
    return len(est.steps_)


# --------------------------------------------------------------------------
# best-first
# --------------------------------------------------------------------------

def check_prefix_against_sklearn(est, X, y, k_max, sample_weight=None, **params):
    # k = 0: scikit-learn needs max_leaf_nodes >= 2, so compare with its root
    sub = est.tree_at(0)
    sk = SkClassifier(max_leaf_nodes=2, random_state=0, **params).fit(
        X, y, sample_weight=sample_weight)
    assert sub.node_count == 1 and sub.children_left[0] == -1
    assert sub.n_node_samples[0] == sk.tree_.n_node_samples[0]
    np.testing.assert_allclose(sub.impurity[0], sk.tree_.impurity[0], rtol=1e-12)
    np.testing.assert_allclose(sub.value[0], sk.tree_.value[0], rtol=1e-12)
    checked = 0
    for k in range(1, k_max + 1):
        sk = SkClassifier(max_leaf_nodes=k + 1, random_state=0, **params).fit(
            X, y, sample_weight=sample_weight)
        sub = est.tree_at(k)
        ref, _ = sklearn_reference(sub, sk, X, y, sample_weight)  # ties broken as dtree's
        assert_same_ids(sub, ref)
        checked += 1
    return checked


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_best_first_prefixes_match_sklearn_max_leaf_nodes(criterion):
    X, y = continuous_data()
    est = DecisionTreeClassifier(criterion=criterion, growth="best_first").fit(X, y)
    assert est.growth_ == "best_first"
    # equal improvements waiting in the heap may be popped in either order, and
    # a node where two features tie may be split either way; the prefixes are
    # unambiguous up to the first such tie
    k_max = min(first_tied_pop(est), first_feature_tie(est) + 1)
    assert k_max >= 8, "dataset chosen so that the first splits are unambiguous"
    check_prefix_against_sklearn(est, X, y, k_max, criterion=criterion)


def test_best_first_prefixes_match_sklearn_with_continuous_weights():
    # continuous weights make every improvement distinct: all prefixes compare
    X, y = continuous_data(n_classes=2, seed=3)
    w = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    est = DecisionTreeClassifier(max_leaf_nodes=10_000).fit(X, y, sample_weight=w)
    assert est.growth_ == "best_first"
    k_max = min(first_tied_pop(est), first_feature_tie(est) + 1)
    assert k_max >= len(est.steps_)
    assert check_prefix_against_sklearn(est, X, y, k_max, sample_weight=w) == len(est.steps_)


def test_best_first_budget_equals_prefix_of_unbudgeted_best_first():
    X, y = continuous_data()
    full = DecisionTreeClassifier(growth="best_first").fit(X, y)
    k_max = first_tied_pop(full)
    for leaves in (2, 3, 5, 8, k_max + 1):
        small = DecisionTreeClassifier(max_leaf_nodes=leaves).fit(X, y)
        assert small.growth_ == "best_first"
        assert len(small.steps_) == leaves - 1 and small.get_n_leaves() == leaves
        for name in ("children_left", "children_right", "feature", "threshold",
                     "n_node_samples", "impurity", "value"):
            np.testing.assert_array_equal(getattr(small.tree_, name),
                                          getattr(full.tree_at(leaves - 1), name), err_msg=name)
        assert [s.node for s in small.steps_] == list(
            np.searchsorted(full.tree_at(leaves - 1).node_ids, [s.node for s in full.steps_[:leaves - 1]]))
        reasons = small.tree_.stop_reason[small.tree_.children_left == -1]
        assert "leaf budget" in reasons or leaves - 1 == len(full.steps_)


@settings(deadline=None)
@given(cases(task="classification"))
def test_best_first_pops_the_largest_waiting_improvement(case):
    case.est.set_params(growth="best_first")
    est = case.fit()
    for k, step in enumerate(est.steps_):
        waiting = frontier_improvements(est, k)
        assert step.improvement in waiting
        assert step.improvement >= waiting.max() - 1e-15, (k, step, waiting)
    # ids follow creation order: children are numbered when their parent is split
    nodes = [s.node for s in est.steps_]
    lefts = [s.left for s in est.steps_]
    assert lefts == sorted(lefts) and all(s.right == s.left + 1 for s in est.steps_)
    assert all(a < b for a, b in zip(lefts, lefts[1:]))
    assert all(n < left for n, left in zip(nodes, lefts))


@settings(deadline=None)
@given(cases(task="regression"))
def test_best_first_pops_the_largest_waiting_improvement_regression(case):
    case.est.set_params(growth="best_first")
    est = case.fit()
    scale = max(1.0, float(np.max(case.y ** 2)))
    for k, step in enumerate(est.steps_):
        waiting = frontier_improvements(est, k)
        assert step.improvement >= waiting.max() - 1e-12 * scale


# --------------------------------------------------------------------------
# depth-first
# --------------------------------------------------------------------------

DEPTH_FIRST_CASES = [
    pytest.param(dict(), False, id="default"),
    pytest.param(dict(criterion="entropy"), False, id="entropy"),
    pytest.param(dict(criterion="log_loss", max_depth=4), False, id="log_loss-depth4"),
    pytest.param(dict(min_samples_leaf=5, min_samples_split=12), False, id="min-samples"),
    pytest.param(dict(min_samples_leaf=0.03, min_samples_split=0.1), False, id="min-samples-float"),
    pytest.param(dict(min_impurity_decrease=0.005), False, id="min-impurity-decrease"),
    pytest.param(dict(min_weight_fraction_leaf=0.02, max_depth=6), False, id="min-weight-fraction"),
    pytest.param(dict(min_weight_fraction_leaf=0.03), True, id="min-weight-fraction-weighted"),
    pytest.param(dict(class_weight="balanced", max_depth=5), False, id="balanced"),
    pytest.param(dict(class_weight={0: 3.0, 2: 0.5}, criterion="entropy"), True,
                 id="class-weight-dict-weighted"),
]


@pytest.mark.parametrize("params, weighted", DEPTH_FIRST_CASES)
def test_depth_first_equals_sklearn_and_is_preorder(params, weighted):
    X, y = continuous_data()
    # weights far from 1 on average, so that weight fractions differ from count fractions
    w = np.random.default_rng(5).uniform(1.0, 6.0, len(y)) if weighted else None
    est = DecisionTreeClassifier(**params).fit(X, y, sample_weight=w)
    assert est.growth_ == "depth_first"
    t = est.tree_
    assert preorder_ids(t) == list(range(t.node_count))
    nodes = [s.node for s in est.steps_]
    assert nodes == sorted(nodes) and nodes == list(internal_of(t))
    sk = SkClassifier(random_state=0, **params).fit(X, y, sample_weight=w)
    assert_matches_sklearn(est, sk, X, y, w)  # every node and id, ties broken as dtree's


@pytest.mark.parametrize("criterion", ["squared_error", "absolute_error", "poisson"])
def test_depth_first_regressor_equals_sklearn(criterion):
    X, y = regression_data()
    if criterion == "poisson":
        y = np.exp(y / 100.0)
    params = dict(criterion=criterion, max_depth=6 if criterion == "absolute_error" else None)
    est = DecisionTreeRegressor(**params).fit(X, y)
    sk = SkRegressor(random_state=0, **params).fit(X, y)
    assert_matches_sklearn(est, sk, X, y)  # every node and id, ties broken as dtree's


@pytest.mark.parametrize("leaves", [2, 3, 4, 7, 12, 20])
def test_depth_first_budget_takes_a_preorder_prefix(leaves):
    X, y = continuous_data()
    full = DecisionTreeClassifier(growth="depth_first").fit(X, y)
    small = DecisionTreeClassifier(growth="depth_first", max_leaf_nodes=leaves).fit(X, y)
    assert small.growth_ == "depth_first"
    t = small.tree_
    assert preorder_ids(t) == list(range(t.node_count))
    nodes = [s.node for s in small.steps_]
    assert nodes == sorted(nodes)
    n_splits = min(leaves - 1, len(full.steps_))
    assert len(small.steps_) == n_splits and small.get_n_leaves() == n_splits + 1
    mapping = embed(t, full.tree_)
    # full's ids are pre-order, so its first splits in pre-order are its smallest internal ids
    np.testing.assert_array_equal(np.sort(mapping[internal_of(t)]), internal_of(full.tree_)[:n_splits])
    np.testing.assert_array_equal(mapping[nodes], [s.node for s in full.steps_[:n_splits]])


def test_depth_first_budget_too_large_to_bind_changes_nothing():
    X, y = tied_data()
    for criterion in ("gini", "entropy", "misclassification"):
        full = DecisionTreeClassifier(criterion=criterion).fit(X, y)
        big = DecisionTreeClassifier(criterion=criterion, growth="depth_first",
                                     max_leaf_nodes=10_000).fit(X, y)
        for name in ("children_left", "children_right", "feature", "threshold",
                     "n_node_samples", "impurity", "value", "stop_reason"):
            np.testing.assert_array_equal(getattr(big.tree_, name), getattr(full.tree_, name),
                                          err_msg=f"{criterion}: {name}")


# --------------------------------------------------------------------------
# breadth-first
# --------------------------------------------------------------------------

@pytest.mark.parametrize("data", ["continuous", "tied"])
@pytest.mark.parametrize("criterion", ["gini", "entropy", "misclassification", "gain_ratio"])
def test_breadth_first_without_budget_grows_the_depth_first_tree(data, criterion):
    X, y = continuous_data() if data == "continuous" else tied_data()
    bfs = DecisionTreeClassifier(criterion=criterion, growth="breadth_first").fit(X, y)
    dfs = DecisionTreeClassifier(criterion=criterion, growth="depth_first").fit(X, y)
    best = DecisionTreeClassifier(criterion=criterion, growth="best_first").fit(X, y)
    t = bfs.tree_
    assert level_order_ids(t) == list(range(t.node_count))
    depths = [s.depth for s in bfs.steps_]
    assert depths == sorted(depths)
    nodes = [s.node for s in bfs.steps_]
    assert nodes == sorted(nodes), "left to right within a level"
    # same splits, whatever the order they were made in (dtree breaks ties the same way)
    assert compare_trees(t, dfs.tree_) == 0 and compare_trees(dfs.tree_, t) == 0
    assert compare_trees(best.tree_, dfs.tree_) == 0 and compare_trees(dfs.tree_, best.tree_) == 0
    assert len(bfs.steps_) == len(dfs.steps_) == len(best.steps_)


@pytest.mark.parametrize("leaves", [2, 3, 4, 5, 9, 16, 1000])
def test_breadth_first_budget_takes_the_shallowest_splits(leaves):
    X, y = tied_data()
    full = DecisionTreeClassifier(growth="breadth_first").fit(X, y)
    small = DecisionTreeClassifier(growth="breadth_first", max_leaf_nodes=leaves).fit(X, y)
    assert small.growth_ == "breadth_first"
    n_splits = min(leaves - 1, len(full.steps_))
    assert len(small.steps_) == n_splits and small.get_n_leaves() == n_splits + 1
    t = small.tree_
    assert level_order_ids(t) == list(range(t.node_count))
    mapping = embed(t, full.tree_)
    # full's ids are level order: the shallowest splits, left to right, come first
    np.testing.assert_array_equal(mapping[[s.node for s in small.steps_]],
                                  [s.node for s in full.steps_[:n_splits]])
    depth_done = full.steps_[n_splits - 1].depth
    assert all(s.depth <= depth_done for s in small.steps_)
    if n_splits < len(full.steps_):
        assert "leaf budget" in set(t.stop_reason)
        # every split left out is at least as deep as every split made
        assert all(s.depth >= depth_done for s in full.steps_[n_splits:])


@settings(deadline=None)
@given(cases(max_features=False))
def test_growth_order_of_steps(case):
    est = case.fit()
    nodes = [s.node for s in est.steps_]
    depths = [s.depth for s in est.steps_]
    if est.growth_ == "breadth_first":
        assert depths == sorted(depths)
        assert nodes == sorted(nodes)
        assert level_order_ids(est.tree_) == list(range(est.tree_.node_count))
    elif est.growth_ == "depth_first":
        assert nodes == sorted(nodes)
        assert preorder_ids(est.tree_) == list(range(est.tree_.node_count))
    else:
        assert est.max_leaf_nodes is not None or case.est.growth == "best_first"
    # every step splits a node that already exists: its parent was split before
    seen = {0}
    for s in est.steps_:
        assert s.node in seen
        seen |= {s.left, s.right}


# --------------------------------------------------------------------------
# candidate tables
# --------------------------------------------------------------------------

def node_rows(est, step, X):
    """Training rows in ``step``'s node, found by routing through tree_at(k)."""
    sub = est.tree_at(step.index)
    compact = int(np.flatnonzero(sub.node_ids == step.node)[0])
    return sub.apply(np.asarray(X, dtype=np.float32)) == compact


def check_candidates(est, X, y, w, max_steps=12):
    crit = est.criterion
    classification = hasattr(est, "classes_")
    if classification:
        codes = np.searchsorted(est.classes_, y)

    def impurity(rows):
        if classification:
            return class_impurity(crit, class_counts(codes[rows], w[rows], len(est.classes_)))
        return reg_impurity(crit, y[rows], w[rows])

    W = w.sum()
    X32 = np.asarray(X, dtype=np.float32)
    for step in est.steps_[:max_steps]:
        frame = step.candidates
        top = frame.iloc[0]
        assert bool(top["chosen"]) and top["feature_index"] == step.feature
        assert top["feature"] == step.feature_name
        assert top["threshold"] == step.threshold
        np.testing.assert_allclose(top["gain"], step.gain, rtol=1e-9, atol=1e-12)
        assert frame["chosen"].sum() == 1
        valid = frame[frame["gain"].notna()]
        key = "gain_ratio" if crit == "gain_ratio" else "gain"
        assert np.all(valid[key] <= top[key] + 1e-12)
        assert valid[key].iloc[1:].is_monotonic_decreasing, "best first after the chosen row"
        assert frame["gain"].notna().iloc[:len(valid)].all(), "rows without a split come last"

        rows = node_rows(est, step, X)
        assert rows.sum() == step.n_node_samples
        msl = est.min_samples_leaf
        for _, cand in valid.iterrows():
            f = int(cand["feature_index"])
            left = rows & (X32[:, f] <= cand["threshold"])
            right = rows & ~left
            wl, wr = w[left].sum(), w[right].sum()
            assert cand["n_left"] == left.sum() and cand["n_right"] == right.sum()
            np.testing.assert_allclose([cand["weighted_n_left"], cand["weighted_n_right"]],
                                       [wl, wr], rtol=1e-12)
            il, ir = impurity(left), impurity(right)
            gain = impurity(rows) - wl / (wl + wr) * il - wr / (wl + wr) * ir
            np.testing.assert_allclose([cand["impurity_left"], cand["impurity_right"]],
                                       [il, ir], rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(cand["gain"], gain, rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(cand["improvement"], (wl + wr) / W * gain,
                                       rtol=1e-9, atol=1e-12)
            p = wl / (wl + wr)
            np.testing.assert_allclose(cand["split_info"], binary_entropy(p), rtol=1e-9)
            # the threshold is the best cut of this feature (by gain)
            cuts = valid_cuts(X32[rows, f], w[rows], None if classification else y[rows],
                              crit, msl, 0.0)
            gains = []
            for _, in_left in cuts:
                lm = np.zeros(len(rows), dtype=bool)
                lm[np.flatnonzero(rows)[in_left]] = True
                gains.append(impurity(rows) - w[lm].sum() / w[rows].sum() * impurity(lm)
                             - w[rows & ~lm].sum() / w[rows].sum() * impurity(rows & ~lm))
            assert cand["gain"] >= max(gains) - 1e-12
            assert any(thr == cand["threshold"] for thr, _ in cuts)
        # features with no admissible cut are listed last, without a gain
        for _, cand in frame[frame["gain"].isna()].iterrows():
            f = int(cand["feature_index"])
            assert not valid_cuts(X32[rows, f], w[rows], None if classification else y[rows],
                                  crit, msl, 0.0)


@pytest.mark.parametrize("criterion", ["gini", "entropy", "misclassification", "gain_ratio"])
@pytest.mark.parametrize("growth", ["depth_first", "best_first", "breadth_first"])
def test_candidates_classifier(criterion, growth):
    X, y = tied_data()
    est = DecisionTreeClassifier(criterion=criterion, growth=growth, min_samples_leaf=2).fit(X, y)
    assert len(est.steps_) >= 8
    check_candidates(est, X, y, np.ones(len(y)), max_steps=8)


@pytest.mark.parametrize("criterion", ["squared_error", "absolute_error", "poisson"])
def test_candidates_regressor(criterion):
    X, _ = tied_data()
    y = np.abs(X[:, 0] * 2 - X[:, 1] + np.random.default_rng(0).normal(size=len(X)))
    w = np.random.default_rng(1).uniform(0.5, 2.0, len(y))
    est = DecisionTreeRegressor(criterion=criterion, max_depth=3).fit(X, y, sample_weight=w)
    check_candidates(est, X, y, w, max_steps=5)


def test_candidates_with_max_features_list_only_evaluated_features():
    X, y = continuous_data()
    est = DecisionTreeClassifier(max_features=2, random_state=0, max_depth=4).fit(X, y)
    for step in est.steps_[:6]:
        frame = step.candidates
        assert 2 <= len(frame) <= X.shape[1]
        assert frame["feature_index"].is_unique


def test_record_candidates_off():
    X, y = tied_data()
    est = DecisionTreeClassifier(record_candidates=False, max_depth=2).fit(X, y)
    assert all(s.candidates is None for s in est.steps_)


# --------------------------------------------------------------------------
# a 15-row table worked by hand
# --------------------------------------------------------------------------

# 9 approvals and 6 refusals.  owns_home and employed are 0/1; income in
# thousands.  Every row that owns a home is approved; among the 9 that do not,
# exactly the 3 employed ones are approved.
HAND_TABLE = np.array([
    # owns_home, employed, income, approved
    [1, 1, 55, 1],
    [1, 1, 62, 1],
    [1, 0, 48, 1],
    [1, 0, 70, 1],
    [1, 0, 38, 1],
    [1, 0, 80, 1],
    [0, 1, 45, 1],
    [0, 1, 30, 1],
    [0, 1, 66, 1],
    [0, 0, 25, 0],
    [0, 0, 33, 0],
    [0, 0, 41, 0],
    [0, 0, 28, 0],
    [0, 0, 58, 0],
    [0, 0, 36, 0],
], dtype=float)
H = binary_entropy


def hand_data():
    return HAND_TABLE[:, :3], HAND_TABLE[:, 3].astype(int)


def test_hand_table_entropy_numbers():
    X, y = hand_data()
    est = DecisionTreeClassifier(criterion="entropy").fit(X, y)
    root = est.steps_[0]
    # H(D) = -(9/15) log2(9/15) - (6/15) log2(6/15) = 0.971
    assert round(root.impurity, 3) == 0.971
    assert root.impurity == pytest.approx(H(9 / 15), abs=1e-12)

    g_home = H(9 / 15) - 9 / 15 * H(3 / 9)  # 0.420: owners all approved
    g_employed = H(9 / 15) - 10 / 15 * H(4 / 10)  # 0.324
    # income: sorted labels 0 0 1 0 0 1 0 | 1 1 1 0 1 1 1 1, best cut 41 | 45
    g_income = H(9 / 15) - 7 / 15 * H(2 / 7) - 8 / 15 * H(1 / 8)  # 0.278
    assert (round(g_home, 3), round(g_employed, 3), round(g_income, 3)) == (0.420, 0.324, 0.278)

    frame = root.candidates.set_index("feature_index")
    assert list(root.candidates["feature_index"]) == [0, 1, 2]
    assert frame.loc[0, "gain"] == pytest.approx(g_home, abs=1e-12)
    assert frame.loc[1, "gain"] == pytest.approx(g_employed, abs=1e-12)
    assert frame.loc[2, "gain"] == pytest.approx(g_income, abs=1e-12)
    assert frame.loc[2, "threshold"] == 43.0
    assert (frame.loc[0, "threshold"], frame.loc[1, "threshold"]) == (0.5, 0.5)
    assert frame.loc[0, "split_info"] == pytest.approx(H(6 / 15), abs=1e-12)
    assert frame.loc[1, "split_info"] == pytest.approx(H(5 / 15), abs=1e-12)
    assert frame.loc[2, "split_info"] == pytest.approx(H(7 / 15), abs=1e-12)

    assert (root.feature, root.threshold, root.n_left, root.n_right) == (0, 0.5, 9, 6)
    assert root.gain == pytest.approx(g_home, abs=1e-12)
    assert root.improvement == pytest.approx(g_home, abs=1e-12)  # the root holds all weight
    assert root.impurity_left == pytest.approx(H(3 / 9), abs=1e-12)
    assert root.impurity_right == 0.0
    assert root.gain_ratio == pytest.approx(g_home / H(6 / 15), abs=1e-12)

    # non-owners: employed separates them perfectly, gain = H(3/9) = 0.918
    second = est.steps_[1]
    assert (second.node, second.feature, second.threshold) == (1, 1, 0.5)
    assert second.gain == pytest.approx(H(3 / 9), abs=1e-12)
    assert round(second.gain, 3) == 0.918
    assert second.improvement == pytest.approx(9 / 15 * H(3 / 9), abs=1e-12)
    assert len(est.steps_) == 2 and est.get_n_leaves() == 3
    assert set(est.tree_.stop_reason[est.tree_.children_left == -1]) == {"pure"}
    np.testing.assert_array_equal(est.predict(X), y)
    # importances: W_t I_t - W_L I_L - W_R I_R per split, normalised
    imp_home, imp_employed = 15 * g_home, 9 * H(3 / 9)
    np.testing.assert_allclose(est.feature_importances_,
                               np.array([imp_home, imp_employed, 0]) / (imp_home + imp_employed),
                               rtol=1e-12)


def test_hand_table_gini_and_gain_ratio():
    X, y = hand_data()
    gini = DecisionTreeClassifier(criterion="gini").fit(X, y)
    root = gini.steps_[0]
    assert root.impurity == pytest.approx(1 - (9 / 15) ** 2 - (6 / 15) ** 2, abs=1e-12)  # 0.48
    frame = root.candidates.set_index("feature_index")
    assert frame.loc[0, "gain"] == pytest.approx(0.48 - 9 / 15 * (1 - (1 / 3) ** 2 - (2 / 3) ** 2))
    assert frame.loc[1, "gain"] == pytest.approx(0.48 - 10 / 15 * 0.48)
    assert frame.loc[2, "gain"] == pytest.approx(
        0.48 - 7 / 15 * (1 - (2 / 7) ** 2 - (5 / 7) ** 2) - 8 / 15 * (1 - (1 / 8) ** 2 - (7 / 8) ** 2))
    assert root.feature == 0

    ratio = DecisionTreeClassifier(criterion="gain_ratio").fit(X, y)
    frame = ratio.steps_[0].candidates.set_index("feature_index")
    expected = {
        0: (H(9 / 15) - 9 / 15 * H(3 / 9)) / H(6 / 15),  # 0.433
        1: (H(9 / 15) - 10 / 15 * H(4 / 10)) / H(5 / 15),  # 0.353
        2: (H(9 / 15) - 7 / 15 * H(2 / 7) - 8 / 15 * H(1 / 8)) / H(7 / 15),  # 0.279
    }
    for f, value in expected.items():
        assert frame.loc[f, "gain_ratio"] == pytest.approx(value, abs=1e-12)
    assert ratio.steps_[0].feature == 0
    assert ratio.steps_[0].gain_ratio == pytest.approx(expected[0], abs=1e-12)


def test_hand_table_misclassification_tie():
    # misclassification: 1 - 9/15 = 0.4 at the root; owns_home and income both
    # gain 0.2 (0.4 - 9/15 * 1/3 and 0.4 - 7/15 * 2/7 - 8/15 * 1/8)
    X, y = hand_data()
    est = DecisionTreeClassifier(criterion="misclassification").fit(X, y)
    root = est.steps_[0]
    assert root.impurity == pytest.approx(0.4, abs=1e-12)
    frame = root.candidates.set_index("feature_index")
    assert frame.loc[0, "gain"] == pytest.approx(0.2, abs=1e-12)
    assert frame.loc[2, "gain"] == pytest.approx(0.2, abs=1e-12)
    assert frame.loc[1, "gain"] == pytest.approx(0.4 - 10 / 15 * 0.4, abs=1e-12)
    assert root.feature in (0, 2) and root.gain == pytest.approx(0.2, abs=1e-12)


def test_hand_table_breadth_first_and_best_first_agree_here():
    X, y = hand_data()
    for growth in ("breadth_first", "best_first"):
        est = DecisionTreeClassifier(criterion="entropy", growth=growth).fit(X, y)
        assert [(s.feature, s.threshold) for s in est.steps_] == [(0, 0.5), (1, 0.5)]
    # a one-split budget keeps the root split only
    one = DecisionTreeClassifier(criterion="entropy", max_leaf_nodes=2).fit(X, y)
    assert len(one.steps_) == 1
    assert list(one.tree_.stop_reason) == ["", "leaf budget", "pure"]
