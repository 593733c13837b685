"""The session's language, presenter mode and stepping (Streamlit-aware).

* :func:`lang` and :func:`tr`: the interface language (the frame's switch,
  ``?lang=``) and a text in it; :func:`said`: one of the engine's messages
  in it;
* :func:`presenting`: presenter mode (``?present=``), with the stepping
  bars' buttons (:func:`step_button`) and keys (:func:`keys_legend`);
* :func:`shown_step`: the step a stepping page shows (its slider or link);
* :func:`require_frame`: a page run without app.py around it asks for a
  rerun through the frame.
"""

from __future__ import annotations

import streamlit as st

from dtree.views.vocabulary import t
from pages.language.terms import message_zh

LANGUAGES = {"en": "English", "zh": "中文"}


def lang() -> str:
    """The interface language: "en" or "zh" (the frame's switch, kept in the
    URL as ?lang=)."""
    return "zh" if st.session_state.get("lang") == "zh" else "en"


def tr(en: str, zh: str) -> str:
    """The text in the interface language: ``tr("Next step", "下一步")``."""
    return t(lang(), en, zh)


def said(message) -> str:
    """One of the engine's messages (an error or a note, plain text in
    English) in the interface language: known ones are looked up in
    ``dtree.views.messages.MESSAGES_ZH`` by code.  Escape the result as before (``md``)."""
    return message_zh(message) if lang() == "zh" else str(message)


def presenting() -> bool:
    """Presenter mode (the frame's toggle, kept in the URL as ?present=)."""
    return bool(st.session_state.get("present", False))


def shown_step(key: str, last: int) -> int:
    """The step a stepping page shows: its slider's value (kept in session
    state under ``key``), or on a session's first run, before the slider
    (bound to ``?key=``) exists, the link's, within 0..``last``; 0 when
    absent or unreadable.  A link past the end means the last step, and is
    written to the session so that the slider takes it too (it would fall
    back to its default, 0)."""
    state = st.session_state
    if key in state:
        return int(min(max(int(state[key] or 0), 0), last))
    asked = st.query_params.get(key)
    try:
        step = min(max(int(asked or 0), 0), last)
    except ValueError:
        return 0
    if asked not in (None, str(step)):
        state[key] = step
    return step


def step_button(where, label: str, key: str, icon: str, compact: bool, **kwargs) -> None:
    """A stepping button in ``where`` (a bar): its icon and label, or in
    presenter mode (``compact``) its icon alone on screen, with the label as
    its tooltip and as its name for screen readers (app.py's CSS hides the
    label of a button in a container keyed icon_only*, visually only)."""
    if compact:
        where = where.container(key=f"icon_only_{key}", width="content")
    where.button(label, key=key, icon=icon, help=label if compact else None, **kwargs)


def keys_legend(extra: str = "") -> None:
    """Presenter mode: the stepping keys, small, in the window's corner
    (app.py's CSS places containers keyed keys_legend*)."""
    keys = tr("keys: ← → step · Home first · End last",
              "快捷键：← → 上一步/下一步 · Home 第一步 · End 最后一步")
    with st.container(key="keys_legend"):
        st.caption(f"{keys} · {extra}" if extra else keys)


def require_frame() -> None:
    """Make sure app.py (the frame) runs around this page.

    Until ``st.navigation`` has run once in the server process, Streamlit
    treats a folder named ``pages/`` beside the main script as a legacy
    multipage app (``PagesManager.uses_pages_directory``): the very first run
    after the server starts, when its URL names a page (``/compare``), runs
    that page's script on its own, without the frame.  Such a run stops
    here and asks for a rerun of the same URL with the legacy mode off, so
    that the frame runs and opens the page with its query string intact
    (presenter mode, language, step...).  ``st.switch_page`` would drop the
    query string, and bound widgets (the presenter toggle) would then write
    their defaults back into the URL.
    """
    if st.session_state.get("_framed"):
        return
    from streamlit.runtime.pages_manager import PagesManager

    # (what st.navigation itself sets on its first call; Streamlit is pinned
    # to 1.67.*; tests/browser/test_presenter_browser.py opens
    # every page first after a fresh start)
    PagesManager.uses_pages_directory = False
    st.rerun()
