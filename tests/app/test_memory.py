"""The size-bounded caches shared by every session of a server process
(pages/runtime/memory.py, pages/runtime/janitor.py, pages/runtime/caches.py), and the fits
shared across sessions."""

import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from pages.runtime.memory import MB, SizedLRU, estimate_bytes

SHARED_FIT_APP = str(Path(__file__).resolve().parents[1] / "helpers" / "shared_fit_app.py")


def array(mb):
    return np.zeros(int(mb * MB) // 8)


# -- estimated size ------------------------------------------------------------------

def test_estimate_counts_numpy_buffers_once():
    a = array(2)
    assert 2 * MB <= estimate_bytes(a) < 2 * MB + 1024
    # a view and the same array twice share one buffer
    assert estimate_bytes([a, a, a[10:], {"x": a}]) < 2 * MB + 4096
    assert estimate_bytes([a, array(1)]) >= 3 * MB


def test_estimate_walks_objects_and_frames():
    class Holder:
        def __init__(self):
            self.frame = pd.DataFrame({"x": np.arange(100_000, dtype=np.float64)})
            self.parts = (array(1), "label")

    assert estimate_bytes(Holder()) >= 800_000 + MB


# -- the cache -------------------------------------------------------------------------

def test_evicts_least_recently_used_by_bytes():
    cache = SizedLRU(10 * MB)
    for k in "abc":
        cache.put(k, array(3))
    assert cache.keys() == ["a", "b", "c"] and cache.nbytes <= 10 * MB
    cache.get("a")  # now the most recently used
    cache.put("d", array(3))
    assert "b" not in cache and {"a", "c", "d"} <= set(cache.keys())
    assert cache.nbytes <= 10 * MB
    cache.put("big", array(8))  # leaves room for itself only
    assert cache.keys() == ["big"] and cache.evictions >= 4


def test_a_value_larger_than_the_budget_is_returned_but_not_kept():
    cache = SizedLRU(1 * MB)
    cache.put("small", array(0.5))
    value = cache.get_or_create("huge", lambda: array(2))
    assert value.nbytes == 2 * MB
    assert "huge" not in cache and "small" in cache


def test_entry_count_is_bounded_too():
    cache = SizedLRU(100 * MB, max_entries=3)
    for i in range(10):
        cache.put(i, i)
    assert cache.keys() == [7, 8, 9]


def test_remeasure_accounts_for_growth():
    cache = SizedLRU(10 * MB, size_of=lambda box: sum(a.nbytes for a in box))
    cache.put("grows", [array(1)])
    cache.put("other", [array(4)])
    box = cache.get("grows")
    box.append(array(6))  # derived parts computed later
    cache.remeasure("grows")
    assert cache.nbytes <= 10 * MB
    assert "grows" in cache and "other" not in cache


def test_concurrent_callers_compute_a_value_once():
    cache = SizedLRU(100 * MB)
    calls = []
    start = threading.Barrier(16)

    def make():
        calls.append(1)
        time.sleep(0.05)  # long enough for every thread to arrive meanwhile
        return object()

    results = []

    def student():
        start.wait()
        results.append(cache.get_or_create("iris", make))

    threads = [threading.Thread(target=student) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(calls) == 1
    assert len(results) == 16 and all(r is results[0] for r in results)


def test_bytes_stay_consistent_under_threads():
    cache = SizedLRU(5 * MB, max_entries=50)
    start = threading.Barrier(8)
    errors = []

    def worker(seed):
        rng = np.random.default_rng(seed)
        start.wait()
        try:
            for _ in range(300):
                key = int(rng.integers(40))
                op = rng.integers(4)
                if op == 0:
                    cache.put(key, array(float(rng.uniform(0.05, 1))))
                elif op == 1:
                    cache.get_or_create(key, lambda: array(0.3))
                elif op == 2:
                    cache.discard(key)
                else:
                    cache.get(key)
        except Exception as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    with cache._lock:
        total = sum(size for _, size in cache._data.values())
        assert cache.nbytes == total <= 5 * MB
        assert len(cache._data) <= 50


# -- the app's caches ---------------------------------------------------------------------

def iris_fit():
    from dtree import DecisionTreeClassifier
    from dtree.tables.io import load_builtin
    from dtree.tables.prepare import Setup, prepare
    from pages.runtime.fits import Fit

    frame = load_builtin("Iris")
    setup = Setup("species", tuple(c for c in frame.columns if c != "species"), (),
                  "classification", 0.25, 0)
    prep = prepare(frame, setup)
    model = DecisionTreeClassifier(max_depth=None, random_state=0).fit(prep.X_train,
                                                                       prep.y_train)
    return Fit(model, prep)


def test_a_fit_knows_its_size_and_its_step_cache_is_bounded():
    pytest.importorskip("dtree._pruning")
    fit = iris_fit()
    before = fit.nbytes
    assert before > fit.prep.X_train.memory_usage(deep=True).sum()
    fit._cc.max_entries = 3  # a small bound, to see it hold
    tables = [fit.cost_complexity(k) for k in range(fit.n_steps + 1)]
    assert all(t is not None for t in tables)
    assert len(fit._cc) == 3 and fit._cc.nbytes <= fit.CC_BYTES
    assert fit.cost_complexity(fit.n_steps) is tables[-1]  # kept, not recomputed
    fit.scores  # noqa: B018 (derived parts count too)
    assert fit.nbytes > before


def test_the_step_cache_is_safe_under_threads():
    pytest.importorskip("dtree._pruning")
    fit = iris_fit()
    start = threading.Barrier(6)
    seen, errors = [], []

    def student(offset):
        start.wait()
        try:
            for i in range(40):
                k = (i + offset) % (fit.n_steps + 1)
                seen.append((k, id(fit.cost_complexity(k))))
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=student, args=(o,)) for o in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and len(seen) == 240
    # one table per step for everyone (the cache holds every step of Iris)
    assert len({i for _, i in seen}) == fit.n_steps + 1


def test_a_compare_profile_lives_and_dies_with_its_fit():
    import gc
    import weakref

    fit = iris_fit()
    profile = fit.profile
    assert fit.profile is profile and profile.model is fit.model
    assert profile.X_test is fit.base.X_test
    profile.test_predictions(1)
    assert profile.derived_nbytes() > 0
    gone = weakref.ref(fit.model)
    del fit, profile
    gc.collect()
    assert gone() is None


def test_two_sessions_share_one_fit():
    first = AppTest.from_file(SHARED_FIT_APP, default_timeout=120).run()
    second = AppTest.from_file(SHARED_FIT_APP, default_timeout=120).run()
    assert not first.exception and not second.exception
    a, b = first.session_state["fit"], second.session_state["fit"]
    assert a is not None and a is b


def test_the_app_sessions_share_one_fit_of_a_builtin_dataset():
    from pages.runtime.caches import MODELS

    MODELS.clear()  # other tests fit Iris with other settings
    app = str(Path(__file__).resolve().parents[2] / "app.py")
    sessions = [AppTest.from_file(app, default_timeout=120).run() for _ in range(2)]
    assert not any(at.exception for at in sessions)
    fits = [k for k in MODELS.keys() if k[0] == "fit" and k[1] == "builtin:Iris"]
    # the same key from both sessions: one fit with the Grow page's parameters
    # (and at most one of the full tree, which pages.runtime.prefetch grows for Prune)
    grow = [k for k in fits if dict(k[5])["max_depth"] is not None]
    assert len(grow) == 1 and len(fits) - len(grow) <= 1, fits


# -- what a fit keeps per step for the class (views) -----------------------------------

def test_a_fit_builds_each_steps_tree_and_dot_once_and_bounds_them():
    from pages.runtime.fits import step_dot

    fit = iris_fit()
    assert fit.tree_at(2) is fit.tree_at(2)  # shared, not rebuilt
    assert fit.tree_at(2).node_count == fit.model.tree_at(2).node_count
    dot, info = step_dot(fit, 2, lang="en", rankdir="TB")
    again, info2 = step_dot(fit, 2, lang="en", rankdir="TB")
    assert again is dot and info2 == info and info2 is not info  # info: a copy
    assert step_dot(fit, 2, lang="zh", rankdir="TB")[0] != dot  # another view
    before = fit.nbytes
    fit.view(("other",), lambda: array(1))
    assert fit.nbytes >= before + MB  # views count in the fit's size
    fit._views.max_bytes = 2 * MB  # a small bound, to see it hold
    fit.view(("more",), lambda: array(1.5))
    assert fit._views.nbytes <= 2 * MB


def test_a_dot_with_a_prediction_path_is_not_shared():
    from pages.runtime.fits import step_dot

    fit = iris_fit()
    path = [(0, 1.0)]
    step_dot(fit, 1, path=path, lang="en")
    assert not [k for k in fit._views.keys() if k[0] == "dot"]


# -- giving memory back ----------------------------------------------------------------

def test_discard_counts_releases():
    cache = SizedLRU(10 * MB)
    cache.put(("fit", "upload:a", 1), array(1))
    cache.put(("fit", "upload:b", 1), array(1))
    cache.discard_where(lambda k: "upload:a" in k)
    assert cache.keys() == [("fit", "upload:b", 1)] and cache.releases == 1
    assert cache.nbytes < 2 * MB


def test_malloc_trim_runs_on_glibc():
    import pages.runtime.janitor as janitor

    before = janitor.trims
    assert janitor.malloc_trim() is True  # this machine: Debian, glibc
    assert janitor.trims == before + 1


def test_trims_are_rate_limited_to_one_now_and_one_later(monkeypatch):
    import pages.runtime.janitor as janitor

    calls = []
    monkeypatch.setattr(janitor, "malloc_trim", lambda: calls.append(1) or True)
    monkeypatch.setattr(janitor, "_last_trim", 0.0)
    monkeypatch.setattr(janitor, "_trim_pending", False)
    timers = []

    class FakeTimer:
        def __init__(self, wait, fn):
            self.wait, self.fn, self.daemon = wait, fn, False
            timers.append(self)

        def start(self):
            pass

    monkeypatch.setattr(janitor.threading, "Timer", FakeTimer)
    now = [100.0]
    clock = lambda: now[0]  # noqa: E731
    assert janitor.request_trim(5.0, clock) == "now" and len(calls) == 1
    now[0] = 101.0
    assert janitor.request_trim(5.0, clock) == "later"
    assert janitor.request_trim(5.0, clock) == "pending"  # one pending at most
    assert len(calls) == 1 and len(timers) == 1 and timers[0].wait == pytest.approx(4.0)
    timers[0].fn()  # the timer fires
    assert len(calls) == 2 and janitor._trim_pending is False


def test_an_upload_is_released_from_the_caches_when_its_last_holder_goes():
    import gc

    from dtree.tables.dataset import Loaded
    from pages.runtime.caches import hold_upload, MODELS

    frame = pd.DataFrame({"x": np.arange(10.0), "y": [0, 1] * 5})
    first = hold_upload(Loaded("upload:test-release", "t.csv", frame))
    second = hold_upload(Loaded("upload:test-release", "t.csv", frame))  # another session
    MODELS.put(("prepared", "upload:test-release", "setup"), array(0.1))
    MODELS.put(("fit", "upload:test-release", "setup", "CART"), array(0.1))
    MODELS.put(("fit", "upload:other", "setup", "CART"), array(0.1))
    del first
    gc.collect()
    assert ("prepared", "upload:test-release", "setup") in MODELS  # still held
    del second
    gc.collect()
    assert not [k for k in MODELS.keys() if "upload:test-release" in k]
    assert ("fit", "upload:other", "setup", "CART") in MODELS
    MODELS.discard(("fit", "upload:other", "setup", "CART"))


def test_closed_sessions_can_be_reaped_through_streamlits_session_storage():
    """pages.runtime.caches.reap_closed_sessions reaches into Streamlit 1.67's
    session storage: the path it takes must exist, and expire() must drop
    what is due."""
    from streamlit.runtime.memory_session_storage import MemorySessionStorage
    from streamlit.runtime.websocket_session_manager import WebsocketSessionManager

    from pages.runtime.caches import reap_closed_sessions

    assert reap_closed_sessions() == 0  # no runtime here: nothing to do
    storage = MemorySessionStorage(ttl_seconds=1)
    cache = storage._cache
    assert callable(cache.expire)
    src = Path(WebsocketSessionManager.__init__.__code__.co_filename).read_text()
    assert "self._storage_lock = threading.Lock()" in src
    assert "self._session_storage = session_storage" in src

    class Info:  # what the storage keeps (SessionInfo); only .session.id is read
        class session:
            id = "s1"
    storage.save(Info())
    assert len(cache.expire(at_time=time.monotonic() + 5)) == 1
    assert storage.list() == []
