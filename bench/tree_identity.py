"""Bit-for-bit tree identity check for changes that must not change any tree.

    python bench/tree_identity.py --save ref.npz    # on the commit before
    python bench/tree_identity.py --check ref.npz   # on the commit after

Fits the bench's 1M x 10 classifier (depth 8), a 200k x 10 regressor
(squared_error, depth 8) and small weighted fits of both kinds, and compares
every ``tree_`` array and the predictions exactly.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
sys.path.insert(0, str(here))

from dtree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402

FIELDS = ("feature", "threshold", "children_left", "children_right", "value", "impurity",
          "n_node_samples", "weighted_n_node_samples")


def cases():
    import bench

    X, y, X_test, _ = bench.hist_data()
    yield "clf_1M_depth8", DecisionTreeClassifier(max_depth=8), X, y, None, X_test
    del X, y, X_test
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200_000, 10)).astype(np.float32)
    target = 2.0 * X[:, 0] + X[:, 3] * X[:, 4] + rng.normal(size=len(X))
    yield ("reg_200k_depth8", DecisionTreeRegressor(max_depth=8), X, target, None,
           X[:20_000])
    for seed in range(3):
        rng = np.random.default_rng(seed + 10)
        n = [300, 2_000, 20_000][seed]
        X = rng.normal(size=(n, 6)).astype(np.float32)
        X[:, 5] = rng.integers(0, 4, n)  # ties
        y3 = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int) + (X[:, 3] > 1)
        t = X[:, 0] - 2 * X[:, 5] + rng.normal(size=n)
        w = rng.uniform(0.1, 3.0, n)
        w[rng.random(n) < 0.1] = 0.0
        wi = rng.integers(1, 4, n).astype(float)
        for crit in ("gini", "entropy"):
            yield (f"clf_w_{seed}_{crit}", DecisionTreeClassifier(criterion=crit, max_depth=7),
                   X, y3, w, X)
        yield (f"clf_intw_{seed}", DecisionTreeClassifier(min_samples_leaf=3), X, y3, wi, X)
        yield f"clf_unit_{seed}", DecisionTreeClassifier(min_samples_leaf=2), X, y3, None, X
        yield (f"clf_mf_{seed}", DecisionTreeClassifier(max_features=3, random_state=seed,
                                                        max_depth=6), X, y3, w, X)
        yield (f"clf_leaves_{seed}", DecisionTreeClassifier(max_leaf_nodes=12), X, y3, w, X)
        yield (f"clf_mwf_{seed}", DecisionTreeClassifier(min_weight_fraction_leaf=0.02),
               X, y3, w, X)
        yield f"reg_w_{seed}", DecisionTreeRegressor(max_depth=7), X, t, w, X
        yield (f"reg_msl_{seed}", DecisionTreeRegressor(min_samples_leaf=5, max_depth=9),
               X, t, None, X)
        yield (f"reg_friedman_{seed}", DecisionTreeRegressor(criterion="friedman_mse",
                                                             max_depth=5), X, t, w, X)
        yield (f"reg_leaves_{seed}", DecisionTreeRegressor(max_leaf_nodes=15), X, t, w, X)


def arrays():
    out = {}
    for name, model, X, y, w, X_pred in cases():
        model.fit(X, y, sample_weight=w)
        for field in FIELDS:
            out[f"{name}/{field}"] = np.asarray(getattr(model.tree_, field))
        pred = (model.predict_proba(X_pred) if hasattr(model, "predict_proba")
                else model.predict(X_pred))
        out[f"{name}/predict"] = pred
        print(name, model.tree_.node_count, flush=True)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--save")
    ap.add_argument("--check")
    args = ap.parse_args()
    got = arrays()
    if args.save:
        np.savez(args.save, **got)
        print(f"saved {len(got)} arrays")
    if args.check:
        ref = np.load(args.check)
        bad = [k for k in ref.files
               if k not in got or got[k].dtype != ref[k].dtype or got[k].shape != ref[k].shape
               or got[k].tobytes() != ref[k].tobytes()]
        bad += [k for k in got if k not in ref.files]
        print(f"compared {len(ref.files)} arrays bit for bit: "
              + ("all identical" if not bad else f"{len(bad)} differ: {bad[:10]}"))
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
