"""The Compare page's words, in plain Python.

What the page says about the trees it compares, in English or Chinese
(``lang="en"`` / ``"zh"``): the names of criteria and growth orders, each
column's label and caption, the sentence on where the trees part, the
offers of trees that part, the captions under the trees and the charts.
User text (table titles, feature and class names) goes through ``escape``
(the page passes its Markdown escaping); the other texts hold none.
"""

from __future__ import annotations

import numpy as np

from .vocabulary import criterion_name, growth_name, t, text
from . import explain
from .compare import divergence_step, divergence_text, node_share, step_node

#: The page's fixed texts: name -> (English, Chinese).
TEXTS = {
    "colours": (
        "Thick reddish-purple border: the node where the trees first part. "
        "Vermillion: the node split in this step; blue: the next node to split. "
        "A tree with fewer steps stays fully grown once the step passes its last.",
        "粗的紫红色边框：各树第一次出现分歧的结点。朱红色：这一步划分的结点；"
        "蓝色：下一个要划分的结点。步数较少的树在超过其最后一步后保持完全生长的状态。"),
    "scores": (
        "Solid: training set; dashed: test set. Left: the grown tree cut at each "
        "depth (for depth-first growth this is the tree refit with that max_depth). "
        "Right: the tree after each step, against its number of leaves; circles "
        "mark where each tree is at the current step.",
        "实线：训练集；虚线：测试集。左：把生成的树截断到各个深度（深度优先生长时，"
        "它等于以该 max_depth 重新训练的树）。右：每一步之后的树，横轴为叶结点数；"
        "圆圈标出每棵树在当前步的位置。"),
    "no_test": (
        "There is no test set (the test fraction is 0 on the Data page).",
        "没有测试集（“数据”页上的测试集比例为 0）。"),
    "impurity_regression": (
        "The impurity functions of this chart are those of classification trees; "
        "this target is numeric (a regression tree).",
        "此图中的不纯度函数用于分类树；当前目标是数值（回归树）。"),
    "taylor": (
        "Gini is the first-order Taylor expansion of the entropy in nats "
        "(−ln p around p = 1) and stays close to half the entropy in bits; the "
        "second-order expansion Σ pₖ[(1−pₖ) + (1−pₖ)²/2] approximates the "
        "entropy in nats more closely (at p = 0.5: 0.625 against ln 2 ≈ 0.693, "
        "Gini 0.5).",
        "基尼系数是以 e 为底的信息熵（−ln p 在 p = 1 处）的一阶泰勒展开，"
        "与以比特为单位的信息熵的一半很接近；二阶展开 Σ pₖ[(1−pₖ) + (1−pₖ)²/2] "
        "更接近以 e 为底的信息熵（p = 0.5 时为 0.625，而 ln 2 ≈ 0.693，"
        "基尼系数为 0.5）。"),
    "per_row_help": (
        "Fewer trees per row draws each one larger (a wide tree is scaled down to "
        "fit its column). Each tree also has a full-screen button.",
        "每行的树越少，每棵树画得越大（较宽的树会缩小以适应所在的列）。"
        "每棵树也有全屏按钮。"),
}

def metric_name(classification: bool, lang: str = "en") -> str:
    return t(lang, "accuracy", "准确率") if classification else "R²"


def chart_names(classification: bool, lang: str = "en") -> dict:
    """The charts the page offers: key -> name."""
    return {"scores": t(lang, "Accuracy", "准确率") if classification else "R²",
            "agreement": t(lang, "Agreement", "预测一致性"),
            "impurity": t(lang, "Impurity functions", "不纯度函数")}


def intro(title, n_train, n_test, escape=str, lang="en") -> str:
    """The dataset, its rows, and that every tree uses the same split."""
    title = escape(title)
    return t(lang, f"**{title}** · {n_train:,} training rows, "
                    f"{n_test:,} test rows: the same data and the same split for every "
                    "tree. Each column starts from the Grow page's parameters.",
              f"**{title}** · 训练集 {n_train:,} 行，测试集 "
              f"{n_test:,} 行：所有树使用相同的数据和相同的划分。"
              "每一列的初始参数取自“生长”页。")


def config_label(i, algorithm, criterion, lang="en") -> str:
    """Column ``i``'s name: "1 · Gini", "2 · gain ratio (C4.5)"."""
    label = f"{i + 1} · {criterion_name(criterion, lang, short=True)}"
    return label + f" ({algorithm})" if algorithm != "CART" else label


def params_caption(params, lang="en") -> str:
    """"depth-first · max_depth 5 · min_samples_leaf 1 · max_leaf_nodes ∞"."""
    return (f"{growth_name(params['growth'], lang)} · max_depth "
            f"{params['max_depth'] or '∞'} · min_samples_leaf "
            f"{params['min_samples_leaf']} · max_leaf_nodes "
            f"{params['max_leaf_nodes'] or '∞'}")


def cannot_grow(message, lang="en") -> str:
    """``message``: the engine's, already translated and escaped."""
    return t(lang, f"This tree could not be grown: {message}", f"无法生成这棵树：{message}")


def id3_rows(n_rows, n_test, lang="en") -> str:
    """ID3 trained without the rows with a missing value."""
    return t(lang, f"Trained on the {n_rows:,} training rows without "
                    "a missing value (ID3 has no rule for them); tested on all "
                    f"{n_test:,} test rows, like the other trees.",
              f"只用没有缺失值的 {n_rows:,} 个训练样本训练"
              f"（ID3 没有处理缺失值的规则）；与其他树一样在全部 "
              f"{n_test:,} 个测试样本上测试。")


def pair_name(configs, changes, lang="en") -> str:
    """"Gini (CART) and gain ratio (C4.5), no depth limit"."""
    names = [f"{criterion_name(c, lang, short=True)} ({p})" for p, c in configs]
    out = t(lang, " and ", " 与 ").join(names)
    if "max_depth" in changes:
        out += t(lang, ", no depth limit", "，不限深度")
    if "min_samples_leaf" in changes:
        out += t(lang, f", min_samples_leaf {changes['min_samples_leaf']}",
                 f"，min_samples_leaf {changes['min_samples_leaf']}")
    return out


def pair_offer(parting, lang="en") -> str:
    """The button that shows another pair that parts on this data."""
    name = pair_name(parting.configs, parting.changes, lang)
    return t(lang, f"Compare {name} (they part at step {parting.step})",
             f"比较{name}（在第 {parting.step} 步分开）")


def data_offer(dataset, parting, lang="en") -> str:
    """The button that uses another built-in dataset (its shown name)."""
    name = pair_name(parting.configs, {}, lang)
    return t(lang, f"Use {dataset}: {name} part at step {parting.step}",
             f"改用{dataset}：{name}在第 {parting.step} 步分开")


def divergence_sentence(div, models, labels, escape=str, lang="en") -> str:
    """Where the trees part (:func:`compare.divergence_text`, the labels in
    bold) and at which step; or that they are the same tree, with a pointer
    to the offers below."""
    out = divergence_text(div, models, [f"**{escape(label)}**" for label in labels],
                          escape=escape, lang=lang)
    step = divergence_step(div) if div is not None else None
    if step is not None:
        out += t(lang, f" They part at step {step}.", f"它们在第 {step} 步分开。")
    if div is None:
        out += t(lang, " On this data these settings lead to the same tree; one click below "
                        "shows trees that part.",
                  "在这份数据上这些设置得到同一棵树；点击下面的按钮可以看到会分开的树。")
    return out


def shared_changes(changes, lang="en") -> str:
    """Why both default trees have other parameters than the Grow page's."""
    used = pair_name((), changes, lang)
    return t(lang, f"Both trees use {used.lstrip(', ')}: with "
                    "the Grow page's parameters every pair of criteria tried grows the "
                    "same tree on this data.",
              f"两棵树都使用 {used.lstrip('，')}：使用“生长”页"
              "的参数时，所试过的每一对划分准则在这份数据上都得到同一棵树。")


def tree_caption(profile, k, lang="en") -> str:
    """Under a tree at step ``k``: its step, leaves, depth and scores."""
    tree = profile.tree(k)
    n, n_leaves, depth = profile.n_steps, tree.n_leaves, tree.max_depth
    _, train, test = profile.step_scores
    metric = metric_name(hasattr(profile.model, "classes_"), lang)
    done = t(lang, " (fully grown)", "（已生长完毕）") if k == n else ""
    leaves = f"{n_leaves} leaf" if n_leaves == 1 else f"{n_leaves} leaves"
    out = t(lang, f"Step {k} of {n}{done} · {leaves} · "
                   f"depth {depth}  \ntrain {metric} **{train[k]:.3f}**",
             f"第 {k} / {n} 步{done} · {n_leaves} 个叶结点 · "
             f"深度 {depth}  \n训练集{metric} **{train[k]:.3f}**")
    if np.isfinite(test[k]):
        out += t(lang, f" · test {metric} **{test[k]:.3f}**",
                 f" · 测试集{metric} **{test[k]:.3f}**")
    return out


def tree_heading(label, profile, k, escape=str, lang="en") -> str:
    """Presenter mode's one line above a tree at step ``k``: its label (the
    column's, escaped), its test score (the training score when there is no
    test set), leaves and depth; in that order, so that a narrow column,
    which cuts the line short, keeps the score."""
    tree = profile.tree(k)
    _, train, test = profile.step_scores
    metric = metric_name(hasattr(profile.model, "classes_"), lang)
    tested = bool(np.isfinite(test[k]))
    score = (t(lang, f"test {metric}", f"测试集{metric}") if tested else
             t(lang, f"train {metric}", f"训练集{metric}"))
    value = test[k] if tested else train[k]
    leaves = t(lang, "1 leaf" if tree.n_leaves == 1 else f"{tree.n_leaves} leaves",
               f"{tree.n_leaves} 个叶结点")
    return (f"**{escape(label)}** · {score} **{value:.3f}** · {leaves} · "
            + t(lang, "depth", "深度") + f" {tree.max_depth}")


def depth_cut(levels, lang="en") -> str:
    return t(lang, f"Only the first {levels} levels are drawn.", f"只画出了前 {levels} 层。")


def agreement_caption(step, n_test, lang="en") -> str:
    return t(lang, f"At step {step} (each tree at its own last step if it has fewer), "
                    f"on the {n_test:,} test rows.",
              f"第 {step} 步（步数较少的树取其最后一步），基于 {n_test:,} "
              "个测试样本。")


def impurity_marker(model, k, label, escape=str, lang="en") -> str:
    """The impurity chart's marker: the node the first tree splits at step
    ``k`` (the root at 0), its p, and its own four impurities over all its
    classes."""
    node = step_node(model, k)
    p, two = node_share(model, node)
    counts = explain.class_counts(model.growth_tree_, node)
    own = ", ".join(f"{criterion_name(c, lang, short=True)} {explain.impurity_from_counts(c, counts):.3f}"
                    for c in ("entropy", "gini", "misclassification", "taylor2"))
    first = escape(label)
    where = (t(lang, f"node #{node} of tree {first} (split in step {k})",
               f"树 {first} 的结点 #{node}（在第 {k} 步划分）") if k else
             t(lang, f"the root of tree {first}", f"树 {first} 的根结点"))
    if two:
        cls = escape(model.classes_[1])
        share = t(lang, f"the share of class {cls}", f"类别 {cls} 所占比例")
    else:
        share = t(lang, "the share of its majority class (it has more than two classes; the "
                         "curves are the two-class case)",
                   "其多数类所占比例（该结点有两个以上的类别；曲线是二分类的情形）")
    return t(lang, f"The marker: {where}, p = {p:.3f} = {share}. Its own impurities, "
                    f"over all its classes: {own}.",
              f"标记：{where}，p = {p:.3f} = {share}。按其全部类别计算的不纯度："
              f"{own}。")


# -- the resamples view ------------------------------------------------------------------

#: The Compare page's two views: trees of different settings, or one
#: setting's trees on resamples of the rows.
MODES = {"settings": ("Settings", "不同设置"), "resamples": ("Resampled rows", "重抽样")}
#: The ways of resampling (dtree.resampled_trees' methods).
METHODS = {"bootstrap": ("bootstrap", "自助采样"), "drop": ("drop a share", "删去一部分")}
#: The resamples view's charts and tables.
RESAMPLE_CHARTS = {"root": ("Root splits", "根结点划分"),
                   "first": ("First level", "第一层划分"),
                   "scores": ("Held-out scores", "留出样本得分"),
                   "table": ("Each resample", "每次重抽样")}

RESAMPLE_TEXTS = {
    "intro": (
        "The Grow page's tree grown again on resamples of its training rows: how often each "
        "split wins, how the held-out score spreads, and a few of the trees beside the tree "
        "on all rows, stepping together.",
        "在训练样本的多次重抽样上重新生长“生长”页的树：每种划分胜出的频率、留出样本上得分的"
        "分布，以及几棵重抽样树与全部样本上的树并排同步生长。"),
    "mode_help": (
        "Settings: two to four trees of different settings on the same rows. Resampled rows: "
        "the Grow page's tree grown again on resamples of the training rows, to see how much "
        "it changes when the data changes a little.",
        "不同设置：在相同样本上比较两到四棵不同设置的树。重抽样：在训练样本的多次重抽样上"
        "重新生长“生长”页的树，看数据稍有变化时树会变化多少。"),
    "n_help": ("How many trees to grow, each on its own resample (1 to 50).",
               "生长多少棵树，每棵树用各自的一次重抽样（1 到 50）。"),
    "method_help": (
        "Bootstrap: draw as many rows as there are, with replacement (about 63% of the rows "
        "appear, some several times). Drop a share: leave out the chosen share of the rows "
        "at random and keep each other row once.",
        "自助采样：有放回地抽取与原样本数相同的样本（约 63% 的样本出现，有的出现多次）。"
        "删去一部分：随机删去所选比例的样本，其余样本各保留一次。"),
    "share_help": ("The share of the training rows each resample leaves out.",
                   "每次重抽样删去的训练样本比例。"),
    "seed_help": ("The same seed draws the same rows, so the same trees.",
                  "相同的随机种子抽到相同的样本，因此得到相同的树。"),
    "trees": (
        "The tree on all training rows (the Grow page's) beside resampled trees, stepping "
        "together: first the resamples whose root splits differ. The thick reddish-purple "
        "border marks where the trees first part.",
        "全部训练样本上的树（即“生长”页的树）与重抽样得到的树并排，同步逐步生长：优先显示"
        "根结点划分不同的重抽样。粗的紫红色边框标出各树第一次出现分歧的结点。"),
    "root": (
        "Thresholds that send the same training rows left are counted as one split (a "
        "resample that misses a value moves its threshold within the gap).",
        "把相同训练样本分到左边的阈值算作同一种划分（漏掉某个值的重抽样会在同一个间隔内"
        "移动阈值）。"),
    "first": (
        "For each root feature: what each side of the root splits on next, over the trees "
        "with that root feature (≤ and > are the root's sides, whatever its threshold).",
        "对每个根结点特征：根结点每一侧接下来按什么特征划分，在根结点使用该特征的树中统计"
        "（≤ 和 > 指根结点的两侧，不论阈值是多少）。"),
}


def mode_name(mode, lang="en") -> str:
    return text(MODES, mode, lang)


def method_name(method, lang="en") -> str:
    return text(METHODS, method, lang)


def resample_chart_name(chart, lang="en") -> str:
    return text(RESAMPLE_CHARTS, chart, lang)


def all_rows_label(lang="en") -> str:
    return t(lang, "All rows", "全部样本")


def resample_label(i, lang="en") -> str:
    """Resample ``i`` (0-based) as the page numbers it: "Resample 3"."""
    return t(lang, f"Resample {i + 1}", f"重抽样 {i + 1}")


def draw_caption(n, method, share, seed, n_rows, lang="en") -> str:
    """What was drawn: "20 bootstrap resamples of 114 rows, seed 0"."""
    if method == "bootstrap":
        return t(lang, f"{n} bootstrap resamples of the {n_rows:,} training rows, seed {seed}",
                 f"对 {n_rows:,} 个训练样本做 {n} 次自助采样，随机种子 {seed}")
    return t(lang, f"{n} resamples of the {n_rows:,} training rows, each without "
                   f"{share:.0%} of them, seed {seed}",
             f"对 {n_rows:,} 个训练样本做 {n} 次重抽样，每次删去 {share:.0%}，随机种子 {seed}")


def instability_sentence(root_features, n_same, n, escape=str, lang="en") -> str:
    """The view's headline: how often each feature is at the root (a Series
    feature -> trees, most frequent first; None: a leaf) and how many of
    the ``n`` trees are the tree on all rows."""
    def name(feature):
        return (t(lang, "no split (a leaf)", "不划分（叶结点）") if feature is None
                else f"**{escape(feature)}**")
    if len(root_features) == 1:
        only = name(root_features.index[0])
        head = t(lang, f"All {n} trees split the root on {only}",
                 f"{n} 棵树的根结点都按{only}划分")
    else:
        parts = [t(lang, f"{name(f)} in {c}", f"{name(f)} {c} 次")
                 for f, c in root_features.items()]
        head = t(lang, f"Root feature over {n} trees: ", f"{n} 棵树的根结点特征：") + \
            t(lang, ", ", "，").join(parts)
    verb = "is" if n_same == 1 else "are"
    same = t(lang, f"; {n_same} of {n} {verb} the same tree as the one on all rows.",
             f"；其中 {n_same} 棵与全部样本上的树完全相同。")
    return head + same


def spread_sentence(summary, full_score, metric, where, lang="en") -> str:
    """The held-out scores' spread: range, median and quartiles, and the tree
    on all rows' score on the test rows (when ``where`` is "test")."""
    if not summary["n"]:
        return t(lang, "No resample left a row out: there is nothing to score on.",
                 "没有一次重抽样留下未抽到的样本：无法计算得分。")
    rows = (t(lang, "on the test rows", "测试集上") if where == "test" else
            t(lang, "on the rows each resample left out (there is no test set)",
              "在各次重抽样未抽到的样本上（没有测试集）"))
    out = t(lang, f"{metric} {rows}: from **{summary['min']:.3f}** to "
                  f"**{summary['max']:.3f}**, median {summary['median']:.3f} (middle half "
                  f"{summary['q1']:.3f} to {summary['q3']:.3f}, sd {summary['sd']:.3f}).",
            f"{rows}的{metric}：从 **{summary['min']:.3f}** 到 **{summary['max']:.3f}**，"
            f"中位数 {summary['median']:.3f}（中间一半 {summary['q1']:.3f} 至 "
            f"{summary['q3']:.3f}，标准差 {summary['sd']:.3f}）。")
    if where == "test" and full_score is not None and np.isfinite(full_score):
        out += t(lang, f" The tree on all rows: {full_score:.3f}.",
                 f"全部样本上的树：{full_score:.3f}。")
    return out


def root_table(table, lang="en"):
    """:func:`dtree.views.instability.root_splits`' table with the page's
    column names (a leaf named)."""
    out = table.copy()
    out["feature"] = out["feature"].map(lambda f: t(lang, "(a single leaf)", "（叶结点）")
                                        if f is None else f)
    out["share"] = (100 * out["share"]).round(0).astype(int).astype(str) + "%"
    return out.rename(columns={"feature": t(lang, "feature", "特征"),
                               "rule": t(lang, "split", "划分"),
                               "trees": t(lang, "trees", "树的数量"),
                               "share": t(lang, "share", "比例")})


def first_level_table(table, lang="en"):
    """:func:`dtree.views.instability.first_level`'s table for the page."""
    out = table.copy()
    out["below"] = out["below"].map(lambda f: t(lang, "(a leaf)", "（叶结点）")
                                    if f is None or f != f else f)
    out["share"] = (100 * out["share"]).round(0).astype(int).astype(str) + "%"
    return out.rename(columns={"root": t(lang, "root feature", "根结点特征"),
                               "branch": t(lang, "side", "分支"),
                               "below": t(lang, "splits next on", "接着划分的特征"),
                               "trees": t(lang, "trees", "树的数量"),
                               "share": t(lang, "share", "比例")})


def resample_rows(result, models, agreement, scores, metric, split_of, lang="en"):
    """One row per resample: its number, distinct rows drawn, root split
    (``split_of(model)`` gives (feature, rule) or None), held-out score and
    where it parts from the tree on all rows."""
    import pandas as pd

    def parts(depth):
        if depth is None:
            return t(lang, "same tree", "同一棵树")
        return t(lang, f"at depth {depth}", f"在深度 {depth}") if depth else \
            t(lang, "at the root", "在根结点")

    def root(m):
        found = split_of(m)
        return t(lang, "(a leaf)", "（叶结点）") if found is None else f"{found[0]} {found[1]}"
    return pd.DataFrame({
        "#": [i + 1 for i in range(len(models))],
        t(lang, "distinct rows", "不同样本数"): [len(np.unique(r)) for r in result.rows],
        t(lang, "root split", "根结点划分"): [root(m) for m in models],
        metric: [round(float(s), 3) for s in scores],
        t(lang, "parts from the tree on all rows", "与全部样本上的树的分歧"):
            [parts(d) for d in agreement]})
