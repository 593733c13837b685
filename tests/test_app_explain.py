"""The numbers the app shows: formulas with textbook values, per-threshold
gains against the engine, scores step by step, and the partition of the plane."""

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier, DecisionTreeRegressor, explain
from dtree.io import load_builtin


def H(*counts):
    return explain.impurity_from_counts("entropy", counts)


def test_li_hang_entropy_formula_shows_0_971():
    # seed 003 / Li Hang ex. 5.2: 9 of 15 samples in one class, 6 in the other
    latex = explain.impurity_latex("entropy", [9, 6])
    assert latex == (r"H(D) = -\left(\frac{9}{15}\log_2 \frac{9}{15} + "
                     r"\frac{6}{15}\log_2 \frac{6}{15}\right) = 0.971")
    assert H(9, 6) == pytest.approx(0.971, abs=5e-4)


def test_li_hang_conditional_entropy_and_gain():
    # the three-valued feature of seed 003: (3, 2), (2, 3), (4, 1)
    conditional = (5 * H(3, 2) + 5 * H(2, 3) + 5 * H(4, 1)) / 15
    assert round(conditional, 3) == 0.888
    assert round(H(9, 6) - conditional, 3) == 0.083


@pytest.mark.parametrize("left, right, gain", [
    ((4, 1), (1, 4), "0.278"),   # ear shape (seed 004: 0.28)
    ((4, 3), (1, 2), "0.035"),   # face shape (0.03)
    ((3, 1), (2, 4), "0.125"),   # whiskers (0.12)
])
def test_andrew_ng_cat_gains(left, right, gain):
    n_left, n_right = sum(left), sum(right)
    value = H(5, 5) - n_left / 10 * H(*left) - n_right / 10 * H(*right)
    latex = explain.gain_latex("entropy", 10, n_left, n_right, H(5, 5), H(*left), H(*right),
                               value)
    assert latex.endswith(f"= {gain}" + r"\end{aligned}")
    assert rf"\frac{{{n_left}}}{{10}}" in latex


def test_cat_tree_candidates_match_the_seed():
    # the 10 animals of seed 004 as 0/1 features; the engine's root candidates
    # must be the lecture's 0.28 / 0.03 / 0.12
    cat = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    ear = [1, 1, 1, 1, 0, 1, 0, 0, 0, 0]       # pointy: 4 cats + 1 dog
    face = [1, 1, 1, 1, 0, 1, 1, 1, 0, 0]      # round: 4 cats + 3 dogs
    whiskers = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]  # present: 3 cats + 1 dog
    X = pd.DataFrame({"ear pointy": ear, "face round": face, "whiskers": whiskers})
    model = DecisionTreeClassifier(criterion="entropy", max_depth=1).fit(X, cat)
    gains = model.steps_[0].candidates.set_index("feature")["gain"].round(2)
    assert gains.to_dict() == {"ear pointy": 0.28, "face round": 0.03, "whiskers": 0.12}


def test_gini_and_misclassification_formulas():
    assert explain.impurity_latex("gini", [38, 3]).endswith("= 0.136")
    assert explain.impurity_latex("misclassification", [9, 6]).endswith("= 0.400")
    assert "pure node" in explain.impurity_latex("gini", [5, 0])
    many = explain.impurity_latex("entropy", list(range(1, 12)))
    assert r"\cdots" in many and many.count(r"\log_2") == explain.MAX_TERMS - 1


def test_split_information_and_gain_ratio():
    info, ratio = explain.split_info_latex(15, 5, 10, 0.918, 0.083, 0.0904)
    assert r"H_A(D)" in info and info.endswith("= 0.918")
    assert ratio.endswith("= 0.090")


def iris():
    frame = load_builtin("Iris")
    return frame.drop(columns="species"), frame["species"].to_numpy()


@pytest.mark.parametrize("criterion", ["gini", "entropy", "misclassification", "gain_ratio"])
def test_node_impurities_and_threshold_curves_match_the_engine(criterion):
    X, y = iris()
    model = DecisionTreeClassifier(criterion=criterion, max_depth=4).fit(X, y)
    tree = model.tree_
    for node in range(tree.node_count):
        counts = explain.class_counts(tree, node)
        assert explain.impurity_from_counts(criterion, counts) == pytest.approx(
            tree.impurity[node], abs=1e-12)
    leaf = model.apply(X)
    codes = explain.class_codes(model.classes_, y)
    for step in model.steps_:
        rows = explain.node_mask(tree, leaf, step.node)
        assert rows.sum() == step.n_node_samples
        curve = explain.threshold_curve(X.to_numpy()[rows, step.feature], codes[rows],
                                        criterion, len(model.classes_))
        at = curve.iloc[(curve["threshold"] - step.threshold).abs().argmin()]
        assert at["threshold"] == pytest.approx(step.threshold)
        assert at["gain"] == pytest.approx(step.gain, abs=1e-12)
        assert at["impurity_left"] == pytest.approx(step.impurity_left, abs=1e-12)
        if criterion != "gain_ratio":  # C4.5 picks the threshold by gain too
            assert curve.loc[curve["allowed"], "gain"].max() == pytest.approx(step.gain)


@pytest.mark.parametrize("criterion", ["squared_error", "absolute_error", "poisson"])
def test_regression_threshold_curves_match_the_engine(criterion):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = np.abs(2 * X[:, 0] + rng.normal(size=300))
    model = DecisionTreeRegressor(criterion=criterion, max_depth=3).fit(X, y)
    leaf = model.apply(X)
    for step in model.steps_:
        rows = explain.node_mask(model.tree_, leaf, step.node)
        curve = explain.threshold_curve(X[rows, step.feature], y[rows], criterion)
        assert curve.loc[curve["allowed"], "gain"].max() == pytest.approx(step.gain, abs=1e-9)


def test_score_path_replays_every_step():
    X, y = iris()
    model = DecisionTreeClassifier(max_depth=5).fit(X, y)
    path = explain.score_path(model, X, y)
    Xf = X.to_numpy(np.float32)
    for k, value in enumerate(path):
        tree = model.tree_at(k)
        pred = model.classes_[np.argmax(tree.value[tree.apply(Xf), 0, :], axis=1)]
        assert value == pytest.approx(np.mean(pred == y))
    assert path[-1] == pytest.approx(model.score(X, y))


def test_score_path_matches_sklearn_best_first_trees():
    sklearn_tree = pytest.importorskip("sklearn.tree")
    frame = load_builtin("Wine")
    X, y = frame.drop(columns="class"), frame["class"]
    model = DecisionTreeClassifier(max_leaf_nodes=8, growth="best_first").fit(X, y)
    path = explain.score_path(model, X, y)
    for k in range(1, len(model.steps_) + 1):  # tree_at(k) is sklearn's k + 1 leaves
        reference = sklearn_tree.DecisionTreeClassifier(max_leaf_nodes=k + 1, random_state=0)
        assert path[k] == pytest.approx(reference.fit(X, y).score(X, y))


def test_r2_path():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 2))
    y = X[:, 0] ** 2 + rng.normal(scale=0.1, size=200)
    model = DecisionTreeRegressor(max_depth=3).fit(X, y)
    path = explain.score_path(model, X, y)
    assert path[0] == pytest.approx(0.0, abs=1e-12)
    assert path[-1] == pytest.approx(model.score(X, y))
    assert np.all(np.diff(path) >= -1e-12)  # training R² never drops as the tree grows


def test_partition_tiles_the_plane_and_holds_each_row():
    X, y = iris()
    cols = ["petal length (cm)", "petal width (cm)"]
    model = DecisionTreeClassifier(max_depth=4).fit(X[cols], y)
    tree = model.tree_
    rects = explain.partition_2d(tree, 0, 1, np.zeros(2))
    assert sorted(rects["node"]) == sorted(np.flatnonzero(tree.is_leaf()))
    box = (0.0, 8.0, 0.0, 3.0)
    area = sum((min(r.x1, box[1]) - max(r.x0, box[0])) * (min(r.y1, box[3]) - max(r.y0, box[2]))
               for r in rects.itertuples())
    assert area == pytest.approx((box[1] - box[0]) * (box[3] - box[2]))
    leaf = model.apply(X[cols])
    by_node = rects.set_index("node")
    Xf = X[cols].to_numpy(np.float32)
    for (a, b), node in zip(Xf, leaf):
        r = by_node.loc[node]
        assert r.x0 < a <= r.x1 and r.y0 < b <= r.y1
