"""A batch's candidate splits and the choice among them.

Every search (numeric, C4.5's, categorical, hist, J48) fills a
:class:`CandidateBlock`: the best split of each feature in each node of the
batch.  :func:`store_best` records a numeric search's best thresholds
(a :class:`BestThresholds`) in it; :func:`choose` then picks each node's
feature and writes the split, or the reason there is none, into the nodes.
"""

from typing import NamedTuple

import numpy as np

from ._criteria import EPSILON, split_information
from ._problem import GAIN_TOLERANCE, REASON_CODE
from ._tree import MULTIWAY, NUMERIC, SUBSET


class CandidateBlock:
    """Per-feature best splits of one searched batch: arrays shaped (F, S).

    ``categorical[(f, s)]`` holds, for categorical candidates, the branch map
    (category code -> child position, -1 if absent) and each child's size,
    weight and impurity.

    J48's blocks (``dtree._j48``) also set ``j48``: a dict of (F, S) arrays
    of J48's own numbers (see ``dtree._steps.J48_COLUMNS``); other blocks leave it unset.
    A batch with forced nodes sets ``forced``: column -> the forced split's
    numbers (``dtree._forced.forced_split``).
    """

    __slots__ = ("evaluated", "kind", "threshold", "gain", "split_info", "n_left", "n_right",
                 "weight_left", "weight_right", "impurity_left", "impurity_right",
                 "improvement", "n_node", "missing_child", "missing_fraction",
                 "categorical", "eligible", "j48", "forced")


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


class BestThresholds(NamedTuple):
    """The best threshold a numeric search found for some (feature, node)
    pairs of a batch, one entry per pair: what :func:`store_best` records
    (scikit-learn's SplitRecord, for many pairs at once)."""

    #: the feature (a row of the CandidateBlock)
    feature: np.ndarray
    #: the node (a column of the batch)
    node: np.ndarray
    #: the last position of the left side in the feature's order ``P[feature]``
    position: np.ndarray
    #: the statistics (d, pairs) of the left side's known rows
    left: np.ndarray
    #: the statistics (d, pairs) of the node, of its known rows when ``c45``
    total: np.ndarray
    #: the weight of the node's rows whose value is known
    known_weight: np.ndarray
    #: how many of the node's rows have a known value, and a missing one
    n_known: np.ndarray
    n_missing: np.ndarray
    #: the feature's values at ``position`` and ``position + 1``
    lower: np.ndarray
    upper: np.ndarray
    #: where the missing values go left (scikit-learn's second pass)
    missing_left: np.ndarray
    #: Quinlan's missing-value rule: the gain is the known rows' gain times
    #: their weight fraction, and the children are counted as grown
    c45: bool
    #: whether the searched features had missing values: a threshold after
    #: the last known value then means "known left, missing right" (+inf)
    missing_here: bool
    #: the children's impurities, when the criterion needs the samples
    #: (absolute error); None: computed from ``left`` and ``total``
    impurity_left: np.ndarray | None = None
    impurity_right: np.ndarray | None = None
    #: the drawn thresholds (splitter="random"); None: halfway between the values
    random_threshold: np.ndarray | None = None


def store_best(prob, b, cb, best):
    """Record the thresholds ``best`` (a :class:`BestThresholds`) of batch
    ``b`` in its CandidateBlock ``cb``: each pair's gain, children's sizes,
    weights and impurities, threshold and the side its missing values take."""
    f, s, q, lft, total = best.feature, best.node, best.position, best.left, best.total
    c45, n_miss, u2 = best.c45, best.n_missing, best.missing_left
    il, ir = best.impurity_left, best.impurity_right
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
    n_l = q - starts[s] + 1 + np.where(u2, n_miss, 0)
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
        cb.n_left[f, s] = n_l + n_miss
        cb.n_right[f, s] = best.n_known - n_l + n_miss
    else:
        cb.weight_left[f, s] = lft[-1]
        cb.weight_right[f, s] = rgt[-1]
        cb.n_left[f, s] = n_l
        cb.n_right[f, s] = n_r
    cb.split_info[f, s] = split_information(lft[-1], rgt[-1])
    cb.missing_fraction[f, s] = 1.0 - wt / b.w_node[s] if c45 else 1.0 - (
        best.known_weight / b.w_node[s])
    if best.random_threshold is not None:
        cb.threshold[f, s] = best.random_threshold
    else:
        lo_v, hi_v = (v.astype(np.float64) for v in (best.lower, best.upper))
        if prob.bin_bounds is not None:  # halfway between the two bins
            lower, upper = prob.bin_bounds
            lo_v = upper[f, np.nan_to_num(lo_v).astype(np.intp)].astype(np.float64)
            hi_v = lower[f, np.nan_to_num(hi_v).astype(np.intp)].astype(np.float64)
        thr = lo_v / 2.0 + hi_v / 2.0
        thr = np.where((thr == hi_v) | np.isinf(thr), lo_v, thr)
        if best.missing_here:
            thr = np.where((q == starts[s] + best.n_known - 1) & ~u2, np.inf, thr)
        cb.threshold[f, s] = thr
    no_missing = n_miss == 0
    missing_child = np.where(lft[-1] >= rgt[-1], 0, 1) if c45 else np.where(u2, 0, 1)
    cb.missing_child[f, s] = np.where(no_missing, np.where(n_l > n_r, 0, 1), missing_child)


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
        split, 0, np.where(has, REASON_CODE["min_impurity_decrease"],
                           REASON_CODE["no valid split"]))
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
