"""The estimators' docstrings document every constructor parameter, in
numpydoc form, and their Examples run; every public function documents
each of its parameters, the pruning functions what they return, and the
public records (``Tree``, ``Step``, ``PruneStep``, ``PruningSequence``,
``PruneResult``, ``Note``) every attribute they carry.

``parameters_documented`` reads a numpydoc ``Parameters`` section: an entry
is a line at the section's indentation of the form ``name : type`` (or
``a, b : type``); the section ends at the next underlined header.
"""

from __future__ import annotations

import doctest
import inspect
import re

import pytest

import dtree
from dtree import DecisionTreeClassifier, DecisionTreeRegressor

ESTIMATORS = [DecisionTreeClassifier, DecisionTreeRegressor]


def sections(doc: str) -> dict[str, list[str]]:
    """``{header: lines}`` of a numpydoc docstring (``inspect.getdoc`` text)."""
    lines = doc.splitlines()
    out, current = {}, None
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and line.strip() and re.fullmatch(r"\s*-{3,}\s*", lines[i + 1]):
            current = line.strip()
            out[current] = []
        elif current is not None and not re.fullmatch(r"\s*-{3,}\s*", line):
            out[current].append(line)
    return out


def parameters_documented(doc: str) -> list[str]:
    """The names a docstring's ``Parameters`` section documents, in order."""
    names = []
    for line in sections(doc).get("Parameters", []):
        m = re.match(r"(\w+(?:\s*,\s*\w+)*)\s*:", line)  # at column 0: an entry
        if m:
            names += [n.strip() for n in m.group(1).split(",")]
    return names


def signature_parameters(func) -> list[str]:
    return [p.name for p in inspect.signature(func).parameters.values()
            if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda c: c.__name__)
def test_every_constructor_parameter_is_documented(est):
    documented = parameters_documented(inspect.getdoc(est))
    params = signature_parameters(est.__init__)
    assert [p for p in params if p not in documented] == []
    assert [p for p in documented if p not in params] == []  # nor one it does not take
    assert documented == params  # in the signature's order, as scikit-learn does


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda c: c.__name__)
def test_the_docstring_has_numpydoc_sections(est):
    heads = list(sections(inspect.getdoc(est)))
    assert heads == ["Parameters", "Attributes", "See Also", "Examples"]


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda c: c.__name__)
def test_documented_attributes_end_with_an_underscore(est):
    """The Attributes section lists fitted attributes (``name_``) only."""
    for line in sections(inspect.getdoc(est))["Attributes"]:
        m = re.match(r"(\w+(?:\s*,\s*\w+)*)\s*:", line)
        if m:
            assert all(n.strip().endswith("_") for n in m.group(1).split(",")), line


def test_the_parameter_reader_sees_a_missing_parameter():
    doc = inspect.getdoc(DecisionTreeClassifier)
    without = re.sub(r"\nmin_objects : .*?(?=\n\S)", "", doc, flags=re.S)
    assert "min_objects" in parameters_documented(doc)
    assert "min_objects" not in parameters_documented(without)
    assert parameters_documented(without) != signature_parameters(DecisionTreeClassifier.__init__)


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda c: c.__name__)
def test_the_examples_run(est):
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = finder.find(est, est.__name__, globs={})
    assert tests and tests[0].examples, "no Examples to run"
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted >= 3


FUNCTIONS = sorted(name for name in dtree.__all__ if inspect.isfunction(getattr(dtree, name)))


def missing_parameters(func, doc=None) -> list[str]:
    """The parameters of ``func`` its docstring's Parameters section leaves out."""
    documented = parameters_documented(doc if doc is not None else inspect.getdoc(func))
    return [p for p in signature_parameters(func) if p not in documented]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_public_functions_document_their_parameters(name):
    func = getattr(dtree, name)
    documented = parameters_documented(inspect.getdoc(func))
    assert missing_parameters(func) == []
    assert [p for p in documented if p not in signature_parameters(func)] == []


@pytest.mark.parametrize("name", ["ccp_cross_validate", "error_based_prune",
                                  "pessimistic_prune", "reduced_error_prune"])
def test_the_pruning_functions_say_what_they_return(name):
    doc = inspect.getdoc(getattr(dtree, name))
    assert list(sections(doc))[:2] == ["Parameters", "Returns"]
    assert any(line.strip() for line in sections(doc)["Returns"])


def test_the_function_check_sees_a_missing_parameter():
    func = dtree.ccp_cross_validate
    doc = inspect.getdoc(func)
    without = re.sub(r"\nmidpoints : .*?(?=\n\S)", "", doc, flags=re.S)
    assert missing_parameters(func, doc) == []
    assert missing_parameters(func, without) == ["midpoints"]


# -- the public records: every attribute they carry is documented ---------------------

def attributes_documented(doc: str) -> list[str]:
    """The names a docstring's ``Attributes`` section documents."""
    names = []
    for line in sections(doc).get("Attributes", []):
        m = re.match(r"(\w+(?:\s*,\s*\w+)*)\s*:", line)
        if m:
            names += [n.strip() for n in m.group(1).split(",")]
    return names


def public_attributes(record) -> set[str]:
    """The public attributes an instance carries: its own (``__dict__``,
    ``__slots__``, a named tuple's fields) and its class's properties."""
    cls = type(record)
    names = set(getattr(record, "__dict__", {})) | set(getattr(cls, "_fields", ()))
    for klass in cls.__mro__:
        names |= set(getattr(klass, "__slots__", ()))
    names |= {n for n in dir(cls) if isinstance(getattr(cls, n, None), property)}
    return {n for n in names if not n.startswith("_")}


@pytest.fixture(scope="module")
def records():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    est = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    sequence = dtree.pruning_sequence(est.tree_)
    return {"Tree": est.tree_, "Step": est.steps_[0], "PruneStep": sequence.steps[0],
            "PruningSequence": sequence, "PruneResult": dtree.pessimistic_prune(est),
            "Note": dtree.Note(next(code for code in dtree.MESSAGES if "{" not in
                                    dtree.MESSAGES[code]))}


RECORDS = ["Tree", "Step", "PruneStep", "PruningSequence", "PruneResult", "Note"]


@pytest.mark.parametrize("name", RECORDS)
def test_public_records_document_their_attributes(name, records):
    assert type(records[name]) is getattr(dtree, name)
    documented = attributes_documented(inspect.getdoc(getattr(dtree, name)))
    assert sorted(public_attributes(records[name]) - set(documented)) == []


def test_the_attribute_check_sees_a_missing_attribute(records):
    doc = inspect.getdoc(dtree.PruneStep)
    without = re.sub(r"\nalpha : .*?(?=\n\S)", "", doc, flags=re.S)
    assert "alpha" in attributes_documented(doc)
    assert "alpha" not in attributes_documented(without)
    assert "alpha" in public_attributes(records["PruneStep"])
