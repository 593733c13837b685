"""Prune page: post-pruning of the current tree, shown step by step.

Four views (kept in the URL as ?prune_view=ccp, steps, rep_pep or ebp, by
pages/state/url_state.py): minimal cost-complexity pruning
(the path against alpha, cross-validation with the 1-SE rule, the tree at the
chosen alpha), here; the weakest-link sequence one collapse at a time,
reduced-error and pessimistic pruning side by side (pages/panels/prune_panels.py),
and C4.5's error-based pruning (Weka J48's, with subtree raising) one
decision at a time (pages/panels/prune_ebp.py).  The words are in
dtree.views.prunetext, the figures, tables and formulas in dtree.views.pruneview.
"""

import streamlit as st

from dtree.views import prunetext as words
from dtree.views import pruneview as pv
from dtree.views.prunetext import VIEWS
from dtree import ccp_holdout, ccp_prune
from dtree.views.links import md
from dtree.views.narration import stop_reason
from pages.panels.prune_ebp import ebp_view
from pages.panels.prune_panels import Pruning, rep_pep_view, say, show_table, steps_view
from pages.panels import prune_trees, tree_view
from pages.state.current_tree import current_fit
from pages.state.session import keys_legend, lang, presenting, require_frame, said, tr
from pages.state.tables_state import current_setup, current_table
from pages.panels.stepping import step_buttons
from pages.state import imported, room_stage
from pages.runtime.prefetch import cv_key, cv_work, sequence

state = st.session_state
require_frame()

if presenting():  # how far down the trees start (constant CSS)
    st.html("<style>.st-key-tree_box_prune { --dtree-above-tree: 7.7rem; } "
            "[class*='st-key-tree_box_prune_'] { --dtree-above-tree: 11.1rem; } "
            ".st-key-tree_box_prune_ebp { --dtree-above-tree: 12.4rem; }</style>")


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
table_in_use = current_table()
setup = current_setup(table_in_use)
if imported.current() is not None:  # a tree opened from a .skops file
    table_in_use = imported.current()
    st.info(say("imported"), icon=":material/info:")
seq = sequence(fit)
tree0 = seq.tree
about_box = head.popover(tr("About", "说明"), icon=":material/info:") if present else st
about_box.markdown(words.about_tree(table_in_use.title, model.criterion, tree0,
                                    len(prep.y_train), md, lang()))
about_box.caption(say("about"))
if len(seq) == 0:
    reason = model.tree_.stop_reason[0] or "no split"
    st.info(words.single_leaf(md(stop_reason(reason, lang())), lang()), icon=":material/info:")
    st.stop()

view_names = {v: words.view_name(v, lang()) for v in VIEWS}  # in this run's language
state.setdefault("prune_view", "ccp")  # (the URL keeps the key, not the name shown)
view = head.segmented_control(tr("Method", "方法"), VIEWS, key="prune_view",
                              format_func=view_names.get, required=True, persist_state="session",
                              label_visibility="collapsed" if present else "visible") or "ccp"
pruning = Pruning(fit, seq, head, present)
room_stage.say(tr(f"Prune · {md(table_in_use.title)} · {view_names[view]}",
                  f"剪枝 · {md(table_in_use.title)} · {view_names[view]}"))


# -- cost-complexity pruning ------------------------------------------------------
def cross_validated(folds):
    seed = int(setup.seed)
    # ccp_cross_validate grows and prunes one tree per fold: seconds on large data.
    # This page's tree was grown on these rows, unless it was opened from a file.
    ours = imported.current() is None
    return pruning.computed(cv_key(folds, seed), cv_work(fit, folds, seed, ours),
                            spinner=words.cv_spinner(folds, lang()))


def set_alpha(value):
    state["prune_alpha"] = value


def fold_choice():
    options, default = words.fold_options(len(prep.y_train))
    if state.get("prune_folds") not in options:
        state.pop("prune_folds", None)
    return int(st.segmented_control(
        tr("Cross-validation folds", "交叉验证折数"), options, key="prune_folds",
        default=default, required=True, bind="query-params", help=say("folds_help")))


def alpha_buttons(labels, alpha_1se, alpha_min, alphas):
    """The α stepping buttons (← → Home End: one subtree more or less pruned,
    none, all) and the suggested choices."""
    buttons = st.container(horizontal=True, vertical_alignment="center", gap="small",
                           key="stepbar_alpha")
    at = alphas.index(pv.start_alpha(alphas, state.get("prune_alpha"), alpha_1se,
                                     st.query_params.get("prune_alpha"), labels))
    last = len(alphas) - 1
    step_buttons(buttons, present,
                 ("prune_use_0", "prune_alpha_prev", "prune_alpha_next", "prune_alpha_last"),
                 [{"value": alphas[i]} for i in (0, max(at - 1, 0), min(at + 1, last), last)],
                 at == 0, at == last, on_click=set_alpha,
                 labels=words.step_labels("alpha", lang()))
    if alpha_1se is not None:
        one_se, lowest = words.choice_labels(labels[alpha_1se], labels[alpha_min], lang())
        buttons.button("1-SE" if present else one_se, key="prune_use_1se",
                       help=one_se if present else None,
                       on_click=set_alpha, args=(alpha_1se,), icon=":material/star:")
        buttons.button(tr("min CV", "最小 CV") if present else lowest, key="prune_use_min",
                       help=lowest if present else None,
                       on_click=set_alpha, args=(alpha_min,))
    prune_trees.switch(buttons, present)  # one tree or two (G)
    if present:
        tree_view.view_buttons(buttons, present)  # folded or whole (W), details (D)
        keys_legend(tr("G one tree or two · W whole trees · D details",
                       "G 一棵树或两棵 · W 整棵树 · D 细节"))
    return buttons


def error_panel(cv, holdout, alpha):
    """The error chart and the 1-SE rule in words."""
    st.plotly_chart(pv.error_figure(cv, holdout, alpha, lang(), not pruning.classifier),
                    key="prune_error_chart")
    st.markdown(words.one_se_sentence(cv, lang()))
    st.caption(words.cv_caption(cv.attrs["cv"], len(prep.y_train), holdout is not None, lang()))


def ccp_view():
    about = head.popover(tr("Charts", "图表"),
                         icon=":material/show_chart:") if present else st.container()
    about.subheader(tr("Minimal cost-complexity pruning", "代价复杂度剪枝（CART）"))
    about.markdown(say("ccp"))
    about.latex(words.ccp_latex(narrow=present))
    with about:
        if len(prep.y_train):
            cv = cross_validated(fold_choice())
        else:  # a tree opened from a .skops file without its data
            cv = None
            st.info(imported.needs_data(), icon=":material/info:")
    holdout = None
    if len(prep.y_test):
        holdout = pruning.computed("holdout", lambda: ccp_holdout(model, prep.X_test,
                                                                  prep.y_test))
    alphas = [float(a) for a in pv.subtree_alphas(seq)[0]]
    labels = dict(zip(alphas, pv.alpha_labels(alphas)))
    cv, alpha_1se, alpha_min = pv.cv_choices(cv, alphas)
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
            error_panel(cv, holdout, alpha)
    pruned_at(alpha, labels)


def pruned_at(alpha, labels):
    """The trees, the node table and the weakest link's costs at ``alpha``."""
    k = seq.n_steps_for(alpha)
    pruned = ccp_prune(tree0, alpha)
    table = seq.table_at(k)
    collapsed = words.collapsed_at(seq, k)
    highlight, weakest = words.alpha_marks(collapsed, table)
    (st.container(key="narration") if present else st).markdown(
        words.at_alpha_sentence(labels[alpha], k, pruned, tree0, lang()))
    prune_trees.trees_at(pruning, k, pruned, table, collapsed, highlight)
    more = st.expander(tr("The numbers at this α", "这个 α 下的计算")) if present else st
    more.caption(say("alpha_caption"))
    with more if present else st.container():
        st.markdown(say("pruned_nodes"))  # the pruned tree's nodes, the weakest link's costs
        show_table(pv.node_table(table, lang()))
        if len(weakest):
            st.markdown(words.weakest_sentence(int(weakest.iloc[0].node_id), lang()))
        for line in pv.weakest_latex(weakest, alpha):
            st.latex(line)


if (view or "ccp") == "ccp":
    ccp_view()
else:
    {"steps": steps_view, "rep_pep": rep_pep_view, "ebp": ebp_view}[view](pruning)
