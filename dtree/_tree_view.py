"""The arrays of a fitted tree, read once for drawing and reporting.

The exports are duck-typed on scikit-learn's vocabulary for fitted trees,
so they accept dtree's estimators as well as scikit-learn's fitted
``DecisionTreeClassifier`` / ``DecisionTreeRegressor`` (and the bare
``tree_`` objects of either).  What is read:

* from the estimator (all optional): ``tree_``, ``classes_``,
  ``feature_names_in_``, ``n_features_in_``, ``criterion``;
* from the tree: ``children_left``, ``children_right`` (-1 at leaves), or
  dtree's ``child_ptr``/``child_ids``, ``feature``, ``threshold``,
  ``impurity``, ``n_node_samples``, ``weighted_n_node_samples`` and
  ``value`` of shape ``(node_count, n_outputs, n_classes or 1)``, which
  holds class *fractions* for classifiers and the mean target for
  regressors.  dtree trees may also carry ``node_ids`` (compact index -> id
  shown to the user).

The left child of a split receives the samples with ``x[feature] <= threshold``.
"""

from __future__ import annotations

import math

import numpy as np

LEAF = -1

CLASSIFICATION_CRITERIA = {
    "gini",
    "entropy",
    "log_loss",
    "misclassification",
    "gain_ratio",
    "taylor2",
}
REGRESSION_CRITERIA = {
    "squared_error",
    "friedman_mse",
    "absolute_error",
    "poisson",
}
#: Criteria whose node impurity is a different, better known quantity.
IMPURITY_DISPLAY_NAME = {"gain_ratio": "entropy"}


def is_missing_split(kind, threshold) -> bool:
    """A numeric split of known against missing values: scikit-learn's
    threshold +inf (every known value goes to the first child, ``x <= inf``,
    the missing ones to the second).

    Parameters
    ----------
    kind : int
        The node's kind (0: numeric, as ``Tree.kind``; scikit-learn's trees
        are all numeric).
    threshold : float
        The node's threshold.

    Returns
    -------
    bool
        True for a numeric split at +inf.
    """
    return int(kind) == 0 and float(threshold) == math.inf


class TreeView:
    """The arrays of a fitted tree, fetched once (scikit-learn's Cython tree
    builds a fresh array on every attribute access)."""

    def __init__(self, est):
        if hasattr(est, "tree_"):
            tree = est.tree_
            owner = est
        elif hasattr(est, "child_ptr") or hasattr(est, "children_left"):
            # child_ptr first: a multiway tree raises on children_left
            tree = est
            owner = None
        else:
            raise ValueError(
                "expected a fitted decision tree (an estimator with a `tree_` "
                f"attribute, or the tree itself); got {type(est).__name__}"
            )
        if tree is None:
            raise ValueError("the estimator is not fitted (its `tree_` is None)")
        self.owner = owner
        self.tree = tree
        if hasattr(tree, "child_ptr"):  # dtree: any number of children per node
            ptr, ids = np.asarray(tree.child_ptr), np.asarray(tree.child_ids)
            self.children = [ids[ptr[i]:ptr[i + 1]].tolist() for i in range(len(ptr) - 1)]
            self.kind = np.asarray(tree.kind)
            self.branch_of_code = tree.branch_of_code
        else:
            left = np.asarray(tree.children_left).astype(np.int64, copy=False)
            right = np.asarray(tree.children_right).astype(np.int64, copy=False)
            self.children = [[] if left[i] == LEAF else [int(left[i]), int(right[i])]
                             for i in range(len(left))]
            self.kind = np.zeros(len(left), dtype=np.int8)
            self.branch_of_code = None
        self.internal = np.array([len(c) > 0 for c in self.children], dtype=bool)
        self.feature = np.asarray(tree.feature).astype(np.int64, copy=False)
        self.threshold = np.asarray(tree.threshold, dtype=np.float64)
        self.impurity = np.asarray(tree.impurity, dtype=np.float64)
        self.n_samples = np.asarray(tree.n_node_samples)
        self.weighted = np.asarray(tree.weighted_n_node_samples, dtype=np.float64)
        value = np.asarray(tree.value, dtype=np.float64)
        if value.ndim == 1:
            value = value[:, None, None]
        elif value.ndim == 2:
            value = value[:, None, :]
        self.value = value
        self.node_count = int(getattr(tree, "node_count", len(self.children)))
        self.n_outputs = value.shape[1]
        self.n_classes = value.shape[2]
        ids = getattr(tree, "node_ids", None)
        self.display_ids = None if ids is None else np.asarray(ids)

    def attr(self, name, default=None):
        """An attribute of the estimator, else of the tree, else default."""
        for obj in (self.owner, self.tree):
            if obj is not None:
                val = getattr(obj, name, None)
                if val is not None:
                    return val
        return default

    def is_leaf(self, node):
        return not self.children[node]

    def branch_names(self, node, categories):
        """For a categorical split, the category labels of each branch."""
        table = self.branch_of_code[node]
        labels = None if categories is None else categories[int(self.feature[node])]
        out = []
        for child in range(int(np.max(table)) + 1):
            codes = np.flatnonzero(table == child)
            out.append([str(labels[c]) if labels is not None else str(c) for c in codes])
        return out

    def criterion_name(self):
        crit = self.attr("criterion_") or self.attr("criterion")
        if crit is not None and not isinstance(crit, str):
            crit = getattr(crit, "name", None)
        return crit if isinstance(crit, str) else None

    def is_classifier(self, class_names=None):
        if self.owner is not None:
            if getattr(self.owner, "classes_", None) is not None:
                return True
            kind = getattr(self.owner, "_estimator_type", None)
            if kind in ("classifier", "regressor"):
                return kind == "classifier"
        crit = self.criterion_name()
        if crit in CLASSIFICATION_CRITERIA:
            return True
        if crit in REGRESSION_CRITERIA:
            return False
        if class_names is not None:
            return True
        n_classes = getattr(self.tree, "n_classes", None)
        if n_classes is not None:
            return int(np.max(np.atleast_1d(n_classes))) > 1
        return self.n_classes > 1

    def n_features(self):
        for obj, name in ((self.owner, "n_features_in_"), (self.tree, "n_features")):
            n = getattr(obj, name, None) if obj is not None else None
            if n is not None:
                return int(n)
        return None

    def subtree_depth(self, node):
        """Number of levels in the subtree rooted at ``node`` (a leaf is 1)."""
        best = 0
        stack = [(node, 1)]
        while stack:
            n, d = stack.pop()
            best = max(best, d)
            stack.extend((c, d + 1) for c in self.children[n])
        return best


def names_list(names, what):
    """A user-supplied sequence of names as a list (refusing a lone string)."""
    if isinstance(names, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of names, not a single string")
    return list(names)


def check_int(value, what, minimum):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{what} must be an integer >= {minimum}; got {value!r}")


def feature_names_list(view, feature_names, default_from_estimator):
    """Return a list of names, or None for generic names."""
    if feature_names is None and default_from_estimator:
        feature_names = view.attr("feature_names_in_")
    if feature_names is None:
        return None
    names = names_list(feature_names, "feature_names")
    used = view.feature[view.internal]
    n_features = view.n_features()
    if n_features is not None and len(names) != n_features:
        raise ValueError(
            f"feature_names must contain {n_features} elements, got {len(names)}"
        )
    if used.size and int(used.max()) >= len(names):
        raise ValueError(
            f"feature_names has {len(names)} elements but the tree splits on "
            f"feature index {int(used.max())}"
        )
    return names



def format_number(x, precision: int) -> str:
    """``x`` rounded to ``precision`` decimals, without trailing zeros."""
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    s = f"{x:.{precision}f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    if s == "-0":
        s = "0"
    return s


def format_threshold(x, precision: int) -> str:
    """Like :func:`_format_number`, but a non-zero threshold never shows as
    0: small thresholds fall back to ``precision`` significant digits."""
    s = format_number(x, precision)
    if s == "0" and float(x) != 0.0 and math.isfinite(float(x)):
        s = f"{float(x):.{max(precision, 1)}g}"
    return s

