"""Step latency and cold start, measured in headless Chromium.

A fresh ``streamlit run`` is started for this module, so that the first page
load is a cold start.  Then a 10,000-row, 3-class table with 6 features is
uploaded, max_depth is set to 4 (a 31-node tree, 15 steps) and "Next step" is
clicked 45 times; each time is from the click to the new SVG on screen,
measured inside the page.  The numbers are printed and written to
tests/browser/artifacts/perf.json (the targets, in docs/app.md, are p50 <=
250 ms and a first tree within 3 s).  Nothing here asserts a time:
on a shared, busy machine any bound is either loose enough to mean nothing
or tight enough to fail at random (a cold start takes several times longer
while other work holds both cores).  The test checks that every measurement was taken.
"""

import json
import os
import statistics
import subprocess
import sys
import time

import pytest

from tests.browser.conftest import (ARTIFACTS, REPO_ROOT, _free_port, _healthy, expect_rerun,
                                    open_app, upload_file, wait_for_app, wait_for_drawn,
                                    wait_for_rerun)
from tests.helpers.bench_table import bench_frame

NODES = '[data-testid="stGraphVizChart"] svg g.node'
NEXT_TO_SVG_MS = """async (expected) => {
  const button = document.querySelector('.st-key-next button');
  const start = performance.now();
  button.click();
  return await new Promise(resolve => {
    const check = () => {
      if (document.querySelectorAll('%s').length === expected) {
        resolve(performance.now() - start);
      } else {
        requestAnimationFrame(check);
      }
    };
    requestAnimationFrame(check);
  });
}""" % NODES
FIRST_TREE_MS = """() => new Promise(resolve => {
  const check = () => {
    if (document.querySelector('%s')) resolve(performance.now());
    else requestAnimationFrame(check);
  };
  check();
})""" % NODES

pytestmark = pytest.mark.slow


def serve(script, log_name):
    """Start ``streamlit run script``; returns (process, url, seconds to healthy)."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    start = time.monotonic()
    with open(ARTIFACTS / log_name, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(script),
             "--server.headless", "true", "--server.address", "127.0.0.1",
             "--server.port", str(port), "--server.fileWatcherType", "none",
             "--browser.gatherUsageStats", "false"],
            cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    while not _healthy(url):
        if proc.poll() is not None or time.monotonic() - start > 60:
            proc.kill()
            pytest.fail(f"streamlit did not start; see {ARTIFACTS / log_name}")
        time.sleep(0.05)
    return proc, url, time.monotonic() - start


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def fresh_server():
    """A new Streamlit process for the app; yields (url, seconds to healthy)."""
    proc, url, seconds = serve(REPO_ROOT / "app.py", "streamlit-perf.log")
    yield url, seconds
    stop(proc)


def first_tree_ms(browser, url):
    """Milliseconds from navigation start to the first tree node on screen."""
    context = browser.new_context(viewport={"width": 1600, "height": 1200})
    page = context.new_page()
    page.goto(url, wait_until="commit")
    value = page.evaluate(FIRST_TREE_MS)
    context.close()
    return value


def step_times(page, rounds, reset):
    times = []
    for _ in range(rounds):
        reset()
        for k in range(1, 16):
            times.append(page.evaluate(NEXT_TO_SVG_MS, 1 + 2 * k))
            wait_for_app(page)
    return sorted(times)


def summary(times):
    return {"p50_ms": round(statistics.median(times)),
            "p90_ms": round(times[int(0.9 * len(times))]), "max_ms": round(times[-1])}


def test_cold_start_and_step_latency(browser, fresh_server, tmp_path, request):
    url, server_start_s = fresh_server
    results = {"server_start_s": round(server_start_s, 2)}
    # the first load is cold (new server process), then two warm ones
    loads = [first_tree_ms(browser, url) for _ in range(3)]
    results["first_tree_cold_ms"] = round(loads[0])
    results["first_tree_warm_ms"] = [round(v) for v in loads[1:]]

    context = browser.new_context(viewport={"width": 1600, "height": 1600})
    page = context.new_page()
    page.set_default_timeout(60_000)
    csv_path = tmp_path / "bench10k.csv"
    bench_frame().to_csv(csv_path, index=False)
    upload_file(page, url + "/data", str(csv_path))
    page.wait_for_function("() => document.body.innerText.includes('bench10k.csv —')")
    wait_for_app(page)
    page.get_by_role("link", name="Grow").first.click()
    wait_for_app(page)
    depth = page.get_by_role("spinbutton", name="max_depth")
    depth.fill("4")
    expect_rerun(page)
    depth.press("Enter")
    wait_for_rerun(page)
    page.locator(".st-key-grow_all button").click()
    page.wait_for_function(f"() => document.querySelectorAll('{NODES}').length === 31")
    wait_for_drawn(page)
    page.screenshot(path=str(ARTIFACTS / "screens" / "grow-31-nodes.png"), full_page=True)

    def reset():
        page.locator(".st-key-reset button").click()
        page.wait_for_function(f"() => document.querySelectorAll('{NODES}').length === 1")
        wait_for_app(page)

    times = step_times(page, 3, reset)
    context.close()
    results["steps"] = len(times)
    results["step"] = summary(times)

    # the same measurements on a bare page, under the same machine load
    proc, base_url, _ = serve(REPO_ROOT / "tests" / "browser" / "baseline_app.py",
                              "streamlit-baseline.log")
    try:
        results["baseline_first_tree_ms"] = round(first_tree_ms(browser, base_url))
        context = browser.new_context(viewport={"width": 1600, "height": 1600})
        page = context.new_page()
        open_app(page, base_url)
        page.wait_for_selector(NODES, state="attached")
        results["baseline_step"] = summary(step_times(page, 1, lambda: None))
        context.close()
    finally:
        stop(proc)
    results["load_average"] = [round(v, 2) for v in os.getloadavg()]
    (ARTIFACTS / "perf.json").write_text(json.dumps(results, indent=2))
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"\nperformance: {json.dumps(results)}")
    assert results["steps"] == 45
    for key in ("first_tree_cold_ms", "baseline_first_tree_ms"):
        assert results[key] > 0
    assert len(results["first_tree_warm_ms"]) == 2
