"""Compare page: two to four trees on the same data and split, grown in lockstep."""

import numpy as np
import streamlit as st

from dtree import compare, explain, viz
from dtree.prepare import PRESETS, criteria_for
from pages.shared import (GROWTH, chosen_parameters, current_setup, current_table, fitted,
                          lang, md, prepared, presenting, require_frame, tr)

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
st.title(tr("Compare trees", "比较决策树"))
prep, error = prepared(table, setup)
if error:
    st.error(md(error), icon=":material/error:")
    st.page_link("pages/data.py", label=tr("Choose the data", "选择数据"),
                 icon=":material/table:")
    st.stop()
base_preset, base_criterion, base_params = chosen_parameters(task)
y_train = np.asarray(prep.y_train)
poisson_ok = not classification and len(y_train) and y_train.min() >= 0 and y_train.sum() > 0
st.markdown(tr(f"**{md(table.title)}** · {len(y_train):,} training rows, "
               f"{len(prep.y_test):,} test rows: the same data and the same split for every "
               "tree. Each column starts from the Grow page's parameters.",
               f"**{md(table.title)}** · 训练集 {len(y_train):,} 行，测试集 "
               f"{len(prep.y_test):,} 行：所有树使用相同的数据和相同的划分。"
               "每一列的初始参数取自“生长”页。"))


# -- the configurations -------------------------------------------------------------
def default_config(i):
    """(preset, criterion, growth) of column i before the user changes it."""
    if classification:
        return "CART", ("gini", "entropy", "gain_ratio", "misclassification")[i], \
            base_params["growth"]
    if i == 3 and not poisson_ok:  # Poisson needs y >= 0: compare growth orders instead
        return "CART", "squared_error", "best_first"
    return "CART", ("squared_error", "absolute_error", "friedman_mse", "poisson")[i], \
        base_params["growth"]


def criterion_options(preset):
    options = list(criteria_for(task, preset))
    if classification and preset == "CART" and "taylor2" not in options:
        options.append("taylor2")
    if not classification and not poisson_ok:
        options = [c for c in options if c != "poisson"]
    return options


def settings(i):
    """Column i's widgets (in a popover); returns (preset, criterion, params)."""
    preset0, criterion0, growth0 = default_config(i)
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
    max_depth = st.number_input("max_depth", 1, 64, base_params["max_depth"],
                                key=f"cmp_d{n}", placeholder=tr("no limit", "不限"),
                                bind="query-params")
    min_leaf = st.number_input("min_samples_leaf", 1, 10_000, base_params["min_samples_leaf"],
                               key=f"cmp_l{n}", bind="query-params")
    max_leaves = st.number_input("max_leaf_nodes", 2, 10_000, base_params["max_leaf_nodes"],
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


top = st.container(horizontal=True, gap="large")
n_configs = top.segmented_control(
    tr("Trees to compare", "比较的树的数量"), [2, 3, 4], default=4, key="cmp_n",
    bind="query-params", required=True)
n_configs = int(n_configs or 4)
if n_configs > 2:
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
heads = st.columns(n_configs, gap="medium")
configs = []  # (column, label, profile or None, key)
for i, col in enumerate(heads):
    with col:
        title = st.container()
        with st.popover(tr("Parameters", "参数"), icon=":material/tune:", key=f"cmp_pop{i + 1}",
                        width="stretch"):
            preset, criterion, params = settings(i)
        label = label_of(i, preset, criterion)
        colour = compare.CONFIG_COLOURS[i]
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
                        f"无法生成这棵树：{md(error)}"), icon=":material/error:")
            configs.append((i, label, None, None))
            continue
        key = (table.key, setup, preset, criterion, tuple(sorted(params.items())))
        configs.append((i, label, fit.profile, key))
        if fit.prep is not prep:  # ID3 without the rows that have a missing value
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

bar = st.container(horizontal=True, vertical_alignment="bottom")
bar.button(tr("Previous step", "上一步"), key="cmp_prev", on_click=move, kwargs={"delta": -1},
           icon=":material/skip_previous:", disabled=max_steps == 0)
bar.button(tr("Next step", "下一步"), key="cmp_next", on_click=move, kwargs={"delta": 1},
           type="primary", icon=":material/skip_next:", disabled=max_steps == 0)
if part_step is not None:
    bar.button(tr("Go to where they part", "跳到分歧处"), key="cmp_goto", on_click=move,
               kwargs={"to": part_step}, icon=":material/call_split:")
if max_steps:
    st.slider(tr("Step (splits made so far, the same for every tree)",
                 "步数（已完成的划分次数，所有树相同）"), 0, max_steps, key="cmp_step",
              bind="query-params")
step = int(state.get("cmp_step", 0)) if max_steps else 0

if len(ok) > 1:
    sentence = compare.divergence_text(divergence, [p.model for p in profiles],
                                       [f"**{md(label)}**" for label in labels], escape=md,
                                       lang=lang())
    if divergence is not None and part_step is not None:
        sentence += tr(f" They part at step {part_step}.", f"它们在第 {part_step} 步分开。")
    if divergence is None:
        sentence += tr(" On this data these settings lead to the same tree; try another "
                       "dataset (Wine, Penguins) or change a column's parameters.",
                       "在这份数据上这些设置得到同一棵树；可以换一个数据集（Wine、Penguins），"
                       "或修改某一列的参数。")
    st.info(sentence, icon=":material/call_split:")


# -- the trees -------------------------------------------------------------------------
# Constant CSS (no user text): a tree wider than its column is scaled down to
# fit, never up, so that its text keeps one size while the trees grow.
st.html("<style>[class*='st-key-cmp_tree'] [data-testid='stGraphVizChart'] svg "
        "{max-width: 100%; height: auto;}</style>")
FONT = {2: 16, 3: 14, 4: 14} if presenting() else {2: 14, 3: 12, 4: 12}
cells = []
for start in range(0, n_configs, per_row):
    cells.extend(st.columns(per_row, gap="medium"))
for i, label, profile, _ in configs:
    if profile is None:
        continue
    with cells[i].container(key=f"cmp_tree{i + 1}"):
        if per_row < n_configs:  # the columns of settings are no longer above
            st.html(f'<div style="height:6px;border-radius:3px;'
                    f'background:{compare.CONFIG_COLOURS[i]}"></div>')
            st.markdown(f"**{md(label)}**")
        model = profile.model
        k = min(step, profile.n_steps)
        dot, info = viz.step_dot(model, k, fontsize=FONT[per_row])
        tree = profile.tree(k)
        if divergence is not None:
            node = compare.node_at(tree, divergence.path)
            if node is not None:
                dot = compare.highlight_dot(dot, node)
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
st.caption(tr("Thick reddish-purple border: the node where the trees first part. "
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
