"""The split search of categorical features, from per-node contingency tables.

One branch per category present in the node (multiway: ID3, C4.5), or the
best subset of categories against the rest (binary: CART): ordered by the
mean target or the first class's share where that ordering is exact, every
subset for up to :data:`MAX_EXHAUSTIVE_CATEGORIES` categories and more than
two classes, the majority class's share beyond.
"""

import numpy as np

from ._criteria import split_information
from ._median import mean_absolute_deviation
from ._problem import SIZE_TOLERANCE


#: Categorical features with at most this many categories in a node get an
#: exhaustive subset search when there are more than two classes.
MAX_EXHAUSTIVE_CATEGORIES = 10


def search_categorical(prob, b, cb, f, allowed_f):
    """Best split of categorical feature ``f`` in every node of the batch."""
    crit = prob.criterion
    p = b.P[f]
    codes = prob.X[f][p]
    known = ~np.isnan(codes)
    C = max(int(prob.n_categories[f]), 1)
    S, d = b.S, b.d
    key = b.seg[known] * C + codes[known].astype(np.intp)
    table = np.stack([np.bincount(key, weights=prob.stats[k][p[known]], minlength=S * C)
                      for k in range(d)]).reshape(d, S, C)
    counts = np.bincount(key, minlength=S * C).reshape(S, C)
    known_tot = table.sum(axis=2)  # (d, S)
    w_known = known_tot[-1]
    n_known = counts.sum(axis=1)
    n_miss = b.sizes - n_known
    if prob.frac is not None:
        # C4.5's fractional rows: sizes are sums of fractions, and a row with a
        # missing value joins every branch with the branch's share
        sizes_c = np.bincount(key, weights=prob.frac[p[known]], minlength=S * C).reshape(S, C)
        f_miss = np.add.reduceat(prob.frac[p], b.starts) - sizes_c.sum(axis=1)
        if not prob.c45_missing:
            f_miss = np.zeros(S)
    else:
        sizes_c, f_miss = counts.astype(np.float64), np.zeros(S)
    msl, mwl = prob.min_samples_leaf, prob.min_weight_leaf
    rows_of_seg = np.split(p, b.starts[1:]) if crit.needs_samples else None
    for s in np.flatnonzero(allowed_f):
        present = np.flatnonzero(counts[s] > 0)
        if len(present) < 2:
            continue
        if prob.multiway:
            if n_miss[s] and not prob.c45_missing:
                raise ValueError(
                    "Multiway splits need missing='c4.5' when a categorical feature has "
                    "missing values.")
            sub = table[:, s, present]
            n_c, w_c = counts[s, present], sub[-1]
            q = w_c / w_known[s]
            grown_c = sizes_c[s, present] + f_miss[s] * q
            grown_w = w_c * (b.w_node[s] / w_known[s]) if prob.c45_missing else w_c
            if (grown_c < msl - SIZE_TOLERANCE).any() or (grown_w < mwl).any():
                continue
            if crit.needs_samples:
                rows = rows_of_seg[s]
                codes_s = prob.X[f][rows]
                imp_c = np.array([mean_absolute_deviation(prob.y[rows[codes_s == c]],
                                                          prob.w[rows[codes_s == c]])
                                  for c in present])
                kn = ~np.isnan(codes_s)
                parent = mean_absolute_deviation(prob.y[rows[kn]], prob.w[rows[kn]])
            else:
                imp_c = crit.impurity(sub)
                parent = crit.impurity(known_tot[:, s])
            gain = parent - float(np.sum(w_c / w_known[s] * imp_c))
            rho = w_known[s] / b.w_node[s]
            if prob.c45_missing:
                gain *= rho
            branch = np.full(C, -1, dtype=np.intp)
            branch[present] = np.arange(len(present))
            cb.gain[f, s] = gain
            cb.split_info[f, s] = -float(np.sum(q * np.log2(q)))
            cb.missing_child[f, s] = int(np.argmax(w_c))
            cb.missing_fraction[f, s] = 1.0 - rho
            # the table shows the children as grown (missing rows in each branch)
            n_grown = n_c + (n_miss[s] if prob.c45_missing else 0)
            cb.categorical[(int(f), int(s))] = (branch, n_grown, grown_w, imp_c)
            continue
        best_subset(prob, b, cb, f, s, present, table[:, s, :], counts[s], known_tot[:, s],
                     n_miss[s], rows_of_seg[s] if rows_of_seg is not None else None,
                     sizes_c[s], f_miss[s])


def _subset_candidates(prob, present, tab):
    """Left-side masks (n_candidates, len(present)) to evaluate for a binary
    split of the present categories (tab: (d, len(present)) statistics)."""
    crit = prob.criterion
    k = len(present)
    w = tab[-1]
    if not crit.is_classification:
        key = tab[0] / w  # mean target: ordering makes the search exact
    elif crit.n_classes <= 2:
        key = tab[0] / w  # proportion of the first class: exact as well
    elif k <= MAX_EXHAUSTIVE_CATEGORIES:
        # every subset containing the first category, except all of them
        bits = np.arange(2 ** (k - 1) - 1)
        rest = ((bits[:, None] >> np.arange(k - 1)[None, :]) & 1).astype(bool)
        return np.hstack([np.ones((len(bits), 1), dtype=bool), rest])
    else:
        # heuristic beyond the limit: order by the share of the node's majority class
        major = int(np.argmax(tab[:-1].sum(axis=1)))
        key = tab[major] / w
    order = np.argsort(key, kind="stable")
    masks = np.zeros((k - 1, k), dtype=bool)
    for i in range(k - 1):
        masks[i, order[:i + 1]] = True
    return masks


def best_subset(prob, b, cb, f, s, present, table_s, counts_s, known_tot, n_miss, rows,
                 sizes_s, f_miss):
    crit = prob.criterion
    msl, mwl = prob.min_samples_leaf, prob.min_weight_leaf
    tab = table_s[:, present]
    masks = _subset_candidates(prob, present, tab)
    masks = masks[masks.any(axis=1) & ~masks.all(axis=1)]
    if not len(masks):
        return
    left = tab @ masks.T.astype(float)  # (d, n_candidates)
    n_left = masks @ counts_s[present]
    size_left = masks @ sizes_s[present]  # sums of row fractions
    total = b.stats_node[s]
    miss = total - known_tot
    c45 = prob.c45_missing and n_miss > 0
    options = [(left, n_left, False)]
    if n_miss and not prob.c45_missing:
        options.append((left + miss[:, None], n_left + n_miss, True))
    best = (-np.inf, None)
    ref = known_tot if c45 else total
    n_ref = int(counts_s.sum()) if c45 else int(b.n_node[s])
    for lft, n_l, missing_left in options:
        rgt = ref[:, None] - lft
        n_r = n_ref - n_l
        if prob.frac is not None:
            # C4.5's grown children: known rows plus the missing ones by share
            share_l = lft[-1] / ref[-1] if c45 else 0.0
            size_l = size_left + f_miss * share_l
            size_r = sizes_s[present].sum() - size_left + f_miss * (1.0 - share_l)
            grow = b.w_node[s] / ref[-1] if c45 else 1.0
            ok = ((size_l >= msl - SIZE_TOLERANCE) & (size_r >= msl - SIZE_TOLERANCE)
                  & (lft[-1] * grow >= mwl) & (rgt[-1] * grow >= mwl))
        else:
            ok = (n_l >= msl) & (n_r >= msl) & (lft[-1] >= mwl) & (rgt[-1] >= mwl)
        if crit.needs_samples:
            codes_s = prob.X[f][rows]
            proxy = np.full(len(masks), -np.inf)
            for i, mask in enumerate(masks):
                in_left = np.isin(codes_s, present[mask])
                if missing_left:
                    in_left |= np.isnan(codes_s)
                yl, wl = prob.y[rows[in_left]], prob.w[rows[in_left]]
                yr, wr = prob.y[rows[~in_left]], prob.w[rows[~in_left]]
                proxy[i] = -(mean_absolute_deviation(yl, wl) * wl.sum()
                             + mean_absolute_deviation(yr, wr) * wr.sum())
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                proxy = crit.proxy(lft, rgt)
        proxy = np.where(ok, proxy, -np.inf)
        i = int(np.argmax(proxy))
        if proxy[i] > best[0]:
            best = (proxy[i], (i, lft[:, i], rgt[:, i], int(n_l[i]), missing_left))
    if best[1] is None:
        return
    i, lft, rgt, n_l, missing_left = best[1]
    if crit.needs_samples:
        codes_s = prob.X[f][rows]
        in_left = np.isin(codes_s, present[masks[i]]) | (missing_left & np.isnan(codes_s))
        il = mean_absolute_deviation(prob.y[rows[in_left]], prob.w[rows[in_left]])
        ir = mean_absolute_deviation(prob.y[rows[~in_left]], prob.w[rows[~in_left]])
        parent = b.imp_node[s]
    else:
        il, ir = float(crit.impurity(lft)), float(crit.impurity(rgt))
        parent = float(crit.impurity(ref)) if c45 else b.imp_node[s]
    wt = ref[-1]
    gain = parent - rgt[-1] / wt * ir - lft[-1] / wt * il
    if c45:
        gain *= wt / b.w_node[s]
    branch = np.full(table_s.shape[1], -1, dtype=np.intp)
    branch[present] = np.where(masks[i], 0, 1)
    n_r = n_ref - n_l
    cb.gain[f, s] = gain
    cb.split_info[f, s] = split_information(lft[-1], rgt[-1])
    cb.impurity_left[f, s] = il
    cb.impurity_right[f, s] = ir
    grow = b.w_node[s] / wt if c45 else 1.0
    cb.weight_left[f, s] = lft[-1] * grow
    cb.weight_right[f, s] = rgt[-1] * grow
    cb.n_left[f, s] = n_l + (n_miss if c45 else 0)
    cb.n_right[f, s] = n_r + (n_miss if c45 else 0)
    if n_miss == 0:
        cb.missing_child[f, s] = 0 if n_l > n_r else 1
    elif c45:
        cb.missing_child[f, s] = 0 if lft[-1] >= rgt[-1] else 1
    else:
        cb.missing_child[f, s] = 0 if missing_left else 1
    n_c = np.array([cb.n_left[f, s], cb.n_right[f, s]])
    cb.categorical[(int(f), int(s))] = (branch, n_c, np.array([cb.weight_left[f, s],
                                                               cb.weight_right[f, s]]),
                                        np.array([il, ir]))
