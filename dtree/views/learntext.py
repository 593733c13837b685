"""The Learn page's words and tables, in plain Python.

What the page says (in English or Chinese, ``lang="en"`` / ``"zh"``) around
the numbers of :mod:`dtree.views.learn`: its topics, the calculator's
labels and error messages, the worked examples' legends, tables and
conclusions, the rescaling exercise's verdict and tables, and the lesson
that puts greedy CART's depth-2 tree next to the best one.  User text
(feature, value and class names, the user's own counts) goes through
``escape`` (the page passes its Markdown escaping); the fixed LaTeX holds
only symbols.
"""

from __future__ import annotations

import pandas as pd

from .vocabulary import criterion_name, t
from .learn import ERR_EXAMPLE, SYMBOL, split_gain

#: The page's topics: key -> (English, Chinese).
PARTS = {
    "impurity": ("Impurity calculator", "不纯度计算器"),
    "gain": ("Information gain", "信息增益"),
    "cats": ("The cat example", "猫的例子"),
    "ratio": ("Gain ratio", "信息增益比"),
    "scaling": ("Rescaling features", "特征缩放"),
    "orders": ("Growth order", "生长顺序"),
    "lookahead": ("Greedy vs lookahead", "贪心与前瞻"),
}
_VALUE_OF = {"entropy": "H(D)", "gini": "Gini(D)", "misclassification": "Err(D)",
             "taylor2": "T₂(D)"}
_COUNT_ERRORS = {
    "empty": ("Type the class counts, e.g. 9, 6.", "请输入各类别的样本数，例如 9, 6。"),
    "number": ("“{}” is not a number. Type counts such as 9, 6.",
               "“{}” 不是数字。请输入例如 9, 6 的样本数。"),
    "negative": ("Counts cannot be negative (“{}”).", "样本数不能为负（“{}”）。"),
    "zero": ("At least one count must be positive.", "至少要有一个样本数大于 0。"),
    "too_many": ("At most 20 classes ({} given).", "最多 20 个类别（输入了 {} 个）。"),
}

#: The page's fixed texts: name -> (English, Chinese).
TEXTS = {
    "calculator": (
        "The impurity of a node measures how mixed its classes are. Enter the number of "
        "samples of each class (|C_k|), or drag the share p of class 1 for two classes.",
        "结点的不纯度衡量其类别混杂的程度。输入每个类别的样本数 |C_k|，或者在两类情形下拖动"
        "第 1 类所占比例 p。"),
    "counts_help": (
        "Separated by commas, e.g. 9, 6 (the loan table: 9 是, 6 否) or "
        "3, 3, 2 for three classes.",
        "用逗号分隔，例如 9, 6（贷款申请表：9 个“是”、6 个“否”），三类可输入 3, 3, 2。"),
    "curves_help": (
        "H: entropy (bits); Gini: Gini index; Err: misclassification; T₂: "
        "second-order Taylor; H·ln 2: entropy in nats; H/2: half the entropy.",
        "H：信息熵（比特）；Gini：基尼系数；Err：误分类率；T₂：二阶泰勒近似；"
        "H·ln 2：以奈特为单位的信息熵；H/2：熵之半。"),
    "why": (
        "Why Gini and T₂ approximate entropy; why 1 − max p works "
        "(exercises on impurity functions)",
        "为什么基尼系数和 T₂ 近似信息熵；为什么 1 − max p 也可以（关于不纯度函数的练习）"),
    "taylor": (
        "Expanding −ln p around p = 1 gives a series; keeping its first term turns "
        "entropy into the Gini index, keeping two terms gives T₂. Both approximate the "
        "entropy measured in nats (H·ln 2), so on the chart Gini ≤ T₂ ≤ H·ln 2.",
        "把 −ln p 在 p = 1 处做泰勒展开：保留一阶项，信息熵就成为基尼系数；保留到二阶项得到 "
        "T₂。二者近似的是以奈特为单位的信息熵 H·ln 2，所以图中 Gini ≤ T₂ ≤ H·ln 2。"),
    "misclassification": (
        "The misclassification rate 1 − max p is also 0 for a pure node and largest "
        "when the classes are equally frequent, so it can rank splits. Its gain is "
        "Err(D) − Σ |D_i|/|D| · Err(D_i). But it is not strictly concave: a split can "
        "make the children purer without lowering the weighted error, as below, "
        "which entropy and Gini still reward.",
        "误分类率 1 − max p 在纯结点处为 0，在各类别等频时最大，所以也能用来比较分裂；"
        "其增益为 Err(D) − Σ |D_i|/|D| · Err(D_i)。但它不是严格凹函数：分裂可以让子结点"
        "更纯而加权误分类率不变（如下例），而信息熵和基尼系数仍然给出正的增益。"),
    "loan": (
        "Li Hang, *Statistical Learning Methods*, Table 5.1 (贷款申请样本数据表): 15 loan "
        "applications, 4 categorical features, the class says whether the loan was "
        "granted. ID3 computes the empirical entropy H(D), the empirical conditional "
        "entropy H(D|A) of every feature A, and their difference, the information gain "
        "g(D, A) = H(D) − H(D|A).",
        "李航《统计学习方法》表 5.1（贷款申请样本数据表）：15 个贷款申请、4 个类别特征，类别表示"
        "是否批准贷款。ID3 计算经验熵 H(D)、每个特征 A 的经验条件熵 H(D|A)，以及二者之差——"
        "信息增益 g(D, A) = H(D) − H(D|A)。"),
    "cats": (
        "Andrew Ng's lecture: 10 animals (5 cats, 5 dogs) with three yes/no features. "
        "p₁ is the share of cats in a node; the information gain of a split is the "
        "root's entropy minus the weighted entropy of the two branches.",
        "吴恩达的课程：10 只动物（5 只猫、5 只狗），三个二值特征。p₁ 是结点中猫所占的比例；"
        "分裂的信息增益等于根结点的熵减去两个分支熵的加权平均。"),
    "ratio": (
        "Information gain favours features with many values. The loan table's ID column "
        "has a different value on every row: splitting on it makes 15 pure one-row "
        "branches, so H(D|ID) = 0 and its gain is the largest possible, H(D). C4.5 "
        "divides the gain by the feature's own entropy H_A(D), the split information "
        "(intrinsic value, 固有值), which grows with the number of branches.",
        "信息增益偏向取值较多的特征。贷款申请表的 ID 列每行取值都不同：按它分裂得到 15 个只含"
        "一行的纯分支，H(D|ID) = 0，信息增益达到最大值 H(D)。C4.5 用特征自身的熵 H_A(D)"
        "（分裂信息，又称固有值）去除信息增益，分支越多 H_A(D) 越大。"),
    "scaling": (
        "**Does standardising the features change a classification tree?** (an exercise "
        "on rescaling the features) Below, the current data's tree is grown again on z-scores "
        "z = (x − mean) / std of its numeric features (mean and std of the training rows).",
        "**对特征做标准化会影响分类树的输出吗？**（关于特征标准化的练习）下面把当前数据的树在数值特征的 "
        "z 分数 z = (x − 均值) / 标准差（用训练集计算）上重新生长。"),
    "no_numeric": (
        "The current dataset has no numeric features, so there is nothing to "
        "rescale. Choose a dataset with numbers (e.g. Iris) on the Data page.",
        "当前数据没有数值特征，无需缩放。请在“数据”页选择含数值特征的数据（例如 Iris）。"),
    "scaling_why": (
        "Why: a split x ≤ t only asks on which side of t each value lies. With std > 0, "
        "z keeps the order of the values, so every candidate split separates the same "
        "rows, has the same gain, and the search picks the same one. The threshold is the "
        "midpoint between the same two neighbouring training values a < b, now on the z "
        "scale:",
        "原因：分裂 x ≤ t 只关心每个取值在 t 的哪一侧。标准差大于 0 时，z 保持取值的大小顺序，"
        "所以每个候选分裂划分出的样本相同、增益相同，搜索选中的分裂也相同；阈值仍是相邻两个训练"
        "取值 a < b 的中点，只是换成了 z 的尺度："),
    "float32": (
        "The engine stores features as float32, as scikit-learn does: z-scores are "
        "rounded to float32, so t_z·σ + μ equals t only up to that rounding, while the "
        "partitions are compared exactly. Categorical features are left as they are.",
        "与 scikit-learn 一样，引擎以 float32 存储特征：z 分数被舍入为 float32，因此 t_z·σ + μ "
        "只在舍入误差范围内等于 t，而划分是逐个样本精确比较的。类别特征保持不变。"),
    "lookahead": (
        "**Where does greedy fail?** CART, ID3 and C4.5 are greedy: at each node they take "
        "the split with the largest gain and never look further down. Below, CART's tree of "
        "depth 2 stands next to the best tree of depth 2, found by trying every root split "
        "with every split of each child and keeping the tree that classifies the most "
        "training rows correctly.",
        "**贪心在哪里失败？** CART、ID3 和 C4.5 都是贪心算法：在每个结点只选增益最大的划分，"
        "从不往下多看一步。下面把 CART 生长的深度为 2 的树，与深度同为 2 的最优树并排比较；"
        "最优树由穷举搜索得到：尝试每个根结点划分与两个子结点的每种划分，保留训练样本分类正确"
        "最多的那棵树。"),
    "lookahead_scope": (
        "Both trees: binary splits, depth at most 2, the training rows. The search tries every "
        "threshold (the midpoint between neighbouring values) and every grouping of a "
        "categorical feature's categories in two; among equally accurate trees it keeps the "
        "one with the purer leaves. It takes tables of up to 2,000 rows and 1,000 candidate "
        "splits, and refuses bigger ones (about a second of work).",
        "两棵树：二叉划分，深度不超过 2，使用训练样本。穷举搜索尝试每个阈值（相邻取值的中点）和"
        "类别特征的每种二分组；准确率相同时保留叶结点更纯的那棵树。它处理最多 2,000 行、"
        "1,000 个候选划分的表，更大的表不予计算（约一秒的计算量）。"),
    "lookahead_regression": (
        "The lesson compares classification trees by accuracy: choose a classification target "
        "on the Data page, or the XOR table.",
        "这一课按准确率比较分类树：请在“数据”页选择分类目标，或者选择 XOR 表。"),
    "no_numeric_split": (
        "The tree has no split on a numeric feature.", "这棵树没有按数值特征分裂。"),
    "thresholds": (
        "a: the largest training value that goes left, b: the smallest that goes right "
        "(as float32); same cut: a ≤ t < b and z_a ≤ t_z < z_b.",
        "a：进入左子结点的最大训练取值；b：进入右子结点的最小训练取值（float32）；"
        "同一切分：a ≤ t < b 且 z_a ≤ t_z < z_b。"),
}

#: The definitions the worked examples start from (symbols only).
ENTROPY_DEFINITION = r"H(D) = -\sum_{k=1}^{K}\frac{|C_k|}{|D|}\log_2\frac{|C_k|}{|D|}"
GAIN_DEFINITION = (r"H(D\mid A) = \sum_{i=1}^{n}\frac{|D_i|}{|D|}H(D_i),\qquad "
                   r"g(D, A) = H(D) - H(D\mid A)")
BINARY_ENTROPY = r"H(p_1) = -p_1\log_2 p_1 - (1 - p_1)\log_2(1 - p_1)"
RATIO_DEFINITION = (r"H_A(D) = -\sum_{i=1}^{n}\frac{|D_i|}{|D|}\log_2\frac{|D_i|}{|D|},\qquad "
                    r"g_R(D, A) = \frac{g(D, A)}{H_A(D)}")
SCALING_LATEX = (r"z = \frac{x - \mu}{\sigma},\quad a < b \iff z_a < z_b,\quad "
                 r"t_z = \frac{z_a + z_b}{2} = \frac{\frac{a + b}{2} - \mu}{\sigma} "
                 r"= \frac{t - \mu}{\sigma}")


def fmt(x, digits=3) -> str:
    return f"{x:.{digits}f}"


def part_names(lang="en") -> dict:
    """The topics' names: key -> name."""
    return {k: t(lang, *v) for k, v in PARTS.items()}


# -- the impurity calculator -------------------------------------------------------

def metric_label(criterion: str, lang: str = "en") -> str:
    """The calculator's box and formula heading: "Entropy H(D)", "Gini Gini(D)"..."""
    name = criterion_name(criterion, lang, short=True)
    return f"{name[:1].upper()}{name[1:]} {_VALUE_OF[criterion]}"


def input_names(lang="en") -> dict:
    return {"counts": t(lang, "class counts", "各类样本数"),
            "p": t(lang, "probability p (two classes)", "概率 p（两类）")}


def counts_error(error, escape=str, lang="en") -> str:
    """A :class:`dtree.views.learn.CountsError` in words (the culprit, the
    user's own text, through ``escape``)."""
    return t(lang, *_COUNT_ERRORS[error.code]).format(escape(error.token))


def err_example_latex(example=ERR_EXAMPLE,
                      criteria=("misclassification", "entropy", "gini")) -> list[str]:
    """The exercise's split of the parent's class counts into two children,
    and its gain by each criterion (one line each): misclassification gains
    nothing where entropy and Gini do."""
    parent, children = example

    def counts(c):
        return "(" + ", ".join(str(int(v)) for v in c) + ")"
    split = rf"{counts(parent)} \to " + " + ".join(counts(c) for c in children)
    return [rf"{SYMBOL[crit]}:\ {split}:\quad "
            rf"\Delta = {split_gain(crit, parent, children):.3f}" for crit in criteria]


# -- the worked examples -------------------------------------------------------------

def symbol_text(symbol: str) -> str:
    """A_{1} -> A1, A_{\\mathrm{ID}} -> A_ID (for tables, which show no LaTeX)."""
    return symbol.replace(r"_{\mathrm{ID}}", "_ID").replace("_{", "").replace("}", "")


def feature_legend(example, escape=str, lang="en") -> str:
    """Which symbol is which feature (the formulas use only symbols)."""
    items = [f"${f.symbol}$ = {escape(f.feature)}" for f in example.features]
    return t(lang, "Features: ", "特征：") + " · ".join(items)


def _counts(counts, classes, escape):
    return ", ".join(f"{int(c)} {escape(k)}" for c, k in zip(counts, classes))


def branch_legend(fg, example, escape=str) -> str:
    """D_1: feature = value (its class counts) · D_2: ..."""
    return " · ".join(f"$D_{{{i}}}$: {escape(fg.feature)} = {escape(b.value)} "
                      f"({_counts(b.counts, example.classes, escape)})"
                      for i, b in enumerate(fg.branches, start=1))


def class_caption(example, escape=str, lang="en") -> str:
    return t(lang, "Classes in the formula: ", "公式中的类别：") + \
        _counts(example.counts, example.classes, escape)


def gain_table(example, lang="en") -> pd.DataFrame:
    """Every feature's conditional entropy and information gain (3 decimals)."""
    features = example.features
    return pd.DataFrame({
        t(lang, "feature", "特征"): [f.feature for f in features],
        t(lang, "symbol", "记号"): [symbol_text(f.symbol) for f in features],
        t(lang, "conditional entropy H(D|A)", "条件熵 H(D|A)"):
            [fmt(f.conditional_entropy) for f in features],
        t(lang, "information gain g(D, A)", "信息增益 g(D, A)"): [fmt(f.gain) for f in features],
    })


def gain_verdict(example, escape=str, lang="en") -> str:
    """ID3's choice at the root of the loan table, against the book's numbers."""
    best = example.feature(example.best_by_gain)
    name = escape(best.feature)
    return t(lang,
              f"ID3 splits the root on {name} (${best.symbol}$), the largest "
              f"information gain, {fmt(best.gain)}. The book prints g(D, A₁…A₄) = 0.083, "
              "0.324, 0.420, 0.363.",
              f"ID3 在根结点选择信息增益最大的 {name}（${best.symbol}$），"
              f"g = {fmt(best.gain)}。书中给出的 g(D, A₁…A₄) = 0.083, 0.324, 0.420, 0.363。")


def cat_heading(fg, left, right, escape=str, lang="en") -> str:
    """A feature of the cat example and the values on its two branches."""
    return f"**{escape(fg.feature)}** · " + t(
        lang, f"left: {escape(left)}, right: {escape(right)}",
        f"左：{escape(left)}，右：{escape(right)}")


def cat_gain_table(example, lang="en") -> pd.DataFrame:
    """Every feature's information gain (2 decimals, as the lecture)."""
    return pd.DataFrame([{t(lang, "feature", "特征"): fg.feature,
                          t(lang, "information gain", "信息增益"): fmt(fg.gain, 2)}
                         for fg in example.features])


def cats_verdict(example, escape=str, lang="en") -> str:
    computed = " / ".join(fmt(fg.gain, 2) for fg in example.features)
    best = escape(example.best_by_gain)
    return t(lang,
              f"Computed: {computed} (the lecture: 0.28 / 0.03 / 0.12). The root is split on "
              f"{best}, the largest information gain.",
              f"计算结果：{computed}（课程中为 0.28 / 0.03 / 0.12）。根结点按信息增益最大的 "
              f"{best} 分裂。")


def ratio_table(example, lang="en") -> pd.DataFrame:
    """Every feature's branches, gain, split information and gain ratio."""
    features = example.features
    return pd.DataFrame({
        t(lang, "feature", "特征"): [f.feature for f in features],
        t(lang, "branches", "分支数"): [len(f.branches) for f in features],
        t(lang, "information gain g", "信息增益 g"): [fmt(f.gain) for f in features],
        t(lang, "split information H_A(D)", "分裂信息 H_A(D)"): [fmt(f.split_info)
                                                                for f in features],
        t(lang, "gain ratio g_R", "信息增益比 g_R"): [fmt(f.gain_ratio) for f in features],
    })


def ratio_verdict(example, id_column="ID", escape=str, lang="en") -> str:
    """The identifier wins by gain but loses by gain ratio; C4.5's choice."""
    ident = example.feature(id_column)
    winner = example.feature(example.best_by_ratio)
    by_gain, name = escape(example.best_by_gain), escape(winner.feature)
    gain = fmt(example.feature(example.best_by_gain).gain)
    return t(lang,
              f"By information gain (ID3) the root would be split on {by_gain} "
              f"(g = {gain}), a useless tree that memorises the "
              f"rows. Its split information is log₂ 15 = {fmt(ident.split_info)}, so its gain "
              f"ratio is only {fmt(ident.gain_ratio)}, and C4.5 chooses {name} "
              f"(g_R = {fmt(winner.gain_ratio)}).",
              f"按信息增益（ID3），根结点会按 {by_gain} 分裂"
              f"（g = {gain}），得到一棵只会记住每一行的无用的树。"
              f"它的分裂信息是 log₂ 15 = {fmt(ident.split_info)}，信息增益比只有 "
              f"{fmt(ident.gain_ratio)}；C4.5 选择 {name}（g_R = "
              f"{fmt(winner.gain_ratio)}）。")


# -- rescaling the features ------------------------------------------------------------

def no_tree(message, lang="en") -> str:
    """``message``: why there is no tree, already escaped."""
    return t(lang, "No tree for the current data: ", "当前数据无法生成决策树：") + message


def scaling_verdict(report, lang="en") -> tuple[bool, str]:
    """(same, sentence): whether the refit on z-scores has the same
    partitions, and what is the same or which parts differ."""
    if report.identical_partitions:
        n_nodes = report.model.tree_.node_count
        return True, t(
            lang,
            f"Same tree: {n_nodes} nodes with the same features and sample counts, every "
            f"one of the {report.n_rows:,} training rows in the same leaf, the same "
            "predictions. Only the thresholds moved.",
            f"同一棵树：{n_nodes} 个结点的特征和样本数都相同，{report.n_rows:,} 个训练样本"
            "全部落在同一个叶结点，预测完全相同，只有阈值变了。")
    what = [t(lang, en, zh) for same, en, zh in (
        (report.same_structure, "the tree's structure", "树的结构"),
        (report.same_leaves, "the leaves of the training rows", "训练样本所在的叶结点"),
        (report.same_predictions, "the predictions", "预测")) if not same]
    return False, t(lang, "Differences: ", "不同之处：") + ", ".join(what) + t(
        lang,
        ". This can only happen when rounding to float32 merges two neighbouring "
        "values, or with splitter = random.",
        "。只有当舍入到 float32 使相邻两个取值重合，或 splitter = random 时才会这样。")


def thresholds_table(frame, lang="en") -> pd.DataFrame:
    """``ScalingReport.thresholds`` as the page shows it (nodes as #n)."""
    return pd.DataFrame({
        t(lang, "node", "结点"): [f"#{n}" for n in frame["node"]],
        t(lang, "feature", "特征"): frame["feature"],
        "a": frame["left_max"], "b": frame["right_min"],
        t(lang, "threshold t", "阈值 t"): frame["threshold"],
        "z_a": frame["left_max_z"], "z_b": frame["right_min_z"],
        t(lang, "threshold t_z", "阈值 t_z"): frame["threshold_z"],
        "t_z·σ + μ": frame["threshold_z_back"],
        t(lang, "same cut", "同一切分"): frame["same_cut"],
    })


def scales_table(report, lang="en") -> pd.DataFrame:
    """The standardised features' means and standard deviations."""
    return pd.DataFrame({t(lang, "feature", "特征"): report.columns, "μ": report.mean,
                         "σ": report.scale})


# -- greedy against lookahead ----------------------------------------------------------

def lookahead_sources(lang="en") -> dict:
    """The lesson's tables: key -> name."""
    return {"xor": t(lang, "XOR table", "XOR 表"), "current": t(lang, "current data", "当前数据")}


def _score_name(criterion, lang):
    if criterion == "gain_ratio":
        return t(lang, "gain ratio", "信息增益比")
    return t(lang, "gain", "增益")


def _right(correct, n, lang) -> str:
    return t(lang, f"{correct} of {n} rows right ({correct / n:.1%})",
             f"{n} 行中分对 {correct} 行（{correct / n:.1%}）")


def tree_heading(lesson, which, lang="en") -> str:
    """"Greedy CART · 56.2%" / "Lookahead · 100.0%" above each tree."""
    r = lesson.result
    if which == "greedy":
        return t(lang, "Greedy CART", "贪心 CART") + f" · {r.greedy_accuracy:.1%}"
    return t(lang, "Lookahead (best of depth 2)", "前瞻（深度 2 的最优树）") + f" · {r.accuracy:.1%}"


def lookahead_verdict(lesson, escape=str, lang="en") -> tuple[bool, str]:
    """(greedy lost, sentence): both trees' training accuracy and the size
    of the search."""
    r = lesson.result
    crit = criterion_name(lesson.criterion, lang, short=True)
    size = t(lang,
             f" The search compared {r.n_trees:,} trees of depth 2 built from "
             f"{r.n_candidates:,} candidate splits.",
             f"穷举搜索比较了由 {r.n_candidates:,} 个候选划分组成的 {r.n_trees:,} 棵深度为 2 的树。")
    if r.correct > r.greedy_correct:
        return True, t(lang,
                       f"Greedy CART ({crit}) gets {_right(r.greedy_correct, r.n_samples, lang)}; "
                       f"the best tree of the same depth gets "
                       f"{_right(r.correct, r.n_samples, lang)}.",
                       f"贪心 CART（{crit}）：{_right(r.greedy_correct, r.n_samples, lang)}；"
                       f"同样深度的最优树：{_right(r.correct, r.n_samples, lang)}。") + size
    return False, t(lang,
                    f"Here greedy CART ({crit}) already finds a best tree of depth 2: "
                    f"{_right(r.correct, r.n_samples, lang)}.",
                    f"在这份数据上，贪心 CART（{crit}）已经找到深度为 2 的最优树："
                    f"{_right(r.correct, r.n_samples, lang)}。") + size


def misled_text(lesson, escape=str, lang="en") -> str:
    """Why greedy chose its root: the gains it compared, and what the
    lookahead root gains at the root and below."""
    score = _score_name(lesson.criterion, lang)
    greedy, look = escape(lesson.greedy_root), escape(lesson.lookahead_root)
    r = lesson.result
    g_root = fmt(lesson.root_score(r.greedy))
    l_root = fmt(lesson.root_score(r.estimator))
    below = " / ".join(fmt(v) for v in lesson.child_scores()) or "–"
    if lesson.greedy_root == lesson.lookahead_root and r.correct == r.greedy_correct:
        return t(lang,
                 f"Both trees split the root on {greedy} ({score} {g_root}).",
                 f"两棵树的根结点都按 {greedy} 划分（{score} {g_root}）。")
    return t(lang,
             f"At the root greedy compares each feature's own {score} only (table below): "
             f"{greedy} wins with {g_root}. The lookahead tree starts with {look}, whose split "
             f"gains {l_root} at the root, and then its children's splits gain {below}: a "
             f"split's {score} says nothing about the splits it makes possible below it.",
             f"在根结点，贪心算法只比较每个特征自身的{score}（见下表）：{greedy} 以 {g_root} 胜出。"
             f"前瞻树从 {look} 开始，它在根结点的{score}只有 {l_root}，而它的子结点的划分"
             f"{score}为 {below}：一个划分的{score}并不反映它下面能做出的划分。")


def root_gains_table(lesson, lang="en") -> pd.DataFrame:
    """Each feature's best root split as greedy scored it, and which root
    each tree took."""
    g = lesson.gains
    mark = {True: "✓", False: ""}
    return pd.DataFrame({
        t(lang, "feature", "特征"): g["feature"],
        t(lang, "best root split", "根结点的最佳划分"): [
            str(c).split(" | ")[0].replace("<=", "≤") for c in g["children"]],
        t(lang, f"root {_score_name(lesson.criterion, 'en')}",
          f"根结点{_score_name(lesson.criterion, 'zh')}"): [fmt(v) for v in g["score"]],
        t(lang, "greedy's root", "贪心的根"): [mark[f == lesson.greedy_root] for f in g["feature"]],
        t(lang, "lookahead's root", "前瞻的根"): [mark[f == lesson.lookahead_root]
                                            for f in g["feature"]],
    })


def left_out_note(n, lang="en") -> str:
    return t(lang, f"{n} training rows with a missing value are left out: the search takes "
                   "complete rows only.",
             f"{n} 个含缺失值的训练样本未参与计算：穷举搜索只接受完整的行。")
