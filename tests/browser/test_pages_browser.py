"""The app in a real browser: every page opens cleanly, Next step redraws the
Graphviz SVG, the step is in the URL, bad uploads get a message, hostile
names are drawn literally.  Screenshots go to tests/browser/artifacts/screens/
(the path is printed)."""

import re

import pytest

from tests.browser.conftest import (ARTIFACTS, expect_rerun, open_app, upload_file,
                                    wait_for_app, wait_for_drawn, wait_for_rerun)
from tests.helpers.upload_corpus import CORPUS, HOSTILE

SCREENS = ARTIFACTS / "screens"
NODES = '[data-testid="stGraphVizChart"] svg g.node'
EXCEPTION = '[data-testid="stException"]'


@pytest.fixture(scope="module", autouse=True)
def screens_folder(request):
    SCREENS.mkdir(parents=True, exist_ok=True)
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"\nscreenshots of the app: {SCREENS}")


def shot(page, name):
    wait_for_drawn(page)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def tall(page, height=2400):
    page.set_viewport_size({"width": 1600, "height": height})


def node_count(page):
    return page.locator(NODES).count()


def click_and_wait(page, key, nodes):
    page.locator(f".st-key-{key} button").click()
    page.wait_for_function(f"() => document.querySelectorAll('{NODES}').length === {nodes}")
    wait_for_app(page)


def upload(page, app_url, path_or_payload):
    upload_file(page, app_url + "/data", path_or_payload)


def test_grow_page_opens_and_next_step_redraws_the_svg(app_page, app_url):
    page = app_page
    tall(page)
    page.wait_for_selector(NODES, state="attached")
    assert page.locator(EXCEPTION).count() == 0
    assert node_count(page) == 1
    shot(page, "grow-step0")
    before = page.locator('[data-testid="stGraphVizChart"] svg').inner_html()
    click_and_wait(page, "next", 3)
    assert page.locator('[data-testid="stGraphVizChart"] svg').inner_html() != before
    assert re.search(r"[?&]step=1\b", page.url)
    click_and_wait(page, "next", 5)
    click_and_wait(page, "prev", 3)
    assert page.locator(EXCEPTION).count() == 0


def test_step_from_the_url(page, app_url):
    tall(page)
    open_app(page, app_url + "/?step=3")
    page.wait_for_function(f"() => document.querySelectorAll('{NODES}').length === 7")
    page.get_by_text("Map of the tree: click a node").click()
    wait_for_app(page)
    page.get_by_text("Gain of every split of one feature").click()
    wait_for_app(page)
    page.wait_for_selector('[data-testid="stPlotlyChart"]')
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "grow-step3-inspector")


@pytest.mark.parametrize("tab", ["Decision regions", "Accuracy"])
def test_panels(page, app_url, tab):
    tall(page, 2000)
    open_app(page, app_url + "/?step=4")
    page.get_by_role("tab", name=tab).click()
    wait_for_app(page)
    page.wait_for_selector('[data-testid="stPlotlyChart"]')
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "grow-" + tab.split()[-1].lower())


def test_data_page(page, app_url):
    tall(page, 1800)
    open_app(page, app_url + "/data")
    assert page.locator(EXCEPTION).count() == 0
    assert page.get_by_text("training rows").count() >= 1
    # the page without a tree starts the browser's Graphviz renderer, hidden,
    # so that the Grow or Prune page opened next need not wait for it
    warmup = page.locator(".st-key-tree_renderer_warmup")
    warmup.locator('[data-testid="stGraphVizChart"] svg').wait_for(state="attached")
    assert not warmup.is_visible()
    shot(page, "data")


def test_an_upload_shows_its_own_target_and_features(page, app_url, tmp_path):
    """The Data page's widgets had Iris's choices; after an upload they show
    the new table's defaults, which are the ones its tree uses."""
    path = tmp_path / "small.csv"
    path.write_text("a,b,label\n" + "".join(f"{i},{i % 3},{'yes' if i % 2 else 'no'}\n"
                                            for i in range(40)))
    upload(page, app_url, str(path))
    page.wait_for_selector("text=40 rows × 3 columns")  # the page says the upload is in use
    wait_for_app(page)
    # (the select shows its value in its combobox input)
    assert page.locator(".st-key-target input").input_value() == "label"
    # "all other columns" is chosen and counts the upload's features (Iris has
    # four): b alone, for a (0 to 39, a new value in every row) is an
    # identifier, which the page names as left out
    checked = page.locator(".st-key-feature_mode label:has(input[type=radio]:checked)")
    assert checked.count() == 1
    assert checked.inner_text().strip() == "all other columns (1)"
    assert page.get_by_text("Left out: “a”").count() == 1
    assert page.locator(EXCEPTION).count() == 0


def test_bad_upload_shows_a_message_and_the_app_keeps_working(page, app_url, tmp_path):
    path = tmp_path / "picture.csv"
    path.write_bytes(CORPUS["image.csv"]())
    upload(page, app_url, str(path))
    assert page.get_by_text("could not be used").count() == 1
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "data-bad-upload")
    page.get_by_role("link", name="Grow").first.click()
    wait_for_app(page)
    page.wait_for_selector(NODES, state="attached")
    assert page.locator(EXCEPTION).count() == 0


def test_hostile_names_are_drawn_literally(page, app_url, tmp_path):
    tall(page)
    path = tmp_path / "hostile.csv"
    path.write_bytes(CORPUS["hostile_names.csv"]())
    upload(page, app_url, str(path))
    page.get_by_role("link", name="Grow").first.click()
    page.wait_for_selector(NODES, state="attached")
    wait_for_app(page)
    expect_rerun(page)
    page.locator(".st-key-grow_all button").click()
    wait_for_rerun(page)
    # the grown tree is drawn: more nodes than the root
    page.wait_for_function(f"() => document.querySelectorAll('{NODES}').length > 1")
    wait_for_drawn(page)
    svg_text = page.locator('[data-testid="stGraphVizChart"] svg').text_content()
    used = [name for name in HOSTILE[:-1] if name in svg_text]
    assert used, svg_text[:500]  # the tree splits on some hostile names, shown as written
    # nothing became markup: no script or bold element came from a name
    assert page.locator('[data-testid="stGraphVizChart"] svg script').count() == 0
    assert page.locator('[data-testid="stGraphVizChart"] svg b').count() == 0
    assert page.locator("[data-testid=stMarkdownContainer] script").count() == 0
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "grow-hostile-names")


def url_step(page):
    match = re.search(r"[?&]step=(\d+)", page.url)
    return int(match.group(1)) if match else 0


def test_play_advances_and_pause_stops(page, app_url):
    # an unlimited tree on Wine: 15 or so steps, so that play is still going
    # when the test pauses it, even on a busy machine
    open_app(page, app_url + "/?data=Wine&max_depth=none")
    page.wait_for_selector(NODES, state="attached")
    page.locator(".st-key-play button").click()
    page.wait_for_function("() => /[?&]step=([2-9]|\\d\\d)/.test(location.search)",
                           timeout=20_000)
    page.locator(".st-key-play button").click()  # now "Pause"
    # the app's signal that it stopped: the button reads Play again
    page.wait_for_function(
        "() => document.querySelector('.st-key-play button').innerText.includes('Play')")
    wait_for_app(page)
    step = url_step(page)
    assert step >= 2
    # a stopped timer is an absence: give a running one four of its periods
    page.wait_for_timeout(2000)
    wait_for_app(page)
    assert url_step(page) == step
    assert page.locator(EXCEPTION).count() == 0


def test_clicking_a_node_on_the_map_inspects_it(page, app_url):
    open_app(page, app_url + "/?step=4")
    page.wait_for_selector(NODES, state="attached")
    page.get_by_text("Map of the tree: click a node").click()
    wait_for_app(page)
    points = page.locator(".st-key-inspect_plot .scatterlayer .trace:nth-child(2) .point")
    points.first.wait_for()
    points.nth(2).click(force=True)  # markers are in node order: #0, #1, #2, ...
    page.wait_for_function(
        "() => [...document.querySelectorAll('h3')].some(h => h.innerText.startsWith('Node #2'))")
    assert page.get_by_role("button", name="Follow the steps").count() == 1
    assert page.locator(EXCEPTION).count() == 0


def test_the_url_reopens_the_same_view(page, app_url, browser):
    """Change the view, take the URL the app wrote, open it in a new session:
    the same tree, the same settings."""
    tall(page)
    open_app(page, app_url + "/?data=Wine&max_depth=3&preset=C4.5&lang=zh")
    page.wait_for_selector(NODES, state="attached")
    click_and_wait(page, "next", 3)
    click_and_wait(page, "next", 5)
    link = page.url
    for part in ("data=wine", "max_depth=3", "preset=C4.5", "step=2", "lang=zh"):
        assert part in link, link
    def boxes(p):  # the text of every node (the DOM order depends on the transitions)
        return sorted(p.locator(NODES).evaluate_all("els => els.map(e => e.textContent)"))
    svg = boxes(page)
    other = browser.new_context(viewport={"width": 1600, "height": 2400}).new_page()
    open_app(other, link)
    other.wait_for_function(f"() => document.querySelectorAll('{NODES}').length === 5")
    assert boxes(other) == svg
    assert other.locator(EXCEPTION).count() == 0
    other.context.close()


def test_a_big_upload_shows_its_stages_and_grow_takes_its_tree(page, app_url, tmp_path):
    """A 4 MB upload (60k rows) is read in a progress box that names its four
    stages with their times; the Grow page then draws the tree grown there."""
    import numpy as np
    import pandas as pd

    from dtree.views.datatext import BIG_UPLOAD_BYTES

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(60_000, 10)).round(3),
                         columns=[f"x{i}" for i in range(10)])
    frame["label"] = np.where(frame["x0"] + frame["x1"] > 0, "yes", "no")
    path = tmp_path / "big60k.csv"
    frame.to_csv(path, index=False)
    assert path.stat().st_size >= BIG_UPLOAD_BYTES
    upload(page, app_url, str(path))
    done = page.get_by_text("Read 60,000 rows and grew the first tree")
    done.wait_for()
    done.click()  # the finished box folds; open it
    details = page.locator('[data-testid="stExpanderDetails"]').first
    details.get_by_text("✓ Growing the first tree").wait_for()
    lines = [t.split(" (")[0].split(" ")[1] for t in details.inner_text().splitlines()
             if t.startswith("✓")]
    assert lines == ["Reading", "Typing", "Preparing", "Growing"]
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "data-big-upload")
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Grow").click()
    page.wait_for_selector(NODES, state="attached")
    wait_for_app(page)
    assert page.get_by_text("big60k.csv").count() >= 1
    assert page.locator(EXCEPTION).count() == 0
