"""The c4.5 preset (the lecture notes' C4.5): no zero-gain split, fractional
rows in the size rules, candidate tables that match the grown children,
Quinlan's tie rule, and unseen categories under the missing-value rule."""

import functools

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier
from tests.helpers.weka import EXAMPLES, read_arff, require_weka

# runs Weka (a JVM) as its oracle: left out of the quick tier (make test-fast)
pytestmark = pytest.mark.weka


def _vote():
    require_weka(data_only=True)
    return read_arff(EXAMPLES / "vote.arff")


def _with_missing(seed=0, n=300, rate=0.2):
    """Numeric and categorical features with missing values and a noisy target."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "a": rng.normal(size=n),
        "b": rng.integers(0, 5, n).astype(float),
        "c": pd.Categorical(rng.choice(["p", "q", "r"], n)),
        "d": rng.uniform(size=n),
    })
    y = np.where(X["a"] + (X["c"] == "q") * 1.0 + rng.normal(scale=0.7, size=n) > 0.5,
                 "yes", "no")
    for col in X.columns:
        X.loc[rng.random(n) < rate, col] = np.nan
    return X, y


def test_vote_c45_tree_has_no_zero_gain_split():
    X, y = _vote()
    est = DecisionTreeClassifier(algorithm="c4.5").fit(X, y)
    tree = est.tree_
    internal = ~tree.is_leaf()
    assert internal.any()
    # the gain scaled by the known fraction, never (numerically) zero
    assert np.all(tree.split_gain[internal] > 1e-6)
    for step in est.steps_:
        assert step.gain > 1e-6
    # fractional rows do not keep zero-gain nodes splitting (a tree that let them
    # had hundreds of leaves here)
    assert tree.n_leaves < 100


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_zero_gain_split_on_generated_missing_data(seed):
    X, y = _with_missing(seed)
    est = DecisionTreeClassifier(algorithm="c4.5").fit(X, y)
    internal = ~est.tree_.is_leaf()
    assert np.all(est.tree_.split_gain[internal] > 1e-6)


@pytest.mark.parametrize("leaf, split", [(1, 2), (3, 2), (2, 7), (5, 12)])
def test_size_rules_count_fractional_rows(leaf, split):
    X, y = _with_missing(3, n=400)
    est = DecisionTreeClassifier(algorithm="c4.5", min_samples_leaf=leaf,
                                 min_samples_split=split).fit(X, y)
    tree = est.tree_
    # unit sample weights: a node's weight is the sum of its rows' fractions
    assert tree.weighted_n_node_samples.min() >= leaf - 1e-9
    internal = ~tree.is_leaf()
    assert np.all(tree.weighted_n_node_samples[internal] >= max(split, 2 * leaf) - 1e-9)
    # the rows themselves (whole or not) may be more numerous than the weight
    assert np.all(tree.n_node_samples >= tree.weighted_n_node_samples - 1e-9)


def test_size_rules_count_fractions_of_weighted_rows():
    X, y = _with_missing(4, n=300)
    w = np.random.default_rng(4).uniform(0.5, 3.0, len(y))
    est = DecisionTreeClassifier(algorithm="c4.5", min_samples_leaf=4).fit(X, y,
                                                                           sample_weight=w)
    # replay each node's rows and fractions: every node holds >= 4 rows' worth
    tree = est.tree_
    rows, leaves, frac = tree.leaf_weights(est._validate_X_predict(X))
    per_leaf = np.bincount(leaves, weights=frac, minlength=tree.node_count)
    assert per_leaf[tree.is_leaf()].min() >= 4 - 1e-9


@pytest.mark.parametrize("data", ["vote", "generated"])
def test_candidate_table_sizes_are_the_grown_childrens(data):
    X, y = _vote() if data == "vote" else _with_missing(5)
    est = DecisionTreeClassifier(algorithm="c4.5").fit(X, y)
    tree = est.tree_
    assert est.steps_
    for step in est.steps_:
        row = step.candidates.iloc[0]
        assert row["chosen"]
        assert list(row["children_samples"]) == tree.n_node_samples[step.children].tolist()
        if row["kind"] == "numeric":
            np.testing.assert_allclose(
                [row["weighted_n_left"], row["weighted_n_right"]],
                tree.weighted_n_node_samples[step.children], rtol=1e-12)


def test_candidate_table_sizes_binary_c45_rule():
    X, y = _with_missing(6)
    est = DecisionTreeClassifier(criterion="gain_ratio", missing="c4.5").fit(X, y)
    tree = est.tree_
    for step in est.steps_:
        row = step.candidates.iloc[0]
        assert [row["n_left"], row["n_right"]] == tree.n_node_samples[step.children].tolist()
        np.testing.assert_allclose([row["weighted_n_left"], row["weighted_n_right"]],
                                   tree.weighted_n_node_samples[step.children], rtol=1e-12)


@functools.lru_cache(maxsize=None)
def _mirror_ties():
    """Seeds where x and -x (mathematically equal gains) differ in the last bit."""
    out = []
    for seed in range(40):
        rng = np.random.default_rng(seed)
        x = rng.integers(0, 6, 30).astype(float)
        y = rng.integers(0, 3, 30)
        est = DecisionTreeClassifier(criterion="entropy", max_depth=1).fit(np.c_[x, -x], y)
        gains = est.candidates(0).set_index("feature_index")["gain"]
        if gains[0] != gains[1]:
            out.append((x, y, gains[0] < gains[1]))
    return out


@pytest.mark.parametrize("algorithm", ["id3", "c4.5"])
def test_quinlan_ties_go_to_the_first_column(algorithm):
    cases = _mirror_ties()
    # the tie really is settled by rounding somewhere: otherwise this tests nothing
    assert any(later for _, _, later in cases) and len(cases) >= 5
    for x, y, _ in cases:
        for X in (np.c_[x, -x], np.c_[-x, x]):
            est = DecisionTreeClassifier(algorithm=algorithm, max_depth=1).fit(X, y)
            assert est.tree_.feature[0] == 0


def test_cart_ties_keep_scikit_learns_rule():
    """CART: the larger decrease wins, even by one ulp (as scikit-learn does)."""
    for x, y, later in _mirror_ties():
        est = DecisionTreeClassifier(algorithm="cart", criterion="entropy",
                                     max_depth=1).fit(np.c_[x, -x], y)
        assert est.tree_.feature[0] == (1 if later else 0)


def test_categorical_relabelled_tie_goes_to_first_column():
    rng = np.random.default_rng(7)
    a = rng.choice(["u", "v", "w", "z"], 60)
    b = pd.Series(a).map({"u": "w", "v": "z", "w": "u", "z": "v"}).to_numpy()
    y = np.where(rng.random(60) < np.where(a == "u", 0.8, 0.3), "yes", "no")
    for cols in (("a", "b"), ("b", "a")):
        X = pd.DataFrame({"a": a, "b": b})[list(cols)]
        for algorithm in ("id3", "c4.5"):
            est = DecisionTreeClassifier(algorithm=algorithm, max_depth=1).fit(X, y)
            assert est.tree_.feature[0] == 0, (cols, algorithm)


def test_unseen_category_under_c45_follows_the_missing_value_rule():
    rng = np.random.default_rng(8)
    X = pd.DataFrame({"colour": rng.choice(["red", "green", "blue"], 90),
                      "size": rng.normal(size=90)})
    y = np.where((X["colour"] == "red") ^ (X["size"] > 0.8), "a", "b")
    X.loc[::9, "size"] = np.nan  # some missing values: the C4.5 rule is in use
    est = DecisionTreeClassifier(algorithm="c4.5").fit(X, y)
    tree = est.tree_
    assert est.steps_[0].feature_name == "colour"
    unseen = pd.DataFrame({"colour": ["purple"], "size": [0.1]})
    missing = pd.DataFrame({"colour": [np.nan], "size": [0.1]})
    # predict_proba: every branch, weighted by its share of the training weight
    shares = tree.child_share[tree.child_ptr[0]:tree.child_ptr[1]]
    per_branch = [est.predict_proba(unseen.assign(colour=label))[0]
                  for label in est.steps_[0].branches]
    np.testing.assert_allclose(est.predict_proba(unseen)[0], shares @ np.array(per_branch))
    np.testing.assert_allclose(est.predict_proba(unseen), est.predict_proba(missing))
    # apply names one leaf: the path through the heaviest branch
    heaviest = tree.children_of(0)[int(np.argmax(tree.weighted_n_node_samples[
        tree.children_of(0)]))]
    leaf = est.apply(unseen)[0]
    node = leaf
    while tree.parent[node] != 0:
        node = tree.parent[node]
    assert node == heaviest
