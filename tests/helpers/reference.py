"""A deliberately naive decision tree, written from the textbook definitions.

It evaluates every threshold of every feature with plain Python arithmetic and
grows depth-first, numbering nodes in pre-order.  It is slow and independent
of dtree's vectorised search, so it checks the criteria scikit-learn does not
have (misclassification, gain ratio) and re-checks the others.
"""

import math

import numpy as np


def impurity(counts, criterion):
    n = sum(counts)
    ps = [c / n for c in counts]
    if criterion == "gini":
        return 1.0 - sum(p * p for p in ps)
    if criterion in ("entropy", "gain_ratio"):
        return -sum(p * math.log2(p) for p in ps if p > 0)
    if criterion == "misclassification":
        return 1.0 - max(ps)
    if criterion == "taylor2":
        return sum(p * ((1 - p) + (1 - p) ** 2 / 2) for p in ps)
    raise ValueError(criterion)


def split_information(n_left, n_right):
    n = n_left + n_right
    return -sum(q * math.log2(q) for q in (n_left / n, n_right / n) if q > 0)


def best_split(X, y, rows, k, criterion, min_samples_leaf):
    """(feature, threshold, gain) of the best split of ``rows``, or None."""
    parent = impurity(np.bincount(y[rows], minlength=k).tolist(), criterion)
    n = len(rows)
    best, best_score = None, -math.inf
    for f in range(X.shape[1]):
        values = np.unique(X[rows, f])
        feature_best = None
        for a, b in zip(values[:-1], values[1:]):
            if not b > a + np.float32(1e-7):
                continue
            thr = float(a) / 2.0 + float(b) / 2.0
            left = rows[X[rows, f] <= thr]
            right = rows[X[rows, f] > thr]
            if len(left) < min_samples_leaf or len(right) < min_samples_leaf:
                continue
            il = impurity(np.bincount(y[left], minlength=k).tolist(), criterion)
            ir = impurity(np.bincount(y[right], minlength=k).tolist(), criterion)
            gain = parent - len(left) / n * il - len(right) / n * ir
            if feature_best is None or gain > feature_best[2] + 1e-12:
                feature_best = (f, thr, gain, len(left), len(right))
        if feature_best is None:
            continue
        f, thr, gain, nl, nr = feature_best
        score = gain / split_information(nl, nr) if criterion == "gain_ratio" else gain
        if score > best_score + 1e-12:
            best, best_score = (f, thr, gain), score
    return best


def reference_tree(X, y, criterion, *, max_depth=None, min_samples_leaf=1):
    """Arrays like scikit-learn's ``tree_`` (pre-order ids)."""
    X = np.asarray(X, dtype=np.float32)
    classes, y = np.unique(y, return_inverse=True)
    k = len(classes)
    nodes = []

    def grow(rows, depth):
        counts = np.bincount(y[rows], minlength=k)
        node = {"n": len(rows), "counts": counts,
                "impurity": impurity(counts.tolist(), criterion),
                "feature": -2, "threshold": -2.0, "left": -1, "right": -1}
        nodes.append(node)
        stop = ((max_depth is not None and depth >= max_depth)
                or len(rows) < 2 * min_samples_leaf or node["impurity"] <= 1e-15)
        split = None if stop else best_split(X, y, rows, k, criterion, min_samples_leaf)
        if split is not None:
            f, thr, _ = split
            node["feature"], node["threshold"] = f, thr
            node["left"] = len(nodes)
            grow(rows[X[rows, f] <= thr], depth + 1)
            node["right"] = len(nodes)
            grow(rows[X[rows, f] > thr], depth + 1)

    grow(np.arange(len(y)), 0)

    class Arrays:
        pass

    t = Arrays()
    t.children_left = np.array([nd["left"] for nd in nodes])
    t.children_right = np.array([nd["right"] for nd in nodes])
    t.feature = np.array([nd["feature"] for nd in nodes])
    t.threshold = np.array([nd["threshold"] for nd in nodes])
    t.impurity = np.array([nd["impurity"] for nd in nodes])
    t.n_node_samples = np.array([nd["n"] for nd in nodes])
    t.weighted_n_node_samples = t.n_node_samples.astype(float)
    t.value = np.array([nd["counts"] / nd["n"] for nd in nodes])[:, None, :]
    return t
