"""Stepping through a tree, and the first tree of a fresh server, in headless
Chromium, against a bare page.

    .venv/bin/python bench/bench.py --only steps [--repeat N]

The targets: a step ("Next step" clicked → that step's tree on screen) has
a median within a bare page's step plus 0.1 s, and the first tree of a
freshly started server is on screen within a bare page's first tree plus
2 s.  Measured in one run, on this machine, with Debian's chromium through
Playwright (``tests/browser/conftest.py``'s launch options):

* **first tree, cold**: ``streamlit run`` started afresh and healthy, then a
  new tab; from navigation start to the first node of a tree on screen.
  The app: its first page (Grow, the built-in data).  The bare page:
  ``bench/bare_step_app.py``, one button and one Graphviz chart of the
  31-node tree below, grown by dtree on its first run;
* **first tree, warm**: two more new tabs on the same server, timed alike;
* **step**: the app's Data page given a 10,000-row CSV (six numeric
  columns, three classes: ``step_data.step_frame``), its Grow page with
  max_depth 4 (a full tree of 31 nodes, 15 steps), "Grow all" then
  "Reset", then "Next step" clicked 15 times; each from the click to the
  first animation frame whose tree has the step's 1 + 2k nodes.  The bare
  page's button, clicked 15 times, is timed the same way.

Every interval is timed by the page's own clock (an in-page stopwatch that
clicks, or that starts at navigation, and stops in the first animation
frame showing the result).  Between steps the bench waits for the app's own
``script_finished`` message, never a fixed sleep.  Each repeat
(``--repeat``, capped at 3) starts both servers afresh, the bare page's
first, so that drift affects both alike; the first-tree figures are the
medians of the repeats, the step figures the percentiles of every step
(45 on each page at 3 repeats).  The load average before and after goes to
the artifact ``bench/artifacts/steps.json`` with every figure.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from step_data import step_frame  # noqa: E402
from uploads import ARTIFACTS, ROOT, TIMEOUT_MS, Server, go, new_page  # noqa: E402

from tests.browser.conftest import (CHROMIUM, CHROMIUM_ARGS, expect_rerun,  # noqa: E402
                                    open_app, upload_file, wait_for_app, wait_for_rerun)

BARE_APP = Path(__file__).resolve().parent / "bare_step_app.py"
NODES = '[data-testid="stGraphVizChart"] svg g.node'
STEPS = 15  # a full tree of depth 4: 31 nodes, one split per step
#: Navigation start to the first tree node on screen, in ms by the page's
#: clock (null if none came within the time given).
FIRST_TREE = """(limit) => new Promise(resolve => {
  const check = () => {
    if (document.querySelector('%s')) resolve(performance.now());
    else if (performance.now() > limit) resolve(null);
    else requestAnimationFrame(check);
  };
  check();
})""" % NODES
#: Click "Next step"; ms by the page's clock to the first animation frame
#: whose tree has ``expected`` nodes (null if it did not come in time).
STEP = """([expected, limit]) => {
  const button = document.querySelector('.st-key-next button');
  const start = performance.now();
  button.click();
  return new Promise(resolve => {
    const check = () => {
      if (document.querySelectorAll('%s').length === expected) {
        resolve(performance.now() - start);
      } else if (performance.now() - start > limit) {
        resolve(null);
      } else {
        requestAnimationFrame(check);
      }
    };
    requestAnimationFrame(check);
  });
}""" % NODES


def new_tab(browser):
    """A new context (a new session) with room for the whole 31-node tree."""
    return new_page(browser, height=1600)


def first_tree_s(browser, url: str) -> float:
    """Navigation start to the first tree node on screen, in a new tab."""
    context, page = new_tab(browser)
    page.goto(url, wait_until="commit")
    ms = page.evaluate(FIRST_TREE, TIMEOUT_MS)
    context.close()
    if ms is None:
        raise RuntimeError(f"no tree on {url} within {TIMEOUT_MS / 1000:.0f} s")
    return ms / 1000


def node_count_is(page, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('{NODES}').length === {count}")


def step_s(page, expected: int) -> float:
    """Click "Next step": seconds to ``expected`` nodes on screen, by the
    page's clock; returns once the run it started has finished."""
    expect_rerun(page)
    ms = page.evaluate(STEP, [expected, TIMEOUT_MS])
    if ms is None:
        raise RuntimeError(f"no tree of {expected} nodes within {TIMEOUT_MS / 1000:.0f} s")
    wait_for_rerun(page)
    return ms / 1000


def steps_through(page) -> list[float]:
    """Every step of the 31-node tree, from the root (one node on screen)."""
    return [step_s(page, 1 + 2 * k) for k in range(1, STEPS + 1)]


def bare_steps(browser, url: str) -> list[float]:
    context, page = new_tab(browser)
    open_app(page, url)
    node_count_is(page, 1)
    times = steps_through(page)
    context.close()
    return times


def app_steps(browser, url: str, csv: Path) -> list[float]:
    """The app's Grow page on the uploaded ``csv`` at max_depth 4: every step
    after "Reset" (the full tree grown first, as a lecture would show it)."""
    context, page = new_tab(browser)
    upload_file(page, url + "/data", str(csv))
    page.wait_for_function("(name) => document.body.innerText.includes(name + ' —')",
                           arg=csv.name)
    wait_for_app(page)
    expect_rerun(page)
    go(page, "Grow")
    wait_for_rerun(page)
    depth = page.get_by_role("spinbutton", name="max_depth")
    depth.fill("4")
    expect_rerun(page)
    depth.press("Enter")
    wait_for_rerun(page)
    for key, count in (("grow_all", 1 + 2 * STEPS), ("reset", 1)):
        expect_rerun(page)
        page.locator(f".st-key-{key} button").click()
        node_count_is(page, count)
        wait_for_rerun(page)
    times = steps_through(page)
    page.screenshot(path=str(ARTIFACTS / "steps-31-nodes.png"), full_page=True)
    context.close()
    return times


def measure(browser, script: Path, log: Path, steps) -> dict:
    """A fresh server of ``script``: its start, a cold and two warm first trees,
    then ``steps(browser, url)``."""
    start = time.monotonic()
    server = Server(script, log)
    started = time.monotonic() - start
    try:
        cold, *warm = (first_tree_s(browser, server.url) for _ in range(3))
        return {"server_start_s": started, "cold_first_tree_s": cold,
                "warm_first_tree_s": warm, "steps_s": steps(browser, server.url)}
    finally:
        server.stop()


def percentile(times: list[float], q: float) -> float:
    return float(np.percentile(times, q))


def summary(runs: dict) -> dict:
    out = {}
    for name, rows in runs.items():
        steps = [s for r in rows for s in r["steps_s"]]
        out.update({
            f"{name}_server_start_s": statistics.median(r["server_start_s"] for r in rows),
            f"{name}_cold_first_tree_s": statistics.median(r["cold_first_tree_s"] for r in rows),
            f"{name}_warm_first_tree_s": statistics.median(
                w for r in rows for w in r["warm_first_tree_s"]),
            f"{name}_step_p50_s": percentile(steps, 50),
            f"{name}_step_p90_s": percentile(steps, 90),
            f"{name}_step_max_s": max(steps),
            f"{name}_steps": len(steps),
        })
    return out


def bench_steps(repeat: int = 3) -> dict:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="dtree-bench-steps-"))
    csv = work / "steps10k.csv"
    step_frame().to_csv(csv, index=False)
    results = {"load_average_before": [round(v, 2) for v in os.getloadavg()]}
    runs = {"bare": [], "app": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=CHROMIUM_ARGS)
        try:
            for _ in range(repeat):
                runs["bare"].append(measure(browser, BARE_APP, ARTIFACTS / "steps-bare.log",
                                            bare_steps))
                runs["app"].append(measure(browser, ROOT / "app.py",
                                           ARTIFACTS / "steps-app.log",
                                           lambda b, url: app_steps(b, url, csv)))
                print(json.dumps({k: {f: v for f, v in rows[-1].items() if f != "steps_s"}
                                  for k, rows in runs.items()}), flush=True)
        finally:
            browser.close()
    results["load_average_after"] = [round(v, 2) for v in os.getloadavg()]
    results["runs"] = runs
    results["median"] = {k: round(v, 3) for k, v in summary(runs).items()}
    (ARTIFACTS / "steps.json").write_text(json.dumps(results, indent=2))
    print_table(results)
    return results


def print_table(results: dict) -> None:
    m = results["median"]
    lb, la = results["load_average_before"], results["load_average_after"]
    print(f"\nSteps and first trees in headless Chromium, {len(results['runs']['app'])} "
          f"fresh servers each (load average {lb[0]:.2f} / {lb[1]:.2f} / {lb[2]:.2f} "
          f"before, {la[0]:.2f} / {la[1]:.2f} / {la[2]:.2f} after)\n")
    print("| measurement | bare page | app | app − bare | target |")
    print("|---|---:|---:|---:|---|")

    def row(label, key, target=None, scale=1, unit="s", digits=2):
        bare, app = m[f"bare_{key}"] * scale, m[f"app_{key}"] * scale
        verdict = ""
        if target is not None:
            verdict = (("met" if app - bare <= target * scale else "missed")
                       + f" (≤ bare + {target:g} s)")
        print(f"| {label} | {bare:.{digits}f} {unit} | {app:.{digits}f} {unit} "
              f"| {app - bare:+.{digits}f} {unit} | {verdict} |")

    row("server start (`streamlit run` → healthy), median", "server_start_s")
    row("first tree, cold (fresh server, navigation → first node), median",
        "cold_first_tree_s", 2.0)
    row("first tree, warm (same server, new tab), median", "warm_first_tree_s")
    ms = {"scale": 1000, "unit": "ms", "digits": 0}
    row(f"step p50 (click Next step → its tree drawn; {m['app_steps']} steps)",
        "step_p50_s", 0.1, **ms)
    row("step p90", "step_p90_s", **ms)
    row("step, slowest", "step_max_s", **ms)


if __name__ == "__main__":
    bench_steps(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
