"""How much a tree changes when its training rows change a little.

Plain functions for the Compare page's resamples view (no Streamlit), on
the trees :func:`dtree.resampled_trees` grows and the tree grown on all the
training rows:

* :func:`same_categories` gives the categorical columns of a table the
  categories of the tree on all rows, so that every resampled tree codes a
  category as that tree does (a bootstrap sample may miss a category) and
  the Compare page's matching of nodes (:mod:`dtree.views.compare`) holds;
* :func:`split_parts` names what a node does as (feature, rule), the rule
  rounded as the drawings write it (so that thresholds that print alike are
  counted together);
* :func:`root_splits` and :func:`first_level` count how often each root
  split, and below each root feature each first-level split, wins across the
  resamples; :func:`root_split_figure` draws the first as bars;
* :func:`held_out_scores` scores each resampled tree on held-out rows: the
  test split when there is one, else the rows its resample left out (its
  out-of-bag rows for a bootstrap sample); :func:`spread` and
  :func:`score_figure` summarise and draw them;
* :func:`agreement` says, for each resample, where its tree first parts
  from the tree on all rows (or that it is the same tree);
* :func:`shown_resamples` picks the few resampled trees drawn beside the
  tree on all rows: first those whose root splits differ.

The words are in :mod:`dtree.views.comparetext`; user text in figures is
HTML-escaped.
"""

from __future__ import annotations

import html
import math
from collections import Counter

import numpy as np
import pandas as pd

from .vocabulary import missing_side, missing_split, t
from .. import NUMERIC, OKABE_ITO, branch_labels
from .compare import (FONT_SIZE, encoded, first_divergence, score, split_signature, same_split,
                      tree_predict)

#: What :func:`split_parts` returns for a tree that did not split at all.
NO_SPLIT = None


def same_categories(model, X):
    """``X`` (a DataFrame) with each of ``model``'s categorical features as a
    pandas categorical column with the categories ``model`` learned, in its
    order: fitted on any rows of it, a tree codes every category as
    ``model`` does.  Other tables are returned as they are."""
    cats = getattr(model, "categories_", None)
    if not hasattr(X, "iloc") or cats is None or all(c is None for c in cats):
        return X
    out = X.copy()
    for j, labels in enumerate(cats):
        if labels is not None:
            out.isetitem(j, pd.Categorical(X.iloc[:, j], categories=list(labels)))
    return out


def _category_labels(model, feature):
    cats = getattr(model, "categories_", None)
    if cats is None or cats[feature] is None:
        return None
    return [str(c) for c in cats[feature]]


def split_parts(model, node=0, lang="en"):
    """What ``node`` of ``model.growth_tree_`` does, as (feature name, rule):
    ("petal length (cm)", "≤ 2.45"), ("outlook", "sunny | overcast | rain"),
    ("bill_length_mm", "missing / known"); None for a leaf."""
    tree = model.growth_tree_
    if not tree.children_of(node):
        return NO_SPLIT
    feature = int(tree.feature[node])
    name = str(model.feature_names_[feature])
    if int(tree.kind[node]) == NUMERIC:
        cut = float(tree.threshold[node])
        if cut == math.inf:
            return name, missing_split("", lang).strip()
        return name, f"≤ {cut:.4g}"
    return name, " | ".join(branch_labels(tree, node, _category_labels(model, feature)))


def _branch_name(model, node, position, lang):
    """A branch of ``node`` named without its threshold ("≤", ">"), so that
    the same side of roots on one feature is counted together; a
    categorical branch by its categories."""
    tree = model.growth_tree_
    if int(tree.kind[node]) == NUMERIC:
        if float(tree.threshold[node]) == math.inf:
            return missing_side(position, lang)
        return "≤" if position == 0 else ">"
    feature = int(tree.feature[node])
    return branch_labels(tree, node, _category_labels(model, feature))[position]


def _root_key(model, Xe, lang):
    """What groups a root split with others: (feature name, what it does to
    the rows of ``Xe``), and its rule.  A threshold is keyed by the number
    of rows of ``Xe`` it sends left, so that thresholds between the same two
    values of the rows count as one split."""
    parts = split_parts(model, 0, lang)
    if parts is NO_SPLIT:
        return (None, None), None
    tree = model.growth_tree_
    cut = float(tree.threshold[0])
    if Xe is None or int(tree.kind[0]) != NUMERIC or cut == math.inf:
        return parts, None
    column = Xe[:, int(tree.feature[0])]
    return (parts[0], int(np.sum(column <= cut))), cut


def root_splits(models, X=None, lang="en") -> pd.DataFrame:
    """How often each root split wins: one row per split, with its
    ``feature``, ``rule``, the number of ``trees`` and their ``share``, most
    frequent first (ties in the order first met); a tree that is a single
    leaf counts under feature None.

    With ``X``, the rows the tree on all rows was fitted on, thresholds that
    send the same rows of ``X`` left are one split (a bootstrap sample
    that misses the largest value below the cut moves its threshold), its
    rule the range of those thresholds ("≤ 2.3 to 2.7"); without it, each
    threshold as the drawings write it is a split of its own."""
    Xe = None if X is None or not len(models) else encoded(models[0], X)
    keys, cuts = [], {}
    for m in models:
        key, cut = _root_key(m, Xe, lang)
        keys.append(key)
        if cut is not None:
            cuts.setdefault(key, []).append(cut)
    counts = Counter(keys)
    order = list(dict.fromkeys(keys))
    rows = sorted(order, key=lambda k: (-counts[k], order.index(k)))
    n = max(len(models), 1)

    def rule(key):
        if key not in cuts:
            return key[1]
        lo, hi = min(cuts[key]), max(cuts[key])
        return f"≤ {lo:.4g}" if f"{lo:.4g}" == f"{hi:.4g}" else \
            t(lang, f"≤ {lo:.4g} to {hi:.4g}", f"≤ {lo:.4g} 至 {hi:.4g}")
    return pd.DataFrame({"feature": [k[0] for k in rows], "rule": [rule(k) for k in rows],
                         "trees": [counts[k] for k in rows],
                         "share": [counts[k] / n for k in rows]})


def root_features(models) -> pd.Series:
    """The number of trees whose root splits on each feature (None: a leaf),
    most frequent first."""
    names = [(split_parts(m) or (None,))[0] for m in models]
    counts = Counter(names)
    order = list(dict.fromkeys(names))
    return pd.Series({n: counts[n] for n in sorted(order, key=lambda n: (-counts[n],
                                                                          order.index(n)))},
                     dtype=int)


def first_level(models, lang="en") -> pd.DataFrame:
    """Below each root feature, what each branch of the root splits on.

    One row per (root feature, branch, feature below): ``branch`` is the
    root's side ("≤" or ">" for a threshold, whatever its value; the
    categories for a categorical root), ``below`` the feature its child
    splits on (None: the child is a leaf), ``trees`` how many trees do so
    and ``share`` their share of the trees with that root feature.  Root
    features in order of frequency, then branches in order, then the most
    frequent feature below first."""
    per_root = root_features(models)
    counts, order = Counter(), []
    for m in models:
        tree = m.growth_tree_
        if not tree.children_of(0):
            continue
        root = split_parts(m, 0, lang)[0]
        for position, child in enumerate(tree.children_of(0)):
            below = (split_parts(m, child, lang) or (None,))[0]
            key = (root, _branch_name(m, 0, position, lang), position, below)
            counts[key] += 1
            order.append(key)
    order = list(dict.fromkeys(order))
    rank = {name: i for i, name in enumerate(per_root.index)}
    keys = sorted(order, key=lambda k: (rank[k[0]], k[2], k[1], -counts[k], order.index(k)))
    return pd.DataFrame({"root": [k[0] for k in keys], "branch": [k[1] for k in keys],
                         "below": [k[3] for k in keys], "trees": [counts[k] for k in keys],
                         "share": [counts[k] / per_root[k[0]] for k in keys]})


def held_out_scores(result, X_train, y_train, X_test=None, y_test=None):
    """The score (accuracy, or R² for regression) of each tree of ``result``
    (a :class:`dtree.ResampledTrees` fitted on rows of ``X_train``) on
    held-out rows, and which rows: ``"test"``, the test split, when it has
    rows (the same rows for every tree); else ``"left_out"``, the training
    rows each resample did not draw (out-of-bag rows for a bootstrap
    sample; NaN when a resample drew every row)."""
    if y_test is not None and len(y_test):
        return np.array([score(m, tree_predict(m, m.growth_tree_, encoded(m, X_test)), y_test)
                         for m in result.estimators]), "test"
    y_train = np.asarray(y_train)
    out = []
    for i, m in enumerate(result.estimators):
        rows = result.left_out(i)
        if not len(rows):
            out.append(np.nan)
            continue
        X = X_train.iloc[rows] if hasattr(X_train, "iloc") else np.asarray(X_train)[rows]
        out.append(score(m, tree_predict(m, m.growth_tree_, encoded(m, X)), y_train[rows]))
    return np.array(out, dtype=float), "left_out"


def spread(scores) -> dict:
    """min, first quartile, median, third quartile, max, mean and standard
    deviation (n − 1; 0 for one score) of the finite ``scores``, and how
    many there are (``n``).  NaN when there is none."""
    x = np.asarray(scores, dtype=float)
    x = x[np.isfinite(x)]
    if not len(x):
        return {k: float("nan") for k in ("min", "q1", "median", "q3", "max", "mean", "sd")} \
            | {"n": 0}
    q1, median, q3 = np.percentile(x, [25, 50, 75])
    return {"min": float(x.min()), "q1": float(q1), "median": float(median), "q3": float(q3),
            "max": float(x.max()), "mean": float(x.mean()),
            "sd": float(x.std(ddof=1)) if len(x) > 1 else 0.0, "n": int(len(x))}


def agreement(full, models) -> list:
    """For each of ``models``, where its tree first parts from ``full``'s
    (the tree on all rows), as the depth of that node (0: the root), or
    None when the two trees make exactly the same splits.  The trees must
    code categories alike (:func:`same_categories`)."""
    out = []
    for m in models:
        div = first_divergence([full, m])
        out.append(None if div is None else len(div.path))
    return out


def shown_resamples(full, models, n) -> list:
    """The indices of ``n`` resampled trees to draw beside ``full``'s: first,
    in order, those whose root split differs from the root splits of
    ``full`` and of the trees already picked; then the others that differ
    from ``full`` somewhere; then the rest, in order."""
    n = min(n, len(models))
    picked, seen = [], [split_signature(full.growth_tree_, 0)]
    for i, m in enumerate(models):
        sig = split_signature(m.growth_tree_, 0)
        if len(picked) < n and not any(same_split(sig, s) for s in seen):
            picked.append(i)
            seen.append(sig)
    differs = [d is not None for d in agreement(full, models)]
    for wanted in (True, False):
        for i in range(len(models)):
            if len(picked) < n and i not in picked and differs[i] == wanted:
                picked.append(i)
    return picked


# ---------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------


def _plain(text, n=40) -> str:
    text = " ".join(str(text).split())
    text = text if len(text) <= n else text[: n - 1] + "…"
    return html.escape(text, quote=True)


def _layout(fig, title, height):
    fig.update_layout(title={"text": title, "font": {"size": FONT_SIZE + 2}},
                      font={"size": FONT_SIZE}, height=height, showlegend=False,
                      margin={"l": 20, "r": 30, "t": 60, "b": 60})
    axis = {"tickfont": {"size": FONT_SIZE - 2}, "title_font": {"size": FONT_SIZE}}
    fig.update_xaxes(**axis)
    fig.update_yaxes(**axis)
    return fig


#: Bars drawn in the root-split chart; the rest are summed in one bar.
MAX_BARS = 8


def root_split_figure(table, n_trees, lang="en"):
    """Horizontal bars of :func:`root_splits`' ``table``: one per root split,
    most frequent on top, coloured by feature, labelled with its count."""
    import plotly.graph_objects as go

    table = table.reset_index(drop=True)
    rest = table.iloc[MAX_BARS:]
    table = table.iloc[:MAX_BARS]
    leaf = t(lang, "(a single leaf)", "（只有一个叶结点）")
    labels = [leaf if f is None else _plain(f"{f} {r}", 36)
              for f, r in zip(table["feature"], table["rule"])]
    counts = list(table["trees"])
    features = list(dict.fromkeys(table["feature"]))
    colours = [OKABE_ITO[(4 + features.index(f)) % len(OKABE_ITO)] for f in table["feature"]]
    if len(rest):
        labels.append(t(lang, f"{len(rest)} other splits", f"其他 {len(rest)} 种划分"))
        counts.append(int(rest["trees"].sum()))
        colours.append("#999999")
    fig = go.Figure(go.Bar(
        x=counts, y=labels, orientation="h", marker={"color": colours},
        text=[str(c) for c in counts], textposition="outside",
        textfont={"size": FONT_SIZE}, cliponaxis=False,
        hovertemplate="%{y}: %{x}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_xaxes(range=[0, n_trees * 1.12], title_text=t(lang, "trees", "棵树"))
    title = t(lang, f"Root split of each of the {n_trees} trees",
              f"{n_trees} 棵树各自的根结点划分")
    return _layout(fig, title, 120 + 48 * len(labels))


def score_figure(scores, full_score=None, metric="accuracy", where="test", lang="en"):
    """Each resampled tree's held-out score as a dot (jittered up and down,
    seeded), over a box of their quartiles, with the tree on all rows'
    score (on the same test rows) as a dashed line when given."""
    import plotly.graph_objects as go

    x = np.asarray(scores, dtype=float)
    finite = x[np.isfinite(x)]
    jitter = np.random.default_rng(0).uniform(-0.25, 0.25, size=len(finite))
    rows = t(lang, "test rows", "测试集") if where == "test" else \
        t(lang, "rows each resample left out", "各次重抽样未抽到的样本")
    fig = go.Figure()
    fig.add_trace(go.Box(x=finite, y=np.zeros(len(finite)), orientation="h", boxpoints=False,
                         fillcolor="rgba(0,114,178,0.15)", line={"color": OKABE_ITO[4]},
                         hoverinfo="skip", width=0.8))
    fig.add_trace(go.Scatter(x=finite, y=jitter, mode="markers",
                             marker={"size": 14, "color": OKABE_ITO[5], "opacity": 0.8,
                                     "line": {"color": "#000", "width": 1}},
                             hovertemplate=f"{metric}: %{{x:.3f}}<extra></extra>"))
    if full_score is not None and np.isfinite(full_score):
        fig.add_vline(x=full_score, line={"color": "#333", "width": 3, "dash": "dash"},
                      annotation_text=t(lang, f"all rows: {full_score:.3f}",
                                        f"全部样本：{full_score:.3f}"),
                      annotation_position="top", annotation_font_size=FONT_SIZE - 2)
    fig.update_yaxes(visible=False, range=[-0.6, 0.8])
    fig.update_xaxes(title_text=f"{metric} ({rows})")
    title = t(lang, f"{metric[:1].upper()}{metric[1:]} of the {len(finite)} resampled trees "
                    "on held-out rows",
              f"{len(finite)} 棵重抽样树在留出样本上的{metric}")
    return _layout(fig, title, 300)
