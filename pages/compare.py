"""Compare page: two to four trees on the same data and split, grown in lockstep."""

from functools import partial

import numpy as np
import streamlit as st

from dtree.views import compare, explain, viz
from dtree.tables.io import BUILTIN
from dtree.tables.prepare import PRESETS, Setup, criteria_for, infer_task
from pages.shared import (GROWTH, builtin_table, chosen_parameters, current_setup,
                          current_table, default_target, fitted, identifiers, inferred_types,
                          keys_legend, lang, md, prepared, presenting, require_frame, said,
                          shown_step, step_button, table_title, tr, use_table)

state = st.session_state
require_frame()


def criterion_name(c):
    return {
        "gini": tr("Gini", "基尼系数"),
        "entropy": tr("entropy", "信息熵"),
        "log_loss": tr("entropy", "信息熵"),
        "gain_ratio": tr("gain ratio", "信息增益比"),
        "misclassification": tr("misclassification", "误分类率"),
        "taylor2": tr("Taylor, second order", "二阶泰勒近似"),
        "squared_error": tr("squared error", "平方误差"),
        "absolute_error": tr("absolute error", "绝对误差"),
        "friedman_mse": tr("Friedman MSE", "Friedman 均方误差"),
        "poisson": tr("Poisson deviance", "泊松偏差"),
    }.get(c, c)


def growth_name(g):
    return {"depth_first": tr("depth-first", "深度优先"),
            "best_first": tr("best-first", "最佳优先"),
            "breadth_first": tr("breadth-first", "广度优先")}.get(g, g)


table = current_table()
setup = current_setup(table)
task = setup.task
classification = task == "classification"
present = presenting()
if not present:  # (presenter mode: titles and explanations fold away)
    st.title(tr("Compare trees", "比较决策树"))
prep, error = prepared(table, setup)
if error:
    st.error(md(said(error)), icon=":material/error:")
    st.page_link("pages/data.py", label=tr("Choose the data", "选择数据"),
                 icon=":material/table:")
    st.stop()
base_preset, base_criterion, base_params = chosen_parameters(task)
y_train = np.asarray(prep.y_train)
poisson_ok = not classification and len(y_train) and y_train.min() >= 0 and y_train.sum() > 0
if not present:
    st.markdown(tr(f"**{md(table.title)}** · {len(y_train):,} training rows, "
               f"{len(prep.y_test):,} test rows: the same data and the same split for every "
               "tree. Each column starts from the Grow page's parameters.",
               f"**{md(table.title)}** · 训练集 {len(y_train):,} 行，测试集 "
               f"{len(prep.y_test):,} 行：所有树使用相同的数据和相同的划分。"
               "每一列的初始参数取自“生长”页。"))


# -- the configurations -------------------------------------------------------------
# The default columns are the first pair of compare.CLASSIFICATION_PAIRS /
# REGRESSION_PAIRS whose trees part on this data (found by fitting them), so
# that the page opens on trees that differ, with where they part marked.
def pairs_for(task_):
    if task_ == "classification":
        return compare.CLASSIFICATION_PAIRS
    return tuple(pair for pair in compare.REGRESSION_PAIRS
                 if poisson_ok or all(c != "poisson" for _, c in pair))


PAIRS = pairs_for(task)
#: Columns 3 and 4 (when asked for): the next of these not already shown.
MORE = ([("CART", "gain_ratio"), ("CART", "misclassification"), ("CART", "entropy"),
         ("CART", "gini"), ("C4.5", "gain_ratio"), ("ID3", "entropy")] if classification else
        [("CART", c) for c in ("squared_error", "absolute_error", "friedman_mse", "poisson")
         if c != "poisson" or poisson_ok])
#: On a training set larger than this (rows × features) only the first pair is
#: tried, with the page's parameters: every try is a fit.
SEARCH_CELLS = 2_000_000


def parting(table_, setup_, prep_, params, adjustments=compare.ADJUSTMENTS):
    """compare.find_parting on a dataset, remembered for the session."""
    pairs = pairs_for(setup_.task)
    if prep_.X_train.size > SEARCH_CELLS:
        pairs, adjustments = pairs[:1], ({},)
    memo = state.setdefault("_cmp_parting", {})
    key = (table_.key, setup_, tuple(sorted(params.items())), pairs,
           tuple(tuple(sorted(a.items())) for a in adjustments))
    if key not in memo:
        def fit(preset, criterion, grown):
            result, error = fitted(table_, setup_, prep_, preset, criterion, grown)
            return None if error else result.model
        if len(memo) > 32:
            memo.clear()
        memo[key] = compare.find_parting(pairs, fit, params, adjustments)
    return memo[key]


choice = parting(table, setup, prep, base_params)
default_pair = choice.configs if choice is not None else PAIRS[0]
default_changes = choice.changes if choice is not None else {}


def default_config(i):
    """(preset, criterion, growth, parameter changes) of column i before the
    user changes it."""
    if i < 2:
        preset, criterion = default_pair[i]
        return preset, criterion, base_params["growth"], default_changes
    more = [c for c in MORE if c not in default_pair]
    if i - 2 < len(more):
        return (*more[i - 2], base_params["growth"], default_changes)
    # regression without Poisson: compare growth orders instead
    return "CART", "squared_error", "best_first", default_changes


def criterion_options(preset):
    options = list(criteria_for(task, preset))
    if classification and preset == "CART" and "taylor2" not in options:
        options.append("taylor2")
    if not classification and not poisson_ok:
        options = [c for c in options if c != "poisson"]
    return options


def settings(i):
    """Column i's widgets (in a popover); returns (preset, criterion, params)."""
    preset0, criterion0, growth0, changes0 = default_config(i)
    start = {**base_params, **changes0}
    n = i + 1
    preset = "CART"
    if classification:
        if state.get(f"cmp_p{n}") not in (None, *PRESETS):
            state.pop(f"cmp_p{n}")
        preset = st.selectbox(tr("Algorithm", "算法"), list(PRESETS), key=f"cmp_p{n}",
                              index=list(PRESETS).index(preset0), bind="query-params")
    options = criterion_options(preset)
    if state.get(f"cmp_c{n}") not in (None, *options):
        state.pop(f"cmp_c{n}")  # the preset changed: back to its first criterion
    index = options.index(criterion0) if criterion0 in options else 0
    criterion = st.selectbox(tr("Criterion", "划分准则"), options, index=index,
                             key=f"cmp_c{n}", format_func=criterion_name,
                             bind="query-params")
    growth = st.selectbox(tr("Growth order", "生长顺序"), list(GROWTH),
                          index=list(GROWTH).index(growth0), key=f"cmp_g{n}",
                          format_func=growth_name, bind="query-params")
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


def label_of(i, preset, criterion):
    text = f"{i + 1} · {criterion_name(criterion)}"
    return text + f" ({preset})" if preset != "CART" else text


# Each tree's compare.Profile is kept with its fit (Fit.profile): trained on
# the rows its fit used (ID3 leaves out rows with a missing value), tested on
# the same test rows as every other tree, and dropped with the fit when the
# size-bounded fit cache (pages.shared.MODELS) drops it.


@st.cache_resource(show_spinner=False, max_entries=32)
def _divergence(keys, _models):
    return compare.first_divergence(_models)


# One bar above the trees: the step buttons, then (presenter mode) how many
# trees and each tree's parameters; filled in below, once the trees are grown.
bar = st.container(horizontal=True, vertical_alignment="center", key="stepbar_cmp",
                   gap="small")
nav = bar.container(horizontal=True, vertical_alignment="center", gap="small", width="content")
knobs = bar.container(horizontal=True, vertical_alignment="center", gap="small",
                      width="content")
top = knobs if present else st.container(horizontal=True, gap="large")
n_configs = top.segmented_control(
    tr("Trees to compare", "比较的树的数量"), [2, 3, 4], default=2, key="cmp_n",
    bind="query-params", required=True,
    label_visibility="collapsed" if present else "visible")
n_configs = int(n_configs or 2)
if present:  # the trees share the width: one row
    per_row = n_configs
elif n_configs > 2:
    if int(state.get("cmp_row") or n_configs) > n_configs:
        state.pop("cmp_row", None)
    # two trees a row by default, so that they can be read (on a projector too)
    per_row = top.segmented_control(
        tr("Trees per row", "每行的树"), list(range(2, n_configs + 1)),
        default=2,
        key="cmp_row", bind="query-params", required=True,
        help=tr("Fewer trees per row draws each one larger (a wide tree is scaled down to "
                "fit its column). Each tree also has a full-screen button.",
                "每行的树越少，每棵树画得越大（较宽的树会缩小以适应所在的列）。"
                "每棵树也有全屏按钮。"))
    per_row = int(per_row or n_configs)
else:
    per_row = n_configs
heads = [knobs] * n_configs if present else st.columns(n_configs, gap="medium")
configs = []  # (column, label, profile or None, key)
for i, col in enumerate(heads):
    with col:
        title = None if present else st.container()  # (presenter: above the tree)
        with st.popover(tr(f"Tree {i + 1}", f"树 {i + 1}") if present else
                        tr("Parameters", "参数"), icon=":material/tune:",
                        key=f"cmp_pop{i + 1}", width="content" if present else "stretch"):
            preset, criterion, params = settings(i)
        label = label_of(i, preset, criterion)
        colour = compare.CONFIG_COLOURS[i]
        if title is not None:
            # constant markup: a colour bar linking the column to its lines in the charts
            title.html(f'<div style="height:8px;border-radius:4px;background:{colour}"></div>')
            title.markdown(f"##### {md(label)}")
            title.caption(f"{growth_name(params['growth'])} · max_depth "
                          f"{params['max_depth'] or '∞'} · min_samples_leaf "
                          f"{params['min_samples_leaf']} · max_leaf_nodes "
                          f"{params['max_leaf_nodes'] or '∞'}")
        fit, error = fitted(table, setup, prep, preset, criterion, params)
        if error:
            st.error(tr(f"This tree could not be grown: {md(error)}",
                        f"无法生成这棵树：{md(said(error))}"), icon=":material/error:")
            configs.append((i, label, None, None))
            continue
        key = (table.key, setup, preset, criterion, tuple(sorted(params.items())))
        configs.append((i, label, fit.profile, key))
        if fit.prep is not prep and not present:  # ID3 without rows with a missing value
            st.caption(tr(f"Trained on the {len(fit.prep.y_train):,} training rows without "
                          "a missing value (ID3 has no rule for them); tested on all "
                          f"{len(prep.y_test):,} test rows, like the other trees.",
                          f"只用没有缺失值的 {len(fit.prep.y_train):,} 个训练样本训练"
                          f"（ID3 没有处理缺失值的规则）；与其他树一样在全部 "
                          f"{len(prep.y_test):,} 个测试样本上测试。"))

ok = [c for c in configs if c[2] is not None]
if not ok:
    st.stop()
profiles = [c[2] for c in ok]
labels = [c[1] for c in ok]
max_steps = max(p.n_steps for p in profiles)


# -- lockstep ------------------------------------------------------------------------
def move(delta=None, to=None):
    step = state.get("cmp_step", 0) if to is None else to
    state["cmp_step"] = int(min(max(step + (delta or 0), 0), max_steps))


if state.get("cmp_step", 0) > max_steps:
    state["cmp_step"] = max_steps
divergence = _divergence(tuple(c[3] for c in ok), [p.model for p in profiles]) \
    if len(ok) > 1 else None
part_step = compare.divergence_step(divergence) if divergence is not None else None

step = shown_step("cmp_step", max_steps) if max_steps else 0  # (a link's, at first)


nav_button = partial(step_button, nav, compact=present)


# Previous/first are disabled at step 0 and Next/last at the last step, so
# that a key press never silently does nothing
nav_button(tr("First step", "第一步"), "cmp_first", ":material/first_page:", on_click=move,
           kwargs={"to": 0}, disabled=step <= 0, shortcut="Home")
nav_button(tr("Previous step", "上一步"), "cmp_prev", ":material/skip_previous:", on_click=move,
           kwargs={"delta": -1}, disabled=step <= 0, shortcut="Left")
nav_button(tr("Next step", "下一步"), "cmp_next", ":material/skip_next:", on_click=move,
           kwargs={"delta": 1}, type="primary", disabled=step >= max_steps, shortcut="Right")
nav_button(tr("Last step", "最后一步"), "cmp_last", ":material/last_page:", on_click=move,
           kwargs={"to": max_steps}, disabled=step >= max_steps, shortcut="End")
if part_step is not None:
    nav_button(tr("Go to where they part", "跳到分歧处"), "cmp_goto", ":material/call_split:",
               on_click=move, kwargs={"to": part_step})
if max_steps:
    (nav if present else st).slider(
        tr("Step (splits made so far, the same for every tree)",
           "步数（已完成的划分次数，所有树相同）"), 0, max_steps, key="cmp_step",
        bind="query-params", label_visibility="collapsed" if present else "visible",
        width=220 if present else "stretch")
if present:
    nav.markdown(tr(f"**step {step} / {max_steps}**", f"**第 {step} / {max_steps} 步**"),
                 width="content")
    keys_legend()
step = int(state.get("cmp_step", step)) if max_steps else 0


def pair_name(configs, changes):
    """"Gini (CART) and gain ratio (C4.5), no depth limit"."""
    names = [f"{criterion_name(c)} ({p})" for p, c in configs]
    text = tr(" and ", " 与 ").join(names)
    if "max_depth" in changes:
        text += tr(", no depth limit", "，不限深度")
    if "min_samples_leaf" in changes:
        text += tr(f", min_samples_leaf {changes['min_samples_leaf']}",
                   f"，min_samples_leaf {changes['min_samples_leaf']}")
    return text


def set_columns(configs, params):
    """(on_click) Show ``configs``, every one with ``params``."""
    state["cmp_n"] = len(configs)
    for n, (preset, criterion) in enumerate(configs, start=1):
        state[f"cmp_p{n}"], state[f"cmp_c{n}"] = preset, criterion
        state[f"cmp_g{n}"] = params["growth"]
        state[f"cmp_d{n}"] = params["max_depth"]
        state[f"cmp_l{n}"] = params["min_samples_leaf"]
        state[f"cmp_m{n}"] = params["max_leaf_nodes"]


def use_dataset(title, configs, params):
    """(on_click) Make a built-in dataset the one in use, and show ``configs``."""
    use_table(builtin_table(title))
    set_columns(configs, params)


def fresh_setup(other):
    """The data choices a dataset starts with (pages.shared.current_setup
    once use_table has forgotten the old ones)."""
    frame = other.frame
    target = default_target(other)
    others = [c for c in frame.columns if c != target]
    skip = set(identifiers(other.key, frame))
    features = tuple(c for c in others if c not in skip) or tuple(others)
    types, _ = inferred_types(other.key, frame)
    categorical = tuple(c for c in features if types.get(c) == "categorical")
    return Setup(target, features, categorical, infer_task(frame[target]),
                 float(other.default_test_size), 0)


def offer_parting_trees():
    """Buttons that make the trees part, each checked by fitting: another pair
    on this data (perhaps grown deeper, or with larger leaves), and another
    built-in dataset on which the first pairs part as they are."""
    params = dict(ok[0][3][4])  # the first tree's parameters
    found = parting(table, setup, prep, params)
    offers = st.container(horizontal=True)
    if found is not None:
        offers.button(tr(f"Compare {pair_name(found.configs, found.changes)} "
                         f"(they part at step {found.step})",
                         f"比较{pair_name(found.configs, found.changes)}"
                         f"（在第 {found.step} 步分开）"),
                      key="cmp_try_pair", icon=":material/call_split:", on_click=set_columns,
                      args=(found.configs, found.params))
    for title in BUILTIN:
        if table.key == f"builtin:{title}":
            continue
        other = builtin_table(title)
        other_setup = fresh_setup(other)
        other_prep, error = prepared(other, other_setup)
        there = None if error else parting(other, other_setup, other_prep, base_params,
                                           adjustments=({},))
        if there is not None:
            name = table_title(other)
            offers.button(tr(f"Use {name}: {pair_name(there.configs, {})} part at step "
                             f"{there.step}",
                             f"改用{name}：{pair_name(there.configs, {})}在第 {there.step} "
                             "步分开"),
                          key="cmp_try_data", icon=":material/dataset:", on_click=use_dataset,
                          args=(title, there.configs, there.params))
            break


if len(ok) > 1:
    sentence = compare.divergence_text(divergence, [p.model for p in profiles],
                                       [f"**{md(label)}**" for label in labels], escape=md,
                                       lang=lang())
    if divergence is not None and part_step is not None:
        sentence += tr(f" They part at step {part_step}.", f"它们在第 {part_step} 步分开。")
    if divergence is None:
        sentence += tr(" On this data these settings lead to the same tree; one click below "
                       "shows trees that part.",
                       "在这份数据上这些设置得到同一棵树；点击下面的按钮可以看到会分开的树。")
    if present:
        narration = st.container(key="narration")
        narration.markdown(sentence)
    else:
        st.info(sentence, icon=":material/call_split:")
    if divergence is None:
        offer_parting_trees()
    elif default_changes and [c[3][2:4] for c in ok] == list(default_pair) and all(
            dict(c[3][4]) == choice.params for c in ok):
        where = narration if present else st
        where.caption(tr(f"Both trees use {pair_name((), default_changes).lstrip(', ')}: with "
                         "the Grow page's parameters every pair of criteria tried grows the "
                         "same tree on this data.",
                         f"两棵树都使用 {pair_name((), default_changes).lstrip('，')}：使用“生长”页"
                         "的参数时，所试过的每一对划分准则在这份数据上都得到同一棵树。"))


# -- the trees -------------------------------------------------------------------------
# Constant CSS (no user text): a tree wider than its column is scaled down to
# fit, never up, so that its text keeps one size while the trees grow.
st.html("<style>[class*='st-key-cmp_tree'] [data-testid='stGraphVizChart'] svg "
        "{max-width: 100%; height: auto;}</style>")
# Presenter mode: drawn large, then scaled down to the window (app.py's CSS
# for containers keyed tree_box*; the trees start lower than Grow's).
if present:
    st.html("<style>[class*='st-key-tree_box_cmp'] { --dtree-above-tree: 9.8rem; }</style>")
FONT = {2: 20, 3: 20, 4: 20} if present else {2: 14, 3: 12, 4: 12}
cells = []
for start in range(0, n_configs, per_row):
    cells.extend(st.columns(per_row, gap="medium"))
for i, label, profile, _ in configs:
    if profile is None:
        continue
    with cells[i].container(key=f"cmp_tree{i + 1}"):
        if per_row < n_configs or present:  # the columns of settings are not above
            bar_px = 4 if present else 6
            st.html(f'<div style="height:{bar_px}px;border-radius:3px;'
                    f'background:{compare.CONFIG_COLOURS[i]}"></div>')
            st.markdown(f"**{md(label)}**")
        model = profile.model
        k = min(step, profile.n_steps)
        dot, info = viz.step_dot(model, k, fontsize=FONT[per_row], lang=lang(),
                                 compact=present)
        tree = profile.tree(k)
        if divergence is not None:
            node = compare.node_at(tree, divergence.path)
            if node is not None:
                dot = compare.highlight_dot(dot, node)
        with st.container(key=f"tree_box_cmp{i + 1}"):
            st.graphviz_chart(dot, width="content")
        _, train, test = profile.step_scores
        metric = tr("accuracy", "准确率") if classification else "R²"
        done = tr(" (fully grown)", "（已生长完毕）") if k == profile.n_steps else ""
        leaves = f"{tree.n_leaves} leaf" if tree.n_leaves == 1 else f"{tree.n_leaves} leaves"
        text = tr(f"Step {k} of {profile.n_steps}{done} · {leaves} · "
                  f"depth {tree.max_depth}  \ntrain {metric} **{train[k]:.3f}**",
                  f"第 {k} / {profile.n_steps} 步{done} · {tree.n_leaves} 个叶结点 · "
                  f"深度 {tree.max_depth}  \n训练集{metric} **{train[k]:.3f}**")
        if np.isfinite(test[k]):
            text += tr(f" · test {metric} **{test[k]:.3f}**",
                       f" · 测试集{metric} **{test[k]:.3f}**")
        st.markdown(text)
        if info["depth_cut"] is not None:
            st.caption(tr(f"Only the first {info['depth_cut']} levels are drawn.",
                          f"只画出了前 {info['depth_cut']} 层。"))
(st.expander(tr("What the colours mean", "颜色的含义")) if present else st).caption(tr(
              "Thick reddish-purple border: the node where the trees first part. "
              "Vermillion: the node split in this step; blue: the next node to split. "
              "A tree with fewer steps stays fully grown once the step passes its last.",
              "粗的紫红色边框：各树第一次出现分歧的结点。朱红色：这一步划分的结点；"
              "蓝色：下一个要划分的结点。步数较少的树在超过其最后一步后保持完全生长的状态。"))


# -- charts ------------------------------------------------------------------------------
CHARTS = {"scores": tr("Accuracy", "准确率") if classification else "R²",
          "agreement": tr("Agreement", "预测一致性"),
          "impurity": tr("Impurity functions", "不纯度函数")}
chart = st.segmented_control(tr("Chart", "图表"), list(CHARTS), default="scores",
                             format_func=CHARTS.get, key="cmp_chart", bind="query-params",
                             required=True) or "scores"
if chart == "scores":
    metric = tr("accuracy", "准确率") if classification else "R²"
    st.plotly_chart(compare.scores_figure(profiles, labels, step, metric, lang=lang()),
                    key="cmp_scores_fig")
    st.caption(tr("Solid: training set; dashed: test set. Left: the grown tree cut at each "
                  "depth (for depth-first growth this is the tree refit with that max_depth). "
                  "Right: the tree after each step, against its number of leaves; circles "
                  "mark where each tree is at the current step.",
                  "实线：训练集；虚线：测试集。左：把生成的树截断到各个深度（深度优先生长时，"
                  "它等于以该 max_depth 重新训练的树）。右：每一步之后的树，横轴为叶结点数；"
                  "圆圈标出每棵树在当前步的位置。"))
elif chart == "agreement":
    if not len(prep.y_test):
        st.info(tr("There is no test set (the test fraction is 0 on the Data page).",
                   "没有测试集（“数据”页上的测试集比例为 0）。"))
    else:
        preds = [p.test_predictions(min(step, p.n_steps)) for p in profiles]
        matrix = compare.agreement_matrix(preds, classification)
        st.plotly_chart(compare.agreement_figure(matrix, labels, classification, lang=lang()),
                        key="cmp_agree_fig")
        st.caption(tr(f"At step {step} (each tree at its own last step if it has fewer), "
                      f"on the {len(prep.y_test):,} test rows.",
                      f"第 {step} 步（步数较少的树取其最后一步），基于 {len(prep.y_test):,} "
                      "个测试样本。"))
else:
    if not classification:
        st.info(tr("The impurity functions of this chart are those of classification trees; "
                   "this target is numeric (a regression tree).",
                   "此图中的不纯度函数用于分类树；当前目标是数值（回归树）。"))
    else:
        model = profiles[0].model
        k1 = min(step, profiles[0].n_steps)
        node = model.steps_[k1 - 1].node if k1 else 0
        p, two = compare.node_share(model, node)
        st.plotly_chart(compare.impurity_figure(p, two, lang=lang()), key="cmp_impurity_fig")
        counts = explain.class_counts(model.growth_tree_, node)
        own = ", ".join(f"{criterion_name(c)} {explain.impurity_from_counts(c, counts):.3f}"
                        for c in ("entropy", "gini", "misclassification", "taylor2"))
        first = md(labels[0])
        where = (tr(f"node #{node} of tree {first} (split in step {k1})",
                    f"树 {first} 的结点 #{node}（在第 {k1} 步划分）") if k1 else
                 tr(f"the root of tree {first}", f"树 {first} 的根结点"))
        if two:
            share = tr(f"the share of class {md(model.classes_[1])}",
                       f"类别 {md(model.classes_[1])} 所占比例")
        else:
            share = tr("the share of its majority class (it has more than two classes; the "
                       "curves are the two-class case)",
                       "其多数类所占比例（该结点有两个以上的类别；曲线是二分类的情形）")
        st.markdown(tr(f"The marker: {where}, p = {p:.3f} = {share}. Its own impurities, "
                       f"over all its classes: {own}.",
                       f"标记：{where}，p = {p:.3f} = {share}。按其全部类别计算的不纯度："
                       f"{own}。"))
        st.caption(tr("Gini is the first-order Taylor expansion of the entropy in nats "
                      "(−ln p around p = 1) and stays close to half the entropy in bits; the "
                      "second-order expansion Σ pₖ[(1−pₖ) + (1−pₖ)²/2] approximates the "
                      "entropy in nats more closely (at p = 0.5: 0.625 against ln 2 ≈ 0.693, "
                      "Gini 0.5).",
                      "基尼系数是以 e 为底的信息熵（−ln p 在 p = 1 处）的一阶泰勒展开，"
                      "与以比特为单位的信息熵的一半很接近；二阶展开 Σ pₖ[(1−pₖ) + (1−pₖ)²/2] "
                      "更接近以 e 为底的信息熵（p = 0.5 时为 0.625，而 ln 2 ≈ 0.693，"
                      "基尼系数为 0.5）。"))
