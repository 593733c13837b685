"""The Compare page's words (dtree.views.comparetext), without Streamlit: every
text has its Chinese with the same numbers, the sentences carry the trees'
numbers (steps, leaves, scores, impurities), and user text is escaped."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import train_test_split

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views.vocabulary import criterion_name, growth_name, text
from dtree.views import compare, explain
from dtree.views import comparetext as words
from dtree.views.links import md

CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBERS = re.compile(r"\d+(?:\.\d+)?")


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True, as_frame=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y.to_numpy(), test_size=0.3,
                                                        random_state=1, stratify=y)
    model = DecisionTreeClassifier(max_depth=3).fit(X_train, y_train)
    return compare.Profile(model, X_train, y_train, X_test, y_test)


def parting_data():
    """Gini splits the A/B node on x1, misclassification on x0 (see
    tests/views/test_compare.py, known_divergence_data); the class B is "b*"."""
    c = [dict(x0=1.5, x1=0.5, xr=0.0, y="C")] * 200
    a = [dict(x0=1.0 if i < 151 else 2.0, x1=float(i % 2 == 0), xr=1.0, y="A")
         for i in range(200)]
    b = [dict(x0=1.0 if i < 49 else 2.0, x1=0.0, xr=1.0, y="b*") for i in range(200)]
    frame = pd.DataFrame(c + a + b)
    return frame[["x0", "x1", "xr"]], frame["y"].to_numpy()


@pytest.mark.parametrize("name", sorted(words.TEXTS))
def test_every_fixed_text_has_its_chinese_with_the_same_numbers(name):
    en, zh = text(words.TEXTS, name), text(words.TEXTS, name, "zh")
    assert en and not CJK.search(en) and CJK.search(zh)
    assert sorted(NUMBERS.findall(en)) == sorted(NUMBERS.findall(zh))


def test_names_of_criteria_growth_orders_and_charts():
    assert criterion_name("gini", short=True) == "Gini"
    assert criterion_name("gini", "zh", short=True) == "基尼系数"
    assert criterion_name("log_loss", short=True) == criterion_name("entropy", short=True) \
        == "entropy"
    assert criterion_name("poisson", "zh", short=True) == "泊松偏差"
    assert criterion_name("made_up", short=True) == "made_up"
    assert growth_name("best_first") == "best-first"
    assert growth_name("breadth_first", "zh") == "广度优先"
    assert words.metric_name(True) == "accuracy" and words.metric_name(False, "zh") == "R²"
    assert words.chart_names(True)["scores"] == "Accuracy"
    assert words.chart_names(False, "zh") == {"scores": "R²", "agreement": "预测一致性",
                                              "impurity": "不纯度函数"}


def test_column_label_and_caption():
    assert words.config_label(0, "CART", "gini") == "1 · Gini"
    assert words.config_label(1, "C4.5", "gain_ratio") == "2 · gain ratio (C4.5)"
    assert words.config_label(2, "ID3", "entropy", "zh") == "3 · 信息熵 (ID3)"
    params = dict(growth="best_first", max_depth=None, min_samples_leaf=5, max_leaf_nodes=7)
    assert words.params_caption(params) == \
        "best-first · max_depth ∞ · min_samples_leaf 5 · max_leaf_nodes 7"
    assert words.params_caption(dict(params, max_depth=3, max_leaf_nodes=None), "zh") == \
        "最佳优先 · max_depth 3 · min_samples_leaf 5 · max_leaf_nodes ∞"


def test_intro_escapes_the_title_and_counts_the_rows():
    en = words.intro("a*b", 1234, 56, escape=md)
    assert en.startswith(r"**a\*b** · 1,234 training rows, 56 test rows")
    zh = words.intro("a*b", 1234, 56, escape=md, lang="zh")
    assert r"**a\*b**" in zh and "训练集 1,234 行，测试集 56 行" in zh
    assert words.id3_rows(90, 45).startswith("Trained on the 90 training rows")
    assert "90 个训练样本" in words.id3_rows(90, 45, "zh") and "45" in words.id3_rows(90, 45, "zh")
    assert words.cannot_grow("no rows") == "This tree could not be grown: no rows"
    assert words.cannot_grow("没有样本", "zh") == "无法生成这棵树：没有样本"


def test_pair_names_and_offers():
    configs = (("CART", "gini"), ("C4.5", "gain_ratio"))
    assert words.pair_name(configs, {}) == "Gini (CART) and gain ratio (C4.5)"
    assert words.pair_name(configs, {"max_depth": None}, "zh") == \
        "基尼系数 (CART) 与 信息增益比 (C4.5)，不限深度"
    assert words.pair_name((), {"min_samples_leaf": 5}) == ", min_samples_leaf 5"
    found = compare.Parting(configs, {"min_samples_leaf": 5}, {}, 3)
    assert words.pair_offer(found) == ("Compare Gini (CART) and gain ratio (C4.5), "
                                       "min_samples_leaf 5 (they part at step 3)")
    assert words.pair_offer(found, "zh").endswith("（在第 3 步分开）")
    # another dataset: its pair as it is (no changes named)
    assert words.data_offer("Wine", found) == \
        "Use Wine: Gini (CART) and gain ratio (C4.5) part at step 3"
    assert words.data_offer("葡萄酒", found, "zh") == \
        "改用葡萄酒：基尼系数 (CART) 与 信息增益比 (C4.5)在第 3 步分开"
    assert words.shared_changes({"min_samples_leaf": 5}).startswith(
        "Both trees use min_samples_leaf 5: with the Grow page's parameters")
    assert words.shared_changes({"max_depth": None}, "zh").startswith("两棵树都使用 不限深度：")


def test_divergence_sentence_names_the_step_or_offers_trees_that_part():
    X, y = parting_data()
    models = [DecisionTreeClassifier(criterion=c, max_depth=2).fit(X, y)
              for c in ("gini", "misclassification")]
    div = compare.first_divergence(models)
    step = compare.divergence_step(div)
    text = words.divergence_sentence(div, models, ["1 · G*", "2 · M"], escape=md)
    assert text.startswith("The trees agree on the first split;")
    assert r"**1 · G\*** splits on x1" in text
    assert text.endswith(f" They part at step {step}.") and step == 2
    zh = words.divergence_sentence(div, models, ["G", "M"], escape=md, lang="zh")
    assert zh.endswith(f"它们在第 {step} 步分开。")
    same = words.divergence_sentence(None, models[:1] * 2, ["G", "G"])
    assert "identical" in same and same.endswith("one click below shows trees that part.")
    assert "分开" in words.divergence_sentence(None, models[:1] * 2, ["G", "G"], lang="zh")


def test_tree_caption_has_the_step_the_tree_and_its_scores(iris):
    profile = iris
    n = profile.n_steps
    _, train, test = profile.step_scores
    first = words.tree_caption(profile, 0)
    assert first == (f"Step 0 of {n} · 1 leaf · depth 0  \ntrain accuracy "
                     f"**{train[0]:.3f}** · test accuracy **{test[0]:.3f}**")
    last = words.tree_caption(profile, n)
    tree = profile.tree(n)
    assert last.startswith(f"Step {n} of {n} (fully grown) · {tree.n_leaves} leaves · "
                           f"depth {tree.max_depth}")
    assert f"**{train[n]:.3f}**" in last and f"**{test[n]:.3f}**" in last
    zh = words.tree_caption(profile, 1, "zh")
    assert zh.startswith(f"第 1 / {n} 步 · 2 个叶结点") and "训练集准确率" in zh


def test_tree_caption_of_a_regressor_without_test_rows():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.normal(size=80)})
    y = 2 * X["x"].to_numpy() + rng.normal(scale=0.1, size=80)
    model = DecisionTreeRegressor(max_depth=2).fit(X, y)
    profile = compare.Profile(model, X, y, X.iloc[:0], y[:0])
    text = words.tree_caption(profile, 1)
    assert "train R² **" in text and "test" not in text
    assert f"**{profile.step_scores[1][1]:.3f}**" in text


def test_captions_with_numbers():
    assert words.depth_cut(4) == "Only the first 4 levels are drawn."
    assert words.depth_cut(4, "zh") == "只画出了前 4 层。"
    assert words.agreement_caption(3, 1500).startswith("At step 3 ")
    assert "1,500 test rows" in words.agreement_caption(3, 1500)
    assert "第 3 步" in words.agreement_caption(3, 1500, "zh")


def test_impurity_marker_gives_the_nodes_share_and_its_impurities(iris):
    model = iris.model
    root = words.impurity_marker(model, 0, "1 · Gini")
    counts = explain.class_counts(model.growth_tree_, 0)
    p, two = compare.node_share(model, 0)
    assert not two  # iris: three classes
    assert root.startswith(f"The marker: the root of tree 1 · Gini, p = {p:.3f} = the share "
                           "of its majority class")
    for name, c in (("entropy", "entropy"), ("Gini", "gini")):
        assert f"{name} {explain.impurity_from_counts(c, counts):.3f}" in root
    node = compare.step_node(model, 2)
    second = words.impurity_marker(model, 2, "1 · Gini", lang="zh")
    assert f"树 1 · Gini 的结点 #{node}（在第 2 步划分）" in second
    assert f"p = {compare.node_share(model, node)[0]:.3f}" in second


def test_impurity_marker_escapes_the_class_of_a_two_class_node():
    X, y = parting_data()
    keep = y != "C"
    model = DecisionTreeClassifier(max_depth=2).fit(X[keep], y[keep])
    text = words.impurity_marker(model, 0, "L_1", escape=md)
    assert r"the share of class b\*" in text and r"tree L\_1" in text
    p, two = compare.node_share(model, 0)
    assert two and f"p = {p:.3f}" in text and p == pytest.approx(0.5)
