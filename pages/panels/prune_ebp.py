"""The Prune page's C4.5 view: error-based pruning (Weka J48's, with subtree
raising) one decision at a time.  pages/prune.py calls :func:`ebp_view`
with its :class:`pages.panels.prune_panels.Pruning`; the words are in
dtree.views.prunetext, the table and formulas in dtree.views.pruneview."""

import streamlit as st

from dtree import error_based_prune
from dtree.views import prunetext as words
from dtree.views import pruneview as pv
from dtree.views.prunetext import CONFIDENCES
from pages.panels.prune_panels import draw, say, show_table
from pages.state.session import keys_legend, lang, tr
from pages.panels.stepping import moves, step_buttons


def ebp_view(p):
    present = p.present
    if not present:
        st.subheader(tr("Error-based pruning (C4.5, as Weka's J48 does it)",
                        "基于错误的剪枝（EBP，C4.5；与 Weka 的 J48 相同）"))
    if not p.classifier:
        st.info(say("ebp_classification_only"), icon=":material/info:")
        return
    about = p.head.popover(tr("Formula", "公式"), icon=":material/functions:") \
        if present else st.container()
    about.markdown(say("ebp"))
    for line in pv.ebp_formula_latex():
        about.latex(line)
    about.caption(say("ebp_caption"))
    controls = p.head.container(horizontal=True) if present else \
        st.container(horizontal=True, vertical_alignment="bottom")
    cf = controls.segmented_control(tr("Confidence CF", "置信因子 CF"), CONFIDENCES,
                                    default=0.25, key="prune_cf", required=True,
                                    bind="query-params",
                                    label_visibility="collapsed" if present else "visible")
    raising = controls.toggle(tr("Subtree raising", "子树提升"), value=True,
                              key="prune_raising", bind="query-params")
    X, y = p.prep.X_train, p.prep.y_train
    result = p.computed(("ebp", float(cf), bool(raising)), lambda: error_based_prune(
        p.model, X, y, float(cf), bool(raising)), spinner=tr("Pruning…", "剪枝中…"))
    if result is None:
        return
    record = result.record
    decisions = pv.ebp_decisions(record)
    n = len(decisions)
    (st.container(key="narration") if present else st).markdown(
        words.ebp_summary(cf, decisions, p.tree0, result.tree, lang()))
    # presenter mode: the decisions' step bar above the tree, so both are in view
    bar_slot = st.container() if present else None
    draw(*p.dot(result.tree, highlight=words.ebp_marks(result.tree, decisions)),
         box="tree_box_prune_ebp")
    st.caption(say("ebp_marks"))
    if n == 0:
        st.markdown(tr("The tree has no split to decide.", "这棵树没有需要判断的划分。"))
        return
    state = st.session_state
    state["prune_ebp_n"] = n
    if not 1 <= int(state.get("prune_ebp_step", n) or n) <= n:
        state.pop("prune_ebp_step", None)
    bar = (bar_slot or st).container(horizontal=True, vertical_alignment="center",
                                     key="stepbar_ebp", gap="small")
    k0 = int(state.get("prune_ebp_step", n))
    step_buttons(bar, present,
                 ("prune_ebp_first", "prune_ebp_prev", "prune_ebp_next", "prune_ebp_last"),
                 moves("prune_ebp_step", 1, n), k0 <= 1, k0 >= n,
                 labels=words.step_labels("ebp", lang()))
    k = (bar if present else st).slider(
        tr("Decision (bottom-up)", "决定（自下而上）"), 1, n, value=n, key="prune_ebp_step",
        label_visibility="collapsed" if present else "visible",
        width=220 if present else "stretch")
    if present:
        bar.markdown(words.counter(k, n, "decision", lang()), width="content")
        keys_legend()
    row = decisions.iloc[k - 1]
    st.markdown(words.ebp_sentence(row, k, n, lang()))
    for line in pv.ebp_latex(row, record.attrs["confidence"], record.attrs["z"]):
        st.latex(line)
    st.markdown(tr("**Every decision, in order** (a raised node is decided again)",
                   "**全部决定，按顺序**（提升上来的结点会再判断一次）"))
    show_table(pv.ebp_table(record, lang()))
