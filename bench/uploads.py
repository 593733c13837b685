"""Big uploads and the Prune page in headless Chromium, against a bare page.

    .venv/bin/python bench/bench.py --only uploads [--repeat N]

The targets: a 500k-row CSV reaches its first tree within a bare
page's time plus 1 s, and the Prune page on a 5k-row upload opens within
1 s of a bare page.  Measured in one run, on this machine, with Debian's
chromium through Playwright (``tests/browser/conftest.py``'s launch options):

* **bare page**: a new tab opens a Streamlit script that only calls
  ``st.write``; from navigation start to its text on screen (the server
  warmed by one load first; the app's server is warmed too, by one visit of
  its Grow, Data and Prune pages on the built-in data);
* **bare upload**: a Streamlit script with one ``st.file_uploader`` that
  reads the same 500k-row CSV with ``pandas.read_csv`` and writes its row
  count; from handing the file to the uploader to that count on screen (the
  least any app pays to receive and parse the file);
* **500k upload → first tree**: the app's Data page, source "Upload a
  file"; from handing a 500k-row CSV (10 numeric columns, a 3-class text
  label, 34 MB) to the uploader to the Data page finished (its preview,
  summary, class balance and split), then a click on "Grow" in the sidebar
  to the first tree's SVG on screen;
* **Prune on a 5k upload**: the same with a 5k-row CSV of that shape, then a
  click on "Prune" in the sidebar to its charts and trees drawn and the run
  finished (and, separately, to the first chart drawn).

Every interval is timed by the page's own clock, as the bare page is: an
in-page stopwatch (:data:`ARM`) starts at the event (the uploader's
"change", the sidebar link's click) and stops in the first animation frame
that shows the result.  The same intervals as this process sees them
(from before Playwright's action to the end of its wait, later than the
frame by the waits' polling and round trips) are reported too, as "seen".  Every wait ends on an element
appearing or on the app's own ``script_finished`` message, never on a fixed
sleep.  Each measurement is
repeated ``--repeat`` times (every app measurement in a new browser tab,
i.e. a new session, so nothing is served from the session; the process
caches are cleared by serving the app afresh for each repeat), and the
median is reported with the load average before and after.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]  # (the app's folder: its .streamlit/config.toml)
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import (_APP_SETTLED_JS, _DRAWN_JS, CHROMIUM,  # noqa: E402
                                    CHROMIUM_ARGS, _free_port, _healthy, expect_rerun, open_app,
                                    wait_for_app, wait_for_rerun)

BARE_PAGE = 'import streamlit as st\nst.write("bare page ready")\n'
BARE_UPLOAD = """import io
import pandas as pd
import streamlit as st
up = st.file_uploader("CSV", key="up")
if up is not None:
    frame = pd.read_csv(io.BytesIO(up.getvalue()))
    st.write(f"read {len(frame):,} rows")
"""
NODES = '[data-testid="stGraphVizChart"] svg g.node'
#: conftest's "every visible chart and tree drawn, the run settled", with at
#: least one visible chart and one visible tree (the Prune page's, not yet
#: a page between two runs).  The conditions below check the run's state
#: first: they are evaluated in every animation frame, and while the script
#: runs that cheap check ends them before any layout is forced or text read.
DRAWN = """() => {
  const visible = (el) => el.offsetParent !== null;
  return (""" + _DRAWN_JS + """)()
    && [...document.querySelectorAll('[data-testid="stPlotlyChart"]')].some(visible)
    && [...document.querySelectorAll('[data-testid="stGraphVizChart"]')].some(visible);
}"""
#: One of the Prune page's own charts drawn (by their keys: the Data page
#: left behind has a chart too, its class balance).
FIRST_CHART = """() => !!document.querySelector(
  '[class*="st-key-prune_"] [data-testid="stPlotlyChart"] .main-svg')"""
TREE_DRAWN = f"() => !!document.querySelector('{NODES}')"
#: The Data page finished with ``name``'s table in use (the same condition as
#: :func:`upload_in_app`'s waits, checked in the page).
DATA_DONE = """() => (""" + _APP_SETTLED_JS + """)()
  && [...document.querySelectorAll('a')].some((a) => a.innerText.includes('Grow the tree'))
  && document.body.innerText.includes(NAME + ' —')"""
#: An in-page stopwatch: from the first ``event`` anywhere in the page (the
#: uploader's "change", a link's "click"; capture phase) to the first
#: animation frame after it in which ``condition`` holds, the way the bare
#: page is timed (its text found in an animation frame, by the page's clock).
ARM = """([event, condition, name]) => {
  const holds = new Function('return (' + condition + ')()');
  const clocks = window.__clocks = window.__clocks || {};
  clocks[name] = {};
  document.addEventListener(event, () => {
    if (clocks[name].start !== undefined) return;
    clocks[name].start = performance.now();
    const tick = () => {
      if (holds()) clocks[name].end = performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, {capture: true});
}"""
TIMEOUT_MS = 180_000


def upload_frame(n: int, seed: int = 0) -> pd.DataFrame:
    """n rows: ten numeric columns (3 decimals) and a text label of 3 classes."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 10))
    score = X[:, 0] + 0.8 * X[:, 1] * X[:, 2] - 0.5 * X[:, 3] + rng.normal(scale=0.7, size=n)
    frame = pd.DataFrame(X.round(3), columns=[f"x{i}" for i in range(10)])
    frame["label"] = np.select([score < -0.6, score < 0.6], ["low", "mid"], "high")
    return frame


class Server:
    """``streamlit run script`` on a free port, as the browser tests start it."""

    def __init__(self, script: Path, log: Path):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(log, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless",
             "true", "--server.address", "127.0.0.1", "--server.port", str(self.port),
             "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        start = time.monotonic()
        while not _healthy(self.url):
            if self.proc.poll() is not None or time.monotonic() - start > 120:
                self.stop()
                raise RuntimeError(f"streamlit did not start; see {log}")
            time.sleep(0.05)

    def cpu_s(self) -> float:
        """The server's CPU time so far (user + system, /proc)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.log.close()


def new_page(browser, height: int = 1200):
    """A new context (a new session) and its page, 1600 wide and ``height`` tall."""
    context = browser.new_context(viewport={"width": 1600, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return context, page


def bare_page_s(browser, url: str) -> float:
    """Navigation start to the bare page's text on screen, in a new tab."""
    context, page = new_page(browser)
    page.goto(url, wait_until="commit")
    ms = page.evaluate("""() => new Promise(resolve => {
      const check = () => {
        if (document.body && document.body.innerText.includes('bare page ready'))
          resolve(performance.now());
        else requestAnimationFrame(check);
      };
      check();
    })""")
    context.close()
    return ms / 1000


def arm(page, event: str, condition: str, name: str) -> None:
    """Start the in-page stopwatch ``name`` (:data:`ARM`)."""
    page.evaluate(ARM, [event, condition, name])


def clock(page, name: str) -> float:
    """Seconds on the in-page stopwatch ``name``, once its condition held."""
    took = page.evaluate("""(name) => {
      const c = (window.__clocks || {})[name];
      return c && c.end !== undefined ? (c.end - c.start) / 1000 : null;
    }""", name)
    if took is None:
        raise RuntimeError(f"the in-page stopwatch {name!r} did not stop")
    return took


def bare_upload_s(browser, url: str, csv: Path, rows: int) -> tuple[float, float]:
    """Handing the file to a bare uploader to its row count on screen: by the
    page's clock (its "change" event to the first frame with the count), and
    as seen from here."""
    context, page = new_page(browser)
    open_app(page, url)
    text = json.dumps(f"read {rows:,} rows")
    arm(page, "change", f"() => document.body.innerText.includes({text})", "bare_upload")
    start = time.monotonic()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(csv))
    page.get_by_text(f"read {rows:,} rows").wait_for()
    took = time.monotonic() - start
    in_page = clock(page, "bare_upload")
    context.close()
    return in_page, took


def upload_in_app(page, url: str, csv: Path) -> tuple[float, float]:
    """Open the Data page, choose "Upload a file", hand it ``csv``; seconds from
    the file handed over to the Data page's run finished with the table read:
    by the page's clock, and as seen from here."""
    open_app(page, url + "/data")
    expect_rerun(page)
    page.get_by_text("Upload a file").click()
    wait_for_rerun(page)
    arm(page, "change", DATA_DONE.replace("NAME", json.dumps(csv.name)), "data_page")
    start = time.monotonic()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(csv))
    page.wait_for_function("(name) => document.body.innerText.includes(name + ' —')",
                           arg=csv.name)
    page.get_by_role("link", name="Grow the tree").wait_for()  # the split is made
    wait_for_app(page)
    took = time.monotonic() - start
    return clock(page, "data_page"), took


def go(page, name: str) -> float:
    """Click the sidebar's link to a page; the time of the click."""
    link = page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=name)
    start = time.monotonic()
    link.click()
    return start


def first_tree(browser, server: Server, csv: Path) -> dict:
    context, page = new_page(browser)
    cpu = server.cpu_s()
    read, read_seen = upload_in_app(page, server.url, csv)
    cpu_read = server.cpu_s()
    arm(page, "click", TREE_DRAWN, "grow")
    start = go(page, "Grow")
    page.wait_for_selector(NODES, state="attached")
    grow_seen = time.monotonic() - start
    wait_for_app(page)
    settled = time.monotonic() - start
    grow = clock(page, "grow")
    cpu_grow = server.cpu_s()
    context.close()
    return {"data_page_s": read, "grow_first_tree_s": grow, "total_s": read + grow,
            "seen_data_page_s": read_seen, "seen_grow_first_tree_s": grow_seen,
            "seen_total_s": read_seen + grow_seen,
            "grow_settled_s": settled, "server_cpu_data_page_s": cpu_read - cpu,
            "server_cpu_grow_s": cpu_grow - cpu_read}


def prune_open(browser, server: Server, csv: Path) -> dict:
    context, page = new_page(browser)
    read, _ = upload_in_app(page, server.url, csv)
    cpu = server.cpu_s()
    arm(page, "click", FIRST_CHART, "prune_chart")
    arm(page, "click", DRAWN, "prune_drawn")
    start = go(page, "Prune")
    page.wait_for_function(FIRST_CHART)
    chart_seen = time.monotonic() - start
    page.wait_for_function(DRAWN)
    drawn_seen = time.monotonic() - start
    chart, drawn = clock(page, "prune_chart"), clock(page, "prune_drawn")
    cpu_prune = server.cpu_s() - cpu
    context.close()
    return {"data_page_s": read, "prune_first_chart_s": chart, "prune_drawn_s": drawn,
            "seen_prune_first_chart_s": chart_seen, "seen_prune_drawn_s": drawn_seen,
            "server_cpu_prune_s": cpu_prune}


def median(rows: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def bench_uploads(repeat: int = 3) -> dict:
    from playwright.sync_api import sync_playwright

    out_dir = ARTIFACTS
    out_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="dtree-bench-uploads-"))
    big, small = work / "rows500k.csv", work / "rows5k.csv"
    upload_frame(500_000).to_csv(big, index=False)
    upload_frame(5_000, seed=1).to_csv(small, index=False)
    (work / "bare_page.py").write_text(BARE_PAGE)
    (work / "bare_upload.py").write_text(BARE_UPLOAD)
    load_before = os.getloadavg()
    results = {"load_average_before": [round(v, 2) for v in load_before],
               "csv_mb": {"500k": round(big.stat().st_size / 2**20, 1),
                          "5k": round(small.stat().st_size / 2**20, 2)}}
    runs = {"bare_page": [], "bare_upload": [], "first_tree": [], "prune": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=CHROMIUM_ARGS)
        try:
            for _ in range(repeat):
                # alternate the bare pages and the app, so drift affects all alike
                bare = Server(work / "bare_page.py", out_dir / "uploads-bare.log")
                try:
                    bare_page_s(browser, bare.url)  # (warms the server, as the app is)
                    runs["bare_page"].append({"s": bare_page_s(browser, bare.url)})
                finally:
                    bare.stop()
                bare = Server(work / "bare_upload.py", out_dir / "uploads-bare-upload.log")
                try:
                    in_page, seen = bare_upload_s(browser, bare.url, big, 500_000)
                    runs["bare_upload"].append({"s": in_page, "seen_s": seen})
                finally:
                    bare.stop()
                app = Server(ROOT / "app.py", out_dir / "uploads-app.log")
                try:
                    warm = open_and_close(browser, app.url)  # imports, pages compiled
                    runs["first_tree"].append({**first_tree(browser, app, big),
                                               "app_first_load_s": warm})
                    runs["prune"].append(prune_open(browser, app, small))
                finally:
                    app.stop()
                print(json.dumps({k: v[-1] for k, v in runs.items()}), flush=True)
        finally:
            browser.close()
    results["load_average_after"] = [round(v, 2) for v in os.getloadavg()]
    results["runs"] = runs
    bare_s = median(runs["bare_page"], "s")
    summary = {
        "bare_page_s": bare_s,
        "bare_upload_500k_s": median(runs["bare_upload"], "s"),
        "upload_500k_data_page_s": median(runs["first_tree"], "data_page_s"),
        "upload_500k_grow_first_tree_s": median(runs["first_tree"], "grow_first_tree_s"),
        "upload_500k_first_tree_s": median(runs["first_tree"], "total_s"),
        "prune_5k_first_chart_s": median(runs["prune"], "prune_first_chart_s"),
        "prune_5k_drawn_s": median(runs["prune"], "prune_drawn_s"),
        "server_cpu_500k_data_page_s": median(runs["first_tree"], "server_cpu_data_page_s"),
        "server_cpu_500k_grow_s": median(runs["first_tree"], "server_cpu_grow_s"),
        "server_cpu_prune_5k_s": median(runs["prune"], "server_cpu_prune_s"),
        # the same intervals as seen from this process (Playwright's waits)
        "seen_bare_upload_500k_s": median(runs["bare_upload"], "seen_s"),
        "seen_upload_500k_first_tree_s": median(runs["first_tree"], "seen_total_s"),
        "seen_upload_500k_grow_first_tree_s": median(runs["first_tree"],
                                                     "seen_grow_first_tree_s"),
        "seen_prune_5k_drawn_s": median(runs["prune"], "seen_prune_drawn_s"),
    }
    results["median"] = {k: round(v, 2) for k, v in summary.items()}
    (out_dir / "uploads.json").write_text(json.dumps(results, indent=2))
    print_table(results)
    return results


def open_and_close(browser, url: str) -> float:
    """Open the app's Grow, Data and Prune pages once on the built-in data, in
    their own tab: a server that has served a page before (its imports, the
    pages' compiled scripts, Plotly).  Seconds to the first page."""
    context, page = new_page(browser)
    start = time.monotonic()
    open_app(page, url)
    took = time.monotonic() - start
    for name in ("Data", "Prune"):
        expect_rerun(page)
        go(page, name)
        wait_for_rerun(page)
    context.close()
    return took


def print_table(results: dict) -> None:
    m = results["median"]
    bare = m["bare_page_s"]
    lb, la = results["load_average_before"], results["load_average_after"]
    n = len(results["runs"]["bare_page"])
    print(f"\nBig uploads and the Prune page in headless Chromium, median of {n} "
          f"(load average {lb[0]:.2f} / {lb[1]:.2f} / {lb[2]:.2f} before, "
          f"{la[0]:.2f} / {la[1]:.2f} / {la[2]:.2f} after)\n")
    print("| measurement | time | − bare page | ÷ bare page | target |")
    print("|---|---:|---:|---:|---|")

    def row(label, value, target=None):
        verdict = ""
        if target is not None:
            verdict = ("met" if value - bare <= target else "missed") + \
                f" (≤ bare + {target:g} s)"
        print(f"| {label} | {value:.2f} s | {value - bare:+.2f} s | {value / bare:.2f} | "
              f"{verdict} |")

    print(f"| bare page: navigation → text drawn | {bare:.2f} s | | 1.00 | |")
    row("bare upload page: 500k-row CSV → pandas → row count drawn",
        m["bare_upload_500k_s"])
    row("app: 500k-row CSV → Data page finished", m["upload_500k_data_page_s"])
    row("app: click Grow → first tree drawn", m["upload_500k_grow_first_tree_s"])
    row("app: 500k-row CSV → first tree (sum of the two)", m["upload_500k_first_tree_s"], 1.0)
    row("app: 5k upload, click Prune → first chart drawn", m["prune_5k_first_chart_s"])
    row("app: 5k upload, click Prune → all charts and trees drawn", m["prune_5k_drawn_s"], 1.0)
    print(f"\nThe app's times are taken by the page's own clock, as the bare page's "
          f"is: from the event (the file's \"change\", the link's click) to the first "
          f"animation frame that shows the result.  Seen from this process (Playwright's "
          f"waits, which end later by their polling and round trips): bare upload "
          f"{m['seen_bare_upload_500k_s']:.2f} s; 500k-row CSV → first tree "
          f"{m['seen_upload_500k_first_tree_s']:.2f} s (click Grow → first tree "
          f"{m['seen_upload_500k_grow_first_tree_s']:.2f} s); 5k upload, click Prune → all "
          f"drawn {m['seen_prune_5k_drawn_s']:.2f} s.")
    print(f"\nThe app server's CPU time (median): 500k upload's Data page "
          f"{m['server_cpu_500k_data_page_s']:.2f} s, its Grow page "
          f"{m['server_cpu_500k_grow_s']:.2f} s; the Prune page on the 5k upload "
          f"{m['server_cpu_prune_5k_s']:.2f} s.")


if __name__ == "__main__":
    bench_uploads(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
