"""scikit-learn is the oracle: dtree's trees must match its trees node for node.

Data are cast to float32 first, as scikit-learn does.  Every node is checked:
where scikit-learn's random feature order breaks an exact tie (two splits with
the same impurity decrease) otherwise than dtree, the reference keeps dtree's
split and regrows its children with scikit-learn (helpers/sklearn_match.py),
so node ids, predictions and importances are checked in every setup.
"""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_iris, load_wine, make_classification
from sklearn.tree import DecisionTreeClassifier as SkClassifier
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from dtree import DecisionTreeClassifier, DecisionTreeRegressor

from tests.helpers.sklearn_match import assert_matches_sklearn
from tests.helpers.treecompare import compare_trees

PRE_PRUNING = [
    {},
    {"max_depth": 3},
    {"max_depth": 6, "min_samples_split": 10},
    {"min_samples_leaf": 5},
    {"min_samples_leaf": 0.03},
    {"min_samples_split": 0.1},
    {"min_weight_fraction_leaf": 0.05},
    {"min_impurity_decrease": 0.005},
    {"max_leaf_nodes": 12},
    {"max_leaf_nodes": 40, "max_depth": 5, "min_samples_leaf": 3},
]


def _classification_data(seed=0, n=400, k=3):
    X, y = make_classification(n_samples=n, n_features=6, n_informative=5, n_redundant=0,
                               n_classes=k, n_clusters_per_class=2, random_state=seed)
    return X.astype(np.float32), y


def _regression_data(seed=0, n=400):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5)).astype(np.float32)
    y = 2 * X[:, 0] + np.sin(3 * X[:, 1]) + X[:, 2] * X[:, 3] + rng.normal(scale=0.3, size=n)
    return X, y


@pytest.mark.parametrize("criterion", ["gini", "entropy", "log_loss"])
@pytest.mark.parametrize("params", PRE_PRUNING, ids=str)
def test_classifier_matches_sklearn(criterion, params):
    X, y = _classification_data()
    ours = DecisionTreeClassifier(criterion=criterion, **params).fit(X, y)
    theirs = SkClassifier(criterion=criterion, random_state=0, **params).fit(X, y)
    assert_matches_sklearn(ours, theirs, X, y)


@pytest.mark.parametrize("criterion", ["squared_error", "friedman_mse", "absolute_error", "poisson"])
@pytest.mark.parametrize("params", PRE_PRUNING[:4] + PRE_PRUNING[7:9], ids=str)
@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_regressor_matches_sklearn(criterion, params):
    X, y = _regression_data()
    if criterion == "poisson":
        y = np.exp(y / 3)
    n = 150 if criterion == "absolute_error" else len(y)
    ours = DecisionTreeRegressor(criterion=criterion, **params).fit(X[:n], y[:n])
    theirs = SkRegressor(criterion=criterion, random_state=0, **params).fit(X[:n], y[:n])
    assert_matches_sklearn(ours, theirs, X[:n], y[:n])


@pytest.mark.parametrize("growth_params", [{"max_leaf_nodes": 2}, {"max_leaf_nodes": 7},
                                           {"max_leaf_nodes": 25}])
def test_best_first_ids_follow_creation_order(growth_params):
    X, y = _classification_data(seed=3, n=600)
    ours = DecisionTreeClassifier(**growth_params).fit(X, y)
    theirs = SkClassifier(random_state=0, **growth_params).fit(X, y)
    assert ours.growth_ == "best_first"
    assert assert_matches_sklearn(ours, theirs, X, y) == 0


@pytest.mark.parametrize("weights", ["integer", "fractional"])
@pytest.mark.parametrize("params", [{}, {"max_depth": 4}, {"min_weight_fraction_leaf": 0.02},
                                    {"max_leaf_nodes": 15}])
def test_sample_weight(weights, params):
    X, y = _classification_data(seed=1)
    rng = np.random.default_rng(1)
    w = rng.integers(0, 4, len(y)).astype(float) if weights == "integer" else rng.uniform(0.1, 3, len(y))
    ours = DecisionTreeClassifier(**params).fit(X, y, sample_weight=w)
    theirs = SkClassifier(random_state=0, **params).fit(X, y, sample_weight=w)
    assert_matches_sklearn(ours, theirs, X, y, w)
    if weights == "integer":  # zero-weight rows are not node samples
        assert ours.tree_.n_node_samples[0] == np.count_nonzero(w)


def test_sample_weight_regression():
    X, y = _regression_data(seed=2)
    w = np.random.default_rng(2).integers(1, 5, len(y)).astype(float)
    ours = DecisionTreeRegressor(max_depth=5).fit(X, y, sample_weight=w)
    theirs = SkRegressor(max_depth=5, random_state=0).fit(X, y, sample_weight=w)
    assert_matches_sklearn(ours, theirs, X, y, w)


@pytest.mark.parametrize("class_weight", ["balanced", {0: 1, 1: 3, 2: 2}])
@pytest.mark.parametrize("params", [{}, {"max_depth": 4}, {"max_leaf_nodes": 10}])
def test_class_weight(class_weight, params):
    X, y = _classification_data(seed=4)
    ours = DecisionTreeClassifier(class_weight=class_weight, **params).fit(X, y)
    theirs = SkClassifier(class_weight=class_weight, random_state=0, **params).fit(X, y)
    assert_matches_sklearn(ours, theirs, X, y)


@pytest.mark.parametrize("loader", [load_iris, load_wine])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_real_datasets(loader, criterion):
    X, y = loader(return_X_y=True)
    X = X.astype(np.float32)
    ours = DecisionTreeClassifier(criterion=criterion).fit(X, y)
    theirs = SkClassifier(criterion=criterion, random_state=0).fit(X, y)
    assert_matches_sklearn(ours, theirs, X, y)
    assert ours.score(X, y) == theirs.score(X, y) == 1.0


def test_diabetes_regression():
    X, y = load_diabetes(return_X_y=True)
    X = X.astype(np.float32)
    for params in ({"max_depth": 4}, {"min_samples_leaf": 10}, {"max_leaf_nodes": 20}):
        ours = DecisionTreeRegressor(**params).fit(X, y)
        theirs = SkRegressor(random_state=0, **params).fit(X, y)
        assert_matches_sklearn(ours, theirs, X, y)
        np.testing.assert_allclose(ours.score(X, y), theirs.score(X, y), rtol=1e-12)


def test_float64_input_is_cast_to_float32():
    """Values that differ only beyond float32 precision are one value."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 3))
    X[::2, 0] = 1.0
    X[1::2, 0] = 1.0 + 1e-9  # the same float32
    y = (X[:, 1] + rng.normal(scale=0.5, size=300) > 0).astype(int)
    ours = DecisionTreeClassifier(max_depth=4, min_samples_leaf=15).fit(X, y)
    theirs = SkClassifier(max_depth=4, min_samples_leaf=15, random_state=0).fit(X, y)
    assert compare_trees(ours.tree_, theirs.tree_) == 0
    assert 0 not in ours.tree_.feature


def test_predict_on_unseen_data_matches():
    X, y = _classification_data(seed=6, n=800)
    ours = DecisionTreeClassifier(max_depth=6, min_samples_leaf=10).fit(X[:500], y[:500])
    theirs = SkClassifier(max_depth=6, min_samples_leaf=10, random_state=0).fit(X[:500], y[:500])
    assert assert_matches_sklearn(ours, theirs, X[:500], y[:500]) == 0
    np.testing.assert_array_equal(ours.predict(X[500:]), theirs.predict(X[500:]))
    np.testing.assert_array_equal(ours.decision_path(X[500:]).toarray(),
                                  theirs.decision_path(X[500:]).toarray())


def test_string_labels_and_dataframe():
    pd = pytest.importorskip("pandas")
    X, y = _classification_data(seed=7)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    frame = pd.DataFrame(X, columns=[f"col {i}" for i in range(X.shape[1])])
    ours = DecisionTreeClassifier(max_depth=4).fit(frame, names)
    theirs = SkClassifier(max_depth=4, random_state=0).fit(frame, names)
    assert_matches_sklearn(ours, theirs, frame, names)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_array_equal(ours.feature_names_in_, theirs.feature_names_in_)
    assert ours.steps_[0].feature_name == frame.columns[ours.steps_[0].feature]


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_random_splitter_thresholds_within_node_range(criterion):
    """The random splitter draws one threshold per feature between the node's
    min and max; scikit-learn's RNG differs, so check the rule, not the tree."""
    X, y = _classification_data(seed=8)
    est = DecisionTreeClassifier(criterion=criterion, splitter="random", random_state=0).fit(X, y)
    again = DecisionTreeClassifier(criterion=criterion, splitter="random", random_state=0).fit(X, y)
    np.testing.assert_array_equal(est.tree_.threshold, again.tree_.threshold)
    other = DecisionTreeClassifier(criterion=criterion, splitter="random", random_state=1).fit(X, y)
    assert not np.array_equal(est.tree_.threshold[:3], other.tree_.threshold[:3])
    path = est.decision_path(X).toarray().astype(bool)
    for node in np.flatnonzero(est.tree_.children_left >= 0):
        xs = X[path[:, node], est.tree_.feature[node]]
        assert xs.min() <= est.tree_.threshold[node] < xs.max()
    assert est.score(X, y) == 1.0


def test_missing_values_sent_left_can_be_the_only_valid_split():
    """With min_samples_leaf, a split may be valid only with the missing
    values on the left (the known values alone are too few): scikit-learn
    takes it, and so does dtree (found by the hist splitter's property test)."""
    x = np.array([-3.0] * 14 + [-4.0] * 8 + [np.nan] * 7, dtype=np.float32)[:, None]
    y = np.array([0] * 12 + [1, 1] + [0] * 8 + [0] * 6 + [1])
    ours = DecisionTreeClassifier(min_samples_leaf=9, max_depth=1).fit(x, y)
    theirs = SkClassifier(min_samples_leaf=9, max_depth=1).fit(x, y)
    assert ours.tree_.node_count == theirs.tree_.node_count == 3
    assert ours.tree_.threshold[0] == theirs.tree_.threshold[0]
    assert list(ours.tree_.n_node_samples) == list(theirs.tree_.n_node_samples)
