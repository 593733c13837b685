"""A lecture room and its vote as plain values, and the checks on what is
sent to them.

A room has a short code that the class types or scans, the presenter's view
(the query parameters of the page shown on the projector) and at most one
vote: on which feature the tree will split a node, and for a numeric feature
in which range of thresholds.  Every change bumps the room's ``version``, so
a follower or a tally polls one integer and reads the room only when it
moved.  What is sent to make or change them is checked by
:mod:`pages.room.checks`.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field, replace

#: The letters and digits of a room code: no 0/O, 1/I/L, so a code read from
#: a projector is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: A room that nobody changed for this long is dropped.
IDLE_SECONDS = 2 * 3600
#: At most this many features in a vote.
MAX_OPTIONS = 64
#: At most this many threshold ranges offered for one numeric feature.
MAX_RANGES = 6
#: At most this many ballots in one vote.
MAX_VOTERS = 500
#: A voter id is an opaque string of at most this many characters.
MAX_VOTER_CHARS = 64
#: A feature name, a range label or a ranking's feature: at most this long.
MAX_LABEL_CHARS = 200
#: The presenter's view: at most this many keys, values per key, characters
#: per key or value (a link's splits chosen by hand take up to 20,000), and
#: characters in all.
MAX_VIEW_KEYS = 64
MAX_VIEW_VALUES = 64
MAX_VIEW_TEXT = 20_000
MAX_VIEW_CHARS = 40_000


@dataclass(frozen=True)
class Ballot:
    """One student's choice: a feature, and for a numeric feature possibly
    one of the threshold ranges the vote offers for it."""

    feature: str
    range: str | None = None


@dataclass
class Vote:
    """A vote on the feature that splits ``node`` at ``step``.

    ``ballots`` maps a voter id to that voter's ballot; ``ranking`` holds the
    candidates' (feature, score) pairs once revealed; ``rows`` the node's
    rows that students see while they vote: (class, count) pairs, or one
    ("", count) pair for a regression tree.
    """

    node: int
    step: int
    options: tuple[str, ...]
    ranges: dict[str, tuple[str, ...]]
    ballots: dict[str, Ballot] = field(default_factory=dict)
    revealed: bool = False
    ranking: tuple[tuple[str, float], ...] = ()
    closed: bool = False
    rows: tuple[tuple[str, float], ...] = ()

    def tally(self) -> dict[str, int]:
        """The number of ballots for each option, in the options' order.

        Returns
        -------
        dict of str to int
            Every option, those with no ballot at 0; the counts sum to the
            number of voters.
        """
        counts = dict.fromkeys(self.options, 0)
        for ballot in self.ballots.values():
            counts[ballot.feature] += 1
        return counts

    def range_tally(self, feature: str) -> dict[str, int]:
        """The number of ballots for each of ``feature``'s ranges.

        Parameters
        ----------
        feature : str
            One of the vote's options.

        Returns
        -------
        dict of str to int
            Every range offered for ``feature``, in order, those with no
            ballot at 0; empty when the vote offers no ranges for it.  A
            ballot for ``feature`` without a range is not counted.
        """
        counts = dict.fromkeys(self.ranges.get(feature, ()), 0)
        for ballot in self.ballots.values():
            if ballot.feature == feature and ballot.range in counts:
                counts[ballot.range] += 1
        return counts

    def accepts(self, ballot: object) -> bool:
        """True if ``ballot`` is a :class:`Ballot` for one of the options,
        with no range or one of that option's ranges."""
        return (isinstance(ballot, Ballot) and isinstance(ballot.feature, str)
                and ballot.feature in self.options
                and (ballot.range is None
                     or (isinstance(ballot.range, str)
                         and ballot.range in self.ranges.get(ballot.feature, ()))))

    def copy(self) -> Vote:
        """A copy whose ballots and ranges can change without changing this one."""
        return replace(self, ranges=dict(self.ranges), ballots=dict(self.ballots))


@dataclass
class Room:
    """A lecture room: its code, the presenter's secret as a SHA-256 hex
    digest (the secret itself is never kept), the presenter's view as query
    parameters, a version bumped by every change, the vote if any, and when
    it was created and last changed (seconds since the epoch)."""

    code: str
    secret_hash: str
    view: dict[str, list[str]]
    version: int
    vote: Vote | None
    created: float
    touched: float

    def is_presenter(self, secret: object) -> bool:
        """True if ``secret`` is this room's presenter secret, compared in
        constant time; False for anything else, a non-string included."""
        if not isinstance(secret, str) or not secret:
            return False
        return hmac.compare_digest(hash_secret(secret), self.secret_hash)

    def idle(self, now: float) -> bool:
        """True if nothing changed the room for more than :data:`IDLE_SECONDS` before ``now``."""
        return now - self.touched > IDLE_SECONDS

    def copy(self) -> Room:
        """A copy whose view and vote can change without changing this one."""
        return replace(self, view={key: list(values) for key, values in self.view.items()},
                       vote=None if self.vote is None else self.vote.copy())


def hash_secret(secret: str) -> str:
    """The SHA-256 hex digest of a presenter secret, as a room keeps it.

    Parameters
    ----------
    secret : str
        The secret handed to the presenter when the room was created.

    Returns
    -------
    str
        64 lowercase hex digits.
    """
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()
