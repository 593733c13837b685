"""What a room store keeps its rooms in, as a protocol: the rooms of one
process (:class:`~pages.room.memory_rooms.MemoryRooms`) or of a Redis server
(:class:`~pages.room.redis_rooms.RedisRooms`).  They keep rooms and change
them atomically; the rules are :class:`~pages.room.store.RoomStore`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pages.room.model import Room


class RoomKeeper(Protocol):
    """What a store keeps its rooms in (:class:`~pages.room.memory_rooms.MemoryRooms`,
    :class:`~pages.room.redis_rooms.RedisRooms`): codes are normal, ``now``
    is the time that decides idleness, ``apply`` raises to refuse."""

    def insert(self, room: Room, now: float) -> str | None: ...
    def load(self, code: str, now: float) -> Room | None: ...
    def version(self, code: str, now: float) -> int | None: ...
    def change(self, code: str, apply: Callable[[Room], None], now: float,
               stage: str | None = None) -> int | None: ...
    def load_stage(self, code: str, now: float) -> str | None: ...
    def remove(self, code: str) -> bool: ...
    def expire(self, now: float) -> int: ...
    def count(self) -> int: ...
