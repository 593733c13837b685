"""The export panel: download the tree at a step (DOT, SVG, PNG, text rules),
the growth trace (JSON) and an offline step-through (HTML).

Not a page of its own: ``export_panel(model, step)`` draws the panel where it
is called (a tab of the Grow page, or any other page).  It calls neither
``require_frame`` nor ``set_page_config``.

Every file is built only when its button is clicked (``st.download_button``
with a callable ``data``, run by Streamlit on a worker thread), then kept in
a size-bounded cache keyed by the model, so a page rerun costs nothing here.
"""

from __future__ import annotations

import threading
import weakref

import streamlit as st

from dtree.views import downloads
from dtree.views.viz import MAX_DRAWN_NODES
from pages.runtime.memory import MB, SizedLRU, budget_mb
from pages.state.session import lang, tr

#: Built files of every model, for the whole process (the HTML embeds
#: plotly.js: about 5 MB each), bounded by bytes (``DTREE_EXPORTS_MB``, 64 MB by
#: default) and by count; keyed by the model's identity and the file's key.
#: A model's files are dropped when the model is.
FILES = SizedLRU(budget_mb("exports", 64) * MB, max_entries=64,
                 size_of=lambda data: len(data), name="exports")
_watched: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # model -> its id
_lock = threading.Lock()


def _forget(model_id: int) -> None:
    FILES.discard_where(lambda key: key[0] == model_id)


def cached_file(model, key: tuple, build):
    """``build()`` for this model and key, built once (thread-safe: the
    download callables run outside the script thread)."""
    with _lock:
        if model not in _watched:  # its files go when it goes (ids are reused)
            _watched[model] = id(model)
            weakref.finalize(model, _forget, id(model))
    return FILES.get_or_create((id(model), *key), build)


def file_builders(model, step: int, *, title: str, style: str, language: str):
    """{format: (file name, MIME type, callable returning the bytes)}."""
    stem = downloads.safe_stem(title)
    at = f"{stem}_step{step}"

    def dot():
        return cached_file(model, ("dot", step, style, language),
                           lambda: downloads.tree_dot(model, step, style=style,
                                                      lang=language).encode())

    def graphviz(fmt):
        def build():
            tree = model.tree_at(step)
            dpi = downloads.png_dpi(tree.node_count) if fmt == "png" else None
            return downloads.render_dot(dot().decode(), fmt, dpi=dpi)
        return lambda: cached_file(model, (fmt, step, style, language), build)

    def rules():
        return cached_file(model, ("txt", step),
                           lambda: downloads.tree_rules(model, step).encode())

    def trace():
        return cached_file(model, ("json", title),
                           lambda: downloads.trace_json(model, dataset=title).encode())

    def page():
        return cached_file(model, ("html", title, language),
                           lambda: downloads.growth_html(model, title=title,
                                                         lang=language).encode())

    return {
        "dot": (f"{at}.dot", "text/vnd.graphviz", dot),
        "svg": (f"{at}.svg", "image/svg+xml", graphviz("svg")),
        "png": (f"{at}.png", "image/png", graphviz("png")),
        "txt": (f"{at}_rules.txt", "text/plain", rules),
        "json": (f"{stem}_growth.json", "application/json", trace),
        "html": (f"{stem}_growth.html", "text/html", page),
    }


def _labels():
    """{format: (button label, icon, help)} in the interface language."""
    return {
        "dot": ("DOT", ":material/schema:",
                tr("Graphviz source of the drawing.", "图的 Graphviz 源码。")),
        "svg": ("SVG", ":material/image:",
                tr("Vector image, sharp at any size.", "矢量图，任意缩放都清晰。")),
        "png": ("PNG", ":material/image:",
                tr("Bitmap image, for slides.", "位图，适合放进幻灯片。")),
        "txt": (tr("Text rules", "文本规则"), ":material/notes:",
                tr("The tree's if-then rules, one line per branch.",
                   "树的规则（if-then），每个分支一行。")),
        "json": (tr("Growth trace (JSON)", "生长记录（JSON）"), ":material/data_object:",
                 tr("Every step: node, feature, threshold or branches, samples, "
                    "impurity, gain, gain ratio, children; and the final tree.",
                    "每一步：结点、特征、阈值或分支、样本数、不纯度、增益、信息增益比、"
                    "子结点；以及最终的树。")),
        "html": (tr("Offline step-through (HTML)", "离线逐步演示（HTML）"),
                 ":material/slideshow:",
                 tr("One file with a slider and Play: opens in any browser, no internet "
                    "needed.", "单个文件，带滑块和播放按钮：任何浏览器都能打开，无需联网。")),
    }


def _buttons(files, formats, key_prefix, has_dot):
    labels = _labels()
    with st.container(horizontal=True, key=f"{key_prefix}_{formats[0]}_row"):
        for what in formats:
            file_name, mime, build = files[what]
            label, icon, help_text = labels[what]
            missing = what in ("svg", "png") and not has_dot
            st.download_button(
                label, data=build, file_name=file_name, mime=mime, key=f"{key_prefix}_{what}",
                icon=icon, on_click="ignore", disabled=missing,
                help=tr("Needs Graphviz (see below).", "需要安装 Graphviz（见下文）。")
                if missing else help_text)


def export_panel(model, step, *, title="tree", key_prefix="exp"):
    """Download buttons for the tree after ``step`` steps and for its growth.

    Widget keys: ``{key_prefix}_style`` (the drawing: as in the app or
    plain) and ``{key_prefix}_dot``, ``_svg``, ``_png``, ``_txt``,
    ``_json``, ``_html`` (the buttons).
    """
    n_steps = len(model.steps_)
    step = int(min(max(int(step), 0), n_steps))
    language = lang()  # read here: the download callables run off the script thread
    tree = model.tree_at(step)
    has_dot = downloads.dot_binary() is not None

    st.markdown(tr(f"**The tree after step {step} of {n_steps}** ({tree.node_count} nodes)",
                   f"**第 {step} 步后的树**（共 {n_steps} 步，{tree.node_count} 个结点）"))
    styles = {"app": tr("As drawn here", "与页面相同"),
              "plain": tr("Plain (export_graphviz)", "简洁（export_graphviz）")}
    style = st.segmented_control(
        tr("Drawing for DOT, SVG and PNG", "DOT、SVG、PNG 的图样式"), list(styles),
        format_func=styles.get, default="app", key=f"{key_prefix}_style", required=True,
        help=tr("As drawn here: node ids, gains and the nodes split in this step and "
                "next outlined. Plain: the classic tree drawing.",
                "与页面相同：含结点编号、增益，并标出本步与下一步划分的结点。"
                "简洁：经典的决策树图。")) or "app"
    files = file_builders(model, step, title=title, style=style, language=language)
    _buttons(files, ("dot", "svg", "png", "txt"), key_prefix, has_dot)
    if not has_dot:
        ways = "\n".join(f"- {os}: `{cmd}`" for os, cmd in downloads.INSTALL_GRAPHVIZ.items())
        st.info(tr("SVG and PNG need Graphviz's `dot` program, which is not installed on "
                   "this computer. DOT, text, JSON and HTML work without it. Install "
                   "Graphviz, then restart the app:",
                   "SVG 和 PNG 需要 Graphviz 的 `dot` 程序，本机尚未安装。DOT、文本、JSON "
                   "和 HTML 不需要它。安装 Graphviz 后重启应用：") + "\n\n" + ways,
                icon=":material/info:")
    if style == "app" and tree.node_count > MAX_DRAWN_NODES:
        st.caption(tr(f"This tree has more than {MAX_DRAWN_NODES} nodes: like the drawing "
                      "on the page, the DOT/SVG/PNG stop at a depth (deeper nodes show as "
                      "(...)). Choose Plain for every node.",
                      f"此树超过 {MAX_DRAWN_NODES} 个结点：与页面上的图一样，DOT/SVG/PNG "
                      "只画到某一深度（更深的结点显示为 (...)）。选择“简洁”可画出全部结点。"))

    st.markdown(tr(f"**The whole growth** ({n_steps} steps)",
                   f"**完整的生长过程**（{n_steps} 步）"))
    _buttons(files, ("json", "html"), key_prefix, has_dot)
    last = downloads.last_step_within(model)
    if last < n_steps:
        st.caption(tr(f"The step-through stops at step {last} of {n_steps}, the last tree "
                      f"with at most {downloads.MAX_HTML_NODES} nodes (bigger trees cannot "
                      "be read on a slide).",
                      f"逐步演示只到第 {last} 步（共 {n_steps} 步），即结点数不超过 "
                      f"{downloads.MAX_HTML_NODES} 的最后一棵树（更大的树在幻灯片上无法看清）。"))
    stem = downloads.safe_stem(title)  # letters, digits, - and _ only: safe in a code span
    st.caption(tr(f"Each file is made when you click its button. File names start with "
                  f"`{stem}`.", f"点击按钮时才生成文件。文件名以 `{stem}` 开头。"))
