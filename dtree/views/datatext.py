"""The Data page's words and shown tables, in plain Python.

What the page says about the data in use, an opened scikit-learn tree,
refused files and the split (in English or Chinese, ``lang="en"`` /
``"zh"``), and the column summary and target description as it shows them:
built here so that ``pages/data.py`` only reads the session, calls and
draws.  The user's text (file names, titles, column names, messages) comes
in already escaped for Markdown by the page.
"""

from __future__ import annotations

import pandas as pd

from dtree.tables.weka_arff import MAX_ARFF_BYTES

from .vocabulary import t


#: The page's fixed texts: name -> (English, Chinese).
TEXTS = {
    "skops_help": (
        "A DecisionTreeClassifier, DecisionTreeRegressor, ExtraTreeClassifier or "
        "ExtraTreeRegressor (or a Pipeline ending in one). The data file holds the "
        "training rows: columns named like the tree's features, and the target "
        "column. Only these tree types are read from the file: a pickle or joblib "
        "file, or any other type, is refused, and nothing is executed or unpickled.",
        "支持 DecisionTreeClassifier、DecisionTreeRegressor、ExtraTreeClassifier 或 "
        "ExtraTreeRegressor（或以其结尾的 Pipeline）。数据文件包含训练样本：与决策树"
        "特征同名的列，以及目标列。文件中只读取这几种决策树类型：pickle 或 joblib "
        "文件以及任何其他类型都会被拒绝，其中的任何内容都不会被执行或反序列化（unpickle）。"),
    "no_training_data": (
        "No training data: the tree, its growth, its pruning sequence and its "
        "export are shown; the candidate tables, gain curves, decision regions, "
        "scores and predictions of rows need a data file.",
        "没有训练数据：可以查看决策树、它的生长过程、剪枝序列和导出；候选划分表、"
        "增益曲线、决策区域、得分和对样本的预测需要数据文件。"),
}


def upload_help(limit_mb, lang: str = "en", arff_mb: float = MAX_ARFF_BYTES / 2**20) -> str:
    """Under the upload box: the largest file, what is detected, what is not run."""
    return t(lang, f"Largest file: {limit_mb} MB. Weka's ARFF files: up to {arff_mb:.0f} MB. "
                    "The encoding (UTF-8, GBK/GB18030, Latin-1) and the delimiter are detected. "
                    "Uploads are read as data only: nothing in them is executed or unpickled.",
              f"文件最大 {limit_mb} MB；Weka 的 ARFF 文件最大 {arff_mb:.0f} MB。自动识别编码（UTF-8、"
              "GBK/GB18030、Latin-1）和分隔符。上传的文件只作为数据读取：其中的任何内容都不会被执行或"
              "反序列化（unpickle）。")


def refused(what: str, name: str, message: str, still: str = "", lang: str = "en") -> str:
    """Why the file ``name`` was refused (``message``), and what is in use
    instead (``still``).  ``what``: "upload" (a data file), "skops" (a
    .skops file) or "skops_data" (the data file given with a .skops file)."""
    if what == "skops_data":
        return t(lang, f"The data file **{name}** could not be used: {message}  \n"
                        "The tree is opened without training data.",
                  f"无法使用数据文件 **{name}**：{message}  \n"
                  "决策树在没有训练数据的情况下打开。")
    if what == "skops":
        return t(lang, f"**{name}** could not be opened: {message}  \nStill using **{still}**.",
                 f"无法打开 **{name}**：{message}  \n仍在使用 **{still}**。")
    return t(lang, f"**{name}** could not be used: {message}  \nStill using **{still}**.",
             f"无法使用 **{name}**：{message}  \n仍在使用 **{still}**。")


def imported_summary(model, title: str, kind: str, task: str, lang: str = "en") -> str:
    """The opened scikit-learn tree ``model`` (a dtree estimator): its file's
    ``title``, its ``kind`` (class name), its ``task`` (a name in ``lang``),
    leaves, depth, features and splits."""
    tree = model.tree_
    leaves, depth = tree.n_leaves, tree.max_depth
    features, splits = int(model.n_features_in_), len(model.steps_)
    return t(lang, f"**In use:** {title} — a scikit-learn {kind} ({task}): {leaves:,} leaves, "
                    f"depth {depth}, {features:,} features, {splits:,} splits.",
              f"**当前使用：** {title} — scikit-learn 的 {kind}（{task}任务）：{leaves:,} 个叶结点，"
              f"深度 {depth}，{features:,} 个特征，{splits:,} 次划分。")


def preprocessing(steps: str, lang: str = "en") -> str:
    """The preprocessing steps of a Pipeline, before its tree."""
    return t(lang, f"Preprocessing before the tree (not shown): {steps}.",
             f"决策树之前的预处理步骤（未显示）：{steps}。")


def training_data(title: str, rows: int, target: str, lang: str = "en") -> str:
    """The data file given with an opened tree: its title, rows and target column."""
    return t(lang, f"Training data: {title}, {rows:,} rows, target column “{target}”.",
             f"训练数据：{title}，{rows:,} 行，目标列“{target}”。")


def in_use(title: str, rows: int, columns: int, lang: str = "en") -> str:
    """The dataset in use and its size."""
    return t(lang, f"**In use:** {title} — {rows:,} rows × {columns:,} columns",
             f"**当前数据：** {title} — {rows:,} 行 × {columns:,} 列")


#: An upload at least this large (bytes; about 50,000 rows of ten numbers)
#: is read with a progress indicator, stage by stage, and its first tree is
#: grown on the Data page (the Grow page then finds it cached).
BIG_UPLOAD_BYTES = 3 * 2**20

#: The stages of reading a big upload, in order: name -> (English, Chinese),
#: each with ``{…}`` fields filled by :func:`upload_stage`.
UPLOAD_STAGES = {
    "read": ("Reading {name} ({mb:.1f} MB)", "正在读取 {name}（{mb:.1f} MB）"),
    "types": ("Typing {columns:,} columns (numeric or categorical)",
              "正在判断 {columns:,} 列的类型（数值或类别）"),
    "prepare": ("Preparing {rows:,} rows: labels to codes, train/test split",
                "正在准备 {rows:,} 行：标签编码、划分训练集和测试集"),
    "fit": ("Growing the first tree ({splitter} splitter, max_depth {depth})",
            "正在生长第一棵决策树（{splitter} 划分方式，max_depth {depth}）"),
}


def upload_stage(stage: str, lang: str = "en", done: float | None = None, **fields) -> str:
    """A stage of reading a big upload (:data:`UPLOAD_STAGES`): running
    ("Reading big.csv (34.1 MB)…"), or ``done`` in that many seconds
    ("✓ Reading big.csv (34.1 MB): 0.8 s").  ``fields`` fill the stage's
    text (the file name comes escaped for Markdown)."""
    words = t(lang, *UPLOAD_STAGES[stage]).format(**fields)
    if done is None:
        return words + "…"
    return t(lang, f"✓ {words}: {done:.1f} s",
             f"✓ {words.removeprefix('正在')}：{done:.1f} 秒")  # (done: no longer 正在)


def upload_done(rows: int, seconds: float, fitted: bool, lang: str = "en") -> str:
    """The progress indicator's label once a big upload is read (and its
    first tree grown, if ``fitted``)."""
    if fitted:
        return t(lang, f"Read {rows:,} rows and grew the first tree in {seconds:.1f} s",
                 f"已读取 {rows:,} 行并生长出第一棵决策树，用时 {seconds:.1f} 秒")
    return t(lang, f"Read {rows:,} rows in {seconds:.1f} s",
             f"已读取 {rows:,} 行，用时 {seconds:.1f} 秒")


def dropped_rows(rows: int, why: str, lang: str = "en") -> str:
    """How many rows were left out and why (a ``DroppedRows`` note's ``rows``
    and ``why``: "ragged" or "no target")."""
    if why == "ragged":
        return t(lang, f"{rows:,} row(s) of the file were left out: they have more "
                        "fields than the header row.",
                  f"文件中有 {rows:,} 行被舍弃：它们的字段比表头多。")
    return t(lang, f"{rows:,} row(s) were left out: they have no value in the target column.",
             f"有 {rows:,} 行被舍弃：它们的目标列没有值。")


def left_out(names: str, lang: str = "en") -> str:
    """The identifier columns (``names``, quoted and joined) that "all other
    columns" leaves out, and why."""
    return t(lang, f"Left out: {names} (a different value in every row: an identifier, "
                    "which a tree would split on perfectly and learn nothing from). "
                    "Choose the features to use it anyway.",
              f"未使用：{names}（每一行的取值都不同，是标识符：决策树能在它上面完美"
              "划分，却学不到任何东西）。如仍要使用，请选择“自选”特征。")


def preview_caption(shown: int, total: int, lang: str = "en") -> str:
    """A preview that shows ``shown`` of the ``total`` columns."""
    return t(lang, f"Preview of the first {shown} of {total:,} columns.",
             f"预览前 {shown} 列（共 {total:,} 列）。")


def missing_targets(rows: int, lang: str = "en") -> str:
    return t(lang, f"{rows:,} row(s) have no target value.", f"{rows:,} 行没有目标值。")


def split_summary(n_train: int, n_test: int, n_features: int, task: str,
                  lang: str = "en") -> str:
    """The train/test split: rows on each side, the engine's features, and
    the ``task`` (its name in ``lang``)."""
    return t(lang, f"{n_train:,} training rows and {n_test:,} test rows; {n_features:,} "
                    f"features for the engine; {task}.",
              f"训练集 {n_train:,} 行，测试集 {n_test:,} 行；{n_features:,} 个特征交给算法；"
              f"{task}任务。")


#: The column summary's headers and types, and pandas' describe() rows, in Chinese.
SUMMARY_ZH = {"column": "列", "type": "类型", "missing": "缺失", "distinct": "不同取值数",
              "example": "示例"}
TYPES_ZH = {"numeric": "数值", "categorical": "类别"}
DESCRIBE_ZH = {"count": "计数", "mean": "均值", "std": "标准差", "min": "最小值",
               "max": "最大值", "25%": "25% 分位数", "50%": "中位数", "75%": "75% 分位数"}


def summary_shown(summary: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """The column summary (``column_summary``) as shown: with Chinese headers
    and types under ``lang="zh"``."""
    if lang != "zh":
        return summary
    summary = summary.assign(type=summary["type"].map(lambda t: TYPES_ZH.get(t, t)))
    return summary.rename(columns=SUMMARY_ZH)


def target_description(y: pd.Series, lang: str = "en") -> pd.DataFrame:
    """A numeric target's ``describe()`` as a one-column table, its rows
    named in ``lang``."""
    described = y.describe().to_frame()
    return described.rename(index=DESCRIBE_ZH) if lang == "zh" else described
