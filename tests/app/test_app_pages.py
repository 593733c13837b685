"""Every page under AppTest: runs without exceptions, widgets drive the state,
and bad uploads give a clear message while the session keeps working."""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.upload_corpus import CORPUS, EXPECT
from tests.helpers.apptest import APP, assert_clean, DATA, dot, GROW, n_nodes, start, upload
from tests.helpers.call_log import log_calls


# -- the pages ---------------------------------------------------------------------

def test_grow_page_is_the_home_page_and_shows_the_root():
    at = start()
    spec = dot(at)
    assert n_nodes(spec) == 1
    assert 'color="#0072B2"' in spec  # the root is the next node to split
    assert at.slider(key="step").value == 0


def test_data_page_runs_and_reports_the_split():
    at = start(DATA)
    assert any("training rows" in s.value for s in at.success)
    assert at.selectbox(key="target").value == "species"


def test_next_and_previous_step_change_the_tree_and_the_url():
    at = start()
    first = dot(at)
    at.button(key="next").click().run()
    assert_clean(at)
    second = dot(at)
    assert second != first and n_nodes(second) == 3
    assert 'color="#D55E00"' in second  # the node just split
    assert at.query_params.get("step") == ["1"] or at.query_params.get("step") == "1"
    at.button(key="next").click().run()
    assert n_nodes(dot(at)) == 5
    at.button(key="prev").click().run()
    assert dot(at) == second


def test_grow_all_and_reset():
    at = start()
    at.button(key="grow_all").click().run()
    n = at.slider(key="step").value
    assert n > 1 and at.slider(key="step").max == n
    assert "gain = " in dot(at) and "g(t) = " in dot(at)
    at.button(key="reset").click().run()
    assert n_nodes(dot(at)) == 1


def test_parameters_change_the_tree():
    at = start()
    at.button(key="grow_all").click().run()
    deep = n_nodes(dot(at))
    at.number_input(key="max_depth").set_value(1).run()
    assert_clean(at)
    # the step stays at the (new) last step: Grow all and Next are disabled
    assert at.button(key="grow_all").disabled and at.button(key="next").disabled
    assert not at.button(key="prev").disabled
    assert n_nodes(dot(at)) == 3 < deep
    at.selectbox(key="criterion").set_value("entropy").run()
    assert "entropy = " in dot(at)


def test_presets_set_the_criterion():
    at = start()
    at.selectbox(key="preset").set_value("C4.5").run()
    assert_clean(at)
    assert at.selectbox(key="criterion").value == "gain_ratio"
    at.button(key="next").click().run()
    assert "gain ratio = " in dot(at)
    assert any(r"H_A(D)" in el.value for el in at.latex)
    at.selectbox(key="preset").set_value("ID3").run()
    assert at.selectbox(key="criterion").value == "entropy"


def test_best_first_shows_priorities():
    at = start()
    at.selectbox(key="growth").set_value("best_first").run()
    at.button(key="next").click().run()
    assert "priority = " in dot(at)


def test_node_inspector_formulas_and_candidates():
    at = start()
    at.button(key="next").click().run()
    latex = [el.value for el in at.latex]
    # the root of the iris training set: 38 rows of each class
    assert any(r"\frac{38}{114}" in v and "0.667" in v for v in latex)
    assert any(r"\begin{aligned}" in v for v in latex)  # the gain, with numbers
    tables = at.table
    assert any("chosen" in t.value.columns and "✔" in list(t.value["chosen"]) for t in tables)


def test_inspector_follows_a_picked_node():
    at = start()
    at.button(key="grow_all").click().run()
    at.selectbox(key="inspect_select").set_value(2).run()
    assert_clean(at)
    assert any(h.value.startswith("Node #2") for h in at.subheader)


def test_other_tabs_render():
    at = start()
    at.button(key="next").click().run()
    for label, chart in (("Decision regions", "regions"), ("Accuracy", "scores")):
        at.session_state["panel"] = label
        at.run()
        assert_clean(at)
        assert any(c.key == chart for c in at.get("plotly_chart")), label
    at.session_state["panel"] = "Export"
    at.run()
    assert_clean(at)
    keys = {b.key for b in at.get("download_button")}
    assert {"exp_dot", "exp_txt", "exp_json", "exp_html"} <= keys, keys


def test_regression_target():
    at = start(DATA)
    at.selectbox(key="target").set_value("petal width (cm)").run()
    at.selectbox(key="task").set_value("regression").run()
    assert_clean(at)
    at.switch_page(GROW).run()
    assert_clean(at)
    assert "mse = " in dot(at)


def test_switching_the_builtin_dataset():
    at = start(DATA)
    at.selectbox(key="builtin").set_value("Wine").run()
    assert_clean(at)
    assert at.selectbox(key="target").value == "class"
    at.switch_page(GROW).run()
    at.button(key="grow_all").click().run()
    assert "class = class_0" in dot(at) and "class = class_2" in dot(at)


# -- uploads --------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CORPUS))
def test_upload_corpus(name):
    at = start(DATA)
    upload(at, name, CORPUS[name]())
    errors = " ".join(e.value for e in at.error)
    if EXPECT.get(name) == "error":
        assert "could not be used" in errors, errors
        assert "Still using" in errors
    else:
        assert "could not be used" not in errors, errors
    # every page still works
    at.switch_page(GROW).run()
    assert_clean(at)
    at.switch_page(DATA).run()
    assert_clean(at)


def test_hostile_names_are_escaped_everywhere():
    at = start(DATA)
    upload(at, "hostile.csv", CORPUS["hostile_names.csv"]())
    at.switch_page(GROW).run()
    assert_clean(at)
    at.button(key="grow_all").click().run()
    spec = dot(at)
    # no user text can end a DOT string or start an HTML label
    assert 'label="pwn' not in spec
    assert "<script>" not in spec or '\\"' in spec
    for line in spec.splitlines():
        assert not re.search(r'label=<', line)
    # Markdown shows the names literally (escaped), nothing is passed as HTML
    for el in at.markdown:
        assert "<script>" not in el.value
    assert not at.get("html") or all("<script>" not in h.proto.body for h in at.get("html"))


def test_upload_replaces_the_dataset_and_grows():
    at = start(DATA)
    upload(at, "gbk.csv", CORPUS["gbk_chinese.csv"]())
    assert any("GB18030" in c.value for c in at.caption)
    at.switch_page(GROW).run()
    at.button(key="grow_all").click().run()
    assert "类别" not in dot(at)  # the target is no split: its name is in no box
    # the features' names decoded from GBK: the root splits on owning a house
    assert "有自己的房子" in dot(at) and "\ufffd" not in dot(at)


def test_gain_curve_map_and_category_bars():
    at = start()
    at.button(key="next").click().run()
    at.session_state["gain_chart"] = True  # open the lazily drawn expanders
    at.session_state["node_map"] = True
    at.run()
    assert_clean(at)
    keys = {c.key for c in at.get("plotly_chart")}
    assert {"inspect_plot", "curve_0"} <= keys
    # a categorical feature gets one bar per category
    upload(at, "loan.csv", CORPUS["gbk_chinese.csv"]())
    at.switch_page(GROW).run()
    at.button(key="next").click().run()
    at.session_state["gain_chart"] = True
    at.run()
    assert_clean(at)
    assert any(c.key.startswith("bars_") for c in at.get("plotly_chart"))


def test_regression_inspector_and_panels():
    at = start(DATA)
    at.selectbox(key="target").set_value("petal width (cm)").run()
    at.selectbox(key="task").set_value("regression").run()
    at.switch_page(GROW).run()
    at.button(key="next").click().run()
    assert any(r"\mathrm{MSE}(D) = \frac{1}{112}" in el.value for el in at.latex)
    for label, chart in (("Decision regions", "regions"), ("R²", "scores")):
        at.session_state["panel"] = label
        at.run()
        assert_clean(at)
        assert chart in {c.key for c in at.get("plotly_chart")}


# -- categorical features and missing values, natively -----------------------------

def open_everything(at):
    """Open the inspector's lazy charts and every tab; no exception anywhere."""
    at.session_state["gain_chart"] = True
    at.session_state["node_map"] = True
    at.run()
    assert_clean(at)
    keys = {c.key for c in at.get("plotly_chart")}
    for label in ("Decision regions", "Accuracy"):
        at.session_state["panel"] = label
        at.run()
        assert_clean(at)
    at.session_state["panel"] = "Node inspector"
    at.run()
    return keys


@pytest.mark.parametrize("preset", ["CART", "ID3", "C4.5"])
def test_penguins_with_categories_and_missing_values_grow_with_every_preset(preset):
    at = start(DATA)
    at.selectbox(key="builtin").set_value("Penguins").run()
    at.switch_page(GROW).run()
    at.selectbox(key="preset").set_value(preset).run()
    at.button(key="grow_all").click().run()
    assert_clean(at)
    spec = dot(at)
    assert n_nodes(spec) > 3
    assert "inspect_plot" in open_everything(at)
    if preset == "ID3":  # ID3 leaves rows with missing values out, and says so
        texts = " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.caption)
        assert "ID3 has no rule for missing values" in texts


@pytest.mark.parametrize("preset", ["ID3", "C4.5", "CART"])
def test_loan_table_grows_the_textbook_root_with_every_preset(preset):
    """Li Hang's loan table, all 15 rows in training: the root splits on
    有自己的房子 with g = 0.420 (ID3, C4.5: one branch per category, labelled
    by it) or into two groups of categories (CART)."""
    at = start(DATA)
    upload(at, "loan.csv", CORPUS["gbk_chinese.csv"]())
    at.slider(key="test_size").set_value(0.0).run()
    at.switch_page(GROW).run()
    at.selectbox(key="preset").set_value(preset).run()
    at.button(key="next").click().run()
    assert_clean(at)
    spec = dot(at)
    assert "有自己的房子" in spec
    if preset == "CART":
        assert '[label="True"' in spec
        assert any(r"\mathrm{Gini}(D) - " in el.value for el in at.latex)
    else:
        assert '0 -> 1 [label="否"' in spec and '[label="是"' in spec
        assert any(r"H(D) - \frac{|D_1|}{|D|}H(D_1)" in el.value and "0.971 -" in el.value
                   and el.value.rstrip("$\n").endswith(r"= 0.420\end{aligned}")
                   for el in at.latex), [el.value for el in at.latex]
    if preset == "C4.5":  # gain ratio 0.420 / H_A(D) = 0.420 / 0.971 = 0.433
        assert any("H_A(D) = " in el.value and "0.971" in el.value for el in at.latex)
        assert any(r"= 0.433" in el.value for el in at.latex)
    keys = open_everything(at)
    assert any(k.startswith("terms_" if preset != "CART" else "bars_") for k in keys), keys


def test_a_three_way_split_shows_every_branch_in_formula_and_tree():
    """Watermelon 2.0 under ID3: the root splits on 纹理 into 清晰/稍糊/模糊,
    gain 0.381 (Zhou Zhihua, 4.2.1)."""
    at = start(DATA)
    at.selectbox(key="builtin").set_value("Watermelon 2.0 (Zhou Zhihua)").run()
    assert at.slider(key="test_size").value == 0.0  # textbook tables: every row
    assert any("编号" in c.value and "identifier" in c.value for c in at.caption)
    at.switch_page(GROW).run()
    at.selectbox(key="preset").set_value("ID3").run()
    at.button(key="next").click().run()
    assert_clean(at)
    spec = dot(at)
    assert len(re.findall(r"^0 -> \d+", spec, flags=re.M)) == 3
    assert any(r"\sum_{v=1}^{3}" in el.value and "= 0.381" in el.value for el in at.latex)
    # uploaded, the same table grows the same root: its 编号 column is left out too
    data = (Path(__file__).resolve().parents[2] / "data" / "watermelon2.csv").read_bytes()
    upload(at, "watermelon2.csv", data)
    at.slider(key="test_size").set_value(0.0).run()
    at.switch_page(GROW).run()
    at.button(key="next").click().run()
    assert len(re.findall(r"^0 -> \d+", dot(at), flags=re.M)) == 3


# -- lecture mode and the interface language -------------------------------------------

@pytest.mark.parametrize("value", ["zh", "en"])
def test_language_comes_from_the_url_and_goes_back_into_it(value):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["lang"] = value
    at.run()
    assert_clean(at)
    assert at.session_state["lang"] == value
    assert at.toggle[0].label == {"zh": "演示模式", "en": "Presenter mode"}[value]
    other = {"zh": "en", "en": "zh"}[value]
    at.segmented_control(key="lang_pick").set_value(other).run()
    assert_clean(at)
    assert at.session_state["lang"] == other


def first_run(**query):
    """A fresh session's first run with these URL parameters."""
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    assert_clean(at)
    return at


def test_presenter_mode_hides_the_sidebar_and_enlarges_the_tree():
    plain, presenting = first_run(), first_run(present="true")
    assert presenting.session_state["present"] is True
    css = [h.proto.body for h in presenting.get("html")]
    assert any("[data-testid='stSidebar']" in body and "display: none" in body for body in css)
    assert not any("stSidebar" in h.proto.body for h in plain.get("html"))
    # drawn large, then scaled down to the window by the CSS
    size = int(re.search(r"fontsize=(\d+)", dot(plain)).group(1))
    assert int(re.search(r"fontsize=(\d+)", dot(presenting)).group(1)) > size
    assert any("max-height: calc(100vh" in body for body in css)
    assert not any("max-height: calc(100vh" in h.proto.body for h in plain.get("html"))
    # one bar of controls, and the inspector folded away
    assert presenting.expander(key="more_panels") is not None
    assert not presenting.get("tabs") and plain.get("tabs")


# -- the view in the URL ------------------------------------------------------------------

def test_a_prepared_link_opens_the_same_view():
    at = start(DATA)
    at.selectbox(key="builtin").set_value("Wine").run()
    at.switch_page(GROW).run()
    at.selectbox(key="preset").set_value("C4.5").run()
    at.number_input(key="max_depth").set_value(3).run()
    at.selectbox(key="growth").set_value("breadth_first").run()
    at.button(key="next").click().run()
    at.button(key="next").click().run()
    at.selectbox(key="inspect_select").set_value(1).run()
    assert_clean(at)
    spec = dot(at)
    # (AppTest does not show the URL the app rewrites; the browser test checks
    # that the app writes this link)
    link = {"data": "Wine", "preset": "C4.5", "max_depth": "3", "growth": "breadth_first",
            "step": "2", "inspect": "1"}
    # a new session opened on that link (first run, then the browser's second)
    fresh = AppTest.from_file(APP, default_timeout=120)
    for key, value in link.items():
        fresh.query_params[key] = value
    fresh.run().run()
    assert_clean(fresh)
    assert dot(fresh) == spec
    assert fresh.slider(key="step").value == 2
    assert fresh.selectbox(key="preset").value == "C4.5"
    assert fresh.selectbox(key="inspect_select").value == 1
    assert any(h.value.startswith("Node #1") for h in fresh.subheader)


def test_a_link_with_nonsense_values_still_opens():
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in {"data": "Nope", "max_depth": "deep", "seed": "x", "step": "-4",
                       "preset": "ID4", "inspect": "999", "panel": "Nope",
                       "min_samples_leaf": "0", "growth": "sideways"}.items():
        at.query_params[key] = value
    at.run().run()
    assert_clean(at)
    assert n_nodes(dot(at)) >= 1


def test_prediction_and_importance_tabs_draw_the_path_and_the_bars():
    at = start()
    at.button(key="grow_all").click().run()
    plain = dot(at)
    assert "#CC79A7" not in plain
    at.session_state["panel"] = "Prediction"
    at.run()
    assert_clean(at)
    assert "#CC79A7" in dot(at)  # the test row's path
    at.session_state["panel"] = "Importances"
    at.run()
    assert_clean(at)
    assert at.get("plotly_chart")


def test_growth_orders_tab_compares_the_orders():
    at = start()
    at.session_state["panel"] = "Growth orders"
    at.run()
    assert_clean(at)
    text = " ".join(m.value for m in at.markdown) + " ".join(s.value for s in at.success) \
        + " ".join(i.value for i in at.info)
    assert "breadth-first" in text and "depth-first" in text


# -- rows left out are said in a warning ------------------------------------------------

def _warnings(at):
    return [w.value for w in at.warning]


def test_a_ragged_csv_warns_how_many_rows_were_left_out():
    rows = ["x,y,label"] + [f"{i},{i % 7},{'ab'[i % 2]}" for i in range(40)]
    rows[5] += ",extra"
    rows[9] += ",extra,more"
    rows[20] += ",extra"
    at = upload(start(), "ragged.csv", "\n".join(rows).encode())
    said = [w for w in _warnings(at) if "left out" in w]
    assert said and "3 row(s)" in said[0] and "more fields than the header" in said[0]
    assert not any("3 row(s) had more fields" in c.value for c in at.caption)


def test_rows_without_a_target_are_warned_about_with_their_count():
    rows = ["x,y,label"] + [f"{i},{i % 5},{'' if i % 10 == 3 else 'ab'[i % 2]}"
                            for i in range(60)]
    at = upload(start(), "gaps.csv", "\n".join(rows).encode())
    said = [w for w in _warnings(at) if "no value in the target" in w]
    assert said and "6 row(s)" in said[0]


def test_the_warning_speaks_chinese_too():
    rows = ["x,y,label"] + [f"{i},{i % 5},{'' if i % 10 == 3 else 'ab'[i % 2]}"
                            for i in range(60)]
    at = start()
    at.session_state["lang"] = "zh"
    at = upload(at.run(), "gaps.csv", "\n".join(rows).encode())
    assert any("有 6 行被舍弃" in w for w in _warnings(at))


def test_the_grow_page_sends_its_tree_before_the_sidebar_and_keeps_it_on_an_error(
        monkeypatch):
    """The sidebar's controls come last in the Grow page's run (the browser
    draws the tree first); a page that stops because the tree cannot be
    grown still has them, since the fix is a parameter."""
    import streamlit as st

    import pages.panels.sidebar

    order = []
    log_calls(monkeypatch, order, st, "graphviz_chart", "tree")
    log_calls(monkeypatch, order, pages.panels.sidebar, "sidebar_controls", "sidebar")
    at = start()
    order.clear()
    at.run()
    assert_clean(at)
    assert order == ["tree", "sidebar"], order
    # a numeric target with negative values: the Poisson deviance refuses them
    rows = "\n".join(f"{i},{i * 1.5 - 30}" for i in range(60))
    upload(at, "below_zero.csv", f"x,y\n{rows}\n".encode())
    at.switch_page(GROW).run()
    at.selectbox(key="criterion").set_value("poisson").run()
    assert_clean(at)
    assert any("could not be grown" in e.value for e in at.error)
    assert at.selectbox(key="criterion").value == "poisson"  # the sidebar is there
    at.selectbox(key="criterion").set_value("squared_error").run()
    assert_clean(at)
    assert not at.error
    assert order[-2:] == ["tree", "sidebar"], order
