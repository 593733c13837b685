"""Reading ``forced_splits``: the splits a user imposes at the top of a tree.

The format is LightGBM's forced splits, a dict or its JSON text::

    {"feature": 2, "threshold": 2.45,
     "left": null,
     "right": {"feature": "petal width (cm)", "threshold": 1.75}}

rows with ``x <= threshold`` go left; ``left``/``right`` (absent or null:
not forced) nest further forced splits.  A categorical feature takes the form
of the tree's categorical splits: ``"categories"`` (the categories that go
left) for a binary subset split (``multiway=False``), or ``"branches"``, a
dict from category to the forced split below it, for a multiway split (one
branch per category present in the node).

:func:`read_forced` checks everything that does not need the rows (keys,
features, thresholds, categories, depth against ``max_depth``, size limits)
and returns the tree of :class:`ForcedNode`; what needs the rows (empty
sides, the size rules) is checked as the tree grows (``dtree/_forced.py``).
"""

import json
import math
import numbers

import numpy as np

from ._errors import CodedError
from ._tree import MULTIWAY, NUMERIC, SUBSET

#: The longest JSON text read, in characters.
MAX_JSON_CHARS = 1_000_000
#: The deepest forced split (the root is at depth 0) ...
MAX_DEPTH = 64
#: ... and the most forced splits, so that a spec's size is bounded
#: whatever its source.
MAX_NODES = 10_000

_KEYS = ("feature", "threshold", "categories", "branches", "left", "right")


class ForcedNode:
    """One forced split, resolved against the fitted features.

    ``path`` names it in messages ("root → left → right", a multiway branch
    by its category: 'root → "sunny"'); ``kind`` is the tree's ``NUMERIC``,
    ``SUBSET`` or ``MULTIWAY``; ``threshold`` is the routing threshold (the
    given one read at ``X``'s precision), ``left_codes`` the category codes
    of a subset split's left side; ``children`` are the forced splits below,
    per child position (binary) or ``branches`` per category code
    (multiway), None where growth is free.
    """

    __slots__ = ("path", "depth", "feature", "name", "kind", "threshold", "left_codes",
                 "children", "branches", "labels")

    def __init__(self, path, depth, feature, name, kind):
        self.path, self.depth, self.feature, self.name, self.kind = (path, depth, feature,
                                                                     name, kind)
        self.threshold = float("nan")
        self.left_codes = None
        self.children = [None, None]
        self.branches = {}
        self.labels = None

    def walk(self):
        """This node and every forced node below it, parents first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            below = list(node.branches.values()) if node.kind == MULTIWAY else node.children
            stack.extend(b for b in reversed(below) if b is not None)


def _parse(spec):
    if isinstance(spec, (str, bytes, bytearray)):
        if len(spec) > MAX_JSON_CHARS:
            raise CodedError("forced_too_long", size=len(spec), limit=MAX_JSON_CHARS)
        try:
            return json.loads(spec)
        except (ValueError, RecursionError) as exc:
            # (a JSON text nested thousands deep exhausts the parser's recursion)
            raise CodedError("forced_not_json", detail=str(exc) or type(exc).__name__) from None
    return spec


def _feature(raw, path, names, n_features):
    if "feature" not in raw:
        raise CodedError("forced_no_feature", node=path)
    f = raw["feature"]
    if isinstance(f, numbers.Integral) and not isinstance(f, bool):
        if 0 <= f < n_features:
            return int(f)
    elif isinstance(f, str) and f in names:
        return names.index(f)
    raise CodedError("forced_unknown_feature", node=path, feature=f, last=n_features - 1)


def _threshold(raw, path, dtype):
    t = raw["threshold"]
    if (not isinstance(t, numbers.Real) or isinstance(t, bool)
            or not math.isfinite(float(t))):
        raise CodedError("forced_bad_threshold", node=path, threshold=t)
    # X is read at this precision (float32, as scikit-learn): a row whose
    # value is written t then goes left even when t has no exact float32
    # form (0.1, 4.9)
    return float(np.asarray(t, dtype=np.float64).astype(dtype))


def _number(v):
    """``v`` as a float if it is a number other than a bool (or the text of
    one, as JSON's keys are), else None."""
    if isinstance(v, str):
        try:
            v = float(v)
        except ValueError:
            return None
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
        return None
    return float(v)


def _category_code(value, labels, path, name):
    """The code of the category ``value`` names: the label equal to it, else
    the one written as it (JSON keys are strings: "1" names the category 1),
    else the number equal to it (1 and "1" name 1.0)."""
    if isinstance(value, (str, numbers.Number, np.bool_)):
        tries = (
            lambda lab: type(lab) is type(value) and lab == value,
            lambda lab: str(lab) == str(value),
            lambda lab: (not isinstance(lab, str) and _number(lab) is not None
                         and _number(lab) == _number(value)),
        )
        for same in tries:
            hits = [i for i, lab in enumerate(labels) if same(lab)]
            if len(hits) == 1:
                return hits[0]
            if hits:  # (two labels that read alike: name neither)
                break
    raise CodedError("forced_unknown_category", node=path, name=name, category=value)


def _child_path(path, step):
    return f"{path} → {step}"


def read_forced(spec, *, names, is_cat, categories, multiway, max_depth, dtype):
    """The root :class:`ForcedNode` of ``spec`` (a dict or JSON text).

    Parameters
    ----------
    spec : dict or str
        The ``forced_splits`` parameter.
    names : list of str
        The features' names (``feature_names_``).
    is_cat : array of bool
        Which features are categorical.
    categories : list
        Each feature's category labels in code order, None for numeric ones.
    multiway : bool
        Whether categorical splits are multiway (else binary subsets).
    max_depth : int
        The estimator's depth limit: a forced split must be above it.
    dtype : numpy dtype
        The precision ``X`` is read at (thresholds are read at it too).

    Returns
    -------
    ForcedNode

    Raises
    ------
    CodedError
        A ``ValueError`` naming the forced split and the rule it breaks.
    """
    raw_root = _parse(spec)
    n_features = len(names)
    count = 0
    root = None
    # (parent, slot, raw, path, depth); iterative, so a deep spec cannot
    # exhaust Python's recursion before the depth limit speaks
    stack = [(None, None, raw_root, "root", 0)]
    while stack:
        parent, slot, raw, path, depth = stack.pop()
        if not isinstance(raw, dict):
            raise CodedError("forced_not_object", node=path, got=type(raw).__name__)
        if depth >= MAX_DEPTH:
            raise CodedError("forced_too_deep", node=path, limit=MAX_DEPTH)
        count += 1
        if count > MAX_NODES:
            raise CodedError("forced_too_many", limit=MAX_NODES)
        unknown = [k for k in raw if k not in _KEYS]
        if unknown:
            raise CodedError("forced_unknown_key", node=path,
                             keys=", ".join(repr(k) for k in unknown))
        f = _feature(raw, path, names, n_features)
        name = names[f]
        if not is_cat[f]:
            kind = NUMERIC
            if "threshold" not in raw or "categories" in raw or "branches" in raw:
                raise CodedError("forced_numeric_form", node=path, name=name)
        elif multiway:
            kind = MULTIWAY
            if any(k in raw for k in ("threshold", "categories", "left", "right")):
                raise CodedError("forced_multiway_form", node=path, name=name)
        else:
            kind = SUBSET
            cats = raw.get("categories")
            if ("threshold" in raw or "branches" in raw or not isinstance(cats, (list, tuple))
                    or not cats):
                raise CodedError("forced_subset_form", node=path, name=name)
        if depth >= max_depth:
            raise CodedError("forced_max_depth", node=path, depth=depth, max_depth=max_depth)
        node = ForcedNode(path, depth, f, name, kind)
        if kind == NUMERIC:
            node.threshold = _threshold(raw, path, dtype)
        elif kind == SUBSET:
            node.labels = [str(v) for v in categories[f]]
            node.left_codes = np.unique([_category_code(v, list(categories[f]), path, name)
                                         for v in raw["categories"]])
        else:
            node.labels = [str(v) for v in categories[f]]
        if parent is None:
            root = node
        elif parent.kind == MULTIWAY:
            parent.branches[slot] = node
        else:
            parent.children[slot] = node
        if kind == MULTIWAY:
            branches = raw.get("branches")
            if branches is None:
                branches = {}
            if not isinstance(branches, dict):
                raise CodedError("forced_multiway_form", node=path, name=name)
            labels = list(categories[f])
            below = []
            for key, sub in branches.items():
                code = _category_code(key, labels, path, name)
                if code in node.branches or any(c == code for c, _, _ in below):
                    raise CodedError("forced_multiway_form", node=path, name=name)
                node.branches[code] = None
                if sub is not None:
                    below.append((code, sub, _child_path(path, f'"{labels[code]}"')))
            for code, sub, sub_path in reversed(below):
                stack.append((node, code, sub, sub_path, depth + 1))
        else:
            for slot_i, side in ((1, "right"), (0, "left")):  # left popped first
                sub = raw.get(side)
                if sub is not None:
                    stack.append((node, slot_i, sub, _child_path(path, side), depth + 1))
    return root


def count_forced(root):
    """The number of forced splits under (and with) ``root``."""
    return sum(1 for _ in root.walk())
