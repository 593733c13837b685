"""The tree builders: the three growth orders.

Depth-first and breadth-first growth without a leaf budget search a whole
level per batch (one pass per feature per level, :func:`grow_levels`);
best-first growth, and depth-first growth with a leaf budget, search the
children of each split as they are created (:func:`grow_nodes`).  Node ids
follow each order's convention (pre-order for depth-first, creation order
otherwise), exactly as scikit-learn numbers them.

Under C4.5's missing-value rule rows appear in several nodes with
fractional weights, so that mode grows on per-node copies of the rows
(:func:`grow_weighted`).
"""

import heapq
from collections import deque

import numpy as np

from . import _forced
from ._c45_search import Workspace
from ._median import mean_absolute_deviation
from ._partition import Children, branch_slots, n_branches, partition, route
from ._problem import REASON_CODE, Nodes, presearch_reason
from ._search import search


def create_children(prob, nodes, parents, kids):
    """Add the children of each parent (consecutive ids, branch order);
    return their ids and whether each must be searched (is not a leaf yet)."""
    if kids.impurity is None:
        impurity = prob.criterion.impurity(kids.stats.T)
    else:
        impurity = kids.impurity
    ids = nodes.add(
        parent=np.repeat(parents, kids.n_kids),
        depth=np.repeat(nodes.depth[parents] + 1, kids.n_kids),
        n=kids.counts,
        stats=kids.stats,
        impurity=impurity,
        count=kids.count,
    )
    nodes.first_child[parents] = ids[np.cumsum(kids.n_kids) - kids.n_kids]
    nodes.n_children[parents] = kids.n_kids
    nodes.share[ids] = kids.share
    if nodes.forced_spec:
        _forced.mark_children(nodes, parents, ids, kids.n_kids)
    reason = _presearch(prob, ids, nodes)
    nodes.reason[ids] = reason
    if prob.hist is not None:
        prob.hist.children_created(parents, kids.n_kids, reason == 0)
    return ids, reason == 0


def _presearch(prob, ids, nodes):
    """:func:`presearch_reason`, with forced nodes searched (or refused)."""
    reason = presearch_reason(prob, ids, nodes)
    if nodes.forced_spec:
        _forced.check_presearch(prob, ids, nodes, reason)
    return reason


def _root(prob, nodes, root_impurity):
    n = prob.n_samples
    ids = nodes.add(parent=np.array([-1]), depth=np.array([0]), n=np.array([n]),
                    stats=prob.total_stats()[None, :],
                    impurity=np.array([root_impurity]))
    _forced.start(prob, nodes)
    if prob.hist is not None:  # histograms need the rows grouped by node, not sorted
        P = prob.hist.root_rows(n)
    else:
        P = sample_orders(prob.X)
    reason = _presearch(prob, ids, nodes)
    nodes.reason[ids] = reason
    return ids, P, reason[0] == 0


def sample_orders(X):
    """Each feature's row order, ``(F, n)``: ``argsort`` row by row (NaN
    sorts last; ties in any fixed order), kept as int32 when the rows allow,
    so the orders take half the memory of ``np.argsort(X, axis=1)``."""
    F, n = X.shape
    P = np.empty((F, n), dtype=np.int32 if n < np.iinfo(np.int32).max else np.intp)
    for f in range(F):
        P[f] = np.argsort(X[f])
    return P


def grow_levels(prob, nodes, root_impurity, max_splits, record):
    """Level by level (breadth-first ids).  Returns the split order."""
    ids, P, searchable = _root(prob, nodes, root_impurity)
    order = []
    if not searchable:
        return order
    sizes = np.array([prob.n_samples])
    budget = max_splits
    if budget is not None and prob.forced is not None:
        # forced splits are always made: the budget left is for the others
        budget -= sum(1 for _ in prob.forced.walk())
    while len(ids):
        starts = np.cumsum(sizes) - sizes
        search(prob, nodes, P, starts, sizes, ids, record)
        split = nodes.has_split[ids].copy()
        if budget is not None:
            free = split & ~nodes.forced[ids]
            over = np.flatnonzero(free)[budget:]
            split[over] = False
            nodes.reason[ids[over]] = REASON_CODE["leaf budget"]
            budget -= int(free.sum()) - len(over)
        parents = ids[split]
        order.extend(parents.tolist())
        if not len(parents):
            break
        kids = route(prob, nodes, P, starts, sizes, ids, split)
        children, searchable = create_children(prob, nodes, parents, kids)
        P, out_sizes = partition(prob, P, starts, sizes, split, kids, searchable)
        nonempty = out_sizes > 0
        ids = children[nonempty]
        sizes = out_sizes[nonempty]
        if budget is not None and budget <= 0:
            pending = nodes.forced[ids]  # forced splits still to make
            nodes.reason[ids[~pending]] = REASON_CODE["leaf budget"]
            if not pending.any():
                break
            P = P[:, np.repeat(pending, sizes)]
            ids, sizes = ids[pending], sizes[pending]
    return order


class _Frontier:
    """Nodes waiting to be split: a max-heap on improvement (best-first), a
    stack (depth-first) or a queue (breadth-first).

    Forced nodes wait in a queue of their own and leave first, top-down.
    Depth-first growth then goes on from the open nodes in pre-order
    (``preorder``: a node's key in pre-order), as it would have reached them.
    """

    def __init__(self, growth, preorder=None):
        self.growth = growth
        self.items = []
        self.head = 0
        self.forced = deque()
        self.preorder = preorder
        self.after_forced = False

    def push(self, node, improvement, forced=False):
        if forced:
            self.forced.append(node)
            self.after_forced = True
        elif self.growth == "best_first":
            heapq.heappush(self.items, (-improvement, node))
        else:
            self.items.append(node)

    def pop(self):
        if self.forced:
            return self.forced.popleft()
        if self.after_forced:
            self.after_forced = False
            if self.growth == "depth_first":  # the stack's top: the first in pre-order
                self.items.sort(key=self.preorder, reverse=True)
        if self.growth == "best_first":
            return heapq.heappop(self.items)[1]
        if self.growth == "depth_first":
            return self.items.pop()
        self.head += 1
        return self.items[self.head - 1]

    def __bool__(self):
        return bool(self.forced) or len(self.items) > (
            self.head if self.growth == "breadth_first" else 0)


def _path(nodes, node):
    """The child positions from the root down to ``node``: sorting by it
    lists nodes in pre-order."""
    out = []
    parent = nodes.parent[node]
    while parent >= 0:
        out.append(int(node - nodes.first_child[parent]))
        node, parent = parent, nodes.parent[parent]
    return out[::-1]


def grow_nodes(prob, nodes, root_impurity, max_splits, record, growth):
    """One node at a time.  Children are searched when they are created."""
    ids, P, searchable = _root(prob, nodes, root_impurity)
    order = []
    if not searchable:
        return order
    one = lambda n: (np.array([0]), np.array([n]))
    search(prob, nodes, P, *one(prob.n_samples), ids, record)
    frontier = _Frontier(growth, lambda node: _path(nodes, node))
    store = {}

    def push(node, P_node):
        if nodes.has_split[node]:
            store[node] = P_node
            frontier.push(node, nodes.improvement[node], nodes.forced[node])

    push(0, P)
    budget = np.inf if max_splits is None else max_splits
    yes = np.array([True])
    while frontier:
        node = frontier.pop()
        P_node = store.pop(node)
        if budget <= 0:
            nodes.reason[node] = REASON_CODE["leaf budget"]
            continue
        budget -= 1
        order.append(node)
        one_id = np.array([node])
        starts, sizes = one(P_node.shape[1])
        kids = route(prob, nodes, P_node, starts, sizes, one_id, yes)
        children, searchable = create_children(prob, nodes, one_id, kids)
        P_kids, kid_sizes = partition(prob, P_node, starts, sizes, yes, kids, searchable)
        live = children[searchable]
        live_sizes = kid_sizes[searchable]
        if len(live):
            search(prob, nodes, P_kids, np.cumsum(live_sizes) - live_sizes, live_sizes,
                   live, record)
        pieces = dict(zip(live.tolist(), np.split(P_kids, np.cumsum(live_sizes)[:-1], axis=1)))
        # a stack pops the last pushed: push in reverse so the first child is split first
        for kid in (children[::-1] if growth == "depth_first" else children):
            if int(kid) in pieces:
                push(int(kid), pieces[int(kid)])
    return order


def grow_weighted(prob, nodes, root_impurity, max_splits, record, growth):
    """C4.5's missing-value rule: each node is searched on its own copy of its
    rows, where a row with a missing value for a split feature has gone down
    every branch with a share of its weight.

    A node's split depends only on its own rows, so the whole tree is grown
    level by level, every node of a level searched and routed in one batch
    (:func:`_grow_weighted_levels`); the growth order (node ids, split
    order, leaf budget) is then replayed on the grown nodes
    (:func:`_replay`).  Random feature draws (``max_features``, the random
    splitter) and absolute error keep the node-by-node growth, whose draws
    follow the growth order.
    """
    if (prob.max_features < prob.n_features or prob.random_splitter
            or prob.criterion.needs_samples):
        return _grow_weighted_nodes(prob, nodes, root_impurity, max_splits, record, growth)
    grown = Nodes(nodes.d)
    _grow_weighted_levels(prob, grown, root_impurity, record)
    return _replay(grown, nodes, max_splits, growth)


def _grow_weighted_levels(prob, nodes, root_impurity, record):
    """Every split of the C4.5 tree, level by level (breadth-first ids)."""
    n = prob.n_samples
    ids = nodes.add(parent=np.array([-1]), depth=np.array([0]), n=np.array([n]),
                    stats=prob.total_stats()[None, :],
                    impurity=np.array([root_impurity]))
    _forced.start(prob, nodes)
    reason = _presearch(prob, ids, nodes)
    nodes.reason[ids] = reason
    if reason[0]:
        return
    ids, samples, weights, sizes = ids, np.arange(n), prob.w.copy(), np.array([n])
    root_order = np.argsort(prob.X, axis=1, kind="stable")  # missing last
    rank = _root_ranks(root_order)
    prob.workspace = Workspace()  # every level's search reuses its arrays
    while len(ids):
        starts = np.cumsum(sizes) - sizes
        sub = prob.subproblem(samples, weights)
        P = _level_orders(root_order, samples, sizes, rank)
        search(sub, nodes, P, starts, sizes, ids, record)
        split = nodes.has_split[ids]
        if not split.any():
            break
        ids, samples, weights, sizes = _route_weighted(prob, nodes, ids, samples, weights,
                                                       sizes, split)


def _root_ranks(root_order):
    """Each row's position in each feature's root order, shape (F, n)."""
    F, n = root_order.shape
    rank = np.empty((F, n), dtype=np.int64)
    ar = np.arange(n, dtype=np.int64)
    for f in range(F):
        rank[f, root_order[f]] = ar
    return rank


def _level_orders(root_order, samples, sizes, rank=None):
    """Each node's entries sorted by each feature (missing last, ties in row
    order), shape (F, len(samples)), from the rows' order at the root.

    A row appears at most once in a node, so (node, the row's position in
    the root order) is a unique key: with ``rank`` (:func:`_root_ranks`)
    each entry's key and its own index are packed into one 64-bit integer
    and sorted, which is faster than the radix sort below.  When the three
    numbers do not fit in 63 bits, the entries are listed in the rows' root
    order, then grouped by node with a stable sort on small integers."""
    n = root_order.shape[1]
    total = len(samples)
    if total == n and np.array_equal(samples, np.arange(n)):  # the root
        return root_order.copy()
    node_bits = max(int(len(sizes) - 1).bit_length(), 1)
    rank_bits = max(int(n - 1).bit_length(), 1)
    entry_bits = max(int(total - 1).bit_length(), 1)
    if rank is not None and node_bits + rank_bits + entry_bits <= 63:
        node_of = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        high = node_of << (rank_bits + entry_bits)
        high |= np.arange(total, dtype=np.int64)
        mask = (1 << entry_bits) - 1
        P = np.empty((root_order.shape[0], total), dtype=np.intp)
        for f in range(root_order.shape[0]):
            key = rank[f].take(samples)
            key <<= entry_bits
            key |= high
            key.sort()
            np.bitwise_and(key, mask, out=P[f])
        return P
    by_row = np.argsort(samples, kind="stable")  # a row's entries, together
    count = np.bincount(samples, minlength=n)
    row_start = np.cumsum(count) - count
    node_of = np.repeat(np.arange(len(sizes)), sizes)
    node_of = node_of.astype(np.uint16 if len(sizes) < 1 << 16 else np.int64)
    P = np.empty((root_order.shape[0], total), dtype=np.intp)
    for f, rows in enumerate(root_order):
        c = count[rows]
        first = np.repeat(row_start[rows], c)
        within = np.arange(total) - np.repeat(np.cumsum(c) - c, c)
        entries = by_row[first + within]  # in root order
        P[f] = entries[np.argsort(node_of[entries], kind="stable")]
    return P


def _route_weighted(prob, nodes, ids, samples, weights, sizes, split):
    """Create the children of the split nodes of a level; return the next
    level: the searchable children, their rows and weights (the known rows
    of each branch in order, then the rows with a missing value, each with
    the branch's share of its weight) and their sizes."""
    seg = np.repeat(np.arange(len(ids)), sizes)
    moving = split[seg]
    seg, samples, weights = seg[moving], samples[moving], weights[moving]
    parents = ids[split]
    where = np.full(len(ids), -1)
    where[split] = np.arange(len(parents))
    seg = where[seg]  # index among the split nodes
    slot, known = branch_slots(prob, samples, nodes, parents[seg], resolve_missing=False)
    n_kids = n_branches(nodes, parents)
    offset = np.cumsum(n_kids) - n_kids
    total = int(n_kids.sum())
    known_w = np.bincount(offset[seg[known]] + slot[known], weights=weights[known],
                          minlength=total)
    if n_kids.max() <= 2:  # a + b, as .sum() adds two values
        parent_known = np.add.reduceat(known_w, offset)
    else:
        parent_known = np.array([known_w[a:a + k].sum() for a, k in zip(offset, n_kids)])
    share = known_w / np.repeat(parent_known, n_kids)
    # the known rows go to their branch, the missing ones to every branch
    miss = np.flatnonzero(~known)
    reps = n_kids[seg[miss]]
    rep = np.repeat(miss, reps)
    within = np.arange(len(rep)) - np.repeat(np.cumsum(reps) - reps, reps)
    rep_child = np.repeat(offset[seg[miss]], reps) + within
    child = np.concatenate([offset[seg[known]] + slot[known], rep_child])
    entry = np.concatenate([np.flatnonzero(known), rep])
    w = np.concatenate([weights[known], weights[rep] * share[rep_child]])
    by_child = np.argsort(child, kind="stable")
    child, entry, w = child[by_child], entry[by_child], w[by_child]
    positive = w > 0
    child, entry, w = child[positive], entry[positive], w[positive]
    rows = samples[entry]
    counts = np.bincount(child, minlength=total)
    frac = w / prob.w[rows]
    if prob.criterion.is_classification:
        # a row's class statistic is its weight, the others 0: the same sums
        # (the zeros left out) from one count by (child, class)
        k = prob.n_stats - 1
        wf = prob.w[rows] * frac
        stats = np.empty((total, k + 1))
        stats[:, :k] = np.bincount(child * k + prob.codes[rows], weights=wf,
                                   minlength=total * k).reshape(total, k)
        stats[:, k] = np.bincount(child, weights=wf, minlength=total)
    else:
        stats = np.stack([np.bincount(child, weights=prob.stats[j][rows] * frac,
                                      minlength=total) for j in range(prob.stats.shape[0])],
                         axis=1)
    kids = Children(n_kids, counts, stats, share)
    kids.count = np.bincount(child, weights=frac, minlength=total)
    children, searchable = create_children(prob, nodes, parents, kids)
    keep = searchable & (counts > 0)
    take = keep[child]
    return children[keep], rows[take], w[take], counts[keep]


def _replay(grown, nodes, max_splits, growth):
    """Number the nodes of a fully grown tree as ``growth`` creates them
    (children with consecutive ids when their parent is split) and return
    the split order; with a leaf budget, the nodes split beyond it stay
    leaves ("leaf budget") and their children are never created."""
    old_of = [0]  # final id -> id in ``grown``
    order, over = [], []
    frontier = _Frontier(growth, lambda node: _path(grown, old_of[node]))
    if grown.has_split[0]:
        frontier.push(0, grown.improvement[0], grown.forced[0])
    budget = np.inf if max_splits is None else max_splits
    first, n_kids, has_split = grown.first_child, grown.n_children, grown.has_split
    while frontier:
        node = frontier.pop()
        if budget <= 0:
            over.append(node)
            continue
        budget -= 1
        order.append(node)
        t0, k = int(first[old_of[node]]), int(n_kids[old_of[node]])
        kid0 = len(old_of)
        old_of.extend(range(t0, t0 + k))
        ready = [kid0 + i for i in range(k) if has_split[t0 + i]]
        # a stack pops the last pushed: push in reverse so the first child is split first
        for kid in (ready[::-1] if growth == "depth_first" else ready):
            frontier.push(kid, grown.improvement[old_of[kid]], grown.forced[old_of[kid]])
    old = np.array(old_of)
    new_of = np.full(grown.size, -1)
    new_of[old] = np.arange(len(old))
    nodes._reserve(len(old))
    nodes.size = len(old)
    for name in list(Nodes._FIELDS) + ["stats", "share"]:
        getattr(nodes, name)[:len(old)] = getattr(grown, name)[old]
    nodes.parent[:len(old)] = np.where(old > 0, new_of[grown.parent[old]], -1)
    split = np.zeros(len(old), dtype=bool)
    split[order] = True
    nodes.first_child[:len(old)] = np.where(split, new_of[np.maximum(grown.first_child[old], 0)],
                                            -1)
    nodes.n_children[:len(old)] = np.where(split, grown.n_children[old], 0)
    nodes.reason[over] = REASON_CODE["leaf budget"]
    nodes.branch_of_code = {int(new_of[o]): v for o, v in grown.branch_of_code.items()
                            if new_of[o] >= 0}
    nodes.candidates = {int(new_of[o]): v for o, v in grown.candidates.items()
                        if new_of[o] >= 0}
    return order


def _grow_weighted_nodes(prob, nodes, root_impurity, max_splits, record, growth):
    """:func:`grow_weighted` node by node, in the growth order."""
    ids, _, searchable = _root(prob, nodes, root_impurity)
    order = []
    if not searchable:
        return order
    entries = {0: (np.arange(prob.n_samples), prob.w.copy())}
    frontier = _Frontier(growth, lambda node: _path(nodes, node))

    def evaluate(node):
        samples, weights = entries[node]
        sub = prob.subproblem(samples, weights)
        P = np.argsort(sub.X, axis=1)
        search(sub, nodes, P, np.array([0]), np.array([len(samples)]), np.array([node]),
               record)
        if not nodes.has_split[node]:
            del entries[node]
        return bool(nodes.has_split[node])

    if evaluate(0):
        frontier.push(0, nodes.improvement[0], nodes.forced[0])
    budget = np.inf if max_splits is None else max_splits
    while frontier:
        node = frontier.pop()
        samples, weights = entries.pop(node)
        if budget <= 0:
            nodes.reason[node] = REASON_CODE["leaf budget"]
            continue
        budget -= 1
        order.append(node)
        slot, known = branch_slots(prob, samples, nodes, np.full(len(samples), node),
                                   resolve_missing=False)
        k = int(n_branches(nodes, [node])[0])
        known_w = np.bincount(slot[known], weights=weights[known], minlength=k)
        share = known_w / known_w.sum()
        miss_s, miss_w = samples[~known], weights[~known]
        child_entries = []
        for c in range(k):
            mine = known & (slot == c)
            cs = np.concatenate([samples[mine], miss_s])
            cw = np.concatenate([weights[mine], miss_w * share[c]])
            child_entries.append((cs[cw > 0], cw[cw > 0]))
        stats = np.stack([(prob.stats[:, s] * (w / prob.w[s])).sum(axis=1)
                          for s, w in child_entries])
        impurity = None
        if prob.criterion.needs_samples:
            impurity = np.array([mean_absolute_deviation(prob.y[s], w) for s, w in child_entries])
        kids = Children(np.array([k]), np.array([len(s) for s, _ in child_entries]), stats,
                        share, impurity)
        # the size rules read sums of row fractions (a row split 0.3/0.7 counts 0.3 here)
        kids.count = np.array([float(np.sum(w / prob.w[s])) for s, w in child_entries])
        children, searchable = create_children(prob, nodes, np.array([node]), kids)
        ready = []
        for kid, ok, entry in zip(children.tolist(), searchable, child_entries):
            if ok:
                entries[kid] = entry
                if evaluate(kid):
                    ready.append(kid)
        # a stack pops the last pushed: push in reverse so the first child is split first
        for kid in (ready[::-1] if growth == "depth_first" else ready):
            frontier.push(kid, nodes.improvement[kid], nodes.forced[kid])
    return order
