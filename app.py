"""dtree: watch a decision tree learn.

The frame of a multipage Streamlit app: page settings, shared styling, the
language switch, presenter mode, the view in the URL and the navigation.
The pages are in pages/ (data.py: choose and inspect the data; grow.py: step
through the growth; compare.py: trees side by side; prune.py: pruning;
learn.py: the theory, live); what they draw is in pages/panels/, the
session's state in pages/state/ and the process-wide caches in pages/runtime/.
Run it with ``make run`` (or ``streamlit run app.py``).
"""

import streamlit as st

from pages.runtime.janitor import freeze_imports_once
from pages.state.session import LANGUAGES, presenting, tr
from pages.panels.room_bar import room_bar
from pages.state.room_session import following, joined, push_view, start_exploring
from pages.state import room_stage
from pages.state.tables_state import current_table
from pages.state.url_state import restore_view_from_url, url_warning, write_view_to_url

st.set_page_config(page_title="dtree: watch a decision tree learn", page_icon="🌳",
                   layout="wide", initial_sidebar_state="auto")  # (collapsed on a phone)

# Constant CSS, no user text.  Streamlit's own CSS shrinks the text inside
# Graphviz SVGs; give the DOT font sizes back so the tree is readable from the
# back of a lecture room, and scroll a wide tree rather than shrink it.
st.html("""<style>
[data-testid='stGraphVizChart'] svg text {
  font-size: revert-layer !important; font-family: revert-layer !important; }
[data-testid='stGraphVizChart'] { text-align: center; max-width: 100%; overflow-x: auto; }
[data-testid='stGraphVizChart'] svg { display: inline-block; }
.st-key-tree_renderer_warmup { display: none; }
/* an icon-only button (presenter mode's stepping bars) keeps its label as its
   name for screen readers: the label is hidden from view only */
[class*='st-key-icon_only'] button [data-testid='stMarkdownContainer'] {
  position: absolute !important; width: 1px; height: 1px; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }
</style>""")

restore_view_from_url()  # a prepared link: its dataset, parameters and view
current_table()  # a built-in dataset is loaded before any page runs
st.session_state["_framed"] = True  # see pages.state.session.require_frame
follow_to = start_exploring()  # a student leaving the stage: the presenter's view

# The language lives in the URL (?lang=zh) and in st.session_state["lang"];
# synced by hand so that a hand-written link with ?lang=zh or ?lang=en works.
state = st.session_state
if state.get("lang") not in LANGUAGES:
    asked = st.query_params.get("lang")
    asked = {label: code for code, label in LANGUAGES.items()}.get(asked, asked)  # ?lang=中文
    state["lang"] = asked if asked in LANGUAGES else "en"
    if asked is not None and asked not in LANGUAGES:  # said by url_warning() below
        state.setdefault("_url_problems", {"data": None, "ignored": []})["ignored"].append(
            "lang")


def _pick_language():
    state["lang"] = state.get("lang_pick") or state["lang"]


state["lang_pick"] = state["lang"]
with st.sidebar:
    st.segmented_control("Language / 语言", list(LANGUAGES), key="lang_pick",
                         format_func=LANGUAGES.get, on_change=_pick_language)
top = st.container(horizontal=True, horizontal_alignment="right", key="presenter_switch")
top.toggle(tr("Presenter mode", "演示模式"), key="present", bind="query-params",
           persist_state="session",
           help=tr("Large type, no sidebar, the tree scaled to the window and the controls "
                   "in one bar, for a projector. Keys on the Grow, Compare and Prune pages: "
                   "→ next step, ← previous step, Home first step, End last step, P play/pause "
                   "(Grow).",
                   "大字号、隐藏侧边栏、决策树缩放到窗口大小、控件排成一行，适合投影。"
                   "生长、比较和剪枝页的快捷键：→ 下一步，← 上一步，"
                   "Home 第一步，End 最后一步，P 播放/暂停（生长页）。"))

# Presenter mode (?present=true): larger type, no sidebar or header, the
# controls in one bar and the tree scaled down to the rest of the window
# (pages/grow.py, compare.py and prune.py put their trees in containers keyed
# tree_box*, their bars in stepbar*).  Constant CSS again, no user text.
if presenting():
    st.html("""<style>
html { font-size: 22px; }
[data-testid='stSidebar'], [data-testid='stSidebarCollapsedControl'],
[data-testid='stExpandSidebarButton'], [data-testid='stHeader'] { display: none !important; }
/* the window's bottom strip is the presenter switch's and the keys legend's:
   the page scrolls above it, so nothing it shows ever passes under them */
[data-testid='stMain'] { max-height: calc(100vh - var(--dtree-strip)); }
:root { --dtree-strip: 1.9rem; }
[data-testid='stMainBlockContainer'] { max-width: 100%; padding: 0.4rem 1rem 0.6rem 1rem; }
[data-testid='stMainBlockContainer'] [data-testid='stVerticalBlock'] { gap: 0.45rem; }
/* the two floating controls are cards in the bottom strip */
.st-key-presenter_switch, [class*='st-key-keys_legend'] { background: #fff;
  border: 1px solid rgba(49, 51, 63, 0.2); border-radius: 0.5rem;
  box-shadow: 0 1px 4px rgba(0, 0, 0, 0.12); }
.st-key-presenter_switch { position: fixed; bottom: 0.1rem; left: 0.6rem; width: auto;
  z-index: 999990; padding: 0 0.4rem; }
.st-key-presenter_switch label p { font-size: 0.55rem; }
[class*='st-key-stepbar'] { row-gap: 0.2rem; position: sticky; top: 0; z-index: 999980;
  background: rgba(255,255,255,0.92); }
[class*='st-key-stepbar'] p { font-size: 0.75rem; }
[class*='st-key-stepbar'] button { min-height: 2rem; padding: 0.1rem 0.5rem; }
[class*='st-key-keys_legend'] { position: fixed; bottom: 0.1rem; right: 0.6rem; width: auto;
  z-index: 999990; padding: 0.1rem 0.4rem; }
[class*='st-key-keys_legend'] p { font-size: 0.55rem; color: rgba(49, 51, 63, 0.75); }
.st-key-narration p { font-size: 0.75rem; line-height: 1.35; }
.st-key-narration { max-height: 2.1rem; overflow-y: auto; }
/* the tree's element as wide as the box and the drawing centred in it
   (Streamlit starts a content-wide element at the left), so that a small
   tree is in the middle too */
[class*='st-key-tree_box'] > [data-testid='stElementContainer'] { width: 100% !important; }
[class*='st-key-tree_box'] [data-testid='stFullScreenFrame'] > div { margin: 0 auto; }
[class*='st-key-tree_box'] [data-testid='stGraphVizChart'] { display: flex;
  justify-content: center; }
[class*='st-key-tree_box'] [data-testid='stGraphVizChart'] svg {
  max-width: 100%; max-height: calc(100vh - var(--dtree-strip) - 1.4rem - var(--dtree-above-tree, 6.8rem));
  width: auto !important; height: auto !important; }
[data-testid='stPlotlyChart'] .gtitle, [data-testid='stPlotlyChart'] .xtitle,
[data-testid='stPlotlyChart'] .ytitle { font-size: 26px !important; }
/* a large screen (1920x1080): everything a third larger, trees up to 1.4x their
   drawn size, still within the window */
@media (min-width: 1600px) and (min-height: 900px) {
  html { font-size: 30px; }
  [class*='st-key-tree_box'] [data-testid='stGraphVizChart'] { zoom: 1.4; }
  [class*='st-key-tree_box'] [data-testid='stGraphVizChart'] svg {
    max-height: calc((100vh - var(--dtree-strip) - 1.4rem
                      - var(--dtree-above-tree, 6.8rem)) / 1.4); }
}
</style>""")

pages = [
    st.Page("pages/data.py", title=tr("Data", "数据"), icon=":material/table:",
            url_path="data"),
    st.Page("pages/grow.py", title=tr("Grow", "生长"), icon=":material/account_tree:",
            default=True),
    st.Page("pages/compare.py", title=tr("Compare", "比较"), icon=":material/compare:",
            url_path="compare"),
    st.Page("pages/prune.py", title=tr("Prune", "剪枝"), icon=":material/content_cut:",
            url_path="prune"),
    st.Page("pages/learn.py", title=tr("Learn", "原理"), icon=":material/school:",
            url_path="learn"),
    st.Page("pages/join.py", title=tr("Join a class", "加入课堂"), icon=":material/groups:",
            url_path="join"),
]
chosen = st.navigation(pages)
if follow_to is not None:  # (the presenter's page, at the presenter's view)
    st.switch_page(next((p for p in pages if p.url_path == follow_to[0]), pages[1]),
                   query_params=follow_to[1])
st.session_state["_page_following"] = following()
if joined():
    room_bar()  # (a follower's page: the presenter's stage, and no page of its own)
# a prepared link that named an unknown dataset or had values that do not
# parse: say so on whatever page it opened (until another page is opened)
warning = url_warning(chosen.url_path)
if warning:
    st.warning(warning, icon=":material/link_off:")
try:
    if not st.session_state["_page_following"]:
        room_stage.begin()  # (a presenter's room: what the page draws for its followers)
        chosen.run()
finally:  # also when a page stops early (st.stop) on a message
    write_view_to_url()
    push_view(chosen.url_path)  # a presenter's room follows its view
    # Once per process, after the first page has imported what it needs:
    # gc.freeze() (see pages/runtime/janitor.py and .streamlit/config.toml
    # [runner] postScriptGC for the measurements).
    freeze_imports_once()
