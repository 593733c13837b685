"""Tables in: the built-in datasets and uploaded files.

``read_table(data, filename)`` turns the bytes of an upload (CSV, TSV, Excel
.xlsx, Parquet or Weka's ARFF) into a DataFrame plus a list of notes for the
reader, or raises :class:`DataError` with a message meant for the page.
Nothing uploaded is executed or unpickled: CSV is parsed as text, .xlsx by
openpyxl (cell values only), Parquet by pyarrow and ARFF by liac-arff
(:mod:`.weka_arff`).

How a text file is read:

* the format comes from the file's first bytes, not its name, so an image
  or an archive renamed to .csv is recognised and refused (an Excel workbook
  renamed to .csv is read as the workbook it is); a text file is ARFF when
  it is named .arff or its first line that is not a comment is
  ``@relation``;
* the encoding is UTF-8 (with or without BOM), UTF-16 with a BOM, GB18030
  (which includes GBK, what Excel in Chinese saves) or, failing those,
  Windows-1252 / Latin-1;
* the delimiter is the one of ``, \\t ; |`` that splits the first rows into
  the most columns most consistently;
* column names are made unique, non-empty and at most ``MAX_NAME_LENGTH``
  characters long, and every such change is reported.

``BUILTIN`` is the registry of bundled datasets (one line each), each with a
short ``key`` for links; :func:`find_builtin` finds one by key or title.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .. import CodedError, Note
from .weka_arff import ArffError, read_arff

DATA_DIR = Path(__file__).resolve().parents[2] / "data"

MAX_NAME_LENGTH = 80
#: Excel files are zip archives of XML: refuse ones that unpack to more than this.
MAX_UNPACKED_BYTES = 400 * 2**20
DELIMITERS = (",", "\t", ";", "|")
_SNIFF_CHARS = 64 * 1024

# Python's csv module refuses fields over 128 kB by default; a 200 kB cell is
# legitimate data, so lift the limit (pandas' own C parser has none).
csv.field_size_limit(max(csv.field_size_limit(), 1 << 28))


class DataError(CodedError):
    """A problem with the user's data, worded for the page: a code of
    ``dtree.MESSAGES`` and its values."""


class DroppedRows(Note):
    """A note (a str, like the others) that says rows were left out:
    ``rows`` of them, for the reason ``why`` ("ragged": more fields than the
    header; "no target": a missing target value).  The page shows it as a
    warning rather than a grey caption."""

    rows: int
    why: str

    def __new__(cls, code: str, why: str, **values):
        note = super().__new__(cls, code, **values)
        note.rows, note.why = int(values["rows"]), str(why)
        return note


# ---------------------------------------------------------------------------
# Built-in datasets
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Builtin:
    """A bundled dataset: ``data/<file>`` with its target column."""

    file: str
    target: str
    description: str = ""
    #: The test fraction to start with: 0 for the textbook tables, whose
    #: printed numbers are computed on every row.
    test_size: float = 0.25
    #: A short name for links (``?data=iris``): lower case, no spaces.
    key: str = ""


#: Title -> dataset.  Adding a dataset is one line here plus the file in data/.
BUILTIN = {
    "Iris": Builtin("iris.csv", "species", "150 flowers, 4 measurements, 3 species",
                    key="iris"),
    "Wine": Builtin("wine.csv", "class", "178 wines, 13 chemical measurements, 3 cultivars",
                    key="wine"),
    "Penguins": Builtin("penguins.csv", "species",
                        "344 Palmer penguins: measurements, island, sex; some missing",
                        key="penguins"),
    "Cats (lecture example)": Builtin("cats.csv", "cat", "10 animals, 3 yes/no features",
                                      test_size=0.0, key="cats"),
    "Loan applications (Li Hang)": Builtin(
        "loan.csv", "类别", "李航《统计学习方法》表5.1: 15 applicants, 4 categorical features",
        test_size=0.0, key="loan"),
    "PlayTennis (Quinlan, Mitchell)": Builtin(
        "playtennis.csv", "PlayTennis", "14 days, 4 weather features", test_size=0.0,
        key="playtennis"),
    "Watermelon 2.0 (Zhou Zhihua)": Builtin(
        "watermelon2.csv", "好瓜", "周志华《机器学习》表4.1: 17 melons, 6 features",
        test_size=0.0, key="watermelon2"),
    "Watermelon 2.0α, missing values (Zhou Zhihua)": Builtin(
        "watermelon2_alpha.csv", "好瓜", "周志华《机器学习》表4.4: table 4.1 with gaps",
        test_size=0.0, key="watermelon2a"),
    "XOR: where greedy fails": Builtin(
        "xor.csv", "class 类别",
        "16 points: class = (x1 > 2.5) XOR (x2 > 2.5), and a noise column", test_size=0.0,
        key="xor"),
}


def find_builtin(name) -> str | None:
    """The title of the built-in dataset called ``name``: its short key
    (``"iris"``) or its full title, in any case; None for anything else
    (never a fallback)."""
    wanted = " ".join(str(name).split()).casefold()
    if not wanted:
        return None
    for title, spec in BUILTIN.items():
        if wanted in (spec.key.casefold(), title.casefold()):
            return title
    return None


def load_builtin(title: str) -> pd.DataFrame:
    """The built-in dataset called ``title``, read like an upload."""
    spec = BUILTIN[title]
    path = DATA_DIR / spec.file
    table = read_table(path.read_bytes(), path.name)
    return table.frame


# ---------------------------------------------------------------------------
# Reading uploads
# ---------------------------------------------------------------------------


@dataclass
class Table:
    """A parsed upload: the frame and what the reader should know about it."""

    frame: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    format: str = "csv"
    encoding: str | None = None
    delimiter: str | None = None
    #: The table's own name, when the file has one (an ARFF file's relation).
    title: str | None = None


# (magic bytes, what the file is) for formats that are certainly not tables.
_NOT_TABLES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"BZh", "a bzip2 archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!", "a RAR archive"),
    (b"\x7fELF", "a program (ELF executable)"),
    (b"MZ", "a Windows program"),
    (b"\x80\x04\x95", "a Python pickle (never loaded here)"),
    (b"SQLite format 3\x00", "an SQLite database"),
)
_ZIP = (b"PK\x03\x04", b"PK\x05\x06")
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # old binary .xls / .doc
_PARQUET = b"PAR1"


def read_table(data: bytes, filename: str = "upload.csv") -> Table:
    """Parse an uploaded file.  Raises :class:`DataError` on any problem."""
    if not data:
        raise DataError("empty_file")
    # (a file whose start is not blank is not: no stripped copy of all of it)
    if not data[:4096].strip() and not data.strip():
        raise DataError("blank_file")
    suffix = Path(str(filename)).suffix.lower()
    for magic, what in _NOT_TABLES:
        if data.startswith(magic):
            raise DataError("not_a_table", what=what)
    if data.startswith(_OLE):
        raise DataError("old_excel")
    if data.startswith(_ZIP):
        table = _read_excel(data)
        if suffix not in (".xlsx", ".xlsm"):
            table.notes.insert(0, Note("read_as_excel"))
    elif data.startswith(_PARQUET):
        table = _read_parquet(data)
    elif suffix in (".xlsx", ".xlsm", ".xls"):
        raise DataError("fake_excel")
    elif suffix == ".parquet":
        raise DataError("fake_parquet")
    elif suffix == ".arff" or _starts_like_arff(data):
        table = _read_arff(data)
    else:
        table = _read_text(data, prefer_tab=suffix in (".tsv", ".tab"))
    table.frame, name_notes = _clean_columns(table.frame)
    table.notes.extend(name_notes)
    if table.frame.shape[1] == 0:
        raise DataError("no_columns")
    if len(table.frame) == 0:
        raise DataError("no_rows")
    return table


def _read_excel(data: bytes) -> Table:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = archive.namelist()
        unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise DataError("broken_zip") from None
    if "xl/workbook.xml" not in names:
        raise DataError("zip_not_excel")
    if unpacked > MAX_UNPACKED_BYTES:
        raise DataError("workbook_too_big", mb=unpacked / 2**20,
                        max_mb=MAX_UNPACKED_BYTES / 2**20)
    try:
        sheets = pd.read_excel(io.BytesIO(data), sheet_name=None, header=None,
                               engine="openpyxl")
    except ImportError:
        raise DataError("needs_openpyxl") from None
    except Exception as exc:  # openpyxl raises many kinds on broken files
        raise DataError("excel_unreadable", exc=type(exc).__name__) from None
    if not sheets:
        raise DataError("no_sheets")
    name, frame = next(iter(sheets.items()))
    notes = []
    if len(sheets) > 1:
        notes.append(Note("first_sheet", n=len(sheets), name=name))
    frame = frame.dropna(how="all").dropna(axis=1, how="all")
    if frame.empty:
        raise DataError("empty_sheet")
    # the first row is the header; read it ourselves so that pandas neither
    # renames repeated names nor invents "Unnamed" ones (_clean_columns reports)
    header = [None if pd.isna(v) else v for v in frame.iloc[0]]
    frame = frame.iloc[1:].infer_objects()
    frame.columns = header
    return Table(frame, notes, format="xlsx")


_ARFF_START = re.compile(rb"\A(?:\xef\xbb\xbf)?(?:[ \t]*(?:%[^\n]*)?\r?\n)*[ \t]*@relation\b",
                         re.IGNORECASE)


def _starts_like_arff(data: bytes) -> bool:
    """Whether the first line that is neither blank nor a ``%`` comment says
    ``@relation`` (read in the first 64 KB)."""
    return _ARFF_START.match(data[:_SNIFF_CHARS]) is not None


def _read_arff(data: bytes) -> Table:
    text, encoding = decode_text(data)
    if _is_binary(text):
        raise DataError("binary_file")
    try:
        read = read_arff(text, size=len(data), encoding=encoding)
    except ArffError as exc:
        raise DataError(exc.code, **exc.values) from None
    title = read.relation  # (Weka's filters append their names to it)
    if len(title) > MAX_NAME_LENGTH:
        title = title[:MAX_NAME_LENGTH - 1] + "…"
    return Table(read.frame, read.notes, format="arff", encoding=encoding, title=title or None)


def _read_parquet(data: bytes) -> Table:
    try:
        frame = pd.read_parquet(io.BytesIO(data))
    except Exception as exc:
        raise DataError("parquet_unreadable", exc=type(exc).__name__) from None
    frame = frame.reset_index(drop=frame.index.name is None)
    return Table(frame, [], format="parquet")


def decode_text(data: bytes) -> tuple[str, str]:
    """(text, encoding name) of a text file's bytes."""
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "UTF-8 with BOM"
        except UnicodeDecodeError:
            pass
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("gb18030")
        if _looks_chinese(text):
            return text, "GB18030 (GBK)"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "Latin-1"


def _looks_chinese(text: str) -> bool:
    """Whether a GB18030 decoding is plausible: real Chinese text is written
    almost entirely in the GB2312 core set, while Latin-1 bytes read as
    GB18030 give rare characters (an accented letter followed by an ASCII
    letter is a valid but unusual two-byte code)."""
    wide = [ch for ch in text if ord(ch) > 0x7F]
    if not wide:
        return False
    common = 0
    for ch in wide:
        try:
            ch.encode("gb2312")
            common += 1
        except UnicodeEncodeError:
            pass
    return common >= 0.8 * len(wide)


#: The characters that Unicode calls control (Cc), surrogate (Cs) or private
#: use (Co), but for tab, newline and carriage return: ranges the standard
#: never changes (tests/tables/test_io.py checks them against unicodedata).
#: One regular expression instead of a category lookup per character
#: (about 20 ms on a 64 KB sample).
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ue000-\uf8ff"
                       "\U000f0000-\U000ffffd\U00100000-\U0010fffd]")


def _is_binary(text: str) -> bool:
    """Text with NULs or many control characters is not a table."""
    sample = text[:_SNIFF_CHARS]
    if "\x00" in sample:
        return True
    controls = len(_CONTROLS.findall(sample))
    return controls > 0.01 * max(len(sample), 1)


def sniff_delimiter(text: str, prefer_tab: bool = False) -> str:
    """The delimiter that splits the first rows into the most columns, most
    consistently (ties: tab for .tsv files, else the order of DELIMITERS)."""
    sample = text[:_SNIFF_CHARS]
    truncated = len(text) > len(sample)
    order = ("\t",) + tuple(d for d in DELIMITERS if d != "\t") if prefer_tab else DELIMITERS
    best, best_score = order[0] if prefer_tab else ",", (0.0, 1)
    for delim in order:
        try:
            rows = [r for r in csv.reader(io.StringIO(sample), delimiter=delim) if r]
        except csv.Error:
            continue
        if truncated and len(rows) > 1:
            rows = rows[:-1]  # the last row may be cut in the middle
        rows = rows[:100]
        if not rows or len(rows[0]) < 2:
            continue
        width = len(rows[0])
        consistency = sum(len(r) == width for r in rows) / len(rows)
        score = (round(consistency, 2), width)
        if consistency >= 0.5 and score > best_score:
            best, best_score = delim, score
    return best


_DELIMITER_NAMES = {",": "comma", "\t": "tab", ";": "semicolon", "|": "vertical bar"}


def _is_ascii(data: bytes) -> bool:
    # (a function of its own so that tests/tables/test_io.py can turn the ASCII
    # path off and compare it with decode_text's)
    return data.isascii()


def _read_text(data: bytes, prefer_tab: bool) -> Table:
    if _is_ascii(data):
        # ASCII is UTF-8 (what decode_text would say): the checks below read
        # only the first 64 KB, so the whole text is decoded only if needed
        # (a header longer than that, or the row-by-row parser below)
        text, encoding = None, "UTF-8"
        # (one character more than the sample: sniff_delimiter then knows
        # whether the file goes on past it, as it would from the whole text)
        start = data[:_SNIFF_CHARS + 1].decode("ascii")
    else:
        text, encoding = decode_text(data)
        start = text

    def whole_text() -> str:
        return data.decode("ascii") if text is None else text

    if _is_binary(start):
        raise DataError("binary_file")
    delim = sniff_delimiter(start, prefer_tab)
    # the header from the first 64 KB (all of the text when no line ends there)
    head = start[:1 << 16]
    try:
        header = next(csv.reader(io.StringIO(head if "\n" in head else whole_text()),
                                 delimiter=delim))
    except StopIteration:
        raise DataError("no_header") from None
    except csv.Error as exc:
        raise DataError("bad_header", detail=str(exc)) from None
    names = [str(n) for n in header]
    notes = [Note("read_as_text", encoding=encoding, delimiter=_DELIMITER_NAMES[delim])]
    options = dict(sep=delim, header=0, names=_unique(names)[0], index_col=False,
                   skip_blank_lines=True)
    # UTF-8 bytes go to the C parser as they are (no second copy of the text)
    source = (io.BytesIO(data[3:] if encoding == "UTF-8 with BOM" else data)
              if encoding in ("UTF-8", "UTF-8 with BOM") else io.StringIO(text))
    try:
        frame = pd.read_csv(source, engine="c", low_memory=False,
                            encoding="utf-8" if isinstance(source, io.BytesIO) else None,
                            **options)
    except pd.errors.ParserError:
        bad = []

        def skip(fields):
            bad.append(len(fields))
            return None

        try:
            frame = pd.read_csv(io.StringIO(whole_text()), engine="python", on_bad_lines=skip,
                                **options)
        except (pd.errors.ParserError, csv.Error, ValueError) as exc:
            raise DataError("unparsable", detail=str(exc)) from None
        notes.append(DroppedRows("ragged_rows", "ragged", rows=len(bad), fields=len(names)))
    except (pd.errors.EmptyDataError, UnicodeError, ValueError) as exc:
        raise DataError("unparsable", detail=str(exc)) from None
    # the header gave the names; _clean_columns reports the changes made to them
    frame.columns = names
    if delim != ",":
        frame, converted = _decimal_commas(frame)
        if converted:
            notes.append(Note("decimal_commas", n=converted))
    return Table(frame, notes, format="csv", encoding=encoding, delimiter=delim)


_DECIMAL_COMMA = r"^\s*[-+]?\d+(?:,\d+)?\s*$"


def _decimal_commas(frame):
    """Text columns that are numbers written with a decimal comma, as numbers
    (files from locales that separate columns with ; or tabs)."""
    converted = 0
    for j, name in enumerate(frame.columns):
        col = frame.iloc[:, j]
        if pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
            continue
        present = col.dropna().astype(str)
        if len(present) and present.str.contains(",").any() and \
                present.str.match(_DECIMAL_COMMA).all():
            frame.isetitem(j, pd.to_numeric(col.astype(str).str.replace(",", ".")
                                            .where(col.notna())))
            converted += 1
    return frame, converted


def _unique(names):
    """Names made non-empty, short and unique; and a note per kind of change."""
    notes = []
    out = []
    empty, long = [], []
    for i, raw in enumerate(names):
        name = "" if raw is None else " ".join(str(raw).split())
        if name == "":
            name = f"column {i + 1}"
            empty.append(i + 1)
        if len(name) > MAX_NAME_LENGTH:
            name = name[: MAX_NAME_LENGTH - 1] + "…"
            long.append(i + 1)
        out.append(name)
    seen = {}
    repeated = []
    for i, name in enumerate(out):
        if name in seen:
            k = seen[name] + 1
            while f"{name} ({k})" in seen:
                k += 1
            seen[name] = k
            out[i] = f"{name} ({k})"
            seen[out[i]] = 1
            repeated.append(name)
        else:
            seen[name] = 1
    if empty:
        notes.append(Note("unnamed_columns", n=len(empty)))
    if long:
        notes.append(Note("long_names", n=len(long), max=MAX_NAME_LENGTH))
    if repeated:
        shown = ", ".join(sorted(set(repeated))[:5])
        notes.append(Note("repeated_names", names=shown))
    return out, notes


def _clean_columns(frame: pd.DataFrame):
    names, notes = _unique([None if (isinstance(c, float) and np.isnan(c)) else c
                            for c in frame.columns])
    frame = frame.copy(deep=False)
    frame.columns = names
    return frame.reset_index(drop=True), notes
