"""Fixtures for end-to-end tests: the real app in headless Chromium.

- ``app_url`` (session): starts ``streamlit run <app>`` on a free local port
  from the repo root (so ``.streamlit/config.toml`` applies), waits for
  ``/_stcore/health`` and yields ``http://127.0.0.1:<port>``. The server log
  goes to ``tests/browser/artifacts/streamlit.log``.
- ``browser`` (session): Playwright's sync Chromium, driving Debian's
  ``/usr/bin/chromium`` (Playwright cannot download its own browser here).
- ``page`` (per test): a fresh browser context and page, 1600x1200 viewport.
  If the test fails, a screenshot is saved to
  ``tests/browser/artifacts/<test>-failed.png``.
- ``app_page`` (per test): ``page`` already opened at the app and settled.
- ``wait_for_app(page)``: waits until the script run has finished and no
  skeleton placeholder is left. Import it with
  ``from tests.browser.conftest import wait_for_app``.

Environment variables:
- ``DTREE_APP``: app script to serve (default: the repo's ``app.py``).
- ``DTREE_CHROMIUM``: browser binary (default: ``/usr/bin/chromium``).
- ``CI``: when set (e.g. ``CI=true``), a missing browser fails the tests
  instead of skipping them.

Every test under this directory gets the ``browser`` marker, so
``pytest -m "not browser"`` runs only the fast tests.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import weakref
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.helpers.installed import running_in_ci

BROWSER_DIR = Path(__file__).resolve().parent
REPO_ROOT = BROWSER_DIR.parents[1]
ARTIFACTS = BROWSER_DIR / "artifacts"
APP_PATH = Path(os.environ.get("DTREE_APP") or REPO_ROOT / "app.py").resolve()
CHROMIUM = os.environ.get("DTREE_CHROMIUM") or "/usr/bin/chromium"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
VIEWPORT = {"width": 1600, "height": 1200}
SERVER_START_TIMEOUT_S = 60
DEFAULT_TIMEOUT_MS = 60_000  # a cap for a starved machine; waits end on the app's signal


def _chromium_problem() -> str | None:
    """Why the browser tests cannot run here, or None if they can."""
    if not os.access(CHROMIUM, os.X_OK):
        return (
            f"{CHROMIUM} not found: install Debian's chromium "
            "(`apt-get install -y chromium`, or `make test` does it)"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -r requirements-test.txt)"
    return None


def _is_browser_test(item: pytest.Item) -> bool:
    return BROWSER_DIR in Path(str(item.path)).resolve().parents


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # This hook sees every collected item, not only this directory's.
    problem = _chromium_problem()
    for item in items:
        if not _is_browser_test(item):
            continue
        item.add_marker(pytest.mark.browser)
        if problem and not running_in_ci():
            item.add_marker(pytest.mark.skip(reason=f"browser test skipped: {problem}"))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    # Remember each phase's report so `page` can screenshot failed tests.
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


# --------------------------------------------------------------------------
# The app server
# --------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(base_url: str) -> bool:
    # Bypass any http(s)_proxy from the environment: this is loopback.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{base_url}/_stcore/health", timeout=2) as resp:
            return resp.status == 200 and resp.read().strip() == b"ok"
    except OSError:
        return False


def _tail(path: Path, n: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return "(no log)"


@contextlib.contextmanager
def serve(script: Path, log_name: str = "streamlit.log", env: dict | None = None
          ) -> Iterator[str]:
    """Run ``streamlit run <script>`` from the repo root on a free port until
    the block ends; yield its base URL once ``/_stcore/health`` answers.  The
    server's log goes to ``artifacts/<log_name>``; ``env`` adds settings to
    its environment."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # one log per test process (make test runs several, see pytest-xdist)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    log_path = ARTIFACTS / (f"{worker}-{log_name}" if worker else log_name)
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.headless", "true",
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            cmd, cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL,
            stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while not _healthy(base_url):
            if proc.poll() is not None:
                pytest.fail(
                    f"streamlit exited with code {proc.returncode} before becoming "
                    f"healthy; log ({log_path}):\n{_tail(log_path)}"
                )
            if time.monotonic() > deadline:
                pytest.fail(
                    f"streamlit not healthy at {base_url} after "
                    f"{SERVER_START_TIMEOUT_S}s; log ({log_path}):\n{_tail(log_path)}"
                )
            time.sleep(0.25)
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """Serve the app with Streamlit for the whole session; yield its base URL."""
    if not APP_PATH.is_file():
        pytest.fail(f"app script not found: {APP_PATH} (set DTREE_APP to use another)")
    with serve(APP_PATH) as base_url:
        yield base_url


# --------------------------------------------------------------------------
# The browser
# --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser():
    """Playwright Chromium (Debian's binary), headless, for the whole session."""
    problem = _chromium_problem()
    if problem:
        # Only reached in CI (elsewhere the tests were skipped at collection).
        pytest.fail(f"browser tests cannot run in CI: {problem}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, request: pytest.FixtureRequest):
    """A fresh context + page per test (so each test is a new Streamlit session)."""
    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    pg.set_default_timeout(DEFAULT_TIMEOUT_MS)
    try:
        yield pg
    finally:
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            try:
                pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}-failed.png"))
            except Exception:  # a failed screenshot must not hide the real failure
                pass
        context.close()


@pytest.fixture
def app_page(page, app_url):
    """`page` opened at the app, with the first script run finished."""
    open_app(page, app_url)
    return page


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

_APP_SETTLED_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app
    && app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelector('[data-testid="stSkeleton"]') === null;
}"""


def wait_for_app(page, timeout: float = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until the current script run has finished and nothing is a skeleton.

    Right after an interaction (click, slider move) Streamlit may not have
    started the rerun yet, so this can return before it. After such an
    action, also wait for the element you expect to change.
    """
    page.wait_for_function(_APP_SETTLED_JS, timeout=timeout)


class _Runs:
    """The app's finished script runs, counted from its own messages: every
    ``script_finished`` ForwardMsg on the page's /_stcore/stream websocket
    (not one that ends a run early for a rerun).  A run so quick that the
    page never shows it running is still counted."""

    def __init__(self):
        self.finished = 0
        self.mark = 0
        self.ws = None

    def on_websocket(self, ws):
        if "/_stcore/stream" not in ws.url:
            return
        self.ws = ws
        ws.on("framereceived", self.on_frame)

    def on_frame(self, payload):
        if _is_finished(payload):
            self.finished += 1


def _is_finished(payload) -> bool:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if isinstance(payload, str):
        return False
    msg = ForwardMsg()
    try:
        msg.ParseFromString(payload)
    except Exception:  # not a ForwardMsg: not ours to count
        return False
    return (msg.WhichOneof("type") == "script_finished"
            and msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN)


_RUNS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _runs(page) -> _Runs:
    """The page's run counter (listening from before the page's websocket opens:
    open_app calls this before it navigates)."""
    runs = _RUNS.get(page)
    if runs is None:
        runs = _RUNS[page] = _Runs()
        page.on("websocket", runs.on_websocket)
    return runs


def expect_rerun(page) -> None:
    """Mark the app's finished runs so far (call it before the action that
    reruns the app, then wait_for_rerun)."""
    runs = _runs(page)
    runs.mark = runs.finished


def wait_for_rerun(page, timeout: float = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until the app has finished a script run since expect_rerun (its
    script_finished message), then until the page is settled.  (wait_for_app
    alone can return before a rerun has begun.)"""
    runs = _runs(page)
    deadline = time.monotonic() + timeout / 1000
    while runs.finished <= runs.mark:
        left = (deadline - time.monotonic()) * 1000
        if runs.ws is None or left <= 0:
            raise AssertionError(f"the app finished no script run in {timeout / 1000:.0f} s"
                                 if runs.ws is not None else "the page has no app websocket")
        # events arrive only inside Playwright calls: this one waits for the message
        runs.ws.wait_for_event("framereceived", predicate=_is_finished, timeout=left)
    wait_for_app(page, timeout=timeout)


_DRAWN_JS = """() => {
  // (the cheap check first: while the script runs, no layout is forced)
  if (!(""" + _APP_SETTLED_JS + """)()) return false;
  const visible = (el) => el.offsetParent !== null;
  const plots = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')].filter(visible);
  const graphs = [...document.querySelectorAll('[data-testid="stGraphVizChart"]')]
    .filter(visible);
  return plots.every((p) => p.querySelector('.main-svg'))
    && graphs.every((g) => g.querySelector('svg g.node'));
}"""


def wait_for_drawn(page, timeout: float = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until the app is settled and every visible chart and tree has
    been drawn, then for the browser to paint twice (for screenshots)."""
    page.wait_for_function(_DRAWN_JS, timeout=timeout)
    page.evaluate("() => new Promise((done) => requestAnimationFrame("
                  "() => requestAnimationFrame(done)))")


def choose_option(page, select, name: str, timeout: float = DEFAULT_TIMEOUT_MS) -> None:
    """Open a selectbox (``select``: its container or combobox) and click the
    option ``name``.

    The list's own appearance is the signal.  A click can land without
    opening it: while a popover around the select is still moving, or when a
    rerun redraws the select just then.  So while no list is open the select
    is clicked again; an open list is never clicked shut."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    option = page.get_by_role("option", name=name).first
    deadline = time.monotonic() + timeout / 1000
    while True:
        if page.get_by_role("listbox").count() == 0:
            select.click(timeout=max(1.0, (deadline - time.monotonic()) * 1000))
        left = (deadline - time.monotonic()) * 1000
        try:
            option.wait_for(state="visible", timeout=max(1.0, min(LIST_POLL_MS, left)))
            break
        except PlaywrightTimeout:
            if time.monotonic() >= deadline:
                raise
    option.click(timeout=max(1.0, (deadline - time.monotonic()) * 1000))


#: how long choose_option waits for a list before it checks that one is open
LIST_POLL_MS = 5_000


def open_app(page, url: str, timeout: float = DEFAULT_TIMEOUT_MS) -> None:
    """Go to ``url`` and wait for the first script run to finish."""
    _runs(page)  # count the app's runs from the new page's first message
    page.goto(url, wait_until="domcontentloaded", timeout=timeout)
    wait_for_app(page, timeout=timeout)


def upload_file(page, data_url: str, path_or_payload, timeout: float = DEFAULT_TIMEOUT_MS,
                option: str = "Upload a file") -> None:
    """Open the Data page (``data_url``), choose "Upload a file" and give the
    uploader ``path_or_payload``; returns once the app has read it (or
    refused it).  ``option``: the source's label in the page's language.

    The uploader's own appearance is the signal that the source changed.  A
    click on the source control can land before the control answers (a
    rerun redraws it just then), so while no uploader is there the option is
    clicked again (it is required: clicking the chosen option changes
    nothing)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    open_app(page, data_url)
    dropzone = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
    deadline = time.monotonic() + timeout / 1000
    while dropzone.count() == 0:
        page.get_by_text(option).click(
            timeout=max(1.0, (deadline - time.monotonic()) * 1000))
        left = (deadline - time.monotonic()) * 1000
        try:
            dropzone.wait_for(state="attached", timeout=max(1.0, min(LIST_POLL_MS, left)))
        except PlaywrightTimeout:
            if time.monotonic() >= deadline:
                raise
    wait_for_app(page, timeout=timeout)
    expect_rerun(page)
    dropzone.set_input_files(path_or_payload)
    wait_for_rerun(page, timeout=timeout)  # the upload was read (or refused) by the app

