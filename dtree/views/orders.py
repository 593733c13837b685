"""Depth-first, breadth-first and best-first growth compared (an
exercise on growth orders: "if the tree grew breadth-first instead of depth-first, could the
result differ?").

The split chosen at a node depends only on the node's own samples, so when
nothing but per-node limits stop growth (max_depth, min_samples_*,
min_impurity_decrease) every order ends in the same tree; only the sequence
of splits differs.  A leaf budget (``max_leaf_nodes = k``) stops growth after
k - 1 splits, and then the order decides *which* nodes get split:
depth-first takes the first k - 1 internal nodes in pre-order (down the first
branch), breadth-first the first k - 1 level by level, left to right, and
best-first the largest improvements.

Trees of different orders number their nodes differently (pre-order ids
against creation order), so nodes are matched by their *root path*: the
child positions taken from the root (``()`` is the root, ``(0, 1)`` its first
child's second child).  Sorting paths lexicographically lists them in
pre-order, which gives every compared tree one common numbering
(:attr:`OrderComparison.canonical`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

from .. import DecisionTreeClassifier

ORDERS = ("depth_first", "breadth_first", "best_first")
#: Border of a node that one order split and the other did not.
DIFFERENT = "#CC79A7"  # Okabe–Ito reddish purple


# ---------------------------------------------------------------------------
# Matching nodes by root path
# ---------------------------------------------------------------------------


def root_paths(tree) -> list[tuple]:
    """The root path of every node of ``tree`` (index = node id)."""
    paths = [None] * tree.node_count
    paths[0] = ()
    stack = [0]
    while stack:
        node = stack.pop()
        for position, kid in enumerate(tree.children_of(node)):
            paths[kid] = paths[node] + (position,)
            stack.append(kid)
    return paths


def node_signature(tree, node, with_threshold=True) -> tuple:
    """What must agree for two nodes to be "the same": whether and how the
    node is split (feature, kind, threshold, category branches) and its
    sample counts.  ``with_threshold=False`` leaves the threshold out (used
    to compare partitions across rescaled features)."""
    kids = tree.children_of(node)
    counts = (int(tree.n_node_samples[node]), float(tree.weighted_n_node_samples[node]))
    if not kids:
        return (False,) + counts
    kind = int(tree.kind[node])
    threshold = None
    if kind == 0 and with_threshold:
        threshold = float(tree.threshold[node])
    branches = None
    table = getattr(tree, "branch_of_code", None)
    if kind != 0 and table is not None and table[node] is not None:
        branches = tuple(np.asarray(table[node]).tolist())
    return (True, int(tree.feature[node]), kind, threshold, branches, len(kids)) + counts


def signatures(tree, with_threshold=True) -> dict:
    """{root path: node signature} for every node."""
    return {path: node_signature(tree, node, with_threshold)
            for node, path in enumerate(root_paths(tree))}


def level_order(paths) -> list[tuple]:
    """Paths in breadth-first order: by depth, then left to right."""
    return sorted(paths, key=lambda p: (len(p), p))


def pre_order(paths) -> list[tuple]:
    """Paths in depth-first pre-order (a node before its subtree)."""
    return sorted(paths)


# ---------------------------------------------------------------------------
# One growth order
# ---------------------------------------------------------------------------


@dataclass
class GrowthRun:
    """A tree grown in one order.

    ``paths[i]`` is the root path of node i of ``model.growth_tree_`` (the
    tree as grown, before any ccp_alpha pruning); ``expansions`` the root
    paths of the split nodes in the order the builder split them
    (``model.steps_``).
    """

    growth: str
    model: object
    paths: list
    expansions: list
    table: dict = field(repr=False)

    @classmethod
    def of(cls, growth, model):
        tree = model.growth_tree_
        paths = root_paths(tree)
        return cls(growth, model, paths, [paths[s.node] for s in model.steps_],
                   signatures(tree))

    @property
    def tree(self):
        return self.model.growth_tree_

    @property
    def split_paths(self) -> set:
        return {p for p, sig in self.table.items() if sig[0]}

    def node_of(self, path) -> int | None:
        """Node id (in ``tree``) of a root path, None if the tree lacks it."""
        try:
            return self.paths.index(path)
        except ValueError:
            return None


@dataclass
class OrderComparison:
    """Trees grown from the same data and parameters in several orders."""

    runs: dict  # growth -> GrowthRun
    budget: int | None = None

    def __post_init__(self):
        union = set()
        for run in self.runs.values():
            union.update(run.paths)
        #: root path -> common node number (pre-order over all compared trees)
        self.canonical = {p: i for i, p in enumerate(pre_order(union))}

    def same(self, a="depth_first", b="breadth_first") -> bool:
        """The two final trees have identical node sets: the same root paths,
        and at each the same split (feature, kind, threshold, branches) and
        the same sample counts."""
        return self.runs[a].table == self.runs[b].table

    def all_same(self) -> bool:
        names = list(self.runs)
        return all(self.same(names[0], other) for other in names[1:])

    def only(self, a, b) -> list[tuple]:
        """Root paths that order ``a`` split and order ``b`` did not (in
        pre-order)."""
        return pre_order(self.runs[a].split_paths - self.runs[b].split_paths)

    def changed(self, a, b) -> list[tuple]:
        """Root paths split by both orders, but differently (only possible
        when the split search itself depends on the order, e.g. the random
        splitter, whose draws come in the order the nodes are split)."""
        ra, rb = self.runs[a], self.runs[b]
        both = ra.split_paths & rb.split_paths
        return pre_order(p for p in both if ra.table[p] != rb.table[p])

    def differing_nodes(self, a, b) -> list[int]:
        """Node ids in order ``a``'s tree to highlight against order ``b``."""
        run = self.runs[a]
        return sorted(run.node_of(p) for p in self.only(a, b) + self.changed(a, b))

    def expansion_numbers(self, growth) -> list[int]:
        """The common node numbers in the order ``growth`` split them."""
        return [self.canonical[p] for p in self.runs[growth].expansions]

    def n_nodes(self, growth="depth_first") -> int:
        return self.runs[growth].tree.node_count

    def n_leaves(self, growth="depth_first") -> int:
        return self.runs[growth].tree.n_leaves


def compare_fitted(models: dict, budget=None) -> OrderComparison:
    """Compare already fitted models: ``{growth: model}``."""
    return OrderComparison({g: GrowthRun.of(g, m) for g, m in models.items()}, budget)


def compare_orders(X, y, params=None, estimator=DecisionTreeClassifier, orders=ORDERS,
                   sample_weight=None) -> OrderComparison:
    """Fit ``estimator(**params, growth=g)`` for every order g on (X, y) and
    compare the trees.  ``params["max_leaf_nodes"]`` is the leaf budget."""
    params = dict(params or {})
    params.pop("growth", None)
    models = {g: estimator(**params, growth=g).fit(X, y, sample_weight=sample_weight)
              for g in orders}
    return compare_fitted(models, params.get("max_leaf_nodes"))


# ---------------------------------------------------------------------------
# Showing it
# ---------------------------------------------------------------------------


def path_conditions(run: GrowthRun, path) -> list[str]:
    """The tests along a root path, e.g. ``["petal width <= 0.8", ...]``
    (user text, to be escaped by whoever displays it)."""
    model, tree = run.model, run.tree
    step_of = {s.node: s for s in model.steps_}
    node, out = 0, []
    for position in path:
        step = step_of[node]
        branch = step.branches[position]
        if step.kind == "numeric":
            out.append(f"{step.feature_name} {branch}")
        elif step.kind == "multiway":
            out.append(f"{step.feature_name} = {branch}")
        else:
            out.append(f"{step.feature_name} ∈ {branch}")
        node = tree.children_of(node)[position]
    return out


def split_text(run: GrowthRun, node) -> str:
    """The split of a node as one line (user text)."""
    step = next(s for s in run.model.steps_ if s.node == node)
    if step.kind == "numeric":
        return f"{step.feature_name} {step.branches[0]}"
    return f"{step.feature_name}: " + " | ".join(step.branches)


def expansion_rows(comparison: OrderComparison, growth) -> list[dict]:
    """One row per split, in the order ``growth`` made them: position,
    common node number, depth, split (user text)."""
    run = comparison.runs[growth]
    rows = []
    for k, (step, path) in enumerate(zip(run.model.steps_, run.expansions), start=1):
        rows.append({"k": k, "node": comparison.canonical[path], "depth": len(path),
                     "split": split_text(run, step.node)})
    return rows


def orders_dot(comparison: OrderComparison, growth, *, highlight=(), label_lines=None,
               fontsize=None, rankdir="TB", impurity=True, max_drawn_nodes=255,
               lang="en") -> str:
    """DOT of order ``growth``'s tree with the common node numbers, the nodes
    in ``highlight`` (node ids of that tree) outlined in reddish purple and
    ``label_lines`` ({node id: [text]}) appended to the boxes.  Large trees
    are cut at a depth, like the Grow page's tree.  ``lang="zh"``: the
    boxes' fixed words in Chinese (see ``dtree.views.viz.drawn_dot``)."""
    from .viz import drawn_dot, tree_font_size

    run = comparison.runs[growth]
    model = run.model
    tree = copy.copy(run.tree)  # shares the arrays; only node_ids is replaced
    tree.node_ids = np.array([comparison.canonical[p] for p in run.paths], dtype=np.intp)
    if fontsize is None:
        fontsize = tree_font_size(tree.n_leaves)
    dot, _ = drawn_dot(model, tree, highlight={int(n): DIFFERENT for n in highlight},
                       label_lines=label_lines, fontsize=fontsize, rankdir=rankdir,
                       impurity=impurity, max_nodes=max_drawn_nodes, lang=lang)
    # a thicker border than export_graphviz's, for the nodes that are drawn
    thick = "".join(f"{int(n)} [penwidth=6] ;\n" for n in highlight
                    if f"\n{int(n)} [label=" in dot)
    return dot[: dot.rindex("}")] + thick + "}\n"
