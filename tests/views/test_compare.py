"""dtree.views.compare: matching nodes across trees, the first divergence, score
curves against depth and leaves, the agreement matrix and the impurity
curves, each checked against an independent computation (scikit-learn refits,
direct predictions, hand formulas)."""

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, make_classification, make_regression
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier as SkClassifier
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views import compare, viz
from dtree.tables.io import load_builtin
from tests.helpers.installed import require


# -- data ---------------------------------------------------------------------------


def known_divergence_data():
    """600 rows, three classes.  The root split xr <= 0.5 isolates class C for
    every criterion.  At the A/B node (400 rows, 200 each):

    * x0 <= 1.5 gives (151 A, 49 B) | (49 A, 151 B): misclassification
      0.245, Gini 2 * 0.755 * 0.245 = 0.36995;
    * x1 <= 0.5 gives (100 A, 200 B) | (100 A, 0 B): misclassification
      0.75 * 1/3 = 0.25, Gini 0.75 * 4/9 = 0.3333;

    so Gini (and entropy: 0.8033 against 0.75 * 0.9183 = 0.6887) split on x1
    and misclassification on x0.
    """
    c = [dict(x0=1.5, x1=0.5, xr=0.0, y="C")] * 200
    a = [dict(x0=1.0 if i < 151 else 2.0, x1=float(i % 2 == 0), xr=1.0, y="A")
         for i in range(200)]
    b = [dict(x0=1.0 if i < 49 else 2.0, x1=0.0, xr=1.0, y="B") for i in range(200)]
    frame = pd.DataFrame(c + a + b)
    return frame[["x0", "x1", "xr"]], frame["y"].to_numpy()


def hand_children_impurity(criterion, counts_left, counts_right):
    def imp(c):
        p = np.asarray(c, float) / np.sum(c)
        if criterion == "gini":
            return 1 - np.sum(p ** 2)
        return 1 - np.max(p)
    n_l, n_r = sum(counts_left), sum(counts_right)
    return (n_l * imp(counts_left) + n_r * imp(counts_right)) / (n_l + n_r)


def iris_split():
    X, y = load_iris(return_X_y=True, as_frame=True)
    return train_test_split(X, y.to_numpy(), test_size=0.3, random_state=1, stratify=y)


def tie_free_split(n=300, seed=0):
    """Continuous features (no ties between features' gains)."""
    X, y = make_classification(n_samples=n, n_features=5, n_informative=3, n_redundant=0,
                               random_state=seed)
    X = pd.DataFrame(X, columns=[f"f{i}" for i in range(5)])
    return train_test_split(X, y, test_size=0.3, random_state=seed)


def three_category_data():
    """A categorical feature with three categories: ID3 splits it three ways."""
    rng = np.random.default_rng(0)
    colour = rng.choice(["red", "green", "blue"], size=120)
    size = rng.normal(size=120)
    y = np.where(colour == "red", "a", np.where(colour == "green", "b", "c"))
    flip = rng.random(120) < 0.15
    y = np.where(flip, np.where(size > 0, "a", "c"), y)
    return pd.DataFrame({"colour": colour, "size": size}), y


# -- matching nodes ------------------------------------------------------------------


def test_root_path_and_node_at_are_inverse_on_every_node():
    X, y = known_divergence_data()
    tree = DecisionTreeClassifier(max_depth=4).fit(X, y).tree_
    for node in range(tree.node_count):
        path = compare.root_path(tree, node)
        assert compare.node_at(tree, path) == node
        assert len(path) == tree.depth[node]
    assert compare.node_at(tree, (1, 1, 1, 1, 1, 1)) is None


def test_matching_is_by_what_a_branch_holds_not_its_position():
    # ID3 splits ear shape one branch per category (floppy first); CART with
    # Gini makes the subset split {pointy} | {floppy}: the same groups, in the
    # other order, so the children must still match
    frame = load_builtin("Cats (lecture example)")
    X, y = frame.drop(columns="cat"), frame["cat"]
    id3 = DecisionTreeClassifier(algorithm="id3", categorical_features=[0, 1, 2]).fit(X, y)
    cart = DecisionTreeClassifier(categorical_features=[0, 1, 2]).fit(X, y)
    assert id3.tree_.children_of(0) and cart.tree_.children_of(0)
    floppy = compare.root_path(id3.tree_, id3.tree_.children_of(0)[0])
    cart_floppy = compare.node_at(cart.tree_, floppy)
    # the same rows reach both nodes
    assert np.array_equal(id3.decision_path(X).toarray()[:, id3.tree_.children_of(0)[0]],
                          cart.decision_path(X).toarray()[:, cart_floppy])
    assert compare.first_divergence([id3, cart]) is None


# -- the first divergence --------------------------------------------------------------


def test_identical_configurations_do_not_diverge():
    X, y = known_divergence_data()
    a = DecisionTreeClassifier(criterion="gini", max_depth=3).fit(X, y)
    b = DecisionTreeClassifier(criterion="gini", max_depth=3).fit(X, y)
    assert compare.first_divergence([a, b]) is None
    text = compare.divergence_text(None, [a, b], ["A", "B"])
    assert "identical" in text


def test_divergence_found_at_the_constructed_node():
    X, y = known_divergence_data()
    # the constructed numbers: Gini prefers x1, misclassification x0
    assert hand_children_impurity("gini", [100, 200], [100, 0]) < \
        hand_children_impurity("gini", [151, 49], [49, 151])
    assert hand_children_impurity("mis", [151, 49], [49, 151]) < \
        hand_children_impurity("mis", [100, 200], [100, 0])
    models = [DecisionTreeClassifier(criterion=c, max_depth=2).fit(X, y)
              for c in ("gini", "entropy", "misclassification")]
    div = compare.first_divergence(models)
    assert div is not None
    assert div.path == (1,)  # the root's second branch: xr > 0.5, the A/B rows
    assert div.n_shared == 1
    features = [sig[0] for sig in div.signatures]
    assert features == [1, 1, 0]  # x1, x1, x0
    for model, node in zip(models, div.nodes):
        assert model.tree_.n_node_samples[node] == 400
    assert div.steps == [1, 1, 1]
    assert compare.divergence_step(div) == 2
    # Gini and entropy alone agree everywhere (depth 2)
    assert compare.first_divergence(models[:2]) is None
    text = compare.divergence_text(div, models, ["G", "E", "M"])
    assert "agree on the first split" in text
    assert "xr > 0.5" in text
    assert "G splits on x1 ≤ 0.5" in text and "M splits on x0 ≤ 1.5" in text
    zh = compare.divergence_text(div, models, ["G", "E", "M"], lang="zh")
    assert "前 1 次划分相同" in zh and "按 x0 ≤ 1.5 划分" in zh


def test_a_leaf_against_a_split_is_a_divergence():
    X_train, _, y_train, _ = iris_split()
    shallow = DecisionTreeClassifier(max_depth=1).fit(X_train, y_train)
    deep = DecisionTreeClassifier(max_depth=3).fit(X_train, y_train)
    div = compare.first_divergence([shallow, deep])
    # pre-order of the shallow tree: root (same split), then its first child,
    # then its second; the first of them that the deep tree splits
    tree = deep.tree_
    expected = next(c for c in tree.children_of(0) if tree.children_of(c))
    assert div.nodes[1] == expected
    assert div.signatures[0] is None and div.signatures[1][0] == tree.feature[expected]
    assert div.n_shared == 1
    text = compare.divergence_text(div, [shallow, deep], ["S", "D"])
    assert "S makes it a leaf" in text


def test_divergence_at_a_multiway_node():
    X, y = three_category_data()
    id3 = DecisionTreeClassifier(algorithm="id3", categorical_features=[0], max_depth=2).fit(X, y)
    cart = DecisionTreeClassifier(categorical_features=[0], max_depth=2).fit(X, y)
    assert len(id3.tree_.children_of(0)) == 3
    div = compare.first_divergence([id3, cart])
    assert div.path == () and div.n_shared == 0
    assert div.signatures[0][1] == "categorical"
    text = compare.divergence_text(div, [id3, cart], ["ID3", "CART"])
    assert "differ from the first split" in text and "at the root" in text
    assert "blue | green | red" in text


def test_divergence_text_escapes_user_text():
    X, y = known_divergence_data()
    X = X.rename(columns={"x0": "a*b_[x]", "xr": "<r>"})
    models = [DecisionTreeClassifier(criterion=c, max_depth=2).fit(X, y)
              for c in ("gini", "misclassification")]
    div = compare.first_divergence(models)
    seen = []

    def escape(text):
        seen.append(text)
        return "«" + text + "»"
    text = compare.divergence_text(div, models, ["G", "M"], escape=escape)
    assert "«<r>» «> 0.5»" in text
    assert "«a*b_[x]»" in text
    assert "a*b_[x] ≤" not in text


def test_highlight_dot_adds_a_border_that_graphviz_draws():
    X_train, _, y_train, _ = iris_split()
    model = DecisionTreeClassifier(max_depth=3).fit(X_train, y_train)
    dot, _ = viz.step_dot(model, 2)
    out = compare.highlight_dot(dot, 2)
    assert out.rstrip().endswith("}")
    assert re.search(r'^2 \[color="#CC79A7", penwidth=7\] ;$', out, flags=re.M)
    assert compare.highlight_dot(dot, 99) == dot  # no such node: unchanged
    require(shutil.which("dot") is not None, "Graphviz's dot")
    svg = subprocess.run(["dot", "-Tsvg"], input=out.encode(), capture_output=True,
                         check=True).stdout.decode()
    node2 = svg[svg.index("<title>2</title>"):]
    node2 = node2[:node2.index("</g>")]
    assert 'stroke="#cc79a7"' in node2.lower() and 'stroke-width="7"' in node2
    # only one node of the drawing is outlined that way
    assert svg.lower().count('stroke="#cc79a7"') == 1


# -- score curves ---------------------------------------------------------------------------


# Leaves of at least 5 rows: on continuous data two splits of a node then
# rarely tie exactly, so scikit-learn makes the same choices (where two splits
# tie, either is right and the trees may differ).
SK_LEAF = 5


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_depth_curve_is_the_refit_with_max_depth_and_matches_sklearn(criterion):
    X_train, X_test, y_train, y_test = tie_free_split()
    model = DecisionTreeClassifier(criterion=criterion, min_samples_leaf=SK_LEAF).fit(
        X_train, y_train)
    profile = compare.Profile(model, X_train, y_train, X_test, y_test)
    depths, leaves, train, test = profile.depth_scores
    assert depths[-1] == model.get_depth() and len(depths) >= 5
    # depth 0: the majority class of the training rows
    values, counts = np.unique(y_train, return_counts=True)
    majority = values[np.argmax(counts)]
    assert train[0] == pytest.approx(np.mean(y_train == majority))
    assert test[0] == pytest.approx(np.mean(y_test == majority))
    for d in depths[1:]:
        cut = compare.truncate(model.growth_tree_, d)
        got = compare.tree_predict(model, cut, compare.encoded(model, X_test))
        refit = DecisionTreeClassifier(criterion=criterion, max_depth=int(d),
                                       min_samples_leaf=SK_LEAF).fit(X_train, y_train)
        sk = SkClassifier(criterion=criterion, max_depth=int(d), min_samples_leaf=SK_LEAF,
                          random_state=0).fit(X_train.astype(np.float32), y_train)
        assert np.array_equal(got, refit.predict(X_test))
        if d <= 3:  # deeper, small nodes may tie exactly between two splits
            assert np.array_equal(got, sk.predict(X_test.astype(np.float32)))
        assert train[d] == pytest.approx(sk.score(X_train.astype(np.float32), y_train))
        assert test[d] == pytest.approx(sk.score(X_test.astype(np.float32), y_test))
        assert leaves[d] == sk.get_n_leaves()


def test_depth_curve_of_a_regressor_matches_sklearn_r2():
    X, y = make_regression(n_samples=200, n_features=4, noise=5.0, random_state=0)
    X = pd.DataFrame(X, columns=list("abcd")).astype(np.float32)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
    model = DecisionTreeRegressor(min_samples_leaf=SK_LEAF).fit(X_train, y_train)
    depths, leaves, train, test = compare.Profile(model, X_train, y_train, X_test,
                                                  y_test).depth_scores
    assert len(depths) >= 5
    assert train[0] == pytest.approx(0.0, abs=1e-12)  # the mean of y_train
    for d in depths[1:]:
        sk = SkRegressor(max_depth=int(d), min_samples_leaf=SK_LEAF, random_state=0).fit(
            X_train, y_train)
        assert train[d] == pytest.approx(sk.score(X_train, y_train))
        assert test[d] == pytest.approx(sk.score(X_test, y_test))
        assert leaves[d] == sk.get_n_leaves()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), criterion=st.sampled_from(["gini", "entropy",
                                                             "misclassification",
                                                             "taylor2"]))
def test_truncated_tree_predicts_like_the_refit(seed, criterion):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 5, size=(80, 3)).astype(float), columns=list("abc"))
    y = rng.integers(0, 3, size=80)
    model = DecisionTreeClassifier(criterion=criterion).fit(X, y)
    for d in range(1, model.get_depth() + 1):
        cut = compare.truncate(model.tree_, d)
        refit = DecisionTreeClassifier(criterion=criterion, max_depth=d).fit(X, y)
        got = compare.tree_predict(model, cut, compare.encoded(model, X))
        assert np.array_equal(got, refit.predict(X))


def test_leaves_curve_counts_the_leaves_of_every_step():
    X_train, X_test, y_train, y_test = iris_split()
    model = DecisionTreeClassifier(growth="best_first", max_leaf_nodes=7).fit(X_train, y_train)
    profile = compare.Profile(model, X_train, y_train, X_test, y_test)
    leaves, train, test = profile.step_scores
    assert list(leaves) == [model.tree_at(k).n_leaves for k in range(profile.n_steps + 1)]
    assert list(leaves) == list(range(1, profile.n_steps + 2))  # binary: k + 1
    for k in range(profile.n_steps + 1):
        tree = model.tree_at(k)
        best = model.classes_[np.argmax(tree.value[:, 0, :], axis=1)]
        assert train[k] == pytest.approx(np.mean(best[tree.apply(
            compare.encoded(model, X_train))] == y_train))
        assert test[k] == pytest.approx(np.mean(profile.test_predictions(k) == y_test))
    assert train[-1] == pytest.approx(model.score(X_train, y_train))
    assert test[-1] == pytest.approx(model.score(X_test, y_test))


def test_a_profile_keeps_only_the_last_trees():
    X_train, X_test, y_train, y_test = tie_free_split()
    model = DecisionTreeClassifier().fit(X_train, y_train)
    profile = compare.Profile(model, X_train, y_train, X_test, y_test)
    assert profile.n_steps > compare.KEEP
    for k in range(profile.n_steps + 1):
        assert profile.tree(k).n_leaves == k + 1
        assert len(profile.test_predictions(k)) == len(y_test)
    assert len(profile._trees) == compare.KEEP == len(profile._predictions)
    assert profile.tree(0).node_count == 1  # recomputed after being dropped


def test_leaves_of_multiway_steps():
    X, y = three_category_data()
    model = DecisionTreeClassifier(algorithm="id3", categorical_features=[0]).fit(X, y)
    counts = compare.leaf_counts(model)
    assert counts[1] == 3  # the root split three ways
    assert list(counts) == [model.tree_at(k).n_leaves for k in range(len(model.steps_) + 1)]


# -- agreement ---------------------------------------------------------------------------------


def test_agreement_matrix_matches_direct_predictions():
    X_train, X_test, y_train, y_test = tie_free_split(seed=3)
    models = [DecisionTreeClassifier(criterion=c, max_depth=4).fit(X_train, y_train)
              for c in ("gini", "entropy", "misclassification", "taylor2")]
    profiles = [compare.Profile(m, X_train, y_train, X_test, y_test) for m in models]
    final = [p.test_predictions(p.n_steps) for p in profiles]
    for p, m, pred in zip(profiles, models, final):
        assert np.array_equal(pred, m.predict(X_test))
    matrix = compare.agreement_matrix(final)
    for i, a in enumerate(models):
        for j, b in enumerate(models):
            assert matrix[i, j] == pytest.approx(np.mean(a.predict(X_test) == b.predict(X_test)))
    assert np.allclose(np.diag(matrix), 1) and np.allclose(matrix, matrix.T)
    # at step 1 every tree has two leaves: compare with their own predictions
    first = [p.test_predictions(1) for p in profiles]
    for p, pred in zip(profiles, first):
        assert np.mean(pred == y_test) == pytest.approx(p.step_scores[2][1])


def test_agreement_of_regressors_is_the_mean_absolute_difference():
    X, y = make_regression(n_samples=150, n_features=3, random_state=1)
    X = pd.DataFrame(X, columns=list("abc"))
    a = DecisionTreeRegressor(max_depth=3).fit(X, y)
    b = DecisionTreeRegressor(criterion="absolute_error", max_depth=3).fit(X, y)
    matrix = compare.agreement_matrix([a.predict(X), b.predict(X)], classification=False)
    assert matrix[0, 1] == pytest.approx(np.mean(np.abs(a.predict(X) - b.predict(X))))
    assert matrix[0, 0] == 0 and matrix[1, 0] == matrix[0, 1]
    assert np.isnan(compare.agreement_matrix([np.zeros(0), np.zeros(0)])).all()


# -- impurity curves ---------------------------------------------------------------------------


def test_impurity_curves_are_the_hand_formulas():
    p = np.linspace(0, 1, 101)
    curves = compare.impurity_curves(p)
    q = 1 - p
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(np.where(p > 0, p * np.log2(p), 0) + np.where(q > 0, q * np.log2(q), 0))
    assert np.allclose(curves["entropy"], h)
    assert np.allclose(curves["half_entropy"], h / 2)
    assert np.allclose(curves["gini"], 2 * p * q)
    assert np.allclose(curves["misclassification"], np.minimum(p, q))
    assert np.allclose(curves["taylor2"], p * (q + q ** 2 / 2) + q * (p + p ** 2 / 2))
    at = compare.impurity_curves([0.5, 0.25, 0.0])
    assert at["entropy"][0] == pytest.approx(1.0)
    assert at["gini"][0] == pytest.approx(0.5)
    assert at["misclassification"][0] == pytest.approx(0.5)
    assert at["taylor2"][0] == pytest.approx(2 * 0.5 * (0.5 + 0.125))  # 0.625
    assert at["entropy"][1] == pytest.approx(0.8112781244591328)
    assert at["gini"][1] == pytest.approx(0.375)
    assert at["taylor2"][1] == pytest.approx(0.25 * (0.75 + 0.28125) + 0.75 * (0.25 + 0.03125))
    assert all(at[k][2] == pytest.approx(0.0) for k in at)


def test_node_share_two_classes_and_majority():
    frame = load_builtin("Cats (lecture example)")
    X, y = frame.drop(columns="cat"), frame["cat"]
    cats = DecisionTreeClassifier(categorical_features=[0, 1, 2]).fit(X, y)
    p, two = compare.node_share(cats, 0)
    assert two and p == pytest.approx(np.mean(y == 1))  # Ng's p1 = 5/10
    X_train, _, y_train, _ = iris_split()
    iris = DecisionTreeClassifier(max_depth=2).fit(X_train, y_train)
    node = iris.steps_[1].node
    rows = iris.decision_path(X_train).toarray()[:, node].astype(bool)
    p, two = compare.node_share(iris, node)
    assert not two
    assert p == pytest.approx(np.max(np.bincount(y_train[rows])) / rows.sum())


def test_impurity_figure_draws_the_engine_values_and_marks_p():
    fig = compare.impurity_figure(0.25, lang="en")
    lines = [t for t in fig.data if t.mode == "lines"]
    assert len(lines) == 5
    gini = next(t for t in lines if t.name.startswith("Gini"))
    x = np.asarray(gini.x)
    assert np.allclose(gini.y, 2 * x * (1 - x))
    assert gini.name == "Gini: 0.375"
    marks = [t for t in fig.data if t.mode == "markers"]
    assert all(list(t.x) == [0.25] for t in marks) and len(marks) == 5
    zh = compare.impurity_figure(0.5, lang="zh")
    assert any(t.name.startswith("基尼系数") for t in zh.data if t.name)
    assert compare.impurity_figure(None).data[0].mode == "lines"


def test_figures_use_large_fonts_and_escape_labels():
    X_train, X_test, y_train, y_test = iris_split()
    models = [DecisionTreeClassifier(criterion=c, max_depth=3).fit(X_train, y_train)
              for c in ("gini", "entropy")]
    profiles = [compare.Profile(m, X_train, y_train, X_test, y_test) for m in models]
    labels = ["<b>one</b>", "two"]
    fig = compare.scores_figure(profiles, labels, 2)
    assert fig.layout.font.size >= 16 and fig.layout.xaxis.tickfont.size >= 16
    names = {t.name for t in fig.data if t.showlegend is not False}
    assert "&lt;b&gt;one&lt;/b&gt;" in names and "<b>one</b>" not in names
    assert {"train", "test"} <= names
    colours = {t.line.color for t in fig.data if t.name == "two"}
    assert colours == {compare.CONFIG_COLOURS[1]}
    matrix = compare.agreement_matrix([p.test_predictions(2) for p in profiles])
    heat = compare.agreement_figure(matrix, labels)
    assert heat.data[0].x[0] == "&lt;b&gt;one&lt;/b&gt;"
    assert heat.data[0].text[0][1] == format(matrix[0, 1], ".2f")
    assert heat.layout.font.size >= 16


# -- choosing trees that part (the Compare page's defaults) --------------------------

DEFAULT_PARAMS = dict(splitter="best", growth="depth_first", max_depth=5,
                      min_samples_split=2, min_samples_leaf=1, max_leaf_nodes=None,
                      min_impurity_decrease=0.0, random_state=0)


def builtin_fitter(title):
    """fit(algorithm, criterion, params) on a built-in dataset as the app
    prepares it by default (all columns but identifiers, its test fraction,
    seed 0)."""
    from dtree.tables.io import BUILTIN
    from dtree.tables.prepare import (Setup, estimator_for, identifier_columns, infer_task,
                                      infer_types, prepare)
    spec, frame = BUILTIN[title], load_builtin(title)
    others = [c for c in frame.columns if c != spec.target]
    skip = set(identifier_columns(frame))
    features = tuple(c for c in others if c not in skip) or tuple(others)
    types, _ = infer_types(frame)
    setup = Setup(spec.target, features,
                  tuple(c for c in features if types[c] == "categorical"),
                  infer_task(frame[spec.target]), spec.test_size, 0)
    prep = prepare(frame, setup)

    def fit(algorithm, criterion, params):
        p = prep.complete_rows() if algorithm == "ID3" else prep
        return estimator_for(setup.task, algorithm, criterion, p, **params).fit(
            p.X_train, p.y_train)
    return fit


# Measured with the app's default parameters (max_depth 5): the first pair of
# CLASSIFICATION_PAIRS whose trees part on each built-in dataset, the change
# it needed and the step where the trees part.  Iris grows the same tree with
# every criterion and algorithm at any depth unless leaves hold 5 or more rows
# (then misclassification parts from the rest at step 3); the cats' table
# grows one tree whatever is tried.
EXPECTED_DEFAULTS = {
    "Iris": ((("CART", "gini"), ("CART", "misclassification")), {"min_samples_leaf": 5}, 3),
    "Wine": ((("CART", "gini"), ("CART", "entropy")), {}, 1),
    "Penguins": ((("CART", "gini"), ("CART", "entropy")), {}, 3),
    "Cats (lecture example)": None,
    "Loan applications (Li Hang)": ((("CART", "gini"), ("CART", "misclassification")), {}, 1),
    "PlayTennis (Quinlan, Mitchell)": ((("CART", "gini"), ("C4.5", "gain_ratio")), {}, 1),
    "Watermelon 2.0 (Zhou Zhihua)": ((("ID3", "entropy"), ("C4.5", "gain_ratio")), {}, 2),
    "Watermelon 2.0α, missing values (Zhou Zhihua)": (
        (("ID3", "entropy"), ("C4.5", "gain_ratio")), {}, 1),
}


@pytest.mark.parametrize("title", list(EXPECTED_DEFAULTS))
def test_find_parting_on_the_builtin_datasets(title):
    fit = builtin_fitter(title)
    found = compare.find_parting(compare.CLASSIFICATION_PAIRS, fit, DEFAULT_PARAMS)
    expected = EXPECTED_DEFAULTS[title]
    if expected is None:
        assert found is None
        return
    configs, changes, step = expected
    assert (found.configs, found.changes, found.step) == (configs, changes, step)
    assert found.params == {**DEFAULT_PARAMS, **changes}
    # the trees it names do part, at that step; every earlier candidate does not
    models = [fit(a, c, found.params) for a, c in found.configs]
    div = compare.first_divergence(models)
    assert div is not None and compare.divergence_step(div) == step


def test_find_parting_tries_every_pair_before_changing_a_parameter():
    calls = []

    def fit(algorithm, criterion, params):
        calls.append((algorithm, criterion, params["max_depth"], params["min_samples_leaf"]))
        return builtin_fitter("Iris")(algorithm, criterion, params)
    found = compare.find_parting(compare.CLASSIFICATION_PAIRS, fit, DEFAULT_PARAMS)
    assert found.changes == {"min_samples_leaf": 5}
    n = 2 * len(compare.CLASSIFICATION_PAIRS)
    assert {c[2:] for c in calls[:n]} == {(5, 1)}  # the page's parameters first
    assert {c[2:] for c in calls[n:2 * n]} == {(None, 1)}  # then no depth limit
    # an adjustment that changes nothing is not tried twice
    cats = builtin_fitter("Cats (lecture example)")
    tried = []

    def counting(algorithm, criterion, params):
        tried.append(params["max_depth"])
        return cats(algorithm, criterion, params)
    again = compare.find_parting(compare.CLASSIFICATION_PAIRS, counting,
                                 dict(DEFAULT_PARAMS, max_depth=None),
                                 adjustments=({}, {"max_depth": None}))
    assert again is None and len(tried) == 2 * len(compare.CLASSIFICATION_PAIRS)


def test_find_parting_skips_trees_that_cannot_be_grown():
    fit = builtin_fitter("Wine")

    def refusing(algorithm, criterion, params):
        return None if criterion == "entropy" and algorithm == "CART" else \
            fit(algorithm, criterion, params)
    found = compare.find_parting(compare.CLASSIFICATION_PAIRS, refusing, DEFAULT_PARAMS)
    assert found.configs == (("ID3", "entropy"), ("C4.5", "gain_ratio"))


# -- the page's choice of columns -----------------------------------------------------------


def test_poisson_is_allowed_on_non_negative_targets_with_a_positive_sum():
    assert compare.poisson_allowed("regression", [0.0, 1.0, 3.0])
    assert not compare.poisson_allowed("regression", [-1.0, 2.0])
    assert not compare.poisson_allowed("regression", [0.0, 0.0])
    assert not compare.poisson_allowed("regression", [])
    assert not compare.poisson_allowed("classification", ["a", "b"])


def test_pairs_and_more_configs_leave_out_poisson_when_it_cannot_grow():
    assert compare.pairs_for("classification") == compare.CLASSIFICATION_PAIRS
    assert compare.pairs_for("regression", True) == compare.REGRESSION_PAIRS
    without = compare.pairs_for("regression", False)
    assert len(without) == len(compare.REGRESSION_PAIRS) - 1
    assert all(c != "poisson" for pair in without for _, c in pair)
    assert [c for _, c in compare.more_configs("regression", False)] == \
        ["squared_error", "absolute_error", "friedman_mse"]
    assert compare.more_configs("regression", True)[-1] == ("CART", "poisson")
    assert compare.more_configs("classification")[0] == ("CART", "gain_ratio")


def test_default_config_of_each_column():
    pair = (("CART", "gini"), ("CART", "entropy"))
    more = compare.more_configs("classification")
    changes = {"min_samples_leaf": 5}
    assert compare.default_config(0, pair, changes, "depth_first", more) == \
        ("CART", "gini", "depth_first", changes)
    assert compare.default_config(1, pair, {}, "best_first", more) == \
        ("CART", "entropy", "best_first", {})
    # columns 3 and 4: the next candidates not already shown
    assert compare.default_config(2, pair, {}, "depth_first", more)[:2] == ("CART", "gain_ratio")
    assert compare.default_config(3, pair, {}, "depth_first", more)[:2] == \
        ("CART", "misclassification")
    # regression without Poisson runs out of criteria: growth orders instead
    reg = compare.pairs_for("regression", False)[0]
    reg_more = compare.more_configs("regression", False)
    assert compare.default_config(2, reg, {}, "depth_first", reg_more)[:2] == \
        ("CART", "friedman_mse")
    assert compare.default_config(3, reg, {}, "depth_first", reg_more) == \
        ("CART", "squared_error", "best_first", {})


def test_criterion_options_add_taylor_to_cart_and_drop_poisson():
    from dtree.tables.prepare import criteria_for
    assert compare.criterion_options(("gini", "entropy"), "classification", "CART") == \
        ["gini", "entropy", "taylor2"]
    assert compare.criterion_options(("gini", "taylor2"), "classification", "CART") == \
        ["gini", "taylor2"]  # not twice
    assert compare.criterion_options(("entropy",), "classification", "ID3") == ["entropy"]
    cart = compare.criterion_options(criteria_for("classification", "CART"), "classification",
                                     "CART")
    assert cart.count("taylor2") == 1
    reg = criteria_for("regression", "CART")
    assert "poisson" in reg
    assert compare.criterion_options(reg, "regression", "CART", poisson=False) == \
        [c for c in reg if c != "poisson"]
    assert compare.criterion_options(reg, "regression", "CART") == list(reg)
    # Poisson is a regression criterion: classification lists are left alone
    assert compare.criterion_options(("gini",), "classification", "C4.5", poisson=False) == \
        ["gini"]


def test_search_scope_narrows_on_large_training_sets():
    pairs = compare.CLASSIFICATION_PAIRS
    assert compare.search_scope(pairs, compare.ADJUSTMENTS, 1000) == \
        (pairs, compare.ADJUSTMENTS)
    assert compare.search_scope(pairs, compare.ADJUSTMENTS, compare.SEARCH_CELLS + 1) == \
        (pairs[:1], ({},))
    assert compare.search_scope(pairs, compare.ADJUSTMENTS, 10, limit=5)[0] == pairs[:1]


def test_column_state_sets_every_widget_of_every_column():
    params = dict(DEFAULT_PARAMS, min_samples_leaf=5)
    state = compare.column_state((("CART", "gini"), ("C4.5", "gain_ratio")), params)
    assert state["cmp_n"] == 2
    assert (state["cmp_p2"], state["cmp_c2"]) == ("C4.5", "gain_ratio")
    for n in (1, 2):
        assert state[f"cmp_g{n}"] == params["growth"]
        assert state[f"cmp_d{n}"] == params["max_depth"]
        assert state[f"cmp_l{n}"] == 5
        assert state[f"cmp_m{n}"] == params["max_leaf_nodes"]
    assert len(state) == 1 + 2 * 6


def test_shows_parting_only_for_its_own_trees_with_changed_parameters():
    params = dict(DEFAULT_PARAMS, min_samples_leaf=5)
    parting = compare.Parting((("CART", "gini"), ("CART", "misclassification")),
                              {"min_samples_leaf": 5}, params, 3)
    shown = [("CART", "gini", tuple(sorted(params.items()))),
             ("CART", "misclassification", params)]
    assert compare.shows_parting(parting, shown)
    assert not compare.shows_parting(None, shown)
    assert not compare.shows_parting(compare.Parting(parting.configs, {}, params, 3), shown)
    assert not compare.shows_parting(parting, shown[:1])
    assert not compare.shows_parting(parting, [shown[0], ("CART", "entropy", params)])
    other = dict(params, max_depth=2)
    assert not compare.shows_parting(parting, [shown[0], ("CART", "misclassification", other)])


def test_step_node_is_the_node_split_in_that_step():
    X_train, _, y_train, _ = iris_split()
    model = DecisionTreeClassifier(growth="best_first", max_leaf_nodes=5).fit(X_train, y_train)
    assert compare.step_node(model, 0) == 0
    for k in range(1, len(model.steps_) + 1):
        node = compare.step_node(model, k)
        assert node == model.steps_[k - 1].node and isinstance(node, int)
        assert model.growth_tree_.children_of(node)  # a split node
    assert len({compare.step_node(model, k) for k in range(1, len(model.steps_) + 1)}) == \
        len(model.steps_)
