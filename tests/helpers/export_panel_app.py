"""A small Streamlit script around pages/panels/export_panel.py, for its AppTest and
browser tests: pick a fitted tree and a step, and the panel is drawn below.

Run it alone with ``streamlit run tests/helpers/export_panel_app.py`` from the repo
root.
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `streamlit run` puts only tests/ on the path
    sys.path.insert(0, str(ROOT))

from dtree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402
from pages.panels.export_panel import export_panel  # noqa: E402
from tests.helpers.upload_corpus import HOSTILE  # noqa: E402

DATA = ROOT / "data"
TITLES = {"iris": "Iris", "loan": "贷款 (Li Hang 5.1)", "melon": "西瓜 2.0",
          "regression": "Iris petal width", "hostile": '../<b>x</b>/a"b\\c',
          "big": "big"}


@st.cache_resource
def model(name):
    if name == "iris":
        frame = pd.read_csv(DATA / "iris.csv")
        return DecisionTreeClassifier(max_depth=4).fit(frame.drop(columns="species"),
                                                       frame["species"])
    if name == "loan":
        frame = pd.read_csv(DATA / "loan.csv").drop(columns="ID")
        return DecisionTreeClassifier(algorithm="id3").fit(frame.drop(columns="类别"),
                                                           frame["类别"])
    if name == "melon":
        frame = pd.read_csv(DATA / "watermelon2.csv").drop(columns="编号")
        return DecisionTreeClassifier(algorithm="c4.5").fit(frame.drop(columns="好瓜"),
                                                            frame["好瓜"])
    if name == "regression":
        frame = pd.read_csv(DATA / "iris.csv")
        return DecisionTreeRegressor(max_depth=3).fit(
            frame.drop(columns=["species", "petal width (cm)"]), frame["petal width (cm)"])
    if name == "big":  # 399 nodes: over the 255-node caps
        rng = np.random.default_rng(1)
        X = pd.DataFrame(rng.normal(size=(2000, 3)), columns=["a", "b", "c"])
        return DecisionTreeRegressor(max_leaf_nodes=200, growth="best_first").fit(
            X, X["a"] + rng.normal(size=2000))
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(120, 4)), columns=HOSTILE[:4])
    y = np.array(HOSTILE[1:4])[(X.iloc[:, 0] > 0).to_numpy().astype(int)
                                + (X.iloc[:, 1] > 0.5).to_numpy().astype(int)]
    return DecisionTreeClassifier(max_depth=2).fit(X, y)


st.segmented_control("Language / 语言", ["en", "zh"], default="en", key="lang", required=True,
                     bind="query-params")
name = st.selectbox("Tree", list(TITLES), key="demo_data", bind="query-params",
                    on_change=lambda: st.session_state.pop("demo_step", None))
fitted = model(name)
if st.session_state.get("demo_step", len(fitted.steps_)) > len(fitted.steps_) \
        or "demo_step" not in st.session_state:  # starts at the grown tree
    st.session_state["demo_step"] = len(fitted.steps_)
step = st.number_input("Step", 0, len(fitted.steps_), key="demo_step")
export_panel(fitted, step, title=TITLES[name])
