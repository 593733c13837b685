"""How large a drawn tree comes out in a window: an estimate made from its
DOT alone, before any browser lays it out.

Graphviz sizes a box by its text, and the page scales the drawing down to
the window (never up beyond its natural size).  So the text's size on
screen is the font size times that scale, and the scale follows from the
tree's extent in font sizes (em): each subtree is as wide as its children
side by side (or as its own box), and the levels are stacked with the
ranks' spacing.  Estimates err on the large side, so that a drawing judged
to fit does.
"""

from __future__ import annotations

import re

_DOT_NODE = re.compile(r'^(\d+) \[label="((?:[^"\\]|\\.)*)"', re.M)
_DOT_EDGE = re.compile(r"^(\d+) -> (\d+)", re.M)
_FONT_SIZE = re.compile(r"^node \[.*fontsize=([0-9.]+)", re.M)
_RANKDIR = re.compile(r"^rankdir=(\w+)", re.M)
_WIDTH = re.compile(r"\bwidth=([0-9.]+)")
#: Space between boxes side by side and between ranks (edge labels
#: included), in font sizes.
NODE_GAP, RANK_GAP = 0.6, 1.6
#: A point is 4/3 of a CSS pixel: the largest a drawing is ever shown.
PX_PER_PT = 4 / 3


def box_size(label: str, width_in: float | None = None,
             fontsize: float = 14.0) -> tuple[float, float]:
    """(width, height) of a DOT box holding ``label`` (DOT-escaped lines
    joined by ``\\n``), in font sizes: 0.55 per character (CJK characters
    count twice) and 1.2 per line, plus the margins Graphviz adds; at least
    the box's own ``width`` (``width_in``, inches) when the DOT sets one."""
    lines = label.replace("\\\\", "\\").split("\\n")
    chars = max(sum(2 if ord(c) > 0x2E80 else 1 for c in line) for line in lines)
    width = 0.55 * chars + 1.1
    if width_in is not None:
        width = max(width, width_in * 72 / fontsize)
    return width, 1.2 * len(lines) + 0.6


def _boxes(dot: str) -> dict:
    size = font_size(dot)
    boxes = {}
    for line in dot.splitlines():
        found = _DOT_NODE.match(line)
        if found:
            width = _WIDTH.search(line[found.end():])
            boxes[int(found.group(1))] = box_size(
                found.group(2), float(width.group(1)) if width else None, size)
    return boxes


def drawn_extent(dot: str, rankdir: str | None = None) -> tuple[float, float]:
    """(width, height) of the drawing of ``dot`` (an ``export_graphviz``
    DOT) in font sizes, laid out top-down or, with ``rankdir="LR"``, left to
    right (default: the DOT's own ``rankdir``).

    Across the ranks, the subtrees are packed as a tidy tree is drawn
    (Reingold and Tilford; dot's layout comes close): each child subtree
    as close to its left sibling as their boxes allow level by level, and
    a parent centred over its children."""
    boxes = _boxes(dot)
    if not boxes:
        return 0.0, 0.0
    if rankdir is None:
        found = _RANKDIR.search(dot)
        rankdir = found.group(1) if found else "TB"
    children: dict[int, list[int]] = {}
    has_parent = set()
    for parent, child in _DOT_EDGE.findall(dot):
        children.setdefault(int(parent), []).append(int(child))
        has_parent.add(int(child))
    root = min(n for n in boxes if n not in has_parent)
    across, along = (1, 0) if rankdir in ("LR", "RL") else (0, 1)
    levels: dict[int, float] = {}

    def contour(node, depth):
        """[(left, right)] per level of the subtree, about its root's centre
        (and each level's largest box along the ranks, into ``levels``)."""
        own = boxes.get(node, (0.0, 0.0))
        levels[depth] = max(levels.get(depth, 0.0), own[along])
        half = own[across] / 2
        kids = children.get(node, [])
        if not kids:
            return [(-half, half)]
        placed, offsets = [], []
        for kid in kids:
            shape = contour(kid, depth + 1)
            offset = 0.0
            if placed:
                offset = max(right - shape[i][0] + NODE_GAP
                             for i, (_, right) in enumerate(placed[:len(shape)]))
            offsets.append(offset)
            for i, (left, right) in enumerate(shape):
                if i < len(placed):
                    placed[i] = (min(placed[i][0], left + offset),
                                 max(placed[i][1], right + offset))
                else:
                    placed.append((left + offset, right + offset))
        centre = (offsets[0] + offsets[-1]) / 2
        return [(-half, half)] + [(left - centre, right - centre) for left, right in placed]

    shape = contour(root, 0)
    wide = max(right for _, right in shape) - min(left for left, _ in shape)
    deep = sum(levels.values()) + RANK_GAP * (len(levels) - 1)
    return (deep, wide) if across == 1 else (wide, deep)


def font_size(dot: str) -> float:
    """The DOT's node font size, in points (14 when it sets none)."""
    found = _FONT_SIZE.search(dot)
    return float(found.group(1)) if found else 14.0


def text_px(dot: str, window: tuple[float, float], rankdir: str | None = None) -> float:
    """The estimated size of the drawing's text in CSS pixels when it is
    scaled down to fit ``window`` (width, height in CSS pixels)."""
    width, height = drawn_extent(dot, rankdir)
    size = font_size(dot) * PX_PER_PT
    if width <= 0:
        return size
    return min(size, window[0] / width, window[1] / height)


def fitting_direction(dot: str, aspect: float = 2.2) -> str:
    """"TB" or "LR": the layout in which the tree drawn by ``dot`` (usually
    the grown tree's) comes out largest in a window ``aspect`` times as wide
    as it is high.  Deciding on the grown tree keeps the layout (and so the
    text size) from flipping while stepping."""
    if not _DOT_NODE.search(dot):
        return "TB"
    top_down = text_px(dot, (aspect, 1.0), "TB")
    left_right = text_px(dot, (aspect, 1.0), "LR")
    return "LR" if left_right > top_down else "TB"
