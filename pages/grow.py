"""Grow page: step through the tree's growth and inspect every node."""

import time

import streamlit as st

from dtree.views.vocabulary import text
from dtree.views import fitting, narration, viz
from dtree.views.links import md
from pages.panels.sidebar import hist_notice, sidebar_controls
from pages.panels.stepping import step_buttons
from pages.runtime.caches import prepared
from pages.runtime.fits import step_dot
from pages.state.parameters import chosen_parameters, criterion_name, growth_name
from pages.state.session import keys_legend, lang, presenting, require_frame, said, tr
from pages.state.session import shown_step as link_step, step_button
from pages.state.tables_state import current_setup, current_table, table_title
from pages.state import imported
from pages.state.url_state import write_view_to_url
from pages.panels.grow_panels import panels_view
from pages.panels import manual_panel, tree_view, vote_panel
from pages.state import room_stage
from pages.state.room_session import push_view
from pages.runtime.prefetch import prefetch_for_this_session

SPEEDS = {"slow (2 s)": 2.0, "medium (1 s)": 1.0, "fast (0.5 s)": 0.5}
#: DOT font size in presenter mode: drawn large, scaled down to fit the window.
PRESENTER_FONT = 20
SPEEDS_ZH = {"slow (2 s)": "慢（2 秒）", "medium (1 s)": "中（1 秒）", "fast (0.5 s)": "快（0.5 秒）"}
state = st.session_state
require_frame()

table = current_table()
setup = current_setup(table)
opened = imported.current()  # a tree opened from a .skops file, if any
if opened is not None:
    table = opened  # (its key and title stand for the dataset's)


preset, criterion, params = chosen_parameters(opened.task if opened else setup.task)
chosen_preset = preset  # (an opened tree's preset is renamed below)


def sidebar():
    """The sidebar's controls: drawn last (their values are read above), so
    that the browser gets the tree first and draws it before them; and before
    a page that stops on an error, whose fix may be a parameter."""
    sidebar_controls(opened.task if opened else setup.task, chosen_preset)


prep, error = (opened.fit.prep, None) if opened else prepared(table, setup)
if error:
    st.title(tr("Grow", "生长"))
    st.error(md(said(error)), icon=":material/error:")
    st.page_link("pages/data.py", label=tr("Choose the data", "选择数据"),
                 icon=":material/table:")
    sidebar()
    st.stop()
if opened is not None:
    fit, error = opened.fit, None
    preset = f"scikit-learn {opened.kind}"
    if not presenting():  # (presenter mode has no sidebar; the title says scikit-learn)
        st.info(text(narration.TEXTS, "imported", lang()), icon=":material/info:")
else:
    fit, error = manual_panel.fitted_by_hand(table, setup, prep, preset, criterion, params)
if error:
    st.title(tr("Grow", "生长"))
    st.error(tr(f"The tree could not be grown: {md(error)}",
                f"无法生长决策树：{md(said(error))}"), icon=":material/error:")
    sidebar()
    st.stop()
model = fit.model
n_steps = fit.n_steps
tree_view.forget_folds_unless((table.key, preset, criterion, tuple(sorted(params.items()))))
for note in fit.prep.notes[len(prep.notes):]:  # what this fit did to the data (ID3)
    st.caption(md(said(note)))
prep = fit.prep

heading = (f"{md(table_title(table))} · {preset} · {criterion_name(fit.criterion)} · "
           f"{growth_name(model.growth_)} · "
           + (tr(f"{len(prep.y_train):,} training rows", f"{len(prep.y_train):,} 个训练样本")
              if len(prep.y_train) or opened is None else
              tr("no training data", "没有训练数据")))
heading_short = narration.short_title(table, preset, fit.criterion, lang())
if opened is None:
    hist_notice(table, params)
if not presenting():  # (presenter mode: the bar carries a short title)
    st.markdown(f"### {heading}")


# -- step controls ----------------------------------------------------------------
def move(delta=None, to=None):
    step = shown_step() if to is None else to  # (the link's step before the slider's)
    if delta is not None:
        step += delta
    state["step"] = int(min(max(step, 0), n_steps))
    if to is not None or delta is not None and delta < 0:
        state["playing"] = False


def toggle_play():
    playing = not state.get("playing", False)
    if playing and shown_step() >= n_steps:
        state["step"] = 0
    state["playing"] = playing
    state["last_tick"] = time.monotonic()


if state.get("step", 0) > n_steps:
    state["step"] = n_steps
playing = bool(state.get("playing", False)) and n_steps > 0
speed = SPEEDS.get(state.get("speed"), 1.0)


@st.fragment(run_every=speed if playing else None)
def stepper():
    # (a class vote's tally polls the room in a fragment of its own:
    # pages/panels/vote_panel.py's tally_panel)
    if state.get("playing", False) != playing:
        st.rerun()  # Play/Pause changes run_every
    if playing and time.monotonic() - state.get("last_tick", 0.0) >= 0.8 * speed:
        state["last_tick"] = time.monotonic()
        if shown_step() < n_steps:
            state["step"] = shown_step() + 1
        else:
            state["playing"] = False
            st.rerun()

    step = shown_step()
    present = presenting()
    room_stage.begin()  # (a presenter's room: what its followers see, set below)
    step_bar(step, compact=present)

    tree = fit.tree_at(step)  # (shared by the class, as the DOT is: pages.runtime.fits.Fit)
    size = viz.tree_font_size(model.tree_.n_leaves)
    edges = "samples" if state.get("edges") else None  # (the sidebar's edge widths)
    # presenter mode: drawn large, then scaled down to the window (app.py's CSS)
    room = vote_panel.open_room_vote(step)  # (a vote beside the tree: it gets 62%)
    drawing = dict(rankdir=tree_direction(), fontsize=PRESENTER_FONT if present else size,
                   path=prediction_path(step), compact=present, edge_width=edges,
                   **tree_view.options(0.62 if room else 1.0))
    dot, info = step_dot(fit, step, lang=lang(), **drawing)
    if present:
        with st.container(key="narration"):
            narrate(step, title=heading_short)
    where = st.columns([0.62, 0.38]) if room else [st.container()]
    with where[0].container(key="tree_box"):
        room_stage.draw_tree(dot, width="content")
    write_view_to_url()  # (a click in this fragment reruns it alone, not app.py)
    room_stage.grow_step(fit, table, preset, step, drawing, lang())
    push_view("")  # (and a presenter's room follows it, as soon as the tree is drawn)
    if room:
        with where[1].container(key="vote_panel"):
            vote_panel.panel(fit, room)
    tree_view.listen(fit, step, info)
    if info["folded"] and not present:  # (presenter mode: the keys legend says W)
        st.caption(narration.folded_caption(len(info["folded"]), info["auto_folded"], lang()))
    if edges:
        st.caption(viz.edge_width_legend(lang()))
    if not present:
        narrate(step)
        colour_legend()
    if info.get("path"):
        st.caption(text(narration.TEXTS, "path", lang()))
    if info["depth_cut"] is not None:
        st.warning(narration.depth_cut_warning(tree.node_count, info["depth_cut"], lang()))

    if present:  # the inspector and the panels fold away below the tree
        more = st.expander(tr("Node inspector and panels", "结点检查与其他面板"),
                           key="more_panels", on_change="rerun", expanded=False)
        if not more.open:
            return
        with more:
            colour_legend()
            panels_view(fit, tree, step, imported=opened is not None, title=table.title)
    else:
        panels_view(fit, tree, step, imported=opened is not None, title=table.title)


def shown_step():
    """The step on screen (pages.state.session.shown_step of the ?step= slider)."""
    return link_step("step", n_steps) if n_steps else 0


def step_bar(step, compact=False):
    """One row of controls: the first, previous, next and last step (the
    shared stepping buttons), play, speed and the step slider (and in
    presenter mode, ``compact``: icons only, a step counter and the keys)."""
    bar = st.container(horizontal=True, vertical_alignment="center", key="stepbar",
                       gap="small")
    step_buttons(bar, compact, ("reset", "prev", "next", "grow_all"),
                 [{"to": 0}, {"delta": -1}, {"delta": 1}, {"to": n_steps}],
                 step <= 0, step >= n_steps, on_click=move)
    step_button(bar, tr("Pause", "暂停") if playing else tr("Play", "播放"), "play",
                ":material/pause:" if playing else ":material/play_arrow:", compact,
                on_click=toggle_play, disabled=n_steps == 0, shortcut="P")
    tree_view.view_buttons(bar, compact)
    vote_panel.vote_button(bar, compact, fit, step, n_steps)
    manual_panel.manual_button(bar, compact, fit, step)
    names = {v: tr(v, SPEEDS_ZH[v]) for v in SPEEDS}
    if compact:  # just the interval
        names = {v: tr(f"every {t:g} s", f"每 {t:g} 秒") for v, t in SPEEDS.items()}
    bar.selectbox(tr("Speed", "速度"), list(SPEEDS), index=1, key="speed",
                  width=150 if compact else 180, format_func=names.get,
                  persist_state="session",
                  label_visibility="collapsed" if compact else "visible")
    if n_steps:
        where = bar if compact else st
        where.slider(tr("Step (splits made so far)", "步骤（已完成的划分次数）"), 0, n_steps,
                     key="step", bind="query-params",
                     label_visibility="collapsed" if compact else "visible",
                     width=150 if compact else "stretch")
    if compact:
        bar.markdown(tr(f"**step {step} / {n_steps}**", f"**第 {step} / {n_steps} 步**"),
                     width="content")
        keys_legend(tr("P play/pause · W whole tree · D details · + − zoom · V vote · A answer",
                       "P 播放/暂停 · W 整棵树 · D 细节 · + − 缩放 · V 投票 · A 揭晓"))


def colour_legend():
    st.caption(narration.colour_legend(model.growth_ == "best_first", lang()))


def prediction_path(step):
    """The path of the Prediction tab's sample, while that tab is open."""
    if state.get("panel") not in ("Prediction", "预测"):
        return None
    from pages.panels.predict_panel import path_for_step
    return path_for_step(fit, step)


def narrate(step, title=None):
    """One sentence on what this step did (after a short ``title`` of the
    data and the algorithm, in presenter mode)."""
    sentence = narration.step_sentence(model, step, lang())
    if n_steps == 0 and not title:
        st.info(sentence)
    else:
        st.markdown(f"**{title}** · {sentence}" if title else sentence)


def tree_direction():
    """Top-down, or left-to-right for wide trees (decided on the final tree,
    so that the layout does not flip while stepping).  In presenter mode,
    "auto" is the layout that draws the final tree largest in the window,
    and top-down while the tree is folded around the step."""
    choice = state.get("layout", "auto")
    if choice == "auto":
        if presenting() and tree_view.focused():
            return "TB"  # (folded around a step, a tree reads largest top-down)
        if presenting():  # judged on the grown tree's boxes, so it never flips
            final, _ = step_dot(fit, n_steps, fontsize=PRESENTER_FONT, lang=lang(),
                                compact=True, rankdir="TB",
                                details=tree_view.detailed())  # (shared by the class)
            return fitting.fitting_direction(final)
        return "LR" if model.tree_.n_leaves > 8 else "TB"
    return "LR" if choice == "left to right" else "TB"


stepper()
sidebar()

prefetch_for_this_session()  # (the Prune page's work, ahead, for a small table)
