"""dtree: watch a decision tree learn.

The frame of a multipage Streamlit app: page settings, shared styling and the
navigation.  The pages are in pages/ (data.py: choose and inspect the data;
grow.py: step through the growth); their shared state is in pages/shared.py.
Run it with ``make run`` (or ``streamlit run app.py``).
"""

import streamlit as st

from pages.shared import LANGUAGES, current_table, tr

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

current_table()  # a built-in dataset is loaded before any page runs
st.session_state["_framed"] = True  # see pages.shared.require_frame

with st.sidebar:
    st.segmented_control("Language / 语言", list(LANGUAGES), default="en", key="lang",
                         format_func=LANGUAGES.get, bind="query-params",
                         persist_state="session", required=True)

pages = [
    st.Page("pages/data.py", title=tr("Data", "数据"), icon=":material/table:",
            url_path="data"),
    st.Page("pages/grow.py", title=tr("Grow", "生长"), icon=":material/account_tree:",
            default=True),
    st.Page("pages/compare.py", title=tr("Compare", "比较"), icon=":material/compare:",
            url_path="compare"),
]
st.navigation(pages).run()
