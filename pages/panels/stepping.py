"""The stepping bars' four buttons (first, previous, next, last), shared by
the Compare and Prune pages: their icons, keyboard shortcuts, and the
callback that moves a step kept in the session."""

import streamlit as st

from pages.state.session import step_button

ICONS = (":material/first_page:", ":material/skip_previous:", ":material/skip_next:",
         ":material/last_page:")
SHORTCUTS = ("Home", "Left", "Right", "End")


def move(key, low, high, delta=None, to=None):
    """(on_click) Session ``key`` set to ``to``, or moved by ``delta``, within
    ``low``..``high`` (missing: ``low``)."""
    state = st.session_state
    step = state.get(key, low) if to is None else to
    state[key] = int(min(max(step + (delta or 0), low), high))


def moves(key, low, high) -> list:
    """The kwargs of :func:`move` for the four buttons."""
    span = {"key": key, "low": low, "high": high}
    return [dict(span, to=low), dict(span, delta=-1), dict(span, delta=1), dict(span, to=high)]


def step_buttons(bar, compact, labels, keys, kwargs, at_first, at_last, on_click=move):
    """The four stepping buttons in ``bar`` with their ``labels`` and
    ``keys``; ``on_click`` gets each one's ``kwargs`` (a list of four).  The
    first two are disabled ``at_first``, the last two ``at_last``, so that a
    key press never silently does nothing; Next is the primary one."""
    for n, (label, key, icon, shortcut, kw) in enumerate(zip(labels, keys, ICONS, SHORTCUTS,
                                                             kwargs)):
        step_button(bar, label, key, icon, compact, on_click=on_click, kwargs=kw,
                    disabled=at_last if n >= 2 else at_first, shortcut=shortcut,
                    type="primary" if n == 2 else "secondary")
