"""Grow page: step through the tree's growth and inspect every node."""

import time

import numpy as np
import pandas as pd
import streamlit as st

from dtree import explain, viz
from pages.export_panel import export_panel
from pages.shared import (GROWTH, chosen_parameters, current_setup, current_table, fitted,
                          md, prepared, presenting, require_frame, sidebar_controls)

SPEEDS = {"slow (2 s)": 2.0, "medium (1 s)": 1.0, "fast (0.5 s)": 0.5}
state = st.session_state
require_frame()

table = current_table()
setup = current_setup(table)


# The first run of a session draws the tree alone, and the sidebar and the
# panels a moment later (show_the_rest_soon): the tree is on screen sooner.
first_run = not state.get("panels_ready")
state["panels_ready"] = True
preset, criterion, params = chosen_parameters(setup.task)
if not first_run:
    sidebar_controls(setup.task, preset)
prep, error = prepared(table, setup)
if error and first_run:
    sidebar_controls(setup.task, preset)
if error:
    st.title("Grow")
    st.error(md(error), icon=":material/error:")
    st.page_link("pages/data.py", label="Choose the data", icon=":material/table:")
    st.stop()
fit, error = fitted(table, setup, prep, preset, criterion, params)
if error and first_run:
    sidebar_controls(setup.task, preset)
if error:
    st.title("Grow")
    st.error(f"The tree could not be grown: {md(error)}", icon=":material/error:")
    st.stop()
model = fit.model
n_steps = fit.n_steps
for note in fit.prep.notes[len(prep.notes):]:  # what this fit did to the data (ID3)
    st.caption(md(note))
prep = fit.prep

st.markdown(f"### {md(table.title)} · {criterion} · {GROWTH[model.growth_]} · "
            f"{len(prep.y_train):,} training rows")


# -- step controls ----------------------------------------------------------------
def move(delta=None, to=None):
    step = state.get("step", 0) if to is None else to
    if delta is not None:
        step += delta
    state["step"] = int(min(max(step, 0), n_steps))
    if to is not None or delta is not None and delta < 0:
        state["playing"] = False


def toggle_play():
    playing = not state.get("playing", False)
    if playing and state.get("step", 0) >= n_steps:
        state["step"] = 0
    state["playing"] = playing
    state["last_tick"] = time.monotonic()


if state.get("step", 0) > n_steps:
    state["step"] = n_steps
playing = bool(state.get("playing", False)) and n_steps > 0
speed = SPEEDS.get(state.get("speed"), 1.0)


@st.fragment(run_every=speed if playing else None)
def stepper():
    if state.get("playing", False) != playing:  # Play/Pause changes run_every
        st.rerun()
    if playing and time.monotonic() - state.get("last_tick", 0.0) >= 0.8 * speed:
        state["last_tick"] = time.monotonic()
        if state.get("step", 0) < n_steps:
            state["step"] = state.get("step", 0) + 1
        else:
            state["playing"] = False
            st.rerun()

    buttons = st.container(horizontal=True, vertical_alignment="bottom")
    buttons.button("Previous step", key="prev", on_click=move, kwargs={"delta": -1},
                   icon=":material/skip_previous:", disabled=n_steps == 0, shortcut="Left")
    buttons.button("Next step", key="next", on_click=move, kwargs={"delta": 1},
                   type="primary", icon=":material/skip_next:", disabled=n_steps == 0,
                   shortcut="Right")
    buttons.button("Pause" if playing else "Play", key="play", on_click=toggle_play,
                   icon=":material/pause:" if playing else ":material/play_arrow:",
                   disabled=n_steps == 0, shortcut="P")
    buttons.button("Reset", key="reset", on_click=move, kwargs={"to": 0},
                   icon=":material/restart_alt:", shortcut="Home")
    buttons.button("Grow all", key="grow_all", on_click=move, kwargs={"to": n_steps},
                   icon=":material/fast_forward:", shortcut="End")
    if first_run:  # the step from the URL, before its slider exists
        step = state["step"] = url_step()
    else:
        buttons.selectbox("Speed", list(SPEEDS), index=1, key="speed", width=180,
                          persist_state="session")
        if n_steps:
            st.slider("Step (splits made so far)", 0, n_steps, key="step",
                      bind="query-params")
        step = int(state.get("step", 0)) if n_steps else 0

    cc = fit.cost_complexity(step)
    tree = model.tree_at(step)
    size = viz.tree_font_size(model.tree_.n_leaves)
    dot, info = viz.step_dot(model, step, cost_complexity=cc, rankdir=tree_direction(),
                             fontsize=size + 6 if presenting() else size)
    st.graphviz_chart(dot, width="content")
    narrate(step, info)
    st.caption("Vermillion border: the node split in this step. Blue border: the next "
               "node to split. gain: the split's impurity decrease; g(t): its "
               "cost-complexity (R(t) − R(T_t)) / (|T_t| − 1)"
               + ("; priority: the improvement a waiting leaf would bring (best-first "
                  "splits the largest next)." if model.growth_ == "best_first" else "."))
    if info["depth_cut"] is not None:
        st.warning(f"This tree has {tree.node_count:,} nodes; only the first "
                   f"{info['depth_cut']} levels are drawn (deeper nodes are grey “(...)” "
                   "boxes). Limit max_depth or max_leaf_nodes to see all of it.")

    if first_run:
        st.caption("Loading the node inspector…")
        return
    inspector, regions, accuracy, export = st.tabs(
        ["Node inspector", "Decision regions", "Accuracy" if hasattr(model, "classes_")
         else "R²", "Export"], key="panel", on_change="rerun")
    if inspector.open is not False:
        with inspector:
            node_inspector(tree, step)
    if regions.open:
        with regions:
            decision_regions(tree, step)
    if accuracy.open:
        with accuracy:
            score_panel(step)
    if export.open:
        with export:
            export_panel(model, step, title=table.title)


def url_step():
    """The step named in the URL (?step=k), within range; 0 when absent."""
    try:
        return min(max(int(st.query_params.get("step", 0)), 0), n_steps)
    except ValueError:
        return 0


def split_phrase(s):
    """How a step splits, in Markdown (user text escaped)."""
    name = f"**{md(viz.short(s.feature_name, 60))}**"
    if s.kind == "numeric":
        return f"{name} ≤ {s.threshold:.4g}"
    if s.kind == "subset":
        return f"{name} ∈ {md(viz.short(s.branches[0], 60))} or not"
    return f"{name}, one branch per value ({md(viz.short(', '.join(s.branches), 80))})"


def branch_sizes(s):
    if len(s.children) == 2 and s.kind == "numeric":
        return f"{s.n_left:,} rows left, {s.n_right:,} right"
    return "rows per branch: " + ", ".join(f"{n:,}" for n in s.n_children_samples)


def narrate(step, info):
    """One sentence on what this step did."""
    if n_steps == 0:
        reason = model.tree_.stop_reason[0] or "no split"
        st.info(f"The root cannot be split ({md(reason)}): the tree is a single leaf.")
        return
    if step == 0:
        s = model.steps_[0]
        st.markdown(f"**Step 0 of {n_steps}:** the root holds all {s.n_node_samples:,} "
                    f"training rows. Next, node #{s.node} is split on {split_phrase(s)}.")
        return
    s = model.steps_[step - 1]
    value = f"gain ratio {s.gain_ratio:.3f}" if fit.criterion == "gain_ratio" \
        else f"gain {s.gain:.3f}"
    st.markdown(f"**Step {step} of {n_steps}:** node #{s.node} was split on "
                f"{split_phrase(s)} ({branch_sizes(s)}; {value}).")


# -- node inspector ---------------------------------------------------------------
def follow_node(step):
    """The node the inspector shows while following the steps."""
    if step > 0:
        return model.steps_[step - 1].node
    return 0


def pick_from_list():
    state["inspect"] = state["inspect_select"]


def pick_from_plot():
    selection = state.get("inspect_plot")
    points = selection.get("selection", {}).get("points", []) if selection else []
    if points and points[0].get("customdata") is not None:
        value = points[0]["customdata"]
        state["inspect"] = int(value[0] if isinstance(value, list) else value)


def node_inspector(tree, step):
    ids = [int(v) for v in tree.node_ids]
    node = state.get("inspect")
    if node not in ids:
        node = state["inspect"] = None
    shown = follow_node(step) if node is None else node
    index = ids.index(shown)
    left, right = st.columns([1, 2], gap="large")
    with left:
        state["inspect_select"] = shown
        st.selectbox("Node", ids, key="inspect_select", on_change=pick_from_list,
                     format_func=lambda v: node_title(tree, ids.index(v)))
        if node is not None:
            st.button("Follow the steps", key="follow",
                      on_click=lambda: state.update(inspect=None))
        else:
            st.caption("Following the steps: showing the node split last. Pick a node "
                       "here or on the map.")
        # drawn only when opened, so that stepping stays quick
        node_map = st.expander("Map of the tree: click a node", key="node_map",
                               on_change="rerun", expanded=False)
        if node_map.open:
            with node_map:
                st.plotly_chart(viz.tree_figure(tree, model, selected=shown),
                                key="inspect_plot", on_select=pick_from_plot,
                                selection_mode="points", config={"displayModeBar": False})
    with right:
        s = node_details(tree, index, shown, step)
    if s is not None:
        candidates_and_curve(s, shown)


def node_title(tree, i):
    nid = int(tree.node_ids[i])
    kids = tree.children_of(i)
    if kids:
        name = viz.short(model.feature_names_in_[tree.feature[i]], 40)
        s = fit.step_of_node.get(nid)
        if s is not None and s.kind != "numeric":
            return f"#{nid}: {name} ({len(kids)} branches)"
        return f"#{nid}: {name} ≤ {tree.threshold[i]:.4g}"
    return f"#{nid}: leaf, {tree.n_node_samples[i]:,} rows"


def node_details(tree, i, nid, step):
    full = model.tree_
    s = fit.step_of_node.get(nid)
    n = int(tree.n_node_samples[i])
    st.subheader(f"Node #{nid}: depth {int(tree.depth[i])}, {n:,} rows")
    if s is not None and s.index < step:
        st.markdown(f"Split in step {s.index + 1} on {split_phrase(s)}.")
    elif s is not None:
        st.markdown(f"A leaf for now: step {s.index + 1} will split it on "
                    f"{split_phrase(s)}. The numbers below are that step's.")
    else:
        reason = full.stop_reason[nid] or "leaf"
        st.markdown(f"A leaf of the final tree (it stops because of: {md(reason)}).")

    crit = fit.criterion
    classifier = hasattr(model, "classes_")
    st.latex(explain.impurity_definition(crit))
    if classifier:
        st.latex(explain.impurity_latex(crit, explain.class_counts(tree, i),
                                        value=tree.impurity[i]))
    else:
        st.latex(explain.regression_latex(crit, tree.weighted_n_node_samples[i],
                                          tree.value[i, 0, 0], tree.impurity[i]))
    if s is None:
        return None
    w = full.weighted_n_node_samples
    child_w = [w[c] for c in s.children]
    known = known_fraction(s)
    st.latex(explain.branches_gain_latex(crit, w[s.node], child_w, s.impurity,
                                         s.children_impurity, s.gain, known))
    if known < 1.0:
        st.caption(f"C4.5's rule for missing values: ρ = {known:.3f} of this node's weight "
                   "has a known value of the feature; the gain is computed on those rows "
                   "(D̃) and multiplied by ρ.")
    elif s.kind == "numeric":
        st.caption("D₁: the rows with the split feature ≤ the threshold (left); D₂: the "
                   "rest (right).")
    else:
        st.caption("D_v: the rows in branch v (" + md(", ".join(
            f"{v + 1} = {viz.short(b, 30)}" for v, b in enumerate(s.branches[:8])))
            + ("…" if len(s.branches) > 8 else "") + ").")
    if crit == "gain_ratio":
        for line in explain.branches_split_info_latex(w[s.node], child_w, s.split_info,
                                                      s.gain, s.gain_ratio):
            st.latex(line)
    st.latex(explain.improvement_latex(w[s.node], w[0], s.gain, s.improvement))
    return s


def known_fraction(s):
    """rho, the share of the node's weight with a known value of the split
    feature (below 1 only under C4.5's missing-value rule)."""
    if getattr(model, "missing_", None) != "c4.5" or s.candidates is None:
        return 1.0
    chosen = s.candidates[s.candidates["chosen"]]
    return 1.0 - float(chosen["missing_fraction"].iloc[0]) if len(chosen) else 1.0


def candidate_table(cand, markdown=True):
    """The candidates as a table of text (Markdown-escaped for st.table)."""
    def fmt(x, spec):
        return "–" if x is None or not np.isfinite(float(x)) else format(float(x), spec)

    def text(v, n):
        return md(viz.short(v, n)) if markdown else viz.short(v, n)

    def split(row):
        if row.kind == "numeric":
            return "–" if not np.isfinite(row.threshold) else f"≤ {row.threshold:.4g}"
        return text(row.children, 60)
    multi = cand["children_samples"].map(len).max() > 2 if len(cand) else False
    table = {
        "chosen": ["✔" if c else "" for c in cand["chosen"]],
        "feature": [text(f, 48) for f in cand["feature"]],
        "split": [split(r) for r in cand.itertuples()],
        "gain": [fmt(v, ".4f") for v in cand["gain"]],
        "gain ratio": [fmt(v, ".4f") for v in cand["gain_ratio"]],
    }
    if multi:
        table["impurity per branch"] = [" | ".join(fmt(v, ".3f") for v in imps)
                                        for imps in cand["children_impurity"]]
        table["rows per branch"] = [" | ".join(str(n) for n in sizes)
                                    for sizes in cand["children_samples"]]
    else:
        table["impurity left"] = [fmt(v, ".4f") for v in cand["impurity_left"]]
        table["impurity right"] = [fmt(v, ".4f") for v in cand["impurity_right"]]
        table["rows left"] = [fmt(v, ".0f") for v in cand["n_left"]]
        table["rows right"] = [fmt(v, ".0f") for v in cand["n_right"]]
    if (cand["missing_fraction"] > 0).any():
        table["missing"] = [fmt(v, ".1%") for v in cand["missing_fraction"]]
    return pd.DataFrame(table)


def candidates_and_curve(s, nid):
    st.markdown("**Every feature's best split at this node** (the chosen one first)")
    cand = s.candidates
    if cand is not None and len(cand) <= 30:
        st.table(candidate_table(cand), hide_index=True)
    elif cand is not None:  # many features: a scrolling table
        st.dataframe(candidate_table(cand, markdown=False), hide_index=True, height=420)
    # drawn only when opened (the open state is remembered), so that stepping
    # stays quick
    chart = st.expander("Gain of every split of one feature", key="gain_chart",
                        on_change="rerun", expanded=False)
    if chart.open:
        with chart:
            gain_chart(s, nid)


def gain_chart(s, nid):
    names = list(model.feature_names_in_)
    choice = st.selectbox("Gain curve of feature", range(len(names)), index=s.feature,
                          key=f"curve_feature_{nid}",
                          format_func=lambda f: viz.short(names[f], 60))
    rows, weights = explain.node_rows(model.tree_, fit.routes_train, nid)
    codes = fit.y_codes[rows]
    n_classes = len(model.classes_) if hasattr(model, "classes_") else 0
    crit = fit.criterion
    values = prep.X_train.iloc[rows, choice]
    known = values.notna().to_numpy()
    missing = int((~known).sum())
    if not model.is_categorical_[choice]:
        x = values.to_numpy(dtype=float)[known]
        curve = explain.threshold_curve(x, codes[known], crit, n_classes,
                                        sample_weight=weights[known],
                                        min_samples_leaf=model.min_samples_leaf
                                        if isinstance(model.min_samples_leaf, int) else 1)
        if curve.empty:
            st.info("This feature has a single value at this node: no threshold splits it.")
            return
        if missing and getattr(model, "missing_", None) == "c4.5":
            rho = weights[known].sum() / weights.sum()
            curve["gain"] *= rho  # C4.5: gain on the known rows, times rho
            curve["gain_ratio"] = np.nan  # its split information counts the missing
        value, label = ("gain_ratio", "gain ratio") if crit == "gain_ratio" and \
            not curve["gain_ratio"].isna().all() else ("gain", "gain")
        chosen = s.threshold if choice == s.feature else None
        st.plotly_chart(viz.gain_curve_figure(curve, names[choice], chosen, value, label),
                        key=f"curve_{nid}")
    elif getattr(model, "multiway_", False):
        terms = explain.category_terms(values.to_numpy(dtype=object), codes, crit, n_classes,
                                       sample_weight=weights)
        st.plotly_chart(viz.category_terms_figure(terms, names[choice],
                                                  viz.impurity_label(crit)),
                        key=f"terms_{nid}")
        st.caption("One bar per category (one branch each): the branch's share of the "
                   "rows times its impurity. Their sum is the conditional impurity; the "
                   "gain is the node's impurity minus that sum.")
    else:
        labels = values.to_numpy(dtype=object)[known]
        bars = explain.category_gains(labels, codes[known], crit, n_classes,
                                      sample_weight=weights[known])
        st.plotly_chart(viz.category_figure(bars, names[choice]), key=f"bars_{nid}")
        st.caption("One bar per category: the gain of the split “this category against all "
                   "the others” at this node (CART searches groups of categories; these "
                   "are the single-category groups).")
    if missing:
        st.caption(f"{missing} row(s) at this node have no value of this feature; they are "
                   "left out of this chart.")


# -- decision regions ---------------------------------------------------------------
def decision_regions(tree, step):
    names = list(model.feature_names_in_)
    numeric = [f for f in range(len(names)) if not model.is_categorical_[f]]
    if len(numeric) < 2:
        st.info("Decision regions need two numeric features.")
        return
    order = sorted(numeric, key=lambda f: -model.feature_importances_[f])
    a, b = st.columns(2)
    fx = a.selectbox("Horizontal axis", numeric, index=numeric.index(order[0]), key="fx",
                     format_func=lambda f: viz.short(names[f], 60))
    rest = [f for f in numeric if f != fx]
    fy = b.selectbox("Vertical axis", rest,
                     index=rest.index(next(f for f in order if f != fx)), key="fy",
                     format_func=lambda f: viz.short(names[f], 60))
    X = fit.X_train_encoded
    point = typical_row(X)
    both = ~np.isnan(X[:, fx]) & ~np.isnan(X[:, fy])
    st.plotly_chart(viz.regions_figure(tree, model, fx, fy, point, X[both],
                                       prep.y_train[both]), key="regions")
    used = {int(f) for f in tree.feature[~tree.is_leaf()]} - {fx, fy}
    if used:
        others = ", ".join(viz.short(names[f], 30) for f in sorted(used))
        st.caption(f"The tree also splits on {md(others)}: the plane shown is the slice "
                   "where every other feature is at its training median (numeric) or its "
                   "most common value (categorical), so the rectangles are exactly the "
                   "leaves met there. Points are the training rows.")
    else:
        st.caption("At this step the tree splits only on these two features: the "
                   "rectangles are its leaves.")


def typical_row(X):
    """Median of each numeric feature, most common code of each categorical one
    (in the tree's encoding)."""
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


# -- scores -------------------------------------------------------------------------
def score_panel(step):
    train, test = fit.scores
    metric = "accuracy" if hasattr(model, "classes_") else "R²"
    st.plotly_chart(viz.score_figure(train, test, step, metric), key="scores")
    text = f"At step {step}: train {metric} {train[step]:.3f}"
    if len(prep.y_test):
        text += f", test {metric} {test[step]:.3f}"
    st.markdown(text + ".")


def tree_direction():
    """Top-down, or left-to-right for wide trees (decided on the final tree,
    so that the layout does not flip while stepping)."""
    choice = state.get("layout", "auto")
    if choice == "auto":
        return "LR" if model.tree_.n_leaves > 8 else "TB"
    return "LR" if choice == "left to right" else "TB"


stepper()
if first_run:
    state["first_run_at"] = time.monotonic()

    @st.fragment(run_every=0.3)
    def show_the_rest_soon():
        # runs once inside this run (nothing to do), then on the timer
        if time.monotonic() - state.get("first_run_at", 0.0) > 0.2:
            st.rerun()

    show_the_rest_soon()
