"""Node-for-node comparison of two fitted trees, tolerant only of exact ties,
and only of a bounded number of them.

Two trees agree when, walking both from the root, every pair of nodes has the
same sample counts, weights, impurity and value, and every pair of internal
nodes splits on the same feature at the same threshold.  scikit-learn visits
features in a random order, so where two splits improve the impurity by exactly
the same amount either may win: then the two subtrees below are not compared,
the tie is counted, and so are the nodes of ``theirs`` left uncompared below it.
At most ``max_skipped`` of ``theirs``' nodes may be left so (a share; 0 asks
for every node), or the comparison fails: a test whose data tie everywhere
checks next to nothing, and must choose other data.

:func:`with_our_ties` leaves nothing out: below a tie it keeps ``ours``'
split and has the reference regrow each child on that child's rows, so that
every node is compared (``tests/helpers/sklearn_match.py`` does this for
scikit-learn).
"""

from dataclasses import dataclass, field

import numpy as np

#: the share of a tree's nodes a comparison may leave unchecked below ties
MAX_SKIPPED = 0.1


@dataclass
class Comparison:
    """What a walk of two trees compared."""

    ties: int = 0          #: nodes where both trees split equally well, differently
    compared: int = 0      #: node pairs checked
    skipped: int = 0       #: nodes of ``theirs`` below a tie, not checked
    total: int = 0         #: nodes of ``theirs``
    pairs: dict = field(default_factory=dict)  #: ours' node -> theirs', for every pair checked


def _decrease(t, node):
    lft, rgt = t.children_left[node], t.children_right[node]
    w, imp = t.weighted_n_node_samples, t.impurity
    return w[node] * imp[node] - w[lft] * imp[lft] - w[rgt] * imp[rgt]


def _no_gain(t, node, tie_tol):
    """The split of ``node`` decreases the impurity by rounding noise only."""
    size = t.weighted_n_node_samples[node] * max(abs(t.impurity[node]), 1e-3)
    return abs(_decrease(t, node)) <= max(tie_tol * size, 1e-12)


def _subtree_size(t, node):
    size, stack = 0, [node]
    while stack:
        n = stack.pop()
        size += 1
        if t.children_left[n] != -1:
            stack += [t.children_left[n], t.children_right[n]]
    return size


def _missing_left(t, node):
    """The side missing values take at ``node`` (left when True); trees
    without the array (the naive reference) have none, taken as right."""
    side = getattr(t, "missing_go_to_left", None)
    return bool(side[node]) if side is not None else False


def _same_side(ours, a, theirs, b):
    """Both splits send missing values the same way (or a tree has no rule)."""
    if getattr(ours, "missing_go_to_left", None) is None or getattr(
            theirs, "missing_go_to_left", None) is None:
        return True
    return _missing_left(ours, a) == _missing_left(theirs, b)


def walk_trees(ours, theirs, *, rtol=1e-9, atol=1e-9, tie_tol=1e-9):
    """Raise AssertionError on the first real difference; return what was
    compared (a :class:`Comparison`), with no bound on the ties."""
    result = Comparison(total=len(theirs.children_left))
    stack = [(0, 0, "root")]
    scale = max(1.0, float(np.max(np.abs(theirs.impurity[np.isfinite(theirs.impurity)]), initial=0)))
    while stack:
        a, b, path = stack.pop()
        where = f"at {path} (ours {a}, theirs {b})"
        assert ours.n_node_samples[a] == theirs.n_node_samples[b], f"n_node_samples differ {where}"
        np.testing.assert_allclose(ours.weighted_n_node_samples[a], theirs.weighted_n_node_samples[b],
                                   rtol=1e-12, err_msg=f"weights differ {where}")
        np.testing.assert_allclose(ours.impurity[a], theirs.impurity[b], rtol=rtol,
                                   atol=atol * scale, err_msg=f"impurity differs {where}")
        np.testing.assert_allclose(ours.value[a], theirs.value[b], rtol=rtol, atol=atol * scale,
                                   err_msg=f"value differs {where}")
        result.compared += 1
        result.pairs[int(a)] = int(b)
        leaf_a = ours.children_left[a] == -1
        leaf_b = theirs.children_left[b] == -1
        if leaf_a != leaf_b:
            # A split for no gain: whether it is made hangs on rounding (a
            # decrease of -1e-16 is below scikit-learn's EPSILON, +1e-16 is
            # not; with fractional weights its running sums can leave a pure
            # node a few ulps of impurity).  Only that case is tolerated.
            split_t, split_n = (theirs, b) if leaf_a else (ours, a)
            if _no_gain(split_t, split_n, tie_tol):
                result.ties += 1
                result.skipped += _subtree_size(theirs, b) - 1
                continue
        if leaf_a or leaf_b:
            assert leaf_a and leaf_b, (
                f"one tree splits and the other does not {where}: ours leaf={leaf_a}, "
                f"theirs leaf={leaf_b}")
            continue
        same = (ours.feature[a] == theirs.feature[b]
                and ours.threshold[a] == theirs.threshold[b]
                and _same_side(ours, a, theirs, b))
        if not same:
            da, db = _decrease(ours, a), _decrease(theirs, b)
            assert abs(da - db) <= tie_tol * max(1.0, abs(db)) * scale, (
                f"different split {where}: ours x{ours.feature[a]} <= {ours.threshold[a]!r} "
                f"(decrease {da!r}), theirs x{theirs.feature[b]} <= {theirs.threshold[b]!r} "
                f"(decrease {db!r})")
            result.ties += 1
            result.skipped += _subtree_size(theirs, b) - 1
            continue
        stack.append((ours.children_right[a], theirs.children_right[b], path + "R"))
        stack.append((ours.children_left[a], theirs.children_left[b], path + "L"))
    return result


def compare_trees(ours, theirs, *, rtol=1e-9, atol=1e-9, tie_tol=1e-9, max_skipped=MAX_SKIPPED):
    """Raise AssertionError on the first real difference, or when ties leave
    more than ``max_skipped`` of ``theirs``' nodes unchecked; return the
    number of ties."""
    result = walk_trees(ours, theirs, rtol=rtol, atol=atol, tie_tol=tie_tol)
    assert result.skipped <= max_skipped * result.total, (
        f"ties left {result.skipped} of {result.total} nodes unchecked "
        f"(more than {max_skipped:.0%}): choose data without so many ties")
    return result.ties


class Arrays:
    """A binary tree's arrays, as scikit-learn's ``tree_`` names them."""

    FIELDS = ("children_left", "children_right", "feature", "threshold", "impurity",
              "n_node_samples", "weighted_n_node_samples", "value", "missing_go_to_left")

    def __init__(self, rows):
        for name in self.FIELDS:
            setattr(self, name, np.array([r[name] for r in rows]))
        self.node_count = len(rows)


def _route(X, rows, feature, threshold, missing_left):
    """The rows of ``rows`` a split sends left (NaN to the missing side)."""
    x = X[rows, feature]
    return np.where(np.isnan(x), missing_left, x <= threshold)


def with_our_ties(ours, theirs, X, fit_region, *, rtol=1e-9, atol=1e-9, tie_tol=1e-9,
                  classes_at=None):
    """``theirs`` (fitted depth first on the rows of X) with every exact tie
    broken as ``ours`` breaks it, so that the two can be compared whole.

    Walking both trees as :func:`walk_trees` does, at a node where the two
    split differently but equally well, ours' split is kept and each of its
    children is regrown by the reference alone on that child's rows:
    ``fit_region(rows, depth)`` returns that tree (a ``tree_``), the
    positions of its classes among all classes (None for a regressor), and
    whether only its root counts (a leaf at ``max_depth``); ``classes_at``
    places ``theirs``' classes likewise.  With several outputs the positions
    are a list, one array per output.  The regrown trees
    are walked the same way.  Raises AssertionError on any real difference;
    returns the tree as :class:`Arrays` in scikit-learn's pre-order
    numbering, and the number of ties broken.
    """
    out, ties = [], 0
    scale = max(1.0, float(np.max(np.abs(theirs.impurity[np.isfinite(theirs.impurity)]),
                                  initial=0)))

    def values(t, b, cols):
        v = np.asarray(t.value[b], dtype=float)
        if cols is None:
            return v
        spread = np.zeros(v.shape[:-1] + (ours.value.shape[-1],))
        if isinstance(cols, list):  # several outputs, each with its own classes
            for output, at in enumerate(cols):
                spread[output, at] = v[output, :len(at)]
        else:
            spread[..., cols] = v
        return spread

    def leaf_of(t, b, cols):
        return {"children_left": -1, "children_right": -1, "feature": -2, "threshold": -2.0,
                "impurity": t.impurity[b], "n_node_samples": t.n_node_samples[b],
                "weighted_n_node_samples": t.weighted_n_node_samples[b],
                "value": values(t, b, cols), "missing_go_to_left": 0}

    def build(a, t, b, cols, rows, depth, path, as_leaf=False):
        nonlocal ties
        where = f"at {path} (ours {a}, theirs {b})"
        assert ours.n_node_samples[a] == t.n_node_samples[b], f"n_node_samples differ {where}"
        np.testing.assert_allclose(ours.weighted_n_node_samples[a], t.weighted_n_node_samples[b],
                                   rtol=1e-12, err_msg=f"weights differ {where}")
        np.testing.assert_allclose(ours.impurity[a], t.impurity[b], rtol=rtol, atol=atol * scale,
                                   err_msg=f"impurity differs {where}")
        np.testing.assert_allclose(ours.value[a], values(t, b, cols), rtol=rtol,
                                   atol=atol * scale, err_msg=f"value differs {where}")
        node = leaf_of(t, b, cols)
        idx = len(out)
        out.append(node)
        leaf_a, leaf_b = ours.children_left[a] == -1, as_leaf or t.children_left[b] == -1
        if leaf_a and leaf_b:
            return idx
        same = (not leaf_a and not leaf_b and ours.feature[a] == t.feature[b]
                and ours.threshold[a] == t.threshold[b]
                and _same_side(ours, a, t, b))
        if not same:
            if leaf_a != leaf_b:  # a split for no gain (see walk_trees)
                split_t, split_n = (t, b) if leaf_a else (ours, a)
                assert _no_gain(split_t, split_n, tie_tol), (
                    f"one tree splits and the other does not {where}")
            else:
                da, db = _decrease(ours, a), _decrease(t, b)
                assert abs(da - db) <= tie_tol * max(1.0, abs(db)) * scale, (
                    f"different split {where}: ours x{ours.feature[a]} <= {ours.threshold[a]!r} "
                    f"(decrease {da!r}), theirs x{t.feature[b]} <= {t.threshold[b]!r} "
                    f"(decrease {db!r})")
            ties += 1
            if leaf_a:
                return idx
        f, thr = int(ours.feature[a]), ours.threshold[a]
        has_rule = getattr(t, "missing_go_to_left", None) is not None
        miss = _missing_left(t, b) if same and has_rule else _missing_left(ours, a)
        node.update(feature=f, threshold=thr, missing_go_to_left=int(miss))
        goes_left = _route(X, rows, f, thr, miss)
        kids = []
        for side, child_rows, step in ((ours.children_left, rows[goes_left], "L"),
                                       (ours.children_right, rows[~goes_left], "R")):
            if same:
                sub = (t, (t.children_left if step == "L" else t.children_right)[b], cols)
            else:
                fitted, fitted_cols, leaf_only = fit_region(child_rows, depth + 1)
                sub = (fitted, 0, fitted_cols, leaf_only)
            kids.append(build(side[a], *sub[:3], child_rows, depth + 1, path + step,
                              *sub[3:]))
        node.update(children_left=kids[0], children_right=kids[1])
        return idx

    build(0, theirs, 0, classes_at, np.arange(len(X)), 0, "root")
    return Arrays(out), ties


def numbered_like(ref, theirs):
    """``ref`` (from :func:`with_our_ties`) renumbered with the ids of
    ``theirs``, whose shape it must have: a tree grown best first numbers
    its nodes in the order they were made, not in pre-order."""
    ids = np.full(ref.node_count, -1)
    stack = [(0, 0)]
    while stack:
        a, b = stack.pop()
        ids[a] = b
        leaf_a, leaf_b = ref.children_left[a] == -1, theirs.children_left[b] == -1
        assert leaf_a == leaf_b, f"the trees differ in shape at node {b}"
        if not leaf_a:
            stack += [(ref.children_left[a], theirs.children_left[b]),
                      (ref.children_right[a], theirs.children_right[b])]
    assert len(set(ids.tolist())) == ref.node_count == theirs.node_count
    out = Arrays([])
    order = np.argsort(ids)
    for name in Arrays.FIELDS:
        values = getattr(ref, name)[order]
        if name.startswith("children_"):
            values = np.where(values == -1, -1, ids[values])
        setattr(out, name, values)
    out.node_count = ref.node_count
    return out


def tree_apply(t, X):
    """The leaf each row of X reaches in the arrays ``t`` (NaN to the missing side)."""
    node = np.zeros(len(X), dtype=np.intp)
    rows = np.arange(len(X))
    while True:
        inner = t.children_left[node] != -1
        if not inner.any():
            return node
        at = node[inner]
        x = X[rows[inner], t.feature[at]]
        left = np.where(np.isnan(x), t.missing_go_to_left[at].astype(bool), x <= t.threshold[at])
        node[inner] = np.where(left, t.children_left[at], t.children_right[at])


def tree_importances(t, n_features):
    """scikit-learn's rule: each split's weighted decrease, summed by feature,
    over the root's weight, normalised (zeros for a lone leaf)."""
    out = np.zeros(n_features)
    w, imp = t.weighted_n_node_samples, t.impurity
    for node in np.flatnonzero(t.children_left != -1):
        lft, rgt = t.children_left[node], t.children_right[node]
        out[t.feature[node]] += w[node] * imp[node] - w[lft] * imp[lft] - w[rgt] * imp[rgt]
    out /= w[0]
    return out / out.sum() if out.sum() > 0 else out


def assert_same_ids(ours, theirs):
    """Structure and numbering identical (use when no ties are possible)."""
    np.testing.assert_array_equal(ours.children_left, theirs.children_left)
    np.testing.assert_array_equal(ours.children_right, theirs.children_right)
    np.testing.assert_array_equal(ours.feature, theirs.feature)
    np.testing.assert_array_equal(ours.threshold, theirs.threshold)
    np.testing.assert_array_equal(ours.n_node_samples, theirs.n_node_samples)


def compare_up_to_noise(ours, theirs, scale):
    """compare_trees, but where summation order decides: a node whose impurity
    is rounding noise (a constant target, as sum(w y^2)/W - mean^2) may be split
    for a zero decrease in one tree and not the other, and two splits whose
    decreases agree to rounding may swap."""
    noise = 1e-9 * scale
    stack = [(0, 0)]
    w = ours.weighted_n_node_samples[0]
    while stack:
        a, b = stack.pop()
        assert ours.n_node_samples[a] == theirs.n_node_samples[b]
        np.testing.assert_allclose(ours.weighted_n_node_samples[a],
                                   theirs.weighted_n_node_samples[b], rtol=1e-12)
        np.testing.assert_allclose(ours.impurity[a], theirs.impurity[b], rtol=1e-9, atol=noise)
        np.testing.assert_allclose(ours.value[a], theirs.value[b], rtol=1e-9, atol=noise)
        leaf_a, leaf_b = ours.children_left[a] == -1, theirs.children_left[b] == -1
        if leaf_a or leaf_b:
            assert leaf_a == leaf_b or max(ours.impurity[a], theirs.impurity[b]) <= noise, (a, b)
            continue
        if ours.feature[a] != theirs.feature[b] or ours.threshold[a] != theirs.threshold[b]:
            da, db = split_decrease(ours, a), split_decrease(theirs, b)
            assert abs(da - db) <= noise * w, (a, b, da, db)
            continue
        stack += [(ours.children_left[a], theirs.children_left[b]),
                  (ours.children_right[a], theirs.children_right[b])]


def split_decrease(t, node):
    lft, rgt = t.children_left[node], t.children_right[node]
    w, imp = t.weighted_n_node_samples, t.impurity
    return w[node] * imp[node] - w[lft] * imp[lft] - w[rgt] * imp[rgt]
