"""Prune page: post-pruning of the current tree, shown step by step.

Four views (kept in the URL as ?prune_view=): minimal cost-complexity pruning
(the path against alpha, cross-validation with the 1-SE rule, the tree at the
chosen alpha), the weakest-link sequence one collapse at a time,
reduced-error and pessimistic pruning side by side, and C4.5's error-based
pruning (Weka J48's, with subtree raising) one decision at a time.
"""

from functools import partial

import numpy as np
import streamlit as st

from dtree.views import pruneview as pv
from dtree import (ccp_cross_validate, ccp_holdout, ccp_prune, error_based_prune, pessimistic_prune,
                   pruning_sequence, reduced_error_prune)
from dtree.views.viz import JUST_SPLIT, NEXT_SPLIT, fitting_direction
from pages.shared import (current_fit, current_setup, current_table, keys_legend, lang, md,
                          presenting, require_frame, said, shown_step, step_button, tr)
from pages import imported
from pages.terms import STOP_REASONS_ZH, zh

state = st.session_state
require_frame()

VIEWS = ("ccp", "steps", "rep_pep", "ebp")
CONFIDENCES = (0.05, 0.1, 0.25, 0.4, 0.5)
FOLDS = (3, 5, 10)


def view_name(view):
    return {"ccp": tr("Cost-complexity pruning", "代价复杂度剪枝"),
            "steps": tr("Weakest-link steps", "最弱环节逐步剪枝"),
            "rep_pep": tr("REP and PEP", "REP 与 PEP"),
            "ebp": tr("EBP (C4.5)", "EBP（C4.5）")}[view]


def show_table(frame):
    """A table in large type (small tables) or a scrolling one; numbers to 4
    significant digits, True flags as a mark."""
    shown = frame.copy()
    for column in frame.columns:
        if frame[column].dtype == bool:
            shown[column] = np.where(frame[column], "◀", "")
        elif frame[column].dtype.kind == "f":
            shown[column] = [pv.fmt(v) for v in frame[column]]
    if len(frame) <= 16:
        st.table(shown, hide_index=True)
    else:
        st.dataframe(shown, hide_index=True, height=420)


def draw(dot, info, box="tree_box_prune"):
    """A tree, in a container that presenter mode scales to the window."""
    with st.container(key=box):
        st.graphviz_chart(dot, width="content")
    if info["depth_cut"] is not None:
        st.caption(tr(f"Large tree: only the first {info['depth_cut']} levels are drawn "
                      "(deeper nodes are grey “(...)” boxes).",
                      f"树很大：只画出前 {info['depth_cut']} 层（更深的结点画成灰色“(...)”框）。"))


#: Presenter mode: trees drawn large with compact boxes, then scaled down to
#: the window (app.py's CSS for containers keyed tree_box*).
BIG = {"fontsize": 20, "compact": True} if presenting() else {}
if presenting():  # how far down the trees start (constant CSS)
    st.html("<style>.st-key-tree_box_prune { --dtree-above-tree: 7.7rem; } "
            "[class*='st-key-tree_box_prune_'] { --dtree-above-tree: 11.1rem; } "
            ".st-key-tree_box_prune_ebp { --dtree-above-tree: 12.4rem; }</style>")


def direction():
    """Top-down, or left to right for wide trees (the Grow page's layout choice)."""
    choice = state.get("layout", "auto")
    if choice == "auto":
        if presenting():  # the layout that draws the full tree largest
            return fitting_direction(pv.tree_dot(model, tree0, lang=lang(), **BIG)[0])
        return "LR" if model.tree_.n_leaves > 8 else "TB"
    return "LR" if choice == "left to right" else "TB"


def g_of(table):
    """{node id: g(t)} of a cost_complexity_table."""
    return dict(zip(table["node_id"].astype(int), table["g"]))


# -- the tree ---------------------------------------------------------------------
present = presenting()
if not present:  # (presenter mode: titles and explanations fold away)
    st.title(tr("Prune", "剪枝"))
head = st.container(horizontal=True, vertical_alignment="center", key="prune_head") \
    if present else st.container()
full = head.toggle(tr("Full tree first", "先完全生长") if present else
                  tr("Grow the full tree first (no max_depth / leaf limit)",
                     "先让树完全生长（不限 max_depth 和叶结点数）"),
                 value=True, key="prune_full", bind="query-params",
                 help=tr("Post-pruning starts from a deep tree. Off: the tree grown with the "
                         "Grow page's limits.",
                         "后剪枝从一棵很深的树开始。关闭时：使用“生长”页面的限制条件生长的树。"))
fit, error = current_fit(max_depth=None, max_leaf_nodes=None) if full else current_fit()
if error:
    st.error(tr("The tree could not be grown: ", "无法生长决策树：") + md(said(error)),
             icon=":material/error:")
    st.stop()
model, prep = fit.model, fit.prep
classifier = hasattr(model, "classes_")
table_in_use = current_table()
setup = current_setup(table_in_use)
if imported.current() is not None:  # a tree opened from a .skops file
    table_in_use = imported.current()
    st.info(tr("This tree was fitted in scikit-learn: it is pruned as it was fitted (the "
               "toggle above and the Grow page's parameters do not apply).",
               "这棵决策树是在 scikit-learn 中训练的：按训练时的原样剪枝（上面的开关和“生长”"
               "页面的参数对它不起作用）。"), icon=":material/info:")
seq = pv.memo(fit, "sequence", lambda: pruning_sequence(model.tree_))
tree0 = seq.tree
about_box = head.popover(tr("About", "说明"), icon=":material/info:") if present else st
about_box.markdown(tr(
               f"**{md(table_in_use.title)}** · criterion {md(model.criterion)} · "
               f"{tree0.n_leaves} leaves, {tree0.node_count} nodes, depth {tree0.max_depth} · "
               f"{len(prep.y_train):,} training rows",
               f"**{md(table_in_use.title)}** · 划分准则 {md(model.criterion)} · "
               f"{tree0.n_leaves} 个叶结点，{tree0.node_count} 个结点，深度 {tree0.max_depth} · "
               f"{len(prep.y_train):,} 个训练样本"))
about_box.caption(tr(
              "The other tree parameters are the Grow page's. Pruning removes branches of "
              "a grown tree (后剪枝, post-pruning): each pruned node becomes a leaf "
              "that predicts its majority class (or mean).",
              "其他参数与“生长”页面相同。后剪枝从已生长的树上剪去分支：被剪的内部结点变为"
              "叶结点，按多数表决（回归为均值）给出预测。"))
if len(seq) == 0:
    reason = model.tree_.stop_reason[0] or "no split"
    st.info(tr(f"The tree is a single leaf ({md(reason)}): there is nothing to prune. "
               "Turn on “Grow the full tree first” or relax the Grow page's limits.",
               f"这棵树只有一个叶结点（{md(zh(STOP_REASONS_ZH, reason, reason))}）：没有可剪的分支。"
               "请打开“先让树完全生长”，"
               "或放宽“生长”页面的限制。"), icon=":material/info:")
    st.stop()

view_names = {v: view_name(v) for v in VIEWS}  # in this run's language
view = head.segmented_control(tr("Method", "方法"), VIEWS, default="ccp", key="prune_view",
                              format_func=view_names.get, bind="query-params", required=True,
                              label_visibility="collapsed" if present else "visible")


# -- cost-complexity pruning ------------------------------------------------------
def computed(key, compute, spinner=None):
    """``compute()`` once per fit (kept on it); None, after a warning, if the
    engine refuses (e.g. a fold without a usable split)."""
    if pv.has_memo(fit, key):
        return pv.memo(fit, key, None)
    try:
        if spinner is None:
            return pv.memo(fit, key, compute)
        with st.spinner(spinner, show_time=True):
            return pv.memo(fit, key, compute)
    except (ValueError, TypeError) as exc:
        st.warning(tr("Could not compute this part: ", "这一部分无法计算：") + md(said(exc)),
                   icon=":material/warning:")
        return None


def cross_validated(folds):
    seed = int(setup.seed)
    # ccp_cross_validate grows and prunes one tree per fold: seconds on large data
    return computed(("cv", folds, seed), lambda: ccp_cross_validate(
        model, prep.X_train, prep.y_train, cv=folds, random_state=seed),
        spinner=tr(f"Cross-validating: growing and pruning {folds} trees…",
                   f"交叉验证中：生长并剪枝 {folds} 棵树…"))


def set_alpha(value):
    state["prune_alpha"] = value


def fold_choice():
    n_train = len(prep.y_train)
    options = [f for f in FOLDS if f <= n_train] or [n_train]
    if state.get("prune_folds") not in options:
        state.pop("prune_folds", None)
    return int(st.segmented_control(
        tr("Cross-validation folds", "交叉验证折数"), options, key="prune_folds",
        default=5 if 5 in options else options[-1], required=True, bind="query-params",
        help=tr("The training rows are shuffled (with the data page's seed) and cut into "
                "folds; each fold is predicted by trees grown and pruned on the others.",
                "训练样本按“数据”页面的随机种子打乱后分成若干折；每一折由在其余折上生长并剪枝的树来预测。")))


def alpha_buttons(labels, alpha_1se, alpha_min, alphas):
    """The α stepping buttons (← → Home End: one subtree more or less pruned,
    none, all) and the suggested choices."""
    buttons = st.container(horizontal=True, vertical_alignment="center", gap="small",
                           key="stepbar_alpha")
    current = state.get("prune_alpha")
    if current not in alphas:  # first run: the slider's default, or the link's
        current = alphas[0] if alpha_1se is None else alpha_1se
        asked = st.query_params.get("prune_alpha")
        for a in alphas:
            if asked is not None and labels.get(a) == asked:
                current = a
    at = alphas.index(current)

    def alpha_button(label, key, icon, to, **kwargs):
        step_button(buttons, label, key, icon, present, on_click=set_alpha,
                    args=(alphas[to],), **kwargs)
    # disabled at the ends, so that a key press never silently does nothing
    alpha_button(tr("No pruning (α = 0)", "不剪枝（α = 0）"), "prune_use_0",
                ":material/first_page:", 0, disabled=at == 0, shortcut="Home")
    alpha_button(tr("Smaller α: one subtree less pruned", "更小的 α：少剪一棵子树"),
                "prune_alpha_prev", ":material/skip_previous:", max(at - 1, 0),
                disabled=at == 0, shortcut="Left")
    alpha_button(tr("Larger α: one subtree more pruned", "更大的 α：多剪一棵子树"),
                "prune_alpha_next", ":material/skip_next:", min(at + 1, len(alphas) - 1),
                type="primary", disabled=at == len(alphas) - 1, shortcut="Right")
    alpha_button(tr("Largest α: the root alone", "最大的 α：只剩根结点"), "prune_alpha_last",
                ":material/last_page:", len(alphas) - 1, disabled=at == len(alphas) - 1,
                shortcut="End")
    if alpha_1se is not None:
        one_se = tr(f"Use the 1-SE choice (α = {labels[alpha_1se]})",
                    f"采用 1-SE 规则（α = {labels[alpha_1se]}）")
        lowest = tr(f"Use the minimum CV error (α = {labels[alpha_min]})",
                    f"采用最小 CV 误差（α = {labels[alpha_min]}）")
        buttons.button("1-SE" if present else one_se, key="prune_use_1se",
                       help=one_se if present else None,
                       on_click=set_alpha, args=(alpha_1se,), icon=":material/star:")
        buttons.button(tr("min CV", "最小 CV") if present else lowest, key="prune_use_min",
                       help=lowest if present else None,
                       on_click=set_alpha, args=(alpha_min,))
    if present:
        keys_legend()
    return buttons


def error_panel(cv, holdout, alpha, labels):
    """The error chart and the 1-SE rule in words."""
    st.plotly_chart(pv.error_figure(cv, holdout, alpha, lang(), not classifier),
                    key="prune_error_chart")
    best, limit, chosen = pv.one_se_rule(cv)
    row, pick = cv.iloc[best], cv.iloc[chosen]
    a_min, a_1se = pv.fmt(row.alpha), pv.fmt(pick.alpha)
    st.markdown(tr(
        f"**1-SE rule** (as rpart's plotcp): the smallest CV error is "
        f"{pv.fmt(row.cv_error)} ± {pv.fmt(row.cv_se)} (SE) at α = {a_min} "
        f"({int(row.n_leaves)} leaves); the simplest tree with CV error ≤ "
        f"{pv.fmt(row.cv_error)} + {pv.fmt(row.cv_se)} = {pv.fmt(limit)} has "
        f"{int(pick.n_leaves)} leaves, α = {a_1se}.",
        f"**1-SE 规则**（同 rpart 的 plotcp）：最小 CV 误差为 {pv.fmt(row.cv_error)} ± "
        f"{pv.fmt(row.cv_se)}（标准误），在 α = {a_min}（{int(row.n_leaves)} 个叶结点）；"
        f"CV 误差 ≤ {pv.fmt(row.cv_error)} + {pv.fmt(row.cv_se)} = {pv.fmt(limit)} 的最简单"
        f"子树有 {int(pick.n_leaves)} 个叶结点，α = {a_1se}。"))
    n_train = len(prep.y_train)
    st.caption(tr(
        f"{cv.attrs['cv']}-fold cross-validation on the {n_train:,} training rows "
        "(each fold's tree is pruned at the geometric middle of T_k's α interval); "
        "SE = standard deviation of the per-row losses / √n."
        + (" Test: the held-out test rows." if holdout is not None else
           " No test split (the data page's test fraction is 0)."),
        f"在 {n_train:,} 个训练样本上做 {cv.attrs['cv']} 折交叉验证（每折的树在 T_k 的 α 区间的"
        "几何中点处剪枝）；SE = 逐样本损失的标准差 / √n。"
        + ("测试集：留出的测试样本。" if holdout is not None else
           "没有测试集（“数据”页面的测试比例为 0）。")))


def ccp_view():
    about = head.popover(tr("Charts", "图表"),
                         icon=":material/show_chart:") if present else st.container()
    about.subheader(tr("Minimal cost-complexity pruning", "代价复杂度剪枝（CART）"))
    about.markdown(tr(
        "Each tree T pays for its leaves: C_α(T) = R(T) + α|T|, where R(T) is the "
        "weighted impurity of its leaves. Collapsing an internal node t into a leaf costs "
        "nothing once α reaches g(t); the node with the smallest g(t) — the **weakest "
        "link** — goes first. Raising α from 0 gives nested trees T₀ ⊃ T₁ ⊃ … ⊃ {root}.",
        "每棵树都要为叶结点付出代价：C_α(T) = R(T) + α|T|，其中 R(T) 为叶结点的加权不纯度之和。"
        "当 α 达到 g(t) 时，把内部结点 t 剪成叶结点不再增加代价；g(t) 最小的结点（**最弱环节**）"
        "最先被剪。α 从 0 增大，得到嵌套的子树序列 T₀ ⊃ T₁ ⊃ … ⊃ {根}。"))
    about.latex(r"C_\alpha(T) = R(T) + \alpha|T|,\qquad R(t) = \frac{N_t}{N}\,I(t),\qquad "
             r"g(t) = \frac{R(t) - R(T_t)}{|T_t| - 1}")

    with about:
        if len(prep.y_train):
            cv = cross_validated(fold_choice())
        else:  # a tree opened from a .skops file without its data
            cv = None
            st.info(imported.needs_data(), icon=":material/info:")
    holdout = None
    if len(prep.y_test):
        holdout = computed("holdout", lambda: ccp_holdout(model, prep.X_test, prep.y_test))
    alphas = [float(a) for a in pv.subtree_alphas(seq)[0]]
    labels = dict(zip(alphas, pv.alpha_labels(alphas)))
    # the CV table lists the same trees (its full tree is this one, refitted)
    if cv is not None and np.array_equal(cv["alpha"].to_numpy(), alphas):
        best, _, chosen = pv.one_se_rule(cv)
        alpha_1se, alpha_min = alphas[chosen], alphas[best]
    else:
        cv = alpha_1se = alpha_min = None

    charts = about.container()
    bar = alpha_buttons(labels, alpha_1se, alpha_min, alphas)
    alpha = (bar if present else st).select_slider(
        tr("α (ccp_alpha): each value is where one more subtree is pruned",
           "α（ccp_alpha）：每个取值处又有一棵子树被剪掉"),
        options=alphas, value=alphas[0] if alpha_1se is None else alpha_1se,
        key="prune_alpha", bind="query-params",
        format_func=lambda a: labels.get(a, str(a)),  # a label stands for itself (tests)
        label_visibility="collapsed" if present else "visible",
        width=200 if present else "stretch")
    with charts:
        left, right = st.columns(2)
        left.plotly_chart(pv.path_figure(seq, alpha, lang()), key="prune_path_chart")
        right.plotly_chart(pv.leaves_figure(seq, alpha, lang()), key="prune_leaves_chart")
        if cv is not None:
            error_panel(cv, holdout, alpha, labels)
    pruned_at(alpha, labels)


def pruned_at(alpha, labels):
    """The trees, the node table and the weakest link's costs at ``alpha``."""
    k = seq.n_steps_for(alpha)
    pruned = ccp_prune(tree0, alpha)
    table = seq.table_at(k)
    keep = seq.keep_mask(k)
    collapsed = [int(s.node_id) for s in seq.steps[:k] if keep[s.node]]
    weakest = table.loc[table["weakest_link"]]
    highlight = {nid: JUST_SPLIT for nid in collapsed}
    if len(weakest):
        highlight[int(weakest["node_id"].iloc[0])] = NEXT_SPLIT
    (st.container(key="narration") if present else st).markdown(tr(
        f"**At α = {labels[alpha]}:** {k} weakest-link collapse(s) (every g(t) ≤ α); the "
        f"pruned tree has {pruned.n_leaves} leaves and {pruned.node_count} nodes "
        f"(the full tree: {tree0.n_leaves} and {tree0.node_count}).",
        f"**α = {labels[alpha]} 时：** 做了 {k} 次最弱环节剪枝（所有 g(t) ≤ α）；剪枝后的树有 "
        f"{pruned.n_leaves} 个叶结点、{pruned.node_count} 个结点（完整的树：{tree0.n_leaves} 和 "
        f"{tree0.node_count}）。"))
    rankdir = direction()
    side_by_side = tree0.n_leaves <= 8 or present
    first, second = st.columns(2) if side_by_side else (st.container(), st.container())
    with first:
        (st.caption if present else st.markdown)(tr("**The pruned tree**", "**剪枝后的树**"))
        draw(box="tree_box_prune_a", *pv.tree_dot(model, pruned, g_by_id=g_of(table), highlight=highlight,
                          lang=lang(), rankdir=rankdir, **BIG))
    with second:
        (st.caption if present else st.markdown)(tr("**The full tree, pruned branches greyed out**",
                       "**完整的树（被剪掉的分支为灰色）**"))
        draw(box="tree_box_prune_b", *pv.greyed_dot(model, tree0, keep, collapsed=collapsed, g_by_id=g_of(table),
                            highlight={n: c for n, c in highlight.items() if c == NEXT_SPLIT},
                            lang=lang(), rankdir=rankdir, **BIG))
    more = st.expander(tr("The numbers at this α", "这个 α 下的计算")) if present else st
    more.caption(tr("Vermillion border: an internal node pruned into a leaf. Blue border: the "
                  "weakest link, the next node to collapse as α grows. Grey, dashed: the "
                  "branches removed. g(t) is shown for the internal nodes of the pruned tree.",
                  "橙红色边框：被剪成叶结点的内部结点。蓝色边框：最弱环节，α 继续增大时下一个被剪的结点。"
                  "灰色虚线：被剪掉的分支。剪枝后的树的内部结点标出了 g(t)。"))

    with more if present else st.container():
        weakest_link(table, weakest, alpha)


def weakest_link(table, weakest, alpha):
    """The pruned tree's node table and the weakest link's two costs."""
    st.markdown(tr("**Internal nodes of the pruned tree** (◀ marks the weakest link: the "
                   "smallest g(t))",
                   "**剪枝后的树的内部结点**（◀ 标出最弱环节：g(t) 最小的结点）"))
    show_table(pv.node_table(table, lang()))
    if len(weakest):
        w = weakest.iloc[0]
        st.markdown(tr(f"Weakest link: node #{int(w.node_id)}. At this α collapsing it still "
                       "costs more than keeping it; the two costs meet at α = g(t):",
                       f"最弱环节：结点 #{int(w.node_id)}。在当前 α 下剪掉它的代价仍高于保留它；"
                       "两者在 α = g(t) 时相等："))
        st.latex(pv.g_latex(w.R_t, w.R_Tt, w.n_leaves, w.g))
        for line in pv.cost_complexity_latex(w.R_t, w.R_Tt, w.n_leaves, alpha):
            st.latex(line)


# -- the weakest-link sequence, step by step ----------------------------------------
def move(delta=None, to=None):
    step = state.get("prune_step", 0) if to is None else to
    if delta is not None:
        step += delta
    state["prune_step"] = int(min(max(step, 0), len(seq)))


def step_sentence(k, n, tree):
    """What step ``k`` of the weakest-link sequence did, in Markdown."""
    if k == 0:
        return tr(f"**Step 0 of {n}:** the full tree T₀, {tree.n_leaves} leaves, "
                  f"R(T) = {pv.fmt(seq.impurities[0])}.",
                  f"**第 0 步（共 {n} 步）：** 完整的树 T₀，{tree.n_leaves} 个叶结点，"
                  f"R(T) = {pv.fmt(seq.impurities[0])}。")
    s = seq.steps[k - 1]
    return tr(f"**Step {k} of {n}:** node #{s.node_id} was the weakest link and became a "
              f"leaf, removing {s.n_removed} node(s); the tree now has {s.total_leaves} "
              f"leaves and R(T) = {pv.fmt(s.total_cost)}.",
              f"**第 {k} 步（共 {n} 步）：** 结点 #{s.node_id} 是最弱环节，被剪成叶结点，"
              f"去掉了 {s.n_removed} 个结点；现在树有 {s.total_leaves} 个叶结点，"
              f"R(T) = {pv.fmt(s.total_cost)}。")


def steps_view():
    n = len(seq)
    if not present:
        st.subheader(tr("Weakest-link pruning, one collapse at a time",
                        "最弱环节剪枝：每步剪掉一个结点"))
        st.markdown(tr("At each step the internal node with the smallest g(t) (the lowest id "
                       "on a tie) becomes a leaf; then R(T_t) and |T_t| of its ancestors are "
                       "updated.",
                       "每一步把 g(t) 最小的内部结点（相等时取编号最小的）剪成叶结点，然后更新其"
                       "祖先结点的 R(T_t) 和 |T_t|。"))
    if state.get("prune_step", 0) > n:
        state["prune_step"] = n
    k0 = shown_step("prune_step", n)
    bar = st.container(horizontal=True, vertical_alignment="center", key="stepbar_prune",
                       gap="small")

    button = partial(step_button, bar, compact=present)
    # disabled at the ends, so that a key press never silently does nothing
    button(tr("Reset", "重置"), "prune_reset", ":material/first_page:", on_click=move,
           kwargs={"to": 0}, disabled=k0 <= 0, shortcut="Home")
    button(tr("Previous", "上一步"), "prune_prev", ":material/skip_previous:", on_click=move,
           kwargs={"delta": -1}, disabled=k0 <= 0, shortcut="Left")
    button(tr("Next", "下一步"), "prune_next", ":material/skip_next:", on_click=move,
           kwargs={"delta": 1}, type="primary", disabled=k0 >= n, shortcut="Right")
    button(tr("Last", "最后一步"), "prune_last", ":material/last_page:", on_click=move,
           kwargs={"to": n}, disabled=k0 >= n, shortcut="End")
    ghost = bar.toggle(tr("Show the removed nodes greyed", "以灰色显示已剪掉的结点"),
                       key="prune_ghost", value=False)
    k = (bar if present else st).slider(
        tr("Step (collapses made so far)", "步数（已剪的次数）"), 0, n, key="prune_step",
        bind="query-params", label_visibility="collapsed" if present else "visible",
        width=220 if present else "stretch")
    if present:
        bar.markdown(tr(f"**step {k} / {n}**", f"**第 {k} / {n} 步**"), width="content")
        keys_legend()
    steps = seq.steps
    tree = seq.tree_at(k)
    table = seq.table_at(k)
    highlight = {}
    if k > 0:
        highlight[steps[k - 1].node_id] = JUST_SPLIT
    if k < n:
        highlight[steps[k].node_id] = NEXT_SPLIT
    if ghost:
        keep = seq.keep_mask(k)
        collapsed = [int(s.node_id) for s in steps[:k] if keep[s.node]]
        dot, info = pv.greyed_dot(model, tree0, keep, collapsed=collapsed, g_by_id=g_of(table),
                                  highlight={steps[k].node_id: NEXT_SPLIT} if k < n else None,
                                  lang=lang(), rankdir=direction(), **BIG)
    else:
        dot, info = pv.tree_dot(model, tree, g_by_id=g_of(table), highlight=highlight,
                                lang=lang(), rankdir=direction(), **BIG)

    if present:  # the sentence, the tree scaled to the window, the numbers folded
        with st.container(key="narration"):
            st.markdown(step_sentence(k, n, tree))
        draw(dot, info)
        right = st.expander(tr("The numbers of this step", "这一步的计算"))
    else:
        left, right = st.columns([3, 2], gap="large")
        with left:
            draw(dot, info)
            st.caption(tr("Vermillion border: the node collapsed in this step. Blue border: "
                          "the next weakest link.",
                          "橙红色边框：这一步剪掉的结点。蓝色边框：下一个最弱环节。"))
    with right:
        if not present:
            st.markdown(step_sentence(k, n, tree))
        if k > 0:
            s = steps[k - 1]
            before = seq.tree_at(k - 1)
            i = int(np.flatnonzero(before.node_ids == s.node_id)[0])
            st.latex(pv.cost_latex(before, i, model.criterion))
            st.latex(pv.branch_cost_latex(before, i))
            st.latex(pv.g_latex(s.R_t, s.R_Tt, s.n_leaves, s.alpha))
            st.caption(tr(f"So for every α ≥ {pv.fmt(s.alpha)} the subtree below node "
                          f"#{s.node_id} is pruned (its effective α).",
                          f"因此当 α ≥ {pv.fmt(s.alpha)} 时，结点 #{s.node_id} 下的子树被剪掉"
                          "（它的有效 α）。"))
        if k < n:
            nxt = steps[k]
            st.markdown(tr(f"Next: node #{nxt.node_id}, g(t) = {pv.fmt(nxt.alpha)}.",
                           f"下一步：结点 #{nxt.node_id}，g(t) = {pv.fmt(nxt.alpha)}。"))
        else:
            st.markdown(tr("The root is a leaf: the sequence is complete.",
                           "根结点已成为叶结点：剪枝序列结束。"))
    if k < n:
        st.markdown(tr("**Internal nodes at this step** (◀ the weakest link)",
                       "**这一步的内部结点**（◀ 最弱环节）"))
        show_table(pv.node_table(table, lang()))


# -- REP and PEP ----------------------------------------------------------------------
def node_choice(record, key, default_row):
    ids = [int(v) for v in record["node_id"]]
    if state.get(key) not in ids:
        state[key] = ids[default_row]
    return st.selectbox(tr("Show the numbers of node", "查看结点的计算"), ids, key=key,
                        format_func=lambda v: f"#{v}")


def pruned_ids(record):
    return [int(v) for v in record.loc[record["pruned"], "node_id"]]


def rep_panel():
    st.subheader(tr("Reduced-error pruning (REP)", "错误率降低剪枝（REP）"))
    if not len(prep.y_test):
        st.info(tr("REP needs a validation set, and this page uses the test split for it: "
                   "set a test fraction above 0 on the Data page.",
                   "REP 需要验证集，本页使用测试集作为验证集：请在“数据”页面把测试比例设为大于 0。"),
                icon=":material/info:")
        return
    st.markdown(tr(
        f"Validation set: **the test split** ({len(prep.y_test):,} rows) — so after REP the "
        "test error is no longer an independent estimate. Bottom-up, a node becomes a leaf "
        "when that does not increase the validation "
        + ("squared error." if not classifier else "errors."),
        f"验证集：**测试集**（{len(prep.y_test):,} 个样本），因此 REP 之后测试误差不再是独立的估计。"
        "自下而上，若把结点剪成叶结点不会增加验证集上的"
        + ("平方误差" if not classifier else "误判数") + "，就剪掉它。"))
    result = computed("rep", lambda: reduced_error_prune(model, prep.X_test, prep.y_test))
    if result is None:
        return
    record = result.record
    cut = pruned_ids(record)
    st.markdown(tr(f"{len(cut)} node(s) pruned: {tree0.n_leaves} → {result.tree.n_leaves} "
                   f"leaves; validation {'errors' if classifier else 'squared error'} "
                   f"{pv.fmt(record.attrs['errors_start'])} → "
                   f"{pv.fmt(record['tree_errors'].iloc[-1])}.",
                   f"剪掉 {len(cut)} 个结点：叶结点 {tree0.n_leaves} → {result.tree.n_leaves}；"
                   f"验证集{'误判数' if classifier else '平方误差'} "
                   f"{pv.fmt(record.attrs['errors_start'])} → "
                   f"{pv.fmt(record['tree_errors'].iloc[-1])}。"))
    kept = set(int(v) for v in result.tree.node_ids)
    draw(box="tree_box_prune_rep", *pv.tree_dot(model, result.tree, highlight={n: JUST_SPLIT for n in cut if n in kept},
                      lang=lang(), rankdir=direction(), **BIG))
    show_table(pv.rep_table(record, not classifier, lang()))
    nid = node_choice(record, "prune_rep_node", len(record) - 1)
    row = record.loc[record["node_id"] == nid].iloc[0]
    st.latex(pv.rep_latex(row, not classifier))
    st.markdown(tr("→ prune (as a leaf it does no worse)" if row["pruned"] else
                   "→ keep (the subtree does better)",
                   "→ 剪枝（作为叶结点不比子树差）" if row["pruned"] else "→ 保留（子树更好）"))


def pep_panel():
    st.subheader(tr("Pessimistic error pruning (PEP)", "悲观剪枝（PEP）"))
    if not classifier:
        st.info(tr("PEP counts misclassified training samples (with a continuity correction "
                   "of 0.5 per leaf), so it applies to classification trees only. This is a "
                   "regression tree.",
                   "PEP 统计训练样本的误判数（每个叶结点加 0.5 的连续性修正），因此只适用于分类树。"
                   "当前是回归树。"), icon=":material/info:")
        return
    st.markdown(tr(
        "Training data only. Top-down, each leaf's errors get +0.5 (continuity correction); "
        "a node becomes a leaf when its corrected errors are below the subtree's corrected "
        "errors plus one standard error: E(t) < E(T_t) + SE(T_t).",
        "只用训练集。自上而下，每个叶结点的误判数加 0.5（连续性修正）；若结点作为叶结点的修正误判数"
        "小于子树的修正误判数加一个标准差，即 E(t) < E(T_t) + SE(T_t)，就剪掉它。"))
    result = computed("pep", lambda: pessimistic_prune(model))
    if result is None:
        return
    record = result.record
    cut = pruned_ids(record)
    st.markdown(tr(f"{len(cut)} node(s) pruned: {tree0.n_leaves} → {result.tree.n_leaves} "
                   "leaves. Nodes below a pruned node are not looked at.",
                   f"剪掉 {len(cut)} 个结点：叶结点 {tree0.n_leaves} → {result.tree.n_leaves}。"
                   "被剪结点以下的结点不再考察。"))
    draw(box="tree_box_prune_pep", *pv.tree_dot(model, result.tree, highlight={n: JUST_SPLIT for n in cut},
                      lang=lang(), rankdir=direction(), **BIG))
    show_table(pv.pep_table(record, lang()))
    st.caption(tr("e = misclassified training samples. E(T_t) = the leaves' errors + 0.5 per "
                  "leaf; SE = √(E(T_t)·(1 − E(T_t)/N(t))); E(t) = e(t) + 0.5, the node as a "
                  "leaf.",
                  "e = 训练样本的误判数。E(T_t) = 各叶结点误判数之和 + 每个叶结点 0.5；"
                  "SE = √(E(T_t)·(1 − E(T_t)/N(t)))；E(t) = e(t) + 0.5，即结点作为叶结点时。"))
    nid = node_choice(record, "prune_pep_node", 0)
    row = record.loc[record["node_id"] == nid].iloc[0]
    for line in pv.pep_latex(row):
        st.latex(line)
    st.markdown(tr("→ prune" if row["pruned"] else "→ keep",
                   "→ 剪枝" if row["pruned"] else "→ 保留"))


def rep_pep_view():
    left, right = st.columns(2, gap="large")
    with left:
        rep_panel()
    with right:
        pep_panel()


# -- C4.5's error-based pruning -----------------------------------------------------
def ebp_move(delta=None, to=None):
    step = state.get("prune_ebp_step", 1) if to is None else to
    if delta is not None:
        step += delta
    state["prune_ebp_step"] = int(min(max(step, 1), state.get("prune_ebp_n", 1)))


def ebp_sentence(row, k, n):
    nid, b = int(row["node_id"]), int(row["branch_id"])
    moved = "" if row["split_of_id"] == row["node_id"] else tr(
        f" (now holding the split of node #{int(row['split_of_id'])}, raised into it)",
        f"（现在是提升上来的结点 #{int(row['split_of_id'])} 的划分）")
    what = {
        "prune": tr("becomes a leaf: as a leaf its estimated errors are no more than its "
                    "subtree's + 0.1 and its largest branch's + 0.1.",
                    "被剪成叶结点：作为叶结点的估计错误数不超过子树的 + 0.1，也不超过最大分支的 + 0.1。"),
        "raise": tr(f"is replaced by its largest branch #{b} (subtree raising): the branch, "
                    "with all of the node's training rows sent through it, is estimated no "
                    "worse than the subtree + 0.1. Its rows are sent down again and the "
                    "raised node is decided again.",
                    f"被它的最大分支 #{b} 取代（子树提升）：把结点的全部训练样本送入该分支，"
                    "其估计错误数不超过子树的 + 0.1。样本重新向下分配，提升上来的结点再判断一次。"),
        "keep": tr("is kept: its subtree is estimated better than the node as a leaf and than "
                   "its largest branch.",
                   "被保留：子树的估计错误数比作为叶结点时、也比最大分支都少。"),
    }[row["decision"]]
    return tr(f"**Decision {k} of {n}:** node #{nid}{moved} {what}",
              f"**第 {k} 个决定（共 {n} 个）：** 结点 #{nid}{moved}{what}")


def ebp_view():
    if not present:
        st.subheader(tr("Error-based pruning (C4.5, as Weka's J48 does it)",
                        "基于错误的剪枝（EBP，C4.5；与 Weka 的 J48 相同）"))
    if not classifier:
        st.info(tr("Error-based pruning counts misclassified training rows, so it applies to "
                   "classification trees only. This is a regression tree.",
                   "基于错误的剪枝统计训练样本的误判数，因此只适用于分类树。当前是回归树。"),
                icon=":material/info:")
        return
    about = head.popover(tr("Formula", "公式"), icon=":material/functions:") \
        if present else st.container()
    about.markdown(tr(
        "Training data only. A leaf with N training rows and E errors is charged "
        "N·U_CF(E, N) errors: the upper limit of a binomial confidence interval for its "
        "error rate at confidence CF (smaller CF: more pessimistic, more pruning). Bottom-up, "
        "a node becomes a leaf when its estimate as a leaf is at most its subtree's + 0.1 and "
        "its largest branch's + 0.1; otherwise, with subtree raising, the largest branch takes "
        "its place when that branch (with all the node's training rows) is estimated at most "
        "the subtree's + 0.1.",
        "只用训练集。有 N 个训练样本、E 个误判的叶结点按 N·U_CF(E, N) 个错误计：它是错误率在置信度 CF "
        "下的二项分布置信区间上限（CF 越小越悲观，剪得越多）。自下而上，若结点作为叶结点的估计错误数不超过"
        "子树的 + 0.1，也不超过最大分支的 + 0.1，就剪成叶结点；否则（子树提升）若最大分支"
        "（送入结点的全部训练样本）的估计不超过子树的 + 0.1，就由该分支取代结点。"))
    for line in pv.ebp_formula_latex():
        about.latex(line)
    about.caption(tr(
        "Weka's special cases: for E < 1 the estimate starts from N(1 − CF^(1/N)) at E = 0 and "
        "is interpolated linearly up to E = 1; for E + 0.5 ≥ N, U_CF = 1. τ runs over the "
        "leaves of T_t. Rows with a missing value go down every branch with the branch's share "
        "of the weight.",
        "Weka 的特殊情形：E < 1 时，从 E = 0 处的 N(1 − CF^(1/N)) 出发，线性插值到 E = 1；"
        "E + 0.5 ≥ N 时 U_CF = 1。τ 取遍 T_t 的叶结点。缺失值样本按各分支的权重比例进入每个分支。"))
    controls = head.container(horizontal=True) if present else \
        st.container(horizontal=True, vertical_alignment="bottom")
    cf = controls.segmented_control(tr("Confidence CF", "置信因子 CF"), CONFIDENCES,
                                    default=0.25, key="prune_cf", required=True,
                                    bind="query-params",
                                    label_visibility="collapsed" if present else "visible")
    raising = controls.toggle(tr("Subtree raising", "子树提升"), value=True,
                              key="prune_raising", bind="query-params")
    result = computed(("ebp", float(cf), bool(raising)), lambda: error_based_prune(
        model, prep.X_train, prep.y_train, float(cf), bool(raising)),
        spinner=tr("Pruning…", "剪枝中…"))
    if result is None:
        return
    record = result.record
    decisions = pv.ebp_decisions(record)
    n = len(decisions)
    n_pruned = int((decisions["decision"] == "prune").sum())
    n_raised = int((decisions["decision"] == "raise").sum())
    (st.container(key="narration") if present else st).markdown(tr(
                   f"CF = {pv.fmt(cf)}: {n_pruned} node(s) pruned, {n_raised} branch(es) "
                   f"raised: {tree0.n_leaves} → {result.tree.n_leaves} leaves.",
                   f"CF = {pv.fmt(cf)}：剪掉 {n_pruned} 个结点，提升 {n_raised} 个分支："
                   f"叶结点 {tree0.n_leaves} → {result.tree.n_leaves}。"))
    pruned_leaves = result.tree.node_ids[result.tree.stop_reason == "pruned"]
    raised = set(int(v) for v in decisions.loc[decisions["decision"] == "raise", "branch_id"])
    ids = set(int(v) for v in result.tree.node_ids)
    highlight = {int(v): JUST_SPLIT for v in pruned_leaves}
    highlight.update({v: NEXT_SPLIT for v in raised & ids if v not in highlight})
    # presenter mode: the decisions' step bar above the tree, so both are in view
    bar_slot = st.container() if present else None
    draw(box="tree_box_prune_ebp", *pv.tree_dot(model, result.tree, highlight=highlight,
                                                lang=lang(), rankdir=direction(), **BIG))
    st.caption(tr("Vermillion border: a node pruned into a leaf. Blue border: a branch raised "
                  "into its parent's place.",
                  "橙红色边框：被剪成叶结点的结点。蓝色边框：被提升到父结点位置的分支。"))
    if n == 0:
        st.markdown(tr("The tree has no split to decide.", "这棵树没有需要判断的划分。"))
        return
    state["prune_ebp_n"] = n
    if not 1 <= int(state.get("prune_ebp_step", n) or n) <= n:
        state.pop("prune_ebp_step", None)
    bar = (bar_slot or st).container(horizontal=True, vertical_alignment="center",
                                     key="stepbar_ebp", gap="small")

    button = partial(step_button, bar, compact=present)
    k0 = int(state.get("prune_ebp_step", n))
    button(tr("First decision", "第一个决定"), "prune_ebp_first", ":material/first_page:",
           on_click=ebp_move, kwargs={"to": 1}, disabled=k0 <= 1, shortcut="Home")
    button(tr("Previous", "上一个"), "prune_ebp_prev", ":material/skip_previous:",
           on_click=ebp_move, kwargs={"delta": -1}, disabled=k0 <= 1, shortcut="Left")
    button(tr("Next", "下一个"), "prune_ebp_next", ":material/skip_next:", on_click=ebp_move,
           kwargs={"delta": 1}, type="primary", disabled=k0 >= n, shortcut="Right")
    button(tr("Last decision (the root)", "最后一个决定（根结点）"), "prune_ebp_last",
           ":material/last_page:", on_click=ebp_move, kwargs={"to": n}, disabled=k0 >= n,
           shortcut="End")
    k = (bar if present else st).slider(
        tr("Decision (bottom-up)", "决定（自下而上）"), 1, n, value=n, key="prune_ebp_step",
        label_visibility="collapsed" if present else "visible",
        width=220 if present else "stretch")
    if present:
        bar.markdown(tr(f"**decision {k} / {n}**", f"**第 {k} / {n} 个决定**"),
                     width="content")
        keys_legend()
    row = decisions.iloc[k - 1]
    st.markdown(ebp_sentence(row, k, n))
    for line in pv.ebp_latex(row, record.attrs["confidence"], record.attrs["z"]):
        st.latex(line)
    st.markdown(tr("**Every decision, in order** (a raised node is decided again)",
                   "**全部决定，按顺序**（提升上来的结点会再判断一次）"))
    show_table(pv.ebp_table(record, lang()))


{"ccp": ccp_view, "steps": steps_view, "rep_pep": rep_pep_view,
 "ebp": ebp_view}[view or "ccp"]()
