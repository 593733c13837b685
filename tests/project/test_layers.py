"""The three layers keep their arrows pointing one way.

* the engine (the modules at the root of ``dtree/``) imports neither
  ``dtree.views``, ``dtree.tables`` nor Streamlit;
* the views (``dtree/views``), the tables (``dtree/tables``), the pages and
  ``app.py`` use the engine through its public names only: no
  ``dtree._search``, ``from .._criteria import``, ``from dtree import _tree``;
* nothing under ``dtree/`` imports Streamlit, and the tables do not import
  the views;
* the views, the tables, the pages and ``app.py`` reach no private
  attribute of another object: no ``model._validate_X_predict(X)`` or
  ``explain._frac(a, b)``, only ``self._x``/``cls._x`` (see
  :func:`private_attributes`);
* no module of the app (``app.py``, ``pages/``) or of ``dtree/`` imports,
  directly or through others, a module that imports it;
* the top of ``pages/`` holds only the pages ``app.py``'s ``st.navigation``
  lists; each sub-package of ``pages/`` has an ``__init__.py`` with a
  docstring and no re-exports; no file of the app passes 265 lines;
* the Streamlit-free packages of the app (``pages/room/``) import neither
  Streamlit nor a module of ``pages/`` outside themselves, and, holding
  logic rather than drawing, may grow to 400 lines a file.

The imports are read with ``ast``, so a lazy import inside a function counts
as much as one at the top of a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


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
#: not the engine's.  pages/runtime/caches.py expires closed Streamlit sessions
#: through Streamlit's session manager (``Runtime.instance()._session_mgr``,
#: its ``_session_storage._cache`` and ``_storage_lock``): Streamlit
#: internals, pinned to one release and checked by tests/app/test_memory.py.
#: pages/runtime/push.py reruns a student's room bar from the server, as
#: Streamlit reruns a page when its source changes: on the session's
#: ``_event_loop``, with its ``_client_state``, once its ``_scriptrunner`` is
#: idle; checked by tests/browser/test_room_browser.py.
#: pages/runtime/budget.py ends a forked child with ``os._exit`` (Python's
#: documented way out of a child of ``os.fork``, its name private by
#: convention only).
#: Keyed by file name, not folder, so that the pages can move into packages.
NOT_THE_ENGINES = {
    ("caches.py", "_session_mgr"),
    ("caches.py", "_session_storage"),
    ("caches.py", "_cache"),
    ("caches.py", "_storage_lock"),
    ("push.py", "_event_loop"),
    ("push.py", "_client_state"),
    ("push.py", "_scriptrunner"),
    ("budget.py", "_exit"),
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
    assert len(private_attributes(ROOT / "pages" / "grow.py", source)) == 2


@pytest.mark.parametrize("path", UNDER_DTREE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_under_dtree_imports_streamlit(path):
    assert not [m for _, m, n in imported(path) if reaches(m, n, "streamlit")]


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
def test_the_tables_do_not_import_the_views(path):
    assert not [m for _, m, n in imported(path) if reaches(m, n, "dtree.views")]


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


#: The app's Streamlit-free packages: logic only the app needs (a lecture
#: room's rules and where rooms are kept), tested without Streamlit.  One
#: role a file, but not held to a page's length.
STREAMLIT_FREE = ("pages/room",)
STREAMLIT_FREE_LINES = 400


def page_files():
    """app.py and every file under pages/, its sub-packages included."""
    return sorted([ROOT / "app.py", *(ROOT / "pages").rglob("*.py")])


def streamlit_free(path: Path) -> bool:
    return path.relative_to(ROOT).parent.as_posix() in STREAMLIT_FREE


def test_pages_stay_short():
    """Pages read state, call and render; the computation lives in the views
    and tables, so no file of the app grows much past 250 lines (the
    Streamlit-free packages: 400)."""
    long = {path.relative_to(ROOT).as_posix(): n for path in page_files()
            if (n := len(path.read_text(encoding="utf-8").splitlines()))
            > (STREAMLIT_FREE_LINES if streamlit_free(path) else PAGE_LINES)}
    assert long == {}, f"move computation into dtree/views or dtree/tables: {long}"


def outside_imports(path, source=None):
    """The imports of a Streamlit-free file that reach Streamlit, or a module
    of pages/ outside its own package (which might reach Streamlit)."""
    package = path.relative_to(ROOT).parent.as_posix().replace("/", ".")
    return [f"{path.relative_to(ROOT)}:{line} imports {module}"
            for line, module, name in imported(path, source)
            if reaches(module, name, "streamlit")
            or (reaches(module, name, "pages") and not reaches(module, name, package))]


@pytest.mark.parametrize("path", [p for p in page_files() if streamlit_free(p)],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_streamlit_free_packages_stay_free_of_it(path):
    assert outside_imports(path) == []


@pytest.mark.parametrize("source", [
    "import streamlit as st\n",
    "def f():\n    from streamlit import session_state\n",
    "from pages.state.session import current_language\n",
    "from pages import grow\n",
])
def test_the_check_catches_streamlit_in_a_streamlit_free_package(source):
    path = ROOT / "pages" / "room" / "store.py"
    assert streamlit_free(path) and outside_imports(path, source)
    assert outside_imports(path, "from pages.room.model import Room\nimport numpy\n") == []


#: No module of the engine, the views or the tables grows past this: one role
#: per file, split long before a module gets hard to read.
MODULE_LINES = 1000


def test_modules_stay_under_a_thousand_lines():
    long = {path.relative_to(ROOT).as_posix(): n for path in UNDER_DTREE
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES}
    assert long == {}, f"split these by concern: {long}"


def test_the_page_check_sees_the_pages():
    names = {path.relative_to(ROOT).as_posix() for path in page_files()}
    assert {"app.py", "pages/grow.py", "pages/compare.py", "pages/prune.py", "pages/learn.py",
            "pages/data.py", "pages/panels/sidebar.py", "pages/state/session.py",
            "pages/runtime/caches.py", "pages/language/terms.py", "pages/room/store.py"} <= names


# ---------------------------------------------------------------------------
# No import circles among the app's modules and dtree's
# ---------------------------------------------------------------------------

#: app.py, pages/ (its sub-packages too) and dtree/: every module whose
#: imports are followed, by its dotted name ("app" for app.py).
GRAPHED = {module_name(p): p for p in files("app.py", "pages/**/*.py", "dtree/**/*.py")}


def import_target(module: str, name: str | None, known) -> str | None:
    """The module of ``known`` that an import loads: ``from pages.state
    import imported`` loads the module ``pages.state.imported``, ``from
    dtree.tables.prepare import Setup`` the module ``dtree.tables.prepare``;
    None for anything outside (numpy, streamlit...)."""
    if name not in (None, "*") and f"{module}.{name}" in known:
        return f"{module}.{name}"
    return module if module in known else None


def import_graph(sources=None):
    """{module: {imported module: line}} for :data:`GRAPHED`, lazy imports
    inside functions included; ``sources`` ({module: source}) replaces the
    text of some modules (for the tests of the check itself)."""
    sources = sources or {}
    graph = {}
    for module, path in GRAPHED.items():
        edges = graph.setdefault(module, {})
        for line, imported_module, name in imported(path, sources.get(module)):
            target = import_target(imported_module, name, GRAPHED)
            if target is not None and target != module:
                edges.setdefault(target, line)
    return graph


def import_circles(graph) -> list[str]:
    """Every circle of ``graph`` (one per strongly connected group of modules,
    found by depth-first search), written ``a:12 -> b:3 -> a``: each module
    with the line of its import of the next; a group larger than the circle
    shown is listed after it."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(module):  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph.get(module, {}):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    circles = []
    for group in groups:  # one circle through the group's first module, as a path
        start = min(group)
        path, seen = [start], {start}
        while True:
            targets = [t for t in sorted(graph[path[-1]]) if t in group]
            back = start if start in targets else None
            step = back or next((t for t in targets if t not in seen), targets[0])
            path.append(step)
            if step in seen:
                break
            seen.add(step)
        path = path[path.index(path[-1]):]
        circle = " -> ".join(f"{m}:{graph[m][n]}" for m, n in zip(path, path[1:]))
        circle += f" -> {path[-1]}"
        if len(group) > len(path) - 1:
            circle += f" (one knot of circles: {', '.join(sorted(group))})"
        circles.append(circle)
    return circles


def test_the_import_graph_sees_the_app_and_dtree():
    graph = import_graph()
    assert {"app", "pages.grow", "pages.state.session", "pages.runtime.caches",
            "pages.panels.sidebar", "dtree", "dtree._search", "dtree.views.viz",
            "dtree.tables.prepare"} <= set(graph)
    assert "pages.state.imported" in graph["pages.state.tables_state"]  # from pages.state import
    assert "dtree" in graph["dtree.views.viz"]  # from .. import
    assert "pages.panels.export_panel" in graph["pages.panels.grow_panels"]  # a lazy import


def test_there_are_no_import_circles():
    """No module of the app or of dtree imports, directly or through others,
    a module that imports it (a lazy import inside a function counts too):
    each name is imported from the module that defines it, and the arrows
    point one way."""
    assert import_circles(import_graph()) == []


@pytest.mark.parametrize("module, source", [
    ("pages.runtime.caches", "def f():\n    from pages.state.tables_state import current_table\n"),
    ("pages.state.session", "from pages.state import current_tree\n"),
    ("dtree._tree", "import dtree._partition\n"),
    ("dtree.tables.io", "def f():\n    from dtree.tables import prepare\n"),
])
def test_the_check_catches_an_import_circle(module, source):
    """A module made to import one of its importers (lazily or not) is caught."""
    original = GRAPHED[module].read_text(encoding="utf-8")
    circles = import_circles(import_graph({module: original + source}))
    assert circles and any(module in circle for circle in circles), circles


# ---------------------------------------------------------------------------
# pages/ holds at its top only the pages st.navigation lists
# ---------------------------------------------------------------------------


def navigation_pages(source: str) -> set:
    """The scripts of the ``st.Page("pages/x.py", ...)`` calls in app.py."""
    return {node.args[0].value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Page"
            and node.args and isinstance(node.args[0], ast.Constant)}


def test_the_top_of_pages_holds_exactly_the_registered_pages():
    """Streamlit's legacy multipage mode treats every .py file at the top of
    pages/ as a page: only the pages app.py's st.navigation lists are there;
    panels, session state and the caches live in sub-packages."""
    registered = navigation_pages((ROOT / "app.py").read_text(encoding="utf-8"))
    assert registered >= {"pages/data.py", "pages/grow.py", "pages/prune.py"}
    top = {p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py")}
    assert top == registered


SUBPACKAGES = sorted(p for p in (ROOT / "pages").iterdir()
                     if p.is_dir() and any(p.glob("*.py")))


def test_the_sub_packages_are_there():
    assert {p.name for p in SUBPACKAGES} >= {"panels", "state", "runtime"}


@pytest.mark.parametrize("package", SUBPACKAGES, ids=lambda p: p.name)
def test_each_sub_package_says_what_it_holds_and_re_exports_nothing(package):
    """An ``__init__.py`` with a docstring and nothing else: each name is
    imported from the module that defines it."""
    init = package / "__init__.py"
    assert init.exists()
    body = ast.parse(init.read_text(encoding="utf-8")).body
    assert ast.get_docstring(ast.Module(body=body, type_ignores=[]))
    assert len(body) == 1, f"{init.relative_to(ROOT)} holds more than its docstring"
