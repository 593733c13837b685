"""The Compare page in a real browser: the default trees side by side (on Iris
two that part at step 3), the lockstep step control redraws them all, the
charts draw.  Screenshots go to
tests/browser/artifacts/screens/compare*.png."""

import pytest

from tests.browser.conftest import (ARTIFACTS, choose_option, expect_rerun, open_app,
                                    wait_for_app, wait_for_drawn, wait_for_rerun)

SCREENS = ARTIFACTS / "screens"
CHARTS = '[data-testid="stGraphVizChart"]'
NODES = '[data-testid="stGraphVizChart"] svg g.node'
EXCEPTION = '[data-testid="stException"]'


@pytest.fixture(scope="module", autouse=True)
def screens_folder():
    SCREENS.mkdir(parents=True, exist_ok=True)


def shot(page, name):
    wait_for_drawn(page)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def open_at(page, app_url, path):
    """Open a page of the app.  The first run after the server starts goes
    through the frame to the home page (pages.state.session.require_frame), so open
    the home page first; a link opened after that keeps its view."""
    open_app(page, app_url, timeout=60_000)  # (the machine may be busy)
    open_app(page, app_url + path, timeout=60_000)


def nodes_per_chart(page):
    return page.evaluate(f"""() => Array.from(document.querySelectorAll('{CHARTS}'))
        .map(c => c.querySelectorAll('svg g.node').length)""")


def test_compare_page_draws_the_default_trees_in_lockstep(page, app_url):
    page.set_viewport_size({"width": 1600, "height": 2600})
    open_at(page, app_url, "/compare?cmp_step=2")
    page.wait_for_selector(NODES, state="attached")
    page.wait_for_function(f"() => document.querySelectorAll('{CHARTS}').length === 2")
    assert page.locator(EXCEPTION).count() == 0
    before = nodes_per_chart(page)
    assert before == [5, 5], before  # 2 splits: 5 nodes
    page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', state="attached")
    shot(page, "compare")
    page.locator(".st-key-cmp_next button").click()
    page.wait_for_function(f"""() => Array.from(document.querySelectorAll('{CHARTS}'))
        .every(c => c.querySelectorAll('svg g.node').length === 7)""")
    wait_for_app(page)
    assert "cmp_step=3" in page.url
    assert page.locator(EXCEPTION).count() == 0
    # a column's criterion, from its popover: that tree changes, and the URL
    page.locator(".st-key-cmp_pop1 button").first.click()
    select = page.locator(".st-key-cmp_c1")
    select.wait_for(state="visible")
    choose_option(page, select, "Taylor, second order")
    page.wait_for_function(f"""() => document.querySelector('{CHARTS}')
        .textContent.includes('taylor2 = ')""")
    wait_for_app(page)
    assert "cmp_c1=taylor2" in page.url
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "compare-popover")
    page.keyboard.press("Escape")
    shot(page, "compare-taylor2")


def test_compare_page_on_wine_shows_where_the_trees_part(page, app_url):
    page.set_viewport_size({"width": 1600, "height": 2600})
    open_at(page, app_url, "/data")
    choose_option(page, page.locator(".st-key-builtin"), "Wine")
    page.wait_for_function("() => location.search.includes('data=wine')")  # in use
    wait_for_app(page)
    page.get_by_role("link", name="Compare").first.click()
    page.wait_for_function(f"() => document.querySelectorAll('{CHARTS}').length === 2")
    wait_for_app(page)
    expect_rerun(page)
    page.locator(".st-key-cmp_goto button").click()
    wait_for_rerun(page)
    assert page.locator(EXCEPTION).count() == 0
    # the node where the trees part has the reddish-purple border in every tree
    outlined = page.locator(f'{CHARTS} svg g.node polygon[stroke="#cc79a7"], '
                            f'{CHARTS} svg g.node polygon[stroke="#CC79A7"]')
    assert outlined.count() == 2
    shot(page, "compare-wine")
    page.locator(".st-key-cmp_chart button").nth(1).click()  # agreement
    page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', state="attached")
    wait_for_app(page)
    shot(page, "compare-wine-agreement")
    expect_rerun(page)
    page.locator(".st-key-cmp_chart button").nth(2).click()  # impurity functions
    wait_for_rerun(page)
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "compare-wine-impurity")
    page.get_by_text("中文").first.click()
    page.wait_for_function("() => document.body.innerText.includes('比较决策树')")
    wait_for_app(page)
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "compare-wine-zh")
