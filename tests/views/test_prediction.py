"""dtree.views.prediction: one sample's path, C4.5's fractional routing, the
plain-language explanation, feature importances after k steps, and the path
drawn by viz.step_dot.

Every number is checked against the engine (decision_path, leaf_weights,
predict_proba, tree_at(k).predict), against scikit-learn, or against counts
taken straight from the data.
"""

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import tree as sktree
from sklearn.datasets import load_diabetes, load_iris, load_wine

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views.prediction import (explain_prediction, explanation, importance_figure,
                                    importance_latex, importance_summary, importance_terms,
                                    importances_at, distribution_figure, normalise_sample,
                                    rule_text)
from dtree.views.viz import JUST_SPLIT, NEXT_SPLIT, ON_PATH, step_dot
from tests.helpers.sklearn_match import assert_matches_sklearn
from tests.helpers.treecompare import walk_trees
from tests.helpers.installed import require

DATA = Path(__file__).resolve().parents[2] / "data"


# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def iris():
    d = load_iris(as_frame=True)
    y = np.asarray(d.target_names)[d.target]
    return d.data, y


@pytest.fixture(scope="module")
def iris_model(iris):
    X, y = iris
    return DecisionTreeClassifier(random_state=0).fit(X, y)


@pytest.fixture(scope="module")
def melon():
    frame = pd.read_csv(DATA / "watermelon2_alpha.csv").drop(columns="编号")
    return frame.iloc[:, :-1], frame.iloc[:, -1].to_numpy()


@pytest.fixture(scope="module")
def melon_model(melon):
    X, y = melon
    return DecisionTreeClassifier(algorithm="c4.5").fit(X, y)


@pytest.fixture(scope="module")
def loan():
    frame = pd.read_csv(DATA / "loan.csv").drop(columns="ID")
    return frame.iloc[:, :-1], frame.iloc[:, -1].to_numpy()


def encoded(model, X):
    return model._validate_X_predict(X)


def rows(X):
    return [X.iloc[i].to_dict() for i in range(len(X))]


def leaf_multiset(tree, Xf):
    """{leaf: total weight} of row 0 by the engine's own leaf_weights."""
    r, leaves, w = tree.leaf_weights(Xf[:1])
    out = {}
    for leaf, weight in zip(leaves.tolist(), w.tolist()):
        out[leaf] = out.get(leaf, 0.0) + weight
    return out


# ---------------------------------------------------------------------------
# The path agrees with the engine
# ---------------------------------------------------------------------------


def test_iris_paths_equal_decision_path_at_every_step(iris, iris_model):
    X, _ = iris
    model = iris_model
    sample_rows = X.iloc[::7]
    for k in [0, 1, 2, len(model.steps_) // 2, len(model.steps_)]:
        tree = model.tree_at(k)
        Xf = encoded(model, sample_rows)
        paths = tree.decision_path(Xf).toarray().astype(bool)
        values = tree.predict(Xf)
        for i, x in enumerate(rows(sample_rows)):
            r = explain_prediction(model, x, k=k)
            assert r.nodes == sorted(np.flatnonzero(paths[i]).tolist())
            assert [d.node for d in r.decisions] == r.nodes[:-1]
            assert len(r.leaves) == 1 and r.leaves[0].weight == 1.0
            assert r.leaves[0].node == tree.apply(Xf[i:i + 1])[0]
            np.testing.assert_array_equal(r.distribution, values[i])


def test_final_tree_matches_predict_proba_and_predict(iris, iris_model):
    X, _ = iris
    model = iris_model
    proba = model.predict_proba(X)
    labels = model.predict(X)
    path = model.decision_path(X).toarray().astype(bool)
    for i, x in enumerate(rows(X)):
        r = explain_prediction(model, x)
        np.testing.assert_array_equal(r.distribution, proba[i])
        assert r.prediction == labels[i]
        assert r.nodes == np.flatnonzero(path[i]).tolist()


def test_every_decision_is_consistent_with_its_threshold(iris, iris_model):
    X, _ = iris
    for x in rows(X.iloc[::11]):
        r = explain_prediction(iris_model, x)
        for d in r.decisions:
            v = np.float32(x[d.feature_name])
            assert d.branch == (0 if v <= d.threshold else 1)
            assert d.branches[d.branch].child == r.nodes[r.nodes.index(d.node) + 1]
            op = "≤" if d.branch == 0 else ">"
            side = "left" if d.branch == 0 else "right"
            value = f"{x[d.feature_name]:.6g}"
            assert d.rule == f"{d.feature_name} {value} {op} {d.threshold:.6g} → {side}"


def _nan_frame(seed=0, n=200):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 3)), columns=["a", "b", "c"])
    y = (X["a"] + 0.5 * X["b"] > 0).astype(int).to_numpy() + (X["c"] > 1).astype(int).to_numpy()
    X = X.mask(rng.random(X.shape) < 0.15)
    return X, y


@pytest.fixture(scope="module")
def nan_model():
    X, y = _nan_frame()
    return DecisionTreeClassifier(max_depth=6, random_state=0).fit(X, y)


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(st.one_of(st.none(), st.floats(-3, 3, allow_nan=False)), min_size=3,
                       max_size=3),
       step=st.integers(0, 1000))
def test_cart_mode_paths_with_missing_values_match_decision_path(nan_model, values, step):
    model = nan_model
    k = step % (len(model.steps_) + 1)
    x = dict(zip(["a", "b", "c"], values))
    r = explain_prediction(model, x, k=k)
    tree = model.tree_at(k)
    Xf = encoded(model, pd.DataFrame([x], dtype=float))
    assert r.nodes == sorted(tree.decision_path(Xf)[0].indices.tolist())
    np.testing.assert_array_equal(r.distribution, tree.predict(Xf)[0])
    for d in r.decisions:
        assert not d.fractional
        if x[d.feature_name] is None:
            assert d.status == "missing"
            assert d.branch == tree.missing_child[d.node]
            assert f"missing_go_to_left = {int(tree.missing_go_to_left[d.node])}" in d.rule
            assert d.rule.startswith(f"{d.feature_name} is missing → ")
    if k == len(model.steps_):
        np.testing.assert_array_equal(r.distribution,
                                      model.predict_proba(pd.DataFrame([x], dtype=float))[0])


def test_regression_path_and_value(iris):
    d = load_diabetes(as_frame=True)
    model = DecisionTreeRegressor(max_depth=4, random_state=0).fit(d.data, d.target)
    pred = model.predict(d.data.iloc[:30])
    for i, x in enumerate(rows(d.data.iloc[:30])):
        r = explain_prediction(model, x)
        assert r.classes is None
        assert r.prediction == pred[i]
        assert len(r.leaves) == 1 and r.leaves[0].value[0] == pred[i]
        assert f"{pred[i]:.4g}" in explanation(r)
        assert f"{pred[i]:.4g}" in explanation(r, "zh")


# ---------------------------------------------------------------------------
# C4.5: missing values go down every branch
# ---------------------------------------------------------------------------


def _melon_samples(X, seed=0, n=40):
    rng = np.random.default_rng(seed)
    out = rows(X)
    for _ in range(n):
        x = X.iloc[int(rng.integers(len(X)))].to_dict()
        for name in X.columns:
            if rng.random() < 0.4:
                x[name] = None
        out.append(x)
    return out


def test_c45_weights_sum_to_one_and_mix_to_predict_proba(melon, melon_model):
    X, _ = melon
    model = melon_model
    assert model.tree_.distribute_missing
    for k in [1, 3, len(model.steps_)]:
        tree = model.tree_at(k)
        for x in _melon_samples(X):
            r = explain_prediction(model, x, k=k)
            frame = pd.DataFrame([x], columns=X.columns).astype(object)
            Xf = encoded(model, frame)
            assert sum(leaf.weight for leaf in r.leaves) == pytest.approx(1.0, abs=1e-12)
            mix = sum(leaf.weight * tree.value[leaf.node, 0] for leaf in r.leaves)
            np.testing.assert_allclose(r.distribution, mix, rtol=0, atol=1e-15)
            np.testing.assert_allclose(r.distribution, tree.predict(Xf)[0], rtol=1e-12, atol=1e-15)
            expected = leaf_multiset(tree, Xf)
            assert {lf.node: pytest.approx(lf.weight, abs=1e-12) for lf in r.leaves} == expected
            # scikit-learn's single path (missing values to missing_child) lies inside
            assert set(tree.decision_path(Xf)[0].indices) <= set(r.nodes)
            for d in r.decisions:
                assert sum(b.weight for b in d.branches) == pytest.approx(d.weight, abs=1e-12)
                if d.fractional:
                    assert sum(b.share for b in d.branches) == pytest.approx(1.0, abs=1e-12)
            if k == len(model.steps_):
                np.testing.assert_allclose(r.distribution, model.predict_proba(frame)[0],
                                           rtol=1e-12, atol=1e-15)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_c45_any_sample_mixes_to_the_engine(melon, melon_model, data):
    X, _ = melon
    model = melon_model
    x = {}
    for j, name in enumerate(X.columns):
        options = [None, "never seen"] + list(model.categories_[j])
        x[name] = data.draw(st.sampled_from(options), label=name)
    k = data.draw(st.integers(0, len(model.steps_)), label="k")
    r = explain_prediction(model, x, k=k)
    tree = model.tree_at(k)
    Xf = encoded(model, pd.DataFrame([x], columns=X.columns).astype(object))
    assert sum(leaf.weight for leaf in r.leaves) == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(r.distribution, tree.predict(Xf)[0], rtol=1e-12, atol=1e-15)
    assert {lf.node: pytest.approx(lf.weight, abs=1e-12) for lf in r.leaves} == \
        leaf_multiset(tree, Xf)
    for d in r.decisions:
        assert d.fractional == (d.status != "known")
        assert d.status == ("missing" if x[d.feature_name] is None else
                            "unseen" if d.fractional else "known")


def test_c45_root_shares_are_the_known_value_fractions(melon, melon_model):
    """A sample missing the root's feature is split by the fraction of the
    training rows (with that value known) in each category: counted here
    from the CSV itself."""
    X, y = melon
    model = melon_model
    root = model.steps_[0]
    name = root.feature_name
    x = X.iloc[0].to_dict()
    x[name] = None
    r = explain_prediction(model, x, k=1)
    d = r.decisions[0]
    assert d.fractional and d.status == "missing" and d.branch is None
    known = X[name].dropna()
    for b in d.branches:
        assert b.share == pytest.approx((known == b.label).mean(), abs=1e-12)
        assert b.weight == pytest.approx(b.share, abs=1e-12)
    # after step 1 every branch is a leaf: the prediction is the mixture
    # of each category's class fractions, also counted from the CSV
    expected = np.zeros(len(model.classes_))
    for b in d.branches:
        in_branch = (X[name] == b.label).to_numpy()
        # a row with the value missing also goes down every branch, with the share
        w = in_branch.astype(float) + X[name].isna().to_numpy() * b.share
        counts = np.array([w[y == c].sum() for c in model.classes_])
        expected += b.share * counts / counts.sum()
    np.testing.assert_allclose(r.distribution, expected, rtol=1e-12)
    text = rule_text(d)
    assert text.startswith(f"{name} is missing → every branch, by training share: ")
    for b in d.branches:
        assert f"{b.label} {b.share:.3f}" in text
    assert "C4.5" in explanation(r) and "C4.5" in explanation(r, "zh")


def test_c45_unseen_category_is_split_like_a_missing_value(melon, melon_model):
    X, _ = melon
    model = melon_model
    x = X.iloc[3].to_dict()
    name = model.steps_[0].feature_name
    x[name] = "never seen"
    r = explain_prediction(model, x)
    d = r.decisions[0]
    assert d.status == "unseen" and d.fractional and d.value == "never seen"
    frame = pd.DataFrame([x], columns=X.columns).astype(object)
    np.testing.assert_allclose(r.distribution, model.predict_proba(frame)[0], rtol=1e-12)
    assert "never seen" in explanation(r)


def test_samples_without_missing_values_follow_one_path(melon, melon_model):
    X, _ = melon
    model = melon_model
    complete = X.dropna()
    Xf = encoded(model, complete)
    path = model.tree_.decision_path(Xf).toarray().astype(bool)
    for i, x in enumerate(rows(complete)):
        r = explain_prediction(model, x)
        assert not r.fractional and len(r.leaves) == 1
        assert r.nodes == np.flatnonzero(path[i]).tolist()


def test_multiway_rule_names_the_branch(loan):
    X, y = loan
    model = DecisionTreeClassifier(algorithm="id3").fit(X[["信贷情况", "年龄"]], y)
    assert model.steps_[0].feature_name == "信贷情况"
    labels = list(model.categories_[0])
    assert labels == sorted(set(X["信贷情况"]))
    r = explain_prediction(model, {"信贷情况": "非常好", "年龄": "青年"})
    d = r.decisions[0]
    position = labels.index("非常好")
    assert d.kind == "multiway" and d.branch == position
    assert d.rule == f"信贷情况 = 非常好 → branch {position + 1}"
    assert rule_text(d, "zh") == f"信贷情况 = 非常好 → 第 {position + 1} 个分支"
    np.testing.assert_array_equal(
        r.distribution, model.predict_proba(pd.DataFrame({"信贷情况": ["非常好"],
                                                          "年龄": ["青年"]}))[0])


def test_cart_subset_rule(loan):
    X, y = loan
    model = DecisionTreeClassifier(algorithm="cart", categorical_features="auto").fit(X, y)
    for x in rows(X):
        r = explain_prediction(model, x)
        for d in r.decisions:
            assert d.kind == "subset"
            members = d.branches[d.branch].label.strip("{}").split(", ")
            assert x[d.feature_name] in members
            assert "∈" in d.rule
        np.testing.assert_array_equal(r.distribution,
                                      model.predict_proba(pd.DataFrame([x]))[0])


# ---------------------------------------------------------------------------
# Explanation text
# ---------------------------------------------------------------------------


def test_explanation_mentions_every_decision(melon, melon_model, iris, iris_model):
    cases = [(iris_model, rows(iris[0].iloc[::30])), (melon_model, _melon_samples(melon[0], 1, 8))]
    for model, samples in cases:
        for x in samples:
            for k in (None, 2):
                r = explain_prediction(model, x, k=k)
                for lang in ("en", "zh"):
                    text = explanation(r, lang)
                    for d in r.decisions:
                        assert f"#{d.node_id}" in text
                        assert d.feature_name in text
                    for leaf in r.leaves:
                        assert f"#{leaf.node_id}" in text
                    assert str(r.prediction) in text
                    if not r.fractional:
                        for d in r.decisions:
                            assert rule_text(d, lang) in text


def test_sample_validation(iris_model):
    x = {"sepal length (cm)": 5.0, "sepal width (cm)": 3.0, "petal length (cm)": 1.0}
    with pytest.raises(ValueError, match="no value for"):
        explain_prediction(iris_model, x)
    with pytest.raises(ValueError, match="does not have"):
        explain_prediction(iris_model, {**x, "petal width (cm)": 1, "oops": 2})
    with pytest.raises(ValueError, match="numeric"):
        explain_prediction(iris_model, {**x, "petal width (cm)": "wide"})
    got = normalise_sample(iris_model, {**x, "petal width (cm)": np.nan})
    assert got["petal width (cm)"] is None
    frame = pd.DataFrame([{**x, "petal width (cm)": 0.2}])
    assert explain_prediction(iris_model, frame).nodes == \
        explain_prediction(iris_model, frame.iloc[0]).nodes


# ---------------------------------------------------------------------------
# Feature importances after k steps
# ---------------------------------------------------------------------------


DATASETS = {
    "iris": lambda: load_iris(return_X_y=True),
    "wine": lambda: load_wine(return_X_y=True),
    "diabetes": lambda: load_diabetes(return_X_y=True),
}


@pytest.mark.parametrize("name,params", [
    ("iris", dict(criterion="gini")),
    ("iris", dict(criterion="entropy", max_depth=3)),
    ("wine", dict(criterion="gini", min_samples_leaf=3)),
    ("wine", dict(criterion="entropy")),
    ("diabetes", dict(criterion="squared_error", max_depth=6)),
    ("diabetes", dict(criterion="squared_error", max_leaf_nodes=20)),
])
def test_full_tree_importances_match_sklearn(name, params):
    X, y = DATASETS[name]()
    ours_cls, theirs_cls = ((DecisionTreeRegressor, sktree.DecisionTreeRegressor)
                            if name == "diabetes" else
                            (DecisionTreeClassifier, sktree.DecisionTreeClassifier))
    ours = ours_cls(random_state=0, **params).fit(X, y)
    theirs = theirs_cls(random_state=0, **params).fit(X, y)
    got = importances_at(ours, len(ours.steps_))
    np.testing.assert_array_equal(got, ours.feature_importances_)
    np.testing.assert_allclose(got, importances_at(ours), rtol=0, atol=0)
    assert_matches_sklearn(ours, theirs, X, y)  # importances included, ties broken as dtree's
    summary = importance_summary(ours)
    assert summary["importance"].sum() == pytest.approx(1.0)
    np.testing.assert_allclose(summary.sort_values("feature")["importance"], got, atol=1e-12)


@pytest.mark.parametrize("name", ["iris", "wine", "diabetes"])
def test_importances_after_k_best_first_steps_match_sklearn_leaf_budgets(name):
    """Best-first growth stopped after k splits is scikit-learn's tree with
    max_leaf_nodes = k + 1, and its importances are importances_at(k): up to
    the first tie between equally good splits that scikit-learn breaks the
    other way, and for at least five budgets."""
    X, y = DATASETS[name]()
    if name == "iris":  # petal length and width tie at the root; keep one
        X = X[:, :3]
    reg = name == "diabetes"
    ours = (DecisionTreeRegressor if reg else DecisionTreeClassifier)(
        growth="best_first", max_depth=8, random_state=0).fit(X, y)
    checked = 0
    n = min(len(ours.steps_), 25)
    for k in range(1, n + 1):
        theirs = (sktree.DecisionTreeRegressor if reg else sktree.DecisionTreeClassifier)(
            max_leaf_nodes=k + 1, max_depth=8, random_state=0).fit(X, y)
        # after an exact tie broken the other way, scikit-learn's larger
        # budgets grow from another tree: the comparison ends there
        if walk_trees(ours.tree_at(k), theirs.tree_).ties:
            break
        np.testing.assert_allclose(importances_at(ours, k), theirs.feature_importances_,
                                   rtol=1e-9, atol=1e-12)
        checked += 1
    assert checked >= min(n, 5)


@pytest.mark.parametrize("make", [
    lambda: DecisionTreeClassifier(random_state=0).fit(*load_wine(return_X_y=True)),
    lambda: DecisionTreeRegressor(max_depth=5, random_state=0).fit(*load_diabetes(return_X_y=True)),
    lambda: DecisionTreeClassifier(algorithm="c4.5").fit(
        pd.read_csv(DATA / "watermelon2_alpha.csv").drop(columns=["编号", "好瓜"]),
        pd.read_csv(DATA / "watermelon2_alpha.csv")["好瓜"]),
])
def test_importance_terms_are_prefix_sums(make):
    model = make()
    n = len(model.steps_)
    full = importance_terms(model)
    assert len(full) == n
    assert full["node"].tolist() == [s.node for s in model.steps_]
    # each term by hand from the tree's arrays
    t = model.growth_tree_
    w, imp = t.weighted_n_node_samples, t.impurity
    for row in full.itertuples():
        kids = t.children_of(row.node)
        delta = imp[row.node] - sum(w[c] / w[row.node] * imp[c] for c in kids)
        assert row.delta == pytest.approx(delta, rel=1e-12, abs=1e-12)
        assert row.term == pytest.approx(w[row.node] / w[0] * delta, rel=1e-12, abs=1e-15)
    previous = np.zeros(model.n_features_in_)
    for k in range(n + 1):
        terms = importance_terms(model, k)
        pd.testing.assert_frame_equal(terms.drop(columns="share"),
                                      full.iloc[:k].drop(columns="share").reset_index(drop=True),
                                      check_dtype=False)
        raw = np.bincount(terms["feature"].astype(int), weights=terms["term"],
                          minlength=model.n_features_in_)
        assert np.all(raw >= previous - 1e-12)  # the unnormalised sums only grow
        previous = raw
        got = importances_at(model, k)
        if k == 0:
            assert not got.any()
        else:
            np.testing.assert_allclose(got, raw / raw.sum(), rtol=1e-10, atol=1e-12)
            assert got.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(importances_at(model, n), model.feature_importances_,
                               rtol=1e-12, atol=1e-15)


def test_importance_latex_has_numbers_only(iris_model):
    terms = importance_terms(iris_model, 3)
    names = list(iris_model.feature_names_in_)
    for f in range(4):
        lines = importance_latex(terms, f)
        for line in lines:
            for n in names:
                assert n not in line
        mine = terms[terms["feature"] == f]
        if len(mine):
            value = mine["term"].sum() / terms["term"].sum()
            assert lines[-1].endswith(f"= {value:.4f}")
            assert importances_at(iris_model, 3)[f] == pytest.approx(value)
        else:
            assert lines[-1].endswith("= 0")


# ---------------------------------------------------------------------------
# Hostile names, figures
# ---------------------------------------------------------------------------

HOSTILE = ["<b>bold</b>", "a*b_c`d", "$x^2$ [link](http://e.vil)", 'q"uote\\n']


@pytest.fixture(scope="module")
def hostile_model():
    X, y = load_iris(return_X_y=True)
    frame = pd.DataFrame(X, columns=HOSTILE)
    labels = np.array(["<i>setosa</i>", "vers&color", "<script>v</script>"])[y]
    return DecisionTreeClassifier(max_depth=3, random_state=0).fit(frame, labels), frame


def _strings(obj):
    """Every string inside a figure's dict."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, (list, tuple, np.ndarray)):
        for v in obj:
            yield from _strings(v)


def test_figures_escape_user_text_and_use_large_fonts(hostile_model):
    model, frame = hostile_model
    fig = importance_figure(importances_at(model, 2), list(model.feature_names_in_))
    text = "\n".join(_strings(fig.to_plotly_json()))
    for raw in ("<b>bold</b>", "<script>", "<i>setosa</i>"):
        assert raw not in text
    assert "&lt;b&gt;bold&lt;/b&gt;" in text
    assert fig.layout.font.size >= 16
    r = explain_prediction(model, frame.iloc[0].to_dict())
    fig = distribution_figure(r, "zh")
    text = "\n".join(_strings(fig.to_plotly_json()))
    assert "<i>setosa</i>" not in text and "&lt;i&gt;setosa&lt;/i&gt;" in text
    assert "&lt;script&gt;" in text
    assert fig.layout.font.size >= 16
    np.testing.assert_allclose(fig.data[0].y, r.distribution)


def _font_sizes(fig):
    layout = fig.layout
    sizes = [layout.font.size, layout.title.font.size]
    for axis in (layout.xaxis, layout.yaxis):
        sizes += [axis.tickfont.size, axis.title.font.size]
    for trace in fig.data:
        if getattr(trace, "textfont", None) is not None and trace.textfont.size is not None:
            sizes.append(trace.textfont.size)
    return sizes


def test_every_figure_font_is_at_least_16px(iris_model, melon, melon_model):
    d = load_diabetes(as_frame=True)
    reg = DecisionTreeRegressor(max_depth=3).fit(d.data, d.target)
    x = melon[0].iloc[0].to_dict()
    x[melon_model.steps_[0].feature_name] = None
    figs = [importance_figure(importances_at(iris_model), list(iris_model.feature_names_in_)),
            distribution_figure(explain_prediction(iris_model, load_iris(as_frame=True)
                                                   .data.iloc[0].to_dict())),
            distribution_figure(explain_prediction(melon_model, x), "zh"),
            distribution_figure(explain_prediction(reg, d.data.iloc[0].to_dict()))]
    for fig in figs:
        sizes = _font_sizes(fig)
        assert None not in sizes and min(sizes) >= 16, sizes


def test_distribution_figure_stacks_the_leaves_for_c45(melon, melon_model):
    X, _ = melon
    x = X.iloc[0].to_dict()
    x[melon_model.steps_[0].feature_name] = None
    r = explain_prediction(melon_model, x)
    fig = distribution_figure(r)
    bars = [t for t in fig.data if t.type == "bar"]
    assert len(bars) == len(r.leaves)
    np.testing.assert_allclose(np.sum([b.y for b in bars], axis=0), r.distribution, atol=1e-12)


# ---------------------------------------------------------------------------
# The path in the DOT drawing
# ---------------------------------------------------------------------------


def _node_attrs(dot, node):
    m = re.search(rf"^{node} \[(.*)\] ;$", dot, flags=re.M)
    return m.group(1)


def _edge_attrs(dot, a, b):
    m = re.search(rf"^{a} -> {b}(?: \[(.*)\])? ;$", dot, flags=re.M)
    return m.group(1) or ""


def _renders(dot):
    require(shutil.which("dot") is not None, "Graphviz's dot")
    out = subprocess.run(["dot", "-Tsvg"], input=dot.encode(), capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout.decode()


def test_step_dot_without_a_path_is_unchanged(iris_model):
    for k in (0, 3, len(iris_model.steps_)):
        plain, info = step_dot(iris_model, k)
        assert step_dot(iris_model, k, path=None)[0] == plain
        assert step_dot(iris_model, k, path=[])[0] == plain
        assert ON_PATH not in plain and "peripheries" not in plain
        assert info["path"] == []


def test_step_dot_draws_the_path(iris, iris_model):
    X, _ = iris
    k = 4
    r = explain_prediction(iris_model, X.iloc[120].to_dict(), k=k)
    dot, info = step_dot(iris_model, k, path=r.path)
    assert info["path"] == sorted(r.nodes)
    tree = iris_model.tree_at(k)
    steps = iris_model.steps_
    index = {int(v): i for i, v in enumerate(tree.node_ids)}
    step_colour = {index[steps[k - 1].node]: JUST_SPLIT, index[steps[k].node]: NEXT_SPLIT}
    for node in range(tree.node_count):
        attrs = _node_attrs(dot, node)
        assert ("peripheries=2" in attrs) == (node in r.nodes)
        if node in r.nodes:
            assert f'color="{step_colour.get(node, ON_PATH)}"' in attrs
        for child in tree.children_of(node):
            edge = _edge_attrs(dot, node, child)
            on = node in r.nodes and child in r.nodes
            assert (ON_PATH in edge) == on and ("penwidth=5" in edge) == on
            assert "w = " not in edge  # one path, weight 1 throughout
    # the same as the nodes given as plain indices
    assert step_dot(iris_model, k, path=r.nodes)[0] == dot
    _renders(dot)
    with pytest.raises(ValueError, match="nodes"):
        step_dot(iris_model, k, path=[tree.node_count])


def test_step_dot_labels_fractional_edges_with_their_weights(melon, melon_model):
    X, _ = melon
    x = X.iloc[0].to_dict()
    x[melon_model.steps_[0].feature_name] = None
    k = len(melon_model.steps_)
    r = explain_prediction(melon_model, x, k=k)
    dot, _ = step_dot(melon_model, k, path=r.path)
    weight = dict(r.path)
    tree = melon_model.tree_at(k)
    labelled = 0
    for node, _w in r.path:
        for child in tree.children_of(node):
            edge = _edge_attrs(dot, node, child)
            assert (ON_PATH in edge) == (child in weight)
            if child in weight and weight[child] < 1:
                assert f"w = {weight[child]:.3f}" in edge
                labelled += 1
    assert labelled >= 3
    # multiway edges keep their category above the weight
    root_children = tree.children_of(0)
    labels = r.decisions[0].branches
    for b, child in zip(labels, root_children):
        assert f'label="{b.label}\\nw = {weight[child]:.3f}"' in _edge_attrs(dot, 0, child)
    svg = _renders(dot)
    assert svg.count("w = ") >= labelled


def test_step_dot_path_with_hostile_names(hostile_model):
    model, frame = hostile_model
    r = explain_prediction(model, frame.iloc[100].to_dict(), k=3)
    dot, _ = step_dot(model, 3, path=r.path)
    svg = _renders(dot)
    assert "<b>bold</b>" not in svg and "<script>" not in svg
