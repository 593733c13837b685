"""The numbers the app shows: formulas with textbook values, per-threshold
gains against the engine, scores step by step, and the partition of the plane."""

import numpy as np
import pandas as pd
import pytest

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views import explain
from dtree.tables.io import load_builtin


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


# -- categorical features and missing values -------------------------------------

def penguins():
    frame = load_builtin("Penguins")
    return frame.drop(columns="species"), frame["species"].to_numpy()


def test_node_rows_carry_c45_fractions_that_add_up_to_the_node_weights():
    X, y = penguins()
    model = DecisionTreeClassifier(algorithm="c4.5", categorical_features=["island", "sex"],
                                   max_depth=3).fit(X, y)
    tree = model.tree_
    routes = tree.leaf_weights(explain.encode(model, X))
    assert len(routes[0]) > len(X)  # some rows go down several branches
    for node in range(tree.node_count):
        rows, weights = explain.node_rows(tree, routes, node)
        assert weights.sum() == pytest.approx(tree.weighted_n_node_samples[node])
        if tree.children_of(node):
            parts = [explain.node_rows(tree, routes, c)[1].sum() for c in tree.children_of(node)]
            assert sum(parts) == pytest.approx(weights.sum())


def test_category_terms_give_the_multiway_gain_of_every_step():
    frame = load_builtin("Watermelon 2.0 (Zhou Zhihua)")
    X, y = frame.iloc[:, 1:-1], frame["好瓜"].to_numpy()
    model = DecisionTreeClassifier(algorithm="id3", categorical_features=list(X.columns))
    model.fit(X, y)
    codes = explain.class_codes(model.classes_, y)
    routes = model.tree_.leaf_weights(explain.encode(model, X))
    for step in model.steps_:
        rows, _ = explain.node_rows(model.tree_, routes, step.node)
        labels = X.iloc[rows, step.feature].to_numpy(dtype=object)
        terms = explain.category_terms(labels, codes[rows], "entropy", len(model.classes_))
        assert len(terms) == len(step.children)
        assert step.impurity - terms["term"].sum() == pytest.approx(step.gain, abs=1e-12)
    # Zhou Zhihua 4.2.1: the root, 纹理, with g = 0.381
    assert model.steps_[0].feature_name == "纹理" and round(model.steps_[0].gain, 3) == 0.381


def test_multiway_gain_and_split_information_formulas():
    # 纹理 at the root of watermelon 2.0: 清晰 (7 good of 9), 稍糊 (1 of 5), 模糊 (0 of 3)
    children = [H(7, 2), H(1, 4), H(0, 3)]
    gain = H(8, 9) - (9 * children[0] + 5 * children[1] + 3 * children[2]) / 17
    latex = explain.branches_gain_latex("entropy", 17, [9, 5, 3], H(8, 9), children, gain)
    assert r"\sum_{v=1}^{3}" in latex and latex.endswith(r"= 0.381\end{aligned}")
    assert r"\frac{9}{17}\cdot 0.764" in latex and r"\frac{3}{17}\cdot 0" in latex
    info = -sum(n / 17 * np.log2(n / 17) for n in (9, 5, 3))
    lines = explain.branches_split_info_latex(17, [9, 5, 3], info, gain, gain / info)
    assert shown(lines[0]) == f"{info:.3f}" and lines[1].endswith(f"= {gain / info:.3f}")
    # C4.5's rule: rho times the gain on the known rows
    rho = explain.branches_gain_latex("entropy", 17, [9, 5, 3], 1, [0, 0, 0], 0.424,
                                      known_fraction=15 / 17)
    assert r"0.882 \cdot 0.481 = 0.424" in rho


def test_taylor2_formula():
    # p = 9/15: 0.6 (0.4 + 0.08) + 0.4 (0.6 + 0.18) = 0.6
    latex = explain.impurity_latex("taylor2", [9, 6])
    # two wide terms: aligned lines, the result on its own line
    assert latex.startswith(r"\begin{aligned} T_2(D) &= \frac{9}{15}\left[\frac{6}{15}")
    assert r"\qquad + \frac{6}{15}\left[\frac{9}{15}" in latex
    assert shown(latex) == "0.600"


def test_score_path_scores_c45_fractional_rows_like_predict():
    X, y = penguins()
    model = DecisionTreeClassifier(algorithm="c4.5", categorical_features=["island", "sex"],
                                   max_depth=4).fit(X, y)
    path = explain.score_path(model, X, y)
    assert path[-1] == pytest.approx(model.score(X, y))
    X_enc = explain.encode(model, X)
    for k in (0, 1, len(model.steps_) // 2):
        pred = model.classes_[np.argmax(model.tree_at(k).predict(X_enc), axis=1)]
        assert path[k] == pytest.approx(np.mean(pred == y))


def test_partition_follows_categorical_splits_at_the_chosen_point():
    X, y = penguins()
    model = DecisionTreeClassifier(categorical_features=["island", "sex"], max_depth=4)
    model.fit(X, y)
    tree = model.tree_
    X_enc = explain.encode(model, X)
    fx, fy = list(X.columns).index("bill_length_mm"), list(X.columns).index("flipper_length_mm")
    island = list(X.columns).index("island")
    assert island in set(tree.feature[~tree.is_leaf()].tolist())
    for code in range(len(model.categories_[island])):
        point = np.nanmedian(X_enc, axis=0)
        point[island] = code
        rects = explain.partition_2d(tree, fx, fy, point).set_index("node")
        # every complete row on this island (others at the point) lands in its rectangle
        rows = X_enc[(X_enc[:, island] == code)]
        probe = np.tile(point, (len(rows), 1))
        probe[:, fx], probe[:, fy] = rows[:, fx], rows[:, fy]
        probe = probe[~np.isnan(probe).any(axis=1)]
        for p, leaf in zip(probe, tree.apply(probe.astype(np.float32))):
            r = rects.loc[leaf]
            assert r.x0 < p[fx] <= r.x1 and r.y0 < p[fy] <= r.y1


def test_the_typical_row_is_the_median_or_the_most_common_code():
    X, y = penguins()
    model = DecisionTreeClassifier(categorical_features=["island", "sex"], max_depth=3).fit(X, y)
    enc = explain.encode(model, X)
    point = explain.typical_row(model, enc)
    assert point.dtype == np.float32 and point.shape == (X.shape[1],)
    for j, name in enumerate(X.columns):
        col = enc[:, j][~np.isnan(enc[:, j])]
        if model.is_categorical_[j]:
            # the most common category of the table, as the tree's code for it
            common = X[name].mode()[0]
            assert model.categories_[j][int(point[j])] == common
        else:
            assert point[j] == pytest.approx(X[name].median(), rel=1e-6)
            assert point[j] == pytest.approx(np.median(col), rel=1e-6)
    nothing = np.full((3, 2), np.nan, dtype=np.float32)
    two = DecisionTreeClassifier().fit(pd.DataFrame({"a": [1.0, 2.0], "b": [3.0, 4.0]}), [0, 1])
    assert explain.typical_row(two, nothing).tolist() == [0.0, 0.0]  # never known: 0


def test_region_features_are_the_numeric_ones_by_importance():
    X, y = penguins()
    model = DecisionTreeClassifier(categorical_features=["island", "sex"], max_depth=3).fit(X, y)
    numeric, order = explain.region_features(model)
    assert numeric == [j for j, c in enumerate(X.columns) if c not in ("island", "sex")]
    assert sorted(order) == numeric
    imp = model.feature_importances_[order]
    assert list(imp) == sorted(imp, reverse=True) and imp[0] == imp.max() > 0


def shown(latex):
    """The result a formula ends with (its last "= x"), on one line or aligned."""
    return latex.removesuffix(r" \end{aligned}").rsplit("= ", 1)[1].strip()


@pytest.mark.parametrize("criterion", ["entropy", "gini", "misclassification", "taylor2"])
def test_a_wide_formula_is_drawn_on_lines_that_fit(criterion):
    """Fractional weights (C4.5/J48 with missing values) make wide terms: the
    sum goes on aligned lines that fit the inspector's column, its
    delimiters drawn big, and the result on a line of its own (a single
    line was cut off before the result)."""
    counts = [111.625, 48, 1.625]
    latex = explain.impurity_latex(criterion, counts)
    assert latex.startswith(r"\begin{aligned}") and latex.endswith(r"\end{aligned}")
    rows = latex.removeprefix(r"\begin{aligned} ").removesuffix(r" \end{aligned}").split(r" \\ ")
    assert len(rows) >= 2  # the terms, then the result
    assert all(explain._width(row) <= explain.LINE_WIDTH for row in rows)
    assert rows[-1] == f"&= {shown(latex)}"
    value = explain.impurity_from_counts(criterion, np.array(counts))
    assert shown(latex) == explain.num(value)
    if criterion == "entropy":  # \left( cannot span lines: the outer brackets are big
        assert latex.split(r"\log_2")[0].endswith(r"-\biggl(\frac{111.62}{161.25}")
    # every class's fraction is still written out
    for c in ("111.62", "48", "1.62"):
        assert rf"\frac{{{c}}}{{161.25}}" in latex


def test_a_narrow_formula_stays_on_one_line():
    latex = explain.impurity_latex("entropy", [9, 6])
    assert r"\begin{aligned}" not in latex and latex.endswith("= 0.971")


def test_j48_split_information_with_unknowns_wraps_and_adds_up():
    info, _ = explain.unknown_split_info_latex(161.25, [109, 51], 0.962, 0.688, 0.715)
    rows = info.removeprefix(r"\begin{aligned} ").removesuffix(r" \end{aligned}").split(r" \\ ")
    assert all(explain._width(row) <= explain.LINE_WIDTH for row in rows)
    assert rows[-1].startswith("&= ") and rows[-1].endswith("= 0.962")
    assert r"- \frac{1.25}{161.25}\log_2\frac{1.25}{161.25}" in info
