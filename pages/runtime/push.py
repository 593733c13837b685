"""Rerun a student's room bar the moment its room changes (Streamlit-aware).

The process's :class:`~pages.room.watch.RoomWatcher` notices a change to a
room (a step, a vote opened or revealed, the room closed); this module
turns a notice into a rerun of one student's room bar fragment, started by
the server as Streamlit starts a rerun when a source file changes: on the
session's event loop, with the client state of the session's last run
and the fragment's id.  So a step reaches every follower within a fraction
of a second, and a student's page does not poll the room every second.

Streamlit has no public call for this; it rests on four names of
Streamlit 1.67 (pinned in requirements.txt): ``Runtime.get_app_session``,
and the session's ``_event_loop``, ``_client_state`` and
``_scriptrunner``, and on the running fragment's id.  :func:`available`
checks for them; without them the room bar polls every second instead
(``pages/panels/room_bar.py``), as it did before.
"""

from __future__ import annotations

import threading

from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner_utils.script_run_context import (
    ThreadState, get_script_run_ctx,
)

from pages.room.store import RoomStore
from pages.room.watch import RoomWatcher

#: While a student's page is running, a rerun waits this long between tries
#: (at most :data:`BUSY_TRIES` times, then it is asked for anyway): a rerun
#: asked for during a run would carry the widget values of the run before.
BUSY_WAIT_SECONDS = 0.05
BUSY_TRIES = 40

_watchers: dict[int, RoomWatcher] = {}
_lock = threading.Lock()


def available() -> bool:
    """True if this Streamlit has what a server-started fragment rerun needs."""
    if not Runtime.exists():
        return False
    session = Runtime.instance().get_app_session(_session_id() or "")
    return session is not None and all(
        hasattr(session, name) for name in ("_event_loop", "_client_state", "_scriptrunner",
                                            "request_rerun"))


def listen(store: RoomStore, code: str, shown: str) -> bool:
    """Rerun the running fragment of this session whenever room ``code`` is
    no longer what this run ``shown``; called from inside the fragment.
    Returns False when pushing is not available (the caller polls)."""
    session_id, fragment_id = _session_id(), ThreadState.get().fragment_id
    if session_id is None or fragment_id is None or not available():
        return False
    watcher(store).listen(session_id, code, fragment_id, shown)
    return True


def forget(store: RoomStore) -> None:
    """Stop rerunning this session for its room (a student left)."""
    session_id = _session_id()
    if session_id is not None:
        watcher(store).forget(session_id)


def watcher(store: RoomStore) -> RoomWatcher:
    """The process's watcher of ``store``'s rooms."""
    with _lock:
        if id(store) not in _watchers:
            _watchers[id(store)] = RoomWatcher(store, rerun_fragment)
        return _watchers[id(store)]


def rerun_fragment(session_id: str, fragment_id: str) -> bool | None:
    """Ask session ``session_id`` to rerun fragment ``fragment_id`` (from any
    thread); None if the session is gone."""
    if not Runtime.exists():
        return None
    session = Runtime.instance().get_app_session(session_id)
    if session is None:
        return None

    def attempt(tries: int) -> None:  # (on the session's event loop)
        if session._scriptrunner is not None and tries > 0:
            session._event_loop.call_later(BUSY_WAIT_SECONDS, attempt, tries - 1)
            return
        state = ClientState()
        state.CopyFrom(session._client_state)
        state.fragment_id = fragment_id
        state.is_auto_rerun = True  # (as a fragment's own timer asks)
        session.request_rerun(state)

    try:
        session._event_loop.call_soon_threadsafe(attempt, BUSY_TRIES)
    except RuntimeError:  # the loop is closed: the session is going
        return None
    return True


def _session_id() -> str | None:
    ctx = get_script_run_ctx()
    return None if ctx is None else ctx.session_id
