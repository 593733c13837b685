"""A class on one link: load test of one app process.

    make loadtest                                  # the whole run (about 16 minutes)
    .venv/bin/python bench/classroom.py class --sizes 1,10,30
    .venv/bin/python bench/classroom.py cpu --clicks 40 [--no-post-gc] [--no-freeze]
    .venv/bin/python bench/classroom.py uploads --sessions 60 --after 150
    .venv/bin/python bench/classroom.py room --students 100 [--processes 2 --redis]

Starts the app with ``streamlit run`` on a free port of 127.0.0.1 (all
traffic stays on this machine) and simulates students:

* ``class``: N students open the Grow page at once and each clicks "Next
  step" ``--clicks`` times, with a short pause after each new tree.  Up to
  ``--browsers`` of them are real headless Chromium pages (Debian's
  /usr/bin/chromium, through Playwright); the rest are lightweight clients
  that speak Streamlit's websocket protocol (``/_stcore/stream``, BackMsg /
  ForwardMsg protobufs) the way the browser does.  Each click is timed from
  sending it to the arrival of the new tree (the ForwardMsg carrying the
  changed graphviz element; in Chromium: from the button's click event to
  the drawn SVG changing, timed inside the page).  Prints p50/p95/max and
  errors per class size (and the p95 of each kind of student), the largest
  size with p95 ≤ 1 s, the CPU time of the server, of the lightweight
  clients and of Chromium, and the load average before and after.
* ``cpu``: one lightweight student clicks ``--clicks`` times, one after the
  other; the server's CPU time (utime + stime from /proc/<pid>/stat) over
  the clicks, divided by their number, is the CPU cost of a click.
* ``uploads``: ``--sessions`` lightweight clients each upload a different
  20k-row CSV at once (``file_urls_request`` BackMsg, then a PUT to
  ``/_stcore/upload_file/<session>/<file>``, then the uploader's widget state),
  open the Grow page (the tree is fitted), and close.  The server's RSS is
  sampled every 0.5 s: idle baseline, peak, and ``--after`` seconds after the
  last session closed (Streamlit keeps a closed session for 120 s; the app's
  janitor, pages/runtime/memory.py, drops it within 10 s after that).  With
  ``DTREE_MEMDEBUG=<file>`` in the environment the server appends what it
  holds (RSS, caches) to that file every 10 s.

* ``room``: a class vote, in bench/room.py (its docstring says what is
  timed): a presenter in Chromium opens a vote, ``--students`` lightweight
  students join by its link, vote (some change their vote) and follow the
  presenter's next step; one app process, or ``--processes 2`` sharing
  their rooms through a redis-server started here.

Every loop is bounded in count and in time.  ``--server-arg`` passes options
to ``streamlit run`` (e.g. ``--server-arg=--runner.postScriptGC=true``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.web.server.starlette.starlette_app_utils import generate_xsrf_token_string

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "bench" / "artifacts"
CHROMIUM = os.environ.get("DTREE_CHROMIUM") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]
HOST = "127.0.0.1"
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


# ---------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _healthy(url: str) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{url}/_stcore/health", timeout=2) as resp:
            return resp.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def serve(extra_args=(), log_name="classroom-server.log", env=None):
    """``streamlit run app.py`` on a free loopback port; yields (url, pid)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    url = f"http://{HOST}:{port}"
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
           "--server.address", HOST, "--server.port", str(port),
           "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false",
           *extra_args]
    with open(ARTIFACTS / log_name, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    try:
        deadline = time.monotonic() + 60
        while not _healthy(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start; see {ARTIFACTS / log_name}")
            time.sleep(0.25)
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def loadavg() -> str:
    """The 1-, 5- and 15-minute load averages (2 cores; other developers'
    work counts too): recorded next to every figure."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class ClientCPU:
    """CPU time of the clients: this process (the lightweight students and
    Playwright's Python side) plus its descendants but the server (Playwright's
    driver and Chromium), sampled every 0.5 s so that processes which exit
    (a closed page's renderer) keep the CPU seen last."""

    def __init__(self, server_pid):
        # (an int, or several: the app processes and a redis-server)
        self.servers = {server_pid} if isinstance(server_pid, int) else set(server_pid)
        self.seen = {}
        self.task = None

    def _children(self):
        parents = {}
        for d in Path("/proc").iterdir():
            if d.name.isdigit():
                try:
                    fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                parents.setdefault(int(fields[1]), []).append(
                    (int(d.name), (int(fields[11]) + int(fields[12])) / TICK))
        out, stack = {}, [os.getpid()]
        while stack:
            for child, cpu in parents.get(stack.pop(), []):
                if child not in self.servers:
                    out[child] = cpu
                    stack.append(child)
        return out

    def sample(self):
        for pid, cpu in self._children().items():
            self.seen[pid] = max(cpu, self.seen.get(pid, 0.0))

    async def _loop(self):
        while True:
            self.sample()
            await asyncio.sleep(0.5)

    def start(self):
        self.sample()
        self.start_own = sum(os.times()[:2])
        self.start_children = dict(self.seen)
        self.task = asyncio.create_task(self._loop())
        return self

    def stop(self) -> dict:
        self.task.cancel()
        self.sample()
        own = sum(os.times()[:2]) - self.start_own
        children = sum(cpu - self.start_children.get(pid, 0.0)
                       for pid, cpu in self.seen.items())
        return dict(clients_cpu_s=round(own, 1), browsers_cpu_s=round(children, 1))


def rss_mb(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE / 2**20


# ---------------------------------------------------------------------------
# A lightweight student: Streamlit's websocket protocol
# ---------------------------------------------------------------------------

class ProtocolError(Exception):
    pass


class Student:
    """One browser tab's conversation with the server, without a browser.

    Keeps what the frontend keeps: the session id, the page hashes, the
    widgets seen (id, fragment), the last graphviz spec, and the fragments on
    a timer (``auto_rerun``), which it reruns as the browser would."""

    def __init__(self, url: str, name: str = ""):
        self.url, self.name = url, name
        self.ws = None
        self.session_id = None
        self.page_hash = ""
        self.pages = {}  # url_pathname -> page_script_hash
        self.widgets = {}  # user key -> (widget id, element kind, fragment id)
        self.dot = None
        self.dot_seen = asyncio.Event()
        self.finished = asyncio.Event()
        self.running = False
        self.timers = {}  # fragment id -> task
        self.exceptions = []
        self.urls_responses = {}
        self.query = ""
        self.max_step, self.n_clicked = 0, 0  # a fresh session starts at step 0
        self.n_finished = 0  # script runs finished (fragments' included)
        self.full_runs = []  # when each full run started (epoch s, its new_session)
        self.runs = []  # when each run started, a fragment's included
        self.token = generate_xsrf_token_string()
        self._reader = None
        self.trace = [] if os.environ.get("CLASSROOM_TRACE") else None

    async def open(self, query=""):
        ws_url = self.url.replace("http://", "ws://") + "/_stcore/stream"
        self.ws = await websockets.connect(
            ws_url, subprotocols=["streamlit", self.token], max_size=2**27,
            additional_headers={"Cookie": f"_streamlit_xsrf={self.token}",
                                "Origin": self.url}, open_timeout=30, proxy=None)
        self._reader = asyncio.create_task(self._read())
        await self.rerun(query=query)

    async def close(self):
        for task in self.timers.values():
            task.cancel()
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    async def send(self, msg: BackMsg):
        await self.ws.send(msg.SerializeToString())

    async def rerun(self, widgets=(), fragment="", query="", page_hash=None,
                    auto=False):
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = query or self.query
        cs.page_script_hash = self.page_hash if page_hash is None else page_hash
        cs.fragment_id = fragment
        cs.is_auto_rerun = auto
        for w in widgets:
            cs.widget_states.widgets.append(w)
        self.finished.clear()
        self.running = True
        await self.send(msg)

    async def _read(self):
        async for data in self.ws:
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if self.trace is not None:
                self.trace.append((round(time.monotonic(), 3), kind, str(
                    getattr(msg, kind))[:200] if kind != "delta" else
                    msg.delta.new_element.WhichOneof("type")))
            if kind == "new_session":
                ns = msg.new_session
                if not msg.metadata.run.fragment_ids:
                    # a full run starts: the browser drops the fragments'
                    # timers (a fragment's run keeps them)
                    for task in self.timers.values():
                        task.cancel()
                    self.timers.clear()
                    if len(self.full_runs) < 100:
                        self.full_runs.append(time.time())
                self.running = True
                if len(self.runs) < 2_000:
                    self.runs.append(time.time())
                self.session_id = ns.initialize.session_id or self.session_id
                self.page_hash = ns.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                self.query = msg.page_info_changed.query_string  # the browser's URL
            elif kind == "navigation":
                nav = msg.navigation
                self.pages = {p.url_pathname: p.page_script_hash for p in nav.app_pages}
                self.page_hash = nav.page_script_hash or self.page_hash
            elif kind == "delta":
                self._delta(msg.delta)
            elif kind == "auto_rerun":
                fid = msg.auto_rerun.fragment_id
                if fid not in self.timers:
                    self.timers[fid] = asyncio.create_task(
                        self._timer(fid, msg.auto_rerun.interval))
            elif kind == "stop_auto_rerun":
                for fid in msg.stop_auto_rerun.fragment_ids:
                    task = self.timers.pop(fid, None)
                    if task is not None:
                        task.cancel()
            elif kind == "script_finished":
                self.n_finished += 1
                if msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    self.running = False
                    self.finished.set()
            elif kind == "file_urls_response":
                self.urls_responses[msg.file_urls_response.response_id] = \
                    msg.file_urls_response

    def _delta(self, delta):
        if delta.WhichOneof("type") != "new_element":
            return
        el = delta.new_element
        kind = el.WhichOneof("type")
        if kind == "graphviz_chart":
            if el.graphviz_chart.spec != self.dot:
                self.dot = el.graphviz_chart.spec
                self.dot_seen.set()
        elif kind == "exception":
            self.exceptions.append(el.exception.message)
        else:
            inner = getattr(el, kind, None)
            wid = getattr(inner, "id", "") if inner is not None else ""
            if isinstance(wid, str) and wid.startswith("$$ID-"):
                key = wid.rsplit("-", 1)[-1] if "-None" not in wid else wid
                self.widgets[key] = (wid, kind, delta.fragment_id)
                if key == "step" and kind == "slider":
                    self.max_step = int(inner.max)

    async def step(self) -> float:
        """Next step, or back to the root at the last one (as a student would)."""
        at_end = self.n_clicked >= self.max_step
        took = await self.click("reset" if at_end else "next")
        self.n_clicked = 0 if at_end else self.n_clicked + 1
        return took

    async def _timer(self, fid, interval):
        # the browser reruns a fragment with run_every on a timer; bounded
        for _ in range(200):
            await asyncio.sleep(interval)
            if not self.running:
                await self.rerun(fragment=fid, auto=True)

    async def settle(self, timeout=60.0):
        """Wait until no script runs and no fragment timer is pending."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.running and not self.timers and self.finished.is_set():
                await asyncio.sleep(0.05)
                if not self.running and not self.timers:
                    return
            await asyncio.sleep(0.05)
        raise ProtocolError(f"{self.name}: the app did not settle in {timeout:.0f} s")

    async def click(self, key, timeout=30.0) -> float:
        """Press a button; seconds until the new tree arrives."""
        if key not in self.widgets:
            raise ProtocolError(f"{self.name}: no widget {key!r}")
        wid, _, fragment = self.widgets[key]
        from streamlit.proto.WidgetStates_pb2 import WidgetState
        w = WidgetState(id=wid, trigger_value=True)
        self.dot_seen.clear()
        start = time.perf_counter()
        await self.rerun([w], fragment=fragment)
        await asyncio.wait_for(self.dot_seen.wait(), timeout)
        took = time.perf_counter() - start
        await asyncio.wait_for(self.finished.wait(), timeout)
        if self.exceptions:
            raise ProtocolError(f"{self.name}: exception in the app: {self.exceptions[-1]}")
        return took

    async def upload(self, name: str, data: bytes):
        """Choose "Upload a file" on the Data page and upload ``data``."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState
        src_id = self.widgets["source"][0]
        source = WidgetState(id=src_id)
        source.string_array_value.data.append("Upload a file")
        await self.rerun([source])
        await self.settle()
        up_id = self.widgets["upload"][0]
        msg = BackMsg()
        req = msg.file_urls_request
        req.request_id = f"r-{self.name}"
        req.file_names.append(name)
        req.session_id = self.session_id
        await self.send(msg)
        for _ in range(600):
            if req.request_id in self.urls_responses:
                break
            await asyncio.sleep(0.05)
        else:
            raise ProtocolError(f"{self.name}: no file_urls_response")
        urls = self.urls_responses[req.request_id].file_urls[0]
        await asyncio.to_thread(_put_file, self.url + urls.upload_url, name, data,
                                self.token)
        state = WidgetState(id=up_id)
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.file_id, info.name, info.size = urls.file_id, name, len(data)
        info.file_urls.CopyFrom(urls)
        await self.rerun([source, state])
        await self.settle()


def _put_file(url, name, data, token):
    import requests

    with requests.Session() as s:
        s.trust_env = False  # loopback only, never through a proxy
        r = s.put(url, files={"file": (name, data, "text/csv")},
                  headers={"X-Xsrftoken": token},
                  cookies={"_streamlit_xsrf": token}, timeout=60)
        r.raise_for_status()


# ---------------------------------------------------------------------------
# A real student: headless Chromium
# ---------------------------------------------------------------------------

_SETTLED = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelector('[data-testid="stSkeleton"]') === null
    && !!document.querySelector('.st-key-next button')
    && !!document.querySelector('[data-testid="stGraphVizChart"] svg g.node');
}"""
_TREE = """() => { const s = document.querySelector('[data-testid="stGraphVizChart"] svg');
  return s ? s.querySelectorAll('g.node').length + ':' + s.textContent.length : ''; }"""

#: Click a button; resolves with the ms until the tree's SVG changed.
_CLICK = """([key, timeout]) => new Promise((resolve) => {
  const tree = _TREE_JS;
  const before = tree();
  const button = document.querySelector(`.st-key-${key} button`);
  if (!button || button.disabled) { resolve(`no enabled button ${key}`); return; }
  let t0 = 0;
  const done = (result) => { observer.disconnect(); clearTimeout(timer); resolve(result); };
  const observer = new MutationObserver(() => {
    const now = tree();
    if (now !== before && now !== '') done(performance.now() - t0);
  });
  const timer = setTimeout(() => done(`no new tree in ${timeout} ms`), timeout);
  observer.observe(document.body, {childList: true, subtree: true, characterData: true,
                                   attributes: true});
  t0 = performance.now();
  button.click();
})""".replace("_TREE_JS", _TREE)


class BrowserStudent:
    def __init__(self, browser, url, name):
        self.browser, self.url, self.name = browser, url, name
        self.n_clicked = 0

    async def open(self):
        self.context = await self.browser.new_context(viewport={"width": 1400, "height": 1000})
        self.page = await self.context.new_page()
        self.page.set_default_timeout(60_000)
        await self.page.goto(self.url)
        await self.page.wait_for_function(_SETTLED, polling=100)

    async def settle(self, timeout=60.0):
        await self.page.wait_for_function(_SETTLED, polling=100, timeout=timeout * 1000)

    async def step(self) -> float:
        """As Student.step: next, or reset at the last step.  The last step is
        where the app disables "Next step" (the page's own signal; Streamlit
        1.67's slider has no max in the DOM to read, and clicking the
        disabled "First step" at step 0 made every browser click time out)."""
        at_end = await self.page.evaluate(
            "() => { const b = document.querySelector('.st-key-next button');"
            " return !b || b.disabled; }")
        took = await self.click("reset" if at_end else "next")
        self.n_clicked = 0 if at_end else self.n_clicked + 1
        return took

    async def click(self, key, timeout=30.0) -> float:
        """Press a button in the page; seconds from the click event to the
        new tree drawn (an SVG with other nodes or text), timed inside the
        page (performance.now(), a MutationObserver), so that Playwright's
        own round trips and actionability checks (70-180 ms per click on
        this machine) are not counted as the app's."""
        took = await self.page.evaluate(_CLICK, [key, timeout * 1000])
        if not isinstance(took, (int, float)):
            raise ProtocolError(f"{self.name}: {took}")
        await self.settle(timeout)
        if await self.page.query_selector('[data-testid="stException"]'):
            raise ProtocolError(f"{self.name}: exception in the app")
        return took / 1000

    async def close(self):
        await self.context.close()


# ---------------------------------------------------------------------------
# Scenarios
# ---------------------------------------------------------------------------

async def _student_run(student, clicks, think, results, errors, deadline, by_kind=None):
    try:
        await student.open()
        await student.settle()
        await asyncio.sleep(random.uniform(0, think))  # not all in the same millisecond
        for _ in range(clicks):
            if time.monotonic() > deadline:
                errors.append(f"{student.name}: out of time")
                break
            took = await student.step()
            results.append(took)
            if by_kind is not None:
                by_kind.setdefault(type(student).__name__, []).append(took)
            await asyncio.sleep(random.uniform(0.5 * think, 1.5 * think))
    except Exception as exc:  # counted, reported, and the run goes on
        errors.append(f"{student.name}: {type(exc).__name__}: {exc}")
    finally:
        with contextlib.suppress(Exception):
            await student.close()


async def one_class(url, n, clicks, think, browsers, browser=None, limit=240.0,
                    by_kind=None):
    """n students at once; returns (times, errors); ``by_kind``, a dict, gets
    the times per kind of student ("Student", "BrowserStudent")."""
    results, errors = [], []
    deadline = time.monotonic() + limit
    students = []
    for i in range(n):
        if browser is not None and i < browsers:
            students.append(BrowserStudent(browser, url, f"chromium{i}"))
        else:
            students.append(Student(url, f"ws{i}"))
    await asyncio.wait_for(
        asyncio.gather(*(_student_run(s, clicks, think, results, errors, deadline, by_kind)
                         for s in students)), limit + 60)
    return results, errors


def percentile(values, q):
    return float(np.percentile(values, q)) if values else float("nan")


async def run_class(args):
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with serve(args.server_arg) as (url, pid):
        async with contextlib.AsyncExitStack() as stack:
            browser = None
            if args.browsers and os.access(CHROMIUM, os.X_OK):
                from playwright.async_api import async_playwright
                pw = await stack.enter_async_context(async_playwright())
                browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                   args=CHROMIUM_ARGS)
            await one_class(url, 1, 2, args.think, 0)  # warm up: first fit, imports
            for n in sizes:
                load0 = loadavg()
                clients = ClientCPU(pid).start()
                cpu0, t0 = cpu_seconds(pid), time.monotonic()
                by_kind = {}
                times, errors = await one_class(url, n, args.clicks, args.think,
                                                min(args.browsers, n), browser,
                                                by_kind=by_kind)
                cpu = cpu_seconds(pid) - cpu0
                ws, chromium = by_kind.get("Student", []), by_kind.get("BrowserStudent", [])
                row = dict(students=n, browsers=min(args.browsers, n) if browser else 0,
                           clicks=len(times), errors=len(errors),
                           p50=percentile(times, 50), p95=percentile(times, 95),
                           max=max(times) if times else float("nan"),
                           ws_p95=percentile(ws, 95), chromium_clicks=len(chromium),
                           chromium_p50=percentile(chromium, 50),
                           chromium_p95=percentile(chromium, 95),
                           server_cpu_s=round(cpu, 1), **clients.stop(),
                           wall_s=round(time.monotonic() - t0, 1),
                           rss_mb=round(rss_mb(pid)), load_before=load0, load_after=loadavg())
                rows.append(row)
                print(json.dumps(row), flush=True)
                for e in errors[:5]:
                    print("   error:", e, flush=True)
                await asyncio.sleep(2)
            if browser is not None:
                await browser.close()
    print("\n| students (Chromium) | clicks | p50 (s) | p95 (s) | max (s) | errors | "
          "p95 websocket clients | p50 / p95 Chromium | server CPU | clients CPU | "
          "Chromium CPU | wall | load before → after |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r['students']} ({r['browsers']}) | {r['clicks']} | {r['p50']:.2f} | "
              f"{r['p95']:.2f} | {r['max']:.2f} | {r['errors']} | {r['ws_p95']:.2f} | "
              f"{r['chromium_p50']:.2f} / {r['chromium_p95']:.2f} | {r['server_cpu_s']} s | "
              f"{r['clients_cpu_s']} s | {r['browsers_cpu_s']} s | {r['wall_s']} s | "
              f"{r['load_before']} → {r['load_after']} |")
    ok = [r["students"] for r in rows if r["p95"] <= 1.0 and not r["errors"]]
    print(f"\nlargest class with p95 <= 1 s: {max(ok) if ok else 'none'} "
          f"(of sizes {sizes})")
    return rows


async def run_cpu(args):
    extra = list(args.server_arg)
    if args.no_post_gc:
        extra.append("--runner.postScriptGC=false")
    env = {"DTREE_GC_FREEZE": "0"} if args.no_freeze else {}
    with serve(extra, env=env) as (url, pid):
        s = Student(url, "cpu")
        await s.open()
        await s.settle()
        for _ in range(3):  # warm up
            await s.step()
        rss0 = rss_mb(pid)
        times = []
        load0 = loadavg()
        cpu0 = cpu_seconds(pid)
        for _ in range(args.clicks):
            times.append(await s.step())
            await s.settle()
        cpu = cpu_seconds(pid) - cpu0
        await s.close()
        row = dict(clicks=args.clicks, cpu_ms_per_click=round(1000 * cpu / args.clicks, 1),
                   p50=round(percentile(times, 50), 3), rss_before_mb=round(rss0),
                   rss_after_mb=round(rss_mb(pid)), options=extra, env=env,
                   load_before=load0, load_after=loadavg())
        print(json.dumps(row), flush=True)
        return row


def make_csv(i: int, rows=20_000, cols=10) -> bytes:
    rng = np.random.default_rng(1000 + i)
    X = rng.normal(size=(rows, cols)).round(4)
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.5, size=rows) > 0).astype(int)
    buf = io.StringIO()
    buf.write(",".join([f"f{j}" for j in range(cols)] + ["label"]) + "\n")
    np.savetxt(buf, np.column_stack([X, y]), delimiter=",", fmt="%.4f")
    return buf.getvalue().encode()


async def _uploader(url, i, data, errors, done):
    s = Student(url, f"up{i}")
    try:
        await s.open(query="")
        await s.settle()
        data_hash = s.pages.get("data")
        await s.rerun(page_hash=data_hash)
        s.page_hash = data_hash
        await s.settle()
        await s.upload(f"class{i}.csv", data)
        grow = next(h for p, h in s.pages.items() if p not in ("data", "compare", "prune",
                                                                "learn"))
        s.dot_seen.clear()
        await s.rerun(page_hash=grow)
        s.page_hash = grow
        await asyncio.wait_for(s.dot_seen.wait(), 120)
        await s.settle(120)
        if s.exceptions:
            raise ProtocolError(s.exceptions[-1])
        done.append(i)
    except Exception as exc:
        errors.append(f"up{i}: {type(exc).__name__}: {exc}")
    finally:
        with contextlib.suppress(Exception):
            await s.close()


async def run_uploads(args):
    files = [make_csv(i) for i in range(args.sessions)]
    with serve(args.server_arg) as (url, pid):
        warm = Student(url, "warm")  # imports and the first run, as in a lecture
        await warm.open()
        await warm.settle()
        await warm.close()
        await asyncio.sleep(3)
        idle = rss_mb(pid)
        peak = idle
        errors, done = [], []
        sampling = True

        async def sample():
            nonlocal peak
            while sampling:
                peak = max(peak, rss_mb(pid))
                await asyncio.sleep(0.5)

        sampler = asyncio.create_task(sample())
        load0 = loadavg()
        t0 = time.monotonic()
        await asyncio.wait_for(asyncio.gather(*(_uploader(url, i, files[i], errors, done)
                                                for i in range(args.sessions))), 600)
        closed_at = time.monotonic()
        at_close = rss_mb(pid)
        print(json.dumps(dict(sessions=args.sessions, fitted=len(done), errors=len(errors),
                              idle_mb=round(idle), at_close_mb=round(at_close),
                              peak_mb=round(peak), seconds=round(closed_at - t0, 1))),
              flush=True)
        for e in errors[:5]:
            print("   error:", e, flush=True)
        trace = []
        while time.monotonic() - closed_at < args.after:
            await asyncio.sleep(min(10, args.after))
            trace.append((round(time.monotonic() - closed_at), round(rss_mb(pid))))
        sampling = False
        await sampler
        after = rss_mb(pid)
        row = dict(sessions=args.sessions, fitted=len(done), errors=len(errors),
                   idle_mb=round(idle), peak_mb=round(peak), at_close_mb=round(at_close),
                   after_s=args.after, after_mb=round(after),
                   after_over_idle_mb=round(after - idle), trace=trace,
                   load_before=load0, load_after=loadavg())
        print(json.dumps(row), flush=True)
        return row


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["room"]:  # a class vote: bench/room.py, which imports this module
        import room
        return room.main(argv[1:])
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("scenario", choices=["class", "cpu", "uploads", "room", "all"])
    p.add_argument("--sizes", default="1,10,30")
    p.add_argument("--clicks", type=int, default=10)
    p.add_argument("--think", type=float, default=0.6, help="mean pause after a tree (s)")
    p.add_argument("--browsers", type=int, default=2)
    p.add_argument("--sessions", type=int, default=60)
    p.add_argument("--after", type=float, default=150)
    p.add_argument("--no-post-gc", action="store_true")
    p.add_argument("--no-freeze", action="store_true")
    p.add_argument("--server-arg", action="append", default=[])
    args = p.parse_args(argv)
    random.seed(13)
    if args.scenario in ("class", "all"):
        asyncio.run(run_class(args))
    if args.scenario == "cpu":
        asyncio.run(run_cpu(args))
    if args.scenario in ("uploads", "all"):
        asyncio.run(run_uploads(args))


if __name__ == "__main__":
    main()
