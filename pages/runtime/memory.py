"""Caches of the app process bounded by their size in bytes.

A lecture puts a whole class on one server process, so everything the app
keeps across runs is bounded by its estimated size in bytes (as well as by
entry count), and every shared mutable structure is guarded by a lock:

* :class:`SizedLRU`: a thread-safe least-recently-used map that evicts by
  estimated bytes; :meth:`SizedLRU.get_or_create` computes a missing value
  once, even when many sessions ask for it at the same moment;
* :func:`estimate_bytes`: the bytes held by numpy arrays, pandas frames,
  strings and the containers and objects around them (shared parts once).

Not a page: Streamlit-free helpers the pages' caches are built from
(pages/runtime/caches.py, fits.py, export_panel.py); the garbage collector and the
heap are :mod:`pages.runtime.janitor`'s.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
import pandas as pd

MB = 2**20

# -- estimated size ---------------------------------------------------------

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


# -- the cache --------------------------------------------------------------


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
