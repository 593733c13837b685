"""Manual mode on the Grow page, in plain Python: the splits a user chooses
by hand, as the engine's ``forced_splits`` (LightGBM's format), the choices
offered at the node about to split with their gains, and the words.

A choice at step ``k`` keeps the first ``k`` splits of the tree on screen
(each written as a forced split) and splits the node the algorithm would
split next (``steps_[k].node``) as the user chose; the estimator is then
refitted with that spec (:func:`choice_spec`), and growth goes on below.
A spec is kept, in the session and the link, as compact JSON text
(:func:`spec_text`); :func:`read_spec_text` reads a link's text back.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from dtree import KIND_NAMES, NUMERIC

from . import explain
from .links import md
from .narration import gain_word
from .viz import criterion_of, short
from .vocabulary import t, text

#: The longest forced-splits text a link may carry (characters).
MAX_LINK_CHARS = 20_000
#: A categorical feature with at most this many categories at the node is
#: offered every grouping of them in two; above, each category against the rest.
ALL_GROUPS_UP_TO = 8
#: At most this many thresholds of a numeric feature are offered (the best
#: one always among them).
MAX_THRESHOLDS = 300


# -- the spec as text -----------------------------------------------------------------

def spec_text(spec: dict, indent: int | None = None) -> str:
    """``spec`` as JSON text: compact (for the session and the link) or
    indented (the file offered for download)."""
    if indent is None:
        return json.dumps(spec, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(spec, ensure_ascii=False, indent=indent) + "\n"


def read_spec_text(value) -> str:
    """A link's ``forced=`` text, checked for what needs no data (a JSON
    object, at most :data:`MAX_LINK_CHARS` characters) and returned compact;
    ``ValueError`` otherwise.  The engine checks the rest when it fits."""
    value = str(value)
    if len(value) > MAX_LINK_CHARS:
        raise ValueError("too long")
    try:
        spec = json.loads(value)
    except (ValueError, RecursionError):
        raise ValueError("not JSON") from None
    if not isinstance(spec, dict) or not spec:
        raise ValueError("not a JSON object")
    return spec_text(spec)


def pretty_text(text: str) -> str:
    """Compact JSON text (:func:`spec_text`) indented, for the file offered."""
    return spec_text(json.loads(text), indent=2)


# -- the spec of a tree on screen, plus a choice -------------------------------------

def known_values(column) -> np.ndarray:
    """A feature's distinct known training values (float32, as the tree
    reads them), sorted, as float64: what :func:`spec_threshold` keeps apart."""
    column = np.asarray(column, dtype=np.float32)
    return np.unique(column[np.isfinite(column)]).astype(np.float64)


def spec_threshold(threshold: float, values) -> float:
    """A threshold as a spec writes it: the shortest decimal within one
    float32 step of it (the engine reads a spec's threshold in float32, as
    it reads X) that sends each of ``values`` (:func:`known_values` of the
    feature) the same way, so 0.35, not 0.35000000149011613.

    Only a value that lies within that float32 step could be routed
    otherwise, and no training value does."""
    threshold = float(threshold)
    values = np.asarray(values, dtype=np.float64)
    t32 = np.float32(threshold)
    wanted = np.searchsorted(values, threshold, side="right")
    for digits in range(1, 10):
        written = float(f"{threshold:.{digits}g}")
        read = np.float32(written)
        if (abs(float(read) - float(t32)) <= abs(float(np.spacing(t32)))
                and np.searchsorted(values, float(read), side="right") == wanted):
            return written
    if float(t32) > threshold and np.isin(float(t32), values):  # (not reached in practice)
        t32 = np.nextafter(t32, np.float32(-np.inf))
    return float(str(t32))


class Unwritable(ValueError):
    """The node to split lies below a split that a forced split cannot
    write: scikit-learn's split of known against missing values."""


def _split_of(model, tree, i, X_encoded) -> dict | None:
    """Node ``i`` of ``tree`` (a tree of ``model``) as a forced split, without
    what is below it; None for a split of known against missing values
    (threshold +inf), which the format cannot write."""
    f = int(tree.feature[i])
    name = str(model.feature_names_[f])
    kind = int(tree.kind[i])
    if kind == NUMERIC:
        if not np.isfinite(tree.threshold[i]):
            return None
        return {"feature": name,
                "threshold": spec_threshold(tree.threshold[i], known_values(X_encoded[:, f]))}
    labels = list(model.categories_[f])
    branch = np.asarray(tree.branch_of_code[i])
    if KIND_NAMES[kind] == "subset":
        return {"feature": name, "categories": [_plain(labels[c])
                                                for c in np.flatnonzero(branch == 0)]}
    return {"feature": name, "branches": {}}


def _plain(value):
    """A category label as JSON holds it (NumPy scalars as Python's)."""
    return value.item() if isinstance(value, np.generic) else value


def choice_spec(model, k: int, choice: dict | None, X_encoded) -> dict | None:
    """The forced splits that rebuild ``model``'s tree after ``k`` steps and
    then split the node of step ``k`` (``steps_[k].node``) by ``choice`` (a
    forced split without children: ``{"feature": ..., "threshold": ...}``);
    with ``choice`` None, the first ``k`` splits alone (None if ``k`` is 0).

    ``X_encoded`` is the training rows as the tree reads them
    (``explain.encode``): a threshold is written so that it splits them as
    the tree does (:func:`spec_threshold`).  A split of known against
    missing values cannot be written: away from the chosen node it is left
    to the algorithm (which makes it again, after the forced splits); above
    the chosen node it raises :class:`Unwritable`."""
    tree = model.tree_at(k)
    ids = [int(v) for v in tree.node_ids]
    target = ids.index(int(model.steps_[k].node)) if choice is not None else None
    above = _ancestors(tree, target)

    def build(i):
        if i == target:
            return dict(choice)
        if tree.n_children[i] == 0:
            return None
        split = _split_of(model, tree, i, X_encoded)
        if split is None:
            if i in above:
                raise Unwritable(i)
            return None
        kids = [build(c) for c in tree.children_of(i)]
        if "branches" in split:
            labels = list(model.categories_[int(tree.feature[i])])
            branch = np.asarray(tree.branch_of_code[i])
            for position, below in enumerate(kids):
                if below is not None:
                    code = int(np.flatnonzero(branch == position)[0])
                    split["branches"][str(labels[code])] = below
        else:
            for side, below in zip(("left", "right"), kids):
                if below is not None:
                    split[side] = below
        return split

    return build(0) if tree.node_count > 1 or target is not None else None


def _ancestors(tree, node) -> set:
    """The nodes above ``node`` in ``tree`` (empty for None)."""
    out = set()
    while node is not None and node > 0:
        node = int(tree.parent[node])
        out.add(node)
    return out


def count_splits(spec) -> int:
    """The number of forced splits in ``spec`` (a dict, or None)."""
    if not isinstance(spec, dict):
        return 0
    below = list(spec.get("branches", {}).values()) + [spec.get("left"), spec.get("right")]
    return 1 + sum(count_splits(b) for b in below)


# -- the choices at the node about to split -----------------------------------------

@dataclass(frozen=True)
class Option:
    """One split offered at a node: ``split`` is the forced split (spec
    without children), ``branches`` its branches' words (``≤ 2.45``,
    ``{a, b}``), ``sizes`` the training rows in each, ``gain`` and
    ``gain_ratio`` its numbers on the node's rows."""
    split: dict
    branches: tuple
    sizes: tuple
    gain: float
    gain_ratio: float

    def score(self, criterion: str) -> float:
        """What the criterion ranks by: gain ratio under C4.5, else the gain."""
        return self.gain_ratio if criterion == "gain_ratio" else self.gain


def feature_order(step) -> list:
    """The features the algorithm evaluated at ``step``'s node (the ones a
    user may choose), best first by its own ranking: ``[(index, row)]``,
    ``row`` that feature's best split in the candidate table."""
    cand = step.candidates
    if cand is None:
        return []
    if "forced" in cand:
        cand = cand[~cand["forced"].astype(bool)]
    seen, out = set(), []
    for _, row in cand.iterrows():
        f = int(row["feature_index"])
        if f not in seen:
            seen.add(f)
            out.append((f, row))
    return out


def best_row(step):
    """The candidate-table row of the split the algorithm would choose at
    ``step``'s node (its own best, also when the step was forced), or None."""
    order = feature_order(step)
    return order[0][1] if order else None


class Offer(NamedTuple):
    """The splits of one feature offered at a node (:func:`node_options`)."""
    options: list  # of Option
    left_out: int  # rows at the node without a value of the feature
    n_all: int  # how many there were before :data:`MAX_THRESHOLDS` kept some


def node_options(model, X_train, y_codes, routes, step, feature: int, X_encoded) -> Offer:
    """The splits of ``feature`` offered at ``step``'s node, with the number
    of rows there without a value of it (the gains are those of the rows
    with one; under C4.5's rule times their weight share, as the engine
    counts them).

    Numeric: every threshold the search tries (midpoints of consecutive
    values) whose sides keep ``min_samples_leaf`` rows, at most
    :data:`MAX_THRESHOLDS` of them.  Categorical: one branch per category
    (multiway), or each grouping of the categories in two (each category
    against the rest above :data:`ALL_GROUPS_UP_TO` categories)."""
    nid = int(step.node)
    rows, weights = explain.node_rows(model.tree_, routes, nid)
    codes = np.asarray(y_codes)[rows]
    n_classes = len(model.classes_) if hasattr(model, "classes_") else 0
    crit = criterion_of(model)
    search_crit = "entropy" if crit == "gain_ratio" else crit
    values = X_train.iloc[rows, feature]
    known = values.notna().to_numpy()
    left_out = int((~known).sum())
    share = weights[known].sum() / weights.sum() if len(weights) else 1.0
    c45 = getattr(model, "missing_", None) == "c4.5" and left_out
    name = str(model.feature_names_[feature])
    leaf = model.min_samples_leaf if isinstance(model.min_samples_leaf, int) else 1
    if not model.is_categorical_[feature]:
        curve = explain.threshold_curve(values.to_numpy(dtype=float)[known], codes[known],
                                        search_crit, n_classes,
                                        sample_weight=weights[known], min_samples_leaf=leaf)
        curve = curve[curve["allowed"]]
        n_all = len(curve)
        if len(curve) > MAX_THRESHOLDS:  # evenly spread, and the best kept
            keep = set(np.linspace(0, len(curve) - 1, MAX_THRESHOLDS - 1).round().astype(int))
            keep.add(int(np.argmax(curve["gain"].to_numpy())))
            curve = curve.iloc[sorted(keep)]
        column = known_values(X_encoded[:, feature])
        options = []
        for r in curve.itertuples():
            gain = r.gain * share if c45 else r.gain
            ratio = float("nan") if c45 else r.gain_ratio
            thr = spec_threshold(r.threshold, column)
            options.append(Option({"feature": name, "threshold": thr},
                                  (f"≤ {thr:.6g}", f"> {thr:.6g}"),
                                  (int(r.n_left), int(r.n_right)), float(gain), float(ratio)))
        return Offer(options, left_out, n_all)
    labels = values.to_numpy(dtype=object)[known]
    present = sorted(set(labels.tolist()), key=str)
    if getattr(model, "multiway_", False):
        row = dict(feature_order(step)).get(feature)
        if row is None or len(present) < 2:
            return Offer([], left_out, 0)
        sizes = tuple(int((labels == c).sum()) for c in present)
        return Offer([Option({"feature": name, "branches": {}}, tuple(str(c) for c in present),
                       sizes, float(row["gain"]), float(row["gain_ratio"]))], left_out, 1)
    if len(present) <= ALL_GROUPS_UP_TO:  # the first category always on the left
        groups = [(present[0], *rest) for n in range(len(present) - 1)
                  for rest in itertools.combinations(present[1:], n)]
    else:
        groups = [(c,) for c in present]
    options = []
    for group in groups:
        inside = np.isin(labels, group)
        curve = explain.threshold_curve((~inside).astype(np.float32), codes[known],
                                        search_crit, n_classes, sample_weight=weights[known])
        if curve.empty:
            continue
        r = next(curve.itertuples())
        if min(r.n_left, r.n_right) < leaf:
            continue
        rest = [c for c in present if c not in group]
        options.append(Option({"feature": name, "categories": [_plain(c) for c in group]},
                              (_group(group), _group(rest)), (int(r.n_left), int(r.n_right)),
                              float(r.gain * share if c45 else r.gain),
                              float("nan") if c45 else float(r.gain_ratio)))
    options.sort(key=lambda o: -o.gain)
    return Offer(options, left_out, len(options))


def _group(labels) -> str:
    names = [str(v) for v in labels]
    return names[0] if len(names) == 1 else "{" + ", ".join(names) + "}"


# -- words -----------------------------------------------------------------------------

def number(x: float) -> str:
    """A gain as the chooser writes it (a dash for none)."""
    return "–" if x != x else f"{x:.4f}"


def feature_label(name: str, row, criterion: str, lang: str = "en") -> str:
    """A feature in the list, with its best split's number at the node."""
    value = row["gain_ratio"] if criterion == "gain_ratio" else row["gain"]
    return t(lang, f"{short(name, 40)} · best {gain_word(criterion, lang)} {number(value)}",
             f"{short(name, 40)} · 最佳{gain_word(criterion, lang)} {number(value)}")


def option_label(option: Option, criterion: str, lang: str = "en") -> str:
    """A split in the list: its branches, its number and the rows per branch."""
    sides = " | ".join(short(b, 30) for b in option.branches)
    if "branches" in option.split:
        sides = t(lang, f"one branch per value ({short(sides, 60)})",
                  f"每个取值一个分支（{short(sides, 60)}）")
    sizes = "/".join(str(n) for n in option.sizes)
    return (f"{sides} · {gain_word(criterion, lang)} {number(option.score(criterion))}"
            + t(lang, f" · rows {sizes}", f" · 样本 {sizes}"))


def best_phrase(step, lang: str = "en") -> str:
    """The algorithm's own split at ``step``'s node, in Markdown."""
    row = best_row(step)
    if row is None:
        return t(lang, "no split", "没有划分")
    name = f"**{md(short(row['feature'], 50))}**"
    if row["kind"] == "numeric":
        return f"{name} ≤ {float(row['threshold']):.4g}"
    return f"{name}: {md(short(row['children'], 60))}"


def comparison(option: Option, step, criterion: str, lang: str = "en") -> str:
    """The pick's number next to the algorithm's best at ``step``'s node, in
    Markdown."""
    best = best_row(step)
    word = gain_word(criterion, lang)
    mine = option.score(criterion)
    if best is None:
        return t(lang, f"Your split: **{word} {number(mine)}**", f"你的划分：**{word} {number(mine)}**")
    theirs = float(best["gain_ratio"] if criterion == "gain_ratio" else best["gain"])
    gap = "" if not abs(mine - theirs) >= 5e-5 else f" ({mine - theirs:+.4f})"
    return t(lang, f"Your split: **{word} {number(mine)}**{gap} · the algorithm's best: "
                   f"**{word} {number(theirs)}**, {best_phrase(step, lang)}",
             f"你的划分：**{word} {number(mine)}**{gap} · 算法的最佳划分："
             f"**{word} {number(theirs)}**，{best_phrase(step, lang)}")


def node_heading(step, lang: str = "en") -> str:
    """What the chooser is about: the node the algorithm splits next."""
    return t(lang, f"**Node #{step.node}** ({step.n_node_samples:,} rows) splits next. "
                   "Choose its split:",
             f"下一步划分 **结点 #{step.node}**（{step.n_node_samples:,} 个样本）。"
             "请选择它的划分：")


def left_out_caption(n: int, c45: bool, lang: str = "en") -> str:
    """The note on rows without a value of the feature."""
    if c45:
        return t(lang, f"{n} row(s) here have no value of this feature: the gains are the "
                       "known rows' gains times their weight share (C4.5's rule).",
                 f"此处有 {n} 个样本缺少该特征的取值：增益是有取值样本的增益乘以它们的"
                 "权重占比（C4.5 的规则）。")
    return t(lang, f"{n} row(s) here have no value of this feature; the gains in the list "
                   "leave them out (the tree sends them to the side of larger gain).",
             f"此处有 {n} 个样本缺少该特征的取值；列表中的增益未计入它们（决策树把它们"
             "分到增益更大的一侧）。")


#: The chooser's fixed texts: name -> (English, Chinese).
TEXTS = {
    "button": ("Choose the split", "手动选择划分"),
    "feature": ("Feature", "特征"),
    "threshold": ("Threshold (x ≤ t goes left)", "阈值（x ≤ t 的样本进入左分支）"),
    "groups": ("Categories going left | right", "进入左分支 | 右分支的类别"),
    "apply": ("Split here", "按此划分"),
    "reset": ("Back to the algorithm's tree", "回到算法生成的树"),
    "download": ("Forced splits (JSON)", "强制划分（JSON）"),
    "done": ("The tree is fully grown: step back to a node to choose its split.",
             "决策树已经长完：退回到某一步，才能为那个结点选择划分。"),
    "none": ("No feature can split this node.", "没有特征能划分这个结点。"),
    "in_use": ("Splits chosen by hand are in use: the first {n} splits are fixed, the rest "
               "grows as the algorithm chooses.",
               "正在使用手动选择的划分：前 {n} 次划分已固定，其余由算法生长。"),
    "how": ("The split is made at this step and growth goes on from it, with Next and Play, "
            "or by hand again. The steps before it stay as they are.",
            "该结点按此划分，之后用“下一步”“播放”或再次手动选择继续生长；之前的步骤保持不变。"),
    "not_here": ("Manual splits need the exact search: the histogram splitter and J48 "
                 "cannot take them.",
                 "手动划分需要精确搜索：直方图划分器和 J48 不支持。"),
    "dropped": ("The splits chosen by hand do not fit this data and these settings, so the "
                "algorithm's tree is shown: {why}",
                "手动选择的划分不适用于当前的数据和参数，因此显示算法生成的树：{why}"),
    "other_data": ("The splits chosen by hand were for another dataset; they were dropped.",
                   "手动选择的划分属于另一个数据集，已被舍弃。"),
    "unwritable": ("This node lies below a split of known against missing values, which a "
                   "forced split cannot write: it cannot be chosen by hand.",
                   "该结点位于“已知值对缺失值”的划分之下，强制划分无法表示这种划分："
                   "不能手动选择。"),
    "more": ("{shown} of {total} thresholds are listed (evenly spread, the best included).",
             "列出了 {total} 个阈值中的 {shown} 个（均匀选取，包括最佳阈值）。"),
}


def words(name: str, lang: str = "en", **values) -> str:
    """One of :data:`TEXTS` in ``lang``, with ``values`` filled in."""
    return text(TEXTS, name, lang).format(**values)
