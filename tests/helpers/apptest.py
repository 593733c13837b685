"""The whole app under AppTest: start it on a page, upload a table, read
the tree it draws, and check that a run raised nothing."""

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
DATA, GROW = "pages/data.py", "pages/grow.py"


def start(page=GROW):
    # the second run is the one a browser gets a moment after the first (the
    # first run of a session draws the tree alone)
    at = AppTest.from_file(APP, default_timeout=120).run().run()
    if page != GROW:
        at.switch_page(page).run()
    assert_clean(at)
    return at


def assert_clean(at):
    assert not at.exception, [e.message for e in at.exception]


def dot(at):
    charts = at.get("graphviz_chart")
    assert charts, "no tree drawn"
    return charts[0].proto.spec


def n_nodes(spec):
    return len(re.findall(r"^\d+ \[label=", spec, flags=re.M))


def upload(at, name, data):
    at.switch_page(DATA).run()
    at.button_group(key="source").set_value("Upload a file").run()
    at.file_uploader(key="upload").set_value((name, data, "text/csv")).run()
    assert_clean(at)
    return at
