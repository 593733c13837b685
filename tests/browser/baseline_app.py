"""A bare Streamlit page for comparison with the app's step latency: one
button and one Graphviz chart of the same 31-node tree (the benchmark table
of test_perf_browser.py, max_depth=4), nothing else."""

import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dtree import DecisionTreeClassifier, export_graphviz  # noqa: E402
from tests.helpers.bench_table import bench_frame  # noqa: E402


@st.cache_resource
def model():
    frame = bench_frame()
    return DecisionTreeClassifier(max_depth=4).fit(frame.iloc[:7500, :6],
                                                   frame["label"][:7500])


def forward():
    st.session_state.k = (st.session_state.get("k", 0) + 1) % 16


st.button("Next step", key="next", on_click=forward)
tree = model().tree_at(st.session_state.get("k", 0))
st.graphviz_chart(export_graphviz(tree, node_ids=True, rounded=False))
