"""A ``.skops`` upload and its data file, without Streamlit: the data file's
columns as the tree's ``X`` and ``y`` (:func:`prepared`), and the check of
both that :mod:`pages.state.imported` runs in a budgeted child process
(:func:`vet`) before the session opens the file itself.

The child's verdict is plain JSON (a refusal's code and values, or a
message's text); :func:`rebuilt` makes the error the page words from it.
"""

from __future__ import annotations

import errno
import io

import numpy as np
import pandas as pd

from dtree import TreeFileError, load_sklearn
from dtree.tables.io import DataError
from dtree.tables.prepare import Origin, Prepared

__all__ = ["named", "prepared", "split_columns", "vet", "rebuilt"]


def named(data: bytes, name: str):
    """The upload as a file with its name (which load_sklearn's messages use)."""
    file = io.BytesIO(data)
    file.name = str(name)
    return file


def feature_names(model) -> list:
    return [str(n) for n in model.feature_names_]


def split_columns(model, frame: pd.DataFrame):
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


def prepared(model, frame: pd.DataFrame | None):
    """(Prepared, X, y, target): every row of ``frame`` for training (no test
    rows: the tree was already fitted), or empty tables without a data file."""
    names = feature_names(model)
    task = "classification" if hasattr(model, "classes_") else "regression"
    origin = {f: Origin(f, "numeric") for f in names}
    if frame is None:
        empty = pd.DataFrame({f: pd.Series(dtype=float) for f in names})
        y = np.asarray(model.classes_[:0]) if task == "classification" else np.zeros(0)
        return Prepared(empty, y, empty.copy(), y.copy(), task, origin), None, None, None
    features, target = split_columns(model, frame)
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


def _out_of_memory(exc) -> bool:
    """True if ``exc`` or an error it came from is the child's memory cap
    (a MemoryError, or a mapping refused: a library too big to load)."""
    while exc is not None:
        if isinstance(exc, MemoryError) or (isinstance(exc, OSError) and (
                exc.errno == errno.ENOMEM or "failed to map" in str(exc))):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _said(exc) -> dict:
    """An error as plain JSON: its kind, code and values, or its text."""
    if _out_of_memory(exc):
        raise MemoryError  # (the budget's child says "memory")
    if isinstance(exc, TreeFileError):
        return {"kind": "tree", "code": exc.code, "values": exc.values}
    if isinstance(exc, DataError):
        return {"kind": "data", "code": exc.code, "values": exc.values}
    if isinstance(exc, ValueError):
        return {"kind": "text", "text": str(exc)}
    return {"kind": "tree", "code": "unreadable", "values": {"detail": type(exc).__name__}}


def vet(data: bytes, name: str, frame: pd.DataFrame | None, limits) -> dict:
    """Open the tree in ``data`` as the session would, and with the rows of
    ``frame`` if given (run in a budgeted child: whatever the file does
    happens there).  Returns ``{"refused": said}`` when the tree is not
    opened, else ``{"data_error": said or None}``, ``said`` being an error
    as plain JSON (see :func:`rebuilt`)."""
    try:
        model = load_sklearn(named(data, name), limits=limits)
    except Exception as exc:  # noqa: BLE001 (every refusal, in plain data)
        return {"refused": _said(exc)}
    if frame is None:
        return {"data_error": None}
    try:
        _, X, y, _ = prepared(model, frame)
        del model  # (one tree at a time)
        load_sklearn(named(data, name), X, y, limits=limits)
    except Exception as exc:  # noqa: BLE001
        return {"data_error": _said(exc)}
    return {"data_error": None}


def rebuilt(said: dict, where: str = "the file") -> ValueError:
    """The error a child's verdict describes: a ``TreeFileError`` (naming
    ``where``) or a ``DataError`` from its code and values, else a
    ``ValueError`` of its text.  (JSON gave tuples back as lists.)"""
    if said["kind"] == "text":
        return ValueError(said["text"])
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in said["values"].items()}
    if said["kind"] == "data":
        return DataError(said["code"], **values)
    return TreeFileError(said["code"], where, **values)
