"""The estimators: DecisionTreeClassifier and DecisionTreeRegressor."""

import functools
import math
import numbers

import numpy as np

from . import _builders, _dask, _encode, _hist, _j48, _median, _problem
from ._base import (BaseEstimator, _not_fitted_error, as_float32_matrix, as_sample_weight,
                    as_table, as_target, check_n_features, check_shape, unique_inverse)
from ._criteria import CLASSIFICATION, REGRESSION, make_criterion
from ._errors import CodedError
from ._steps import Steps, candidate_frame, split_children
from ._tree import NUMERIC, TREE_UNDEFINED, Tree, preorder

GROWTH_ORDERS = ("depth_first", "best_first", "breadth_first")
SPLITTERS = ("best", "random", "hist")
#: splitter="hist" keeps bin codes in uint16 at most
MAX_BINS = 65535
MISSING_RULES = ("cart", "c4.5", "error")

#: What each ``algorithm`` preset sets (classifier).  ``None`` leaves the
#: individual parameters as given.
PRESETS = {
    "id3": dict(criterion="entropy", multiway=True, missing="error", average_gain=False),
    "c4.5": dict(criterion="gain_ratio", multiway=True, missing="c4.5", average_gain=True),
    "cart": dict(multiway=False, missing="cart", average_gain=False),
    # Weka's J48 (C4.5 release 8), node for node: see dtree/_j48.py
    "j48": dict(criterion="gain_ratio", multiway=True, missing="c4.5", average_gain=True,
                j48=True),
}
_MAX_DEPTH = np.iinfo(np.int32).max


def _param_error(est, name, requirement):
    value = getattr(est, name)
    return ValueError(
        f"The {name!r} parameter of {type(est).__name__} must be {requirement}. "
        f"Got {value!r} instead.")


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_real(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


class BaseDecisionTree(BaseEstimator):
    """Shared fitting logic.  See the two public subclasses."""

    _criteria = {}

    # -- parameters -----------------------------------------------------------

    def _resolve_algorithm(self):
        """criterion, multiway, missing and average_gain after the preset."""
        algo = self.algorithm
        presets = PRESETS if self._is_classifier else {"cart": PRESETS["cart"]}
        if algo is not None and algo not in presets:
            raise _param_error(self, "algorithm", f"one of {sorted(presets)} or None")
        out = dict(criterion=self.criterion, multiway=bool(self.multiway),
                   missing=self.missing, average_gain=bool(self.average_gain), j48=False)
        if algo is not None:
            out.update(presets[algo])
        if out["missing"] not in MISSING_RULES:
            raise _param_error(self, "missing", f"one of {MISSING_RULES}")
        crit = out["criterion"]
        if not isinstance(crit, str) or crit not in self._criteria:
            raise ValueError(
                f"Unknown criterion {crit!r} for {type(self).__name__}. "
                f"Choose one of: {', '.join(sorted(self._criteria))}.")
        return out

    def _resolve_params(self, n_samples, n_features, weight_sum, has_weights):
        if self.splitter not in SPLITTERS:
            raise _param_error(self, "splitter", "'best', 'random' or 'hist'")
        mb = self.max_bins
        if not (_is_int(mb) and 2 <= mb <= MAX_BINS):
            raise _param_error(self, "max_bins", f"an int in the range [2, {MAX_BINS}]")
        if self.max_depth is not None and not (_is_int(self.max_depth) and self.max_depth >= 1):
            raise _param_error(self, "max_depth", "an int in the range [1, inf) or None")
        max_depth = _MAX_DEPTH if self.max_depth is None else int(self.max_depth)

        msl = self.min_samples_leaf
        if _is_int(msl) and msl >= 1:
            min_samples_leaf = int(msl)
        elif _is_real(msl) and not _is_int(msl) and 0.0 < msl < 1.0:
            min_samples_leaf = int(math.ceil(msl * n_samples))
        else:
            raise _param_error(self, "min_samples_leaf",
                               "an int in the range [1, inf) or a float in the range (0.0, 1.0)")
        mss = self.min_samples_split
        if _is_int(mss) and mss >= 2:
            min_samples_split = int(mss)
        elif _is_real(mss) and not _is_int(mss) and 0.0 < mss <= 1.0:
            min_samples_split = max(2, int(math.ceil(mss * n_samples)))
        else:
            raise _param_error(self, "min_samples_split",
                               "an int in the range [2, inf) or a float in the range (0.0, 1.0]")
        min_samples_split = max(min_samples_split, 2 * min_samples_leaf)

        fraction = self.min_weight_fraction_leaf
        if not (_is_real(fraction) and 0.0 <= fraction <= 0.5):
            raise _param_error(self, "min_weight_fraction_leaf", "a float in the range [0.0, 0.5]")
        min_weight_leaf = fraction * (weight_sum if has_weights else n_samples)

        mf = self.max_features
        if mf is None:
            max_features = n_features
        elif mf == "sqrt":
            max_features = max(1, int(np.sqrt(n_features)))
        elif mf == "log2":
            max_features = max(1, int(np.log2(n_features)))
        elif _is_int(mf) and 1 <= mf:
            if mf > n_features:
                raise ValueError(
                    f"max_features must be in (0, n_features={n_features}]; got {mf}.")
            max_features = int(mf)
        elif _is_real(mf) and not _is_int(mf) and 0.0 < mf <= 1.0:
            max_features = max(1, int(mf * n_features))
        else:
            raise _param_error(self, "max_features",
                               "an int in [1, n_features], a float in (0.0, 1.0], "
                               "'sqrt', 'log2' or None")

        mln = self.max_leaf_nodes
        if mln is not None and not (_is_int(mln) and mln >= 2):
            raise _param_error(self, "max_leaf_nodes", "an int in the range [2, inf) or None")
        if not (_is_real(self.min_impurity_decrease) and self.min_impurity_decrease >= 0):
            raise _param_error(self, "min_impurity_decrease", "a float in the range [0.0, inf)")
        if not (_is_real(self.ccp_alpha) and self.ccp_alpha >= 0):
            raise _param_error(self, "ccp_alpha", "a float in the range [0.0, inf)")
        growth = self.growth
        if growth is None:
            growth = "best_first" if mln is not None else "depth_first"
        if growth not in GROWTH_ORDERS:
            raise _param_error(self, "growth", f"one of {GROWTH_ORDERS} or None")
        if not (self.random_state is None or _is_int(self.random_state)
                or isinstance(self.random_state, np.random.Generator)
                or isinstance(self.random_state, np.random.RandomState)):
            raise _param_error(self, "random_state", "None, an int or a NumPy random generator")
        return dict(max_depth=max_depth, min_samples_leaf=min_samples_leaf,
                    min_samples_split=min_samples_split, min_weight_leaf=min_weight_leaf,
                    max_features=max_features, growth=growth,
                    max_splits=None if mln is None else mln - 1)

    def _rng(self):
        rs = self.random_state
        if isinstance(rs, np.random.Generator):
            return rs
        if isinstance(rs, np.random.RandomState):
            return np.random.default_rng(rs.randint(np.iinfo(np.int32).max))
        return np.random.default_rng(rs)

    # -- fitting ----------------------------------------------------------------

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on (X, y), recording every split in ``steps_``.

        ``X`` may be a Dask DataFrame or Dask array (``splitter="hist"``):
        the rows stay in their partitions, see ``dtree/_dask.py``."""
        if _dask.is_dask_collection(X) or _dask.is_dask_collection(y):
            return _dask.fit(self, X, y, sample_weight)
        feature_names = check_n_features(self, X, reset=True)
        X = as_table(X)
        check_shape(X)
        n_samples, n_features = X.shape
        self._setup = self._resolve_algorithm()
        is_cat = _encode.resolve_categorical(X, self.categorical_features, n_features,
                                             feature_names)
        names = (feature_names if feature_names is not None
                 else [f"x{i}" for i in range(n_features)])
        categories = [(_encode.learn_categories(X, j, str(names[j])) if is_cat[j] else None)
                      for j in range(n_features)]
        # J48 decides its cuts in double precision (float32 changes glass.arff's tree)
        self._x_dtype = np.float64 if self._setup["j48"] else np.float32
        Xf = self._encode_X(X, is_cat, categories)
        declared = getattr(getattr(y, "dtype", None), "categories", None)
        y = as_target(y, n_samples=n_samples)
        if self._setup["j48"]:
            mo = self.min_objects
            if not (_is_real(mo) and mo > 0):
                raise _param_error(self, "min_objects", "a number > 0")
            self._declared_classes = declared
        if n_samples < 2:
            raise CodedError("one_sample", n_samples=n_samples)
        y = self._encode_target(y)
        w = as_sample_weight(sample_weight, n_samples)
        has_weights = sample_weight is not None
        w, has_weights = self._apply_class_weight(y, w, has_weights)
        weight_sum = float(w.sum())
        if not weight_sum > 0:
            raise CodedError("zero_weight")
        params = self._resolve_params(n_samples, n_features, weight_sum, has_weights)
        setup = self._setup
        if setup["missing"] == "error" and np.isnan(Xf).any():
            col = int(np.flatnonzero(np.isnan(Xf).any(axis=0))[0])
            code = ("missing_id3" if self.algorithm == "id3" else "missing_refused"
                    if self._is_classifier else "missing_refused_regression")
            raise CodedError(code, name=str(names[col]))
        if self.criterion == "absolute_error" and np.isnan(Xf).any():
            raise CodedError("absolute_error_missing")
        if setup["multiway"] and setup["missing"] == "cart" and np.isnan(Xf[:, is_cat]).any():
            raise CodedError("multiway_missing")
        if self.splitter == "hist":
            self._check_hist(setup)
        self._fitted_setup(n_features, feature_names, is_cat, categories, params, setup)

        keep = w > 0  # zero-weight rows are not samples of any node
        if keep.all():  # (no copies of a large table)
            Xk, yk, wk = Xf, y, w
        else:
            Xk, yk, wk = Xf[keep], y[keep], w[keep]
        crit = make_criterion(setup["criterion"], getattr(self, "n_classes_", 0),
                              classification=self._is_classifier)
        if self._is_classifier and np.all(wk == 1.0):
            # made only if asked for (see _problem.Problem)
            stats = None
            sample_stats = lambda: np.ascontiguousarray(self._sample_stats(yk, wk).T)  # noqa: E731
        else:
            stats = self._sample_stats(yk, wk)
            sample_stats = np.ascontiguousarray(stats.T)
        prob = _problem.Problem(
            np.ascontiguousarray(Xk.T), sample_stats, yk, wk, crit,
            max_depth=params["max_depth"], min_samples_split=params["min_samples_split"],
            min_samples_leaf=params["min_samples_leaf"],
            min_weight_leaf=params["min_weight_leaf"], max_features=params["max_features"],
            splitter=self.splitter, min_impurity_decrease=float(self.min_impurity_decrease),
            weight_total=weight_sum, rng=self._rng(), categorical=is_cat,
            n_categories=[0 if c is None else len(c) for c in categories],
            multiway=setup["multiway"], missing=setup["missing"],
            average_gain=setup["average_gain"],
            quinlan=setup["multiway"] or setup["missing"] == "c4.5")
        if self._is_classifier and not setup["j48"]:
            # from here on the class codes are the compact ones (int8 below
            # 128 classes, see Problem): the intp codes, 8 bytes a row, are not
            # kept through the growth
            y = yk = prob.y = prob.codes
        if self.splitter == "hist":
            binned = _hist.bin_features(prob.X, is_cat, prob.n_categories, self.max_bins)
            prob.hist = _hist.HistGrower(binned, prob)
            self.bin_lower_ = [None if is_cat[j] else _hist.used_bins(binned.lower[j])
                               for j in range(n_features)]
            self.bin_upper_ = [None if is_cat[j] else _hist.used_bins(binned.upper[j])
                               for j in range(n_features)]
        else:
            for name in ("bin_lower_", "bin_upper_"):
                if hasattr(self, name):
                    delattr(self, name)
        if crit.needs_samples:
            root_impurity = _median.mean_absolute_deviation(yk, wk)
        else:
            root_impurity = float(crit.impurity(
                prob.total_stats() if stats is None else stats.sum(axis=0)))
        nodes = _problem.Nodes(prob.n_stats)
        del stats, sample_stats  # prob holds the statistics (or makes them)
        growth = params["growth"]
        record = bool(self.record_candidates)
        if setup["j48"]:
            order = self._grow_j48(Xk, yk, wk, is_cat, categories, nodes, record)
            growth = "depth_first"
            self.growth_ = growth
        elif prob.c45_missing and prob.has_missing:
            order = _builders.grow_weighted(prob, nodes, root_impurity, params["max_splits"],
                                        record, growth)
        elif growth == "breadth_first" or (growth == "depth_first"
                                           and params["max_splits"] is None):
            order = _builders.grow_levels(prob, nodes, root_impurity, params["max_splits"], record)
        else:
            order = _builders.grow_nodes(prob, nodes, root_impurity, params["max_splits"], record,
                                     growth)
        self.tree_, self.steps_ = self._assemble(nodes, order, growth, crit, prob)
        if self.ccp_alpha > 0:
            from ._pruning import ccp_prune

            # steps_ and tree_at() describe the growth of the unpruned tree
            self.unpruned_tree_ = self.tree_
            self.tree_ = ccp_prune(self.tree_, float(self.ccp_alpha))
        return self

    def _fitted_setup(self, n_features, feature_names, is_cat, categories, params, setup):
        """The fitted attributes that describe the input and the settings
        (``feature_names_in_`` itself is set where the names are read)."""
        self.n_features_in_ = n_features
        if feature_names is None and hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.is_categorical_ = is_cat
        self.categories_ = categories
        self.max_features_ = params["max_features"]
        self.growth_ = params["growth"]
        self.n_outputs_ = 1
        self.criterion_ = setup["criterion"]
        self.multiway_ = setup["multiway"]
        self.missing_ = setup["missing"]

    def _check_hist(self, setup):
        """splitter="hist" grows binary CART splits from sums of statistics."""
        why = None
        if setup["j48"]:
            why = "algorithm='j48' grows Weka's own tree"
        elif setup["multiway"]:
            why = "multiway splits are not binned"
        elif setup["missing"] == "c4.5":
            why = "missing='c4.5' splits rows into fractions"
        elif setup["criterion"] == "absolute_error":
            why = "criterion='absolute_error' cannot be computed from bin sums"
        if why:
            raise CodedError("hist_refused", why=why)

    def _encode_X(self, X, is_cat, categories):
        dtype = getattr(self, "_x_dtype", np.float32)
        to_numeric = functools.partial(as_float32_matrix, dtype=dtype)
        return _encode.encode(X, is_cat, categories, to_numeric=to_numeric, dtype=dtype)

    def _grow_j48(self, X, codes, w, is_cat, categories, nodes, record):
        data = _j48.J48Data(X.astype(np.float64), codes, w, is_cat,
                            [0 if c is None else len(c) for c in categories],
                            self.n_classes_, float(self.min_objects))
        root = _j48.grow(data, np.arange(len(codes)), w.astype(np.float64))
        return _j48.write_nodes(root, data, nodes, record)

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """scikit-learn's minimal cost-complexity pruning path: a dict with
        ``ccp_alphas`` and ``impurities`` (total leaf impurity R(T_alpha))."""
        from ._pruning import pruning_path

        params = dict(self.get_params(), ccp_alpha=0.0)
        full = type(self)(**params).fit(X, y, sample_weight=sample_weight)
        return pruning_path(full.tree_)

    def _assemble(self, nodes, order, growth, crit, prob):
        size = nodes.size
        n_kids = nodes.n_children[:size]
        first = nodes.first_child[:size]
        ptr_old = np.r_[0, np.cumsum(n_kids)]
        # node i's children are first[i], first[i] + 1, ... (n_kids[i] of them)
        kids_old = (np.repeat(first - ptr_old[:-1], n_kids)
                    + np.arange(ptr_old[-1])).astype(np.intp)
        if growth == "depth_first":
            perm = preorder(ptr_old, kids_old)  # canonical id -> builder id
        else:
            perm = np.arange(size)  # creation order (= level order for breadth-first)
        new_of_old = np.empty(size, dtype=np.intp)
        new_of_old[perm] = np.arange(size)
        internal = n_kids[perm] > 0
        counts = n_kids[perm]
        child_ptr = np.r_[0, np.cumsum(counts)].astype(np.intp)
        slots = np.repeat(ptr_old[:-1][perm] - child_ptr[:-1], counts) + np.arange(child_ptr[-1])
        child_old = kids_old[slots].astype(np.intp)
        stats = nodes.stats[:size][perm]
        reasons = np.array(_problem.STOP_REASONS, dtype=object)[nodes.reason[:size][perm]]
        parent_old = nodes.parent[:size][perm]
        branch = np.empty(size, dtype=object)
        for old, codes in nodes.branch_of_code.items():
            if internal[new_of_old[old]]:
                branch[new_of_old[old]] = codes
        tree = Tree(
            child_ptr=child_ptr,
            child_ids=new_of_old[child_old],
            child_share=nodes.share[child_old].copy(),
            distribute_missing=prob.c45_missing,
            feature=np.where(internal, nodes.feature[:size][perm], TREE_UNDEFINED),
            threshold=np.where(internal & (nodes.kind[:size][perm] == NUMERIC),
                               nodes.threshold[:size][perm], float(TREE_UNDEFINED)),
            impurity=nodes.impurity[:size][perm].copy(),
            n_node_samples=nodes.n[:size][perm].copy(),
            weighted_n_node_samples=stats[:, -1].copy(),
            value=np.zeros((size, 1, 1)),
            depth=nodes.depth[:size][perm].copy(),
            parent=np.where(parent_old >= 0, new_of_old[np.maximum(parent_old, 0)], -1),
            stop_reason=np.where(internal, "", reasons).astype(object),
            node_ids=np.arange(size),
            split_improvement=np.where(nodes.searched[:size][perm]
                                       & (nodes.feature[:size][perm] >= 0),
                                       nodes.improvement[:size][perm], np.nan),
            kind=np.where(internal, nodes.kind[:size][perm], NUMERIC).astype(np.int8),
            missing_child=np.where(internal, nodes.missing_child[:size][perm], -1),
            branch_of_code=branch,
            split_gain=np.where(internal, nodes.gain[:size][perm], np.nan),
            split_info=np.where(internal, nodes.split_info[:size][perm], np.nan),
        )
        tree.value = self._node_values(tree, stats, crit, prob)
        tree.max_n_classes = tree.value.shape[2]
        tree.n_classes = np.array([tree.value.shape[2]])

        split_order = new_of_old[np.asarray(order, dtype=np.intp)]
        if growth == "depth_first":
            split_order = np.sort(split_order)
        self._candidate_refs = {int(new_of_old[old]): ref
                                for old, ref in nodes.candidates.items()}
        steps = Steps(self, tree, split_order, self.feature_names_, self.categories_)
        return tree, steps

    @property
    def feature_names_(self):
        """The name of every feature, as dtree writes it: list of str.

        ``feature_names_in_`` as strings when ``X`` had string column names,
        else ``["x0", "x1", ...]`` (scikit-learn's ``x{i}`` for unnamed
        features).  Always ``n_features_in_`` long, in column order; these are
        the names ``steps_[i].feature_name``, the candidate tables and
        :func:`export_text` use.  Unlike ``feature_names_in_``, it exists on
        every fitted estimator; before ``fit`` it raises ``NotFittedError``
        (so ``hasattr`` is False).
        """
        n_features = getattr(self, "n_features_in_", None)
        if n_features is None:  # (set during fit, before the steps are built)
            raise _not_fitted_error(
                f"This {type(self).__name__} instance is not fitted yet. Call 'fit' "
                "with appropriate arguments before using this estimator.")
        if hasattr(self, "feature_names_in_"):
            return [str(n) for n in self.feature_names_in_]
        return [f"x{i}" for i in range(n_features)]

    # -- growth replay ------------------------------------------------------------

    def tree_at(self, k):
        """The tree after the first ``k`` steps of growth (``tree_at(0)``: the root).

        Nodes are renumbered compactly in the order of the full tree's ids;
        ``node_ids`` maps them back to ids in ``tree_``.  Leaves that the full
        tree splits later have ``stop_reason == "not yet split"``.
        """
        self._check_fitted()
        if not _is_int(k) or not 0 <= k <= len(self.steps_):
            raise ValueError(f"k must be an int in [0, {len(self.steps_)}]; got {k!r}.")
        full = self.growth_tree_
        keep = np.zeros(full.node_count, dtype=bool)
        keep[0] = True
        nodes = getattr(self.steps_, "nodes", None)
        if nodes is None:  # a plain list of Steps
            nodes = [step.node for step in self.steps_]
        keep[split_children(full, np.asarray(nodes, dtype=np.intp)[:k])] = True
        sub = full.subtree(keep)
        pending = sub.is_leaf() & ~full.is_leaf()[sub.node_ids]
        sub.stop_reason[pending] = "not yet split"
        return sub

    @property
    def growth_tree_(self):
        """The tree as grown (before any ccp_alpha pruning); steps_ replay it."""
        self._check_fitted()
        return getattr(self, "unpruned_tree_", self.tree_)

    def candidates(self, node):
        """The candidate table of any searched node of ``growth_tree_`` (also
        leaves that were evaluated but not split), best first; None if the
        node was never searched or candidates were not recorded."""
        self._check_fitted()
        ref = self._candidate_refs.get(int(node))
        if ref is None:
            return None
        return candidate_frame(*ref, self.feature_names_, self._category_labels(),
                               int(self.growth_tree_.feature[node]),
                               self.criterion_ == "gain_ratio")

    def _category_labels(self):
        return [None if c is None else [str(v) for v in c] for c in self.categories_]

    # -- prediction ---------------------------------------------------------------

    def _validate_X_predict(self, X):
        """Check ``X`` against the fit and encode it (public: :func:`tree_input`)."""
        self._check_fitted()
        check_n_features(self, X, reset=False)
        X = as_table(X)
        check_shape(X)
        n_features = X.shape[1]
        if n_features != self.n_features_in_:
            raise ValueError(
                f"X has {n_features} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input.")
        return self._encode_X(X, self.is_categorical_, self.categories_)

    def apply(self, X):
        """Index of the leaf each sample ends up in."""
        X = self._validate_X_predict(X)
        return self.tree_.apply(X)

    def decision_path(self, X):
        """Dense boolean indicator (n_samples, node_count): nodes each sample visits.

        scikit-learn returns a SciPy sparse matrix; dtree returns a dense array
        so that it does not depend on SciPy.
        """
        X = self._validate_X_predict(X)
        return self.tree_.decision_path(X)

    def get_depth(self):
        self._check_fitted()
        return self.tree_.max_depth

    def get_n_leaves(self):
        self._check_fitted()
        return self.tree_.n_leaves

    @property
    def feature_importances_(self):
        self._check_fitted()
        return feature_importances(self.tree_, self.n_features_in_)


def tree_input(estimator, X):
    """``X`` as the fitted estimator's trees read it.

    The estimators encode their input before routing it: ``predict``,
    ``apply`` and ``decision_path`` check ``X`` and turn it into a numeric
    matrix that :class:`Tree` methods (``apply``, ``predict``,
    ``decision_path``, ``leaf_weights``, ``branch``) take.  This function
    gives that matrix, so that code which walks ``estimator.tree_``,
    ``estimator.tree_at(k)`` or ``estimator.growth_tree_`` itself routes rows
    exactly as the estimator does.

    It is a function rather than a method because, as in scikit-learn
    (``_validate_data``), an estimator's input checks are not part of its
    public method set; what is public here is the result's contract.

    Parameters
    ----------
    estimator : DecisionTreeClassifier or DecisionTreeRegressor
        A fitted estimator (also one opened by :func:`from_sklearn`).
    X : array-like or DataFrame of shape (n_samples, n_features_in_)
        Rows in the form ``fit`` took: the same columns, in the same order
        (with the same names if it was fitted on named columns).

    Returns
    -------
    ndarray of shape (n_samples, n_features_in_)
        float32 (float64 for ``algorithm="j48"``).  Numeric columns hold
        their values; categorical columns hold the code of each label, its
        position in ``estimator.categories_[j]``, and -1 for a label not seen
        in training.  A missing value is NaN.

    Raises
    ------
    NotFittedError
        If ``estimator`` is not fitted.
    ValueError
        If ``X`` has another number of features, or is not 2-d, or a numeric
        column is not numeric.

    See Also
    --------
    Tree.branch : the branch a row takes at a node.
    """
    return estimator._validate_X_predict(X)


def feature_importances(tree, n_features):
    """Normalised total weighted impurity decrease per feature.

    A feature's importance is the sum over its splits of
    ``W_t I_t - sum_children W_c I_c``, divided by the root's weight; the
    result is scaled to sum to 1 (all zeros for a tree without splits).
    ``estimator.feature_importances_`` is this for ``estimator.tree_``.

    Parameters
    ----------
    tree : Tree
        Any tree: ``tree_``, ``tree_at(k)`` or a pruned one.
    n_features : int
        The number of features (the length of the result).

    Returns
    -------
    ndarray of shape (n_features,)
    """
    out = np.zeros(n_features)
    internal = np.flatnonzero(~tree.is_leaf())
    if internal.size:
        w, imp = tree.weighted_n_node_samples, tree.impurity
        child_cost = np.add.reduceat(w[tree.child_ids] * imp[tree.child_ids],
                                     tree.child_ptr[internal])
        decrease = w[internal] * imp[internal] - child_cost
        np.add.at(out, tree.feature[internal], decrease)
        out /= w[0]
    total = out.sum()
    return out / total if total > 0 else out


class DecisionTreeClassifier(BaseDecisionTree):
    """A decision tree classifier whose growth can be replayed step by step.

    scikit-learn's ``DecisionTreeClassifier`` (its parameters, and its trees
    for its settings), plus Quinlan's trees: ID3, C4.5 and Weka's J48
    (``algorithm``), multiway splits of categorical features, C4.5's rule for
    missing values, a choice of growth order and a histogram splitter.
    Every split is recorded in ``steps_``; ``tree_at(k)`` is the tree after
    ``k`` of them.

    Parameters
    ----------
    criterion : {"gini", "entropy", "log_loss", "misclassification", \
"gain_ratio", "taylor2"}, default="gini"
        How the impurity I(t) of a node is measured and splits are scored.
        ``"entropy"`` and ``"log_loss"`` are the same (Shannon entropy, in
        bits); ``"misclassification"`` is 1 - max p_k; ``"taylor2"`` the
        second-order Taylor expansion of -log p, sum p_k[(1 - p_k) +
        (1 - p_k)^2 / 2].  ``"gain_ratio"`` is C4.5's: a feature's threshold
        is chosen by entropy gain, and features are compared by gain / split
        information.  An ``algorithm`` preset other than ``"cart"`` replaces
        it.
    splitter : {"best", "random", "hist"}, default="best"
        ``"best"`` tries every threshold between distinct values of every
        candidate feature.  ``"random"`` draws one threshold per feature and
        node, uniformly between the node's smallest and largest value, and
        keeps the best feature (scikit-learn's random splitter).
        ``"hist"`` bins every numeric feature once into at most ``max_bins``
        bins (quantiles; one bin per value when there are few values;
        categories and missing values get bins of their own) and searches
        the bin edges with per-node histograms: fast on large tables, and
        the only splitter for Dask input.  Its thresholds lie halfway
        between the bins' training values, so ``predict`` on raw data agrees
        with the binned training; with at least as many bins as distinct
        values it grows the ``"best"`` tree.  It grows binary CART splits
        only: it raises ``ValueError`` with ``multiway=True``,
        ``missing="c4.5"`` or ``algorithm`` "id3", "c4.5" or "j48".
    max_depth : int or None, default=None
        The deepest a node may be (the root has depth 0).  None: no limit.
    min_samples_split : int or float, default=2
        The fewest samples a node needs to be split (an int >= 2), or that
        fraction of the training samples, rounded up (a float in
        (0.0, 1.0]).  It is raised to ``2 * min_samples_leaf`` if lower.
    min_samples_leaf : int or float, default=1
        The fewest samples each child of a split must get (an int >= 1), or
        that fraction of the training samples, rounded up (a float in
        (0.0, 1.0)).  With ``missing="c4.5"`` fractional rows count by
        their weight.
    min_weight_fraction_leaf : float, default=0.0
        The smallest share of the total sample weight (of ``n_samples`` when
        ``fit`` has no ``sample_weight``) each child must get, in
        [0.0, 0.5].
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        How many features each node draws at random (without replacement)
        and searches: an int in [1, n_features], a float fraction of them
        (at least 1), ``sqrt(n_features)`` or ``log2(n_features)``.  None:
        every feature, and then the search draws nothing (ties go to the
        first feature in column order).
    random_state : int, numpy.random.Generator, numpy.random.RandomState \
or None, default=None
        The seed of the draws of ``splitter="random"`` and of
        ``max_features``; without those draws it has no effect.
    max_leaf_nodes : int or None, default=None
        A leaf budget: growth stops after ``max_leaf_nodes - 1`` splits
        (an int >= 2).  With binary splits that is at most
        ``max_leaf_nodes`` leaves; a multiway split adds one leaf per extra
        branch.  Which splits are made depends on ``growth``.  None: no
        budget.
    min_impurity_decrease : float, default=0.0
        A node is split only if the split's improvement
        ``N_t / N * (I(t) - sum_c N_c / N_t * I(c))`` (weighted counts; the
        gain times the known fraction under ``missing="c4.5"``) is at least
        this.
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, multiplied into the sample weights: a dict
        ``{label: weight}`` (labels not named keep weight 1), or
        ``"balanced"``: ``n_samples / (n_classes * count of the class)``.
    ccp_alpha : float, default=0.0
        Minimal cost-complexity pruning after growth, as in scikit-learn:
        ``tree_`` is the subtree that minimises ``R(T) + alpha * |leaves|``
        (R: the leaves' total weighted impurity), see ``ccp_prune``.  The
        grown tree stays in ``unpruned_tree_`` and ``growth_tree_``, and
        ``steps_`` describe its growth.  0.0: no pruning.
    algorithm : {"id3", "c4.5", "cart", "j48"} or None, default=None
        A preset that overrides ``criterion``, ``multiway``, ``missing`` and
        ``average_gain`` (see ``PRESETS``); None keeps them as given.

        * ``"id3"``: entropy gain, one branch per category, missing values
          refused (``missing="error"``);
        * ``"c4.5"``: gain ratio among the features of at least average
          gain, one branch per category, C4.5's missing-value rule;
        * ``"cart"``: binary splits and scikit-learn's missing-value rule,
          ``criterion`` as given;
        * ``"j48"``: Weka's J48 (C4.5 release 8), node for node: C4.5's
          settings plus J48's own rules (a leaf below ``2 * min_objects``
          weight, its minimum split size and MDL penalty for numeric cuts,
          thresholds moved to training values, subtrees that do not reduce
          the training errors collapsed; see ``dtree/_j48.py``).  J48 reads
          only ``min_objects``, ``categorical_features``, ``class_weight``,
          ``ccp_alpha`` and ``record_candidates``: the size, depth, feature
          and budget parameters, ``splitter="random"`` and ``growth`` are
          ignored (growth is depth-first), and ``X`` is read in double
          precision.

        Numeric features are always cut in two.
    categorical_features : "auto", None, list of str or int, or \
array-like of bool, default="auto"
        Which features are categorical.  ``"auto"``: the columns of a
        DataFrame whose dtype is category, object, string or bool (a NumPy
        array has none); None: none; column names or indices; or a boolean
        mask of length ``n_features``.  A categorical feature's labels are
        coded in sorted order (a pandas categorical keeps its own order),
        see ``categories_``.
    multiway : bool, default=False
        Split a categorical feature into one branch per category present in
        the node (ID3, C4.5).  False: the best subset of categories against
        the rest (CART).  With missing values in a categorical feature it
        needs ``missing="c4.5"``.
    missing : {"cart", "c4.5", "error"}, default="cart"
        What a missing value (NaN, or None in a categorical column) does.
        ``"cart"`` is scikit-learn's rule: each numeric split also chooses
        the side its missing values go to (at prediction, the child with
        more samples if the node saw none); at a categorical split missing
        values and unseen categories go to the child of most training
        weight.  ``"c4.5"`` is Quinlan's: the gain is computed on the rows
        whose value is known and multiplied by their weight fraction, and a
        row with a missing value (or an unseen category) goes down every
        branch with its weight times the branch's share of the known
        weight, in training and in ``predict_proba``.  ``"error"``: ``fit``
        raises ``ValueError`` if ``X`` has a missing value.
    average_gain : bool, default=False
        C4.5's rule: only the features whose gain is at least the average
        gain of the features with a valid split compete (by gain ratio with
        ``criterion="gain_ratio"``, else by the criterion's gain).
    growth : {"depth_first", "best_first", "breadth_first"} or None, \
default=None
        The order in which nodes are split, i.e. the order of ``steps_``.
        None: best-first when ``max_leaf_nodes`` is set, else depth-first
        (scikit-learn's rule).  Without a budget every order grows the same
        tree; depth-first numbers the nodes in pre-order, the others in the
        order they were created.  With ``max_leaf_nodes``, best-first makes
        the splits of largest improvement, depth-first the first splits in
        pre-order (the leftmost branches are grown to full depth first),
        breadth-first the shallowest nodes, left to right.  Read the order
        used in ``growth_``.
    record_candidates : bool, default=True
        Keep every searched node's per-feature candidate table, for
        ``candidates(node)`` and ``steps_[i].candidates`` (cheap; False
        saves memory and those return None).
    min_objects : float, default=2
        J48's ``-M``: the smallest weight of a J48 branch; a node of less
        than twice this weight is a leaf.  A number > 0, read only with
        ``algorithm="j48"``.
    max_bins : int, default=255
        Bins per numeric feature for ``splitter="hist"``, in [2, 65535];
        ignored by the other splitters.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted (with ``algorithm="j48"`` and a categorical
        ``y``: its declared categories, in their order).
    n_classes_ : int
        The number of classes.
    n_features_in_ : int
        The number of features seen during ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        The column names of ``X``, when they are all strings.
    feature_names_ : list of str
        Every feature's name: ``feature_names_in_``, or ``x0``, ``x1``...
    is_categorical_ : ndarray of bool, shape (n_features_in_,)
        Which features were treated as categorical.
    categories_ : list
        For each feature, its category labels in code order (an ndarray), or
        None for a numeric feature.
    max_features_ : int
        The number of features each node searches.
    criterion_, multiway_, missing_ : str, bool, str
        The criterion, multiway setting and missing-value rule after the
        ``algorithm`` preset.
    growth_ : str
        The growth order used.
    n_outputs_ : int
        Always 1.
    tree_ : Tree
        The fitted tree (pruned if ``ccp_alpha > 0``).
    unpruned_tree_ : Tree
        The grown tree, only when ``ccp_alpha > 0``.
    growth_tree_ : Tree
        The grown tree (``unpruned_tree_`` or ``tree_``), which ``steps_``
        and ``tree_at(k)`` replay.
    steps_ : sequence of Step
        One record per split, in growth order.
    feature_importances_ : ndarray of shape (n_features_in_,)
        The normalised total impurity decrease of each feature's splits.
    bin_lower_, bin_upper_ : list
        With ``splitter="hist"``: for each numeric feature the smallest and
        largest training value in each bin (None for categorical ones).

    See Also
    --------
    DecisionTreeRegressor : A decision tree regressor.
    candidate_splits : Every feature's best split of one node.
    export_graphviz, export_text : Draw or print a fitted tree.
    sklearn.tree.DecisionTreeClassifier : The tree this one follows.

    Examples
    --------
    >>> from dtree import DecisionTreeClassifier
    >>> X = [[0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = [0, 1, 1, 0]
    >>> clf = DecisionTreeClassifier(random_state=0).fit(X, y)
    >>> clf.predict([[1, 1], [1, 0]]).tolist()
    [1, 0]
    >>> [step.feature_name for step in clf.steps_]
    ['x1']
    >>> clf.tree_at(0).node_count
    1
    """

    _criteria = CLASSIFICATION
    _is_classifier = True

    def __init__(self, *, criterion="gini", splitter="best", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=None, random_state=None, max_leaf_nodes=None,
                 min_impurity_decrease=0.0, class_weight=None, ccp_alpha=0.0,
                 algorithm=None, categorical_features="auto", multiway=False, missing="cart",
                 average_gain=False, growth=None, record_candidates=True, min_objects=2,
                 max_bins=255):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.algorithm = algorithm
        self.categorical_features = categorical_features
        self.multiway = multiway
        self.missing = missing
        self.average_gain = average_gain
        self.growth = growth
        self.record_candidates = record_candidates
        self.max_bins = max_bins
        self.min_objects = min_objects

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags

        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(),
                    input_tags=InputTags(allow_nan=True))

    def _encode_target(self, y):
        if y.dtype.kind == "f":
            if not np.all(np.isfinite(y)):
                raise CodedError("y_not_finite")
            if np.any(y != np.round(y)):
                raise ValueError(
                    "Unknown label type: continuous. A classifier needs discrete class "
                    "labels; use DecisionTreeRegressor for a numeric target.")
        declared = getattr(self, "_declared_classes", None)
        if self._setup.get("j48") and declared is not None:
            # J48 keeps the declared classes, in declared order (Weka's ties
            # go to the first; minSplit counts classes without rows)
            classes = np.asarray(declared, dtype=object)
            lookup = {c: i for i, c in enumerate(classes.tolist())}
            if any(v not in lookup for v in y.tolist()):
                raise ValueError("y has labels outside its declared categories.")
            codes = np.array([lookup[v] for v in y.tolist()], dtype=np.intp)
            self.classes_ = classes
            self.n_classes_ = len(classes)
            return codes
        try:
            classes, codes = unique_inverse(y)
        except TypeError:
            raise ValueError(
                "Unknown label type: mixed types in y. Class labels must all be "
                "strings or all numbers.") from None
        self.classes_ = classes
        self.n_classes_ = len(classes)
        return codes.astype(np.intp)

    def _apply_class_weight(self, codes, w, has_weights):
        cw = self.class_weight
        if cw is None:
            return w, has_weights
        k = self.n_classes_
        if cw == "balanced":
            counts = np.bincount(codes, minlength=k)
            per_class = len(codes) / (k * counts)
        elif isinstance(cw, dict):
            per_class = np.ones(k)
            lookup = {c.item() if hasattr(c, "item") else c: i for i, c in enumerate(self.classes_)}
            for label, weight in cw.items():
                if label not in lookup:
                    raise ValueError(f"class_weight names label {label!r}, which is not in y.")
                per_class[lookup[label]] = weight
        else:
            raise _param_error(self, "class_weight", "'balanced', a dict or None")
        return w * per_class[codes], True

    def _sample_stats(self, codes, w):
        stats = np.zeros((len(codes), self.n_classes_ + 1))
        stats[np.arange(len(codes)), codes] = w
        stats[:, -1] = w
        return stats

    def _node_values(self, tree, stats, crit, prob):
        w = stats[:, -1:]
        value = stats[:, :-1] / np.where(w > 0, w, 1.0)
        # an empty branch (J48 makes one per declared value) predicts as its
        # parent does; ids grow downwards, so parents are filled first
        for node in np.flatnonzero(w[:, 0] <= 0):
            if tree.parent[node] >= 0:
                value[node] = value[tree.parent[node]]
        return value[:, None, :]

    def predict_proba(self, X):
        """Class fractions of the leaf each sample reaches (with C4.5's
        missing-value rule, the leaves' fractions combined by branch weight)."""
        X = self._validate_X_predict(X)
        return self.tree_.predict(X)

    def predict_log_proba(self, X):
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def score(self, X, y, sample_weight=None):
        """Mean accuracy (weighted by ``sample_weight`` if given)."""
        pred = self.predict(X)
        correct = (pred == np.asarray(y)).astype(np.float64)
        return float(np.average(correct, weights=sample_weight))


class DecisionTreeRegressor(BaseDecisionTree):
    """A decision tree regressor whose growth can be replayed step by step.

    scikit-learn's ``DecisionTreeRegressor`` (its parameters, and its trees
    for its settings), plus multiway splits of categorical features, C4.5's
    rule for missing values, a choice of growth order and a histogram
    splitter.  Every split is recorded in ``steps_``; ``tree_at(k)`` is the
    tree after ``k`` of them.

    Parameters
    ----------
    criterion : {"squared_error", "friedman_mse", "absolute_error", \
"poisson"}, default="squared_error"
        How the impurity I(t) of a node is measured.  ``"squared_error"``:
        the weighted variance, leaves predict the mean; ``"friedman_mse"``
        behaves exactly like it (as in scikit-learn 1.9);
        ``"absolute_error"``: the mean absolute deviation from the weighted
        median, leaves predict the median (no missing values, not with
        ``splitter="hist"``); ``"poisson"``: half the Poisson deviance, for
        counts (``y >= 0`` with a positive sum).
    splitter : {"best", "random", "hist"}, default="best"
        ``"best"`` tries every threshold between distinct values of every
        candidate feature.  ``"random"`` draws one threshold per feature and
        node, uniformly between the node's smallest and largest value, and
        keeps the best feature (scikit-learn's random splitter).
        ``"hist"`` bins every numeric feature once into at most ``max_bins``
        bins (quantiles; one bin per value when there are few values;
        categories and missing values get bins of their own) and searches
        the bin edges with per-node histograms: fast on large tables, and
        the only splitter for Dask input.  Its thresholds lie halfway
        between the bins' training values, so ``predict`` on raw data agrees
        with the binned training; with at least as many bins as distinct
        values it grows the ``"best"`` tree.  It grows binary CART splits
        only: it raises ``ValueError`` with ``multiway=True``,
        ``missing="c4.5"`` or ``criterion="absolute_error"``.
    max_depth : int or None, default=None
        The deepest a node may be (the root has depth 0).  None: no limit.
    min_samples_split : int or float, default=2
        The fewest samples a node needs to be split (an int >= 2), or that
        fraction of the training samples, rounded up (a float in
        (0.0, 1.0]).  It is raised to ``2 * min_samples_leaf`` if lower.
    min_samples_leaf : int or float, default=1
        The fewest samples each child of a split must get (an int >= 1), or
        that fraction of the training samples, rounded up (a float in
        (0.0, 1.0)).  With ``missing="c4.5"`` fractional rows count by
        their weight.
    min_weight_fraction_leaf : float, default=0.0
        The smallest share of the total sample weight (of ``n_samples`` when
        ``fit`` has no ``sample_weight``) each child must get, in
        [0.0, 0.5].
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        How many features each node draws at random (without replacement)
        and searches: an int in [1, n_features], a float fraction of them
        (at least 1), ``sqrt(n_features)`` or ``log2(n_features)``.  None:
        every feature, and then the search draws nothing (ties go to the
        first feature in column order).
    random_state : int, numpy.random.Generator, numpy.random.RandomState \
or None, default=None
        The seed of the draws of ``splitter="random"`` and of
        ``max_features``; without those draws it has no effect.
    max_leaf_nodes : int or None, default=None
        A leaf budget: growth stops after ``max_leaf_nodes - 1`` splits
        (an int >= 2).  With binary splits that is at most
        ``max_leaf_nodes`` leaves; a multiway split adds one leaf per extra
        branch.  Which splits are made depends on ``growth``.  None: no
        budget.
    min_impurity_decrease : float, default=0.0
        A node is split only if the split's improvement
        ``N_t / N * (I(t) - sum_c N_c / N_t * I(c))`` (weighted counts; the
        gain times the known fraction under ``missing="c4.5"``) is at least
        this.
    ccp_alpha : float, default=0.0
        Minimal cost-complexity pruning after growth, as in scikit-learn:
        ``tree_`` is the subtree that minimises ``R(T) + alpha * |leaves|``
        (R: the leaves' total weighted impurity), see ``ccp_prune``.  The
        grown tree stays in ``unpruned_tree_`` and ``growth_tree_``, and
        ``steps_`` describe its growth.  0.0: no pruning.
    algorithm : {"cart"} or None, default=None
        ``"cart"`` sets ``multiway=False`` and ``missing="cart"`` (see
        ``PRESETS``); None keeps them as given.  Quinlan's presets (ID3,
        C4.5, J48) are for classification.
    categorical_features : "auto", None, list of str or int, or \
array-like of bool, default="auto"
        Which features are categorical.  ``"auto"``: the columns of a
        DataFrame whose dtype is category, object, string or bool (a NumPy
        array has none); None: none; column names or indices; or a boolean
        mask of length ``n_features``.  A categorical feature's labels are
        coded in sorted order (a pandas categorical keeps its own order),
        see ``categories_``.
    multiway : bool, default=False
        Split a categorical feature into one branch per category present in
        the node.  False: the best subset of categories against the rest
        (CART).  With missing values in a categorical feature it needs
        ``missing="c4.5"``.
    missing : {"cart", "c4.5", "error"}, default="cart"
        What a missing value (NaN, or None in a categorical column) does.
        ``"cart"`` is scikit-learn's rule: each numeric split also chooses
        the side its missing values go to (at prediction, the child with
        more samples if the node saw none); at a categorical split missing
        values and unseen categories go to the child of most training
        weight.  ``"c4.5"`` is Quinlan's: the gain is computed on the rows
        whose value is known and multiplied by their weight fraction, and a
        row with a missing value (or an unseen category) goes down every
        branch with its weight times the branch's share of the known
        weight, in training and in ``predict`` (the branches' predictions
        averaged by those shares).  ``"error"``: ``fit`` raises
        ``ValueError`` if ``X`` has a missing value.
    growth : {"depth_first", "best_first", "breadth_first"} or None, \
default=None
        The order in which nodes are split, i.e. the order of ``steps_``.
        None: best-first when ``max_leaf_nodes`` is set, else depth-first
        (scikit-learn's rule).  Without a budget every order grows the same
        tree; depth-first numbers the nodes in pre-order, the others in the
        order they were created.  With ``max_leaf_nodes``, best-first makes
        the splits of largest improvement, depth-first the first splits in
        pre-order (the leftmost branches are grown to full depth first),
        breadth-first the shallowest nodes, left to right.  Read the order
        used in ``growth_``.
    record_candidates : bool, default=True
        Keep every searched node's per-feature candidate table, for
        ``candidates(node)`` and ``steps_[i].candidates`` (cheap; False
        saves memory and those return None).
    max_bins : int, default=255
        Bins per numeric feature for ``splitter="hist"``, in [2, 65535];
        ignored by the other splitters.

    Attributes
    ----------
    n_features_in_ : int
        The number of features seen during ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        The column names of ``X``, when they are all strings.
    feature_names_ : list of str
        Every feature's name: ``feature_names_in_``, or ``x0``, ``x1``...
    is_categorical_ : ndarray of bool, shape (n_features_in_,)
        Which features were treated as categorical.
    categories_ : list
        For each feature, its category labels in code order (an ndarray), or
        None for a numeric feature.
    max_features_ : int
        The number of features each node searches.
    criterion_, multiway_, missing_ : str, bool, str
        The criterion, multiway setting and missing-value rule after the
        ``algorithm`` preset.
    growth_ : str
        The growth order used.
    n_outputs_ : int
        Always 1.
    tree_ : Tree
        The fitted tree (pruned if ``ccp_alpha > 0``).
    unpruned_tree_ : Tree
        The grown tree, only when ``ccp_alpha > 0``.
    growth_tree_ : Tree
        The grown tree (``unpruned_tree_`` or ``tree_``), which ``steps_``
        and ``tree_at(k)`` replay.
    steps_ : sequence of Step
        One record per split, in growth order.
    feature_importances_ : ndarray of shape (n_features_in_,)
        The normalised total impurity decrease of each feature's splits.
    bin_lower_, bin_upper_ : list
        With ``splitter="hist"``: for each numeric feature the smallest and
        largest training value in each bin (None for categorical ones).

    See Also
    --------
    DecisionTreeClassifier : A decision tree classifier.
    candidate_splits : Every feature's best split of one node.
    export_graphviz, export_text : Draw or print a fitted tree.
    sklearn.tree.DecisionTreeRegressor : The tree this one follows.

    Examples
    --------
    >>> from dtree import DecisionTreeRegressor
    >>> X = [[1.0], [2.0], [3.0], [10.0], [11.0], [12.0]]
    >>> y = [1.0, 1.0, 1.0, 5.0, 5.0, 6.0]
    >>> reg = DecisionTreeRegressor(max_depth=1).fit(X, y)
    >>> reg.predict([[2.5], [11.5]]).round(3).tolist()
    [1.0, 5.333]
    >>> reg.steps_[0].threshold
    6.5
    """

    _criteria = REGRESSION
    _is_classifier = False

    def __init__(self, *, criterion="squared_error", splitter="best", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=None, random_state=None, max_leaf_nodes=None,
                 min_impurity_decrease=0.0, ccp_alpha=0.0, algorithm=None,
                 categorical_features="auto", multiway=False, missing="cart", growth=None,
                 record_candidates=True, max_bins=255):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.algorithm = algorithm
        self.categorical_features = categorical_features
        self.multiway = multiway
        self.missing = missing
        self.growth = growth
        self.record_candidates = record_candidates
        self.max_bins = max_bins

    average_gain = False  # C4.5's average-gain rule is for gain ratio (classification)

    def __sklearn_tags__(self):
        from sklearn.utils import InputTags, RegressorTags, Tags, TargetTags

        return Tags(estimator_type="regressor", target_tags=TargetTags(required=True),
                    regressor_tags=RegressorTags(),
                    input_tags=InputTags(allow_nan=True))

    def _encode_target(self, y):
        try:
            y = np.asarray(y, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("y must be numeric for a regression tree.") from None
        if not np.all(np.isfinite(y)):
            raise CodedError("y_not_finite")
        with np.errstate(over="ignore"):
            too_large = not np.isfinite(np.sum(y * y)) or np.abs(y).max() > 1e150
        if too_large:
            raise CodedError("y_too_large", largest=np.abs(y).max())
        if self.criterion == "poisson":
            if np.any(y < 0):
                raise CodedError("poisson_negative")
            if np.sum(y) <= 0:
                raise CodedError("poisson_sum")
        return y

    def _apply_class_weight(self, y, w, has_weights):
        return w, has_weights

    def _sample_stats(self, y, w):
        poisson = self.criterion == "poisson"
        stats = np.zeros((len(y), 5 if poisson else 4))
        stats[:, 0] = w * y
        stats[:, 1] = w * y * y
        if poisson:
            with np.errstate(divide="ignore", invalid="ignore"):
                stats[:, 2] = np.where(y > 0, w * y * np.log(y), 0.0)
            stats[:, 3] = y > 0
        stats[:, -1] = w
        return stats

    def _node_values(self, tree, stats, crit, prob):
        if not crit.needs_samples:
            return (stats[:, 0] / stats[:, -1])[:, None, None]
        # absolute error predicts the weighted median of each node's samples
        # (all nodes at once, in memory linear in the rows: never rows x nodes)
        values = _median.node_weighted_medians(tree.apply(prob.X.T), tree.parent,
                                             prob.y, prob.w)
        return values[:, None, None]

    def predict(self, X):
        X = self._validate_X_predict(X)
        return self.tree_.predict(X)[:, 0]

    def score(self, X, y, sample_weight=None):
        """Coefficient of determination R² (weighted by ``sample_weight``)."""
        y = np.asarray(y, dtype=np.float64)
        pred = self.predict(X)
        wts = np.ones_like(y) if sample_weight is None else np.asarray(sample_weight, float)
        ss_res = np.sum(wts * (y - pred) ** 2)
        ss_tot = np.sum(wts * (y - np.average(y, weights=wts)) ** 2)
        if ss_tot == 0:
            return 1.0 if ss_res == 0 else 0.0
        return float(1.0 - ss_res / ss_tot)


def candidate_splits(X, y, *, criterion="entropy", multiway=False, sample_weight=None,
                     categorical_features="auto", missing="c4.5", average_gain=False,
                     min_samples_leaf=1, task=None):
    """Every feature's best split of one node (all of X), best first.

    The table a lecturer writes on the board.  Each recorded step's
    ``candidates`` is this same table for that node's samples.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        The node's rows.
    y : array-like of shape (n_samples,)
        Their target.
    criterion : str, default="entropy"
        A criterion of :class:`DecisionTreeClassifier` or
        :class:`DecisionTreeRegressor`.
    multiway : bool, default=False
        One branch per category (else the best subset against the rest).
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Row weights (None: 1 each).
    categorical_features : default="auto"
        Which features are categorical, as in the estimators.
    missing : {"c4.5", "cart", "error"}, default="c4.5"
        The missing-value rule, as in the estimators.
    average_gain : bool, default=False
        C4.5's average-gain rule (classification only); it marks which
        features are eligible.
    min_samples_leaf : int or float, default=1
        The fewest samples a branch must get, as in the estimators.
    task : {"classification", "regression"} or None, default=None
        None: classification for a classification criterion, else
        regression.

    Returns
    -------
    DataFrame
        One row per feature, best first: ``feature``, ``gain``,
        ``gain_ratio``, ``split_info``, ``threshold`` (NaN for a
        categorical feature), ``children`` (the branches),
        ``missing_fraction`` and the children's impurities and sizes.  No
        rows if the node cannot be split (pure or too small).
    """
    if task is None:
        task = "classification" if criterion in CLASSIFICATION else "regression"
    common = dict(criterion=criterion, max_depth=1, multiway=multiway,
                  categorical_features=categorical_features, missing=missing,
                  min_samples_leaf=min_samples_leaf)
    if task == "classification":
        est = DecisionTreeClassifier(average_gain=average_gain, **common)
    elif task == "regression":
        est = DecisionTreeRegressor(**common)
    else:
        raise ValueError(f"task must be 'classification' or 'regression'; got {task!r}.")
    est.fit(X, y, sample_weight=sample_weight)
    table = est.candidates(0)
    if table is None:  # the node is pure (or too small): nothing to split
        import pandas as pd

        return pd.DataFrame(columns=["feature", "gain", "gain_ratio", "split_info",
                                     "threshold", "children", "missing_fraction"])
    return table
