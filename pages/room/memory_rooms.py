"""Rooms kept in this process: a dict guarded by a lock.

What :class:`~pages.room.store.EmbeddedStore` keeps its rooms in.  A room in
the dict is never changed: a change is made on a copy that then replaces
it, so a room handed out by :meth:`MemoryRooms.load` can be read by a page
while students cast ballots.  The rules of who may change what are
:mod:`pages.room.store`'s.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from pages.room.model import Room


class MemoryRooms:
    """At most ``max_rooms`` rooms in a dict, each change made under one lock.

    Parameters
    ----------
    max_rooms : int
        How many rooms may be open at once; idle rooms are dropped first
        when the dict is full.
    """

    def __init__(self, max_rooms: int):
        if isinstance(max_rooms, bool) or not isinstance(max_rooms, int) or max_rooms < 1:
            raise ValueError(f"max_rooms must be a positive integer, not {max_rooms!r}")
        self.max_rooms = max_rooms
        self._rooms: dict[str, Room] = {}
        self._stages: dict[str, str] = {}  # (beside the rooms: a ballot never copies one)
        self._lock = threading.Lock()

    def insert(self, room: Room, now: float) -> str | None:
        """Keep a new room; None when kept, else why not: ``"taken"`` (its
        code is in use) or ``"full"``."""
        with self._lock:
            if self._live(room.code, now) is not None:
                return "taken"
            if len(self._rooms) >= self.max_rooms and not self._drop_idle(now):
                return "full"
            self._rooms[room.code] = room
            return None

    def load(self, code: str, now: float) -> Room | None:
        """The room (not to be changed by the caller), or None if there is
        none or it was idle too long."""
        with self._lock:
            return self._live(code, now)

    def version(self, code: str, now: float) -> int | None:
        """The room's version, or None as for :meth:`load`."""
        room = self.load(code, now)
        return None if room is None else room.version

    def change(self, code: str, apply: Callable[[Room], None], now: float,
               stage: str | None = None) -> int | None:
        """Apply ``apply`` to a copy of the room and keep the copy (and
        ``stage``, when given, as the room's stage), unless ``apply``
        raises; the new version, or None if there is no room."""
        with self._lock:
            room = self._live(code, now)
            if room is None:
                return None
            changed = room.copy()
            apply(changed)
            self._rooms[code] = changed
            if stage is not None:
                self._stages[code] = stage
            return changed.version

    def load_stage(self, code: str, now: float) -> str | None:
        """The room's stage as kept, or None (no room, or no stage yet)."""
        with self._lock:
            return None if self._live(code, now) is None else self._stages.get(code)

    def remove(self, code: str) -> bool:
        """Drop the room; True if there was one."""
        with self._lock:
            self._stages.pop(code, None)
            return self._rooms.pop(code, None) is not None

    def expire(self, now: float) -> int:
        """Drop the rooms idle too long at ``now``; how many were dropped."""
        with self._lock:
            return self._drop_idle(now)

    def count(self) -> int:
        """How many rooms are kept, idle ones included until dropped."""
        with self._lock:
            return len(self._rooms)

    def _live(self, code: str, now: float) -> Room | None:
        room = self._rooms.get(code)
        if room is not None and room.idle(now):
            del self._rooms[code]
            self._stages.pop(code, None)
            return None
        return room

    def _drop_idle(self, now: float) -> int:
        idle = [code for code, room in self._rooms.items() if room.idle(now)]
        for code in idle:
            del self._rooms[code]
            self._stages.pop(code, None)
        return len(idle)
