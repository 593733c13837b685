"""The dataset in use: a built-in table or an upload, with the key the caches
know it by, its title in English or Chinese, and the defaults it starts with.

No Streamlit: ``pages/state/tables_state.py`` keeps one :class:`Loaded` in the
session (and caches the built-in frames); the Chinese names of the built-in
datasets live here, beside the English ones of :data:`.io.BUILTIN`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import pandas as pd

from .io import BUILTIN, read_table

#: Built-in dataset title -> (Chinese title, Chinese description).
DATASETS_ZH = {
    "Iris": ("鸢尾花 Iris", "150 朵鸢尾花，4 项测量，3 个品种"),
    "Wine": ("葡萄酒 Wine", "178 种葡萄酒，13 项化学测量，3 个品种"),
    "Penguins": ("企鹅 Penguins", "344 只帕尔默企鹅：身体测量、岛屿、性别；有缺失值"),
    "Cats (lecture example)": ("猫（课程示例）", "10 只动物，3 个是/否特征"),
    "Loan applications (Li Hang)": ("贷款申请（李航）",
                                    "《统计学习方法》表5.1：15 位申请人，4 个类别特征"),
    "PlayTennis (Quinlan, Mitchell)": ("打网球 PlayTennis（Quinlan、Mitchell）",
                                       "14 天，4 个天气特征"),
    "Watermelon 2.0 (Zhou Zhihua)": ("西瓜数据集 2.0（周志华）",
                                     "《机器学习》表4.1：17 个西瓜，6 个特征"),
    "Watermelon 2.0α, missing values (Zhou Zhihua)": (
        "西瓜数据集 2.0α，含缺失值（周志华）", "《机器学习》表4.4：表4.1 加上缺失值"),
    "XOR: where greedy fails": ("异或 XOR：贪心算法的盲点",
                                "16 个点：类别 = (x1 > 2.5) 异或 (x2 > 2.5)，另有一列噪声"),
}


@dataclass
class Loaded:
    """A dataset in the session: a built-in one or an upload."""

    key: str  # identifies the content, for caches
    title: str
    frame: pd.DataFrame
    notes: list = field(default_factory=list)
    default_target: str | None = None
    default_test_size: float = 0.25


def builtin(title: str, frame: pd.DataFrame) -> Loaded:
    """The built-in dataset ``title`` (``frame``: what ``load_builtin(title)``
    read), with its target and test fraction to start with."""
    spec = BUILTIN[title]
    return Loaded(f"builtin:{title}", title, frame, default_target=spec.target,
                  default_test_size=spec.test_size)


def upload(data: bytes, filename: str) -> Loaded:
    """An uploaded file, read by :func:`.io.read_table` (raises ``DataError``)
    and keyed by a hash of its bytes: the same file uploaded by two sessions
    shares their cache entries.  Its title is the file's own name for its
    table if it has one (an ARFF file's relation), else the file name."""
    table = read_table(data, filename)
    digest = hashlib.sha256(data).hexdigest()[:16]
    return Loaded(f"upload:{digest}", table.title or filename, table.frame, table.notes)


def default_target(table: Loaded) -> str:
    """The target a table starts with: its own if it has that column, else
    its last column."""
    if table.default_target in table.frame.columns:
        return table.default_target
    return str(table.frame.columns[-1])


def table_title(table: Loaded, lang: str = "en") -> str:
    """The dataset's title in ``lang`` (a built-in one has a Chinese name; an
    upload keeps its own: an ARFF file's relation, else the file name)."""
    if lang == "zh" and table.key.startswith("builtin:") and table.title in DATASETS_ZH:
        return DATASETS_ZH[table.title][0]
    return table.title


def builtin_label(title: str, lang: str = "en") -> str:
    """A built-in dataset's title and description in ``lang``, for a list to
    choose from."""
    if lang == "zh" and title in DATASETS_ZH:
        return "{}：{}".format(*DATASETS_ZH[title])
    return f"{title}: {BUILTIN[title].description}"


def class_counts(y: pd.Series) -> pd.Series:
    """Rows per class of a target column, by the class's text, sorted (rows
    without a target left out)."""
    return y.dropna().astype(str).value_counts().sort_index()
