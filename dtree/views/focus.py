"""Focus and context: which subtrees to fold so that a tree drawn for a
projector stays readable.

A tree of 30 or 60 nodes drawn whole in a 1280x720 window has text of 8 or
9 pixels.  Folded around the node the step talks about, it keeps that
node, the path to it and as much of its neighbourhood as fits at full
size; every other subtree becomes a stub that shows its size and class
mix (``export_graphviz(folded=...)``).  The user's own folds and unfolds
(clicks on boxes) are kept.
"""

from __future__ import annotations

import heapq
from collections import deque
from typing import Callable, Iterable, NamedTuple

from .fitting import text_px

#: The presenter's screen in CSS pixels and app.py's sizes on it, in rem
#: (22 px): the page's side padding, the bottom strip and the margin kept
#: under a tree.
SCREEN = (1280.0, 720.0)
REM_PX = 22.0
SIDE_REM, STRIP_REM, UNDER_REM = 1.0, 1.9, 1.4


def presenter_window(above_rem: float = 6.8, *, columns: int = 1, rows: int = 1,
                     gap_rem: float = 1.0, row_rem: float = 0.0,
                     under_rem: float = UNDER_REM) -> tuple[float, float]:
    """The box each tree is scaled into at 1280x720 (CSS pixels) when the
    trees start ``above_rem`` below the window's top and are laid out in
    ``rows`` rows of ``columns`` columns, ``gap_rem`` apart, each row after
    the first starting ``row_rem`` below the tree above it (its heading),
    the last ending ``under_rem`` above the bottom strip.
    :func:`above_tree_css` gives the page's CSS the same height."""
    width = (SCREEN[0] - 2 * SIDE_REM * REM_PX - (columns - 1) * gap_rem * REM_PX) / columns
    height = (SCREEN[1] - (STRIP_REM + under_rem + above_rem) * REM_PX
              - (rows - 1) * row_rem * REM_PX) / rows
    return width, height


def above_tree_css(above_rem: float, rows: int = 1, row_rem: float = 0.0,
                   under_rem: float = UNDER_REM) -> str:
    """The value of app.py's ``--dtree-above-tree`` that makes each of
    ``rows`` rows of trees as high as :func:`presenter_window` says, on any
    screen (constant CSS: numbers only).  app.py's CSS keeps a tree
    :data:`UNDER_REM` above the strip; the value makes up the difference."""
    rem = (above_rem + under_rem + (rows - 1) * row_rem) / rows - UNDER_REM
    if rows <= 1:
        return f"{rem:.3f}rem"
    return (f"calc((100vh - var(--dtree-strip)) * {1 - 1 / rows:.4f} + {rem:.3f}rem)")


#: The presenter's tree box at 1280x720, in CSS pixels (app.py's CSS: the
#: window less the step bar, the narration and the bottom strip): (1236, 498).
PRESENTER_WINDOW = presenter_window(6.8)
#: The least text size aimed at, in CSS pixels: the readable 14 plus a
#: margin for the estimate (:mod:`dtree.views.fitting`), which can be 10%
#: short for Chinese boxes.
READABLE_PX = 15.5


class Focus(NamedTuple):
    """A fold chosen for one drawing."""

    folded: frozenset  # node indices drawn as stubs
    text_px: float  # the text's estimated size in the window
    auto: bool  # True when folds were added to fit the window
    root: int = 0  # the node drawn at the top (not 0: a deep tree's lower part)


def focus_folds(tree, dot_for: Callable[[Iterable[int]], str], *, keep_open=(),
                keep_drawn=(), user_folded=(), user_opened=(),
                window=PRESENTER_WINDOW, readable_px=READABLE_PX, lift=False) -> Focus:
    """The subtrees of ``tree`` (a dtree ``Tree``) to fold.

    Parameters
    ----------
    tree : Tree
        The tree drawn (``model.tree_at(k)``).
    dot_for : callable
        ``dot_for(folded)``: the DOT of ``tree`` with the node indices
        ``folded`` drawn as stubs.
    keep_open : iterable of int
        Node indices drawn with their children (the node the step split).
    keep_drawn : iterable of int
        Node indices that must be drawn (the node to split next).
    user_folded, user_opened : iterable of int
        Node indices the user folded or opened; ``keep_open`` and
        ``keep_drawn`` win over ``user_folded``.
    window : (float, float)
        The window's width and height in CSS pixels.
    readable_px : float
        The text size to keep.
    lift : bool
        When even the kept nodes, the paths to them and stubs for the rest
        are too small: draw only the subtree of the highest node on the
        path to the kept node that is readable (``dot_for(folded, root)``
        must then take the node drawn at the top).

    Returns
    -------
    Focus
        The user's folds alone when the tree so drawn is readable; else the
        least folding found that is (nodes nearest the kept ones drawn
        first); else, with ``lift``, the same below the highest node of the
        path that makes it readable; else the kept nodes, the path to them
        and stubs for the rest, however small that comes out.
    """
    n = tree.node_count
    children = [list(tree.children_of(i)) for i in range(n)]
    parent = {kid: i for i in range(n) for kid in children[i]}

    def with_ancestors(nodes):
        out = set()
        for node in nodes:
            while node not in out:
                out.add(node)
                if node not in parent:
                    break
                node = parent[node]
        return out

    internal = {i for i in range(n) if children[i]}
    must = with_ancestors(keep_open) | with_ancestors(parent[c] for c in keep_drawn
                                                     if c in parent)
    must &= internal
    closed = (set(user_folded) & internal) - must

    def folds(opened, top=0):
        """The stubs when exactly ``opened`` (closed upwards to ``top``) is
        expanded."""
        stubs = {i for i in internal - opened if parent.get(i, -1) in opened}
        return frozenset(stubs | ({top} & internal - opened))

    def size(folded, top=0):
        dot = dot_for(sorted(folded), top) if top else dot_for(sorted(folded))
        return text_px(dot, window)

    # the outermost of the user's folds are what is drawn (a fold inside a
    # folded subtree is kept in the session for when it is opened)
    users = frozenset(i for i in closed if not (with_ancestors([i]) - {i}) & closed)
    px = size(users)
    if px >= readable_px or not internal:
        return Focus(users, px, False)

    opened = must | (with_ancestors(set(user_opened) & internal) - closed) & internal
    opened = {i for i in opened if not (with_ancestors([i]) - {i}) & closed}
    if 0 in internal:
        opened.add(0)
    top = 0
    best = folds(opened)
    px = size(best)
    kept = list(keep_open) or [parent[c] for c in keep_drawn if c in parent]
    if px < readable_px and lift and kept:
        # the path from the root down to the deepest node above every kept one
        paths = []
        for node in kept:
            path = [node]
            while path[0] in parent:
                path.insert(0, parent[path[0]])
            paths.append(path)
        path = [nodes[0] for nodes in zip(*paths) if len(set(nodes)) == 1]
        for top in path[1:]:  # the highest top that makes the least drawing readable
            below = _subtree(children, top)
            opened = {i for i in opened if i in below}
            best = folds(opened, top)
            px = size(best, top)
            if px >= readable_px:
                break
    # the rest by distance from the kept nodes (then by id): the focus's
    # neighbourhood first, far subtrees last
    distance = _distances(n, children, parent, set(keep_open) | set(keep_drawn) or {0})
    heap = [(distance[i], i) for i in internal - opened - closed if parent.get(i) in opened]
    heapq.heapify(heap)
    while heap:
        _, node = heapq.heappop(heap)
        trial = folds(opened | {node}, top)
        trial_px = size(trial, top)
        if trial_px < readable_px:
            continue
        opened.add(node)
        best, px = trial, trial_px
        for kid in children[node]:
            if kid in internal and kid not in closed:
                heapq.heappush(heap, (distance[kid], kid))
    return Focus(best, px, True, top)


def _subtree(children, node) -> set:
    out, todo = set(), [node]
    while todo:
        n = todo.pop()
        out.add(n)
        todo.extend(children[n])
    return out


def _distances(n, children, parent, sources) -> list:
    """Edges from each node to the nearest of ``sources``."""
    far = n + 1
    distance = [far] * n
    queue = deque()
    for s in sources:
        if 0 <= s < n:
            distance[s] = 0
            queue.append(s)
    while queue:
        node = queue.popleft()
        near = children[node] + ([parent[node]] if node in parent else [])
        for other in near:
            if distance[other] == far:
                distance[other] = distance[node] + 1
                queue.append(other)
    return distance
