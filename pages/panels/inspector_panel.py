"""The Grow page's node inspector tab: pick a node (from the list, or on a
map of the tree), read what happened to it with its formulas, its candidate
splits, a picture of its training rows against its split feature, and the
gain of every split of one feature.

What is shown is built by :mod:`dtree.views.inspector`; this module reads
the session and draws.  Session keys: ``inspect`` (the node picked, None
while following the steps; in the URL), ``inspect_select`` (the list),
``inspect_plot`` (the map's selection), ``follow`` (the button back to
following the steps), ``node_map`` and ``gain_chart`` (the expanders, drawn
only while open), ``curve_feature_<node>`` (the feature of the gain chart).
``fit`` is a ``pages.runtime.fits.Fit``.
"""

import streamlit as st

from dtree.views import inspector, nodepics, viz
from pages.state import imported
from pages.runtime.memory import arrow
from pages.state.session import lang, tr

state = st.session_state


def needs_data(fit):
    """True, after saying so, when the training rows are absent (a tree opened
    from a .skops file without a data file)."""
    if len(fit.prep.y_train):
        return False
    st.info(imported.needs_data(), icon=":material/info:")
    return True


def pick_from_list():
    state["inspect"] = state["inspect_select"]


def pick_from_plot():
    selection = state.get("inspect_plot")
    points = selection.get("selection", {}).get("points", []) if selection else []
    if points and points[0].get("customdata") is not None:
        value = points[0]["customdata"]
        state["inspect"] = int(value[0] if isinstance(value, list) else value)


def node_inspector(fit, tree, step):
    """The node list (and map) beside the node's story and formulas, then
    its candidates; ``tree`` is the tree after ``step`` steps."""
    model = fit.model
    ids = [int(v) for v in tree.node_ids]
    node = state.get("inspect")
    if node not in ids:
        node = state["inspect"] = None
    shown = inspector.follow_node(model, step) if node is None else node
    index = ids.index(shown)
    left, right = st.columns([1, 2], gap="large")
    with left:
        state["inspect_select"] = shown
        titles = inspector.node_titles(model, tree, fit.step_of_node, lang())
        st.selectbox(tr("Node", "结点"), ids, key="inspect_select", on_change=pick_from_list,
                     format_func=dict(zip(ids, titles)).get)
        if node is not None:
            st.button(tr("Follow the steps", "跟随步骤"), key="follow",
                      on_click=lambda: state.update(inspect=None))
        else:
            st.caption(tr("Following the steps: showing the node split last. Pick a node "
                          "here or on the map.",
                          "正在跟随步骤：显示最近一次划分的结点。可在这里或树图上选择结点。"))
        # drawn only when opened, so that stepping stays quick
        node_map = st.expander(tr("Map of the tree: click a node", "树图：点击结点"),
                               key="node_map", on_change="rerun", expanded=False)
        if node_map.open:
            with node_map:
                st.plotly_chart(viz.tree_figure(tree, model, selected=shown, lang=lang()),
                                key="inspect_plot", on_select=pick_from_plot,
                                selection_mode="points", config={"displayModeBar": False})
    s = fit.step_of_node.get(shown)
    with right:
        st.subheader(inspector.node_heading(tree, index, shown, lang()))
        show(inspector.node_blocks(model, tree, index, shown, s, step, lang()))
        if s is not None and len(fit.prep.y_train):
            node_picture(fit, s, shown)
    if s is not None:
        candidates_and_curve(fit, s, shown)


def show(blocks):
    """Draw :func:`dtree.views.inspector.node_blocks`' (kind, value) pairs."""
    for kind, value in blocks:
        if kind == "latex":
            st.latex(value)
        elif kind == "caption":
            st.caption(value)
        elif kind == "table":
            st.table(arrow(value), hide_index=True)
        else:
            st.markdown(value)


def node_picture(fit, s, nid):
    """The node's training rows against its split feature (the split made
    at it, or to be made)."""
    picture = fit.view(("node_picture", nid, lang()), lambda: nodepics.node_picture(
        fit.model, fit.X_train_encoded, fit.y_codes, fit.routes_train, nid, s, lang()))
    if picture.figure is not None:
        st.plotly_chart(picture.figure, key=f"node_picture_{nid}")
    st.caption(picture.caption)
    if picture.missing:
        st.caption(picture.missing)


def candidates_and_curve(fit, s, nid):
    st.markdown(tr("**Every feature's best split at this node** (the chosen one first)",
                   "**该结点上每个特征的最佳划分**（选中的排在最前）"))
    if needs_data(fit):
        return
    cand, crit = s.candidates, fit.criterion
    if cand is not None and len(cand) <= 30:
        st.table(fit.view(("candidates", nid, lang()), lambda: arrow(
            inspector.candidate_table(cand, crit, lang()))), hide_index=True)
    elif cand is not None:  # many features: a scrolling table
        st.dataframe(inspector.candidate_table(cand, crit, lang(), markdown=False),
                     hide_index=True, height=420)
    # drawn only when opened (the open state is remembered), so that stepping
    # stays quick
    chart = st.expander(tr("Gain of every split of one feature", "某个特征每个候选划分的增益"),
                        key="gain_chart", on_change="rerun", expanded=False)
    if chart.open:
        with chart:
            gain_chart(fit, s, nid)


def gain_chart(fit, s, nid):
    names = list(fit.model.feature_names_in_)
    choice = st.selectbox(tr("Gain curve of feature", "查看增益的特征"), range(len(names)),
                          index=s.feature, key=f"curve_feature_{nid}",
                          format_func=lambda f: viz.short(names[f], 60))
    chart = inspector.gain_chart(fit.model, fit.prep.X_train, fit.y_codes, fit.routes_train,
                                 nid, choice, s, lang())
    if chart.kind == "single":
        st.info(chart.caption)
        return
    st.plotly_chart(chart.figure, key=f"{chart.kind}_{nid}")
    if chart.caption:
        st.caption(chart.caption)
    if chart.missing:
        st.caption(chart.missing)
