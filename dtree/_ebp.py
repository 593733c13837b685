"""C4.5's error-based pruning (EBP), as Weka 3.6's J48 applies it.

The estimate
------------
A leaf that holds N training rows (weights) and misclassifies E of them is
charged ``E + addErrs(N, E, CF)`` errors, the upper limit of a binomial
confidence interval at confidence CF:

* ``E < 1``: from the base ``N · (1 − CF^(1/N))`` (the value at E = 0),
  interpolated linearly towards the value at E = 1;
* ``E + 0.5 >= N``: ``N − E`` (the estimate is then N, every row wrong);
* otherwise, with ``z = Φ⁻¹(1 − CF)`` (0.674 for CF = 0.25) and the continuity
  corrected rate ``f = (E + 0.5) / N``, the upper limit
  ``U = (f + z²/2N + z·sqrt(f/N − f²/N + z²/4N²)) / (1 + z²/N)``, and
  ``addErrs = U·N − E``.

``U_CF(E, N) = (E + addErrs(N, E, CF)) / N`` is the error rate the leaf is
charged.  CF is a Java ``float`` in Weka, and ``1 − CF`` is computed in float
arithmetic before z is taken; so is it here (z then agrees with Weka's to the
last bits: 0.1 gives z = 1.2815514296922790, not 1.2815515570538296).

The decisions
-------------
Bottom-up (every node after its children, children in branch order), for an
internal node t:

* ``errors_leaf``: t's estimate as one leaf (its own N and E);
* ``errors_subtree``: the sum of the estimates of the leaves below t, as the
  children's own decisions left them;
* ``errors_branch``: the estimate of t's largest branch (the child with the
  most training weight, the last one on a tie within 1e-6) when *all* of t's
  training rows are sent through it.

t becomes a leaf when ``errors_leaf <= errors_subtree + 0.1`` and
``errors_leaf <= errors_branch + 0.1``.  Otherwise, with subtree raising, when
``errors_branch <= errors_subtree + 0.1`` the largest branch replaces t: its
split (and everything below it) takes t's place, t's training rows are sent
down it again, every distribution below is recomputed from them, and the
raised node is pruned again.  (Every comparison allows Weka's 1e-6.)

Rows with a missing value go down every branch, weighted by the branch's
share of the known weight, both when the tree was grown and when a raised
branch's distributions are recomputed (Weka's ``C45Split.resetDistribution``).
"""

import math
from statistics import NormalDist

import numpy as np

from ._errors import CodedError
from ._multioutput import refuse
from ._tree import TREE_LEAF, TREE_UNDEFINED, Tree

__all__ = ["error_based_prune", "add_errors", "upper_confidence_limit"]

SMALL = 1e-6  # weka.core.Utils.SMALL


def _cf(confidence):
    """CF as Weka stores it (a Java float), checked."""
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.number)):
        raise ValueError(f"confidence must be a number in (0, 0.5]; got {confidence!r}.")
    if not (0 < float(confidence) <= 0.5):
        raise ValueError(f"confidence must be in (0, 0.5] (C4.5's CF; smaller prunes more); "
                         f"got {confidence!r}.")
    return float(np.float32(confidence))


def _z(cf):
    """Weka's normalInverse(1 - CF), where ``1 - CF`` is Java float arithmetic
    (CF is a float): so 0.33 gives z of 1 - 0.33 rounded to a float."""
    return NormalDist().inv_cdf(float(np.float32(1.0) - np.float32(cf)))


def _add_errs(N, e, cf):
    # e < 1: interpolate between the exact value at 0 and the value at 1
    if e < 1:
        base = N * (1 - math.pow(cf, 1 / N))
        if e == 0:
            return base
        return base + e * (_add_errs(N, 1, cf) - base)
    # near N the continuity correction would overshoot: all N rows wrong
    if e + 0.5 >= N:
        return max(N - e, 0.0)
    z = _z(cf)
    f = (e + 0.5) / N
    r = (f + (z * z) / (2 * N) + z * math.sqrt((f / N) - (f * f / N) + (z * z / (4 * N * N)))) \
        / (1 + (z * z) / N)
    return (r * N) - e


def add_errors(N, E, confidence=0.25):
    """The extra errors C4.5's error-based pruning charges a leaf.

    Weka's ``Stats.addErrs(N, E, CF)`` (see the module docstring).

    Parameters
    ----------
    N : float
        The leaf's training weight (rows).
    E : float
        Its training errors (weight misclassified).
    confidence : float, default=0.25
        The confidence factor CF, in (0, 1); smaller prunes more.

    Returns
    -------
    float
        The errors added to ``E``: the upper confidence limit of the error
        rate times ``N``, minus ``E``.
    """
    return _add_errs(float(N), float(E), _cf(confidence))


def upper_confidence_limit(N, E, confidence=0.25):
    """U_CF(E, N) = (E + addErrs(N, E, CF)) / N, the error rate C4.5 charges a
    leaf (NaN for N = 0, where the estimate is 0 errors)."""
    N, E = float(N), float(E)
    if abs(N) < SMALL:
        return float("nan")
    return (E + _add_errs(N, E, _cf(confidence))) / N


def _max_class(per_class):
    """Weka's Distribution.maxClass: the first class beating the best so far
    by more than 1e-6 (class 0 when all are 0)."""
    best, idx = 0.0, 0
    for i, c in enumerate(per_class.tolist()):
        if c - best > SMALL:
            best, idx = c, i
    return idx


def _max_bag(per_bag):
    """Weka's Distribution.maxBag: the last bag within 1e-6 of the largest."""
    best, idx = 0.0, -1
    for i, b in enumerate(per_bag.tolist()):
        if b - best > -SMALL:
            best, idx = b, i
    return idx


class _Node:
    """A node of the tree being pruned (Weka's C45PruneableClassifierTree).

    ``pos``: the input node whose place this is; ``src``: the input node whose
    split (or leaf) sits here now (differs after subtree raising);
    ``dist``: the distribution, one row per branch (one row for a leaf);
    ``rows``/``w``: the training rows that reach the node and their weights.
    """

    __slots__ = ("pos", "src", "kids", "dist", "rows", "w", "moved", "pruned")

    def __init__(self, pos):
        self.pos = self.src = pos
        self.kids = []
        self.dist = self.rows = self.w = None
        self.moved = False  # distributions recomputed after a raise
        self.pruned = False  # turned into a leaf here

    @property
    def is_leaf(self):
        return not self.kids


class _Pruner:
    def __init__(self, tree, X, codes, w, n_classes, cf, raising):
        self.tree, self.X, self.codes, self.k = tree, X, codes, n_classes
        self.cf, self.raising = cf, raising
        self.rows_out = []
        self.root = self._build(0, np.arange(len(codes)), w)

    # -- the data -------------------------------------------------------------------

    def _class_dist(self, rows, w):
        return np.bincount(self.codes[rows], weights=w, minlength=self.k).astype(np.float64)

    def _branches(self, src, rows):
        """Branch of each row at split ``src``; -1 where C4.5 spreads the row."""
        t = self.tree
        b = t.branch(self.X, rows, np.full(len(rows), src, dtype=np.intp))
        if not t.distribute_missing:
            b = np.where(b < 0, t.missing_child[src], b)
        return b

    def _distribution(self, src, rows, w):
        """Weka's distribution of a split over ``rows`` (C45Split's
        resetDistribution): the known rows in their branch, then each row with
        a missing value spread over the branches by their share of the known
        weight (equal shares if nothing is known)."""
        nb = int(self.tree.n_children[src])
        b = self._branches(src, rows)
        known = b >= 0
        dist = np.zeros((nb, self.k))
        np.add.at(dist, (b[known], self.codes[rows[known]]), w[known])
        if not known.all():
            miss = self._class_dist(rows[~known], w[~known])
            dist += self._shares(dist)[:, None] * miss[None, :]
        return dist

    @staticmethod
    def _shares(dist):
        per_bag = dist.sum(axis=1)
        total = per_bag.sum()
        if total > 0:
            return per_bag / total
        return np.full(len(per_bag), 1.0 / len(per_bag))

    def _split(self, src, rows, w, shares):
        """Weka's split(data): the rows and weights of each branch."""
        b = self._branches(src, rows)
        missing = b < 0
        out = []
        for j, share in enumerate(shares.tolist()):
            mine = b == j
            spread = missing & (share > SMALL)
            take = mine | spread
            out.append((rows[take], np.where(mine, w, w * share)[take]))
        return out

    def _build(self, pos, rows, w):
        """The input tree with its training rows, sent down with the stored
        branch shares (the shares the tree was grown with)."""
        node = _Node(pos)
        node.rows, node.w = rows, w
        t = self.tree
        kids = t.children_of(pos)
        if not kids:
            node.dist = self._class_dist(rows, w)[None, :]
            return node
        node.dist = self._distribution(pos, rows, w)
        parts = self._split(pos, rows, w, self._shares(node.dist))
        node.kids = [self._build(c, r, cw) for c, (r, cw) in zip(kids, parts)]
        return node

    # -- the estimates ------------------------------------------------------------------

    def _estimate(self, per_class):
        """Errors charged to a leaf with this class distribution, with N and E."""
        total = float(per_class.sum())
        if abs(total) < SMALL:
            return 0.0, total, 0.0
        e = total - float(per_class[_max_class(per_class)])
        return e + _add_errs(total, e, self.cf), total, e

    def _subtree_estimate(self, node):
        if node.is_leaf:
            return self._estimate(node.dist.sum(axis=0))[0]
        return sum(self._subtree_estimate(k) for k in node.kids)

    def _branch_estimate(self, node, rows, w):
        """Estimated errors of ``node``'s subtree for the given rows
        (getEstimatedErrorsForBranch); leaves the tree as it was."""
        if node.is_leaf:
            return self._estimate(self._class_dist(rows, w))[0]
        shares = self._shares(self._distribution(node.src, rows, w))
        parts = self._split(node.src, rows, w, shares)
        return sum(self._branch_estimate(k, r, cw) for k, (r, cw) in zip(node.kids, parts))

    def _new_distribution(self, node, rows, w):
        """Recompute every distribution below ``node`` from ``rows``."""
        node.moved = True
        if node.is_leaf:
            node.rows, node.w = rows, w
            node.dist = self._class_dist(rows, w)[None, :]
            return
        node.dist = self._distribution(node.src, rows, w)
        node.rows, node.w = rows, w
        parts = self._split(node.src, rows, w, self._shares(node.dist))
        for k, (r, cw) in zip(node.kids, parts):
            self._new_distribution(k, r, cw)

    # -- pruning ---------------------------------------------------------------------------

    def _n_leaves(self, node):
        return 1 if node.is_leaf else sum(self._n_leaves(k) for k in node.kids)

    def prune(self, node, depth=0):
        if node.is_leaf:
            est, N, E = self._estimate(node.dist.sum(axis=0))
            self._log(node, depth, N, E, est, est, np.nan, -1, 1, "leaf")
            return
        for k in node.kids:
            self.prune(k, depth + 1)
        largest = _max_bag(node.dist.sum(axis=1))
        if self.raising:
            errors_branch = self._branch_estimate(node.kids[largest], node.rows, node.w)
        else:
            errors_branch = np.inf
        errors_leaf, N, E = self._estimate(node.dist.sum(axis=0))
        errors_tree = self._subtree_estimate(node)
        n_leaves = self._n_leaves(node)
        branch = node.kids[largest].src
        shown_branch = errors_branch if self.raising else np.nan
        if (errors_leaf - (errors_tree + 0.1) < SMALL
                and errors_leaf - (errors_branch + 0.1) < SMALL):
            self._log(node, depth, N, E, errors_leaf, errors_tree, shown_branch, branch,
                      n_leaves, "prune")
            node.dist = node.dist.sum(axis=0)[None, :]
            node.kids = []
            node.pruned = True
            return
        if errors_branch - (errors_tree + 0.1) < SMALL:
            self._log(node, depth, N, E, errors_leaf, errors_tree, shown_branch, branch,
                      n_leaves, "raise")
            child = node.kids[largest]
            node.src, node.kids, node.dist = child.src, child.kids, child.dist
            node.pruned = child.pruned
            self._new_distribution(node, node.rows, node.w)
            self.prune(node, depth)
            return
        self._log(node, depth, N, E, errors_leaf, errors_tree, shown_branch, branch,
                  n_leaves, "keep")

    def _log(self, node, depth, N, E, errors_leaf, errors_tree, errors_branch, branch,
             n_leaves, decision):
        t = self.tree
        u = errors_leaf / N if abs(N) >= SMALL else np.nan
        self.rows_out.append((
            node.pos, int(t.node_ids[node.pos]), node.src, int(t.node_ids[node.src]), depth,
            N, E, u, errors_leaf, errors_tree, errors_branch, branch,
            int(t.node_ids[branch]) if branch >= 0 else -1, n_leaves, decision))

    # -- the pruned tree -------------------------------------------------------------------------

    def to_tree(self, criterion):
        t = self.tree
        order, parent, depth = [], [], []
        stack = [(self.root, -1, 0)]
        while stack:
            node, par, d = stack.pop()
            order.append(node)
            parent.append(par)
            depth.append(d)
            me = len(order) - 1
            stack.extend((k, me, d + 1) for k in node.kids[::-1])
        src = np.array([g.src for g in order], dtype=np.intp)
        arrays = {name: np.array(getattr(t, name)[src], copy=True)
                  for name in ("feature", "threshold", "impurity", "n_node_samples",
                               "weighted_n_node_samples", "value", "stop_reason", "node_ids",
                               "split_improvement", "split_gain", "split_info", "kind",
                               "missing_child", "branch_of_code")}
        arrays["parent"] = np.array(parent, dtype=np.intp)
        arrays["depth"] = np.array(depth, dtype=t.depth.dtype)
        leaf = np.array([g.is_leaf for g in order])
        arrays["feature"] = np.where(leaf, TREE_UNDEFINED, arrays["feature"])
        arrays["threshold"] = np.where(leaf, float(TREE_UNDEFINED), arrays["threshold"])
        arrays["missing_child"] = np.where(leaf, TREE_LEAF, arrays["missing_child"])
        stop = arrays["stop_reason"].astype(object)
        ptr, ids, share = [0], [], []
        position = {id(g): i for i, g in enumerate(order)}
        for i, g in enumerate(order):
            if g.pruned and g.is_leaf:
                stop[i] = "pruned"
            if g.is_leaf:
                ptr.append(len(ids))
                continue
            ids.extend(position[id(k)] for k in g.kids)
            if g.moved:
                share.extend(self._shares(g.dist).tolist())
                if t.distribute_missing:
                    # only a label here (C4.5 spreads such rows); the largest
                    # branch, as the tree was grown
                    arrays["missing_child"][i] = _max_bag(g.dist.sum(axis=1))
                # otherwise missing_child routed the rows that were re-sent
                # (_branches): keep it, or the counts and predictions disagree
            else:
                a, b = t.child_ptr[g.src], t.child_ptr[g.src + 1]
                share.extend(t.child_share[a:b].tolist())
            ptr.append(len(ids))
        arrays["stop_reason"] = stop
        # the nodes whose training rows changed (raised, or under a raise)
        for i, g in enumerate(order):
            if not g.moved:
                continue
            counts = self._class_dist(g.rows, g.w)
            total = float(g.w.sum())
            arrays["n_node_samples"][i] = len(g.rows)
            arrays["weighted_n_node_samples"][i] = total
            if total > 0:
                arrays["value"][i, 0] = counts / total
                arrays["impurity"][i] = float(criterion.impurity(np.r_[counts, total]))
            else:  # an empty branch predicts as its parent does (parents come first)
                arrays["value"][i] = arrays["value"][parent[i]] if parent[i] >= 0 else 0.0
                arrays["impurity"][i] = 0.0
        return Tree(child_ptr=np.array(ptr, dtype=np.intp),
                    child_ids=np.array(ids, dtype=np.intp),
                    child_share=np.array(share, dtype=np.float64),
                    distribute_missing=t.distribute_missing, **arrays)


def error_based_prune(model, X, y, confidence=0.25, subtree_raising=True, *,
                      sample_weight=None, tree=None):
    """C4.5's error-based pruning of a fitted classifier, as Weka's J48 does it.

    For ``DecisionTreeClassifier(algorithm="j48")`` the result is the tree
    default J48 (``-C 0.25 -M 2``) prints, node for node.

    Parameters
    ----------
    model : DecisionTreeClassifier
        A fitted classifier.
    X : array-like of shape (n_samples, n_features)
        The rows the tree was fitted on: subtree raising sends a node's
        training rows through the branch it raises.
    y : array-like of shape (n_samples,)
        Their classes.
    confidence : float, default=0.25
        C4.5's CF (J48's ``-C``, in (0, 0.5]); a smaller CF charges more
        errors and prunes more.
    subtree_raising : bool, default=True
        False is J48's ``-S``.
    sample_weight : array-like of shape (n_samples,), default=None
        The fit's row weights, if it had some.
    tree : Tree, default=None
        The tree to prune; ``model.tree_`` by default.

    Returns
    -------
    PruneResult
        ``(tree, record)``.  The tree is new (pre-order ids); a node in a
        raised branch keeps the id (``node_ids``) of the node whose split it
        is.  The record is described below.

    Notes
    -----
    The record has one row per decision, in the order they are made
    (bottom-up; a raised node and everything below it are decided again):

    * ``node``, ``node_id``: the place decided (its index in the input tree
      and its id); ``split_of``, ``split_of_id``: the input node whose split
      or leaf sits there now (the same unless a branch was raised into it);
    * ``depth``, ``N`` (training weight), ``E`` (its errors as a leaf);
    * ``U_CF``: the upper confidence limit of the error rate, so
      ``errors_leaf = N · U_CF = E + addErrs(N, E, CF)``;
    * ``errors_subtree``: the sum over the leaves below (``errors_leaf`` for
      a leaf); ``errors_branch``: the largest branch's estimate on all of the
      node's rows (NaN for a leaf or without subtree raising); ``branch``,
      ``branch_id``: that child (-1 for a leaf);
    * ``n_leaves``: the leaves below before the decision;
    * ``decision``: ``"leaf"`` (already one), ``"keep"``, ``"prune"`` (becomes
      a leaf) or ``"raise"`` (its largest branch takes its place).

    ``record.attrs`` holds ``confidence`` (as Weka reads it), ``z`` and
    ``subtree_raising``.
    """
    from ._base import as_sample_weight, as_target
    from ._criteria import make_criterion
    from ._rep_pep import PruneResult, _record

    refuse("error_based_prune", model, y)
    if not (hasattr(model, "tree_") and hasattr(model, "classes_")):
        raise ValueError("Error-based pruning counts misclassified training rows; it needs "
                         "a fitted classifier, not a regressor or an unfitted model.")
    cf = _cf(confidence)
    tree = model.tree_ if tree is None else tree
    Xe = model._validate_X_predict(X)
    n = Xe.shape[0]
    y = as_target(y, n_samples=n)
    lookup = {c: i for i, c in enumerate(model.classes_.tolist())}
    try:
        codes = np.array([lookup[v] for v in y.tolist()], dtype=np.intp)
    except KeyError as err:
        raise CodedError("ebp_unseen_label", label=err.args[0]) from None
    w = as_sample_weight(sample_weight, n).astype(np.float64)
    cw = getattr(model, "class_weight", None)
    if cw is not None:
        w, _ = model._apply_class_weight(codes, w, sample_weight is not None)
    keep = w > 0
    Xe, codes, w = Xe[keep], codes[keep], w[keep]
    root_w = float(tree.weighted_n_node_samples[0])
    if abs(float(w.sum()) - root_w) > 1e-6 * max(root_w, 1.0):
        raise CodedError("ebp_other_weight", weight=float(w.sum()), root=root_w)
    pruner = _Pruner(tree, Xe, codes, w, len(model.classes_), cf, bool(subtree_raising))
    # the training rows must reproduce the tree's own class counts
    expect = tree.value[:, 0, :] * tree.weighted_n_node_samples[:, None]
    got = np.zeros_like(expect)
    stack = [pruner.root]
    while stack:
        g = stack.pop()
        got[g.pos] = g.dist.sum(axis=0)
        stack.extend(g.kids)
    if not np.allclose(got, expect, rtol=1e-6, atol=1e-6):
        raise CodedError("ebp_other_counts")
    pruner.prune(pruner.root)
    record = _record(pruner.rows_out, node=int, node_id=int, split_of=int, split_of_id=int,
                     depth=int, N=float, E=float, U_CF=float, errors_leaf=float,
                     errors_subtree=float, errors_branch=float, branch=int, branch_id=int,
                     n_leaves=int, decision=object)
    record.attrs.update(confidence=cf, z=_z(cf),
                        subtree_raising=bool(subtree_raising))
    criterion = make_criterion(model.criterion_, len(model.classes_), classification=True)
    return PruneResult(pruner.to_tree(criterion), record)
