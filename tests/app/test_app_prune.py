"""The Prune page under AppTest: it runs in English and Chinese on every
built-in classification dataset and on a regression target, its widgets drive
the trees (alpha, steps, toggles, views), and bad states give a message."""

import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.apptest import APP, assert_clean

PRUNE, DATA = "pages/prune.py", "pages/data.py"
GREY = re.compile(r'^\d+ \[fillcolor="#EEEEEE"', re.M)


def start(**state):
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in state.items():
        at.session_state[key] = value
    at.run().run()
    at.switch_page(PRUNE).run()
    assert_clean(at)
    return at


def dots(at):
    return [g.proto.spec for g in at.get("graphviz_chart")]


def n_nodes(spec):
    return len(re.findall(r"^\d+ \[label=", spec, flags=re.M))


def view(at, name):
    at.button_group(key="prune_view").set_value(name).run()
    assert_clean(at)
    return at


def texts(at):
    return " ".join(m.value for m in at.markdown) + " ".join(i.value for i in at.info)


def test_cost_complexity_view_in_english():
    at = start()
    assert at.title[0].value == "Prune"
    charts = at.get("plotly_chart")
    assert len(charts) == 3
    pruned, full = dots(at)
    slider = at.select_slider(key="prune_alpha")
    assert slider.options[0] == "0" and len(slider.options) > 2
    # the default is the 1-SE choice: the pruned tree is smaller, the rest greyed
    assert n_nodes(pruned) < n_nodes(full) == len(GREY.findall(full)) + n_nodes(pruned)
    assert "1-SE rule" in texts(at)
    assert any("weakest link" in c for t in at.table for c in t.value.columns)


def test_moving_alpha_prunes_more():
    at = start()
    labels = at.select_slider(key="prune_alpha").options
    sizes = []
    for label in labels:
        at.select_slider(key="prune_alpha").set_value(label).run()
        assert_clean(at)
        pruned, full = dots(at)
        sizes.append(n_nodes(pruned))
        assert n_nodes(full) - len(GREY.findall(full)) == n_nodes(pruned)
    # every alpha of the slider gives its own, smaller tree, down to the root
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
    assert sizes[-1] == 1


def test_one_se_and_zero_buttons():
    at = start()
    default = at.select_slider(key="prune_alpha").value
    at.button(key="prune_use_0").click().run()
    assert_clean(at)
    assert at.select_slider(key="prune_alpha").value == 0.0
    pruned, full = dots(at)
    assert pruned.count("[label=") == full.count("[label=") and not GREY.findall(full)
    at.button(key="prune_use_1se").click().run()
    assert at.select_slider(key="prune_alpha").value == default
    at.button(key="prune_use_min").click().run()
    assert_clean(at)
    assert not at.warning  # no "default value and Session State" warning


def test_steps_next_previous_reset_and_ghost():
    at = view(start(), "steps")
    first = dots(at)[0]
    at.button(key="prune_next").click().run()
    assert_clean(at)
    second = dots(at)[0]
    assert second != first and n_nodes(second) < n_nodes(first)
    assert 'color="#D55E00"' in second  # the node collapsed in this step
    assert at.slider(key="prune_step").value == 1
    assert any(r"\frac{R(t) - R(T_t)}{|T_t| - 1}" in m.value for m in at.latex)
    assert any("Step 1 of" in m.value for m in at.markdown)
    at.button(key="prune_next").click().run()
    at.button(key="prune_prev").click().run()
    assert dots(at)[0] == second
    at.toggle(key="prune_ghost").set_value(True).run()
    assert_clean(at)
    ghost = dots(at)[0]
    assert n_nodes(ghost) == n_nodes(first) and GREY.findall(ghost)
    at.button(key="prune_reset").click().run()
    assert at.slider(key="prune_step").value == 0
    at.slider(key="prune_step").set_value(at.slider(key="prune_step").max).run()
    assert_clean(at)
    assert n_nodes(dots(at)[0]) == n_nodes(first)  # ghost: the full tree, all grey but root
    at.toggle(key="prune_ghost").set_value(False).run()
    assert n_nodes(dots(at)[0]) == 1


def test_rep_and_pep_side_by_side():
    at = view(start(), "rep_pep")
    rep, pep = dots(at)
    assert n_nodes(rep) >= 1 and n_nodes(pep) >= 1
    assert "the test split" in texts(at)
    columns = [list(t.value.columns) for t in at.table]
    assert any("errors as leaf" in c for c in columns)
    assert any("E(T_t)+SE" in c for c in columns)
    assert any(r"\mathrm{SE}(T_t)" in m.value for m in at.latex)
    choice = at.selectbox(key="prune_pep_node")
    assert choice.value == 0 and choice.options[0] == "#0"  # PEP starts at the root
    before = [m.value for m in at.latex]
    choice.set_value(int(choice.options[1].lstrip("#"))).run()
    assert_clean(at)
    assert [m.value for m in at.latex] != before


def test_full_tree_toggle():
    at = start(max_depth=2)
    full_tree = dots(at)[1]
    at.toggle(key="prune_full").set_value(False).run()
    assert_clean(at)
    limited = dots(at)[1]
    assert n_nodes(limited) == 5 < n_nodes(full_tree)  # Iris at depth 2: 2 splits, 3 leaves


def test_chinese():
    at = start(lang="zh")
    assert at.title[0].value == "剪枝"
    assert "1-SE 规则" in texts(at)
    assert any("最弱环节" in c for t in at.table for c in t.value.columns)
    for name in ("steps", "rep_pep"):
        view(at, name)
    assert "错误率降低剪枝" in " ".join(h.value for h in at.subheader)
    assert "悲观剪枝" in " ".join(h.value for h in at.subheader)
    at.toggle(key="prune_full").set_value(False).run()
    assert_clean(at)


def test_regression_target():
    at = start(target="petal length (cm)")
    assert "均方误差" not in texts(at)
    error_chart = at.get("plotly_chart")[2].proto.spec
    assert "mean squared error" in error_chart
    view(at, "steps")
    at.button(key="prune_next").click().run()
    assert_clean(at)
    assert any("MSE" in m.value for m in at.latex)
    view(at, "rep_pep")
    assert any("classification trees only" in i.value for i in at.info)
    tables = [t.value for t in at.table] + [d.value for d in at.dataframe]
    assert any("squared error as leaf" in c for t in tables for c in t.columns)


def test_single_leaf_tree_gives_a_message():
    at = start(min_samples_split=10_000)
    assert any("nothing to prune" in i.value for i in at.info)
    assert not at.get("graphviz_chart")


def test_no_test_split():
    at = start(test_size=0.0)
    spec = at.get("plotly_chart")[2].proto.spec
    assert '"name":"test"' not in spec.replace(" ", "")
    view(at, "rep_pep")
    assert any("test fraction above 0" in i.value for i in at.info)


@pytest.mark.parametrize("dataset", ["Wine", "Cats (lecture example)"])
def test_other_datasets(dataset):
    at = AppTest.from_file(APP, default_timeout=120).run().run()
    at.switch_page(DATA).run()
    at.selectbox(key="builtin").set_value(dataset).run()
    at.switch_page(PRUNE).run()
    assert_clean(at)
    assert dataset.split()[0] in texts(at)
    assert len(dots(at)) == 2
    for name in ("steps", "rep_pep", "ebp", "ccp"):
        view(at, name)
    at.session_state["lang"] = "zh"
    at.run()
    assert_clean(at)


def test_ebp_view_steps_through_decisions():
    at = view(start(), "ebp")
    assert "Error-based pruning" in " ".join(h.value for h in at.subheader)
    (tree,) = dots(at)
    assert n_nodes(tree) >= 1
    assert any(r"U_{CF}(E, N)" in m.value for m in at.latex)
    columns = [list(t.value.columns) for t in at.table] + \
        [list(d.value.columns) for d in at.dataframe]
    assert any("U_CF" in c and "largest branch" in c for c in columns)
    # the last decision (the root's) is shown first, with its own numbers
    slider = at.slider(key="prune_ebp_step")
    n = int(slider.max)
    assert slider.value == n and any(f"Decision {n} of {n}" in m.value for m in at.markdown)
    before = [m.value for m in at.latex]
    at.button(key="prune_ebp_first").click().run()
    assert_clean(at)
    assert at.slider(key="prune_ebp_step").value == 1
    assert [m.value for m in at.latex] != before
    at.button(key="prune_ebp_next").click().run()
    assert at.slider(key="prune_ebp_step").value == min(2, n)
    # a smaller CF prunes at least as much here (Iris: no raising either way)
    leaves = {}
    for cf in (0.5, 0.05):
        at.button_group(key="prune_cf").set_value(cf).run()
        assert_clean(at)
        leaves[cf] = n_nodes(dots(at)[0])
    assert leaves[0.05] <= leaves[0.5]
    at.toggle(key="prune_raising").set_value(False).run()
    assert_clean(at)


def test_ebp_view_in_chinese_and_for_regression():
    at = view(start(lang="zh"), "ebp")
    assert "基于错误的剪枝" in " ".join(h.value for h in at.subheader)
    assert any("第" in m.value and "个决定" in m.value for m in at.markdown)
    at = view(start(target="petal length (cm)"), "ebp")
    assert any("classification trees only" in i.value for i in at.info)
    at = view(start(present=True), "ebp")  # presenter mode: the formula in a popover
    assert len(dots(at)) == 1
    at.button(key="prune_ebp_prev").click().run()
    assert_clean(at)


def test_a_full_tree_too_large_to_draw_whole_is_drawn_on_request():
    """Above viz.MAX_DRAWN_NODES nodes the greyed full tree waits for its
    switch (laying it out is the slowest part of the page); the pruned tree
    is drawn at once, and the switch brings the greyed tree as before."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(1500, 4)).round(3), columns=list("abcd"))
    frame["label"] = np.where(frame.a + rng.normal(scale=1.5, size=1500) > 0, "yes", "no")
    at = start()
    at.switch_page(DATA).run()
    at.button_group(key="source").set_value("Upload a file").run()
    at.file_uploader(key="upload").set_value(
        ("noisy.csv", frame.to_csv(index=False).encode(), "text/csv")).run()
    at.switch_page(PRUNE).run()
    assert_clean(at)
    switch = at.toggle(key="prune_full_drawn")
    assert "nodes" in switch.label and not switch.value
    (pruned,) = dots(at)  # the full tree is not drawn yet
    switch.set_value(True).run()
    assert_clean(at)
    pruned_again, full = dots(at)
    assert pruned_again == pruned
    assert n_nodes(full) > n_nodes(pruned) and GREY.search(full)
    # drawn alone (G), the full tree keeps its switch: the pruned tree until asked
    at.button(key="prune_trees_switch").click().run()
    assert_clean(at)
    assert dots(at) == [full]
    at.toggle(key="prune_full_drawn").set_value(False).run()
    assert dots(at) == [pruned]


def test_a_full_tree_small_enough_is_drawn_without_asking():
    at = start()
    assert not at.get("toggle") or all(t.key != "prune_full_drawn" for t in at.toggle)
    assert len(dots(at)) == 2


def test_presenter_mode_draws_the_full_tree_alone_with_the_pruned_branches_greyed():
    """Presenter mode's default: one tree, the full one with its pruned
    branches greyed, in brief boxes with g(t); the switch (G) puts the pruned
    tree beside it, and back.  Out of presenter mode the two trees are the
    default, and the switch draws the one."""
    at = start(present=True)
    (one,) = dots(at)
    assert GREY.search(one) and "g(t) = " in one and "gini =" not in one
    assert "(pruned here)" in one
    at.button(key="prune_trees_switch").click().run()
    assert_clean(at)
    assert at.session_state["prune_trees"] == "two"
    pruned, full = dots(at)
    assert n_nodes(pruned) < n_nodes(full) and GREY.search(full)
    at.button(key="prune_trees_switch").click().run()
    assert len(dots(at)) == 1
    at = start()
    pruned, full = dots(at)
    assert "gini = " in full  # (every detail out of presenter mode)
    at.button(key="prune_trees_switch").click().run()
    assert_clean(at)
    (one,) = dots(at)
    assert one == full
