"""The rules of a room, for both stores (the ``store`` fixture runs each test
on an EmbeddedStore and on a RedisStore over a real redis-server): codes,
ballots, one ballot per voter, tallies, versions, expiry and bounds."""

from __future__ import annotations

import contextlib
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pages.room.checks import REFUSALS
from pages.room.model import (
    CODE_ALPHABET, CODE_LENGTH, IDLE_SECONDS, MAX_OPTIONS, MAX_RANGES, MAX_VIEW_CHARS,
    MAX_VIEW_KEYS, MAX_VIEW_TEXT, MAX_VIEW_VALUES, MAX_VOTERS, Ballot,
)
from pages.room.store import RoomError

#: Hypothesis runs each property on the fixture's store, which holds the
#: rooms of every example (each example opens its own).
ON_A_STORE = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])

VIEW = {"page": ["grow"], "data": ["iris"], "step": ["3"]}
OPTIONS = ("petal length", "petal width", "sepal length", "colour")
RANGES = {"petal length": ("≤ 2.45", "2.45 – 4.75", "> 4.75"), "petal width": ("≤ 0.8", "> 0.8")}


@contextlib.contextmanager
def refused(code: str):
    """The block raises a RoomError with this code, one the pages can word."""
    assert code in REFUSALS
    with pytest.raises(RoomError) as raised:
        yield
    assert raised.value.code == code, raised.value


def voting_room(store, **vote):
    """A new room with an open vote on OPTIONS and RANGES: (code, secret)."""
    code, secret = store.create(VIEW)
    store.open_vote(code, secret, **{"node": 0, "step": 0, "options": OPTIONS,
                                     "ranges": RANGES, **vote})
    return code, secret


# -- codes --------------------------------------------------------------------

def test_codes_are_unique_and_from_the_alphabet(store):
    codes = [store.create(VIEW)[0] for _ in range(200)]
    assert len(set(codes)) == len(codes)
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert store.count() == 200


def test_a_code_in_use_is_never_given_again(store, monkeypatch):
    """The random letters are drawn again while they spell a code in use."""
    first, _ = store.create(VIEW)
    letters = iter(first + "B" * CODE_LENGTH)

    class Secrets:
        token_urlsafe = staticmethod(lambda n: "s" * n)
        choice = staticmethod(lambda alphabet: next(letters))

    monkeypatch.setattr("pages.room.store.secrets", Secrets)
    second, _ = store.create(VIEW)
    assert second == "B" * CODE_LENGTH != first
    assert store.get(first).view == VIEW  # the first room is untouched


def test_secrets_are_long_random_and_not_kept(store):
    code, secret = store.create(VIEW)
    other_code, other_secret = store.create(VIEW)
    assert len(secret) >= 40 and secret != other_secret
    room = store.get(code)
    assert secret not in repr(room) and re.fullmatch(r"[0-9a-f]{64}", room.secret_hash)


@pytest.mark.parametrize("typed", [str.lower, lambda c: f"  {c}\n", lambda c: c.lower().center(12)])
def test_a_code_is_read_in_any_case_with_spaces_around(store, typed):
    code, secret = store.create(VIEW)
    assert store.get(typed(code)).code == code
    assert store.version(typed(code)) == 1
    assert store.set_view(typed(code), secret, {"step": ["4"]}) == 2


@pytest.mark.parametrize("code", ["", "ABC", "ABCDEFG", "ABCDE0", "ABCDEI", "ABCDE1", None, 123456,
                                  ["ABCDEF"], "ABCDÉF"])
def test_what_cannot_be_a_code_finds_no_room(store, code):
    assert store.get(code) is None and store.version(code) is None
    with refused("no_room"):
        store.cast(code, "v", Ballot("x"))


# -- ballots --------------------------------------------------------------------

def test_a_ballot_is_counted_once_per_voter_and_can_change_until_the_reveal(store):
    code, secret = voting_room(store)
    store.cast(code, "ann", Ballot("petal length", "≤ 2.45"))
    store.cast(code, "bob", Ballot("colour"))
    store.cast(code, "ann", Ballot("petal width"))  # ann changes her mind
    vote = store.get(code).vote
    assert vote.ballots == {"ann": Ballot("petal width"), "bob": Ballot("colour")}
    assert vote.tally() == {"petal length": 0, "petal width": 1, "sepal length": 0, "colour": 1}
    store.reveal(code, secret, [("petal width", 0.9), ("petal length", 0.8)])
    with refused("vote_closed"):
        store.cast(code, "ann", Ballot("colour"))
    with refused("vote_closed"):
        store.cast(code, "cid", Ballot("colour"))
    vote = store.get(code).vote
    assert vote.revealed and vote.ranking == (("petal width", 0.9), ("petal length", 0.8))
    assert vote.ballots == {"ann": Ballot("petal width"), "bob": Ballot("colour")}


def test_a_closed_vote_takes_no_ballot_and_no_reveal(store):
    code, secret = voting_room(store)
    store.cast(code, "ann", Ballot("colour"))
    store.close_vote(code, secret)
    for act in (lambda: store.cast(code, "ann", Ballot("petal width")),
                lambda: store.reveal(code, secret, [])):
        with refused("vote_closed"):
            act()
    assert store.get(code).vote.tally()["colour"] == 1


def test_without_a_vote_there_is_nothing_to_cast_reveal_or_close(store):
    code, secret = store.create(VIEW)
    for act in (lambda: store.cast(code, "ann", Ballot("colour")),
                lambda: store.reveal(code, secret, []),
                lambda: store.close_vote(code, secret)):
        with refused("no_vote"):
            act()


def test_a_new_vote_replaces_the_last_one_and_its_ballots(store):
    code, secret = voting_room(store)
    store.cast(code, "ann", Ballot("colour"))
    store.reveal(code, secret, [("colour", 1.0)])
    store.open_vote(code, secret, node=2, step=1, options=["a", "b"], ranges={})
    vote = store.get(code).vote
    assert (vote.node, vote.step, vote.options, vote.ballots) == (2, 1, ("a", "b"), {})
    assert not vote.revealed and not vote.closed and vote.ranking == ()
    store.cast(code, "ann", Ballot("b"))
    assert store.get(code).vote.tally() == {"a": 0, "b": 1}


BALLOTS = st.builds(
    Ballot,
    feature=st.sampled_from([*OPTIONS, "petal", "", "PETAL LENGTH"]),
    range=st.one_of(st.none(), st.sampled_from([*RANGES["petal length"], *RANGES["petal width"],
                                                "≤ 9", ""])))
NOT_BALLOTS = st.one_of(
    st.none(), st.text(max_size=20), st.integers(),
    st.fixed_dictionaries({"feature": st.sampled_from(OPTIONS)}),
    st.tuples(st.sampled_from(OPTIONS), st.none()),
    st.builds(Ballot, feature=st.sampled_from(OPTIONS), range=st.integers()),
    st.builds(Ballot, feature=st.integers(), range=st.none()))


@ON_A_STORE
@given(ballot=st.one_of(BALLOTS, NOT_BALLOTS))
def test_a_ballot_is_taken_only_if_it_is_one_of_the_votes_choices(store, ballot):
    code, _ = voting_room(store)
    valid = (isinstance(ballot, Ballot) and ballot.feature in OPTIONS
             and (ballot.range is None or ballot.range in RANGES.get(ballot.feature, ())))
    if valid:
        assert store.cast(code, "ann", ballot) == 3
        assert store.get(code).vote.ballots == {"ann": ballot}
    else:
        with refused("bad_ballot"):
            store.cast(code, "ann", ballot)
        assert store.version(code) == 2 and store.get(code).vote.ballots == {}


@pytest.mark.parametrize("voter", ["", "x" * 65, None, 7, b"bytes", ("a",)])
def test_a_voter_id_is_a_short_string(store, voter):
    code, _ = voting_room(store)
    with refused("bad_voter"):
        store.cast(code, voter, Ballot("colour"))
    assert store.cast(code, "x" * 64, Ballot("colour")) == 3


@ON_A_STORE
@given(casts=st.lists(st.tuples(st.sampled_from(["ann", "bob", "cid", "dan", "eve"]),
                                st.sampled_from(OPTIONS),
                                st.sampled_from([None, "≤ 2.45", "> 4.75", "> 0.8"])),
                      max_size=25))
def test_the_tally_counts_each_voters_last_ballot(store, casts):
    """A model of the rules: the last valid ballot of each voter counts; the
    tally sums to the number of voters; each change bumps the version by one."""
    code, _ = voting_room(store)
    expected, version = {}, 2
    for voter, feature, range_ in casts:
        ballot = Ballot(feature, range_)
        if range_ is not None and range_ not in RANGES.get(feature, ()):
            with refused("bad_ballot"):
                store.cast(code, voter, ballot)
            continue
        version += 1
        assert store.cast(code, voter, ballot) == version
        expected[voter] = ballot
    vote = store.get(code).vote
    assert vote.ballots == expected and store.version(code) == version
    tally = vote.tally()
    assert list(tally) == list(OPTIONS) and sum(tally.values()) == len(expected)
    assert tally == {f: sum(b.feature == f for b in expected.values()) for f in OPTIONS}
    for feature, labels in RANGES.items():
        ranges = vote.range_tally(feature)
        assert list(ranges) == list(labels)
        assert ranges == {label: sum(b == Ballot(feature, label) for b in expected.values())
                          for label in labels}


# -- versions -------------------------------------------------------------------

def test_every_change_bumps_the_version_and_a_refusal_does_not(store):
    code, secret = store.create(VIEW)
    versions = [store.version(code),
                store.set_view(code, secret, {"step": ["4"]}),
                store.open_vote(code, secret, node=1, step=4, options=OPTIONS, ranges=RANGES),
                store.cast(code, "ann", Ballot("colour")),
                store.cast(code, "ann", Ballot("colour")),
                store.reveal(code, secret, [("colour", 0.5)]),
                store.close_vote(code, secret),
                store.set_view(code, secret, {"step": ["5"]})]
    assert versions == list(range(1, 9))
    for act in (lambda: store.cast(code, "bob", Ballot("colour")),
                lambda: store.set_view(code, "wrong", {"step": ["6"]}),
                lambda: store.set_view(code, secret, {"step": [6]})):
        with pytest.raises(RoomError):
            act()
    assert store.version(code) == 8 == store.get(code).version
    assert store.get(code).view == {"step": ["5"]}


def test_a_room_read_earlier_does_not_change_under_its_reader(store):
    code, _ = voting_room(store)
    before = store.get(code)
    store.cast(code, "ann", Ballot("colour"))
    assert before.vote.ballots == {} and before.version == 2


# -- closing and expiry ----------------------------------------------------------

def test_closing_frees_the_room(store):
    code, secret = voting_room(store)
    store.cast(code, "ann", Ballot("colour"))
    store.close(code.lower(), secret)
    assert store.get(code) is None and store.version(code) is None and store.count() == 0
    for act in (lambda: store.cast(code, "ann", Ballot("colour")),
                lambda: store.set_view(code, secret, VIEW),
                lambda: store.close(code, secret)):
        with refused("no_room"):
            act()


def test_rooms_idle_too_long_expire_and_are_freed(store):
    now = time.time()
    idle, _ = store.create(VIEW, now=now - IDLE_SECONDS / 2)
    renewed, secret = store.create(VIEW, now=now - IDLE_SECONDS / 2)
    assert store.expire(now=now) == 0 and store.count() == 2
    store.set_view(renewed, secret, VIEW)  # a change is activity: the room lives on
    assert store.expire(now=now + IDLE_SECONDS / 2 + 60) == 1
    assert store.get(idle) is None and store.get(renewed) is not None and store.count() == 1
    assert store.expire(now=time.time() + IDLE_SECONDS + 1) == 1
    assert store.count() == 0 and store.get(renewed) is None


def test_a_room_idle_too_long_is_gone_before_it_is_dropped(store):
    code, secret = store.create(VIEW, now=time.time() - IDLE_SECONDS - 1)
    assert store.get(code) is None and store.version(code) is None
    with refused("no_room"):
        store.set_view(code, secret, VIEW)
    store.expire()  # dropped already when read (embedded) or now (Redis, if its TTL has not)
    assert store.count() == 0


# -- bounds -----------------------------------------------------------------------

def test_a_vote_takes_at_most_max_voters(store):
    code, _ = voting_room(store)
    for i in range(MAX_VOTERS):
        store.cast(code, f"v{i}", Ballot(OPTIONS[i % len(OPTIONS)]))
    with refused("full"):
        store.cast(code, "one too many", Ballot("colour"))
    store.cast(code, "v0", Ballot("colour"))  # a voter in the vote may still change
    assert sum(store.get(code).vote.tally().values()) == MAX_VOTERS


@pytest.mark.parametrize("view", [
    None, [], "page=grow", {1: ["x"]}, {"page": [1]}, {"page": [None]}, {"page": {"grow": 1}},
    {f"k{i}": ["v"] for i in range(MAX_VIEW_KEYS + 1)},
    {"page": ["v"] * (MAX_VIEW_VALUES + 1)},
    {"page": ["x" * (MAX_VIEW_TEXT + 1)]},
    {"x" * (MAX_VIEW_TEXT + 1): ["v"]},
    {f"k{i}": ["x" * 1_000] for i in range(MAX_VIEW_CHARS // 1_000 + 1)},
])
def test_a_view_out_of_bounds_is_refused(store, view):
    with refused("bad_view"):
        store.create(view)
    code, secret = store.create(VIEW)
    with refused("bad_view"):
        store.set_view(code, secret, view)
    assert store.get(code).view == VIEW


def test_a_view_at_its_bounds_is_taken_and_a_single_value_becomes_a_list(store):
    view = {f"k{i}": ["x" * 120] * 2 for i in range(MAX_VIEW_KEYS)}
    code, secret = store.create(view)
    assert store.get(code).view == view
    store.set_view(code, secret, {"page": "grow", "fold": ("3", "5")})
    assert store.get(code).view == {"page": ["grow"], "fold": ["3", "5"]}


@pytest.mark.parametrize("vote", [
    {"options": []}, {"options": "petal length"}, {"options": ["a", "a"]}, {"options": ["a", 1]},
    {"options": [""]}, {"options": [f"f{i}" for i in range(MAX_OPTIONS + 1)]},
    {"ranges": {"unknown": ("≤ 1", "> 1")}}, {"ranges": {"colour": ("≤ 1", "≤ 1")}},
    {"ranges": {"colour": [f"r{i}" for i in range(MAX_RANGES + 1)]}},
    {"ranges": [("colour", ("a", "b"))]}, {"node": -1}, {"step": 1.0}, {"node": True},
])
def test_a_vote_out_of_bounds_is_refused(store, vote):
    code, secret = store.create(VIEW)
    with refused("bad_vote"):
        store.open_vote(code, secret, **{"node": 0, "step": 0, "options": OPTIONS,
                                         "ranges": RANGES, **vote})
    assert store.get(code).vote is None and store.version(code) == 1


@pytest.mark.parametrize("ranking", [None, "colour", [("colour",)], [("colour", "high")],
                                     [(1, 0.5)], [("colour", True)],
                                     [("f", 0.1)] * (MAX_OPTIONS + 1)])
def test_a_ranking_is_pairs_of_a_feature_and_a_number(store, ranking):
    code, secret = voting_room(store)
    with refused("bad_ranking"):
        store.reveal(code, secret, ranking)
    assert not store.get(code).vote.revealed
