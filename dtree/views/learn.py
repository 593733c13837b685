"""The Learn page's numbers: the lecture notes' concepts computed by the engine.

* an impurity calculator: entropy, Gini index, misclassification rate and
  the second-order Taylor approximation of a class distribution, with the
  formula and the numbers substituted, and the impurity-against-p curves;
* the worked examples: Li Hang's loan table (H(D) = 0.971; g(D, A1..A4) =
  0.083, 0.324, 0.420, 0.363, each conditional entropy written out), the
  lecture's cat example (gains 0.28 / 0.03 / 0.12), and the gain ratio's
  penalty on an identifier-like feature (the loan table's ID column);
* the exercise "does rescaling the features change the tree?": a refit on
  z-scores has the same partitions, only the thresholds move.

Every number comes from the engine (dtree's criteria and estimators); the
LaTeX strings contain only numbers and fixed symbols, never user text
(features are named A_1, A_2, ... and branches D_1, D_2, ..., with a legend
shown by the page).  Plotly builders take ``lang`` ("en"/"zh") and escape
user text.  No Streamlit here; the page's words and tables are in
:mod:`dtree.views.learntext`.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .vocabulary import t
from . import explain
from .. import DecisionTreeClassifier, OKABE_ITO, make_criterion
from .orders import root_paths, signatures
from .viz import drawn_dot, step_words, tree_font_size

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
#: The four impurities of the calculator, in display order.
CRITERIA = ("entropy", "gini", "misclassification", "taylor2")
SYMBOL = {**explain.SYMBOL, "taylor2": r"T_2"}
#: More classes than this are refused by the calculator.
MAX_CLASSES = 20
FONT_SIZE = 18


# ---------------------------------------------------------------------------
# The impurity calculator
# ---------------------------------------------------------------------------


class CountsError(ValueError):
    """Class counts that cannot be used; ``code`` says why ("empty",
    "number", "negative", "zero", "too_many"), ``token`` names the culprit."""

    def __init__(self, code, token=""):
        super().__init__(f"{code}: {token}")
        self.code = code
        self.token = token


def parse_counts(text: str) -> np.ndarray:
    """Class counts typed as "9, 6" (commas, semicolons, spaces, full-width
    punctuation all separate).  Raises :class:`CountsError`."""
    tokens = [t for t in re.split(r"[\s,;，；、]+", str(text).strip()) if t]
    if not tokens:
        raise CountsError("empty")
    if len(tokens) > MAX_CLASSES:
        raise CountsError("too_many", str(len(tokens)))
    values = []
    for token in tokens:
        try:
            v = float(token)
        except ValueError:
            raise CountsError("number", token[:20]) from None
        if not np.isfinite(v):
            raise CountsError("number", token[:20])
        if v < 0:
            raise CountsError("negative", token[:20])
        values.append(v)
    counts = np.array(values, dtype=np.float64)
    if counts.sum() <= 0:
        raise CountsError("zero")
    return counts


def impurity(criterion: str, counts) -> float:
    """The engine's impurity of a node with these class counts (or
    probabilities: only proportions matter)."""
    return explain.impurity_from_counts(criterion, counts)


def impurities(counts) -> dict:
    """{criterion: value} for the calculator's four criteria."""
    return {c: impurity(c, counts) for c in CRITERIA}


def split_gain(criterion: str, parent, children) -> float:
    """I(D) - sum_i |D_i|/|D| I(D_i) for class counts of a node and of its
    children (exact zeros come out as 0, not as rounding noise)."""
    n = float(np.sum(parent))
    gain = impurity(criterion, parent) - sum(
        float(np.sum(c)) / n * impurity(criterion, c) for c in children)
    return 0.0 if abs(gain) < 1e-12 else float(gain)


#: An exercise on 1 - max p: a split that makes the children purer
#: without lowering the weighted misclassification rate.
ERR_EXAMPLE = ([40, 20], [[30, 10], [10, 10]])


def _decimal(p) -> str:
    text = f"{float(p):.4f}".rstrip("0").rstrip(".")
    return text if text else "0"


def _shares(counts, as_fractions):
    """(p_k, 1 - p_k) as LaTeX for each class with a positive count."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum()
    out = []
    for c in counts:
        if c <= 0:
            continue
        if as_fractions:
            out.append((explain.frac(c, total), explain.frac(total - c, total)))
        else:
            out.append((_decimal(c / total), _decimal(1 - c / total)))
    return out


def impurity_latex(criterion: str, counts=None, probs=None, name="D") -> str:
    """``Sym(D) = formula with the numbers = value``.

    With ``counts`` the shares are written as fractions (entropy, Gini and
    misclassification use :func:`dtree.views.explain.impurity_latex`, the Grow
    page's formulas); with ``probs`` (the two-class slider) as decimals.
    """
    if (counts is None) == (probs is None):
        raise ValueError("give counts or probs")
    as_fractions = counts is not None
    values = np.asarray(counts if as_fractions else probs, dtype=np.float64)
    value = impurity(criterion, values)
    if as_fractions and criterion in ("entropy", "gini", "misclassification"):
        # the English note "(a pure node)" is left out: the page is bilingual,
        # and the value 0 says it
        return explain.impurity_latex(criterion, values, value=value, name=name).replace(
            r"\quad(\text{a pure node})", "")
    shares = explain.abbreviate(_shares(values, as_fractions)) if len(values) else []

    def each(fmt):
        return [s if isinstance(s, str) else fmt(*s) for s in shares]

    if criterion == "entropy":
        body = r"-\left(" + " + ".join(each(lambda p, q: rf"{p}\log_2 {p}")) + r"\right)"
    elif criterion == "gini":
        body = r"1 - \left(" + " + ".join(each(lambda p, q: rf"{p}^2")) + r"\right)"
    elif criterion == "misclassification":
        body = r"1 - \max\left(" + ", ".join(each(lambda p, q: p)) + r"\right)"
    elif criterion == "taylor2":
        terms = each(lambda p, q: rf"{p}\left[{q} + \tfrac{{1}}{{2}}\left({q}\right)^2\right]")
        if len(terms) > 2:  # wide terms: two per line
            lines = [" + ".join(terms[i:i + 2]) for i in range(0, len(terms), 2)]
            return (rf"\begin{{aligned}} {SYMBOL[criterion]}({name}) &= " + r" \\ &+ ".join(lines)
                    + rf" \\ &= {explain.num(value)} \end{{aligned}}")
        body = " + ".join(terms)
    else:
        raise ValueError(f"not a calculator criterion: {criterion!r}")
    return rf"{SYMBOL[criterion]}({name}) = {body} = {explain.num(value)}"


def definition_latex(criterion: str) -> str:
    """The general formula, as the lecture notes write it."""
    return {
        "entropy": r"H(D) = -\sum_{k=1}^{K} p_k \log_2 p_k",
        "gini": r"\mathrm{Gini}(D) = \sum_{k=1}^{K} p_k(1-p_k) = 1 - \sum_{k=1}^{K} p_k^2",
        "misclassification": r"\mathrm{Err}(D) = 1 - \max_k p_k",
        "taylor2": r"T_2(D) = \sum_{k=1}^{K} p_k\left[(1-p_k) + \tfrac{1}{2}(1-p_k)^2\right]",
    }[criterion]


#: -ln p around p = 1, the series behind Gini (first term) and T_2 (two terms).
TAYLOR_SERIES = (r"-\ln p = (1-p) + \tfrac{1}{2}(1-p)^2 + \tfrac{1}{3}(1-p)^3 + \cdots"
                 r"\quad\Rightarrow\quad H(D)\,\ln 2 = \sum_k p_k(-\ln p_k)"
                 r"\approx \sum_k p_k(1-p_k) = \mathrm{Gini}(D)")

#: Extra curves of the chart (not criteria of the engine): entropy in nats,
#: which Gini and T_2 approximate, and half the entropy (the lecture's figure
#: compares it with Gini).
EXTRA_CURVES = ("entropy_nats", "half_entropy")


def _distribution(counts, p):
    """Class shares with class 1 at ``p`` (array) and the other classes
    sharing 1 - p in their current ratio (evenly if they are all zero)."""
    counts = np.asarray(counts, dtype=np.float64)
    k = len(counts)
    rest = counts[1:]
    ratio = rest / rest.sum() if rest.sum() > 0 else np.full(k - 1, 1.0 / (k - 1))
    return np.vstack([p[None, :], (1.0 - p)[None, :] * ratio[:, None]])  # (k, n)


def curve_frame(counts, n=201) -> pd.DataFrame:
    """Each impurity as class 1's share p goes from 0 to 1 (two classes: the
    usual curve; more: the other classes keep their ratio).  Columns: p, the
    four criteria, entropy_nats, half_entropy."""
    counts = np.asarray(counts, dtype=np.float64)
    if len(counts) < 2:
        counts = np.append(counts, 0.0)
    p = np.linspace(0.0, 1.0, n)
    shares = _distribution(counts, p)
    stats = np.vstack([shares, shares.sum(axis=0, keepdims=True)])
    out = {"p": p}
    for c in CRITERIA:
        crit = make_criterion(c, len(counts), classification=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            v = crit.impurity(stats)
        out[c] = np.where(v == 0, 0.0, v)  # no "-0" in the hover text
    out["entropy_nats"] = out["entropy"] * np.log(2.0)
    out["half_entropy"] = out["entropy"] / 2.0
    return pd.DataFrame(out)


#: Short names for the curve picker.
CURVE_SHORT = {"entropy": "H", "gini": "Gini", "misclassification": "Err", "taylor2": "T₂",
               "entropy_nats": "H·ln 2", "half_entropy": "H/2"}
CURVE_NAMES = {
    "entropy": ("entropy H (bits)", "信息熵 H（比特）"),
    "gini": ("Gini index", "基尼系数 Gini"),
    "misclassification": ("misclassification 1 − max p", "误分类率 1 − max p"),
    "taylor2": ("2nd-order Taylor T₂", "二阶泰勒近似 T₂"),
    "entropy_nats": ("entropy in nats H·ln 2", "信息熵（奈特）H·ln 2"),
    "half_entropy": ("half entropy H/2", "熵之半 H/2"),
}
CURVE_STYLE = {
    "entropy": (OKABE_ITO[4], "solid"),
    "gini": (OKABE_ITO[5], "solid"),
    "misclassification": (OKABE_ITO[2], "solid"),
    "taylor2": (OKABE_ITO[6], "solid"),
    "entropy_nats": (OKABE_ITO[1], "dash"),
    "half_entropy": (OKABE_ITO[0], "dot"),
}


def _readable(fig):
    """Axis text at projector size (Streamlit's chart theme would shrink it)."""
    axis = {"tickfont": {"size": FONT_SIZE - 2}, "title_font": {"size": FONT_SIZE}}
    fig.update_xaxes(**axis)
    fig.update_yaxes(**axis)
    return fig


def impurity_figure(counts, curves=CRITERIA, lang="en", height=480):
    """The impurity curves against p (class 1's share) with the current
    distribution marked on each."""
    import plotly.graph_objects as go

    counts = np.asarray(counts, dtype=np.float64)
    if len(counts) < 2:
        counts = np.append(counts, 0.0)
    frame = curve_frame(counts)
    p_now = counts[0] / counts.sum()
    values = impurities(counts)  # the marked point is the distribution itself
    values["entropy_nats"] = values["entropy"] * np.log(2.0)
    values["half_entropy"] = values["entropy"] / 2.0
    fig = go.Figure()
    for c in curves:
        colour, dash = CURVE_STYLE[c]
        name = t(lang, *CURVE_NAMES[c])
        fig.add_trace(go.Scatter(x=frame["p"], y=frame[c], mode="lines", name=name,
                                 line={"color": colour, "width": 3, "dash": dash},
                                 hovertemplate="p = %{x:.3f}<br>%{y:.4f}<extra></extra>"))
        fig.add_trace(go.Scatter(x=[p_now], y=[values[c]], mode="markers", showlegend=False,
                                 marker={"color": colour, "size": 14,
                                         "line": {"color": "#000", "width": 1.5}},
                                 hovertemplate=f"{html.escape(name)}<br>p = %{{x:.3f}}"
                                               "<br>%{y:.4f}<extra></extra>"))
    fig.add_vline(x=p_now, line={"color": "#555", "width": 1.5, "dash": "dot"})
    x_title = t(lang, "p₁ = share of class 1", "p₁ = 第 1 类所占比例")
    if len(counts) > 2:
        x_title += t(lang, " (the other classes keep their ratio)", "（其余类别保持现有比例）")
    fig.update_layout(
        font={"size": FONT_SIZE}, height=height,
        margin={"l": 70, "r": 20, "t": 30, "b": 130},
        legend={"font": {"size": FONT_SIZE - 2}, "orientation": "h", "y": -0.25, "x": 0},
        xaxis={"title": x_title, "range": [0, 1]},
        yaxis={"title": t(lang, "impurity", "不纯度"), "rangemode": "tozero"},
    )
    return _readable(fig)


# ---------------------------------------------------------------------------
# Worked examples: entropy, conditional entropy, information gain, gain ratio
# ---------------------------------------------------------------------------

#: name -> (file, target, identifier column)
EXAMPLES = {"loan": ("loan.csv", "类别", "ID"), "cats": ("cats.csv", "cat", None)}
#: The lecture draws these values on the left branch (Andrew Ng's cat example).
CAT_LEFT = {"ear_shape": "pointy", "face_shape": "round", "whiskers": "present"}


def cat_sides(fg) -> tuple[str, str]:
    """(left, right): the values of a cat-example feature on the branches the
    lecture draws left (:data:`CAT_LEFT`) and right."""
    left = CAT_LEFT[fg.feature]
    return left, next(b.value for b in fg.branches if b.value != left)


def load_example(name: str, with_id=True):
    """(X, y) of a bundled textbook table, every feature as text labels."""
    file, target, id_column = EXAMPLES[name]
    frame = pd.read_csv(DATA_DIR / file, dtype=str, keep_default_na=False)
    if id_column is not None and not with_id:
        frame = frame.drop(columns=id_column)
    return frame.drop(columns=target), frame[target]


def feature_symbols(columns, id_column=None) -> dict:
    """A_1, A_2, ... in column order; an identifier column is A_ID."""
    out, i = {}, 0
    for c in columns:
        if c == id_column:
            out[c] = r"A_{\mathrm{ID}}"
        else:
            i += 1
            out[c] = f"A_{{{i}}}"
    return out


@dataclass
class Branch:
    """One value of a feature: its rows' class counts and entropy H(D_i)."""

    value: str
    counts: np.ndarray
    entropy: float

    @property
    def size(self):
        return float(self.counts.sum())


@dataclass
class FeatureGain:
    """One feature at the root: the engine's gain, split information and
    gain ratio, and the class counts of every branch (in the order the table
    first lists the values)."""

    feature: str
    symbol: str
    branches: list
    gain: float
    split_info: float
    gain_ratio: float

    @property
    def conditional_entropy(self) -> float:
        """H(D|A) = sum_i |D_i|/|D| H(D_i)."""
        n = sum(b.size for b in self.branches)
        return float(sum(b.size / n * b.entropy for b in self.branches))


@dataclass
class GainExample:
    """The root of a categorical table: H(D) and every feature's numbers."""

    classes: list  # in display order (most frequent first)
    counts: np.ndarray
    entropy: float
    features: list
    best_by_gain: str
    best_by_ratio: str

    @property
    def n(self) -> float:
        return float(self.counts.sum())

    def feature(self, name) -> FeatureGain:
        return next(f for f in self.features if f.feature == name)

    def table(self) -> pd.DataFrame:
        return pd.DataFrame({
            "feature": [f.feature for f in self.features],
            "branches": [len(f.branches) for f in self.features],
            "conditional_entropy": [f.conditional_entropy for f in self.features],
            "gain": [f.gain for f in self.features],
            "split_info": [f.split_info for f in self.features],
            "gain_ratio": [f.gain_ratio for f in self.features],
        })


def gain_example(X: pd.DataFrame, y, symbols=None) -> GainExample:
    """ID3's and C4.5's root search on a table of categorical features,
    done by the engine (one branch per value)."""
    columns = list(X.columns)
    symbols = symbols or feature_symbols(columns)
    common = dict(multiway=True, max_depth=1, categorical_features=columns)
    est = DecisionTreeClassifier(criterion="entropy", **common).fit(X, y)
    ratio = DecisionTreeClassifier(criterion="gain_ratio", **common).fit(X, y)
    cand = est.candidates(0).set_index("feature")
    y = pd.Series(np.asarray(y, dtype=object))
    totals = y.value_counts(sort=False)
    classes = sorted(est.classes_.tolist(), key=lambda c: (-totals[c], est.classes_.tolist()
                                                               .index(c)))
    features = []
    for col in columns:
        x = pd.Series(X[col].to_numpy(dtype=object))
        branches = []
        for value in pd.unique(x):  # the order the table first lists them
            counts = np.array([np.sum((x == value) & (y == c)) for c in classes], float)
            branches.append(Branch(str(value), counts, impurity("entropy", counts)))
        row = cand.loc[col]
        features.append(FeatureGain(col, symbols[col], branches, float(row["gain"]),
                                    float(row["split_info"]), float(row["gain_ratio"])))
    counts = np.array([totals[c] for c in classes], dtype=np.float64)
    return GainExample(classes, counts, float(est.tree_.impurity[0]), features,
                       est.steps_[0].feature_name, ratio.steps_[0].feature_name)


def entropy_latex(counts, name="D") -> str:
    """H(D) = -(9/15 log2 9/15 + 6/15 log2 6/15) = 0.971."""
    return impurity_latex("entropy", counts=counts, name=name)


def _abbreviated(terms):
    return explain.abbreviate(list(terms))


def conditional_entropy_latex(fg: FeatureGain) -> str:
    """H(D|A) = sum |D_i|/|D| H(D_i), then with the numbers, then its value."""
    n = sum(b.size for b in fg.branches)
    named = _abbreviated(rf"{explain.frac(b.size, n)}H(D_{{{i}}})"
                         for i, b in enumerate(fg.branches, start=1))
    valued = _abbreviated(rf"{explain.frac(b.size, n)}\cdot {explain.num(b.entropy)}"
                          for b in fg.branches)
    return (rf"\begin{{aligned}} H(D\mid {fg.symbol}) &= " + " + ".join(named)
            + r" \\ &= " + " + ".join(valued)
            + rf" \\ &= {explain.num(fg.conditional_entropy)} \end{{aligned}}")


def branch_entropy_latex(fg: FeatureGain) -> list[str]:
    """H(D_i) = ... for every branch."""
    return [entropy_latex(b.counts, name=f"D_{{{i}}}")
            for i, b in enumerate(fg.branches, start=1)]


def gain_equation_latex(fg: FeatureGain, entropy: float) -> str:
    """g(D, A) = H(D) - H(D|A) = 0.971 - 0.888 = 0.083."""
    return (rf"g(D, {fg.symbol}) = H(D) - H(D\mid {fg.symbol}) = {explain.num(entropy)} - "
            rf"{explain.num(fg.conditional_entropy)} = {explain.num(fg.gain)}")


def split_info_latex(fg: FeatureGain) -> str:
    """H_A(D) = -sum |D_i|/|D| log2 |D_i|/|D| (the split information, C4.5's
    intrinsic value) with the numbers; m equal branches are written
    -m * (s/n log2 s/n) = log2 m."""
    n = sum(b.size for b in fg.branches)
    sizes = [b.size for b in fg.branches]
    head = rf"H_{{{fg.symbol}}}(D) = "
    if len(sizes) > 1 and len(set(sizes)) == 1:
        p = explain.frac(sizes[0], n)
        body = (rf"-{len(sizes)}\cdot\left({p}\log_2 {p}\right) = \log_2 {len(sizes)}")
    else:
        terms = _abbreviated(rf"{explain.frac(s, n)}\log_2 {explain.frac(s, n)}"
                             for s in sizes)
        body = r"-\left(" + " + ".join(terms) + r"\right)"
    return head + body + rf" = {explain.num(fg.split_info)}"


def gain_ratio_latex(fg: FeatureGain) -> str:
    """g_R(D, A) = g(D, A) / H_A(D) with the numbers."""
    return (rf"g_R(D, {fg.symbol}) = \frac{{g(D, {fg.symbol})}}{{H_{{{fg.symbol}}}(D)}} = "
            rf"\frac{{{explain.num(fg.gain)}}}{{{explain.num(fg.split_info)}}} = "
            rf"{explain.num(fg.gain_ratio)}")


def _p_text(count, total) -> str:
    """A share as the lecture writes it: 0.8 when it has a short decimal,
    otherwise a fraction (4/7)."""
    if abs(count * 100 / total - round(count * 100 / total)) < 1e-9:
        return _decimal(count / total)
    return explain.frac(count, total)


def cat_gain_latex(fg: FeatureGain, example: GainExample, positive, left_value) -> str:
    """Andrew Ng's form: IG = H(p1_root) - (w_left H(p1_left) + w_right
    H(p1_right)), with p1 the share of the positive class."""
    k = example.classes.index(positive)
    by_value = {b.value: b for b in fg.branches}
    left = by_value[left_value]
    right = next(b for b in fg.branches if b.value != left_value)
    n = example.n
    root_p = _p_text(example.counts[k], n)

    def h_of(b):
        return rf"H\left({_p_text(b.counts[k], b.size)}\right)"

    w = [explain.frac(left.size, n), explain.frac(right.size, n)]
    return (r"\begin{aligned} \text{IG} &= H\left(p_1^{\text{root}}\right) - \left(w^{\text{left}}"
            r"H\left(p_1^{\text{left}}\right) + w^{\text{right}}H\left(p_1^{\text{right}}"
            r"\right)\right) \\ "
            rf"&= H\left({root_p}\right) - \left({w[0]}{h_of(left)} + {w[1]}{h_of(right)}"
            r"\right) \\ "
            rf"&= {explain.num(example.entropy)} - \left({w[0]}\cdot {explain.num(left.entropy)}"
            rf" + {w[1]}\cdot {explain.num(right.entropy)}\right) = {explain.num(fg.gain, 4)}"
            rf" \approx {fg.gain:.2f} \end{{aligned}}")


def gain_ratio_figure(example: GainExample, lang="en", height=460):
    """Gain and gain ratio of every feature, side by side, with H(D) (the
    largest possible gain) as a dashed line."""
    import plotly.graph_objects as go

    names = [html.escape(f.feature) for f in example.features]
    gain = [f.gain for f in example.features]
    ratio = [f.gain_ratio for f in example.features]
    fig = go.Figure([
        go.Bar(x=names, y=gain, name=t(lang, "information gain g(D, A)", "信息增益 g(D, A)"),
               marker_color=OKABE_ITO[4], text=[f"{v:.3f}" for v in gain],
               textposition="outside"),
        go.Bar(x=names, y=ratio,
               name=t(lang, "gain ratio g_R(D, A)", "信息增益比 g_R(D, A)"),
               marker_color=OKABE_ITO[0], text=[f"{v:.3f}" for v in ratio],
               textposition="outside"),
    ])
    fig.add_hline(y=example.entropy, line={"color": "#555", "width": 2, "dash": "dash"},
                  annotation_text=f"H(D) = {example.entropy:.3f}",
                  annotation_position="top right", annotation_font_size=FONT_SIZE - 2)
    fig.update_layout(
        barmode="group", font={"size": FONT_SIZE}, height=height,
        margin={"l": 60, "r": 20, "t": 30, "b": 60},
        legend={"font": {"size": FONT_SIZE - 2}, "orientation": "h", "y": 1.12, "x": 0},
        yaxis={"title": t(lang, "value (bits; ratio has no unit)", "数值（比特；增益比无单位）"),
               "range": [0, max(max(gain), max(ratio), example.entropy) * 1.18]},
    )
    fig.update_traces(textfont_size=FONT_SIZE - 2)
    return _readable(fig)


# ---------------------------------------------------------------------------
# Rescaling the features (an exercise on rescaling)
# ---------------------------------------------------------------------------


def numeric_columns(model) -> np.ndarray:
    """Positions of the features the model treats as numbers."""
    return np.flatnonzero(~np.asarray(model.is_categorical_, dtype=bool))


def scaled_columns(model, prep) -> list:
    """Positions of the features to standardise: numeric to the model and,
    when ``prep`` (a prepared split: ``X_train``, and ``numeric_features()``
    if it has one) names its table's numeric columns, one of those (not
    one-hot or ordinal codes of a categorical column)."""
    columns = [int(j) for j in numeric_columns(model)]
    numeric = getattr(prep, "numeric_features", None)
    if numeric is not None and hasattr(prep.X_train, "columns"):
        names = set(numeric())
        columns = [j for j in columns if str(prep.X_train.columns[j]) in names]
    return columns


def standardise(X, columns):
    """z = (x - mean) / std of the given columns (population std, NaN kept
    and ignored; a constant column is only centred).  Returns (Xz, mean,
    scale) with one mean/scale per column listed."""
    columns = list(columns)
    frame = isinstance(X, pd.DataFrame)
    Xz = X.copy() if frame else np.array(X, dtype=np.float64, copy=True)
    means, scales = np.zeros(len(columns)), np.ones(len(columns))
    for i, j in enumerate(columns):
        v = (X.iloc[:, j] if frame else Xz[:, j])
        v = np.asarray(v, dtype=np.float64)
        finite = v[np.isfinite(v)]
        if finite.size:
            means[i] = finite.mean()
            sd = finite.std()
            scales[i] = sd if sd > 0 else 1.0
        z = (v - means[i]) / scales[i]
        if frame:
            Xz.isetitem(j, z)
        else:
            Xz[:, j] = z
    return Xz, means, scales


def _column_f32(X, j) -> np.ndarray:
    """Column j as the engine sees it: float32 values (as float64)."""
    v = X.iloc[:, j] if isinstance(X, pd.DataFrame) else np.asarray(X)[:, j]
    return np.asarray(v, dtype=np.float64).astype(np.float32).astype(np.float64)


def _side_values(tree, leaf_of_row, x):
    """(largest x in each node's subtree, smallest x in it), NaN ignored."""
    hi = np.full(tree.node_count, -np.inf)
    lo = np.full(tree.node_count, np.inf)
    ok = ~np.isnan(x)
    np.fmax.at(hi, leaf_of_row[ok], x[ok])
    np.fmin.at(lo, leaf_of_row[ok], x[ok])
    for node in range(tree.node_count - 1, -1, -1):  # children have larger ids
        for kid in tree.children_of(node):
            hi[node] = max(hi[node], hi[kid])
            lo[node] = min(lo[node], lo[kid])
    return hi, lo


@dataclass
class ScalingReport:
    """A tree and its refit on standardised numeric features."""

    columns: list  # names of the standardised features
    mean: np.ndarray
    scale: np.ndarray
    model: object
    model_z: object
    same_structure: bool  # same nodes, features, kinds, branches and counts
    same_leaves: bool  # every training row in the same leaf
    same_predictions: bool
    n_rows: int
    thresholds: pd.DataFrame

    @property
    def identical_partitions(self) -> bool:
        return self.same_structure and self.same_leaves and self.same_predictions


def scaling_report(model, X, y, sample_weight=None, columns=None) -> ScalingReport:
    """Refit ``model``'s estimator (same parameters) on z-scores of its
    numeric features computed on (X, y), the training data, and compare.

    ``thresholds`` has one row per numeric split of the original tree:
    node, feature, left_max / right_min (the two training values the cut
    falls between, as float32), threshold, midpoint (threshold == left_max/2
    + right_min/2, the engine's rule), threshold_z (the standardised tree's
    threshold at the same node), left_max_z / right_min_z, midpoint_z,
    threshold_z_back
    (threshold_z * std + mean: back on the original scale), same_cut (both
    thresholds separate the same training values).  ``columns``: positions
    of the features to standardise (default: every feature the model treats
    as numeric)."""
    numeric = set(numeric_columns(model).tolist())
    cols = sorted(numeric if columns is None else numeric & {int(j) for j in columns})
    names = model.feature_names_
    Xz, mean, scale = standardise(X, cols)
    model_z = type(model)(**model.get_params()).fit(Xz, y, sample_weight=sample_weight)
    tree, tree_z = model.tree_, model_z.tree_
    same_structure = (signatures(tree, with_threshold=False)
                      == signatures(tree_z, with_threshold=False))
    leaf, leaf_z = model.apply(X), model_z.apply(Xz)
    paths, paths_z = root_paths(tree), root_paths(tree_z)
    same_leaves = all(paths[a] == paths_z[b] for a, b in zip(leaf.tolist(), leaf_z.tolist()))
    same_predictions = bool(np.array_equal(model.predict(X), model_z.predict(Xz)))
    where = {j: i for i, j in enumerate(cols)}
    z_node = {p: i for i, p in enumerate(paths_z)}
    extremes = {}
    rows = []
    for node in range(tree.node_count):
        kids = tree.children_of(node)
        if not kids or int(tree.kind[node]) != 0:
            continue
        j = int(tree.feature[node])
        if j not in where:
            continue
        if j not in extremes:
            x, xz = _column_f32(X, j), _column_f32(Xz, j)
            extremes[j] = (_side_values(tree, leaf, x),
                           _side_values(tree_z, leaf_z, xz) if same_structure else None)
        (hi, lo), z_sides = extremes[j]
        a, b = hi[kids[0]], lo[kids[1]]
        t = float(tree.threshold[node])
        nz = z_node.get(paths[node])
        row = {"node": node, "feature": names[j], "left_max": a, "right_min": b,
               "threshold": t, "midpoint": bool(t == a / 2.0 + b / 2.0),
               "threshold_z": np.nan, "left_max_z": np.nan, "right_min_z": np.nan,
               "midpoint_z": False, "threshold_z_back": np.nan, "same_cut": False}
        if (same_structure and nz is not None and int(tree_z.feature[nz]) == j
                and int(tree_z.kind[nz]) == 0):
            (hz, lz) = z_sides
            kz = tree_z.children_of(nz)
            tz = float(tree_z.threshold[nz])
            az, bz = hz[kz[0]], lz[kz[1]]
            row.update(threshold_z=tz, left_max_z=az, right_min_z=bz,
                       midpoint_z=bool(tz == az / 2.0 + bz / 2.0),
                       threshold_z_back=tz * scale[where[j]] + mean[where[j]],
                       same_cut=bool(a <= t < b and az <= tz < bz))
        rows.append(row)
    columns = ["node", "feature", "left_max", "right_min", "threshold", "midpoint",
               "threshold_z", "left_max_z", "right_min_z", "midpoint_z", "threshold_z_back",
               "same_cut"]
    return ScalingReport([names[j] for j in cols], mean, scale, model, model_z,
                         same_structure, same_leaves, same_predictions, len(leaf),
                         pd.DataFrame(rows, columns=columns))


# ---------------------------------------------------------------------------
# Greedy against lookahead (the best tree of depth 2, by exhaustive search)
# ---------------------------------------------------------------------------

#: The built-in table the lesson starts on (a title of dtree.tables.io.BUILTIN).
XOR_TITLE = "XOR: where greedy fails"


@dataclass
class LookaheadLesson:
    """Greedy CART's depth-2 tree and the best depth-2 tree on one table.

    ``result`` is :func:`dtree.lookahead_tree`'s answer; ``gains`` has one
    row per feature with its best root split as the greedy search scored it
    (``feature``, ``score``: the gain, or the gain ratio under
    ``criterion="gain_ratio"``, ``threshold``, ``children``), best first;
    ``left_out`` counts the rows with a missing value, which the search
    does not take.
    """

    result: object
    gains: pd.DataFrame
    criterion: str
    left_out: int = 0

    @property
    def greedy_root(self) -> str:
        return self.result.greedy.steps_[0].feature_name

    @property
    def lookahead_root(self) -> str:
        return self.result.estimator.steps_[0].feature_name

    def root_score(self, model) -> float:
        """The score (gain or gain ratio) of ``model``'s root split."""
        step = model.steps_[0]
        return float(step.gain_ratio if self.criterion == "gain_ratio" else step.gain)

    def child_scores(self) -> list:
        """The lookahead tree's scores of its children's splits."""
        return [float(s.gain_ratio if self.criterion == "gain_ratio" else s.gain)
                for s in self.result.estimator.steps_[1:]]


def lookahead_lesson(X: pd.DataFrame, y, criterion="gini", categorical=()) -> LookaheadLesson:
    """Both trees of depth 2 for the rows of ``X`` without missing values
    (raises the engine's ``CodedError`` when the search refuses the table)."""
    from .. import lookahead_tree

    complete = X.notna().all(axis=1).to_numpy()
    X, y = X[complete].reset_index(drop=True), np.asarray(y)[complete]
    result = lookahead_tree(X, y, criterion=criterion, categorical_features=list(categorical))
    table = result.greedy.candidates(0)
    score = table["gain_ratio" if criterion == "gain_ratio" else "gain"]
    gains = pd.DataFrame({"feature": table["feature"], "score": score,
                          "threshold": table["threshold"], "children": table["children"]})
    gains = gains.sort_values("score", ascending=False, kind="stable").reset_index(drop=True)
    return LookaheadLesson(result, gains, criterion, int((~complete).sum()))


def lesson_dot(model, criterion, lang="en", brief=False) -> str:
    """DOT of one of the lesson's trees, drawn as the app draws trees, each
    split with its gain (gain ratio under ``criterion="gain_ratio"``) and
    no step outlined; ``brief``: brief boxes in a smaller font (presenter
    mode, whose zoom would push the leaves of two trees side by side below
    a 720-pixel screen)."""
    steps = model.steps_
    tree = model.tree_at(len(steps))
    index = {int(nid): i for i, nid in enumerate(tree.node_ids)}
    words = step_words(criterion, lang)
    ratio = criterion == "gain_ratio"
    lines = {index[s.node]: [f"{words['gain_ratio']} = {s.gain_ratio:.3f}" if ratio
                             else f"{words['gain']} = {abs(s.gain) if s.gain == 0 else s.gain:.3f}"]
             for s in steps}
    dot, _ = drawn_dot(model, tree, label_lines=lines, lang=lang, details=not brief, compact=brief,
                       fontsize=15 if brief else tree_font_size(tree.n_leaves))
    return dot
