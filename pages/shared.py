"""State and caches shared by the pages (the only Streamlit-aware helpers).

Session state:

* ``table``: the dataset in use, a :class:`Loaded` (a built-in one at start);
* the data page's widgets (``target``, ``task``, ``feature_mode``,
  ``features``, ``categorical``, ``test_size``, ``seed``) and the grow
  page's tree parameters keep their values across pages
  (``persist_state="session"``); :func:`current_setup` reads them, with
  inferred defaults for any the user has not touched.

Caches: the prepared matrices and the fitted models are kept in
:data:`MODELS`, one process-wide :class:`pages.memory.SizedLRU` shared by
every session (read-only values), keyed by the dataset's key (a content
hash for uploads) and the plain settings, and bounded by estimated bytes
(``DTREE_MODELS_MB``, 300 MB by default): a class on one link fits a built-in
dataset once, and 60 different uploads cannot fill the server's memory.  A
fitted model with its recorded steps is costly to pickle, which
``st.cache_data`` would do on every rerun.

Beside this module: :mod:`pages.fits` (the :class:`Fit` and what derives
from it, no Streamlit), :mod:`pages.sidebar` (the Grow page's sidebar) and
:mod:`pages.url_state` (the view in the URL); ``Fit``, ``step_dot`` and
``sidebar_controls`` can still be imported from here.
"""

from __future__ import annotations

import hashlib
import sys
import threading
import weakref
from dataclasses import dataclass, field

import pandas as pd
import streamlit as st

from dtree.views import links
from dtree.tables.io import BUILTIN, DataError, load_builtin, read_table
from dtree.tables.prepare import (CLASSIFICATION_CRITERIA, REGRESSION_CRITERIA, Setup,
                                  column_summary, criteria_for, estimator_for, identifier_columns,
                                  infer_types, prepare, setup_from_choices)
from pages.fits import Fit, _size, step_dot
from pages.janitor import request_trim, start_janitor
from pages.memory import MB, SizedLRU, budget_mb
from pages.terms import CRITERIA_ZH, DATASETS_ZH, GROWTH_ZH, message_zh, zh

DEFAULT_DATASET = "Iris"
md = links.md  # user text made literal for Markdown (the pages import it from here)
SETUP_KEYS = ("target", "task", "feature_mode", "features", "categorical", "test_size",
              "seed")


# ---------------------------------------------------------------------------
# Interface language
# ---------------------------------------------------------------------------

LANGUAGES = {"en": "English", "zh": "中文"}


def lang() -> str:
    """The interface language: "en" or "zh" (the frame's switch, kept in the
    URL as ?lang=)."""
    return "zh" if st.session_state.get("lang") == "zh" else "en"


def tr(en: str, zh: str) -> str:
    """The text in the interface language: ``tr("Next step", "下一步")``."""
    return zh if lang() == "zh" else en


def said(message) -> str:
    """One of the engine's messages (an error or a note, plain text in
    English) in the interface language: known ones are looked up in
    ``pages.terms.MESSAGES_ZH``.  Escape the result as before (``md``)."""
    return message_zh(message) if lang() == "zh" else str(message)


def presenting() -> bool:
    """Presenter mode (the frame's toggle, kept in the URL as ?present=)."""
    return bool(st.session_state.get("present", False))


def shown_step(key: str, last: int) -> int:
    """The step a stepping page shows: its slider's value (kept in session
    state under ``key``), or on a session's first run, before the slider
    (bound to ``?key=``) exists, the link's, within 0..``last``; 0 when
    absent or unreadable.  A link past the end means the last step, and is
    written to the session so that the slider takes it too (it would fall
    back to its default, 0)."""
    state = st.session_state
    if key in state:
        return int(min(max(int(state[key] or 0), 0), last))
    asked = st.query_params.get(key)
    try:
        step = min(max(int(asked or 0), 0), last)
    except ValueError:
        return 0
    if asked not in (None, str(step)):
        state[key] = step
    return step


def step_button(where, label: str, key: str, icon: str, compact: bool, **kwargs) -> None:
    """A stepping button in ``where`` (a bar): its label, or in presenter mode
    (``compact``) only its icon, with the label as its tooltip."""
    where.button("" if compact else label, key=key, icon=icon,
                 help=label if compact else None, **kwargs)


def keys_legend(extra: str = "") -> None:
    """Presenter mode: the stepping keys, small, in the window's corner
    (app.py's CSS places containers keyed keys_legend*)."""
    keys = tr("keys: ← → step · Home first · End last",
              "快捷键：← → 上一步/下一步 · Home 第一步 · End 最后一步")
    with st.container(key="keys_legend"):
        st.caption(f"{keys} · {extra}" if extra else keys)


def require_frame() -> None:
    """Make sure app.py (the frame) runs around this page.

    Until ``st.navigation`` has run once in the server process, Streamlit
    treats a folder named ``pages/`` beside the main script as a legacy
    multipage app (``PagesManager.uses_pages_directory``): the very first run
    after the server starts, when its URL names a page (``/compare``), runs
    that page's script on its own, without the frame.  Such a run stops
    here and asks for a rerun of the same URL with the legacy mode off, so
    that the frame runs and opens the page with its query string intact
    (presenter mode, language, step...).  ``st.switch_page`` would drop the
    query string, and bound widgets (the presenter toggle) would then write
    their defaults back into the URL.
    """
    if st.session_state.get("_framed"):
        return
    from streamlit.runtime.pages_manager import PagesManager

    # (what st.navigation itself sets on its first call; Streamlit is pinned
    # to 1.67.*, and tests/test_app_pages.py checks this path)
    PagesManager.uses_pages_directory = False
    st.rerun()


# ---------------------------------------------------------------------------
# The dataset in use
# ---------------------------------------------------------------------------


@dataclass
class Loaded:
    """A dataset in the session: a built-in one or an upload."""

    key: str  # identifies the content, for caches
    title: str
    frame: pd.DataFrame
    notes: list = field(default_factory=list)
    default_target: str | None = None
    default_test_size: float = 0.25


@st.cache_resource(show_spinner=False, max_entries=8)
def _builtin(title: str) -> pd.DataFrame:
    return load_builtin(title)


def builtin_table(title: str) -> Loaded:
    spec = BUILTIN[title]
    return Loaded(f"builtin:{title}", title, _builtin(title), default_target=spec.target,
                  default_test_size=spec.test_size)


def upload_table(data: bytes, filename: str) -> Loaded:
    """Parse an upload; raises DataError."""
    table = read_table(data, filename)
    digest = hashlib.sha256(data).hexdigest()[:16]
    return hold_upload(Loaded(f"upload:{digest}", filename, table.frame, table.notes))


#: upload key -> how many Loaded objects (sessions' tables) hold it now
_upload_holders: dict[str, int] = {}
_upload_lock = threading.Lock()


def hold_upload(table: Loaded) -> Loaded:
    """Count ``table`` as a holder of its upload key: when the last holder
    is gone (its sessions ended, or they chose other data), what the caches
    keep for that upload (prepared data, fits and what derives from them)
    is released at once rather than when the size budget pushes it out, and
    the heap is trimmed (see :func:`release_upload`)."""
    key = table.key
    with _upload_lock:
        _upload_holders[key] = _upload_holders.get(key, 0) + 1
    weakref.finalize(table, release_upload, key)
    return table


def release_upload(key: str) -> bool:
    """One holder of upload ``key`` is gone; when it was the last, drop the
    cache entries of that upload and ask for a heap trim.  True if dropped."""
    with _upload_lock:
        left = _upload_holders.get(key, 0) - 1
        if left > 0:
            _upload_holders[key] = left
            return False
        _upload_holders.pop(key, None)
    MODELS.discard_where(lambda k: isinstance(k, tuple) and key in k)
    request_trim()
    return True


def table_title(table: Loaded) -> str:
    """The dataset's title in the interface language (a built-in one has a
    Chinese name; an upload keeps its file name)."""
    if lang() == "zh" and table.key.startswith("builtin:") and table.title in DATASETS_ZH:
        return DATASETS_ZH[table.title][0]
    return table.title


def current_table() -> Loaded:
    if "table" not in st.session_state:
        st.session_state["table"] = builtin_table(DEFAULT_DATASET)
    return st.session_state["table"]


def use_table(table: Loaded) -> None:
    """Make ``table`` the dataset in use and forget the old column choices."""
    st.session_state["table"] = table
    st.session_state.pop("imported", None)  # (a tree opened from a .skops file: closed)
    for key in SETUP_KEYS + ("step", "inspect", "playing"):
        st.session_state.pop(key, None)


@st.cache_data(show_spinner=False, max_entries=32)
def inferred_types(key: str, _frame: pd.DataFrame):
    return infer_types(_frame)


@st.cache_data(show_spinner=False, max_entries=32)
def identifiers(key: str, _frame: pd.DataFrame) -> list:
    return identifier_columns(_frame)


@st.cache_data(show_spinner=False, max_entries=32)
def summary(key: str, _frame: pd.DataFrame, _types: dict) -> pd.DataFrame:
    return column_summary(_frame, _types)


def default_target(table: Loaded) -> str:
    if table.default_target in table.frame.columns:
        return table.default_target
    return str(table.frame.columns[-1])


def current_setup(table: Loaded) -> Setup:
    """The data page's choices, or their defaults."""
    frame = table.frame
    state = st.session_state
    types, _ = inferred_types(table.key, frame)
    skip = identifiers(table.key, frame) if state.get("feature_mode") != "choose" else ()
    return setup_from_choices(frame, state, default_target=default_target(table),
                              default_test_size=table.default_test_size,
                              identifiers=skip, types=types)


# ---------------------------------------------------------------------------
# The tree's parameters (the Grow page's sidebar; other pages read them)
# ---------------------------------------------------------------------------

GROWTH = {"depth_first": "depth-first", "best_first": "best-first",
          "breadth_first": "breadth-first"}
DEFAULTS = {"splitter": "best", "growth": "depth_first", "max_depth": 5,
            "min_samples_split": 2, "min_samples_leaf": 1, "max_leaf_nodes": None,
            "min_impurity_decrease": 0.0, "random_state": 0}
NAMES = {**CLASSIFICATION_CRITERIA, **REGRESSION_CRITERIA}
#: Tables with more rows than this start on the histogram splitter.
HIST_ROWS = 200_000


def default_splitter(table: Loaded) -> str:
    return "hist" if len(table.frame) > HIST_ROWS else "best"


def _start_splitter(state) -> None:
    """Each table starts on its default splitter (hist above HIST_ROWS rows);
    what the user then chooses stays until another table is opened.  A
    splitter given in the link of the first run is kept."""
    table = current_table()
    before = state.get("splitter_table")
    if before != table.key:
        state["splitter_table"] = table.key
        if before is not None or "splitter" not in state:
            state["splitter"] = default_splitter(table)


def hist_applies(preset: str, criterion: str) -> bool:
    """splitter="hist" grows binary CART trees from sums (not absolute_error)."""
    return preset == "CART" and criterion != "absolute_error"


def chosen_parameters(task):
    """(preset, criterion, parameters) from the sidebar's state or the defaults
    (read before the widgets are drawn, which may be later in the run)."""
    state = st.session_state
    preset = state.get("preset", "CART") if task == "classification" else "CART"
    options = criteria_for(task, preset)
    if state.get("criterion") not in options:
        state["criterion"] = options[0]
    _start_splitter(state)
    params = {k: state.get(k, v) for k, v in DEFAULTS.items()}
    params = {k: (int(v) if isinstance(v, float) and k != "min_impurity_decrease" else v)
              for k, v in params.items()}
    if params["splitter"] == "hist" and not hist_applies(preset, state["criterion"]):
        params["splitter"] = "best"  # (the sidebar says so)
    return preset, state["criterion"], params


def hist_notice(table: Loaded, params: dict) -> None:
    """Say that a large table is grown with the histogram splitter, and how to switch."""
    if params.get("splitter") != "hist" or len(table.frame) <= HIST_ROWS:
        return
    rows = len(table.frame)
    st.info(tr(f"This table has {rows:,} rows, so the tree is grown with the histogram "
               "splitter (splitter = hist): each feature is binned once into at most 255 "
               "bins, and thresholds fall between bins. Choose splitter = best in the "
               "sidebar to try every threshold (slower).",
               f"该表有 {rows:,} 行，因此用直方图划分方式（splitter = hist）生长决策树：每个特征"
               "预先分成至多 255 个箱，阈值落在箱与箱之间。在侧边栏选择 splitter = best 可尝试"
               "每一个阈值（较慢）。"), icon=":material/speed:")


def criterion_name(criterion: str) -> str:
    """A criterion's name in the interface language."""
    english = NAMES.get(criterion, criterion)
    return zh(CRITERIA_ZH, criterion, english) if lang() == "zh" else english


def growth_name(growth: str) -> str:
    """A growth order's name in the interface language."""
    english = GROWTH.get(growth, growth)
    return zh(GROWTH_ZH, growth, english) if lang() == "zh" else english


# ---------------------------------------------------------------------------
# Preparing and fitting
# ---------------------------------------------------------------------------


#: Prepared data, fitted trees and what is derived from them, for every
#: session of this process.  Keys start with what they are ("prepared",
#: "fit", ...) and hold nothing session-specific: the dataset's key and the
#: plain settings.  Bounded by estimated bytes (and entries).
MODELS = SizedLRU(budget_mb("models", 300) * MB, max_entries=256, size_of=_size,
                  name="models")


def _watched_caches() -> dict:
    caches = {"models": MODELS}
    exports = sys.modules.get("pages.export_panel")
    if exports is not None:
        caches["exports"] = exports.FILES
    return caches


def reap_closed_sessions() -> int:
    """Drop the closed sessions whose time to reconnect is over; how many.

    Streamlit keeps a closed session for ``server.disconnectedSessionTTL``
    (120 s) in a TTL cache (``MemorySessionStorage``) that removes expired
    entries only when another session is saved into it: on a server that
    went quiet after a class, never.  Their session state (uploaded tables,
    fits held through them) then stays until the next student closes a tab.
    This asks that cache to expire what is due, under the session manager's
    own lock.  Streamlit internals, pinned to 1.67.* (tests/test_memory.py
    checks the path); anything unexpected does nothing."""
    try:
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return 0
        manager = Runtime.instance()._session_mgr
        cache = manager._session_storage._cache
        with manager._storage_lock:
            return len(cache.expire())
    except (AttributeError, TypeError, RuntimeError):
        return 0


start_janitor(_watched_caches, reap_closed_sessions)  # once per process (pages.janitor)


def _prepared(key: str, setup: Setup, _frame: pd.DataFrame):
    def make():
        try:
            return prepare(_frame, setup), None
        except DataError as exc:
            return None, str(exc)
    return MODELS.get_or_create(("prepared", key, setup), make)


def prepared(table: Loaded, setup: Setup):
    """(Prepared, None) or (None, message)."""
    return _prepared(table.key, setup, table.frame)


def shared_result(kind: str, key: tuple, make):
    """``make()`` computed once for the whole process and kept in
    :data:`MODELS` (size-bounded) under ``(kind, *key)``: for values derived
    from a fit that are costly (read-only, shared by every session)."""
    return MODELS.get_or_create((kind, *key), make)


def _fit(key: str, setup: Setup, preset: str, criterion: str, params: tuple, _prep):
    """The Fit for these settings, grown once for every session of the
    process (concurrent sessions wait for the one that grows it)."""
    cache_key = ("fit", key, setup, preset, criterion, params)

    def make():
        prep = _prep
        if preset == "ID3" and setup.task == "classification":
            prep = prep.complete_rows()  # ID3 has no rule for missing values
        model = estimator_for(setup.task, preset, criterion, prep,
                              **dict(params)).fit(prep.X_train, prep.y_train)
        return Fit(model, prep, base=_prep)

    fit = MODELS.get_or_create(cache_key, make)
    MODELS.remeasure(cache_key)  # its derived parts may have grown since
    return fit


def fitted(table: Loaded, setup: Setup, prep, preset: str, criterion: str, params: dict):
    """(Fit, None) or (None, message); cached, with a progress message while
    the tree grows."""
    args = (table.key, setup, preset, criterion, tuple(sorted(params.items())), prep)
    rows, cols = prep.X_train.shape
    with st.spinner(tr(f"Growing the tree on {rows:,} rows × {cols:,} features…",
                       f"正在 {rows:,} 个样本 × {cols:,} 个特征上生长决策树…"),
                    show_time=True):
        try:
            return _fit(*args), None
        except (ValueError, TypeError, DataError) as exc:  # what the engine refuses
            return None, str(exc)


def current_fit(preset=None, criterion=None, **overrides):
    """The tree of the current data with the Grow page's parameters (or the
    given ones): ``(Fit, None)`` or ``(None, message)``.

    ``overrides`` replace single parameters (``max_depth=None``...).  The
    message is plain text: show it with ``st.error(md(message))``.

    While a tree opened from a .skops file is in use (``pages.imported``):
    that tree, whatever the parameters.
    """
    from pages import imported
    opened = imported.current()
    if opened is not None:
        return opened.fit, None
    table = current_table()
    setup = current_setup(table)
    prep, error = prepared(table, setup)
    if error:
        return None, error
    chosen_preset, chosen_criterion, params = chosen_parameters(setup.task)
    preset = chosen_preset if preset is None else preset
    if criterion is None:
        criterion = chosen_criterion if preset == chosen_preset else \
            criteria_for(setup.task, preset)[0]
    params.update(overrides)
    return fitted(table, setup, prep, preset, criterion, params)


from pages.sidebar import sidebar_controls  # noqa: E402  (the Grow page imports it from here)

#: Names the pages import from here, defined in pages.fits and pages.sidebar.
REEXPORTED = (Fit, step_dot, sidebar_controls)
