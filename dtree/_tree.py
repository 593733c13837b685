"""The fitted tree as parallel arrays, with scikit-learn's layout.

``Tree`` holds one entry per node: ``children_left``/``children_right`` (-1 at
leaves), ``feature`` (-2 at leaves), ``threshold`` (-2.0 at leaves),
``impurity``, ``n_node_samples``, ``weighted_n_node_samples`` and ``value``
(shape ``(node_count, 1, n_classes)``: class fractions for classifiers, the
prediction for regressors).  The left child takes ``X[:, feature] <= threshold``
and every child's id is larger than its parent's.

Beyond scikit-learn's arrays it keeps what teaching needs: ``depth``,
``parent``, ``stop_reason`` (why a leaf is a leaf) and ``node_ids``, the id each
node has in the fully grown tree (a tree returned by ``tree_at(k)`` is renumbered
compactly, but ``node_ids`` still names the nodes of ``tree_``).

Routing is written per node *kind* so that multiway categorical nodes and
missing-value rules can be added as new kinds without touching the rest.
"""

import numpy as np

TREE_LEAF = -1
TREE_UNDEFINED = -2

_ARRAYS = ("children_left", "children_right", "feature", "threshold", "impurity",
           "n_node_samples", "weighted_n_node_samples", "value", "depth", "parent",
           "stop_reason", "node_ids", "split_improvement")


class Tree:
    """Array representation of a binary decision tree (see module docstring)."""

    def __init__(self, **arrays):
        for name in _ARRAYS:
            setattr(self, name, arrays[name])
        self.node_count = len(self.children_left)
        self.n_outputs = 1
        self.n_classes = np.array([self.value.shape[2]])
        self.max_n_classes = self.value.shape[2]

    @property
    def capacity(self):
        return self.node_count

    @property
    def max_depth(self):
        return int(self.depth.max()) if self.node_count else 0

    @property
    def n_leaves(self):
        return int(np.sum(self.children_left == TREE_LEAF))

    def is_leaf(self):
        return self.children_left == TREE_LEAF

    def children_of(self, node):
        """Ids of a node's children, in branch order (empty for a leaf).

        Code that walks trees should use this rather than ``children_left`` /
        ``children_right``, so that it keeps working for multiway nodes.
        """
        if self.children_left[node] == TREE_LEAF:
            return []
        return [int(self.children_left[node]), int(self.children_right[node])]

    def __repr__(self):
        return (f"Tree(node_count={self.node_count}, n_leaves={self.n_leaves}, "
                f"max_depth={self.max_depth})")

    # -- routing ------------------------------------------------------------

    def apply(self, X):
        """Leaf id of each row of float32 ``X``."""
        node = np.zeros(X.shape[0], dtype=np.intp)
        rows = np.arange(X.shape[0])
        active = rows[~self.is_leaf()[node]]
        while active.size:
            cur = node[active]
            go_left = X[active, self.feature[cur]] <= self.threshold[cur]
            nxt = np.where(go_left, self.children_left[cur], self.children_right[cur])
            node[active] = nxt
            active = active[self.children_left[nxt] != TREE_LEAF]
        return node

    def decision_path(self, X):
        """Dense boolean indicator (n_samples, node_count) of visited nodes."""
        out = np.zeros((X.shape[0], self.node_count), dtype=bool)
        node = self.apply(X)
        # walk each leaf up to the root
        rows = np.arange(X.shape[0])
        while rows.size:
            out[rows, node[rows]] = True
            node[rows] = self.parent[node[rows]]
            rows = rows[node[rows] >= 0]
        return out

    def predict(self, X):
        return self.value[self.apply(X)]

    # -- structure ------------------------------------------------------------

    def subtree(self, keep):
        """The tree restricted to the nodes in boolean mask ``keep`` (closed
        under parent), renumbered compactly in increasing id order.  Nodes whose
        children are not kept become leaves."""
        keep = np.asarray(keep, dtype=bool)
        new_id = np.full(self.node_count, TREE_LEAF, dtype=np.intp)
        new_id[keep] = np.arange(int(keep.sum()))
        left = self.children_left[keep]
        right = self.children_right[keep]
        internal = (left != TREE_LEAF)
        internal[internal] = keep[left[internal]]
        parent = self.parent[keep]
        arrays = {name: getattr(self, name)[keep].copy() for name in _ARRAYS}
        arrays["children_left"] = np.where(internal, new_id[left], TREE_LEAF)
        arrays["children_right"] = np.where(internal, new_id[right], TREE_LEAF)
        arrays["feature"] = np.where(internal, arrays["feature"], TREE_UNDEFINED)
        arrays["threshold"] = np.where(internal, arrays["threshold"], float(TREE_UNDEFINED))
        arrays["parent"] = np.where(parent >= 0, new_id[np.maximum(parent, 0)], -1)
        return Tree(**arrays)

    def to_frame(self):
        """One row per node, for display."""
        import pandas as pd

        frame = pd.DataFrame({
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
        return frame


def preorder(children_left, children_right):
    """Node ids in pre-order (left subtree first)."""
    out = []
    stack = [0]
    while stack:
        node = stack.pop()
        out.append(node)
        if children_left[node] != TREE_LEAF:
            stack.append(children_right[node])
            stack.append(children_left[node])
    return np.array(out, dtype=np.intp)


def breadth_first_order(children_left, children_right):
    out = [0]
    i = 0
    while i < len(out):
        node = out[i]
        if children_left[node] != TREE_LEAF:
            out.extend((children_left[node], children_right[node]))
        i += 1
    return np.array(out, dtype=np.intp)
