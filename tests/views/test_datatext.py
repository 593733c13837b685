"""The Data page's words and shown tables (dtree.views.datatext), without
Streamlit: every text has its Chinese with the same numbers, the sentences
carry the values they are given, and the tables are renamed under 中文."""

import re

import pandas as pd
import pytest
from sklearn.datasets import load_iris

from dtree import DecisionTreeClassifier
from dtree.views.vocabulary import text
from dtree.views import datatext as words

CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBERS = re.compile(r"\d+(?:[.,]\d+)*")


def same_numbers(en, zh):
    return sorted(NUMBERS.findall(en)) == sorted(NUMBERS.findall(zh))


@pytest.mark.parametrize("name", sorted(words.TEXTS))
def test_every_fixed_text_has_its_chinese(name):
    en, zh = text(words.TEXTS, name), text(words.TEXTS, name, "zh")
    assert en == words.TEXTS[name][0] and zh == words.TEXTS[name][1]
    assert not CJK.search(en) and CJK.search(zh) and same_numbers(en, zh)


#: Each sentence with its arguments (but lang), and what its English must say.
SENTENCES = [
    (words.upload_help, (200,), "Largest file: 200 MB."),
    (words.refused, ("upload", "t.csv", "No rows.", "Iris"),
     "**t.csv** could not be used: No rows.  \nStill using **Iris**."),
    (words.refused, ("skops", "m.skops", "A forest.", "Iris"),
     "**m.skops** could not be opened: A forest.  \nStill using **Iris**."),
    (words.refused, ("skops_data", "d.csv", "No target."),
     "The data file **d.csv** could not be used: No target.  \n"
     "The tree is opened without training data."),
    (words.preprocessing, ("StandardScaler",),
     "Preprocessing before the tree (not shown): StandardScaler."),
    (words.training_data, ("d.csv", 12345, "y"),
     "Training data: d.csv, 12,345 rows, target column “y”."),
    (words.in_use, ("Iris", 150, 5), "**In use:** Iris — 150 rows × 5 columns"),
    (words.dropped_rows, (1234, "ragged"),
     "1,234 row(s) of the file were left out: they have more fields than the header row."),
    (words.dropped_rows, (3, "no target"),
     "3 row(s) were left out: they have no value in the target column."),
    (words.left_out, ("“id”",), "Left out: “id” (a different value in every row"),
    (words.preview_caption, (60, 1500), "Preview of the first 60 of 1,500 columns."),
    (words.missing_targets, (2048,), "2,048 row(s) have no target value."),
    (words.split_summary, (112, 38, 4, "classification"),
     "112 training rows and 38 test rows; 4 features for the engine; classification."),
]


@pytest.mark.parametrize("sentence, args, says", SENTENCES,
                         ids=[f"{s.__name__}-{i}" for i, (s, *_) in enumerate(SENTENCES)])
def test_sentences_in_both_languages(sentence, args, says):
    en, zh = sentence(*args), sentence(*args, lang="zh")
    assert says in en and not CJK.search(en)
    assert CJK.search(zh) and same_numbers(en, zh)
    for value in args:  # the user's text and names come through unchanged
        if isinstance(value, str) and value not in ("upload", "skops", "skops_data",
                                                    "ragged", "no target", "classification"):
            assert value in en and value in zh


def test_a_refused_data_file_names_nothing_in_use():
    assert "Iris" not in words.refused("skops_data", "d.csv", "No target.", "Iris", "zh")
    assert "仍在使用 **Iris**" in words.refused("upload", "t.csv", "No rows.", "Iris", "zh")


def test_the_split_names_the_task_it_is_given():
    assert words.split_summary(1, 2, 3, "回归", "zh").endswith("回归任务。")


def test_an_opened_tree_is_described_by_its_own_numbers():
    X, y = load_iris(return_X_y=True)
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    leaves, depth = model.tree_.n_leaves, model.tree_.max_depth
    en = words.imported_summary(model, "m.skops", "DecisionTreeClassifier", "classification")
    assert en == (f"**In use:** m.skops — a scikit-learn DecisionTreeClassifier "
                  f"(classification): {leaves} leaves, depth {depth}, 4 features, "
                  f"{len(model.steps_)} splits.")
    zh = words.imported_summary(model, "m.skops", "DecisionTreeClassifier", "分类", "zh")
    assert f"{leaves} 个叶结点" in zh and "（分类任务）" in zh and same_numbers(en, zh)


def test_the_column_summary_is_renamed_under_chinese():
    summary = pd.DataFrame({"column": ["a", "b", "c"], "type": ["numeric", "categorical", "?"],
                            "missing": [0, 1, 2], "distinct": [3, 2, 1],
                            "example": ["1", "x", ""]})
    assert words.summary_shown(summary) is summary
    shown = words.summary_shown(summary, "zh")
    assert list(shown.columns) == ["列", "类型", "缺失", "不同取值数", "示例"]
    assert list(shown["类型"]) == ["数值", "类别", "?"]
    assert list(shown["缺失"]) == [0, 1, 2] and list(summary["type"])[0] == "numeric"


def test_the_target_description_names_its_rows_under_chinese():
    y = pd.Series([1.0, 2.0, 3.0, 10.0], name="y")
    en, zh = words.target_description(y), words.target_description(y, "zh")
    assert list(en.index) == ["count", "mean", "std", "min", "25%", "50%", "75%", "max"]
    assert list(zh.index) == ["计数", "均值", "标准差", "最小值", "25% 分位数", "中位数",
                              "75% 分位数", "最大值"]
    assert zh.loc["均值", "y"] == en.loc["mean", "y"] == 4.0
    assert zh.loc["中位数", "y"] == 2.5


def test_upload_stages_running_and_done_in_both_languages():
    assert words.upload_stage("read", name="big.csv", mb=34.12) == "Reading big.csv (34.1 MB)…"
    assert words.upload_stage("fit", "en", done=0.42, splitter="hist", depth=5) == \
        "✓ Growing the first tree (hist splitter, max_depth 5): 0.4 s"
    assert words.upload_stage("prepare", "zh", rows=500_000) == \
        "正在准备 500,000 行：标签编码、划分训练集和测试集…"
    # done: no longer 正在 (in progress)
    assert words.upload_stage("types", "zh", done=1.0, columns=11) == \
        "✓ 判断 11 列的类型（数值或类别）：1.0 秒"
    assert list(words.UPLOAD_STAGES) == ["read", "types", "prepare", "fit"]
    assert words.upload_done(500_000, 2.25, True) == \
        "Read 500,000 rows and grew the first tree in 2.2 s"
    assert words.upload_done(500_000, 2.0, False, "zh") == "已读取 500,000 行，用时 2.0 秒"
