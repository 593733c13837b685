"""Data page: choose a dataset, its target and features, and the train/test split."""

import streamlit as st

from dtree.views import viz
from dtree.tables.io import BUILTIN, DataError, DroppedRows
from dtree.tables.prepare import infer_task
from pages.shared import (builtin_table, current_setup, current_table, identifiers,
                          inferred_types, lang, md, prepared, require_frame, said, summary,
                          table_title, tr, upload_table, use_table)
from pages import imported
from pages.terms import DATASETS_ZH, TASKS_ZH

PREVIEW_ROWS = 200
PREVIEW_COLUMNS = 60
UPLOAD_TYPES = ["csv", "tsv", "txt", "xlsx", "xlsm", "parquet"]

require_frame()
st.title(tr("Data", "数据"))


def choose_builtin():
    use_table(builtin_table(st.session_state["builtin"]))


def read_upload():
    upload = st.session_state.get("upload")
    st.session_state.pop("upload_error", None)
    if upload is None:
        return
    try:
        use_table(upload_table(upload.getvalue(), upload.name))
    except DataError as exc:
        st.session_state["upload_error"] = (upload.name, str(exc))


def source_changed():
    """Another source than a .skops file: back to the dataset in use before."""
    if st.session_state.get("source") != "scikit-learn tree":
        imported.close()


def read_skops():
    """Open the uploaded .skops file, with the data file's rows if one is
    given; a file that is refused leaves the session as it was."""
    state = st.session_state
    for key in ("skops_error", "skops_data_error"):
        state.pop(key, None)
    upload, data = state.get("skops_upload"), state.get("skops_data")
    if upload is None:
        imported.close()
        return
    table = None
    if data is not None:
        try:
            table = upload_table(data.getvalue(), data.name)
        except DataError as exc:
            state["skops_data_error"] = (data.name, str(exc))
    try:
        opened, data_error = imported.open_tree(upload.getvalue(), upload.name, table)
    except ValueError as exc:  # a pickle, a forest, not a .skops file...
        state["skops_error"] = (upload.name, str(exc))
        return
    if data_error:
        state["skops_data_error"] = (data.name, data_error)
    imported.use(opened)


def show_imported(opened):
    """What the Data page says about a tree opened from a .skops file."""
    model, tree = opened.model, opened.model.tree_
    task = task_name(opened.task)
    st.markdown(tr(f"**In use:** {md(opened.title)} — a scikit-learn {md(opened.kind)} "
                   f"({task}): {tree.n_leaves:,} leaves, depth {tree.max_depth}, "
                   f"{int(model.n_features_in_):,} features, {len(model.steps_):,} splits.",
                   f"**当前使用：** {md(opened.title)} — scikit-learn 的 {md(opened.kind)}"
                   f"（{task}任务）：{tree.n_leaves:,} 个叶结点，深度 {tree.max_depth}，"
                   f"{int(model.n_features_in_):,} 个特征，{len(model.steps_):,} 次划分。"))
    if model.preprocessing_:
        steps = md(", ".join(model.preprocessing_))
        st.caption(tr(f"Preprocessing before the tree (not shown): {steps}.",
                      f"决策树之前的预处理步骤（未显示）：{steps}。"))
    if opened.has_data:
        n = len(opened.fit.prep.y_train)
        st.success(tr(f"Training data: {md(opened.data_title)}, {n:,} rows, target column "
                      f"“{md(opened.target)}”.",
                      f"训练数据：{md(opened.data_title)}，{n:,} 行，目标列“{md(opened.target)}”。"),
                   icon=":material/check:")
    else:
        st.info(tr("No training data: the tree, its growth, its pruning sequence and its "
                   "export are shown; the candidate tables, gain curves, decision regions, "
                   "scores and predictions of rows need a data file.",
                   "没有训练数据：可以查看决策树、它的生长过程、剪枝序列和导出；候选划分表、"
                   "增益曲线、决策区域、得分和对样本的预测需要数据文件。"),
                icon=":material/info:")
    st.page_link("pages/grow.py", label=tr("Watch it grow", "观看它的生长过程"),
                 icon=":material/arrow_forward:")


def default_unless_set(key, options, default):
    """A multiselect's default, or None when it already has a value (which is
    trimmed to the current options)."""
    if key in st.session_state:
        st.session_state[key] = [v for v in st.session_state[key] if v in options]
        return None
    return list(default)


def task_name(task):
    """"classification"/"regression" in the interface language."""
    return TASKS_ZH.get(task, task) if lang() == "zh" else task


def builtin_label(title):
    """A built-in dataset's title and description in the interface language."""
    if lang() == "zh" and title in DATASETS_ZH:
        return "{}：{}".format(*DATASETS_ZH[title])
    return f"{title}: {BUILTIN[title].description}"


#: The column summary's headers and types, and pandas' describe() rows, in Chinese.
SUMMARY_ZH = {"column": "列", "type": "类型", "missing": "缺失", "distinct": "不同取值数",
              "example": "示例"}
TYPES_ZH = {"numeric": "数值", "categorical": "类别"}
DESCRIBE_ZH = {"count": "计数", "mean": "均值", "std": "标准差", "min": "最小值",
               "max": "最大值", "25%": "25% 分位数", "50%": "中位数", "75%": "75% 分位数"}


def summary_shown(table):
    """The column summary with Chinese headers and types under 中文."""
    if lang() != "zh":
        return table
    table = table.assign(type=table["type"].map(lambda t: TYPES_ZH.get(t, t)))
    return table.rename(columns=SUMMARY_ZH)


def show_note(note):
    """A note on the data: a warning when rows were left out (how many and
    why), a caption otherwise."""
    if isinstance(note, DroppedRows):
        if note.why == "ragged":
            text = tr(f"{note.rows:,} row(s) of the file were left out: they have more "
                      "fields than the header row.",
                      f"文件中有 {note.rows:,} 行被舍弃：它们的字段比表头多。")
        else:
            text = tr(f"{note.rows:,} row(s) were left out: they have no value in the "
                      "target column.",
                      f"有 {note.rows:,} 行被舍弃：它们的目标列没有值。")
        st.warning(text, icon=":material/warning:")
    else:
        st.caption(md(said(note)))


def forget_columns():
    """A new target: the feature and type choices start again from the defaults."""
    for key in ("features", "categorical", "task"):
        st.session_state.pop(key, None)


# -- source -------------------------------------------------------------------
table = current_table()
# Option labels are computed here, not inside format_func (which must not read
# the session: AppTest calls it outside the script run).
sources = {"Built-in dataset": tr("Built-in dataset", "内置数据集"),
           "Upload a file": tr("Upload a file", "上传文件"),
           "scikit-learn tree": tr("Open a fitted scikit-learn tree (.skops)",
                                   "打开已训练的 scikit-learn 决策树（.skops）")}
source = st.segmented_control(tr("Source", "数据来源"), list(sources),
                              default="Built-in dataset", key="source",
                              format_func=sources.get, on_change=source_changed,
                              persist_state="session", required=True)
if source == "scikit-learn tree":
    st.file_uploader(tr("A tree saved with skops.io.dump (.skops)",
                        "用 skops.io.dump 保存的决策树（.skops 文件）"),
                     type=imported.SKOPS_TYPES, key="skops_upload", on_change=read_skops)
    st.file_uploader(tr("Its training data (optional): CSV, TSV, Excel or Parquet",
                        "它的训练数据（可选）：CSV、TSV、Excel 或 Parquet 文件"),
                     type=UPLOAD_TYPES, key="skops_data", on_change=read_skops)
    st.caption(tr("A DecisionTreeClassifier, DecisionTreeRegressor, ExtraTreeClassifier or "
                  "ExtraTreeRegressor (or a Pipeline ending in one). The data file holds the "
                  "training rows: columns named like the tree's features, and the target "
                  "column. Only these tree types are read from the file: a pickle or joblib "
                  "file, or any other type, is refused, and nothing is executed or unpickled.",
                  "支持 DecisionTreeClassifier、DecisionTreeRegressor、ExtraTreeClassifier 或 "
                  "ExtraTreeRegressor（或以其结尾的 Pipeline）。数据文件包含训练样本：与决策树"
                  "特征同名的列，以及目标列。文件中只读取这几种决策树类型：pickle 或 joblib "
                  "文件以及任何其他类型都会被拒绝，其中的任何内容都不会被执行或反序列化（unpickle）。"))
elif source == "Upload a file":
    limit = st.get_option("server.maxUploadSize")
    st.file_uploader(tr("CSV, TSV, Excel (.xlsx) or Parquet", "CSV、TSV、Excel（.xlsx）或 "
                        "Parquet 文件"), type=UPLOAD_TYPES, key="upload", on_change=read_upload)
    st.caption(tr(f"Largest file: {limit} MB. The encoding (UTF-8, GBK/GB18030, Latin-1) and "
                  "the delimiter are detected. Uploads are read as data only: nothing in them "
                  "is executed or unpickled.",
                  f"文件最大 {limit} MB。自动识别编码（UTF-8、GBK/GB18030、Latin-1）和分隔符。"
                  "上传的文件只作为数据读取：其中的任何内容都不会被执行或反序列化（unpickle）。"))
else:
    titles = list(BUILTIN)
    current = table.title if table.key.startswith("builtin:") else titles[0]
    st.selectbox(tr("Built-in dataset", "内置数据集"), titles, index=titles.index(current),
                 key="builtin", on_change=choose_builtin,
                 format_func={t: builtin_label(t) for t in titles}.get)

if "upload_error" in st.session_state:
    name, message = st.session_state["upload_error"]
    st.error(tr(f"**{md(name)}** could not be used: {md(message)}  \n"
                f"Still using **{md(table_title(table))}**.",
                f"无法使用 **{md(name)}**：{md(said(message))}  \n"
                f"仍在使用 **{md(table_title(table))}**。"), icon=":material/error:")

if "skops_error" in st.session_state:
    name, message = st.session_state["skops_error"]
    still = md(imported.current().title if imported.current() else table_title(table))
    st.error(tr(f"**{md(name)}** could not be opened: {md(message)}  \n"
                f"Still using **{still}**.",
                f"无法打开 **{md(name)}**：{md(said(message))}  \n"
                f"仍在使用 **{still}**。"), icon=":material/error:")
if "skops_data_error" in st.session_state:
    name, message = st.session_state["skops_data_error"]
    st.warning(tr(f"The data file **{md(name)}** could not be used: {md(message)}  \n"
                  "The tree is opened without training data.",
                  f"无法使用数据文件 **{md(name)}**：{md(said(message))}  \n"
                  "决策树在没有训练数据的情况下打开。"), icon=":material/warning:")
if imported.current() is not None:
    show_imported(imported.current())
    st.stop()  # (the dataset's columns and split do not apply to a fitted tree)

st.markdown(tr(f"**In use:** {md(table_title(table))} — {len(table.frame):,} rows × "
               f"{table.frame.shape[1]:,} columns",
               f"**当前数据：** {md(table_title(table))} — {len(table.frame):,} 行 × "
               f"{table.frame.shape[1]:,} 列"))
for note in table.notes:
    show_note(note)

# -- columns ------------------------------------------------------------------
frame = table.frame
columns = list(frame.columns)
setup = current_setup(table)
types, type_notes = inferred_types(table.key, frame)

st.header(tr("Columns", "列"))
left, right = st.columns(2)
with left:
    st.selectbox(tr("Target (what the tree predicts)", "目标（决策树要预测的列）"), columns,
                 index=columns.index(setup.target), key="target", persist_state="session",
                 format_func=viz.short, on_change=forget_columns)
    target = st.session_state.get("target", setup.target)
    guess = infer_task(frame[target]) if target in frame else "classification"
    st.selectbox(tr("Task", "任务"), ["auto", "classification", "regression"], key="task",
                 persist_state="session",
                 format_func={"auto": tr(f"auto ({guess})", f"自动（{task_name(guess)}）"),
                              **{t: task_name(t) for t in ("classification", "regression")}}.get)
with right:
    others = [c for c in columns if c != target]
    skipped = [c for c in identifiers(table.key, frame) if c != target]
    n_all = len(others) - len(skipped) if len(skipped) < len(others) else len(others)
    mode = st.radio(tr("Features", "特征"), ["all", "choose"], key="feature_mode",
                    horizontal=True, persist_state="session",
                    format_func={"all": tr(f"all other columns ({n_all:,})",
                                           f"其余所有列（{n_all:,}）"),
                                 "choose": tr("choose", "自选")}.get)
    if mode == "all" and skipped and n_all < len(others):
        names = ", ".join(f"“{md(viz.short(c, 40))}”" for c in skipped)
        st.caption(tr(f"Left out: {names} (a different value in every row: an identifier, "
                      "which a tree would split on perfectly and learn nothing from). "
                      "Choose the features to use it anyway.",
                      f"未使用：{names}（每一行的取值都不同，是标识符：决策树能在它上面完美"
                      "划分，却学不到任何东西）。如仍要使用，请选择“自选”特征。"))
    if mode == "choose":
        st.multiselect(tr("Feature columns", "特征列"), others,
                       default=default_unless_set(
                           "features", others,
                           [c for c in others if c not in skipped][:20] or others[:20]),
                       key="features", persist_state="session", format_func=viz.short,
                       placeholder=tr("Choose options", "请选择") if others else None)
    setup = current_setup(table)
    st.multiselect(tr("Categorical features (the others are numeric)",
                      "类别特征（其余为数值特征）"), list(setup.features),
                   default=default_unless_set("categorical", setup.features,
                                              setup.categorical),
                   key="categorical", persist_state="session", format_func=viz.short,
                   placeholder=tr("Choose options", "请选择") if setup.features else None,
                   help=tr("Inferred from the column's values; change it here.",
                           "根据列中的取值推断；可在此修改。"))
for note in type_notes:
    st.caption(md(said(note)))

setup = current_setup(table)

# -- overview -----------------------------------------------------------------
st.header(tr("Overview", "概览"))
a, b, c = st.columns(3)
a.metric(tr("Rows", "行数"), f"{len(frame):,}")
b.metric(tr("Columns", "列数"), f"{frame.shape[1]:,}")
c.metric(tr("Missing values", "缺失值"), f"{int(frame.isna().sum().sum()):,}")
shown = frame.iloc[:PREVIEW_ROWS, :PREVIEW_COLUMNS]
if frame.shape[1] > PREVIEW_COLUMNS:
    st.caption(tr(f"Preview of the first {PREVIEW_COLUMNS} of {frame.shape[1]:,} columns.",
                  f"预览前 {PREVIEW_COLUMNS} 列（共 {frame.shape[1]:,} 列）。"))
st.dataframe(shown, height=320)

columns_box, balance = st.columns([3, 2])
with columns_box:
    st.subheader(tr("Column summary", "列摘要"))
    st.dataframe(summary_shown(summary(table.key, frame, types)), hide_index=True,
                 height=min(35 * (frame.shape[1] + 1) + 3, 320))
with balance:
    y = frame[setup.target]
    if setup.task == "classification":
        counts = y.dropna().astype(str).value_counts().sort_index()
        if len(counts) <= 50:
            st.plotly_chart(viz.bar_figure(counts.index, counts.to_numpy(),
                                           tr("Class balance", "类别分布"),
                                           viz.short(setup.target), lang=lang()),
                            key="balance")
        else:
            st.metric(tr("Classes", "类别数"), f"{len(counts):,}")
    else:
        st.subheader(tr("Target", "目标"))
        described = y.describe().to_frame()
        if lang() == "zh":
            described = described.rename(index=DESCRIBE_ZH)
        st.dataframe(described, height=320)
    missing = int(y.isna().sum())
    if missing:
        st.caption(tr(f"{missing:,} row(s) have no target value.",
                      f"{missing:,} 行没有目标值。"))

# -- split --------------------------------------------------------------------
st.header(tr("Train/test split", "训练集/测试集划分"))
a, b = st.columns(2)
a.slider(tr("Test fraction", "测试集比例"), 0.0, 0.5, table.default_test_size, 0.05,
         key="test_size", persist_state="session",
         help=tr("The share of rows held out to measure the tree on unseen data.",
                 "留出不参与训练的样本比例，用来衡量决策树在未见过的数据上的表现。"))
b.number_input(tr("Random seed", "随机种子"), 0, 2**31 - 1, 0, key="seed",
               persist_state="session",
               help=tr("The same seed always gives the same split.",
                       "同一个种子总是得到相同的划分。"))
setup = current_setup(table)
prep, error = prepared(table, setup)
if error:
    st.error(md(said(error)), icon=":material/error:")
else:
    st.success(tr(f"{len(prep.y_train):,} training rows and {len(prep.y_test):,} test rows; "
                  f"{len(prep.feature_names):,} features for the engine; {setup.task}.",
                  f"训练集 {len(prep.y_train):,} 行，测试集 {len(prep.y_test):,} 行；"
                  f"{len(prep.feature_names):,} 个特征交给算法；{task_name(setup.task)}任务。"),
               icon=":material/check:")
    for note in prep.notes:
        show_note(note)
    st.page_link("pages/grow.py", label=tr("Grow the tree", "生长决策树"),
                 icon=":material/arrow_forward:")
