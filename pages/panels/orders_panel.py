"""Depth-first against breadth-first (and best-first) growth, for the current
data and the Grow page's parameters: a panel to call from a tab.

``growth_orders_panel()`` draws into the current container; it never calls
``st.set_page_config`` or ``require_frame``, so any page can embed it (the
Grow page in a tab, the Learn page under "Growth order").  Its widget
state is ``ord_budget`` (the leaf budget) and ``ord_pair`` (which two orders
are drawn side by side), both kept in the URL.
"""

from __future__ import annotations

import streamlit as st

from dtree.views import orders
from dtree.views.orders import ORDERS
from dtree.views.links import md
from dtree.views.vocabulary import growth_name
from pages.state.current_tree import current_fit
from pages.state.session import lang, said, tr


def url_choice(label, options, *, key, default, **kwargs):
    """A segmented control whose *option* (not its translated label) is kept
    in the URL as ``?key=option``.

    ``bind="query-params"`` would store the label that ``format_func`` shows,
    which changes with the interface language, so these widgets sync the URL
    themselves: the URL's value is taken when the widget first appears in the
    session, and the current value is written back on every run.
    """
    state = st.session_state
    if key not in state:
        wanted = st.query_params.get(key)
        state[key] = wanted if wanted in options else default
    value = st.segmented_control(label, options, key=key, required=True, **kwargs)
    value = default if value is None else value
    st.query_params[key] = value
    return value


def _order_name(growth) -> str:
    return growth_name(growth, lang())


PAIRS = ("depth_first:breadth_first", "depth_first:best_first", "breadth_first:best_first")


def _pair_name(pair) -> str:
    a, b = pair.split(":")
    return tr(f"{_order_name(a)} vs {_order_name(b)}", f"{_order_name(a)} 对 {_order_name(b)}")


def _node_list(numbers) -> str:
    return ", ".join(f"#{n}" for n in numbers) if numbers else tr("none", "无")


def _graph(dot):
    st.graphviz_chart(dot, width="content")


def _expansions(comparison):
    """The order of the splits, one table per growth order."""
    columns = st.columns(len(comparison.runs))
    for column, growth in zip(columns, comparison.runs):
        rows = orders.expansion_rows(comparison, growth)
        with column:
            st.markdown(f"**{_order_name(growth)}**")
            if not rows:
                st.caption(tr("No split.", "没有分裂。"))
                continue
            st.dataframe(
                [{tr("step", "步"): r["k"], tr("node", "结点"): f"#{r['node']}",
                  tr("depth", "深度"): r["depth"], tr("split", "分裂"): r["split"]}
                 for r in rows],
                hide_index=True, height="auto" if len(rows) <= 10 else 440)


def growth_orders_panel():
    """The panel: a leaf budget, the verdict, the trees and the order of the
    splits of each growth order."""
    st.markdown(tr(
        "**Does the order of growth change the tree?** (an exercise on "
        "growth orders) Depth-first growth finishes the first branch before the next; "
        "breadth-first growth splits a whole level, left to right, before going "
        "deeper; best-first growth always splits the leaf with the largest "
        "improvement next (scikit-learn's choice when `max_leaf_nodes` is set).",
        "**生长顺序会改变决策树吗？**（关于生长顺序的练习）深度优先生长先把第一个分支长完再长下一个；"
        "广度优先生长先从左到右分裂完一整层，再往下一层；最佳优先生长每次分裂改进最大的叶结点"
        "（设置 `max_leaf_nodes` 时 scikit-learn 的做法）。"))
    budget = st.number_input(
        tr("Leaf budget max_leaf_nodes (empty: no budget)",
           "叶结点预算 max_leaf_nodes（留空：不限）"),
        min_value=2, max_value=10_000, value=None, step=1, key="ord_budget",
        placeholder=tr("no budget", "不限"), bind="query-params", width=360,
        help=tr("Every order then stops after max_leaf_nodes − 1 splits. The other "
                "parameters are the Grow page's.",
                "每种顺序都在 max_leaf_nodes − 1 次分裂后停止。其余参数取自“生长”页。"))
    budget = None if budget is None else int(budget)
    models = {}
    for growth in ORDERS:
        fit, error = current_fit(growth=growth, max_leaf_nodes=budget)
        if error:
            st.error(tr("The trees could not be grown: ", "无法生成决策树：") + md(said(error)),
                     icon=":material/error:")
            return
        models[growth] = fit.model
    comparison = orders.compare_fitted(models, budget)
    binding = any("leaf budget" in set(run.tree.stop_reason.tolist())
                  for run in comparison.runs.values())
    n_nodes = comparison.n_nodes()
    if budget is None or not binding:
        _same_tree(comparison, budget, n_nodes)
    else:
        _budget_trees(comparison, budget)
    st.markdown("**" + tr("The order of the splits", "分裂的先后顺序") + "**")
    st.caption(tr(
        "Nodes are numbered in pre-order across the trees compared, so the same number "
        "is the same node (the same path from the root) in every tree.",
        "结点按所有参与比较的树的先序编号：同一编号在每棵树中都是同一个结点（从根出发的路径相同）。"))
    sequences = {tuple(comparison.expansion_numbers(g)) for g in comparison.runs}
    if len(sequences) == 1 and budget is None:
        st.caption(tr(
            "On this data the orders even split in the same sequence: at every depth at most "
            "one node can still be split. Choose e.g. Wine on the Data page to see the "
            "sequences differ, and set a leaf budget to see the trees differ.",
            "在这份数据上各顺序连分裂的先后都相同：每一层最多只有一个结点还能分裂。"
            "可在“数据”页选择例如 Wine，看分裂顺序的不同；再设置叶结点预算，看树的不同。"))
    _expansions(comparison)


def _same_tree(comparison, budget, n_nodes):
    if comparison.all_same():
        if budget is None:
            st.success(tr(
                f"With only max_depth limiting growth (no leaf budget), depth-first and "
                f"breadth-first end in the same tree: {n_nodes} nodes, identical splits. "
                "Best-first too. Each node's split depends only on the node's own rows, "
                "so the order changes the sequence of the splits, not the result.",
                f"只有 max_depth 等限制（没有叶结点预算）时，深度优先与广度优先得到同一棵树："
                f"{n_nodes} 个结点，分裂完全相同，最佳优先也一样。每个结点的分裂只取决于该结点"
                "自己的样本，所以顺序只改变分裂的先后，不改变结果。"), icon=":material/check:")
        else:
            st.success(tr(
                f"The budget of {budget} leaves is never reached: the tree has only "
                f"{comparison.n_leaves()} leaves, so every order ends in the same tree "
                f"({n_nodes} nodes, identical splits).",
                f"{budget} 个叶结点的预算没有用完：这棵树只有 {comparison.n_leaves()} 个叶结点，"
                f"所以各顺序得到同一棵树（{n_nodes} 个结点，分裂完全相同）。"),
                icon=":material/check:")
    else:
        a, b = "depth_first", "breadth_first"
        differ = sorted(comparison.canonical[p]
                        for p in comparison.only(a, b) + comparison.changed(a, b))
        st.warning(tr(
            "Here the orders end in different trees although no leaf budget applies: "
            f"nodes {_node_list(differ)} differ. This happens with splitter = random, "
            "whose random thresholds are drawn in the order the nodes are split.",
            "这里没有叶结点预算，但各顺序得到的树不同：结点 "
            f"{_node_list(differ)} 不一样。splitter = random 时会这样：随机阈值按结点被分裂的"
            "顺序抽取。"), icon=":material/warning:")
    ranks = {}
    short = {"depth_first": tr("DF", "深"), "breadth_first": tr("BF", "广"),
             "best_first": tr("Best", "优")}
    for growth, run in comparison.runs.items():
        for k, path in enumerate(run.expansions, start=1):
            ranks.setdefault(path, []).append(f"{short[growth]} {k}")
    run = comparison.runs["depth_first"]
    lines = {run.node_of(p): [" · ".join(v)] for p, v in ranks.items()
             if run.node_of(p) is not None}
    _graph(orders.orders_dot(comparison, "depth_first", label_lines=lines, lang=lang()))
    st.caption(tr(
        "DF / BF / Best k: the node is the k-th split of depth-first / breadth-first / "
        "best-first growth.",
        "深 / 广 / 优 k：该结点是深度优先 / 广度优先 / 最佳优先生长的第 k 次分裂。"))


def _budget_trees(comparison, budget):
    pair = url_choice(tr("Compare", "比较"), PAIRS, key="ord_pair", default=PAIRS[0],
                      format_func={p: _pair_name(p) for p in PAIRS}.get)
    a, b = pair.split(":")
    only_a = [comparison.canonical[p] for p in comparison.only(a, b)]
    only_b = [comparison.canonical[p] for p in comparison.only(b, a)]
    changed = [comparison.canonical[p] for p in comparison.changed(a, b)]
    if comparison.same(a, b):
        st.info(tr(
            f"With a budget of {budget} leaves, {_order_name(a)} and {_order_name(b)} "
            f"happen to split the same {budget - 1} nodes here.",
            f"预算为 {budget} 个叶结点时，{_order_name(a)}与{_order_name(b)}在这里恰好分裂了"
            f"同样的 {budget - 1} 个结点。"), icon=":material/info:")
    else:
        text = tr(
            f"With a budget of {budget} leaves every order stops after {budget - 1} "
            f"splits, and the orders pick different nodes: {_order_name(a)} split "
            f"{_node_list(only_a)}, which {_order_name(b)} did not; {_order_name(b)} split "
            f"{_node_list(only_b)}, which {_order_name(a)} did not (reddish-purple "
            "borders).",
            f"预算为 {budget} 个叶结点时，每种顺序都在 {budget - 1} 次分裂后停止，而它们选中的"
            f"结点不同：{_order_name(a)}分裂了 {_node_list(only_a)}，{_order_name(b)}没有；"
            f"{_order_name(b)}分裂了 {_node_list(only_b)}，{_order_name(a)}没有（紫红色边框）。")
        if changed:
            text += tr(f" Nodes {_node_list(changed)} are split differently.",
                       f" 结点 {_node_list(changed)} 的分裂方式不同。")
        st.warning(text, icon=":material/compare_arrows:")
    columns = st.columns(2, gap="medium")
    for column, (this, other) in zip(columns, ((a, b), (b, a))):
        run = comparison.runs[this]
        lines = {run.node_of(p): [tr(f"split {k}", f"第 {k} 次分裂")]
                 for k, p in enumerate(run.expansions, start=1)}
        with column:
            st.markdown(f"**{_order_name(this)}** · "
                        + tr(f"{run.tree.n_leaves} leaves", f"{run.tree.n_leaves} 个叶结点"))
            # left to right and without the impurity line: two trees side by
            # side stay readable in half the width
            _graph(orders.orders_dot(comparison, this,
                                     highlight=comparison.differing_nodes(this, other),
                                     label_lines=lines, rankdir="LR", impurity=False,
                                     lang=lang()))
