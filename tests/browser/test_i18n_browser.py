"""The Grow and Data pages in 中文 in a real browser: Chinese labels that fit
their buttons, Chinese chart titles, and a switch back to English that keeps
the step.  Screenshots: tests/browser/artifacts/screens/i18n_*.png."""

import pytest

from tests.browser.conftest import ARTIFACTS, open_app, wait_for_drawn

SCREENS = ARTIFACTS / "screens"
EXCEPTION = '[data-testid="stException"]'
NODES = '[data-testid="stGraphVizChart"] svg g.node'
STEP_BUTTONS = {"prev": "上一步", "next": "下一步", "play": "播放", "reset": "第一步",
                "grow_all": "最后一步"}

# Whether an element's text is cut: wider than its box, or hidden by an ellipsis.
_CUT_JS = """el => {
  const cut = [];
  for (const e of [el, ...el.querySelectorAll('*')]) {
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible')
      cut.push(e.textContent);
  }
  return cut;
}"""


@pytest.fixture
def tall_page(page):
    page.set_viewport_size({"width": 1600, "height": 2000})
    SCREENS.mkdir(parents=True, exist_ok=True)
    return page


def settle(page):
    """After the awaited element appeared: the run finished, charts drawn."""
    wait_for_drawn(page)


def test_grow_page_in_chinese(tall_page, app_url):
    page = tall_page
    open_app(page, f"{app_url}/?lang=zh")
    page.locator(".st-key-speed").wait_for()  # the second run drew the rest
    settle(page)
    assert page.locator(EXCEPTION).count() == 0
    for key, label in STEP_BUTTONS.items():
        button = page.locator(f".st-key-{key} button")
        assert label in button.inner_text().split("\n"), key
        assert button.evaluate(_CUT_JS) == [], f"{key}: label cut"
    page.locator(".st-key-next button").click()
    page.wait_for_function(f"document.querySelectorAll('{NODES}').length === 3")
    settle(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    for label in ("划分准则", "生长顺序", "max_depth（最大深度）", "树的布局"):
        assert sidebar.get_by_text(label, exact=True).count() >= 1, label
    assert page.get_by_text("结点检查", exact=True).count() >= 1
    assert page.locator(EXCEPTION).count() == 0
    page.screenshot(path=str(SCREENS / "i18n_grow_zh.png"))

    page.get_by_role("tab", name="准确率").click()
    page.locator('[data-testid="stPlotlyChart"] .gtitle').first.wait_for()
    settle(page)
    assert "准确率随决策树生长的变化" in page.locator(
        '[data-testid="stPlotlyChart"] .gtitle').first.text_content()
    assert page.locator(EXCEPTION).count() == 0
    page.screenshot(path=str(SCREENS / "i18n_grow_zh_accuracy.png"))

    # back to English: the same step, the same tab, English labels
    page.locator(".st-key-lang_pick").get_by_text("English").click()
    page.locator(".st-key-next button", has_text="Next step").wait_for()
    settle(page)
    assert page.locator(NODES).count() == 3
    assert "accuracy as the tree grows" in page.locator(
        '[data-testid="stPlotlyChart"] .gtitle').first.text_content()
    assert page.locator(EXCEPTION).count() == 0


def test_data_page_in_chinese(tall_page, app_url):
    page = tall_page
    open_app(page, f"{app_url}/data?lang=zh")
    page.locator('[data-testid="stPlotlyChart"] .gtitle').first.wait_for()
    settle(page)
    assert page.locator(EXCEPTION).count() == 0
    for text in ("数据来源", "内置数据集", "概览", "列摘要", "训练集/测试集划分", "测试集比例"):
        assert page.get_by_text(text, exact=True).count() >= 1, text
    assert page.locator('[data-testid="stPlotlyChart"] .gtitle').first.text_content() == \
        "类别分布"
    assert page.get_by_text("训练集 114 行，测试集 36 行").count() == 1
    assert page.locator(".st-key-source").evaluate(_CUT_JS) == []
    page.screenshot(path=str(SCREENS / "i18n_data_zh.png"))
