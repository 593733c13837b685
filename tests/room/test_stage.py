"""What followers are shown (pages/room/stage.py) and how they hear of a
change (pages/room/watch.py), on both stores: a stage is kept beside its
room, only the presenter sets it, a ballot neither reads nor changes it,
it goes with its room; the watcher tells exactly the listeners whose pages
are behind, for a step or a vote, never for one more ballot."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pages.room.model import Ballot
from pages.room.stage import (
    MAX_STAGE_DOT, MAX_STAGE_LINES, MAX_STAGE_TREES, checked_stage, in_language,
    stage_from_text, stage_to_text,
)
from pages.room.store import RoomError
from pages.room.watch import RoomWatcher, seen_by_students

VIEW = {"page": [""], "data": ["iris"], "step": ["0"]}
TREE = 'digraph Tree { 0 [label="#0 setosa"] ; }'


def stage(title="Iris · CART", lines=("**Step 0 of 5:** the root",), trees=(("", TREE),)):
    return {"page": "", "title": title, "lines": list(lines),
            "trees": [list(t) for t in trees]}


def test_a_stage_is_kept_beside_its_room_and_set_by_the_presenter_only(store):
    code, secret = store.create(VIEW)
    assert store.stage(code) is None  # (nothing drawn yet)
    store.set_view(code, secret, dict(VIEW, step=["1"]), stage(lines=["**Step 1 of 5:**"]))
    kept = store.stage(code.lower())
    assert kept == dict(stage(lines=["**Step 1 of 5:**"]), lang=None, also={}, too_large=False)
    with pytest.raises(RoomError) as refused:
        store.set_view(code, "not the secret", VIEW, stage(title="hijacked"))
    assert refused.value.code == "not_presenter"
    assert store.stage(code)["title"] == "Iris · CART"
    # a view without a stage keeps the stage; a ballot neither reads nor drops it
    store.set_view(code, secret, VIEW)
    store.open_vote(code, secret, node=0, step=0, options=("a", "b"), ranges={})
    store.cast(code, "v1", Ballot("a"))
    assert store.stage(code) == kept
    store.close(code, secret)
    assert store.stage(code) is None


def test_a_stage_that_is_not_one_is_refused(store):
    code, secret = store.create(VIEW)
    for bad in ({"page": ""}, {"page": 1, "title": "", "lines": [], "trees": []},
                dict(stage(), trees=[["only a caption"]]), dict(stage(), lines="a line"),
                [stage()]):
        with pytest.raises(RoomError) as refused:
            store.set_view(code, secret, VIEW, bad)
        assert refused.value.code == "bad_view"
    assert store.stage(code) is None


def test_a_stage_in_two_languages_is_read_in_either():
    zh = {"title": "鸢尾花 · CART", "lines": ["**第 0 步**"], "trees": [["", TREE]]}
    checked = checked_stage(dict(stage(), lang="en", also={"zh": zh}))
    assert in_language(checked, "zh") == zh
    assert in_language(checked, "en")["title"] == "Iris · CART"
    assert in_language(checked_stage(stage()), "zh")["title"] == "Iris · CART"  # (only its own)
    for bad in ({"fr": zh}, {"en": zh}, {"zh": dict(zh, trees="x")}, ["zh"]):
        assert checked_stage(dict(stage(), lang="en", also=bad)) is None
    assert checked_stage(dict(stage(), lang="fr")) is None


def test_a_stage_too_large_keeps_its_words_and_says_so():
    big = stage(trees=[("", "x" * (MAX_STAGE_DOT // 2 + 1))] * 2)
    checked = checked_stage(big)
    assert checked["trees"] == [] and checked["too_large"] and checked["title"] == big["title"]
    # the languages' trees count together
    half = {"title": "", "lines": [], "trees": [["", "x" * (MAX_STAGE_DOT // 2 + 1)]]}
    checked = checked_stage(dict(stage(trees=half["trees"]), lang="en", also={"zh": half}))
    assert checked["too_large"] and checked["trees"] == [] and checked["also"]["zh"]["trees"] == []
    many = stage(lines=[f"line {i}" for i in range(20)], trees=[("", TREE)] * 9)
    checked = checked_stage(many)
    assert len(checked["lines"]) == MAX_STAGE_LINES and len(checked["trees"]) == MAX_STAGE_TREES


@settings(max_examples=50)
@given(title=st.text(max_size=50), lines=st.lists(st.text(max_size=30), max_size=10),
       trees=st.lists(st.tuples(st.text(max_size=20), st.text(max_size=40)), max_size=6))
def test_a_stage_survives_its_text(title, lines, trees):
    checked = checked_stage(stage(title, lines, trees))
    assert stage_from_text(stage_to_text(checked)) == checked
    assert json.loads(stage_to_text(checked))["title"] == title


@pytest.mark.parametrize("text", [None, "", "not json", "[1, 2]", "[" * 100_000])
def test_a_kept_stage_that_does_not_read_is_none(text):
    assert stage_from_text(text) is None


def test_a_vote_keeps_the_rows_students_see(store):
    code, secret = store.create(VIEW)
    rows = (("setosa", 38.0), ("versicolor", 38.0), ("virginica", 38.0))
    store.open_vote(code, secret, node=0, step=0, options=("a", "b"), ranges={}, rows=rows)
    assert store.get(code).vote.rows == rows
    for bad in ([("setosa", -1)], [("setosa", float("nan"))], [("setosa",)], "rows",
                [(3, 1.0)], [("c", True)]):
        with pytest.raises(RoomError):
            store.open_vote(code, secret, node=0, step=0, options=("a",), ranges={}, rows=bad)


class Told:
    """A notify that records whom it told; ``answers`` says what it returns."""

    def __init__(self):
        self.told, self.answers = [], {}

    def __call__(self, listener, target):
        self.told.append((listener, target))
        return self.answers.get(listener, True)


def watching(store):
    told = Told()
    return RoomWatcher(store, told, thread=False), told


def test_the_watcher_tells_the_pages_that_are_behind_and_only_them(store):
    code, secret = store.create(VIEW)
    watcher, told = watching(store)
    shown = seen_by_students(store.get(code))
    watcher.listen("s1", code, "f1", shown)
    watcher.listen("s2", code, "f2", shown)
    assert watcher.tick() == 0 and told.told == []  # (nobody is behind)
    store.set_view(code, secret, dict(VIEW, step=["1"]))
    assert watcher.tick() == 2 and sorted(told.told) == [("s1", "f1"), ("s2", "f2")]
    told.told.clear()
    assert watcher.tick() == 0  # (told once per change, until a page shows it)
    # a vote opened: a change; one more ballot: none
    store.open_vote(code, secret, node=0, step=1, options=("a", "b"), ranges={})
    watcher.tick()
    assert len(told.told) == 2
    told.told.clear()
    store.cast(code, "v1", Ballot("a"))
    assert watcher.tick() == 0 and told.told == []
    store.reveal(code, secret, (("a", 0.5), ("b", 0.1)))
    assert watcher.tick() == 2
    store.close(code, secret)  # the end of the class is a change too
    assert watcher.tick() == 2


def test_a_page_that_ran_before_a_change_is_told_of_it(store):
    """A listener says what its page showed: a change made between its run's
    reading of the room and its listening is not missed."""
    code, secret = store.create(VIEW)
    watcher, told = watching(store)
    shown = seen_by_students(store.get(code))
    store.set_view(code, secret, dict(VIEW, step=["2"]))  # (while that page ran)
    watcher.listen("s1", code, "f1", shown)
    assert watcher.tick() == 1 and told.told == [("s1", "f1")]


def test_a_busy_page_is_told_again_and_a_gone_one_is_forgotten(store):
    code, secret = store.create(VIEW)
    watcher, told = watching(store)
    shown = seen_by_students(store.get(code))
    watcher.listen("busy", code, "f", shown)
    watcher.listen("gone", code, "g", shown)
    told.answers = {"busy": False, "gone": None}
    store.set_view(code, secret, dict(VIEW, step=["1"]))
    assert watcher.tick() == 0
    assert watcher.listeners(code) == ["busy"]
    told.answers = {}
    assert watcher.tick() == 1 and told.told[-1] == ("busy", "f")
    watcher.forget("busy")
    assert watcher.listeners(code) == []
