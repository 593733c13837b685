"""dtree.views.narration: the Grow page's sentences about each step, the
stop reasons and the captions, checked against the engine's own numbers for
known trees (Iris, Li Hang's loan table), in English and Chinese."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views.vocabulary import text
from dtree.views import narration
from dtree.views.links import md

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def iris():
    frame = pd.read_csv(DATA / "iris.csv")
    return frame.drop(columns="species"), frame["species"].to_numpy()


@pytest.fixture(scope="module")
def iris_gini(iris):
    return DecisionTreeClassifier(max_depth=3, random_state=0).fit(*iris)


@pytest.fixture(scope="module")
def loan():
    frame = pd.read_csv(DATA / "loan.csv").drop(columns="ID")
    return frame.iloc[:, :-1].astype(object), frame.iloc[:, -1].to_numpy()


def test_iris_first_step_sentence_has_the_engines_numbers(iris_gini):
    s = iris_gini.steps_[0]
    assert (s.node, s.n_left, s.n_right) == (0, 50, 100)  # setosa cut off by petal length
    n = len(iris_gini.steps_)
    name = md("petal length (cm)")
    assert narration.step_sentence(iris_gini, 1) == (
        f"**Step 1 of {n}:** node #0 was split on **{name}** ≤ 2.45 "
        f"(50 rows left, 100 right; gain {s.gain:.3f}).")
    assert s.gain == pytest.approx(2 / 3 - 100 / 150 * 0.5)  # Gini 2/3 -> 0 and 1/2
    assert narration.step_sentence(iris_gini, 1, "zh") == (
        f"**第 1 步（共 {n} 步）：** 结点 #0 按 **{name}** ≤ 2.45 "
        f"划分（左侧 50 个样本，右侧 100 个；增益 {s.gain:.3f}）。")


def test_step_zero_announces_the_first_split(iris_gini):
    n = len(iris_gini.steps_)
    en = narration.step_sentence(iris_gini, 0)
    assert en.startswith(f"**Step 0 of {n}:** the root holds all 150 training rows.")
    assert en.endswith("Next, node #0 is split on **petal length \\(cm\\)** ≤ 2.45.")
    zh = narration.step_sentence(iris_gini, 0, "zh")
    assert "根结点包含全部 150 个训练样本" in zh and "结点 #0 将按" in zh


def test_a_later_step_names_its_node_and_sizes(iris_gini):
    for k, s in enumerate(iris_gini.steps_, start=1):
        words = narration.step_sentence(iris_gini, k)
        assert f"node #{s.node} was split" in words
        assert f"{s.n_left:,} rows left, {s.n_right:,} right" in words


def test_gain_ratio_steps_report_the_ratio(iris):
    model = DecisionTreeClassifier(criterion="gain_ratio", max_depth=2).fit(*iris)
    s = model.steps_[0]
    assert f"gain ratio {s.gain_ratio:.3f}" in narration.step_sentence(model, 1)
    assert f"信息增益比 {s.gain_ratio:.3f}" in narration.step_sentence(model, 1, "zh")
    assert s.gain_ratio != pytest.approx(s.gain)


@pytest.mark.parametrize("criterion, en, zh", [
    ("gain_ratio", "gain ratio", "信息增益比"), ("entropy", "gain", "信息增益"),
    ("log_loss", "gain", "信息增益"), ("gini", "gain", "增益"), ("squared_error", "gain", "增益"),
])
def test_gain_word(criterion, en, zh):
    assert narration.gain_word(criterion) == en
    assert narration.gain_word(criterion, "zh") == zh


def test_multiway_and_subset_split_phrases(loan):
    X, y = loan
    id3 = DecisionTreeClassifier(algorithm="id3").fit(X, y)
    s = id3.steps_[0]
    assert s.kind == "multiway" and s.feature_name == "有自己的房子"  # Li Hang's root
    assert narration.split_phrase(s) == (
        f"**有自己的房子**, one branch per value ({', '.join(s.branches)})")
    assert narration.split_phrase(s, "zh") == (
        f"**有自己的房子**，每个取值一个分支（{', '.join(s.branches)}）")
    sizes = ", ".join(str(n) for n in s.n_children_samples)
    assert narration.branch_sizes(s) == f"rows per branch: {sizes}"
    assert narration.branch_sizes(s, "zh") == f"各分支样本数：{sizes}"
    assert sum(s.n_children_samples) == 15
    cart = DecisionTreeClassifier(categorical_features=list(X.columns)).fit(X, y)
    s = cart.steps_[0]
    assert s.kind == "subset"
    group = md(s.branches[0])
    assert narration.split_phrase(s) == f"**{md(s.feature_name)}** ∈ {group} or not"
    assert narration.split_phrase(s, "zh") == f"**{md(s.feature_name)}** 是否 ∈ {group}"


def test_user_text_is_escaped_in_the_phrase():
    X = pd.DataFrame({"*bold* [x](y)": [1.0, 2.0, 3.0, 4.0]})
    model = DecisionTreeClassifier().fit(X, ["a", "a", "b", "b"])
    phrase = narration.split_phrase(model.steps_[0])
    assert phrase.startswith(r"**\*bold\* \[x\]\(y\)** ≤ ")


def test_a_single_leaf_says_why(iris):
    model = DecisionTreeClassifier(min_samples_split=1000).fit(*iris)
    assert not model.steps_
    reason = model.tree_.stop_reason[0]
    assert reason == "min_samples_split"
    assert narration.step_sentence(model, 0) == (
        "The root cannot be split (min\\_samples\\_split): the tree is a single leaf.")
    assert narration.step_sentence(model, 0, "zh") == (
        "根结点无法划分（样本数少于 min\\_samples\\_split）：决策树只有一个叶结点。")


def test_stop_reasons_in_both_languages():
    assert narration.stop_reason("pure") == "pure"
    assert narration.stop_reason("pure", "zh") == "纯结点（不纯度为 0）"
    assert narration.stop_reason("something new", "zh") == "something new"




def test_colour_legend_mentions_priority_only_for_best_first():
    assert "priority" not in narration.colour_legend(False)
    assert narration.colour_legend(True).endswith("(best-first splits the largest next).")
    assert "优先级" in narration.colour_legend(True, "zh")
    assert "优先级" not in narration.colour_legend(False, "zh")


def test_depth_cut_warning_has_the_numbers():
    assert narration.depth_cut_warning(1234, 7).startswith(
        "This tree has 1,234 nodes; only the first 7 levels are drawn")
    assert narration.depth_cut_warning(1234, 7, "zh").startswith(
        "这棵树有 1,234 个结点，只画出了前 7 层")


def test_texts_exist_in_both_languages():
    for name, (en, zh) in narration.TEXTS.items():
        assert text(narration.TEXTS, name) == en and text(narration.TEXTS, name, "zh") == zh
        assert en != zh


def test_regions_caption_names_the_other_split_features(iris):
    X, y = iris
    model = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    tree = model.tree_
    assert sorted({int(f) for f in tree.feature[~tree.is_leaf()]}) == [2, 3]  # the petals
    # on the sepals' plane the tree's petal splits are held at the typical row
    caption = narration.regions_caption(model, tree, 0, 1)
    assert caption.startswith(
        f"The tree also splits on {md('petal length (cm), petal width (cm)')}: the plane "
        "shown is the slice")
    assert narration.regions_caption(model, tree, 0, 1, "zh").startswith(
        f"决策树还在 {md('petal length (cm), petal width (cm)')} 上划分")
    # on the petals' plane nothing else is split: the rectangles are the leaves
    assert narration.regions_caption(model, tree, 2, 3).startswith(
        "At this step the tree splits only on these two features")
    assert narration.regions_caption(model, tree, 3, 2, "zh").startswith("这一步的决策树")
    # one of the two split features off the plane
    assert narration.regions_caption(model, tree, 2, 0).startswith(
        f"The tree also splits on {md('petal width (cm)')}:")


def test_score_sentence(iris):
    model = DecisionTreeRegressor(max_depth=2).fit(iris[0].iloc[:, :3], iris[0].iloc[:, 3])
    assert narration.score_metric(model) == "R²"
    classifier = DecisionTreeClassifier(max_depth=1).fit(*iris)
    assert narration.score_metric(classifier) == "accuracy"
    assert narration.score_metric(classifier, "zh") == "准确率"
    train, test = np.array([0.33, 0.6667]), np.array([0.3, 0.61])
    assert narration.score_sentence(train, test, 1, "accuracy", True) == (
        "At step 1: train accuracy 0.667, test accuracy 0.610.")
    assert narration.score_sentence(train, test, 0, "accuracy", False) == (
        "At step 0: train accuracy 0.330.")
    assert narration.score_sentence(train, test, 1, "准确率", True, "zh") == (
        "第 1 步：训练集准确率 0.667，测试集准确率 0.610。")
