"""The stepping controls' one definition (dtree.views.vocabulary.STEP_CONTROLS)
and every stepping bar drawn from it: Grow, Compare and Prune show first,
previous, next and last with the same icons and keys, named in the interface
language, in presenter mode (icons on screen, the name kept as the label)
and out of it."""

import re

import pytest
from streamlit.testing.v1 import AppTest

from dtree.views.vocabulary import NAMES, STEP_CONTROLS, name
from tests.helpers.apptest import APP

CJK = re.compile(r"[\u4e00-\u9fff]")
#: Each stepping bar's widget keys for first, previous, next and last.
BARS = {
    "pages/grow.py": ("reset", "prev", "next", "grow_all"),
    "pages/compare.py": ("cmp_first", "cmp_prev", "cmp_next", "cmp_last"),
}


def test_the_four_controls_in_order_with_icons_keys_and_names():
    assert list(STEP_CONTROLS) == ["first", "previous", "next", "last"]
    icons = [icon for icon, *_ in STEP_CONTROLS.values()]
    assert icons == [":material/first_page:", ":material/skip_previous:",
                     ":material/skip_next:", ":material/last_page:"]
    assert [key for _, key, *_ in STEP_CONTROLS.values()] == ["Home", "Left", "Right", "End"]
    for control, (_, _, english, chinese) in STEP_CONTROLS.items():
        assert NAMES["step_control"][control] == (english, chinese)
        assert name("step_control", control) == english
        assert name("step_control", control, "zh") == chinese
        assert not CJK.search(english) and CJK.search(chinese)
    for lang in ("en", "zh"):
        assert len({name("step_control", c, lang) for c in STEP_CONTROLS}) == 4


def run(page, **query):
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    if page != "pages/grow.py":
        at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


@pytest.mark.parametrize("present", ["true", "false"])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", sorted(BARS))
def test_every_stepping_bar_draws_the_shared_controls(page, lang, present):
    at = run(page, lang=lang, present=present, data="wine")
    for control, key in zip(STEP_CONTROLS, BARS[page]):
        icon, shortcut, *_ = STEP_CONTROLS[control]
        button = at.button(key=key)
        # the name is the label in presenter mode too (CSS hides it from view only)
        assert button.label == name("step_control", control, lang), (page, key)
        assert button.proto.icon == icon, (page, key)
        assert button.proto.shortcut.lower() == shortcut.lower(), (page, key)
        if present == "true":  # (and the tooltip says it)
            assert button.help == button.label
