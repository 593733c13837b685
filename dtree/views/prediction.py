"""How the tree decides for one sample, and which features it relies on.

``explain_prediction(model, x, k)`` follows one sample down the tree after
``k`` steps of growth and records every decision on the way: the feature,
the sample's value, the branch taken and why (a threshold, a category, or
the node's rule for a missing value).  Under C4.5's missing-value rule a
sample whose value is missing goes down *every* branch of that node, with
weight equal to the branch's share of the training weight; it then reaches
several leaves, and the prediction is the weighted mixture of their class
distributions, ``sum_leaf w_leaf * p_leaf``.  The result agrees with the
engine: the visited nodes are ``decision_path`` (scikit-learn's routing),
and the distribution is ``predict_proba`` (``tree_at(k).predict``).

``importances_at(model, k)``: the feature importances of the tree after k
steps, i.e. each feature's total weighted impurity decrease
``(N_t / N) * Delta(t)`` over the splits made so far, normalised to sum to 1
(scikit-learn's ``feature_importances_`` for the grown tree).
``importance_terms`` lists every node's term.

Text comes in English and Chinese (``lang="en"`` / ``"zh"``).  Figure
builders return Plotly figures with user text HTML-escaped; nothing here
imports Streamlit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import KIND_NAMES, CodedError, branch_labels, feature_importances, tree_input
from .vocabulary import missing_side, missing_split, t

__all__ = ["Branch", "Decision", "LeafShare", "Prediction", "explain_prediction",
           "rule_text", "explanation", "importances_at", "importance_terms",
           "importance_summary", "importance_figure", "distribution_figure",
           "importance_latex"]


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Branch:
    """One branch of a node on the path."""

    position: int  # 0-based child position (0 = left for binary splits)
    label: str  # "<= 1.75", "非常好", "{a, b}"
    child: int  # node index of the child in the tree explained
    share: float  # the branch's share of the node's known training weight
    weight: float  # the weight of the sample sent down this branch (0: not taken)


@dataclass(frozen=True)
class Decision:
    """What happened to the sample at one internal node."""

    node: int  # index in the tree explained (compact in tree_at(k))
    node_id: int  # id of the node in the grown tree (model.tree_ numbering)
    depth: int
    weight: float  # the sample's weight arriving here (1 unless split before)
    feature: int
    feature_name: str
    kind: str  # "numeric", "subset" or "multiway"
    value: object  # the sample's value (a number or a category label); None if missing
    status: str  # "known", "missing" or "unseen" (a category the node never saw)
    threshold: float  # numeric splits; NaN otherwise
    branch: int | None  # child position taken; None when split over every branch
    branches: tuple  # every Branch of the node
    fractional: bool  # C4.5: the sample went down every branch

    @property
    def branch_label(self):
        return None if self.branch is None else self.branches[self.branch].label

    @property
    def binary(self):
        return len(self.branches) == 2 and self.kind != "multiway"

    @property
    def rule(self):
        return rule_text(self, "en")


@dataclass(frozen=True)
class LeafShare:
    """A leaf the sample reaches, with the weight it arrives with."""

    node: int
    node_id: int
    weight: float
    value: np.ndarray  # class fractions (classifier) or [prediction] (regressor)
    n_samples: int
    weighted_n_samples: float
    pending: bool  # a leaf only for now: a later step splits it


@dataclass
class Prediction:
    """The path of one sample (see :func:`explain_prediction`)."""

    k: int | None  # the step (None: the final tree, model.tree_)
    n_steps: int
    sample: dict  # feature name -> value (None when missing)
    decisions: list  # Decision, in the order visited (pre-order)
    path: list  # (node, weight) of every visited node, pre-order
    leaves: list  # LeafShare
    distribution: np.ndarray  # combined class fractions, or [prediction]
    classes: list | None  # class labels (None for a regressor)
    prediction: object  # the predicted class label, or the predicted value
    missing_rule: str  # "cart", "c4.5" or "error"

    @property
    def fractional(self) -> bool:
        """True when the sample was split over several branches (C4.5)."""
        return any(d.fractional for d in self.decisions)

    @property
    def nodes(self) -> list:
        return [n for n, _ in self.path]

    @property
    def is_classifier(self) -> bool:
        return self.classes is not None


# ---------------------------------------------------------------------------
# The sample
# ---------------------------------------------------------------------------


def _is_missing(v) -> bool:
    if v is None:
        return True
    if isinstance(v, (float, np.floating)) and math.isnan(v):
        return True
    return type(v).__name__ in ("NAType", "NaTType")


def _plain_value(v):
    return v.item() if isinstance(v, np.generic) else v


def feature_names(model) -> list:
    """The model's feature names (``x0``, ``x1``... when it has none)."""
    return model.feature_names_


def _categorical(model) -> np.ndarray:
    cat = getattr(model, "is_categorical_", None)
    return np.zeros(model.n_features_in_, bool) if cat is None else np.asarray(cat, bool)


def normalise_sample(model, x) -> dict:
    """``x`` (a dict, Series or one-row DataFrame keyed by feature name) as a
    dict over the model's features: numbers as floats, category labels as
    they are, missing values (None, NaN, pd.NA) as None."""
    names = feature_names(model)
    if hasattr(x, "iloc") and getattr(x, "ndim", 1) == 2:
        if len(x) != 1:
            raise ValueError(f"Expected one sample (one row); got {len(x)} rows.")
        x = x.iloc[0]
    if hasattr(x, "to_dict"):
        x = x.to_dict()
    if not isinstance(x, dict):
        values = list(x)
        if len(values) != len(names):
            raise ValueError(f"Expected {len(names)} values, one per feature; got {len(values)}.")
        x = dict(zip(names, values))
    x = {str(k): v for k, v in x.items()}
    unknown = sorted(set(x) - set(names))
    if unknown:
        raise ValueError(f"The sample names features the model does not have: {unknown}.")
    absent = [n for n in names if n not in x]
    if absent:
        raise ValueError(f"The sample has no value for {absent}; use None for a missing value.")
    cat = _categorical(model)
    out = {}
    for j, name in enumerate(names):
        v = _plain_value(x[name])
        if _is_missing(v):
            out[name] = None
        elif cat[j]:
            out[name] = v
        else:
            try:
                out[name] = float(v)
            except (TypeError, ValueError):
                raise CodedError("sample_not_numeric", name=name, value=v) from None
            if math.isinf(out[name]):
                raise CodedError("sample_infinite", name=name)
    return out


def _encoded(model, sample: dict) -> np.ndarray:
    """The (1, n_features) float32 row the engine routes."""
    names = feature_names(model)
    cat = _categorical(model)
    columns = {}
    for j, name in enumerate(names):
        v = sample[name]
        if cat[j]:
            columns[name] = pd.Series([v], dtype=object)
        else:
            columns[name] = pd.Series([np.nan if v is None else v], dtype=np.float64)
    frame = pd.DataFrame(columns)
    table = frame if hasattr(model, "feature_names_in_") else frame.to_numpy(dtype=object)
    return tree_input(model, table)


# ---------------------------------------------------------------------------
# Following the sample
# ---------------------------------------------------------------------------


def _tree_for(model, k):
    if k is None:
        return model.tree_
    return model.tree_at(k)


def explain_prediction(model, x, k=None) -> Prediction:
    """Follow sample ``x`` down the tree after ``k`` steps (default: the final
    tree, ``model.tree_``) and record every decision.

    ``x``: a dict (or Series, or one-row DataFrame) from feature name to
    value; None or NaN is a missing value; categorical features take their
    labels.  The returned path holds node indices of ``model.tree_at(k)``
    (of ``model.tree_`` when k is None).
    """
    sample = normalise_sample(model, x)
    row = _encoded(model, sample)
    tree = _tree_for(model, k)
    names = feature_names(model)
    categories = getattr(model, "categories_", None)
    classes = list(model.classes_) if hasattr(model, "classes_") else None
    growth_ids = tree.node_ids
    pending = (tree.stop_reason == "not yet split") if k is not None else \
        np.zeros(tree.node_count, bool)

    decisions, path, leaves = [], [], []
    stack = [(0, 1.0)]
    zero = np.zeros(1, dtype=np.intp)
    while stack:
        node, weight = stack.pop()
        path.append((node, weight))
        kids = tree.children_of(node)
        if not kids:
            leaves.append(LeafShare(node, int(growth_ids[node]), weight,
                                    tree.value[node, 0].copy(), int(tree.n_node_samples[node]),
                                    float(tree.weighted_n_node_samples[node]),
                                    bool(pending[node])))
            continue
        f = int(tree.feature[node])
        taken = int(tree.branch(row, zero, np.array([node], dtype=np.intp))[0])
        value = sample[names[f]]
        if value is None:
            status = "missing"
        elif taken < 0:
            status = "unseen"
        else:
            status = "known"
        fractional = taken < 0 and bool(tree.distribute_missing)
        if taken < 0 and not fractional:
            taken = int(tree.missing_child[node])
        a = tree.child_ptr[node]
        shares = tree.child_share[a:a + len(kids)]
        if fractional:
            weights = [weight * float(s) for s in shares]
        else:
            weights = [weight if i == taken else 0.0 for i in range(len(kids))]
        labels = branch_labels(tree, node, None if categories is None else categories[f])
        branches = tuple(Branch(i, str(labels[i]) if i < len(labels) else str(i), int(c),
                                float(shares[i]), weights[i]) for i, c in enumerate(kids))
        kind = KIND_NAMES[int(tree.kind[node])]
        decisions.append(Decision(
            node=node, node_id=int(growth_ids[node]), depth=int(tree.depth[node]),
            weight=weight, feature=f, feature_name=names[f], kind=kind,
            value=None if status == "missing" else value, status=status,
            threshold=float(tree.threshold[node]) if kind == "numeric" else float("nan"),
            branch=None if fractional else taken, branches=branches, fractional=fractional))
        for b in reversed(branches):  # pre-order: the first branch is visited first
            if fractional or b.position == taken:
                stack.append((b.child, b.weight))

    distribution = np.zeros(tree.value.shape[2])
    for leaf in leaves:
        distribution += leaf.weight * leaf.value
    if classes is not None:
        prediction = _plain_value(classes[int(np.argmax(distribution))])
    else:
        prediction = float(distribution[0])
    return Prediction(k=k, n_steps=len(model.steps_), sample=sample, decisions=decisions,
                      path=path, leaves=leaves, distribution=distribution, classes=classes,
                      prediction=prediction, missing_rule=getattr(model, "missing_", "cart"))


# ---------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------


def fmt_value(v) -> str:
    """A sample's value as the text shows it."""
    if v is None:
        return "NaN"
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def _w(x) -> str:
    return f"{x:.3f}"


def _side(d, position, lang):
    if d.binary:
        if lang == "zh":
            return "左分支" if position == 0 else "右分支"
        return "left" if position == 0 else "right"
    return t(lang, f"branch {position + 1}", f"第 {position + 1} 个分支")


def _known_or_missing(d) -> bool:
    """A split of known against missing values (threshold +inf)."""
    return d.kind == "numeric" and d.threshold == math.inf


def branch_text(d, b, lang="en") -> str:
    """A branch's label in ``lang`` (a known/missing split's sides are
    words: 已知 / 缺失)."""
    return missing_side(b.position, lang) if _known_or_missing(d) else b.label


def _shares(d, lang):
    sep = t(lang, ", ", "，")
    return sep.join(f"{branch_text(d, b, lang)} {_w(b.share)}" for b in d.branches)


def rule_text(d: Decision, lang: str = "en") -> str:
    """One decision as a rule: ``petal width (cm) 1.9 > 1.75 → right``,
    ``信贷情况 = 非常好 → branch 3``, or what happened to a missing value."""
    zh = lang == "zh"
    name, value = d.feature_name, fmt_value(d.value)
    if d.fractional:
        what = (f"{name} = {value}（该结点未见过此类别）" if d.status == "unseen" and zh
                else f"{name} = {value} (not seen at this node)" if d.status == "unseen"
                else f"{name} 缺失" if zh else f"{name} is missing")
        if zh:
            return f"{what} → 按训练样本比例进入全部 {len(d.branches)} 个分支：{_shares(d, lang)}"
        return f"{what} → every branch, by training share: {_shares(d, lang)}"
    side = _side(d, d.branch, lang)
    if d.status == "missing":
        if d.kind == "numeric":
            flag = int(d.branch == 0)
            if zh:
                return f"{name} 缺失 → {side}（该结点把缺失值分到{side}，missing_go_to_left = {flag}）"
            return (f"{name} is missing → {side} (this node sends missing values {side}: "
                    f"missing_go_to_left = {flag})")
        if zh:
            return f"{name} 缺失 → {side}（该结点把缺失值分到训练样本最多的分支）"
        return f"{name} is missing → {side} (this node sends missing values to its largest branch)"
    if d.status == "unseen":
        if zh:
            return f"{name} = {value}（该结点未见过此类别，按缺失值处理）→ {side}"
        return f"{name} = {value} (not seen at this node, treated as missing) → {side}"
    if _known_or_missing(d):  # (a missing value was worded above)
        known = missing_split(name, lang, 0)
        return f"{known}（{value}）→ {side}" if zh else f"{known} ({value}) → {side}"
    if d.kind == "numeric":
        op = "≤" if d.branch == 0 else ">"
        return f"{name} {value} {op} {d.threshold:.6g} → {side}"
    if d.kind == "subset":
        members = d.branches[d.branch].label
        members = members if members.startswith("{") else "{" + members + "}"
        return f"{name} = {value} ∈ {members} → {side}"
    return f"{name} = {value} → {side}"


def _class_text(result, lang, digits=3):
    sep = t(lang, ", ", "，")
    return sep.join(f"P({c}) = {p:.{digits}f}" for c, p in zip(result.classes,
                                                                result.distribution))


def _leaf_text(leaf, result, lang):
    if result.is_classifier:
        sep = t(lang, ", ", "，")
        dist = sep.join(f"{c} {p:.3f}" for c, p in zip(result.classes, leaf.value))
    else:
        dist = f"{leaf.value[0]:.4g}"
    return dist


def explanation(result: Prediction, lang: str = "en") -> str:
    """A plain-language paragraph describing the path and the prediction."""
    return _explanation_zh(result) if lang == "zh" else _explanation_en(result)


def _explanation_en(r: Prediction) -> str:
    tree = "the final tree" if r.k is None else f"the tree after step {r.k}"
    parts = [f"On {tree}, the sample starts at the root."]
    if not r.decisions:
        parts.append("The root is not split yet, so every sample gets the same answer.")
    for d in r.decisions:
        at = f"At node #{d.node_id}"
        if d.weight < 1 - 1e-12:
            at += f" (carrying weight {_w(d.weight)})"
        if d.fractional:
            reason = ("its value is missing" if d.status == "missing"
                      else f"its value {fmt_value(d.value)} was never seen there")
            parts.append(f"{at}, the split is on {d.feature_name}, but {reason}; under "
                         "C4.5's rule the sample goes down every branch, weighted by the "
                         f"share of training samples that went each way ({_shares(d, 'en')}).")
        elif d.status == "missing":
            parts.append(f"{at}, {d.feature_name} is missing, so the sample follows this "
                         f"node's rule for missing values and goes "
                         f"{_side(d, d.branch, 'en')}.")
        else:
            parts.append(f"{at}, {rule_text(d, 'en')}.")
    if len(r.leaves) == 1:
        leaf = r.leaves[0]
        text = (f"It ends in leaf #{leaf.node_id}, which holds {leaf.n_samples} training "
                "samples")
        text += (f" with class fractions {_leaf_text(leaf, r, 'en')}" if r.is_classifier
                 else f" with mean target {_leaf_text(leaf, r, 'en')}")
        if leaf.pending:
            text += " (a leaf only for now: a later step splits it)"
        parts.append(text + ".")
    else:
        leaves = "; ".join(f"#{lf.node_id} with weight {_w(lf.weight)}" for lf in r.leaves)
        what = "class distributions" if r.is_classifier else "values"
        parts.append(f"It ends in {len(r.leaves)} leaves ({leaves}), and the prediction "
                     f"mixes their {what} by these weights: Σ w·p over the leaves.")
    if r.is_classifier:
        parts.append(f"So {_class_text(r, 'en')}, and the tree predicts {r.prediction}.")
    else:
        parts.append(f"So the tree predicts {r.prediction:.4g}.")
    return " ".join(parts)


def _explanation_zh(r: Prediction) -> str:
    tree = "最终的树" if r.k is None else f"第 {r.k} 步之后的树"
    parts = [f"在{tree}上，样本从根结点出发。"]
    if not r.decisions:
        parts.append("根结点尚未划分，所以所有样本的预测都相同。")
    for d in r.decisions:
        at = f"在结点 #{d.node_id}"
        if d.weight < 1 - 1e-12:
            at += f"（此时权重为 {_w(d.weight)}）"
        if d.fractional:
            reason = ("该特征取值缺失" if d.status == "missing"
                      else f"取值 {fmt_value(d.value)} 在该结点从未出现")
            parts.append(f"{at}，按 {d.feature_name} 划分，但{reason}；按照 C4.5 的规则，"
                         f"样本以各分支训练样本所占比例为权重进入每个分支（{_shares(d, 'zh')}）。")
        elif d.status == "missing":
            parts.append(f"{at}，{d.feature_name} 缺失，样本按该结点的缺失值规则进入"
                         f"{_side(d, d.branch, 'zh')}。")
        else:
            parts.append(f"{at}，{rule_text(d, 'zh')}。")
    if len(r.leaves) == 1:
        leaf = r.leaves[0]
        text = f"最后到达叶结点 #{leaf.node_id}，其中有 {leaf.n_samples} 个训练样本"
        text += (f"，类别比例为 {_leaf_text(leaf, r, 'zh')}" if r.is_classifier
                 else f"，目标均值为 {_leaf_text(leaf, r, 'zh')}")
        if leaf.pending:
            text += "（它暂时是叶结点，之后的步骤还会划分它）"
        parts.append(text + "。")
    else:
        leaves = "；".join(f"#{lf.node_id}（权重 {_w(lf.weight)}）" for lf in r.leaves)
        what = "类别分布" if r.is_classifier else "预测值"
        parts.append(f"样本最终到达 {len(r.leaves)} 个叶结点：{leaves}，预测结果是这些叶结点的"
                     f"{what}按权重的加权和：Σ w·p。")
    if r.is_classifier:
        parts.append(f"因此 {_class_text(r, 'zh')}，树预测的类别是 {r.prediction}。")
    else:
        parts.append(f"因此树的预测值是 {r.prediction:.4g}。")
    return "".join(parts)


# ---------------------------------------------------------------------------
# Feature importances after k steps
# ---------------------------------------------------------------------------


def _check_k(model, k):
    n = len(model.steps_)
    return n if k is None else k


def importances_at(model, k=None) -> np.ndarray:
    """Normalised feature importances of ``model.tree_at(k)`` (default: the
    grown tree): each feature's total ``(N_t/N) * Delta(t)`` over the splits
    made in the first k steps, divided by the sum over all features (all
    zeros before the first split)."""
    k = _check_k(model, k)
    return feature_importances(model.tree_at(k), model.n_features_in_)


def importance_terms(model, k=None) -> pd.DataFrame:
    """One row per split made in the first k steps, in step order: the node,
    its feature, N_t (weighted samples), N (the root's), the impurity I(t),
    the children's weighted impurity, Delta(t) = I(t) - sum_c N_c/N_t I(c),
    the term (N_t/N) Delta(t) and its share of the total (the importance
    it gives its feature)."""
    k = _check_k(model, k)
    tree = model.growth_tree_
    names = feature_names(model)
    w, imp = tree.weighted_n_node_samples, tree.impurity
    rows = []
    for step in model.steps_[:k]:
        t = step.node
        kids = tree.children_of(t)
        children = float(np.sum(w[kids] * imp[kids]) / w[t])
        delta = float(imp[t]) - children
        rows.append({"step": step.index + 1, "node": t, "feature": step.feature,
                     "feature_name": names[step.feature], "N_t": float(w[t]),
                     "N": float(w[0]), "impurity": float(imp[t]),
                     "children_impurity": children, "delta": delta,
                     "term": float(w[t]) / float(w[0]) * delta})
    frame = pd.DataFrame(rows, columns=["step", "node", "feature", "feature_name", "N_t", "N",
                                        "impurity", "children_impurity", "delta", "term"])
    total = frame["term"].sum()
    frame["share"] = frame["term"] / total if total > 0 else 0.0
    return frame


def importance_summary(model, k=None) -> pd.DataFrame:
    """Per feature (most important first): the sum of its terms, the
    importance, and the nodes (full-tree ids) that contributed."""
    terms = importance_terms(model, k)
    names = feature_names(model)
    total = terms["term"].sum()
    rows = []
    for j, name in enumerate(names):
        mine = terms[terms["feature"] == j]
        s = float(mine["term"].sum())
        rows.append({"feature": j, "feature_name": name, "n_splits": len(mine),
                     "nodes": [int(v) for v in mine["node"]], "sum": s,
                     "importance": s / total if total > 0 else 0.0})
    frame = pd.DataFrame(rows)
    return frame.sort_values(["importance", "feature"], ascending=[False, True],
                             kind="stable").reset_index(drop=True)


def importance_latex(terms: pd.DataFrame, feature: int, symbol: str = "A",
                     max_terms: int = 6) -> list:
    """LaTeX lines (numbers and fixed symbols only) for one feature:
    ``imp(A) = (sum of its terms) / (sum of all terms) = value``, each term
    written as ``(N_t/N) * Delta(t)``."""
    from .explain import num

    mine = terms[terms["feature"] == feature]
    total = float(terms["term"].sum())
    sym = symbol
    general = (rf"\mathrm{{imp}}({sym}) = \frac{{\sum_{{t\,:\,{sym}}} \frac{{N_t}}{{N}}\,"
               rf"\Delta(t)}}{{\sum_{{t}} \frac{{N_t}}{{N}}\,\Delta(t)}},\qquad "
               r"\Delta(t) = I(t) - \sum_{c} \frac{N_c}{N_t}\, I(c)")
    if mine.empty or total <= 0:
        return [general, rf"\mathrm{{imp}}({sym}) = 0"]
    parts = [rf"\frac{{{num(r.N_t, 2)}}}{{{num(r.N, 2)}}}\cdot {num(r.delta, 4)}"
             for r in mine.itertuples()]
    if len(parts) > max_terms:
        parts = parts[: max_terms - 1] + [r"\cdots"]
    s = float(mine["term"].sum())
    numbers = (rf"\mathrm{{imp}}({sym}) = \frac{{{' + '.join(parts)}}}{{{num(total, 4)}}}"
               rf" = \frac{{{num(s, 4)}}}{{{num(total, 4)}}} = {num(s / total, 4)}")
    return [general, numbers]


# ---------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------


def _large_fonts(fig):
    """Axis fonts set on the figure itself: Streamlit's chart theme would
    otherwise shrink tick labels to 13.5 px."""
    from .viz import FONT_SIZE

    for axis in (fig.layout.xaxis, fig.layout.yaxis):
        axis.tickfont.size = FONT_SIZE
        axis.title.font.size = FONT_SIZE
    fig.layout.legend.font.size = FONT_SIZE - 2
    return fig


def importance_figure(importances, names, lang: str = "en", top: int = 20, height=None):
    """Horizontal bars of the importances, largest on top (at most ``top``
    features; names HTML-escaped)."""
    import plotly.graph_objects as go

    from .. import OKABE_ITO
    from .viz import _layout, _plain

    importances = np.asarray(importances, dtype=float)
    order = np.argsort(-importances, kind="stable")[:top][::-1]
    labels = [_plain(names[j], 40) for j in order]
    values = importances[order]
    fig = go.Figure(go.Bar(
        x=values, y=labels, orientation="h", marker_color=OKABE_ITO[4],
        text=[f"{v:.3f}" for v in values], textposition="outside",
        textfont={"size": 16}, cliponaxis=False,
        hovertemplate="%{y}: %{x:.4f}<extra></extra>"))
    zh = lang == "zh"
    _layout(fig, "特征重要性" if zh else "Feature importance",
            height or max(260, 60 + 40 * len(order)),
            xaxis_title="重要性（不纯度减少的占比）" if zh
            else "importance (share of the impurity decrease)")
    fig.update_xaxes(range=[0, max(1.0, float(values.max()) if len(values) else 1.0) * 1.12])
    fig.update_layout(margin={"l": 20, "r": 30, "t": 60, "b": 60})
    fig.update_yaxes(automargin=True)
    return _large_fonts(fig)


def distribution_figure(result: Prediction, lang: str = "en", height: int = 380):
    """The predicted class distribution as bars; with several leaves (C4.5)
    each bar is stacked from the leaves' contributions w_leaf * p_leaf.  For a
    regressor: one bar per leaf reached (its mean) and the prediction."""
    import plotly.graph_objects as go

    from .. import OKABE_ITO
    from .viz import _layout, _plain, class_colour

    zh = lang == "zh"
    fig = go.Figure()
    if result.is_classifier:
        x = [_plain(c, 24) for c in result.classes]
        if len(result.leaves) == 1:
            fig.add_trace(go.Bar(x=x, y=result.distribution,
                                 marker_color=[class_colour(i) for i in range(len(x))],
                                 text=[f"{p:.3f}" for p in result.distribution],
                                 textposition="outside", textfont={"size": 16},
                                 cliponaxis=False, showlegend=False))
        else:
            patterns = ["", "/", "\\", "x", ".", "+", "-", "|"]
            for i, leaf in enumerate(result.leaves):
                fig.add_trace(go.Bar(
                    x=x, y=leaf.weight * leaf.value,
                    name=(f"叶结点 #{leaf.node_id} × {leaf.weight:.3f}" if zh
                          else f"leaf #{leaf.node_id} × {leaf.weight:.3f}"),
                    marker={"color": [class_colour(c) for c in range(len(x))],
                            "pattern": {"shape": patterns[i % len(patterns)]},
                            "line": {"color": "#000", "width": 1}}))
            fig.add_trace(go.Scatter(
                x=x, y=result.distribution, mode="text",
                text=[f"{p:.3f}" for p in result.distribution], textposition="top center",
                textfont={"size": 16}, showlegend=False, hoverinfo="skip"))
            fig.update_layout(barmode="stack", legend={"orientation": "h", "x": 0,
                                                       "y": -0.18, "yanchor": "top",
                                                       "traceorder": "normal"})
        _layout(fig, "类别分布" if zh else "Class distribution",
                height + (30 * len(result.leaves) if len(result.leaves) > 1 else 0),
                yaxis_title="概率" if zh else "probability")
        fig.update_yaxes(range=[0, 1.15])
    else:
        x = [(f"叶结点 #{lf.node_id}" if zh else f"leaf #{lf.node_id}") for lf in result.leaves]
        fig.add_trace(go.Bar(x=x, y=[lf.value[0] for lf in result.leaves],
                             marker_color=OKABE_ITO[4],
                             text=[f"{lf.value[0]:.4g} (w = {lf.weight:.3f})"
                                   for lf in result.leaves],
                             textposition="outside", textfont={"size": 16}, cliponaxis=False,
                             showlegend=False))
        fig.add_hline(y=float(result.prediction), line={"color": "#D55E00", "width": 3,
                                                         "dash": "dash"},
                      annotation_text=(f"预测值 {result.prediction:.4g}" if zh
                                       else f"prediction {result.prediction:.4g}"),
                      annotation_font_size=16)
        _layout(fig, "到达的叶结点的均值" if zh else "Mean of the leaf reached", height,
                yaxis_title="目标" if zh else "target")
    return _large_fonts(fig)
