"""Giving the app process's memory back: the garbage collector and the heap.

A lecture puts a whole class on one server process; what the sessions that
closed left behind must go back to the system, not only out of the caches:

* :func:`freeze_imports_once`: ``gc.freeze()`` once per process (see app.py
  for the measurements behind it);
* :func:`malloc_trim` and :func:`request_trim`: glibc's heaps given back,
  at most once every few seconds;
* :func:`start_janitor`: a daemon thread that reaps closed sessions,
  collects cycles and trims the heap when the caches released anything.

Not a page: Streamlit-free helpers; app.py freezes, ``pages/runtime/caches.py``
starts the janitor and asks for trims.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable

from pages.runtime.memory import MB

# ---------------------------------------------------------------------------
# The garbage collector
# ---------------------------------------------------------------------------

_frozen = False
_frozen_lock = threading.Lock()


def freeze_imports_once() -> bool:
    """``gc.freeze()`` once per process: the objects that exist now (modules,
    classes, functions of numpy, pandas, Streamlit and the app) move to the
    permanent generation, which no collection walks again.  Set
    ``DTREE_GC_FREEZE=0`` to skip.  True the one time it froze."""
    global _frozen
    if os.environ.get("DTREE_GC_FREEZE", "1") == "0":
        return False
    with _frozen_lock:
        if _frozen:
            return False
        _frozen = True
    gc.collect()  # no garbage into the permanent generation
    gc.freeze()
    return True


# ---------------------------------------------------------------------------
# Giving memory back
# ---------------------------------------------------------------------------

_libc = None
_trim_lock = threading.Lock()
_last_trim = 0.0
_trim_pending = False
trims = 0  # how many times malloc_trim ran (read by tests and the debug log)


def malloc_trim() -> bool:
    """``malloc_trim(0)``: glibc gives the free pages of its heaps (every
    thread's arena) back to the system.  Freed NumPy buffers and frames
    otherwise stay in the process (after large frees glibc raises its mmap
    threshold, so later large arrays come from the heap).  False where there
    is no glibc."""
    global _libc, trims
    try:
        if _libc is None:
            import ctypes

            _libc = ctypes.CDLL("libc.so.6")
        _libc.malloc_trim(0)  # (ctypes releases the GIL during the call)
    except (OSError, AttributeError):
        return False
    trims += 1
    return True


def request_trim(min_interval: float = 5.0, clock: Callable[[], float] | None = None) -> str:
    """Ask for a :func:`malloc_trim` after memory was released: now, if the
    last one was at least ``min_interval`` seconds ago, else once, later (one
    pending trim at most, on a timer thread).  Returns "now", "later" or
    "pending" (one is already due)."""
    global _last_trim, _trim_pending
    import time

    now = (clock or time.monotonic)()
    with _trim_lock:
        if _trim_pending:
            return "pending"
        wait = _last_trim + min_interval - now
        if wait <= 0:
            _last_trim = now
            run_now = True
        else:
            _trim_pending = True
            run_now = False
    if run_now:
        malloc_trim()
        return "now"

    def later():
        global _last_trim, _trim_pending
        with _trim_lock:
            _trim_pending = False
            _last_trim = time.monotonic()
        malloc_trim()
    timer = threading.Timer(wait, later)
    timer.daemon = True
    timer.start()
    return "later"


_janitor_started = False


def start_janitor(caches: Callable[[], dict] = dict,
                  reap: Callable[[], int] = lambda: 0) -> bool:
    """Once per process, a daemon thread that every ``DTREE_JANITOR_S``
    seconds (10 by default; 0: none) calls ``reap()`` (drops the sessions
    that closed long enough ago: see pages.runtime.caches.reap_closed_sessions),
    collects garbage cycles and, when that freed anything or a cache
    released or evicted entries since, trims the heap.

    Streamlit's own collection after every script run is off
    (.streamlit/config.toml), and an idle server allocates too little for
    Python's automatic collections to run: without this, what the sessions
    that closed left in cycles stays, and so does the memory glibc keeps.
    ``caches()`` names the caches to watch (name -> SizedLRU).  With
    ``DTREE_MEMDEBUG=<file>``, each round appends a JSON line (RSS, the
    caches, what was collected) to that file."""
    global _janitor_started
    try:
        interval = float(os.environ.get("DTREE_JANITOR_S", "10"))
    except ValueError:
        interval = 30.0
    with _frozen_lock:
        if _janitor_started or interval <= 0:
            return False
        _janitor_started = True
    debug = os.environ.get("DTREE_MEMDEBUG")

    def loop():
        import json
        import time

        seen = {}
        while True:
            time.sleep(interval)
            try:
                reaped = reap()
            except Exception:  # the janitor must not die of it
                reaped = 0
            collected = gc.collect()
            now = {name: (c.evictions, c.releases) for name, c in caches().items()}
            released = now != seen
            seen = now
            if collected or released or reaped:
                request_trim(0.0)
            if debug:
                line = dict(t=round(time.time(), 1), rss_mb=round(_rss_mb()),
                            reaped=reaped, collected=collected, trims=trims,
                            caches={name: dict(entries=len(c), mb=round(c.nbytes / MB, 1),
                                               evictions=c.evictions, releases=c.releases)
                                    for name, c in caches().items()})
                with open(debug, "a") as f:
                    f.write(json.dumps(line) + "\n")

    threading.Thread(target=loop, name="dtree-janitor", daemon=True).start()
    return True


def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MB
    except (OSError, ValueError):
        return float("nan")
