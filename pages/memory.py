"""Memory of the app process: caches bounded by size, and the garbage collector.

A lecture puts a whole class on one server process, so everything the app
keeps across runs is bounded by its estimated size in bytes (as well as by
entry count), and every shared mutable structure is guarded by a lock:

* :class:`SizedLRU`: a thread-safe least-recently-used map that evicts by
  estimated bytes; :meth:`SizedLRU.get_or_create` computes a missing value
  once, even when many sessions ask for it at the same moment.
* :func:`estimate_bytes`: the bytes held by numpy arrays, pandas frames,
  strings and the containers and objects around them (shared parts counted
  once).
* :func:`freeze_imports_once`: ``gc.freeze()`` once per process (see app.py
  for the measurements behind it).

Not a page: the Streamlit-free helpers that pages/shared.py, pages/compare.py
and pages/export_panel.py build their caches from.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
import pandas as pd

MB = 2**20

# ---------------------------------------------------------------------------
# Estimated size
# ---------------------------------------------------------------------------

#: At most this many objects are walked for one estimate (a fitted tree with
#: thousands of steps is walked whole; a runaway graph is not).
MAX_OBJECTS = 200_000


def estimate_bytes(obj: Any, _limit: int = MAX_OBJECTS) -> int:
    """Estimated bytes held by ``obj`` and what it references: numpy arrays
    (their buffers, each once), pandas objects (``memory_usage(deep=True)``),
    str/bytes, and the dicts, lists, tuples, sets and plain objects
    (``__dict__`` / ``__slots__``) around them.  Modules, classes and
    functions are not followed (they belong to the process, not the value)."""
    seen: set[int] = set()
    buffers: set[int] = set()
    total = 0
    stack = [obj]
    walked = 0
    while stack and walked < _limit:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        walked += 1
        if isinstance(x, np.ndarray):
            base = x
            while isinstance(base.base, np.ndarray):
                base = base.base
            if id(base) not in buffers:
                buffers.add(id(base))
                total += base.nbytes
            if x.dtype == object:
                stack.extend(x.ravel()[:10_000].tolist())
            continue
        if isinstance(x, (pd.DataFrame, pd.Series, pd.Index)):
            try:
                usage = x.memory_usage(deep=True)
                total += int(usage.sum()) if hasattr(usage, "sum") else int(usage)
            except (TypeError, ValueError):
                total += sys.getsizeof(x)
            continue
        if isinstance(x, (str, bytes, bytearray, memoryview, int, float, complex, bool,
                          type(None))):
            total += sys.getsizeof(x)
            continue
        if isinstance(x, type) or callable(x) and not hasattr(x, "__dict__") or \
                type(x).__name__ in ("module", "function", "builtin_function_or_method",
                                     "method", "weakref", "ReferenceType", "lock",
                                     "RLock", "Thread"):
            continue
        total += sys.getsizeof(x, 64)
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple, set, frozenset, OrderedDict)):
            stack.extend(x)
        else:
            d = getattr(x, "__dict__", None)
            if isinstance(d, dict):
                stack.append(d)
            for slot in getattr(type(x), "__slots__", ()) or ():
                if isinstance(slot, str) and hasattr(x, slot):
                    stack.append(getattr(x, slot))
            sized = getattr(x, "nbytes", None)
            if isinstance(sized, (int, np.integer)) and not isinstance(d, dict):
                total += int(sized)
    return total


# ---------------------------------------------------------------------------
# The cache
# ---------------------------------------------------------------------------


class SizedLRU:
    """A thread-safe LRU map bounded by total estimated bytes and by count.

    ``size_of(value)`` estimates an entry (default :func:`estimate_bytes`);
    a value whose size grows after it was stored (lazily computed parts) can
    be measured again with :meth:`remeasure`.  An entry larger than the whole
    budget is returned to its caller but not kept.
    """

    def __init__(self, max_bytes: int, max_entries: int = 1_000_000,
                 size_of: Callable[[Any], int] = estimate_bytes, name: str = "cache"):
        self.max_bytes = int(max_bytes)
        self.max_entries = int(max_entries)
        self.size_of = size_of
        self.name = name
        self._data: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.RLock()
        self._making: dict[Hashable, threading.Lock] = {}  # one computation per key
        self.evictions = 0
        self.releases = 0  # entries dropped by discard() (their data went away)

    # -- reading ----------------------------------------------------------------
    def __len__(self) -> int:
        with self._lock:
            return len(self._data)

    def __contains__(self, key) -> bool:
        with self._lock:
            return key in self._data

    @property
    def nbytes(self) -> int:
        with self._lock:
            return self._bytes

    def keys(self) -> list:
        with self._lock:
            return list(self._data)

    _MISSING = object()

    def get(self, key, default=None):
        with self._lock:
            item = self._data.get(key, self._MISSING)
            if item is self._MISSING:
                return default
            self._data.move_to_end(key)
            return item[0]

    # -- writing ----------------------------------------------------------------
    def put(self, key, value, size: int | None = None):
        """Store ``value`` (evicting the least recently used entries as
        needed); returns it."""
        size = self.size_of(value) if size is None else int(size)
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if size > self.max_bytes:
                return value  # larger than the budget: used once, not kept
            self._data[key] = (value, size)
            self._bytes += size
            self._evict()
        return value

    def discard(self, key) -> None:
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
                self.releases += 1

    def discard_where(self, test: Callable[[Hashable], bool]) -> None:
        with self._lock:
            for key in [k for k in self._data if test(k)]:
                self.discard(key)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._bytes = 0

    def remeasure(self, key) -> None:
        """Estimate an entry again (it grew since it was stored) and evict
        others if the budget is now exceeded."""
        with self._lock:
            item = self._data.get(key)
        if item is None:
            return
        size = self.size_of(item[0])  # outside the lock: may take a while
        with self._lock:
            now = self._data.get(key)
            if now is None or now[0] is not item[0]:
                return
            self._bytes += size - now[1]
            self._data[key] = (now[0], size)
            if size > self.max_bytes:
                self.discard(key)
            self._evict(keep=key)

    def _evict(self, keep=_MISSING) -> None:
        while self._data and (self._bytes > self.max_bytes or
                              len(self._data) > self.max_entries):
            key = next(iter(self._data))
            if key == keep and len(self._data) > 1:
                self._data.move_to_end(key)
                key = next(iter(self._data))
            _, size = self._data.pop(key)
            self._bytes -= size
            self.evictions += 1

    def get_or_create(self, key, make: Callable[[], Any]):
        """The value for ``key``; ``make()`` is called once for concurrent
        callers of the same key (the others wait for its result)."""
        value = self.get(key, self._MISSING)
        if value is not self._MISSING:
            return value
        with self._lock:
            lock = self._making.setdefault(key, threading.Lock())
        try:
            with lock:
                value = self.get(key, self._MISSING)
                if value is not self._MISSING:
                    return value
                return self.put(key, make())
        finally:
            with self._lock:
                if self._making.get(key) is lock and not lock.locked():
                    del self._making[key]


def arrow(frame: pd.DataFrame):
    """``frame`` as a pyarrow Table without its index: what ``st.table`` sends,
    converted once when it is cached (Streamlit converts a DataFrame again on
    every run that draws it)."""
    import pyarrow as pa

    return pa.Table.from_pandas(frame, preserve_index=False)


def budget_mb(name: str, default: int) -> int:
    """A cache budget in MB: ``default``, or the environment's
    ``DTREE_<NAME>_MB`` (to give a server process more or less memory)."""
    try:
        return max(1, int(os.environ.get(f"DTREE_{name.upper()}_MB", default)))
    except ValueError:
        return default


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
    that closed long enough ago: see pages.shared.reap_closed_sessions),
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
