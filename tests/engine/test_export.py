"""Tests for the exports (dtree._export, _export_text, _colours, _tree_view):
export_text against scikit-learn's, and the DOT output of export_graphviz
(structure, numbers, colours, and resistance to hostile feature/class names).

The DOT checks do not need Graphviz: a small parser below implements the
lexical rules of Graphviz's DOT scanner (quoted strings where ``\\"`` is an
escaped quote and ``\\\\`` a pair of backslashes) and the label escapes
(``\\n`` line break, ``\\\\`` backslash, ``&amp;`` ampersand).  When the
``dot`` binary is installed, the same checks also run on its SVG rendering.
"""

import ast
import functools
import re
import shutil
import subprocess
import types
import xml.etree.ElementTree as ET
from pathlib import Path

import graphviz
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_diabetes, load_iris, load_wine
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.tree import export_text as sk_export_text

from dtree import export_graphviz, export_text
from tests.helpers.installed import needs
from tests.helpers.dot_reader import label_lines_of, parse_dot, sklearn_labels

DOT = shutil.which("dot")
needs_dot = needs(DOT is not None, "Graphviz's dot")


# --------------------------------------------------------------------------
# Fitted scikit-learn trees (cached: fitting is the slow part)
# --------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def dataset(name):
    loader = {"iris": load_iris, "wine": load_wine, "diabetes": load_diabetes}[name]
    return loader()


@functools.lru_cache(maxsize=None)
def fitted(name, max_depth=None, criterion=None, weighted=False, string_classes=False):
    d = dataset(name)
    y = d.target
    if name == "diabetes":
        est = DecisionTreeRegressor(
            max_depth=max_depth, random_state=0, criterion=criterion or "squared_error"
        )
    else:
        est = DecisionTreeClassifier(
            max_depth=max_depth, random_state=0, criterion=criterion or "gini"
        )
        if string_classes:
            y = np.asarray(d.target_names)[y]
    sample_weight = None
    if weighted:
        sample_weight = np.random.default_rng(0).uniform(0.1, 3.0, size=len(y))
    return est.fit(d.data, y, sample_weight=sample_weight)


TEXT_CASES = [
    pytest.param("iris", None, None, False, False, id="iris"),
    pytest.param("iris", 3, "entropy", False, True, id="iris-entropy-strclasses"),
    pytest.param("iris", None, None, True, False, id="iris-weighted"),
    pytest.param("wine", None, None, False, False, id="wine"),
    pytest.param("wine", 4, "entropy", False, False, id="wine-depth4"),
    pytest.param("diabetes", 5, None, False, False, id="diabetes"),
    pytest.param("diabetes", 4, "absolute_error", False, False, id="diabetes-mae"),
    pytest.param("diabetes", 3, None, True, False, id="diabetes-weighted"),
]


# --------------------------------------------------------------------------
# export_text
# --------------------------------------------------------------------------


@pytest.mark.parametrize("name,max_depth,criterion,weighted,string_classes", TEXT_CASES)
@pytest.mark.parametrize("use_names", [False, True], ids=["generic", "named"])
@pytest.mark.parametrize("text_depth", [0, 1, 2, 4, 10])
@pytest.mark.parametrize("show_weights", [False, True], ids=["noweights", "weights"])
def test_export_text_matches_sklearn(
    name, max_depth, criterion, weighted, string_classes, use_names, text_depth, show_weights
):
    est = fitted(name, max_depth, criterion, weighted, string_classes)
    names = list(dataset(name).feature_names) if use_names else None
    kwargs = dict(feature_names=names, max_depth=text_depth, show_weights=show_weights)
    expected = sk_export_text(est, **kwargs)
    assert export_text(est, **kwargs) == expected


@pytest.mark.parametrize("spacing,decimals", [(1, 0), (2, 5), (6, 3)])
@pytest.mark.parametrize("name", ["iris", "wine", "diabetes"])
def test_export_text_spacing_and_decimals_match_sklearn(name, spacing, decimals):
    est = fitted(name, 6)
    kwargs = dict(spacing=spacing, decimals=decimals, show_weights=True, max_depth=3)
    assert export_text(est, **kwargs) == sk_export_text(est, **kwargs)


def test_export_text_class_names_override_matches_sklearn():
    est = fitted("wine", 3)
    kwargs = dict(class_names=["barolo", "grignolino", "barbera"], show_weights=True)
    assert export_text(est, **kwargs) == sk_export_text(est, **kwargs)
    # By default the classes_ are used, as strings.
    string_est = fitted("iris", 3, string_classes=True)
    assert "class: virginica" in export_text(string_est)


def test_export_text_on_bare_tree_matches_estimator():
    est = fitted("iris", 4)
    names = list(dataset("iris").feature_names)
    classes = list(dataset("iris").target_names)
    from_estimator = export_text(est, feature_names=names, class_names=classes)
    assert export_text(est.tree_, feature_names=names, class_names=classes) == from_estimator
    # Without class names a bare tree reports class indices, which are the
    # classes_ of an estimator fitted on 0..2.
    assert export_text(est.tree_) == sk_export_text(est)


def test_export_text_multi_output_matches_sklearn():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(150, 3))
    Y = np.c_[X[:, 0] > 0, X[:, 1] + X[:, 2] > 0.5].astype(int)
    clf = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, Y)
    reg = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, X[:, :2] * 3.0)
    for est in (clf, reg):
        for show_weights in (False, True):
            got = export_text(est, show_weights=show_weights)
            assert got == sk_export_text(est, show_weights=show_weights)


def test_export_text_rejects_bad_arguments():
    est = fitted("iris", 2)
    with pytest.raises(ValueError, match="feature_names"):
        export_text(est, feature_names=["a", "b"])
    with pytest.raises(ValueError, match="class_names"):
        export_text(est, class_names=["only", "two"])
    with pytest.raises(ValueError, match="spacing"):
        export_text(est, spacing=0)
    with pytest.raises(ValueError, match="max_depth"):
        export_text(est, max_depth=-1)
    with pytest.raises(ValueError, match="fitted"):
        export_text(DecisionTreeClassifier())
    with pytest.raises(TypeError):
        export_text(est, feature_names="abcd")


# --------------------------------------------------------------------------
# A DOT reader modelled on Graphviz's scanner and label escapes
# --------------------------------------------------------------------------


def shown(text):
    """How a user string should look in a box: control characters become
    Unicode control pictures; C1 controls, surrogates and U+FFFE/U+FFFF
    become U+FFFD."""
    out = []
    for ch in str(text):
        c = ord(ch)
        if c < 0x20:
            out.append(chr(0x2400 + c))
        elif c == 0x7F:
            out.append("\u2421")
        elif 0x80 <= c <= 0x9F or 0xD800 <= c <= 0xDFFF or c in (0xFFFE, 0xFFFF):
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def render_svg_nodes(dot_source):
    """Render with `dot -Tsvg`; return ({node name: [text lines]}, n_edges)."""
    svg = subprocess.run(
        [DOT, "-Tsvg"], input=dot_source.encode("utf-8"), capture_output=True,
        check=True, timeout=60,
    ).stdout.decode("utf-8")
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(svg)
    nodes, n_edges = {}, 0
    for g in root.iter(ns + "g"):
        if g.get("class") == "node":
            title = g.find(ns + "title").text
            assert title not in nodes
            nodes[title] = [t.text or "" for t in g.findall(ns + "text")]
        elif g.get("class") == "edge":
            n_edges += 1
    return nodes, n_edges


def normalise_svg_line(line):
    # Graphviz writes runs of spaces as no-break spaces in SVG, and drops
    # the text element of a blank line.
    return line.replace("\u00a0", " ")


# --------------------------------------------------------------------------
# export_graphviz: structure and content
# --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["iris", "wine", "diabetes"])
def test_dot_labels_agree_with_sklearn(name):
    est = fitted(name, None if name != "diabetes" else 5)
    names = list(dataset(name).feature_names)
    kwargs = dict(feature_names=names)
    if name != "diabetes":
        kwargs["class_names"] = [f"class {c}" for c in est.classes_]
    dot = export_graphviz(est, **kwargs)
    nodes, edges, _ = parse_dot(dot)
    assert len(nodes) == est.tree_.node_count
    assert len(edges) == est.tree_.node_count - 1
    ours = {n: label_lines_of(a["label"]) for n, a in nodes.items()}
    assert ours == sklearn_labels(est, **kwargs)
    graphviz.Source(dot)  # must not raise


def test_dot_iris_root_box_and_edges():
    est = fitted("iris", 2)
    d = dataset("iris")
    dot = export_graphviz(est, feature_names=d.feature_names, class_names=d.target_names)
    nodes, edges, defaults = parse_dot(dot)
    root = est.tree_
    feature = d.feature_names[root.feature[0]]
    assert label_lines_of(nodes["0"]["label"]) == [
        f"{feature} <= {root.threshold[0]:.3f}".rstrip("0").rstrip("."),
        "gini = 0.667",
        "samples = 150",
        "value = [50, 50, 50]",
        "class = setosa",
    ]
    # One node statement per tree node, one edge per child.
    assert sorted(nodes, key=int) == [str(i) for i in range(root.node_count)]
    assert sorted((int(a), int(b)) for a, b, _ in edges) == sorted(
        (p, int(c))
        for p in range(root.node_count)
        for c in (root.children_left[p], root.children_right[p])
        if c != -1
    )
    root_edges = {b: attrs for a, b, attrs in edges if a == "0"}
    assert root_edges[str(root.children_left[0])]["label"] == "True"
    assert root_edges[str(root.children_right[0])]["label"] == "False"
    assert all(not attrs for a, _, attrs in edges if a != "0")
    assert defaults["node"]["style"] == "filled, rounded"
    assert defaults["node"]["fontname"] == "Helvetica"


def test_dot_precision_and_threshold_formatting():
    est = fitted("iris", 2)
    dot = export_graphviz(est, precision=1)
    lines = label_lines_of(parse_dot(dot)[0]["0"]["label"])
    t = est.tree_.threshold[0]
    assert lines[0] == f"feature_{est.tree_.feature[0]} <= {t:.1f}".rstrip("0").rstrip(".")
    assert lines[1] == "gini = 0.7"
    wide = label_lines_of(parse_dot(export_graphviz(est, precision=6))[0]["0"]["label"])
    assert wide[1] == "gini = 0.666667"


def test_dot_tiny_threshold_is_not_shown_as_zero():
    tree = _chain_tree(1)
    tree.threshold = np.array([0.000123, -2.0, -2.0])
    lines = label_lines_of(parse_dot(export_graphviz(tree))[0]["0"]["label"])
    assert lines[0] == "feature_0 <= 0.000123"


def test_dot_proportion():
    est = fitted("iris", 2)
    nodes, _, _ = parse_dot(export_graphviz(est, proportion=True))
    lines = label_lines_of(nodes["0"]["label"])
    assert "samples = 100.0%" in lines
    assert "value = [0.333, 0.333, 0.333]" in lines
    left = str(est.tree_.children_left[0])
    assert "samples = 33.3%" in label_lines_of(nodes[left]["label"])


def test_dot_weighted_counts_are_rounded_not_truncated():
    est = fitted("iris", 2, weighted=True)
    nodes, _, _ = parse_dot(export_graphviz(est, precision=2))
    value_line = next(
        line for line in label_lines_of(nodes["0"]["label"]) if line.startswith("value = ")
    )
    w = est.tree_.weighted_n_node_samples[0]
    expected = [round(float(v) * w, 2) for v in est.tree_.value[0, 0]]
    got = [float(x) for x in value_line[len("value = ["):-1].split(", ")]
    assert got == pytest.approx(expected, abs=1e-9)


def test_dot_regressor_value_and_colour_scale():
    est = fitted("diabetes", 3)
    tree = est.tree_
    nodes, _, _ = parse_dot(export_graphviz(est))
    root = label_lines_of(nodes["0"]["label"])
    assert root[1] == f"squared_error = {tree.impurity[0]:.3f}".rstrip("0").rstrip(".")
    assert root[3] == f"value = {tree.value[0, 0, 0]:.3f}".rstrip("0").rstrip(".")
    values = tree.value[:, 0, 0]
    lightest = str(int(np.argmin(values)))
    darkest = str(int(np.argmax(values)))
    assert nodes[lightest]["fillcolor"].lower() == "#ffffff"
    assert _luminance(nodes[darkest]["fillcolor"]) < _luminance(nodes["0"]["fillcolor"]) < 1.0


def _luminance(colour):
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_dot_fill_colours_follow_class_and_purity():
    palette = ["#E69F00", "#56B4E9", "#F0E442"]  # light enough to use unchanged
    est = fitted("iris", 3)
    nodes, _, _ = parse_dot(export_graphviz(est, palette=palette))
    tree = est.tree_
    for n, attrs in nodes.items():
        fractions = tree.value[int(n), 0]
        colour = attrs["fillcolor"]
        # Black text keeps a contrast ratio of at least 7:1 on every fill.
        assert (_luminance(colour) + 0.05) / 0.05 >= 7.0
        top = np.sort(fractions)[::-1]
        if top[0] == 1.0:
            assert colour.lower() == palette[int(np.argmax(fractions))].lower()
        elif top[0] == top[1]:
            assert colour.lower() == "#ffffff"
    # A palette with a dark colour is lightened, not used as is.
    dark = parse_dot(export_graphviz(est, palette=["#000000", "#0072B2", "#000080"]))[0]
    for attrs in dark.values():
        assert (_luminance(attrs["fillcolor"]) + 0.05) / 0.05 >= 7.0


def test_dot_not_filled_has_no_fill():
    nodes, _, defaults = parse_dot(export_graphviz(fitted("iris", 2), filled=False, rounded=False))
    assert all("fillcolor" not in a for a in nodes.values())
    assert "style" not in defaults["node"]


def test_dot_max_depth_truncates_with_placeholder_nodes():
    est = fitted("wine")
    tree = est.tree_
    for depth in (0, 1, 2):
        nodes, edges, _ = parse_dot(export_graphviz(est, max_depth=depth))
        # Nodes drawn in full: depth <= max_depth; placeholders: their children.
        level = {0: 0}
        for n in range(tree.node_count):
            for c in (tree.children_left[n], tree.children_right[n]):
                if c != -1:
                    level[int(c)] = level[n] + 1
        full = [n for n, lv in level.items() if lv <= depth]
        cut = [n for n, lv in level.items() if lv == depth + 1]
        assert len(nodes) == len(full) + len(cut)
        assert len(edges) == len(nodes) - 1
        for n in cut:
            assert nodes[str(n)]["label"] == "(...)"
        for n in full:
            assert nodes[str(n)]["label"] != "(...)"


def test_dot_label_lines_and_highlight():
    est = fitted("iris", 2)
    extra = {0: ["gain = 0.333", "g(t) = 0.5"], 2: ["★ pruned here"]}
    dot = export_graphviz(est, label_lines=extra, highlight={2: "#d62728", 0: "red"})
    nodes, _, _ = parse_dot(dot)
    assert label_lines_of(nodes["0"]["label"])[-2:] == extra[0]
    assert label_lines_of(nodes["2"]["label"])[-1] == "★ pruned here"
    assert nodes["2"]["color"] == "#d62728"
    assert float(nodes["2"]["penwidth"]) >= 3
    assert nodes["0"]["color"] == "red"
    assert "penwidth" not in nodes["1"]
    with pytest.raises(ValueError, match="highlight"):
        export_graphviz(est, highlight={1: '#fff"] ; 9 [label="x'})
    with pytest.raises(ValueError, match="label_lines"):
        export_graphviz(est, label_lines={999: ["x"]})
    with pytest.raises(ValueError, match="palette"):
        export_graphviz(est, palette=["red"])


def test_dot_node_ids_use_display_ids_of_dtree_trees():
    est = fitted("iris", 2)
    nodes, _, _ = parse_dot(export_graphviz(est, node_ids=True))
    assert label_lines_of(nodes["3"]["label"])[0] == "node #3"
    bare = _copy_tree(est.tree_)
    bare.node_ids = np.arange(bare.node_count) * 10 + 7
    nodes, _, _ = parse_dot(export_graphviz(bare, node_ids=True, class_names=["a", "b", "c"]))
    assert label_lines_of(nodes["3"]["label"])[0] == "node #37"
    assert not any(
        line.startswith("node #")
        for line in label_lines_of(parse_dot(export_graphviz(bare))[0]["3"]["label"])
    )


def test_dot_on_bare_tree_matches_estimator():
    est = fitted("iris", 3)
    d = dataset("iris")
    kwargs = dict(feature_names=d.feature_names, class_names=list(d.target_names))
    assert export_graphviz(est.tree_, impurity_name="gini", **kwargs) == export_graphviz(
        est, **kwargs
    )
    # Without a criterion the impurity line says so.
    assert "impurity = 0.667" in export_graphviz(est.tree_, **kwargs)
    assert "entropy = " in export_graphviz(est, impurity_name="entropy")


def test_dot_uses_feature_names_in_and_classes_by_default():
    import pandas as pd

    d = dataset("iris")
    frame = pd.DataFrame(d.data, columns=["花萼长度", "花萼宽度", "花瓣长度", "花瓣宽度"])
    y = np.asarray(["山鸢尾", "变色鸢尾", "维吉尼亚鸢尾"])[d.target]
    est = DecisionTreeClassifier(max_depth=2, random_state=0).fit(frame, y)
    dot = export_graphviz(est)
    # UTF-8 text passes through unchanged.
    assert "花瓣宽度 <= 0.8" in dot
    assert "class = 山鸢尾" in dot
    nodes, _, _ = parse_dot(dot)
    assert len(nodes) == est.tree_.node_count


@pytest.mark.parametrize("rankdir", ["TB", "LR", "BT", "RL"])
@pytest.mark.parametrize("leaves_parallel", [False, True])
def test_dot_layout_options_stay_valid(rankdir, leaves_parallel):
    est = fitted("wine", 3)
    dot = export_graphviz(
        est, rankdir=rankdir, leaves_parallel=leaves_parallel, fontname="Noto Sans CJK SC",
        fontsize=11, max_depth=2,
    )
    nodes, edges, defaults = parse_dot(dot)
    assert defaults.get("rankdir", "TB") == rankdir
    assert defaults["node"]["fontname"] == "Noto Sans CJK SC"
    assert len(edges) == len(nodes) - 1
    graphviz.Source(dot)
    if DOT:
        svg_nodes, n_edges = render_svg_nodes(dot)
        assert len(svg_nodes) == len(nodes) and n_edges == len(edges)
    with pytest.raises(ValueError):
        export_graphviz(est, rankdir="TB; x -> y")
    with pytest.raises(ValueError, match="fontname"):
        # Graphviz would copy the quote into an SVG attribute unescaped.
        export_graphviz(est, fontname='x" onload="alert(1)')


def test_dot_multi_output_trees():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(120, 3))
    Y = np.c_[X[:, 0] > 0, X[:, 1] > 0.3].astype(int)
    for est in (
        DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, Y),
        DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, X[:, :2]),
    ):
        nodes, edges, _ = parse_dot(export_graphviz(est))
        assert len(nodes) == est.tree_.node_count
        root = label_lines_of(nodes["0"]["label"])
        assert root[-1].startswith("value = [")
        assert not any(line.startswith("class = ") for line in root)


def _copy_tree(tree):
    """A plain object holding a tree's arrays (like a dtree ``Tree``)."""
    return types.SimpleNamespace(
        node_count=tree.node_count,
        children_left=np.array(tree.children_left),
        children_right=np.array(tree.children_right),
        feature=np.array(tree.feature),
        threshold=np.array(tree.threshold),
        impurity=np.array(tree.impurity),
        n_node_samples=np.array(tree.n_node_samples),
        weighted_n_node_samples=np.array(tree.weighted_n_node_samples),
        value=np.array(tree.value),
    )


def _chain_tree(depth):
    """A bare regression tree that is a chain ``depth`` splits long: each
    split sends one sample left (a leaf) and the rest right."""
    n = 2 * depth + 1
    left = np.full(n, -1)
    right = np.full(n, -1)
    feature = np.full(n, -2)
    threshold = np.full(n, -2.0)
    for k in range(depth):
        node = 2 * k
        left[node], right[node] = node + 1, node + 2
        feature[node], threshold[node] = 0, float(k) + 0.5
    samples = np.array([depth + 1 - i // 2 if i % 2 == 0 else 1 for i in range(n)])
    return types.SimpleNamespace(
        node_count=n,
        children_left=left,
        children_right=right,
        feature=feature,
        threshold=threshold,
        impurity=np.linspace(1.0, 0.0, n),
        n_node_samples=samples,
        weighted_n_node_samples=samples.astype(float),
        value=np.arange(n, dtype=float).reshape(n, 1, 1),
    )


def test_deep_trees_do_not_hit_the_recursion_limit():
    tree = _chain_tree(1500)  # deeper than Python's default recursion limit
    nodes, edges, _ = parse_dot(export_graphviz(tree))
    assert len(nodes) == tree.node_count and len(edges) == tree.node_count - 1
    text = export_text(tree, max_depth=2000, spacing=1)
    assert text.count("value: [") == 1501
    # Splits 0..9 are shown; split 10 heads a chain of 1490 splits + a leaf.
    truncated = export_text(tree, max_depth=9)
    assert truncated.count("truncated branch of depth 1491") == 1
    assert truncated.count("value: [") == 10


@pytest.mark.parametrize("module", ["_export.py", "_export_text.py", "_colours.py",
                                    "_tree_view.py"])
def test_export_modules_import_only_numpy_and_stdlib(module):
    source = Path(__file__).resolve().parents[2] / "dtree" / module
    roots = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots.add(node.module.split(".")[0])
    assert roots <= {"numpy", "functools", "math", "re", "unicodedata", "__future__"}, roots


# --------------------------------------------------------------------------
# Hostile names
# --------------------------------------------------------------------------

HOSTILE = [
    '"',
    "\\",
    '\\"',
    'end\\',
    '"]; a -> b; x [label="',
    '"]; 0 -> 0; subgraph { 99 } ; x [label="',
    "<b>x</b>",
    "<<TABLE><TR><TD>x</TD></TR></TABLE>>",
    "\\n\\l\\r\\N\\G\\E\\T\\H\\L",
    "a\nb\r\nc\td\x00e\x7f\x85",
    "}{|<>[];=,",
    "digraph graph node edge strict subgraph",
    "&amp; &lt; &#92;n &#x5c;N &#34; &quot; &",
    "中文 名字 ✓ é 🌳",
    "",
    " ",
    "  two  spaces  ",
]

names = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=20),
    st.text(alphabet=st.sampled_from(list('"\\\n<>{}|[];=-&#;NlGn ab中')), max_size=20),
    st.lists(st.sampled_from(HOSTILE), max_size=3).map("".join),
)


@functools.lru_cache(maxsize=None)
def _benign_reference(max_depth):
    est = fitted("iris", max_depth)
    features = [f"F{i}" for i in range(4)]
    classes = [f"C{i}" for i in range(3)]
    nodes, edges, _ = parse_dot(export_graphviz(est, feature_names=features, class_names=classes))
    return est, {n: label_lines_of(a["label"]) for n, a in nodes.items()}, len(edges)


def _expected_lines(benign, feature_names, class_names, extra):
    """Benign labels with the hostile names substituted in (as displayed)."""
    out = []
    for line in benign:
        m = re.fullmatch(r"F(\d) <= (.*)", line)
        if m:
            line = f"{shown(feature_names[int(m.group(1))])} <= {m.group(2)}"
        m = re.fullmatch(r"class = C(\d)", line)
        if m:
            line = f"class = {shown(class_names[int(m.group(1))])}"
        out.append(line)
    return out + [shown(s) for s in extra]


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    feature_names=st.lists(names, min_size=4, max_size=4),
    class_names=st.lists(names, min_size=3, max_size=3),
    extra=st.dictionaries(st.integers(0, 4), st.lists(names, max_size=3), max_size=3),
    highlight=st.sets(st.integers(0, 4), max_size=2),
)
def test_hostile_names_cannot_break_the_dot(feature_names, class_names, extra, highlight):
    est, benign, n_edges = _benign_reference(2)
    dot = export_graphviz(
        est,
        feature_names=feature_names,
        class_names=class_names,
        label_lines=extra,
        highlight={n: "#d62728" for n in highlight},
    )
    graphviz.Source(dot)  # must not raise
    dot.encode("utf-8")  # always encodable
    nodes, edges, _ = parse_dot(dot)
    assert len(nodes) == est.tree_.node_count
    assert len(edges) == n_edges
    expected = {
        n: _expected_lines(lines, feature_names, class_names, extra.get(int(n), []))
        for n, lines in benign.items()
    }
    for n, attrs in nodes.items():
        # Every user string is displayed verbatim (up to control characters),
        # and no attribute other than ours appears.
        assert label_lines_of(attrs["label"]) == expected[n]
        allowed = {"label", "fillcolor"} | ({"color", "penwidth"} if int(n) in highlight else set())
        assert set(attrs) - {"width"} == allowed  # (width: ours, for wide text)

    if DOT:
        svg_nodes, svg_edges = render_svg_nodes(dot)
        assert len(svg_nodes) == est.tree_.node_count
        assert svg_edges == n_edges
        for n, lines in svg_nodes.items():
            want = [normalise_svg_line(line).strip() for line in expected[n]]
            got = [normalise_svg_line(line).strip() for line in lines]
            assert [w for w in want if w] == [g for g in got if g]


def test_every_quote_in_the_dot_is_a_delimiter_or_escaped():
    est = fitted("iris", 2)
    dot = export_graphviz(
        est, feature_names=HOSTILE[:4], class_names=HOSTILE[4:7], label_lines={0: HOSTILE}
    )
    # Outside strings there is no backslash, and inside them every quote is
    # preceded by an odd number of backslashes.
    in_string, pos = False, 0
    while pos < len(dot):
        ch = dot[pos]
        if in_string and ch == "\\":
            pos += 2
            continue
        assert ch != "\\"
        if ch == '"':
            in_string = not in_string
        elif in_string:
            assert ch not in "\n\r"
        pos += 1
    assert not in_string
    labels = [a["label"] for a in parse_dot(dot)[0].values()]
    assert any("\u240a" in label for label in labels)  # the newline, displayed
    assert "&amp;amp; &amp;lt; &amp;#92;n" in dot  # entities stay literal


@needs_dot
def test_hostile_names_render_with_dot_json():
    est = fitted("iris", 3)
    dot = export_graphviz(
        est, feature_names=HOSTILE[:4], class_names=HOSTILE[4:7], label_lines={0: HOSTILE}
    )
    out = subprocess.run(
        [DOT, "-Tjson"], input=dot.encode("utf-8"), capture_output=True, check=True, timeout=60
    ).stdout
    import json

    data = json.loads(out)
    n_nodes = len(data.get("objects", [])) - data.get("_subgraph_cnt", 0)
    assert n_nodes == est.tree_.node_count
    assert len(data.get("edges", [])) == est.tree_.node_count - 1


# --------------------------------------------------------------------------
# dtree's own estimators
# --------------------------------------------------------------------------


def test_dtree_estimators_export():
    import dtree

    d = dataset("iris")
    est = dtree.DecisionTreeClassifier(max_depth=3, random_state=0).fit(d.data, d.target)
    tree = est.tree_
    nodes, edges, _ = parse_dot(export_graphviz(est, class_names=d.target_names))
    assert len(nodes) == tree.node_count and len(edges) == tree.node_count - 1
    root = label_lines_of(nodes["0"]["label"])
    assert root[1:] == ["gini = 0.667", "samples = 150", "value = [50, 50, 50]", "class = setosa"]
    n_leaves = int(np.sum(np.asarray(tree.children_left) == -1))
    assert export_text(est).count("class: ") == n_leaves

    # A replayed, compactly renumbered tree shows the full tree's node ids.
    partial = est.tree_at(2)
    dot = export_graphviz(partial, node_ids=True, class_names=d.target_names)
    nodes, _, _ = parse_dot(dot)
    assert len(nodes) == partial.node_count
    for i, shown_id in enumerate(np.asarray(partial.node_ids)):
        assert label_lines_of(nodes[str(i)]["label"])[0] == f"node #{shown_id}"

    reg = dtree.DecisionTreeRegressor(max_depth=2).fit(d.data[:, :3], d.data[:, 3])
    text = export_text(reg)
    assert text.count("value: [") == int(np.sum(np.asarray(reg.tree_.children_left) == -1))
    assert "squared_error = " in export_graphviz(reg)


def test_a_multiway_tree_can_be_drawn_without_its_estimator():
    """A tree_at(k) with three-way nodes has no children_left view; export
    reads its CSR children instead."""
    import pandas as pd

    from dtree import DecisionTreeClassifier
    frame = pd.read_csv(Path(__file__).resolve().parents[2] / "data" / "watermelon2.csv")
    X, y = frame.iloc[:, 1:-1], frame.iloc[:, -1]
    est = DecisionTreeClassifier(algorithm="id3", categorical_features=list(X.columns))
    est.fit(X, y)
    tree = est.tree_at(len(est.steps_))
    assert any(len(tree.children_of(i)) == 3 for i in range(tree.node_count))
    dot = export_graphviz(tree, feature_names=list(X.columns), categories=est.categories_)
    edges = re.findall(r"^(\d+) -> (\d+)", dot, flags=re.M)
    assert len(edges) == tree.node_count - 1


# --------------------------------------------------------------------------
# Edge widths by the rows that pass (edge_width="samples")
# --------------------------------------------------------------------------

_PENWIDTH = re.compile(r"(?:, )?penwidth=[0-9.]+(?=\])")


@pytest.mark.parametrize("name,weighted", [("iris", False), ("iris", True), ("diabetes", False)])
def test_dot_edge_width_grows_with_the_childs_share(name, weighted):
    est = fitted(name, 4, None, weighted)
    tree = est.tree_
    dot = export_graphviz(est, edge_width="samples")
    _, edges, _ = parse_dot(dot)
    weight = tree.weighted_n_node_samples
    share = {int(b): weight[int(b)] / weight[0] for _, b, _ in edges}
    width = {int(b): float(attrs["penwidth"]) for _, b, attrs in edges}
    assert len(width) == tree.node_count - 1
    for child, s in share.items():  # the documented formula, to its two decimals
        assert width[child] == pytest.approx(0.75 + 7.25 * s, abs=0.006)
    order = sorted(share, key=share.get)  # monotone in the child's share
    assert all(width[a] <= width[b] for a, b in zip(order, order[1:]))
    assert min(width.values()) >= 0.75
    # the root's children share the root's samples: their widths above the
    # minimum add up to the full span
    kids = [int(b) for a, b, _ in edges if a == "0"]
    assert sum(width[k] - 0.75 for k in kids) == pytest.approx(7.25, abs=0.02)


def test_dot_edge_width_keeps_labels_and_default_is_unchanged():
    est = fitted("iris", 3)
    plain = export_graphviz(est)
    wide = export_graphviz(est, edge_width="samples")
    assert "penwidth" not in plain
    assert export_graphviz(est, edge_width=None) == plain
    # the widths are the only difference, byte for byte
    assert _PENWIDTH.sub("", wide).replace(" []", "") == plain
    _, edges, _ = parse_dot(wide)
    root_edges = {b: attrs for a, b, attrs in edges if a == "0"}
    assert sorted(a["label"] for a in root_edges.values()) == ["False", "True"]
    assert all("penwidth" in attrs for _, _, attrs in edges)


def test_dot_edge_width_rejects_unknown_values():
    with pytest.raises(ValueError, match="edge_width"):
        export_graphviz(fitted("iris", 2), edge_width="rows")


@needs_dot
def test_dot_edge_width_renders_wider_strokes():
    est = fitted("iris", 2)
    svg = graphviz.Source(export_graphviz(est, edge_width="samples")).pipe(format="svg")
    widths = {float(w) for w in re.findall(rb'stroke-width="([0-9.]+)"', svg)}
    assert len(widths) > 2 and max(widths) > 4
