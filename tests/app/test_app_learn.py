"""The Learn page under AppTest: every topic runs in English and Chinese, the
calculator follows its inputs, the loan table's gains appear with the book's
digits, and the growth-order panel runs on its own (as the Grow page embeds
it)."""

import math
import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.apptest import APP, assert_clean

LEARN, DATA = "pages/learn.py", "pages/data.py"
PARTS = ["impurity", "gain", "cats", "ratio", "scaling", "orders", "lookahead"]


def start():
    at = AppTest.from_file(APP, default_timeout=120).run().run()
    at.switch_page(LEARN).run()
    assert_clean(at)
    return at


def part(at, name):
    at.button_group(key="learn_part").set_value(name).run()
    assert_clean(at)
    return at


def latex(at):
    return [e.proto.body.strip("$\n ") for e in at.get("latex")]


def metrics(at):
    return {m.label: m.value for m in at.metric}


def dots(at):
    return [c.proto.spec for c in at.get("graphviz_chart")]


def use_builtin(at, title):
    at.switch_page(DATA).run()
    at.selectbox(key="builtin").set_value(title).run()
    assert_clean(at)
    at.switch_page(LEARN).run()
    assert_clean(at)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_topic_runs(language):
    at = start()
    if language == "zh":
        at.session_state["lang"] = "zh"
        at.run()
        assert_clean(at)
    titles = [t.value for t in at.title]
    assert titles == (["原理：分裂背后的数字"] if language == "zh"
                      else ["Learn: the numbers behind a split"])
    for name in PARTS:
        part(at, name)
        assert at.query_params.get("learn_part") in (name, [name])
        assert latex(at) or dots(at), name
    if language == "zh":
        part(at, "gain")
        assert any("信息增益" in s.value for s in at.success)


def test_calculator_follows_the_counts():
    at = start()
    shown = metrics(at)
    assert shown["Entropy H(D)"] == "0.971" and shown["Gini Gini(D)"] == "0.480"
    chart = at.get("plotly_chart")[0].proto.spec
    at.text_input(key="learn_counts").set_value("5, 1").run()
    assert_clean(at)
    expected = -(5 / 6 * math.log2(5 / 6) + 1 / 6 * math.log2(1 / 6))
    shown = metrics(at)
    assert shown["Entropy H(D)"] == f"{expected:.3f}" == "0.650"
    assert shown["Gini Gini(D)"] == f"{1 - (5 / 6) ** 2 - (1 / 6) ** 2:.3f}"
    assert shown["Misclassification Err(D)"] == f"{1 / 6:.3f}"
    assert any(r"\frac{5}{6}" in body and body.endswith("= 0.650") for body in latex(at))
    assert at.get("plotly_chart")[0].proto.spec != chart  # the marked point moved
    at.text_input(key="learn_counts").set_value("3, 3, 2").run()
    expected = -(2 * 3 / 8 * math.log2(3 / 8) + 2 / 8 * math.log2(2 / 8))
    assert metrics(at)["Entropy H(D)"] == f"{expected:.3f}"


def test_calculator_with_p_and_bad_input():
    at = start()
    at.button_group(key="learn_input").set_value("p").run()
    at.slider(key="learn_p").set_value(0.5).run()
    assert_clean(at)
    shown = metrics(at)
    assert shown["Entropy H(D)"] == "1.000" and shown["Taylor, second order T₂(D)"] == "0.625"
    assert any(r"0.5\log_2 0.5" in body for body in latex(at))
    at.button_group(key="learn_input").set_value("counts").run()
    at.text_input(key="learn_counts").set_value("nine, six").run()
    assert_clean(at)
    assert at.error and "nine" in at.error[0].value
    at.text_input(key="learn_counts").set_value("0, 0").run()
    assert_clean(at)
    assert at.error and "positive" in at.error[0].value


def test_loan_gains_with_the_books_digits():
    at = part(start(), "gain")
    table = next(d.value for d in at.dataframe if "information gain g(D, A)" in d.value.columns)
    gains = dict(zip(table.iloc[:, 0], table.iloc[:, 3]))
    assert gains == {"年龄": "0.083", "有工作": "0.324", "有自己的房子": "0.420", "信贷情况": "0.363"}
    bodies = latex(at)
    assert any(body.endswith("= 0.971") and r"\frac{9}{15}" in body for body in bodies)
    for line in ("0.971 - 0.888 = 0.083", "0.971 - 0.647 = 0.324", "0.971 - 0.551 = 0.420",
                 "0.971 - 0.608 = 0.363"):
        assert any(body.endswith(line) for body in bodies), line
    assert any(r"H(D\mid A_{1}) &= \frac{5}{15}H(D_{1})" in body for body in bodies)
    assert "有自己的房子" in at.success[0].value


def test_cats_and_gain_ratio():
    at = part(start(), "cats")
    bodies = latex(at)
    for approx in ("0.28", "0.03", "0.12"):
        assert any(rf"\approx {approx}" in body for body in bodies)
    assert "Computed: 0.28 / 0.03 / 0.12" in at.success[0].value
    part(at, "ratio")
    assert len(at.get("plotly_chart")) == 1
    table = at.dataframe[0].value
    row = table[table.iloc[:, 0] == "ID"].iloc[0]
    assert row.iloc[2] == "0.971" and row.iloc[3] == f"{math.log2(15):.3f}" == "3.907"
    assert row.iloc[4] == "0.249"
    assert "0.249" in at.success[0].value and "有自己的房子" in at.success[0].value


def test_scaling_on_the_default_data_and_on_categorical_data():
    at = part(start(), "scaling")
    assert at.success and "Same tree" in at.success[0].value
    frame = at.dataframe[0].value
    assert frame.iloc[:, -1].all()  # same cut everywhere
    use_builtin(at, "Cats (lecture example)")
    part(at, "scaling")
    assert at.info and "no numeric features" in at.info[0].value


def test_growth_orders_on_wine_with_a_budget():
    at = start()
    use_builtin(at, "Wine")
    part(at, "orders")
    assert any("same tree" in s.value for s in at.success)
    assert len(dots(at)) == 1
    at.number_input(key="ord_budget").set_value(4).run()
    assert_clean(at)
    assert at.warning and "reddish-purple" in at.warning[0].value
    specs = dots(at)
    assert len(specs) == 2
    assert all(spec.count('color="#CC79A7"') == 1 for spec in specs)
    # the warning names the nodes outlined in the two trees
    numbers = re.findall(r"#(\d+)", at.warning[0].value)
    for spec, number in zip(specs, numbers):
        line = next(x for x in spec.splitlines() if 'color="#CC79A7"' in x)
        assert f"node #{number}\\n" in line
    at.button_group(key="ord_pair").set_value("depth_first:best_first").run()
    assert_clean(at)
    assert len(dots(at)) == 2


PANEL_SCRIPT = """
import streamlit as st
from pages.panels.orders_panel import growth_orders_panel
st.session_state.setdefault("max_depth", 3)
growth_orders_panel()
"""


def test_panel_runs_outside_the_learn_page():
    at = AppTest.from_string(PANEL_SCRIPT, default_timeout=120).run()
    assert_clean(at)
    assert len(dots(at)) == 1 and at.success
    at.number_input(key="ord_budget").set_value(3).run()
    assert_clean(at)
    assert dots(at)
