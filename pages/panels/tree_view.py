"""The Grow page's tree view: focus or the whole tree, brief or full boxes,
subtrees folded and opened by clicking their boxes, and zoom and pan keys.

The switches live in the session (and the link: ``tree_view``, ``details``,
``fold``, ``unfold``; pages/state/url_state.py).  Clicks on the drawn tree
reach Python through a script-only component that listens on the page: it
sends the clicked box's DOT name (its index in the tree drawn), which is
checked here against the tree on screen before anything changes.  The same
script zooms and pans the drawing with keys, in the browser alone.
"""

from functools import partial

import streamlit as st

from dtree.views.focus import PRESENTER_WINDOW
from pages.state.session import presenting, step_button, tr

#: The script (constant, no user text).  One listener each for clicks and
#: keys, installed once per page; every mount hands it the newest trigger.
_SCRIPT = r"""
export default function(component) {
  window.dtreeTreeClick = component.setTriggerValue;
  if (window.dtreeTreeInstalled) return;
  window.dtreeTreeInstalled = true;
  const CHART = '.st-key-tree_box [data-testid="stGraphVizChart"]';
  document.addEventListener('click', (event) => {
    const node = event.target.closest && event.target.closest(CHART + ' g.node');
    const title = node && node.querySelector('title');
    if (title) window.dtreeTreeClick('node', title.textContent.trim());
  });
  const view = {zoom: 1, x: 0, y: 0};
  const apply = () => {
    const chart = document.querySelector(CHART);
    if (!chart) return;
    const moved = view.zoom !== 1 || view.x !== 0 || view.y !== 0;
    const want = moved ? `translate(${view.x}px, ${view.y}px) scale(${view.zoom})` : '';
    if (chart.style.transform !== want) {
      chart.style.transformOrigin = 'center top';
      chart.style.transform = want;
    }
    chart.dataset.zoom = String(view.zoom);
  };
  new MutationObserver(apply).observe(document.body, {childList: true, subtree: true});
  const PAN = {ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1]};
  window.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !document.querySelector(CHART)) return;
    const target = event.target;
    if (target && target.closest && target.closest('input, textarea, select, [contenteditable]')) return;
    const key = event.key;
    if (key === '+' || key === '=') view.zoom = Math.min(view.zoom * 1.25, 8);
    else if (key === '-' || key === '_') view.zoom = Math.max(view.zoom / 1.25, 1);
    else if (key === '0' || key === 'w' || key === 'W') Object.assign(view, {zoom: 1, x: 0, y: 0});
    else if (event.shiftKey && PAN[key]) {
      view.x += PAN[key][0] * 120; view.y += PAN[key][1] * 90;
      event.preventDefault(); event.stopImmediatePropagation();
    } else return;
    if (view.zoom === 1) { view.x = 0; view.y = 0; }
    apply();
  }, true);
}
"""
_CLICKS = st.components.v2.component("dtree_tree_clicks", js=_SCRIPT)

#: The session keys of the view (all in the link).
KEYS = ("tree_view", "details", "fold", "unfold")


def focused() -> bool:
    """Whether the tree is folded around the step (presenter mode's default)."""
    return st.session_state.get("tree_view", "focus" if presenting() else "whole") == "focus"


def detailed() -> bool:
    """Whether the boxes show everything (brief in presenter mode by default)."""
    return st.session_state.get("details", "brief" if presenting() else "full") == "full"


def options(share: float = 1.0) -> dict:
    """The tree view's keyword arguments for ``step_dot`` (``share``: the
    part of the window's width the tree has)."""
    state = st.session_state
    width, height = PRESENTER_WINDOW
    return {"focus": focused(), "details": detailed(), "window": (width * share, height),
            "folded": tuple(state.get("fold", ())), "opened": tuple(state.get("unfold", ()))}


def forget_folds_unless(tree_key) -> None:
    """Drop the folds when the tree drawn is another (new data or
    parameters: the node ids name other nodes); the first run keeps a
    link's."""
    state = st.session_state
    if state.get("_folds_of", tree_key) != tree_key:
        state.pop("fold", None)
        state.pop("unfold", None)
    state["_folds_of"] = tree_key


def _flip(key, on, off, now_on):
    st.session_state[key] = off if now_on else on


def view_buttons(bar, compact) -> None:
    """Two switches in a stepping bar: the whole tree or the focus (W), and
    brief or full boxes (D)."""
    whole = not focused()
    step_button(bar, tr("Focus on the step", "聚焦当前步骤") if whole
                else tr("Whole tree", "整棵树"), "whole_tree",
                ":material/center_focus_strong:" if whole else ":material/fit_screen:",
                compact, on_click=_flip, args=("tree_view", "focus", "whole", not whole),
                shortcut="W")
    full = detailed()
    step_button(bar, tr("Brief boxes", "简略结点") if full
                else tr("All details", "完整结点"), "details_switch",
                ":material/short_text:" if full else ":material/notes:", compact,
                on_click=_flip, args=("details", "full", "brief", full), shortcut="D")


def _clicked(fit, step, drawn_folded):
    """(on_node_change) Fold the clicked internal node, or open the clicked
    stub.  The value is the browser's: only a node index of the tree on
    screen is taken."""
    state = st.session_state
    value = (state.get("tree_clicks") or {}).get("node")
    tree = fit.tree_at(step)
    if not (isinstance(value, str) and value.isascii() and value.isdigit()
            and len(value) <= 6 and int(value) < tree.node_count):
        return
    index = int(value)
    if not tree.children_of(index):
        return  # a leaf: nothing to fold
    nid = int(tree.node_ids[index])
    folded, opened = set(state.get("fold", ())), set(state.get("unfold", ()))
    if nid in drawn_folded:
        folded.discard(nid)
        opened.add(nid)
    else:
        opened.discard(nid)
        folded.add(nid)
    state["fold"], state["unfold"] = tuple(sorted(folded)), tuple(sorted(opened))


def listen(fit, step, info) -> None:
    """Mount the click and key script for the tree drawn at ``step``
    (``info``: what ``step_dot`` said, its folds)."""
    _CLICKS(key="tree_clicks",
            on_node_change=partial(_clicked, fit, step, frozenset(info.get("folded", ()))))
