"""The Grow page's sidebar: the tree's parameters and the layout, and the
notice above the tree that a large table is grown with the hist splitter.

Its widgets keep their values in the session (``persist_state="session"``),
where :func:`pages.state.parameters.chosen_parameters` reads them on every
page.
"""

import streamlit as st

from dtree.tables.choices import DEFAULTS, GROWTH, HIST_ROWS, hist_applies
from dtree.tables.dataset import Loaded
from dtree.tables.prepare import PRESETS, criteria_for
from dtree.views.vocabulary import EDGE_WIDTH, preset_summary, text
from pages.state.parameters import criterion_name, growth_name
from pages.state.session import lang, tr


def sidebar_controls(task, preset):
    """The sidebar widgets (their values are read by
    :func:`pages.state.parameters.chosen_parameters`)."""
    no_limit = tr("no limit", "不限")
    with st.sidebar:
        st.header(tr("Tree", "决策树"))
        if task == "classification":
            st.selectbox(tr("Algorithm", "算法"), list(PRESETS), key="preset",
                         persist_state="session",
                         help=tr("ID3 = information gain, C4.5 = gain ratio, CART = binary "
                                 "splits with any criterion.",
                                 "ID3 = 信息增益，C4.5 = 信息增益比，CART = 二叉划分，"
                                 "可用任意划分准则。"))
            st.caption(preset_summary(preset, lang()))
        else:
            st.selectbox(tr("Algorithm", "算法"), ["CART"], key="preset_regression",
                         disabled=True,
                         help=tr("Regression trees are CART trees.", "回归树都是 CART 树。"))
        # option labels made here: format_func must not read the session
        # (AppTest calls it outside the script run)
        criteria = list(criteria_for(task, preset))
        st.selectbox(tr("Criterion", "划分准则"), criteria, key="criterion",
                     format_func={c: criterion_name(c) for c in criteria}.get,
                     persist_state="session")
        splitters = {"best": tr("best", "best（最佳阈值）"),
                     "random": tr("random", "random（随机阈值）"),
                     "hist": tr("hist", "hist（直方图）")}
        st.selectbox(tr("Splitter", "划分方式"), list(splitters), key="splitter",
                     persist_state="session", format_func=splitters.get,
                     help=tr("best: every threshold is tried; random: one random threshold "
                             "per feature; hist: features binned once into at most 255 bins, "
                             "thresholds between bins (fast on large tables).",
                             "best：尝试每一个阈值；random：每个特征只随机取一个阈值；"
                             "hist：每个特征预先分成至多 255 个箱，阈值落在箱与箱之间"
                             "（大表上很快）。"))
        if st.session_state.get("splitter") == "hist" and not hist_applies(
                preset, st.session_state.get("criterion")):
            st.caption(tr("hist grows CART trees (not with absolute error): this tree uses "
                          "best.", "hist 只用于 CART 树（不含绝对误差准则）：这棵树使用 best。"))
        st.selectbox(tr("Growth order", "生长顺序"), list(GROWTH), key="growth",
                     format_func={g: growth_name(g) for g in GROWTH}.get,
                     persist_state="session",
                     help=tr("The order in which nodes are split. Best-first splits the "
                             "leaf with the largest improvement next.",
                             "结点被划分的先后顺序。最优优先：下一步划分改进量最大的叶结点。"))
        st.number_input(tr("max_depth", "max_depth（最大深度）"), 1, 64,
                        start("max_depth", DEFAULTS["max_depth"]), key="max_depth", persist_state="session", placeholder=no_limit,
                        help=tr("Clear the box for no limit.", "清空即为不限深度。"))
        st.number_input(tr("min_samples_split", "min_samples_split（划分所需最少样本数）"),
                        2, 10_000, start("min_samples_split", 2), key="min_samples_split",
                        persist_state="session")
        st.number_input(tr("min_samples_leaf", "min_samples_leaf（叶结点最少样本数）"),
                        1, 10_000, start("min_samples_leaf", 1), key="min_samples_leaf",
                        persist_state="session")
        st.number_input(tr("max_leaf_nodes", "max_leaf_nodes（最大叶结点数）"), 2, 10_000, None,
                        key="max_leaf_nodes", persist_state="session", placeholder=no_limit)
        st.number_input(tr("min_impurity_decrease",
                           "min_impurity_decrease（最小不纯度减少量）"),
                        0.0, 10.0, start("min_impurity_decrease", 0.0), 0.001, format="%.4f",
                        key="min_impurity_decrease", persist_state="session")
        st.number_input(tr("random_state", "random_state（随机种子）"), 0, 2**31 - 1,
                        start("random_state", 0), key="random_state", persist_state="session")
        st.header(tr("Display", "显示"))
        layouts = {"auto": tr("auto", "自动"), "top down": tr("top down", "自上而下"),
                   "left to right": tr("left to right", "从左到右")}
        st.radio(tr("Tree layout", "树的布局"), list(layouts), key="layout",
                 persist_state="session", format_func=layouts.get,
                 help=tr("auto: left to right when the grown tree has more than 8 leaves.",
                         "自动：生长完成的树多于 8 个叶结点时从左到右排列。"))
        st.toggle(text(EDGE_WIDTH, "option", lang()), key="edges", persist_state="session",
                  help=text(EDGE_WIDTH, "help", lang()))


def start(key: str, value):
    """A number box's first value, unless the session already holds one (a
    link's or a class room's): Streamlit warns about a box given both."""
    return "min" if key in st.session_state else value


def hist_notice(table: Loaded, params: dict) -> None:
    """Say that a large table is grown with the histogram splitter, and how to switch."""
    if params.get("splitter") != "hist" or len(table.frame) <= HIST_ROWS:
        return
    rows = len(table.frame)
    st.info(tr(f"This table has {rows:,} rows, so the tree is grown with the histogram "
               "splitter (splitter = hist): each feature is binned once into at most 255 "
               "bins, and thresholds fall between bins. Choose splitter = best in the "
               "sidebar to try every threshold (slower).",
               f"该表有 {rows:,} 行，因此用直方图划分方式（splitter = hist）生长决策树：每个特征"
               "预先分成至多 255 个箱，阈值落在箱与箱之间。在侧边栏选择 splitter = best 可尝试"
               "每一个阈值（较慢）。"), icon=":material/speed:")
