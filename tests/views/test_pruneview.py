"""The Prune page's builders (dtree.views.pruneview) against independent numbers.

* The charts' data: the path against scikit-learn's
  ``cost_complexity_pruning_path``, the leaf counts and the train/test errors
  against scikit-learn trees fitted with ``ccp_alpha``, the 1-SE choice
  recomputed from the CV table.
* The greyed full tree: the grey nodes are exactly those ``ccp_prune``
  removes, and the rest is node for node the tree scikit-learn keeps; the
  DOT stays valid for Graphviz (multiway trees, very large trees, hostile
  names included).
* Tables and formulas: hand-worked numbers (the 12-point example of
  tests/engine/test_pruning.py).
"""

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, make_classification
from sklearn.tree import DecisionTreeClassifier as SkClassifier

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views import pruneview as pv
from dtree._pruning import (ccp_cross_validate, ccp_holdout, ccp_prune, cost_complexity_table,
                            pruning_path, pruning_sequence)
from dtree._rep_pep import pessimistic_prune, reduced_error_prune

from tests.helpers.pruning_cases import make_case
from tests.helpers.treecompare import compare_trees
from tests.helpers.installed import require

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

X12 = np.arange(12, dtype=np.float64)[:, None]
Y12 = np.array([0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1])
GREY_STATEMENT = re.compile(r'^(\d+) \[fillcolor="#EEEEEE", fontcolor="#999999", '
                            r'color="#BBBBBB"\] ;$', re.M)
DECLARED = re.compile(r"^(\d+) \[label=", re.M)
EDGE = re.compile(r"^(\d+) -> (\d+)(?: \[(.*)\])? ;$", re.M)


@pytest.fixture(scope="module")
def tie_free():
    """A classification tree that dtree and scikit-learn grow identically
    (checked), and test rows from the same generator with another seed."""
    X, y, _, _, _, kw = make_case("cls", 0, "gini", {"max_depth": 4}, False)
    X_test, y_test, *_ = make_case("cls", 1, "gini", {}, False, 150)
    ours = DecisionTreeClassifier(**kw).fit(X, y)
    sk = SkClassifier(random_state=0, **kw).fit(X, y)
    assert compare_trees(ours.tree_, sk.tree_, rtol=1e-7) == 0, "precondition: no ties"
    return ours, sk, kw, X, y, X_test, y_test


@pytest.fixture
def depth2():
    est = DecisionTreeClassifier(max_depth=2).fit(X12, Y12)
    assert [est.tree_.children_of(i) for i in range(7)] == [[1, 4], [2, 3], [], [], [5, 6],
                                                           [], []]
    return est


def flat(latex):
    """A two-line aligned formula as one line (to compare with the text)."""
    text = re.sub(r"\\begin\{aligned\}|\\end\{aligned\}|&|\\\\", " ", latex)
    return " ".join(text.split())


def trace(fig, name):
    return next(t for t in fig.data if t.name == name)


def graphviz_nodes(dot):
    """Number of nodes Graphviz itself lays out (and that it parses the DOT)."""
    require(shutil.which("dot") is not None, "Graphviz's dot")
    out = subprocess.run(["dot", "-Tsvg"], input=dot.encode(), capture_output=True, check=True)
    assert not out.stderr.strip(), out.stderr
    return out.stdout.decode().count('class="node"')


# ---------------------------------------------------------------------------
# the path charts
# ---------------------------------------------------------------------------

def test_path_chart_is_sklearns_path(tie_free):
    ours, sk, _, X, y, _, _ = tie_free
    seq = pruning_sequence(ours.tree_)
    fig = pv.path_figure(seq, alpha=0.01)
    theirs = sk.cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(fig.data[0].x, theirs.ccp_alphas, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(fig.data[0].y, theirs.impurities, rtol=1e-9, atol=1e-15)
    path = pruning_path(ours.tree_)
    np.testing.assert_array_equal(fig.data[0].x, path.ccp_alphas)
    np.testing.assert_array_equal(fig.data[0].y, path.impurities)
    assert fig.layout.shapes[0].x0 == 0.01  # the current alpha
    assert fig.layout.font.size >= 16


def test_leaves_chart_counts_sklearns_leaves(tie_free):
    ours, _, kw, X, y, _, _ = tie_free
    seq = pruning_sequence(ours.tree_)
    fig = pv.leaves_figure(seq)
    for alpha, leaves in zip(fig.data[0].x, fig.data[0].y):
        sk = SkClassifier(random_state=0, ccp_alpha=max(alpha, 1e-300), **kw).fit(X, y)
        # tied alphas collapse several nodes at once: the tree at an alpha is
        # the last one listed for it
        last = np.flatnonzero(np.asarray(fig.data[0].x) == alpha)[-1]
        assert fig.data[0].y[last] == sk.get_n_leaves()
        assert leaves >= sk.get_n_leaves()


def test_error_chart_numbers_are_sklearns(tie_free):
    ours, _, kw, X, y, X_test, y_test = tie_free
    cv = ccp_cross_validate(ours, X, y, cv=5, random_state=0)
    holdout = ccp_holdout(ours, X_test, y_test)
    fig = pv.error_figure(cv, holdout, alpha=cv["alpha"].iloc[2])
    frame = pv.error_frame(cv, holdout)
    for i, alpha in enumerate(frame["alpha"]):
        sk = SkClassifier(random_state=0, ccp_alpha=max(alpha, 1e-300), **kw).fit(X, y)
        assert frame["n_leaves"][i] == sk.get_n_leaves()
        assert frame["train_error"][i] == pytest.approx(1 - sk.score(X, y), abs=1e-12)
        assert frame["test_error"][i] == pytest.approx(1 - sk.score(X_test, y_test), abs=1e-12)
    np.testing.assert_array_equal(trace(fig, "training").y, cv["train_error"])
    np.testing.assert_array_equal(trace(fig, "test").y, frame["test_error"])
    cv_trace = trace(fig, "5-fold CV ± 1 SE")
    np.testing.assert_array_equal(cv_trace.y, cv["cv_error"])
    np.testing.assert_array_equal(cv_trace.error_y.array, cv["cv_se"])
    # the top axis counts leaves, the bottom one names alphas
    assert list(fig.layout.xaxis2.ticktext) == [str(v) for v in cv["n_leaves"]]
    assert list(fig.layout.xaxis.ticktext) == pv.alpha_labels(cv["alpha"])


def _one_se_by_hand(errors, se):
    """rpart's rule written plainly: the minimum (the smaller tree on a tie,
    i.e. the larger alpha), then the smallest tree within one SE of it."""
    best = max(i for i in range(len(errors)) if errors[i] == min(errors))
    limit = errors[best] + se[best]
    return best, limit, max(i for i in range(len(errors)) if errors[i] <= limit)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_se_choice_is_ccp_cross_validates(seed):
    X, y = make_classification(n_samples=240, n_features=5, n_informative=3, flip_y=0.15,
                               random_state=seed)
    est = DecisionTreeClassifier(random_state=0).fit(X, y)
    cv = ccp_cross_validate(est, X, y, cv=5, random_state=seed)
    best, limit, chosen = pv.one_se_rule(cv)
    assert (best, chosen) == _one_se_by_hand(list(cv["cv_error"]), list(cv["cv_se"]))[::2]
    assert limit == pytest.approx(_one_se_by_hand(list(cv["cv_error"]), list(cv["cv_se"]))[1])
    assert cv["alpha"].iloc[chosen] == cv.attrs["alpha_1se"]
    fig = pv.error_figure(cv)
    star = trace(fig, "1-SE choice")
    assert list(star.x) == [chosen] and list(star.y) == [cv["cv_error"].iloc[chosen]]
    assert list(trace(fig, "minimum CV error").x) == [best]
    line = trace(fig, "min CV error + 1 SE")
    assert list(line.y) == [pytest.approx(limit)] * 2
    assert all(t.name != "test" for t in fig.data)  # no hold-out set given


def test_many_trees_get_fewer_axis_labels():
    X, y = make_classification(n_samples=800, n_features=5, flip_y=0.3, random_state=0)
    est = DecisionTreeClassifier(random_state=0).fit(X, y)
    cv = ccp_cross_validate(est, X, y, cv=3)
    fig = pv.error_figure(cv)
    ticks = np.asarray(fig.layout.xaxis.tickvals)
    assert len(cv) > 40 and 10 < len(ticks) <= 20
    # each label stays under its own tree, on both axes
    assert list(fig.layout.xaxis.ticktext) == [pv.alpha_labels(cv["alpha"])[i] for i in ticks]
    assert list(fig.layout.xaxis2.ticktext) == [str(cv["n_leaves"].iloc[i]) for i in ticks]
    assert len(trace(fig, "training").y) == len(cv)  # every tree is still drawn


def test_error_chart_in_chinese_for_a_regression_tree():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 3))
    y = X[:, 0] + rng.normal(scale=0.5, size=150)
    est = DecisionTreeRegressor(min_samples_leaf=5).fit(X, y)
    cv = ccp_cross_validate(est, X, y, cv=3)
    fig = pv.error_figure(cv, lang="zh", regression=True)
    assert fig.layout.yaxis.title.text == "均方误差"
    assert trace(fig, "训练集").y[0] == pytest.approx(np.mean((est.predict(X) - y) ** 2))
    assert "叶结点" in pv.leaves_figure(pruning_sequence(est.tree_), lang="zh").layout.title.text


# ---------------------------------------------------------------------------
# the pruned tree and the greyed full tree
# ---------------------------------------------------------------------------

def test_greyed_nodes_are_the_ones_sklearn_prunes(tie_free):
    ours, sk_full, kw, X, y, _, _ = tie_free
    tree = ours.tree_
    seq = pruning_sequence(tree)
    alphas, ks = pv.subtree_alphas(seq)
    assert len(alphas) > 4
    for alpha, k in zip(alphas, ks):
        kept = ccp_prune(tree, alpha)
        keep = np.isin(np.arange(tree.node_count), kept.node_ids)
        collapsed = [int(n) for n in kept.node_ids[kept.is_leaf()] if not tree.is_leaf()[n]]
        dot, _ = pv.greyed_dot(ours, tree, keep, collapsed=collapsed)
        grey = {int(n) for n in GREY_STATEMENT.findall(dot)}
        assert grey == set(range(tree.node_count)) - {int(n) for n in kept.node_ids}
        # every node drawn once, every edge into a grey node greyed
        assert sorted(int(n) for n in DECLARED.findall(dot)) == list(range(tree.node_count))
        for parent, child, attrs in EDGE.findall(dot):
            assert ("dashed" in (attrs or "")) == (int(child) in grey)
        # what is not grey is scikit-learn's tree for this alpha, node for node
        sk = SkClassifier(random_state=0, ccp_alpha=max(alpha, 1e-300), **kw).fit(X, y).tree_
        white = [n for n in _preorder(tree) if n not in grey]
        assert len(white) == sk.node_count
        np.testing.assert_array_equal(tree.n_node_samples[white], sk.n_node_samples)
        np.testing.assert_array_equal(tree.is_leaf()[white] | np.isin(white, collapsed),
                                      sk.children_left == -1)
        # the pruned tree's own DOT has scikit-learn's number of nodes
        pruned_dot, _ = pv.tree_dot(ours, kept)
        assert len(DECLARED.findall(pruned_dot)) == sk.node_count
        assert pruned_dot.count("(pruned)") == len(collapsed)
    assert graphviz_nodes(dot) == tree.node_count


def _preorder(tree):
    out, stack = [], [0]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(tree.children_of(n)))
    return out


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(8, 60), alpha_at=st.floats(0, 1))
def test_greyed_nodes_match_ccp_prune_property(seed, n, alpha_at):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, 3)).astype(float)
    y = rng.integers(0, 3, size=n)
    est = DecisionTreeClassifier(random_state=seed).fit(X, y)
    seq = pruning_sequence(est.tree_)
    alpha = float(np.quantile(seq.ccp_alphas, alpha_at))
    kept = ccp_prune(est.tree_, alpha)
    keep = seq.keep_mask(seq.n_steps_for(alpha))
    dot, _ = pv.greyed_dot(est, est.tree_, keep)
    grey = {int(g) for g in GREY_STATEMENT.findall(dot)}
    assert grey == set(range(est.tree_.node_count)) - {int(v) for v in kept.node_ids}
    assert est.tree_.node_count - len(grey) == kept.node_count


def test_multiway_trees_are_drawn_and_greyed():
    frame = pd.read_csv(Path(__file__).resolve().parents[2] / "data" / "watermelon2_alpha.csv")
    X, y = frame.iloc[:, 1:-1].fillna("missing"), frame.iloc[:, -1]
    est = DecisionTreeClassifier(algorithm="id3").fit(X, y)
    tree = est.tree_
    assert (tree.n_children > 2).any()
    seq = pruning_sequence(tree)
    k = len(seq) // 2
    keep = seq.keep_mask(k)
    dot, _ = pv.greyed_dot(est, tree, keep, g_by_id=dict(
        zip(seq.table_at(k)["node_id"], seq.table_at(k)["g"])))
    assert {int(g) for g in GREY_STATEMENT.findall(dot)} == set(np.flatnonzero(~keep))
    assert graphviz_nodes(dot) == tree.node_count
    step_dot, _ = pv.tree_dot(est, seq.tree_at(k), highlight={seq.steps[k].node_id: "#0072B2"})
    assert graphviz_nodes(step_dot) == seq.tree_at(k).node_count
    assert 'color="#0072B2"' in step_dot


def test_a_large_tree_is_cut_without_stray_nodes():
    X, y = make_classification(n_samples=3000, n_features=8, flip_y=0.3, random_state=0)
    est = DecisionTreeClassifier(random_state=0).fit(X, y)
    tree = est.tree_
    assert tree.node_count > 255
    seq = pruning_sequence(tree)
    keep = seq.keep_mask(len(seq) // 3)
    dot, info = pv.greyed_dot(est, tree, keep)
    assert info["depth_cut"] is not None
    drawn = {int(n) for n in DECLARED.findall(dot)}
    assert len(drawn) < tree.node_count
    grey = {int(n) for n in GREY_STATEMENT.findall(dot)}
    assert grey == drawn & set(np.flatnonzero(~keep))
    assert graphviz_nodes(dot) == len(drawn)


def test_user_text_is_escaped_in_the_dot():
    X = pd.DataFrame({'a"b\\n<i>x</i>': [0, 0, 1, 1, 2, 2.0], "ok": [1, 0, 1, 0, 1, 0.0]})
    est = DecisionTreeClassifier().fit(X, ['"q"', '"q"', "<b>", "<b>", "c\\l", "c\\l"])
    seq = pruning_sequence(est.tree_)
    dot, _ = pv.greyed_dot(est, est.tree_, seq.keep_mask(1), collapsed=[seq.steps[0].node_id])
    assert 'a\\"b\\\\n<i>x</i>' in dot and 'class = \\"q\\"' in dot
    assert graphviz_nodes(dot) == est.tree_.node_count


def test_pruned_leaves_are_labelled_in_chinese(depth2):
    seq = pruning_sequence(depth2.tree_)
    dot, _ = pv.tree_dot(depth2, seq.tree_at(1), lang="zh")
    assert dot.count("（已剪枝）") == 1 and "(pruned)" not in dot
    dot, _ = pv.greyed_dot(depth2, depth2.tree_, seq.keep_mask(1), collapsed=[1], lang="zh")
    assert dot.count("（在此剪枝）") == 1


# ---------------------------------------------------------------------------
# tables and formulas, by hand
# ---------------------------------------------------------------------------

def test_node_table_by_hand(depth2):
    # R(t) = gini * n_t / 12:  root 1/2;  nodes 1, 4: 5/18 * 6/12 = 5/36
    # R(T_t): root 2/9 (leaves 3 and 6: 4/9 * 3/12 each), nodes 1 and 4: 1/9
    # g: root (1/2 - 2/9) / 3 = 5/54, nodes 1 and 4: (5/36 - 4/36) / 1 = 1/36
    table = pv.node_table(cost_complexity_table(depth2.tree_))
    assert list(table.columns) == ["node", "R(t)", "R(T_t)", "|T_t|", "g(t)", "weakest link"]
    np.testing.assert_array_equal(table["node"], [0, 1, 4])
    np.testing.assert_allclose(table["R(t)"], [1 / 2, 5 / 36, 5 / 36])
    np.testing.assert_allclose(table["R(T_t)"], [2 / 9, 1 / 9, 1 / 9])
    np.testing.assert_array_equal(table["|T_t|"], [4, 2, 2])
    np.testing.assert_allclose(table["g(t)"], [5 / 54, 1 / 36, 1 / 36])
    np.testing.assert_array_equal(table["weakest link"], [False, True, False])
    zh = pv.node_table(cost_complexity_table(depth2.tree_), lang="zh")
    assert list(zh.columns)[0] == "结点" and list(zh.columns)[-1] == "最弱环节"


def test_cost_formulas_by_hand(depth2):
    tree = depth2.tree_
    # node 1: 6 of 12 samples, gini 5/18 = 0.2778, R = 5/36 = 0.1389
    assert flat(pv.cost_latex(tree, 1, "gini")) == (
        r"R(t) = \frac{N_t}{N}\,\mathrm{Gini}(t) = \frac{6}{12}\times 0.2778 = 0.1389")
    # its leaves: node 2 (pure, 0) and node 3 (4/9 * 3/12 = 1/9 = 0.1111)
    assert flat(pv.branch_cost_latex(tree, 1)).endswith("= 0 + 0.1111 = 0.1111")
    # g(1) = (5/36 - 1/9) / (2 - 1) = 1/36 = 0.02778
    assert flat(pv.g_latex(5 / 36, 1 / 9, 2, 1 / 36)) == (
        r"g(t) = \frac{R(t) - R(T_t)}{|T_t| - 1} = \frac{0.1389 - 0.1111}{2 - 1} = 0.02778")
    leaf, branch = pv.cost_complexity_latex(5 / 36, 1 / 9, 2, 0.01)
    assert leaf.endswith("= 0.1389 + 0.01 = 0.1489")  # 5/36 + 0.01
    assert branch.endswith(r"= 0.1111 + 0.01\times 2 = 0.1311")  # 1/9 + 0.02


def test_pep_numbers_by_hand(depth2):
    # Root: leaves 2, 3, 5, 6 misclassify 0, 1, 0, 1 -> sum 2, L = 4:
    #   E(T) = 2 + 0.5 * 4 = 4;  SE = sqrt(4 * (1 - 4/12)) = sqrt(8/3) = 1.633
    #   E(t) = 6 + 0.5 = 6.5 >= 4 + 1.633 = 5.633: keep.
    # Node 1 (5, 1): leaves 2, 3 misclassify 0 and 1 -> E(T) = 1 + 1 = 2,
    #   SE = sqrt(2 * (1 - 2/6)) = sqrt(4/3) = 1.155;  E(t) = 1 + 0.5 = 1.5 < 3.155: prune.
    record = pessimistic_prune(depth2).record
    table = pv.pep_table(record)
    np.testing.assert_array_equal(table["node"], [0, 1, 4])
    np.testing.assert_allclose(table["E(T_t)"], [4, 2, 2])
    np.testing.assert_allclose(table["SE"], [np.sqrt(8 / 3), np.sqrt(4 / 3), np.sqrt(4 / 3)])
    np.testing.assert_allclose(table["E(T_t)+SE"], [4 + np.sqrt(8 / 3), 2 + np.sqrt(4 / 3),
                                                    2 + np.sqrt(4 / 3)])
    np.testing.assert_allclose(table["E(t)"], [6.5, 1.5, 1.5])
    assert list(table["decision"]) == ["keep", "prune", "prune"]
    root = pv.pep_latex(record.iloc[0])
    assert root[0].endswith(r"= 2 + 0.5\times 4 = 4")
    assert flat(root[1]).endswith(r"\frac{4}{12}\right)} = 1.633")
    assert root[2].endswith("= 6 + 0.5 = 6.5")
    assert root[3] == (r"E(t) = 6.5 \;\geq\; E(T_t) + \mathrm{SE}(T_t) = 4 + 1.633 = 5.633")
    assert r"\;<\;" in pv.pep_latex(record.iloc[1])[3]


def test_rep_numbers_by_hand(depth2):
    # validation rows x = 2, 3, 7, 10 with labels 1, 1, 1, 1:
    #   node 1 (predicts 0): as a leaf it errs on x = 2 and 3 -> 2; its leaves: node 2
    #   (predicts 0) errs on x = 2, node 3 (predicts 0: 2 of 3) errs on x = 3 -> 2: prune.
    #   node 4 (predicts 1): no error either way: prune.
    #   root (6:6, predicts class 0): 4 errors as a leaf > 2 below: keep.
    X_val, y_val = np.array([[2.0], [3.0], [7.0], [10.0]]), np.array([1, 1, 1, 1])
    record = reduced_error_prune(depth2, X_val, y_val).record
    table = pv.rep_table(record)
    np.testing.assert_array_equal(table["node"], [1, 4, 0])
    np.testing.assert_array_equal(table["validation rows"], [2, 2, 4])
    np.testing.assert_array_equal(table["errors as subtree"], [2, 0, 2])
    np.testing.assert_array_equal(table["errors as leaf"], [2, 0, 4])
    assert list(table["decision"]) == ["prune", "prune", "keep"]
    assert pv.rep_latex(record.iloc[2]) == (
        r"e_{\mathrm{val}}(t) = 4 \;>\; e_{\mathrm{val}}(T_t) = 2")
    assert pv.rep_latex(record.iloc[0]).startswith(r"e_{\mathrm{val}}(t) = 2 \;\leq\;")
    zh = pv.rep_table(record, regression=True, lang="zh")
    assert "子树的平方误差" in zh.columns and list(zh["决定"]) == ["剪枝", "剪枝", "保留"]


def test_numbers_and_alpha_labels():
    assert pv.fmt(0.0065789473) == "0.006579" and pv.fmt(0) == "0"
    assert pv.tex(6.5789e-05) == r"6.579\times 10^{-5}" and pv.tex(3.0) == "3"
    assert pv.alpha_labels([0.0, 0.12345, 0.123456, 0.5]) == ["0", "0.12345", "0.12346", "0.5"]
    assert pv.alpha_labels([0.0, 1 / 3]) == ["0", "0.3333"]
    # alphas apart only by rounding noise: a counter instead of 17 digits
    a = 1 / 480
    assert pv.alpha_labels([0.1, a, np.nextafter(a, 1), 0.2]) == [
        "0.1", "0.002083", "0.002083 (2)", "0.2"]


def test_subtree_alphas_are_the_distinct_trees():
    X, y = load_iris(return_X_y=True)
    est = DecisionTreeClassifier(random_state=0).fit(X, y)
    seq = pruning_sequence(est.tree_)
    alphas, ks = pv.subtree_alphas(seq)
    sizes = [ccp_prune(est.tree_, a).node_count for a in alphas]
    assert sizes == sorted(set(sizes), reverse=True)  # each alpha its own, smaller tree
    assert sizes[0] == est.tree_.node_count and sizes[-1] == 1
    for a, k in zip(alphas, ks):
        assert ccp_prune(est.tree_, a).n_leaves == seq.n_leaves[k] == seq.tree_at(k).n_leaves


def test_regression_tables_and_memo():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 2))
    y = X[:, 0] ** 2 + rng.normal(scale=0.1, size=80)
    est = DecisionTreeRegressor(max_depth=4).fit(X[:60], y[:60])
    record = reduced_error_prune(est, X[60:], y[60:]).record
    table = pv.rep_table(record, regression=True)
    root = record.loc[record["node_id"] == 0].iloc[0]
    # the root as a leaf predicts the training mean: its validation squared error
    assert root["errors_after"] == pytest.approx(np.sum((y[60:] - y[:60].mean()) ** 2))
    assert "squared error as leaf" in table.columns

    class Owner:
        pass

    owner, calls = Owner(), []
    assert pv.memo(owner, "k", lambda: calls.append(1) or 5) == 5
    assert pv.memo(owner, "k", lambda: calls.append(1) or 6) == 5
    assert calls == [1] and pv.has_memo(owner, "k") and not pv.has_memo(owner, "j")


def test_a_presets_tree_is_drawn_with_the_criterion_it_used():
    """ID3/C4.5 fix their criterion (criterion_), whatever `criterion` says."""
    frame = pd.read_csv(Path(__file__).resolve().parents[2] / "data" / "watermelon2.csv")
    X, y = frame.iloc[:, 1:-1], frame.iloc[:, -1]
    model = DecisionTreeClassifier(algorithm="c4.5", categorical_features=list(X.columns))
    model.fit(X, y)
    dot, _ = pv.tree_dot(model, model.tree_)
    assert "entropy = 0.998" in dot and "gini" not in dot
    assert 'label="模糊"' in dot


# ---------------------------------------------------------------------------
# the page's choices and the formulas of a step
# ---------------------------------------------------------------------------

def test_step_latex_is_the_collapsed_nodes_costs_in_the_tree_before(depth2):
    seq = pruning_sequence(depth2.tree_)
    assert pv.step_latex(seq, 0, "gini") == []
    # step 1 collapses node 1 (g = 1/36, the first of the two weakest links)
    assert int(seq.steps[0].node_id) == 1
    cost, branch, g = (flat(line) for line in pv.step_latex(seq, 1, "gini"))
    assert cost == r"R(t) = \frac{N_t}{N}\,\mathrm{Gini}(t) = \frac{6}{12}\times 0.2778 = 0.1389"
    assert branch.endswith("= 0 + 0.1111 = 0.1111")
    assert g.endswith(r"\frac{0.1389 - 0.1111}{2 - 1} = 0.02778")
    # step 2: node 4, found by its id in the tree after step 1 (where its
    # position is no longer 4)
    assert int(seq.steps[1].node_id) == 4
    before = seq.tree_at(1)
    assert list(before.node_ids).index(4) != 4
    cost2, branch2, _ = (flat(line) for line in pv.step_latex(seq, 2, "gini"))
    assert cost2.endswith(r"\frac{6}{12}\times 0.2778 = 0.1389")
    assert branch2.endswith("= 0 + 0.1111 = 0.1111")


def test_weakest_latex_gives_g_and_both_costs(depth2):
    table = cost_complexity_table(depth2.tree_)
    weakest = table.loc[table["weakest_link"]]
    g, leaf, branch = pv.weakest_latex(weakest, 0.01)
    assert flat(g).endswith("= 0.02778")
    assert leaf.endswith("= 0.1389 + 0.01 = 0.1489")
    assert branch.endswith(r"= 0.1111 + 0.01\times 2 = 0.1311")
    assert pv.weakest_latex(weakest.iloc[:0], 0.01) == []


def test_cv_choices_only_when_cv_lists_the_same_trees():
    X, y = load_iris(return_X_y=True)
    model = DecisionTreeClassifier(random_state=0).fit(X, y)
    seq = pruning_sequence(model.tree_)
    alphas = [float(a) for a in pv.subtree_alphas(seq)[0]]
    cv = ccp_cross_validate(model, X, y, cv=3, random_state=0)
    got, alpha_1se, alpha_min = pv.cv_choices(cv, alphas)
    best, _, chosen = pv.one_se_rule(cv)
    assert got is cv
    assert alpha_1se == alphas[chosen] == cv["alpha"].iloc[chosen]
    assert alpha_min == alphas[best] == cv["alpha"].iloc[best]
    assert alpha_1se >= alpha_min  # the 1-SE tree is never larger
    assert pv.cv_choices(cv, alphas[:-1]) == (None, None, None)
    assert pv.cv_choices(None, alphas) == (None, None, None)


def test_start_alpha_keeps_the_session_then_the_link_then_the_suggestion():
    alphas = [0.0, 0.125, 0.5]
    labels = dict(zip(alphas, pv.alpha_labels(alphas)))
    assert pv.start_alpha(alphas, 0.5, 0.125, "0", labels) == 0.5
    assert pv.start_alpha(alphas, None, 0.125) == 0.125
    assert pv.start_alpha(alphas, 0.3, None) == 0.0  # not one of them: no pruning
    assert pv.start_alpha(alphas, None, 0.125, labels[0.5], labels) == 0.5
    assert pv.start_alpha(alphas, None, 0.125, "7", labels) == 0.125


def test_tree_direction_follows_the_layout_choice(depth2):
    tree = depth2.tree_
    assert pv.tree_direction("left to right", depth2, tree) == "LR"
    assert pv.tree_direction("top down", depth2, tree, fit_window=True) == "TB"
    assert tree.n_leaves == 4 and pv.tree_direction("auto", depth2, tree) == "TB"
    X, y = make_classification(n_samples=300, random_state=0)
    wide = DecisionTreeClassifier(max_leaf_nodes=12).fit(X, y)
    assert wide.tree_.n_leaves > 8 and pv.tree_direction("auto", wide, wide.tree_) == "LR"
    from dtree.views.fitting import fitting_direction
    for model in (depth2, wide):
        fitted = pv.tree_direction("auto", model, model.tree_, fit_window=True, fontsize=20,
                                   compact=True)
        assert fitted == fitting_direction(pv.tree_dot(model, model.tree_, fontsize=20,
                                                       compact=True)[0])


def test_long_lines_are_drawn_without_a_marker_per_point():
    """Up to viz.MARKED_POINTS points a line marks each one; beyond, the line
    alone (every point still in the trace), while the single marked points
    (the 1-SE choice, the minimum) keep theirs; the invisible trace that makes
    Plotly draw the top axis has two points, not one per tree."""
    from dtree.views.viz import MARKED_POINTS

    X, y = make_classification(n_samples=3000, n_features=6, flip_y=0.3, random_state=0)
    big = DecisionTreeClassifier(random_state=0).fit(X, y)
    small = DecisionTreeClassifier(random_state=0, max_leaf_nodes=12).fit(X, y)
    for est, marked in ((big, False), (small, True)):
        seq = pruning_sequence(est.tree_)
        cv = ccp_cross_validate(est, X, y, cv=5, random_state=0)
        assert (len(cv) <= MARKED_POINTS) == marked
        assert (len(seq.ccp_alphas) <= MARKED_POINTS) == marked
        fig = pv.error_figure(cv)
        lines = [(pv.path_figure(seq).data[0], len(seq.ccp_alphas)),
                 (pv.leaves_figure(seq).data[0], len(seq.ccp_alphas)),
                 (trace(fig, "training"), len(cv)), (trace(fig, "5-fold CV ± 1 SE"), len(cv))]
        for line, n_points in lines:
            assert line.mode == ("lines+markers" if marked else "lines")
            assert len(line.y) == n_points
        assert trace(fig, "1-SE choice").mode == "markers"
        top = [t for t in fig.data if t.xaxis == "x2"]
        assert len(top) == 1 and list(top[0].x) == [0, len(cv) - 1]
