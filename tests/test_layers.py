"""The three layers keep their arrows pointing one way.

* the engine (the modules at the root of ``dtree/``) imports neither
  ``dtree.views``, ``dtree.tables`` nor Streamlit;
* the views (``dtree/views``), the tables (``dtree/tables``), the pages and
  ``app.py`` use the engine through its public names only: no
  ``dtree._grow``, ``from .._criteria import``, ``from dtree import _tree``;
* nothing under ``dtree/`` imports Streamlit, and the tables do not import
  the views.

The imports are read with ``ast``, so a lazy import inside a function counts
as much as one at the top of a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path) -> str:
    """``dtree/views/viz.py`` -> ``dtree.views.viz``; ``__init__`` names its package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, source: str | None = None):
    """(line, module, name) for every import in a file, relative imports
    resolved to absolute module names; ``name`` is None for ``import m``."""
    source = path.read_text(encoding="utf-8") if source is None else source
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            for alias in node.names:
                yield node.lineno, module, alias.name


def private_engine(module: str, name: str | None) -> bool:
    """True if this import reaches a private engine module or name
    (``dtree._x``, ``dtree._x.y``, or ``_x`` taken from ``dtree`` itself)."""
    parts = module.split(".")
    if parts[0] != "dtree":
        return False
    if len(parts) > 1:
        return parts[1].startswith("_")
    return name is not None and name.startswith("_")


def reaches(module: str, name: str | None, target: str) -> bool:
    """True if this import loads ``target`` (a package or module) or something in it."""
    full = module if name is None or name == "*" else f"{module}.{name}"
    return any(m == target or m.startswith(target + ".") for m in (module, full))


def files(*patterns):
    return sorted(p for pattern in patterns for p in ROOT.glob(pattern))


ENGINE = files("dtree/*.py")
USERS = files("dtree/views/*.py", "dtree/tables/*.py", "pages/**/*.py", "app.py")
TABLES = files("dtree/tables/*.py")
UNDER_DTREE = files("dtree/**/*.py")


def violations_of_engine(path, source=None):
    return [f"{path.relative_to(ROOT)}:{line} imports {module}{'.' + name if name else ''}"
            for line, module, name in imported(path, source)
            if any(reaches(module, name, t) for t in ("dtree.views", "dtree.tables", "streamlit"))]


def violations_of_user(path, source=None):
    return [f"{path.relative_to(ROOT)}:{line} imports {module}{'.' + name if name else ''}"
            for line, module, name in imported(path, source) if private_engine(module, name)]


def test_the_layers_are_there():
    names = {p.relative_to(ROOT).as_posix() for p in ENGINE + USERS}
    assert {"dtree/__init__.py", "dtree/_grow.py", "dtree/_export.py", "dtree/views/viz.py",
            "dtree/views/downloads.py", "dtree/tables/io.py", "pages/grow.py", "app.py"} <= names


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
def test_the_engine_imports_no_view_no_table_and_no_streamlit(path):
    assert violations_of_engine(path) == []


@pytest.mark.parametrize("path", USERS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_views_tables_and_pages_use_only_the_engines_public_names(path):
    assert violations_of_user(path) == []


@pytest.mark.parametrize("path", UNDER_DTREE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_under_dtree_imports_streamlit(path):
    assert not [m for _, m, n in imported(path) if reaches(m, n, "streamlit")]


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
def test_the_tables_do_not_import_the_views(path):
    assert not [m for _, m, n in imported(path) if reaches(m, n, "dtree.views")]


@pytest.mark.parametrize("source", [
    "from .._grow import sad_prefix\n",
    "from .. import _criteria\n",
    "from dtree._tree import NUMERIC\n",
    "import dtree._pruning\n",
    "from dtree import _ebp\n",
    "def f():\n    from dtree._sklearn import NEEDS_DATA\n",
])
def test_the_check_catches_a_private_import(source):
    """The checks above can fail: a view written like this is caught."""
    assert violations_of_user(ROOT / "dtree" / "views" / "viz.py", source)


@pytest.mark.parametrize("source", [
    "from .views import viz\n",
    "from . import tables\n",
    "from .views.explain import num\n",
    "import dtree.views.viz\n",
    "from dtree import views\n",
    "def f():\n    import streamlit as st\n",
    "from streamlit import session_state\n",
])
def test_the_check_catches_an_engine_importing_upwards(source):
    assert violations_of_engine(ROOT / "dtree" / "_grow.py", source)


@pytest.mark.parametrize("source", [
    "from .. import NUMERIC, make_criterion\n",
    "from .explain import num\n",
    "from ._private_view_helper import x\n",  # a view's own helper, not the engine's
    "from dtree import DecisionTreeClassifier\n",
    "from dtree.views import viz\n",
])
def test_the_check_lets_public_imports_through(source):
    assert violations_of_user(ROOT / "dtree" / "views" / "viz.py", source) == []


#: "no page is much over 250 lines": the pages, their panels and helpers
PAGE_LINES = 265


def page_files():
    """app.py and every file under pages/, its sub-packages included."""
    return sorted([ROOT / "app.py", *(ROOT / "pages").rglob("*.py")])


def test_pages_stay_short():
    """Pages read state, call and render; the computation lives in the views
    and tables, so no file of the app grows much past 250 lines."""
    long = {path.relative_to(ROOT).as_posix(): n for path in page_files()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > PAGE_LINES}
    assert long == {}, f"move computation into dtree/views or dtree/tables: {long}"


def test_the_page_check_sees_the_pages():
    names = {path.relative_to(ROOT).as_posix() for path in page_files()}
    assert {"app.py", "pages/grow.py", "pages/compare.py", "pages/prune.py", "pages/learn.py",
            "pages/data.py", "pages/panels/sidebar.py", "pages/state/session.py",
            "pages/runtime/caches.py", "pages/language/terms.py"} <= names
