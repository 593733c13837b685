"""The stage a presenter's page sets for its room (Streamlit-aware).

While a presenter hosts a room, the pages draw their trees through
:func:`draw_tree` and say their title and lines with :func:`say`; the run's
stage (:mod:`pages.room.stage`) is then pushed with the view
(:func:`pages.state.room_session.push_view`), and every following student's
page draws it as it is, without a fit or a page run of its own.  Outside a
room these calls only draw.
"""

from __future__ import annotations

import streamlit as st

from dtree.views import narration
from pages.runtime.fits import step_dot

_KEY = "_room_stage"


def hosting() -> bool:
    """True while this session hosts a room (its pages set a stage)."""
    return st.session_state.get("room_host") is not None


def begin() -> None:
    """A run (or a fragment's run) that draws the page's trees begins: drop
    what an earlier run put on the stage."""
    if hosting():
        st.session_state[_KEY] = {"title": "", "lines": [], "trees": [], "also": {}}


def draw_tree(dot: str, caption: str = "", **kwargs) -> None:
    """``st.graphviz_chart(dot, **kwargs)``, and the tree on the stage with
    ``caption`` (Markdown, already escaped) above it."""
    st.graphviz_chart(dot, **kwargs)
    stage = st.session_state.get(_KEY) if hosting() else None
    if stage is not None:
        stage["trees"].append([caption, dot])


def say(title: str, *lines: str) -> None:
    """The stage's title and lines (Markdown, already escaped)."""
    stage = st.session_state.get(_KEY) if hosting() else None
    if stage is not None:
        stage["title"], stage["lines"] = title, list(lines)


def also(language: str, title: str, lines: list, trees: list) -> None:
    """The stage's title, lines and trees ([caption, DOT] pairs) in another
    ``language`` too, for students who read it (Markdown, already escaped)."""
    stage = st.session_state.get(_KEY) if hosting() else None
    if stage is not None:
        stage["also"][language] = {"title": title, "lines": list(lines),
                                   "trees": [list(t) for t in trees]}


def current(page: str, language: str) -> dict | None:
    """This run's stage for ``page`` (its url_path), drawn in ``language``,
    or None outside a room or when the page drew nothing."""
    stage = st.session_state.get(_KEY) if hosting() else None
    if stage is None or not (stage["trees"] or stage["title"]):
        return None
    return {"page": page, "title": stage["title"], "lines": list(stage["lines"]),
            "trees": [list(t) for t in stage["trees"]], "lang": language,
            "also": {k: v for k, v in stage["also"].items() if k != language}}


def grow_step(fit, table, preset: str, step: int, drawing: dict, language: str) -> None:
    """The Grow page's stage at ``step`` (its tree already drawn through
    :func:`draw_tree`): the data and the algorithm, the step's sentence, and
    the same in the other language with the tree drawn again (``drawing``:
    the rest of :func:`pages.runtime.fits.step_dot`'s options)."""
    if not hosting():
        return
    for words in ("en", "zh"):
        title = narration.short_title(table, preset, fit.criterion, words)
        sentence = narration.step_sentence(fit.model, step, words)
        if words == language:
            say(title, sentence)
        else:
            also(words, title, [sentence], [["", step_dot(fit, step, lang=words, **drawing)[0]]])
