"""The app's trees outside Streamlit: a built-in dataset with the Data page's
default choices, grown as the Grow page grows it (for tests of the views
that draw real-size trees)."""

from __future__ import annotations

from functools import lru_cache

from dtree.tables.choices import DEFAULTS, chosen_parameters
from dtree.tables.dataset import builtin, default_target
from dtree.tables.io import load_builtin
from dtree.tables.prepare import (estimator_for, identifier_columns, infer_types,
                                  prepare, setup_from_choices)


@lru_cache(maxsize=16)
def app_model(title: str, preset: str = "CART", **changes):
    """The model the Grow page grows on the built-in ``title`` ("Penguins",
    "Wine"...) under ``preset`` with the sidebar's defaults and ``changes``
    (``max_depth=None`` for unlimited depth)."""
    estimator, prep = app_estimator(title, preset, **changes)
    return estimator.fit(prep.X_train, prep.y_train)


def app_estimator(title: str, preset: str = "CART", **changes):
    """``(estimator, prep)``: the unfitted estimator of :func:`app_model` and
    the prepared data it is fitted on (``prep.X_train``, ``prep.y_train``)."""
    table = builtin(title, load_builtin(title))
    frame = table.frame
    types, _ = infer_types(frame)
    setup = setup_from_choices(frame, {}, default_target=default_target(table),
                               default_test_size=table.default_test_size,
                               identifiers=identifier_columns(frame), types=types)
    preset, criterion, params = chosen_parameters(setup.task, {"preset": preset})
    params = {**params, **{k: v for k, v in changes.items()
                           if k in DEFAULTS or k == "forced_splits"}}
    prep = prepare(frame, setup)
    if preset == "ID3" and setup.task == "classification":
        prep = prep.complete_rows()
    return estimator_for(setup.task, preset, criterion, prep, **params), prep
