"""Headless smoke test of the whole app with Streamlit's AppTest (no browser).

Runs the repo's app.py (or the script named by DTREE_APP) once and checks it
finishes without an exception and shows at least one tree.
"""

import os
from pathlib import Path

from streamlit.testing.v1 import AppTest

REPO_ROOT = Path(__file__).resolve().parents[2]
# AppTest resolves relative paths against this test file, so pass an absolute one.
APP_PATH = Path(os.environ.get("DTREE_APP") or REPO_ROOT / "app.py").resolve()


def test_app_runs_and_shows_a_tree():
    at = AppTest.from_file(str(APP_PATH), default_timeout=60).run()

    assert not at.exception, [e.message for e in at.exception]
    charts = at.get("graphviz_chart")
    assert len(charts) >= 1, "expected at least one st.graphviz_chart"
    assert charts[0].proto.spec.strip(), "the graphviz chart has no DOT source"
