"""The j48 preset's numeric search: batched nodes and skipped cuts change nothing.

``J48Data.numeric_candidates_many`` searches several nodes in one padded
array, and ``_scored_cuts`` leaves out the inner cuts of one-class runs that
cannot be Weka's choice.  Both are claimed exact: every number of every
candidate is bit for bit what a one-node search that scores every cut gives.
These properties check that claim on generated nodes; the Weka tests
(tests/engine/test_j48.py) check the trees themselves.
"""

from contextlib import contextmanager

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dtree import DecisionTreeClassifier, _j48

FIELDS = [name for name in _j48.Candidate.FIELDS if name != "bags"]


def _same(a, b):
    """Two candidates equal bit for bit (NaN equal to NaN)."""
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, float) or isinstance(y, float):
            assert np.float64(x).tobytes() == np.float64(y).tobytes(), (name, x, y)
        else:
            assert np.array_equal(np.asarray(x), np.asarray(y)), (name, x, y)
    if a.bags is None or b.bags is None:
        assert a.bags is None and b.bags is None
    else:
        assert np.asarray(a.bags).tobytes() == np.asarray(b.bags).tobytes()


def _score_every_cut(fi, ii, cs, ws, lw, known_w, gains_at):
    return np.ones(len(fi), dtype=bool), gains_at(np.arange(len(fi)))


@st.composite
def nodes(draw):
    """Training data and a few nodes of it (row subsets with their sorted
    orders and weights, as the grower carries them)."""
    n = draw(st.integers(12, 160))
    F = draw(st.integers(1, 3))
    k = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    levels = draw(st.sampled_from([3, 8, 40, 1000]))  # few levels: many ties
    X = rng.integers(0, levels, size=(n, F)).astype(np.float64)
    X[rng.random(X.shape) < draw(st.sampled_from([0.0, 0.1, 0.3]))] = np.nan
    # labels that follow the first feature (long one-class runs), with noise
    noise = draw(st.sampled_from([0.0, 0.05, 0.3, 1.0]))
    y = np.minimum((np.nan_to_num(X[:, 0], nan=0.0) * k // levels).astype(np.intp), k - 1)
    flip = rng.random(n) < noise
    y[flip] = rng.integers(0, k, size=flip.sum())
    kind = draw(st.sampled_from(["ones", "fractional", "tiny", "zeros", "small"]))
    w = np.ones(n)
    if kind == "fractional":
        w = rng.choice([1.0, 0.5, 0.25, 1 / 3, 0.7], size=n)
    elif kind == "tiny":
        w[rng.random(n) < 0.2] = 3e-7
    elif kind == "zeros":
        w[rng.random(n) < 0.2] = 0.0
    elif kind == "small":  # a node's known weight below 1 (with min_objects below 1)
        w = rng.uniform(0.005, 0.05, size=n)
    M = draw(st.sampled_from([1.0, 2.0, 3.0, 0.05]))
    data = _j48.J48Data(X, y, w, np.zeros(F, dtype=bool), [0] * F, k, M)
    out = []
    for _ in range(draw(st.integers(1, 5))):
        take = rng.random(n) < draw(st.sampled_from([0.3, 0.7, 1.0]))
        rows = np.flatnonzero(take)
        if len(rows) < 2:
            continue
        weights = w[rows] * rng.choice([1.0, 1.0, 0.4], size=len(rows))
        order = _j48.child_orders(data.root_order, take)
        out.append((rows, weights, float(weights.sum()), order))
    return data, out


@settings(max_examples=150, deadline=None)
@given(nodes())
def test_a_batch_of_nodes_gives_each_node_its_own_search(case):
    data, found = case
    batched = data.numeric_candidates_many(found)
    assert len(batched) == len(found)
    for node, cands in zip(found, batched):
        alone = data.numeric_candidates(*node)
        assert len(cands) == len(alone)
        for a, b in zip(cands, alone):
            _same(a, b)


@contextmanager
def every_cut_scored():
    """(Patched by hand, not by pytest's monkeypatch: hypothesis runs every
    example within one test call.)"""
    saved = _j48._scored_cuts
    _j48._scored_cuts = _score_every_cut
    try:
        yield
    finally:
        _j48._scored_cuts = saved


@settings(max_examples=150, deadline=None)
@given(nodes())
def test_skipping_inner_cuts_of_one_class_runs_changes_no_candidate(case):
    data, found = case
    fast = data.numeric_candidates_many(found)
    with every_cut_scored():
        full = data.numeric_candidates_many(found)
    assert len(fast) == len(full) == len(found)
    for a_node, b_node in zip(fast, full):
        assert len(a_node) == len(b_node)
        for a, b in zip(a_node, b_node):
            _same(a, b)


def _one_run(gains, weights):
    """``_scored_cuts`` on one row whose cuts 0..len-1 all have one class
    between them, with the given gains and left weights per cut."""
    n = len(gains)
    fi = np.zeros(n, dtype=np.intp)
    ii = np.arange(n)
    cs = np.zeros((1, n + 1), dtype=np.intp)  # every row of one class
    ws = np.ones((1, n + 1))
    lw = np.asarray(weights, dtype=np.float64)[None, :]
    asked = []

    def gains_at(sel):
        asked.append(np.asarray(sel).tolist())
        return np.asarray(gains, dtype=np.float64)[sel]
    keep, kept_gains = _j48._scored_cuts(fi, ii, cs, ws, lw, np.array([float(n + 1)]),
                                         gains_at)
    assert np.array_equal(kept_gains, np.asarray(gains, dtype=np.float64)[keep])
    return keep


def test_a_run_that_rises_steeply_is_scored_at_its_ends_only():
    # convex and rising by far more than 1e-6 per cut: only the ends can be chosen
    gains = [0.01 + 0.001 * i ** 2 for i in range(8)]
    keep = _one_run(gains, np.arange(1.0, 9.0))
    assert keep.tolist() == [True] + [False] * 6 + [True]


def test_a_run_that_falls_is_scored_at_its_ends_only():
    gains = [0.3 - 0.01 * i for i in range(6)]
    keep = _one_run(gains, np.arange(1.0, 7.0))
    assert keep.tolist() == [True] + [False] * 4 + [True]


def test_a_run_that_rises_by_less_than_weka_s_tolerance_keeps_every_cut():
    # the last inner cut may lie within 1e-6 of the end: Weka's loop would
    # keep it over the end, so the run's inner cuts must be scored
    gains = [0.2 + 1e-7 * i for i in range(6)]
    keep = _one_run(gains, np.arange(1.0, 7.0))
    assert keep.all()


def test_weights_below_weka_s_x_log_x_cutoff_keep_every_cut():
    n = 6
    fi, ii = np.zeros(n, dtype=np.intp), np.arange(n)
    cs = np.zeros((1, n + 1), dtype=np.intp)
    ws = np.ones((1, n + 1))
    ws[0, 3] = 5e-7
    keep, _ = _j48._scored_cuts(fi, ii, cs, ws, np.arange(1.0, 7.0)[None, :],
                                np.array([7.0]), lambda sel: np.linspace(0, 1, n)[sel])
    assert keep.all()


def test_a_class_change_inside_a_run_keeps_the_cuts_around_it():
    n = 7
    fi, ii = np.zeros(n, dtype=np.intp), np.arange(n)
    cs = np.zeros((1, n + 1), dtype=np.intp)
    cs[0, 4:] = 1  # rows 0-3 of class 0, rows 4-7 of class 1
    gains = np.array([0.01 * (i - 3.0) ** 2 + 0.1 for i in range(n)])
    keep, _ = _j48._scored_cuts(fi, ii, cs, np.ones((1, n + 1)),
                                np.arange(1.0, 8.0)[None, :], np.array([8.0]),
                                lambda sel: gains[sel])
    # cut t (after row t) is inner when rows t .. t + 1 are of one class:
    # cuts 1, 2 and 4, 5, but not cut 3, whose rows 3 and 4 differ; the runs
    # fall (cuts 0 to 3) and rise steeply (cuts 3 to 6): only their ends count
    assert keep.tolist() == [True, False, False, True, False, False, True]


def test_the_tree_is_the_same_with_every_cut_scored(monkeypatch):
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=3000, n_features=6, n_informative=4, n_classes=3,
                               random_state=0)
    X[np.random.default_rng(3).random(X.shape) < 0.1] = np.nan
    fast = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    monkeypatch.setattr(_j48, "_scored_cuts", _score_every_cut)
    monkeypatch.setattr(_j48, "PAD_RATIO", 0.0)  # (every node searched alone)
    monkeypatch.setattr(_j48, "PAD_SLACK", 0)
    full = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    assert fast.tree_.node_count == full.tree_.node_count > 100
    for name in ("feature", "threshold", "impurity", "weighted_n_node_samples", "value"):
        assert np.asarray(getattr(fast.tree_, name)).tobytes() == \
            np.asarray(getattr(full.tree_, name)).tobytes(), name
    assert np.array_equal(fast.predict_proba(X), full.predict_proba(X))


def test_batches_group_similar_sizes_and_stay_within_the_cell_cap(monkeypatch):
    sizes = [5, 300, 7, 6, 290, 5000, 310, 8]
    batches = _j48._batches(sizes)
    assert sorted(i for b in batches for i in b) == list(range(len(sizes)))
    for b in batches:  # padding to the longest wastes at most 10% plus 256 rows
        longest, used = max(sizes[i] for i in b), sum(sizes[i] for i in b)
        assert longest * len(b) <= _j48.PAD_RATIO * used + _j48.PAD_SLACK
    assert [sorted(b) for b in batches] == [[0, 2, 3, 7], [1, 4, 6], [5]]
    # a cap on rows x attributes splits a batch of many similar nodes
    monkeypatch.setattr(_j48, "BATCH_CELLS", 700 * 3)
    capped = _j48._batches([100] * 20, n_features=3)
    assert [len(b) for b in capped] == [7, 7, 6]
    # a node larger than the cap is searched alone
    assert _j48._batches([5000, 10], n_features=3) == [[1], [0]]


def test_a_node_whose_known_weight_is_below_1_keeps_every_cut():
    n = 6
    fi, ii = np.zeros(n, dtype=np.intp), np.arange(n)
    cs = np.zeros((1, n + 1), dtype=np.intp)
    gains = np.array([0.3 - 0.01 * i for i in range(n)])  # (falling: skipped at weight 7)
    args = (fi, ii, cs, np.full((1, n + 1), 0.1), np.arange(1.0, 7.0)[None, :] / 10)
    keep, _ = _j48._scored_cuts(*args, np.array([0.7]), lambda sel: gains[sel])
    assert keep.all()
    keep, _ = _j48._scored_cuts(*args, np.array([7.0]), lambda sel: gains[sel])
    assert keep.tolist() == [True] + [False] * 4 + [True]
