"""The Grow page's words, in plain Python: what each step did, why a leaf
stops, and the captions around the tree, the regions and the scores.

Every function takes ``lang="en"`` or ``"zh"``.  Sentences are Markdown for
``st.markdown``: user text in them (feature names, categories) is escaped
here with :func:`dtree.views.links.md` and shortened with
:func:`dtree.views.viz.short`.
"""

from __future__ import annotations

from ..tables.dataset import table_title
from .vocabulary import criterion_name, missing_split, t
from .links import md
from .viz import criterion_of, short

#: Why a leaf is a leaf (the engine's ``tree_.stop_reason``), in Chinese; the
#: pages look them up through :func:`stop_reason` (``pages.terms`` re-exports
#: the table).
STOP_REASONS_ZH = {
    "max_depth": "达到 max_depth（最大深度）",
    "min_samples_split": "样本数少于 min_samples_split",
    "min_samples_leaf": "样本数少于 2 × min_samples_leaf",
    "min_weight_fraction_leaf": "权重不足以分出两个满足 min_weight_fraction_leaf 的叶结点",
    "pure": "纯结点（不纯度为 0）",
    "no valid split": "没有可行的划分",
    "min_impurity_decrease": "不纯度减少量低于 min_impurity_decrease",
    "leaf budget": "叶结点数已达 max_leaf_nodes 上限",
    "no split": "没有划分",
    "leaf": "叶结点",
    # J48 (Weka's C4.5)
    "fewer than 2 branches with >= min_objects rows":
        "少于 2 个分支的样本数不小于 min_objects",
    "collapsed: the subtree made as many training errors":
        "已合并：子树的训练误差不少于该结点作为叶结点时的误差",
    "empty branch": "空分支",
    # why a J48 feature cannot split a node (a candidate table's "rejected")
    "no cut point": "没有可用的切分点（取值都相同）",
    "MDL penalty >= gain": "MDL 惩罚不小于信息增益",
    "gain ratio 0": "信息增益比为 0",
    # a tree opened from scikit-learn (dtree._sklearn)
    "pruned (ccp_alpha)": "已剪枝（ccp_alpha）",
}

#: The criteria whose gain is the information gain (信息增益).
ENTROPIES = ("entropy", "log_loss")

#: The Grow page's fixed texts: name -> (English, Chinese).
TEXTS = {
    "imported": (
        "This tree was fitted in scikit-learn: the sidebar's tree parameters do not apply to "
        "it (it is shown as it was fitted, not refitted).",
        "这棵决策树是在 scikit-learn 中训练的：侧边栏的决策树参数对它不起作用"
        "（按原样显示，不会重新训练）。"),
    "path": (
        "Reddish-purple double outline and thick edges: the path of the sample chosen in the "
        "Prediction tab (w = the share of it that takes a branch under C4.5's rule for "
        "missing values).",
        "紫红色双边框和粗边：在“预测”标签页中选定的样本经过的路径（w：在 C4.5 "
        "的缺失值规则下，样本进入该分支的权重）。"),
    "orders_imported": (
        "Growth orders regrow the tree with dtree in each order; a tree opened from "
        "scikit-learn is shown as it was fitted.",
        "“生长顺序”会用 dtree 按每种顺序重新生长决策树；从 scikit-learn "
        "打开的决策树按训练时的原样显示。"),
    "regions_two_numeric": (
        "Decision regions need two numeric features.", "画决策区域需要至少两个数值特征。"),
}


def stop_reason(reason: str, lang: str = "en") -> str:
    """Why a leaf stops (the engine's stop reason, plain text), in ``lang``
    (a reason the table does not know stays in English)."""
    return STOP_REASONS_ZH.get(reason, reason) if lang == "zh" else reason


def gain_word(criterion: str, lang: str = "en") -> str:
    """What a step's gain is called: gain ratio, or (information) gain."""
    if criterion == "gain_ratio":
        return t(lang, "gain ratio", "信息增益比")
    if criterion in ENTROPIES:
        return t(lang, "gain", "信息增益")
    return t(lang, "gain", "增益")


def split_phrase(s, lang: str = "en") -> str:
    """How a step ``s`` (one of ``model.steps_``) splits, in Markdown."""
    name = f"**{md(short(s.feature_name, 60))}**"
    if s.kind == "numeric":
        if s.threshold == float("inf"):  # known against missing
            return missing_split(name, lang)
        return f"{name} ≤ {s.threshold:.4g}"
    if s.kind == "subset":
        group = md(short(s.branches[0], 60))
        return t(lang, f"{name} ∈ {group} or not", f"{name} 是否 ∈ {group}")
    values = md(short(', '.join(s.branches), 80))
    return t(lang, f"{name}, one branch per value ({values})",
             f"{name}，每个取值一个分支（{values}）")


def branch_sizes(s, lang: str = "en") -> str:
    """The rows each branch of step ``s`` receives."""
    if len(s.children) == 2 and s.kind == "numeric":
        return t(lang, f"{s.n_left:,} rows left, {s.n_right:,} right",
                 f"左侧 {s.n_left:,} 个样本，右侧 {s.n_right:,} 个")
    sizes = ", ".join(f"{n:,}" for n in s.n_children_samples)
    return t(lang, f"rows per branch: {sizes}", f"各分支样本数：{sizes}")


def short_title(table, preset: str, criterion: str, lang: str = "en") -> str:
    """The data, the algorithm and the criterion in one line, in Markdown
    (presenter mode's title over the step's sentence)."""
    return f"{md(table_title(table, lang))} · {preset} · {criterion_name(criterion, lang)}"


def step_sentence(model, step: int, lang: str = "en") -> str:
    """What step ``step`` of ``model``'s growth did (step 0: the root and the
    split to come), in Markdown."""
    n_steps = len(model.steps_)
    if n_steps == 0:
        reason = md(stop_reason(model.tree_.stop_reason[0] or "no split", lang))
        return t(lang, f"The root cannot be split ({reason}): the tree is a single leaf.",
                 f"根结点无法划分（{reason}）：决策树只有一个叶结点。")
    if step == 0:
        s = model.steps_[0]
        phrase = split_phrase(s, lang)
        return t(lang, f"**Step 0 of {n_steps}:** the root holds all {s.n_node_samples:,} "
                        f"training rows. Next, node #{s.node} is split on {phrase}.",
                  f"**第 0 步（共 {n_steps} 步）：** 根结点包含全部 {s.n_node_samples:,} "
                  f"个训练样本。下一步，结点 #{s.node} 将按 {phrase} 划分。")
    s = model.steps_[step - 1]
    criterion = criterion_of(model)
    number = s.gain_ratio if criterion == "gain_ratio" else s.gain
    value = f"{gain_word(criterion, lang)} {number:.3f}"
    phrase, sizes = split_phrase(s, lang), branch_sizes(s, lang)
    return t(lang, f"**Step {step} of {n_steps}:** node #{s.node} was split on "
                    f"{phrase} ({sizes}; {value}).",
              f"**第 {step} 步（共 {n_steps} 步）：** 结点 #{s.node} 按 "
              f"{phrase} 划分（{sizes}；{value}）。") + forced_clause(s, lang)


def forced_clause(s, lang: str = "en") -> str:
    """For a split fixed by hand (``forced_splits``): its gain against the
    gain of the algorithm's own choice at that node ("" for other steps)."""
    if not getattr(s, "forced", False):
        return ""
    best = s.best_gain
    if best != best:  # NaN: the algorithm had no split there
        return t(lang, " **Fixed by hand**; the algorithm would not split this node.",
                 " **手动固定**；算法不会划分这个结点。")
    if s.gain >= best - 1e-12:
        return t(lang, f" **Fixed by hand**, as good as the algorithm's choice (gain {best:.3f}).",
                 f" **手动固定**，与算法的选择一样好（增益 {best:.3f}）。")
    return t(lang, f" **Chosen by hand:** gain {s.gain:.3f}; the algorithm's choice here "
                   f"had gain {best:.3f}.",
             f" **手动选择：** 增益 {s.gain:.3f}；算法在此结点的选择增益为 {best:.3f}。")


def colour_legend(best_first: bool, lang: str = "en") -> str:
    """What the tree's colours and extra lines mean (with the priority line
    of best-first growth)."""
    return t(lang,
              "Vermillion border: the node split in this step. Blue border: the next node to "
              "split. gain: the split's impurity decrease; g(t): its cost-complexity "
              "(R(t) − R(T_t)) / (|T_t| − 1)"
              + ("; priority: the improvement a waiting leaf would bring (best-first splits "
                 "the largest next)." if best_first else "."),
              "朱红色边框：本步划分的结点。蓝色边框：下一个要划分的结点。"
              "类别分布：各类别的样本数（回归树为均值）；类别：预测的类别；"
              "是/否：满足/不满足划分条件的分支。"
              "增益：该划分使不纯度减少的量（信息熵准则下即信息增益 g(D,A)）；"
              "g(t)：代价复杂度剪枝中该结点的 (R(t) − R(T_t)) / (|T_t| − 1)"
              + ("；优先级：等待划分的叶结点被划分后能带来的改进量（最优优先生长"
                 "先划分最大的）。" if best_first else "。"))


def folded_caption(n_folded: int, auto: bool, lang: str = "en") -> str:
    """The line under a tree with ``n_folded`` subtrees folded into dashed
    stubs (``auto``: some were folded to fit the window)."""
    return t(lang,
              f"{n_folded} subtree{'s' if n_folded != 1 else ''} folded into dashed boxes"
              + (" to keep the text readable" if auto else "")
              + ". Click a dashed box to open it, any other split to fold it; "
              "W shows the whole tree.",
              f"{n_folded} 棵子树已折叠为虚线框" + ("，以保持文字清晰可读" if auto else "")
              + "。单击虚线框可展开，单击其他划分结点可折叠；按 W 显示整棵树。")


def depth_cut_warning(node_count: int, depth_cut: int, lang: str = "en") -> str:
    """Why a large tree is drawn only to a depth."""
    return t(lang,
              f"This tree has {node_count:,} nodes; only the first {depth_cut} levels are "
              "drawn (deeper nodes are grey “(...)” boxes). Limit max_depth or max_leaf_nodes "
              "to see all of it.",
              f"这棵树有 {node_count:,} 个结点，只画出了前 {depth_cut} "
              "层（更深的结点显示为灰色的“(...)”方框）。限制 max_depth 或 "
              "max_leaf_nodes 可以看到整棵树。")


def regions_caption(model, tree, fx: int, fy: int, lang: str = "en") -> str:
    """What the decision regions of ``tree`` on features ``fx``, ``fy`` show:
    its leaves, or (when it splits on other features too) the slice through
    the typical row."""
    used = {int(f) for f in tree.feature[~tree.is_leaf()]} - {fx, fy}
    if not used:
        return t(lang, "At this step the tree splits only on these two features: the "
                        "rectangles are its leaves.",
                  "这一步的决策树只在这两个特征上划分：每个矩形就是一个叶结点。")
    names = model.feature_names_in_
    others = md(", ".join(short(names[f], 30) for f in sorted(used)))
    return t(lang,
              f"The tree also splits on {others}: the plane shown is the slice where every "
              "other feature is at its training median (numeric) or its most common value "
              "(categorical), so the rectangles are exactly the leaves met there. Points are "
              "the training rows.",
              f"决策树还在 {others} 上划分：图中的平面是其他特征都取训练集中位数"
              "（数值特征）或最常见取值（类别特征）时的截面，所以每个矩形正好是在该"
              "截面上到达的一个叶结点。点是训练样本。")


def score_metric(model, lang: str = "en") -> str:
    """The score the Accuracy (or R²) tab plots: accuracy for a classifier."""
    return t(lang, "accuracy", "准确率") if hasattr(model, "classes_") else "R²"


def score_sentence(train, test, step: int, metric: str, has_test: bool,
                   lang: str = "en") -> str:
    """The scores at ``step`` (``train``, ``test``: one score per step)."""
    words = t(lang, f"At step {step}: train {metric} {train[step]:.3f}",
              f"第 {step} 步：训练集{metric} {train[step]:.3f}")
    if has_test:
        words += t(lang, f", test {metric} {test[step]:.3f}", f"，测试集{metric} {test[step]:.3f}")
    return words + t(lang, ".", "。")
