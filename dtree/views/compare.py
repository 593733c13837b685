"""Several trees on the same data, side by side: where they part, how they score.

Plain functions for the Compare page (no Streamlit):

* nodes of different trees are matched by their *root path*, the branches
  taken from the root.  A branch is named by what it holds rather than by
  its position, so that a multiway split and a subset split that make the
  same groups match child for child: ``0``/``1`` for the two sides of a
  numeric threshold, the frozenset of category codes for a categorical
  branch;
* :func:`first_divergence` walks the first tree in pre-order (depth-first
  growth order) and stops at the first node whose split differs between the
  trees (a different feature, threshold or grouping of categories, or a leaf
  in one tree and a split in another);
* :class:`Profile` holds one fitted tree with its data and computes, once,
  the train/test score of the grown tree cut at every depth and of the tree
  after every step (against its number of leaves), and its predictions at a
  step;
* :func:`find_parting` picks, from pairs of (algorithm, criterion) worth
  comparing, the first whose trees part on the data (the Compare page's
  default and its offers when the trees are all the same); :func:`pairs_for`,
  :func:`more_configs`, :func:`default_config`, :func:`criterion_options`
  and :func:`column_state` give each column's choices and starting values
  (the words are in :mod:`dtree.views.comparetext`);
* :func:`presenter_layout` says where presenter mode draws two to four
  trees and the window each one is folded to fit; :func:`parting_node`
  names the node where they part in a tree at a step, which the folding
  keeps drawn;
* :func:`agreement_matrix` compares the trees' test predictions;
* :func:`impurity_curves` evaluates the engine's impurity criteria for a
  two-class node over p;
* figure builders return Plotly figures (fonts of at least 16 px, Okabe–Ito
  colours, user text HTML-escaped).
"""

from __future__ import annotations

import html
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .vocabulary import criterion_name, missing_side, missing_split, t
from .. import NUMERIC, OKABE_ITO, branch_labels, make_criterion
from .explain import encode, score_path
from .focus import above_tree_css, presenter_window
from .viz import line_mode

#: One colour per configuration (charts, column headers): blue, vermillion,
#: bluish green, orange.  Reddish purple marks the node where the trees part.
CONFIG_COLOURS = (OKABE_ITO[4], OKABE_ITO[5], OKABE_ITO[2], OKABE_ITO[0])
DIVERGENCE_COLOUR = OKABE_ITO[6]
FONT_SIZE = 18
#: Presenter mode at 1280x720, in rem (22 px): how far below the window's
#: top the first row of trees starts (the step bar, the narration, a tree's
#: heading), and how much more each further row starts below the row above
#: (its heading).
PRESENTER_ABOVE_REM = 8.75
PRESENTER_ROW_REM = 2.85
#: The gap between the trees side by side, in rem (Streamlit's "small"),
#: and the margin kept under the last row, above the bottom strip.
PRESENTER_GAP_REM, PRESENTER_UNDER_REM = 1.0, 0.4


def _plain(text, n=40) -> str:
    """User text for Plotly: one line, shortened, HTML-escaped."""
    text = " ".join(str(text).split())
    text = text if len(text) <= n else text[: n - 1] + "…"
    return html.escape(text, quote=True)


# ---------------------------------------------------------------------------
# Matching nodes across trees
# ---------------------------------------------------------------------------


def branch_keys(tree, node) -> list:
    """The key of each child of ``node``, in branch order: 0/1 for the sides of
    a numeric threshold, the frozenset of category codes for a categorical
    branch (codes the node never saw are left out)."""
    n = len(tree.children_of(node))
    if int(tree.kind[node]) == NUMERIC:
        return list(range(n))
    table = np.asarray(tree.branch_of_code[node])
    return [frozenset(np.flatnonzero(table == b).tolist()) for b in range(n)]


def root_path(tree, node) -> tuple:
    """The branch keys from the root down to ``node``."""
    path = []
    while tree.parent[node] >= 0:
        parent = int(tree.parent[node])
        position = tree.children_of(parent).index(node)
        path.append(branch_keys(tree, parent)[position])
        node = parent
    return tuple(reversed(path))


def node_at(tree, path):
    """The node of ``tree`` reached by ``path``, or None when the tree does
    not split that far (or splits differently on the way)."""
    node = 0
    for key in path:
        keys = branch_keys(tree, node) if tree.children_of(node) else []
        if key not in keys:
            return None
        node = tree.children_of(node)[keys.index(key)]
    return node


def split_signature(tree, node):
    """What a node does: None for a leaf, else (feature, kind, rule) where the
    rule is the threshold or the grouping of category codes."""
    if node is None or not tree.children_of(node):
        return None
    feature = int(tree.feature[node])
    if int(tree.kind[node]) == NUMERIC:
        return (feature, "numeric", float(tree.threshold[node]))
    return (feature, "categorical", frozenset(branch_keys(tree, node)))


def same_split(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if a[:2] != b[:2]:
        return False
    if a[1] == "numeric":
        return math.isclose(a[2], b[2], rel_tol=1e-9, abs_tol=1e-12)
    return a[2] == b[2]


@dataclass
class Divergence:
    """The first node (in pre-order of the first tree) where the trees differ.

    path : its root path (see :func:`root_path`)
    nodes : its id in each tree's ``growth_tree_`` (None where a tree stopped
        above it; cannot happen at the first divergence, kept for safety)
    signatures : each tree's :func:`split_signature` there
    n_shared : splits made identically by every tree before this node
    steps : for each tree, the index in ``steps_`` of the step that splits
        this node (None if the node is a leaf there)
    """

    path: tuple
    nodes: list
    signatures: list
    n_shared: int
    steps: list


def _preorder(tree):
    out, stack = [], [0]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(tree.children_of(node)))
    return out


def first_divergence(models):
    """The first :class:`Divergence` between fitted trees, or None when all of
    them make exactly the same splits."""
    trees = [m.growth_tree_ for m in models]
    ref = trees[0]
    shared = 0
    for node in _preorder(ref):
        path = root_path(ref, node)
        nodes = [node_at(t, path) for t in trees]
        signatures = [split_signature(t, n) for t, n in zip(trees, nodes)]
        if all(same_split(signatures[0], s) for s in signatures[1:]) and \
                all(n is not None for n in nodes):
            shared += signatures[0] is not None
            continue
        steps = [_step_of(m, n) for m, n in zip(models, nodes)]
        return Divergence(path, nodes, signatures, shared, steps)
    # every node of the first tree agrees; another tree may split further
    # below one of its leaves, which the walk above has already compared
    return None


def _step_of(model, node):
    if node is None:
        return None
    for s in model.steps_:
        if s.node == node:
            return s.index
    return None


def divergence_step(div) -> int | None:
    """The lockstep step at which the first tree splits the divergent node
    differently: the smallest step after which some tree has split it."""
    done = [s + 1 for s in div.steps if s is not None]
    return min(done) if done else None


# ---------------------------------------------------------------------------
# Choosing trees that part
# ---------------------------------------------------------------------------

#: Pairs of (algorithm, criterion) worth putting side by side, in the order
#: the Compare page tries them: the first pair whose trees part on the data
#: is its default (see :func:`find_parting`).
CLASSIFICATION_PAIRS = (
    (("CART", "gini"), ("CART", "entropy")),  # does the impurity measure matter?
    (("ID3", "entropy"), ("C4.5", "gain_ratio")),  # information gain or gain ratio
    (("CART", "gini"), ("C4.5", "gain_ratio")),  # binary Gini or multiway gain ratio
    (("CART", "gini"), ("ID3", "entropy")),
    (("CART", "gini"), ("CART", "misclassification")),
)
REGRESSION_PAIRS = (
    (("CART", "squared_error"), ("CART", "absolute_error")),  # mean or median
    (("CART", "squared_error"), ("CART", "poisson")),
    (("CART", "absolute_error"), ("CART", "friedman_mse")),
)
#: Changes made to both trees' parameters, tried in this order when no pair
#: parts with the page's own: no depth limit, then larger leaves.
ADJUSTMENTS = ({}, {"max_depth": None}, {"min_samples_leaf": 5})


@dataclass
class Parting:
    """Configurations whose trees part.

    configs : ((algorithm, criterion), ...)
    changes : what was changed in the parameters given to
        :func:`find_parting` (the same for every tree); empty if nothing
    params : the parameters every tree was grown with
    step : the lockstep step at which they part (:func:`divergence_step`)
    """

    configs: tuple
    changes: dict
    params: dict
    step: int | None


def find_parting(pairs, fit, params, adjustments=ADJUSTMENTS):
    """The first of ``pairs`` whose trees part, trying every pair with
    ``params`` before changing any parameter (``adjustments``, in order,
    skipping those that change nothing).  ``fit(algorithm, criterion,
    params)`` returns a fitted model, or None if that tree cannot be grown.
    Returns a :class:`Parting`, or None when every tree tried is the same.
    Deterministic: the same data and parameters give the same answer."""
    seen = []
    for change in adjustments:
        grown = {**params, **change}
        if grown in seen:
            continue
        seen.append(grown)
        changes = {k: v for k, v in change.items() if params.get(k) != v}
        for configs in pairs:
            models = [fit(a, c, dict(grown)) for a, c in configs]
            if any(m is None for m in models):
                continue
            div = first_divergence(models)
            if div is not None:
                return Parting(tuple(configs), changes, grown, divergence_step(div))
    return None


#: Columns 3 and 4 of the Compare page (when asked for): the first of these
#: not already shown.
MORE_CLASSIFICATION = (("CART", "gain_ratio"), ("CART", "misclassification"),
                       ("CART", "entropy"), ("CART", "gini"), ("C4.5", "gain_ratio"),
                       ("ID3", "entropy"))
MORE_REGRESSION = tuple(("CART", c) for c in ("squared_error", "absolute_error",
                                              "friedman_mse", "poisson"))
#: On a training set larger than this (rows × features) only the first pair is
#: tried, with the page's parameters: every try is a fit.
SEARCH_CELLS = 2_000_000


def poisson_allowed(task, y_train) -> bool:
    """True if a Poisson regression tree can be grown on this target:
    regression, with rows, no negative value and a positive sum."""
    if task == "classification":
        return False
    y = np.asarray(y_train)
    return bool(len(y) and y.min() >= 0 and y.sum() > 0)


def _with_poisson(configs, poisson):
    return tuple(c for c in configs if poisson or all(crit != "poisson" for _, crit in c))


def pairs_for(task, poisson=True) -> tuple:
    """The pairs :func:`find_parting` tries for ``task``, without those that
    need a Poisson tree when ``poisson`` is False."""
    if task == "classification":
        return CLASSIFICATION_PAIRS
    return _with_poisson(REGRESSION_PAIRS, poisson)


def more_configs(task, poisson=True) -> list:
    """The (algorithm, criterion) candidates for columns 3 and 4, in order."""
    if task == "classification":
        return list(MORE_CLASSIFICATION)
    return [c for c in MORE_REGRESSION if c[1] != "poisson" or poisson]


def default_config(i, pair, changes, growth, more) -> tuple:
    """(algorithm, criterion, growth, parameter changes) of column ``i``
    before the user changes it: the two of ``pair`` (the parting pair or the
    first one tried), then the first of ``more`` not in it; past those
    (regression without Poisson), CART squared error grown best-first, so
    that the growth orders are compared instead."""
    if i < 2:
        algorithm, criterion = pair[i]
        return algorithm, criterion, growth, changes
    rest = [c for c in more if c not in pair]
    if i - 2 < len(rest):
        return (*rest[i - 2], growth, changes)
    return "CART", "squared_error", "best_first", changes


def criterion_options(criteria, task, algorithm, poisson=True) -> list:
    """A column's criteria: ``criteria`` (the algorithm's, from
    ``dtree.tables.prepare.criteria_for``), with the second-order Taylor
    impurity added for CART classification and Poisson dropped when
    ``poisson`` is False."""
    options = list(criteria)
    classification = task == "classification"
    if classification and algorithm == "CART" and "taylor2" not in options:
        options.append("taylor2")
    if not classification and not poisson:
        options = [c for c in options if c != "poisson"]
    return options


def search_scope(pairs, adjustments, n_cells, limit=SEARCH_CELLS) -> tuple:
    """(pairs, adjustments) to try on a training set of ``n_cells`` values:
    all of them, or on a large one (more than ``limit``) only the first pair
    with the parameters as they are."""
    if n_cells > limit:
        return tuple(pairs[:1]), ({},)
    return tuple(pairs), tuple(adjustments)


def column_state(configs, params) -> dict:
    """The Compare page's widget values (session keys ``cmp_n``,
    ``cmp_p1``...) that show ``configs``, every one grown with ``params``."""
    out = {"cmp_n": len(configs)}
    for n, (algorithm, criterion) in enumerate(configs, start=1):
        out.update({f"cmp_p{n}": algorithm, f"cmp_c{n}": criterion,
                    f"cmp_g{n}": params["growth"], f"cmp_d{n}": params["max_depth"],
                    f"cmp_l{n}": params["min_samples_leaf"],
                    f"cmp_m{n}": params["max_leaf_nodes"]})
    return out


def shows_parting(parting, shown) -> bool:
    """True if ``shown``, the trees on the page as (algorithm, criterion,
    params) triples, are exactly ``parting``'s, and it had to change the
    parameters to make them part."""
    if parting is None or not parting.changes:
        return False
    return ([(a, c) for a, c, _ in shown] == list(parting.configs)
            and all(dict(p) == parting.params for _, _, p in shown))


def step_node(model, k) -> int:
    """The node split in step ``k`` (1-based) of ``model``; the root at step 0."""
    return int(model.steps_[k - 1].node) if k else 0


# ---------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------


def _category_names(model, feature):
    cats = getattr(model, "categories_", None)
    if cats is None or cats[feature] is None:
        return None
    return [str(c) for c in cats[feature]]


def _category_condition(model, feature, codes) -> str:
    """"= a" for one category, "∈ {a, b}" for several."""
    names = _category_names(model, feature)
    members = [names[c] if names is not None and c < len(names) else str(c)
               for c in sorted(codes)]
    return "= " + members[0] if len(members) == 1 else "∈ {" + ", ".join(members) + "}"


def path_conditions(model, path, lang="en") -> list:
    """The conditions on the way to the node at ``path`` in ``model``'s tree:
    a list of (feature name, condition), e.g. ("petal width", "≤ 1.75"), or
    ("bill_length_mm", "missing") after a split of known against missing
    values (in ``lang``)."""
    tree = model.growth_tree_
    names = [str(n) for n in model.feature_names_in_]
    out, node = [], 0
    for key in path:
        keys = branch_keys(tree, node)
        feature = int(tree.feature[node])
        position = keys.index(key)
        if int(tree.kind[node]) == NUMERIC:
            cut = float(tree.threshold[node])
            cond = (missing_side(position, lang) if cut == math.inf
                    else f"≤ {cut:.4g}" if position == 0 else f"> {cut:.4g}")
        else:
            cond = _category_condition(model, feature, key)
        out.append((names[feature], cond))
        node = tree.children_of(node)[position]
    return out


def split_text(model, node, escape=str, lang="en") -> str:
    """What a node of ``model.growth_tree_`` does, in words (user text passed
    through ``escape``)."""
    tree = model.growth_tree_
    if node is None or not tree.children_of(node):
        return t(lang, "makes it a leaf", "不再划分（叶结点）")
    feature = int(tree.feature[node])
    name = escape(str(model.feature_names_in_[feature]))
    if int(tree.kind[node]) == NUMERIC:
        cut = float(tree.threshold[node])
        rule = missing_split(name, lang) if cut == math.inf else f"{name} ≤ {cut:.4g}"
    else:
        labels = branch_labels(tree, node, _category_names(model, feature))
        rule = f"{name}: " + " | ".join(escape(b) for b in labels)
    return t(lang, f"splits on {rule}", f"按 {rule} 划分")


def divergence_text(div, models, labels, escape=str, lang="en") -> str:
    """One paragraph: how many splits the trees share, where they part and
    what each does there.  ``labels`` name the configurations (not user text);
    feature names and categories go through ``escape``."""
    if div is None:
        return t(lang, "The trees are identical: every configuration makes the same "
                        "splits.",
                  "这些树完全相同：每种配置做出的划分都一样。")
    conds = path_conditions(models[0], div.path, lang)
    if conds:
        where = " → ".join(f"{escape(f)} {escape(c)}" for f, c in conds)
        where = t(lang, f"at the node reached by {where}", f"在由 {where} 到达的结点")
    else:
        where = t(lang, "at the root", "在根结点")
    n = div.n_shared
    if n == 0:
        head = t(lang, "The trees differ from the first split: ", "这些树从第一次划分起就不同：")
    else:
        head = t(lang, "The trees agree on the first split; " if n == 1 else
                 f"The trees agree on the first {n} splits; ", f"这些树的前 {n} 次划分相同；")
    parts = []
    for model, node, label in zip(models, div.nodes, labels):
        parts.append(f"{label} {split_text(model, node, escape, lang)}")
    return head + where + t(lang, ", ", "，") + t(lang, "; ", "；").join(parts) + \
        t(lang, ".", "。")


def highlight_dot(dot: str, node_index: int, colour: str = DIVERGENCE_COLOUR,
                  penwidth: float = 7) -> str:
    """``dot`` with node ``node_index`` outlined (a later node statement adds
    to the node's attributes).  Unchanged if the DOT has no such node (it was
    cut from the drawing)."""
    import re

    if not re.search(rf"^{int(node_index)} \[", dot, flags=re.M):
        return dot
    end = dot.rstrip().rfind("}")
    extra = f'{int(node_index)} [color="{colour}", penwidth={penwidth}] ;\n'
    return dot[:end] + extra + dot[end:]


def presenter_grid(n_trees: int) -> tuple[int, int]:
    """(columns, rows) of presenter mode's trees: up to three side by side,
    four in two rows of two (each tree then has half the height but twice
    the width of a quarter of the screen, where a tree's levels fit)."""
    if n_trees <= 3:
        return max(n_trees, 1), 1
    return 2, (n_trees + 1) // 2


@dataclass(frozen=True)
class PresenterLayout:
    """Where presenter mode draws ``n`` trees: ``columns`` a row, ``rows``
    rows; ``window``, each tree's box at 1280x720 in CSS pixels (for
    folding, :func:`dtree.views.focus.focus_folds`); ``above_css``, app.py's
    ``--dtree-above-tree`` for boxes that high."""

    columns: int
    rows: int
    window: tuple
    above_css: str


def presenter_layout(n_trees: int) -> PresenterLayout:
    """The :class:`PresenterLayout` of ``n_trees`` trees."""
    columns, rows = presenter_grid(n_trees)
    window = presenter_window(PRESENTER_ABOVE_REM, columns=columns, rows=rows,
                              gap_rem=PRESENTER_GAP_REM, row_rem=PRESENTER_ROW_REM,
                              under_rem=PRESENTER_UNDER_REM)
    css = above_tree_css(PRESENTER_ABOVE_REM, rows, PRESENTER_ROW_REM, PRESENTER_UNDER_REM)
    return PresenterLayout(columns, rows, window, css)


def parting_node(tree, div):
    """The id of the node where compared trees part (``div``, a
    :class:`Divergence`) in ``tree`` (one of the trees at a step,
    ``model.tree_at(k)``), or None if that tree does not reach it."""
    if div is None:
        return None
    node = node_at(tree, div.path)
    return None if node is None else int(tree.node_ids[node])


# ---------------------------------------------------------------------------
# Scores and predictions
# ---------------------------------------------------------------------------


def encoded(model, X):
    """X as the tree's routing reads it (categories as codes, float32)."""
    return encode(model, X)


def tree_predict(model, tree, Xe):
    """Predictions of ``tree`` (a ``tree_at(k)`` or a truncation of the
    model's tree) on encoded rows: class labels or values."""
    values = tree.predict(Xe)
    if hasattr(model, "classes_"):
        return model.classes_[np.argmax(values, axis=1)]
    return values[:, 0]


def score(model, predictions, y) -> float:
    """Accuracy (classifier) or R² (regressor), as ``model.score`` computes
    them; NaN without rows."""
    y = np.asarray(y)
    if not len(y):
        return float("nan")
    if hasattr(model, "classes_"):
        return float(np.mean(predictions == y))
    y = y.astype(np.float64)
    ss_res = float(np.sum((y - predictions) ** 2))
    ss_tot = float(np.sum((y - y.mean()) ** 2))
    if ss_tot == 0:
        return 1.0 if ss_res == 0 else 0.0
    return 1.0 - ss_res / ss_tot


def truncate(tree, depth):
    """The tree cut at ``depth``: nodes deeper than it are dropped and their
    ancestors at that depth become leaves."""
    return tree.subtree(tree.depth <= depth)


def leaf_counts(model) -> np.ndarray:
    """Number of leaves of ``tree_at(k)`` for k = 0..len(steps_) (k + 1 for
    binary splits; a multiway split adds one leaf per branch but one)."""
    added = [len(s.children) - 1 for s in model.steps_]
    return 1 + np.concatenate([[0], np.cumsum(added, dtype=np.int64)]).astype(int)


class Profile:
    """One configuration's fitted tree with its train/test data; everything
    derived is computed on first use and kept (treat as read-only)."""

    def __init__(self, model, X_train, y_train, X_test, y_test):
        self.model = model
        self.X_train, self.y_train = X_train, np.asarray(y_train)
        self.X_test, self.y_test = X_test, np.asarray(y_test)
        self._predictions = OrderedDict()
        self._trees = OrderedDict()
        self._lock = threading.RLock()  # a Profile may be shared by sessions

    @property
    def n_steps(self):
        return len(self.model.steps_)

    def tree(self, k):
        """``model.tree_at(k)`` (the last few are kept)."""
        with self._lock:
            return _remember(self._trees, k, lambda: self.model.tree_at(k))

    @cached_property
    def _train_encoded(self):
        return encoded(self.model, self.X_train)

    @cached_property
    def _test_encoded(self):
        return encoded(self.model, self.X_test) if len(self.y_test) else None

    @cached_property
    def depth_scores(self):
        """(depths, leaves, train, test): the grown tree cut at depth d for
        d = 0..its depth, with the leaves of each cut tree."""
        full = self.model.growth_tree_
        depths = np.arange(full.max_depth + 1)
        leaves, train, test = [], [], []
        for d in depths:
            cut = truncate(full, d)
            leaves.append(cut.n_leaves)
            train.append(score(self.model, tree_predict(self.model, cut, self._train_encoded),
                               self.y_train))
            test.append(score(self.model, tree_predict(self.model, cut, self._test_encoded),
                              self.y_test) if self._test_encoded is not None else np.nan)
        return depths, np.array(leaves), np.array(train), np.array(test)

    @cached_property
    def step_scores(self):
        """(leaves, train, test) of ``tree_at(k)`` for every step k."""
        train = score_path(self.model, self.X_train, self.y_train)
        test = score_path(self.model, self.X_test, self.y_test)
        return leaf_counts(self.model), train, test

    def derived_nbytes(self) -> int:
        """Bytes of the arrays this profile computed and keeps (encoded rows,
        scores, the last trees and predictions), not those it was given."""
        given = {"model", "X_train", "y_train", "X_test", "y_test", "_lock"}
        with self._lock:
            kept = [v for k, v in vars(self).items() if k not in given]
        return _array_bytes(kept)

    def test_predictions(self, k):
        """Predictions of ``tree_at(k)`` on the test rows (the last few are kept)."""
        Xe = self._test_encoded
        with self._lock:
            return _remember(self._predictions, k, lambda: np.zeros(0) if Xe is None
                             else tree_predict(self.model, self.tree(k), Xe))


#: How many steps' trees and predictions a Profile keeps (a tree of thousands
#: of steps would otherwise keep thousands of trees while the user steps).
KEEP = 8


def _array_bytes(obj, depth=0) -> int:
    """Bytes of the numpy arrays in ``obj`` (containers and plain objects,
    a few levels deep)."""
    if isinstance(obj, np.ndarray):
        return obj.nbytes
    if depth > 4:
        return 0
    if isinstance(obj, dict):
        return sum(_array_bytes(v, depth + 1) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return sum(_array_bytes(v, depth + 1) for v in obj)
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        return _array_bytes(vars(obj), depth + 1)
    return 0


def _remember(store, k, compute):
    """store[k], computed if missing; the least recently used entries beyond
    KEEP are dropped (``store`` is an OrderedDict)."""
    if k in store:
        store.move_to_end(k)
        return store[k]
    store[k] = value = compute()
    while len(store) > KEEP:
        store.popitem(last=False)
    return value


def agreement_matrix(predictions, classification=True) -> np.ndarray:
    """For classifiers, the fraction of rows on which trees i and j predict the
    same class; for regressors, the mean absolute difference of their
    predictions.  NaN without rows."""
    k = len(predictions)
    out = np.full((k, k), np.nan)
    if not k or not len(predictions[0]):
        return out
    for i in range(k):
        for j in range(k):
            a, b = np.asarray(predictions[i]), np.asarray(predictions[j])
            out[i, j] = (np.mean(a == b) if classification
                         else np.mean(np.abs(a.astype(float) - b.astype(float))))
    return out


# ---------------------------------------------------------------------------
# Impurity functions of a two-class node
# ---------------------------------------------------------------------------

#: The curves drawn, in order: (key, criterion of the engine, scale).
IMPURITY_CURVES = (("entropy", "entropy", 1.0), ("half_entropy", "entropy", 0.5),
                   ("gini", "gini", 1.0), ("misclassification", "misclassification", 1.0),
                   ("taylor2", "taylor2", 1.0))


def impurity_curves(p) -> dict:
    """The impurity of a two-class node with class shares (p, 1 − p) for each
    curve of :data:`IMPURITY_CURVES`, by the engine's criteria."""
    p = np.asarray(p, dtype=np.float64)
    stats = np.vstack([p, 1.0 - p, np.ones_like(p)])
    out = {}
    for key, criterion, scale in IMPURITY_CURVES:
        out[key] = scale * make_criterion(criterion, 2, classification=True).impurity(stats)
    return out


def node_share(model, node):
    """(p, two_classes) of a node of ``model.growth_tree_``: with two classes,
    the share of the second class (``classes_[1]``); otherwise the share of
    the node's majority class."""
    fractions = model.growth_tree_.value[node, 0, :]
    if len(fractions) == 2:
        return float(fractions[1]), True
    return float(np.max(fractions)), False


# ---------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------


def _layout(fig, title, height):
    fig.update_layout(
        title={"text": title, "font": {"size": FONT_SIZE + 2}} if title else None,
        font={"size": FONT_SIZE}, height=height,
        margin={"l": 70, "r": 20, "t": 70 if title else 30, "b": 60},
        legend={"font": {"size": FONT_SIZE - 2}})
    axis = {"tickfont": {"size": FONT_SIZE - 2}, "title_font": {"size": FONT_SIZE}}
    fig.update_xaxes(**axis)
    fig.update_yaxes(**axis)
    return fig


def scores_figure(profiles, labels, step, metric="accuracy", lang="en"):
    """Train (solid) and test (dashed) score of each configuration against
    depth (the grown tree cut at depth d) and against the number of leaves
    (the tree after each step), with each tree's current step marked."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.08, subplot_titles=(
        t(lang, "against depth (grown tree cut at depth d)", "随深度变化（生成的树截断到深度 d）"),
        t(lang, "against leaves (the tree after each step)", "随叶结点数变化（每一步之后的树）")))
    train_name, test_name = t(lang, "train", "训练集"), t(lang, "test", "测试集")
    for i, (profile, label) in enumerate(zip(profiles, labels)):
        colour = CONFIG_COLOURS[i % len(CONFIG_COLOURS)]
        # later configurations draw thinner lines on top, so that equal
        # curves show as nested stripes rather than hiding each other
        width = 2.5 + 1.5 * (len(profiles) - 1 - i)
        name = _plain(label)
        depths, _, d_train, d_test = profile.depth_scores
        leaves, s_train, s_test = profile.step_scores
        for col, x, tr_y, te_y in ((1, depths, d_train, d_test), (2, leaves, s_train, s_test)):
            fig.add_trace(go.Scatter(
                x=x, y=tr_y, mode=line_mode(len(x)), name=name, legendgroup=str(i),
                showlegend=col == 1, line={"color": colour, "width": width},
                marker={"size": 4 + width},
                hovertemplate=f"{name}<br>{train_name}: %{{y:.3f}}<extra></extra>"),
                row=1, col=col)
            if np.isfinite(te_y).any():
                fig.add_trace(go.Scatter(
                    x=x, y=te_y, mode=line_mode(len(x)), name=name, legendgroup=str(i),
                    showlegend=False, line={"color": colour, "width": width, "dash": "dash"},
                    marker={"size": 4 + width, "symbol": "diamond"},
                    hovertemplate=f"{name}<br>{test_name}: %{{y:.3f}}<extra></extra>"),
                    row=1, col=col)
        # where this tree is at the current step
        k = min(step, profile.n_steps)
        ys = [v for v in (s_train[k], s_test[k]) if np.isfinite(v)]
        fig.add_trace(go.Scatter(
            x=[leaves[k]] * len(ys), y=ys, mode="markers", legendgroup=str(i),
            showlegend=False, hoverinfo="skip",
            marker={"size": 18, "color": "rgba(0,0,0,0)",
                    "line": {"color": colour, "width": 3}}), row=1, col=2)
    # the line styles, once, in grey
    for dash, name in (("solid", train_name), ("dash", test_name)):
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=name,
                                 line={"color": "#555", "width": 3, "dash": dash}))
    fig.update_xaxes(title_text=t(lang, "depth", "深度"), row=1, col=1, dtick=1)
    fig.update_xaxes(title_text=t(lang, "leaves", "叶结点数"), row=1, col=2)
    fig.update_yaxes(title_text=metric, row=1, col=1)
    fig.update_annotations(font_size=FONT_SIZE)
    _layout(fig, None, 500)
    fig.update_layout(legend={"orientation": "h", "y": -0.18, "x": 0.5,
                              "xanchor": "center", "yanchor": "top"},
                      margin={"t": 50, "b": 110})
    return fig


def agreement_figure(matrix, labels, classification=True, lang="en"):
    """Heatmap of :func:`agreement_matrix`, annotated with the numbers."""
    import plotly.graph_objects as go

    names = [_plain(label, 30) for label in labels]
    if classification:
        title = t(lang, "Share of test rows on which two trees predict the same class",
                  "两棵树对测试样本预测相同类别的比例")
        colours, zmin, zmax, fmt = "Blues", 0.0, 1.0, ".2f"
    else:
        title = t(lang, "Mean |difference| of two trees' test predictions",
                  "两棵树测试集预测值之差的绝对值的均值")
        finite = matrix[np.isfinite(matrix)]
        colours, zmin, zmax, fmt = "Blues_r", 0.0, float(finite.max()) if finite.size \
            and finite.max() > 0 else 1.0, ".3g"
    fig = go.Figure(go.Heatmap(
        z=matrix, x=names, y=names, colorscale=colours, zmin=zmin, zmax=zmax,
        text=[[format(v, fmt) if np.isfinite(v) else "–" for v in row] for row in matrix],
        texttemplate="%{text}", textfont={"size": FONT_SIZE + 2},
        hovertemplate="%{y} · %{x}: %{text}<extra></extra>", showscale=False))
    fig.update_yaxes(autorange="reversed")
    return _layout(fig, title, 140 + 90 * len(labels))


def impurity_figure(p=None, two_classes=True, lang="en", n_points=201):
    """Entropy, entropy/2, Gini, misclassification and the second-order Taylor
    approximation of a two-class node against p, with p marked."""
    import plotly.graph_objects as go

    grid = np.linspace(0.0, 1.0, n_points)
    curves = impurity_curves(grid)
    styles = {
        "entropy": (OKABE_ITO[4], "solid"), "half_entropy": (OKABE_ITO[4], "dot"),
        "gini": (OKABE_ITO[5], "solid"), "misclassification": (OKABE_ITO[2], "dash"),
        "taylor2": (OKABE_ITO[0], "dashdot"),
    }
    names = {key: criterion_name(key, lang, short=True) for key in styles}
    at = None if p is None else impurity_curves([p])
    fig = go.Figure()
    for key, _, _ in IMPURITY_CURVES:
        colour, dash = styles[key]
        name = names[key]
        if at is not None:
            name = f"{name}: {at[key][0]:.3f}"
        fig.add_trace(go.Scatter(x=grid, y=curves[key], mode="lines", name=name,
                                 line={"color": colour, "width": 3, "dash": dash}))
        if at is not None:
            fig.add_trace(go.Scatter(x=[p], y=at[key], mode="markers", showlegend=False,
                                     marker={"color": colour, "size": 12,
                                             "line": {"color": "#000", "width": 1}},
                                     hovertemplate=f"{names[key]}: %{{y:.3f}}<extra></extra>"))
    if p is not None:
        fig.add_vline(x=p, line={"color": "#333", "width": 2, "dash": "dot"},
                      annotation_text=f"p = {p:.3f}", annotation_position="bottom right",
                      annotation_font_size=FONT_SIZE - 2)
    xlabel = (t(lang, "p (share of one class in a two-class node)",
                "p（二分类结点中某一类的比例）") if two_classes else
              t(lang, "p (share of the majority class)", "p（多数类所占比例）"))
    _layout(fig, t(lang, "Impurity of a two-class node", "二分类结点的不纯度"), 480)
    fig.update_xaxes(title_text=xlabel, range=[0, 1])
    fig.update_yaxes(title_text=t(lang, "impurity", "不纯度"), rangemode="tozero")
    return fig
