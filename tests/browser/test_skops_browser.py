"""A .skops file uploaded in real Chromium (presenter mode, 1280x720, en and
中文): a hostile one (a tree whose ids loop) gets the page's own message in
the page's language, after a budgeted child process of the real server
opened it, and the dataset stays in use; a valid one opens and the Grow page
steps through its growth."""

import pytest

from tests.browser.conftest import (ARTIFACTS, expect_rerun, open_app, wait_for_app,
                                    wait_for_drawn, wait_for_rerun)
from tests.helpers.hostile_skops import CASES, valid_file

NODES = '[data-testid="stGraphVizChart"] svg g.node'
EXCEPTION = '[data-testid="stException"]'
SHOTS = ARTIFACTS / "skops"
WORDS = {
    "en": {"source": "Open a fitted scikit-learn tree (.skops)", "refused": "could not be opened",
           "still": "Still using", "grow": "Grow"},
    "zh": {"source": "打开已训练的 scikit-learn 决策树（.skops）", "refused": "无法打开",
           "still": "仍在使用", "grow": "生长"},
}


def give_tree(page, name, data):
    """Hand ``data`` to the .skops uploader as ``name``; returns once the app
    has opened or refused it."""
    dropzone = page.locator('.st-key-skops_upload [data-testid="stFileUploaderDropzoneInput"]')
    expect_rerun(page)
    dropzone.set_input_files({"name": name, "mimeType": "application/octet-stream",
                              "buffer": data})
    wait_for_rerun(page)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_hostile_tree_is_refused_in_the_pages_language_and_a_valid_one_opens(
        browser, app_url, lang):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(120_000)
    words = WORDS[lang]
    try:
        open_app(page, f"{app_url}/data?present=true&lang={lang}")
        page.get_by_text(words["source"]).click()
        page.locator('.st-key-skops_upload [data-testid="stFileUploaderDropzoneInput"]') \
            .wait_for(state="attached")
        wait_for_app(page)
        valid = valid_file("classifier")
        make, _ = CASES["cycle"]
        give_tree(page, "loop.skops", make(valid))
        error = page.locator('[data-testid="stAlertContentError"]')
        error.wait_for()
        text = error.inner_text()
        assert words["refused"] in text and "loop.skops" in text and words["still"] in text, text
        assert page.locator(EXCEPTION).count() == 0
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"refused-{lang}-1280x720.png"))

        give_tree(page, "iris-tree.skops", valid)
        assert page.locator('[data-testid="stAlertContentError"]').count() == 0
        assert page.get_by_text("iris-tree.skops").count() >= 1
        page.get_by_role("link", name=words["grow"]).first.click()
        wait_for_app(page)
        page.wait_for_selector(NODES, state="attached")
        wait_for_drawn(page)
        assert page.locator(EXCEPTION).count() == 0
        page.screenshot(path=str(SHOTS / f"opened-{lang}-1280x720.png"))
    finally:
        context.close()
