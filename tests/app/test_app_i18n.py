"""The Data and Grow pages in 中文: every label, message, table header and
chart text the pages write is Chinese (with the lecture notes' terms), the English
interface is unchanged, switching the language keeps the view, and every
``tr(en, zh)`` call in pages/ has a real Chinese text."""

import ast
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from dtree import DecisionTreeClassifier
from dtree.views import viz
from tests.helpers.apptest import APP, assert_clean

ROOT = Path(__file__).resolve().parents[2]
DATA, GROW = "pages/data.py", "pages/grow.py"
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")

#: English texts of the pages that must not be left in the Chinese interface.
GROW_ENGLISH = [
    "First step", "Previous step", "Next step", "Last step", "Play", "Pause", "Speed",
    "Step (splits made so far)", "Node inspector", "Decision regions", "Accuracy",
    "Export", "training rows", "Step 0 of", "Vermillion border", "Loading the node",
    "Follow the steps", "Following the steps", "Map of the tree", "Every feature's best",
    "Gain of every split", "Gain curve of feature", "A leaf for now", "Split in step",
    "Node #", "depth", "rows", "Tree", "Algorithm", "Criterion", "Splitter",
    "Growth order", "Display", "Tree layout", "no limit", "Gini index",
    "Entropy (information gain)", "Gain ratio", "depth-first", "best-first",
    "breadth-first", "CART: binary", "Horizontal axis", "Vertical axis",
    "The tree also splits", "as the tree grows", "step (splits made)",
    "of each threshold", "children too small", "chosen:", "train", "test",
    "impurity", "gain", "feature", "split", "Presenter mode",
    # the tree's words, which the legend under the tree names
    "samples", "value", "class", "priority", "True", "False",
]
DATA_ENGLISH = [
    "Data", "Source", "Built-in dataset", "Upload a file", "In use", "Columns",
    "Target (what the tree predicts)", "Task", "auto (", "classification", "Features",
    "all other columns", "choose", "Categorical features", "Inferred from",
    "Overview", "Rows", "Missing values", "Column summary", "Class balance",
    "Train/test split", "Test fraction", "Random seed", "The same seed",
    "training rows", "test rows", "features for the engine", "Grow the tree",
    "150 flowers", "column", "type", "numeric", "categorical", "distinct", "example",
    "missing", "rows", "Choose options",
]


# -- helpers ---------------------------------------------------------------------

def start(page=GROW, *, via_url=False):
    """A session in 中文 (set before the first run, in the state or the URL)."""
    at = AppTest.from_file(APP, default_timeout=120)
    if via_url:
        at.query_params["lang"] = "zh"
    else:
        at.session_state["lang"] = "zh"
    at.run().run()
    if page != GROW:
        at.switch_page(page).run()
    assert_clean(at)
    return at


def nodes(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from nodes(child)


def figure_texts(spec):
    """Titles, axis titles, trace names, hover texts and annotations of a
    Plotly figure's JSON."""
    fig = json.loads(spec)
    layout = fig.get("layout", {})
    out = []

    def text_of(title):
        return title.get("text", "") if isinstance(title, dict) else title or ""
    out.append(text_of(layout.get("title")))
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")):
            out.append(text_of(axis.get("title")))
    out += [a.get("text", "") for a in layout.get("annotations", [])]
    for trace in fig.get("data", []):
        out.append(trace.get("name") or "")
        for field in ("hovertext", "text"):
            value = trace.get(field)
            out += value if isinstance(value, list) else [value or ""]
        bar = trace.get("marker", {}).get("colorbar", {})
        out.append(text_of(bar.get("title")))
    return [str(t) for t in out if t]


def texts(at):
    """Every text the interface shows: labels, options, help, placeholders,
    Markdown, captions, alerts, headers, metrics, table headers, chart texts
    (the language switch, whose label is bilingual, is left out)."""
    out = []
    for node in nodes(at._tree):
        if getattr(node, "key", None) == "lang_pick":
            continue
        kind = getattr(node, "type", "")
        proto = getattr(node, "proto", None)
        for attr in ("label", "help", "placeholder"):
            value = getattr(proto, attr, None) if proto is not None else None
            if isinstance(value, str) and value:
                out.append(value)
        options = getattr(node, "options", None)
        if isinstance(options, list):
            out += [str(o) for o in options]
        if kind in ("markdown", "caption", "header", "subheader", "title", "error",
                    "warning", "info", "success", "page_link"):
            out.append(str(node.value))
        if kind in ("table", "arrow_data_frame", "dataframe"):
            frame = node.value
            out += [str(c) for c in frame.columns] + [str(i) for i in frame.index]
        if kind == "plotly_chart":
            out += figure_texts(proto.spec)
    return out


def leftovers(at, english):
    """The English phrases (whole words) found in the interface's texts."""
    shown = texts(at)
    found = set()
    for phrase in english:
        pattern = re.compile(r"(?<![A-Za-z_])" + re.escape(phrase) + r"(?![A-Za-z_])")
        for text in shown:
            if pattern.search(text):
                found.add((phrase, text[:80]))
    return sorted(found)


def charts(at):
    return {c.key: c.proto.spec for c in at.get("plotly_chart")}


def title(spec):
    t = json.loads(spec)["layout"].get("title") or {}
    return t.get("text", "") if isinstance(t, dict) else t


def open_panel(at, label):
    at.session_state["panel"] = label
    at.run()
    assert_clean(at)


# -- the Grow page ----------------------------------------------------------------

def test_grow_page_buttons_and_sidebar_are_chinese():
    at = start()
    buttons = {b.key: b.label for b in at.button}
    assert buttons["prev"] == "上一步" and buttons["next"] == "下一步"
    assert buttons["play"] == "播放" and buttons["reset"] == "第一步"
    assert buttons["grow_all"] == "最后一步"
    assert at.selectbox(key="speed").label == "速度"
    assert at.selectbox(key="speed").options == ["慢（2 秒）", "中（1 秒）", "快（0.5 秒）"]
    assert at.slider(key="step").label == "步骤（已完成的划分次数）"
    side = at.sidebar
    labels = {w.key: w.label for w in list(side.selectbox) + list(side.number_input)
              + list(side.radio)}
    assert labels["preset"] == "算法" and labels["criterion"] == "划分准则"
    assert labels["splitter"] == "划分方式" and labels["growth"] == "生长顺序"
    assert labels["max_depth"] == "max_depth（最大深度）"
    assert labels["min_samples_leaf"] == "min_samples_leaf（叶结点最少样本数）"
    assert labels["layout"] == "树的布局"
    assert [h.value for h in side.header] == ["决策树", "显示"]
    assert at.selectbox(key="criterion").options[:3] == [
        "基尼系数（Gini 指数）", "信息熵（信息增益）", "误分类率"]
    assert at.selectbox(key="growth").options == ["深度优先", "最佳优先", "广度优先"]
    assert at.radio(key="layout").options == ["自动", "自上而下", "从左到右"]
    assert any(c.value.startswith("CART：二叉划分") for c in side.caption)
    # the values behind the Chinese labels are the English ones
    assert at.selectbox(key="criterion").value == "gini"
    assert at.selectbox(key="growth").value == "depth_first"
    # Play turns into 暂停
    at.button(key="play").click().run()
    assert at.button(key="play").label == "暂停"


def test_grow_page_text_follows_the_steps_in_chinese():
    at = start()
    text = " ".join(m.value for m in at.markdown)
    assert "鸢尾花 Iris · CART · 基尼系数（Gini 指数） · 深度优先 · 114 个训练样本" in text
    assert "**第 0 步（共 5 步）：** 根结点包含全部 114 个训练样本" in text
    at.button(key="next").click().run()
    assert_clean(at)
    text = " ".join(m.value for m in at.markdown)
    # 38 setosa go left, 76 rows right (the engine's numbers, as in English)
    assert "**第 1 步（共 5 步）：** 结点 #0 按" in text
    assert "左侧 38 个样本，右侧 76 个；增益 0.3" in text
    assert at.subheader[0].value == "结点 #0：深度 0，114 个样本"
    assert [t.label for t in at.tabs] == ["结点检查", "预测", "特征重要性", "决策区域", "准确率",
                                          "混淆矩阵", "生长顺序", "导出"]
    cand = [t.value for t in at.table][0]
    assert list(cand.columns)[:5] == ["选中", "特征", "划分", "增益", "信息增益比"]
    assert "✔" in list(cand["选中"])
    assert leftovers(at, GROW_ENGLISH) == []


def test_entropy_gain_is_called_information_gain():
    at = start()
    at.selectbox(key="criterion").set_value("entropy").run()
    at.button(key="next").click().run()
    assert_clean(at)
    text = " ".join(m.value for m in at.markdown)
    assert re.search(r"信息增益 0\.9\d\d", text), text
    assert "信息增益" in [t.value for t in at.table][0].columns
    at.selectbox(key="preset").set_value("C4.5").run()
    at.button(key="next").click().run()
    text = " ".join(m.value for m in at.markdown)
    assert re.search(r"信息增益比 \d\.\d{3}", text), text


def test_grow_page_charts_are_chinese():
    at = start()
    at.button(key="next").click().run()
    at.session_state["gain_chart"] = True
    at.session_state["node_map"] = True
    at.run()
    assert_clean(at)
    specs = charts(at)
    curve = specs["curve_0"]
    assert title(curve).endswith("各个阈值的增益")
    assert "选中" in " ".join(figure_texts(curve))
    hover = " ".join(figure_texts(specs["inspect_plot"]))
    assert "结点 #0" in hover and "样本数 114" in hover and "类别" in hover
    assert leftovers(at, GROW_ENGLISH) == []
    open_panel(at, "准确率")
    score = charts(at)["scores"]
    assert title(score) == "准确率随决策树生长的变化"
    words = figure_texts(score)
    assert "训练集" in words and "测试集" in words and "第 1 步" in words
    assert "步骤（已完成的划分次数）" in words
    assert any(m.value.startswith("第 1 步：训练集准确率 ") for m in at.markdown)
    assert leftovers(at, GROW_ENGLISH) == []
    open_panel(at, "决策区域")
    assert "regions" in charts(at)
    assert at.selectbox(key="fx").label == "横轴" and at.selectbox(key="fy").label == "纵轴"
    assert leftovers(at, GROW_ENGLISH) == []
    open_panel(at, "导出")
    assert leftovers(at, ["Export", "Drawing for DOT", "The whole growth"]) == []


def test_categorical_charts_and_multiway_terms_are_chinese():
    at = start(DATA)
    at.selectbox(key="builtin").set_value("Loan applications (Li Hang)").run()
    at.switch_page(GROW).run()
    at.button(key="next").click().run()
    at.session_state["gain_chart"] = True
    at.run()
    assert_clean(at)
    bars = [s for k, s in charts(at).items() if k.startswith("bars_")]
    assert bars and "“该类别对其余类别”的增益" in title(bars[0])
    assert leftovers(at, GROW_ENGLISH) == []
    at.selectbox(key="preset").set_value("ID3").run()
    at.button(key="next").click().run()
    assert_clean(at)
    terms = [s for k, s in charts(at).items() if k.startswith("terms_")]
    assert terms and "各分支的样本占比 × 信息熵" in title(terms[0])
    assert any("个样本，信息熵" in t for t in figure_texts(terms[0]))
    assert any("条件熵 H(D|A)" in c.value for c in at.caption)
    assert any("每个取值一个分支" in m.value for m in at.markdown)
    assert leftovers(at, GROW_ENGLISH) == []


def test_regression_in_chinese():
    at = start(DATA)
    at.selectbox(key="target").set_value("petal width (cm)").run()
    at.selectbox(key="task").set_value("regression").run()
    assert at.selectbox(key="task").options == ["自动（回归）", "分类", "回归"]
    assert any("回归任务" in s.value for s in at.success)
    assert any("均值" in i for d in at.dataframe for i in map(str, d.value.index))
    at.switch_page(GROW).run()
    assert_clean(at)
    assert at.sidebar.selectbox(key="criterion").options[0] == "均方误差（方差）"
    at.button(key="next").click().run()
    open_panel(at, "R²")
    assert title(charts(at)["scores"]) == "R²随决策树生长的变化"
    open_panel(at, "决策区域")
    words = figure_texts(charts(at)["regions"])
    assert "样本" in words and "目标值" in words
    assert leftovers(at, GROW_ENGLISH) == []


def test_a_leaf_of_the_final_tree_says_why_in_chinese():
    at = start()
    at.button(key="grow_all").click().run()
    at.selectbox(key="inspect_select").set_value(1).run()  # setosa: pure
    assert_clean(at)
    assert any(m.value == "最终决策树的叶结点（停止划分的原因：纯结点（不纯度为 0））。"
               for m in at.markdown)
    assert any(r"\text{纯结点}" in el.value for el in at.latex)


# -- the Data page ----------------------------------------------------------------

def test_data_page_is_chinese():
    at = start(DATA, via_url=True)
    assert at.title[0].value == "数据"
    assert at.button_group(key="source").options == ["内置数据集", "上传文件",
                                                     "打开已训练的 scikit-learn 决策树（.skops）"]
    assert at.selectbox(key="builtin").label == "内置数据集"
    assert "鸢尾花 Iris：150 朵鸢尾花，4 项测量，3 个品种" in at.selectbox(key="builtin").options
    assert "《统计学习方法》表5.1" in " ".join(at.selectbox(key="builtin").options)
    assert at.selectbox(key="target").label == "目标（决策树要预测的列）"
    assert at.selectbox(key="task").options == ["自动（分类）", "分类", "回归"]
    assert at.radio(key="feature_mode").options == ["其余所有列（4）", "自选"]
    assert [h.value for h in at.header] == ["列", "概览", "训练集/测试集划分"]
    assert [m.label for m in at.metric] == ["行数", "列数", "缺失值"]
    assert at.slider(key="test_size").label == "测试集比例"
    assert at.number_input(key="seed").label == "随机种子"
    summary = [d.value for d in at.dataframe if "类型" in d.value.columns][0]
    assert list(summary.columns) == ["列", "类型", "缺失", "不同取值数", "示例"]
    assert set(summary["类型"]) == {"数值", "类别"}
    balance = charts(at)["balance"]
    assert title(balance) == "类别分布" and "样本数" in figure_texts(balance)
    assert any(s.value == "训练集 114 行，测试集 36 行；4 个特征交给算法；分类任务。"
               for s in at.success)
    assert at.get("page_link")[0].value == "生长决策树"
    assert "**当前数据：** 鸢尾花 Iris — 150 行 × 5 列" in [m.value for m in at.markdown]
    assert leftovers(at, DATA_ENGLISH) == []
    at.radio(key="feature_mode").set_value("choose").run()
    assert at.multiselect(key="features").label == "特征列"
    assert leftovers(at, DATA_ENGLISH) == []


def test_data_page_upload_and_its_error_in_chinese():
    at = start(DATA)
    at.button_group(key="source").set_value("Upload a file").run()
    assert_clean(at)
    assert at.get("file_uploader")[0].proto.label.startswith("CSV、TSV、Excel")
    assert any(c.value.startswith("文件最大 ") for c in at.caption)
    at.file_uploader(key="upload").set_value(("bad.csv", b"", "text/csv")).run()
    assert_clean(at)
    errors = " ".join(e.value for e in at.error)
    assert "无法使用 **bad\\.csv**" in errors and "仍在使用 **鸢尾花 Iris**" in errors


def test_identifier_columns_are_explained_in_chinese():
    at = start(DATA)
    frame = pd.DataFrame({"id": [f"D{i}" for i in range(20)],
                          "x": np.arange(20) % 7, "y": ["a", "b"] * 10})
    at.button_group(key="source").set_value("Upload a file").run()
    at.file_uploader(key="upload").set_value(
        ("ids.csv", frame.to_csv(index=False).encode(), "text/csv")).run()
    assert_clean(at)
    assert any(c.value.startswith("未使用：“id”") for c in at.caption)


# -- the language switch ----------------------------------------------------------

def test_switching_the_language_keeps_the_view():
    at = AppTest.from_file(APP, default_timeout=120).run().run()
    at.number_input(key="max_depth").set_value(2).run()
    at.selectbox(key="criterion").set_value("entropy").run()
    at.button(key="next").click().run()
    open_panel(at, "Decision regions")
    at.session_state["lang"] = "zh"
    at.run()
    assert_clean(at)
    assert at.button(key="next").label == "下一步"
    assert at.number_input(key="max_depth").value == 2
    assert at.selectbox(key="criterion").value == "entropy"
    assert at.slider(key="step").value == 1
    assert at.session_state["panel"] == "决策区域" and "regions" in charts(at)
    at.session_state["lang"] = "en"
    at.run()
    assert at.session_state["panel"] == "Decision regions" and "regions" in charts(at)
    assert at.button(key="next").label == "Next step"


def test_switching_the_language_keeps_the_data_choices():
    at = AppTest.from_file(APP, default_timeout=120).run().run()
    at.switch_page(DATA).run()
    at.radio(key="feature_mode").set_value("choose").run()
    at.multiselect(key="features").set_value(["petal length (cm)", "petal width (cm)"]).run()
    at.multiselect(key="categorical").set_value(["petal width (cm)"]).run()
    at.slider(key="test_size").set_value(0.3).run()
    before = [s.value for s in at.success]
    at.session_state["lang"] = "zh"
    at.run()
    assert_clean(at)
    assert at.radio(key="feature_mode").value == "choose"
    assert at.multiselect(key="features").value == ["petal length (cm)", "petal width (cm)"]
    assert at.multiselect(key="categorical").value == ["petal width (cm)"]
    assert at.slider(key="test_size").value == 0.3
    assert before == ["105 training rows and 45 test rows; 2 features for the engine; "
                      "classification."]
    assert [s.value for s in at.success] == [
        "训练集 105 行，测试集 45 行；2 个特征交给算法；分类任务。"]


def test_english_stays_the_default():
    at = AppTest.from_file(APP, default_timeout=120).run().run()
    assert at.button(key="next").label == "Next step"
    assert at.sidebar.selectbox(key="criterion").options[0] == "Gini index"
    at.button(key="next").click().run()
    open_panel(at, "Accuracy")
    assert title(charts(at)["scores"]) == "accuracy as the tree grows"
    assert not any(CJK.search(t) for t in texts(at) if t not in ("中文",))


# -- the figure builders ------------------------------------------------------------

@pytest.fixture(scope="module")
def iris_model():
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True, as_frame=True)
    return DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y), X, y


def test_figures_default_to_english_and_speak_chinese_when_asked(iris_model):
    model, X, y = iris_model
    train, test = np.array([0.3, 0.6, 0.9]), np.array([0.3, 0.5, 0.8])
    en = viz.score_figure(train, test, 1, "accuracy")
    zh = viz.score_figure(train, test, 1, "准确率", lang="zh")
    assert en.layout.title.text == "accuracy as the tree grows"
    assert zh.layout.title.text == "准确率随决策树生长的变化"
    assert [t.name for t in zh.data] == ["训练集", "测试集"]
    assert list(zh.data[0].y) == list(en.data[0].y)  # same numbers
    tree = model.tree_
    hover_en = " ".join(viz.tree_figure(tree, model).data[1].hovertext)
    hover_zh = " ".join(viz.tree_figure(tree, model, lang="zh").data[1].hovertext)
    assert "node #0" in hover_en and "samples 150" in hover_en
    assert "结点 #0" in hover_zh and "样本数 150" in hover_zh and "叶结点" in hover_zh
    bars = viz.bar_figure(["a", "b"], [3, 4], "类别分布", lang="zh")
    assert bars.layout.yaxis.title.text == "样本数"
    assert viz.bar_figure(["a"], [1], "t").layout.yaxis.title.text == "rows"
    point = X.to_numpy().mean(axis=0)
    regions = viz.regions_figure(tree, model, 2, 3, point, X.to_numpy(), y.to_numpy(),
                                 lang="zh")
    assert regions.layout.xaxis.title.text == "petal length (cm)"
    assert viz.impurity_label("gain_ratio", "zh") == "信息熵"
    assert viz.impurity_label("gini", "zh") == "基尼系数"
    assert viz.impurity_label("squared_error") == "mse"


# -- every tr() call has a Chinese text ----------------------------------------------

def _literal(node):
    """The text of a str constant or f-string argument (None for anything else)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}"
                       for v in node.values)
    return None


def tr_calls():
    """(file, line, en, zh) of every tr(...) call with literal arguments in
    pages/ and its sub-packages, each file named by its path under pages/
    (files that never call tr are skipped)."""
    out = []
    for path in sorted((ROOT / "pages").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr" \
                    and len(node.args) == 2:
                en, zh = (_literal(a) for a in node.args)
                if en is not None and zh is not None:
                    out.append((path.relative_to(ROOT / "pages").as_posix(), node.lineno, en,
                                zh))
    return out


def test_the_pages_call_tr():
    files = {name for name, *_ in tr_calls()}
    assert {"data.py", "grow.py", "panels/sidebar.py", "state/session.py"} <= files


@pytest.mark.parametrize("name, line, en, zh", [
    pytest.param(*call, id=f"{call[0]}:{call[1]}") for call in tr_calls()])
def test_every_tr_call_has_a_chinese_text(name, line, en, zh):
    assert en.strip(), f"{name}:{line}: empty English text"
    assert zh.strip() and zh != en, f"{name}:{line}: no Chinese text for {en!r}"
    assert CJK.search(zh), f"{name}:{line}: {zh!r} has no Chinese character"
    # the same numbers and as many interpolated values in both texts
    numbers = re.compile(r"\d+(?:\.\d+)?")
    assert sorted(numbers.findall(en)) == sorted(numbers.findall(zh)), \
        f"{name}:{line}: numbers differ: {en!r} / {zh!r}"
    assert en.count("{}") == zh.count("{}"), f"{name}:{line}: interpolations differ"
