"""pages/panels/predict_panel.py under AppTest, through tests/helpers/predict_app.py (which
draws the tree with the sample's path first and then the panels, like the
Grow page): the widgets choose the sample, the drawn path and every number
shown agree with dtree.views.prediction and the engine, both languages run, and
user text stays escaped."""

import base64
import re
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.io
import pytest
from streamlit.testing.v1 import AppTest

from dtree.views.prediction import (explain_prediction, explanation, importance_terms,
                                    importances_at)
from dtree.views.viz import ON_PATH
from dtree.views.links import md
from tests.helpers import predict_app

SCRIPT = str(Path(predict_app.__file__).resolve())


def start(ds="iris"):
    at = AppTest.from_file(SCRIPT, default_timeout=120).run()
    if ds != "iris":
        at.selectbox(key="ds").set_value(ds).run()
    assert_clean(at)
    return at


def assert_clean(at):
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def fit_of(ds):
    return predict_app.build(ds)


def dot(at):
    return at.get("graphviz_chart")[0].proto.spec


def path_nodes(spec):
    """Nodes drawn with the path's double outline."""
    return sorted(int(m) for m in re.findall(r"^(\d+) \[.*peripheries=2\] ;$", spec, flags=re.M))


def figures(at):
    """The Plotly figures drawn, as figure objects."""
    return [plotly.io.from_json(chart.proto.spec) for chart in at.get("plotly_chart")]


def values(v):
    """A trace's data array (Plotly's JSON packs numeric arrays as base64)."""
    if isinstance(v, dict) and "bdata" in v:
        out = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
        return out.reshape(v["shape"]) if "shape" in v else out
    return np.asarray(v)


def strings(obj):
    """Every string inside a figure's dict."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from strings(v)


def markdown(at):
    return [m.value for m in at.markdown]


def step_of(at, ds="iris"):
    return at.slider(key=f"step_{ds}").value


def test_first_run_draws_row_0_path_and_its_explanation():
    at = start()
    fit = fit_of("iris")
    step = step_of(at)
    assert step == fit.n_steps
    x = fit.prep.X_test.iloc[0].to_dict()
    r = explain_prediction(fit.model, x, k=step)
    spec = dot(at)
    assert ON_PATH in spec
    assert path_nodes(spec) == sorted(r.nodes)
    assert md(explanation(r, "en")) in markdown(at)
    dist = figures(at)[0]
    np.testing.assert_allclose(values(dist.data[0].y), fit.model.predict_proba(
        fit.prep.X_test.iloc[[0]])[0])
    assert any(m == f"#### Prediction: {md(r.prediction)}" for m in markdown(at))
    decisions = at.table[1].value
    assert list(decisions.iloc[:, 0]) == [f"#{d.node_id}" for d in r.decisions]


def test_the_path_is_read_from_the_url_before_the_widgets_exist():
    at = AppTest.from_file(SCRIPT, default_timeout=120)
    at.query_params["ds"] = "melon"
    at.query_params["pred_row"] = "4"
    at.run()
    assert_clean(at)
    fit = fit_of("melon")
    r = explain_prediction(fit.model, fit.prep.X_test.iloc[4].to_dict())
    assert path_nodes(dot(at)) == sorted(r.nodes)
    assert at.number_input(key="pred_row").value == 4


def test_changing_the_row_moves_the_path():
    at = start()
    fit = fit_of("iris")
    step = step_of(at)
    paths = {}
    for row in range(6):
        at.number_input(key="pred_row").set_value(row).run()
        assert_clean(at)
        r = explain_prediction(fit.model, fit.prep.X_test.iloc[row].to_dict(), k=step)
        assert path_nodes(dot(at)) == sorted(r.nodes)
        assert md(explanation(r, "en")) in markdown(at)
        paths[row] = tuple(r.nodes)
    assert len(set(paths.values())) > 1  # the rows do not all share one path


def test_changing_the_step_redraws_the_path_on_that_tree():
    at = start()
    fit = fit_of("iris")
    at.number_input(key="pred_row").set_value(3).run()
    x = fit.prep.X_test.iloc[3].to_dict()
    for step in (0, 1, 2, fit.n_steps):
        at.slider(key="step_iris").set_value(step).run()
        assert_clean(at)
        r = explain_prediction(fit.model, x, k=step)
        assert path_nodes(dot(at)) == sorted(r.nodes)
        np.testing.assert_allclose(values(figures(at)[0].data[0].y), r.distribution)
    at.slider(key="step_iris").set_value(0).run()
    assert any("No split has been made yet" in i.value for i in at.info)


def test_own_values_with_a_missing_one():
    at = start()
    fit = fit_of("iris")
    step = step_of(at)
    at.segmented_control(key="pred_src").set_value("custom").run()
    assert_clean(at)
    # the form starts from the chosen row
    row = fit.prep.X_test.iloc[0]
    for j, name in enumerate(fit.model.feature_names_in_):
        assert at.number_input(key=f"pred_v{j}").value == pytest.approx(row[name])
    at.number_input(key="pred_v2").set_value(5.5).run()
    at.number_input(key="pred_v3").set_value(None).run()
    assert_clean(at)
    x = {**row.to_dict(), "petal length (cm)": 5.5, "petal width (cm)": None}
    r = explain_prediction(fit.model, x, k=step)
    assert any(d.status == "missing" for d in r.decisions)
    assert path_nodes(dot(at)) == sorted(r.nodes)  # drawn before the widgets, from state
    text = explanation(r, "en")
    assert "petal width (cm) is missing" in text and md(text) in markdown(at)
    np.testing.assert_allclose(
        values(figures(at)[0].data[0].y),
        fit.model.predict_proba(pd.DataFrame([x], dtype=float))[0])
    # the values survive a trip to the row and back
    at.segmented_control(key="pred_src").set_value("row").run()
    at.segmented_control(key="pred_src").set_value("custom").run()
    assert at.number_input(key="pred_v2").value == 5.5
    assert at.number_input(key="pred_v3").value is None
    # and the button copies the row back in
    at.button(key="pred_fill").click().run()
    assert at.number_input(key="pred_v3").value == pytest.approx(row["petal width (cm)"])


def test_c45_missing_value_is_split_over_the_branches():
    at = start("loan")
    fit = fit_of("loan")
    at.number_input(key="pred_row").set_value(1).run()  # 有自己的房子 is missing there
    assert_clean(at)
    step = step_of(at, "loan")
    x = fit.prep.X_test.iloc[1].to_dict()
    r = explain_prediction(fit.model, x, k=step)
    assert r.fractional and len(r.leaves) > 1
    spec = dot(at)
    assert path_nodes(spec) == sorted(r.nodes)
    for leaf in r.leaves:
        assert f"w = {leaf.weight:.3f}" in spec
    # the leaves' table ends with the mixture, equal to predict_proba
    proba = fit.model.predict_proba(pd.DataFrame([x]).astype(object))[0]
    leaves = next(t.value for t in at.table if t.value.columns[0] == "leaf")
    assert list(leaves.iloc[:-1, 0]) == [f"#{lf.node_id}" for lf in r.leaves]
    total = leaves.iloc[-1]
    assert total.iloc[0] == "Σ" and total.iloc[1] == "1.000"
    assert [float(v) for v in total.iloc[-len(proba):]] == pytest.approx(proba, abs=5e-4)
    bars = [t for t in figures(at)[0].data if t.type == "bar"]
    np.testing.assert_allclose(np.sum([values(b.y) for b in bars], axis=0), proba, atol=1e-12)
    assert any(r"\sum_{\ell} w_{\ell}" in m.value for m in at.latex)


def test_melon_own_values_and_an_unseen_state_from_another_dataset():
    at = start()
    at.segmented_control(key="pred_src").set_value("custom").run()
    at.number_input(key="pred_v0").set_value(7.0).run()
    at.selectbox(key="ds").set_value("melon").run()  # float values meet categorical widgets
    assert_clean(at)
    fit = fit_of("melon")
    root = fit.model.steps_[0]
    at.selectbox(key=f"pred_v{root.feature}").set_value(-1).run()  # (missing)
    assert_clean(at)
    x = {n: at.selectbox(key=f"pred_v{j}").value for j, n in
         enumerate(fit.model.feature_names_in_)}
    x = {n: None if v == -1 else fit.model.categories_[j][v]
         for j, (n, v) in enumerate(x.items())}
    r = explain_prediction(fit.model, x, k=step_of(at, "melon"))
    assert r.decisions[0].fractional
    assert path_nodes(dot(at)) == sorted(r.nodes)
    assert md(explanation(r, "en")) in markdown(at)


def test_regression_prediction():
    at = start("diabetes")
    fit = fit_of("diabetes")
    at.number_input(key="pred_row").set_value(5).run()
    assert_clean(at)
    value = fit.model.predict(fit.prep.X_test.iloc[[5]])[0]
    assert f"#### Prediction: {value:.4g}" in markdown(at)
    fig = figures(at)[0]
    assert values(fig.data[0].y)[0] == pytest.approx(value)


def test_importance_panel_numbers_and_formula():
    at = start("melon")
    fit = fit_of("melon")
    for step in (1, 4, fit.n_steps):
        at.slider(key="step_melon").set_value(step).run()
        assert_clean(at)
        imp = importances_at(fit.model, step)
        fig = figures(at)[1]
        names = list(fit.model.feature_names_in_)
        got = dict(zip(fig.data[0].y, values(fig.data[0].x)))
        assert got == pytest.approx({n: v for n, v in zip(names, imp)})
        if step == fit.n_steps:
            assert got == pytest.approx(dict(zip(names, fit.model.feature_importances_)))
        summary = at.table[-2].value  # per feature; the terms table is last
        assert [float(v) for v in summary.iloc[:, -1]] == pytest.approx(
            sorted(imp, reverse=True), abs=5e-5)
    chosen = at.selectbox(key="pred_impf")
    used = sorted(set(importance_terms(fit.model)["feature"]))
    assert chosen.value in used
    before = at.latex[-1].value
    other = next(f for f in used if f != chosen.value)
    chosen.set_value(other).run()
    assert_clean(at)
    assert at.latex[-1].value != before
    assert at.latex[-1].value.strip("$\n ").endswith(f"= {importances_at(fit.model)[other]:.4f}")


def test_chinese_interface():
    at = start("loan")
    at.segmented_control(key="lang").set_value("zh").run()
    at.number_input(key="pred_row").set_value(1).run()
    assert_clean(at)
    fit = fit_of("loan")
    r = explain_prediction(fit.model, fit.prep.X_test.iloc[1].to_dict(), k=step_of(at, "loan"))
    texts = markdown(at)
    assert md(explanation(r, "zh")) in texts
    assert any("逐个结点的判断" in t for t in texts)
    assert any("缺失值" in t for t in texts)
    assert f"#### 预测类别：{md(r.prediction)}" in texts
    assert figures(at)[0].layout.title.text == "类别分布"
    assert figures(at)[1].layout.title.text == "特征重要性"


def test_hostile_names_stay_escaped():
    at = start("hostile")
    assert_clean(at)
    at.segmented_control(key="pred_src").set_value("custom").run()
    assert_clean(at)
    raw = ["<b>bold</b>", "$x^2$", "[link](http://e.vil)", "<i>setosa</i>", "<script>"]
    for text in markdown(at) + [str(t.value) for t in at.table]:
        for r in raw:
            assert r not in text
    for fig in figures(at):
        blob = "\n".join(strings(fig.to_plotly_json()))
        for r in ("<b>bold</b>", "<i>setosa</i>", "<script>"):
            assert r not in blob
    labels = [w.label for w in at.number_input if w.key.startswith("pred_v")]
    assert md("<b>bold</b>") in labels
