"""``bench/bench.py`` writes what it prints (its Markdown tables) to a file
as well, line by line as it prints them."""

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench.py"


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
    ran = []
    monkeypatch.setattr(bench, "run", lambda args: ran.append(args.only) or print("table"))
    for argv, name in ((["bench.py"], "bench.md"),
                       (["bench.py", "--only", "hist"], "bench-hist.md")):
        monkeypatch.setattr(sys, "argv", argv)
        bench.main()
        assert (tmp_path / name).read_text(encoding="utf-8") == "table\n"
    assert ran == [None, "hist"]
