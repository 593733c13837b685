"""From a table to a fit: column types, the task, the split, the estimator.

This module is the ONE place that knows what the engine can take.  Today the
estimators want a numeric matrix without missing values, so:

* a categorical feature is one-hot encoded (``colour = red`` is a 0/1
  feature) when it has at most ``ONE_HOT_MAX`` categories, and ordinal
  encoded (categories numbered in sorted order) above that;
* rows with a missing or infinite value in a chosen column are left out;
* the algorithm presets map to criteria (ID3 = entropy, C4.5 = gain ratio,
  CART = Gini and the others), all with binary splits.

Each of these is reported in ``Prepared.notes`` so the page can say it.  When
the engine supports categorical features and missing values natively
(``categorical_features=``, ``algorithm=``), switch ``NATIVE_CATEGORICAL`` /
``NATIVE_MISSING`` and ``estimator_for`` here; the pages need not change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd

from ._classes import DecisionTreeClassifier, DecisionTreeRegressor
from .io import DataError

NATIVE_CATEGORICAL = False
NATIVE_MISSING = False
ONE_HOT_MAX = 20
#: More classes than this cannot be shown (value lists, colours, formulas).
MAX_CLASSES = 50
#: An integer-valued numeric target with at most this many values is a class label.
MAX_INTEGER_CLASSES = 20

CLASSIFICATION_CRITERIA = {
    "gini": "Gini index",
    "entropy": "Entropy (information gain)",
    "gain_ratio": "Gain ratio (C4.5)",
    "misclassification": "Misclassification rate",
}
REGRESSION_CRITERIA = {
    "squared_error": "Squared error (variance)",
    "absolute_error": "Absolute error (median)",
    "friedman_mse": "Friedman MSE",
    "poisson": "Poisson deviance",
}


@dataclass(frozen=True)
class Preset:
    """An algorithm preset: which criteria it allows, and what it means today."""

    criteria: tuple
    summary: str


PRESETS = {
    "CART": Preset(("gini", "entropy", "misclassification", "gain_ratio"),
                   "CART: binary splits, Gini index by default (any criterion)."),
    "ID3": Preset(("entropy",),
                  "ID3: information gain (entropy). Numeric features are split at "
                  "thresholds; categorical ones are one-hot encoded, so each split is "
                  "binary (“is red” or not) rather than one branch per category."),
    "C4.5": Preset(("gain_ratio",),
                   "C4.5: gain ratio = gain ÷ split information. Thresholds on numeric "
                   "features are chosen by gain, features compared by gain ratio. "
                   "Categorical features are one-hot encoded (binary splits)."),
}
REGRESSION_PRESET = Preset(tuple(REGRESSION_CRITERIA), "CART regression tree.")


def criteria_for(task: str, preset: str) -> tuple:
    """The criteria a preset offers for a task (regression: CART only)."""
    if task == "regression":
        return REGRESSION_PRESET.criteria
    return PRESETS[preset].criteria


# ---------------------------------------------------------------------------
# Inference and summary
# ---------------------------------------------------------------------------


def infer_types(frame: pd.DataFrame) -> tuple[dict, list]:
    """``{column: "numeric" | "categorical"}`` and notes on mixed columns."""
    types, notes = {}, []
    for name in frame.columns:
        col = frame[name]
        if pd.api.types.is_bool_dtype(col):
            types[name] = "categorical"
        elif pd.api.types.is_numeric_dtype(col):
            types[name] = "numeric"
        else:
            present = col.dropna()
            numbers = pd.to_numeric(present, errors="coerce")
            numeric = int(numbers.notna().sum())
            if len(present) and numeric == len(present):
                types[name] = "numeric"
            else:
                types[name] = "categorical"
                if numeric >= max(1, 0.5 * len(present)):
                    example = present[numbers.isna()].iloc[0]
                    notes.append(f"“{name}” mixes numbers and text "
                                 f"(e.g. “{_short(example)}”); "
                                 "it is treated as categorical. Take it out of the categorical "
                                 "features to read the text entries as missing.")
    return types, notes


def infer_task(target: pd.Series) -> str:
    """"classification" for labels, "regression" for a numeric target with
    many distinct values or non-integer values."""
    y = target.dropna()
    if pd.api.types.is_bool_dtype(y) or not pd.api.types.is_numeric_dtype(y):
        numbers = pd.to_numeric(y, errors="coerce")
        if len(y) and numbers.notna().all():
            y = numbers
        else:
            return "classification"
    values = y.to_numpy(dtype=float)
    finite = values[np.isfinite(values)]
    if finite.size and np.all(finite == np.round(finite)) and \
            len(np.unique(finite)) <= MAX_INTEGER_CLASSES:
        return "classification"
    return "regression"


def column_summary(frame: pd.DataFrame, types: dict) -> pd.DataFrame:
    """One row per column: type, missing values, distinct values, an example."""
    present = frame.notna().to_numpy()
    first = present.argmax(axis=0)
    firsts = [_short(frame.iat[first[j], j]) if present[first[j], j] else ""
              for j in range(frame.shape[1])]
    return pd.DataFrame({
        "column": list(frame.columns),
        "type": [types.get(name, "?") for name in frame.columns],
        "missing": frame.isna().sum().to_numpy(),
        "distinct": frame.nunique().to_numpy(),
        "example": firsts,
    })


def _short(value, n=40) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= n else text[: n - 1] + "…"


# ---------------------------------------------------------------------------
# Preparing a fit
# ---------------------------------------------------------------------------


class Origin(NamedTuple):
    """Where an engine feature comes from."""

    column: str
    kind: str  # "numeric", "one-hot" (category = the category) or "ordinal"
    category: object = None  # one-hot: the category; ordinal: the sorted categories


@dataclass(frozen=True)
class Setup:
    """What the user chose on the data page (hashable, for caches)."""

    target: str
    features: tuple
    categorical: tuple = ()
    task: str = "classification"
    test_size: float = 0.25
    seed: int = 0


@dataclass
class Prepared:
    """Train/test matrices ready for the estimator, and what was done to get them."""

    X_train: pd.DataFrame
    y_train: np.ndarray
    X_test: pd.DataFrame
    y_test: np.ndarray
    task: str
    #: engine feature name -> Origin (column, kind, category)
    origin: dict
    notes: list = field(default_factory=list)

    @property
    def feature_names(self):
        return list(self.X_train.columns)

    def numeric_features(self):
        """Engine features that are numeric columns of the table."""
        return [f for f, o in self.origin.items() if o.kind == "numeric"]


def prepare(frame: pd.DataFrame, setup: Setup) -> Prepared:
    """Encode, clean and split ``frame`` as ``setup`` says.  Raises DataError."""
    notes = []
    if setup.target not in frame.columns:
        raise DataError("Choose a target column.")
    features = [f for f in setup.features if f in frame.columns and f != setup.target]
    if not features:
        raise DataError("Choose at least one feature column (a column other than the "
                        "target).")
    y_raw = frame[setup.target]
    if y_raw.isna().all():
        raise DataError(f"The target column “{setup.target}” has no values: every "
                        "entry is missing.")
    y, y_ok = _target(y_raw, setup.task)
    columns, ok, origin = [], y_ok.copy(), {}
    numeric = [name for name in features if name not in setup.categorical]
    if numeric:
        block, known, info = _numeric(frame[numeric], notes)
        if block.shape[1]:
            columns.append(block)
        ok = ok & known
        origin.update(info)
    for name in features:
        if name in setup.categorical:
            block, known, info = _encode_categorical(frame[name], name, notes)
            if block.shape[1]:
                columns.append(block)
                ok = ok & known
                origin.update(info)
    if not columns:
        raise DataError("None of the chosen features has any usable value.")
    X = pd.concat(columns, axis=1)
    if X.columns.duplicated().any():  # e.g. a one-hot name equal to another column's
        raise DataError("Two features would get the same name (“"
                        f"{X.columns[X.columns.duplicated()][0]}”); rename a column.")
    dropped_target = int((~y_ok).sum())
    if dropped_target:
        notes.append(f"{dropped_target} row(s) with a missing target were left out.")
    dropped = int((y_ok & ~ok).sum())
    if dropped and not NATIVE_MISSING:
        notes.append(f"{dropped} row(s) with a missing value in a chosen feature were left "
                     "out (the engine does not handle missing values yet).")
    X, y = X[ok].reset_index(drop=True), y[ok]
    if len(y) < 2:
        raise DataError(f"Only {len(y)} usable row(s) remain after leaving out missing "
                        "values; a tree needs at least 2.")
    if setup.task == "classification":
        n_classes = len(np.unique(y))
        if n_classes > MAX_CLASSES:
            raise DataError(
                f"The target “{setup.target}” has {n_classes} different values, too many "
                f"classes to show (at most {MAX_CLASSES}). It looks like an identifier or "
                "a measurement: choose another target, or treat it as regression if it "
                "is numeric.")
        if n_classes == 1:
            notes.append("The target has a single class: the tree is one leaf.")
    train, test = split_indices(y, setup.test_size, setup.seed, setup.task)
    if len(train) < 2:
        raise DataError("Too few rows for a training set: lower the test fraction.")
    X = X.astype(np.float64)
    return Prepared(X.iloc[train].reset_index(drop=True), y[train],
                    X.iloc[test].reset_index(drop=True), y[test], setup.task, origin, notes)


def _target(col: pd.Series, task: str):
    ok = col.notna().to_numpy().copy()
    if task == "regression":
        y = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float)
        if np.isnan(y[ok]).any():
            raise DataError(f"The target “{col.name}” has text values, so it cannot be "
                            "predicted by a regression tree. Choose classification.")
        ok = ok & np.isfinite(y)
        return y, ok
    if pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col):
        values = col.to_numpy(dtype=float)
        ok = ok & np.isfinite(values)
        whole = ok & (values == np.round(np.where(ok, values, 0)))
        if whole[ok].all():
            return np.where(ok, values, 0).astype(np.int64), ok
        return values, ok
    # labels are compared as text so that mixed columns ("1", 1) behave
    return col.astype(str).where(col.notna(), "").to_numpy(dtype=object), ok


def _numeric(block: pd.DataFrame, notes: list):
    """Numeric features as floats; entries that are not numbers or are
    infinite become missing (and are reported)."""
    values = block.copy()
    for name in values.columns:
        col = values[name]
        if not pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
            converted = pd.to_numeric(col, errors="coerce")
            text = int((converted.isna() & col.notna()).sum())
            if text and converted.notna().any():
                notes.append(f"“{name}”: {text} entr{'y' if text == 1 else 'ies'} that are "
                             "not numbers were read as missing.")
            values[name] = converted
    empty = [name for name in values.columns
             if values[name].isna().all() and block[name].notna().any()]
    if empty:
        notes.append("Left out, since they hold no numbers (mark them categorical to use "
                     "them): " + ", ".join(f"“{_short(n)}”" for n in empty) + ".")
        values = values.drop(columns=empty)
        block = block.drop(columns=empty)
    arr = values.to_numpy(dtype=float)
    infinite = np.isinf(arr)
    for j in np.flatnonzero(infinite.any(axis=0)):
        notes.append(f"“{block.columns[j]}”: {int(infinite[:, j].sum())} infinite value(s) "
                     "were read as missing.")
    out = pd.DataFrame(arr, columns=block.columns)
    info = {name: Origin(name, "numeric") for name in block.columns}
    return out, np.isfinite(arr).all(axis=1), info


def _encode_categorical(col: pd.Series, name: str, notes: list):
    known = col.notna().to_numpy()
    labels = col.astype(str).where(col.notna())
    categories = sorted(labels.dropna().unique(), key=str)
    if not categories:
        return pd.DataFrame(index=col.index), known, {}
    if NATIVE_CATEGORICAL:  # pragma: no cover - switched on when the engine has it
        raise NotImplementedError
    if len(categories) <= ONE_HOT_MAX:
        block = pd.DataFrame({f"{name} = {c}": (labels == c).to_numpy(dtype=float)
                              for c in categories})
        info = {f"{name} = {c}": Origin(name, "one-hot", c) for c in categories}
        notes.append(f"“{name}” is categorical ({len(categories)} categories): one-hot "
                     f"encoded as {len(categories)} yes/no features “{name} = …”.")
    else:
        codes = {c: i for i, c in enumerate(categories)}
        block = pd.DataFrame({name: labels.map(codes).to_numpy(dtype=float)})
        info = {name: Origin(name, "ordinal", tuple(categories))}
        notes.append(f"“{name}” is categorical with {len(categories)} categories: "
                     "numbered in sorted order (ordinal encoding), since one-hot would add "
                     "too many features.")
    return block, known, info


def split_indices(y, test_size: float, seed: int, task: str):
    """Seeded train/test row indices, stratified by class when every class
    has at least two rows."""
    n = len(y)
    rng = np.random.default_rng(seed)
    if not test_size or n < 4:
        return np.arange(n), np.arange(0)
    if task == "classification":
        classes, codes = np.unique(y, return_inverse=True)
        counts = np.bincount(codes)
        if counts.min() >= 2:
            test = []
            for k in range(len(classes)):
                members = rng.permutation(np.flatnonzero(codes == k))
                take = int(round(test_size * len(members)))
                test.append(members[:min(max(take, 1), len(members) - 1)])
            test = np.sort(np.concatenate(test))
            train = np.setdiff1d(np.arange(n), test)
            return train, test
    order = rng.permutation(n)
    n_test = min(max(int(round(test_size * n)), 1), n - 2)
    return np.sort(order[n_test:]), np.sort(order[:n_test])


def estimator_for(task: str, preset: str, criterion: str, prep=None, **params):
    """The estimator for a task with the page's parameters."""
    cls = DecisionTreeClassifier if task == "classification" else DecisionTreeRegressor
    return cls(criterion=criterion, **params)
