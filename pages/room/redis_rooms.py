"""Rooms kept in Redis, shared by several app processes.

What :class:`~pages.room.store.RedisStore` keeps its rooms in.  Each room is
one Redis hash, ``<prefix><CODE>``, with four fields: ``version`` and
``touched`` (read by a poll without decoding the room), ``room`` (the
whole room as JSON) and ``stage`` (what followers are shown,
:mod:`pages.room.stage`, apart so that a ballot never reads or writes it).  The key lives :data:`~pages.room.model.IDLE_SECONDS`
after the room's last change, so Redis frees an abandoned room by itself.

A change is optimistic: the key is watched, the room read and changed, and
the write goes through only if nobody wrote the key in between (``WATCH`` /
``MULTI`` / ``EXEC``); otherwise it is tried again on the room as it now
is, so two processes casting at once lose no ballot.  The ``redis`` client
is an optional extra (``pip install .[rooms]``), imported only when a
:class:`RedisRooms` is made.  The rules of who may change what are
:mod:`pages.room.store`'s.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from contextlib import contextmanager
from urllib.parse import urlsplit

from pages.room.model import IDLE_SECONDS, Ballot, Room, Vote

#: How often a change is tried again when other writers keep winning.
MAX_ATTEMPTS = 1_000
#: Seconds to wait for Redis before a call fails.
TIMEOUT_SECONDS = 5


def is_redis_url(url: str) -> bool:
    """True if ``url`` reads ``redis://host[:port][/db]`` (or ``rediss://``).

    Parameters
    ----------
    url : str

    Returns
    -------
    bool
    """
    parts = urlsplit(url)
    database = parts.path.strip("/")
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:  # not a number, or out of range
        port_ok = False
    return (parts.scheme in ("redis", "rediss") and bool(parts.hostname) and port_ok
            and (database == "" or database.isdigit()))


def room_to_json(room: Room) -> str:
    """A room as the JSON text kept in Redis.

    Parameters
    ----------
    room : Room

    Returns
    -------
    str
        A JSON object that :func:`room_from_json` reads back to an equal room.
    """
    vote = room.vote
    return json.dumps({
        "code": room.code, "secret_hash": room.secret_hash, "view": room.view,
        "version": room.version, "created": room.created, "touched": room.touched,
        "vote": None if vote is None else {
            "node": vote.node, "step": vote.step, "options": vote.options,
            "ranges": vote.ranges, "revealed": vote.revealed, "closed": vote.closed,
            "ranking": vote.ranking, "rows": vote.rows,
            "ballots": {voter: [b.feature, b.range] for voter, b in vote.ballots.items()},
        },
    }, ensure_ascii=False, separators=(",", ":"))


def room_from_json(text: str) -> Room:
    """The room that :func:`room_to_json` wrote.

    Parameters
    ----------
    text : str

    Returns
    -------
    Room
    """
    data = json.loads(text)
    vote = data["vote"]
    if vote is not None:
        vote = Vote(
            node=vote["node"], step=vote["step"], options=tuple(vote["options"]),
            ranges={feature: tuple(labels) for feature, labels in vote["ranges"].items()},
            ballots={voter: Ballot(feature, range_) for voter, (feature, range_)
                     in vote["ballots"].items()},
            revealed=vote["revealed"], closed=vote["closed"],
            ranking=tuple((feature, score) for feature, score in vote["ranking"]),
            rows=tuple((label, count) for label, count in vote.get("rows", ())))
    return Room(code=data["code"], secret_hash=data["secret_hash"], view=data["view"],
                version=data["version"], vote=vote, created=data["created"],
                touched=data["touched"])


class RedisRooms:
    """Rooms in the Redis server at ``url``, one hash each.

    Parameters
    ----------
    url : str
        ``redis://host:port/db`` (or ``rediss://`` for TLS).
    prefix : str, default "dtree:room:"
        What every room's key starts with.

    Notes
    -----
    A failure to reach Redis is raised as the built-in
    :class:`ConnectionError`, which the store turns into a room error.
    """

    def __init__(self, url: str, *, prefix: str = "dtree:room:"):
        try:
            import redis  # an optional extra: only a Redis store needs it
        except ImportError as error:
            raise ImportError("a Redis room store needs the redis client: "
                              "pip install '.[rooms]' in a clone (or pip install redis)") from error

        self.prefix = prefix
        self._redis = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=TIMEOUT_SECONDS,
            socket_connect_timeout=TIMEOUT_SECONDS)
        self._watch_error = redis.WatchError
        self._redis_error = redis.RedisError

    def insert(self, room: Room, now: float) -> str | None:
        """Keep a new room; None when kept, ``"taken"`` if its code is in use."""
        key = self.prefix + room.code
        with self._reaching(), self._redis.pipeline() as pipe:
            try:
                pipe.watch(key)
                if pipe.exists(key):
                    return "taken"
                pipe.multi()
                self._write(pipe, key, room, now)
                pipe.execute()
            except self._watch_error:  # another process took the code meanwhile
                return "taken"
        return None

    def load(self, code: str, now: float) -> Room | None:
        """The room, or None if there is none or it was idle too long."""
        with self._reaching():
            text = self._redis.hget(self.prefix + code, "room")
        room = None if text is None else room_from_json(text)
        return None if room is None or room.idle(now) else room

    def version(self, code: str, now: float) -> int | None:
        """The room's version, read without decoding the room; None as for :meth:`load`."""
        with self._reaching():
            version, touched = self._redis.hmget(self.prefix + code, "version", "touched")
        if version is None or touched is None or now - float(touched) > IDLE_SECONDS:
            return None
        return int(version)

    def change(self, code: str, apply: Callable[[Room], None], now: float,
               stage: str | None = None) -> int | None:
        """Apply ``apply`` to the room and write it (and ``stage``, when
        given, as the room's stage), unless ``apply`` raises; tried again
        while another writer wins.  The new version, or None if there is
        no room."""
        key = self.prefix + code
        with self._reaching():
            for _ in range(MAX_ATTEMPTS):
                with self._redis.pipeline() as pipe:
                    try:
                        pipe.watch(key)
                        text = pipe.hget(key, "room")
                        room = None if text is None else room_from_json(text)
                        if room is None or room.idle(now):
                            return None
                        apply(room)
                        pipe.multi()
                        self._write(pipe, key, room, now)
                        if stage is not None:
                            pipe.hset(key, "stage", stage)
                        pipe.execute()
                        return room.version
                    except self._watch_error:
                        continue
        raise TimeoutError(f"room {code} kept changing: {MAX_ATTEMPTS} tries lost")

    def load_stage(self, code: str, now: float) -> str | None:
        """The room's stage as kept, or None (no room, or no stage yet)."""
        with self._reaching():
            touched, stage = self._redis.hmget(self.prefix + code, "touched", "stage")
        return None if touched is None or now - float(touched) > IDLE_SECONDS else stage

    def remove(self, code: str) -> bool:
        """Drop the room; True if there was one."""
        with self._reaching():
            return bool(self._redis.delete(self.prefix + code))

    def expire(self, now: float) -> int:
        """Drop the rooms idle too long at ``now`` (Redis drops them by itself
        in real time); how many were dropped."""
        dropped = 0
        with self._reaching():
            for key in self._redis.scan_iter(match=self.prefix + "*", count=500):
                with self._redis.pipeline() as pipe:
                    try:
                        pipe.watch(key)
                        touched = pipe.hget(key, "touched")
                        if touched is None or now - float(touched) <= IDLE_SECONDS:
                            continue
                        pipe.multi()
                        pipe.delete(key)
                        dropped += sum(pipe.execute())
                    except self._watch_error:  # changed meanwhile: not idle
                        continue
        return dropped

    def count(self) -> int:
        """How many rooms are kept (a scan of the keys: not for every poll)."""
        with self._reaching():
            return sum(1 for _ in self._redis.scan_iter(match=self.prefix + "*", count=500))

    def _write(self, pipe, key: str, room: Room, now: float) -> None:
        pipe.hset(key, mapping={"version": room.version, "touched": repr(room.touched),
                                "room": room_to_json(room)})
        pipe.expire(key, max(1, math.ceil(room.touched + IDLE_SECONDS - now)))

    @contextmanager
    def _reaching(self):
        """Redis's own errors raised as :class:`ConnectionError`."""
        try:
            yield
        except self._redis_error as error:
            raise ConnectionError(f"the Redis room store does not answer: {error}") from error
