"""Growth records: one ``Step`` per split, in the order the builder made them,
and the candidate tables that explain why each split won."""

import operator
from collections.abc import Sequence

import numpy as np

from ._tree import MULTIWAY, NUMERIC

KIND_NAMES = {NUMERIC: "numeric", 1: "subset", MULTIWAY: "multiway"}


class Step:
    """One split of the growth sequence.

    Attributes
    ----------
    index : int
        Position in ``steps_`` (the tree after this step is
        ``tree_at(index + 1)``).
    node : int
        Id of the split node in ``tree_``.
    depth : int
        The node's depth.
    feature : int
        The split feature's index.
    feature_name : str
        Its name.
    n_node_samples : int
        The training rows at the node.
    weighted_n_node_samples : float
        Their weight.
    kind : str
        ``"numeric"`` (x <= threshold), ``"subset"`` (a set of categories
        against the rest) or ``"multiway"`` (one branch per category).
    threshold : float
        The numeric threshold (NaN for categorical splits).
    branches : list of str
        One label per child, e.g. ``"<= 2.45"``/``"> 2.45"``, ``"青年"`` or
        ``"{a, b}"``.
    impurity : float
        Impurity of the node I(t).
    gain : float
        I(t) - sum_child N_child / N_t * I(child) (times the known fraction
        rho under C4.5's missing-value rule).
    improvement : float
        N_t / N * gain (what best-first ranks by and what
        ``min_impurity_decrease`` is compared with).
    split_info : float
        Entropy of the branch proportions H_A(D).
    gain_ratio : float
        gain / split_info.
    children : list of int
        Ids of the children in ``tree_``.
    left, right : int or None
        The two children of a binary split (None for multiway).
    n_children_samples, children_impurity : list
        Per child: training rows and impurity.
    n_left, n_right, impurity_left, impurity_right : int, float or None
        The same for a binary split's two children (None for multiway).
    forced : bool
        True for a split imposed by ``forced_splits`` (these come first).
    best_gain : float
        The gain of the split the algorithm would have chosen at the node
        (its best candidate, as ranked by its criterion and rules, even one
        ``min_impurity_decrease`` would have stopped; NaN if no split was
        possible there); equal to ``gain`` for a split not forced.
    candidates : pandas.DataFrame
        Best first, one row per feature evaluated (built on first access);
        at a forced node, also the forced split, the one marked ``chosen``
        (and ``forced``).
    """

    __slots__ = ("index", "node", "depth", "feature", "feature_name", "kind", "threshold",
                 "branches", "n_node_samples", "weighted_n_node_samples", "impurity",
                 "gain", "improvement", "split_info", "gain_ratio", "children", "left",
                 "right", "n_children_samples", "children_impurity", "n_left", "n_right",
                 "impurity_left", "impurity_right", "forced", "best_gain", "_est",
                 "_candidates")

    def __init__(self, est, tree, index, node, names=None, categories=None, forced=False,
                 best_gain=None):
        self._est = est
        self._candidates = None
        self.index = index
        self.node = node
        self.feature = int(tree.feature[node])
        names = est.feature_names_ if names is None else names
        categories = getattr(est, "categories_", None) if categories is None else categories
        self.feature_name = names[self.feature]
        self.kind = KIND_NAMES[int(tree.kind[node])]
        self.threshold = float(tree.threshold[node]) if self.kind == "numeric" else float("nan")
        labels = categories[self.feature] if categories is not None else None
        self.branches = branch_labels(tree, node, labels)
        self.depth = int(tree.depth[node])
        self.children = tree.child_ids[tree.child_ptr[node]:tree.child_ptr[node + 1]].tolist()
        self.n_node_samples = int(tree.n_node_samples[node])
        self.weighted_n_node_samples = float(tree.weighted_n_node_samples[node])
        self.impurity = float(tree.impurity[node])
        self.n_children_samples = tree.n_node_samples[self.children].tolist()
        self.children_impurity = tree.impurity[self.children].tolist()
        binary = len(self.children) == 2
        self.left, self.right = (self.children if binary else (None, None))
        self.n_left, self.n_right = (self.n_children_samples if binary else (None, None))
        self.impurity_left, self.impurity_right = (self.children_impurity if binary
                                                   else (None, None))
        self.gain = float(tree.split_gain[node])
        self.improvement = float(tree.split_improvement[node])
        self.split_info = float(tree.split_info[node])
        self.gain_ratio = self.gain / self.split_info if self.split_info > 0 else float("nan")
        self.forced = bool(forced)
        self.best_gain = self.gain if best_gain is None else float(best_gain)

    @property
    def candidates(self):
        if self._candidates is None:
            self._candidates = self._est.candidates(self.node)
        return self._candidates

    def as_dict(self):
        return {name: getattr(self, name) for name in self.__slots__ if not name.startswith("_")}

    def __repr__(self):
        if self.kind == "numeric":
            rule = f"{self.feature_name} <= {self.threshold:.6g}"
        else:
            rule = f"{self.feature_name} in {' | '.join(self.branches)}"
        return (f"Step({self.index}: node {self.node} at depth {self.depth}, {rule}, "
                f"{'forced, ' if self.forced else ''}"
                f"gain={self.gain:.4g}, improvement={self.improvement:.4g})")


class Steps(Sequence):
    """``steps_``: the growth sequence, one :class:`Step` per split, read like
    a list.  A Step is made when it is first read (a deep tree makes tens of
    thousands of them, and a fit is mostly never replayed split by split).

    ``nodes`` is the split node of each step, in order, as an array.
    ``forced`` and ``best_gain`` (arrays over the tree's nodes, or None: no
    split forced) give each step's ``forced`` and ``best_gain``.
    """

    def __init__(self, est, tree, nodes, names=None, categories=None, forced=None,
                 best_gain=None):
        self._est, self._tree = est, tree
        self.nodes = np.asarray(nodes, dtype=np.intp)
        self._names, self._categories = names, categories
        self._forced, self._best_gain = forced, best_gain
        self._made = [None] * len(self.nodes)

    def __len__(self):
        return len(self.nodes)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = operator.index(i)
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("step index out of range")
        step = self._made[i]
        if step is None:  # (two threads may both make it: the same values)
            node = int(self.nodes[i])
            forced = self._forced is not None and bool(self._forced[node])
            step = self._made[i] = Step(self._est, self._tree, i, node, self._names,
                                        self._categories, forced,
                                        self._best_gain[node] if forced else None)
        return step

    def __repr__(self):
        return f"Steps({len(self)} splits)"


def split_children(tree, nodes):
    """The children of the given split nodes, all in one array."""
    nodes = np.asarray(nodes, dtype=np.intp)
    lo, hi = tree.child_ptr[nodes], tree.child_ptr[nodes + 1]
    counts = hi - lo
    at = np.repeat(lo - np.r_[0, np.cumsum(counts)[:-1]], counts) + np.arange(counts.sum())
    return tree.child_ids[at]


def _fmt(x):
    return f"{x:.6g}"


def branch_labels(tree, node, labels=None):
    """Human-readable label of each branch of a node.

    Parameters
    ----------
    tree : Tree
        The tree.
    node : int
        An internal node of ``tree``.
    labels : sequence or None, default=None
        The split feature's category labels in code order (an entry of
        ``categories_``); None writes the codes.

    Returns
    -------
    list of str
        One label per child, in branch order: ``"<= 2.45"``/``"> 2.45"``
        for a numeric split (``"known"``/``"missing"`` for a split of known
        against missing values, threshold +inf), a category (``"青年"``) or a set of categories
        (``"{a, b}"``) for a categorical one.
    """
    kind = int(tree.kind[node])
    if kind == NUMERIC:
        t = float(tree.threshold[node])
        if t == float("inf"):  # scikit-learn's split of known against missing values
            return ["known", "missing"]
        return [f"<= {_fmt(t)}", f"> {_fmt(t)}"]
    return categorical_branch_labels(tree.branch_of_code[node], labels)


def categorical_branch_labels(branch, labels):
    names = [str(labels[c]) if labels is not None else str(c) for c in range(len(branch))]
    out = []
    for child in range(int(branch.max()) + 1):
        members = [names[c] for c in np.flatnonzero(branch == child)]
        out.append(members[0] if len(members) == 1 else "{" + ", ".join(members) + "}")
    return out


#: The columns a J48 tree's candidate tables add (``algorithm="j48"``), one
#: value per attribute of the node.
J48_COLUMNS = {
    "gain_before_mdl": "a numeric attribute's gain at its best cut before the MDL "
                       "penalty (already times the known fraction)",
    "mdl_penalty": "log2(n_cuts) / W, subtracted from that gain (W: the node's weight, "
                   "rows with a missing value included)",
    "n_cuts": "the number of admissible cuts of a numeric attribute",
    "split_info_unknown": "the split information's term for the rows with an unknown "
                          "value, counted as one more branch: -(W_?/W) log2(W_?/W)",
    "children_known_weight": "each branch's weight of rows with a known value",
    "min_branch_weight": "the least weight a branch must get: min_objects for a nominal "
                         "attribute, minSplit (0.1 x known weight / classes, clamped to "
                         "[min_objects, 25]) for a numeric one",
    "rejected": "why the attribute cannot split the node ('' if it can)",
}


def _same_split(block, col, forced):
    """Whether the forced split is its feature's own best candidate."""
    f = forced["feature"]
    if not block.evaluated[f, col] or np.isnan(block.gain[f, col]):
        return False
    if forced["branch"] is None:
        return bool(block.threshold[f, col] == forced["threshold"])
    cat = block.categorical.get((int(f), int(col)))
    return cat is not None and np.array_equal(cat[0], forced["branch"])


def _children_columns(sizes, weights, imps) -> dict:
    """A candidate row's columns of its children: both sides of a binary
    split (NaN for a multiway one) and every child's impurity and size."""
    binary = len(sizes) == 2
    return {
        "impurity_left": imps[0] if binary else np.nan,
        "impurity_right": imps[1] if binary else np.nan,
        "n_left": sizes[0] if binary else np.nan,
        "n_right": sizes[1] if binary else np.nan,
        "weighted_n_left": weights[0] if binary else np.nan,
        "weighted_n_right": weights[1] if binary else np.nan,
        "children_impurity": tuple(imps),
        "children_samples": tuple(sizes),
    }


def _forced_row(forced, names, category_labels):
    """The candidate-table row of a forced split (see :func:`candidate_frame`)."""
    f = int(forced["feature"])
    if forced["branch"] is None:
        t = _fmt(forced["threshold"])
        children = f"<= {t} | > {t}"
    else:
        children = " | ".join(categorical_branch_labels(forced["branch"],
                                                        category_labels[f]))
    sizes = [int(v) if float(v).is_integer() else float(v) for v in forced["n_children"]]
    weights = list(map(float, forced["w_children"]))
    imps = list(map(float, forced["impurity_children"]))
    si = forced["split_info"]
    return {
        "feature": names[f],
        "feature_index": f,
        "kind": KIND_NAMES[int(forced["kind"])],
        "threshold": float(forced["threshold"]),
        "children": children,
        "gain": float(forced["gain"]),
        "gain_ratio": float(forced["gain"] / si) if si > 0 else np.nan,
        "split_info": float(si),
        "improvement": float(forced["improvement"]),
        "missing_fraction": float(forced["missing_fraction"]),
        **_children_columns(sizes, weights, imps),
        # (chosen by hand: the algorithm's rules did not rank it)
        "eligible": False,
        "chosen": True,
        "forced": True,
    }


def candidate_frame(block, col, names, category_labels, chosen, by_ratio):
    """The per-feature table of one node's search, best first.

    At a forced node (``block.forced`` holds the column) the forced split is
    the row marked ``chosen`` and ``forced``: its feature's own row when it is
    that feature's best split, else a row of its own (listed besides every
    feature's best).
    """
    import pandas as pd

    forced = (getattr(block, "forced", None) or {}).get(col)
    forced_here = False
    if forced is not None:
        forced_here = _same_split(block, col, forced)
        chosen = forced["feature"] if forced_here else -1
    feats = np.flatnonzero(block.evaluated[:, col])
    g = block.gain[feats, col]
    si = block.split_info[feats, col]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(si > 0, g / si, np.nan)
    rows = []
    for i, f in enumerate(feats):
        cat = block.categorical.get((int(f), int(col)))
        found = not np.isnan(g[i])
        if cat is not None:
            branch, n_c, w_c, imp_c = cat
            children = " | ".join(categorical_branch_labels(branch, category_labels[f]))
            sizes, weights, imps = list(map(int, n_c)), list(map(float, w_c)), list(map(float, imp_c))
        elif found:
            t = _fmt(block.threshold[f, col])
            children = f"<= {t} | > {t}"
            n_l = int(block.n_left[f, col])
            sizes = [n_l, int(block.n_right[f, col])]
            weights = [float(block.weight_left[f, col]), float(block.weight_right[f, col])]
            imps = [float(block.impurity_left[f, col]), float(block.impurity_right[f, col])]
        else:
            children, sizes, weights, imps = "", [], [], []
        rows.append({
            "feature": names[f],
            "feature_index": int(f),
            "kind": KIND_NAMES[int(block.kind[f, col])],
            "threshold": float(block.threshold[f, col]),
            "children": children,
            "gain": float(g[i]),
            "gain_ratio": float(ratio[i]),
            "split_info": float(si[i]),
            "improvement": float(block.improvement[f, col]),
            "missing_fraction": float(block.missing_fraction[f, col]),
            **_children_columns(sizes, weights, imps),
            "eligible": bool(block.eligible[f, col]),
            "chosen": bool(f == chosen),
            "forced": bool(forced_here and f == chosen),
        })
    if forced is not None and not forced_here:
        rows.append(_forced_row(forced, names, category_labels))
    frame = pd.DataFrame(rows)
    extra = getattr(block, "j48", None)
    if extra is not None and not frame.empty:
        for name, values in extra.items():
            frame[name] = [values[f, col] for f in feats]
    if frame.empty:
        return frame
    key = "gain_ratio" if by_ratio else "gain"
    frame = frame.sort_values([key, "chosen"], ascending=[False, False], kind="stable",
                              na_position="last")
    # the chosen split leads even when another feature ties with it exactly
    frame = pd.concat([frame[frame["chosen"]], frame[~frame["chosen"]]])
    return frame.reset_index(drop=True)
