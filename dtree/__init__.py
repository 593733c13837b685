"""dtree: decision trees you can watch grow.

A NumPy decision-tree core with scikit-learn's conventions (estimators,
``tree_`` arrays, trailing-underscore fitted attributes) that records every
split it makes, so that growth can be replayed one step at a time.

This package's root is the engine; its modules are private and this file is
its face.  Two subpackages build on it through the names below only:
``dtree.views`` (figures and explanations) and ``dtree.tables`` (reading and
preparing user tables).

Besides the estimators, pruning and export, the engine shares with them:

* ``NUMERIC`` and ``KIND_NAMES``: the codes of ``tree_.kind`` (a numeric
  ``x <= threshold`` split is ``NUMERIC``) and their names;
* ``FEATURE_THRESHOLD``: two values of a feature closer than this are not
  separated by a threshold (as in scikit-learn);
* ``make_criterion(name, n_classes, classification=...)``: a criterion object
  whose ``impurity(stats)`` scores rows of sufficient statistics;
* ``sad_prefix(y, w)``: the absolute-error criterion's running sum of absolute
  deviations from the weighted median;
* ``branch_labels(tree, node, labels)``: the label of each branch of a node;
* ``tree_input(estimator, X)``: ``X`` encoded as the estimator's trees read
  it, for walking a tree by hand with ``Tree.branch(X, rows, nodes)`` (the
  branch a row takes at a node); the estimators' ``feature_names_`` names
  every feature (``x0``, ``x1``... when ``X`` had no column names);
* ``distinct_subtrees(sequence)``: the alphas at which ``ccp_alpha`` gives a
  different tree, with the number of collapses for each;
* ``add_errors(N, E, confidence)``: the extra errors C4.5's error-based
  pruning charges a leaf;
* ``OKABE_ITO`` and ``node_fills(est)``: the colour-blind-safe palette of the
  drawings and the fill ``export_graphviz(filled=True)`` gives each node;
  ``CLASS_COLOURS``: the classes' colours (Okabe & Ito's, then Paul Tol's);
* ``text_em(text)``: a line's drawn width in em (CJK characters 1 em), and
  ``is_missing_split(kind, threshold)``: a split of known against missing
  values (threshold +inf);
* ``resampled_trees`` (with ``ResampledTrees``, ``MAX_RESAMPLES`` and
  ``RESAMPLE_METHODS``): trees fitted on bootstrap samples or on the rows
  left after dropping a share, with the rows each was fitted on;
* ``NEEDS_DATA``: what a tree opened from scikit-learn without its training
  data says about its candidate tables.
"""

from ._classes import DecisionTreeClassifier, DecisionTreeRegressor, candidate_splits
from ._criteria import make_criterion
from ._ebp import add_errors, error_based_prune
from ._estimator import PRESETS, feature_importances, tree_input
from ._colours import CLASS_COLOURS, OKABE_ITO, node_fills
from ._export import export_graphviz, text_em
from ._export_text import export_text
from ._lookahead import Lookahead, lookahead_tree
from ._tree_view import is_missing_split
from ._median import sad_prefix
from ._resample import MAX_RESAMPLES, RESAMPLE_METHODS, ResampledTrees, resampled_trees
from ._problem import FEATURE_THRESHOLD
from ._pruning import (PruneStep, PruningPath, PruningSequence, ccp_cross_validate, ccp_holdout,
                       ccp_prune, cost_complexity_table, distinct_subtrees, pruning_path,
                       pruning_sequence)
from ._rep_pep import PruneResult, pessimistic_prune, reduced_error_prune
from ._errors import (MESSAGES, PROBLEMS, TREE_FILE_MESSAGES, CodedError, Note, TreeFileError,
                      problem_text)
from ._sklearn import NEEDS_DATA, from_sklearn
from ._sklearn_check import SkopsLimits
from ._skops import load_sklearn
from ._steps import KIND_NAMES, Step, branch_labels
from ._tree import NUMERIC, Tree

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
    "SkopsLimits",
    "CodedError",
    "Note",
    "MESSAGES",
    "TreeFileError",
    "TREE_FILE_MESSAGES",
    "PROBLEMS",
    "problem_text",
]
__all__ += ["PruneResult", "PruneStep", "PruningPath", "PruningSequence", "ccp_cross_validate",
            "ccp_holdout", "ccp_prune", "cost_complexity_table", "error_based_prune",
            "pessimistic_prune", "pruning_path", "pruning_sequence", "reduced_error_prune"]
__all__ += ["export_graphviz", "export_text"]
__all__ += ["MAX_RESAMPLES", "RESAMPLE_METHODS", "ResampledTrees", "resampled_trees"]
__all__ += ["Lookahead", "lookahead_tree"]
# what dtree.views and dtree.tables use (see the module docstring)
__all__ += ["CLASS_COLOURS", "is_missing_split", "text_em"]
__all__ += ["FEATURE_THRESHOLD", "KIND_NAMES", "NEEDS_DATA", "NUMERIC", "OKABE_ITO", "add_errors",
            "branch_labels", "distinct_subtrees", "make_criterion", "node_fills", "sad_prefix",
            "tree_input"]
