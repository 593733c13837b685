"""Many hands at once: ballots cast from many threads lose nothing, in one
process (EmbeddedStore) and through two RedisStores on one redis-server,
as two app processes behind a proxy would be; what one process changes the
other sees.  A store that cannot be reached is a RoomError, not a crash."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from pages.room.model import Ballot
from pages.room.setting import EmbeddedStore, RedisStore
from pages.room.store import RoomError
from tests.helpers.installed import require
from tests.helpers.redis_server import free_port
from tests.room.conftest import HAS_REDIS_CLIENT

VIEW = {"page": ["grow"], "data": ["iris"]}
OPTIONS = ("petal length", "petal width", "sepal length")
RANGES = {"petal length": ("≤ 2.45", "> 2.45")}
VOTERS = 200


def cast_all(stores, code):
    """Cast VOTERS ballots from 16 threads, voter i through stores[i % len(stores)]."""
    def cast(i):
        ballot = Ballot(OPTIONS[i % 3], "> 2.45" if i % 3 == 0 and i % 2 else None)
        return stores[i % len(stores)].cast(code, f"student-{i}", ballot)

    with ThreadPoolExecutor(max_workers=16) as pool:
        return list(pool.map(cast, range(VOTERS)))


def assert_every_ballot_counted(room, versions, first_version):
    vote = room.vote
    assert set(vote.ballots) == {f"student-{i}" for i in range(VOTERS)}
    assert sum(vote.tally().values()) == VOTERS
    assert vote.tally() == {"petal length": 67, "petal width": 67, "sepal length": 66}
    assert vote.range_tally("petal length") == {"≤ 2.45": 0, "> 2.45": 33}
    # every cast made a version of its own
    assert sorted(versions) == list(range(first_version + 1, first_version + VOTERS + 1))
    assert room.version == first_version + VOTERS


def test_two_processes_share_rooms_through_redis(make_redis_store):
    first, second = make_redis_store(), make_redis_store()
    code, secret = first.create(VIEW)
    assert second.get(code).view == VIEW
    opened = first.open_vote(code, secret, node=0, step=0, options=OPTIONS, ranges=RANGES)
    assert second.version(code) == opened and second.get(code).vote.options == OPTIONS
    versions = cast_all([first, second], code)
    assert_every_ballot_counted(second.get(code), versions, opened)
    assert first.get(code) == second.get(code)
    second.reveal(code, secret, [("petal length", 0.9)])  # the presenter may move process
    assert first.get(code).vote.revealed
    first.close(code, secret)
    assert second.get(code) is None


def test_one_process_counts_every_ballot_cast_at_once():
    store = EmbeddedStore()
    code, secret = store.create(VIEW)
    opened = store.open_vote(code, secret, node=0, step=0, options=OPTIONS, ranges=RANGES)
    versions = cast_all([store], code)
    assert_every_ballot_counted(store.get(code), versions, opened)


def test_a_redis_store_that_does_not_answer_is_a_room_error():
    require(HAS_REDIS_CLIENT, "the redis Python client (requirements-test.txt)")
    store = RedisStore(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    for act in (lambda: store.create(VIEW), lambda: store.get("ABCDEF"),
                lambda: store.version("ABCDEF"), lambda: store.cast("ABCDEF", "v", Ballot("x"))):
        with pytest.raises(RoomError) as raised:
            act()
        assert raised.value.code == "unavailable"
