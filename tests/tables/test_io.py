"""Reading uploads (formats, encodings, delimiters, bad files) and preparing a
table for the engine (types, task, encoding of categories, missing values,
the split)."""

import functools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dtree.tables.io import BUILTIN, MAX_NAME_LENGTH, DataError, load_builtin, read_table
from dtree.tables.prepare import (MANY_CATEGORIES, MAX_CATEGORIES, MAX_CLASSES, Setup,
                                  column_summary, estimator_for, identifier_columns, infer_task,
                                  infer_types, prepare, split_indices)
from tests.helpers.upload_corpus import CORPUS, EXPECT, HOSTILE


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_reads_or_refuses_with_a_message(name):
    data = CORPUS[name]()
    if EXPECT.get(name) == "error":
        with pytest.raises(DataError) as info:
            read_table(data, name)
        assert len(str(info.value)) > 20  # a sentence, not a code
    else:
        table = read_table(data, name)
        assert len(table.frame) >= 1 and table.frame.shape[1] >= 1
        assert table.frame.columns.is_unique


@pytest.mark.parametrize("name, message", [
    ("empty.csv", "empty"), ("garbage.csv", "binary"), ("image.csv", "PNG image"),
    ("archive.csv", "zip archive"), ("not_really.xlsx", "not one"),
])
def test_refusals_say_what_the_file_is(name, message):
    with pytest.raises(DataError, match=message):
        read_table(CORPUS[name](), name)


@pytest.mark.parametrize("name, encoding, delimiter", [
    ("gbk_chinese.csv", "GB18030 (GBK)", ","),
    ("latin1_semicolons.csv", "Windows-1252", ";"),
    ("utf8_bom.tsv", "UTF-8 with BOM", "\t"),
    ("utf16.txt", "UTF-16", "\t"),
    ("hostile_names.csv", "UTF-8", ","),
])
def test_encodings_and_delimiters_are_detected(name, encoding, delimiter):
    table = read_table(CORPUS[name](), name)
    assert (table.encoding, table.delimiter) == (encoding, delimiter)


def test_chinese_names_and_labels_survive():
    frame = read_table(CORPUS["gbk_chinese.csv"](), "loan.csv").frame
    assert list(frame.columns) == ["年龄", "有工作", "有自己的房子", "信贷情况", "类别"]
    assert set(frame["类别"]) == {"是", "否"}


def test_latin1_text_is_not_mistaken_for_gbk():
    table = read_table(CORPUS["latin1_semicolons.csv"](), "villes.csv")
    assert list(table.frame["ville"]) == ["Genève", "Zürich", "Sète", "Lyon"]
    assert table.frame["température"].tolist() == [12.5, 10.0, 18.0, 14.0]  # decimal commas


def test_hostile_names_are_kept_verbatim():
    frame = read_table(CORPUS["hostile_names.csv"](), "h.csv").frame
    assert list(frame.columns) == HOSTILE


def test_ragged_rows_are_reported():
    table = read_table(CORPUS["ragged.csv"](), "r.csv")
    assert any("more fields than the header" in n for n in table.notes)


def test_repeated_empty_and_long_names():
    long = "x" * 500
    data = f"a,a,,{long},label\n1,2,3,4,y\n5,6,7,8,n\n".encode()
    table = read_table(data, "n.csv")
    names = list(table.frame.columns)
    assert names[:3] == ["a", "a (2)", "column 3"]
    assert len(names[3]) == MAX_NAME_LENGTH and names[3].endswith("…")
    assert len(table.notes) == 4  # how it was read + one per kind of renaming


def test_quoted_newlines_and_big_cells():
    frame = read_table(CORPUS["quoted_newlines.csv"](), "q.csv").frame
    assert frame.loc[0, "note"] == "first line\nsecond line" and len(frame) == 6
    frame = read_table(CORPUS["big_cell.csv"](), "b.csv").frame
    assert len(frame.loc[0, "text"]) == 200_000


def test_excel_and_parquet():
    frame = read_table(CORPUS["table.xlsx"](), "t.xlsx").frame
    assert list(frame.columns) == ["x", "名字", "label"] and len(frame) == 6
    assert pd.api.types.is_numeric_dtype(frame["x"])
    frame = read_table(CORPUS["table.parquet"](), "t.parquet").frame
    assert list(frame.columns) == ["x", "label"]


def test_builtin_registry():
    for title, spec in BUILTIN.items():
        frame = load_builtin(title)
        assert spec.target in frame.columns, title


# -- preparing ---------------------------------------------------------------------

def test_types_and_task_inference():
    frame = pd.DataFrame({"n": [1.5, 2.0, 3.0, 4.0], "t": ["1", "2", "3", "x"],
                          "s": ["a", "b", "a", "b"], "b": [True, False, True, False],
                          "k": ["1", "2", "3", "4"]})
    types, notes = infer_types(frame)
    assert types == {"n": "numeric", "t": "categorical", "s": "categorical",
                     "b": "categorical", "k": "numeric"}
    assert len(notes) == 1 and "mixes numbers and text" in notes[0]
    assert infer_task(pd.Series(["a", "b"])) == "classification"
    assert infer_task(pd.Series([0, 1, 2, 1])) == "classification"
    assert infer_task(pd.Series(np.linspace(0, 1, 50))) == "regression"
    assert infer_task(pd.Series(np.arange(100))) == "regression"


def test_summary():
    frame = pd.DataFrame({"a": [None, 2.0, 2.0], "b": ["x", None, "y"]})
    summary = column_summary(frame, {"a": "numeric", "b": "categorical"})
    assert summary["missing"].tolist() == [1, 1]
    assert summary["distinct"].tolist() == [1, 2]
    assert summary["example"].tolist() == ["2.0", "x"]


def loan():
    return read_table(CORPUS["gbk_chinese.csv"](), "loan.csv").frame


def test_categorical_features_go_to_the_engine_as_labels():
    frame = loan()
    features = tuple(frame.columns[:-1])
    prep = prepare(frame, Setup("类别", features, features, "classification", 0.0))
    assert prep.feature_names == list(features)
    assert prep.categorical == features
    assert prep.origin["年龄"].category == ("中年", "老年", "青年")
    assert prep.X_train["年龄"].tolist().count("青年") == 5


@pytest.mark.parametrize("preset, gain", [("ID3", 0.420), ("C4.5", 0.420)])
def test_presets_grow_the_textbook_root_split(preset, gain):
    """Li Hang's loan table: the root splits on 有自己的房子 (g = 0.420) with
    one branch per category."""
    frame = loan()
    features = tuple(frame.columns[:-1])
    prep = prepare(frame, Setup("类别", features, features, "classification", 0.0))
    model = estimator_for("classification", preset, "gini", prep).fit(prep.X_train,
                                                                      prep.y_train)
    root = model.steps_[0]
    assert root.feature_name == "有自己的房子" and root.kind == "multiway"
    assert round(root.gain, 3) == gain
    assert model.criterion_ == {"ID3": "entropy", "C4.5": "gain_ratio"}[preset]
    cart = estimator_for("classification", "CART", "gini", prep).fit(prep.X_train,
                                                                     prep.y_train)
    assert all(len(s.children) == 2 for s in cart.steps_)


def test_many_categories_are_kept_with_a_note_and_too_many_refused():
    n = MANY_CATEGORIES + 5
    frame = pd.DataFrame({"c": [f"v{i}" for i in range(n)] * 2, "y": ["a", "b"] * n})
    prep = prepare(frame, Setup("y", ("c",), ("c",), "classification", 0.0))
    assert prep.feature_names == ["c"] and prep.origin["c"].kind == "categorical"
    assert any(f"{n} categories" in note for note in prep.notes)
    n = MAX_CATEGORIES + 1
    frame = pd.DataFrame({"c": [f"v{i}" for i in range(n)], "y": ["a", "b"] * (n // 2) + ["a"]})
    with pytest.raises(DataError, match="identifier"):
        prepare(frame, Setup("y", ("c",), ("c",), "classification", 0.0))


def test_missing_values_are_kept_and_infinite_ones_become_missing():
    frame = pd.DataFrame({"x": [1.0, np.inf, 3.0, None, 5.0, 6.0],
                          "c": ["u", "v", "u", None, "v", "u"],
                          "y": ["a", "b", None, "b", "a", "b"]})
    prep = prepare(frame, Setup("y", ("x", "c"), ("c",), "classification", 0.0))
    assert len(prep.y_train) == 5  # only the row without a target is left out
    assert prep.X_train["x"].isna().sum() == 2 and prep.X_train["c"].isna().sum() == 1
    text = " ".join(prep.notes)
    assert "infinite" in text and "missing target" in text and "missing value" in text
    complete = prep.complete_rows()  # what ID3 trains on
    assert len(complete.y_train) == 3 and not complete.has_missing()
    assert "left out" in complete.notes[-1]


@pytest.mark.parametrize("infinite", [False, True])
def test_prepare_never_writes_the_table_and_copies_its_numbers_once(infinite):
    """The training and test rows are the only copies of a float table's
    numbers that prepare() makes (it used to stack them twice more), and the
    table itself is never written, infinities included."""
    import tracemalloc
    rng = np.random.default_rng(0)
    n = 100_000
    frame = pd.DataFrame(rng.normal(size=(n, 10)), columns=[f"x{i}" for i in range(10)])
    if infinite:
        frame.iloc[::7, 3] = np.inf
    frame["y"] = rng.choice(["a", "b", "c"], n)
    before = frame.copy()
    setup = Setup("y", tuple(f"x{i}" for i in range(10)), test_size=0.25)
    tracemalloc.start()
    try:
        prep = prepare(frame, setup)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    pd.testing.assert_frame_equal(frame, before)
    assert prep.X_train["x3"].isna().any() == infinite
    # the training rows' numbers are one array (reading them copies nothing)
    assert np.shares_memory(prep.X_train.to_numpy(), prep.X_train.to_numpy())
    numbers = n * 10 * 8
    # the rows taken (1x), the labels and codes, and for infinities the
    # cleaned copy (1x more); the stacked copies made it 3.4x
    assert peak < (2.0 if not infinite else 2.75) * numbers, peak / numbers


def test_c45_and_cart_fit_rows_with_missing_values():
    frame = pd.read_csv(Path(__file__).resolve().parents[2] / "data/watermelon2_alpha.csv")
    features = tuple(frame.columns[1:-1])  # without 编号
    prep = prepare(frame, Setup("好瓜", features, features, "classification", 0.0))
    assert len(prep.y_train) == 17 and prep.has_missing()
    c45 = estimator_for("classification", "C4.5", "gini", prep).fit(prep.X_train,
                                                                    prep.y_train)
    # Zhou Zhihua, 4.4.2: the root splits on 纹理 with gain 0.424 (rho-weighted)
    assert c45.steps_[0].feature_name == "纹理" and round(c45.steps_[0].gain, 3) == 0.424
    cart = estimator_for("classification", "CART", "gini", prep).fit(prep.X_train,
                                                                     prep.y_train)
    assert cart.tree_.n_node_samples[0] == 17


@pytest.mark.parametrize("frame, setup, message", [
    (pd.DataFrame({"x": [1, 2], "y": [None, None]}), Setup("y", ("x",)), "no values"),
    (pd.DataFrame({"y": ["a", "b"]}), Setup("y", ()), "at least one feature"),
    (pd.DataFrame({"x": [1.0], "y": ["a"]}), Setup("y", ("x",)), "at least 2"),
    (pd.DataFrame({"x": range(200), "y": [f"id{i}" for i in range(200)]}),
     Setup("y", ("x",)), "too many"),
    (pd.DataFrame({"x": [1, 2, 3], "y": ["a", "b", "c"]}),
     Setup("y", ("x",), task="regression"), "text values"),
])
def test_unusable_setups_raise_a_message(frame, setup, message):
    with pytest.raises(DataError, match=message):
        prepare(frame, setup)


def test_id_like_targets_are_refused_above_the_class_limit():
    n = MAX_CLASSES + 1
    frame = pd.DataFrame({"x": range(n), "y": [f"c{i}" for i in range(n)]})
    with pytest.raises(DataError, match=str(n)):
        prepare(frame, Setup("y", ("x",)))


def test_split_is_seeded_and_stratified():
    y = np.array(["a"] * 40 + ["b"] * 20)
    train, test = split_indices(y, 0.25, 7, "classification")
    again = split_indices(y, 0.25, 7, "classification")
    assert np.array_equal(train, again[0]) and np.array_equal(test, again[1])
    assert sorted(np.concatenate([train, test])) == list(range(60))
    assert (y[test] == "a").sum() == 10 and (y[test] == "b").sum() == 5
    other = split_indices(y, 0.25, 8, "classification")[1]
    assert not np.array_equal(test, other)


def test_identifier_columns_are_recognised():
    frame = pd.DataFrame({"ID": range(1, 16), "day": [f"D{i}" for i in range(15)],
                          "x": np.arange(15) * 1.5, "k": [3, 1, 2] * 5,
                          "seq0": np.random.default_rng(0).permutation(15),
                          "y": ["a", "b", "c"] * 5})
    assert identifier_columns(frame) == ["ID", "day", "seq0"]
    assert identifier_columns(frame.head(5)) == []  # too short to tell
    for name in ("loan.csv", "watermelon2.csv", "playtennis.csv"):
        table = load_builtin_file(name)
        assert identifier_columns(table) == [table.columns[0]], name
    assert identifier_columns(load_builtin_file("iris.csv")) == []
    assert identifier_columns(load_builtin_file("wine.csv")) == []


def load_builtin_file(name):
    return pd.read_csv(Path(__file__).resolve().parents[2] / "data" / name)


def test_identifiers_are_found_past_the_first_rows_and_repeats_anywhere_rule_one_out():
    n = 3_000
    rows = np.random.default_rng(0).permutation(n)
    frame = pd.DataFrame({"id": rows + 1, "code": [f"D{i}" for i in rows],
                          "late_repeat": np.r_[np.arange(n - 1), 5],  # unique in the first rows
                          "gap": np.r_[np.arange(n - 1), n + 7],  # unique, not 0..n-1
                          "x": np.linspace(0, 1, n)})
    assert identifier_columns(frame) == ["id", "code"]
    text = frame["code"].astype(object)
    text.iloc[-1] = "D0"
    assert identifier_columns(frame.assign(code=text)) == ["id"]


@pytest.mark.parametrize("labels", [["b", "a", "c"], [3, 1, 2], ["是", "否", "否"]])
def test_the_split_is_the_same_with_the_target_codes_given(labels):
    rng = np.random.default_rng(3)
    y = np.asarray(labels, dtype=object)[rng.integers(0, 3, 500)]
    codes = pd.factorize(y, sort=True)[0]
    for seed in (0, 1):
        a = split_indices(y, 0.25, seed, "classification")
        b = split_indices(y, 0.25, seed, "classification", codes=codes)
        assert all(np.array_equal(u, v) for u, v in zip(a, b))


def test_prepare_codes_text_labels_once_and_keeps_them_as_text():
    frame = pd.DataFrame({"x": np.arange(40.0), "y": ["b", "a", None, "c"] * 10})
    prep = prepare(frame, Setup("y", ("x",), test_size=0.25))
    assert len(prep.y_train) + len(prep.y_test) == 30  # the 10 missing targets left out
    assert set(prep.y_train) | set(prep.y_test) == {"a", "b", "c"}
    assert all(type(v) is str for v in prep.y_train)


# -- ASCII files are read without decoding the whole text ----------------------------

@functools.lru_cache(maxsize=1)
def _tricky_ascii_files():
    """Text files (ASCII) for the fast path: the corpus's, and some whose
    sniffing depends on the file going on past the first 64 KB."""
    files = {name: make() for name, make in CORPUS.items()
             if not name.endswith((".xlsx", ".parquet")) and make().isascii()}
    rows = "".join(f"{i};{i % 7},5;{'ab'[i % 2]}\n" for i in range(9000))  # > 64 KB
    files["semicolons_long.csv"] = ("x;y;label\n" + rows).encode()
    files["quoted_missing.csv"] = (b'a,b,label\n"1.5",,x\n"2",NA,"y, z"\n,3,\n'
                                   b'4,"",x\n')
    files["long_header.csv"] = (",".join(f"c{i:06d}" for i in range(12000)) + "\n"
                                + ",".join("1" for _ in range(12000)) + "\n").encode()
    files["no_newline.csv"] = b"a,b,label"
    files["tabs.tsv"] = b"a\tb\tlabel\n1\t2\tx\n3\t4\ty\n"
    files["crlf_bool.csv"] = b"a,b,label\r\n1,True,x\r\n2,False,y\r\n3,,x\r\n"
    files["nul_bytes.csv"] = "a,b\n1,2\n".encode("utf-16-le")  # ASCII bytes, binary text
    files["controls.csv"] = b"a,b\n" + bytes(range(1, 9)) * 200
    return files


@pytest.mark.parametrize("name", sorted(_tricky_ascii_files()))
def test_ascii_files_read_as_with_the_whole_text_decoded(name, monkeypatch):
    from dtree.tables import io as table_io

    data = _tricky_ascii_files()[name]

    def read():
        try:
            table = read_table(data, name)
        except DataError as exc:
            return ("refused", str(exc))
        return (table.frame, table.notes, table.encoding, table.delimiter)

    fast = read()
    monkeypatch.setattr(table_io, "_is_ascii", lambda data: False)  # decode_text's path
    slow = read()
    if isinstance(fast[0], str):
        assert fast == slow
        return
    pd.testing.assert_frame_equal(fast[0], slow[0])
    assert fast[1:] == slow[1:]


# -- the column summary's distinct counts ---------------------------------------------

def test_summary_counts_distinct_values_as_pandas_does():
    rng = np.random.default_rng(3)
    n = 2000
    frame = pd.DataFrame({
        "floats": rng.normal(size=n).round(2),
        "with_nan": np.where(rng.random(n) < 0.2, np.nan, rng.integers(0, 50, n) / 4),
        "zeros": np.where(rng.random(n) < 0.5, 0.0, -0.0),
        "infinite": rng.choice([np.inf, -np.inf, 1.0, np.nan], n),
        "all_nan": np.full(n, np.nan),
        "ints": rng.integers(-5, 5, n),
        "uints": rng.integers(0, 300, n).astype(np.uint16),
        "bools": rng.random(n) < 0.5,
        "text": rng.choice(["a", "b", None, "c"], n),
        "nullable": pd.array(rng.integers(0, 3, n), dtype="Int64"),
        "mixed": rng.choice(np.array([1, "1", 2.5, None], dtype=object), n),
    })
    frame.loc[::7, "nullable"] = pd.NA
    summary = column_summary(frame, {})
    assert summary["distinct"].tolist() == frame.nunique().tolist()
    assert summary["missing"].tolist() == frame.isna().sum().tolist()
    assert summary["distinct"].dtype == np.int64 and summary["missing"].dtype == np.int64


def test_the_control_characters_are_those_unicodedata_names():
    """_is_binary counts the characters of categories Cc, Cs and Co (tab,
    newline and carriage return excepted) with one regular expression."""
    import unicodedata

    from dtree.tables import io as table_io

    wanted = {cp for cp in range(0x110000) if chr(cp) not in "\t\n\r"
              and unicodedata.category(chr(cp)) in ("Cc", "Cs", "Co")}
    matched = {cp for cp in range(0x110000) if table_io._CONTROLS.fullmatch(chr(cp))}
    assert matched == wanted


@pytest.mark.parametrize("data, blank", [
    (b" \t\r\n" * 5000, True), (b"\n" * 4096 + b"a,b\n1,2\n", False),
    (b" " * 5000 + b"a,b\n1,2\n", False), (b"a,b\n1,2\n" + b" " * 9000, False),
])
def test_only_blank_files_are_refused_as_blank(data, blank):
    try:
        read_table(data, "b.csv")
        message = ""
    except DataError as exc:
        message = str(exc)
    assert ("only blank space" in message) == blank
