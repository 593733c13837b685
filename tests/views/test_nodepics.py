"""dtree.views.nodepics: a node's picture (class-stacked histogram with the
threshold, class bars per category, a regression node's rows with its
children's values) against counts made here from the tree's own routing, and
the confusion matrix of the tree at a step against scikit-learn's and the
step's accuracy, in English and Chinese."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views import explain, nodepics
from tests.helpers.data_files import DATA, read


def fitted(model, X, y):
    model.fit(X, y)
    X_enc = explain.encode(model, X)
    codes = explain.class_codes(model.classes_, y) if hasattr(model, "classes_") \
        else np.asarray(y, float)
    return model, X_enc, codes, model.tree_.leaf_weights(X_enc)


@pytest.fixture(scope="module")
def penguins():
    return read("penguins.csv", "species")


@pytest.fixture(scope="module")
def iris_fit():
    return fitted(DecisionTreeClassifier(max_depth=4, random_state=0), *read("iris.csv", "species"))


@pytest.fixture(scope="module")
def penguins_cart(penguins):
    X, y = penguins
    return fitted(DecisionTreeClassifier(max_depth=4, categorical_features=["island", "sex"],
                                         random_state=0), X, y)


def reaching(tree, X_enc, node):
    """The rows whose path passes ``node``, found by walking each row down
    the tree one branch at a time (independent of explain.node_rows)."""
    rows = []
    for r in range(len(X_enc)):
        at = 0
        while at != node and tree.children_of(at):
            b = int(tree.branch(X_enc, [r], [at])[0])
            b = tree.missing_child[at] if b < 0 else b
            at = tree.children_of(at)[b]
        if at == node:
            rows.append(r)
    return np.array(rows)


def bars(fig):
    """{trace name: y values} of a figure's bar traces."""
    return {tr.name: np.asarray(tr.y, float) for tr in fig.data if tr.type == "bar"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_histogram_counts_and_threshold(iris_fit, lang):
    model, X_enc, codes, routes = iris_fit
    for s in model.steps_:
        assert s.kind == "numeric"
        pic = nodepics.node_picture(model, X_enc, codes, routes, s.node, s, lang)
        rows = reaching(model.tree_, X_enc, s.node)
        x = X_enc[rows, s.feature].astype(float)
        edges = nodepics.bin_edges(x, s.threshold)
        assert s.threshold in edges  # no bin holds both sides
        by_trace = bars(pic.figure)
        for i, c in enumerate(model.classes_):
            expect = [np.sum((codes[rows] == i) & (x > lo if k else x >= lo) & (x <= hi))
                      for k, (lo, hi) in enumerate(zip(edges[:-1], edges[1:]))]
            name = next((n for n in by_trace if n.startswith(str(c))), None)
            if not any(expect):
                assert name is None
                continue
            np.testing.assert_array_equal(by_trace[name], expect)
            left = int(np.sum((codes[rows] == i) & (x <= s.threshold)))
            right = int(np.sum((codes[rows] == i) & (x > s.threshold)))
            assert (f"{'左' if lang == 'zh' else 'left'} {left}," in name
                    and f"{'右' if lang == 'zh' else 'right'} {right})" in name)
        lines = [sh for sh in pic.figure.layout.shapes if sh.x0 == sh.x1]
        assert [sh.x0 for sh in lines] == [pytest.approx(s.threshold)]
        assert sum(v.sum() for v in by_trace.values()) == len(rows) == model.tree_.n_node_samples[s.node]
        assert pic.missing == ""


def test_categorical_bars_sum_to_the_class_counts(penguins_cart):
    model, X_enc, codes, routes = penguins_cart
    cats = [s for s in model.steps_ if s.kind != "numeric"]
    assert cats, "the tree should split on a category"
    for s in cats:
        pic = nodepics.node_picture(model, X_enc, codes, routes, s.node, s, "en")
        total = sum(bars(pic.figure).values())
        rows = reaching(model.tree_, X_enc, s.node)
        known = ~np.isnan(X_enc[rows, s.feature])
        expect = np.bincount(codes[rows][known], minlength=len(model.classes_))
        got = {n: v.sum() for n, v in bars(pic.figure).items()}
        assert got == {str(c): expect[i] for i, c in enumerate(model.classes_) if expect[i]}
        if known.all():  # the node's own class counts
            np.testing.assert_allclose(
                sorted(got.values()), sorted(v for v in explain.class_counts(
                    model.tree_, s.node) if v > 0))
        assert len(total) == len(np.unique(X_enc[rows, s.feature][known]))
        ticks = pic.figure.layout.xaxis.ticktext
        assert all("→ left" in tk or "→ right" in tk for tk in ticks)


@pytest.mark.parametrize("criterion,stat", [("squared_error", np.mean),
                                            ("absolute_error", np.median)])
def test_regression_segments_are_the_children_values(penguins, criterion, stat):
    X, _ = penguins
    frame = pd.read_csv(DATA / "penguins.csv").dropna()
    X, y = frame.drop(columns=["body_mass_g", "species"]), frame["body_mass_g"].to_numpy()
    model, X_enc, codes, routes = fitted(DecisionTreeRegressor(
        criterion=criterion, max_depth=3, categorical_features=["island", "sex"]), X, y)
    kinds = set()
    for s in model.steps_:
        kinds.add(s.kind == "numeric")
        pic = nodepics.node_picture(model, X_enc, codes, routes, s.node, s, "zh")
        segments = [tr for tr in pic.figure.data if tr.type == "scatter"]
        rows = reaching(model.tree_, X_enc, s.node)
        x = X_enc[rows, s.feature]
        if s.kind == "numeric":
            assert all(len(set(tr.y)) == 1 for tr in segments)
            values = [tr.y[0] for tr in segments]
            assert values == pytest.approx([model.tree_.value[c, 0, 0] for c in s.children])
            sides = [y[rows][x <= s.threshold], y[rows][x > s.threshold]]
            assert [stat(v) for v in sides] == pytest.approx(values)
        else:  # one mark per category, at its branch's value
            (marks,) = segments
            table = model.tree_.branch_of_code[s.node]
            labels = list(model.categories_[s.feature])
            for cat, v in zip(marks.x, marks.y):
                branch = int(table[labels.index(cat)])
                assert v == pytest.approx(model.tree_.value[s.children[branch], 0, 0])
                inside = np.isin(x, [c for c in range(len(table)) if table[c] == branch])
                assert stat(y[rows][inside]) == pytest.approx(v)
        assert ("中位数" if criterion == "absolute_error" else "均值") in pic.caption
    assert kinds == {True, False}


def test_c45_missing_rows_are_weighted_and_said():
    X, y = read("watermelon2_alpha.csv", "好瓜", drop="编号")
    model, X_enc, codes, routes = fitted(DecisionTreeClassifier(algorithm="c4.5"),
                                         X.astype(object), y)
    notes = []
    for s in model.steps_:
        pic = nodepics.node_picture(model, X_enc, codes, routes, s.node, s, "en")
        got = sum(v.sum() for v in bars(pic.figure).values())
        rows, w = explain.node_rows(model.tree_, routes, s.node)
        known = ~np.isnan(X_enc[rows, s.feature])
        assert got == pytest.approx(w[known].sum())
        notes.append(pic.missing)
    assert any("without a value" in n for n in notes)


# -- the confusion matrix ----------------------------------------------------------

@pytest.mark.parametrize("preset", ["CART", "C4.5"])
def test_confusion_matches_sklearn_and_the_scores(penguins, preset):
    X, y = penguins
    X_train, X_test, y_train, y_test = X.iloc[::2], X.iloc[1::2], y[::2], y[1::2]
    kwargs = {"algorithm": "c4.5"} if preset == "C4.5" else {"max_depth": 4}
    model = DecisionTreeClassifier(categorical_features=["island", "sex"], **kwargs)
    model.fit(X_train, y_train)
    train = explain.score_path(model, X_train, y_train)
    test = explain.score_path(model, X_test, y_test)
    for k in range(len(model.steps_) + 1):
        tree = model.tree_at(k)
        for Xs, ys, score in ((X_train, y_train, train[k]), (X_test, y_test, test[k])):
            X_enc = explain.encode(model, Xs)
            c = nodepics.confusion(tree, X_enc, ys, model.classes_)
            pred = model.classes_[nodepics.predicted_codes(tree, X_enc)]
            np.testing.assert_array_equal(
                c.matrix, confusion_matrix(ys, pred, labels=model.classes_))
            assert c.accuracy == pytest.approx(np.trace(c.matrix) / c.matrix.sum())
            assert c.accuracy == pytest.approx(score)


@pytest.mark.parametrize("lang,words", [("en", ("accuracy", "true class")),
                                        ("zh", ("准确率", "真实类别"))])
def test_confusion_figure_escapes_and_titles(lang, words):
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array(["<b>a</b>", "<b>a</b>", "c&d", "c&d"])
    model = DecisionTreeClassifier().fit(X, y)
    X_enc = explain.encode(model, X)
    fig, note = nodepics.confusion_view(model.tree_at(0), X_enc, y, model.classes_, "test", 0,
                                        lang)
    assert words[0] in fig.layout.title.text and "0.500" in fig.layout.title.text
    assert fig.layout.yaxis.title.text == words[1]
    assert list(fig.layout.xaxis.ticktext) == ["&lt;b&gt;a&lt;/b&gt;", "c&amp;d"]
    assert np.asarray(fig.data[0].z).tolist() == [[2, 0], [2, 0]]
    assert note == ""
    _, note = nodepics.confusion_view(model.tree_at(1), X_enc, np.array(["x"] * 4),
                                      model.classes_, "test", 1, lang)
    assert "4" in note
