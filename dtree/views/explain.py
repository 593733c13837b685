"""The numbers behind each node, for showing: formulas with the node's own
counts substituted, the gain of every threshold, scores step by step, and the
partition of the plane drawn by two features.

Everything here is computed from a fitted estimator and its training data
with the engine's own criteria, so what the app shows is what the engine did.
Formulas come back as LaTeX strings made only of numbers and fixed symbols
(no user text), ready for ``st.latex``.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .. import FEATURE_THRESHOLD, make_criterion, sad_prefix, tree_input

#: Symbol of each criterion's impurity, as the textbooks write it.
SYMBOL = {
    "entropy": "H",
    "log_loss": "H",
    "gain_ratio": "H",
    "gini": r"\mathrm{Gini}",
    "misclassification": r"\mathrm{Err}",
    "taylor2": r"T_2",
    "squared_error": r"\mathrm{MSE}",
    "friedman_mse": r"\mathrm{MSE}",
    "absolute_error": r"\mathrm{MAE}",
    "poisson": r"\mathrm{Dev}",
}
#: At most this many terms are written out in a sum; the rest become \cdots.
MAX_TERMS = 6


def num(x, digits=3) -> str:
    """A number as the formulas show it (rounded, no trailing noise)."""
    x = float(x)
    if not np.isfinite(x):
        return r"\infty" if x > 0 else (r"-\infty" if x < 0 else r"\mathrm{NaN}")
    if x == round(x) and abs(x) < 1e15:
        return str(int(round(x)))
    return f"{x:.{digits}f}"


def _count(x) -> str:
    """A class count: whole numbers as such, weighted counts with decimals."""
    x = float(x)
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"{x:.2f}"


def frac(a, b) -> str:
    """LaTeX ``\\frac{a}{b}`` of two counts (weighted ones with two decimals)."""
    return rf"\frac{{{_count(a)}}}{{{_count(b)}}}"


#: About how many characters of a formula fit the node inspector's column at
#: 1280 px; a longer sum is written as aligned lines (see :func:`_sum_latex`).
LINE_WIDTH = 40


def _width(latex: str) -> int:
    """About how wide ``latex`` is drawn, in characters: a fraction counts
    its wider part, ``\\log_2`` four, other commands and braces nothing."""
    text = re.sub(r"\\[td]?frac\{([^{}]*)\}\{([^{}]*)\}",
                  lambda m: "x" * max(len(m[1]), len(m[2])), latex)
    text = text.replace(r"\log_2", "log ")
    text = re.sub(r"\\[A-Za-z]+|[{}^_&]", "", text)
    return len(text)


def _sum_latex(head: str, open_: str, terms, close: str, tail: str, joiner=" + ",
               big=(r"\biggl(", r"\biggr)")) -> str:
    """``head = open_ t1 + t2 + ... close = tail`` on one line when it fits
    the inspector's column; otherwise aligned lines of terms, the delimiters
    drawn big (``big``, as \\left/\\right cannot span lines) and the result
    on a line of its own, so that no number is cut off."""
    one = rf"{head} = {open_}" + joiner.join(terms) + rf"{close} = {tail}"
    if _width(one) <= LINE_WIDTH:
        return one
    rows = _term_rows(head, open_, terms, close, joiner, big)
    rows.append(rf"&= {tail}")
    return r"\begin{aligned} " + r" \\ ".join(rows) + r" \end{aligned}"


def _term_rows(head, open_, terms, close, joiner=" + ", big=(r"\biggl(", r"\biggr)")):
    """The aligned rows of a long sum (for :func:`_sum_latex`): terms packed
    into lines of at most about ``LINE_WIDTH`` characters."""
    lines, line = [], []
    for term in terms:
        if line and _width(joiner.join(line + [term])) > LINE_WIDTH - 10:
            lines.append(line)
            line = []
        line.append(term)
    lines.append(line)
    opening = open_.replace(r"\left(", big[0]).replace(r"\left[", big[0].replace("(", "["))
    closing = close.replace(r"\right)", big[1]).replace(r"\right]", big[1].replace(")", "]"))
    rows = []
    for i, line in enumerate(lines):
        body = joiner.join(line)
        if i == 0:
            rows.append(rf"{head} &= {opening}{body}")
        else:
            rows.append(rf"&\qquad {joiner.strip()} {body}")
    rows[-1] += closing
    return rows


def abbreviate(terms):
    """The LaTeX terms of a sum, at most ``MAX_TERMS``: the first ones,
    ``\\cdots`` and the last."""
    if len(terms) <= MAX_TERMS:
        return terms
    return terms[: MAX_TERMS - 2] + [r"\cdots"] + terms[-1:]


# ---------------------------------------------------------------------------
# Impurity of one node
# ---------------------------------------------------------------------------


def class_counts(tree, node) -> np.ndarray:
    """Weighted class counts of a classifier's node (what ``value`` stores as
    fractions, times the node's weight)."""
    return tree.value[node, 0, :] * tree.weighted_n_node_samples[node]


def impurity_from_counts(criterion: str, counts) -> float:
    """Impurity of a node with these class counts, by the engine's criterion."""
    counts = np.asarray(counts, dtype=np.float64)
    stats = np.append(counts, counts.sum())[:, None]
    return float(make_criterion(criterion, len(counts), classification=True).impurity(stats)[0])


def impurity_latex(criterion: str, counts, value=None, name="D") -> str:
    """``Sym(D) = <formula with the counts> = value`` for a classification node.

    ``value`` defaults to the impurity computed from the counts; the app passes
    the engine's stored impurity (the tests check that both agree).
    """
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum()
    if value is None:
        value = impurity_from_counts(criterion, counts)
    sym = SYMBOL[criterion]
    nonzero = [c for c in counts if c > 0]
    joiner = " + "
    if criterion in ("entropy", "log_loss", "gain_ratio"):
        terms = [rf"{frac(c, total)}\log_2 {frac(c, total)}" for c in nonzero]
        open_, close = r"-\left(", r"\right)"
    elif criterion == "gini":
        terms = [rf"\left({frac(c, total)}\right)^2" for c in nonzero]
        open_, close = r"1 - \left[", r"\right]"
    elif criterion == "misclassification":
        terms = [frac(c, total) for c in nonzero]
        open_, close, joiner = r"1 - \max\left(", r"\right)", ", "
    elif criterion == "taylor2":
        terms = []
        for c in nonzero:
            rest = frac(total - c, total)
            terms.append(rf"{frac(c, total)}\left[{rest} + \tfrac12\left({rest}\right)^2"
                         r"\right]")
        open_, close = "", ""
    else:
        raise ValueError(f"not a classification criterion: {criterion!r}")
    if len(nonzero) == 1:
        close = close + r"\quad(\text{a pure node})"
    return _sum_latex(rf"{sym}({name})", open_, abbreviate(terms), close, num(value),
                      joiner=joiner)


def impurity_definition(criterion: str) -> str:
    """The general formula of a criterion, in LaTeX."""
    sym = SYMBOL[criterion]
    return {
        "entropy": r"H(D) = -\sum_{k} p_k \log_2 p_k,\quad p_k = \frac{|C_k|}{|D|}",
        "gini": r"\mathrm{Gini}(D) = 1 - \sum_{k} p_k^2,\quad p_k = \frac{|C_k|}{|D|}",
        "misclassification": r"\mathrm{Err}(D) = 1 - \max_k p_k",
        "taylor2": r"T_2(D) = \sum_{k} p_k\left[(1-p_k) + \tfrac12(1-p_k)^2\right]"
                   r"\quad(-\ln p \approx (1-p) + \tfrac12(1-p)^2)",
        "squared_error": r"\mathrm{MSE}(D) = \frac{1}{|D|}\sum_{i\in D}(y_i-\bar y)^2",
        "absolute_error": r"\mathrm{MAE}(D) = \frac{1}{|D|}\sum_{i\in D}|y_i-"
                          r"\operatorname{median}(y)|",
        "poisson": r"\mathrm{Dev}(D) = \frac{1}{|D|}\sum_{i\in D} y_i\ln\frac{y_i}{\bar y}",
    }.get({"log_loss": "entropy", "gain_ratio": "entropy",
           "friedman_mse": "squared_error"}.get(criterion, criterion), sym)


def regression_latex(criterion: str, n, mean, value, name="D") -> str:
    """The regression impurity with the node's size and mean substituted."""
    sym = SYMBOL[criterion]
    size = _count(n)
    if criterion in ("squared_error", "friedman_mse"):
        body = rf"\frac{{1}}{{{size}}}\sum_{{i \in {name}}}\left(y_i - {num(mean)}\right)^2"
    elif criterion == "absolute_error":
        body = rf"\frac{{1}}{{{size}}}\sum_{{i \in {name}}}\left|y_i - {num(mean)}\right|"
    elif criterion == "poisson":
        body = rf"\frac{{1}}{{{size}}}\sum_{{i \in {name}}} y_i \ln\frac{{y_i}}{{{num(mean)}}}"
    else:
        raise ValueError(f"not a regression criterion: {criterion!r}")
    return rf"{sym}({name}) = {body} = {num(value)}"


# ---------------------------------------------------------------------------
# The gain of a split
# ---------------------------------------------------------------------------


def gain_latex(criterion: str, w, w_left, w_right, impurity, impurity_left,
               impurity_right, gain) -> str:
    """``gain = I(D) - W1/W I(D1) - W2/W I(D2) = ... = gain``, on two lines."""
    return branches_gain_latex(criterion, w, [w_left, w_right], impurity,
                               [impurity_left, impurity_right], gain)


def branches_gain_latex(criterion: str, w, child_weights, impurity, child_impurities,
                        gain, known_fraction=1.0) -> str:
    """The gain of a split into any number of branches, with the numbers:
    ``g = I(D) - sum_v |D_v|/|D| I(D_v)``.

    With C4.5's missing-value rule (``known_fraction`` rho < 1) the engine's
    gain is rho times the gain on the rows whose value is known; the second
    line then shows that product instead of the children (whose numbers are
    computed on fractional rows)."""
    sym = SYMBOL[criterion]
    entropy = criterion in ("entropy", "log_loss", "gain_ratio")
    name = "g(D, A)" if entropy else r"\Delta"
    k = len(child_weights)
    general = (rf"{sym}(D) - \sum_{{v=1}}^{{{k}}} \frac{{|D_v|}}{{|D|}}{sym}(D_v)"
               if k > 2 else
               rf"{sym}(D) - \frac{{|D_1|}}{{|D|}}{sym}(D_1) - "
               rf"\frac{{|D_2|}}{{|D|}}{sym}(D_2)")
    if known_fraction < 1.0:
        inner = gain / known_fraction if known_fraction > 0 else 0.0
        return (rf"\begin{{aligned}} {name} &= \rho\cdot\left[{general}\right]_{{\tilde D}}"
                rf" \\ &= {num(known_fraction)} \cdot {num(inner)} = {num(gain)}"
                r"\end{aligned}")
    terms = [rf"{frac(cw, w)}\cdot {num(ci)}" for cw, ci in
             zip(child_weights, child_impurities)]
    return (rf"\begin{{aligned}} {name} &= {general} \\ &= {num(impurity)} - "
            + " - ".join(abbreviate(terms)) + rf" = {num(gain)}" + r"\end{aligned}")


def split_info_latex(w, w_left, w_right, split_info, gain, gain_ratio) -> tuple[str, str]:
    """C4.5's split information H_A(D) and gain ratio, with numbers."""
    return branches_split_info_latex(w, [w_left, w_right], split_info, gain, gain_ratio)


def branches_split_info_latex(w, child_weights, split_info, gain,
                              gain_ratio) -> tuple[str, str]:
    """Split information over any number of branches, and the gain ratio."""
    terms = [rf"{frac(cw, w)}\log_2{frac(cw, w)}" for cw in child_weights if cw > 0]
    info = _sum_latex("H_A(D)", r"-\left(", abbreviate(terms), r"\right)", num(split_info))
    ratio = (rf"g_R(D, A) = \frac{{g(D, A)}}{{H_A(D)}} = \frac{{{num(gain)}}}"
             rf"{{{num(split_info)}}} = {num(gain_ratio)}")
    return info, ratio


# ---------------------------------------------------------------------------
# J48's own rules (algorithm="j48"), from the candidate table's J48 columns
# ---------------------------------------------------------------------------


def known_fraction_latex(w, known_weight) -> str:
    """rho, the share of the node's weight whose value of the feature is known."""
    rho = known_weight / w if w > 0 else 1.0
    return rf"\rho = \frac{{|\tilde D|}}{{|D|}} = {frac(known_weight, w)} = {num(rho)}"


def mdl_gain_latex(w, n_cuts, gain_before, gain) -> str:
    """J48's MDL penalty on a numeric feature's gain:
    ``g'(D, A) = g(D, A) - log2(C) / |D|`` with C the admissible cuts and |D|
    the node's weight (rows with a missing value included)."""
    penalty = np.log2(n_cuts) / w
    # three lines (aligned): one line overflowed the inspector's column
    return (rf"\begin{{aligned}} g'(D, A) &= g(D, A) - \frac{{\log_2 C}}{{|D|}} \\ "
            rf"&= {num(gain_before)} - \frac{{\log_2 {_count(n_cuts)}}}{{{_count(w)}}} \\ "
            rf"&= {num(gain_before)} - {num(penalty)} = {num(gain)} \end{{aligned}}")


def unknown_split_info_latex(w, known_weights, split_info, gain, gain_ratio,
                             penalised=True) -> tuple[str, str]:
    """J48's split information, the rows with an unknown value counted as
    one more branch D_?, and the gain ratio of the gain (``penalised``: the
    MDL-penalised g')."""
    unknown = w - float(np.sum(known_weights))
    terms = [rf"{frac(cw, w)}\log_2{frac(cw, w)}" for cw in known_weights if cw > 0]
    body = " + ".join(abbreviate(terms))
    if unknown > 1e-6:
        term = -unknown / w * np.log2(unknown / w)
        known_part = split_info - term
        last = rf"{frac(unknown, w)}\log_2{frac(unknown, w)}"
        first = rf"H_A(D) &= -\left({body}\right) - {last}"
        rows = ([first] if _width(first) <= LINE_WIDTH
                else _term_rows("H_A(D)", r"-\left(", abbreviate(terms), r"\right)")
                + [rf"&\qquad - {last}"])
        rows.append(rf"&= {num(known_part)} + {num(term)} = {num(split_info)}")
        info = r"\begin{aligned} " + r" \\ ".join(rows) + r" \end{aligned}"
    else:
        info = _sum_latex("H_A(D)", r"-\left(", abbreviate(terms), r"\right)",
                          num(split_info))
    g = "g'(D, A)" if penalised else "g(D, A)"
    ratio = (rf"g_R(D, A) = \frac{{{g}}}{{H_A(D)}} = \frac{{{num(gain)}}}"
             rf"{{{num(split_info)}}} = {num(gain_ratio)}")
    return info, ratio


def min_objects_latex(w, min_objects) -> str:
    """J48's first leaf rule: a node lighter than 2M cannot give two branches
    of at least M rows each."""
    return rf"|D| = {_count(w)} < 2M = 2 \times {_count(min_objects)} = {_count(2 * min_objects)}"


def improvement_latex(w, w_root, gain, improvement) -> str:
    """What best-first growth ranks by and min_impurity_decrease tests."""
    return (rf"\text{{improvement}} = \frac{{|D|}}{{N}}\cdot\Delta = "
            rf"{frac(w, w_root)}\cdot {num(gain)} = {num(improvement, 4)}")


# ---------------------------------------------------------------------------
# The samples of a node, and the gain of every threshold
# ---------------------------------------------------------------------------


def leaves_under(tree, node) -> np.ndarray:
    """Ids of the leaves in the subtree of ``node`` (itself if it is a leaf)."""
    out, stack = [], [int(node)]
    while stack:
        n = stack.pop()
        kids = tree.children_of(n)
        if kids:
            stack.extend(kids)
        else:
            out.append(n)
    return np.array(out, dtype=np.intp)


def node_mask(tree, leaf_of_row, node) -> np.ndarray:
    """Rows (given the full tree's leaf of each) that pass through ``node``."""
    return np.isin(leaf_of_row, leaves_under(tree, node))


def encode(model, X) -> np.ndarray:
    """``X`` as the fitted ``model``'s tree reads it: float32, categories as
    codes, NaN for missing values."""
    return tree_input(model, X)


def node_rows(tree, routes, node):
    """The rows that reach ``node`` and their weight there.

    ``routes`` is ``tree.leaf_weights(X)`` ((row, leaf, weight) triples): a
    row that C4.5's rule sends down several branches reaches a node with the
    share of its weight that ends in the node's leaves (1 otherwise)."""
    rows, leaves, weights = routes
    under = np.isin(leaves, leaves_under(tree, node))
    n = int(rows.max()) + 1 if len(rows) else 0
    w = np.bincount(rows[under], weights=weights[under], minlength=n)
    sel = np.flatnonzero(w > 0)
    return sel, w[sel]


def category_terms(labels, y, criterion, n_classes=0, sample_weight=None) -> pd.DataFrame:
    """One row per category of a multiway split at a node: its rows, its
    impurity and its term |D_v|/|D| I(D_v) of the conditional impurity.
    Columns: category, n, weight, impurity, term.  Missing labels are left out."""
    labels = np.asarray(labels, dtype=object)
    w = np.ones(len(labels)) if sample_weight is None else np.asarray(sample_weight, float)
    known = np.array([v is not None and v == v for v in labels], dtype=bool)
    labels, w, y = labels[known], w[known], np.asarray(y)[known]
    crit = make_criterion(criterion, n_classes, classification=bool(n_classes))
    total = w.sum()
    rows = []
    for c in sorted(set(labels.tolist()), key=str):
        inside = labels == c
        if crit.needs_samples:
            imp = float(sad_prefix(y[inside].astype(float), w[inside])[-1] / w[inside].sum())
        else:
            stats = _sample_stats(y[inside], w[inside], criterion, n_classes).sum(axis=1)
            imp = float(crit.impurity(stats[:, None])[0])
        weight = float(w[inside].sum())
        rows.append({"category": c, "n": int(inside.sum()), "weight": weight,
                     "impurity": imp, "term": weight / total * imp})
    return pd.DataFrame(rows, columns=["category", "n", "weight", "impurity", "term"])


def _sample_stats(y, w, criterion, n_classes):
    """Per-sample statistics in the engine's layout: (d, n), last row w."""
    if n_classes:
        stats = np.zeros((n_classes + 1, len(y)))
        stats[np.asarray(y, dtype=np.intp), np.arange(len(y))] = w
        stats[-1] = w
        return stats
    y = np.asarray(y, dtype=np.float64)
    stats = np.zeros((4, len(y)))
    stats[0], stats[1] = w * y, w * y * y
    if criterion == "poisson":
        with np.errstate(divide="ignore", invalid="ignore"):
            stats[2] = np.where(y > 0, w * y * np.log(y), 0.0)
    stats[-1] = w
    return stats


def threshold_curve(x, y, criterion, n_classes=0, sample_weight=None,
                    min_samples_leaf=1, bins=None) -> pd.DataFrame:
    """The gain of every threshold of one numeric feature at one node.

    ``x``: the feature's values on the node's samples; ``y``: class codes
    (``n_classes`` > 0) or the numeric target.  Thresholds are midpoints
    between consecutive distinct values, as the engine places them.  For a
    tree grown with ``splitter="hist"``, ``bins`` is the feature's
    ``(bin_lower_[f], bin_upper_[f])``: the candidates are then the bin edges
    present in the node, each halfway between the largest value of one bin
    and the smallest value of the next.  Columns: threshold, gain, n_left,
    n_right, impurity_left, impurity_right, gain_ratio, allowed (the
    children respect ``min_samples_leaf``).
    """
    x = np.asarray(x, dtype=np.float32)
    w = np.ones(len(x)) if sample_weight is None else np.asarray(sample_weight, float)
    order = np.argsort(x, kind="stable")
    xs, ws = x[order], w[order]
    ys = np.asarray(y)[order]
    if bins is None:
        cut = np.flatnonzero(xs[1:] > xs[:-1] + FEATURE_THRESHOLD)  # left = [0..cut]
        below, above = xs, xs  # the values each side of a cut
    else:
        lower, upper = (np.asarray(b, dtype=np.float32) for b in bins)
        code = np.minimum(np.searchsorted(upper, xs, side="left"), len(upper) - 1)
        below, above = upper[code], lower[code]
        cut = np.flatnonzero((code[1:] > code[:-1])
                             & (above[1:] > below[:-1] + FEATURE_THRESHOLD))
    columns = ["threshold", "gain", "n_left", "n_right", "impurity_left",
               "impurity_right", "gain_ratio", "allowed"]
    if not len(cut):
        return pd.DataFrame(columns=columns)
    crit = make_criterion(criterion, n_classes, classification=bool(n_classes))
    cum_w = np.cumsum(ws)
    W = cum_w[-1]
    wl, wr = cum_w[cut], W - cum_w[cut]
    if crit.needs_samples:
        forward = sad_prefix(ys.astype(float), ws)
        backward = sad_prefix(ys[::-1].astype(float), ws[::-1])[::-1]
        imp = forward[-1] / W
        il = forward[cut] / wl
        ir = backward[cut + 1] / wr
    else:
        stats = _sample_stats(ys, ws, criterion, n_classes)
        cum = np.cumsum(stats, axis=1)
        total = cum[:, -1:]
        left = cum[:, cut]
        with np.errstate(divide="ignore", invalid="ignore"):
            imp = float(crit.impurity(total)[0])
            il = crit.impurity(left)
            ir = crit.impurity(total - left)
    gain = imp - wl / W * il - wr / W * ir
    a, b = below[cut].astype(np.float64), above[cut + 1].astype(np.float64)
    thr = a / 2.0 + b / 2.0
    thr = np.where((thr == b) | np.isinf(thr), a, thr)
    n_left = cut + 1
    with np.errstate(divide="ignore", invalid="ignore"):
        p = wl / W
        info = -(p * np.log2(p) + (1 - p) * np.log2(1 - p))
        ratio = gain / info
    return pd.DataFrame({
        "threshold": thr, "gain": gain, "n_left": n_left, "n_right": len(x) - n_left,
        "impurity_left": il, "impurity_right": ir, "gain_ratio": ratio,
        "allowed": (n_left >= min_samples_leaf) & (len(x) - n_left >= min_samples_leaf),
    })


def category_gains(labels, y, criterion, n_classes=0, sample_weight=None) -> pd.DataFrame:
    """For a categorical feature at one node: the gain of each split
    "category c" against "every other category" (what a one-hot feature's
    split does).  Columns: category, gain, n_category, n_rest."""
    labels = np.asarray(labels, dtype=object)
    rows = []
    for c in sorted(set(labels.tolist()), key=str):
        inside = (labels == c).astype(np.float32)
        curve = threshold_curve(inside, y, criterion, n_classes, sample_weight)
        gain = float(curve["gain"].iloc[0]) if len(curve) else 0.0
        n_in = int(inside.sum())
        rows.append({"category": c, "gain": gain, "n_category": n_in,
                     "n_rest": len(labels) - n_in})
    return pd.DataFrame(rows, columns=["category", "gain", "n_category", "n_rest"])


# ---------------------------------------------------------------------------
# Scores as the tree grows
# ---------------------------------------------------------------------------


def class_codes(classes, y) -> np.ndarray:
    """Index of each label in ``classes`` (sorted), -1 for unseen labels."""
    y = np.asarray(y)
    if not len(y):
        return np.zeros(0, dtype=np.intp)
    pos = np.searchsorted(classes, y)
    pos = np.minimum(pos, len(classes) - 1)
    return np.where(classes[pos] == y, pos, -1)


def score_path(model, X, y) -> np.ndarray:
    """``model.tree_at(k).score`` for every k = 0..len(steps_): accuracy for
    classifiers, R² for regressors, on (X, y).

    Replays the growth on the rows: a split only moves the rows of the node
    it splits, so the whole path costs about one pass of each row down its
    branch.  Empty data gives NaN.
    """
    n_steps = len(model.steps_)
    if not len(y):
        return np.full(n_steps + 1, np.nan)
    tree = model.tree_
    X_enc = encode(model, X)
    if tree.distribute_missing and len(tree.leaf_weights(X_enc)[0]) > len(X_enc):
        # C4.5 sends some rows down several branches: score each step's tree
        return _score_each_step(model, X_enc, y)
    leaf = tree.apply(X_enc)
    classifier = hasattr(model, "classes_")
    if classifier:
        target = class_codes(model.classes_, y)
        best = np.argmax(tree.value[:, 0, :], axis=1)

        def loss(node, rows):  # misclassified rows
            return float(np.sum(target[rows] != best[node]))
        total = float(len(y))
    else:
        target = np.asarray(y, dtype=np.float64)
        pred = tree.value[:, 0, 0]

        def loss(node, rows):
            return float(np.sum((target[rows] - pred[node]) ** 2))
        total = float(np.sum((target - target.mean()) ** 2))

    def score(current):
        if classifier:
            return 1.0 - current / total
        if total == 0:
            return 1.0 if current == 0 else 0.0
        return 1.0 - current / total

    members = {0: np.arange(len(y))}
    current = loss(0, members[0])
    out = [score(current)]
    for step in model.steps_:
        node = step.node
        rows = members.pop(node, np.zeros(0, dtype=np.intp))
        current -= loss(node, rows)
        # each row goes to the child that is its leaf's ancestor one level down
        up = leaf[rows].copy()
        level = tree.depth[node] + 1
        deeper = tree.depth[up] > level
        while deeper.any():
            up[deeper] = tree.parent[up[deeper]]
            deeper = tree.depth[up] > level
        for child in tree.children_of(node):
            members[child] = rows[up == child]
            current += loss(child, members[child])
        out.append(score(current))
    return np.array(out)


def _score_each_step(model, X_enc, y) -> np.ndarray:
    """score_path the slow way: predict with every tree_at(k)."""
    classifier = hasattr(model, "classes_")
    if classifier:
        target = class_codes(model.classes_, y)
    else:
        target = np.asarray(y, dtype=np.float64)
        total = float(np.sum((target - target.mean()) ** 2))
    out = []
    for k in range(len(model.steps_) + 1):
        value = model.tree_at(k).predict(X_enc)
        if classifier:
            out.append(float(np.mean(np.argmax(value, axis=1) == target)))
        else:
            sse = float(np.sum((target - value[:, 0]) ** 2))
            out.append((1.0 if sse == 0 else 0.0) if total == 0 else 1.0 - sse / total)
    return np.array(out)


# ---------------------------------------------------------------------------
# The partition of the plane
# ---------------------------------------------------------------------------


def region_features(model):
    """(numeric, order): the numeric features a decision-region plot can use,
    in column order, and the same by decreasing importance (the default
    axes are the first two of ``order``)."""
    numeric = [f for f in range(model.n_features_in_) if not model.is_categorical_[f]]
    return numeric, sorted(numeric, key=lambda f: -model.feature_importances_[f])


def typical_row(model, X) -> np.ndarray:
    """The row through which a decision-region plane is cut: the median of
    each numeric feature and the most common code of each categorical one,
    over the rows of ``X`` (encoded as the tree reads them) where it is
    known; 0 for a feature never known."""
    point = np.zeros(X.shape[1], dtype=np.float32)
    for j in range(X.shape[1]):
        col = X[:, j][~np.isnan(X[:, j])]
        if not len(col):
            continue
        if model.is_categorical_[j]:
            values, counts = np.unique(col, return_counts=True)
            point[j] = values[np.argmax(counts)]
        else:
            point[j] = np.median(col)
    return point


def node_boxes(tree, n_features):
    """Bounds of every node's region: ``lo < x <= hi`` feature by feature
    (arrays of shape (node_count, n_features), -inf/inf when unbounded)."""
    lo = np.full((tree.node_count, n_features), -np.inf)
    hi = np.full((tree.node_count, n_features), np.inf)
    for node in np.argsort(tree.depth, kind="stable"):  # parents before children
        kids = tree.children_of(node)
        if not kids:
            continue
        f, t = int(tree.feature[node]), float(tree.threshold[node])
        left, right = kids
        lo[left], hi[left] = lo[node], hi[node]
        lo[right], hi[right] = lo[node], hi[node]
        hi[left, f] = min(hi[left, f], t)
        lo[right, f] = max(lo[right, f], t)
    return lo, hi


def partition_2d(tree, fx, fy, point) -> pd.DataFrame:
    """The leaves of ``tree`` met on the plane of numeric features ``fx``,
    ``fy`` through ``point`` (the other features held at point's values, in
    the tree's encoding: category codes for categorical features), as
    rectangles x0 < x <= x1, y0 < y <= y1.  They tile the plane exactly.
    Columns: node (compact index), x0, x1, y0, y1."""
    from .. import NUMERIC

    point = np.asarray(point, dtype=np.float32)
    row = point[None, :]
    out = []
    stack = [(0, -np.inf, np.inf, -np.inf, np.inf)]
    while stack:
        node, x0, x1, y0, y1 = stack.pop()
        kids = tree.children_of(node)
        if not kids:
            out.append((node, x0, x1, y0, y1))
            continue
        f = int(tree.feature[node])
        if int(tree.kind[node]) == NUMERIC and f in (fx, fy):
            t = float(tree.threshold[node])
            left, right = kids
            if f == fx:
                stack += [(right, max(x0, t), x1, y0, y1), (left, x0, min(x1, t), y0, y1)]
            else:
                stack += [(right, x0, x1, max(y0, t), y1), (left, x0, x1, y0, min(y1, t))]
            continue
        branch = int(tree.branch(row, np.array([0]), np.array([node]))[0])
        if branch < 0:
            branch = int(tree.missing_child[node])
        stack.append((kids[branch], x0, x1, y0, y1))
    out.sort()
    return pd.DataFrame(out, columns=["node", "x0", "x1", "y0", "y1"])
