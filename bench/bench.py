"""Fit time of dtree against scikit-learn, measured in the same run.

    make bench            # or: .venv/bin/python bench/bench.py [--repeat N]

For each dataset (three classes, ten features, from make_classification) the
two libraries are timed alternately, ``--repeat`` times each, and the best
time of each is reported (the minimum is the least disturbed by other work on
the machine).  The last column compares dtree with and without keeping each
node's candidate table (``record_candidates``).  Prints a Markdown table.
"""

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sklearn  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.tree import DecisionTreeClassifier as SkTree  # noqa: E402

from dtree import DecisionTreeClassifier  # noqa: E402

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    print(f"Python {platform.python_version()}, NumPy {np.__version__}, "
          f"scikit-learn {sklearn.__version__}, {platform.machine()}\n")
    print("| data | scikit-learn | dtree | ratio dtree/sklearn "
          "| dtree without candidates | recording cost |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, n, depth in CASES:
        X, y = make_classification(n_samples=n, n_features=10, n_informative=6,
                                   n_classes=3, random_state=0)
        X = X.astype(np.float32)
        sk = SkTree(max_depth=depth, random_state=0)
        ours = DecisionTreeClassifier(max_depth=depth)
        plain = DecisionTreeClassifier(max_depth=depth, record_candidates=False)
        t_sk, t_ours, t_plain = [], [], []
        for _ in range(args.repeat):  # alternate, so drift affects both alike
            t_sk.append(best_of(lambda: sk.fit(X, y), 1))
            t_ours.append(best_of(lambda: ours.fit(X, y), 1))
            t_plain.append(best_of(lambda: plain.fit(X, y), 1))
        if ours.tree_.node_count != sk.tree_.node_count:
            print(f"<!-- note: {label}: node counts differ "
                  f"({ours.tree_.node_count} vs {sk.tree_.node_count}; exact ties) -->")
        a, b, c = min(t_sk), min(t_ours), min(t_plain)
        print(f"| {label} | {a * 1000:.0f} ms | {b * 1000:.0f} ms | {b / a:.2f} "
              f"| {c * 1000:.0f} ms | {b / c:.2f}× |")


if __name__ == "__main__":
    main()
