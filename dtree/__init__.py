"""dtree: decision trees you can watch grow.

A NumPy decision-tree core with scikit-learn's conventions (estimators,
``tree_`` arrays, trailing-underscore fitted attributes) that records every
split it makes, so that growth can be replayed one step at a time.
"""

from ._classes import (PRESETS, DecisionTreeClassifier, DecisionTreeRegressor, candidate_splits,
                       feature_importances)
from ._steps import Step
from ._tree import Tree
from ._ebp import error_based_prune
from ._sklearn import from_sklearn, load_sklearn
from ._pruning import (PruneResult, PruneStep, PruningPath, PruningSequence, ccp_cross_validate,
                       ccp_holdout, ccp_prune, cost_complexity_table, pessimistic_prune,
                       pruning_path, pruning_sequence, reduced_error_prune)

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "Step",
    "Tree",
    "candidate_splits",
    "feature_importances",
    "PRESETS",
    "from_sklearn",
    "load_sklearn",
]
__all__ += ["PruneResult", "PruneStep", "PruningPath", "PruningSequence", "ccp_cross_validate",
            "ccp_holdout", "ccp_prune", "cost_complexity_table", "error_based_prune",
            "pessimistic_prune", "pruning_path", "pruning_sequence", "reduced_error_prune"]

try:  # the export module is written alongside; keep the core importable meanwhile
    from .export import export_graphviz, export_text  # noqa: F401

    __all__ += ["export_graphviz", "export_text"]
except ImportError:  # pragma: no cover
    pass
