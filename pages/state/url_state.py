"""The view in the URL: a lecturer's prepared link opens the dataset and the
settings it names, and every run writes the view back into the address.

The parsing and the words are plain functions in :mod:`dtree.views.links`;
this module reads and writes ``st.query_params`` and the session state.
"""

from functools import partial

import streamlit as st

from dtree.tables.io import BUILTIN, find_builtin
from dtree.tables.prepare import CLASSIFICATION_CRITERIA, PRESETS, REGRESSION_CRITERIA
from dtree import MAX_RESAMPLES, RESAMPLE_METHODS
from dtree.views import links, manual
from dtree.views.comparetext import MODES, RESAMPLE_CHARTS, chart_names
from dtree.views.predictiontext import SOURCES, source_names
from dtree.views.prunetext import VIEWS, view_name
from dtree.views.vocabulary import criterion_name, growth_name
from dtree.tables.choices import GROWTH
from pages.state.session import lang
from pages.state.tables_state import builtin_table, current_table, table_title

_one_of, _number, _text = links.one_of, links.number, links.text
_CRITERIA = (*CLASSIFICATION_CRITERIA, *REGRESSION_CRITERIA)


#: The names the choices below show, ``name(key, lang)``.  Such a choice is
#: kept in the URL by its key (``?prune_view=ebp``), not by the name its
#: widget shows in the interface language, so that a link opens the same
#: view in either language; a name in English or Chinese (what the URL
#: held before) still reads as its key, so that older links keep working.
_NAMES = {
    "criterion": (partial(criterion_name, short=True), criterion_name),
    "chart": (lambda key, lang: chart_names(True, lang)[key],
              lambda key, lang: chart_names(False, lang)[key]),
    "source": (lambda key, lang: source_names("test", lang)[key],
               lambda key, lang: source_names("train", lang)[key]),
}


#: Session-state keys kept in the URL, with how to read (and check) them:
#: a link with a value that does not parse, or is out of range, leaves that
#: setting at its default.  Lists (features) use repeated parameters.  The
#: step (``step``) and presenter mode (``present``) are bound by their
#: widgets; the language by app.py.
URL_STATE = {
    # data page
    "target": _text, "task": _one_of("auto", "classification", "regression"),
    "feature_mode": _one_of("all", "choose"), "features": list, "categorical": list,
    "test_size": _number(float, 0.0, 0.5), "seed": _number(int, 0, 2**31 - 1),
    # the tree's parameters (Grow page's sidebar; ranges as its widgets')
    "preset": _one_of(*PRESETS),
    "criterion": _one_of(*CLASSIFICATION_CRITERIA, *REGRESSION_CRITERIA),
    "splitter": _one_of("best", "random", "hist"), "growth": _one_of(*GROWTH),
    "max_depth": _number(int, 1, 64, none=True),
    "min_samples_split": _number(int, 2, 10_000),
    "min_samples_leaf": _number(int, 1, 10_000),
    "max_leaf_nodes": _number(int, 2, 10_000, none=True),
    "min_impurity_decrease": _number(float, 0.0, 10.0),
    "random_state": _number(int, 0, 2**31 - 1),
    "layout": _one_of("auto", "top down", "left to right"),
    "edges": links.flag("samples"),  # edge widths by the rows that pass (Grow page)
    # the Grow page's drawing: focus (folded to fit) or the whole tree, brief
    # or full boxes (defaults: focus and brief in presenter mode), and the
    # node ids the user folded or opened by clicking
    "tree_view": _one_of("focus", "whole"), "details": _one_of("brief", "full"),
    "fold": links.node_list(), "unfold": links.node_list(),
    # the Prune page's cost-complexity view: the full tree alone with its
    # pruned branches greyed, or beside the pruned tree (default: one in
    # presenter mode, two otherwise)
    "prune_trees": _one_of("one", "two"),
    # the Compare page's view (trees of different settings, or resamples)
    # and its resamples' draw and chart (pages/panels/resamples_panel.py)
    "cmp_mode": _one_of(*MODES), "cmp_resamples": _number(int, 1, MAX_RESAMPLES),
    "cmp_method": _one_of(*RESAMPLE_METHODS), "cmp_drop": _number(int, 5, 50),
    "cmp_rseed": _number(int, 0, 2**31 - 1), "cmp_rchart": _one_of(*RESAMPLE_CHARTS),
    # the chart under the trees (named, as below: see _NAMES)
    "cmp_chart": links.named(tuple(chart_names(True)), *_NAMES["chart"]),
    # each tree's criterion and growth order (Compare page, trees 1 to 4)
    **{f"cmp_c{n}": links.named(_CRITERIA, *_NAMES["criterion"]) for n in range(1, 5)},
    **{f"cmp_g{n}": links.named(GROWTH, growth_name) for n in range(1, 5)},
    # the Prune page's method (cost-complexity, weakest-link steps, REP and
    # PEP, C4.5's EBP)
    "prune_view": links.named(VIEWS, view_name),
    # what the Grow page shows; the sample it predicts: a row or one's own values
    "pred_src": links.named(SOURCES, *_NAMES["source"]),
    "inspect": _number(int, 0, 10**9, none=True), "panel": _text,
    # the splits chosen by hand on the Grow page (forced_splits as compact
    # JSON; the engine checks them against the data when it fits)
    "forced": manual.read_spec_text,
}
#: Keys whose widget reads "no limit" as None (written as "none").
_NONE_KEYS = {"max_depth", "max_leaf_nodes", "inspect"}


def restore_view_from_url() -> None:
    """On a session's first run, take the dataset and the view from the URL
    (a link a lecturer prepared).  ``?data=`` is a built-in dataset's short
    key or its title (any case).  An unknown dataset, and values that do not
    parse, are ignored but not silently: what was ignored is kept in
    ``_url_problems`` for :func:`url_warning`."""
    state = st.session_state
    if state.get("_url_restored"):
        return
    state["_url_restored"] = True
    params = st.query_params
    problems = {"data": None, "ignored": []}
    name = params.get("data")
    if name is not None:
        title = find_builtin(name)
        if title is None:
            problems["data"] = name
        elif "table" not in state:
            state["table"] = builtin_table(title)
    given = {key: params.get_all(key) for key in URL_STATE if key in params}
    values, problems["ignored"] = links.read_link(given, URL_STATE, state.__contains__)
    for key, value in values.items():
        state[key] = value
    if problems["data"] is not None or problems["ignored"]:
        state["_url_problems"] = problems


def url_warning(page: str) -> str | None:
    """The warning about the link this session was opened with (an unknown
    dataset, parameters that were ignored), in the interface language, for
    the page the link opened (``page``, its url_path): it stays there while
    the page reruns (a click, a step)
    and is dropped once another page runs.  None when there is nothing to say."""
    problems = st.session_state.get("_url_problems")
    if not problems:
        return None
    if problems.setdefault("page", page) != page:
        del st.session_state["_url_problems"]
        return None
    return links.link_warning(problems["data"], problems["ignored"],
                              dataset_keys=[spec.key for spec in BUILTIN.values()],
                              shown=table_title(current_table()), lang=lang())


def write_view_to_url() -> None:
    """Put the dataset (when built in) and the view into the URL, in one
    update and only when something changed (each change is a message to
    the browser)."""
    state = st.session_state
    params = st.query_params
    current = {k: params.get_all(k) for k in params}
    table = state.get("table")
    data = None
    if table is not None and table.key.startswith("builtin:"):
        spec = BUILTIN.get(table.title)
        data = spec.key if spec is not None and spec.key else table.title
    wanted = links.link_params(current, state, URL_STATE, _NONE_KEYS, data=data, lang=lang())
    for key in current.keys() - wanted.keys():
        del params[key]
    for key, values in wanted.items():
        if current.get(key) != values:  # (bound widgets' keys never differ here)
            params[key] = values[0] if len(values) == 1 else values
