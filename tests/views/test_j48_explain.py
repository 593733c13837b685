"""J48's own numbers in the candidate tables and the explanations:
the MDL penalty, the unknown branch of the split information, the known
fraction, and the minimum-objects stop reason.

The expected numbers are computed here from scratch, with plain loops over
the rows (not with dtree._j48), and the stop reasons are checked against
Weka's J48 where Weka is installed.
"""

import math

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier
from dtree.views import explain
from tests.helpers.latex_text import plain
from tests.helpers.weka import (EXAMPLES, compare, count_leaves, dtree_tree, j48_text, parse_tree,
                        read_arff, require_weka, write_arff)

# runs Weka (a JVM) as its oracle: left out of the quick tier (make test-fast)
pytestmark = pytest.mark.weka

MIN_OBJECTS = "fewer than 2 branches with >= min_objects rows"


def entropy(counts):
    total = sum(counts)
    return -sum(c / total * math.log2(c / total) for c in counts if c > 0)


def by_hand(x, y, classes, m=2):
    """J48's numbers for one numeric attribute at a root of unit weights:
    (number of admissible cuts, gain before the penalty, penalty, gain after,
    split information with the unknown branch, unknown term)."""
    W = len(x)
    known = sorted((v, c) for v, c in zip(x, y) if v == v)
    K = len(known)
    min_split = min(max(0.1 * K / len(classes), m), 25)
    all_counts = [sum(1 for _, c in known if c == k) for k in classes]
    best, best_left, cuts = -1.0, None, 0
    for i in range(K - 1):
        if not known[i][0] + 1e-5 < known[i + 1][0]:
            continue
        left = [sum(1 for _, c in known[:i + 1] if c == k) for k in classes]
        right = [a - b for a, b in zip(all_counts, left)]
        if sum(left) < min_split or sum(right) < min_split:
            continue
        cuts += 1
        inner = entropy(all_counts) - (sum(left) * entropy(left)
                                       + sum(right) * entropy(right)) / K
        gain = K / W * inner
        if gain > best + 1e-6:  # Weka keeps the first of near-equal cuts
            best, best_left = gain, sum(left)
    penalty = math.log2(cuts) / W
    sizes = [best_left, K - best_left, W - K]
    unknown_term = -(W - K) / W * math.log2((W - K) / W) if W > K else 0.0
    info = -sum(s / W * math.log2(s / W) for s in sizes if s > 0)
    return cuts, best, penalty, best - penalty, info, unknown_term


def small_data(seed=3, n=60):
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=n), 2)
    y = np.where(x + rng.normal(scale=0.8, size=n) > 0.2, "yes", "no")
    x[rng.random(n) < 0.15] = np.nan
    z = np.round(rng.uniform(size=n), 1)  # few distinct values, weak signal
    return pd.DataFrame({"x": x, "z": z}), y


def test_mdl_penalty_and_unknown_branch_equal_the_hand_computation():
    X, y = small_data()
    est = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    table = est.candidates(0).set_index("feature")
    classes = list(est.classes_)
    for name in ("x", "z"):
        cuts, before, penalty, after, info, unknown = by_hand(list(X[name]), list(y), classes)
        row = table.loc[name]
        assert row["n_cuts"] == cuts
        assert row["gain_before_mdl"] == pytest.approx(before, abs=1e-12)
        assert row["mdl_penalty"] == pytest.approx(penalty, abs=1e-12)
        assert row["min_branch_weight"] == pytest.approx(
            min(max(0.1 * X[name].notna().sum() / 2, 2), 25))
        if after > 1e-6:
            assert row["gain"] == pytest.approx(after, abs=1e-12)
            assert row["split_info"] == pytest.approx(info, abs=1e-12)
            assert row["split_info_unknown"] == pytest.approx(unknown, abs=1e-12)
            assert row["rejected"] == ""
        else:
            assert np.isnan(row["gain"]) and row["rejected"] == "MDL penalty >= gain"
    # x has missing values: its known fraction and unknown branch are shown
    row = table.loc["x"]
    assert row["missing_fraction"] == pytest.approx(X["x"].isna().mean())
    assert row["split_info_unknown"] > 0
    assert sum(row["children_known_weight"]) == X["x"].notna().sum()
    # the chosen split's step carries the penalised gain
    assert est.steps_[0].gain == pytest.approx(table.loc[est.steps_[0].feature_name, "gain"])



def test_formulas_show_the_tables_numbers():
    X, y = small_data()
    est = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    s = est.steps_[0]
    row = s.candidates.iloc[0]
    W = s.weighted_n_node_samples
    line = plain(explain.mdl_gain_latex(W, row["n_cuts"], row["gain_before_mdl"], s.gain))
    assert rf"\log_2 {int(row['n_cuts'])}" in line and rf"{{{int(W)}}}" in line
    assert line.endswith(f"= {explain.num(s.gain)}")
    assert explain.num(math.log2(row["n_cuts"]) / W) in line
    info, ratio = explain.unknown_split_info_latex(W, row["children_known_weight"],
                                                   s.split_info, s.gain, s.gain_ratio)
    info = plain(info)
    unknown = int(round(W - sum(row["children_known_weight"])))
    assert rf"\frac{{{unknown}}}{{{int(W)}}}\log_2" in info
    assert explain.num(row["split_info_unknown"]) in info
    assert info.endswith(f"= {explain.num(s.split_info)}")
    assert ratio.endswith(f"= {explain.num(s.gain_ratio)}")
    known = explain.known_fraction_latex(W, sum(row["children_known_weight"]))
    assert known.endswith(explain.num(1 - row["missing_fraction"]))
    assert explain.min_objects_latex(3.2, 2) == r"|D| = 3.20 < 2M = 2 \times 2 = 4"


def _weka_leaves(tmp_path, X, y, m=2):
    path = write_arff(tmp_path / "d.arff", X, pd.Series(y, dtype="category"))
    return count_leaves(parse_tree(j48_text(path, "-U", "-M", str(m)), X.columns))


def test_min_objects_stops_a_heavy_node_where_j48_does(tmp_path):
    # 9 rows, but only one value of the nominal feature has >= 2 of them:
    # no split leaves 2 branches with >= M = 2 rows, so the root is a leaf
    X = pd.DataFrame({"a": pd.Categorical(["p"] * 8 + ["q"], categories=["p", "q"])})
    y = np.array(["u", "v"] * 4 + ["v"])
    est = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    assert est.get_n_leaves() == 1
    assert est.tree_.stop_reason[0] == MIN_OBJECTS
    table = est.candidates(0)
    assert table["rejected"].tolist() == [MIN_OBJECTS]
    assert table["children_known_weight"].iloc[0] == (8.0, 1.0)
    # with M = 1 both branches qualify and the node is searched on
    assert DecisionTreeClassifier(algorithm="j48", min_objects=1).fit(X, y) \
        .candidates(0)["rejected"].tolist() == [""]
    require_weka()
    assert _weka_leaves(tmp_path, X, y) == 1


@pytest.mark.parametrize("name", ["vote", "labor"])
def test_leaves_stop_for_min_objects_where_j48_does(name):
    require_weka(data_only=True)
    path = EXAMPLES / f"{name}.arff"
    X, y = read_arff(path)
    est = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    tree = est.tree_
    stopped = [i for i in np.flatnonzero(tree.is_leaf()) if tree.stop_reason[i] == MIN_OBJECTS]
    assert stopped
    for i in stopped:
        w = tree.weighted_n_node_samples[i]
        if w < 4 - 1e-6:
            continue  # lighter than 2M: no search at all
        # heavier: searched, and every attribute failed the rule (or is constant)
        table = est.candidates(i)
        assert set(table["rejected"]) <= {MIN_OBJECTS, "no cut point"}
        assert MIN_OBJECTS in set(table["rejected"])
        for row in table.itertuples():
            if row.rejected == MIN_OBJECTS and isinstance(row.children_known_weight, tuple):
                assert sum(v >= row.min_branch_weight - 1e-6
                           for v in row.children_known_weight) < 2
    # and J48 grows the same tree (so it stops at the same nodes)
    require_weka()
    theirs = parse_tree(j48_text(path, "-U", "-M", "2"), X.columns)
    compare(dtree_tree(est), theirs)


def test_mdl_penalty_stops_a_split_where_j48_does(tmp_path):
    # a weak signal over many distinct values: the best cut gains less than
    # log2(cuts)/W, so J48 does not split (the penalty alone decides)
    x = np.arange(24, dtype=float)
    y = np.array(["a", "b", "a", "a", "b", "a", "b", "b"] * 3)
    X = pd.DataFrame({"x": x})
    est = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    row = est.candidates(0).iloc[0]
    assert 0 < row["gain_before_mdl"] < row["mdl_penalty"]
    assert row["rejected"] == "MDL penalty >= gain"
    assert est.get_n_leaves() == 1 and est.tree_.stop_reason[0] == "no valid split"
    require_weka()
    assert _weka_leaves(tmp_path, X, y) == 1
