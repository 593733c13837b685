"""Turn a fitted decision tree into Graphviz DOT source.

The tree is read by :class:`dtree._tree_view.TreeView` (dtree's trees and
scikit-learn's alike); the left child of a split receives the samples with
``x[feature] <= threshold``.

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

import re
import unicodedata

import numpy as np

from ._colours import TRUNCATED_FILL, check_colour, fill_colours, palette_colours
from ._tree_view import (IMPURITY_DISPLAY_NAME, TreeView, check_int, feature_names_list,
                         format_number, format_threshold, is_missing_split, names_list)

#: The fixed words of a DOT drawing, in English (scikit-learn's) and in
#: Chinese (the lecture notes' terms: 结点, 样本数, 类别分布, 类别, 是/否).
DOT_WORDS = {
    "en": {"node": "node", "samples": "samples", "share": "samples", "value": "value",
           "mean": "value", "class": "class", "in": "in", "true": "True", "false": "False",
           "impurity": "impurity", "is_known": "is known", "known": "known",
           "missing": "missing", "folded": "{n} nodes", "above": "▲ {n} levels above"},
    "zh": {"node": "结点", "samples": "样本数", "share": "样本占比", "value": "类别分布",
           "mean": "均值", "class": "类别", "in": "∈", "true": "是", "false": "否",
           "impurity": "不纯度", "is_known": "已知", "known": "已知", "missing": "缺失",
           "folded": "{n} 个结点", "above": "▲ 上方还有 {n} 层"},
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


_TEXT_COLOUR = "#000000"
_BORDER_COLOUR = "#404040"
_RANKDIRS = {"TB", "BT", "LR", "RL"}
# Graphviz copies font names into SVG attributes without escaping them, so
# only plain font-name characters are accepted.
_FONT_NAME = re.compile(r"[A-Za-z0-9 _.,:+-]{1,100}")


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
    details=True,
    folded=None,
    root=None,
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
    details : bool
        False: brief boxes, for a projector (Orange's "hide details"): the
        split (internal nodes) or the class (a classifier's leaves), then
        the weighted class counts (one decimal at most) or, for
        regressors, the samples and the mean; ``#id`` starts the first
        line when ``node_ids``; ``label_lines`` still follow.  Overrides
        ``impurity``, ``proportion`` and ``compact``.
    folded : iterable of node indices, optional
        Draw each of these internal nodes as a stub that stands for its
        whole subtree: a dashed box, filled as the node is, that reads
        ``#id ▸ n nodes`` (the subtree's size, the node included) above
        its class counts (regressors: its samples and mean); its
        descendants are not drawn.  Leaves in it are drawn as usual.
    root : int, optional
        Draw only the subtree under this node index (a deep tree's lower
        part); its box starts with ``▲ n levels above`` (n: its depth).
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
    view = TreeView(est)
    cats = categories if categories is not None else view.attr("categories_")
    if lang not in DOT_WORDS:
        raise ValueError(f"lang must be one of {sorted(DOT_WORDS)}; got {lang!r}")
    words = DOT_WORDS[lang]
    check_int(precision, "precision", 0)
    precision = int(precision)
    if max_depth is not None:
        check_int(max_depth, "max_depth", 0)
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

    colours = palette_colours(palette)

    extra = {}
    for key, lines in (label_lines or {}).items():
        node = _node_index(key, view, "label_lines")
        extra[node] = [lines] if isinstance(lines, str) else [str(s) for s in lines]
    borders = {}
    for key, colour in (highlight or {}).items():
        borders[_node_index(key, view, "highlight")] = check_colour(colour, "highlight colour")

    top = 0 if root is None else _node_index(root, view, "root")
    levels_above = 0
    if top:
        parents = {kid: n for n in range(view.node_count) for kid in view.children[n]}
        node = top
        while node in parents:
            node, levels_above = parents[node], levels_above + 1
        if node != 0:
            raise ValueError(f"root {top} is not reached from the tree's root")
    stubs = set()
    for key in folded if folded is not None else ():
        node = _node_index(key, view, "folded")
        if not view.is_leaf(node):
            stubs.add(node)

    classifier = view.is_classifier(class_names)
    names = feature_names_list(view, feature_names, default_from_estimator=True)
    single_output = view.n_outputs == 1

    classes = None
    if classifier and single_output:
        if class_names is not None:
            classes = names_list(class_names, "class_names")
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
        impurity_name = IMPURITY_DISPLAY_NAME.get(crit, crit) if crit else words["impurity"]

    fills = fill_colours(view, classifier, colours) if filled else None

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
    if not details:
        proportion = False
        precision_counts = min(precision, 1)
    else:
        precision_counts = precision
    if classifier:
        shown = view.value if proportion else view.value * view.weighted[:, None, None]
        values = np.round(shown, precision_counts)
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
            parts = [number(format_number(v, precision)) for v in rows[node]]
            return parts[0] if single_output else "[" + ", ".join(parts) + "]"
        if integral[node]:
            groups = ["[" + ", ".join(str(int(v)) for v in row) + "]" for row in rows[node]]
        else:
            groups = [
                "[" + ", ".join(format_number(v, precision_counts) for v in row) + "]"
                for row in rows[node]
            ]
        return groups[0] if single_output else "[" + ", ".join(groups) + "]"

    def shown_id(node):
        return node if view.display_ids is None else view.display_ids[node]

    def split_text(node):
        f = int(view.feature[node])
        fname = f"feature_{f}" if feature_text is None else feature_text[f]
        if is_missing_split(view.kind[node], thresholds[node]):
            return f"{fname} {words['is_known']}"
        if view.kind[node] == 0:
            return f"{fname} <= {number(format_threshold(thresholds[node], precision))}"
        if view.kind[node] == 1:
            left = esc("{" + ", ".join(view.branch_names(node, cats)[0]) + "}")
            return f"{fname} {words['in']} {left}"
        return f"{fname} = ?"

    def mix_text(node):
        """The class counts (a regressor's samples and mean), brief."""
        if classifier:
            return value_text(node)
        return f"{words['samples']} {int(samples[node])} · {words['mean']} {value_text(node)}"

    def brief_lines(node):
        if node in stubs:
            size = subtree_size(node)
            first = f"▸ {words['folded'].format(n=size)}"
        elif not view.is_leaf(node):
            first = split_text(node)
        elif class_text is not None:
            first = class_text[best[node]]
        else:
            first = None
        lines = [line for line in (first, mix_text(node)) if line is not None]
        if node_ids:
            lines[0] = esc(f"#{shown_id(node)}  ") + lines[0]
        if node not in stubs:
            lines.extend(extra_text.get(node, ()))
        return lines

    def subtree_size(node):
        size, todo = 0, [node]
        while todo:
            size += 1
            todo.extend(view.children[todo.pop()])
        return size

    def node_lines(node):
        """The escaped lines of a node's label."""
        if not details or node in stubs:
            return brief_lines(node)
        lines = []
        if node_ids:
            lines.append(esc(f"{words['node']} #{shown_id(node)}"))
        if not view.is_leaf(node):
            lines.append(split_text(node))
        if impurity:
            value = number(format_number(impurities[node], precision))
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
        f"fontsize={format_number(fontsize, 2)}",
    ]
    if style:
        node_defaults.insert(1, f'style="{style}"')
    out.append(f"node [{', '.join(node_defaults)}] ;\n")
    out.append(f"edge [fontname={font}, fontsize={format_number(fontsize, 2)}] ;\n")
    if leaves_parallel:
        out.append("graph [ranksep=equally, splines=polyline] ;\n")
    if rankdir != "TB":
        out.append(f"rankdir={rankdir} ;\n")

    ranks = {}  # depth -> nodes of internal nodes; "leaves" -> leaves
    todo = [(top, None, 0)]  # (node, parent, depth), pre-order
    while todo:
        node, parent, depth = todo.pop()
        truncated = max_depth is not None and depth > max_depth
        if truncated:
            attrs = ['label="(...)"']
            if filled:
                attrs.append(f'fillcolor="{TRUNCATED_FILL}"')
        else:
            lines = node_lines(node)
            if node == top and levels_above:
                lines.insert(0, words["above"].format(n=levels_above))
            attrs = ['label="' + "\\n".join(lines) + '"']
            wide = [line for line in lines if _has_wide(line)]
            if wide:  # Graphviz would measure these lines with Latin metrics
                em = max(text_em(line.replace("\\\\", "\\")) for line in wide)
                attrs.append(f"width={em * float(fontsize) / 72 + _NODE_MARGIN_IN:.2f}")
            if filled:
                attrs.append(f'fillcolor="{fills[node]}"')
            if node in stubs:  # a folded subtree: dashed, as a placeholder reads
                attrs.append(f'style="{", ".join(filter(None, (style, "dashed")))}"')
                attrs.append("penwidth=2")
            if node in borders:
                attrs.append(f'color="{borders[node]}"')
                attrs.append("penwidth=3.5")
        out.append(f"{node} [{', '.join(attrs)}] ;\n")
        if truncated or view.is_leaf(node) or node in stubs:
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
        if not truncated and not view.is_leaf(node) and node not in stubs:
            for kid in reversed(view.children[node]):
                todo.append((int(kid), node, depth + 1))

    if leaves_parallel:
        for key in sorted(ranks, key=lambda k: (k == "leaves", k if k != "leaves" else 0)):
            members = "; ".join(str(n) for n in ranks[key])
            out.append("{rank=same ; " + members + "} ;\n")
    out.append("}\n")
    return "".join(out)
