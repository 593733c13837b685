"""The Prune page's words, tables and marks (dtree.views.prunetext), without
Streamlit: every text has its Chinese, the sentences carry the numbers of the
pruning results, and the marks name the right nodes."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from dtree import (DecisionTreeClassifier, ccp_cross_validate, error_based_prune,
                   pessimistic_prune, pruning_sequence, reduced_error_prune)
from dtree.views.vocabulary import text
from dtree.views import prunetext as words
from dtree.views import pruneview as pv
from dtree.views.viz import JUST_SPLIT, NEXT_SPLIT

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    model = DecisionTreeClassifier(random_state=0).fit(X[::2], y[::2])
    return model, X[1::2], y[1::2], pruning_sequence(model.tree_)


@pytest.mark.parametrize("name", sorted(words.TEXTS))
def test_every_fixed_text_has_its_chinese(name):
    en, zh = text(words.TEXTS, name, "en"), text(words.TEXTS, name, "zh")
    assert en and not CJK.search(en.replace("后剪枝", "")) and CJK.search(zh)


@pytest.mark.parametrize("view", words.VIEWS)
def test_view_names(view):
    assert words.view_name(view) != words.view_name(view, "zh")


def test_shown_frame_marks_flags_and_rounds():
    frame = pd.DataFrame({"node_id": [1, 2], "g": [0.123456789, 2.0], "weakest": [True, False]})
    shown = words.shown_frame(frame)
    assert list(shown["weakest"]) == ["◀", ""]
    assert list(shown["g"]) == [pv.fmt(0.123456789), pv.fmt(2.0)]
    assert frame["weakest"].dtype == bool  # the frame itself is left alone


def test_step_sentences_and_marks(iris):
    model, *_, seq = iris
    n = len(seq)
    assert f"Step 0 of {n}" in words.step_sentence(seq, 0)
    s = seq.steps[0]
    assert f"node #{s.node_id}" in words.step_sentence(seq, 1)
    assert f"结点 #{s.node_id}" in words.step_sentence(seq, 1, "zh")
    assert words.step_marks(seq.steps, 0, n) == {s.node_id: NEXT_SPLIT}
    assert words.step_marks(seq.steps, n, n) == {seq.steps[-1].node_id: JUST_SPLIT}
    assert "complete" in words.next_step_sentence(seq, n)
    assert f"#{seq.steps[1].node_id}" in words.next_step_sentence(seq, 1)


def test_alpha_marks_name_the_collapsed_nodes_and_the_weakest_link(iris):
    model, *_, seq = iris
    k = 2
    table = seq.table_at(k)
    collapsed = words.collapsed_at(seq, k)
    assert set(collapsed) <= {int(s.node_id) for s in seq.steps[:k]} and collapsed
    highlight, weakest = words.alpha_marks(collapsed, table)
    assert [n for n, c in highlight.items() if c == NEXT_SPLIT] == \
        [int(weakest["node_id"].iloc[0])]
    g = words.g_of(table)
    assert list(g) == list(table["node_id"].astype(int))
    np.testing.assert_array_equal(list(g.values()), table["g"])
    text = words.at_alpha_sentence("0.01", k, seq.tree_at(k), seq.tree, "en")
    assert f"{k} weakest-link collapse(s)" in text and f"{seq.tree.n_leaves} and" in text


def test_one_se_sentence_names_both_choices(iris):
    model, *_ = iris
    X, y = load_iris(return_X_y=True)
    cv = ccp_cross_validate(model, X[::2], y[::2], cv=3, random_state=0)
    best, limit, chosen = pv.one_se_rule(cv)
    text = words.one_se_sentence(cv)
    assert text.startswith("**1-SE rule**") and f"= {pv.fmt(limit)} has" in text
    assert f"{int(cv.iloc[chosen].n_leaves)} leaves, α = {pv.fmt(cv.iloc[chosen].alpha)}" in text
    assert "3-fold" in words.cv_caption(3, 75, True) and "No test split" in \
        words.cv_caption(3, 75, False)


def test_rep_pep_and_ebp_sentences(iris):
    model, X_test, y_test, seq = iris
    X, y = load_iris(return_X_y=True)
    rep = reduced_error_prune(model, X_test, y_test)
    cut = words.pruned_ids(rep.record)
    assert cut == [int(v) for v, p in zip(rep.record["node_id"], rep.record["pruned"]) if p]
    assert words.rep_summary(rep, seq.tree, True).startswith(f"{len(cut)} node(s) pruned")
    pep = pessimistic_prune(model)
    assert f"→ {pep.tree.n_leaves} leaves" in words.pep_summary(pep, seq.tree)
    assert words.pep_verdict(True) == "→ prune" and words.rep_verdict(False, "zh") == "→ 保留（子树更好）"
    ebp = error_based_prune(model, X[::2], y[::2], 0.25, True)
    decisions = pv.ebp_decisions(ebp.record)
    summary = words.ebp_summary(0.25, decisions, seq.tree, ebp.tree)
    assert summary.startswith("CF = 0.25:") and f"→ {ebp.tree.n_leaves} leaves" in summary
    marks = words.ebp_marks(ebp.tree, decisions)
    assert set(marks) <= {int(v) for v in ebp.tree.node_ids}
    for k, (_, row) in enumerate(decisions.iterrows(), 1):
        assert words.ebp_sentence(row, k, len(decisions)).startswith(
            f"**Decision {k} of {len(decisions)}:** node #{int(row['node_id'])}")


NUMBERS = re.compile(r"\d+(?:\.\d+)?")


@pytest.mark.parametrize("bar", sorted(words.STEP_BUTTONS))
def test_step_buttons_have_four_labels_in_both_languages(bar):
    en, zh = words.step_labels(bar), words.step_labels(bar, "zh")
    assert len(en) == len(zh) == 4 and len(set(en)) == 4
    for e, z in zip(en, zh):
        assert not CJK.search(e) and CJK.search(z)
        assert NUMBERS.findall(e) == NUMBERS.findall(z)
    assert words.step_labels("alpha")[0] == "No pruning (α = 0)"


def test_rep_and_pep_marks_and_rows(iris):
    model, X_test, y_test, _ = iris
    rep = reduced_error_prune(model, X_test, y_test)
    kept = {int(v) for v in rep.tree.node_ids}
    marks = words.rep_marks(rep)
    assert set(marks) == set(words.pruned_ids(rep.record)) & kept
    assert set(marks) <= kept and set(marks.values()) <= {JUST_SPLIT}
    pep = pessimistic_prune(model)
    assert words.pep_marks(pep) == {n: JUST_SPLIT for n in words.pruned_ids(pep.record)}
    for record in (rep.record, pep.record):
        for nid in record["node_id"]:
            row = words.record_row(record, int(nid))
            assert row["node_id"] == nid
            assert row["pruned"] == bool(record.loc[record["node_id"] == nid, "pruned"].iloc[0])


@pytest.mark.parametrize("n_train, options, default", [
    (100, [3, 5, 10], 5), (7, [3, 5], 5), (4, [3], 3), (2, [2], 2)])
def test_fold_options(n_train, options, default):
    assert words.fold_options(n_train) == (options, default)


def test_the_pages_sentences_with_their_numbers(iris):
    model, *_, seq = iris
    tree = seq.tree
    about = words.about_tree("a*b", "gini", tree, 1234, escape=lambda s: f"«{s}»")
    assert about == (f"**«a*b»** · criterion «gini» · {tree.n_leaves} leaves, "
                     f"{tree.node_count} nodes, depth {tree.max_depth} · 1,234 training rows")
    zh = words.about_tree("t", "gini", tree, 1234, lang="zh")
    assert f"{tree.n_leaves} 个叶结点，{tree.node_count} 个结点" in zh and "1,234 个训练样本" in zh
    assert words.single_leaf("pure").startswith("The tree is a single leaf (pure): ")
    assert words.single_leaf("纯结点", "zh").startswith("这棵树只有一个叶结点（纯结点）")
    assert words.depth_cut(6).startswith("Large tree: only the first 6 levels are drawn")
    assert words.depth_cut(6, "zh").startswith("树很大：只画出前 6 层")
    assert words.cv_spinner(5) == "Cross-validating: growing and pruning 5 trees…"
    assert words.cv_spinner(5, "zh") == "交叉验证中：生长并剪枝 5 棵树…"
    assert words.choice_labels("0.01", "0.002") == ("Use the 1-SE choice (α = 0.01)",
                                                    "Use the minimum CV error (α = 0.002)")
    assert words.choice_labels("0.01", "0.002", "zh")[1] == "采用最小 CV 误差（α = 0.002）"
    assert words.counter(3, 9) == "**step 3 / 9**"
    assert words.counter(3, 9, "decision", "zh") == "**第 3 / 9 个决定**"
