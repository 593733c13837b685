"""The Grow page's node picture (in the node inspector) and its confusion
matrix tab under AppTest, in English and Chinese: the figures are drawn, with
the page's numbers (the matrix's accuracy is the step's score)."""

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.apptest import APP

WORDS = {"en": ("Confusion matrix", "accuracy", "by", "true class"),
         "zh": ("混淆矩阵", "准确率", "分组的样本", "真实类别")}


def start(lang):
    at = AppTest.from_file(APP, default_timeout=120).run().run()
    if lang == "zh":
        at.session_state["lang"] = "zh"
        at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def charts(at):
    return {c.key: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_inspector_draws_the_node_picture(lang):
    at = start(lang)
    at.button(key="next").click().run()
    assert not at.exception, [e.message for e in at.exception]
    figure = charts(at)["node_picture_0"]
    assert WORDS[lang][2] in figure["layout"]["title"]["text"]
    assert figure["layout"]["barmode"] == "stack"
    assert [s["type"] for s in figure["layout"]["shapes"]] == ["line"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_confusion_matrix_tab(lang):
    at = start(lang)
    for _ in range(2):
        at.button(key="next").click().run()
    label, accuracy, _, true = WORDS[lang]
    assert label in [t.label for t in at.tabs]
    at.session_state["panel"] = label
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    shown = charts(at)
    assert {"confusion_train", "confusion_test"} <= set(shown)
    for key in ("confusion_train", "confusion_test"):
        layout = shown[key]["layout"]
        assert accuracy in layout["title"]["text"] and layout["yaxis"]["title"]["text"] == true
        assert shown[key]["data"][0]["type"] == "heatmap"
    # the accuracy in the title is the Accuracy tab's score at this step
    at.session_state["panel"] = "Accuracy" if lang == "en" else "准确率"
    at.run()
    scores = charts(at)["scores"]["data"]
    train_at_2 = scores[0]["y"]
    if isinstance(train_at_2, dict):  # Plotly packs numbers as base64
        import base64
        train_at_2 = np.frombuffer(base64.b64decode(train_at_2["bdata"]),
                                   dtype=np.dtype(train_at_2["dtype"]))
    assert f"{train_at_2[2]:.3f}" in shown["confusion_train"]["layout"]["title"]["text"]
