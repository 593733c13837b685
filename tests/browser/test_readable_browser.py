"""Every tree readable from the back row: in presenter mode at 1280x720 on
Wine, the Compare page's trees at the last step (two side by side, three,
and four in two rows) and the Prune page's cost-complexity trees (the full
tree alone with its pruned branches greyed, presenter mode's default, and
the pruned tree beside the full one) have text of at least 12 CSS px: the
median over each tree's lines of the DOT font size times the scale the
page draws the SVG at.  Screenshots go to tests/browser/artifacts/readable/."""

import pytest

from tests.browser.conftest import (ARTIFACTS, expect_rerun, open_app, wait_for_drawn,
                                    wait_for_rerun)

SHOTS = ARTIFACTS / "readable"
NODES = '[data-testid="stGraphVizChart"] svg g.node'
EXCEPTION = '[data-testid="stException"]'
SLOW_MS = 120_000  # a cold server on a busy machine
READABLE_PX = 12

#: Each drawn tree: its nodes, the median on-screen size of its node text
#: (font-size attribute times rendered width over viewBox width), and where
#: it is.
MEDIANS = """() => {
  const out = [];
  for (const svg of document.querySelectorAll('[data-testid="stGraphVizChart"] svg')) {
    const r = svg.getBoundingClientRect();
    if (r.width === 0) continue;
    const scale = r.width / svg.viewBox.baseVal.width;
    const px = [...svg.querySelectorAll('g.node text')]
      .map((t) => parseFloat(t.getAttribute('font-size')) * scale).sort((a, b) => a - b);
    const mid = px.length >> 1;
    out.push({nodes: svg.querySelectorAll('g.node').length, lines: px.length,
              median: px.length % 2 ? px[mid] : (px[mid - 1] + px[mid]) / 2,
              top: r.top, bottom: r.bottom, left: r.left, right: r.right});
  }
  return out;
}"""


@pytest.fixture(scope="module", autouse=True)
def shots_folder(browser, app_url):
    SHOTS.mkdir(parents=True, exist_ok=True)
    # The first page opened after the server starts is run by Streamlit as a
    # legacy page and sent to the home page (pages.state.session.require_frame):
    # open the home page once first.
    context = browser.new_context()
    open_app(context.new_page(), app_url, timeout=SLOW_MS)
    context.close()


@pytest.fixture
def window(browser):
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.set_default_timeout(SLOW_MS)
    try:
        yield page
    finally:
        page.context.close()


def opened(page, url):
    open_app(page, url, timeout=SLOW_MS)
    page.wait_for_selector(NODES, state="attached")
    wait_for_drawn(page, timeout=SLOW_MS)


def to_the_last_step(page):
    """The End key, as a presenter steps (the page has the focus, no input)."""
    expect_rerun(page)
    page.mouse.click(3, 3)
    page.keyboard.press("End")
    wait_for_rerun(page, timeout=SLOW_MS)
    page.wait_for_function("""() => document.querySelector('.st-key-cmp_next button').disabled
        && document.querySelector('.st-key-cmp_last button').disabled""")
    # the step's trees replaced the first step's lone roots (every Wine tree
    # at its last step draws its root split at least)
    page.wait_for_function("""() => [...document.querySelectorAll(
        '[data-testid="stGraphVizChart"] svg')].every(
        (svg) => svg.querySelectorAll('g.node').length >= 3)""")
    wait_for_drawn(page, timeout=SLOW_MS)


def assert_readable(trees, name, count):
    assert len(trees) == count, (name, trees)
    for tree in trees:
        assert tree["lines"] > 0, (name, tree)
        assert tree["median"] >= READABLE_PX, (name, tree)
        # inside the window, above the bottom strip's controls
        assert tree["top"] >= 0 and tree["bottom"] <= 720, (name, tree)
        assert tree["left"] >= 0 and tree["right"] <= 1280, (name, tree)


@pytest.mark.parametrize("n, lang", [(2, "en"), (2, "zh"), (3, "en"), (4, "en")])
def test_the_compared_trees_are_readable_at_the_last_step(window, app_url, n, lang):
    opened(window, f"{app_url}/compare?data=wine&cmp_n={n}&present=true&lang={lang}")
    to_the_last_step(window)
    trees = window.evaluate(MEDIANS)
    window.screenshot(path=str(SHOTS / f"compare-{n}-{lang}.png"))
    assert_readable(trees, f"compare {n} {lang}", n)
    # where the trees part stays drawn and outlined in every tree (Wine: the root)
    outlined = window.locator(f'{NODES} polygon[stroke="#cc79a7"], '
                              f'{NODES} polygon[stroke="#CC79A7"]')
    assert outlined.count() == n
    assert window.locator(EXCEPTION).count() == 0


@pytest.mark.parametrize("drawing, lang, count", [("", "en", 1), ("", "zh", 1),
                                                  ("&prune_trees=two", "en", 2)])
def test_the_pruning_trees_are_readable(window, app_url, drawing, lang, count):
    """The cost-complexity view at its first α, the 1-SE rule's."""
    opened(window, f"{app_url}/prune?data=wine&present=true&lang={lang}{drawing}")
    trees = window.evaluate(MEDIANS)
    window.screenshot(path=str(SHOTS / f"prune{drawing.replace('&prune_trees=', '-')}"
                                       f"-{lang}.png"))
    assert_readable(trees, f"prune {drawing} {lang}", count)
    # the full tree is drawn with the removed nodes greyed
    assert window.locator(f'{NODES} polygon[fill="#eeeeee"], '
                          f'{NODES} polygon[fill="#EEEEEE"]').count() > 0
    assert window.locator(EXCEPTION).count() == 0


def drawn_trees(page, count):
    """Wait until ``count`` trees are drawn (each with its boxes)."""
    page.wait_for_function(f"""() => [...document.querySelectorAll(
        '[data-testid="stGraphVizChart"] svg')].filter(
        (svg) => svg.querySelector('g.node')).length === {count}""")
    wait_for_drawn(page, timeout=SLOW_MS)


def test_the_switch_draws_one_tree_or_two(window, app_url):
    """G, or its button, switches the cost-complexity view between the full
    tree alone and the two trees side by side; the link says which."""
    opened(window, f"{app_url}/prune?data=wine&present=true")
    assert len(window.evaluate(MEDIANS)) == 1
    expect_rerun(window)
    window.locator(".st-key-prune_trees_switch button").first.click()
    wait_for_rerun(window, timeout=SLOW_MS)
    window.wait_for_function("() => /[?&]prune_trees=two\\b/.test(location.search)")
    drawn_trees(window, 2)
    assert_readable(window.evaluate(MEDIANS), "prune two, switched", 2)
    expect_rerun(window)
    window.mouse.click(3, 3)
    window.keyboard.press("g")
    wait_for_rerun(window, timeout=SLOW_MS)
    window.wait_for_function("() => /[?&]prune_trees=one\\b/.test(location.search)")
    drawn_trees(window, 1)
    assert window.locator(EXCEPTION).count() == 0
