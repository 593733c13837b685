"""Bit-for-bit check of the `c4.5` and `j48` presets on the missing-value
benchmark data (``bench.py --only missing``'s 10k and 50k rows, 10% NaN).

    python bench/c45_identity.py --save ref.npz    # on the reference commit
    python bench/c45_identity.py --check ref.npz   # after a change

Compares every ``tree_`` array, ``predict_proba`` on the training data and on
fresh rows with NaN, the candidate tables of a spread of nodes, and for `j48`
``error_based_prune``'s tree and record.  Floats are compared by their bytes
(NaN equal to NaN), so any change in the last bit counts.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from bench import MISSING_CASES, three_class_data  # noqa: E402

from dtree import DecisionTreeClassifier, error_based_prune  # noqa: E402
from dtree._tree import _CHILD_ARRAYS, _NODE_ARRAYS  # noqa: E402


def _tree_arrays(tree, prefix, out):
    for name in _NODE_ARRAYS + _CHILD_ARRAYS + ("child_ptr",):
        a = getattr(tree, name)
        if name == "branch_of_code":  # per node: None or an array
            a = np.array([repr(None if v is None else np.asarray(v).tolist()) for v in a])
        out[f"{prefix}.{name}"] = np.asarray(a)


def arrays():
    out = {}
    for label, n in MISSING_CASES:
        X, y = three_class_data(n)
        X[np.random.default_rng(0).random(X.shape) < 0.1] = np.nan
        Xnew, _ = three_class_data(2000)
        Xnew = Xnew * 1.1
        Xnew[np.random.default_rng(1).random(Xnew.shape) < 0.2] = np.nan
        for algo in ("c4.5", "j48"):
            key = f"{n}.{algo}"
            model = DecisionTreeClassifier(algorithm=algo).fit(X, y)
            _tree_arrays(model.tree_, key + ".tree", out)
            out[key + ".proba"] = model.predict_proba(X)
            out[key + ".proba_new"] = model.predict_proba(Xnew)
            searched = [i for i in range(model.tree_.node_count)
                        if model.candidates(i) is not None]
            for i in searched[::max(1, len(searched) // 150)]:
                frame = model.candidates(i)
                out[f"{key}.cand{i}"] = np.array(frame.to_csv(float_format="%r"))
            if algo == "j48":
                res = error_based_prune(model, X, y)
                _tree_arrays(res.tree, key + ".ebp", out)
                out[key + ".ebp_record"] = np.array(res.record.to_csv(float_format="%r"))
            print(f"{key}: {model.tree_.node_count} nodes, {len(searched)} searched",
                  flush=True)
    return out


def same(a, b):
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype == object:
        return [repr(v) for v in a.ravel()] == [repr(v) for v in b.ravel()]
    if a.dtype.kind in "fc":
        return a.tobytes() == b.tobytes() or bool(
            np.all((a == b) | (np.isnan(a) & np.isnan(b)))
            and np.array_equal(np.signbit(a), np.signbit(b)))
    return bool(np.array_equal(a, b))


def main():
    parser = argparse.ArgumentParser()
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save")
    group.add_argument("--check")
    args = parser.parse_args()
    got = arrays()
    if args.save:
        np.savez_compressed(args.save, **got)
        print(f"saved {len(got)} arrays to {args.save}")
        return
    ref = np.load(args.check, allow_pickle=True)  # (stop_reason: strings)
    bad = sorted(set(ref.files) ^ set(got))
    bad += [k for k in ref.files if k in got and not same(ref[k], got[k])]
    if bad:
        print(f"DIFFERENT: {len(bad)} of {len(ref.files)} arrays, e.g. {bad[:10]}")
        sys.exit(1)
    print(f"IDENTICAL: all {len(ref.files)} arrays, bit for bit")


if __name__ == "__main__":
    main()
