"""Post-pruning on small trees whose numbers are worked out by hand.

The running example: twelve points x = 0..11 with labels

    x: 0 1 2 3 4 5 | 6 7 8 9 10 11
    y: 0 0 0 1 0 0 | 1 1 1 0  1  1

With max_depth=2 (Gini) the tree is

    node 0  x <= 5.5   12 samples (6, 6)  gini 1/2
    node 1  x <= 2.5    6 samples (5, 1)  gini 1 - 25/36 - 1/36 = 5/18
    node 2  leaf        3 samples (3, 0)  gini 0
    node 3  leaf        3 samples (2, 1)  gini 1 - 4/9 - 1/9 = 4/9
    node 4  x <= 8.5    6 samples (1, 5)  gini 5/18
    node 5  leaf        3 samples (0, 3)  gini 0
    node 6  leaf        3 samples (1, 2)  gini 4/9

(the tests check this structure first, so that the numbers below mean what
the comments say).
"""

import copy
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier as SkClassifier

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree._pruning import (PruneStep, ccp_cross_validate, ccp_holdout, ccp_prune, distinct_subtrees,
                            cost_complexity_table, pruning_path, pruning_sequence)
from dtree._rep_pep import pessimistic_prune, reduced_error_prune

X12 = np.arange(12, dtype=np.float64)[:, None]
Y12 = np.array([0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1])


@pytest.fixture
def depth2():
    est = DecisionTreeClassifier(max_depth=2).fit(X12, Y12)
    t = est.tree_
    assert [t.children_of(i) for i in range(7)] == [[1, 4], [2, 3], [], [], [5, 6], [], []]
    np.testing.assert_array_equal(t.threshold[[0, 1, 4]], [5.5, 2.5, 8.5])
    counts = np.rint(t.value[:, 0, :] * t.n_node_samples[:, None])
    np.testing.assert_array_equal(counts, [[6, 6], [5, 1], [3, 0], [2, 1], [1, 5], [0, 3], [1, 2]])
    return est


# ---------------------------------------------------------------------------
# cost-complexity values
# ---------------------------------------------------------------------------

def test_cost_complexity_table_by_hand(depth2):
    # R(t) = gini * n_t / 12:
    #   node 0: 1/2;  nodes 1, 4: 5/18 * 6/12 = 5/36;  nodes 3, 6: 4/9 * 3/12 = 1/9;  2, 5: 0
    # R(T_t): node 1 = 0 + 1/9, node 4 = 0 + 1/9, node 0 = 2/9
    # g(1) = g(4) = (5/36 - 4/36) / (2 - 1) = 1/36;  g(0) = (1/2 - 2/9) / (4 - 1) = 5/54
    # the weakest link is node 1: it ties with node 4 and has the lower id
    table = cost_complexity_table(depth2.tree_)
    assert list(table.columns) == ["node_id", "is_leaf", "R_t", "R_Tt", "n_leaves", "g",
                                   "weakest_link"]
    np.testing.assert_allclose(table["R_t"], [1 / 2, 5 / 36, 0, 1 / 9, 5 / 36, 0, 1 / 9])
    np.testing.assert_allclose(table["R_Tt"], [2 / 9, 1 / 9, 0, 1 / 9, 1 / 9, 0, 1 / 9])
    np.testing.assert_array_equal(table["n_leaves"], [4, 2, 1, 1, 2, 1, 1])
    np.testing.assert_allclose(table["g"], [5 / 54, 1 / 36, np.nan, np.nan, 1 / 36, np.nan, np.nan])
    np.testing.assert_array_equal(table["weakest_link"], [0, 1, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(table["is_leaf"], [0, 0, 1, 1, 0, 1, 1])
    np.testing.assert_array_equal(table["node_id"], np.arange(7))


def test_cost_complexity_table_during_growth(depth2):
    # Growth splits node 0, then node 1, then node 4.  g(root) changes each time:
    #   after 1 split:  leaves 1, 4:       R(T) = 5/36 + 5/36 = 10/36, g = (8/36) / 1 = 2/9
    #   after 2 splits: leaves 2, 3, 4:    R(T) = 0 + 4/36 + 5/36 = 9/36, g = (9/36) / 2 = 1/8
    #   after 3 splits: leaves 2, 3, 5, 6: R(T) = 8/36, g = (10/36) / 3 = 5/54
    expected_root_g = [np.nan, 2 / 9, 1 / 8, 5 / 54]
    for k, g_root in enumerate(expected_root_g):
        table = cost_complexity_table(depth2.tree_at(k))
        np.testing.assert_allclose(table["g"].iloc[0], g_root)
        assert table["weakest_link"].sum() == (k > 0)
    table = cost_complexity_table(depth2.tree_at(2))
    # partial tree: nodes 0, 1, 2, 3, 4 (node 4 not yet split); node 1 is the weakest link
    np.testing.assert_array_equal(table["node_id"], [0, 1, 2, 3, 4])
    np.testing.assert_allclose(table["g"], [1 / 8, 1 / 36, np.nan, np.nan, np.nan])
    np.testing.assert_array_equal(table["weakest_link"], [0, 1, 0, 0, 0])


def test_single_leaf_tree():
    est = DecisionTreeClassifier().fit(np.zeros((4, 1)), [0, 1, 0, 1])
    table = cost_complexity_table(est.tree_)
    assert len(table) == 1 and not table["weakest_link"].any()
    path = pruning_path(est.tree_)
    np.testing.assert_array_equal(path.ccp_alphas, [0.0])
    np.testing.assert_array_equal(path.impurities, [0.5])
    assert len(pruning_sequence(est.tree_)) == 0


# ---------------------------------------------------------------------------
# the weakest-link sequence
# ---------------------------------------------------------------------------

def test_weakest_link_sequence_by_hand(depth2):
    # step 0: node 1 at alpha 1/36 (ties with node 4: lower id first); R(T) = 2/9 + 1/36 = 1/4
    # step 1: node 4 at alpha 1/36 (g(4) is unchanged; g(0) became (1/2 - 1/4) / 2 = 1/8);
    #         R(T) = 1/4 + 1/36 = 5/18
    # step 2: the root at alpha (1/2 - 5/18) / 1 = 2/9; R(T) = 1/2
    seq = pruning_sequence(depth2.tree_)
    assert [s.node for s in seq.steps] == [1, 4, 0]
    np.testing.assert_allclose([s.alpha for s in seq.steps], [1 / 36, 1 / 36, 2 / 9])
    np.testing.assert_allclose(seq.ccp_alphas, [0, 1 / 36, 1 / 36, 2 / 9])
    np.testing.assert_allclose(seq.impurities, [2 / 9, 1 / 4, 5 / 18, 1 / 2])
    np.testing.assert_array_equal(seq.n_leaves, [4, 3, 2, 1])
    s = seq.steps[2]
    assert isinstance(s, PruneStep)
    np.testing.assert_allclose([s.R_t, s.R_Tt], [1 / 2, 5 / 18])
    assert (s.n_leaves, s.n_removed, s.total_leaves) == (2, 2, 1)
    assert [st.n_removed for st in seq.steps] == [2, 2, 2]
    np.testing.assert_array_equal(seq.tree_at(1).node_ids, [0, 1, 4, 5, 6])
    np.testing.assert_array_equal(seq.tree_at(2).node_ids, [0, 1, 4])
    assert list(seq.tree_at(2).stop_reason[1:]) == ["pruned", "pruned"]
    frame = seq.to_frame()
    assert list(frame["node_id"]) == [1, 4, 0] and len(frame) == 3
    # the path is scikit-learn's
    sk = SkClassifier(max_depth=2, random_state=0).fit(X12, Y12)
    sk_path = sk.cost_complexity_pruning_path(X12, Y12)
    np.testing.assert_allclose(seq.ccp_alphas, sk_path.ccp_alphas, rtol=1e-12)
    np.testing.assert_allclose(seq.impurities, sk_path.impurities, rtol=1e-12)


def test_ccp_alpha_boundaries(depth2):
    # ccp_alpha prunes while the weakest link's g <= ccp_alpha, so the tied 1/36
    # removes both nodes 1 and 4 at once.
    seq = pruning_sequence(depth2.tree_)
    a = seq.ccp_alphas
    assert seq.n_steps_for(0.0) == 0
    assert seq.n_steps_for(np.nextafter(a[1], 0)) == 0
    assert seq.n_steps_for(a[1]) == 2
    assert seq.n_steps_for(a[3]) == 3
    assert ccp_prune(depth2.tree_, a[1]).node_count == 3
    assert ccp_prune(depth2.tree_, np.nextafter(a[1], 0)).node_count == 7
    assert ccp_prune(depth2.tree_, 1.0).node_count == 1


def test_pruning_path_is_a_dict_with_attributes(depth2):
    path = pruning_path(depth2.tree_)
    assert isinstance(path, dict) and set(path) == {"ccp_alphas", "impurities"}
    assert path.ccp_alphas is path["ccp_alphas"]
    with pytest.raises(AttributeError):
        path.nope


def test_estimator_hooks(depth2):
    path = depth2.cost_complexity_pruning_path(X12, Y12)
    np.testing.assert_array_equal(path["ccp_alphas"], pruning_path(depth2.tree_)["ccp_alphas"])
    pruned = DecisionTreeClassifier(max_depth=2, ccp_alpha=0.05).fit(X12, Y12)
    assert pruned.tree_.node_count == 3 and pruned.unpruned_tree_.node_count == 7
    np.testing.assert_array_equal(pruned.predict(X12), [0] * 6 + [1] * 6)


def test_tree_at_is_checked(depth2):
    seq = pruning_sequence(depth2.tree_)
    for bad in (-1, 4, 1.0):
        with pytest.raises(ValueError):
            seq.tree_at(bad)


# ---------------------------------------------------------------------------
# reduced-error pruning
# ---------------------------------------------------------------------------

def test_reduced_error_pruning_by_hand():
    # Fully grown on the twelve points:
    #   node 0  x <= 5.5 (6, 6) predicts 0 (a tie goes to the lower class)
    #   node 1  x <= 2.5 (5, 1) -> 0      node 6  x <= 8.5 (1, 5) -> 1
    #   node 2  leaf (3, 0) -> 0          node 7  leaf (0, 3) -> 1
    #   node 3  x <= 3.5 (2, 1) -> 0      node 8  x <= 9.5 (1, 2) -> 1
    #   node 4  leaf (0, 1) -> 1          node 9  leaf (1, 0) -> 0
    #   node 5  leaf (2, 0) -> 0          node 10 leaf (0, 2) -> 1
    est = DecisionTreeClassifier().fit(X12, Y12)
    t = est.tree_
    assert [t.children_of(i) for i in (0, 1, 3, 6, 8)] == [[1, 6], [2, 3], [4, 5], [7, 8], [9, 10]]
    # Validation rows (x, y): (1, 0) (3, 1) (4, 1) (7, 1) (9, 1) (10, 0) (11, 1), reaching
    # leaves 2, 4, 5, 7, 9, 10, 10.  Leaf errors: node 5 (predicts 0, y=1), node 9
    # (predicts 0, y=1), node 10 (predicts 1 for x=10, y=0): 3 errors to start with.
    # Bottom-up:
    #   node 3: branch 0 + 1 = 1; as a leaf it predicts 0 for y = 1, 1: 2 errors -> keep
    #   node 1: branch 0 + 1 = 1; as a leaf 0 for y = 0, 1, 1: 2 errors -> keep
    #   node 8: branch 1 + 1 = 2; as a leaf 1 for y = 1, 0, 1: 1 error -> prune (3 -> 2)
    #   node 6: branch 0 + 1 = 1; as a leaf 1 for y = 1, 1, 0, 1: 1 error -> prune (equal)
    #   node 0: branch 1 + 1 = 2; as a leaf 0 for the 7 rows: 5 errors -> keep
    X_val = np.array([[1], [3], [4], [7], [9], [10], [11]], dtype=float)
    y_val = np.array([0, 1, 1, 1, 1, 0, 1])
    before = copy.deepcopy(vars(t))
    pruned, record = reduced_error_prune(est, X_val, y_val)
    expected = pd.DataFrame({
        "node": [3, 1, 8, 6, 0],
        "n_val": [2.0, 3, 3, 4, 7],
        "n_leaves": [2, 3, 2, 2, 4],
        "errors_before": [1.0, 1, 2, 1, 2],
        "errors_after": [2.0, 2, 1, 1, 5],
        "pruned": [False, False, True, True, False],
        "tree_errors": [3.0, 3, 2, 2, 2],
    })
    pd.testing.assert_frame_equal(record[expected.columns], expected, check_dtype=False)
    assert record.attrs["errors_start"] == 3
    np.testing.assert_array_equal(pruned.node_ids, [0, 1, 2, 3, 4, 5, 6])
    assert pruned.is_leaf()[6] and pruned.stop_reason[6] == "pruned"
    _assert_unchanged(t, before)


def test_reduced_error_pruning_regression_uses_squared_error():
    # x = 0, 1, 2, 3 with y = 0, 0, 4, 4 grows root (mean 2) -> leaves {0, 0} and {4, 4}.
    # Validation (1, 1), (2, 2): the branch predicts 0 and 4: (1-0)^2 + (2-4)^2 = 5;
    # the root predicts 2: (1-2)^2 + (2-2)^2 = 1 <= 5 -> prune.
    est = DecisionTreeRegressor().fit(np.arange(4.0)[:, None], [0.0, 0, 4, 4])
    pruned, record = reduced_error_prune(est, [[1.0], [2.0]], [1.0, 2.0])
    assert record[["errors_before", "errors_after"]].values.tolist() == [[5.0, 1.0]]
    assert pruned.node_count == 1


# ---------------------------------------------------------------------------
# pessimistic error pruning
# ---------------------------------------------------------------------------

def test_pessimistic_pruning_by_hand(depth2):
    # Training errors of each node as a leaf: 0: 6, 1: 1, 2: 0, 3: 1, 4: 1, 5: 0, 6: 1.
    # Top-down:
    #   node 0: L = 4, sum of leaf errors 2, E(T) = 2 + 0.5 * 4 = 4,
    #           std = sqrt(4 * (1 - 4/12)) = sqrt(8/3) = 1.63299, upper = 5.63299;
    #           E(leaf) = 6 + 0.5 = 6.5, not < 5.633 -> keep, visit the children
    #   node 1: L = 2, sum 1, E(T) = 2, std = sqrt(2 * (1 - 2/6)) = sqrt(4/3) = 1.15470,
    #           upper = 3.15470; E(leaf) = 1.5 < 3.155 -> prune
    #   node 4: the same numbers -> prune
    before = copy.deepcopy(vars(depth2.tree_))
    pruned, record = pessimistic_prune(depth2)
    expected = pd.DataFrame({
        "node": [0, 1, 4], "N": [12.0, 6, 6], "n_leaves": [4, 2, 2],
        "errors_leaves": [2.0, 1, 1], "E_T": [4.0, 2, 2],
        "std_T": [np.sqrt(8 / 3), np.sqrt(4 / 3), np.sqrt(4 / 3)],
        "upper": [4 + np.sqrt(8 / 3), 2 + np.sqrt(4 / 3), 2 + np.sqrt(4 / 3)],
        "errors_node": [6.0, 1, 1], "E_leaf": [6.5, 1.5, 1.5],
        "pruned": [False, True, True],
    })
    pd.testing.assert_frame_equal(record[expected.columns], expected, check_dtype=False)
    np.testing.assert_array_equal(pruned.node_ids, [0, 1, 4])
    _assert_unchanged(depth2.tree_, before)
    # a Tree works as well as the estimator
    assert pessimistic_prune(depth2.tree_).record.equals(record)


def test_pessimistic_pruning_needs_strictly_less():
    # Weighted samples (x, y, w): (0, 0, 1.5) (1, 2, 0.5) (2, 2, 0.5) (3, 1, 1.5);
    # min_samples_leaf=2 allows only x <= 1.5.
    #   root as a leaf: weights (1.5, 1.5, 1.0) of 4 -> 2.5 misclassified, E(leaf) = 3
    #   leaves: (1.5, 0, 0.5) and (0, 1.5, 0.5) -> 0.5 + 0.5 = 1, E(T) = 1 + 0.5 * 2 = 2,
    #   std = sqrt(2 * (1 - 2/4)) = 1, upper = 3.
    # E(leaf) = upper exactly: the lecture notes' strict "<" keeps the split.
    est = DecisionTreeClassifier(min_samples_leaf=2).fit(
        np.arange(4.0)[:, None], [0, 2, 2, 1], sample_weight=[1.5, 0.5, 0.5, 1.5])
    pruned, record = pessimistic_prune(est)
    assert record[["E_T", "std_T", "upper", "errors_node", "E_leaf"]].values.tolist() == [
        [2.0, 1.0, 3.0, 2.5, 3.0]]
    assert not record["pruned"][0] and pruned.node_count == 3


def test_pessimistic_pruning_rejects_regressors():
    est = DecisionTreeRegressor().fit(np.arange(4.0)[:, None], [0.0, 0, 4, 4])
    with pytest.raises(ValueError, match="classifier"):
        pessimistic_prune(est)


# ---------------------------------------------------------------------------
# choosing alpha
# ---------------------------------------------------------------------------

def test_cross_validation_by_brute_force():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] + 0.7 * rng.normal(size=60) > 0).astype(int)
    est = DecisionTreeClassifier(min_samples_leaf=2)
    frame = ccp_cross_validate(est, X, y, cv=4, random_state=7)
    # recompute every number with the estimator's own ccp_alpha
    X32 = X.astype(np.float32)
    folds = np.array_split(np.random.default_rng(7).permutation(60), 4)
    alphas = frame["alpha"].to_numpy()
    assert alphas[0] == 0.0 and np.all(np.diff(alphas) > 0)
    np.testing.assert_allclose(frame["alpha_cv"], np.r_[np.sqrt(alphas[:-1] * alphas[1:]), np.inf])
    tiny = 1e-300  # ccp_alpha=0 means "do not prune"; a tiny alpha prunes g <= 0 as the path does
    for i, row in frame.iterrows():
        pruned = DecisionTreeClassifier(min_samples_leaf=2, ccp_alpha=max(row.alpha, tiny))
        pruned.fit(X32, y)
        assert pruned.get_n_leaves() == row.n_leaves
        np.testing.assert_allclose(row.train_error, np.mean(pruned.predict(X32) != y))
        losses = np.empty(60)
        for f, test in enumerate(folds):
            train = np.setdiff1d(np.arange(60), test)
            fold_est = DecisionTreeClassifier(min_samples_leaf=2, ccp_alpha=max(row.alpha_cv, tiny))
            fold_est.fit(X32[train], y[train])
            losses[test] = fold_est.predict(X32[test]) != y[test]
            np.testing.assert_allclose(row[f"fold_{f + 1}"], losses[test].mean())
        np.testing.assert_allclose(row.cv_error, losses.mean())
        np.testing.assert_allclose(row.cv_se, losses.std() / np.sqrt(60))
    assert frame["is_min"].sum() == 1 and frame["is_1se"].sum() == 1
    best = frame.index[frame["is_min"]][0]
    assert frame.cv_error[best] == frame.cv_error.min()
    assert (frame.cv_error[best + 1:] > frame.cv_error.min()).all()  # the smallest minimal tree
    limit = frame.cv_error[best] + frame.cv_se[best]
    one_se = frame.index[frame["is_1se"]][0]
    assert frame.cv_error[one_se] <= limit and (frame.cv_error[one_se + 1:] > limit).all()
    assert frame.attrs["alpha_min"] == frame.alpha[best]
    assert frame.attrs["alpha_1se"] == frame.alpha[one_se]
    # the same seed gives the same table
    pd.testing.assert_frame_equal(frame, ccp_cross_validate(est, X, y, cv=4, random_state=7))


def test_cross_validation_regression_reports_mse():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 2))
    y = X[:, 0] ** 2 + 0.1 * rng.normal(size=50)
    frame = ccp_cross_validate(DecisionTreeRegressor(min_samples_leaf=3), X, y, cv=5)
    assert frame.attrs["error"] == "squared error"
    assert frame["train_error"].iloc[0] <= frame["train_error"].iloc[-1]
    np.testing.assert_allclose(frame["train_error"].iloc[-1], np.var(y), rtol=1e-6)
    with pytest.raises(ValueError):
        ccp_cross_validate(DecisionTreeRegressor(), X, y, cv=1)


@pytest.mark.parametrize("make", [
    lambda: DecisionTreeClassifier(min_samples_leaf=2),
    lambda: DecisionTreeClassifier(criterion="entropy", ccp_alpha=0.01),  # tree_ is pruned
    lambda: DecisionTreeRegressor(min_samples_leaf=3),
])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_validation_of_a_fitted_tree_is_the_same(make, weighted):
    """fitted=True reads the tree the estimator grew on these rows instead of
    growing it again: the same table, number for number."""
    rng = np.random.default_rng(11)
    X = rng.normal(size=(120, 3))
    score = X[:, 0] - 0.6 * X[:, 1] + 0.8 * rng.normal(size=120)
    est = make()
    y = score if isinstance(est, DecisionTreeRegressor) else (score > 0).astype(int)
    w = rng.uniform(0.5, 2.0, size=120) if weighted else None
    est.fit(X, y, sample_weight=w)
    grown = ccp_cross_validate(est, X, y, cv=4, sample_weight=w, random_state=2)
    read = ccp_cross_validate(est, X, y, cv=4, sample_weight=w, random_state=2, fitted=True)
    pd.testing.assert_frame_equal(read, grown, check_exact=True)
    assert read.attrs == grown.attrs


def test_holdout_scores(depth2):
    # Rows alpha 0 (4 leaves), 1/36 (2 leaves: the tied steps give one tree), 2/9 (root).
    X_val = np.array([[1], [4], [7], [10]], dtype=float)
    y_val = np.array([0, 1, 1, 0])
    frame = ccp_holdout(depth2, X_val, y_val)
    np.testing.assert_allclose(frame["alpha"], [0, 1 / 36, 2 / 9])
    np.testing.assert_array_equal(frame["n_leaves"], [4, 2, 1])
    # 4 leaves predict 0, 0, 1, 1 -> 2 wrong; 2 leaves the same; root predicts 0 -> 2 wrong
    np.testing.assert_allclose(frame["holdout_error"], [0.5, 0.5, 0.5])
    np.testing.assert_allclose(frame["holdout_score"], [0.5, 0.5, 0.5])
    assert frame["is_best"].tolist() == [False, False, True]  # the smallest tree on a tie


def _assert_unchanged(tree, before):
    after = vars(tree)
    assert set(after) == set(before)
    for name, value in before.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(after[name], value, err_msg=name)
        else:
            assert after[name] == value, name


# ---------------------------------------------------------------------------
# multiway and C4.5 trees
# ---------------------------------------------------------------------------

def _reference_sequence(tree):
    """Weakest-link pruning written plainly: recompute every R(T_t) from the
    leaves at each step, collapse the smallest g (the lowest id within
    rounding of it).  Returns (alphas, impurities, n_leaves) after each step."""
    collapsed = set()

    def leaves(t):
        kids = [] if t in collapsed else tree.children_of(t)
        return [t] if not kids else [leaf for k in kids for leaf in leaves(k)]

    def inside(t):
        kids = [] if t in collapsed else tree.children_of(t)
        return [t] + [n for k in kids for n in inside(k)]

    w, imp = tree.weighted_n_node_samples, tree.impurity
    R = w * imp / w[0]
    alphas, impurities, n_leaves = [0.0], [R[leaves(0)].sum()], [len(leaves(0))]
    while 0 not in collapsed and tree.children_of(0):
        g = {t: (R[t] - R[leaves(t)].sum()) / (len(leaves(t)) - 1)
             for t in inside(0) if tree.children_of(t) and t not in collapsed}
        smallest = min(g.values())
        t = min(t for t, v in g.items() if v <= smallest + 1e-12)
        collapsed.add(t)
        alphas.append(g[t])
        impurities.append(R[leaves(0)].sum())
        n_leaves.append(len(leaves(0)))
    return np.array(alphas), np.array(impurities), np.array(n_leaves)


@pytest.fixture
def watermelon():
    frame = pd.read_csv(Path(__file__).resolve().parents[2] / "data" / "watermelon2_alpha.csv")
    return frame.iloc[:, 1:-1], frame.iloc[:, -1]


@pytest.mark.parametrize("algorithm", ["id3", "c4.5", "cart"])
@pytest.mark.parametrize("growth", ["depth_first", "best_first"])
def test_multiway_trees_prune_like_the_reference(watermelon, algorithm, growth):
    X, y = watermelon
    if algorithm == "id3":
        X = X.fillna("missing")  # ID3 has no rule for missing values
    est = DecisionTreeClassifier(algorithm=algorithm, growth=growth, max_leaf_nodes=12)
    tree = est.fit(X, y).tree_
    assert algorithm == "cart" or (tree.n_children > 2).any()
    seq = pruning_sequence(tree)
    alphas, impurities, n_leaves = _reference_sequence(tree)
    np.testing.assert_allclose(seq.ccp_alphas, alphas, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(seq.impurities, impurities, rtol=1e-9, atol=1e-15)
    np.testing.assert_array_equal(seq.n_leaves, n_leaves)
    for alpha in np.unique(seq.ccp_alphas):
        pruned = ccp_prune(tree, alpha)
        assert sorted(pruned.node_ids) == seq.tree_at(seq.n_steps_for(alpha)).node_ids.tolist()
        # numbered in pre-order: every first child right after its parent
        assert all(pruned.children_of(i)[:1] in ([], [i + 1]) for i in range(pruned.node_count))
        X_enc = est._validate_X_predict(X)
        np.testing.assert_allclose(pruned.predict(X_enc), seq.prune(alpha).predict(X_enc))


def test_reduced_error_pruning_counts_c45_fractions():
    # One categorical feature: a -> (0, 0, 1), b -> (1, 1).  C4.5 sends a missing
    # value down both branches with the training shares 3/5 and 2/5.
    # Validation: (missing, y=1) and (a, y=0).
    #   branch a (predicts 0) gets 0.6 of the first row (an error) and the second row: 0.6
    #   branch b (predicts 1) gets 0.4 of the first row: no error
    #   the root as a leaf predicts 1 (three of five): the second row is wrong: 1
    # 1 > 0.6: keep.
    X = pd.DataFrame({"A": ["a", "a", "a", "b", "b"]})
    est = DecisionTreeClassifier(algorithm="c4.5").fit(X, [0, 0, 1, 1, 1])
    np.testing.assert_allclose(est.tree_.child_share, [0.6, 0.4])
    pruned, record = reduced_error_prune(est, pd.DataFrame({"A": [None, "a"]}), [1, 0])
    np.testing.assert_allclose(record[["n_val", "errors_before", "errors_after", "tree_errors"]]
                               .values, [[2.0, 0.6, 1.0, 0.6]])
    assert not record["pruned"][0] and pruned.node_count == 3 and pruned.distribute_missing


@pytest.mark.parametrize("params", [
    {}, {"criterion": "entropy"}, {"min_samples_leaf": 3}, {"splitter": "hist", "max_bins": 16},
    {"max_leaf_nodes": 12}, {"max_depth": 4},
])
@pytest.mark.parametrize("weighted", [False, True])
def test_training_errors_from_the_nodes_equal_routing_the_rows(params, weighted):
    """ccp_cross_validate's train_error is read from the nodes' class weights;
    routing every training row through every subtree gives the same numbers."""
    from dtree._pruning import (_encoded, _losses_by_steps, _node_errors_apply,
                                _train_errors, _weighted_mean)

    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 4)).round(2)  # (ties in the values)
    y = np.select([X[:, 0] + rng.normal(size=300) < -0.5,
                   X[:, 1] + rng.normal(size=300) < 0.3], ["a", "b"], "c")
    w = rng.uniform(0.2, 3.0, size=300) if weighted else np.ones(300)
    est = DecisionTreeClassifier(**params).fit(X, y, sample_weight=w)
    seq = pruning_sequence(est.tree_)
    ks = distinct_subtrees(seq)[1]
    assert _node_errors_apply(est, seq.tree)
    routed = [_weighted_mean(row, w)
              for row in _losses_by_steps(est, seq, _encoded(est, X), y, ks)]
    np.testing.assert_allclose(_train_errors(seq, ks, w.sum()), routed, rtol=1e-12, atol=1e-15)
