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
    en, zh = words.text(name, "en"), words.text(name, "zh")
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
