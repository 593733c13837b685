"""Check a scikit-learn tree's arrays before anything walks them.

scikit-learn indexes its node arrays without bounds checks, and a tree read
from a file holds whatever the file says.  :func:`check_tree_arrays` makes
sure the arrays describe one tree: every id in range, every node but the
root reached from exactly one parent with a smaller id (so there is no cycle
and no orphan, and walking down always ends), every split on a real feature
at a threshold that is a number, and finite counts and values that add up.  :func:`check_settings` refuses
the settings (``max_depth``, ``criterion``...) that scikit-learn itself
would refuse, or that dtree cannot replay.
:class:`SkopsLimits` bounds the sizes a tree (and a ``.skops`` file) may
claim, so that a file cannot choose how much memory is allocated for it.
"""

from dataclasses import dataclass

import numpy as np

from ._errors import TreeFileError

__all__ = ["SkopsLimits", "check_tree_arrays", "check_sizes", "check_settings", "check_classes",
           "check_max_features"]

_MiB = 1 << 20


@dataclass(frozen=True)
class SkopsLimits:
    """The most that opening one scikit-learn tree reads and allocates.

    The defaults open a tree of two million nodes with ten classes; raise a
    limit for a bigger tree, e.g. ``SkopsLimits(max_nodes=10_000_000,
    max_member_bytes=2 << 30, max_total_bytes=2 << 30)``.

    Attributes
    ----------
    max_file_bytes : the size of the ``.skops`` file itself.
    max_members : the number of files inside it (a tree needs about ten).
    max_member_bytes : the unpacked size of one file inside it.
    max_total_bytes : the unpacked size of all of them together.
    max_schema_bytes : the unpacked size of its ``schema.json``.
    max_schema_depth : how deeply its JSON may nest (a tree needs about 15).
    max_schema_entries : how many values (objects, lists and their items)
        the schema may hold: about eight per feature name, a few hundred
        besides, so the default reads about a hundred thousand named
        features.
    max_nodes : the tree's node count.
    max_features : ``n_features_in_``.
    max_classes : ``n_classes_``.
    max_seconds : the time reading the file may take before it is stopped.
    """

    max_file_bytes: int = 512 * _MiB
    max_members: int = 256
    max_member_bytes: int = 256 * _MiB
    max_total_bytes: int = 320 * _MiB
    max_schema_bytes: int = 16 * _MiB
    max_schema_depth: int = 64
    max_schema_entries: int = 1_000_000
    max_nodes: int = 2_000_000
    max_features: int = 1_000_000
    max_classes: int = 100_000
    max_seconds: float = 60.0


def _integer(value, what, where):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TreeFileError("bad_attribute", where, what=what, problem="not_whole_number",
                            type=type(value).__name__)
    return int(value)


def check_sizes(where, limits, *, n_features, n_classes=None, n_outputs=1, node_count=None):
    """Refuse sizes a tree claims beyond ``limits`` (or below 1).

    Returns the sizes as Python ints: ``(n_features, n_classes, node_count)``
    (``n_classes`` is None for a regressor, as is ``node_count`` when not
    given).  Raises :class:`TreeFileError` otherwise.
    """
    n_outputs = _integer(n_outputs, "number of outputs", where)
    if n_outputs != 1:
        raise TreeFileError("multi_output", where, n_outputs=n_outputs)
    checked = []
    for value, what, field in ((n_features, "number of features (n_features_in_)",
                                "max_features"),
                               (n_classes, "number of classes", "max_classes"),
                               (node_count, "node count", "max_nodes")):
        if value is None:
            checked.append(None)
            continue
        value = _integer(value, what, where)
        if value < 1:
            raise TreeFileError("bad_attribute", where, what=what, problem="below_one",
                                value=value)
        limit = getattr(limits, field)
        if value > limit:
            raise TreeFileError("over_limit", where, what=what, value=value, limit=limit,
                                field=field)
        checked.append(value)
    return tuple(checked)


def _first(mask):
    return int(np.flatnonzero(mask)[0])


def check_tree_arrays(where, *, left, right, feature, threshold, impurity, n_node_samples,
                      weighted_n_node_samples, value, n_features, n_classes):
    """Refuse arrays that do not describe one consistent tree.

    Parameters
    ----------
    where : str
        The file or estimator, for the messages.
    left, right : arrays of int, one per node
        Children ids, -1 at leaves.
    feature, threshold, impurity, n_node_samples, weighted_n_node_samples :
        arrays, one entry per node (``feature`` and ``threshold`` are read at
        split nodes only).
    value : array of shape (node_count, 1, n_classes or 1)
    n_features : int
        ``n_features_in_``; split features must lie in ``[0, n_features)``.
    n_classes : int or None
        The number of classes (None for a regressor, whose value has one
        column).

    Raises
    ------
    TreeFileError
        Naming the first node that breaks a rule, and the rule.
    """
    left = np.asarray(left)
    right = np.asarray(right)
    n = len(left)
    if n == 0:
        raise TreeFileError("no_nodes", where)
    arrays = (right, feature, threshold, impurity, n_node_samples, weighted_n_node_samples)
    if any(np.shape(a) != (n,) for a in arrays) or left.shape != (n,):
        raise TreeFileError("malformed", where,
                            detail="its node arrays have different lengths")
    for name, a in (("children", left), ("children", right), ("features", feature),
                    ("sample counts", n_node_samples)):
        if np.asarray(a).dtype.kind not in "iu":
            raise TreeFileError("malformed", where, detail=f"its {name} are not integers")
    left = left.astype(np.int64)
    right = right.astype(np.int64)
    # children: -1 (a leaf) or another node's id
    for child in (left, right):
        bad = (child != -1) & ((child < 0) | (child >= n))
        if bad.any():
            node = _first(bad)
            raise TreeFileError("bad_child", where, node=node, child=int(child[node]),
                                last=n - 1)
    split = left != -1
    half = split != (right != -1)
    if half.any():
        raise TreeFileError("half_leaf", where, node=_first(half))
    parents = np.flatnonzero(split)
    kids = np.concatenate([left[parents], right[parents]])
    kid_parent = np.concatenate([parents, parents])
    backwards = kids <= kid_parent
    if backwards.any():
        i = _first(backwards)
        if kids[i] == 0:
            raise TreeFileError("root_is_child", where, parent=int(kid_parent[i]))
        raise TreeFileError("child_before_parent", where, node=int(kids[i]),
                            parent=int(kid_parent[i]))
    n_parents = np.bincount(kids, minlength=n)
    if (n_parents > 1).any():
        node = _first(n_parents > 1)
        raise TreeFileError("two_parents", where, node=node, count=int(n_parents[node]))
    orphans = n_parents[1:] == 0
    if orphans.any():
        raise TreeFileError("orphan", where, node=_first(orphans) + 1)
    # splits: a real feature, a threshold that is a number (+inf is scikit-learn's
    # split of the known values against the missing ones)
    feat = np.asarray(feature).astype(np.int64)[split]
    bad = (feat < 0) | (feat >= n_features)
    if bad.any():
        i = _first(bad)
        raise TreeFileError("bad_feature", where, node=int(parents[i]), feature=int(feat[i]),
                            last=n_features - 1)
    thr = np.asarray(threshold, dtype=np.float64)[split]
    bad = np.isnan(thr) | (thr == -np.inf)
    if bad.any():
        i = _first(bad)
        raise TreeFileError("bad_threshold", where, node=int(parents[i]),
                            threshold=float(thr[i]))
    # numbers
    value = np.asarray(value)
    columns = 1 if n_classes is None else n_classes
    if value.ndim != 3 or value.shape[0] != n or value.shape[1] != 1 or \
            value.shape[2] != columns:
        raise TreeFileError("value_shape", where, shape=tuple(value.shape), node_count=n,
                            n_classes=columns, expected=(n, 1, columns))
    checks = (("impurity", np.asarray(impurity, dtype=np.float64)),
              ("weighted sample count", np.asarray(weighted_n_node_samples,
                                                  dtype=np.float64)),
              ("value", value.reshape(n, -1).astype(np.float64)))
    for what, a in checks:
        finite = np.isfinite(a) if a.ndim == 1 else np.isfinite(a).all(axis=1)
        if not finite.all():
            raise TreeFileError("bad_value", where, node=_first(~finite), what=what)
    w = np.asarray(weighted_n_node_samples, dtype=np.float64)
    if (w < 0).any():  # (0 is a leaf of zero-weight samples: scikit-learn makes those)
        node = _first(w < 0)
        raise TreeFileError("negative_weight", where, node=node, weight=float(w[node]))
    counts = np.asarray(n_node_samples).astype(np.int64)
    if (counts < 1).any():
        node = _first(counts < 1)
        raise TreeFileError("bad_value", where, node=node, what="sample count (below one)")
    lp, rp = left[parents], right[parents]
    wrong = counts[parents] != counts[lp] + counts[rp]
    if wrong.any():
        node = int(parents[_first(wrong)])
        raise TreeFileError("bad_samples", where, node=node, count=int(counts[node]),
                            what="sample count")
    wrong = ~np.isclose(w[parents], w[lp] + w[rp], rtol=1e-6, atol=1e-9) | (w[parents] <= 0)
    if wrong.any():
        node = int(parents[_first(wrong)])
        raise TreeFileError("bad_samples", where, node=node, count=float(w[node]),
                            what="weighted sample count")


def check_max_features(where, value, n_features):
    """The fitted ``max_features_`` as an int from 1 to ``n_features``
    (scikit-learn keeps a larger one as given, and draws every feature)."""
    value = _integer(value, "max_features_", where)
    if value < 1:
        raise TreeFileError("bad_attribute", where, what="max_features_", problem="below_one",
                            value=value)
    return min(value, n_features)


def check_classes(where, classes):
    """``classes_`` as a 1-D object array of distinct labels, or a
    :class:`TreeFileError`."""
    classes = np.asarray(classes, dtype=object)
    if classes.ndim != 1 or len(classes) == 0:
        raise TreeFileError("bad_attribute", where, what="classes_", problem="not_labels")
    seen = set()
    for label in classes.tolist():
        try:
            repeated = label in seen
            seen.add(label)
        except TypeError:  # (an unhashable label: a list, a dict)
            raise TreeFileError("bad_attribute", where, what="classes_",
                                problem="not_labels") from None
        if repeated:
            raise TreeFileError("bad_attribute", where, what="classes_",
                                problem="repeated_labels", label=_shown(label))
    return classes


# ---------------------------------------------------------------------------
# the settings
# ---------------------------------------------------------------------------

#: The settings of a scikit-learn tree that dtree reads (and replays).
SETTINGS = ("criterion", "splitter", "max_depth", "min_samples_split", "min_samples_leaf",
            "min_weight_fraction_leaf", "max_features", "random_state", "max_leaf_nodes",
            "min_impurity_decrease", "ccp_alpha")
_ABSENT = object()


def _shown(value, width=40):
    text = repr(value)
    return text if len(text) <= width else text[:width - 1] + "…"


def _refuse(where, name, value, reason):
    """A bad_setting error chained to ``reason`` (the error that names the rule)."""
    error = TreeFileError("bad_setting", where, name=name, value=_shown(value))
    error.__cause__ = reason
    return error


def check_settings(where, estimator, criteria, classes=None):
    """Refuse the settings of a scikit-learn tree that scikit-learn would not
    accept (its own parameter rules), or that dtree cannot replay.

    Parameters
    ----------
    where : str
        The file or estimator, for the messages.
    estimator : a scikit-learn tree estimator
        Its settings are read with ``getattr``: a setting it lacks is refused.
    criteria : collection of str
        The criteria dtree's estimator of the same task knows.
    classes : array or None
        ``classes_`` of a classifier: ``class_weight``'s labels must be
        among them (None for a regressor, which has no ``class_weight``).

    Raises
    ------
    TreeFileError
        Code ``bad_setting``, naming the setting and its value (shortened),
        chained to the rule's own error.
    """
    from sklearn.utils._param_validation import validate_parameter_constraints

    rules = type(estimator)._parameter_constraints
    names = SETTINGS + (("class_weight",) if classes is not None else ())
    values = {}
    for name in names:
        value = getattr(estimator, name, _ABSENT)
        if value is _ABSENT:
            raise _refuse(where, name, "(missing)", AttributeError(name))
        try:  # scikit-learn's own rule for the setting
            validate_parameter_constraints({name: rules[name]}, {name: value},
                                           caller_name=type(estimator).__name__)
        except (ValueError, TypeError) as exc:
            raise _refuse(where, name, value, exc) from exc
        values[name] = value
    criterion = values["criterion"]
    if not isinstance(criterion, str) or criterion not in criteria:
        raise _refuse(where, "criterion", criterion, ValueError(
            f"dtree knows the criteria {', '.join(sorted(criteria))}"))
    if classes is not None:
        _check_class_weight(where, values["class_weight"], classes)


def _check_class_weight(where, weights, classes):
    if weights is None or isinstance(weights, str):  # ("balanced", as checked above)
        return
    if not isinstance(weights, dict):  # (a list is for several outputs)
        raise _refuse(where, "class_weight", weights, ValueError(
            "a tree of one output takes a dict, 'balanced' or None"))
    labels = {(c.item() if hasattr(c, "item") else c) for c in classes.tolist()}
    for label, weight in weights.items():
        try:
            known = label in labels
        except TypeError:
            known = False
        if not known:
            raise _refuse(where, "class_weight", weights, ValueError(
                f"class_weight names the label {label!r}, which is not in classes_"))
        if isinstance(weight, (bool, np.bool_)) or not isinstance(
                weight, (int, float, np.integer, np.floating)) or \
                not np.isfinite(weight):
            raise _refuse(where, "class_weight", weights, ValueError(
                f"the weight of the label {label!r} is not a finite number"))
