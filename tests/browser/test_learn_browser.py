"""The Learn page in a real browser: every topic opens without an exception,
its chart, formulas or trees are drawn, and the calculator reacts to typing.
Screenshots go to tests/browser/artifacts/screens/learn-*.png."""

import pytest

from tests.browser.conftest import (ARTIFACTS, choose_option, open_app, wait_for_app,
                                    wait_for_drawn)

SCREENS = ARTIFACTS / "screens"
EXCEPTION = '[data-testid="stException"]'
PLOT = '[data-testid="stPlotlyChart"]'
NODES = '[data-testid="stGraphVizChart"] svg g.node'
LATEX = ".katex"


@pytest.fixture(scope="module", autouse=True)
def screens_folder(browser, app_url):
    SCREENS.mkdir(parents=True, exist_ok=True)
    # The very first run after the server starts goes through the frame to the
    # home page (see pages.state.session.require_frame); open the app once so that
    # the tests' URLs open their page directly.
    context = browser.new_context()
    open_app(context.new_page(), app_url)
    context.close()


def shot(page, name, height=2600):
    page.set_viewport_size({"width": 1600, "height": height})
    wait_for_drawn(page)
    page.screenshot(path=str(SCREENS / f"learn-{name}.png"), full_page=True)


def open_part(page, app_url, part, extra=""):
    open_app(page, f"{app_url}/learn?learn_part={part}{extra}")
    wait_for_app(page)
    assert page.locator(EXCEPTION).count() == 0


def test_calculator_draws_the_curves_and_reacts(page, app_url):
    open_part(page, app_url, "impurity")
    page.wait_for_selector(f"{PLOT} .main-svg", state="attached")
    page.wait_for_selector(LATEX, state="attached")
    metrics = page.locator('[data-testid="stMetricValue"]')
    assert "0.971" in metrics.all_inner_texts()
    box = page.locator(".st-key-learn_counts input")
    box.fill("5, 1")
    box.press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"stMetricValue\"]')]"
        ".some(e => e.innerText.trim() === '0.650')")
    wait_for_app(page)
    assert page.locator(EXCEPTION).count() == 0
    box.fill("9, 6")
    box.press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"stMetricValue\"]')]"
        ".some(e => e.innerText.trim() === '0.971')")
    wait_for_app(page)
    shot(page, "calculator", 2000)


@pytest.mark.parametrize("part", ["gain", "cats", "ratio", "scaling"])
def test_topics_open_cleanly(page, app_url, part):
    open_part(page, app_url, part)
    page.wait_for_selector(LATEX, state="attached")
    if part == "ratio":
        page.wait_for_selector(f"{PLOT} .main-svg", state="attached")
    if part == "gain":
        assert page.get_by_text("0.420", exact=False).count() > 0
    shot(page, part, 4200 if part == "gain" else 2600)


def test_growth_orders_with_a_budget_draws_two_trees(page, app_url):
    open_part(page, app_url, "orders")
    page.wait_for_selector(NODES, state="attached")
    shot(page, "orders", 2200)
    # Wine: depth-first and breadth-first part ways under a budget of 5 leaves
    open_app(page, f"{app_url}/data")
    choose_option(page, page.locator(".st-key-builtin"), "Wine")
    wait_for_app(page)
    page.locator('[data-testid="stSidebarNav"]').get_by_text("Learn").click()
    page.wait_for_selector(".st-key-learn_part")
    page.locator(".st-key-learn_part").get_by_text("Growth order", exact=True).click()
    page.wait_for_selector(".st-key-ord_budget input")
    wait_for_app(page)
    box = page.locator(".st-key-ord_budget input")
    box.fill("5")
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"stGraphVizChart\"]').length === 2")
    wait_for_app(page)
    assert page.locator(EXCEPTION).count() == 0
    # one outlined node in each tree (depth-first: #5, breadth-first: #10)
    outlined = page.locator('[data-testid="stGraphVizChart"] svg g.node polygon[stroke="#cc79a7"], '
                            '[data-testid="stGraphVizChart"] svg g.node polygon[stroke="#CC79A7"]')
    assert outlined.count() == 2
    assert "#5" in page.locator('[data-testid="stAlert"]').first.inner_text()
    shot(page, "orders-budget", 2200)


def test_chinese_interface(page, app_url):
    open_part(page, app_url, "gain")
    page.locator(".st-key-lang_pick").get_by_text("中文").click()
    page.wait_for_selector("text=经验条件熵", state="attached")
    wait_for_app(page)
    assert page.locator(EXCEPTION).count() == 0
    page.wait_for_selector(LATEX, state="attached")
    assert page.get_by_text("信息增益", exact=False).count() > 0
    shot(page, "gain-zh", 2000)


def test_greedy_vs_lookahead_draws_both_trees(page, app_url):
    """The XOR table: greedy CART's tree (5 nodes) and the lookahead tree
    (7 nodes, every leaf pure) side by side, with both accuracies."""
    open_part(page, app_url, "lookahead", "&look_data=xor")
    trees = page.locator(".st-key-look_trees")
    page.wait_for_function(
        "() => document.querySelectorAll("
        "'.st-key-look_trees [data-testid=\"stGraphVizChart\"] svg g.node').length === 12")
    svgs = trees.locator('[data-testid="stGraphVizChart"] svg')
    assert svgs.count() == 2
    assert svgs.nth(0).locator("g.node").count() == 5
    assert svgs.nth(1).locator("g.node").count() == 7
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "9 of 16 rows right (56.2%)" in text and "16 of 16 rows right (100.0%)" in text
    shot(page, "lookahead", 1800)
