"""The cost-complexity view's trees at one α (pages/prune.py calls
:func:`trees_at`): the pruned tree beside the full tree with the pruned
branches greyed, or the full tree alone with them greyed, which has the
whole width (presenter mode's default).  A button (G) switches between the
two, and the choice is in the link (``prune_trees``; pages/state/url_state.py).
In presenter mode the trees follow the Grow page's switches (W: folded to
fit the window, or whole; D: brief or full boxes)."""

import streamlit as st

from dtree.views import prunetext as words
from dtree.views import pruneview as pv
from dtree.views.prunetext import g_of
from dtree.views.viz import MAX_DRAWN_NODES, NEXT_SPLIT
from pages.panels import tree_view
from pages.panels.prune_panels import draw
from pages.state.session import lang, presenting, step_button, tr

#: The session key (and link parameter) of the choice: "one" or "two".
KEY = "prune_trees"
#: Presenter mode keeps at most this many of the nodes collapsed so far (the
#: last) drawn, with the next weakest link: past a few, folding the rest is
#: what keeps the tree readable (and quick to fold).
FOCUS_COLLAPSED = 4


def one_tree() -> bool:
    """Whether the full tree is drawn alone with its pruned branches greyed
    (presenter mode's default), rather than beside the pruned tree."""
    return st.session_state.get(KEY, "one" if presenting() else "two") == "one"


def _choose(value):
    st.session_state[KEY] = value


def switch(bar, compact) -> None:
    """The button in ``bar`` that switches between one tree and two (G)."""
    one = one_tree()
    step_button(bar, tr("Pruned and full tree side by side (G)", "剪枝后的树与完整的树并排（G）")
                if one else tr("One tree, pruned branches greyed (G)",
                               "一棵树，被剪掉的分支为灰色（G）"),
                "prune_trees_switch", ":material/view_column_2:" if one
                else ":material/crop_landscape:", compact, on_click=_choose,
                args=("two" if one else "one",), shortcut="G")


def _drawing(p, window, keep_open, keep_drawn) -> dict:
    """The keyword arguments that draw a tree of ``p`` (the page's
    Pruning) for ``window``: in presenter mode, brief boxes and folded as
    the switches say, laid out top-down or left to right, whichever draws
    the full tree with every g(t) largest in a window of that shape (the
    same at every α, so that the layout never flips)."""
    if not p.present:
        return {}
    details = tree_view.detailed()
    rankdir = pv.tree_direction(st.session_state.get("layout", "auto"), p.model, p.tree0,
                                True, lang(), aspect=window[0] / window[1], details=details,
                                g_by_id=g_of(p.seq.table_at(0)), **p.big)
    return {"rankdir": rankdir, "details": details, "focus": tree_view.focused(),
            "window": window, "keep_open": keep_open, "keep_drawn": keep_drawn}


def _full_tree_drawn(p) -> bool:
    """Whether the full tree is drawn: at once, or for a tree too large to
    draw whole (cut at a depth; its layout is the page's slowest part) when
    the switch (drawn here) asks for it."""
    nodes = p.tree0.node_count
    return nodes <= MAX_DRAWN_NODES or st.toggle(
        words.full_tree_toggle(nodes, lang(), short=p.present), key="prune_full_drawn",
        bind="query-params", help=words.full_tree_help(nodes, MAX_DRAWN_NODES, lang()))


def trees_at(p, k, pruned, table, collapsed, highlight) -> None:
    """The trees after ``k`` weakest-link steps: ``pruned`` (the pruned
    tree), the full tree with the nodes the steps removed greyed and the
    nodes they collapsed (``collapsed``, ids) marked; ``highlight`` {id:
    colour} (the collapsed nodes and the next weakest link); ``table`` the
    cost-complexity table at ``k``.  Presenter mode folds each tree around
    the next weakest link and the last :data:`FOCUS_COLLAPSED` collapsed
    nodes: drawn with their children in the full tree (what the pruning
    removes is its point), at least drawn (as a stub, perhaps) in the
    pruned tree, which shows them as leaves."""
    if p.present:  # the boxes' height (constant CSS: numbers only)
        st.html("<style>.st-key-tree_box_prune_one, .st-key-tree_box_prune_a, "
                ".st-key-tree_box_prune_b { --dtree-above-tree: "
                f"{pv.CCP_ABOVE_CSS}; }}</style>")
    g = g_of(table)
    weakest = [nid for nid, colour in highlight.items() if colour == NEXT_SPLIT]
    near = weakest + collapsed[-FOCUS_COLLAPSED:]
    caption = st.caption if p.present else st.markdown
    titles = (tr("**The pruned tree**", "**剪枝后的树**"),
              tr("**The full tree, pruned branches greyed out**",
                 "**完整的树（被剪掉的分支为灰色）**"))

    def greyed(window, box):
        draw(*p.greyed(p.seq.keep_mask(k), collapsed=collapsed, g_by_id=g,
                       highlight={nid: NEXT_SPLIT for nid in weakest},
                       **_drawing(p, window, near, ())), box=box)

    def pruned_tree(window, box):
        draw(*p.dot(pruned, g_by_id=g, highlight=highlight,
                    **_drawing(p, window, weakest, collapsed[-FOCUS_COLLAPSED:])), box=box)

    if one_tree():  # the full tree (once drawn), else the pruned one, alone
        if _full_tree_drawn(p):
            caption(titles[1])
            greyed(pv.ONE_TREE_WINDOW, "tree_box_prune_one")
        else:
            caption(titles[0])
            pruned_tree(pv.ONE_TREE_WINDOW, "tree_box_prune_one")
        return
    # until a full tree too large to draw whole is asked for, in presenter
    # mode the pruned tree takes most of the width
    waiting = p.tree0.node_count > MAX_DRAWN_NODES and not st.session_state.get(
        "prune_full_drawn", st.query_params.get("prune_full_drawn") == "true")
    if not (p.tree0.n_leaves <= 8 or p.present):
        first, second = st.container(), st.container()
    else:
        first, second = st.columns([3, 1] if waiting else [1, 1])
    with first:
        caption(titles[0])
        pruned_tree(pv.TWO_TREES_WINDOW if not waiting else
                    (pv.ONE_TREE_WINDOW[0] * 3 / 4, pv.ONE_TREE_WINDOW[1]), "tree_box_prune_a")
    with second:
        caption(titles[1])
        if _full_tree_drawn(p):
            greyed(pv.TWO_TREES_WINDOW, "tree_box_prune_b")
