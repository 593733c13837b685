"""Reading Weka's ARFF files (dtree/tables/weka_arff.py through read_table).

The oracles are independent of liac-arff: the test suite's own ARFF reader
and writer (tests/helpers/weka.py, written from the format's description)
and scipy.io.arff, on Weka's example files; refusals are checked against the
line each hostile file was built to break at.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from scipy.io import arff as scipy_arff

from dtree.tables import weka_arff
from dtree.tables.io import DataError, read_table
from dtree.tables.prepare import Setup, infer_task, infer_types, prepare
from dtree.views.messages import MESSAGES_ZH
from tests.helpers.upload_corpus import HOSTILE
from tests.helpers.weka import example_files, read_arff_meta, require_weka, write_arff
from tests.helpers.arff_refusals import HEADER, REFUSED


def read(text, name="t.arff"):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return read_table(data, name)


def _simple_examples():
    """Weka's examples with numeric and nominal attributes only."""
    out = []
    for path in example_files():
        _, attrs, _ = read_arff_meta(path)
        if all(kind == "numeric" or isinstance(kind, list) for _, kind in attrs):
            out.append(path)
    return out


# -- Weka's examples, against two other readers ---------------------------------------

def test_every_weka_example_is_read():
    require_weka(data_only=True)
    paths = example_files()
    assert len(paths) >= 20
    for path in paths:
        table = read(path.read_bytes(), path.name)
        relation, attrs, rows = read_arff_meta(path)
        assert table.format == "arff" and table.frame.shape == (len(rows), len(attrs))
        assert table.title == (relation if len(relation) <= 80 else relation[:79] + "…")
        assert [str(n) for n in table.frame.columns] == [name for name, _ in attrs]


@pytest.mark.parametrize("path", _simple_examples(), ids=lambda p: p.stem)
def test_examples_match_the_suites_own_reader(path):
    """Nominal attributes are Categoricals with the declared values in declared
    order (the unused ones too), ? is NaN, numbers are floats."""
    frame = read(path.read_bytes(), path.name).frame
    _, attrs, rows = read_arff_meta(path)
    for j, (name, kind) in enumerate(attrs):
        col, raw = frame.iloc[:, j], [r[j] for r in rows]
        missing = np.array([v == "?" for v in raw])
        np.testing.assert_array_equal(col.isna().to_numpy(), missing)
        if kind == "numeric":
            assert col.dtype == np.float64
            np.testing.assert_array_equal(col.to_numpy()[~missing],
                                          [float(v) for v, m in zip(raw, missing) if not m])
        else:
            assert isinstance(col.dtype, pd.CategoricalDtype)
            assert list(col.cat.categories) == kind
            assert col[~missing].astype(str).tolist() == [v for v, m in zip(raw, missing)
                                                          if not m]


@pytest.mark.parametrize("name", ["weather.nominal", "iris", "labor", "vote", "credit-g",
                                  "supermarket"])
def test_examples_match_scipy(name):
    """scipy.io.arff (a second, independent parser) reads the same values."""
    require_weka(data_only=True)
    path = next(p for p in example_files() if p.stem == name)
    frame = read(path.read_bytes(), path.name).frame
    data, meta = scipy_arff.loadarff(str(path))
    for j, attr in enumerate(meta.names()):
        col = frame.iloc[:, j]
        kind, values = meta[attr]
        if kind == "numeric":
            np.testing.assert_array_equal(col.to_numpy(), data[attr])
        else:
            theirs = [v.decode() for v in data[attr]]
            ours = ["?" if pd.isna(v) else v for v in col.astype(object)]
            assert ours == theirs
            assert tuple(col.cat.categories) == tuple(values)


def test_string_attributes_are_read_as_text_with_a_note():
    require_weka(data_only=True)
    path = next(p for p in example_files() if p.stem == "ReutersCorn-train")
    table = read(path.read_bytes(), path.name)
    _, attrs, rows = read_arff_meta(path)
    assert attrs[0][1] == "string" and len(table.frame) == len(rows)
    # ARFF's \n inside quotes is a line break (the suite's reader keeps the letter)
    first = table.frame.iloc[0, 0]
    assert first.startswith("BAHIA COCOA REVIEW Showers") and "\n" in first
    assert first.replace("\n", "n") == rows[0][0]
    assert "arff_strings" in [n.code for n in table.notes]


# -- what the app does with the columns ---------------------------------------------

NUMBERS_AS_NOMINAL = """% a comment first
@relation 'grades: term 2'
@attribute score numeric
@attribute level {3,1,2,9}
@attribute pass {no,yes}
@data
1.5,3,yes
?,1,no
2.5,?,yes
3.0,2,?
4.5,1,no
5,3,yes
"""


def test_nominal_numbers_stay_categories_in_declared_order_through_prepare():
    table = read(NUMBERS_AS_NOMINAL)
    frame = table.frame
    assert table.title == "grades: term 2"
    types, _ = infer_types(frame)
    assert types == {"score": "numeric", "level": "categorical", "pass": "categorical"}
    assert infer_task(frame["pass"]) == "classification"
    prep = prepare(frame, Setup("pass", ("score", "level"), ("level",), test_size=0.0))
    assert prep.origin["level"].category == ("3", "1", "2", "9")  # 9 never occurs
    level = prep.X_train["level"]
    assert list(level.cat.categories) == ["3", "1", "2", "9"]
    assert level.isna().sum() == 1 and len(prep.y_train) == 5  # the missing class left out


def test_a_categorical_declared_by_its_values_keeps_its_order_in_the_engine():
    from dtree import DecisionTreeClassifier

    prep = prepare(read(NUMBERS_AS_NOMINAL).frame,
                   Setup("pass", ("score", "level"), ("level",), test_size=0.0))
    est = DecisionTreeClassifier(algorithm="j48", categorical_features=["level"],
                                 min_objects=1).fit(prep.X_train, prep.y_train)
    assert list(est.categories_[1]) == ["3", "1", "2", "9"]


def test_sparse_rows_are_the_dense_rows_they_stand_for():
    header = "@relation s\n@attribute a numeric\n@attribute b numeric\n" \
             "@attribute c {x,y,z}\n@attribute d numeric\n@data\n"
    sparse = read(header + "{0 1.5, 2 y}\n{1 2, 3 ?}\n{}\n{2 z, 3 4}\n")
    dense = read(header + "1.5,0,y,0\n0,2,x,?\n0,0,x,0\n0,0,z,4\n")
    pd.testing.assert_frame_equal(sparse.frame, dense.frame)
    note = next(n for n in sparse.notes if n.code == "arff_sparse")
    assert note.values["n"] == 4


def test_a_text_file_starting_with_relation_is_arff_whatever_its_name():
    table = read(NUMBERS_AS_NOMINAL, "grades.csv")
    assert table.format == "arff" and table.frame.shape == (6, 3)
    with pytest.raises(DataError) as info:  # and a CSV named .arff is not ARFF
        read("a,b\n1,2\n", "x.arff")
    assert info.value.code == "arff_no_data"


def test_encodings_comments_and_line_ends():
    text = ("%% 中文注释\r\n@RELATION 天气\r\n@ATTRIBUTE 温度 REAL % 摄氏度\r\n"
            "@ATTRIBUTE 'windy day' {是,否} % 有风\r\n@DATA\r\n21.5,是\r\n% 注释\r\n\r\n?,否\r\n")
    expected = pd.DataFrame({"温度": [21.5, np.nan],
                             "windy day": pd.Categorical(["是", "否"], categories=["是", "否"])})
    for encoding, name in (("utf-8", "UTF-8"), ("utf-8-sig", "UTF-8 with BOM"),
                           ("gb18030", "GB18030 (GBK)"), ("utf-16", "UTF-16")):
        table = read(text.encode(encoding), "w.arff")
        assert table.title == "天气" and table.encoding == name
        pd.testing.assert_frame_equal(table.frame, expected, check_categorical=False)
        assert list(table.frame["windy day"].cat.categories) == ["是", "否"]


# -- refusals: the line they name ---------------------------------------------------


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_broken_files_are_refused_with_their_line(name):
    text, code, line = REFUSED[name]
    with pytest.raises(DataError) as info:
        read(text)
    assert info.value.code == code
    if line is not None:
        assert info.value.values["line"] == line
        assert f"Line {line}" in str(info.value)
        assert f"第 {line} 行" in MESSAGES_ZH[code].format(**info.value.values)


def test_repeated_declared_values_are_refused():
    with pytest.raises(DataError, match="declares the value “a” twice"):
        read("@relation r\n@attribute c {a,b,a}\n@data\na\n")


def test_a_long_line_is_shortened_in_the_message():
    with pytest.raises(DataError) as info:
        read(HEADER + "1,a\n" + "9," * 5000 + "a\n")
    assert len(info.value.values["text"]) <= 60


def test_too_big_files_are_refused_before_parsing():
    data = b"@relation r\n@attribute x numeric\n@data\n" + b"1\n" * (10 * 2**20 + 1)
    with pytest.raises(DataError) as info:
        read(data)
    assert info.value.code == "arff_too_big" and info.value.values["mb"] > 20


def test_too_many_values_are_refused_while_reading(monkeypatch):
    monkeypatch.setattr(weka_arff, "MAX_ARFF_CELLS", 1000)
    monkeypatch.setattr(weka_arff, "_CHUNK_CELLS", 100)
    header = "@relation wide\n" + "".join(f"@attribute a{i} numeric\n" for i in range(50))
    rows = "{0 1}\n" * 30  # 30 sparse rows read dense: 1500 values
    with pytest.raises(DataError) as info:
        read(header + "@data\n" + rows)
    assert info.value.code == "arff_too_many_values"
    assert info.value.values["columns"] == 50 and info.value.values["rows"] <= 22


@pytest.mark.parametrize("data", [
    b"@relation r\n@attribute x numeric\n@data\n" + bytes(range(256)) * 8,
    "@relation r\n@attribute x numeric\n@data\n1\n".encode("utf-16-le"),
    b"\x89PNG\r\n\x1a\n" + bytes(64),
    b"",
], ids=["binary rows", "no BOM UTF-16", "image", "empty"])
def test_binary_files_named_arff_are_refused(data):
    with pytest.raises(DataError) as info:
        read(data, "x.arff")
    assert len(str(info.value)) > 20


# -- round trips: the suite's own ARFF writer, then read_table -------------------------

LABELS = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Co", "Zl", "Zp")),
                 min_size=1, max_size=8).map(lambda s: " ".join(s.split()) or "v")


@st.composite
def tables(draw):
    n = draw(st.integers(1, 12))
    columns = {}
    for j in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            values = draw(st.lists(st.one_of(st.none(), st.floats(-1e6, 1e6, width=32)),
                                   min_size=n, max_size=n))
            columns[f"x{j}"] = np.array([np.nan if v is None else v for v in values])
        else:
            declared = draw(st.lists(LABELS.filter(lambda s: s != "?"), min_size=1, max_size=5,
                                     unique=True))
            values = draw(st.lists(st.one_of(st.none(), st.sampled_from(declared)),
                                   min_size=n, max_size=n))
            columns[draw(st.sampled_from(HOSTILE)) + str(j)] = pd.Categorical(
                values, categories=declared)
    y = pd.Series(pd.Categorical(draw(st.lists(st.sampled_from(["yes", "no"]), min_size=n,
                                               max_size=n)), categories=["yes", "no"]),
                  name="class")
    return pd.DataFrame(columns), y


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_what_the_suites_writer_writes_is_read_back(tmp_path_factory, table):
    X, y = table
    path = write_arff(tmp_path_factory.mktemp("rt") / "t.arff", X, y, relation="round trip")
    frame = read(path.read_bytes(), "t.arff").frame
    expected = X.copy()
    expected["class"] = y.to_numpy()
    assert list(frame.columns) == list(expected.columns)
    for name in expected.columns:
        ours, theirs = frame[name], expected[name]
        if isinstance(theirs.dtype, pd.CategoricalDtype):
            assert list(ours.cat.categories) == list(theirs.cat.categories)
            assert [None if pd.isna(v) else v for v in ours.astype(object)] == \
                [None if pd.isna(v) else v for v in theirs.astype(object)]
        else:
            np.testing.assert_array_equal(ours.to_numpy(), theirs.to_numpy())


def test_reading_is_bounded_by_chunks_not_by_the_table(monkeypatch):
    """The rows become columns a block at a time: the same frame whatever
    the block size."""
    text = HEADER + "".join(f"{i},{'ab'[i % 3 == 0]}\n" if i % 7 else "?,?\n"
                            for i in range(1000))
    whole = read(text).frame
    monkeypatch.setattr(weka_arff, "_CHUNK_CELLS", 7)
    pd.testing.assert_frame_equal(read(text).frame, whole)
    assert whole.shape == (1000, 2) and whole["x"].isna().sum() == 143


def test_quoted_names_and_values_are_unescaped():
    table = read("@relation 'Weka\\'s \"own\" data'\n@attribute 'it\\'s' numeric\n"
                 "@attribute \"a, b\" {'x\\'y','c,d'}\n@data\n1,'x\\'y'\n2,'c,d'\n")
    assert table.title == "Weka's \"own\" data"
    assert list(table.frame.columns) == ["it's", "a, b"]
    assert list(table.frame["a, b"].cat.categories) == ["x'y", "c,d"]
