"""Forced-split specs that dtree must refuse, one per rule: each with the
estimator's parameters, the code of the ``CodedError`` and the node it
names (None when the refusal is about the whole spec).

Shared by tests/engine/test_forced_splits.py (the rules) and
tests/app/test_zh_words.py (every code worded in Chinese).
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from dtree import DecisionTreeClassifier

#: ten rows: numeric "a" (0..9) and "b", categorical "c"
FRAME = pd.DataFrame({
    "a": np.arange(10, dtype=float),
    "b": [3.0, 1.0, 4.0, 1.5, 5.0, 9.0, 2.0, 6.0, 5.5, 3.5],
    "c": pd.Categorical(["x", "x", "y", "y", "z", "z", "x", "y", "z", "x"]),
})
TARGET = np.array([0, 0, 0, 1, 1, 1, 0, 1, 1, 0])


def _chain(depth):
    """A spec nested ``depth`` levels below the root, always to the left."""
    spec = {"feature": "a", "threshold": 5.0}
    for _ in range(depth):
        spec = {"feature": "a", "threshold": 5.0, "left": spec}
    return spec


def _full(depth):
    """A full binary spec of ``depth`` levels (2**depth - 1 splits)."""
    level = [{"feature": "a", "threshold": 5.0} for _ in range(2 ** (depth - 1))]
    while len(level) > 1:
        level = [{"feature": "a", "threshold": 5.0, "left": level[i], "right": level[i + 1]}
                 for i in range(0, len(level), 2)]
    return level[0]


@dataclass
class Bad:
    name: str
    spec: object
    code: str
    node: str | None
    params: dict = field(default_factory=dict)

    def fit(self):
        est = DecisionTreeClassifier(forced_splits=self.spec, **self.params)
        return est.fit(FRAME, TARGET)


A = {"feature": "a", "threshold": 4.5}
BAD = [
    Bad("broken JSON", '{"feature": "a", "threshold":', "forced_not_json", None),
    Bad("JSON too long", " " * 1_000_001, "forced_too_long", None),
    Bad("nested too deep", _chain(64), "forced_too_deep", "root" + " → left" * 64),
    Bad("too many splits", _full(14), "forced_too_many", None),
    Bad("not a dict", [1, 2], "forced_not_object", "root"),
    Bad("child not a dict", {**A, "left": 3}, "forced_not_object", "root → left"),
    Bad("unknown key", {**A, "gain": 0.5}, "forced_unknown_key", "root"),
    Bad("no feature", {"threshold": 4.5}, "forced_no_feature", "root"),
    Bad("unknown name", {"feature": "z", "threshold": 1.0}, "forced_unknown_feature", "root"),
    Bad("index out of range", {"feature": 3, "threshold": 1.0}, "forced_unknown_feature",
        "root"),
    Bad("float index", {"feature": 1.0, "threshold": 1.0}, "forced_unknown_feature", "root"),
    Bad("threshold a string", {"feature": "a", "threshold": "4.5"}, "forced_bad_threshold",
        "root"),
    Bad("threshold NaN", {"feature": "a", "threshold": float("nan")}, "forced_bad_threshold",
        "root"),
    Bad("threshold infinite", '{"feature": "a", "threshold": Infinity}',
        "forced_bad_threshold", "root"),
    Bad("threshold a bool", {"feature": "a", "threshold": True}, "forced_bad_threshold",
        "root"),
    Bad("nested bad threshold", {**A, "right": {"feature": "b", "threshold": None}},
        "forced_bad_threshold", "root → right"),
    Bad("numeric without threshold", {"feature": "a"}, "forced_numeric_form", "root"),
    Bad("numeric with categories", {"feature": "a", "categories": ["x"]},
        "forced_numeric_form", "root"),
    Bad("categorical with threshold", {"feature": "c", "threshold": 1.0},
        "forced_subset_form", "root"),
    Bad("empty category list", {"feature": "c", "categories": []}, "forced_subset_form",
        "root"),
    Bad("categories not a list", {"feature": "c", "categories": "x"}, "forced_subset_form",
        "root"),
    Bad("subset under multiway", {"feature": "c", "categories": ["x"]},
        "forced_multiway_form", "root", {"algorithm": "id3"}),
    Bad("branches not a dict", {"feature": "c", "branches": ["x"]}, "forced_multiway_form",
        "root", {"algorithm": "id3"}),
    Bad("unknown category", {"feature": "c", "categories": ["w"]},
        "forced_unknown_category", "root"),
    Bad("unknown branch", {"feature": "c", "branches": {"w": None}},
        "forced_unknown_category", "root", {"algorithm": "c4.5"}),
    Bad("below max_depth", {**A, "left": {"feature": "b", "threshold": 2.0}},
        "forced_max_depth", "root → left", {"max_depth": 1}),
    Bad("over the leaf budget", {**A, "left": {"feature": "b", "threshold": 2.0}},
        "forced_leaf_budget", None, {"max_leaf_nodes": 2}),
    Bad("left side empty", {"feature": "a", "threshold": -1.0}, "forced_empty_side", "root"),
    Bad("right side empty", {"feature": "a", "threshold": 9.0}, "forced_empty_side", "root"),
    Bad("nested side empty", {**A, "right": {"feature": "a", "threshold": 2.0}},
        "forced_empty_side", "root → right"),
    Bad("every category left", {"feature": "c", "categories": ["x", "y", "z"]},
        "forced_empty_side", "root"),
    Bad("an empty multiway branch", {"feature": "a", "threshold": 3.5,
                                     "left": {"feature": "c", "branches": {"z": None}}},
        "forced_empty_side", "root → left", {"algorithm": "id3"}),
    Bad("one category", {"feature": "a", "threshold": 1.5, "left": {"feature": "c"}},
        "forced_one_category", "root → left", {"algorithm": "id3"}),
    Bad("below min_samples_split", {**A, "left": {"feature": "b", "threshold": 2.0}},
        "forced_min_samples_split", "root → left", {"min_samples_split": 6}),
    Bad("below min_samples_leaf", {"feature": "a", "threshold": 1.5},
        "forced_min_samples_leaf", "root", {"min_samples_leaf": 3}),
    Bad("below min_weight_fraction_leaf", {"feature": "a", "threshold": 0.5},
        "forced_min_weight_leaf", "root", {"min_weight_fraction_leaf": 0.25}),
    Bad("a multiway branch below min_samples_leaf",
        {"feature": "c", "branches": {"x": {"feature": "a", "threshold": 0.5}}},
        "forced_min_samples_leaf", 'root → "x"', {"algorithm": "id3", "min_samples_leaf": 2}),
    Bad("splitter='hist'", A, "forced_refused", None, {"splitter": "hist"}),
    Bad("algorithm='j48'", A, "forced_refused", None, {"algorithm": "j48"}),
]
