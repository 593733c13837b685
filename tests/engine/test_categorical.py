"""ID3, C4.5 and CART on categorical data: the textbook numbers, reproduced.

Where a book prints a value computed from rounded intermediate entropies, the
test checks both: the exact value to the printed precision (within one unit in
the last place) and the book's own rounding path, which gives the printed
digits exactly.
"""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier, DecisionTreeRegressor, candidate_splits, export_text

DATA = Path(__file__).resolve().parents[2] / "data"


def table(name, drop=None):
    frame = pd.read_csv(DATA / name)
    return frame.drop(columns=drop) if drop else frame


def H(*counts):
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


# ---------------------------------------------------------------------------
# Li Hang, Statistical Learning Methods, ch. 5: the loan table
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def loan():
    frame = table("loan.csv", drop="ID")
    return frame.drop(columns="类别"), frame["类别"]


def test_loan_entropy_and_gains(loan):
    X, y = loan
    est = DecisionTreeClassifier(algorithm="id3", max_depth=1).fit(X, y)
    assert round(est.tree_.impurity[0], 3) == 0.971  # H(D), example 5.2
    gains = est.candidates(0).set_index("feature")["gain"]
    assert {f: round(g, 3) for f, g in gains.items()} == {
        "年龄": 0.083, "有工作": 0.324, "有自己的房子": 0.420, "信贷情况": 0.363}
    assert est.steps_[0].feature_name == "有自己的房子"
    assert est.steps_[0].kind == "multiway"
    # the lecture notes' worked example: H(D|A1) = 0.888 for age
    assert round(H(9, 6) - gains["年龄"], 3) == 0.888


def test_loan_gain_ratios(loan):
    X, y = loan
    table_ = candidate_splits(X, y, criterion="gain_ratio", multiway=True).set_index("feature")
    expected_split_info = {"年龄": H(5, 5, 5), "有工作": H(5, 10), "有自己的房子": H(6, 9),
                           "信贷情况": H(5, 6, 4)}
    for feature, si in expected_split_info.items():
        assert table_.loc[feature, "split_info"] == pytest.approx(si)
        assert table_.loc[feature, "gain_ratio"] == pytest.approx(table_.loc[feature, "gain"] / si)
    assert round(table_.loc["有自己的房子", "gain_ratio"], 3) == 0.433
    assert round(table_.loc["年龄", "gain_ratio"], 3) == 0.052


def test_loan_gini_best_binary_partitions(loan):
    """Example 5.4: Gini(D, A) of each feature's best binary partition."""
    X, y = loan
    est = DecisionTreeClassifier(algorithm="cart", max_depth=1).fit(X, y)
    root = est.tree_.impurity[0]
    assert root == pytest.approx(1 - (9 / 15) ** 2 - (6 / 15) ** 2)
    cands = est.candidates(0).set_index("feature")
    gini_after = {f: round(root - g, 2) for f, g in cands["gain"].items()}
    assert gini_after == {"年龄": 0.44, "有工作": 0.32, "有自己的房子": 0.27, "信贷情况": 0.32}
    assert cands.loc["有自己的房子", "kind"] == "subset"
    assert est.steps_[0].feature_name == "有自己的房子"


def test_id3_tree_on_loan_is_li_hangs(loan):
    """Example 5.3: 有自己的房子, then 有工作; every leaf pure."""
    X, y = loan
    est = DecisionTreeClassifier(algorithm="id3").fit(X, y)
    assert [s.feature_name for s in est.steps_] == ["有自己的房子", "有工作"]
    assert est.get_n_leaves() == 3
    assert est.score(X, y) == 1.0
    text = export_text(est, feature_names=list(est.feature_names_in_))
    assert "有自己的房子 = 是" in text and "有工作 = 否" in text


# ---------------------------------------------------------------------------
# The lecture notes' cat example (Andrew Ng) and Mitchell's PlayTennis
# ---------------------------------------------------------------------------

def test_cat_gains():
    frame = table("cats.csv")
    gains = candidate_splits(frame.drop(columns="cat"), frame["cat"], multiway=True)
    gains = gains.set_index("feature")["gain"].round(2).to_dict()
    assert gains == {"ear_shape": 0.28, "face_shape": 0.03, "whiskers": 0.12}


def test_playtennis_gains_as_printed():
    frame = table("playtennis.csv", drop="Day")
    X, y = frame.drop(columns="PlayTennis"), frame["PlayTennis"]
    est = DecisionTreeClassifier(algorithm="id3").fit(X, y)
    gains = est.candidates(0).set_index("feature")["gain"]
    printed = {"Outlook": 0.246, "Humidity": 0.151, "Wind": 0.048, "Temperature": 0.029}
    for feature, value in printed.items():
        assert abs(gains[feature] - value) <= 0.0011
    # Mitchell rounds the entropies to three places before subtracting
    assert round(0.940 - 7 / 14 * 0.985 - 7 / 14 * 0.592, 3) == printed["Humidity"]
    assert est.steps_[0].feature_name == "Outlook"
    # Mitchell's final tree: Outlook; Sunny -> Humidity; Rain -> Wind
    assert sorted(s.feature_name for s in est.steps_) == ["Humidity", "Outlook", "Wind"]
    assert est.score(X, y) == 1.0


# ---------------------------------------------------------------------------
# Zhou Zhihua, Machine Learning ch. 4: watermelon 2.0 and 2.0alpha
# ---------------------------------------------------------------------------

def test_watermelon_gains_and_tree():
    frame = table("watermelon2.csv", drop="编号")
    X, y = frame.drop(columns="好瓜"), frame["好瓜"]
    est = DecisionTreeClassifier(algorithm="id3").fit(X, y)
    assert round(est.tree_.impurity[0], 3) == 0.998
    gains = est.candidates(0).set_index("feature")["gain"]
    printed = {"色泽": 0.109, "根蒂": 0.143, "敲声": 0.141, "纹理": 0.381, "脐部": 0.289,
               "触感": 0.006}
    for feature, value in printed.items():
        assert abs(gains[feature] - value) <= 0.0011, feature
    # the book's 0.109 for 色泽 comes from its rounded entropies 0.998 - 0.889
    assert round(gains["色泽"], 3) == 0.108
    assert round(0.998 - (6 / 17 * 1.000 + 6 / 17 * 0.918 + 5 / 17 * 0.722), 3) == 0.109
    # Figure 4.4
    text = export_text(est, feature_names=list(est.feature_names_in_))
    expected = ["纹理 = 模糊", "纹理 = 清晰", "根蒂 = 硬挺", "根蒂 = 稍蜷", "色泽 = 乌黑",
                "触感 = 硬滑", "触感 = 软粘", "色泽 = 青绿", "根蒂 = 蜷缩", "纹理 = 稍糊"]
    lines = [line.strip("|- ") for line in text.splitlines()]
    positions = [lines.index(e) for e in expected]
    assert positions == sorted(positions)
    # The book also draws a leaf for 色泽 = 浅白 under 根蒂 = 稍蜷, a value no
    # training row there has; dtree makes branches only for values present in
    # the node and sends unseen values to the heaviest branch.
    assert est.get_n_leaves() == 8 and est.score(X, y) == 1.0


def test_watermelon_alpha_missing_values_c45_rule():
    frame = table("watermelon2_alpha.csv", drop="编号")
    X, y = frame.drop(columns="好瓜"), frame["好瓜"]
    est = DecisionTreeClassifier(criterion="entropy", multiway=True, missing="c4.5").fit(X, y)
    cands = est.candidates(0).set_index("feature")
    printed = {"色泽": 0.252, "根蒂": 0.171, "敲声": 0.145, "纹理": 0.424, "脐部": 0.289,
               "触感": 0.006}
    for feature, value in printed.items():
        assert round(cands.loc[feature, "gain"], 3) == value, feature
    # 色泽: rho = 14/17 of the rows are known, Gain(D~) = 0.306
    assert cands.loc["色泽", "missing_fraction"] == pytest.approx(3 / 17)
    known_gain = H(6, 8) - (4 / 14 * H(2, 2) + 6 / 14 * H(4, 2) + 4 / 14 * H(0, 4))
    assert round(known_gain, 3) == 0.306
    assert cands.loc["色泽", "gain"] == pytest.approx(14 / 17 * known_gain)
    # samples 8 and 10 (纹理 unknown) go down all three branches: 7/15, 5/15, 3/15
    step = est.steps_[0]
    assert step.feature_name == "纹理"
    shares = dict(zip(step.branches, est.tree_.child_share[:3]))
    assert shares == pytest.approx({"清晰": 7 / 15, "稍糊": 5 / 15, "模糊": 3 / 15})
    weights = dict(zip(step.branches, est.tree_.weighted_n_node_samples[step.children]))
    assert weights == pytest.approx({"清晰": 7 + 14 / 15, "稍糊": 5 + 10 / 15, "模糊": 3 + 6 / 15})
    assert [int(n) for n in step.n_children_samples] == [5, 9, 7]  # 模糊, 清晰, 稍糊 + 2 each


def test_c45_prediction_combines_branches_by_weight():
    frame = table("watermelon2_alpha.csv", drop="编号")
    X, y = frame.drop(columns="好瓜"), frame["好瓜"]
    est = DecisionTreeClassifier(algorithm="c4.5").fit(X, y)
    # a row split across branches counts by its fractions in min_samples_leaf
    # (1 by default): no node holds less than one whole row
    assert est.tree_.weighted_n_node_samples.min() >= 1 - 1e-9
    assert est.score(X, y) >= 16 / 17
    row = X.iloc[[0]].copy()
    row["纹理"] = np.nan
    proba = est.predict_proba(row)[0]
    tree = est.tree_
    shares = tree.child_share[:tree.n_children[0]]
    branch_probas = []
    for child in tree.children_of(0):
        sub = row.copy()
        label = est.steps_[0].branches[tree.children_of(0).index(child)]
        sub["纹理"] = label
        branch_probas.append(est.predict_proba(sub)[0])
    np.testing.assert_allclose(proba, np.dot(shares, branch_probas))
    assert proba.sum() == pytest.approx(1.0)


# ---------------------------------------------------------------------------
# Behaviour: presets, labels, unseen categories, bad input
# ---------------------------------------------------------------------------

def test_presets_set_what_they_document(loan):
    X, y = loan
    id3 = DecisionTreeClassifier(algorithm="id3").fit(X, y)
    assert (id3.criterion_, id3.multiway_, id3.missing_) == ("entropy", True, "error")
    c45 = DecisionTreeClassifier(algorithm="c4.5").fit(X, y)
    assert (c45.criterion_, c45.multiway_, c45.missing_) == ("gain_ratio", True, "c4.5")
    cart = DecisionTreeClassifier(algorithm="cart", criterion="entropy").fit(X, y)
    assert (cart.criterion_, cart.multiway_, cart.missing_) == ("entropy", False, "cart")
    assert list(c45.is_categorical_) == [True] * 4
    assert list(c45.categories_[0]) == ["中年", "老年", "青年"]


def test_c45_average_gain_rule(loan):
    X, y = loan
    est = DecisionTreeClassifier(algorithm="c4.5", max_depth=1).fit(X, y)
    cands = est.candidates(0).set_index("feature")
    mean_gain = cands["gain"].mean()
    assert list(cands.index[cands["eligible"]]) == [f for f in cands.index
                                                     if cands.loc[f, "gain"] >= mean_gain]
    assert not cands.loc["年龄", "eligible"]


def test_categorical_feature_not_reused_on_a_path():
    frame = table("watermelon2.csv", drop="编号")
    est = DecisionTreeClassifier(algorithm="id3").fit(frame.drop(columns="好瓜"), frame["好瓜"])
    tree = est.tree_
    for leaf in np.flatnonzero(tree.is_leaf()):
        used, node = [], tree.parent[leaf]
        while node >= 0:
            used.append(tree.feature[node])
            node = tree.parent[node]
        assert len(used) == len(set(used))


def test_unseen_category_goes_to_the_majority_branch(loan):
    X, y = loan
    est = DecisionTreeClassifier(algorithm="id3", max_depth=1).fit(X, y)
    new = X.iloc[[0]].copy()
    new["有自己的房子"] = "租的"  # never seen
    leaf = est.apply(new)[0]
    heaviest = max(est.tree_.children_of(0), key=lambda c: est.tree_.weighted_n_node_samples[c])
    assert leaf == heaviest


def test_id_like_column_gain_ratio_penalty(loan):
    """An identifier has the largest gain (every branch pure) but a large
    split information; gain ratio ranks it below the informative features."""
    X, y = loan
    X = X.assign(ID=[f"id{i}" for i in range(len(X))])
    gain = candidate_splits(X, y, criterion="entropy", multiway=True).set_index("feature")
    ratio = candidate_splits(X, y, criterion="gain_ratio", multiway=True).set_index("feature")
    assert gain.index[0] == "ID" and gain.loc["ID", "gain"] == pytest.approx(H(9, 6))
    assert ratio.loc["ID", "split_info"] == pytest.approx(math.log2(15))
    assert ratio.index[0] == "有自己的房子"


def test_one_category_and_all_missing_columns():
    X = pd.DataFrame({"same": ["a"] * 8, "empty": [np.nan] * 8,
                      "x": [1, 2, 3, 4, 5, 6, 7, 8]})
    X["empty"] = X["empty"].astype(object)
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    est = DecisionTreeClassifier(algorithm="c4.5", categorical_features=["same", "empty"]).fit(X, y)
    assert est.steps_[0].feature_name == "x"
    evaluated = est.candidates(0).set_index("feature")
    assert np.isnan(evaluated.loc["same", "gain"]) if "same" in evaluated.index else True


def test_too_many_categories_is_a_clear_error():
    X = pd.DataFrame({"code": [f"c{i}" for i in range(1500)]})
    with pytest.raises(ValueError, match="1500 categories"):
        DecisionTreeClassifier().fit(X, np.arange(1500) % 2)


def test_id3_refuses_missing_values_with_a_clear_message():
    frame = table("watermelon2_alpha.csv", drop="编号")
    with pytest.raises(ValueError, match="ID3 has no rule"):
        DecisionTreeClassifier(algorithm="id3").fit(frame.drop(columns="好瓜"), frame["好瓜"])


@pytest.mark.parametrize("n_categories", [3, 6, 12])
def test_subset_split_is_optimal(n_categories):
    """CART's binary split of a categorical feature equals the best of all
    2^(k-1) - 1 subsets: exactly for two classes and for regression (ordering
    by class share / mean), by search for more classes up to the limit."""
    rng = np.random.default_rng(n_categories)
    codes = rng.integers(0, n_categories, 300)
    X = pd.DataFrame({"c": pd.Categorical([f"v{c}" for c in codes])})
    for k_classes in (2, 3):
        y = (codes * 7 + rng.integers(0, 3, 300)) % k_classes
        est = DecisionTreeClassifier(max_depth=1).fit(X, y)
        best = _brute_force_subset_gini(codes, y, n_categories)
        if k_classes == 2 or n_categories <= 10:
            assert est.steps_[0].gain == pytest.approx(best)
        else:  # the heuristic beyond the limit: never better than the optimum
            assert est.steps_[0].gain <= best + 1e-12
    target = codes * 1.5 + rng.normal(size=300)
    reg = DecisionTreeRegressor(max_depth=1).fit(X, target)
    assert reg.steps_[0].kind == "subset"
    assert reg.steps_[0].gain == pytest.approx(_brute_force_subset_mse(codes, target, n_categories))


def _brute_force_subset_gini(codes, y, k):
    def gini(labels):
        if len(labels) == 0:
            return 0.0
        p = np.bincount(labels) / len(labels)
        return 1 - np.sum(p ** 2)
    root, best = gini(y), 0.0
    for bits in range(1, 2 ** (k - 1)):
        left = np.isin(codes, [c for c in range(k) if c == 0 or bits >> (c - 1) & 1])
        if left.all() or not left.any():
            continue
        g = root - left.mean() * gini(y[left]) - (~left).mean() * gini(y[~left])
        best = max(best, g)
    return best


def _brute_force_subset_mse(codes, y, k):
    root, best = np.var(y), 0.0
    for bits in range(1, 2 ** (k - 1)):
        left = np.isin(codes, [c for c in range(k) if c == 0 or bits >> (c - 1) & 1])
        if left.all() or not left.any():
            continue
        best = max(best, root - left.mean() * np.var(y[left]) - (~left).mean() * np.var(y[~left]))
    return best


def test_cart_missing_values_match_sklearn():
    from sklearn.tree import DecisionTreeClassifier as SkTree

    from tests.helpers.sklearn_match import assert_matches_sklearn

    for seed in range(4):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(400, 4)).astype(np.float32)
        y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
        X[rng.random(X.shape) < 0.15] = np.nan
        X[:50, 3] = np.nan
        for params in ({"max_depth": 3}, {"min_samples_leaf": 5, "max_depth": 6},
                       {"max_leaf_nodes": 12}):
            ours = DecisionTreeClassifier(**params).fit(X, y)
            theirs = SkTree(random_state=0, **params).fit(X, y)
            # missing sides, predictions and ids included
            assert_matches_sklearn(ours, theirs, X, y)


def test_multiway_tree_refuses_binary_view_and_exports(loan):
    melon = table("watermelon2.csv", drop="编号")
    three_way = DecisionTreeClassifier(algorithm="id3").fit(melon.drop(columns="好瓜"),
                                                            melon["好瓜"])
    with pytest.raises(ValueError, match="multiway"):
        three_way.tree_.children_left
    assert len(three_way.tree_.children_of(0)) == 3  # 模糊, 清晰, 稍糊
    X, y = loan
    est = DecisionTreeClassifier(algorithm="id3").fit(X, y)
    from dtree import export_graphviz

    dot = export_graphviz(est)
    assert dot.count(" -> ") == est.tree_.node_count - 1
    assert 'label="是"' in dot and 'label="否"' in dot  # edges name their category
    assert "有自己的房子 = ?" in dot and "entropy = 0.971" in dot
    path = est.decision_path(X).toarray()
    assert path.shape == (15, est.tree_.node_count)
    np.testing.assert_array_equal(path[np.arange(15), est.apply(X)], 1)


def test_binary_categorical_tree_keeps_sklearn_view(loan):
    X, y = loan
    est = DecisionTreeClassifier(algorithm="cart").fit(X, y)
    left = est.tree_.children_left
    assert left[0] == 1 and est.tree_.kind[0] == 1
    from dtree import export_graphviz

    assert "有自己的房子 in {是}" in export_graphviz(est)
