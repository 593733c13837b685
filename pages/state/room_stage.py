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

_KEY = "_room_stage"


def _hosting() -> bool:
    return st.session_state.get("room_host") is not None


def begin() -> None:
    """A run (or a fragment's run) that draws the page's trees begins: drop
    what an earlier run put on the stage."""
    if _hosting():
        st.session_state[_KEY] = {"title": "", "lines": [], "trees": []}


def draw_tree(dot: str, caption: str = "", **kwargs) -> None:
    """``st.graphviz_chart(dot, **kwargs)``, and the tree on the stage with
    ``caption`` (Markdown, already escaped) above it."""
    st.graphviz_chart(dot, **kwargs)
    stage = st.session_state.get(_KEY) if _hosting() else None
    if stage is not None:
        stage["trees"].append([caption, dot])


def say(title: str, *lines: str) -> None:
    """The stage's title and lines (Markdown, already escaped)."""
    stage = st.session_state.get(_KEY) if _hosting() else None
    if stage is not None:
        stage["title"], stage["lines"] = title, list(lines)


def current(page: str) -> dict | None:
    """This run's stage for ``page`` (its url_path), or None outside a room
    or when the page drew nothing."""
    stage = st.session_state.get(_KEY) if _hosting() else None
    if stage is None or not (stage["trees"] or stage["title"]):
        return None
    return {"page": page, "title": stage["title"], "lines": list(stage["lines"]),
            "trees": [list(t) for t in stage["trees"]]}
