"""A tree fitted in scikit-learn, opened from a ``.skops`` file (the Data
page's third source), and the :class:`pages.runtime.fits.Fit` the other
pages get for it from :func:`pages.state.current_tree.current_fit`.

Session state: ``imported`` holds the :class:`Imported` tree in use, if any
(it replaces the dataset until a dataset is chosen again; the dataset in
``table`` is kept, so that it comes back).  The file is read by
:func:`dtree.load_sklearn`, which refuses pickles and anything but
scikit-learn's tree estimators: nothing in it is unpickled or executed.

An optional data file (CSV, Excel... read like any upload) gives the
training rows: the columns named like the tree's ``feature_names_in_`` (the
first columns, in order, when the tree was fitted without names) and the
target (the one other column, or else the last).  With it the node
inspector's candidates, the gain curves, the decision regions, the scores
and the prediction of a row are available; without it the pages say that
they need the data (:func:`needs_data`).
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from dtree import NEEDS_DATA, SkopsLimits, TreeFileError, load_sklearn
from dtree.tables.io import DataError
from dtree.tables.prepare import Origin, Prepared
from dtree.tables.dataset import Loaded
from dtree.views.messages import tree_file_error
from pages.runtime.fits import Fit
from pages.state.session import tr

STATE_KEY = "imported"
SKOPS_TYPES = ["skops"]
#: What reading one uploaded tree may take: the engine's default sizes (two
#: million nodes), but a shorter time, so that a slow file gives way to the
#: other sessions' clicks.
SKOPS_LIMITS = SkopsLimits(max_seconds=15.0)


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
        where = "该文件" if lang == "zh" else "the file"
        return tree_file_error(refusal.code, where, refusal.values, lang)
    return said(refusal)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _named(data: bytes, name: str):
    """The upload as a file with its name (which load_sklearn's messages use)."""
    file = io.BytesIO(data)
    file.name = str(name)
    return file


def _feature_names(model) -> list:
    return [str(n) for n in model.feature_names_]


def _split_columns(model, frame: pd.DataFrame):
    """(feature columns, target column) of a data file for ``model``."""
    columns = [str(c) for c in frame.columns]
    frame.columns = columns
    n = int(model.n_features_in_)
    if getattr(model, "feature_names_in_", None) is not None:
        features = [str(f) for f in model.feature_names_in_]
        missing = [f for f in features if f not in columns]
        if missing:
            shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
            raise DataError("data_no_column", names=shown, features=", ".join(features[:8])
                            + (" …" if len(features) > 8 else ""))
        others = [c for c in columns if c not in features]
    else:
        if len(columns) < n + 1:
            raise DataError("data_unnamed", n=n)
        features, others = columns[:n], columns[n:]
    if not others:
        raise DataError("data_no_target")
    return features, others[-1]


def _prepared(model, frame: pd.DataFrame | None):
    """(Prepared, X, y): every row of ``frame`` for training (no test rows:
    the tree was already fitted), or empty tables without a data file."""
    names = _feature_names(model)
    task = "classification" if hasattr(model, "classes_") else "regression"
    origin = {f: Origin(f, "numeric") for f in names}
    if frame is None:
        empty = pd.DataFrame({f: pd.Series(dtype=float) for f in names})
        y = np.asarray(model.classes_[:0]) if task == "classification" else np.zeros(0)
        return Prepared(empty, y, empty.copy(), y.copy(), task, origin), None, None, None
    features, target = _split_columns(model, frame)
    X = frame[features]
    try:
        X = X.apply(pd.to_numeric, errors="raise").astype(float)
    except (ValueError, TypeError):
        bad = [c for c in features if not pd.api.types.is_numeric_dtype(frame[c])]
        raise DataError("data_not_numeric", names=", ".join(bad[:5])) from None
    y_column = frame[target]
    keep = y_column.notna().to_numpy()
    X, y_column = X[keep].reset_index(drop=True), y_column[keep].reset_index(drop=True)
    if task == "classification":
        classes = model.classes_
        if np.issubdtype(np.asarray(classes).dtype, np.number):
            y = pd.to_numeric(y_column, errors="coerce").to_numpy()
            if np.isnan(y.astype(float)).any():
                raise DataError("data_unknown_classes", name=target)
            y = y.astype(np.asarray(classes).dtype)
        else:
            y = y_column.astype(str).to_numpy(dtype=object)
    else:
        y = pd.to_numeric(y_column, errors="coerce").to_numpy(dtype=float)
        if np.isnan(y).any():
            raise DataError("data_target_not_numeric", name=target)
    X.columns = names
    prep = Prepared(X, y, X.iloc[:0].copy(), y[:0].copy(), task, origin)
    X_for_sklearn = X if getattr(model, "feature_names_in_", None) is not None \
        else X.to_numpy()
    return prep, X_for_sklearn, y, target


def open_tree(data: bytes, name: str, table: Loaded | None = None):
    """The tree in a .skops file (``data``), with the rows of ``table`` if
    given.  Returns ``(Imported, data_error)``: ``data_error`` is the
    message (plain text) saying why the data file could not be used, in
    which case the tree is opened without data.  Raises ``ValueError`` when
    the file is not a scikit-learn tree saved with skops."""
    model = load_sklearn(_named(data, name), limits=SKOPS_LIMITS)  # a pickle, a forest...
    data_error = None
    prep, X, y, target = _prepared(model, None)
    if table is not None:
        try:
            prep, X, y, target = _prepared(model, table.frame.copy())
            model = load_sklearn(_named(data, name), X, y, limits=SKOPS_LIMITS)
        except (DataError, ValueError) as exc:
            data_error = str(exc)
            prep, X, y, target = _prepared(model, None)
    if getattr(model, "feature_names_in_", None) is None:  # fitted on an unnamed array
        model.feature_names_in_ = np.asarray(_feature_names(model), dtype=object)
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
