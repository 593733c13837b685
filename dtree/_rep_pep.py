"""Reduced-error (REP) and pessimistic error pruning (PEP), which you can watch.

REP uses a validation set: bottom-up, a node is collapsed when its validation
errors as a leaf are not larger than those of the branch below it.  PEP uses
only the training counts stored in the tree, with a continuity correction of
1/2 per leaf: top-down, a node is collapsed when
``error(t) + 0.5 < E(T_t) + std(T_t)`` with ``E(T_t) = sum of leaf errors +
0.5 * |T_t|`` and ``std(T_t) = sqrt(E(T_t) * (1 - E(T_t) / N(T_t)))``.

Nothing here mutates a tree: every function returns a new ``Tree``.  The
walks over the tree and the node predictions are :mod:`dtree._pruning`'s.
"""

from typing import NamedTuple

import numpy as np

from ._errors import CodedError
from ._multioutput import refuse
from ._pruning import (_NEVER, _ancestor_pairs, _collapsed_tree, _encoded, _levels,
                       _node_predictions, _removal_steps, _target_and_weights)
from ._tree import Tree

__all__ = ["PruneResult", "pessimistic_prune", "reduced_error_prune"]

class PruneResult(NamedTuple):
    """A pruned tree (new object) and the record of every decision.

    Attributes
    ----------
    tree : Tree
        The pruned tree, renumbered in pre-order; its ``node_ids`` name the
        nodes of the tree that was pruned.
    record : pandas.DataFrame
        One row per decision, with the columns the pruning function lists.
    """

    tree: Tree
    record: object  # pandas.DataFrame


def _record(rows, **dtypes):
    """A DataFrame of decision rows with fixed column types (also when empty)."""
    import pandas as pd

    columns = list(zip(*rows)) or [()] * len(dtypes)
    return pd.DataFrame({name: np.array(col, dtype=dtype)
                         for (name, dtype), col in zip(dtypes.items(), columns)})


def _without_branches_below(tree, pruned_nodes):
    """The tree in which every node of ``pruned_nodes`` becomes a leaf."""
    collapsed_at = np.full(tree.node_count, _NEVER, dtype=np.intp)
    collapsed_at[np.asarray(pruned_nodes, dtype=np.intp)] = 0
    keep = _removal_steps(tree, _levels(tree), collapsed_at) == _NEVER
    return _collapsed_tree(tree, keep)


def _postorder(tree):
    """Node ids with every node after all of its descendants."""
    return _preorder_mirror(tree)[::-1]


def _preorder_mirror(tree):
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(tree.children_of(node))
    return order


def reduced_error_prune(estimator, X_val, y_val, *, sample_weight=None, tree=None):
    """Reduced-error pruning (REP) of a fitted estimator's tree on a validation set.

    Bottom-up (every node after its children, children in branch order), an
    internal node t is collapsed into a leaf when the validation errors of t
    as a leaf (predicting what it predicts from training) are not more than
    those of the branch below it as it stands, i.e. after its children's own
    decisions.  Errors are misclassified validation rows for a classifier
    (weighted by ``sample_weight`` if given) and the sum of squared errors
    for a regressor.  Where C4.5's rule sends a row with a missing value down
    every branch, each part counts with its fraction of the row, as C4.5
    counts errors.  A node that no validation row reaches has 0 errors either
    way and is collapsed: REP trusts the validation set entirely.

    The seed notes call the method top-down in one sentence and bottom-up in
    the next; this follows the bottom-up order, which is Quinlan's.

    Parameters
    ----------
    estimator : DecisionTreeClassifier or DecisionTreeRegressor
        A fitted estimator.
    X_val : array-like of shape (n_samples, n_features)
        The validation rows.
    y_val : array-like of shape (n_samples,)
        Their targets.
    sample_weight : array-like of shape (n_samples,), default=None
        The validation rows' weights.
    tree : Tree, default=None
        The tree to prune: ``estimator.tree_`` by default; any tree of the
        estimator (e.g. ``tree_at(k)`` or ``unpruned_tree_``) may be given.

    Returns
    -------
    PruneResult
        ``(tree, record)``; the record has one row per internal node in
        decision order: ``node``, ``node_id``, ``depth``, ``n_val``
        (validation weight reaching the node), ``n_leaves`` (leaves of the
        branch before the decision), ``errors_before`` (the branch),
        ``errors_after`` (the node as a leaf), ``pruned`` and
        ``tree_errors`` (validation errors of the whole tree after the
        decision; ``record.attrs["errors_start"]`` is the value before any).
    """
    refuse("reduced_error_prune", estimator, y_val)
    tree = estimator.tree_ if tree is None else tree
    X_val = _encoded(estimator, X_val)
    y, w = _target_and_weights(y_val, sample_weight, X_val.shape[0])
    rows, leaves, mass = tree.leaf_weights(X_val)  # C4.5 may split a row across branches
    anc, k = _ancestor_pairs(tree, leaves)
    row, weight = rows[k], w[rows[k]] * mass[k]
    pred = _node_predictions(estimator, tree)
    if hasattr(estimator, "classes_"):
        loss = weight * (pred[anc] != y[row])
    else:
        loss = weight * (pred[anc] - y[row]) ** 2
    n = tree.node_count
    leaf_errors = np.bincount(anc, weights=loss, minlength=n)  # each node as a leaf
    n_val = np.bincount(anc, weights=weight, minlength=n)

    current = leaf_errors.tolist()  # errors of each branch as it stands
    leaves = [1] * n
    total = float(leaf_errors[tree.is_leaf()].sum())
    start = total
    rows, pruned_nodes = [], []
    for t in _postorder(tree):
        kids = tree.children_of(t)
        if not kids:
            continue
        before = sum(current[c] for c in kids)
        n_leaves = sum(leaves[c] for c in kids)
        after = float(leaf_errors[t])
        prune = after <= before
        if prune:
            current[t], leaves[t] = after, 1
            total += after - before
            pruned_nodes.append(t)
        else:
            current[t], leaves[t] = before, n_leaves
        rows.append((t, int(tree.node_ids[t]), int(tree.depth[t]), float(n_val[t]), n_leaves,
                     before, after, prune, total))
    record = _record(rows, node=int, node_id=int, depth=int, n_val=float, n_leaves=int,
                     errors_before=float, errors_after=float, pruned=bool, tree_errors=float)
    record.attrs["errors_start"] = start
    return PruneResult(_without_branches_below(tree, pruned_nodes), record)


def _training_errors(tree):
    """Misclassified training weight of every node as a leaf.

    Recovered from the class fractions in ``value`` times the node weight;
    counts within rounding noise of a whole number (every count, for a tree
    grown without weights) are snapped to it.
    """
    w = tree.weighted_n_node_samples
    counts = tree.value[:, 0, :] * w[:, None]
    whole = np.rint(counts)
    counts = np.where(np.abs(counts - whole) <= 1e-9 * np.maximum(w, 1.0)[:, None], whole, counts)
    return w - counts.max(axis=1)


def pessimistic_prune(model, *, tree=None):
    """Pessimistic error pruning (PEP) of a classification tree, as the lecture
    on pruning describes it.  Needs no validation data: only the training counts.

    For an internal node t with L leaves below it and N(T) training samples:

    * E(T) = sum of the leaves' misclassified samples + 0.5 * L
      (a continuity correction of 1/2 per leaf);
    * std(T) = sqrt(E(T) * (1 - E(T) / N(T))), the binomial standard deviation
      (clipped at 0 if weights make E(T) exceed N(T));
    * E(leaf) = misclassified samples of t as a leaf + 0.5.

    Top-down (pre-order from the root), t is collapsed when
    E(leaf) < E(T) + std(T) (strictly, as in the seed); its branch is then
    gone and is not visited.  With sample weights, "samples" are weights.

    Parameters
    ----------
    model : DecisionTreeClassifier or Tree
        A fitted classifier (its ``tree_`` is pruned unless ``tree`` is
        given) or a classification tree.
    tree : Tree, default=None
        The tree to prune instead of ``model.tree_``.

    Returns
    -------
    PruneResult
        ``(tree, record)``; the record has one row per node visited:
        ``node``, ``node_id``, ``depth``, ``N`` (training weight),
        ``n_leaves`` (L), ``errors_leaves`` (sum of the leaves' errors),
        ``E_T``, ``std_T``, ``upper`` (E(T) + std(T)), ``errors_node`` (t's
        errors as a leaf), ``E_leaf`` and ``pruned``.
    """
    refuse("pessimistic_prune", model)
    refuse("pessimistic_prune", tree)
    if hasattr(model, "tree_"):
        if not hasattr(model, "classes_"):
            raise CodedError("pep_regressor")
        tree = model.tree_ if tree is None else tree
    else:
        tree = model
    node_errors = _training_errors(tree)
    leaves = np.flatnonzero(tree.is_leaf())
    anc, k = _ancestor_pairs(tree, leaves)
    leaf_error_sums = np.bincount(anc, weights=node_errors[leaves][k], minlength=tree.node_count)
    n_leaves = np.bincount(anc, minlength=tree.node_count)

    rows, pruned_nodes, stack = [], [], [0]
    while stack:
        t = stack.pop()
        kids = tree.children_of(t)
        if not kids:
            continue
        N = float(tree.weighted_n_node_samples[t])
        L = int(n_leaves[t])
        E_T = float(leaf_error_sums[t]) + 0.5 * L
        std_T = float(np.sqrt(max(E_T * (1.0 - E_T / N), 0.0)))
        E_leaf = float(node_errors[t]) + 0.5
        prune = E_leaf < E_T + std_T
        rows.append((t, int(tree.node_ids[t]), int(tree.depth[t]), N, L,
                     float(leaf_error_sums[t]), E_T, std_T, E_T + std_T,
                     float(node_errors[t]), E_leaf, prune))
        if prune:
            pruned_nodes.append(t)
        else:
            stack.extend(reversed(kids))
    record = _record(rows, node=int, node_id=int, depth=int, N=float, n_leaves=int,
                     errors_leaves=float, E_T=float, std_T=float, upper=float,
                     errors_node=float, E_leaf=float, pruned=bool)
    return PruneResult(_without_branches_below(tree, pruned_nodes), record)
