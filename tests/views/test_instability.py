"""The resamples view's numbers (dtree.views.instability) against an
independent recount from the returned trees' own arrays and rows: root-split
and first-level frequencies, held-out scores (scikit-learn's accuracy and
R² of ``predict``), their spread (Python's statistics), where each tree
parts from the tree on all rows, and the trees picked for drawing."""

import statistics
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_diabetes, load_iris, load_wine
from sklearn.metrics import accuracy_score, r2_score
from sklearn.model_selection import train_test_split

from dtree import DecisionTreeClassifier, DecisionTreeRegressor, resampled_trees
from dtree.views import comparetext, instability


def split(loader, seed=0):
    X, y = loader(return_X_y=True, as_frame=True)
    return train_test_split(X, y.to_numpy(), test_size=0.3, random_state=seed)


@pytest.fixture(scope="module")
def wine():
    X_train, X_test, y_train, y_test = split(load_wine)
    est = DecisionTreeClassifier(max_depth=3)
    full = DecisionTreeClassifier(max_depth=3).fit(X_train, y_train)
    found = resampled_trees(est, X_train, y_train, n_resamples=30, random_state=5)
    return X_train, X_test, y_train, y_test, full, found


def test_root_splits_count_the_trees_by_feature_and_the_rows_sent_left(wine):
    X_train, _, _, _, _, found = wine
    X = X_train.to_numpy(dtype=np.float32)
    recount = Counter()
    for m in found.estimators:
        f, cut = m.tree_.feature[0], m.tree_.threshold[0]
        recount[(X_train.columns[f], int((X[:, f] <= cut).sum()))] += 1
    table = instability.root_splits(found.estimators, X_train)
    assert sorted(table["trees"], reverse=True) == sorted(recount.values(), reverse=True)
    assert list(table["trees"]) == sorted(table["trees"], reverse=True)
    assert table["trees"].sum() == 30 and np.isclose(table["share"].sum(), 1)
    by_feature = Counter()
    for (feature, _), count in recount.items():
        by_feature[feature] += count
    assert dict(instability.root_features(found.estimators)) == dict(by_feature)
    assert table.groupby("feature")["trees"].sum().to_dict() == dict(by_feature)
    # a group's rule spans its thresholds
    cuts = {}
    for m in found.estimators:
        f, cut = m.tree_.feature[0], m.tree_.threshold[0]
        cuts.setdefault((X_train.columns[f], int((X[:, f] <= cut).sum())), []).append(cut)
    rules = Counter()
    for (feature, _), group in cuts.items():
        lo, hi = f"{min(group):.4g}", f"{max(group):.4g}"
        rules[(feature, f"≤ {lo}" if lo == hi else f"≤ {lo} to {hi}")] += len(group)
    assert dict(zip(zip(table["feature"], table["rule"]), table["trees"])) == dict(rules)
    # without the rows, every printed threshold is a split of its own
    plain = instability.root_splits(found.estimators)
    printed = Counter((X_train.columns[m.tree_.feature[0]], f"≤ {m.tree_.threshold[0]:.4g}")
                      for m in found.estimators)
    assert dict(zip(zip(plain["feature"], plain["rule"]), plain["trees"])) == dict(printed)


def test_first_level_counts_what_each_side_of_the_root_splits_on(wine):
    X_train, _, _, _, _, found = wine
    recount = Counter()
    for m in found.estimators:
        t = m.tree_
        root = X_train.columns[t.feature[0]]
        for side, child in (("≤", t.children_left[0]), (">", t.children_right[0])):
            below = None if t.children_left[child] == -1 else X_train.columns[t.feature[child]]
            recount[(root, side, below)] += 1
    table = instability.first_level(found.estimators)
    got = {(r, s, None if b is None or b != b else b): n
           for r, s, b, n in zip(table["root"], table["branch"], table["below"], table["trees"])}
    assert got == dict(recount)
    roots = Counter(X_train.columns[m.tree_.feature[0]] for m in found.estimators)
    for (root, _, _), n, share in zip(got, table["trees"], table["share"]):
        assert share == pytest.approx(n / roots[root])


def test_held_out_scores_are_the_test_accuracy_of_each_tree(wine):
    X_train, X_test, y_train, y_test, full, found = wine
    scores, where = instability.held_out_scores(found, X_train, y_train, X_test, y_test)
    assert where == "test"
    expected = [accuracy_score(y_test, m.predict(X_test)) for m in found.estimators]
    np.testing.assert_allclose(scores, expected)
    summary = instability.spread(scores)
    assert summary["min"] == min(expected) and summary["max"] == max(expected)
    assert summary["median"] == pytest.approx(statistics.median(expected))
    assert summary["mean"] == pytest.approx(statistics.fmean(expected))
    assert summary["sd"] == pytest.approx(statistics.stdev(expected))
    q1, _, q3 = statistics.quantiles(expected, n=4, method="inclusive")
    assert (summary["q1"], summary["q3"]) == pytest.approx((q1, q3))
    assert summary["n"] == 30
    sentence = comparetext.spread_sentence(summary, full.score(X_test, y_test), "accuracy",
                                           where)
    assert f"**{min(expected):.3f}**" in sentence and f"{full.score(X_test, y_test):.3f}" \
        in sentence


def test_without_a_test_set_the_rows_each_resample_left_out_are_scored():
    X, y = load_diabetes(return_X_y=True)
    found = resampled_trees(DecisionTreeRegressor(max_depth=3), X, y, n_resamples=6,
                            method="drop", drop_share=0.25, random_state=2)
    scores, where = instability.held_out_scores(found, X, y, X[:0], y[:0])
    assert where == "left_out"
    for m, rows, s in zip(found.estimators, found.rows, scores):
        out = np.setdiff1d(np.arange(len(y)), rows)
        assert len(out) == int(np.floor(0.25 * len(y) + 0.5))  # halves up
        assert s == pytest.approx(r2_score(y[out], m.predict(X[out])))


def first_parting_depth(a, b):
    """Walk two sklearn-style trees from the root; the depth of the first
    node whose split differs, None if none does."""
    stack = [(0, 0, 0)]
    while stack:
        i, j, depth = stack.pop()
        ta, tb = a.tree_, b.tree_
        leaf_a, leaf_b = ta.children_left[i] == -1, tb.children_left[j] == -1
        if leaf_a and leaf_b:
            continue
        if leaf_a != leaf_b or ta.feature[i] != tb.feature[j] or \
                not np.isclose(ta.threshold[i], tb.threshold[j]):
            return depth
        stack += [(ta.children_right[i], tb.children_right[j], depth + 1),
                  (ta.children_left[i], tb.children_left[j], depth + 1)]
    return None


def test_agreement_with_the_tree_on_all_rows():
    X, y = load_iris(return_X_y=True)
    full = DecisionTreeClassifier(max_depth=3).fit(X, y)
    found = resampled_trees(DecisionTreeClassifier(max_depth=3), X, y, n_resamples=25,
                            method="drop", drop_share=0.1, random_state=0)
    got = instability.agreement(full, found.estimators)
    expected = []
    for m in found.estimators:
        depth = first_parting_depth(full, m)
        # a difference found first by pre-order is the shallowest only on its own
        # path: compare by "same tree" and "parts at the root" exactly, else by depth range
        expected.append(depth)
    assert [g is None for g in got] == [e is None for e in expected]
    assert [g == 0 for g in got] == [e == 0 for e in expected]
    assert any(g is None for g in got) and any(g is not None for g in got)
    n_same = sum(g is None for g in got)
    sentence = comparetext.instability_sentence(instability.root_features(found.estimators),
                                                n_same, 25)
    assert f"{n_same} of 25 {'is' if n_same == 1 else 'are'} the same tree" in sentence


def test_shown_resamples_put_different_roots_first():
    X_train, _, y_train, _ = split(load_wine, seed=1)
    full = DecisionTreeClassifier().fit(X_train, y_train)
    found = resampled_trees(DecisionTreeClassifier(), X_train, y_train, n_resamples=20,
                            random_state=0)
    shown = instability.shown_resamples(full, found.estimators, 3)
    assert len(shown) == len(set(shown)) == 3
    roots = [(full.tree_.feature[0], full.tree_.threshold[0])] + \
        [(found.estimators[i].tree_.feature[0], found.estimators[i].tree_.threshold[0])
         for i in shown]
    distinct = len({(f, round(t, 9)) for f, t in
                    ((m.tree_.feature[0], m.tree_.threshold[0]) for m in found.estimators)}
                   - {(full.tree_.feature[0], round(full.tree_.threshold[0], 9))})
    assert len(set(roots)) == min(4, 1 + distinct)


def test_same_categories_give_every_resampled_tree_the_codes_of_the_full_tree():
    rng = np.random.default_rng(3)
    n = 40
    frame = pd.DataFrame({"colour": rng.choice(["red", "green", "blue", "rare"], size=n,
                                               p=[0.4, 0.3, 0.27, 0.03]),
                          "size": rng.normal(size=n)})
    y = (frame["colour"].isin(["red", "rare"])).astype(int).to_numpy()
    est = DecisionTreeClassifier(categorical_features=["colour"], max_depth=2)
    full = DecisionTreeClassifier(**est.get_params()).fit(frame, y)
    X = instability.same_categories(full, frame)
    found = resampled_trees(est, X, y, n_resamples=15, random_state=0)
    for m in found.estimators:
        assert list(m.categories_[0]) == list(full.categories_[0])
    assert instability.same_categories(full, frame.to_numpy()) is not None
    table = instability.root_splits(found.estimators, X)
    assert table["trees"].sum() == 15
