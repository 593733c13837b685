"""numba kernels of :mod:`dtree._jit` (importing this module needs numba)."""

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _less(key_a, id_a, key_b, id_b):
    return key_a < key_b or (key_a == key_b and id_a < id_b)


@njit(cache=True)
def _push(key, ids, wts, size, k, i, wv):
    """Push (k, i) with payload wv on the min-heap of ``size`` entries."""
    pos = size
    while pos > 0:
        par = (pos - 1) >> 1
        if not _less(k, i, key[par], ids[par]):
            break
        key[pos], ids[pos], wts[pos] = key[par], ids[par], wts[par]
        pos = par
    key[pos], ids[pos], wts[pos] = k, i, wv
    return size + 1


@njit(cache=True)
def _pop(key, ids, wts, size):
    """Drop the root of the min-heap (read it first); returns the new size."""
    size -= 1
    k, i, wv = key[size], ids[size], wts[size]
    pos = 0
    while True:
        c = 2 * pos + 1
        if c >= size:
            break
        if c + 1 < size and _less(key[c + 1], ids[c + 1], key[c], ids[c]):
            c += 1
        if not _less(key[c], ids[c], k, i):
            break
        key[pos], ids[pos], wts[pos] = key[c], ids[c], wts[c]
        pos = c
    key[pos], ids[pos], wts[pos] = k, i, wv
    return size


@njit(cache=True)
def sad_segments(y, w, starts, sizes, out):
    """dtree._median.sad_prefix on each segment, the same operations in the same
    order: ``lo`` is a max-heap (keys -y), ``hi`` a min-heap, ties by row."""
    most = 1
    for s in sizes:
        most = max(most, s)
    lo_key, lo_id, lo_w = np.empty(most), np.empty(most, np.int64), np.empty(most)
    hi_key, hi_id, hi_w = np.empty(most), np.empty(most, np.int64), np.empty(most)
    for seg in range(len(starts)):
        a = starts[seg]
        n_lo = 0
        n_hi = 0
        w_lo = 0.0
        w_hi = 0.0
        s_lo = 0.0
        s_hi = 0.0
        for t in range(sizes[seg]):
            yi = y[a + t]
            wi = w[a + t]
            if n_lo > 0 and yi <= -lo_key[0]:
                n_lo = _push(lo_key, lo_id, lo_w, n_lo, -yi, t, wi)
                w_lo += wi
                s_lo += wi * yi
            else:
                n_hi = _push(hi_key, hi_id, hi_w, n_hi, yi, t, wi)
                w_hi += wi
                s_hi += wi * yi
            half = 0.5 * (w_lo + w_hi)
            while w_lo < half:
                yv, j, wv = hi_key[0], hi_id[0], hi_w[0]
                n_hi = _pop(hi_key, hi_id, hi_w, n_hi)
                w_hi -= wv
                s_hi -= wv * yv
                n_lo = _push(lo_key, lo_id, lo_w, n_lo, -yv, j, wv)
                w_lo += wv
                s_lo += wv * yv
            while n_lo > 0 and w_lo - lo_w[0] >= half:
                nyv, j, wv = lo_key[0], lo_id[0], lo_w[0]
                n_lo = _pop(lo_key, lo_id, lo_w, n_lo)
                w_lo -= wv
                s_lo += wv * nyv
                n_hi = _push(hi_key, hi_id, hi_w, n_hi, -nyv, j, wv)
                w_hi += wv
                s_hi -= wv * nyv
            c = -lo_key[0]
            v = (s_hi - c * w_hi) + (c * w_lo - s_lo)
            out[a + t] = v if v > 0.0 else 0.0
