"""Reading an upload on the Data page, with a progress indicator for a big one.

The uploader's callback (:func:`pages.state.tables_state.read_upload`) only marks
the file as new; :func:`read_pending_upload` reads it in the Data page's
run, right below the uploader, once: a rerun or another page finds the table
in the session and what was derived from it in the caches (column types by
the table's key, prepared data and fits in ``MODELS``).

A file of :data:`~dtree.views.datatext.BIG_UPLOAD_BYTES` or more is read in
an ``st.status`` box that names each stage as it runs and how long it took:
read and type the columns (here, before the page is drawn: its widgets and
summary need them); then, once the page's columns, overview and preview are
sent, prepare (labels to codes, the split: :func:`prepared_with`, for the
split section) and, at the end of the page (:func:`grow_first_tree`), the
first tree with the Grow page's parameters, which the Grow page then takes
from the cache.  So the browser draws the page while the rows are prepared
and the tree grows: on 500k rows the two take about as long.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import streamlit as st

from dtree.tables.io import DataError
from dtree.views import datatext as words
from dtree.views.links import md
from pages.runtime.caches import prepared
from pages.state.current_tree import current_fit
from pages.state.parameters import chosen_parameters
from pages.state.session import lang
from pages.state.tables_state import (current_setup, current_table, identifiers, inferred_types,
                                      summary, upload_table, use_table)


class Progress:
    """An ``st.status`` box listing the stages of reading a big upload."""

    def __init__(self):
        self.start = time.perf_counter()
        self.box = None

    @contextmanager
    def stage(self, which: str, **fields):
        """Run the block as stage ``which`` (:data:`datatext.UPLOAD_STAGES`):
        the box's label says it is running, a line says when it is done."""
        running = words.upload_stage(which, lang(), **fields)
        label = f"{list(words.UPLOAD_STAGES).index(which) + 1}/{len(words.UPLOAD_STAGES)} · " \
            + running  # (the step, then what it does)
        if self.box is None:
            self.box = st.status(label, expanded=True)
        else:
            self.box.update(label=label, state="running")
        line = self.box.empty()
        line.markdown(running)
        began = time.perf_counter()
        try:
            yield
        except BaseException:  # (also st.stop/rerun: the box must not spin on)
            self.box.update(state="error")
            raise
        line.markdown(words.upload_stage(which, lang(), done=time.perf_counter() - began,
                                         **fields))

    def done(self, rows: int, fitted: bool) -> None:
        self.box.update(label=words.upload_done(rows, time.perf_counter() - self.start,
                                                fitted, lang()),
                        state="complete", expanded=False)


def read_pending_upload():
    """Read the uploader's file if it is new (its callback marked it): make it
    the dataset in use, or record why it was refused (the dataset in use
    stays).  A big file is read stage by stage in a progress box, which is
    returned (for :func:`grow_first_tree`); otherwise None."""
    state = st.session_state
    if not state.pop("upload_pending", False):
        return None
    upload = state.get("upload")
    if upload is None:
        return None
    data = upload.getvalue()
    if len(data) < words.BIG_UPLOAD_BYTES:
        try:
            use_table(upload_table(data, upload.name))
        except DataError as exc:
            state["upload_error"] = (upload.name, exc.with_traceback(None))
        return None
    progress = Progress()
    try:
        with progress.stage("read", name=md(upload.name), mb=len(data) / 1e6):
            table = upload_table(data, upload.name)
    except DataError as exc:
        state["upload_error"] = (upload.name, exc.with_traceback(None))
        return None
    del data
    frame = table.frame
    with progress.stage("types", columns=frame.shape[1]):
        use_table(table)  # (it types the columns for the Data page's defaults)
        types, _ = inferred_types(table.key, frame)
        identifiers(table.key, frame)
        summary(table.key, frame, types)
    return progress


def prepared_with(progress: Progress | None, table, setup):
    """:func:`pages.runtime.caches.prepared` (``(Prepared, None)`` or
    ``(None, message)``), run as the "prepare" stage of a big upload's progress box
    when there is one."""
    if progress is None:
        return prepared(table, setup)
    with progress.stage("prepare", rows=len(table.frame)):
        return prepared(table, setup)


def grow_first_tree(progress: Progress | None) -> None:
    """The last stage of a big upload: its first tree, grown now with the Grow
    page's parameters (``MODELS`` keeps it for that page); then the box is
    closed with the total time."""
    if progress is None:
        return
    table = current_table()
    setup = current_setup(table)
    if prepared(table, setup)[1] is not None:  # (the page says why)
        progress.done(len(table.frame), fitted=False)
        return
    _, _, params = chosen_parameters(setup.task)
    with progress.stage("fit", splitter=params["splitter"], depth=params["max_depth"]):
        fit, _ = current_fit()
    progress.done(len(table.frame), fit is not None)
