"""error_based_prune against Weka's J48 itself, node for node.

``error_based_prune(DecisionTreeClassifier(algorithm="j48").fit(X, y), X, y)``
must print as default J48 (``-C 0.25 -M 2``) does: attribute, branches,
thresholds (to 1e-6) and each leaf's class with its "(n/errors)" weights (to
0.01).  Every test runs Weka 3.6 (``make weka``); without it they are
skipped, or fail when ``CI`` is set.  The U_CF estimate is checked against
Weka's own ``Stats.addErrs``, called from a small Java program.
"""

import shutil
import subprocess

import numpy as np
import pytest

from dtree import CodedError, DecisionTreeClassifier, error_based_prune
from dtree._ebp import add_errors, upper_confidence_limit
from tests.helpers.j48_cases import NOMINAL_CLASS, generated_with_missing
from tests.helpers.installed import require
from tests.helpers.weka import (EXAMPLES, compare, count_leaves, dtree_tree, j48_text, parse_tree,
                        read_arff, require_weka, weka_jar, write_arff)

# runs Weka (a JVM) as its oracle: left out of the quick tier (make test-fast)
pytestmark = pytest.mark.weka


def _check(path, X, y, *, min_objects=2, confidence=0.25, raising=True):
    est = DecisionTreeClassifier(algorithm="j48", min_objects=min_objects).fit(X, y)
    result = error_based_prune(est, X, y, confidence, raising)
    options = ["-C", str(confidence), "-M", str(min_objects)] + ([] if raising else ["-S"])
    theirs = parse_tree(j48_text(path, *options), X.columns)
    compare(dtree_tree(est, result.tree), theirs)
    assert result.tree.n_leaves == count_leaves(theirs)
    return est, result


@pytest.mark.parametrize("name", NOMINAL_CLASS)
def test_pruned_tree_is_default_j48s(name):
    require_weka()
    path = EXAMPLES / f"{name}.arff"
    X, y = read_arff(path)
    _check(path, X, y)


@pytest.mark.parametrize("name, confidence, raising",
                         [("soybean", 0.1, True), ("soybean", 0.5, True), ("soybean", 0.25, False),
                          ("labor", 0.25, False), ("credit-g", 0.1, True),
                          ("breast-cancer", 0.05, True), ("diabetes", 0.33, False)])
def test_confidence_and_no_raising_are_j48s_c_and_s(name, confidence, raising):
    require_weka()
    path = EXAMPLES / f"{name}.arff"
    X, y = read_arff(path)
    _check(path, X, y, confidence=confidence, raising=raising)


@pytest.mark.parametrize("seed, n, rate, min_objects",
                         [(0, 200, 0.1, 2), (1, 400, 0.25, 2), (2, 300, 0.4, 2),
                          (3, 150, 0.15, 1), (4, 500, 0.3, 4), (6, 800, 0.35, 2)])
def test_generated_missing_values_are_j48s(tmp_path, seed, n, rate, min_objects):
    require_weka()
    X, y = generated_with_missing(seed, n, rate)
    path = write_arff(tmp_path / f"gen{seed}.arff", X, y)
    _check(path, X, y, min_objects=min_objects)


def test_subtree_raising_happens_where_j48_raises():
    """The datasets the notes name for raising (soybean, labor) raise, and
    soybean raises one place again after raising it (the raised node is
    pruned again)."""
    require_weka(data_only=True)
    for name in ("soybean", "labor"):
        X, y = read_arff(EXAMPLES / f"{name}.arff")
        est = DecisionTreeClassifier(algorithm="j48").fit(X, y)
        record = error_based_prune(est, X, y).record
        raised = record[record.decision == "raise"]
        assert len(raised), name
        # a raised place is decided again, now holding its branch's split
        for _, row in raised.iterrows():
            later = record.loc[row.name + 1:]
            again = later[later.node == row.node]
            assert len(again) and again.iloc[0].split_of == row.branch
    X, y = read_arff(EXAMPLES / "soybean.arff")
    record = error_based_prune(DecisionTreeClassifier(algorithm="j48").fit(X, y), X, y).record
    assert record[record.decision == "raise"].node.duplicated().any()


def test_record_holds_each_nodes_numbers():
    require_weka(data_only=True)
    X, y = read_arff(EXAMPLES / "vote.arff")
    est = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    result = error_based_prune(est, X, y)
    rec = result.record
    assert set(rec.decision) <= {"leaf", "keep", "prune", "raise"}
    # one row per node of the unpruned tree here (vote raises nothing)
    assert sorted(rec.node) == list(range(est.tree_.node_count))
    np.testing.assert_allclose(rec.N, est.tree_.weighted_n_node_samples[rec.node])
    np.testing.assert_allclose(rec.errors_leaf, rec.N * rec.U_CF)
    for _, r in rec.iterrows():
        assert r.errors_leaf == pytest.approx(r.E + add_errors(r.N, r.E, 0.25))
        if r.decision == "prune":
            assert r.errors_leaf <= r.errors_subtree + 0.1 + 1e-6
            assert r.errors_leaf <= r.errors_branch + 0.1 + 1e-6
        elif r.decision == "keep":
            assert (r.errors_leaf > r.errors_subtree + 0.1 - 1e-6
                    or r.errors_leaf > r.errors_branch + 0.1 - 1e-6)
            assert r.errors_branch > r.errors_subtree + 0.1 - 1e-6
    assert rec.attrs["z"] == pytest.approx(0.6744897501960817)
    assert result.tree.n_leaves == 6  # the notes' reference count


_ADD_ERRS_JAVA = """
import weka.classifiers.trees.j48.Stats;

public class AddErrs {
  public static void main(String[] a) throws Exception {
    java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
    String line;
    while ((line = in.readLine()) != null) {
      String[] f = line.trim().split(" ");
      double v = Stats.addErrs(Double.parseDouble(f[0]), Double.parseDouble(f[1]),
                               Float.parseFloat(f[2]));
      System.out.println(Double.toString(v));
    }
  }
}
"""


def test_add_errs_is_wekas_stats_add_errs(tmp_path):
    """Weka's own Stats.addErrs on a grid of N, E (fractional too) and CF."""
    require_weka()
    require(shutil.which("javac") is not None, "javac (a JDK)")
    (tmp_path / "AddErrs.java").write_text(_ADD_ERRS_JAVA)
    jar = weka_jar()
    subprocess.run(["javac", "-cp", jar, "-d", str(tmp_path), str(tmp_path / "AddErrs.java")],
                   check=True, capture_output=True)
    cases = []
    for N in (0.5, 1.0, 1.7, 2.0, 3.0, 5.5, 14.0, 100.0, 2345.25):
        for E in (0.0, 0.3, 0.99, 1.0, 1.2, N / 3, N - 0.6, N - 0.4, N):
            for cf in (0.01, 0.1, 0.25, 0.33, 0.5):
                if 0 <= E <= N:
                    cases.append((N, E, cf))
    text = "\n".join(f"{N!r} {E!r} {cf!r}" for N, E, cf in cases) + "\n"
    done = subprocess.run(["java", "-cp", f"{jar}:{tmp_path}", "AddErrs"], input=text,
                          capture_output=True, text=True, check=True)
    weka = [float(v) for v in done.stdout.split()]
    assert len(weka) == len(cases)
    for (N, E, cf), theirs in zip(cases, weka):
        assert add_errors(N, E, cf) == pytest.approx(theirs, rel=1e-12, abs=1e-12), (N, E, cf)


def test_bad_arguments():
    X = np.array([[0.0], [1.0], [2.0], [3.0]] * 3)
    y = np.array(["a", "a", "b", "b"] * 3)
    est = DecisionTreeClassifier(algorithm="j48").fit(X, y)
    for cf in (0, -0.1, 0.6, "0.25", True):
        with pytest.raises(ValueError, match="confidence"):
            error_based_prune(est, X, y, cf)
    # (other data than the training rows: coded, so that the app words them)
    with pytest.raises(CodedError, match="training data") as refused:
        error_based_prune(est, X[:6], y[:6])
    assert (refused.value.code, refused.value.values) == ("ebp_other_weight",
                                                          {"weight": 6.0, "root": 12.0})
    with pytest.raises(CodedError, match="class counts") as refused:
        error_based_prune(est, X, y[::-1])
    assert refused.value.code == "ebp_other_counts"
    with pytest.raises(CodedError, match="never saw") as refused:
        error_based_prune(est, X, np.where(y == "a", "c", y))
    assert (refused.value.code, refused.value.values) == ("ebp_unseen_label", {"label": "c"})
    from dtree import DecisionTreeRegressor

    reg = DecisionTreeRegressor().fit(X, np.arange(12.0))
    with pytest.raises(ValueError, match="classifier"):
        error_based_prune(reg, X, np.arange(12.0))
    assert np.isnan(upper_confidence_limit(0, 0))
