"""dtree.views.predictiontext: the Prediction and Importances tabs without
Streamlit: the sample as the widgets hold it and back, the tables against
dtree.views.prediction's results, and the words in English and Chinese."""

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views.vocabulary import text
from dtree.views import predictiontext as words
from dtree.views.links import md
from dtree.views.prediction import (explain_prediction, importance_summary, importance_terms,
                                    importances_at)

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def iris():
    frame = pd.read_csv(DATA / "iris.csv")
    X, y = frame.drop(columns="species"), frame["species"].to_numpy()
    return DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y), X, y


@pytest.fixture(scope="module")
def melon():
    X = pd.read_csv(DATA / "watermelon2_alpha.csv").drop(columns="编号")
    y = X.pop("好瓜").to_numpy()
    return DecisionTreeClassifier(algorithm="c4.5").fit(X, y), X, y


# -- the sample ------------------------------------------------------------------

def test_rows_to_predict_are_the_test_rows_else_the_training_rows(iris):
    _, X, y = iris
    split = SimpleNamespace(X_train=X.iloc[:100], y_train=y[:100], X_test=X.iloc[100:],
                            y_test=y[100:])
    rows, target, which = words.rows_to_predict(split)
    assert which == "test" and len(rows) == 50 and list(target) == list(y[100:])
    no_test = SimpleNamespace(X_train=X, y_train=y, X_test=X.iloc[:0], y_test=y[:0])
    rows, target, which = words.rows_to_predict(no_test)
    assert which == "train" and len(rows) == 150 and isinstance(target, np.ndarray)
    none = SimpleNamespace(X_train=X, y_train=list(y), X_test=None, y_test=None)
    assert words.rows_to_predict(none)[2] == "train"


def test_row_sample_is_keyed_by_feature_name(iris):
    model, X, _ = iris
    assert words.row_sample(model, X, 3) == X.iloc[3].to_dict()
    assert words.row_sample(model, X.to_numpy(), 3) == X.iloc[3].to_dict()


def test_widget_values_round_trip(melon):
    model, X, _ = melon
    cats = list(model.categories_[0])
    assert words.categorical_features(model).all()
    for j, v in enumerate(X.iloc[0]):
        held = words.widget_value(model, j, v)
        assert words.valid_widget_value(model, j, held)
        back = words.sample_value(model, j, held)
        assert back == v or (pd.isna(v) and back is None)
    assert words.widget_value(model, 0, cats[2]) == 2
    assert words.widget_value(model, 0, None) == words.MISSING
    assert words.widget_value(model, 0, np.nan) == words.MISSING
    assert words.widget_value(model, 0, "never seen") == words.MISSING
    assert words.sample_value(model, 0, words.MISSING) is None


def test_numeric_widget_values(iris):
    model, _, _ = iris
    assert not words.categorical_features(model).any()
    assert words.widget_value(model, 0, np.float64(5.1)) == 5.1
    assert words.widget_value(model, 0, np.nan) is None
    assert words.widget_value(model, 0, pd.NA) is None
    assert words.sample_value(model, 0, 2.5) == 2.5


@pytest.mark.parametrize("value, ok", [
    (None, True), (1.5, True), (3, True), (float("nan"), False), (float("inf"), False),
    (True, False), ("1.5", False)])
def test_a_numeric_widget_takes_finite_numbers_or_none(iris, value, ok):
    assert words.valid_widget_value(iris[0], 0, value) is ok


@pytest.mark.parametrize("value, ok", [
    (-1, True), (0, True), (2, True), (3, False), (-2, False), (1.0, False), (None, False),
    (True, False)])
def test_a_categorical_widget_takes_an_index_or_missing(melon, value, ok):
    assert len(melon[0].categories_[0]) == 3
    assert words.valid_widget_value(melon[0], 0, value) is ok


@pytest.mark.parametrize("asked, n, row", [
    (0, 10, 0), (4, 10, 4), ("7", 10, 7), ("7.0", 10, 7), (12, 10, 9), (-3, 10, 0),
    ("x", 10, 0), (None, 10, 0), (5, 0, 0)])
def test_row_number_is_clamped(asked, n, row):
    assert words.row_number(asked, n) == row


def test_form_values_keep_what_is_valid_and_fill_the_rest(melon):
    model, X, _ = melon
    base = words.row_sample(model, X, 1)
    values = words.form_values(model, {0: 2, 1: 99, 3: words.MISSING}, base)
    assert values[0] == 2 and values[3] == words.MISSING  # valid: kept
    assert values[1] == words.widget_value(model, 1, base["根蒂"])  # stale: the row's
    assert values[2] == words.widget_value(model, 2, base["敲声"])  # absent: the row's
    sample = words.form_sample(model, values)
    assert sample["色泽"] == model.categories_[0][2] and sample["纹理"] is None
    assert words.form_values(model, {}, {}) == {j: words.MISSING for j in range(6)}


def test_shown_value_and_sample_table(iris):
    assert words.shown_value(np.int64(3)) == 3.0 and isinstance(words.shown_value(np.int64(3)),
                                                                float)
    assert words.shown_value("setosa") == "setosa"
    assert words.shown_value(True) is True
    table = words.sample_table({"a*b": 1.5, "c": np.nan, "d": "x_y"})
    assert table.to_dict("list") == {"feature": [r"a\*b", "c", "d"],
                                     "value": ["1\\.5", "NaN", r"x\_y"]}
    assert list(words.sample_table({"a": 1.0}, "zh").columns) == ["特征", "取值"]


# -- the prediction's tables --------------------------------------------------------

def test_decision_table_has_a_row_per_decision(iris):
    model, X, _ = iris
    result = explain_prediction(model, X.iloc[120].to_dict())
    table = words.decision_table(result)
    assert list(table.columns) == ["node", "decision"]
    assert table["node"].tolist() == [f"#{d.node_id}" for d in result.decisions]
    assert len(table) == len(result.decisions) == len(result.path) - 1
    zh = words.decision_table(result, "zh")
    assert list(zh.columns) == ["结点", "判断"] and zh["判断"].iloc[0] != table["decision"].iloc[0]


def test_leaf_table_mixes_to_the_prediction(melon):
    model, X, _ = melon
    result = explain_prediction(model, {c: None for c in X.columns})
    assert result.fractional
    table = words.leaf_table(result)
    leaves, total = table.iloc[:-1], table.iloc[-1]
    assert leaves["leaf"].tolist() == [f"#{lf.node_id}" for lf in result.leaves]
    assert total["leaf"] == "Σ" and float(total["w"]) == pytest.approx(1.0)
    for c, p in zip(result.classes, result.distribution):
        assert float(total[md(f"w·p({c})")]) == pytest.approx(p, abs=5e-4)
        column = [float(v) for v in leaves[md(f"w·p({c})")]]
        assert sum(column) == pytest.approx(p, abs=5e-3)
    assert list(words.leaf_table(result, "zh").columns)[0] == "叶结点"
    assert list(words.decision_table(result).columns) == ["node", "decision", "weight arriving"]


def test_regression_leaf_table_has_means():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=40), "b": rng.normal(size=40)})
    model = DecisionTreeRegressor(max_depth=2).fit(X, X["a"] * 2)
    result = explain_prediction(model, X.iloc[0].to_dict())
    table = words.leaf_table(result)
    assert list(table.columns) == ["leaf", "w", "mean", "w·mean"]
    assert float(table["w·mean"].iloc[-1]) == pytest.approx(result.prediction, rel=1e-3)
    assert words.headline(result) == f"#### Prediction: {result.prediction:.4g}"
    assert words.headline(result, "zh") == f"#### 预测值：{result.prediction:.4g}"


def test_headline_and_which_tree(iris):
    model, X, _ = iris
    result = explain_prediction(model, X.iloc[0].to_dict(), k=1)
    assert words.headline(result) == "#### Prediction: setosa"
    assert words.headline(result, "zh") == "#### 预测类别：setosa"
    assert words.tree_of(1, 4) == "on the tree after step 1 of 4"
    assert words.tree_of(1, 4, "zh") == "第 1 步（共 4 步）之后的树"
    assert words.tree_of(None, 4) == "on the final tree"


# -- the importances ----------------------------------------------------------------

def test_summary_and_terms_tables_match_the_importances(iris):
    model, _, _ = iris
    k = 2
    summary = importance_summary(model, k)
    table = words.summary_table(summary)
    expected = importances_at(model, k)[summary["feature"].to_numpy()]
    assert [float(v) for v in table["importance"]] == pytest.approx(expected, abs=5e-5)
    assert table["feature"].tolist() == [md(model.feature_names_in_[f])
                                         for f in summary["feature"]]
    assert table["splits on it (nodes)"].tolist() == [
        ", ".join(f"#{v}" for v in nodes) or "–" for nodes in summary["nodes"]]
    terms = importance_terms(model, k)
    rows = words.terms_table(terms)
    assert len(rows) == k and rows["step"].tolist() == [1, 2]
    assert rows["node"].tolist() == [f"#{s.node}" for s in model.steps_[:k]]
    assert [float(v) for v in rows["(Nt/N)·Δ(t)"]] == pytest.approx(terms["term"], abs=5e-5)
    assert list(words.terms_table(terms, "zh").columns)[:3] == ["步", "结点", "特征"]
    assert "重要性" in words.summary_table(summary, "zh").columns


def test_importance_caption():
    assert words.importance_caption(4, 4) == text(words.TEXTS, "fully_grown")
    assert words.importance_caption(2, 4) == (
        "After 2 of 4 steps: only the splits made so far count.")
    assert words.importance_caption(2, 4, "zh") == "第 2 步（共 4 步）之后：只计入到目前为止的划分。"


def test_texts_exist_in_both_languages():
    for name, (en, zh) in words.TEXTS.items():
        assert text(words.TEXTS, name) == en and text(words.TEXTS, name, "zh") == zh and en != zh
