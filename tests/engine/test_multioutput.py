"""Multi-output trees (y of several columns) against scikit-learn, their oracle.

scikit-learn grows one tree for all outputs: per-output ``classes_`` and
``n_classes_``, ``class_weight`` as a list of dicts, ``predict_proba`` as a
list and ``tree_.value`` of shape (nodes, outputs, classes), each node's
impurity the mean of its outputs'.  Every node is compared, with node ids,
leaves, predictions, each output's probabilities and importances: where
scikit-learn's random feature order breaks an exact tie otherwise than
dtree, its tree is regrown below dtree's split (``assert_matches_sklearn``).
Every test also requires a stated number of its setups to be free of ties,
so that scikit-learn's own methods are the oracle there.

A second oracle needs no scikit-learn: k copies of one target grow, bit for
bit, dtree's single-output tree (each output's impurity is the same, so is
their mean, and every proxy is k times the same number).
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier as SkClassifier
from sklearn.tree import DecisionTreeRegressor as SkRegressor
from sklearn.tree import export_text as sk_export_text

from dtree import (CodedError, DecisionTreeClassifier, DecisionTreeRegressor, candidate_splits,
                   ccp_cross_validate, ccp_holdout, error_based_prune, export_graphviz,
                   export_text, pessimistic_prune, reduced_error_prune)
from tests.helpers.sklearn_match import assert_matches_sklearn
from tests.helpers.treecompare import compare_trees, walk_trees

PARAMS = [
    {},
    {"max_depth": 3},
    {"min_samples_leaf": 5},
    {"min_samples_split": 0.1},
    {"min_weight_fraction_leaf": 0.05},
    {"min_impurity_decrease": 0.005},
    {"max_leaf_nodes": 12},
    {"max_leaf_nodes": 30, "max_depth": 5, "min_samples_leaf": 3},
    {"ccp_alpha": 0.01},
]


def _data(seed, n=300, missing=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5)).astype(np.float32)
    if missing:
        X[rng.random(X.shape) < 0.1] = np.nan
    base = np.nan_to_num(X)
    classes = np.c_[(base[:, 0] + base[:, 1] > 0).astype(int),
                    np.digitize(base[:, 2] + 0.5 * base[:, 3], [-1, 0, 1]),
                    rng.integers(0, 3, n)]
    values = np.c_[2 * base[:, 0] + base[:, 1] * base[:, 2],
                   np.sin(3 * base[:, 3]) + rng.normal(scale=0.3, size=n)]
    counts = rng.poisson(np.exp(np.c_[base[:, 0], 0.5 * base[:, 1]]))
    return X, classes, values, counts


def _compare(ours, theirs, X, y, sample_weight=None):
    """Every node, id, prediction and importance (ties broken as dtree's);
    returns the number of ties."""
    assert ours.n_outputs_ == theirs.n_outputs_
    assert ours.tree_.value.shape[1:] == theirs.tree_.value.shape[1:]
    if isinstance(ours, DecisionTreeClassifier):
        np.testing.assert_array_equal(ours.n_classes_, theirs.n_classes_)
        assert len(ours.classes_) == len(theirs.classes_)
        for mine, theirs_ in zip(ours.classes_, theirs.classes_):
            np.testing.assert_array_equal(mine, theirs_)
    return assert_matches_sklearn(ours, theirs, X, y, sample_weight)


def _run(setups, min_tie_free):
    """Compare every (ours, theirs, X, y, fit kwargs); at least
    ``min_tie_free`` of them must have no tie at all."""
    tie_free = 0
    for ours, theirs, X, y, fit_kw in setups:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # friedman_mse in 1.9
            ours.fit(X, y, **fit_kw)
            theirs.fit(X, y, **fit_kw)
        tie_free += _compare(ours, theirs, X, y, fit_kw.get("sample_weight")) == 0
    assert tie_free >= min_tie_free, f"only {tie_free} of {len(setups)} setups are tie-free"


@pytest.mark.parametrize("criterion", ["gini", "entropy", "log_loss"])
@pytest.mark.parametrize("missing", [False, True], ids=["dense", "nan"])
def test_classifier_matches_sklearn(criterion, missing):
    setups = []
    for seed in range(2):
        X, classes, _, _ = _data(seed, missing=missing)
        for params in PARAMS:
            setups.append((DecisionTreeClassifier(criterion=criterion, **params),
                           SkClassifier(criterion=criterion, random_state=0, **params),
                           X, classes, {}))
    _run(setups, min_tie_free=len(setups) // 3)


@pytest.mark.parametrize("criterion", ["squared_error", "friedman_mse", "absolute_error",
                                       "poisson"])
def test_regressor_matches_sklearn(criterion):
    setups = []
    for seed in range(2):
        X, _, values, counts = _data(seed, n=150 if criterion == "absolute_error" else 300)
        Y = counts if criterion == "poisson" else values
        for params in PARAMS:
            setups.append((DecisionTreeRegressor(criterion=criterion, **params),
                           SkRegressor(criterion=criterion, random_state=0, **params),
                           X, Y, {}))
    _run(setups, min_tie_free=len(setups) // 2)


@pytest.mark.parametrize("criterion", ["squared_error", "poisson"])
def test_regressor_with_missing_values_matches_sklearn(criterion):
    X, _, values, counts = _data(4, missing=True)
    Y = counts if criterion == "poisson" else values
    _run([(DecisionTreeRegressor(criterion=criterion, **params),
           SkRegressor(criterion=criterion, random_state=0, **params), X, Y, {})
          for params in PARAMS], min_tie_free=len(PARAMS) // 2)


def test_weights_match_sklearn():
    X, classes, values, _ = _data(2)
    rng = np.random.default_rng(5)
    w = rng.uniform(0.5, 2.0, len(X))
    per_output = [{0: 1.0, 1: 3.0}, {0: 2.0, 1: 1.0, 2: 1.0, 3: 5.0}, {0: 1.0, 1: 1.0, 2: 4.0}]
    setups = []
    for crit in ("gini", "entropy"):
        for cw, fit_kw in ((None, {"sample_weight": w}), ("balanced", {}),
                           (per_output, {}), (per_output, {"sample_weight": w})):
            setups.append((DecisionTreeClassifier(criterion=crit, class_weight=cw, max_depth=4),
                           SkClassifier(criterion=crit, class_weight=cw, max_depth=4,
                                        random_state=0), X, classes, fit_kw))
    for crit in ("squared_error", "absolute_error"):
        setups.append((DecisionTreeRegressor(criterion=crit, max_depth=6),
                       SkRegressor(criterion=crit, max_depth=6, random_state=0), X[:150],
                       values[:150], {"sample_weight": w[:150]}))
    _run(setups, min_tie_free=len(setups) // 2)


def test_sklearns_toy_problem():
    # scikit-learn's test_multioutput: four quadrants, two outputs
    X = [[-2, -1], [-1, -1], [-1, -2], [1, 1], [1, 2], [2, 1], [-2, 1], [-1, 1], [-1, 2],
         [2, -1], [1, -1], [1, -2]]
    y = np.array([[-1, 0], [-1, 0], [-1, 0], [1, 1], [1, 1], [1, 1], [-1, 2], [-1, 2],
                  [-1, 2], [1, 3], [1, 3], [1, 3]])
    T = [[-1, -1], [1, 1], [-1, 1], [1, -1]]
    clf = DecisionTreeClassifier(random_state=0).fit(X, y)
    sk = SkClassifier(random_state=0).fit(X, y)
    np.testing.assert_array_equal(clf.predict(T), sk.predict(T))
    assert [p.shape for p in clf.predict_proba(T)] == [(4, 2), (4, 4)]
    assert [p.shape for p in clf.predict_log_proba(T)] == [(4, 2), (4, 4)]
    reg = DecisionTreeRegressor(random_state=0).fit(X, y)
    np.testing.assert_allclose(reg.predict(T), SkRegressor(random_state=0).fit(X, y).predict(T))


# --------------------------------------------------------------------------
# k copies of one target: dtree's own single-output tree, bit for bit
# --------------------------------------------------------------------------

_SAME = ("feature", "threshold", "impurity", "n_node_samples", "weighted_n_node_samples",
         "child_ptr", "child_ids", "missing_child")


@st.composite
def _problems(draw):
    n = draw(st.integers(8, 60))
    n_features = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    # few distinct values: many ties between thresholds and features
    X = rng.integers(0, draw(st.integers(2, 6)), size=(n, n_features)).astype(np.float32)
    if draw(st.booleans()):
        X[rng.random(X.shape) < 0.15] = np.nan
    classify = draw(st.booleans())
    criterion = draw(st.sampled_from(
        ["gini", "entropy", "misclassification", "taylor2"] if classify
        else ["squared_error", "poisson", "absolute_error"]))
    if classify:
        y = rng.integers(0, draw(st.integers(2, 4)), size=n)
    else:
        y = rng.integers(0, 5, size=n).astype(float) + (criterion == "poisson")
    if criterion == "absolute_error":
        X = np.nan_to_num(X)
    params = draw(st.fixed_dictionaries({}, optional={
        "max_depth": st.integers(1, 4), "min_samples_leaf": st.integers(1, 4),
        "max_leaf_nodes": st.integers(2, 8), "min_impurity_decrease": st.sampled_from([0.01]),
        "growth": st.sampled_from(["depth_first", "best_first", "breadth_first"])}))
    weights = rng.uniform(0.5, 2.0, n) if draw(st.booleans()) else None
    # (two copies: (I + I) / 2 is I exactly; a third would round)
    return X, y, classify, dict(criterion=criterion, **params), weights, 2


@settings(deadline=None)
@given(_problems())
def test_copies_of_one_target_grow_the_single_output_tree(problem):
    X, y, classify, params, weights, k = problem
    Est = DecisionTreeClassifier if classify else DecisionTreeRegressor
    one = Est(**params).fit(X, y, sample_weight=weights)
    many = Est(**params).fit(X, np.column_stack([y] * k), sample_weight=weights)
    assert many.n_outputs_ == k and one.n_outputs_ == 1
    for name in _SAME:
        np.testing.assert_array_equal(getattr(many.tree_, name), getattr(one.tree_, name),
                                      err_msg=name)
    assert many.tree_.value.shape == (one.tree_.node_count, k, one.tree_.value.shape[2])
    for j in range(k):
        np.testing.assert_array_equal(many.tree_.value[:, j], one.tree_.value[:, 0])
    assert [s.node for s in many.steps_] == [s.node for s in one.steps_]
    if classify:
        np.testing.assert_array_equal(many.predict(X), np.column_stack([one.predict(X)] * k))
        for proba in many.predict_proba(X):
            np.testing.assert_array_equal(proba, one.predict_proba(X))
    else:
        np.testing.assert_array_equal(many.predict(X), np.column_stack([one.predict(X)] * k))


@settings(deadline=None, max_examples=40)
@given(st.integers(10, 80), st.integers(2, 3), st.integers(0, 2**32 - 1), st.booleans())
def test_small_random_problems_match_sklearn(n, k, seed, classify):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)).astype(np.float32)
    if classify:
        Y = rng.integers(0, 3, size=(n, k))
        ours, theirs = DecisionTreeClassifier(), SkClassifier(random_state=0)
    else:
        Y = rng.normal(size=(n, k))
        ours, theirs = DecisionTreeRegressor(), SkRegressor(random_state=0)
    ours.fit(X, Y)
    theirs.fit(X, Y)
    _compare(ours, theirs, X, Y)
    # whatever the ties, both grow until every leaf is pure on distinct rows
    np.testing.assert_allclose(ours.predict(X), Y)
    np.testing.assert_allclose(theirs.predict(X), Y)


# --------------------------------------------------------------------------
# shapes and attributes, as scikit-learn has them
# --------------------------------------------------------------------------

def test_a_column_vector_is_one_output_as_in_sklearn():
    X, classes, values, _ = _data(1, n=80)
    for Est, Sk, y in ((DecisionTreeClassifier, SkClassifier, classes[:, :1]),
                       (DecisionTreeRegressor, SkRegressor, values[:, :1])):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # scikit-learn's trees do not warn
            ours = Est(max_depth=3).fit(X, y)
        theirs = Sk(max_depth=3, random_state=0).fit(X, y)
        assert ours.n_outputs_ == theirs.n_outputs_ == 1
        assert ours.predict(X).shape == theirs.predict(X).shape == (len(X),)
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X))
    clf = DecisionTreeClassifier().fit(X, classes[:, :1])
    assert np.ndim(clf.n_classes_) == 0 and clf.classes_.ndim == 1


def test_labels_of_any_type_per_output():
    X, classes, _, _ = _data(3, n=120)
    y = np.column_stack([np.where(classes[:, 0] == 1, "yes", "no"), classes[:, 1] * 10])
    ours = DecisionTreeClassifier(max_depth=4).fit(X, y)
    theirs = SkClassifier(max_depth=4, random_state=0).fit(X, y)
    for mine, other in zip(ours.classes_, theirs.classes_):
        np.testing.assert_array_equal(mine, other)
    pred = ours.predict(X)
    assert pred.dtype == theirs.predict(X).dtype
    np.testing.assert_array_equal(pred, theirs.predict(X))
    frame = pd.DataFrame({"a": classes[:, 0], "b": classes[:, 2]})
    from_frame = DecisionTreeClassifier(max_depth=3).fit(X, frame)
    assert from_frame.n_outputs_ == 2
    np.testing.assert_array_equal(from_frame.n_classes_, [2, 3])


def test_scores():
    X, classes, values, _ = _data(6, n=200)
    half = slice(0, 100), slice(100, 200)
    clf = DecisionTreeClassifier(max_depth=3).fit(X[half[0]], classes[half[0]])
    pred = clf.predict(X[half[1]])
    # every output right (subset accuracy)
    assert clf.score(X[half[1]], classes[half[1]]) == pytest.approx(
        np.mean(np.all(pred == classes[half[1]], axis=1)))
    reg = DecisionTreeRegressor(max_depth=3).fit(X[half[0]], values[half[0]])
    from sklearn.metrics import r2_score

    w = np.random.default_rng(0).uniform(0.5, 2, 100)
    assert reg.score(X[half[1]], values[half[1]], sample_weight=w) == pytest.approx(
        r2_score(values[half[1]], reg.predict(X[half[1]]), sample_weight=w))


def test_growth_replay_and_pruning_path():
    X, classes, _, _ = _data(7, n=200)
    ours = DecisionTreeClassifier(max_depth=4).fit(X, classes)
    assert ours.tree_at(len(ours.steps_)).node_count == ours.tree_.node_count
    partial = ours.tree_at(2)
    assert partial.value.shape[1:] == ours.tree_.value.shape[1:]
    np.testing.assert_array_equal(partial.n_classes, ours.n_classes_)
    assert ours.candidates(0) is not None
    # best-first growth after k splits is scikit-learn's tree with k + 1 leaves
    for k in (1, 3, 5):
        theirs = SkClassifier(max_depth=4, max_leaf_nodes=k + 1, random_state=0).fit(X, classes)
        sub = ours.tree_at(k)
        assert sub.n_leaves == theirs.tree_.n_leaves
    path = ours.cost_complexity_pruning_path(X, classes)
    sk_path = SkClassifier(max_depth=4, random_state=0).cost_complexity_pruning_path(X, classes)
    np.testing.assert_allclose(path["ccp_alphas"], sk_path["ccp_alphas"], atol=1e-12)
    np.testing.assert_allclose(path["impurities"], sk_path["impurities"], atol=1e-12)


def test_hist_splitter_with_a_bin_per_value_grows_the_exact_tree():
    rng = np.random.default_rng(9)
    X = rng.integers(0, 40, size=(300, 3)).astype(np.float32)  # < max_bins values
    _, classes, values, _ = _data(9)
    tie_free = 0
    for Est, Sk, y in ((DecisionTreeClassifier, SkClassifier, classes),
                       (DecisionTreeRegressor, SkRegressor, values)):
        theirs = Sk(max_depth=5, random_state=0).fit(X, y)
        exact = Est(max_depth=5).fit(X, y)
        binned = Est(max_depth=5, splitter="hist").fit(X, y)
        # every node of both against scikit-learn's exact search, each tie
        # broken as that tree breaks it: sums of bins and of rows may round
        # apart, so a near tie can go either way between the two
        for ours in (exact, binned):
            assert_matches_sklearn(ours, theirs, X, y)
        if walk_trees(binned.tree_, exact.tree_).ties == 0:
            tie_free += 1
            for name in _SAME:
                np.testing.assert_array_equal(getattr(binned.tree_, name),
                                              getattr(exact.tree_, name), err_msg=name)
    assert tie_free >= 1


def test_a_forced_root_split_grows_sklearns_subtrees_below_it():
    X, classes, _, _ = _data(10, n=200)
    spec = {"feature": 4, "threshold": 0.25}
    ours = DecisionTreeClassifier(max_depth=3, forced_splits=spec).fit(X, classes)
    tree = ours.tree_
    assert ours.steps_[0].forced and tree.feature[0] == 4
    left = X[:, 4] <= np.float32(0.25)
    for child, rows in ((tree.children_left[0], left), (tree.children_right[0], ~left)):
        below = np.zeros(tree.node_count, dtype=bool)  # the child and its descendants
        stack = [child]
        while stack:
            node = stack.pop()
            below[node] = True
            stack.extend(tree.children_of(node))
        theirs = SkClassifier(max_depth=2, random_state=0).fit(X[rows], classes[rows])
        assert compare_trees(tree.subtree(below), theirs.tree_) == 0


def test_export_text_is_sklearns():
    X, classes, values, _ = _data(8, n=150)
    for ours, theirs, y in (
            (DecisionTreeClassifier(max_depth=3), SkClassifier(max_depth=3, random_state=0),
             classes[:, :2]),
            (DecisionTreeRegressor(max_depth=3), SkRegressor(max_depth=3, random_state=0),
             values)):
        ours.fit(X, y)
        theirs.fit(X, y)
        assert compare_trees(ours.tree_, theirs.tree_) == 0
        for show_weights in (False, True):
            assert (export_text(ours, show_weights=show_weights)
                    == sk_export_text(theirs, show_weights=show_weights))
        dot = export_graphviz(ours, filled=True)
        assert "value = [[" in dot or "value = [" in dot


# --------------------------------------------------------------------------
# what reads a single target refuses several, by name
# --------------------------------------------------------------------------

@pytest.mark.parametrize("params, named", [
    ({"algorithm": "id3"}, "algorithm='id3'"),
    ({"algorithm": "c4.5"}, "algorithm='c4.5'"),
    ({"algorithm": "j48"}, "algorithm='j48'"),
    ({"criterion": "gain_ratio"}, "criterion='gain_ratio'"),
    ({"multiway": True}, "multiway=True"),
    ({"missing": "c4.5"}, "missing='c4.5'"),
    ({"average_gain": True}, "average_gain=True"),
])
def test_settings_for_one_target_are_refused(params, named):
    X, classes, _, _ = _data(0, n=40)
    with pytest.raises(CodedError, match=r"several outputs") as err:
        DecisionTreeClassifier(**params).fit(X, classes)
    assert err.value.code == "multi_output_refused"
    assert err.value.values["what"] == named


def test_categorical_features_are_refused_by_name():
    X, _, values, _ = _data(0, n=40)
    frame = pd.DataFrame(X, columns=list("abcde"))
    frame["colour"] = pd.Categorical(np.where(X[:, 0] > 0, "red", "blue"))
    with pytest.raises(CodedError, match=r"'colour' is categorical") as err:
        DecisionTreeRegressor().fit(frame, values)
    assert err.value.code == "multi_output_categorical"


def test_pruning_for_one_target_is_refused_by_name():
    X, classes, _, _ = _data(0, n=80)
    clf = DecisionTreeClassifier(max_depth=3).fit(X, classes)
    calls = {
        "ccp_cross_validate": lambda: ccp_cross_validate(DecisionTreeClassifier(), X, classes),
        "ccp_holdout": lambda: ccp_holdout(clf, X, classes),
        "reduced_error_prune": lambda: reduced_error_prune(clf, X, classes),
        "pessimistic_prune": lambda: pessimistic_prune(clf),
        "error_based_prune": lambda: error_based_prune(clf, X, classes),
        "candidate_splits": lambda: candidate_splits(X, classes),
    }
    for name, call in calls.items():
        with pytest.raises(CodedError, match=name) as err:
            call()
        assert err.value.code == "multi_output_refused"
    with pytest.raises(CodedError, match="pessimistic_prune"):
        pessimistic_prune(clf.tree_)


def test_bad_targets_and_class_weights():
    X, classes, values, _ = _data(0, n=40)
    with pytest.raises(ValueError, match="continuous-multioutput"):
        DecisionTreeClassifier().fit(X, values)
    with pytest.raises(ValueError, match="list of dicts"):
        DecisionTreeClassifier(class_weight={0: 1.0}).fit(X, classes)
    with pytest.raises(ValueError, match="should match number of outputs"):
        DecisionTreeClassifier(class_weight=[{0: 1.0}]).fit(X, classes)
    with pytest.raises(ValueError, match="names label 7"):
        DecisionTreeClassifier(class_weight=[{7: 1.0}, {}, {}]).fit(X, classes)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        DecisionTreeRegressor().fit(X, values[:-1])
    with pytest.raises(ValueError, match="at least one column"):
        DecisionTreeRegressor().fit(X, values[:, :0])
    bad = values.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        DecisionTreeRegressor().fit(X, bad)
    with pytest.raises(ValueError, match="negative"):
        DecisionTreeRegressor(criterion="poisson").fit(X, values)


def test_dask_input_is_refused():
    import dask.array as da

    X, classes, _, _ = _data(0, n=60)
    with pytest.raises(CodedError, match="Dask") as err:
        DecisionTreeClassifier(splitter="hist").fit(da.from_array(X, chunks=20),
                                                    da.from_array(classes, chunks=20))
    assert err.value.code == "multi_output_refused"


