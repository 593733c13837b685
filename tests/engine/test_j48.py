"""algorithm="j48" against Weka's J48 itself, node for node.

Every test runs Weka 3.6 (``make weka``) on an ARFF file and compares its
printed tree with dtree's: attribute, branches, thresholds (to 1e-6), and
each leaf's class with its "(n/errors)" weights (to 0.01).  Without Weka the
tests are skipped, or fail when ``CI`` is set.
"""

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier
from tests.helpers.weka import (EXAMPLES, compare, count_leaves, dtree_tree, j48_text, parse_tree,
                        read_arff, read_arff_meta, require_weka, write_arff)
from tests.helpers.j48_cases import generated_with_missing, NOMINAL_CLASS

# runs Weka (a JVM) as its oracle: left out of the quick tier (make test-fast)
pytestmark = pytest.mark.weka


def test_the_list_covers_every_example_with_a_nominal_class():
    require_weka(data_only=True)
    found = []
    for path in sorted(EXAMPLES.glob("*.arff")):
        _, attrs, _ = read_arff_meta(path)
        if isinstance(attrs[-1][1], list) and all(k == "numeric" or isinstance(k, list)
                                                  for _, k in attrs):
            found.append(path.stem)
    assert sorted(found) == sorted(NOMINAL_CLASS)


def _check(path, X, y, min_objects=2, *options):
    est = DecisionTreeClassifier(algorithm="j48", min_objects=min_objects).fit(X, y)
    text = j48_text(path, "-U", "-M", str(min_objects), *options)
    theirs = parse_tree(text, X.columns)
    ours = dtree_tree(est)
    compare(ours, theirs)
    assert est.get_n_leaves() == count_leaves(theirs)
    return est, theirs


@pytest.mark.parametrize("name", NOMINAL_CLASS)
def test_unpruned_tree_is_j48s(name):
    require_weka()
    path = EXAMPLES / f"{name}.arff"
    X, y = read_arff(path)
    _check(path, X, y)


@pytest.mark.parametrize("name, min_objects", [("vote", 1), ("soybean", 1), ("credit-g", 5),
                                               ("diabetes", 7), ("glass", 3)])
def test_min_objects_is_j48s_minus_m(name, min_objects):
    require_weka()
    path = EXAMPLES / f"{name}.arff"
    X, y = read_arff(path)
    _check(path, X, y, min_objects)


def test_vote_reference_leaf_counts():
    require_weka(data_only=True)
    X, y = read_arff(EXAMPLES / "vote.arff")
    assert DecisionTreeClassifier(algorithm="j48").fit(X, y).get_n_leaves() == 19
    assert DecisionTreeClassifier(algorithm="j48", min_objects=1).fit(X, y).get_n_leaves() == 28


@pytest.mark.parametrize("seed, n, rate, min_objects",
                         [(0, 200, 0.1, 2), (1, 400, 0.25, 2), (2, 300, 0.4, 2),
                          (3, 150, 0.15, 1), (4, 500, 0.3, 4)])
def test_generated_missing_values_are_j48s(tmp_path, seed, n, rate, min_objects):
    require_weka()
    X, y = generated_with_missing(seed, n, rate)
    path = write_arff(tmp_path / f"gen{seed}.arff", X, y)
    # what Weka reads back is what dtree fits
    X2, y2 = read_arff(path)
    pd.testing.assert_frame_equal(X2, X, check_dtype=False, check_categorical=False)
    est, theirs = _check(path, X, y, min_objects)
    assert count_leaves(theirs) > 3  # a real tree, with splits to compare


def test_j48_keeps_float64_values():
    # cut candidates are decided in double precision (rule 4): near 1000,
    # values 2e-5 apart are distinct cuts in float64 but one float32 value
    x = 1000.0 + np.array([0.0, 2e-5, 4e-5, 6e-5] * 5)
    assert len(np.unique(x.astype(np.float32))) < 4
    y = np.array(["a", "a", "b", "b"] * 5)
    est = DecisionTreeClassifier(algorithm="j48").fit(x[:, None], y)
    assert est.tree_.threshold[0] == 1000.0 + 2e-5  # a training value (rule 6)
    np.testing.assert_array_equal(est.predict(x[:, None]), y)


def test_j48_declared_classes_and_steps():
    require_weka(data_only=True)
    X, y = read_arff(EXAMPLES / "glass.arff")
    est = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    # the declared classes, in declared order, the empty one included
    assert list(est.classes_) == list(y.cat.categories)
    assert len(est.classes_) == 7 and (y == "vehic wind non-float").sum() == 0
    # growth is recorded like any other preset's, with candidate tables
    assert len(est.steps_) == est.tree_.node_count - est.get_n_leaves()
    table = est.steps_[0].candidates
    assert table.iloc[0]["chosen"] and table.iloc[0]["eligible"]
    assert est.tree_.feature[0] == est.steps_[0].feature


def test_j48_stop_reasons():
    require_weka(data_only=True)
    X, y = read_arff(EXAMPLES / "breast-cancer.arff")
    est = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    reasons = set(est.tree_.stop_reason[est.tree_.is_leaf()].tolist())
    assert "empty branch" in reasons
    assert "fewer than 2 branches with >= min_objects rows" in reasons or "pure" in reasons
