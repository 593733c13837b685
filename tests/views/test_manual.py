"""dtree.views.manual: the splits chosen by hand as forced_splits, and the
choices offered at a node with their gains.

Oracles: a refit with the spec of a grown tree's first k splits grows that
very tree (same partition at every node); each offered split's gain, gain
ratio and branch sizes against a brute-force computation on the node's rows
(impurities written out here); Li Hang's published gains for the loan table;
a hand choice refitted, its node's rows and gain against the same brute
force and the rest of the tree against dtree refitted on each region's rows."""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as hs
from sklearn.base import clone

from dtree import DecisionTreeClassifier
from dtree.views import explain, manual, narration
from tests.helpers.app_models import app_estimator

CASES = [("Iris", "CART"), ("Wine", "CART"), ("Penguins", "CART"), ("Penguins", "C4.5"),
         ("Penguins", "ID3"), ("Loan applications (Li Hang)", "ID3"),
         ("Watermelon 2.0α, missing values (Zhou Zhihua)", "C4.5")]


def grown(title, preset="CART", **changes):
    est, prep = app_estimator(title, preset, **changes)
    model = clone(est).fit(prep.X_train, prep.y_train)
    return est, prep, model, explain.encode(model, prep.X_train)


def refit(est, prep, spec):
    return clone(est).set_params(forced_splits=manual.spec_text(spec)).fit(
        prep.X_train, prep.y_train)


def same_partition(a, b):
    assert a.node_count == b.node_count
    assert np.array_equal(a.feature, b.feature)
    assert np.allclose(a.threshold, b.threshold, rtol=1e-6)
    assert np.array_equal(a.n_node_samples, b.n_node_samples)
    assert np.allclose(a.weighted_n_node_samples, b.weighted_n_node_samples)
    assert np.allclose(a.value, b.value)


def impurity(counts, kind):
    p = np.asarray(counts, float)
    p = p[p > 0] / p.sum()
    return 1 - (p * p).sum() if kind == "gini" else -(p * np.log2(p)).sum()


def brute_gain(y, groups, kind):
    """I(D) - sum |D_v|/|D| I(D_v), every group a boolean mask over y."""
    y = np.asarray(y)
    counts = lambda rows: [np.sum(rows == c) for c in np.unique(y)]  # noqa: E731
    return impurity(counts(y), kind) - sum(
        g.sum() / len(y) * impurity(counts(y[g]), kind) for g in groups if g.sum())


def split_information(groups):
    n = np.array([g.sum() for g in groups], float)
    p = n[n > 0] / n.sum()
    return -(p * np.log2(p)).sum()


@pytest.mark.parametrize("title,preset", CASES)
def test_a_trees_first_splits_as_a_spec_regrow_that_tree(title, preset):
    est, prep, model, X_enc = grown(title, preset)
    for k in range(1, len(model.steps_) + 1):
        spec = manual.choice_spec(model, k, None, X_enc)
        again = refit(est, prep, spec)
        n = manual.count_splits(spec)
        if n == k:  # (a known-against-missing split is left out, and regrown later)
            same_partition(model.tree_at(k), again.tree_at(n))
        same_partition(model.tree_, again.tree_)  # (and below them, the same growth)
        assert all(s.forced for s in again.steps_[:n])
    assert manual.choice_spec(model, 0, None, X_enc) is None


def node_data(prep, model, X_enc, step):
    rows, _ = explain.node_rows(model.tree_, model.tree_.leaf_weights(X_enc), step.node)
    return prep.X_train.iloc[rows], np.asarray(prep.y_train)[rows]


@pytest.mark.parametrize("step_index", [0, 1, 3])
def test_numeric_thresholds_and_their_gains_against_brute_force(step_index):
    est, prep, model, X_enc = grown("Iris")
    s = model.steps_[step_index]
    X, y = node_data(prep, model, X_enc, s)
    for f, _ in manual.feature_order(s):
        offer = manual.node_options(model, prep.X_train, explain.class_codes(
            model.classes_, prep.y_train), model.tree_.leaf_weights(X_enc), s, f, X_enc)
        x = X.iloc[:, f].to_numpy(np.float32)
        distinct = np.unique(x)
        assert len(offer.options) == len(distinct) - 1 == offer.n_all  # every midpoint
        for option, low, high in zip(offer.options, distinct[:-1], distinct[1:]):
            t32 = np.float32(option.split["threshold"])
            assert low <= t32 < high  # between two neighbouring values
            left = x <= t32
            assert option.sizes == (left.sum(), (~left).sum())
            assert option.gain == pytest.approx(brute_gain(y, [left, ~left], "gini"))
        best = max(offer.options, key=lambda o: o.gain)
        row = dict(manual.feature_order(s))[f]
        assert best.gain == pytest.approx(row["gain"])  # the engine's best of the feature
    best_row = manual.best_row(s)
    assert best_row["gain"] == pytest.approx(s.gain) and not s.forced


def test_subset_groupings_and_their_gains_against_brute_force():
    est, prep, model, X_enc = grown("Penguins")
    s = model.steps_[0]
    island = list(model.feature_names_).index("island")
    offer = manual.node_options(model, prep.X_train, explain.class_codes(
        model.classes_, prep.y_train), model.tree_.leaf_weights(X_enc), s, island, X_enc)
    labels = prep.X_train["island"].to_numpy(object)
    y = np.asarray(prep.y_train)
    present = sorted(set(labels))
    assert len(offer.options) == 2 ** (len(present) - 1) - 1  # every grouping in two
    for option in offer.options:
        left = np.isin(labels, option.split["categories"])
        assert option.sizes == (left.sum(), (~left).sum())
        assert option.gain == pytest.approx(brute_gain(y, [left, ~left], "gini"))
    assert [o.gain for o in offer.options] == sorted((o.gain for o in offer.options),
                                                     reverse=True)


def test_multiway_choices_give_li_hangs_gains():
    est, prep, model, X_enc = grown("Loan applications (Li Hang)", "ID3")
    s = model.steps_[0]
    codes = explain.class_codes(model.classes_, prep.y_train)
    routes = model.tree_.leaf_weights(X_enc)
    gains = {}
    for f, _ in manual.feature_order(s):
        (option,), left_out, _ = manual.node_options(model, prep.X_train, codes, routes, s, f,
                                                     X_enc)
        assert option.split == {"feature": model.feature_names_[f], "branches": {}}
        assert left_out == 0
        gains[model.feature_names_[f]] = round(option.gain, 3)
    # Li Hang, Statistical Learning Methods, example 5.2: g(D, A1..A4)
    assert gains == {"年龄": 0.083, "有工作": 0.324, "有自己的房子": 0.420, "信贷情况": 0.363}
    assert manual.best_row(s)["feature"] == "有自己的房子"


def test_gain_ratio_choices_against_brute_force():
    est, prep, model, X_enc = grown("Iris", "C4.5")
    s = model.steps_[0]
    X, y = node_data(prep, model, X_enc, s)
    offer = manual.node_options(model, prep.X_train, explain.class_codes(
        model.classes_, prep.y_train), model.tree_.leaf_weights(X_enc), s, 2, X_enc)
    x = X.iloc[:, 2].to_numpy(np.float32)
    for option in offer.options:
        left = x <= np.float32(option.split["threshold"])
        gain = brute_gain(y, [left, ~left], "entropy")
        assert option.gain == pytest.approx(gain)
        assert option.score("gain_ratio") == pytest.approx(gain / split_information([left, ~left]))
        assert option.score("entropy") == option.gain


@pytest.mark.parametrize("title,preset,feature,pick", [
    ("Iris", "CART", "petal width (cm)", 2), ("Wine", "CART", "alcohol", 10),
    ("Penguins", "CART", "island", 1), ("Penguins", "C4.5", "bill_depth_mm", 5)])
@pytest.mark.parametrize("k", [0, 2])
def test_a_hand_choice_refitted(title, preset, feature, pick, k):
    """The chosen node is split as chosen, with the offered gain; the splits
    before it stay; each region below grows as dtree grows it on the
    region's rows alone."""
    est, prep, model, X_enc = grown(title, preset)
    s = model.steps_[k]
    f = list(model.feature_names_).index(feature)
    codes = explain.class_codes(model.classes_, prep.y_train)
    offer = manual.node_options(model, prep.X_train, codes, model.tree_.leaf_weights(X_enc),
                                s, f, X_enc)
    option = offer.options[pick]
    spec = manual.choice_spec(model, k, option.split, X_enc)
    assert manual.count_splits(spec) == k + 1
    again = refit(est, prep, json.loads(manual.spec_text(spec)))
    mine = again.steps_[k]
    assert mine.forced and mine.feature_name == feature
    assert mine.n_node_samples == s.n_node_samples
    if not offer.left_out:  # (C4.5 sends a row without a value down every branch)
        assert tuple(mine.n_children_samples) == option.sizes
        assert mine.gain == pytest.approx(option.gain)
    else:
        assert sum(mine.n_children_samples) == sum(option.sizes) + 2 * offer.left_out
        if preset == "C4.5":  # the known rows' gain times their weight share, as offered
            assert mine.gain == pytest.approx(option.gain)
    assert mine.best_gain == pytest.approx(s.gain)  # what the algorithm did there
    for j in range(k):
        assert again.steps_[j].node == model.steps_[j].node
        assert again.steps_[j].feature == model.steps_[j].feature
    # each child's region: dtree grown on its rows alone, one level shallower
    routes = again.tree_.leaf_weights(explain.encode(again, prep.X_train))
    for child in mine.children:
        rows, _ = explain.node_rows(again.tree_, routes, child)
        if again.tree_.n_children[child] == 0 or preset != "CART" or offer.left_out:
            continue  # (C4.5 spreads missing rows; a region refit sees them whole)
        depth = int(again.tree_.depth[child])
        alone = clone(est).set_params(max_depth=5 - depth).fit(
            prep.X_train.iloc[rows], np.asarray(prep.y_train)[rows])
        sub = subtree(again.tree_, child)
        assert [again.tree_.n_node_samples[i] for i in sub] == list(
            alone.tree_.n_node_samples)
        assert [again.tree_.feature[i] for i in sub] == list(alone.tree_.feature)


def subtree(tree, node):
    """``node``'s subtree in pre-order."""
    out, stack = [], [node]
    while stack:
        i = stack.pop()
        out.append(i)
        stack.extend(reversed(tree.children_of(i)))
    return out


def test_a_node_below_a_known_against_missing_split_cannot_be_written():
    est, prep, model, X_enc = grown("Penguins")
    tree = model.tree_
    inf = [i for i in range(tree.node_count) if tree.n_children[i] and
           not np.isfinite(tree.threshold[i])]
    assert inf
    below = [s.index for s in model.steps_ if inf[0] in _above(tree, s.node)]
    if below:
        with pytest.raises(manual.Unwritable):
            manual.choice_spec(model, below[0], {"feature": "year", "threshold": 2008.5}, X_enc)
    # elsewhere it is left to the algorithm, which makes it again
    k = len(model.steps_)
    again = refit(est, prep, manual.choice_spec(model, k, None, X_enc))
    same_partition(model.tree_, again.tree_)


def _above(tree, node):
    out = set()
    while node > 0:
        node = int(tree.parent[node])
        out.add(node)
    return out


@settings(max_examples=200, deadline=None)
@given(hs.lists(hs.floats(-1e6, 1e6, width=32), min_size=2, max_size=40, unique=True),
       hs.integers(0, 10**6))
def test_a_written_threshold_splits_the_values_as_the_midpoint(values, seed):
    values = np.unique(np.asarray(values, np.float32))
    if len(values) < 2:
        return
    i = seed % (len(values) - 1)
    midpoint = float(values[i]) / 2 + float(values[i + 1]) / 2
    written = manual.spec_threshold(midpoint, manual.known_values(values))
    read = np.float32(written)  # as the engine reads it
    assert np.array_equal(values <= read, values.astype(float) <= midpoint)
    assert abs(float(read) - float(np.float32(midpoint))) <= abs(float(np.spacing(np.float32(
        midpoint))))


@pytest.mark.parametrize("low,high,written", [(2.4, 2.5, 2.45), (0.3, 0.4, 0.35),
                                              (1.57, 2.65, 2.11), (886, 915, 900.5)])
def test_a_threshold_is_written_short(low, high, written):
    values = np.array([low, high], np.float32)
    midpoint = float(values[0]) / 2 + float(values[1]) / 2
    assert manual.spec_threshold(midpoint, manual.known_values(values)) == written


@pytest.mark.parametrize("bad", ["", "{", "[1, 2]", "null", "3", "{}", "x" * 20_001,
                                 "[" * 5000 + "]" * 5000])
def test_a_links_text_that_is_not_a_spec_is_refused(bad):
    with pytest.raises(ValueError):
        manual.read_spec_text(bad)


def test_a_links_text_is_kept_compact():
    text = '{ "feature": "年龄", "branches": {"青年": null} }'
    assert manual.read_spec_text(text) == '{"feature":"年龄","branches":{"青年":null}}'
    assert json.loads(manual.pretty_text(manual.read_spec_text(text))) == json.loads(text)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_step_sentence_says_a_split_was_chosen_by_hand(lang):
    est, prep, model, X_enc = grown("Iris")
    spec = manual.choice_spec(model, 0, {"feature": "petal width (cm)", "threshold": 0.35},
                              X_enc)
    again = refit(est, prep, spec)
    s = again.steps_[0]
    sentence = narration.step_sentence(again, 1, lang)
    assert f"{s.gain:.3f}" in sentence and f"{s.best_gain:.3f}" in sentence
    assert ("Chosen by hand" if lang == "en" else "手动选择") in sentence
    assert s.gain < s.best_gain
    assert "hand" not in narration.step_sentence(model, 1, lang)
    same = refit(est, prep, manual.choice_spec(model, 1, None, X_enc))
    assert ("as good as" if lang == "en" else "一样好") in narration.step_sentence(same, 1, lang)


def test_a_feature_with_many_thresholds_offers_some_with_the_best():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1000, 1))
    y = (X[:, 0] + rng.normal(scale=0.5, size=1000) > 0.3).astype(int)
    frame = pd.DataFrame(X, columns=["x"])
    model = DecisionTreeClassifier(max_depth=2).fit(frame, y)
    X_enc = explain.encode(model, frame)
    offer = manual.node_options(model, frame, y, model.tree_.leaf_weights(X_enc),
                                model.steps_[0], 0, X_enc)
    assert offer.n_all == 999
    assert manual.MAX_THRESHOLDS - 1 <= len(offer.options) <= manual.MAX_THRESHOLDS
    best = max(offer.options, key=lambda o: o.gain)
    assert best.gain == pytest.approx(model.steps_[0].gain)
    thresholds = [o.split["threshold"] for o in offer.options]
    assert thresholds == sorted(thresholds)
