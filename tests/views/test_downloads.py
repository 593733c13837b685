"""dtree.views.downloads: DOT/SVG/PNG/text of the tree at a step, the JSON growth
trace and the offline HTML step-through, on binary (Iris), multiway (ID3 and
C4.5 on the textbook tables, Chinese labels), regression, NaN and hostile
names; plus the colour-blind-safe palette of every figure builder."""

import html
import json
import re
import stat
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtree import DecisionTreeClassifier, DecisionTreeRegressor, export_graphviz
from dtree.views import viz
from dtree.views import downloads as ex
from dtree import CLASS_COLOURS, node_fills
from tests.helpers.upload_corpus import HOSTILE
from tests.helpers.installed import needs

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
HAS_DOT = ex.dot_binary() is not None
needs_dot = needs(HAS_DOT, "Graphviz's dot")
SVG_NS = "{http://www.w3.org/2000/svg}"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------

def _csv(name, drop=None):
    frame = pd.read_csv(DATA / name)
    return frame.drop(columns=drop) if drop else frame


@pytest.fixture(scope="module")
def iris_data():
    frame = _csv("iris.csv")
    return frame.drop(columns="species"), frame["species"]


@pytest.fixture(scope="module")
def iris(iris_data):
    return DecisionTreeClassifier(max_depth=4).fit(*iris_data)


@pytest.fixture(scope="module")
def loan_data():
    frame = _csv("loan.csv", drop="ID")
    return frame.drop(columns="类别"), frame["类别"]


@pytest.fixture(scope="module")
def loan(loan_data):
    return DecisionTreeClassifier(algorithm="id3").fit(*loan_data)


@pytest.fixture(scope="module")
def melon():
    frame = _csv("watermelon2.csv", drop="编号")
    return DecisionTreeClassifier(algorithm="c4.5").fit(frame.drop(columns="好瓜"),
                                                        frame["好瓜"])


@pytest.fixture(scope="module")
def tennis():
    frame = _csv("playtennis.csv", drop="Day")
    return DecisionTreeClassifier(algorithm="id3").fit(frame.drop(columns="PlayTennis"),
                                                       frame["PlayTennis"])


@pytest.fixture(scope="module")
def regression_data():
    frame = _csv("iris.csv")
    return frame.drop(columns=["species", "petal width (cm)"]), frame["petal width (cm)"]


@pytest.fixture(scope="module")
def regressor(regression_data):
    return DecisionTreeRegressor(max_depth=3).fit(*regression_data)


@pytest.fixture(scope="module")
def penguins():
    # NaN kept and categorical columns native: C4.5's fractional missing-value rule
    frame = _csv("penguins.csv")
    return DecisionTreeClassifier(algorithm="c4.5", max_depth=3).fit(
        frame.drop(columns=["species", "year"]), frame["species"])


@pytest.fixture(scope="module")
def hostile():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(120, 4)), columns=HOSTILE[:4])
    y = np.array(HOSTILE[1:4])[(X.iloc[:, 0] > 0).to_numpy().astype(int)
                                + (X.iloc[:, 1] > 0.5).to_numpy().astype(int)]
    return DecisionTreeClassifier(max_depth=2).fit(X, y)


@pytest.fixture(scope="module")
def big():
    """A best-first regression tree of 399 nodes: over the 255-node cap."""
    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.normal(size=(2000, 3)), columns=["a", "b", "c"])
    y = X["a"] + rng.normal(size=2000)
    return DecisionTreeRegressor(max_leaf_nodes=200, growth="best_first").fit(X, y)


MODELS = ["iris", "loan", "melon", "tennis", "regressor", "penguins", "hostile"]


@pytest.fixture(params=MODELS)
def any_model(request):
    return request.getfixturevalue(request.param)


def some_steps(model):
    n = len(model.steps_)
    return sorted({0, 1, n // 2, n})


def dot_nodes(dot):
    return len(re.findall(r"^\d+ \[label=", dot, flags=re.M))


# ---------------------------------------------------------------------------
# File names
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("title, stem", [
    ("Iris", "Iris"), ("../../etc/passwd", "etc_passwd"), ("a/b\\c:d*e?f", "a_b_c_d_e_f"),
    ("贷款 (Li Hang 5.1)", "贷款_Li_Hang_5_1"), ("", "tree"), ("...", "tree"),
    ("CON", "CON_"), ('<script>alert(1)</script>', "script_alert_1_script"),
])
def test_safe_stem_examples(title, stem):
    assert ex.safe_stem(title) == stem


@settings(max_examples=50)
@given(st.text(max_size=200))
def test_safe_stem_has_no_path_characters(title):
    stem = ex.safe_stem(title)
    assert re.fullmatch(r"[\w-]{1,60}", stem)
    assert not stem.startswith(("-", "_")) or stem == "tree"
    assert "." not in stem and "/" not in stem and "\\" not in stem


# ---------------------------------------------------------------------------
# DOT
# ---------------------------------------------------------------------------

def test_app_style_is_the_apps_drawing_on_white(iris):
    for k in some_steps(iris):
        dot = ex.tree_dot(iris, k)
        app = viz.step_dot(iris, k)[0]
        assert dot.startswith(app.rstrip()[:-1])  # the app's DOT up to its closing brace
        assert dot.rstrip().endswith('graph [bgcolor="white"] ;\n}')
        assert dot_nodes(dot) == iris.tree_at(k).node_count


def test_plain_style_names_categories_and_the_real_criterion(loan, tennis):
    dot = ex.tree_dot(loan, len(loan.steps_), style="plain")
    # ID3 means entropy, whatever the criterion parameter says
    assert "entropy = 0.971" in dot and "gini" not in dot
    assert dot.count('label="否"') == 2 and dot.count('label="是"') == 2  # edges
    dot = ex.tree_dot(tennis, len(tennis.steps_), style="plain")
    for value in ("Sunny", "Overcast", "Rain", "High", "Normal", "Strong", "Weak"):
        assert f'label="{value}"' in dot
    assert dot_nodes(dot) == tennis.tree_.node_count == 8  # Mitchell's tree


def test_export_functions_take_a_bare_multiway_tree(melon):
    # tree_at(k) of a three-way tree has no children_left: it must not be asked for one
    tree = melon.tree_at(len(melon.steps_))
    assert len(tree.children_of(0)) == 3
    assert dot_nodes(export_graphviz(tree)) == tree.node_count
    assert len(node_fills(tree)) == tree.node_count


def test_app_style_names_categories_and_the_real_criterion(melon):
    dot = ex.tree_dot(melon, len(melon.steps_))
    assert 'label="模糊"' in dot and "entropy = 0.998" in dot and "gain ratio =" in dot


def test_plain_dot_of_every_step_has_its_nodes(any_model):
    for k in some_steps(any_model):
        dot = ex.tree_dot(any_model, k, style="plain")
        tree = any_model.tree_at(k)
        assert dot_nodes(dot) == tree.node_count
        assert dot.count(" -> ") == tree.node_count - 1


def test_unknown_style_is_refused(iris):
    with pytest.raises(ValueError, match="style"):
        ex.tree_dot(iris, 0, style="fancy")


# ---------------------------------------------------------------------------
# SVG and PNG (Graphviz present, missing, failing, hanging)
# ---------------------------------------------------------------------------

def svg_nodes(svg):
    root = ET.fromstring(svg)  # raises if the SVG is not well-formed XML
    return [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "node"]


@needs_dot
@pytest.mark.parametrize("style", ["app", "plain"])
def test_svg_has_one_node_group_per_node(any_model, style):
    for k in some_steps(any_model):
        svg = ex.render_dot(ex.tree_dot(any_model, k, style=style), "svg")
        assert len(svg_nodes(svg)) == any_model.tree_at(k).node_count


@needs_dot
def test_png_is_a_png_of_a_sensible_size(iris, melon):
    for model in (iris, melon):
        k = len(model.steps_)
        png = ex.render_dot(ex.tree_dot(model, k), "png",
                            dpi=ex.png_dpi(model.tree_at(k).node_count))
        assert png.startswith(PNG_MAGIC)
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert 200 < width < 20_000 and 200 < height < 20_000


@needs_dot
def test_svg_shows_hostile_names_literally(hostile):
    k = len(hostile.steps_)
    for style in ("app", "plain"):
        svg = ex.render_dot(ex.tree_dot(hostile, k, style=style), "svg")
        root = ET.fromstring(svg)
        assert not [e for e in root.iter() if e.tag.endswith("script")]
        texts = " ".join(t.text or "" for t in root.iter(f"{SVG_NS}text"))
        used = {hostile.feature_names_in_[s.feature] for s in hostile.steps_}
        used |= set(hostile.classes_)
        for name in used:
            assert name in texts, name
        assert len(svg_nodes(svg)) == hostile.tree_.node_count  # no injected node


def test_missing_graphviz_is_reported_with_install_commands(iris, monkeypatch):
    monkeypatch.setattr(ex.shutil, "which", lambda *a, **k: None)
    assert ex.dot_binary() is None
    with pytest.raises(ex.GraphvizNotFound) as err:
        ex.render_dot(ex.tree_dot(iris, 1), "svg")
    for command in ("apt-get install graphviz", "brew install graphviz",
                    "conda install graphviz"):
        assert command in str(err.value)
    # the DOT itself needs no Graphviz
    assert dot_nodes(ex.tree_dot(iris, 1)) == 3


def fake_dot(tmp_path, body):
    path = tmp_path / "dot"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_hanging_graphviz_is_stopped(iris, tmp_path, monkeypatch):
    program = fake_dot(tmp_path, "sleep 30")
    monkeypatch.setattr(ex.shutil, "which", lambda *a, **k: program)
    with pytest.raises(ex.GraphvizError, match="longer than"):
        ex.render_dot(ex.tree_dot(iris, 1), "svg", timeout=0.5)


def test_failing_graphviz_is_reported(iris, tmp_path, monkeypatch):
    program = fake_dot(tmp_path, "echo 'syntax error in line 1' >&2; exit 1")
    monkeypatch.setattr(ex.shutil, "which", lambda *a, **k: program)
    with pytest.raises(ex.GraphvizError, match="syntax error"):
        ex.render_dot(ex.tree_dot(iris, 1), "png")
    with pytest.raises(ValueError, match="fmt"):
        ex.render_dot("digraph {}", "pdf")


# ---------------------------------------------------------------------------
# Text rules
# ---------------------------------------------------------------------------

def test_rules_match_scikit_learn(iris, iris_data):
    from sklearn.tree import DecisionTreeClassifier as SkTree, export_text as sk_text

    X, y = iris_data
    ours = iris.tree_
    # Iris has tied splits, which scikit-learn breaks by its random feature
    # order: take a seed whose tree is ours, then compare the texts
    for seed in range(50):
        sk = SkTree(max_depth=4, random_state=seed).fit(X, y)
        if (sk.tree_.node_count == ours.node_count
                and np.array_equal(sk.tree_.feature, ours.feature)
                and np.allclose(sk.tree_.threshold, ours.threshold)):
            break
    else:
        pytest.fail("no scikit-learn seed grows our tree")
    theirs = sk_text(sk, feature_names=list(X.columns), show_weights=True, decimals=3,
                     max_depth=10)
    assert ex.tree_rules(iris, len(iris.steps_)) == theirs
    assert ex.tree_rules(iris, 0) == "|--- weights: [50.000, 50.000, 50.000] class: setosa\n"


def test_rules_of_a_multiway_tree(loan, melon):
    # Li Hang, example 5.3: house? no -> job? no -> 否, yes -> 是; house yes -> 是
    assert ex.tree_rules(loan, 2) == (
        "|--- 有自己的房子 = 否\n"
        "|   |--- 有工作 = 否\n"
        "|   |   |--- weights: [6.000, 0.000] class: 否\n"
        "|   |--- 有工作 = 是\n"
        "|   |   |--- weights: [0.000, 3.000] class: 是\n"
        "|--- 有自己的房子 = 是\n"
        "|   |--- weights: [0.000, 6.000] class: 是\n")
    for k in some_steps(melon):
        tree = melon.tree_at(k)
        lines = ex.tree_rules(melon, k).splitlines()
        assert sum("class:" in s for s in lines) == tree.n_leaves
        assert sum("class:" not in s for s in lines) == tree.node_count - 1
    assert "纹理 = 模糊" in ex.tree_rules(melon, 1)


def test_rules_of_a_regressor_show_leaf_means(regressor, regression_data):
    X, y = regression_data
    k = len(regressor.steps_)
    values = [float(v) for v in re.findall(r"value: \[([-\d.]+)\]", ex.tree_rules(regressor, k))]
    leaves = regressor.apply(X)
    means = pd.Series(np.asarray(y)).groupby(leaves).mean()
    # leaves appear in pre-order, which is increasing id order for depth-first growth
    np.testing.assert_allclose(values, means.sort_index().to_numpy(), atol=5e-4)


# ---------------------------------------------------------------------------
# The JSON trace
# ---------------------------------------------------------------------------

def strict_loads(text):
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def test_trace_round_trips(any_model):
    data = strict_loads(ex.trace_json(any_model, dataset="some data"))
    steps = data["steps"]
    assert data["n_steps"] == len(steps) == len(any_model.steps_)
    # rebuild the node count after every step from the children alone
    counts = np.cumsum([1] + [len(s["children"]) for s in steps])
    assert counts.tolist() == [any_model.tree_at(k).node_count for k in range(len(steps) + 1)]
    for record, step in zip(steps, any_model.steps_):
        for key in ("gain", "improvement", "impurity", "split_info"):
            expected = getattr(step, key)
            assert (record[key] is None) if np.isnan(expected) else record[key] == expected
        if np.isnan(step.gain_ratio):
            assert record["gain_ratio"] is None
        else:
            assert record["gain_ratio"] == pytest.approx(step.gain_ratio, rel=1e-12)
        assert record["node"] == step.node and record["feature_name"] == step.feature_name
        assert record["kind"] == step.kind and record["branches"] == step.branches
        assert [c["node"] for c in record["children"]] == step.children
        assert [c["n_node_samples"] for c in record["children"]] == step.n_children_samples
        assert [c["branch"] for c in record["children"]] == step.branches
        if step.kind == "numeric":
            assert record["threshold"] == step.threshold
        else:
            assert record["threshold"] is None
    assert data["dataset"] == "some data"
    assert data["criterion"] == any_model.criterion_
    assert data["growth_order"] == any_model.growth_
    assert data["feature_names"] == [str(n) for n in any_model.feature_names_in_]
    assert data["tree"]["node_count"] == any_model.tree_.node_count
    ids = [n["id"] for n in data["tree"]["nodes"]]
    assert ids == any_model.tree_.node_ids.tolist()
    assert sum(n["is_leaf"] for n in data["tree"]["nodes"]) == any_model.tree_.n_leaves


def test_trace_values_match_the_data(iris, iris_data):
    """Children's sizes, class fractions and Gini impurities, recounted from
    the rows that reach each node."""
    X, y = iris_data
    y = np.asarray(y)
    data = strict_loads(ex.trace_json(iris))
    assert data["classes"] == ["setosa", "versicolor", "virginica"]
    assert data["parameters"]["max_depth"] == 4 and data["task"] == "classification"
    reach = iris.decision_path(X).toarray().astype(bool)
    for record in data["steps"]:
        assert record["n_node_samples"] == sum(c["n_node_samples"] for c in record["children"])
        for child in record["children"]:
            rows = y[reach[:, child["node"]]]
            counts = np.array([(rows == c).sum() for c in data["classes"]])
            assert child["n_node_samples"] == len(rows)
            np.testing.assert_allclose(child["value"], counts / len(rows))
            assert child["impurity"] == pytest.approx(1 - ((counts / len(rows)) ** 2).sum())
            assert child["class"] == data["classes"][int(np.argmax(counts))]


def test_trace_of_a_regressor_and_of_a_pruned_tree(regressor, regression_data, iris_data):
    X, y = regression_data
    data = strict_loads(ex.trace_json(regressor))
    assert data["classes"] is None and data["task"] == "regression"
    reach = regressor.decision_path(X).toarray().astype(bool)
    for record in data["steps"]:
        for child in record["children"]:
            assert child["value"] == pytest.approx(np.asarray(y)[reach[:, child["node"]]].mean())
            assert "class" not in child
    pruned = DecisionTreeClassifier(ccp_alpha=0.02).fit(*iris_data)
    data = strict_loads(ex.trace_json(pruned))
    assert data["tree"]["pruned"] is True
    assert data["tree"]["node_count"] == pruned.tree_.node_count < len(pruned.steps_) * 2 + 1
    grown_ids = set(pruned.growth_tree_.node_ids.tolist())
    assert {n["id"] for n in data["tree"]["nodes"]} <= grown_ids


def test_trace_has_no_nan(penguins):
    # C4.5 on data with NaN: fractional weights; any NaN must have become null
    text = ex.trace_json(penguins)
    assert "NaN" not in text and "Infinity" not in text
    data = strict_loads(text)
    assert any(s["threshold"] is None for s in data["steps"])  # the multiway steps
    assert data["categories"][data["feature_names"].index("island")] == [
        "Biscoe", "Dream", "Torgersen"]


# ---------------------------------------------------------------------------
# The offline HTML
# ---------------------------------------------------------------------------

def html_figure(page):
    """(data, layout, frames) parsed back out of the HTML's script."""
    decoder = json.JSONDecoder()
    start = page.index("Plotly.newPlot(") + len("Plotly.newPlot(")
    values, at = [], start
    for _ in range(3):  # the div id, the data, the layout
        at = len(page) - len(page[at:].lstrip(" \n,"))
        value, at = decoder.raw_decode(page, at)
        values.append(value)
    frames_at = page.index("[", page.index("Plotly.addFrames(", at))
    frames, _ = decoder.raw_decode(page, frames_at)
    return values[1], values[2], frames


def outside_plotly_js(page):
    """The page without the embedded plotly.js bundle."""
    start = page.index("<script>/**\n* plotly.js")
    end = page.index("</script>", start)
    return page[:start] + page[end:]


def test_html_has_one_frame_per_step_with_the_trees_nodes(any_model):
    page = ex.growth_html(any_model, title="t")
    _, layout, frames = html_figure(page)
    n = len(any_model.steps_)
    assert [f["name"] for f in frames] == [str(k) for k in range(n + 1)]
    assert len(layout["sliders"][0]["steps"]) == n + 1
    for k, frame in enumerate(frames):
        tree = any_model.tree_at(k)
        nodes = frame["data"][1]
        assert nodes["customdata"] == tree.node_ids.tolist()
        assert len(nodes["x"]) == len(nodes["hovertext"]) == tree.node_count
        edges = frame["data"][0]
        assert len(edges["x"]) == 3 * (tree.node_count - 1)
        # boxes: one per node, and a branch label per edge
        assert len(frame["layout"]["annotations"]) == 2 * tree.node_count - 1


def test_html_works_offline(iris):
    page = ex.growth_html(iris, title="Iris")
    assert not re.search(r"<script[^>]*\bsrc\s*=", page, flags=re.I)
    assert not re.search(r"<link[^>]*href\s*=\s*[\"']?https?:", page, flags=re.I)
    rest = outside_plotly_js(page)
    assert "cdn.plot.ly" not in rest and "http" not in rest
    assert "plotly.js v" in page  # the library itself is in the file


def test_html_escapes_hostile_names(hostile):
    page = ex.growth_html(hostile, title=HOSTILE[1])
    rest = outside_plotly_js(page)
    assert "<script>alert" not in page
    assert "<b>x</b>" not in rest
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>" in rest
    _, _, frames = html_figure(page)
    texts = " ".join(a["text"] for a in frames[-1]["layout"]["annotations"])
    texts += " ".join(frames[-1]["data"][1]["hovertext"])
    tree = hostile.tree_
    for c in {hostile.classes_[int(i)] for i in np.argmax(tree.value[:, 0, :], axis=1)}:
        assert f"class = {html.escape(viz.short(c, 24), quote=False)}" in texts, c
    for s in hostile.steps_:
        name = html.escape(viz.short(s.feature_name, 24), quote=False)
        assert f"{name} ≤ " in texts, s.feature_name
    assert 'a"];x [label="pwn ≤' in texts  # Plotly would show &quot; literally
    assert "<b>x</b>" not in texts.replace("<b>#", "")


def test_html_stops_at_255_nodes_with_a_note(big):
    assert big.tree_.node_count > ex.MAX_HTML_NODES
    last = ex.last_step_within(big)
    assert big.tree_at(last).node_count <= ex.MAX_HTML_NODES < big.tree_at(last + 1).node_count
    fig = ex.growth_figure_dict(big)
    assert len(fig["frames"]) == last + 1
    # over 63 nodes the labels move to the hover text
    assert fig["frames"][-1]["layout"]["annotations"] == []
    assert len(fig["frames"][-1]["data"][1]["customdata"]) == big.tree_at(last).node_count
    page = ex.growth_html(big, title="big")
    assert f"showing the first {last} of {len(big.steps_)} steps" in page
    assert len(page) < 12_000_000  # plotly.js is about 4.8 MB of it


def test_html_in_chinese(melon):
    page = ex.growth_html(melon, title="西瓜", lang="zh")
    assert '<html lang="zh">' in page and "<title>西瓜</title>" in page
    _, layout, frames = html_figure(page)
    assert layout["updatemenus"][0]["buttons"][0]["label"] == "▶ 播放"
    assert "信息增益比" in frames[1]["layout"]["title"]["text"]
    assert "纹理 = ?" in frames[1]["layout"]["annotations"][0]["text"]


def test_growth_figure_is_a_valid_plotly_figure(loan):
    fig = ex.growth_figure(loan)
    assert len(fig.frames) == len(loan.steps_) + 1
    assert fig.layout.font.size >= 16


# ---------------------------------------------------------------------------
# The palette (Okabe & Ito) everywhere
# ---------------------------------------------------------------------------

def _rgb(colour):
    return np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def on_white_segment(fill, base):
    """Whether fill = a * base + (1 - a) * white for one a in [0, 1] (rounded)."""
    f, b = _rgb(fill), _rgb(base)
    moved = np.abs(255 - b) > 8
    a = (255 - f[moved]) / (255 - b[moved])
    ok = (a > -0.02).all() and (a < 1.02).all() and np.ptp(a) < 0.03
    return bool(ok and np.allclose(f[~moved], 255 - a.mean() * (255 - b[~moved]), atol=2))


def test_graphviz_fills_come_from_okabe_ito(iris, melon):
    for model in (iris, melon):
        dot = export_graphviz(model, filled=True)
        fills = re.findall(r'fillcolor="(#[0-9a-f]{6})"', dot)
        assert len(fills) == model.tree_.node_count
        best = np.argmax(model.tree_.value[:, 0, :], axis=1)
        for fill, b in zip(fills, best):
            assert on_white_segment(fill, CLASS_COLOURS[b % len(CLASS_COLOURS)]), fill
        assert fills == node_fills(model)  # and the HTML uses the same fills


def test_html_fills_are_the_dot_fills(iris):
    fig = ex.growth_figure_dict(iris)
    last = fig["frames"][-1]
    tree = iris.tree_at(len(iris.steps_))
    assert last["data"][1]["marker"]["color"] == node_fills(tree)
    boxes = last["layout"]["annotations"][:tree.node_count]
    assert [a["bgcolor"] for a in boxes] == node_fills(tree)


def test_plotly_class_colours_come_from_the_class_palette(iris, iris_data):
    X, y = iris_data
    fig = viz.tree_figure(iris.tree_, iris)
    assert set(fig.data[1].marker.color) <= set(CLASS_COLOURS)
    fig = viz.regions_figure(iris.tree_, iris, 2, 3, X.to_numpy().mean(axis=0), X, y)
    assert {t.marker.color for t in fig.data} <= set(CLASS_COLOURS)
    fills = {s.fillcolor for s in fig.layout.shapes}
    assert {re.sub(r"rgba\((\d+),(\d+),(\d+),.*", r"\1,\2,\3", f) for f in fills} <= {
        ",".join(str(int(v)) for v in _rgb(c)) for c in CLASS_COLOURS}
    fig = viz.bar_figure(["a", "b", "c"], [1, 2, 3], "t")
    assert set(fig.data[0].marker.color) <= set(CLASS_COLOURS)


@pytest.mark.parametrize("module", ["views/viz.py", "_export.py", "_colours.py", "views/downloads.py"])
def test_figure_builders_use_no_colour_outside_the_palette(module):
    """Every colour literal in the figure builders is a class colour (Okabe-Ito,
    then Paul Tol's) or a grey."""
    source = (ROOT / "dtree" / module).read_text()
    palette = {c.lower() for c in CLASS_COLOURS}
    for colour in re.findall(r"#[0-9A-Fa-f]{6}\b|#[0-9A-Fa-f]{3}\b", source):
        c = colour.lower()
        if len(c) == 4:
            c = "#" + "".join(2 * ch for ch in c[1:])
        r, g, b = c[1:3], c[3:5], c[5:7]
        assert c in palette or r == g == b, f"{colour} in dtree/{module}"
