"""A small Streamlit script that drives pages/panels/predict_panel.py the way the
Grow page does (the tree with the sample's path first, then the panels), on
fits built here: Iris (CART), loan.csv (C4.5, categorical), the watermelon
data with missing values (C4.5), diabetes (regression) and a table with
hostile column names.  Used by tests/app/test_app_predict.py (AppTest) and
tests/browser/test_predict_browser.py (served with DTREE_APP).

Query parameters / keys: ``ds`` (dataset), ``step_<ds>``, ``lang`` and the
panel's own (``pred_*``).
"""

import sys
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `streamlit run tests/helpers/predict_app.py` from anywhere
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import streamlit as st  # noqa: E402

from dtree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402
from dtree.views import viz  # noqa: E402
from pages.panels.predict_panel import (importance_panel, path_for_step,  # noqa: E402
                                        prediction_panel)
from pages.runtime.fits import Fit  # noqa: E402
from pages.state.session import LANGUAGES  # noqa: E402

DATA = ROOT / "data"
HOSTILE = ["<b>bold</b>", "a*b_c`d", "$x^2$ [link](http://e.vil)", "#head"]


def _split(X, y, n_test, seed=0):
    order = np.random.default_rng(seed).permutation(len(X))
    test, train = np.sort(order[:n_test]), np.sort(order[n_test:])
    return SimpleNamespace(X_train=X.iloc[train].reset_index(drop=True), y_train=y[train],
                           X_test=X.iloc[test].reset_index(drop=True), y_test=y[test])


def iris():
    from sklearn.datasets import load_iris

    d = load_iris(as_frame=True)
    prep = _split(d.data, np.asarray(d.target_names)[d.target], 30)
    return DecisionTreeClassifier(max_depth=4, random_state=0), prep


def loan():
    frame = pd.read_csv(DATA / "loan.csv").drop(columns="ID")
    X, y = frame.iloc[:, :-1].astype(object), frame.iloc[:, -1].to_numpy()
    test = X.iloc[[0, 4, 9]].copy()
    test.iloc[1, 2] = np.nan  # 有自己的房子 missing: split over the branches
    prep = SimpleNamespace(X_train=X, y_train=y, X_test=test.reset_index(drop=True),
                           y_test=y[[0, 4, 9]])
    return DecisionTreeClassifier(algorithm="c4.5", categorical_features=list(X.columns)), prep


def melon():
    frame = pd.read_csv(DATA / "watermelon2_alpha.csv").drop(columns="编号")
    X, y = frame.iloc[:, :-1].astype(object), frame.iloc[:, -1].to_numpy()
    prep = SimpleNamespace(X_train=X, y_train=y, X_test=X.iloc[:6].reset_index(drop=True),
                           y_test=y[:6])
    return DecisionTreeClassifier(algorithm="c4.5"), prep


def diabetes():
    from sklearn.datasets import load_diabetes

    d = load_diabetes(as_frame=True)
    prep = _split(d.data, d.target.to_numpy(), 40)
    return DecisionTreeRegressor(max_depth=3, random_state=0), prep


def hostile():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    labels = np.array(["<i>setosa</i>", "vers*color*", "<script>v</script>"])[y]
    return (DecisionTreeClassifier(max_depth=3, random_state=0),
            _split(pd.DataFrame(X, columns=HOSTILE), labels, 20))


BUILDERS = {"iris": iris, "loan": loan, "melon": melon, "diabetes": diabetes, "hostile": hostile}


@st.cache_resource
def build(name):
    model, prep = BUILDERS[name]()
    model.fit(prep.X_train, prep.y_train)
    return Fit(model, prep)


def main():
    st.html("""<style>
    [data-testid='stGraphVizChart'] svg text {
      font-size: revert-layer !important; font-family: revert-layer !important; }
    </style>""")
    with st.sidebar:
        st.segmented_control("Language / 语言", list(LANGUAGES), default="en", key="lang",
                             format_func=LANGUAGES.get, bind="query-params", required=True)
        name = st.selectbox("Dataset", list(BUILDERS), key="ds", bind="query-params")
    fit = build(name)
    n = fit.n_steps
    step = st.slider("Step", 0, n, n, key=f"step_{name}", bind="query-params")

    path = path_for_step(fit, step)  # before the panels' widgets, as on the Grow page
    dot, info = viz.step_dot(fit.model, step, path=path)
    st.graphviz_chart(dot, width="content")
    prediction_tab, importance_tab = st.tabs(["Prediction", "Importance"], key="tab")
    with prediction_tab:
        prediction_panel(fit, step)
    with importance_tab:
        importance_panel(fit, step)


if __name__ == "__main__":  # streamlit runs the script as __main__; tests import it
    main()
