"""A fixture that catches the export panel's download buttons: each
button's file name, type and the callable Streamlit would run on a click."""

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager


@pytest.fixture
def files(monkeypatch):
    """{format: (file name, mime type, callable)} of the last run's buttons."""
    caught = {}
    original = MediaFileManager.add_deferred

    def catch(self, data_callable, mimetype, coordinates, file_name=None, *, element_id=""):
        what = element_id.rsplit("-", 1)[-1].removeprefix("exp_")
        caught[what] = (file_name, mimetype, data_callable)
        return original(self, data_callable, mimetype, coordinates, file_name=file_name,
                        element_id=element_id)

    monkeypatch.setattr(MediaFileManager, "add_deferred", catch)
    return caught
