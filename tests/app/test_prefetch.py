"""pages.runtime.prefetch: the Prune page's first work (the full tree, its
cross-validation) is done in the background after the Data or Grow page of a
small table, under the keys the Prune page reads, so that the page does not
do it again; a large table is left alone; concurrent callers of one memo
compute it once."""

import threading
import time

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import pages.runtime.prefetch as prefetch
from dtree.views import pruneview as pv
from tests.helpers.apptest import APP


@pytest.fixture
def counted(monkeypatch):
    """Calls of ccp_cross_validate made through pages.runtime.prefetch (the page's and
    the thread's)."""
    calls = []
    real = prefetch.ccp_cross_validate

    def counting(*args, **kwargs):
        calls.append(threading.current_thread().name)
        return real(*args, **kwargs)
    monkeypatch.setattr(prefetch, "ccp_cross_validate", counting)
    return calls


def fresh_app():
    from pages.runtime.caches import MODELS

    assert prefetch.idle(120)
    MODELS.clear()
    return AppTest.from_file(APP, default_timeout=120)


def test_the_grow_page_prepares_the_prune_page(counted):
    at = fresh_app().run()
    assert not at.exception
    assert prefetch.idle(120)
    assert counted == ["dtree-prefetch"]  # done once, in the background
    at.switch_page("pages/prune.py").run()
    assert not at.exception
    assert counted == ["dtree-prefetch"]  # the page found it
    assert any("1-SE" in m.value for m in at.markdown)
    at.switch_page("pages/grow.py").run()  # done already: no second thread
    assert prefetch.idle(120) and counted == ["dtree-prefetch"]


def test_a_large_table_is_not_prefetched(counted, monkeypatch):
    monkeypatch.setattr(prefetch, "MAX_CELLS", 10)
    at = fresh_app().run()
    assert not at.exception
    assert prefetch.idle(120) and counted == []
    at.switch_page("pages/prune.py").run()
    assert not at.exception
    assert counted and "dtree-prefetch" not in counted  # the page computed it itself


def test_a_memo_asked_twice_at_once_is_computed_once():
    class Owner:
        pass

    owner, calls, results = Owner(), [], []
    started = threading.Event()

    def compute():
        calls.append(1)
        started.set()
        time.sleep(0.05)  # (holds the computation open; the other caller must wait, not redo it)
        return np.arange(3)

    def ask():
        results.append(pv.memo(owner, "k", compute))
    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and all(r is results[0] for r in results)


def test_a_memo_that_raises_keeps_nothing():
    class Owner:
        pass

    owner = Owner()
    with pytest.raises(ValueError):
        pv.memo(owner, "k", lambda: (_ for _ in ()).throw(ValueError("no")))
    assert not pv.has_memo(owner, "k")
    assert pv.memo(owner, "k", lambda: 7) == 7


def test_the_data_pages_early_call_leaves_a_long_table_to_the_end_of_the_run(counted,
                                                                             monkeypatch):
    """The early call skips a table of more rows than MAX_CELLS without
    preparing it; the call at the end of the run decides on the prepared
    rows (here one feature: 112 training cells, within the limit)."""
    from pages.runtime import caches
    from tests.helpers.call_log import log_calls

    prepared = []
    log_calls(monkeypatch, prepared, caches, "prepare", "prepare")
    monkeypatch.setattr(prefetch, "MAX_CELLS", 120)  # (Iris: 150 rows, 112 for training)
    at = fresh_app()
    at.switch_page("pages/data.py")
    at.session_state["feature_mode"] = "choose"
    at.session_state["features"] = ["petal length (cm)"]
    calls = []
    real_call = prefetch.prefetch_for_this_session

    def logged(early=False):
        calls.append((early, len(prepared)))
        return real_call(early)
    monkeypatch.setattr(prefetch, "prefetch_for_this_session", logged)
    at.run()
    assert not at.exception
    assert at.success, "the split is made"
    assert calls and calls[0] == (True, 0), calls  # nothing prepared for the early call
    assert prefetch.idle(120) and counted == ["dtree-prefetch"]  # the end's call took it
