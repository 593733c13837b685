"""Prediction and feature-importance panels, for tabs of the Grow page.

The Grow page draws the tree first and the panels after it, so the sample's
path must be known before the sample's widgets are drawn:
:func:`path_for_step` reads the sample from session state (and the URL)
without drawing anything, for ``viz.step_dot(..., path=...)``; then
:func:`prediction_panel` draws the widgets and the explanation, and
:func:`importance_panel` the importances after this step.

Session keys (with the default prefix ``pred``): ``pred_src`` (test row or
own values; in the URL), ``pred_row`` (the test row; in the URL),
``pred_v<j>`` (the value typed or chosen for feature j: a float or None for
a numeric feature, the index of the category or -1 "missing" for a
categorical one), ``pred_fill`` (the button copying the row into the form),
``pred_dist``, ``pred_imp``, ``pred_impf`` (the charts and the feature
whose formula is written out).  ``fit`` is a ``pages.shared.Fit``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd
import streamlit as st

from dtree.views import viz
from dtree.views.prediction import (distribution_figure, explain_prediction, explanation,
                                    feature_names, fmt_value, importance_figure, importance_latex,
                                    importance_summary, importance_terms, importances_at, rule_text)
from pages.shared import lang, md, said, tr

MISSING = -1  # the "missing" option of a categorical feature's selectbox
SOURCES = ("row", "custom")


# ---------------------------------------------------------------------------
# The sample, from session state
# ---------------------------------------------------------------------------


def _rows(fit):
    """(X, y, which): the test set, or the training set when there is none."""
    p = fit.prep
    if p.X_test is not None and len(p.X_test):
        return p.X_test, np.asarray(p.y_test), "test"
    return p.X_train, np.asarray(p.y_train), "train"


def _setting(key, default):
    """A widget's value from session state, else from the URL, else default
    (a bound widget not drawn yet in this session has only the URL)."""
    state = st.session_state
    if key in state and state[key] is not None:
        return state[key]
    value = st.query_params.get(key)
    return default if value is None else value


def _source(p):
    src = _setting(f"{p}_src", "row")
    return src if src in SOURCES else "row"


def _row_index(fit, p):
    X, _, _ = _rows(fit)
    try:
        row = int(float(_setting(f"{p}_row", 0)))
    except (TypeError, ValueError):
        row = 0
    return min(max(row, 0), max(len(X) - 1, 0))


def _is_categorical(model):
    cat = getattr(model, "is_categorical_", None)
    return np.zeros(model.n_features_in_, bool) if cat is None else np.asarray(cat, bool)


def _row_sample(fit, row):
    """The feature values of a row of the test set (or training set)."""
    X, _, _ = _rows(fit)
    names = feature_names(fit.model)
    values = X.iloc[row] if hasattr(X, "iloc") else np.asarray(X, dtype=object)[row]
    return dict(zip(names, list(values)))


def _missing(v):
    return v is None or (isinstance(v, float) and math.isnan(v)) or \
        type(v).__name__ in ("NAType", "NaTType")


def _widget_value(model, j, v):
    """A sample's value as the widget of feature j holds it."""
    if _is_categorical(model)[j]:
        labels = list(model.categories_[j])
        return MISSING if _missing(v) or v not in labels else labels.index(v)
    if _missing(v):
        return None
    return float(v)


def _valid(model, j, v):
    if _is_categorical(model)[j]:
        return (isinstance(v, numbers.Integral) and not isinstance(v, bool)
                and MISSING <= v < len(model.categories_[j]))
    return v is None or (isinstance(v, numbers.Real) and not isinstance(v, bool)
                         and math.isfinite(v))


def _sample_value(model, j, v):
    """A widget's value as the sample holds it."""
    if _is_categorical(model)[j]:
        return None if v == MISSING else model.categories_[j][v]
    return v


def _custom_values(fit, p):
    """{feature index: widget value}, from state where valid, else the row's."""
    model = fit.model
    names = feature_names(model)
    base = _row_sample(fit, _row_index(fit, p)) if len(_rows(fit)[0]) else {}
    state = st.session_state
    out = {}
    for j, name in enumerate(names):
        v = state.get(f"{p}_v{j}")
        if f"{p}_v{j}" not in state or not _valid(model, j, v):
            v = _widget_value(model, j, base.get(name))
        out[j] = v
    return out


def current_sample(fit, key_prefix="pred"):
    """The sample chosen in the panel (read from state; draws nothing), or None."""
    p = key_prefix
    model = fit.model
    if _source(p) == "custom":
        values = _custom_values(fit, p)
        return {name: _sample_value(model, j, values[j])
                for j, name in enumerate(feature_names(model))}
    if not len(_rows(fit)[0]):
        return None
    return _row_sample(fit, _row_index(fit, p))


def _explain(fit, sample, step):
    """(Prediction, None) or (None, message)."""
    try:
        return explain_prediction(fit.model, sample, k=step), None
    except (ValueError, TypeError) as exc:
        return None, str(exc)


def path_for_step(fit, step, key_prefix="pred"):
    """The current sample's path on ``tree_at(step)`` as (node, weight)
    pairs, for ``viz.step_dot(..., path=...)``; None when there is no sample.
    Reads session state only (call it before the panels are drawn)."""
    sample = current_sample(fit, key_prefix)
    if sample is None:
        return None
    result, _ = _explain(fit, sample, step)
    return None if result is None else result.path


# ---------------------------------------------------------------------------
# Widgets
# ---------------------------------------------------------------------------


def _fill_from_row(fit, p):
    """Copy the chosen row into the form (a button's callback)."""
    model = fit.model
    row = _row_sample(fit, _row_index(fit, p))
    for j, name in enumerate(feature_names(model)):
        st.session_state[f"{p}_v{j}"] = _widget_value(model, j, row[name])


def sample_controls(fit, key_prefix="pred"):
    """Choose the sample: a row of the test set, or one value per feature
    (each can be left missing).  Returns the sample (a dict) or None."""
    p = key_prefix
    state = st.session_state
    model = fit.model
    X, y, which = _rows(fit)
    names = feature_names(model)
    labels = {"row": tr("A test row", "测试集中的一行") if which == "test"
              else tr("A training row", "训练集中的一行"),
              "custom": tr("My own values", "自己输入取值")}
    if f"{p}_src" in state and state[f"{p}_src"] not in SOURCES:
        del state[f"{p}_src"]
    st.segmented_control(tr("Sample to predict", "要预测的样本"), list(SOURCES), default="row",
                         format_func=labels.get, key=f"{p}_src", required=True,
                         bind="query-params", persist_state="session")
    source = _source(p)
    has_rows = len(X) > 0
    if has_rows:
        if f"{p}_row" in state and not (isinstance(state[f"{p}_row"], numbers.Integral)
                                        and 0 <= state[f"{p}_row"] < len(X)):
            del state[f"{p}_row"]
        st.number_input(tr(f"Row of the {which} set (0 – {len(X) - 1})",
                           f"{'测试' if which == 'test' else '训练'}集的行号（0 – {len(X) - 1}）"),
                        0, len(X) - 1, 0, 1, key=f"{p}_row", bind="query-params",
                        persist_state="session")
    if source == "row":
        if not has_rows:
            st.info(tr("There are no rows to pick from: enter your own values.",
                       "没有可选的行：请自己输入取值。"))
            return None
        row = _row_index(fit, p)
        sample = _row_sample(fit, row)
        shown = pd.DataFrame({
            tr("feature", "特征"): [md(n) for n in names],
            tr("value", "取值"): [md(fmt_value(None if _missing(v) else _num_or_label(v)))
                                for v in sample.values()]})
        with st.expander(tr("The row's values", "这一行的取值"), expanded=False,
                         key=f"{p}_rowvals"):
            st.table(shown, hide_index=True)
        if len(y):
            st.markdown(tr("True target of this row: ", "这一行的真实目标值：") +
                        md(fmt_value(_num_or_label(y[row]))))
        return sample

    values = _custom_values(fit, p)
    for j, v in values.items():  # valid values for the widgets (old ones may be stale)
        state[f"{p}_v{j}"] = v
    if has_rows:
        st.button(tr(f"Fill in the values of row {_row_index(fit, p)}",
                     f"填入第 {_row_index(fit, p)} 行的取值"),
                  key=f"{p}_fill", on_click=_fill_from_row, args=(fit, p),
                  icon=":material/content_copy:")
    categorical = _is_categorical(model)
    columns = st.columns(3 if len(names) > 4 else 2)
    for j, name in enumerate(names):
        col = columns[j % len(columns)]
        label = md(viz.short(name, 40))
        if categorical[j]:
            cats = [str(c) for c in model.categories_[j]]
            col.selectbox(label, [MISSING] + list(range(len(cats))), key=f"{p}_v{j}",
                          format_func=lambda i, cats=cats: (tr("(missing)", "（缺失）")
                                                            if i == MISSING else cats[i]),
                          persist_state="session")
        else:
            col.number_input(label, value=None, step=None, format="%g", key=f"{p}_v{j}",
                             placeholder=tr("missing", "缺失"), persist_state="session")
    if (~categorical).any():
        st.caption(tr("Clear a number, or choose “(missing)”, to leave a value missing.",
                      "清空数字框，或选择“（缺失）”，即表示该取值缺失。"))
    else:
        st.caption(tr("Choose “(missing)” to leave a value missing.",
                      "选择“（缺失）”即表示该取值缺失。"))
    return current_sample(fit, p)


def _num_or_label(v):
    v = v.item() if isinstance(v, np.generic) else v
    return float(v) if isinstance(v, numbers.Real) and not isinstance(v, bool) else v


# ---------------------------------------------------------------------------
# The prediction panel
# ---------------------------------------------------------------------------


def _decision_table(result):
    """One row per decision: the node, the rule (and the weight under C4.5)."""
    rows = []
    for d in result.decisions:
        row = {tr("node", "结点"): f"#{d.node_id}",
               tr("decision", "判断"): md(rule_text(d, lang()))}
        if result.fractional:
            row[tr("weight arriving", "到达时的权重")] = f"{d.weight:.3f}"
        rows.append(row)
    return pd.DataFrame(rows)


def _leaf_table(result):
    """The leaves reached, their weights and distributions, and Σ w·p."""
    rows = []
    for leaf in result.leaves:
        row = {tr("leaf", "叶结点"): f"#{leaf.node_id}", "w": f"{leaf.weight:.3f}"}
        if result.is_classifier:
            for c, pv in zip(result.classes, leaf.value):
                row[md(f"p({c})")] = f"{pv:.3f}"
            for c, pv in zip(result.classes, leaf.value):
                row[md(f"w·p({c})")] = f"{leaf.weight * pv:.3f}"
        else:
            row[tr("mean", "均值")] = f"{leaf.value[0]:.4g}"
            row["w·mean"] = f"{leaf.weight * leaf.value[0]:.4g}"
        rows.append(row)
    total = {tr("leaf", "叶结点"): "Σ", "w": f"{sum(lf.weight for lf in result.leaves):.3f}"}
    if result.is_classifier:
        for c in result.classes:
            total[md(f"p({c})")] = ""
        for c, pv in zip(result.classes, result.distribution):
            total[md(f"w·p({c})")] = f"{pv:.3f}"
    else:
        total[tr("mean", "均值")] = ""
        total["w·mean"] = f"{result.distribution[0]:.4g}"
    rows.append(total)
    return pd.DataFrame(rows)


def prediction_panel(fit, step, key_prefix="pred"):
    """The sample's widgets, its path spelled out, the leaf distribution,
    the prediction and a paragraph saying it all."""
    p = key_prefix
    sample = sample_controls(fit, p)
    if sample is None:
        return
    result, error = _explain(fit, sample, step)
    if error:
        st.error(tr("This sample cannot be predicted: ", "无法预测这个样本：") + md(said(error)),
                 icon=":material/error:")
        return
    left, right = st.columns([1, 1], gap="large")
    with left:
        if result.is_classifier:
            headline = tr("Prediction", "预测类别")
            value = md(fmt_value(_num_or_label(result.prediction)))
        else:
            headline = tr("Prediction", "预测值")
            value = f"{result.prediction:.4g}"
        st.markdown(f"#### {headline}{tr(': ', '：')}{value}")
        st.caption(tr(f"on the tree after step {step} of {result.n_steps}",
                      f"第 {step} 步（共 {result.n_steps} 步）之后的树")
                   if step is not None else tr("on the final tree", "最终的树"))
        st.markdown("**" + tr("The path, decision by decision", "逐个结点的判断") + "**")
        if result.decisions:
            st.table(_decision_table(result), hide_index=True)
        else:
            st.info(tr("The root is not split yet: every sample ends in the root.",
                       "根结点尚未划分：所有样本都停在根结点。"))
    with right:
        st.plotly_chart(distribution_figure(result, lang()), key=f"{p}_dist",
                        config={"displayModeBar": False})
    if result.fractional:
        st.markdown("**" + tr("Missing values under C4.5: the sample is split over the "
                              "branches", "C4.5 的缺失值处理：样本按权重进入各分支") + "**")
        st.markdown(tr(
            "Where the sample's value is missing, it goes down every branch, with weight = "
            "that branch's share of the node's training samples whose value is known. It "
            "reaches several leaves; their weights add up to 1, and the prediction is the "
            "weighted sum of their distributions:",
            "在取值缺失的结点，样本进入每一个分支，权重等于该分支在此结点已知取值的训练样本中"
            "所占的比例。样本到达多个叶结点，权重之和为 1，预测是这些叶结点分布的加权和："))
        st.latex(r"p(y \mid x) = \sum_{\ell} w_{\ell}\, p_{\ell}(y), \qquad "
                 r"\sum_{\ell} w_{\ell} = 1")
        st.table(_leaf_table(result), hide_index=True)
    elif any(d.status != "known" for d in result.decisions):
        st.caption(tr(
            "A missing value (or a category the node never saw) follows the side the node "
            "learned for missing values (missing_go_to_left for numeric splits); with "
            "C4.5's rule the sample would instead be split over every branch.",
            "缺失值（或该结点未见过的类别）进入该结点为缺失值学到的一侧（数值划分看 "
            "missing_go_to_left）；若用 C4.5 的规则，样本会按权重进入每个分支。"))
    st.markdown("**" + tr("In words", "用文字说明") + "**")
    st.markdown(md(explanation(result, lang())))


# ---------------------------------------------------------------------------
# The importance panel
# ---------------------------------------------------------------------------


def _summary_table(summary, names):
    return pd.DataFrame({
        tr("feature", "特征"): [md(viz.short(n, 40)) for n in summary["feature_name"]],
        tr("splits on it (nodes)", "在其上划分的结点"): [
            ", ".join(f"#{v}" for v in nodes) or "–" for nodes in summary["nodes"]],
        "Σ (Nt/N)·Δ(t)": [f"{v:.4f}" for v in summary["sum"]],
        tr("importance", "重要性"): [f"{v:.4f}" for v in summary["importance"]],
    })


def _terms_table(terms):
    return pd.DataFrame({
        tr("step", "步"): terms["step"].astype(int),
        tr("node", "结点"): [f"#{v}" for v in terms["node"]],
        tr("feature", "特征"): [md(viz.short(n, 40)) for n in terms["feature_name"]],
        "Nt": [f"{v:.4g}" for v in terms["N_t"]],
        "N": [f"{v:.4g}" for v in terms["N"]],
        "I(t)": [f"{v:.4f}" for v in terms["impurity"]],
        "Σ (Nc/Nt)·I(c)": [f"{v:.4f}" for v in terms["children_impurity"]],
        "Δ(t)": [f"{v:.4f}" for v in terms["delta"]],
        "(Nt/N)·Δ(t)": [f"{v:.4f}" for v in terms["term"]],
    })


def importance_panel(fit, step, key_prefix="pred"):
    """Feature importances of the tree after ``step`` steps: the bar chart,
    the formula, and every split's term."""
    p = key_prefix
    model = fit.model
    names = feature_names(model)
    n_steps = len(model.steps_)
    if step == 0:
        st.info(tr("No split has been made yet, so every feature's importance is 0. Take a "
                   "step to see the first split's contribution.",
                   "还没有任何划分，所以所有特征的重要性都是 0。前进一步即可看到第一次划分的贡献。"))
        return
    imp = importances_at(model, step)
    terms = importance_terms(model, step)
    summary = importance_summary(model, step)
    st.plotly_chart(importance_figure(imp, names, lang()), key=f"{p}_imp",
                    config={"displayModeBar": False})
    if step == n_steps:
        st.caption(tr("The tree is fully grown: these are the model's feature_importances_ "
                      "(the same definition as scikit-learn's).",
                      "树已完全生长：这就是模型的 feature_importances_（与 scikit-learn 的定义相同）。"))
    else:
        st.caption(tr(f"After {step} of {n_steps} steps: only the splits made so far count.",
                      f"第 {step} 步（共 {n_steps} 步）之后：只计入到目前为止的划分。"))
    st.markdown("**" + tr("How it is computed", "计算方法") + "**")
    st.markdown(tr(
        "Each split at node t lowers the impurity by Δ(t) (the node's impurity minus its "
        "children's, weighted by their share of the node's samples). Weighted by the share "
        "of all samples that reach t, Nt/N, these decreases are added up per feature and "
        "divided by their total, so the importances sum to 1:",
        "每次在结点 t 的划分使不纯度降低 Δ(t)（结点的不纯度减去按样本比例加权的子结点不纯度）。"
        "乘以到达 t 的样本占全部样本的比例 Nt/N 后，按特征累加，再除以总和，所以各特征的重要性"
        "之和为 1："))
    used = summary.loc[summary["n_splits"] > 0, "feature"].tolist()
    if st.session_state.get(f"{p}_impf") not in used:
        st.session_state.pop(f"{p}_impf", None)
    choice = st.selectbox(tr("Feature A in the formula", "公式中的特征 A"), used,
                          key=f"{p}_impf", format_func=lambda f: viz.short(names[f], 60))
    if choice is None or choice not in used:
        choice = used[0]
    general, numbers_line = importance_latex(terms, int(choice))
    st.latex(general)
    st.markdown(tr("With the numbers, for A = ", "代入数字，A = ") +
                f"**{md(viz.short(names[choice], 60))}**" + tr(":", "："))
    st.latex(numbers_line)
    st.table(_summary_table(summary, names), hide_index=True)
    with st.expander(tr("Every split's term", "每次划分的贡献"), key=f"{p}_terms",
                     expanded=False):
        st.table(_terms_table(terms), hide_index=True)
