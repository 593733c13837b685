"""What a room's followers are shown: the presenter's stage.

A stage is what the projector shows at the presenter's step, made by the
presenter's own run: a title line (the data and the algorithm), a line
saying where the growth is, the sentences under the tree, and the trees
themselves as DOT.  A following student's page draws it as it is, so a
step reaches a hundred phones without a hundred fits or page runs, for any
table the presenter uses (an uploaded one included).  The text is the
presenter's page's, already escaped for Markdown (pages.state.room_session
builds it from what the page drew); the DOT is drawn by Graphviz in the
browser, never as HTML.

Each stage is kept as JSON text beside its room (see
:meth:`pages.room.store.RoomStore.set_view`); this module checks it and
bounds it.
"""

from __future__ import annotations

import json

#: At most this many trees on a stage (the Compare page shows up to 4).
MAX_STAGE_TREES = 4
#: At most this many lines of text on a stage, each of at most
#: :data:`MAX_STAGE_LINE` characters.
MAX_STAGE_LINES = 8
MAX_STAGE_LINE = 2_000
#: At most this many characters of DOT on a stage, all trees together
#: (a tree of about 2,000 nodes); beyond it the stage keeps its words and
#: says that the trees are too large to follow.
MAX_STAGE_DOT = 1_500_000


#: The languages a stage may be given in besides its own.
STAGE_LANGUAGES = ("en", "zh")


def _words_and_trees(part: object) -> dict | None:
    """``part``'s title, lines and trees, checked and cut to the bounds (the
    trees' DOT not yet counted), or None."""
    if not isinstance(part, dict):
        return None
    title, lines, trees = part.get("title"), part.get("lines"), part.get("trees")
    if not (isinstance(title, str) and isinstance(lines, (list, tuple))
            and isinstance(trees, (list, tuple))
            and all(isinstance(x, str) for x in lines)
            and all(isinstance(p, (list, tuple)) and len(p) == 2
                    and all(isinstance(x, str) for x in p) for p in trees)):
        return None
    return {"title": title[:MAX_STAGE_LINE],
            "lines": [line[:MAX_STAGE_LINE] for line in lines[:MAX_STAGE_LINES]],
            "trees": [[caption[:MAX_STAGE_LINE], dot] for caption, dot in trees[:MAX_STAGE_TREES]]}


def checked_stage(stage: object) -> dict | None:
    """A stage as the room keeps it, or None when it is not one.

    Parameters
    ----------
    stage : object
        A dict with ``"page"`` (str), ``"title"`` (str), ``"lines"`` (list
        of str) and ``"trees"`` (list of [caption, DOT] pairs of str; a
        caption may be empty); optionally ``"lang"`` (the language of those,
        one of :data:`STAGE_LANGUAGES`) and ``"also"``: the same title,
        lines and trees in other languages, ``{lang: {"title", "lines",
        "trees"}}``.

    Returns
    -------
    dict or None
        The same keys (``"lang"`` None and ``"also"`` empty when not
        given); lines beyond :data:`MAX_STAGE_LINES` and trees beyond
        :data:`MAX_STAGE_TREES` dropped; every tree dropped and
        ``"too_large"`` True when their DOT, all languages together, passes
        :data:`MAX_STAGE_DOT`.  None if a key is missing or a value has the
        wrong type.
    """
    if not isinstance(stage, dict) or not isinstance(stage.get("page"), str):
        return None
    own = _words_and_trees(stage)
    language = stage.get("lang")
    also = stage.get("also", {})
    if own is None or language not in (None, *STAGE_LANGUAGES) or not isinstance(also, dict):
        return None
    others = {}
    for other, part in also.items():
        checked = _words_and_trees(part)
        if other not in STAGE_LANGUAGES or other == language or checked is None:
            return None
        others[other] = checked
    parts = [own, *others.values()]
    too_large = sum(len(dot) for part in parts for _, dot in part["trees"]) > MAX_STAGE_DOT
    if too_large:
        for part in parts:
            part["trees"] = []
    return {"page": stage["page"][:40], **own, "lang": language, "also": others,
            "too_large": too_large}


def in_language(stage: dict, language: str) -> dict:
    """The title, lines and trees of a checked ``stage`` in ``language`` when
    it was given in it, else in its own language."""
    return stage["also"].get(language, stage)


def stage_to_text(stage: dict) -> str:
    """A checked stage as the JSON text a room keeps."""
    return json.dumps(stage, ensure_ascii=False, separators=(",", ":"))


def stage_from_text(text: str | None) -> dict | None:
    """The stage kept as ``text``, checked again; None for no stage or a bad one."""
    if not text:
        return None
    try:
        return checked_stage(json.loads(text))
    except (ValueError, RecursionError):
        return None
