"""pages/panels/export_panel.py under AppTest, through the small script
tests/helpers/export_panel_app.py (the panel is not a page: it is called by pages).

The download buttons get their data from callables, which Streamlit runs
only on a click; the tests catch each callable as the panel registers it
(``MediaFileManager.add_deferred``) and run it themselves.
"""

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from dtree import DecisionTreeClassifier
from dtree.views import downloads as ex
from tests.helpers.installed import needs, running_in_ci
from tests.helpers.apptest import assert_clean

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "tests" / "helpers" / "export_panel_app.py")
FORMATS = ("dot", "svg", "png", "txt", "json", "html")
needs_dot = needs(ex.dot_binary() is not None, "Graphviz's dot")


def start(data=None):
    at = AppTest.from_file(SCRIPT, default_timeout=120).run()
    if data is not None:
        at.selectbox(key="demo_data").set_value(data).run()
    assert_clean(at)
    return at


def buttons(at):
    return {b.proto.id.rsplit("-", 1)[-1]: b for b in at.get("download_button")}


def iris_model():
    frame = pd.read_csv(ROOT / "data" / "iris.csv")
    return DecisionTreeClassifier(max_depth=4).fit(frame.drop(columns="species"),
                                                   frame["species"])


def dot_nodes(dot):
    return len(re.findall(r"^\d+ \[label=", dot, flags=re.M))


def test_a_button_per_format_with_file_names(files):
    """Every format offered; SVG and PNG only where Graphviz's dot is (it is in CI)."""
    assert ex.dot_binary() is not None or not running_in_ci(), "CI installs Graphviz (make test)"
    at = start()
    shown = buttons(at)
    assert sorted(shown) == sorted(f"exp_{f}" for f in FORMATS)
    assert not any(b.proto.disabled for b in shown.values()) or ex.dot_binary() is None
    names = {what: name for what, (name, _, _) in files.items()}
    expected = {"dot": "Iris_step7.dot", "txt": "Iris_step7_rules.txt",
                "json": "Iris_growth.json", "html": "Iris_growth.html"}
    if ex.dot_binary() is not None:  # SVG and PNG need Graphviz's dot
        expected.update(svg="Iris_step7.svg", png="Iris_step7.png")
        assert files["png"][1] == "image/png" and files["svg"][1] == "image/svg+xml"
    assert names == expected


@needs_dot
def test_the_files_are_the_tree_at_the_step(files):
    at = start()
    model = iris_model()
    for step in (7, 2):
        at.number_input(key="demo_step").set_value(step).run()
        assert_clean(at)
        tree = model.tree_at(step)
        dot = files["dot"][2]().decode()
        assert files["dot"][0] == f"Iris_step{step}.dot"
        assert dot_nodes(dot) == tree.node_count
        svg = ET.fromstring(files["svg"][2]())
        assert sum(g.get("class") == "node" for g in svg.iter("{http://www.w3.org/2000/svg}g")) \
            == tree.node_count
        assert files["png"][2]().startswith(b"\x89PNG\r\n\x1a\n")
        rules = files["txt"][2]().decode()
        assert rules.count("class:") == tree.n_leaves
    trace = json.loads(files["json"][2]())
    assert trace["dataset"] == "Iris" and trace["n_steps"] == len(model.steps_)
    assert [s["gain"] for s in trace["steps"]] == [s.gain for s in model.steps_]
    page = files["html"][2]().decode()
    assert page.count('"name":"') >= len(model.steps_) + 1 and "<title>Iris</title>" in page


def test_the_style_control_switches_the_drawing(files):
    at = start()
    app_dot = files["dot"][2]().decode()
    assert 'bgcolor="transparent"' in app_dot and "gain =" in app_dot  # the app's drawing
    at.segmented_control(key="exp_style").set_value("plain").run()
    assert_clean(at)
    plain = files["dot"][2]().decode()
    assert "gain =" not in plain and 'style="filled, rounded"' in plain
    assert dot_nodes(plain) == dot_nodes(app_dot)


def test_files_are_built_once(files):
    start()
    first = files["html"][2]()
    assert files["html"][2]() is first
    assert files["json"][2]() is files["json"][2]()


def test_without_graphviz_the_panel_says_how_to_install_it(files, monkeypatch):
    monkeypatch.setattr(ex.shutil, "which", lambda *a, **k: None)
    at = start()
    shown = buttons(at)
    assert shown["exp_svg"].proto.disabled and shown["exp_png"].proto.disabled
    assert not shown["exp_dot"].proto.disabled and not shown["exp_html"].proto.disabled
    info = " ".join(i.value for i in at.info)
    for command in ("apt-get install graphviz", "brew install graphviz",
                    "conda install graphviz"):
        assert command in info
    assert dot_nodes(files["dot"][2]().decode()) == 15  # DOT still works
    at.session_state["lang"] = "zh"
    at.run()
    assert_clean(at)
    assert "安装 Graphviz" in " ".join(i.value for i in at.info)


@pytest.mark.parametrize("data", ["loan", "melon", "regression", "hostile", "big"])
def test_other_trees(files, data):
    at = start(data)
    n = int(at.number_input(key="demo_step").value)
    for what in ("dot", "txt", "json"):
        name, _, build = files[what]
        assert re.fullmatch(r"[\w-]+\.(dot|txt|json)", name), name
        assert build()
    trace = json.loads(files["json"][2](), parse_constant=lambda c: 1 / 0)
    assert trace["n_steps"] == n
    captions = " ".join(c.value for c in at.caption)
    if data == "big":
        assert "stops at step" in captions and "more than 255 nodes" in captions
    else:
        assert "stops at step" not in captions
    if data == "hostile":
        assert files["dot"][0] == f"b_x_b_a_b_c_step{n}.dot"  # from ../<b>x</b>/a"b\\c


def test_chinese_labels(files):
    at = start("loan")
    at.session_state["lang"] = "zh"
    at.run()
    assert_clean(at)
    labels = {b.label for b in at.get("download_button")}
    assert {"文本规则", "生长记录（JSON）", "离线逐步演示（HTML）"} <= labels
    assert "第 2 步后的树" in " ".join(m.value for m in at.markdown)
    page = files["html"][2]().decode()
    assert '<html lang="zh">' in page and "\\u64ad\\u653e" in page  # 播放 (Play)


def test_the_panel_does_not_set_up_a_page():
    source = (ROOT / "pages" / "panels" / "export_panel.py").read_text()
    assert "require_frame(" not in source and "set_page_config(" not in source
