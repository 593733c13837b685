"""The dataset in use and the Data page's choices, in the session.

* ``table``: the dataset in use, a :class:`dtree.tables.dataset.Loaded` (a
  built-in one at start, :func:`current_table`); :func:`use_table` changes
  it and forgets the old column choices;
* the Data page's widgets (``target``, ``task``, ``feature_mode``,
  ``features``, ``categorical``, ``test_size``, ``seed``) keep their values
  across pages (``persist_state="session"``); :func:`current_setup` reads
  them, with inferred defaults for any the user has not touched.

The column types, identifiers and summary of a table are cached by its key.
The Data page's source widgets (a built-in dataset, an upload, a .skops
file) call :func:`choose_builtin`, :func:`read_upload` (which leaves the
reading to :mod:`pages.panels.upload_progress`), :func:`read_skops` and
:func:`source_changed`.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dtree.tables import dataset
from dtree.tables.dataset import Loaded, default_target
from dtree.tables.io import DataError, load_builtin
from dtree.tables.prepare import (Setup, column_summary, identifier_columns, infer_task,
                                  infer_types, setup_from_choices)
from pages.runtime.caches import hold_upload
from pages.state import imported
from pages.state.session import lang

DEFAULT_DATASET = "Iris"
SETUP_KEYS = ("target", "task", "feature_mode", "features", "categorical", "test_size",
              "seed")


@st.cache_resource(show_spinner=False, max_entries=8)
def _builtin(title: str) -> pd.DataFrame:
    return load_builtin(title)


def builtin_table(title: str) -> Loaded:
    return dataset.builtin(title, _builtin(title))


def upload_table(data: bytes, filename: str) -> Loaded:
    """Parse an upload; raises DataError."""
    return hold_upload(dataset.upload(data, filename))


def table_title(table: Loaded) -> str:
    """The dataset's title in the interface language (a built-in one has a
    Chinese name; an upload keeps its own: an ARFF file's relation, else its
    file name)."""
    return dataset.table_title(table, lang())


def current_table() -> Loaded:
    if "table" not in st.session_state:
        st.session_state["table"] = builtin_table(DEFAULT_DATASET)
    return st.session_state["table"]


def use_table(table: Loaded) -> None:
    """Make ``table`` the dataset in use and forget the old column choices.

    The Data page's widgets that were shown keep their last value in the
    browser (``persist_state``): dropping the key alone would leave, say,
    Iris's target on screen above an upload whose tree uses another.  So
    each of them is given the new table's default explicitly, which the
    browser then shows."""
    state = st.session_state
    state["table"] = table
    state.pop("imported", None)  # (a tree opened from a .skops file: closed)
    shown = [key for key in SETUP_KEYS if key in state]
    for key in SETUP_KEYS + ("step", "inspect", "playing"):
        state.pop(key, None)
    if shown:
        setup = current_setup(table)
        defaults = {"target": setup.target, "task": "auto", "feature_mode": "all",
                    "categorical": list(setup.categorical),
                    "test_size": table.default_test_size, "seed": 0}
        for key in shown:
            if key in defaults:
                state[key] = defaults[key]


@st.cache_data(show_spinner=False, max_entries=32)
def inferred_types(key: str, _frame: pd.DataFrame):
    return infer_types(_frame)


@st.cache_data(show_spinner=False, max_entries=64)
def inferred_task(key: str, target: str, _frame: pd.DataFrame) -> str:
    return infer_task(_frame[target])


@st.cache_data(show_spinner=False, max_entries=32)
def identifiers(key: str, _frame: pd.DataFrame) -> list:
    return identifier_columns(_frame)


@st.cache_data(show_spinner=False, max_entries=32)
def summary(key: str, _frame: pd.DataFrame, _types: dict) -> pd.DataFrame:
    return column_summary(_frame, _types)


def current_setup(table: Loaded) -> Setup:
    """The data page's choices, or their defaults (the task inferred from the
    target once per table and target)."""
    frame = table.frame
    state = st.session_state
    types, _ = inferred_types(table.key, frame)
    skip = identifiers(table.key, frame) if state.get("feature_mode") != "choose" else ()
    choices = {key: state[key] for key in SETUP_KEYS if key in state}
    if choices.get("task") not in ("classification", "regression"):
        target = choices.get("target")
        if target not in frame.columns:
            target = default_target(table)
        choices["task"] = inferred_task(table.key, target, frame)
    return setup_from_choices(frame, choices, default_target=default_target(table),
                              default_test_size=table.default_test_size,
                              identifiers=skip, types=types)


# -- the Data page's sources (its widgets' callbacks) ---------------------------


def choose_builtin():
    """The built-in dataset chosen in the Data page's list."""
    use_table(builtin_table(st.session_state["builtin"]))


def read_upload():
    """The uploader's file changed: it is read in the Data page's run, below
    the uploader, with a progress indicator when it is big
    (:func:`pages.panels.upload_progress.read_pending_upload`)."""
    st.session_state.pop("upload_error", None)
    st.session_state["upload_pending"] = True


def source_changed():
    """Another source than a .skops file: back to the dataset in use before."""
    if st.session_state.get("source") != "scikit-learn tree":
        imported.close()


def read_skops():
    """Open the uploaded .skops file, with the data file's rows if one is
    given; a file that is refused leaves the session as it was."""
    from pages.state import imported

    state = st.session_state
    for key in ("skops_error", "skops_data_error"):
        state.pop(key, None)
    upload, data = state.get("skops_upload"), state.get("skops_data")
    if upload is None:
        imported.close()
        return
    table = None
    if data is not None:
        try:
            table = upload_table(data.getvalue(), data.name)
        except DataError as exc:
            state["skops_data_error"] = (data.name, exc.with_traceback(None))
    try:
        opened, data_error = imported.open_tree(upload.getvalue(), upload.name, table)
    except Exception as exc:  # noqa: BLE001 (a refused file never ends the session)
        state["skops_error"] = (upload.name, imported.refusal(exc))
        return
    if data_error:
        state["skops_data_error"] = (data.name, data_error)
    imported.use(opened)
