"""The Prune page's words and small computations, in plain Python.

What the page says (in English or Chinese, ``lang="en"`` / ``"zh"``), the
tables as it shows them, and which nodes it highlights: built here from the
pruning results, so that ``pages/prune.py`` only reads the session, calls
and draws.  Texts take no user text (table titles, criteria, stop reasons):
the page escapes those itself.
"""

from __future__ import annotations

import numpy as np

from .vocabulary import t
from .pruneview import fmt
from .viz import JUST_SPLIT, NEXT_SPLIT

VIEWS = ("ccp", "steps", "rep_pep", "ebp")
CONFIDENCES = (0.05, 0.1, 0.25, 0.4, 0.5)
FOLDS = (3, 5, 10)

_VIEW_NAMES = {"ccp": ("Cost-complexity pruning", "代价复杂度剪枝"),
               "steps": ("Weakest-link steps", "最弱环节逐步剪枝"),
               "rep_pep": ("REP and PEP", "REP 与 PEP"),
               "ebp": ("EBP (C4.5)", "EBP（C4.5）")}

#: The page's fixed texts: name -> (English, Chinese).
TEXTS = {
    "full_help": (
        "Post-pruning starts from a deep tree. Off: the tree grown with the Grow page's "
        "limits.",
        "后剪枝从一棵很深的树开始。关闭时：使用“生长”页面的限制条件生长的树。"),
    "imported": (
        "This tree was fitted in scikit-learn: it is pruned as it was fitted (the toggle "
        "above and the Grow page's parameters do not apply).",
        "这棵决策树是在 scikit-learn 中训练的：按训练时的原样剪枝（上面的开关和“生长”"
        "页面的参数对它不起作用）。"),
    "about": (
        "The other tree parameters are the Grow page's. Pruning removes branches of a grown "
        "tree (后剪枝, post-pruning): each pruned node becomes a leaf that predicts its "
        "majority class (or mean).",
        "其他参数与“生长”页面相同。后剪枝从已生长的树上剪去分支：被剪的内部结点变为"
        "叶结点，按多数表决（回归为均值）给出预测。"),
    "ccp": (
        "Each tree T pays for its leaves: C_α(T) = R(T) + α|T|, where R(T) is the "
        "weighted impurity of its leaves. Collapsing an internal node t into a leaf costs "
        "nothing once α reaches g(t); the node with the smallest g(t) — the **weakest "
        "link** — goes first. Raising α from 0 gives nested trees T₀ ⊃ T₁ ⊃ … ⊃ {root}.",
        "每棵树都要为叶结点付出代价：C_α(T) = R(T) + α|T|，其中 R(T) 为叶结点的加权不纯度之和。"
        "当 α 达到 g(t) 时，把内部结点 t 剪成叶结点不再增加代价；g(t) 最小的结点（**最弱环节**）"
        "最先被剪。α 从 0 增大，得到嵌套的子树序列 T₀ ⊃ T₁ ⊃ … ⊃ {根}。"),
    "folds_help": (
        "The training rows are shuffled (with the data page's seed) and cut into folds; "
        "each fold is predicted by trees grown and pruned on the others.",
        "训练样本按“数据”页面的随机种子打乱后分成若干折；每一折由在其余折上生长并剪枝的树来预测。"),
    "alpha_caption": (
        "Vermillion border: an internal node pruned into a leaf. Blue border: the weakest "
        "link, the next node to collapse as α grows. Grey, dashed: the branches removed. "
        "g(t) is shown for the internal nodes of the pruned tree.",
        "橙红色边框：被剪成叶结点的内部结点。蓝色边框：最弱环节，α 继续增大时下一个被剪的结点。"
        "灰色虚线：被剪掉的分支。剪枝后的树的内部结点标出了 g(t)。"),
    "pruned_nodes": (
        "**Internal nodes of the pruned tree** (◀ marks the weakest link: the smallest g(t))",
        "**剪枝后的树的内部结点**（◀ 标出最弱环节：g(t) 最小的结点）"),
    "steps": (
        "At each step the internal node with the smallest g(t) (the lowest id on a tie) "
        "becomes a leaf; then R(T_t) and |T_t| of its ancestors are updated.",
        "每一步把 g(t) 最小的内部结点（相等时取编号最小的）剪成叶结点，然后更新其"
        "祖先结点的 R(T_t) 和 |T_t|。"),
    "steps_caption": (
        "Vermillion border: the node collapsed in this step. Blue border: the next weakest "
        "link.",
        "橙红色边框：这一步剪掉的结点。蓝色边框：下一个最弱环节。"),
    "rep_needs_test": (
        "REP needs a validation set, and this page uses the test split for it: set a test "
        "fraction above 0 on the Data page.",
        "REP 需要验证集，本页使用测试集作为验证集：请在“数据”页面把测试比例设为大于 0。"),
    "pep_classification_only": (
        "PEP counts misclassified training samples (with a continuity correction of 0.5 per "
        "leaf), so it applies to classification trees only. This is a regression tree.",
        "PEP 统计训练样本的误判数（每个叶结点加 0.5 的连续性修正），因此只适用于分类树。"
        "当前是回归树。"),
    "pep": (
        "Training data only. Top-down, each leaf's errors get +0.5 (continuity correction); "
        "a node becomes a leaf when its corrected errors are below the subtree's corrected "
        "errors plus one standard error: E(t) < E(T_t) + SE(T_t).",
        "只用训练集。自上而下，每个叶结点的误判数加 0.5（连续性修正）；若结点作为叶结点的修正误判数"
        "小于子树的修正误判数加一个标准差，即 E(t) < E(T_t) + SE(T_t)，就剪掉它。"),
    "pep_caption": (
        "e = misclassified training samples. E(T_t) = the leaves' errors + 0.5 per leaf; "
        "SE = √(E(T_t)·(1 − E(T_t)/N(t))); E(t) = e(t) + 0.5, the node as a leaf.",
        "e = 训练样本的误判数。E(T_t) = 各叶结点误判数之和 + 每个叶结点 0.5；"
        "SE = √(E(T_t)·(1 − E(T_t)/N(t)))；E(t) = e(t) + 0.5，即结点作为叶结点时。"),
    "ebp_classification_only": (
        "Error-based pruning counts misclassified training rows, so it applies to "
        "classification trees only. This is a regression tree.",
        "基于错误的剪枝统计训练样本的误判数，因此只适用于分类树。当前是回归树。"),
    "ebp": (
        "Training data only. A leaf with N training rows and E errors is charged "
        "N·U_CF(E, N) errors: the upper limit of a binomial confidence interval for its "
        "error rate at confidence CF (smaller CF: more pessimistic, more pruning). Bottom-up, "
        "a node becomes a leaf when its estimate as a leaf is at most its subtree's + 0.1 and "
        "its largest branch's + 0.1; otherwise, with subtree raising, the largest branch takes "
        "its place when that branch (with all the node's training rows) is estimated at most "
        "the subtree's + 0.1.",
        "只用训练集。有 N 个训练样本、E 个误判的叶结点按 N·U_CF(E, N) 个错误计：它是错误率在置信度 CF "
        "下的二项分布置信区间上限（CF 越小越悲观，剪得越多）。自下而上，若结点作为叶结点的估计错误数不超过"
        "子树的 + 0.1，也不超过最大分支的 + 0.1，就剪成叶结点；否则（子树提升）若最大分支"
        "（送入结点的全部训练样本）的估计不超过子树的 + 0.1，就由该分支取代结点。"),
    "ebp_caption": (
        "Weka's special cases: for E < 1 the estimate starts from N(1 − CF^(1/N)) at E = 0 and "
        "is interpolated linearly up to E = 1; for E + 0.5 ≥ N, U_CF = 1. τ runs over the "
        "leaves of T_t. Rows with a missing value go down every branch with the branch's share "
        "of the weight.",
        "Weka 的特殊情形：E < 1 时，从 E = 0 处的 N(1 − CF^(1/N)) 出发，线性插值到 E = 1；"
        "E + 0.5 ≥ N 时 U_CF = 1。τ 取遍 T_t 的叶结点。缺失值样本按各分支的权重比例进入每个分支。"),
    "ebp_marks": (
        "Vermillion border: a node pruned into a leaf. Blue border: a branch raised into its "
        "parent's place.",
        "橙红色边框：被剪成叶结点的结点。蓝色边框：被提升到父结点位置的分支。"),
}

#: The labels of the stepping bars' buttons (first, previous, next, last)
#: where they name what a step is: α and EBP's decisions (the weakest-link
#: steps' bar has the shared names, dtree.views.vocabulary.STEP_CONTROLS).
STEP_BUTTONS = {
    "alpha": (("No pruning (α = 0)", "不剪枝（α = 0）"),
              ("Smaller α: one subtree less pruned", "更小的 α：少剪一棵子树"),
              ("Larger α: one subtree more pruned", "更大的 α：多剪一棵子树"),
              ("Largest α: the root alone", "最大的 α：只剩根结点")),
    "ebp": (("First decision", "第一个决定"), ("Previous", "上一个"), ("Next", "下一个"),
            ("Last decision (the root)", "最后一个决定（根结点）")),
}

#: The cost-complexity measure, a node's cost and its weakest-link value g(t).
CCP_FORMULAS = (r"C_\alpha(T) = R(T) + \alpha|T|", r"R(t) = \frac{N_t}{N}\,I(t)",
                r"g(t) = \frac{R(t) - R(T_t)}{|T_t| - 1}")


def ccp_latex(narrow: bool = False) -> str:
    """:data:`CCP_FORMULAS` in one row, or one below the other for a narrow
    place such as the presenter's Charts popover, where one row is wider
    than the box at the projector's type size."""
    if narrow:
        return r"\begin{gathered}" + r"\\[0.3em]".join(CCP_FORMULAS) + r"\end{gathered}"
    return r",\qquad ".join(CCP_FORMULAS)


def view_name(view: str, lang: str = "en") -> str:
    return t(lang, *_VIEW_NAMES[view])


def step_labels(bar: str, lang: str = "en") -> list:
    """The four button labels of a stepping bar of :data:`STEP_BUTTONS`."""
    return [t(lang, *pair) for pair in STEP_BUTTONS[bar]]


# -- tables and marks ----------------------------------------------------------------

def shown_frame(frame):
    """``frame`` as the page shows it: numbers to 4 significant digits, True
    flags as a mark (◀)."""
    shown = frame.copy()
    for column in frame.columns:
        if frame[column].dtype == bool:
            shown[column] = np.where(frame[column], "◀", "")
        elif frame[column].dtype.kind == "f":
            shown[column] = [fmt(v) for v in frame[column]]
    return shown


def g_of(table) -> dict:
    """{node id: g(t)} of a cost_complexity_table."""
    return dict(zip(table["node_id"].astype(int), table["g"]))


def collapsed_at(seq, k) -> list:
    """The ids of the nodes collapsed into leaves in the first ``k`` steps
    (and not removed under a later collapse)."""
    keep = seq.keep_mask(k)
    return [int(s.node_id) for s in seq.steps[:k] if keep[s.node]]


def alpha_marks(collapsed, table) -> tuple[dict, object]:
    """(highlight, weakest): the collapsed nodes marked as just cut, the
    weakest link of ``table`` (its rows, maybe none) as the next."""
    weakest = table.loc[table["weakest_link"]]
    highlight = {nid: JUST_SPLIT for nid in collapsed}
    if len(weakest):
        highlight[int(weakest["node_id"].iloc[0])] = NEXT_SPLIT
    return highlight, weakest


def step_marks(steps, k, n) -> dict:
    """Step ``k`` of ``n``: the node just collapsed and the next weakest link."""
    highlight = {}
    if k > 0:
        highlight[steps[k - 1].node_id] = JUST_SPLIT
    if k < n:
        highlight[steps[k].node_id] = NEXT_SPLIT
    return highlight


def pruned_ids(record) -> list:
    """The ids of the nodes a REP or PEP record pruned."""
    return [int(v) for v in record.loc[record["pruned"], "node_id"]]


def ebp_marks(tree, decisions) -> dict:
    """The nodes EBP pruned into leaves (just cut) and the branches it raised
    (next split colour), in the pruned ``tree``."""
    pruned_leaves = tree.node_ids[tree.stop_reason == "pruned"]
    raised = set(int(v) for v in decisions.loc[decisions["decision"] == "raise", "branch_id"])
    ids = set(int(v) for v in tree.node_ids)
    highlight = {int(v): JUST_SPLIT for v in pruned_leaves}
    highlight.update({v: NEXT_SPLIT for v in raised & ids if v not in highlight})
    return highlight


def rep_marks(result) -> dict:
    """The nodes REP pruned into leaves (those still in its pruned tree)."""
    kept = set(int(v) for v in result.tree.node_ids)
    return {n: JUST_SPLIT for n in pruned_ids(result.record) if n in kept}


def pep_marks(result) -> dict:
    """The nodes PEP pruned into leaves (it looks at none below them)."""
    return {n: JUST_SPLIT for n in pruned_ids(result.record)}


def record_row(record, node_id):
    """The row of a REP or PEP record for ``node_id``."""
    return record.loc[record["node_id"] == node_id].iloc[0]


def fold_options(n_train) -> tuple[list, int]:
    """(options, default) of the cross-validation folds: those of
    :data:`FOLDS` no larger than the training rows (else as many folds as
    rows), 5 when possible."""
    options = [f for f in FOLDS if f <= n_train] or [n_train]
    return options, 5 if 5 in options else options[-1]


# -- sentences ----------------------------------------------------------------------

def one_se_sentence(cv, lang="en") -> str:
    """The 1-SE rule on a cross-validation table, in words."""
    from .pruneview import one_se_rule
    best, limit, chosen = one_se_rule(cv)
    row, pick = cv.iloc[best], cv.iloc[chosen]
    a_min, a_1se = fmt(row.alpha), fmt(pick.alpha)
    return t(
        lang,
        f"**1-SE rule** (as rpart's plotcp): the smallest CV error is "
        f"{fmt(row.cv_error)} ± {fmt(row.cv_se)} (SE) at α = {a_min} "
        f"({int(row.n_leaves)} leaves); the simplest tree with CV error ≤ "
        f"{fmt(row.cv_error)} + {fmt(row.cv_se)} = {fmt(limit)} has "
        f"{int(pick.n_leaves)} leaves, α = {a_1se}.",
        f"**1-SE 规则**（同 rpart 的 plotcp）：最小 CV 误差为 {fmt(row.cv_error)} ± "
        f"{fmt(row.cv_se)}（标准误），在 α = {a_min}（{int(row.n_leaves)} 个叶结点）；"
        f"CV 误差 ≤ {fmt(row.cv_error)} + {fmt(row.cv_se)} = {fmt(limit)} 的最简单"
        f"子树有 {int(pick.n_leaves)} 个叶结点，α = {a_1se}。")


def cv_caption(folds, n_train, has_test, lang="en") -> str:
    """How the cross-validation and the test errors were measured."""
    return t(
        lang,
        f"{folds}-fold cross-validation on the {n_train:,} training rows "
        "(each fold's tree is pruned at the geometric middle of T_k's α interval); "
        "SE = standard deviation of the per-row losses / √n."
        + (" Test: the held-out test rows." if has_test else
           " No test split (the data page's test fraction is 0)."),
        f"在 {n_train:,} 个训练样本上做 {folds} 折交叉验证（每折的树在 T_k 的 α 区间的"
        "几何中点处剪枝）；SE = 逐样本损失的标准差 / √n。"
        + ("测试集：留出的测试样本。" if has_test else
           "没有测试集（“数据”页面的测试比例为 0）。"))


def at_alpha_sentence(label, k, pruned, full, lang="en") -> str:
    """What pruning at α (shown as ``label``) did: ``k`` collapses."""
    return t(
        lang,
        f"**At α = {label}:** {k} weakest-link collapse(s) (every g(t) ≤ α); the "
        f"pruned tree has {pruned.n_leaves} leaves and {pruned.node_count} nodes "
        f"(the full tree: {full.n_leaves} and {full.node_count}).",
        f"**α = {label} 时：** 做了 {k} 次最弱环节剪枝（所有 g(t) ≤ α）；剪枝后的树有 "
        f"{pruned.n_leaves} 个叶结点、{pruned.node_count} 个结点（完整的树：{full.n_leaves} 和 "
        f"{full.node_count}）。")


def weakest_sentence(node_id, lang="en") -> str:
    return t(lang,
              f"Weakest link: node #{node_id}. At this α collapsing it still costs more than "
              "keeping it; the two costs meet at α = g(t):",
              f"最弱环节：结点 #{node_id}。在当前 α 下剪掉它的代价仍高于保留它；"
              "两者在 α = g(t) 时相等：")


def step_sentence(seq, k, lang="en") -> str:
    """What step ``k`` of the weakest-link sequence did, in Markdown."""
    n = len(seq)
    if k == 0:
        leaves = seq.tree_at(0).n_leaves
        return t(lang,
                  f"**Step 0 of {n}:** the full tree T₀, {leaves} leaves, "
                  f"R(T) = {fmt(seq.impurities[0])}.",
                  f"**第 0 步（共 {n} 步）：** 完整的树 T₀，{leaves} 个叶结点，"
                  f"R(T) = {fmt(seq.impurities[0])}。")
    s = seq.steps[k - 1]
    return t(lang,
              f"**Step {k} of {n}:** node #{s.node_id} was the weakest link and became a "
              f"leaf, removing {s.n_removed} node(s); the tree now has {s.total_leaves} "
              f"leaves and R(T) = {fmt(s.total_cost)}.",
              f"**第 {k} 步（共 {n} 步）：** 结点 #{s.node_id} 是最弱环节，被剪成叶结点，"
              f"去掉了 {s.n_removed} 个结点；现在树有 {s.total_leaves} 个叶结点，"
              f"R(T) = {fmt(s.total_cost)}。")


def effective_alpha_caption(step, lang="en") -> str:
    return t(lang,
              f"So for every α ≥ {fmt(step.alpha)} the subtree below node #{step.node_id} is "
              "pruned (its effective α).",
              f"因此当 α ≥ {fmt(step.alpha)} 时，结点 #{step.node_id} 下的子树被剪掉"
              "（它的有效 α）。")


def next_step_sentence(seq, k, lang="en") -> str:
    if k < len(seq):
        nxt = seq.steps[k]
        return t(lang, f"Next: node #{nxt.node_id}, g(t) = {fmt(nxt.alpha)}.",
                 f"下一步：结点 #{nxt.node_id}，g(t) = {fmt(nxt.alpha)}。")
    return t(lang, "The root is a leaf: the sequence is complete.",
             "根结点已成为叶结点：剪枝序列结束。")


def rep_intro(n_test, classifier, lang="en") -> str:
    return t(
        lang,
        f"Validation set: **the test split** ({n_test:,} rows) — so after REP the "
        "test error is no longer an independent estimate. Bottom-up, a node becomes a leaf "
        "when that does not increase the validation "
        + ("squared error." if not classifier else "errors."),
        f"验证集：**测试集**（{n_test:,} 个样本），因此 REP 之后测试误差不再是独立的估计。"
        "自下而上，若把结点剪成叶结点不会增加验证集上的"
        + ("平方误差" if not classifier else "误判数") + "，就剪掉它。")


def rep_summary(result, full, classifier, lang="en") -> str:
    record = result.record
    n_cut = len(pruned_ids(record))
    return t(lang,
              f"{n_cut} node(s) pruned: {full.n_leaves} → {result.tree.n_leaves} "
              f"leaves; validation {'errors' if classifier else 'squared error'} "
              f"{fmt(record.attrs['errors_start'])} → "
              f"{fmt(record['tree_errors'].iloc[-1])}.",
              f"剪掉 {n_cut} 个结点：叶结点 {full.n_leaves} → {result.tree.n_leaves}；"
              f"验证集{'误判数' if classifier else '平方误差'} "
              f"{fmt(record.attrs['errors_start'])} → "
              f"{fmt(record['tree_errors'].iloc[-1])}。")


def rep_verdict(pruned, lang="en") -> str:
    return t(lang,
              "→ prune (as a leaf it does no worse)" if pruned else
              "→ keep (the subtree does better)",
              "→ 剪枝（作为叶结点不比子树差）" if pruned else "→ 保留（子树更好）")


def pep_summary(result, full, lang="en") -> str:
    n_cut = len(pruned_ids(result.record))
    return t(lang,
              f"{n_cut} node(s) pruned: {full.n_leaves} → {result.tree.n_leaves} "
              "leaves. Nodes below a pruned node are not looked at.",
              f"剪掉 {n_cut} 个结点：叶结点 {full.n_leaves} → {result.tree.n_leaves}。"
              "被剪结点以下的结点不再考察。")


def pep_verdict(pruned, lang="en") -> str:
    return t(lang, "→ prune" if pruned else "→ keep", "→ 剪枝" if pruned else "→ 保留")


def ebp_summary(cf, decisions, full, pruned, lang="en") -> str:
    """How many nodes EBP at confidence ``cf`` pruned and raised."""
    n_pruned = int((decisions["decision"] == "prune").sum())
    n_raised = int((decisions["decision"] == "raise").sum())
    return t(lang,
              f"CF = {fmt(cf)}: {n_pruned} node(s) pruned, {n_raised} branch(es) "
              f"raised: {full.n_leaves} → {pruned.n_leaves} leaves.",
              f"CF = {fmt(cf)}：剪掉 {n_pruned} 个结点，提升 {n_raised} 个分支："
              f"叶结点 {full.n_leaves} → {pruned.n_leaves}。")


def ebp_sentence(row, k, n, lang="en") -> str:
    """EBP's decision ``k`` of ``n`` (a row of ``ebp_decisions``), in Markdown."""
    nid, b = int(row["node_id"]), int(row["branch_id"])
    moved = "" if row["split_of_id"] == row["node_id"] else t(
        lang,
        f" (now holding the split of node #{int(row['split_of_id'])}, raised into it)",
        f"（现在是提升上来的结点 #{int(row['split_of_id'])} 的划分）")
    what = {
        "prune": ("becomes a leaf: as a leaf its estimated errors are no more than its "
                  "subtree's + 0.1 and its largest branch's + 0.1.",
                  "被剪成叶结点：作为叶结点的估计错误数不超过子树的 + 0.1，也不超过最大分支的 + 0.1。"),
        "raise": (f"is replaced by its largest branch #{b} (subtree raising): the branch, "
                  "with all of the node's training rows sent through it, is estimated no "
                  "worse than the subtree + 0.1. Its rows are sent down again and the "
                  "raised node is decided again.",
                  f"被它的最大分支 #{b} 取代（子树提升）：把结点的全部训练样本送入该分支，"
                  "其估计错误数不超过子树的 + 0.1。样本重新向下分配，提升上来的结点再判断一次。"),
        "keep": ("is kept: its subtree is estimated better than the node as a leaf and than "
                 "its largest branch.",
                 "被保留：子树的估计错误数比作为叶结点时、也比最大分支都少。"),
    }[row["decision"]]
    return t(lang, f"**Decision {k} of {n}:** node #{nid}{moved} {what[0]}",
             f"**第 {k} 个决定（共 {n} 个）：** 结点 #{nid}{moved}{what[1]}")


# -- the page's other sentences and labels --------------------------------------------

def about_tree(title, criterion, tree, n_train, escape=str, lang="en") -> str:
    """The dataset, the criterion and the size of the tree to prune (the
    title and the criterion go through ``escape``)."""
    title, criterion = escape(title), escape(criterion)
    return t(lang,
              f"**{title}** · criterion {criterion} · "
              f"{tree.n_leaves} leaves, {tree.node_count} nodes, depth {tree.max_depth} · "
              f"{n_train:,} training rows",
              f"**{title}** · 划分准则 {criterion} · "
              f"{tree.n_leaves} 个叶结点，{tree.node_count} 个结点，深度 {tree.max_depth} · "
              f"{n_train:,} 个训练样本")


def single_leaf(reason, lang="en") -> str:
    """The tree is one leaf; ``reason``: why it stopped, translated and escaped."""
    return t(lang,
              f"The tree is a single leaf ({reason}): there is nothing to prune. "
              "Turn on “Grow the full tree first” or relax the Grow page's limits.",
              f"这棵树只有一个叶结点（{reason}）：没有可剪的分支。"
              "请打开“先让树完全生长”，"
              "或放宽“生长”页面的限制。")


def depth_cut(levels, lang="en") -> str:
    """Under a tree drawn only to ``levels`` levels."""
    return t(lang, f"Large tree: only the first {levels} levels are drawn "
                    "(deeper nodes are grey “(...)” boxes).",
              f"树很大：只画出前 {levels} 层（更深的结点画成灰色“(...)”框）。")


def full_tree_toggle(nodes, lang="en", short=False) -> str:
    """The switch that draws a full tree too large to draw whole (``short``:
    presenter mode's narrow column)."""
    if short:
        return t(lang, f"Draw it ({nodes:,} nodes)", f"画出（{nodes:,} 个结点）")
    return t(lang, f"Draw the full tree too ({nodes:,} nodes), pruned branches greyed",
             f"同时画出完整的树（{nodes:,} 个结点），被剪掉的分支为灰色")


def full_tree_help(nodes, most, lang="en") -> str:
    """Why the full tree waits for the switch."""
    return t(lang, f"A tree of more than {most} nodes is drawn only to the depth where "
                    f"{most} nodes fit, and laying it out takes the browser a while, so "
                    f"the full tree ({nodes:,} nodes) is drawn when you ask.",
              f"超过 {most} 个结点的树只画到能容纳 {most} 个结点的深度，"
              f"浏览器排版也要一些时间，所以完整的树（{nodes:,} 个结点）在你打开开关时才画。")


def cv_spinner(folds, lang="en") -> str:
    return t(lang, f"Cross-validating: growing and pruning {folds} trees…",
             f"交叉验证中：生长并剪枝 {folds} 棵树…")


def choice_labels(label_1se, label_min, lang="en") -> tuple[str, str]:
    """The buttons that use the 1-SE rule's α and the minimum CV error's
    (their α shown as the slider's labels)."""
    return (t(lang, f"Use the 1-SE choice (α = {label_1se})",
              f"采用 1-SE 规则（α = {label_1se}）"),
            t(lang, f"Use the minimum CV error (α = {label_min})",
              f"采用最小 CV 误差（α = {label_min}）"))


def counter(k, n, what="step", lang="en") -> str:
    """Presenter mode's "**step k / n**" ("decision" for EBP's)."""
    if what == "decision":
        return t(lang, f"**decision {k} / {n}**", f"**第 {k} / {n} 个决定**")
    return t(lang, f"**step {k} / {n}**", f"**第 {k} / {n} 步**")
