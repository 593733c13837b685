"""numba kernels for the plain exact search and the binary partition
(importing this module needs numba; :mod:`dtree._jit` loads it).

A *plain* batch has no missing values, whole rows, the best splitter, no
bin codes and a criterion read from sums (Gini or squared error).  For it
:func:`search_gini` and :func:`search_squared_error` do in one pass per feature what
:func:`dtree._search._search_numeric_sliced` does in many NumPy passes: read
the rows in each feature's order, keep the running sums, score every
threshold and keep each node's first best.  It makes the same floating-point
operations in the same order (the running sum of the whole batch, minus its
value before each node; the proxy's products, quotients and sums as
``dtree._criteria`` writes them; exact integer counts for a classifier with
unit weights), so the trees are bit for bit the NumPy path's.

:func:`partition_binary` is :func:`dtree._partition._partition_binary` as one
loop per feature: each node's rows to its left child, then its right one, in
order.

:func:`c45_entropy_candidates` does the running sums, the size rule and the
candidate filter of a level of C4.5's weighted rows (the entropy's
logarithms stay NumPy's, in :func:`dtree._criteria.entropy_proxy_into`).
"""

import numpy as np
from numba import njit

#: The criteria the kernels score, by ``Criterion.name``.
PROXY = {"gini": 0, "squared_error": 1, "friedman_mse": 1}
#: How the running sums are read: class codes counted (unit weights), class
#: codes times weights, or the criterion's own per-row statistics (d, n).
UNIT_COUNTS, WEIGHTED_CLASSES, ROW_STATS = 0, 1, 2


@njit(cache=True)
def search_gini(X, P, features, starts, sizes, n_node, stats_node, allowed, all_allowed,
                msl, mwl, threshold_gap, mode, codes, w, pos, best_left):
    """Each (feature, node)'s best Gini threshold: its position in ``P`` into
    ``pos`` (c, S) (-1 for none) and its left child's statistics (class
    counts, then the weight) into ``best_left`` (d, c, S).  ``mode`` is
    ``UNIT_COUNTS`` or ``WEIGHTED_CLASSES``."""
    S = len(starts)
    d = stats_node.shape[1]
    acc = np.zeros(d)
    base = np.zeros(d)
    left = np.zeros(d)
    right = np.zeros(d)
    for ci in range(len(features)):
        f = features[ci]
        xf = X[f]
        order = P[f]
        acc[:] = 0.0
        for s in range(S):
            a = starts[s]
            e = a + sizes[s]
            if s == 0:
                base[:] = 0.0
            else:
                base[:] = acc
            ok_node = all_allowed or allowed[f, s]
            if mode == 0 and not ok_node:  # (the counts restart: nothing to carry)
                pos[ci, s] = -1
                continue
            best = -np.inf
            best_at = -1
            seen_nan = False
            nn = n_node[s]
            for i in range(a, e):
                r = order[i]
                n_left = i - a + 1
                if mode == 0:  # exact counts; the last class is what the others leave
                    c = codes[r]
                    if c < d - 2:
                        acc[c] += 1.0
                    left[d - 1] = n_left
                    rest = float(n_left)
                    for k in range(d - 2):
                        left[k] = acc[k] - base[k]
                        rest -= left[k]
                    left[d - 2] = rest
                else:
                    c = codes[r]
                    wr = w[r]
                    acc[c] += wr  # (w * (code == k): w, or 0.0 added to the others)
                    acc[d - 1] += wr
                    for k in range(d):
                        left[k] = acc[k] - base[k]
                if not ok_node or i + 1 >= e:
                    continue
                if n_left < msl or nn - n_left < msl:
                    continue
                if not (xf[order[i + 1]] > xf[r] + threshold_gap):
                    continue
                for k in range(d):
                    right[k] = stats_node[s, k] - left[k]
                if mwl > 0 and not (left[d - 1] >= mwl and right[d - 1] >= mwl):
                    continue
                # sum_k l_k^2 / W_L + sum_k r_k^2 / W_R, as Gini.search_proxy adds them
                sq_l = left[0] * left[0]
                sq_r = right[0] * right[0]
                for k in range(1, d - 1):
                    sq_l += left[k] * left[k]
                    sq_r += right[k] * right[k]
                sq_l /= left[d - 1]
                sq_r /= right[d - 1]
                v = sq_l + sq_r
                if v != v:
                    seen_nan = True
                elif v > best:
                    best = v
                    best_at = i
                    for k in range(d):
                        best_left[k, ci, s] = left[k]
            pos[ci, s] = -1 if seen_nan else best_at
            if mode == 0:  # the counts restart at each node (exact integers)
                for k in range(d):
                    acc[k] = 0.0
    return pos


@njit(cache=True)
def search_gini_counts(X, P, features, starts, sizes, n_node, stats_node, allowed,
                       all_allowed, msl, threshold_gap, codes, pos, best_left):
    """:func:`search_gini` for unit weights (``UNIT_COUNTS``, no
    ``min_weight_fraction_leaf``).  Every count, square and sum of squares
    is an exact integer in float64, so the sums of squares are kept up to
    date one row at a time (a row of class k moving left adds 2 l_k + 1 on
    the left and takes 2 r_k - 1 on the right) and equal the proxy's."""
    S = len(starts)
    d = stats_node.shape[1]
    n_classes = d - 1
    left = np.zeros(n_classes)
    right = np.zeros(n_classes)
    for ci in range(len(features)):
        f = features[ci]
        xf = X[f]
        order = P[f]
        for s in range(S):
            if not (all_allowed or allowed[f, s]):
                pos[ci, s] = -1
                continue
            a = starts[s]
            e = a + sizes[s]
            sq_l = 0.0
            sq_r = 0.0
            for k in range(n_classes):
                left[k] = 0.0
                right[k] = stats_node[s, k]
                sq_r += right[k] * right[k]
            w_node = stats_node[s, d - 1]
            best = -np.inf
            best_at = -1
            seen_nan = False
            nn = n_node[s]
            r = order[a]
            x_here = xf[r]
            for i in range(a, e - 1):
                c = codes[r]
                sq_l += 2.0 * left[c] + 1.0
                sq_r -= 2.0 * right[c] - 1.0
                left[c] += 1.0
                right[c] -= 1.0
                r = order[i + 1]
                x_next = xf[r]
                gap = x_next > x_here + threshold_gap
                x_here = x_next
                n_left = i - a + 1
                if not gap or n_left < msl or nn - n_left < msl:
                    continue
                v = sq_l / n_left + sq_r / (w_node - n_left)
                if v != v:
                    seen_nan = True
                elif v > best:
                    best = v
                    best_at = i
                    for k in range(n_classes):
                        best_left[k, ci, s] = left[k]
                    best_left[d - 1, ci, s] = n_left
            pos[ci, s] = -1 if seen_nan else best_at
    return pos


@njit(cache=True)
def search_squared_error(X, P, features, starts, sizes, n_node, stats_node, allowed,
                         all_allowed, msl, mwl, threshold_gap, row_stats, pos, best_left):
    """:func:`search_gini`'s twin for squared error, the three running sums kept
    in registers: ``row_stats`` (d, n) holds w*y, w*y^2, then a row of zeros
    (Poisson's), then w; the zeros' sums stay zero in ``best_left``."""
    S = len(starts)
    last = row_stats.shape[0] - 1
    for ci in range(len(features)):
        f = features[ci]
        xf = X[f]
        order = P[f]
        acc0 = acc1 = acc2 = 0.0
        for s in range(S):
            a = starts[s]
            e = a + sizes[s]
            base0, base1, base2 = acc0, acc1, acc2
            if s == 0:
                base0 = base1 = base2 = 0.0
            ok_node = all_allowed or allowed[f, s]
            tot0, tot2 = stats_node[s, 0], stats_node[s, stats_node.shape[1] - 1]
            best = -np.inf
            best_at = -1
            seen_nan = False
            nn = n_node[s]
            r = order[a]
            x_here = xf[r]
            for i in range(a, e):
                acc0 += row_stats[0, r]
                acc1 += row_stats[1, r]
                acc2 += row_stats[last, r]
                if i + 1 >= e:
                    break
                r = order[i + 1]
                x_next = xf[r]
                gap = x_next > x_here + threshold_gap
                x_here = x_next
                n_left = i - a + 1
                if not ok_node or not gap or n_left < msl or nn - n_left < msl:
                    continue
                l0 = acc0 - base0
                lw = acc2 - base2
                r0 = tot0 - l0
                rw = tot2 - lw
                if mwl > 0 and not (lw >= mwl and rw >= mwl):
                    continue
                v = l0 * l0 / lw + r0 * r0 / rw
                if v != v:
                    seen_nan = True
                elif v > best:
                    best = v
                    best_at = i
                    best_left[0, ci, s] = l0
                    best_left[1, ci, s] = acc1 - base1
                    best_left[-1, ci, s] = lw
            pos[ci, s] = -1 if seen_nan else best_at
    return pos


@njit(cache=True)
def partition_binary(P, starts, sizes, slot, n_left, keep_left, keep_right, total, out):
    """Each feature's order split stably into the kept children of each node
    (left child, then right); written over ``P[:, :total]``."""
    S = len(starts)
    for f in range(P.shape[0]):
        order = P[f]
        at = 0
        for s in range(S):
            a = starts[s]
            kl, kr = keep_left[s], keep_right[s]
            if not (kl or kr):
                continue
            left_at = at
            right_at = at + (n_left[s] if kl else 0)
            for i in range(a, a + sizes[s]):
                r = order[i]
                if slot[r] == 0:
                    if kl:
                        out[left_at] = r
                        left_at += 1
                elif kr:
                    out[right_at] = r
                    right_at += 1
            at = right_at if kr else at + (n_left[s] if kl else 0)
        for i in range(total):
            order[i] = out[i]


@njit(cache=True)
def c45_entropy_candidates(P, valid, codes, w, frac, starts, sizes, n_known, f_node,
                           stats_node, c45, least, one_class_tolerance, filter_runs,
                           known_tot, out_at, out_pair, out_left, out_right):
    """The positions of a chunk of C4.5's weighted rows that
    :func:`dtree._c45_search._c45_scores` scores with the entropy, and their
    children's statistics: the running sums (``w * (class == k)`` and ``w``,
    the batch's running sum less its value before each node, as
    ``_c45_cumulative`` makes them; the row fractions likewise), each
    (feature, node)'s known totals into ``known_tot`` (d, c, S), the size
    rule on the grown children, and ``_c45_candidates``'s filter
    (``filter_runs``: the chunk has 3 valid positions or more).  Writes the
    kept positions (flattened ``row * m + q``), their pairs ``row * S +
    node``, left and right statistics; returns how many."""
    c, m = P.shape
    S = len(starts)
    d = stats_node.shape[1]
    left = np.empty((d, m))
    cnt = np.empty(m)
    fails = np.empty(m, dtype=np.bool_)
    acc = np.zeros(d)
    base = np.zeros(d)
    kt = np.zeros(d)
    n_out = 0
    for ci in range(c):
        p = P[ci]
        for k in range(d):
            acc[k] = 0.0
        facc = 0.0
        fbase = 0.0
        s = 0
        next_start = starts[1] if S > 1 else m
        for i in range(m):
            if i == next_start:  # a node starts: its sums restart from here
                for k in range(d):
                    base[k] = acc[k]
                fbase = facc
                s += 1
                next_start = starts[s + 1] if s + 1 < S else m
            r = p[i]
            wr = w[r]
            acc[codes[r]] += wr
            acc[d - 1] += wr
            facc += frac[r]
            if s == 0:
                for k in range(d):
                    left[k, i] = acc[k]
                cnt[i] = facc
            else:
                for k in range(d):
                    left[k, i] = acc[k] - base[k]
                cnt[i] = facc - fbase
        for s in range(S):
            a = starts[s]
            e = a + sizes[s]
            kn = n_known[ci, s]
            f_known = 0.0
            if c45:
                if kn > 0:
                    for k in range(d):
                        kt[k] = left[k, a + kn - 1]
                    f_known = cnt[a + kn - 1]
                else:
                    for k in range(d):
                        kt[k] = 0.0
            else:
                for k in range(d):
                    kt[k] = stats_node[s, k]
            for k in range(d):
                known_tot[k, ci, s] = kt[k]
            other = np.inf
            for k in range(d - 1):
                other = min(other, kt[d - 1] - kt[k])
            one_class = other <= one_class_tolerance * kt[d - 1]
            fn = f_node[ci, s]
            for i in range(a, e):
                if not valid[ci, i]:
                    continue
                cnt_l = cnt[i]
                if c45:
                    share_l = left[d - 1, i] / kt[d - 1]
                    f_miss = fn - f_known
                    cnt_r = f_known - cnt_l
                    cnt_r += (1.0 - share_l) * f_miss
                    cnt_l = cnt_l + f_miss * share_l
                else:
                    cnt_r = fn - cnt_l
                fails[i] = not (cnt_l >= least and cnt_r >= least)
            pair = ci * S + s
            for i in range(a, e):
                if not valid[ci, i] or fails[i]:
                    continue
                if (filter_runs and not one_class and 0 < i < m - 1 and valid[ci, i - 1]
                        and valid[ci, i + 1] and codes[p[i]] == codes[p[i + 1]]
                        and a < i and i + 1 < e and not fails[i - 1] and not fails[i + 1]):
                    continue  # inside a run of one class: below a neighbour
                out_at[n_out] = ci * m + i
                out_pair[n_out] = pair
                for k in range(d):
                    out_left[k, n_out] = left[k, i]
                    out_right[k, n_out] = kt[k] - left[k, i]
                n_out += 1
    return n_out
