"""No test module imports from another: what several test modules share
lives in ``tests/helpers/`` (one role per file) or in a ``conftest.py``.

A test module that imports from another runs that module's top level (its
fixtures, its parametrisations, its data) and ties the two together: moving
or renaming a test then breaks a test elsewhere.  Imports are read with
``ast``, so one inside a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEST_MODULES = sorted((ROOT / "tests").rglob("test_*.py"))


def is_test_module(module: str) -> bool:
    """``tests.app.test_app_pages`` and the like: a test module's dotted name."""
    parts = module.split(".")
    return parts[0] == "tests" and parts[-1].startswith("test_")


def imports_of_test_modules(source: str) -> list[str]:
    """The test modules ``source`` imports from (``from tests.x.test_y
    import z``, ``import tests.x.test_y``, ``from tests.x import test_y``,
    ``from .test_y import z``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # a relative import: within the tests
                module = "tests." + module if module else "tests"
            if is_test_module(module):
                found.append(module)
            else:
                found += [f"{module}.{alias.name}" for alias in node.names
                          if is_test_module(f"{module}.{alias.name}")]
    return found


def test_the_check_sees_the_test_modules():
    names = {p.relative_to(ROOT).as_posix() for p in TEST_MODULES}
    assert {"tests/app/test_app_pages.py", "tests/engine/test_properties.py",
            "tests/project/test_layers.py"} <= names


@pytest.mark.parametrize("path", TEST_MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_imports_of_test_modules_from_another(path):
    assert imports_of_test_modules(path.read_text(encoding="utf-8")) == [], (
        f"{path.relative_to(ROOT)}: move what it shares into tests/helpers/")


@pytest.mark.parametrize("source", [
    "from tests.app.test_app_pages import start\n",
    "from tests.engine.test_properties import (cases,\n    uints)\n",
    "import tests.engine.test_export\n",
    "from tests.engine import test_export\n",
    "from .test_export import parse_dot\n",
    "def f():\n    from tests.browser.test_room_browser import stage_shows\n",
])
def test_the_check_catches_an_import_from_a_test_module(source):
    assert imports_of_test_modules(source)


@pytest.mark.parametrize("source", [
    "from tests.helpers.apptest import start\n",
    "from tests.browser.conftest import open_app\n",
    "import tests.helpers.oracle\n",
    "from dtree import DecisionTreeClassifier\n",
])
def test_the_check_lets_helpers_and_conftest_through(source):
    assert imports_of_test_modules(source) == []
