"""Node-for-node comparison of two fitted trees, tolerant only of exact ties.

Two trees agree when, walking both from the root, every pair of nodes has the
same sample counts, weights, impurity and value, and every pair of internal
nodes splits on the same feature at the same threshold.  scikit-learn visits
features in a random order, so where two splits improve the impurity by exactly
the same amount either may win: then the two subtrees are not compared further,
and the tie is counted.
"""

import numpy as np


def _decrease(t, node):
    lft, rgt = t.children_left[node], t.children_right[node]
    w, imp = t.weighted_n_node_samples, t.impurity
    return w[node] * imp[node] - w[lft] * imp[lft] - w[rgt] * imp[rgt]


def compare_trees(ours, theirs, *, rtol=1e-9, atol=1e-9, tie_tol=1e-9):
    """Raise AssertionError on the first real difference; return #ties."""
    ties = 0
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
        leaf_a = ours.children_left[a] == -1
        leaf_b = theirs.children_left[b] == -1
        if leaf_a != leaf_b:
            # With fractional weights scikit-learn's running sums can leave a
            # pure node with an impurity of a few ulps, and it then "splits" it
            # for a zero decrease.  dtree sums each child directly (impurity
            # exactly 0) and stops.  Only that case is tolerated.
            split_t, split_n = (theirs, b) if leaf_a else (ours, a)
            if (max(ours.impurity[a], theirs.impurity[b]) <= 1e-12
                    and abs(_decrease(split_t, split_n)) <= 1e-12):
                ties += 1
                continue
        if leaf_a or leaf_b:
            assert leaf_a and leaf_b, (
                f"one tree splits and the other does not {where}: ours leaf={leaf_a}, "
                f"theirs leaf={leaf_b}")
            continue
        same = (ours.feature[a] == theirs.feature[b]
                and ours.threshold[a] == theirs.threshold[b])
        if not same:
            da, db = _decrease(ours, a), _decrease(theirs, b)
            assert abs(da - db) <= tie_tol * max(1.0, abs(db)) * scale, (
                f"different split {where}: ours x{ours.feature[a]} <= {ours.threshold[a]!r} "
                f"(decrease {da!r}), theirs x{theirs.feature[b]} <= {theirs.threshold[b]!r} "
                f"(decrease {db!r})")
            ties += 1
            continue
        stack.append((ours.children_right[a], theirs.children_right[b], path + "R"))
        stack.append((ours.children_left[a], theirs.children_left[b], path + "L"))
    return ties


def assert_same_ids(ours, theirs):
    """Structure and numbering identical (use when no ties are possible)."""
    np.testing.assert_array_equal(ours.children_left, theirs.children_left)
    np.testing.assert_array_equal(ours.children_right, theirs.children_right)
    np.testing.assert_array_equal(ours.feature, theirs.feature)
    np.testing.assert_array_equal(ours.threshold, theirs.threshold)
    np.testing.assert_array_equal(ours.n_node_samples, theirs.n_node_samples)
