"""中文 on every word: with ``lang="zh"`` the trees' DOT,
the Plotly figures and the engine's messages shown on the pages carry no
English word; only the user's own names (features, classes, categories)
and the formulas' symbols stay as they are.  English stays the default."""

import json
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from streamlit.testing.v1 import AppTest

from dtree import DecisionTreeClassifier, DecisionTreeRegressor, lookahead_tree
from dtree.views import compare, downloads, explain
from dtree.views import learn, orders, prediction, viz
from dtree.views import pruneview as pv
from dtree._problem import STOP_REASONS
from dtree._pruning import ccp_cross_validate, ccp_holdout, pruning_sequence
from dtree import export_graphviz
from dtree.tables.io import DataError, read_table
from dtree.tables.prepare import Setup, prepare
from dtree.views.narration import STOP_REASONS_ZH
from dtree import MESSAGES, TREE_FILE_MESSAGES
from dtree.views.messages import MESSAGES_ZH
from pages.language.terms import message_zh
from tests.helpers.apptest import APP

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
#: Any English word (two letters or more; g(t), w, p, D, T are symbols).
WORD = re.compile(r"[A-Za-z]{2,}")
#: The English words the boxes used to carry, and every stop reason's text.
ENGLISH = ["node", "samples", "value", "class", "entropy", "gini", "gain", "ratio",
           "priority", "impurity", "mse", "leaf", "pruned", "True", "False", "in",
           *[r for r in STOP_REASONS if r]]
#: Notation the figures share with the lecture notes (standard error, cross-
#: validation, Gini's name next to 基尼系数, 1 − max p, |Dv|/|D|, Nt).
NOTATION = {"SE", "CV", "Gini", "max", "Dv", "Nt"}


# -- helpers ------------------------------------------------------------------------

def dot_texts(dot):
    """Every text Graphviz draws: node labels and edge (head)labels, split at
    the DOT line breaks."""
    out = []
    for text in re.findall(r'(?<![a-z_])(?:head)?label="((?:[^"\\]|\\.)*)"', dot):
        out += text.split("\\n")
    return out


def english_left(texts, user_names=()):
    """The English words left in ``texts`` once the user's names are taken
    out (longest first, so that a name containing another goes whole)."""
    found = []
    names = sorted({str(n) for n in user_names}, key=len, reverse=True)
    for text in texts:
        for name in names:
            text = text.replace(name, " ")
        text = re.sub(r"%\{[^}]*\}", " ", text)  # Plotly placeholders
        text = re.sub(r"<[^>]*>", " ", text)  # Plotly's HTML tags
        text = re.sub(r"&[a-z]+;", " ", text)  # and entities (&gt;)
        found += [w for w in WORD.findall(text) if w not in NOTATION]
    return found


def assert_chinese_dot(dot, user_names):
    texts = dot_texts(dot)
    assert texts, dot
    left = english_left(texts, user_names)
    assert left == [], (left, texts)
    for word in ENGLISH:  # the brief's list, whole words, outside the user's names
        pattern = re.compile(r"(?<![A-Za-z])" + re.escape(word) + r"(?![A-Za-z])")
        assert not any(pattern.search(t) for t in english_texts_only(texts, user_names)), word


def english_texts_only(texts, user_names):
    names = sorted({str(n) for n in user_names}, key=len, reverse=True)
    out = []
    for text in texts:
        for name in names:
            text = text.replace(name, " ")
        out.append(text)
    return out


def figure_texts(fig):
    """Titles, axis titles, legend names, annotations, colour-bar titles and
    hover/bar texts of a Plotly figure (or figure dict)."""
    d = json.loads(fig.to_json()) if hasattr(fig, "to_json") else fig
    layout = d.get("layout", {})

    def text_of(t):
        return t.get("text", "") if isinstance(t, dict) else t or ""
    out = [text_of(layout.get("title"))]
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")):
            out.append(text_of(axis.get("title")))
    out += [a.get("text", "") for a in layout.get("annotations", [])]
    for trace in d.get("data", []):
        out.append(trace.get("name") or "")
        out.append(text_of(trace.get("marker", {}).get("colorbar", {}).get("title")))
        for field in ("hovertext", "text", "hovertemplate"):
            value = trace.get(field)
            values = value if isinstance(value, list) else [value]
            for v in values:
                out += [str(x) for x in v] if isinstance(v, list) else [str(v or "")]
    for frame in d.get("frames", []):
        out += figure_texts({"data": frame.get("data", []), "layout": frame.get("layout", {})})
    return [t for t in out if t]


# -- fitted trees with English names --------------------------------------------------

@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True, as_frame=True)
    names = list(X.columns)
    classes = ["setosa", "versicolor", "virginica"]
    y = pd.Series(np.array(classes, dtype=object)[y.to_numpy()], name="species")
    return X, y, names + classes


@pytest.fixture(scope="module")
def shapes():
    """Categorical features with English names and labels (values that are
    English words too: they are the user's and must stay)."""
    rng = np.random.default_rng(0)
    n = 120
    colour = rng.choice(["red", "green", "blue", "value"], n)
    size = rng.normal(10, 3, n).round(1)
    size[:6] = np.nan
    label = np.where((colour == "red") | (size > 11), "class", "other")
    X = pd.DataFrame({"colour": colour, "size": size})
    return X, pd.Series(label), ["colour", "size", "red", "green", "blue", "value", "class",
                                 "other"]


@pytest.mark.parametrize("criterion", ["gini", "entropy", "misclassification", "taylor2"])
def test_step_dot_in_chinese_has_no_english_word(iris, criterion):
    X, y, names = iris
    model = DecisionTreeClassifier(criterion=criterion, max_depth=3, random_state=0).fit(X, y)
    k = 2
    cc = pv_cost_complexity(model, k)
    dot, _ = viz.step_dot(model, k, cost_complexity=cc, lang="zh")
    assert_chinese_dot(dot, names)
    texts = dot_texts(dot)
    assert "结点 #0" in texts and "样本数 = 150" in texts
    assert "类别分布 = [50, 50, 50]" in texts
    assert any(t.startswith("类别 = ") for t in texts)
    assert any("g(t) = " in t for t in texts)
    gain = "信息增益" if criterion == "entropy" else "增益"
    assert any(t.startswith(f"{gain} = ") for t in texts), texts
    assert '[label="是"' in dot and '[label="否"' in dot
    impurity = viz.impurity_label(criterion, "zh")
    assert CJK.search(impurity) and any(t.startswith(f"{impurity} = ") for t in texts)


def pv_cost_complexity(model, k):
    from dtree._pruning import cost_complexity_table
    return cost_complexity_table(model.tree_at(k))


def test_step_dot_defaults_to_english(iris):
    X, y, _ = iris
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    texts = dot_texts(viz.step_dot(model, 1)[0])
    assert "node #0" in texts and "samples = 150" in texts and "gini = 0.667" in texts
    assert "value = [50, 50, 50]" in texts and "class = setosa" in texts
    assert any(t.startswith("gain = ") for t in texts)
    en = export_graphviz(model)
    assert '[label="True"' in en and '[label="False"' in en


def test_best_first_gain_ratio_and_path_in_chinese(iris):
    X, y, names = iris
    model = DecisionTreeClassifier(algorithm="c4.5", max_leaf_nodes=4, random_state=0).fit(X, y)
    assert model.growth_ == "best_first"
    dot, _ = viz.step_dot(model, 1, lang="zh")
    assert_chinese_dot(dot, names)
    texts = dot_texts(dot)
    assert any(t.startswith("信息增益比 = ") for t in texts)
    assert any(t.startswith("优先级 = ") for t in texts)  # leaves waiting to be split
    assert any(t.startswith("信息熵 = ") for t in texts)
    path = prediction.explain_prediction(model, X.iloc[0], k=1).path
    dot, info = viz.step_dot(model, 1, path=path, lang="zh")
    assert info["path"] and "peripheries=2" in dot
    assert_chinese_dot(dot, names)


def test_categorical_splits_and_regression_in_chinese(shapes):
    X, y, names = shapes
    cart = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    dot, _ = viz.step_dot(cart, len(cart.steps_), lang="zh")
    assert_chinese_dot(dot, names)
    assert any(" ∈ {" in t for t in dot_texts(dot)), dot  # a subset split
    c45 = DecisionTreeClassifier(algorithm="c4.5", max_depth=2, random_state=0).fit(X, y)
    dot, _ = viz.step_dot(c45, len(c45.steps_), lang="zh")
    assert_chinese_dot(dot, names)
    # multiway: the edges name the user's categories, unchanged
    assert re.search(r'label="(red|green|blue|value)"', dot), dot
    reg = DecisionTreeRegressor(max_depth=2, random_state=0).fit(
        X.assign(colour=X["colour"]), np.arange(len(X), dtype=float))
    dot, _ = viz.step_dot(reg, len(reg.steps_), lang="zh")
    assert_chinese_dot(dot, names)
    texts = dot_texts(dot)
    assert any(t.startswith("均方误差 = ") for t in texts)
    assert any(t.startswith("均值 = ") for t in texts)


def test_export_graphviz_options_in_chinese(iris):
    X, y, names = iris
    model = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    dot = export_graphviz(model, proportion=True, node_ids=True, max_depth=1, lang="zh",
                          impurity_name=viz.impurity_label("gini", "zh"))
    assert_chinese_dot(dot, names)
    assert "样本占比 = 100.0%" in dot_texts(dot)
    with pytest.raises(ValueError, match="lang"):
        export_graphviz(model, lang="fr")


def test_user_text_stays_escaped_in_a_chinese_tree():
    X = pd.DataFrame({'a"] ; evil [label="x': [0, 1, 2, 3, 4, 5], "b\\nc": [1, 1, 0, 0, 1, 0]})
    y = ['"q"', '"q"', "<b>", "<b>", "<b>", '"q"']
    model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    k = len(model.steps_)
    quoted = re.compile(r'"(?:[^"\\]|\\.)*"')
    zh, en = viz.step_dot(model, k, lang="zh")[0], viz.step_dot(model, k)[0]
    # outside the quoted strings the two drawings are the same statements (but
    # for the width of a box with Chinese, a number of ours), and the user's
    # text never gets out of its string
    outside = [re.sub(r", width=[\d.]+", "", quoted.sub('""', line)) for line in zh.splitlines()]
    assert outside == [quoted.sub('""', line) for line in en.splitlines()]
    assert not any("evil" in line or "<b>" in line for line in outside)
    assert 'a\\"] ; evil [label=\\"x <= ' in zh and '类别 = \\"q\\"' in zh


def test_every_tree_drawing_passes_the_language(iris):
    X, y, names = iris
    model = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    seq = pruning_sequence(model.tree_)
    tree = seq.tree_at(1)
    g = {int(n): 0.01 for n in model.tree_.node_ids}
    dot, _ = pv.tree_dot(model, tree, g_by_id=g, lang="zh")
    assert_chinese_dot(dot, names)
    assert "（已剪枝）" in dot
    keep = seq.keep_mask(1)
    collapsed = [int(s.node_id) for s in seq.steps[:1]]
    dot, _ = pv.greyed_dot(model, model.tree_, keep, collapsed=collapsed, g_by_id=g, lang="zh")
    assert_chinese_dot(dot, names)
    models = {growth: DecisionTreeClassifier(max_depth=3, growth=growth).fit(X, y)
              for growth in orders.ORDERS}
    comparison = orders.compare_fitted(models, None)
    dot = orders.orders_dot(comparison, "depth_first", label_lines={0: ["深 1"]}, lang="zh")
    assert_chinese_dot(dot, names)
    for style in ("app", "plain"):
        dot = downloads.tree_dot(model, 2, style=style, lang="zh")
        assert_chinese_dot(dot, names)
        assert "node #0" in downloads.tree_dot(model, 2, style=style)  # English by default


# -- Plotly figures -----------------------------------------------------------------

def test_every_figure_in_chinese_has_no_english_word(iris, shapes):
    X, y, names = iris
    model = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    Xs, ys, snames = shapes
    reg = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X.iloc[:, :3], X.iloc[:, 3])
    train, test = np.array([0.3, 0.6, 0.9]), np.array([0.3, 0.5, 0.8])
    codes = explain.class_codes(model.classes_, y)
    curve = explain.threshold_curve(X.iloc[:, 2].to_numpy(), codes, "gini", 3)
    colour = Xs["colour"].to_numpy(dtype=object)
    scodes = (ys == "class").to_numpy().astype(int)
    X_train, X_test, y_train, y_test = X.iloc[::2], X.iloc[1::2], y.iloc[::2], y.iloc[1::2]
    fitted = [DecisionTreeClassifier(criterion=c, max_depth=3).fit(X_train, y_train)
              for c in ("gini", "entropy")]
    profiles = [compare.Profile(m, X_train, y_train, X_test, y_test) for m in fitted]
    matrix = compare.agreement_matrix([p.test_predictions(2) for p in profiles])
    seq = pruning_sequence(model.tree_)
    cv = ccp_cross_validate(fitted[0], X_train, y_train, cv=5, random_state=0)
    holdout = ccp_holdout(fitted[0], X_test, y_test)
    loan = learn.gain_example(*learn.load_example("loan")[:2])
    point = X.to_numpy().mean(axis=0)
    figures = {
        "score": viz.score_figure(train, test, 1, "准确率", lang="zh"),
        "tree": viz.tree_figure(model.tree_, model, lang="zh"),
        "gain curve": viz.gain_curve_figure(curve, names[2], 2.45, "gain", "增益", lang="zh"),
        "regions": viz.regions_figure(model.tree_, model, 2, 3, point, X.to_numpy(),
                                      y.to_numpy(), lang="zh"),
        "regions, regression": viz.regions_figure(
            reg.tree_, reg, 0, 1, point[:3], X.iloc[:, :3].to_numpy(),
            X.iloc[:, 3].to_numpy(), lang="zh"),
        "bars": viz.bar_figure(["a"], [1], "类别分布", lang="zh"),
        "category": viz.category_figure(
            explain.category_gains(colour, scodes, "gini", 2), "colour", lang="zh"),
        "category terms": viz.category_terms_figure(
            explain.category_terms(colour, scodes, "entropy", 2), "colour",
            viz.impurity_label("entropy", "zh"), lang="zh"),
        "compare scores": compare.scores_figure(profiles, ["a", "b"], 2, "准确率", lang="zh"),
        "agreement": compare.agreement_figure(matrix, ["a", "b"], lang="zh"),
        "agreement, regression": compare.agreement_figure(matrix, ["a", "b"], False,
                                                          lang="zh"),
        "impurity": compare.impurity_figure(0.3, lang="zh"),
        "impurity, many classes": compare.impurity_figure(0.3, False, lang="zh"),
        "alpha path": pv.path_figure(seq, 0.01, lang="zh"),
        "leaves": pv.leaves_figure(seq, 0.01, lang="zh"),
        "errors": pv.error_figure(cv, holdout, alpha=cv["alpha"].iloc[1], lang="zh"),
        "errors, regression": pv.error_figure(cv, lang="zh", regression=True),
        "learn impurity": learn.impurity_figure([9, 6], lang="zh"),
        "learn impurity, 3 classes": learn.impurity_figure([3, 3, 2], lang="zh"),
        "gain ratio": learn.gain_ratio_figure(loan, lang="zh"),
        "importances": prediction.importance_figure(prediction.importances_at(model),
                                                    names[:4], lang="zh"),
        "distribution": prediction.distribution_figure(
            prediction.explain_prediction(model, X.iloc[0]), "zh"),
        "distribution, regression": prediction.distribution_figure(
            prediction.explain_prediction(reg, X.iloc[0, :3]), "zh"),
        "growth html": downloads.growth_figure_dict(model, lang="zh"),
    }
    user = names + snames + ["a", "b"]
    for name, fig in figures.items():
        texts = figure_texts(fig)
        # (a classification's regions show only the user's names and numbers)
        assert name == "regions" or any(CJK.search(t) for t in texts), name
        assert english_left(texts, user) == [], name
    # and in English by default
    assert viz.category_figure(explain.category_gains(colour, scodes, "gini", 2),
                               "colour").layout.yaxis.title.text == "gain"


# -- the engine's messages ------------------------------------------------------------

def engine_messages():
    """Messages the engine really gives (errors and notes), by provoking them."""
    out = []

    def error(call):
        with pytest.raises(ValueError) as exc:
            call()
        out.append(exc.value)

    frame = pd.DataFrame({"t": ["a", "b"] * 6 + [None], "x": [1.0] * 6 + ["oops"] * 1 +
                          [np.inf] + [2.0] * 5, "c": list("pqrpqrpqrpqrp"),
                          "words": ["w"] * 13})
    error(lambda: prepare(frame, Setup("missing", ("x",))))
    error(lambda: prepare(frame, Setup("t", ())))
    error(lambda: prepare(frame.assign(t=None), Setup("t", ("x",))))
    error(lambda: prepare(pd.DataFrame({"t": range(60), "x": range(60)}),
                          Setup("t", ("x",), task="classification")))
    error(lambda: prepare(frame, Setup("t", ("x",), task="regression")))
    error(lambda: prepare(pd.DataFrame({"t": [1, 2] * 600, "x": [str(i) for i in range(1200)]}),
                          Setup("t", ("x",), categorical=("x",))))
    out += prepare(frame, Setup("t", ("x", "c", "words"), categorical=("c",))).notes
    out += prepare(pd.DataFrame({"t": [1, 2] * 20, "x": [str(i) for i in range(40)]}),
                   Setup("t", ("x",), categorical=("x",))).notes  # many categories
    out += prepare(pd.DataFrame({"t": ["a"] * 4, "x": [1, 2, 3, 4]}), Setup("t", ("x",))).notes
    with_missing = prepare(pd.DataFrame({"t": list("abab") * 3, "x": [1.0, None] * 6}),
                           Setup("t", ("x",)))
    out += with_missing.complete_rows().notes
    for data, name in [(b"", "a.csv"), (b"   \n", "a.csv"), (b"\x89PNG\r\n\x1a\n...", "a.csv"),
                       (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a.xls"), (b"a,b\n", "a.csv"),
                       (b"PK\x03\x04junk", "a.xlsx"), (b"x,y", "a.xlsx")]:
        error(lambda: read_table(data, name))
    out += read_table(b"a;b;;a\n1,5;2;3;4\n", "a.csv").notes
    error(lambda: DecisionTreeRegressor(criterion="poisson").fit([[0], [1]], [-1.0, 2.0]))
    error(lambda: DecisionTreeRegressor(criterion="absolute_error", missing="c4.5").fit(
        [[0], [np.nan]], [1.0, 2.0]))
    error(lambda: DecisionTreeClassifier(algorithm="id3").fit(
        pd.DataFrame({"f": [0.0, np.nan, 1.0]}), [0, 1, 0]))
    error(lambda: prediction.normalise_sample(
        DecisionTreeClassifier().fit(pd.DataFrame({"f": [0.0, 1.0]}), [0, 1]), {"f": "abc"}))
    # the exhaustive depth-2 search's limits and refusals
    column = np.arange(2001, dtype=float)[:, None]
    error(lambda: lookahead_tree(column, np.arange(2001) % 2))  # rows
    error(lambda: lookahead_tree(column[:1100], np.arange(1100) % 2))  # candidates
    error(lambda: lookahead_tree(column[:900], np.arange(900) % 2))  # work
    error(lambda: lookahead_tree(pd.DataFrame({"c": [f"v{i}" for i in range(12)]}),
                                 np.arange(12) % 2))
    error(lambda: lookahead_tree([[0.0], [np.nan], [1.0]], [0, 1, 0]))
    error(lambda: lookahead_tree([[0.0], [1.0]], [1, 1]))  # nothing to search
    return out


def test_the_engines_messages_are_translated():
    messages = engine_messages()
    assert len(messages) >= 20
    for message in messages:
        zh = message_zh(message)
        assert zh != str(message) and CJK.search(zh), message
    # the user's names go over unchanged; messages without a code stay as they are
    assert message_zh(DataError("empty_target", name="my col")) \
        == "目标列“my col”没有任何取值：全部缺失。"
    assert message_zh("something new") == "something new"
    assert message_zh(ValueError("something new")) == "something new"


def test_every_code_has_chinese():
    assert set(MESSAGES_ZH) == set(MESSAGES)
    assert not set(MESSAGES) & set(TREE_FILE_MESSAGES)  # one code, one message
    for code, template in MESSAGES_ZH.items():
        assert CJK.search(template), code


def test_every_code_raised_for_real_is_worded_in_chinese():
    """Each code's Chinese template takes the values of a real message."""
    from dtree import TreeFileError

    seen = {}
    for message in engine_messages() + coded_messages():
        if isinstance(message, TreeFileError):
            continue  # (their own test, below)
        assert message.code in MESSAGES, message
        zh = message_zh(message)
        # (no placeholder left unfilled; ARFF's own "{a list of values}" is text)
        assert CJK.search(zh) and not re.search(r"\{[a-z_]+(:[^}]*)?\}",
                                                zh.replace("{k}", "")), (message.code, zh)
        assert str(message) == MESSAGES[message.code].format(**message.values)
        seen[message.code] = zh
    missing = set(MESSAGES) - set(seen)
    assert not missing, sorted(missing)


def test_every_tree_file_code_is_raised_for_real_and_worded_in_chinese():
    """Every TreeFileError code is raised for real, here or by the hostile
    corpus (whose test words each in both languages), and its Chinese takes
    the values of a real error."""
    from dtree import TreeFileError
    from tests.helpers.hostile_skops import every_case

    errors = [m for m in coded_messages() if isinstance(m, TreeFileError)]
    for error in errors:
        zh = message_zh(error)
        assert CJK.search(zh) and not re.search(r"\{[a-z_]+(:[^}]*)?\}", zh), (error.code, zh)
        assert not re.search(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}", zh.replace(error.where, "").replace(
            str(error.values.get("detail", "")), "")), zh
    seen = {e.code for e in errors} | {code for *_, code in every_case() if code}
    # (no_nodes guards the arrays behind the node count's own check, "below one")
    assert set(TREE_FILE_MESSAGES) - seen == {"no_nodes"}


def test_stop_reasons_have_chinese_names():
    assert {r for r in STOP_REASONS if r} <= set(STOP_REASONS_ZH)


# -- the pages ---------------------------------------------------------------------

def start_zh(url=None):
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = "zh"
    for key, value in (url or {}).items():
        at.query_params[key] = value
    at.run().run()
    assert not at.exception, [e.message for e in at.exception]
    return at


IRIS_NAMES = ["sepal length (cm)", "sepal width (cm)", "petal length (cm)",
              "petal width (cm)", "setosa", "versicolor", "virginica"]


def test_grow_page_tree_in_chinese():
    at = start_zh({"step": "3"})
    at.button(key="next").click().run()
    at.button(key="next").click().run()
    assert not at.exception
    dots = [g.proto.spec for g in at.get("graphviz_chart")]
    assert dots
    for dot in dots:
        assert_chinese_dot(dot, IRIS_NAMES)
        assert "结点 #0" in dot and '[label="是"' in dot
    # the legend under the tree names the Chinese words, not the English ones
    legend = " ".join(c.value for c in at.caption)
    assert "类别分布：" in legend and "是/否：" in legend
    assert not re.search(r"\b(samples|value|class|True|False|gain|priority)\b", legend)


def test_prune_and_compare_trees_in_chinese():
    at = start_zh()
    at.switch_page("pages/prune.py").run()
    assert not at.exception, [e.message for e in at.exception]
    dots = [g.proto.spec for g in at.get("graphviz_chart")]
    assert dots
    for dot in dots:
        assert_chinese_dot(dot, IRIS_NAMES)
    at = start_zh()
    at.switch_page("pages/compare.py").run()
    assert not at.exception, [e.message for e in at.exception]
    dots = [g.proto.spec for g in at.get("graphviz_chart")]
    assert dots
    for dot in dots:
        assert_chinese_dot(dot, IRIS_NAMES)


def test_upload_error_and_notes_in_chinese():
    at = start_zh()
    at.switch_page("pages/data.py").run()
    at.button_group(key="source").set_value("Upload a file").run()
    at.file_uploader(key="upload").set_value(("x.csv", b"\x89PNG\r\n\x1a\nxx", "text/csv")).run()
    errors = [e.value for e in at.error]
    assert any("这个文件是 PNG 图片，不是表格" in e for e in errors), errors
    at.file_uploader(key="upload").set_value(("y.csv", b"a;b;k\n1,5;2;u\n2,5;3;v\n3,5;1;u\n"
                                              b"4,5;2;v\n5,5;3;u\n6,5;1;v\n", "text/csv")).run()
    captions = " ".join(c.value for c in at.caption)
    assert "编码读取为文本，列之间以分号分隔" in captions, captions
    assert "Read as text" not in captions


def coded_messages():
    """The codes engine_messages does not reach, each raised (or noted) for real."""
    import io as _io

    from dtree import ccp_cross_validate, error_based_prune, pessimistic_prune
    from dtree.tables import io as table_io
    from pages.state import tree_upload

    out = []

    def error(call):
        with pytest.raises(ValueError) as exc:
            call()
        out.append(exc.value)

    clf, reg = DecisionTreeClassifier, DecisionTreeRegressor
    error(lambda: clf().fit([[0.0]], [0]))  # one_sample
    error(lambda: clf().fit([[0.0], [1.0]], [0, 1], sample_weight=[0.0, 0.0]))
    error(lambda: clf(missing="error").fit([[0.0], [np.nan], [1.0]], [0, 1, 0]))
    error(lambda: reg(missing="error").fit([[0.0], [np.nan], [1.0]], [0.0, 1.0, 0.0]))
    error(lambda: clf(multiway=True, missing="cart").fit(
        pd.DataFrame({"c": pd.Categorical(["a", None, "b", "a"])}), [0, 1, 0, 1]))
    error(lambda: clf(splitter="hist", algorithm="j48").fit([[0.0], [1.0]], [0, 1]))
    error(lambda: clf().fit([[0.0], [1.0]], [0.0, np.nan]))
    error(lambda: reg().fit([[0.0], [1.0]], [1e200, 1.0]))
    error(lambda: reg(criterion="poisson").fit([[0.0], [1.0]], [0.0, 0.0]))
    fitted = clf().fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
    error(lambda: ccp_cross_validate(fitted, [[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1], cv=9))
    error(lambda: pessimistic_prune(reg().fit([[0.0], [1.0]], [0.0, 1.0])))
    error(lambda: clf().fit([[1e39], [0.0]], [0, 1]))  # x_infinite: beyond float32
    error(lambda: clf().fit([[0.0], [1.0]], [0.5, 1.5]))  # continuous_labels
    # error-based pruning given other rows than the training rows (a tree
    # opened from a .skops file with another data file)
    four, labels = [[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1]
    error(lambda: error_based_prune(fitted, four, [0, 1, 0, 7]))  # ebp_unseen_label
    error(lambda: error_based_prune(fitted, four[:3], labels[:3]))  # ebp_other_weight
    error(lambda: error_based_prune(fitted, four, [1, 0, 1, 0]))  # ebp_other_counts
    error(lambda: prediction.normalise_sample(
        DecisionTreeClassifier().fit(pd.DataFrame({"f": [0.0, 1.0]}), [0, 1]),
        {"f": float("inf")}))
    # forced_splits: one refused spec per rule
    from tests.helpers.forced_cases import BAD
    for bad in BAD:
        error(bad.fit)
    # reading a table
    workbook = _io.BytesIO()
    with pd.ExcelWriter(workbook) as writer:
        pd.DataFrame({"a": [1, 2]}).to_excel(writer, sheet_name="one", index=False)
        pd.DataFrame({"b": [1]}).to_excel(writer, sheet_name="two", index=False)
    out += read_table(workbook.getvalue(), "book.bin").notes  # read_as_excel, first_sheet
    empty_book = _io.BytesIO()
    with pd.ExcelWriter(empty_book) as writer:
        pd.DataFrame().to_excel(writer, sheet_name="empty", index=False)
    error(lambda: read_table(empty_book.getvalue(), "a.xlsx"))  # empty_sheet
    import zipfile
    for name, content in [("xl/workbook.xml", b"not xml"), ("readme.txt", b"hi")]:
        archive = _io.BytesIO()
        with zipfile.ZipFile(archive, "w") as z:
            z.writestr(name, content)
        error(lambda: read_table(archive.getvalue(), "a.xlsx"))  # excel_unreadable, zip_not_excel
    error(lambda: read_table(b"PAR1 broken", "a.parquet"))  # parquet_unreadable
    error(lambda: read_table(b"a,b\n1,2\n", "a.parquet"))  # fake_parquet
    error(lambda: read_table(b"a,b\x00\x01\x02\x03\n" * 20, "a.csv"))  # binary_file
    error(lambda: read_table(b"\n\n\n  x", "a.csv") if False else table_io._read_text(b"", False))
    error(lambda: read_table(b'"a\n', "a.csv"))  # the parser's own words
    long = "x" * 300
    out += read_table(f"{long},,b\n1,2,3\n1,2,3,4\n".encode(), "a.csv").notes
    monkey = table_io.MAX_UNPACKED_BYTES
    table_io.MAX_UNPACKED_BYTES = 10
    try:
        error(lambda: read_table(workbook.getvalue(), "a.xlsx"))  # workbook_too_big
    finally:
        table_io.MAX_UNPACKED_BYTES = monkey
    # preparing a table
    error(lambda: prepare(pd.DataFrame({"t": [1, 2], "x": [np.nan, np.nan]}),
                          Setup("t", ("x",), categorical=("x",))))  # no_usable_feature
    error(lambda: prepare(pd.DataFrame({"t": [1, None, None], "x": [1, 2, 3]}),
                          Setup("t", ("x",))))  # too_few_rows
    # (split_indices keeps 2 training rows, so prepare never raises this one now)
    out.append(DataError("no_training_rows"))
    out += prepare(pd.DataFrame({"t": [1, 2] * 3, "m": ["1", "2", "3", "4", "5", "w"]}),
                   Setup("t", ("m",), categorical=("m",))).notes  # (none)
    from dtree.tables.prepare import infer_types
    out += infer_types(pd.DataFrame({"m": ["1", "2", "3", "4", "5", "w"]}))[1]
    id3 = prepare(pd.DataFrame({"t": list("ab") * 2, "x": [1.0, None, None, None]}),
                  Setup("t", ("x",), test_size=0.0))
    error(lambda: id3.complete_rows())
    # a tree's data file
    named = clf().fit(pd.DataFrame({"f": [0.0, 1.0]}), [0, 1])
    unnamed = clf().fit([[0.0], [1.0]], [0, 1])
    regressor = reg().fit(pd.DataFrame({"f": [0.0, 1.0]}), [0.0, 1.0])
    error(lambda: tree_upload.split_columns(named, pd.DataFrame({"g": [1.0]})))
    error(lambda: tree_upload.split_columns(unnamed, pd.DataFrame({"g": [1.0]})))
    error(lambda: tree_upload.split_columns(named, pd.DataFrame({"f": [1.0]})))
    error(lambda: tree_upload.prepared(named, pd.DataFrame({"f": ["x"], "t": [0]})))
    error(lambda: tree_upload.prepared(named, pd.DataFrame({"f": [1.0], "t": ["q"]})))
    error(lambda: tree_upload.prepared(regressor, pd.DataFrame({"f": [1.0], "t": ["q"]})))
    # several outputs, and sparse X, where a setting reads one dense target
    import scipy.sparse as sparse
    two = np.array([[0, 1], [1, 0], [0, 0], [1, 1]])
    error(lambda: clf(algorithm="id3").fit([[0.0], [1.0], [2.0], [3.0]], two))
    error(lambda: clf().fit(pd.DataFrame({"c": pd.Categorical(list("abab"))}), two))
    error(lambda: clf(algorithm="j48").fit(sparse.csr_matrix(np.eye(4)), [0, 1, 0, 1]))
    # an ARFF file, each way one is refused or noted
    from dtree.tables import weka_arff
    from tests.helpers.arff_refusals import HEADER, REFUSED
    for text, _, _ in REFUSED.values():
        error(lambda text=text: weka_arff.read_arff(text))
    error(lambda: weka_arff.read_arff(HEADER, size=weka_arff.MAX_ARFF_BYTES + 1))
    error(lambda: weka_arff.read_arff("@relation r\n@attribute c {a,a}\n@data\na\n"))
    # (liac-arff's own exceptions cover every broken file tried; a Python error
    # from inside it is the last resort, arff_unreadable)
    from unittest import mock
    with mock.patch.object(weka_arff.arff.ArffDecoder, "decode", side_effect=IndexError):
        error(lambda: weka_arff.read_arff(HEADER + "1,a\n"))
    cells = weka_arff.MAX_ARFF_CELLS
    weka_arff.MAX_ARFF_CELLS = 4
    try:
        error(lambda: weka_arff.read_arff(HEADER + "1,a\n2,b\n3,a\n"))
    finally:
        weka_arff.MAX_ARFF_CELLS = cells
    out += weka_arff.read_arff("@relation r\n@attribute s string\n@attribute c {a,b}\n"
                               "@data\n'x',a\n{1 b}\n").notes
    # not reached from a file here (openpyxl is installed; pandas and openpyxl
    # refuse these files first): made as io.py makes them
    out += [DataError("needs_openpyxl"), DataError("no_sheets"), DataError("no_columns"),
            DataError("bad_header", detail="field larger than field limit (131072)"),
            DataError("unparsable", detail="Error tokenizing data. C error: EOF inside string")]
    out += tree_file_errors()
    return [m for m in out if hasattr(m, "code")]


def tree_file_errors():
    """TreeFileErrors whose codes the hostile corpus (tests/helpers/hostile_skops.py)
    does not reach, each raised for real."""
    import dtree
    import skops.io as sio
    from sklearn.tree import DecisionTreeClassifier as SkTree
    from sklearn.tree import DecisionTreeRegressor as DecisionTreeRegressorSk
    from unittest import mock

    from pages.runtime.budget import Budget
    from pages.state import imported

    out = []

    def error(call):
        with pytest.raises(dtree.TreeFileError) as exc:
            call()
        out.append(exc.value)

    X, y = load_iris(return_X_y=True)
    sk = SkTree(max_depth=2, random_state=0).fit(X, y)
    data = sio.dumps(sk)
    for limits in (dtree.SkopsLimits(max_file_bytes=10), dtree.SkopsLimits(max_total_bytes=100),
                   dtree.SkopsLimits(max_seconds=0.0), dtree.SkopsLimits(max_schema_entries=10)):
        error(lambda limits=limits: dtree.load_sklearn(data, limits=limits))
    with mock.patch("dtree._skops._read_schema", side_effect=KeyError("x")):
        error(lambda: dtree.load_sklearn(data))  # unreadable
    bad = SkTree(max_depth=2, random_state=0).fit(X, y)
    bad.max_depth = -3
    error(lambda: dtree.from_sklearn(bad))  # bad_setting
    from sklearn.tree._tree import Tree

    state = sk.tree_.__getstate__()
    nodes = state["nodes"].copy()
    nodes["weighted_n_node_samples"][1] = -1.0
    negative = SkTree(max_depth=2, random_state=0).fit(X, y)
    negative.tree_ = Tree(4, np.array([3], dtype=np.intp), 1)
    negative.tree_.__setstate__({**state, "nodes": nodes})
    error(lambda: dtree.from_sklearn(negative))  # negative_weight
    # the training data given with a tree
    error(lambda: dtree.from_sklearn(sk, X))  # data_x_without_y
    error(lambda: dtree.from_sklearn(sk, X[:, :3], y))  # data_n_features
    error(lambda: dtree.from_sklearn(sk, X, np.where(y == 2, 7, y)))  # data_unknown_label
    error(lambda: dtree.from_sklearn(sk, X[:-5], y[:-5]))  # data_rows_differ
    error(lambda: dtree.from_sklearn(sk, X, np.roll(y, 50)))  # data_counts_differ
    regressor = DecisionTreeRegressorSk(max_depth=2, random_state=0).fit(X, X[:, 0])
    error(lambda: dtree.from_sklearn(regressor, X, X[:, 0],
                                     sample_weight=np.full(len(X), 2.0)))  # data_weights_differ
    with mock.patch.object(imported, "UPLOAD_BUDGET", Budget(seconds=0.0, megabytes=600)):
        error(lambda: imported.open_tree(data, "tree.skops"))  # over_budget (time)
    from tests.helpers import budget_work

    with mock.patch.object(imported, "UPLOAD_BUDGET", Budget(seconds=60.0, megabytes=64)), \
            mock.patch.object(imported, "vet", budget_work.vet_that_allocates):
        error(lambda: imported.open_tree(data, "tree.skops"))  # over_budget (memory)
    return out
