"""Weka's J48 (C4.5 release 8), grown node for node as Weka 3.6 grows it.

The rules, each as J48 applies them:

1. A node is a leaf when its weight is below 2·M (``min_objects``) or it is
   pure (within 1e-6).  Weights become fractional once rows with a missing
   value have gone down every branch.
2. A nominal attribute splits one branch per declared value, and only if at
   least two branches get a known weight of at least M.
3. A numeric attribute cuts in two.  Each side must weigh at least
   ``minSplit = 0.1 · known weight / number of classes`` clamped to [M, 25]
   (the number of classes is the declared one), and there must be at least
   2·minSplit rows with a known value.
4. A cut lies between neighbouring sorted values only where
   ``v[i-1] + 1e-5 < v[i]`` (in double precision).
5. The best cut's gain is penalised by ``log2(number of admissible cuts) / W``
   (W: the node's weight, rows with a missing value included); a penalised
   gain <= 0 means the attribute cannot split.
6. The threshold is the largest value of the whole training set that is
   <= the midpoint of the best cut.
7. The attributes whose gain is at least the average gain (over attributes
   with a split; nominal ones with >= 0.3·N declared values left out of the
   average) minus 1e-3 compete on gain ratio; a challenger must beat the best
   so far by more than 1e-6, so near-ties go to the first column.
8. The gain is computed on the known rows and multiplied by their weight
   fraction; the split information counts the missing weight as one more
   branch; a row with a missing value goes down every branch with the
   branch's share of the known weight.
9. After growing, top down, a subtree whose leaves make at least as many
   training errors as the node would alone (minus 1e-3) becomes a leaf.

Entropies use Weka's ``x log2 x`` with values below 1e-6 counted as 0.
"""

import math

import numpy as np

from ._candidates import CandidateBlock
from ._problem import REASON_CODE
from ._tree import MULTIWAY, NUMERIC

SMALL = 1e-6  # weka.core.Utils.SMALL: every comparison of weights and gains
LOG2 = math.log(2.0)


def _xlog2x(x):
    """Weka's logFunc: x log2 x, and 0 for x < 1e-6."""
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:  # (x >= 1e-6 or NaN: the logarithm cannot warn, no np.errstate)
        return np.float64(0.0) if x < 1e-6 else x * np.log(x) / LOG2
    # (x log x / ln 2, in one array; the logarithm is taken only where
    # x >= 1e-6, so it cannot warn, and the rest stays 0)
    out = np.zeros_like(x)
    np.log(x, out=out, where=x >= 1e-6)
    out *= x
    out /= LOG2
    return out


def _old_ent(per_class):
    """W·H of a class distribution (last axis), Weka's oldEnt."""
    return _xlog2x(per_class.sum(axis=-1)) - _xlog2x(per_class).sum(axis=-1)


def _new_ent(bags):
    """Sum over bags of W_bag·H_bag; bags on axis -2, classes on axis -1."""
    return -(_xlog2x(bags).sum(axis=(-2, -1)) - _xlog2x(bags.sum(axis=-1)).sum(axis=-1))


def info_gain(bags, total, old_ent=None):
    """InfoGainSplitCrit.splitCritValue: (known fraction)·(H - H_split) per
    known weight; 0 when the numerator is within 1e-6 of 0."""
    known = bags.sum(axis=(-2, -1))
    if old_ent is None:
        old_ent = _old_ent(bags.sum(axis=-2))
    numerator = (old_ent - _new_ent(bags)) * (1.0 - (total - known) / total)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(numerator) < SMALL, 0.0, numerator / known)


def _flat_sum(terms):
    """The sum of ``terms`` (arrays) in the order NumPy sums a short
    contiguous axis (pairwise, with 8 accumulators from 8 terms on), so that
    the result is bit for bit ``np.stack(terms, -1).sum(-1)``, without
    NumPy's slow reduction over a short axis.  Up to 128 terms."""
    n = len(terms)
    if n < 8:
        out = terms[0].copy()
        for t in terms[1:]:
            out += t
        return out
    acc = [terms[j].copy() for j in range(8)]
    i = 8
    while i < n - n % 8:
        for j in range(8):
            acc[j] += terms[i + j]
        i += 8
    out = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
    for t in terms[i:]:
        out += t
    return out


def info_gain_cuts(left, right, total, old_ent):
    """:func:`info_gain` of many two-way cuts, bit for bit, from the class
    weights of the two sides as (classes, cuts) arrays."""
    k = left.shape[0]
    if 2 * k > 128:
        return info_gain(np.stack([left.T, right.T], axis=1), total, old_ent)
    known = _flat_sum(list(left) + list(right))
    per_class = _flat_sum(list(_xlog2x(left)) + list(_xlog2x(right)))
    per_bag = _xlog2x(_flat_sum(list(left))) + _xlog2x(_flat_sum(list(right)))
    new_ent = -(per_class - per_bag)
    numerator = (old_ent - new_ent) * (1.0 - (total - known) / total)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(numerator) < SMALL, 0.0, numerator / known)


def split_info(bags, total):
    """The split information in bits, the missing weight as one more branch
    (GainRatioSplitCrit.splitEnt / total)."""
    per_bag = bags.sum(axis=-1)
    known = per_bag.sum()
    if not known > SMALL:
        return 0.0
    ent = -_xlog2x(per_bag).sum() - _xlog2x(total - known) + _xlog2x(total)
    return float(ent) / total


def split_info_many(bags, totals):
    """:func:`split_info` of many two-way splits, bit for bit: ``bags``
    (splits, 2, classes), ``totals`` (splits,); every split has known weight."""
    per_bag = bags.sum(axis=-1)
    known = per_bag.sum(axis=-1)
    ent = -_xlog2x(per_bag).sum(axis=-1) - _xlog2x(totals - known) + _xlog2x(totals)
    return ent / totals


def gain_ratio(gain, info, total):
    """GainRatioSplitCrit.splitCritValue: 0 for a trivial split."""
    if abs(info * total) < SMALL:
        return 0.0
    return gain / info


def first_better(values, start=0.0):
    """Index Weka's ``if (Utils.gr(v, best))`` loop keeps (-1 if none beats
    ``start``): only running records can win, so the loop runs over those."""
    values = np.asarray(values, dtype=np.float64)
    if not len(values):
        return -1
    prior = np.maximum.accumulate(np.r_[-np.inf, values[:-1]])
    best, idx = start, -1
    for i in np.flatnonzero(values > prior):
        if values[i] - best > SMALL:
            best, idx = values[i], int(i)
    return idx


#: Why an attribute cannot split a node (its ``rejected``), "" when it can.
MIN_OBJECTS = "fewer than 2 branches with >= min_objects rows"
REJECTED = ("", MIN_OBJECTS, "no cut point", "MDL penalty >= gain", "gain ratio 0")


def _first_better_rows(values, rows, n_rows):
    """:func:`first_better` of each row of a sparse layout of ``values``
    (``rows``: each value's row, nondecreasing), as each row's index among
    its own values."""
    start = np.searchsorted(rows, np.arange(n_rows))
    rank = np.arange(len(rows)) - start[rows]  # each value's index within its row
    shape = (n_rows, int(rank.max()) + 1)
    grid = np.full(shape, -np.inf)
    grid[rows, rank] = values
    prior = np.empty(shape)
    prior[:, 0] = -np.inf
    np.maximum.accumulate(grid[:, :-1], axis=1, out=prior[:, 1:])
    # only running records can win, and only those above SMALL (the loop starts at 0)
    record = np.flatnonzero((values > prior[rows, rank]) & (values > SMALL))
    best = np.full(n_rows, -1)
    if not len(record):
        return best
    rec_rows, rec_values = rows[record], values[record]
    # records rise; where each rises by more than SMALL over the one before, the
    # loop takes every one and ends on the last: only other rows need the loop
    same_row = rec_rows[1:] == rec_rows[:-1]
    close = same_row & (rec_values[1:] - rec_values[:-1] <= SMALL)
    last = np.r_[~same_row, True]
    best[rec_rows[last]] = record[last] - start[rec_rows[last]]
    if close.any():
        # Weka's loop over the records of those rows, in one pass
        mine = np.flatnonzero(np.isin(rec_rows, rec_rows[1:][close]))
        taken, row, best_value = {}, -1, 0.0
        at = record[mine] - start[rec_rows[mine]]
        for r, i, v in zip(rec_rows[mine].tolist(), at.tolist(), rec_values[mine].tolist()):
            if r != row:
                row, best_value = r, 0.0
            if v - best_value > SMALL:
                best_value, taken[r] = v, i
        best[list(taken)] = list(taken.values())
    return best


#: A batched search pads every node to the batch's longest: a node joins the
#: batch while the padded rows stay within ``PAD_RATIO`` times the rows used
#: plus ``PAD_SLACK`` (padding costs array work; each batch, Python work).
PAD_SLACK = 256
PAD_RATIO = 1.1
#: ... and while the batch's padded rows times its attributes stay within
#: this (its running class sums take that many floats per class), so that a
#: large table's level is searched in several batches, not one huge array
BATCH_CELLS = 1 << 20


def _batches(sizes, n_features=1):
    """Indices of ``sizes`` grouped into batches of similar size (ascending),
    so that padding every node to its batch's longest wastes little."""
    order = np.argsort(sizes, kind="stable")
    batches, batch, used = [], [], 0
    for i in order.tolist():
        size = sizes[i]
        padded = size * (len(batch) + 1)
        if batch and (padded > PAD_RATIO * (used + size) + PAD_SLACK
                      or padded * n_features > BATCH_CELLS):
            batches.append(batch)
            batch, used = [], 0
        batch.append(i)
        used += size
    if batch:
        batches.append(batch)
    return batches


#: A run's inner cuts are skipped only when its last inner cut is, by the
#: chord, below the run's end by more than this (Weka's 1e-6, with room for
#: rounding).
RUN_MARGIN = 2e-6


def _scored_cuts(fi, ii, cs, ws, lw, known_w, gains_at):
    """Which of a search's cuts (row ``fi``, after sorted position ``ii``,
    row by row) need their gain for Weka's choice (:func:`_first_better_rows`):
    a boolean mask.

    Between two cuts of a row with only rows of one class between them, only
    that class moves from right to left, and the gain is a convex function
    of the weight moved (W·H is concave in the class weights).  Take a run of
    such inner cuts between the cuts a and b.  An inner cut c can only be
    taken by Weka's loop if it beats the best so far by more than 1e-6, so
    c > a; convexity then puts c at or below the chord from a to b, so
    b >= c.  If b exceeds every inner cut by more than 1e-6, b is taken after
    any inner cut the loop took, and the loop leaves the run exactly as it
    would have without the inner cuts: they are skipped.  This holds when
    b <= a (no inner cut beats a), or when the chord at the last inner cut is
    below b by more than ``RUN_MARGIN``; other runs keep their inner cuts.

    A gain below Weka's 1e-6 is set to 0 (:func:`info_gain`); the chord then
    starts from the largest value that hides (1e-6 over the known weight).
    Weights below 1e-6, which Weka's x log x counts as 0, would break the
    convexity: rows with any keep every cut, and so do rows whose known
    weight is below 1, where a gain hidden as 0 could exceed 1e-6.  ``gains_at(sel)`` gives the
    gains of the cuts ``sel``.  Returns the mask and the gains of the cuts
    it keeps."""
    n = len(fi)
    if n < 3:
        return np.ones(n, dtype=bool), gains_at(np.arange(n))
    R, m = cs.shape
    # changes[r, j]: how many times the class changes among sorted rows 0..j of row r
    changes = np.zeros((R, m), dtype=np.int32)
    changes[:, 1:] = cs[:, 1:] != cs[:, :-1]
    np.cumsum(changes, axis=1, out=changes)
    changes = changes.reshape(-1)
    # inner[t]: cuts t - 1 and t + 1 of the same row, only one class from
    # the rows after cut t - 1 up to cut t + 1
    prev, nxt = slice(None, -2), slice(2, None)
    inner = np.zeros(n, dtype=bool)
    inner[1:-1] = (fi[prev] == fi[nxt]) & (
        changes.take(fi[nxt] * m + ii[nxt]) == changes.take(fi[prev] * m + ii[prev] + 1))
    tiny = ((ws > 0) & (ws < SMALL)).any(axis=1)
    tiny |= known_w < 1.0  # (a hidden gain, below 1e-6 / known, could exceed 1e-6)
    if tiny.any():
        inner &= ~tiny.take(fi)
    keep = ~inner
    gains = np.empty(n)
    gains[keep] = gains_at(np.flatnonzero(keep))
    if not inner.any():
        return keep, gains
    first = np.flatnonzero(inner & ~np.r_[False, inner[:-1]])  # each run's inner cuts
    last = np.flatnonzero(inner & ~np.r_[inner[1:], False])
    start, end = first - 1, last + 1  # the cuts a and b around them
    a, b = gains.take(start), gains.take(end)
    a_top = np.maximum(a, SMALL / known_w.take(fi.take(start)))
    lwf = lw.reshape(-1)
    w = lambda t: lwf.take(fi[t] * lw.shape[1] + ii[t])  # noqa: E731 (left weight at cut t)
    wa, wq, wb = w(start), w(last), w(end)
    safe = (b <= a) | ((b - a_top) * (wb - wq) > RUN_MARGIN * (wb - wa))
    if not safe.all():
        mark = np.zeros(n + 1, dtype=np.intp)
        np.add.at(mark, first[~safe], 1)
        np.add.at(mark, last[~safe] + 1, -1)
        back = np.flatnonzero(np.cumsum(mark[:-1]) > 0)
        gains[back] = gains_at(back)
        keep[back] = True
    return keep, gains[keep]


class Candidate:
    """One attribute's best split of a node (C45Split), or why it has none.
    Its fields start at these class defaults (a node makes one per
    attribute, and most stay at them)."""

    FIELDS = ("feature", "nominal", "valid", "gain", "raw_gain", "penalty", "ratio",
              "split_info", "threshold", "cut", "n_cuts", "bags", "known_weight", "total",
              "min_split", "rejected", "n_missing", "row_counts")
    valid = False
    gain = ratio = split_info = 0.0
    raw_gain = np.nan
    penalty = np.nan  # rule 5: log2(n_cuts) / W, numeric attributes only
    threshold = np.nan
    cut = np.nan
    n_cuts = 0
    bags = None
    known_weight = 0.0
    total = 0.0
    min_split = np.nan  # the least weight each branch must get
    rejected = ""  # why the attribute cannot split: one of REJECTED
    n_missing = 0  # the node's rows with the attribute missing
    row_counts = None  # a valid split's rows with a known value per branch

    def __init__(self, feature, nominal):
        self.feature = feature
        self.nominal = nominal


class J48Data:
    """Training data and settings shared by every node."""

    def __init__(self, X, codes, w, nominal, n_values, n_classes, min_objects):
        self.X = X  # (n, F) float64, nominal attributes as codes, NaN missing
        self.codes = codes
        self.w = w
        self.nominal = np.asarray(nominal, dtype=bool)
        self.n_values = np.asarray(n_values)
        self.k = int(n_classes)
        self.M = float(min_objects)
        n = X.shape[0]
        # rule 7: nominal attributes with many values stay out of the average
        many = self.nominal & (self.n_values >= 0.3 * n - SMALL)
        self.all_many = bool(many.all())
        self.in_average = ~many | self.all_many
        self.sorted_values = [None if self.nominal[f] else
                              np.sort(X[~np.isnan(X[:, f]), f]) for f in range(X.shape[1])]
        self.numeric = np.flatnonzero(~self.nominal)
        self.numeric_list = self.numeric.tolist()
        # numeric attributes feature-major, and each one's row order (stable,
        # missing last): nodes carry these orders down, so nothing is sorted again
        # (with one more column, missing: the pad of a batched search)
        self.Xt = np.full((len(self.numeric), n + 1), np.nan)
        self.Xt[:, :n] = X[:, self.numeric].T
        self.root_order = np.argsort(self.Xt[:, :n], axis=1, kind="stable")
        self.codes_pad = np.r_[codes, 0]

    def class_dist(self, rows, weights):
        return np.bincount(self.codes[rows], weights=weights, minlength=self.k)

    # -- rule 2: nominal ---------------------------------------------------------

    def nominal_candidate(self, f, rows, weights, total):
        cand = Candidate(f, True)
        x = self.X[rows, f]
        known = ~np.isnan(x)
        V = int(self.n_values[f])
        key = x[known].astype(np.intp) * self.k + self.codes[rows[known]]
        bags = np.bincount(key, weights=weights[known], minlength=V * self.k).reshape(V, self.k)
        cand.bags = bags
        cand.known_weight = float(bags.sum())
        cand.total = total
        cand.min_split = self.M
        cand.n_missing = len(x) - int(known.sum())
        if np.sum(bags.sum(axis=1) >= self.M - SMALL) < 2:
            cand.rejected = MIN_OBJECTS
            return cand
        cand.row_counts = np.bincount(x[known].astype(np.intp), minlength=V)
        cand.valid = True
        cand.gain = float(info_gain(bags, total))
        cand.raw_gain = cand.gain
        cand.split_info = split_info(bags, total)
        cand.ratio = gain_ratio(cand.gain, cand.split_info, total)
        return cand

    # -- rules 3-6: numeric --------------------------------------------------------

    def numeric_candidate(self, f, rows, weights, total):
        cand = Candidate(f, False)
        cand.total = total
        x = self.X[rows, f]
        known = np.flatnonzero(~np.isnan(x))
        order = known[np.argsort(x[known], kind="stable")]
        xs, ws, cs = x[order], weights[order], self.codes[rows[order]]
        known_w = float(ws.sum())
        cand.known_weight = known_w
        min_split = 0.1 * known_w / self.k
        if min_split - self.M < SMALL:
            min_split = self.M
        elif min_split - 25 > SMALL:
            min_split = 25.0
        cand.min_split = min_split
        n_known = len(xs)
        cand.n_missing = len(x) - n_known
        if 2 * min_split - n_known > SMALL:
            cand.rejected = MIN_OBJECTS
            return cand
        onehot = np.zeros((n_known, self.k))
        onehot[np.arange(n_known), cs] = ws
        left = np.cumsum(onehot, axis=0)  # left[i]: rows 0..i
        all_known = left[-1] if n_known else np.zeros(self.k)
        # a cut after sorted position i (before i + 1) where the values differ
        cut_at = np.flatnonzero(xs[:-1] + 1e-5 < xs[1:])
        if not len(cut_at):
            cand.rejected = "no cut point"
            return cand
        lw = left[cut_at].sum(axis=1)
        rw = known_w - lw
        ok = (lw >= min_split - SMALL) & (rw >= min_split - SMALL)
        cut_at = cut_at[ok]
        cand.n_cuts = len(cut_at)
        if not len(cut_at):
            cand.rejected = MIN_OBJECTS
            return cand
        bags = np.stack([left[cut_at], all_known[None, :] - left[cut_at]], axis=1)
        gains = info_gain(bags, total, old_ent=_old_ent(all_known))
        best = first_better(gains)
        raw = float(gains[best]) if best >= 0 else 0.0
        cand.penalty = math.log2(len(cut_at)) / total  # rule 5, the MDL penalty
        gain = raw - cand.penalty
        cand.raw_gain = raw
        if gain < SMALL:
            cand.gain = gain
            cand.rejected = REJECTED[3]
            return cand
        i = int(cut_at[best])
        mid = (xs[i + 1] + xs[i]) / 2.0
        if mid == xs[i + 1]:
            mid = xs[i]
        cand.row_counts = (i + 1, n_known - i - 1)  # (the threshold lies in [xs[i], xs[i+1]))
        return self._chosen_cut(cand, mid, np.stack([left[i], all_known - left[i]]), gain,
                                total)

    def _chosen_cut(self, cand, mid, final, gain, total):
        """Fill ``cand`` with the cut at ``mid``: its threshold (rule 6: the
        largest training value of the whole set <= the midpoint), the two bags
        ``final``, the gain, split information and gain ratio."""
        cand.cut = mid
        values = self.sorted_values[cand.feature]
        cand.threshold = float(values[np.searchsorted(values, mid + SMALL, side="left") - 1])
        cand.bags = final
        cand.valid = True
        cand.gain = gain
        cand.split_info = split_info(final, total)
        cand.ratio = gain_ratio(gain, cand.split_info, total)
        return cand

    def numeric_candidates(self, rows, weights, total, order):
        """:meth:`numeric_candidate` of every numeric attribute at once.

        ``order`` (numeric attributes, len(rows)) holds, for each attribute,
        the positions in ``rows`` sorted by its value (stable, missing last),
        as :func:`child_orders` carries them down the tree.
        """
        return self.numeric_candidates_many([(rows, weights, total, order)])[0]

    def numeric_candidates_many(self, nodes):
        """:meth:`numeric_candidates` of several nodes, each a tuple
        ``(rows, weights, total, order)``: one list of candidates per node.

        Nodes of similar size are searched together (see :func:`_batches`):
        each node's sorted rows are padded to the longest with a row whose
        value is missing and whose weight is 0, which adds no cut and changes
        no running sum, so every number is bit for bit the one-node search's.
        """
        out = [None] * len(nodes)
        for batch in _batches([len(rows) for rows, _, _, _ in nodes], len(self.numeric)):
            for i, cands in zip(batch, self._search([nodes[i] for i in batch])):
                out[i] = cands
        return out

    def _search(self, nodes):
        """The numeric search of a batch of nodes (see
        :meth:`numeric_candidates_many`), with one row per (node, attribute)."""
        F, k, B = len(self.numeric), self.k, len(nodes)
        cands = [[Candidate(f, False) for f in self.numeric_list] for _ in nodes]
        if not F:
            return cands
        m = max(len(rows) for rows, _, _, _ in nodes)
        n = self.X.shape[0]
        R = B * F
        # each node's rows in each attribute's sorted order; row n is the pad
        sorted_rows = np.full((B, F, m), n, dtype=np.intp)
        ws = np.zeros((B, F, m))
        totals = np.empty(B)
        sizes = np.empty(B, dtype=np.intp)
        for b, (rows, weights, total, order) in enumerate(nodes):
            size = sizes[b] = len(rows)
            rows.take(order, out=sorted_rows[b, :, :size])
            weights.take(order, out=ws[b, :, :size])
            totals[b] = total
        sorted_rows = sorted_rows.reshape(R, m)
        ws = ws.reshape(R, m)
        if B == 1:  # (1-D takes: faster than one 2-D take for one node)
            xs = np.empty((R, m))
            for j in range(F):
                self.Xt[j].take(sorted_rows[j], out=xs[j], mode="clip")
        else:
            offsets = np.tile(np.arange(F) * (n + 1), B)[:, None]
            xs = self.Xt.reshape(-1).take(sorted_rows + offsets)
        n_known = m - np.isnan(xs).sum(axis=1)
        n_missing = np.repeat(sizes, F) - n_known  # (the pads are not the node's)
        cs = self.codes_pad.take(sorted_rows)
        total_r = np.repeat(totals, F)
        # left[c, r, i]: the weight of class c among sorted rows 0..i of row r
        left = np.empty((k, R, m))
        for c in range(k):
            # ws * (class == c): the weight or 0.0, as np.where gives (ws > 0)
            np.cumsum(ws * (cs == c), axis=1, out=left[c])
        last = np.maximum(n_known - 1, 0)
        all_known = left[:, np.arange(R), last].T * (n_known > 0)[:, None]  # (R, k)
        # (summed as a plain sum of each attribute's known weights, as before)
        known_w = np.array([ws[r, :n_known[r]].sum() for r in range(R)])
        lw = left[:, :, :-1].sum(axis=0)
        ok = xs[:, :-1] + 1e-5 < xs[:, 1:]  # a cut between distinct known values (rule 4)
        # rule 3, every attribute at once (the arithmetic of numeric_candidate)
        min_split = 0.1 * known_w / k
        min_split = np.where(min_split - self.M < SMALL, self.M,
                             np.where(min_split - 25 > SMALL, 25.0, min_split))
        too_few = 2 * min_split - n_known > SMALL
        no_cut = ~ok.any(axis=1)
        least = (min_split - SMALL)[:, None]
        ok &= (lw >= least) & (known_w[:, None] - lw >= least)
        ok[too_few] = False
        flat = np.flatnonzero(ok)  # (take and repeat: faster than fancy indexing)
        fi, ii = np.divmod(flat, ok.shape[1])
        per_r = np.bincount(fi, minlength=R)  # each row's number of cuts (rule 5)
        old_ent = _old_ent(all_known)

        def gains_at(sel):
            """:func:`info_gain_cuts` of the cuts ``sel`` (indices into fi)."""
            r = fi[sel]
            at = r * m + ii[sel]
            at_cut = np.empty((k, len(sel)))  # (k, cuts)
            for c in range(k):
                left[c].reshape(-1).take(at, out=at_cut[c], mode="clip")
            return info_gain_cuts(at_cut, all_known.T.take(r, axis=1) - at_cut,
                                  total_r.take(r), old_ent.take(r))

        keep, gains = _scored_cuts(fi, ii, cs, ws, lw, known_w, gains_at)
        fi, ii = fi[keep], ii[keep]
        bounds = np.searchsorted(fi, np.arange(R + 1))
        best_of = (_first_better_rows(gains, fi, R) if len(fi)
                   else np.full(R, -1))
        chosen = []  # (row, candidate, cut position, gain) of every attribute that can split
        for r in range(R):
            cand = cands[r // F][r % F]
            total = float(total_r[r])
            cand.total = total
            cand.known_weight = float(known_w[r])
            cand.min_split = float(min_split[r])
            cand.n_missing = int(n_missing[r])
            if too_few[r]:
                cand.rejected = MIN_OBJECTS
            elif no_cut[r]:
                cand.rejected = "no cut point"
            a = bounds[r]
            cand.n_cuts = int(per_r[r])
            if not cand.n_cuts:
                cand.rejected = cand.rejected or MIN_OBJECTS
                continue
            best = best_of[r]
            raw = float(gains[a + best]) if best >= 0 else 0.0
            cand.penalty = math.log2(cand.n_cuts) / total  # rule 5, the MDL penalty
            gain = raw - cand.penalty
            cand.raw_gain = raw
            if gain < SMALL:
                cand.gain = gain
                cand.rejected = REJECTED[3]
                continue
            chosen.append((r, cand, int(ii[a + best]), gain))
        if chosen:
            self._chosen_cuts(chosen, xs, left, all_known, n_known)
        return cands

    def _chosen_cuts(self, chosen, xs, left, all_known, n_known):
        """:meth:`_chosen_cut` of every chosen cut of a search, at once."""
        r = np.array([c[0] for c in chosen])
        i = np.array([c[2] for c in chosen])
        lo, hi = xs[r, i], xs[r, i + 1]
        mid = (hi + lo) / 2.0
        mid = np.where(mid == hi, lo, mid)
        final = left[:, r, i].T  # (chosen, k)
        bags = np.stack([final, all_known[r] - final], axis=1)  # (chosen, 2, k)
        totals = np.array([c[1].total for c in chosen])
        info = split_info_many(bags, totals)
        F = len(self.numeric)
        feature = r % F
        threshold = np.empty(len(chosen))
        for j in np.unique(feature):
            mine = feature == j
            values = self.sorted_values[int(self.numeric[j])]
            threshold[mine] = values[np.searchsorted(values, mid[mine] + SMALL, side="left") - 1]
        for v, (row, cand, at, gain) in enumerate(chosen):
            # rows with a known value on each side (the threshold lies in [lo, hi))
            cand.row_counts = (at + 1, int(n_known[row]) - at - 1)
            cand.cut = float(mid[v])
            cand.threshold = float(threshold[v])
            cand.bags = bags[v]
            cand.valid = True
            cand.gain = gain
            cand.split_info = float(info[v])
            cand.ratio = gain_ratio(gain, cand.split_info, cand.total)

    # -- rule 7: the choice ----------------------------------------------------------

    def select(self, rows, weights, order=None):
        """(best Candidate or None, every Candidate, eligible mask).  With
        ``order`` (see :meth:`numeric_candidates`) the numeric attributes are
        searched together, on orders carried down the tree."""
        if order is None:
            total = float(weights.sum())
            return self._choose([self.nominal_candidate(f, rows, weights, total)
                                 if self.nominal[f]
                                 else self.numeric_candidate(f, rows, weights, total)
                                 for f in range(self.X.shape[1])])
        return self.select_many([(rows, weights, order)])[0]

    def select_many(self, nodes):
        """:meth:`select` of several nodes, each ``(rows, weights, order)``
        with its sorted orders: their numeric searches run in batches."""
        totals = [float(weights.sum()) for _, weights, _ in nodes]
        numeric = self.numeric_candidates_many(
            [(rows, weights, total, order)
             for (rows, weights, order), total in zip(nodes, totals)])
        out = []
        for (rows, weights, _), total, found in zip(nodes, totals, numeric):
            cands = [None] * self.X.shape[1]
            for c in found:
                cands[c.feature] = c
            for f in np.flatnonzero(self.nominal):
                cands[f] = self.nominal_candidate(int(f), rows, weights, total)
            out.append(self._choose(cands))
        return out

    def _choose(self, cands):
        """Rule 7 over a node's candidates: (best or None, cands, eligible)."""
        valid = np.array([c.valid for c in cands])
        counted = valid & self.in_average
        eligible = np.zeros(len(cands), dtype=bool)
        if not counted.any():
            return None, cands, eligible
        average = float(np.mean([c.gain for c, k in zip(cands, counted) if k]))
        best, best_ratio = None, 0.0
        for c in cands:
            if c.valid and c.gain >= average - 1e-3:
                eligible[c.feature] = True
                if c.ratio - best_ratio > SMALL:
                    best, best_ratio = c, c.ratio
        if best is None or abs(best_ratio) < SMALL:
            return None, cands, eligible
        return best, cands, eligible

    # -- rule 8: sending rows down ------------------------------------------------------

    def route(self, cand, rows, weights):
        """The rows and weights of each branch of ``cand``, and each branch's
        share of the known weight."""
        x = self.X[rows, cand.feature]
        missing = np.isnan(x)
        if cand.nominal:
            branch = np.where(missing, -1, np.nan_to_num(x, nan=-1)).astype(np.intp)
            n_branches = int(self.n_values[cand.feature])
        else:
            branch = np.where(missing, -1, np.where(x <= cand.threshold, 0, 1))
            n_branches = 2
        per_bag = cand.bags.sum(axis=1)
        known = per_bag.sum()
        share = per_bag / known if known > 0 else np.full(n_branches, 1.0 / n_branches)
        out = []
        for b in range(n_branches):
            mine = branch == b
            take = mine | (missing & (share[b] > SMALL))
            w = np.where(mine, weights, weights * share[b])[take]
            out.append((rows[take], w, take))
        return out, share


def child_orders(order, take):
    """The sorted orders of a child whose rows are the parent's ``rows[take]``:
    each attribute's order with the rows left out dropped, renumbered."""
    if order is None:
        return None
    if not order.shape[0]:  # no numeric attribute
        return np.zeros((0, int(take.sum())), dtype=order.dtype)
    keep = take[order]  # (F, m)
    position = np.cumsum(take) - 1
    return position[order[keep].reshape(order.shape[0], -1)]


class GrownNode:
    """A node of the grown J48 tree (before it is written into arrays)."""

    __slots__ = ("rows", "weights", "dist", "total", "split", "cands", "eligible", "children",
                 "share", "reason", "order")

    def __init__(self, rows, weights, dist, order=None):
        self.rows, self.weights, self.dist = rows, weights, dist
        self.total = float(dist.sum())
        self.order = order  # numeric attributes' sorted positions, while growing
        self.split = None
        self.cands = None
        self.eligible = None
        self.children = []
        self.share = None
        self.reason = ""

    def errors_as_leaf(self):
        return self.total - float(self.dist.max())

    def training_errors(self):
        if not self.children:
            return self.errors_as_leaf()
        return sum(c.training_errors() for c in self.children)

    def make_leaf(self, reason):
        self.split, self.children, self.share = None, [], None
        self.reason = reason


def leaf_reason(cands):
    """Why a searched node has no split: the minimum-objects rule when it is
    what stopped every attribute that varies in the node."""
    why = {c.rejected for c in cands}
    if not any(c.valid for c in cands) and why <= {MIN_OBJECTS, "no cut point"} \
            and MIN_OBJECTS in why:
        return MIN_OBJECTS
    return "no valid split"


def grow(data, rows, weights):
    """The unpruned J48 tree (rules 1-8), collapsed (rule 9).

    Every node's split depends on its own rows alone, so the tree is grown a
    level at a time, each level's searches batched (:meth:`J48Data.select_many`);
    the tree is the one J48 grows depth first."""
    order = data.root_order[:, rows] if len(rows) == data.X.shape[0] and \
        np.array_equal(rows, np.arange(len(rows))) else None
    root = GrownNode(rows, weights, data.class_dist(rows, weights), order)
    level = [root]
    while level:
        searched = []
        for node in level:
            total = node.total
            if total < 2 * data.M - SMALL:
                node.reason, node.order = MIN_OBJECTS, None
            elif abs(total - node.dist.max()) < SMALL:
                node.reason, node.order = "pure", None
            else:
                searched.append(node)
        if order is None:
            found = [data.select(n.rows, n.weights) for n in searched]
        else:
            found = data.select_many([(n.rows, n.weights, n.order) for n in searched])
        level = []
        for node, (best, node.cands, node.eligible) in zip(searched, found):
            node_order, node.order = node.order, None  # (only needed while growing)
            if best is None:
                node.reason = leaf_reason(node.cands)
                continue
            node.split = best
            branches, node.share = data.route(best, node.rows, node.weights)
            node.children = [GrownNode(r, w, data.class_dist(r, w),
                                       child_orders(node_order, take))
                             for r, w, take in branches]
            level.extend(node.children)
    collapse(root)
    return root


def collapse(node):
    """Rule 9, top down: a subtree that does not reduce the training errors
    (by more than 1e-3) becomes a leaf."""
    # every node's training errors on the tree as grown (collapsing a node
    # changes none of its descendants' numbers, which are checked after it),
    # each summed over its children in order as training_errors() does
    errors = {}
    post, stack = [], [node]
    while stack:
        n = stack.pop()
        post.append(n)
        stack.extend(n.children)
    for n in reversed(post):
        errors[id(n)] = (sum(errors[id(c)] for c in n.children) if n.children
                         else n.errors_as_leaf())
    stack = [node]
    while stack:
        n = stack.pop()
        if not n.children:
            continue
        if errors[id(n)] >= n.errors_as_leaf() - 1e-3:
            n.make_leaf("collapsed: the subtree made as many training errors")
        else:
            stack.extend(n.children)


# --------------------------------------------------------------------------
# writing the grown tree into the builder's arrays
# --------------------------------------------------------------------------

class LazyCandidates:
    """A J48 node's candidate block, made on first use (most are never
    looked at): unpacks as ``(block, column)``, like the references the
    other builders record.  Holds the node's candidates and a few counts,
    not its rows."""

    __slots__ = ("_args", "_block")

    def __init__(self, *args):
        self._args = args
        self._block = None

    def __iter__(self):
        if self._block is None:
            self._block = _candidate_block(*self._args)
            self._args = None
        return iter((self._block, 0))


def _candidate_block(cands, eligible, total, n_node, nominal, w_sum):
    """The node's per-attribute table, in the shape the other builders record."""
    F = len(nominal)
    cb = CandidateBlock()
    cb.evaluated = np.ones((F, 1), dtype=bool)
    cb.kind = np.where(nominal, MULTIWAY, NUMERIC)[:, None].astype(np.int8)
    cb.threshold = np.full((F, 1), np.nan)
    cb.gain = np.full((F, 1), np.nan)
    cb.split_info = np.full((F, 1), np.nan)
    cb.n_left = np.zeros((F, 1), dtype=np.intp)
    cb.n_right = np.zeros((F, 1), dtype=np.intp)
    for name in ("weight_left", "weight_right", "impurity_left", "impurity_right"):
        setattr(cb, name, np.full((F, 1), np.nan))
    cb.missing_child = np.full((F, 1), -1, dtype=np.intp)
    cb.missing_fraction = np.zeros((F, 1))
    cb.categorical = {}
    cb.n_node = np.array([n_node])
    cb.eligible = eligible[:, None].copy()
    extra = {name: np.full((F, 1), np.nan) for name in
             ("gain_before_mdl", "mdl_penalty", "n_cuts", "split_info_unknown",
              "min_branch_weight")}
    extra["rejected"] = np.full((F, 1), "", dtype=object)
    extra["children_known_weight"] = np.empty((F, 1), dtype=object)
    cb.j48 = extra
    for c in cands:
        f = c.feature
        cb.missing_fraction[f, 0] = 1.0 - c.known_weight / total if total > 0 else 0.0
        extra["rejected"][f, 0] = c.rejected
        extra["min_branch_weight"][f, 0] = c.min_split
        if not c.nominal and c.n_cuts:
            extra["n_cuts"][f, 0] = c.n_cuts
            extra["gain_before_mdl"][f, 0] = c.raw_gain
            extra["mdl_penalty"][f, 0] = c.penalty
        if c.bags is not None:
            extra["children_known_weight"][f, 0] = tuple(float(v) for v in c.bags.sum(axis=1))
        if not c.valid:
            continue
        unknown = total - c.known_weight
        extra["split_info_unknown"][f, 0] = (
            -unknown / total * math.log2(unknown / total) if unknown > SMALL else 0.0)
        cb.gain[f, 0] = c.gain
        cb.split_info[f, 0] = c.split_info
        per_bag = c.bags.sum(axis=1)
        grown = per_bag * (total / per_bag.sum())  # missing rows added by share
        imp = np.array([_entropy(b) for b in c.bags])
        cb.missing_child[f, 0] = int(np.argmax(per_bag))
        n_miss = c.n_missing
        if c.nominal:
            n_grown = c.row_counts + np.where(per_bag > SMALL, n_miss, 0)
            cb.categorical[(f, 0)] = (np.arange(len(per_bag)), n_grown, grown, imp)
        else:
            cb.threshold[f, 0] = c.threshold
            n_l, n_r = c.row_counts
            cb.n_left[f, 0] = n_l + n_miss
            cb.n_right[f, 0] = n_r + n_miss
            cb.weight_left[f, 0], cb.weight_right[f, 0] = grown
            cb.impurity_left[f, 0], cb.impurity_right[f, 0] = imp
    cb.improvement = total / w_sum * cb.gain
    return cb


def _entropy(dist):
    total = dist.sum()
    if total <= 0:
        return 0.0
    p = dist[dist > 0] / total
    return float(-(p * np.log2(p)).sum())


def write_nodes(root, data, nodes, record):
    """Fill the builder's ``Nodes`` (children with consecutive ids) from the
    grown tree; returns the split order (pre-order, as J48 grows)."""
    w_root = root.total
    w_sum = data.w.sum()
    order = []

    def add(items, parent, depth):
        n = np.array([len(g.rows) for g in items])
        stats = np.array([np.r_[g.dist, g.total] for g in items])
        imp = np.array([_entropy(g.dist) for g in items])
        return nodes.add(parent=np.full(len(items), parent), depth=np.full(len(items), depth),
                         n=n, stats=stats, impurity=imp,
                         count=np.array([g.total for g in items]))

    stack = [(root, int(add([root], -1, 0)[0]))]
    while stack:
        g, i = stack.pop()
        if g.cands is not None:
            nodes.searched[i] = True
            if record:
                nodes.candidates[i] = LazyCandidates(g.cands, g.eligible, g.total,
                                                     len(g.rows), data.nominal, w_sum)
        if g.split is None:
            nodes.reason[i] = REASON_CODE[g.reason]
            continue
        c = g.split
        order.append(i)
        nodes.has_split[i] = True
        nodes.feature[i] = c.feature
        nodes.kind[i] = MULTIWAY if c.nominal else NUMERIC
        nodes.threshold[i] = c.threshold
        nodes.missing_child[i] = int(np.argmax(c.bags.sum(axis=1)))
        nodes.gain[i] = c.gain
        nodes.improvement[i] = g.total / w_root * c.gain
        nodes.split_info[i] = c.split_info
        if c.nominal:
            nodes.branch_of_code[i] = np.arange(len(g.children))
        kids = add(g.children, i, nodes.depth[i] + 1)
        nodes.first_child[i] = kids[0]
        nodes.n_children[i] = len(kids)
        nodes.share[kids] = g.share
        for child, k in zip(g.children, kids):
            if child.total <= 0:
                child.reason = "empty branch"
        stack.extend(zip(g.children[::-1], kids[::-1].tolist()))
    return order
