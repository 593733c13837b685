"""A student's bar on every page while in a class room: following the
presenter (the presenter's stage: the title, the lines and the trees that
the presenter's page drew, pages/room/stage.py) or exploring, with a
button back, and the vote card when the presenter opens a vote.  Drawn by
app.py, which runs no page of its own for a follower; the room's watcher
reruns the bar alone the moment the room changes (pages/runtime/push.py).

What a student sends is a choice from the vote's own lists; the store
checks it again (pages/room/store.py).
"""

from __future__ import annotations

import streamlit as st

from dtree.views import votetext
from dtree.views.links import md
from pages.room.model import Ballot
from pages.room.stage import in_language
from pages.room.store import RoomError
from pages.room.watch import seen_by_students
from pages.runtime import push
from pages.state import room_session
from pages.state.session import lang, tr

#: How often a student's page looks at the room, in seconds, where the
#: server cannot rerun it when the room changes (pages/runtime/push.py).
POLL_SECONDS = 1.0
#: Where it can: a look now and then all the same, in case a rerun was lost.
SAFETY_SECONDS = 10.0


def _cast(code, voter):
    state = st.session_state
    feature = state.get("vote_feature")
    picked = state.get("vote_range")
    try:
        room_session.store().cast(code, voter, Ballot(feature, picked or None))
        state["_voted"] = (feature, picked or None)
    except RoomError as error:
        state["_vote_error"] = error.code


def room_bar() -> None:
    """The bar, the vote card and, for a follower, the presenter's stage:
    a fragment that the room's watcher reruns the moment the room changes
    (pages/runtime/push.py), or that polls every second where it cannot."""
    if push.available():
        _pushed_bar()
    else:
        _polled_bar()


@st.fragment(run_every=SAFETY_SECONDS)
def _pushed_bar() -> None:
    _bar(pushed=True)


@st.fragment(run_every=POLL_SECONDS)
def _polled_bar() -> None:
    _bar(pushed=False)


def _bar(pushed: bool) -> None:
    state = st.session_state
    store = room_session.store()
    if room_session.following() != state.get("_page_following", False):
        st.rerun(scope="app")  # followed or left the stage: the page comes or goes
    joined = room_session.joined()
    if joined is None:
        push.forget(store)
        return
    try:
        room = store.get(joined["code"])
    except RoomError as error:
        st.warning(room_session.refusal(error.code), icon=":material/cloud_off:")
        return
    if pushed:
        push.listen(store, joined["code"], seen_by_students(room))
    if room is None:
        st.info(tr("The class room has ended.", "课堂已结束。"), icon=":material/info:")
        st.button(tr("Leave", "离开"), key="room_leave", on_click=room_session.leave)
        return
    with st.container(key="room_bar", horizontal=True, vertical_alignment="center"):
        if joined["following"]:
            st.markdown(tr(f"Class `{room.code}` · following the presenter",
                           f"课堂 `{room.code}` · 跟随讲者"))
            st.button(tr("Explore on my own", "自己探索"), key="room_explore",
                      on_click=room_session.follow, args=(False,))
        else:
            st.markdown(tr(f"Class `{room.code}` · exploring", f"课堂 `{room.code}` · 自由探索"))
            st.button(tr("Follow the presenter", "重新跟随讲者"), key="room_follow",
                      on_click=room_session.follow, args=(True,), type="primary")
    vote = room.vote
    step = (room.view.get("step") or ["0"])[0]
    moved_on = vote is not None and vote.revealed and step != str(vote.step)
    if vote is not None and not vote.closed and not moved_on:
        vote_card(room, joined["code"], joined["voter"])
    if joined["following"]:
        stage_view(store, room)


def stage_view(store, room) -> None:
    """The presenter's stage as its page drew it (pages/room/stage.py): the
    title, the lines and the trees, in the student's language where the
    page gave it (the Grow page does), else in the presenter's."""
    try:
        stage = store.stage(room.code)
    except RoomError as error:
        st.warning(room_session.refusal(error.code), icon=":material/cloud_off:")
        return
    # constant CSS, no user text: a tree as wide as the phone at most
    st.html("<style>.st-key-room_stage [data-testid='stGraphVizChart'] svg "
            "{max-width: 100%; height: auto;}</style>")
    with st.container(key="room_stage"):
        if stage is None or not (stage["title"] or stage["trees"] or stage["too_large"]):
            st.info(tr("The presenter's page has no tree to follow right now.",
                       "讲者当前的页面没有可跟随的决策树。"), icon=":material/info:")
            return
        shown = in_language(stage, lang())  # (the presenter's, unless also given in ours)
        if shown["title"]:
            st.markdown(f"**{shown['title']}**")
        for line in shown["lines"]:
            st.markdown(line)
        for caption, dot in shown["trees"]:
            if caption:
                st.markdown(caption)
            st.graphviz_chart(dot, width="content")
        if stage["too_large"]:
            st.info(tr("The presenter's trees are too large to send to every phone: "
                       "explore on your own to see them.",
                       "讲者的决策树太大，无法发送到每部手机：请点击“自己探索”查看。"),
                    icon=":material/info:")


def vote_card(room, code, voter) -> None:
    vote = room.vote
    state = st.session_state
    mine = vote.ballots.get(voter)
    with st.container(key="vote_card", border=True):
        st.markdown(f"**{votetext.question(vote.node, lang())}**")
        if not vote.revealed:
            node_rows(vote)
        if vote.revealed:
            chosen = vote.ranking[0][0] if vote.ranking else None
            st.success(md(votetext.verdict(mine.feature if mine else None, chosen, lang())))
            top = ", ".join(f"{md(f)} ({s:.3f})" for f, s in vote.ranking[:3])
            st.caption(tr(f"Best splits: {top}", f"最佳划分：{top}"))
            return
        if state.get("_vote_for") != (room.code, vote.node, vote.step):
            state["_vote_for"] = (room.code, vote.node, vote.step)
            state.pop("vote_feature", None)
            state.pop("vote_range", None)
        st.radio(tr("Feature", "特征"), vote.options, key="vote_feature",
                 index=vote.options.index(mine.feature) if mine else None,
                 format_func=lambda f: f if f not in vote.ranges else
                 tr(f"{f} (numeric)", f"{f}（数值）"))
        feature = state.get("vote_feature")
        if feature in vote.ranges:
            st.radio(tr("Its threshold, if you like", "阈值范围（可选）"),
                     ("", *vote.ranges[feature]), key="vote_range", horizontal=True,
                     format_func=lambda r: r or tr("any", "不限"))
        st.button(tr("Change my vote", "修改我的投票") if mine else tr("Vote", "投票"),
                  key="vote_send", type="primary", disabled=feature is None,
                  on_click=_cast, args=(code, voter))
        if mine:
            said = mine.feature + (f" · {mine.range}" if mine.range else "")
            st.caption(tr(f"Your vote: {md(said)} (you can change it until the reveal)",
                          f"你的投票：{md(said)}（揭晓前可以修改）"))
        error = state.pop("_vote_error", None)
        if error:
            st.warning(tr("The vote was not taken: ", "投票未被接受：") + room_session.refusal(error))


def node_rows(vote) -> None:
    """The node's rows (its class counts), as the presenter's vote gave them."""
    if vote.rows:
        st.caption(md(votetext.counts_line(vote.rows, lang())))
