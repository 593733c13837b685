"""The estimators: DecisionTreeClassifier and DecisionTreeRegressor, and
``candidate_splits`` (one node's candidate table without growing a tree).
What they share is in ``dtree/_estimator.py``."""

import numpy as np

from . import _median, _multioutput
from ._base import unique_inverse
from ._criteria import CLASSIFICATION, REGRESSION
from ._errors import CodedError
from ._estimator import BaseDecisionTree, _param_error


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
    class_weight : dict, list of dict, "balanced" or None, default=None
        Weights of the classes, multiplied into the sample weights: a dict
        ``{label: weight}`` (labels not named keep weight 1), or
        ``"balanced"``: ``n_samples / (n_classes * count of the class)``.
        For a ``y`` of several columns, a list of one dict per column (or
        ``"balanced"``, for each column); a row's weight is the product of
        its columns' class weights, as in scikit-learn.
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
    forced_splits : dict, str or None, default=None
        Splits imposed at the top of the tree, in LightGBM's forced-splits
        format (a dict, or its JSON text): ``{"feature": f, "threshold": t,
        "left": {...}, "right": {...}}`` splits the node on feature ``f``
        (an index, or a name in ``feature_names_``), the rows with
        ``x <= t`` going left (``x`` read in float32, as ``X`` is);
        ``"left"``/``"right"`` (absent or None: grown as usual) nest
        further forced splits.  A categorical feature takes
        ``"categories"``, the list of categories that go left (a subset
        split, ``multiway=False``), or with ``multiway=True`` an optional
        ``"branches"``, a dict from category to the forced split below it
        (one branch per category present in the node).  The forced nodes
        are split as given, top-down, and come first in ``steps_``
        (``forced=True``, with the algorithm's own ``best_gain``); growth
        goes on below them as usual.  A forced split must leave no branch
        empty and obey ``max_depth``, ``max_leaf_nodes`` (it counts in the
        budget), ``min_samples_split``, ``min_samples_leaf`` and
        ``min_weight_fraction_leaf``; the gain rules
        (``min_impurity_decrease``, pure nodes) do not stop it.  A spec
        that breaks a rule, names an unknown feature, category or key, or
        is nested more than 64 levels (10,000 splits, 1,000,000 characters
        of JSON) raises ``ValueError`` naming the node (``"root → left"``).
        Not with ``splitter="hist"`` or ``algorithm="j48"``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,) or list of ndarray
        The class labels, sorted (with ``algorithm="j48"`` and a categorical
        ``y``: its declared categories, in their order); for a ``y`` of
        several columns, a list of each column's labels.
    n_classes_ : int or ndarray of shape (n_outputs_,)
        The number of classes (of each column of ``y``).
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
        The number of columns of ``y`` (1 for a 1-d ``y``).  A tree of
        several outputs (multi-output, as in scikit-learn) predicts all of
        them from one tree, its impurity the mean of the outputs'; it grows
        binary CART splits of numeric features only (no ``algorithm`` but
        ``"cart"``, no ``multiway``, ``missing="c4.5"`` or categorical
        features), and ``predict_proba`` returns one array per output.
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
                 max_bins=255, forced_splits=None):
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
        self.forced_splits = forced_splits

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags

        return Tags(estimator_type="classifier",
                    target_tags=TargetTags(required=True, multi_output=True),
                    classifier_tags=ClassifierTags(),
                    input_tags=InputTags(allow_nan=True, sparse=True))

    def _encode_target(self, y):
        if y.dtype.kind == "f":
            if not np.all(np.isfinite(y)):
                raise CodedError("y_not_finite")
            if np.any(y != np.round(y)):
                raise CodedError("continuous_labels")
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
        if self.n_outputs_ > 1:
            return _multioutput.node_values(self, tree, stats, crit, prob)
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
        missing-value rule, the leaves' fractions combined by branch weight);
        for a multi-output tree a list of one such array per output."""
        if getattr(self, "n_outputs_", 1) > 1:
            return _multioutput.predict_proba(self, X)
        X = self._validate_X_predict(X)
        return self.tree_.predict(X)

    def predict_log_proba(self, X):
        proba = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            if isinstance(proba, list):
                return [np.log(p) for p in proba]
            return np.log(proba)

    def predict(self, X):
        """The most likely class of each sample (ties: the first class);
        shape (n_samples, n_outputs) for a multi-output tree."""
        if getattr(self, "n_outputs_", 1) > 1:
            return _multioutput.predict(self, X)
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def score(self, X, y, sample_weight=None):
        """Mean accuracy (weighted by ``sample_weight`` if given); for a
        multi-output tree, the share of samples with every output right."""
        if getattr(self, "n_outputs_", 1) > 1:
            return _multioutput.score(self, X, y, sample_weight)
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
    forced_splits : dict, str or None, default=None
        Splits imposed at the top of the tree, in LightGBM's forced-splits
        format (a dict, or its JSON text): ``{"feature": f, "threshold": t,
        "left": {...}, "right": {...}}`` splits the node on feature ``f``
        (an index, or a name in ``feature_names_``), the rows with
        ``x <= t`` going left (``x`` read in float32, as ``X`` is);
        ``"left"``/``"right"`` (absent or None: grown as usual) nest
        further forced splits.  A categorical feature takes
        ``"categories"``, the list of categories that go left (a subset
        split, ``multiway=False``), or with ``multiway=True`` an optional
        ``"branches"``, a dict from category to the forced split below it
        (one branch per category present in the node).  The forced nodes
        are split as given, top-down, and come first in ``steps_``
        (``forced=True``, with the algorithm's own ``best_gain``); growth
        goes on below them as usual.  A forced split must leave no branch
        empty and obey ``max_depth``, ``max_leaf_nodes`` (it counts in the
        budget), ``min_samples_split``, ``min_samples_leaf`` and
        ``min_weight_fraction_leaf``; the gain rules
        (``min_impurity_decrease``, pure nodes) do not stop it.  A spec
        that breaks a rule, names an unknown feature, category or key, or
        is nested more than 64 levels (10,000 splits, 1,000,000 characters
        of JSON) raises ``ValueError`` naming the node (``"root → left"``).
        Not with ``splitter="hist"``.

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
        The number of columns of ``y`` (1 for a 1-d ``y``).  A tree of
        several outputs (multi-output, as in scikit-learn) predicts all of
        them from one tree, its impurity the mean of the outputs'; it grows
        binary CART splits of numeric features only (no ``multiway``,
        ``missing="c4.5"`` or categorical features).
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
                 record_candidates=True, max_bins=255, forced_splits=None):
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
        self.forced_splits = forced_splits

    average_gain = False  # C4.5's average-gain rule is for gain ratio (classification)

    def __sklearn_tags__(self):
        from sklearn.utils import InputTags, RegressorTags, Tags, TargetTags

        return Tags(estimator_type="regressor",
                    target_tags=TargetTags(required=True, multi_output=True),
                    regressor_tags=RegressorTags(),
                    input_tags=InputTags(allow_nan=True, sparse=True))

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
        if self.n_outputs_ > 1:
            return _multioutput.node_values(self, tree, stats, crit, prob)
        if not crit.needs_samples:
            return (stats[:, 0] / stats[:, -1])[:, None, None]
        # absolute error predicts the weighted median of each node's samples
        # (all nodes at once, in memory linear in the rows: never rows x nodes)
        values = _median.node_weighted_medians(tree.apply(prob.X.T), tree.parent,
                                             prob.y, prob.w)
        return values[:, None, None]

    def predict(self, X):
        """The value of the leaf each sample reaches; shape (n_samples,
        n_outputs) for a multi-output tree."""
        if getattr(self, "n_outputs_", 1) > 1:
            return _multioutput.predict(self, X)
        X = self._validate_X_predict(X)
        return self.tree_.predict(X)[:, 0]

    def score(self, X, y, sample_weight=None):
        """Coefficient of determination R² (weighted by ``sample_weight``);
        for a multi-output tree, the outputs' R² averaged."""
        if getattr(self, "n_outputs_", 1) > 1:
            return _multioutput.score(self, X, y, sample_weight)
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
    _multioutput.refuse("candidate_splits", y=y)
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
