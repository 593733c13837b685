"""The Learn page's numbers (dtree.views.learn), checked against hand computations,
the textbooks' printed values and scikit-learn."""

import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier as SkClassifier

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views import learn
from dtree.views.orders import root_paths
from tests.helpers.sklearn_match import assert_matches_sklearn

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
CJK = re.compile(r"[\u4e00-\u9fff]")


def H(*counts):
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


def hand(criterion, counts):
    n = sum(counts)
    p = [c / n for c in counts]
    if criterion == "entropy":
        return H(*counts)
    if criterion == "gini":
        return 1 - sum(q * q for q in p)
    if criterion == "misclassification":
        return 1 - max(p)
    return sum(q * ((1 - q) + (1 - q) ** 2 / 2) for q in p)  # taylor2


def shown_value(latex):
    """The number after the last '=' of a formula."""
    return float(latex.rsplit("=", 1)[1].strip())


# ---------------------------------------------------------------------------
# The calculator
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("9, 6", [9, 6]), ("9，6", [9, 6]), (" 3 3 2 ", [3, 3, 2]), ("5;0", [5, 0]),
    ("0.5, 1.5", [0.5, 1.5]),
])
def test_parse_counts(text, expected):
    assert learn.parse_counts(text).tolist() == expected


@pytest.mark.parametrize("text, code", [
    ("", "empty"), ("a, 1", "number"), ("nan, 1", "number"), ("-1, 2", "negative"),
    ("0, 0", "zero"), (", ".join(["1"] * 21), "too_many"),
])
def test_parse_counts_refuses(text, code):
    with pytest.raises(learn.CountsError) as info:
        learn.parse_counts(text)
    assert info.value.code == code


def test_calculator_values_for_the_loan_table():
    values = learn.impurities([9, 6])
    assert round(values["entropy"], 3) == 0.971  # Li Hang, example 5.2
    assert values["gini"] == pytest.approx(1 - 0.36 - 0.16)
    assert values["misclassification"] == pytest.approx(0.4)
    assert values["taylor2"] == pytest.approx(0.6 * (0.4 + 0.08) + 0.4 * (0.6 + 0.18))


@SETTINGS
@given(st.lists(st.integers(0, 50), min_size=1, max_size=6).filter(lambda c: sum(c) > 0))
def test_calculator_matches_hand_formulas(counts):
    values = learn.impurities(counts)
    for criterion, value in values.items():
        assert value == pytest.approx(hand(criterion, counts), abs=1e-12)


@pytest.mark.parametrize("counts", [[9, 6], [5, 1], [3, 3, 2], [7, 0, 1]])
def test_entropy_and_gini_match_sklearn_root_impurity(counts):
    y = np.repeat(np.arange(len(counts)), counts)
    X = np.zeros((len(y), 1))
    for criterion in ("entropy", "gini"):
        sk = SkClassifier(criterion=criterion).fit(X, y)
        expected = sk.tree_.impurity[0]
        present = [c for c in counts if c]  # sklearn drops classes absent from y
        assert learn.impurity(criterion, present) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("criterion", learn.CRITERIA)
def test_formula_with_counts_shows_fractions_and_value(criterion):
    latex = learn.impurity_latex(criterion, counts=[9, 6])
    assert r"\frac{9}{15}" in latex and r"\frac{6}{15}" in latex
    assert shown_value(latex) == round(hand(criterion, [9, 6]), 3)


@pytest.mark.parametrize("criterion", learn.CRITERIA)
def test_formula_with_p_shows_decimals(criterion):
    latex = learn.impurity_latex(criterion, probs=[0.6, 0.4])
    assert "0.6" in latex and "0.4" in latex and r"\frac" not in latex
    assert shown_value(latex) == round(hand(criterion, [6, 4]), 3)


def test_taylor2_formula_written_out():
    latex = learn.impurity_latex("taylor2", counts=[5, 1])
    assert latex.startswith("T_2(D) = ")
    assert r"\frac{5}{6}\left[\frac{1}{6} + \tfrac{1}{2}\left(\frac{1}{6}\right)^2\right]" in latex
    assert shown_value(latex) == round(hand("taylor2", [5, 1]), 3)
    assert learn.impurity_latex("taylor2", counts=[4, 0]).endswith("= 0")
    three = learn.impurity_latex("taylor2", counts=[3, 3, 2])  # two terms per line
    assert three.count(r"\\") == 2
    assert three.endswith(rf"&= {hand('taylor2', [3, 3, 2]):.3f} \end{{aligned}}")
    assert r"\text" not in learn.impurity_latex("entropy", counts=[4, 0])  # no English


def test_misclassification_exercise_gains():
    parent, kids = learn.ERR_EXAMPLE
    assert learn.split_gain("misclassification", parent, kids) == 0.0  # 20/60 = 10/60 + 10/60
    assert learn.split_gain("entropy", parent, kids) == pytest.approx(
        H(40, 20) - 40 / 60 * H(30, 10) - 20 / 60 * H(10, 10))
    assert learn.split_gain("gini", parent, kids) == pytest.approx(
        (1 - (2 / 3) ** 2 - (1 / 3) ** 2) - 40 / 60 * 0.375 - 20 / 60 * 0.5)
    assert learn.split_gain("entropy", parent, kids) > 0.04


def test_curves_at_a_half_and_their_order():
    frame = learn.curve_frame([1, 1], n=201)
    half = frame.iloc[100]
    assert half["p"] == 0.5
    assert half["entropy"] == pytest.approx(1.0)
    assert half["gini"] == pytest.approx(0.5)
    assert half["misclassification"] == pytest.approx(0.5)
    assert half["taylor2"] == pytest.approx(0.625)
    assert half["entropy_nats"] == pytest.approx(math.log(2))
    # Gini keeps one term of -ln p's series, T2 two: Gini <= T2 <= H ln 2
    assert (frame["gini"] <= frame["taylor2"] + 1e-12).all()
    assert (frame["taylor2"] <= frame["entropy_nats"] + 1e-12).all()
    assert (frame[["entropy", "gini", "misclassification", "taylor2"]] >= 0).all().all()


def test_curves_for_three_classes_keep_the_others_ratio():
    frame = learn.curve_frame([2, 3, 1], n=7)  # p = 0, 1/6, ..., 1
    at = frame.iloc[2]  # p = 1/3 = 2/6: the distribution itself
    assert at["p"] == pytest.approx(1 / 3)
    assert at["entropy"] == pytest.approx(H(2, 3, 1))
    assert frame.iloc[0]["entropy"] == pytest.approx(H(3, 1))


def test_impurity_figure_marks_the_current_point():
    fig = learn.impurity_figure([9, 6], lang="zh")
    markers = [t for t in fig.data if t.mode == "markers"]
    assert len(markers) == 4
    for trace, criterion in zip(markers, learn.CRITERIA):
        assert trace.x[0] == pytest.approx(0.6)
        assert trace.y[0] == pytest.approx(hand(criterion, [9, 6]))
    assert "信息熵" in fig.data[0].name
    assert fig.layout.xaxis.tickfont.size >= 16 and fig.layout.font.size >= 16


# ---------------------------------------------------------------------------
# Li Hang's loan table: entropy, conditional entropy, information gain
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def loan():
    X, y = learn.load_example("loan", with_id=False)
    return learn.gain_example(X, y)


def test_loan_gains_are_the_books(loan):
    assert round(loan.entropy, 3) == 0.971
    gains = {f.feature: round(f.gain, 3) for f in loan.features}
    # Li Hang, Statistical Learning Methods, example 5.2
    assert gains == {"年龄": 0.083, "有工作": 0.324, "有自己的房子": 0.420, "信贷情况": 0.363}
    assert loan.best_by_gain == "有自己的房子"
    assert [f.symbol for f in loan.features] == ["A_{1}", "A_{2}", "A_{3}", "A_{4}"]


def test_loan_counts_and_conditional_entropies_by_hand(loan):
    frame = pd.read_csv(learn.DATA_DIR / "loan.csv", dtype=str)
    assert loan.classes == ["是", "否"] and loan.counts.tolist() == [9, 6]
    age = loan.feature("年龄")
    assert [b.value for b in age.branches] == ["青年", "中年", "老年"]
    assert [b.counts.tolist() for b in age.branches] == [[2, 3], [3, 2], [4, 1]]
    assert round(age.conditional_entropy, 3) == 0.888  # seed 003's worked example
    for f in loan.features:
        table = pd.crosstab(frame[f.feature], frame["类别"])
        expected = sum(row.sum() / 15 * H(*row) for _, row in table.iterrows())
        assert f.conditional_entropy == pytest.approx(expected, abs=1e-12)
        assert f.gain == pytest.approx(H(9, 6) - expected, abs=1e-12)
        sizes = table.sum(axis=1).tolist()
        assert f.split_info == pytest.approx(H(*sizes), abs=1e-12)
        assert [b.size for b in f.branches] == [
            float(table.loc[b.value].sum()) for b in f.branches]


def test_loan_formulas_are_written_out(loan):
    age = loan.feature("年龄")
    cond = learn.conditional_entropy_latex(age)
    assert (r"\frac{5}{15}H(D_{1}) + \frac{5}{15}H(D_{2}) + \frac{5}{15}H(D_{3})" in cond)
    assert r"\frac{5}{15}\cdot 0.971 + \frac{5}{15}\cdot 0.971 + \frac{5}{15}\cdot 0.722" in cond
    assert cond.endswith(r"\\ &= 0.888 \end{aligned}")
    assert learn.gain_equation_latex(age, loan.entropy) == (
        r"g(D, A_{1}) = H(D) - H(D\mid A_{1}) = 0.971 - 0.888 = 0.083")
    lines = learn.branch_entropy_latex(age)
    assert lines[0] == (r"H(D_{1}) = -\left(\frac{2}{5}\log_2 \frac{2}{5} + "
                        r"\frac{3}{5}\log_2 \frac{3}{5}\right) = 0.971")
    assert shown_value(lines[2]) == round(H(4, 1), 3)
    house = loan.feature("有自己的房子")
    assert learn.gain_equation_latex(house, loan.entropy).endswith("0.971 - 0.551 = 0.420")
    for f in loan.features:  # symbols only: no user text in LaTeX
        for latex in [learn.conditional_entropy_latex(f), learn.split_info_latex(f),
                      learn.gain_ratio_latex(f), *learn.branch_entropy_latex(f)]:
            assert not CJK.search(latex)


# ---------------------------------------------------------------------------
# Gain ratio and the ID column
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def loan_id():
    X, y = learn.load_example("loan", with_id=True)
    return learn.gain_example(X, y, learn.feature_symbols(X.columns, "ID"))


def test_id_column_has_the_largest_gain_and_a_small_ratio(loan_id):
    ident = loan_id.feature("ID")
    assert ident.symbol == r"A_{\mathrm{ID}}"
    assert len(ident.branches) == 15
    assert ident.gain == pytest.approx(H(9, 6), abs=1e-12)  # H(D|ID) = 0
    assert ident.conditional_entropy == 0
    assert ident.split_info == pytest.approx(math.log2(15), abs=1e-12)
    assert ident.gain_ratio == pytest.approx(H(9, 6) / math.log2(15), abs=1e-12)
    assert loan_id.best_by_gain == "ID"
    assert loan_id.best_by_ratio == "有自己的房子"
    ratios = {f.feature: f.gain_ratio for f in loan_id.features}
    assert max(ratios, key=ratios.get) == "有自己的房子"
    assert round(ratios["有自己的房子"], 3) == 0.433 and round(ratios["年龄"], 3) == 0.052
    assert learn.split_info_latex(ident).endswith(r"= \log_2 15 = 3.907")
    assert learn.gain_ratio_latex(ident).endswith(r"\frac{0.971}{3.907} = 0.249")
    # the other symbols keep Li Hang's numbering
    assert loan_id.feature("年龄").symbol == "A_{1}"


def test_gain_ratio_figure(loan_id):
    fig = learn.gain_ratio_figure(loan_id, lang="en")
    gain, ratio = fig.data
    assert list(gain.y) == [f.gain for f in loan_id.features]
    assert list(ratio.y) == [f.gain_ratio for f in loan_id.features]
    assert list(gain.x) == [f.feature for f in loan_id.features]
    assert "0.249" in ratio.text


def test_figure_escapes_feature_names():
    X = pd.DataFrame({"<b>x</b>": ["a", "b", "a", "b"], "y&z": ["p", "p", "q", "q"]})
    ex = learn.gain_example(X, ["u", "v", "u", "v"])
    fig = learn.gain_ratio_figure(ex)
    assert list(fig.data[0].x) == ["&lt;b&gt;x&lt;/b&gt;", "y&amp;z"]


# ---------------------------------------------------------------------------
# The lecture's cat example
# ---------------------------------------------------------------------------

def test_cat_gains_and_formulas():
    X, y = learn.load_example("cats")
    ex = learn.gain_example(X, y)
    gains = {f.feature: round(f.gain, 2) for f in ex.features}
    assert gains == {"ear_shape": 0.28, "face_shape": 0.03, "whiskers": 0.12}
    assert ex.best_by_gain == "ear_shape"
    ear = learn.cat_gain_latex(ex.feature("ear_shape"), ex, "1", "pointy")
    assert r"H\left(0.5\right) - \left(\frac{5}{10}H\left(0.8\right) + " \
           r"\frac{5}{10}H\left(0.2\right)\right)" in ear
    assert r"\approx 0.28" in ear
    face = learn.cat_gain_latex(ex.feature("face_shape"), ex, "1", "round")
    assert r"\frac{7}{10}H\left(\frac{4}{7}\right) + \frac{3}{10}H\left(\frac{1}{3}\right)" in face
    assert r"\approx 0.03" in face
    whiskers = learn.cat_gain_latex(ex.feature("whiskers"), ex, "1", "present")
    assert r"\frac{4}{10}H\left(0.75\right)" in whiskers and r"\approx 0.12" in whiskers
    assert r"0.1245 \approx 0.12" in whiskers  # 1 - (0.4 H(3/4) + 0.6 H(1/3))
    assert round(1 - (0.4 * H(3, 1) + 0.6 * H(2, 4)), 4) == 0.1245


# ---------------------------------------------------------------------------
# Rescaling the features
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def iris():
    frame = pd.read_csv(learn.DATA_DIR / "iris.csv")
    return frame.drop(columns="species"), frame["species"].to_numpy()


def test_standardise_uses_training_mean_and_population_std(iris):
    X, _ = iris
    Xz, mean, scale = learn.standardise(X, [0, 2])
    np.testing.assert_allclose(mean, X.iloc[:, [0, 2]].mean().to_numpy())
    np.testing.assert_allclose(scale, X.iloc[:, [0, 2]].std(ddof=0).to_numpy())
    np.testing.assert_allclose(Xz.iloc[:, 0].mean(), 0, atol=1e-12)
    np.testing.assert_allclose(Xz.iloc[:, 2].std(ddof=0), 1)
    pd.testing.assert_series_equal(Xz.iloc[:, 1], X.iloc[:, 1])  # not listed: unchanged
    const = np.array([[1.0, 2.0], [1.0, 3.0], [np.nan, 4.0]])
    Z, m, s = learn.standardise(const, [0, 1])
    assert m[0] == 1.0 and s[0] == 1.0 and np.isnan(Z[2, 0]) and Z[0, 0] == 0.0


def test_scaling_on_iris_same_partitions_thresholds_move(iris):
    X, y = iris
    model = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    report = learn.scaling_report(model, X, y)
    assert report.identical_partitions
    assert report.columns == list(X.columns)
    frame = report.thresholds
    assert len(frame) == int((~model.tree_.is_leaf()).sum())
    assert frame["same_cut"].all() and frame["midpoint"].all() and frame["midpoint_z"].all()
    np.testing.assert_allclose(frame["threshold_z_back"], frame["threshold"], rtol=1e-6)
    # a and b by hand: the largest value going left and the smallest going right
    path = model.decision_path(X).toarray().astype(bool)
    for row in frame.itertuples():
        left, right = model.tree_.children_of(row.node)
        x = X[row.feature].to_numpy(dtype=np.float32).astype(float)
        assert row.left_max == x[path[:, left]].max()
        assert row.right_min == x[path[:, right]].min()
        assert row.threshold == row.left_max / 2 + row.right_min / 2
    # the standardised tree is scikit-learn's on the same z-scores
    Xz, _, _ = learn.standardise(X, range(4))
    sk = SkClassifier(max_depth=4, random_state=0).fit(Xz.to_numpy(), y)
    assert_matches_sklearn(report.model_z, sk, Xz.to_numpy(), y)


def test_scaling_with_missing_values_and_categories():
    frame = pd.read_csv(learn.DATA_DIR / "penguins.csv")
    X, y = frame.drop(columns="species"), frame["species"]
    model = DecisionTreeClassifier(max_depth=4, algorithm="c4.5").fit(X, y)
    report = learn.scaling_report(model, X, y)
    assert report.identical_partitions
    assert "island" not in report.columns and "sex" not in report.columns
    assert report.thresholds["same_cut"].all()


def test_scaling_regression_and_no_numeric_features():
    rng = np.random.default_rng(2)
    X = rng.normal(loc=50, scale=20, size=(100, 3))
    y = X[:, 0] * 2 + rng.normal(size=100)
    model = DecisionTreeRegressor(max_depth=4).fit(X, y)
    report = learn.scaling_report(model, X, y)
    assert report.identical_partitions and report.thresholds["same_cut"].all()
    X, y = learn.load_example("loan", with_id=False)
    model = DecisionTreeClassifier(algorithm="id3").fit(X, y)
    assert len(learn.numeric_columns(model)) == 0


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(10, 80), d=st.integers(1, 3),
       depth=st.integers(1, 6),
       transform=st.lists(st.tuples(st.floats(0.1, 10), st.floats(-100, 100)),
                          min_size=3, max_size=3))
def test_positive_affine_transforms_keep_the_partitions(seed, n, d, depth, transform):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 30, size=(n, d)).astype(float)
    y = rng.integers(0, 3, size=n)
    scale = np.array([t[0] for t in transform[:d]])
    shift = np.array([t[1] for t in transform[:d]])
    a = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
    b = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X * scale + shift, y)
    pa, pb = root_paths(a.tree_), root_paths(b.tree_)
    assert [pa[i] for i in a.apply(X)] == [pb[i] for i in b.apply(X * scale + shift)]
    from dtree.views.orders import signatures
    assert signatures(a.tree_, with_threshold=False) == signatures(b.tree_, with_threshold=False)
    report = learn.scaling_report(a, X, y)
    assert report.identical_partitions and report.thresholds["same_cut"].all()


# ---------------------------------------------------------------------------
# The page's helpers: the cat example's branches, the columns to rescale
# ---------------------------------------------------------------------------

def test_cat_sides_are_the_lectures_left_and_the_other_value():
    X, y = learn.load_example("cats")
    ex = learn.gain_example(X, y)
    sides = {fg.feature: learn.cat_sides(fg) for fg in ex.features}
    assert sides == {"ear_shape": ("pointy", "floppy"), "face_shape": ("round", "not round"),
                     "whiskers": ("present", "absent")}
    for fg in ex.features:
        assert sorted(sides[fg.feature]) == sorted(b.value for b in fg.branches)


def test_scaled_columns_are_the_tables_numeric_columns():
    from types import SimpleNamespace

    from dtree.tables.prepare import Setup, prepare
    frame = pd.read_csv(learn.DATA_DIR / "penguins.csv")
    features = tuple(c for c in frame.columns if c != "species")
    setup = Setup("species", features, ("island", "sex"))
    prep = prepare(frame, setup)
    model = DecisionTreeClassifier(max_depth=3, categorical_features=["island", "sex"]).fit(
        prep.X_train, prep.y_train)
    names = list(prep.X_train.columns)
    got = learn.scaled_columns(model, prep)
    assert [names[j] for j in got] == prep.numeric_features()
    assert all(isinstance(j, int) for j in got)
    # a column the table calls categorical is left out even when the model
    # reads it as a number (an ordinal code)
    coded = SimpleNamespace(X_train=prep.X_train,
                            numeric_features=lambda: prep.numeric_features()[1:])
    assert [names[j] for j in learn.scaled_columns(model, coded)] == prep.numeric_features()[1:]
    # without the table's names: every feature numeric to the model
    bare = SimpleNamespace(X_train=prep.X_train.to_numpy())
    assert learn.scaled_columns(model, bare) == [int(j) for j in learn.numeric_columns(model)]
    X, y = learn.load_example("loan", with_id=False)
    id3 = DecisionTreeClassifier(algorithm="id3").fit(X, y)
    assert learn.scaled_columns(id3, SimpleNamespace(X_train=X)) == []
