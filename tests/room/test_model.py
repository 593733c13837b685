"""The room as plain values: tallies, the checks on what is sent, the
presenter's secret, and the JSON a Redis store keeps (read back equal)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pages.room.checks import (
    checked_ranking, checked_view, checked_vote, checked_voter, normal_code,
)
from pages.room.model import (
    CODE_ALPHABET, CODE_LENGTH, IDLE_SECONDS, MAX_OPTIONS, MAX_RANGES, Ballot, Room, Vote,
    hash_secret,
)
from pages.room.redis_rooms import is_redis_url, room_from_json, room_to_json


def test_the_alphabet_has_no_look_alikes():
    assert len(set(CODE_ALPHABET)) == len(CODE_ALPHABET)
    assert not set(CODE_ALPHABET) & set("0O1IL")
    assert len(CODE_ALPHABET) ** CODE_LENGTH > 500_000_000


@given(st.text(alphabet=CODE_ALPHABET, min_size=CODE_LENGTH, max_size=CODE_LENGTH),
       st.sampled_from([str, str.lower, lambda c: f"  {c} \n"]))
def test_a_code_is_normal_in_any_case_with_spaces_around(code, spelled):
    assert normal_code(spelled(code)) == code


@given(st.one_of(st.text(), st.integers(), st.none(), st.binary()))
def test_only_six_letters_of_the_alphabet_make_a_code(text):
    normal = normal_code(text)
    if normal is not None:
        assert len(normal) == CODE_LENGTH and set(normal) <= set(CODE_ALPHABET)
        assert normal == text.strip().upper()


def test_a_vote_tallies_every_option_and_range_with_zeros():
    vote = Vote(node=3, step=2, options=("a", "b", "c"), ranges={"a": ("≤ 1", "> 1")},
                ballots={"v1": Ballot("a", "> 1"), "v2": Ballot("a"), "v3": Ballot("c")})
    assert vote.tally() == {"a": 2, "b": 0, "c": 1}
    assert vote.range_tally("a") == {"≤ 1": 0, "> 1": 1}
    assert vote.range_tally("b") == {} and vote.range_tally("unknown") == {}


@given(st.lists(st.tuples(st.text(max_size=3), st.sampled_from(["a", "b"]),
                          st.sampled_from([None, "≤ 1", "> 1"]))))
def test_a_tally_sums_to_the_number_of_voters(casts):
    ballots = {voter: Ballot(f, r) for voter, f, r in casts}
    vote = Vote(0, 0, ("a", "b"), {"a": ("≤ 1", "> 1")}, ballots=ballots)
    assert sum(vote.tally().values()) == len(ballots)
    assert sum(vote.range_tally("a").values()) == sum(
        b.feature == "a" and b.range is not None for b in ballots.values())


def test_the_secret_is_compared_by_its_hash():
    room = Room("ABCDEF", hash_secret("s3cret"), {}, 1, None, 0.0, 0.0)
    assert room.is_presenter("s3cret")
    for wrong in ("s3cre", "S3CRET", "", None, 1, b"s3cret", hash_secret("s3cret")):
        assert not room.is_presenter(wrong)


def test_a_room_is_idle_after_idle_seconds():
    room = Room("ABCDEF", "h", {}, 1, None, 100.0, 100.0)
    assert not room.idle(100.0 + IDLE_SECONDS) and room.idle(100.0 + IDLE_SECONDS + 0.5)


@pytest.mark.parametrize("args", [
    (0, 0, ["a"], {}), (np.int64(4), np.int32(2), ("a", "b"), {"a": ["≤ 1", "> 1"]}),
    (0, 0, [f"f{i}" for i in range(MAX_OPTIONS)], {"f0": [f"r{i}" for i in range(MAX_RANGES)]}),
])
def test_a_vote_within_bounds_is_made_open_and_empty(args):
    vote = checked_vote(*args)
    assert type(vote.node) is int and type(vote.step) is int
    assert vote.options == tuple(args[2]) and not vote.ballots
    assert not (vote.revealed or vote.closed) and all(type(r) is tuple for r in vote.ranges.values())


def test_the_checks_keep_copies_of_what_they_are_sent():
    view = {"page": ["grow"]}
    checked = checked_view(view)
    view["page"].append("prune")
    assert checked == {"page": ["grow"]}


@pytest.mark.parametrize("ranking, expected", [
    ([("a", 1), ("b", np.float64(0.5)), ("c", np.float32(0.25))],
     (("a", 1.0), ("b", 0.5), ("c", 0.25))),
    ((), ()),
])
def test_a_ranking_is_feature_and_float_pairs(ranking, expected):
    assert checked_ranking(ranking) == expected


@pytest.mark.parametrize("voter, ok", [("a", True), ("x" * 64, True), ("", False),
                                       ("x" * 65, False), (None, False), (5, False)])
def test_a_voter_id_is_short_text(voter, ok):
    assert (checked_voter(voter) is not None) == ok


TEXT = st.text(min_size=1, max_size=12)


@st.composite
def rooms(draw):
    options = draw(st.lists(TEXT, min_size=1, max_size=5, unique=True))
    ranges = draw(st.dictionaries(st.sampled_from(options),
                                  st.lists(TEXT, max_size=4, unique=True).map(tuple)))
    ballot = st.sampled_from(options).flatmap(
        lambda f: st.builds(Ballot, st.just(f), st.sampled_from([None, *ranges.get(f, ())])))
    vote = draw(st.one_of(st.none(), st.builds(
        Vote, node=st.integers(0, 999), step=st.integers(0, 999), options=st.just(tuple(options)),
        ranges=st.just(ranges), ballots=st.dictionaries(TEXT, ballot, max_size=8),
        revealed=st.booleans(), closed=st.booleans(),
        ranking=st.lists(st.tuples(TEXT, st.floats(allow_nan=False)), max_size=4).map(tuple))))
    return Room(code=draw(st.text(CODE_ALPHABET, min_size=6, max_size=6)),
                secret_hash=hash_secret(draw(TEXT)),
                view=draw(st.dictionaries(st.text(max_size=8), st.lists(st.text(max_size=8)))),
                version=draw(st.integers(1, 10**9)), vote=vote,
                created=draw(st.floats(0, 2e9)), touched=draw(st.floats(0, 2e9)))


@given(rooms())
def test_a_room_reads_back_from_its_json_equal(room):
    assert room_from_json(room_to_json(room)) == room


def test_a_ranking_with_infinities_reads_back():
    vote = Vote(0, 0, ("a",), {}, ranking=(("a", math.inf), ("b", -math.inf)))
    room = Room("ABCDEF", "h", {}, 1, vote, 0.0, 0.0)
    assert room_from_json(room_to_json(room)) == room


@pytest.mark.parametrize("url, ok", [
    ("redis://127.0.0.1:6379/0", True), ("redis://localhost", True), ("rediss://h:6380/2", True),
    ("redis://:pw@h:6379/1", True), ("redis://", False), ("redis://h:abc/0", False),
    ("redis://h:6379/x", False), ("http://h:6379/0", False), ("h:6379", False),
    ("redis://h:99999/0", False),
])
def test_a_redis_url_names_a_host_and_maybe_a_port_and_database(url, ok):
    assert is_redis_url(url) == ok
