"""The histogram splitter, ``splitter="hist"``.

Binning
-------
Every feature is binned once, before growth.  A numeric feature with at most
``max_bins`` distinct values gets one bin per value.  Otherwise the bins'
upper bounds are quantiles of its values (of a fixed random sample of
``SAMPLE_ROWS`` rows on large tables), so that each bin holds about the same
number of rows; a value repeated often enough gets a bin of its own.  A
categorical feature's bins are its category codes.  A missing value (NaN) has
a bin of its own, the last one.  For every bin the smallest and the largest
training value in it are kept (``Binned.lower``, ``Binned.upper``).

Histograms
----------
A node's histogram holds, for every feature and bin, the sums of the
criterion's per-sample statistics (the same ones the exact splitter sums) and
the number of rows: shape (F, B, d + 1).  Of two sibling nodes only the
smaller one is summed from its rows; the larger one is its parent's histogram
minus the smaller one's.  A cumulative sum along the bins then gives the left
child of every bin edge, and the criterion's proxy scores them all at once,
with missing values sent right and then left, exactly as the exact search
does.

Thresholds
----------
The split "bins 0..e go left" is stored as a real threshold: halfway between
the largest training value of bin e and the smallest training value of the
next bin that has rows in the node (computed as the exact splitter computes
its midpoints).  So every training row of the node goes the same way on its
raw value as on its bin, and ``predict``/``apply`` on raw data reproduce the
binned training.  With one bin per distinct value these are exactly the
exact splitter's thresholds, and the two splitters grow the same tree.
"""

from types import SimpleNamespace

import numpy as np

from ._grow import (FEATURE_THRESHOLD, _allowed_features, _best_subset, choose,
                    new_candidate_block, split_information)

#: Quantile edges are computed from at most this many rows (a fixed sample).
SAMPLE_ROWS = 200_000
#: Histograms of one chunk of a batch's nodes are at most about this big.
CHUNK_BYTES = 24 << 20
#: Parents' histograms kept for the subtraction trick, at most about this much.
STORE_BYTES = 128 << 20


class Binned:
    """The binned training data.

    codes : (F, n) uint8 or uint16, the bin of every value (feature-major)
    lower, upper : (F, B - 1) float32, the smallest and largest training value
        in each bin (NaN for a bin without rows); for a categorical feature,
        its category codes
    n_bins : B, the number of bins including the missing-value bin B - 1
    """

    def __init__(self, codes, lower, upper, n_bins):
        self.codes = codes
        self.lower = lower
        self.upper = upper
        self.n_bins = n_bins

    @property
    def missing_bin(self):
        return self.n_bins - 1


def bin_features(X, categorical, n_categories, max_bins, seed=0):
    """Bin the feature-major float32 matrix ``X`` (F, n)."""
    F, n = X.shape
    n_bins = max([int(max_bins)] + [int(c) for c in n_categories]) + 1
    dtype = np.uint8 if n_bins <= 256 else np.uint16
    codes = np.empty((F, n), dtype=dtype)
    lower = np.full((F, n_bins - 1), np.nan, dtype=np.float32)
    upper = np.full((F, n_bins - 1), np.nan, dtype=np.float32)
    sample = None
    if n > SAMPLE_ROWS:  # sorted: the gathers read memory in order
        sample = np.sort(np.random.default_rng(seed).choice(n, SAMPLE_ROWS, replace=False))
    for f in range(F):
        x = X[f]
        missing = np.isnan(x)
        if categorical[f]:
            codes[f] = np.where(missing, n_bins - 1, np.nan_to_num(x)).astype(dtype)
            k = int(n_categories[f])
            lower[f, :k] = upper[f, :k] = np.arange(k)
            continue
        b = _bin_numeric(x, missing, max_bins, sample)
        known = ~missing
        if not known.all():
            b = np.where(known, b, n_bins - 1)
            bk, xk = b[known], x[known]
        else:
            bk, xk = b, x
        codes[f] = b
        lo = np.full(n_bins - 1, np.inf, dtype=np.float32)
        hi = np.full(n_bins - 1, -np.inf, dtype=np.float32)
        np.minimum.at(lo, bk, xk)
        np.maximum.at(hi, bk, xk)
        empty = lo > hi
        lo[empty] = hi[empty] = np.nan
        lower[f], upper[f] = lo, hi
    return Binned(codes, lower, upper, n_bins)


def _bin_numeric(x, missing, max_bins, sample):
    """Bin index of every value of one numeric feature (missing: any index)."""
    xs = x if sample is None else x[sample]
    plan = numeric_plan(np.sort(xs[~np.isnan(xs)]), max_bins)
    if plan is None:
        return np.zeros(len(x), dtype=np.intp)
    if plan.values is not None:
        b, hit = bin_by_values(plan.values, x, missing)
        if hit:  # no value outside the sample: one bin per value
            return b
    return bin_by_quantiles(plan, x)


def numeric_plan(xs, max_bins):
    """How one numeric feature is binned, from ``xs``, its sorted known
    values (or a sample of them): None when there are none; otherwise
    ``values`` (its distinct values, if at most ``max_bins``, else None) and
    the quantile bins used when ``values`` is None or misses a value
    (``table`` of the uniform grid, or ``edges``).  Kept apart from the
    binning itself so that dtree/_dask.py bins each partition the same way."""
    if not len(xs):
        return None
    distinct = np.r_[True, xs[1:] != xs[:-1]]
    values = xs[distinct]
    table = _grid_table(xs, max_bins)
    edges = None
    if table is None:
        # upper bounds at quantiles: bin i holds (edges[i - 1], edges[i]]
        at = (np.arange(1, max_bins) * len(xs)) // max_bins - 1
        edges = np.unique(xs[np.maximum(at, 0)])
    return SimpleNamespace(values=values if len(values) <= max_bins else None,
                           table=table, edges=edges)


def bin_by_values(values, x, missing):
    """One bin per distinct value: (bins, whether every known value of ``x``
    is one of ``values``)."""
    b = digitize(values, x)
    hit = values[np.minimum(b, len(values) - 1)] == x
    return b, bool(hit[~missing].all())


def bin_by_quantiles(plan, x):
    if plan.table is not None:
        return _grid_bins(x, *plan.table)
    return digitize(plan.edges, x)


#: Uniform cells of the lookup grid that bins most numeric features.
GRID_CELLS = 1 << 16


def _grid_table(xs, max_bins):
    """Quantile bins made of uniform cells: (lo, scale, bin of each cell), or
    None when the sorted sample ``xs`` crowds too many rows into one cell
    (skewed data), where cells could not follow the quantiles.

    Binning a value is then one multiply and one table lookup.  The bins'
    boundaries fall on cell boundaries rather than on data values; that is
    harmless, since thresholds are placed from each bin's smallest and
    largest training value."""
    n = len(xs)
    if n < 4 * max_bins:
        return None
    lo = float(xs[n // 1000])
    hi = float(xs[n - 1 - n // 1000])
    if not hi > lo:
        return None
    scale = GRID_CELLS / (hi - lo)
    cells = _cells(xs, lo, scale)
    per_cell = np.bincount(cells, minlength=GRID_CELLS)
    if per_cell.max() * max_bins > 2 * n:
        return None
    rank = np.cumsum(per_cell) - per_cell  # sample rows before each cell
    table = (rank * max_bins // n).astype(np.uint16)
    return lo, scale, table


def _cells(x, lo, scale):
    c = (x - np.float32(lo)) * np.float32(scale)
    np.clip(c, 0, GRID_CELLS - 1, out=c)
    with np.errstate(invalid="ignore"):
        c = c.astype(np.int32)
    if c.min(initial=0) < 0:  # NaN; its bin is replaced by the missing bin
        c[c < 0] = 0
    return c


def _grid_bins(x, lo, scale, table):
    return table[_cells(x, lo, scale)]


def digitize(edges, x):
    """``np.searchsorted(edges, x, side="left")`` (the number of edges below
    each value; NaN gives any index) for sorted float32 ``edges``.

    NumPy's binary search is slow on a million values (its branches cannot
    be predicted).  Here a uniform grid over the edges' range guesses each
    value's index, the guess is checked against the edges, and only wrong
    guesses are searched: a branch-free binary search, one array pass per
    halving."""
    k = len(edges)
    if len(x) < 100_000 or k < 2 or not edges[-1] > edges[0]:
        return np.searchsorted(edges, x, side="left")
    lo, hi = float(edges[0]), float(edges[-1])
    scale = (GRID_CELLS - 1) / (hi - lo)
    starts = (lo + np.arange(GRID_CELLS) / scale).astype(np.float32)
    table = np.searchsorted(edges, starts, side="left").astype(np.int32)
    guess = table[_cells(x, lo, scale)]
    padded = np.empty(k + 2, dtype=np.float32)
    padded[0], padded[1:-1], padded[-1] = -np.inf, edges, np.inf
    # right when edges[guess - 1] < x <= edges[guess]
    right = (padded[guess] < x) & (x <= padded[guess + 1])
    wrong = np.flatnonzero(~right)
    if len(wrong):
        guess[wrong] = _binary_search(edges, x[wrong])
    return guess


def _binary_search(edges, x):
    k = len(edges)
    width = 1 << int(k).bit_length()  # > k, so the last index is padding
    padded = np.full(width, np.inf, dtype=np.float32)
    padded[:k] = edges
    b = np.zeros(len(x), dtype=np.int32)
    step = width // 2
    while step:
        b += (padded[b + (step - 1)] < x) * np.int32(step)
        step //= 2
    return b


class HistGrower:
    """The histogram search, plugged into dtree._grow's growth orders
    (``Problem.hist``).  Keeps the histograms of split nodes until their
    children have been searched."""

    def __init__(self, binned, prob):
        self.binned = binned
        self.store = {}
        self.stored_bytes = 0
        F, B = binned.codes.shape[0], binned.n_bins
        self.channels = prob.stats.shape[0] + 1  # the statistics, then the row count
        self.node_bytes = F * B * self.channels * 8
        self.router = _Router()
        self._code_values = None

    # -- bookkeeping -------------------------------------------------------------

    def _keep(self, node, hist):
        if self.stored_bytes + self.node_bytes <= STORE_BYTES:
            self.store[int(node)] = hist
            self.stored_bytes += self.node_bytes

    def _drop(self, node):
        if self.store.pop(int(node), None) is not None:
            self.stored_bytes -= self.node_bytes

    def children_created(self, parents, n_kids, searchable):
        """A parent's histogram serves only when both its children are searched."""
        offset = np.cumsum(n_kids) - n_kids
        for parent, a, k in zip(parents.tolist(), offset.tolist(), n_kids.tolist()):
            if k != 2 or not searchable[a:a + k].all():
                self._drop(parent)

    def root_rows(self, n):
        """The root's rows for dtree._grow: all of them, in order."""
        return np.arange(n)[None, :]

    # -- histograms --------------------------------------------------------------

    def _direct(self, prob, rows, slot, k):
        """Histograms (k, F, B, c) summed over ``rows`` (node ``slot`` each)."""
        codes = self.binned.codes[:, rows]
        F, B, c = codes.shape[0], self.binned.n_bins, self.channels
        d = c - 1
        out = np.empty((k, F, B, c))
        unit = prob.unit_weights
        if prob.criterion.is_classification:
            K = d - 1
            base = slot * (B * K) + prob.codes[rows]
            w = None if unit else prob.w[rows]
            for f in range(F):
                key = base + codes[f].astype(np.intp) * K
                counts = np.bincount(key, weights=w, minlength=k * B * K).reshape(k, B, K)
                out[:, f, :, :K] = counts
                out[:, f, :, K] = counts.sum(axis=2)
                if unit:
                    out[:, f, :, d] = out[:, f, :, K]
                else:
                    out[:, f, :, d] = np.bincount(slot * B + codes[f], minlength=k * B
                                                  ).reshape(k, B)
            return out
        base = slot * B
        sums = [prob.stats[j][rows] for j in range(d - 1 if unit else d)]
        for f in range(F):
            key = base + codes[f]
            n = np.bincount(key, minlength=k * B).reshape(k, B)
            out[:, f, :, d] = n
            for j, v in enumerate(sums):
                out[:, f, :, j] = np.bincount(key, weights=v, minlength=k * B).reshape(k, B)
            if unit:
                out[:, f, :, d - 1] = n
        return out

    def derived_from(self, nodes, sizes, ids):
        """For each node of ``ids``, the position of its sibling in ``ids`` if
        its histogram is derived (its parent's stored one minus that
        sibling's), else -1: the larger of two siblings is derived (on a
        tie, the second)."""
        S = len(ids)
        parents = nodes.parent[ids]
        position = {int(node): s for s, node in enumerate(ids.tolist())}
        sibling = np.full(S, -1)
        for s in range(S):
            parent = int(parents[s])
            if parent < 0 or parent not in self.store:
                continue
            first = int(nodes.first_child[parent])
            t = position.get(first + 1 if ids[s] == first else first)
            if t is not None and (sizes[s], s) > (sizes[t], t):
                sibling[s] = t
        return sibling

    def histograms(self, prob, nodes, p, starts, sizes, ids):
        """Histograms of the nodes ``ids`` (rows ``p``, grouped node after node)."""
        S = len(ids)
        parents = nodes.parent[ids]
        sibling = self.derived_from(nodes, sizes, ids)
        direct = sibling < 0
        out = np.empty((S, self.binned.codes.shape[0], self.binned.n_bins, self.channels))
        seg = np.repeat(np.arange(S), sizes)
        if direct.all():
            out[:] = self._direct(prob, p, seg, S)
        else:
            keep = direct[seg]
            slot = (np.cumsum(direct) - 1)[seg[keep]]
            out[direct] = self._direct(prob, p[keep], slot, int(direct.sum()))
            for s in np.flatnonzero(~direct):
                np.subtract(self.store[int(parents[s])], out[sibling[s]], out=out[s])
        for parent in set(parents.tolist()):
            self._drop(parent)
        return out

    # -- the search ----------------------------------------------------------------

    #: A batch whose nodes average fewer rows than this is searched by sorting
    #: its rows by bin (histograms would cost nodes × features × bins).
    SORT_BELOW = 64

    def _codes_as_values(self):
        """The bin codes as float32, NaN in the missing bin (made once)."""
        if self._code_values is None:
            codes = self.binned.codes
            values = codes.astype(np.float32)
            values[codes == self.binned.missing_bin] = np.nan
            self._code_values = values
        return self._code_values

    def _search_sorted(self, prob, nodes, P, starts, sizes, ids, record):
        """The exact search run on bin codes: each feature's rows sorted by bin
        inside each node, candidates between adjacent bins, thresholds
        halfway between them (prob.bin_bounds)."""
        from ._grow import search

        for parent in set(nodes.parent[ids].tolist()):
            self._drop(parent)
        p = P[0]
        codes = self.binned.codes[:, p]
        seg = np.repeat(np.arange(len(ids), dtype=np.int64), sizes)
        order = np.argsort(seg[None, :] * self.binned.n_bins + codes, axis=1, kind="stable")
        sub = object.__new__(type(prob))
        sub.__dict__.update(prob.__dict__)
        sub.hist = None
        sub.X = self._codes_as_values()
        sub.bin_bounds = (self.binned.lower, self.binned.upper)
        search(sub, nodes, p[order], starts, sizes, ids, record)

    def search(self, prob, nodes, P, starts, sizes, ids, record):
        """Best split of every node of the batch (the exact search's contract)."""
        S, F = len(ids), prob.n_features
        if int(sizes.sum()) < S * self.SORT_BELOW:  # sizes.sum() == P.shape[1]
            return self._search_sorted(prob, nodes, P, starts, sizes, ids, record)
        k = prob.max_features
        draws = prob.rng.random((S, F)) if k < F else None
        n_node = nodes.n[ids]
        allowed = np.zeros((F, S), dtype=bool)
        cb = new_candidate_block(prob, allowed, n_node, np.zeros((F, S)))
        batch = SimpleNamespace(stats_node=nodes.stats[ids], n_node=n_node,
                                w_node=nodes.stats[ids, -1], imp_node=nodes.impurity[ids])
        per_chunk = max(2, CHUNK_BYTES // self.node_bytes)
        p = P[0]
        kept = {}
        for a in range(0, S, per_chunk):
            b = min(S, a + per_chunk)
            lo, hi = starts[a], starts[b - 1] + sizes[b - 1]
            H = self.histograms(prob, nodes, p[lo:hi], starts[a:b] - lo, sizes[a:b], ids[a:b])
            self._search_chunk(prob, H, batch, cb, allowed, draws, a, b)
            for s in range(a, b):
                if allowed[:, s].any():
                    kept[s] = H[s - a]
        choose(prob, nodes, ids, cb, batch.w_node, record)
        for s, hist in kept.items():
            if nodes.has_split[ids[s]]:
                self._keep(ids[s], hist)

    def _search_chunk(self, prob, H, batch, cb, allowed, draws, a, b):
        """Fill columns a..b of the candidate block from the chunk's histograms."""
        binned = self.binned
        G, F, B, c = H.shape
        d = c - 1
        Bk = B - 1
        cols = np.arange(a, b)
        n_node = batch.n_node[a:b]
        known = H[:, :, :Bk, :]
        miss = H[:, :, Bk, :]  # (G, F, c)
        count = known[..., d]  # (G, F, Bk)
        present = count > 0
        n_known = count.sum(axis=2)
        ar = np.arange(Bk)
        first = np.where(present, ar, Bk)
        # nxt[..., e]: the first bin after e with rows in the node (Bk if none)
        nxt = np.minimum.accumulate(first[..., ::-1], axis=-1)[..., ::-1]
        after = np.empty_like(nxt)
        after[..., :-1] = nxt[..., 1:]
        after[..., -1] = Bk
        first_p = nxt[..., 0]
        last_p = np.where(present, ar, -1).max(axis=-1)
        frows = np.arange(F)[None, :]
        x_lo = binned.lower[frows, np.minimum(first_p, Bk - 1)]
        x_hi = binned.upper[frows, np.maximum(last_p, 0)]
        constant = (n_known == 0) | ((x_hi <= x_lo + FEATURE_THRESHOLD)
                                     & (n_known == n_node[:, None]))
        ok = _allowed_features(prob, constant.T, None if draws is None else draws[a:b])
        allowed[:, a:b] = ok
        cb.missing_fraction[:, a:b] = (1.0 - n_known / n_node[:, None]).T

        fn = prob.numeric_features[ok[prob.numeric_features].any(axis=1)]
        if len(fn):
            self._search_numeric(prob, H, batch, cb, ok, fn, present, after, last_p, cols)
        for f in prob.categorical_features:
            for g in np.flatnonzero(ok[f]):
                C = max(int(prob.n_categories[f]), 1)
                n_c = count[g, f, :C].astype(np.intp)
                there = np.flatnonzero(n_c > 0)
                if len(there) < 2:
                    continue
                table = H[g, f, :C, :d].T  # (d, C)
                _best_subset(prob, batch, cb, f, int(cols[g]), there, table, n_c,
                             table.sum(axis=1), int(miss[g, f, d]), None,
                             n_c.astype(np.float64), 0.0)

    def _search_numeric(self, prob, H, batch, cb, ok, fn, present, after, last_p, cols):
        crit = prob.criterion
        binned = self.binned
        G, F, B, c = H.shape
        d, Bk = c - 1, B - 1
        msl, mwl = prob.min_samples_leaf, prob.min_weight_leaf
        n_node = batch.n_node[cols][:, None, None]
        total = batch.stats_node[cols]  # (G, d)
        left = np.cumsum(H[:, fn, :Bk, :], axis=2)  # (G, Fn, Bk, c)
        miss = H[:, fn, Bk, :]  # (G, Fn, c)
        nm = miss[..., d][..., None]  # (G, Fn, 1)
        present, after, last_p = present[:, fn], after[:, fn], last_p[:, fn]
        upper = binned.upper[fn][None]  # (1, Fn, Bk)
        nb = np.minimum(after, Bk - 1)
        next_lower = binned.lower[fn[None, :, None], nb]
        between = present & (after < Bk) & (next_lower > upper + FEATURE_THRESHOLD)
        between &= ok[fn].T[:, :, None]
        ar = np.arange(Bk)
        at_last = (ar == last_p[..., None]) & (nm > 0) & ok[fn].T[:, :, None]

        def scored(lft, n_l, valid):
            rgt = total[:, None, None, :] - lft
            n_r = n_node - n_l
            valid = valid & (n_l >= msl) & (n_r >= msl)
            if mwl > 0:
                valid &= (lft[..., -1] >= mwl) & (rgt[..., -1] >= mwl)
            with np.errstate(divide="ignore", invalid="ignore"):
                proxy = crit.search_proxy(np.moveaxis(lft, -1, 0), np.moveaxis(rgt, -1, 0))
            proxy = np.where(valid, proxy, -np.inf)
            pos = np.argmax(proxy, axis=-1)  # the first best edge
            return np.take_along_axis(proxy, pos[..., None], axis=-1)[..., 0], pos

        # first pass: missing values go right; it includes "every known value
        # left, missing right" (threshold +inf)
        best, pos = scored(left[..., :d], left[..., d], between | at_last)
        use2 = np.zeros(best.shape, dtype=bool)
        if (nm > 0).any():  # second pass: missing values go left
            best2, pos2 = scored(left[..., :d] + miss[:, :, None, :d], left[..., d] + nm,
                                 between & (nm > 0))
            use2 = best2 > best
            pos = np.where(use2, pos2, pos)
            best = np.maximum(best, best2)
        g, i = np.nonzero(best > -np.inf)
        if not len(g):
            return
        e = pos[g, i]
        f = fn[i]
        s = cols[g]
        u2 = use2[g, i]
        lft = left[g, i, e, :d].T.copy()  # (d, found)
        n_l = left[g, i, e, d]
        if u2.any():
            lft[:, u2] += miss[g[u2], i[u2], :d].T
            n_l = n_l + np.where(u2, miss[g, i, d], 0.0)
        tot = total[g].T
        rgt = tot - lft
        il, ir = crit.impurity(lft), crit.impurity(rgt)
        wt = tot[-1]
        gain = batch.imp_node[s] - rgt[-1] / wt * ir - lft[-1] / wt * il
        n_l = n_l.astype(np.intp)
        n_r = batch.n_node[s] - n_l
        cb.gain[f, s] = gain
        cb.impurity_left[f, s] = il
        cb.impurity_right[f, s] = ir
        cb.weight_left[f, s] = lft[-1]
        cb.weight_right[f, s] = rgt[-1]
        cb.n_left[f, s] = n_l
        cb.n_right[f, s] = n_r
        cb.split_info[f, s] = split_information(lft[-1], rgt[-1])
        cb.missing_fraction[f, s] = miss[g, i, d - 1] / batch.w_node[s]
        nxt = after[g, i, e]
        lo_v = binned.upper[f, e].astype(np.float64)
        hi_v = binned.lower[f, np.minimum(nxt, Bk - 1)].astype(np.float64)
        thr = lo_v / 2.0 + hi_v / 2.0
        thr = np.where((thr == hi_v) | np.isinf(thr), lo_v, thr)
        cb.threshold[f, s] = np.where(nxt >= Bk, np.inf, thr)  # nothing known right
        no_missing = miss[g, i, d] == 0
        cb.missing_child[f, s] = np.where(no_missing, np.where(n_l > n_r, 0, 1),
                                          np.where(u2, 0, 1))


class _Router:
    """Routing and partitioning for the histogram splitter: rows stay grouped
    by node (one order, not one per feature), so a split node's rows are cut
    in two in place of the exact splitter's stable partition of every
    feature's order.  Batches with many split nodes (deep levels, small
    nodes) use the exact splitter's vectorised routing instead."""

    #: batches with more split nodes than this route the vectorised way
    LOOP_MAX = 256

    def __init__(self):
        self.parts = None

    def route(self, prob, nodes, P, starts, sizes, ids, split):
        """The children's sizes and statistics (a ``_grow.Children``), or
        None to let the exact splitter's routing do it."""
        from ._grow import Children
        from ._tree import NUMERIC

        idx = np.flatnonzero(split)
        if len(idx) > self.LOOP_MAX:
            self.parts = None
            return None
        p = P[0]
        X = prob.X
        d = prob.stats.shape[0]
        total = 2 * len(idx)
        counts = np.zeros(total, dtype=np.intp)
        stats = np.zeros((total, d))
        known_w = np.zeros(total)
        clf = prob.criterion.is_classification
        parts = []
        for j, s in enumerate(idx.tolist()):
            node = int(ids[s])
            rows = p[starts[s]:starts[s] + sizes[s]]
            x = X[nodes.feature[node]][rows]
            to_missing = np.isnan(x) if prob.has_missing else None
            if nodes.kind[node] == NUMERIC:
                left = x <= nodes.threshold[node]
            else:
                branch = nodes.branch_of_code[node][np.nan_to_num(x).astype(np.intp)]
                left = branch == 0
                unseen = branch < 0
                to_missing = unseen if to_missing is None else to_missing | unseen
            if to_missing is not None and to_missing.any():
                left = np.where(to_missing, nodes.missing_child[node] == 0, left)
            halves = (rows[left], rows[~left])
            parts.append(halves)
            for side, r in enumerate(halves):
                c = 2 * j + side
                counts[c] = len(r)
                if clf:
                    w = None if prob.unit_weights else prob.w[r]
                    stats[c, :-1] = np.bincount(prob.codes[r], weights=w, minlength=d - 1)
                    # the weight as the sum of the class weights, so a child
                    # with one class is exactly pure (w.sum() adds in another
                    # order and can differ in the last bit), as in _grow.route
                    stats[c, -1] = len(r) if w is None else stats[c, :-1].sum()
                else:
                    stats[c] = prob.stats[:, r].sum(axis=1)
                known_w[c] = stats[c, -1]
                if to_missing is not None:
                    gone = to_missing[left] if side == 0 else to_missing[~left]
                    if gone.any():
                        known_w[c] -= prob.w[r[gone]].sum()
        self.parts = parts
        parent_known = np.repeat(known_w[0::2] + known_w[1::2], 2)
        share = np.divide(known_w, parent_known, out=np.zeros(total), where=parent_known > 0)
        return Children(np.full(len(idx), 2), counts, stats, share)

    def partition(self, keep):
        """The kept children's rows, grouped child after child."""
        pieces = [r for j, halves in enumerate(self.parts) for side, r in enumerate(halves)
                  if keep[2 * j + side]]
        self.parts = None
        if not pieces:
            return np.zeros((1, 0), dtype=np.intp)
        return np.concatenate(pieces)[None, :]
