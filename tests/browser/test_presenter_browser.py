"""The lecture room in a real browser: a link opened first after the server
starts keeps presenter mode and the language, the first click or key press
after a load always counts, the keys step Compare and Prune, and in presenter
mode the whole tree and the step controls are inside a 1280x720 (and a
1920x1080) window with readable text.  Screenshots go to
tests/browser/artifacts/presenter/."""

import re

import pytest

from tests.browser.conftest import (APP_PATH, ARTIFACTS, open_app, serve, wait_for_app,
                                    wait_for_drawn)

SHOTS = ARTIFACTS / "presenter"
NODES = '[data-testid="stGraphVizChart"] svg g.node'
EXCEPTION = '[data-testid="stException"]'
SLOW_MS = 120_000  # a cold server on a busy machine

#: Where every drawn tree and the step bar are, and the tree text's size in
#: CSS px (the DOT font size times the scale the page draws the SVG at).
MEASURE = """() => {
  const trees = [];
  for (const svg of document.querySelectorAll('[data-testid="stGraphVizChart"] svg')) {
    const r = svg.getBoundingClientRect();
    const text = svg.querySelector('g.node text');
    const px = text ? parseFloat(text.getAttribute('font-size')) * r.width
                      / svg.viewBox.baseVal.width : null;
    trees.push({top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                nodes: svg.querySelectorAll('g.node').length, text_px: px});
  }
  const bars = [...document.querySelectorAll('[class*="st-key-stepbar"]')].map(b => {
    const r = b.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  });
  return {trees, bars, width: innerWidth, height: innerHeight};
}"""


@pytest.fixture(scope="module", autouse=True)
def shots_folder():
    SHOTS.mkdir(parents=True, exist_ok=True)


def settle(page):
    page.wait_for_selector(NODES, state="attached")
    wait_for_app(page)


def query(page, name):
    match = re.search(rf"[?&]{name}=([^&]*)", page.url)
    return match.group(1) if match else None


# -- a link on a slide works the first time ---------------------------------------------

#: Each page a link may name, a query value of that page's own, and what the
#: page draws when it opened with that value (a JavaScript predicate).
FIRST_LINKS = {
    # the Grow page at step 1: its step bar, and the root with its two children
    "/": ("step=1", f"""document.querySelector('.st-key-stepbar')
          && document.querySelectorAll('{NODES}').length === 3"""),
    # the Data page on Wine: its title, and Wine's 178 rows
    "/data": ("data=wine", """[...document.querySelectorAll('h1')].some(h =>
          h.innerText.trim() === '数据') && document.body.innerText.includes('178')"""),
    # the Compare page at step 1: its step bar, with "previous" enabled
    "/compare": ("cmp_step=1", """document.querySelector('.st-key-stepbar_cmp')
          && document.querySelector('.st-key-cmp_prev button')
          && !document.querySelector('.st-key-cmp_prev button').disabled"""),
    # the Prune page with the full tree and the pruned one side by side
    "/prune": ("prune_trees=two", f"""document.querySelector('.st-key-tree_box_prune_a {NODES}')
          && document.querySelector('.st-key-tree_box_prune_b {NODES}')"""),
    # the Learn page's cat example and its table
    "/learn": ("learn_part=cats", """document.querySelector('.st-key-learn_cat_table')
          && document.body.innerText.includes('原理：分裂背后的数字')"""),
    # the Join page, told of a room code that names no room
    "/join": ("room=NOROOM", """[...document.querySelectorAll('h1')].some(h =>
          h.innerText.trim() === '加入课堂')
          && document.body.innerText.includes('没有这个代码的课堂，可能已经结束。')"""),
}


@pytest.mark.parametrize("path", list(FIRST_LINKS))
def test_a_link_opened_first_after_the_server_starts_opens_its_page_with_its_query(
        browser, path):
    """The first run of a fresh server goes through Streamlit's legacy pages/
    handling (pages/state/session.py's require_frame); the link must still
    open the page it names, with its whole query string: presenter mode, the
    language and the page's own value."""
    own, opened = FIRST_LINKS[path]
    with serve(APP_PATH, f"cold{path.replace('/', '-') or '-grow'}.log") as url:
        page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        try:
            open_app(page, f"{url}{path}?present=true&lang=zh&{own}", timeout=SLOW_MS)
            # the app's signal that presenter mode is on: the frame's CSS hides the
            # sidebar, and the toggle (in Chinese) is on
            page.wait_for_function("""() => {
              const t = document.querySelector('.st-key-present input');
              return t && t.checked && document.body.innerText.includes('演示模式');
            }""", timeout=SLOW_MS)
            page.wait_for_function(f"() => Boolean({opened})", timeout=SLOW_MS)
            wait_for_app(page)
            assert not page.locator('[data-testid="stSidebar"]').is_visible()
            assert query(page, "present") == "true", page.url
            assert query(page, "lang") == "zh", page.url
            name, value = own.split("=")
            assert query(page, name) == value, page.url
            assert page.evaluate(f"() => Boolean({opened})")  # (still, after the run)
            assert page.locator(EXCEPTION).count() == 0
        finally:
            page.context.close()


# -- the first click or key press counts --------------------------------------------------

@pytest.mark.parametrize("how", ["click", "key", "click", "key"])
def test_the_first_click_or_key_press_after_a_load_counts(page, app_url, how):
    """Act as soon as the first tree is on screen, without waiting for the
    run to finish: the step must move."""
    page.goto(app_url + "/?data=wine&max_depth=3", wait_until="domcontentloaded")
    page.wait_for_selector(NODES, state="attached")
    page.locator(".st-key-next button").wait_for()
    if how == "click":
        page.locator(".st-key-next button").click()
    else:
        page.locator('[data-testid="stGraphVizChart"]').first.click()  # focus the page
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => /[?&]step=1\\b/.test(location.search)")
    page.wait_for_function(f"() => document.querySelectorAll('{NODES}').length === 3")
    wait_for_app(page)
    assert page.locator(EXCEPTION).count() == 0


# -- the keys on every stepping page, and the ends ----------------------------------------

def press(page, key):
    page.mouse.click(3, 3)  # (the page has the focus, no input has)
    page.keyboard.press(key)


def test_the_keys_step_compare_and_prune(page, app_url):
    open_app(page, app_url + "/compare?data=wine&present=true")
    settle(page)
    assert page.locator(".st-key-cmp_prev button").first.is_disabled()
    press(page, "ArrowRight")
    page.wait_for_function("() => /[?&]cmp_step=1\\b/.test(location.search)")
    wait_for_app(page)
    press(page, "End")
    page.wait_for_function("""() => document.querySelector('.st-key-cmp_next button').disabled
        && document.querySelector('.st-key-cmp_last button').disabled""")
    wait_for_app(page)
    press(page, "Home")
    page.wait_for_function("() => document.querySelector('.st-key-cmp_prev button').disabled")

    open_app(page, app_url + "/prune?data=wine&present=true&prune_view=steps")
    settle(page)
    assert page.locator(".st-key-prune_prev button").first.is_disabled()
    press(page, "ArrowRight")
    page.wait_for_function("() => /[?&]prune_step=1\\b/.test(location.search)")
    wait_for_app(page)
    press(page, "End")
    page.wait_for_function(
        "() => document.querySelector('.st-key-prune_next button').disabled")
    # the legend of the keys is on screen in presenter mode
    assert page.locator('[class*="st-key-keys_legend"]').is_visible()
    assert page.locator(EXCEPTION).count() == 0


def test_next_is_disabled_at_the_last_step_and_previous_at_the_first(page, app_url):
    open_app(page, app_url + "/?data=loan&preset=ID3&step=99")
    settle(page)
    assert page.locator(".st-key-next button").first.is_disabled()
    assert page.locator(".st-key-grow_all button").first.is_disabled()
    assert not page.locator(".st-key-prev button").first.is_disabled()
    page.locator(".st-key-reset button").click()
    # the app's signal: this run drew both buttons again (in order, so wait for both)
    page.wait_for_function("""() => document.querySelector('.st-key-prev button').disabled
        && !document.querySelector('.st-key-next button').disabled""")
    wait_for_app(page)
    assert query(page, "step") in (None, "0"), page.url  # (a default leaves the URL)
    assert page.locator(NODES).count() == 1


# -- the whole tree on the projector ------------------------------------------------------

GROW_VIEWS = [  # (name, link); Loan under ID3 and Wine under CART at depth 4
    ("grow-loan-first", "/?data=loan&preset=ID3&step=0"),
    ("grow-loan-middle", "/?data=loan&preset=ID3&step=1"),
    ("grow-loan-last", "/?data=loan&preset=ID3&step=99"),
    ("grow-wine-first", "/?data=wine&preset=CART&max_depth=4&step=0"),
    ("grow-wine-middle", "/?data=wine&preset=CART&max_depth=4&step=3"),
    ("grow-wine-last", "/?data=wine&preset=CART&max_depth=4&step=99"),
]
OTHER_VIEWS = [
    ("compare-default", "/compare?cmp_step=3"),
    ("prune-default", "/prune?data=wine"),
    ("prune-steps", "/prune?data=wine&prune_view=steps&prune_step=2"),
    ("prune-ebp", "/prune?data=wine&prune_view=ebp"),
]


def assert_in_window(measured, name):
    width, height = measured["width"], measured["height"]
    assert measured["trees"], name
    for tree in measured["trees"]:
        assert tree["top"] >= 0 and tree["bottom"] <= height + 0.5, (name, tree)
        assert tree["left"] >= 0 and tree["right"] <= width + 0.5, (name, tree)
    assert measured["bars"], name
    for bar in measured["bars"]:
        assert bar["top"] >= 0 and bar["bottom"] <= height, (name, bar)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_presenter_mode_fits_the_tree_and_the_controls_in_the_window(page, app_url, size,
                                                                     lang):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    for name, link in GROW_VIEWS + OTHER_VIEWS:
        open_app(page, f"{app_url}{link}&present=true&lang={lang}")
        settle(page)
        measured = page.evaluate(MEASURE)
        assert_in_window(measured, name)
        if name.startswith("grow"):
            (tree,) = measured["trees"]
            # readable from the back: trees of up to 15 nodes at 14 px or more
            if tree["nodes"] <= 15:
                assert tree["text_px"] >= 14, (name, tree)
            # in the middle of the screen, the first step's lone root too (the
            # page's side paddings are equal; a scroll bar may take a few px)
            middle = (tree["left"] + tree["right"]) / 2
            assert abs(middle - width / 2) <= 12, (name, middle, tree)
        assert page.locator(EXCEPTION).count() == 0
        page.screenshot(path=str(SHOTS / f"{name}-{lang}-{width}x{height}.png"))


# -- the floating controls and the formulas ------------------------------------------------

#: Scroll the page to its end; then the bottom of its last block, and the top
#: and background of the presenter switch and the keys legend, which float over
#: the window's bottom corners.
AT_THE_END = """() => {
  const inner = document.querySelector('[data-testid="stMainBlockContainer"]');
  let scroller = inner;
  while (scroller && !(scroller.scrollHeight > scroller.clientHeight + 1
                       && getComputedStyle(scroller).overflowY !== 'visible')) {
    scroller = scroller.parentElement;
  }
  scroller = scroller || document.scrollingElement;
  scroller.scrollTop = scroller.scrollHeight;
  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
    const floating = [...document.querySelectorAll(
      '.st-key-presenter_switch, [class*="st-key-keys_legend"]')];
    let bottom = 0;
    for (const block of inner.querySelectorAll(':scope > [data-testid="stVerticalBlock"] > *')) {
      if (floating.some((f) => f.contains(block))) continue;
      const r = block.getBoundingClientRect();
      if (r.height > 0) bottom = Math.max(bottom, r.bottom);
    }
    done({bottom, floating: floating.map((f) => ({
      top: f.getBoundingClientRect().top, background: getComputedStyle(f).backgroundColor}))});
  })));
}"""


def open_presenting(page, url):
    """Open ``url`` (with ``present=true``) once the frame has drawn its switch:
    a server's very first run of a page's URL runs without the frame and
    then again with it (see ``pages.state.session.require_frame``)."""
    open_app(page, url)
    page.locator(".st-key-presenter_switch").wait_for()
    wait_for_drawn(page)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_end_of_a_page_scrolls_clear_of_the_floating_controls(page, app_url, lang, size):
    """The presenter switch and the keys legend float over the bottom corners:
    they are opaque (what passes under them is hidden, not mixed with their
    words), and every page's last block scrolls up clear of them."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    for path in ("/learn?", "/data?", "/compare?data=wine&", "/prune?data=wine&"):
        open_presenting(page, f"{app_url}{path}present=true&lang={lang}")
        measured = page.evaluate(AT_THE_END)
        assert measured["floating"], path
        for control in measured["floating"]:
            assert control["background"] == "rgb(255, 255, 255)", (path, control)
            assert measured["bottom"] <= control["top"], (path, measured)
        assert page.locator(EXCEPTION).count() == 0


#: The popover and its formulas have their final size: KaTeX's fonts are
#: loaded and no width changed between two animation frames.
STILL = """() => document.fonts.status === 'loaded' && new Promise((done) => {
  const widths = () => [...document.querySelectorAll(
    '[data-testid="stPopoverBody"], [data-testid="stPopoverBody"] .katex-display')]
    .map((el) => [el.getBoundingClientRect().width, el.scrollWidth].join()).join();
  const before = widths();
  requestAnimationFrame(() => requestAnimationFrame(() => done(widths() === before)));
})"""


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pruning_formulas_fit_the_presenters_charts_popover(page, app_url, lang, size):
    """In presenter mode the cost-complexity formulas sit in the narrow Charts
    popover at the projector's type size: no formula is wider than its box
    (KaTeX would clip it and scroll it sideways)."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_presenting(page, f"{app_url}/prune?data=wine&present=true&lang={lang}")
    page.get_by_role("button", name="Charts" if lang == "en" else "图表").first.click()
    formulas = page.locator('[data-testid="stPopoverBody"] .katex-display')
    formulas.first.wait_for()
    page.wait_for_function(STILL)  # (the popover opened, KaTeX's fonts in)
    widths = formulas.evaluate_all("(all) => all.map((k) => [k.scrollWidth, k.clientWidth])")
    assert widths
    for scroll_width, width in widths:
        assert scroll_width <= width + 4, widths  # (a glyph's overhang: a few px)
    page.screenshot(path=str(SHOTS / f"prune-charts-popover-{lang}-{size[0]}x{size[1]}.png"))
