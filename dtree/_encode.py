"""Turning user tables into the float32 matrix the builder reads.

Numeric columns become float32 (NaN is a missing value).  Categorical columns
become category codes 0..C-1 stored as floats (NaN missing); their labels are
kept in ``categories`` so that trees, tables and exports show labels, never
codes.  A label seen only at predict time gets code -1 ("unseen").
"""

import numbers

import numpy as np
import pandas as pd

#: A categorical feature with more categories than this is refused: the
#: contingency tables would be huge and the splits meaningless.
MAX_CATEGORIES = 1000


def _is_categorical_dtype(dtype):
    kind = getattr(dtype, "kind", None)
    name = str(dtype)
    return name in ("category", "bool", "boolean", "string", "str") or kind in ("O", "U", "S", "b")


def resolve_categorical(X, categorical_features, n_features, names):
    """Boolean mask of categorical features."""
    mask = np.zeros(n_features, dtype=bool)
    spec = categorical_features
    if spec is None:
        return mask
    if isinstance(spec, str):
        if spec != "auto":
            raise ValueError(
                "categorical_features must be 'auto', None, a list of column names or "
                f"indices, or a boolean mask; got {spec!r}.")
        dtypes = getattr(X, "dtypes", None)
        if dtypes is not None:
            mask[:] = [_is_categorical_dtype(dt) for dt in dtypes]
        return mask
    spec = list(spec)
    if len(spec) == n_features and all(isinstance(v, (bool, np.bool_)) for v in spec):
        return np.asarray(spec, dtype=bool)
    for item in spec:
        if isinstance(item, str):
            if names is None or item not in list(names):
                raise ValueError(f"categorical_features names {item!r}, which is not a column of X.")
            mask[list(names).index(item)] = True
        elif isinstance(item, numbers.Integral) and -n_features <= int(item) < n_features:
            mask[int(item)] = True
        else:
            raise ValueError(f"categorical_features: {item!r} is not a column name or index.")
    return mask


def _values(X, j):
    """Column j for factorize: the pandas column itself (no object copy)."""
    if hasattr(X, "iloc"):
        return X.iloc[:, j]
    return np.asarray(X)[:, j].astype(object)


def _sorted_labels(uniques):
    try:
        return sorted(uniques)
    except TypeError:  # mixed types: by type name, then text
        return sorted(uniques, key=lambda v: (type(v).__name__, str(v)))


def learn_categories(X, j, name):
    """Sorted labels of a categorical column (pandas categories keep their order).

    The distinct values come from ``pandas.factorize`` (a hash table in C;
    missing values left out), so only they, not every row, reach Python."""
    col = X.iloc[:, j] if hasattr(X, "iloc") else None
    if col is not None and str(col.dtype) == "category":
        labels = np.asarray(col.cat.categories, dtype=object)
    else:
        _, uniques = pd.factorize(_values(X, j), use_na_sentinel=True)
        # factorize keeps 1 and 1.0 (or True) apart; a Python set, and the
        # lookup in encode_column, treat them as one label
        uniques = list(dict.fromkeys(np.asarray(uniques, dtype=object).tolist()))
        labels = np.asarray(_sorted_labels(uniques), dtype=object)
    if len(labels) > MAX_CATEGORIES:
        raise ValueError(
            f"Categorical feature {name!r} has {len(labels)} categories (more than "
            f"{MAX_CATEGORIES}). A column with that many values is usually an identifier: "
            "drop it, or treat it as numeric.")
    return labels


def encode_column(X, j, labels):
    """Codes of column j for the given labels: NaN when missing, -1 when unseen.

    The column is factorized (C), and only its distinct values are looked up
    in the labels (a Python dict: equal values such as 1, 1.0 and True find
    the same label, as they would in a set)."""
    codes, uniques = pd.factorize(_values(X, j), use_na_sentinel=True)
    lookup = {label: i for i, label in enumerate(labels.tolist())}
    code_of = np.array([lookup.get(v, -1) for v in np.asarray(uniques, dtype=object).tolist()]
                       + [np.nan], dtype=np.float32)
    return code_of[codes]  # code -1 (missing) picks the trailing NaN


def encode(X, categorical, categories, *, to_numeric, dtype=np.float32):
    """The float32 matrix (n, F) for X: numeric columns via ``to_numeric``,
    categorical columns as codes."""
    if not categorical.any():
        return to_numeric(X)
    n = X.shape[0]
    out = np.empty((n, len(categorical)), dtype=dtype)
    numeric = np.flatnonzero(~categorical)
    if len(numeric):
        part = X.iloc[:, numeric] if hasattr(X, "iloc") else np.asarray(X)[:, numeric]
        out[:, numeric] = to_numeric(part)
    for j in np.flatnonzero(categorical):
        out[:, j] = encode_column(X, j, categories[j])
    return out
