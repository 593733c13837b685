"""A Weka ARFF file uploaded in real Chromium: the Data page names the table
by its relation (drawn literally), the class is the target, the tree grows
on the Grow page; a broken ARFF file gets the page's own message and the app
keeps working."""

from tests.browser.conftest import open_app, upload_file, wait_for_app
from tests.helpers.upload_corpus import CORPUS

NODES = '[data-testid="stGraphVizChart"] svg g.node'
EXCEPTION = '[data-testid="stException"]'


def test_an_arff_upload_is_in_use_and_grows(page, app_url, tmp_path):
    path = tmp_path / "weather.arff"
    path.write_bytes(CORPUS["weather.arff"]())
    upload_file(page, app_url + "/data", str(path))
    # the relation is the title, its HTML and Markdown shown as text
    page.get_by_text("weather, hostile: <b>x</b> $y$ — 40 rows × 3 columns").wait_for()
    assert page.locator('[data-testid="stMarkdownContainer"] b').count() == 0
    assert page.get_by_text("Read as Weka ARFF in UTF-8").count() == 1
    wait_for_app(page)
    assert page.locator(".st-key-target input").input_value() == "play"
    assert page.locator(EXCEPTION).count() == 0
    page.get_by_role("link", name="Grow").first.click()
    wait_for_app(page)
    page.wait_for_selector(NODES, state="attached")
    assert page.locator(EXCEPTION).count() == 0


def test_a_broken_arff_upload_names_its_line(page, app_url, tmp_path):
    path = tmp_path / "undeclared.arff"
    path.write_bytes(CORPUS["undeclared.arff"]())
    upload_file(page, app_url + "/data", str(path))
    error = page.locator('[data-testid="stAlertContentError"]')
    assert error.count() == 1
    text = error.inner_text()
    assert "could not be used" in text and "Line 7" in text and "Still using" in text
    assert page.locator(EXCEPTION).count() == 0
    open_app(page, app_url + "/")
    page.wait_for_selector(NODES, state="attached")
    assert page.locator(EXCEPTION).count() == 0
