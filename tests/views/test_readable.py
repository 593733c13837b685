"""Presenter mode's trees sized for the back row, without a browser: the
window each page gives its trees and the CSS that gives their boxes the
same height, the Compare page's layouts of two to four trees, its folding
that keeps the node where the trees part, the line over each tree, and the
Prune page's trees folded to fit (the full tree with its pruned branches
greyed, and the pruned tree)."""

import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.model_selection import train_test_split

from dtree import DecisionTreeClassifier, ccp_prune, pruning_sequence
from dtree.views import compare, comparetext, focus, prunetext, pruneview as pv, viz
from tests.helpers.app_models import app_model

ROOT = Path(__file__).resolve().parents[2]
DECLARED = re.compile(r'^(\d+) \[label="((?:[^"\\]|\\.)*)"', re.M)
GREY = re.compile(r'^(\d+) \[fillcolor="#EEEEEE", fontcolor="#999999", '
                  r'color="#BBBBBB"\] ;$', re.M)
EDGE = re.compile(r"^(\d+) -> (\d+)", re.M)


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True, as_frame=True)
    return train_test_split(X, y.to_numpy(), test_size=0.25, random_state=0, stratify=y)


def drawn(dot) -> dict:
    """{DOT node: label} of the boxes a DOT draws."""
    return {int(n): label for n, label in DECLARED.findall(dot)}


def children(dot) -> dict:
    out = {}
    for parent, child in EDGE.findall(dot):
        out.setdefault(int(parent), []).append(int(child))
    return out


# -- the windows and the CSS --------------------------------------------------------------

def max_height(above_css, height=720.0, rem=22.0):
    """app.py's max-height of a tree in a box with ``--dtree-above-tree:
    above_css``, in CSS pixels on a window ``height`` high."""
    app = (ROOT / "app.py").read_text()
    rule = "max-height: calc(100vh - var(--dtree-strip) - 1.4rem - var(--dtree-above-tree"
    assert rule in app and ":root { --dtree-strip: 1.9rem; }" in app  # (what focus assumes)
    expression = f"{height} - 1.9 * {rem} - 1.4 * {rem} - ({above_css})"
    expression = (expression.replace("calc", "").replace("100vh", str(height))
                  .replace("var(--dtree-strip)", f"(1.9 * {rem})").replace("rem", f" * {rem}"))
    assert re.fullmatch(r"[0-9.()*+\- ]+", expression), expression  # numbers only
    return eval(expression)  # noqa: S307 (checked above: arithmetic only)


def test_the_grow_page_window_is_the_one_its_css_gives():
    assert focus.PRESENTER_WINDOW == pytest.approx((1236, 497.8))
    assert max_height(focus.above_tree_css(6.8)) == pytest.approx(focus.PRESENTER_WINDOW[1])


@pytest.mark.parametrize("n, columns, rows", [(1, 1, 1), (2, 2, 1), (3, 3, 1), (4, 2, 2)])
def test_compare_lays_out_up_to_three_trees_side_by_side_and_four_in_two_rows(n, columns,
                                                                               rows):
    layout = compare.presenter_layout(n)
    assert (layout.columns, layout.rows) == (columns, rows)
    width, height = layout.window
    gap = compare.PRESENTER_GAP_REM * focus.REM_PX
    assert width * columns + gap * (columns - 1) == pytest.approx(1236)
    # the CSS makes every row's boxes as high as the window said
    assert max_height(layout.above_css) == pytest.approx(height)
    # on a larger screen too: the rows share what the fixed parts leave
    above, row, under = (compare.PRESENTER_ABOVE_REM, compare.PRESENTER_ROW_REM,
                         compare.PRESENTER_UNDER_REM)
    for screen, rem in ((720, 22.0), (1080, 30.0)):
        left = screen - (1.9 + under + above + (rows - 1) * row) * rem
        assert max_height(layout.above_css, screen, rem) == pytest.approx(left / rows)


def test_four_trees_get_half_the_height_and_half_the_width():
    two, four = compare.presenter_layout(2).window, compare.presenter_layout(4).window
    assert four[0] == two[0]
    assert four[1] < two[1] / 2


def test_the_prune_windows_are_the_ones_its_css_gives():
    one, two = pv.ONE_TREE_WINDOW, pv.TWO_TREES_WINDOW
    assert one[0] == pytest.approx(1236) and two[0] == pytest.approx((1236 - 22) / 2)
    assert one[1] == two[1] == pytest.approx(max_height(pv.CCP_ABOVE_CSS))


# -- Compare: the trees folded, where they part kept ----------------------------------------

@pytest.fixture(scope="module")
def whole_wine():
    X, y = load_wine(return_X_y=True, as_frame=True)
    return X, y.to_numpy()


@pytest.fixture(scope="module")
def parting(whole_wine):
    """Two trees on all of Wine that split alike down to node 3 (root path
    0, 0, 0), where a minimum leaf size makes the second split differently."""
    X, y = whole_wine
    a = DecisionTreeClassifier(max_depth=5).fit(X, y)
    b = DecisionTreeClassifier(max_depth=5, min_samples_leaf=5).fit(X, y)
    return a, b, compare.first_divergence([a, b])


def test_the_node_where_the_trees_part_is_found_in_each_tree_at_a_step(parting):
    a, b, div = parting
    assert div.path == (0, 0, 0)
    for model, node in zip((a, b), div.nodes):
        last = model.tree_at(len(model.steps_))
        assert compare.parting_node(last, div) == node
        assert compare.parting_node(model.tree_at(1), div) is None  # not grown yet


def test_folding_keeps_the_node_where_the_trees_part_drawn_with_its_children(parting):
    a, _, div = parting
    k = len(a.steps_)
    tree = a.tree_at(k)
    node = compare.parting_node(tree, div)
    index = int(np.flatnonzero(tree.node_ids == node)[0])
    window = compare.presenter_layout(4).window
    options = dict(fontsize=20, compact=True, details=False, focus=True, window=window)
    plain, plain_info = viz.step_dot(a, k, **options)
    kept, info = viz.step_dot(a, k, keep=(node,), **options)
    # without it, the parting node is folded away (inside a stub) in this window
    assert index not in drawn(plain) and plain_info["auto_folded"]
    # with it, the node is drawn with its split and its children, and the tree
    # is still folded (elsewhere) to fit
    assert index in drawn(kept) and node not in info["folded"]
    assert sorted(children(kept)[index]) == sorted(tree.children_of(index))
    assert info["folded"] and info["auto_folded"]
    # and the page's outline finds it
    assert f'{index} [color="{compare.DIVERGENCE_COLOUR}"' in compare.highlight_dot(kept, index)


def test_brief_boxes_show_the_split_and_the_counts_only(parting):
    a, _, _ = parting
    dot, _ = viz.step_dot(a, len(a.steps_), details=False, compact=True, focus=True,
                          window=compare.presenter_layout(2).window)
    labels = drawn(dot).values()
    assert labels and not any("gini" in label or "samples" in label or "gain" in label
                              for label in labels)
    assert all(label.count("\\n") == 1 for label in labels)  # two lines each


def test_the_line_over_a_tree_puts_its_score_first(wine):
    X, X_test, y, y_test = wine
    model = DecisionTreeClassifier(max_depth=3).fit(X, y)
    profile = compare.Profile(model, X, y, X_test, y_test)
    k = profile.n_steps
    _, train, test = profile.step_scores
    tree = profile.tree(k)
    en = comparetext.tree_heading("1 · Gini", profile, k)
    assert en == (f"**1 · Gini** · test accuracy **{test[k]:.3f}** · {tree.n_leaves} leaves"
                  f" · depth {tree.max_depth}")
    zh = comparetext.tree_heading("1 · 基尼系数", profile, k, lang="zh")
    assert zh.startswith(f"**1 · 基尼系数** · 测试集准确率 **{test[k]:.3f}**")
    assert f"{tree.n_leaves} 个叶结点 · 深度 {tree.max_depth}" in zh
    # user text is escaped as the page asks; without test rows, the training score
    untested = compare.Profile(model, X, y, X_test.iloc[:0], y_test[:0])
    line = comparetext.tree_heading("a*b", untested, k, escape=lambda s: s.replace("*", r"\*"))
    assert line.startswith(rf"**a\*b** · train accuracy **{train[k]:.3f}**")


# -- Prune: the full tree alone, pruned branches greyed, folded to fit -----------------------

@pytest.fixture(scope="module")
def pruning():
    """The Prune page's full tree on Wine (17 nodes, 7 levels) and its
    weakest-link sequence."""
    model = app_model("Wine", max_depth=None)
    return model, pruning_sequence(model.tree_)


def descendants(tree, node):
    out, todo = [], list(tree.children_of(node))
    while todo:
        out.append(todo.pop())
        todo.extend(tree.children_of(out[-1]))
    return out


@pytest.mark.parametrize("step", [1, 6])
def test_the_greyed_full_tree_folds_around_the_collapsed_nodes(pruning, step):
    model, seq = pruning
    tree = seq.tree
    keep = seq.keep_mask(step)
    collapsed = prunetext.collapsed_at(seq, step)
    table = seq.table_at(step)
    weakest = [int(v) for v in table.loc[table["weakest_link"], "node_id"]]
    window = (500.0, 260.0)  # small: something must be folded
    dot, info = pv.greyed_dot(model, tree, keep, collapsed=collapsed,
                              g_by_id=prunetext.g_of(table), fontsize=20, compact=True,
                              details=False, focus=True, window=window,
                              keep_open=weakest + collapsed)
    boxes = drawn(dot)
    assert info["folded"]  # (a precondition: the window forced folds)
    for nid in collapsed + weakest:  # drawn with their children, never folded
        assert nid in boxes and nid not in info["folded"]
        assert sorted(children(dot)[nid]) == sorted(tree.children_of(nid))
    for nid in collapsed:
        assert "(pruned here)" in boxes[nid]
    # a folded node stands for its subtree: none of its descendants is drawn
    for nid in info["folded"]:
        assert "▸" in boxes[nid]
        assert not set(descendants(tree, nid)) & boxes.keys()
    # the grey nodes are exactly the drawn ones the pruning removes, a folded
    # subtree of removed nodes a grey stub
    assert {int(n) for n in GREY.findall(dot)} == {n for n in boxes if not keep[n]}
    assert all(not keep[c] for n in collapsed for c in tree.children_of(n))  # greyed
    # brief boxes: the split or class, the counts, g(t) on kept internal nodes
    for n, label in boxes.items():
        assert "gini =" not in label and "samples" not in label
        if keep[n] and tree.children_of(n) and n not in collapsed and "▸" not in label:
            assert "g(t) = " in label


def test_the_pruned_tree_is_folded_by_node_id(pruning):
    model, seq = pruning
    tree0 = seq.tree
    alpha = float(pv.subtree_alphas(seq)[0][2])
    pruned = ccp_prune(tree0, alpha)
    k = seq.n_steps_for(alpha)
    table = seq.table_at(k)
    collapsed = prunetext.collapsed_at(seq, k)
    assert (pruned.node_ids != np.arange(pruned.node_count)).any()  # (ids, not indices)
    dot, info = pv.tree_dot(model, pruned, g_by_id=prunetext.g_of(table), fontsize=20,
                            compact=True, details=False, focus=True, window=(300.0, 200.0),
                            keep_drawn=collapsed)
    index = {int(nid): i for i, nid in enumerate(pruned.node_ids)}
    assert info["folded"] and set(info["folded"]) <= set(index)
    boxes = drawn(dot)
    for nid in info["folded"]:
        assert "▸" in boxes[index[nid]]
    for nid in collapsed:  # the leaves the pruning made stay on screen
        assert index[nid] in boxes and "(pruned)" in boxes[index[nid]]
    # whole, nothing is folded
    _, whole = pv.tree_dot(model, pruned, fontsize=20, compact=True, details=False)
    assert whole["folded"] == []


def test_the_layout_is_chosen_for_the_windows_shape(pruning):
    """A deep tree: left to right in the full width, top-down in half of it."""
    model, seq = pruning
    options = dict(fontsize=20, compact=True, details=False,
                   g_by_id=prunetext.g_of(seq.table_at(0)))
    one, two = pv.ONE_TREE_WINDOW, pv.TWO_TREES_WINDOW
    wide = pv.tree_direction("auto", model, seq.tree, True, aspect=one[0] / one[1], **options)
    tall = pv.tree_direction("auto", model, seq.tree, True, aspect=two[0] / two[1], **options)
    assert (wide, tall) == ("LR", "TB")
    assert pv.tree_direction("top down", model, seq.tree, True, aspect=8.0) == "TB"
