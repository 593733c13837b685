"""What the two estimators share: their parameters' checks, ``fit``, the
replay of their growth and prediction (:class:`BaseDecisionTree`), the
``algorithm`` presets, and two functions of a fitted tree (:func:`tree_input`,
:func:`feature_importances`).  The estimators themselves, with what differs
between classification and regression, are in ``dtree/_classes.py``."""

import functools
import math
import numbers

import numpy as np

from . import (_builders, _dask, _encode, _hist, _j48, _median, _multioutput, _problem,
               _sparse_input, _sparse_search)
from ._base import (BaseEstimator, _not_fitted_error, as_float32_matrix, as_sample_weight,
                    as_table, as_target, check_length, check_n_features, check_shape)
from ._criteria import make_criterion
from ._errors import CodedError
from ._forced_spec import count_forced, read_forced
from ._sparse_input import is_sparse, read_sparse
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
        if _multioutput.is_multioutput(y):  # y of several columns: dtree/_multioutput.py
            dask = _dask.is_dask_collection(X) or _dask.is_dask_collection(y)
            return _multioutput.fit(self, X, y, sample_weight, dask=dask)
        if _dask.is_dask_collection(X) or _dask.is_dask_collection(y):
            return _dask.fit(self, X, y, sample_weight)
        feature_names = check_n_features(self, X, reset=True)
        sparse = is_sparse(X)  # read as its non-zeros (dtree/_sparse_input.py)
        if not sparse:
            X = as_table(X)
        check_shape(X)
        n_samples, n_features = X.shape
        self._setup = self._resolve_algorithm()
        is_cat = _encode.resolve_categorical(X, self.categorical_features, n_features,
                                             feature_names)
        if sparse:
            _sparse_search.check_setup(self, self._setup, is_cat)
        names = (feature_names if feature_names is not None
                 else [f"x{i}" for i in range(n_features)])
        categories = [(_encode.learn_categories(X, j, str(names[j])) if is_cat[j] else None)
                      for j in range(n_features)]
        # J48 decides its cuts in double precision (float32 changes glass.arff's tree)
        self._x_dtype = np.float64 if self._setup["j48"] else np.float32
        Xf = self._encode_X(X, is_cat, categories)
        if sparse and n_samples * n_features <= _sparse_input.DENSE_CELLS:
            Xf, sparse = Xf.toarray(), False
        declared = getattr(getattr(y, "dtype", None), "categories", None)
        # y's own checks (Poisson's included) come before its length's, in
        # scikit-learn's order
        y = as_target(y, n_samples=None)
        if self._setup["j48"]:
            mo = self.min_objects
            if not (_is_real(mo) and mo > 0):
                raise _param_error(self, "min_objects", "a number > 0")
            self._declared_classes = declared
        y = self._encode_target(y)
        check_length(y, n_samples)
        if n_samples < 2:
            raise CodedError("one_sample", n_samples=n_samples)
        w = as_sample_weight(sample_weight, n_samples)
        has_weights = sample_weight is not None
        w, has_weights = self._apply_class_weight(y, w, has_weights)
        weight_sum = float(w.sum())
        if not weight_sum > 0:
            raise CodedError("zero_weight")
        params = self._resolve_params(n_samples, n_features, weight_sum, has_weights)
        setup = self._setup
        if sparse:  # (read_sparse refuses NaN)
            pass
        elif setup["missing"] == "error" and np.isnan(Xf).any():
            col = int(np.flatnonzero(np.isnan(Xf).any(axis=0))[0])
            code = ("missing_id3" if self.algorithm == "id3" else "missing_refused"
                    if self._is_classifier else "missing_refused_regression")
            raise CodedError(code, name=str(names[col]))
        elif (self.criterion == "absolute_error" and setup["missing"] == "c4.5"
              and np.isnan(Xf).any()):
            raise CodedError("absolute_error_missing")
        elif setup["multiway"] and setup["missing"] == "cart" and np.isnan(Xf[:, is_cat]).any():
            raise CodedError("multiway_missing")
        if self.splitter == "hist":
            self._check_hist(setup)
        self._fitted_setup(n_features, feature_names, is_cat, categories, params, setup)
        forced = self._read_forced(setup, params)

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
            np.empty((n_features, 0), np.float32) if sparse else np.ascontiguousarray(Xk.T),
            sample_stats, yk, wk, crit,
            max_depth=params["max_depth"], min_samples_split=params["min_samples_split"],
            min_samples_leaf=params["min_samples_leaf"],
            min_weight_leaf=params["min_weight_leaf"], max_features=params["max_features"],
            splitter=self.splitter, min_impurity_decrease=float(self.min_impurity_decrease),
            weight_total=weight_sum, rng=self._rng(), categorical=is_cat,
            n_categories=[0 if c is None else len(c) for c in categories],
            multiway=setup["multiway"], missing=setup["missing"],
            average_gain=setup["average_gain"],
            quinlan=setup["multiway"] or setup["missing"] == "c4.5")
        prob.forced = forced
        if sparse:
            _sparse_search.attach(prob, Xk)
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
        self._prune_grown_tree()
        return self

    def _prune_grown_tree(self):
        """``ccp_alpha``'s pruning of the grown ``tree_`` (nothing at 0)."""
        if self.ccp_alpha > 0:
            from ._pruning import ccp_prune

            # steps_ and tree_at() describe the growth of the unpruned tree
            self.unpruned_tree_ = self.tree_
            self.tree_ = ccp_prune(self.tree_, float(self.ccp_alpha))

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

    def _read_forced(self, setup, params):
        """``forced_splits`` read against the fitted features (None if unset)."""
        spec = getattr(self, "forced_splits", None)  # (None in a tree saved before it)
        if spec is None:
            return None
        if setup["j48"]:
            raise CodedError("forced_refused", why="algorithm='j48' grows Weka's own tree")
        root = read_forced(spec, names=self.feature_names_,
                           is_cat=self.is_categorical_, categories=self.categories_,
                           multiway=setup["multiway"], max_depth=params["max_depth"],
                           dtype=self._x_dtype)
        n = count_forced(root)
        if params["max_splits"] is not None and n > params["max_splits"]:
            raise CodedError("forced_leaf_budget", n=n, budget=params["max_splits"],
                             max_leaf_nodes=self.max_leaf_nodes)
        return root

    def _check_hist(self, setup):
        """splitter="hist" grows binary CART splits from sums of statistics."""
        if getattr(self, "forced_splits", None) is not None:
            raise CodedError("forced_refused",
                             why="splitter='hist' searches bins, not the rows' values")
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
        if is_sparse(X):
            if np.any(is_cat):
                raise CodedError("sparse_refused", why="the tree has categorical features, "
                                 "read from a table (a DataFrame)")
            return read_sparse(X, dtype=dtype)
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
        forced = nodes.forced[:size][perm]
        best_gain = None
        if forced.any():
            # the forced splits were made first (top-down), whatever the order
            first = forced[split_order]
            split_order = np.r_[split_order[first], split_order[~first]]
            best_gain = nodes.best_gain[:size][perm]
        self._candidate_refs = {int(new_of_old[old]): ref
                                for old, ref in nodes.candidates.items()}
        steps = Steps(self, tree, split_order, self.feature_names_, self.categories_,
                      forced if forced.any() else None, best_gain)
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
        if not is_sparse(X):
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
        """The nodes each sample visits: a SciPy CSR matrix (n_samples,
        node_count) with 1 where sample i passes through node j, as
        scikit-learn returns it (``.toarray()`` for a dense array)."""
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
