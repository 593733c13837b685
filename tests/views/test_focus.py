"""Focus and context (dtree.views.focus) and the size estimate it relies on
(dtree.views.fitting): on random trees, the node a step split, its children,
the next node and the paths to them are never folded, stubs are internal
nodes and never nested, the user's folds are kept, and the drawing chosen is
readable whenever the kept nodes alone are; the estimate adds up boxes as a
tidy tree does."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtree import DecisionTreeClassifier
from dtree.views import fitting, focus, viz
from tests.helpers.app_models import app_model

WINDOW = focus.PRESENTER_WINDOW


def random_model(seed, n_classes=3, depth=7):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(300, 4)).round(2)
    y = (X[:, 0] + rng.normal(scale=0.8, size=300) > 0).astype(int) + (X[:, 1] > 0.5)
    return DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y % n_classes)


def ancestors(tree, node):
    out = []
    while tree.parent[node] >= 0:
        node = int(tree.parent[node])
        out.append(node)
    return out


def below(tree, node):
    out, todo = set(), list(tree.children_of(node))
    while todo:
        n = todo.pop()
        out.add(n)
        todo.extend(tree.children_of(n))
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), share=st.floats(0, 1), window=st.sampled_from(
    [WINDOW, (600.0, 470.0), (300.0, 200.0)]), data=st.data())
def test_the_step_stays_drawn_stubs_are_outermost_and_the_users_folds_are_kept(
        seed, share, window, data):
    model = random_model(seed)
    k = int(share * len(model.steps_))
    tree = model.tree_at(k)
    index = {int(nid): i for i, nid in enumerate(tree.node_ids)}
    internal = [i for i in range(tree.node_count) if tree.children_of(i)]
    user = data.draw(st.sets(st.sampled_from(internal), max_size=3)) if internal else set()

    def dot_for(folded):
        return viz.drawn_dot(model, tree, fontsize=20, details=False, folded=folded)[0]

    keep_open = [index[model.steps_[k - 1].node]] if k else []
    keep_drawn = [index[model.steps_[k].node]] if k < len(model.steps_) else []
    chosen = focus.focus_folds(tree, dot_for, keep_open=keep_open, keep_drawn=keep_drawn,
                               user_folded=user, window=window)
    folded = set(chosen.folded)
    assert folded <= set(internal)
    hidden = set().union(*(below(tree, f) for f in folded)) if folded else set()
    assert not folded & hidden, "a stub inside a folded subtree"
    for node in keep_open:
        assert node not in folded and node not in hidden
        assert not set(ancestors(tree, node)) & folded
    for node in keep_drawn:
        assert node not in hidden
    protected = set(keep_open) | {a for n in keep_open + keep_drawn for a in ancestors(tree, n)}
    assert (user - protected) <= folded | hidden
    estimate = fitting.text_px(dot_for(sorted(folded)), window)
    assert estimate == pytest.approx(chosen.text_px)
    if not chosen.auto:  # the user's folds, the outermost of them drawn
        assert folded == {u for u in user - protected
                          if not set(ancestors(tree, u)) & (user - protected)}
    # readable whenever the kept nodes with stubs for the rest are
    path = protected | set(keep_open)
    least = {i for i in internal if i not in path and (tree.parent[i] in path)}
    if fitting.text_px(dot_for(sorted(least)), window) >= focus.READABLE_PX:
        assert chosen.text_px >= focus.READABLE_PX


def test_a_tree_that_fits_is_not_folded_and_one_that_does_not_is():
    model = app_model("Iris", "CART", max_depth=2)
    dot, info = viz.step_dot(model, len(model.steps_), fontsize=20, details=False,
                             focus=True)
    assert info["folded"] == [] and not info["auto_folded"]
    model = app_model("Penguins", "C4.5")
    dot, info = viz.step_dot(model, len(model.steps_), fontsize=20, details=False,
                             focus=True)
    assert info["folded"] and info["auto_folded"]
    assert fitting.text_px(dot, WINDOW) >= focus.READABLE_PX
    whole, _ = viz.step_dot(model, len(model.steps_), fontsize=20, details=False)
    assert fitting.text_px(whole, WINDOW) < focus.READABLE_PX


@pytest.mark.parametrize("title, preset, depth", [("Penguins", "C4.5", 5),
                                                  ("Penguins", "CART", None),
                                                  ("Wine", "CART", None)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_step_of_the_lecture_trees_is_estimated_readable(title, preset, depth, lang):
    model = app_model(title, preset, max_depth=depth)
    for k in range(len(model.steps_) + 1):
        dot, info = viz.step_dot(model, k, fontsize=20, details=False, focus=True, lang=lang)
        assert fitting.text_px(dot, WINDOW) >= focus.READABLE_PX, (k, info["folded"])


def test_the_estimate_adds_up_boxes_as_a_tidy_tree_does():
    one = 'digraph Tree {\nnode [fontsize=20] ;\n0 [label="abcd"] ;\n}\n'
    assert fitting.drawn_extent(one) == fitting.box_size("abcd")
    chain = ('digraph Tree {\nnode [fontsize=20] ;\n0 [label="a"] ;\n1 [label="bb"] ;\n'
             '0 -> 1 ;\n}\n')
    w0, h0 = fitting.box_size("a")
    w1, h1 = fitting.box_size("bb")
    assert fitting.drawn_extent(chain, "TB") == pytest.approx(
        (max(w0, w1), h0 + h1 + fitting.RANK_GAP))
    assert fitting.drawn_extent(chain, "LR") == pytest.approx(
        (w0 + w1 + fitting.RANK_GAP, max(h0, h1)))
    # two wide leaves under a narrow parent: side by side with the gap
    pair = chain.replace("0 -> 1 ;\n", '2 [label="bb"] ;\n0 -> 1 ;\n0 -> 2 ;\n')
    assert fitting.drawn_extent(pair, "TB")[0] == pytest.approx(2 * w1 + fitting.NODE_GAP)
    # a box's own width (Chinese text) counts when wider than its characters
    wide = one.replace('"abcd"]', '"abcd", width=3.00]')
    assert fitting.drawn_extent(wide)[0] == pytest.approx(3.0 * 72 / 20)
    assert fitting.text_px(one, (1e9, 1e9)) == pytest.approx(20 * 4 / 3)  # never enlarged


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), regression=st.booleans())
def test_any_tree_of_up_to_63_nodes_is_estimated_readable_at_every_step(seed, regression):
    """Deep trees too (depth 8 to 16 here): drawn from a node on the path
    down when even the path alone is too long for the window."""
    from dtree import DecisionTreeRegressor
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(400, 5))
    y = X[:, 0] * X[:, 1] + 0.5 * rng.normal(size=400)
    model = (DecisionTreeRegressor(max_leaf_nodes=32, random_state=0).fit(X, y) if regression
             else DecisionTreeClassifier(max_leaf_nodes=32, random_state=0).fit(X, y > 0))
    assert model.tree_.node_count <= 63
    for k in range(len(model.steps_) + 1):
        dot, info = viz.step_dot(model, k, fontsize=20, details=False, focus=True)
        assert fitting.text_px(dot, WINDOW) >= focus.READABLE_PX, (k, info)
        if k:  # the node the step split is drawn, with its children
            nid = model.steps_[k - 1].node
            assert f'label="#{nid}  ' in dot or f'\\n#{nid}  ' in dot
            assert nid not in info["folded"]
