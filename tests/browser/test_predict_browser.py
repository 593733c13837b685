"""The prediction and importance panels in a real browser, served from
tests/helpers/predict_app.py by a Streamlit process of their own: the sample's path
is drawn on the SVG tree (thick reddish-purple edges, C4.5 weights on the
edges), the panels draw their charts, picking values redraws the path, and
nothing raises.  Screenshots: tests/browser/artifacts/screens/predict_*.png.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

from tests.browser.conftest import (ARTIFACTS, choose_option, open_app, serve,
                                    wait_for_app, wait_for_drawn)

SCRIPT = Path(__file__).resolve().parents[1] / "helpers" / "predict_app.py"
SCREENS = ARTIFACTS / "screens"
NODES = '[data-testid="stGraphVizChart"] svg g.node'
EXCEPTION = '[data-testid="stException"]'
# edges on the path: Graphviz writes the colour into the SVG path's stroke
#: generous waits: the machine running the tests may be busy
SLOW_MS = 90_000
PATH_EDGES = '[data-testid="stGraphVizChart"] svg g.edge path[stroke="#cc79a7" i]'


@pytest.fixture(scope="module")
def predict_url():
    """Serve tests/helpers/predict_app.py (like conftest's app_url, on its own port)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    with serve(SCRIPT, "streamlit-predict.log") as base_url:
        yield base_url


def open_panel(page, url, height=2600):
    page.set_viewport_size({"width": 1600, "height": height})
    page.set_default_timeout(SLOW_MS)
    open_app(page, url, timeout=SLOW_MS)
    page.wait_for_selector(NODES, state="attached")
    page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', state="attached")
    assert page.locator(EXCEPTION).count() == 0


def shot(page, name):
    wait_for_drawn(page)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def edge_labels(page):
    return page.locator('[data-testid="stGraphVizChart"] svg g.edge text').all_text_contents()


def test_iris_path_and_distribution(page, predict_url):
    from tests.helpers.predict_app import build
    from dtree.views.prediction import explain_prediction

    open_panel(page, f"{predict_url}/?ds=iris&pred_row=7")
    fit = build("iris")
    r = explain_prediction(fit.model, fit.prep.X_test.iloc[7].to_dict())
    assert page.locator(NODES).count() == fit.model.tree_.node_count
    assert page.locator(PATH_EDGES).count() == len(r.nodes) - 1
    bars = page.locator('[data-testid="stPlotlyChart"]').first.locator("g.point")
    assert bars.count() == len(fit.model.classes_)
    assert page.get_by_text(f"Prediction: {r.prediction}").count() == 1
    shot(page, "predict_iris")


def test_c45_fractional_path_in_chinese(page, predict_url):
    from tests.helpers.predict_app import build
    from dtree.views.prediction import explain_prediction

    open_panel(page, f"{predict_url}/?ds=loan&pred_row=1&lang={quote('中文')}")
    fit = build("loan")
    r = explain_prediction(fit.model, fit.prep.X_test.iloc[1].to_dict())
    assert r.fractional
    labels = " ".join(edge_labels(page))
    for leaf in r.leaves:
        assert f"w = {leaf.weight:.3f}" in labels
    assert page.locator(PATH_EDGES).count() == len(r.nodes) - 1
    assert page.get_by_text("逐个结点的判断").count() == 1
    assert page.get_by_text("C4.5 的缺失值处理", exact=False).count() >= 1
    shot(page, "predict_loan_c45_zh")


def test_own_values_redraw_the_path_and_importances_draw(page, predict_url):
    from tests.helpers.predict_app import build
    from dtree.views.prediction import explain_prediction

    open_panel(page, f"{predict_url}/?ds=melon&pred_row=2")
    fit = build("melon")
    before = page.locator(PATH_EDGES).count()
    page.get_by_text("My own values", exact=True).click()
    page.wait_for_selector(".st-key-pred_v0", state="attached")
    wait_for_app(page, timeout=SLOW_MS)
    # make the root's feature missing: the sample now goes down every branch
    root = fit.model.steps_[0].feature
    choose_option(page, page.locator(f".st-key-pred_v{root} [role=combobox]"), "(missing)")
    page.wait_for_function(
        f"() => document.querySelectorAll('{PATH_EDGES}').length !== {before}")
    wait_for_app(page, timeout=SLOW_MS)
    x = fit.prep.X_test.iloc[2].to_dict()
    x[fit.model.feature_names_in_[root]] = None
    r = explain_prediction(fit.model, x)
    assert page.locator(PATH_EDGES).count() == len(r.nodes) - 1
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "predict_melon_own_values")

    page.get_by_role("tab", name="Importance").click()
    chart = page.locator('[data-testid="stPlotlyChart"]').nth(1)
    chart.locator("g.point").first.wait_for(state="attached")
    assert chart.locator("g.point").count() == fit.model.n_features_in_
    page.wait_for_selector('[data-testid="stMarkdownContainer"] .katex', state="attached")
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "predict_melon_importance")
