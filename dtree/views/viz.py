"""Figures for the app: the tree at a step as DOT, and Plotly charts.

Every builder returns a figure (a DOT string or a ``plotly`` Figure) and never
draws it.  User text reaches DOT only through ``export_graphviz`` (which
escapes it) and reaches Plotly only HTML-escaped, since Plotly renders a
subset of HTML in titles, labels and hover text.
"""

from __future__ import annotations

import html
import re

import numpy as np

from .. import CLASS_COLOURS, NUMERIC, OKABE_ITO, export_graphviz
from . import vocabulary
from .vocabulary import t
from .explain import partition_2d
from .focus import PRESENTER_WINDOW, focus_folds

#: Border colours of the node split in this step and of the next one to split.
JUST_SPLIT = "#D55E00"  # vermillion
NEXT_SPLIT = "#0072B2"  # blue
#: Outline of the nodes and colour of the edges on a sample's prediction path.
ON_PATH = "#CC79A7"  # reddish purple
#: Above this many nodes the DOT is cut at a depth (drawing thousands of boxes
#: takes seconds and shows nothing readable).
MAX_DRAWN_NODES = 255
FONT_SIZE = 18
#: DOT font size (points; the browser draws a point as 4/3 pixel).
TREE_FONT_SIZE = 14
LABEL_LENGTH = 32


def short(text, n=LABEL_LENGTH) -> str:
    """User text shortened for a label (one line, at most n characters)."""
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _plain(text, n=LABEL_LENGTH) -> str:
    """User text for Plotly: shortened and HTML-escaped."""
    # quote=False: Plotly does not decode &quot;, and without < no tag can start
    return html.escape(short(text, n), quote=False)


def criterion_of(model) -> str:
    """The criterion a fitted model used (after its algorithm preset)."""
    return getattr(model, "criterion_", None) or model.criterion


def category_labels(model, n=LABEL_LENGTH):
    """Each feature's category labels, shortened for the tree's boxes (None
    for numeric features)."""
    cats = getattr(model, "categories_", None)
    if cats is None:
        return None
    return [None if c is None else [short(v, n) for v in c] for c in cats]


def impurity_label(criterion: str, lang: str = "en") -> str:
    """The short name of a criterion's impurity ("entropy", "gini", "mse"...;
    in Chinese with ``lang="zh"``: 信息熵, 基尼系数, 均方误差...)."""
    name = {"gain_ratio": "entropy", "log_loss": "entropy", "friedman_mse": "mse",
            "squared_error": "mse", "absolute_error": "mae",
            "misclassification": "error"}.get(criterion, criterion)
    return vocabulary.name("impurity", name, lang)


#: The words step_dot adds to the boxes (the lecture notes' terms in Chinese).
STEP_WORDS = {
    "en": {"gain": "gain", "info_gain": "gain", "gain_ratio": "gain ratio",
           "priority": "priority"},
    "zh": {"gain": "增益", "info_gain": "信息增益", "gain_ratio": "信息增益比",
           "priority": "优先级"},
}


def step_words(criterion: str, lang: str = "en") -> dict:
    """The words of step_dot's extra lines; ``gain`` is 信息增益 under an
    entropy criterion (the decrease of entropy is the information gain)."""
    words = dict(STEP_WORDS["zh" if lang == "zh" else "en"])
    if criterion in ("entropy", "log_loss"):
        words["gain"] = words["info_gain"]
    return words


# ---------------------------------------------------------------------------
# The tree at step k, as DOT
# ---------------------------------------------------------------------------


def tree_font_size(n_leaves: int) -> int:
    """Larger text for small trees; chosen on the grown tree so that the size
    does not change while stepping."""
    return 20 if n_leaves <= 4 else 17 if n_leaves <= 8 else TREE_FONT_SIZE


def _fixed(x: float, digits: int) -> str:
    """``x`` to ``digits`` decimals, without the "-0.000" that rounding a tiny
    negative (a floating-point zero gain) would print."""
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def step_dot(model, k: int, *, cost_complexity=None, rankdir="TB",
             fontsize=None, path=None, lang="en", compact=False,
             edge_width=None, details=True, focus=False, folded=(), opened=(),
             window=PRESENTER_WINDOW, keep=()) -> tuple[str, dict]:
    """DOT of ``model.tree_at(k)`` with the teaching annotations.

    Each node shows its id, split, impurity, samples, class counts (or mean)
    and class; split nodes add their gain (gain ratio under C4.5) and g(t);
    in best-first growth, leaves waiting to be split show their priority.
    The node split by step k is outlined in vermillion, the next one in blue.
    ``cost_complexity``: the table of ``cost_complexity_table(tree_at(k))``.
    ``fontsize`` defaults to :func:`tree_font_size` of the grown tree.
    ``path``: a sample's prediction path on ``tree_at(k)``, as node indices or
    (node, weight) pairs (``dtree.views.prediction``'s ``Prediction.path``): its
    nodes get a double outline (reddish purple unless the step colours them)
    and its edges are drawn thick in reddish purple, labelled ``w = ...``
    where C4.5 sends a fraction of the sample.
    ``lang="zh"``: every fixed word in Chinese (结点, 样本数, 类别分布, 类别,
    信息增益 or 增益, 信息增益比, 优先级, 是/否 edges; see :data:`STEP_WORDS`
    and ``export_graphviz``); the formula symbols g(t) and w stay.
    ``compact``: one line fewer per box and tighter spacing, for a projector
    (see :func:`drawn_dot`).
    ``edge_width="samples"``: each edge as wide as the share of the root's
    rows that reach its child (see :func:`drawn_dot`); a prediction path's
    edges keep their reddish purple and are at least as thick as before.
    ``details=False``: brief boxes (the split or the class, and the class
    counts; ``export_graphviz``'s ``details``), without the gain lines.
    ``folded``, ``opened``: node ids whose subtrees the user folded into a
    stub, or opened.  ``focus``: more subtrees folded, far from the node
    split by step k first, until the tree's text is readable in ``window``
    (:func:`dtree.views.focus.focus_folds`); the node split by step k, its
    children, the next node to split and the paths to them stay drawn, and
so do the nodes ``keep`` (node ids: the node where compared trees part),
    with their children, and a tree too deep for that is drawn from a node
    on the path down (``info["root"]``: its id, else None).

    Returns (dot, info) where info says what was highlighted, cut or folded
    (``info["folded"]``: the folded node ids; ``info["auto_folded"]``: True
    when ``focus`` folded more than the user did).
    """
    steps = model.steps_
    tree = model.tree_at(k)
    if fontsize is None:
        fontsize = tree_font_size(model.tree_.n_leaves)
    index = {int(nid): i for i, nid in enumerate(tree.node_ids)}
    by_node = {s.node: s for s in steps}
    highlight, lines = {}, {}
    info = {"just_split": None, "next_split": None, "depth_cut": None}
    if k > 0:
        highlight[index[steps[k - 1].node]] = JUST_SPLIT
        info["just_split"] = steps[k - 1].node
    if k < len(steps):
        highlight[index[steps[k].node]] = NEXT_SPLIT
        info["next_split"] = steps[k].node
    on_path = _path_weights(path, tree.node_count)
    info["path"] = sorted(on_path)
    for node in on_path:
        highlight.setdefault(node, ON_PATH)
    criterion = criterion_of(model)
    words = step_words(criterion, lang)
    ratio = criterion == "gain_ratio"
    best_first = getattr(model, "growth_", None) == "best_first"
    g = None if cost_complexity is None else cost_complexity["g"].to_numpy()
    for i, nid in enumerate(tree.node_ids):
        extra = []
        if tree.children_of(i):
            step = by_node.get(int(nid))
            parts = []
            if step is not None:
                parts.append(f"{words['gain_ratio']} = {_fixed(step.gain_ratio, 3)}" if ratio
                             else f"{words['gain']} = {_fixed(step.gain, 3)}")
            if g is not None and np.isfinite(g[i]):
                parts.append(f"g(t) = {_fixed(g[i], 4)}")
            if parts:
                extra.append(", ".join(parts))
        elif best_first and np.isfinite(tree.split_improvement[i]):
            extra.append(f"{words['priority']} = {tree.split_improvement[i]:.4f}")
        if extra:
            lines[i] = extra
    if not details:
        lines = {}
    ids = tree.node_ids.tolist()
    user_folded = [index[i] for i in folded if i in index]
    user_opened = [index[i] for i in opened if i in index]

    def dot_for(stubs, top=0):
        return drawn_dot(model, tree, highlight=highlight, label_lines=lines,
                         fontsize=fontsize, rankdir=rankdir, lang=lang, compact=compact,
                         edge_width=edge_width, details=details, folded=stubs,
                         root=top or None)

    stubs, info["auto_folded"], top = frozenset(user_folded), False, 0
    if focus:
        keep_open = [index[steps[k - 1].node]] if k > 0 else []
        keep_open += [index[i] for i in keep if i in index]
        keep_drawn = [index[steps[k].node]] if k < len(steps) else []
        chosen = focus_folds(tree, lambda f, top=0: dot_for(f, top)[0], keep_open=keep_open,
                             keep_drawn=keep_drawn, user_folded=user_folded,
                             user_opened=user_opened, window=window, lift=True)
        stubs, info["auto_folded"], top = chosen.folded, chosen.auto, chosen.root
    info["folded"] = sorted(ids[i] for i in stubs)
    info["root"] = ids[top] if top else None
    dot, info["depth_cut"] = dot_for(stubs, top)
    if on_path:
        dot = _mark_path(dot, on_path)
    return dot, info


def drawn_dot(model, tree, *, highlight=None, label_lines=None, fontsize=TREE_FONT_SIZE,
              rankdir="TB", impurity=True, max_nodes=MAX_DRAWN_NODES, lang="en",
              compact=False, edge_width=None, details=True, folded=None, root=None):
    """DOT of ``tree`` (a tree of ``model``: a step, or a pruned tree) the way
    the app draws every tree: the model's names, classes, categories and
    criterion, square boxes, a tight transparent layout, and a tree of more
    than ``max_nodes`` nodes cut at a depth; the fixed words in ``lang``
    ("en" or "zh").  ``compact``: the node id shares the box's next line and
    the ranks are closer, for a projector.  ``edge_width="samples"``: each
    edge's width grows with the share of the root's rows that reach its
    child (``export_graphviz``'s ``edge_width``; :func:`edge_width_legend`
    says so under the drawing).  ``details=False``: brief boxes;
    ``folded``: node indices drawn as stubs of their subtrees; ``root``: the
    node index drawn at the top (all as ``export_graphviz`` draws them).  Returns (dot, depth cut or None).
    """
    classes = getattr(model, "classes_", None)
    max_depth = None
    if tree.node_count > max_nodes:
        counts = np.cumsum(np.bincount(tree.depth - tree.depth.min()))
        max_depth = max(int(np.searchsorted(counts, max_nodes, side="right")) - 1, 1)
    dot = export_graphviz(
        tree,
        feature_names=[short(f) for f in model.feature_names_],
        class_names=None if classes is None else [short(c) for c in classes],
        impurity_name=impurity_label(criterion_of(model), lang),
        categories=category_labels(model),
        # square corners: Graphviz draws rounded boxes as paths, and the
        # browser-side renderer of st.graphviz_chart samples every path point
        # by point when the tree changes (10x slower steps at 31 nodes)
        rounded=False,
        node_ids=True, impurity=impurity, highlight=highlight, label_lines=label_lines,
        fontsize=fontsize, rankdir=rankdir, max_depth=max_depth, precision=3, lang=lang,
        compact=compact, edge_width=edge_width, details=details, folded=folded,
        root=root,
    )
    # layout of our own (constant text, no user input): tighter, transparent
    spacing = "nodesep=0.15, ranksep=0.25" if compact else "nodesep=0.2, ranksep=0.35"
    dot = dot.replace("digraph Tree {\n", "digraph Tree {\n"
                      f'graph [bgcolor="transparent", {spacing}, pad=0.1] ;\n', 1)
    return dot, max_depth


def _path_weights(path, node_count) -> dict:
    """{node: weight} from node indices or (node, weight) pairs."""
    out = {}
    for item in path or ():
        node, weight = (item, 1.0) if np.ndim(item) == 0 else (item[0], item[1])
        node = int(node)
        if not 0 <= node < node_count:
            raise ValueError(f"path names node {node}, but the tree has {node_count} nodes.")
        out[node] = float(weight)
    return out


_NODE_LINE = re.compile(r"^(\d+) \[(.*)\] ;$")
_EDGE_LINE = re.compile(r"^(\d+) -> (\d+)(?: \[(.*)\])? ;$")
_EDGE_LABEL = re.compile(r'(?<![a-z])label="((?:[^"\\]|\\.)*)"')
#: The width export_graphviz gives an edge (edge_width="samples"): always its
#: last attribute, after any quoted label, so never text of the user's.
_EDGE_WIDTH = re.compile(r"(?:^|, )penwidth=([0-9]+(?:\.[0-9]+)?)$")
#: The least width of a prediction path's edges.
PATH_WIDTH = 5.0


def edge_width_legend(lang: str = "en") -> str:
    """The line under a tree drawn with ``edge_width="samples"``."""
    return vocabulary.text(vocabulary.EDGE_WIDTH, "legend", lang)


def _mark_path(dot: str, on_path: dict) -> str:
    """Double outlines on the path's nodes, thick coloured edges between
    them (as wide as drawn by their share when wider than the path's
    :data:`PATH_WIDTH`), and the weight on edges that carry a fraction of
    the sample.
    Only attributes of our own (constant text and numbers) are added."""
    out = []
    for line in dot.split("\n"):
        node = _NODE_LINE.match(line)
        edge = _EDGE_LINE.match(line)
        if node and int(node.group(1)) in on_path:
            line = f"{node.group(1)} [{node.group(2)}, peripheries=2] ;"
        elif edge and int(edge.group(1)) in on_path and int(edge.group(2)) in on_path:
            attrs = edge.group(3) or ""
            weight = on_path[int(edge.group(2))]
            width = PATH_WIDTH
            drawn = _EDGE_WIDTH.search(attrs)
            if drawn:  # an edge drawn by its share: as wide, or the path's width
                width = max(width, float(drawn.group(1)))
                attrs = attrs[:drawn.start()]
            extra = [f'color="{ON_PATH}"', f"penwidth={width:g}", "arrowsize=0.8"]
            if weight < 1 - 1e-9:
                text = f"w = {weight:.3f}"
                if _EDGE_LABEL.search(attrs):
                    attrs = _EDGE_LABEL.sub(lambda m: f'label="{m.group(1)}\\n{text}"', attrs,
                                            count=1)
                else:
                    extra.append(f'label="{text}"')
            attrs = ", ".join([a for a in (attrs,) if a] + extra)
            line = f"{edge.group(1)} -> {edge.group(2)} [{attrs}] ;"
        out.append(line)
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Plotly
# ---------------------------------------------------------------------------


def _layout(fig, title=None, height=480, **axes):
    fig.update_layout(
        title=None if title is None else {"text": title, "font": {"size": FONT_SIZE + 2}},
        font={"size": FONT_SIZE}, height=height, margin={"l": 60, "r": 20, "t": 60, "b": 60},
        legend={"font": {"size": FONT_SIZE - 2}}, **axes)
    return fig


def class_colour(i) -> str:
    return CLASS_COLOURS[int(i) % len(CLASS_COLOURS)]


def _rgba(hex_colour, alpha):
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def tree_layout(tree):
    """x, y positions of every node: leaves left to right, parents centred
    over their children, one row per depth."""
    x = np.zeros(tree.node_count)
    order, stack = [], [0]
    while stack:  # pre-order, so that leaves come left to right
        n = stack.pop()
        order.append(n)
        stack.extend(reversed(tree.children_of(n)))
    slot = 0
    for n in order:
        if not tree.children_of(n):
            x[n] = slot
            slot += 1
    for n in np.argsort(-tree.depth, kind="stable"):
        kids = tree.children_of(n)
        if kids:
            x[n] = np.mean(x[kids])
    return x, -tree.depth.astype(float)


def tree_figure(tree, model, selected=None, height=380, lang="en"):
    """A clickable Plotly drawing of ``tree`` (a ``tree_at(k)``): one marker
    per node, with the full tree's node id in ``customdata``."""
    import plotly.graph_objects as go

    x, y = tree_layout(tree)
    ex, ey = [], []
    for n in range(tree.node_count):
        for c in tree.children_of(n):
            ex += [x[n], x[c], None]
            ey += [y[n], y[c], None]
    names = list(model.feature_names_in_)
    classes = getattr(model, "classes_", None)
    colours, hover = [], []
    for n in range(tree.node_count):
        if classes is not None:
            best = int(np.argmax(tree.value[n, 0, :]))
            colours.append(class_colour(best))
            what = t(lang, "class", "类别") + f" {_plain(classes[best])}"
        else:
            colours.append(OKABE_ITO[4])
            what = t(lang, "mean", "均值") + f" {tree.value[n, 0, 0]:.4g}"
        kids = tree.children_of(n)
        if not kids:
            split = t(lang, "leaf", "叶结点")
        elif int(tree.kind[n]) == NUMERIC and tree.threshold[n] == np.inf:  # known/missing
            split = vocabulary.missing_split(_plain(names[tree.feature[n]]), lang)
        elif int(tree.kind[n]) == NUMERIC:
            split = f"{_plain(names[tree.feature[n]])} ≤ {tree.threshold[n]:.4g}"
        else:
            split = t(lang, f"{_plain(names[tree.feature[n]])}: {len(kids)} branches",
                         f"{_plain(names[tree.feature[n]])}：{len(kids)} 个分支")
        hover.append(t(lang, "node", "结点") + f" #{tree.node_ids[n]}<br>{split}<br>"
                     + t(lang, "samples", "样本数") + f" {tree.n_node_samples[n]}<br>{what}")
    ids = [int(v) for v in tree.node_ids]
    sizes = [30 if selected is not None and v == selected else 22 for v in ids]
    widths = [4 if selected is not None and v == selected else 1 for v in ids]
    fig = go.Figure([
        go.Scatter(x=ex, y=ey, mode="lines", line={"color": "#888", "width": 2},
                   hoverinfo="skip", showlegend=False),
        go.Scatter(x=x, y=y, mode="markers+text", text=[f"#{v}" for v in ids],
                   textposition="top center", customdata=ids, hovertext=hover,
                   hoverinfo="text", showlegend=False,
                   marker={"size": sizes, "color": colours,
                           "line": {"color": "#000", "width": widths}},
                   selected={"marker": {"opacity": 1}},
                   unselected={"marker": {"opacity": 1}}),
    ])
    _layout(fig, None, height)
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False, range=[y.min() - 0.5, 0.6])
    fig.update_layout(margin={"l": 10, "r": 10, "t": 10, "b": 10}, clickmode="event+select",
                      dragmode=False)
    return fig


#: A line chart marks each of its points while it has at most this many: more
#: markers would overlap into a thick band, and each one is an SVG element
#: that the browser draws (hundreds of them cost a Prune page a second).
MARKED_POINTS = 150


def line_mode(n_points: int) -> str:
    """A Scatter trace's mode for a line of ``n_points`` points: with a marker
    per point up to :data:`MARKED_POINTS`, the line alone beyond (hovering
    still names each point)."""
    return "lines+markers" if n_points <= MARKED_POINTS else "lines"


def gain_curve_figure(curve, feature, chosen=None, value="gain", label="gain", lang="en"):
    """Gain (or gain ratio) against every threshold of one feature (``label``
    names the value, in the figure's language)."""
    import plotly.graph_objects as go

    ok = curve["allowed"].to_numpy(bool)
    mode = line_mode(len(curve))
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=curve["threshold"][ok], y=curve[value][ok], mode=mode,
                             name=label, line={"color": OKABE_ITO[4], "width": 3},
                             marker={"size": 7}))
    if (~ok).any():
        fig.add_trace(go.Scatter(x=curve["threshold"][~ok], y=curve[value][~ok],
                                 mode="markers",
                                 name=t(lang, "children too small", "子结点样本过少"),
                                 marker={"size": 7 if mode != "lines" else 4, "color": "#999",
                                         "symbol": "x"}))
    if chosen is not None:
        fig.add_vline(x=chosen, line={"color": JUST_SPLIT, "width": 3, "dash": "dash"},
                      annotation_text=t(lang, f"chosen: {chosen:.4g}", f"选中：{chosen:.4g}"),
                      annotation_font_size=FONT_SIZE - 2)
    return _layout(fig, t(lang, f"{label} of each threshold on {_plain(feature, 48)}",
                             f"{_plain(feature, 48)} 各个阈值的{label}"),
                   xaxis_title=_plain(feature, 48), yaxis_title=label)


def category_figure(bars, feature, lang="en"):
    """One bar per category: the gain of splitting it off from the rest."""
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(x=[_plain(c, 24) for c in bars["category"]], y=bars["gain"],
                           marker_color=OKABE_ITO[4],
                           hovertext=[t(lang, f"{n} rows", f"{n} 个样本")
                                      for n in bars["n_category"]]))
    return _layout(fig, t(lang, f"gain of “category vs the rest” on {_plain(feature, 40)}",
                             f"{_plain(feature, 40)}：“该类别对其余类别”的增益"),
                   xaxis_title=_plain(feature, 48), yaxis_title=t(lang, "gain", "增益"))


def category_terms_figure(terms, feature, impurity_name="impurity", lang="en"):
    """One bar per branch of a multiway split: |D_v|/|D| times its impurity."""
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(
        x=[_plain(c, 24) for c in terms["category"]], y=terms["term"],
        marker_color=OKABE_ITO[4],
        text=[t(lang, f"{n:,} rows, {impurity_name} {i:.3f}",
                   f"{n:,} 个样本，{impurity_name} {i:.3f}")
              for n, i in zip(terms["n"], terms["impurity"])],
        textposition="outside"))
    return _layout(fig, t(lang, f"each branch's share × {impurity_name}, on "
                                   f"{_plain(feature, 40)}",
                             f"{_plain(feature, 40)}：各分支的样本占比 × {impurity_name}"),
                   xaxis_title=_plain(feature, 48),
                   yaxis_title=f"|Dv|/|D| · {impurity_name}")


def score_figure(train, test, step, metric="accuracy", lang="en"):
    """Train/test score against step, with the current step marked (``metric``
    names the score, in the figure's language)."""
    import plotly.graph_objects as go

    steps = np.arange(len(train))
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=steps, y=train, mode=line_mode(len(steps)),
                             name=t(lang, "train", "训练集"),
                             line={"color": OKABE_ITO[4], "width": 3}))
    if len(test) and np.isfinite(test).any():
        fig.add_trace(go.Scatter(x=steps, y=test, mode=line_mode(len(steps)),
                                 name=t(lang, "test", "测试集"),
                                 line={"color": OKABE_ITO[5], "width": 3, "dash": "dot"}))
    fig.add_vline(x=step, line={"color": "#000", "width": 2},
                  annotation_text=t(lang, f"step {step}", f"第 {step} 步"),
                  annotation_font_size=FONT_SIZE - 2)
    return _layout(fig, t(lang, f"{metric} as the tree grows", f"{metric}随决策树生长的变化"),
                   xaxis_title=t(lang, "step (splits made)", "步骤（已完成的划分次数）"),
                   yaxis_title=metric)


def regions_figure(tree, model, fx, fy, point, X, y, max_points=3000, lang="en"):
    """The partition of the plane (features fx, fy; the others held at
    ``point``) by ``tree``, with the rows of (X, y) on top."""
    import plotly.graph_objects as go

    names = list(model.feature_names_in_)
    X = np.asarray(X, dtype=np.float64)
    if len(X) > max_points:
        keep = np.random.default_rng(0).choice(len(X), max_points, replace=False)
        X, y = X[keep], np.asarray(y)[keep]
    xs, ys = X[:, fx], X[:, fy]
    pad_x = 0.05 * (np.ptp(xs) or 1.0)
    pad_y = 0.05 * (np.ptp(ys) or 1.0)
    x_lo, x_hi = xs.min() - pad_x, xs.max() + pad_x
    y_lo, y_hi = ys.min() - pad_y, ys.max() + pad_y
    classes = getattr(model, "classes_", None)
    rects = partition_2d(tree, fx, fy, point)
    fig = go.Figure()
    if classes is None:
        values = tree.value[:, 0, 0]
        v_lo, v_hi = float(values.min()), float(values.max())
    for r in rects.itertuples():
        x0, x1 = max(r.x0, x_lo), min(r.x1, x_hi)
        y0, y1 = max(r.y0, y_lo), min(r.y1, y_hi)
        if x0 >= x1 or y0 >= y1:
            continue
        if classes is not None:
            fill = _rgba(class_colour(np.argmax(tree.value[r.node, 0, :])), 0.30)
        else:
            shade = 0.0 if v_hi == v_lo else (tree.value[r.node, 0, 0] - v_lo) / (v_hi - v_lo)
            fill = _rgba(OKABE_ITO[4], 0.1 + 0.5 * shade)
        fig.add_shape(type="rect", x0=x0, x1=x1, y0=y0, y1=y1, fillcolor=fill,
                      line={"color": "#333", "width": 1.5}, layer="below")
    if classes is not None:
        from .explain import class_codes

        codes = class_codes(classes, y)
        for i, c in enumerate(classes):
            sel = codes == i
            if sel.any():
                fig.add_trace(go.Scattergl(
                    x=xs[sel], y=ys[sel], mode="markers", name=_plain(c),
                    marker={"color": class_colour(i), "size": 8,
                            "line": {"color": "#000", "width": 0.5}}))
    else:
        fig.add_trace(go.Scattergl(
            x=xs, y=ys, mode="markers", name=t(lang, "rows", "样本"),
            marker={"color": np.asarray(y, dtype=float), "colorscale": "Viridis", "size": 7,
                    "showscale": True, "colorbar": {"title": t(lang, "target", "目标值")}}))
    fig.update_xaxes(range=[x_lo, x_hi])
    fig.update_yaxes(range=[y_lo, y_hi])
    return _layout(fig, None, 560, xaxis_title=_plain(names[fx], 48),
                   yaxis_title=_plain(names[fy], 48))


def bar_figure(labels, counts, title, xaxis_title="", lang="en"):
    """Counts per label (class balance, missing values per column)."""
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(x=[_plain(v, 24) for v in labels], y=list(counts),
                           marker_color=[class_colour(i) for i in range(len(labels))]))
    return _layout(fig, title, 380, xaxis_title=xaxis_title,
                   yaxis_title=t(lang, "rows", "样本数"))


# ---------------------------------------------------------------------------
# A node's rows, and the confusion matrix (numbers from dtree.views.nodepics)
# ---------------------------------------------------------------------------


def _node_title(node, feature, lang):
    return t(lang, f"node #{node}: its rows by {_plain(feature, 40)}",
                f"结点 #{node}：按 {_plain(feature, 40)} 分组的样本")


def _legend_below(fig, title, feature, lang):
    """A node figure's layout: the legend in rows under the axis, so that
    long class names leave the plot its width."""
    _layout(fig, title, 460, xaxis_title=_plain(feature, 48),
            yaxis_title=t(lang, "rows", "样本数"))
    fig.update_layout(legend={"orientation": "h", "x": 0, "y": -0.22, "yanchor": "top"},
                      margin={"b": 110})
    return fig


def _count(v) -> str:
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.2f}"


def node_histogram_figure(edges, counts, classes, feature, threshold, sides, node, lang="en"):
    """A numeric split's node: its rows per bin (``edges``) stacked by class
    (``counts``: classes × bins), the threshold as a dashed line, and each
    class's rows on either side (``sides``: 2 × classes) in the legend."""
    import plotly.graph_objects as go

    edges = np.asarray(edges, dtype=float)
    centres, widths = (edges[:-1] + edges[1:]) / 2, np.diff(edges)
    fig = go.Figure()
    for i, c in enumerate(classes):
        if not counts[i].any():
            continue
        fig.add_trace(go.Bar(
            x=centres, y=counts[i], width=widths, name=(
                f"{_plain(c, 24)} ({t(lang, 'left', '左')} {_count(sides[0, i])}, "
                f"{t(lang, 'right', '右')} {_count(sides[1, i])})"),
            marker={"color": class_colour(i), "line": {"color": "#fff", "width": 0.5}},
            hovertemplate="%{x:.4g}: %{y}<extra>" + _plain(c, 24) + "</extra>"))
    if np.isfinite(threshold):
        fig.add_vline(x=threshold, line={"color": "#000", "width": 3, "dash": "dash"},
                      annotation_text=f"≤ {threshold:.4g}", annotation_font_size=FONT_SIZE - 2)
    fig.update_layout(barmode="stack", bargap=0)
    return _legend_below(fig, _node_title(node, feature, lang), feature, lang)


def category_counts_figure(labels, counts, classes, feature, branches, node, lang="en"):
    """A categorical split's node: its rows per category (``labels``),
    stacked by class (``counts``: classes × categories); ``branches`` names
    the branch each category goes to ("" to name none)."""
    import plotly.graph_objects as go

    ticks = [_plain(v, 24) + (f" → {b}" if b else "") for v, b in zip(labels, branches)]
    slots = list(range(len(ticks)))
    fig = go.Figure()
    for i, c in enumerate(classes):
        if counts[i].any():
            fig.add_trace(go.Bar(x=slots, y=counts[i], name=_plain(c, 24),
                                 marker_color=class_colour(i),
                                 hovertemplate="%{y}<extra>" + _plain(c, 24) + "</extra>"))
    fig.update_layout(barmode="stack")
    fig.update_xaxes(tickvals=slots, ticktext=ticks)
    return _legend_below(fig, _node_title(node, feature, lang), feature, lang)


def node_scatter_figure(x, y, feature, spans, values, threshold, stat, node, lang="en"):
    """A regression node: its rows (feature ``x``, target ``y``) and each
    child's value (``values``) as a segment over its ``spans`` (numeric: (lo,
    hi) pairs; categorical: one category label each, drawn as a wide mark)."""
    import plotly.graph_objects as go

    fig = go.Figure(go.Scattergl(x=x, y=y, mode="markers", name=t(lang, "rows", "样本"),
                                 marker={"color": OKABE_ITO[4], "size": 6, "opacity": 0.6}))
    colour = OKABE_ITO[5]
    if threshold is not None:
        for k, ((lo, hi), v) in enumerate(zip(spans, values)):
            fig.add_trace(go.Scatter(
                x=[lo, hi], y=[v, v], mode="lines", showlegend=False,
                name=f"{stat} {v:.4g}", line={"color": colour, "width": 4}))
            fig.add_annotation(x=(lo + hi) / 2, y=v, text=f"{stat} {v:.4g}", showarrow=False,
                               yshift=14, font={"size": FONT_SIZE - 2, "color": colour})
        if np.isfinite(threshold):
            fig.add_vline(x=threshold, line={"color": "#000", "width": 2, "dash": "dash"},
                          annotation_text=f"≤ {threshold:.4g}",
                          annotation_font_size=FONT_SIZE - 2)
    else:
        fig.add_trace(go.Scatter(x=list(spans), y=list(values), mode="markers",
                                 name=t(lang, f"branch {stat}", f"分支{stat}"),
                                 marker={"symbol": "line-ew", "size": 44, "color": colour,
                                         "line": {"color": colour, "width": 4}}))
        fig.update_xaxes(type="category")
    return _layout(fig, _node_title(node, feature, lang), 420, xaxis_title=_plain(feature, 48),
                   yaxis_title=t(lang, "target", "目标值"))


def confusion_figure(matrix, classes, accuracy, which, step, lang="en"):
    """Counts of true class (rows) against predicted class (columns), with
    the accuracy in the title; ``which`` is "train" or "test"."""
    import plotly.graph_objects as go

    n = len(classes)
    names = [_plain(c, 20) for c in classes]
    slots = list(range(n))
    fig = go.Figure(go.Heatmap(
        z=matrix, x=slots, y=slots, colorscale="Blues", showscale=False, zmin=0,
        text=[[f"{v:,}" for v in row] for row in matrix],
        texttemplate="%{text}" if n <= 20 else None,
        textfont={"size": FONT_SIZE - 2 if n <= 8 else FONT_SIZE - 6},
        hovertemplate=t(lang, "true %{customdata[0]}, predicted %{customdata[1]}: %{z}",
                           "真实 %{customdata[0]}，预测 %{customdata[1]}：%{z}") + "<extra></extra>",
        customdata=[[[a, b] for b in names] for a in names]))
    fig.update_xaxes(tickvals=slots, ticktext=names, side="bottom")
    fig.update_yaxes(tickvals=slots, ticktext=names, autorange="reversed")
    rows = t(lang, "train", "训练集") if which == "train" else t(lang, "test", "测试集")
    score = "–" if not np.isfinite(accuracy) else f"{accuracy:.3f}"
    title = t(lang, f"{rows}, step {step}: accuracy {score}",
                 f"{rows}，第 {step} 步：准确率 {score}")
    return _layout(fig, title, 120 + 60 * min(n, 10) + 40,
                   xaxis_title=t(lang, "predicted class", "预测类别"),
                   yaxis_title=t(lang, "true class", "真实类别"))
