"""The presenter's class vote on the Grow page: open a room and a vote on
the node about to split (V), show the room's code, link and QR code with
the live tally, reveal the votes next to the node's real ranking (A, the answer).

Only this session holds the room's secret; every change goes through the
store, which checks it.  The words and numbers are in
dtree.views.votetext; the store in pages/room/.
"""

from __future__ import annotations

import io
from urllib.parse import urlsplit

import segno
import streamlit as st

from dtree.views import votetext
from dtree.views.links import md
from pages.room.ranges import range_of, threshold_ranges
from pages.room.store import RoomError
from pages.state import room_session
from pages.state.session import lang, step_button, tr


#: How often the presenter's tally reads the room, in seconds.
TALLY_SECONDS = 0.5


def room_link(code: str) -> str:
    """The students' link: this server's address (as the presenter's browser
    reached it) with /join?room=CODE."""
    url = urlsplit(st.context.url or "http://localhost:8501/")
    return f"{url.scheme}://{url.netloc}/join?room={code}"


def open_vote(fit, step) -> None:
    """(on_click) A room if there is none, and a vote on the node split
    after ``step``."""
    spec = votetext.vote_spec(fit.model, step)
    if spec is None:  # (the button is disabled once the tree is grown)
        return
    code = room_session.open_room("")
    host = room_session.hosting()
    ranges = {}
    for feature in spec.numeric:
        values = votetext.node_values(fit.model, step, fit.X_train_encoded, feature)
        labels = threshold_ranges(values)
        if labels:
            ranges[feature] = tuple(labels)
    try:
        room_session.store().open_vote(code, host["secret"], node=spec.node, step=step,
                                       options=spec.options, ranges=ranges,
                                       rows=votetext.node_rows(fit.model, spec))
    except RoomError as error:
        st.session_state["_vote_problem"] = error.code


def reveal(fit) -> None:
    """(on_click) Put the votes next to the ranking."""
    host = room_session.hosting()
    room = room_session.store().get(host["code"]) if host else None
    if room is None or room.vote is None:
        return
    ranked = tuple(votetext.ranking(fit.model, room.vote.node))
    try:
        room_session.store().reveal(host["code"], host["secret"], ranked)
    except RoomError as error:
        st.session_state["_vote_problem"] = error.code


def vote_button(bar, compact, fit, step, n_steps) -> None:
    """The stepping bar's Class vote button (V) and, while the presenter
    hosts a room, its code and End the class; not for a student in a room."""
    if room_session.joined() is not None:
        return
    step_button(bar, tr("Class vote", "课堂投票"), "class_vote", ":material/how_to_vote:",
                compact, on_click=open_vote, args=(fit, step), shortcut="V",
                disabled=step >= n_steps)
    host = room_session.hosting()
    if host is not None:  # the room's code, and the end of the class
        if compact:
            bar.markdown(f"`{host['code']}`", width="content")
        step_button(bar, tr(f"End the class {host['code']}", f"结束课堂 {host['code']}"),
                    "room_end", ":material/logout:", compact, on_click=room_session.close_room)


def open_room_vote(step):
    """The room and its vote when a vote is open on this step, else None."""
    host = room_session.hosting()
    if host is None:
        return None
    room = room_session.store().get(host["code"])
    if room is None or room.vote is None or room.vote.closed or room.vote.step != step:
        return None
    return room


def qr_svg(link: str) -> str:
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=5, border=2)
    return out.getvalue().decode()


def panel(fit, room) -> None:
    """The code, the link, the QR code, and the tally or the reveal (a
    fragment of its own: it alone reads the room while the class votes)."""
    vote, code = room.vote, room.code
    link = room_link(code)
    st.markdown(f"### {tr('Room', '课堂')} `{code}`")
    st.markdown(f"**{votetext.question(vote.node, lang())}**")
    if not vote.revealed:  # (after the reveal the table takes the room)
        top = st.columns([1, 1], vertical_alignment="center")
        top[0].image(qr_svg(link), width=150)
        top[1].code(link, language=None, wrap_lines=True)
    tally_panel(fit, code, vote.node, vote.step, qr_shown=not vote.revealed)


@st.fragment(run_every=TALLY_SECONDS)
def tally_panel(fit, code, node, step, qr_shown=False) -> None:
    """The live tally, or the reveal, of the vote on ``node`` at ``step``.

    Only this fragment reruns on its timer, not the stepper around it: a
    timer's rerun carries the browser's widget values and URL as they were
    when it was sent, so a stepper on a timer could be sent back a step by
    a rerun that left before a click's run had drawn the new step."""
    room = open_room_vote(step)
    if room is None or room.code != code or room.vote.node != node:
        return  # the vote is over; the stepper's next run takes the panel away
    vote = room.vote
    if vote.revealed and qr_shown:
        st.rerun()  # once: the whole panel again, the reveal's table in the QR code's place
    tally = vote.tally()
    if vote.revealed:
        st.dataframe(votetext.reveal_table(fit.model, vote.node, tally, lang()),
                     hide_index=True, width="stretch")
        threshold_caption(fit, vote)
        st.caption(tr("Next step (→) makes the split.", "下一步（→）执行这次划分。"))
    else:
        total = max(sum(tally.values()), 1)
        for feature, n in sorted(tally.items(), key=lambda kv: -kv[1]):
            st.progress(n / total, text=f"{md(feature)} · {n}")
        st.caption(votetext.tally_line(tally, lang()))
        st.button(tr("Reveal", "揭晓"), key="vote_reveal", icon=":material/visibility:",
                  on_click=reveal, args=(fit,), shortcut="A", type="primary")
    problem = st.session_state.pop("_vote_problem", None)
    if problem:
        st.warning(tr("The vote could not change: ", "投票无法更改：")
                   + room_session.refusal(problem))


def threshold_caption(fit, vote) -> None:
    """Where the tree's threshold lies among the ranges offered for the
    winning feature, and how many students picked that range."""
    chosen = votetext.winner(fit.model, vote.node)
    if chosen not in vote.ranges:
        return
    picks = vote.range_tally(chosen)
    threshold = float(fit.model.growth_tree_.threshold[vote.node])
    values = fit.view(("vote_values", vote.step, chosen), lambda: votetext.node_values(
        fit.model, vote.step, fit.X_train_encoded, chosen))
    where = range_of(threshold, values)
    if where is None:
        return
    right, ranged = picks.get(where, 0), sum(picks.values())
    st.caption(tr(f"Threshold {threshold:.4g}: in the range {md(where)}, "
                  f"picked by {right} of the {ranged} who chose a range.",
                  f"阈值 {threshold:.4g} 落在范围 {md(where)} 中；"
                  f"选择了范围的 {ranged} 人中有 {right} 人选对。"))
