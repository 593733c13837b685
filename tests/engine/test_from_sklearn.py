"""dtree.from_sklearn and dtree.load_sklearn, with scikit-learn as the oracle.

Trees are fitted by scikit-learn and opened in dtree without refitting; the
arrays, predictions, paths, growth replay, pruning path and exports must be
scikit-learn's.  Best-first replays are checked against refits with a smaller
``max_leaf_nodes``; depth-first replays against scikit-learn's own paths.
"""

import pickle
import warnings

import joblib
import numpy as np
import pandas as pd
import pytest
import skops.io as sio
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.datasets import load_diabetes, load_iris
from sklearn.ensemble import RandomForestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import (DecisionTreeClassifier, DecisionTreeRegressor, ExtraTreeClassifier,
                          ExtraTreeRegressor)
from sklearn.tree import export_text as sk_export_text

import dtree
from dtree._sklearn import NEEDS_DATA, _creation_order, best_first_order
from tests.helpers.dot_reader import sklearn_labels, label_lines_of, parse_dot

CLASSIFIERS = (DecisionTreeClassifier, ExtraTreeClassifier)
REGRESSORS = (DecisionTreeRegressor, ExtraTreeRegressor)


# --------------------------------------------------------------------------
# data and helpers
# --------------------------------------------------------------------------

def make_data(seed, n=160, f=4, task="classification", nan=0.0, n_classes=3, ties=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, f))
    if ties:  # few distinct values: many equal gains
        X = np.round(X * 2)
    if nan:
        X[rng.random(X.shape) < nan] = np.nan
    signal = (np.nan_to_num(X[:, 0]) + 0.5 * np.nan_to_num(X[:, 1 % f])
              + 0.3 * rng.normal(size=n))
    if task == "classification":
        y = np.digitize(signal, np.quantile(signal, np.linspace(0, 1, n_classes + 1)[1:-1]))
    else:  # positive, so that every regression criterion (poisson too) accepts it
        y = np.round(np.exp(signal / 2) * 10, 1)
    # held-out rows: fresh draws (with NaN where training had them)
    Xt = rng.normal(size=(80, f))
    if nan:
        Xt[rng.random(Xt.shape) < nan] = np.nan
    return X.astype(np.float32), y, Xt.astype(np.float32)


def assert_same_arrays(d, sk):
    t, s = d.tree_, sk.tree_
    assert t.node_count == s.node_count
    np.testing.assert_array_equal(t.children_left, s.children_left)
    np.testing.assert_array_equal(t.children_right, s.children_right)
    np.testing.assert_array_equal(t.feature, s.feature)
    np.testing.assert_array_equal(t.threshold, s.threshold)
    np.testing.assert_array_equal(t.impurity, s.impurity)
    np.testing.assert_array_equal(t.n_node_samples, s.n_node_samples)
    np.testing.assert_array_equal(t.weighted_n_node_samples, s.weighted_n_node_samples)
    np.testing.assert_array_equal(t.value, s.value)
    # (scikit-learn keeps a searched leaf's missing side; dtree only a split's)
    inner = s.children_left >= 0
    np.testing.assert_array_equal(t.missing_go_to_left[inner], s.missing_go_to_left[inner])
    assert d.get_depth() == sk.get_depth() and d.get_n_leaves() == sk.get_n_leaves()


def assert_same_predictions(d, sk, X):
    np.testing.assert_array_equal(d.apply(X), sk.apply(X))
    np.testing.assert_array_equal(d.decision_path(X).toarray(), sk.decision_path(X).toarray())
    np.testing.assert_array_equal(d.predict(X), sk.predict(X))
    if hasattr(sk, "predict_proba"):
        np.testing.assert_array_equal(d.predict_proba(X), sk.predict_proba(X))
        np.testing.assert_array_equal(d.classes_, sk.classes_)
    np.testing.assert_allclose(d.feature_importances_, sk.feature_importances_,
                               rtol=1e-12, atol=1e-15)


def refit(sk, X, y, **changes):
    return type(sk)(**dict(sk.get_params(), **changes)).fit(X, y)


def assert_tree_at_is(sub, sk):
    """A tree_at(k) equals scikit-learn's tree, node for node."""
    s = sk.tree_
    assert sub.node_count == s.node_count
    np.testing.assert_array_equal(sub.children_left, s.children_left)
    np.testing.assert_array_equal(sub.children_right, s.children_right)
    np.testing.assert_array_equal(sub.feature, s.feature)
    np.testing.assert_array_equal(sub.threshold, s.threshold)
    np.testing.assert_array_equal(sub.n_node_samples, s.n_node_samples)
    np.testing.assert_array_equal(sub.impurity, s.impurity)


def assert_depth_first_prefixes(d, sk, X):
    """tree_at(k) of a depth-first tree: each row's leaf is the deepest node of
    scikit-learn's decision path that the partial tree holds."""
    path = sk.decision_path(X).toarray().astype(bool)
    depth = d.tree_.depth
    X32 = np.asarray(X, dtype=np.float32)
    for k in sorted({0, min(1, len(d.steps_)), len(d.steps_) // 2, len(d.steps_)}):
        sub = d.tree_at(k)
        held = np.zeros(d.tree_.node_count, dtype=bool)
        held[sub.node_ids] = True
        on = np.where(path & held[None, :], depth[None, :], -1)
        expected = on.argmax(axis=1)
        got = sub.node_ids[sub.apply(X32)]
        np.testing.assert_array_equal(got, expected)
        assert sub.n_leaves == k + 1


def assert_pruning_path(d, sk, X, y):
    ours = dtree.pruning_path(d.tree_)
    theirs = sk.cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(ours["ccp_alphas"], theirs["ccp_alphas"], rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(ours["impurities"], theirs["impurities"], rtol=1e-9,
                               atol=1e-15)


def check_everything(sk, X, y, Xt):
    d = dtree.from_sklearn(sk, X, y)
    bare = dtree.from_sklearn(sk)
    for est in (d, bare):
        assert_same_arrays(est, sk)
        assert_same_predictions(est, sk, X)
        assert_same_predictions(est, sk, Xt)
        assert len(est.steps_) == sk.tree_.node_count - sk.get_n_leaves()
        full = est.tree_at(len(est.steps_))
        assert_tree_at_is(full, sk)
    assert [s.node for s in d.steps_] == [s.node for s in bare.steps_]
    for step in d.steps_:
        cand = step.candidates
        assert cand is not None and bool(cand["chosen"].iloc[0])
        row = cand.iloc[0]
        assert row["feature_index"] == sk.tree_.feature[step.node]
        assert row["threshold"] == sk.tree_.threshold[step.node]
        assert row["n_left"] == sk.tree_.n_node_samples[sk.tree_.children_left[step.node]]
        if sk.splitter == "best" and sk.max_features_ == X.shape[1]:
            # scikit-learn's split is the best one (up to float noise)
            assert row["gain"] >= cand["gain"].max() - 1e-9
    assert all(s.candidates is None for s in bare.steps_)
    return d


# --------------------------------------------------------------------------
# many fitted trees
# --------------------------------------------------------------------------

SETTINGS = [
    {},
    dict(max_depth=3),
    dict(min_samples_leaf=5),
    dict(min_samples_split=12, min_impurity_decrease=0.005),
    dict(max_leaf_nodes=7),
    dict(max_leaf_nodes=12, min_samples_leaf=3),
    dict(ccp_alpha=0.01),
    dict(max_features=2),
]


@pytest.mark.parametrize("params", SETTINGS)
@pytest.mark.parametrize("criterion", ["gini", "entropy", "log_loss"])
@pytest.mark.parametrize("cls", CLASSIFIERS)
def test_classifiers(cls, criterion, params):
    X, y, Xt = make_data(1)
    sk = cls(criterion=criterion, random_state=0, **params).fit(X, y)
    check_everything(sk, X, y, Xt)


@pytest.mark.parametrize("params", SETTINGS)
@pytest.mark.parametrize("criterion", ["squared_error", "friedman_mse", "absolute_error",
                                       "poisson"])
@pytest.mark.parametrize("cls", REGRESSORS)
def test_regressors(cls, criterion, params):
    X, y, Xt = make_data(2, task="regression")
    if criterion == "absolute_error":  # slow in scikit-learn; smaller
        X, y = X[:80], y[:80]
    sk = cls(criterion=criterion, random_state=0, **dict(params, ccp_alpha=10 * params.get(
        "ccp_alpha", 0.0))).fit(X, y)
    check_everything(sk, X, y, Xt)


@pytest.mark.parametrize("cls", CLASSIFIERS + REGRESSORS)
@pytest.mark.parametrize("params", [{}, dict(max_leaf_nodes=8), dict(max_depth=4)])
def test_missing_values(cls, params):
    task = "classification" if cls in CLASSIFIERS else "regression"
    X, y, Xt = make_data(3, task=task, nan=0.15)
    sk = cls(random_state=1, **params).fit(X, y)
    check_everything(sk, X, y, Xt)


def test_absolute_error_with_missing_values():
    """scikit-learn's absolute_error with NaN: the tree, its replay and every
    node's candidate table, scikit-learn's split first and best."""
    X, y, Xt = make_data(16, n=80, task="regression", nan=0.1)
    sk = DecisionTreeRegressor(criterion="absolute_error", max_depth=3).fit(X, y)
    check_everything(sk, X, y, Xt)


def test_dataframe_string_labels_and_names():
    data = load_iris(as_frame=True)
    X = data.data
    y = data.target.map(dict(enumerate(data.target_names)))
    sk = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    d = check_everything(sk, X, y, X.iloc[::3])
    np.testing.assert_array_equal(d.feature_names_in_, sk.feature_names_in_)
    assert list(d.classes_) == ["setosa", "versicolor", "virginica"]
    assert d.steps_[0].feature_name == sk.feature_names_in_[sk.tree_.feature[0]]
    assert d.imported_from_ == "sklearn.tree.DecisionTreeClassifier"
    assert d.has_training_data_
    assert d.get_params()["max_depth"] == 4


def test_sample_and_class_weights():
    X, y, Xt = make_data(4)
    w = np.random.default_rng(0).uniform(0.2, 3.0, len(y))
    w[:5] = 0.0
    for sk_kwargs in ({}, dict(class_weight="balanced")):
        sk = DecisionTreeClassifier(random_state=0, max_depth=5, **sk_kwargs)
        sk.fit(X, y, sample_weight=w)
        d = dtree.from_sklearn(sk, X, y, sample_weight=w)
        assert_same_arrays(d, sk)
        assert_same_predictions(d, sk, Xt)
        assert d.steps_[0].candidates["chosen"].iloc[0]
    with pytest.raises(ValueError, match="sample weights|fitted on"):
        dtree.from_sklearn(sk, X, y)  # the weights are missing


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), n=st.integers(20, 120), f=st.integers(1, 5),
       task=st.sampled_from(["classification", "regression"]),
       extra=st.booleans(), nan=st.sampled_from([0.0, 0.1]), ties=st.booleans(),
       params=st.sampled_from(SETTINGS))
def test_random_trees(seed, n, f, task, extra, nan, ties, params):
    X, y, Xt = make_data(seed, n=n, f=f, task=task, nan=nan, ties=ties)
    cls = {("classification", False): DecisionTreeClassifier,
           ("classification", True): ExtraTreeClassifier,
           ("regression", False): DecisionTreeRegressor,
           ("regression", True): ExtraTreeRegressor}[task, extra]
    params = dict(params)
    if params.get("max_features", 0) > f:
        params["max_features"] = f
    if task == "regression":
        params["ccp_alpha"] = 10 * params.get("ccp_alpha", 0.0)
    sk = cls(random_state=seed, **params).fit(X, y)
    d = check_everything(sk, X, y, Xt)
    if sk.ccp_alpha == 0:
        assert_pruning_path(d, sk, X, y)
    if sk.max_leaf_nodes is None:
        assert_depth_first_prefixes(d, sk, X)
    elif sk.ccp_alpha == 0:
        for k in range(1, len(d.steps_) + 1):
            assert_tree_at_is(d.tree_at(k), refit(sk, X, y, max_leaf_nodes=k + 1))


# --------------------------------------------------------------------------
# the growth order
# --------------------------------------------------------------------------

@pytest.mark.parametrize("cls", CLASSIFIERS + REGRESSORS)
@pytest.mark.parametrize("seed", [0, 1])
def test_best_first_tree_at_equals_refit(cls, seed):
    task = "classification" if cls in CLASSIFIERS else "regression"
    X, y, _ = make_data(seed, n=200, task=task)
    sk = cls(max_leaf_nodes=15, random_state=seed).fit(X, y)
    d = dtree.from_sklearn(sk)
    assert d.growth_ == "best_first"
    assert d.tree_at(0).node_count == 1
    for k in range(1, len(d.steps_) + 1):
        assert_tree_at_is(d.tree_at(k), refit(sk, X, y, max_leaf_nodes=k + 1))


@pytest.mark.parametrize("ties", [False, True])
def test_best_first_heap_replay_agrees_with_ids(ties):
    """The libstdc++ heap replay (used for ccp-pruned trees, whose ids are
    renumbered) gives the order the creation-order ids record, also on data
    with many exactly equal improvements."""
    for seed in range(20):
        for task, cls in (("classification", DecisionTreeClassifier),
                          ("regression", DecisionTreeRegressor)):
            X, y, _ = make_data(seed, n=120, f=3, task=task, ties=ties)
            sk = cls(max_leaf_nodes=20, random_state=seed).fit(X, y)
            d = dtree.from_sklearn(sk, X, y)
            by_ids = _creation_order(d.tree_)
            leaf_imp = np.where(d.tree_.is_leaf(), d.tree_.split_improvement, np.nan)
            assert best_first_order(d.tree_, leaf_imp) == by_ids
            assert [s.node for s in d.steps_] == by_ids


@pytest.mark.parametrize("cls", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_depth_first_tree_at(cls):
    task = "classification" if cls is DecisionTreeClassifier else "regression"
    X, y, _ = make_data(5, task=task)
    sk = cls(random_state=0, max_depth=6).fit(X, y)
    d = dtree.from_sklearn(sk, X, y)
    assert [s.node for s in d.steps_] == list(np.flatnonzero(sk.tree_.children_left >= 0))
    assert_depth_first_prefixes(d, sk, X)


def test_ccp_pruned_tree_replays_stored_tree():
    X, y, Xt = make_data(6)
    for params in (dict(ccp_alpha=0.01), dict(ccp_alpha=0.005, max_leaf_nodes=20)):
        sk = DecisionTreeClassifier(random_state=0, **params).fit(X, y)
        d = dtree.from_sklearn(sk, X, y)
        assert_same_arrays(d, sk)
        assert d.growth_tree_ is d.tree_ and not hasattr(d, "unpruned_tree_")
        assert_tree_at_is(d.tree_at(len(d.steps_)), sk)
        assert sorted(s.node for s in d.steps_) == list(
            np.flatnonzero(sk.tree_.children_left >= 0))
        # improvement never increases along a best-first replay of a pruned tree
        if sk.max_leaf_nodes:
            imps = [s.improvement for s in d.steps_]
            parents = {s.node: d.tree_.parent[s.node] for s in d.steps_}
            seen = set()
            for s in d.steps_:
                assert parents[s.node] < 0 or parents[s.node] in seen
                seen.add(s.node)
            assert imps[0] == max(imps)
        # the path of the stored tree is the tail of scikit-learn's full path
        ours = dtree.pruning_path(d.tree_)
        theirs = sk.cost_complexity_pruning_path(X, y)
        tail = theirs["ccp_alphas"] > sk.ccp_alpha
        np.testing.assert_allclose(ours["ccp_alphas"][1:], theirs["ccp_alphas"][tail],
                                   rtol=1e-9)
        np.testing.assert_allclose(ours["impurities"][1:], theirs["impurities"][tail],
                                   rtol=1e-9)
        assert set(d.tree_.stop_reason[d.tree_.is_leaf()]) <= {
            "pure", "pruned (ccp_alpha)", "leaf budget", "no valid split",
            "min_samples_leaf", "min_samples_split"}


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_pruning_path_equals_sklearn(criterion):
    X, y, _ = make_data(7, n=300)
    sk = DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
    assert_pruning_path(dtree.from_sklearn(sk), sk, X, y)
    Xr, yr, _ = make_data(7, n=300, task="regression")
    skr = DecisionTreeRegressor(random_state=0, min_samples_leaf=3).fit(Xr, yr)
    assert_pruning_path(dtree.from_sklearn(skr), skr, Xr, yr)


# --------------------------------------------------------------------------
# candidates, stop reasons, exports
# --------------------------------------------------------------------------

def test_candidates_match_dtree_own_fit():
    """With the data, each node's table is dtree's own search table."""
    X, y, _ = make_data(8, n=200)
    sk = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    d = dtree.from_sklearn(sk, X, y)
    own = dtree.DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    assert_same_arrays(own, sk)
    for a, b in zip(d.steps_, own.steps_):
        pd.testing.assert_frame_equal(a.candidates.drop(columns=["improvement"]),
                                      b.candidates.drop(columns=["improvement"]),
                                      rtol=1e-9)


def test_extra_tree_chosen_split_is_sklearns_random_one():
    X, y, _ = make_data(9, n=200)
    sk = ExtraTreeClassifier(max_features=None, random_state=3, max_depth=3).fit(X, y)
    d = dtree.from_sklearn(sk, X, y)
    beaten = 0
    for step in d.steps_:
        cand = step.candidates
        chosen = cand[cand["chosen"]].iloc[0]
        assert chosen["threshold"] == sk.tree_.threshold[step.node]
        assert chosen["gain"] == pytest.approx(step.gain)
        beaten += bool((cand["gain"] > chosen["gain"] + 1e-12).any())
    assert beaten > 0  # random thresholds are usually not the best


def test_without_data():
    X, y, _ = make_data(10)
    sk = DecisionTreeClassifier(max_leaf_nodes=5, random_state=0).fit(X, y)
    d = dtree.from_sklearn(sk)
    assert not d.has_training_data_
    assert all(s.candidates is None for s in d.steps_)
    assert "training data" in NEEDS_DATA
    assert set(d.tree_.stop_reason[d.tree_.is_leaf()]) <= {"pure", "leaf budget"}


def test_stop_reasons_with_data():
    X, y, _ = make_data(11)
    sk = DecisionTreeClassifier(max_depth=3, min_samples_leaf=4, random_state=0).fit(X, y)
    d = dtree.from_sklearn(sk, X, y)
    own = dtree.DecisionTreeClassifier(max_depth=3, min_samples_leaf=4,
                                       random_state=0).fit(X, y)
    np.testing.assert_array_equal(d.tree_.stop_reason, own.tree_.stop_reason)


def test_exports_match_sklearn():
    data = load_iris()
    sk = DecisionTreeClassifier(max_depth=3, random_state=0).fit(data.data, data.target)
    d = dtree.from_sklearn(sk)
    names, classes = list(data.feature_names), list(data.target_names)
    assert dtree.export_text(d, feature_names=names, class_names=classes) == \
        sk_export_text(sk, feature_names=names, class_names=classes)
    # dtree draws its own style (colours, rounded boxes); the labels are scikit-learn's
    dot = dtree.export_graphviz(d, feature_names=names, class_names=classes, filled=True)
    nodes, edges, _ = parse_dot(dot)
    assert {n: label_lines_of(a["label"]) for n, a in nodes.items()} == sklearn_labels(
        sk, feature_names=names, class_names=classes)
    assert len(edges) == sk.tree_.node_count - 1
    # by default, the names the estimator was fitted with
    frame = load_iris(as_frame=True)
    skf = DecisionTreeClassifier(max_depth=2, random_state=0).fit(
        frame.data, frame.target.map(dict(enumerate(frame.target_names))))
    text = dtree.export_graphviz(dtree.from_sklearn(skf))
    assert "petal" in text and "setosa" in text
    diabetes = load_diabetes()
    skr = DecisionTreeRegressor(max_depth=3, random_state=0).fit(diabetes.data,
                                                                 diabetes.target)
    dr = dtree.from_sklearn(skr)
    assert dtree.export_text(dr, feature_names=list(diabetes.feature_names)) == \
        sk_export_text(skr, feature_names=list(diabetes.feature_names))


# --------------------------------------------------------------------------
# what is refused; pipelines
# --------------------------------------------------------------------------

def test_refusals():
    X, y, _ = make_data(12)
    with pytest.raises(ValueError, match="not fitted"):
        dtree.from_sklearn(DecisionTreeClassifier())
    forest = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="ensemble"):
        dtree.from_sklearn(forest)
    with pytest.raises(ValueError, match="Expected a fitted scikit-learn"):
        dtree.from_sklearn(StandardScaler().fit(X))
    with pytest.raises(ValueError, match="last step"):
        dtree.from_sklearn(make_pipeline(StandardScaler(), forest).fit(X, y))
    with pytest.raises(ValueError, match="outputs"):
        dtree.from_sklearn(DecisionTreeRegressor().fit(X, np.c_[y, y]))
    sk = DecisionTreeClassifier(max_depth=3).fit(X, y)
    with pytest.raises(ValueError, match="do not look like the data"):
        dtree.from_sklearn(sk, X[::-1], y)
    with pytest.raises(ValueError, match="not one of the tree's classes_"):
        dtree.from_sklearn(sk, X, y + 10)
    with pytest.raises(ValueError, match="both X and y"):
        dtree.from_sklearn(sk, X)


def test_pipeline_is_unwrapped():
    X, y, Xt = make_data(13)
    pipe = make_pipeline(StandardScaler(), DecisionTreeClassifier(max_depth=4, random_state=0))
    pipe.fit(X, y)
    with pytest.warns(UserWarning, match="standardscaler"):
        d = dtree.from_sklearn(pipe, X, y)
    assert d.preprocessing_ == ["standardscaler"]
    sk = pipe[-1]
    assert_same_arrays(d, sk)
    Zt = pipe[:-1].transform(Xt)
    assert_same_predictions(d, sk, Zt)
    assert d.steps_[0].candidates is not None


# --------------------------------------------------------------------------
# load_sklearn
# --------------------------------------------------------------------------

def test_load_round_trip(tmp_path):
    data = load_iris(as_frame=True)
    X = data.data
    y = data.target.map(dict(enumerate(data.target_names)))
    sk = DecisionTreeClassifier(max_leaf_nodes=6, random_state=np.random.RandomState(0))
    sk.fit(X, y)
    path = tmp_path / "tree.skops"
    sio.dump(sk, path)
    d = dtree.load_sklearn(path)
    assert_same_arrays(d, sk)
    assert_same_predictions(d, sk, X)
    assert list(d.feature_names_in_) == list(X.columns)
    d2 = dtree.load_sklearn(path.read_bytes(), X, y)
    assert d2.steps_[0].candidates is not None
    with open(path, "rb") as fh:
        assert dtree.load_sklearn(fh).tree_.node_count == sk.tree_.node_count
    for cls in (ExtraTreeRegressor, DecisionTreeRegressor):
        skr = cls(random_state=0, max_depth=5).fit(X, data.target * 1.5)
        sio.dump(skr, tmp_path / "r.skops")
        assert_same_arrays(dtree.load_sklearn(tmp_path / "r.skops"), skr)


class Shout(BaseEstimator, TransformerMixin):
    """A custom transformer: a type nobody trusts."""

    def fit(self, X, y=None):
        return self

    def transform(self, X):
        return X


def test_load_refusals(tmp_path, monkeypatch):
    X, y, _ = make_data(14)
    sk = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    # nothing may be unpickled, whatever the file
    monkeypatch.setattr(pickle, "load", lambda *a, **k: pytest.fail("pickle.load called"))
    monkeypatch.setattr(pickle, "loads", lambda *a, **k: pytest.fail("pickle.loads called"))
    monkeypatch.setattr(joblib, "load", lambda *a, **k: pytest.fail("joblib.load called"))

    pkl = tmp_path / "tree.pkl"
    pkl.write_bytes(pickle.dumps(sk))
    with pytest.raises(ValueError, match="pickle.*can run any code"):
        dtree.load_sklearn(pkl)
    for compress in (0, 3):
        jl = tmp_path / f"tree{compress}.joblib"
        joblib.dump(sk, jl, compress=compress)
        with pytest.raises(ValueError, match="not a .skops file"):
            dtree.load_sklearn(jl)
    forest = RandomForestClassifier(n_estimators=2, random_state=0).fit(X, y)
    sio.dump(forest, tmp_path / "forest.skops")
    with pytest.raises(ValueError, match="RandomForestClassifier"):
        dtree.load_sklearn(tmp_path / "forest.skops")
    pipe = make_pipeline(Shout(), DecisionTreeClassifier(max_depth=2)).fit(X, y)
    sio.dump(pipe, tmp_path / "pipe.skops")
    with pytest.raises(ValueError, match="Shout"):
        dtree.load_sklearn(tmp_path / "pipe.skops")
    plain_pipe = make_pipeline(StandardScaler(), DecisionTreeClassifier(max_depth=2)).fit(X, y)
    sio.dump(plain_pipe, tmp_path / "plain.skops")
    with pytest.raises(ValueError, match="Pipeline"):
        dtree.load_sklearn(tmp_path / "plain.skops")
    # a hand-made schema that smuggles a function in under an allowed name
    import io
    import json
    import zipfile

    buf = io.BytesIO()
    sio.dump(sk, buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as zf:
        files = {name: zf.read(name) for name in zf.namelist()}
    schema = json.loads(files["schema.json"])
    schema["content"]["content"]["criterion"] = {
        "__class__": "str", "__module__": "builtins", "__loader__": "FunctionNode",
        "content": {"module_path": "os", "function": "system"}}
    files["schema.json"] = json.dumps(schema).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, blob in files.items():
            zf.writestr(name, blob)
    with pytest.raises(ValueError, match="FunctionNode"):
        dtree.load_sklearn(out.getvalue())
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ValueError, match="not a .skops file"):
        dtree.load_sklearn(tmp_path / "notes.txt")


def test_dtree_does_not_import_sklearn_or_skops_eagerly():
    import subprocess
    import sys

    code = ("import sys, dtree; "
            "assert 'sklearn' not in sys.modules, 'sklearn'; "
            "assert 'skops' not in sys.modules, 'skops'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_no_warnings_for_plain_trees():
    X, y, _ = make_data(15)
    sk = DecisionTreeClassifier(max_depth=3).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dtree.from_sklearn(sk, X, y)
