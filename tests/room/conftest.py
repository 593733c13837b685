"""Fixtures of the room tests.

- ``redis_url`` (session): a real ``redis-server`` on 127.0.0.1 and a free
  port, started for the session (tests/helpers/redis_server.py); a missing
  server or Python client skips the test here and fails it in CI.
- ``store`` (per test): a room store, once embedded and once over Redis;
  each Redis store gets keys of its own, so tests do not see each other's
  rooms.
- ``make_redis_store``: more Redis stores on the same keys, like several app
  processes sharing one server.
"""

from __future__ import annotations

import importlib.util
import uuid

import pytest

from pages.room.setting import EmbeddedStore, RedisStore
from tests.helpers.installed import require
from tests.helpers.redis_server import REDIS_SERVER, running_redis

HAS_REDIS_CLIENT = importlib.util.find_spec("redis") is not None


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """The URL of a redis-server run for this test session."""
    require(REDIS_SERVER is not None, "redis-server")
    require(HAS_REDIS_CLIENT, "the redis Python client (requirements-test.txt)")
    with running_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def make_redis_store(redis_url):
    """``make()`` -> a new RedisStore (a new client) on this test's own keys."""
    prefix = f"test:{uuid.uuid4().hex}:"
    return lambda: RedisStore(redis_url, prefix=prefix)


@pytest.fixture(params=["embedded", "redis"])
def store(request):
    """A room store of each kind, empty."""
    if request.param == "embedded":
        return EmbeddedStore(max_rooms=1_000)
    return request.getfixturevalue("make_redis_store")()
