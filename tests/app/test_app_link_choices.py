"""Choices whose widget shows a name in the interface language (the Prune
page's method, a compared tree's criterion and growth order, the Compare
page's chart, the sample the Grow page predicts) are kept in the link by
their key: a link with the key opens the view in English and in 中文, the
app writes the key back (never the name shown), a link written in one
language reopens the same view in the other, a name an older link holds
reads as its key, and a value that does not read is named in the link
warning."""

from urllib.parse import urlencode

import pytest

from dtree.views.comparetext import chart_names
from dtree.views.links import md
from dtree.views.predictiontext import source_names
from dtree.views.prunetext import view_name
from dtree.views.vocabulary import criterion_name, growth_name
from tests.helpers.link_open import opened
from tests.helpers.apptest import assert_clean

GROW = {"panel": "Prediction"}  # (the Grow page's tab that has the sample's choice)
#: key -> (page, the link's other parameters, a value that is not the
#: default, the default, how the widget is found, its name in (en, zh))
CHOICES = {
    "prune_view": ("prune", {"data": "wine"}, "ebp", "ccp", "button_group",
                   [view_name("ebp", lang) for lang in ("en", "zh")]),
    "cmp_c2": ("compare", {}, "taylor2", "misclassification", "selectbox",
               [criterion_name("taylor2", lang, short=True) for lang in ("en", "zh")]),
    "cmp_g1": ("compare", {}, "best_first", "depth_first", "selectbox",
               [growth_name("best_first", lang) for lang in ("en", "zh")]),
    "cmp_chart": ("compare", {}, "agreement", "scores", "button_group",
                  [chart_names(True, lang)["agreement"] for lang in ("en", "zh")]),
    "pred_src": ("", GROW, "custom", "row", "segmented_control",
                 [source_names("test", lang)["custom"] for lang in ("en", "zh")]),
}


def link(key, value, lang, **more):
    page, params = CHOICES[key][:2]
    query = {**params, **more, key: value, "lang": lang}
    if key == "pred_src" and lang == "zh":
        query["panel"] = "预测"
    return f"/{page}?{urlencode(query)}"


def shown(at, key):
    """The widget's value, and that the page shows that view."""
    kind = CHOICES[key][4]
    value = getattr(at, kind)(key=key).value
    if key == "prune_view" and value == "ebp":  # C4.5's confidence and subtree raising
        assert at.toggle(key="prune_raising")
    elif key == "cmp_c2" and value == "taylor2":  # the second tree's heading names it
        name = md(criterion_name("taylor2", at.session_state["lang"], short=True))
        assert any(m.value == f"##### 2 · {name}" for m in at.markdown)
    elif key == "cmp_chart" and value == "agreement":
        assert '"type":"heatmap"' in at.get("plotly_chart")[-1].proto.spec
    elif key == "pred_src" and value == "custom":
        assert at.number_input(key="pred_v0")  # the form of one's own values
    return value


def written(at, key):
    value = at.query_params.get(key)
    return value[-1] if isinstance(value, list) else value


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", list(CHOICES))
def test_a_link_with_the_key_opens_the_view_and_the_key_is_written_back(key, lang):
    value = CHOICES[key][2]
    at = opened(link(key, value, lang), then_page=True)
    assert at.session_state["lang"] == lang
    assert shown(at, key) == value
    assert written(at, key) == value  # the key, not the name shown
    assert not at.warning


@pytest.mark.parametrize("first, then", [("en", "zh"), ("zh", "en")])
@pytest.mark.parametrize("key", list(CHOICES))
def test_a_url_written_in_one_language_reopens_the_view_in_the_other(key, first, then):
    # (the URL a session writes after a widget change is checked in a browser:
    # tests/browser/test_compare_browser.py; under AppTest the frame, which
    # writes it, runs on a session's first run)
    page, value = CHOICES[key][0], CHOICES[key][2]
    at = opened(link(key, value, first), then_page=True)
    url = {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert url[key] == value
    url["lang"] = then
    if key == "pred_src":
        url["panel"] = "预测" if then == "zh" else "Prediction"
    again = opened(f"/{page}?{urlencode(url)}", then_page=True)
    assert again.session_state["lang"] == then
    assert shown(again, key) == value
    assert not again.warning


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", list(CHOICES))
def test_an_older_link_with_the_name_shown_still_opens_the_view(key, lang):
    # (the URL used to hold the name in the language the link was made in)
    value, names = CHOICES[key][2], CHOICES[key][5]
    for name in names:
        at = opened(link(key, name, lang), then_page=True)
        assert shown(at, key) == value
        assert written(at, key) == value
        assert not at.warning


@pytest.mark.parametrize("key", list(CHOICES))
def test_a_value_that_does_not_read_is_named_in_the_warning(key):
    default = CHOICES[key][3]
    at = opened(link(key, "sideways", "en"))
    (warning,) = at.warning
    assert f"`{key}`" in warning.value and "ignored" in warning.value
    assert shown(at, key) == default


def test_the_choices_are_kept_across_pages():
    at = opened(link("prune_view", "steps", "zh"), then_page=True)
    at.switch_page("pages/compare.py").run()
    at.selectbox(key="cmp_g1").set_value("breadth_first").run()
    at.button_group(key="cmp_chart").set_value("impurity").run()
    at.switch_page("pages/data.py").run()
    assert_clean(at)
    at.switch_page("pages/prune.py").run()
    assert shown(at, "prune_view") == "steps"
    at.switch_page("pages/compare.py").run()
    assert shown(at, "cmp_g1") == "breadth_first" and shown(at, "cmp_chart") == "impurity"
