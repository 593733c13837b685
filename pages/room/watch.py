"""Tell a room's students at once when the room changes for them.

Streamlit has no push from one session to another: a page sees another
session's change when it runs.  A student's page could poll the room every
second, but a hundred polls a second cost a busy server much of a core and
still leave a step up to a second late.  So each app process keeps one
:class:`RoomWatcher`: a thread that reads the version of every room that
has a listener in this process (one integer per room, from the process's
store or from Redis), and when a room changed in a way its students see
(the presenter's view or stage, a vote opened, revealed or closed, the
room closed; not one more ballot), calls ``notify`` once for each listener.
The app's ``notify`` reruns that student's room bar now
(:mod:`pages.runtime.push`).

Each listener says what its page showed (its last run's reading of the
room), so a change made while that run was under way is not missed.  A
notice that cannot be delivered yet (``notify`` returns False: the
student's page is running) is tried again on the next tick; a listener
that is gone (``notify`` returns None) is dropped.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

from pages.room.model import Room
from pages.room.store import RoomError, RoomStore

#: How often the watcher reads the rooms' versions, in seconds.
WATCH_SECONDS = 0.1


def seen_by_students(room: Room | None) -> str:
    """What of ``room`` a student's page shows, as one comparable string:
    the view (which names its stage) and the vote's state, not its ballots."""
    if room is None:
        return "closed"
    vote = room.vote
    state = None if vote is None else (vote.node, vote.step, vote.revealed, vote.closed,
                                       vote.ranking)
    return json.dumps([room.view, state], sort_keys=True, default=str)


class RoomWatcher:
    """Reads the watched rooms every :data:`WATCH_SECONDS` and notifies
    each listener whose page shows a room other than the room as it is.

    Parameters
    ----------
    store : RoomStore
        Where the rooms are.
    notify : callable
        ``notify(listener, target) -> bool | None``: tell one listener (with
        the ``target`` it gave :meth:`listen`); True when told, False to be
        tried again on the next tick, None when the listener is gone.
    thread : bool, default True
        Start the thread that ticks, with the first listener; False to tick
        by hand (a test).
    """

    def __init__(self, store: RoomStore, notify: Callable[[str, object], bool | None],
                 thread: bool = True):
        self._store = store
        self._start_thread = thread
        self._notify = notify
        self._lock = threading.Lock()
        # listener -> [code, target, what its page shows (seen_by_students)]
        self._listeners: dict[str, list] = {}
        self._rooms: dict[str, tuple[int | None, str]] = {}  # code -> (version, seen)
        self._thread: threading.Thread | None = None

    def listen(self, listener: str, code: str, target: object, shown: str) -> None:
        """Notify ``listener`` (with ``target``) whenever room ``code`` is no
        longer what its page ``shown`` (:func:`seen_by_students` of the room
        its run read); replaces what it listened to before."""
        with self._lock:
            self._listeners[listener] = [code, target, shown]
            if self._thread is None and self._start_thread:
                self._thread = threading.Thread(target=self._loop, name="dtree-rooms",
                                                daemon=True)
                self._thread.start()

    def forget(self, listener: str) -> None:
        """Stop notifying ``listener``."""
        with self._lock:
            self._listeners.pop(listener, None)

    def listeners(self, code: str) -> list[str]:
        """The listeners of room ``code``."""
        with self._lock:
            return [k for k, (c, _, _) in self._listeners.items() if c == code]

    def tick(self) -> int:
        """Read the watched rooms once and notify the listeners whose pages
        are behind; returns how many were told.  (The thread calls it; so
        may a test.)"""
        with self._lock:
            codes = {code for code, _, _ in self._listeners.values()}
            self._rooms = {c: r for c, r in self._rooms.items() if c in codes}
        now = {}
        for code in codes:
            try:
                version = self._store.version(code)
                known = self._rooms.get(code)
                if known is None or known[0] != version:
                    known = (version, seen_by_students(
                        None if version is None else self._store.get(code)))
            except RoomError:  # the store does not answer: try on the next tick
                continue
            now[code] = known[1]
            with self._lock:
                self._rooms[code] = known
        with self._lock:
            behind = [(k, target, now[code]) for k, (code, target, shown)
                      in self._listeners.items() if code in now and shown != now[code]]
        told = 0
        for listener, target, seen in behind:
            answer = self._notify(listener, target)
            with self._lock:
                if answer is None:
                    self._listeners.pop(listener, None)
                elif answer and listener in self._listeners:
                    self._listeners[listener][2] = seen  # (its rerun says so again)
                    told += 1
        return told

    def _loop(self) -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            try:
                self.tick()
            except Exception:  # the watcher must not die of one bad tick
                pass
