"""The Prune page in a real browser: the charts and trees are drawn, the URL
reopens a view (alpha, step), Next redraws the tree, and the page works in
Chinese.  Screenshots go to tests/browser/artifacts/screens/prune-*.png."""

import re
from urllib.parse import urlencode

import pytest

from tests.browser.conftest import ARTIFACTS, open_app, wait_for_app, wait_for_drawn

SCREENS = ARTIFACTS / "screens"
GRAPH = '[data-testid="stGraphVizChart"]'
NODES = f"{GRAPH} svg g.node"
PLOTS = '[data-testid="stPlotlyChart"]'
EXCEPTION = '[data-testid="stException"]'


#: The machine running these may be shared: be patient.
SLOW_MS = 120_000


@pytest.fixture(scope="module", autouse=True)
def screens_folder(browser, app_url):
    SCREENS.mkdir(parents=True, exist_ok=True)
    # The first page opened after the server starts is run by Streamlit as a
    # legacy page and sent to the home page (pages.state.session.require_frame):
    # open the home page once first.
    context = browser.new_context()
    warm = context.new_page()
    open_app(warm, app_url, timeout=SLOW_MS)
    context.close()


def url(app_url, **params):
    """The Prune page's address with these query parameters (a segmented
    control's parameter is its label, as the user sees it)."""
    return f"{app_url}/prune" + (f"?{urlencode(params)}" if params else "")


def go(page, url):
    page.set_default_timeout(SLOW_MS)
    open_app(page, url, timeout=SLOW_MS)
    wait_for_app(page, timeout=SLOW_MS)


def shot(page, name):
    wait_for_drawn(page)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def tall(page, height=3000):
    page.set_viewport_size({"width": 1600, "height": height})


def trees(page):
    """Number of drawn nodes in each Graphviz chart."""
    return page.eval_on_selector_all(
        GRAPH, "els => els.map(e => e.querySelectorAll('svg g.node').length)")


def test_cost_complexity_view(page, app_url):
    tall(page, 3400)
    go(page, url(app_url))
    page.wait_for_selector(NODES, state="attached")
    page.wait_for_function(f"() => document.querySelectorAll('{PLOTS} .main-svg').length >= 3")
    assert page.locator(EXCEPTION).count() == 0
    pruned, full = trees(page)
    assert 1 <= pruned < full
    # the error chart: train, CV and test curves, the 1-SE line, the 1-SE
    # star, the minimum and the invisible trace that carries the leaves axis
    error_chart = page.locator(PLOTS).nth(2)
    assert error_chart.locator(".scatterlayer .trace").count() == 7
    assert error_chart.locator(".errorbar").count() >= 2
    shot(page, "prune-ccp")


def test_alpha_from_the_url(page, app_url):
    tall(page)
    go(page, url(app_url, prune_alpha="0"))
    page.wait_for_selector(NODES, state="attached")
    pruned, full = trees(page)
    assert pruned == full  # alpha 0: nothing pruned
    page.locator(".st-key-prune_use_1se button").click()
    page.wait_for_function(
        f"() => document.querySelectorAll('{GRAPH}')[0].querySelectorAll('svg g.node')"
        f".length < {full}")
    wait_for_app(page, timeout=SLOW_MS)
    assert "prune_alpha" not in page.url  # the 1-SE choice is the default value
    assert page.locator(EXCEPTION).count() == 0


def test_steps_from_the_url_and_next(page, app_url):
    tall(page, 2200)
    go(page, url(app_url, prune_view="steps", prune_step=1))
    page.wait_for_selector(NODES, state="attached")
    before = trees(page)[0]
    page.wait_for_selector('[data-testid="stMarkdownContainer"] .katex')
    assert page.get_by_text(re.compile(r"Step 1 of \d+")).count() == 1
    shot(page, "prune-steps")
    page.locator(".st-key-prune_next button").click()
    page.wait_for_function(f"() => document.querySelectorAll('{NODES}').length < {before}")
    wait_for_app(page, timeout=SLOW_MS)
    assert re.search(r"[?&]prune_step=2\b", page.url)
    assert page.locator(EXCEPTION).count() == 0


def test_rep_and_pep(page, app_url):
    tall(page, 2600)
    go(page, url(app_url, prune_view="rep_pep"))
    page.wait_for_function(f"() => document.querySelectorAll('{GRAPH}').length === 2")
    page.wait_for_selector(NODES, state="attached")
    assert page.locator(EXCEPTION).count() == 0
    assert all(n >= 1 for n in trees(page))
    shot(page, "prune-rep-pep")


def test_chinese(page, app_url):
    tall(page, 3400)
    go(page, url(app_url, lang="中文"))
    page.wait_for_selector(NODES, state="attached")
    page.wait_for_function(f"() => document.querySelectorAll('{PLOTS} .main-svg').length >= 3")
    assert page.get_by_text("代价复杂度剪枝（CART）").count() == 1
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "prune-ccp-zh")
