"""The estimators' docstrings document every constructor parameter, in
numpydoc form, and their Examples run.

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


#: Public functions whose docstrings still describe their parameters in
#: prose rather than in a numpydoc Parameters section.
PROSE = {"ccp_cross_validate", "error_based_prune", "pessimistic_prune", "reduced_error_prune"}
FUNCTIONS = sorted(name for name in dtree.__all__
                   if inspect.isfunction(getattr(dtree, name)) and name not in PROSE)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_public_functions_document_their_parameters(name):
    func = getattr(dtree, name)
    documented = parameters_documented(inspect.getdoc(func))
    params = signature_parameters(func)
    assert [p for p in params if p not in documented] == []
    assert [p for p in documented if p not in params] == []


def test_the_prose_list_holds_only_functions_without_a_parameters_section():
    for name in PROSE:
        assert "Parameters" not in sections(inspect.getdoc(getattr(dtree, name)))
