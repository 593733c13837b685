"""The Grow page's edge widths: the sidebar's switch draws each edge as wide
as the rows that pass, says so under the tree, and is kept in the link
(``edges=samples``)."""

import re

from streamlit.testing.v1 import AppTest

from dtree.views import links
from pages.state.url_state import URL_STATE
from tests.helpers.apptest import APP

LEGEND = {"en": "Edge width ∝ rows reaching the child (root = 100%)",
          "zh": "边宽 ∝ 到达子结点的样本数（根结点 = 100%）"}


def start(**query):
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def tree_dot(at):
    charts = at.get("graphviz_chart")
    assert charts, "no tree drawn"
    return charts[0].proto.spec


def edge_widths(dot):
    return [float(w) for w in re.findall(r"^\d+ -> \d+ \[.*penwidth=([0-9.]+)\] ;$", dot,
                                         flags=re.M)]


def link(at):
    """The query parameters write_view_to_url makes of the session's settings."""
    settings = {k: at.session_state[k] for k in URL_STATE if k in at.session_state}
    return links.link_params({}, settings, URL_STATE, set(), data="iris", lang="en")


def captions(at):
    return [c.value for c in at.caption]


def test_switching_edges_on_draws_widths_says_so_and_goes_into_the_link():
    at = start(data="iris", step="3")
    switch = at.sidebar.toggle(key="edges")
    assert switch.label == "Edge width: rows that pass" and not switch.value
    assert not edge_widths(tree_dot(at)) and LEGEND["en"] not in captions(at)
    assert "edges" not in link(at)
    switch.set_value(True).run()
    assert not at.exception
    widths = edge_widths(tree_dot(at))
    assert len(widths) == 6 and len(set(widths)) > 1  # 3 splits, 6 edges
    assert LEGEND["en"] in captions(at)
    assert link(at)["edges"] == ["samples"]
    at.sidebar.toggle(key="edges").set_value(False).run()
    assert not edge_widths(tree_dot(at)) and "edges" not in link(at)


def test_a_link_with_edges_opens_with_widths_in_chinese():
    at = start(data="penguins", preset="C4.5", step="4", edges="samples", lang="zh")
    assert not at.warning
    switch = at.sidebar.toggle(key="edges")
    assert switch.label == "边宽：经过的样本数" and switch.value
    assert len(edge_widths(tree_dot(at))) > 1
    assert LEGEND["zh"] in captions(at)


def test_a_link_with_an_unknown_edges_value_is_named():
    at = start(data="iris", edges="thick")
    assert "`edges`" in at.warning[0].value
    assert not at.sidebar.toggle(key="edges").value
