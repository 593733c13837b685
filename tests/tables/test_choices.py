"""The tree parameters' defaults and rules, the Data page's feature choices
(dtree.tables.choices) and the names of tasks, criteria and growth orders
(dtree.views.vocabulary), without Streamlit."""

import re

import pytest

from dtree.tables.choices import (DEFAULTS, GROWTH, HIST_ROWS, chosen_parameters,
                                  default_splitter, feature_choice, hist_applies)
from dtree.views.vocabulary import NAMES, criterion_name, growth_name, task_name

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_large_tables_start_on_the_histogram_splitter():
    assert default_splitter(0) == "best"
    assert default_splitter(HIST_ROWS) == "best"
    assert default_splitter(HIST_ROWS + 1) == "hist"


@pytest.mark.parametrize("preset, criterion, applies", [
    ("CART", "gini", True), ("CART", "entropy", True), ("CART", "squared_error", True),
    ("CART", "absolute_error", False), ("ID3", "entropy", False),
    ("C4.5", "gain_ratio", False), ("J48", "gain_ratio", False),
])
def test_hist_applies_to_cart_from_sums(preset, criterion, applies):
    assert hist_applies(preset, criterion) is applies


def test_no_choices_give_the_defaults():
    assert chosen_parameters("classification", {}) == ("CART", "gini", DEFAULTS)
    assert chosen_parameters("regression", {}) == ("CART", "squared_error", DEFAULTS)


def test_a_stale_criterion_becomes_the_presets_first():
    assert chosen_parameters("classification", {"preset": "C4.5", "criterion": "gini"})[:2] \
        == ("C4.5", "gain_ratio")
    assert chosen_parameters("classification", {"preset": "ID3"})[:2] == ("ID3", "entropy")
    # a regression tree is CART whatever the classification preset says
    assert chosen_parameters("regression", {"preset": "ID3", "criterion": "entropy"})[:2] \
        == ("CART", "squared_error")
    assert chosen_parameters("regression", {"criterion": "poisson"})[1] == "poisson"


def test_whole_numbers_given_as_floats_become_ints():
    given = {"max_depth": 3.0, "min_samples_leaf": 2.0, "max_leaf_nodes": None,
             "min_impurity_decrease": 1.0, "random_state": 7.0}
    _, _, params = chosen_parameters("classification", given)
    assert params["max_depth"] == 3 and type(params["max_depth"]) is int
    assert type(params["min_samples_leaf"]) is int and type(params["random_state"]) is int
    assert params["max_leaf_nodes"] is None
    assert params["min_impurity_decrease"] == 1.0
    assert type(params["min_impurity_decrease"]) is float
    assert given["max_depth"] == 3.0  # the mapping itself is left alone


@pytest.mark.parametrize("task, given, splitter", [
    ("classification", {"splitter": "hist"}, "hist"),
    ("classification", {"splitter": "hist", "preset": "ID3"}, "best"),
    ("classification", {"splitter": "hist", "preset": "C4.5"}, "best"),
    ("regression", {"splitter": "hist", "criterion": "absolute_error"}, "best"),
    ("regression", {"splitter": "hist", "criterion": "friedman_mse"}, "hist"),
    ("classification", {"splitter": "random", "preset": "ID3"}, "random"),
])
def test_hist_falls_back_to_best_where_it_does_not_apply(task, given, splitter):
    assert chosen_parameters(task, given)[2]["splitter"] == splitter


def test_identifiers_are_left_out_of_all_the_features():
    offered = feature_choice(["id", "a", "b", "y"], "y", ["id"])
    assert offered.others == ["id", "a", "b"]
    assert offered.skipped == ["id"] and offered.n_all == 2
    assert offered.first == ["a", "b"] and offered.leaves_out


def test_only_identifiers_left_are_all_used():
    offered = feature_choice(["id", "y"], "y", ["id"])
    assert offered.n_all == 1 and not offered.leaves_out
    assert offered.first == ["id"]


def test_an_identifier_chosen_as_target_is_not_skipped():
    offered = feature_choice(["id", "a", "y"], "id", ["id"])
    assert offered.others == ["a", "y"] and offered.skipped == [] and offered.n_all == 2
    assert not offered.leaves_out


def test_choosing_starts_with_the_first_twenty_features():
    columns = [f"c{i}" for i in range(30)] + ["y"]
    offered = feature_choice(columns, "y", ["c0"])
    assert offered.first == [f"c{i}" for i in range(1, 21)]
    assert offered.n_all == 29


def test_names_in_english_and_chinese():
    assert criterion_name("gini") == "Gini index"
    assert criterion_name("gini", "zh") == "基尼系数（Gini 指数）"
    assert criterion_name("absolute_error", "zh") == "平均绝对误差（中位数）"
    assert criterion_name("new_one", "zh") == criterion_name("new_one") == "new_one"
    assert growth_name("best_first") == "best-first"
    assert growth_name("best_first", "zh") == "最佳优先"
    assert growth_name("sideways", "zh") == "sideways"
    assert task_name("regression") == "regression"
    assert task_name("regression", "zh") == "回归"
    assert task_name("classification", "zh") == "分类"


def test_every_criterion_and_growth_order_has_a_chinese_name():
    for criterion in NAMES["criterion"]:
        assert CJK.search(criterion_name(criterion, "zh")), criterion
    for growth in GROWTH:
        assert CJK.search(growth_name(growth, "zh")), growth
