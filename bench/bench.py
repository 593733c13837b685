"""Fit time of dtree against scikit-learn, measured in the same run.

    make bench            # or: .venv/bin/python bench/bench.py [--repeat N]

For each dataset (three classes, ten features, from make_classification) the
two libraries are timed alternately, ``--repeat`` times each, and the best
time of each is reported (the minimum is the least disturbed by other work on
the machine).  The last column compares dtree with and without keeping each
node's candidate table (``record_candidates``).  Prints a Markdown table.

A second table times minimal cost-complexity pruning on 50k rows:
``cost_complexity_pruning_path(X, y)`` (which grows the full tree again, then
computes the path) in both libraries, and the path alone on a grown tree
(scikit-learn's ``ccp_pruning_path`` on its ``tree_`` against
``dtree.pruning_path``).

A third table times C4.5's missing-value rule: the same data with 10% of
the values set to NaN (10k and 50k rows), scikit-learn (entropy, its own NaN
support, unlimited depth) against the ``c4.5`` and ``j48`` presets
(fractional weights down every branch), as ratios to scikit-learn.  The
target is at most 3× scikit-learn's CPU time.  These fits are slow,
so this table takes the best of at most 3 runs.  It also gives the ratios of
CPU time (``time.process_time``): on a shared, busy machine the wall-clock
ratios mostly measure how the other work was scheduled.

A fourth table (``--only criteria``) times the other criteria (absolute and
squared error at unlimited depth), a multiway ID3 tree on string columns
against scikit-learn on their one-hot encoding, and ``ccp_cross_validate``
against the least scikit-learn work for the same answer.

A fifth table is the target for ``splitter="hist"``: one tree of
depth 8 on 1M × 10 (two classes, so that LightGBM too grows exactly one
tree), dtree's hist splitter against LightGBM (``num_threads=1,
n_estimators=1, num_leaves=255, max_depth=8, max_bin=255``; building its
Dataset, i.e. binning, is part of its fit, as binning is part of dtree's),
dtree's exact splitter and scikit-learn, timed alternately (the first two
best of at most 3, the slow exact fits once).  It also reports test accuracy on 200k held-out rows and each fit's peak
memory: the peak RSS increase of one fit in a fresh process, the data
loaded from a .npy file before the fit starts.

A sixth table (``--only uploads``, ``bench/uploads.py``) is the app's
targets, in headless Chromium: a 500k-row CSV uploaded until its
first tree is drawn, and the Prune page opened on a 5k-row upload, each
against a bare Streamlit page measured in the same run (differences and
ratios; ``--repeat`` runs, capped at 3, the median reported).

A seventh table (``--only steps``, ``bench/steps.py``) is the app's step
and start: "Next step" clicked → that step's tree on screen, 15 steps of a
31-node tree on a 10k-row upload, and the first tree of a freshly started
server (cold) and of a second tab (warm), each against a bare Streamlit page
of one button and the same tree (``bench/bare_step_app.py``), its server
started afresh too (``--repeat`` runs, capped at 3; medians, and the step's
50th and 90th percentiles).

``--only fit``, ``--only pruning``, ``--only missing``, ``--only criteria``,
``--only hist``, ``--only uploads`` or ``--only steps`` runs one table.

Everything printed is also written to ``bench/artifacts/bench.md`` (one
table alone: ``bench-<table>.md``), ending with the targets each table
measured.  A run of every table also writes ``docs/benchmarks.md``
(``bench/report.py``): the method, the machine and one row per target with
its reference, the measured ratio and whether it is met.
"""

import argparse
import io
import platform
import sys
import time
from contextlib import contextmanager, redirect_stdout
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sklearn  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.tree import DecisionTreeClassifier as SkTree  # noqa: E402

from dtree import DecisionTreeClassifier, pruning_path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import report  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
BENCHMARKS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"

CASES = [
    ("2k × 10", 2_000, None),
    ("50k × 10, max_depth=10", 50_000, 10),
    ("200k × 10, max_depth=8", 200_000, 8),
]


def best_of(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


class _Tee(io.TextIOBase):
    """A text stream writing to each of ``streams``."""

    def __init__(self, *streams):
        self.streams = streams

    def write(self, text):
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self):
        for stream in self.streams:
            stream.flush()


@contextmanager
def recorded(path: Path):
    """Everything printed inside the block also goes to ``path`` (written
    as it is printed, so an interrupted run keeps its finished tables)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", buffering=1) as out:  # (line by line)
        with redirect_stdout(_Tee(sys.stdout, out)):
            yield


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", choices=["fit", "pruning", "missing", "criteria", "hist",
                                             "uploads", "steps"])
    args = parser.parse_args()
    name = "bench.md" if args.only is None else f"bench-{args.only}.md"
    with recorded(ARTIFACTS / name):
        results = run(args)
        measured = report.measurements(results or {})
        if measured:
            print("\n" + "\n".join(report.targets_table(measured, every=False)))
    if args.only is None and results:  # every table ran: the current figures
        report.write(BENCHMARKS, measured)
        print(f"\nwrote {BENCHMARKS}")


def run(args):
    """Run the tables asked for; what the targets need, by table (see
    ``report.measurements``)."""
    print(f"Python {platform.python_version()}, NumPy {np.__version__}, "
          f"scikit-learn {sklearn.__version__}, {platform.machine()}\n")
    results = {}
    if args.only in (None, "fit"):
        bench_fit(args.repeat)
    if args.only in (None, "pruning"):
        bench_pruning(args.repeat)
    if args.only in (None, "missing"):
        results["missing"] = bench_missing(min(args.repeat, 3))
    if args.only in (None, "criteria"):
        results["criteria"] = bench_criteria(args.repeat)
    if args.only in (None, "hist"):
        hist = bench_hist(min(args.repeat, 3))
        if hist is not None:
            results["hist"] = hist
    if args.only in (None, "uploads"):
        from uploads import bench_uploads  # (Playwright and Debian's chromium)

        results["uploads"] = bench_uploads(min(args.repeat, 3))
    if args.only in (None, "steps"):
        from steps import bench_steps  # (Playwright and Debian's chromium)

        results["steps"] = bench_steps(min(args.repeat, 3))
    return results


def three_class_data(n):
    """The benchmark data: n rows, ten features, three classes, float32."""
    X, y = make_classification(n_samples=n, n_features=10, n_informative=6,
                               n_classes=3, random_state=0)
    return X.astype(np.float32), y


#: The two data shapes every target is measured on (``make_classification``,
#: ten features, six informative): A is the data above, B has the classes
#: closer together (class_sep=0.8), which grows much larger trees.
CLASS_SHAPES = {"A": {}, "B": {"class_sep": 0.8}}


def classification_data(n, shape, n_classes=3):
    """n rows of shape ``shape`` (``CLASS_SHAPES``), float32."""
    X, y = make_classification(n_samples=n, n_features=10, n_informative=6,
                               n_classes=n_classes, random_state=0, **CLASS_SHAPES[shape])
    return X.astype(np.float32), y


def regression_data(n, shape):
    """n rows of ten normal features, float32, and a noisy target: A a smooth
    function of two features, B Friedman's #1 (five features, interactions)."""
    rng = np.random.default_rng(0)
    if shape == "A":
        X = rng.normal(size=(n, 10)).astype(np.float32)
        return X, X[:, 0] * 3 + np.sin(2 * X[:, 1]) + rng.normal(size=n)
    from sklearn.datasets import make_friedman1

    X, y = make_friedman1(n_samples=n, n_features=10, noise=1.0, random_state=0)
    return X.astype(np.float32), y


def string_table(n, shape):
    """n rows of ten string columns and a 0/1 target (the ``id3`` rows)."""
    import pandas as pd

    rng = np.random.default_rng(0 if shape == "A" else 1)
    levels = (lambda j: 2 + j % 5) if shape == "A" else (lambda j: 3 + j % 7)
    table = pd.DataFrame({f"c{j}": rng.choice([f"v{k}" for k in range(levels(j))], n)
                          for j in range(10)})
    if shape == "A":
        y = (table["c0"] == "v0") ^ (table["c3"] == "v1") | (table["c7"] == "v2")
    else:  # a deeper rule, and 10% of the labels flipped
        y = ((table["c1"] == "v1") & (table["c4"] != "v0")) | (table["c8"] == "v3")
        y = y ^ (rng.random(n) < 0.1)
    return table, y.to_numpy(int)


def alternate(fns, repeat):
    """Best time of each function, running them in turn ``repeat`` times."""
    times = [[] for _ in fns]
    for _ in range(repeat):  # alternate, so drift affects all alike
        for fn, t in zip(fns, times):
            t.append(best_of(fn, 1))
    return [min(t) for t in times]


PRUNING_CASES = [
    ("50k × 10, full tree", 50_000, None),
    ("50k × 10, max_depth=10", 50_000, 10),
]


def bench_pruning(repeat):
    try:
        from sklearn.tree._tree import ccp_pruning_path as sk_path_of_tree
    except ImportError:  # a private function: it may move
        sk_path_of_tree = None
    print("\n| minimal cost-complexity pruning | scikit-learn | dtree | ratio dtree/sklearn |")
    print("|---|---:|---:|---:|")
    for label, n, depth in PRUNING_CASES:
        X, y = three_class_data(n)
        sk = SkTree(max_depth=depth, random_state=0)
        ours = DecisionTreeClassifier(max_depth=depth, record_candidates=False)
        a, b = alternate([lambda: sk.cost_complexity_pruning_path(X, y),
                          lambda: ours.cost_complexity_pruning_path(X, y)], repeat)
        print(f"| {label}: `cost_complexity_pruning_path` (fit + path) | {a * 1000:.0f} ms "
              f"| {b * 1000:.0f} ms | {b / a:.2f} |")
        sk.fit(X, y)
        ours.fit(X, y)
        if sk_path_of_tree is None:
            continue
        a, b = alternate([lambda: sk_path_of_tree(sk.tree_),
                          lambda: pruning_path(ours.tree_)], max(repeat, 20))
        print(f"| {label}: the path alone ({ours.tree_.node_count} nodes) "
              f"| {a * 1000:.1f} ms | {b * 1000:.1f} ms | {b / a:.2f} |")


def bench_fit(repeat):
    print("| data | scikit-learn | dtree | ratio dtree/sklearn "
          "| dtree without candidates | recording cost |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, n, depth in CASES:
        X, y = three_class_data(n)
        sk = SkTree(max_depth=depth, random_state=0)
        ours = DecisionTreeClassifier(max_depth=depth)
        plain = DecisionTreeClassifier(max_depth=depth, record_candidates=False)
        a, b, c = alternate([lambda: sk.fit(X, y), lambda: ours.fit(X, y),
                             lambda: plain.fit(X, y)], repeat)
        if ours.tree_.node_count != sk.tree_.node_count:
            print(f"<!-- note: {label}: node counts differ "
                  f"({ours.tree_.node_count} vs {sk.tree_.node_count}; exact ties) -->")
        print(f"| {label} | {a * 1000:.0f} ms | {b * 1000:.0f} ms | {b / a:.2f} "
              f"| {c * 1000:.0f} ms | {b / c:.2f}× |")


MISSING_CASES = [
    ("10k × 10, 10% NaN", 10_000),
    ("50k × 10, 10% NaN", 50_000),
]


def missing_data(n, shape="A"):
    """``classification_data`` with 10% of the values set to NaN."""
    X, y = classification_data(n, shape)
    X[np.random.default_rng(0).random(X.shape) < 0.1] = np.nan
    return X, y


def alternate_both(fns, repeat):
    """The median wall-clock and median CPU time of each function, run in turn."""
    wall, cpu = [[] for _ in fns], [[] for _ in fns]
    for _ in range(repeat):
        for fn, w, c in zip(fns, wall, cpu):
            start, start_cpu = time.perf_counter(), time.process_time()
            fn()
            w.append(time.perf_counter() - start)
            c.append(time.process_time() - start_cpu)
    return [float(np.median(t)) for t in wall], [float(np.median(t)) for t in cpu]


def bench_missing(repeat):
    """{"c4.5" | "j48": [(shape and size, scikit-learn CPU s, dtree CPU s)]}"""
    cpu_times = {"c4.5": [], "j48": []}
    print("\n| data (C4.5's missing values) | scikit-learn | `c4.5` | ratio | `j48` | ratio "
          "| CPU ratio `c4.5` | CPU ratio `j48` | nodes: scikit-learn, `c4.5` |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for shape in CLASS_SHAPES:
        for label, n in MISSING_CASES:
            X, y = missing_data(n, shape)
            sk = SkTree(criterion="entropy", random_state=0)
            c45 = DecisionTreeClassifier(algorithm="c4.5")
            j48 = DecisionTreeClassifier(algorithm="j48")
            (a, b, c), (ca, cb, cc) = alternate_both(
                [lambda: sk.fit(X, y), lambda: c45.fit(X, y), lambda: j48.fit(X, y)], repeat)
            print(f"| {shape}: {label} | {a * 1000:.0f} ms | {b * 1000:.0f} ms | {b / a:.1f} "
                  f"| {c * 1000:.0f} ms | {c / a:.1f} | {cb / ca:.1f} | {cc / ca:.1f} "
                  f"| {sk.tree_.node_count}, {c45.tree_.node_count} |")
            short = f"{shape} {label.split(' ×')[0]}"
            cpu_times["c4.5"].append((short, ca, cb))
            cpu_times["j48"].append((short, ca, cc))
    try:  # how busy the machine was (Linux)
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
        print(f"\nLoad average (1, 5, 15 min) after this table: {load}")
    except OSError:
        pass
    return cpu_times


def bench_criteria(repeat):
    """The other criteria, multiway trees and cross-validated pruning, each
    against scikit-learn in the same run, on both data shapes:
    {target key: [(shape, scikit-learn s, dtree s)]} (CPU time)."""
    from sklearn.model_selection import KFold
    from sklearn.tree import DecisionTreeRegressor as SkRegressor

    from dtree import DecisionTreeRegressor, _jit
    from dtree._pruning import ccp_cross_validate

    times = {}
    print("\n| criterion, data | scikit-learn | dtree | ratio dtree/sklearn (CPU time) |")
    print("|---|---:|---:|---:|")

    def row(key, label, fns, runs):
        a, b = alternate_cpu(fns, runs)
        print(f"| {label} | {a * 1000:.0f} ms | {b * 1000:.0f} ms | {b / a:.2f} |")
        times.setdefault(key, []).append((label.split(":")[0], a, b))

    # numba (loaded first by available(), so that its one-off start-up is not
    # timed) does the absolute-error medians and the plain exact search; the
    # NumPy path is timed too, with numba turned off
    kernels = [("numba", None), ("numpy", False)] if _jit.available() else [("numpy", False)]
    for crit, n, label in (("absolute_error", 20_000, "20k × 10"),
                           ("squared_error", 200_000, "200k × 10")):
        for shape in ("A", "B"):
            X, y = regression_data(n, shape)
            sk = SkRegressor(criterion=crit, random_state=0)
            ours = DecisionTreeRegressor(criterion=crit)
            for path, kernel in kernels:
                _jit._KERNEL = kernel
                if kernel is None:
                    _jit.available()
                ours.fit(X[:1000], y[:1000])  # (numba's kernels compiled or read from disk)
                note = "numba" if path == "numba" else (
                    "NumPy path" + ("" if len(kernels) == 2 else ": numba is not installed"))
                row(f"{crit}_{path}", f"{shape}: `{crit}`, {label}, unlimited depth ({note})",
                    [lambda: sk.fit(X, y), lambda: ours.fit(X, y)], min(repeat, 3))
    _jit._KERNEL = None
    _jit.available()

    # multiway ID3 on a table of strings; scikit-learn needs one-hot columns
    # (pandas.get_dummies, timed with it)
    import pandas as pd

    for shape in ("A", "B"):
        table, y = string_table(200_000, shape)
        sk = SkTree(criterion="entropy", random_state=0)
        ours = DecisionTreeClassifier(algorithm="id3")
        row("id3", f"{shape}: multiway `id3`, 200k × 10 string columns (scikit-learn: one-hot)",
            [lambda: sk.fit(pd.get_dummies(table), y), lambda: ours.fit(table, y)],
            min(repeat, 3))

    # ccp_cross_validate against the least scikit-learn work for the answer:
    # grow each tree once (all rows and each fold), take its path from the
    # fitted tree (ccp_pruning_path on tree_, no second fit, which
    # cost_complexity_pruning_path would do) and predict the held-out fold
    # (scikit-learn cannot score a path's subtrees without refitting, so this
    # is a lower bound)
    from sklearn.tree._tree import ccp_pruning_path as sk_path_of_tree

    for shape in ("A", "B"):
        X, y = classification_data(5_000, shape)

        def sk_cv():
            full = SkTree(random_state=0).fit(X, y)
            sk_path_of_tree(full.tree_)
            for train, test in KFold(5, shuffle=True, random_state=0).split(X):
                fold = SkTree(random_state=0).fit(X[train], y[train])
                sk_path_of_tree(fold.tree_)
                fold.predict(X[test])

        row("ccp_cross_validate", f"{shape}: `ccp_cross_validate`, 5k × 10, 5 folds "
            "(scikit-learn: grow, path of the fitted tree, predict the held-out fold; 6 trees)",
            [sk_cv, lambda: ccp_cross_validate(DecisionTreeClassifier(), X, y, cv=5)],
            max(repeat, 5))
    return times


def alternate_cpu(fns, repeat):
    """The median CPU time (``time.process_time``) of each function, run in
    turn ``repeat`` times: on a shared machine the CPU time is what other
    work disturbs least, and the median is steadier than the best."""
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, t in zip(fns, times):
            start = time.process_time()
            fn()
            t.append(time.process_time() - start)
    return [float(np.median(t)) for t in times]


HIST_ROWS, HIST_TEST_ROWS, HIST_DEPTH = 1_000_000, 200_000, 8


def hist_data():
    X, y = make_classification(n_samples=HIST_ROWS + HIST_TEST_ROWS, n_features=10,
                               n_informative=6, n_classes=2, random_state=0)
    X = X.astype(np.float32)
    return X[:HIST_ROWS], y[:HIST_ROWS], X[HIST_ROWS:], y[HIST_ROWS:]


def hist_models():
    """The four fits of the hist table, by name (built lazily: LightGBM is optional)."""
    def lightgbm():
        import lightgbm as lgb

        return lgb.LGBMClassifier(num_threads=1, n_estimators=1, num_leaves=255,
                                  max_depth=HIST_DEPTH, max_bin=255, verbose=-1)

    return {
        "dtree hist": lambda: DecisionTreeClassifier(max_depth=HIST_DEPTH, splitter="hist"),
        "LightGBM": lightgbm,
        "dtree exact": lambda: DecisionTreeClassifier(max_depth=HIST_DEPTH),
        "scikit-learn": lambda: SkTree(max_depth=HIST_DEPTH, random_state=0),
    }


# ru_maxrss survives exec (a fresh process would report its parent's peak), so
# the child reads its own high-water mark, VmHWM, after resetting it.
_PEAK_CHILD = """
import sys
import numpy as np
sys.path.insert(0, {root!r})
sys.path.insert(0, {bench!r})
import bench
X, y = np.load({x!r}), np.load({y!r})
# a small fit first: each library's code, numba's kernels included, is
# loaded before the peak is counted (the data's memory is what is compared)
bench.hist_models()[{name!r}]().fit(X[:20_000], y[:20_000])
model = bench.hist_models()[{name!r}]()
def status(field):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # VmHWM := VmRSS
before = status("VmRSS")
model.fit(X, y)
print((status("VmHWM") - before) / 1024)
"""


def peak_memory_mb(name, x_path, y_path):
    """Peak RSS increase (MB) of one fit in a fresh process."""
    import subprocess

    here = Path(__file__).resolve().parent
    code = _PEAK_CHILD.format(root=str(here.parent), bench=str(here), x=str(x_path),
                              y=str(y_path), name=name)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return float(out.stdout.split()[-1])


def bench_hist(repeat):
    """{"time_s", "accuracy", "memory_mb"}, each by fit name (None without LightGBM)."""
    import tempfile

    try:
        import lightgbm  # noqa: F401
    except ImportError:
        print("\n(the hist table needs LightGBM: pip install lightgbm)")
        return None
    X, y, X_test, y_test = hist_data()
    makers = hist_models()
    models = {name: make() for name, make in makers.items()}
    fast, slow = ["dtree hist", "LightGBM"], ["dtree exact", "scikit-learn"]
    times = dict(zip(fast, alternate([lambda m=models[k]: m.fit(X, y) for k in fast], repeat)))
    # the exact fits take minutes on a busy machine: timed once
    times.update(zip(slow, alternate([lambda m=models[k]: m.fit(X, y) for k in slow], 1)))
    # the fit target on the second shape too (CPU time, medians)
    by_shape = [("A",) + tuple(alternate_cpu([lambda m=models[k]: m.fit(X, y) for k in
                                              ("LightGBM", "dtree hist")], repeat))]
    X_b, y_b = classification_data(HIST_ROWS, "B", n_classes=2)
    pair = [makers["LightGBM"](), makers["dtree hist"]()]
    by_shape.append(("B",) + tuple(alternate_cpu([lambda m=m: m.fit(X_b, y_b) for m in pair],
                                                 repeat)))
    accuracy = {name: float(np.mean(m.predict(X_test) == y_test)) for name, m in models.items()}
    with tempfile.TemporaryDirectory() as tmp:
        x_path, y_path = Path(tmp) / "X.npy", Path(tmp) / "y.npy"
        np.save(x_path, X)
        np.save(y_path, y)
        memory = {name: peak_memory_mb(name, x_path, y_path) for name in models}
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    lgb_time = times["LightGBM"]
    print(f"\n| 1M × 10, max_depth=8 (load average {load}) | fit | ratio to LightGBM "
          "| test accuracy | peak memory |")
    print("|---|---:|---:|---:|---:|")
    for name in models:
        print(f"| {name} | {times[name] * 1000:.0f} ms | {times[name] / lgb_time:.2f} "
              f"| {accuracy[name]:.4f} | {memory[name]:.0f} MB |")
    gap = 100 * (accuracy["dtree exact"] - accuracy["dtree hist"])
    print(f"\nhist/LightGBM: {times['dtree hist'] / lgb_time:.2f} (target ≤ 1.00); "
          f"hist/exact: {times['dtree hist'] / times['dtree exact']:.2f}; "
          f"hist/scikit-learn: {times['dtree hist'] / times['scikit-learn']:.2f}; "
          f"accuracy exact − hist: {gap:+.2f} points (target ≤ 0.5)")
    for shape, lgb_s, hist_s in by_shape:
        print(f"hist/LightGBM, shape {shape}, CPU time: {hist_s / lgb_s:.2f} "
              f"({hist_s * 1000:.0f} ms vs {lgb_s * 1000:.0f} ms)")
    return {"time_s": times, "accuracy": accuracy, "memory_mb": memory, "fit_by_shape": by_shape}


if __name__ == "__main__":
    main()
