"""A tree fitted in scikit-learn, opened on the Data page from a .skops file
(with and without its training data): Grow steps through its growth, Prune
shows its cost-complexity sequence, Prediction explains a row, Export gives
a DOT; a pickle or a forest is refused and the session keeps working."""

import pickle
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import skops.io as sio
from sklearn.ensemble import RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from streamlit.testing.v1 import AppTest

import dtree
from tests.helpers.apptest import APP, DATA, GROW, assert_clean, dot, n_nodes

ROOT = Path(__file__).resolve().parents[2]
PRUNE = "pages/prune.py"
IRIS = pd.read_csv(ROOT / "data" / "iris.csv")
FEATURES = IRIS.drop(columns="species")
NEEDS = "need its training data"


def iris_tree(**params):
    params = {"max_depth": 3, "random_state": 0, **params}
    return DecisionTreeClassifier(**params).fit(FEATURES, IRIS["species"])


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


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("change, code", [
    (lambda frame: frame.assign(species=np.roll(frame["species"].to_numpy(), 50)),
     "data_counts_differ"),
    (lambda frame: frame.iloc[:-5], "data_rows_differ"),
], ids=["other labels", "fewer rows"])
def test_data_that_is_not_the_trees_is_said_in_the_pages_language(change, code, lang,
                                                                  iris_skops):
    """A data file with the tree's columns but other rows or labels: the tree
    opens without data, and the warning words the engine's code in the
    page's language (no English sentence in the Chinese)."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = lang
    at.run()
    at = open_skops(iris_skops, table=change(IRIS).to_csv(index=False).encode(), at=at)
    assert not at.error and len(at.warning) == 1
    message = at.warning[0].value
    assert worded(message, code, lang), message
    if lang == "zh":
        said = plain(message).split("：", 1)[1]
        assert not re.search(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}", said), message
    at.switch_page(GROW).run()
    assert_clean(at)
    assert "tree\\.skops" in texts(at.markdown)


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


@pytest.fixture(scope="module")
def corpus():
    """(kind, name, file bytes, expected code) of every hostile case, built once."""
    from tests.helpers.hostile_skops import every_case, valid_file

    valid = {kind: valid_file(kind) for kind in ("classifier", "regressor")}
    return [(kind, name, make(valid[kind]), code) for kind, name, make, code in every_case()]


def plain(markdown):
    """Markdown as read: bold marks and escapes dropped, spaces collapsed."""
    bare = re.sub(r"(?<!\\)\*\*", "", markdown)
    return " ".join(re.sub(r"\\(.)", r"\1", bare).split())


def worded(message, code, lang):
    """True if ``message`` is the page's wording of ``code`` in ``lang``: the
    template's text between its fields is all there, in order."""
    from dtree.views.messages import TREE_FILE_ZH

    template = (TREE_FILE_ZH if lang == "zh" else dtree.TREE_FILE_MESSAGES)[code]
    text, at = plain(message), 0
    for part in re.split(r"\{[^}]*\}", template):
        part = " ".join(part.split())
        if part.strip():
            at = text.find(part.strip(), at)
            if at < 0:
                return False
    return True


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_hostile_file_gets_the_pages_own_message(lang, corpus, iris_skops):
    """Every file of the hostile corpus, uploaded one after another in one
    session: a refused one is reported by the page's own message for its
    code, in the page's language (no English left in the Chinese), and the
    tree in use before stays in use; a valid one opens.  The session keeps
    working to the end."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = lang
    at.run()
    at = open_skops(iris_skops, at=at)
    in_use = "tree.skops"
    for kind, name, data, code in corpus:
        filename = f"{name}.skops"
        at.file_uploader(key="skops_upload").set_value(
            (filename, data, "application/octet-stream")).run()
        assert_clean(at)
        shown = plain(texts(at.markdown))
        if code is None:  # a valid file opens and is in use
            assert not at.error, (name, at.error[0].value)
            in_use = filename
            assert filename in shown, name
            continue
        assert len(at.error) == 1, name
        message = at.error[0].value
        assert worded(message, code, lang), (name, code, message)
        assert plain(message).count(filename) == 1, message  # named once, by the page
        if lang == "zh":
            assert f"无法打开 {filename}" in plain(message), message
            assert f"仍在使用 {in_use}" in plain(message), message
            said = plain(message).split("：", 1)[1]
            for reader in ("读取器报告：", "内部错误为："):  # (a reader's own words stay)
                said = said.split(reader)[0]
            assert not re.search(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}", said), message
        else:
            assert f"{filename} could not be opened" in plain(message), message
            assert f"Still using {in_use}" in plain(message), message
        assert in_use in shown, (name, "the tree in use changed")
    at.switch_page(GROW).run()
    assert_clean(at)
    at.button(key="grow_all").click().run()
    assert_clean(at)
    assert n_nodes(dot(at)) > 1


def test_a_cyclic_tree_with_its_data_file_is_refused(iris_skops):
    """The worst file there was: a cyclic tree with a CSV of its shape, whose
    rows once walked its loop without end.  It is refused, the data file
    with it, and the session keeps working."""
    from tests.helpers.hostile_skops import CASES

    at = open_skops(iris_skops)
    at.file_uploader(key="skops_data").set_value(
        ("iris.csv", IRIS.to_csv(index=False).encode(), "text/csv")).run()
    at.file_uploader(key="skops_upload").set_value(
        ("loop.skops", CASES["cycle"][0](iris_skops), "application/octet-stream")).run()
    assert_clean(at)
    assert len(at.error) == 1 and worded(at.error[0].value, "child_before_parent", "en")
    assert "Still using tree.skops" in plain(at.error[0].value)
    at.switch_page(GROW).run()
    at.button(key="grow_all").click().run()
    assert_clean(at)
    assert n_nodes(dot(at)) == dtree.load_sklearn(iris_skops).tree_.node_count


@pytest.mark.parametrize("lang, budget, resource", [
    ("en", {"seconds": 0.0, "megabytes": 600}, ("time", "时间")),
    ("zh", {"seconds": 0.0, "megabytes": 600}, ("time", "时间")),
    ("en", {"seconds": 60.0, "megabytes": 64}, ("memory", "内存")),
    ("zh", {"seconds": 60.0, "megabytes": 64}, ("memory", "内存")),
])
def test_a_file_over_the_budget_is_refused_and_the_session_keeps_working(
        lang, budget, resource, monkeypatch):
    """With the upload budget made tiny, an ordinary tree and its data file
    (5,000 rows) take more time than it allows in the child process that
    opens them first (for memory, the child's work stands for a file that
    needs 400 MB: tests/app/test_budget.py checks the cap itself): the page
    says so in its language, the dataset in use stays, and choosing a
    dataset works after."""
    import numpy as np

    from pages.runtime.budget import Budget
    from pages.state import imported
    from tests.helpers import budget_work

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(5_000, 4)), columns=["a", "b", "c", "d"])
    y = rng.normal(size=5_000)
    tree = DecisionTreeRegressor(random_state=0).fit(X, y)
    monkeypatch.setattr(imported, "UPLOAD_BUDGET", Budget(**budget))
    if resource[0] == "memory":
        monkeypatch.setattr(imported, "vet", budget_work.vet_that_allocates)
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = lang
    at.run()
    at = open_skops(sio.dumps(tree), name="model.skops", at=at,
                    table=X.assign(t=y).to_csv(index=False).encode())
    assert len(at.error) == 1
    message = plain(at.error[0].value)
    assert worded(at.error[0].value, "over_budget", lang), message
    word = resource[1] if lang == "zh" else resource[0]
    limit = "0 s" if resource[0] == "time" else "64 MB"
    assert word in message and limit in message, message
    assert ("仍在使用 鸢尾花" if lang == "zh" else "Still using Iris") in message, message
    assert imported.current() is None
    at.switch_page(GROW).run()  # the built-in dataset is still in use
    assert_clean(at)
    assert n_nodes(dot(at)) == 1
    at.switch_page(DATA).run()
    at.button_group(key="source").set_value("Built-in dataset").run()
    at.selectbox(key="builtin").set_value("Wine").run()
    assert_clean(at)
    assert ("葡萄酒" if lang == "zh" else "Wine") in texts(at.markdown)
    at.switch_page(GROW).run()
    at.button(key="next").click().run()
    assert_clean(at)
    assert n_nodes(dot(at)) == 3


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
