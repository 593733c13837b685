"""Prediction and feature-importance panels, for tabs of the Grow page.

The Grow page draws the tree first and the panels after it, so the sample's
path must be known before the sample's widgets are drawn:
:func:`path_for_step` reads the sample from session state (and the URL)
without drawing anything, for ``viz.step_dot(..., path=...)``; then
:func:`prediction_panel` draws the widgets and the explanation, and
:func:`importance_panel` the importances after this step.

Session keys (with the default prefix ``pred``): ``pred_src`` ("row" or
"custom": a test row or one's own values; in the URL, by
pages/state/url_state.py), ``pred_row`` (the test row; in the URL),
``pred_v<j>`` (the value typed or chosen for feature j: a float or None for
a numeric feature, the index of the category or -1 "missing" for a
categorical one), ``pred_fill`` (the button copying the row into the form),
``pred_dist``, ``pred_imp``, ``pred_impf`` (the charts and the feature
whose formula is written out).  ``fit`` is a ``pages.runtime.fits.Fit``.
"""

from __future__ import annotations

import numbers

import streamlit as st

from dtree.views.vocabulary import text
from dtree.views import predictiontext as words
from dtree.views import viz
from dtree.views.predictiontext import (MISSING, SOURCES, categorical_features, form_sample,
                                        form_values, row_number, row_sample, rows_to_predict,
                                        shown_value, source_names)
from dtree.views.prediction import (distribution_figure, explain_prediction, explanation,
                                    feature_names, fmt_value, importance_figure, importance_latex,
                                    importance_summary, importance_terms, importances_at)
from dtree.views.links import md
from pages.state.session import lang, said, tr


# ---------------------------------------------------------------------------
# The sample, from session state
# ---------------------------------------------------------------------------


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
    return row_number(_setting(f"{p}_row", 0), len(rows_to_predict(fit.prep)[0]))


def _row_sample(fit, row):
    """The feature values of a row of the test set (or training set)."""
    return row_sample(fit.model, rows_to_predict(fit.prep)[0], row)


def _custom_values(fit, p):
    """{feature index: widget value}, from state where valid, else the row's."""
    has_rows = len(rows_to_predict(fit.prep)[0])
    base = _row_sample(fit, _row_index(fit, p)) if has_rows else {}
    state = st.session_state
    held = {j: state[f"{p}_v{j}"] for j in range(fit.model.n_features_in_) if f"{p}_v{j}" in state}
    return form_values(fit.model, held, base)


def current_sample(fit, key_prefix="pred"):
    """The sample chosen in the panel (read from state; draws nothing), or None."""
    p = key_prefix
    if _source(p) == "custom":
        return form_sample(fit.model, _custom_values(fit, p))
    if not len(rows_to_predict(fit.prep)[0]):
        return None
    return _row_sample(fit, _row_index(fit, p))


def _explain(fit, sample, step):
    """(Prediction, None) or (None, message)."""
    try:
        return explain_prediction(fit.model, sample, k=step), None
    except (ValueError, TypeError) as exc:
        return None, exc.with_traceback(None)  # (its code words it in Chinese)


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
# The panels
# ---------------------------------------------------------------------------


def _fill_from_row(fit, p):
    """Copy the chosen row into the form (a button's callback)."""
    values = form_values(fit.model, {}, _row_sample(fit, _row_index(fit, p)))
    st.session_state.update({f"{p}_v{j}": v for j, v in values.items()})


def sample_controls(fit, key_prefix="pred"):
    """Choose the sample: a row of the test set, or one value per feature
    (each can be left missing).  Returns the sample (a dict) or None."""
    p = key_prefix
    state = st.session_state
    model = fit.model
    X, y, which = rows_to_predict(fit.prep)
    names = feature_names(model)
    labels = source_names(which, lang())
    # (the key, not its label, is kept in the URL: pages/state/url_state.py)
    if state.get(f"{p}_src") not in SOURCES:
        state[f"{p}_src"] = _source(p)
    st.segmented_control(tr("Sample to predict", "要预测的样本"), list(SOURCES),
                         format_func=labels.get, key=f"{p}_src", required=True,
                         persist_state="session")
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
            st.info(text(words.TEXTS, "no_rows", lang()))
            return None
        row = _row_index(fit, p)
        sample = _row_sample(fit, row)
        with st.expander(tr("The row's values", "这一行的取值"), expanded=False,
                         key=f"{p}_rowvals"):
            st.table(words.sample_table(sample, lang()), hide_index=True)
        if len(y):
            st.markdown(tr("True target of this row: ", "这一行的真实目标值：") +
                        md(fmt_value(shown_value(y[row]))))
        return sample

    values = _custom_values(fit, p)
    for j, v in values.items():  # valid values for the widgets (old ones may be stale)
        state[f"{p}_v{j}"] = v
    if has_rows:
        st.button(tr(f"Fill in the values of row {_row_index(fit, p)}",
                     f"填入第 {_row_index(fit, p)} 行的取值"),
                  key=f"{p}_fill", on_click=_fill_from_row, args=(fit, p),
                  icon=":material/content_copy:")
    categorical = categorical_features(model)
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
    st.caption(text(words.TEXTS, "clear_or_missing" if (~categorical).any() else "choose_missing",
                          lang()))
    return current_sample(fit, p)


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
        st.markdown(words.headline(result, lang()))
        st.caption(words.tree_of(step, result.n_steps, lang()))
        st.markdown("**" + tr("The path, decision by decision", "逐个结点的判断") + "**")
        if result.decisions:
            st.table(words.decision_table(result, lang()), hide_index=True)
        else:
            st.info(text(words.TEXTS, "root_not_split", lang()))
    with right:
        st.plotly_chart(distribution_figure(result, lang()), key=f"{p}_dist",
                        config={"displayModeBar": False})
    if result.fractional:
        st.markdown("**" + text(words.TEXTS, "fractional_title", lang()) + "**")
        st.markdown(text(words.TEXTS, "fractional", lang()))
        st.latex(words.MIXTURE_LATEX)
        st.table(words.leaf_table(result, lang()), hide_index=True)
    elif any(d.status != "known" for d in result.decisions):
        st.caption(text(words.TEXTS, "missing_side", lang()))
    st.markdown("**" + tr("In words", "用文字说明") + "**")
    st.markdown(md(explanation(result, lang())))


def importance_panel(fit, step, key_prefix="pred"):
    """Feature importances of the tree after ``step`` steps: the bar chart,
    the formula, and every split's term."""
    p = key_prefix
    model = fit.model
    names = feature_names(model)
    if step == 0:
        st.info(text(words.TEXTS, "no_split_yet", lang()))
        return
    imp = importances_at(model, step)
    terms = importance_terms(model, step)
    summary = importance_summary(model, step)
    st.plotly_chart(importance_figure(imp, names, lang()), key=f"{p}_imp",
                    config={"displayModeBar": False})
    st.caption(words.importance_caption(step, len(model.steps_), lang()))
    st.markdown("**" + tr("How it is computed", "计算方法") + "**")
    st.markdown(text(words.TEXTS, "importance", lang()))
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
    st.table(words.summary_table(summary, lang()), hide_index=True)
    with st.expander(tr("Every split's term", "每次划分的贡献"), key=f"{p}_terms",
                     expanded=False):
        st.table(words.terms_table(terms, lang()), hide_index=True)
