"""Greedy against lookahead, for the Learn page: CART's tree of depth 2 next
to the best tree of depth 2, on the XOR table or on the current data.

``lookahead_panel()`` draws into the current container.  Its widget state is
``look_data`` ("xor" or "current"), kept in the URL.  The search (up to
about a second) runs once per table and criterion for the whole process,
in the size-bounded cache of fits; its numbers and words come from
``dtree.views.learn`` and ``dtree.views.learntext``.
"""

from __future__ import annotations

import streamlit as st

from dtree import CodedError
from dtree.tables.prepare import CLASSIFICATION_CRITERIA
from dtree.views import learn
from dtree.views import learntext as words
from dtree.views.links import md
from dtree.views.vocabulary import text
from pages.panels.orders_panel import url_choice
from pages.runtime.caches import shared_result
from pages.state.current_tree import current_fit
from pages.state.parameters import chosen_parameters
from pages.state.session import lang, presenting, said, tr
from pages.state.tables_state import builtin_table, current_setup, current_table


def _criterion(task) -> str:
    """The Grow page's criterion when it is a classification one, else Gini."""
    criterion = chosen_parameters(task)[1]
    return criterion if criterion in CLASSIFICATION_CRITERIA else "gini"


def _xor_lesson():
    table = builtin_table(learn.XOR_TITLE)
    target = table.default_target
    criterion = _criterion("classification")
    return shared_result("lookahead", ("xor", criterion), lambda: learn.lookahead_lesson(
        table.frame.drop(columns=target), table.frame[target], criterion))


def _current_lesson():
    """The lesson on the current data's training rows, or None after saying
    why there is none."""
    fit, error = current_fit()
    if error:
        st.info(words.no_tree(md(said(error)), lang()), icon=":material/info:")
        return None
    prep = getattr(fit, "prep", None)
    if prep is None or prep.task != "classification":
        st.info(text(words.TEXTS, "lookahead_regression", lang()), icon=":material/info:")
        return None
    table = current_table()
    setup = current_setup(table)
    criterion = _criterion(setup.task)
    return shared_result("lookahead", (table.key, setup, criterion), lambda: learn.lookahead_lesson(
        prep.X_train, prep.y_train, criterion, prep.categorical))


def _tree(lesson, which):
    model = lesson.result.greedy if which == "greedy" else lesson.result.estimator
    st.markdown(f"**{words.tree_heading(lesson, which, lang())}**")
    st.graphviz_chart(learn.lesson_dot(model, lesson.criterion, lang(), brief=presenting()),
                      width="content")


def _trees(lesson):
    with st.container(key="look_trees"):
        left, right = st.columns(2, gap="medium")
        with left:
            _tree(lesson, "greedy")
        with right:
            _tree(lesson, "lookahead")


def _verdict(lesson):
    lost, verdict = words.lookahead_verdict(lesson, md, lang())
    if lost:
        st.warning(verdict, icon=":material/trending_down:")
    else:
        st.success(verdict, icon=":material/check:")


def lookahead_panel():
    """The lesson: the question, the table to use, the verdict, both trees,
    the root gains.  In presenter mode the trees come first, then the
    verdict, and the question last, so that the first screen shows the
    trees."""
    if not presenting():
        st.markdown(text(words.TEXTS, "lookahead", lang()))
    source = url_choice(tr("Table", "数据表"), ["xor", "current"], key="look_data",
                        default="xor", format_func=words.lookahead_sources(lang()).get)
    try:
        with st.spinner(tr("Comparing every tree of depth 2…", "正在比较每一棵深度为 2 的树…")):
            lesson = _xor_lesson() if source == "xor" else _current_lesson()
    except CodedError as exc:
        st.warning(md(said(exc)), icon=":material/warning:")
        return
    if lesson is None:
        return
    if lesson.left_out:
        st.warning(words.left_out_note(lesson.left_out, lang()), icon=":material/warning:")
    if presenting():  # the trees first, headed by their accuracies
        _trees(lesson)
        _verdict(lesson)
    else:
        _verdict(lesson)
        _trees(lesson)
    st.markdown(words.misled_text(lesson, md, lang()))
    st.dataframe(words.root_gains_table(lesson, lang()), hide_index=True,
                 key="look_gains_table")
    if presenting():
        st.markdown(text(words.TEXTS, "lookahead", lang()))
    st.caption(text(words.TEXTS, "lookahead_scope", lang()))
