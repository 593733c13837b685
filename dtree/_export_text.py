"""A fitted tree's rules as indented text, in scikit-learn's layout."""

from __future__ import annotations

import numpy as np

from ._tree_view import TreeView, check_int, feature_names_list, is_missing_split, names_list


def export_text(
    est,
    *,
    feature_names=None,
    class_names=None,
    max_depth=10,
    spacing=3,
    decimals=2,
    show_weights=False,
    categories=None,
):
    """Describe the rules of a fitted tree as indented text.

    The layout is scikit-learn's ``export_text``, character for character:
    one ``|--- feature <= t`` / ``|--- feature >  t`` pair per split, and for
    each leaf ``|--- class: c`` (classifiers; preceded by
    ``weights: [...]`` with the weighted class counts when ``show_weights``)
    or ``|--- value: [v]`` (regressors).  Below ``max_depth`` levels a
    subtree is replaced by ``truncated branch of depth d``.

    Parameters
    ----------
    est : fitted estimator or tree
    feature_names : sequence of str, optional
        Defaults to ``feature_0``, ``feature_1``, ... (like scikit-learn,
        ``feature_names_in_`` is *not* used here; pass it explicitly).
    class_names : sequence, optional
        Defaults to ``est.classes_``.  Ignored for regressors.
    max_depth : int
        Number of split levels shown.
    spacing : int
        Width of one indentation level.
    decimals : int
        Digits after the decimal point for thresholds, values and weights.
    show_weights : bool
        Classifiers only: print the weighted class counts on each leaf.
    categories : list, optional
        Category labels per feature (None for numeric ones); defaults to
        ``est.categories_``.  A multiway split prints one ``feature = label``
        line per branch, a subset split ``feature in {...}`` and
        ``feature not in {...}``.
    """
    check_int(max_depth, "max_depth", 0)
    check_int(spacing, "spacing", 1)
    check_int(decimals, "decimals", 0)
    view = TreeView(est)
    classifier = view.is_classifier(class_names)
    names = feature_names_list(view, feature_names, default_from_estimator=False)
    cats = categories if categories is not None else view.attr("categories_")

    if classifier:
        classes = view.attr("classes_")
        if class_names is None:
            class_names = classes
        else:
            class_names = names_list(class_names, "class_names")
            if classes is not None and len(class_names) != len(classes):
                raise ValueError(
                    "class_names must have one name per class: got "
                    f"{len(class_names)} names for {len(classes)} classes"
                )

    def feature_label(node):
        f = int(view.feature[node])
        return f"feature_{f}" if names is None else str(names[f])

    def leaf_values(node):
        # First output's values, or the first entry of every output.
        if view.n_outputs == 1:
            return view.value[node, 0, :]
        return view.value[node, :, 0]

    def leaf_line(node, indent):
        values = leaf_values(node)
        if classifier:
            best = int(np.argmax(values))
            if view.n_classes != 1 and view.n_outputs == 1 and class_names is not None:
                label = str(class_names[best])
            else:
                label = str(best)
            text = ""
            if show_weights:
                w = view.weighted[node]
                text = "[" + ", ".join(f"{v * w:.{decimals}f}" for v in values) + "]"
                return f"{indent} weights: {text} class: {label}\n"
            return f"{indent} class: {label}\n"
        text = "[" + ", ".join(f"{v:.{decimals}f}" for v in values) + "]"
        return f"{indent} value: {text}\n"

    def make_indent(depth):
        bar = ("|" + " " * spacing) * depth
        return bar[:-spacing] + "-" * spacing

    out = []
    # Work list of either strings to emit or (node, depth) pairs to expand;
    # popped from the end, so items are pushed in reverse order.
    todo = [(0, 1)]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node, depth = item
        indent = make_indent(depth)
        if depth <= max_depth + 1:
            if not view.is_leaf(node):
                name = feature_label(node)
                kids = view.children[node]
                if is_missing_split(view.kind[node], view.threshold[node]):
                    conditions = [f"{name} is known", f"{name} is missing"]
                elif view.kind[node] == 0:
                    t = f"{view.threshold[node]:.{decimals}f}"
                    conditions = [f"{name} <= {t}", f"{name} >  {t}"]
                elif view.kind[node] == 1:
                    left = "{" + ", ".join(view.branch_names(node, cats)[0]) + "}"
                    conditions = [f"{name} in {left}", f"{name} not in {left}"]
                else:
                    conditions = [f"{name} = {', '.join(labels)}"
                                  for labels in view.branch_names(node, cats)]
                for kid, condition in reversed(list(zip(kids, conditions))):
                    todo.append((int(kid), depth + 1))
                    todo.append(f"{indent} {condition}\n")
            else:
                out.append(leaf_line(node, indent))
        else:
            levels = view.subtree_depth(node)
            if levels == 1:
                out.append(leaf_line(node, indent))
            else:
                out.append(f"{indent} truncated branch of depth {levels}\n")
    return "".join(out)

