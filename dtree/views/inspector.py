"""The Grow page's node inspector, in plain Python: each node's title, what
happened to it, its formulas with its own numbers, its candidate splits
and the gain of every split of one feature.

The page draws what these return: :func:`node_blocks` gives the inspector's
right column as ``(kind, value)`` pairs (``"markdown"``, ``"latex"``,
``"caption"`` text, or a ``"table"`` DataFrame), so that the page only
chooses the Streamlit call for each kind.  Every function takes ``lang="en"``
or ``"zh"``; user text in Markdown is escaped with
:func:`dtree.views.links.md`.  ``s`` is always a step (one of
``model.steps_``: the split made at a node), or None for a node never split.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .vocabulary import missing_split, t
from . import explain
from .links import md
from .narration import ENTROPIES, split_phrase, stop_reason
from .viz import (category_figure, category_terms_figure, criterion_of, gain_curve_figure,
                  impurity_label, short)

#: The stop reason of J48's minimum-objects rule (the engine's stop_reason).
MIN_OBJECTS = "fewer than 2 branches with >= min_objects rows"

#: The words inside dtree.views.explain's formulas, in Chinese.
LATEX_ZH = {r"\text{improvement}": r"\text{改进量}",
            r"\text{a pure node}": r"\text{纯结点}"}


def latex_words(latex: str, lang: str = "en") -> str:
    """A formula with its few words in ``lang``."""
    if lang == "zh":
        for en, zh in LATEX_ZH.items():
            latex = latex.replace(en, zh)
    return latex


# ---------------------------------------------------------------------------
# Which node, and its title
# ---------------------------------------------------------------------------


def follow_node(model, step: int) -> int:
    """The node the inspector shows while following the steps: the node
    split in ``step`` (the root at step 0)."""
    return model.steps_[step - 1].node if step > 0 else 0


def node_titles(model, tree, step_of_node: dict, lang: str = "en") -> list:
    """One title per node of ``tree`` (the tree at a step), in its order:
    the split (or the number of branches), or the leaf's rows.
    ``step_of_node`` maps a node id to the step that splits it."""
    titles = []
    for i, nid in enumerate(int(v) for v in tree.node_ids):
        kids = tree.children_of(i)
        if not kids:
            n = tree.n_node_samples[i]
            titles.append(t(lang, f"#{nid}: leaf, {n:,} rows", f"#{nid}：叶结点，{n:,} 个样本"))
            continue
        name = short(model.feature_names_in_[tree.feature[i]], 40)
        s = step_of_node.get(nid)
        if s is not None and s.kind != "numeric":
            titles.append(t(lang, f"#{nid}: {name} ({len(kids)} branches)",
                            f"#{nid}：{name}（{len(kids)} 个分支）"))
        else:
            cut = tree.threshold[i]
            rule = missing_split(name, lang) if cut == np.inf else f"{name} ≤ {cut:.4g}"
            titles.append(t(lang, f"#{nid}: {rule}", f"#{nid}：{rule}"))
    return titles


def node_heading(tree, i: int, nid: int, lang: str = "en") -> str:
    """The inspector's heading: the node, its depth and rows."""
    n, depth = int(tree.n_node_samples[i]), int(tree.depth[i])
    return t(lang, f"Node #{nid}: depth {depth}, {n:,} rows",
             f"结点 #{nid}：深度 {depth}，{n:,} 个样本")


# ---------------------------------------------------------------------------
# The node's story and formulas
# ---------------------------------------------------------------------------


def known_fraction(model, s) -> float:
    """rho, the share of the node's weight with a known value of the split
    feature (below 1 only under C4.5's missing-value rule)."""
    if getattr(model, "missing_", None) != "c4.5" or s.candidates is None:
        return 1.0
    chosen = s.candidates[s.candidates["chosen"]]
    return 1.0 - float(chosen["missing_fraction"].iloc[0]) if len(chosen) else 1.0


def j48_row(model, s):
    """The chosen row of a J48 step's candidate table (with J48's own
    columns), or None for the other algorithms."""
    if getattr(model, "algorithm", None) != "j48":
        return None
    cand = s.candidates
    if cand is None or "mdl_penalty" not in cand.columns:
        return None
    chosen = cand[cand["chosen"]]
    return chosen.iloc[0] if len(chosen) else None


def node_status(model, s, nid: int, step: int, lang: str = "en") -> str:
    """What happens to the node by ``step``: split (in which step, how), a
    leaf for now, or a leaf of the final tree (and why), in Markdown."""
    if s is not None and s.index < step:
        phrase = split_phrase(s, lang)
        return t(lang, f"Split in step {s.index + 1} on {phrase}.",
                 f"在第 {s.index + 1} 步按 {phrase} 划分。")
    if s is not None:
        phrase = split_phrase(s, lang)
        return t(lang, f"A leaf for now: step {s.index + 1} will split it on {phrase}. The "
                        "numbers below are that step's.",
                  f"目前是叶结点：第 {s.index + 1} 步将按 {phrase} 划分它。下面的数值是那一步的。")
    reason = md(stop_reason(model.tree_.stop_reason[nid] or "leaf", lang))
    return t(lang, f"A leaf of the final tree (it stops because of: {reason}).",
             f"最终决策树的叶结点（停止划分的原因：{reason}）。")


def node_blocks(model, tree, i: int, nid: int, s, step: int, lang: str = "en") -> list:
    """The inspector's right column for node ``nid`` (index ``i`` of
    ``tree``, the tree after ``step`` steps): what happens to it, its
    impurity, and for a split its gain, split information and improvement,
    with J48's extra rules; ``(kind, value)`` pairs."""
    blocks = [("markdown", node_status(model, s, nid, step, lang))]
    full = model.tree_
    if s is None and full.stop_reason[nid] == MIN_OBJECTS:
        blocks += min_objects_blocks(model, nid, lang)
    crit = criterion_of(model)
    blocks.append(("latex", explain.impurity_definition(crit)))
    if hasattr(model, "classes_"):
        blocks.append(("latex", latex_words(explain.impurity_latex(
            crit, explain.class_counts(tree, i), value=tree.impurity[i]), lang)))
    else:
        blocks.append(("latex", explain.regression_latex(
            crit, tree.weighted_n_node_samples[i], tree.value[i, 0, 0], tree.impurity[i])))
    if s is None:
        return blocks
    w = full.weighted_n_node_samples
    child_w = [w[c] for c in s.children]
    known = known_fraction(model, s)
    row = j48_row(model, s)
    penalised = row is not None and np.isfinite(row["mdl_penalty"])
    blocks.append(("latex", explain.branches_gain_latex(
        crit, w[s.node], child_w, s.impurity, s.children_impurity,
        row["gain_before_mdl"] if penalised else s.gain, known)))
    blocks.append(("caption", _branches_caption(s, known, lang)))
    if row is not None:
        blocks += j48_blocks(s, row, w[s.node], penalised, lang)
    elif crit == "gain_ratio":
        blocks += [("latex", line) for line in explain.branches_split_info_latex(
            w[s.node], child_w, s.split_info, s.gain, s.gain_ratio)]
    blocks.append(("latex", latex_words(explain.improvement_latex(
        w[s.node], w[0], s.gain, s.improvement), lang)))
    return blocks


def _branches_caption(s, known: float, lang: str) -> str:
    """What D₁, D₂ (or D_v, or D̃ under C4.5's missing-value rule) are."""
    if known < 1.0:
        return t(lang,
                  f"C4.5's rule for missing values: ρ = {known:.3f} of this node's weight has "
                  "a known value of the feature; the gain is computed on those rows (D̃) and "
                  "multiplied by ρ.",
                  f"C4.5 的缺失值处理：该结点的权重中有 ρ = {known:.3f} 在此特征上取值"
                  "已知；信息增益在这些样本（D̃）上计算，再乘以 ρ。")
    if s.kind == "numeric":
        return t(lang, "D₁: the rows with the split feature ≤ the threshold (left); D₂: the "
                        "rest (right).",
                  "D₁：划分特征 ≤ 阈值的样本（左子结点）；D₂：其余样本（右子结点）。")
    branches = md(", ".join(f"{v + 1} = {short(b, 30)}" for v, b in enumerate(s.branches[:8])))
    branches += "…" if len(s.branches) > 8 else ""
    return t(lang, f"D_v: the rows in branch v ({branches}).",
             f"D_v：第 v 个分支中的样本（{branches}）。")


def j48_blocks(s, row, weight: float, penalised: bool, lang: str = "en") -> list:
    """J48's rules beyond the textbook's, with the node's numbers: the MDL
    penalty on a numeric gain, and the rows with an unknown value as one
    more branch of the split information (``row``: :func:`j48_row`)."""
    known_w = row["children_known_weight"]
    unknown = weight - float(np.sum(known_w))
    blocks = []
    if unknown > 1e-6:
        blocks.append(("latex", explain.known_fraction_latex(weight, float(np.sum(known_w)))))
    if penalised:
        cuts, penalty = int(row["n_cuts"]), row["mdl_penalty"]
        blocks.append(("latex", explain.mdl_gain_latex(weight, row["n_cuts"],
                                                        row["gain_before_mdl"], s.gain)))
        blocks.append(("caption", t(
            lang,
            f"J48's MDL penalty: choosing among C = {cuts} admissible cuts costs log₂ C / |D| = "
            f"{penalty:.4f} bits of gain (|D| counts the rows with a missing value too). The "
            "gain ratio divides the penalised gain g′.",
            f"J48 的 MDL 惩罚：在 C = {cuts} 个可选切分点中选一个，信息增益要减去 "
            f"log₂ C / |D| = {penalty:.4f}（|D| 也计入缺失值样本）。"
            "信息增益比用惩罚后的增益 g′ 计算。")))
    info, ratio = explain.unknown_split_info_latex(weight, known_w, s.split_info, s.gain,
                                                   s.gain_ratio, penalised)
    blocks += [("latex", info), ("latex", ratio)]
    if unknown > 1e-6:
        term, rho = row["split_info_unknown"], 1 - row["missing_fraction"]
        blocks.append(("caption", t(
            lang,
            f"J48 counts the rows with an unknown value (|D_?| = {unknown:.2f}) as one more "
            f"branch of the split information: its term is {term:.4f}. The gain is computed "
            f"on the known rows and scaled by ρ = {rho:.4f}.",
            f"J48 把取值未知的样本（|D_?| = {unknown:.2f}）算作分裂信息中多出的一个分支："
            f"它的那一项是 {term:.4f}。信息增益在取值已知的样本上计算，"
            f"再乘以 ρ = {rho:.4f}。")))
    return blocks


def min_objects_blocks(model, nid: int, lang: str = "en") -> list:
    """Why J48's minimum-objects rule stops leaf ``nid``, with its numbers:
    too light for two branches of M rows, or no feature that gives two
    branches their minimum (then a table of every feature's weights)."""
    weight = float(model.tree_.weighted_n_node_samples[nid])
    m = float(model.min_objects)
    if weight < 2 * m - 1e-6:
        return [("latex", explain.min_objects_latex(weight, m)),
                ("caption", t(lang, f"Two branches of at least M = {m:g} rows each need 2M "
                                     f"rows; this node has {weight:.2f}.",
                               f"两个分支各至少 M = {m:g} 个样本，共需 2M 个；该结点只有 "
                               f"{weight:.2f}。"))]
    cand = model.candidates(nid)
    if cand is None:
        return []
    return [("caption", t(lang,
                           "No feature can give two branches their minimum weight here (a "
                           "nominal feature: M rows of known value in at least 2 branches; a "
                           "numeric one: minSplit on each side of some cut):",
                           "这里没有特征能让两个分支各达到最小权重（类别特征：至少 2 个分支各"
                           "有 M 个取值已知的样本；数值特征：某个切分点两侧各至少 minSplit）：")),
            ("table", min_objects_table(cand, lang))]


# ---------------------------------------------------------------------------
# Tables of candidates
# ---------------------------------------------------------------------------


def min_objects_table(cand: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """Each feature's known weight per branch against its minimum (text,
    Markdown-escaped); ``cand`` is ``model.candidates(node)`` of J48."""
    def weights(v):
        return "–" if v is None or not isinstance(v, tuple) else \
            " | ".join(f"{x:.2f}" for x in v)
    return pd.DataFrame({
        t(lang, "feature", "特征"): [md(short(f, 48)) for f in cand["feature"]],
        t(lang, "known weight per branch", "各分支已知权重"):
            [weights(v) for v in cand["children_known_weight"]],
        t(lang, "minimum per branch", "每个分支的最小权重"):
            [f"{v:.2f}" for v in cand["min_branch_weight"]],
        t(lang, "why not", "不能划分的原因"):
            [stop_reason(r, lang) if r else "" for r in cand["rejected"]],
    })


def _fmt(x, spec) -> str:
    """A number of a candidate table ("–" when absent or infinite); + 0.0
    because a pure child's entropy is -0.0 in floating point."""
    return "–" if x is None or not np.isfinite(float(x)) else format(float(x) + 0.0, spec)


def candidate_table(cand: pd.DataFrame, criterion: str, lang: str = "en",
                    markdown: bool = True) -> pd.DataFrame:
    """The candidates of a node (a step's ``candidates``: every feature's best
    split) as a table of text, one row per candidate in their order: the
    chosen mark, feature, split, gain, gain ratio, the impurity and rows of
    each side (or each branch of a multiway split), the missing share, and
    J48's own columns.  ``markdown``: user text escaped for ``st.table``
    (else plain, for ``st.dataframe``)."""
    def text(v, n):
        return md(short(v, n)) if markdown else short(v, n)

    def split(row):
        if row.kind == "numeric":
            if row.threshold == np.inf:  # known against missing
                return missing_split("", lang).strip()
            return "–" if not np.isfinite(row.threshold) else f"≤ {row.threshold:.4g}"
        return text(row.children, 60)
    multi = cand["children_samples"].map(len).max() > 2 if len(cand) else False
    gain_name = t(lang, "gain", "信息增益" if criterion in ENTROPIES else "增益")
    table = {
        t(lang, "chosen", "选中"): ["✔" if c else "" for c in cand["chosen"]],
        t(lang, "feature", "特征"): [text(f, 48) for f in cand["feature"]],
        t(lang, "split", "划分"): [split(r) for r in cand.itertuples()],
        gain_name: [_fmt(v, ".4f") for v in cand["gain"]],
        t(lang, "gain ratio", "信息增益比"): [_fmt(v, ".4f") for v in cand["gain_ratio"]],
    }
    if multi:
        table[t(lang, "impurity per branch", "各分支不纯度")] = [
            " | ".join(_fmt(v, ".3f") for v in imps) for imps in cand["children_impurity"]]
        table[t(lang, "rows per branch", "各分支样本数")] = [
            " | ".join(str(n) for n in sizes) for sizes in cand["children_samples"]]
    else:
        for side, zh in (("left", "左侧"), ("right", "右侧")):
            table[t(lang, f"impurity {side}", f"{zh}不纯度")] = [
                _fmt(v, ".4f") for v in cand[f"impurity_{side}"]]
        for side, zh in (("left", "左侧"), ("right", "右侧")):
            table[t(lang, f"rows {side}", f"{zh}样本数")] = [
                _fmt(v, ".0f") for v in cand[f"n_{side}"]]
    if (cand["missing_fraction"] > 0).any():
        table[t(lang, "missing", "缺失比例")] = [_fmt(v, ".1%") for v in cand["missing_fraction"]]
    if "mdl_penalty" in cand.columns:
        _j48_columns(cand, table, gain_name, lang)
    return pd.DataFrame(table)


def _j48_columns(cand, table, gain_name, lang):
    """J48's numbers per candidate: the gain before and after the MDL penalty
    (numeric features), the known fraction and the unknown branch's term of
    the split information, and why a feature cannot split."""
    before, penalty = cand["gain_before_mdl"], cand["mdl_penalty"]
    # a feature the penalty rejects shows its penalised gain (<= 0) as well
    table[gain_name] = [_fmt(g if np.isfinite(g) else b - p, ".4f")
                        for g, b, p in zip(cand["gain"], before, penalty)]
    if np.isfinite(penalty).any():
        table[t(lang, "gain before MDL", "MDL 惩罚前的增益")] = [_fmt(v, ".4f") for v in before]
        table[t(lang, "MDL penalty", "MDL 惩罚")] = [_fmt(v, ".4f") for v in penalty]
        table[t(lang, "cuts C", "切分点数 C")] = [_fmt(v, ".0f") for v in cand["n_cuts"]]
    if (cand["missing_fraction"] > 0).any():
        table[t(lang, "known ρ", "已知比例 ρ")] = [
            _fmt(1 - v, ".3f") for v in cand["missing_fraction"]]
        table[t(lang, "unknown term of split info", "分裂信息中的未知分支项")] = [
            _fmt(v, ".4f") for v in cand["split_info_unknown"]]
    if (cand["rejected"] != "").any():
        table[t(lang, "why not", "不能划分的原因")] = [
            stop_reason(r, lang) if r else "" for r in cand["rejected"]]


# ---------------------------------------------------------------------------
# The gain of every split of one feature
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GainChart:
    """What :func:`gain_chart` found: ``kind`` "curve" (the gain of every
    threshold), "terms" (one bar per branch of a multiway split), "bars" (one
    bar per category against the rest), or "single" (a numeric feature with
    one value: no figure, ``caption`` says so); ``missing`` the note on the
    rows without a value ("" when none)."""
    kind: str
    figure: object
    caption: str
    missing: str


def gain_chart(model, X_train, y_codes, routes, nid: int, feature: int, s,
               lang: str = "en") -> GainChart:
    """The gain of every split of ``feature`` at node ``nid``, from the
    training rows that reach it (``routes``: ``tree_.leaf_weights`` of the
    encoded training rows; ``y_codes``: the targets, class codes for a
    classifier), marking the threshold step ``s`` chose when it split on
    this feature."""
    names = list(model.feature_names_in_)
    rows, weights = explain.node_rows(model.tree_, routes, nid)
    codes = y_codes[rows]
    n_classes = len(model.classes_) if hasattr(model, "classes_") else 0
    crit = criterion_of(model)
    values = X_train.iloc[rows, feature]
    known = values.notna().to_numpy()
    missing = int((~known).sum())
    note = "" if not missing else t(
        lang, f"{missing} row(s) at this node have no value of this feature; they are left "
              "out of this chart.",
        f"该结点有 {missing} 个样本缺少此特征的取值，图中没有包含它们。")
    if not model.is_categorical_[feature]:
        bins = getattr(model, "bin_upper_", None)  # splitter="hist": the bin edges
        leaf = model.min_samples_leaf if isinstance(model.min_samples_leaf, int) else 1
        curve = explain.threshold_curve(
            values.to_numpy(dtype=float)[known], codes[known], crit, n_classes,
            sample_weight=weights[known], min_samples_leaf=leaf,
            bins=None if bins is None else (model.bin_lower_[feature], bins[feature]))
        if curve.empty:
            return GainChart("single", None, t(
                lang, "This feature has a single value at this node: no threshold splits it.",
                "该特征在此结点只有一个取值：没有阈值能划分它。"), note)
        if missing and getattr(model, "missing_", None) == "c4.5":
            curve["gain"] *= weights[known].sum() / weights.sum()  # C4.5: gain times rho
            curve["gain_ratio"] = np.nan  # its split information counts the missing
        ratio = crit == "gain_ratio" and not curve["gain_ratio"].isna().all()
        label = t(lang, "gain ratio", "信息增益比") if ratio else \
            t(lang, "gain", "信息增益" if crit in ENTROPIES else "增益")
        chosen = s.threshold if feature == s.feature else None
        figure = gain_curve_figure(curve, names[feature], chosen,
                                   "gain_ratio" if ratio else "gain", label, lang=lang)
        return GainChart("curve", figure, "", note)
    if getattr(model, "multiway_", False):
        terms = explain.category_terms(values.to_numpy(dtype=object), codes, crit, n_classes,
                                       sample_weight=weights)
        figure = category_terms_figure(terms, names[feature], impurity_label(crit, lang),
                                       lang=lang)
        return GainChart("terms", figure, t(
            lang,
            "One bar per category (one branch each): the branch's share of the rows times its "
            "impurity. Their sum is the conditional impurity; the gain is the node's impurity "
            "minus that sum.",
            "每个类别一根柱（各为一个分支）：该分支的样本占比乘以它的不纯度。各柱之和"
            "是条件不纯度（以信息熵为准则时即条件熵 H(D|A)）；增益是结点的不纯度减去"
            "这个和（信息增益 g(D,A) = H(D) − H(D|A)）。"), note)
    bars = explain.category_gains(values.to_numpy(dtype=object)[known], codes[known], crit,
                                  n_classes, sample_weight=weights[known])
    return GainChart("bars", category_figure(bars, names[feature], lang=lang), t(
        lang,
        "One bar per category: the gain of the split “this category against all the others” "
        "at this node (CART searches groups of categories; these are the single-category "
        "groups).",
        "每个类别一根柱：在该结点按“此类别对其余所有类别”划分的增益（CART "
        "搜索的是类别的分组；这里画的是只含一个类别的分组）。"), note)
