"""Learn page: the theory of the lecture notes, computed live.

An impurity calculator (entropy, Gini index, misclassification, 2nd-order
Taylor), Li Hang's loan table worked out (entropy, conditional entropy,
information gain), the lecture's cat example, gain ratio against an ID
column, and two exercises answered with the current data: rescaling the
features, and the order of growth.  The numbers are in dtree.views.learn; this page
only reads the widgets and draws.
"""

import numpy as np
import pandas as pd
import streamlit as st

from dtree.views import learn
from pages.orders_panel import growth_orders_panel, url_choice
from pages.shared import (chosen_parameters, current_fit, current_setup, current_table, lang,
                          md, require_frame, shared_result, tr)

require_frame()

PARTS = {
    "impurity": ("Impurity calculator", "不纯度计算器"),
    "gain": ("Information gain", "信息增益"),
    "cats": ("The cat example", "猫的例子"),
    "ratio": ("Gain ratio", "信息增益比"),
    "scaling": ("Rescaling features", "特征缩放"),
    "orders": ("Growth order", "生长顺序"),
}
CRITERION_NAMES = {
    "entropy": ("Entropy", "信息熵"),
    "gini": ("Gini index", "基尼系数"),
    "misclassification": ("Misclassification", "误分类率"),
    "taylor2": ("second-order Taylor", "二阶泰勒近似"),
}

st.title(tr("Learn: the numbers behind a split", "原理：分裂背后的数字"))
# labels fixed at creation: AppTest calls format_func outside the script run
part = url_choice(tr("Topic", "主题"), list(PARTS), key="learn_part", default="impurity",
                  format_func={k: tr(*v) for k, v in PARTS.items()}.get)


def fmt(x, digits=3):
    return f"{x:.{digits}f}"


# ---------------------------------------------------------------------------
# Impurity calculator
# ---------------------------------------------------------------------------

COUNT_ERRORS = {
    "empty": ("Type the class counts, e.g. 9, 6.", "请输入各类别的样本数，例如 9, 6。"),
    "number": ("“{}” is not a number. Type counts such as 9, 6.",
               "“{}” 不是数字。请输入例如 9, 6 的样本数。"),
    "negative": ("Counts cannot be negative (“{}”).", "样本数不能为负（“{}”）。"),
    "zero": ("At least one count must be positive.", "至少要有一个样本数大于 0。"),
    "too_many": ("At most 20 classes ({} given).", "最多 20 个类别（输入了 {} 个）。"),
}


def calculator():
    st.markdown(tr(
        "The impurity of a node measures how mixed its classes are. Enter the number of "
        "samples of each class (|C_k|), or drag the share p of class 1 for two classes.",
        "结点的不纯度衡量其类别混杂的程度。输入每个类别的样本数 |C_k|，或者在两类情形下拖动"
        "第 1 类所占比例 p。"))
    mode = url_choice(
        tr("Input", "输入方式"), ["counts", "p"], key="learn_input", default="counts",
        format_func={"counts": tr("class counts", "各类样本数"),
                     "p": tr("probability p (two classes)", "概率 p（两类）")}.get)
    left, right = st.columns([5, 6], gap="large")
    with left:
        if mode == "counts":
            text = st.text_input(
                tr("Class counts |C_1|, |C_2|, …", "各类样本数 |C_1|, |C_2|, …"), "9, 6",
                key="learn_counts", bind="query-params", max_chars=200,
                help=tr("Separated by commas, e.g. 9, 6 (the loan table: 9 是, 6 否) or "
                        "3, 3, 2 for three classes.",
                        "用逗号分隔，例如 9, 6（贷款申请表：9 个“是”、6 个“否”），三类可输入 3, 3, 2。"))
            try:
                counts = learn.parse_counts(text)
            except learn.CountsError as exc:
                en, zh = COUNT_ERRORS[exc.code]
                st.error(tr(en, zh).format(md(exc.token)), icon=":material/error:")
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
            sym = {"entropy": "H(D)", "gini": "Gini(D)", "misclassification": "Err(D)",
                   "taylor2": "T₂(D)"}[crit]
            cols[i % 2].metric(f"{tr(*CRITERION_NAMES[crit])} {sym}", fmt(values[crit]),
                               border=True)
    with right:
        curves = st.pills(
            tr("Curves", "曲线"), list(learn.CURVE_NAMES), default=list(learn.CRITERIA),
            selection_mode="multi", key="learn_curves",
            format_func=learn.CURVE_SHORT.get,
            help=tr("H: entropy (bits); Gini: Gini index; Err: misclassification; T₂: "
                    "second-order Taylor; H·ln 2: entropy in nats; H/2: half the entropy.",
                    "H：信息熵（比特）；Gini：基尼系数；Err：误分类率；T₂：二阶泰勒近似；"
                    "H·ln 2：以奈特为单位的信息熵；H/2：熵之半。"))
        st.plotly_chart(learn.impurity_figure(counts, curves or ["entropy"], lang=lang()),
                        key="learn_curve_chart", config={"displayModeBar": False})
    st.subheader(tr("The formulas with your numbers", "代入数字的公式"))
    for crit in learn.CRITERIA:
        st.markdown(f"**{tr(*CRITERION_NAMES[crit])}**")
        st.latex(learn.definition_latex(crit))
        if probs is None:
            st.latex(learn.impurity_latex(crit, counts=counts))
        else:
            st.latex(learn.impurity_latex(crit, probs=probs))
    with st.expander(tr("Why Gini and T₂ approximate entropy; why 1 − max p works "
                        "(exercises on impurity functions)",
                        "为什么基尼系数和 T₂ 近似信息熵；为什么 1 − max p 也可以（关于不纯度函数的练习）"),
                     key="learn_why", expanded=False):
        st.markdown(tr(
            "Expanding −ln p around p = 1 gives a series; keeping its first term turns "
            "entropy into the Gini index, keeping two terms gives T₂. Both approximate the "
            "entropy measured in nats (H·ln 2), so on the chart Gini ≤ T₂ ≤ H·ln 2.",
            "把 −ln p 在 p = 1 处做泰勒展开：保留一阶项，信息熵就成为基尼系数；保留到二阶项得到 "
            "T₂。二者近似的是以奈特为单位的信息熵 H·ln 2，所以图中 Gini ≤ T₂ ≤ H·ln 2。"))
        st.latex(learn.TAYLOR_SERIES)
        st.markdown(tr(
            "The misclassification rate 1 − max p is also 0 for a pure node and largest "
            "when the classes are equally frequent, so it can rank splits. Its gain is "
            "Err(D) − Σ |D_i|/|D| · Err(D_i). But it is not strictly concave: a split can "
            "make the children purer without lowering the weighted error, as below, "
            "which entropy and Gini still reward.",
            "误分类率 1 − max p 在纯结点处为 0，在各类别等频时最大，所以也能用来比较分裂；"
            "其增益为 Err(D) − Σ |D_i|/|D| · Err(D_i)。但它不是严格凹函数：分裂可以让子结点"
            "更纯而加权误分类率不变（如下例），而信息熵和基尼系数仍然给出正的增益。"))
        parent, kids = learn.ERR_EXAMPLE
        for crit in ("misclassification", "entropy", "gini"):
            gain = learn.split_gain(crit, parent, kids)
            st.latex(rf"{learn.SYMBOL[crit]}:\ (40, 20) \to (30, 10) + (10, 10):\quad "
                     rf"\Delta = {gain:.3f}")


# ---------------------------------------------------------------------------
# Li Hang's loan table
# ---------------------------------------------------------------------------


@st.cache_resource(show_spinner=False, max_entries=4)
def example(name, with_id):
    X, y = learn.load_example(name, with_id=with_id)
    id_column = learn.EXAMPLES[name][2]
    return X, y, learn.gain_example(X, y, learn.feature_symbols(X.columns, id_column))


def legend(ex):
    """Which symbol is which feature (the formulas use only symbols)."""
    items = [f"${f.symbol}$ = {md(f.feature)}" for f in ex.features]
    st.markdown(tr("Features: ", "特征：") + " · ".join(items))


def branch_legend(fg, ex):
    parts = []
    for i, b in enumerate(fg.branches, start=1):
        counts = ", ".join(f"{int(c)} {md(k)}" for c, k in zip(b.counts, ex.classes))
        parts.append(f"$D_{{{i}}}$: {md(fg.feature)} = {md(b.value)} ({counts})")
    st.caption(" · ".join(parts))


def symbol_text(symbol):
    """A_{1} -> A1, A_{\\mathrm{ID}} -> A_ID (for tables, which show no LaTeX)."""
    return symbol.replace(r"_{\mathrm{ID}}", "_ID").replace("_{", "").replace("}", "")


def gain_part():
    X, y, ex = example("loan", False)
    st.markdown(tr(
        "Li Hang, *Statistical Learning Methods*, Table 5.1 (贷款申请样本数据表): 15 loan "
        "applications, 4 categorical features, the class says whether the loan was "
        "granted. ID3 computes the empirical entropy H(D), the empirical conditional "
        "entropy H(D|A) of every feature A, and their difference, the information gain "
        "g(D, A) = H(D) − H(D|A).",
        "李航《统计学习方法》表 5.1（贷款申请样本数据表）：15 个贷款申请、4 个类别特征，类别表示"
        "是否批准贷款。ID3 计算经验熵 H(D)、每个特征 A 的经验条件熵 H(D|A)，以及二者之差——"
        "信息增益 g(D, A) = H(D) − H(D|A)。"))
    with st.expander(tr("The table", "数据表"), key="learn_loan_table", expanded=False):
        st.dataframe(pd.concat([X, y], axis=1), hide_index=True)
    legend(ex)
    st.latex(r"H(D) = -\sum_{k=1}^{K}\frac{|C_k|}{|D|}\log_2\frac{|C_k|}{|D|}")
    st.latex(learn.entropy_latex(ex.counts))
    st.caption(tr("Classes in the formula: ", "公式中的类别：")
               + ", ".join(f"{int(c)} {md(k)}" for c, k in zip(ex.counts, ex.classes)))
    st.latex(r"H(D\mid A) = \sum_{i=1}^{n}\frac{|D_i|}{|D|}H(D_i),\qquad "
             r"g(D, A) = H(D) - H(D\mid A)")
    table = pd.DataFrame({
        tr("feature", "特征"): [f.feature for f in ex.features],
        tr("symbol", "记号"): [symbol_text(f.symbol) for f in ex.features],
        tr("conditional entropy H(D|A)", "条件熵 H(D|A)"):
            [fmt(f.conditional_entropy) for f in ex.features],
        tr("information gain g(D, A)", "信息增益 g(D, A)"): [fmt(f.gain) for f in ex.features],
    })
    st.dataframe(table, hide_index=True, key="learn_gain_table")
    best = ex.feature(ex.best_by_gain)
    st.success(tr(
        f"ID3 splits the root on {md(best.feature)} (${best.symbol}$), the largest "
        f"information gain, {fmt(best.gain)}. The book prints g(D, A₁…A₄) = 0.083, "
        "0.324, 0.420, 0.363.",
        f"ID3 在根结点选择信息增益最大的 {md(best.feature)}（${best.symbol}$），"
        f"g = {fmt(best.gain)}。书中给出的 g(D, A₁…A₄) = 0.083, 0.324, 0.420, 0.363。"),
        icon=":material/check:")
    for i, fg in enumerate(ex.features):
        with st.container(border=True, key=f"learn_gain_{i}"):
            st.markdown(f"**${fg.symbol}$ = {md(fg.feature)}**")
            branch_legend(fg, ex)
            for line in learn.branch_entropy_latex(fg):
                st.latex(line)
            st.latex(learn.conditional_entropy_latex(fg))
            st.latex(learn.gain_equation_latex(fg, ex.entropy))


# ---------------------------------------------------------------------------
# The cat example
# ---------------------------------------------------------------------------


def cats_part():
    X, y, ex = example("cats", True)
    st.markdown(tr(
        "Andrew Ng's lecture: 10 animals (5 cats, 5 dogs) with three yes/no features. "
        "p₁ is the share of cats in a node; the information gain of a split is the "
        "root's entropy minus the weighted entropy of the two branches.",
        "吴恩达的课程：10 只动物（5 只猫、5 只狗），三个二值特征。p₁ 是结点中猫所占的比例；"
        "分裂的信息增益等于根结点的熵减去两个分支熵的加权平均。"))
    with st.expander(tr("The table", "数据表"), key="learn_cat_table", expanded=False):
        st.dataframe(pd.concat([X, y], axis=1), hide_index=True)
    st.latex(r"H(p_1) = -p_1\log_2 p_1 - (1 - p_1)\log_2(1 - p_1)")
    positive = "1"
    rows = []
    for fg in ex.features:
        left = learn.CAT_LEFT[fg.feature]
        right = next(b.value for b in fg.branches if b.value != left)
        st.markdown(f"**{md(fg.feature)}** · "
                    + tr(f"left: {md(left)}, right: {md(right)}",
                         f"左：{md(left)}，右：{md(right)}"))
        st.latex(learn.cat_gain_latex(fg, ex, positive, left))
        rows.append({tr("feature", "特征"): fg.feature,
                     tr("information gain", "信息增益"): fmt(fg.gain, 2)})
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="learn_cat_gains")
    computed = " / ".join(fmt(fg.gain, 2) for fg in ex.features)
    st.success(tr(
        f"Computed: {computed} (the lecture: 0.28 / 0.03 / 0.12). The root is split on "
        f"{md(ex.best_by_gain)}, the largest information gain.",
        f"计算结果：{computed}（课程中为 0.28 / 0.03 / 0.12）。根结点按信息增益最大的 "
        f"{md(ex.best_by_gain)} 分裂。"), icon=":material/check:")


# ---------------------------------------------------------------------------
# Gain ratio
# ---------------------------------------------------------------------------


def ratio_part():
    X, y, ex = example("loan", True)
    ident = ex.feature("ID")
    winner = ex.feature(ex.best_by_ratio)
    st.markdown(tr(
        "Information gain favours features with many values. The loan table's ID column "
        "has a different value on every row: splitting on it makes 15 pure one-row "
        "branches, so H(D|ID) = 0 and its gain is the largest possible, H(D). C4.5 "
        "divides the gain by the feature's own entropy H_A(D), the split information "
        "(intrinsic value, 固有值), which grows with the number of branches.",
        "信息增益偏向取值较多的特征。贷款申请表的 ID 列每行取值都不同：按它分裂得到 15 个只含"
        "一行的纯分支，H(D|ID) = 0，信息增益达到最大值 H(D)。C4.5 用特征自身的熵 H_A(D)"
        "（分裂信息，又称固有值）去除信息增益，分支越多 H_A(D) 越大。"))
    legend(ex)
    st.latex(r"H_A(D) = -\sum_{i=1}^{n}\frac{|D_i|}{|D|}\log_2\frac{|D_i|}{|D|},\qquad "
             r"g_R(D, A) = \frac{g(D, A)}{H_A(D)}")
    st.plotly_chart(learn.gain_ratio_figure(ex, lang=lang()), key="learn_ratio_chart",
                    config={"displayModeBar": False})
    table = pd.DataFrame({
        tr("feature", "特征"): [f.feature for f in ex.features],
        tr("branches", "分支数"): [len(f.branches) for f in ex.features],
        tr("information gain g", "信息增益 g"): [fmt(f.gain) for f in ex.features],
        tr("split information H_A(D)", "分裂信息 H_A(D)"): [fmt(f.split_info)
                                                          for f in ex.features],
        tr("gain ratio g_R", "信息增益比 g_R"): [fmt(f.gain_ratio) for f in ex.features],
    })
    st.dataframe(table, hide_index=True, key="learn_ratio_table")
    st.success(tr(
        f"By information gain (ID3) the root would be split on {md(ex.best_by_gain)} "
        f"(g = {fmt(ex.feature(ex.best_by_gain).gain)}), a useless tree that memorises the "
        f"rows. Its split information is log₂ 15 = {fmt(ident.split_info)}, so its gain "
        f"ratio is only {fmt(ident.gain_ratio)}, and C4.5 chooses {md(winner.feature)} "
        f"(g_R = {fmt(winner.gain_ratio)}).",
        f"按信息增益（ID3），根结点会按 {md(ex.best_by_gain)} 分裂"
        f"（g = {fmt(ex.feature(ex.best_by_gain).gain)}），得到一棵只会记住每一行的无用的树。"
        f"它的分裂信息是 log₂ 15 = {fmt(ident.split_info)}，信息增益比只有 "
        f"{fmt(ident.gain_ratio)}；C4.5 选择 {md(winner.feature)}（g_R = "
        f"{fmt(winner.gain_ratio)}）。"), icon=":material/check:")
    for i, fg in enumerate(ex.features):
        with st.container(border=True, key=f"learn_ratio_{i}"):
            st.markdown(f"**${fg.symbol}$ = {md(fg.feature)}**")
            st.latex(learn.split_info_latex(fg))
            st.latex(learn.gain_ratio_latex(fg))


# ---------------------------------------------------------------------------
# Rescaling (an exercise on rescaling the features)
# ---------------------------------------------------------------------------


def table_numeric_columns(fit):
    """Positions of the features that are numeric columns of the table (not
    one-hot or ordinal codes of a categorical column) and numeric to the model."""
    prep, model = fit.prep, fit.model
    columns = list(learn.numeric_columns(model))
    numeric = getattr(prep, "numeric_features", None)
    if numeric is not None and hasattr(prep.X_train, "columns"):
        names = set(numeric())
        columns = [j for j in columns if str(prep.X_train.columns[j]) in names]
    return columns


def scaling(key, _fit):
    """The scaling report, once per fit for the whole process; kept in the
    size-bounded cache of fits (it holds a second model)."""
    prep = _fit.prep
    return shared_result("scaling", key, lambda: learn.scaling_report(
        _fit.model, prep.X_train, prep.y_train, columns=table_numeric_columns(_fit)))


def scaling_part():
    st.markdown(tr(
        "**Does standardising the features change a classification tree?** (an exercise "
        "on rescaling the features) Below, the current data's tree is grown again on z-scores "
        "z = (x − mean) / std of its numeric features (mean and std of the training rows).",
        "**对特征做标准化会影响分类树的输出吗？**（关于特征标准化的练习）下面把当前数据的树在数值特征的 "
        "z 分数 z = (x − 均值) / 标准差（用训练集计算）上重新生长。"))
    fit, error = current_fit()
    if error:
        st.info(tr("No tree for the current data: ", "当前数据无法生成决策树：") + md(error),
                icon=":material/info:")
        return
    if not table_numeric_columns(fit):
        st.info(tr("The current dataset has no numeric features, so there is nothing to "
                   "rescale. Choose a dataset with numbers (e.g. Iris) on the Data page.",
                   "当前数据没有数值特征，无需缩放。请在“数据”页选择含数值特征的数据（例如 Iris）。"),
                icon=":material/info:")
        return
    table = current_table()
    setup = current_setup(table)
    preset, criterion, params = chosen_parameters(setup.task)
    key = (table.key, setup, preset, criterion, tuple(sorted(params.items())))
    with st.spinner(tr("Growing the tree on z-scores…", "在 z 分数上生长决策树…")):
        report = scaling(key, fit)
    n_nodes = report.model.tree_.node_count
    if report.identical_partitions:
        st.success(tr(
            f"Same tree: {n_nodes} nodes with the same features and sample counts, every "
            f"one of the {report.n_rows:,} training rows in the same leaf, the same "
            "predictions. Only the thresholds moved.",
            f"同一棵树：{n_nodes} 个结点的特征和样本数都相同，{report.n_rows:,} 个训练样本"
            "全部落在同一个叶结点，预测完全相同，只有阈值变了。"), icon=":material/check:")
    else:
        what = [tr(en, zh) for ok, en, zh in (
            (report.same_structure, "the tree's structure", "树的结构"),
            (report.same_leaves, "the leaves of the training rows", "训练样本所在的叶结点"),
            (report.same_predictions, "the predictions", "预测")) if not ok]
        st.warning(tr("Differences: ", "不同之处：") + ", ".join(what) + tr(
            ". This can only happen when rounding to float32 merges two neighbouring "
            "values, or with splitter = random.",
            "。只有当舍入到 float32 使相邻两个取值重合，或 splitter = random 时才会这样。"),
            icon=":material/warning:")
    st.markdown(tr(
        "Why: a split x ≤ t only asks on which side of t each value lies. With std > 0, "
        "z keeps the order of the values, so every candidate split separates the same "
        "rows, has the same gain, and the search picks the same one. The threshold is the "
        "midpoint between the same two neighbouring training values a < b, now on the z "
        "scale:",
        "原因：分裂 x ≤ t 只关心每个取值在 t 的哪一侧。标准差大于 0 时，z 保持取值的大小顺序，"
        "所以每个候选分裂划分出的样本相同、增益相同，搜索选中的分裂也相同；阈值仍是相邻两个训练"
        "取值 a < b 的中点，只是换成了 z 的尺度："))
    st.latex(r"z = \frac{x - \mu}{\sigma},\quad a < b \iff z_a < z_b,\quad "
             r"t_z = \frac{z_a + z_b}{2} = \frac{\frac{a + b}{2} - \mu}{\sigma} "
             r"= \frac{t - \mu}{\sigma}")
    st.caption(tr(
        "The engine stores features as float32, as scikit-learn does: z-scores are "
        "rounded to float32, so t_z·σ + μ equals t only up to that rounding, while the "
        "partitions are compared exactly. Categorical features are left as they are.",
        "与 scikit-learn 一样，引擎以 float32 存储特征：z 分数被舍入为 float32，因此 t_z·σ + μ "
        "只在舍入误差范围内等于 t，而划分是逐个样本精确比较的。类别特征保持不变。"))
    frame = report.thresholds
    if frame.empty:
        st.info(tr("The tree has no split on a numeric feature.", "这棵树没有按数值特征分裂。"))
    else:
        shown = pd.DataFrame({
            tr("node", "结点"): [f"#{n}" for n in frame["node"]],
            tr("feature", "特征"): frame["feature"],
            "a": frame["left_max"], "b": frame["right_min"],
            tr("threshold t", "阈值 t"): frame["threshold"],
            "z_a": frame["left_max_z"], "z_b": frame["right_min_z"],
            tr("threshold t_z", "阈值 t_z"): frame["threshold_z"],
            "t_z·σ + μ": frame["threshold_z_back"],
            tr("same cut", "同一切分"): frame["same_cut"],
        })
        st.dataframe(shown, hide_index=True, key="learn_scaling_table",
                     column_config={c: st.column_config.NumberColumn(format="%.6g")
                                    for c in shown.columns
                                    if pd.api.types.is_float_dtype(shown[c])})
        st.caption(tr(
            "a: the largest training value that goes left, b: the smallest that goes right "
            "(as float32); same cut: a ≤ t < b and z_a ≤ t_z < z_b.",
            "a：进入左子结点的最大训练取值；b：进入右子结点的最小训练取值（float32）；"
            "同一切分：a ≤ t < b 且 z_a ≤ t_z < z_b。"))
    with st.expander(tr("Means and standard deviations", "均值与标准差"), key="learn_scales",
                     expanded=False):
        st.dataframe(pd.DataFrame({tr("feature", "特征"): report.columns, "μ": report.mean,
                                   "σ": report.scale}), hide_index=True)


{
    "impurity": calculator,
    "gain": gain_part,
    "cats": cats_part,
    "ratio": ratio_part,
    "scaling": scaling_part,
    "orders": growth_orders_panel,
}[part]()
