"""The tree's parameters as the Grow page's sidebar left them in the session.

The sidebar (:mod:`pages.panels.sidebar`) draws the widgets, which keep
their values in the session; every page reads them here, before or without
the widgets, with :func:`chosen_parameters`.  The defaults and rules
(``HIST_ROWS``, where hist applies, which criteria a preset allows) are
plain functions in :mod:`dtree.tables.choices`; this module applies them to
the session and names criteria and growth orders in the interface language.
"""

from __future__ import annotations

import streamlit as st

from dtree.tables import choices
from dtree.tables.dataset import Loaded
from dtree.views import vocabulary
from pages.state.session import lang
from pages.state.tables_state import current_table


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


def criterion_name(criterion: str) -> str:
    """A criterion's name in the interface language."""
    return vocabulary.criterion_name(criterion, lang())


def growth_name(growth: str) -> str:
    """A growth order's name in the interface language."""
    return vocabulary.growth_name(growth, lang())
