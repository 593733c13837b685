"""Forced splits (``forced_splits=``): the nodes a spec names are split as
given, top-down, and every region left open below them grows exactly as
scikit-learn grows a tree on that region's rows alone.

The oracle fits scikit-learn on the rows that reach each open region, with
``max_depth`` reduced by the region's depth, and compares the two subtrees
node for node (tests/helpers/treecompare.py, tolerant only of exact ties).
"""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier as SkClassifier
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from dtree import (CodedError, DecisionTreeClassifier, DecisionTreeRegressor, error_based_prune,
                   pruning_path, pruning_sequence)
from tests.helpers.forced_cases import BAD, FRAME, TARGET
from tests.helpers.sklearn_match import sklearn_regions
from tests.helpers.treecompare import with_our_ties

GROWTHS = ("depth_first", "best_first", "breadth_first")
CLF_CRITERIA = ("gini", "entropy", "log_loss")
REG_CRITERIA = ("squared_error", "friedman_mse", "poisson", "absolute_error")


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

class Sub:
    """The subtree of a binary tree below ``root``, renumbered in pre-order,
    with the arrays the tree comparison reads."""

    def __init__(self, t, root):
        order, stack = [], [root]
        left, right = t.children_left, t.children_right
        while stack:
            n = stack.pop()
            order.append(n)
            if left[n] != -1:
                stack += [right[n], left[n]]
        at = {n: i for i, n in enumerate(order)}
        self.children_left = np.array([at.get(left[n], -1) for n in order])
        self.children_right = np.array([at.get(right[n], -1) for n in order])
        for name in ("feature", "threshold", "impurity", "n_node_samples",
                     "weighted_n_node_samples"):
            setattr(self, name, np.asarray(getattr(t, name))[order])
        self.value = np.asarray(t.value)[order]


def tie_free(seed, n, n_features):
    """float32 columns of distinct values (no two rows tie on a feature)."""
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(n) * 0.5 + j for j in range(n_features)],
                    axis=1).astype(np.float32)


def draw_spec(draw, X, rows, depth, limit, msl, mss):
    """A random forced split of ``rows`` (always at the root, sometimes below,
    ``limit`` levels at most): a training value as the threshold, so both
    sides keep at least ``msl`` rows."""
    if depth >= limit or len(rows) < max(mss, 2 * msl):
        return None
    if depth and not draw(st.booleans()):
        return None
    f = draw(st.integers(0, X.shape[1] - 1))
    values = np.sort(X[rows, f])
    i = draw(st.integers(msl - 1, len(rows) - msl - 1))
    t = float(values[i])
    spec = {"feature": f, "threshold": t}
    for side, part in (("left", rows[X[rows, f] <= t]), ("right", rows[X[rows, f] > t])):
        below = draw_spec(draw, X, part, depth + 1, limit, msl, mss)
        if below is not None:
            spec[side] = below
    return spec


def spec_size(spec):
    if spec is None:
        return 0
    return 1 + spec_size(spec.get("left")) + spec_size(spec.get("right"))


def check_forced_nodes(est, spec):
    """The forced nodes of ``est.tree_`` split as ``spec`` says, and come
    first in ``steps_``; return their ids."""
    t = est.tree_
    forced = []
    stack = [(0, spec)]
    while stack:
        node, s = stack.pop()
        forced.append(node)
        assert t.feature[node] == s["feature"]
        assert t.threshold[node] == np.float32(s["threshold"])
        for side, kid in (("left", t.children_left[node]), ("right", t.children_right[node])):
            if s.get(side) is not None:
                stack.append((kid, s[side]))
    marks = [step.forced for step in est.steps_]
    assert marks == [True] * len(forced) + [False] * (len(marks) - len(forced))
    assert sorted(step.node for step in est.steps_[:len(forced)]) == sorted(forced)
    return set(forced)


def assert_replay(est):
    """``tree_at(k)`` is the tree of the first k steps, each split's parent
    split before it, and the last is the grown tree."""
    full = est.growth_tree_
    for k in range(len(est.steps_) + 1):
        sub = est.tree_at(k)
        made = [step.node for step in est.steps_[:k]]
        assert set(sub.node_ids[~sub.is_leaf()].tolist()) == set(made)
        assert sub.node_count == 1 + sum(len(full.children_of(n)) for n in made)
    for i, step in enumerate(est.steps_):
        parent = full.parent[step.node]
        assert parent == -1 or parent in [s.node for s in est.steps_[:i]]
    last = est.tree_at(len(est.steps_))
    np.testing.assert_array_equal(last.node_ids, np.arange(full.node_count))
    np.testing.assert_array_equal(last.feature, full.feature)


# --------------------------------------------------------------------------
# the oracle: open regions grow as scikit-learn does
# --------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::FutureWarning")  # (scikit-learn's friedman_mse)
@settings(max_examples=60)
@given(data=st.data(), classify=st.booleans(), n=st.integers(12, 70),
       n_features=st.integers(1, 3), seed=st.integers(0, 2**32 - 1),
       max_depth=st.sampled_from([None, 2, 3, 5]), msl=st.integers(1, 3),
       mss=st.sampled_from([2, 4, 7]), growth=st.sampled_from(GROWTHS))
def test_every_open_region_grows_as_sklearn_grows_it_alone(data, classify, n, n_features, seed,
                                                           max_depth, msl, mss, growth):
    rng = np.random.default_rng(seed + 1)
    X = tie_free(seed, n, n_features)
    if classify:
        criterion = data.draw(st.sampled_from(CLF_CRITERIA))
        y = rng.integers(0, data.draw(st.integers(2, 3)), n)
        ours, theirs = DecisionTreeClassifier, SkClassifier
    else:
        criterion = data.draw(st.sampled_from(REG_CRITERIA))
        y = rng.normal(size=n)
        if criterion == "poisson":
            y = np.exp(y)
        ours, theirs = DecisionTreeRegressor, SkRegressor
    limit = 3 if max_depth is None else min(3, max_depth)
    spec = draw_spec(data.draw, X, np.arange(n), 0, limit, msl, mss)
    assume(spec is not None)
    note(json.dumps(spec))
    params = dict(criterion=criterion, min_samples_leaf=msl, min_samples_split=mss)
    est = ours(forced_splits=spec, max_depth=max_depth, growth=growth, **params).fit(X, y)
    t = est.tree_
    forced = check_forced_nodes(est, spec)
    assert len(forced) == spec_size(spec)
    reach = est.decision_path(X).toarray().astype(bool)
    for node in forced:
        for kid in t.children_of(node):
            if kid in forced:
                continue
            rows = reach[:, kid]
            depth, up = 0, t.parent[kid]  # (counted, not read from t.depth)
            while up != -1:
                depth, up = depth + 1, t.parent[up]
            assert t.depth[kid] == depth
            if max_depth is not None and depth >= max_depth:
                assert t.children_left[kid] == -1
                continue
            sk = theirs(max_depth=None if max_depth is None else max_depth - depth,
                        random_state=0, **params).fit(X[rows], y[rows])
            # every node, exact ties broken as dtree breaks them
            cols = np.searchsorted(est.classes_, sk.classes_) if classify else None
            with_our_ties(Sub(t, kid), sk.tree_, X[rows],
                          sklearn_regions(sk, X[rows], y[rows],
                                          classes=est.classes_ if classify else None),
                          rtol=1e-7, atol=1e-9,
                          classes_at=cols)
    assert_replay(est)


# --------------------------------------------------------------------------
# the same tree, however the spec is written
# --------------------------------------------------------------------------

IRIS_SPEC = {"feature": "petal width (cm)", "threshold": 1.0,
             "right": {"feature": "sepal length (cm)", "threshold": 6.0,
                       "left": {"feature": "petal length (cm)", "threshold": 4.9}}}


@pytest.fixture(scope="module")
def iris():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True, as_frame=True)
    return X, y


def _arrays(t):
    return {name: getattr(t, name) for name in ("feature", "threshold", "n_node_samples",
                                                "weighted_n_node_samples", "impurity",
                                                "value", "child_ids", "child_ptr")}


def assert_same_tree(a, b):
    for name, value in _arrays(a).items():
        np.testing.assert_array_equal(value, _arrays(b)[name], err_msg=name)


@pytest.mark.parametrize("growth", GROWTHS)
def test_json_text_and_dict_give_the_same_tree(iris, growth):
    X, y = iris
    a = DecisionTreeClassifier(forced_splits=IRIS_SPEC, growth=growth).fit(X, y)
    b = DecisionTreeClassifier(forced_splits=json.dumps(IRIS_SPEC), growth=growth).fit(X, y)
    assert_same_tree(a.tree_, b.tree_)
    assert [s.node for s in a.steps_] == [s.node for s in b.steps_]


def test_a_feature_by_name_or_by_index_gives_the_same_tree(iris):
    X, y = iris
    names = list(X.columns)

    def by_index(spec):
        if spec is None:
            return None
        return {**spec, "feature": names.index(spec["feature"]),
                **{side: by_index(spec[side]) for side in ("left", "right") if side in spec}}

    a = DecisionTreeClassifier(forced_splits=IRIS_SPEC).fit(X, y)
    b = DecisionTreeClassifier(forced_splits=by_index(IRIS_SPEC)).fit(X, y)
    c = DecisionTreeClassifier(forced_splits=by_index(IRIS_SPEC)).fit(X.to_numpy(), y)
    assert_same_tree(a.tree_, b.tree_)
    assert_same_tree(a.tree_, c.tree_)
    # an unnamed X's features are named x0, x1... as in steps_
    d = DecisionTreeClassifier(forced_splits={"feature": "x3", "threshold": 1.0}).fit(
        X.to_numpy(), y)
    assert d.steps_[0].feature == 3


def test_left_and_right_may_be_null_or_absent(iris):
    X, y = iris
    a = DecisionTreeClassifier(forced_splits={"feature": 3, "threshold": 1.0}).fit(X, y)
    b = DecisionTreeClassifier(
        forced_splits='{"feature": 3, "threshold": 1.0, "left": null, "right": null}').fit(X, y)
    assert_same_tree(a.tree_, b.tree_)


@settings(max_examples=40)
@given(classify=st.booleans(), n=st.integers(10, 60), n_features=st.integers(1, 3),
       seed=st.integers(0, 2**32 - 1), growth=st.sampled_from(GROWTHS),
       budget=st.sampled_from([None, 3, 6]), algorithm=st.sampled_from(["cart", "c4.5"]),
       missing=st.booleans())
def test_forcing_the_greedy_root_split_changes_nothing(classify, n, n_features, seed, growth,
                                                       budget, algorithm, missing):
    rng = np.random.default_rng(seed + 2)
    X = tie_free(seed, n, n_features)
    if missing:  # (C4.5's fractional rows, or scikit-learn's missing side)
        X[rng.random(X.shape) < 0.15] = np.nan
    if classify:
        make = DecisionTreeClassifier
        y = rng.integers(0, 3, n)
        params = dict(algorithm=algorithm)
    else:
        make = DecisionTreeRegressor
        y = rng.normal(size=n)
        params = dict(missing="c4.5" if algorithm == "c4.5" else "cart")
    params.update(growth=growth, max_leaf_nodes=budget)
    plain = make(**params).fit(X, y)
    t = plain.tree_
    assume(t.node_count > 1 and np.isfinite(t.threshold[0]))
    spec = {"feature": int(t.feature[0]), "threshold": float(t.threshold[0])}
    forced = make(forced_splits=spec, **params).fit(X, y)
    u = forced.tree_
    for name in ("feature", "n_node_samples", "child_ids", "child_ptr", "missing_child"):
        np.testing.assert_array_equal(getattr(u, name), getattr(t, name), err_msg=name)
    for name in ("weighted_n_node_samples", "impurity", "value", "split_gain"):
        np.testing.assert_allclose(getattr(u, name), getattr(t, name), rtol=1e-12, atol=1e-12,
                                   err_msg=name)
    # the threshold is read in float32, as X is: the same partition
    assert np.float32(u.threshold[0]) == np.float32(t.threshold[0])
    np.testing.assert_array_equal(u.threshold[1:], t.threshold[1:])
    assert [s.node for s in forced.steps_] == [s.node for s in plain.steps_]
    first = forced.steps_[0]
    assert first.forced and not any(s.forced for s in forced.steps_[1:])
    assert first.best_gain == pytest.approx(first.gain, rel=1e-12, abs=1e-12)


# --------------------------------------------------------------------------
# refusals
# --------------------------------------------------------------------------

@pytest.mark.parametrize("bad", BAD, ids=[b.name for b in BAD])
def test_a_bad_spec_is_refused_naming_the_node(bad):
    with pytest.raises(ValueError) as exc:
        bad.fit()
    err = exc.value
    assert isinstance(err, CodedError) and err.code == bad.code, str(err)
    if bad.node is not None:
        assert err.values["node"] == bad.node
        assert f"at {bad.node}:" in str(err)


def test_the_refusals_speak_chinese():
    from dtree.views.messages import message

    err = pytest.raises(ValueError, BAD[5].fit).value  # "root → left"
    assert "根 → 左" in message(err, "zh")
    err = pytest.raises(ValueError, [b for b in BAD if b.name == "below min_samples_leaf"][0]
                        .fit).value
    assert "左分支" in message(err, "zh")


def test_every_refusal_rule_has_an_example():
    from dtree import MESSAGES

    codes = {code for code in MESSAGES if code.startswith("forced_")}
    assert codes == {b.code for b in BAD}


def test_a_feature_known_only_by_name_needs_names():
    X = FRAME.to_numpy()[:, :2].astype(float)
    with pytest.raises(ValueError, match="'a' is not a feature"):
        DecisionTreeClassifier(forced_splits={"feature": "a", "threshold": 1.0}).fit(X, TARGET)


# --------------------------------------------------------------------------
# what the rules do and do not stop
# --------------------------------------------------------------------------

def test_a_forced_split_may_gain_nothing():
    """XOR: the greedy root split gains about nothing, but forcing one gives
    a tree that growth finishes perfectly; neither a pure node nor
    min_impurity_decrease stops a forced split."""
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5, dtype=float)
    y = np.array([0, 1, 1, 0] * 5)
    est = DecisionTreeClassifier(forced_splits={"feature": 0, "threshold": 0.5},
                                 min_impurity_decrease=0.3).fit(X, y)
    assert est.steps_[0].gain == 0.0 and est.steps_[0].forced
    # the children's splits improve by 0.25 only: min_impurity_decrease stops them
    assert len(est.steps_) == 1
    assert set(est.tree_.stop_reason[est.tree_.is_leaf()]) == {"min_impurity_decrease"}
    est = DecisionTreeClassifier(forced_splits={"feature": 0, "threshold": 0.5}).fit(X, y)
    assert est.score(X, y) == 1.0
    pure = DecisionTreeClassifier(
        forced_splits={"feature": 0, "threshold": 0.5,
                       "left": {"feature": 1, "threshold": 0.5,
                                "left": {"feature": 0, "threshold": -1.0}}})
    with pytest.raises(ValueError, match="root → left → left: this split on 'x0' leaves"):
        pure.fit(X, y)
    pure.set_params(forced_splits={"feature": 0, "threshold": 0.5,
                                   "left": {"feature": 1, "threshold": 0.5,
                                            "left": {"feature": 0, "threshold": 0.5}}})
    with pytest.raises(ValueError, match="leaves the right branch"):
        pure.fit(X, y)


def test_a_pure_node_can_be_forced_to_split():
    X = np.arange(6, dtype=float)[:, None]
    y = np.array([0, 0, 0, 1, 1, 1])
    est = DecisionTreeClassifier(forced_splits={"feature": 0, "threshold": 2.5,
                                                "left": {"feature": 0, "threshold": 0.5}})
    est.fit(X, y)
    step = est.steps_[1]
    # (the search would have split the pure node for nothing too)
    assert step.forced and step.gain == 0.0 and step.best_gain == 0.0
    assert est.tree_.node_count == 5


def test_max_depth_counts_the_forced_levels(iris):
    X, y = iris
    est = DecisionTreeClassifier(forced_splits=IRIS_SPEC, max_depth=3).fit(X, y)
    assert est.get_depth() <= 3
    assert est.tree_.depth[est.steps_[2].node] == 2


@pytest.mark.parametrize("growth", GROWTHS)
def test_forced_splits_count_in_the_leaf_budget(iris, growth):
    X, y = iris
    est = DecisionTreeClassifier(forced_splits=IRIS_SPEC, max_leaf_nodes=5,
                                 growth=growth).fit(X, y)
    assert len(est.steps_) == 4
    assert [s.forced for s in est.steps_] == [True] * 3 + [False]
    exact = DecisionTreeClassifier(forced_splits=IRIS_SPEC, max_leaf_nodes=4,
                                   growth=growth).fit(X, y)
    assert [s.forced for s in exact.steps_] == [True] * 3
    assert (exact.tree_.stop_reason[exact.tree_.is_leaf()] != "").all()


def test_best_first_then_picks_the_largest_improvement_among_open_nodes(iris):
    X, y = iris
    free = DecisionTreeClassifier(forced_splits=IRIS_SPEC, growth="best_first").fit(X, y)
    forced = {s.node for s in free.steps_ if s.forced}
    # the splits of the open regions' tops, which wait when the forced ones are done
    tops = sorted((s.improvement for s in free.steps_
                   if not s.forced and free.tree_.parent[s.node] in forced), reverse=True)
    budgeted = DecisionTreeClassifier(forced_splits=IRIS_SPEC, growth="best_first",
                                      max_leaf_nodes=5).fit(X, y)
    made = [s for s in budgeted.steps_ if not s.forced]
    assert len(made) == 1 and made[0].improvement == tops[0]


def test_depth_first_with_a_budget_goes_on_in_pre_order():
    """After the forced splits, depth-first growth with a budget makes the
    first splits in pre-order, as it does without forced splits."""
    rng = np.random.default_rng(3)
    X = tie_free(3, 80, 2)
    y = rng.integers(0, 2, 80)
    spec = {"feature": 0, "threshold": 19.5, "left": {"feature": 1, "threshold": 21.0},
            "right": {"feature": 1, "threshold": 20.0}}
    full = DecisionTreeClassifier(forced_splits=spec).fit(X, y)
    assert len(full.steps_) > 9
    for budget in (4, 5, 7, 10):
        est = DecisionTreeClassifier(forced_splits=spec, max_leaf_nodes=budget,
                                     growth="depth_first").fit(X, y)
        # the full tree's forced splits, then its first open ones in pre-order
        # (its steps after the forced ones are in pre-order), ids in pre-order
        sub = full.tree_at(budget - 1)
        for name in ("feature", "threshold", "n_node_samples", "child_ptr", "child_ids"):
            np.testing.assert_array_equal(getattr(est.tree_, name), getattr(sub, name))


def test_a_value_written_as_the_threshold_goes_left():
    """X is read in float32; 0.1 has no exact float32 form, but a row whose
    value is written 0.1 goes left of the threshold 0.1."""
    X = np.array([[0.0], [0.1], [0.2], [0.3]])
    y = np.array([0, 0, 1, 1])
    est = DecisionTreeClassifier(forced_splits={"feature": 0, "threshold": 0.1}).fit(X, y)
    assert est.steps_[0].n_left == 2
    assert est.predict([[0.1], [0.1000001]]).tolist() == [0, 1]


# --------------------------------------------------------------------------
# categorical features
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def weather():
    X = pd.DataFrame({
        "outlook": pd.Categorical(["sunny", "sunny", "overcast", "rain", "rain", "rain",
                                   "overcast", "sunny", "sunny", "rain", "sunny", "overcast",
                                   "overcast", "rain"]),
        "temp": [85.0, 80, 83, 70, 68, 65, 64, 72, 69, 75, 75, 72, 81, 71],
        "windy": pd.Categorical(["no", "yes", "no", "no", "no", "yes", "yes", "no", "no",
                                 "no", "yes", "yes", "no", "yes"]),
    })
    y = np.array(["no", "no", "yes", "yes", "yes", "no", "yes", "no", "yes", "yes", "yes",
                  "yes", "yes", "no"])
    return X, y


def test_a_subset_split_sends_the_listed_categories_left(weather):
    X, y = weather
    spec = {"feature": "outlook", "categories": ["rain"],
            "right": {"feature": "temp", "threshold": 77.5}}
    est = DecisionTreeClassifier(forced_splits=spec).fit(X, y)
    first = est.steps_[0]
    assert first.kind == "subset" and first.branches == ["rain", "{overcast, sunny}"]
    assert first.n_left == 5 and first.forced
    assert est.steps_[1].forced and est.steps_[1].threshold == 77.5
    assert_replay(est)


def test_a_subset_spec_of_the_greedy_root_changes_nothing(weather):
    X, y = weather
    plain = DecisionTreeClassifier().fit(X, y)
    root = plain.steps_[0]
    assert root.kind == "subset"
    left = root.branches[0].strip("{}").split(", ")
    forced = DecisionTreeClassifier(forced_splits={"feature": root.feature_name,
                                                   "categories": left}).fit(X, y)
    assert_same_tree(forced.tree_, plain.tree_)


@pytest.mark.parametrize("algorithm", ["id3", "c4.5"])
def test_a_multiway_split_has_a_branch_per_category(weather, algorithm):
    X, y = weather
    spec = {"feature": "outlook",
            "branches": {"sunny": {"feature": "temp", "threshold": 77.5}, "rain": None}}
    est = DecisionTreeClassifier(algorithm=algorithm, forced_splits=spec).fit(X, y)
    t = est.tree_
    first, second = est.steps_[0], est.steps_[1]
    assert first.kind == "multiway" and first.branches == ["overcast", "rain", "sunny"]
    assert second.forced and t.parent[second.node] == 0
    assert second.node == t.children_of(0)[2] and second.threshold == 77.5
    plain = DecisionTreeClassifier(algorithm=algorithm).fit(X, y)
    if plain.steps_[0].feature_name == "outlook":  # the greedy multiway root
        same = DecisionTreeClassifier(algorithm=algorithm,
                                      forced_splits={"feature": "outlook"}).fit(X, y)
        assert_same_tree(same.tree_, plain.tree_)


def test_a_category_is_named_by_its_label_or_its_text():
    X = pd.DataFrame({"k": pd.Categorical([1.0, 2.0, 3.0] * 4),
                      "s": pd.Categorical(["1", "01", "x", "x"] * 3)})
    y = np.array([0, 1, 1, 0, 1, 0] * 2)

    def root(spec, **params):
        return DecisionTreeClassifier(forced_splits=spec, **params).fit(X, y).steps_[0].branches

    assert root({"feature": "k", "categories": [1]}) == ["1.0", "{2.0, 3.0}"]
    assert root({"feature": "k", "categories": ["1.0", 2]}) == ["{1.0, 2.0}", "3.0"]
    assert root({"feature": "s", "categories": [1]}) == ["1", "{01, x}"]
    assert root({"feature": "s", "categories": ["01"]}) == ["01", "{1, x}"]
    # JSON's keys are text: "2" names the category 2.0
    est = DecisionTreeClassifier(algorithm="id3", forced_splits=json.dumps(
        {"feature": "k", "branches": {"2": {"feature": "s"}}})).fit(X, y)
    assert est.steps_[1].forced and est.tree_.parent[est.steps_[1].node] == 0
    assert est.steps_[1].node == est.tree_.children_of(0)[1]


@pytest.mark.parametrize("params", [dict(record_candidates=False),
                                    dict(max_features=1, random_state=0),
                                    dict(splitter="random", random_state=1),
                                    dict(class_weight="balanced", max_depth=4)], ids=str)
def test_forced_splits_work_with_the_other_settings(iris, params):
    X, y = iris
    w = np.linspace(0.5, 2.0, len(y))
    est = DecisionTreeClassifier(forced_splits=IRIS_SPEC, **params).fit(X, y, sample_weight=w)
    assert [s.forced for s in est.steps_[:3]] == [True] * 3
    assert [s.threshold for s in est.steps_[:3]] == [np.float32(1.0), np.float32(6.0),
                                                     np.float32(4.9)]
    assert_replay(est)


def test_the_categorical_forms_are_refused_where_they_do_not_fit(weather):
    X, y = weather
    with pytest.raises(ValueError, match="multiway=False"):
        DecisionTreeClassifier(forced_splits={"feature": "outlook",
                                              "branches": {"sunny": None}}).fit(X, y)
    with pytest.raises(ValueError, match="multiway=True"):
        DecisionTreeClassifier(algorithm="c4.5", forced_splits={
            "feature": "outlook", "categories": ["sunny"]}).fit(X, y)
    with pytest.raises(ValueError, match="multiway=True"):
        DecisionTreeClassifier(algorithm="c4.5", forced_splits={
            "feature": "outlook", "left": {"feature": "temp", "threshold": 70.0}}).fit(X, y)


# --------------------------------------------------------------------------
# steps, candidate tables and pruning
# --------------------------------------------------------------------------

def test_steps_record_the_forced_splits_first_with_their_gain_and_the_best(iris):
    X, y = iris
    for growth in GROWTHS:
        est = DecisionTreeClassifier(forced_splits=IRIS_SPEC, growth=growth).fit(X, y)
        marks = [s.forced for s in est.steps_]
        assert marks[:3] == [True] * 3 and not any(marks[3:])
        root = est.steps_[0]
        plain = DecisionTreeClassifier(growth=growth).fit(X, y)
        assert root.best_gain == pytest.approx(plain.steps_[0].gain, rel=1e-12)
        assert root.gain < root.best_gain
        for step in est.steps_:
            table = step.candidates
            chosen = table[table["chosen"]]
            assert len(chosen) == 1
            row = chosen.iloc[0]
            assert row["feature"] == step.feature_name and bool(row["forced"]) == step.forced
            assert row["gain"] == pytest.approx(step.gain, rel=1e-9, abs=1e-12)
            assert row["threshold"] == step.threshold
            # every evaluated feature is still listed, with its own best split
            assert set(table.loc[~table["forced"], "feature"]) == set(X.columns)
            if not step.forced:
                assert step.best_gain == step.gain
            else:
                best = table[table["eligible"]]["gain"].max()
                assert step.best_gain == pytest.approx(best, rel=1e-12)
        assert_replay(est)


def test_the_forced_row_of_a_candidate_table_has_the_split_s_numbers(iris):
    X, y = iris
    est = DecisionTreeClassifier(forced_splits=IRIS_SPEC).fit(X, y)
    step = est.steps_[0]
    row = step.candidates.iloc[0]
    assert row["forced"] and row["chosen"]
    assert (row["n_left"], row["n_right"]) == (step.n_left, step.n_right)
    assert row["impurity_left"] == pytest.approx(step.impurity_left, rel=1e-12)
    assert row["impurity_right"] == pytest.approx(step.impurity_right, rel=1e-12)
    assert row["improvement"] == pytest.approx(step.improvement, rel=1e-12)


def test_pruning_works_on_a_forced_tree(iris):
    X, y = iris
    est = DecisionTreeClassifier(forced_splits=IRIS_SPEC).fit(X, y)
    path = est.cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(path["ccp_alphas"], pruning_path(est.tree_).ccp_alphas)
    seq = pruning_sequence(est.tree_at(4))
    assert len(seq) == 4 and seq.n_leaves[-1] == 1
    pruned = DecisionTreeClassifier(forced_splits=IRIS_SPEC, ccp_alpha=0.01).fit(X, y)
    assert pruned.tree_.node_count < pruned.growth_tree_.node_count
    assert [s.forced for s in pruned.steps_][:3] == [True] * 3
    c45 = DecisionTreeClassifier(algorithm="c4.5", forced_splits=IRIS_SPEC).fit(X, y)
    result = error_based_prune(c45, X, y)
    assert result.tree.node_count <= c45.tree_.node_count


def test_c45_missing_values_follow_the_fractional_rule_below_a_forced_split():
    rng = np.random.default_rng(5)
    X = tie_free(5, 60, 2).astype(float)
    X[rng.random(60) < 0.2, 0] = np.nan
    y = rng.integers(0, 2, 60)
    spec = {"feature": 0, "threshold": 14.5}
    est = DecisionTreeClassifier(algorithm="c4.5", forced_splits=spec).fit(X, y)
    t = est.tree_
    known = ~np.isnan(X[:, 0])
    left_known = known & (X[:, 0] <= 14.5)
    share = left_known.sum() / known.sum()
    a, b = t.children_of(0)
    # every row with a missing value goes down both branches with the branch's share
    assert t.weighted_n_node_samples[a] == pytest.approx(left_known.sum()
                                                         + share * (~known).sum())
    assert t.n_node_samples[a] == left_known.sum() + (~known).sum()
    # the gain: the known rows' entropy gain times their fraction
    def entropy(labels):
        p = np.bincount(labels, minlength=2) / len(labels)
        return -sum(q * np.log2(q) for q in p if q > 0)

    right_known = known & ~left_known
    gain = entropy(y[known]) - (left_known.sum() * entropy(y[left_known])
                                + right_known.sum() * entropy(y[right_known])) / known.sum()
    assert est.steps_[0].gain == pytest.approx(gain * known.sum() / 60, rel=1e-12)
    assert_replay(est)
