"""Learn page: the theory of the lecture notes, computed live.

An impurity calculator (entropy, Gini index, misclassification, 2nd-order
Taylor), Li Hang's loan table worked out (entropy, conditional entropy,
information gain), the lecture's cat example, gain ratio against an ID
column, two exercises answered with the current data (rescaling the
features, the order of growth) and greedy CART's tree of depth 2 next to
the best one (pages/panels/lookahead_panel.py).  The numbers are in
dtree.views.learn, the words and tables in dtree.views.learntext; this page
only reads the widgets and draws.
"""

import numpy as np
import pandas as pd
import streamlit as st

from dtree.views.vocabulary import text
from dtree.views import learn
from dtree.views import learntext as words
from dtree.views.links import md
from pages.panels.lookahead_panel import lookahead_panel
from pages.panels.orders_panel import growth_orders_panel, url_choice
from pages.runtime.caches import shared_result
from pages.state.current_tree import current_fit
from pages.state.parameters import chosen_parameters
from pages.state.session import lang, require_frame, tr
from pages.state.tables_state import current_setup, current_table

require_frame()

st.title(tr("Learn: the numbers behind a split", "原理：分裂背后的数字"))
# labels fixed at creation: AppTest calls format_func outside the script run
part = url_choice(tr("Topic", "主题"), list(words.PARTS), key="learn_part", default="impurity",
                  format_func=words.part_names(lang()).get)


def say(name):
    """One of the page's fixed texts, in the interface language."""
    return text(words.TEXTS, name, lang())


# ---------------------------------------------------------------------------
# Impurity calculator
# ---------------------------------------------------------------------------

def calculator():
    st.markdown(say("calculator"))
    mode = url_choice(tr("Input", "输入方式"), ["counts", "p"], key="learn_input",
                      default="counts", format_func=words.input_names(lang()).get)
    left, right = st.columns([5, 6], gap="large")
    with left:
        if mode == "counts":
            text = st.text_input(
                tr("Class counts |C_1|, |C_2|, …", "各类样本数 |C_1|, |C_2|, …"), "9, 6",
                key="learn_counts", bind="query-params", max_chars=200,
                help=say("counts_help"))
            try:
                counts = learn.parse_counts(text)
            except learn.CountsError as exc:
                st.error(words.counts_error(exc, md, lang()), icon=":material/error:")
                return
            probs = None
        else:
            p = st.slider(tr("p = share of class 1", "p = 第 1 类所占比例"), 0.0, 1.0, 0.6,
                          0.01, key="learn_p", bind="query-params")
            probs = np.array([p, 1.0 - p])
            counts = probs
        values = learn.impurities(counts)
        cols = st.columns(2)
        for i, crit in enumerate(learn.CRITERIA):
            cols[i % 2].metric(words.metric_label(crit, lang()), words.fmt(values[crit]),
                               border=True)
    with right:
        curves = st.pills(
            tr("Curves", "曲线"), list(learn.CURVE_NAMES), default=list(learn.CRITERIA),
            selection_mode="multi", key="learn_curves",
            format_func=learn.CURVE_SHORT.get, help=say("curves_help"))
        st.plotly_chart(learn.impurity_figure(counts, curves or ["entropy"], lang=lang()),
                        key="learn_curve_chart", config={"displayModeBar": False})
    st.subheader(tr("The formulas with your numbers", "代入数字的公式"))
    for crit in learn.CRITERIA:
        st.markdown(f"**{words.metric_label(crit, lang())}**")
        st.latex(learn.definition_latex(crit))
        if probs is None:
            st.latex(learn.impurity_latex(crit, counts=counts))
        else:
            st.latex(learn.impurity_latex(crit, probs=probs))
    with st.expander(say("why"), key="learn_why", expanded=False):
        st.markdown(say("taylor"))
        st.latex(learn.TAYLOR_SERIES)
        st.markdown(say("misclassification"))
        for line in words.err_example_latex():
            st.latex(line)


# ---------------------------------------------------------------------------
# The worked examples: Li Hang's loan table, the cat example, gain ratio
# ---------------------------------------------------------------------------


@st.cache_resource(show_spinner=False, max_entries=4)
def example(name, with_id):
    X, y = learn.load_example(name, with_id=with_id)
    id_column = learn.EXAMPLES[name][2]
    return X, y, learn.gain_example(X, y, learn.feature_symbols(X.columns, id_column))


def data_table(X, y, key):
    with st.expander(tr("The table", "数据表"), key=key, expanded=False):
        st.dataframe(pd.concat([X, y], axis=1), hide_index=True)


def gain_part():
    X, y, ex = example("loan", False)
    st.markdown(say("loan"))
    data_table(X, y, "learn_loan_table")
    st.markdown(words.feature_legend(ex, md, lang()))
    st.latex(words.ENTROPY_DEFINITION)
    st.latex(learn.entropy_latex(ex.counts))
    st.caption(words.class_caption(ex, md, lang()))
    st.latex(words.GAIN_DEFINITION)
    st.dataframe(words.gain_table(ex, lang()), hide_index=True, key="learn_gain_table")
    st.success(words.gain_verdict(ex, md, lang()), icon=":material/check:")
    for i, fg in enumerate(ex.features):
        with st.container(border=True, key=f"learn_gain_{i}"):
            st.markdown(f"**${fg.symbol}$ = {md(fg.feature)}**")
            st.caption(words.branch_legend(fg, ex, md))
            for line in learn.branch_entropy_latex(fg):
                st.latex(line)
            st.latex(learn.conditional_entropy_latex(fg))
            st.latex(learn.gain_equation_latex(fg, ex.entropy))


def cats_part():
    X, y, ex = example("cats", True)
    st.markdown(say("cats"))
    data_table(X, y, "learn_cat_table")
    st.latex(words.BINARY_ENTROPY)
    for fg in ex.features:
        left, right = learn.cat_sides(fg)
        st.markdown(words.cat_heading(fg, left, right, md, lang()))
        st.latex(learn.cat_gain_latex(fg, ex, "1", left))
    st.dataframe(words.cat_gain_table(ex, lang()), hide_index=True, key="learn_cat_gains")
    st.success(words.cats_verdict(ex, md, lang()), icon=":material/check:")


def ratio_part():
    X, y, ex = example("loan", True)
    st.markdown(say("ratio"))
    st.markdown(words.feature_legend(ex, md, lang()))
    st.latex(words.RATIO_DEFINITION)
    st.plotly_chart(learn.gain_ratio_figure(ex, lang=lang()), key="learn_ratio_chart",
                    config={"displayModeBar": False})
    st.dataframe(words.ratio_table(ex, lang()), hide_index=True, key="learn_ratio_table")
    st.success(words.ratio_verdict(ex, "ID", md, lang()), icon=":material/check:")
    for i, fg in enumerate(ex.features):
        with st.container(border=True, key=f"learn_ratio_{i}"):
            st.markdown(f"**${fg.symbol}$ = {md(fg.feature)}**")
            st.latex(learn.split_info_latex(fg))
            st.latex(learn.gain_ratio_latex(fg))


# ---------------------------------------------------------------------------
# Rescaling (an exercise on rescaling the features)
# ---------------------------------------------------------------------------


def scaling(key, _fit):
    """The scaling report, once per fit for the whole process; kept in the
    size-bounded cache of fits (it holds a second model)."""
    prep = _fit.prep
    return shared_result("scaling", key, lambda: learn.scaling_report(
        _fit.model, prep.X_train, prep.y_train, columns=learn.scaled_columns(_fit.model, prep)))


def scaling_part():
    st.markdown(say("scaling"))
    fit, error = current_fit()
    if error:
        st.info(words.no_tree(md(error), lang()), icon=":material/info:")
        return
    if not learn.scaled_columns(fit.model, fit.prep):
        st.info(say("no_numeric"), icon=":material/info:")
        return
    table = current_table()
    setup = current_setup(table)
    preset, criterion, params = chosen_parameters(setup.task)
    key = (table.key, setup, preset, criterion, tuple(sorted(params.items())))
    with st.spinner(tr("Growing the tree on z-scores…", "在 z 分数上生长决策树…")):
        report = scaling(key, fit)
    same, verdict = words.scaling_verdict(report, lang())
    if same:
        st.success(verdict, icon=":material/check:")
    else:
        st.warning(verdict, icon=":material/warning:")
    st.markdown(say("scaling_why"))
    st.latex(words.SCALING_LATEX)
    st.caption(say("float32"))
    if report.thresholds.empty:
        st.info(say("no_numeric_split"))
    else:
        shown = words.thresholds_table(report.thresholds, lang())
        st.dataframe(shown, hide_index=True, key="learn_scaling_table",
                     column_config={c: st.column_config.NumberColumn(format="%.6g")
                                    for c in shown.columns
                                    if pd.api.types.is_float_dtype(shown[c])})
        st.caption(say("thresholds"))
    with st.expander(tr("Means and standard deviations", "均值与标准差"), key="learn_scales",
                     expanded=False):
        st.dataframe(words.scales_table(report, lang()), hide_index=True)


{
    "impurity": calculator,
    "gain": gain_part,
    "cats": cats_part,
    "ratio": ratio_part,
    "scaling": scaling_part,
    "orders": growth_orders_panel,
    "lookahead": lookahead_panel,
}[part]()
