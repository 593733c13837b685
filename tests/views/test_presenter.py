"""Presenter mode's pieces that need no browser: the compact boxes and the
choice of layout that draws a tree largest in a wide window."""

import re
from pathlib import Path

import numpy as np
import pandas as pd

from dtree import DecisionTreeClassifier
from dtree.views import fitting, viz
from dtree import export_graphviz
ROOT = Path(__file__).resolve().parents[2]


def dot_of(edges, label="x <= 1\\ngini = 0.5\\nsamples = 10\\nvalue = [5, 5]\\nclass = a"):
    nodes = sorted({n for e in edges for n in e} or {0})
    lines = [f'{n} [label="{label}"] ;' for n in nodes]
    lines += [f"{a} -> {b} ;" for a, b in edges]
    return "digraph Tree {\n" + "\n".join(lines) + "\n}"


def chain(n):
    """A caterpillar: every split peels one leaf off (depth n)."""
    edges = []
    for i in range(n):
        edges += [(2 * i, 2 * i + 1), (2 * i, 2 * i + 2)]
    return edges


def balanced(depth):
    edges, frontier, nxt = [], [0], 1
    for _ in range(depth):
        new = []
        for node in frontier:
            edges += [(node, nxt), (node, nxt + 1)]
            new += [nxt, nxt + 1]
            nxt += 2
        frontier = new
    return edges


def test_a_wide_shallow_tree_is_drawn_top_down_and_a_deep_chain_left_to_right():
    assert fitting.fitting_direction(dot_of(balanced(2))) == "TB"
    assert fitting.fitting_direction(dot_of(balanced(3))) == "TB"
    assert fitting.fitting_direction(dot_of(chain(7))) == "LR"
    assert fitting.fitting_direction(dot_of([])) == "TB"  # a single leaf


def test_the_window_shape_decides():
    deep = dot_of(chain(4))
    # a tall window favours top-down, a very wide one left to right
    assert fitting.fitting_direction(deep, aspect=0.5) == "TB"
    assert fitting.fitting_direction(deep, aspect=6.0) == "LR"


def test_compact_boxes_are_a_line_shorter_and_keep_every_number():
    frame = pd.read_csv(ROOT / "data" / "iris.csv")
    model = DecisionTreeClassifier(max_depth=3).fit(frame.drop(columns="species"),
                                                    frame["species"])
    plain = export_graphviz(model, node_ids=True)
    compact = export_graphviz(model, node_ids=True, compact=True)

    def labels(dot):
        return dict(re.findall(r'^(\d+) \[label="((?:[^"\\]|\\.)*)"', dot, flags=re.M))
    a, b = labels(plain), labels(compact)
    assert a.keys() == b.keys()
    for node in a:
        assert b[node].count("\\n") == a[node].count("\\n") - 1
        # the same text, "node #i" shortened to "#i" and joined to the next line
        assert b[node].replace("  ", "\\n", 1) == a[node].replace("node #", "#", 1)
    dot, _ = viz.step_dot(model, 2, compact=True)
    assert "ranksep=0.25" in dot and "node #" not in dot


def test_a_floating_point_zero_gain_is_not_printed_negative():
    assert viz._fixed(-1e-17, 3) == "0.000"
    assert viz._fixed(-0.25, 3) == "-0.250"
    assert viz._fixed(np.float64(0.5), 4) == "0.5000"
