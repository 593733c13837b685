"""Figures, tables and formulas for the Prune page (post-pruning, shown).

Plain builders: each takes a fitted estimator and the results of dtree's
pruning functions and returns a DOT string, a Plotly figure, a DataFrame
or a LaTeX string; nothing here draws or imports Streamlit.  Text meant for
the reader comes in English or Chinese (``lang="en"`` / ``"zh"``).

Nodes are named everywhere by their id in the tree the sequence started from
(``tree.node_ids``), so a node keeps its number in the full tree, in a pruned
tree and in every table.

User text (feature and class names, categories) reaches DOT only through
:func:`dtree.export_graphviz`, which escapes it; the statements added
here to grey out removed nodes contain only node numbers and colours.  The
Plotly charts contain no user text at all.
"""

from __future__ import annotations

import math
import re
import threading

import numpy as np
import pandas as pd

from .vocabulary import t
from .. import OKABE_ITO, distinct_subtrees
from .explain import SYMBOL, leaves_under
from .fitting import fitting_direction
from .focus import PRESENTER_WINDOW, above_tree_css, focus_folds, presenter_window
from .viz import (FONT_SIZE, JUST_SPLIT, _layout, drawn_dot, line_mode,
                  tree_font_size)

#: Removed nodes and edges in the full tree: a light fill, grey text and border.
GREY_FILL = "#EEEEEE"
GREY_TEXT = "#999999"
GREY_LINE = "#BBBBBB"
#: Colours of the error curves (Okabe-Ito: blue, vermillion, bluish green).
#: The leaves chart uses bluish green too (a chart of its own).
TRAIN_COLOUR = OKABE_ITO[4]
CV_COLOUR = OKABE_ITO[5]
TEST_COLOUR = OKABE_ITO[2]
#: At most this many trees are labelled along the error chart's axes.
MAX_TICKS = 20
#: Presenter mode at 1280x720: how far below the window's top the
#: cost-complexity view's trees start and the margin left under them above
#: the bottom strip, in rem (22 px); ``CCP_ABOVE_CSS``, app.py's
#: ``--dtree-above-tree`` for their boxes; the box of one tree drawn alone
#: (``ONE_TREE_WINDOW``) or of each of two side by side, in CSS pixels.
PRESENTER_ABOVE_REM, PRESENTER_UNDER_REM = 10.6, 0.6
CCP_ABOVE_CSS = above_tree_css(PRESENTER_ABOVE_REM, under_rem=PRESENTER_UNDER_REM)
ONE_TREE_WINDOW = presenter_window(PRESENTER_ABOVE_REM, under_rem=PRESENTER_UNDER_REM)
TWO_TREES_WINDOW = presenter_window(PRESENTER_ABOVE_REM, columns=2,
                                    under_rem=PRESENTER_UNDER_REM)


# ---------------------------------------------------------------------------
# numbers
# ---------------------------------------------------------------------------

def fmt(x, digits=4) -> str:
    """``x`` to ``digits`` significant digits, as plain text."""
    x = float(x)
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return "∞" if x > 0 else ("−∞" if x < 0 else "NaN")
    return f"{x:.{digits}g}"


def tex(x, digits=4) -> str:
    """``x`` to ``digits`` significant digits, as LaTeX (10^k for tiny/huge)."""
    x = float(x)
    if not math.isfinite(x):
        return r"\infty" if x > 0 else (r"-\infty" if x < 0 else r"\mathrm{NaN}")
    if x == round(x) and abs(x) < 1e15:
        return str(int(round(x)))
    text = f"{x:.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return rf"{mantissa}\times 10^{{{int(exponent)}}}"
    return text


def _count(x) -> str:
    """A sample count: whole numbers as such, weighted counts with decimals."""
    x = float(x)
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"{x:.2f}"


def subtree_alphas(seq):
    """The distinct pruned trees ``ccp_alpha`` can give: their alphas (increasing,
    alpha 0 first) and how many weakest-link steps each makes."""
    return distinct_subtrees(seq)


def alpha_labels(alphas, digits=4):
    """Distinct labels for alphas: ``digits`` significant digits, up to two
    more where that tells two alphas apart, else a counter (alphas that differ
    only by rounding noise are still different pruned trees)."""
    alphas = [float(a) for a in alphas]
    for d in range(digits, digits + 3):
        labels = [fmt(a, d) for a in alphas]
        if len(set(labels)) == len(labels):
            return labels
    seen = {}
    out = []
    for label in (fmt(a, digits) for a in alphas):
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out


def cv_choices(cv, alphas):
    """(cv, alpha_1se, alpha_min): the 1-SE rule's α and the minimum CV
    error's, when the cross-validation table ``cv`` lists the same pruned
    trees as ``alphas`` (its full tree is the same tree, refitted); else
    (None, None, None), and the page offers no CV choice."""
    if cv is None or not np.array_equal(cv["alpha"].to_numpy(), alphas):
        return None, None, None
    best, _, chosen = one_se_rule(cv)
    return cv, alphas[chosen], alphas[best]


def start_alpha(alphas, current=None, suggested=None, asked=None, labels=None):
    """The α the page shows: ``current`` (the session's) if it is one of
    ``alphas``; else the link's (``asked``, one of the ``labels`` {α: text});
    else ``suggested`` (the 1-SE choice) or, without one, no pruning."""
    if current in alphas:
        return current
    start = alphas[0] if suggested is None else suggested
    if asked is not None:
        start = next((a for a in alphas if (labels or {}).get(a) == asked), start)
    return start


def tree_direction(choice, model, tree, fit_window=False, lang="en", aspect=2.2,
                   **dot_options):
    """"TB" or "LR" for the Grow page's layout ``choice`` ("auto", "top
    down", "left to right").  Auto: left to right for a tree with more than 8
    leaves, or with ``fit_window`` (presenter mode) the layout that draws
    ``tree`` largest in a window ``aspect`` times as wide as high
    (:func:`viz.fitting_direction` of its DOT, drawn with ``dot_options``)."""
    if choice != "auto":
        return "LR" if choice == "left to right" else "TB"
    if fit_window:
        return fitting_direction(tree_dot(model, tree, lang=lang, **dot_options)[0], aspect)
    return "LR" if model.tree_.n_leaves > 8 else "TB"


# ---------------------------------------------------------------------------
# the trees, as DOT
# ---------------------------------------------------------------------------

def tree_dot(model, tree, *, g_by_id=None, highlight=None, lines_by_id=None, lang="en",
             rankdir="TB", fontsize=None, compact=False, **folding):
    """DOT of ``tree`` (a tree of ``model``: pruned, or a step of a sequence).

    ``g_by_id`` {node id: g(t)} adds a ``g(t) = ...`` line to internal
    nodes; ``highlight`` {node id: colour} outlines nodes; ``lines_by_id``
    {node id: [text]} adds lines.  Leaves that pruning made are marked
    "(pruned)".  ``folding``: brief boxes and subtrees folded to fit a
    window (see :func:`drawn`).  Returns (dot, info) with
    ``info["depth_cut"]`` the depth the drawing stops at for a very large
    tree (else None) and ``info["folded"]`` the ids of the folded nodes.
    """
    index = {int(nid): i for i, nid in enumerate(tree.node_ids)}
    leaf = tree.is_leaf()
    lines = {}
    for nid, i in index.items():
        extra = list((lines_by_id or {}).get(nid, ()))
        if not leaf[i] and g_by_id is not None and np.isfinite(g_by_id.get(nid, np.nan)):
            extra.insert(0, f"g(t) = {fmt(g_by_id[nid])}")
        if leaf[i] and tree.stop_reason[i] == "pruned":
            extra.append(t(lang, "(pruned)", "（已剪枝）"))
        if extra:
            lines[i] = extra
    marks = {index[nid]: colour for nid, colour in (highlight or {}).items() if nid in index}
    return drawn(model, tree, lines, marks, rankdir, fontsize, lang, compact, **folding)


def drawn(model, tree, lines, marks, rankdir, fontsize, lang="en", compact=False, *,
          details=True, focus=False, window=PRESENTER_WINDOW, keep_open=(), keep_drawn=()):
    """(dot, info) of ``tree`` as :func:`viz.drawn_dot` draws it, with the
    node indices' extra ``lines`` and border colours ``marks``; ``compact``:
    boxes a line shorter, for a projector.  ``details=False``: brief boxes
    (the split or class, the class counts, and the extra lines).
    ``focus``: subtrees folded into stubs, farthest from the nodes
    ``keep_open`` (ids: drawn with their children) and ``keep_drawn`` (ids)
    first, until the text is readable in ``window`` (CSS pixels;
    :func:`dtree.views.focus.focus_folds`).  ``info``: the depth the
    drawing is cut at (``"depth_cut"``) and the folded ids (``"folded"``)."""
    fontsize = tree_font_size(model.tree_.n_leaves) if fontsize is None else fontsize

    def dot_for(folded):
        return drawn_dot(model, tree, highlight=marks, label_lines=lines, rankdir=rankdir,
                         lang=lang, fontsize=fontsize, compact=compact, details=details,
                         folded=sorted(folded))

    folded = ()
    if focus:
        index = {int(nid): i for i, nid in enumerate(tree.node_ids)}
        folded = focus_folds(tree, lambda f: dot_for(f)[0],
                             keep_open=[index[n] for n in keep_open if n in index],
                             keep_drawn=[index[n] for n in keep_drawn if n in index],
                             window=window).folded
    dot, cut = dot_for(folded)
    return dot, {"depth_cut": cut, "folded": sorted(int(tree.node_ids[i]) for i in folded)}


_EDGE = re.compile(r"^(\d+) -> (\d+)(?: \[(.*)\])? ;$")
_NODE = re.compile(r"^(\d+) \[")


def greyed_dot(model, tree, keep, *, collapsed=(), g_by_id=None, highlight=None, lang="en",
               rankdir="TB", fontsize=None, compact=False, **folding):
    """DOT of the whole ``tree`` in which the nodes outside ``keep`` (a boolean
    mask over its nodes) are greyed out with their edges; ``collapsed`` (node
    ids) are outlined in vermillion: they are the leaves of the pruned tree
    that were internal nodes; ``highlight`` {node id: colour} outlines others.
    ``folding``: brief boxes and subtrees folded to fit a window (see
    :func:`drawn`); a folded subtree of removed nodes is a greyed stub.

    The DOT names nodes by their index in ``tree``.  Returns (dot, info).
    """
    keep = np.asarray(keep, dtype=bool)
    index = {int(nid): i for i, nid in enumerate(tree.node_ids)}
    leaf = tree.is_leaf()
    lines = {}
    if g_by_id is not None:
        for nid, i in index.items():
            if not leaf[i] and keep[i] and np.isfinite(g_by_id.get(nid, np.nan)):
                lines[i] = [f"g(t) = {fmt(g_by_id[nid])}"]
    for nid in collapsed:
        lines.setdefault(index[nid], []).append(t(lang, "(pruned here)", "（在此剪枝）"))
    marks = {index[nid]: JUST_SPLIT for nid in collapsed}
    marks.update({index[nid]: colour for nid, colour in (highlight or {}).items()})
    dot, info = drawn(model, tree, lines, marks, rankdir, fontsize, lang, compact, **folding)
    return grey_out(dot, np.flatnonzero(~keep)), info


def grey_out(dot, nodes):
    """``dot`` with the given node indices (and the edges into them) greyed.

    A node statement repeated later in the graph adds its attributes to the
    node, so each drawn node is restyled by one statement before the closing
    brace.  Edges are restyled in place (repeating an edge statement would
    draw a second edge).  Nodes the drawing left out (a cut large tree) are
    skipped, so that no stray node appears.
    """
    nodes = {int(n) for n in nodes}
    out, drawn = [], set()
    for line in dot.splitlines():
        node = _NODE.match(line)
        if node:
            drawn.add(int(node.group(1)))
        edge = _EDGE.match(line)
        if edge and int(edge.group(2)) in nodes:
            attrs = [a for a in [edge.group(3)] if a]
            attrs.append(f'color="{GREY_LINE}", fontcolor="{GREY_TEXT}", style=dashed')
            line = f"{edge.group(1)} -> {edge.group(2)} [{', '.join(attrs)}] ;"
        out.append(line)
    if out[-1] != "}":
        raise ValueError("expected DOT ending with a closing brace")
    style = f'[fillcolor="{GREY_FILL}", fontcolor="{GREY_TEXT}", color="{GREY_LINE}"]'
    out[-1:] = [f"{n} {style} ;" for n in sorted(nodes & drawn)] + ["}"]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# the cost-complexity path, as Plotly charts
# ---------------------------------------------------------------------------

def _big(fig, height, title=None, **axes):
    """viz's layout, with tick and axis-title sizes set explicitly (the
    Streamlit theme would otherwise shrink them)."""
    _layout(fig, title, height, **axes)
    for update in (fig.update_xaxes, fig.update_yaxes):
        update(tickfont={"size": FONT_SIZE - 2}, title_font={"size": FONT_SIZE})
    return fig


def _alpha_line(fig, alpha):
    if alpha is not None:
        fig.add_vline(x=float(alpha), line={"color": "#000", "width": 2, "dash": "dot"},
                      annotation_text=f"α = {fmt(alpha)}", annotation_font_size=FONT_SIZE - 2)


def path_figure(seq, alpha=None, lang="en", height=400):
    """Total leaf impurity R(T) of the pruned tree against alpha (a step
    function: the path of scikit-learn's ``cost_complexity_pruning_path``)."""
    import plotly.graph_objects as go

    fig = go.Figure(go.Scatter(
        x=seq.ccp_alphas, y=seq.impurities, mode=line_mode(len(seq.ccp_alphas)), line_shape="hv",
        line={"color": TRAIN_COLOUR, "width": 3}, marker={"size": 8},
        name="R(T)", hovertemplate="α = %{x:.4g}<br>R(T) = %{y:.4g}<extra></extra>"))
    _alpha_line(fig, alpha)
    return _big(fig, height, t(lang, "Total leaf impurity R(T) against α",
                               "叶结点总不纯度 R(T) 随 α 的变化"),
                   xaxis_title=t(lang, "effective α", "有效 α"),
                   yaxis_title=t(lang, "R(T) (leaf impurity, weighted)",
                                 "R(T)（叶结点加权不纯度之和）"))


def leaves_figure(seq, alpha=None, lang="en", height=400):
    """Number of leaves of the pruned tree against alpha (a step function)."""
    import plotly.graph_objects as go

    fig = go.Figure(go.Scatter(
        x=seq.ccp_alphas, y=seq.n_leaves, mode=line_mode(len(seq.ccp_alphas)), line_shape="hv",
        line={"color": OKABE_ITO[2], "width": 3}, marker={"size": 8}, name="|T|",
        hovertemplate="α = %{x:.4g}<br>|T| = %{y}<extra></extra>"))
    _alpha_line(fig, alpha)
    fig.update_yaxes(rangemode="tozero")
    return _big(fig, height, t(lang, "Number of leaves |T| against α", "叶结点数 |T| 随 α 的变化"),
                   xaxis_title=t(lang, "effective α", "有效 α"),
                   yaxis_title=t(lang, "leaves |T|", "叶结点数 |T|"))


def error_frame(cv, holdout=None):
    """The numbers of the error chart, one row per distinct pruned tree T_k:
    alpha, n_leaves, train_error, cv_error, cv_se, test_error (NaN without a
    test set), is_min, is_1se."""
    frame = cv[["alpha", "n_leaves", "train_error", "cv_error", "cv_se", "is_min",
                "is_1se"]].copy()
    frame["test_error"] = np.nan
    if holdout is not None and len(holdout):
        test = dict(zip(holdout["alpha"].to_numpy(), holdout["holdout_error"].to_numpy()))
        frame["test_error"] = [test.get(a, np.nan) for a in frame["alpha"].to_numpy()]
    return frame[["alpha", "n_leaves", "train_error", "cv_error", "cv_se", "test_error",
                  "is_min", "is_1se"]].reset_index(drop=True)


def one_se_rule(cv):
    """(index of the minimum, min CV error + its SE, index of the 1-SE choice),
    read from a ``ccp_cross_validate`` table."""
    best = int(np.flatnonzero(cv["is_min"].to_numpy())[0])
    chosen = int(np.flatnonzero(cv["is_1se"].to_numpy())[0])
    limit = float(cv["cv_error"].iloc[best] + cv["cv_se"].iloc[best])
    return best, limit, chosen


def error_figure(cv, holdout=None, alpha=None, lang="en", regression=False, height=560):
    """Train, test and cross-validated error of every distinct pruned tree,
    like rpart's plotcp: the trees are equally spaced (labelled by alpha
    below and by their number of leaves above), the CV error has ±1 SE bars,
    a dashed line marks min CV error + 1 SE, and the 1-SE choice (the
    smallest tree under that line) is starred."""
    import plotly.graph_objects as go

    data = error_frame(cv, holdout)
    x = np.arange(len(data))
    metric = t(lang, "mean squared error", "均方误差") if regression else \
        t(lang, "misclassification rate", "误分类率")
    best, limit, chosen = one_se_rule(cv)
    mode = line_mode(len(data))
    fig = go.Figure()
    hover = "T_%{x}: %{y:.4g}<extra>%{fullData.name}</extra>"
    fig.add_trace(go.Scatter(x=x, y=data["train_error"], mode=mode,
                             name=t(lang, "training", "训练集"), hovertemplate=hover,
                             line={"color": TRAIN_COLOUR, "width": 3}, marker={"size": 8}))
    fig.add_trace(go.Scatter(
        x=x, y=data["cv_error"], mode=mode,
        name=t(lang, f"{cv.attrs.get('cv', '')}-fold CV ± 1 SE",
               f"{cv.attrs.get('cv', '')} 折交叉验证 ± 1 SE"),
        error_y={"type": "data", "array": data["cv_se"], "visible": True, "thickness": 2,
                 "width": 6},
        hovertemplate=hover, line={"color": CV_COLOUR, "width": 3}, marker={"size": 9}))
    if data["test_error"].notna().any():
        fig.add_trace(go.Scatter(x=x, y=data["test_error"], mode=mode,
                                 name=t(lang, "test", "测试集"), hovertemplate=hover,
                                 line={"color": TEST_COLOUR, "width": 3, "dash": "dot"},
                                 marker={"size": 8, "symbol": "square"}))
    # the 1-SE line as a trace, so that the legend names it (a text label on
    # the chart would sit on some curve or other)
    fig.add_trace(go.Scatter(x=[-0.5, len(data) - 0.5], y=[limit, limit], mode="lines",
                             name=t(lang, "min CV error + 1 SE", "最小 CV 误差 + 1 SE"),
                             line={"color": CV_COLOUR, "width": 2, "dash": "dash"},
                             hovertemplate="%{y:.4g}<extra>%{fullData.name}</extra>"))
    fig.add_trace(go.Scatter(x=[chosen], y=[data["cv_error"].iloc[chosen]], mode="markers",
                             name=t(lang, "1-SE choice", "1-SE 规则的选择"),
                             hovertemplate=hover,
                             marker={"size": 22, "symbol": "star", "color": "#F0E442",
                                     "line": {"color": "#000", "width": 1.5}}))
    fig.add_trace(go.Scatter(x=[best], y=[data["cv_error"].iloc[best]], mode="markers",
                             name=t(lang, "minimum CV error", "最小 CV 误差"),
                             hovertemplate=hover,
                             marker={"size": 16, "symbol": "diamond-open", "color": "#000",
                                     "line": {"width": 2.5}}))
    if alpha is not None:
        at = int(np.searchsorted(data["alpha"].to_numpy(), float(alpha), side="right")) - 1
        fig.add_vline(x=max(at, 0), line={"color": "#000", "width": 2, "dash": "dot"})
    labels = alpha_labels(data["alpha"])
    # the number of leaves on a second x axis along the top (an invisible trace
    # makes Plotly draw it; its ticks and range are set below, so two points do)
    ends = [0, len(data) - 1]
    fig.add_trace(go.Scatter(x=ends, y=data["cv_error"].iloc[ends], xaxis="x2", mode="markers",
                             marker={"opacity": 0}, hoverinfo="skip", showlegend=False))
    span = [-0.5, len(data) - 0.5]
    _big(fig, height, t(lang, "Error of each pruned tree T_k", "每棵剪枝子树 T_k 的误差"),
         xaxis_title=t(lang, "α (each point: a pruned tree T_k)",
                                              "α（每个点是一棵剪枝子树 T_k）"),
            yaxis_title=metric)
    every = -(-len(data) // MAX_TICKS)  # label at most MAX_TICKS trees
    ticks = x[::every]
    fig.update_layout(
        xaxis={"tickmode": "array", "tickvals": ticks, "ticktext": labels[::every],
               "range": span, "tickangle": -45 if len(ticks) > 8 else 0},
        xaxis2={"overlaying": "x", "side": "top", "tickmode": "array", "tickvals": ticks,
                "ticktext": [str(v) for v in data["n_leaves"][::every]], "range": span,
                "title": {"text": t(lang, "leaves |T|", "叶结点数 |T|"),
                          "font": {"size": FONT_SIZE}},
                "tickfont": {"size": FONT_SIZE - 2}, "showgrid": False},
        title={"y": 0.98, "yanchor": "top"},
        margin={"l": 80, "r": 20, "t": 130, "b": 190 if len(ticks) > 8 else 150},
        # the legend along the bottom edge, below the (maybe slanted) alphas
        legend={"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom",
                "x": 0})
    fig.update_yaxes(rangemode="tozero")
    return fig


# ---------------------------------------------------------------------------
# tables
# ---------------------------------------------------------------------------

def node_table(table, lang="en"):
    """The internal nodes of a ``cost_complexity_table``: node id, R(t),
    R(T_t), |T_t|, g(t) and the weakest link (the next to collapse)."""
    internal = table[~table["is_leaf"]]
    return pd.DataFrame({
        t(lang, "node", "结点"): internal["node_id"].to_numpy(),
        "R(t)": internal["R_t"].to_numpy(),
        "R(T_t)": internal["R_Tt"].to_numpy(),
        "|T_t|": internal["n_leaves"].to_numpy(),
        "g(t)": internal["g"].to_numpy(),
        t(lang, "weakest link", "最弱环节"): internal["weakest_link"].to_numpy(),
    })


def _decision(pruned, lang):
    return [t(lang, "prune", "剪枝") if p else t(lang, "keep", "保留") for p in pruned]


def rep_table(record, regression=False, lang="en"):
    """Reduced-error pruning's decisions, one row per internal node in the
    order they were made (bottom-up)."""
    what = t(lang, "squared error", "平方误差") if regression else t(lang, "errors", "误判数")
    return pd.DataFrame({
        t(lang, "node", "结点"): record["node_id"].to_numpy(),
        t(lang, "validation rows", "验证样本数"): record["n_val"].to_numpy(),
        "|T_t|": record["n_leaves"].to_numpy(),
        t(lang, f"{what} as subtree", f"子树的{what}"): record["errors_before"].to_numpy(),
        t(lang, f"{what} as leaf", f"作为叶结点的{what}"): record["errors_after"].to_numpy(),
        t(lang, "decision", "决定"): _decision(record["pruned"], lang),
    })


def pep_table(record, lang="en"):
    """Pessimistic error pruning's numbers, one row per node it looked at
    (top-down; it does not look below a node it prunes): N(t), |T_t|,
    E(T_t) = (errors of the leaves) + 0.5 |T_t|, its SE, E(T_t) + SE and
    E(t) = e(t) + 0.5 (the node as a leaf)."""
    return pd.DataFrame({
        t(lang, "node", "结点"): record["node_id"].to_numpy(),
        "N(t)": record["N"].to_numpy(),
        "|T_t|": record["n_leaves"].to_numpy(),
        "E(T_t)": record["E_T"].to_numpy(),
        "SE": record["std_T"].to_numpy(),
        "E(T_t)+SE": record["upper"].to_numpy(),
        "E(t)": record["E_leaf"].to_numpy(),
        t(lang, "decision", "决定"): _decision(record["pruned"], lang),
    })


_EBP_DECISIONS = {"keep": ("keep", "保留"), "prune": ("prune", "剪枝"),
                  "raise": ("raise branch", "提升分支"), "leaf": ("leaf", "叶结点")}


def ebp_decisions(record):
    """The rows of an error-based pruning record that decide a split (its
    leaves' rows left out), in the order the decisions were made."""
    return record[record["decision"] != "leaf"]


def ebp_table(record, lang="en"):
    """Error-based pruning's numbers, one row per decision (bottom-up; a node
    whose largest branch was raised into it is decided again): N, E,
    U_CF(E, N), the estimated errors as a leaf (N·U_CF), of the subtree (the
    sum over its leaves) and of the largest branch on all the node's rows."""
    rows = ebp_decisions(record)
    return pd.DataFrame({
        t(lang, "step", "步"): np.arange(1, len(rows) + 1),
        t(lang, "node", "结点"): rows["node_id"].to_numpy(),
        "N": rows["N"].to_numpy(),
        "E": rows["E"].to_numpy(),
        "U_CF": rows["U_CF"].to_numpy(),
        t(lang, "as leaf", "作为叶结点"): rows["errors_leaf"].to_numpy(),
        t(lang, "subtree", "子树"): rows["errors_subtree"].to_numpy(),
        t(lang, "largest branch", "最大分支"): rows["errors_branch"].to_numpy(),
        t(lang, "decision", "决定"): [
            t(lang, *_EBP_DECISIONS[d]) + (f" #{b}" if d == "raise" else "")
            for d, b in zip(rows["decision"], rows["branch_id"])],
    })


# ---------------------------------------------------------------------------
# formulas with the node's numbers
# ---------------------------------------------------------------------------

def ebp_formula_latex() -> list[str]:
    """C4.5's estimate, as formulas (Weka's Stats.addErrs)."""
    return [
        r"U_{CF}(E, N) = \frac{f + \frac{z^2}{2N} + z\sqrt{\frac{f}{N} - \frac{f^2}{N} + "
        r"\frac{z^2}{4N^2}}}{1 + \frac{z^2}{N}},\qquad f = \frac{E + 0.5}{N},\qquad "
        r"z = \Phi^{-1}(1 - CF)",
        r"\hat{e}(t) = N\,U_{CF}(E, N),\qquad \hat{e}(T_t) = "
        r"\sum_{\tau \in T_t} \hat{e}(\tau)",
    ]


def _le(a, b) -> str:
    """The relation Weka's Utils.smOrEq sees between a and b."""
    return r"\leq" if a - b < 1e-6 else ">"


def ebp_latex(row, confidence, z) -> list[str]:
    """One decision of error-based pruning with the node's own numbers: its
    U_CF (in the case of Weka's addErrs that applies), the three estimates
    and the tests (the 0.1 is C4.5's).  T_b is the largest branch."""
    from .. import add_errors

    N, E = float(row["N"]), float(row["E"])
    leaf, sub, branch = (float(row["errors_leaf"]), float(row["errors_subtree"]),
                         float(row["errors_branch"]))
    u = float(row["U_CF"])
    cf, n = tex(confidence), _count(N)
    if E < 1:
        base = N * (1 - confidence ** (1 / N))
        lines = [rf"E < 1:\quad N\,(1 - CF^{{1/N}}) = {n}\times(1 - {cf}^{{1/{n}}}) = {tex(base)}"]
        if E > 0:  # linear between E = 0 and E = 1
            one = add_errors(N, 1.0, confidence)
            lines.append(rf"N\,U_{{CF}} = E + (1 - E)\times {tex(base)} + E\times {tex(one)} = "
                         rf"{tex(leaf)}")
    elif E + 0.5 >= N:
        lines = [rf"E + 0.5 = {tex(E + 0.5)} \geq N = {n}:\quad U_{{CF}} = 1"]
    else:
        f = (E + 0.5) / N
        lines = [
            rf"f = \frac{{E + 0.5}}{{N}} = \frac{{{tex(E)} + 0.5}}{{{n}}} = {tex(f)},"
            rf"\qquad z = \Phi^{{-1}}(1 - {cf}) = {tex(z)}",
            rf"U_{{CF}}({tex(E)}, {n}) = {tex(u)}",
        ]
    lines += [
        rf"\hat{{e}}(t) = N\,U_{{CF}} = {n}\times {tex(u)} = {tex(leaf)},\qquad "
        rf"\hat{{e}}(T_t) = \sum_{{\tau}} \hat{{e}}(\tau) = {tex(sub)}",
    ]
    to_sub = rf"\hat{{e}}(T_t) + 0.1 = {tex(sub + 0.1)}"
    if math.isfinite(branch):
        b = int(row["branch_id"])
        lines.append(rf"\hat{{e}}(T_b) = {tex(branch)}\quad (b = \#{b})")
        lines.append(rf"\hat{{e}}(t) = {tex(leaf)} \;{_le(leaf, sub + 0.1)}\; {to_sub},\qquad "
                     rf"\hat{{e}}(t) \;{_le(leaf, branch + 0.1)}\; \hat{{e}}(T_b) + 0.1 = "
                     rf"{tex(branch + 0.1)}")
        if row["decision"] != "prune":
            lines.append(rf"\hat{{e}}(T_b) = {tex(branch)} \;{_le(branch, sub + 0.1)}\; "
                         + to_sub)
    else:
        lines.append(rf"\hat{{e}}(t) = {tex(leaf)} \;{_le(leaf, sub + 0.1)}\; {to_sub}")
    return lines


def _two_lines(lhs, definition, numbers) -> str:
    """``lhs = definition`` over ``= numbers`` (narrow enough for a column)."""
    return (rf"\begin{{aligned}} {lhs} &= {definition} \\ &= {numbers} "
            r"\end{aligned}")


def cost_latex(tree, node, criterion) -> str:
    """R(t) = N_t / N * I(t) with the node's numbers (``node``: an index)."""
    w = tree.weighted_n_node_samples
    sym = SYMBOL.get(criterion, "I")
    r = w[node] * tree.impurity[node] / w[0]
    return _two_lines("R(t)", rf"\frac{{N_t}}{{N}}\,{sym}(t)",
                      rf"\frac{{{_count(w[node])}}}{{{_count(w[0])}}}\times "
                      rf"{tex(tree.impurity[node])} = {tex(r)}")


def branch_cost_latex(tree, node) -> str:
    """R(T_t) = the sum of R over the leaves below ``node`` (an index)."""
    w = tree.weighted_n_node_samples
    leaves = np.sort(leaves_under(tree, node))
    costs = w[leaves] * tree.impurity[leaves] / w[0]
    terms = [tex(c) for c in costs]
    if len(terms) > 6:
        terms = terms[:4] + [r"\cdots"] + terms[-1:]
    return _two_lines("R(T_t)", r"\sum_{\tau \in \mathrm{leaves}(T_t)} R(\tau)",
                      f"{' + '.join(terms)} = {tex(costs.sum())}")


def g_latex(R_t, R_Tt, n_leaves, g) -> str:
    """g(t) = (R(t) - R(T_t)) / (|T_t| - 1) with the numbers."""
    return _two_lines("g(t)", r"\frac{R(t) - R(T_t)}{|T_t| - 1}",
                      rf"\frac{{{tex(R_t)} - {tex(R_Tt)}}}{{{int(n_leaves)} - 1}} = {tex(g)}")


def cost_complexity_latex(R_t, R_Tt, n_leaves, alpha) -> tuple[str, str]:
    """C_alpha of the node as a leaf and of its branch, at ``alpha``."""
    leaf = R_t + alpha
    branch = R_Tt + alpha * n_leaves
    return (rf"C_\alpha(t) = R(t) + \alpha = {tex(R_t)} + {tex(alpha)} = {tex(leaf)}",
            rf"C_\alpha(T_t) = R(T_t) + \alpha|T_t| = {tex(R_Tt)} + {tex(alpha)}\times "
            rf"{int(n_leaves)} = {tex(branch)}")


def pep_latex(row) -> list[str]:
    """The lecture notes' PEP formulas with a record row's numbers, and the test."""
    L = int(row["n_leaves"])
    sign = "<" if row["pruned"] else r"\geq"
    return [
        rf"E(T_t) = \sum_{{i=1}}^{{L}} e(\mathrm{{leaf}}_i) + 0.5\,L = "
        rf"{tex(row['errors_leaves'])} + 0.5\times {L} = {tex(row['E_T'])}",
        _two_lines(r"\mathrm{SE}(T_t)",
                   r"\sqrt{E(T_t)\left(1 - \frac{E(T_t)}{N(t)}\right)}",
                   rf"\sqrt{{{tex(row['E_T'])}\times\left(1 - \frac{{{tex(row['E_T'])}}}"
                   rf"{{{_count(row['N'])}}}\right)}} = {tex(row['std_T'])}"),
        rf"E(t) = e(t) + 0.5 = {tex(row['errors_node'])} + 0.5 = {tex(row['E_leaf'])}",
        rf"E(t) = {tex(row['E_leaf'])} \;{sign}\; E(T_t) + \mathrm{{SE}}(T_t) = "
        rf"{tex(row['E_T'])} + {tex(row['std_T'])} = {tex(row['upper'])}",
    ]


def rep_latex(row, regression=False) -> str:
    """REP's test for one node: validation errors as a leaf vs as a subtree."""
    e = r"\mathrm{SSE}_{\mathrm{val}}" if regression else r"e_{\mathrm{val}}"
    sign = r"\leq" if row["pruned"] else ">"
    return (rf"{e}(t) = {tex(row['errors_after'])} \;{sign}\; {e}(T_t) = "
            rf"{tex(row['errors_before'])}")


def weakest_latex(weakest, alpha) -> list[str]:
    """The weakest link's g(t) and its two costs at ``alpha`` (``weakest``:
    the weakest-link rows of a cost_complexity_table; none: no lines)."""
    if not len(weakest):
        return []
    w = weakest.iloc[0]
    return [g_latex(w.R_t, w.R_Tt, w.n_leaves, w.g),
            *cost_complexity_latex(w.R_t, w.R_Tt, w.n_leaves, alpha)]


def step_latex(seq, k, criterion) -> list[str]:
    """Step ``k`` of a weakest-link sequence: R(t), R(T_t) and g(t) of the
    node it collapsed, in the tree before the step (no lines at step 0)."""
    if k <= 0:
        return []
    s = seq.steps[k - 1]
    before = seq.tree_at(k - 1)
    i = int(np.flatnonzero(before.node_ids == s.node_id)[0])
    return [cost_latex(before, i, criterion), branch_cost_latex(before, i),
            g_latex(s.R_t, s.R_Tt, s.n_leaves, s.alpha)]


# ---------------------------------------------------------------------------
# caching on a fit
# ---------------------------------------------------------------------------

_MEMO_LOCK = threading.Lock()


def memo(owner, key, compute):
    """``compute()`` once per ``owner`` and key (kept on the owner).  A caller
    that asks while another thread computes the same key waits for it (the
    app computes the Prune page's work ahead in a thread); if
    ``compute`` raises, nothing is kept and the next caller tries again."""
    with _MEMO_LOCK:
        store = owner.__dict__.setdefault("_pruneview", {})
        if key in store:
            return store[key]
        lock = owner.__dict__.setdefault("_pruneview_making", {}).setdefault(
            key, threading.Lock())
    with lock:
        if key not in store:
            store[key] = compute()
        return store[key]


def has_memo(owner, key):
    """Whether :func:`memo` already holds ``key`` for ``owner``."""
    return key in owner.__dict__.get("_pruneview", {})
