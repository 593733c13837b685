"""Category encoding (dtree._encode, pandas.factorize) against the plain
Python rule it replaced: labels are the sorted set of the non-missing values,
a value's code is its label's index, missing is NaN and unseen is -1."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtree import _encode


def missing(v):
    return v is None or (isinstance(v, float) and v != v) or v is pd.NA or v is pd.NaT


def reference_labels(values):
    present = [v for v in values if not missing(v)]
    try:
        return sorted(set(present))
    except TypeError:
        return sorted(set(present), key=lambda v: (type(v).__name__, str(v)))


def reference_codes(values, labels):
    lookup = {label: i for i, label in enumerate(labels)}
    return np.array([np.nan if missing(v) else lookup.get(v, -1) for v in values],
                    dtype=np.float32)


strings = st.sampled_from(["a", "b", "c", "ä", "红", "", " a", "A"])
missing_values = st.sampled_from([None, float("nan"), pd.NA])
mixed = st.one_of(strings, st.integers(-3, 3), st.sampled_from([0.5, 1.0, 2.0]),
                  st.booleans(), missing_values)


def check(values, unseen):
    X = pd.DataFrame({"c": pd.Series(values, dtype=object)})
    labels = _encode.learn_categories(X, 0, "c")
    want = reference_labels(values)
    assert list(labels) == want
    assert [type(v) for v in labels] == [type(v) for v in want]  # the first one seen
    test = pd.DataFrame({"c": pd.Series(list(values) + list(unseen), dtype=object)})
    got = _encode.encode_column(test, 0, labels)
    np.testing.assert_array_equal(got, reference_codes(list(values) + list(unseen), want))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(strings, missing_values), min_size=1, max_size=40),
       st.lists(st.sampled_from(["zz", "new"]), max_size=3))
def test_strings_with_missing_values(values, unseen):
    check(values, unseen)


@settings(max_examples=200, deadline=None)
@given(st.lists(mixed, min_size=1, max_size=40))
def test_mixed_python_values(values):
    check(values, [])


@pytest.mark.parametrize("dtype", ["str", "category", "object"])
def test_pandas_dtypes_and_numpy_input(dtype):
    values = ["low", None, "high", "mid", "high", np.nan, "low"]
    X = pd.DataFrame({"c": pd.Series(values, dtype=dtype)})
    labels = _encode.learn_categories(X, 0, "c")
    if dtype == "category":  # pandas categories keep their own order
        assert list(labels) == list(X["c"].cat.categories)
    else:
        assert list(labels) == ["high", "low", "mid"]
    codes = _encode.encode_column(X, 0, labels)
    np.testing.assert_array_equal(codes, reference_codes(values, list(labels)))
    # a plain NumPy object array goes the same way
    arr = np.array(values, dtype=object)[:, None]
    np.testing.assert_array_equal(_encode.encode_column(arr, 0, labels), codes)


def test_equal_numbers_share_a_label():
    X = pd.DataFrame({"c": pd.Series([1, 1.0, True, 2], dtype=object)})
    labels = _encode.learn_categories(X, 0, "c")
    assert len(labels) == 2
    np.testing.assert_array_equal(_encode.encode_column(X, 0, labels), [0, 0, 0, 1])


labels = st.one_of(st.lists(st.sampled_from(["b", "a", "c", "ä", "10", "9"]), min_size=1,
                            max_size=30),
                   st.lists(st.integers(-2, 5), min_size=1, max_size=30),
                   st.lists(st.sampled_from([0.5, -1.0, 2.0]), min_size=1, max_size=30))


@settings(max_examples=150, deadline=None)
@given(labels, st.sampled_from([object, None]))
def test_unique_inverse_is_np_unique(values, dtype):
    from dtree._base import unique_inverse

    y = np.array(values, dtype=dtype)
    want_classes, want_codes = np.unique(y, return_inverse=True)
    classes, codes = unique_inverse(y)
    assert classes.dtype == want_classes.dtype
    np.testing.assert_array_equal(classes, want_classes)
    np.testing.assert_array_equal(codes, want_codes)


def test_unique_inverse_refuses_mixed_labels_as_np_unique():
    from dtree._base import unique_inverse

    with pytest.raises(TypeError):
        unique_inverse(np.array(["a", 1, "b"], dtype=object))
