"""export_graphviz's projector options: brief boxes (details=False) and
subtrees folded into stubs (folded=...), checked against the tree's own
numbers and against a graphviz parse of the DOT."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris

from dtree import DecisionTreeClassifier, DecisionTreeRegressor, export_graphviz
from tests.helpers.dot_reader import parse_dot


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return DecisionTreeClassifier(max_depth=4, criterion="entropy").fit(X, y)


def labels(dot):
    nodes, edges, _ = parse_dot(dot)
    return {int(n): a["label"].split("\\n") for n, a in nodes.items()}, edges, nodes


def subtree(tree, node):
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(tree.children_of(n))
    return out


def test_brief_boxes_hold_the_split_or_class_and_the_counts(iris):
    tree = iris.tree_
    lines, _, _ = labels(export_graphviz(iris, details=False, node_ids=True,
                                         class_names=["setosa", "versicolor", "virginica"]))
    assert set(lines) == set(range(tree.node_count))
    counts = np.round(tree.value[:, 0, :] * tree.weighted_n_node_samples[:, None])
    for node, box in lines.items():
        assert len(box) == 2, box
        expected = "[" + ", ".join(str(int(c)) for c in counts[node]) + "]"
        assert box[1] == expected
        if tree.children_of(node):
            f = tree.feature[node]
            assert box[0].startswith(f"#{node}  feature_{f} <= "), box
        else:
            name = ["setosa", "versicolor", "virginica"][int(np.argmax(counts[node]))]
            assert box[0] == f"#{node}  {name}"


def test_brief_boxes_of_a_regressor_say_samples_and_mean_in_both_languages():
    X, y = load_iris(return_X_y=True)
    model = DecisionTreeRegressor(max_depth=1).fit(X, X[:, 0])
    for lang, samples, mean in (("en", "samples", "value"), ("zh", "样本数", "均值")):
        lines, _, _ = labels(export_graphviz(model, details=False, lang=lang))
        n = int(model.tree_.n_node_samples[1])
        m = model.tree_.value[1, 0, 0]
        assert lines[1] == [f"{samples} {n} · {mean} {m:.3f}".rstrip("0")]


def test_fractional_counts_show_one_decimal_when_brief():
    X, y = load_iris(return_X_y=True)
    w = np.linspace(0.3, 1.7, len(y))
    model = DecisionTreeClassifier(max_depth=2).fit(X, y, sample_weight=w)
    brief, _, _ = labels(export_graphviz(model, details=False))
    full, _, _ = labels(export_graphviz(model))
    counts = model.tree_.value[0, 0] * model.tree_.weighted_n_node_samples[0]
    assert brief[0][1] == "[" + ", ".join(f"{c:.1f}".rstrip("0").rstrip(".")
                                          for c in counts) + "]"
    assert any(len(v.split(".")[-1]) > 1 for v in full[0][-2].split(", ")[1:])


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_folded_node_is_one_stub_with_its_subtree_size_and_nothing_below(iris, data):
    tree = iris.tree_
    internal = [i for i in range(tree.node_count) if tree.children_of(i)]
    folded = data.draw(st.sets(st.sampled_from(internal), max_size=4))
    details = data.draw(st.booleans())
    lang = data.draw(st.sampled_from(["en", "zh"]))
    lines, edges, nodes = labels(export_graphviz(iris, details=details, folded=folded,
                                                 node_ids=True, lang=lang))
    hidden = {d for f in folded for d in subtree(tree, f) if d != f}
    drawn = set(range(tree.node_count)) - hidden
    assert set(lines) == drawn
    assert {int(b) for _, b, _ in edges} == drawn - {0}
    word = "nodes" if lang == "en" else "个结点"
    for node in drawn:
        stub = node in folded and not any(node in subtree(tree, f)[1:] for f in folded)
        style = nodes[str(node)].get("style", "")
        assert ("dashed" in style) == stub
        if stub:
            assert lines[node][0] == f"#{node}  ▸ {len(subtree(tree, node))} {word}"
            assert len(lines[node]) == 2


def test_folded_leaves_are_drawn_as_leaves_and_bad_indices_are_refused(iris):
    leaf = next(i for i in range(iris.tree_.node_count) if not iris.tree_.children_of(i))
    assert export_graphviz(iris, folded=[leaf]) == export_graphviz(iris)
    with pytest.raises(ValueError, match="folded"):
        export_graphviz(iris, folded=[iris.tree_.node_count])
    with pytest.raises(ValueError, match="folded"):
        export_graphviz(iris, folded=["x"])


def test_a_root_draws_its_subtree_alone_and_says_how_deep_it_starts(iris):
    tree = iris.tree_
    deep = max((i for i in range(tree.node_count) if tree.children_of(i)),
               key=lambda i: (tree.depth[i] if hasattr(tree, "depth") else 0, i))
    depth, node = 0, deep
    while tree.parent[node] >= 0:
        node, depth = int(tree.parent[node]), depth + 1
    for lang, above in (("en", f"▲ {depth} levels above"), ("zh", f"▲ 上方还有 {depth} 层")):
        lines, edges, _ = labels(export_graphviz(iris, root=deep, details=False, lang=lang,
                                                 node_ids=True))
        assert set(lines) == set(subtree(tree, deep))
        assert lines[deep][0] == above and lines[deep][1].startswith(f"#{deep}  ")
        assert {int(b) for _, b, _ in edges} == set(subtree(tree, deep)) - {deep}
    assert export_graphviz(iris, root=0) == export_graphviz(iris)
    with pytest.raises(ValueError, match="root"):
        export_graphviz(iris, root=tree.node_count)
