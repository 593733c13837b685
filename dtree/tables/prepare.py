"""From a table to a fit: column types, the task, the split, the estimator.

This module is the ONE place that knows what the engine takes.  The engine
reads categorical features as labels and keeps missing values, so:

* a categorical feature goes to the engine as its labels (text), named in
  ``categorical_features``: ID3 and C4.5 split it one branch per category,
  CART into two groups of categories;
* a missing value stays missing (NaN): CART sends it to the better side of
  each split, C4.5 splits the row across the branches by weight; ID3 has no
  rule for it, so its fits leave such rows out (``Prepared.complete_rows``);
* the algorithm presets are the engine's (``algorithm="id3" | "c4.5" |
  "cart"``).

What was done to the data is reported in ``Prepared.notes`` so the page can
say it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd

from .. import DecisionTreeClassifier, DecisionTreeRegressor, Note
from .io import DataError, DroppedRows

#: A categorical feature with more categories than this is refused (the
#: engine's own limit; a multiway split with that many branches shows nothing).
MAX_CATEGORIES = 1000
#: Above this many categories a note warns that ID3/C4.5 make one branch each.
MANY_CATEGORIES = 30
#: More classes than this cannot be shown (value lists, colours, formulas).
MAX_CLASSES = 50
#: An integer-valued numeric target with at most this many values is a class label.
MAX_INTEGER_CLASSES = 20

CLASSIFICATION_CRITERIA = {
    "gini": "Gini index",
    "entropy": "Entropy (information gain)",
    "gain_ratio": "Gain ratio (C4.5)",
    "misclassification": "Misclassification rate",
    "taylor2": "Taylor entropy (2nd order)",
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
    "CART": Preset(("gini", "entropy", "misclassification", "gain_ratio", "taylor2"),
                   "CART: binary splits (a threshold, or two groups of categories), Gini "
                   "index by default (any criterion). A missing value goes to the side "
                   "that gives the larger gain."),
    "ID3": Preset(("entropy",),
                  "ID3: information gain (entropy). A categorical feature gets one branch "
                  "per category; numeric features are split at a threshold. ID3 has no "
                  "rule for missing values: rows with one are left out."),
    "C4.5": Preset(("gain_ratio",),
                   "C4.5: gain ratio = gain ÷ split information, among the splits with at "
                   "least average gain. One branch per category; numeric thresholds. A "
                   "row with a missing value is split across the branches by weight."),
    "J48": Preset(("gain_ratio",),
                  "J48: Weka's C4.5 (release 8), node for node: gain ratio among the "
                  "attributes with at least average gain, one branch per declared "
                  "category, numeric thresholds at a training value with the MDL "
                  "penalty, at least 2 rows (min_objects) in two branches. A row with a "
                  "missing value is split across the branches by weight."),
}
#: The engine's ``algorithm=`` for each preset.
ALGORITHM = {"CART": "cart", "ID3": "id3", "C4.5": "c4.5", "J48": "j48"}
REGRESSION_PRESET = Preset(tuple(REGRESSION_CRITERIA), "CART regression tree.")


def criteria_for(task: str, preset: str) -> tuple:
    """The criteria a preset offers for a task (regression: CART only)."""
    if task == "regression":
        return REGRESSION_PRESET.criteria
    return PRESETS[preset].criteria


# ---------------------------------------------------------------------------
# Inference and summary
# ---------------------------------------------------------------------------


def _numbers(col: pd.Series) -> pd.Series:
    """``pd.to_numeric(col, errors="coerce")`` as floats, parsed once per
    distinct value (a 500k-row text column of a few labels: 2.8 s -> 0.05 s)."""
    codes, uniques = pd.factorize(col, use_na_sentinel=True)
    if len(uniques) > len(col) // 2:  # mostly distinct: parse every row
        parsed = pd.to_numeric(col, errors="coerce")
        return parsed.astype(float) if pd.api.types.is_numeric_dtype(parsed) else parsed
    parsed = pd.to_numeric(pd.Series(np.asarray(uniques, dtype=object)),
                           errors="coerce").to_numpy(dtype=float)
    return pd.Series(np.where(codes >= 0, parsed[np.maximum(codes, 0)], np.nan),
                     index=col.index, name=col.name)


def infer_types(frame: pd.DataFrame) -> tuple[dict, list]:
    """``{column: "numeric" | "categorical"}`` and notes on mixed columns.
    A pandas Categorical (an ARFF file's nominal attribute) is categorical
    whatever its values look like."""
    types, notes = {}, []
    for name in frame.columns:
        col = frame[name]
        if pd.api.types.is_bool_dtype(col) or isinstance(col.dtype, pd.CategoricalDtype):
            types[name] = "categorical"
        elif pd.api.types.is_numeric_dtype(col):
            types[name] = "numeric"
        else:
            present = col.dropna()
            numbers = _numbers(present)
            numeric = int(numbers.notna().sum())
            if len(present) and numeric == len(present):
                types[name] = "numeric"
            else:
                types[name] = "categorical"
                if numeric >= max(1, 0.5 * len(present)):
                    example = present[numbers.isna()].iloc[0]
                    notes.append(Note("mixed_column", name=name, example=_short(example)))
    return types, notes


def infer_task(target: pd.Series) -> str:
    """"classification" for labels, "regression" for a numeric target with
    many distinct values or non-integer values."""
    y = target.dropna()
    if isinstance(y.dtype, pd.CategoricalDtype):  # declared labels (ARFF's nominal class)
        return "classification"
    if pd.api.types.is_bool_dtype(y) or not pd.api.types.is_numeric_dtype(y):
        numbers = _numbers(y)
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


def identifier_columns(frame: pd.DataFrame, min_rows: int = 10) -> list:
    """Columns that look like row identifiers: a different value in every row,
    either text (``D1``, ``D2``…) or the whole numbers 1..n (or 0..n-1) in
    some order.  A tree would split on them perfectly and learn nothing, so
    they are left out of the features by default."""
    out = []
    n = len(frame)
    if n < min_rows:
        return out
    for name in frame.columns:
        col = frame[name]
        if pd.api.types.is_bool_dtype(col):
            continue
        head = col.iloc[:1000]  # a repeat among the first rows settles it quickly
        if head.isna().any() or head.nunique() != len(head):
            continue
        if pd.api.types.is_numeric_dtype(col):
            values = col.to_numpy(dtype=float)
            start = values.min()
            if start not in (0, 1) or values.max() != start + n - 1:
                continue
            if np.array_equal(np.sort(values), start + np.arange(n)):
                out.append(name)
        elif not col.isna().any() and col.nunique() == n:
            out.append(name)
    return out


def column_summary(frame: pd.DataFrame, types: dict) -> pd.DataFrame:
    """One row per column: type, missing values, distinct values, an example."""
    present = frame.notna().to_numpy()
    first = present.argmax(axis=0)
    firsts = [_short(frame.iat[first[j], j]) if present[first[j], j] else ""
              for j in range(frame.shape[1])]
    return pd.DataFrame({
        "column": list(frame.columns),
        "type": [types.get(name, "?") for name in frame.columns],
        "missing": len(frame) - present.sum(axis=0),
        "distinct": np.array([_distinct(frame.iloc[:, j]) for j in range(frame.shape[1])],
                             dtype=np.int64),
        "example": firsts,
    })


def _distinct(col: pd.Series) -> int:
    """``col.nunique()``: distinct values, missing ones not counted.  A column
    of NumPy floats or integers is counted by sorting (about 3x faster than
    pandas' hashing on 500k floats); 0.0 and -0.0 are one value either way."""
    values = col.to_numpy() if isinstance(col.dtype, np.dtype) else None
    if values is None or values.dtype.kind not in "fiu":
        return int(col.nunique())
    if values.dtype.kind == "f":
        values = values[~np.isnan(values)]
    if not len(values):
        return 0
    ordered = np.sort(values)
    return int(np.count_nonzero(ordered[1:] != ordered[:-1])) + 1


def _short(value, n=40) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= n else text[: n - 1] + "…"


# ---------------------------------------------------------------------------
# Preparing a fit
# ---------------------------------------------------------------------------


class Origin(NamedTuple):
    """Where an engine feature comes from."""

    column: str
    kind: str  # "numeric" or "categorical"
    #: categorical: the categories (labels), sorted, or a Categorical's in its order
    category: object = None


@dataclass(frozen=True)
class Setup:
    """What the user chose on the data page (hashable, for caches)."""

    target: str
    features: tuple
    categorical: tuple = ()
    task: str = "classification"
    test_size: float = 0.25
    seed: int = 0


def setup_from_choices(frame: pd.DataFrame, choices, *, default_target: str,
                       default_test_size: float = 0.25, identifiers=(), types=None) -> Setup:
    """The :class:`Setup` for the data page's ``choices`` (a mapping with any
    of ``target``, ``task``, ``feature_mode``, ``features``, ``categorical``,
    ``test_size``, ``seed``), each missing or stale one replaced by its
    default: ``default_target``; the task inferred from the target; all the
    other columns but the ``identifiers`` (all of them if that leaves none);
    the columns ``types`` (from :func:`infer_types`) calls categorical.

    >>> frame = pd.DataFrame({"id": range(3), "x": [1, 2, 3], "y": list("aab")})
    >>> setup_from_choices(frame, {}, default_target="y", identifiers=["id"])
    Setup(target='y', features=('x',), categorical=(), task='classification', test_size=0.25, seed=0)
    """
    columns = list(frame.columns)
    target = choices.get("target")
    if target not in columns:
        target = default_target
    task = choices.get("task", "auto")
    if task not in ("classification", "regression"):
        task = infer_task(frame[target])
    others = [c for c in columns if c != target]
    if choices.get("feature_mode") == "choose":
        features = tuple(c for c in choices.get("features", others) if c in others)
    else:  # all the other columns but identifiers
        skip = set(identifiers)
        features = tuple(c for c in others if c not in skip) or tuple(others)
    types = types or {}
    default_cat = [c for c in others if types.get(c) == "categorical"]
    categorical = tuple(c for c in choices.get("categorical", default_cat) if c in features)
    return Setup(target, features, categorical, task,
                 float(choices.get("test_size", default_test_size)), int(choices.get("seed", 0)))


@dataclass
class Prepared:
    """Train/test tables ready for the estimator, and what was done to get them.

    ``X_train``/``X_test`` hold numeric columns as floats and categorical
    columns as text labels, with NaN for a missing value: a pandas
    Categorical (its categories in their order, unseen ones too) for a
    column that was one, else objects.
    """

    X_train: pd.DataFrame
    y_train: np.ndarray
    X_test: pd.DataFrame
    y_test: np.ndarray
    task: str
    #: feature name -> Origin (column, kind, categories)
    origin: dict
    notes: list = field(default_factory=list)

    @property
    def feature_names(self):
        return list(self.X_train.columns)

    @property
    def categorical(self) -> tuple:
        """Names of the categorical features."""
        return tuple(f for f, o in self.origin.items() if o.kind == "categorical")

    def numeric_features(self):
        """Names of the numeric features."""
        return [f for f, o in self.origin.items() if o.kind == "numeric"]

    def has_missing(self) -> bool:
        return bool(self.X_train.isna().to_numpy().any() or
                    self.X_test.isna().to_numpy().any())

    def complete_rows(self) -> "Prepared":
        """The same data without the rows that have a missing value (for ID3),
        with a note saying how many were left out."""
        keep_train = self.X_train.notna().all(axis=1).to_numpy()
        keep_test = self.X_test.notna().all(axis=1).to_numpy()
        dropped = int((~keep_train).sum() + (~keep_test).sum())
        if not dropped:
            return self
        if keep_train.sum() < 2:
            raise DataError("id3_too_few_complete")
        note = Note("id3_left_out", n=dropped)
        return Prepared(self.X_train[keep_train].reset_index(drop=True),
                        self.y_train[keep_train],
                        self.X_test[keep_test].reset_index(drop=True),
                        self.y_test[keep_test], self.task, self.origin,
                        self.notes + [note])


def prepare(frame: pd.DataFrame, setup: Setup) -> Prepared:
    """Clean and split ``frame`` as ``setup`` says.  Raises DataError."""
    notes = []
    if setup.target not in frame.columns:
        raise DataError("no_target")
    features = [f for f in setup.features if f in frame.columns and f != setup.target]
    if not features:
        raise DataError("no_features")
    y_raw = frame[setup.target]
    if y_raw.isna().all():
        raise DataError("empty_target", name=setup.target)
    y, ok, codes = _target(y_raw, setup.task)
    parts, labels_of, origin = [], {}, {}
    numeric = [name for name in features if name not in setup.categorical]
    if numeric:
        block = _numeric(frame[numeric], notes)
        parts.append(block)
        for name in block.columns:
            origin[name] = Origin(name, "numeric")
    for name in features:
        if name in setup.categorical:
            labels, categories = _categorical(frame[name], name, notes)
            if categories:
                labels_of[name] = labels
                origin[name] = Origin(name, "categorical", categories)
    if labels_of:
        parts.append(pd.DataFrame(labels_of, copy=False))
    if not origin:
        raise DataError("no_usable_feature")
    # the numbers stay one block, next to the labels, without being copied
    # (the training and test rows are taken from them below)
    X = parts[0] if len(parts) == 1 else pd.concat(parts, axis=1)
    dropped_target = int((~ok).sum())
    if dropped_target:
        notes.append(DroppedRows("missing_target", "no target", rows=dropped_target))
    if dropped_target:
        X, y = X[ok].reset_index(drop=True), y[ok]
        codes = None if codes is None else codes[ok]
    incomplete = int(X.isna().any(axis=1).sum())
    if incomplete:
        notes.append(Note("missing_features", n=incomplete))
    if len(y) < 2:
        raise DataError("too_few_rows", n=len(y))
    if setup.task == "classification":
        # the classes' codes in sorted order (np.unique's), for the split too: labels
        # come coded by _target, and renumbering their codes is quick on 500k rows
        codes = pd.factorize(np.asarray(y) if codes is None else codes, sort=True)[0]
        n_classes = int(codes.max()) + 1
        if n_classes > MAX_CLASSES:
            raise DataError("too_many_classes", name=setup.target, n=n_classes,
                            max=MAX_CLASSES)
        if n_classes == 1:
            notes.append(Note("single_class"))
    train, test = split_indices(y, setup.test_size, setup.seed, setup.task, codes=codes)
    if len(train) < 2:
        raise DataError("no_training_rows")
    return Prepared(X.iloc[train].reset_index(drop=True), y[train],
                    X.iloc[test].reset_index(drop=True), y[test], setup.task, origin, notes)


def _target(col: pd.Series, task: str):
    """(y, ok, codes): the target's values, which rows have one, and for
    labels their codes in sorted order (None otherwise)."""
    ok = col.notna().to_numpy().copy()
    if task == "regression":
        y = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float)
        if np.isnan(y[ok]).any():
            raise DataError("text_target", name=col.name)
        ok = ok & np.isfinite(y)
        return y, ok, None
    if pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col):
        values = col.to_numpy(dtype=float)
        ok = ok & np.isfinite(values)
        whole = ok & (values == np.round(np.where(ok, values, 0)))
        if whole[ok].all():
            return np.where(ok, values, 0).astype(np.int64), ok, None
        return values, ok, None
    # labels are compared as text so that mixed columns ("1", 1) behave; coded
    # once (hashed), so that each row holds one of a few label objects
    codes, labels = pd.factorize(col.astype(str).where(col.notna(), ""), sort=True)
    return np.asarray(labels, dtype=object)[codes], ok, codes


def _numeric(block: pd.DataFrame, notes: list) -> pd.DataFrame:
    """Numeric features as floats; entries that are not numbers or are
    infinite become missing (and are reported); columns without any number
    are left out."""
    values = block
    for name in block.columns:
        col = block[name]
        if not pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
            converted = _numbers(col)
            text = int((converted.isna() & col.notna()).sum())
            if text and converted.notna().any():
                notes.append(Note("text_as_missing", name=name, n=text,
                                  entries="entry" if text == 1 else "entries"))
            if values is block:
                values = block.copy(deep=False)  # (only then: the block is the user's)
            values[name] = converted
    empty = [name for name in values.columns
             if values[name].isna().all() and block[name].notna().any()]
    if empty:
        notes.append(Note("no_numbers", names=", ".join(f"“{_short(n)}”" for n in empty)))
        values = values.drop(columns=empty)
        block = block.drop(columns=empty)
    # a view of the user's floats when they are one block: never written, and
    # prepare() takes its rows from it (copies); a copy only for infinities
    arr = values.to_numpy(dtype=float)
    infinite = np.isinf(arr)
    if infinite.any():
        for j in np.flatnonzero(infinite.any(axis=0)):
            notes.append(Note("infinite_values", name=block.columns[j],
                              n=int(infinite[:, j].sum())))
        arr = np.where(infinite, np.nan, arr)
    return pd.DataFrame(arr, columns=block.columns, copy=False)


def _categorical(col: pd.Series, name: str, notes: list):
    """A categorical feature as text labels (NaN when missing) and its
    categories: a Categorical keeps its categories, in their order (an ARFF
    file's declared values, which J48 gives a branch each), as text; any
    other column is labelled by its values, sorted."""
    declared = None
    if isinstance(col.dtype, pd.CategoricalDtype):
        declared = [str(c) for c in col.cat.categories]
        if len(set(declared)) < len(declared):  # (1 and "1" would be one label)
            declared = None
    if declared is not None:
        labels, categories = (pd.Categorical.from_codes(col.cat.codes.to_numpy(), declared),
                              tuple(declared))
    else:
        text = col.astype(str).where(col.notna())
        labels, categories = (text.to_numpy(dtype=object),
                              tuple(sorted(text.dropna().unique(), key=str)))
    if len(categories) > MAX_CATEGORIES:
        raise DataError("too_many_categories", name=name, n=len(categories),
                        max=MAX_CATEGORIES)
    if len(categories) > MANY_CATEGORIES:
        notes.append(Note("many_categories", name=name, n=len(categories)))
    return labels, categories


def split_indices(y, test_size: float, seed: int, task: str, codes=None):
    """Seeded train/test row indices, stratified by class when every class
    has at least two rows.  ``codes``: y's class codes in sorted order, if
    known (``pd.factorize(y, sort=True)[0]``)."""
    n = len(y)
    rng = np.random.default_rng(seed)
    if not test_size or n < 4:
        return np.arange(n), np.arange(0)
    if task == "classification":
        if codes is None:
            codes = pd.factorize(np.asarray(y), sort=True)[0]  # np.unique's codes, hashed
        counts = np.bincount(codes)
        if counts.min() >= 2:
            test = []
            for k in range(len(counts)):
                members = rng.permutation(np.flatnonzero(codes == k))
                take = int(round(test_size * len(members)))
                test.append(members[:min(max(take, 1), len(members) - 1)])
            test = np.sort(np.concatenate(test))
            in_test = np.zeros(n, dtype=bool)
            in_test[test] = True
            return np.flatnonzero(~in_test), test
    order = rng.permutation(n)
    n_test = min(max(int(round(test_size * n)), 1), n - 2)
    return np.sort(order[n_test:]), np.sort(order[:n_test])


def estimator_for(task: str, preset: str, criterion: str, prep=None, **params):
    """The estimator for a task with the page's parameters.

    ``preset`` ("CART", "ID3", "C4.5", "J48") is the engine's ``algorithm``; ID3 and
    C4.5 fix their criterion.  ``prep`` names the categorical features."""
    categorical = list(prep.categorical) if prep is not None else []
    if task == "classification":
        return DecisionTreeClassifier(criterion=criterion, algorithm=ALGORITHM[preset],
                                      categorical_features=categorical, **params)
    return DecisionTreeRegressor(criterion=criterion, algorithm="cart",
                                 categorical_features=categorical, **params)
