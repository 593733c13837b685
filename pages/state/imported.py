"""A tree fitted in scikit-learn, opened from a ``.skops`` file (the Data
page's third source), and the :class:`pages.runtime.fits.Fit` the other
pages get for it from :func:`pages.state.current_tree.current_fit`.

Session state: ``imported`` holds the :class:`Imported` tree in use, if any
(it replaces the dataset until a dataset is chosen again; the dataset in
``table`` is kept, so that it comes back).  The file is read by
:func:`dtree.load_sklearn`, which refuses pickles and anything but
scikit-learn's tree estimators: nothing in it is unpickled or executed.
An upload is first opened (with its data) in a child process within
:data:`UPLOAD_BUDGET` (:mod:`pages.runtime.budget`,
:func:`pages.state.tree_upload.vet`); only a file that opened there is
opened in the session, so that no file can take the server's memory or
block the other sessions for long.

An optional data file (CSV, Excel... read like any upload) gives the
training rows: the columns named like the tree's ``feature_names_in_`` (the
first columns, in order, when the tree was fitted without names) and the
target (the one other column, or else the last).  With it the node
inspector's candidates, the gain curves, the decision regions, the scores
and the prediction of a row are available; without it the pages say that
they need the data (:func:`needs_data`).  The data file's columns become ``X`` and ``y`` in
:func:`pages.state.tree_upload.prepared`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import streamlit as st

from dtree import NEEDS_DATA, SkopsLimits, TreeFileError, load_sklearn
from dtree.tables.dataset import Loaded
from dtree.views.messages import tree_file_error
from pages.runtime.budget import Budget, OverBudget, run_within, start_server
from pages.runtime.fits import Fit
from pages.state.session import tr
from pages.state.tree_upload import feature_names, named, prepared, rebuilt, vet

STATE_KEY = "imported"
SKOPS_TYPES = ["skops"]
#: What opening one uploaded tree (with its data) may spend, in the child
#: process that opens it first (:func:`_vetted`): the time, and the address
#: space the child may add to what it starts with.
UPLOAD_BUDGET = Budget(seconds=30.0, megabytes=600)
#: What reading one uploaded tree may read: the engine's default sizes but
#: half a million nodes (a deflated tree of a million nodes needs about
#: 330 MB to open, its data's candidate tables more: half of that leaves
#: room for the data within UPLOAD_BUDGET), and a shorter time.
SKOPS_LIMITS = SkopsLimits(max_seconds=15.0, max_nodes=500_000)
#: What the child processes import once, in their fork server (numba, when
#: installed, because a big data file's search loads it: mapping its
#: compiler in each child would cost a second and much of the budget).
PRELOAD = ("dtree", "sklearn.tree", "sklearn.utils._param_validation",
           "pages.state.tree_upload", "numba")


@dataclass
class Imported:
    """A tree opened from a .skops file, with its data (if given)."""

    key: str  # "skops:<digest of the file>[+<digest of the data>]"
    title: str  # the .skops file's name
    fit: Fit
    data_title: str | None = None  # the data file's name
    target: str | None = None  # the data's target column

    @property
    def model(self):
        return self.fit.model

    @property
    def has_data(self) -> bool:
        return len(self.fit.prep.y_train) > 0

    @property
    def kind(self) -> str:
        """The scikit-learn class, e.g. "DecisionTreeClassifier"."""
        return str(self.model.imported_from_).rsplit(".", 1)[-1]

    @property
    def task(self) -> str:
        return "classification" if hasattr(self.model, "classes_") else "regression"


def needs_data() -> str:
    """What a panel says when it needs the training data that was not given."""
    return tr(NEEDS_DATA,
              "从 scikit-learn 打开的决策树需要其训练数据才能显示候选划分表："
              "请在 Python 中把 X 和 y 传给 dtree.from_sklearn（或在本应用中提供数据文件）。")


def refusal(exc: Exception) -> ValueError:
    """Why a .skops file was not opened, kept for the page to show in its
    language: the error itself (a ``TreeFileError`` is worded from its code),
    any error that is not a ``ValueError`` as a ``TreeFileError`` that
    names it."""
    if not isinstance(exc, ValueError):
        exc = TreeFileError("unreadable", "the file", detail=type(exc).__name__)
    return exc.with_traceback(None)


def refusal_text(refusal, lang: str, said) -> str:
    """The text of a :func:`refusal` in ``lang`` (``said`` words an engine
    message).  The page names the file before it, so a ``TreeFileError``
    calls it "the file"."""
    if isinstance(refusal, TreeFileError):
        if refusal.code.startswith("data_"):  # (the data file's error: it names the tree)
            where = "这棵树" if lang == "zh" else "The tree"
        else:
            where = "该文件" if lang == "zh" else "the file"
        return tree_file_error(refusal.code, where, refusal.values, lang)
    return said(refusal)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def get_ready() -> None:
    """Start the child processes' fork server while the user picks a file."""
    start_server(PRELOAD)


def _vetted(data: bytes, name: str, table: Loaded | None):
    """The data file's error (None if it fits) once a budgeted child has
    opened the file, with the table's rows if given; raises the refusal
    (``over_budget`` when the child ran out of time or memory)."""
    frame = table.frame if table is not None else None
    try:
        verdict = run_within(UPLOAD_BUDGET, vet, data, name, frame, SKOPS_LIMITS,
                             preload=PRELOAD)
    except OverBudget as exc:
        raise TreeFileError("over_budget", "the file", resource=exc.resource,
                            limit=exc.limit) from None
    if "refused" in verdict:
        raise rebuilt(verdict["refused"])
    return rebuilt(verdict["data_error"]) if verdict["data_error"] else None


def open_tree(data: bytes, name: str, table: Loaded | None = None):
    """The tree in a .skops file (``data``), with the rows of ``table`` if
    given.  Returns ``(Imported, data_error)``: ``data_error`` is the error
    saying why the data file could not be used, in which case the tree is
    opened without data.  Raises ``ValueError`` when the file is not a
    scikit-learn tree saved with skops, or when opening it (with the data)
    took more than :data:`UPLOAD_BUDGET` in a child process: only a file
    that opened there is opened in the session."""
    data_error = _vetted(data, name, table)
    model = load_sklearn(named(data, name), limits=SKOPS_LIMITS)
    prep, X, y, target = prepared(model, None)
    if table is not None and data_error is None:
        prep, X, y, target = prepared(model, table.frame.copy())
        del model  # (one tree in memory at a time)
        model = load_sklearn(named(data, name), X, y, limits=SKOPS_LIMITS)
    if getattr(model, "feature_names_in_", None) is None:  # fitted on an unnamed array
        model.feature_names_in_ = np.asarray(feature_names(model), dtype=object)
    key = f"skops:{_digest(data)}" + (f"+{table.key}" if X is not None else "")
    return Imported(key, name, Fit(model, prep),
                    table.title if X is not None else None, target), data_error


def current() -> Imported | None:
    """The imported tree in use, or None (a dataset is in use)."""
    return st.session_state.get(STATE_KEY)


def use(imported: Imported) -> None:
    st.session_state[STATE_KEY] = imported
    for key in ("step", "inspect", "playing"):
        st.session_state.pop(key, None)


def close() -> None:
    """Back to the dataset in use before the tree was opened."""
    if st.session_state.pop(STATE_KEY, None) is not None:
        for key in ("step", "inspect", "playing"):
            st.session_state.pop(key, None)
