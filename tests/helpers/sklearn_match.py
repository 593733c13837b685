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
    ``min_impurity_decrease`` and ``ccp_alpha`` rescaled to the region's
    weight (scikit-learn weighs a split's decrease, and a node's cost, by the
    node's share of the whole; a kept node's pruned subtree hangs on its own
    subtree alone), class weights folded into the sample weights.

    Under a leaf budget (``max_leaf_nodes``) regions are not independent, so
    a tie is broken only between two splits whose children both trees keep
    as leaves: ``leaves_only`` gives each region's root alone, and the
    caller checks that the two trees spent the same budget.  A region's
    classes are placed among ``classes`` (by default those of ``theirs``;
    with several outputs a list, one array per output).  X may be a SciPy
    sparse matrix: each region is then fitted on its rows of that matrix."""
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
    decrease, alpha = params["min_impurity_decrease"], params.get("ccp_alpha", 0.0)
    if classes is None:
        classes = getattr(theirs, "classes_", None)
    several = np.ndim(y) == 2 and np.shape(y)[1] > 1

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
        if alpha:
            p["ccp_alpha"] = alpha * total / region_total
        est = type(theirs)(**p).fit(X[rows], y[rows], sample_weight=weight[rows])
        if classes is None:
            cols = None
        elif several:
            cols = [np.searchsorted(c, e) for c, e in zip(classes, est.classes_)]
        else:
            cols = np.searchsorted(classes, est.classes_)
        return est.tree_, cols, leaf_only

    return fit


def _dense32(X):
    """X as the float32 array scikit-learn grows on (a sparse X made dense)."""
    return np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=np.float32)


def sklearn_reference(ours, theirs, X, y, sample_weight=None, *, rtol=1e-7, atol=1e-9):
    """scikit-learn's tree (``theirs``, fitted on X, y) with exact ties broken
    as dtree's tree (the arrays ``ours``) breaks them, and the number of ties.  Under a leaf
    budget only ties whose children are leaves can be broken so, the tree
    keeps scikit-learn's shape and its ids (the order nodes were made).  A
    sparse X is routed dense and regrown sparse, as ``theirs`` was fitted."""
    dense = _dense32(X)
    fit_on = X.tocsc().astype(np.float32) if hasattr(X, "toarray") else dense
    budget = theirs.max_leaf_nodes is not None
    regions = sklearn_regions(theirs, fit_on, np.asarray(y), sample_weight, leaves_only=budget)
    ref, ties = with_our_ties(ours, theirs.tree_, dense, regions, rtol=rtol, atol=atol)
    if budget:
        ref = numbered_like(ref, theirs.tree_)
    return ref, ties


def _from_arrays(ours, ref, X32):
    """What the reference arrays predict for X32, as scikit-learn's methods
    would: predictions and, for a classifier, the list of each output's
    class probabilities."""
    value = ref.value[tree_apply(ref, X32)]  # (rows, outputs, classes)
    if not isinstance(ours, DecisionTreeClassifier):
        predicted = value[:, :, 0]
        return (predicted[:, 0] if ours.n_outputs_ == 1 else predicted), None
    classes = [ours.classes_] if ours.n_outputs_ == 1 else ours.classes_
    proba = [value[:, j, :len(c)] / value[:, j, :len(c)].sum(axis=1, keepdims=True)
             for j, c in enumerate(classes)]
    predicted = np.column_stack([c[np.argmax(p, axis=1)] for c, p in zip(classes, proba)])
    return (predicted[:, 0], proba) if ours.n_outputs_ == 1 else (predicted, proba)


def assert_matches_sklearn(ours, theirs, X, y, sample_weight=None, *, rtol=1e-7, atol=1e-9,
                           ids=True):
    """Every node of dtree's tree against scikit-learn's, ties broken as
    dtree breaks them (:func:`sklearn_reference`); with ``ids`` (dtree grown
    in scikit-learn's order) node ids and the leaves reached too; and the
    predictions, probabilities (each output's), importances, depth and leaf
    count: from scikit-learn's own methods where no tie was broken, else
    from the reference tree's arrays.  Returns the number of ties."""
    ref, ties = sklearn_reference(ours.tree_, theirs, X, y, sample_weight, rtol=rtol, atol=atol)
    X32 = _dense32(X)
    classifier = isinstance(ours, DecisionTreeClassifier)
    if ties == 0:
        importances, leaves = theirs.feature_importances_, theirs.apply(X)
        predicted = theirs.predict(X)
        proba = theirs.predict_proba(X) if classifier else None
        depth, n_leaves = theirs.get_depth(), theirs.get_n_leaves()
    else:
        importances, leaves = tree_importances(ref, X32.shape[1]), tree_apply(ref, X32)
        predicted, proba = _from_arrays(ours, ref, X32)
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
    if classifier:
        np.testing.assert_array_equal(ours.predict(X), predicted)
        mine = ours.predict_proba(X)
        if ours.n_outputs_ == 1:
            mine, proba = [mine], [proba] if ties == 0 else proba
        assert len(mine) == len(proba)
        for a, b in zip(mine, proba):
            np.testing.assert_allclose(a, b, rtol=1e-12)
        # and the reference's own arrays, with or without ties
        for a, b in zip(mine, _from_arrays(ours, ref, X32)[1]):
            np.testing.assert_allclose(a, b, rtol=1e-12)
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
