"""dtree: watch a decision tree learn.

A first, single page: pick a built-in dataset and a criterion, then step
through the growth one split at a time.  The full multipage app (data upload,
node inspector, decision regions, pruning, comparison) builds on this.
"""

from pathlib import Path

import pandas as pd
import streamlit as st

from dtree import DecisionTreeClassifier, export_graphviz

DATA = Path(__file__).parent / "data"
DATASETS = {"Iris": ("iris.csv", "species"), "Wine": ("wine.csv", "class")}
CRITERIA = {
    "Gini index": "gini",
    "Entropy (information gain)": "entropy",
    "Gain ratio (C4.5)": "gain_ratio",
    "Misclassification rate": "misclassification",
}
MARKDOWN_SPECIAL = set("\\`*_{}[]()#+-.!|<>~$")


def md(text):
    """Escape user text for Streamlit Markdown."""
    return "".join("\\" + ch if ch in MARKDOWN_SPECIAL else ch for ch in str(text))


GROWTH = {"Depth-first": "depth_first", "Best-first": "best_first",
          "Breadth-first": "breadth_first"}


@st.cache_data(show_spinner=False)
def load(name):
    file, target = DATASETS[name]
    frame = pd.read_csv(DATA / file)
    return frame.drop(columns=[target]), frame[target]


@st.cache_resource(show_spinner="Growing the tree…")
def grow(name, criterion, growth, max_depth):
    X, y = load(name)
    return DecisionTreeClassifier(criterion=criterion, growth=growth,
                                  max_depth=max_depth).fit(X, y)


st.set_page_config(page_title="dtree: watch a decision tree learn", layout="wide")
st.title("Watch a decision tree learn")

with st.sidebar:
    dataset = st.selectbox("Dataset", list(DATASETS), key="dataset")
    criterion_label = st.selectbox("Criterion", list(CRITERIA), key="criterion")
    growth_label = st.selectbox("Growth order", list(GROWTH), key="growth")
    max_depth = st.slider("max_depth", 1, 8, 4, key="max_depth")

model = grow(dataset, CRITERIA[criterion_label], GROWTH[growth_label], max_depth)
n_steps = len(model.steps_)
step = st.slider("Step (splits made so far)", 0, n_steps, min(1, n_steps), key="step")
tree = model.tree_at(step)

highlight, lines = {}, {}
if step:
    done = model.steps_[step - 1]
    highlight[int(list(tree.node_ids).index(done.node))] = "#D55E00"
    lines[int(list(tree.node_ids).index(done.node))] = [f"gain = {done.gain:.3f}"]
if step < n_steps:
    upcoming = model.steps_[step]
    highlight[int(list(tree.node_ids).index(upcoming.node))] = "#0072B2"

left, right = st.columns([3, 2])
with left:
    dot = export_graphviz(tree, feature_names=list(model.feature_names_in_),
                          class_names=[str(c) for c in model.classes_],
                          impurity_name=model.criterion if model.criterion != "gain_ratio"
                          else "entropy",
                          node_ids=True, highlight=highlight, label_lines=lines)
    st.graphviz_chart(dot, width="stretch")
    st.caption("Orange border: the node split in this step. Blue border: the next node to split.")
with right:
    if step:
        done = model.steps_[step - 1]
        st.subheader(f"Step {step}: node {done.node}")
        st.markdown(f"Split on **{md(done.feature_name)}** ≤ {done.threshold:.4g}; "
                 f"gain {done.gain:.4f}, improvement {done.improvement:.4f}.")
        table = done.candidates[["feature", "threshold", "gain", "gain_ratio",
                                 "impurity_left", "impurity_right", "n_left", "n_right"]]
        st.dataframe(table, hide_index=True, width="stretch")
    else:
        st.subheader("The root, before any split")
        st.write(f"{model.tree_.n_node_samples[0]} samples, "
                 f"impurity {model.tree_.impurity[0]:.4f}. Move the slider to grow the tree.")
