"""Data page: choose a dataset, its target and features, and the train/test split."""

import streamlit as st

from dtree import viz
from dtree.io import BUILTIN, DataError
from dtree.prepare import infer_task
from pages.shared import (builtin_table, current_setup, current_table, identifiers,
                          inferred_types, md, prepared, require_frame, summary,
                          upload_table, use_table)

PREVIEW_ROWS = 200
PREVIEW_COLUMNS = 60
UPLOAD_TYPES = ["csv", "tsv", "txt", "xlsx", "xlsm", "parquet"]

require_frame()
st.title("Data")


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


def default_unless_set(key, options, default):
    """A multiselect's default, or None when it already has a value (which is
    trimmed to the current options)."""
    if key in st.session_state:
        st.session_state[key] = [v for v in st.session_state[key] if v in options]
        return None
    return list(default)


def forget_columns():
    """A new target: the feature and type choices start again from the defaults."""
    for key in ("features", "categorical", "task"):
        st.session_state.pop(key, None)


# -- source -------------------------------------------------------------------
table = current_table()
source = st.segmented_control("Source", ["Built-in dataset", "Upload a file"],
                              default="Built-in dataset", key="source",
                              persist_state="session", required=True)
if source == "Upload a file":
    limit = st.get_option("server.maxUploadSize")
    st.file_uploader("CSV, TSV, Excel (.xlsx) or Parquet", type=UPLOAD_TYPES, key="upload",
                     on_change=read_upload)
    st.caption(f"Largest file: {limit} MB. The encoding (UTF-8, GBK/GB18030, Latin-1) and "
               "the delimiter are detected. Uploads are read as data only: nothing in them "
               "is executed or unpickled.")
else:
    titles = list(BUILTIN)
    current = table.title if table.key.startswith("builtin:") else titles[0]
    st.selectbox("Built-in dataset", titles, index=titles.index(current), key="builtin",
                 on_change=choose_builtin,
                 format_func=lambda t: f"{t}: {BUILTIN[t].description}")

if "upload_error" in st.session_state:
    name, message = st.session_state["upload_error"]
    st.error(f"**{md(name)}** could not be used: {md(message)}  \n"
             f"Still using **{md(table.title)}**.", icon=":material/error:")

st.markdown(f"**In use:** {md(table.title)} — {len(table.frame):,} rows × "
            f"{table.frame.shape[1]:,} columns")
for note in table.notes:
    st.caption(md(note))

# -- columns ------------------------------------------------------------------
frame = table.frame
columns = list(frame.columns)
setup = current_setup(table)
types, type_notes = inferred_types(table.key, frame)

st.header("Columns")
left, right = st.columns(2)
with left:
    st.selectbox("Target (what the tree predicts)", columns,
                 index=columns.index(setup.target), key="target", persist_state="session",
                 format_func=viz.short, on_change=forget_columns)
    target = st.session_state.get("target", setup.target)
    guess = infer_task(frame[target]) if target in frame else "classification"
    st.selectbox("Task", ["auto", "classification", "regression"], key="task",
                 persist_state="session",
                 format_func=lambda t: f"auto ({guess})" if t == "auto" else t)
with right:
    others = [c for c in columns if c != target]
    skipped = [c for c in identifiers(table.key, frame) if c != target]
    n_all = len(others) - len(skipped) if len(skipped) < len(others) else len(others)
    mode = st.radio("Features", ["all", "choose"], key="feature_mode", horizontal=True,
                    persist_state="session",
                    format_func=lambda m: f"all other columns ({n_all:,})"
                    if m == "all" else "choose")
    if mode == "all" and skipped and n_all < len(others):
        st.caption("Left out: " + ", ".join(f"“{md(viz.short(c, 40))}”" for c in skipped)
                   + " (a different value in every row: an identifier, which a tree "
                   "would split on perfectly and learn nothing from). Choose the "
                   "features to use it anyway.")
    if mode == "choose":
        st.multiselect("Feature columns", others,
                       default=default_unless_set(
                           "features", others,
                           [c for c in others if c not in skipped][:20] or others[:20]),
                       key="features", persist_state="session", format_func=viz.short)
    setup = current_setup(table)
    st.multiselect("Categorical features (the others are numeric)", list(setup.features),
                   default=default_unless_set("categorical", setup.features,
                                              setup.categorical),
                   key="categorical", persist_state="session", format_func=viz.short,
                   help="Inferred from the column's values; change it here.")
for note in type_notes:
    st.caption(md(note))

setup = current_setup(table)

# -- overview -----------------------------------------------------------------
st.header("Overview")
a, b, c = st.columns(3)
a.metric("Rows", f"{len(frame):,}")
b.metric("Columns", f"{frame.shape[1]:,}")
c.metric("Missing values", f"{int(frame.isna().sum().sum()):,}")
shown = frame.iloc[:PREVIEW_ROWS, :PREVIEW_COLUMNS]
if frame.shape[1] > PREVIEW_COLUMNS:
    st.caption(f"Preview of the first {PREVIEW_COLUMNS} of {frame.shape[1]:,} columns.")
st.dataframe(shown, height=320)

columns_box, balance = st.columns([3, 2])
with columns_box:
    st.subheader("Column summary")
    st.dataframe(summary(table.key, frame, types), hide_index=True,
                 height=min(35 * (frame.shape[1] + 1) + 3, 320))
with balance:
    y = frame[setup.target]
    if setup.task == "classification":
        counts = y.dropna().astype(str).value_counts().sort_index()
        if len(counts) <= 50:
            st.plotly_chart(viz.bar_figure(counts.index, counts.to_numpy(), "Class balance",
                                           viz.short(setup.target)), key="balance")
        else:
            st.metric("Classes", f"{len(counts):,}")
    else:
        st.subheader("Target")
        st.dataframe(y.describe().to_frame(), height=320)
    missing = int(y.isna().sum())
    if missing:
        st.caption(f"{missing:,} row(s) have no target value.")

# -- split --------------------------------------------------------------------
st.header("Train/test split")
a, b = st.columns(2)
a.slider("Test fraction", 0.0, 0.5, table.default_test_size, 0.05, key="test_size", persist_state="session",
         help="The share of rows held out to measure the tree on unseen data.")
b.number_input("Random seed", 0, 2**31 - 1, 0, key="seed", persist_state="session",
               help="The same seed always gives the same split.")
setup = current_setup(table)
prep, error = prepared(table, setup)
if error:
    st.error(md(error), icon=":material/error:")
else:
    st.success(f"{len(prep.y_train):,} training rows and {len(prep.y_test):,} test rows; "
               f"{len(prep.feature_names):,} features for the engine; "
               f"{setup.task}.", icon=":material/check:")
    for note in prep.notes:
        st.caption(md(note))
    st.page_link("pages/grow.py", label="Grow the tree", icon=":material/arrow_forward:")
