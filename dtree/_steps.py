"""Growth records: one ``Step`` per split, in the order the builder made them."""

import numpy as np


class Step:
    """One split of the growth sequence.

    Attributes
    ----------
    index : position in ``steps_`` (the tree after this step is ``tree_at(index + 1)``)
    node : id of the split node in ``tree_``
    depth, feature, feature_name, threshold, n_node_samples, weighted_n_node_samples
    impurity : impurity of the node I(t)
    gain : I(t) - sum_child N_child / N_t * I(child)
    improvement : N_t / N * gain (what best-first ranks by and what
        ``min_impurity_decrease`` is compared with)
    split_info : entropy of the branch proportions H_A(D)
    gain_ratio : gain / split_info
    left, right : ids of the children in ``tree_``
    n_left, n_right, impurity_left, impurity_right
    candidates : DataFrame, best first, one row per feature evaluated (built on
        first access)
    """

    __slots__ = ("index", "node", "depth", "feature", "feature_name", "threshold",
                 "n_node_samples", "weighted_n_node_samples", "impurity", "gain",
                 "improvement", "split_info", "gain_ratio", "left", "right", "n_left",
                 "n_right", "impurity_left", "impurity_right", "_cand", "_names",
                 "_ranks_by_ratio", "_candidates")

    def __init__(self, est, tree, index, node, cand, names):
        self.index = index
        self.node = node
        self.depth = int(tree.depth[node])
        self.feature = int(tree.feature[node])
        self.feature_name = names[self.feature]
        self.threshold = float(tree.threshold[node])
        self.n_node_samples = int(tree.n_node_samples[node])
        self.weighted_n_node_samples = float(tree.weighted_n_node_samples[node])
        self.impurity = float(tree.impurity[node])
        self.left = int(tree.children_left[node])
        self.right = int(tree.children_right[node])
        self.n_left = int(tree.n_node_samples[self.left])
        self.n_right = int(tree.n_node_samples[self.right])
        self.impurity_left = float(tree.impurity[self.left])
        self.impurity_right = float(tree.impurity[self.right])
        w = tree.weighted_n_node_samples
        wl, wr, wt = w[self.left], w[self.right], w[node]
        self.gain = float(self.impurity - wr / wt * self.impurity_right
                          - wl / wt * self.impurity_left)
        self.improvement = float(tree.split_improvement[node])
        pl = wl / wt
        self.split_info = float(-(pl * np.log2(pl) + (1 - pl) * np.log2(1 - pl)))
        self.gain_ratio = self.gain / self.split_info
        self._cand = cand
        self._names = names
        self._ranks_by_ratio = est.criterion == "gain_ratio"
        self._candidates = None

    @property
    def candidates(self):
        if self._candidates is None and self._cand is not None:
            self._candidates = candidate_frame(*self._cand, self._names, self.feature,
                                               self._ranks_by_ratio)
        return self._candidates

    def as_dict(self):
        return {name: getattr(self, name) for name in self.__slots__ if not name.startswith("_")}

    def __repr__(self):
        return (f"Step({self.index}: node {self.node} at depth {self.depth}, "
                f"{self.feature_name} <= {self.threshold:.6g}, gain={self.gain:.4g}, "
                f"improvement={self.improvement:.4g})")


def candidate_frame(block, col, names, chosen, by_ratio):
    """The per-feature table of one node's search, best first."""
    import pandas as pd

    feats = np.flatnonzero(block.evaluated[:, col])
    g = block.gain[feats, col]
    si = block.split_info[feats, col]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = g / si
    n_node = block.n_node[col]
    n_left = np.where(np.isnan(g), 0, block.n_left[feats, col])
    frame = pd.DataFrame({
        "feature": [names[f] for f in feats],
        "feature_index": feats,
        "threshold": block.threshold[feats, col],
        "gain": g,
        "gain_ratio": ratio,
        "split_info": si,
        "improvement": block.improvement[feats, col],
        "impurity_left": block.impurity_left[feats, col],
        "impurity_right": block.impurity_right[feats, col],
        "n_left": n_left,
        "n_right": np.where(np.isnan(g), 0, n_node - n_left),
        "weighted_n_left": np.where(np.isnan(g), np.nan, block.weight_left[feats, col]),
        "weighted_n_right": np.where(np.isnan(g), np.nan, block.weight_right[feats, col]),
        "chosen": feats == chosen,
    })
    key = "gain_ratio" if by_ratio else "gain"
    frame = frame.sort_values([key, "chosen"], ascending=[False, False], kind="stable",
                              na_position="last")
    # the chosen split leads even when another feature ties with it exactly
    frame = pd.concat([frame[frame["chosen"]], frame[~frame["chosen"]]])
    return frame.reset_index(drop=True)
