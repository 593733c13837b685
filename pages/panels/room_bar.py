"""A student's bar on every page while in a class room: following the
presenter (or exploring, with a button back), and the vote card when the
presenter opens a vote.  Drawn by app.py; it checks the room every second
and reruns the whole app when the presenter's view changed.

What a student sends is a choice from the vote's own lists; the store
checks it again (pages/room/store.py).
"""

from __future__ import annotations

import streamlit as st

from dtree.views import votetext
from dtree.views.links import md
from pages.room.model import Ballot
from pages.room.store import RoomError
from pages.state import room_session
from pages.state.current_tree import current_fit
from pages.state.session import lang, tr

#: How often a student's page looks at the room, in seconds.
POLL_SECONDS = 1.0


def _cast(code, voter):
    state = st.session_state
    feature = state.get("vote_feature")
    picked = state.get("vote_range")
    try:
        room_session.store().cast(code, voter, Ballot(feature, picked or None))
        state["_voted"] = (feature, picked or None)
    except RoomError as error:
        state["_vote_error"] = error.code


@st.fragment(run_every=POLL_SECONDS)
def room_bar() -> None:
    """The bar and the vote card (a fragment: a vote reruns it alone)."""
    joined = room_session.joined()
    if joined is None:
        return
    room = room_session.store().get(joined["code"])
    state = st.session_state
    if room is None:
        st.info(tr("The class room has ended.", "课堂已结束。"), icon=":material/info:")
        st.button(tr("Leave", "离开"), key="room_leave", on_click=room_session.leave)
        return
    if joined["following"] and room.view != state.get("_room_view"):
        st.rerun(scope="app")  # the presenter moved: the frame takes the new view
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
    """The node's rows (its class counts), from this session's tree when it
    is the presenter's (a follower's)."""
    fit, _ = current_fit()
    if fit is None:
        return
    spec = votetext.vote_spec(fit.model, vote.step)
    if spec is not None and spec.node == vote.node:
        st.caption(md(votetext.counts_line(fit.model, spec, lang())))
