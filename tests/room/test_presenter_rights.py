"""Only the presenter steers: whatever a student sends (any secret, the
room's code in any spelling, the stored hash itself, any view, vote or
ranking), it cannot change the view, open, reveal or close a vote, or close
the room; and nothing it sends changes the room.  For both stores."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pages.room.model import CODE_ALPHABET, CODE_LENGTH, Ballot
from pages.room.store import RoomError

ON_A_STORE = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])

VIEW = {"page": ["grow"], "data": ["iris"], "step": ["3"]}
OPTIONS = ("petal length", "petal width")

SECRETS = st.one_of(
    st.none(), st.text(max_size=60), st.binary(max_size=60), st.integers(), st.floats(),
    st.lists(st.text(max_size=5), max_size=3), st.dictionaries(st.text(max_size=5), st.text()),
    st.from_regex(r"[A-Za-z0-9_\-]{43}", fullmatch=True))  # shaped like a real secret
#: How a student spells a code, given the room's: the room's code in any
#: case with spaces around, a code of the alphabet, or any text.
CODES = st.one_of(
    st.sampled_from([str, str.lower, lambda code: f" {code}\t"]),
    st.text(alphabet=CODE_ALPHABET, min_size=CODE_LENGTH, max_size=CODE_LENGTH).map(
        lambda other: lambda code: other),
    st.text(max_size=10).map(lambda other: lambda code: other))
VIEWS = st.one_of(st.just({"step": ["99"]}), st.dictionaries(st.text(max_size=8),
                                                              st.lists(st.text(max_size=8))))
ACTS = st.sampled_from(["set_view", "open_vote", "reveal", "close_vote", "close"])


def attempt(store, act, code, secret, view):
    """What a student may try with a secret it guessed: every presenter act."""
    if act == "set_view":
        return store.set_view(code, secret, view)
    if act == "open_vote":
        return store.open_vote(code, secret, node=5, step=9, options=["x"], ranges={})
    if act == "reveal":
        return store.reveal(code, secret, [("petal width", 1.0)])
    if act == "close_vote":
        return store.close_vote(code, secret)
    return store.close(code, secret)


def presenter_room(store):
    code, secret = store.create(VIEW)
    store.open_vote(code, secret, node=0, step=3, options=OPTIONS, ranges={})
    store.cast(code, "ann", Ballot("petal length"))
    return code, secret


@ON_A_STORE
@given(act=ACTS, typed_code=CODES, secret=SECRETS, view=VIEWS, use_hash=st.booleans())
def test_no_secret_but_the_presenters_steers(store, act, typed_code, secret, view, use_hash):
    code, real_secret = presenter_room(store)
    before = store.get(code)
    if use_hash:  # someone who read the stored hash still cannot steer with it
        secret = before.secret_hash
    assume(secret != real_secret)
    typed = typed_code(code)
    a_room = store.get(typed) is not None  # this one, or (rarely) another example's
    try:
        attempt(store, act, typed, secret, view)
    except RoomError as error:
        assert error.code == ("not_presenter" if a_room else "no_room")
    else:
        raise AssertionError(f"a student's {act} went through")
    assert store.get(code) == before


@ON_A_STORE
@given(act=ACTS, secret=SECRETS)
def test_a_presenters_secret_steers_only_its_own_room(store, act, secret):
    """The secret of one room is no key to another room."""
    code, _ = presenter_room(store)
    other_code, other_secret = presenter_room(store)
    before = store.get(code)
    try:
        attempt(store, act, code, other_secret, {"step": ["1"]})
    except RoomError as error:
        assert error.code == "not_presenter"
    else:
        raise AssertionError(f"another room's presenter's {act} went through")
    assert store.get(code) == before


def test_the_presenter_steers(store):
    """The check above can fail: with the real secret each act goes through."""
    for act in ("set_view", "open_vote", "reveal", "close_vote", "close"):
        code, secret = presenter_room(store)
        before = store.get(code)
        attempt(store, act, code.lower(), secret, {"step": ["4"]})
        assert store.get(code) != before
