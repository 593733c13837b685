"""The tree builder: split search, partitioning and the three growth orders.

How the search is vectorised
----------------------------
A *batch* is a set of nodes searched together.  For every feature ``f`` the
batch holds ``P[f]``: the node's sample ids, grouped node after node and, inside
each node, sorted by ``X[:, f]`` (missing values last).  One cumulative sum of
the per-sample statistics along ``P[f]`` then gives the left-child statistics
of *every* threshold of *every* node in the batch, and the criterion's proxy
scores them all at once.  Splitting a node is a stable partition of ``P[f]``,
so the children stay sorted and nothing is ever sorted again.

Categorical features are searched from per-node contingency tables: one
branch per category (multiway, ID3/C4.5) or the best subset of categories
against the rest (binary, CART).

Depth-first and breadth-first growth without a leaf budget search a whole
level per batch (one pass per feature per level); best-first growth, and
depth-first growth with a leaf budget, search the children of each split as
they are created.  Node ids follow each order's convention (pre-order for
depth-first, creation order otherwise), exactly as scikit-learn numbers them.

Missing values
--------------
``missing="cart"`` is scikit-learn's rule: each split also chooses the side
that missing values go to (two passes; the first, "missing go right", wins
ties).  ``missing="c4.5"`` is Quinlan's rule (Zhou Zhihua, Machine Learning
§4.4): the gain is computed on the rows whose value is known and multiplied
by their weight fraction rho, and a row whose value is missing goes down every
branch with its weight multiplied by the branch's share of the known weight.
Rows then appear in several nodes with fractional weights, so that mode grows
node by node on per-node copies of the data (:func:`grow_weighted`).
"""

import heapq

import numpy as np

from ._criteria import EPSILON, Entropy, entropy_proxy_into, split_information
from . import _jit
from ._tree import MULTIWAY, NUMERIC, SUBSET

FEATURE_THRESHOLD = np.float32(1e-7)
#: Quinlan's trees (ID3, C4.5) compare gains with this tolerance, as Weka does:
#: a feature must beat the best so far by more than it (so mathematically equal
#: gains tie and the first feature in column order wins), and a split whose
#: gain is not above it is no split at all.
GAIN_TOLERANCE = 1e-6
#: Fractional sizes are compared with the size rules up to this much rounding.
SIZE_TOLERANCE = 1e-9
CHUNK_ELEMENTS = 1 << 17
#: A batch of more positions than this is searched in slices of this many
#: positions, carrying the running sums from one slice to the next, when no
#: feature has missing values and the search reads only sums (see
#: :func:`_search_numeric_sliced`): its arrays stay a few MB however large
#: the data.
SLICE_ROWS = 1 << 16
#: Positions per chunk of C4.5's missing-value search (its scratch buffers' size).
C45_CHUNK_ELEMENTS = 1 << 15
#: Categorical features with at most this many categories in a node get an
#: exhaustive subset search when there are more than two classes.
MAX_EXHAUSTIVE_CATEGORIES = 10

#: Why a node is a leaf.  Index 0 means "not a leaf".
STOP_REASONS = (
    "",
    "max_depth",
    "min_samples_split",
    "min_samples_leaf",
    "min_weight_fraction_leaf",
    "pure",
    "no valid split",
    "min_impurity_decrease",
    "leaf budget",
    # J48 (dtree._j48)
    "fewer than 2 branches with >= min_objects rows",
    "collapsed: the subtree made as many training errors",
    "empty branch",
)
_R = {name: i for i, name in enumerate(STOP_REASONS)}


class Problem:
    """The fit's data and settings, shared by every batch.

    ``X`` is float32 and feature-major (``X[f]`` is one contiguous column;
    categorical features hold category codes; NaN is missing); ``stats`` holds
    the criterion's per-sample statistics, shape (d, n), last row the weight.
    Only rows with positive weight are here.  ``stats`` may be given as a
    function that makes it: a classifier with unit weights searches numeric
    features from the class codes alone, so the (d, n) array is only made
    if a categorical search, the hist splitter or a weighted path asks for it.
    """

    def __init__(self, X, stats, y, w, criterion, *, max_depth, min_samples_split,
                 min_samples_leaf, min_weight_leaf, max_features, splitter,
                 min_impurity_decrease, weight_total, rng, categorical=None,
                 n_categories=None, multiway=False, missing="cart", average_gain=False,
                 quinlan=False):
        self.X = X
        self._stats = stats
        #: d, the number of per-sample statistics (the last is the weight)
        self.n_stats = (criterion.n_classes + 1 if callable(stats) else stats.shape[0])
        self.y = y
        self.w = w
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_leaf = min_weight_leaf
        self.max_features = max_features
        self.random_splitter = splitter == "random"
        #: splitter="hist": the binned features and node histograms (dtree._hist)
        self.hist = None
        #: splitter="hist" on small nodes: X holds bin codes, and these are
        #: each bin's (lower, upper) training values, shape (F, bins) each
        self.bin_bounds = None
        self.min_impurity_decrease = min_impurity_decrease
        self.weight_total = weight_total
        self.rng = rng
        self.n_features, self.n_samples = X.shape
        F = self.n_features
        self.categorical = np.zeros(F, bool) if categorical is None else np.asarray(categorical)
        self.n_categories = (np.zeros(F, np.intp) if n_categories is None
                             else np.asarray(n_categories))
        self.numeric_features = np.flatnonzero(~self.categorical)
        self.categorical_features = np.flatnonzero(self.categorical)
        self.multiway = multiway
        self.missing = missing
        self.c45_missing = missing == "c4.5"
        self.average_gain = average_gain
        #: ID3/C4.5 rules: gains compared with GAIN_TOLERANCE, no zero-gain split
        self.quinlan = quinlan
        #: each row's fraction of a whole row (C4.5's missing-value rule makes
        #: them fractional); None means every row is whole
        self.frac = None
        self.has_missing = bool(np.isnan(X).any())
        self.slot = np.zeros(self.n_samples, dtype=np.int32)
        self.unit_weights = bool(np.all(w == 1.0))
        if criterion.is_classification:
            k = criterion.n_classes
            self.codes = y.astype(np.int8 if k < 128 else np.int32)

    @property
    def stats(self):
        if callable(self._stats):
            self._stats = self._stats()
        return self._stats

    def total_stats(self):
        """The statistics summed over every row, shape (d,)."""
        if callable(self._stats) and self.unit_weights:  # exact integer counts
            k = self.criterion.n_classes
            return np.r_[np.bincount(self.codes, minlength=k), self.n_samples].astype(float)
        return self.stats.sum(axis=1)

    def subproblem(self, samples, weights):
        """The same fit restricted to some rows, with new weights (C4.5 mode)."""
        sub = object.__new__(Problem)
        sub.__dict__.update(self.__dict__)
        scale = weights / self.w[samples]
        sub.X = self.X.take(samples, axis=1)  # (take: faster than X[:, samples])
        # made only if a search asks for them (the numeric search of a
        # classifier reads the class codes and weights instead)
        sub._stats = lambda: self.stats.take(samples, axis=1) * scale
        sub.y = self.y[samples]
        sub.w = weights
        sub.frac = scale
        sub.n_samples = len(samples)
        sub.slot = np.zeros(len(samples), dtype=np.int32)
        sub.has_missing = bool(np.isnan(sub.X).any())
        sub.unit_weights = bool(np.all(weights == 1.0))
        if self.criterion.is_classification:
            sub.codes = self.codes[samples]
        return sub

    def cumulative(self, p, starts, sizes, node_stats, n_left, weight_only=False):
        """Running sums of the per-sample statistics along sample orders ``p``
        (one row per feature), restarted at each node's first position: shape
        (d,) + p.shape, entry [:, r, i] holding the statistics of the samples
        from its node's start up to i.  With ``weight_only`` just the weight's
        (shape (1,) + p.shape; ``node_stats`` then holds the nodes' weights).

        Gathering small class codes instead of float statistics keeps the
        random reads cheap; with unit weights the counts are exact integers,
        so each node's restart is folded into the input.
        """
        d = 1 if weight_only else self.n_stats
        out = np.empty((d,) + p.shape)
        later = starts[1:]
        if weight_only and self.unit_weights:
            out[0] = n_left  # exact integers
            return out
        if self.criterion.is_classification and self.unit_weights and not weight_only:
            codes = self.codes[p]
            for k in range(d - 2):
                v = (codes == k).astype(np.int32)
                v[..., later] -= node_stats[:-1, k].astype(np.int32)
                np.cumsum(v, axis=-1, out=out[k])
            out[-1] = n_left
            # the last class's count is what the others leave (exact integers)
            np.subtract(n_left, out[:-2].sum(axis=0), out=out[-2])
            return out
        if weight_only:
            np.cumsum(self.w.take(p), axis=-1, out=out[0])
        elif self.criterion.is_classification:
            codes = self.codes[p]
            w = self.w[p]
            for k in range(d - 1):
                # w * (class == k): w or 0.0, as np.where gives (w > 0), and faster
                np.cumsum(w * (codes == k), axis=-1, out=out[k])
            np.cumsum(w, axis=-1, out=out[-1])
        else:
            for k in range(d):
                np.cumsum(self.stats[k].take(p), axis=-1, out=out[k])
        if len(starts) > 1:
            before = out[..., later - 1]
            out[..., later[0]:] -= np.repeat(before, sizes[1:], axis=-1)
        return out


class Nodes:
    """Growable per-node arrays, indexed by the builder's own node ids.

    A node's children get consecutive ids ``first_child ...
    first_child + n_children - 1``.
    """

    _FIELDS = {
        "parent": (np.intp, -1),
        "depth": (np.intp, 0),
        "n": (np.intp, 0),
        # the size the size rules read: n, or the sum of the rows' fractions
        # under C4.5's missing-value rule
        "count": (np.float64, 0.0),
        "impurity": (np.float64, np.nan),
        "reason": (np.int8, 0),
        "searched": (bool, False),
        "has_split": (bool, False),
        "feature": (np.intp, -2),
        "kind": (np.int8, NUMERIC),
        "threshold": (np.float64, np.nan),
        "missing_child": (np.intp, -1),
        "gain": (np.float64, np.nan),
        "improvement": (np.float64, np.nan),
        "split_info": (np.float64, np.nan),
        "first_child": (np.intp, -1),
        "n_children": (np.intp, 0),
    }

    def __init__(self, d, capacity=64):
        self.size = 0
        self.d = d
        self._cap = capacity
        for name, (dtype, fill) in self._FIELDS.items():
            setattr(self, name, np.full(capacity, fill, dtype=dtype))
        self.stats = np.zeros((capacity, d))
        self.share = np.zeros(capacity)  # share of its parent's known weight
        self.branch_of_code = {}  # node id -> category code -> child position
        self.candidates = {}  # node id -> (CandidateBlock, column)

    def _reserve(self, extra):
        need = self.size + extra
        if need <= self._cap:
            return
        cap = max(need, 2 * self._cap)
        for name, (dtype, fill) in self._FIELDS.items():
            old = getattr(self, name)
            new = np.full(cap, fill, dtype=dtype)
            new[: self.size] = old[: self.size]
            setattr(self, name, new)
        stats = np.zeros((cap, self.d))
        stats[: self.size] = self.stats[: self.size]
        self.stats = stats
        share = np.zeros(cap)
        share[: self.size] = self.share[: self.size]
        self.share = share
        self._cap = cap

    def add(self, parent, depth, n, stats, impurity, count=None):
        k = len(n)
        self._reserve(k)
        ids = np.arange(self.size, self.size + k)
        self.size += k
        self.parent[ids] = parent
        self.depth[ids] = depth
        self.n[ids] = n
        self.count[ids] = n if count is None else count
        self.stats[ids] = stats
        self.impurity[ids] = impurity
        return ids


class CandidateBlock:
    """Per-feature best splits of one searched batch: arrays shaped (F, S).

    ``categorical[(f, s)]`` holds, for categorical candidates, the branch map
    (category code -> child position, -1 if absent) and each child's size,
    weight and impurity.

    J48's blocks (``dtree._j48``) also set ``j48``: a dict of (F, S) arrays
    of J48's own numbers (see ``dtree._steps.J48_COLUMNS``); other blocks leave it unset.
    """

    __slots__ = ("evaluated", "kind", "threshold", "gain", "split_info", "n_left", "n_right",
                 "weight_left", "weight_right", "impurity_left", "impurity_right",
                 "improvement", "n_node", "missing_child", "missing_fraction",
                 "categorical", "eligible", "j48")


# --------------------------------------------------------------------------
# leaf rules
# --------------------------------------------------------------------------

def presearch_reason(prob, ids, nodes):
    """Reason code for nodes that are leaves before any search (0 = search)."""
    n = nodes.count[ids] + SIZE_TOLERANCE  # whole rows, or C4.5's fractional ones
    w = nodes.stats[ids, -1]
    reason = np.zeros(len(ids), dtype=np.int8)
    checks = (
        (w < 2 * prob.min_weight_leaf, "min_weight_fraction_leaf"),
        # min_samples_split is raised to 2 * min_samples_leaf, so when both
        # apply the leaf size is the rule that really binds
        (n < prob.min_samples_split, "min_samples_split"),
        (n < 2 * prob.min_samples_leaf, "min_samples_leaf"),
        (nodes.depth[ids] >= prob.max_depth, "max_depth"),
        (nodes.impurity[ids] <= EPSILON, "pure"),
    )
    # Later checks overwrite earlier ones: a pure node is reported as pure
    # (nothing is left to learn there), then depth, then the size rules.
    for mask, name in checks:
        reason[mask] = _R[name]
    return reason


# --------------------------------------------------------------------------
# absolute error helpers (its impurity is not a function of sums)
# --------------------------------------------------------------------------

def sad_prefix(y, w):
    """sad[i] = min_c sum_{j<=i} w_j |y_j - c|, via two heaps (weighted median)."""
    lo, hi = [], []  # lo: max-heap of (-y, i, w); hi: min-heap of (y, i, w)
    w_lo = w_hi = s_lo = s_hi = 0.0
    out = np.empty(len(y))
    for i in range(len(y)):
        yi, wi = float(y[i]), float(w[i])
        if lo and yi <= -lo[0][0]:
            heapq.heappush(lo, (-yi, i, wi))
            w_lo += wi
            s_lo += wi * yi
        else:
            heapq.heappush(hi, (yi, i, wi))
            w_hi += wi
            s_hi += wi * yi
        half = 0.5 * (w_lo + w_hi)
        while w_lo < half:
            yv, j, wv = heapq.heappop(hi)
            w_hi -= wv
            s_hi -= wv * yv
            heapq.heappush(lo, (-yv, j, wv))
            w_lo += wv
            s_lo += wv * yv
        while lo and w_lo - lo[0][2] >= half:
            nyv, j, wv = heapq.heappop(lo)
            w_lo -= wv
            s_lo += wv * nyv
            heapq.heappush(hi, (-nyv, j, wv))
            w_hi += wv
            s_hi -= wv * nyv
        c = -lo[0][0]
        out[i] = (s_hi - c * w_hi) + (c * w_lo - s_lo)
    return np.maximum(out, 0.0)


def weighted_median(y, w):
    """scikit-learn's weighted median: the first y whose running weight
    exceeds half the total; on an exact half, the mean of it and the next."""
    order = np.argsort(y, kind="stable")
    ys, cw = y[order], np.cumsum(w[order])
    half = cw[-1] / 2.0
    i = int(np.searchsorted(cw, half, side="left"))
    if cw[i] == half and i + 1 < len(ys):
        return (ys[i] + ys[i + 1]) / 2.0
    return ys[i]


def node_weighted_medians(leaf, parent, y, w):
    """weighted_median of every node's rows at once, in memory linear in the
    rows times the depth (never rows x nodes).

    ``leaf`` is each row's leaf and ``parent`` the tree's parent array (-1 at
    the root).  Each (row, ancestor) pair is listed once, the pairs are sorted
    by node and, within a node, by y (ties by row order, as the stable sort in
    weighted_median), and every node's running weight is searched for half
    its total, with weighted_median's rule at an exact half.
    """
    n_nodes = len(parent)
    rank = np.empty(len(y), dtype=np.int64)
    rank[np.argsort(y, kind="stable")] = np.arange(len(y))
    rows_at, nodes_at = [], []
    rows, node = np.arange(len(y)), np.asarray(leaf, dtype=np.int64)
    while rows.size:
        rows_at.append(rows)
        nodes_at.append(node)
        node = parent[node]
        keep = node >= 0
        rows, node = rows[keep], node[keep]
    rows, node = np.concatenate(rows_at), np.concatenate(nodes_at)
    order = np.argsort(node * len(y) + rank[rows], kind="stable")
    rows, node = rows[order], node[order]
    ys, ws = y[rows], w[rows]
    counts = np.bincount(node, minlength=n_nodes)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    # running weight inside each node: a cumulative sum restarted per node
    cw = np.cumsum(ws)
    base = np.where(starts > 0, cw[starts - 1], 0.0)[node]
    cw -= base
    last = np.minimum(starts + np.maximum(counts, 1), len(ys)) - 1  # (no node is empty)
    half = (cw[last] / 2.0)[node]
    # the first row of each node whose running weight reaches half: the
    # running weight only grows inside a node, so it is the node's start plus
    # the number of its rows below half
    below = np.bincount(node, weights=cw < half, minlength=n_nodes).astype(np.int64)
    first_of = np.minimum(starts + below, last)
    out = ys[first_of].astype(np.float64)
    end = starts + counts
    exact = (cw[first_of] == half[first_of]) & (first_of + 1 < end)
    out[exact] = (ys[first_of[exact]] + ys[first_of[exact] + 1]) / 2.0
    return out


def group_mean_absolute_deviations(group, y, w, n_groups):
    """:func:`mean_absolute_deviation` of every group at once (``group`` is
    each row's group id in ``range(n_groups)``; every group is non-empty)."""
    y = np.asarray(y, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    order = np.lexsort((y, group))
    g, ys, ws = group[order], y[order], w[order]
    counts = np.bincount(g, minlength=n_groups)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    end = starts + counts
    cw = np.cumsum(ws)
    cw -= np.where(starts > 0, cw[np.maximum(starts - 1, 0)], 0.0)[g]
    half = cw[end - 1] / 2.0
    # the first row of each group whose running weight reaches half
    below = np.bincount(g, weights=cw < half[g], minlength=n_groups).astype(np.int64)
    at = np.minimum(starts + below, end - 1)
    median = ys[at]
    exact = (cw[at] == half) & (at + 1 < end)
    median[exact] = (ys[at[exact]] + ys[at[exact] + 1]) / 2.0
    dev = np.bincount(g, weights=ws * np.abs(ys - median[g]), minlength=n_groups)
    return dev / np.bincount(g, weights=ws, minlength=n_groups)


def mean_absolute_deviation(y, w):
    """sum w |y - median| / sum w."""
    if len(y) == 0:
        return np.nan
    return float(np.sum(w * np.abs(y - weighted_median(y, w))) / np.sum(w))


def _segment_ranks(y, starts, sizes):
    """Each row's rank by y inside its segment (ties by position; 0 outside
    every segment), the segments' values sorted within each segment one after
    the other, and where each segment's sorted values begin there."""
    packed = np.cumsum(sizes) - sizes
    seg = np.repeat(np.arange(len(sizes)), sizes)
    rows = _packed_rows(starts, sizes)
    order = rows[np.lexsort((y[rows], seg))]
    rank = np.zeros(len(y), dtype=_index_type(len(y)))
    rank[order] = np.arange(len(seg)) - np.repeat(packed, sizes)
    return rank, y[order], packed


def _index_type(n):
    """int32 when positions up to ``n`` fit in it (half the memory traffic)."""
    return np.int32 if n < 2**31 - 1 else np.int64


def _sad_prefix_numpy(y, w, starts, sizes):
    """:func:`sad_prefix` of every segment ``[starts[k], starts[k] + sizes[k])``
    of ``y``, all at once, without a Python loop over rows; rows outside every
    segment get 0.  The path without numba of
    :func:`dtree._jit.sad_prefix_segments` (see :func:`_sad_numpy`)."""
    y = np.asarray(y, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    ranks = _segment_ranks(y, starts, sizes)
    return _sad_numpy(y, np.asarray(w, dtype=np.float64), starts, sizes, ranks, False)[0]


def _sad_numpy(y, w, starts, sizes, ranks, suffix):
    """:func:`sad_prefix` of every segment ``[starts[k], starts[k] + sizes[k])``
    of ``y``, and with ``suffix`` the same for every suffix (entry i: the sum of
    rows i to the segment's end), else None; rows outside every segment get 0.

    ``ranks`` is :func:`_segment_ranks`'s triple (each row's rank in its
    segment, sorted values and each segment's first index into them); ``w``
    None means every weight is 1.  Segments whose rows all weigh the same
    take :func:`_sad_equal_weights` together (every median is a middle row:
    a quantile search by rank, then one running sum; a segment searches
    only the bits of its largest rank, so the many small nodes of a deep
    level do not pay for the bits of its largest node), the others
    :func:`_sad_prefix_wavelet` (weighted medians) in groups of the same
    number of bits; each segment's sums depend on its own rows only.
    """
    rank, ysorted, base = ranks
    out_l = np.zeros(len(y))
    out_r = np.zeros(len(y)) if suffix else None
    keep = sizes > 1
    starts, sizes, base = starts[keep], sizes[keep], base[keep]
    bits = np.frexp((sizes - 1).astype(np.float64))[1]  # bit length
    if w is None:
        equal = np.ones(len(sizes), dtype=bool)
    else:
        w_rows = w[_packed_rows(starts, sizes)]
        first = np.cumsum(sizes) - sizes
        equal = (np.minimum.reduceat(w_rows, first) == np.maximum.reduceat(w_rows, first)
                 if len(first) else np.zeros(0, dtype=bool))
    if equal.any():  # equal weights: the sums of weight-1 rows, times the weight
        order = np.argsort(-bits[equal], kind="stable")  # the most bits first
        sz = sizes[equal][order]
        rows = _packed_rows(starts[equal][order], sz)
        both = _sad_equal_weights(y[rows], rank[rows], ysorted, base[equal][order], sz,
                                  bits[equal][order], suffix)
        wg = 1.0 if w is None else w[rows]
        for out, sad in zip((out_l, out_r), both):
            if out is not None:
                out[rows] = sad if w is None else sad * wg
    for k in np.unique(bits[~equal]):
        pick = ~equal & (bits == k)
        st, sz = starts[pick], sizes[pick]
        new_starts = np.cumsum(sz) - sz
        rows = _packed_rows(st, sz)
        yg, wg = y[rows], w[rows]
        out_l[rows] = _sad_prefix_wavelet(yg, wg, new_starts, sz)
        if suffix:
            back = len(yg) - new_starts[::-1] - sz[::-1]
            out_r[rows] = _sad_prefix_wavelet(yg[::-1], wg[::-1], back, sz[::-1])[::-1]
    return out_l, out_r


def _packed_rows(starts, sizes):
    """The rows of the segments ``[starts[k], starts[k] + sizes[k])``, one
    segment after the other."""
    packed = np.cumsum(sizes) - sizes
    return np.arange(int(packed[-1] + sizes[-1]) if len(sizes) else 0) + np.repeat(
        starts - packed, sizes)


def _sad_equal_weights(y, rank, ysorted, base, sizes, bits, suffix):
    """:func:`_sad_numpy` of segments whose rows all weigh 1 (the segments
    tile ``y``, ``sizes[k]`` rows each, fewer than ``2**bits[k]``, ``bits``
    non-increasing): the prefix sums, and the suffix sums or None.

    With equal weights the median of n rows is their ``(n - 1) // 2``-th
    smallest (from 0), the two heaps' rule; :func:`_quantile_ranks` finds it
    for every prefix (and suffix) of more than one row at once, and
    :func:`_median_walk` turns the medians of consecutive prefixes into their
    sums of absolute deviations (one call per run of segments with the same
    number of bits, so a grid row is at most twice its segment).
    """
    n = len(y)
    it = _index_type(2 * n)
    first = np.cumsum(sizes) - sizes
    seg = np.repeat(np.arange(len(sizes), dtype=it), sizes)
    pos = np.arange(n, dtype=it)
    begin = first.astype(it)[seg]
    at = pos - begin  # the row's place in its segment
    per = 2 if suffix else 1
    # per row its prefix [begin, i] (and suffix [i, end)) of two rows or more
    # (one row is its own median), the queries of a row side by side
    lo = np.empty((n, per), dtype=it)
    hi = np.empty((n, per), dtype=it)
    ask = np.empty((n, per), dtype=bool)
    lo[:, 0], hi[:, 0] = begin, pos + 1
    np.greater(at, 0, out=ask[:, 0])
    if suffix:
        end = begin + sizes.astype(it)[seg]
        lo[:, 1], hi[:, 1] = pos, end
        np.less(pos, end - 1, out=ask[:, 1])
    ask = ask.ravel()
    lo, hi = lo.ravel()[ask], hi.ravel()[ask]
    # at bit j only the segments with more than j bits take part: the first
    # rows and queries, the segments being ordered by bits
    n_seg_in = np.searchsorted(-bits, -np.arange(int(bits[0])))
    rows_in = np.r_[0, np.cumsum(sizes)][n_seg_in]
    queries_in = np.r_[0, np.cumsum(ask)][per * rows_in]
    found = _quantile_ranks(rank.astype(it), lo, hi, (hi - lo - 1) // 2, rows_in, queries_in)
    median = np.repeat(y, per)
    median[ask] = ysorted[base[np.repeat(seg, per)[ask]] + found]
    median = median.reshape(n, per)
    prefix = np.empty(n)
    back = np.empty(n) if suffix else None
    group = np.flatnonzero(np.diff(bits)) + 1
    for s0, s1 in zip(np.r_[0, group], np.r_[group, len(sizes)]):
        r0, r1 = first[s0], first[s1 - 1] + sizes[s1 - 1]
        width = int(sizes[s0:s1].max())
        sg = seg[r0:r1] - s0
        prefix[r0:r1] = _median_walk(y[r0:r1], median[r0:r1, 0], at[r0:r1], sg, width)
        if suffix:
            rev = slice(r1 - 1, r0 - 1 if r0 else None, -1)
            back[r0:r1] = _median_walk(y[rev], median[rev, 1], (sizes[seg[rev]] - 1 - at[rev]),
                                       sg[::-1], width)[::-1]
    return prefix, back


def _quantile_ranks(rank, lo, hi, k, rows_in, queries_in):
    """For each query, the rank of the ``k``-th smallest (from 0) of the rows
    ``[lo, hi)`` (all in one segment; ``rank``: each row's rank inside its
    segment).  At bit j (from the highest, ``len(rows_in) - 1``) only the
    first ``rows_in[j]`` rows and ``queries_in[j]`` queries take part (the
    segments with more than j bits come first).

    A wavelet matrix over the ranks: at each bit the rows taking part are
    stably reordered zeros first, and every query's range maps to the rows
    of its range whose bit is the answer's, narrowing bit by bit (rows that
    join at a lower bit keep their places until then, and their queries'
    ranges hold all their rows).  A query needs two reads per bit; the
    arithmetic is in place and the masks are integers (0 or -1), not
    ``np.where``.
    """
    n = len(rank)
    it = rank.dtype.type
    sign = 8 * rank.itemsize - 1
    ones = np.zeros(n + 1, dtype=it)  # ones[i]: rows before i whose bit is 1
    idx = np.arange(n, dtype=it)
    found = np.zeros(len(lo), dtype=it)
    k = k.astype(it)
    # two buffers in turn; rows not yet taking part hold their rank in both
    cur, nxt = rank.copy(), rank.copy()
    for bit in range(len(rows_in) - 1, -1, -1):
        na, nq = int(rows_in[bit]), int(queries_in[bit])
        c = cur[:na]
        b = c >> bit
        b &= 1
        np.cumsum(b, out=ones[1:na + 1])
        n_zero = it(na - ones[na])
        q_lo, q_hi, q_k, q_found = lo[:nq], hi[:nq], k[:nq], found[:nq]
        # each end's place among the zeros (the rows whose bit is 0)
        z_lo = q_lo - ones.take(q_lo)
        z_hi = q_hi - ones.take(q_hi)
        n_in = z_hi - z_lo  # rows of the range whose bit is 0
        up = n_in - q_k
        up -= 1
        up >>= sign  # -1 where the k-th smallest has bit 1, else 0
        n_in &= up
        q_k -= n_in
        q_found <<= 1
        q_found -= up
        if not bit:
            break
        # the range's new ends: among the zeros, or among the ones after them
        for end, z_end in ((q_lo, z_lo), (q_hi, z_hi)):
            end += n_zero
            end -= z_end
            end -= z_end
            end &= up
            end += z_end
        before = ones[:na]
        at = idx[:na]
        dest = at - before
        dest += b * (n_zero + 2 * before - at)
        nxt[dest] = c
        cur, nxt = nxt, cur
    return found


def _median_walk(y, median, at, seg, width):
    """Sums of absolute deviations of every prefix of equal-weight segments
    from ``median``, each prefix's median (``y`` and ``median`` in row order,
    ``at`` each row's place in its segment, ``seg`` its segment, ``width`` the
    largest segment).

    Adding a row to n rows moves the median at most to the next row in sorted
    order, so nothing lies strictly between the old median and the new one:
    the old sum moves linearly on the way, with slope (rows at or below the
    old median) - (rows above) = n mod 2 going up, 2 less going down, and then
    gains the new row's distance to the new median.  Every step is a sum of
    non-negative terms, added up from the segment's start (a running sum of
    each segment on its own, so one segment's sums do not depend on the
    others in the call).
    """
    step = np.zeros(len(y))
    step[1:] = median[1:] - median[:-1]
    slope = (at & 1).astype(np.float64) - 2.0 * (step < 0)
    step *= slope
    step += np.abs(y - median)
    step[at == 0] = 0.0
    grid = np.zeros((int(seg.max(initial=0)) + 1, width))
    flat = seg * width + at
    grid.ravel()[flat] = step
    np.cumsum(grid, axis=1, out=grid)
    return grid.ravel()[flat]


def _sad_prefix_wavelet(y, w, starts, sizes):
    """:func:`sad_prefix` of every segment ``[starts[k], starts[k] + sizes[k])``
    of ``y``, all at once, without a Python loop over rows or segments.

    For each prefix the weighted median is the smallest y (by rank within the
    segment) whose running weight within the prefix reaches half the
    prefix's weight, the rule of :func:`sad_prefix`'s two heaps.  All
    prefixes look for it together, by a binary search over the bits of that
    rank in a wavelet matrix: at each bit the rows of every segment are
    stably split (inside the segment) by that bit of their rank, and prefix
    sums over the rows whose bit is 0 tell every prefix at once how much of
    its weight lies in the lower half of the ranks still possible.  Time
    O(n log s) in NumPy operations, s the largest segment.  The values are
    centred on each segment's middle value before summing, to keep the
    rounding small.
    """
    y = np.asarray(y, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    n = len(y)
    if n == 0:
        return np.zeros(0)
    starts = np.asarray(starts, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    nonempty = sizes > 0
    starts, sizes = starts[nonempty], sizes[nonempty]
    seg = np.repeat(np.arange(len(sizes)), sizes)
    begin = np.repeat(starts, sizes)  # each position's segment start
    order = np.lexsort((y, seg))  # by segment, then y, then position
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - begin  # the rank inside the segment
    yc = y - y[order[starts + sizes // 2]][seg]
    wy = w * yc
    # running weight and weighted value within each segment
    cw, cs = np.cumsum(w), np.cumsum(wy)
    before = starts - 1
    w_tot = cw - np.where(before >= 0, cw[np.maximum(before, 0)], 0.0)[seg]
    s_tot = cs - np.where(before >= 0, cs[np.maximum(before, 0)], 0.0)[seg]
    half = w_tot / 2.0
    # queries: the positions [lo, hi) of prefix i, narrowed bit by bit; at
    # each bit a segment's rows are reordered zeros first, inside the segment
    lo, hi = begin.copy(), np.arange(1, n + 1)
    acc_w, acc_s = np.zeros(n), np.zeros(n)
    found = np.zeros(n, dtype=np.int64)
    cur, cur_w, cur_s = rank, w, wy
    pos = np.arange(n)
    z0 = np.zeros(n + 1, dtype=np.int64)
    zw, zs = np.zeros(n + 1), np.zeros(n + 1)
    for bit in range(max(int(sizes.max() - 1).bit_length(), 1) - 1, -1, -1):
        zero = ((cur >> bit) & 1) == 0
        np.cumsum(zero, out=z0[1:])
        np.cumsum(np.where(zero, cur_w, 0.0), out=zw[1:])
        np.cumsum(np.where(zero, cur_s, 0.0), out=zs[1:])
        z_begin = z0[begin]
        n_zero = z0[starts + sizes][seg] - z_begin  # zeros in the segment
        z_lo, z_hi = z0[lo], z0[hi]
        low_w = zw[hi] - zw[lo]
        ones = (hi - lo) - (z_hi - z_lo)
        down = (acc_w + low_w >= half) | (ones == 0)  # the median's bit is 0
        up = ~down
        acc_w = np.where(up, acc_w + low_w, acc_w)
        acc_s = np.where(up, acc_s + (zs[hi] - zs[lo]), acc_s)
        found |= up.astype(np.int64) << bit
        lo = np.where(down, begin + z_lo - z_begin, lo + n_zero - (z_lo - z_begin))
        hi = np.where(down, begin + z_hi - z_begin, hi + n_zero - (z_hi - z_begin))
        # the rows' new places: zeros first, ones after, inside the segment
        z_at = z0[1:] - z_begin  # zeros up to and including each row
        dest = np.where(zero, begin + z_at - 1, pos + n_zero - z_at)
        nxt = np.empty_like(cur)
        nxt[dest] = cur
        nxt_w = np.empty_like(cur_w)
        nxt_w[dest] = cur_w
        nxt_s = np.empty_like(cur_s)
        nxt_s[dest] = cur_s
        cur, cur_w, cur_s = nxt, nxt_w, nxt_s
    at = order[begin + found]
    m, w_m = yc[at], w[at]
    w_lo, s_lo = acc_w + w_m, acc_s + w_m * m
    out = (s_tot - s_lo - m * (w_tot - w_lo)) + (m * w_lo - s_lo)
    return np.maximum(out, 0.0)


def _sad_left_right(prob, p, starts, sizes, searched):
    """Prefix and suffix sums of absolute deviations within each node, for
    every feature's order ``p`` (shape (d, m)) at once: shapes (d, m) and
    (d, m + 1), the suffix sums shifted by one (``sad_r[:, m] = 0``); 0 in
    the nodes where ``searched`` (shape (d, S)) is False.

    The compiled kernel (:mod:`dtree._jit`) runs on the rows and on the rows
    reversed; the NumPy path does both directions in one search
    (:func:`_sad_numpy`), with the ranks of y inside each node sorted once
    and shared by all features.
    """
    d, m = p.shape
    y = prob.y[p].ravel()
    starts = np.asarray(starts, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    all_starts = (np.arange(d)[:, None] * m + starts[None, :]).ravel()
    all_sizes = np.where(searched, sizes, 0).ravel()
    sad_r = np.zeros((d, m + 1))
    kernel = _jit.kernel_for(len(y))
    if kernel is None:
        rank, ysorted, packed = _segment_ranks(prob.y[p[0]], starts, sizes)
        by_row = np.empty(len(prob.y), dtype=rank.dtype)
        by_row[p[0]] = rank
        ranks = (by_row.take(p).ravel(), ysorted, np.tile(packed, d))
        w = None if prob.unit_weights else prob.w[p].ravel()
        sad_l, back = _sad_numpy(y, w, all_starts, all_sizes, ranks, True)
        sad_r[:, :m] = back.reshape(d, m)
        return sad_l.reshape(d, m), sad_r
    w = prob.w[p].ravel()
    sad_l = _jit.sad_prefix_segments(y, w, all_starts, all_sizes, kernel).reshape(d, m)
    # the suffixes: the same on the reversed rows (segments reversed too)
    rev_starts = d * m - all_starts[::-1] - all_sizes[::-1]
    back = _jit.sad_prefix_segments(y[::-1], w[::-1], rev_starts, all_sizes[::-1], kernel)
    sad_r[:, :m] = back[::-1].reshape(d, m)
    return sad_l, sad_r


# --------------------------------------------------------------------------
# the search
# --------------------------------------------------------------------------

def _take_rows(X, rows, P):
    """``X[rows[:, None], P]``: row ``rows[i]`` of X at positions ``P[i]``, one
    row at a time (NumPy's two-array fancy indexing is several times slower)."""
    out = np.empty(P.shape, dtype=X.dtype)
    for i, r in enumerate(rows):
        X[r].take(P[i], out=out[i])
    return out


def _allowed_features(prob, constant, draws=None):
    """Which features each node evaluates, shape (F, S).

    Mirrors scikit-learn's sampling without replacement: features are visited
    in a random order until ``max_features`` have been visited and at least
    one of them was not constant in the node.
    """
    F, S = constant.shape
    k = prob.max_features
    if k >= F:
        return np.ones((F, S), dtype=bool)
    if draws is None:
        draws = prob.rng.random((S, F))
    order = np.argsort(draws, axis=1)  # visiting order per node
    nonconst = ~constant.T[np.arange(S)[:, None], order]  # (S, F) in visit order
    first_nonconst = np.where(nonconst.any(axis=1), nonconst.argmax(axis=1), F - 1)
    n_visit = np.maximum(k, first_nonconst + 1)
    visited = np.arange(F)[None, :] < n_visit[:, None]
    allowed = np.zeros((S, F), dtype=bool)
    allowed[np.arange(S)[:, None], order] = visited
    return allowed.T


def _best_positions(full, starts, sizes, seg):
    """Per (row, node): the largest value of ``full`` and its first position
    (-1 where every position is -inf)."""
    c, m = full.shape
    best = np.maximum.reduceat(full, starts, axis=1)
    flat = np.flatnonzero(full == np.repeat(best, sizes, axis=1))
    ci, hit = np.divmod(flat, m)
    hs = seg[hit]
    first = np.r_[True, (hs[1:] != hs[:-1]) | (ci[1:] != ci[:-1])]
    pos = np.full(best.shape, -1, dtype=np.intp)
    pos[ci[first], hs[first]] = hit[first]
    pos[best == -np.inf] = -1
    return best, pos


class _Batch:
    """Per-batch quantities shared by the numeric and categorical searches."""

    def __init__(self, prob, nodes, P, starts, sizes, ids):
        self.P, self.starts, self.sizes, self.ids = P, starts, sizes, ids
        self.S = len(ids)
        self.m = P.shape[1]
        self._seg = self._n_left_all = None
        self.n_node = nodes.n[ids]
        self.stats_node = nodes.stats[ids]  # (S, d)
        self.w_node = self.stats_node[:, -1]
        self.imp_node = nodes.impurity[ids]
        self.d = self.stats_node.shape[1]
        #: the features' values along P, shape (F, m), when kept for the
        #: numeric search (C4.5's weighted rows); None otherwise
        self.x = None

    # (two arrays of m positions each: made only when a search reads them; the
    # sliced numeric search of a large batch does not)
    @property
    def seg(self):
        """Each position's node (its column in the batch), shape (m,)."""
        if self._seg is None:
            self._seg = np.repeat(np.arange(self.S), self.sizes)
        return self._seg

    @property
    def n_left_all(self):
        """Each position's count of rows from its node's start, inclusive."""
        if self._n_left_all is None:
            self._n_left_all = np.arange(self.m) - self.starts[self.seg] + 1
        return self._n_left_all


def search(prob, nodes, P, starts, sizes, ids, record):
    """Find the best split of every node in the batch and store it in ``nodes``."""
    if prob.hist is not None:  # splitter="hist": dtree/_hist.py
        return prob.hist.search(prob, nodes, P, starts, sizes, ids, record)
    X = prob.X
    F = prob.n_features
    b = _Batch(prob, nodes, P, starts, sizes, ids)
    S = b.S
    frange = np.arange(F)[:, None]
    if prob.has_missing:
        xs = _take_rows(X, np.arange(F), P)
        n_known = np.add.reduceat(~np.isnan(xs), starts, axis=1).astype(np.intp)
        if prob.frac is not None:  # (a level of C4.5's rows: small enough to keep)
            b.x = xs
        del xs
    else:
        n_known = np.broadcast_to(sizes, (F, S))
    last_known = np.maximum(starts + n_known - 1, starts)
    x_lo = X[frange, P[:, starts]]  # (F, S) node minimum of each feature
    x_hi = X[frange, np.take_along_axis(P, last_known, axis=1)]
    if prob.bin_bounds is not None:  # X holds bin codes: their smallest/largest values
        lower, upper = prob.bin_bounds
        x_lo = lower[frange, np.nan_to_num(x_lo).astype(np.intp)]
        x_hi = upper[frange, np.nan_to_num(x_hi).astype(np.intp)]
    constant = (n_known == 0) | ((x_hi <= x_lo + FEATURE_THRESHOLD)
                                 & ((n_known == sizes) | prob.c45_missing))
    allowed = _allowed_features(prob, constant)

    cb = new_candidate_block(prob, allowed, b.n_node, 1.0 - n_known / sizes)

    _search_numeric(prob, b, cb, allowed, n_known, x_lo, x_hi)
    for f in prob.categorical_features:
        if allowed[f].any():
            _search_categorical(prob, b, cb, f, allowed[f])

    choose(prob, nodes, ids, cb, b.w_node, record)


def new_candidate_block(prob, allowed, n_node, missing_fraction):
    """An empty CandidateBlock for a batch of S nodes (``allowed``: (F, S))."""
    F, S = allowed.shape
    cb = CandidateBlock()
    cb.evaluated = allowed
    cb.kind = np.where(prob.categorical, MULTIWAY if prob.multiway else SUBSET,
                       NUMERIC)[:, None].repeat(S, axis=1).astype(np.int8)
    cb.threshold = np.full((F, S), np.nan)
    cb.gain = np.full((F, S), np.nan)
    cb.split_info = np.full((F, S), np.nan)
    cb.n_left = np.zeros((F, S), dtype=np.intp)
    cb.n_right = np.zeros((F, S), dtype=np.intp)
    cb.weight_left = np.full((F, S), np.nan)
    cb.weight_right = np.full((F, S), np.nan)
    cb.impurity_left = np.full((F, S), np.nan)
    cb.impurity_right = np.full((F, S), np.nan)
    cb.missing_child = np.full((F, S), -1, dtype=np.intp)
    cb.missing_fraction = missing_fraction
    cb.categorical = {}
    cb.n_node = n_node
    return cb


def choose(prob, nodes, ids, cb, w_node, record):
    """Pick each node's best feature from its candidate block and store the
    split (or the reason there is none) in ``nodes``."""
    allowed = cb.evaluated
    S = len(ids)
    cb.improvement = w_node[None, :] / prob.weight_total * cb.gain
    found = allowed & ~np.isnan(cb.gain)
    score = np.where(found, cb.gain, -np.inf)
    cb.eligible = found.copy()
    if prob.average_gain:
        # C4.5: only features whose gain is at least the average gain compete
        n_found = found.sum(axis=0)
        mean_gain = np.where(found, cb.gain, 0.0).sum(axis=0) / np.maximum(n_found, 1)
        cb.eligible &= cb.gain >= mean_gain - 1e-12 * np.maximum(1.0, np.abs(mean_gain))
    if prob.quinlan:
        # a split that gains nothing (fractional rows can keep such a node
        # impure) is no split
        cb.eligible &= cb.gain > GAIN_TOLERANCE
    if prob.criterion.ranks_by_ratio:
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(cb.eligible, cb.gain / cb.split_info, -np.inf)
    else:
        score = np.where(cb.eligible, score, -np.inf)
    cols = np.arange(S)
    if prob.quinlan:
        best_f = _first_within_tolerance(score)
    else:
        best_f = np.argmax(score, axis=0)  # first feature wins exact ties
    has = score[best_f, cols] > -np.inf

    nodes.searched[ids] = True
    sel = (best_f, cols)
    nodes.feature[ids] = np.where(has, best_f, -2)
    nodes.kind[ids] = cb.kind[sel]
    nodes.threshold[ids] = cb.threshold[sel]
    nodes.missing_child[ids] = cb.missing_child[sel]
    nodes.gain[ids] = cb.gain[sel]
    nodes.improvement[ids] = cb.improvement[sel]
    nodes.split_info[ids] = cb.split_info[sel]
    for col in np.flatnonzero(has & (cb.kind[sel] != NUMERIC)):
        nodes.branch_of_code[int(ids[col])] = cb.categorical[(int(best_f[col]), int(col))][0]
    too_small = nodes.improvement[ids] + EPSILON < prob.min_impurity_decrease
    split = has & ~too_small
    nodes.has_split[ids] = split
    nodes.reason[ids] = np.where(
        split, 0, np.where(has, _R["min_impurity_decrease"], _R["no valid split"]))
    if record:
        for col, node in enumerate(ids):
            nodes.candidates[int(node)] = (cb, col)


def _first_within_tolerance(score):
    """Per column, the row Weka's loop keeps: a row replaces the best so far
    only when it beats it by more than GAIN_TOLERANCE, so near-ties go to the
    first row (feature) in order."""
    best_f = np.zeros(score.shape[1], dtype=np.intp)
    best = np.full(score.shape[1], -np.inf)
    for f in range(score.shape[0]):
        better = score[f] > best + GAIN_TOLERANCE
        best_f[better] = f
        best[better] = score[f, better]
    return best_f


def _running_sum(values, starts, sizes):
    """Cumulative sums along the last axis, restarted at each node's start."""
    out = np.cumsum(values, axis=-1)
    later = starts[1:]
    if len(later):
        out[..., later[0]:] -= np.repeat(out[..., later - 1], sizes[1:], axis=-1)
    return out


def _search_numeric(prob, b, cb, allowed, n_known, x_lo, x_hi):
    """Best threshold of every numeric feature in every node of the batch."""
    if _c45_levels(prob):
        return _search_numeric_c45(prob, b, cb, allowed, n_known)
    crit = prob.criterion
    X = prob.X
    fractional = prob.frac is not None
    if (b.m > SLICE_ROWS and not prob.has_missing and not fractional
            and not prob.random_splitter and prob.bin_bounds is None
            and not crit.needs_samples and b.x is None):
        return _search_numeric_sliced(prob, b, cb, allowed)
    starts, sizes, seg, S, m = b.starts, b.sizes, b.seg, b.S, b.m
    ar = np.arange(m)
    msl, mwl = prob.min_samples_leaf, prob.min_weight_leaf
    # a criterion that needs the samples reads only the children's weights
    # from the running sums (its impurities come from the samples)
    weight_only = crit.needs_samples
    stats_node = b.stats_node[:, -1:] if weight_only else b.stats_node
    ok_size = (b.n_left_all >= msl) & (b.n_node[seg] - b.n_left_all >= msl)
    # (C4.5's fractional rows: the size rules read sums of fractions, known
    # once the cumulative statistics are)
    # each position's node statistics, (d, 1, m), made one statistic at a
    # time where needed (one node needs no repeat)
    if S == 1:
        node_rows = stats_node.T[:, None, :]

    def node_rows_minus(a):
        if S == 1:
            return node_rows - a
        out = np.empty_like(a)
        for k in range(len(a)):
            np.subtract(np.repeat(stats_node[:, k], sizes), a[k], out=out[k])
        return out

    numeric = prob.numeric_features[allowed[prob.numeric_features].any(axis=1)]
    all_allowed = bool(allowed.all())
    # Features are searched in chunks: all at once on small batches (fewer
    # NumPy calls), one at a time on large ones (arrays stay in cache).
    chunk = max(1, min(len(numeric), CHUNK_ELEMENTS // max(m, 1)))
    for c0 in range(0, len(numeric), chunk):
        # the last chunk's arrays go before this chunk's are made
        x = between = valid = left = right = w_left = w_right = proxy = v1 = None
        fs = numeric[c0:c0 + chunk]
        p = b.P[fs]  # (c, m)
        x = _take_rows(X, fs, p) if b.x is None else b.x[fs]
        nk = n_known[fs]
        n_miss = sizes - nk  # (c, S)
        missing_here = prob.has_missing and bool(n_miss.any())
        late_size = missing_here or fractional
        # where a threshold may go: between two distinct known values (and,
        # without missing values, the only thing kept is "and sizes are ok")
        if all_allowed:
            between = np.repeat((np.ones(m, dtype=bool) if late_size else ok_size)[None, :],
                                len(fs), axis=0)
        else:
            between = np.repeat(allowed[fs], sizes, axis=1)
            if not late_size:
                between &= ok_size
        if prob.bin_bounds is None:
            between[:, :-1] &= x[:, 1:] > x[:, :-1] + FEATURE_THRESHOLD
        else:  # bin codes: the next bin's smallest value against this bin's largest
            lower, upper = prob.bin_bounds
            code = np.nan_to_num(x).astype(np.intp)
            between[:, :-1] &= ((lower[fs[:, None], code[:, 1:]]
                                 > upper[fs[:, None], code[:, :-1]] + FEATURE_THRESHOLD)
                                & ~np.isnan(x[:, 1:]))
        between[:, -1] = False
        valid = between & ok_size if (missing_here and not fractional) else between
        if missing_here and not prob.c45_missing:
            # scikit-learn also tries "every known value left, missing right"
            at_last_known = ar == np.repeat(starts + nk - 1, sizes, axis=1)
            valid |= (at_last_known & np.repeat(n_miss > 0, sizes, axis=1) & ok_size
                      & np.repeat(allowed[fs], sizes, axis=1))
        if prob.random_splitter:
            lo = x_lo[fs].astype(np.float64)
            hi = x_hi[fs].astype(np.float64)
            draw = lo + prob.rng.random(lo.shape) * (hi - lo)
            draw = np.where(draw >= hi, lo, draw)
            n_le = np.add.reduceat((x <= draw[:, seg]).astype(np.intp), starts, axis=1)
            valid &= ar == (starts + n_le - 1)[:, seg]
        # (the second pass, missing values left, may be valid where no
        # threshold of the first pass is: "known values left" too small)
        second_pass = (missing_here and not prob.c45_missing and not prob.random_splitter
                       and bool((between & np.repeat(n_miss > 0, sizes, axis=1)).any()))
        if not valid.any() and not second_pass:
            continue
        left = prob.cumulative(p, starts, sizes, stats_node, b.n_left_all,
                               weight_only)  # (d, c, m)
        rows = np.arange(len(fs))[:, None]
        if missing_here:
            known_tot = left[:, rows, np.maximum(starts + nk - 1, 0)]  # (d, c, S)
            known_tot[:, nk == 0] = 0.0
            miss = stats_node.T[:, None, :] - known_tot
        else:
            known_tot = np.broadcast_to(stats_node.T[:, None, :],
                                        (stats_node.shape[1], len(fs), S))
        c45 = prob.c45_missing and missing_here
        if c45:
            right = np.repeat(known_tot, sizes, axis=2) - left
        else:
            right = node_rows_minus(left)
        w_left, w_right = left[-1], right[-1]  # the grown children's weights
        if fractional:
            with np.errstate(divide="ignore", invalid="ignore"):
                cnt_l, cnt_r, w_left, w_right = _grown_sizes(prob, p, starts, sizes, nk,
                                                             left, known_tot, b, c45)
            valid = (valid & (cnt_l >= msl - SIZE_TOLERANCE)
                     & (cnt_r >= msl - SIZE_TOLERANCE))
        v1 = valid
        if mwl > 0:
            v1 = valid & (w_left >= mwl) & (w_right >= mwl)
        if crit.needs_samples:
            if missing_here:
                raise ValueError("criterion='absolute_error' does not support missing values.")
            # (only the nodes where the feature has a threshold to score)
            sad_l, sad_r = _sad_left_right(prob, p, starts, sizes,
                                           np.logical_or.reduceat(v1, starts, axis=1))
            proxy = -(sad_l + sad_r[:, 1:])
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                proxy = crit.search_proxy(left, right)
        best, pos = _best_positions(np.where(v1, proxy, -np.inf), starts, sizes, seg)
        use2 = np.zeros(best.shape, dtype=bool)
        if missing_here and not prob.c45_missing:
            # second pass: the missing values go left
            nm = np.repeat(n_miss, sizes, axis=1)
            left2 = left + np.repeat(miss, sizes, axis=2)
            right2 = node_rows_minus(left2)
            n_l2 = b.n_left_all + nm
            v2 = (between & (nm > 0) & (n_l2 >= msl) & (b.n_node[seg] - n_l2 >= msl))
            if mwl > 0:
                v2 &= (left2[-1] >= mwl) & (right2[-1] >= mwl)
            with np.errstate(divide="ignore", invalid="ignore"):
                proxy2 = crit.search_proxy(left2, right2)
            best2, pos2 = _best_positions(np.where(v2, proxy2, -np.inf), starts, sizes, seg)
            use2 = best2 > best
            pos = np.where(use2, pos2, pos)
        ci, s = np.nonzero(pos >= 0)
        if not len(ci):
            continue
        q = pos[ci, s]
        f = fs[ci]
        u2 = use2[ci, s]
        lft = left[:, ci, q]
        if u2.any():
            lft[:, u2] += miss[:, ci[u2], s[u2]]
        total = known_tot[:, ci, s] if c45 else stats_node[s].T
        il = ir = None
        if crit.needs_samples:
            il = sad_l[ci, q] / lft[-1]
            ir = sad_r[ci, q + 1] / (total - lft)[-1]
        _store_best(prob, b, cb, f, s, ci, q, lft, total, known_tot[-1, ci, s], c45, n_known,
                    n_miss, (x[ci, q], x[ci, np.minimum(q + 1, m - 1)]), missing_here, u2,
                    il, ir, draw if prob.random_splitter else None)


def _slices(starts, sizes, m):
    """Slices of ``SLICE_ROWS`` positions of a batch of ``m`` positions:
    ``(a, e, nodes, local_starts, local_sizes)`` for positions ``[a, e)``,
    ``nodes`` the batch columns of the nodes they touch."""
    ends = starts + sizes
    for a in range(0, m, SLICE_ROWS):
        e = min(a + SLICE_ROWS, m)
        s0 = int(np.searchsorted(starts, a, "right")) - 1
        s1 = int(np.searchsorted(starts, e - 1, "right")) - 1
        here = np.arange(s0, s1 + 1)
        lst = np.maximum(starts[here], a) - a
        yield a, e, here, lst, np.minimum(ends[here], e) - a - lst


def _slice_left(prob, p, a, cont, later, prev_totals, carry, base_first, bases_out):
    """The running statistics (d, len(p)) of one slice of a feature's order,
    restarted at each node's start, exactly as :meth:`Problem.cumulative`
    makes them for the whole order: ``p`` is the slice, ``a`` its first
    position, ``cont`` whether its first node began before it, ``later`` the
    slice positions where the other nodes begin, ``prev_totals`` the
    statistics of the node before each of those (S', d).

    ``carry`` (d,) is updated in place: with unit-weight class counts, the
    counts of the open node so far (the restart is folded into the input);
    otherwise the whole order's running sum so far, which each node's value
    at its start minus one is subtracted from (as ``cumulative`` does, so the
    floating-point sums are the same additions in the same order).  Those
    values go in ``bases_out`` (d, nodes of the slice); ``base_first`` is the
    first node's."""
    d = prob.n_stats
    out = np.empty((d, len(p)))
    if prob.criterion.is_classification and prob.unit_weights:
        codes = prob.codes[p]
        for k in range(d - 2):
            v = (codes == k).astype(np.int32)
            if cont:
                v[0] += np.int32(carry[k])
            v[later] -= prev_totals[:, k].astype(np.int32)
            np.cumsum(v, out=out[k])
            carry[k] = out[k, -1]
        # n_left, then the last class's count is what the others leave
        out[-1] = bases_out  # (the caller passes each position's count here)
        np.subtract(out[-1], out[:-2].sum(axis=0), out=out[-2])
        return out
    if prob.criterion.is_classification:
        codes = prob.codes[p]
        w = prob.w[p]
        rows = [w * (codes == k) for k in range(d - 1)] + [w]
    else:
        rows = [prob.stats[k].take(p) for k in range(d)]
    for k, v in enumerate(rows):
        if a > 0:
            v[0] += carry[k]
        np.cumsum(v, out=out[k])
    del rows
    bases_out[:, 0] = base_first
    bases_out[:, 1:] = out[:, later - 1]
    carry[:] = out[:, -1]
    return out


def _search_numeric_sliced(prob, b, cb, allowed):
    """:func:`_search_numeric` for a large batch without missing values,
    read in slices of ``SLICE_ROWS`` positions: each slice's running sums
    continue from the last one's, each node keeps its best threshold so far
    (the first of equal scores, as in one pass), and no array of the batch's
    size is made.  Its candidates are bit for bit those of the one pass."""
    crit = prob.criterion
    X, P = prob.X, b.P
    starts, sizes, S, m, d = b.starts, b.sizes, b.S, b.m, b.d
    msl, mwl = prob.min_samples_leaf, prob.min_weight_leaf
    unit_counts = crit.is_classification and prob.unit_weights
    numeric = prob.numeric_features[allowed[prob.numeric_features].any(axis=1)]
    all_allowed = bool(allowed.all())
    c = len(numeric)
    best = np.full((c, S), -np.inf)
    pos = np.full((c, S), -1, dtype=np.intp)
    best_left = np.zeros((d, c, S))
    carry = np.zeros((c, d))
    open_base = np.zeros((c, d))  # the running sum before the open node
    for a, e, nodes_here, lst, lsz in _slices(starts, sizes, m):
        s0 = nodes_here[0]
        later = lst[1:]
        cont = starts[s0] < a
        lseg = np.repeat(np.arange(len(nodes_here)), lsz)
        n_left = np.arange(a + 1, e + 1) - starts[nodes_here][lseg]
        ok = (n_left >= msl) & (b.n_node[nodes_here][lseg] - n_left >= msl)
        node_rows = b.stats_node[nodes_here]  # (S', d)
        prev_totals = b.stats_node[nodes_here[1:] - 1]
        for i, f in enumerate(numeric):
            p = P[f, a:e]
            x = X[f].take(p)
            between = ok.copy()
            if not all_allowed:
                between &= np.repeat(allowed[f, nodes_here], lsz)
            between[:-1] &= x[1:] > x[:-1] + FEATURE_THRESHOLD
            if e < m:
                between[-1] &= X[f, P[f, e]] > x[-1] + FEATURE_THRESHOLD
            else:
                between[-1] = False
            if unit_counts:
                left = _slice_left(prob, p, a, cont, later, prev_totals, carry[i], None,
                                   n_left)
            else:
                bases = np.empty((d, len(nodes_here)))
                first = open_base[i] if cont else carry[i]
                if s0 == 0:
                    first = np.zeros(d)  # (the first node: nothing before it)
                left = _slice_left(prob, p, a, cont, later, prev_totals, carry[i], first,
                                   bases)
                open_base[i] = bases[:, -1]
                for k in range(d):
                    left[k] -= np.repeat(bases[k], lsz)
            right = np.empty_like(left)
            for k in range(d):
                np.subtract(np.repeat(node_rows[:, k], lsz), left[k], out=right[k])
            with np.errstate(divide="ignore", invalid="ignore"):
                proxy = crit.search_proxy(left, right)
            if mwl > 0:
                between &= (left[-1] >= mwl) & (right[-1] >= mwl)
            full = np.where(between, proxy, -np.inf)
            del proxy, right
            top = np.maximum.reduceat(full, lst)
            hit = np.flatnonzero(full == np.repeat(top, lsz))
            hs = lseg[hit]
            head = np.r_[True, hs[1:] != hs[:-1]]
            where = np.full(len(nodes_here), -1, dtype=np.intp)
            where[hs[head]] = hit[head]
            so_far = best[i, nodes_here]
            better = np.flatnonzero(top > so_far)  # (the first of equal scores stays)
            best[i, nodes_here] = np.maximum(so_far, top)  # (NaN as one pass has it)
            pos[i, nodes_here[better]] = a + where[better]
            best_left[:, i, nodes_here[better]] = left[:, where[better]]
    pos[np.isnan(best)] = -1
    ci, s = np.nonzero(pos >= 0)
    if not len(ci):
        return
    q = pos[ci, s]
    f = numeric[ci]
    lft = best_left[:, ci, s]
    total = b.stats_node[s].T
    no_missing = np.zeros((len(numeric), S), dtype=np.intp)
    _store_best(prob, b, cb, f, s, ci, q, lft, total, b.stats_node[s, -1], False, None,
                no_missing, (X[f, P[f, q]], X[f, P[f, np.minimum(q + 1, m - 1)]]), False,
                np.zeros(len(ci), dtype=bool))


def _c45_levels(prob):
    """True for a batch of C4.5's weighted rows that :func:`_search_numeric_c45`
    searches (not: random thresholds, bin codes, absolute error, the weight
    rule)."""
    return (prob.c45_missing and prob.frac is not None and not prob.random_splitter
            and prob.bin_bounds is None and not prob.criterion.needs_samples
            and prob.min_weight_leaf <= 0)


#: _c45_candidates: a pair whose known rows weigh less than this fraction
#: outside one class counts as one class (its proxy is flat but for rounding)
ONE_CLASS_TOLERANCE = 1e-6


class _Workspace:
    """Scratch arrays that a C4.5 fit reuses from chunk to chunk and level to
    level, so that its large temporaries are not given back to the system
    and faulted in again each time.  ``get`` returns a view of the named
    buffer (grown when too small): the caller must be done with the last one
    of that name."""

    def __init__(self):
        self._buffers = {}

    def get(self, name, shape, dtype=np.float64):
        size = 1
        for n in shape:
            size *= int(n)
        buf = self._buffers.get(name)
        if buf is None or buf.size < size or buf.dtype != dtype:
            buf = np.empty(max(size, 1024), dtype=dtype)
            self._buffers[name] = buf
        return buf[:size].reshape(shape)


def _c45_restart(b):
    """Per entry after the first node: the position just before its node's
    start, shape (m - starts[1],), made once per batch."""
    if getattr(b, "c45_restart", None) is None:
        b.c45_restart = np.repeat(b.starts[1:] - 1, b.sizes[1:])
    return b.c45_restart


def _c45_running_sum(values, b, out, scratch):
    """:func:`_running_sum` into ``out`` (``scratch``: a buffer for the
    sums before each node's start)."""
    np.cumsum(values, axis=-1, out=out)
    if len(b.starts) > 1:
        a = int(b.starts[1])
        before = scratch[..., :out.shape[-1] - a]
        np.take(out, _c45_restart(b), axis=-1, out=before, mode="clip")
        np.subtract(out[..., a:], before, out=out[..., a:])
    return out


def _c45_cumulative(prob, p, starts, sizes, b):
    """``prob.cumulative`` for a classifier with fractional weights, bit for
    bit, into the fit's scratch arrays."""
    ws = prob.workspace
    d = prob.n_stats
    shape = p.shape
    out = ws.get("left", (d,) + shape)
    codes = ws.get("codes", shape, prob.codes.dtype)
    prob.codes.take(p, out=codes, mode="clip")
    w = ws.get("w", shape)
    prob.w.take(p, out=w, mode="clip")
    is_k = ws.get("is_k", shape, np.bool_)
    wk = ws.get("wk", shape)
    for k in range(d - 1):
        np.equal(codes, k, out=is_k)
        np.multiply(w, is_k, out=wk)  # w * (class == k), as cumulative makes it
        np.cumsum(wk, axis=-1, out=out[k])
    np.cumsum(w, axis=-1, out=out[-1])
    if len(starts) > 1:
        # each node's entries less the sums before its start
        a = int(starts[1])
        before = ws.get("before", (d,) + shape[:-1] + (shape[-1] - a,))
        np.take(out, _c45_restart(b), axis=-1, out=before, mode="clip")
        np.subtract(out[..., a:], before, out=out[..., a:])
    return out


def _c45_scores(prob, b, left, known_tot, valid, p, nk, c45):
    """The criterion's proxy of the ``valid`` positions of a chunk, as
    :func:`_search_numeric` scores them (the same arithmetic, so the same
    bits; -inf where the size rule fails): the right side is the known total
    less the left, and the size rule reads the grown children's sums of row
    fractions (see :func:`_grown_sizes`).  Returns ``(vi, pair, proxy)``:
    the valid positions in the flattened (c, m) chunk, each one's (feature,
    node) pair ``row * S + node`` (nondecreasing) and its proxy.  With the
    entropy, the positions returned are only those that pass the size rule
    and may hold their pair's first best (see :func:`_c45_candidates`); the
    others could not be chosen, so the first best of each pair is the same."""
    ws = prob.workspace
    d, c, m = left.shape
    starts, S = b.starts, b.S
    vi = np.flatnonzero(valid)
    nv = len(vi)
    # each position's (feature, node) in a (c, S) array
    if getattr(b, "c45_pair", None) is None or b.c45_pair.shape[0] < c:
        b.c45_pair = np.arange(c)[:, None] * S + b.seg
    kidx = ws.get("kidx", (nv,), np.intp)
    b.c45_pair[:c].reshape(-1).take(vi, out=kidx, mode="clip")
    # the size rule, on the grown children's sums of row fractions
    fp = ws.get("fp", (c, m))
    prob.frac.take(p, out=fp, mode="clip")
    f_node = np.add.reduceat(fp, starts, axis=1)  # (c, S)
    cnt = _c45_running_sum(fp, b, ws.get("cnt", (c, m)), fp)  # (fp: no longer needed)
    cnt_l = ws.get("cnt_l", (nv,))
    cnt.reshape(-1).take(vi, out=cnt_l, mode="clip")
    cnt_r = ws.get("cnt_r", (nv,))
    if c45:
        rows = np.arange(c)[:, None]
        f_known = cnt[rows, np.maximum(starts + nk - 1, 0)]
        f_known[nk == 0] = 0.0
        share_l = ws.get("share_l", (nv,))
        known_tot[-1].reshape(-1).take(kidx, out=share_l, mode="clip")
        w_l = left[-1].reshape(-1).take(vi, out=ws.get("w_l", (nv,)), mode="clip")
        np.divide(w_l, share_l, out=share_l)
        f_miss = ws.get("f_miss", (nv,))
        (f_node - f_known).reshape(-1).take(kidx, out=f_miss, mode="clip")
        f_known.reshape(-1).take(kidx, out=cnt_r, mode="clip")
        cnt_r -= cnt_l
        t = ws.get("t", (nv,))
        np.subtract(1.0, share_l, out=t)
        t *= f_miss
        cnt_r += t  # f_known - cnt_l + f_miss * (1 - share_l)
        np.multiply(f_miss, share_l, out=t)
        cnt_l += t  # cnt_l + f_miss * share_l
    else:
        f_node.reshape(-1).take(kidx, out=cnt_r, mode="clip")
        cnt_r -= cnt_l
    least = prob.min_samples_leaf - SIZE_TOLERANCE
    fits = np.greater_equal(cnt_l, least, out=ws.get("fits", (nv,), np.bool_))
    fits &= np.greater_equal(cnt_r, least, out=ws.get("fits_r", (nv,), np.bool_))
    np.logical_not(fits, out=fits)  # (a NaN size fails, as in _search_numeric)
    crit = prob.criterion
    entropy = type(crit).search_proxy is Entropy.search_proxy
    if entropy:
        keep = _c45_candidates(prob, p, valid, vi, kidx, fits, known_tot)
        vi, kidx = vi[keep], kidx[keep]
        nv = len(vi)
    L = ws.get("L", (d, nv))
    np.take(left.reshape(d, -1), vi, axis=1, out=L, mode="clip")
    R = ws.get("R", (d, nv))
    if c45:
        np.take(known_tot.reshape(d, -1), kidx, axis=1, out=R, mode="clip")
    else:  # no missing value: the known total is the node's
        at = np.remainder(vi, m, out=ws.get("at", (nv,), np.intp))
        node = b.seg.take(at, out=ws.get("node", (nv,), np.intp), mode="clip")
        np.take(b.stats_node.T, node, axis=1, out=R, mode="clip")
    np.subtract(R, L, out=R)
    if entropy:  # (every position left passes the size rule)
        return vi, kidx, entropy_proxy_into(L, R, ws.get("proxy", (nv,)), ws.get("xlnx", (nv,)))
    proxy = crit.search_proxy(L, R)
    np.copyto(proxy, -np.inf, where=fits)
    return vi, kidx, proxy


def _c45_candidates(prob, p, valid, vi, pair, fails, known_tot):
    """Which of the positions ``vi`` (the ``valid`` ones of the (c, m) chunk,
    flattened; ``pair`` their (feature, node) pairs, ``fails`` where the size
    rule fails) can hold their pair's first best entropy proxy: those that
    pass the size rule, less each position q whose rows q and q + 1 are of
    one class k while q - 1 and q + 1 are positions of the same pair that
    pass the size rule.  From q - 1 to q + 1 only rows of class k move from
    right to left, which changes only class k's and the total's sums, and
    the proxy  sum_j c ln c - W ln W  (both sides) is then a convex function
    of the weight moved (strictly, when the pair's known rows are not all of
    one class): in exact arithmetic q is below the better of q - 1 and
    q + 1, so it is not the first best unless rounding alone lifts it above
    both.  Pairs whose known rows are all (or all but
    ``ONE_CLASS_TOLERANCE`` of their weight) of one class keep all their
    positions: there the proxy is flat, or nearly, and rounding alone picks
    the first best.  Returns a boolean mask over ``vi``."""
    ws = prob.workspace
    nv = len(vi)
    if nv < 3:
        return ~fails
    codes = ws.get("cand_codes", p.shape, prob.codes.dtype)
    prob.codes.take(p, out=codes, mode="clip")
    # inside[q]: rows q and q + 1 of one class, q - 1 and q + 1 valid
    inside = ws.get("cand_inside", p.shape, np.bool_)
    inside[:, 0] = inside[:, -1] = False
    np.equal(codes[:, 1:-1], codes[:, 2:], out=inside[:, 1:-1])
    inside[:, 1:-1] &= valid[:, :-2]
    inside[:, 1:-1] &= valid[:, 2:]
    drop = inside.reshape(-1).take(vi, out=ws.get("cand_drop", (nv,), np.bool_), mode="clip")
    # (q - 1 and q + 1 are then the positions just before and after q in vi)
    drop[1:-1] &= pair[:-2] == pair[2:]
    drop[1:-1] &= ~fails[:-2]
    drop[1:-1] &= ~fails[2:]
    other = (known_tot[-1] - known_tot[:-1]).min(axis=0)  # (c, S): outside the main class
    one_class = (other <= ONE_CLASS_TOLERANCE * known_tot[-1]).reshape(-1)
    drop &= ~one_class.take(pair, mode="clip")
    drop |= fails
    return np.logical_not(drop, out=drop)


def _first_best(score, run):
    """Per run of equal values of ``run`` (nondecreasing): the index of the
    run's first largest ``score``, for the runs whose largest is not -inf
    (the first-of-ties rule of :func:`_best_positions`, on scores listed
    run after run)."""
    n = len(score)
    if not n:
        return np.zeros(0, dtype=np.intp)
    is_start = np.empty(n, dtype=bool)
    is_start[0] = True
    np.not_equal(run[1:], run[:-1], out=is_start[1:])
    starts = np.flatnonzero(is_start)
    best = np.maximum.reduceat(score, starts)
    hits = np.flatnonzero(score == np.repeat(best, np.diff(starts, append=n)))
    # (few hits: each one's run, then the first hit of each run)
    hit_run = np.searchsorted(starts, hits, side="right") - 1
    first = np.ones(len(hits), dtype=bool)
    np.not_equal(hit_run[1:], hit_run[:-1], out=first[1:])
    return hits[first & (best[hit_run] > -np.inf)]


def _search_numeric_c45(prob, b, cb, allowed, n_known):
    """:func:`_search_numeric` on a level of C4.5's weighted rows
    (:func:`_c45_levels`): the same candidates, bit for bit, with less work
    (only the positions where a threshold may go are scored, and the large
    arrays are the fit's reused scratch arrays)."""
    crit = prob.criterion
    X = prob.X
    starts, sizes, S, m = b.starts, b.sizes, b.S, b.m
    if getattr(prob, "workspace", None) is None:
        prob.workspace = _Workspace()
    numeric = prob.numeric_features[allowed[prob.numeric_features].any(axis=1)]
    all_allowed = bool(allowed.all())
    chunk = max(1, min(len(numeric), C45_CHUNK_ELEMENTS // max(m, 1)))
    # per chunk with missing values (True) or without: its best thresholds
    found = {False: [], True: []}
    for c0 in range(0, len(numeric), chunk):
        x = valid = left = None
        fs = numeric[c0:c0 + chunk]
        p = b.P[fs]  # (c, m)
        x = _take_rows(X, fs, p) if b.x is None else b.x[fs]
        nk = n_known[fs]
        n_miss = sizes - nk  # (c, S)
        missing_here = prob.has_missing and bool(n_miss.any())
        # where a threshold may go: between two distinct known values (the
        # size rules are read later, from the grown children)
        if all_allowed:
            valid = np.ones((len(fs), m), dtype=bool)
        else:
            valid = np.repeat(allowed[fs], sizes, axis=1)
        valid[:, :-1] &= x[:, 1:] > x[:, :-1] + FEATURE_THRESHOLD
        valid[:, -1] = False
        if not valid.any():
            continue
        if crit.is_classification and not prob.unit_weights:
            left = _c45_cumulative(prob, p, starts, sizes, b)  # (d, c, m)
        else:
            left = prob.cumulative(p, starts, sizes, b.stats_node, b.n_left_all)
        rows = np.arange(len(fs))[:, None]
        if missing_here:
            known_tot = left[:, rows, np.maximum(starts + nk - 1, 0)]  # (d, c, S)
            known_tot[:, nk == 0] = 0.0
        else:
            known_tot = np.broadcast_to(b.stats_node.T[:, None, :], (b.d, len(fs), S))
        c45 = missing_here
        with np.errstate(divide="ignore", invalid="ignore"):
            vi, pair, proxy = _c45_scores(prob, b, left, known_tot, valid, p, nk, c45)
        first = _first_best(proxy, pair)
        if not len(first):
            continue
        ci, q = np.divmod(vi[first], m)
        s = pair[first] - ci * S
        total = known_tot[:, ci, s] if c45 else b.stats_node[s].T
        found[c45].append((fs[ci], s, q, left[:, ci, q], total, x[ci, q],
                           x[ci, np.minimum(q + 1, m - 1)]))
    # every chunk's best thresholds recorded at once (per kind of chunk)
    for c45, parts in found.items():
        if parts:
            f, s, q, lft, total, lo, hi = (np.concatenate(a, axis=-1) for a in zip(*parts))
            _store_best(prob, b, cb, f, s, f, q, lft, total, total[-1], c45, n_known,
                        sizes - n_known, (lo, hi), c45, np.zeros(len(f), dtype=bool))


def _store_best(prob, b, cb, f, s, ci, q, lft, total, known_w, c45, n_known, n_miss, values,
                missing_here, u2, il=None, ir=None, draw=None):
    """Record the best threshold of feature ``f`` in batch node ``s`` (one
    entry per pair): ``q`` its position, ``ci`` the row of ``n_miss`` (and
    ``draw``) that holds the feature, ``lft``/``total`` the left and the
    node's (known) sums, ``known_w`` the node's known weight, ``values`` the
    feature's values at positions ``q`` and ``q + 1``, ``u2`` where the
    missing values go left (the second pass), ``il``/``ir`` the children's
    impurities when the criterion needs the samples, ``draw`` the random
    thresholds (splitter='random')."""
    crit = prob.criterion
    starts = b.starts
    rgt = total - lft
    if il is None:
        il, ir = crit.impurity(lft), crit.impurity(rgt)
    wt = total[-1]
    parent = crit.impurity(total) if c45 else b.imp_node[s]
    gain = parent - rgt[-1] / wt * ir - lft[-1] / wt * il
    if c45:
        gain = gain * (wt / b.w_node[s])  # rho: the known weight fraction
    n_l = q - starts[s] + 1 + np.where(u2, n_miss[ci, s], 0)
    n_r = b.n_node[s] - n_l
    cb.gain[f, s] = gain
    cb.impurity_left[f, s] = il
    cb.impurity_right[f, s] = ir
    if c45:
        # the children as grown: every row with a missing value goes down
        # both branches, with the branch's share of the known weight
        grow = b.w_node[s] / wt
        cb.weight_left[f, s] = lft[-1] * grow
        cb.weight_right[f, s] = rgt[-1] * grow
        cb.n_left[f, s] = n_l + n_miss[ci, s]
        cb.n_right[f, s] = n_known[f, s] - n_l + n_miss[ci, s]
    else:
        cb.weight_left[f, s] = lft[-1]
        cb.weight_right[f, s] = rgt[-1]
        cb.n_left[f, s] = n_l
        cb.n_right[f, s] = n_r
    cb.split_info[f, s] = split_information(lft[-1], rgt[-1])
    cb.missing_fraction[f, s] = 1.0 - wt / b.w_node[s] if c45 else 1.0 - (
        known_w / b.w_node[s])
    if draw is not None:
        cb.threshold[f, s] = draw[ci, s]
    else:
        lo_v, hi_v = (v.astype(np.float64) for v in values)
        if prob.bin_bounds is not None:  # halfway between the two bins
            lower, upper = prob.bin_bounds
            lo_v = upper[f, np.nan_to_num(lo_v).astype(np.intp)].astype(np.float64)
            hi_v = lower[f, np.nan_to_num(hi_v).astype(np.intp)].astype(np.float64)
        thr = lo_v / 2.0 + hi_v / 2.0
        thr = np.where((thr == hi_v) | np.isinf(thr), lo_v, thr)
        if missing_here:
            thr = np.where((q == starts[s] + n_known[f, s] - 1) & ~u2, np.inf, thr)
        cb.threshold[f, s] = thr
    no_missing = n_miss[ci, s] == 0
    missing_child = np.where(lft[-1] >= rgt[-1], 0, 1) if c45 else np.where(u2, 0, 1)
    cb.missing_child[f, s] = np.where(no_missing, np.where(n_l > n_r, 0, 1), missing_child)


def _grown_sizes(prob, p, starts, sizes, nk, left, known_tot, b, c45):
    """Sizes (sums of row fractions) and weights of the children that each
    threshold would grow under C4.5's rule, shape (c, m) each: the known rows
    of each side, plus every row with a missing value times the side's share
    of the known weight.  The weights are only made when the weight rule
    (``min_weight_leaf``) reads them (None otherwise)."""
    weights = prob.min_weight_leaf > 0
    fp = prob.frac[p]
    cnt_l = _running_sum(fp, starts, sizes)
    f_node = np.add.reduceat(fp, starts, axis=1)  # (c, S)
    if not c45:
        if not weights:
            return cnt_l, np.repeat(f_node, sizes, axis=1) - cnt_l, None, None
        return cnt_l, np.repeat(f_node, sizes, axis=1) - cnt_l, left[-1], \
            np.repeat(b.w_node[None, :], sizes, axis=1) - left[-1]
    rows = np.arange(p.shape[0])[:, None]
    f_known = cnt_l[rows, np.maximum(starts + nk - 1, 0)]
    f_known[nk == 0] = 0.0
    w_known = np.repeat(known_tot[-1], sizes, axis=1)
    share_l = left[-1] / w_known
    f_miss = np.repeat(f_node - f_known, sizes, axis=1)
    cnt_r = np.repeat(f_known, sizes, axis=1) - cnt_l + f_miss * (1.0 - share_l)
    cnt_l = cnt_l + f_miss * share_l
    if not weights:
        return cnt_l, cnt_r, None, None
    grow = np.repeat(b.w_node[None, :], sizes, axis=1) / w_known
    return cnt_l, cnt_r, left[-1] * grow, (w_known - left[-1]) * grow


def _search_categorical(prob, b, cb, f, allowed_f):
    """Best split of categorical feature ``f`` in every node of the batch."""
    crit = prob.criterion
    p = b.P[f]
    codes = prob.X[f][p]
    known = ~np.isnan(codes)
    C = max(int(prob.n_categories[f]), 1)
    S, d = b.S, b.d
    key = b.seg[known] * C + codes[known].astype(np.intp)
    table = np.stack([np.bincount(key, weights=prob.stats[k][p[known]], minlength=S * C)
                      for k in range(d)]).reshape(d, S, C)
    counts = np.bincount(key, minlength=S * C).reshape(S, C)
    known_tot = table.sum(axis=2)  # (d, S)
    w_known = known_tot[-1]
    n_known = counts.sum(axis=1)
    n_miss = b.sizes - n_known
    if prob.frac is not None:
        # C4.5's fractional rows: sizes are sums of fractions, and a row with a
        # missing value joins every branch with the branch's share
        sizes_c = np.bincount(key, weights=prob.frac[p[known]], minlength=S * C).reshape(S, C)
        f_miss = np.add.reduceat(prob.frac[p], b.starts) - sizes_c.sum(axis=1)
        if not prob.c45_missing:
            f_miss = np.zeros(S)
    else:
        sizes_c, f_miss = counts.astype(np.float64), np.zeros(S)
    msl, mwl = prob.min_samples_leaf, prob.min_weight_leaf
    rows_of_seg = np.split(p, b.starts[1:]) if crit.needs_samples else None
    for s in np.flatnonzero(allowed_f):
        present = np.flatnonzero(counts[s] > 0)
        if len(present) < 2:
            continue
        if prob.multiway:
            if n_miss[s] and not prob.c45_missing:
                raise ValueError(
                    "Multiway splits need missing='c4.5' when a categorical feature has "
                    "missing values.")
            sub = table[:, s, present]
            n_c, w_c = counts[s, present], sub[-1]
            q = w_c / w_known[s]
            grown_c = sizes_c[s, present] + f_miss[s] * q
            grown_w = w_c * (b.w_node[s] / w_known[s]) if prob.c45_missing else w_c
            if (grown_c < msl - SIZE_TOLERANCE).any() or (grown_w < mwl).any():
                continue
            if crit.needs_samples:
                rows = rows_of_seg[s]
                codes_s = prob.X[f][rows]
                imp_c = np.array([mean_absolute_deviation(prob.y[rows[codes_s == c]],
                                                          prob.w[rows[codes_s == c]])
                                  for c in present])
                kn = ~np.isnan(codes_s)
                parent = mean_absolute_deviation(prob.y[rows[kn]], prob.w[rows[kn]])
            else:
                imp_c = crit.impurity(sub)
                parent = crit.impurity(known_tot[:, s])
            gain = parent - float(np.sum(w_c / w_known[s] * imp_c))
            rho = w_known[s] / b.w_node[s]
            if prob.c45_missing:
                gain *= rho
            branch = np.full(C, -1, dtype=np.intp)
            branch[present] = np.arange(len(present))
            cb.gain[f, s] = gain
            cb.split_info[f, s] = -float(np.sum(q * np.log2(q)))
            cb.missing_child[f, s] = int(np.argmax(w_c))
            cb.missing_fraction[f, s] = 1.0 - rho
            # the table shows the children as grown (missing rows in each branch)
            n_grown = n_c + (n_miss[s] if prob.c45_missing else 0)
            cb.categorical[(int(f), int(s))] = (branch, n_grown, grown_w, imp_c)
            continue
        _best_subset(prob, b, cb, f, s, present, table[:, s, :], counts[s], known_tot[:, s],
                     n_miss[s], rows_of_seg[s] if rows_of_seg is not None else None,
                     sizes_c[s], f_miss[s])


def _subset_candidates(prob, present, tab):
    """Left-side masks (n_candidates, len(present)) to evaluate for a binary
    split of the present categories (tab: (d, len(present)) statistics)."""
    crit = prob.criterion
    k = len(present)
    w = tab[-1]
    if not crit.is_classification:
        key = tab[0] / w  # mean target: ordering makes the search exact
    elif crit.n_classes <= 2:
        key = tab[0] / w  # proportion of the first class: exact as well
    elif k <= MAX_EXHAUSTIVE_CATEGORIES:
        # every subset containing the first category, except all of them
        bits = np.arange(2 ** (k - 1) - 1)
        rest = ((bits[:, None] >> np.arange(k - 1)[None, :]) & 1).astype(bool)
        return np.hstack([np.ones((len(bits), 1), dtype=bool), rest])
    else:
        # heuristic beyond the limit: order by the share of the node's majority class
        major = int(np.argmax(tab[:-1].sum(axis=1)))
        key = tab[major] / w
    order = np.argsort(key, kind="stable")
    masks = np.zeros((k - 1, k), dtype=bool)
    for i in range(k - 1):
        masks[i, order[:i + 1]] = True
    return masks


def _best_subset(prob, b, cb, f, s, present, table_s, counts_s, known_tot, n_miss, rows,
                 sizes_s, f_miss):
    crit = prob.criterion
    msl, mwl = prob.min_samples_leaf, prob.min_weight_leaf
    tab = table_s[:, present]
    masks = _subset_candidates(prob, present, tab)
    masks = masks[masks.any(axis=1) & ~masks.all(axis=1)]
    if not len(masks):
        return
    left = tab @ masks.T.astype(float)  # (d, n_candidates)
    n_left = masks @ counts_s[present]
    size_left = masks @ sizes_s[present]  # sums of row fractions
    total = b.stats_node[s]
    miss = total - known_tot
    c45 = prob.c45_missing and n_miss > 0
    options = [(left, n_left, False)]
    if n_miss and not prob.c45_missing:
        options.append((left + miss[:, None], n_left + n_miss, True))
    best = (-np.inf, None)
    ref = known_tot if c45 else total
    n_ref = int(counts_s.sum()) if c45 else int(b.n_node[s])
    for lft, n_l, missing_left in options:
        rgt = ref[:, None] - lft
        n_r = n_ref - n_l
        if prob.frac is not None:
            # C4.5's grown children: known rows plus the missing ones by share
            share_l = lft[-1] / ref[-1] if c45 else 0.0
            size_l = size_left + f_miss * share_l
            size_r = sizes_s[present].sum() - size_left + f_miss * (1.0 - share_l)
            grow = b.w_node[s] / ref[-1] if c45 else 1.0
            ok = ((size_l >= msl - SIZE_TOLERANCE) & (size_r >= msl - SIZE_TOLERANCE)
                  & (lft[-1] * grow >= mwl) & (rgt[-1] * grow >= mwl))
        else:
            ok = (n_l >= msl) & (n_r >= msl) & (lft[-1] >= mwl) & (rgt[-1] >= mwl)
        if crit.needs_samples:
            codes_s = prob.X[f][rows]
            proxy = np.full(len(masks), -np.inf)
            for i, mask in enumerate(masks):
                in_left = np.isin(codes_s, present[mask])
                if missing_left:
                    in_left |= np.isnan(codes_s)
                yl, wl = prob.y[rows[in_left]], prob.w[rows[in_left]]
                yr, wr = prob.y[rows[~in_left]], prob.w[rows[~in_left]]
                proxy[i] = -(mean_absolute_deviation(yl, wl) * wl.sum()
                             + mean_absolute_deviation(yr, wr) * wr.sum())
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                proxy = crit.proxy(lft, rgt)
        proxy = np.where(ok, proxy, -np.inf)
        i = int(np.argmax(proxy))
        if proxy[i] > best[0]:
            best = (proxy[i], (i, lft[:, i], rgt[:, i], int(n_l[i]), missing_left))
    if best[1] is None:
        return
    i, lft, rgt, n_l, missing_left = best[1]
    if crit.needs_samples:
        codes_s = prob.X[f][rows]
        in_left = np.isin(codes_s, present[masks[i]]) | (missing_left & np.isnan(codes_s))
        il = mean_absolute_deviation(prob.y[rows[in_left]], prob.w[rows[in_left]])
        ir = mean_absolute_deviation(prob.y[rows[~in_left]], prob.w[rows[~in_left]])
        parent = b.imp_node[s]
    else:
        il, ir = float(crit.impurity(lft)), float(crit.impurity(rgt))
        parent = float(crit.impurity(ref)) if c45 else b.imp_node[s]
    wt = ref[-1]
    gain = parent - rgt[-1] / wt * ir - lft[-1] / wt * il
    if c45:
        gain *= wt / b.w_node[s]
    branch = np.full(table_s.shape[1], -1, dtype=np.intp)
    branch[present] = np.where(masks[i], 0, 1)
    n_r = n_ref - n_l
    cb.gain[f, s] = gain
    cb.split_info[f, s] = split_information(lft[-1], rgt[-1])
    cb.impurity_left[f, s] = il
    cb.impurity_right[f, s] = ir
    grow = b.w_node[s] / wt if c45 else 1.0
    cb.weight_left[f, s] = lft[-1] * grow
    cb.weight_right[f, s] = rgt[-1] * grow
    cb.n_left[f, s] = n_l + (n_miss if c45 else 0)
    cb.n_right[f, s] = n_r + (n_miss if c45 else 0)
    if n_miss == 0:
        cb.missing_child[f, s] = 0 if n_l > n_r else 1
    elif c45:
        cb.missing_child[f, s] = 0 if lft[-1] >= rgt[-1] else 1
    else:
        cb.missing_child[f, s] = 0 if missing_left else 1
    n_c = np.array([cb.n_left[f, s], cb.n_right[f, s]])
    cb.categorical[(int(f), int(s))] = (branch, n_c, np.array([cb.weight_left[f, s],
                                                               cb.weight_right[f, s]]),
                                        np.array([il, ir]))


# --------------------------------------------------------------------------
# routing and partitioning
# --------------------------------------------------------------------------

def branch_slots(prob, rows, nodes, node_of_row, resolve_missing=True):
    """Child position each row takes at its node's split.  A missing value
    goes to the node's ``missing_child`` (or -1 if ``resolve_missing`` is off)."""
    feat = nodes.feature[node_of_row]
    # X[feat, rows], as one take on the flat array (faster than two-array indexing)
    x = prob.X.take(feat * prob.X.shape[1] + rows)
    slot = np.where(x <= nodes.threshold[node_of_row], 0, 1)
    categorical = np.flatnonzero(nodes.kind[node_of_row] != NUMERIC)
    if len(categorical):
        for node in np.unique(node_of_row[categorical]):
            at = categorical[node_of_row[categorical] == node]
            codes = x[at]
            ok = ~np.isnan(codes)
            out = np.full(len(at), -1, dtype=np.intp)
            out[ok] = nodes.branch_of_code[int(node)][codes[ok].astype(np.intp)]
            slot[at] = out
    missing = np.isnan(x)
    if not len(categorical) and not prob.has_missing:
        return slot, ~missing
    if resolve_missing:
        slot = np.where(missing | (slot < 0), nodes.missing_child[node_of_row], slot)
    else:
        slot = np.where(missing, -1, slot)
    return slot, ~missing


def n_branches(nodes, ids):
    ids = np.asarray(ids)
    kids = np.full(len(ids), 2, dtype=np.intp)
    for i in np.flatnonzero(nodes.kind[ids] == MULTIWAY):
        kids[i] = int(nodes.branch_of_code[int(ids[i])].max()) + 1
    return kids


class Children:
    """What routing found for the children of the split nodes of a batch,
    in order (all children of the first split node, then the next...)."""

    def __init__(self, n_kids, counts, stats, share, impurity=None):
        self.n_kids = n_kids
        self.counts = counts
        self.count = None  # sums of row fractions, when not the row counts
        self.stats = stats  # (total, d)
        self.share = share
        self.impurity = impurity


def route(prob, nodes, P, starts, sizes, ids, split):
    """Record every sample's child position (``prob.slot``) at the split nodes
    of the batch and return the children's statistics, summed directly over
    each child's own samples (so a pure child's impurity is exactly zero, as
    in scikit-learn)."""
    if prob.hist is not None:
        kids = prob.hist.router.route(prob, nodes, P, starts, sizes, ids, split)
        if kids is not None:
            return kids
    n_kids = n_branches(nodes, ids[split])
    offset = np.zeros(len(ids), dtype=np.intp)
    offset[split] = np.cumsum(n_kids) - n_kids
    total = int(n_kids.sum())
    m = P.shape[1]
    if (prob.criterion.is_classification and prob.unit_weights
            and not prob.criterion.needs_samples):
        # every sum here is a count (unit weights): a large batch is routed in
        # slices of positions, the counts added up slice by slice
        k = prob.n_stats - 1
        counts = np.zeros(total, dtype=np.intp)
        by_class = np.zeros(total * k, dtype=np.intp)
        known_w = np.zeros(total)
        pieces = (_slices(starts, sizes, m) if m > SLICE_ROWS
                  else [(0, m, np.arange(len(ids)), starts, sizes)])
        for a, e, here, _, lsz in pieces:
            seg = np.repeat(here, lsz)
            moving = split[seg]
            p0 = P[0, a:e][moving]
            seg = seg[moving]
            slot, known = branch_slots(prob, p0, nodes, ids[seg])
            prob.slot[p0] = slot
            child = offset[seg] + slot
            del seg, moving, slot
            counts += np.bincount(child, minlength=total)
            by_class += np.bincount(child * k + prob.codes[p0], minlength=total * k)
            known_w += np.bincount(child, weights=prob.w[p0] * known, minlength=total)
        stats = np.column_stack([by_class.reshape(total, k), counts]).astype(np.float64)
        parent_known = np.repeat(np.add.reduceat(known_w, offset[split]), n_kids)
        share = np.divide(known_w, parent_known, out=np.zeros(total), where=parent_known > 0)
        return Children(n_kids, counts, stats, share)
    seg = np.repeat(np.arange(len(ids)), sizes)
    moving = split[seg]
    p0 = P[0][moving]
    node_m = ids[seg[moving]]
    slot, known = branch_slots(prob, p0, nodes, node_m)
    prob.slot[p0] = slot
    child = offset[seg[moving]] + slot
    counts = np.bincount(child, minlength=total)
    stats = np.stack([np.bincount(child, weights=prob.stats[k][p0], minlength=total)
                      for k in range(prob.stats.shape[0])], axis=1)
    known_w = np.bincount(child, weights=prob.w[p0] * known, minlength=total)
    parent_known = np.repeat(np.add.reduceat(known_w, offset[split]), n_kids)
    share = np.divide(known_w, parent_known, out=np.zeros(total), where=parent_known > 0)
    impurity = None
    if prob.criterion.needs_samples:
        impurity = group_mean_absolute_deviations(child, prob.y[p0], prob.w[p0], total)
    return Children(n_kids, counts, stats, share, impurity)


def partition(prob, P, starts, sizes, split, kids, keep):
    """Stable partition of a batch's sample orders into the children of its
    split nodes (``prob.slot`` from :func:`route`); children with
    ``keep == False`` (already leaves) are dropped.  Returns the children's
    ``P`` and each child's size in it (0 if dropped).

    The partition is written over ``P`` itself, one feature (or a chunk of
    features) at a time: the children's ``P`` is the view ``P[:, :total]``,
    so the sample orders are never held twice.  The caller must not read
    ``P`` as the parents' orders afterwards."""
    out_sizes = np.where(keep, kids.counts, 0)
    if prob.hist is not None and prob.hist.router.parts is not None:
        return prob.hist.router.partition(keep), out_sizes
    P_out = P[:, :int(out_sizes.sum())]
    if P_out.shape[1] == 0:
        return P_out, out_sizes
    S = len(starts)
    slot = prob.slot
    n_kids = np.zeros(S, dtype=np.intp)
    n_kids[split] = kids.n_kids
    if np.all(kids.n_kids == 2):
        keep_left = np.zeros(S, dtype=bool)
        keep_right = np.zeros(S, dtype=bool)
        keep_left[split], keep_right[split] = keep[0::2], keep[1::2]
        n_left = np.zeros(S, dtype=np.intp)
        n_left[split] = kids.counts[0::2]
        if P.shape[1] > SLICE_ROWS:
            _partition_binary_sliced(P, P_out, starts, sizes, slot, n_left, keep_left,
                                     keep_right)
        else:
            _partition_binary(P, P_out, starts, sizes, slot, n_left, keep_left, keep_right)
        return P_out, out_sizes
    # general case (multiway nodes): a stable sort by child
    offset = np.cumsum(n_kids) - n_kids
    seg = np.repeat(np.arange(S), sizes)
    keep_full = np.zeros(int(n_kids.sum()) + 1, dtype=bool)
    keep_full[:-1] = keep
    for f in range(P.shape[0]):
        p = P[f]
        child = np.where(np.repeat(split, sizes), offset[seg] + slot[p], len(keep_full) - 1)
        sel = keep_full[child]
        P_out[f] = p[sel][np.argsort(child[sel], kind="stable")]  # (the right side is a copy)
    return P_out, out_sizes


def _partition_binary(P, P_out, starts, sizes, slot, n_left, keep_left, keep_right):
    n_right = sizes - n_left
    flat = np.stack([np.where(keep_left, n_left, 0), np.where(keep_right, n_right, 0)],
                    axis=1).ravel()
    out_starts = np.cumsum(flat) - flat
    total = P_out.shape[1]
    m = P.shape[1]
    rank = np.arange(m) - np.repeat(starts, sizes)  # position inside the node
    left_start = np.repeat(out_starts[0::2], sizes)
    right_start = np.repeat(out_starts[1::2], sizes) + rank
    drop_some = not (keep_left.all() and keep_right.all())
    if drop_some:
        kept_left, kept_right = np.repeat(keep_left, sizes), np.repeat(keep_right, sizes)
    later = starts[1:]
    chunk = max(1, min(P.shape[0], CHUNK_ELEMENTS // max(m, 1)))
    for f0 in range(0, P.shape[0], chunk):
        p = P[f0:f0 + chunk]
        g = slot[p] == 0
        # n_l: lefts so far in this node (inclusive), via one running count
        n_l = np.cumsum(g, axis=1, dtype=np.intp)
        if len(later):
            n_l[:, later[0]:] -= np.repeat(n_l[:, later - 1], sizes[1:], axis=1)
        dest = np.where(g, left_start + n_l - 1, right_start - n_l)
        dest += (np.arange(len(p)) * total)[:, None]
        # P_out is P's own memory: scatter into a buffer, then copy it over
        out = np.empty((len(p), total), dtype=P.dtype)
        if drop_some:
            move = np.where(g, kept_left, kept_right)
            out.reshape(-1)[dest[move]] = p[move]
        else:
            out.reshape(-1)[dest] = p
        del g, n_l, dest
        P_out[f0:f0 + chunk] = out


def _partition_binary_sliced(P, P_out, starts, sizes, slot, n_left, keep_left,
                             keep_right):
    """:func:`_partition_binary` one feature at a time, read in slices of
    ``SLICE_ROWS`` positions (each node's count of left rows carried from one
    slice to the next): besides one feature's new order, no array of the
    batch's size is made."""
    n_right = sizes - n_left
    flat = np.stack([np.where(keep_left, n_left, 0), np.where(keep_right, n_right, 0)],
                    axis=1).ravel()
    out_starts = np.cumsum(flat) - flat
    left_at, right_at = out_starts[0::2], out_starts[1::2]
    drop_some = not (keep_left.all() and keep_right.all())
    total = P_out.shape[1]
    pieces = list(_slices(starts, sizes, P.shape[1]))
    for f in range(P.shape[0]):
        out = np.empty(total, dtype=P.dtype)
        carry = 0  # left rows so far in the open node
        for a, e, here, lst, lsz in pieces:
            p = P[f, a:e]
            g = slot[p] == 0
            n_l = np.cumsum(g, dtype=np.intp)
            # each node's count restarts at 0 (the open node's continues)
            base = np.empty(len(here), dtype=np.intp)
            base[0] = -carry if starts[here[0]] < a else 0
            base[1:] = n_l[lst[1:] - 1]
            n_l -= np.repeat(base, lsz)
            carry = int(n_l[-1])
            seg = np.repeat(here, lsz)
            rank = np.arange(a, e) - starts[seg]
            dest = np.where(g, left_at[seg] + n_l - 1, right_at[seg] + rank - n_l)
            if drop_some:
                move = np.where(g, keep_left[seg], keep_right[seg])
                out[dest[move]] = p[move]
            else:
                out[dest] = p
        P_out[f] = out
        del out  # (before the next feature's is made)


def create_children(prob, nodes, parents, kids):
    """Add the children of each parent (consecutive ids, branch order);
    return their ids and whether each must be searched (is not a leaf yet)."""
    if kids.impurity is None:
        impurity = prob.criterion.impurity(kids.stats.T)
    else:
        impurity = kids.impurity
    ids = nodes.add(
        parent=np.repeat(parents, kids.n_kids),
        depth=np.repeat(nodes.depth[parents] + 1, kids.n_kids),
        n=kids.counts,
        stats=kids.stats,
        impurity=impurity,
        count=kids.count,
    )
    nodes.first_child[parents] = ids[np.cumsum(kids.n_kids) - kids.n_kids]
    nodes.n_children[parents] = kids.n_kids
    nodes.share[ids] = kids.share
    reason = presearch_reason(prob, ids, nodes)
    nodes.reason[ids] = reason
    if prob.hist is not None:
        prob.hist.children_created(parents, kids.n_kids, reason == 0)
    return ids, reason == 0


# --------------------------------------------------------------------------
# growth orders
# --------------------------------------------------------------------------

def _root(prob, nodes, root_impurity):
    n = prob.n_samples
    ids = nodes.add(parent=np.array([-1]), depth=np.array([0]), n=np.array([n]),
                    stats=prob.total_stats()[None, :],
                    impurity=np.array([root_impurity]))
    if prob.hist is not None:  # histograms need the rows grouped by node, not sorted
        P = prob.hist.root_rows(n)
    else:
        P = sample_orders(prob.X)
    reason = presearch_reason(prob, ids, nodes)
    nodes.reason[ids] = reason
    return ids, P, reason[0] == 0


def sample_orders(X):
    """Each feature's row order, ``(F, n)``: ``argsort`` row by row (NaN
    sorts last; ties in any fixed order), kept as int32 when the rows allow,
    so the orders take half the memory of ``np.argsort(X, axis=1)``."""
    F, n = X.shape
    P = np.empty((F, n), dtype=np.int32 if n < np.iinfo(np.int32).max else np.intp)
    for f in range(F):
        P[f] = np.argsort(X[f])
    return P


def grow_levels(prob, nodes, root_impurity, max_splits, record):
    """Level by level (breadth-first ids).  Returns the split order."""
    ids, P, searchable = _root(prob, nodes, root_impurity)
    order = []
    if not searchable:
        return order
    sizes = np.array([prob.n_samples])
    budget = max_splits
    while len(ids):
        starts = np.cumsum(sizes) - sizes
        search(prob, nodes, P, starts, sizes, ids, record)
        split = nodes.has_split[ids].copy()
        if budget is not None:
            over = np.flatnonzero(split)[budget:]
            split[over] = False
            nodes.reason[ids[over]] = _R["leaf budget"]
            budget -= int(split.sum())
        parents = ids[split]
        order.extend(parents.tolist())
        if not len(parents):
            break
        kids = route(prob, nodes, P, starts, sizes, ids, split)
        children, searchable = create_children(prob, nodes, parents, kids)
        P, out_sizes = partition(prob, P, starts, sizes, split, kids, searchable)
        nonempty = out_sizes > 0
        ids = children[nonempty]
        sizes = out_sizes[nonempty]
        if budget is not None and budget <= 0:
            nodes.reason[ids] = _R["leaf budget"]
            break
    return order


class _Frontier:
    """Nodes waiting to be split: a max-heap on improvement (best-first), a
    stack (depth-first) or a queue (breadth-first)."""

    def __init__(self, growth):
        self.growth = growth
        self.items = []
        self.head = 0

    def push(self, node, improvement):
        if self.growth == "best_first":
            heapq.heappush(self.items, (-improvement, node))
        else:
            self.items.append(node)

    def pop(self):
        if self.growth == "best_first":
            return heapq.heappop(self.items)[1]
        if self.growth == "depth_first":
            return self.items.pop()
        self.head += 1
        return self.items[self.head - 1]

    def __bool__(self):
        return len(self.items) > (self.head if self.growth == "breadth_first" else 0)


def grow_nodes(prob, nodes, root_impurity, max_splits, record, growth):
    """One node at a time.  Children are searched when they are created."""
    ids, P, searchable = _root(prob, nodes, root_impurity)
    order = []
    if not searchable:
        return order
    one = lambda n: (np.array([0]), np.array([n]))
    search(prob, nodes, P, *one(prob.n_samples), ids, record)
    frontier = _Frontier(growth)
    store = {}

    def push(node, P_node):
        if nodes.has_split[node]:
            store[node] = P_node
            frontier.push(node, nodes.improvement[node])

    push(0, P)
    budget = np.inf if max_splits is None else max_splits
    yes = np.array([True])
    while frontier:
        node = frontier.pop()
        P_node = store.pop(node)
        if budget <= 0:
            nodes.reason[node] = _R["leaf budget"]
            continue
        budget -= 1
        order.append(node)
        one_id = np.array([node])
        starts, sizes = one(P_node.shape[1])
        kids = route(prob, nodes, P_node, starts, sizes, one_id, yes)
        children, searchable = create_children(prob, nodes, one_id, kids)
        P_kids, kid_sizes = partition(prob, P_node, starts, sizes, yes, kids, searchable)
        live = children[searchable]
        live_sizes = kid_sizes[searchable]
        if len(live):
            search(prob, nodes, P_kids, np.cumsum(live_sizes) - live_sizes, live_sizes,
                   live, record)
        pieces = dict(zip(live.tolist(), np.split(P_kids, np.cumsum(live_sizes)[:-1], axis=1)))
        # a stack pops the last pushed: push in reverse so the first child is split first
        for kid in (children[::-1] if growth == "depth_first" else children):
            if int(kid) in pieces:
                push(int(kid), pieces[int(kid)])
    return order


def grow_weighted(prob, nodes, root_impurity, max_splits, record, growth):
    """C4.5's missing-value rule: each node is searched on its own copy of its
    rows, where a row with a missing value for a split feature has gone down
    every branch with a share of its weight.

    A node's split depends only on its own rows, so the whole tree is grown
    level by level, every node of a level searched and routed in one batch
    (:func:`_grow_weighted_levels`); the growth order (node ids, split
    order, leaf budget) is then replayed on the grown nodes
    (:func:`_replay`).  Random feature draws (``max_features``, the random
    splitter) and absolute error keep the node-by-node growth, whose draws
    follow the growth order.
    """
    if (prob.max_features < prob.n_features or prob.random_splitter
            or prob.criterion.needs_samples):
        return _grow_weighted_nodes(prob, nodes, root_impurity, max_splits, record, growth)
    grown = Nodes(nodes.d)
    _grow_weighted_levels(prob, grown, root_impurity, record)
    return _replay(grown, nodes, max_splits, growth)


def _grow_weighted_levels(prob, nodes, root_impurity, record):
    """Every split of the C4.5 tree, level by level (breadth-first ids)."""
    n = prob.n_samples
    ids = nodes.add(parent=np.array([-1]), depth=np.array([0]), n=np.array([n]),
                    stats=prob.total_stats()[None, :],
                    impurity=np.array([root_impurity]))
    reason = presearch_reason(prob, ids, nodes)
    nodes.reason[ids] = reason
    if reason[0]:
        return
    ids, samples, weights, sizes = ids, np.arange(n), prob.w.copy(), np.array([n])
    root_order = np.argsort(prob.X, axis=1, kind="stable")  # missing last
    rank = _root_ranks(root_order)
    prob.workspace = _Workspace()  # every level's search reuses its arrays
    while len(ids):
        starts = np.cumsum(sizes) - sizes
        sub = prob.subproblem(samples, weights)
        P = _level_orders(root_order, samples, sizes, rank)
        search(sub, nodes, P, starts, sizes, ids, record)
        split = nodes.has_split[ids]
        if not split.any():
            break
        ids, samples, weights, sizes = _route_weighted(prob, nodes, ids, samples, weights,
                                                       sizes, split)


def _root_ranks(root_order):
    """Each row's position in each feature's root order, shape (F, n)."""
    F, n = root_order.shape
    rank = np.empty((F, n), dtype=np.int64)
    ar = np.arange(n, dtype=np.int64)
    for f in range(F):
        rank[f, root_order[f]] = ar
    return rank


def _level_orders(root_order, samples, sizes, rank=None):
    """Each node's entries sorted by each feature (missing last, ties in row
    order), shape (F, len(samples)), from the rows' order at the root.

    A row appears at most once in a node, so (node, the row's position in
    the root order) is a unique key: with ``rank`` (:func:`_root_ranks`)
    each entry's key and its own index are packed into one 64-bit integer
    and sorted, which is faster than the radix sort below.  When the three
    numbers do not fit in 63 bits, the entries are listed in the rows' root
    order, then grouped by node with a stable sort on small integers."""
    n = root_order.shape[1]
    total = len(samples)
    if total == n and np.array_equal(samples, np.arange(n)):  # the root
        return root_order.copy()
    node_bits = max(int(len(sizes) - 1).bit_length(), 1)
    rank_bits = max(int(n - 1).bit_length(), 1)
    entry_bits = max(int(total - 1).bit_length(), 1)
    if rank is not None and node_bits + rank_bits + entry_bits <= 63:
        node_of = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        high = node_of << (rank_bits + entry_bits)
        high |= np.arange(total, dtype=np.int64)
        mask = (1 << entry_bits) - 1
        P = np.empty((root_order.shape[0], total), dtype=np.intp)
        for f in range(root_order.shape[0]):
            key = rank[f].take(samples)
            key <<= entry_bits
            key |= high
            key.sort()
            np.bitwise_and(key, mask, out=P[f])
        return P
    by_row = np.argsort(samples, kind="stable")  # a row's entries, together
    count = np.bincount(samples, minlength=n)
    row_start = np.cumsum(count) - count
    node_of = np.repeat(np.arange(len(sizes)), sizes)
    node_of = node_of.astype(np.uint16 if len(sizes) < 1 << 16 else np.int64)
    P = np.empty((root_order.shape[0], total), dtype=np.intp)
    for f, rows in enumerate(root_order):
        c = count[rows]
        first = np.repeat(row_start[rows], c)
        within = np.arange(total) - np.repeat(np.cumsum(c) - c, c)
        entries = by_row[first + within]  # in root order
        P[f] = entries[np.argsort(node_of[entries], kind="stable")]
    return P


def _route_weighted(prob, nodes, ids, samples, weights, sizes, split):
    """Create the children of the split nodes of a level; return the next
    level: the searchable children, their rows and weights (the known rows
    of each branch in order, then the rows with a missing value, each with
    the branch's share of its weight) and their sizes."""
    seg = np.repeat(np.arange(len(ids)), sizes)
    moving = split[seg]
    seg, samples, weights = seg[moving], samples[moving], weights[moving]
    parents = ids[split]
    where = np.full(len(ids), -1)
    where[split] = np.arange(len(parents))
    seg = where[seg]  # index among the split nodes
    slot, known = branch_slots(prob, samples, nodes, parents[seg], resolve_missing=False)
    n_kids = n_branches(nodes, parents)
    offset = np.cumsum(n_kids) - n_kids
    total = int(n_kids.sum())
    known_w = np.bincount(offset[seg[known]] + slot[known], weights=weights[known],
                          minlength=total)
    if n_kids.max() <= 2:  # a + b, as .sum() adds two values
        parent_known = np.add.reduceat(known_w, offset)
    else:
        parent_known = np.array([known_w[a:a + k].sum() for a, k in zip(offset, n_kids)])
    share = known_w / np.repeat(parent_known, n_kids)
    # the known rows go to their branch, the missing ones to every branch
    miss = np.flatnonzero(~known)
    reps = n_kids[seg[miss]]
    rep = np.repeat(miss, reps)
    within = np.arange(len(rep)) - np.repeat(np.cumsum(reps) - reps, reps)
    rep_child = np.repeat(offset[seg[miss]], reps) + within
    child = np.concatenate([offset[seg[known]] + slot[known], rep_child])
    entry = np.concatenate([np.flatnonzero(known), rep])
    w = np.concatenate([weights[known], weights[rep] * share[rep_child]])
    by_child = np.argsort(child, kind="stable")
    child, entry, w = child[by_child], entry[by_child], w[by_child]
    positive = w > 0
    child, entry, w = child[positive], entry[positive], w[positive]
    rows = samples[entry]
    counts = np.bincount(child, minlength=total)
    frac = w / prob.w[rows]
    if prob.criterion.is_classification:
        # a row's class statistic is its weight, the others 0: the same sums
        # (the zeros left out) from one count by (child, class)
        k = prob.n_stats - 1
        wf = prob.w[rows] * frac
        stats = np.empty((total, k + 1))
        stats[:, :k] = np.bincount(child * k + prob.codes[rows], weights=wf,
                                   minlength=total * k).reshape(total, k)
        stats[:, k] = np.bincount(child, weights=wf, minlength=total)
    else:
        stats = np.stack([np.bincount(child, weights=prob.stats[j][rows] * frac,
                                      minlength=total) for j in range(prob.stats.shape[0])],
                         axis=1)
    kids = Children(n_kids, counts, stats, share)
    kids.count = np.bincount(child, weights=frac, minlength=total)
    children, searchable = create_children(prob, nodes, parents, kids)
    keep = searchable & (counts > 0)
    take = keep[child]
    return children[keep], rows[take], w[take], counts[keep]


def _replay(grown, nodes, max_splits, growth):
    """Number the nodes of a fully grown tree as ``growth`` creates them
    (children with consecutive ids when their parent is split) and return
    the split order; with a leaf budget, the nodes split beyond it stay
    leaves ("leaf budget") and their children are never created."""
    old_of = [0]  # final id -> id in ``grown``
    order, over = [], []
    frontier = _Frontier(growth)
    if grown.has_split[0]:
        frontier.push(0, grown.improvement[0])
    budget = np.inf if max_splits is None else max_splits
    first, n_kids, has_split = grown.first_child, grown.n_children, grown.has_split
    while frontier:
        node = frontier.pop()
        if budget <= 0:
            over.append(node)
            continue
        budget -= 1
        order.append(node)
        t0, k = int(first[old_of[node]]), int(n_kids[old_of[node]])
        kid0 = len(old_of)
        old_of.extend(range(t0, t0 + k))
        ready = [kid0 + i for i in range(k) if has_split[t0 + i]]
        # a stack pops the last pushed: push in reverse so the first child is split first
        for kid in (ready[::-1] if growth == "depth_first" else ready):
            frontier.push(kid, grown.improvement[old_of[kid]])
    old = np.array(old_of)
    new_of = np.full(grown.size, -1)
    new_of[old] = np.arange(len(old))
    nodes._reserve(len(old))
    nodes.size = len(old)
    for name in list(Nodes._FIELDS) + ["stats", "share"]:
        getattr(nodes, name)[:len(old)] = getattr(grown, name)[old]
    nodes.parent[:len(old)] = np.where(old > 0, new_of[grown.parent[old]], -1)
    split = np.zeros(len(old), dtype=bool)
    split[order] = True
    nodes.first_child[:len(old)] = np.where(split, new_of[np.maximum(grown.first_child[old], 0)],
                                            -1)
    nodes.n_children[:len(old)] = np.where(split, grown.n_children[old], 0)
    nodes.reason[over] = _R["leaf budget"]
    nodes.branch_of_code = {int(new_of[o]): v for o, v in grown.branch_of_code.items()
                            if new_of[o] >= 0}
    nodes.candidates = {int(new_of[o]): v for o, v in grown.candidates.items()
                        if new_of[o] >= 0}
    return order


def _grow_weighted_nodes(prob, nodes, root_impurity, max_splits, record, growth):
    """:func:`grow_weighted` node by node, in the growth order."""
    ids, _, searchable = _root(prob, nodes, root_impurity)
    order = []
    if not searchable:
        return order
    entries = {0: (np.arange(prob.n_samples), prob.w.copy())}
    frontier = _Frontier(growth)

    def evaluate(node):
        samples, weights = entries[node]
        sub = prob.subproblem(samples, weights)
        P = np.argsort(sub.X, axis=1)
        search(sub, nodes, P, np.array([0]), np.array([len(samples)]), np.array([node]),
               record)
        if not nodes.has_split[node]:
            del entries[node]
        return bool(nodes.has_split[node])

    if evaluate(0):
        frontier.push(0, nodes.improvement[0])
    budget = np.inf if max_splits is None else max_splits
    while frontier:
        node = frontier.pop()
        samples, weights = entries.pop(node)
        if budget <= 0:
            nodes.reason[node] = _R["leaf budget"]
            continue
        budget -= 1
        order.append(node)
        slot, known = branch_slots(prob, samples, nodes, np.full(len(samples), node),
                                   resolve_missing=False)
        k = int(n_branches(nodes, [node])[0])
        known_w = np.bincount(slot[known], weights=weights[known], minlength=k)
        share = known_w / known_w.sum()
        miss_s, miss_w = samples[~known], weights[~known]
        child_entries = []
        for c in range(k):
            mine = known & (slot == c)
            cs = np.concatenate([samples[mine], miss_s])
            cw = np.concatenate([weights[mine], miss_w * share[c]])
            child_entries.append((cs[cw > 0], cw[cw > 0]))
        stats = np.stack([(prob.stats[:, s] * (w / prob.w[s])).sum(axis=1)
                          for s, w in child_entries])
        impurity = None
        if prob.criterion.needs_samples:
            impurity = np.array([mean_absolute_deviation(prob.y[s], w) for s, w in child_entries])
        kids = Children(np.array([k]), np.array([len(s) for s, _ in child_entries]), stats,
                        share, impurity)
        # the size rules read sums of row fractions (a row split 0.3/0.7 counts 0.3 here)
        kids.count = np.array([float(np.sum(w / prob.w[s])) for s, w in child_entries])
        children, searchable = create_children(prob, nodes, np.array([node]), kids)
        ready = []
        for kid, ok, entry in zip(children.tolist(), searchable, child_entries):
            if ok:
                entries[kid] = entry
                if evaluate(kid):
                    ready.append(kid)
        # a stack pops the last pushed: push in reverse so the first child is split first
        for kid in (ready[::-1] if growth == "depth_first" else ready):
            frontier.push(kid, nodes.improvement[kid])
    return order
