"""Data page: choose a dataset, its target and features, and the train/test split."""

import streamlit as st

from dtree.views.vocabulary import text
from dtree.views import datatext as words, viz
from dtree.tables.choices import feature_choice
from dtree.views.vocabulary import task_name
from dtree.tables.dataset import builtin_label, class_counts
from dtree.tables.io import BUILTIN, DroppedRows
from dtree.tables.prepare import MAX_CLASSES
from dtree.views.links import md
from pages.state.session import lang, require_frame, said, tr
from pages.state.tables_state import (current_setup, current_table, identifiers, inferred_task,
                                      inferred_types, summary, table_title)
from pages.state import imported
from pages.state.tables_state import choose_builtin, read_skops, read_upload, source_changed
from pages.panels.upload_progress import grow_first_tree, prepared_with, read_pending_upload
from pages.runtime.prefetch import prefetch_for_this_session

PREVIEW_ROWS = 200
PREVIEW_COLUMNS = 60
UPLOAD_TYPES = ["csv", "tsv", "txt", "xlsx", "xlsm", "parquet", "arff"]

require_frame()
st.title(tr("Data", "数据"))


def load_tree_renderer():
    """An empty Graphviz chart, hidden (app.py's CSS): the browser loads and
    starts Streamlit's Graphviz renderer (a 0.8 MB script and its WebAssembly,
    1-1.5 s of a browser's time) while this page is read or an upload is
    received, so that the Grow or Prune page opened next draws its tree
    without that wait.  This is the one page without a tree of its own."""
    with st.container(key="tree_renderer_warmup"):
        st.graphviz_chart("digraph { }")


load_tree_renderer()


def show_imported(opened):
    """What the Data page says about a tree opened from a .skops file."""
    model = opened.model
    st.markdown(words.imported_summary(model, md(opened.title), md(opened.kind),
                                       task_name(opened.task, lang()), lang()))
    if model.preprocessing_:
        st.caption(words.preprocessing(md(", ".join(model.preprocessing_)), lang()))
    if opened.has_data:
        st.success(words.training_data(md(opened.data_title), len(opened.fit.prep.y_train),
                                       md(opened.target), lang()), icon=":material/check:")
    else:
        st.info(text(words.TEXTS, "no_training_data", lang()), icon=":material/info:")
    st.page_link("pages/grow.py", label=tr("Watch it grow", "观看它的生长过程"),
                 icon=":material/arrow_forward:")


def default_unless_set(key, options, default):
    """A multiselect's default, or None when it already has a value (which is
    trimmed to the current options)."""
    if key in st.session_state:
        st.session_state[key] = [v for v in st.session_state[key] if v in options]
        return None
    return list(default)


def show_note(note):
    """A note on the data: a warning when rows were left out (how many and
    why), a caption otherwise."""
    if isinstance(note, DroppedRows):
        st.warning(words.dropped_rows(note.rows, note.why, lang()), icon=":material/warning:")
    else:
        st.caption(md(said(note)))


def forget_columns():
    """A new target: the feature and type choices start again from the defaults."""
    for key in ("features", "categorical", "task"):
        st.session_state.pop(key, None)


# -- source -------------------------------------------------------------------
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
progress = None
if source == "scikit-learn tree":
    st.file_uploader(tr("A tree saved with skops.io.dump (.skops)",
                        "用 skops.io.dump 保存的决策树（.skops 文件）"),
                     type=imported.SKOPS_TYPES, key="skops_upload", on_change=read_skops)
    st.file_uploader(tr("Its training data (optional): CSV, TSV, Excel, Parquet or ARFF",
                        "它的训练数据（可选）：CSV、TSV、Excel、Parquet 或 ARFF 文件"),
                     type=UPLOAD_TYPES, key="skops_data", on_change=read_skops)
    imported.get_ready()  # (the first upload's check then starts at once)
elif source == "Upload a file":
    st.file_uploader(tr("CSV, TSV, Excel (.xlsx), Parquet or Weka ARFF",
                        "CSV、TSV、Excel（.xlsx）、Parquet 或 Weka ARFF 文件"),
                     type=UPLOAD_TYPES, key="upload", on_change=read_upload)
    st.caption(words.upload_help(st.get_option("server.maxUploadSize"), lang()))
    progress = read_pending_upload()  # (a new file: read once, here)
table = current_table()
prefetch_for_this_session(early=True)  # (a small table: the Prune page's work starts now)
if source not in ("scikit-learn tree", "Upload a file"):
    titles = list(BUILTIN)
    current = table.title if table.key.startswith("builtin:") else titles[0]
    st.selectbox(tr("Built-in dataset", "内置数据集"), titles, index=titles.index(current),
                 key="builtin", on_change=choose_builtin,
                 format_func={t: builtin_label(t, lang()) for t in titles}.get)

# -- files refused ---------------------------------------------------------------
for what, show, icon in (("upload", st.error, "error"), ("skops", st.error, "error"),
                         ("skops_data", st.warning, "warning")):
    if f"{what}_error" in st.session_state:
        name, message = st.session_state[f"{what}_error"]
        opened = imported.current()
        still = opened.title if what == "skops" and opened else table_title(table)
        show(words.refused(what, md(name), md(imported.refusal_text(message, lang(), said)),
                           md(still), lang()),
             icon=f":material/{icon}:")
if source == "scikit-learn tree":  # (below a refusal, so that it stays in view)
    st.caption(text(words.TEXTS, "skops_help", lang()))
if imported.current() is not None:
    show_imported(imported.current())
    st.stop()  # (the dataset's columns and split do not apply to a fitted tree)

st.markdown(words.in_use(md(table_title(table)), len(table.frame), table.frame.shape[1],
                         lang()))
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
                 format_func=viz.short, on_change=forget_columns,
                 help=tr("The app grows a tree for one target column at a time; for several "
                         "targets at once, fit dtree's estimators on a y of several columns "
                         "(docs/engine.md).",
                         "应用每次为一个目标列生长决策树；若要同时预测多个目标，请在代码中用多列的 y "
                         "拟合 dtree 的估计器（见 docs/engine.md）。"))
    target = st.session_state.get("target", setup.target)
    guess = inferred_task(table.key, target, frame) if target in frame else "classification"
    tasks = {t: task_name(t, lang()) for t in ("classification", "regression")}
    st.selectbox(tr("Task", "任务"), ["auto", *tasks], key="task", persist_state="session",
                 format_func={"auto": tr(f"auto ({guess})", f"自动（{tasks[guess]}）"),
                              **tasks}.get)
with right:
    offered = feature_choice(columns, target, identifiers(table.key, frame))
    others, n_all = offered.others, offered.n_all
    mode = st.radio(tr("Features", "特征"), ["all", "choose"], key="feature_mode",
                    horizontal=True, persist_state="session",
                    format_func={"all": tr(f"all other columns ({n_all:,})",
                                           f"其余所有列（{n_all:,}）"),
                                 "choose": tr("choose", "自选")}.get)
    if mode == "all" and offered.leaves_out:
        names = ", ".join(f"“{md(viz.short(c, 40))}”" for c in offered.skipped)
        st.caption(words.left_out(names, lang()))
    if mode == "choose":
        st.multiselect(tr("Feature columns", "特征列"), others,
                       default=default_unless_set("features", others, offered.first),
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
columns_summary = summary(table.key, frame, types)  # (cached by the table's key)
c.metric(tr("Missing values", "缺失值"), f"{int(columns_summary['missing'].sum()):,}")
shown = frame.iloc[:PREVIEW_ROWS, :PREVIEW_COLUMNS]
if frame.shape[1] > PREVIEW_COLUMNS:
    st.caption(words.preview_caption(PREVIEW_COLUMNS, frame.shape[1], lang()))
st.dataframe(shown, height=320)

columns_box, balance = st.columns([3, 2])
with columns_box:
    st.subheader(tr("Column summary", "列摘要"))
    st.dataframe(words.summary_shown(columns_summary, lang()), hide_index=True,
                 height=min(35 * (frame.shape[1] + 1) + 3, 320))
with balance:
    y = frame[setup.target]
    if setup.task == "classification":
        counts = class_counts(y)
        if len(counts) <= MAX_CLASSES:
            st.plotly_chart(viz.bar_figure(counts.index, counts.to_numpy(),
                                           tr("Class balance", "类别分布"),
                                           viz.short(setup.target), lang=lang()),
                            key="balance")
        else:
            st.metric(tr("Classes", "类别数"), f"{len(counts):,}")
    else:
        st.subheader(tr("Target", "目标"))
        st.dataframe(words.target_description(y, lang()), height=320)
    missing = int(y.isna().sum())
    if missing:
        st.caption(words.missing_targets(missing, lang()))

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
prep, error = prepared_with(progress, table, setup)
if error:
    st.error(md(said(error)), icon=":material/error:")
else:
    st.success(words.split_summary(len(prep.y_train), len(prep.y_test), len(prep.feature_names),
                                   task_name(setup.task, lang()), lang()),
               icon=":material/check:")
    for note in prep.notes:
        show_note(note)
    st.page_link("pages/grow.py", label=tr("Grow the tree", "生长决策树"),
                 icon=":material/arrow_forward:")
grow_first_tree(progress)  # (a big upload: its first tree, while the page is drawn)

prefetch_for_this_session()  # (again: what the page's widgets changed)
