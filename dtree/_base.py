"""scikit-learn's estimator conventions, without importing scikit-learn.

``get_params``/``set_params`` read the constructor signature, input checks
raise the messages scikit-learn's own estimator checks look for, and
``__sklearn_tags__`` (only ever called by scikit-learn, so it may import it)
describes the estimator to scikit-learn's tooling.
"""

import inspect
import numbers
import sys
import warnings

import numpy as np

from ._errors import CodedError


class NotFittedError(ValueError, AttributeError):
    """Raised when a method needs a fitted estimator."""


_interop_errors = {}


def _not_fitted_error(message):
    """A NotFittedError that is also scikit-learn's when scikit-learn is
    loaded, so that its tooling recognises it (dtree never imports it)."""
    sk = sys.modules.get("sklearn.exceptions")
    if sk is None:
        return NotFittedError(message)
    cls = _interop_errors.get(sk.NotFittedError)
    if cls is None:
        cls = type("NotFittedError", (NotFittedError, sk.NotFittedError), {})
        _interop_errors[sk.NotFittedError] = cls
    return cls(message)


class BaseEstimator:
    """Parameter handling shared by the estimators."""

    @classmethod
    def _param_names(cls):
        sig = inspect.signature(cls.__init__)
        return sorted(p.name for p in sig.parameters.values()
                      if p.name != "self" and p.kind != p.VAR_KEYWORD)

    def get_params(self, deep=True):
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        valid = self._param_names()
        for key, value in params.items():
            if key not in valid:
                raise ValueError(
                    f"Invalid parameter {key!r} for estimator {type(self).__name__}. "
                    f"Valid parameters are: {valid!r}.")
            setattr(self, key, value)
        return self

    def __repr__(self):
        sig = inspect.signature(type(self).__init__)
        changed = []
        for name, param in sig.parameters.items():
            if name == "self":
                continue
            value = getattr(self, name)
            default = param.default
            same = value is default or (
                type(value) is type(default) and not isinstance(value, np.ndarray)
                and value == default)
            if not same:
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    def __sklearn_is_fitted__(self):
        return hasattr(self, "tree_")

    def _check_fitted(self):
        if not hasattr(self, "tree_"):
            raise _not_fitted_error(
                f"This {type(self).__name__} instance is not fitted yet. Call 'fit' "
                "with appropriate arguments before using this estimator.")


# ---------------------------------------------------------------------------
# input validation
# ---------------------------------------------------------------------------

def _feature_names(X):
    """Column names of a DataFrame-like X if they are all strings, else None."""
    columns = getattr(X, "columns", None)
    if columns is None:
        return None
    names = np.asarray(list(columns), dtype=object)
    kinds = {type(n) for n in names}
    if kinds == {str}:
        return names
    if any(isinstance(n, str) for n in names) and len(kinds) > 1:
        raise TypeError(
            "Feature names are only supported if all input features have string names, "
            f"but your input has {sorted(k.__name__ for k in kinds)} as feature name / "
            "column name types. Convert them all to strings.")
    return None


def as_table(X, *, what="X"):
    """A DataFrame stays as it is; anything else becomes a NumPy array."""
    if hasattr(X, "toarray") or type(X).__module__.startswith("scipy.sparse"):
        raise TypeError(f"Sparse input is not supported; pass a dense array as {what}.")
    if hasattr(X, "iloc"):
        return X
    return np.asarray(X)


def check_shape(X, *, what="X"):
    """Reject anything that is not a non-empty 2-d table."""
    shape = X.shape
    if len(shape) != 2:
        raise ValueError(
            f"Expected 2D array, got {'scalar' if len(shape) == 0 else f'{len(shape)}D'} "
            f"array instead: {what} has shape {tuple(shape)}. Reshape your data either using "
            "array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) "
            "if it contains a single sample.")
    if shape[1] == 0:
        raise ValueError(f"0 feature(s) (shape={tuple(shape)}) while a minimum of 1 is required.")
    if shape[0] == 0:
        raise ValueError(f"0 sample(s) (shape={tuple(shape)}) while a minimum of 1 is required.")


def as_float32_matrix(X, *, what="X", allow_nan=True, dtype=np.float32):
    """Validate X and return it as a C-contiguous float32 2-d array.

    NaN marks a missing value (allowed unless ``allow_nan`` is False);
    infinity is always refused."""
    if hasattr(X, "iloc") or hasattr(X, "dtypes"):
        try:
            X = X.to_numpy(dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"{what} contains non-numeric columns ({exc}). Only numbers are "
                "supported here; encode categorical columns first.") from None
    if hasattr(X, "toarray") or type(X).__module__.startswith("scipy.sparse"):
        raise TypeError(f"Sparse input is not supported; pass a dense array as {what}.")
    arr = np.asarray(X)
    if arr.dtype.kind == "c":
        raise ValueError("Complex data not supported")
    if arr.dtype.kind in "OUS":
        try:
            arr = arr.astype(np.float64)
        except TypeError as exc:
            raise TypeError(f"{what} must contain numbers only: {exc}") from None
        except ValueError as exc:
            raise ValueError(
                f"{what} must contain numbers only; could not convert it: {exc}") from None
    if arr.ndim != 2:
        raise ValueError(
            f"Expected 2D array, got {'scalar' if arr.ndim == 0 else f'{arr.ndim}D'} "
            f"array instead: {what} has shape {arr.shape}. Reshape your data either using "
            "array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) "
            "if it contains a single sample.")
    if arr.shape[1] == 0:
        raise ValueError(
            f"0 feature(s) (shape={arr.shape}) while a minimum of 1 is required.")
    if arr.shape[0] == 0:
        raise ValueError(
            f"0 sample(s) (shape={arr.shape}) while a minimum of 1 is required.")
    with np.errstate(over="ignore"):
        arr = np.ascontiguousarray(arr, dtype=dtype)
    infinite = np.isinf(arr)
    if infinite.any():
        col = int(np.flatnonzero(infinite.any(axis=0))[0])
        raise CodedError("x_infinite", what=what, column=col)
    if not allow_nan and np.isnan(arr).any():
        col = int(np.flatnonzero(np.isnan(arr).any(axis=0))[0])
        raise ValueError(f"Input {what} contains NaN (first in column {col}).")
    return arr


def as_target(y, *, n_samples):
    """Validate y as a 1-d array with one entry per sample (``n_samples=None``:
    any length, checked later by :func:`check_length`)."""
    if y is None:
        raise ValueError("This estimator requires y to be passed, but the target y is None.")
    if hasattr(y, "toarray") and hasattr(y, "nnz"):  # a SciPy sparse matrix (scikit-learn's type)
        raise TypeError("Sparse data was passed for y, but dense data is required. "
                        "Use '.toarray()' to convert to a dense numpy array.")
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:  # one output, as scikit-learn reads it
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(
            f"y should be a 1d array (or, for the estimators' fit, 2d with one column per "
            f"output), got an array of shape {arr.shape} instead.")
    if n_samples is not None:
        check_length(arr, n_samples)
    return arr


def check_length(y, n_samples):
    """Raise scikit-learn's error if ``y`` has not one row per sample."""
    if len(y) != n_samples:
        raise ValueError(
            f"Found input variables with inconsistent numbers of samples: "
            f"[{n_samples}, {len(y)}] (X has {n_samples} rows, y has {len(y)}).")


def unique_inverse(y):
    """``np.unique(y, return_inverse=True)``: the sorted labels and each row's
    code.  Labels of strings or other objects are hashed by
    ``pandas.factorize`` and only the distinct ones are sorted (np.unique sorts
    every row: 2.6 s against 0.1 s for 500k string labels).  Mixed types raise
    TypeError as np.unique does."""
    y = np.asarray(y)
    if y.dtype.kind not in "OUS":
        classes, codes = np.unique(y, return_inverse=True)
        return classes, codes.reshape(-1)
    import pandas as pd

    codes, uniques = pd.factorize(y.astype(object, copy=False), use_na_sentinel=True)
    if (codes < 0).any():  # None or NaN among the labels: np.unique's own error
        classes, codes = np.unique(y, return_inverse=True)
        return classes, codes.reshape(-1)
    uniques = np.asarray(uniques)
    order = np.argsort(uniques, kind="stable")
    rank = np.empty(len(order), dtype=np.intp)
    rank[order] = np.arange(len(order))
    return uniques[order].astype(y.dtype, copy=False), rank[codes]


def as_sample_weight(sample_weight, n_samples):
    if sample_weight is None:
        # every row weighs 1: one value seen n times (read-only, no n floats)
        return np.broadcast_to(np.float64(1.0), (n_samples,))
    if isinstance(sample_weight, numbers.Number):
        return np.full(n_samples, float(sample_weight))
    w = np.asarray(sample_weight, dtype=np.float64)
    if w.ndim == 0:  # an array of no dimension is no collection (scikit-learn's TypeError)
        raise TypeError("Input should have at least 1 dimension i.e. satisfy "
                        f"`len(x.shape) > 0`, got scalar `{w!r}` instead.")
    if w.ndim != 1:
        raise ValueError("Sample weights must be 1D array or scalar")
    if w.shape != (n_samples,):
        raise ValueError(
            f"sample_weight.shape == {w.shape}, expected {(n_samples,)}!")
    if not np.all(np.isfinite(w)):
        raise ValueError("sample_weight contains NaN or infinity.")
    if np.any(w < 0):
        raise ValueError("Negative values in data passed to sample_weight.")
    return w


def check_n_features(est, X, *, reset):
    """Record (reset=True) or check the feature count and names."""
    names = _feature_names(X)
    if reset:
        est.n_features_in_ = None  # set below, after validation
        if names is not None:
            est.feature_names_in_ = names
        elif hasattr(est, "feature_names_in_"):
            del est.feature_names_in_
        return names
    fitted = getattr(est, "feature_names_in_", None)
    if fitted is None and names is not None:
        warnings.warn(
            f"X has feature names, but {type(est).__name__} was fitted without feature names",
            UserWarning, stacklevel=3)
    elif fitted is not None and names is None:
        warnings.warn(
            f"X does not have valid feature names, but {type(est).__name__} was fitted "
            "with feature names", UserWarning, stacklevel=3)
    elif fitted is not None and (len(fitted) != len(names) or np.any(fitted != names)):
        unexpected = sorted(set(names) - set(fitted))
        missing = sorted(set(fitted) - set(names))
        msg = "The feature names should match those that were passed during fit.\n"
        if unexpected:
            msg += "Feature names unseen at fit time:\n" + "".join(f"- {n}\n" for n in unexpected)
        if missing:
            msg += "Feature names seen at fit time, yet now missing:\n" + "".join(
                f"- {n}\n" for n in missing)
        if not unexpected and not missing:
            msg += "Feature names must be in the same order as they were in fit.\n"
        raise ValueError(msg)
    return names
