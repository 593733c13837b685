"""Weka's ARFF files, read with liac-arff into a DataFrame.

:func:`read_arff` takes the file's text (decoded by :mod:`.io`, which calls
it) and returns the relation's name, the frame and notes for the reader, or
raises :class:`ArffError`, worded for the page with the line it stopped at:

* a numeric, real or integer attribute becomes a float column;
* a nominal attribute becomes a pandas Categorical whose categories are its
  declared values in declared order, values that never occur included (J48
  gives each declared value a branch);
* ``?`` is a missing value (NaN);
* a string attribute stays text, which the Data page types by its values as
  it would a CSV column (a note says so);
* sparse rows (``{index value, ...}``) are read; the values they leave out
  are 0, as the format says (for a nominal attribute, its first value);
* date and relational attributes, instance weights (``{w}`` after a row),
  and files past :data:`MAX_ARFF_BYTES` or :data:`MAX_ARFF_CELLS` are
  refused.

The parsing is liac-arff's (pure Python: 17 MB of numbers took 9 s on a
busy core, about 117 MB at its peak);
this module counts the lines it hands over, so that an error names its line,
and turns the rows into columns a chunk at a time, so that no list of Python
objects the size of the table is ever held.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import islice

import arff  # liac-arff
import numpy as np
import pandas as pd

from .. import CodedError, Note

#: Larger ARFF files are refused: Python reads them line by line, 0.2-0.6 s
#: per MB on one core, where a CSV file goes to pandas' C parser.
MAX_ARFF_BYTES = 20 * 2**20
#: At most this many values (rows x attributes): sparse rows are read
#: dense, and a sparse file may declare many thousands of attributes.
MAX_ARFF_CELLS = 10_000_000
#: Rows are turned into columns in blocks of about this many values.
_CHUNK_CELLS = 200_000
_SHOWN_LINE = 60

# a comment after a declaration, which Weka allows and liac-arff does not:
# after a list of values' closing brace, or after a one-word type
_COMMENT_AFTER = (re.compile(r"^(\s*@attribute\s.*\})\s*%[^}]*$", re.IGNORECASE),
                  re.compile(r"^(\s*@attribute\s+(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)"
                             r"\s+(?:numeric|real|integer|string))\s*%.*$", re.IGNORECASE))
# liac-arff unescapes values but not names: \' in a quoted name is '
_ESCAPED = re.compile(r"\\(.)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
_DECLARATION = re.compile(r"^\s*@attribute\s+(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)"
                          r"\s+(?P<type>\w+)", re.IGNORECASE)


class ArffError(CodedError):
    """An ARFF file that is refused: a code of ``dtree.MESSAGES`` and its values
    (:mod:`.io` raises it again as a ``DataError``)."""


@dataclass
class ArffTable:
    """What :func:`read_arff` read."""

    relation: str
    frame: pd.DataFrame
    notes: list = field(default_factory=list)


class _Lines:
    """The text's lines for liac-arff, counted: ``number`` and ``text`` are
    the last line handed over (where an error was found), ``sparse`` the rows
    written in sparse form."""

    def __init__(self, text: str):
        self.source = text
        self.number, self.text, self.sparse = 0, "", 0
        self.in_data = self.ended = False

    def __iter__(self):
        for self.number, self.text in enumerate(self.source.splitlines(), 1):
            start = self.text.lstrip()[:1]
            if self.in_data:
                self.sparse += start == "{"
            elif start == "@" and self.text.lstrip()[:5].lower() == "@data":
                self.in_data = True
            elif start == "@" and "%" in self.text:
                yield _without_comment(self.text)
                continue
            yield self.text
        self.ended = True

    def shown(self) -> str:
        """The current line, shortened, for a message."""
        line = " ".join(self.text.split())
        return line if len(line) <= _SHOWN_LINE else line[:_SHOWN_LINE - 1] + "…"


def _without_comment(line: str) -> str:
    """A declaration line without a comment at its end."""
    for pattern in _COMMENT_AFTER:
        if (match := pattern.match(line)) is not None:
            return match[1]
    return line


def read_arff(text: str, size: int | None = None, encoding: str = "UTF-8") -> ArffTable:
    """Read an ARFF file's text (``size``: its bytes, for the size limit;
    ``encoding``: what it was decoded from, for the note).

    Raises
    ------
    ArffError
        The file is too big, or not ARFF as Weka writes it (the message
        names the line), or uses what dtree does not read.
    """
    size = len(text.encode("utf-8")) if size is None else size
    if size > MAX_ARFF_BYTES:
        raise ArffError("arff_too_big", mb=size / 2**20, max_mb=MAX_ARFF_BYTES / 2**20)
    lines = _Lines(text)
    try:
        decoded = arff.ArffDecoder().decode(lines, encode_nominal=True,
                                            return_type=arff.DENSE_GEN)
        attributes = [(_unescape(name), kind) for name, kind in decoded["attributes"]]
        _check_declarations(attributes)
        frame = _columns(decoded["data"], attributes)
    except arff.ArffException as exc:
        raise _refusal(exc, lines) from None
    except ArffError:
        raise
    except (ValueError, TypeError, IndexError, KeyError, OverflowError):
        # liac-arff lets a few broken lines through as Python's own errors
        raise ArffError("arff_unreadable", line=lines.number, text=lines.shown()) from None
    relation = " ".join(_unescape(decoded["relation"]).split())
    notes = [Note("read_as_arff", encoding=encoding, relation=relation or "?", n=len(attributes),
                  nominal=sum(isinstance(kind, list) for _, kind in attributes))]
    strings = [name for name, kind in attributes if kind == "STRING"]
    if strings:
        notes.append(Note("arff_strings", n=len(strings),
                          names=", ".join(f"“{name}”" for name in strings[:5])))
    if lines.sparse:
        notes.append(Note("arff_sparse", n=lines.sparse))
    return ArffTable(relation, frame, notes)


def _unescape(name) -> str:
    """A name with ARFF's backslash escapes read."""
    return _ESCAPED.sub(lambda m: _ESCAPES.get(m[1], m[1]), str(name))


def _check_declarations(attributes) -> None:
    for name, kind in attributes:
        if isinstance(kind, list) and len(set(kind)) < len(kind):
            repeated = next(v for v in kind if kind.count(v) > 1)
            raise ArffError("arff_repeated_value", name=name, value=repeated)


def _refusal(exc, lines: _Lines) -> ArffError:
    """The message for liac-arff's exception at the current line."""
    where = dict(line=lines.number, text=lines.shown())
    if isinstance(exc, arff.BadAttributeType):
        match = _DECLARATION.match(lines.text)
        kind = match["type"].lower() if match else ""
        if kind in ("date", "relational"):
            return ArffError(f"arff_{kind}", **where)
        return ArffError("arff_attribute_type", **where)
    code = {arff.BadAttributeFormat: "arff_attribute", arff.BadRelationFormat: "arff_layout",
            arff.BadAttributeName: "arff_repeated_name",
            arff.BadNominalValue: "arff_undeclared_value",
            arff.BadNominalFormatting: "arff_undeclared_value",
            arff.BadNumericalValue: "arff_not_a_number", arff.BadStringValue: "arff_unreadable",
            arff.BadDataFormat: "arff_field_count"}.get(type(exc))
    if code is None and lines.ended and not lines.in_data:
        return ArffError("arff_no_data")
    if code is None:  # BadLayout and the rest
        code = "arff_weights" if lines.in_data and re.search(r",\s*\{[^}]*\}\s*$", lines.text) \
            else "arff_layout"
    return ArffError(code, **where)


def _columns(rows, attributes) -> pd.DataFrame:
    """The rows liac-arff yields (lists, nominal values as their index) as
    columns, a block of rows at a time."""
    width = max(len(attributes), 1)
    per_chunk = max(1, _CHUNK_CELLS // width)
    blocks = [[] for _ in attributes]
    n = 0
    while True:
        chunk = list(islice(rows, per_chunk))
        if not chunk:
            break
        n += len(chunk)
        if n * width > MAX_ARFF_CELLS:
            raise ArffError("arff_too_many_values", rows=n, columns=width, max=MAX_ARFF_CELLS)
        for j, values in enumerate(zip(*chunk)):
            kind = attributes[j][1]
            if kind == "STRING":
                blocks[j].append(np.array(values, dtype=object))
            else:  # numbers, and the nominal values' indices (None: missing)
                blocks[j].append(np.array(values, dtype=float))
    columns = {}
    for (name, kind), parts in zip(attributes, blocks):
        values = np.concatenate(parts) if parts else np.empty(0, dtype=object)
        if isinstance(kind, list):
            codes = np.where(np.isnan(values), -1, values).astype(np.int64) if len(values) \
                else np.empty(0, dtype=np.int64)
            columns[name] = pd.Categorical.from_codes(codes, categories=[str(v) for v in kind])
        elif kind == "STRING":
            columns[name] = values.astype(object)
        else:
            columns[name] = values.astype(float)
    return pd.DataFrame(columns, copy=False)
