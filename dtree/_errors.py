"""Errors and notes that carry a code and their values, so that any front end
can word them.

:class:`CodedError` (a ``ValueError``) and :class:`Note` (a ``str``) are the
messages of the estimators' checks, of reading and preparing a table
(``dtree.tables``) and of the app's opening of a tree's data file: their
``code`` names the rule and ``values`` hold the names and numbers the
message uses; :data:`MESSAGES` is the English wording of each code, and the
message's text is that wording, filled in.

:class:`TreeFileError` is what opening a scikit-learn tree raises when the
tree (a ``.skops`` file, or an estimator passed to ``from_sklearn``) cannot
be opened; ``TREE_FILE_MESSAGES`` is the English wording of its codes.

The app words the same codes in Chinese (``dtree.views.messages``) instead
of matching the English text.
"""

__all__ = ["CodedError", "Note", "MESSAGES", "TreeFileError", "TREE_FILE_MESSAGES",
           "PROBLEMS", "problem_text"]

#: The English message of each code of a :class:`CodedError` or a
#: :class:`Note`; the fields are its ``values``.
MESSAGES = {
    # -- the estimators (fit, pruning) --
    "one_sample": ("Cannot grow a tree from 1 sample (n_samples = {n_samples}); at least 2 "
                   "samples are needed."),
    "zero_weight": "The sample weights sum to zero: nothing to learn from.",
    "missing_id3": ("Feature {name!r} has missing values, and ID3 has no rule for them. Use "
                    "algorithm='c4.5' (fractional weights) or 'cart' (missing values go to "
                    "the better side), or fill them in first."),
    "missing_refused": ("Feature {name!r} has missing values, and missing='error' refuses "
                        "them. Use missing='cart' (they go to the better side) or "
                        "missing='c4.5' (fractional weights), or fill them in first."),
    "missing_refused_regression": ("Feature {name!r} has missing values, and missing='error' "
                                   "refuses them. Use missing='cart' (they go to the better "
                                   "side), or fill them in first."),
    "absolute_error_missing": ("criterion='absolute_error' has no rule for missing='c4.5' (rows "
                               "spread over the branches by weight); use missing='cart' (they "
                               "go to the better side), or fill them in first."),
    "multiway_missing": ("Multiway splits of a categorical feature with missing values need "
                         "missing='c4.5'."),
    "hist_refused": "splitter='hist' cannot be used here: {why}. Use splitter='best'.",
    "sparse_refused": ("A sparse X cannot be used here: {why}. Pass a dense array "
                       "(X.toarray()) or a DataFrame."),
    "y_not_finite": "Input y contains NaN or infinity.",
    "x_infinite": ("Input {what} contains infinity (first in column {column}); values beyond "
                   "the float32 range also count as infinity. Replace them, or mark them "
                   "missing (NaN)."),
    "continuous_labels": ("Unknown label type: continuous. A classifier needs discrete class "
                          "labels; use DecisionTreeRegressor for a numeric target."),
    "y_too_large": ("The target values are too large: sums of y**2 overflow double precision "
                    "(largest |y| = {largest:.3g}). Rescale y, for example to thousands or "
                    "millions."),
    "poisson_negative": ("Some value(s) of y are negative which is not allowed for Poisson "
                         "regression."),
    "poisson_sum": "Sum of y is not positive which is necessary for Poisson regression.",
    "bad_cv": "cv must be an int in [2, n_samples={n_samples}]; got {cv!r}.",
    "multi_output_refused": ("{what} reads a single target, and this tree has several outputs "
                             "(y of more than one column). Fit one tree per target column, or "
                             "use the default CART settings."),
    "multi_output_categorical": ("Feature {name!r} is categorical; a tree of several outputs "
                                 "(y of more than one column) splits numeric features only. "
                                 "Encode it as numbers (one-hot or ordinal) first."),
    "ebp_unseen_label": ("y holds the label {label!r}, which the model never saw: X and y "
                         "must be the training data."),
    "ebp_other_weight": ("X and y weigh {weight:g} but the tree was grown on {root:g}: "
                         "error-based pruning needs the training data."),
    "ebp_other_counts": ("X and y do not reproduce the tree's class counts: error-based "
                         "pruning needs the data the tree was fitted on."),
    "pep_regressor": ("Pessimistic error pruning counts misclassified samples; it needs a "
                      "classifier, not a regressor."),
    # -- forced_splits (dtree._forced_spec, dtree._forced); {node} is the
    # forced split's path, "root → left → right"
    "forced_refused": "forced_splits cannot be used here: {why}.",
    "forced_not_json": "forced_splits is not valid JSON: {detail}.",
    "forced_too_long": ("forced_splits is {size:,} characters of JSON, more than the {limit:,} "
                        "dtree reads."),
    "forced_too_deep": ("forced_splits at {node}: forced splits are nested more than {limit} "
                        "levels deep."),
    "forced_too_many": "forced_splits has more than {limit:,} forced splits.",
    "forced_not_object": ("forced_splits at {node}: a forced split is a dict (a JSON object) "
                          "with a 'feature'; got {got}."),
    "forced_unknown_key": ("forced_splits at {node}: unknown key(s) {keys}. A forced split has "
                           "'feature', then 'threshold' (a numeric feature), 'categories' (a "
                           "subset split) or 'branches' (a multiway split), and 'left'/'right'."),
    "forced_no_feature": "forced_splits at {node}: no 'feature' is given.",
    "forced_unknown_feature": ("forced_splits at {node}: {feature!r} is not a feature of X "
                               "(give an index from 0 to {last} or a feature's name)."),
    "forced_bad_threshold": ("forced_splits at {node}: the threshold {threshold!r} is not a "
                             "finite number."),
    "forced_numeric_form": ("forced_splits at {node}: {name!r} is numeric; its split takes a "
                            "'threshold' (rows with x <= threshold go left), not 'categories' "
                            "or 'branches'."),
    "forced_subset_form": ("forced_splits at {node}: {name!r} is categorical and split in two "
                           "(multiway=False); its split takes 'categories', a non-empty list "
                           "of the categories that go left, not 'threshold' or 'branches'."),
    "forced_multiway_form": ("forced_splits at {node}: {name!r} is categorical with one branch "
                             "per category (multiway=True); its split takes only 'branches', a "
                             "dict from each category (once) to the forced split below it or "
                             "null."),
    "forced_unknown_category": ("forced_splits at {node}: {category!r} is not a category of "
                                "{name!r}."),
    "forced_max_depth": ("forced_splits at {node}: this node is at depth {depth}, and "
                         "max_depth={max_depth} lets no node at that depth be split."),
    "forced_leaf_budget": ("forced_splits has {n} forced splits, more than the "
                           "{budget} splits max_leaf_nodes={max_leaf_nodes} allows."),
    "forced_empty_side": ("forced_splits at {node}: this split on {name!r} leaves the {side} "
                          "branch without rows."),
    "forced_one_category": ("forced_splits at {node}: {n} of the categories of {name!r} "
                            "reach this node; a multiway split needs at least two."),
    "forced_min_samples_split": ("forced_splits at {node}: this node has {n} samples, fewer "
                                 "than the {min} a split needs (min_samples_split, at least "
                                 "2 × min_samples_leaf)."),
    "forced_min_samples_leaf": ("forced_splits at {node}: this split leaves {n} sample(s) in "
                                "the {side} branch, fewer than min_samples_leaf={min}."),
    "forced_min_weight_leaf": ("forced_splits at {node}: this split leaves a weight of "
                               "{weight:.4g} in the {side} branch, less than the {min:.4g} "
                               "min_weight_fraction_leaf asks for."),
    # -- the exhaustive depth-2 search (dtree._lookahead) --
    "lookahead_rows": ("The exhaustive search of depth-2 trees takes at most {limit:,} rows; "
                       "this table has {n:,}."),
    "lookahead_candidates": ("The exhaustive search of depth-2 trees compares at most {limit:,} "
                             "candidate splits; this table has {n:,} (thresholds and category "
                             "groupings). Choose fewer features."),
    "lookahead_work": ("The exhaustive search of depth-2 trees would take {work:,} "
                       "multiplications ({n:,} rows × {candidates:,}² candidate splits × "
                       "{classes} classes + 1), more than the {limit:,} of about a second. "
                       "Choose fewer features or rows."),
    "lookahead_categories": ("Feature {name!r} has {n} categories; the exhaustive search "
                             "groups at most {limit} (2^(k−1) − 1 groupings of k)."),
    "lookahead_missing": ("Feature {name!r} has missing values; the exhaustive search takes "
                          "complete rows only."),
    "lookahead_nothing": ("There is nothing to search: a single class, or no feature that "
                          "splits the rows."),
    # -- a sample to predict (dtree.views.prediction) --
    "sample_not_numeric": "Feature {name!r} is numeric; got {value!r}.",
    "sample_infinite": "Feature {name!r}: infinity is not a value a tree can route.",
    # -- reading a table (dtree.tables.io): errors --
    "empty_file": "The file is empty (0 bytes).",
    "blank_file": "The file contains only blank space: there is no table in it.",
    "not_a_table": ("This file is {what}, not a table. Upload a CSV, TSV, Excel (.xlsx), "
                    "Parquet or ARFF file."),
    "old_excel": ("This is an old binary Excel (.xls) or Office file, which dtree does not "
                  "read. In Excel, save it as .xlsx or CSV."),
    "fake_excel": ("This file is named like an Excel workbook but is not one (an .xlsx file "
                   "is a zip archive). Re-save it from Excel."),
    "fake_parquet": "This file is named .parquet but is not a Parquet file.",
    "no_columns": "No columns were found in the file.",
    "no_rows": "The file has a header but no data rows.",
    "broken_zip": "The file starts like a zip archive but is damaged.",
    "zip_not_excel": ("This is a zip archive, not a table. Unzip it and upload the CSV or "
                      "Excel file inside."),
    "workbook_too_big": ("This workbook unpacks to {mb:.0f} MB, more than the {max_mb:.0f} MB "
                         "dtree accepts."),
    "needs_openpyxl": "Reading Excel files needs the openpyxl package (pip install openpyxl).",
    "excel_unreadable": "The Excel file could not be read ({exc}).",
    "no_sheets": "The workbook has no sheets.",
    "empty_sheet": "The first sheet of the workbook is empty.",
    "parquet_unreadable": "The Parquet file could not be read ({exc}).",
    "binary_file": ("This file does not look like text: it contains binary data. Upload a "
                    "CSV, TSV, Excel (.xlsx), Parquet or ARFF file."),
    "no_header": "The file has no header row.",
    "bad_header": "The header row could not be read: {detail}.",
    "unparsable": "The file could not be parsed as a table: {detail}",
    # -- reading Weka's ARFF (dtree.tables.weka_arff): errors --
    "arff_too_big": ("This ARFF file is {mb:.0f} MB; ARFF files are read line by line, up to "
                     "{max_mb:.0f} MB. Save a larger one as CSV (in Weka's Explorer: Save, "
                     "CSV) and upload that."),
    "arff_too_many_values": ("This ARFF file holds more than {max:,} values ({rows:,} rows of "
                             "{columns:,} attributes so far), more than dtree reads from ARFF."),
    "arff_unreadable": "The ARFF file could not be read at line {line}: “{text}”.",
    "arff_layout": ("Line {line} could not be read as part of an ARFF file: “{text}”. An ARFF "
                    "file has @relation, then its @attribute lines, then @data and one row per "
                    "line, its values separated by commas and quoted if they hold one."),
    "arff_no_data": ("No @data line was found: this is not an ARFF file, or one without "
                     "rows."),
    "arff_attribute": "Line {line} is not an @attribute declaration ARFF knows: “{text}”.",
    "arff_attribute_type": ("Line {line} declares a type ARFF does not have: “{text}”. The "
                            "types are numeric, integer, real, string, date and {{a list of "
                            "values}}."),
    "arff_date": ("Line {line} declares a date attribute, which dtree does not read: “{text}”. "
                  "Remove it, or make it numeric (Weka's filters do both), and upload again."),
    "arff_relational": ("Line {line} declares a relational attribute (a table inside each "
                        "row), which dtree does not read: “{text}”."),
    "arff_repeated_name": "Line {line} declares an attribute name a second time: “{text}”.",
    "arff_repeated_value": "The nominal attribute “{name}” declares the value “{value}” twice.",
    "arff_undeclared_value": ("Line {line} has a value its nominal attribute does not declare: "
                              "“{text}”."),
    "arff_not_a_number": ("Line {line} has a value that is not a number for a numeric "
                          "attribute: “{text}”."),
    "arff_field_count": ("Line {line} does not have one value for each attribute declared: "
                         "“{text}”."),
    "arff_weights": ("Line {line} ends with an instance weight in braces, which dtree does not "
                     "read: “{text}”. Remove the weights and upload again."),
    # -- reading a table: notes --
    "read_as_excel": "The file is an Excel workbook (whatever its name says) and was read as one.",
    "first_sheet": "The workbook has {n} sheets; the first, “{name}”, was read.",
    "read_as_text": "Read as text in {encoding}, columns separated by {delimiter}s.",
    "read_as_arff": ("Read as Weka ARFF in {encoding}: relation “{relation}”, {n} "
                     "attribute(s), {nominal} nominal (with their declared values, in declared "
                     "order); ? marks a missing value."),
    "arff_strings": ("{n} string attribute(s) ({names}) were read as text: their type comes "
                     "from their values, as for a CSV column."),
    "arff_sparse": ("{n} row(s) were written in sparse form: the values they leave out are 0 "
                    "(the first declared value of a nominal attribute), as ARFF says."),
    "ragged_rows": ("{rows} row(s) had more fields than the header's {fields} and were left "
                    "out."),
    "decimal_commas": "{n} column(s) written with decimal commas (12,5) were read as numbers.",
    "unnamed_columns": "{n} column(s) had no name and were called “column N”.",
    "long_names": ("{n} column name(s) were longer than {max} characters and were "
                   "shortened."),
    "repeated_names": "Repeated column names were numbered: {names}.",
    # -- preparing a table (dtree.tables.prepare): errors --
    "id3_too_few_complete": ("ID3 has no rule for missing values, and fewer than 2 training "
                             "rows have none. Choose C4.5 or CART, which handle them."),
    "no_target": "Choose a target column.",
    "no_features": "Choose at least one feature column (a column other than the target).",
    "empty_target": "The target column “{name}” has no values: every entry is missing.",
    "no_usable_feature": "None of the chosen features has any usable value.",
    "too_few_rows": ("Only {n} usable row(s) remain after leaving out missing targets; a tree "
                     "needs at least 2."),
    "too_many_classes": ("The target “{name}” has {n} different values, too many classes to "
                         "show (at most {max}). It looks like an identifier or a measurement: "
                         "choose another target, or treat it as regression if it is numeric."),
    "no_training_rows": "Too few rows for a training set: lower the test fraction.",
    "text_target": ("The target “{name}” has text values, so it cannot be predicted by a "
                    "regression tree. Choose classification."),
    "too_many_categories": ("“{name}” has {n:,} categories, more than {max:,}: it looks like "
                            "an identifier. Leave it out, or treat it as numeric."),
    # -- preparing a table: notes --
    "id3_left_out": ("ID3 has no rule for missing values: {n} row(s) with one were left out "
                     "(C4.5 and CART use them)."),
    "missing_target": "{rows} row(s) with a missing target were left out.",
    "missing_features": ("{n} row(s) have a missing value in a chosen feature. CART sends them "
                         "down the side that gives the larger gain, C4.5 and J48 split them "
                         "across the branches by weight, ID3 leaves them out."),
    "single_class": "The target has a single class: the tree is one leaf.",
    "text_as_missing": "“{name}”: {n} {entries} that are not numbers were read as missing.",
    "no_numbers": ("Left out, since they hold no numbers (mark them categorical to use them): "
                   "{names}."),
    "infinite_values": "“{name}”: {n} infinite value(s) were read as missing.",
    "many_categories": ("“{name}” has {n} categories: ID3 and C4.5 give each its own branch, "
                        "so a split on it is very wide."),
    "mixed_column": ("“{name}” mixes numbers and text (e.g. “{example}”); it is treated as "
                     "categorical. Take it out of the categorical features to read the text "
                     "entries as missing."),
    # -- a tree's data file, opened with it in the app (pages.state.imported) --
    "data_no_column": "The data file has no column named {names}: the tree's features are {features}.",
    "data_unnamed": ("The tree was fitted on {n} unnamed features: the data file needs {n} "
                     "feature columns (first, in order) and a target column."),
    "data_no_target": "The data file has no target column (a column besides the tree's features).",
    "data_not_numeric": ("The feature column(s) {names} are not numeric; a scikit-learn tree "
                         "reads numbers only."),
    "data_unknown_classes": ("The target column {name} holds values that are not among the "
                             "tree's classes."),
    "data_target_not_numeric": ("The target column {name} is not numeric, but the tree is a "
                                "regressor."),
}

#: The English message of each code; ``{where}`` is the file (or estimator) and
#: the other fields are the error's ``values``.
TREE_FILE_MESSAGES = {
    # the file as a whole
    "pickle": ("{where} is {kind}, not a .skops file. Loading a pickle (or a joblib file, "
               "which is a pickle) can run any code it contains, so dtree never opens one. "
               "Save the tree with skops instead: skops.io.dump(model, 'tree.skops')."),
    "not_skops": ("{where} is an unknown format, not a .skops file. Save the tree with skops "
                  "instead: skops.io.dump(model, 'tree.skops')."),
    "file_too_big": ("{where} is larger than {limit}, the most dtree reads from one "
                     "file (raise SkopsLimits.max_file_bytes for a bigger tree)."),
    "zip_broken": "{where} is a damaged or unsupported zip file: {part} {problem_text}.",
    "zip_unreadable": "{where} is a damaged zip file; the zip reader says: {detail}.",
    "too_many_members": ("{where} holds {count} files; a .skops file of one tree holds a "
                         "few (at most {limit} are read)."),
    "member_too_big": ("{where}: its member {member} unpacks to more than {limit} "
                       "(raise SkopsLimits.max_member_bytes for a bigger tree)."),
    "total_too_big": ("{where} unpacks to more than {limit} in all (raise "
                      "SkopsLimits.max_total_bytes for a bigger tree)."),
    "member_missing": "{where} names a member {member} that is not in the file.",
    "no_schema": "{where} is a zip file but not a .skops file (it has no schema.json).",
    "schema_not_json": ("{where} is not a .skops file: its schema.json is not JSON; the "
                        "JSON reader says: {detail}."),
    "schema_too_deep": ("{where}: its schema is nested more than {limit} levels deep; a "
                        "scikit-learn tree needs far fewer."),
    "schema_too_big": ("{where}: its schema has more than {limit} entries (raise "
                       "SkopsLimits.max_schema_entries for a tree with very many features)."),
    "types_refused": ("{where} holds types dtree does not open: {types}. dtree trusts only "
                      "scikit-learn's DecisionTree/ExtraTree classifiers and regressors (and "
                      "the NumPy arrays they hold), so nothing else from the file is loaded."),
    "not_a_tree": "{where} holds a {kind}, not a scikit-learn tree estimator.",
    "malformed": "{where} is not a well-formed .skops file: {part} {problem_text}.",
    "too_slow": ("{where} took longer than {limit} s to read, so reading it was stopped "
                 "(raise SkopsLimits.max_seconds for a bigger tree)."),
    "unreadable": "{where} could not be read; the error inside was: {detail}.",
    # the tree's arrays
    "over_limit": ("{where}: its {what} is {value}, more than dtree opens ({limit}; raise "
                   "SkopsLimits.{field} for a bigger tree)."),
    "bad_attribute": "{where}: its {what} {problem_text}.",
    "multi_output": ("{where} predicts {n_outputs} outputs; dtree opens scikit-learn trees of "
                     "one output (fit dtree's own estimators on several). Open a tree fitted on "
                     "a single target."),
    "no_nodes": "{where}: its tree has no nodes.",
    "bad_child": ("{where}: node {node} has a child id {child}, which is not a node of this "
                  "tree (ids run from 1 to {last})."),
    "half_leaf": ("{where}: node {node} has one child; a node has two children or none."),
    "child_before_parent": ("{where}: node {node} is a child of node {parent}, but a child's "
                            "id must be larger than its parent's (the tree has a cycle)."),
    "two_parents": "{where}: node {node} has {count} parents; every node but the root has one.",
    "orphan": "{where}: node {node} has no parent; every node but the root has one.",
    "root_is_child": "{where}: the root (node 0) is a child of node {parent}.",
    "bad_feature": ("{where}: node {node} splits on feature {feature}, but the tree has "
                    "features 0 to {last}."),
    "bad_threshold": ("{where}: node {node} has the threshold {threshold}, which cannot "
                      "split rows."),
    "bad_value": "{where}: node {node} holds a value that is not a finite number ({what}).",
    "bad_samples": ("{where}: node {node}'s {what} is {count}, which is not the sum of its "
                    "children's."),
    "value_shape": ("{where}: its node values have the shape {shape}, but a tree of "
                    "{node_count} nodes and {n_classes} classes needs {expected}."),
    "classes_mismatch": ("{where}: it names {n_names} classes, but its nodes hold counts of "
                         "{n_classes}."),
    "negative_weight": "{where}: node {node}'s weighted sample count is {weight}, below zero.",
    # the estimator's settings
    "bad_setting": ("{where}: its setting {name} = {value} is not valid (scikit-learn refuses "
                    "it, or dtree cannot replay it), so the tree is not opened."),
    # the training data given with the tree (X and y)
    "data_x_without_y": "{where}: pass both X and y (the training data), or neither.",
    "data_n_features": "{where}: X has {given} features, but the tree was fitted on {expected}.",
    "data_unknown_label": ("{where}: y holds the label {label}, which is not one of the tree's "
                           "classes_."),
    "data_rows_differ": ("{where}: X and y do not look like the data this tree was fitted on: node "
                         "{node} holds {stored} training samples, but {seen} rows of X reach it. "
                         "Pass the training data exactly as it was given to fit (same rows, same "
                         "columns, same sample weights)."),
    "data_counts_differ": ("{where}: X and y do not look like the data this tree was fitted on: "
                           "the class counts of its nodes differ from those the tree stores. Pass "
                           "the training labels (and sample weights) exactly as they were given "
                           "to fit."),
    "data_weights_differ": ("{where}: the sample weights differ from those this tree was fitted "
                            "with: pass the same sample_weight as in fit."),
    # the app's budget for one upload (pages.state.imported)
    "over_budget": ("{where} needs more {resource} than this server gives one upload (at most "
                    "{limit}), so it was not opened. Open it in Python with "
                    "dtree.load_sklearn instead."),
}


#: What is wrong with one part of a file or an estimator (the ``problem`` of
#: a "malformed", "zip_broken" or "bad_attribute" error), in English.
PROBLEMS = {
    "encrypted": "is encrypted",
    "compression": "uses compression method {method}, which dtree does not read",
    "longer": "unpacks to more than it declares",
    "shorter": "unpacks to less than it declares",
    "not_utf8": "is not UTF-8 text",
    "not_whole_number": "is a {type} where a whole number belongs",
    "below_one": "is {value}, below one",
    "not_labels": "is not a list of class labels",
    "names_count": "holds {count} names for {expected} features",
    "not_a_node": "is not a skops node",
    "no_class": "names no class",
    "loader_refused": "is loaded by {loader}, which dtree does not use for plain values",
    "no_content": "does not hold what its kind holds",
    "wrong_kind": "is a {kind} stored as {stored}",
    "not_json": "holds text that is not one JSON value",
    "bad_keys": "has keys that do not match their types",
    "bad_shape": "holds {count} values where its shape needs {expected}",
    "not_plain": "holds something other than plain values",
    "bad_random_state": "is not the state of a random number generator",
    "not_npy": "is not a NumPy array file",
    "not_numbers": "holds values of type {dtype}, not numbers",
    "bad_size": "declares {declared} bytes of values but holds {held}",
    "bad_tree_args": "is not (n_features, n_classes, n_outputs) of one output",
    "features_differ": "has {count} features, but the estimator {expected}",
    "bad_nodes": "is not an array of {count} node records",
    "bad_depth": "is not a depth of this tree",
    "not_fitted": "is missing (was the tree fitted?)",
    "bad_name": "is not an attribute dtree accepts",
    "repeated_labels": "names the class {label} more than once",
}


def _remake(cls, args, state):
    """An error or note as it was pickled (its text, code and values)."""
    made = str.__new__(cls, *args) if issubclass(cls, str) else Exception.__new__(cls)
    if not issubclass(cls, str):
        made.args = args
    made.__dict__.update(state)
    return made


class CodedError(ValueError):
    """An error worded from a code: ``MESSAGES[code]`` filled with ``values``.

    Parameters
    ----------
    code : str
        The rule that failed: a key of ``MESSAGES``.
    **values
        The names and numbers the message uses.

    Attributes
    ----------
    code, values : as given.
    """

    messages = MESSAGES

    def __init__(self, code, **values):
        self.code = code
        self.values = values
        super().__init__(self.messages[code].format(**values))

    def __reduce__(self):
        return (_remake, (type(self), self.args, dict(self.__dict__)))


class Note(str):
    """A note for the reader (a ``str``: its English text), worded from a
    code like a :class:`CodedError`.

    Parameters
    ----------
    code : str
        A key of ``MESSAGES``.
    **values
        The names and numbers its message uses.

    Attributes
    ----------
    code : str
        As given: what the app looks its words up by.
    values : dict
        As given.
    """

    code: str
    values: dict

    def __new__(cls, code, **values):
        note = super().__new__(cls, MESSAGES[code].format(**values))
        note.code, note.values = code, values
        return note

    def __reduce__(self):
        return (_remake, (type(self), (str(self),), dict(self.__dict__)))


class TreeFileError(CodedError):
    """A scikit-learn tree, or a ``.skops`` file, that dtree does not open.

    Parameters
    ----------
    code : str
        The rule that failed: a key of ``TREE_FILE_MESSAGES``.
    where : str
        What was being opened: the file's name, or the estimator's class.
    **values
        The names and numbers the message uses (``node``, ``limit``...).

    Attributes
    ----------
    code, where, values : as given.
    """

    messages = TREE_FILE_MESSAGES

    def __init__(self, code, where, **values):
        self.code = code
        self.where = where
        self.values = values
        ValueError.__init__(self, TREE_FILE_MESSAGES[code].format(
            where=where, **values, **problem_text(values, PROBLEMS)))


def problem_text(values, problems):
    """The wording of an error's ``problem``, to format its message with.

    Parameters
    ----------
    values : dict
        A :class:`TreeFileError`'s ``values``; its ``problem`` key (if any)
        names an entry of ``problems``, formatted with ``values``.
    problems : dict of str to str
        ``PROBLEMS`` (English) or another language's table of the same keys.

    Returns
    -------
    dict
        ``{"problem_text": text}``, or ``{}`` when ``values`` has no
        ``problem``.
    """
    if "problem" not in values:
        return {}
    return {"problem_text": problems[values["problem"]].format(**values)}
