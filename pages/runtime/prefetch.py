"""The Prune page's slow work, done ahead while the user is elsewhere.

The Prune page opens on the tree grown in full and its cross-validated
pruning (one tree grown per fold): about a second of CPU on a few thousand
rows.  On the Data and Grow pages of a small table,
:func:`prefetch_pruning` starts a background thread that computes exactly
what the Prune page will ask for first (the same cache keys: the fit in
``MODELS``, the sequence and the cross-validation memoised on the fit), so
that the page finds it ready, or waits only for the rest of it.

Bounded: only tables of at most :data:`MAX_CELLS` training cells, one
thread per process at a time (a class of thirty does not start thirty), and
nothing when the work is already cached.  The thread holds the table while
it works, so an upload's cache entries are released only after it is done
(``pages.runtime.caches.hold_upload``).  What the engine refuses is left for the
page to say.  No Streamlit calls run in the thread.
"""

from __future__ import annotations

import threading

from dtree import ccp_cross_validate, pruning_sequence
from dtree.views import prunetext as words
from dtree.views import pruneview as pv
from pages.runtime.caches import cached_fit, fit_now

#: Training rows × features up to which the work is done ahead (5,000 rows
#: of ten features: about 0.5 s of CPU on this project's machine).
MAX_CELLS = 60_000
#: What the Prune page grows first (its "Grow the full tree first" switch is on).
FULL = {"max_depth": None, "max_leaf_nodes": None}

_running = threading.Lock()


def sequence(fit):
    """The weakest-link sequence of the fit's tree (memoised on the fit)."""
    return pv.memo(fit, "sequence", lambda: pruning_sequence(fit.model.tree_))


def cv_key(folds: int, seed: int) -> tuple:
    return ("cv", int(folds), int(seed))


def cv_work(fit, folds: int, seed: int, ours: bool = True):
    """A function computing ``ccp_cross_validate`` of the fit's tree on its
    training rows.  ``ours``: the tree was grown on those rows here (not
    opened from a file), so it is not grown again."""
    prep = fit.prep
    return lambda: ccp_cross_validate(fit.model, prep.X_train, prep.y_train, cv=int(folds),
                                      random_state=int(seed), fitted=ours)


def cross_validation(fit, folds: int, seed: int):
    """:func:`cv_work`'s table, memoised on the fit under :func:`cv_key` (as
    the Prune page keeps it)."""
    return pv.memo(fit, cv_key(folds, seed), cv_work(fit, folds, seed))


def default_folds(n_train: int) -> int:
    return words.fold_options(n_train)[1]


def _done(fit, seed) -> bool:
    """Whether the fit already holds its sequence and, unless that is empty,
    its cross-validation with the default folds."""
    if not pv.has_memo(fit, "sequence"):
        return False
    return not len(sequence(fit)) or pv.has_memo(
        fit, cv_key(default_folds(len(fit.prep.y_train)), seed))


def prefetch_pruning(request) -> bool:
    """Start the Prune page's first work in the background for ``request``
    (``pages.state.current_tree.fit_request(**FULL)``'s value, computed in the page's
    run); whether a thread was started."""
    table, setup, prep = request[:3]
    rows, cols = prep.X_train.shape
    if rows * max(cols, 1) > MAX_CELLS or rows < 2:
        return False
    fit = cached_fit(*request)
    if fit is not None and _done(fit, setup.seed):
        return False  # (by the Prune page, or an earlier prefetch)
    if not _running.acquire(blocking=False):
        return False
    thread = threading.Thread(target=_work, args=(request, int(setup.seed)),
                              name="dtree-prefetch", daemon=True)
    try:
        thread.start()
    except RuntimeError:
        _running.release()
        return False
    return True


def _work(request, seed):
    try:
        fit = fit_now(*request)
        if len(sequence(fit)):
            cross_validation(fit, default_folds(len(fit.prep.y_train)), seed)
    except Exception:  # noqa: BLE001  (the page computes it again and says why)
        pass
    finally:
        _running.release()


def prefetch_for_this_session(early: bool = False) -> bool:
    """:func:`prefetch_pruning` for the session's data and the Grow page's
    parameters: called by the Data page once the table is in use (``early``)
    and at the end of its run, and at the end of the Grow page's run.

    ``early``: a table of more than :data:`MAX_CELLS` rows is left to the
    call at the end of the run, which finds it prepared by the page: an
    early call would prepare it before the page is drawn only to find it too
    large (a big upload's page would wait for that)."""
    from pages.state import imported
    from pages.state.current_tree import fit_request
    from pages.state.tables_state import current_table

    if imported.current() is not None:
        return False
    try:
        if early and len(current_table().frame) > MAX_CELLS:
            return False
        request, error = fit_request(**FULL)
        return error is None and prefetch_pruning(request)
    except Exception:  # noqa: BLE001  (work ahead never breaks a page; the page
        return False   # asks the same things itself and says what is wrong)


def idle(timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for a running prefetch to end; whether
    none is running now."""
    if _running.acquire(timeout=timeout):
        _running.release()
        return True
    return False
