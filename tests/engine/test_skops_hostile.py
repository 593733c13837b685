"""dtree.load_sklearn against hostile and broken .skops files.

Every file of the corpus (``tests/hostile_skops.py``) is opened in a child
process with a timeout and an address-space limit a few hundred MB above
what the process already uses.  A file must be refused with a
``TreeFileError`` naming its rule, or open as a consistent tree that
predicts; nothing may hang, run out of memory on the way (a MemoryError
anywhere in the chain fails the test even when it was turned into a
refusal), or run code from the file.
"""

import json
import multiprocessing
import os
import re
import resource
import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
import skops.io as sio
from sklearn.datasets import load_iris
from sklearn.tree import DecisionTreeClassifier
from sklearn.tree._tree import NODE_DTYPE, Tree

import dtree
from dtree.views.messages import tree_file_error
from tests.helpers.hostile_skops import CANARY, CASES

TIMEOUT = 120  # seconds: generous, the machine is shared; a hang never ends
HEADROOM = 400 << 20  # bytes of address space a child may add


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True, as_frame=True)
    return X, y.map(dict(enumerate(["setosa", "versicolor", "virginica"])))


@pytest.fixture(scope="module")
def valid(iris):
    X, y = iris
    return sio.dumps(DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y))


def _address_space():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _child(conn, func, args):
    limit = _address_space() + HEADROOM
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        conn.send(("ok", func(*args)))
    except BaseException as exc:  # noqa: BLE001 (reported to the parent)
        chain, e = [], exc
        while e is not None:
            chain.append(type(e).__name__)
            e = e.__cause__ or e.__context__
        conn.send(("raised", {"type": type(exc).__name__, "chain": chain,
                              "code": getattr(exc, "code", None), "message": str(exc),
                              "where": getattr(exc, "where", None),
                              "values": getattr(exc, "values", None),
                              "is_value_error": isinstance(exc, ValueError),
                              "trace": traceback.format_exc()[-2000:]}))
    finally:
        conn.close()


def isolated(func, *args):
    """``func(*args)`` in a forked child with a memory limit and a timeout:
    ("ok", result) or ("raised", details)."""
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, func, args))
    proc.start()
    send.close()
    try:
        if not receive.poll(TIMEOUT):
            pytest.fail(f"still running after {TIMEOUT} s")
        return receive.recv()
    finally:
        proc.kill()
        proc.join()


def open_and_predict(data, X):
    """What the parent checks: the opened tree's node count and predictions
    (and that no canary appeared)."""
    model = dtree.load_sklearn(data)
    return {"nodes": model.tree_.node_count, "pred": model.predict(X).tolist(),
            "steps": len(model.steps_)}


@pytest.fixture(autouse=True)
def no_canary():
    if os.path.exists(CANARY):
        os.remove(CANARY)
    yield
    assert not os.path.exists(CANARY), "code from a file ran"


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_file(name, valid, iris):
    make, expected = CASES[name]
    data = make(valid)
    outcome, result = isolated(open_and_predict, data, iris[0])
    if expected is None:
        assert outcome == "ok", result
        sk = sio.loads(valid, trusted=sio.get_untrusted_types(data=valid))
        if name == "valid_deflated":
            assert result["pred"] == sk.predict(iris[0]).tolist()
        assert result["nodes"] == sk.tree_.node_count
        return
    assert outcome == "raised", f"{name} opened: {result}"
    assert "MemoryError" not in result["chain"], result["trace"]
    assert result["type"] == "TreeFileError", result["trace"]
    assert result["is_value_error"]
    assert result["code"] == expected, result["message"]
    assert "the data" in result["message"]  # names what was opened
    # the app words the same code in both languages, from the values alone
    where, values = result["where"], result["values"]
    assert tree_file_error(expected, where, values, "en") == result["message"]
    chinese = tree_file_error(expected, where, values, "zh")
    # (a reader's own words, quoted as "detail", stay as the reader said them)
    bare = chinese.replace(where, "").replace(str(values.get("detail", "")), "")
    assert not re.search(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}", bare), chinese


def test_an_error_inside_is_chained_and_worded(valid, monkeypatch):
    """Anything unexpected while reading reaches the caller as one
    TreeFileError with the original exception as its cause."""
    import dtree._skops as skops_reader

    def boom(*args, **kwargs):
        raise KeyError("deep inside")
    monkeypatch.setattr(skops_reader, "_read_schema", boom)
    with pytest.raises(dtree.TreeFileError) as info:
        dtree.load_sklearn(valid)
    assert info.value.code == "unreadable"
    assert isinstance(info.value.__cause__, KeyError)
    assert "KeyError" in str(info.value)


def test_limits_can_be_lowered_and_raised(valid):
    small = dtree.SkopsLimits(max_nodes=3)
    with pytest.raises(dtree.TreeFileError, match="max_nodes") as info:
        dtree.load_sklearn(valid, limits=small)
    assert info.value.code == "over_limit"
    with pytest.raises(dtree.TreeFileError) as info:
        dtree.load_sklearn(valid, limits=dtree.SkopsLimits(max_total_bytes=100))
    assert info.value.code == "total_too_big"
    with pytest.raises(dtree.TreeFileError) as info:
        dtree.load_sklearn(valid, limits=dtree.SkopsLimits(max_seconds=0.0))
    assert info.value.code == "too_slow"
    assert dtree.load_sklearn(valid, limits=dtree.SkopsLimits(max_nodes=15)).tree_.node_count


def test_from_sklearn_checks_an_object_too(iris):
    """A tree passed as an object is checked like a file's: a cycle made in
    memory is refused before anything walks it."""
    X, y = iris
    sk = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    state = sk.tree_.__getstate__()
    nodes = state["nodes"].copy()
    second = int(np.flatnonzero(nodes["left_child"] != -1)[1])
    nodes["left_child"][second] = second
    tree = Tree(sk.n_features_in_, np.array([3], dtype=np.intp), 1)
    tree.__setstate__({**state, "nodes": nodes})
    sk.tree_ = tree
    with pytest.raises(dtree.TreeFileError, match="This DecisionTreeClassifier") as info:
        dtree.from_sklearn(sk, X, y)
    assert info.value.code == "child_before_parent"
    assert info.value.values == {"node": second, "parent": second}


def _perfect_tree(depth, X, y):
    """A fitted classifier whose tree_ is a full binary tree of the given
    depth (2**(depth+1) - 1 nodes), consistent in every array."""
    rng = np.random.default_rng(0)
    n, n_internal = 2 ** (depth + 1) - 1, 2 ** depth - 1
    ids = np.arange(n)
    internal = ids < n_internal
    nodes = np.zeros(n, dtype=NODE_DTYPE)
    nodes["left_child"] = np.where(internal, 2 * ids + 1, -1)
    nodes["right_child"] = np.where(internal, 2 * ids + 2, -1)
    nodes["feature"] = np.where(internal, rng.integers(0, X.shape[1], n), -2)
    nodes["threshold"] = np.where(internal, rng.normal(3, 2, n), -2.0)
    level = np.floor(np.log2(ids + 1)).astype(int)
    nodes["n_node_samples"] = 2 ** (depth - level)
    nodes["weighted_n_node_samples"] = nodes["n_node_samples"]
    nodes["impurity"] = 0.5
    values = rng.random((n, 1, 3))
    values /= values.sum(axis=2, keepdims=True)
    est = DecisionTreeClassifier(max_depth=1).fit(X, y)
    tree = Tree(X.shape[1], np.array([3], dtype=np.intp), 1)
    tree.__setstate__({"max_depth": depth, "node_count": n, "nodes": nodes,
                       "values": values})
    est.tree_ = tree
    return est


@pytest.mark.slow
def test_a_million_node_tree_still_opens(iris):
    X, y = iris
    sk = _perfect_tree(19, X, y)
    data = sio.dumps(sk)
    outcome, result = isolated(open_and_predict, data, X)
    assert outcome == "ok", result
    assert result["nodes"] == sk.tree_.node_count == 2 ** 20 - 1
    assert result["pred"] == sk.predict(X).tolist()
    assert result["steps"] == 2 ** 19 - 1


def test_string_labels_round_trip(iris):
    X, y = iris
    sk = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    model = dtree.load_sklearn(sio.dumps(sk))
    assert list(model.classes_) == list(sk.classes_)
    assert list(model.feature_names_in_) == list(X.columns)
    np.testing.assert_array_equal(model.predict(X), sk.predict(X))


def test_random_state_object_round_trips(iris):
    X, y = iris
    sk = DecisionTreeClassifier(max_depth=2, random_state=np.random.RandomState(3))
    sk.fit(X, y)
    model = dtree.load_sklearn(sio.dumps(sk))
    assert isinstance(model.random_state, np.random.RandomState)
    np.testing.assert_array_equal(model.predict(X), sk.predict(X))


def test_every_code_is_worded_in_both_languages():
    from dtree.views.messages import PROBLEMS_ZH, TREE_FILE_ZH

    assert set(TREE_FILE_ZH) == set(dtree.TREE_FILE_MESSAGES)
    assert set(PROBLEMS_ZH) == set(dtree.PROBLEMS)
    codes_used = {code for _, code in CASES.values() if code}
    assert codes_used <= set(dtree.TREE_FILE_MESSAGES)


def _depth(value):
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\{}[],: \n中'),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(alphabet='k"\\{[', max_size=3), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(_JSON, st.booleans())
def test_json_depth_is_counted_without_parsing(value, ascii_only):
    """The depth counted on the brackets outside strings (with escaped quotes
    and brackets inside keys and values) is the parsed value's depth."""
    from dtree._skops import _json_shape

    text = json.dumps(value, ensure_ascii=ascii_only)
    assert _json_shape(text)[0] == _depth(value)
