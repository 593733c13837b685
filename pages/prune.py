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
from dtree.views import prunetext as words
from dtree.views.prunetext import CONFIDENCES, FOLDS, VIEWS, g_of, text
from dtree import (ccp_cross_validate, ccp_holdout, ccp_prune, error_based_prune, pessimistic_prune,
                   pruning_sequence, reduced_error_prune)
from dtree.views.viz import JUST_SPLIT, NEXT_SPLIT, fitting_direction
from pages.shared import (current_fit, current_setup, current_table, keys_legend, lang, md,
                          presenting, require_frame, said, shown_step, step_button, tr)
from pages import imported
from pages.terms import STOP_REASONS_ZH, zh

state = st.session_state
require_frame()

def say(name):
    """One of the page's fixed texts, in the interface language."""
    return text(name, lang())


def show_table(frame):
    """A table in large type (small tables) or a scrolling one."""
    shown = words.shown_frame(frame)
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
                 help=say("full_help"))
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
    st.info(say("imported"), icon=":material/info:")
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
about_box.caption(say("about"))
if len(seq) == 0:
    reason = model.tree_.stop_reason[0] or "no split"
    st.info(tr(f"The tree is a single leaf ({md(reason)}): there is nothing to prune. "
               "Turn on “Grow the full tree first” or relax the Grow page's limits.",
               f"这棵树只有一个叶结点（{md(zh(STOP_REASONS_ZH, reason, reason))}）：没有可剪的分支。"
               "请打开“先让树完全生长”，"
               "或放宽“生长”页面的限制。"), icon=":material/info:")
    st.stop()

view_names = {v: words.view_name(v, lang()) for v in VIEWS}  # in this run's language
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
        help=say("folds_help")))

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
    st.markdown(words.one_se_sentence(cv, lang()))
    st.caption(words.cv_caption(cv.attrs["cv"], len(prep.y_train), holdout is not None, lang()))

def ccp_view():
    about = head.popover(tr("Charts", "图表"),
                         icon=":material/show_chart:") if present else st.container()
    about.subheader(tr("Minimal cost-complexity pruning", "代价复杂度剪枝（CART）"))
    about.markdown(say("ccp"))
    about.latex(words.CCP_LATEX)

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
    collapsed = words.collapsed_at(seq, k)
    highlight, weakest = words.alpha_marks(collapsed, table)
    (st.container(key="narration") if present else st).markdown(
        words.at_alpha_sentence(labels[alpha], k, pruned, tree0, lang()))
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
    more.caption(say("alpha_caption"))

    with more if present else st.container():
        weakest_link(table, weakest, alpha)


def weakest_link(table, weakest, alpha):
    """The pruned tree's node table and the weakest link's two costs."""
    st.markdown(say("pruned_nodes"))
    show_table(pv.node_table(table, lang()))
    if len(weakest):
        w = weakest.iloc[0]
        st.markdown(words.weakest_sentence(int(w.node_id), lang()))
        st.latex(pv.g_latex(w.R_t, w.R_Tt, w.n_leaves, w.g))
        for line in pv.cost_complexity_latex(w.R_t, w.R_Tt, w.n_leaves, alpha):
            st.latex(line)


# -- the weakest-link sequence, step by step ----------------------------------------
def move(delta=None, to=None):
    step = state.get("prune_step", 0) if to is None else to
    if delta is not None:
        step += delta
    state["prune_step"] = int(min(max(step, 0), len(seq)))


def steps_view():
    n = len(seq)
    if not present:
        st.subheader(tr("Weakest-link pruning, one collapse at a time",
                        "最弱环节剪枝：每步剪掉一个结点"))
        st.markdown(say("steps"))
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
    highlight = words.step_marks(steps, k, n)
    if ghost:
        keep = seq.keep_mask(k)
        collapsed = words.collapsed_at(seq, k)
        dot, info = pv.greyed_dot(model, tree0, keep, collapsed=collapsed, g_by_id=g_of(table),
                                  highlight={steps[k].node_id: NEXT_SPLIT} if k < n else None,
                                  lang=lang(), rankdir=direction(), **BIG)
    else:
        dot, info = pv.tree_dot(model, tree, g_by_id=g_of(table), highlight=highlight,
                                lang=lang(), rankdir=direction(), **BIG)

    if present:  # the sentence, the tree scaled to the window, the numbers folded
        with st.container(key="narration"):
            st.markdown(words.step_sentence(seq, k, lang()))
        draw(dot, info)
        right = st.expander(tr("The numbers of this step", "这一步的计算"))
    else:
        left, right = st.columns([3, 2], gap="large")
        with left:
            draw(dot, info)
            st.caption(say("steps_caption"))
    with right:
        if not present:
            st.markdown(words.step_sentence(seq, k, lang()))
        if k > 0:
            s = steps[k - 1]
            before = seq.tree_at(k - 1)
            i = int(np.flatnonzero(before.node_ids == s.node_id)[0])
            st.latex(pv.cost_latex(before, i, model.criterion))
            st.latex(pv.branch_cost_latex(before, i))
            st.latex(pv.g_latex(s.R_t, s.R_Tt, s.n_leaves, s.alpha))
            st.caption(words.effective_alpha_caption(s, lang()))
        st.markdown(words.next_step_sentence(seq, k, lang()))
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


def rep_panel():
    st.subheader(tr("Reduced-error pruning (REP)", "错误率降低剪枝（REP）"))
    if not len(prep.y_test):
        st.info(say("rep_needs_test"), icon=":material/info:")
        return
    st.markdown(words.rep_intro(len(prep.y_test), classifier, lang()))
    result = computed("rep", lambda: reduced_error_prune(model, prep.X_test, prep.y_test))
    if result is None:
        return
    record = result.record
    cut = words.pruned_ids(record)
    st.markdown(words.rep_summary(result, tree0, classifier, lang()))
    kept = set(int(v) for v in result.tree.node_ids)
    draw(box="tree_box_prune_rep", *pv.tree_dot(model, result.tree, highlight={n: JUST_SPLIT for n in cut if n in kept},
                      lang=lang(), rankdir=direction(), **BIG))
    show_table(pv.rep_table(record, not classifier, lang()))
    nid = node_choice(record, "prune_rep_node", len(record) - 1)
    row = record.loc[record["node_id"] == nid].iloc[0]
    st.latex(pv.rep_latex(row, not classifier))
    st.markdown(words.rep_verdict(row["pruned"], lang()))

def pep_panel():
    st.subheader(tr("Pessimistic error pruning (PEP)", "悲观剪枝（PEP）"))
    if not classifier:
        st.info(say("pep_classification_only"), icon=":material/info:")
        return
    st.markdown(say("pep"))
    result = computed("pep", lambda: pessimistic_prune(model))
    if result is None:
        return
    record = result.record
    cut = words.pruned_ids(record)
    st.markdown(words.pep_summary(result, tree0, lang()))
    draw(box="tree_box_prune_pep", *pv.tree_dot(model, result.tree, highlight={n: JUST_SPLIT for n in cut},
                      lang=lang(), rankdir=direction(), **BIG))
    show_table(pv.pep_table(record, lang()))
    st.caption(say("pep_caption"))
    nid = node_choice(record, "prune_pep_node", 0)
    row = record.loc[record["node_id"] == nid].iloc[0]
    for line in pv.pep_latex(row):
        st.latex(line)
    st.markdown(words.pep_verdict(row["pruned"], lang()))

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


def ebp_view():
    if not present:
        st.subheader(tr("Error-based pruning (C4.5, as Weka's J48 does it)",
                        "基于错误的剪枝（EBP，C4.5；与 Weka 的 J48 相同）"))
    if not classifier:
        st.info(say("ebp_classification_only"), icon=":material/info:")
        return
    about = head.popover(tr("Formula", "公式"), icon=":material/functions:") \
        if present else st.container()
    about.markdown(say("ebp"))
    for line in pv.ebp_formula_latex():
        about.latex(line)
    about.caption(say("ebp_caption"))
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
    (st.container(key="narration") if present else st).markdown(
        words.ebp_summary(cf, decisions, tree0, result.tree, lang()))
    highlight = words.ebp_marks(result.tree, decisions)
    # presenter mode: the decisions' step bar above the tree, so both are in view
    bar_slot = st.container() if present else None
    draw(box="tree_box_prune_ebp", *pv.tree_dot(model, result.tree, highlight=highlight,
                                                lang=lang(), rankdir=direction(), **BIG))
    st.caption(say("ebp_marks"))
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
    st.markdown(words.ebp_sentence(row, k, n, lang()))
    for line in pv.ebp_latex(row, record.attrs["confidence"], record.attrs["z"]):
        st.latex(line)
    st.markdown(tr("**Every decision, in order** (a raised node is decided again)",
                   "**全部决定，按顺序**（提升上来的结点会再判断一次）"))
    show_table(pv.ebp_table(record, lang()))


{"ccp": ccp_view, "steps": steps_view, "rep_pep": rep_pep_view,
 "ebp": ebp_view}[view or "ccp"]()
