"""Fitting on Dask collections (dtree/_dask.py), on Dask's local scheduler.

* A 4-partition Dask DataFrame grows the in-memory hist tree, array for
  array (classification, and regression on an integer target, whose sums
  are exact in any order).
* Over partition counts and seeds, deep trees (whose small nodes are
  searched from their gathered rows) and sampled binning (SAMPLE_ROWS made
  small) give the same tree too.
* The per-row work runs once per partition and sees only that partition's
  rows; only per-node histograms and sums come back.
* What the Dask path does not support is refused with a clear error.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")

from dtree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402
from dtree import _dask, _hist  # noqa: E402

ARRAYS = ("feature", "threshold", "children_left", "children_right", "value",
          "n_node_samples", "weighted_n_node_samples", "impurity")


@pytest.fixture(autouse=True)
def local_scheduler():
    with dask.config.set(scheduler="synchronous"):
        yield


def make_data(n, F, seed, missing=True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, F))
    X[:, 1] = rng.integers(0, 12, n)  # few distinct values: one bin each
    X[:, 2] = np.round(rng.exponential(size=n), 2)  # skewed, ties
    if missing:
        X[rng.random(n) < 0.05, F - 1] = np.nan
    score = X[:, 0] + X[:, 1] / 6 + np.nan_to_num(X[:, F - 1]) + rng.normal(size=n)
    y_class = np.digitize(score, [-0.5, 1.0])  # 3 classes
    y_int = np.round(4 * score).astype(np.float64)  # regression, integer valued
    return X, y_class, y_int


def assert_same_tree(a, b):
    assert a.tree_.node_count == b.tree_.node_count
    for name in ARRAYS:
        np.testing.assert_array_equal(getattr(b.tree_, name), getattr(a.tree_, name),
                                      err_msg=name)


def as_dask_array(X, y, parts):
    rows = -(-len(y) // parts)
    return da.from_array(X, chunks=(rows, X.shape[1])), da.from_array(y, chunks=rows)


@pytest.mark.parametrize("Est, target", [(DecisionTreeClassifier, 1),
                                         (DecisionTreeRegressor, 2)])
def test_four_partition_frame_grows_the_in_memory_hist_tree(Est, target):
    data = make_data(20_000, 6, seed=0)
    X, y = data[0], data[target]
    df = pd.DataFrame(X, columns=[f"f{i}" for i in range(6)])
    ddf = dd.from_pandas(df, npartitions=4)
    dy = dd.from_pandas(pd.Series(y), npartitions=4)
    assert ddf.npartitions == 4
    params = dict(splitter="hist", max_depth=6)
    in_memory = Est(**params).fit(df, y)
    on_dask = Est(**params).fit(ddf, dy)
    assert_same_tree(in_memory, on_dask)
    assert list(on_dask.feature_names_in_) == list(df.columns)
    for lo, lo_dask in zip(in_memory.bin_lower_, on_dask.bin_lower_):
        np.testing.assert_array_equal(lo_dask, lo)
    np.testing.assert_array_equal(on_dask.predict(df), in_memory.predict(df))
    assert len(on_dask.steps_) == len(in_memory.steps_)
    if Est is DecisionTreeClassifier:
        np.testing.assert_array_equal(on_dask.classes_, in_memory.classes_)
        # the candidate tables come from the driver's search
        pd.testing.assert_frame_equal(on_dask.steps_[0].candidates,
                                      in_memory.steps_[0].candidates)


@settings(max_examples=8, deadline=None)
@given(parts=st.integers(1, 7), seed=st.integers(0, 2**16),
       regression=st.booleans(), max_bins=st.sampled_from([8, 32, 255]))
def test_any_partitioning_grows_the_same_deep_tree(parts, seed, regression, max_bins):
    X, y_class, y_int = make_data(1_500, 4, seed)
    y = y_int if regression else y_class
    Est = DecisionTreeRegressor if regression else DecisionTreeClassifier
    params = dict(splitter="hist", max_depth=12, max_bins=max_bins)
    assert_same_tree(Est(**params).fit(X, y), Est(**params).fit(*as_dask_array(X, y, parts)))


@pytest.mark.parametrize("sort_below", [0, 10**9], ids=["histograms", "gathered rows"])
def test_each_search_gives_the_same_tree(monkeypatch, sort_below):
    """Every batch searched from histograms, or every batch from its
    nodes' gathered rows sorted by bin (as in memory, small nodes)."""
    monkeypatch.setattr(_hist.HistGrower, "SORT_BELOW", sort_below)
    gathered = []
    original = _dask._gather_part
    monkeypatch.setattr(_dask, "_gather_part", lambda *a: gathered.append(1) or original(*a))
    X, y_class, y_int = make_data(2_000, 4, seed=5)
    for Est, y in ((DecisionTreeClassifier, y_class), (DecisionTreeRegressor, y_int)):
        params = dict(splitter="hist", max_depth=10, max_bins=32)
        assert_same_tree(Est(**params).fit(X, y), Est(**params).fit(*as_dask_array(X, y, 3)))
    assert bool(gathered) == bool(sort_below)


def test_sampled_bins_are_the_in_memory_ones(monkeypatch):
    monkeypatch.setattr(_hist, "SAMPLE_ROWS", 2_000)  # bins from a sample of rows
    X, y, _ = make_data(9_000, 4, seed=3)
    X[:5, 1] = 100.5  # a value the sample may miss: no one-bin-per-value then
    params = dict(splitter="hist", max_depth=8, max_bins=64)
    a = DecisionTreeClassifier(**params).fit(X, y)
    b = DecisionTreeClassifier(**params).fit(*as_dask_array(X, y, 4))
    assert_same_tree(a, b)
    for u, v in zip(a.bin_upper_, b.bin_upper_):
        np.testing.assert_array_equal(v, u)


def test_rows_are_worked_on_per_partition(monkeypatch):
    """Each histogram pass is one task per partition, each given only its
    partition's rows; the driver gets (nodes, F, bins, d + 1) arrays."""
    seen = []
    original = _dask._hist_part

    def spy(part, *args):
        out = original(part, *args)
        seen.append((part["offset"], part["codes"].shape[1], out.shape))
        return out

    monkeypatch.setattr(_dask, "_hist_part", spy)
    X, y, _ = make_data(8_000, 5, seed=1)
    est = DecisionTreeClassifier(splitter="hist", max_depth=3, max_bins=16)
    est.fit(*as_dask_array(X, y, 4))
    assert len(seen) % 4 == 0 and len(seen) >= 4 * 3  # one pass a level at least
    for i in range(0, len(seen), 4):
        offsets = [s[0] for s in seen[i:i + 4]]
        assert sorted(offsets) == [0, 2_000, 4_000, 6_000]
        assert all(rows == 2_000 for _, rows, _ in seen[i:i + 4])
    # 5 features, 16 bins + the missing bin, 3 class sums + weight + count
    assert all(shape[1:] == (5, 17, 5) for _, _, shape in seen)


def test_a_cluster_of_worker_processes_grows_the_in_memory_tree():
    """A scheduler and two worker processes that speak TCP (distributed's
    LocalCluster: what a cluster in production runs, on one machine): every
    partition's task runs in a worker, and the tree is the in-memory one."""
    distributed = pytest.importorskip("distributed")
    from dask.utils import key_split
    X, y, _ = make_data(8_000, 5, seed=3)
    params = dict(splitter="hist", max_depth=5, max_bins=32)
    in_memory = DecisionTreeClassifier(**params).fit(X, y)
    with dask.config.set({"distributed.comm.timeouts.connect": "120s"}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client, \
            dask.config.set(scheduler=client.get):
        with distributed.get_task_stream(client) as stream:
            on_cluster = DecisionTreeClassifier(**params).fit(*as_dask_array(X, y, 4))
        workers = set(cluster.scheduler_info["workers"])
        ran = [(key_split(task["key"]), task["worker"]) for task in stream.data]
    assert_same_tree(in_memory, on_cluster)
    np.testing.assert_array_equal(on_cluster.predict(X), in_memory.predict(X))
    names = {name for name, _ in ran}
    assert {"prepare_part", "hist_part", "route_part"} <= names, names  # (key_split drops "_")
    assert {worker for _, worker in ran} <= workers and all(
        w.startswith("tcp://") for w in workers)
    # 4 partitions: every level's histograms are 4 tasks in the workers
    assert sum(name == "hist_part" for name, _ in ran) % 4 == 0


def test_refusals():
    X, y, y_int = make_data(400, 3, seed=2)
    dX, dy = as_dask_array(X, y, 2)
    with pytest.raises(ValueError, match="splitter='hist' only"):
        DecisionTreeClassifier().fit(dX, dy)
    with pytest.raises(ValueError, match="sample_weight"):
        DecisionTreeClassifier(splitter="hist").fit(dX, dy, sample_weight=np.ones(400))
    with pytest.raises(ValueError, match="level by level"):
        DecisionTreeClassifier(splitter="hist", max_leaf_nodes=8).fit(dX, dy)
    with pytest.raises(ValueError, match="absolute_error"):
        DecisionTreeRegressor(splitter="hist", criterion="absolute_error").fit(
            *as_dask_array(X, y_int, 2))
    df = pd.DataFrame({"a": X[:, 0], "c": pd.Categorical(np.where(y > 0, "u", "v"))})
    with pytest.raises(ValueError, match="numeric columns only"):
        DecisionTreeClassifier(splitter="hist").fit(dd.from_pandas(df, npartitions=2), dy)
    df = pd.DataFrame({"a": X[:, 0], "b": y > 0})  # bool: categorical in memory
    with pytest.raises(ValueError, match="numeric columns only"):
        DecisionTreeClassifier(splitter="hist").fit(dd.from_pandas(df, npartitions=2), dy)
    bad = y_int.copy()
    bad[7] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        DecisionTreeRegressor(splitter="hist").fit(*as_dask_array(X, bad, 2))


def test_string_labels_and_integer_columns():
    rng = np.random.default_rng(4)
    df = pd.DataFrame({"a": rng.integers(0, 50, 3_000), "b": rng.normal(size=3_000)})
    y = pd.Series(np.where(df.a > 30, "yes", np.where(df.b > 0, "maybe", "no")))
    params = dict(splitter="hist", max_depth=5, ccp_alpha=0.001)
    a = DecisionTreeClassifier(**params).fit(df, y)
    b = DecisionTreeClassifier(**params).fit(dd.from_pandas(df, npartitions=3),
                                             dd.from_pandas(y, npartitions=3))
    np.testing.assert_array_equal(b.classes_, a.classes_)
    assert_same_tree(a, b)
    assert b.tree_at(2).node_count == a.tree_at(2).node_count


def test_dtree_imports_without_dask():
    import subprocess
    import sys

    code = ("import sys; sys.modules['dask'] = None\n"
            "import dtree, numpy as np\n"
            "dtree.DecisionTreeClassifier(splitter='hist').fit(np.eye(4), [0, 1, 0, 1])\n"
            "assert 'dask.array' not in sys.modules")
    root = __import__("pathlib").Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)
