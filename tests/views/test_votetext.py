"""The class vote's numbers (dtree.views.votetext) against the tree: what a
vote on the next node offers, the node's rows, the ranking the reveal shows
(the candidate table, the tree's choice first among ties) and its words."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree.views import votetext
from dtree.views.explain import encode
from tests.helpers.app_models import app_model


@pytest.fixture(scope="module")
def penguins():
    return app_model("Penguins", "C4.5")


def test_a_vote_is_on_the_node_the_next_step_splits(penguins):
    for step in range(len(penguins.steps_)):
        spec = votetext.vote_spec(penguins, step)
        assert spec.node == penguins.steps_[step].node and spec.step == step
        assert spec.options == tuple(penguins.feature_names_)
        assert set(spec.numeric) == {f for f, c in zip(penguins.feature_names_,
                                                       penguins.is_categorical_) if not c}
        tree = penguins.tree_at(step)
        i = int(np.flatnonzero(tree.node_ids == spec.node)[0])
        assert sum(spec.counts) == pytest.approx(tree.weighted_n_node_samples[i])
    assert votetext.vote_spec(penguins, len(penguins.steps_)) is None


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 1000), share=st.floats(0, 0.99))
def test_the_node_values_are_the_rows_that_reach_it(seed, share):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(200, 3)).round(2)
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    model = DecisionTreeClassifier(max_depth=4).fit(X, y)
    step = int(share * len(model.steps_))
    node = model.steps_[step].node
    # independently: the rows whose path in the grown tree passes the node
    path = model.decision_path(X).toarray().astype(bool)
    index = int(np.flatnonzero(model.tree_.node_ids == node)[0]) \
        if hasattr(model.tree_, "node_ids") else node
    expected = np.sort(X[path[:, index], 1].astype(np.float32).astype(np.float64))
    got = np.sort(votetext.node_values(model, step, encode(model, X), model.feature_names_[1]))
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_the_ranking_is_the_candidate_table_with_the_choice_first(penguins):
    for step in penguins.steps_:
        ranked = votetext.ranking(penguins, step.node)
        table = penguins.candidates(step.node)
        assert [f for f, _ in ranked][0] == table.loc[table["chosen"], "feature"].item()
        eligible = set(table.loc[table["eligible"], "feature"])
        order = [f in eligible for f, _ in ranked]
        assert order == sorted(order, reverse=True)  # the eligible ones first
        scores = [s for f, s in ranked[1:] if f in eligible]
        assert scores == sorted(scores, reverse=True)
        assert ranked[0][0] == votetext.winner(penguins, step.node)
        assert votetext.winner(penguins, step.node) == penguins.feature_names_[
            penguins.growth_tree_.feature[step.node]]


def test_ties_put_the_trees_choice_first():
    X = np.array([[0, 0], [0, 0], [1, 1], [1, 1]], dtype=float)  # two equal features
    y = np.array([0, 0, 1, 1])
    model = DecisionTreeClassifier().fit(X, y)
    ranked = votetext.ranking(model, 0)
    assert ranked[0][1] == ranked[1][1]
    assert ranked[0][0] == votetext.winner(model, 0)


def test_the_reveal_table_counts_the_votes_and_marks_the_winner(penguins):
    node = penguins.steps_[0].node
    tally = {f: 0 for f in penguins.feature_names_}
    tally["island"], tally["bill_length_mm"] = 3, 1
    for lang, feature, votes in (("en", "feature", "votes"), ("zh", "特征", "票数")):
        table = votetext.reveal_table(penguins, node, tally, lang)
        assert table[votes].sum() == 4
        marked = [f for f in table[feature] if f.startswith("✓ ")]
        assert marked == ["✓ " + votetext.winner(penguins, node)]
        assert table[feature].iloc[0] == marked[0]


def test_a_regressors_vote_counts_rows():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 2))
    model = DecisionTreeRegressor(max_depth=2).fit(X, X[:, 0])
    spec = votetext.vote_spec(model, 0)
    assert spec.counts == (50.0,)
    assert votetext.node_rows(model, spec) == (("", 50.0),)
    assert votetext.counts_line(votetext.node_rows(model, spec), "en") == "50 rows at the node"
    assert votetext.counts_line(votetext.node_rows(model, spec), "zh") == "该结点有 50 个样本"


def test_a_classifiers_vote_counts_its_classes():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    y = np.array(["a", "b", "b", "c", "c"])
    model = DecisionTreeClassifier(max_depth=2).fit(X, y)
    rows = votetext.node_rows(model, votetext.vote_spec(model, 0))
    assert rows == (("a", 1.0), ("b", 2.0), ("c", 2.0))  # the root: every row
    assert votetext.counts_line(rows, "en") == "Rows at the node — a: 1, b: 2, c: 2"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_words(lang):
    assert "#3" in votetext.question(3, lang)
    assert votetext.verdict("a", "a", lang) != votetext.verdict("b", "a", lang)
    assert "a" in votetext.verdict(None, "a", lang)
    assert votetext.tally_line({"a": 2, "b": 1}, lang).startswith("3")
