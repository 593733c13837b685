"""A bare Streamlit page to compare the app's steps with (``bench/steps.py``):
one "Next step" button and one Graphviz chart of the same 31-node tree
(``step_data.step_frame``, max_depth=4, the app's 75% training share),
nothing else."""

import sys
from pathlib import Path

import streamlit as st

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from dtree import DecisionTreeClassifier, export_graphviz  # noqa: E402
from step_data import step_frame  # noqa: E402


@st.cache_resource
def model():
    frame = step_frame()
    return DecisionTreeClassifier(max_depth=4).fit(frame.iloc[:7500, :6],
                                                   frame["label"][:7500])


def forward():
    st.session_state.k = (st.session_state.get("k", 0) + 1) % 16


st.button("Next step", key="next", on_click=forward)
tree = model().tree_at(st.session_state.get("k", 0))
st.graphviz_chart(export_graphviz(tree, node_ids=True, rounded=False))
