"""The Prediction and Importances tabs, in plain Python: the sample as the
panel's widgets hold it, the tables and the words.

The widgets hold one value per feature (:func:`widget_value`): a float, or
None for a missing number; for a categorical feature the index of its
category, or :data:`MISSING`.  :func:`sample_value` turns it back into the
sample's value for :func:`dtree.views.prediction.explain_prediction`.
Tables come back as DataFrames of text, user text Markdown-escaped for
``st.table``; every function with words takes ``lang="en"`` or ``"zh"``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from .vocabulary import t, text
from .links import md
from .prediction import _categorical, _is_missing, feature_names, fmt_value, rule_text
from .viz import short

#: The "missing" option of a categorical feature's selectbox.
MISSING = -1

#: The panels' paragraphs: name -> (English, Chinese).
TEXTS = {
    "no_rows": ("There are no rows to pick from: enter your own values.",
                "没有可选的行：请自己输入取值。"),
    "clear_or_missing": ("Clear a number, or choose “(missing)”, to leave a value missing.",
                         "清空数字框，或选择“（缺失）”，即表示该取值缺失。"),
    "choose_missing": ("Choose “(missing)” to leave a value missing.",
                       "选择“（缺失）”即表示该取值缺失。"),
    "root_not_split": ("The root is not split yet: every sample ends in the root.",
                       "根结点尚未划分：所有样本都停在根结点。"),
    "fractional_title": (
        "Missing values under C4.5: the sample is split over the branches",
        "C4.5 的缺失值处理：样本按权重进入各分支"),
    "fractional": (
        "Where the sample's value is missing, it goes down every branch, with weight = that "
        "branch's share of the node's training samples whose value is known. It reaches "
        "several leaves; their weights add up to 1, and the prediction is the weighted sum of "
        "their distributions:",
        "在取值缺失的结点，样本进入每一个分支，权重等于该分支在此结点已知取值的训练样本中"
        "所占的比例。样本到达多个叶结点，权重之和为 1，预测是这些叶结点分布的加权和："),
    "missing_side": (
        "A missing value (or a category the node never saw) follows the side the node learned "
        "for missing values (missing_go_to_left for numeric splits); with C4.5's rule the "
        "sample would instead be split over every branch.",
        "缺失值（或该结点未见过的类别）进入该结点为缺失值学到的一侧（数值划分看 "
        "missing_go_to_left）；若用 C4.5 的规则，样本会按权重进入每个分支。"),
    "no_split_yet": (
        "No split has been made yet, so every feature's importance is 0. Take a step to see "
        "the first split's contribution.",
        "还没有任何划分，所以所有特征的重要性都是 0。前进一步即可看到第一次划分的贡献。"),
    "fully_grown": (
        "The tree is fully grown: these are the model's feature_importances_ (the same "
        "definition as scikit-learn's).",
        "树已完全生长：这就是模型的 feature_importances_（与 scikit-learn 的定义相同）。"),
    "importance": (
        "Each split at node t lowers the impurity by Δ(t) (the node's impurity minus its "
        "children's, weighted by their share of the node's samples). Weighted by the share of "
        "all samples that reach t, Nt/N, these decreases are added up per feature and divided "
        "by their total, so the importances sum to 1:",
        "每次在结点 t 的划分使不纯度降低 Δ(t)（结点的不纯度减去按样本比例加权的子结点不纯度）。"
        "乘以到达 t 的样本占全部样本的比例 Nt/N 后，按特征累加，再除以总和，所以各特征的重要性"
        "之和为 1："),
}

#: The prediction as a mixture of the leaves reached (C4.5's missing values).
MIXTURE_LATEX = (r"p(y \mid x) = \sum_{\ell} w_{\ell}\, p_{\ell}(y), \qquad "
                 r"\sum_{\ell} w_{\ell} = 1")


# ---------------------------------------------------------------------------
# The sample, as the widgets hold it
# ---------------------------------------------------------------------------


def rows_to_predict(prep):
    """(X, y, which): the test set of a prepared split, or the training set
    (``which`` "train") when there is no test set."""
    if prep.X_test is not None and len(prep.X_test):
        return prep.X_test, np.asarray(prep.y_test), "test"
    return prep.X_train, np.asarray(prep.y_train), "train"


#: The ways of choosing the sample to predict (the panel's ``pred_src``).
SOURCES = ("row", "custom")


def source_names(which: str = "test", lang: str = "en") -> dict:
    """The ways of choosing the sample, key -> name: a row of the set
    :func:`rows_to_predict` offers (``which``: "test" or "train"), or
    values of one's own."""
    row = (t(lang, "A test row", "测试集中的一行") if which == "test"
           else t(lang, "A training row", "训练集中的一行"))
    return {"row": row, "custom": t(lang, "My own values", "自己输入取值")}


def categorical_features(model) -> np.ndarray:
    """True for each categorical feature of ``model`` (all False when it has none)."""
    return _categorical(model)


def row_sample(model, X, row: int) -> dict:
    """Row ``row`` of ``X`` (a DataFrame or array) as {feature name: value}."""
    values = X.iloc[row] if hasattr(X, "iloc") else np.asarray(X, dtype=object)[row]
    return dict(zip(feature_names(model), list(values)))


def widget_value(model, j: int, v):
    """A sample's value ``v`` of feature ``j`` as its widget holds it: the
    category's index (:data:`MISSING` when missing or unknown), or a float
    (None when missing)."""
    if _categorical(model)[j]:
        labels = list(model.categories_[j])
        return MISSING if _is_missing(v) or v not in labels else labels.index(v)
    return None if _is_missing(v) else float(v)


def valid_widget_value(model, j: int, v) -> bool:
    """True if ``v`` can stand in feature ``j``'s widget (a stale value from
    another tree or dataset cannot)."""
    if _categorical(model)[j]:
        return (isinstance(v, numbers.Integral) and not isinstance(v, bool)
                and MISSING <= v < len(model.categories_[j]))
    return v is None or (isinstance(v, numbers.Real) and not isinstance(v, bool)
                         and math.isfinite(v))


def sample_value(model, j: int, v):
    """A widget's value ``v`` of feature ``j`` as the sample holds it."""
    if _categorical(model)[j]:
        return None if v == MISSING else model.categories_[j][v]
    return v


def row_number(asked, n_rows: int) -> int:
    """The row a widget or a link asked for (a number, or its text), within
    0..n_rows - 1; 0 when unreadable."""
    try:
        row = int(float(asked))
    except (TypeError, ValueError):
        row = 0
    return min(max(row, 0), max(n_rows - 1, 0))


def form_values(model, held: dict, base: dict) -> dict:
    """{feature index: widget value} for the form of own values: ``held[j]``
    (what feature j's widget holds) where it is valid, else the value of
    ``base`` ({feature name: value}, a row; missing when it is empty)."""
    out = {}
    for j, name in enumerate(feature_names(model)):
        v = held.get(j)
        out[j] = v if j in held and valid_widget_value(model, j, v) else \
            widget_value(model, j, base.get(name))
    return out


def form_sample(model, values: dict) -> dict:
    """The sample the form's widget ``values`` ({j: value}) stand for."""
    return {name: sample_value(model, j, values[j])
            for j, name in enumerate(feature_names(model))}


def shown_value(v):
    """A value for :func:`fmt_value`: a number as a Python float, a label as
    it is (NumPy scalars unwrapped)."""
    v = v.item() if isinstance(v, np.generic) else v
    return float(v) if isinstance(v, numbers.Real) and not isinstance(v, bool) else v


def sample_table(sample: dict, lang: str = "en") -> pd.DataFrame:
    """The sample's feature names and values, Markdown-escaped."""
    return pd.DataFrame({
        t(lang, "feature", "特征"): [md(n) for n in sample],
        t(lang, "value", "取值"): [md(fmt_value(None if _is_missing(v) else shown_value(v)))
                                  for v in sample.values()]})


# ---------------------------------------------------------------------------
# The prediction
# ---------------------------------------------------------------------------


def headline(result, lang: str = "en") -> str:
    """"#### Prediction: …" (the class, or the value of a regression)."""
    if result.is_classifier:
        name, value = t(lang, "Prediction", "预测类别"), md(fmt_value(shown_value(result.prediction)))
    else:
        name, value = t(lang, "Prediction", "预测值"), f"{result.prediction:.4g}"
    return f"#### {name}{t(lang, ': ', '：')}{value}"


def tree_of(step, n_steps: int, lang: str = "en") -> str:
    """Which tree predicted: the one after ``step`` steps (None: the final one)."""
    if step is None:
        return t(lang, "on the final tree", "最终的树")
    return t(lang, f"on the tree after step {step} of {n_steps}",
             f"第 {step} 步（共 {n_steps} 步）之后的树")


def decision_table(result, lang: str = "en") -> pd.DataFrame:
    """One row per decision: the node, the rule (and the weight arriving
    under C4.5's rule for missing values)."""
    rows = []
    for d in result.decisions:
        row = {t(lang, "node", "结点"): f"#{d.node_id}",
               t(lang, "decision", "判断"): md(rule_text(d, lang))}
        if result.fractional:
            row[t(lang, "weight arriving", "到达时的权重")] = f"{d.weight:.3f}"
        rows.append(row)
    return pd.DataFrame(rows)


def leaf_table(result, lang: str = "en") -> pd.DataFrame:
    """The leaves reached, their weights w and distributions p (or means),
    w·p, and a last row Σ whose w·p is the prediction's distribution."""
    leaf_word, mean = t(lang, "leaf", "叶结点"), t(lang, "mean", "均值")
    rows = []
    for leaf in result.leaves:
        row = {leaf_word: f"#{leaf.node_id}", "w": f"{leaf.weight:.3f}"}
        if result.is_classifier:
            for c, pv in zip(result.classes, leaf.value):
                row[md(f"p({c})")] = f"{pv:.3f}"
            for c, pv in zip(result.classes, leaf.value):
                row[md(f"w·p({c})")] = f"{leaf.weight * pv:.3f}"
        else:
            row[mean] = f"{leaf.value[0]:.4g}"
            row["w·mean"] = f"{leaf.weight * leaf.value[0]:.4g}"
        rows.append(row)
    total = {leaf_word: "Σ", "w": f"{sum(lf.weight for lf in result.leaves):.3f}"}
    if result.is_classifier:
        for c in result.classes:
            total[md(f"p({c})")] = ""
        for c, pv in zip(result.classes, result.distribution):
            total[md(f"w·p({c})")] = f"{pv:.3f}"
    else:
        total[mean] = ""
        total["w·mean"] = f"{result.distribution[0]:.4g}"
    rows.append(total)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------
# The importances
# ---------------------------------------------------------------------------


def importance_caption(step: int, n_steps: int, lang: str = "en") -> str:
    """Which splits the importances after ``step`` of ``n_steps`` count."""
    if step == n_steps:
        return text(TEXTS, "fully_grown", lang)
    return t(lang, f"After {step} of {n_steps} steps: only the splits made so far count.",
             f"第 {step} 步（共 {n_steps} 步）之后：只计入到目前为止的划分。")


def summary_table(summary: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """:func:`dtree.views.prediction.importance_summary` as text: per
    feature, the nodes split on it, its sum of terms and its importance."""
    return pd.DataFrame({
        t(lang, "feature", "特征"): [md(short(n, 40)) for n in summary["feature_name"]],
        t(lang, "splits on it (nodes)", "在其上划分的结点"): [
            ", ".join(f"#{v}" for v in nodes) or "–" for nodes in summary["nodes"]],
        "Σ (Nt/N)·Δ(t)": [f"{v:.4f}" for v in summary["sum"]],
        t(lang, "importance", "重要性"): [f"{v:.4f}" for v in summary["importance"]],
    })


def terms_table(terms: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """:func:`dtree.views.prediction.importance_terms` as text: every
    split's Nt, N, I(t), children's impurity, Δ(t) and term."""
    return pd.DataFrame({
        t(lang, "step", "步"): terms["step"].astype(int),
        t(lang, "node", "结点"): [f"#{v}" for v in terms["node"]],
        t(lang, "feature", "特征"): [md(short(n, 40)) for n in terms["feature_name"]],
        "Nt": [f"{v:.4g}" for v in terms["N_t"]],
        "N": [f"{v:.4g}" for v in terms["N"]],
        "I(t)": [f"{v:.4f}" for v in terms["impurity"]],
        "Σ (Nc/Nt)·I(c)": [f"{v:.4f}" for v in terms["children_impurity"]],
        "Δ(t)": [f"{v:.4f}" for v in terms["delta"]],
        "(Nt/N)·Δ(t)": [f"{v:.4f}" for v in terms["term"]],
    })
