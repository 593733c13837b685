"""dtree: decision trees you can watch grow.

A NumPy decision-tree core with scikit-learn's conventions (estimators,
``tree_`` arrays, trailing-underscore fitted attributes) that records every
split it makes, so that growth can be replayed one step at a time.
"""

from ._classes import (PRESETS, DecisionTreeClassifier, DecisionTreeRegressor, candidate_splits,
                       feature_importances)
from ._steps import Step
from ._tree import Tree
from ._pruning import cost_complexity_table

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "Step",
    "Tree",
    "candidate_splits",
    "feature_importances",
    "PRESETS",
]
__all__ += ["cost_complexity_table"]

try:  # the export module is written alongside; keep the core importable meanwhile
    from .export import export_graphviz, export_text  # noqa: F401

    __all__ += ["export_graphviz", "export_text"]
except ImportError:  # pragma: no cover
    pass
