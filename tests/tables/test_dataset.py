"""The dataset in use (dtree.tables.dataset), without Streamlit: keys for
the caches, defaults, titles in English and Chinese, class counts."""

import hashlib

import pandas as pd
import pytest

from dtree.tables import dataset
from dtree.tables.dataset import (DATASETS_ZH, Loaded, builtin_label, class_counts,
                                  default_target, table_title)
from dtree.tables.io import BUILTIN, DataError, load_builtin

CSV = b"x,label\n1,a\n2,b\n3,a\n"


def test_a_builtin_dataset_starts_with_its_target_and_test_fraction():
    iris = dataset.builtin("Iris", load_builtin("Iris"))
    assert iris.key == "builtin:Iris" and iris.title == "Iris"
    assert iris.default_target == "species" and iris.default_test_size == 0.25
    assert default_target(iris) == "species"
    cats = dataset.builtin("Cats (lecture example)", load_builtin("Cats (lecture example)"))
    assert cats.default_test_size == 0.0 and default_target(cats) == "cat"


def test_an_upload_is_keyed_by_its_content():
    table = dataset.upload(CSV, "t.csv")
    assert table.key == "upload:" + hashlib.sha256(CSV).hexdigest()[:16]
    assert table.title == "t.csv" and list(table.frame.columns) == ["x", "label"]
    assert dataset.upload(CSV, "other name.csv").key == table.key
    assert dataset.upload(CSV + b"4,b\n", "t.csv").key != table.key
    assert table.default_target is None and default_target(table) == "label"


def test_an_upload_that_is_no_table_is_refused():
    with pytest.raises(DataError):
        dataset.upload(b"\x89PNG\r\n\x1a\n" + bytes(100), "picture.csv")


def test_the_default_target_falls_back_to_the_last_column():
    frame = pd.DataFrame({"a": [1], "b": [2]})
    assert default_target(Loaded("k", "t", frame, default_target="gone")) == "b"
    assert default_target(Loaded("k", "t", frame, default_target="a")) == "a"


def test_titles_in_both_languages():
    iris = dataset.builtin("Iris", load_builtin("Iris"))
    assert table_title(iris) == "Iris"
    assert table_title(iris, "zh") == "鸢尾花 Iris"
    upload = Loaded("upload:1234", "Iris", pd.DataFrame({"a": [1]}))
    assert table_title(upload, "zh") == "Iris"  # an upload keeps its file name


def test_builtin_labels_in_both_languages():
    assert builtin_label("Iris") == "Iris: 150 flowers, 4 measurements, 3 species"
    assert builtin_label("Iris", "zh") == "鸢尾花 Iris：150 朵鸢尾花，4 项测量，3 个品种"
    assert set(DATASETS_ZH) == set(BUILTIN)  # every built-in dataset has its Chinese


def test_class_counts_leave_missing_targets_out():
    counts = class_counts(pd.Series(["b", "a", None, "b", "c", "b"]))
    assert list(counts.index) == ["a", "b", "c"]
    assert list(counts.to_numpy()) == [1, 3, 1]
