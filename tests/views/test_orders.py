"""Depth-first, breadth-first and best-first growth compared (dtree.views.orders).

Without a leaf budget every order must end in the same tree, and that tree is
scikit-learn's (depth-first) node for node; with a budget of k leaves,
depth-first keeps the first k - 1 internal nodes in pre-order and
breadth-first the first k - 1 level by level.  A hand-worked example names
the nodes where they differ.
"""

import re
import subprocess

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier as SkClassifier

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views.orders import (ORDERS, compare_orders, expansion_rows, level_order, orders_dot,
                                path_conditions, pre_order, root_paths)
from tests.helpers.sklearn_match import sklearn_regions
from tests.helpers.treecompare import with_our_ties

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def datasets(draw):
    n = draw(st.integers(8, 60))
    d = draw(st.integers(1, 4))
    k = draw(st.integers(2, 3))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).round(3)
    y = rng.integers(0, k, size=n)
    return X, y


# ---------------------------------------------------------------------------
# A hand-worked example
# ---------------------------------------------------------------------------

# x = 0..7, y = 0 1 0 0 | 1 1 1 0.  Gini of every root threshold (weighted):
# 0.5: .429, 1.5: .500, 2.5: .467, 3.5: .375, 4.5: .467, 5.5: .500, 6.5: .429,
# so the root splits at 3.5 into L = {0 1 0 0} and R = {1 1 1 0}.
# L: thresholds 0.5 / 1.5 / 2.5 give .333 / .250 / .333, so L splits at 1.5 into
# LL = {0 1} (split again at 0.5) and LR = {0 0} (pure).  R splits at 6.5 into
# two pure leaves.  Internal nodes: root, L, LL, R.
# Pre-order: root, L, LL, R.  Level order: root, L, R, LL.
# Improvements: L: 4/8 (.375 - .25) = .0625; R: 4/8 (.375 - 0) = .1875.
HAND_X = np.arange(8, dtype=float)[:, None]
HAND_Y = np.array([0, 1, 0, 0, 1, 1, 1, 0])
ROOT, L, LL, R = (), (0,), (0, 0), (1,)


def test_hand_example_full_tree_is_the_one_worked_out():
    full = compare_orders(HAND_X, HAND_Y, {})
    assert full.all_same()
    run = full.runs["depth_first"]
    assert run.split_paths == {ROOT, L, LL, R}
    tree = run.tree
    thresholds = {p: tree.threshold[run.node_of(p)] for p in (ROOT, L, LL, R)}
    assert thresholds == {ROOT: 3.5, L: 1.5, LL: 0.5, R: 6.5}
    assert run.expansions == [ROOT, L, LL, R]
    assert full.runs["breadth_first"].expansions == [ROOT, L, R, LL]
    assert full.runs["best_first"].expansions[:3] == [ROOT, R, L]
    # the common numbering is the depth-first ids: LL is #2, R is #6
    assert full.canonical[LL] == 2 and full.canonical[R] == 6


def test_hand_example_with_a_budget_of_four_leaves():
    cmp = compare_orders(HAND_X, HAND_Y, {"max_leaf_nodes": 4})
    assert not cmp.same("depth_first", "breadth_first")
    assert cmp.only("depth_first", "breadth_first") == [LL]
    assert cmp.only("breadth_first", "depth_first") == [R]
    assert cmp.changed("depth_first", "breadth_first") == []
    assert cmp.same("breadth_first", "best_first")
    assert cmp.runs["breadth_first"].expansions == [ROOT, L, R]
    assert cmp.runs["best_first"].expansions == [ROOT, R, L]
    assert [cmp.canonical[p] for p in cmp.only("depth_first", "breadth_first")] == [2]
    assert [cmp.canonical[p] for p in cmp.only("breadth_first", "depth_first")] == [6]
    # the nodes to outline are the differing ones, as ids of each tree
    df, bf = cmp.runs["depth_first"], cmp.runs["breadth_first"]
    assert cmp.differing_nodes("depth_first", "breadth_first") == [df.node_of(LL)]
    assert cmp.differing_nodes("breadth_first", "depth_first") == [bf.node_of(R)]
    assert path_conditions(df, LL) == ["x0 <= 3.5", "x0 <= 1.5"]
    assert path_conditions(bf, R) == ["x0 > 3.5"]


def test_hand_example_with_a_budget_of_three_leaves():
    cmp = compare_orders(HAND_X, HAND_Y, {"max_leaf_nodes": 3})
    assert cmp.same("depth_first", "breadth_first")  # both: root, then L
    assert cmp.only("best_first", "depth_first") == [R]  # R improves more than L
    assert cmp.only("depth_first", "best_first") == [L]


def test_orders_dot_outlines_the_differing_nodes():
    cmp = compare_orders(HAND_X, HAND_Y, {"max_leaf_nodes": 4})
    run = cmp.runs["breadth_first"]
    dot = orders_dot(cmp, "breadth_first",
                     highlight=cmp.differing_nodes("breadth_first", "depth_first"),
                     label_lines={run.node_of(R): ['split "3" <b>']})
    node = run.node_of(R)
    line = next(x for x in dot.splitlines() if x.startswith(f"{node} [label="))
    assert 'color="#CC79A7"' in line
    assert "node #6" in line  # the common numbering, not breadth-first's own id
    assert 'split \\"3\\" <b>' in line  # label text is escaped
    outlined = [x for x in dot.splitlines() if 'color="#CC79A7"' in x]
    assert len(outlined) == 1
    assert len(re.findall(r"^\d+ \[label=", dot, flags=re.M)) == run.tree.node_count
    assert f"\n{node} [penwidth=6] ;\n}}" in dot
    svg = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True)
    assert svg.returncode == 0, svg.stderr
    assert svg.stdout.count("<g id=\"node") == run.tree.node_count


def test_orders_dot_of_a_large_tree_outlines_only_drawn_nodes():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(600, 3)), rng.integers(0, 2, 600)
    cmp = compare_orders(X, y, {}, orders=("depth_first",))
    tree = cmp.runs["depth_first"].tree
    assert tree.node_count > 255
    deepest = int(np.argmax(tree.depth))
    dot = orders_dot(cmp, "depth_first", highlight=[0, deepest])
    assert "0 [penwidth=6]" in dot and f"\n{deepest} [penwidth=6]" not in dot
    assert f"\n{deepest} [" not in dot  # not drawn, and no stray node made for it


# ---------------------------------------------------------------------------
# Properties on random data
# ---------------------------------------------------------------------------

@SETTINGS
@given(data=datasets(), depth=st.integers(1, 5), leaf=st.integers(1, 3))
def test_without_a_budget_every_order_grows_sklearns_tree(data, depth, leaf):
    X, y = data
    params = {"max_depth": depth, "min_samples_leaf": leaf, "random_state": 0}
    cmp = compare_orders(X, y, params)
    assert cmp.all_same()
    assert cmp.same("depth_first", "breadth_first")
    sk = SkClassifier(**params).fit(X, y)
    X32 = np.asarray(X, dtype=np.float32)
    for growth in ORDERS:  # every node, ties broken as dtree breaks them
        with_our_ties(cmp.runs[growth].tree, sk.tree_, X32, sklearn_regions(sk, X32, y))
    # the orders differ in sequence: depth-first expands in pre-order,
    # breadth-first level by level
    splits = cmp.runs["depth_first"].split_paths
    assert cmp.runs["depth_first"].expansions == pre_order(splits)
    assert cmp.runs["breadth_first"].expansions == level_order(splits)


@SETTINGS
@given(data=datasets(), budget=st.integers(2, 8))
def test_a_budget_keeps_the_first_splits_of_each_order(data, budget):
    X, y = data
    full = compare_orders(X, y, {"random_state": 0}, orders=("depth_first",))
    splits = full.runs["depth_first"].split_paths
    cmp = compare_orders(X, y, {"random_state": 0, "max_leaf_nodes": budget},
                         orders=("depth_first", "breadth_first"))
    assert cmp.runs["depth_first"].split_paths == set(pre_order(splits)[:budget - 1])
    assert cmp.runs["breadth_first"].split_paths == set(level_order(splits)[:budget - 1])
    # every budgeted tree is a part of the full one, split for split
    table = full.runs["depth_first"].table
    for run in cmp.runs.values():
        for path in run.split_paths:
            assert run.table[path] == table[path]
        assert run.tree.n_leaves == min(budget, full.runs["depth_first"].tree.n_leaves)
    only_df = set(cmp.only("depth_first", "breadth_first"))
    only_bf = set(cmp.only("breadth_first", "depth_first"))
    assert only_df == cmp.runs["depth_first"].split_paths - cmp.runs["breadth_first"].split_paths
    assert len(only_df) == len(only_bf)  # both made the same number of splits
    assert cmp.same("depth_first", "breadth_first") == (not only_df)


# ---------------------------------------------------------------------------
# Other trees: multiway, regression, the random splitter
# ---------------------------------------------------------------------------

def loan():
    frame = pd.read_csv("data/loan.csv", dtype=str).drop(columns="ID")
    return frame.drop(columns="类别"), frame["类别"]


def test_multiway_id3_trees_match_by_branch():
    X, y = loan()
    cmp = compare_orders(X, y, {"algorithm": "id3"})
    assert cmp.all_same()
    run = cmp.runs["breadth_first"]
    assert [len(p) for p in run.expansions] == [0, 1]  # 有自己的房子, then 有工作
    second = run.expansions[1]
    assert path_conditions(run, second) == ["有自己的房子 = 否"]
    rows = expansion_rows(cmp, "depth_first")
    assert [r["split"].split(":")[0] for r in rows] == ["有自己的房子", "有工作"]
    assert all(p is not None for p in root_paths(run.tree))
    dot = orders_dot(cmp, "depth_first", highlight=[1])
    assert 'label="否"' in dot and "有工作 = ?" in dot and "1 [penwidth=6]" in dot


@pytest.mark.parametrize("budget", [3, 4, 6])
def test_budget_prefixes_with_c45_missing_values(budget):
    """Penguins has missing values: C4.5's rule grows node by node with
    fractional weights, and the budget still keeps each order's first splits."""
    frame = pd.read_csv("data/penguins.csv")
    X, y = frame.drop(columns="species"), frame["species"]
    params = {"algorithm": "c4.5", "max_depth": 4}
    splits = compare_orders(X, y, params, orders=("depth_first",)).runs["depth_first"].split_paths
    cmp = compare_orders(X, y, {**params, "max_leaf_nodes": budget})
    assert cmp.runs["depth_first"].split_paths == set(pre_order(splits)[:budget - 1])
    assert cmp.runs["breadth_first"].split_paths == set(level_order(splits)[:budget - 1])
    for growth in ORDERS:
        orders_dot(cmp, growth, highlight=cmp.differing_nodes(growth, "depth_first"))


def test_regression_trees_compare_too():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 2))
    y = X[:, 0] ** 2 + rng.normal(scale=0.1, size=80)
    cmp = compare_orders(X, y, {"max_depth": 4}, estimator=DecisionTreeRegressor)
    assert cmp.all_same()
    cmp = compare_orders(X, y, {"max_leaf_nodes": 5}, estimator=DecisionTreeRegressor)
    assert all(run.tree.n_leaves == 5 for run in cmp.runs.values())


def test_random_splitter_differences_are_reported_not_hidden():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    cmp = compare_orders(X, y, {"splitter": "random", "random_state": 1, "max_depth": 4})
    a, b = "depth_first", "breadth_first"
    same = cmp.runs[a].table == cmp.runs[b].table
    assert cmp.same(a, b) == same
    if not same:
        assert cmp.only(a, b) or cmp.changed(a, b)


def test_models_keep_their_parameters():
    cmp = compare_orders(HAND_X, HAND_Y, {"max_leaf_nodes": 4, "growth": "best_first"})
    for growth, run in cmp.runs.items():
        assert isinstance(run.model, DecisionTreeClassifier)
        assert run.model.growth_ == growth
        assert run.model.max_leaf_nodes == 4
    assert cmp.budget == 4


@pytest.mark.parametrize("budget", [None, 3])
def test_paths_are_unique_and_prefix_closed(budget):
    rng = np.random.default_rng(5)
    X, y = rng.normal(size=(50, 2)), rng.integers(0, 2, 50)
    cmp = compare_orders(X, y, {"max_leaf_nodes": budget})
    for run in cmp.runs.values():
        paths = run.paths
        assert len(set(paths)) == len(paths) == run.tree.node_count
        assert all(p[:-1] in set(paths) for p in paths if p)
