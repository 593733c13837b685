"""Post-pruning you can watch: minimal cost-complexity.

Minimal cost-complexity pruning (Breiman et al.; scikit-learn's ``ccp_alpha``)
------------------------------------------------------------------------------
For a node t of a tree with root weight W (sum of sample weights at the root):

* R(t)   = I(t) * W_t / W, the node's own weighted impurity (a leaf's cost);
* R(T_t) = the sum of R over the leaves of the branch below t (as it is now);
* |T_t|  = the number of those leaves;
* g(t)   = (R(t) - R(T_t)) / (|T_t| - 1), the alpha at which collapsing t into a
  leaf stops costing anything: R(t) + alpha == R(T_t) + alpha * |T_t|.

Weakest-link pruning collapses, one node per step, the internal node with the
smallest g(t) (the lowest id on an exact tie, so tied alphas repeat in the
path), updates R(T_t) and |T_t| of its ancestors and repeats until the root is
a leaf.  This gives the nested subtrees T0 (the input) > T1 > ... > {root}.
``ccp_alpha = a`` keeps pruning while the smallest g(t) <= a.  Every sum is
formed in the order scikit-learn forms it, so exact ties break the same way.

Reduced-error and pessimistic error pruning are in :mod:`dtree._rep_pep`.

Nothing here mutates a tree: every function returns a new ``Tree``.  Trees are
walked through ``parent``, ``depth``, ``is_leaf()`` and ``children_of()``, so
nodes with more than two children need no special case.
"""

import heapq
from dataclasses import dataclass

import numpy as np

from ._errors import CodedError
from ._multioutput import refuse
from ._tree import _NODE_ARRAYS, Tree, preorder

__all__ = [
    "PruneStep", "PruningPath", "PruningSequence", "ccp_cross_validate", "ccp_holdout",
    "ccp_prune", "cost_complexity_table", "pruning_path", "pruning_sequence",
]


# ---------------------------------------------------------------------------
# walking a tree through its parent array
# ---------------------------------------------------------------------------

def _levels(tree):
    """Node ids grouped by depth, shallowest first, ids ascending in each."""
    depth = tree.depth - tree.depth[0]
    order = np.argsort(depth, kind="stable")
    bounds = np.cumsum(np.bincount(depth, minlength=int(depth.max()) + 1))
    return np.split(order, bounds[:-1])


def _ancestor_pairs(tree, nodes):
    """Pairs (ancestor, k): for each ``nodes[k]``, itself and every node above it.

    The pairs are sorted by k, so a ``np.bincount`` over them adds the
    contributions to each ancestor in the order of ``nodes``.
    """
    ancestors, owners = [], []
    cur, own = np.asarray(nodes, dtype=np.intp), np.arange(len(nodes))
    while cur.size:
        ancestors.append(cur)
        owners.append(own)
        up = tree.parent[cur]
        cur, own = up[up >= 0], own[up >= 0]
    ancestors, owners = np.concatenate(ancestors), np.concatenate(owners)
    order = np.argsort(owners, kind="stable")
    return ancestors[order], owners[order]


def _branch_costs(tree):
    """R(t), R(T_t) and |T_t| for every node.

    R(T_t) adds the leaves' costs in increasing leaf id, starting from 0, which
    is scikit-learn's order: g(t) then agrees with it to the last bit, and
    exact ties break the same way.
    """
    w = tree.weighted_n_node_samples
    r_node = w * tree.impurity / w[0]
    leaves = np.flatnonzero(tree.is_leaf())
    anc, k = _ancestor_pairs(tree, leaves)
    n = tree.node_count
    r_branch = np.bincount(anc, weights=r_node[leaves][k], minlength=n)
    n_leaves = np.bincount(anc, minlength=n)
    return r_node, r_branch, n_leaves


def _alpha_of(r_node, r_branch, n_leaves):
    with np.errstate(divide="ignore", invalid="ignore"):
        return (r_node - r_branch) / (n_leaves - 1)


def cost_complexity_table(tree):
    """Cost-complexity values of every node of ``tree``.

    Parameters
    ----------
    tree : Tree
        Any tree, including a partial tree from ``tree_at(k)``.

    Returns
    -------
    DataFrame
        Indexed by the compact node index, with columns

        * ``node_id``: the node's id in the fully grown tree
          (``tree.node_ids``);
        * ``is_leaf``;
        * ``R_t``: R(t) = impurity * W_t / W_root;
        * ``R_Tt``: R(T_t), the sum of R over the node's current leaves;
        * ``n_leaves``: |T_t| (1 for a leaf);
        * ``g``: (R(t) - R(T_t)) / (|T_t| - 1), NaN for leaves;
        * ``weakest_link``: True for the one internal node weakest-link
          pruning would collapse next (the smallest g, the lowest index on a
          tie).
    """
    import pandas as pd

    r_node, r_branch, n_leaves = _branch_costs(tree)
    leaf = tree.is_leaf()
    g = np.where(leaf, np.nan, _alpha_of(r_node, r_branch, n_leaves))
    weakest = np.zeros(tree.node_count, dtype=bool)
    if not leaf.all():
        weakest[np.argmin(np.where(leaf, np.inf, g))] = True
    return pd.DataFrame({
        "node_id": tree.node_ids,
        "is_leaf": leaf,
        "R_t": r_node + 0.0,  # + 0.0: a pure node's entropy can be -0.0
        "R_Tt": r_branch + 0.0,
        "n_leaves": np.where(leaf, 1, n_leaves),
        "g": g,
        "weakest_link": weakest,
    })


# ---------------------------------------------------------------------------
# the weakest-link sequence
# ---------------------------------------------------------------------------

_NEVER = np.iinfo(np.intp).max  # "not collapsed / not removed in any step"
_FLOAT_FIELDS = ("alpha", "R_t", "R_Tt", "total_cost")


def _subtree_spans(tree, levels):
    """A layout in which every branch is contiguous: node ``i`` sits at
    ``start[i]`` and its descendants fill the next ``size[i] - 1`` places."""
    n = tree.node_count
    size = np.ones(n, dtype=np.intp)
    for nodes in reversed(levels[1:]):
        np.add.at(size, tree.parent[nodes], size[nodes])
    start = np.zeros(n, dtype=np.intp)
    for nodes in levels[1:]:
        # siblings, grouped by parent, take consecutive places after it
        by_parent = nodes[np.argsort(tree.parent[nodes], kind="stable")]
        sizes = size[by_parent]
        before = np.cumsum(sizes) - sizes
        parents = tree.parent[by_parent]
        first = np.r_[True, parents[1:] != parents[:-1]]
        group_base = np.maximum.accumulate(np.where(first, before, 0))
        start[by_parent] = start[parents] + 1 + before - group_base
    return start, size


def _removal_steps(tree, levels, collapsed_at):
    """For every node, the first step after which it is no longer in the tree
    (the step that collapsed one of its ancestors), or _NEVER."""
    removed_at = np.full(tree.node_count, _NEVER, dtype=np.intp)
    for nodes in levels[1:]:
        up = tree.parent[nodes]
        removed_at[nodes] = np.minimum(removed_at[up], collapsed_at[up])
    return removed_at


def _weakest_links(tree, stop_alpha=None):
    """Run weakest-link pruning on ``tree``; stop before the first step whose
    alpha exceeds ``stop_alpha`` (None: go on until the root is a leaf).

    Returns the per-step arrays and, per node, the step that collapsed it.

    scikit-learn rescans every node at each step.  Here a heap holds (g, id)
    for every internal node; collapsing a node changes g only for its
    ancestors, whose values are recomputed (with the same floating-point
    operations as scikit-learn) and pushed when they went down.  An entry
    whose g went up is re-pushed with the current value when it surfaces.
    So the smallest (g, id) pair pops first, as in scikit-learn's scan.
    """
    r_node_a, r_branch_a, n_leaves_a = _branch_costs(tree)
    levels = _levels(tree)
    start, size = _subtree_spans(tree, levels)
    internal = np.flatnonzero(~tree.is_leaf())
    g_now = np.full(tree.node_count, np.inf)
    g_now[internal] = _alpha_of(r_node_a, r_branch_a, n_leaves_a)[internal]
    heap = list(zip(g_now[internal].tolist(), internal.tolist()))
    heapq.heapify(heap)

    # plain Python containers: the loop touches one node at a time
    r_node, r_branch = r_node_a.tolist(), r_branch_a.tolist()
    n_leaves, g_now = n_leaves_a.tolist(), g_now.tolist()
    parent, start_l, size_l = tree.parent.tolist(), start.tolist(), size.tolist()
    gone = bytearray(tree.node_count)  # in layout order: dropped by a collapse
    ones = b"\x01" * tree.node_count
    collapsed = bytearray(tree.node_count)
    total_leaves = int(tree.is_leaf().sum())
    rec = []  # (node, alpha, R_t, R_Tt, n_leaves, total_cost, total_leaves)
    push, pop = heapq.heappush, heapq.heappop
    while heap:
        alpha, t = pop(heap)
        if collapsed[t] or gone[start_l[t]]:
            continue
        if alpha != g_now[t]:
            if alpha < g_now[t]:  # g(t) grew since this entry was pushed
                push(heap, (g_now[t], t))
            continue
        if stop_alpha is not None and alpha > stop_alpha:
            break
        # collapse t into a leaf
        cut = n_leaves[t] - 1
        r_diff = r_node[t] - r_branch[t]
        r_before = r_branch[t]
        collapsed[t] = 1
        r_branch[t] = r_node[t]
        lo, hi = start_l[t] + 1, start_l[t] + size_l[t]
        gone[lo:hi] = ones[lo:hi]
        a = parent[t]
        while a >= 0:
            n_leaves[a] -= cut
            r_branch[a] += r_diff
            g = (r_node[a] - r_branch[a]) / (n_leaves[a] - 1)
            if g < g_now[a]:
                push(heap, (g, a))
            g_now[a] = g
            a = parent[a]
        total_leaves -= cut
        rec.append((t, alpha, r_node[t], r_before, cut + 1, r_branch[0], total_leaves))
        if t == 0:
            break
    columns = list(zip(*rec)) or [()] * 7
    rec = {name: np.array(col, dtype=np.float64 if name in _FLOAT_FIELDS else np.intp)
           for name, col in zip(("node", "alpha", "R_t", "R_Tt", "n_leaves", "total_cost",
                                 "total_leaves"), columns)}
    collapsed_at = np.full(tree.node_count, _NEVER, dtype=np.intp)
    collapsed_at[rec["node"]] = np.arange(len(rec["node"]))
    return rec, collapsed_at, float(r_branch_a[0]), levels


@dataclass(frozen=True)
class PruneStep:
    """One collapse of the weakest-link sequence.

    Attributes
    ----------
    index : int
        Position in the sequence (the tree after it is ``tree_at(index + 1)``).
    node : int
        The collapsed node's index in the input tree.
    node_id : int
        Its id in the fully grown tree.
    alpha : float
        g(node) when it was the weakest link (scikit-learn's effective alpha).
    R_t, R_Tt : float
        R(t) and R(T_t) just before the collapse: the node's cost as a leaf
        and its branch's.
    n_leaves : int
        |T_t|, the branch's leaves just before the collapse.
    n_removed : int
        Nodes that leave the tree (the branch below ``node``).
    total_cost : float
        R(T) of the whole tree after the step (the path's impurity).
    total_leaves : int
        Leaves of the whole tree after the step.
    """

    index: int
    node: int
    node_id: int
    alpha: float
    R_t: float
    R_Tt: float
    n_leaves: int
    n_removed: int
    total_cost: float
    total_leaves: int

    def __repr__(self):
        return (f"PruneStep({self.index}: collapse node {self.node_id} at "
                f"alpha={self.alpha:.6g}, {self.n_leaves} leaves -> 1, "
                f"R(T)={self.total_cost:.6g})")


class PruningPath(dict):
    """scikit-learn's pruning path: a dict with ``ccp_alphas`` and
    ``impurities``, whose keys can also be read as attributes."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class PruningSequence:
    """The weakest-link sequence T0 > T1 > ... > {root} of a tree, replayable
    like growth: ``steps[k]`` collapses one node, ``tree_at(k)`` is the tree
    after the first ``k`` collapses.

    Attributes
    ----------
    tree : Tree
        The input tree (T0; never modified).
    steps : list of PruneStep
        One per collapse, in order.
    ccp_alphas, impurities : ndarray of float
        scikit-learn's ``cost_complexity_pruning_path`` (length
        ``len(steps) + 1``; entry 0 is the input tree at alpha 0).
    n_leaves : ndarray of int
        Leaves of ``tree_at(k)`` for each k.
    """

    def __init__(self, tree, rec, collapsed_at, start_cost, levels):
        self.tree = tree
        self._rec = rec
        self._removed_at = _removal_steps(tree, levels, collapsed_at)
        self.ccp_alphas = np.r_[0.0, rec["alpha"]]
        self.impurities = np.r_[start_cost, rec["total_cost"]]
        self.n_leaves = np.r_[tree.n_leaves, rec["total_leaves"]]
        self._steps = None

    def __len__(self):
        return len(self._rec["node"])

    def __repr__(self):
        return (f"PruningSequence({len(self)} steps, {self.n_leaves[0]} -> "
                f"{self.n_leaves[-1]} leaves, alpha up to {self.ccp_alphas[-1]:.6g})")

    @property
    def steps(self):
        if self._steps is None:
            rec = self._rec
            removed = self._removed_at[self._removed_at != _NEVER]
            n_removed = np.bincount(removed, minlength=len(self))
            self._steps = [
                PruneStep(index=k, node=int(node), node_id=int(self.tree.node_ids[node]),
                          alpha=float(rec["alpha"][k]), R_t=float(rec["R_t"][k]),
                          R_Tt=float(rec["R_Tt"][k]), n_leaves=int(rec["n_leaves"][k]),
                          n_removed=int(n_removed[k]),
                          total_cost=float(rec["total_cost"][k]),
                          total_leaves=int(rec["total_leaves"][k]))
                for k, node in enumerate(rec["node"])]
        return self._steps

    def path(self):
        """scikit-learn's ``cost_complexity_pruning_path`` as a dict."""
        return PruningPath(ccp_alphas=self.ccp_alphas.copy(), impurities=self.impurities.copy())

    def to_frame(self):
        """One row per step (the fields of :class:`PruneStep`)."""
        import pandas as pd

        columns = list(PruneStep.__dataclass_fields__)
        return pd.DataFrame([[getattr(s, c) for c in columns] for s in self.steps],
                            columns=columns)

    def keep_mask(self, k):
        """Nodes of ``tree`` still present after ``k`` collapses."""
        self._check_k(k)
        return self._removed_at >= k

    def tree_at(self, k):
        """The tree after the first ``k`` collapses, renumbered compactly in id
        order like the growth replay (``node_ids`` still name the full tree)."""
        return _collapsed_tree(self.tree, self.keep_mask(k))

    def table_at(self, k):
        """:func:`cost_complexity_table` of ``tree_at(k)``, whose ``weakest_link``
        is the node that step ``k`` collapses.

        (The table sums each R(T_t) afresh, the sequence updates it after each
        collapse as scikit-learn does; at an exact tie the two roundings could
        otherwise point at different nodes.)
        """
        keep = self.keep_mask(k)
        table = cost_complexity_table(_collapsed_tree(self.tree, keep))
        if k < len(self):
            at = np.searchsorted(np.flatnonzero(keep), self._rec["node"][k])
            table["weakest_link"] = np.arange(len(table)) == at
        return table

    def n_steps_for(self, ccp_alpha):
        """How many collapses ``ccp_alpha`` makes: scikit-learn prunes while the
        weakest link's g <= ccp_alpha."""
        over = np.flatnonzero(self._rec["alpha"] > ccp_alpha)
        return int(over[0]) if over.size else len(self)

    def n_steps_for_each(self, ccp_alphas):
        """:meth:`n_steps_for` of every alpha in ``ccp_alphas``, as an array:
        the first step whose alpha exceeds it is the first whose running
        maximum of the alphas does."""
        ceiling = np.maximum.accumulate(self._rec["alpha"])
        return np.searchsorted(ceiling, np.asarray(ccp_alphas, dtype=np.float64), side="right")

    def prune(self, ccp_alpha):
        """The tree scikit-learn keeps for ``ccp_alpha`` (ids in pre-order)."""
        return _preorder_renumbered(self.tree_at(self.n_steps_for(ccp_alpha)))

    def _check_k(self, k):
        if isinstance(k, bool) or not (isinstance(k, (int, np.integer)) and 0 <= k <= len(self)):
            raise ValueError(f"k must be an int in [0, {len(self)}]; got {k!r}.")


def pruning_sequence(tree):
    """The weakest-link pruning sequence of ``tree``.

    Parameters
    ----------
    tree : Tree
        Any tree, including a partial one from ``tree_at(k)``.

    Returns
    -------
    PruningSequence
        Every collapse in order, with its alpha.
    """
    return PruningSequence(tree, *_weakest_links(tree))


def pruning_path(tree):
    """scikit-learn's minimal cost-complexity pruning path of ``tree``.

    Parameters
    ----------
    tree : Tree
        Any tree, including a partial one from ``tree_at(k)``.

    Returns
    -------
    PruningPath
        A dict with attribute access: ``ccp_alphas``, the effective alpha of
        each step (0 first; tied alphas repeat), and ``impurities``, the
        total leaf cost R(T) of the tree after each step.
    """
    rec, _, start_cost, _ = _weakest_links(tree)
    return PruningPath(ccp_alphas=np.r_[0.0, rec["alpha"]],
                       impurities=np.r_[start_cost, rec["total_cost"]])


def ccp_prune(tree, alpha):
    """``tree`` pruned with ``ccp_alpha = alpha``, as scikit-learn prunes it.

    Collapses weakest links while the smallest g(t) <= alpha.

    Parameters
    ----------
    tree : Tree
        The tree to prune (it is not changed).
    alpha : float
        The complexity parameter, >= 0.

    Returns
    -------
    Tree
        A new tree numbered in pre-order (scikit-learn's numbering of a
        pruned tree; for depth-first trees this is the original order);
        ``node_ids`` name its nodes in ``tree``.
    """
    rec, collapsed_at, _, levels = _weakest_links(tree, stop_alpha=float(alpha))
    keep = _removal_steps(tree, levels, collapsed_at) == _NEVER
    return _preorder_renumbered(_collapsed_tree(tree, keep))


# ---------------------------------------------------------------------------
# building pruned trees
# ---------------------------------------------------------------------------

def _collapsed_tree(tree, keep):
    """``tree.subtree(keep)``; the nodes it turns into leaves get a stop reason."""
    sub = tree.subtree(keep)
    was_internal = ~tree.is_leaf()[keep]
    sub.stop_reason = np.where(sub.is_leaf() & was_internal, "pruned",
                               sub.stop_reason).astype(object)
    return sub


def _preorder_renumbered(tree):
    """``tree`` with its nodes renumbered in pre-order (first child first)."""
    order = preorder(tree.child_ptr, tree.child_ids)
    if np.array_equal(order, np.arange(tree.node_count)):
        return tree
    new_of_old = np.empty_like(order)
    new_of_old[order] = np.arange(len(order))
    arrays = {name: getattr(tree, name)[order] for name in _NODE_ARRAYS}
    arrays["parent"] = np.where(arrays["parent"] >= 0,
                                new_of_old[np.maximum(arrays["parent"], 0)], -1)
    counts = np.diff(tree.child_ptr)[order]
    ptr = np.r_[0, np.cumsum(counts)].astype(np.intp)
    slots = np.repeat(tree.child_ptr[:-1][order] - ptr[:-1], counts) + np.arange(ptr[-1])
    return Tree(child_ptr=ptr, child_ids=new_of_old[tree.child_ids[slots]],
                child_share=tree.child_share[slots], distribute_missing=tree.distribute_missing,
                n_classes=tree.n_classes, **arrays)


# ---------------------------------------------------------------------------
# choosing alpha: k-fold cross-validation and a hold-out set
# ---------------------------------------------------------------------------

def _unpruned_clone(estimator):
    """The estimator's parameters with ccp_alpha 0, for the internal fits of
    cross-validation: they are only pruned and scored, so no candidate table
    is recorded (the grown tree is the same)."""
    params = dict(estimator.get_params(), ccp_alpha=0.0)
    if "record_candidates" in params:
        params["record_candidates"] = False
    return type(estimator)(**params)


def _node_predictions(estimator, tree):
    """What each node predicts as a leaf: a class label or a number."""
    if hasattr(estimator, "classes_"):
        return estimator.classes_[np.argmax(tree.value[:, 0, :], axis=1)]
    return tree.value[:, 0, 0]


def _row_losses(estimator, tree, X32, y):
    """0/1 loss (classifier) or squared error (regressor) of each row."""
    pred = np.asarray(tree.predict(X32)).reshape(X32.shape[0], -1)
    if hasattr(estimator, "classes_"):
        return (estimator.classes_[np.argmax(pred, axis=1)] != y).astype(np.float64)
    return (pred[:, 0] - y) ** 2


def _losses_by_steps(estimator, seq, X32, y, ks):
    """``_row_losses`` of ``seq.tree_at(k)`` for every k in ``ks``, as a
    (len(ks), n) array, without building any of those trees.

    Each row's path through the full tree is walked once.  A node is a leaf of
    ``tree_at(k)`` when it was a leaf or was collapsed by one of the first k
    steps, so the row ends at the first node of its path whose collapse step
    is < k: the running minimum of the collapse steps along the path, which
    only falls, says how deep the row goes for every k at once.  (A tree that
    sends rows with missing values down every branch, C4.5's rule, builds
    the trees.)
    """
    tree = seq.tree
    ks = np.asarray(ks, dtype=np.intp)
    if tree.distribute_missing:
        return np.array([_row_losses(estimator, seq.tree_at(int(k)), X32, y) for k in ks])
    n = X32.shape[0]
    collapsed = np.where(tree.is_leaf(), -1, _NEVER).astype(np.intp)
    collapsed[seq._rec["node"]] = np.arange(len(seq))
    leaf = tree.apply(X32)
    depth = tree.depth[leaf].astype(np.intp)
    width = int(depth.max()) + 1 if n else 1
    path = np.repeat(leaf[:, None], width, axis=1)  # past its leaf a row stays there
    rows, node, d = np.arange(n), leaf.copy(), depth.copy()
    while rows.size:
        path[rows, d] = node
        node, d = tree.parent[node], d - 1
        up = d >= 0
        rows, node, d = rows[up], node[up], d[up]
    lowest = np.minimum.accumulate(collapsed[path], axis=1)
    if hasattr(estimator, "classes_"):
        wrong = (estimator.classes_[np.argmax(tree.value[:, 0, :], axis=1)][path]
                 != y[:, None]).astype(np.float64)
    else:
        wrong = (tree.value[:, 0, 0][path] - y[:, None]) ** 2
    # depth reached at k = the number of path nodes whose running minimum is
    # >= k: count each row's minimums by value, then sum from the top
    # (a node never collapsed counts as len(seq), above every k)
    top = len(seq) + 2
    lowest = np.clip(lowest, -1, len(seq)) + 1
    out = np.empty((len(ks), n))
    chunk = max(1, 4_000_000 // top)
    for r0 in range(0, n, chunk):
        part = lowest[r0:r0 + chunk]
        m = part.shape[0]
        counts = np.bincount((np.arange(m)[:, None] * top + part).ravel(),
                             minlength=m * top).reshape(m, top)
        at_least = np.cumsum(counts[:, ::-1], axis=1)[:, ::-1]
        ends = at_least[:, ks + 1]  # (rows, len(ks))
        out[:, r0:r0 + m] = np.take_along_axis(wrong[r0:r0 + m], ends, axis=1).T
    return out


def _train_errors(seq, ks, total_weight):
    """The weighted misclassification rate of ``seq.tree_at(k)`` on the rows
    the tree was grown on, for every k in ``ks``, from the nodes' own class
    weights (no row is routed): a node as a leaf misclassifies its weight
    outside its largest class, and it is a leaf of tree_at(k) for the k
    after its own collapse step (-1 for a leaf) up to the lowest collapse
    step among its ancestors.  The same numbers as ``_losses_by_steps`` on
    those rows, up to rounding (tests compare them), for a classifier
    without class weights whose tree sends no row down several branches."""
    tree = seq.tree
    steps = len(seq)
    collapsed = np.where(tree.is_leaf(), -1, _NEVER).astype(np.intp)
    collapsed[seq._rec["node"]] = np.arange(steps)
    above = np.full(tree.node_count, _NEVER, dtype=np.intp)
    depth = tree.depth
    for d in range(1, int(depth.max()) + 1 if tree.node_count else 1):
        nodes = np.flatnonzero(depth == d)
        parents = tree.parent[nodes]
        above[nodes] = np.minimum(above[parents], collapsed[parents])
    wrong = tree.weighted_n_node_samples * (1.0 - tree.value[:, 0, :].max(axis=1))
    # a leaf is one from k = 0, a collapsed node from the step after its own;
    # a node removed with an ancestor, never collapsed itself, is never one
    ever = collapsed != _NEVER
    first = np.where(ever, collapsed + 1, steps + 1)
    last = np.minimum(above, steps)  # the last k at which it is still a leaf
    on = ever & (first <= last)
    change = np.zeros(steps + 2)
    np.add.at(change, first[on], wrong[on])
    np.add.at(change, last[on] + 1, -wrong[on])
    errors = np.maximum(np.cumsum(change)[np.asarray(ks, dtype=np.intp)], 0.0)
    return errors / total_weight


def _node_errors_apply(estimator, tree) -> bool:
    """Whether :func:`_train_errors` gives the training error of ``estimator``'s
    tree ``tree`` (else its rows are routed)."""
    return (hasattr(estimator, "classes_") and not tree.distribute_missing
            and getattr(estimator, "class_weight", None) is None
            and tree.value.shape[1] == 1)


def distinct_subtrees(seq):
    """The alphas at which ``ccp_alpha`` gives a different tree.

    Tied alphas collapse several nodes at once, so they give one tree.
    Alphas are clipped at 0: a split that rounding makes look harmful is
    pruned at any alpha.

    Parameters
    ----------
    seq : PruningSequence
        From :func:`pruning_sequence`.

    Returns
    -------
    alphas : ndarray of float
        Increasing, one per distinct subtree.
    n_collapses : ndarray of int
        How many collapses of ``seq`` each alpha makes.
    """
    alphas = np.unique(np.maximum(seq.ccp_alphas, 0.0))
    ks = seq.n_steps_for_each(alphas).astype(np.intp)
    first = np.r_[True, ks[1:] != ks[:-1]]
    return alphas[first], ks[first]


def _weighted_mean(values, w):
    return float(np.sum(w * values) / np.sum(w))


def _simplest_within(errors, limit):
    """Index of the largest alpha (smallest tree) whose error is <= limit."""
    return int(np.flatnonzero(errors <= limit)[-1])


def _target_and_weights(y, sample_weight, n):
    from ._base import as_sample_weight, as_target

    return as_target(y, n_samples=n), as_sample_weight(sample_weight, n)


def _encoded(estimator, X):
    """X as the estimator's trees read it (categories coded, float32)."""
    return estimator._validate_X_predict(X)


def _take(X, rows):
    return X.iloc[rows] if hasattr(X, "iloc") else X[rows]


def ccp_cross_validate(estimator, X, y, *, cv=5, sample_weight=None, random_state=0,
                       midpoints=True, fitted=False):
    """k-fold cross-validation over the cost-complexity path, as rpart's
    printcp/plotcp do.

    The tree is grown on all of (X, y) with ``estimator``'s parameters and
    ``ccp_alpha = 0``; each distinct subtree T_k of its weakest-link sequence is
    kept for ``alpha`` in [alpha_k, alpha_{k+1}).  In each of ``cv`` folds
    (rows shuffled with ``numpy.random.default_rng(random_state)``, then cut
    into near-equal parts) a tree is grown on the other folds, pruned with
    ``alpha_cv`` and scored on the held-out fold.  With ``midpoints`` (rpart's
    choice) ``alpha_cv`` is the geometric mean sqrt(alpha_k * alpha_{k+1}), a
    value inside T_k's interval (infinity for the last, the root alone);
    otherwise it is alpha_k itself.

    The error is the misclassification rate (classifier) or the mean squared
    error (regressor), weighted by ``sample_weight`` if given.

    Parameters
    ----------
    estimator : DecisionTreeClassifier or DecisionTreeRegressor
        Its parameters grow every tree (its ``ccp_alpha`` is set to 0).
    X : array-like of shape (n_samples, n_features)
        The rows, as the estimator's ``fit`` takes them.
    y : array-like of shape (n_samples,)
        The target.
    cv : int, default=5
        The number of folds (at least 2, at most the number of rows).
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights for the fits and the errors.
    random_state : int, default=0
        Seeds the shuffle of the rows into folds.
    midpoints : bool, default=True
        Score each subtree at the geometric mean of its alpha interval
        (rpart's choice) rather than at its lower end.
    fitted : bool, default=False
        ``estimator`` was already fitted on exactly these X, y and
        ``sample_weight``: its unpruned tree (``unpruned_tree_`` when it was
        fitted with a ``ccp_alpha``, else ``tree_``) is the tree on all the
        data, instead of growing that tree again (the same tree: the
        parameters are the same and ``ccp_alpha`` only prunes).

    Returns
    -------
    pandas.DataFrame
        One row per distinct subtree, by increasing alpha: ``alpha``,
        ``alpha_cv``, ``n_leaves``, ``train_error`` (T_k on all the data),
        ``cv_error`` (every row predicted once, by the fold that held it
        out), ``cv_se`` (its standard error: the standard deviation of the
        per-row losses / sqrt(n), rpart's xstd), ``fold_1`` ...
        ``fold_<cv>`` (each fold's error), ``is_min`` (the smallest
        ``cv_error``; the smaller tree on a tie) and ``is_1se`` (the
        smallest tree with ``cv_error`` <= minimum + its standard error).
        ``frame.attrs`` holds ``alpha_min``, ``alpha_1se``, ``cv`` and
        ``error``.
    """
    import pandas as pd

    from ._base import as_table

    refuse("ccp_cross_validate", estimator, y)
    X = as_table(X)
    n = X.shape[0]
    y, w = _target_and_weights(y, sample_weight, n)
    if not (isinstance(cv, (int, np.integer)) and 2 <= cv <= n):
        raise CodedError("bad_cv", n_samples=n, cv=cv)
    fit_w = lambda rows: None if sample_weight is None else w[rows]

    if fitted:
        full = estimator
        tree = getattr(estimator, "unpruned_tree_", None)
        seq = pruning_sequence(estimator.tree_ if tree is None else tree)
    else:
        full = _unpruned_clone(estimator).fit(X, y, sample_weight=fit_w(slice(None)))
        seq = pruning_sequence(full.tree_)
    alphas, ks = distinct_subtrees(seq)
    if midpoints:
        alpha_cv = np.r_[np.sqrt(np.maximum(alphas[:-1], 0) * alphas[1:]), np.inf]
    else:
        alpha_cv = alphas.copy()
    if _node_errors_apply(full, seq.tree):
        train_error = _train_errors(seq, ks, float(np.sum(w)))
    else:
        train_error = [_weighted_mean(row, w)
                       for row in _losses_by_steps(full, seq, _encoded(full, X), y, ks)]

    folds = np.array_split(np.random.default_rng(random_state).permutation(n), cv)
    fold_losses = []  # (alphas, the fold's rows) each
    fold_sums = np.empty((len(alphas), cv))  # each fold's weighted loss
    for f, test in enumerate(folds):
        train = np.setdiff1d(np.arange(n), test)
        est = _unpruned_clone(estimator).fit(_take(X, train), y[train],
                                             sample_weight=fit_w(train))
        X_test = _encoded(est, _take(X, test))
        fold_seq = pruning_sequence(est.tree_)
        fold_losses.append(_losses_by_steps(est, fold_seq, X_test, y[test],
                                            fold_seq.n_steps_for_each(alpha_cv)))
        # (each row's sum as _weighted_mean makes it: a row of a 2-D sum is
        # added in the same order as the row alone)
        fold_sums[:, f] = (w[test] * fold_losses[-1]).sum(axis=1)
    fold_errors = fold_sums / np.array([w[test].sum() for test in folds])
    # every row's loss counts once, in the fold that held it out: summed fold
    # by fold (arrays of one fold's rows stay small, and no BLAS call runs)
    total_w = w.sum()
    cv_error = fold_sums.sum(axis=1) / total_w
    spread = sum((w[test] * (losses - cv_error[:, None]) ** 2).sum(axis=1)
                 for test, losses in zip(folds, fold_losses)) / total_w
    cv_se = np.sqrt(spread / n)
    best = _simplest_within(cv_error, cv_error.min())
    one_se = _simplest_within(cv_error, cv_error[best] + cv_se[best])
    frame = pd.DataFrame({
        "alpha": alphas, "alpha_cv": alpha_cv, "n_leaves": seq.n_leaves[ks],
        "train_error": train_error, "cv_error": cv_error, "cv_se": cv_se,
        **{f"fold_{f + 1}": fold_errors[:, f] for f in range(cv)},
        "is_min": np.arange(len(alphas)) == best,
        "is_1se": np.arange(len(alphas)) == one_se,
    })
    frame.attrs.update(alpha_min=float(alphas[best]), alpha_1se=float(alphas[one_se]), cv=cv,
                       error="misclassification" if hasattr(full, "classes_") else
                       "squared error")
    return frame


def ccp_holdout(estimator, X_val, y_val, *, sample_weight=None):
    """Score every distinct subtree of a fitted estimator's pruning sequence on
    a hold-out set.

    Parameters
    ----------
    estimator : DecisionTreeClassifier or DecisionTreeRegressor
        Fitted.  Its ``unpruned_tree_`` is pruned when it was fitted with a
        ``ccp_alpha`` (else its ``tree_``).
    X_val : array-like or DataFrame of shape (n_samples, n_features_in_)
        The hold-out rows.
    y_val : array-like of shape (n_samples,)
        Their target.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Weights of the hold-out rows in the error and score.

    Returns
    -------
    DataFrame
        One row per distinct subtree by increasing alpha: ``alpha``,
        ``n_leaves``, ``holdout_error`` (misclassification rate or mean
        squared error), ``holdout_score`` (accuracy, or R²) and ``is_best``
        (the smallest error; the smaller tree on a tie).
        ``frame.attrs["alpha_best"]`` is its alpha.
    """
    import pandas as pd

    refuse("ccp_holdout", estimator, y_val)
    X32 = _encoded(estimator, X_val)
    y, w = _target_and_weights(y_val, sample_weight, X32.shape[0])
    tree = getattr(estimator, "unpruned_tree_", None)
    tree = estimator.tree_ if tree is None else tree
    seq = pruning_sequence(tree)
    alphas, ks = distinct_subtrees(seq)
    errors = np.array([_weighted_mean(row, w)
                       for row in _losses_by_steps(estimator, seq, X32, y, ks)])
    if hasattr(estimator, "classes_"):
        scores = 1.0 - errors
    else:
        spread = _weighted_mean((y - _weighted_mean(y, w)) ** 2, w)
        scores = 1.0 - errors / spread if spread > 0 else np.where(errors == 0, 1.0, 0.0)
    best = _simplest_within(errors, errors.min())
    frame = pd.DataFrame({"alpha": alphas, "n_leaves": seq.n_leaves[ks],
                          "holdout_error": errors, "holdout_score": scores,
                          "is_best": np.arange(len(alphas)) == best})
    frame.attrs["alpha_best"] = float(alphas[best])
    return frame
