"""The stepping controls in a real browser, at 1280x720, in presenter and
normal mode, in English and 中文, on Grow and Compare: first, previous, next
and last are found by their role and their name in the interface language
(no button is named by a Material icon's ligature, "skip_next"), they show
the same icons on both pages, and neither the presenter switch nor the keys
legend sits over anything the page shows, wherever the page is scrolled.
Screenshots go to tests/browser/artifacts/controls/."""

import re

import pytest

from dtree.views.vocabulary import STEP_CONTROLS, t
from tests.browser.conftest import ARTIFACTS, open_app, wait_for_drawn

SHOTS = ARTIFACTS / "controls"
EXCEPTION = '[data-testid="stException"]'
PAGES = {"grow": "/?data=penguins&preset=C4.5&step=4",
         "compare": "/compare?cmp_step=1"}
FLOATING = '.st-key-presenter_switch, [class*="st-key-keys_legend"]'

#: Every visible text box (each line of each text node), button, slider, input,
#: folded panel's header and drawn tree that is not part of the presenter switch
#: or the keys legend, clipped to what the window and its scrolling boxes show;
#: the boxes of the switch and the legend; whether they float (position fixed).
BOXES = """(floatingSelector) => {
  const floating = [...document.querySelectorAll(floatingSelector)];
  const clips = new Map();
  const hides = (el) => {
    if (!clips.has(el)) {
      const s = getComputedStyle(el);
      clips.set(el, s.overflowX !== 'visible' || s.overflowY !== 'visible');
    }
    return clips.get(el);
  };
  const cut = (a, b) => ({left: Math.max(a.left, b.left), top: Math.max(a.top, b.top),
                          right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom)});
  const shown = (el, rect) => {  // the part of rect the window and el's scrolling boxes show
    let box = cut(rect, {left: 0, top: 0, right: innerWidth, bottom: innerHeight});
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (hides(a)) box = cut(box, a.getBoundingClientRect());
      if (box.right - box.left <= 0.5 || box.bottom - box.top <= 0.5) return null;
    }
    return box.right - box.left > 0.5 && box.bottom - box.top > 0.5 ? box : null;
  };
  const visible = (el) => el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
  const inFloating = (el) => floating.some((f) => f.contains(el));
  const items = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || inFloating(el) || !visible(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) {
      const box = shown(el, rect);
      if (box) items.push({what: node.textContent.trim().slice(0, 60), ...box});
    }
  }
  const things = 'button, [role="slider"], input, summary, [data-testid="stGraphVizChart"] svg';
  for (const el of document.querySelectorAll(things)) {
    if (inFloating(el) || !visible(el)) continue;
    const box = shown(el, el.getBoundingClientRect());
    if (box) items.push({what: el.tagName + ' ' + (el.innerText || '').slice(0, 40), ...box});
  }
  return {items, fixed: floating.map((f) => getComputedStyle(f).position === 'fixed'),
          floating: floating.map((f) => {
            const r = f.getBoundingClientRect();
            return {what: f.className.match(/st-key-[\\w-]+/)[0], left: r.left, top: r.top,
                    right: r.right, bottom: r.bottom};
          })};
}"""

#: Scroll the page's scrolling box to ``top`` (px); its scroll height and view
#: height, after the browser has painted the new position.
SCROLL = """(top) => new Promise((done) => {
  const main = document.querySelector('[data-testid="stMain"]');
  main.scrollTop = top;
  requestAnimationFrame(() => requestAnimationFrame(() =>
    done({top: main.scrollTop, height: main.scrollHeight, view: main.clientHeight})));
})"""

BUTTON_NAMES = re.compile(r'^\s*- button "((?:[^"\\]|\\.)*)"', re.M)
#: The four stepping controls' Material icons' ligatures (skip_next...).
STEPPING_LIGATURES = {icon.split("/")[1].strip(":") for icon, *_ in STEP_CONTROLS.values()}


@pytest.fixture(scope="module", autouse=True)
def shots_folder():
    SHOTS.mkdir(parents=True, exist_ok=True)


def overlaps(a, b, slack=0.5):
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack)


def stepping_icons(page, lang):
    """Find first, previous, next and last by role and name (each once, and
    enabled or not as the step says); return the icon ligature each shows."""
    icons = {}
    for control, (_, _, english, chinese) in STEP_CONTROLS.items():
        label = t(lang, english, chinese)
        # the name is the label, then Streamlit's "Shortcut →" of its key
        button = page.get_by_role("button", name=re.compile(rf"^{re.escape(label)}( Shortcut .*)?$"))
        assert button.count() == 1, (control, label, button.count())
        icon = button.locator('[data-testid="stIconMaterial"]')
        assert icon.count() == 1, (control, label)
        icons[control] = icon.inner_text().strip()
    return icons


def button_names(page):
    """The accessible names of every button in the page's accessibility tree."""
    return BUTTON_NAMES.findall(page.locator("body").aria_snapshot())


def assert_nothing_under_the_floating_controls(page, where):
    """At every scroll position (the page's top only when the switch is in the
    page's flow, not floating), no text, button or tree the page shows meets
    the presenter switch's or the keys legend's box, nor do they meet each other."""
    found = page.evaluate(BOXES, FLOATING)
    assert found["floating"], where
    floats = any(found["fixed"])
    top, seen = 0, 0
    while True:
        scrolled = page.evaluate(SCROLL, top)
        found = page.evaluate(BOXES, FLOATING)
        for n, box in enumerate(found["floating"]):
            for other in found["floating"][n + 1:] + found["items"]:
                assert not overlaps(box, other), (where, scrolled["top"], box, other)
        seen += 1
        if not floats or scrolled["top"] + scrolled["view"] >= scrolled["height"] - 1:
            break
        top = scrolled["top"] + scrolled["view"] // 2
    page.evaluate(SCROLL, 0)
    return seen


@pytest.mark.parametrize("present", [True, False], ids=["presenter", "normal"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_stepping_controls_are_named_alike_and_nothing_floats_over_the_page(page, app_url, lang,
                                                                            present):
    page.set_viewport_size({"width": 1280, "height": 720})
    mode = "true" if present else "false"
    icons = {}
    for name, link in PAGES.items():
        open_app(page, f"{app_url}{link}&present={mode}&lang={lang}")
        page.locator(".st-key-presenter_switch").wait_for()  # (the frame ran around the page)
        page.locator(".st-key-stepbar" if name == "grow" else ".st-key-stepbar_cmp").wait_for()
        wait_for_drawn(page)
        where = f"{name} {lang} present={mode}"
        assert page.locator(EXCEPTION).count() == 0, where
        # (a) by role and name, and no button is named by an icon's ligature
        icons[name] = stepping_icons(page, lang)
        names = button_names(page)
        assert names, where
        ligatures = STEPPING_LIGATURES | {text.strip() for text in page.locator(
            '[data-testid="stIconMaterial"]').all_inner_texts()} - {""}
        for button in names:
            for ligature in ligatures:  # as a word: "skip_next", "skip_next icon"
                assert not re.search(rf"(?<![\w-]){re.escape(ligature)}(?![\w-])", button), (where, button)
        # (c) nothing sits under the switch or the legend
        assert_nothing_under_the_floating_controls(page, where)
        page.screenshot(path=str(SHOTS / f"{name}-{lang}-{'present' if present else 'normal'}"
                                         "-1280x720.png"))
    # (b) the same four icons on both pages, one for each control
    assert icons["grow"] == icons["compare"], icons
    assert len(set(icons["grow"].values())) == 4, icons
