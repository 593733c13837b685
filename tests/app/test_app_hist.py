"""A large upload starts on the histogram splitter, says so, and can switch."""

import threading

import numpy as np
import pandas as pd

from dtree.tables.choices import HIST_ROWS
from tests.helpers.apptest import DATA, GROW, assert_clean, start, upload
from tests.helpers.call_log import log_calls


def big_csv(rows):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.standard_normal(rows).round(3),
                          "b": rng.integers(0, 50, rows),
                          "c": rng.random(rows).round(4)})
    frame["label"] = np.where(frame["a"] + frame["b"] / 25 > 1, "yes", "no")
    return frame.to_csv(index=False).encode()


def infos(at):
    return " ".join(i.value for i in at.info)


def test_a_large_upload_defaults_to_hist_and_can_switch():
    at = start(DATA)
    upload(at, "big.csv", big_csv(HIST_ROWS + 5_000))
    at.switch_page(GROW).run()
    assert_clean(at)
    assert at.selectbox(key="splitter").value == "hist"
    assert "splitter = hist" in infos(at)
    at.button(key="next").click().run()
    at.session_state["gain_chart"] = True  # the gain curve over the bin edges
    at.run()
    assert_clean(at)
    assert "curve_0" in {c.key for c in at.get("plotly_chart")}
    # the user's choice
    at.selectbox(key="splitter").set_value("best").run()
    assert_clean(at)
    assert "splitter = hist" not in infos(at)
    at.button(key="next").click().run()
    assert_clean(at)
    assert at.selectbox(key="splitter").value == "best"
    # a small table starts on best again
    upload(at, "small.csv", big_csv(2_000))
    at.switch_page(GROW).run()
    assert at.selectbox(key="splitter").value == "best"


def test_a_small_table_keeps_best_and_hist_can_be_chosen():
    at = start()
    assert at.selectbox(key="splitter").value == "best"
    at.selectbox(key="splitter").set_value("hist").run()
    assert_clean(at)
    assert "splitter = hist" not in infos(at)  # (said only for large tables)
    at.button(key="next").click().run()
    assert_clean(at)


def test_the_refusals_speak_chinese():
    import pytest

    from dtree import DecisionTreeClassifier, DecisionTreeRegressor
    from pages.language.terms import message_zh

    for est in (DecisionTreeClassifier(splitter="hist", algorithm="j48"),
                DecisionTreeClassifier(splitter="hist", multiway=True),
                DecisionTreeClassifier(splitter="hist", missing="c4.5"),
                DecisionTreeRegressor(splitter="hist", criterion="absolute_error")):
        with pytest.raises(ValueError) as info:
            est.fit([[0.0], [1.0]], [0, 1])
        text = message_zh(info.value)
        assert text.startswith("这里不能使用 splitter='hist'") and "cannot" not in text, text


def test_a_big_upload_is_read_and_fitted_once_with_its_stages_shown(monkeypatch):
    """A big upload is read in the Data page's run with a progress box
    (read, types, prepare, fit); reruns and page switches read and grow
    nothing again (the Grow page takes the tree the Data page grew)."""
    from dtree.tables import dataset
    from dtree.views import datatext
    from pages.runtime import caches, prefetch

    calls = {"read": 0, "fit": 0}
    read_table, estimator_for = dataset.read_table, caches.estimator_for

    def counted_read(*args, **kwargs):
        calls["read"] += 1
        return read_table(*args, **kwargs)

    def counted_estimator(*args, **kwargs):
        if threading.current_thread().name != "dtree-prefetch":  # (the Prune page's tree)
            calls["fit"] += 1
        return estimator_for(*args, **kwargs)

    monkeypatch.setattr(dataset, "read_table", counted_read)
    monkeypatch.setattr(caches, "estimator_for", counted_estimator)
    monkeypatch.setattr(datatext, "BIG_UPLOAD_BYTES", 100_000)  # (3 MB: a slow test)
    data = big_csv(20_000)
    assert len(data) >= datatext.BIG_UPLOAD_BYTES
    at = start(DATA)
    assert prefetch.idle(120)  # (Iris's work for the Prune page, in the background)
    before = dict(calls)
    upload(at, "big.csv", data)
    assert calls == {"read": before["read"] + 1, "fit": before["fit"] + 1}
    lines = [m.value for m in at.markdown if m.value.startswith("✓ ")]
    assert [line.split()[1] for line in lines] == ["Reading", "Typing", "Preparing", "Growing"]
    at.run()  # a rerun of the Data page: nothing read again, no box
    assert not [m.value for m in at.markdown if m.value.startswith("✓ ")]
    at.switch_page(GROW).run()
    assert_clean(at)
    at.switch_page(DATA).run()
    at.switch_page(GROW).run()
    assert_clean(at)
    assert prefetch.idle(120)
    assert calls == {"read": before["read"] + 1, "fit": before["fit"] + 1}


def test_a_big_upload_is_prepared_while_the_browser_draws_its_page(monkeypatch):
    """The rows are prepared (and the first tree grown) after the page's
    columns, overview and preview are sent, so that the browser draws them
    meanwhile; the early prefetch does not prepare a table too large for it."""
    import streamlit as st

    from dtree.views import datatext
    from pages.runtime import caches

    events = []
    log_calls(monkeypatch, events, caches, "prepare", "prepare")
    log_calls(monkeypatch, events, st, "dataframe", "dataframe")
    monkeypatch.setattr(datatext, "BIG_UPLOAD_BYTES", 100_000)
    at = start(DATA)
    at.button_group(key="source").set_value("Upload a file").run()
    events.clear()
    at.file_uploader(key="upload").set_value(("big.csv", big_csv(70_000), "text/csv")).run()
    assert_clean(at)  # (70,000 rows: more than the prefetch takes)
    assert events.count("prepare") == 1, events  # (the split's, after the preview)
    assert events.index("dataframe") < events.index("prepare"), events
    lines = [m.value for m in at.markdown if m.value.startswith("✓ ")]
    assert [line.split()[1] for line in lines] == ["Reading", "Typing", "Preparing", "Growing"]
    assert at.success, "the split is made"


def test_a_small_upload_is_read_without_a_progress_box():
    at = start(DATA)
    upload(at, "small.csv", big_csv(2_000))
    assert not [m.value for m in at.markdown if m.value.startswith("✓ ")]
    assert any("**In use:** small" in m.value for m in at.markdown)
