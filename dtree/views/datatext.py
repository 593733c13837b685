"""The Data page's words and shown tables, in plain Python.

What the page says about the data in use, an opened scikit-learn tree,
refused files and the split (in English or Chinese, ``lang="en"`` /
``"zh"``), and the column summary and target description as it shows them:
built here so that ``pages/data.py`` only reads the session, calls and
draws.  The user's text (file names, titles, column names, messages) comes
in already escaped for Markdown by the page.
"""

from __future__ import annotations

from .vocabulary import t, text

import pandas as pd

from dtree import PROBLEMS, TREE_FILE_MESSAGES, problem_text


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


def upload_help(limit_mb, lang: str = "en") -> str:
    """Under the upload box: the largest file, what is detected, what is not run."""
    return t(lang, f"Largest file: {limit_mb} MB. The encoding (UTF-8, GBK/GB18030, Latin-1) "
                    "and the delimiter are detected. Uploads are read as data only: nothing "
                    "in them is executed or unpickled.",
              f"文件最大 {limit_mb} MB。自动识别编码（UTF-8、GBK/GB18030、Latin-1）和分隔符。"
              "上传的文件只作为数据读取：其中的任何内容都不会被执行或反序列化（unpickle）。")


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


#: The Chinese wording of each ``TreeFileError`` code (the English is the
#: engine's own, ``dtree.TREE_FILE_MESSAGES``); the fields are the error's
#: ``where`` and ``values``.
TREE_FILE_ZH = {
    "pickle": ("{where} 是{kind}，不是 .skops 文件。加载 pickle（joblib 文件也是 pickle）可能运行其中的"
               "任意代码，所以 dtree 从不打开它。请改用 skops 保存决策树：skops.io.dump(model, 'tree.skops')。"),
    "not_skops": "{where} 是未知格式，不是 .skops 文件。请改用 skops 保存决策树：skops.io.dump(model, 'tree.skops')。",
    "file_too_big": "{where} 超过 {limit} 字节，这是 dtree 从一个文件读取的上限（可调大 SkopsLimits.max_file_bytes）。",
    "zip_broken": "{where} 是损坏的或不受支持的 zip 文件：{part} {problem_text}。",
    "zip_unreadable": "{where} 是损坏的 zip 文件；zip 读取器报告：{detail}。",
    "too_many_members": "{where} 含有 {count} 个文件；一棵树的 .skops 文件只含几个（最多读取 {limit} 个）。",
    "member_too_big": "{where}：其中的 {member} 解压后超过 {limit} 字节（可调大 SkopsLimits.max_member_bytes）。",
    "total_too_big": "{where} 解压后总共超过 {limit} 字节（可调大 SkopsLimits.max_total_bytes）。",
    "member_missing": "{where} 引用了文件中不存在的成员 {member}。",
    "no_schema": "{where} 是 zip 文件，但不是 .skops 文件（没有 schema.json）。",
    "schema_not_json": "{where} 不是 .skops 文件：其 schema.json 不是 JSON；JSON 读取器报告：{detail}。",
    "schema_too_deep": "{where}：其结构嵌套超过 {limit} 层；scikit-learn 的决策树远用不了这么多。",
    "schema_too_big": "{where}：其结构含有超过 {limit} 个条目（可调大 SkopsLimits.max_schema_entries）。",
    "types_refused": ("{where} 含有 dtree 不打开的类型：{types}。dtree 只信任 scikit-learn 的 DecisionTree/ExtraTree "
                      "分类器和回归器（及其中的 NumPy 数组），所以文件中的其他内容都不会被加载。"),
    "not_a_tree": "{where} 保存的是 {kind}，不是 scikit-learn 的决策树。",
    "malformed": "{where} 不是格式正确的 .skops 文件：{part} {problem_text}。",
    "too_slow": "读取 {where} 超过了 {limit} 秒，已停止读取（可调大 SkopsLimits.max_seconds）。",
    "unreadable": "无法读取 {where}；内部错误为：{detail}。",
    "over_limit": "{where}：其{what}为 {value}，超过 dtree 打开的上限 {limit}（可调大 SkopsLimits.{field}）。",
    "bad_attribute": "{where}：其{what}{problem_text}。",
    "multi_output": "{where} 预测 {n_outputs} 个输出；dtree 的决策树只预测一个。请打开在单个目标上训练的决策树。",
    "no_nodes": "{where}：其决策树没有结点。",
    "bad_child": "{where}：结点 {node} 的子结点编号为 {child}，不是这棵树的结点（编号应在 1 到 {last} 之间）。",
    "half_leaf": "{where}：结点 {node} 只有一个子结点；一个结点要么有两个子结点，要么没有。",
    "child_before_parent": "{where}：结点 {node} 是结点 {parent} 的子结点，但子结点的编号必须大于父结点（这棵树有环）。",
    "two_parents": "{where}：结点 {node} 有 {count} 个父结点；除根结点外每个结点恰有一个。",
    "orphan": "{where}：结点 {node} 没有父结点；除根结点外每个结点恰有一个。",
    "root_is_child": "{where}：根结点（结点 0）是结点 {parent} 的子结点。",
    "bad_feature": "{where}：结点 {node} 按特征 {feature} 划分，但这棵树的特征编号为 0 到 {last}。",
    "bad_threshold": "{where}：结点 {node} 的阈值 {threshold} 无法划分样本。",
    "bad_value": "{where}：结点 {node} 的{what}不是有限的数。",
    "bad_samples": "{where}：结点 {node} 的{what}为 {count}，不等于其子结点之和。",
    "value_shape": "{where}：其结点取值的形状为 {shape}，但 {node_count} 个结点、{n_classes} 个类别需要 {expected}。",
    "classes_mismatch": "{where}：它列出 {n_names} 个类别，但其结点保存 {n_classes} 个类别的计数。",
}

#: The Chinese of ``dtree.PROBLEMS``.
PROBLEMS_ZH = {
    "encrypted": "已加密",
    "compression": "使用压缩方法 {method}，dtree 不读取这种压缩",
    "longer": "解压后比声明的长",
    "shorter": "解压后比声明的短",
    "not_utf8": "不是 UTF-8 文本",
    "not_whole_number": "是 {type}，而这里应为整数",
    "below_one": "为 {value}，小于一",
    "not_labels": "不是类别标签的列表",
    "names_count": "含有 {count} 个名称，但有 {expected} 个特征",
    "not_a_node": "不是 skops 结点",
    "no_class": "没有指明类型",
    "loader_refused": "由 {loader} 加载，dtree 不用它读取普通值",
    "no_content": "缺少其类型应有的内容",
    "wrong_kind": "是以 {stored} 形式保存的 {kind}",
    "not_json": "含有的文本不是单个 JSON 值",
    "bad_keys": "的键与其类型不符",
    "bad_shape": "含有 {count} 个值，但其形状需要 {expected} 个",
    "not_plain": "含有普通值以外的内容",
    "bad_random_state": "不是随机数生成器的状态",
    "not_npy": "不是 NumPy 数组文件",
    "not_numbers": "的取值类型为 {dtype}，不是数",
    "bad_size": "声明了 {declared} 字节的数据，实际只有 {held} 字节",
    "bad_tree_args": "不是单输出的 (n_features, n_classes, n_outputs)",
    "features_differ": "有 {count} 个特征，而估计器有 {expected} 个",
    "bad_nodes": "不是由 {count} 个结点记录组成的数组",
    "bad_depth": "不是这棵树的深度",
    "not_fitted": "缺失（这棵树训练过吗？）",
    "bad_name": "不是 dtree 接受的属性",
}

_ZH_TERMS = {"number of features (n_features_in_)": "特征数（n_features_in_）",
             "number of classes": "类别数", "node count": "结点数", "number of outputs": "输出数",
             "impurity": "不纯度", "weighted sample count": "加权样本数", "value": "取值",
             "sample count": "样本数", "weighted sample count": "加权样本数",
             "sample count (below one)": "样本数（小于一）"}


def tree_file_error(code: str, where: str, values: dict, lang: str = "en") -> str:
    """Why a scikit-learn tree could not be opened (a ``TreeFileError``'s
    ``code``, ``where`` and ``values``), in ``lang``.  Plain text: escape it
    for Markdown before showing it."""
    if lang == "zh":
        shown = {k: _ZH_TERMS.get(v, v) if isinstance(v, str) else v for k, v in values.items()}
        return TREE_FILE_ZH[code].format(where=where, **shown,
                                         **problem_text(shown, PROBLEMS_ZH))
    return TREE_FILE_MESSAGES[code].format(where=where, **values,
                                           **problem_text(values, PROBLEMS))
