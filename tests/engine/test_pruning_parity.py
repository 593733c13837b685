"""Minimal cost-complexity pruning against scikit-learn, the oracle.

Two kinds of check:

* **On scikit-learn's own trees**, through a read-only view of its ``tree_``
  (``SkView``): dtree's weakest-link sequence must give exactly, bit for bit,
  scikit-learn's ``cost_complexity_pruning_path``, and for a given
  ``ccp_alpha`` keep exactly the nodes scikit-learn keeps, numbered as it
  numbers them.  Any configuration will do, exact split ties included.
* **End to end**: dtree estimators fitted with ``ccp_alpha`` against
  scikit-learn's, node for node.  Where two splits tie exactly the two
  libraries may grow different branches (and then prune them differently), so
  these cases are configurations whose full trees have no tie; the test
  checks that first.
"""

import numpy as np
import pytest

from dtree import DecisionTreeClassifier
from dtree._pruning import ccp_holdout, pruning_path, pruning_sequence

from tests.helpers.treecompare import assert_same_ids, compare_trees
from tests.helpers.pruning_cases import make_case

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")  # friedman_mse


class SkView:
    """The parts of a dtree ``Tree`` the pruning path reads, over a scikit-learn ``tree_``."""

    def __init__(self, t):
        self.node_count = t.node_count
        self.weighted_n_node_samples = t.weighted_n_node_samples
        self.impurity = t.impurity
        self.left, self.right = t.children_left, t.children_right
        self.parent = np.full(t.node_count, -1)
        self.depth = np.zeros(t.node_count, dtype=np.intp)
        for node in range(t.node_count):  # children ids exceed their parent's
            for child in self.children_of(node):
                self.parent[child] = node
                self.depth[child] = self.depth[node] + 1
        self.node_ids = np.arange(t.node_count)
        self.n_leaves = int(np.sum(self.left == -1))

    def is_leaf(self):
        return self.left == -1

    def children_of(self, node):
        return [] if self.left[node] == -1 else [int(self.left[node]), int(self.right[node])]


# ---------------------------------------------------------------------------
# data and configurations
# ---------------------------------------------------------------------------


# every criterion scikit-learn has, both growth orders, weights: ties allowed
SK_CASES = [
    ("iris", 0, "gini", {}, False, None),
    ("iris", 0, "entropy", {"max_leaf_nodes": 6}, False, None),
    ("wine", 0, "log_loss", {}, True, None),
    ("wine", 0, "gini", {"class_weight": "balanced"}, False, None),
    ("cls", 0, "gini", {}, False, None),
    ("cls", 1, "entropy", {"min_samples_leaf": 3}, True, None),
    ("cls", 2, "gini", {"max_leaf_nodes": 30}, False, None),
    ("cls", 3, "gini", {"max_depth": 6, "min_weight_fraction_leaf": 0.01}, True, None),
    ("reg", 0, "squared_error", {}, False, None),
    ("reg", 1, "friedman_mse", {"min_samples_leaf": 2}, True, None),
    ("reg", 2, "absolute_error", {}, False, 150),
    ("reg", 3, "poisson", {"max_leaf_nodes": 40}, True, None),
    ("reg", 4, "squared_error", {"max_leaf_nodes": 50}, True, None),
]

# full trees without exact split ties (checked in the test)
TIE_FREE = [
    ("cls", 0, "gini", {"max_depth": 4}, False, None),
    ("cls", 0, "gini", {"max_depth": 4}, True, None),
    ("cls", 0, "entropy", {"max_depth": 4}, False, None),
    ("cls", 0, "gini", {"max_leaf_nodes": 25, "min_samples_leaf": 4}, False, None),
    ("cls", 2, "gini", {"max_leaf_nodes": 25, "min_samples_leaf": 4}, True, None),
    ("cls", 1, "entropy", {"max_leaf_nodes": 25, "min_samples_leaf": 4}, False, None),
    ("reg", 0, "squared_error", {"min_samples_leaf": 5}, False, None),
    ("reg", 0, "squared_error", {"min_samples_leaf": 5}, True, None),
    ("reg", 0, "absolute_error", {"min_samples_leaf": 5}, False, 150),
    ("reg", 0, "poisson", {"min_samples_leaf": 5}, True, None),
    ("reg", 0, "poisson", {"max_leaf_nodes": 25}, False, None),
    ("reg", 1, "squared_error", {"max_leaf_nodes": 25, "min_samples_leaf": 4}, True, None),
    ("cls", 2, "gini", {"max_depth": 4}, False, None),
]


def _ids(case):
    task, seed, criterion, params, weighted, n = case
    return f"{task}{seed}-{criterion}-{params}" + ("-weighted" if weighted else "")


def _alphas_to_try(path_alphas):
    """Path values (the boundaries) and geometric midpoints between them."""
    a = np.unique(path_alphas[path_alphas > 0])
    picks = list(a[:: max(1, len(a) // 6)]) + [a[-1]]
    mids = list(np.sqrt(a[:-1] * a[1:])[:: max(1, len(a) // 4)])
    return picks + mids + [a[-1] * 2]


# ---------------------------------------------------------------------------
# on scikit-learn's own trees: exact
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("case", SK_CASES, ids=_ids)
def test_path_is_sklearns_bit_for_bit(case):
    X, y, w, _, Sk, kw = make_case(*case)
    sk = Sk(random_state=0, **kw).fit(X, y, sample_weight=w)
    theirs = sk.cost_complexity_pruning_path(X, y, sample_weight=w)
    ours = pruning_path(SkView(sk.tree_))
    np.testing.assert_array_equal(ours["ccp_alphas"], theirs.ccp_alphas)
    np.testing.assert_array_equal(ours["impurities"], theirs.impurities)


def _preorder_of_kept(view, keep):
    """Kept nodes in pre-order, and the children arrays renumbered that way."""
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        kids = view.children_of(node)
        if kids and keep[kids[0]]:
            stack.extend(reversed(kids))
    new = {old: i for i, old in enumerate(order)}
    left = [new[view.left[o]] if view.left[o] in new else -1 for o in order]
    right = [new[view.right[o]] if view.right[o] in new else -1 for o in order]
    return np.array(order), np.array(left), np.array(right)


@pytest.mark.parametrize("case", SK_CASES, ids=_ids)
def test_kept_nodes_are_sklearns(case):
    X, y, w, _, Sk, kw = make_case(*case)
    full = Sk(random_state=0, **kw).fit(X, y, sample_weight=w)
    view = SkView(full.tree_)
    seq = pruning_sequence(view)
    for alpha in _alphas_to_try(seq.ccp_alphas):
        pruned = Sk(random_state=0, ccp_alpha=alpha, **kw).fit(X, y, sample_weight=w).tree_
        order, left, right = _preorder_of_kept(view, seq.keep_mask(seq.n_steps_for(alpha)))
        assert pruned.node_count == len(order), f"alpha={alpha!r}"
        np.testing.assert_array_equal(pruned.children_left, left)
        np.testing.assert_array_equal(pruned.children_right, right)
        np.testing.assert_array_equal(pruned.n_node_samples, full.tree_.n_node_samples[order])
        np.testing.assert_array_equal(pruned.impurity, full.tree_.impurity[order])


# ---------------------------------------------------------------------------
# end to end: dtree's estimators against scikit-learn's
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("case", TIE_FREE, ids=_ids)
def test_fitted_pruning_matches_sklearn(case):
    X, y, w, Ours, Sk, kw = make_case(*case)
    ours_full = Ours(**kw).fit(X, y, sample_weight=w)
    sk_full = Sk(random_state=0, **kw).fit(X, y, sample_weight=w)
    assert compare_trees(ours_full.tree_, sk_full.tree_, rtol=1e-7) == 0, "precondition: no ties"

    ours_path = ours_full.cost_complexity_pruning_path(X, y, sample_weight=w)
    sk_path = sk_full.cost_complexity_pruning_path(X, y, sample_weight=w)
    scale = sk_path.impurities[-1]
    np.testing.assert_allclose(ours_path["ccp_alphas"], sk_path.ccp_alphas, rtol=1e-9,
                               atol=1e-12 * scale)
    np.testing.assert_allclose(ours_path["impurities"], sk_path.impurities, rtol=1e-9,
                               atol=1e-12 * scale)

    # the k-th boundary of each library's own path, then values between boundaries
    n = len(sk_path.ccp_alphas)
    ks = sorted({1, n // 4, n // 2, n - 2, n - 1} & set(range(1, n)))
    pairs = [(ours_path["ccp_alphas"][k], sk_path.ccp_alphas[k]) for k in ks]
    pairs += [(a, a) for a in _alphas_to_try(sk_path.ccp_alphas)[-4:]]
    for ours_alpha, sk_alpha in pairs:
        ours = Ours(ccp_alpha=max(ours_alpha, 1e-300), **kw).fit(X, y, sample_weight=w)
        theirs = Sk(random_state=0, ccp_alpha=max(sk_alpha, 1e-300), **kw).fit(
            X, y, sample_weight=w)
        assert compare_trees(ours.tree_, theirs.tree_, rtol=1e-7) == 0
        assert_same_ids(ours.tree_, theirs.tree_)  # pre-order ids, also after best-first growth
        np.testing.assert_array_equal(ours.apply(X), theirs.apply(X))
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)


@pytest.mark.parametrize("case", [TIE_FREE[-1], TIE_FREE[6]], ids=_ids)
def test_holdout_scores_match_sklearn(case):
    X, y, w, Ours, Sk, kw = make_case(*case)
    train, val = slice(0, 300), slice(300, None)
    ours = Ours(**kw).fit(X[train], y[train])
    sk_full = Sk(random_state=0, **kw).fit(X[train], y[train])
    assert compare_trees(ours.tree_, sk_full.tree_) == 0, "precondition: no ties"
    frame = ccp_holdout(ours, X[val], y[val])
    # each row's tree is scikit-learn's at its own path value (the two paths agree
    # to rounding, and rounding decides a ccp_alpha placed exactly on a boundary)
    sk_alphas = np.unique(sk_full.cost_complexity_pruning_path(X[train], y[train]).ccp_alphas)
    assert len(sk_alphas) == len(frame)
    for row, sk_alpha in zip(frame.itertuples(), sk_alphas):
        sk = Sk(random_state=0, ccp_alpha=max(sk_alpha, 1e-300), **kw).fit(X[train], y[train])
        assert sk.get_n_leaves() == row.n_leaves
        pred = sk.predict(X[val])
        error = np.mean(pred != y[val]) if Ours is DecisionTreeClassifier else np.mean(
            (pred - y[val]) ** 2)
        np.testing.assert_allclose(row.holdout_error, error, rtol=1e-12)
        np.testing.assert_allclose(row.holdout_score, sk.score(X[val], y[val]), rtol=1e-9)
