"""Which room store a process uses: rooms in the process
(:class:`EmbeddedStore`, the default) or in Redis (:class:`RedisStore`),
picked by the setting ``DTREE_ROOM_STORE`` (:func:`store_from_setting`).
"""

from __future__ import annotations

import threading

from pages.room.memory_rooms import MemoryRooms
from pages.room.redis_rooms import RedisRooms, is_redis_url
from pages.room.store import RoomStore


class EmbeddedStore(RoomStore):
    """Rooms kept in this process, which serves every room.

    Parameters
    ----------
    max_rooms : int, default 200
        How many rooms may be open at once; more are refused as ``"full"``.
    """

    def __init__(self, max_rooms: int = 200):
        super().__init__(MemoryRooms(max_rooms))
        self.max_rooms = max_rooms


class RedisStore(RoomStore):
    """Rooms kept in Redis, shared by every app process that names it.

    Parameters
    ----------
    url : str
        ``redis://host:port/db``; needs the ``redis`` client (``.[rooms]``).
    prefix : str, default "dtree:room:"
        What every room's Redis key starts with.
    """

    def __init__(self, url: str, *, prefix: str = "dtree:room:"):
        super().__init__(RedisRooms(url, prefix=prefix))
        self.url = url


_stores: dict[str, RoomStore] = {}
_stores_lock = threading.Lock()


def store_from_setting(setting: str | None) -> RoomStore:
    """The process's room store for a ``DTREE_ROOM_STORE`` setting.

    Parameters
    ----------
    setting : str or None
        None, ``""`` or ``"embedded"``: rooms in this process.
        ``"redis://host:port/db"`` (or ``rediss://``): rooms in that Redis
        server, shared with the other processes that name it.

    Returns
    -------
    RoomStore
        The same store for the same setting, for the life of the process.

    Raises
    ------
    ValueError
        For any other setting, naming it.
    """
    name = (setting or "").strip()
    if name.lower() in ("", "embedded"):
        name = "embedded"
    elif not is_redis_url(name):
        raise ValueError(f"DTREE_ROOM_STORE must be 'embedded' or a Redis URL such as "
                         f"redis://127.0.0.1:6379/0, not {setting!r}")
    with _stores_lock:
        if name not in _stores:
            _stores[name] = EmbeddedStore() if name == "embedded" else RedisStore(name)
        return _stores[name]
