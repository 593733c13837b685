"""docs/benchmarks.md: the method, the machine and one table of targets.

``bench.py`` hands :func:`measurements` what its tables measured (see the
``results`` dict it builds); :func:`render` turns the measurements into the
Markdown page, with every target of :data:`TARGETS` as one row and a target
that was not measured in this run marked so.  Nothing here times anything,
so the page can be tested on made-up results.
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass
from importlib import metadata


@dataclass(frozen=True)
class Target:
    key: str
    what: str  # what is measured
    reference: str  # against what, in the same run
    limit: float  # met when the measured value is at most this
    unit: str  # "×" (a ratio), "points" (accuracy lost) or "s" (seconds over the reference)


TARGETS = [
    Target("hist_fit", "`splitter=\"hist\"` fit, 1M × 10, max_depth=8, shapes A and B",
           "LightGBM, one tree, one thread, its binning included", 1.0, "×"),
    Target("hist_accuracy", "`splitter=\"hist\"` test accuracy lost, shape A",
           "the exact splitter, 200k held-out rows", 0.5, "points"),
    Target("exact_memory", "peak memory of one exact fit, 1M × 10, max_depth=8, shape A",
           "scikit-learn, the same fit", 2.0, "×"),
    Target("absolute_error_numba",
           "`absolute_error`, 20k × 10, unlimited depth (numba), shapes A and B",
           "scikit-learn, the same tree", 2.0, "×"),
    Target("absolute_error_numpy",
           "`absolute_error`, 20k × 10, unlimited depth (NumPy path), shapes A and B",
           "scikit-learn, the same tree", 2.0, "×"),
    Target("squared_error_numba",
           "`squared_error`, 200k × 10, unlimited depth (numba), shapes A and B",
           "scikit-learn, the same tree", 1.0, "×"),
    Target("squared_error_numpy",
           "`squared_error`, 200k × 10, unlimited depth (NumPy path), shapes A and B",
           "scikit-learn, the same tree", 2.0, "×"),
    Target("id3", "multiway `id3`, 200k × 10 string columns, two tables",
           "scikit-learn, entropy, on the one-hot columns (encoding timed)", 2.0, "×"),
    Target("ccp_cross_validate", "`ccp_cross_validate`, 5k × 10, 5 folds, shapes A and B",
           "scikit-learn: 6 trees each grown once, each path from its fitted tree "
           "(`ccp_pruning_path`), each held-out fold predicted", 1.0, "×"),
    Target("c4.5", "`c4.5` preset, 10% missing values, 10k and 50k × 10, shapes A and B",
           "scikit-learn, entropy, its own NaN support", 3.0, "×"),
    Target("j48", "`j48` preset, 10% missing values, 10k and 50k × 10, shapes A and B",
           "scikit-learn, entropy, its own NaN support", 3.0, "×"),
    Target("upload_500k", "app: 500k-row CSV uploaded → first tree drawn",
           "a bare Streamlit page drawn", 1.0, "s"),
    Target("prune_5k", "app: 5k-row upload, click Prune → every chart and tree drawn",
           "a bare Streamlit page drawn", 1.0, "s"),
    Target("step_p50", "app: 10k-row upload, max_depth=4 (31 nodes), click Next step → "
           "its tree drawn, median step",
           "a bare Streamlit page's step: one button, one chart of the same tree", 0.1, "s"),
    Target("cold_first_tree", "app: first tree on a freshly started server",
           "a bare Streamlit page's first tree, its server freshly started", 2.0, "s"),
]


@dataclass(frozen=True)
class Measured:
    value: float  # in the target's unit
    detail: str = ""  # the figures behind it


def _ratio(ours: float, theirs: float, unit: str) -> Measured:
    scale, fmt = (1000, "{:.0f} ms") if unit == "s" else (1, "{:.0f} MB")
    return Measured(ours / theirs, f"{fmt.format(ours * scale)} vs {fmt.format(theirs * scale)}")


def _largest_ratio(rows) -> Measured:
    """The largest ratio of ``rows`` ([(data, reference s, dtree s)]), each
    data's ratio in the detail: a target holds only if it holds on all."""
    ratios = [(data, ours / theirs) for data, theirs, ours in rows]
    return Measured(max(r for _, r in ratios),
                    ", ".join(f"{data}: {r:.2f}×" for data, r in ratios))


def measurements(results: dict) -> dict[str, Measured]:
    """What ``bench.py``'s tables measured, by target key.  ``results`` holds
    whichever tables ran: ``hist`` ({"time_s", "accuracy", "memory_mb"},
    each by fit name), ``criteria`` ({key: (scikit-learn s, dtree s)}),
    ``missing`` ({"c4.5" | "j48": [(data, scikit-learn CPU s, dtree CPU s)]};
    ``criteria`` and ``hist``'s ``fit_by_shape`` may list rows the same way,
    one per data shape, and the largest ratio is the result)
    ``uploads`` (``bench/uploads.py``'s results, its medians) and ``steps``
    (``bench/steps.py``'s, the same way)."""
    out = {}
    if "hist" in results:
        time_s, acc, mem = (results["hist"][k] for k in ("time_s", "accuracy", "memory_mb"))
        out["hist_fit"] = _ratio(time_s["dtree hist"], time_s["LightGBM"], "s")
        out["hist_accuracy"] = Measured(
            100 * (acc["dtree exact"] - acc["dtree hist"]),
            f"{acc['dtree hist']:.4f} vs {acc['dtree exact']:.4f}")
        out["exact_memory"] = _ratio(mem["dtree exact"], mem["scikit-learn"], "MB")
        if "fit_by_shape" in results["hist"]:
            out["hist_fit"] = _largest_ratio(results["hist"]["fit_by_shape"])
    for key, rows in results.get("criteria", {}).items():
        out[key] = (_ratio(rows[1], rows[0], "s") if isinstance(rows, tuple)
                    else _largest_ratio(rows))
    for key, rows in results.get("missing", {}).items():
        out[key] = _largest_ratio(rows)
    if "uploads" in results:
        m = results["uploads"]["median"]
        bare = m["bare_page_s"]
        for key, name in (("upload_500k", "upload_500k_first_tree_s"),
                          ("prune_5k", "prune_5k_drawn_s")):
            out[key] = Measured(m[name] - bare, f"{m[name]:.2f} vs {bare:.2f} s")
    if "steps" in results:
        m = results["steps"]["median"]
        app, bare = m["app_step_p50_s"], m["bare_step_p50_s"]
        out["step_p50"] = Measured(app - bare, f"{app * 1000:.0f} vs {bare * 1000:.0f} ms")
        app, bare = m["app_cold_first_tree_s"], m["bare_cold_first_tree_s"]
        out["cold_first_tree"] = Measured(app - bare, f"{app:.2f} vs {bare:.2f} s")
    return out


def _value(target: Target, value: float) -> str:
    if target.unit == "×":
        return f"{value:.2f}×"
    if target.unit == "points":
        return f"{value:+.2f} points"
    return f"bare {value:+.2f} s"


def _limit(target: Target) -> str:
    if target.unit == "×":
        return f"≤ {target.limit:g}×"
    if target.unit == "points":
        return f"≤ {target.limit:g} points"
    return f"≤ bare + {target.limit:g} s"


def targets_table(measured: dict[str, Measured], *, every: bool = True) -> list[str]:
    """The targets as Markdown rows; ``every=False`` leaves out the ones not measured."""
    lines = ["| measured | reference | result | target | |", "|---|---|---|---|---|"]
    for t in TARGETS:
        m = measured.get(t.key)
        if m is None:
            if every:
                lines.append(f"| {t.what} | {t.reference} | not measured | {_limit(t)} | — |")
            continue
        result = _value(t, m.value) + (f" ({m.detail})" if m.detail else "")
        verdict = "met" if m.value <= t.limit else "**missed**"
        lines.append(f"| {t.what} | {t.reference} | {result} | {_limit(t)} | {verdict} |")
    return lines


def machine() -> dict[str, str]:
    """The machine and the libraries: what the figures depend on."""
    cpu = platform.processor() or platform.machine()
    memory = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f
                        if line.startswith("model name")), cpu)
        with open("/proc/meminfo") as f:
            kb = next(int(line.split()[1]) for line in f if line.startswith("MemTotal:"))
        memory = f"{kb / 2**20:.0f} GiB"
    except (OSError, StopIteration):
        pass

    def version(package):
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "not installed"

    info = {"CPU": f"{cpu}, {os.cpu_count()} cores", "memory": memory,
            "system": f"{platform.system()} {platform.machine()}",
            "Python": platform.python_version()}
    for package in ("numpy", "pandas", "scikit-learn", "lightgbm", "numba", "streamlit"):
        info[package] = version(package)
    return info


METHOD = """\
Every figure is a ratio or a difference between dtree and its reference,
both measured in the same run on the same machine, so that the machine's
speed and other work on it cancel out as far as they can.  Each reference
does the least work that gives the same answer, and each speed target is
measured on two data shapes: its result is the larger ratio, so that no
target holds on one shape only.

* **Data shapes.**  Classification: `make_classification` with ten
  float32 features, six of them informative, three classes (two for the
  1M-row rows, so that LightGBM too grows one tree); shape A with the
  default class separation, shape B with `class_sep=0.8`, whose classes
  overlap more and whose trees are larger.  Regression: ten normal
  features, A a smooth target of two of them plus noise, B Friedman's #1
  (`make_friedman1`, noise 1).  The `id3` rows: two tables of ten string
  columns with different numbers of values and different rules.
* **Fits.**  dtree and the reference are timed in turn, in one process,
  several times each, and the median CPU time (`time.process_time`) of
  each is compared: on a shared, busy machine CPU time is what other work
  disturbs least.  The C4.5 rows set 10% of the values missing.  Where
  numba is installed, dtree uses its compiled kernels (the absolute-error
  medians; the exact search and partition of batches without missing values
  under Gini or squared error); the rows marked "NumPy path" turn it off.
  LightGBM runs with `num_threads=1, n_estimators=1, num_leaves=255,
  max_depth=8, max_bin=255`; binning is part of both fits.
* **Peak memory** is the peak RSS increase of one fit in a fresh process,
  with the data, and each library's code (numba's kernels too, by a small
  fit), loaded before the fit starts.
* **The app's uploads** (`bench/uploads.py`): headless Chromium through
  Playwright, CSVs of ten numeric columns and a three-class text label
  (500k rows are 34 MB).  Each interval is timed by the page's own clock,
  from the event (the file handed to the uploader, the click on a page's
  link) to the first animation frame that shows the result; the reference
  is a bare Streamlit page (one `st.write`) from navigation to its text,
  served in the same run.  The median of three runs, each on a freshly
  started server warmed by one visit.
* **The app's steps and start** (`bench/steps.py`): the same browser and
  clock.  A step is a click on Next step until the first frame whose tree
  has the step's nodes, on the Grow page of a 10k-row upload (six numeric
  columns, three classes) at max_depth=4; the reference is a bare page of
  one button and one chart stepping through the same tree
  (`bench/bare_step_app.py`).  The first tree on a freshly started server
  is timed from navigation to its first node drawn: the app's first page
  (the built-in data) against the bare page (that tree's root).  Both
  servers are started afresh in each of three runs; the result is the
  median of the three first trees, and of the 45 steps."""


def render(measured: dict[str, Measured], info: dict[str, str]) -> str:
    """The whole of docs/benchmarks.md."""
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`bench/bench.py`; this page by `bench/report.py`):",
        "change those, not this file.  The full output, with every table, goes to",
        "`bench/artifacts/bench.md`; `bench.py --only <table>` runs one table and",
        "leaves this file alone.",
        "",
        "## Method",
        "",
        METHOD,
        "",
        "## Machine",
        "",
        "| | |",
        "|---|---|",
        *(f"| {name} | {value} |" for name, value in info.items()),
        "",
        "## Targets",
        "",
        *targets_table(measured),
        "",
        "`make loadtest` (a class on one link, and a class vote of 100 students) has "
        "targets of its own: see [lecture-room.md](lecture-room.md).",
        "",
    ]
    return "\n".join(lines)


def write(path, measured: dict[str, Measured], info: dict[str, str] | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(measured, machine() if info is None else info), encoding="utf-8")
