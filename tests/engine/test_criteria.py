"""Criteria checked against a naive textbook implementation and by hand."""

import math

import numpy as np
import pytest
from sklearn.datasets import make_classification

from dtree import DecisionTreeClassifier, DecisionTreeRegressor

from tests.helpers.reference import reference_tree
from tests.helpers.treecompare import assert_same_ids, compare_trees, with_our_ties


def _data(seed, n=120, k=3):
    X, y = make_classification(n_samples=n, n_features=4, n_informative=3, n_redundant=0,
                               n_classes=k, n_clusters_per_class=1, random_state=seed)
    return np.round(X, 1).astype(np.float32), y  # rounding creates repeated values


def _matches_reference(ours, X, y, criterion, max_depth=None, **params):
    """Every node of ours against the naive reference, exact ties broken as
    dtree breaks them: where two splits gain the same (to rounding), the
    reference regrows each child of dtree's split on that child's rows."""
    classes = np.unique(y)

    def region(rows, depth):
        sub_depth = None if max_depth is None else max_depth - depth
        ref = reference_tree(X[rows], y[rows], criterion, max_depth=sub_depth, **params)
        return ref, np.searchsorted(classes, np.unique(y[rows])), False

    whole = reference_tree(X, y, criterion, max_depth=max_depth, **params)
    ref, ties = with_our_ties(ours.tree_, whole, X, region, rtol=1e-9, atol=1e-12,
                              tie_tol=1e-9)
    assert compare_trees(ours.tree_, ref, rtol=1e-9, atol=1e-12, max_skipped=0) == 0
    assert_same_ids(ours.tree_, ref)
    return ties


@pytest.mark.parametrize("criterion", ["gini", "entropy", "misclassification", "gain_ratio"])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("params", [{}, {"max_depth": 3}, {"min_samples_leaf": 4}], ids=str)
def test_matches_naive_reference(criterion, seed, params):
    X, y = _data(seed)
    ours = DecisionTreeClassifier(criterion=criterion, **params).fit(X, y)
    _matches_reference(ours, X, y, criterion, **params)


def test_misclassification_by_hand():
    # 6 samples, one feature: classes 0 0 1 | 1 1 0 by x.  Root: 1 - 3/6 = 0.5.
    X = np.array([[1], [2], [3], [4], [5], [6]], dtype=np.float32)
    y = np.array([0, 0, 1, 1, 1, 0])
    est = DecisionTreeClassifier(criterion="misclassification", max_depth=1).fit(X, y)
    assert est.tree_.impurity[0] == pytest.approx(0.5)
    step = est.steps_[0]
    # best: x <= 2.5 -> [0 0] | [1 1 1 0]: errors 0 + 1 -> weighted 1/6 -> gain 1/3
    assert step.threshold == 2.5
    assert step.gain == pytest.approx(0.5 - 4 / 6 * 0.25)
    assert step.impurity_left == 0.0 and step.impurity_right == pytest.approx(0.25)


def test_gain_ratio_penalises_balanced_split_less_than_gain_does():
    """Feature 0 isolates one sample (gain 0.294, split info 0.544); feature 1
    halves the data (gain 0.311, split info 1).  Information gain picks
    feature 1, gain ratio picks feature 0."""
    X = np.array([[1, 1], [0, 1], [0, 1], [0, 1], [0, 0], [0, 0], [0, 0], [0, 0]],
                 dtype=np.float32)
    y = np.array([0, 0, 1, 1, 1, 1, 1, 1])

    def h(*ps):
        return -sum(p * math.log2(p) for p in ps if p > 0)

    root = h(2 / 8, 6 / 8)
    gain0 = root - 7 / 8 * h(1 / 7, 6 / 7)
    gain1 = root - 4 / 8 * h(2 / 4, 2 / 4) - 4 / 8 * 0.0
    assert round(gain0, 3) == 0.294 and round(gain1, 3) == 0.311
    ent = DecisionTreeClassifier(criterion="entropy", max_depth=1).fit(X, y)
    ratio = DecisionTreeClassifier(criterion="gain_ratio", max_depth=1).fit(X, y)
    cands = ratio.steps_[0].candidates.set_index("feature_index")
    assert cands.loc[0, "gain"] == pytest.approx(gain0)
    assert cands.loc[1, "gain"] == pytest.approx(gain1)
    assert cands.loc[0, "split_info"] == pytest.approx(h(1 / 8, 7 / 8))
    assert cands.loc[1, "split_info"] == pytest.approx(1.0)
    assert cands.loc[0, "gain_ratio"] == pytest.approx(gain0 / h(1 / 8, 7 / 8))
    assert list(cands.index) == [0, 1]  # sorted by gain ratio
    assert ratio.steps_[0].feature == 0
    assert ent.steps_[0].feature == 1
    assert list(ent.steps_[0].candidates["feature_index"]) == [1, 0]  # sorted by gain


def test_fifteen_sample_entropy_is_0971():
    """9 positives and 6 negatives: H(D) = 0.971 bits (Li Hang, ex. 5.2)."""
    y = np.array([1] * 9 + [0] * 6)
    X = np.arange(15, dtype=np.float32)[:, None]
    est = DecisionTreeClassifier(criterion="entropy", max_depth=1).fit(X, y)
    assert round(est.tree_.impurity[0], 3) == 0.971
    gini = DecisionTreeClassifier(criterion="gini", max_depth=1).fit(X, y)
    assert gini.tree_.impurity[0] == pytest.approx(1 - (9 / 15) ** 2 - (6 / 15) ** 2)


def test_friedman_mse_equals_squared_error():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3)).astype(np.float32)
    y = X[:, 0] + rng.normal(size=200)
    a = DecisionTreeRegressor(criterion="friedman_mse", max_depth=5).fit(X, y)
    b = DecisionTreeRegressor(criterion="squared_error", max_depth=5).fit(X, y)
    assert compare_trees(a.tree_, b.tree_, rtol=0, atol=0) == 0


def test_absolute_error_impurity_by_hand():
    X = np.arange(6, dtype=np.float32)[:, None]
    y = np.array([1.0, 2.0, 3.0, 10.0, 11.0, 12.0])
    est = DecisionTreeRegressor(criterion="absolute_error", max_depth=1).fit(X, y)
    # root median: running weight passes 3 exactly at y=3 -> (3 + 10) / 2
    assert est.tree_.value[0, 0, 0] == 6.5
    assert est.tree_.impurity[0] == pytest.approx(np.mean(np.abs(y - 6.5)))
    left, right = est.tree_.children_left[0], est.tree_.children_right[0]
    assert est.tree_.threshold[0] == 2.5  # {1,2,3} | {10,11,12}: 2 + 2 = 4 in total
    assert est.tree_.impurity[left] == pytest.approx(2 / 3)
    assert est.tree_.impurity[right] == pytest.approx(2 / 3)
    assert est.tree_.value[left, 0, 0] == 2.0 and est.tree_.value[right, 0, 0] == 11.0


def test_taylor2_by_hand():
    """sum p[(1-p) + (1-p)^2/2]: for p = (9/15, 6/15) that is
    0.6*(0.4 + 0.08) + 0.4*(0.6 + 0.18) = 0.288 + 0.312 = 0.6."""
    y = np.array([1] * 9 + [0] * 6)
    X = np.array([0] * 5 + [1] * 4 + [0] * 1 + [1] * 5, dtype=np.float32)[:, None]
    est = DecisionTreeClassifier(criterion="taylor2", max_depth=1).fit(X, y)
    assert est.tree_.impurity[0] == pytest.approx(0.6)
    # children: x=0 -> 5 positives, 1 negative; x=1 -> 4 positives, 5 negatives
    def t2(*counts):
        n = sum(counts)
        return sum(c / n * ((1 - c / n) + (1 - c / n) ** 2 / 2) for c in counts)
    step = est.steps_[0]
    assert step.impurity_left == pytest.approx(t2(5, 1))
    assert step.impurity_right == pytest.approx(t2(4, 5))
    assert step.gain == pytest.approx(0.6 - 6 / 15 * t2(5, 1) - 9 / 15 * t2(4, 5))


@pytest.mark.parametrize("seed", [0, 1])
def test_taylor2_matches_naive_reference(seed):
    X, y = _data(seed)
    ours = DecisionTreeClassifier(criterion="taylor2", max_depth=4).fit(X, y)
    _matches_reference(ours, X, y, "taylor2", max_depth=4)
