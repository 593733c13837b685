"""A real tree read from the back row: in presenter mode at 1280x720, at
every step of Penguins (C4.5, the default depth), Wine (CART, unlimited
depth) and Penguins (CART, unlimited depth), the median node text is at
least 14 px and the node the narration names is drawn, with its children.
Then what the audience can do with the drawing: W shows the whole tree and
back, D the full boxes, a click folds a subtree and opens a stub, + and 0
zoom in and back.  Screenshots go to tests/browser/artifacts/focus/."""

import re

import pytest

from tests.browser.conftest import (ARTIFACTS, expect_rerun, open_app, wait_for_drawn,
                                    wait_for_rerun)

SHOTS = ARTIFACTS / "focus"
CHART = '.st-key-tree_box [data-testid="stGraphVizChart"]'
READABLE_PX = 14.0

#: The drawn tree: every node's first line (the "#id ..." of a brief box),
#: whether it is a dashed stub, and the median of its text size in CSS px.
READ = """() => {
  const svg = document.querySelector('.st-key-tree_box [data-testid="stGraphVizChart"] svg');
  if (!svg) return null;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const px = [...svg.querySelectorAll('g.node text')]
    .map((t) => parseFloat(t.getAttribute('font-size')) * scale).sort((a, b) => a - b);
  const nodes = [...svg.querySelectorAll('g.node')].map((g) => ({
    title: g.querySelector('title').textContent,
    first: (g.querySelector('text') || {}).textContent || '',
    lines: [...g.querySelectorAll('text')].map((t) => t.textContent),
    stub: !!g.querySelector('[stroke-dasharray]')}));
  const narration = document.querySelector('.st-key-narration');
  return {nodes, median: px.length ? px[Math.floor(px.length / 2)] : 0,
          narration: narration ? narration.innerText : '',
          zoom: document.querySelector('.st-key-tree_box [data-testid="stGraphVizChart"]')
                  .dataset.zoom || '1',
          width: svg.getBoundingClientRect().width};
}"""

#: The narration names the node a step split ("node #30 was split ...").
SPLIT = re.compile(r"(?:node|结点) #(\d+)")


@pytest.fixture(scope="module", autouse=True)
def shots_folder():
    SHOTS.mkdir(parents=True, exist_ok=True)


@pytest.fixture
def projector(browser):
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    yield page
    page.context.close()


def drawn_step(page, step):
    """Wait until the tree of ``step`` is on screen (its narration, its
    drawing), and read it."""
    page.wait_for_function(
        f"() => /[?&]step={step}\\b/.test(location.search) || ({step} === 0 && "
        "!/[?&]step=/.test(location.search))")
    wait_for_drawn(page)
    # the drawing follows the run: wait until the narrated node is in it
    page.wait_for_function("""(step) => {
      const n = document.querySelector('.st-key-narration');
      const svg = document.querySelector('.st-key-tree_box [data-testid="stGraphVizChart"] svg');
      if (!n || !svg) return false;
      if (step === 0) return true;
      const m = n.innerText.match(/(?:node|结点) #(\\d+)/);
      return !!m && [...svg.querySelectorAll('g.node text')].some(
        (t) => t.textContent.startsWith('#' + m[1] + ' '));
    }""", arg=step)
    return page.evaluate(READ)


def press(page, key):
    page.mouse.click(3, 3)  # (the page has the focus, no input has)
    page.keyboard.press(key)


@pytest.mark.parametrize("name, path, steps", [
    ("penguins-c45", "/?data=penguins&preset=C4.5", 15),
    ("penguins-c45-zh", "/?data=penguins&preset=C4.5&lang=zh", 15),
    ("wine-cart", "/?data=wine&preset=CART&max_depth=none", 8),
    ("penguins-cart", "/?data=penguins&preset=CART&max_depth=none", 12),
])
def test_every_step_of_a_real_tree_is_readable_and_draws_the_narrated_node(
        projector, app_url, name, path, steps):
    page = projector
    open_app(page, f"{app_url}{path}&present=true&step=0")
    medians = []
    for step in range(steps + 1):
        if step:
            press(page, "ArrowRight")
        tree = drawn_step(page, step)
        assert tree is not None, f"step {step}: no tree"
        medians.append(round(tree["median"], 1))
        assert tree["median"] >= READABLE_PX, (step, medians)
        if step:
            node = SPLIT.search(tree["narration"]).group(1)
            first = {n["first"].split()[0] for n in tree["nodes"]}
            assert f"#{node}" in first, (step, node, first)
            split_box = next(n for n in tree["nodes"] if n["first"].startswith(f"#{node} "))
            assert not split_box["stub"], f"step {step}: node #{node} is folded"
    page.screenshot(path=str(SHOTS / f"{name}-last.png"))
    assert f"{steps} of {steps}" in tree["narration"] or f"第 {steps} 步" in tree["narration"]


def test_w_shows_the_whole_tree_and_d_the_full_boxes(projector, app_url):
    page = projector
    open_app(page, f"{app_url}/?data=penguins&preset=C4.5&present=true&step=15")
    focus = drawn_step(page, 15)
    assert any(n["stub"] for n in focus["nodes"]), "the focus view folds nothing"
    expect_rerun(page)
    press(page, "w")
    wait_for_rerun(page)
    page.wait_for_function("() => /[?&]tree_view=whole\\b/.test(location.search)")
    whole = drawn_step(page, 15)
    page.wait_for_function(f"() => document.querySelectorAll('{CHART} g.node').length === 33")
    whole = page.evaluate(READ)
    assert not any(n["stub"] for n in whole["nodes"])
    page.screenshot(path=str(SHOTS / "penguins-c45-whole.png"))
    expect_rerun(page)
    press(page, "d")
    wait_for_rerun(page)
    page.wait_for_function("() => /[?&]details=full\\b/.test(location.search)")
    page.wait_for_function(f"""() => [...document.querySelectorAll('{CHART} g.node text')]
        .some((t) => t.textContent.startsWith('samples = '))""")
    expect_rerun(page)
    press(page, "w")  # back to the focus, with the full boxes
    wait_for_rerun(page)
    page.wait_for_function("() => /[?&]tree_view=focus\\b/.test(location.search)")
    wait_for_drawn(page)
    page.wait_for_function(f"() => document.querySelectorAll('{CHART} g.node').length < 33")


def test_a_click_folds_a_subtree_and_a_click_on_its_stub_opens_it(browser, app_url):
    """In normal mode too: the whole tree is drawn, a click on a split folds
    it into a dashed stub (and into the link), a click on the stub opens it."""
    page = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
    try:
        open_app(page, f"{app_url}/?data=iris&preset=CART&max_depth=3&step=99")
        wait_for_drawn(page)
        before = page.evaluate(READ)
        n_before = len(before["nodes"])
        split = next(n for n in before["nodes"]
                     if n["title"] != "0" and not n["lines"][-1].startswith("class")
                     and any(line.startswith("node #") for line in n["lines"])
                     and len(n["lines"]) > 5)
        node_id = split["lines"][0].split("#")[1]
        expect_rerun(page)
        page.locator(f'{CHART} g.node:has(title:text-is("{split["title"]}"))').click()
        wait_for_rerun(page)
        page.wait_for_function(f"() => /[?&]fold={node_id}\\b/.test(location.search)")
        page.wait_for_function(f"""() => document.querySelectorAll('{CHART} g.node').length
                                         < {n_before}""")
        folded = page.evaluate(READ)
        stubs = [n for n in folded["nodes"] if n["stub"]]
        assert [s["first"].split()[0] for s in stubs] == [f"#{node_id}"], stubs
        assert "▸" in stubs[0]["first"]
        expect_rerun(page)
        page.locator(f'{CHART} g.node:has(title:text-is("{stubs[0]["title"]}"))').click()
        wait_for_rerun(page)
        page.wait_for_function(f"() => /[?&]unfold={node_id}\\b/.test(location.search)")
        page.wait_for_function(f"""() => document.querySelectorAll('{CHART} g.node').length
                                         === {n_before}""")
    finally:
        page.context.close()


def test_plus_zooms_in_shift_arrows_pan_and_zero_shows_it_all_again(projector, app_url):
    page = projector
    open_app(page, f"{app_url}/?data=penguins&preset=C4.5&present=true&step=15")
    tree = drawn_step(page, 15)
    press(page, "+")
    press(page, "+")
    page.wait_for_function(f"() => document.querySelector('{CHART}').dataset.zoom === '1.5625'")
    box = page.locator(CHART).bounding_box()
    press(page, "Shift+ArrowLeft")
    page.wait_for_function(f"""(x) => document.querySelector('{CHART}')
        .getBoundingClientRect().x > x + 50""", arg=box["x"])
    assert "step=15" in page.url  # Shift+arrow pans, it does not step
    zoomed = page.locator(f"{CHART} svg").bounding_box()
    assert zoomed["width"] > 1.5 * tree["width"]
    press(page, "0")
    page.wait_for_function(f"() => document.querySelector('{CHART}').dataset.zoom === '1'")
    assert abs(page.locator(f"{CHART} svg").bounding_box()["width"] - tree["width"]) < 1
