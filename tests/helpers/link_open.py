"""A new AppTest session opened on a link, for the tests of links."""

from urllib.parse import parse_qs, urlsplit

from streamlit.testing.v1 import AppTest

from tests.helpers.apptest import APP


def opened(url, runs=1, then_page=False):
    """A new session opened on ``url`` (relative to http://localhost:8501/).
    A page's link runs that page (through the frame: pages.state.session.require_frame);
    with ``then_page`` the frame's home page runs first and the page after it,
    which is how widgets bound to the URL read it under AppTest."""
    parts = urlsplit(url)
    at = AppTest.from_file(APP, default_timeout=120)
    for key, values in parse_qs(parts.query).items():
        at.query_params[key] = values[0]
    page = parts.path.strip("/")
    if page and not then_page:
        at.switch_page(f"pages/{page}.py")
    for _ in range(runs):
        at.run()
    if page and then_page:
        assert not at.warning
        at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at
