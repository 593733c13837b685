"""The process-wide cache of prepared data and fitted trees (Streamlit-aware).

:data:`MODELS` is one :class:`pages.runtime.memory.SizedLRU` shared by every
session (read-only values), keyed by the dataset's key (a content hash for
uploads) and the plain settings, and bounded by estimated bytes
(``DTREE_MODELS_MB``, 300 MB by default): a class on one link fits a built-in
dataset once, and 60 different uploads cannot fill the server's memory.  A
fitted model with its recorded steps is costly to pickle, which
``st.cache_data`` would do on every rerun.

An upload's entries go as soon as no session holds it (:func:`hold_upload`),
and the janitor (:mod:`pages.runtime.janitor`) reaps the sessions that
closed.
"""

from __future__ import annotations

import sys
import threading
import weakref

import streamlit as st

from dtree.tables.dataset import Loaded
from dtree.tables.io import DataError
from dtree.tables.prepare import Setup, estimator_for, prepare
from dtree import resampled_trees
from dtree.views.instability import same_categories
from pages.runtime.fits import Fit, Resampled, _size
from pages.runtime.janitor import request_trim, start_janitor
from pages.runtime.memory import MB, SizedLRU, budget_mb
from pages.state.session import tr

#: Prepared data, fitted trees and what is derived from them, for every
#: session of this process.  Keys start with what they are ("prepared",
#: "fit", ...) and hold nothing session-specific: the dataset's key and the
#: plain settings.  Bounded by estimated bytes (and entries).
MODELS = SizedLRU(budget_mb("models", 300) * MB, max_entries=256, size_of=_size,
                  name="models")


def _watched_caches() -> dict:
    caches = {"models": MODELS}
    exports = sys.modules.get("pages.panels.export_panel")
    if exports is not None:
        caches["exports"] = exports.FILES
    return caches


def reap_closed_sessions() -> int:
    """Drop the closed sessions whose time to reconnect is over; how many.

    Streamlit keeps a closed session for ``server.disconnectedSessionTTL``
    (120 s) in a TTL cache (``MemorySessionStorage``) that removes expired
    entries only when another session is saved into it: on a server that
    went quiet after a class, never.  Their session state (uploaded tables,
    fits held through them) then stays until the next student closes a tab.
    This asks that cache to expire what is due, under the session manager's
    own lock.  Streamlit internals, pinned to 1.67.* (tests/app/test_memory.py
    checks the path); anything unexpected does nothing."""
    try:
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return 0
        manager = Runtime.instance()._session_mgr
        cache = manager._session_storage._cache
        with manager._storage_lock:
            return len(cache.expire())
    except (AttributeError, TypeError, RuntimeError):
        return 0


start_janitor(_watched_caches, reap_closed_sessions)  # once per process (pages.runtime.janitor)

#: upload key -> how many Loaded objects (sessions' tables) hold it now
_upload_holders: dict[str, int] = {}
_upload_lock = threading.Lock()


def hold_upload(table: Loaded) -> Loaded:
    """Count ``table`` as a holder of its upload key: when the last holder
    is gone (its sessions ended, or they chose other data), what the caches
    keep for that upload (prepared data, fits and what derives from them)
    is released at once rather than when the size budget pushes it out, and
    the heap is trimmed (see :func:`release_upload`)."""
    key = table.key
    with _upload_lock:
        _upload_holders[key] = _upload_holders.get(key, 0) + 1
    weakref.finalize(table, release_upload, key)
    return table


def release_upload(key: str) -> bool:
    """One holder of upload ``key`` is gone; when it was the last, drop the
    cache entries of that upload and ask for a heap trim.  True if dropped."""
    with _upload_lock:
        left = _upload_holders.get(key, 0) - 1
        if left > 0:
            _upload_holders[key] = left
            return False
        _upload_holders.pop(key, None)
    MODELS.discard_where(lambda k: isinstance(k, tuple) and key in k)
    request_trim()
    return True


def _prepared(key: str, setup: Setup, _frame):
    def make():
        try:
            return prepare(_frame, setup), None
        except DataError as exc:
            return None, exc.with_traceback(None)  # (its code words it in Chinese)
    return MODELS.get_or_create(("prepared", key, setup), make)


def prepared(table: Loaded, setup: Setup):
    """(Prepared, None) or (None, message)."""
    return _prepared(table.key, setup, table.frame)


def shared_result(kind: str, key: tuple, make):
    """``make()`` computed once for the whole process and kept in
    :data:`MODELS` (size-bounded) under ``(kind, *key)``: for values derived
    from a fit that are costly (read-only, shared by every session)."""
    return MODELS.get_or_create((kind, *key), make)


def _fit_key(key: str, setup: Setup, preset: str, criterion: str, params: tuple) -> tuple:
    """Where :data:`MODELS` keeps the fit of these settings."""
    return ("fit", key, setup, preset, criterion, params)


def _fit(key: str, setup: Setup, preset: str, criterion: str, params: tuple, _prep):
    """The Fit for these settings, grown once for every session of the
    process (concurrent sessions wait for the one that grows it)."""
    cache_key = _fit_key(key, setup, preset, criterion, params)

    def make():
        prep = _prep
        if preset == "ID3" and setup.task == "classification":
            prep = prep.complete_rows()  # ID3 has no rule for missing values
        model = estimator_for(setup.task, preset, criterion, prep,
                              **dict(params)).fit(prep.X_train, prep.y_train)
        return Fit(model, prep, base=_prep)

    fit = MODELS.get_or_create(cache_key, make)
    MODELS.remeasure(cache_key)  # its derived parts may have grown since
    return fit


def fit_now(table: Loaded, setup: Setup, prep, preset: str, criterion: str, params: dict):
    """The Fit of :func:`fitted`, without Streamlit (raises what the engine
    refuses): for work done outside a page's run (:mod:`pages.runtime.prefetch`)."""
    return _fit(table.key, setup, preset, criterion, tuple(sorted(params.items())), prep)


def cached_fit(table: Loaded, setup: Setup, prep, preset: str, criterion: str,
               params: dict):
    """The Fit :func:`fitted` would return if it is already grown, else None."""
    return MODELS.get(_fit_key(table.key, setup, preset, criterion,
                               tuple(sorted(params.items()))))


def fitted(table: Loaded, setup: Setup, prep, preset: str, criterion: str, params: dict):
    """(Fit, None) or (None, message); cached, with a progress message while
    the tree grows."""
    args = (table.key, setup, preset, criterion, tuple(sorted(params.items())), prep)
    rows, cols = prep.X_train.shape
    with st.spinner(tr(f"Growing the tree on {rows:,} rows × {cols:,} features…",
                       f"正在 {rows:,} 个样本 × {cols:,} 个特征上生长决策树…"),
                    show_time=True):
        try:
            return _fit(*args), None
        except (ValueError, TypeError, DataError) as exc:  # what the engine refuses
            return None, exc.with_traceback(None)  # (its code words it in Chinese)


def resampled(table: Loaded, setup: Setup, prep, preset: str, criterion: str, params: dict,
              draw: tuple):
    """(Resampled, None) or (None, message): the trees grown with these
    settings on resamples of the training rows, ``draw`` being
    (n_resamples, method, drop_share, seed); grown once for every session
    of the process and kept in :data:`MODELS`, so that stepping through
    them grows nothing."""
    full, error = fitted(table, setup, prep, preset, criterion, params)
    if error:
        return None, error
    n, method, share, seed = draw
    key = (table.key, setup, preset, criterion, tuple(sorted(params.items())), draw)

    def make():
        X = same_categories(full.model, full.prep.X_train)
        estimator = estimator_for(setup.task, preset, criterion, full.prep, **params)
        result = resampled_trees(estimator, X, full.prep.y_train, n_resamples=n,
                                 method=method, drop_share=share, random_state=seed)
        return Resampled(result, full, X)

    rows = len(full.prep.y_train)
    with st.spinner(tr(f"Growing {n} trees on resamples of {rows:,} rows…",
                       f"正在 {rows:,} 个样本的 {n} 次重抽样上生长决策树…"), show_time=True):
        try:
            return shared_result("resampled", key, make), None
        except (ValueError, TypeError, DataError) as exc:  # what the engine refuses
            return None, exc.with_traceback(None)
