"""The app loads in a real browser, runs without an exception and draws a tree."""

from tests.browser.conftest import ARTIFACTS

NODE = '[data-testid="stGraphVizChart"] svg g.node'


def test_app_loads_and_draws_a_tree(app_page):
    page = app_page
    # The graphviz chart is drawn in the browser (wasm) after the run ends.
    page.wait_for_selector(NODE, state="attached")

    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.locator(NODE).count() >= 1

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "smoke.png"), full_page=True)
