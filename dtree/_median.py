"""The absolute-error criterion's medians and sums of absolute deviations.

Its impurity is not a function of sums, so the split search needs, for every
prefix (and suffix) of every node's rows in every feature's order, the sum
of absolute deviations from that prefix's weighted median (:func:`sad_prefix`
is the rule, with two heaps).  :func:`sad_prefix_segments` does all prefixes
of many segments at once: with the compiled kernel of :mod:`dtree._jit` when
numba is there and the search is large enough, else in NumPy
(:func:`_sad_numpy`: a wavelet-matrix quantile search and a walk over the
medians for equal weights, a weighted wavelet-matrix search otherwise).
Both give the same bits.

The nodes' impurities and leaf values use the weighted median of scikit-learn
(:func:`weighted_median`, :func:`node_weighted_medians`,
:func:`mean_absolute_deviation`).
"""

import heapq
from types import SimpleNamespace

import numpy as np

from ._jit import kernel_for


def sad_prefix(y, w):
    """The running sum of absolute deviations from the weighted median.

    ``sad[i] = min_c sum_{j<=i} w_j |y_j - c|``, the absolute-error cost of
    the first ``i + 1`` rows, computed with two heaps.

    Parameters
    ----------
    y : array-like of float, shape (n,)
        Targets, in the order the prefixes take them.
    w : array-like of float, shape (n,)
        Their weights.

    Returns
    -------
    ndarray of float, shape (n,)
    """
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
    each row's group id in ``range(n_groups)``; every group is non-empty).
    A ``y`` of several columns (outputs) gives the columns' mean."""
    if np.ndim(y) == 2:
        return np.mean([group_mean_absolute_deviations(group, y[:, j], w, n_groups)
                        for j in range(y.shape[1])], axis=0)
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
    segment get 0.  The path without numba of :func:`sad_prefix_segments`
    (see :func:`_sad_numpy`)."""
    y = np.asarray(y, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    ranks = _segment_ranks(y, starts, sizes)
    return _sad_numpy(y, np.asarray(w, dtype=np.float64), starts, sizes, ranks, False)[0]


def sad_prefix_segments(y, w, starts, sizes, kernel=None):
    """``out[i] = min_c sum_{j in seg(i), j <= i} w_j |y_j - c|`` for every row
    of every segment ``[starts[k], starts[k] + sizes[k])`` (0 outside them),
    compiled when numba is there and worth loading (or with ``kernel``, from
    :func:`dtree._jit.kernel_for`), else with NumPy."""
    kernel = kernel or kernel_for(len(y))
    if kernel is None:
        return _sad_prefix_numpy(y, w, starts, sizes)
    y = np.ascontiguousarray(y, dtype=np.float64)
    w = np.ascontiguousarray(w, dtype=np.float64)
    out = np.zeros(len(y))
    if len(y):
        kernel(y, w, np.ascontiguousarray(starts, dtype=np.int64),
               np.ascontiguousarray(sizes, dtype=np.int64), out)
    return out


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


def sad_left_right(prob, p, starts, sizes, searched):
    """Prefix and suffix sums of absolute deviations within each node, for
    every feature's order ``p`` (shape (d, m)) at once: shapes (d, m) and
    (d, m + 1), the suffix sums shifted by one (``sad_r[:, m] = 0``); 0 in
    the nodes where ``searched`` (shape (d, S)) is False.

    The compiled kernel (:mod:`dtree._jit`) runs on the rows and on the rows
    reversed; the NumPy path does both directions in one search
    (:func:`_sad_numpy`), with the ranks of y inside each node sorted once
    and shared by all features.

    A ``prob.y`` of several columns (outputs) gives the columns' mean.
    """
    if prob.y.ndim == 2:
        parts = [sad_left_right(SimpleNamespace(y=np.ascontiguousarray(prob.y[:, j]), w=prob.w,
                                                unit_weights=prob.unit_weights),
                                p, starts, sizes, searched)
                 for j in range(prob.y.shape[1])]
        k = len(parts)
        return sum(left for left, _ in parts) / k, sum(right for _, right in parts) / k
    d, m = p.shape
    y = prob.y[p].ravel()
    starts = np.asarray(starts, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    all_starts = (np.arange(d)[:, None] * m + starts[None, :]).ravel()
    all_sizes = np.where(searched, sizes, 0).ravel()
    sad_r = np.zeros((d, m + 1))
    kernel = kernel_for(len(y))
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
    sad_l = sad_prefix_segments(y, w, all_starts, all_sizes, kernel).reshape(d, m)
    # the suffixes: the same on the reversed rows (segments reversed too)
    rev_starts = d * m - all_starts[::-1] - all_sizes[::-1]
    back = sad_prefix_segments(y[::-1], w[::-1], rev_starts, all_sizes[::-1], kernel)
    sad_r[:, :m] = back[::-1].reshape(d, m)
    return sad_l, sad_r
