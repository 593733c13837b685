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
from pages.state.session import lang, tr


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
    if state.get(f"cmp_c{n}") not in (None, *options):
        state.pop(f"cmp_c{n}")  # the preset changed: back to its first criterion
    index = options.index(criterion0) if criterion0 in options else 0
    criterion = st.selectbox(tr("Criterion", "划分准则"), options, index=index,
                             key=f"cmp_c{n}", bind="query-params",
                             format_func=partial(criterion_name, lang=lang(), short=True))
    growth = st.selectbox(tr("Growth order", "生长顺序"), list(GROWTH),
                          index=list(GROWTH).index(growth0), key=f"cmp_g{n}",
                          format_func=partial(growth_name, lang=lang()),
                          bind="query-params")
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


def trees(configs, step, divergence, n_configs, per_row, present):
    """Every tree at ``step`` (each at its own last step if it has fewer),
    the node where they part outlined, ``per_row`` trees a row; ``configs``
    as the page keeps them: (column, label, profile or None, key)."""
    # Constant CSS (no user text): a tree wider than its column is scaled down
    # to fit, never up, so that its text keeps one size while the trees grow.
    st.html("<style>[class*='st-key-cmp_tree'] [data-testid='stGraphVizChart'] svg "
            "{max-width: 100%; height: auto;}</style>")
    # Presenter mode: drawn large, then scaled down to the window (app.py's CSS
    # for containers keyed tree_box*; the trees start lower than Grow's).
    if present:
        st.html("<style>[class*='st-key-tree_box_cmp'] { --dtree-above-tree: 9.8rem; }</style>")
    fontsize = 20 if present else {2: 14, 3: 12, 4: 12}[per_row]
    cells = []
    for _ in range(0, n_configs, per_row):
        cells.extend(st.columns(per_row, gap="medium"))
    for i, label, profile, _ in configs:
        if profile is None:
            continue
        with cells[i].container(key=f"cmp_tree{i + 1}"):
            if per_row < n_configs or present:  # the columns of settings are not above
                st.html(f'<div style="height:{4 if present else 6}px;border-radius:3px;'
                        f'background:{compare.CONFIG_COLOURS[i]}"></div>')
                st.markdown(f"**{md(label)}**")
            k = min(step, profile.n_steps)
            dot, info = viz.step_dot(profile.model, k, fontsize=fontsize, lang=lang(),
                                     compact=present)
            if divergence is not None:
                node = compare.node_at(profile.tree(k), divergence.path)
                if node is not None:
                    dot = compare.highlight_dot(dot, node)
            with st.container(key=f"tree_box_cmp{i + 1}"):
                st.graphviz_chart(dot, width="content")
            st.markdown(words.tree_caption(profile, k, lang()))
            if info["depth_cut"] is not None:
                st.caption(words.depth_cut(info["depth_cut"], lang()))
    (st.expander(tr("What the colours mean", "颜色的含义")) if present else st).caption(
        text(words.TEXTS, "colours", lang()))


def charts(profiles, labels, step, classification, n_test):
    """The chosen chart: scores against depth and leaves, the agreement of
    the test predictions, or the impurity functions at the first tree's node."""
    names = words.chart_names(classification, lang())
    chart = st.segmented_control(tr("Chart", "图表"), list(names), default="scores",
                                 format_func=names.get, key="cmp_chart",
                                 bind="query-params", required=True) or "scores"
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
