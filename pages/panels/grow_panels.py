"""The tabs below the Grow page's tree: node inspector, prediction,
importances, decision regions, scores (accuracy or R²), the confusion
matrix, growth orders and export, each computed only while open.

``panels_view(fit, tree, step, ...)`` draws them into the current container;
the open tab is ``panel`` in the session (and the URL), by its label in the
interface language.  The inspector is :mod:`pages.panels.inspector_panel`, the
prediction and importances :mod:`pages.panels.predict_panel`, the growth orders
:mod:`pages.panels.orders_panel`, the export :mod:`pages.panels.export_panel` (imported
when first opened: a quicker first tree).  Session keys here: ``fx``,
``fy`` (the axes of the decision regions).
"""

import numpy as np
import streamlit as st

from dtree.views.vocabulary import text
from dtree.views import explain, narration, nodepics, viz
from pages.panels.inspector_panel import needs_data, node_inspector
from pages.state.session import lang, tr

state = st.session_state


def panels(model):
    """The tabs' labels, (English, Chinese)."""
    score = ("Accuracy", "准确率") if hasattr(model, "classes_") else ("R²", "R²")
    return [("Node inspector", "结点检查"), ("Prediction", "预测"), ("Importances", "特征重要性"),
            ("Decision regions", "决策区域"), score, ("Confusion matrix", "混淆矩阵"),
            ("Growth orders", "生长顺序"),
            ("Export", "导出")]


def panels_view(fit, tree, step, *, imported=False, title="tree"):
    """The tabs for ``fit``'s tree after ``step`` steps (``tree``);
    ``imported``: a tree opened from scikit-learn (no growth orders)."""
    model = fit.model
    labels = [label[lang() == "zh"] for label in panels(model)]
    if state.get("panel") not in labels:  # a tab opened in the other language
        for label in panels(model):
            if state.get("panel") in label:
                state["panel"] = label[lang() == "zh"]
    inspector, predict, importance, regions, accuracy, matrix, orders, export = st.tabs(
        labels, key="panel", on_change="rerun")
    if inspector.open is not False:
        with inspector:
            node_inspector(fit, tree, step)
    if predict.open:
        from pages.panels.predict_panel import prediction_panel
        with predict:
            if not needs_data(fit):
                prediction_panel(fit, step)
    if importance.open:
        from pages.panels.predict_panel import importance_panel
        with importance:
            importance_panel(fit, step)
    if regions.open:
        with regions:
            if not needs_data(fit):
                decision_regions(fit, tree)
    if accuracy.open:
        with accuracy:
            if not needs_data(fit):
                score_panel(fit, step)
    if matrix.open:
        with matrix:
            if not needs_data(fit):
                confusion_panel(fit, step)
    if orders.open:
        from pages.panels.orders_panel import growth_orders_panel
        with orders:
            if imported:
                st.info(text(narration.TEXTS, "orders_imported", lang()), icon=":material/info:")
            else:
                growth_orders_panel()
    if export.open:
        from pages.panels.export_panel import export_panel
        with export:
            export_panel(model, step, title=title)


def decision_regions(fit, tree):
    """The leaves of ``tree`` on the plane of two numeric features."""
    model = fit.model
    names = list(model.feature_names_in_)
    numeric, order = explain.region_features(model)
    if len(numeric) < 2:
        st.info(text(narration.TEXTS, "regions_two_numeric", lang()))
        return
    a, b = st.columns(2)
    fx = a.selectbox(tr("Horizontal axis", "横轴"), numeric, index=numeric.index(order[0]), key="fx",
                     format_func=lambda f: viz.short(names[f], 60))
    rest = [f for f in numeric if f != fx]
    fy = b.selectbox(tr("Vertical axis", "纵轴"), rest,
                     index=rest.index(next(f for f in order if f != fx)), key="fy",
                     format_func=lambda f: viz.short(names[f], 60))
    X = fit.X_train_encoded
    both = ~np.isnan(X[:, fx]) & ~np.isnan(X[:, fy])
    st.plotly_chart(viz.regions_figure(tree, model, fx, fy, explain.typical_row(model, X),
                                       X[both], fit.prep.y_train[both], lang=lang()),
                    key="regions")
    st.caption(narration.regions_caption(model, tree, fx, fy, lang()))


def score_panel(fit, step):
    """The train (and test) score after every step, and at ``step``."""
    train, test = fit.scores
    metric = narration.score_metric(fit.model, lang())
    st.plotly_chart(viz.score_figure(train, test, step, metric, lang=lang()), key="scores")
    st.markdown(narration.score_sentence(train, test, step, metric, len(fit.prep.y_test) > 0,
                                         lang()))


def confusion_panel(fit, step):
    """True against predicted class of the tree at ``step``, train and test
    side by side (a regression tree has its scores instead)."""
    model = fit.model
    if not hasattr(model, "classes_"):
        st.info(tr("A regression tree predicts numbers, not classes: its R² tab scores it.",
                   "回归树预测的是数值而不是类别：请看它的 R² 标签页。"), icon=":material/info:")
        return
    tree, p = fit.tree_at(step), fit.prep
    parts = [("train", fit.X_train_encoded, p.y_train)]
    if len(p.y_test):
        parts.append(("test", fit.X_test_encoded, p.y_test))
    for column, (which, X, y) in zip(st.columns(len(parts)), parts):
        figure, note = fit.view(("confusion", int(step), which, lang()), lambda: (
            nodepics.confusion_view(tree, X, y, model.classes_, which, step, lang())))
        with column:
            st.plotly_chart(figure, key=f"confusion_{which}")
            if note:
                st.caption(note)
    st.caption(tr("Rows: the true class; columns: the class the tree predicts at this step. "
                  "The diagonal holds the rows it gets right.",
                  "行：真实类别；列：决策树在这一步预测的类别。对角线上是预测正确的样本。"))
