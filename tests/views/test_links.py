"""Reading and writing the view in a link (dtree.views.links), and the data
page's defaults (dtree.tables.prepare.setup_from_choices), without Streamlit."""

import pandas as pd
import pytest

from dtree.tables.prepare import Setup, setup_from_choices
from dtree.views import links

READERS = {"target": links.text, "task": links.one_of("auto", "classification"),
           "features": list, "max_depth": links.number(int, 1, 64, none=True),
           "test_size": links.number(float, 0.0, 0.5)}


def test_md_escapes_markdown_and_joins_lines():
    assert links.md("a*b_c\n  [x](y)") == r"a\*b\_c \[x\]\(y\)"


@pytest.mark.parametrize("reader, text, value", [
    (links.number(int, 1, 64, none=True), "3", 3),
    (links.number(int, 1, 64, none=True), "3.0", 3),
    (links.number(int, 1, 64, none=True), "none", None),
    (links.number(float, 0.0, 0.5), "0.25", 0.25),
    (links.one_of("a", "b"), "b", "b"),
])
def test_readers_read(reader, text, value):
    assert reader(text) == value


@pytest.mark.parametrize("reader, text", [
    (links.number(int, 1, 64), "0"), (links.number(int, 1, 64), "none"),
    (links.number(float, 0.0, 0.5), "x"), (links.one_of("a", "b"), "c"),
])
def test_readers_refuse(reader, text):
    with pytest.raises(ValueError):
        reader(text)


def test_read_link_keeps_what_reads_and_names_the_rest():
    params = {"target": ["y"], "features": ["a", "b"], "max_depth": ["99"],
              "test_size": ["0.1", "0.2"], "task": ["auto"], "other": ["1"]}
    values, ignored = links.read_link(params, READERS, known={"task"}.__contains__)
    assert values == {"target": "y", "features": ["a", "b"], "test_size": 0.2}
    assert ignored == ["max_depth"]


def test_link_params_write_the_settings_the_data_and_the_language():
    current = {"target": ["old"], "step": ["3"], "data": ["iris"]}
    settings = {"features": ("a", "b"), "max_depth": None, "test_size": None}
    wanted = links.link_params(current, settings, READERS, {"max_depth"}, data=None, lang="zh")
    assert wanted == {"step": ["3"], "features": ["a", "b"], "max_depth": ["none"],
                      "lang": ["zh"]}
    assert links.link_params({}, {}, READERS, (), data="iris", lang="en") == \
        {"data": ["iris"], "lang": ["en"]}


def test_link_warning():
    assert links.link_warning(None, [], dataset_keys=["iris"], shown="Iris") == ""
    text = links.link_warning("x*" * 40, ["seed"], dataset_keys=["iris", "wine"],
                              shown="Iris")
    assert "`iris`, `wine`" in text and "…" in text and r"x\*" in text and "`seed`" in text
    assert "已被忽略" in links.link_warning(None, ["seed"], dataset_keys=[], shown="",
                                          lang="zh")


FRAME = pd.DataFrame({"id": range(4), "x": [1.0, 2, 3, 4], "c": list("abab"),
                      "y": [0.5, 1.5, 2.5, 3.5]})


def test_setup_defaults():
    setup = setup_from_choices(FRAME, {}, default_target="y", identifiers=["id"],
                               types={"c": "categorical", "x": "numeric"})
    assert setup == Setup("y", ("x", "c"), ("c",), "regression", 0.25, 0)


def test_setup_choices_and_stale_ones():
    choices = {"target": "gone", "task": "classification", "feature_mode": "choose",
               "features": ["id", "x", "gone"], "categorical": ["c", "x"], "test_size": 0.1,
               "seed": 7}
    setup = setup_from_choices(FRAME, choices, default_target="c", default_test_size=0.3)
    assert setup == Setup("c", ("id", "x"), ("x",), "classification", 0.1, 7)


def test_setup_keeps_every_column_when_all_are_identifiers():
    setup = setup_from_choices(FRAME[["id", "y"]], {}, default_target="y", identifiers=["id"])
    assert setup.features == ("id",)


@pytest.mark.parametrize("text, ids", [("3.7.12", (3, 7, 12)), ("12.3.3", (3, 12)),
                                       ("0", (0,)), ("", ()), ("none", ())])
def test_node_lists_read_sorted_distinct_ids_and_write_them_back(text, ids):
    read = links.node_list()
    assert read(text) == ids
    assert read.write(ids) == (".".join(map(str, ids)) or None)
    if ids:
        assert read(read.write(ids)) == ids


@pytest.mark.parametrize("text", ["-1", "1.-2", "a", "1..2", "1.2.", "٣", "²", "1e3",
                                  " 1", "1" * 11, str(10**9 + 1), ".".join(["1"] * 256)])
def test_node_lists_refuse_anything_but_plain_ids(text):
    with pytest.raises(ValueError):
        links.node_list()(text)


def test_a_link_with_a_bad_fold_list_ignores_that_key_alone():
    readers = {"fold": links.node_list(), "edges": links.flag("samples")}
    values, ignored = links.read_link({"fold": ["1.x"], "edges": ["samples"]}, readers,
                                      lambda key: False)
    assert values == {"edges": True} and ignored == ["fold"]
