"""This session's part in a class room (Streamlit-aware).

A presenter's session holds its room's code and secret (``room_host``):
the secret never leaves the server, and only this session can open,
reveal or close a vote, or move the room's view.  A student's session
holds the code, an opaque voter id and whether it follows the presenter
(``room_join``).  The rooms themselves are in a store
(:mod:`pages.room.store`: in the process, or Redis for several app
processes, chosen by the setting ``DTREE_ROOM_STORE``).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading

import streamlit as st

from dtree.tables.io import BUILTIN, find_builtin
from dtree.views import links
from dtree.views.votetext import REFUSALS_ZH
from pages.room.checks import REFUSALS
from pages.room.setting import store_from_setting
from pages.room.store import RoomError
from pages.state import room_stage
from pages.state.tables_state import builtin_table
from pages.state.session import tr
from pages.state.url_state import URL_STATE

#: The steps of the stepping pages, bound to their sliders.
STEP_KEYS = ("step", "cmp_step", "prune_step")
#: What a follower keeps its own: its language and its presenter switch.
OWN_KEYS = ("lang", "present", "room")
#: The step of each stepping page (by its url_path), which a view always
#: carries: the URL leaves out a step at its default (0).
PAGE_STEPS = {"": "step", "compare": "cmp_step", "prune": "prune_step"}

_store = None
_store_lock = threading.Lock()


def store():
    """The process's room store (``DTREE_ROOM_STORE``: empty for the
    embedded one, ``redis://host:port/db`` for Redis)."""
    global _store
    with _store_lock:
        if _store is None:
            _store = store_from_setting(os.environ.get("DTREE_ROOM_STORE"))
        return _store


def hosting() -> dict | None:
    """The presenter's room: {"code", "secret"}, or None."""
    return st.session_state.get("room_host")


def joined() -> dict | None:
    """A student's room: {"code", "voter", "following"}, or None."""
    return st.session_state.get("room_join")


def current_view(page: str) -> dict:
    """The presenter's view as the room keeps it: the page, the link's
    parameters (without the presenter's own language and switch) and the
    page's step, also at 0 (so that followers go back to the first step)."""
    view = {k: [str(v) for v in st.query_params.get_all(k)] for k in st.query_params
            if k not in OWN_KEYS}
    step = PAGE_STEPS.get(page)
    if step is not None and step in st.session_state:  # (the first step is not in the URL)
        view[step] = [str(int(st.session_state[step] or 0))]
    view["page"] = [page]
    return view


def open_room(page: str) -> str:
    """A new room for this presenter (or the one it has); returns its code."""
    host = hosting()
    if host is not None and store().get(host["code"]) is not None:
        return host["code"]
    store().expire()  # (rooms idle for hours are dropped as new ones open)
    code, secret = store().create(current_view(page))
    st.session_state["room_host"] = {"code": code, "secret": secret}
    st.session_state["_room_pushed"] = None
    return code


def push_view(page: str) -> None:
    """Move the room to the presenter's view and stage (what this run drew,
    :mod:`pages.state.room_stage`), when either changed."""
    host = hosting()
    if host is None:
        return
    view = current_view(page)
    stage = (room_stage.current(page, st.session_state.get("lang", "en"))
             or {"page": page, "title": "", "lines": [], "trees": []})
    # the view names its stage, so that a new stage is a new view to the followers
    digest = hashlib.blake2b(json.dumps(stage, sort_keys=True).encode(), digest_size=8)
    view["stage"] = [digest.hexdigest()]
    if view == st.session_state.get("_room_pushed"):
        return
    st.session_state["_room_pushed"] = view  # (tried once, whatever the answer)
    try:
        store().set_view(host["code"], host["secret"], view, stage)
    except RoomError as error:
        if error.code in ("no_room", "not_presenter"):  # expired: the presenter opens a new one
            st.session_state.pop("room_host", None)
        # (otherwise, a store that does not answer or a view past the bounds:
        # the room keeps its last view, and the next change is tried again)


def close_room() -> None:
    host = st.session_state.pop("room_host", None)
    if host is not None:
        try:
            store().close(host["code"], host["secret"])
        except RoomError:
            pass


def join(code: str) -> bool:
    """Join the room ``code`` as a student, following the presenter; False
    if there is no such room."""
    room = store().get(code or "")
    if room is None:
        return False
    st.session_state["room_join"] = {"code": room.code, "voter": secrets.token_hex(12),
                                     "following": True}
    return True


def following() -> bool:
    """True for a student who follows the presenter: the page shows the
    room's stage (pages/panels/room_bar.py), not a page of its own."""
    room = joined()
    return room is not None and room["following"]


def follow(on: bool) -> None:
    """(on_click) Follow the presenter again, or explore on one's own from
    the presenter's view (:func:`start_exploring`)."""
    room = joined()
    if room is not None:
        room["following"] = bool(on)
        st.session_state["_explore_from_room"] = not on


def leave() -> None:
    st.session_state.pop("room_join", None)


def start_exploring() -> tuple[str, dict] | None:
    """A student who has just left the stage takes the room's view (the
    presenter's dataset when it is a built-in one, parameters and step) to
    explore from; returns the page to open (its url_path) and its query
    parameters (the view's, with the student's own language), or None.
    The frame calls this first on every run."""
    if not st.session_state.pop("_explore_from_room", False):
        return None
    room_join = joined()
    room = None if room_join is None else store().get(room_join["code"])
    if room is None:
        return None
    page = take_view(room.view)
    params = {k: v for k, v in room.view.items() if k not in ("page", "stage")}
    for key in OWN_KEYS[:2]:  # (the language and the presenter switch stay the student's)
        if key in st.query_params:
            params[key] = st.query_params.get_all(key)
    return (page or ""), params


def take_view(view: dict) -> str | None:
    """Set this session to the room's ``view`` (a follower's): the dataset
    when it is a built-in one, every setting of the link and the steps.
    Returns the page to show (its url_path), or None."""
    state = st.session_state
    name = (view.get("data") or [None])[0]
    title = find_builtin(name) if name else None
    if title is not None and title in BUILTIN:
        table = state.get("table")
        if table is None or table.key != f"builtin:{title}":
            state["table"] = builtin_table(title)
    values, _ = links.read_link({k: v for k, v in view.items() if k in URL_STATE},
                                URL_STATE, lambda key: False)
    for key in URL_STATE:
        if key in values:
            state[key] = values[key]
        elif key in state and key in ("fold", "unfold", "tree_view", "details", "forced"):
            del state[key]
    for key in STEP_KEYS:
        given = (view.get(key) or [None])[0]
        if given is not None and given.isascii() and given.isdigit() and len(given) <= 6:
            state[key] = int(given)
    page = (view.get("page") or [None])[0]
    return page if isinstance(page, str) and len(page) <= 20 else None


def refusal(code: str) -> str:
    """A room's refusal (its RoomError code) in the interface language."""
    return tr(REFUSALS.get(code, code), REFUSALS_ZH.get(code, code))
