"""The exact split search: every threshold of every feature in every node of a batch.

How the search is vectorised
----------------------------
A *batch* is a set of nodes searched together.  For every feature ``f`` the
batch holds ``P[f]``: the node's sample ids, grouped node after node and, inside
each node, sorted by ``X[:, f]`` (missing values last).  One cumulative sum of
the per-sample statistics along ``P[f]`` then gives the left-child statistics
of *every* threshold of *every* node in the batch, and the criterion's proxy
scores them all at once.  Splitting a node is a stable partition of ``P[f]``
(:mod:`dtree._partition`), so the children stay sorted and nothing is ever
sorted again.

A large batch without missing values is read in slices of rows
(:func:`_search_numeric_sliced`); a level of C4.5's weighted rows has its
own search (:mod:`dtree._c45_search`); categorical features are searched
from per-node contingency tables (:mod:`dtree._categorical`).

Missing values
--------------
``missing="cart"`` is scikit-learn's rule: each split also chooses the side
that missing values go to (two passes; the first, "missing go right", wins
ties).  ``missing="c4.5"`` is Quinlan's rule (Zhou Zhihua, Machine Learning
§4.4): the gain is computed on the rows whose value is known and multiplied
by their weight fraction rho, and a row whose value is missing goes down every
branch with its weight multiplied by the branch's share of the known weight
(see :func:`dtree._builders.grow_weighted`).
"""

import numpy as np

from . import _forced
from ._c45_search import c45_levels, grown_sizes, search_numeric_c45
from ._candidates import BestThresholds, choose, new_candidate_block, store_best
from ._categorical import search_categorical
from ._median import sad_left_right
from ._plain_search import plain_kernels, search_numeric_plain
from ._problem import (CHUNK_ELEMENTS, FEATURE_THRESHOLD, SIZE_TOLERANCE, Batch, slices,
                       sliced, take_rows)


def search(prob, nodes, P, starts, sizes, ids, record):
    """Find the best split of every node in the batch and store it in ``nodes``."""
    if prob.hist is not None:  # splitter="hist": dtree/_hist.py
        return prob.hist.search(prob, nodes, P, starts, sizes, ids, record)
    X = prob.X
    F = prob.n_features
    b = Batch(prob, nodes, P, starts, sizes, ids)
    S = b.S
    frange = np.arange(F)[:, None]
    if prob.has_missing:
        xs = take_rows(X, np.arange(F), P)
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
    allowed = allowed_features(prob, constant)

    cb = new_candidate_block(prob, allowed, b.n_node, 1.0 - n_known / sizes)

    _search_numeric(prob, b, cb, allowed, n_known, x_lo, x_hi)
    for f in prob.categorical_features:
        if allowed[f].any():
            search_categorical(prob, b, cb, f, allowed[f])

    choose(prob, nodes, ids, cb, b.w_node, record)
    if nodes.forced_spec:
        _forced.apply(prob, nodes, b, cb, record)


def allowed_features(prob, constant, draws=None):
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


def _search_numeric(prob, b, cb, allowed, n_known, x_lo, x_hi):
    """Best threshold of every numeric feature in every node of the batch."""
    if c45_levels(prob):
        return search_numeric_c45(prob, b, cb, allowed, n_known)
    kernels = plain_kernels(prob, b)
    if kernels is not None:  # (numba: the same candidates in fewer passes)
        return search_numeric_plain(prob, b, cb, allowed, kernels)
    crit = prob.criterion
    X = prob.X
    fractional = prob.frac is not None
    if (sliced(b.m) and not prob.has_missing and not fractional
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
        x = take_rows(X, fs, p) if b.x is None else b.x[fs]
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
                cnt_l, cnt_r, w_left, w_right = grown_sizes(prob, p, starts, sizes, nk,
                                                             left, known_tot, b, c45)
            valid = (valid & (cnt_l >= msl - SIZE_TOLERANCE)
                     & (cnt_r >= msl - SIZE_TOLERANCE))
        v1 = valid
        if mwl > 0:
            v1 = valid & (w_left >= mwl) & (w_right >= mwl)
        if crit.needs_samples:
            if c45:
                raise ValueError("criterion='absolute_error' has no rule for missing='c4.5'.")
            # (only the nodes where the feature has a threshold to score;
            # the missing values, last in each node, are in the suffixes)
            sad_l, sad_r = sad_left_right(prob, p, starts, sizes,
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
            if crit.needs_samples:
                sad_l2, sad_r2, shift = _missing_first_sads(prob, p, starts, sizes, seg, n_miss,
                                                           v2)
                proxy2 = -(np.take_along_axis(sad_l2, shift, axis=1)
                           + np.take_along_axis(sad_r2, shift + 1, axis=1))
            else:
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
            sad_left, sad_right = sad_l[ci, q], sad_r[ci, q + 1]
            if u2.any():  # (in the order with the missing values first)
                q2 = shift[ci[u2], q[u2]]
                sad_left[u2] = sad_l2[ci[u2], q2]
                sad_right[u2] = sad_r2[ci[u2], q2 + 1]
            il = sad_left / lft[-1]
            ir = sad_right / (total - lft)[-1]
        store_best(prob, b, cb, BestThresholds(
            f, s, q, lft, total, known_tot[-1, ci, s], n_known[f, s], n_miss[ci, s],
            x[ci, q], x[ci, np.minimum(q + 1, m - 1)], u2, c45, missing_here, il, ir,
            draw[ci, s] if prob.random_splitter else None))


def _missing_first_sads(prob, p, starts, sizes, seg, n_miss, valid):
    """Absolute error's second pass (missing values left), as scikit-learn
    makes it: each node's order with its missing values moved in front of
    its known ones (their order kept), whose prefix and suffix sums of
    absolute deviations score "missing and the known values up to here" on
    the left.  Returns those sums (``sad_left_right``'s shapes) and, for each
    position of ``p``, its position in the moved order (the known values
    move right by the node's number of missing values)."""
    m = p.shape[1]
    ar = np.arange(m)
    offset = ar - starts[seg]  # (m,) position inside the node
    n_miss_at = n_miss[:, seg]  # (c, m)
    known_at = sizes[seg] - n_miss_at
    source = np.where(offset < n_miss_at, starts[seg] + known_at + offset, ar - n_miss_at)
    moved = np.take_along_axis(p, source, axis=1)
    sad_l2, sad_r2 = sad_left_right(prob, moved, starts, sizes,
                                    np.logical_or.reduceat(valid, starts, axis=1))
    shift = np.minimum(ar + n_miss_at, m - 1)  # (positions past the known values are invalid)
    return sad_l2, sad_r2, shift


def _slice_left(prob, p, a, cont, later, prev_totals, carry, base_first, bases_out):
    """The running statistics (d, len(p)) of one slice of a feature's order,
    restarted at each node's start, exactly as :meth:`dtree._problem.Problem.cumulative`
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
    for a, e, nodes_here, lst, lsz in slices(starts, sizes, m):
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
    no_missing = np.zeros(len(ci), dtype=np.intp)
    store_best(prob, b, cb, BestThresholds(
        f, s, q, lft, total, b.stats_node[s, -1], sizes[s], no_missing, X[f, P[f, q]],
        X[f, P[f, np.minimum(q + 1, m - 1)]], np.zeros(len(ci), dtype=bool), False, False))
