"""The numeric search on a level of C4.5's weighted rows.

Under ``missing="c4.5"`` a row with a missing value goes down every branch
with a share of its weight, so a node's rows have fractional weights and the
size rules read sums of row fractions (:func:`grown_sizes`).  A batch of
such rows is searched by :func:`search_numeric_c45`: the candidates of
:func:`dtree._search._search_numeric`, bit for bit, with less work (only
the positions where a threshold may go are scored, and the large arrays are
the fit's reused scratch arrays, :class:`Workspace`).  With numba loaded, a
classifier's entropy search takes its positions and sums from a compiled
kernel (:func:`compiled_entropy_candidates`), bit for bit the same.
"""

import numpy as np

from ._candidates import BestThresholds, store_best
from ._criteria import Entropy, entropy_proxy_into
from ._jit import search_kernels
from ._problem import FEATURE_THRESHOLD, SIZE_TOLERANCE, running_sum, take_rows


#: Positions per chunk of C4.5's missing-value search (its scratch buffers' size).
C45_CHUNK_ELEMENTS = 1 << 15
#: _c45_candidates: a pair whose known rows weigh less than this fraction
#: outside one class counts as one class (its proxy is flat but for rounding)
ONE_CLASS_TOLERANCE = 1e-6


def c45_levels(prob):
    """True for a batch of C4.5's weighted rows that :func:`search_numeric_c45`
    searches (not: random thresholds, bin codes, absolute error, the weight
    rule)."""
    return (prob.c45_missing and prob.frac is not None and not prob.random_splitter
            and prob.bin_bounds is None and not prob.criterion.needs_samples
            and prob.min_weight_leaf <= 0)


class Workspace:
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
    """:func:`dtree._problem.running_sum` into ``out`` (``scratch``: a buffer for the
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
    :func:`dtree._search._search_numeric` scores them (the same arithmetic, so the same
    bits; -inf where the size rule fails): the right side is the known total
    less the left, and the size rule reads the grown children's sums of row
    fractions (see :func:`grown_sizes`).  Returns ``(vi, pair, proxy)``:
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
    (the first-of-ties rule of :func:`dtree._search._best_positions`, on scores listed
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


def search_numeric_c45(prob, b, cb, allowed, n_known):
    """:func:`dtree._search._search_numeric` on a level of C4.5's weighted rows
    (:func:`c45_levels`): the same candidates, bit for bit, with less work
    (only the positions where a threshold may go are scored, and the large
    arrays are the fit's reused scratch arrays)."""
    crit = prob.criterion
    X = prob.X
    starts, sizes, S, m = b.starts, b.sizes, b.S, b.m
    if getattr(prob, "workspace", None) is None:
        prob.workspace = Workspace()
    numeric = prob.numeric_features[allowed[prob.numeric_features].any(axis=1)]
    all_allowed = bool(allowed.all())
    chunk = max(1, min(len(numeric), C45_CHUNK_ELEMENTS // max(m, 1)))
    kernels = None
    if crit.is_classification and type(crit).search_proxy is Entropy.search_proxy:
        kernels = search_kernels(m * len(numeric))
    # per chunk with missing values (True) or without: its best thresholds
    found = {False: [], True: []}
    for c0 in range(0, len(numeric), chunk):
        x = valid = left = None
        fs = numeric[c0:c0 + chunk]
        p = b.P[fs]  # (c, m)
        x = take_rows(X, fs, p) if b.x is None else b.x[fs]
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
        c45 = missing_here
        if kernels is not None:  # (numba: the same positions and sums, in one pass)
            with np.errstate(divide="ignore", invalid="ignore"):
                vi, pair, L, R, known_tot = compiled_entropy_candidates(prob, b, p, valid, nk,
                                                                        c45, kernels)
                proxy = entropy_proxy_into(L, R, np.empty(len(vi)), np.empty(len(vi)))
        else:
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
            with np.errstate(divide="ignore", invalid="ignore"):
                vi, pair, proxy = _c45_scores(prob, b, left, known_tot, valid, p, nk, c45)
        first = _first_best(proxy, pair)
        if not len(first):
            continue
        ci, q = np.divmod(vi[first], m)
        s = pair[first] - ci * S
        total = known_tot[:, ci, s] if c45 else b.stats_node[s].T
        lft = L[:, first] if kernels is not None else left[:, ci, q]
        found[c45].append((fs[ci], s, q, lft, total, x[ci, q],
                           x[ci, np.minimum(q + 1, m - 1)]))
    # every chunk's best thresholds recorded at once (per kind of chunk)
    for c45, parts in found.items():
        if parts:
            f, s, q, lft, total, lo, hi = (np.concatenate(a, axis=-1) for a in zip(*parts))
            store_best(prob, b, cb, BestThresholds(
                f, s, q, lft, total, total[-1], n_known[f, s], sizes[s] - n_known[f, s], lo,
                hi, np.zeros(len(f), dtype=bool), c45, c45))


def compiled_entropy_candidates(prob, b, p, valid, n_known, c45, kernels):
    """:func:`_c45_scores`'s positions for the entropy and their sums, by the
    compiled kernel: ``(positions, pairs, left (d, k), right (d, k), known
    totals (d, c, S))``, bit for bit the NumPy path's."""
    c, m = p.shape
    d, S = b.d, b.S
    fp = prob.frac.take(p)
    f_node = np.add.reduceat(fp, b.starts, axis=1)  # (as _c45_scores sums them)
    cap = int(np.count_nonzero(valid))
    at = np.empty(cap, dtype=np.intp)
    pair = np.empty(cap, dtype=np.intp)
    left = np.empty((d, cap))
    right = np.empty((d, cap))
    known_tot = np.empty((d, c, S))
    k = kernels.c45_entropy_candidates(
        p, valid, prob.codes, prob.w, prob.frac, b.starts, b.sizes,
        np.ascontiguousarray(n_known, dtype=np.intp), f_node,
        np.ascontiguousarray(b.stats_node), c45, prob.min_samples_leaf - SIZE_TOLERANCE,
        ONE_CLASS_TOLERANCE, cap >= 3, known_tot, at, pair, left, right)
    return at[:k], pair[:k], left[:, :k], right[:, :k], known_tot


def grown_sizes(prob, p, starts, sizes, nk, left, known_tot, b, c45):
    """Sizes (sums of row fractions) and weights of the children that each
    threshold would grow under C4.5's rule, shape (c, m) each: the known rows
    of each side, plus every row with a missing value times the side's share
    of the known weight.  The weights are only made when the weight rule
    (``min_weight_leaf``) reads them (None otherwise)."""
    weights = prob.min_weight_leaf > 0
    fp = prob.frac[p]
    cnt_l = running_sum(fp, starts, sizes)
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
