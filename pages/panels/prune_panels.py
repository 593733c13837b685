"""The Prune page's pieces: what every view works on (:class:`Pruning`),
drawing a tree or a table, and two of its views: the weakest-link sequence
one collapse at a time, and REP and PEP side by side (C4.5's EBP is in
pages/panels/prune_ebp.py).  pages/prune.py builds the :class:`Pruning` and calls
a view.  Only widgets and drawing: the words are in dtree.views.prunetext,
the figures, tables and formulas in dtree.views.pruneview."""

from dataclasses import dataclass
from functools import cached_property

import streamlit as st

from dtree import pessimistic_prune, reduced_error_prune
from dtree.views.vocabulary import text
from dtree.views import prunetext as words
from dtree.views import pruneview as pv
from dtree.views.prunetext import g_of
from dtree.views.viz import NEXT_SPLIT
from dtree.views.links import md
from pages.state.session import keys_legend, lang, said, shown_step, tr
from pages.panels.stepping import moves, step_buttons
from pages.state import room_stage


def say(name):
    """One of the page's fixed texts, in the interface language."""
    return text(words.TEXTS, name, lang())


@dataclass
class Pruning:
    """The fitted tree the Prune page prunes, with its data and sequence."""

    fit: object
    seq: object  # the weakest-link sequence of the fit's tree
    head: object  # where headers go (presenter mode: one row above the tree)
    present: bool

    @property
    def model(self):
        return self.fit.model

    @property
    def prep(self):
        return self.fit.prep

    @property
    def tree0(self):
        return self.seq.tree

    @property
    def classifier(self) -> bool:
        return hasattr(self.model, "classes_")

    @property
    def big(self) -> dict:
        """Presenter mode: trees drawn large with compact boxes, then scaled
        down to the window (app.py's CSS for containers keyed tree_box*)."""
        return {"fontsize": 20, "compact": True} if self.present else {}

    @cached_property
    def rankdir(self) -> str:
        """Top-down, or left to right for wide trees (the Grow page's layout choice)."""
        return pv.tree_direction(st.session_state.get("layout", "auto"), self.model,
                                 self.tree0, self.present, lang(), **self.big)

    def dot(self, tree, **kwargs):
        """pv.tree_dot of one of the model's trees, as this page draws them
        (``kwargs`` may choose another ``rankdir``)."""
        kwargs["rankdir"] = kwargs.get("rankdir") or self.rankdir
        return pv.tree_dot(self.model, tree, lang=lang(), **self.big, **kwargs)

    def greyed(self, keep, **kwargs):
        """pv.greyed_dot of the full tree, as this page draws it."""
        kwargs["rankdir"] = kwargs.get("rankdir") or self.rankdir
        return pv.greyed_dot(self.model, self.tree0, keep, lang=lang(), **self.big, **kwargs)

    def computed(self, key, compute, spinner=None):
        """``compute()`` once per fit (kept on it); None, after a warning, if
        the engine refuses (e.g. a fold without a usable split)."""
        if pv.has_memo(self.fit, key):
            return pv.memo(self.fit, key, None)
        try:
            if spinner is None:
                return pv.memo(self.fit, key, compute)
            with st.spinner(spinner, show_time=True):
                return pv.memo(self.fit, key, compute)
        except (ValueError, TypeError) as exc:
            st.warning(tr("Could not compute this part: ", "这一部分无法计算：") + md(said(exc)),
                       icon=":material/warning:")
            return None


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
        room_stage.draw_tree(dot, width="content")
    if info["depth_cut"] is not None:
        st.caption(words.depth_cut(info["depth_cut"], lang()))


# -- the weakest-link sequence, step by step ----------------------------------------
def steps_view(p):
    seq, n, present = p.seq, len(p.seq), p.present
    if not present:
        st.subheader(tr("Weakest-link pruning, one collapse at a time",
                        "最弱环节剪枝：每步剪掉一个结点"))
        st.markdown(say("steps"))
    if st.session_state.get("prune_step", 0) > n:
        st.session_state["prune_step"] = n
    k0 = shown_step("prune_step", n)
    bar = st.container(horizontal=True, vertical_alignment="center", key="stepbar_prune",
                       gap="small")
    step_buttons(bar, present, ("prune_reset", "prune_prev", "prune_next", "prune_last"),
                 moves("prune_step", 0, n), k0 <= 0, k0 >= n)
    ghost = bar.toggle(tr("Show the removed nodes greyed", "以灰色显示已剪掉的结点"),
                       key="prune_ghost", value=False)
    k = (bar if present else st).slider(
        tr("Step (collapses made so far)", "步数（已剪的次数）"), 0, n, key="prune_step",
        bind="query-params", label_visibility="collapsed" if present else "visible",
        width=220 if present else "stretch")
    if present:
        bar.markdown(words.counter(k, n, lang=lang()), width="content")
        keys_legend()
    table = seq.table_at(k)
    if ghost:
        dot, info = p.greyed(seq.keep_mask(k), collapsed=words.collapsed_at(seq, k),
                             g_by_id=g_of(table),
                             highlight={seq.steps[k].node_id: NEXT_SPLIT} if k < n else None)
    else:
        dot, info = p.dot(seq.tree_at(k), g_by_id=g_of(table),
                          highlight=words.step_marks(seq.steps, k, n))
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
        for line in pv.step_latex(seq, k, p.model.criterion):
            st.latex(line)
        if k > 0:
            st.caption(words.effective_alpha_caption(seq.steps[k - 1], lang()))
        st.markdown(words.next_step_sentence(seq, k, lang()))
    if k < n:
        st.markdown(tr("**Internal nodes at this step** (◀ the weakest link)",
                       "**这一步的内部结点**（◀ 最弱环节）"))
        show_table(pv.node_table(table, lang()))


# -- REP and PEP ----------------------------------------------------------------------
def node_choice(record, key, default_row):
    """The node whose numbers are shown; returns its record row."""
    ids = [int(v) for v in record["node_id"]]
    if st.session_state.get(key) not in ids:
        st.session_state[key] = ids[default_row]
    nid = st.selectbox(tr("Show the numbers of node", "查看结点的计算"), ids, key=key,
                       format_func=lambda v: f"#{v}")
    return words.record_row(record, nid)


def rep_panel(p):
    st.subheader(tr("Reduced-error pruning (REP)", "错误率降低剪枝（REP）"))
    X_test, y_test = p.prep.X_test, p.prep.y_test
    if not len(y_test):
        st.info(say("rep_needs_test"), icon=":material/info:")
        return
    st.markdown(words.rep_intro(len(y_test), p.classifier, lang()))
    result = p.computed("rep", lambda: reduced_error_prune(p.model, X_test, y_test))
    if result is None:
        return
    st.markdown(words.rep_summary(result, p.tree0, p.classifier, lang()))
    draw(*p.dot(result.tree, highlight=words.rep_marks(result)), box="tree_box_prune_rep")
    show_table(pv.rep_table(result.record, not p.classifier, lang()))
    row = node_choice(result.record, "prune_rep_node", len(result.record) - 1)
    st.latex(pv.rep_latex(row, not p.classifier))
    st.markdown(words.rep_verdict(row["pruned"], lang()))


def pep_panel(p):
    st.subheader(tr("Pessimistic error pruning (PEP)", "悲观剪枝（PEP）"))
    if not p.classifier:
        st.info(say("pep_classification_only"), icon=":material/info:")
        return
    st.markdown(say("pep"))
    result = p.computed("pep", lambda: pessimistic_prune(p.model))
    if result is None:
        return
    st.markdown(words.pep_summary(result, p.tree0, lang()))
    draw(*p.dot(result.tree, highlight=words.pep_marks(result)), box="tree_box_prune_pep")
    show_table(pv.pep_table(result.record, lang()))
    st.caption(say("pep_caption"))
    row = node_choice(result.record, "prune_pep_node", 0)
    for line in pv.pep_latex(row):
        st.latex(line)
    st.markdown(words.pep_verdict(row["pruned"], lang()))


def rep_pep_view(p):
    left, right = st.columns(2, gap="large")
    with left:
        rep_panel(p)
    with right:
        pep_panel(p)
