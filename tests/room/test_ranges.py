"""A numeric feature's threshold ranges: few, in order, each holding a place
the tree could split, every such place in exactly one, and the tree's own
threshold found in the range that holds it."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import load_iris

from dtree import DecisionTreeClassifier
from pages.room.model import MAX_RANGES
from pages.room.ranges import range_of, threshold_ranges

VALUES = st.lists(st.one_of(st.integers(-50, 50).map(float),
                            st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False)),
                  min_size=1, max_size=80)
NUMBER = r"-?[0-9.]+(?:e[-+][0-9]+)?"


def cuts(labels):
    """The numbers the labels are cut at, low to high."""
    first = re.fullmatch(f"≤ ({NUMBER})", labels[0]).group(1)
    middle = [re.fullmatch(f"({NUMBER}) – ({NUMBER})", label).groups() for label in labels[1:-1]]
    last = re.fullmatch(f"> ({NUMBER})", labels[-1]).group(1)
    assert [first, *(b for _, b in middle)] == [*(a for a, _ in middle), last]  # they chain
    return [float(first), *(float(a) for a, _ in middle[1:]), float(last)] if middle else \
        [float(first)]


def sign(x):
    return 1 if x >= 0 else -1


def splits(values):
    """Every place a split can go: the midpoints of adjacent distinct values."""
    distinct = np.unique(values)
    return distinct[:-1] / 2.0 + distinct[1:] / 2.0


def test_iris_petal_length_in_four_ranges():
    petal_length = load_iris().data[:, 2]
    labels = threshold_ranges(petal_length)
    assert labels == ("≤ 1.55", "1.55 – 4.35", "4.35 – 5.15", "> 5.15")
    assert range_of(2.45, petal_length) == "1.55 – 4.35"  # CART's root threshold


@given(VALUES, st.integers(2, 10))
def test_a_few_ranges_in_order_each_holding_a_split(values, n):
    labels = threshold_ranges(values, n)
    places = len(np.unique(values)) - 1
    expected = min(n, MAX_RANGES, places)
    assert len(labels) == (expected if expected >= 2 else 0)
    assert len(set(labels)) == len(labels)
    if not labels:
        assert range_of(0.0, values, n) is None
        return
    numbers = cuts(labels)
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    holding = [range_of(t, values, n) for t in splits(values)]
    assert set(holding) == set(labels)  # each range holds a split, every split a range
    assert holding == sorted(holding, key=labels.index)  # in order along the axis
    for threshold, label in zip(splits(values), holding):  # and the label says so
        index = labels.index(label)
        assert index == 0 or numbers[index - 1] < threshold
        assert index == len(labels) - 1 or threshold <= numbers[index] * (1 + 1e-12 * sign(
            numbers[index]))


@given(VALUES, st.integers(2, 6), st.randoms())
def test_the_ranges_depend_on_the_values_only(values, n, random):
    shuffled = list(values)
    random.shuffle(shuffled)
    assert threshold_ranges(shuffled, n) == threshold_ranges(values, n)
    assert threshold_ranges([*values, np.nan, np.inf], n) == threshold_ranges(values, n)


@given(VALUES.filter(lambda v: len(set(v)) >= 3), st.integers(2, 6))
def test_a_threshold_anywhere_between_two_values_is_in_one_range(values, n):
    """A midpoint, the lower value (C4.5 writes that) or anything between
    make the same split, so they fall in the same range."""
    distinct = np.unique(values)
    for low, high in zip(distinct[:-1], distinct[1:]):
        labels = {range_of(t, values, n) for t in (low, (low + high) / 2, np.nextafter(high, low))}
        assert len(labels) == 1


def test_ranges_hold_about_as_many_rows_each():
    values = np.random.default_rng(0).permutation(np.arange(1000.0))
    labels = threshold_ranges(values, 4)
    assert labels == ("≤ 249.5", "249.5 – 499.5", "499.5 – 749.5", "> 749.5")
    skewed = np.concatenate([np.zeros(500), np.arange(1.0, 501.0)])  # half the rows at 0
    numbers = cuts(threshold_ranges(skewed, 4))
    rows = np.histogram(skewed, [-np.inf, *numbers, np.inf])[0]
    assert rows[0] == 500 and max(rows[1:]) - min(rows[1:]) <= 1  # 0's rows cannot be cut


@pytest.mark.parametrize("values, n, expected", [
    ([1.0, 1.0, 1.0], 4, ()), ([1.0, 2.0], 4, ()), ([1.0, 2.0, 3.0], 4, ("≤ 1.5", "> 1.5")),
    ([0.0, 123456.0, 200000.0], 2, ("≤ 61730", "> 61730")),
    ([0.0001, 0.0002, 0.0003], 2, ("≤ 0.00015", "> 0.00015")),
    ([], 4, ()), ([np.nan, 1.0], 4, ()),
])
def test_few_distinct_values_make_few_ranges(values, n, expected):
    assert threshold_ranges(values, n) == expected


@pytest.mark.parametrize("n", [1, 0, -3, 2.5, True, "4"])
def test_n_is_an_integer_of_two_or_more(n):
    with pytest.raises(ValueError, match="n must be"):
        threshold_ranges([1.0, 2.0, 3.0], n)


def test_a_trees_thresholds_fall_in_ranges_of_its_nodes_rows():
    """What the reveal does: place the tree's threshold at each split node."""
    X, y = load_iris(return_X_y=True)
    model = DecisionTreeClassifier(max_depth=3).fit(X, y)
    tree, paths = model.tree_, model.decision_path(X).toarray().astype(bool)
    placed = 0
    for node in np.flatnonzero(tree.children_left >= 0):
        values = X[paths[:, node], tree.feature[node]]
        threshold, labels = tree.threshold[node], threshold_ranges(values)
        label = range_of(threshold, values)
        if not labels:
            assert label is None
            continue
        index, numbers = labels.index(label), cuts(labels)
        low = numbers[index - 1] if index else -np.inf
        high = numbers[index] if index < len(numbers) else np.inf
        assert low < threshold <= high * (1 + 1e-6)  # the engine's thresholds are float32
        placed += 1
    assert placed >= 3
