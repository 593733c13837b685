"""The tree builder: split search, partitioning and the three growth orders.

How the search is vectorised
----------------------------
A *batch* is a set of nodes searched together.  For every feature ``f`` the
batch holds ``P[f]``: the node's sample ids, grouped node after node and, inside
each node, sorted by ``X[:, f]``.  One cumulative sum of the per-sample
statistics along ``P[f]`` then gives the left-child statistics of *every*
threshold of *every* node in the batch, and the criterion's proxy scores them
all at once.  Splitting a node is a stable partition of ``P[f]`` (left samples
first), so the children stay sorted and nothing is ever sorted again.

Depth-first and breadth-first growth without a leaf budget search a whole
level per batch (one pass per feature per level); best-first growth, and
depth-first growth with a leaf budget, search the two children of each split
as they are created.  Node ids follow each order's convention (pre-order for
depth-first, creation order otherwise), exactly as scikit-learn numbers them.
"""

import heapq

import numpy as np

from ._criteria import EPSILON, split_information

FEATURE_THRESHOLD = np.float32(1e-7)
CHUNK_ELEMENTS = 1 << 17

#: Why a node is a leaf.  Index 0 means "not a leaf".
STOP_REASONS = (
    "",
    "max_depth",
    "min_samples_split",
    "min_samples_leaf",
    "min_weight_fraction_leaf",
    "pure",
    "no valid split",
    "min_impurity_decrease",
    "leaf budget",
)
_R = {name: i for i, name in enumerate(STOP_REASONS)}


class Problem:
    """The fit's data and settings, shared by every batch.

    ``X`` is float32 and feature-major (``X[f]`` is one contiguous column);
    ``stats`` holds the criterion's per-sample statistics, shape (d, n), last
    row the weight w.
    Only rows with positive weight are here.
    """

    def __init__(self, X, stats, y, w, criterion, *, max_depth, min_samples_split,
                 min_samples_leaf, min_weight_leaf, max_features, splitter,
                 min_impurity_decrease, weight_total, rng):
        self.X = X
        self.stats = stats
        self.y = y
        self.w = w
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_leaf = min_weight_leaf
        self.max_features = max_features
        self.random_splitter = splitter == "random"
        self.min_impurity_decrease = min_impurity_decrease
        self.weight_total = weight_total
        self.rng = rng
        self.n_features, self.n_samples = X.shape
        self.go_left = np.zeros(self.n_samples, dtype=bool)
        self.unit_weights = bool(np.all(w == 1.0))
        if criterion.is_classification:
            k = criterion.n_classes
            self.codes = y.astype(np.int8 if k < 128 else np.int32)

    def cumulative(self, p, starts, sizes, node_stats, n_left):
        """Running sums of the per-sample statistics along sample orders ``p``
        (one row per feature), restarted at each node's first position: shape
        (d,) + p.shape, entry [:, r, i] holding the statistics of the samples from its node's start up to i.

        Gathering small class codes instead of float statistics keeps the
        random reads cheap; with unit weights the counts are exact integers,
        so each node's restart is folded into the input.
        """
        d = self.stats.shape[0]
        out = np.empty((d,) + p.shape)
        later = starts[1:]
        if self.criterion.is_classification and self.unit_weights:
            codes = self.codes[p]
            for k in range(d - 2):
                v = (codes == k).astype(np.int32)
                v[..., later] -= node_stats[:-1, k].astype(np.int32)
                np.cumsum(v, axis=-1, out=out[k])
            out[-1] = n_left
            # the last class's count is what the others leave (exact integers)
            np.subtract(n_left, out[:-2].sum(axis=0), out=out[-2])
            return out
        if self.criterion.is_classification:
            codes = self.codes[p]
            w = self.w[p]
            for k in range(d - 1):
                np.cumsum(np.where(codes == k, w, 0.0), axis=-1, out=out[k])
            np.cumsum(w, axis=-1, out=out[-1])
        else:
            for k in range(d):
                np.cumsum(self.stats[k].take(p), axis=-1, out=out[k])
        if len(starts) > 1:
            before = out[..., later - 1]
            out[..., later[0]:] -= np.repeat(before, sizes[1:], axis=-1)
        return out


class Nodes:
    """Growable per-node arrays, indexed by the builder's own node ids."""

    _FIELDS = {
        "parent": (np.intp, -1),
        "depth": (np.intp, 0),
        "n": (np.intp, 0),
        "impurity": (np.float64, np.nan),
        "reason": (np.int8, 0),
        "searched": (bool, False),
        "has_split": (bool, False),
        "feature": (np.intp, -2),
        "threshold": (np.float64, np.nan),
        "gain": (np.float64, np.nan),
        "improvement": (np.float64, np.nan),
        "split_info": (np.float64, np.nan),
        "n_left": (np.intp, 0),
        "impurity_left": (np.float64, np.nan),
        "impurity_right": (np.float64, np.nan),
        "left": (np.intp, -1),
        "right": (np.intp, -1),
        "order": (np.intp, -1),  # position in the growth sequence, -1 if never split
    }

    def __init__(self, d, capacity=64):
        self.size = 0
        self.d = d
        self._cap = capacity
        for name, (dtype, fill) in self._FIELDS.items():
            setattr(self, name, np.full(capacity, fill, dtype=dtype))
        self.stats = np.zeros((capacity, d))
        self.candidates = {}  # node id -> (CandidateBlock, column)

    def _reserve(self, extra):
        need = self.size + extra
        if need <= self._cap:
            return
        cap = max(need, 2 * self._cap)
        for name, (dtype, fill) in self._FIELDS.items():
            old = getattr(self, name)
            new = np.full(cap, fill, dtype=dtype)
            new[: self.size] = old[: self.size]
            setattr(self, name, new)
        stats = np.zeros((cap, self.d))
        stats[: self.size] = self.stats[: self.size]
        self.stats = stats
        self._cap = cap

    def add(self, parent, depth, n, stats, impurity):
        k = len(n)
        self._reserve(k)
        ids = np.arange(self.size, self.size + k)
        self.size += k
        self.parent[ids] = parent
        self.depth[ids] = depth
        self.n[ids] = n
        self.stats[ids] = stats
        self.impurity[ids] = impurity
        return ids


class CandidateBlock:
    """Per-feature best splits of one searched batch: arrays shaped (F, S)."""

    __slots__ = ("evaluated", "threshold", "gain", "split_info", "n_left",
                 "weight_left", "weight_right", "impurity_left", "impurity_right",
                 "improvement", "n_node")


# --------------------------------------------------------------------------
# leaf rules
# --------------------------------------------------------------------------

def presearch_reason(prob, ids, nodes):
    """Reason code for nodes that are leaves before any search (0 = search)."""
    n = nodes.n[ids]
    w = nodes.stats[ids, -1]
    reason = np.zeros(len(ids), dtype=np.int8)
    checks = (
        (nodes.impurity[ids] <= EPSILON, "pure"),
        (w < 2 * prob.min_weight_leaf, "min_weight_fraction_leaf"),
        (n < 2 * prob.min_samples_leaf, "min_samples_leaf"),
        (n < prob.min_samples_split, "min_samples_split"),
        (nodes.depth[ids] >= prob.max_depth, "max_depth"),
    )
    # Later checks overwrite earlier ones, so the first rule in scikit-learn's
    # order (depth, split size, leaf size, weight, purity) is the one reported.
    for mask, name in checks:
        reason[mask] = _R[name]
    return reason


# --------------------------------------------------------------------------
# absolute error helpers (its impurity is not a function of sums)
# --------------------------------------------------------------------------

def sad_prefix(y, w):
    """sad[i] = min_c sum_{j<=i} w_j |y_j - c|, via two heaps (weighted median)."""
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


# --------------------------------------------------------------------------
# the search
# --------------------------------------------------------------------------

def _allowed_features(prob, constant):
    """Which features each node evaluates, shape (F, S).

    Mirrors scikit-learn's sampling without replacement: features are visited
    in a random order until ``max_features`` have been visited and at least
    one of them was not constant in the node.
    """
    F, S = constant.shape
    k = prob.max_features
    if k >= F:
        return np.ones((F, S), dtype=bool)
    order = np.argsort(prob.rng.random((S, F)), axis=1)  # visiting order per node
    nonconst = ~constant.T[np.arange(S)[:, None], order]  # (S, F) in visit order
    first_nonconst = np.where(nonconst.any(axis=1), nonconst.argmax(axis=1), F - 1)
    n_visit = np.maximum(k, first_nonconst + 1)
    visited = np.arange(F)[None, :] < n_visit[:, None]
    allowed = np.zeros((S, F), dtype=bool)
    allowed[np.arange(S)[:, None], order] = visited
    return allowed.T


def search(prob, nodes, P, starts, sizes, ids, record):
    """Find the best split of every node in the batch and store it in ``nodes``."""
    crit = prob.criterion
    X = prob.X
    F = prob.n_features
    S = len(ids)
    m = P.shape[1]
    seg = np.repeat(np.arange(S), sizes)
    ar = np.arange(m)
    n_left_all = ar - starts[seg] + 1
    n_node = nodes.n[ids]
    ok_size = (n_left_all >= prob.min_samples_leaf) & (
        n_node[seg] - n_left_all >= prob.min_samples_leaf)
    ends = starts + sizes - 1
    frange = np.arange(F)[:, None]
    x_lo = X[frange, P[:, starts]]  # (F, S) node minimum of each feature
    x_hi = X[frange, P[:, ends]]
    constant = x_hi <= x_lo + FEATURE_THRESHOLD
    allowed = _allowed_features(prob, constant)
    all_allowed = bool(allowed.all())

    stats_node = nodes.stats[ids]
    w_node = stats_node[:, -1]
    imp_node = nodes.impurity[ids]
    mwl = prob.min_weight_leaf
    d = stats_node.shape[1]

    cb = CandidateBlock()
    cb.evaluated = allowed
    cb.threshold = np.full((F, S), np.nan)
    cb.gain = np.full((F, S), np.nan)
    cb.n_left = np.zeros((F, S), dtype=np.intp)
    cb.impurity_left = np.full((F, S), np.nan)
    cb.impurity_right = np.full((F, S), np.nan)
    left_stats = np.zeros((F, S, d))
    proxy_best = np.full((F, S), -np.inf)

    node_rows = np.repeat(stats_node.T, sizes, axis=1)[:, None, :]  # (d, 1, m)
    # Features are searched in chunks: all at once on small batches (fewer
    # NumPy calls), one at a time on large ones (arrays stay in cache).
    chunk = max(1, min(F, CHUNK_ELEMENTS // max(m, 1)))
    for f0 in range(0, F, chunk):
        fs = np.arange(f0, min(F, f0 + chunk))
        fs = fs[allowed[fs].any(axis=1)]
        if not len(fs):
            continue
        p = P[fs]  # (c, m)
        x = X[fs[:, None], p]
        if all_allowed:
            valid = np.repeat(ok_size[None, :], len(fs), axis=0)
        else:
            valid = ok_size & np.repeat(allowed[fs], sizes, axis=1)
        valid[:, :-1] &= x[:, 1:] > x[:, :-1] + FEATURE_THRESHOLD
        valid[:, -1] = False
        if prob.random_splitter:
            lo = x_lo[fs].astype(np.float64)
            hi = x_hi[fs].astype(np.float64)
            draw = lo + prob.rng.random(lo.shape) * (hi - lo)
            draw = np.where(draw >= hi, lo, draw)
            n_le = np.add.reduceat((x <= draw[:, seg]).astype(np.intp), starts, axis=1)
            valid &= ar == (starts + n_le - 1)[:, seg]
        if not valid.any():
            continue
        left = prob.cumulative(p, starts, sizes, stats_node, n_left_all)  # (d, c, m)
        right = node_rows - left
        if crit.needs_samples:
            sads = [_sad_left_right(prob, row, starts, sizes) for row in p]
            proxy = np.stack([-(sl + sr[1:]) for sl, sr in sads])
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                proxy = crit.search_proxy(left, right)
        if mwl > 0:
            valid &= (left[-1] >= mwl) & (right[-1] >= mwl)
        full = np.where(valid, proxy, -np.inf)
        best = np.maximum.reduceat(full, starts, axis=1)  # (c, S)
        flat = np.flatnonzero(full == np.repeat(best, sizes, axis=1))
        ci, hit = np.divmod(flat, m)
        hs = seg[hit]
        first = np.r_[True, (hs[1:] != hs[:-1]) | (ci[1:] != ci[:-1])]
        ci, pos, s = ci[first], hit[first], hs[first]  # first best position per (feature, node)
        found_here = best[ci, s] > -np.inf  # (a node without valid split matches -inf)
        ci, pos, s = ci[found_here], pos[found_here], s[found_here]
        if not len(pos):
            continue
        f = fs[ci]
        proxy_best[f, s] = best[ci, s]
        lft, rgt = left[:, ci, pos], right[:, ci, pos]  # (d, k)
        left_stats[f, s] = lft.T
        cb.n_left[f, s] = pos - starts[s] + 1
        if crit.needs_samples:
            il = np.array([sads[c][0][q] for c, q in zip(ci, pos)]) / lft[-1]
            ir = np.array([sads[c][1][q + 1] for c, q in zip(ci, pos)]) / rgt[-1]
        else:
            il, ir = crit.impurity(lft), crit.impurity(rgt)
        cb.impurity_left[f, s] = il
        cb.impurity_right[f, s] = ir
        wt = w_node[s]
        cb.gain[f, s] = imp_node[s] - rgt[-1] / wt * ir - lft[-1] / wt * il
        if prob.random_splitter:
            cb.threshold[f, s] = draw[ci, s]
        else:
            a = x[ci, pos].astype(np.float64)
            b = x[ci, pos + 1].astype(np.float64)
            thr = a / 2.0 + b / 2.0
            cb.threshold[f, s] = np.where((thr == b) | np.isinf(thr), a, thr)

    cb.weight_left = left_stats[..., -1]
    cb.weight_right = w_node[None, :] - cb.weight_left
    cb.split_info = split_information(cb.weight_left, cb.weight_right)
    cb.improvement = w_node[None, :] / prob.weight_total * cb.gain
    cb.n_node = n_node
    found = proxy_best > -np.inf
    if crit.ranks_by_ratio:
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(found, cb.gain / cb.split_info, -np.inf)
    else:
        score = proxy_best
    best_f = np.argmax(score, axis=0)  # first feature wins exact ties
    cols = np.arange(S)
    has = found[best_f, cols]

    nodes.searched[ids] = True
    nodes.feature[ids] = np.where(has, best_f, -2)
    sel = (best_f, cols)
    nodes.threshold[ids] = cb.threshold[sel]
    nodes.gain[ids] = cb.gain[sel]
    nodes.improvement[ids] = cb.improvement[sel]
    nodes.split_info[ids] = cb.split_info[sel]
    nodes.n_left[ids] = cb.n_left[sel]
    nodes.impurity_left[ids] = cb.impurity_left[sel]
    nodes.impurity_right[ids] = cb.impurity_right[sel]
    too_small = nodes.improvement[ids] + EPSILON < prob.min_impurity_decrease
    split = has & ~too_small
    nodes.has_split[ids] = split
    nodes.reason[ids] = np.where(
        split, 0, np.where(has, _R["min_impurity_decrease"], _R["no valid split"]))
    if record:
        for col, node in enumerate(ids):
            nodes.candidates[int(node)] = (cb, col)


def _sad_left_right(prob, p, starts, sizes):
    """Prefix and suffix sums of absolute deviations within each node."""
    y, w = prob.y[p], prob.w[p]
    sad_l = np.empty(len(p))
    sad_r = np.empty(len(p) + 1)
    sad_r[-1] = 0.0
    for a, n in zip(starts, sizes):
        b = a + n
        sad_l[a:b] = sad_prefix(y[a:b], w[a:b])
        sad_r[a:b] = sad_prefix(y[a:b][::-1], w[a:b][::-1])[::-1]
    return sad_l, sad_r


# --------------------------------------------------------------------------
# partition
# --------------------------------------------------------------------------

def route(prob, nodes, P, starts, sizes, ids, split):
    """Send the samples of the nodes in ``split`` left or right (``prob.go_left``)
    and return their children's statistics, summed directly over each child's
    samples (left and right of node 0, then of node 1, ...).

    Summing over the child's own samples (rather than subtracting from the
    parent) makes a pure child's impurity exactly zero, as in scikit-learn.
    """
    seg = np.repeat(np.arange(len(ids)), sizes)
    moving = split[seg]
    p0 = P[0][moving]
    seg_m = seg[moving]
    go_left = prob.X[nodes.feature[ids][seg_m], p0] <= nodes.threshold[ids][seg_m]
    prob.go_left[p0] = go_left
    stats = prob.stats[:, p0]
    first = np.r_[0, np.cumsum(sizes[split])[:-1]]
    left = np.add.reduceat(stats * go_left, first, axis=1)
    right = np.add.reduceat(stats * ~go_left, first, axis=1)
    return np.stack([left.T, right.T], axis=1).reshape(-1, stats.shape[0])


def partition(prob, P, starts, sizes, n_left, keep_left, keep_right):
    """Stable partition of a batch's sample orders into its children.

    Uses ``prob.go_left`` from :func:`route`.  ``keep_left[s]`` /
    ``keep_right[s]`` say which children of node ``s`` go into the output batch
    (children that are already leaves are dropped).  Returns the children's
    ``P`` and sizes, shape (S, 2): left and right of each node, 0 if dropped.
    """
    n_right = sizes - n_left
    out_sizes = np.stack([np.where(keep_left, n_left, 0),
                          np.where(keep_right, n_right, 0)], axis=1)
    flat = out_sizes.ravel()
    out_starts = np.r_[0, np.cumsum(flat)[:-1]]
    P_out = np.empty((P.shape[0], int(flat.sum())), dtype=P.dtype)
    if P_out.shape[1] == 0:
        return P_out, out_sizes
    go_left = prob.go_left
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
        g = go_left[p]
        # n_l: lefts so far in this node (inclusive), via one running count
        n_l = np.cumsum(g, axis=1, dtype=np.intp)
        if len(later):
            n_l[:, later[0]:] -= np.repeat(n_l[:, later - 1], sizes[1:], axis=1)
        dest = np.where(g, left_start + n_l - 1, right_start - n_l)
        dest += (np.arange(len(p)) * total)[:, None]
        if drop_some:
            move = np.where(g, kept_left, kept_right)
            P_out[f0:f0 + chunk].reshape(-1)[dest[move]] = p[move]
        else:
            P_out[f0:f0 + chunk].reshape(-1)[dest] = p
    return P_out, out_sizes


def create_children(prob, nodes, parents, child_stats):
    """Add both children of each parent (left then right); return their ids
    and whether each must be searched (is not a leaf already)."""
    k = len(parents)
    n_l = nodes.n_left[parents]
    n_r = nodes.n[parents] - n_l
    crit = prob.criterion
    if crit.needs_samples:
        impurity = np.stack([nodes.impurity_left[parents],
                             nodes.impurity_right[parents]], axis=1).ravel()
    else:
        impurity = crit.impurity(child_stats.T)
    ids = nodes.add(
        parent=np.repeat(parents, 2),
        depth=np.repeat(nodes.depth[parents] + 1, 2),
        n=np.stack([n_l, n_r], axis=1).ravel(),
        stats=child_stats,
        impurity=impurity,
    )
    nodes.left[parents] = ids[0::2]
    nodes.right[parents] = ids[1::2]
    reason = presearch_reason(prob, ids, nodes)
    nodes.reason[ids] = reason
    return ids, reason == 0


# --------------------------------------------------------------------------
# growth orders
# --------------------------------------------------------------------------

def _root(prob, nodes, root_impurity):
    n = prob.n_samples
    ids = nodes.add(parent=np.array([-1]), depth=np.array([0]), n=np.array([n]),
                    stats=prob.stats.sum(axis=1)[None, :],
                    impurity=np.array([root_impurity]))
    P = np.argsort(prob.X, axis=1, kind="stable").astype(np.intp)
    reason = presearch_reason(prob, ids, nodes)
    nodes.reason[ids] = reason
    return ids, P, reason[0] == 0


def grow_levels(prob, nodes, root_impurity, max_splits, record):
    """Level by level (breadth-first ids).  Returns the split order."""
    ids, P, searchable = _root(prob, nodes, root_impurity)
    order = []
    if not searchable:
        return order
    sizes = np.array([prob.n_samples])
    budget = max_splits
    while len(ids):
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        search(prob, nodes, P, starts, sizes, ids, record)
        split = nodes.has_split[ids].copy()
        if budget is not None:
            over = np.flatnonzero(split)[budget:]
            split[over] = False
            nodes.reason[ids[over]] = _R["leaf budget"]
            budget -= int(split.sum())
        parents = ids[split]
        order.extend(parents.tolist())
        if not len(parents):
            break
        child_stats = route(prob, nodes, P, starts, sizes, ids, split)
        children, searchable = create_children(prob, nodes, parents, child_stats)
        keep_left = np.zeros(len(ids), dtype=bool)
        keep_right = np.zeros(len(ids), dtype=bool)
        keep_left[split] = searchable[0::2]
        keep_right[split] = searchable[1::2]
        P, out_sizes = partition(prob, P, starts, sizes, nodes.n_left[ids],
                                 keep_left, keep_right)
        out_sizes = out_sizes[split].ravel()  # aligned with children
        nonempty = out_sizes > 0
        ids = children[nonempty]
        sizes = out_sizes[nonempty]
        if budget is not None and budget <= 0:
            nodes.reason[ids] = _R["leaf budget"]
            break
    return order


def grow_nodes(prob, nodes, root_impurity, max_splits, record, best_first):
    """One node at a time: a max-heap on improvement (best-first) or a stack
    (depth-first).  Children are searched when they are created."""
    ids, P, searchable = _root(prob, nodes, root_impurity)
    order = []
    if not searchable:
        return order
    one = lambda n: (np.array([0]), np.array([n]))
    search(prob, nodes, P, *one(prob.n_samples), ids, record)
    frontier = []  # heap entries (-improvement, id) or stack of ids
    store = {}

    def push(node, P_node):
        if not nodes.has_split[node]:
            return
        store[node] = P_node
        if best_first:
            heapq.heappush(frontier, (-nodes.improvement[node], node))
        else:
            frontier.append(node)

    push(0, P)
    budget = np.inf if max_splits is None else max_splits
    while frontier:
        node = heapq.heappop(frontier)[1] if best_first else frontier.pop()
        P_node = store.pop(node)
        if budget <= 0:
            nodes.reason[node] = _R["leaf budget"]
            continue
        budget -= 1
        order.append(node)
        one_id = np.array([node])
        starts, sizes = one(P_node.shape[1])
        yes = np.array([True])
        child_stats = route(prob, nodes, P_node, starts, sizes, one_id, yes)
        children, searchable = create_children(prob, nodes, one_id, child_stats)
        P_kids, kid_sizes = partition(prob, P_node, starts, sizes, nodes.n_left[one_id],
                                      searchable[:1], searchable[1:])
        live = children[searchable]
        live_sizes = kid_sizes.ravel()[searchable]
        if len(live):
            kid_starts = np.r_[0, np.cumsum(live_sizes)[:-1]]
            search(prob, nodes, P_kids, kid_starts, live_sizes, live, record)
        pieces = dict(zip(live.tolist(), np.split(P_kids, np.cumsum(live_sizes)[:-1], axis=1)))
        # depth-first: push right first so the left child is expanded first
        for kid in (children[1], children[0]) if not best_first else children:
            if kid in pieces:
                push(int(kid), pieces[int(kid)])
    return order
