"""What every page imports: the session, the dataset in use, the tree's
parameters and the fitted tree (the Streamlit-aware helpers).

The pages import everything from here; it is defined in:

* :mod:`pages.state.session`: the interface language (``lang``, ``tr``,
  ``said``), presenter mode, the step shown, ``require_frame``;
* :mod:`pages.state.tables_state`: the dataset in use (``current_table``,
  ``use_table``, uploads) and the Data page's choices (``current_setup``);
* :mod:`pages.runtime.caches`: the process-wide cache of prepared data and fits
  (``MODELS``, ``prepared``, ``fitted``, ``shared_result``);
* :mod:`pages.runtime.fits` (the :class:`Fit` and what derives from it, no
  Streamlit), :mod:`pages.panels.sidebar` (the Grow page's sidebar) and
  :mod:`pages.state.url_state` (the view in the URL);
* :mod:`dtree.tables.choices`: the tree parameters' defaults and rules,
  which :func:`chosen_parameters` applies to the session here.

Here: the tree's parameters as the Grow page's sidebar left them in the
session (other pages read them too), and :func:`current_fit`.
"""

from __future__ import annotations

import streamlit as st

from dtree.tables import choices
from dtree.tables.choices import DEFAULTS, GROWTH, HIST_ROWS, NAMES, hist_applies  # noqa: F401
from dtree.tables.dataset import Loaded, default_target  # noqa: F401
from dtree.tables.prepare import criteria_for
from dtree.views import links
from pages.runtime.caches import (MODELS, fitted, hold_upload, prepared,  # noqa: F401
                          reap_closed_sessions, release_upload, shared_result)
from pages.runtime.fits import Fit, step_dot  # noqa: F401
from pages.state.session import (LANGUAGES, keys_legend, lang, presenting, require_frame,  # noqa: F401
                           said, shown_step, step_button, tr)
from pages.state.tables_state import (DEFAULT_DATASET, SETUP_KEYS, builtin_table,  # noqa: F401
                                current_setup, current_table, identifiers, inferred_task,
                                inferred_types,
                                summary, table_title, upload_table, use_table)

md = links.md  # user text made literal for Markdown (the pages import it from here)


# ---------------------------------------------------------------------------
# The tree's parameters (the Grow page's sidebar; other pages read them)
# ---------------------------------------------------------------------------


def default_splitter(table: Loaded) -> str:
    return choices.default_splitter(len(table.frame))


def _start_splitter(state) -> None:
    """Each table starts on its default splitter (hist above HIST_ROWS rows);
    what the user then chooses stays until another table is opened.  A
    splitter given in the link of the first run is kept."""
    table = current_table()
    before = state.get("splitter_table")
    if before != table.key:
        state["splitter_table"] = table.key
        if before is not None or "splitter" not in state:
            state["splitter"] = default_splitter(table)


def chosen_parameters(task):
    """(preset, criterion, parameters) from the sidebar's state or the defaults
    (read before the widgets are drawn, which may be later in the run); a
    criterion the preset does not allow is replaced in the session too."""
    state = st.session_state
    _start_splitter(state)
    preset, criterion, params = choices.chosen_parameters(task, state)
    if state.get("criterion") != criterion:
        state["criterion"] = criterion
    return preset, criterion, params


def hist_notice(table: Loaded, params: dict) -> None:
    """Say that a large table is grown with the histogram splitter, and how to switch."""
    if params.get("splitter") != "hist" or len(table.frame) <= HIST_ROWS:
        return
    rows = len(table.frame)
    st.info(tr(f"This table has {rows:,} rows, so the tree is grown with the histogram "
               "splitter (splitter = hist): each feature is binned once into at most 255 "
               "bins, and thresholds fall between bins. Choose splitter = best in the "
               "sidebar to try every threshold (slower).",
               f"该表有 {rows:,} 行，因此用直方图划分方式（splitter = hist）生长决策树：每个特征"
               "预先分成至多 255 个箱，阈值落在箱与箱之间。在侧边栏选择 splitter = best 可尝试"
               "每一个阈值（较慢）。"), icon=":material/speed:")


def criterion_name(criterion: str) -> str:
    """A criterion's name in the interface language."""
    return choices.criterion_name(criterion, lang())


def growth_name(growth: str) -> str:
    """A growth order's name in the interface language."""
    return choices.growth_name(growth, lang())


# ---------------------------------------------------------------------------
# The fitted tree
# ---------------------------------------------------------------------------


def current_fit(preset=None, criterion=None, **overrides):
    """The tree of the current data with the Grow page's parameters (or the
    given ones): ``(Fit, None)`` or ``(None, message)``.

    ``overrides`` replace single parameters (``max_depth=None``...).  The
    message is plain text: show it with ``st.error(md(message))``.

    While a tree opened from a .skops file is in use (``pages.state.imported``):
    that tree, whatever the parameters.
    """
    from pages.state import imported
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
    None)`` for :func:`pages.runtime.caches.fitted` or ``pages.runtime.caches.fit_now``, or
    ``(None, message)``."""
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


from pages.panels.sidebar import sidebar_controls  # noqa: E402,F401  (the Grow page imports it from here)
