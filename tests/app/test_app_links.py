"""Links for slides: ``?data=`` takes a built-in dataset's short key or its
title (any case), the app writes the short key back, an unknown key or a
value that does not parse is named in a warning (never a silent fallback),
and every link for slides in docs/lecture-room.md and the README opens the
view it describes."""

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from dtree.tables.io import BUILTIN, find_builtin
from tests.helpers.link_open import opened

ROOT = Path(__file__).resolve().parents[2]
KEYS = ["iris", "wine", "penguins", "cats", "loan", "playtennis", "watermelon2",
        "watermelon2a", "xor"]


# -- the lookup ---------------------------------------------------------------------


def test_every_builtin_has_a_short_key():
    assert [spec.key for spec in BUILTIN.values()] == KEYS


@pytest.mark.parametrize("title", list(BUILTIN))
def test_key_and_title_both_resolve_in_any_case(title):
    key = BUILTIN[title].key
    for name in (key, key.upper(), title, title.lower(), title.upper(), f"  {title} "):
        assert find_builtin(name) == title, name


@pytest.mark.parametrize("name", ["", "nope", "iris2", "Iris (UCI)", "watermelon",
                                  "cats.csv", "None"])
def test_unknown_names_do_not_resolve(name):
    assert find_builtin(name) is None  # no fallback to any dataset


# -- the app ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["wine", "WINE", "Wine", "wine "])
def test_a_key_or_a_title_opens_the_dataset_and_the_key_is_written_back(name):
    at = opened(f"/?data={name}", runs=2)
    assert at.session_state["table"].title == "Wine"
    assert at.query_params["data"] in ("wine", ["wine"])
    assert not at.warning


def test_an_unknown_key_is_named_with_the_valid_keys():
    at = opened("/?data=nope")
    assert at.session_state["table"].title == "Iris"  # the page still opens...
    (warning,) = at.warning  # ...saying so
    text = warning.value
    assert "“nope”" in text and "Showing Iris instead" in text
    for key in KEYS:
        assert f"`{key}`" in text
    assert "ignored" not in text


def test_an_unknown_key_is_named_on_the_page_the_link_opens_in_chinese():
    at = opened("/compare?data=Nope*&lang=zh")
    assert [t.value for t in at.title] == ["比较决策树"]
    (warning,) = at.warning
    assert "“Nope\\*”" in warning.value and "`watermelon2a`" in warning.value
    assert "鸢尾花 Iris" in warning.value


def test_values_that_do_not_parse_are_named_in_one_warning():
    at = opened("/?max_depth=abc&seed=x&growth=sideways&min_samples_leaf=3&lang=xx")
    (warning,) = at.warning
    text = warning.value
    for key in ("max_depth", "seed", "growth", "lang"):
        assert f"`{key}`" in text
    assert "min_samples_leaf" not in text and "dataset" not in text
    assert at.session_state["min_samples_leaf"] == 3  # what parses is used


def test_the_warning_stays_on_its_page_only():
    at = opened("/?data=nope")
    assert at.warning
    at.switch_page("pages/data.py").run()
    assert not at.exception and not at.warning
    at.switch_page("pages/grow.py").run()
    assert not at.warning


def test_a_good_link_has_no_warning():
    assert not opened("/?data=loan&preset=ID3&step=2&present=true&lang=zh").warning


# -- the documented links ----------------------------------------------------------


def links_in(path, start, end):
    """The app's links between ``start`` and the next ``end`` in a Markdown file."""
    text = (ROOT / path).read_text(encoding="utf-8")
    section = text[text.index(start):]
    section = section[:section.index(end, len(start))]
    return re.findall(r"<http://localhost:8501(/[^>]*)>", section)


def readme_links():
    documented = links_in("docs/lecture-room.md", "## Links for slides", "\n## ")
    readme = links_in("README.md", "**Links for slides.**", "\n\nMore in")
    assert len(documented) >= 8 and len(readme) >= 4
    return list(dict.fromkeys(documented + readme))


def grow_step(at):
    return at.session_state["step"]


@pytest.mark.parametrize("url", readme_links())
def test_every_readme_link_opens_its_view(url):
    at = opened(url, then_page=True)
    assert not at.warning
    query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
    zh = query.get("lang") == "zh"
    assert at.session_state["lang"] == ("zh" if zh else "en")
    page = urlsplit(url).path.strip("/")
    title = {"loan": "Loan applications (Li Hang)", "wine": "Wine",
             "watermelon2": "Watermelon 2.0 (Zhou Zhihua)"}.get(query.get("data"), "Iris")
    assert at.session_state["table"].title == title
    present = "present" in at.session_state and at.session_state["present"]
    assert present == (query.get("present") == "true")
    if page == "":
        assert at.session_state["preset"] == query["preset"]
        step = int(query["step"])
        assert grow_step(at) == step
        assert any((f"第 {step} 步" if zh else f"Step {step} of") in m.value
                   for m in at.markdown)
        if "max_depth" in query:  # "at its last step": the tree is fully grown
            assert at.session_state["max_depth"] == int(query["max_depth"])
            last = f"第 {step} 步（共 {step} 步）" if zh else f"Step {step} of {step}:"
            assert any(last in m.value for m in at.markdown), "not the last step"
    elif page == "compare":
        assert [t.value for t in at.title] == ["比较决策树" if zh else "Compare trees"]
        text = at.info[0].value
        assert "identical" not in text and "完全相同" not in text  # trees that part
        assert len(at.get("graphviz_chart")) == 2
        if "cmp_step" in query:
            assert at.slider(key="cmp_step").value == int(query["cmp_step"])
            assert all('color="#CC79A7", penwidth=7' in c.proto.spec
                       for c in at.get("graphviz_chart"))  # where they part, outlined
    else:
        assert page == "prune"
        assert at.get("graphviz_chart")
