"""Slow, obvious reference computations used by the property and growth tests.

Everything here is written from the definitions (and from scikit-learn's
behaviour as docs/testing.md and docs/algorithms.md describe it), never from
dtree's code: impurities of a set of weighted samples, the weighted median,
the effective pre-pruning parameters, which training rows reach a node, and a
brute-force split search.
"""

import math

import numpy as np

EPS = np.finfo(np.float64).eps
FEATURE_THRESHOLD = np.float32(1e-7)

CLF_CRITERIA = ("gini", "entropy", "log_loss", "misclassification", "gain_ratio")
REG_CRITERIA = ("squared_error", "friedman_mse", "absolute_error", "poisson")
ENTROPY_LIKE = ("entropy", "log_loss", "gain_ratio")

LEAF_REASONS = frozenset({
    "max_depth", "min_samples_split", "min_samples_leaf", "min_weight_fraction_leaf",
    "pure", "no valid split", "min_impurity_decrease", "leaf budget",
})

TREE_ARRAYS = ("children_left", "children_right", "feature", "threshold", "impurity",
               "n_node_samples", "weighted_n_node_samples", "value", "depth", "parent",
               "stop_reason", "node_ids", "split_improvement")


# --------------------------------------------------------------------------
# impurities from weighted samples
# --------------------------------------------------------------------------

def class_counts(codes, w, n_classes):
    return np.bincount(codes, weights=w, minlength=n_classes)


def class_impurity(criterion, counts):
    """Impurity of weighted class counts (entropies in bits)."""
    counts = np.asarray(counts, dtype=np.float64)
    p = counts / counts.sum()
    if criterion == "gini":
        return 1.0 - float(np.sum(p * p))
    if criterion in ENTROPY_LIKE:
        p = p[p > 0]
        return float(-np.sum(p * np.log2(p)))
    if criterion == "misclassification":
        return 1.0 - float(p.max())
    raise AssertionError(criterion)


def weighted_medians(y, w, rtol=1e-12):
    """scikit-learn's weighted median: the first y (sorted) whose running weight
    exceeds half the total; where the running weight hits exactly half, the
    mean of that y and the next.  Returns every value this rule can give when
    "exactly half" is decided by rounding (e.g. weights of 0.1)."""
    order = np.argsort(y, kind="stable")
    ys, ws = np.asarray(y, float)[order], np.asarray(w, float)[order]
    half = ws.sum() / 2.0
    running = 0.0
    for i, wi in enumerate(ws):
        running += wi
        if abs(running - half) <= rtol * half and i + 1 < len(ys):
            return [(ys[i] + ys[i + 1]) / 2.0, ys[i], ys[i + 1]]
        if running > half:
            return [ys[i]]
    return [ys[-1]]


def reg_impurity(criterion, y, w):
    y = np.asarray(y, float)
    w = np.asarray(w, float)
    W = w.sum()
    mean = float(np.sum(w * y) / W)
    if criterion in ("squared_error", "friedman_mse"):
        return float(np.sum(w * (y - mean) ** 2) / W)
    if criterion == "absolute_error":
        # any weighted median minimises the weighted absolute deviation
        return float(np.min(np.abs(y[None, :] - np.unique(y)[:, None]) @ w) / W)
    if criterion == "poisson":
        pos = y > 0
        return float(np.sum(w[pos] * y[pos] * np.log(y[pos] / mean)) / W)
    raise AssertionError(criterion)


def reg_values(criterion, y, w):
    """The acceptable predictions of a regression node (see weighted_medians)."""
    if criterion == "absolute_error":
        return weighted_medians(y, w)
    return [float(np.sum(np.asarray(w) * np.asarray(y)) / np.sum(w))]


def impurity_scale(y):
    """A size for absolute tolerances on regression impurities."""
    y = np.asarray(y, dtype=float)
    return max(1.0, float(np.max(y * y)) if y.size else 1.0)


# --------------------------------------------------------------------------
# parameters as fit sees them
# --------------------------------------------------------------------------

def effective_params(est, n_samples, weight_total):
    """(max_depth, min_samples_split, min_samples_leaf, min_weight_leaf)."""
    msl = est.min_samples_leaf
    msl = int(math.ceil(msl * n_samples)) if isinstance(msl, float) else int(msl)
    mss = est.min_samples_split
    mss = max(2, int(math.ceil(mss * n_samples))) if isinstance(mss, float) else int(mss)
    mss = max(mss, 2 * msl)
    mwl = est.min_weight_fraction_leaf * weight_total
    max_depth = np.inf if est.max_depth is None else est.max_depth
    return max_depth, mss, msl, mwl


def balanced_class_weights(codes, n_classes):
    counts = np.bincount(codes, minlength=n_classes)
    return len(codes) / (n_classes * counts)


# --------------------------------------------------------------------------
# nodes and their samples
# --------------------------------------------------------------------------

def rows_in_nodes(tree, X):
    """Boolean (n_rows, node_count): does row i pass through node j?  Computed
    by walking every row down from the root, ``<=`` going left (independent of
    dtree's ``apply``/``decision_path``)."""
    X = np.asarray(X, dtype=np.float32)
    rows = np.arange(X.shape[0])
    out = np.zeros((X.shape[0], tree.node_count), dtype=bool)
    node = np.zeros(X.shape[0], dtype=np.intp)
    while rows.size:
        out[rows, node[rows]] = True
        cur = node[rows]
        inner = tree.children_left[cur] != -1
        rows, cur = rows[inner], cur[inner]
        go_left = X[rows, tree.feature[cur]] <= tree.threshold[cur]
        node[rows] = np.where(go_left, tree.children_left[cur], tree.children_right[cur])
    return out


def valid_cuts(x, w, ys, criterion, msl, mwl):
    """All admissible binary cuts of one feature in one node, as
    (threshold, left mask) pairs: between adjacent distinct float32 values
    a < b with b > a + 1e-7 (in float32), each child with at least ``msl``
    samples and ``mwl`` weight (and, for Poisson, a positive sum of y)."""
    x = np.asarray(x, dtype=np.float32)
    u = np.unique(x)
    out = []
    for a, b in zip(u[:-1], u[1:]):
        if not b > np.float32(a + FEATURE_THRESHOLD):
            continue
        left = x <= a
        nl, nr = int(left.sum()), int((~left).sum())
        if nl < msl or nr < msl:
            continue
        if w[left].sum() < mwl or w[~left].sum() < mwl:
            continue
        if criterion == "poisson" and (np.sum(w[left] * ys[left]) <= 10 * EPS
                                       or np.sum(w[~left] * ys[~left]) <= 10 * EPS):
            continue
        thr = float(a) / 2.0 + float(b) / 2.0
        out.append((thr, left))
    return out


def xlogx_bits(p):
    return 0.0 if p == 0 else p * math.log2(p)


def binary_entropy(p):
    """H(p) in bits."""
    return -(xlogx_bits(p) + xlogx_bits(1.0 - p))
