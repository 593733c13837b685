"""The fitted tree as parallel arrays, with scikit-learn's layout.

``Tree`` holds one entry per node: ``feature`` (-2 at leaves), ``threshold``
(-2.0 at leaves), ``impurity``, ``n_node_samples``, ``weighted_n_node_samples``
and ``value`` (shape ``(node_count, n_outputs, n_classes)``: class fractions
for classifiers, the prediction for regressors; ``n_outputs`` is 1 but for a
multi-output tree).  Every child's id is larger than
its parent's.

Children are stored for every node as a list (``child_ptr``/``child_ids``, like
a CSR matrix), so a node may have two children or one per category.  For a tree
whose splits are all binary, ``children_left``/``children_right`` give
scikit-learn's view (-1 at leaves); a tree with multiway nodes refuses that
view with a clear message, and ``children_of(node)`` works for every tree.

Node kinds (``kind``):

* ``NUMERIC``: the first child takes ``x <= threshold``, the second the rest;
* ``SUBSET``: a binary split of a categorical feature; ``branch_of_code[node]``
  maps each category code to 0 (first child) or 1;
* ``MULTIWAY``: one child per category seen in the node;
  ``branch_of_code[node]`` maps codes to child positions.

A missing value (NaN), or a category the node never saw, goes to child
position ``missing_child`` (for numeric splits that is scikit-learn's
``missing_go_to_left``; otherwise the child with the most training weight).
With C4.5's rule (``distribute_missing``) such a sample instead goes down every
branch with weight ``child_share`` (each branch's share of the known training
weight), and predictions combine the branches by those weights.

Beyond scikit-learn's arrays it keeps what teaching needs: ``depth``,
``parent``, ``stop_reason`` (why a leaf is a leaf) and ``node_ids``, the id each
node has in the fully grown tree (a tree returned by ``tree_at(k)`` is renumbered
compactly, but ``node_ids`` still names the nodes of ``tree_``).
"""

import numpy as np

from ._sparse_input import as_routable

TREE_LEAF = -1
TREE_UNDEFINED = -2

NUMERIC, SUBSET, MULTIWAY = 0, 1, 2

_NODE_ARRAYS = ("feature", "threshold", "impurity", "n_node_samples",
                "weighted_n_node_samples", "value", "depth", "parent", "stop_reason",
                "node_ids", "split_improvement", "split_gain", "split_info", "kind",
                "missing_child", "branch_of_code")
_CHILD_ARRAYS = ("child_ids", "child_share")


class Tree:
    """Array representation of a decision tree (see the module docstring).

    Attributes
    ----------
    node_count : int
        The number of nodes; every array below has one entry per node but
        ``child_ids`` and ``child_share`` (one per child).
    n_outputs : int
        The number of targets (1 but for a multi-output tree).
    n_classes : ndarray of shape (n_outputs,)
        Each output's number of classes (1 for a regressor's outputs).
    max_n_classes : int
        The largest of ``n_classes``: the last axis of ``value``.
    feature : ndarray of int
        The split feature of each node, -2 at leaves.
    threshold : ndarray of float
        A numeric split's threshold (``x <= threshold`` takes the first
        child), -2.0 at leaves; +inf for a split of known against missing
        values.
    impurity : ndarray of float
        The node's impurity under the fit's criterion.
    n_node_samples : ndarray of int
        The training rows that reach the node.
    weighted_n_node_samples : ndarray of float
        Their total weight (fractions of rows under C4.5's missing-value rule).
    value : ndarray of shape (node_count, n_outputs, max_n_classes)
        Class fractions for a classifier, the prediction for a regressor.
    depth, parent : ndarray of int
        The node's depth (0 at the root) and its parent (-1 at the root).
    stop_reason : ndarray of str
        Why a leaf is a leaf (``"pure"``, ``"max_depth"``...), ``""`` at
        internal nodes.
    node_ids : ndarray of int
        The id each node has in the fully grown tree (``tree_at(k)`` and
        pruned trees are renumbered, their ``node_ids`` are not).
    split_gain, split_improvement, split_info : ndarray of float
        The split's gain, its improvement (the gain weighted by the node's
        share of the training weight) and its split information; NaN at
        leaves.
    kind : ndarray of int8
        ``NUMERIC``, ``SUBSET`` or ``MULTIWAY`` (0 at leaves).
    missing_child : ndarray of int
        The child position a missing value (or an unseen category) goes to,
        -1 at leaves.
    branch_of_code : ndarray of object
        For a categorical split, each category code's child position (None
        for numeric splits and leaves).
    child_ptr : ndarray of int
        Node ``i``'s children are ``child_ids[child_ptr[i]:child_ptr[i + 1]]``.
    child_ids : ndarray of int
        The children of every node, in branch order.
    child_share : ndarray of float
        Each child's share of its parent's known training weight (the weight
        a row with a missing value sends down it under C4.5's rule).
    n_children : ndarray of int
        The number of children of each node (0 at leaves).
    distribute_missing : bool
        True when missing values go down every branch (C4.5's rule).
    children_left, children_right : ndarray of int
        scikit-learn's binary view (-1 at leaves); refused for a tree with
        multiway nodes.
    missing_go_to_left : ndarray of uint8
        scikit-learn's name for ``missing_child == 0``.
    is_binary : bool
        Whether every split has two children.
    max_depth, n_leaves, capacity : int
        The deepest leaf's depth, the number of leaves, and ``node_count``
        (scikit-learn's name).
    """

    def __init__(self, *, child_ptr, distribute_missing=False, n_classes=None, **arrays):
        for name in _NODE_ARRAYS + _CHILD_ARRAYS:
            setattr(self, name, arrays[name])
        self.child_ptr = child_ptr
        self.distribute_missing = distribute_missing
        self.node_count = len(self.feature)
        self.n_outputs = self.value.shape[1]
        # each output's number of classes (1 for a regressor's outputs)
        self.n_classes = (np.array([self.value.shape[2]]) if n_classes is None
                          else np.asarray(n_classes).copy())
        self.max_n_classes = self.value.shape[2]
        self.n_children = np.diff(child_ptr)

    # -- scikit-learn's binary view ---------------------------------------------

    @property
    def is_binary(self):
        return bool(np.all((self.n_children == 0) | (self.n_children == 2)))

    def _binary_view(self, side):
        if not self.is_binary:
            raise ValueError(
                "This tree has multiway nodes (one branch per category), so it has no "
                "scikit-learn-style children_left/children_right view. Use "
                "children_of(node), or child_ptr/child_ids, instead.")
        out = np.full(self.node_count, TREE_LEAF, dtype=np.intp)
        internal = self.n_children == 2
        out[internal] = self.child_ids[self.child_ptr[:-1][internal] + side]
        return out

    @property
    def children_left(self):
        return self._binary_view(0)

    @property
    def children_right(self):
        return self._binary_view(1)

    @property
    def missing_go_to_left(self):
        return (self.missing_child == 0).astype(np.uint8)

    @property
    def capacity(self):
        return self.node_count

    @property
    def max_depth(self):
        return int(self.depth.max()) if self.node_count else 0

    @property
    def n_leaves(self):
        return int(np.sum(self.n_children == 0))

    def is_leaf(self):
        return self.n_children == 0

    def children_of(self, node):
        """Ids of a node's children, in branch order (empty for a leaf)."""
        return self.child_ids[self.child_ptr[node]:self.child_ptr[node + 1]].tolist()

    def __repr__(self):
        return (f"Tree(node_count={self.node_count}, n_leaves={self.n_leaves}, "
                f"max_depth={self.max_depth})")

    # -- routing ------------------------------------------------------------------

    def branch(self, X, rows, nodes):
        """The branch that row ``rows[i]`` of ``X`` takes at node ``nodes[i]``.

        One step of routing, for every pair at once; ``apply``,
        ``leaf_weights`` and ``predict`` repeat it from the root down.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Encoded rows, as :func:`dtree.tree_input` gives them.
        rows : array-like of int, shape (n_pairs,)
            Row positions in ``X``.
        nodes : array-like of int, shape (n_pairs,)
            Ids of internal nodes of this tree (not leaves), one per row.

        Returns
        -------
        ndarray of int, shape (n_pairs,)
            The child's position among ``children_of(node)``: for a numeric
            split 0 when ``x <= threshold`` and 1 otherwise; for a
            categorical split ``branch_of_code[node][code]``.  -1 when the
            value is missing (NaN) or a category the node never saw: the
            caller decides where such a row goes (``missing_child[node]``,
            or every branch by ``child_share`` when ``distribute_missing``).
        """
        X = as_routable(X)
        rows = np.asarray(rows, dtype=np.intp)
        nodes = np.asarray(nodes, dtype=np.intp)
        feat = self.feature[nodes]
        x = X[rows, feat]
        kind = self.kind[nodes]
        branch = np.where(x <= self.threshold[nodes], 0, 1)
        branch[np.isnan(x)] = -1
        categorical = np.flatnonzero(kind != NUMERIC)
        for node in np.unique(nodes[categorical]):
            at = categorical[nodes[categorical] == node]
            codes = x[at]
            table = self.branch_of_code[node]
            known = ~np.isnan(codes) & (codes >= 0) & (codes < len(table))
            b = np.full(len(at), -1)
            b[known] = table[codes[known].astype(np.intp)]
            branch[at] = b
        return branch

    def _child(self, nodes, branch):
        return self.child_ids[self.child_ptr[nodes] + branch]

    def apply(self, X):
        """Leaf id of each row of float32 ``X`` (missing values and unseen
        categories follow ``missing_child``); ``X`` may be a SciPy sparse matrix."""
        X = as_routable(X)  # (once, not at every level)
        node = np.zeros(X.shape[0], dtype=np.intp)
        active = np.flatnonzero(self.n_children[node] > 0)
        while active.size:
            cur = node[active]
            branch = self.branch(X, active, cur)
            branch = np.where(branch < 0, self.missing_child[cur], branch)
            nxt = self._child(cur, branch)
            node[active] = nxt
            active = active[self.n_children[nxt] > 0]
        return node

    def decision_path(self, X):
        """The nodes each row of ``X`` visits, as scikit-learn gives them: a
        SciPy CSR matrix (n_samples, node_count) holding 1 where row i passes
        through node j (its root-to-leaf path, in increasing node ids).

        SciPy is imported here only (it comes with scikit-learn): the rest of
        the engine needs NumPy and pandas alone."""
        try:
            from scipy.sparse import csr_matrix
        except ImportError as err:  # pragma: no cover - SciPy comes with scikit-learn
            raise ImportError("decision_path returns a SciPy sparse matrix, as scikit-learn's "
                              "does: install SciPy (pip install scipy).") from err
        leaf = self.apply(X)
        n = len(leaf)
        row_parts, node_parts = [], []
        rows, node = np.arange(n), leaf
        while rows.size:  # from the leaves up, one level at a time
            row_parts.append(rows)
            node_parts.append(node)
            up = self.parent[node]
            rows, node = rows[up >= 0], up[up >= 0]
        rows, nodes = np.concatenate(row_parts), np.concatenate(node_parts)
        order = np.lexsort((nodes, rows))
        indptr = np.zeros(n + 1, dtype=np.intp)
        np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
        return csr_matrix((np.ones(len(order), dtype=np.intp), nodes[order], indptr),
                          shape=(n, self.node_count))

    def leaf_weights(self, X):
        """Where each row ends up, as (row, leaf, weight) triples.

        With ``distribute_missing`` a row with a missing value (or an unseen
        category) at a split follows every branch, weighted by the branch's
        share of the training weight; otherwise each row has one leaf, weight 1.
        """
        X = as_routable(X)  # (once, not at every level)
        rows = np.arange(X.shape[0])
        node = np.zeros(len(rows), dtype=np.intp)
        mass = np.ones(len(rows))
        done_r, done_n, done_w = [], [], []
        while rows.size:
            leaf = self.n_children[node] == 0
            done_r.append(rows[leaf])
            done_n.append(node[leaf])
            done_w.append(mass[leaf])
            rows, node, mass = rows[~leaf], node[~leaf], mass[~leaf]
            if not rows.size:
                break
            branch = self.branch(X, rows, node)
            lost = branch < 0
            if not self.distribute_missing:
                branch = np.where(lost, self.missing_child[node], branch)
                lost[:] = False
            keep_r, keep_n, keep_w = [rows[~lost]], [self._child(node[~lost], branch[~lost])], [
                mass[~lost]]
            if lost.any():
                lr, ln, lw = rows[lost], node[lost], mass[lost]
                counts = self.n_children[ln]
                rep = np.repeat(np.arange(len(lr)), counts)
                offsets = np.arange(len(rep)) - np.repeat(np.cumsum(counts) - counts, counts)
                slot = self.child_ptr[ln][rep] + offsets
                keep_r.append(lr[rep])
                keep_n.append(self.child_ids[slot])
                keep_w.append(lw[rep] * self.child_share[slot])
            rows, node, mass = (np.concatenate(keep_r), np.concatenate(keep_n),
                                np.concatenate(keep_w))
        return np.concatenate(done_r), np.concatenate(done_n), np.concatenate(done_w)

    def predict(self, X):
        """Values (n_samples, n_classes or 1): leaf values, combined by weight
        where C4.5's rule sends a row down several branches; (n_samples,
        n_outputs, n_classes or 1) for a multi-output tree."""
        if self.n_outputs > 1:  # (scikit-learn's shape: (n_samples, n_outputs, classes))
            return self.value[self.apply(X)]
        if not self.distribute_missing:
            return self.value[self.apply(X), 0]
        rows, leaves, weights = self.leaf_weights(X)
        out = np.zeros((X.shape[0], self.value.shape[2]))
        np.add.at(out, rows, weights[:, None] * self.value[leaves, 0])
        return out

    # -- structure ------------------------------------------------------------------

    def subtree(self, keep):
        """The tree restricted to the nodes in boolean mask ``keep`` (closed
        under parent), renumbered compactly in increasing id order.  A node
        none of whose children are kept becomes a leaf."""
        keep = np.asarray(keep, dtype=bool)
        new_id = np.full(self.node_count, TREE_LEAF, dtype=np.intp)
        new_id[keep] = np.arange(int(keep.sum()))
        kept_nodes = np.flatnonzero(keep)
        arrays = {name: getattr(self, name)[keep].copy() for name in _NODE_ARRAYS}
        ptr = [0]
        ids, share = [], []
        internal = np.zeros(len(kept_nodes), dtype=bool)
        for i, node in enumerate(kept_nodes):
            a, b = self.child_ptr[node], self.child_ptr[node + 1]
            kids = self.child_ids[a:b]
            if b > a and keep[kids].all():
                ids.extend(new_id[kids])
                share.extend(self.child_share[a:b])
                internal[i] = True
            ptr.append(len(ids))
        arrays["feature"] = np.where(internal, arrays["feature"], TREE_UNDEFINED)
        arrays["threshold"] = np.where(internal, arrays["threshold"], float(TREE_UNDEFINED))
        arrays["missing_child"] = np.where(internal, arrays["missing_child"], -1)
        parent = arrays["parent"]
        arrays["parent"] = np.where(parent >= 0, new_id[np.maximum(parent, 0)], -1)
        return Tree(child_ptr=np.array(ptr, dtype=np.intp),
                    child_ids=np.array(ids, dtype=np.intp),
                    child_share=np.array(share, dtype=np.float64),
                    distribute_missing=self.distribute_missing, n_classes=self.n_classes,
                    **arrays)

    def to_frame(self):
        """One row per node, for display."""
        import pandas as pd

        return pd.DataFrame({
            "node": self.node_ids,
            "depth": self.depth,
            "parent": np.where(self.parent >= 0, self.node_ids[np.maximum(self.parent, 0)], -1),
            "feature": self.feature,
            "threshold": np.where(self.feature >= 0, self.threshold, np.nan),
            "impurity": self.impurity,
            "n_node_samples": self.n_node_samples,
            "weighted_n_node_samples": self.weighted_n_node_samples,
            "is_leaf": self.is_leaf(),
            "stop_reason": self.stop_reason,
        })


def preorder(child_ptr, child_ids):
    """Node ids in pre-order (first child's subtree first).

    Level by level, without a per-node loop: subtree sizes are summed from the
    deepest level up; a child's position is its parent's, plus one, plus the
    sizes of the siblings before it."""
    child_ptr = np.asarray(child_ptr, dtype=np.intp)
    child_ids = np.asarray(child_ids, dtype=np.intp)
    n = len(child_ptr) - 1
    if n <= 0:
        return np.zeros(0, dtype=np.intp)
    counts = np.diff(child_ptr)
    owner = np.repeat(np.arange(n), counts)  # the node each child slot belongs to
    parent = np.full(n, -1, dtype=np.intp)
    parent[child_ids] = owner
    levels = [np.zeros(1, dtype=np.intp)]
    while True:
        nodes = levels[-1]
        k = counts[nodes]
        if not k.any():
            break
        at = np.repeat(child_ptr[nodes] - np.r_[0, np.cumsum(k)[:-1]], k) + np.arange(k.sum())
        levels.append(child_ids[at])
    if sum(len(level) for level in levels) != n:  # not a tree rooted at 0
        return _preorder_walk(child_ptr, child_ids)
    size = np.ones(n, dtype=np.intp)
    for nodes in levels[:0:-1]:
        np.add.at(size, parent[nodes], size[nodes])
    slot_size = size[child_ids]
    before = np.cumsum(slot_size) - slot_size  # over all slots...
    before -= np.repeat(before[child_ptr[:-1][counts > 0]], counts[counts > 0])  # ...per parent
    pos = np.zeros(n, dtype=np.intp)
    slot_of = np.empty(n, dtype=np.intp)
    slot_of[child_ids] = np.arange(len(child_ids))
    for nodes in levels[1:]:
        pos[nodes] = pos[parent[nodes]] + 1 + before[slot_of[nodes]]
    out = np.empty(n, dtype=np.intp)
    out[pos] = np.arange(n)
    return out


def _preorder_walk(child_ptr, child_ids):
    out = []
    stack = [0]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(child_ids[child_ptr[node]:child_ptr[node + 1]][::-1].tolist())
    return np.array(out, dtype=np.intp)
