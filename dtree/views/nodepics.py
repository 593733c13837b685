"""Pictures of one node's training rows (as dtreeviz draws them) and the
confusion matrix of the tree at a step, in plain Python.

* :func:`node_picture`: for a node split on a numeric feature, the class-stacked
  histogram of its rows' values with the threshold marked; on a categorical
  feature, the class counts per category; for a regression tree, the rows
  against the feature with each child's value (mean, or median under
  absolute error) on its side.
* :func:`confusion`: true class against predicted class of the tree at a step,
  with its accuracy.

The rows at a node are :func:`dtree.views.explain.node_rows` (the tree's own
routing, C4.5's fractional weights included); the figures are built by
:mod:`dtree.views.viz`.  Rows without a value of the split feature are left
out of a node's picture, and its caption says how many.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import explain
from .vocabulary import t
from .viz import (category_counts_figure, confusion_figure, criterion_of, node_histogram_figure,
                  node_scatter_figure, short)

#: How many bins a node's histogram has at most.
MAX_BINS = 24


@dataclass
class NodePicture:
    """A node's picture: ``figure`` (a Plotly Figure, None when there is
    nothing to draw), ``caption`` (what it shows) and ``missing`` (the note on
    rows left out, "" when none)."""
    figure: object
    caption: str
    missing: str


# ---------------------------------------------------------------------------
# The numbers
# ---------------------------------------------------------------------------


def bin_edges(x, threshold=np.nan, max_bins=MAX_BINS) -> np.ndarray:
    """Edges of a histogram of ``x`` (not empty) with at most ``max_bins``
    bins; a threshold inside the range is an edge, so that no bin holds rows
    of both sides."""
    x = np.asarray(x, dtype=float)
    lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        return np.array([lo - 0.5, hi + 0.5])
    n = int(min(max_bins, max(2, np.ceil(np.sqrt(len(x))))))
    if not lo < threshold < hi:
        return np.linspace(lo, hi, n + 1)
    left = int(np.clip(round(n * (threshold - lo) / (hi - lo)), 1, n - 1))
    return np.r_[np.linspace(lo, threshold, left + 1), np.linspace(threshold, hi, n - left + 1)[1:]]


def bin_of(x, edges) -> np.ndarray:
    """The bin of each value: bin i holds (edges[i], edges[i + 1]], the first
    bin its lower edge too (so a value equal to a threshold counts on the
    left, as the tree sends it)."""
    return np.clip(np.searchsorted(edges, np.asarray(x, float), side="left") - 1,
                   0, len(edges) - 2)


def class_bins(x, codes, weights, edges, n_classes) -> np.ndarray:
    """Weighted rows per class (rows) and bin (columns)."""
    out = np.zeros((n_classes, len(edges) - 1))
    np.add.at(out, (np.asarray(codes, np.intp), bin_of(x, edges)), weights)
    return out


def side_counts(x, codes, weights, threshold, n_classes) -> np.ndarray:
    """Weighted rows per side (≤ threshold, >) and class, shape (2, n_classes)."""
    right = (np.asarray(x, float) > threshold).astype(np.intp)
    out = np.zeros((2, n_classes))
    np.add.at(out, (right, np.asarray(codes, np.intp)), weights)
    return out


def class_categories(x_codes, codes, weights, n_categories, n_classes) -> np.ndarray:
    """Weighted rows per class (rows) and category code (columns)."""
    out = np.zeros((n_classes, n_categories))
    np.add.at(out, (np.asarray(codes, np.intp), np.asarray(x_codes).astype(np.intp)), weights)
    return out


@dataclass
class NodeRows:
    """The rows of a node with a known value of one feature: their values
    ``x`` (encoded), targets ``y`` (class codes or values), ``weights`` at
    the node, and how many rows reach it without a value (``n_missing``)."""
    x: np.ndarray
    y: np.ndarray
    weights: np.ndarray
    n_missing: int


def rows_at(tree, routes, X_encoded, y, node, feature) -> NodeRows:
    """The training rows reaching ``node`` of ``tree`` (``routes``:
    ``tree.leaf_weights(X_encoded)``) with a known value of ``feature``."""
    rows, weights = explain.node_rows(tree, routes, node)
    x = X_encoded[rows, feature].astype(float)
    known = ~np.isnan(x)
    return NodeRows(x[known], np.asarray(y)[rows][known], weights[known], int((~known).sum()))


# ---------------------------------------------------------------------------
# The picture of a split node
# ---------------------------------------------------------------------------


def node_picture(model, X_encoded, y, routes, node: int, s, lang: str = "en") -> NodePicture:
    """The picture of node ``node`` (an id of ``model.tree_``) split by step
    ``s``, from the training rows (``X_encoded``, ``y``: class codes or
    values, ``routes``: ``model.tree_.leaf_weights(X_encoded)``)."""
    f = int(s.feature)
    name = model.feature_names_in_[f]
    got = rows_at(model.tree_, routes, X_encoded, y, node, f)
    missing = "" if not got.n_missing else t(
        lang, f"{got.n_missing:,} row(s) reach this node without a value of this feature; "
              "they are not drawn.",
        f"有 {got.n_missing:,} 个样本到达该结点但缺少此特征的取值，图中没有画出它们。")
    if not np.allclose(got.weights, 1.0):
        missing = (missing + " " if missing else "") + t(
            lang, "Rows with a missing value higher up reach this node with a share of their "
                  "weight (C4.5's rule): the counts are weighted.",
            "在上层结点缺少取值的样本按权重份额到达该结点（C4.5 的规则）：计数是加权的。")
    if not len(got.x):
        return NodePicture(None, t(lang, "No row of this node has a value of this feature.",
                                   "该结点没有样本在此特征上有取值。"), missing)
    classifier = hasattr(model, "classes_")
    numeric = s.kind == "numeric"
    if not classifier:
        return _regression_picture(model, got, node, s, name, lang, missing)
    classes, n_classes = model.classes_, len(model.classes_)
    if numeric:
        edges = bin_edges(got.x, s.threshold)
        counts = class_bins(got.x, got.y, got.weights, edges, n_classes)
        sides = side_counts(got.x, got.y, got.weights, s.threshold, n_classes)
        figure = node_histogram_figure(edges, counts, classes, name, s.threshold, sides,
                                       node, lang=lang)
        return NodePicture(figure, t(
            lang, "The node's training rows by their value of the split feature, stacked by "
                  "class; the dashed line is the threshold (≤ goes left). The legend gives each "
                  "class's rows on either side.",
            "该结点的训练样本按划分特征的取值分组，并按类别堆叠；虚线是阈值（≤ 走左分支）。"
            "图例给出每个类别在两侧的样本数。"), missing)
    labels = model.categories_[f]
    counts = class_categories(got.x, got.y, got.weights, len(labels), n_classes)
    present = np.flatnonzero(counts.sum(axis=0) > 0)
    branch = _branches(model.tree_, node, present, s, lang)
    figure = category_counts_figure([labels[c] for c in present], counts[:, present], classes,
                                    name, branch, node, lang=lang)
    return NodePicture(figure, t(
        lang, "The node's training rows per category of the split feature, stacked by class; "
              "each label says the branch its category goes to.",
        "该结点的训练样本按划分特征的类别分组，并按类别（目标）堆叠；每个标签注明该类别进入的分支。"),
        missing)


def _branches(tree, node, codes, s, lang):
    """The branch each category code goes to, in words ("" when each is its
    own branch)."""
    if s.kind == "multiway":
        return ["" for _ in codes]
    table = tree.branch_of_code[node]
    side = [t(lang, "left", "左"), t(lang, "right", "右")]
    return [side[int(table[c])] if c < len(table) and table[c] >= 0 else "?" for c in codes]


def _regression_picture(model, got, node, s, name, lang, missing) -> NodePicture:
    """The rows against the split feature, each child's value on its side."""
    tree = model.tree_
    median = criterion_of(model) == "absolute_error"
    stat = t(lang, "median", "中位数") if median else t(lang, "mean", "均值")
    kids = list(s.children)
    values = [float(tree.value[c, 0, 0]) for c in kids]
    if s.kind == "numeric":
        lo, hi = float(got.x.min()), float(got.x.max())
        cut = min(max(float(s.threshold), lo), hi)
        spans = [(lo, cut), (cut, hi)]
        figure = node_scatter_figure(got.x, got.y, name, spans, values, s.threshold, stat, node,
                                     lang=lang)
    else:
        table = tree.branch_of_code[node]
        labels = model.categories_[s.feature]
        codes = got.x.astype(np.intp)
        where = {c: int(table[c]) for c in np.unique(codes)
                 if c < len(table) and table[c] >= 0}
        cats = [short(labels[c], 24) for c in codes]
        spans = [short(labels[c], 24) for c in where]
        figure = node_scatter_figure(cats, got.y, name, spans, [values[b] for b in where.values()],
                                     None, stat, node, lang=lang)
    return NodePicture(figure, t(
        lang, f"The node's training rows against the split feature; each segment is a child's "
              f"prediction, the {stat} of its rows{' (absolute error)' if median else ''}.",
        f"该结点的训练样本与划分特征的关系；每条线段是一个子结点的预测值，即其样本的{stat}。"),
        missing)


# ---------------------------------------------------------------------------
# The confusion matrix
# ---------------------------------------------------------------------------


@dataclass
class Confusion:
    """True class (rows) against predicted class (columns) of the tree at a
    step on some rows: ``matrix`` (counts), ``accuracy`` (the share of all
    the rows predicted right, NaN without rows) and ``unseen`` (rows whose
    class the tree never saw: counted in the accuracy, not in the matrix)."""
    matrix: np.ndarray
    accuracy: float
    unseen: int


def predicted_codes(tree, X_encoded) -> np.ndarray:
    """The class code ``tree`` (a tree at a step) predicts for each row: the
    largest of its leaf's fractions, combined by weight where C4.5 sends a
    row down several branches (as the scores are computed)."""
    return np.argmax(tree.predict(X_encoded), axis=1)


def confusion(tree, X_encoded, y, classes) -> Confusion:
    """The confusion matrix of ``tree`` on the encoded rows and their labels."""
    n = len(classes)
    true = explain.class_codes(np.asarray(classes), y)
    if not len(true):
        return Confusion(np.zeros((n, n), dtype=np.int64), float("nan"), 0)
    pred = predicted_codes(tree, X_encoded)
    seen = true >= 0
    matrix = np.zeros((n, n), dtype=np.int64)
    np.add.at(matrix, (true[seen], pred[seen]), 1)
    return Confusion(matrix, float(np.trace(matrix) / len(true)), int((~seen).sum()))


def confusion_view(tree, X_encoded, y, classes, which: str, step: int, lang: str = "en"):
    """(figure, note) of :func:`confusion` on the ``which`` rows ("train" or
    "test"); ``note`` counts the rows of a class never seen ("" when none)."""
    c = confusion(tree, X_encoded, y, classes)
    figure = confusion_figure(c.matrix, classes, c.accuracy, which, step, lang=lang)
    note = "" if not c.unseen else t(
        lang, f"{c.unseen:,} {which} row(s) have a class the tree never saw: they count as "
              "wrong in the accuracy and are not in the matrix.",
        f"有 {c.unseen:,} 个{'训练' if which == 'train' else '测试'}样本的类别决策树从未见过："
        "准确率把它们算作错误，矩阵中没有它们。")
    return figure, note
