"""The session's tree: the current data grown with the Grow page's
parameters, or the tree opened from a ``.skops`` file.

:func:`current_fit` is what the pages and panels ask for;
:func:`fit_request` is the same request before it is grown, for the
process-wide cache (:func:`pages.runtime.caches.fitted`) or the work done
ahead (:mod:`pages.runtime.prefetch`).
"""

from __future__ import annotations

from dtree.tables.prepare import criteria_for
from pages.runtime.caches import fitted, prepared
from pages.state import imported
from pages.state.parameters import chosen_parameters
from pages.state.tables_state import current_setup, current_table


def current_fit(preset=None, criterion=None, **overrides):
    """The tree of the current data with the Grow page's parameters (or the
    given ones): ``(Fit, None)`` or ``(None, message)``.

    ``overrides`` replace single parameters (``max_depth=None``...).  The
    message is plain text: show it with ``st.error(md(message))``.

    While a tree opened from a .skops file is in use (``pages.state.imported``):
    that tree, whatever the parameters.
    """
    opened = imported.current()
    if opened is not None:
        return opened.fit, None
    request, error = fit_request(preset, criterion, **overrides)
    if error:
        return None, error
    return fitted(*request)


def fit_request(preset=None, criterion=None, **overrides):
    """What :func:`current_fit` grows, for the current data (not a tree
    opened from a file): ``((table, setup, prep, preset, criterion, params),
    None)`` for :func:`pages.runtime.caches.fitted` or
    ``pages.runtime.caches.fit_now``, or ``(None, message)``."""
    table = current_table()
    setup = current_setup(table)
    prep, error = prepared(table, setup)
    if error:
        return None, error
    chosen_preset, chosen_criterion, params = chosen_parameters(setup.task)
    preset = chosen_preset if preset is None else preset
    if criterion is None:
        criterion = chosen_criterion if preset == chosen_preset else \
            criteria_for(setup.task, preset)[0]
    params.update(overrides)
    return (table, setup, prep, preset, criterion, params), None
