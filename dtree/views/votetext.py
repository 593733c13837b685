"""A class vote on the next split: what the vote offers, what the reveal
shows, and its words in English and Chinese.

The vote asks "which feature will node #n split on?" about the node the
tree splits next.  Its options are the features (a numeric one with a few
ranges of the node's own values for its threshold); the reveal puts the
votes next to the node's real ranking, its candidate table (gain, or gain
ratio under C4.5), and marks the winner.  No Streamlit: the pages draw it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from .vocabulary import t

#: At most this many features are offered (a phone's list stays short).
MAX_FEATURES = 64


class VoteSpec(NamedTuple):
    """What a vote on one node offers."""

    node: int  # the node id voted on
    step: int  # the step at which it is split next
    options: tuple  # feature names, in the table's order
    numeric: tuple  # the numeric ones among them
    counts: tuple  # the node's class counts (regression: its size)


def next_node(model, step: int) -> int | None:
    """The id of the node split by step ``step + 1`` (None at the last step)."""
    steps = model.steps_
    return int(steps[step].node) if step < len(steps) else None


def vote_spec(model, step: int) -> VoteSpec | None:
    """The vote on the node the tree splits after ``step`` (None when the
    tree is grown)."""
    node = next_node(model, step)
    if node is None:
        return None
    tree = model.tree_at(step)
    index = int(np.flatnonzero(tree.node_ids == node)[0])
    names = [str(n) for n in model.feature_names_][:MAX_FEATURES]
    categorical = list(model.is_categorical_)[:MAX_FEATURES]
    value = tree.value[index, 0] * tree.weighted_n_node_samples[index]
    counts = tuple(float(v) for v in value) if hasattr(model, "classes_") else (
        float(tree.weighted_n_node_samples[index]),)
    return VoteSpec(node, step, tuple(names),
                    tuple(n for n, c in zip(names, categorical) if not c), counts)


def node_values(model, step: int, X_encoded, feature: str):
    """The known values of ``feature`` among the training rows (encoded as
    the tree reads them, ``X_encoded``) at the node split after ``step``."""
    tree = model.tree_at(step)
    node = next_node(model, step)
    index = int(np.flatnonzero(tree.node_ids == node)[0])
    rows = tree.apply(X_encoded) == index
    column = list(model.feature_names_).index(feature)
    values = np.asarray(X_encoded[rows, column], dtype=np.float32)
    values = values[np.isfinite(values)]
    # the float32 values as written (1.55, not 1.5500000119)
    return values.astype(str).astype(np.float64)


def ranking(model, node: int) -> list:
    """[(feature, score)] of the node's candidate table (each feature's best
    split), in the order the algorithm ranks them: the tree's choice first,
    then the eligible ones (C4.5 weighs only splits with at least the
    average gain) by score, then the others; the score is the gain ratio
    under C4.5, else the gain (impurity decrease)."""
    return [(feature, score) for feature, score, _ in _ranked(model, node)]


def _ranked(model, node: int) -> list:
    """[(feature, score, eligible)], as :func:`ranking` orders them."""
    table = model.candidates(node)
    if table is None:
        return []
    column = "gain_ratio" if model.criterion_ == "gain_ratio" else "gain"
    best = (table.sort_values(["chosen", "eligible", column], ascending=False, kind="stable")
            .drop_duplicates("feature"))
    return [(str(f), float(s), bool(e)) for f, s, e in
            zip(best["feature"], best[column], best["eligible"])]


def score_name(model, lang: str = "en") -> str:
    if model.criterion_ == "gain_ratio":
        return t(lang, "gain ratio", "信息增益比")
    return t(lang, "gain", "增益")


def reveal_table(model, node: int, tally: dict, lang: str = "en") -> pd.DataFrame:
    """The ranking next to the votes: one row per feature, best first, the
    tree's choice marked."""
    chosen = winner(model, node)
    total = sum(tally.values()) or 1
    rows = []
    for feature, score, eligible in _ranked(model, node):
        votes = int(tally.get(feature, 0))
        row = {
            t(lang, "feature", "特征"): ("✓ " if feature == chosen else "") + feature,
            score_name(model, lang): round(score, 4),
            t(lang, "votes", "票数"): votes,
            t(lang, "share of votes", "得票率"): f"{100 * votes / total:.0f}%",
        }
        if model.criterion_ == "gain_ratio":  # C4.5's rule, said where it bites
            row[t(lang, "note", "说明")] = "" if eligible else t(
                lang, "gain below average", "增益低于平均")
        rows.append(row)
    return pd.DataFrame(rows)


def winner(model, node: int) -> str | None:
    """The feature the tree splits ``node`` on."""
    feature = int(model.growth_tree_.feature[node])
    return str(model.feature_names_[feature]) if feature >= 0 else None


def question(node: int, lang: str = "en") -> str:
    return t(lang, f"Which feature will node #{node} split on?",
             f"结点 #{node} 将按哪个特征划分？")


def node_rows(model, spec: VoteSpec) -> tuple[tuple[str, float], ...]:
    """The node's rows as a vote keeps them: (class, count) pairs, or one
    ("", count) pair for a regression tree."""
    if hasattr(model, "classes_"):
        return tuple((str(c), n) for c, n in zip(model.classes_, spec.counts))[:MAX_FEATURES]
    return (("", spec.counts[0]),)


def counts_line(rows, lang: str = "en") -> str:
    """The node's rows (:func:`node_rows`) in one line: its class counts, or its size."""
    if len(rows) == 1 and rows[0][0] == "":
        return t(lang, f"{_number(rows[0][1])} rows at the node",
                 f"该结点有 {_number(rows[0][1])} 个样本")
    parts = [f"{c}: {_number(n)}" for c, n in rows]
    return t(lang, "Rows at the node — ", "该结点的样本 — ") + ", ".join(parts)


def _number(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def tally_line(tally: dict, lang: str = "en") -> str:
    n = sum(tally.values())
    return t(lang, f"{n} vote{'s' if n != 1 else ''}", f"{n} 票")


def verdict(voted: str | None, chosen: str | None, lang: str = "en") -> str:
    """What a student reads after the reveal."""
    if voted is None:
        return t(lang, f"The tree chose {chosen}.", f"决策树选择了 {chosen}。")
    if voted == chosen:
        return t(lang, f"Right: the tree chose {chosen}.", f"答对了：决策树选择了 {chosen}。")
    return t(lang, f"The tree chose {chosen}; you voted {voted}.",
             f"决策树选择了 {chosen}；你投的是 {voted}。")


#: The class room's refusals in Chinese, by their code (their English is
#: the room's own: pages/room/checks.py).
REFUSALS_ZH = {
    "no_room": "没有这个代码的课堂（可能已过期或关闭）",
    "not_presenter": "只有课堂的讲者可以这样做",
    "no_vote": "这个课堂没有投票",
    "vote_closed": "投票已关闭或已揭晓",
    "bad_ballot": "所投的选项不在本次投票之中",
    "bad_voter": "投票者标识无效",
    "bad_vote": "投票需要一个结点、一个步骤、1 到 64 个不同的特征及其范围",
    "bad_ranking": "排名应为（特征，得分）对的列表",
    "bad_view": "视图应为一个小的字符串字典",
    "full": "课堂已满",
    "unavailable": "课堂存储没有响应",
}
