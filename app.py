"""dtree: watch a decision tree learn.

The frame of a multipage Streamlit app: page settings, shared styling, the
language switch, presenter mode, the view in the URL and the navigation.
The pages are in pages/ (data.py: choose and inspect the data; grow.py: step
through the growth; compare.py: trees side by side; prune.py: pruning;
learn.py: the theory, live); their shared state is in pages/shared.py.
Run it with ``make run`` (or ``streamlit run app.py``).
"""

import streamlit as st

from pages.memory import freeze_imports_once
from pages.shared import (LANGUAGES, current_table, presenting, restore_view_from_url, tr,
                          write_view_to_url)

st.set_page_config(page_title="dtree: watch a decision tree learn", page_icon="🌳",
                   layout="wide", initial_sidebar_state="expanded")

# Constant CSS, no user text.  Streamlit's own CSS shrinks the text inside
# Graphviz SVGs; give the DOT font sizes back so the tree is readable from the
# back of a lecture room, and scroll a wide tree rather than shrink it.
st.html("""<style>
[data-testid='stGraphVizChart'] svg text {
  font-size: revert-layer !important; font-family: revert-layer !important; }
[data-testid='stGraphVizChart'] { text-align: center; max-width: 100%; overflow-x: auto; }
[data-testid='stGraphVizChart'] svg { display: inline-block; }
</style>""")

# the URL of a page opened before the frame ran (see pages.shared.require_frame)
for name, values in st.session_state.pop("_wanted_query", {}).items():
    st.query_params[name] = values if len(values) > 1 else values[0]
restore_view_from_url()  # a prepared link: its dataset, parameters and view
current_table()  # a built-in dataset is loaded before any page runs
st.session_state["_framed"] = True  # see pages.shared.require_frame

# The language lives in the URL (?lang=zh) and in st.session_state["lang"];
# synced by hand so that a hand-written link with ?lang=zh or ?lang=en works.
state = st.session_state
if state.get("lang") not in LANGUAGES:
    asked = st.query_params.get("lang")
    asked = {label: code for code, label in LANGUAGES.items()}.get(asked, asked)  # ?lang=中文
    state["lang"] = asked if asked in LANGUAGES else "en"


def _pick_language():
    state["lang"] = state.get("lang_pick") or state["lang"]


state["lang_pick"] = state["lang"]
with st.sidebar:
    st.segmented_control("Language / 语言", list(LANGUAGES), key="lang_pick",
                         format_func=LANGUAGES.get, on_change=_pick_language)
top = st.container(horizontal=True, horizontal_alignment="right")
top.toggle(tr("Presenter mode", "演示模式"), key="present", bind="query-params",
           persist_state="session",
           help=tr("Large type, no sidebar and a bigger tree, for a projector. Keys on the "
                   "Grow page: → next step, ← previous step, P play/pause, Home reset, "
                   "End grow all.",
                   "大字号、隐藏侧边栏、放大决策树，适合投影。生长页快捷键：→ 下一步，"
                   "← 上一步，P 播放/暂停，Home 重置，End 全部生长。"))

# Presenter mode (?present=true): larger type, no sidebar, a bigger tree.
# Constant CSS again; the toggle itself sits at the top of every page.
if presenting():
    st.html("""<style>
html { font-size: 24px; }
[data-testid='stSidebar'], [data-testid='stSidebarCollapsedControl'],
[data-testid='stExpandSidebarButton'] { display: none !important; }
[data-testid='stMainBlockContainer'] { max-width: 100%; }
[data-testid='stPlotlyChart'] .gtitle, [data-testid='stPlotlyChart'] .xtitle,
[data-testid='stPlotlyChart'] .ytitle { font-size: 26px !important; }
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
]
# a page opened before the frame ran (see pages.shared.require_frame)
wanted = st.session_state.pop("_wanted", None)
chosen = st.navigation(pages)
if wanted and wanted[6:-3] != chosen.url_path and \
        any(p.url_path == wanted[6:-3] for p in pages):
    st.switch_page(wanted)
try:
    chosen.run()
finally:  # also when a page stops early (st.stop) on a message
    write_view_to_url()
    # Once per process, after the first page has imported what it needs:
    # gc.freeze() (see pages/memory.py and .streamlit/config.toml
    # [runner] postScriptGC for the measurements).
    freeze_imports_once()
