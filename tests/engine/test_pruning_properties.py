"""Property tests for post-pruning, on small random trees (every criterion,
growth order, weights, full and partial trees).

* the weakest-link path: alphas and impurities non-decreasing, each tree a
  subtree of the one before, one node collapsed per step with the recorded
  numbers, ``ccp_prune`` equal to the replayed tree;
* REP never raises the validation error and its record adds up; PEP's
  decisions follow its inequality;
* no function changes the tree it is given.
"""

import copy

import numpy as np
from hypothesis import given, note
from hypothesis import strategies as st

from dtree import DecisionTreeClassifier, DecisionTreeRegressor
from dtree._pruning import ccp_prune, cost_complexity_table, pruning_path, pruning_sequence
from dtree._rep_pep import pessimistic_prune, reduced_error_prune

CLASSIFICATION = ("gini", "entropy", "misclassification", "gain_ratio")
REGRESSION = ("squared_error", "absolute_error", "poisson")


@st.composite
def fitted(draw):
    """(estimator, X, y): a tree grown on up to 60 random rows."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(2, 60))
    n_features = draw(st.integers(1, 3))
    if draw(st.booleans()):  # a coarse grid: duplicate values and exact ties
        X = rng.integers(-3, 4, size=(n, n_features)).astype(float)
    else:
        X = rng.normal(size=(n, n_features)).round(3)
    classifier = draw(st.booleans())
    if classifier:
        criterion = draw(st.sampled_from(CLASSIFICATION))
        y = rng.integers(0, draw(st.integers(2, 3)), size=n)
        est = DecisionTreeClassifier(criterion=criterion)
    else:
        criterion = draw(st.sampled_from(REGRESSION))
        y = (rng.integers(0, 5, size=n).astype(float) if draw(st.booleans())
             else rng.gamma(2.0, size=n))
        if criterion == "poisson":
            y[0] += 1.0  # a positive sum
        est = DecisionTreeRegressor(criterion=criterion)
    growth = draw(st.sampled_from([None, "depth_first", "best_first", "breadth_first"]))
    est.set_params(growth=growth,
                   max_leaf_nodes=draw(st.sampled_from([None, 4, 12])),
                   min_samples_leaf=draw(st.sampled_from([1, 1, 2, 3])))
    w = rng.choice([0.5, 1.0, 2.0, 3.0], size=n) if draw(st.booleans()) else None
    est.fit(X, y, sample_weight=w)
    note(f"{est!r} on {n} rows, weights={w is not None}")
    return est, X, y


def _snapshot(tree):
    return copy.deepcopy(vars(tree))


def _assert_unchanged(tree, before):
    for name, value in before.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(getattr(tree, name), value, err_msg=name)
        else:
            assert getattr(tree, name) == value, name


def _trees(est, draw_k):
    """The grown tree and one partial tree of its growth."""
    return [est.tree_, est.tree_at(draw_k(len(est.steps_)))]


@given(fitted(), st.data())
def test_weakest_link_sequence(case, data):
    est, X, y = case
    for tree in _trees(est, lambda m: data.draw(st.integers(0, m))):
        before = _snapshot(tree)
        seq = pruning_sequence(tree)
        alphas, impurities = seq.ccp_alphas, seq.impurities
        tol = 1e-10 * max(impurities[-1], 1e-300)
        assert alphas[0] == 0 and len(alphas) == len(impurities) == len(seq) + 1
        assert np.all(np.diff(alphas) >= -tol)
        assert np.all(np.diff(impurities) >= -tol)
        w = tree.weighted_n_node_samples
        assert impurities[-1] == w[0] * tree.impurity[0] / w[0]  # the root's own cost
        assert seq.n_leaves[-1] == 1 and seq.n_leaves[0] == tree.n_leaves
        path = pruning_path(tree)
        np.testing.assert_array_equal(path["ccp_alphas"], alphas)
        np.testing.assert_array_equal(path["impurities"], impurities)

        previous = seq.tree_at(0)
        assert previous.node_count == tree.node_count
        for k, step in enumerate(seq.steps):
            current = seq.tree_at(k + 1)
            kept = set(current.node_ids.tolist())
            assert kept <= set(previous.node_ids.tolist())  # a subtree of the one before
            assert np.all(seq.keep_mask(k + 1) <= seq.keep_mask(k))
            # the collapsed node: internal before, a leaf after, with |T_t| leaves
            at_before = int(np.flatnonzero(previous.node_ids == step.node_id)[0])
            at_after = int(np.flatnonzero(current.node_ids == step.node_id)[0])
            assert not previous.is_leaf()[at_before] and current.is_leaf()[at_after]
            assert previous.n_leaves - current.n_leaves == step.n_leaves - 1
            assert previous.node_count - current.node_count == step.n_removed
            # its g is the smallest in the fresh table, to rounding
            table = seq.table_at(k)
            assert table["weakest_link"].iloc[at_before]
            assert step.alpha <= np.nanmin(table["g"]) + tol
            np.testing.assert_allclose(table["g"].iloc[at_before], step.alpha, rtol=1e-9, atol=tol)
            previous = current

        for alpha in (alphas[len(alphas) // 2], alphas[-1], alphas[-1] * 2 + 1):
            pruned = ccp_prune(tree, alpha)
            expected = seq.tree_at(seq.n_steps_for(alpha))
            assert sorted(pruned.node_ids.tolist()) == expected.node_ids.tolist()
            assert pruned.n_leaves == expected.n_leaves
            # numbered in pre-order: every first child right after its parent
            assert all(pruned.children_of(i)[:1] in ([], [i + 1])
                       for i in range(pruned.node_count))
        cost_complexity_table(tree)
        _assert_unchanged(tree, before)


@given(fitted(), st.data())
def test_reduced_error_pruning(case, data):
    est, X, y = case
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    rows = rng.integers(0, len(y), size=data.draw(st.integers(1, 30)))
    X_val, y_val = X[rows] + rng.choice([0.0, 0.25], size=X[rows].shape), y[rows]
    tree = est.tree_
    before = _snapshot(tree)
    pruned, record = reduced_error_prune(est, X_val, y_val)
    _assert_unchanged(tree, before)

    X32 = X_val.astype(np.float32)
    values = np.asarray(pruned.predict(X32)).reshape(len(rows), -1)
    if hasattr(est, "classes_"):
        errors = np.sum(est.classes_[np.argmax(values, axis=1)] != y_val)
    else:
        errors = np.sum((values[:, 0] - y_val) ** 2)
    start = record.attrs["errors_start"]
    final = record["tree_errors"].iloc[-1] if len(record) else start
    np.testing.assert_allclose(errors, final, rtol=1e-9, atol=1e-9)
    assert final <= start * (1 + 1e-12) + 1e-12
    assert (record["pruned"] == (record["errors_after"] <= record["errors_before"])).all()
    assert len(record) == int((~tree.is_leaf()).sum())


@given(fitted())
def test_pessimistic_pruning(case):
    est, X, y = case
    if not hasattr(est, "classes_"):
        return
    tree = est.tree_
    before = _snapshot(tree)
    pruned, record = pessimistic_prune(est)
    _assert_unchanged(tree, before)
    assert (record["pruned"] == (record["E_leaf"] < record["upper"])).all()
    np.testing.assert_allclose(record["E_T"], record["errors_leaves"] + 0.5 * record["n_leaves"])
    # the nodes visited are the internal nodes not inside a pruned branch
    visited = record["node"].tolist()
    collapsed = set(record.loc[record["pruned"], "node"])

    def ancestors(node):
        up = tree.parent[node]
        return [] if up < 0 else [up, *ancestors(up)]

    expected = [t for t in range(tree.node_count)
                if not tree.is_leaf()[t] and not collapsed & set(ancestors(t))]
    assert sorted(visited) == expected
    assert pruned.n_leaves == tree.n_leaves - sum(
        record.loc[record["pruned"], "n_leaves"] - 1)
