"""The Compare page's resamples view in a real browser: a link opens it, the
trees step together, changing the draw regrows them and writes the settings
into the address, and the charts draw.  Screenshots go to
tests/browser/artifacts/screens/resamples*.png."""

from tests.browser.conftest import (ARTIFACTS, expect_rerun, open_app, wait_for_app,
                                    wait_for_drawn, wait_for_rerun)

SCREENS = ARTIFACTS / "screens"
CHARTS = '[data-testid="stGraphVizChart"]'
EXCEPTION = '[data-testid="stException"]'


def nodes_per_chart(page):
    return page.evaluate(f"""() => Array.from(document.querySelectorAll('{CHARTS}'))
        .map(c => c.querySelectorAll('svg g.node').length)""")


def test_resamples_step_together_and_the_draw_goes_into_the_link(page, app_url):
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1600, "height": 2400})
    open_app(page, app_url, timeout=60_000)  # (the frame's first run: see test_compare)
    open_app(page, app_url + "/compare?data=iris&cmp_mode=resamples&cmp_resamples=6",
             timeout=60_000)
    page.wait_for_function(f"() => document.querySelectorAll('{CHARTS}').length === 2")
    wait_for_drawn(page)
    assert page.locator(EXCEPTION).count() == 0
    assert nodes_per_chart(page) == [1, 1]  # step 0: each tree is its root
    expect_rerun(page)
    page.locator(".st-key-cmp_next button").click()
    wait_for_rerun(page)
    wait_for_drawn(page)
    assert nodes_per_chart(page) == [3, 3]  # one split each, in lockstep
    assert "cmp_step=1" in page.url
    # drop a share instead of bootstrapping: the trees are grown again, and
    # the draw is in the address (written by the app after the run)
    expect_rerun(page)
    page.locator(".st-key-cmp_method").get_by_text("drop a share").click()
    wait_for_rerun(page)
    page.wait_for_function("() => location.search.includes('cmp_method=drop')")
    assert "cmp_resamples=6" in page.url and "cmp_mode=resamples" in page.url
    assert page.get_by_text("each without 20% of them").count() == 1
    page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', state="attached")
    wait_for_app(page)
    bars = page.locator('[data-testid="stPlotlyChart"] g.point').count()
    assert bars >= 1
    page.screenshot(path=str(SCREENS / "resamples.png"), full_page=True)
    expect_rerun(page)
    page.locator(".st-key-cmp_rchart").get_by_text("Held-out scores").click()
    wait_for_rerun(page)
    page.wait_for_function("() => location.search.includes('cmp_rchart=scores')")
    assert page.get_by_text("accuracy on the test rows: from").count() == 1
    assert page.locator(EXCEPTION).count() == 0
    wait_for_drawn(page)
    page.screenshot(path=str(SCREENS / "resamples-scores.png"), full_page=True)
