"""The stepping bars' four buttons (first, previous, next, last), shared by
the Grow, Compare and Prune pages: drawn from one definition
(``dtree.views.vocabulary.STEP_CONTROLS``: icon, key and name), and the
callback that moves a step kept in the session."""

import streamlit as st

from dtree.views.vocabulary import STEP_CONTROLS, t
from pages.state.session import lang, step_button


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


def step_buttons(bar, compact, keys, kwargs, at_first, at_last, on_click=move, labels=None):
    """The four stepping buttons in ``bar`` with their widget ``keys``;
    ``on_click`` gets each one's ``kwargs`` (a list of four).  Their names are
    the shared ones, or a bar's own ``labels`` for what its steps are (the
    Prune page's α and EBP decisions).  The first two are disabled
    ``at_first``, the last two ``at_last``, so that a key press never silently
    does nothing; Next is the primary one."""
    controls = STEP_CONTROLS.values()
    labels = labels or [t(lang(), english, chinese) for _, _, english, chinese in controls]
    for n, ((icon, shortcut, _, _), label, key, kw) in enumerate(zip(controls, labels, keys,
                                                                     kwargs)):
        step_button(bar, label, key, icon, compact, on_click=on_click, kwargs=kw,
                    disabled=at_last if n >= 2 else at_first, shortcut=shortcut,
                    type="primary" if n == 2 else "secondary")
