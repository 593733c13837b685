"""The threshold ranges a vote offers for a numeric feature, and the range a
tree's threshold falls in.

A node's rows can be split on a numeric feature between any two adjacent
distinct values.  The ranges cut those places into a few groups holding
about as many rows each (quantiles), so a student guesses "the threshold is
in the lower quarter of the rows" rather than a number.  Each range holds at
least one place the tree could split.  Each cut is at the midpoint between
two adjacent values, shown in as few digits as keep it at least the
midpoint and below the higher value (3 significant digits or more), so the
labels read like the tree's thresholds and say which splits they hold:
``("≤ 2.45", "2.45 – 4.75", "4.75 – 6.1", "> 6.1")``.
"""

from __future__ import annotations

import math

import numpy as np

from pages.room.model import MAX_RANGES


def _distinct_and_rows_below(values) -> tuple[np.ndarray, np.ndarray, int]:
    """The sorted distinct finite values, for each the number of rows with a
    smaller value, and the number of rows with a finite value."""
    finite = np.asarray(values, dtype=float).ravel()
    finite = finite[np.isfinite(finite)]
    distinct, counts = np.unique(finite, return_counts=True)
    return distinct, np.concatenate(([0], np.cumsum(counts)[:-1])), finite.size


def _compact(low: float, high: float) -> str:
    """Their midpoint written shortly: the midpoint of ``low < high`` to 3
    significant digits or more, the fewest that are at least the midpoint
    (or equal to it but for float rounding, as 0.00015 is) and below
    ``high``: a split at the midpoint, or at ``low``, is at most the number
    shown, and the next split is above it."""
    middle = low / 2.0 + high / 2.0  # as the engine and scikit-learn place a threshold
    if middle >= high:  # two adjacent floats: the midpoint rounds up to the higher one
        middle = low
    for digits in range(3, 18):
        text = f"{middle:.{digits}g}"
        if "e" in text and 1 <= abs(middle) < 1e15:  # 1.23e+05 -> 123000
            text = f"{float(text):.{max(0, digits - len(str(int(abs(middle)))))}f}"
        shown = float(text)
        if low < shown < high and (shown >= middle or math.isclose(shown, middle, rel_tol=1e-12)):
            return text
    return repr(middle)


def _cuts(values, n: int) -> tuple[list[int], list[str]]:
    """Where the ranges are cut: for each cut, the number of distinct values
    on its left (from 1 to the count of distinct values less one), and the
    cut written compactly."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer of at least 2, not {n!r}")
    distinct, rows_below, rows = _distinct_and_rows_below(values)
    places = len(distinct) - 1  # where a split can go: between adjacent values
    ranges = min(int(n), MAX_RANGES, places)
    if ranges < 2:
        return [], []
    lefts, previous = [], 0
    for i in range(1, ranges):
        # a cut leaves room for the cuts after it, and the last range is not empty
        candidates = np.arange(previous + 1, places - (ranges - 1 - i))
        # the rows not yet in a range, shared evenly by the ranges still to make
        done = rows_below[previous]
        target = done + (rows - done) / (ranges - i + 1)
        left = int(candidates[np.argmin(np.abs(rows_below[candidates] - target))])
        lefts.append(left)
        previous = left
    return lefts, [_compact(distinct[left - 1], distinct[left]) for left in lefts]


def threshold_ranges(values, n: int = 4) -> tuple[str, ...]:
    """Labels of ``n`` ranges of thresholds for a numeric feature at a node.

    Parameters
    ----------
    values : array-like of float
        The feature's values in the node's rows; NaN and infinities are
        left out.
    n : int, default 4
        How many ranges to offer, at least 2.  Fewer are made when the
        values allow fewer (a range per place a split can go at most), and
        never more than :data:`~pages.room.model.MAX_RANGES`.

    Returns
    -------
    tuple of str
        ``"≤ a"``, ``"a – b"``, ..., ``"> z"``, low to high; empty when the
        values allow fewer than two ranges (two distinct values or fewer).
        The same values and ``n`` always give the same labels.
    """
    _, cuts = _cuts(values, n)
    if not cuts:
        return ()
    middle = [f"{low} – {high}" for low, high in zip(cuts, cuts[1:])]
    return (f"≤ {cuts[0]}", *middle, f"> {cuts[-1]}")


def range_of(threshold: float, values, n: int = 4) -> str | None:
    """The label of the range of :func:`threshold_ranges` (same ``values``
    and ``n``) that holds a split at ``threshold``.

    Parameters
    ----------
    threshold : float
        The tree's threshold: rows with a value at most ``threshold`` go left.
    values : array-like of float
        The feature's values in the node's rows, as given to
        :func:`threshold_ranges`.
    n : int, default 4
        As given to :func:`threshold_ranges`.

    Returns
    -------
    str or None
        The label; None when no ranges are offered for these values.  The
        split is placed by the rows it sends left, so a threshold anywhere
        between the same two adjacent values (a midpoint, or the lower
        value as C4.5 writes it) falls in the same range.
    """
    lefts, _ = _cuts(values, n)
    labels = threshold_ranges(values, n)
    if not labels:
        return None
    distinct, _, _ = _distinct_and_rows_below(values)
    left = int(np.searchsorted(distinct, float(threshold), side="right"))
    return labels[int(np.searchsorted(lefts, left, side="left"))]
