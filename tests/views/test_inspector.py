"""dtree.views.inspector: the node inspector's titles, blocks of formulas,
candidate tables and gain charts, checked against the estimator's own
candidates and arrays (Iris, Li Hang's loan table, the watermelons with
missing values, J48 on the penguins), in English and Chinese."""

import math

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views import explain, inspector
from dtree.views.links import md
from tests.helpers.data_files import read


@pytest.fixture(scope="module")
def iris():
    return read("iris.csv", "species")


@pytest.fixture(scope="module")
def iris_gini(iris):
    return DecisionTreeClassifier(max_depth=3, random_state=0).fit(*iris)


@pytest.fixture(scope="module")
def loan():
    X, y = read("loan.csv", "类别", drop="ID")
    return X.astype(object), y


@pytest.fixture(scope="module")
def melon_c45():
    X, y = read("watermelon2_alpha.csv", "好瓜", drop="编号")
    return DecisionTreeClassifier(algorithm="c4.5").fit(X.astype(object), y), X.astype(object), y


@pytest.fixture(scope="module")
def penguins_j48():
    X, y = read("penguins.csv", "species")
    model = DecisionTreeClassifier(algorithm="j48", categorical_features=["island", "sex"])
    return model.fit(X, y), X, y


def kinds(blocks):
    return [kind for kind, _ in blocks]


# -- titles and the node followed --------------------------------------------------

def test_follow_node_is_the_node_split_last(iris_gini):
    assert inspector.follow_node(iris_gini, 0) == 0
    for k, s in enumerate(iris_gini.steps_, start=1):
        assert inspector.follow_node(iris_gini, k) == s.node


def test_node_titles_name_splits_and_leaves(iris_gini):
    tree = iris_gini.tree_at(2)
    steps = {s.node: s for s in iris_gini.steps_}
    titles = inspector.node_titles(iris_gini, tree, steps)
    assert len(titles) == tree.node_count
    for i, nid in enumerate(int(v) for v in tree.node_ids):
        if tree.children_of(i):
            name = iris_gini.feature_names_in_[tree.feature[i]]
            assert titles[i] == f"#{nid}: {name} ≤ {tree.threshold[i]:.4g}"
        else:
            assert titles[i] == f"#{nid}: leaf, {tree.n_node_samples[i]:,} rows"
    assert titles[0] == "#0: petal length (cm) ≤ 2.45"
    zh = inspector.node_titles(iris_gini, tree, steps, "zh")
    assert zh[0] == "#0：petal length (cm) ≤ 2.45"
    assert any(t.endswith("个样本") and "叶结点" in t for t in zh)


def test_multiway_titles_count_branches(loan):
    model = DecisionTreeClassifier(algorithm="id3").fit(*loan)
    steps = {s.node: s for s in model.steps_}
    titles = inspector.node_titles(model, model.tree_, steps)
    assert titles[0] == "#0: 有自己的房子 (2 branches)"
    assert inspector.node_titles(model, model.tree_, steps, "zh")[0] == "#0：有自己的房子（2 个分支）"


def test_node_heading(iris_gini):
    tree = iris_gini.tree_
    assert inspector.node_heading(tree, 0, 0) == "Node #0: depth 0, 150 rows"
    assert inspector.node_heading(tree, 0, 0, "zh") == "结点 #0：深度 0，150 个样本"


# -- the blocks of the right column -------------------------------------------------

def test_root_blocks_of_a_gini_split(iris_gini):
    s = iris_gini.steps_[0]
    blocks = inspector.node_blocks(iris_gini, iris_gini.tree_at(1), 0, 0, s, 1)
    assert kinds(blocks) == ["markdown", "latex", "latex", "latex", "caption", "latex"]
    assert blocks[0][1] == f"Split in step 1 on **{md('petal length (cm)')}** ≤ 2.45."
    assert blocks[1][1] == explain.impurity_definition("gini")
    assert blocks[2][1] == explain.impurity_latex("gini", [50, 50, 50], value=2 / 3)
    assert blocks[2][1].removesuffix(r" \end{aligned}").endswith("= 0.667")
    assert blocks[3][1].endswith(f"= {s.gain:.3f}" + r"\end{aligned}")
    assert blocks[4][1].startswith("D₁: the rows with the split feature ≤ the threshold")
    assert blocks[5][1] == explain.improvement_latex(150, 150, s.gain, s.improvement)


def test_a_node_before_its_step_is_a_leaf_for_now(iris_gini):
    s = iris_gini.steps_[1]
    tree = iris_gini.tree_at(1)
    i = list(tree.node_ids).index(s.node)
    status = inspector.node_blocks(iris_gini, tree, i, s.node, s, 1)[0][1]
    assert status.startswith("A leaf for now: step 2 will split it on ")
    zh = inspector.node_blocks(iris_gini, tree, i, s.node, s, 1, "zh")[0][1]
    assert zh.startswith("目前是叶结点：第 2 步将按 ")


def test_a_final_leaf_says_why_and_has_no_gain(iris_gini):
    tree = iris_gini.tree_
    leaf = next(i for i in range(tree.node_count) if tree.stop_reason[i] == "pure")
    blocks = inspector.node_blocks(iris_gini, tree, leaf, leaf, None, 99)
    assert kinds(blocks) == ["markdown", "latex", "latex"]
    assert blocks[0][1] == "A leaf of the final tree (it stops because of: pure)."
    zh = inspector.node_blocks(iris_gini, tree, leaf, leaf, None, 99, "zh")
    assert zh[0][1] == "最终决策树的叶结点（停止划分的原因：纯结点（不纯度为 0））。"
    assert r"\text{纯结点}" in zh[2][1] and r"\text{a pure node}" in blocks[2][1]


def test_gain_ratio_blocks_add_the_split_information(iris):
    model = DecisionTreeClassifier(criterion="gain_ratio", max_depth=2).fit(*iris)
    s = model.steps_[0]
    blocks = inspector.node_blocks(model, model.tree_, 0, 0, s, 1)
    w = model.tree_.weighted_n_node_samples
    info = explain.branches_split_info_latex(w[0], [w[c] for c in s.children], s.split_info,
                                             s.gain, s.gain_ratio)
    assert [v for k, v in blocks if k == "latex"][-3:-1] == list(info)


def test_regression_blocks(iris):
    X, y = iris
    model = DecisionTreeRegressor(max_depth=2).fit(X.iloc[:, :3], X.iloc[:, 3])
    tree = model.tree_
    blocks = inspector.node_blocks(model, tree, 0, 0, model.steps_[0], 1)
    assert blocks[2][1] == explain.regression_latex("squared_error", 150,
                                                    tree.value[0, 0, 0], tree.impurity[0])


def test_c45_missing_values_scale_the_gain_by_rho(melon_c45):
    model = melon_c45[0]
    s = model.steps_[0]
    rho = inspector.known_fraction(model, s)
    chosen = s.candidates[s.candidates["chosen"]].iloc[0]
    assert rho == pytest.approx(1 - chosen["missing_fraction"]) and rho < 1
    caption = dict((k, v) for k, v in inspector.node_blocks(model, model.tree_, 0, 0, s, 1)
                   if k == "caption")["caption"]
    assert caption.startswith(f"C4.5's rule for missing values: ρ = {rho:.3f} of this node's")
    zh = [v for k, v in inspector.node_blocks(model, model.tree_, 0, 0, s, 1, "zh")
          if k == "caption"]
    assert zh[0].startswith(f"C4.5 的缺失值处理：该结点的权重中有 ρ = {rho:.3f}")
    assert inspector.j48_row(model, s) is None  # not J48


def test_multiway_caption_lists_the_branches(loan):
    model = DecisionTreeClassifier(algorithm="id3").fit(*loan)
    s = model.steps_[0]
    caption = [v for k, v in inspector.node_blocks(model, model.tree_, 0, 0, s, 1)
               if k == "caption"][0]
    branches = ", ".join(f"{v + 1} = {b}" for v, b in enumerate(s.branches))
    assert caption == f"D_v: the rows in branch v ({branches})."


def test_j48_root_blocks_have_the_mdl_penalty(penguins_j48):
    model = penguins_j48[0]
    s = model.steps_[0]
    row = inspector.j48_row(model, s)
    assert row is not None and row["feature"] == s.feature_name
    cuts, penalty = int(row["n_cuts"]), row["mdl_penalty"]
    weight = float(model.tree_.weighted_n_node_samples[0])
    assert penalty == pytest.approx(math.log2(cuts) / weight)
    blocks = inspector.j48_blocks(s, row, weight, True)
    latex = [v for k, v in blocks if k == "latex"]
    assert explain.mdl_gain_latex(weight, row["n_cuts"], row["gain_before_mdl"], s.gain) in latex
    captions = [v for k, v in blocks if k == "caption"]
    assert captions[0].startswith(f"J48's MDL penalty: choosing among C = {cuts} admissible")
    assert f"{penalty:.4f} bits" in captions[0]
    assert any(v.startswith("J48 counts the rows with an unknown value") for v in captions)
    zh = [v for k, v in inspector.j48_blocks(s, row, weight, True, "zh") if k == "caption"]
    assert zh[0].startswith(f"J48 的 MDL 惩罚：在 C = {cuts} 个可选切分点中选一个")


def test_min_objects_leaf_too_light_for_two_branches(penguins_j48):
    model = penguins_j48[0]
    tree = model.tree_
    light = [i for i in range(tree.node_count) if tree.stop_reason[i] == inspector.MIN_OBJECTS]
    assert light
    nid = light[0]
    weight = float(tree.weighted_n_node_samples[nid])
    assert weight < 2 * model.min_objects
    blocks = inspector.min_objects_blocks(model, nid)
    assert blocks == [("latex", explain.min_objects_latex(weight, 2.0)),
                      ("caption", "Two branches of at least M = 2 rows each need 2M rows; "
                                  f"this node has {weight:.2f}.")]
    # node_blocks shows them after the status, before the impurity
    assert kinds(inspector.node_blocks(model, tree, nid, nid, None, 99))[:3] == [
        "markdown", "latex", "caption"]


def test_min_objects_table_when_no_feature_can_split():
    X = pd.DataFrame({"a": [0, 0, 0, 0, 0, 1.0], "c": ["x", "x", "x", "x", "x", "y"]})
    model = DecisionTreeClassifier(algorithm="j48", categorical_features=["c"])
    model.fit(X, ["p", "q", "p", "q", "p", "q"])
    assert model.tree_.stop_reason[0] == inspector.MIN_OBJECTS  # 6 rows, but 5 | 1
    blocks = inspector.min_objects_blocks(model, 0)
    assert kinds(blocks) == ["caption", "table"]
    table = blocks[1][1]
    assert table.to_dict("list") == {
        "feature": ["a", "c"], "known weight per branch": ["–", "5.00 | 1.00"],
        "minimum per branch": ["2.00", "2.00"],
        "why not": [inspector.MIN_OBJECTS, inspector.MIN_OBJECTS]}
    zh = inspector.min_objects_table(model.candidates(0), "zh")
    assert list(zh.columns) == ["特征", "各分支已知权重", "每个分支的最小权重", "不能划分的原因"]
    assert zh["不能划分的原因"].tolist() == ["少于 2 个分支的样本数不小于 min_objects"] * 2


# -- candidate tables ---------------------------------------------------------------

def test_candidate_table_matches_the_estimators_candidates(iris_gini):
    cand = iris_gini.candidates(0)
    table = inspector.candidate_table(cand, "gini")
    assert list(table.columns) == ["chosen", "feature", "split", "gain", "gain ratio",
                                   "impurity left", "impurity right", "rows left",
                                   "rows right"]
    assert len(table) == len(cand)
    assert table["chosen"].tolist() == ["✔" if c else "" for c in cand["chosen"]]
    assert table["chosen"].iloc[0] == "✔"  # the chosen one first
    assert table["feature"].tolist() == [md(f) for f in cand["feature"]]
    assert table["split"].tolist() == [f"≤ {t:.4g}" for t in cand["threshold"]]
    assert [float(g) for g in table["gain"]] == pytest.approx(cand["gain"], abs=5e-5)
    assert [int(n) for n in table["rows left"]] == cand["n_left"].astype(int).tolist()
    assert [float(v) for v in table["impurity right"]] == pytest.approx(
        cand["impurity_right"], abs=5e-5)
    plain = inspector.candidate_table(cand, "gini", markdown=False)
    assert plain["feature"].tolist() == list(cand["feature"])  # not escaped


def test_candidate_table_in_chinese_names_the_information_gain(iris):
    model = DecisionTreeClassifier(criterion="entropy", max_depth=1).fit(*iris)
    zh = inspector.candidate_table(model.candidates(0), "entropy", "zh")
    assert list(zh.columns)[:5] == ["选中", "特征", "划分", "信息增益", "信息增益比"]
    gini = inspector.candidate_table(model.candidates(0), "gini", "zh")
    assert "增益" in gini.columns and "信息增益" not in gini.columns


def test_multiway_candidates_show_each_branch(loan):
    model = DecisionTreeClassifier(algorithm="id3").fit(*loan)
    cand = model.candidates(0)
    table = inspector.candidate_table(cand, "entropy")
    assert "impurity per branch" in table.columns and "rows left" not in table.columns
    assert table["rows per branch"].tolist() == [
        " | ".join(str(n) for n in sizes) for sizes in cand["children_samples"]]
    root = table[table["chosen"] == "✔"].iloc[0]
    assert root["feature"] == "有自己的房子" and root["gain"] == "0.4200"  # Li Hang: 0.420


def test_missing_values_add_the_missing_column(melon_c45):
    model = melon_c45[0]
    cand = model.candidates(0)
    table = inspector.candidate_table(cand, model.criterion_)
    assert table["missing"].tolist() == [f"{v:.1%}" for v in cand["missing_fraction"]]


def test_j48_candidates_have_their_own_columns(penguins_j48):
    model = penguins_j48[0]
    cand = model.candidates(0)
    table = inspector.candidate_table(cand, model.criterion_)
    for column in ("gain before MDL", "MDL penalty", "cuts C", "known ρ",
                   "unknown term of split info"):
        assert column in table.columns
    chosen = cand[cand["chosen"]].iloc[0]
    assert table["MDL penalty"].iloc[0] == f"{chosen['mdl_penalty']:.4f}"
    assert table["known ρ"].tolist() == [f"{1 - v:.3f}" for v in cand["missing_fraction"]]
    zh = inspector.candidate_table(cand, model.criterion_, "zh")
    assert {"MDL 惩罚", "分裂信息中的未知分支项", "已知比例 ρ"} <= set(zh.columns)


# -- the gain chart -----------------------------------------------------------------

def routes_and_codes(model, X, y):
    routes = model.tree_.leaf_weights(explain.encode(model, X))
    return routes, explain.class_codes(model.classes_, y)


def test_gain_curve_peaks_at_the_chosen_threshold(iris, iris_gini):
    X, y = iris
    routes, codes = routes_and_codes(iris_gini, X, y)
    s = iris_gini.steps_[0]
    chart = inspector.gain_chart(iris_gini, X, codes, routes, 0, s.feature, s)
    assert chart.kind == "curve" and chart.caption == "" and chart.missing == ""
    curve = explain.threshold_curve(X.iloc[:, s.feature].to_numpy(float),
                                    codes, "gini", 3)
    trace = chart.figure.data[0]
    assert max(trace.y) == pytest.approx(curve["gain"].max())
    assert max(trace.y) == pytest.approx(s.gain)


def test_gain_chart_of_a_single_valued_feature():
    X = pd.DataFrame({"a": [1.0, 2, 3, 4], "same": [5.0, 5, 5, 5]})
    model = DecisionTreeClassifier().fit(X, ["p", "p", "q", "q"])
    routes, codes = routes_and_codes(model, X, np.array(["p", "p", "q", "q"]))
    chart = inspector.gain_chart(model, X, codes, routes, 0, 1, model.steps_[0], "zh")
    assert chart.kind == "single" and chart.figure is None
    assert chart.caption == "该特征在此结点只有一个取值：没有阈值能划分它。"


def test_multiway_gain_chart_is_the_terms_of_each_branch(loan):
    X, y = loan
    model = DecisionTreeClassifier(algorithm="id3").fit(X, y)
    routes, codes = routes_and_codes(model, X, y)
    s = model.steps_[0]
    chart = inspector.gain_chart(model, X, codes, routes, 0, s.feature, s)
    assert chart.kind == "terms" and chart.caption.startswith("One bar per category (one")
    terms = explain.category_terms(X.iloc[:, s.feature].to_numpy(object),
                                   codes, "entropy", 2)
    assert sorted(chart.figure.data[0].y) == pytest.approx(sorted(terms["term"]))


def test_binary_categorical_gain_chart_is_one_bar_per_category(loan):
    X, y = loan
    model = DecisionTreeClassifier(categorical_features=list(X.columns)).fit(X, y)
    routes, codes = routes_and_codes(model, X, y)
    s = model.steps_[0]
    chart = inspector.gain_chart(model, X, codes, routes, 0, 0, s, "zh")
    assert chart.kind == "bars" and chart.caption.startswith("每个类别一根柱：")
    assert len(chart.figure.data[0].y) == X.iloc[:, 0].nunique()


def test_missing_rows_are_counted(melon_c45):
    model, X, y = melon_c45
    routes, codes = routes_and_codes(model, X, y)
    s = model.steps_[0]
    missing = {f: int(X.iloc[:, f].isna().sum()) for f in range(X.shape[1])}
    f = max(range(X.shape[1]), key=lambda j: missing[j])
    assert missing[f] > 0
    chart = inspector.gain_chart(model, X, codes, routes, 0, f, s)
    assert chart.kind == "terms"  # C4.5: one branch per category
    assert chart.missing == (f"{missing[f]} row(s) at this node have no value of this "
                             "feature; they are left out of this chart.")
    assert inspector.gain_chart(model, X, codes, routes, 0, f, s, "zh").missing == (
        f"该结点有 {missing[f]} 个样本缺少此特征的取值，图中没有包含它们。")


def test_c45_gain_curve_is_scaled_by_the_known_fraction():
    X, y = read("penguins.csv", "species")
    model = DecisionTreeClassifier(algorithm="c4.5", categorical_features=["island", "sex"])
    model.fit(X, y)
    routes, codes = routes_and_codes(model, X, y)
    f = list(X.columns).index("bill_length_mm")
    x = X.iloc[:, f].to_numpy(float)
    known = ~np.isnan(x)
    assert 0 < (~known).sum() < len(x)
    chart = inspector.gain_chart(model, X, codes, routes, 0, f, model.steps_[0])
    assert chart.kind == "curve" and chart.missing.startswith(f"{(~known).sum()} row(s)")
    curve = explain.threshold_curve(x[known], codes[known], "gain_ratio", 3,
                                    min_samples_leaf=model.min_samples_leaf)
    rho = known.mean()
    allowed = curve["allowed"].to_numpy(bool)
    assert max(chart.figure.data[0].y) == pytest.approx(rho * curve["gain"][allowed].max())
    assert "gain ratio" not in chart.figure.layout.yaxis.title.text  # ratio left out


def test_latex_words():
    assert inspector.latex_words(r"\text{improvement} = 1", "zh") == r"\text{改进量} = 1"
    assert inspector.latex_words(r"\text{improvement} = 1") == r"\text{improvement} = 1"
