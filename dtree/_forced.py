"""Forced splits during growth: the nodes ``forced_splits`` names are split
as given, top-down, and every other node as usual.

The builders register the root's :class:`~dtree._forced_spec.ForcedNode`
(:func:`start`) and each forced node's forced children when they are made
(:func:`mark_children`); a forced node is searched like any other (its
candidate table and the gain of the algorithm's own choice are kept), then
:func:`apply` replaces the search's choice with the forced split, computed
on the node's rows by the rules the search uses (scikit-learn's side for
missing values, or C4.5's fractional rows).  What only the rows can tell is
refused here, naming the node: a side without rows, a node too small to be
split, a child below ``min_samples_leaf`` or ``min_weight_fraction_leaf``.
"""

import numpy as np

from ._criteria import split_information
from ._errors import CodedError
from ._median import mean_absolute_deviation
from ._problem import SIZE_TOLERANCE
from ._tree import MULTIWAY, NUMERIC, SUBSET


def start(prob, nodes):
    """Register the forced root (node 0) of a new growth."""
    if prob.forced is not None:
        nodes.forced_spec[0] = prob.forced
        nodes.forced[0] = True


def mark_children(nodes, parents, ids, n_kids):
    """Register the forced children of the split ``parents`` (their children
    are ``ids``, ``n_kids`` each, in branch order)."""
    first = np.cumsum(n_kids) - n_kids
    for parent, at in zip(parents.tolist(), first.tolist()):
        spec = nodes.forced_spec.get(parent)
        if spec is None:
            continue
        if spec.kind == MULTIWAY:
            branch = nodes.branch_of_code[parent]
            below = [(int(branch[code]), sub) for code, sub in spec.branches.items()]
        else:
            below = list(enumerate(spec.children))
        for position, sub in below:
            if sub is not None:
                kid = int(ids[at + position])
                nodes.forced_spec[kid] = sub
                nodes.forced[kid] = True


def check_presearch(prob, ids, nodes, reason):
    """A forced node is searched whatever made it a leaf before its search
    (a pure node may be split), unless it is too small to be split."""
    forced = np.flatnonzero(nodes.forced[ids])
    for i in forced.tolist():
        node = int(ids[i])
        n = float(nodes.count[node])
        if n + SIZE_TOLERANCE < prob.min_samples_split:
            raise CodedError("forced_min_samples_split", node=nodes.forced_spec[node].path,
                             n=_num(n), min=prob.min_samples_split)
        reason[i] = 0


def _num(v):
    """A size as a message shows it: whole rows as an int."""
    return int(v) if float(v).is_integer() else round(float(v), 4)


def _group_stats(prob, e, group, k):
    """The statistics (k, d) of the entries ``e`` of ``prob`` summed by
    ``group`` (classification from the class codes and weights, which
    every problem keeps; regression from the per-row statistics)."""
    crit = prob.criterion
    if crit.is_classification:
        K = crit.n_classes
        out = np.empty((k, K + 1))
        w = prob.w[e]
        out[:, :K] = np.bincount(group * K + prob.codes[e], weights=w,
                                 minlength=k * K).reshape(k, K)
        out[:, K] = np.bincount(group, weights=w, minlength=k)
        return out
    stats = prob.stats
    return np.stack([np.bincount(group, weights=stats[j].take(e), minlength=k)
                     for j in range(stats.shape[0])], axis=1)


def _branches(prob, spec, x, known):
    """Each entry's child position (-1: missing), the branch map of a
    categorical split and the number of children."""
    if spec.kind == NUMERIC:
        slot = np.where(x <= spec.threshold, 0, 1)
        slot[~known] = -1
        return slot, None, 2
    f = spec.feature
    C = max(int(prob.n_categories[f]), 1)
    codes = np.where(known, x, 0).astype(np.intp)
    present = np.flatnonzero(np.bincount(codes[known], minlength=C) > 0)
    branch = np.full(C, -1, dtype=np.intp)
    if spec.kind == SUBSET:
        branch[present] = np.where(np.isin(present, spec.left_codes), 0, 1)
        k = 2
    else:
        if len(present) < 2:
            raise CodedError("forced_one_category", node=spec.path, name=spec.name,
                             n=len(present))
        for code in spec.branches:
            if code not in present:
                raise CodedError("forced_empty_side", node=spec.path, name=spec.name,
                                 side=f'"{spec.labels[code]}"')
        branch[present] = np.arange(len(present))
        k = len(present)
    slot = branch[codes]
    slot[~known] = -1
    return slot, branch, k


def _side(spec, branch, position):
    if spec.kind != MULTIWAY:
        return ("left", "right")[position]
    code = int(np.flatnonzero(branch == position)[0])
    return f'"{spec.labels[code]}"'


def _check_sizes(prob, spec, branch, n_rows, sizes, weights):
    """Refuse a forced split that leaves a child without rows or below the
    size rules (``n_rows``: rows reaching each child; ``sizes``: what the
    size rules count, fractions under C4.5's rule)."""
    for rule, bad in (("empty", n_rows == 0),
                      ("msl", sizes < prob.min_samples_leaf - SIZE_TOLERANCE),
                      ("mwl", weights < prob.min_weight_leaf)):
        hit = np.flatnonzero(bad)
        if not len(hit):
            continue
        c = int(hit[0])
        side = _side(spec, branch, c)
        if rule == "empty":
            raise CodedError("forced_empty_side", node=spec.path, name=spec.name, side=side)
        if rule == "msl":
            raise CodedError("forced_min_samples_leaf", node=spec.path, side=side,
                             n=_num(sizes[c]), min=prob.min_samples_leaf)
        raise CodedError("forced_min_weight_leaf", node=spec.path, side=side,
                         weight=float(weights[c]), min=float(prob.min_weight_leaf))


def _impurities(prob, stats, e, child):
    """Each child's impurity: from its statistics, or from its rows'
    targets when the criterion needs them (absolute error)."""
    crit = prob.criterion
    if not crit.needs_samples:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(crit.impurity(stats.T), dtype=np.float64)
    return np.array([mean_absolute_deviation(prob.y[e[child == c]], prob.w[e[child == c]])
                     for c in range(len(stats))])


def forced_split(prob, b, s, spec):
    """The numbers of the forced split ``spec`` of column ``s`` of batch
    ``b``: a dict with the fields :func:`apply` writes and the candidate
    table shows."""
    e = b.P[0, b.starts[s]:b.starts[s] + b.sizes[s]]
    x = prob.X[spec.feature].take(e)
    known = ~np.isnan(x)
    slot, branch, k = _branches(prob, spec, x, known)
    frac = np.ones(len(e)) if prob.frac is None else prob.frac[e]
    w_node = float(b.w_node[s])
    kn = np.flatnonzero(known)
    known_stats = _group_stats(prob, e[kn], slot[kn], k)
    n_known = np.bincount(slot[kn], minlength=k)
    size_known = np.bincount(slot[kn], weights=frac[kn], minlength=k)
    miss = np.flatnonzero(~known)
    n_miss = len(miss)
    out = dict(feature=spec.feature, kind=spec.kind, branch=branch,
               threshold=spec.threshold if spec.kind == NUMERIC else float("nan"))
    if prob.c45_missing and n_miss:
        # Quinlan's rule: the gain of the known rows times their weight
        # fraction; a missing row goes down every branch with its share
        known_tot = known_stats.sum(axis=0)
        w_known = known_tot[-1]
        share = known_stats[:, -1] / w_known
        grown_w = known_stats[:, -1] * (w_node / w_known)
        sizes = size_known + frac[miss].sum() * share
        _check_sizes(prob, spec, branch, n_known, sizes, grown_w)
        imp = _impurities(prob, known_stats, e[kn], slot[kn])
        gain = (float(prob.criterion.impurity(known_tot))
                - float(np.sum(known_stats[:, -1] / w_known * imp))) * (w_known / w_node)
        missing_child = int(np.argmax(known_stats[:, -1])) if k > 2 else (
            0 if known_stats[0, -1] >= known_stats[1, -1] else 1)
        out.update(n_children=n_known + n_miss, w_children=grown_w,
                   missing_fraction=1.0 - w_known / w_node)
    else:
        # scikit-learn's rule: the missing rows go to one side, the one of
        # larger gain (right on a tie), among the sides the size rules allow
        miss_stats = _group_stats(prob, e[miss], np.zeros(n_miss, dtype=np.intp), 1)[0]
        best, failure = None, None
        for to in ([None] if not n_miss else [1, 0]):
            stats, n_c, sizes = known_stats.copy(), n_known.copy(), size_known.copy()
            child = slot.copy()
            if to is not None:
                stats[to] += miss_stats
                n_c[to] += n_miss
                sizes[to] += frac[miss].sum()
                child[miss] = to
            try:
                _check_sizes(prob, spec, branch, n_c, sizes, stats[:, -1])
            except CodedError as exc:
                failure = failure or exc
                continue
            imp = _impurities(prob, stats, e, child)
            gain = float(b.imp_node[s]) - float(np.sum(stats[:, -1] / w_node * imp))
            if best is None or gain > best[0]:
                if to is None:
                    to = (int(np.argmax(stats[:, -1])) if k > 2
                          else (0 if n_c[0] > n_c[1] else 1))
                best = (gain, to, n_c, stats[:, -1], imp)
        if best is None:
            raise failure
        gain, missing_child, n_c, w_c, imp = best
        out.update(n_children=n_c, w_children=w_c,
                   missing_fraction=float(miss_stats[-1] / w_node) if n_miss else 0.0)
    q = known_stats[:, -1]
    if k == 2:
        split_info = float(split_information(q[0], q[1]))
    else:
        p = q / q.sum()
        split_info = float(-np.sum(p * np.log2(p)))
    out.update(gain=gain, missing_child=missing_child, impurity_children=imp,
               split_info=split_info, improvement=w_node / prob.weight_total * gain)
    return out


def apply(prob, nodes, b, cb, record):
    """Replace the search's choice at the batch's forced nodes by their
    forced split; keep the gain of the search's choice in ``best_gain``."""
    for s, node in enumerate(b.ids.tolist()):
        spec = nodes.forced_spec.get(node)
        if spec is None:
            continue
        split = forced_split(prob, b, s, spec)
        nodes.best_gain[node] = nodes.gain[node] if nodes.feature[node] >= 0 else np.nan
        nodes.feature[node] = split["feature"]
        nodes.kind[node] = split["kind"]
        nodes.threshold[node] = split["threshold"]
        nodes.missing_child[node] = split["missing_child"]
        nodes.gain[node] = split["gain"]
        nodes.improvement[node] = split["improvement"]
        nodes.split_info[node] = split["split_info"]
        nodes.has_split[node] = True
        nodes.reason[node] = 0
        if split["branch"] is None:
            nodes.branch_of_code.pop(node, None)
        else:
            nodes.branch_of_code[node] = split["branch"]
        if record:
            if getattr(cb, "forced", None) is None:
                cb.forced = {}
            cb.forced[s] = split
