"""The three layers keep their arrows pointing one way.

* the engine (the modules at the root of ``dtree/``) imports neither
  ``dtree.views``, ``dtree.tables`` nor Streamlit;
* the views (``dtree/views``), the tables (``dtree/tables``), the pages and
  ``app.py`` use the engine through its public names only: no
  ``dtree._search``, ``from .._criteria import``, ``from dtree import _tree``;
* nothing under ``dtree/`` imports Streamlit, and the tables do not import
  the views;
* nor do they reach a private attribute of another object: no
  ``model._validate_X_predict(X)`` or ``explain._frac(a, b)``, only
  ``self._x``/``cls._x`` (see :func:`private_attributes`).

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
USERS = files("dtree/views/**/*.py", "dtree/tables/**/*.py", "pages/**/*.py", "app.py")
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
    assert {"dtree/__init__.py", "dtree/_search.py", "dtree/_export.py", "dtree/views/viz.py",
            "dtree/views/downloads.py", "dtree/tables/io.py", "pages/grow.py", "app.py"} <= names


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
def test_the_engine_imports_no_view_no_table_and_no_streamlit(path):
    assert violations_of_engine(path) == []


@pytest.mark.parametrize("path", USERS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_views_tables_and_pages_use_only_the_engines_public_names(path):
    assert violations_of_user(path) == []


#: Private attributes the app may reach, as (file name, attribute): they are
#: not the engine's.  pages/caches.py expires closed Streamlit sessions
#: through Streamlit's session manager (``Runtime.instance()._session_mgr``,
#: its ``_session_storage._cache`` and ``_storage_lock``): Streamlit
#: internals, pinned to one release and checked by tests/test_memory.py.
#: Keyed by file name, not folder, so that the pages can move into packages.
NOT_THE_ENGINES = {
    ("caches.py", "_session_mgr"),
    ("caches.py", "_session_storage"),
    ("caches.py", "_cache"),
    ("caches.py", "_storage_lock"),
}
#: The built-ins that read an attribute named by a string.
BY_NAME = ("getattr", "hasattr", "setattr", "delattr")


def is_private(name) -> bool:
    """``_x`` but not ``__x__`` (dunders such as ``__dict__`` are Python's)."""
    return (isinstance(name, str) and name.startswith("_")
            and not (name.startswith("__") and name.endswith("__")))


def private_attributes(path, source=None):
    """(line, expression) for every private attribute a file reaches on
    something that is not ``self`` or ``cls``: ``x._name`` (read, written or
    called) and ``getattr(x, "_name")`` with a literal name; the entries of
    :data:`NOT_THE_ENGINES` left out."""
    source = path.read_text(encoding="utf-8") if source is None else source
    hits = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Attribute):
            owner, name = node.value, node.attr
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in BY_NAME and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant)):
            owner, name = node.args[0], node.args[1].value
        else:
            continue
        if not is_private(name) or (path.name, name) in NOT_THE_ENGINES:
            continue
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        hits.append((node.lineno, ast.unparse(node)))
    return hits


@pytest.mark.parametrize("path", USERS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_views_tables_and_pages_reach_no_private_attribute(path):
    """The layer rule holds for attributes as well as imports: an engine
    object's private method (``model._validate_X_predict``,
    ``tree._branch``) is as private as a private module, and a view's
    private helper is its own module's.  Ask for a public name instead."""
    assert private_attributes(path) == []


def test_the_private_attribute_exceptions_are_still_needed():
    """Each entry of NOT_THE_ENGINES is reached somewhere (else drop it)."""
    used = set()
    for path in USERS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        used |= {(path.name, n.attr) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert NOT_THE_ENGINES <= used


@pytest.mark.parametrize("source", [
    "X = model._validate_X_predict(X)\n",
    "b = tree._branch(row, rows, nodes)\n",
    "names = fit.model._feature_names_list()\n",
    "j48 = est._setup['j48']\n",
    "est._x_dtype = float\n",
    "def f(model):\n    return model.tree_._child(0, 1)\n",
    "latex = explain._frac(1, 2)\n",
    "refs = getattr(model, '_candidate_refs', None)\n",
    "manager = Runtime.instance()._session_mgr\n",  # allowed in caches.py only
])
def test_the_check_catches_a_private_attribute(source):
    """The check can fail: a view or page written like this is caught."""
    for path in (ROOT / "dtree" / "views" / "viz.py", ROOT / "pages" / "grow.py"):
        assert private_attributes(path, source)


@pytest.mark.parametrize("source", [
    "self._cache = {}\n",
    "cls._criteria = {}\n",
    "names = model.feature_names_\n",
    "X = tree_input(model, X)\n",
    "d = obj.__dict__\n",
    "d = getattr(obj, '__dict__', None)\n",
    "from ._private_view_helper import x\n",  # an import: the checks above read those
    "_local = 1\nprint(_local)\n",
])
def test_the_check_lets_public_attributes_through(source):
    assert private_attributes(ROOT / "dtree" / "views" / "viz.py", source) == []


def test_the_exceptions_hold_only_in_their_file():
    source = "manager = Runtime.instance()._session_mgr\nwith manager._storage_lock:\n    pass\n"
    assert private_attributes(ROOT / "pages" / "caches.py", source) == []
    assert len(private_attributes(ROOT / "pages" / "shared.py", source)) == 2


@pytest.mark.parametrize("path", UNDER_DTREE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_under_dtree_imports_streamlit(path):
    assert not [m for _, m, n in imported(path) if reaches(m, n, "streamlit")]


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
def test_the_tables_do_not_import_the_views(path):
    assert not [m for _, m, n in imported(path) if reaches(m, n, "dtree.views")]


def engine_imports(sources=None):
    """``{module: engine modules it imports}`` over the engine's modules (lazy
    imports included); ``sources`` replaces some files' text by name."""
    names = {module_name(p): p for p in ENGINE}
    graph = {}
    for name, path in names.items():
        deps = set()
        for _, module, imported_name in imported(path, (sources or {}).get(path.name)):
            full = f"{module}.{imported_name}" if imported_name else module
            dep = full if full in names else module
            if dep in names and dep != name:
                deps.add(dep)
        graph[name] = deps
    return graph


def circles(graph):
    """The pairs (a, b) where a imports b and b reaches a again."""
    def reached(start):
        seen, todo = set(), [start]
        while todo:
            for dep in graph[todo.pop()] - seen:
                seen.add(dep)
                todo.append(dep)
        return seen
    return sorted((a, b) for a in graph if a != "dtree" for b in graph[a] if a in reached(b))


def test_the_engine_modules_import_each_other_one_way():
    """No import circle among the engine's modules, lazy imports included:
    a module takes names from where they are defined, below it."""
    assert circles(engine_imports()) == []


def test_the_circle_check_catches_a_circle():
    source = (ROOT / "dtree" / "_problem.py").read_text(encoding="utf-8")
    lazy = "\ndef f():\n    from ._search import search\n"
    graph = engine_imports({"_problem.py": source + lazy})
    assert ("dtree._problem", "dtree._search") in circles(graph)


@pytest.mark.parametrize("source", [
    "from .._median import sad_prefix\n",
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
    assert violations_of_engine(ROOT / "dtree" / "_search.py", source)


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
    return sorted([ROOT / "app.py", *(ROOT / "pages").glob("*.py")])


def test_pages_stay_short():
    """Pages read state, call and render; the computation lives in the views
    and tables, so no file of the app grows much past 250 lines."""
    long = {path.name: n for path in page_files()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > PAGE_LINES}
    assert long == {}, f"move computation into dtree/views or dtree/tables: {long}"


def test_the_page_check_sees_the_pages():
    names = {path.name for path in page_files()}
    assert {"app.py", "grow.py", "compare.py", "prune.py", "learn.py", "data.py",
            "shared.py"} <= names
