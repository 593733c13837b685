"""The exact search and the binary partition of a *plain* batch through the
compiled kernels of :mod:`dtree._jit_search`, when numba is loaded.

A batch is plain when no feature has a missing value, every row is whole,
the splitter is ``"best"`` on raw values and the criterion is Gini or
squared error: the cases :func:`dtree._search._search_numeric_sliced`
handles with NumPy.  The kernels give bit for bit the same candidates and
orders; they only make fewer passes over memory.  Everything else keeps the
NumPy path, and so does every batch when numba is absent or turned off
(:mod:`dtree._jit`).
"""

import numpy as np

from ._candidates import BestThresholds, store_best
from ._criteria import FriedmanMSE, Gini, SquaredError
from ._jit import search_kernels
from ._problem import FEATURE_THRESHOLD


#: The criteria whose sums the kernels reproduce, by class: a criterion that
#: only shares a name (several outputs' mean of Gini) has sums of its own.
KERNEL_CRITERIA = (Gini, SquaredError, FriedmanMSE)


def plain_kernels(prob, b):
    """The kernels' module for batch ``b`` if it is plain and numba is loaded
    (or worth loading for its size), else None."""
    if (prob.has_missing or prob.frac is not None or prob.random_splitter
            or prob.bin_bounds is not None or prob.hist is not None or b.x is not None
            or type(prob.criterion) not in KERNEL_CRITERIA):
        return None
    kernels = search_kernels(b.m * prob.n_features)
    if kernels is None or prob.criterion.name not in kernels.PROXY:
        return None
    return kernels


def _row_stats(prob, kernels):
    """How the kernel reads each row's statistics: (mode, codes, weights,
    the statistics (d, n), for squared error)."""
    empty = np.zeros((0, 0))
    if prob.criterion.is_classification:
        mode = kernels.UNIT_COUNTS if prob.unit_weights else kernels.WEIGHTED_CLASSES
        return mode, prob.codes, prob.w, empty
    return kernels.ROW_STATS, np.zeros(0, np.int8), prob.w, prob.stats


def search_numeric_plain(prob, b, cb, allowed, kernels):
    """The best threshold of every numeric feature in every node of the plain
    batch ``b``, stored in ``cb`` (as the NumPy search stores them)."""
    numeric = prob.numeric_features[allowed[prob.numeric_features].any(axis=1)]
    c, S, d = len(numeric), b.S, b.d
    if not c:
        return
    mode, codes, w, rows = _row_stats(prob, kernels)
    pos = np.empty((c, S), dtype=np.intp)
    best_left = np.zeros((d, c, S))
    common = (prob.X, b.P, numeric, b.starts, b.sizes, b.n_node,
              np.ascontiguousarray(b.stats_node), allowed, bool(allowed.all()),
              prob.min_samples_leaf, float(prob.min_weight_leaf), FEATURE_THRESHOLD)
    if mode == kernels.ROW_STATS:
        kernels.search_squared_error(*common, rows, pos, best_left)
    elif mode == kernels.UNIT_COUNTS and prob.min_weight_leaf <= 0:
        kernels.search_gini_counts(*common[:-2], FEATURE_THRESHOLD, codes, pos, best_left)
    else:
        kernels.search_gini(*common, mode, codes, w, pos, best_left)
    ci, s = np.nonzero(pos >= 0)
    if not len(ci):
        return
    q = pos[ci, s]
    f = numeric[ci]
    X, P, m = prob.X, b.P, b.m
    store_best(prob, b, cb, BestThresholds(
        f, s, q, best_left[:, ci, s], b.stats_node[s].T, b.stats_node[s, -1], b.sizes[s],
        np.zeros(len(ci), dtype=np.intp), X[f, P[f, q]], X[f, P[f, np.minimum(q + 1, m - 1)]],
        np.zeros(len(ci), dtype=bool), False, False))


def partition_binary_plain(P, starts, sizes, slot, n_left, keep_left, keep_right, total):
    """:func:`dtree._partition._partition_binary` by the compiled kernel, if
    numba is loaded (True), else nothing done (False)."""
    kernels = search_kernels(0)
    if kernels is None:
        return False
    out = np.empty(total, dtype=P.dtype)
    kernels.partition_binary(P, starts, sizes, slot, n_left, keep_left, keep_right, total,
                             out)
    return True
