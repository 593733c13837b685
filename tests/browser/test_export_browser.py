"""The export panel in a real browser: serve tests/helpers/export_panel_app.py (the
panel under a tree picker), click download buttons, check the files, and open
the offline HTML from disk with every network request blocked.  Screenshots
go to tests/browser/artifacts/screens/export_*.png."""

import re
import xml.etree.ElementTree as ET

import pytest

from tests.browser.conftest import ARTIFACTS, REPO_ROOT, open_app, serve, wait_for_drawn

SCRIPT = REPO_ROOT / "tests" / "helpers" / "export_panel_app.py"
SCREENS = ARTIFACTS / "screens"
EXCEPTION = '[data-testid="stException"]'
POINTS = ".scatterlayer .trace .point"  # the node markers (the edges trace has none)


@pytest.fixture(scope="module")
def export_url():
    """Serve the panel's demo script (a second Streamlit server, own port)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    with serve(SCRIPT, "streamlit-export.log") as base_url:
        yield base_url


def download(page, key, tmp_path):
    """Click the download button with this key; return (file name, bytes)."""
    with page.expect_download(timeout=60_000) as info:
        page.locator(f".st-key-{key} button").first.click()
    dl = info.value
    path = tmp_path / dl.suggested_filename
    dl.save_as(path)
    return dl.suggested_filename, path.read_bytes()


def open_offline(browser, path):
    """Open a downloaded HTML file with the network cut off; return (page,
    context, list of blocked requests, list of dialogs)."""
    context = browser.new_context(viewport={"width": 1600, "height": 1200})
    blocked, dialogs = [], []

    def route(r):
        if r.request.url.startswith("file:"):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(path.as_uri())
    page.wait_for_selector(".main-svg")
    return page, context, blocked, dialogs


def go_to_frame(page, name):
    # Plotly.animate's promise resolves when the frame is drawn
    page.evaluate("(name) => Plotly.animate(document.querySelector('.js-plotly-plot'), [name],"
                  " {frame: {duration: 0, redraw: true}, transition: {duration: 0},"
                  " mode: 'immediate'}).then(() => new Promise((done) =>"
                  " requestAnimationFrame(() => requestAnimationFrame(done))))", name)


def test_panel_downloads_and_the_offline_page(page, browser, export_url, tmp_path):
    open_app(page, export_url)
    page.set_viewport_size({"width": 1400, "height": 700})
    assert page.locator(EXCEPTION).count() == 0
    for what in ("dot", "svg", "png", "txt", "json", "html"):
        assert page.locator(f".st-key-exp_{what} button").first.is_enabled()
    wait_for_drawn(page)
    page.screenshot(path=str(SCREENS / "export_panel.png"), full_page=True)

    name, dot = download(page, "exp_dot", tmp_path)
    assert name == "Iris_step7.dot"
    assert len(re.findall(rb"^\d+ \[label=", dot, flags=re.M)) == 15
    name, svg = download(page, "exp_svg", tmp_path)
    root = ET.fromstring(svg)
    assert name == "Iris_step7.svg"
    assert sum(g.get("class") == "node" for g in root.iter("{http://www.w3.org/2000/svg}g")) == 15
    name, png = download(page, "exp_png", tmp_path)
    assert name == "Iris_step7.png" and png.startswith(b"\x89PNG\r\n\x1a\n")
    name, html = download(page, "exp_html", tmp_path)
    assert name == "Iris_growth.html" and len(html) > 1_000_000
    assert page.locator(EXCEPTION).count() == 0

    offline, context, blocked, _ = open_offline(browser, tmp_path / name)
    try:
        assert offline.locator(POINTS).count() == 1  # step 0: the root
        go_to_frame(offline, "7")
        assert offline.locator(POINTS).count() == 15
        assert offline.locator(".annotation").count() == 2 * 15 - 1  # boxes + edge labels
        offline.screenshot(path=str(SCREENS / "export_offline_iris.png"), full_page=True)
        go_to_frame(offline, "0")
        offline.get_by_text("Play").click()
        offline.wait_for_function(
            f"() => document.querySelectorAll('{POINTS}').length === 15", timeout=30_000)
        assert blocked == []
    finally:
        context.close()


def test_hostile_names_in_the_offline_page(page, browser, export_url, tmp_path):
    open_app(page, export_url + "/?demo_data=hostile&lang=zh")
    assert page.locator(EXCEPTION).count() == 0
    name, html = download(page, "exp_html", tmp_path)
    assert name == "b_x_b_a_b_c_growth.html"
    offline, context, blocked, dialogs = open_offline(browser, tmp_path / name)
    try:
        go_to_frame(offline, "3")
        text = offline.locator(".js-plotly-plot").first.text_content()
        assert "<b>x</b>" in text  # drawn as written
        assert "<script>alert(1)</scrip" in text and 'a"];x [label="pwn' in text
        assert offline.locator("svg script, .main-svg b").count() == 0
        assert dialogs == [] and blocked == []
        assert "播放" in text
        offline.screenshot(path=str(SCREENS / "export_offline_hostile.png"), full_page=True)
    finally:
        context.close()


def test_multiway_tree_in_chinese(page, export_url, tmp_path):
    open_app(page, export_url + "/?demo_data=melon&lang=zh")
    assert page.locator(EXCEPTION).count() == 0
    assert "离线逐步演示（HTML）" in page.locator(".st-key-exp_html").first.inner_text()
    name, rules = download(page, "exp_txt", tmp_path)
    assert name == "西瓜_2_0_step5_rules.txt"
    assert "纹理 = 清晰" in rules.decode("utf-8")
    page.screenshot(path=str(SCREENS / "export_panel_zh.png"), full_page=True)
