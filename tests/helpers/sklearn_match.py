"""dtree's tree against scikit-learn's, whole: every node, the node ids,
leaves reached, predictions and importances.

scikit-learn breaks an exact tie between two splits by its random feature
order, dtree by taking the first feature.  So that no part of a tree goes
unchecked below such a tie, the reference is scikit-learn's tree with each
tie broken as dtree breaks it, and the children of dtree's split regrown by
scikit-learn on their own rows (``treecompare.with_our_ties``).
"""

import numpy as np

from dtree import DecisionTreeClassifier
from tests.helpers.treecompare import (assert_same_ids, compare_trees, numbered_like, tree_apply,
                                       tree_importances, with_our_ties)


def sklearn_regions(theirs, X, y, sample_weight=None, *, leaves_only=False, classes=None):
    """A ``fit_region`` for :func:`with_our_ties`: scikit-learn's estimator
    ``theirs`` (fitted depth first on X, y) refitted on a region's rows with
    the parameters that region had in the whole fit: fractions of rows and of
    weight made absolute, ``max_depth`` less the region's depth,
    ``min_impurity_decrease`` rescaled to the region's weight (scikit-learn
    weighs a split's decrease by the node's share of the whole), class
    weights folded into the sample weights.

    Under a leaf budget (``max_leaf_nodes``) regions are not independent, so
    a tie is broken only between two splits whose children both trees keep
    as leaves: ``leaves_only`` gives each region's root alone, and the
    caller checks that the two trees spent the same budget.  A region's
    classes are placed among ``classes`` (by default those of ``theirs``)."""
    from sklearn.utils.class_weight import compute_sample_weight

    params = theirs.get_params()
    assert leaves_only or params.get("max_leaf_nodes") is None, (
        "a leaf budget joins the regions: regrow leaves only")
    params["max_leaf_nodes"] = None
    n = len(y)
    weight = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    if params.get("class_weight") is not None:
        weight = weight * compute_sample_weight(params.pop("class_weight"), y)
    params.pop("class_weight", None)
    total = weight.sum()
    for name in ("min_samples_split", "min_samples_leaf"):
        if isinstance(params[name], float):
            params[name] = max(int(np.ceil(params[name] * n)), 2 if name.endswith("split") else 1)
    max_depth, fraction = params["max_depth"], params["min_weight_fraction_leaf"]
    decrease = params["min_impurity_decrease"]
    if classes is None:
        classes = getattr(theirs, "classes_", None)

    def fit(rows, depth):
        p = dict(params)
        region_total = weight[rows].sum()
        leaf_only = leaves_only or (max_depth is not None and depth >= max_depth)
        p["max_depth"] = 1 if leaf_only else None if max_depth is None else max_depth - depth
        if fraction:
            p["min_weight_fraction_leaf"] = fraction * total / region_total
            if p["min_weight_fraction_leaf"] > 0.5:  # no split can keep both children heavy enough
                p["min_weight_fraction_leaf"], leaf_only = 0.0, True
        p["min_impurity_decrease"] = decrease * total / region_total
        est = type(theirs)(**p).fit(X[rows], y[rows], sample_weight=weight[rows])
        cols = None if classes is None else np.searchsorted(classes, est.classes_)
        return est.tree_, cols, leaf_only

    return fit


def sklearn_reference(ours, theirs, X, y, sample_weight=None, *, rtol=1e-7, atol=1e-9):
    """scikit-learn's tree (``theirs``, fitted on X, y) with exact ties broken
    as dtree's tree (the arrays ``ours``) breaks them, and the number of ties.  Under a leaf
    budget only ties whose children are leaves can be broken so, the tree
    keeps scikit-learn's shape and its ids (the order nodes were made)."""
    X = np.asarray(X, dtype=np.float32)
    budget = theirs.max_leaf_nodes is not None
    regions = sklearn_regions(theirs, X, y, sample_weight, leaves_only=budget)
    ref, ties = with_our_ties(ours, theirs.tree_, X, regions, rtol=rtol, atol=atol)
    if budget:
        ref = numbered_like(ref, theirs.tree_)
    return ref, ties


def assert_matches_sklearn(ours, theirs, X, y, sample_weight=None, *, rtol=1e-7, atol=1e-9,
                           ids=True):
    """Every node of dtree's tree against scikit-learn's, ties broken as
    dtree breaks them (:func:`sklearn_reference`); with ``ids`` (dtree grown
    in scikit-learn's order) node ids and the leaves reached too; and the
    predictions, importances, depth and leaf count: from scikit-learn's own
    methods where no tie was broken, else from the reference tree's arrays.
    Returns the number of ties."""
    ref, ties = sklearn_reference(ours.tree_, theirs, X, y, sample_weight, rtol=rtol, atol=atol)
    X32 = np.asarray(X, dtype=np.float32)
    if ties == 0:
        importances, leaves = theirs.feature_importances_, theirs.apply(X)
        predicted = theirs.predict(X)
        depth, n_leaves = theirs.get_depth(), theirs.get_n_leaves()
    else:
        importances, leaves = tree_importances(ref, X32.shape[1]), tree_apply(ref, X32)
        value = ref.value[leaves, 0]
        predicted = (ours.classes_[np.argmax(value, axis=1)]
                     if isinstance(ours, DecisionTreeClassifier) else value[:, 0])
        depth, n_leaves = _depth(ref), int(np.sum(ref.children_left == -1))
    if ids:
        assert compare_trees(ours.tree_, ref, rtol=rtol, atol=atol, max_skipped=0) == 0
        assert_same_ids(ours.tree_, ref)
        inner = ref.children_left != -1
        np.testing.assert_array_equal(ours.tree_.missing_go_to_left[inner],
                                      ref.missing_go_to_left[inner])
        np.testing.assert_array_equal(ours.apply(X), leaves)
    # (importances are normalised by their sum: where every split's decrease
    # is rounding noise, as when a node splits for no gain, that sum is noise too)
    if _total_decrease(ref) > 1e-9 * ref.weighted_n_node_samples[0] * max(ref.impurity[0], 1.0):
        np.testing.assert_allclose(ours.feature_importances_, importances, rtol=rtol, atol=1e-12)
    if isinstance(ours, DecisionTreeClassifier):
        np.testing.assert_array_equal(ours.predict(X), predicted)
        value = ref.value[tree_apply(ref, X32), 0]
        np.testing.assert_allclose(ours.predict_proba(X),
                                   value / value.sum(axis=1, keepdims=True), rtol=1e-12)
    else:
        np.testing.assert_allclose(ours.predict(X), predicted, rtol=1e-12)
    assert ours.get_depth() == depth
    assert ours.get_n_leaves() == n_leaves
    return ties


def _total_decrease(t):
    w, imp = t.weighted_n_node_samples, t.impurity
    inner = np.flatnonzero(t.children_left != -1)
    lft, rgt = t.children_left[inner], t.children_right[inner]
    return float(np.sum(w[inner] * imp[inner] - w[lft] * imp[lft] - w[rgt] * imp[rgt]))


def _depth(t):
    depth = np.zeros(len(t.children_left), dtype=int)
    stack = [0]
    while stack:
        node = stack.pop()
        for child in (t.children_left[node], t.children_right[node]):
            if child != -1:
                depth[child] = depth[node] + 1
                stack.append(child)
    return int(depth.max())
