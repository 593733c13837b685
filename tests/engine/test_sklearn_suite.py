"""scikit-learn's own tree tests, run against dtree's estimators.

The installed (pinned) scikit-learn's ``sklearn/tree/tests/test_tree.py`` is
imported with ``sklearn.tree.DecisionTreeClassifier`` and
``DecisionTreeRegressor`` standing for dtree's while it is imported, so that
its globals, its ``CLF_TREES``/``REG_TREES``/``ALL_TREES`` and the
parametrizations its decorators build all hold dtree's classes.  Its test
functions are collected here, each under its own name.  The ExtraTree
entries are dropped (dtree has no extremely randomised trees), and the tests
in ``NOT_APPLICABLE`` are skipped with their reason.

Every sparse ``X`` is searched in its non-zeros (dtree/_sparse_search.py),
even the small ones that dtree searches dense as shipped, so that
scikit-learn's sparse-against-dense checks reach the sparse search; the
tests in ``AS_SHIPPED`` keep dtree's default.  Nothing is written into
site-packages: the module is imported without bytecode caching.
"""

import importlib
import sys
import types
from unittest import mock

import pytest
import sklearn.tree

import dtree
import dtree._sparse_input

SUITE = "sklearn.tree.tests.test_tree"

#: scikit-learn's tests that do not apply to dtree, by function name.
NOT_APPLICABLE = {
    # scikit-learn's Cython internals, which dtree does not have
    "test_realloc": "tests the C reallocation in sklearn.tree._utils",
    "test_criterion_copy": "copies the Cython criteria of sklearn.tree._criterion",
    "test_splitter_serializable": "pickles the Cython splitters of sklearn.tree._splitter",
    "test_check_n_classes": "tests the unpickling checks of sklearn.tree._tree",
    "test_check_value_ndarray": "tests the unpickling checks of sklearn.tree._tree",
    "test_check_node_ndarray": "tests the unpickling checks of sklearn.tree._tree",
    "test_different_bitness_pickle": "rewrites the Cython Tree's node records at another "
                                     "integer width (dtree's tree holds NumPy arrays)",
    "test_different_bitness_joblib_pickle": "rewrites the Cython Tree's node records at "
                                            "another integer width",
    "test_build_pruned_tree_py": "calls sklearn.tree._tree._build_pruned_tree_py on a Cython Tree",
    "test_build_pruned_tree_infinite_loop": "calls sklearn.tree._tree._build_pruned_tree_py",
    "test_absolute_errors_precomputation_function": "tests a helper of "
                                                    "sklearn.tree._criterion",
    # ExtraTree only: dtree has no extremely randomised trees
    "test_missing_values_random_splitter_on_equal_nodes_no_missing": "ExtraTreeRegressor only",
    "test_regression_extra_tree_missing_values_toy": "ExtraTreeRegressor only",
    "test_random_splitter_missing_values_uses_non_missing_min_max": "ExtraTreeRegressor only",
    # an allocation dtree does not make
    "test_huge_allocations": "expects an error for a max_leaf_nodes of 2**63 nodes allocated "
                             "ahead; dtree allocates nodes as they grow",
    # a deliberate difference (docs/engine.md, Differences from scikit-learn)
    "test_friedman_mse_deprecation": "dtree keeps criterion='friedman_mse' (the app offers it) "
                                     "without scikit-learn's deprecation warning",
}

#: Tests whose small sparse X is searched dense, as dtree ships (docs/engine.md,
#: Sparse input): on these the sparse search meets an exact tie between features
#: (the same rows on each side) and breaks it by the rounding of Σ y·ln y.
AS_SHIPPED = {
    "test_sparse_criteria[csc_matrix-sparse-mix-DecisionTreeRegressor-poisson]",
    "test_sparse_criteria[csc_array-sparse-mix-DecisionTreeRegressor-poisson]",
}


def _import_suite():
    """scikit-learn's test module, imported with dtree's estimators in place
    of scikit-learn's, without writing bytecode next to it in site-packages;
    it is left out of ``sys.modules`` afterwards."""
    pytest.register_assert_rewrite(SUITE)
    sys.modules.pop(SUITE, None)
    saved = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        with mock.patch.object(sklearn.tree, "DecisionTreeClassifier",
                               dtree.DecisionTreeClassifier), \
             mock.patch.object(sklearn.tree, "DecisionTreeRegressor",
                               dtree.DecisionTreeRegressor):
            module = importlib.import_module(SUITE)
    finally:
        sys.dont_write_bytecode = saved
        sys.modules.pop(SUITE, None)
    return module


def _is_extra_tree(value):
    """Whether a parametrization's value names or is an ExtraTree estimator."""
    if isinstance(value, str):
        return value.startswith("ExtraTree")
    if isinstance(value, (tuple, list)):
        return any(_is_extra_tree(v) for v in value)
    kind = value if isinstance(value, type) else type(value)
    return kind.__name__.startswith("ExtraTree")


def _class_id(value):
    """An estimator class's test id is its name (pytest's would be ``Tree0``)."""
    return value.__name__ if isinstance(value, type) else None


def _without_extra_trees(marks):
    """The marks, their parametrizations without the ExtraTree values."""
    kept = []
    for mark in marks:
        if mark.name == "parametrize":
            argnames, values = mark.args[0], list(mark.args[1])  # (a zip is read once)
            kwargs = dict(mark.kwargs)
            ids = kwargs.pop("ids", None)
            listed = isinstance(ids, (list, tuple))
            pairs = [(v, i) for v, i in zip(values, ids if listed else [None] * len(values))
                     if not _is_extra_tree(getattr(v, "values", v))]  # (pytest.param too)
            kwargs["ids"] = [i for _, i in pairs] if listed else (ids or _class_id)
            mark = pytest.mark.parametrize(argnames, [v for v, _ in pairs], **kwargs).mark
        kept.append(mark)
    return kept


def _tests(module):
    """Copies of the module's test functions (scikit-learn's own are left as
    they are), with the ExtraTree values dropped and the inapplicable skipped."""
    tests = {}
    for name, func in vars(module).items():
        if not (name.startswith("test_") and isinstance(func, types.FunctionType)):
            continue
        test = types.FunctionType(func.__code__, func.__globals__, name, func.__defaults__,
                                  func.__closure__)
        test.__dict__.update(func.__dict__)
        test.pytestmark = _without_extra_trees(getattr(func, "pytestmark", []))
        if name in NOT_APPLICABLE:
            test.pytestmark.append(
                pytest.mark.skip(reason=f"not applicable: {NOT_APPLICABLE[name]}").mark)
        tests[name] = test
    return tests


_suite = _import_suite()
globals().update(_tests(_suite))
# the tests that loop over the dicts at run time see dtree's estimators alone
for _trees in (_suite.CLF_TREES, _suite.REG_TREES, _suite.ALL_TREES):
    for _key in [key for key in _trees if key.startswith("ExtraTree")]:
        del _trees[_key]
_suite.SPARSE_TREES[:] = [name for name in _suite.SPARSE_TREES
                          if not name.startswith("ExtraTree")]


@pytest.fixture
def global_random_seed():
    """scikit-learn's default seed for the tests that take one (its conftest,
    which would give it, is not loaded here)."""
    return 42


@pytest.fixture(autouse=True)
def sparse_search_always(request, monkeypatch):
    """Every sparse X searched in its non-zeros, but in ``AS_SHIPPED``."""
    if request.node.name not in AS_SHIPPED:
        monkeypatch.setattr(dtree._sparse_input, "DENSE_CELLS", 0)


def test_the_suite_grows_dtrees_trees():
    """scikit-learn's module sees dtree's estimators, and no ExtraTree is left."""
    assert _suite.DecisionTreeClassifier is dtree.DecisionTreeClassifier
    assert _suite.DecisionTreeRegressor is dtree.DecisionTreeRegressor
    assert _suite.ALL_TREES == {"DecisionTreeClassifier": dtree.DecisionTreeClassifier,
                                "DecisionTreeRegressor": dtree.DecisionTreeRegressor}
    assert set(_suite.SPARSE_TREES) == set(_suite.ALL_TREES)


def test_every_listed_test_exists():
    """The lists name tests of the installed scikit-learn (a new version is
    checked against them)."""
    names = {name for name in vars(_suite) if name.startswith("test_")}
    assert set(NOT_APPLICABLE) <= names
    assert {name.split("[")[0] for name in AS_SHIPPED} <= names
