"""Edges drawn as wide as the rows that pass (viz's ``edge_width``): the
widths reach the app's DOT, a prediction path stays reddish purple on top of
them, and the legend under the tree says what the width means."""

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from dtree import DecisionTreeClassifier
from dtree.views import vocabulary
from dtree.views.prediction import explain_prediction
from dtree.views.viz import ON_PATH, PATH_WIDTH, drawn_dot, edge_width_legend, step_dot
from tests.helpers.installed import require

_EDGE = re.compile(r"^(\d+) -> (\d+)(?: \[(.*)\])? ;$", re.M)


@pytest.fixture(scope="module")
def iris():
    d = load_iris(as_frame=True)
    X = d.data
    y = np.asarray(d.target_names)[d.target]
    return X, DecisionTreeClassifier(random_state=0).fit(X, y)


def _edges(dot):
    return {(int(a), int(b)): attrs or "" for a, b, attrs in _EDGE.findall(dot)}


def _width(attrs):
    found = re.search(r"penwidth=([0-9.]+)", attrs)
    return None if found is None else float(found.group(1))


def test_step_dot_widths_follow_the_rows_that_pass(iris):
    _, model = iris
    k = 4
    tree = model.tree_at(k)
    plain, _ = step_dot(model, k)
    wide, _ = step_dot(model, k, edge_width="samples")
    assert "penwidth" not in re.sub(r"^\d+ \[.*$", "", plain, flags=re.M)  # (boxes' borders)
    edges = _edges(wide)
    assert len(edges) == tree.node_count - 1
    share = {e: tree.weighted_n_node_samples[e[1]] / tree.weighted_n_node_samples[0]
             for e in edges}
    for e, attrs in edges.items():
        assert _width(attrs) == pytest.approx(0.75 + 7.25 * share[e], abs=0.006)
    # drawn_dot passes the option through as well
    dot, _ = drawn_dot(model, tree, edge_width="samples")
    assert all(_width(a) is not None for a in _edges(dot).values())
    assert step_dot(model, k, edge_width=None)[0] == plain


def test_path_stays_coloured_over_the_widths(iris):
    X, model = iris
    k = 4
    r = explain_prediction(model, X.iloc[120].to_dict(), k=k)
    wide, _ = step_dot(model, k, edge_width="samples")
    dot, _ = step_dot(model, k, path=r.path, edge_width="samples")
    before, after = _edges(wide), _edges(dot)
    on_path = {(a, b) for a, b in after if a in r.nodes and b in r.nodes}
    assert on_path
    for e, attrs in after.items():
        assert attrs.count("penwidth=") == 1  # one width, not two that Graphviz would pick from
        if e in on_path:
            assert f'color="{ON_PATH}"' in attrs
            assert _width(attrs) == max(PATH_WIDTH, _width(before[e]))
        else:
            assert ON_PATH not in attrs and attrs == before[e]
    # the root's labels survive the path's edits
    assert re.search(r'label="(True|False)"', after[(0, 1)])
    require(shutil.which("dot") is not None, "Graphviz's dot")
    out = subprocess.run(["dot", "-Tsvg"], input=dot.encode(), capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr.decode()
    assert ON_PATH.lower() in out.stdout.decode().lower()


def test_path_over_a_wider_edge_keeps_its_width():
    # one split sending 95% of the rows left: that edge is wider than a path's
    X = pd.DataFrame({"x": np.r_[np.zeros(95), np.ones(5)]})
    y = np.r_[np.zeros(95, int), np.ones(5, int)]
    model = DecisionTreeClassifier().fit(X, y)
    r = explain_prediction(model, {"x": 0.0}, k=1)
    dot, _ = step_dot(model, 1, path=r.path, edge_width="samples")
    left = _edges(dot)[(0, 1)]
    assert f'color="{ON_PATH}"' in left and _width(left) == pytest.approx(0.75 + 7.25 * 0.95,
                                                                           abs=0.006)
    assert _width(_edges(dot)[(0, 2)]) == pytest.approx(0.75 + 7.25 * 0.05, abs=0.006)


def test_legend_and_option_words():
    assert edge_width_legend("en") == "Edge width ∝ rows reaching the child (root = 100%)"
    assert edge_width_legend("zh") == "边宽 ∝ 到达子结点的样本数（根结点 = 100%）"
    assert vocabulary.text(vocabulary.EDGE_WIDTH, "option", "zh") == "边宽：经过的样本数"
    assert vocabulary.text(vocabulary.EDGE_WIDTH, "option", "en") == "Edge width: rows that pass"


def test_a_flag_reads_and_writes_its_word():
    from dtree.views import links

    readers = {"edges": links.flag("samples")}
    assert links.read_link({"edges": ["samples"]}, readers, lambda k: False) == (
        {"edges": True}, [])
    assert links.read_link({"edges": ["off"]}, readers, lambda k: False) == ({"edges": False}, [])
    assert links.read_link({"edges": ["thick"]}, readers, lambda k: False) == ({}, ["edges"])
    on = links.link_params({}, {"edges": True}, readers, set(), data="iris", lang="en")
    off = links.link_params({"edges": ["samples"]}, {"edges": False}, readers, set(),
                            data="iris", lang="en")
    assert on["edges"] == ["samples"] and "edges" not in off
