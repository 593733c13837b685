"""Routing the rows of split nodes to their children, and partitioning the
batch's sample orders into the children's.

:func:`route` records each row's branch (``prob.slot``) and sums the
children's statistics over their own rows; :func:`partition` then splits
every feature's order stably, in place, so the children stay sorted.
"""

import numpy as np

from ._median import group_mean_absolute_deviations
from ._plain_search import partition_binary_plain
from ._problem import CHUNK_ELEMENTS, slices, sliced
from ._tree import MULTIWAY, NUMERIC


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
        pieces = (slices(starts, sizes, m) if sliced(m)
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
        if partition_binary_plain(P, starts, sizes, slot, n_left, keep_left, keep_right,
                                  P_out.shape[1]):
            pass
        elif sliced(P.shape[1]):
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
    pieces = list(slices(starts, sizes, P.shape[1]))
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
