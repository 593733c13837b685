"""Grow page: step through the tree's growth and inspect every node."""

import time
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from dtree.views import explain, viz
from pages.shared import (chosen_parameters, criterion_name, current_setup, current_table,
                          fitted, growth_name, hist_notice, keys_legend, lang, md, prepared,
                          presenting, require_frame, said, sidebar_controls, step_dot,
                          table_title, tr)
from pages.shared import shown_step as link_step, step_button
from pages import imported
from pages.memory import arrow
from pages.terms import STOP_REASONS_ZH

SPEEDS = {"slow (2 s)": 2.0, "medium (1 s)": 1.0, "fast (0.5 s)": 0.5}
#: DOT font size in presenter mode: drawn large, scaled down to fit the window.
PRESENTER_FONT = 20
SPEEDS_ZH = {"slow (2 s)": "慢（2 秒）", "medium (1 s)": "中（1 秒）", "fast (0.5 s)": "快（0.5 秒）"}
state = st.session_state
require_frame()

table = current_table()
setup = current_setup(table)
opened = imported.current()  # a tree opened from a .skops file, if any
if opened is not None:
    table = opened  # (its key and title stand for the dataset's)


preset, criterion, params = chosen_parameters(opened.task if opened else setup.task)
sidebar_controls(opened.task if opened else setup.task, preset)
prep, error = (opened.fit.prep, None) if opened else prepared(table, setup)
if error:
    st.title(tr("Grow", "生长"))
    st.error(md(said(error)), icon=":material/error:")
    st.page_link("pages/data.py", label=tr("Choose the data", "选择数据"),
                 icon=":material/table:")
    st.stop()
if opened is not None:
    fit, error = opened.fit, None
    preset = f"scikit-learn {opened.kind}"
    if not presenting():  # (presenter mode has no sidebar; the title says scikit-learn)
        st.info(tr("This tree was fitted in scikit-learn: the sidebar's tree parameters do "
                   "not apply to it (it is shown as it was fitted, not refitted).",
                   "这棵决策树是在 scikit-learn 中训练的：侧边栏的决策树参数对它不起作用"
                   "（按原样显示，不会重新训练）。"), icon=":material/info:")
else:
    fit, error = fitted(table, setup, prep, preset, criterion, params)
if error:
    st.title(tr("Grow", "生长"))
    st.error(tr(f"The tree could not be grown: {md(error)}",
                f"无法生长决策树：{md(said(error))}"), icon=":material/error:")
    st.stop()
model = fit.model
n_steps = fit.n_steps
for note in fit.prep.notes[len(prep.notes):]:  # what this fit did to the data (ID3)
    st.caption(md(said(note)))
prep = fit.prep

heading = (f"{md(table_title(table))} · {preset} · {criterion_name(fit.criterion)} · "
           f"{growth_name(model.growth_)} · "
           + (tr(f"{len(prep.y_train):,} training rows", f"{len(prep.y_train):,} 个训练样本")
              if len(prep.y_train) or opened is None else
              tr("no training data", "没有训练数据")))
heading_short = f"{md(table_title(table))} · {preset} · {criterion_name(fit.criterion)}"
if opened is None:
    hist_notice(table, params)
if not presenting():  # (presenter mode: the bar carries a short title)
    st.markdown(f"### {heading}")


# -- step controls ----------------------------------------------------------------
def move(delta=None, to=None):
    step = shown_step() if to is None else to  # (the link's step before the slider's)
    if delta is not None:
        step += delta
    state["step"] = int(min(max(step, 0), n_steps))
    if to is not None or delta is not None and delta < 0:
        state["playing"] = False


def toggle_play():
    playing = not state.get("playing", False)
    if playing and shown_step() >= n_steps:
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
        if shown_step() < n_steps:
            state["step"] = shown_step() + 1
        else:
            state["playing"] = False
            st.rerun()

    step = shown_step()
    present = presenting()
    step_bar(step, compact=present)

    tree = fit.tree_at(step)  # (shared by the class, as the DOT: pages.shared)
    size = viz.tree_font_size(model.tree_.n_leaves)
    # presenter mode: drawn large, then scaled down to the window (app.py's CSS)
    dot, info = step_dot(fit, step, rankdir=tree_direction(),
                         fontsize=PRESENTER_FONT if present else size,
                         path=prediction_path(step), lang=lang(), compact=present)
    if present:
        with st.container(key="narration"):
            narrate(step, info, title=heading_short)
    with st.container(key="tree_box"):
        st.graphviz_chart(dot, width="content")
    if not present:
        narrate(step, info)
        colour_legend()
    if info.get("path"):
        st.caption(tr("Reddish-purple double outline and thick edges: the path of the sample "
                      "chosen in the Prediction tab (w = the share of it that takes a branch "
                      "under C4.5's rule for missing values).",
                      "紫红色双边框和粗边：在“预测”标签页中选定的样本经过的路径（w：在 C4.5 "
                      "的缺失值规则下，样本进入该分支的权重）。"))
    if info["depth_cut"] is not None:
        st.warning(tr(f"This tree has {tree.node_count:,} nodes; only the first "
                      f"{info['depth_cut']} levels are drawn (deeper nodes are grey “(...)” "
                      "boxes). Limit max_depth or max_leaf_nodes to see all of it.",
                      f"这棵树有 {tree.node_count:,} 个结点，只画出了前 {info['depth_cut']} "
                      "层（更深的结点显示为灰色的“(...)”方框）。限制 max_depth 或 "
                      "max_leaf_nodes 可以看到整棵树。"))

    if present:  # the inspector and the panels fold away below the tree
        more = st.expander(tr("Node inspector and panels", "结点检查与其他面板"),
                           key="more_panels", on_change="rerun", expanded=False)
        if not more.open:
            return
        with more:
            colour_legend()
            panels_view(tree, step)
    else:
        panels_view(tree, step)


def shown_step():
    """The step on screen (pages.shared.shown_step of the ?step= slider)."""
    return link_step("step", n_steps) if n_steps else 0


def step_bar(step, compact=False):
    """One row of controls: previous, next, play, reset, grow all, speed and
    the step slider (and in presenter mode, ``compact``: icons only, a step
    counter and the keys).  Previous is disabled at step 0 and Next at the
    last step, so that a key press never silently does nothing."""
    bar = st.container(horizontal=True, vertical_alignment="center", key="stepbar",
                       gap="small")

    button = partial(step_button, bar, compact=compact)
    button(tr("Previous step", "上一步"), "prev", ":material/skip_previous:", on_click=move,
           kwargs={"delta": -1}, disabled=step <= 0, shortcut="Left")
    button(tr("Next step", "下一步"), "next", ":material/skip_next:", on_click=move,
           kwargs={"delta": 1}, type="primary", disabled=step >= n_steps, shortcut="Right")
    button(tr("Pause", "暂停") if playing else tr("Play", "播放"), "play",
           ":material/pause:" if playing else ":material/play_arrow:", on_click=toggle_play,
           disabled=n_steps == 0, shortcut="P")
    button(tr("Reset", "重置"), "reset", ":material/restart_alt:", on_click=move,
           kwargs={"to": 0}, disabled=step <= 0, shortcut="Home")
    button(tr("Grow all", "全部生长"), "grow_all", ":material/fast_forward:", on_click=move,
           kwargs={"to": n_steps}, disabled=step >= n_steps, shortcut="End")
    names = {v: tr(v, SPEEDS_ZH[v]) for v in SPEEDS}
    if compact:  # just the interval
        names = {v: tr(f"every {t:g} s", f"每 {t:g} 秒") for v, t in SPEEDS.items()}
    bar.selectbox(tr("Speed", "速度"), list(SPEEDS), index=1, key="speed",
                  width=175 if compact else 180, format_func=names.get,
                  persist_state="session",
                  label_visibility="collapsed" if compact else "visible")
    if n_steps:
        where = bar if compact else st
        where.slider(tr("Step (splits made so far)", "步骤（已完成的划分次数）"), 0, n_steps,
                     key="step", bind="query-params",
                     label_visibility="collapsed" if compact else "visible",
                     width=260 if compact else "stretch")
    if compact:
        bar.markdown(tr(f"**step {step} / {n_steps}**", f"**第 {step} / {n_steps} 步**"),
                     width="content")
        keys_legend(tr("P play/pause", "P 播放/暂停"))


def colour_legend():
    best_first = model.growth_ == "best_first"
    st.caption(tr("Vermillion border: the node split in this step. Blue border: the next "
                  "node to split. gain: the split's impurity decrease; g(t): its "
                  "cost-complexity (R(t) − R(T_t)) / (|T_t| − 1)"
                  + ("; priority: the improvement a waiting leaf would bring (best-first "
                     "splits the largest next)." if best_first else "."),
                  "朱红色边框：本步划分的结点。蓝色边框：下一个要划分的结点。"
                  "类别分布：各类别的样本数（回归树为均值）；类别：预测的类别；"
                  "是/否：满足/不满足划分条件的分支。"
                  "增益：该划分使不纯度减少的量（信息熵准则下即信息增益 g(D,A)）；"
                  "g(t)：代价复杂度剪枝中该结点的 (R(t) − R(T_t)) / (|T_t| − 1)"
                  + ("；优先级：等待划分的叶结点被划分后能带来的改进量（最优优先生长"
                     "先划分最大的）。" if best_first else "。")))


def panels_view(tree, step):
    """The tabs below the tree: inspector, prediction, importances, regions,
    scores, growth orders, export (each computed only while open)."""
    labels = [label[lang() == "zh"] for label in panels()]
    if state.get("panel") not in labels:  # a tab opened in the other language
        for label in panels():
            if state.get("panel") in label:
                state["panel"] = label[lang() == "zh"]
    inspector, predict, importance, regions, accuracy, orders, export = st.tabs(
        labels, key="panel", on_change="rerun")
    if inspector.open is not False:
        with inspector:
            node_inspector(tree, step)
    # the panels are imported when first opened: a quicker first tree
    if predict.open:
        from pages.predict_panel import prediction_panel
        with predict:
            if not needs_data():
                prediction_panel(fit, step)
    if importance.open:
        from pages.predict_panel import importance_panel
        with importance:
            importance_panel(fit, step)
    if regions.open:
        with regions:
            if not needs_data():
                decision_regions(tree, step)
    if accuracy.open:
        with accuracy:
            if not needs_data():
                score_panel(step)
    if orders.open:
        from pages.orders_panel import growth_orders_panel
        with orders:
            if opened is not None:
                st.info(tr("Growth orders regrow the tree with dtree in each order; a tree "
                           "opened from scikit-learn is shown as it was fitted.",
                           "“生长顺序”会用 dtree 按每种顺序重新生长决策树；从 scikit-learn "
                           "打开的决策树按训练时的原样显示。"), icon=":material/info:")
            else:
                growth_orders_panel()
    if export.open:
        from pages.export_panel import export_panel
        with export:
            export_panel(model, step, title=table.title)


def needs_data():
    """True, after saying so, when the training rows are absent (a tree opened
    from a .skops file without a data file)."""
    if len(prep.y_train):
        return False
    st.info(imported.needs_data(), icon=":material/info:")
    return True


def panels():
    """The tabs' labels, (English, Chinese)."""
    score = ("Accuracy", "准确率") if hasattr(model, "classes_") else ("R²", "R²")
    return [("Node inspector", "结点检查"), ("Prediction", "预测"), ("Importances", "特征重要性"),
            ("Decision regions", "决策区域"), score, ("Growth orders", "生长顺序"),
            ("Export", "导出")]


def reason_text(reason):
    """Why a leaf stops (the engine's stop reason), in the interface language."""
    return STOP_REASONS_ZH.get(reason, reason) if lang() == "zh" else reason


def gain_word():
    """What the step's gain is called: gain ratio, or (information) gain."""
    if fit.criterion == "gain_ratio":
        return tr("gain ratio", "信息增益比")
    if fit.criterion in ("entropy", "log_loss"):
        return tr("gain", "信息增益")
    return tr("gain", "增益")


def prediction_path(step):
    """The path of the Prediction tab's sample, while that tab is open."""
    if state.get("panel") not in ("Prediction", "预测"):
        return None
    from pages.predict_panel import path_for_step
    return path_for_step(fit, step)


def split_phrase(s):
    """How a step splits, in Markdown (user text escaped)."""
    name = f"**{md(viz.short(s.feature_name, 60))}**"
    if s.kind == "numeric":
        return f"{name} ≤ {s.threshold:.4g}"
    if s.kind == "subset":
        group = md(viz.short(s.branches[0], 60))
        return tr(f"{name} ∈ {group} or not", f"{name} 是否 ∈ {group}")
    values = md(viz.short(', '.join(s.branches), 80))
    return tr(f"{name}, one branch per value ({values})", f"{name}，每个取值一个分支（{values}）")


def branch_sizes(s):
    if len(s.children) == 2 and s.kind == "numeric":
        return tr(f"{s.n_left:,} rows left, {s.n_right:,} right",
                  f"左侧 {s.n_left:,} 个样本，右侧 {s.n_right:,} 个")
    sizes = ", ".join(f"{n:,}" for n in s.n_children_samples)
    return tr(f"rows per branch: {sizes}", f"各分支样本数：{sizes}")


def narrate(step, info, title=None):
    """One sentence on what this step did (after a short ``title`` of the
    data and the algorithm, in presenter mode)."""
    sentence = step_sentence(step)
    if n_steps == 0 and not title:
        st.info(sentence)
    else:
        st.markdown(f"**{title}** · {sentence}" if title else sentence)


def step_sentence(step):
    """What this step did, in Markdown (user text escaped)."""
    if n_steps == 0:
        reason = md(reason_text(model.tree_.stop_reason[0] or "no split"))
        return tr(f"The root cannot be split ({reason}): the tree is a single leaf.",
                  f"根结点无法划分（{reason}）：决策树只有一个叶结点。")
    if step == 0:
        s = model.steps_[0]
        return tr(f"**Step 0 of {n_steps}:** the root holds all {s.n_node_samples:,} "
                  f"training rows. Next, node #{s.node} is split on {split_phrase(s)}.",
                  f"**第 0 步（共 {n_steps} 步）：** 根结点包含全部 {s.n_node_samples:,} "
                  f"个训练样本。下一步，结点 #{s.node} 将按 {split_phrase(s)} 划分。")
    s = model.steps_[step - 1]
    number = s.gain_ratio if fit.criterion == "gain_ratio" else s.gain
    value = f"{gain_word()} {number:.3f}"
    return tr(f"**Step {step} of {n_steps}:** node #{s.node} was split on "
              f"{split_phrase(s)} ({branch_sizes(s)}; {value}).",
              f"**第 {step} 步（共 {n_steps} 步）：** 结点 #{s.node} 按 "
              f"{split_phrase(s)} 划分（{branch_sizes(s)}；{value}）。")


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
        titles = [node_title(tree, i) for i in range(len(ids))]
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
            return tr(f"#{nid}: {name} ({len(kids)} branches)",
                      f"#{nid}：{name}（{len(kids)} 个分支）")
        return tr(f"#{nid}: {name} ≤ {tree.threshold[i]:.4g}",
                  f"#{nid}：{name} ≤ {tree.threshold[i]:.4g}")
    return tr(f"#{nid}: leaf, {tree.n_node_samples[i]:,} rows",
              f"#{nid}：叶结点，{tree.n_node_samples[i]:,} 个样本")


def node_details(tree, i, nid, step):
    full = model.tree_
    s = fit.step_of_node.get(nid)
    n = int(tree.n_node_samples[i])
    depth = int(tree.depth[i])
    st.subheader(tr(f"Node #{nid}: depth {depth}, {n:,} rows",
                    f"结点 #{nid}：深度 {depth}，{n:,} 个样本"))
    if s is not None and s.index < step:
        st.markdown(tr(f"Split in step {s.index + 1} on {split_phrase(s)}.",
                       f"在第 {s.index + 1} 步按 {split_phrase(s)} 划分。"))
    elif s is not None:
        st.markdown(tr(f"A leaf for now: step {s.index + 1} will split it on "
                       f"{split_phrase(s)}. The numbers below are that step's.",
                       f"目前是叶结点：第 {s.index + 1} 步将按 {split_phrase(s)} 划分它。"
                       "下面的数值是那一步的。"))
    else:
        reason = md(reason_text(full.stop_reason[nid] or "leaf"))
        st.markdown(tr(f"A leaf of the final tree (it stops because of: {reason}).",
                       f"最终决策树的叶结点（停止划分的原因：{reason}）。"))
        if full.stop_reason[nid] == MIN_OBJECTS:
            min_objects_leaf(full, nid)

    crit = fit.criterion
    classifier = hasattr(model, "classes_")
    st.latex(explain.impurity_definition(crit))
    if classifier:
        st.latex(latex_words(explain.impurity_latex(crit, explain.class_counts(tree, i),
                                                    value=tree.impurity[i])))
    else:
        st.latex(explain.regression_latex(crit, tree.weighted_n_node_samples[i],
                                          tree.value[i, 0, 0], tree.impurity[i]))
    if s is None:
        return None
    w = full.weighted_n_node_samples
    child_w = [w[c] for c in s.children]
    known = known_fraction(s)
    row = j48_row(s)
    penalised = row is not None and np.isfinite(row["mdl_penalty"])
    st.latex(explain.branches_gain_latex(crit, w[s.node], child_w, s.impurity,
                                         s.children_impurity,
                                         row["gain_before_mdl"] if penalised else s.gain, known))
    if known < 1.0:
        st.caption(tr(f"C4.5's rule for missing values: ρ = {known:.3f} of this node's "
                      "weight has a known value of the feature; the gain is computed on those "
                      "rows (D̃) and multiplied by ρ.",
                      f"C4.5 的缺失值处理：该结点的权重中有 ρ = {known:.3f} 在此特征上取值"
                      "已知；信息增益在这些样本（D̃）上计算，再乘以 ρ。"))
    elif s.kind == "numeric":
        st.caption(tr("D₁: the rows with the split feature ≤ the threshold (left); D₂: the "
                      "rest (right).",
                      "D₁：划分特征 ≤ 阈值的样本（左子结点）；D₂：其余样本（右子结点）。"))
    else:
        branches = md(", ".join(f"{v + 1} = {viz.short(b, 30)}"
                                for v, b in enumerate(s.branches[:8])))
        branches += "…" if len(s.branches) > 8 else ""
        st.caption(tr(f"D_v: the rows in branch v ({branches}).",
                      f"D_v：第 v 个分支中的样本（{branches}）。"))
    if row is not None:
        j48_rules(s, row, w[s.node], penalised)
    elif crit == "gain_ratio":
        for line in explain.branches_split_info_latex(w[s.node], child_w, s.split_info,
                                                      s.gain, s.gain_ratio):
            st.latex(line)
    st.latex(latex_words(explain.improvement_latex(w[s.node], w[0], s.gain,
                                                   s.improvement)))
    return s


#: The stop reason of J48's minimum-objects rule (dtree's stop_reason).
MIN_OBJECTS = "fewer than 2 branches with >= min_objects rows"


def j48_row(s):
    """The chosen row of a J48 step's candidate table (with J48's own
    columns), or None for the other algorithms."""
    if getattr(model, "algorithm", None) != "j48":
        return None
    cand = s.candidates
    if cand is None or "mdl_penalty" not in cand.columns:
        return None
    chosen = cand[cand["chosen"]]
    return chosen.iloc[0] if len(chosen) else None


def j48_rules(s, row, weight, penalised):
    """J48's rules beyond the textbook's, with the node's numbers: the MDL
    penalty on a numeric gain, and the rows with an unknown value as one
    more branch of the split information."""
    known_w = row["children_known_weight"]
    unknown = weight - float(np.sum(known_w))
    if unknown > 1e-6:
        st.latex(explain.known_fraction_latex(weight, float(np.sum(known_w))))
    if penalised:
        st.latex(explain.mdl_gain_latex(weight, row["n_cuts"], row["gain_before_mdl"], s.gain))
        st.caption(tr(
            f"J48's MDL penalty: choosing among C = {int(row['n_cuts'])} admissible cuts "
            f"costs log₂ C / |D| = {row['mdl_penalty']:.4f} bits of gain (|D| counts the rows "
            "with a missing value too). The gain ratio divides the penalised gain g′.",
            f"J48 的 MDL 惩罚：在 C = {int(row['n_cuts'])} 个可选切分点中选一个，信息增益要减去 "
            f"log₂ C / |D| = {row['mdl_penalty']:.4f}（|D| 也计入缺失值样本）。"
            "信息增益比用惩罚后的增益 g′ 计算。"))
    info, ratio = explain.unknown_split_info_latex(weight, known_w, s.split_info, s.gain,
                                                   s.gain_ratio, penalised)
    st.latex(info)
    st.latex(ratio)
    if unknown > 1e-6:
        st.caption(tr(
            f"J48 counts the rows with an unknown value (|D_?| = {unknown:.2f}) as one more "
            f"branch of the split information: its term is {row['split_info_unknown']:.4f}. "
            f"The gain is computed on the known rows and scaled by ρ = "
            f"{1 - row['missing_fraction']:.4f}.",
            f"J48 把取值未知的样本（|D_?| = {unknown:.2f}）算作分裂信息中多出的一个分支："
            f"它的那一项是 {row['split_info_unknown']:.4f}。信息增益在取值已知的样本上计算，"
            f"再乘以 ρ = {1 - row['missing_fraction']:.4f}。"))


def min_objects_leaf(full, nid):
    """Why J48's minimum-objects rule stops this leaf, with its numbers."""
    weight = float(full.weighted_n_node_samples[nid])
    m = float(model.min_objects)
    if weight < 2 * m - 1e-6:
        st.latex(explain.min_objects_latex(weight, m))
        st.caption(tr(f"Two branches of at least M = {m:g} rows each need 2M rows; this node "
                      f"has {weight:.2f}.",
                      f"两个分支各至少 M = {m:g} 个样本，共需 2M 个；该结点只有 {weight:.2f}。"))
        return
    cand = model.candidates(nid)
    if cand is None:
        return
    st.caption(tr("No feature can give two branches their minimum weight here (a nominal "
                  "feature: M rows of known value in at least 2 branches; a numeric one: "
                  "minSplit on each side of some cut):",
                  "这里没有特征能让两个分支各达到最小权重（类别特征：至少 2 个分支各有 M 个取值"
                  "已知的样本；数值特征：某个切分点两侧各至少 minSplit）："))
    st.table(arrow(min_objects_table(cand)), hide_index=True)


def min_objects_table(cand):
    """Each feature's known weight per branch against its minimum (text)."""
    def weights(v):
        return "–" if v is None or not isinstance(v, tuple) else \
            " | ".join(f"{x:.2f}" for x in v)
    return pd.DataFrame({
        tr("feature", "特征"): [md(viz.short(f, 48)) for f in cand["feature"]],
        tr("known weight per branch", "各分支已知权重"):
            [weights(v) for v in cand["children_known_weight"]],
        tr("minimum per branch", "每个分支的最小权重"):
            [f"{v:.2f}" for v in cand["min_branch_weight"]],
        tr("why not", "不能划分的原因"): [reason_text(r) if r else "" for r in cand["rejected"]],
    })


#: The words inside dtree.views.explain's formulas, in Chinese.
LATEX_ZH = {r"\text{improvement}": r"\text{改进量}",
            r"\text{a pure node}": r"\text{纯结点}"}


def latex_words(latex):
    """A formula with its few words in the interface language."""
    if lang() == "zh":
        for en, zh in LATEX_ZH.items():
            latex = latex.replace(en, zh)
    return latex


def known_fraction(s):
    """rho, the share of the node's weight with a known value of the split
    feature (below 1 only under C4.5's missing-value rule)."""
    if getattr(model, "missing_", None) != "c4.5" or s.candidates is None:
        return 1.0
    chosen = s.candidates[s.candidates["chosen"]]
    return 1.0 - float(chosen["missing_fraction"].iloc[0]) if len(chosen) else 1.0


ENTROPIES = ("entropy", "log_loss")


def candidate_table(cand, markdown=True):
    """The candidates as a table of text (Markdown-escaped for st.table)."""
    def fmt(x, spec):  # (+ 0.0: a pure child's entropy is -0.0 in floating point)
        return "–" if x is None or not np.isfinite(float(x)) else format(float(x) + 0.0, spec)

    def text(v, n):
        return md(viz.short(v, n)) if markdown else viz.short(v, n)

    def split(row):
        if row.kind == "numeric":
            return "–" if not np.isfinite(row.threshold) else f"≤ {row.threshold:.4g}"
        return text(row.children, 60)
    multi = cand["children_samples"].map(len).max() > 2 if len(cand) else False
    table = {
        tr("chosen", "选中"): ["✔" if c else "" for c in cand["chosen"]],
        tr("feature", "特征"): [text(f, 48) for f in cand["feature"]],
        tr("split", "划分"): [split(r) for r in cand.itertuples()],
        tr("gain", "信息增益" if fit.criterion in ENTROPIES else "增益"):
            [fmt(v, ".4f") for v in cand["gain"]],
        tr("gain ratio", "信息增益比"): [fmt(v, ".4f") for v in cand["gain_ratio"]],
    }
    if multi:
        table[tr("impurity per branch", "各分支不纯度")] = [
            " | ".join(fmt(v, ".3f") for v in imps) for imps in cand["children_impurity"]]
        table[tr("rows per branch", "各分支样本数")] = [
            " | ".join(str(n) for n in sizes) for sizes in cand["children_samples"]]
    else:
        table[tr("impurity left", "左侧不纯度")] = [fmt(v, ".4f") for v in cand["impurity_left"]]
        table[tr("impurity right", "右侧不纯度")] = [fmt(v, ".4f")
                                                  for v in cand["impurity_right"]]
        table[tr("rows left", "左侧样本数")] = [fmt(v, ".0f") for v in cand["n_left"]]
        table[tr("rows right", "右侧样本数")] = [fmt(v, ".0f") for v in cand["n_right"]]
    if (cand["missing_fraction"] > 0).any():
        table[tr("missing", "缺失比例")] = [fmt(v, ".1%") for v in cand["missing_fraction"]]
    if "mdl_penalty" in cand.columns:
        j48_columns(cand, table, fmt)
    return pd.DataFrame(table)


def j48_columns(cand, table, fmt):
    """J48's numbers per candidate: the gain before and after the MDL penalty
    (numeric features), the known fraction and the unknown branch's term of
    the split information, and why a feature cannot split."""
    gain_name = tr("gain", "信息增益" if fit.criterion in ENTROPIES else "增益")
    before, penalty = cand["gain_before_mdl"], cand["mdl_penalty"]
    # a feature the penalty rejects shows its penalised gain (<= 0) as well
    table[gain_name] = [fmt(g if np.isfinite(g) else b - p, ".4f")
                        for g, b, p in zip(cand["gain"], before, penalty)]
    if np.isfinite(penalty).any():
        table[tr("gain before MDL", "MDL 惩罚前的增益")] = [fmt(v, ".4f") for v in before]
        table[tr("MDL penalty", "MDL 惩罚")] = [fmt(v, ".4f") for v in penalty]
        table[tr("cuts C", "切分点数 C")] = [fmt(v, ".0f") for v in cand["n_cuts"]]
    if (cand["missing_fraction"] > 0).any():
        table[tr("known ρ", "已知比例 ρ")] = [fmt(1 - v, ".3f") for v in cand["missing_fraction"]]
        table[tr("unknown term of split info", "分裂信息中的未知分支项")] = [
            fmt(v, ".4f") for v in cand["split_info_unknown"]]
    if (cand["rejected"] != "").any():
        table[tr("why not", "不能划分的原因")] = [reason_text(r) if r else ""
                                              for r in cand["rejected"]]


def candidates_and_curve(s, nid):
    st.markdown(tr("**Every feature's best split at this node** (the chosen one first)",
                   "**该结点上每个特征的最佳划分**（选中的排在最前）"))
    if needs_data():
        return
    cand = s.candidates
    if cand is not None and len(cand) <= 30:
        st.table(fit.view(("candidates", nid, lang()), lambda: arrow(candidate_table(cand))),
                 hide_index=True)
    elif cand is not None:  # many features: a scrolling table
        st.dataframe(candidate_table(cand, markdown=False), hide_index=True, height=420)
    # drawn only when opened (the open state is remembered), so that stepping
    # stays quick
    chart = st.expander(tr("Gain of every split of one feature", "某个特征每个候选划分的增益"),
                        key="gain_chart", on_change="rerun", expanded=False)
    if chart.open:
        with chart:
            gain_chart(s, nid)


def gain_chart(s, nid):
    names = list(model.feature_names_in_)
    choice = st.selectbox(tr("Gain curve of feature", "查看增益的特征"), range(len(names)),
                          index=s.feature,
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
        bins = getattr(model, "bin_upper_", None)  # splitter="hist": the bin edges
        curve = explain.threshold_curve(x, codes[known], crit, n_classes,
                                        sample_weight=weights[known],
                                        min_samples_leaf=model.min_samples_leaf
                                        if isinstance(model.min_samples_leaf, int) else 1,
                                        bins=None if bins is None else
                                        (model.bin_lower_[choice], bins[choice]))
        if curve.empty:
            st.info(tr("This feature has a single value at this node: no threshold "
                       "splits it.", "该特征在此结点只有一个取值：没有阈值能划分它。"))
            return
        if missing and getattr(model, "missing_", None) == "c4.5":
            rho = weights[known].sum() / weights.sum()
            curve["gain"] *= rho  # C4.5: gain on the known rows, times rho
            curve["gain_ratio"] = np.nan  # its split information counts the missing
        ratio = crit == "gain_ratio" and not curve["gain_ratio"].isna().all()
        value = "gain_ratio" if ratio else "gain"
        label = tr("gain ratio", "信息增益比") if ratio else \
            tr("gain", "信息增益" if crit in ENTROPIES else "增益")
        chosen = s.threshold if choice == s.feature else None
        st.plotly_chart(viz.gain_curve_figure(curve, names[choice], chosen, value, label,
                                              lang=lang()),
                        key=f"curve_{nid}")
    elif getattr(model, "multiway_", False):
        terms = explain.category_terms(values.to_numpy(dtype=object), codes, crit, n_classes,
                                       sample_weight=weights)
        st.plotly_chart(viz.category_terms_figure(terms, names[choice],
                                                  viz.impurity_label(crit, lang()),
                                                  lang=lang()),
                        key=f"terms_{nid}")
        st.caption(tr("One bar per category (one branch each): the branch's share of the "
                      "rows times its impurity. Their sum is the conditional impurity; the "
                      "gain is the node's impurity minus that sum.",
                      "每个类别一根柱（各为一个分支）：该分支的样本占比乘以它的不纯度。各柱之和"
                      "是条件不纯度（以信息熵为准则时即条件熵 H(D|A)）；增益是结点的不纯度减去"
                      "这个和（信息增益 g(D,A) = H(D) − H(D|A)）。"))
    else:
        labels = values.to_numpy(dtype=object)[known]
        bars = explain.category_gains(labels, codes[known], crit, n_classes,
                                      sample_weight=weights[known])
        st.plotly_chart(viz.category_figure(bars, names[choice], lang=lang()),
                        key=f"bars_{nid}")
        st.caption(tr("One bar per category: the gain of the split “this category against "
                      "all the others” at this node (CART searches groups of categories; "
                      "these are the single-category groups).",
                      "每个类别一根柱：在该结点按“此类别对其余所有类别”划分的增益（CART "
                      "搜索的是类别的分组；这里画的是只含一个类别的分组）。"))
    if missing:
        st.caption(tr(f"{missing} row(s) at this node have no value of this feature; they "
                      "are left out of this chart.",
                      f"该结点有 {missing} 个样本缺少此特征的取值，图中没有包含它们。"))


# -- decision regions ---------------------------------------------------------------
def decision_regions(tree, step):
    names = list(model.feature_names_in_)
    numeric = [f for f in range(len(names)) if not model.is_categorical_[f]]
    if len(numeric) < 2:
        st.info(tr("Decision regions need two numeric features.",
                   "画决策区域需要至少两个数值特征。"))
        return
    order = sorted(numeric, key=lambda f: -model.feature_importances_[f])
    a, b = st.columns(2)
    fx = a.selectbox(tr("Horizontal axis", "横轴"), numeric, index=numeric.index(order[0]), key="fx",
                     format_func=lambda f: viz.short(names[f], 60))
    rest = [f for f in numeric if f != fx]
    fy = b.selectbox(tr("Vertical axis", "纵轴"), rest,
                     index=rest.index(next(f for f in order if f != fx)), key="fy",
                     format_func=lambda f: viz.short(names[f], 60))
    X = fit.X_train_encoded
    point = typical_row(X)
    both = ~np.isnan(X[:, fx]) & ~np.isnan(X[:, fy])
    st.plotly_chart(viz.regions_figure(tree, model, fx, fy, point, X[both],
                                       prep.y_train[both], lang=lang()), key="regions")
    used = {int(f) for f in tree.feature[~tree.is_leaf()]} - {fx, fy}
    if used:
        others = md(", ".join(viz.short(names[f], 30) for f in sorted(used)))
        st.caption(tr(f"The tree also splits on {others}: the plane shown is the slice "
                      "where every other feature is at its training median (numeric) or its "
                      "most common value (categorical), so the rectangles are exactly the "
                      "leaves met there. Points are the training rows.",
                      f"决策树还在 {others} 上划分：图中的平面是其他特征都取训练集中位数"
                      "（数值特征）或最常见取值（类别特征）时的截面，所以每个矩形正好是在该"
                      "截面上到达的一个叶结点。点是训练样本。"))
    else:
        st.caption(tr("At this step the tree splits only on these two features: the "
                      "rectangles are its leaves.",
                      "这一步的决策树只在这两个特征上划分：每个矩形就是一个叶结点。"))


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
    metric = tr("accuracy", "准确率") if hasattr(model, "classes_") else "R²"
    st.plotly_chart(viz.score_figure(train, test, step, metric, lang=lang()), key="scores")
    text = tr(f"At step {step}: train {metric} {train[step]:.3f}",
              f"第 {step} 步：训练集{metric} {train[step]:.3f}")
    if len(prep.y_test):
        text += tr(f", test {metric} {test[step]:.3f}", f"，测试集{metric} {test[step]:.3f}")
    st.markdown(text + tr(".", "。"))


def tree_direction():
    """Top-down, or left-to-right for wide trees (decided on the final tree,
    so that the layout does not flip while stepping).  In presenter mode,
    "auto" is the layout that draws the final tree largest in the window."""
    choice = state.get("layout", "auto")
    if choice == "auto":
        if presenting():  # judged on the grown tree's boxes, so it never flips
            final, _ = step_dot(fit, n_steps, fontsize=PRESENTER_FONT, lang=lang(),
                                compact=True, rankdir="TB")  # (shared by the class)
            return viz.fitting_direction(final)
        return "LR" if model.tree_.n_leaves > 8 else "TB"
    return "LR" if choice == "left to right" else "TB"


stepper()
