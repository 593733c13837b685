"""A tree fitted in scikit-learn, opened on the Data page from a .skops file
(with and without its training data): Grow steps through its growth, Prune
shows its cost-complexity sequence, Prediction explains a row, Export gives
a DOT; a pickle or a forest is refused and the session keeps working."""

import pickle
import re
from pathlib import Path

import pandas as pd
import pytest
import skops.io as sio
from sklearn.ensemble import RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from streamlit.testing.v1 import AppTest

import dtree

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
DATA, GROW, PRUNE = "pages/data.py", "pages/grow.py", "pages/prune.py"
IRIS = pd.read_csv(ROOT / "data" / "iris.csv")
FEATURES = IRIS.drop(columns="species")
NEEDS = "need its training data"


def iris_tree(**params):
    params = {"max_depth": 3, "random_state": 0, **params}
    return DecisionTreeClassifier(**params).fit(FEATURES, IRIS["species"])


def assert_clean(at):
    assert not at.exception, [e.message for e in at.exception]


def dot(at):
    charts = at.get("graphviz_chart")
    assert charts, "no tree drawn"
    return charts[0].proto.spec


def n_nodes(spec):
    return len(re.findall(r"^\d+ \[label=", spec, flags=re.M))


def texts(elements):
    return " ".join(e.value for e in elements)


def open_skops(data, name="tree.skops", table=None, at=None):
    """The app on the Data page with ``data`` uploaded as a .skops file (and
    ``table``, a CSV's bytes, as its data file)."""
    if at is None:
        at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page(DATA).run()
    at.button_group(key="source").set_value("scikit-learn tree").run()
    if table is not None:
        at.file_uploader(key="skops_data").set_value(("iris.csv", table, "text/csv")).run()
    at.file_uploader(key="skops_upload").set_value(
        (name, data, "application/octet-stream")).run()
    assert_clean(at)
    return at


@pytest.fixture(scope="module")
def iris_skops():
    return sio.dumps(iris_tree())


def test_without_data_grow_steps_through_its_growth(iris_skops, files):
    at = open_skops(iris_skops)
    assert "DecisionTreeClassifier" in texts(at.markdown)
    assert any("No training data" in i.value for i in at.info)
    at.switch_page(GROW).run()
    assert_clean(at)
    assert any("sidebar's tree parameters do not apply" in i.value for i in at.info)
    model = dtree.load_sklearn(iris_skops)
    assert at.slider(key="step").max == len(model.steps_)
    assert n_nodes(dot(at)) == model.tree_at(0).node_count == 1
    for k in (1, 2):
        at.button(key="next").click().run()
        assert_clean(at)
        assert at.slider(key="step").value == k
        assert n_nodes(dot(at)) == model.tree_at(k).node_count
    # the sidebar's parameters are not used: changing one does not refit
    before = dot(at)
    at.number_input(key="max_depth").set_value(1).run()
    assert_clean(at)
    assert dot(at) == before
    at.button(key="grow_all").click().run()
    assert n_nodes(dot(at)) == model.tree_.node_count
    # the inspector and the panels that need the rows say so plainly
    assert any(NEEDS in i.value for i in at.info)
    for label in ("Prediction", "Decision regions", "Accuracy"):
        at.session_state["panel"] = label
        at.run()
        assert_clean(at)
        assert any(NEEDS in i.value for i in at.info), label
    at.session_state["panel"] = "Export"
    at.run()
    assert_clean(at)
    name, _, make = files["dot"]
    exported = make()
    exported = exported.decode() if isinstance(exported, bytes) else exported
    assert name.endswith(".dot") and n_nodes(exported) == model.tree_.node_count


def test_without_data_prune_shows_the_sequence(iris_skops):
    at = open_skops(iris_skops)
    at.switch_page(PRUNE).run()
    assert_clean(at)
    assert any("fitted in scikit-learn" in i.value for i in at.info)
    charts = at.get("graphviz_chart")
    assert len(charts) == 2
    pruned, full = (c.proto.spec for c in charts)
    assert n_nodes(full) == dtree.load_sklearn(iris_skops).tree_.node_count
    options = at.select_slider(key="prune_alpha").options
    at.select_slider(key="prune_alpha").set_value(options[-1]).run()
    assert_clean(at)
    assert n_nodes(at.get("graphviz_chart")[0].proto.spec) == 1  # the root alone


def test_with_data_the_candidates_regions_scores_and_a_prediction(iris_skops):
    at = open_skops(iris_skops, table=IRIS.to_csv(index=False).encode())
    assert any("150 rows" in s.value for s in at.success)
    at.switch_page(GROW).run()
    at.button(key="next").click().run()
    assert_clean(at)
    assert not any(NEEDS in i.value for i in at.info)
    assert at.table, "no candidate table"
    at.session_state["gain_chart"] = True
    at.run()
    assert_clean(at)
    assert any(c.key.startswith("curve_") for c in at.get("plotly_chart"))
    for label, chart in (("Decision regions", "regions"), ("Accuracy", "scores")):
        at.session_state["panel"] = label
        at.run()
        assert_clean(at)
        assert chart in {c.key for c in at.get("plotly_chart")}, label
    at.session_state["panel"] = "Prediction"
    at.run()
    assert_clean(at)
    assert not at.error and "Prediction" in texts(at.markdown) + texts(at.get("metric"))
    at.switch_page(PRUNE).run()
    assert_clean(at)
    assert len(at.get("graphviz_chart")) == 2


def test_an_unnamed_regressor_with_its_data():
    X = FEATURES.iloc[:, :3].to_numpy()
    y = FEATURES.iloc[:, 3].to_numpy()
    model = DecisionTreeRegressor(max_leaf_nodes=6, random_state=0).fit(X, y)
    table = pd.DataFrame(X, columns=["a", "b", "c"]).assign(width=y)
    at = open_skops(sio.dumps(model), table=table.to_csv(index=False).encode())
    at.switch_page(GROW).run()
    at.button(key="grow_all").click().run()
    assert_clean(at)
    assert n_nodes(dot(at)) == model.tree_.node_count
    at.session_state["panel"] = "R²"
    at.run()
    assert_clean(at)
    assert "scores" in {c.key for c in at.get("plotly_chart")}


def test_a_data_file_that_does_not_fit_opens_the_tree_without_data(iris_skops):
    wrong = pd.DataFrame({"x": [1, 2], "y": [0, 1]}).to_csv(index=False).encode()
    at = open_skops(iris_skops, table=wrong)
    assert any("could not be used" in w.value for w in at.warning)
    assert any("No training data" in i.value for i in at.info)


@pytest.mark.parametrize("what, data, said", [
    ("pickle", pickle.dumps(iris_tree()), "pickle"),
    ("forest", sio.dumps(RandomForestClassifier(n_estimators=2, random_state=0)
                         .fit(FEATURES, IRIS["species"])), "RandomForestClassifier"),
])
def test_a_pickle_or_a_forest_is_refused_and_the_session_keeps_working(what, data, said,
                                                                        iris_skops):
    at = open_skops(data)
    assert at.error and said in at.error[0].value and "Still using" in at.error[0].value
    at.switch_page(GROW).run()  # the built-in dataset is still in use
    assert_clean(at)
    assert n_nodes(dot(at)) == 1 and "Iris" in texts(at.markdown)
    at.button(key="next").click().run()
    assert n_nodes(dot(at)) == 3
    # an opened tree stays in use when the next file is refused
    at = open_skops(iris_skops)
    at.file_uploader(key="skops_upload").set_value(("bad.skops", data, "x")).run()
    assert_clean(at)
    assert at.error and "Still using **tree\\.skops**" in at.error[0].value
    at.switch_page(GROW).run()
    assert "tree\\.skops" in texts(at.markdown)


def test_back_to_a_built_in_dataset(iris_skops):
    at = open_skops(iris_skops)
    at.button_group(key="source").set_value("Built-in dataset").run()
    assert_clean(at)
    assert "Iris" in texts(at.markdown)
    at.switch_page(GROW).run()
    assert not any("sidebar's tree parameters" in i.value for i in at.info)


def test_in_chinese(iris_skops):
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = "zh"
    at.run()
    at = open_skops(iris_skops, at=at)
    at.switch_page(GROW).run()
    assert_clean(at)
    assert any("侧边栏的决策树参数对它不起作用" in i.value for i in at.info)
    assert any("训练数据" in i.value for i in at.info)  # the inspector needs the data


def test_a_refusal_in_chinese():
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = "zh"
    at.run()
    at = open_skops(pickle.dumps(iris_tree()), name="model.skops", at=at)
    message = at.error[0].value
    assert "无法打开 **model\\.skops**" in message and "不是 \\.skops 文件" in message
    assert "仍在使用" in message


HOSTILE = ("cycle", "zip_bomb_schema", "deep_json", "runs_code_reduce", "broken_crc",
           "npy_header_claims_too_much", "shadows_a_method", "n_features_huge")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hostile_files_get_the_pages_own_message(lang, iris_skops):
    """Each hostile file is refused with the page's own message, in the
    page's language, worded from the error's code (no English left in the
    Chinese page's message); the tree opened before stays in use and the
    session keeps working."""
    from tests.helpers.hostile_skops import CASES

    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = lang
    at.run()
    at = open_skops(iris_skops, at=at)
    for name in HOSTILE:
        make, code = CASES[name]
        at.file_uploader(key="skops_upload").set_value(
            (f"{name}.skops", make(iris_skops), "application/octet-stream")).run()
        assert_clean(at)
        assert len(at.error) == 1, name
        message = at.error[0].value
        escaped = name.replace("_", "\\_")
        if lang == "zh":
            assert f"无法打开 **{escaped}\\.skops**" in message and "仍在使用" in message
            assert not re.search(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}", message.split("：", 1)[1]), \
                message  # worded in Chinese, not the engine's English
        else:
            assert f"**{escaped}\\.skops** could not be opened" in message
            assert "Still using **tree\\.skops**" in message
        assert message.count(f"{escaped}\\.skops") == 1, message  # named once, by the page
    at.switch_page(GROW).run()
    assert_clean(at)
    assert "tree\\.skops" in texts(at.markdown)
    at.button(key="grow_all").click().run()
    assert_clean(at)
    assert n_nodes(dot(at)) == dtree.load_sklearn(iris_skops).tree_.node_count


def test_an_unexpected_error_is_the_pages_message(iris_skops, monkeypatch):
    """Even an error no rule foresaw (here a RecursionError raised inside the
    reader) gives the page's message, not a traceback."""
    import dtree._skops as reader

    def deep(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")
    monkeypatch.setattr(reader, "_read_schema", deep)
    at = open_skops(b"PK" + iris_skops[2:], name="odd.skops")
    assert at.error and "could not be opened" in at.error[0].value
    assert "RecursionError" in at.error[0].value
