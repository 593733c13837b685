"""Fitting on a Dask DataFrame or Dask array, ``splitter="hist"``.

Histograms add up: a node's histogram is a sum over its rows, so the sum of
the histograms of each partition's rows is the histogram of the whole table.
The tree is grown on the driver by dtree._grow's level-by-level loop and
dtree._hist's search, exactly as in memory; only the per-row work runs in
the partitions (one task per partition, on Dask's workers):

* binning: the driver computes each feature's bins from the rows the
  in-memory binning reads (all rows up to ``SAMPLE_ROWS``, else the same
  seeded sample of row indices), then each partition bins its own rows and
  keeps the codes (persisted where they are); only each bin's smallest and
  largest value and the class counts or target sums come back;
* histograms: each partition sums its rows' statistics per (node, feature,
  bin); the driver adds the partitions' (nodes, F, B, d + 1) arrays, derives
  the larger sibling by subtraction as in memory, and searches;
* routing: each partition sends its rows of a split node left or right (on
  the bin codes: a threshold lies between two bins' training values) and
  keeps each row's child; only the children's counts and sums come back.

Batches of small nodes (fewer than ``HistGrower.SORT_BELOW`` rows a node on
average) are searched in memory by sorting their rows by bin; here those
nodes' rows (bin codes and target, nothing else) are gathered to the
driver and searched by the same code, which keeps the tree identical.
With a depth limit on a large table no level gets there; a tree grown
without one gathers much of the table at its deepest levels.

With integer class counts (classification) every sum is exact and the tree
is the in-memory hist tree, bit for bit.  A regression target's sums are
added in another order (partition by partition), so with a non-integer
target they may differ in the last bits.

Dask is imported only here, and only when a Dask collection is fitted.
"""

import warnings
from types import SimpleNamespace

import numpy as np

from . import _grow, _hist
from ._criteria import make_criterion
from ._hist import Binned, HistGrower


def is_dask_collection(obj):
    """Whether ``obj`` is a Dask collection (without importing Dask)."""
    return hasattr(obj, "__dask_graph__") and hasattr(obj, "__dask_keys__")


# --------------------------------------------------------------------------
# the driver
# --------------------------------------------------------------------------

def fit(est, X, y, sample_weight=None):
    """``est.fit(X, y)`` for a Dask DataFrame or array ``X`` (see the module
    docstring); returns ``est``."""
    from ._classes import _used_bins

    _refuse(est, sample_weight)
    import dask

    Xa, ya, names = _as_dask_arrays(X, y)
    n, F = (int(s) for s in Xa.shape)
    parts_x = Xa.to_delayed().ravel()
    parts_y = ya.to_delayed().ravel()
    offsets = np.r_[0, np.cumsum(Xa.chunks[0])[:-1]].astype(np.int64)
    est._setup = setup = est._resolve_algorithm()
    est._x_dtype = np.float32
    est._check_hist(setup)
    if n < 2:
        raise ValueError(f"Cannot grow a tree from 1 sample (n_samples = {n}); "
                         "at least 2 samples are needed.")
    max_bins = int(est.max_bins)
    params = est._resolve_params(n, F, float(n), False)
    if not (params["growth"] == "breadth_first"
            or (params["growth"] == "depth_first" and params["max_splits"] is None)):
        raise ValueError("A Dask input grows its tree level by level: max_leaf_nodes "
                         "needs growth='breadth_first', and growth='best_first' is not "
                         "supported.")

    # 1. the rows the in-memory binning reads: all of them, or the same sample
    if n > _hist.SAMPLE_ROWS:
        rows = np.sort(np.random.default_rng(0).choice(n, _hist.SAMPLE_ROWS, replace=False))
        xs = Xa[rows].compute()
    else:
        xs = Xa.compute()
    plans = [_hist.numeric_plan(np.sort(c[~np.isnan(c)]), max_bins)
             for c in np.ascontiguousarray(xs.T)]
    del xs

    # 2. per partition: is every value in its feature's value list; NaN,
    # infinity; the target's labels or checks
    clf = est._is_classifier
    summaries = dask.compute(*[dask.delayed(_survey_part)(xb, yb, plans, clf)
                               for xb, yb in zip(parts_x, parts_y)])
    if any(s["inf"] for s in summaries):
        raise ValueError("Input X contains infinity or a value too large for float32.")
    has_missing = any(s["nan"] for s in summaries)
    use_values = np.all([s["hit"] for s in summaries], axis=0)
    _check_missing(est, setup, has_missing)
    if clf:
        labels = np.concatenate([s["labels"] for s in summaries])
        est._encode_target(labels)  # sets classes_ and n_classes_ (sorted labels)
        classes = est.classes_
    else:
        _check_regression_target(est, summaries)
        classes = None

    # 3. bin every partition (kept where it is), bring back bin bounds and totals
    n_bins = max_bins + 1
    spec = type(est)(**est.get_params())  # parameters only, to make statistics
    prepared = dask.persist(*[
        dask.delayed(_prepare_part)(xb, yb, int(off), plans, use_values, n_bins, spec,
                                    classes)
        for xb, yb, off in zip(parts_x, parts_y, offsets)])
    parts = [p[0] for p in prepared]
    bounds = dask.compute(*[p[1] for p in prepared])
    lower = np.min([b[0] for b in bounds], axis=0)
    upper = np.max([b[1] for b in bounds], axis=0)
    empty = lower > upper
    lower[empty] = upper[empty] = np.nan
    totals = _add([b[2] for b in bounds])

    if names is not None:
        est.feature_names_in_ = names
    est._fitted_setup(F, names, np.zeros(F, dtype=bool), [None] * F, params, setup)
    est.bin_lower_ = [_used_bins(lower[f]) for f in range(F)]
    est.bin_upper_ = [_used_bins(upper[f]) for f in range(F)]

    crit = make_criterion(setup["criterion"], getattr(est, "n_classes_", 0),
                          classification=clf)
    d = len(totals)
    prob = _DriverProblem(
        np.empty((F, 0), dtype=np.float32), np.empty((d, 0)),
        np.empty(0, dtype=np.intp if clf else np.float64), np.empty(0), crit,
        max_depth=params["max_depth"], min_samples_split=params["min_samples_split"],
        min_samples_leaf=params["min_samples_leaf"],
        min_weight_leaf=params["min_weight_leaf"], max_features=params["max_features"],
        splitter="hist", min_impurity_decrease=float(est.min_impurity_decrease),
        weight_total=float(n), rng=est._rng(), categorical=est.is_categorical_,
        n_categories=[0] * F, multiway=False, missing=setup["missing"],
        average_gain=setup["average_gain"], quinlan=False)
    prob.n_samples = n
    prob.has_missing = has_missing
    prob.totals = totals
    dtype = np.uint8 if n_bins <= 256 else np.uint16
    binned = Binned(np.empty((F, 0), dtype=dtype), lower.astype(np.float32),
                    upper.astype(np.float32), n_bins)
    prob.hist = DaskGrower(binned, prob, parts, spec)
    nodes = _grow.Nodes(prob.n_stats)
    record = bool(est.record_candidates)
    order = _grow.grow_levels(prob, nodes, float(crit.impurity(totals)),
                              params["max_splits"], record)
    est.tree_, est.steps_ = est._assemble(nodes, order, params["growth"], crit, prob)
    if est.ccp_alpha > 0:
        from ._pruning import ccp_prune

        est.unpruned_tree_ = est.tree_
        est.tree_ = ccp_prune(est.tree_, float(est.ccp_alpha))
    return est


def _refuse(est, sample_weight):
    if est.splitter != "hist":
        raise ValueError(f"A Dask DataFrame or array is fitted with splitter='hist' only "
                         f"(got splitter={est.splitter!r}): the other splitters sort "
                         "every feature's rows in memory.")
    if sample_weight is not None:
        raise ValueError("sample_weight is not supported with a Dask input yet.")
    if getattr(est, "class_weight", None) is not None:
        raise ValueError("class_weight is not supported with a Dask input yet.")
    if getattr(est, "categorical_features", None) not in (None, "auto"):
        raise ValueError("categorical_features: a Dask input is numeric only.")


def _as_dask_arrays(X, y):
    """X as a float32 Dask array chunked by rows only, y aligned with it, and
    X's column names (a DataFrame's) or None."""
    import dask.array as da

    names = None
    if hasattr(X, "columns") and hasattr(X, "dtypes"):  # a Dask DataFrame
        for col, dt in X.dtypes.items():
            # (a bool column is categorical in memory: categorical_features="auto")
            if getattr(dt, "kind", "O") not in "iuf":
                raise ValueError(
                    f"Column {col!r} has dtype {dt}: a Dask DataFrame must have numeric "
                    "columns only (categorical, bool and text columns are not supported; "
                    "encode them as numbers first).")
        cols = list(X.columns)
        if all(isinstance(c, str) for c in cols):
            names = np.asarray(cols, dtype=object)
        X = X.astype(np.float32).to_dask_array(lengths=True)
    elif not isinstance(X, da.Array):
        raise ValueError(f"Expected a Dask DataFrame or Dask array; got {type(X).__name__}.")
    if X.ndim != 2:
        raise ValueError(f"Expected a 2D array; got {X.ndim}D.")
    if X.dtype.kind not in "biuf":
        raise ValueError(f"X has dtype {X.dtype}: a Dask array must be numeric.")
    X = X.astype(np.float32).rechunk({1: -1})
    if hasattr(y, "to_dask_array"):  # a Dask Series
        with warnings.catch_warnings():  # string labels become an object array
            warnings.simplefilter("ignore", UserWarning)
            y = y.to_dask_array(lengths=True)
    elif not isinstance(y, da.Array):
        y = da.from_array(np.asarray(y), chunks=(X.chunks[0],))
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows and y has shape {y.shape}.")
    return X, y.rechunk((X.chunks[0],)), names


def _check_missing(est, setup, has_missing):
    if has_missing and setup["missing"] == "error":
        raise ValueError("X has missing values, and missing='error' refuses them. Use "
                         "missing='cart' (they go to the better side), or fill them in.")


def _check_regression_target(est, summaries):
    if not all(s["finite"] for s in summaries):
        raise ValueError("Input y contains NaN or infinity.")
    if not np.isfinite(sum(s["sum_sq"] for s in summaries)):
        raise ValueError("The target values are too large: sums of y**2 overflow double "
                         "precision. Rescale y.")
    if est.criterion == "poisson":
        if min(s["min"] for s in summaries) < 0:
            raise ValueError("Some value(s) of y are negative which is not allowed for "
                             "Poisson regression.")
        if sum(s["sum"] for s in summaries) <= 0:
            raise ValueError("Sum of y is not positive which is necessary for Poisson "
                             "regression.")


def _add(arrays):
    """The partitions' arrays added up, in partition order."""
    total = np.array(arrays[0], dtype=np.result_type(*arrays))
    for a in arrays[1:]:
        total += a
    return total


class _DriverProblem(_grow.Problem):
    """The fit's settings on the driver, without rows (they stay in the
    partitions): ``totals`` are the root's statistics, summed there."""

    def total_stats(self):
        return self.totals


class DaskGrower(HistGrower):
    """dtree._hist's search, with histograms, routing and small nodes' rows
    computed in the partitions.  Each partition keeps, next to its bin
    codes, each row's ``tag`` (its child at the last routing, -1 for a row
    whose node is a leaf); ``tag_pos`` maps tags to positions in the current
    batch of nodes (the order of dtree._grow's ``ids``)."""

    def __init__(self, binned, prob, parts, spec):
        super().__init__(binned, prob)
        self.parts = parts
        self.spec = spec
        self.tags = [None] * len(parts)  # None: every row at the root
        self.tag_pos = np.zeros(1, dtype=np.intp)
        self.router = _DaskRouter(self)
        self.position = {}

    def root_rows(self, n):
        return np.zeros((1, 0), dtype=np.intp)  # the rows are in the partitions

    def _tasks(self, fn, *args):
        import dask

        return [dask.delayed(fn)(part, tag, self.tag_pos, *args)
                for part, tag in zip(self.parts, self.tags)]

    def search(self, prob, nodes, P, starts, sizes, ids, record):
        self.position = {node: s for s, node in enumerate(ids.tolist())}
        super().search(prob, nodes, P, starts, sizes, ids, record)

    def histograms(self, prob, nodes, p, starts, sizes, ids):
        """HistGrower.histograms, the direct ones summed over the partitions."""
        import dask

        S = len(ids)
        parents = nodes.parent[ids]
        sibling = self.derived_from(nodes, sizes, ids)
        direct = sibling < 0
        k = int(direct.sum())
        slot_of_pos = np.full(len(self.position), -1, dtype=np.intp)
        at = [self.position[int(node)] for node in ids[direct].tolist()]
        slot_of_pos[at] = np.arange(k)
        clf = prob.criterion.is_classification
        sums = dask.compute(*self._tasks(_hist_part, slot_of_pos, k, self.binned.n_bins,
                                         self.channels, clf, self.spec))
        out = np.empty((S, self.binned.lower.shape[0], self.binned.n_bins, self.channels))
        out[direct] = _add(sums)
        for s in np.flatnonzero(~direct):
            np.subtract(self.store[int(parents[s])], out[sibling[s]], out=out[s])
        for parent in set(parents.tolist()):
            self._drop(parent)
        return out

    def _search_sorted(self, prob, nodes, P, starts, sizes, ids, record):
        """HistGrower._search_sorted on the batch's rows, gathered: each
        node's rows in row order, as in memory."""
        import dask

        for parent in set(nodes.parent[ids].tolist()):
            self._drop(parent)
        got = dask.compute(*self._tasks(_gather_part))
        pos = np.concatenate([g[0] for g in got])
        row = np.concatenate([g[1] for g in got])
        first = np.lexsort((row, pos))
        codes = np.concatenate([g[2] for g in got], axis=1)[:, first]
        y = np.concatenate([g[3] for g in got])[first]
        assert np.array_equal(np.bincount(pos, minlength=len(ids)), sizes)
        m = len(y)
        seg = np.repeat(np.arange(len(ids), dtype=np.int64), sizes)
        order = np.argsort(seg[None, :] * self.binned.n_bins + codes, axis=1, kind="stable")
        values = codes.astype(np.float32)
        values[codes == self.binned.missing_bin] = np.nan
        sub = object.__new__(type(prob))
        sub.__dict__.update(prob.__dict__)
        sub.hist = None
        sub.X = values
        sub.bin_bounds = (self.binned.lower, self.binned.upper)
        sub.y = y
        sub.w = np.ones(m)
        sub.n_samples = m
        sub.slot = np.zeros(m, dtype=np.int32)
        if prob.criterion.is_classification:
            sub.codes = y.astype(prob.codes.dtype)
            sub._stats = lambda: np.ascontiguousarray(self.spec._sample_stats(y, sub.w).T)
        else:
            sub._stats = np.ascontiguousarray(self.spec._sample_stats(y, sub.w).T)
        _grow.search(sub, nodes, order, starts, sizes, ids, record)


class _DaskRouter:
    """Routing for DaskGrower: each partition sends its rows of the split
    nodes to a child and keeps the children as its new tags; the children's
    counts and statistics are summed on the driver."""

    def __init__(self, grower):
        self.grower = grower
        self.parts = None
        self.counts = None

    def route(self, prob, nodes, P, starts, sizes, ids, split):
        import dask

        g = self.grower
        idx = np.flatnonzero(split)
        J = len(idx)
        rank = np.full(len(ids), -1, dtype=np.intp)
        rank[idx] = np.arange(J)
        feature = nodes.feature[ids[idx]].astype(np.intp)
        B = g.binned.n_bins
        # a threshold lies between two bins' training values, so a node's
        # row goes left exactly when its bin's largest value is <= threshold
        left = np.zeros((J, B), dtype=bool)
        with np.errstate(invalid="ignore"):
            left[:, :B - 1] = (g.binned.upper[feature]
                               <= nodes.threshold[ids[idx]][:, None])
        left[:, B - 1] = nodes.missing_child[ids[idx]] == 0
        routed = dask.persist(*g._tasks(_route_part, rank, feature, left, prob.n_stats,
                                        prob.criterion.is_classification, g.spec))
        sums = dask.compute(*[r[1] for r in routed])
        counts = _add([s[0] for s in sums]).astype(np.intp)
        stats = _add([s[1] for s in sums])
        known_w = _add([s[2] for s in sums])
        g.tags = [r[0] for r in routed]
        parent_known = np.repeat(known_w[0::2] + known_w[1::2], 2)
        share = np.divide(known_w, parent_known, out=np.zeros(2 * J),
                          where=parent_known > 0)
        self.parts = True  # dtree._grow.partition asks this router
        self.counts = counts
        return _grow.Children(np.full(J, 2), counts, stats, share)

    def partition(self, keep):
        """The kept non-empty children become the next batch."""
        kept = keep & (self.counts > 0)
        self.grower.tag_pos = np.where(kept, np.cumsum(kept) - 1, -1)
        self.parts = None
        return np.zeros((1, 0), dtype=np.intp)


# --------------------------------------------------------------------------
# the partitions (one task each; plain NumPy in, small arrays out)
# --------------------------------------------------------------------------

def _survey_part(xb, yb, plans, clf):
    x = np.asarray(xb, dtype=np.float32)
    hit = []
    for f, plan in enumerate(plans):
        if plan is None or plan.values is None:
            hit.append(False)
            continue
        c = x[:, f]
        hit.append(_hist.bin_by_values(plan.values, c, np.isnan(c))[1])
    out = dict(nan=bool(np.isnan(x).any()), inf=bool(np.isinf(x).any()), hit=hit)
    if clf:
        out["labels"] = np.unique(np.asarray(yb))
    else:
        yv = np.asarray(yb, dtype=np.float64)
        with np.errstate(over="ignore", invalid="ignore"):
            out.update(finite=bool(np.isfinite(yv).all()), sum=float(yv.sum()),
                       sum_sq=float((yv * yv).sum()), min=float(yv.min(initial=np.inf)))
    return out


def _prepare_part(xb, yb, offset, plans, use_values, n_bins, spec, classes):
    """Bin one partition: (the kept partition, (bins' smallest and largest
    values, the statistics' totals))."""
    X = np.ascontiguousarray(np.asarray(xb, dtype=np.float32).T)
    F, m = X.shape
    codes = np.empty((F, m), dtype=np.uint8 if n_bins <= 256 else np.uint16)
    lower = np.full((F, n_bins - 1), np.inf, dtype=np.float32)
    upper = np.full((F, n_bins - 1), -np.inf, dtype=np.float32)
    for f, plan in enumerate(plans):
        x = X[f]
        missing = np.isnan(x)
        if plan is None:
            b = np.zeros(m, dtype=np.intp)
        elif use_values[f]:
            b = _hist.bin_by_values(plan.values, x, missing)[0]
        else:
            b = _hist.bin_by_quantiles(plan, x)
        known = ~missing
        codes[f] = np.where(known, b, n_bins - 1)
        np.minimum.at(lower[f], b[known], x[known])
        np.maximum.at(upper[f], b[known], x[known])
    if classes is not None:
        y = np.searchsorted(classes, np.asarray(yb)).astype(
            np.int8 if len(classes) < 128 else np.int32)
        totals = np.r_[np.bincount(y, minlength=len(classes)), m].astype(float)
    else:
        y = np.asarray(yb, dtype=np.float64)
        totals = spec._sample_stats(y, np.ones(m)).sum(axis=0)
    return dict(codes=codes, y=y, offset=offset), (lower, upper, totals)


def _positions(part, tag, tag_pos):
    """Each row's position in the current batch (-1: not in it)."""
    if tag is None:
        return np.zeros(len(part["y"]), dtype=np.intp)
    return np.where(tag >= 0, tag_pos[np.maximum(tag, 0)], -1)


def _hist_part(part, tag, tag_pos, slot_of_pos, k, n_bins, channels, clf, spec):
    """The partition's histograms (k, F, B, channels) of the nodes whose
    ``slot_of_pos`` is >= 0, summed by HistGrower._direct itself."""
    pos = _positions(part, tag, tag_pos)
    slot = np.where(pos >= 0, slot_of_pos[np.maximum(pos, 0)], -1)
    rows = np.flatnonzero(slot >= 0)
    y = part["y"]
    local = SimpleNamespace(unit_weights=True, codes=y, w=None,
                            criterion=SimpleNamespace(is_classification=clf))
    if not clf:
        local.stats = spec._sample_stats(y, np.ones(len(y))).T
    grower = SimpleNamespace(binned=SimpleNamespace(codes=part["codes"], n_bins=n_bins),
                             channels=channels)
    return HistGrower._direct(grower, local, rows, slot[rows], k)


def _route_part(part, tag, tag_pos, rank, feature, left, d, clf, spec):
    """(each row's child, or -1; the children's (counts, statistics, known
    weights)) for the rows of the split nodes (``rank`` >= 0)."""
    pos = _positions(part, tag, tag_pos)
    j = np.where(pos >= 0, rank[np.maximum(pos, 0)], -1)
    moving = np.flatnonzero(j >= 0)
    j = j[moving]
    code = part["codes"][feature[j], moving]
    child = 2 * j + ~left[j, code]
    new_tag = np.full(len(pos), -1, dtype=np.int32)
    new_tag[moving] = child
    total = 2 * len(feature)
    counts = np.bincount(child, minlength=total)
    y = part["y"][moving]
    if clf:
        K = d - 1
        by_class = np.bincount(child * K + y, minlength=total * K).reshape(total, K)
        stats = np.column_stack([by_class, counts]).astype(np.float64)
    else:
        st = spec._sample_stats(y, np.ones(len(y)))
        stats = np.stack([np.bincount(child, weights=st[:, c], minlength=total)
                          for c in range(d)], axis=1)
    missing_bin = left.shape[1] - 1
    known_w = np.bincount(child, weights=(code != missing_bin).astype(float), minlength=total)
    return new_tag, (counts, stats, known_w)


def _gather_part(part, tag, tag_pos):
    """The batch's rows: (position, global row index, bin codes, target)."""
    pos = _positions(part, tag, tag_pos)
    rows = np.flatnonzero(pos >= 0)
    return pos[rows], rows + part["offset"], part["codes"][:, rows], part["y"][rows]
