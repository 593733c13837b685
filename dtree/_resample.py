"""Trees grown on resamples of the training rows: how much a tree changes
when its data changes a little.

:func:`resampled_trees` draws ``n_resamples`` sets of rows (a bootstrap
sample, or the rows left after dropping a share of them), fits a fresh copy
of an estimator on each, and returns the trees with the rows each was
fitted on, so that anyone can refit them and get the same trees.

Each resample has its own seed, spawned from ``random_state`` by NumPy's
``SeedSequence``: resample ``i`` depends only on ``random_state`` and ``i``,
so asking for more resamples keeps the first ones.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

__all__ = ["MAX_RESAMPLES", "RESAMPLE_METHODS", "ResampledTrees", "resampled_trees"]

#: The most resamples :func:`resampled_trees` grows in one call.
MAX_RESAMPLES = 50
#: The ways of drawing a resample.
RESAMPLE_METHODS = ("bootstrap", "drop")


@dataclass(frozen=True)
class ResampledTrees:
    """Trees fitted on resamples of the same rows, and those rows.

    Attributes
    ----------
    estimators : list of fitted estimators
        ``estimators[i]`` is a fresh copy of the estimator given to
        :func:`resampled_trees` (same parameters), fitted on ``X[rows[i]]``.
    rows : list of ndarray of int
        ``rows[i]``, the positions (0-based, in the order of ``X``) of the
        rows ``estimators[i]`` was fitted on, in the order they were given to
        ``fit``: sorted, with repeats for a bootstrap sample.
    n_samples : int
        The number of rows of ``X``.
    method : {"bootstrap", "drop"}
    drop_share : float
        The share of the rows left out of each resample (``method="drop"``).
    random_state : int or None
        The seed the resamples were drawn with.
    """

    estimators: list
    rows: list
    n_samples: int
    method: str
    drop_share: float
    random_state: int | None

    def __len__(self) -> int:
        return len(self.estimators)

    def left_out(self, i) -> np.ndarray:
        """The positions of the rows resample ``i`` did not draw (sorted):
        its out-of-bag rows for a bootstrap sample, the dropped rows
        otherwise."""
        drawn = np.zeros(self.n_samples, dtype=bool)
        drawn[self.rows[i]] = True
        return np.flatnonzero(~drawn)


def _check_count(n_resamples):
    if (not isinstance(n_resamples, numbers.Integral) or isinstance(n_resamples, bool)
            or not 1 <= n_resamples <= MAX_RESAMPLES):
        raise ValueError(f"n_resamples must be an int from 1 to {MAX_RESAMPLES}; "
                         f"got {n_resamples!r}.")


def _check_share(drop_share):
    if (not isinstance(drop_share, numbers.Real) or isinstance(drop_share, bool)
            or not 0 < drop_share < 1):
        raise ValueError(f"drop_share must be a number between 0 and 1 (both excluded); "
                         f"got {drop_share!r}.")


def _check_seed(random_state):
    if random_state is None:
        return None
    if (not isinstance(random_state, numbers.Integral) or isinstance(random_state, bool)
            or random_state < 0):
        raise ValueError(f"random_state must be None or an int >= 0; got {random_state!r}.")
    return int(random_state)


def n_dropped(n_samples: int, drop_share: float) -> int:
    """How many of ``n_samples`` rows a resample drops: ``drop_share`` of them,
    rounded to the nearest row (halves up)."""
    return int(math.floor(drop_share * n_samples + 0.5))


def _draw(n_samples, method, drop_share, seed) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if method == "bootstrap":
        return np.sort(rng.integers(0, n_samples, size=n_samples))
    kept = n_samples - n_dropped(n_samples, drop_share)
    return np.sort(rng.choice(n_samples, size=kept, replace=False))


def _take(values, rows):
    """``values[rows]``, by position for a pandas object."""
    return values.iloc[rows] if hasattr(values, "iloc") else values[rows]


def resampled_trees(estimator, X, y, *, n_resamples=20, method="bootstrap", drop_share=0.2,
                    sample_weight=None, random_state=None) -> ResampledTrees:
    """Fit a fresh copy of ``estimator`` on each of ``n_resamples`` resamples
    of the rows of ``(X, y)``.

    Parameters
    ----------
    estimator : DecisionTreeClassifier or DecisionTreeRegressor
        The tree to grow; it is not fitted or changed: each resample gets a
        new estimator with the same parameters (``get_params``).
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    n_resamples : int, default=20
        How many trees to grow, from 1 to :data:`MAX_RESAMPLES` (50).
    method : {"bootstrap", "drop"}, default="bootstrap"
        ``"bootstrap"``: each resample draws ``n_samples`` rows with
        replacement (about 63% of the rows appear, some several times).
        ``"drop"``: each resample leaves out ``drop_share`` of the rows,
        drawn without replacement, and keeps the others once.
    drop_share : float, default=0.2
        The share of the rows a ``"drop"`` resample leaves out, between 0
        and 1 (excluded); rounded to the nearest row, and it must leave out
        at least one row and keep at least one.  Checked, but not used, for
        ``"bootstrap"``.
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights, resampled with the rows.
    random_state : int or None, default=None
        The seed of the draws.  The same seed gives the same rows, and so
        the same trees; resample ``i``'s rows depend only on the seed and
        ``i``.  (The estimator's own ``random_state`` is copied as it is.)

    Returns
    -------
    ResampledTrees
        The fitted trees with the rows each was fitted on:
        ``type(estimator)(**estimator.get_params()).fit(X[rows[i]],
        y[rows[i]])`` grows ``estimators[i]`` again, node for node, when the
        estimator is deterministic (an int or None ``random_state`` with
        ``splitter="best"`` and every feature tried).

    Raises
    ------
    ValueError
        For an argument out of its range, ``X`` and ``y`` of different
        lengths, a ``drop_share`` that drops no row or every row, and what
        the estimator refuses on a resample (a Poisson tree on rows whose
        target sums to zero, for example).

    Examples
    --------
    >>> import numpy as np
    >>> from dtree import DecisionTreeClassifier, resampled_trees
    >>> X = np.arange(20.0).reshape(-1, 1); y = (X[:, 0] > 9).astype(int)
    >>> found = resampled_trees(DecisionTreeClassifier(max_depth=1), X, y,
    ...                         n_resamples=3, method="drop", drop_share=0.25,
    ...                         random_state=0)
    >>> [len(r) for r in found.rows]
    [15, 15, 15]
    >>> [len(found.left_out(i)) for i in range(3)]
    [5, 5, 5]
    """
    _check_count(n_resamples)
    if method not in RESAMPLE_METHODS:
        raise ValueError(f"method must be one of {RESAMPLE_METHODS}; got {method!r}.")
    _check_share(drop_share)
    seed = _check_seed(random_state)
    if not (hasattr(estimator, "fit") and hasattr(estimator, "get_params")):
        raise ValueError(f"estimator must be a dtree estimator (with fit and get_params); "
                         f"got {type(estimator).__name__}.")
    X = X if hasattr(X, "iloc") else np.asarray(X)
    y = y if hasattr(y, "iloc") else np.asarray(y)
    n_samples = len(X)
    if len(y) != n_samples:
        raise ValueError(f"X and y have different numbers of rows ({n_samples} and {len(y)}).")
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight, dtype=np.float64)
        if sample_weight.shape != (n_samples,):
            raise ValueError(f"sample_weight must have shape ({n_samples},); got "
                             f"{sample_weight.shape}.")
    if method == "drop":
        dropped = n_dropped(n_samples, drop_share)
        if not 1 <= dropped <= n_samples - 1:
            raise ValueError(f"drop_share={drop_share!r} of {n_samples} rows drops {dropped} "
                             "row(s); a resample must drop at least one row and keep at "
                             "least one.")
    seeds = np.random.SeedSequence(seed).spawn(n_resamples)
    params = estimator.get_params()
    estimators, rows = [], []
    for child in seeds:
        drawn = _draw(n_samples, method, drop_share, child)
        weights = None if sample_weight is None else sample_weight[drawn]
        fitted = type(estimator)(**params).fit(_take(X, drawn), _take(y, drawn),
                                               sample_weight=weights)
        estimators.append(fitted)
        rows.append(drawn)
    return ResampledTrees(estimators, rows, n_samples, method, float(drop_share), seed)
