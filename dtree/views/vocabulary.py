"""The views' one vocabulary in English and Chinese (``lang="en"`` / ``"zh"``).

* :func:`t`: one of two texts, by language (``t(lang, "node", "结点")``);
* :func:`text`: an entry of a page's table of fixed texts, ``name ->
  (English, Chinese)``, in a language;
* :data:`NAMES`: the app's fixed names, each kind of name a table ``key ->
  (English, Chinese)``: the criteria (``"criterion"``: as the sidebar
  offers them; ``"criterion_short"``: in figures, headings and the
  calculators), the impurities a tree's boxes name (``"impurity"``), the
  growth orders, the tasks and the presets (``"preset"``: what each one
  means); :func:`name` looks one up, the English or else the key for a key
  the table does not know;
* :data:`STEP_CONTROLS`: the stepping bars' four controls (first, previous,
  next, last), each with its icon, its key and its name in both languages
  (their names are also ``NAMES["step_control"]``), one definition for
  every stepping bar.

The English names of the criteria and the presets' English summaries are
the tables' own (``dtree.tables.prepare``), taken from there.  The names of
the built-in datasets stay with them (``dtree.tables.dataset``), the stop
reasons with the narration (``dtree.views.narration``), and the Chinese of
the engine's coded messages is in ``dtree.views.messages``.
"""

from __future__ import annotations

from dtree.tables.prepare import CLASSIFICATION_CRITERIA, PRESETS, REGRESSION_CRITERIA

__all__ = ["t", "text", "NAMES", "STEP_CONTROLS", "name", "criterion_name", "growth_name",
           "task_name", "preset_summary", "MISSING_SPLIT", "missing_split", "missing_side", "EDGE_WIDTH"]


def t(lang: str, en: str, zh: str) -> str:
    """``zh`` for ``lang="zh"``, else ``en``."""
    return zh if lang == "zh" else en


def text(table: dict, name: str, lang: str = "en") -> str:
    """``table[name]`` (a pair ``(English, Chinese)``) in ``lang``."""
    return t(lang, *table[name])


_CRITERIA_ZH = {
    "gini": "基尼系数（Gini 指数）",
    "entropy": "信息熵（信息增益）",
    "gain_ratio": "信息增益比（C4.5）",
    "misclassification": "误分类率",
    "taylor2": "熵的二阶泰勒近似",
    "squared_error": "均方误差（方差）",
    "absolute_error": "平均绝对误差（中位数）",
    "friedman_mse": "Friedman 均方误差",
    "poisson": "泊松偏差",
}
_PRESETS_ZH = {
    "CART": "CART：二叉划分（一个阈值，或把类别分成两组），默认用基尼系数（也可选其他准则）。"
            "缺失值分到增益更大的一侧。",
    "ID3": "ID3：信息增益（信息熵）。类别特征每个取值一个分支；数值特征按阈值划分。"
           "ID3 没有处理缺失值的规则：含缺失值的样本被剔除。",
    "C4.5": "C4.5：信息增益比 = 信息增益 ÷ 分裂信息，在信息增益不低于平均值的候选划分中选取。"
            "类别特征每个取值一个分支；数值特征按阈值划分。含缺失值的样本按权重分到各分支。",
    "J48": "J48：Weka 的 C4.5（第 8 版），逐个结点一致：在信息增益不低于平均值的特征中按信息增益比"
           "选取；类别特征的每个声明取值一个分支；数值特征的阈值取训练集中的值，并带 MDL 惩罚；"
           "至少两个分支各有不少于 2 个样本（min_objects）。含缺失值的样本按权重分到各分支。",
}

#: The stepping bars' four controls, in their order: name -> (Material icon,
#: keyboard key, English, Chinese).  Every stepping bar (Grow, Compare, Prune)
#: draws them from here, so that first, previous, next and last look alike and
#: are named alike on every page; the name is also an icon-only button's
#: accessible name in presenter mode.
STEP_CONTROLS = {
    "first": (":material/first_page:", "Home", "First step", "第一步"),
    "previous": (":material/skip_previous:", "Left", "Previous step", "上一步"),
    "next": (":material/skip_next:", "Right", "Next step", "下一步"),
    "last": (":material/last_page:", "End", "Last step", "最后一步"),
}

#: The app's fixed names: kind -> {key: (English, Chinese)}.
NAMES = {
    "criterion": {key: (english, _CRITERIA_ZH[key]) for key, english in
                  {**CLASSIFICATION_CRITERIA, **REGRESSION_CRITERIA}.items()},
    "criterion_short": {
        "gini": ("Gini", "基尼系数"),
        "entropy": ("entropy", "信息熵"),
        "log_loss": ("entropy", "信息熵"),
        "gain_ratio": ("gain ratio", "信息增益比"),
        "misclassification": ("misclassification", "误分类率"),
        "taylor2": ("Taylor, second order", "二阶泰勒近似"),
        "squared_error": ("squared error", "平方误差"),
        "absolute_error": ("absolute error", "绝对误差"),
        "friedman_mse": ("Friedman MSE", "Friedman 均方误差"),
        "poisson": ("Poisson deviance", "泊松偏差"),
        # (not a criterion: the curve the impurity calculator draws beside them)
        "half_entropy": ("entropy / 2", "信息熵 / 2"),
    },
    # the impurity a tree's boxes name (dtree.views.viz.impurity_label)
    "impurity": {
        "entropy": ("entropy", "信息熵"), "gini": ("gini", "基尼系数"),
        "mse": ("mse", "均方误差"), "mae": ("mae", "平均绝对误差"),
        "error": ("error", "误分类率"), "taylor2": ("taylor2", "二阶泰勒熵"),
        "poisson": ("poisson", "泊松偏差"),
    },
    "growth": {"depth_first": ("depth-first", "深度优先"),
               "best_first": ("best-first", "最佳优先"),
               "breadth_first": ("breadth-first", "广度优先")},
    "task": {"classification": ("classification", "分类"),
             "regression": ("regression", "回归")},
    "preset": {key: (preset.summary, _PRESETS_ZH[key]) for key, preset in PRESETS.items()},
    # the stepping bars' controls (STEP_CONTROLS)
    "step_control": {key: (english, chinese)
                     for key, (_, _, english, chinese) in STEP_CONTROLS.items()},
}


def name(kind: str, key, lang: str = "en") -> str:
    """The name of ``key`` among ``NAMES[kind]`` in ``lang``; the key itself
    (as text) for one the table does not know."""
    names = NAMES[kind].get(key)
    return str(key) if names is None else t(lang, *names)


def criterion_name(criterion: str, lang: str = "en", short: bool = False) -> str:
    """A criterion's name, as the sidebar offers it ("Gini index") or, with
    ``short``, as figures and headings name it ("Gini")."""
    return name("criterion_short" if short else "criterion", criterion, lang)


def growth_name(growth: str, lang: str = "en") -> str:
    """A growth order's name ("depth-first", 深度优先...)."""
    return name("growth", growth, lang)


def task_name(task: str, lang: str = "en") -> str:
    """"classification"/"regression" in ``lang``."""
    return name("task", task, lang)


def preset_summary(preset: str, lang: str = "en") -> str:
    """What a preset (CART, ID3, C4.5, J48) means, in ``lang``."""
    return name("preset", preset, lang)


#: A split of known against missing values (scikit-learn's threshold +inf:
#: the known values go to the first child, the missing ones to the second):
#: its two sides, and the split itself.  The drawn trees say the same
#: (``dtree.export_graphviz``: "x is known" / 已知, edges known / missing).
MISSING_SPLIT = {
    "known": ("is known", "已知"),
    "missing": ("is missing", "缺失"),
    "split": ("missing / known", "缺失 / 已知"),
    "side_known": ("known", "已知"),
    "side_missing": ("missing", "缺失"),
}


def missing_split(feature: str, lang: str = "en", side: int | None = None) -> str:
    """A known-against-missing split on ``feature`` in words: the split
    ("bill_length_mm missing / known", "bill_length_mm 缺失 / 已知"), or with
    ``side`` one of its sides (0: "bill_length_mm is known", 已知; 1: "... is
    missing", 缺失)."""
    key = "split" if side is None else "known" if side == 0 else "missing"
    return f"{feature} {text(MISSING_SPLIT, key, lang)}"


def missing_side(side: int, lang: str = "en") -> str:
    """A side of a known-against-missing split, alone (an edge, a branch):
    "known" (0) or "missing" (1); 已知 / 缺失."""
    return text(MISSING_SPLIT, "side_known" if side == 0 else "side_missing", lang)


#: Edges drawn as wide as the rows that pass (the Grow page's option, the
#: line under its tree, and the option's help).
EDGE_WIDTH = {
    "option": ("Edge width: rows that pass", "边宽：经过的样本数"),
    "legend": ("Edge width ∝ rows reaching the child (root = 100%)",
               "边宽 ∝ 到达子结点的样本数（根结点 = 100%）"),
    "help": ("Draw each edge as wide as the share of the training rows that reach its "
             "child, as Orange and BigML draw trees.",
             "每条边的宽度与到达其子结点的训练样本所占比例成正比（Orange、BigML 的画法）。"),
}
