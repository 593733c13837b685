"""dtree.load_sklearn against hostile and broken .skops files.

Every file of the corpus (``tests/helpers/hostile_skops.py``: a classifier's
and a regressor's) is opened in a child process with a timeout and an
address-space limit a few hundred MB above what the process already uses,
once alone and once with training data of the tree's shape (Iris's four
columns).  A file must be refused with a ``TreeFileError`` naming its rule,
or open as a consistent tree that predicts (with data that do not reach its
nodes as it records, a clean ``ValueError`` is also right); nothing may
hang, run out of memory on the way (a MemoryError anywhere in the chain
fails the test even when it was turned into a refusal), or run code from
the file.
"""

import json
import multiprocessing
import os
import re
import resource
import traceback
import warnings

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
from tests.helpers.hostile_skops import CANARY, CASES, every_case, training_data, valid_file

TIMEOUT = 120  # seconds: generous, the machine is shared; a hang never ends
HEADROOM = 400 << 20  # bytes of address space a child may add


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True, as_frame=True)
    return X, y.map(dict(enumerate(["setosa", "versicolor", "virginica"])))


@pytest.fixture(scope="module")
def valid():
    return valid_file("classifier")


@pytest.fixture(scope="module")
def valid_files():
    return {kind: valid_file(kind) for kind in ("classifier", "regressor")}


def _address_space():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _outcome(func, args):
    """("ok", result) or ("raised", details of the exception)."""
    try:
        return "ok", func(*args)
    except BaseException as exc:  # noqa: BLE001 (reported to the parent)
        chain, e = [], exc
        while e is not None:
            chain.append(type(e).__name__)
            e = e.__cause__ or e.__context__
        return "raised", {"type": type(exc).__name__, "chain": chain,
                          "code": getattr(exc, "code", None), "message": str(exc),
                          "where": getattr(exc, "where", None),
                          "values": getattr(exc, "values", None),
                          "is_value_error": isinstance(exc, ValueError),
                          "trace": traceback.format_exc()[-2000:]}


def _child(conn, calls):
    limit = _address_space() + HEADROOM
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        conn.send([_outcome(func, args) for func, args in calls])
    finally:
        conn.close()


def isolated_all(*calls):
    """Each ``(func, args)`` of ``calls`` in turn, in one forked child with a
    memory limit and a timeout: a list of ("ok", result) or ("raised",
    details)."""
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, calls))
    proc.start()
    send.close()
    try:
        if not receive.poll(TIMEOUT):
            pytest.fail(f"still running after {TIMEOUT} s")
        return receive.recv()
    finally:
        proc.kill()
        proc.join()


def isolated(func, *args):
    """``func(*args)`` in a forked child with a memory limit and a timeout:
    ("ok", result) or ("raised", details)."""
    return isolated_all((func, args))[0]


def open_and_predict(data, X, fit_X=None, fit_y=None):
    """What the parent checks: the opened tree's node count and predictions
    (and that no canary appeared); with ``fit_X``, ``fit_y`` the tree is
    opened with them as its training data."""
    if fit_X is None:
        model = dtree.load_sklearn(data)
    else:
        model = dtree.load_sklearn(data, fit_X, fit_y)
    return {"nodes": model.tree_.node_count, "pred": model.predict(X).tolist(),
            "steps": len(model.steps_), "has_data": model.has_training_data_}


@pytest.fixture(autouse=True)
def no_canary():
    if os.path.exists(CANARY):
        os.remove(CANARY)
    yield
    assert not os.path.exists(CANARY), "code from a file ran"


def _assert_refused(name, result, expected):
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


CASE_IDS = [f"{kind}-{name}" for kind, name, _, _ in every_case()]


@pytest.mark.parametrize("kind, name, make, expected", every_case(), ids=CASE_IDS)
def test_hostile_file(kind, name, make, expected, valid_files):
    """Each file alone, then with training data of the tree's shape (the
    issue's worst case was a cyclic tree with a matching CSV, whose rows
    never stopped walking down), in one child."""
    valid = valid_files[kind]
    X, y = training_data(kind)
    data = make(valid)
    alone, with_data = isolated_all((open_and_predict, (data, X)),
                                    (open_and_predict, (data, X, X, y)))
    if expected is None:
        outcome, result = alone
        assert outcome == "ok", result
        sk = sio.loads(valid, trusted=sio.get_untrusted_types(data=valid))
        if name in ("valid_deflated", "regressor_valid"):
            assert result["pred"] == sk.predict(X).tolist()
        assert result["nodes"] == sk.tree_.node_count
        outcome, result = with_data
        if outcome == "ok":  # a consistent tree that predicts, with its candidates
            assert result["has_data"] and result["nodes"] == sk.tree_.node_count
        else:  # the rows do not reach its (edited) nodes as it records
            assert result["is_value_error"] and "MemoryError" not in result["chain"], result
            assert "do not look like the data" in result["message"], result["message"]
        return
    for outcome, result in (alone, with_data):
        assert outcome == "raised", f"{name} opened: {result}"
        _assert_refused(name, result, expected)


def test_the_valid_files_open_with_their_data(valid_files):
    """The corpus's valid files (untouched, deflated) open with their data and
    predict as scikit-learn does: the data runs are not all refusals."""
    from tests.helpers.hostile_skops import REGRESSOR_CASES

    for kind, make in (("classifier", CASES["valid_deflated"][0]),
                       ("regressor", REGRESSOR_CASES["regressor_valid"][0])):
        X, y = training_data(kind)
        outcome, result = isolated(open_and_predict, make(valid_files[kind]), X, X, y)
        assert outcome == "ok", result
        sk = sio.loads(valid_files[kind], trusted=sio.get_untrusted_types(
            data=valid_files[kind]))
        assert result["has_data"] and result["pred"] == sk.predict(X).tolist()


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


def test_a_tree_past_a_default_limit_opens_once_the_limit_is_raised(iris):
    """A tree of more classes than the default max_classes (100,000) is
    refused with the defaults and opens, predicting as scikit-learn does,
    with the limit raised."""
    X, y = iris
    n_classes = dtree.SkopsLimits().max_classes + 1
    est = DecisionTreeClassifier(max_depth=1).fit(X, y)
    nodes = np.zeros(3, dtype=NODE_DTYPE)
    nodes["left_child"] = [1, -1, -1]
    nodes["right_child"] = [2, -1, -1]
    nodes["feature"] = [2, -2, -2]
    nodes["threshold"] = [2.45, -2.0, -2.0]
    nodes["n_node_samples"] = [150, 50, 100]
    nodes["weighted_n_node_samples"] = [150.0, 50.0, 100.0]
    nodes["impurity"] = [0.5, 0.0, 0.5]
    values = np.zeros((3, 1, n_classes))
    values[0, 0, :2] = 0.5
    values[1, 0, 7] = 1.0
    values[2, 0, n_classes - 1] = 1.0
    tree = Tree(X.shape[1], np.array([n_classes], dtype=np.intp), 1)
    tree.__setstate__({"max_depth": 1, "node_count": 3, "nodes": nodes, "values": values})
    est.tree_, est.classes_, est.n_classes_ = tree, np.arange(n_classes), n_classes
    data = sio.dumps(est)
    with pytest.raises(dtree.TreeFileError, match="max_classes") as info:
        dtree.load_sklearn(data)
    assert info.value.code == "over_limit"
    model = dtree.load_sklearn(data, limits=dtree.SkopsLimits(max_classes=n_classes))
    assert model.n_classes_ == n_classes
    np.testing.assert_array_equal(model.predict(X), est.predict(X))


@pytest.mark.parametrize("chosen", [
    {"criterion": "entropy"}, {"criterion": "log_loss"}, {"class_weight": "balanced"},
    {"class_weight": {"setosa": 3.0, "virginica": 0.5}}, {"max_features": "sqrt"},
    {"max_features": "log2"}, {"max_features": 0.5}, {"max_features": 4},
    {"splitter": "random"}, {"max_leaf_nodes": 2}, {"min_samples_leaf": 0.05},
    {"min_samples_split": 0.2}, {"min_weight_fraction_leaf": 0.1}, {"ccp_alpha": 0.01},
    {"min_impurity_decrease": 0.01}, {"random_state": np.random.RandomState(1)},
    {"max_depth": None},
], ids=lambda chosen: ",".join(  # (ids the same in every test process: no addresses)
    f"{k}={type(v).__name__ if isinstance(v, np.random.RandomState) else v!r}"
    for k, v in chosen.items()))
def test_every_valid_classifier_setting_still_opens(chosen, iris):
    """Settings scikit-learn accepts open, from a file and as an object, and
    predict as scikit-learn does."""
    X, y = iris
    sk = DecisionTreeClassifier(**{"max_depth": 3, "random_state": 0, **chosen}).fit(X, y)
    for model in (dtree.load_sklearn(sio.dumps(sk), X, y), dtree.from_sklearn(sk, X, y)):
        np.testing.assert_array_equal(model.predict(X), sk.predict(X))


@pytest.mark.parametrize("criterion", ["squared_error", "friedman_mse", "absolute_error",
                                       "poisson"])
def test_every_regression_criterion_still_opens(criterion, iris):
    from sklearn.tree import DecisionTreeRegressor

    X, _ = training_data("regressor")
    y = X.iloc[:, 0] * 2.0 - X.iloc[:, 3]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # (friedman_mse, deprecated)
        sk = DecisionTreeRegressor(max_depth=3, criterion=criterion, max_features=0.75,
                                   random_state=0).fit(X, y)
        model = dtree.load_sklearn(sio.dumps(sk), X, y)
    np.testing.assert_array_equal(model.predict(X), sk.predict(X))


@pytest.mark.parametrize("name, value", [
    ("max_depth", -3), ("min_samples_leaf", 0), ("ccp_alpha", float("nan")),
    ("splitter", "evil"), ("random_state", "abc"), ("criterion", "evil"),
    ("class_weight", "foo"), ("class_weight", [{"setosa": 2.0}]),
    ("max_features", "bogus"), ("max_features", 0),
    ("max_leaf_nodes", 1), ("min_weight_fraction_leaf", 0.6),
])
def test_a_bad_setting_is_refused_before_anything_uses_it(name, value, iris):
    """An estimator whose setting scikit-learn refuses (here changed after the
    fit) is refused when opened, with or without its data, naming the
    setting; the error scikit-learn (or dtree) gives for the rule is its
    cause."""
    from sklearn.base import clone

    X, y = iris
    sk = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    setattr(sk, name, value)
    with pytest.raises((ValueError, TypeError)) as sklearn_says:
        clone(sk).fit(X, y)  # the oracle: scikit-learn's own fit refuses it
    for args in ((), (X, y)):
        with pytest.raises(dtree.TreeFileError) as info:
            dtree.from_sklearn(sk, *args)
        assert info.value.code == "bad_setting"
        assert info.value.values == {"name": name, "value": repr(value)[:40]}
        assert f"This DecisionTreeClassifier: its setting {name} = " in str(info.value)
        assert isinstance(info.value.__cause__, (ValueError, TypeError))
    assert sklearn_says.value is not None


def test_settings_scikit_learn_accepts_at_their_edges_open(iris):
    """A whole max_features above n_features_in_ and a negative class weight
    are odd, but scikit-learn fits with them: dtree opens those trees (the
    second without its data, whose rows of negative weight dtree's search
    leaves out)."""
    X, y = iris
    for chosen, data in (({"max_features": 7}, (X, y)),
                         ({"class_weight": {"setosa": -1.0}}, ())):
        sk = DecisionTreeClassifier(max_depth=2, random_state=0, **chosen).fit(X, y)
        model = dtree.from_sklearn(sk, *data)
        np.testing.assert_array_equal(model.predict(X), sk.predict(X))
        assert model.get_params()[next(iter(chosen))] is not None


def test_repeated_or_flat_classes_are_refused(iris):
    X, y = iris
    for classes in (np.array(["setosa", "setosa", "virginica"], dtype=object),
                    np.array([["setosa", "versicolor", "virginica"]], dtype=object)):
        sk = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
        sk.classes_ = classes
        with pytest.raises(dtree.TreeFileError) as info:
            dtree.from_sklearn(sk)
        assert info.value.code == "bad_attribute"
        assert info.value.values["what"] == "classes_"


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
    codes_used = {code for _, _, _, code in every_case() if code}
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
