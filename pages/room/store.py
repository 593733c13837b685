"""Who may change what in a lecture room, over rooms kept in this process
(:class:`~pages.room.setting.EmbeddedStore`, the default) or in Redis
(:class:`~pages.room.setting.RedisStore`, shared by several app
processes); :func:`~pages.room.setting.store_from_setting` picks one.

Whoever creates a room is its presenter and holds its secret: only the
secret's holder may change the view, open, reveal or close a vote, and close
the room.  Anyone with the code may read the room and cast a ballot.  Every
refusal is a :class:`RoomError` whose ``code`` the pages word.
"""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Callable

from pages.room.checks import (
    REFUSALS, checked_ranking, checked_view, checked_vote, checked_voter, normal_code,
)
from pages.room.keeper import RoomKeeper
from pages.room.model import (
    CODE_ALPHABET, CODE_LENGTH, MAX_VOTERS, Ballot, Room, Vote, hash_secret,
)
from pages.room.stage import checked_stage, stage_from_text, stage_to_text


class RoomError(ValueError):
    """A room refused what it was sent.

    Parameters
    ----------
    code : str
        A key of :data:`REFUSALS`: what the pages word for the user.
    detail : str, optional
        Replaces the English wording in the message.
    """

    def __init__(self, code: str, detail: str | None = None):
        super().__init__(detail or REFUSALS.get(code, code))
        self.code = code


def _store_reached(method):
    """A store method that raises RoomError("unavailable") when its rooms cannot be reached."""
    @functools.wraps(method)
    def reaching(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except (ConnectionError, TimeoutError) as error:
            raise RoomError("unavailable", str(error)) from error
    return reaching


def _presenter(room: Room, secret: object) -> None:
    if not room.is_presenter(secret):
        raise RoomError("not_presenter")


def _required(checked, refusal: str):
    """``checked``, unless it is None (a check refused it): then RoomError(refusal)."""
    if checked is None:
        raise RoomError(refusal)
    return checked


def _vote_of(room: Room) -> Vote:
    return _required(room.vote, "no_vote")


class RoomStore:
    """The rules of a room, over rooms kept in ``rooms``.

    Parameters
    ----------
    rooms : RoomKeeper
        Where the rooms are kept.  Use :mod:`pages.room.setting`'s stores.

    Notes
    -----
    Each change bumps the room's version; a room with no change for
    :data:`~pages.room.model.IDLE_SECONDS` is gone.
    """

    def __init__(self, rooms: RoomKeeper):
        self._rooms = rooms

    @_store_reached
    def create(self, view: dict, now: float | None = None) -> tuple[str, str]:
        """Open a room showing ``view``, under a new random code.

        Parameters
        ----------
        view : dict of str to list of str
            The presenter's view as query parameters (a value may be a
            single string); see :func:`~pages.room.checks.checked_view` for
            the bounds.
        now : float, optional
            The time of creation; the clock's by default.

        Returns
        -------
        (str, str)
            The room's code and the presenter's secret, which only the
            presenter's session keeps (the room keeps its hash).
        """
        checked = _required(checked_view(view), "bad_view")
        now = time.time() if now is None else float(now)
        secret = secrets.token_urlsafe(32)
        for _ in range(100):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            refusal = self._rooms.insert(Room(code, hash_secret(secret), checked, 1, None,
                                              now, now), now)
            if refusal is None:
                return code, secret
            if refusal == "full":
                break
        raise RoomError("full")

    @_store_reached
    def get(self, code: str) -> Room | None:
        """The room with this code, as it is now.

        Parameters
        ----------
        code : str
            A room code, in any case, with spaces around or not.

        Returns
        -------
        Room or None
            A snapshot of the room (read it, do not change it); None if
            there is no such room, it expired, or ``code`` cannot be a code.
        """
        code = normal_code(code)
        return None if code is None else self._rooms.load(code, time.time())

    @_store_reached
    def version(self, code: str) -> int | None:
        """The room's version, read cheaply: poll it, :meth:`get` the room when it moved.

        Parameters
        ----------
        code : str
            A room code, as for :meth:`get`.

        Returns
        -------
        int or None
            The version, bumped by every change; None as for :meth:`get`.
        """
        code = normal_code(code)
        return None if code is None else self._rooms.version(code, time.time())

    def set_view(self, code: str, secret: str, view: dict, stage: dict | None = None) -> int:
        """Show ``view`` (and ``stage``) to the room's followers (presenter only).

        Parameters
        ----------
        code : str
            The room's code.
        secret : str
            The presenter's secret, as :meth:`create` returned it.
        view : dict of str to list of str
            The presenter's view as query parameters.
        stage : dict, optional
            What followers are shown (:func:`~pages.room.stage.checked_stage`);
            the room's stage is kept when None.

        Returns
        -------
        int
            The room's new version.
        """
        text = None if stage is None else stage_to_text(
            _required(checked_stage(stage), "bad_view"))

        def show(room: Room) -> None:
            _presenter(room, secret)
            room.view = _required(checked_view(view), "bad_view")
        return self._change(code, show, stage=text)

    @_store_reached
    def stage(self, code: str) -> dict | None:
        """What the room's followers are shown, or None (no room or no stage yet).

        Parameters
        ----------
        code : str
            A room code, in any case, with spaces around or not.

        Returns
        -------
        dict or None
            A stage as :func:`~pages.room.stage.checked_stage` returns it.
        """
        code = normal_code(code)
        return None if code is None else stage_from_text(
            self._rooms.load_stage(code, time.time()))

    def open_vote(self, code: str, secret: str, *, node: int, step: int,
                  options, ranges: dict, rows=()) -> int:
        """Open a vote on the feature that splits ``node`` (presenter only),
        replacing any vote before it.

        Parameters
        ----------
        code : str
            The room's code.
        secret : str
            The presenter's secret.
        node, step : int
            The node voted on and the step shown.
        options : list or tuple of str
            The features to choose from.
        ranges : dict of str to list or tuple of str
            For numeric options, the threshold ranges offered
            (:func:`~pages.room.ranges.threshold_ranges`).
        rows : list or tuple of (str, float) pairs, default ()
            The node's class counts that students see (one ("", n) pair
            for a regression tree).

        Returns
        -------
        int
            The room's new version.
        """
        def open_(room: Room) -> None:
            _presenter(room, secret)
            room.vote = _required(checked_vote(node, step, options, ranges, rows), "bad_vote")
        return self._change(code, open_)

    def cast(self, code: str, voter: str, ballot: Ballot) -> int:
        """Cast ``voter``'s ballot, replacing that voter's earlier one, while
        the vote is open and not revealed (anyone with the code).

        Parameters
        ----------
        code : str
            The room's code.
        voter : str
            An opaque id of the student's session, 1 to 64 characters.
        ballot : Ballot
            One of the vote's options, with no range or one of its ranges.

        Returns
        -------
        int
            The room's new version.
        """
        _required(checked_voter(voter), "bad_voter")

        def cast_(room: Room) -> None:
            vote = _vote_of(room)
            if vote.closed or vote.revealed:
                raise RoomError("vote_closed")
            if not vote.accepts(ballot):
                raise RoomError("bad_ballot")
            if voter not in vote.ballots and len(vote.ballots) >= MAX_VOTERS:
                raise RoomError("full")
            vote.ballots[voter] = Ballot(ballot.feature, ballot.range)
        return self._change(code, cast_)

    def reveal(self, code: str, secret: str, ranking) -> int:
        """Reveal the vote next to the candidates' ranking (presenter only);
        ballots are refused from then on.

        Parameters
        ----------
        code : str
            The room's code.
        secret : str
            The presenter's secret.
        ranking : list or tuple of (str, float)
            The candidates' features and scores (gain, gain ratio or
            impurity decrease), best first.

        Returns
        -------
        int
            The room's new version.
        """
        def reveal_(room: Room) -> None:
            _presenter(room, secret)
            vote = _vote_of(room)
            if vote.closed:
                raise RoomError("vote_closed")
            vote.ranking = _required(checked_ranking(ranking), "bad_ranking")
            vote.revealed = True
        return self._change(code, reveal_)

    def close_vote(self, code: str, secret: str) -> int:
        """Close the vote (presenter only): it stays shown, ballots are refused.

        Parameters
        ----------
        code : str
            The room's code.
        secret : str
            The presenter's secret.

        Returns
        -------
        int
            The room's new version.
        """
        def close_(room: Room) -> None:
            _presenter(room, secret)
            _vote_of(room).closed = True
        return self._change(code, close_)

    @_store_reached
    def close(self, code: str, secret: str) -> None:
        """Close the room and free it (presenter only).

        Parameters
        ----------
        code : str
            The room's code.
        secret : str
            The presenter's secret.
        """
        room = _required(self.get(code), "no_room")
        _presenter(room, secret)
        self._rooms.remove(room.code)

    @_store_reached
    def expire(self, now: float | None = None) -> int:
        """Drop the rooms with no change for more than
        :data:`~pages.room.model.IDLE_SECONDS`.

        Parameters
        ----------
        now : float, optional
            The time to judge idleness at; the clock's by default.

        Returns
        -------
        int
            How many rooms were dropped.
        """
        return self._rooms.expire(time.time() if now is None else float(now))

    @_store_reached
    def count(self) -> int:
        """How many rooms are kept (for Redis a scan of the keys: not for polling)."""
        return self._rooms.count()

    @_store_reached
    def _change(self, code: str, apply: Callable[[Room], None], stage: str | None = None) -> int:
        normal, now = _required(normal_code(code), "no_room"), time.time()

        def change(room: Room) -> None:
            apply(room)
            room.version += 1
            room.touched = now
        return _required(self._rooms.change(normal, change, now, stage=stage), "no_room")
