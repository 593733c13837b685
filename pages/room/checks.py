"""The checks on everything sent to a room: its code, the presenter's view,
a new vote, a ranking and a voter id.

Each check returns the checked value, or None when it is refused;
:mod:`pages.room.store` turns a refusal into a
:class:`~pages.room.store.RoomError` with one of the codes of
:data:`REFUSALS`.  Nothing sent is free
text that is shown: options, ranges and view values are strings chosen
from lists the presenter's app made, and the pages escape whatever they
show.  A ballot is checked against its vote by :meth:`Vote.accepts
<pages.room.model.Vote.accepts>`.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

from pages.room.model import (
    CODE_ALPHABET, CODE_LENGTH, MAX_LABEL_CHARS, MAX_OPTIONS, MAX_RANGES, MAX_VIEW_CHARS,
    MAX_VIEW_KEYS, MAX_VIEW_TEXT, MAX_VIEW_VALUES, MAX_VOTER_CHARS, Vote,
)


#: Every refusal's code, with its English wording.
REFUSALS = {
    "no_room": "there is no room with this code (it may have expired or closed)",
    "not_presenter": "only the room's presenter may do this",
    "no_vote": "there is no vote in this room",
    "vote_closed": "the vote is closed or revealed",
    "bad_ballot": "the ballot is not one of the vote's choices",
    "bad_voter": "the voter id is not a string of 1 to 64 characters",
    "bad_vote": "a vote needs a node, a step, 1 to 64 distinct features and their ranges",
    "bad_ranking": "a ranking is a list of (feature, score) pairs",
    "bad_view": "a view is a small dict of strings",
    "full": "there is no room for more",
    "unavailable": "the room store does not answer",
}


def normal_code(code: object) -> str | None:
    """A room code as typed, stripped and upper-cased; None if it is not a
    string of :data:`CODE_LENGTH` characters of :data:`CODE_ALPHABET`.

    Parameters
    ----------
    code : object
        What a student typed or a link carried.

    Returns
    -------
    str or None
        The code, or None when it cannot be a room's code.
    """
    if not isinstance(code, str):
        return None
    code = code.strip().upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def checked_view(view: object) -> dict[str, list[str]] | None:
    """The presenter's view as ``{key: [value, ...]}``, or None if refused.

    Parameters
    ----------
    view : object
        A dict of query parameters: string keys, each with a string or a
        list or tuple of strings.  At most :data:`MAX_VIEW_KEYS` keys,
        :data:`MAX_VIEW_VALUES` values a key, :data:`MAX_VIEW_TEXT`
        characters a key or value and :data:`MAX_VIEW_CHARS` in all.

    Returns
    -------
    dict of str to list of str, or None
        A copy with every value a list; None for anything else.
    """
    if not isinstance(view, dict) or len(view) > MAX_VIEW_KEYS:
        return None
    checked, chars = {}, 0
    for key, values in view.items():
        if isinstance(values, str):
            values = [values]
        if (not isinstance(key, str) or not isinstance(values, (list, tuple))
                or len(values) > MAX_VIEW_VALUES):
            return None
        texts = [key, *values]
        if any(not isinstance(text, str) or len(text) > MAX_VIEW_TEXT for text in texts):
            return None
        chars += sum(map(len, texts))
        checked[key] = list(values)
    return checked if chars <= MAX_VIEW_CHARS else None


def _labels(values: object, most: int) -> tuple[str, ...] | None:
    """``values`` as a tuple of distinct non-empty labels, at most ``most``; else None."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple)):
        return None
    labels = tuple(values)
    if (len(labels) > most or len(set(labels)) != len(labels)
            or any(not isinstance(x, str) or not 0 < len(x) <= MAX_LABEL_CHARS for x in labels)):
        return None
    return labels


def checked_vote(node: object, step: object, options: object, ranges: object,
                 rows: object = ()) -> Vote | None:
    """A new open vote with no ballot, or None if what it is made of is refused.

    Parameters
    ----------
    node, step : int
        The node voted on and the step shown, both at least 0 (NumPy
        integers too).
    options : list or tuple of str
        The features to choose from: 1 to :data:`MAX_OPTIONS` distinct names.
    ranges : dict of str to list or tuple of str
        For some options (numeric features), up to :data:`MAX_RANGES`
        distinct threshold-range labels; options not in it have no ranges.
    rows : list or tuple of (str, float) pairs, default ()
        The node's class counts (at most :data:`MAX_OPTIONS` pairs of a
        label and a finite count of at least 0; a label may be empty).

    Returns
    -------
    Vote or None
    """
    if any(isinstance(x, bool) or not isinstance(x, Integral) or x < 0 for x in (node, step)):
        return None
    checked_options = _labels(options, MAX_OPTIONS)
    if not checked_options or not isinstance(ranges, dict):
        return None
    checked_ranges = {}
    for feature, labels in ranges.items():
        checked_labels = _labels(labels, MAX_RANGES)
        if feature not in checked_options or checked_labels is None:
            return None
        checked_ranges[feature] = checked_labels
    checked_rows = _counts(rows)
    if checked_rows is None:
        return None
    return Vote(node=int(node), step=int(step), options=checked_options, ranges=checked_ranges,
                rows=checked_rows)


def _counts(rows: object) -> tuple[tuple[str, float], ...] | None:
    """``rows`` as ((label, count), ...), or None if refused (see checked_vote)."""
    if isinstance(rows, (str, bytes)) or not isinstance(rows, (list, tuple)):
        return None
    if len(rows) > MAX_OPTIONS or any(not isinstance(p, (list, tuple)) or len(p) != 2
                                      for p in rows):
        return None
    checked = []
    for label, count in rows:
        if (not isinstance(label, str) or len(label) > MAX_LABEL_CHARS
                or isinstance(count, bool) or not isinstance(count, Real)
                or not math.isfinite(count) or count < 0):
            return None
        checked.append((label, float(count)))
    return tuple(checked)


def checked_ranking(ranking: object) -> tuple[tuple[str, float], ...] | None:
    """The candidates' ranking as ``((feature, score), ...)``, or None if refused.

    Parameters
    ----------
    ranking : list or tuple of (str, float) pairs
        At most :data:`MAX_OPTIONS` pairs of a feature name and a number
        (a gain, gain ratio or impurity decrease), best first.

    Returns
    -------
    tuple of (str, float) or None
    """
    if isinstance(ranking, (str, bytes)) or not isinstance(ranking, (list, tuple)):
        return None
    if len(ranking) > MAX_OPTIONS:
        return None
    checked = []
    for pair in ranking:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            return None
        feature, score = pair
        if (not isinstance(feature, str) or not 0 < len(feature) <= MAX_LABEL_CHARS
                or isinstance(score, bool) or not isinstance(score, Real)):
            return None
        checked.append((feature, float(score)))
    return tuple(checked)


def checked_voter(voter: object) -> str | None:
    """A voter id: a non-empty string of at most :data:`MAX_VOTER_CHARS`
    characters, or None.

    Parameters
    ----------
    voter : object
        The opaque id a student's session sends with its ballot.

    Returns
    -------
    str or None
    """
    if isinstance(voter, str) and 0 < len(voter) <= MAX_VOTER_CHARS:
        return voter
    return None
