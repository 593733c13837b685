"""The Learn page's words and tables (dtree.views.learntext), without Streamlit:
every text has its Chinese with the same numbers, the tables and sentences
carry the worked examples' numbers (Li Hang's and the lecture's printed
values), and user text goes through the page's escaping."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier
from dtree.views.vocabulary import text
from dtree.views import learn
from dtree.views import learntext as words
from dtree.views.links import md

CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBERS = re.compile(r"\d+(?:\.\d+)?")


@pytest.fixture(scope="module")
def loan():
    X, y = learn.load_example("loan", with_id=False)
    return learn.gain_example(X, y, learn.feature_symbols(X.columns))


@pytest.fixture(scope="module")
def loan_id():
    X, y = learn.load_example("loan", with_id=True)
    return learn.gain_example(X, y, learn.feature_symbols(X.columns, "ID"))


@pytest.fixture(scope="module")
def cats():
    X, y = learn.load_example("cats")
    return learn.gain_example(X, y)


def guard(text):
    return f"«{text}»"


@pytest.mark.parametrize("name", sorted(words.TEXTS))
def test_every_fixed_text_has_its_chinese_with_the_same_numbers(name):
    en, zh = text(words.TEXTS, name), text(words.TEXTS, name, "zh")
    assert CJK.search(zh) and zh != en
    # the English quotes the book's own title (贷款申请样本数据表) and 固有值
    assert not CJK.search(re.sub(r"（[^）]*）|\([^)]*\)", "", en))
    assert sorted(NUMBERS.findall(en)) == sorted(NUMBERS.findall(zh)), name


def test_topics_and_the_calculators_labels():
    assert list(words.part_names()) == list(words.PARTS)
    assert words.part_names("zh")["ratio"] == "信息增益比"
    labels = {c: words.metric_label(c) for c in learn.CRITERIA}
    assert labels == {"entropy": "Entropy H(D)", "gini": "Gini Gini(D)",
                      "misclassification": "Misclassification Err(D)",
                      "taylor2": "Taylor, second order T₂(D)"}
    assert words.metric_label("gini", "zh") == "基尼系数 Gini(D)"
    assert words.metric_label("taylor2", "zh") == "二阶泰勒近似 T₂(D)"
    assert words.input_names("zh") == {"counts": "各类样本数", "p": "概率 p（两类）"}
    assert words.fmt(0.97095) == "0.971" and words.fmt(0.2813, 2) == "0.28"


@pytest.mark.parametrize("text, en, zh", [
    ("", "Type the class counts", "请输入"),
    ("a*b, 1", "“a\\*b” is not a number", "“a\\*b” 不是数字"),
    ("-1, 2", "(“\\-1”)", "（“\\-1”）"),  # escaped: Markdown would read a list
    ("0, 0", "At least one count", "至少"),
    (", ".join(["1"] * 21), "At most 20 classes (21 given)", "最多 20 个类别（输入了 21 个）"),
])
def test_counts_errors_name_the_culprit(text, en, zh):
    with pytest.raises(learn.CountsError) as info:
        learn.parse_counts(text)
    assert en in words.counts_error(info.value, md)
    assert zh in words.counts_error(info.value, md, "zh")


def test_err_example_gains_nothing_by_misclassification():
    lines = words.err_example_latex()
    assert lines[0] == (learn.SYMBOL["misclassification"]
                        + r":\ (40, 20) \to (30, 10) + (10, 10):\quad \Delta = 0.000")
    split = r"(40, 20) \to (30, 10) + (10, 10)"
    assert all(split in line for line in lines) and len(lines) == 3
    # by hand: entropy H(2/3) - (2/3 H(3/4) + 1/3 H(1/2)); Gini 4/9 - (2/3 * 3/8 + 1/3 / 2)
    def h(*p):
        return -sum(q * math.log2(q) for q in p)
    entropy = h(2 / 3, 1 / 3) - (2 / 3 * h(3 / 4, 1 / 4) + 1 / 3 * h(1 / 2, 1 / 2))
    gini = 4 / 9 - (2 / 3 * 3 / 8 + 1 / 3 * 1 / 2)
    assert [line.rsplit("= ", 1)[1] for line in lines] == ["0.000", f"{entropy:.3f}",
                                                            f"{gini:.3f}"]
    assert lines[1].startswith(learn.SYMBOL["entropy"] + r":\ ")
    other = words.err_example_latex(([2, 2], [[2, 0], [0, 2]]), ("gini",))
    assert other == [learn.SYMBOL["gini"] + r":\ (2, 2) \to (2, 0) + (0, 2):\quad \Delta = 0.500"]


def test_symbol_text():
    assert words.symbol_text("A_{1}") == "A1"
    assert words.symbol_text(r"A_{\mathrm{ID}}") == "A_ID"


def test_loan_legends_table_and_verdict(loan):
    legend = words.feature_legend(loan, guard)
    assert legend == "Features: $A_{1}$ = «年龄» · $A_{2}$ = «有工作» · $A_{3}$ = «有自己的房子» · " \
        "$A_{4}$ = «信贷情况»"
    assert words.feature_legend(loan, lang="zh").startswith("特征：$A_{1}$ = 年龄")
    age = loan.feature("年龄")
    assert words.branch_legend(age, loan, guard) == (
        "$D_{1}$: «年龄» = «青年» (2 «是», 3 «否») · $D_{2}$: «年龄» = «中年» (3 «是», 2 «否») · "
        "$D_{3}$: «年龄» = «老年» (4 «是», 1 «否»)")
    assert words.class_caption(loan) == "Classes in the formula: 9 是, 6 否"
    table = words.gain_table(loan)
    assert list(table.columns) == ["feature", "symbol", "conditional entropy H(D|A)",
                                   "information gain g(D, A)"]
    assert list(table["symbol"]) == ["A1", "A2", "A3", "A4"]
    assert list(table["information gain g(D, A)"]) == ["0.083", "0.324", "0.420", "0.363"]
    assert table["conditional entropy H(D|A)"].iloc[0] == "0.888"
    assert list(words.gain_table(loan, "zh").columns)[0] == "特征"
    verdict = words.gain_verdict(loan, guard)
    assert verdict.startswith("ID3 splits the root on «有自己的房子» ($A_{3}$), the largest "
                              "information gain, 0.420.")
    assert "g = 0.420" in words.gain_verdict(loan, lang="zh")


def test_cat_table_heading_and_verdict(cats):
    table = words.cat_gain_table(cats)
    assert table.to_dict("list") == {"feature": ["ear_shape", "face_shape", "whiskers"],
                                     "information gain": ["0.28", "0.03", "0.12"]}
    assert list(words.cat_gain_table(cats, "zh").columns) == ["特征", "信息增益"]
    ear = cats.feature("ear_shape")
    assert words.cat_heading(ear, "pointy", "floppy", guard) == \
        "**«ear_shape»** · left: «pointy», right: «floppy»"
    assert words.cat_heading(ear, "pointy", "floppy", lang="zh").endswith("左：pointy，右：floppy")
    assert words.cats_verdict(cats).startswith("Computed: 0.28 / 0.03 / 0.12 (the lecture")
    assert "ear_shape" in words.cats_verdict(cats, lang="zh")


def test_ratio_table_and_verdict(loan_id):
    table = words.ratio_table(loan_id)
    row = table.loc[table["feature"] == "ID"].iloc[0]
    assert list(row) == ["ID", 15, "0.971", f"{math.log2(15):.3f}", "0.249"]
    verdict = words.ratio_verdict(loan_id, "ID", guard)
    assert verdict.startswith("By information gain (ID3) the root would be split on «ID» "
                              "(g = 0.971)")
    assert "log₂ 15 = 3.907" in verdict and "only 0.249" in verdict
    assert verdict.endswith("C4.5 chooses «有自己的房子» (g_R = 0.433).")
    assert "信息增益比只有 0.249" in words.ratio_verdict(loan_id, lang="zh")


def scaling_report(iris_frame, **kwargs):
    X, y = iris_frame.drop(columns="species"), iris_frame["species"].to_numpy()
    model = DecisionTreeClassifier(max_depth=3, **kwargs).fit(X, y)
    return learn.scaling_report(model, X, y)


def test_scaling_verdict_and_tables():
    frame = pd.read_csv(learn.DATA_DIR / "iris.csv")
    report = scaling_report(frame)
    same, text = words.scaling_verdict(report)
    assert same and text.startswith(f"Same tree: {report.model.tree_.node_count} nodes")
    assert f"{report.n_rows:,} training rows" in text
    assert words.scaling_verdict(report, "zh")[1].startswith("同一棵树")
    # a report whose predictions differ: named, and nothing else
    from dataclasses import replace
    other = replace(report, same_predictions=False)
    same, text = words.scaling_verdict(other)
    assert not same and text.startswith("Differences: the predictions. ")
    assert words.scaling_verdict(replace(report, same_structure=False, same_leaves=False),
                                 "zh")[1].startswith("不同之处：树的结构, 训练样本所在的叶结点。")
    shown = words.thresholds_table(report.thresholds)
    assert list(shown.columns) == ["node", "feature", "a", "b", "threshold t", "z_a", "z_b",
                                   "threshold t_z", "t_z·σ + μ", "same cut"]
    assert list(shown["node"]) == [f"#{n}" for n in report.thresholds["node"]]
    np.testing.assert_array_equal(shown["threshold t"], report.thresholds["threshold"])
    assert shown["same cut"].all()
    assert list(words.thresholds_table(report.thresholds, "zh").columns)[0] == "结点"
    scales = words.scales_table(report)
    assert list(scales["feature"]) == report.columns
    np.testing.assert_allclose(scales["σ"], frame[report.columns].std(ddof=0))
    assert words.no_tree("x") == "No tree for the current data: x"
