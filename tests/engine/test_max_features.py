"""max_features: how many features each node evaluates (scikit-learn's rule)."""

import numpy as np
import pytest
from sklearn.datasets import make_classification

from dtree import DecisionTreeClassifier, DecisionTreeRegressor


@pytest.mark.parametrize("max_features, expected", [
    (None, 9), ("sqrt", 3), ("log2", 3), (4, 4), (0.5, 4), (1.0, 9),
])
def test_resolved_count(max_features, expected):
    X, y = make_classification(n_samples=200, n_features=9, n_informative=5, random_state=0)
    est = DecisionTreeClassifier(max_features=max_features, random_state=0, max_depth=4).fit(X, y)
    assert est.max_features_ == expected
    for step in est.steps_:
        # constant features do not count, so at least `expected` are evaluated
        # unless fewer non-constant ones exist
        assert len(step.candidates) >= expected


def test_visits_until_a_non_constant_feature():
    rng = np.random.default_rng(0)
    X = np.zeros((100, 6), dtype=np.float32)
    X[:, 5] = rng.normal(size=100)  # the only informative, non-constant feature
    y = (X[:, 5] > 0).astype(int)
    for seed in range(10):
        est = DecisionTreeClassifier(max_features=1, random_state=seed, max_depth=1).fit(X, y)
        assert est.tree_.feature[0] == 5


def test_random_state_reproducible_and_varies():
    X, y = make_classification(n_samples=300, n_features=8, n_informative=6, random_state=1)
    trees = [DecisionTreeClassifier(max_features=2, random_state=s).fit(X, y).tree_ for s in (0, 0, 1)]
    np.testing.assert_array_equal(trees[0].feature, trees[1].feature)
    np.testing.assert_array_equal(trees[0].threshold, trees[1].threshold)
    assert not (len(trees[0].feature) == len(trees[2].feature)
                and np.array_equal(trees[0].feature, trees[2].feature))


def test_regressor_max_features_subset_is_best_among_evaluated():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 6)).astype(np.float32)
    y = X @ rng.normal(size=6)
    est = DecisionTreeRegressor(max_features=3, random_state=0, max_depth=3).fit(X, y)
    for step in est.steps_:
        table = step.candidates
        assert table.iloc[0]["feature_index"] == step.feature
        assert table["gain"].max() == pytest.approx(step.gain)
