"""Rooms give their memory back: once closed or expired, nothing holds a
room or its ballots, and the process's store is chosen by one setting."""

from __future__ import annotations

import gc
import time
import tracemalloc
import weakref

import pytest

from pages.room.model import IDLE_SECONDS, MAX_OPTIONS, Ballot
from pages.room.setting import EmbeddedStore, RedisStore, store_from_setting
from pages.room.store import RoomError
from tests.helpers.installed import require
from tests.room.conftest import HAS_REDIS_CLIENT

ROOMS, BALLOTS = 100, 100
OPTIONS = tuple(f"feature {i}" for i in range(MAX_OPTIONS))


def fill(store, now):
    """ROOMS rooms with an open vote of BALLOTS ballots each; their codes and secrets."""
    rooms = [store.create({"page": ["grow"], "step": [str(i)]}, now=now) for i in range(ROOMS)]
    for code, secret in rooms:
        store.open_vote(code, secret, node=0, step=0, options=OPTIONS,
                        ranges={OPTIONS[0]: ("≤ 1", "1 – 2", "> 2")})
        for voter in range(BALLOTS):
            store.cast(code, f"student-{voter}", Ballot(OPTIONS[voter % MAX_OPTIONS]))
    return rooms


def test_closed_and_expired_rooms_leave_nothing_behind():
    store = EmbeddedStore(max_rooms=ROOMS)
    gc.collect()
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        rooms = fill(store, now=time.time())
        held = [weakref.ref(store.get(code)) for code, _ in rooms]
        filled = tracemalloc.get_traced_memory()[0]
        assert store.count() == ROOMS
        with pytest.raises(RoomError) as raised:  # the bound holds
            store.create({"page": ["grow"]})
        assert raised.value.code == "full"
        for code, secret in rooms[: ROOMS // 2]:
            store.close(code, secret)
        assert store.expire(now=time.time() + IDLE_SECONDS + 1) == ROOMS - ROOMS // 2
        assert store.count() == 0
        del rooms
        gc.collect()
        assert [ref for ref in held if ref() is not None] == []
        freed = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert filled - baseline > 1_000_000  # 10,000 ballots weigh something...
    assert freed - baseline < 100_000  # ...and are given back
    store.create({"page": ["grow"]})  # and there is room again


def test_the_setting_picks_the_processes_store():
    embedded = store_from_setting(None)
    assert isinstance(embedded, EmbeddedStore)
    assert all(store_from_setting(s) is embedded for s in ("", "embedded", " Embedded \n"))


@pytest.mark.parametrize("setting", ["memcached://127.0.0.1:11211", "redis://", "redis:/x",
                                     "redis://h:port/0", "redis://h:6379/db0", "embeded",
                                     "127.0.0.1:6379"])
def test_any_other_setting_is_refused_by_name(setting):
    with pytest.raises(ValueError, match="DTREE_ROOM_STORE must be") as raised:
        store_from_setting(setting)
    assert repr(setting) in str(raised.value)


def test_a_redis_setting_gives_one_redis_store_per_url():
    require(HAS_REDIS_CLIENT, "the redis Python client (requirements-test.txt)")
    store = store_from_setting("redis://127.0.0.1:6390/3")  # no call reaches it yet
    assert isinstance(store, RedisStore) and store.url == "redis://127.0.0.1:6390/3"
    assert store_from_setting(" redis://127.0.0.1:6390/3 ") is store
    assert store_from_setting("redis://127.0.0.1:6390/4") is not store
