"""What the app lets the user choose for a table and its tree: the defaults,
the rules between the choices, and their names in English or Chinese.

* the growth orders and the tree parameters' defaults; the splitter a table
  starts on (``hist`` above :data:`HIST_ROWS` rows) and where ``hist``
  applies;
* :func:`chosen_parameters`: the preset, criterion and parameters read from
  a mapping of settings (the session's), a stale one replaced;
* :func:`feature_choice`: the features the Data page offers, and the
  identifiers its "all other columns" leaves out;

No Streamlit: ``pages/state/parameters.py`` passes the session state in.
"""

from __future__ import annotations

from typing import NamedTuple

from .prepare import criteria_for

#: The growth orders (their names: ``dtree.views.vocabulary``).
GROWTH = ("depth_first", "best_first", "breadth_first")
DEFAULTS = {"splitter": "best", "growth": "depth_first", "max_depth": 5,
            "min_samples_split": 2, "min_samples_leaf": 1, "max_leaf_nodes": None,
            "min_impurity_decrease": 0.0, "random_state": 0}
#: Tables with more rows than this start on the histogram splitter.
HIST_ROWS = 200_000
#: At most this many features are chosen when the user starts choosing them.
FIRST_FEATURES = 20

def default_splitter(n_rows: int) -> str:
    """The splitter a table of ``n_rows`` rows starts on."""
    return "hist" if n_rows > HIST_ROWS else "best"


def hist_applies(preset: str, criterion: str) -> bool:
    """splitter="hist" grows binary CART trees from sums (not absolute_error)."""
    return preset == "CART" and criterion != "absolute_error"


def chosen_parameters(task: str, choices) -> tuple[str, str, dict]:
    """(preset, criterion, parameters) from ``choices`` (a mapping: the
    sidebar's settings), with the defaults for what it lacks: a criterion
    the preset does not allow becomes its first one, whole numbers given as
    floats become ints, and ``hist`` where it does not apply becomes ``best``.

    >>> chosen_parameters("regression", {"preset": "ID3", "max_depth": 3.0})[:2]
    ('CART', 'squared_error')
    """
    preset = choices.get("preset", "CART") if task == "classification" else "CART"
    criterion = choices.get("criterion")
    options = criteria_for(task, preset)
    if criterion not in options:
        criterion = options[0]
    params = {k: choices.get(k, v) for k, v in DEFAULTS.items()}
    params = {k: (int(v) if isinstance(v, float) and k != "min_impurity_decrease" else v)
              for k, v in params.items()}
    if params["splitter"] == "hist" and not hist_applies(preset, criterion):
        params["splitter"] = "best"  # (the sidebar says so)
    return preset, criterion, params


class FeatureChoice(NamedTuple):
    """The Data page's feature choices for one target."""

    others: list  # every column but the target
    skipped: list  # the identifiers among them, which "all" leaves out
    n_all: int  # how many features "all" uses (every other column if only identifiers)
    first: list  # what "choose" starts with

    @property
    def leaves_out(self) -> bool:
        """True when "all" leaves identifiers out (and the page says which)."""
        return bool(self.skipped) and self.n_all < len(self.others)


def feature_choice(columns, target, identifiers) -> FeatureChoice:
    """The features offered beside ``target``: ``identifiers`` (from
    ``identifier_columns``) are left out of "all" unless nothing else is
    left, and "choose" starts with the first :data:`FIRST_FEATURES` others."""
    others = [c for c in columns if c != target]
    skipped = [c for c in identifiers if c != target]
    n_all = len(others) - len(skipped) if len(skipped) < len(others) else len(others)
    first = [c for c in others if c not in skipped][:FIRST_FEATURES] or others[:FIRST_FEATURES]
    return FeatureChoice(others, skipped, n_all, first)
