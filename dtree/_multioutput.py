"""Multi-output trees: one tree for a target ``y`` of shape (n_samples, k),
k > 1, as scikit-learn grows them.

Every node holds the statistics of all k outputs side by side, and its
impurity is the mean of the k outputs' impurities; a split is scored by the
sum of the k outputs' proxies (so a Poisson split that leaves any output
without a positive sum is refused, as in scikit-learn).  With that one
criterion (:class:`MultiOutputCriterion`) the ordinary search, partition and
builders grow the tree unchanged: the single-output path is not touched.
Only binary CART trees on numeric features are grown; what reads a single
target (Quinlan's presets, categorical features, the pruning that counts
errors) is refused by :func:`refuse`.

The estimators call :func:`is_multioutput` on ``y`` and, when it holds,
:func:`fit`; their predictions go through :func:`predict_proba`,
:func:`predict` and :func:`score` here.
"""

import numpy as np

from . import _builders, _encode, _hist, _problem, _sparse_input, _sparse_search
from ._base import (as_sample_weight, as_table, check_length, check_n_features, check_shape,
                    unique_inverse)
from ._criteria import Criterion, make_criterion
from ._errors import CodedError
from ._median import mean_absolute_deviation, node_weighted_medians


def is_multioutput(y):
    """Whether ``y`` is a dense 2-d target with other than one column
    (a column vector is one output, as in scikit-learn; sparse ``y`` is left
    to the single-output checks, which refuse it with scikit-learn's error)."""
    if y is None or (hasattr(y, "toarray") and hasattr(y, "nnz")):
        return False
    ndim = getattr(y, "ndim", None)
    shape = getattr(y, "shape", None)
    if ndim is None or shape is None:
        try:
            arr = np.asarray(y)
        except (TypeError, ValueError):  # (ragged lists: the usual checks word it)
            return False
        ndim, shape = arr.ndim, arr.shape
    return ndim == 2 and shape[1] != 1


def refuse(what, model=None, y=None):
    """Raise a ``CodedError`` naming ``what`` (a function or parameter that
    reads a single target) if ``model`` (an estimator or a ``Tree``) has
    several outputs or ``y`` has several columns."""
    outputs = getattr(model, "n_outputs_", getattr(model, "n_outputs", 1))
    if outputs > 1 or (y is not None and is_multioutput(y)):
        raise CodedError("multi_output_refused", what=what)


class MultiOutputCriterion(Criterion):
    """A criterion over k outputs: the mean of a single-output criterion's
    impurity over each output's rows of statistics, and the sum of its proxies.

    ``groups[j]`` lists the rows of output j in the statistics (its class
    counts, or its sums of y); the last row, the weight, is shared.  The
    engine reads the statistics as plain sums (``is_classification`` is
    False: there are no single class codes to count)."""

    is_classification = False
    ranks_by_ratio = False

    def __init__(self, base, groups):
        super().__init__(0)
        self.base = base
        self.groups = groups
        self.name = base.name
        self.needs_samples = base.needs_samples

    def _views(self, stats):
        return [[stats[i] for i in rows] + [stats[-1]] for rows in self.groups]

    def impurity(self, stats):
        total = 0.0
        for view in self._views(stats):
            total = total + self.base.impurity(view)
        return total / len(self.groups)

    def proxy(self, left, right):
        total = 0.0
        for lv, rv in zip(self._views(left), self._views(right)):
            total = total + self.base.proxy(lv, rv)
        return total

    def search_proxy(self, left, right):
        total = 0.0
        for lv, rv in zip(self._views(left), self._views(right)):
            total = total + self.base.search_proxy(lv, rv)
        return total


# ---------------------------------------------------------------------------
# fitting
# ---------------------------------------------------------------------------

def _refuse_settings(est, setup):
    """The settings a multi-output tree cannot have, named in the error."""
    algo = est.algorithm
    if algo is not None and algo != "cart":
        raise CodedError("multi_output_refused", what=f"algorithm={algo!r}")
    checks = (
        (setup["criterion"] == "gain_ratio", "criterion='gain_ratio'"),
        (setup["multiway"], "multiway=True"),
        (setup["missing"] == "c4.5", "missing='c4.5'"),
        (bool(setup["average_gain"]), "average_gain=True"),
    )
    for bad, what in checks:
        if bad:
            raise CodedError("multi_output_refused", what=what)


def _encode_classes(est, Y):
    """Each output's sorted labels and each row's codes, shape (n, k)."""
    codes = np.empty(Y.shape, dtype=np.intp)
    classes = []
    for j in range(Y.shape[1]):
        col = Y[:, j]
        if col.dtype.kind == "f":
            if not np.all(np.isfinite(col)):
                raise CodedError("y_not_finite")
            if np.any(col != np.round(col)):
                raise ValueError(
                    "Unknown label type: continuous-multioutput. A classifier needs "
                    "discrete class labels; use DecisionTreeRegressor for numeric targets.")
        try:
            labels, codes[:, j] = unique_inverse(col)
        except TypeError:
            raise ValueError(
                f"Unknown label type: mixed types in column {j} of y. Class labels must "
                "all be strings or all numbers.") from None
        classes.append(labels)
    est.classes_ = classes
    est.n_classes_ = np.array([len(c) for c in classes], dtype=np.intp)
    return codes


def _class_weights(est, codes):
    """The product over outputs of each row's class weight (scikit-learn's
    ``compute_sample_weight``), or None without ``class_weight``."""
    cw = est.class_weight
    if cw is None:
        return None
    n, k = codes.shape
    if isinstance(cw, dict):
        raise ValueError("For multi-output, class_weight should be a list of dicts, or the "
                         "string 'balanced'.")
    if isinstance(cw, list):
        if len(cw) != k:
            raise ValueError(
                "For multi-output, number of elements in class_weight should match number "
                f"of outputs. Got {len(cw)} element(s) while having {k} outputs.")
    elif cw != "balanced":
        raise ValueError(f"The 'class_weight' parameter of {type(est).__name__} must be "
                         f"'balanced', a list of dicts or None. Got {cw!r} instead.")
    out = np.ones(n)
    for j in range(k):
        m = int(est.n_classes_[j])
        if cw == "balanced":
            per_class = n / (m * np.bincount(codes[:, j], minlength=m))
        else:
            if not isinstance(cw[j], dict):
                raise ValueError(f"class_weight[{j}] must be a dict; got {cw[j]!r}.")
            per_class = np.ones(m)
            lookup = {c.item() if hasattr(c, "item") else c: i
                      for i, c in enumerate(est.classes_[j])}
            for label, weight in cw[j].items():
                if label not in lookup:
                    raise ValueError(f"class_weight[{j}] names label {label!r}, which is not "
                                     f"in column {j} of y.")
                per_class[lookup[label]] = weight
        out *= per_class[codes[:, j]]
    return out


def _class_stats(codes, w, n_classes):
    """Each output's weighted class indicators side by side, then w."""
    offsets = np.r_[0, np.cumsum(n_classes)]
    stats = np.zeros((len(w), offsets[-1] + 1))
    rows = np.arange(len(w))
    for j in range(codes.shape[1]):
        stats[rows, offsets[j] + codes[:, j]] = w
    stats[:, -1] = w
    groups = [list(range(offsets[j], offsets[j + 1])) for j in range(codes.shape[1])]
    return stats, groups


def _regression_stats(est, Y, w):
    """Each output's sums (those of ``est._sample_stats``, without the
    weight) side by side, then w."""
    blocks = [est._sample_stats(Y[:, j], w)[:, :-1] for j in range(Y.shape[1])]
    size = blocks[0].shape[1]
    stats = np.column_stack(blocks + [w])
    groups = [list(range(j * size, (j + 1) * size)) for j in range(Y.shape[1])]
    return stats, groups


def _target(y):
    Y = y.to_numpy() if hasattr(y, "iloc") else np.asarray(y)
    if Y.shape[1] == 0:
        raise ValueError(f"y has shape {Y.shape}: it needs at least one column.")
    return Y


def fit(est, X, y, sample_weight, dask=False):
    """Grow ``est`` (a DecisionTreeClassifier or DecisionTreeRegressor) on a
    target of several columns; the fitted attributes are scikit-learn's for
    multi-output (``n_outputs_``, per-output ``classes_`` and ``n_classes_``,
    ``tree_.value`` of shape (node_count, k, max classes)).  ``dask``: X or
    y is a Dask collection (refused)."""
    if dask:
        raise CodedError("multi_output_refused", what="Fitting a Dask collection")
    feature_names = check_n_features(est, X, reset=True)
    sparse = _sparse_input.is_sparse(X)  # searched in its non-zeros, as for one output
    if not sparse:
        X = as_table(X)
    check_shape(X)
    n_samples, n_features = X.shape
    est._setup = setup = est._resolve_algorithm()
    _refuse_settings(est, setup)
    is_cat = _encode.resolve_categorical(X, est.categorical_features, n_features, feature_names)
    if sparse:
        _sparse_search.check_setup(est, setup, is_cat)
    names = (feature_names if feature_names is not None
             else [f"x{i}" for i in range(n_features)])
    if is_cat.any():
        raise CodedError("multi_output_categorical",
                         name=str(names[int(np.flatnonzero(is_cat)[0])]))
    categories = [None] * n_features
    est._x_dtype = np.float32
    Xf = est._encode_X(X, is_cat, categories)
    if sparse and n_samples * n_features <= _sparse_input.DENSE_CELLS:
        Xf, sparse = Xf.toarray(), False
    Y = _target(y)
    k = Y.shape[1]
    if est._is_classifier:
        codes = _encode_classes(est, Y)
    else:
        Y = est._encode_target(Y)  # float64, finite, not too large, Poisson's rules
    check_length(Y, n_samples)  # (after y's own checks, in scikit-learn's order)
    if n_samples < 2:
        raise CodedError("one_sample", n_samples=n_samples)
    w = as_sample_weight(sample_weight, n_samples)
    has_weights = sample_weight is not None
    if est._is_classifier:
        class_w = _class_weights(est, codes)
        if class_w is not None:
            w, has_weights = w * class_w, True
    weight_sum = float(w.sum())
    if not weight_sum > 0:
        raise CodedError("zero_weight")
    params = est._resolve_params(n_samples, n_features, weight_sum, has_weights)
    nan_at = (np.zeros(n_features, dtype=bool) if sparse  # (read_sparse refuses NaN)
              else np.isnan(Xf).any(axis=0))
    if setup["missing"] == "error" and nan_at.any():
        code = "missing_refused" if est._is_classifier else "missing_refused_regression"
        raise CodedError(code, name=str(names[int(np.flatnonzero(nan_at)[0])]))
    if setup["criterion"] == "absolute_error" and nan_at.any():
        raise CodedError("absolute_error_missing")
    if est.splitter == "hist":
        est._check_hist(setup)
    est._fitted_setup(n_features, feature_names, is_cat, categories, params, setup)
    est.n_outputs_ = k
    forced = est._read_forced(setup, params)

    keep = w > 0  # zero-weight rows are not samples of any node
    target = codes if est._is_classifier else Y
    Xk, yk, wk = (Xf, target, w) if keep.all() else (Xf[keep], target[keep], w[keep])
    if est._is_classifier:
        stats, groups = _class_stats(yk, wk, est.n_classes_)
        base = make_criterion(setup["criterion"], int(est.n_classes_.max()),
                              classification=True)
    else:
        stats, groups = _regression_stats(est, yk, wk)
        base = make_criterion(setup["criterion"], classification=False)
    crit = MultiOutputCriterion(base, groups)
    prob = _problem.Problem(
        np.empty((n_features, 0), np.float32) if sparse else np.ascontiguousarray(Xk.T),
        np.ascontiguousarray(stats.T), yk, wk, crit,
        max_depth=params["max_depth"], min_samples_split=params["min_samples_split"],
        min_samples_leaf=params["min_samples_leaf"], min_weight_leaf=params["min_weight_leaf"],
        max_features=params["max_features"], splitter=est.splitter,
        min_impurity_decrease=float(est.min_impurity_decrease), weight_total=weight_sum,
        rng=est._rng(), categorical=is_cat, n_categories=[0] * n_features,
        multiway=False, missing=setup["missing"], average_gain=False, quinlan=False)
    prob.forced = forced
    if sparse:
        _sparse_search.attach(prob, Xk)
    if est.splitter == "hist":
        binned = _hist.bin_features(prob.X, is_cat, prob.n_categories, est.max_bins)
        prob.hist = _hist.HistGrower(binned, prob)
        est.bin_lower_ = [_hist.used_bins(binned.lower[j]) for j in range(n_features)]
        est.bin_upper_ = [_hist.used_bins(binned.upper[j]) for j in range(n_features)]
    else:
        for name in ("bin_lower_", "bin_upper_"):
            if hasattr(est, name):
                delattr(est, name)
    if crit.needs_samples:
        root_impurity = float(np.mean([mean_absolute_deviation(yk[:, j], wk)
                                       for j in range(k)]))
    else:
        root_impurity = float(crit.impurity(stats.sum(axis=0)))
    nodes = _problem.Nodes(prob.n_stats)
    del stats
    growth, max_splits = params["growth"], params["max_splits"]
    record = bool(est.record_candidates)
    if growth == "breadth_first" or (growth == "depth_first" and max_splits is None):
        order = _builders.grow_levels(prob, nodes, root_impurity, max_splits, record)
    else:
        order = _builders.grow_nodes(prob, nodes, root_impurity, max_splits, record, growth)
    est.tree_, est.steps_ = est._assemble(nodes, order, growth, crit, prob)
    est.tree_.n_outputs = k
    est.tree_.n_classes = (est.n_classes_.copy() if est._is_classifier
                           else np.ones(k, dtype=np.intp))
    est._prune_grown_tree()
    return est


def node_values(est, tree, stats, crit, prob):
    """``tree_.value`` of a multi-output tree, shape (node_count, k, C): each
    output's class fractions (C the largest number of classes, zeros beyond
    an output's own), or each output's mean (median for absolute error)."""
    groups = crit.groups
    w = stats[:, -1]
    safe = np.where(w > 0, w, 1.0)[:, None]
    if est._is_classifier:
        value = np.zeros((len(w), len(groups), int(est.n_classes_.max())))
        for j, rows in enumerate(groups):
            value[:, j, :len(rows)] = stats[:, rows] / safe
        return value
    if not crit.needs_samples:
        means = stats[:, [rows[0] for rows in groups]] / safe
        return means[:, :, None]
    leaf = tree.apply(prob.X.T)
    medians = [node_weighted_medians(leaf, tree.parent, prob.y[:, j], prob.w)
               for j in range(prob.y.shape[1])]
    return np.stack(medians, axis=1)[:, :, None]


# ---------------------------------------------------------------------------
# prediction
# ---------------------------------------------------------------------------

def predict_proba(est, X):
    """A list of k arrays, each (n_samples, n_classes_[j])."""
    proba = est.tree_.predict(est._validate_X_predict(X))
    return [proba[:, j, :int(n)] for j, n in enumerate(est.n_classes_)]


def predict(est, X):
    """Predictions of shape (n_samples, k): each output's most likely class
    (the first on a tie), or each output's value."""
    values = est.tree_.predict(est._validate_X_predict(X))
    if not est._is_classifier:
        return values[:, :, 0]
    out = np.zeros(values.shape[:2], dtype=est.classes_[0].dtype)
    for j, labels in enumerate(est.classes_):
        out[:, j] = labels.take(np.argmax(values[:, j, :len(labels)], axis=1))
    return out


def score(est, X, y, sample_weight=None):
    """Classifier: the (weighted) share of rows with every output right.
    Regressor: R² of each output, averaged (scikit-learn's default)."""
    pred = predict(est, X)
    Y = np.asarray(y)
    if Y.shape != pred.shape:
        raise ValueError(f"y has shape {Y.shape}; the tree predicts shape {pred.shape}.")
    wts = np.ones(len(Y)) if sample_weight is None else np.asarray(sample_weight, float)
    if est._is_classifier:
        return float(np.average(np.all(pred == Y, axis=1), weights=wts))
    Y = Y.astype(np.float64)
    ss_res = np.sum(wts[:, None] * (Y - pred) ** 2, axis=0)
    ss_tot = np.sum(wts[:, None] * (Y - np.average(Y, axis=0, weights=wts)) ** 2, axis=0)
    r2 = np.where(ss_tot > 0, 1.0 - ss_res / np.where(ss_tot > 0, ss_tot, 1.0),
                  np.where(ss_res == 0, 1.0, 0.0))
    return float(np.mean(r2))
