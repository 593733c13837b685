"""Files to take away: the tree at a step as DOT, SVG, PNG and text rules, the
whole growth as a JSON trace, and an offline HTML step-through.

Plain functions (no Streamlit).  Every builder takes the fitted estimator
and returns ``str`` or ``bytes``; SVG and PNG need Graphviz's ``dot``
program, found with :func:`dot_binary` at call time (so tests can hide it).

User text (feature names, category and class labels) is escaped by
``export_graphviz`` in DOT, kept as plain strings in JSON, and HTML-escaped
wherever Plotly draws it (Plotly renders a subset of HTML in labels).
"""

from __future__ import annotations

import html
import json
import math
import re
import shutil
import subprocess

import numpy as np

from .. import branch_labels, export_graphviz, export_text, node_fills
from .viz import JUST_SPLIT, MAX_DRAWN_NODES, NEXT_SPLIT, impurity_label, short, step_dot
from .viz import tree_layout
from .vocabulary import missing_side, missing_split, t

__all__ = [
    "GraphvizError", "GraphvizNotFound", "INSTALL_GRAPHVIZ", "MAX_HTML_NODES", "dot_binary",
    "growth_figure", "growth_figure_dict", "growth_html", "last_step_within", "png_dpi",
    "render_dot", "safe_stem", "trace", "trace_json", "tree_dot", "tree_rules",
]

#: The step-through stops at the last step whose tree has at most this many
#: nodes (a bigger tree is not readable on a slide, and every frame repeats
#: every node, so the file grows with nodes x steps).
MAX_HTML_NODES = MAX_DRAWN_NODES
#: Up to this many nodes, each node is a labelled box; above, a marker whose
#: details show on hover.
BOXED_NODES = 63
#: Seconds allowed to Graphviz for one drawing.
DOT_TIMEOUT = 60

INSTALL_GRAPHVIZ = {
    "Debian/Ubuntu": "sudo apt-get install graphviz",
    "macOS": "brew install graphviz",
    "Windows": "the installer from graphviz.org, or: conda install graphviz",
}

GRAPHVIZ_FORMATS = {"svg": "image/svg+xml", "png": "image/png"}


class GraphvizNotFound(RuntimeError):
    """Graphviz's ``dot`` program is not installed (or not on PATH)."""


class GraphvizError(RuntimeError):
    """``dot`` failed or took too long."""


# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------

_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
             *(f"lpt{i}" for i in range(10))}


def safe_stem(title, default="tree", max_length=60) -> str:
    """A file-name stem from user text: letters (any script), digits, ``-``
    and ``_`` only, so no path separators, dots or control characters."""
    stem = re.sub(r"[^\w-]+", "_", str(title), flags=re.UNICODE)
    stem = re.sub(r"_+", "_", stem).strip("_-")[:max_length].strip("_-")
    if not stem:
        return default
    if stem.lower() in _RESERVED:  # Windows device names
        stem = f"{stem}_"
    return stem


def _feature_names(model):
    return model.feature_names_


def _category_labels(model, feature):
    cats = getattr(model, "categories_", None)
    if cats is None or feature < 0 or cats[feature] is None:
        return None
    return [str(v) for v in cats[feature]]


def _classes(model):
    classes = getattr(model, "classes_", None)
    return None if classes is None else [c.item() if hasattr(c, "item") else c
                                         for c in classes]


# ---------------------------------------------------------------------------
# The tree at a step: DOT, SVG, PNG, text
# ---------------------------------------------------------------------------


def tree_dot(model, step: int, *, style: str = "app", lang: str = "en") -> str:
    """DOT source of ``model.tree_at(step)``.

    ``style="app"``: the drawing the app shows (:func:`dtree.views.viz.step_dot`:
    node ids, gains, the nodes split in this step and next outlined);
    ``style="plain"``: a clean ``export_graphviz`` of the tree.  Both get a
    white background, so that the SVG/PNG read well in any viewer.
    ``lang="zh"``: the boxes' fixed words in Chinese (user names unchanged).
    """
    if style == "app":
        dot = step_dot(model, step, lang=lang)[0]
    elif style == "plain":
        classes = _classes(model)
        dot = export_graphviz(
            model.tree_at(step), feature_names=_feature_names(model),
            class_names=None if classes is None else [str(c) for c in classes],
            categories=getattr(model, "categories_", None),
            impurity_name=impurity_label(model.criterion_, lang), node_ids=True,
            lang=lang)
    else:
        raise ValueError(f"style must be 'app' or 'plain'; got {style!r}")
    # the last value of a graph attribute wins (constant text, no user input)
    end = dot.rstrip().rfind("}")
    return dot[:end] + 'graph [bgcolor="white"] ;\n}\n'


def dot_binary():
    """Path of Graphviz's ``dot`` program, or None when it is not installed."""
    return shutil.which("dot")


def render_dot(dot: str, fmt: str = "svg", *, timeout: float = DOT_TIMEOUT,
               dpi: int | None = None) -> bytes:
    """Run ``dot -T<fmt>`` on ``dot``; raises :class:`GraphvizNotFound` when
    Graphviz is missing and :class:`GraphvizError` when it fails or takes
    longer than ``timeout`` seconds (the process is then killed)."""
    if fmt not in GRAPHVIZ_FORMATS:
        raise ValueError(f"fmt must be one of {sorted(GRAPHVIZ_FORMATS)}; got {fmt!r}")
    program = dot_binary()
    if program is None:
        ways = "; ".join(f"{os}: {cmd}" for os, cmd in INSTALL_GRAPHVIZ.items())
        raise GraphvizNotFound(f"Graphviz's `dot` program is not installed ({ways}).")
    cmd = [program, f"-T{fmt}"]
    if dpi is not None:
        cmd.append(f"-Gdpi={int(dpi)}")
    try:
        done = subprocess.run(cmd, input=dot.encode("utf-8"), capture_output=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise GraphvizError(f"Graphviz took longer than {timeout:g} s") from None
    except OSError as exc:
        raise GraphvizError(f"Graphviz could not run: {exc}") from None
    if done.returncode != 0 or not done.stdout:
        message = done.stderr.decode("utf-8", "replace").strip()[:500]
        raise GraphvizError(f"Graphviz failed (exit code {done.returncode}): {message}")
    return done.stdout


def png_dpi(node_count: int) -> int:
    """Sharper PNGs for small trees, and bitmaps of bounded size for big ones."""
    return 150 if node_count <= 31 else 96 if node_count <= 127 else 72


def tree_rules(model, step: int, *, decimals: int = 3) -> str:
    """``export_text`` of ``model.tree_at(step)`` with the model's feature
    names, categories and classes (multiway splits: one line per branch)."""
    tree = model.tree_at(step)
    classes = _classes(model)
    return export_text(
        tree, feature_names=_feature_names(model),
        class_names=None if classes is None else [str(c) for c in classes],
        categories=getattr(model, "categories_", None),
        max_depth=max(int(tree.max_depth), 1), decimals=decimals,
        show_weights=classes is not None)


# ---------------------------------------------------------------------------
# The growth trace, as JSON
# ---------------------------------------------------------------------------


def _number(x):
    """A JSON number, or None for NaN and infinities."""
    x = float(x)
    return x if math.isfinite(x) else None


def _plain(value):
    """``value`` as something ``json.dumps(allow_nan=False)`` accepts."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return _number(value)
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v) for v in value]
    if hasattr(value, "item"):
        return _plain(value.item())
    return str(value)


def _node_value(tree, node, classes):
    """(value, majority class) of a node: class fractions for classifiers,
    the mean for regressors (class None)."""
    value = tree.value[node, 0]
    if classes is None:
        return _number(value[0]), None
    return [_number(v) for v in value], _plain(classes[int(np.argmax(value))])


def _node_record(tree, i, model, classes):
    """One node of ``tree`` (ids are those of the grown tree)."""
    ids = tree.node_ids
    kids = tree.children_of(i)
    value, label = _node_value(tree, i, classes)
    record = {
        "id": int(ids[i]),
        "parent": None if tree.parent[i] < 0 else int(ids[tree.parent[i]]),
        "depth": int(tree.depth[i]),
        "is_leaf": not kids,
        "children": [int(ids[c]) for c in kids],
        "n_node_samples": int(tree.n_node_samples[i]),
        "weighted_n_node_samples": _number(tree.weighted_n_node_samples[i]),
        "impurity": _number(tree.impurity[i]),
        "value": value,
    }
    if classes is not None:
        record["class"] = label
    if kids:
        f = int(tree.feature[i])
        kind = {0: "numeric", 1: "subset", 2: "multiway"}[int(tree.kind[i])]
        record.update(feature=f, feature_name=_feature_names(model)[f], kind=kind,
                      threshold=_number(tree.threshold[i]) if kind == "numeric" else None,
                      branches=branch_labels(tree, i, _category_labels(model, f)))
    else:
        reason = tree.stop_reason[i]
        record["stop_reason"] = str(reason) if reason else None
    return record


def trace(model, *, dataset=None) -> dict:
    """The growth of ``model`` as plain data (see :func:`trace_json`)."""
    grown = model.growth_tree_
    classes = _classes(model)
    steps = []
    for s in model.steps_:
        children = []
        for child, branch in zip(s.children, s.branches):
            value, label = _node_value(grown, child, classes)
            entry = {
                "node": int(child), "branch": branch,
                "n_node_samples": int(grown.n_node_samples[child]),
                "weighted_n_node_samples": _number(grown.weighted_n_node_samples[child]),
                "impurity": _number(grown.impurity[child]), "value": value,
            }
            if classes is not None:
                entry["class"] = label
            children.append(entry)
        steps.append({
            "index": s.index, "node": s.node, "depth": s.depth, "feature": s.feature,
            "feature_name": s.feature_name, "kind": s.kind,
            "threshold": _number(s.threshold) if s.kind == "numeric" else None,
            "branches": list(s.branches), "n_node_samples": s.n_node_samples,
            "weighted_n_node_samples": _number(s.weighted_n_node_samples),
            "impurity": _number(s.impurity), "gain": _number(s.gain),
            "gain_ratio": _number(s.gain_ratio), "split_info": _number(s.split_info),
            "improvement": _number(s.improvement), "children": children,
        })
    final = model.tree_
    cats = getattr(model, "categories_", None)
    return {
        "format": "dtree growth trace",
        "version": 1,
        "dataset": None if dataset is None else str(dataset),
        "estimator": type(model).__name__,
        "task": "classification" if classes is not None else "regression",
        "criterion": model.criterion_,
        "growth_order": model.growth_,
        "parameters": _plain(model.get_params()),
        "feature_names": _feature_names(model),
        "categorical": _plain(getattr(model, "is_categorical_",
                                      [False] * model.n_features_in_)),
        "categories": [None if c is None else [str(v) for v in c]
                       for c in (cats if cats is not None else [None] * model.n_features_in_)],
        "classes": _plain(classes),
        "value_meaning": ("class fractions, in the order of 'classes'"
                          if classes is not None else "mean of the target"),
        "notes": ("Step k (index k - 1) turns the tree after k - 1 steps into the tree "
                  "after k steps; node ids are those of the fully grown tree. gain = "
                  "I(t) - sum_c N_c/N_t I(c); improvement = N_t/N gain; gain_ratio = "
                  "gain / split_info."),
        "n_steps": len(steps),
        "steps": steps,
        "tree": {
            "pruned": final is not grown,
            "node_count": int(final.node_count),
            "nodes": [_node_record(final, i, model, classes) for i in range(final.node_count)],
        },
    }


def trace_json(model, *, dataset=None, indent=1) -> str:
    """The growth trace as strict JSON (NaN and infinities become null):
    metadata (criterion, growth order, parameters, feature names, categories,
    classes, dataset), one record per step (the node split, its feature,
    kind, threshold or branch labels, samples, impurity, gain, gain ratio,
    improvement, and each child's branch, size, impurity and value), and the
    final tree's nodes."""
    return json.dumps(trace(model, dataset=dataset), ensure_ascii=False, indent=indent,
                      allow_nan=False)


# ---------------------------------------------------------------------------
# The offline step-through (Plotly, one frame per step)
# ---------------------------------------------------------------------------

_WORDS = {
    "en": {"samples": "samples", "class": "class", "value": "value", "leaf": "leaf",
           "step": "step ", "play": "▶ Play", "pause": "❚❚ Pause",
           "root": "Step 0 of {n}: the root, before any split",
           "split": "Step {k} of {n}: node #{node} split on {feature} ({gain} = {value})",
           "gain": "gain", "gain_ratio": "gain ratio", "info_gain": "information gain",
           "cut": " · showing the first {k} of {n} steps (trees up to {m} nodes)",
           "hover": "Hover over a node for its details.",
           "legend": "Vermillion border: the node split in this step; blue border: the "
                     "node split next."},
    "zh": {"samples": "样本数", "class": "类别", "value": "均值", "leaf": "叶结点",
           "step": "第 ", "play": "▶ 播放", "pause": "❚❚ 暂停",
           "root": "第 0 步（共 {n} 步）：根结点，尚未划分",
           "split": "第 {k} 步（共 {n} 步）：结点 #{node} 按 {feature} 划分（{gain} = {value}）",
           "gain": "增益", "gain_ratio": "信息增益比", "info_gain": "信息增益",
           "cut": " · 仅显示前 {k} 步（共 {n} 步；结点数不超过 {m}）",
           "hover": "将鼠标移到结点上可查看详情。",
           "legend": "朱红色边框：本步划分的结点；蓝色边框：下一步将划分的结点。"},
}
_FONT = 16
_BORDER = "#404040"


def _esc(text, n=24) -> str:
    """User text for Plotly: one line, shortened, with ``&``, ``<`` and ``>``
    escaped.  Quotes are left alone: without ``<`` they cannot start a tag,
    and Plotly would print ``&quot;`` as it is."""
    return html.escape(short(text, n), quote=False)


def _fmt(x) -> str:
    x = float(x)
    return "0" if abs(x) < 1e-12 else f"{x:.4g}"  # no "-0" or "1e-17" for zero


def _gain_word(model, words):
    if model.criterion_ == "gain_ratio":
        return "gain_ratio", words["gain_ratio"]
    if model.criterion_ in ("entropy", "log_loss"):
        return "gain", words["info_gain"]
    return "gain", words["gain"]


def last_step_within(model, max_nodes=MAX_HTML_NODES):
    """The largest k whose tree_at(k) has at most max_nodes nodes."""
    nodes, last = 1, 0
    for k, s in enumerate(model.steps_, start=1):
        nodes += len(s.children)
        if nodes > max_nodes:
            break
        last = k
    return last


def growth_figure_dict(model, *, lang="en", max_nodes=MAX_HTML_NODES) -> dict:
    """The step-through as a Plotly figure dict (frame k = ``tree_at(k)``).

    Each frame has two traces: the edges (lines) and the nodes (markers,
    ``customdata`` = node ids of the grown tree, hover text with the split,
    impurity, samples and class or mean).  Up to :data:`BOXED_NODES` nodes
    the labels are also drawn as boxes (annotations), filled like the DOT
    drawing (Okabe–Ito class colours); branch labels sit on the edges.
    The frames stop at the last step whose tree has at most ``max_nodes``
    nodes.  Node positions come from the last frame's tree (so nodes never
    move while stepping): top-down up to 8 leaves, left to right beyond.
    """
    words = _WORDS["zh" if lang == "zh" else "en"]
    steps = model.steps_
    n_steps = len(steps)
    last = last_step_within(model, max_nodes)
    trees = [model.tree_at(k) for k in range(last + 1)]
    final = trees[-1]
    classes = _classes(model)
    names = _feature_names(model)
    crit_word = impurity_label(model.criterion_, lang)
    gain_attr, gain_word = _gain_word(model, words)

    # positions (by id in the grown tree), fills and texts, from the last frame
    slot, depth = tree_layout(final)
    depth = -depth
    n_leaves = int(final.n_leaves)
    top_down = n_leaves <= 8
    boxed = final.node_count <= BOXED_NODES
    fills = node_fills(final, classifier=classes is not None)
    pos, fill = {}, {}
    for i, nid in enumerate(final.node_ids.tolist()):
        x, y = (slot[i], -depth[i]) if top_down else (depth[i], -slot[i])
        pos[nid] = (round(float(x), 3), round(float(y), 3))
        fill[nid] = fills[i]
    # texts by node id: the split line (split nodes of the last frame) and the rest
    split_line, info, edge_text = {}, {}, {}
    for i, nid in enumerate(final.node_ids.tolist()):
        kids = final.children_of(i)
        if kids:
            f = int(final.feature[i])
            name = _esc(names[f])
            if final.kind[i] == 0 and final.threshold[i] == math.inf:  # known vs missing
                split_line[nid] = missing_split(name, lang, 0)
                labels = [missing_side(0, lang), missing_side(1, lang)]
            elif final.kind[i] == 0:
                cut = _fmt(final.threshold[i])
                split_line[nid] = f"{name} ≤ {cut}"
                labels = [f"≤ {cut}", f"> {cut}"]
            else:  # as export_graphviz: the branches name the categories
                split_line[nid] = f"{name} = ?"
                labels = branch_labels(final, i, _category_labels(model, f))
            for kid, text in zip(kids, labels):
                edge_text[int(final.node_ids[kid])] = _esc(text, 20)
        value = final.value[i, 0]
        what = (f"{words['value']} = {_fmt(value[0])}" if classes is None
                else f"{words['class']} = {_esc(classes[int(np.argmax(value))])}")
        info[nid] = (f"{crit_word} = {_fmt(final.impurity[i])}<br>"
                     f"{words['samples']} = {int(final.n_node_samples[i])}<br>{what}")

    def node_text(nid, split):
        """The label of a node in a frame where ``split`` holds the split nodes."""
        first = split_line[nid] if nid in split else words["leaf"]
        return f"{first}<br>{info[nid]}"

    def frame(k):
        tree = trees[k]
        ids = tree.node_ids.tolist()
        split = {s.node for s in steps[:k]}
        just = steps[k - 1].node if k > 0 else None
        nxt = steps[k].node if k < n_steps else None
        ex, ey = [], []
        for i, nid in enumerate(ids):
            for c in tree.children_of(i):
                cid = ids[c]
                ex += [pos[nid][0], pos[cid][0], None]
                ey += [pos[nid][1], pos[cid][1], None]
        border = [JUST_SPLIT if nid == just else NEXT_SPLIT if nid == nxt else _BORDER
                  for nid in ids]
        width = [4 if nid in (just, nxt) else 1 for nid in ids]
        text = [node_text(nid, split) for nid in ids]
        data = [
            {"type": "scatter", "x": ex, "y": ey, "mode": "lines", "hoverinfo": "skip",
             "line": {"color": "#888888", "width": 2}, "showlegend": False},
            {"type": "scatter", "x": [pos[n][0] for n in ids], "y": [pos[n][1] for n in ids],
             "mode": "markers", "customdata": ids, "showlegend": False,
             "hovertext": [f"<b>#{n}</b><br>{line}" for n, line in zip(ids, text)],
             "hoverinfo": "text",
             "marker": {"size": 12 if boxed else 18, "color": [fill[n] for n in ids],
                        "line": {"color": border, "width": width}}},
        ]
        annotations = []
        if boxed:
            for nid, t, b, w in zip(ids, text, border, width):
                annotations.append({
                    "x": pos[nid][0], "y": pos[nid][1], "text": f"<b>#{nid}</b> " + t,
                    "showarrow": False, "bgcolor": fill[nid], "bordercolor": b,
                    "borderwidth": 1.5 if w == 1 else 4, "borderpad": 5,
                    "font": {"size": _FONT, "color": "#000000"}, "align": "center"})
            for i, nid in enumerate(ids):
                for c in tree.children_of(i):
                    cid = ids[c]
                    annotations.append({
                        "x": (pos[nid][0] + pos[cid][0]) / 2,
                        "y": (pos[nid][1] + pos[cid][1]) / 2,
                        "text": edge_text[cid], "showarrow": False,
                        "bgcolor": "#ffffff", "font": {"size": _FONT, "color": "#333333"}})
        if k == 0:
            heading = words["root"].format(n=n_steps)
        else:
            s = steps[k - 1]
            heading = words["split"].format(
                k=k, n=n_steps, node=s.node, feature=_esc(s.feature_name, 40), gain=gain_word,
                value=_fmt(getattr(s, gain_attr)))
        return {"name": str(k), "data": data,
                "layout": {"title": {"text": heading}, "annotations": annotations}}

    frames = [frame(k) for k in range(last + 1)]
    levels = int(depth.max()) + 1 if len(depth) else 1
    top_margin, bottom = 170, 30
    if top_down:
        slots = max(n_leaves, 1)
        width = max(1000, (260 if boxed else 40) * slots + 80)
        height = top_margin + bottom + (210 if boxed else 90) * levels
        xr = [-0.6, slots - 0.4]
        yr = [-(levels - 1) - 0.55, 0.55]
    else:
        width = max(1000, (330 if boxed else 160) * levels + 80)
        height = top_margin + bottom + (120 if boxed else 26) * n_leaves
        xr = [-0.55, levels - 0.45]
        yr = [-(n_leaves - 1) - 0.7, 0.7]
    play = {"frame": {"duration": 1500, "redraw": True}, "fromcurrent": True,
            "transition": {"duration": 0}, "mode": "immediate"}
    pause = {"frame": {"duration": 0, "redraw": True}, "transition": {"duration": 0},
             "mode": "immediate"}
    plot_width = width - 40  # the margins
    controls = 250  # px of the play/pause buttons, left of the slider
    note = words["cut"].format(k=last, n=n_steps, m=max_nodes) if last < n_steps else ""
    layout = {
        "width": width, "height": height, "autosize": False,
        "font": {"size": 18, "color": "#000000"},
        "title": frames[0]["layout"]["title"] | {"x": 0.01, "xanchor": "left",
                                                  "y": 0.99, "yanchor": "top",
                                                  "yref": "container",
                                                  "font": {"size": 22}},
        "annotations": frames[0]["layout"]["annotations"],
        "margin": {"l": 20, "r": 20, "t": top_margin, "b": bottom},
        "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff",
        "hoverlabel": {"font": {"size": 18}, "bgcolor": "#ffffff"},
        "xaxis": {"visible": False, "range": xr, "fixedrange": True},
        "yaxis": {"visible": False, "range": yr, "fixedrange": True},
        "dragmode": False,
        "updatemenus": [{
            "type": "buttons", "direction": "left", "showactive": False,
            "x": 0.0, "xanchor": "left", "y": 1.0, "yanchor": "bottom",
            "pad": {"b": 22, "t": 0}, "font": {"size": 18},
            "buttons": [{"label": words["play"], "method": "animate", "args": [None, play]},
                        {"label": words["pause"], "method": "animate",
                         "args": [[None], pause]}]}],
        "sliders": [{
            "active": 0, "x": controls / plot_width, "xanchor": "left",
            "len": min(900, plot_width - controls) / plot_width,
            "y": 1.0, "yanchor": "bottom", "pad": {"b": 10, "t": 0},
            "currentvalue": {"prefix": words["step"], "font": {"size": 18},
                             "suffix": t(lang, "", " 步")},
            "font": {"size": 16},
            "steps": [{"label": f["name"], "method": "animate",
                       "args": [[f["name"]], pause]} for f in frames]}],
        "meta": {"note": note},
    }
    return {"data": frames[0]["data"], "layout": layout, "frames": frames}


def growth_figure(model, **kwargs):
    """:func:`growth_figure_dict` as a ``plotly.graph_objects.Figure``."""
    import plotly.graph_objects as go

    return go.Figure(growth_figure_dict(model, **kwargs))


def growth_html(model, *, title="tree", lang="en", max_nodes=MAX_HTML_NODES) -> str:
    """A self-contained HTML page of the step-through: plotly.js is embedded
    (no CDN, no network request), with a heading, what the colours mean and
    the figure (slider and play/pause buttons)."""
    import plotly.io as pio

    fig = growth_figure_dict(model, lang=lang, max_nodes=max_nodes)
    words = _WORDS["zh" if lang == "zh" else "en"]
    body = pio.to_html(fig, include_plotlyjs=True, full_html=False, validate=False,
                       auto_play=False, default_width=f"{fig['layout']['width']}px",
                       default_height=f"{fig['layout']['height']}px",
                       config={"displaylogo": False, "responsive": False,
                               "scrollZoom": False})
    n_nodes = len(fig["frames"][-1]["data"][1]["customdata"])
    facts = (f"{type(model).__name__} · {model.criterion_} · {model.growth_} · "
             + t(lang, f"{len(model.steps_)} steps · {n_nodes} nodes",
                 f"{len(model.steps_)} 步 · {n_nodes} 个结点"))
    extra = [words["legend"]]
    if n_nodes > BOXED_NODES:
        extra.append(words["hover"])
    note = fig["layout"]["meta"]["note"].lstrip(" ·")
    if note:
        extra.append(note)
    title_text = html.escape(str(title), quote=True)
    lines = "".join(f"<p>{html.escape(line)}</p>" for line in [facts, *extra])
    return ("<!DOCTYPE html>\n<html lang=\"" + ("zh" if lang == "zh" else "en") + "\">\n"
            "<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{title_text}</title>\n"
            "<style>body{font-family:system-ui,sans-serif;font-size:20px;margin:16px;}"
            "h1{font-size:28px;margin:0 0 4px 0;}p{margin:2px 0;}</style>\n</head>\n<body>\n"
            f"<h1>{title_text}</h1>\n{lines}\n{body}\n</body>\n</html>\n")
