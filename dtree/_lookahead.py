"""The best classification tree of depth 2, found by exhaustive search.

Greedy growth (CART, ID3, C4.5) chooses each split for its own gain and
never looks further.  :func:`lookahead_tree` looks one level further: it
compares every depth-2 tree, a root split and one split under each child,
and keeps the one that classifies the most training rows correctly.  On
XOR-like data the root's best gain is about 0 for the features that matter,
so the greedy root is a noise feature, while the lookahead tree is perfect.

What is searched (binary splits, as CART makes them):

* a numeric feature splits at every threshold between two neighbouring
  distinct values of the table (values closer than ``FEATURE_THRESHOLD``
  count as one); a child's partition by such a threshold is every partition
  a threshold of the child's own rows can make, and the tree reports the
  child's own midpoint, a/2 + b/2, as CART does;
* a categorical feature splits into two groups of its categories, every
  grouping of the categories present in the table (2^(k-1) - 1 of them for
  k categories, at most :data:`MAX_GROUPED_CATEGORIES` categories);
* a child with no valid split (pure, or every row alike) stays a leaf.

The score is training accuracy: the rows a tree's leaves classify right
(each leaf predicts its majority class).  Ties go to the tree whose leaves
have the lower weighted impurity by ``criterion`` (gain ratio: entropy),
then to the first root in column order and threshold order.  Rows are
unweighted; a table with missing values is refused.

The work is rows x candidates^2 x (classes + 1) multiplications, done as
NumPy matrix products in blocks of roots; a table beyond :data:`MAX_ROWS`
rows, :data:`MAX_CANDIDATES` candidate splits or :data:`MAX_WORK`
multiplications is refused with a :class:`CodedError` that says which limit
it passes.
"""

from dataclasses import dataclass

import numpy as np

from ._base import unique_inverse
from ._classes import DecisionTreeClassifier
from ._criteria import make_criterion
from ._errors import CodedError
from ._problem import FEATURE_THRESHOLD

#: The most rows the search takes ...
MAX_ROWS = 2_000
#: ... the most candidate splits (thresholds and category groupings) ...
MAX_CANDIDATES = 1_000
#: ... and the most multiplications, rows x candidates^2 x (classes + 1):
#: about a second on one busy core.
MAX_WORK = 400_000_000
#: A categorical feature with more categories has too many groupings.
MAX_GROUPED_CATEGORIES = 10
#: Roots scored per matrix product (bounds the memory: block x candidates x
#: (classes + 1) floats).
_BLOCK = 64
#: Scores closer than this count as equal (sums of whole row counts, or of
#: impurities, which rounding moves in their last bits).
_TIE = 1e-9


@dataclass
class Lookahead:
    """The best depth-2 tree and CART's greedy depth-2 tree on the same rows.

    Attributes
    ----------
    estimator : DecisionTreeClassifier
        The lookahead tree, fitted with ``forced_splits`` so that it can be
        drawn, stepped and scored like any tree (its steps are forced).
    greedy : DecisionTreeClassifier
        CART's greedy tree of depth 2 with the same criterion.
    forced_splits : dict
        The lookahead tree as a forced-splits spec (LightGBM's format, the
        features by index; a categorical split lists the node's categories
        that go left).
    correct : int
        Training rows the lookahead tree classifies right.
    greedy_correct : int
        Training rows the greedy tree classifies right.
    n_samples : int
        Training rows.
    n_candidates : int
        Candidate splits of the table (thresholds and category groupings).
    n_trees : int
        Depth-2 trees compared (each root with each valid pair of child
        splits, a child without one counted once, as a leaf).
    """

    estimator: DecisionTreeClassifier
    greedy: DecisionTreeClassifier
    forced_splits: dict
    correct: int
    greedy_correct: int
    n_samples: int
    n_candidates: int
    n_trees: int

    @property
    def accuracy(self) -> float:
        """The lookahead tree's training accuracy."""
        return self.correct / self.n_samples

    @property
    def greedy_accuracy(self) -> float:
        """The greedy tree's training accuracy."""
        return self.greedy_correct / self.n_samples


def _numeric_candidates(x):
    """(masks, cut values): ``x <= a`` for each value a that has a next
    distinct value (float32 arithmetic, as the search)."""
    values = np.unique(x)
    cut = np.flatnonzero(values[1:] > values[:-1] + FEATURE_THRESHOLD)
    cuts = values[cut]
    return x[None, :] <= cuts[:, None], [float(v) for v in cuts]


def _category_candidates(x, name):
    """(masks, left codes): every grouping of the categories present in
    two, the first category always on the left (so each grouping once)."""
    present = np.unique(x).astype(np.intp)
    k = len(present)
    if k > MAX_GROUPED_CATEGORIES:
        raise CodedError("lookahead_categories", name=name, n=k, limit=MAX_GROUPED_CATEGORIES)
    patterns = np.arange(2 ** (k - 1) - 1)  # all ones (every category left) left out
    bits = ((patterns[:, None] >> np.arange(k - 1)) & 1).astype(bool)
    left = np.column_stack([np.ones(len(patterns), dtype=bool), bits])  # (groupings, k)
    position = np.searchsorted(present, x.astype(np.intp))
    return left[:, position], [tuple(present[row].tolist()) for row in left]


def _candidates(Xf, is_cat, names):
    """Every candidate split of the table: the (S, n) matrix of which rows
    go left, and (feature, cut value or left codes) for each."""
    masks, splits = [], []
    for j in range(Xf.shape[1]):
        x = Xf[:, j]
        if np.isnan(x).any():
            raise CodedError("lookahead_missing", name=names[j])
        if is_cat[j]:
            m, cuts = _category_candidates(x, names[j])
        else:
            m, cuts = _numeric_candidates(x)
        masks.append(m)
        splits += [(j, c) for c in cuts]
    M = np.vstack(masks) if masks else np.zeros((0, Xf.shape[0]), dtype=bool)
    return M, splits


def _best_child(x, z, parent, impurity, K):
    """For a block of roots' children: the best split of each child among
    all candidates.  ``x``, ``z``: (b, S, K+1) stats of the child's two
    sides under each candidate (classes, then rows); ``parent``: (b, K+1).
    Returns (correct, weighted impurity, chosen candidate or -1, valid
    candidates), one per root."""
    pure = parent[:, :K].max(axis=1) >= parent[:, K]  # a pure child stays a leaf, as in CART
    valid = (x[..., K] > 0) & (z[..., K] > 0) & ~pure[:, None]
    correct = np.where(valid, x[..., :K].max(axis=2) + z[..., :K].max(axis=2), -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = (x[..., K] * impurity(np.moveaxis(x, 2, 0))
                  + z[..., K] * impurity(np.moveaxis(z, 2, 0)))
        leaf_spread = parent[:, K] * impurity(parent.T)
    best = correct.max(axis=1)
    tied = valid & (correct >= best[:, None] - _TIE)
    spread = np.where(tied, spread, np.inf)
    least = spread.min(axis=1)
    choice = np.argmax(tied & (spread <= least[:, None] + _TIE), axis=1)  # the first
    n_valid = valid.sum(axis=1)
    leaf = n_valid == 0
    leaf_correct = parent[:, :K].max(axis=1)
    return (np.where(leaf, leaf_correct, best), np.where(leaf, np.nan_to_num(leaf_spread), least),
            np.where(leaf, -1, choice), n_valid)


def _search(M, codes, K, criterion):
    """(root, left child's split, right child's split, correct, trees
    compared): indices into the candidates, -1 for a leaf."""
    S, n = M.shape
    stats = np.zeros((n, K + 1), dtype=np.float32)
    stats[np.arange(n), codes] = 1.0
    stats[:, K] = 1.0  # the rows
    total = stats.sum(axis=0)
    Mf = M.astype(np.float32)  # row counts: exact in float32 below 2**24 rows
    left_of = Mf @ stats  # (S, K+1): each candidate's left side at the root
    crit = make_criterion("entropy" if criterion == "gain_ratio" else criterion, K,
                          classification=True)
    impurity = crit.impurity
    score = np.full(S, -np.inf)
    spread = np.full(S, np.inf)
    kids = np.full((S, 2), -1)
    n_trees = 0
    for start in range(0, S, _BLOCK):
        roots = slice(start, min(start + _BLOCK, S))
        # both[r, s] = stats of the rows that go left under root r and under s
        both = (Mf[roots][:, None, :] * stats.T[None]) @ Mf.T
        both = np.transpose(both, (0, 2, 1)).astype(np.float64)
        left, right = left_of[roots], total - left_of[roots]
        found = [_best_child(both, left[:, None, :] - both, left, impurity, K),
                 _best_child(left_of[None] - both, right[:, None, :] - (left_of[None] - both),
                             right, impurity, K)]
        score[roots] = found[0][0] + found[1][0]
        spread[roots] = found[0][1] + found[1][1]
        kids[roots] = np.column_stack([found[0][2], found[1][2]])
        n_trees += int(np.sum(np.maximum(found[0][3], 1) * np.maximum(found[1][3], 1)))
    best = score.max()
    tied = score >= best - _TIE
    least = np.where(tied, spread, np.inf).min()
    root = int(np.argmax(tied & (spread <= least + _TIE)))
    return root, int(kids[root, 0]), int(kids[root, 1]), int(round(best)), n_trees


def _spec(split, rows, Xf, categories):
    """A forced split for candidate ``split`` at the node of ``rows``: a
    numeric one at the midpoint of the node's two values around the cut, a
    categorical one with the node's categories that go left."""
    j, cut = split
    x = Xf[rows, j]
    if categories[j] is not None:
        present = np.unique(x).astype(np.intp)
        left = [categories[j][c] for c in present.tolist() if c in cut]
        return {"feature": j, "categories": [v.item() if hasattr(v, "item") else v
                                             for v in left]}
    a = float(x[x <= cut].max())
    b = float(x[x > cut].min())
    threshold = a / 2.0 + b / 2.0
    if np.float32(threshold) >= np.float32(b):  # the midpoint rounds onto b in float32
        threshold = a
    return {"feature": j, "threshold": threshold}


def lookahead_tree(X, y, *, criterion="gini", categorical_features="auto"):
    """The depth-2 classification tree with the highest training accuracy.

    Every root split is tried with every split of each of its two children
    (see the module's docstring for the candidates, the ties and the
    limits), and the best tree is returned with CART's greedy depth-2 tree
    on the same rows.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        The training rows, without missing values.
    y : array-like of shape (n_samples,)
        Their classes.
    criterion : str, default="gini"
        A classification criterion: the greedy tree's, and the tie-break
        among equally accurate lookahead trees.
    categorical_features : default="auto"
        Which features are categorical, as in :class:`DecisionTreeClassifier`.

    Returns
    -------
    Lookahead
        Both trees as fitted estimators, their correct rows, the forced-splits
        spec of the lookahead tree and the size of the search.

    Raises
    ------
    CodedError
        A ``ValueError``: too many rows, candidates or work for about a second
        (``lookahead_rows``, ``lookahead_candidates``, ``lookahead_work``), a
        categorical feature with too many categories to group
        (``lookahead_categories``) or missing values (``lookahead_missing``).
    """
    n = len(y)
    if n > MAX_ROWS:
        raise CodedError("lookahead_rows", n=n, limit=MAX_ROWS)
    common = dict(criterion=criterion, max_depth=2, algorithm="cart")
    greedy = DecisionTreeClassifier(categorical_features=categorical_features, **common)
    greedy.fit(X, y)
    Xf = greedy._validate_X_predict(X)
    names = greedy.feature_names_
    M, splits = _candidates(Xf, greedy.is_categorical_, names)
    S = len(splits)
    if S > MAX_CANDIDATES:
        raise CodedError("lookahead_candidates", n=S, limit=MAX_CANDIDATES)
    classes, codes = unique_inverse(np.asarray(y))
    K = len(classes)
    if S == 0 or K < 2:  # nothing to split, or nothing to learn: a single leaf
        raise CodedError("lookahead_nothing")
    work = n * S * S * (K + 1)
    if work > MAX_WORK:
        raise CodedError("lookahead_work", n=n, candidates=S, classes=K, work=work,
                         limit=MAX_WORK)
    root, left, right, correct, n_trees = _search(M, codes, K, criterion)
    categories = greedy.categories_
    spec = _spec(splits[root], np.arange(n), Xf, categories)
    for side, kid in (("left", left), ("right", right)):
        if kid >= 0:
            rows = np.flatnonzero(M[root] if side == "left" else ~M[root])
            spec[side] = _spec(splits[kid], rows, Xf, categories)
    estimator = DecisionTreeClassifier(categorical_features=list(greedy.is_categorical_),
                                       forced_splits=spec, **common).fit(X, y)
    greedy_correct = int(round(greedy.score(X, y) * n))
    return Lookahead(estimator, greedy, spec, correct, greedy_correct, n, S, n_trees)
