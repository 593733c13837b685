"""Errors that carry a code and their values, so that any front end can word them.

:class:`TreeFileError` is what opening a scikit-learn tree raises when the
tree (a ``.skops`` file, or an estimator passed to ``from_sklearn``) cannot
be opened.  Its ``code`` names the rule that failed and ``values`` hold the
numbers and names the message uses; ``TREE_FILE_MESSAGES`` is the English
wording of each code.  The app words the same codes in Chinese
(``dtree.views.datatext``) instead of matching the English text.
"""

__all__ = ["TreeFileError", "TREE_FILE_MESSAGES", "PROBLEMS", "problem_text"]

#: The English message of each code; ``{where}`` is the file (or estimator) and
#: the other fields are the error's ``values``.
TREE_FILE_MESSAGES = {
    # the file as a whole
    "pickle": ("{where} is {kind}, not a .skops file. Loading a pickle (or a joblib file, "
               "which is a pickle) can run any code it contains, so dtree never opens one. "
               "Save the tree with skops instead: skops.io.dump(model, 'tree.skops')."),
    "not_skops": ("{where} is an unknown format, not a .skops file. Save the tree with skops "
                  "instead: skops.io.dump(model, 'tree.skops')."),
    "file_too_big": ("{where} is larger than {limit} bytes, the most dtree reads from one "
                     "file (raise SkopsLimits.max_file_bytes for a bigger tree)."),
    "zip_broken": "{where} is a damaged or unsupported zip file: {part} {problem_text}.",
    "zip_unreadable": "{where} is a damaged zip file; the zip reader says: {detail}.",
    "too_many_members": ("{where} holds {count} files; a .skops file of one tree holds a "
                         "few (at most {limit} are read)."),
    "member_too_big": ("{where}: its member {member} unpacks to more than {limit} bytes "
                       "(raise SkopsLimits.max_member_bytes for a bigger tree)."),
    "total_too_big": ("{where} unpacks to more than {limit} bytes in all (raise "
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
    "multi_output": ("{where} predicts {n_outputs} outputs; dtree's trees predict one. Open "
                     "a tree fitted on a single target."),
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
}


class TreeFileError(ValueError):
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

    def __init__(self, code, where, **values):
        self.code = code
        self.where = where
        self.values = values
        super().__init__(TREE_FILE_MESSAGES[code].format(
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
