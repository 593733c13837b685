"""The exact split search on sparse ``X``, in memory that grows with the
non-zeros (plugged into the builders of dtree._builders as ``Problem.hist``).

How it works
------------
The rows stay grouped by node (one order, ``P`` of shape (1, m), as for the
histogram splitter), so routing and partitioning are the exact splitter's
own, on that one order.  The search gathers the stored entries of the
batch's rows (each row's entries from the row-major arrays), and sorts them
by (feature, node, value) with one sort of packed integer keys: the value
order comes from each entry's rank in its column, sorted once per fit.

Within a (feature, node) *group* the node's rows that store nothing for the
feature all hold 0.  They sit between the negative and the positive values
and share one value, so no threshold goes between them: they enter the
running sums as one element, the *zero block*, whose statistics are the
node's minus the group's entries'.  A group is then searched exactly as the
dense search searches a node's sorted rows (thresholds between distinct
values, the same size and weight rules, scikit-learn's proxy, the first
best threshold), and a (feature, node) without entries is a constant
feature.  So the tree is the one grown from the dense array, with work and
memory in the non-zeros: O(nnz) per batch, not O(rows x features).

The absolute-error criterion needs every row's y in order (running
medians), so there a group's zero block is written out row by row: one
feature of one node at a time, O(rows) as scikit-learn's sparse splitter.

A batch of many nodes is searched in blocks of nodes, so that a candidate
block (features x nodes) stays small; the random feature draws are made
block after block, which is the same stream as one draw for the batch.
"""

from types import SimpleNamespace

import numpy as np

from ._candidates import BestThresholds, choose, new_candidate_block, store_best
from ._errors import CodedError
from ._median import sad_left_right
from ._problem import FEATURE_THRESHOLD, running_sum
from ._search import allowed_features

#: A batch is searched in blocks of at most this many (feature, node) pairs
#: (one node at least): the candidate block's arrays stay a few MB.
BLOCK_PAIRS = 1 << 16
#: Groups are scored in chunks of about this many elements x statistics.
CHUNK_ELEMENTS = 1 << 21


def attach(prob, rows):
    """Make ``prob`` (a :class:`dtree._problem.Problem` made with an empty
    (F, 0) ``X``) fit the sparse rows ``rows`` (a :class:`SparseRows`)."""
    prob.X = rows.T  # routing reads X.take(feature * n + row)
    prob.n_samples = rows.shape[0]
    prob.slot = np.zeros(prob.n_samples, dtype=np.int32)
    prob.has_missing = False
    prob.hist = SparseGrower(rows)


class _ExactRouting:
    """Routing and partitioning left to dtree._partition (on the one order)."""

    parts = None

    def route(self, *args):
        return None


class SparseGrower:
    """The search of :mod:`dtree._sparse_search`, with the hooks the builders
    call on ``Problem.hist``."""

    def __init__(self, rows):
        n, F = rows.shape
        keys = rows.keys
        col = keys % F
        by_value = np.lexsort((rows.values, col))  # column, then value
        index = np.int32 if max(n, len(keys)) < np.iinfo(np.int32).max else np.int64
        self.sorted_rows = (keys[by_value] // F).astype(index)
        self.sorted_values = rows.values[by_value]
        self.sorted_cols = col[by_value].astype(np.int32)
        self.col_start = np.searchsorted(self.sorted_cols, np.arange(F + 1))
        rank = np.empty(len(keys), dtype=index)
        rank[by_value] = np.arange(len(keys), dtype=index)
        #: each row-major entry's position in the (column, value) order
        self.rank = rank
        self.row_start = rows.row_pointers()
        self.max_column = max(int(np.diff(self.col_start).max(initial=0)), 1)
        self.n_features = F
        self.router = _ExactRouting()
        self._where = None  # scratch: a row's position in the searched block

    def root_rows(self, n):
        """The root's rows for dtree._builders: all of them, in order."""
        return np.arange(n)[None, :]

    def children_created(self, parents, n_kids, searchable):
        pass

    def search(self, prob, nodes, P, starts, sizes, ids, record):
        """Best split of every node of the batch (the exact search's contract)."""
        S = len(ids)
        # random thresholds are drawn for the whole batch after its feature
        # draws, as the dense search draws them: one block
        per = S if prob.random_splitter else max(1, BLOCK_PAIRS // self.n_features)
        for a in range(0, S, per):
            b = min(S, a + per)
            lo, hi = starts[a], starts[b - 1] + sizes[b - 1]
            self._search_block(prob, nodes, P[0, lo:hi], starts[a:b] - lo, sizes[a:b],
                               ids[a:b], record)

    # -- one block of nodes ----------------------------------------------------

    def _entries(self, rows, sizes):
        """The block's stored entries sorted by (feature, node, value): their
        group key ``feature * S + node``, row and value."""
        S = len(sizes)
        count = self.row_start[rows + 1] - self.row_start[rows]
        total = int(count.sum())
        first = np.repeat(self.row_start[rows] - (np.cumsum(count) - count), count)
        at = self.rank[first + np.arange(total)]  # (column, value) order
        node = np.repeat(np.repeat(np.arange(S), sizes), count)
        col = self.sorted_cols[at]
        group = col.astype(np.int64) * S + node
        if self.n_features * S * self.max_column < 1 << 62:
            key = group * self.max_column + (at - self.col_start[col])
            key.sort()
            group, within = np.divmod(key, self.max_column)
            at = self.col_start[group // S] + within
        else:
            order = np.lexsort((at, group))
            group, at = group[order], at[order]
        return group, self.sorted_rows[at], self.sorted_values[at]

    def _search_block(self, prob, nodes, rows, starts, sizes, ids, record):
        S, F = len(ids), self.n_features
        group, e_row, e_val = self._entries(rows, sizes)
        head = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]) if len(group) else \
            np.zeros(0, dtype=np.intp)
        g_key = group[head]
        g_col, g_node = np.divmod(g_key, S)
        g_k = np.diff(np.r_[head, len(group)])
        has_zero = sizes[g_node] > g_k
        if prob.max_features < F:  # the draws skip constant features (scikit-learn's rule)
            lo = e_val[head]
            hi = e_val[head + g_k - 1]
            lo = np.where(has_zero, np.minimum(lo, 0), lo)
            hi = np.where(has_zero, np.maximum(hi, 0), hi)
            constant = np.ones((F, S), dtype=bool)  # no entries: every value is 0
            constant[g_col, g_node] = hi <= lo + FEATURE_THRESHOLD
        else:
            constant = np.zeros((F, S), dtype=bool)
        allowed = allowed_features(prob, constant)
        stats_node = nodes.stats[ids]
        batch = SimpleNamespace(starts=np.zeros(S, dtype=np.intp), n_node=nodes.n[ids],
                                w_node=stats_node[:, -1], imp_node=nodes.impurity[ids],
                                sizes=sizes, stats_node=stats_node)
        cb = new_candidate_block(prob, allowed, batch.n_node, np.zeros((F, S)))
        draws = None
        if prob.random_splitter:
            numeric = np.flatnonzero(allowed.any(axis=1))
            draws = np.zeros((F, S))
            draws[numeric] = prob.rng.random((len(numeric), S))
        expand = prob.criterion.needs_samples
        if expand:
            if self._where is None:
                self._where = np.zeros(prob.n_samples, dtype=np.intp)
            self._where[rows] = np.arange(len(rows))
        keep = allowed[g_col, g_node]
        weight = np.where(keep, sizes[g_node] if expand else g_k + 1, 0)
        per = max(1, CHUNK_ELEMENTS // (prob.n_stats + 4))
        chunk = (np.cumsum(weight) - 1) // per
        cuts = np.r_[0, np.flatnonzero(np.diff(chunk)) + 1, len(head)]
        for c0, c1 in zip(cuts[:-1], cuts[1:]):
            gs = np.arange(c0, c1)[keep[c0:c1]]
            if not len(gs):
                continue
            e0, e1 = head[c0], (head[c1] if c1 < len(head) else len(group))
            mine = np.repeat(keep[c0:c1], g_k[c0:c1])
            sub_head = np.cumsum(g_k[gs]) - g_k[gs]
            best = self._score(prob, batch, rows, starts, allowed, draws, expand,
                               g_col[gs], g_node[gs], g_k[gs], sub_head,
                               e_row[e0:e1][mine], e_val[e0:e1][mine])
            if best is not None:
                store_best(prob, batch, cb, best)
        choose(prob, nodes, ids, cb, batch.w_node, record)

    def _score(self, prob, batch, rows, starts, allowed, draws, expand, g_col, g_node, g_k,
               g_head, e_row, e_val):
        """The best threshold of each group (feature, node) of a chunk, as a
        :class:`BestThresholds`, or None if no group has one."""
        crit = prob.criterion
        G = len(g_col)
        n_node = batch.sizes[g_node]
        if expand:
            val, el_row, size = self._rows_written_out(rows, starts, g_node, g_k, e_row,
                                                       e_val, n_node)
            count = None
        else:
            val, el_row, count, size = _with_zero_blocks(g_k, g_head, e_val, e_row, n_node)
        start = np.cumsum(size) - size
        grp = np.repeat(np.arange(G), size)
        L = len(val)
        stats = prob.stats
        node_stats = batch.stats_node[g_node].T  # (d, G)
        el_stats = np.empty((stats.shape[0], L))
        real = el_row >= 0
        el_stats[:, real] = stats[:, el_row[real]]
        if not real.all():  # a zero block: the node's statistics less its entries'
            sums = np.add.reduceat(stats[:, e_row], g_head, axis=1)
            blocks = ~real
            owner = grp[blocks]
            el_stats[:, blocks] = node_stats[:, owner] - sums[:, owner]
        left = running_sum(el_stats, start, size)
        del el_stats
        n_left = (np.arange(L) - start[grp] + 1 if count is None
                  else running_sum(count, start, size))
        right = node_stats[:, grp] - left
        valid = np.zeros(L, dtype=bool)
        valid[:-1] = val[1:] > val[:-1] + FEATURE_THRESHOLD
        valid[start + size - 1] = False
        msl, mwl = prob.min_samples_leaf, prob.min_weight_leaf
        valid &= (n_left >= msl) & (n_node[grp] - n_left >= msl)
        if mwl > 0:
            valid &= (left[-1] >= mwl) & (right[-1] >= mwl)
        drawn = None
        if draws is not None:
            lo = val[start].astype(np.float64)
            hi = val[start + size - 1].astype(np.float64)
            drawn = lo + draws[g_col, g_node] * (hi - lo)
            drawn = np.where(drawn >= hi, lo, drawn)
            below = (val <= drawn[grp]) * (1 if count is None else count)
            valid &= n_left == np.add.reduceat(below, start)[grp]
        sad_l = sad_r = None
        if expand:
            sad_l, sad_r = sad_left_right(prob, el_row[None, :], start, size,
                                          np.ones((1, G), dtype=bool))
            proxy = -(sad_l[0] + sad_r[0, 1:])
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                proxy = crit.search_proxy(left, right)
        full = np.where(valid, proxy, -np.inf)
        best = np.maximum.reduceat(full, start)
        hit = np.flatnonzero(full == np.repeat(best, size))
        owner = grp[hit]
        first = np.r_[True, owner[1:] != owner[:-1]]
        pos = np.full(G, -1, dtype=np.intp)
        pos[owner[first]] = hit[first]
        pos[best == -np.inf] = -1
        found = np.flatnonzero(pos >= 0)
        if not len(found):
            return None
        i = pos[found]
        lft = left[:, i]
        total = node_stats[:, found]
        il = ir = None
        if expand:
            il = sad_l[0, i] / lft[-1]
            ir = sad_r[0, i + 1] / (total - lft)[-1]
        none = np.zeros(len(found), dtype=np.intp)
        return BestThresholds(
            g_col[found], g_node[found], n_left[i] - 1, lft, total, total[-1],
            n_node[found], none, val[i], val[i + 1], none.astype(bool), False, False,
            il, ir, None if drawn is None else drawn[found])

    def _rows_written_out(self, rows, starts, g_node, g_k, e_row, e_val, n_node):
        """Each group's node rows, sorted by the feature's value (0 where no
        entry is stored): values, rows and group sizes."""
        size = n_node
        start = np.cumsum(size) - size
        L = int(size.sum())
        at = np.repeat(starts[g_node] - start, size) + np.arange(L)
        el_row = rows[at]
        val = np.zeros(L, dtype=self.sorted_values.dtype)
        owner = np.repeat(np.arange(len(g_node)), g_k)
        val[start[owner] + self._where[e_row] - starts[g_node][owner]] = e_val
        order = np.lexsort((val, np.repeat(np.arange(len(g_node)), size)))
        return val[order], el_row[order].astype(np.intp), size


def _with_zero_blocks(g_k, g_head, e_val, e_row, n_node):
    """Each group's elements in value order: its negative entries, one zero
    block for the rows that store nothing (if any), its positive entries.
    Returns the values, the rows (-1 for a zero block), each element's row
    count and each group's number of elements."""
    G = len(g_k)
    zeros = n_node - g_k
    has_zero = zeros > 0
    n_neg = np.add.reduceat((e_val < 0).astype(np.intp), g_head) if G else g_k
    size = g_k + has_zero
    start = np.cumsum(size) - size
    L = int(size.sum())
    within = np.arange(len(e_val)) - np.repeat(g_head, g_k)
    past_zero = np.repeat(has_zero, g_k) & (within >= np.repeat(n_neg, g_k))
    at = np.repeat(start, g_k) + within + past_zero
    val = np.zeros(L, dtype=e_val.dtype)
    val[at] = e_val
    el_row = np.full(L, -1, dtype=np.intp)
    el_row[at] = e_row
    count = np.ones(L, dtype=np.intp)
    blocks = np.flatnonzero(has_zero)
    count[start[blocks] + n_neg[blocks]] = zeros[blocks]
    return val, el_row, count, size


def check_setup(est, setup, is_categorical):
    """Refuse what a sparse ``X`` cannot be grown with, naming why."""
    if est.splitter == "hist":
        raise CodedError("hist_refused", why="X is sparse, and bins would hold every value")
    if setup["j48"]:
        raise CodedError("sparse_refused",
                         why="algorithm='j48' grows Weka's tree from dense rows")
    if np.any(is_categorical):
        raise CodedError("sparse_refused",
                         why="categorical features are read from a table (a DataFrame)")
    if getattr(est, "forced_splits", None) is not None:
        raise CodedError("forced_refused", why="X is sparse")
