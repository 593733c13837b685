"""Links for slides in a real browser: a link with an unknown dataset key and
a value that does not parse opens the page with one warning naming them, which
stays after the Grow page's own second run; a Compare link in Chinese opens
the trees where they part; the app writes the short key into the URL."""

from tests.browser.conftest import open_app, wait_for_app

CHARTS = '[data-testid="stGraphVizChart"]'
NODES = '[data-testid="stGraphVizChart"] svg g.node'
EXCEPTION = '[data-testid="stException"]'
WARNING = '[data-testid="stAlertContentWarning"]'


def test_an_unknown_key_is_named_on_the_page(page, app_url):
    open_app(page, app_url + "/?data=nope&max_depth=abc", timeout=60_000)
    page.wait_for_selector(NODES, state="attached")
    # the Grow page draws the tree alone, then reruns for the rest: the
    # warning is still there after that run
    page.wait_for_selector(".st-key-step", state="attached")
    wait_for_app(page)
    warning = page.locator(WARNING)
    assert warning.count() == 1
    text = warning.inner_text()
    assert "“nope”" in text and "watermelon2a" in text and "max_depth" in text
    assert "data=iris" in page.url  # the dataset shown, by its key
    assert page.locator(EXCEPTION).count() == 0


def test_a_compare_link_in_chinese(page, app_url):
    page.set_viewport_size({"width": 1600, "height": 2400})
    open_app(page, app_url, timeout=60_000)  # (see test_compare_browser.open_at)
    open_app(page, app_url + "/compare?data=wine&cmp_step=1&lang=zh", timeout=60_000)
    page.wait_for_function(f"() => document.querySelectorAll('{CHARTS}').length === 2")
    wait_for_app(page)
    assert "比较决策树" in page.locator("h1").first.inner_text()
    outlined = page.locator(f'{CHARTS} svg g.node polygon[stroke="#cc79a7"], '
                            f'{CHARTS} svg g.node polygon[stroke="#CC79A7"]')
    assert outlined.count() == 2  # where the trees part, in both
    assert page.locator(WARNING).count() == 0
    assert "data=wine" in page.url
    assert page.locator(EXCEPTION).count() == 0
