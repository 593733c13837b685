"""The class colours of every drawing, and the fills of a tree's boxes."""

from __future__ import annotations

import functools
import re

import numpy as np

from ._tree_view import TreeView, names_list

#: Okabe & Ito's colour-blind-safe qualitative palette (black left out, since
#: it cannot carry dark text).  Used cyclically when there are more classes.
OKABE_ITO = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
)

#: The class colours: Okabe & Ito's seven first, then seventeen of Paul Tol's
#: (his muted, bright, light, vibrant and medium-contrast schemes), each one
#: chosen in turn as the farthest (CIELAB distance, as drawn: capped for
#: black text by ``MIN_FILL_LUMINANCE``) from all the colours before it, the
#: greys left out (white means a tie, grey a cut subtree).  24 classes get 24
#: different colours; no two pure fills are closer than Okabe & Ito's own
#: closest pair.  Used cyclically beyond.
CLASS_COLOURS = OKABE_ITO + (
    "#999933",  # olive (muted)
    "#EE6677",  # red (bright)
    "#EEDD88",  # light yellow (light)
    "#332288",  # indigo (muted)
    "#FFAABB",  # pink (light)
    "#EE8866",  # orange (light)
    "#994455",  # dark red (medium contrast)
    "#AAAA00",  # olive (light)
    "#99DDFF",  # light cyan (light)
    "#EE3377",  # magenta (vibrant)
    "#228833",  # green (bright)
    "#44AA99",  # teal (muted)
    "#CCBB44",  # yellow (bright)
    "#CC6677",  # rose (muted)
    "#BBCC33",  # pear (light)
    "#997700",  # dark yellow (medium contrast)
    "#EECC66",  # light yellow (medium contrast)
)

#: A cut subtree's fill (grey: never a class colour).
TRUNCATED_FILL = "#C0C0C0"
#: Fills never get darker than this relative luminance, which keeps black
#: text at a contrast ratio of at least 7:1 (WCAG AAA).
MIN_FILL_LUMINANCE = 0.30

HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
_COLOUR_SPEC = re.compile(r"#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})|[A-Za-z][A-Za-z0-9]{0,31}")


def palette_colours(palette) -> list:
    """``palette`` (None: :data:`CLASS_COLOURS`) as a checked list of
    ``"#rrggbb"`` strings; raises ValueError if it is empty or holds
    anything else."""
    colours = list(CLASS_COLOURS if palette is None else names_list(palette, "palette"))
    if not colours:
        raise ValueError("palette must contain at least one colour")
    for c in colours:
        if not isinstance(c, str) or not HEX_COLOUR.fullmatch(c):
            raise ValueError(f"palette colours must be '#rrggbb' strings; got {c!r}")
    return colours


def _hex_to_rgb(colour: str):
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def _relative_luminance(rgb) -> float:
    def channel(c):
        c = c / 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _mix_with_white(rgb, alpha: float):
    return tuple(int(round(alpha * c + (1.0 - alpha) * 255.0)) for c in rgb)


@functools.lru_cache(maxsize=256)
def _max_alpha(rgb) -> float:
    """The strongest mix of ``rgb`` into white whose luminance stays at or
    above MIN_FILL_LUMINANCE (so black text stays readable)."""
    if _relative_luminance(rgb) >= MIN_FILL_LUMINANCE:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(30):
        mid = (lo + hi) / 2
        if _relative_luminance(_mix_with_white(rgb, mid)) >= MIN_FILL_LUMINANCE:
            lo = mid
        else:
            hi = mid
    return lo


def fill_colours(view, classifier, colours):
    """One "#rrggbb" fill per node.

    Single-output classifiers: the majority class's colour (ties go to the
    lowest class index), mixed into white in proportion to how far the
    leading class is ahead of the runner-up: ``(p1 - p2) / (1 - p2)``, so a
    pure node gets the full colour and a tie gets white.  Regressors: the
    first colour, in proportion to the node's value between the smallest
    and the largest.  Multi-output trees: the first colour, in proportion to
    how low the impurity is.  Every colour is capped by :func:`_max_alpha`.
    """
    n = view.node_count
    if classifier and view.n_outputs == 1:
        fractions = view.value[:, 0, :]
        index = np.argmax(fractions, axis=1) % len(colours)
        if fractions.shape[1] == 1:
            alpha = np.ones(n)
        else:
            top = -np.sort(-fractions, axis=1)
            p1, p2 = top[:, 0], top[:, 1]
            with np.errstate(divide="ignore", invalid="ignore"):
                alpha = np.where(p2 < 1.0, np.maximum(p1 - p2, 0.0) / (1.0 - p2), 0.0)
    else:
        index = np.zeros(n, dtype=np.int64)
        scale = view.value[:, 0, 0] if view.n_outputs == 1 else -view.impurity
        finite = scale[np.isfinite(scale)]
        lo, hi = (finite.min(), finite.max()) if finite.size else (0.0, 0.0)
        if hi == lo:
            alpha = np.ones(n)
        else:
            alpha = (scale - lo) / (hi - lo)
    alpha = np.clip(np.nan_to_num(alpha, nan=0.0, posinf=0.0, neginf=0.0), 0.0, 1.0)
    rgb = np.array([_hex_to_rgb(c) for c in colours], dtype=np.float64)
    cap = np.array([_max_alpha(tuple(int(v) for v in c)) for c in rgb])
    a = (alpha * cap[index])[:, None]
    mixed = np.round(a * rgb[index] + (1.0 - a) * 255.0).astype(int).tolist()
    return [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in mixed]


def node_fills(est, *, classifier=None, palette=None) -> list:
    """The fill of every node, as ``export_graphviz(filled=True)`` draws it,
    for drawings made elsewhere (see :func:`_fill_colours`).

    Parameters
    ----------
    est : estimator or Tree
        A fitted estimator, or a tree (``tree_``, ``tree_at(k)``...).
    classifier : bool or None, default=None
        Overrides the guess made from ``est`` (a bare ``tree_at(k)`` tree
        with one class would be taken for a regressor).
    palette : sequence of str or None, default=None
        ``"#rrggbb"`` colours, one per class in turn (a regressor's nodes
        use the first); None: ``OKABE_ITO``.

    Returns
    -------
    list of str
        One ``"#rrggbb"`` per node.

    Raises
    ------
    ValueError
        If ``palette`` is empty or holds something else than ``"#rrggbb"``.
    """
    view = TreeView(est)
    if classifier is None:
        classifier = view.is_classifier()
    colours = palette_colours(palette)
    return fill_colours(view, bool(classifier), colours)


def check_colour(colour, what) -> str:
    if not isinstance(colour, str) or not _COLOUR_SPEC.fullmatch(colour):
        raise ValueError(
            f"{what} must be '#rrggbb', '#rrggbbaa' or a Graphviz colour name; "
            f"got {colour!r}"
        )
    return colour

