"""The Compare page's panels (pages/compare.py calls them): a column's
parameter widgets, the trees at the shared step, and the charts under them.
Only widgets and drawing: the words are in dtree.views.comparetext, the
numbers in dtree.views.compare."""

from functools import partial

import streamlit as st

from dtree.views.vocabulary import criterion_name, growth_name, text
from dtree.views import compare, viz
from dtree.views import comparetext as words
from dtree.tables.prepare import PRESETS, criteria_for
from dtree.tables.choices import GROWTH
from dtree.views.links import md
from pages.panels import tree_view
from pages.panels.stepping import move, moves, step_buttons
from pages.state import room_stage
from pages.state.session import keys_legend, lang, shown_step, step_button, tr
from pages.state.tables_state import current_table, table_title

#: DOT font size in presenter mode: drawn large, scaled down to the window.
PRESENTER_FONT = 20


def mode_switch(where, present) -> str:
    """The page's view (``cmp_mode``, kept in the link by
    pages/state/url_state.py): "settings" or "resamples"."""
    st.session_state.setdefault("cmp_mode", "settings")
    return where.segmented_control(
        tr("View", "视图"), list(words.MODES), key="cmp_mode", required=True, persist_state="session",
        format_func=partial(words.mode_name, lang=lang()),
        help=text(words.RESAMPLE_TEXTS, "mode_help", lang()),
        label_visibility="collapsed" if present else "visible") or "settings"


@st.cache_resource(show_spinner=False, max_entries=32)
def _divergence(keys, _models):
    return compare.first_divergence(_models)


def lockstep(nav, present, profiles, keys):
    """The shared step of ``profiles``' trees (``cmp_step``): the step
    buttons, "go to where they part" and the slider, in ``nav``.  ``keys``
    name the trees (hashable: their cache keys), for the cached
    :func:`dtree.views.compare.first_divergence`.  Returns (step,
    divergence)."""
    state = st.session_state
    max_steps = max(p.n_steps for p in profiles)
    if state.get("cmp_step", 0) > max_steps:
        state["cmp_step"] = max_steps
    divergence = (_divergence(tuple(keys), [p.model for p in profiles])
                  if len(profiles) > 1 else None)
    part_step = compare.divergence_step(divergence) if divergence is not None else None
    step = shown_step("cmp_step", max_steps) if max_steps else 0  # (a link's, at first)
    step_buttons(nav, present, ("cmp_first", "cmp_prev", "cmp_next", "cmp_last"),
                 moves("cmp_step", 0, max_steps), step <= 0, step >= max_steps)
    if part_step is not None:
        step_button(nav, tr("Go to where they part", "跳到分歧处"), "cmp_goto",
                    ":material/call_split:", present, on_click=move,
                    kwargs={"key": "cmp_step", "low": 0, "high": max_steps, "to": part_step})
    if max_steps:
        (nav if present else st).slider(
            tr("Step (splits made so far, the same for every tree)",
               "步数（已完成的划分次数，所有树相同）"), 0, max_steps, key="cmp_step",
            bind="query-params", label_visibility="collapsed" if present else "visible",
            width=220 if present else "stretch")
    if present:
        nav.markdown(tr(f"**step {step} / {max_steps}**", f"**第 {step} / {max_steps} 步**"),
                     width="content")
        keys_legend(tr("W whole trees · D details", "W 整棵树 · D 细节"))
    step = int(state.get("cmp_step", step)) if max_steps else 0
    title = md(table_title(current_table()))
    room_stage.say(tr(f"Compare · {title}", f"比较 · {title}"),
                   tr(f"**Step {step} of {max_steps}**", f"**第 {step} 步（共 {max_steps} 步）**"))
    return step, divergence


def column_settings(i, default, base_params, task, poisson_ok):
    """Column i's widgets (in a popover), starting from ``default``
    (compare.default_config); returns (preset, criterion, params)."""
    state = st.session_state
    preset0, criterion0, growth0, changes0 = default
    start = {**base_params, **changes0}
    n = i + 1
    preset = "CART"
    if task == "classification":
        if state.get(f"cmp_p{n}") not in (None, *PRESETS):
            state.pop(f"cmp_p{n}")
        preset = st.selectbox(tr("Algorithm", "算法"), list(PRESETS), key=f"cmp_p{n}",
                              index=list(PRESETS).index(preset0), bind="query-params")
    options = compare.criterion_options(criteria_for(task, preset), task, preset, poisson_ok)
    # The criterion and the growth order are kept in the URL by their keys
    # (pages/state/url_state.py), not by the names shown: set before the widgets.
    if state.get(f"cmp_c{n}") not in options:  # (new, or the preset changed: its first)
        state[f"cmp_c{n}"] = criterion0 if criterion0 in options else options[0]
    criterion = st.selectbox(tr("Criterion", "划分准则"), options, key=f"cmp_c{n}",
                             format_func=partial(criterion_name, lang=lang(), short=True),
                             persist_state="session")
    if state.get(f"cmp_g{n}") not in GROWTH:
        state[f"cmp_g{n}"] = growth0
    growth = st.selectbox(tr("Growth order", "生长顺序"), list(GROWTH), key=f"cmp_g{n}",
                          format_func=partial(growth_name, lang=lang()),
                          persist_state="session")
    max_depth = st.number_input("max_depth", 1, 64, start["max_depth"],
                                key=f"cmp_d{n}", placeholder=tr("no limit", "不限"),
                                bind="query-params")
    min_leaf = st.number_input("min_samples_leaf", 1, 10_000, start["min_samples_leaf"],
                               key=f"cmp_l{n}", bind="query-params")
    max_leaves = st.number_input("max_leaf_nodes", 2, 10_000, start["max_leaf_nodes"],
                                 key=f"cmp_m{n}", placeholder=tr("no limit", "不限"),
                                 bind="query-params")
    params = dict(base_params, growth=growth, max_depth=max_depth,
                  min_samples_leaf=int(min_leaf or 1), max_leaf_nodes=max_leaves)
    return preset, criterion, params


def presenter_cells(n_configs):
    """Presenter mode: a place for each tree, laid out as
    compare.presenter_layout says (trees side by side, or four in two rows),
    each starting with a heading row in the tree's colour.  Returns (cells,
    headings); :func:`trees` draws into both."""
    layout = compare.presenter_layout(n_configs)
    # Constant CSS (numbers and the constant colours only): each row of trees
    # scaled to its share of the window (app.py's CSS for tree_box*), each
    # heading's top border in its tree's colour, its settings button small.
    css = [f"[class*='st-key-tree_box_cmp'] {{ --dtree-above-tree: {layout.above_css}; }}",
           ".st-key-narration { min-height: 2.1rem; }",  # (two lines: the trees stay put)
           "[class*='st-key-cmp_head'] { padding-top: 0.15rem; flex-wrap: nowrap; }",
           # (one line, cut short with an ellipsis in a narrow column)
           "[class*='st-key-cmp_head'] p { font-size: 0.75rem; white-space: nowrap; "
           "overflow: hidden; text-overflow: ellipsis; }",
           "[class*='st-key-cmp_head'] button { min-height: 1.3rem; padding: 0 0.3rem; }"]
    css += [f".st-key-cmp_head{i + 1} {{ border-top: 4px solid {colour}; }}"
            for i, colour in enumerate(compare.CONFIG_COLOURS)]
    st.html(f"<style>{' '.join(css)}</style>")
    cells = []
    for _ in range(layout.rows):
        cells.extend(st.columns(layout.columns, gap="small"))
    heads = [cell.container(horizontal=True, vertical_alignment="center", gap="small",
                            key=f"cmp_head{i + 1}") for i, cell in enumerate(cells[:n_configs])]
    return cells, heads


def _presenter_tree(cell, head, i, label, profile, k, divergence, window):
    """One tree in presenter mode: its line in the heading, the tree folded
    to its window (the node where the trees part kept drawn)."""
    head.markdown(words.tree_heading(label, profile, k, escape=md, lang=lang()), width="stretch")
    tree = profile.tree(k)
    parting = compare.parting_node(tree, divergence)
    dot, info = viz.step_dot(profile.model, k, fontsize=PRESENTER_FONT, lang=lang(),
                             compact=True, details=tree_view.detailed(),
                             focus=tree_view.focused(), window=window,
                             keep=() if parting is None else (parting,))
    if parting is not None:
        dot = compare.highlight_dot(dot, compare.node_at(tree, divergence.path))
    with cell:
        with st.container(key=f"tree_box_cmp{i + 1}"):
            room_stage.draw_tree(dot, f"**{md(label)}**", width="content")
        if info["depth_cut"] is not None:
            st.caption(words.depth_cut(info["depth_cut"], lang()))


def trees(configs, step, divergence, n_configs, per_row, present, places=None,
          labelled=False):
    """Every tree at ``step`` (each at its own last step if it has fewer),
    the node where they part outlined, ``per_row`` trees a row; ``configs``
    as the page keeps them: (column, label, profile or None, key).  In
    presenter mode, ``places`` is :func:`presenter_cells`'s (cells,
    headings): the trees are drawn brief and folded to fit their share of
    the window (the Grow page's W and D switches say whether).  With
    ``labelled`` each tree's label is drawn above it (no column of settings
    above names it)."""
    if present:
        cells, heads = places
        window = compare.presenter_layout(n_configs).window
        for i, label, profile, _ in configs:
            if profile is not None:
                _presenter_tree(cells[i], heads[i], i, label, profile,
                                min(step, profile.n_steps), divergence, window)
        st.expander(tr("What the colours mean", "颜色的含义")).caption(
            text(words.TEXTS, "colours", lang()))
        return
    # Constant CSS (no user text): a tree wider than its column is scaled down
    # to fit, never up, so that its text keeps one size while the trees grow.
    st.html("<style>[class*='st-key-cmp_tree'] [data-testid='stGraphVizChart'] svg "
            "{max-width: 100%; height: auto;}</style>")
    fontsize = {2: 14, 3: 12, 4: 12}[per_row]
    cells = []
    for _ in range(0, n_configs, per_row):
        cells.extend(st.columns(per_row, gap="medium"))
    for i, label, profile, _ in configs:
        if profile is None:
            continue
        with cells[i].container(key=f"cmp_tree{i + 1}"):
            if per_row < n_configs or labelled:  # the columns of settings are not above
                st.html('<div style="height:6px;border-radius:3px;'
                        f'background:{compare.CONFIG_COLOURS[i]}"></div>')
                st.markdown(f"**{md(label)}**")
            k = min(step, profile.n_steps)
            dot, info = viz.step_dot(profile.model, k, fontsize=fontsize, lang=lang())
            if divergence is not None:
                node = compare.node_at(profile.tree(k), divergence.path)
                if node is not None:
                    dot = compare.highlight_dot(dot, node)
            room_stage.draw_tree(dot, f"**{md(label)}**", width="content")
            st.markdown(words.tree_caption(profile, k, lang()))
            if info["depth_cut"] is not None:
                st.caption(words.depth_cut(info["depth_cut"], lang()))
    st.caption(text(words.TEXTS, "colours", lang()))


def charts(profiles, labels, step, classification, n_test):
    """The chosen chart: scores against depth and leaves, the agreement of
    the test predictions, or the impurity functions at the first tree's node."""
    names = words.chart_names(classification, lang())
    st.session_state.setdefault("cmp_chart", "scores")  # (in the URL by its key: url_state.py)
    chart = st.segmented_control(tr("Chart", "图表"), list(names), format_func=names.get,
                                 key="cmp_chart", required=True,
                                 persist_state="session") or "scores"
    if chart == "scores":
        metric = words.metric_name(classification, lang())
        st.plotly_chart(compare.scores_figure(profiles, labels, step, metric, lang=lang()),
                        key="cmp_scores_fig")
        st.caption(text(words.TEXTS, "scores", lang()))
    elif chart == "agreement":
        if not n_test:
            st.info(text(words.TEXTS, "no_test", lang()))
            return
        preds = [p.test_predictions(min(step, p.n_steps)) for p in profiles]
        matrix = compare.agreement_matrix(preds, classification)
        st.plotly_chart(compare.agreement_figure(matrix, labels, classification, lang=lang()),
                        key="cmp_agree_fig")
        st.caption(words.agreement_caption(step, n_test, lang()))
    elif not classification:
        st.info(text(words.TEXTS, "impurity_regression", lang()))
    else:
        model = profiles[0].model
        k1 = min(step, profiles[0].n_steps)
        p, two = compare.node_share(model, compare.step_node(model, k1))
        st.plotly_chart(compare.impurity_figure(p, two, lang=lang()), key="cmp_impurity_fig")
        st.markdown(words.impurity_marker(model, k1, labels[0], escape=md, lang=lang()))
        st.caption(text(words.TEXTS, "taylor", lang()))
