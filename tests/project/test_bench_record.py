"""``bench/bench.py`` writes what it prints (its Markdown tables) to a file
as well, line by line as it prints them; a run of every table also writes
docs/benchmarks.md (``bench/report.py``): the method, the machine and one row
per target, met or missed.  Checked on made-up results: nothing is timed."""

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("dtree_bench_script", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_what_the_bench_prints_is_also_written_to_its_file(tmp_path, capsys):
    bench = load_bench()
    out = tmp_path / "artifacts" / "bench.md"  # (the folder is made)
    screen = sys.stdout
    with bench.recorded(out):
        print("| data | ratio |")
        print("|---|---:|")
        # already on disk: an interrupted run keeps the tables it finished
        assert out.read_text(encoding="utf-8") == "| data | ratio |\n|---|---:|\n"
        print("| 2k × 10 | 1.98 |")
    table = "| data | ratio |\n|---|---:|\n| 2k × 10 | 1.98 |\n"
    assert out.read_text(encoding="utf-8") == table
    assert capsys.readouterr().out == table
    assert sys.stdout is screen


def test_the_file_is_named_after_the_table_run_alone(tmp_path, monkeypatch):
    bench = load_bench()
    monkeypatch.setattr(bench, "ARTIFACTS", tmp_path)
    monkeypatch.setattr(bench, "BENCHMARKS", tmp_path / "docs" / "benchmarks.md")
    ran = []
    monkeypatch.setattr(bench, "run", lambda args: ran.append(args.only) or print("table"))
    for argv, name in ((["bench.py"], "bench.md"),
                       (["bench.py", "--only", "hist"], "bench-hist.md")):
        monkeypatch.setattr(sys, "argv", argv)
        bench.main()
        assert (tmp_path / name).read_text(encoding="utf-8") == "table\n"
    assert ran == [None, "hist"]
    assert not (tmp_path / "docs").exists()  # nothing measured: the page is left alone


# -- docs/benchmarks.md ---------------------------------------------------------------

def fake_results(slow_upload=False, slow_step=False):
    """What bench.py's tables hand over, made up (times in s, memory in MB)."""
    return {
        "hist": {"time_s": {"dtree hist": 0.552, "LightGBM": 1.309, "dtree exact": 8.1,
                            "scikit-learn": 6.2},
                 "accuracy": {"dtree hist": 0.9200, "LightGBM": 0.9188, "dtree exact": 0.9197,
                              "scikit-learn": 0.9197},
                 "memory_mb": {"dtree hist": 131.0, "LightGBM": 70.0, "dtree exact": 94.0,
                               "scikit-learn": 53.0},
                 # (shape, LightGBM s, dtree s): the target is the larger ratio
                 "fit_by_shape": [("A", 1.309, 0.552), ("B", 1.2, 0.6)]},
        "criteria": {"absolute_error_numba": [("A", 1.0, 1.08), ("B", 1.0, 1.1)],
                     "absolute_error_numpy": [("A", 1.0, 1.68), ("B", 1.0, 1.5)],
                     "squared_error_numba": [("A", 4.0, 3.2), ("B", 4.0, 4.4)],
                     "squared_error_numpy": [("A", 4.0, 6.72), ("B", 4.0, 7.0)],
                     "id3": [("A", 0.3, 0.441), ("B", 0.3, 0.45)],
                     "ccp_cross_validate": [("A", 0.5, 0.35), ("B", 0.5, 0.325)]},
        "missing": {"c4.5": [("10k", 0.4, 1.0), ("50k", 3.0, 8.4)],
                    "j48": [("10k", 0.4, 0.6), ("50k", 3.0, 5.4)]},
        "uploads": {"median": {"bare_page_s": 1.37,
                               "upload_500k_first_tree_s": 2.63 if slow_upload else 2.13,
                               "prune_5k_drawn_s": 1.42}},
        "steps": {"median": {"bare_step_p50_s": 0.142,
                             "app_step_p50_s": 0.262 if slow_step else 0.221,
                             "bare_cold_first_tree_s": 1.35, "app_cold_first_tree_s": 2.8}},
    }


def row_of(text, start):
    rows = [line for line in text.splitlines() if line.startswith("| " + start)]
    assert len(rows) == 1, (start, rows)
    return [cell.strip() for cell in rows[0].strip("|").split("|")]


def test_the_benchmarks_page_has_one_row_per_target_with_its_verdict(tmp_path):
    report = load_bench().report
    page = tmp_path / "docs" / "benchmarks.md"
    info = {"CPU": "Some CPU, 2 cores", "memory": "24 GiB", "Python": "3.11.7",
            "numpy": "2.4.6", "scikit-learn": "1.9.1", "lightgbm": "4.7.0"}
    report.write(page, report.measurements(fake_results(slow_upload=True, slow_step=True)),
                 info)
    text = page.read_text(encoding="utf-8")
    for heading in ("# Benchmarks", "## Method", "## Machine", "## Targets"):
        assert heading in text.splitlines()
    for name, value in info.items():
        assert f"| {name} | {value} |" in text
    assert "load average" not in text.lower()
    # one row per target, each with its reference, result, target and verdict
    rows = [row_of(text, t.what) for t in report.TARGETS]
    assert all(len(row) == 5 for row in rows)
    assert row_of(text, "`splitter=\"hist\"` fit") == [
        '`splitter="hist"` fit, 1M × 10, max_depth=8, shapes A and B',
        "LightGBM, one tree, one thread, its binning included",
        "0.50× (A: 0.42×, B: 0.50×)", "≤ 1×", "met"]
    assert row_of(text, "`splitter=\"hist\"` test accuracy")[2:] == [
        "-0.03 points (0.9200 vs 0.9197)", "≤ 0.5 points", "met"]
    assert row_of(text, "peak memory")[2:] == ["1.77× (94 MB vs 53 MB)", "≤ 2×", "met"]
    # every target on two data shapes: the larger ratio, each shape's in the detail
    assert row_of(text, "`ccp_cross_validate`")[2:] == ["0.70× (A: 0.70×, B: 0.65×)", "≤ 1×",
                                                         "met"]
    assert row_of(text, "`squared_error`, 200k × 10, unlimited depth (numba)")[2:] == [
        "1.10× (A: 0.80×, B: 1.10×)", "≤ 1×", "**missed**"]
    # the C4.5 rows: the larger ratio of the two sizes, CPU time
    assert row_of(text, "`c4.5` preset")[2:] == ["2.80× (10k: 2.50×, 50k: 2.80×)", "≤ 3×",
                                                  "met"]
    assert row_of(text, "`j48` preset")[2] == "1.80× (10k: 1.50×, 50k: 1.80×)"
    # a miss is a verdict in its column, not a story
    assert row_of(text, "app: 500k-row CSV")[2:] == [
        "bare +1.26 s (2.63 vs 1.37 s)", "≤ bare + 1 s", "**missed**"]
    assert row_of(text, "app: 5k-row upload")[2:] == [
        "bare +0.05 s (1.42 vs 1.37 s)", "≤ bare + 1 s", "met"]
    # the step: its median against the bare page's, in ms; the first tree of a fresh server
    assert row_of(text, "app: 10k-row upload")[2:] == [
        "bare +0.12 s (262 vs 142 ms)", "≤ bare + 0.1 s", "**missed**"]
    assert row_of(text, "app: first tree on a freshly started server")[2:] == [
        "bare +1.45 s (2.80 vs 1.35 s)", "≤ bare + 2 s", "met"]
    assert row_of(report.render(report.measurements(fake_results()), info),
                  "app: 10k-row upload")[2:] == [
        "bare +0.08 s (221 vs 142 ms)", "≤ bare + 0.1 s", "met"]


def test_a_target_not_measured_stays_in_the_page_as_such():
    report = load_bench().report
    results = fake_results()
    # (the browser tables not run; no numba)
    del results["uploads"], results["steps"], results["criteria"]["absolute_error_numba"]
    measured = report.measurements(results)
    text = report.render(measured, {"CPU": "x"})
    row = row_of(text, "`absolute_error`, 20k × 10, unlimited depth (numba)")
    assert row[2:] == ["not measured", "≤ 2×", "—"]
    assert row_of(text, "app: 5k-row upload")[2] == "not measured"
    assert row_of(text, "app: 10k-row upload")[2] == "not measured"
    assert row_of(text, "app: first tree on")[2] == "not measured"
    # the table printed after a partial run lists only what it measured
    printed = "\n".join(report.targets_table(measured, every=False))
    assert "not measured" not in printed and "(NumPy path)" in printed


def test_a_run_of_every_table_writes_the_page_and_a_partial_run_does_not(tmp_path, monkeypatch,
                                                                          capsys):
    bench = load_bench()
    page = tmp_path / "docs" / "benchmarks.md"
    monkeypatch.setattr(bench, "ARTIFACTS", tmp_path)
    monkeypatch.setattr(bench, "BENCHMARKS", page)
    monkeypatch.setattr(bench, "run", lambda args: {"missing": fake_results()["missing"]}
                        if args.only else fake_results())
    monkeypatch.setattr(sys, "argv", ["bench.py", "--only", "missing"])
    bench.main()
    assert not page.exists()
    printed = (tmp_path / "bench-missing.md").read_text(encoding="utf-8")
    assert "| `c4.5` preset" in printed and "| app:" not in printed
    monkeypatch.setattr(sys, "argv", ["bench.py"])
    bench.main()
    text = page.read_text(encoding="utf-8")
    assert "| app: 500k-row CSV uploaded → first tree drawn |" in text
    assert "not measured" not in text
    assert "## Machine" in text and "| Python |" in text


def test_the_committed_page_is_the_writers_output():
    """docs/benchmarks.md has the writer's shape: every target's row, no diary."""
    bench = load_bench()
    text = bench.BENCHMARKS.read_text(encoding="utf-8")
    for target in bench.report.TARGETS:
        assert row_of(text, target.what)[4] in ("met", "**missed**", "—")
    assert bench.report.METHOD in text
    assert "load average" not in text.lower()
