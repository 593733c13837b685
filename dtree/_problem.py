"""The records the split search and the builders share.

* :class:`Problem`: the fit's data and settings, read by every batch;
* :class:`Nodes`: the growing tree, one entry per node in the builder's ids;
* :class:`Batch`: the nodes searched together and their rows;
* why a node is a leaf (:data:`STOP_REASONS`, :func:`presearch_reason`);
* the tolerances and sizes every search reads, and the helpers that read a
  batch along its sample orders.

A batch is laid out as ``P`` (one row per feature: the nodes' sample ids,
node after node, each node's sorted by that feature, missing values last),
``starts`` and ``sizes`` (each node's positions in ``P``) and ``ids`` (the
nodes' ids in :class:`Nodes`).
"""

import numpy as np

from ._criteria import EPSILON
from ._tree import NUMERIC

#: Two values of a feature closer than this are one value: no threshold
#: goes between them (scikit-learn's FEATURE_THRESHOLD).
FEATURE_THRESHOLD = np.float32(1e-7)
#: Quinlan's trees (ID3, C4.5) compare gains with this tolerance, as Weka does:
#: a feature must beat the best so far by more than it (so mathematically equal
#: gains tie and the first feature in column order wins), and a split whose
#: gain is not above it is no split at all.
GAIN_TOLERANCE = 1e-6
#: Fractional sizes are compared with the size rules up to this much rounding.
SIZE_TOLERANCE = 1e-9
#: The numeric search and the partition take the features in chunks of at
#: most this many positions (one feature at least), so their arrays stay in cache.
CHUNK_ELEMENTS = 1 << 17
#: A batch of more positions than this is searched in slices of this many
#: positions, carrying the running sums from one slice to the next, when no
#: feature has missing values and the search reads only sums (see
#: :func:`dtree._search._search_numeric_sliced`); it is routed and
#: partitioned in slices too: its arrays stay a few MB however large the
#: data.  Read only through :func:`sliced` and :func:`slices`.
SLICE_ROWS = 1 << 16


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
#: Each reason's code in ``Nodes.reason``.
REASON_CODE = {name: i for i, name in enumerate(STOP_REASONS)}


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
        #: the root of ``forced_splits`` (a dtree._forced_spec.ForcedNode), or None
        self.forced = None
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
        # forced_splits: the node is split as given (dtree/_forced.py), and
        # the gain of the split the search would have made there
        "forced": (bool, False),
        "best_gain": (np.float64, np.nan),
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
        self.forced_spec = {}  # node id -> its ForcedNode, while growing

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


class Batch:
    """The nodes searched together (``P``, ``starts``, ``sizes``, ``ids``: see
    the module docstring) and their per-node quantities, shared by the
    numeric, C4.5 and categorical searches."""

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
        reason[mask] = REASON_CODE[name]
    return reason


def take_rows(X, rows, P):
    """``X[rows[:, None], P]``: row ``rows[i]`` of X at positions ``P[i]``, one
    row at a time (NumPy's two-array fancy indexing is several times slower)."""
    out = np.empty(P.shape, dtype=X.dtype)
    for i, r in enumerate(rows):
        X[r].take(P[i], out=out[i])
    return out


def running_sum(values, starts, sizes):
    """Cumulative sums along the last axis, restarted at each node's start."""
    out = np.cumsum(values, axis=-1)
    later = starts[1:]
    if len(later):
        out[..., later[0]:] -= np.repeat(out[..., later - 1], sizes[1:], axis=-1)
    return out


def sliced(m):
    """Whether a batch of ``m`` positions is read in slices (:func:`slices`)."""
    return m > SLICE_ROWS


def slices(starts, sizes, m):
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
