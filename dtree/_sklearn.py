"""Open a tree fitted by scikit-learn and replay its growth.

:func:`from_sklearn` turns a fitted scikit-learn ``DecisionTreeClassifier``,
``DecisionTreeRegressor``, ``ExtraTreeClassifier`` or ``ExtraTreeRegressor``
into a fitted dtree estimator of the same task.  Nothing is refitted: the
node arrays are copied from the estimator's ``tree_`` and dtree's own
:class:`~dtree.Tree` and :class:`~dtree.Step` records are built from them.

The growth order comes from scikit-learn's node numbering:

* depth-first (no ``max_leaf_nodes``): ids are pre-order, so split k is the
  k-th internal node in id order;
* best-first (``max_leaf_nodes`` set): ids follow creation order, and the
  children of the k-th split are nodes 2k+1 and 2k+2, which gives the order
  exactly.  A tree that scikit-learn pruned with ``ccp_alpha`` is renumbered
  in pre-order, so there the order is recovered by replaying scikit-learn's
  priority queue (a ``std::push_heap``/``pop_heap`` max-heap on the stored
  improvements; see :func:`best_first_order`).

With the training data (``X``, ``y``) every node's candidate table is
recomputed by dtree's own split search on the node's rows, with
scikit-learn's chosen split marked as chosen (for ExtraTrees that split was
drawn at random, so it need not be the best row of the table).  Without the
data the steps carry no candidate tables.

Before anything walks the tree, its arrays are checked
(:func:`~dtree._sklearn_check.check_tree_arrays`): a tree whose ids point
outside it, loop back or leave a node without a parent is refused with a
:class:`~dtree._errors.TreeFileError`.  ``.skops`` files are read by
:mod:`dtree._skops`.

scikit-learn is needed only here, and only when these functions are called:
it is imported inside them.
"""

import warnings

import numpy as np

from ._criteria import CLASSIFICATION, REGRESSION, split_information
from ._errors import TreeFileError
from ._problem import Nodes, Problem, presearch_reason
from ._search import search
from ._sklearn_check import (SETTINGS, SkopsLimits, check_classes, check_max_features,
                             check_settings, check_sizes, check_tree_arrays)
from ._steps import Steps
from ._tree import NUMERIC, TREE_LEAF, TREE_UNDEFINED, Tree

__all__ = ["from_sklearn", "best_first_order", "SKLEARN_TREE_TYPES"]

#: The estimators from_sklearn accepts (module, class name).
SKLEARN_TREE_TYPES = {
    "DecisionTreeClassifier": "classification",
    "DecisionTreeRegressor": "regression",
    "ExtraTreeClassifier": "classification",
    "ExtraTreeRegressor": "regression",
}

#: Constructor parameters copied from the scikit-learn estimator (those dtree shares).
_SHARED_PARAMS = SETTINGS

NEEDS_DATA = ("The candidate tables of a tree opened from scikit-learn need its training "
              "data: pass X and y to dtree.from_sklearn (or a data file in the app).")

_EPSILON = np.finfo(np.float64).eps


# ---------------------------------------------------------------------------
# what is accepted
# ---------------------------------------------------------------------------

def _describe(obj):
    cls = type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


def _unwrap(estimator):
    """(the tree estimator, names of the preprocessing steps before it)."""
    from sklearn.pipeline import Pipeline

    if isinstance(estimator, Pipeline):
        if not estimator.steps:
            raise ValueError("This Pipeline has no steps, so it holds no tree.")
        name, last = estimator.steps[-1]
        if not _is_sklearn_tree(last):
            raise ValueError(
                f"The last step of this Pipeline ({name!r}: {_describe(last)}) is not a "
                "scikit-learn decision tree. dtree opens a Pipeline only when its last step "
                "is a DecisionTreeClassifier, DecisionTreeRegressor, ExtraTreeClassifier or "
                "ExtraTreeRegressor.")
        return last, [str(n) for n, step in estimator.steps[:-1]
                      if step is not None and step != "passthrough"]
    return estimator, []


def _is_sklearn_tree(obj):
    from sklearn.tree import BaseDecisionTree

    return isinstance(obj, BaseDecisionTree) and type(obj).__name__ in SKLEARN_TREE_TYPES


def _check_estimator(est):
    from sklearn.tree import BaseDecisionTree

    if not _is_sklearn_tree(est):
        if hasattr(est, "estimators_") or type(est).__name__.endswith(("Forest", "Trees",
                                                                        "Boosting")):
            raise ValueError(
                f"{_describe(est)} is an ensemble of many trees; dtree opens one tree. "
                "Pass one of its trees instead, for example model.estimators_[0].")
        if isinstance(est, BaseDecisionTree):
            raise ValueError(f"{_describe(est)} is not one of the tree estimators dtree "
                             f"opens ({', '.join(SKLEARN_TREE_TYPES)}).")
        raise ValueError(
            f"Expected a fitted scikit-learn DecisionTreeClassifier, DecisionTreeRegressor, "
            f"ExtraTreeClassifier or ExtraTreeRegressor; got {_describe(est)}.")
    if not hasattr(est, "tree_"):
        raise ValueError(f"This {type(est).__name__} is not fitted yet: fit it before "
                         "opening it in dtree.")
    if getattr(est, "n_outputs_", 1) != 1:
        raise TreeFileError("multi_output", f"This {type(est).__name__}",
                            n_outputs=est.n_outputs_)


def _check_arrays(est, classifier, where, limits):
    """Check the fitted estimator's sizes and its tree's arrays; returns
    ``n_features_in_`` as an int and ``classes_`` (None for a regressor)."""
    n_classes = classes = None
    if classifier:
        classes = getattr(est, "classes_", None)
        shape = np.shape(classes)  # (the count is checked before the labels are read)
        n_classes = shape[0] if len(shape) == 1 else 1
    n_features, n_classes, _ = check_sizes(
        where, limits, n_features=est.n_features_in_, n_classes=n_classes,
        n_outputs=getattr(est, "n_outputs_", 1), node_count=est.tree_.node_count)
    if classifier:
        classes = check_classes(where, classes)
    sk = est.tree_
    value = np.asarray(sk.value)
    if classifier and value.ndim == 3 and value.shape[2] != n_classes:
        raise TreeFileError("classes_mismatch", where, n_names=n_classes,
                            n_classes=value.shape[2])
    check_tree_arrays(where, left=sk.children_left, right=sk.children_right,
                      feature=sk.feature, threshold=sk.threshold, impurity=sk.impurity,
                      n_node_samples=sk.n_node_samples,
                      weighted_n_node_samples=sk.weighted_n_node_samples, value=value,
                      n_features=n_features, n_classes=n_classes)
    names = getattr(est, "feature_names_in_", None)
    if names is not None and np.shape(names) != (n_features,):
        raise TreeFileError("bad_attribute", where, what="feature_names_in_",
                            problem="names_count", count=int(np.size(names)),
                            expected=n_features)
    return n_features, classes


# ---------------------------------------------------------------------------
# the arrays
# ---------------------------------------------------------------------------

def _structure(sk):
    """children, parent and depth arrays of a scikit-learn Tree."""
    left = np.asarray(sk.children_left, dtype=np.intp)
    right = np.asarray(sk.children_right, dtype=np.intp)
    n = len(left)
    internal = left != TREE_LEAF
    parent = np.full(n, -1, dtype=np.intp)
    parent[left[internal]] = np.flatnonzero(internal)
    parent[right[internal]] = np.flatnonzero(internal)
    depth = np.zeros(n, dtype=np.intp)
    # parents come before their children in both of scikit-learn's numberings
    for node in range(1, n):
        depth[node] = depth[parent[node]] + 1
    return left, right, internal, parent, depth


def split_numbers(sk_tree):
    """Per internal node of a scikit-learn Tree: (gain, improvement, split_info)
    from the stored arrays, NaN at leaves.  ``improvement`` is computed in
    scikit-learn's order of operations, W_t/W * (I_t - W_R/W_t I_R - W_L/W_t I_L)."""
    left, right, internal, _, _ = _structure(sk_tree)
    imp = np.asarray(sk_tree.impurity, dtype=np.float64)
    w = np.asarray(sk_tree.weighted_n_node_samples, dtype=np.float64)
    n = len(imp)
    gain = np.full(n, np.nan)
    improvement = np.full(n, np.nan)
    info = np.full(n, np.nan)
    t = np.flatnonzero(internal)
    lt, rt = left[t], right[t]
    wt = w[t]
    gain[t] = imp[t] - w[rt] / wt * imp[rt] - w[lt] / wt * imp[lt]
    improvement[t] = (wt / w[0]) * (imp[t] - (w[rt] / wt * imp[rt]) - (w[lt] / wt * imp[lt]))
    with np.errstate(divide="ignore", invalid="ignore"):
        info[t] = split_information(w[lt], w[rt])
    return gain, improvement, info


def _tree_from_sklearn(sk):
    left, right, internal, parent, depth = _structure(sk)
    n = len(left)
    counts = np.where(internal, 2, 0)
    child_ptr = np.r_[0, np.cumsum(counts)].astype(np.intp)
    child_ids = np.column_stack([left, right])[internal].ravel().astype(np.intp)
    w = np.asarray(sk.weighted_n_node_samples, dtype=np.float64)
    share = w[child_ids] / np.repeat(w[internal], 2) if len(child_ids) else np.zeros(0)
    gain, improvement, info = split_numbers(sk)
    # classifiers: class fractions, as scikit-learn (>= 1.4) and dtree store them
    value = np.asarray(sk.value, dtype=np.float64)[:, :1, :].copy()
    mgl = np.asarray(getattr(sk, "missing_go_to_left", np.zeros(n, np.uint8)))
    return Tree(
        child_ptr=child_ptr,
        child_ids=child_ids,
        child_share=share.astype(np.float64),
        feature=np.where(internal, np.asarray(sk.feature), TREE_UNDEFINED).astype(np.intp),
        threshold=np.where(internal, np.asarray(sk.threshold, dtype=np.float64),
                           float(TREE_UNDEFINED)),
        impurity=np.asarray(sk.impurity, dtype=np.float64).copy(),
        n_node_samples=np.asarray(sk.n_node_samples, dtype=np.intp).copy(),
        weighted_n_node_samples=w.copy(),
        value=value,
        depth=depth,
        parent=parent,
        stop_reason=np.full(n, "", dtype=object),
        node_ids=np.arange(n),
        split_improvement=improvement,
        split_gain=gain,
        split_info=info,
        kind=np.full(n, NUMERIC, dtype=np.int8),
        missing_child=np.where(internal, np.where(mgl != 0, 0, 1), -1).astype(np.intp),
        branch_of_code=np.full(n, None, dtype=object),
    )


# ---------------------------------------------------------------------------
# the growth order
# ---------------------------------------------------------------------------

def _creation_order(tree):
    """The best-first split order read off creation-order ids (the k-th split
    created nodes 2k+1 and 2k+2), or None if the ids are not in that order."""
    internal = np.flatnonzero(~tree.is_leaf())
    if not len(internal):
        return []
    left = tree.children_left[internal]
    order = internal[np.argsort(left, kind="stable")]
    k = np.arange(len(order))
    ok = (np.array_equal(tree.children_left[order], 2 * k + 1)
          and np.array_equal(tree.children_right[order], 2 * k + 2))
    return order.tolist() if ok else None


def _heap_push(heap, item):
    """libstdc++'s std::push_heap with scikit-learn's comparison
    (a < b when a's improvement is smaller): a max-heap on improvement."""
    heap.append(item)
    _sift_up(heap, len(heap) - 1, 0, item)


def _sift_up(heap, hole, top, item):
    parent = (hole - 1) // 2
    while hole > top and heap[parent][0] < item[0]:
        heap[hole] = heap[parent]
        hole = parent
        parent = (hole - 1) // 2
    heap[hole] = item


def _heap_pop(heap):
    """libstdc++'s std::pop_heap followed by pop_back."""
    n = len(heap)
    if n > 1:
        last = n - 1
        value = heap[last]
        heap[last] = heap[0]
        # __adjust_heap(first, 0, last, value)
        length, hole = last, 0
        child = 0
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if heap[child][0] < heap[child - 1][0]:
                child -= 1
            heap[hole] = heap[child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            heap[hole] = heap[child - 1]
            hole = child - 1
        _sift_up(heap, hole, 0, value)
    return heap.pop()


def best_first_order(tree, leaf_improvement=None):
    """The order in which scikit-learn's best-first builder split the internal
    nodes of ``tree``, found by replaying its frontier: a max-heap keyed by
    each node's improvement (``tree.split_improvement``), with libstdc++'s
    heap algorithm so that exact ties fall as they fell in scikit-learn.
    Leaves enter the heap with key 0 (scikit-learn's key for a node that
    cannot be split) or ``leaf_improvement[node]`` where that is given and
    finite (the best split of a leaf the leaf budget left unsplit).  Children
    are pushed left first."""
    is_leaf = tree.is_leaf()
    key = np.where(is_leaf, 0.0, tree.split_improvement)
    if leaf_improvement is not None:
        extra = np.asarray(leaf_improvement, dtype=np.float64)
        key = np.where(is_leaf & np.isfinite(extra), extra, key)
    heap, order = [], []
    _heap_push(heap, (float(key[0]), 0))
    left, right = tree.children_left, tree.children_right
    while heap:
        _, node = _heap_pop(heap)
        if is_leaf[node]:
            continue
        order.append(node)
        for kid in (int(left[node]), int(right[node])):
            _heap_push(heap, (float(key[kid]), kid))
    return order


# ---------------------------------------------------------------------------
# the training data: candidate tables and stop reasons
# ---------------------------------------------------------------------------

def _routes(tree, Xf):
    """(rows, nodes): every (row, node) pair with the row passing the node."""
    n = Xf.shape[0]
    rows_out, nodes_out = [], []
    rows = np.arange(n)
    node = np.zeros(n, dtype=np.intp)
    while rows.size:
        rows_out.append(rows)
        nodes_out.append(node)
        inner = tree.n_children[node] > 0
        rows, node = rows[inner], node[inner]
        if not rows.size:
            break
        branch = tree.branch(Xf, rows, node)
        branch = np.where(branch < 0, tree.missing_child[node], branch)
        node = tree._child(node, branch)
    return np.concatenate(rows_out), np.concatenate(nodes_out)


def _search_with_data(est, tree, Xf, codes, w, params, where):
    """Run dtree's split search on every node's rows.  Returns the Nodes
    record (searched, has_split, improvement, candidates) of the search."""
    from ._criteria import make_criterion

    keep = w > 0
    Xk, yk, wk = Xf[keep], codes[keep], w[keep]
    rows, nodes_of = _routes(tree, Xk)
    n_seen = np.bincount(nodes_of, minlength=tree.node_count)
    if not np.array_equal(n_seen, tree.n_node_samples):
        bad = int(np.flatnonzero(n_seen != tree.n_node_samples)[0])
        raise TreeFileError("data_rows_differ", where, node=bad,
                            stored=int(tree.n_node_samples[bad]), seen=int(n_seen[bad]))
    crit = make_criterion(est.criterion_, getattr(est, "n_classes_", 0),
                          classification=est._is_classifier)
    stats = est._sample_stats(yk, wk)  # (n, d)
    node_stats = np.zeros((tree.node_count, stats.shape[1]))
    for k in range(stats.shape[1]):
        node_stats[:, k] = np.bincount(nodes_of, weights=stats[rows, k],
                                       minlength=tree.node_count)
    if est._is_classifier:
        # the class weights must be those scikit-learn saw at each node
        expected = tree.value[:, 0, :] * tree.weighted_n_node_samples[:, None]
        if not np.allclose(node_stats[:, :-1], expected, rtol=1e-6, atol=1e-6):
            raise TreeFileError("data_counts_differ", where)
    elif not np.allclose(node_stats[:, -1], tree.weighted_n_node_samples, rtol=1e-6,
                         atol=1e-9):
        raise TreeFileError("data_weights_differ", where)
    prob = Problem(
        np.ascontiguousarray(Xk.T), np.ascontiguousarray(stats.T), yk, wk, crit,
        max_depth=params["max_depth"], min_samples_split=params["min_samples_split"],
        min_samples_leaf=params["min_samples_leaf"], min_weight_leaf=params["min_weight_leaf"],
        max_features=Xk.shape[1],  # the table shows every feature (see from_sklearn)
        splitter="best", min_impurity_decrease=float(est.min_impurity_decrease),
        weight_total=float(wk.sum()), rng=np.random.default_rng(0))
    nodes = Nodes(stats.shape[1], capacity=max(tree.node_count, 1))
    nodes.add(parent=tree.parent, depth=tree.depth, n=tree.n_node_samples,
              stats=node_stats, impurity=tree.impurity)
    ids_all = np.arange(tree.node_count)
    reason = presearch_reason(prob, ids_all, nodes)
    nodes.reason[:] = reason
    to_search = (reason == 0) | ~tree.is_leaf()
    # one batch per depth: a row is in at most one node of a level
    n = Xk.shape[0]
    rank = np.empty((Xk.shape[1], n), dtype=np.intp)
    for f in range(Xk.shape[1]):
        rank[f, np.argsort(Xk[:, f], kind="stable")] = np.arange(n)  # NaN last
    for d in range(int(tree.depth.max()) + 1 if tree.node_count else 0):
        ids = np.flatnonzero(to_search & (tree.depth == d))
        if not len(ids):
            continue
        at = np.isin(nodes_of, ids)
        r, nd = rows[at], nodes_of[at]
        seg_of = np.searchsorted(ids, nd)
        P = np.empty((Xk.shape[1], len(r)), dtype=np.intp)
        for f in range(Xk.shape[1]):
            P[f] = r[np.lexsort((rank[f, r], seg_of))]
        sizes = np.bincount(seg_of, minlength=len(ids))
        live = sizes > 0
        if not live.all():  # (an empty node cannot be split; nothing to search)
            ids, sizes = ids[live], sizes[live]
        starts = np.cumsum(sizes) - sizes
        search(prob, nodes, P, starts, sizes, ids, True)
    return nodes


def _mark_chosen(nodes, tree):
    """Make each split node's candidate row for its feature describe the
    split scikit-learn made (for ExtraTrees a random threshold)."""
    for node in np.flatnonzero(~tree.is_leaf()):
        ref = nodes.candidates.get(int(node))
        if ref is None:
            continue
        cb, col = ref
        f = int(tree.feature[node])
        left, right = tree.children_of(node)
        w = tree.weighted_n_node_samples
        cb.evaluated[f, col] = True
        cb.eligible[f, col] = True
        cb.threshold[f, col] = tree.threshold[node]
        cb.gain[f, col] = tree.split_gain[node]
        cb.improvement[f, col] = tree.split_improvement[node]
        cb.split_info[f, col] = tree.split_info[node]
        cb.n_left[f, col] = tree.n_node_samples[left]
        cb.n_right[f, col] = tree.n_node_samples[right]
        cb.weight_left[f, col] = w[left]
        cb.weight_right[f, col] = w[right]
        cb.impurity_left[f, col] = tree.impurity[left]
        cb.impurity_right[f, col] = tree.impurity[right]
        cb.missing_child[f, col] = tree.missing_child[node]


def _stop_reasons(tree, params, min_impurity_decrease, budget_used, pruned, nodes=None):
    """Why each leaf is a leaf, as far as the arrays (and the search, when the
    training data was given) tell."""
    n = tree.n_node_samples.astype(np.float64)
    w = tree.weighted_n_node_samples
    reasons = np.full(tree.node_count, "", dtype=object)
    leaf = tree.is_leaf()
    for node in np.flatnonzero(leaf):
        if tree.impurity[node] <= _EPSILON:
            r = "pure"
        elif tree.depth[node] >= params["max_depth"]:
            r = "max_depth"
        elif n[node] < 2 * params["min_samples_leaf"]:
            r = "min_samples_leaf"
        elif n[node] < params["min_samples_split"]:
            r = "min_samples_split"
        elif w[node] < 2 * params["min_weight_leaf"]:
            r = "min_weight_fraction_leaf"
        elif nodes is not None and nodes.searched[node]:
            if nodes.feature[node] < 0:
                r = "no valid split"
            elif nodes.improvement[node] + _EPSILON < min_impurity_decrease:
                r = "min_impurity_decrease"
            elif budget_used:
                r = "leaf budget"
            elif pruned:
                r = "pruned (ccp_alpha)"
            else:
                r = "no valid split"
        elif budget_used:
            r = "leaf budget"
        elif pruned:
            r = "no split"  # pruned by ccp_alpha, or no valid split: only the data tells
        else:
            r = "no valid split"
        reasons[node] = r
    return reasons


# ---------------------------------------------------------------------------
# from_sklearn
# ---------------------------------------------------------------------------

def from_sklearn(estimator, X=None, y=None, *, sample_weight=None, limits=None):
    """A fitted dtree estimator holding the tree of a fitted scikit-learn tree.

    Parameters
    ----------
    estimator : a fitted ``sklearn.tree.DecisionTreeClassifier``,
        ``DecisionTreeRegressor``, ``ExtraTreeClassifier`` or
        ``ExtraTreeRegressor``, or a ``Pipeline`` whose last step is one (its
        earlier steps are named in ``preprocessing_`` and a warning; ``X`` is
        passed through them).
    X, y : the training data, optional.  With them every node's candidate
        table is recomputed (``steps_[k].candidates``): one row per feature,
        that feature's best threshold at the node by dtree's search, except
        that the chosen feature's row is the split scikit-learn made.  When
        scikit-learn drew features (``max_features``) or thresholds
        (ExtraTrees) at random, the table still shows every feature and the
        chosen row need not be the best.  Without them, ``candidates`` is
        None (see ``NEEDS_DATA``).
    sample_weight : the weights given to ``fit``, if any.
    limits : SkopsLimits, optional
        The largest tree opened (nodes, features, classes); the defaults
        open two million nodes.

    Raises
    ------
    ValueError
        If the estimator is not a fitted single-output scikit-learn tree, or
        (a :class:`~dtree._errors.TreeFileError`) if its arrays do not
        describe one consistent tree.

    Returns
    -------
    A dtree ``DecisionTreeClassifier`` or ``DecisionTreeRegressor`` whose
    ``tree_`` holds scikit-learn's arrays (ids unchanged), whose ``steps_``
    replay the growth in scikit-learn's build order (see the module
    docstring), and whose ``get_params()`` are scikit-learn's (those dtree
    shares).  A tree pruned with ``ccp_alpha`` replays the growth of the tree
    as stored.  Extra attributes: ``imported_from_`` (the estimator's class),
    ``preprocessing_`` (pipeline steps before the tree) and
    ``has_training_data_``.
    """
    return open_sklearn_tree(estimator, X, y, sample_weight=sample_weight,
                             where=None, limits=limits)


def open_sklearn_tree(estimator, X=None, y=None, *, sample_weight=None, where=None,
                      limits=None):
    """:func:`from_sklearn`, with ``where`` naming the estimator in messages
    (the file it came from; by default "This <class>")."""
    from ._base import as_float32_matrix, as_sample_weight, as_target
    from ._classes import DecisionTreeClassifier, DecisionTreeRegressor

    tree_est, preprocessing = _unwrap(estimator)
    _check_estimator(tree_est)
    task = SKLEARN_TREE_TYPES[type(tree_est).__name__]
    classifier = task == "classification"
    where = where or f"This {type(tree_est).__name__}"
    n_features, classes = _check_arrays(tree_est, classifier, where, limits or SkopsLimits())
    cls = DecisionTreeClassifier if classifier else DecisionTreeRegressor
    # settings scikit-learn would refuse (a hand-made file) never reach dtree's fit code
    check_settings(where, tree_est, CLASSIFICATION if classifier else REGRESSION, classes)
    if preprocessing:
        warnings.warn(
            "This Pipeline transforms its input before the tree ("
            + ", ".join(preprocessing) + "): the tree's features are the output of those "
            "steps, not the original columns.", UserWarning, stacklevel=2)
        if X is not None:
            X = estimator[:-1].transform(X)
    sk_params = {name: getattr(tree_est, name, None)
                 for name in SETTINGS + ("class_weight", "monotonic_cst")}
    params = {k: sk_params[k] for k in _SHARED_PARAMS}
    if isinstance(params["max_features"], (int, np.integer)):
        # scikit-learn takes a whole max_features above n_features_in_ as all of them
        params["max_features"] = min(int(params["max_features"]), n_features)
    if classifier:
        params["class_weight"] = sk_params.get("class_weight")
    if sk_params.get("monotonic_cst") is not None:
        warnings.warn("This tree was fitted with monotonic_cst, which dtree does not "
                      "have; its node values are copied as scikit-learn clipped them.",
                      UserWarning, stacklevel=2)
    est = cls(**params)
    sk = tree_est.tree_
    if hasattr(tree_est, "feature_names_in_"):
        est.feature_names_in_ = np.asarray(tree_est.feature_names_in_, dtype=object)
    est.n_features_in_ = n_features
    if classifier:
        est.classes_ = np.asarray(tree_est.classes_)
        est.n_classes_ = len(est.classes_)
    crit = sk_params["criterion"]
    est._setup = dict(criterion=crit, multiway=False, missing="cart", average_gain=False,
                      j48=False)
    est.is_categorical_ = np.zeros(n_features, dtype=bool)
    est.categories_ = [None] * n_features
    est.max_features_ = check_max_features(where, getattr(tree_est, "max_features_", None),
                                           n_features)
    best_first = sk_params["max_leaf_nodes"] is not None
    est.growth_ = "best_first" if best_first else "depth_first"
    est.n_outputs_ = 1
    est.criterion_ = crit
    est.multiway_ = False
    est.missing_ = "cart"
    est.imported_from_ = f"sklearn.tree.{type(tree_est).__name__}"
    est.preprocessing_ = preprocessing

    tree = _tree_from_sklearn(sk)
    est._candidate_refs = {}

    has_data = X is not None or y is not None
    nodes = None
    n_rows = int(tree.n_node_samples[0])
    weight_sum = float(tree.weighted_n_node_samples[0])
    if has_data:
        if X is None or y is None:
            raise TreeFileError("data_x_without_y", where)
        from ._base import check_n_features

        check_n_features(est, X, reset=False)
        Xf = as_float32_matrix(X)
        if Xf.shape[1] != n_features:
            raise TreeFileError("data_n_features", where, given=int(Xf.shape[1]),
                                expected=n_features)
        n_rows = Xf.shape[0]
        yv = as_target(y, n_samples=n_rows)
        if classifier:
            lookup = {c: i for i, c in enumerate(est.classes_.tolist())}
            try:
                codes = np.array([lookup[v] for v in yv.tolist()], dtype=np.intp)
            except KeyError as exc:
                raise TreeFileError("data_unknown_label", where,
                                    label=repr(exc.args[0])[:80]) from None
        else:
            codes = np.asarray(yv, dtype=np.float64)
        w = as_sample_weight(sample_weight, n_rows)
        w, has_weights = est._apply_class_weight(codes, w, sample_weight is not None)
        weight_sum = float(w.sum())
    else:
        has_weights = classifier and sk_params.get("class_weight") is not None
    resolved = est._resolve_params(n_rows, n_features, weight_sum, has_weights)
    if has_data:
        nodes = _search_with_data(est, tree, Xf, codes, w, resolved, where)
    if nodes is not None:
        _mark_chosen(nodes, tree)
        searched = nodes.searched[:tree.node_count] & (nodes.feature[:tree.node_count] >= 0)
        leaf = tree.is_leaf()
        tree.split_improvement = np.where(leaf & searched,
                                          nodes.improvement[:tree.node_count],
                                          tree.split_improvement)
        est._candidate_refs = {int(k): v for k, v in nodes.candidates.items()}

    n_splits = int((~tree.is_leaf()).sum())
    budget_used = best_first and n_splits >= sk_params["max_leaf_nodes"] - 1
    pruned = float(sk_params["ccp_alpha"]) > 0
    tree.stop_reason = _stop_reasons(tree, resolved, float(est.min_impurity_decrease),
                                     budget_used, pruned, nodes)
    if best_first:
        order = _creation_order(tree)
        if order is None:  # renumbered by ccp_alpha pruning: replay the heap
            leaf_imp = np.where(tree.is_leaf(), tree.split_improvement, np.nan)
            order = best_first_order(tree, leaf_imp if has_data else None)
    else:
        order = np.flatnonzero(~tree.is_leaf()).tolist()
    est.tree_ = tree
    est.has_training_data_ = has_data
    names = est.feature_names_
    est.steps_ = Steps(est, tree, order, names, est.categories_)
    return est
