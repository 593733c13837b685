"""The Compare page under AppTest: its default trees part (and identical trees
come with a one-click change that makes them part), it runs in both
languages, the shared step redraws every tree, a column's parameters change
only its tree, a link with the page's URL parameters reopens the same view,
and the charts are drawn."""

import base64
import json
import re

import numpy as np
import plotly.io
import pytest
from streamlit.testing.v1 import AppTest

from dtree.views import compare
from tests.helpers.apptest import APP, assert_clean

COMPARE, DATA = "pages/compare.py", "pages/data.py"
DIVERGENCE = 'color="#CC79A7", penwidth=7'


def start(dataset=None, query=None):
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run().run()
    if dataset is not None:
        at.switch_page(DATA).run()
        at.selectbox(key="builtin").set_value(dataset).run()
    at.switch_page(COMPARE).run()
    assert_clean(at)
    return at


def dots(at):
    return [c.proto.spec for c in at.get("graphviz_chart")]


def n_nodes(spec):
    return len(re.findall(r"^\d+ \[label=", spec, flags=re.M))


def figure(at):
    charts = at.get("plotly_chart")
    assert charts, "no chart drawn"
    return plotly.io.from_json(charts[0].proto.spec)


def array(value):
    """A Plotly array from the figure JSON (plain or base64 "bdata")."""
    if isinstance(value, dict) and "bdata" in value:
        data = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = [int(n) for n in str(value.get("shape", len(data))).split(",")]
        return data.reshape(shape)
    return np.asarray(value)


def query(at, key):
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


# -- the page ---------------------------------------------------------------------------


def titles_of(at):
    return [m.value for m in at.markdown if m.value.startswith("#####")]


def test_the_default_trees_differ_in_english_and_chinese():
    # Iris grows one tree with every criterion unless leaves hold 5 rows or
    # more: the default pair is Gini and misclassification with
    # min_samples_leaf 5 (see tests/views/test_compare.py), and the page says why
    at = start()
    assert len(dots(at)) == 2
    assert titles_of(at) == ["##### 1 · Gini", "##### 2 · misclassification"]
    text = at.info[0].value
    assert "identical" not in text and "same tree" not in text
    assert "agree on the first 2 splits" in text and "They part at step 3." in text
    assert at.number_input(key="cmp_l1").value == at.number_input(key="cmp_l2").value == 5
    assert any("Both trees use min_samples_leaf 5" in c.value for c in at.caption)
    at.button(key="cmp_goto").click().run()
    assert_clean(at)
    assert at.slider(key="cmp_step").value == 3
    assert all(DIVERGENCE in d for d in dots(at))  # the node where they part, outlined
    assert not any(b.key in ("cmp_try_pair", "cmp_try_data") for b in at.button)
    at.session_state["lang"] = "zh"
    at.run()
    assert_clean(at)
    assert titles_of(at) == ["##### 1 · 基尼系数", "##### 2 · 误分类率"]
    assert "完全相同" not in at.info[0].value and "在第 3 步分开" in at.info[0].value
    assert any("训练集准确率" in m.value for m in at.markdown)
    assert len(dots(at)) == 2


def test_four_trees():
    at = start(query={"cmp_n": "4"})
    assert len(dots(at)) == 4
    assert titles_of(at) == ["##### 1 · Gini", "##### 2 · misclassification",
                             "##### 3 · gain ratio", "##### 4 · entropy"]
    assert "identical" not in at.info[0].value


def test_identical_trees_offer_a_pair_that_parts():
    # with the Grow page's min_samples_leaf (1) every pair grows the same tree
    # on Iris: the offer (checked by fitting) is Gini and misclassification
    # with larger leaves, and one click shows them
    at = start()
    for n in (1, 2):
        at.number_input(key=f"cmp_l{n}").set_value(1).run()
    assert_clean(at)
    assert "identical" in at.info[0].value and "one click" in at.info[0].value
    offer = at.button(key="cmp_try_pair")
    assert offer.label == ("Compare Gini (CART) and misclassification (CART), "
                           "min_samples_leaf 5 (they part at step 3)")
    assert at.button(key="cmp_try_data").label.startswith("Use Wine: ")
    offer.click().run()
    assert_clean(at)
    assert "identical" not in at.info[0].value and "They part at step 3." in at.info[0].value
    assert at.selectbox(key="cmp_c2").value == "misclassification"
    assert at.number_input(key="cmp_l1").value == at.number_input(key="cmp_l2").value == 5
    assert not any(b.key == "cmp_try_pair" for b in at.button)


def test_identical_trees_offer_another_dataset():
    # the cats' table grows one tree whatever is tried: the offer is a
    # dataset on which the pair parts as it is
    at = start("Cats (lecture example)")
    assert "identical" in at.info[0].value
    assert not any(b.key == "cmp_try_pair" for b in at.button)
    offer = at.button(key="cmp_try_data")
    assert offer.label == "Use Wine: Gini (CART) and entropy (CART) part at step 1"
    offer.click().run()
    assert_clean(at)
    assert at.session_state["table"].title == "Wine"
    assert "differ from the first split" in at.info[0].value
    assert titles_of(at) == ["##### 1 · Gini", "##### 2 · entropy"]
    at.session_state["lang"] = "zh"
    at.run()
    assert_clean(at)
    assert "在第 1 步分开" in at.info[0].value


def test_the_shared_step_redraws_every_tree_and_is_in_the_url():
    at = start()
    first = dots(at)
    assert [n_nodes(d) for d in first] == [1, 1]
    at.button(key="cmp_next").click().run()
    assert_clean(at)
    second = dots(at)
    assert all(a != b for a, b in zip(first, second))
    assert [n_nodes(d) for d in second] == [3, 3]
    assert query(at, "cmp_step") == "1"
    at.slider(key="cmp_step").set_value(3).run()
    assert [n_nodes(d) for d in dots(at)] == [7, 7]
    at.button(key="cmp_prev").click().run()
    assert [n_nodes(d) for d in dots(at)] == [5, 5]
    assert sum("Step 2 of " in m.value for m in at.markdown) == 2


def test_a_link_opens_the_same_view():
    # (a widget changed by the user writes the URL in the browser: see the
    # browser test; here the URL is read).  The criterion and the chart are
    # kept by their keys, whatever the language (tests/app/test_app_link_choices.py).
    at = start(query={"cmp_step": "2", "cmp_n": "2", "cmp_c2": "taylor2",
                      "cmp_chart": "impurity"})
    assert at.slider(key="cmp_step").value == 2
    specs = dots(at)
    assert [n_nodes(d) for d in specs] == [5, 5]
    assert "gini = " in specs[0] and "taylor2 = " in specs[1]
    assert at.button_group(key="cmp_chart").value == "impurity"


def test_changing_a_column_criterion_changes_only_its_tree():
    at = start()
    at.slider(key="cmp_step").set_value(2).run()
    before = dots(at)
    assert "gini = " in before[0]
    at.selectbox(key="cmp_c1").set_value("taylor2").run()
    assert_clean(at)
    after = dots(at)
    assert after[0] != before[0] and "taylor2 = " in after[0]
    assert after[1:] == before[1:]
    assert any(m.value == "##### 1 · Taylor, second order" for m in at.markdown)


def test_preset_and_depth_of_a_column():
    at = start()
    at.selectbox(key="cmp_p2").set_value("ID3").run()
    assert_clean(at)
    assert at.selectbox(key="cmp_c2").value == "entropy"
    assert at.selectbox(key="cmp_c2").options == ["entropy"]
    assert any(m.value == "##### 2 · entropy \\(ID3\\)" for m in at.markdown)
    at.number_input(key="cmp_d1").set_value(1).run()
    assert_clean(at)
    at.slider(key="cmp_step").set_value(at.slider(key="cmp_step").max).run()
    grown = dots(at)
    assert n_nodes(grown[0]) == 3  # max_depth 1: one split
    assert n_nodes(grown[1]) > 3
    # tree 1 stops where the others go on: the trees part there
    assert "1 · Gini** makes it a leaf" in at.info[0].value


def test_the_number_of_trees():
    at = start()
    at.button_group(key="cmp_n").set_value(2).run()
    assert_clean(at)
    assert len(dots(at)) == 2
    at.button_group(key="cmp_n").set_value(3).run()
    assert len(dots(at)) == 3
    at.button_group(key="cmp_row").set_value(2).run()
    assert_clean(at)
    assert len(dots(at)) == 3
    # with fewer trees per row, each tree is labelled again above it
    assert sum(m.value == "**3 · gain ratio**" for m in at.markdown) == 1


def test_wine_trees_part_at_the_root_and_the_node_is_outlined():
    at = start("Wine")
    assert titles_of(at) == ["##### 1 · Gini", "##### 2 · entropy"]
    text = at.info[0].value
    assert "differ from the first split" in text and "at the root" in text
    assert "**1 · Gini** splits on proline" in text and "They part at step 1." in text
    assert all(DIVERGENCE in d for d in dots(at))  # the root, in every tree
    at.button(key="cmp_goto").click().run()
    assert_clean(at)
    assert at.slider(key="cmp_step").value == 1
    for spec in dots(at):
        assert n_nodes(spec) == 3
        assert re.search(r'^0 \[color="#CC79A7", penwidth=7\] ;$', spec, flags=re.M)


def test_the_three_charts():
    at = start("Wine", query={"cmp_n": "4"})
    fig = figure(at)
    assert sum(1 for t in fig.data if t.showlegend is not False) >= 4
    at.slider(key="cmp_step").set_value(2).run()
    at.button_group(key="cmp_chart").set_value("agreement").run()
    assert_clean(at)
    heat = figure(at).data[0]
    z = array(json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]["z"])
    assert heat.type == "heatmap" and z.shape == (4, 4)
    assert np.allclose(np.diag(z), 1) and np.allclose(z, z.T) and (z < 1).any()
    at.button_group(key="cmp_chart").set_value("impurity").run()
    assert_clean(at)
    names = [t.name for t in figure(at).data if t.name]
    assert any(n.startswith("Gini: ") for n in names)
    assert any("majority class" in m.value for m in at.markdown)  # Wine: three classes
    at.session_state["lang"] = "zh"
    at.run()
    assert_clean(at)
    names = [t.name for t in figure(at).data if t.name]
    assert any(n.startswith("基尼系数: ") for n in names)


def test_the_lecture_cats():
    at = start("Cats (lecture example)")
    assert len(dots(at)) == 2
    at.slider(key="cmp_step").set_value(at.slider(key="cmp_step").max).run()
    assert_clean(at)
    at.button_group(key="cmp_chart").set_value("impurity").run()
    assert_clean(at)
    assert any("share of class 1" in m.value for m in at.markdown)
    # a two-class node: the curves' values at the marker are the node's own
    # impurities (the last split's node of tree 1, from the engine's tree)
    text = next(m.value for m in at.markdown if "The marker" in m.value)
    gini_curve = next(t.name for t in figure(at).data if t.name and t.name.startswith("Gini"))
    assert gini_curve == "Gini: " + re.search(r"Gini (\d\.\d{3})", text).group(1)


def test_regression_defaults_and_r2():
    at = AppTest.from_file(APP, default_timeout=120).run().run()
    at.switch_page(DATA).run()
    at.selectbox(key="target").set_value("sepal length (cm)").run()
    at.switch_page(COMPARE).run()
    assert_clean(at)
    assert titles_of(at) == ["##### 1 · squared error", "##### 2 · absolute error"]
    assert "They part at step 1." in at.info[0].value  # mean or median: at the root
    assert any("R²" in m.value for m in at.markdown)
    at.button_group(key="cmp_n").set_value(4).run()
    assert_clean(at)
    assert titles_of(at) == ["##### 1 · squared error", "##### 2 · absolute error",
                             "##### 3 · Friedman MSE", "##### 4 · Poisson deviance"]
    at.button_group(key="cmp_chart").set_value("agreement").run()
    assert_clean(at)
    assert "difference" in figure(at).layout.title.text
    at.button_group(key="cmp_chart").set_value("impurity").run()
    assert_clean(at)
    assert at.info and any("regression" in i.value for i in at.info)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_link_in_either_language(lang):
    chart = "Agreement" if lang == "en" else "预测一致性"
    at = start(query={"lang": lang, "cmp_chart": chart})
    labels = [at.button(key=k).label for k in ("cmp_prev", "cmp_next")]
    assert labels == (["Previous step", "Next step"] if lang == "en" else ["上一步", "下一步"])
    assert at.button_group(key="cmp_chart").value == "agreement"


def test_id3_with_missing_values_is_tested_on_the_same_rows():
    # Penguins has missing values: ID3 trains without those rows, but every
    # tree predicts the same test rows, so the agreement matrix is defined
    at = start("Penguins")
    at.selectbox(key="cmp_p2").set_value("ID3").run()
    assert_clean(at)
    assert any("ID3 has no rule" in c.value for c in at.caption)
    at.button_group(key="cmp_chart").set_value("agreement").run()
    assert_clean(at)
    z = array(json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]["z"])
    assert z.shape == (2, 2) and np.isfinite(z).all()


def test_presenter_mode_lays_the_trees_out_for_the_window_with_brief_boxes():
    """Presenter mode: the trees side by side, four in two rows (the CSS
    scales each to its share of the window); boxes drawn large and brief,
    the trees folded to fit; W and D switch to the whole trees and to every
    detail, as on the Grow page."""
    at = start(query={"present": "true", "cmp_n": "4", "data": "wine", "cmp_step": "9"})
    with pytest.raises(KeyError):  # no "trees per row" choice: the layout is the window's
        at.button_group(key="cmp_row")
    css = " ".join(h.proto.body for h in at.get("html"))
    assert compare.presenter_layout(4).above_css in css
    assert all(f".st-key-cmp_head{i}" in css for i in range(1, 5))
    specs = dots(at)
    assert len(specs) == 4 and all("fontsize=20" in d for d in specs)
    assert all(re.search(r'label="#0  ', d) for d in specs)  # the id shares a line
    assert not any("node #0" in d or "gini =" in d for d in specs)
    assert any("▸" in d for d in specs)  # folded to fit a quarter of the window
    # a heading per tree: its label and its test score
    assert sum("test accuracy" in m.value for m in at.markdown) == 4
    at.button(key="whole_tree").click().run()
    at.button(key="details_switch").click().run()
    assert_clean(at)
    specs = dots(at)
    assert not any("▸" in d for d in specs) and all("samples = " in d for d in specs)
    plain = dots(start(query={"cmp_n": "4"}))
    assert all("node #0" in d for d in plain)
