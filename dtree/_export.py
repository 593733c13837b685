"""Turn a fitted decision tree into Graphviz DOT source or a plain-text report.

Both functions are duck-typed on scikit-learn's vocabulary for fitted trees,
so they accept dtree's estimators as well as scikit-learn's fitted
``DecisionTreeClassifier`` / ``DecisionTreeRegressor`` (and the bare
``tree_`` objects of either).  What is read:

* from the estimator (all optional): ``tree_``, ``classes_``,
  ``feature_names_in_``, ``n_features_in_``, ``criterion``;
* from the tree: ``children_left``, ``children_right`` (-1 at leaves),
  ``feature``, ``threshold``, ``impurity``, ``n_node_samples``,
  ``weighted_n_node_samples`` and ``value`` of shape
  ``(node_count, n_outputs, n_classes or 1)``, which holds class *fractions*
  for classifiers and the mean target for regressors.  dtree trees may also
  carry ``node_ids`` (compact index -> id shown to the user).

The left child of a split receives the samples with ``x[feature] <= threshold``.

DOT output safety: every piece of text that may come from a user (feature
names, class names, ``label_lines``) only ever appears inside a double-quoted
DOT string.  It is first mapped to one displayable line by
:func:`_display_text` (control characters such as newlines become visible
symbols) and then escaped by :func:`_dot_escape_line`, so it cannot close the
string, add attributes, nodes or edges, or trigger Graphviz's
``\\N``/``\\G``/``\\l`` escape sequences or HTML-entity decoding; it is drawn
exactly as written.  Colours and the font name are validated instead.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata

import numpy as np

__all__ = ["export_graphviz", "export_text", "node_fills", "text_em", "is_missing_split"]

_LEAF = -1

#: Okabe & Ito's colour-blind-safe qualitative palette (black left out, since
#: it cannot carry dark text).  Used cyclically when there are more classes.
OKABE_ITO = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
)

#: The class colours: Okabe & Ito's seven first, then seventeen of Paul Tol's
#: (his muted, bright, light, vibrant and medium-contrast schemes), each one
#: chosen in turn as the farthest (CIELAB distance, as drawn: capped for
#: black text by ``_MIN_FILL_LUMINANCE``) from all the colours before it, the
#: greys left out (white means a tie, grey a cut subtree).  24 classes get 24
#: different colours; no two pure fills are closer than Okabe & Ito's own
#: closest pair.  Used cyclically beyond.
CLASS_COLOURS = OKABE_ITO + (
    "#999933",  # olive (muted)
    "#EE6677",  # red (bright)
    "#EEDD88",  # light yellow (light)
    "#332288",  # indigo (muted)
    "#FFAABB",  # pink (light)
    "#EE8866",  # orange (light)
    "#994455",  # dark red (medium contrast)
    "#AAAA00",  # olive (light)
    "#99DDFF",  # light cyan (light)
    "#EE3377",  # magenta (vibrant)
    "#228833",  # green (bright)
    "#44AA99",  # teal (muted)
    "#CCBB44",  # yellow (bright)
    "#CC6677",  # rose (muted)
    "#BBCC33",  # pear (light)
    "#997700",  # dark yellow (medium contrast)
    "#EECC66",  # light yellow (medium contrast)
)

_CLASSIFICATION_CRITERIA = {
    "gini",
    "entropy",
    "log_loss",
    "misclassification",
    "gain_ratio",
    "taylor2",
}
_REGRESSION_CRITERIA = {
    "squared_error",
    "friedman_mse",
    "absolute_error",
    "poisson",
}
#: Criteria whose node impurity is a different, better known quantity.
_IMPURITY_DISPLAY_NAME = {"gain_ratio": "entropy"}

#: The fixed words of a DOT drawing, in English (scikit-learn's) and in
#: Chinese (the lecture notes' terms: 结点, 样本数, 类别分布, 类别, 是/否).
DOT_WORDS = {
    "en": {"node": "node", "samples": "samples", "share": "samples", "value": "value",
           "mean": "value", "class": "class", "in": "in", "true": "True", "false": "False",
           "impurity": "impurity", "is_known": "is known", "known": "known",
           "missing": "missing"},
    "zh": {"node": "结点", "samples": "样本数", "share": "样本占比", "value": "类别分布",
           "mean": "均值", "class": "类别", "in": "∈", "true": "是", "false": "否",
           "impurity": "不纯度", "is_known": "已知", "known": "已知", "missing": "缺失"},
}
#: How the numbers that are not finite read in Chinese (English: Python's).
_NONFINITE_ZH = {"inf": "∞", "-inf": "−∞", "nan": "无"}

#: Width of a character in em: East Asian wide and full-width characters
#: (``unicodedata.east_asian_width`` "W"/"F") take a whole em; any other is
#: taken at 0.62 em, above the average of Helvetica's and DejaVu Sans's
#: letters and digits, so that an estimate errs on the wide side.
_WIDE_EM, _NARROW_EM = 1.0, 0.62
#: Graphviz's default left+right node margin, in inches (0.11 each side),
#: and a little room for the border.
_NODE_MARGIN_IN = 0.3


def text_em(text) -> float:
    """The width of one line of ``text`` in em (font sizes), for a drawing:
    wide (CJK) characters 1 em, others 0.62 em.

    Graphviz measures text without the font (with Latin metrics), so a
    line of Chinese comes out wider than its box; ``export_graphviz``
    widens the boxes that hold wide characters by this estimate.

    Parameters
    ----------
    text : str
        One line of text (converted with ``str``).

    Returns
    -------
    float
        Its estimated width, in em.
    """
    return sum(_WIDE_EM if unicodedata.east_asian_width(c) in "WF" else _NARROW_EM
               for c in str(text))


def _has_wide(text) -> bool:
    return any(unicodedata.east_asian_width(c) in "WF" for c in text)


def is_missing_split(kind, threshold) -> bool:
    """A numeric split of known against missing values: scikit-learn's
    threshold +inf (every known value goes to the first child, ``x <= inf``,
    the missing ones to the second).

    Parameters
    ----------
    kind : int
        The node's kind (0: numeric, as ``Tree.kind``; scikit-learn's trees
        are all numeric).
    threshold : float
        The node's threshold.

    Returns
    -------
    bool
        True for a numeric split at +inf.
    """
    return int(kind) == 0 and float(threshold) == math.inf


_TEXT_COLOUR = "#000000"
_BORDER_COLOUR = "#404040"
_TRUNCATED_FILL = "#C0C0C0"
#: Fills never get darker than this relative luminance, which keeps black
#: text at a contrast ratio of at least 7:1 (WCAG AAA).
_MIN_FILL_LUMINANCE = 0.30

_HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
_COLOUR_SPEC = re.compile(r"#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})|[A-Za-z][A-Za-z0-9]{0,31}")
_RANKDIRS = {"TB", "BT", "LR", "RL"}
# Graphviz copies font names into SVG attributes without escaping them, so
# only plain font-name characters are accepted.
_FONT_NAME = re.compile(r"[A-Za-z0-9 _.,:+-]{1,100}")


# --------------------------------------------------------------------------
# Reading the estimator
# --------------------------------------------------------------------------


class _TreeView:
    """The arrays of a fitted tree, fetched once (scikit-learn's Cython tree
    builds a fresh array on every attribute access)."""

    def __init__(self, est):
        if hasattr(est, "tree_"):
            tree = est.tree_
            owner = est
        elif hasattr(est, "child_ptr") or hasattr(est, "children_left"):
            # child_ptr first: a multiway tree raises on children_left
            tree = est
            owner = None
        else:
            raise ValueError(
                "expected a fitted decision tree (an estimator with a `tree_` "
                f"attribute, or the tree itself); got {type(est).__name__}"
            )
        if tree is None:
            raise ValueError("the estimator is not fitted (its `tree_` is None)")
        self.owner = owner
        self.tree = tree
        if hasattr(tree, "child_ptr"):  # dtree: any number of children per node
            ptr, ids = np.asarray(tree.child_ptr), np.asarray(tree.child_ids)
            self.children = [ids[ptr[i]:ptr[i + 1]].tolist() for i in range(len(ptr) - 1)]
            self.kind = np.asarray(tree.kind)
            self.branch_of_code = tree.branch_of_code
        else:
            left = np.asarray(tree.children_left).astype(np.int64, copy=False)
            right = np.asarray(tree.children_right).astype(np.int64, copy=False)
            self.children = [[] if left[i] == _LEAF else [int(left[i]), int(right[i])]
                             for i in range(len(left))]
            self.kind = np.zeros(len(left), dtype=np.int8)
            self.branch_of_code = None
        self.internal = np.array([len(c) > 0 for c in self.children], dtype=bool)
        self.feature = np.asarray(tree.feature).astype(np.int64, copy=False)
        self.threshold = np.asarray(tree.threshold, dtype=np.float64)
        self.impurity = np.asarray(tree.impurity, dtype=np.float64)
        self.n_samples = np.asarray(tree.n_node_samples)
        self.weighted = np.asarray(tree.weighted_n_node_samples, dtype=np.float64)
        value = np.asarray(tree.value, dtype=np.float64)
        if value.ndim == 1:
            value = value[:, None, None]
        elif value.ndim == 2:
            value = value[:, None, :]
        self.value = value
        self.node_count = int(getattr(tree, "node_count", len(self.children)))
        self.n_outputs = value.shape[1]
        self.n_classes = value.shape[2]
        ids = getattr(tree, "node_ids", None)
        self.display_ids = None if ids is None else np.asarray(ids)

    def attr(self, name, default=None):
        """An attribute of the estimator, else of the tree, else default."""
        for obj in (self.owner, self.tree):
            if obj is not None:
                val = getattr(obj, name, None)
                if val is not None:
                    return val
        return default

    def is_leaf(self, node):
        return not self.children[node]

    def branch_names(self, node, categories):
        """For a categorical split, the category labels of each branch."""
        table = self.branch_of_code[node]
        labels = None if categories is None else categories[int(self.feature[node])]
        out = []
        for child in range(int(np.max(table)) + 1):
            codes = np.flatnonzero(table == child)
            out.append([str(labels[c]) if labels is not None else str(c) for c in codes])
        return out

    def criterion_name(self):
        crit = self.attr("criterion_") or self.attr("criterion")
        if crit is not None and not isinstance(crit, str):
            crit = getattr(crit, "name", None)
        return crit if isinstance(crit, str) else None

    def is_classifier(self, class_names=None):
        if self.owner is not None:
            if getattr(self.owner, "classes_", None) is not None:
                return True
            kind = getattr(self.owner, "_estimator_type", None)
            if kind in ("classifier", "regressor"):
                return kind == "classifier"
        crit = self.criterion_name()
        if crit in _CLASSIFICATION_CRITERIA:
            return True
        if crit in _REGRESSION_CRITERIA:
            return False
        if class_names is not None:
            return True
        n_classes = getattr(self.tree, "n_classes", None)
        if n_classes is not None:
            return int(np.max(np.atleast_1d(n_classes))) > 1
        return self.n_classes > 1

    def n_features(self):
        for obj, name in ((self.owner, "n_features_in_"), (self.tree, "n_features")):
            n = getattr(obj, name, None) if obj is not None else None
            if n is not None:
                return int(n)
        return None

    def subtree_depth(self, node):
        """Number of levels in the subtree rooted at ``node`` (a leaf is 1)."""
        best = 0
        stack = [(node, 1)]
        while stack:
            n, d = stack.pop()
            best = max(best, d)
            stack.extend((c, d + 1) for c in self.children[n])
        return best


def _names(names, what):
    """A user-supplied sequence of names as a list (refusing a lone string)."""
    if isinstance(names, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of names, not a single string")
    return list(names)


def _check_int(value, what, minimum):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{what} must be an integer >= {minimum}; got {value!r}")


def _feature_names(view, feature_names, default_from_estimator):
    """Return a list of names, or None for generic names."""
    if feature_names is None and default_from_estimator:
        feature_names = view.attr("feature_names_in_")
    if feature_names is None:
        return None
    names = _names(feature_names, "feature_names")
    used = view.feature[view.internal]
    n_features = view.n_features()
    if n_features is not None and len(names) != n_features:
        raise ValueError(
            f"feature_names must contain {n_features} elements, got {len(names)}"
        )
    if used.size and int(used.max()) >= len(names):
        raise ValueError(
            f"feature_names has {len(names)} elements but the tree splits on "
            f"feature index {int(used.max())}"
        )
    return names


# --------------------------------------------------------------------------
# Plain text
# --------------------------------------------------------------------------


def export_text(
    est,
    *,
    feature_names=None,
    class_names=None,
    max_depth=10,
    spacing=3,
    decimals=2,
    show_weights=False,
    categories=None,
):
    """Describe the rules of a fitted tree as indented text.

    The layout is scikit-learn's ``export_text``, character for character:
    one ``|--- feature <= t`` / ``|--- feature >  t`` pair per split, and for
    each leaf ``|--- class: c`` (classifiers; preceded by
    ``weights: [...]`` with the weighted class counts when ``show_weights``)
    or ``|--- value: [v]`` (regressors).  Below ``max_depth`` levels a
    subtree is replaced by ``truncated branch of depth d``.

    Parameters
    ----------
    est : fitted estimator or tree
    feature_names : sequence of str, optional
        Defaults to ``feature_0``, ``feature_1``, ... (like scikit-learn,
        ``feature_names_in_`` is *not* used here; pass it explicitly).
    class_names : sequence, optional
        Defaults to ``est.classes_``.  Ignored for regressors.
    max_depth : int
        Number of split levels shown.
    spacing : int
        Width of one indentation level.
    decimals : int
        Digits after the decimal point for thresholds, values and weights.
    show_weights : bool
        Classifiers only: print the weighted class counts on each leaf.
    categories : list, optional
        Category labels per feature (None for numeric ones); defaults to
        ``est.categories_``.  A multiway split prints one ``feature = label``
        line per branch, a subset split ``feature in {...}`` and
        ``feature not in {...}``.
    """
    _check_int(max_depth, "max_depth", 0)
    _check_int(spacing, "spacing", 1)
    _check_int(decimals, "decimals", 0)
    view = _TreeView(est)
    classifier = view.is_classifier(class_names)
    names = _feature_names(view, feature_names, default_from_estimator=False)
    cats = categories if categories is not None else view.attr("categories_")

    if classifier:
        classes = view.attr("classes_")
        if class_names is None:
            class_names = classes
        else:
            class_names = _names(class_names, "class_names")
            if classes is not None and len(class_names) != len(classes):
                raise ValueError(
                    "class_names must have one name per class: got "
                    f"{len(class_names)} names for {len(classes)} classes"
                )

    def feature_label(node):
        f = int(view.feature[node])
        return f"feature_{f}" if names is None else str(names[f])

    def leaf_values(node):
        # First output's values, or the first entry of every output.
        if view.n_outputs == 1:
            return view.value[node, 0, :]
        return view.value[node, :, 0]

    def leaf_line(node, indent):
        values = leaf_values(node)
        if classifier:
            best = int(np.argmax(values))
            if view.n_classes != 1 and view.n_outputs == 1 and class_names is not None:
                label = str(class_names[best])
            else:
                label = str(best)
            text = ""
            if show_weights:
                w = view.weighted[node]
                text = "[" + ", ".join(f"{v * w:.{decimals}f}" for v in values) + "]"
                return f"{indent} weights: {text} class: {label}\n"
            return f"{indent} class: {label}\n"
        text = "[" + ", ".join(f"{v:.{decimals}f}" for v in values) + "]"
        return f"{indent} value: {text}\n"

    def make_indent(depth):
        bar = ("|" + " " * spacing) * depth
        return bar[:-spacing] + "-" * spacing

    out = []
    # Work list of either strings to emit or (node, depth) pairs to expand;
    # popped from the end, so items are pushed in reverse order.
    todo = [(0, 1)]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node, depth = item
        indent = make_indent(depth)
        if depth <= max_depth + 1:
            if not view.is_leaf(node):
                name = feature_label(node)
                kids = view.children[node]
                if is_missing_split(view.kind[node], view.threshold[node]):
                    conditions = [f"{name} is known", f"{name} is missing"]
                elif view.kind[node] == 0:
                    t = f"{view.threshold[node]:.{decimals}f}"
                    conditions = [f"{name} <= {t}", f"{name} >  {t}"]
                elif view.kind[node] == 1:
                    left = "{" + ", ".join(view.branch_names(node, cats)[0]) + "}"
                    conditions = [f"{name} in {left}", f"{name} not in {left}"]
                else:
                    conditions = [f"{name} = {', '.join(labels)}"
                                  for labels in view.branch_names(node, cats)]
                for kid, condition in reversed(list(zip(kids, conditions))):
                    todo.append((int(kid), depth + 1))
                    todo.append(f"{indent} {condition}\n")
            else:
                out.append(leaf_line(node, indent))
        else:
            levels = view.subtree_depth(node)
            if levels == 1:
                out.append(leaf_line(node, indent))
            else:
                out.append(f"{indent} truncated branch of depth {levels}\n")
    return "".join(out)


# --------------------------------------------------------------------------
# Graphviz
# --------------------------------------------------------------------------


def _display_table():
    table = {code: chr(0x2400 + code) for code in range(0x20)}
    table[0x7F] = "\u2421"
    for code in [*range(0x80, 0xA0), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF]:
        table[code] = "\ufffd"
    return table


_DISPLAY_TABLE = _display_table()


def _display_text(text) -> str:
    """What a reader should see for a piece of user text, on one line.

    Control characters (including newlines and tabs) become the matching
    Unicode "control picture" symbols (a newline shows as U+240A); C1
    controls, lone surrogates (not encodable as UTF-8) and U+FFFE/U+FFFF
    (not allowed in SVG/XML) become U+FFFD.  Everything else, Chinese
    included, is kept as is.
    """
    return str(text).translate(_DISPLAY_TABLE)


def _dot_escape_line(text: str) -> str:
    """Escape one line of display text for a double-quoted DOT label.

    ``\\`` is doubled (so ``\\N``, ``\\l``... stay literal), ``"`` becomes
    ``\\"`` and ``&`` becomes ``&amp;`` (Graphviz decodes HTML entities in
    plain labels too).  The result contains no raw newline.
    """
    return (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("&", "&amp;")
    )


def _dot_label(lines) -> str:
    """A complete double-quoted DOT label made of centred lines."""
    return '"' + "\\n".join(_dot_escape_line(_display_text(s)) for s in lines) + '"'


def _dot_quote(text) -> str:
    """A single user string as a double-quoted DOT string (e.g. a font)."""
    return _dot_label([text])


def _format_number(x, precision: int) -> str:
    """``x`` rounded to ``precision`` decimals, without trailing zeros."""
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    s = f"{x:.{precision}f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    if s == "-0":
        s = "0"
    return s


def _format_threshold(x, precision: int) -> str:
    """Like :func:`_format_number`, but a non-zero threshold never shows as
    0: small thresholds fall back to ``precision`` significant digits."""
    s = _format_number(x, precision)
    if s == "0" and float(x) != 0.0 and math.isfinite(float(x)):
        s = f"{float(x):.{max(precision, 1)}g}"
    return s


def _hex_to_rgb(colour: str):
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def _relative_luminance(rgb) -> float:
    def channel(c):
        c = c / 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _mix_with_white(rgb, alpha: float):
    return tuple(int(round(alpha * c + (1.0 - alpha) * 255.0)) for c in rgb)


@functools.lru_cache(maxsize=256)
def _max_alpha(rgb) -> float:
    """The strongest mix of ``rgb`` into white whose luminance stays at or
    above _MIN_FILL_LUMINANCE (so black text stays readable)."""
    if _relative_luminance(rgb) >= _MIN_FILL_LUMINANCE:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(30):
        mid = (lo + hi) / 2
        if _relative_luminance(_mix_with_white(rgb, mid)) >= _MIN_FILL_LUMINANCE:
            lo = mid
        else:
            hi = mid
    return lo


def _fill_colours(view, classifier, colours):
    """One "#rrggbb" fill per node.

    Single-output classifiers: the majority class's colour (ties go to the
    lowest class index), mixed into white in proportion to how far the
    leading class is ahead of the runner-up: ``(p1 - p2) / (1 - p2)``, so a
    pure node gets the full colour and a tie gets white.  Regressors: the
    first colour, in proportion to the node's value between the smallest
    and the largest.  Multi-output trees: the first colour, in proportion to
    how low the impurity is.  Every colour is capped by :func:`_max_alpha`.
    """
    n = view.node_count
    if classifier and view.n_outputs == 1:
        fractions = view.value[:, 0, :]
        index = np.argmax(fractions, axis=1) % len(colours)
        if fractions.shape[1] == 1:
            alpha = np.ones(n)
        else:
            top = -np.sort(-fractions, axis=1)
            p1, p2 = top[:, 0], top[:, 1]
            with np.errstate(divide="ignore", invalid="ignore"):
                alpha = np.where(p2 < 1.0, np.maximum(p1 - p2, 0.0) / (1.0 - p2), 0.0)
    else:
        index = np.zeros(n, dtype=np.int64)
        scale = view.value[:, 0, 0] if view.n_outputs == 1 else -view.impurity
        finite = scale[np.isfinite(scale)]
        lo, hi = (finite.min(), finite.max()) if finite.size else (0.0, 0.0)
        if hi == lo:
            alpha = np.ones(n)
        else:
            alpha = (scale - lo) / (hi - lo)
    alpha = np.clip(np.nan_to_num(alpha, nan=0.0, posinf=0.0, neginf=0.0), 0.0, 1.0)
    rgb = np.array([_hex_to_rgb(c) for c in colours], dtype=np.float64)
    cap = np.array([_max_alpha(tuple(int(v) for v in c)) for c in rgb])
    a = (alpha * cap[index])[:, None]
    mixed = np.round(a * rgb[index] + (1.0 - a) * 255.0).astype(int).tolist()
    return [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in mixed]


def node_fills(est, *, classifier=None, palette=None) -> list:
    """The fill of every node, as ``export_graphviz(filled=True)`` draws it,
    for drawings made elsewhere (see :func:`_fill_colours`).

    Parameters
    ----------
    est : estimator or Tree
        A fitted estimator, or a tree (``tree_``, ``tree_at(k)``...).
    classifier : bool or None, default=None
        Overrides the guess made from ``est`` (a bare ``tree_at(k)`` tree
        with one class would be taken for a regressor).
    palette : sequence of str or None, default=None
        ``"#rrggbb"`` colours, one per class in turn (a regressor's nodes
        use the first); None: ``OKABE_ITO``.

    Returns
    -------
    list of str
        One ``"#rrggbb"`` per node.

    Raises
    ------
    ValueError
        If ``palette`` is empty or holds something else than ``"#rrggbb"``.
    """
    view = _TreeView(est)
    if classifier is None:
        classifier = view.is_classifier()
    colours = list(CLASS_COLOURS if palette is None else _names(palette, "palette"))
    for c in colours:
        if not isinstance(c, str) or not _HEX_COLOUR.fullmatch(c):
            raise ValueError(f"palette colours must be '#rrggbb' strings; got {c!r}")
    if not colours:
        raise ValueError("palette must contain at least one colour")
    return _fill_colours(view, bool(classifier), colours)


def _check_colour(colour, what) -> str:
    if not isinstance(colour, str) or not _COLOUR_SPEC.fullmatch(colour):
        raise ValueError(
            f"{what} must be '#rrggbb', '#rrggbbaa' or a Graphviz colour name; "
            f"got {colour!r}"
        )
    return colour


def _node_index(key, view, what) -> int:
    try:
        node = int(key)
    except (TypeError, ValueError):
        raise ValueError(f"{what} keys must be node indices; got {key!r}") from None
    if not 0 <= node < view.node_count:
        raise ValueError(
            f"{what} key {node} is not a node index (0..{view.node_count - 1})"
        )
    return node


def export_graphviz(
    est,
    *,
    feature_names=None,
    class_names=None,
    filled=True,
    rounded=True,
    node_ids=False,
    impurity=True,
    proportion=False,
    precision=3,
    max_depth=None,
    label_lines=None,
    highlight=None,
    fontname="Helvetica",
    fontsize=14,
    rankdir="TB",
    leaves_parallel=False,
    palette=None,
    impurity_name=None,
    categories=None,
    lang="en",
    compact=False,
    edge_width=None,
):
    """Draw a fitted tree as Graphviz DOT source.

    Each box lists, one per line: ``node #i`` (when ``node_ids``), the split
    ``feature <= threshold`` (internal nodes), ``<criterion> = impurity``
    (when ``impurity``), ``samples = n`` (or a percentage when
    ``proportion``), ``value = ...`` (weighted class counts for classifiers,
    or class fractions when ``proportion``; the prediction for regressors),
    ``class = name`` (single-output classifiers), then any ``label_lines``.
    The root's edges are marked ``True`` (left, ``x <= t``) and ``False``,
    as edge labels of their own (``label``: dot leaves them room, so they
    never lie on a box).  A split of known against missing values
    (threshold +inf) reads ``feature is known`` and its edges ``known`` and
    ``missing``.  A box holding East Asian wide characters, which Graphviz
    measures with Latin metrics, gets a ``width`` from :func:`text_em`.

    Parameters
    ----------
    est : fitted estimator or tree
    feature_names : sequence of str, optional
        Defaults to ``est.feature_names_in_``, else ``feature_0``, ...
    class_names : sequence, optional
        Defaults to ``est.classes_``, else the class indices.
    filled : bool
        Fill classifier nodes with their majority class's colour, stronger
        the purer the node; regressor nodes with one colour, stronger the
        larger the value; multi-output nodes by (low) impurity.
    rounded : bool
        Rounded boxes.
    node_ids : bool
        Show ``node #id`` (the tree's ``node_ids`` if it has them, else
        the node index).
    impurity : bool
        Show the impurity line.
    proportion : bool
        Show samples as a percentage of the root and class values as
        fractions.
    precision : int
        Decimal places for thresholds, impurities and values.
    max_depth : int, optional
        Draw only this many levels below the root; deeper children appear
        as grey ``(...)`` boxes.
    label_lines : dict {node index: list of str}, optional
        Extra lines appended to a node's box.  Escaped like all user text.
    compact : bool
        One line fewer per box, for a projector: with ``node_ids``, ``#id``
        starts the box's next line (the split, or a leaf's impurity) instead
        of taking a line of its own.
    highlight : dict {node index: colour}, optional
        Draw these nodes with a thick border of the given colour
        (``#rrggbb``, ``#rrggbbaa`` or a Graphviz colour name).
    fontname, fontsize : font of node and edge text.  The font name is
        restricted to letters, digits, spaces and ``_.,:+-``.
    rankdir : {"TB", "LR", "BT", "RL"}
        Direction of the layout.
    leaves_parallel : bool
        Put all leaves on the same rank.
    palette : sequence of "#rrggbb", optional
        Class colours, used cyclically; defaults to :data:`OKABE_ITO`.
        Regression trees use the first colour.
    impurity_name : str, optional
        Name on the impurity line; defaults to ``est.criterion``.
    categories : list, optional
        Category labels per feature (None for numeric features); defaults to
        ``est.categories_``.  A multiway node shows its feature and labels
        each edge with its categories; a subset node shows
        ``feature in {...}`` with True/False edges.
    lang : {"en", "zh"}
        Language of the fixed words: ``"zh"`` writes 结点, 样本数 (样本占比),
        类别分布 (均值 for regressors), 类别, ∈ and 是/否 edges instead of
        node, samples, value, class, in and True/False.  ``impurity_name``
        is used as given (pass it in the same language); names from the
        user are never translated.
    edge_width : {None, "samples"}
        None (the default): every edge is drawn alike (Graphviz's width 1,
        no ``penwidth``).  ``"samples"`` (as Orange and BigML draw trees):
        ``penwidth = 0.75 + 7.25 * share``, ``share`` the child's weighted
        samples over the root's: 8 points when all the rows pass, thin but
        visible (0.75) when few do; two decimals, the edge's last attribute.

    Returns
    -------
    str
        DOT source (UTF-8 text).  Graph nodes are named by node index.
    """
    view = _TreeView(est)
    cats = categories if categories is not None else view.attr("categories_")
    if lang not in DOT_WORDS:
        raise ValueError(f"lang must be one of {sorted(DOT_WORDS)}; got {lang!r}")
    words = DOT_WORDS[lang]
    _check_int(precision, "precision", 0)
    precision = int(precision)
    if max_depth is not None:
        _check_int(max_depth, "max_depth", 0)
    if rankdir not in _RANKDIRS:
        raise ValueError(f"rankdir must be one of {sorted(_RANKDIRS)}; got {rankdir!r}")
    if not isinstance(fontname, str) or not _FONT_NAME.fullmatch(fontname):
        raise ValueError(
            "fontname may contain only letters, digits, spaces and _.,:+- "
            f"(Graphviz does not escape it in SVG); got {fontname!r}"
        )
    if not isinstance(fontsize, (int, float, np.integer, np.floating)) or not (
        0 < float(fontsize) < 1000
    ):
        raise ValueError(f"fontsize must be a positive number; got {fontsize!r}")
    if edge_width not in (None, "samples"):
        raise ValueError(f"edge_width must be None or 'samples'; got {edge_width!r}")

    colours = list(CLASS_COLOURS if palette is None else _names(palette, "palette"))
    if not colours:
        raise ValueError("palette must contain at least one colour")
    for c in colours:
        if not isinstance(c, str) or not _HEX_COLOUR.fullmatch(c):
            raise ValueError(f"palette colours must be '#rrggbb' strings; got {c!r}")

    extra = {}
    for key, lines in (label_lines or {}).items():
        node = _node_index(key, view, "label_lines")
        extra[node] = [lines] if isinstance(lines, str) else [str(s) for s in lines]
    borders = {}
    for key, colour in (highlight or {}).items():
        borders[_node_index(key, view, "highlight")] = _check_colour(colour, "highlight colour")

    classifier = view.is_classifier(class_names)
    names = _feature_names(view, feature_names, default_from_estimator=True)
    single_output = view.n_outputs == 1

    classes = None
    if classifier and single_output:
        if class_names is not None:
            classes = _names(class_names, "class_names")
            if len(classes) != view.n_classes:
                raise ValueError(
                    "class_names must have one name per class: got "
                    f"{len(classes)} names for {view.n_classes} classes"
                )
        else:
            known = view.attr("classes_")
            if known is not None and len(known) == view.n_classes:
                classes = list(known)
            else:
                classes = list(range(view.n_classes))

    if impurity_name is None:
        crit = view.criterion_name()
        impurity_name = _IMPURITY_DISPLAY_NAME.get(crit, crit) if crit else words["impurity"]

    fills = _fill_colours(view, classifier, colours) if filled else None

    # Everything a label needs, escaped or converted to Python types once.
    def esc(text):
        return _dot_escape_line(_display_text(text))

    feature_text = None if names is None else [esc(n) for n in names]
    class_text = None if classes is None else [esc(c) for c in classes]
    impurity_text = esc(impurity_name)
    extra_text = {n: [esc(s) for s in lines] for n, lines in extra.items()}
    thresholds = view.threshold.tolist()
    impurities = view.impurity.tolist()
    samples = view.n_samples.tolist()
    total = float(samples[0]) if samples else 0.0
    root_weight = float(view.weighted[0]) if len(view.weighted) else 0.0
    best = np.argmax(view.value[:, 0, :], axis=1).tolist()
    if classifier:
        shown = view.value if proportion else view.value * view.weighted[:, None, None]
        values = np.round(shown, precision)
        integral = np.all(np.isfinite(values) & (values == np.round(values)), axis=(1, 2))
        integral = integral.tolist()
        rows = values.tolist()
    else:
        rows = view.value[:, :, 0].tolist()

    def number(text):
        """A formatted number; "inf" and "nan" in the drawing's language."""
        return _NONFINITE_ZH.get(text, text) if lang == "zh" else text

    def value_text(node):
        if not classifier:
            parts = [number(_format_number(v, precision)) for v in rows[node]]
            return parts[0] if single_output else "[" + ", ".join(parts) + "]"
        if integral[node]:
            groups = ["[" + ", ".join(str(int(v)) for v in row) + "]" for row in rows[node]]
        else:
            groups = [
                "[" + ", ".join(_format_number(v, precision) for v in row) + "]"
                for row in rows[node]
            ]
        return groups[0] if single_output else "[" + ", ".join(groups) + "]"

    def node_lines(node):
        """The escaped lines of a node's label."""
        lines = []
        if node_ids:
            shown_id = node if view.display_ids is None else view.display_ids[node]
            lines.append(esc(f"{words['node']} #{shown_id}"))
        if not view.is_leaf(node):
            f = int(view.feature[node])
            fname = f"feature_{f}" if feature_text is None else feature_text[f]
            if is_missing_split(view.kind[node], thresholds[node]):
                lines.append(f"{fname} {words['is_known']}")
            elif view.kind[node] == 0:
                threshold = number(_format_threshold(thresholds[node], precision))
                lines.append(f"{fname} <= {threshold}")
            elif view.kind[node] == 1:
                left = esc("{" + ", ".join(view.branch_names(node, cats)[0]) + "}")
                lines.append(f"{fname} {words['in']} {left}")
            else:
                lines.append(f"{fname} = ?")
        if impurity:
            value = number(_format_number(impurities[node], precision))
            lines.append(f"{impurity_text} = {value}")
        if proportion:
            pct = 100.0 * samples[node] / total if total else 0.0
            lines.append(f"{words['share']} = {pct:.1f}%")
        else:
            lines.append(f"{words['samples']} = {int(samples[node])}")
        lines.append(f"{words['value' if classifier else 'mean']} = {value_text(node)}")
        if class_text is not None:
            lines.append(f"{words['class']} = {class_text[best[node]]}")
        lines.extend(extra_text.get(node, ()))
        if compact and node_ids and len(lines) > 1:  # "node #3" + "x <= 1" -> "#3  x <= 1"
            lines[:2] = [f"#{lines[0].rsplit('#', 1)[-1]}  {lines[1]}"]
        return lines

    font = _dot_quote(fontname)
    style = ", ".join(s for s, on in (("filled", filled), ("rounded", rounded)) if on)
    out = ["digraph Tree {\n"]
    node_defaults = [
        "shape=box",
        f'color="{_BORDER_COLOUR}"',
        f'fontcolor="{_TEXT_COLOUR}"',
        f"fontname={font}",
        f"fontsize={_format_number(fontsize, 2)}",
    ]
    if style:
        node_defaults.insert(1, f'style="{style}"')
    out.append(f"node [{', '.join(node_defaults)}] ;\n")
    out.append(f"edge [fontname={font}, fontsize={_format_number(fontsize, 2)}] ;\n")
    if leaves_parallel:
        out.append("graph [ranksep=equally, splines=polyline] ;\n")
    if rankdir != "TB":
        out.append(f"rankdir={rankdir} ;\n")

    ranks = {}  # depth -> nodes of internal nodes; "leaves" -> leaves
    todo = [(0, None, 0)]  # (node, parent, depth), pre-order
    while todo:
        node, parent, depth = todo.pop()
        truncated = max_depth is not None and depth > max_depth
        if truncated:
            attrs = ['label="(...)"']
            if filled:
                attrs.append(f'fillcolor="{_TRUNCATED_FILL}"')
        else:
            lines = node_lines(node)
            attrs = ['label="' + "\\n".join(lines) + '"']
            wide = [line for line in lines if _has_wide(line)]
            if wide:  # Graphviz would measure these lines with Latin metrics
                em = max(text_em(line.replace("\\\\", "\\")) for line in wide)
                attrs.append(f"width={em * float(fontsize) / 72 + _NODE_MARGIN_IN:.2f}")
            if filled:
                attrs.append(f'fillcolor="{fills[node]}"')
            if node in borders:
                attrs.append(f'color="{borders[node]}"')
                attrs.append("penwidth=3.5")
        out.append(f"{node} [{', '.join(attrs)}] ;\n")
        if truncated or view.is_leaf(node):
            ranks.setdefault("leaves", []).append(node)
        else:
            ranks.setdefault(depth, []).append(node)
        if parent is not None:
            edge = f"{parent} -> {node}"
            position = view.children[parent].index(node)
            if view.kind[parent] == 2:  # multiway: every edge names its categories
                text = esc(", ".join(view.branch_names(parent, cats)[position]))
                edge += f' [label="{text}"]'
            elif is_missing_split(view.kind[parent], thresholds[parent]):
                edge += f' [label="{words["known" if position == 0 else "missing"]}"]'
            elif parent == 0:
                # an edge label of its own (dot gives it room between the
                # ranks), never a head label, which can land on a box
                edge += f' [label="{words["true" if position == 0 else "false"]}"]'
            if edge_width == "samples":  # 0.75 + 7.25 * the child's share of the root
                share = float(view.weighted[node]) / root_weight if root_weight > 0 else 0.0
                pen = f"penwidth={0.75 + 7.25 * min(max(share, 0.0), 1.0):.2f}"
                edge = edge[:-1] + f", {pen}]" if edge.endswith("]") else edge + f" [{pen}]"
            out.append(edge + " ;\n")
        if not truncated and not view.is_leaf(node):
            for kid in reversed(view.children[node]):
                todo.append((int(kid), node, depth + 1))

    if leaves_parallel:
        for key in sorted(ranks, key=lambda k: (k == "leaves", k if k != "leaves" else 0)):
            members = "; ".join(str(n) for n in ranks[key])
            out.append("{rank=same ; " + members + "} ;\n")
    out.append("}\n")
    return "".join(out)
