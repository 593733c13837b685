"""Manual mode in a real browser, at 1280x720 in presenter mode, in English
and 中文: the stepping bar's *Choose the split* opens the chooser, a feature
and a threshold are picked from its lists, *Split here* regrows the tree,
and the drawn tree, the step's sentence and the link show the choice.
Screenshots go to tests/browser/artifacts/manual/."""

import json
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser.conftest import (ARTIFACTS, expect_rerun, open_app, wait_for_drawn,
                                    wait_for_rerun)
from tests.browser.screens import open_chooser

SHOTS = ARTIFACTS / "manual"
TREE = '[data-testid="stGraphVizChart"] svg'
WORDS = {"en": ("Split here", "Chosen by hand"), "zh": ("按此划分", "手动选择")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_split_chosen_by_hand_changes_the_tree(page, app_url, lang):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{app_url}/?data=iris&step=0&present=true&lang={lang}")
    wait_for_drawn(page)
    assert page.locator(TREE).filter(has_text="petal width (cm) <= 0.35").count() == 0
    open_chooser(page)  # (the chooser's lists are built when it opens)
    wait_for_drawn(page)
    page.screenshot(path=str(SHOTS / f"chooser-{lang}.png"))
    expect_rerun(page)
    page.get_by_role("button", name=WORDS[lang][0]).click()
    wait_for_rerun(page)
    # the app's own signal: the regrown tree, drawn with the root split chosen
    page.locator(TREE).filter(has_text="petal width (cm) <= 0.35").wait_for()
    wait_for_drawn(page)
    page.screenshot(path=str(SHOTS / f"after-{lang}.png"))
    assert page.get_by_text(WORDS[lang][1]).count() >= 1
    link = parse_qs(urlparse(page.url).query)
    assert json.loads(link["forced"][0]) == {"feature": "petal width (cm)", "threshold": 0.35}
    assert link["step"] == ["1"]
    assert page.locator('[data-testid="stException"]').count() == 0
