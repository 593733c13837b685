"""pages/runtime/budget.py: a function run in a child process within a time
and memory budget answers, or is stopped and said to be over budget; the
caller's process never runs it, and a stopped child leaves the next call
working."""

import os

import pytest

from pages.runtime.budget import Budget, ChildFailed, OverBudget, run_within
from tests.helpers import budget_work

ROOMY = Budget(seconds=60.0, megabytes=600)


def test_an_answer_comes_back_as_json():
    assert run_within(ROOMY, budget_work.echo, {"a": [1, 2.5, None, "x"]}) == \
        {"a": [1, 2.5, None, "x"]}
    assert run_within(ROOMY, budget_work.echo, (1, 2)) == [1, 2]  # (a tuple as a list)


def test_the_work_runs_in_another_process():
    assert run_within(ROOMY, os.getpid) != os.getpid()


def test_work_past_its_time_is_stopped():
    with pytest.raises(OverBudget) as over:
        run_within(Budget(seconds=0.5, megabytes=600), budget_work.sleep_for, 60)
    assert over.value.resource == "time" and over.value.limit == "0.5 s"


def test_work_past_its_memory_is_stopped():
    # (well past the budget: the allocator's reserve, inherited by the child
    # and not counted by its cap, is some tens of MB)
    with pytest.raises(OverBudget) as over:
        run_within(Budget(seconds=60.0, megabytes=50), budget_work.allocate, 1000)
    assert over.value.resource == "memory" and over.value.limit == "50 MB"
    assert run_within(Budget(seconds=60.0, megabytes=600), budget_work.allocate, 100) == 100


def test_an_error_in_the_work_is_said_as_text():
    with pytest.raises(ChildFailed, match="ValueError: no such tree"):
        run_within(ROOMY, budget_work.fail, "no such tree")


def test_a_stopped_child_leaves_the_next_call_working():
    for _ in range(2):
        with pytest.raises(OverBudget):
            run_within(Budget(seconds=0.2, megabytes=600), budget_work.sleep_for, 60)
        with pytest.raises(OverBudget):
            run_within(Budget(seconds=60.0, megabytes=20), budget_work.allocate, 2000)
        assert run_within(ROOMY, budget_work.echo, "still here") == "still here"
